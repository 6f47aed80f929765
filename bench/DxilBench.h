// spire_bench dxil: reading DXIL containers' bitcode into the LLVM module model, in process.
#pragma once

#include <span>

namespace spire::bench {

/// spire_bench dxil [--passes N] <dir or files...>: the median time of a pass over every
/// container (read to the model; read and print), as MB/s of bitcode, one JSON line each.
int runDxil(std::span<char *const> args);

} // namespace spire::bench
