// spire_bench dxil: reading DXIL containers' bitcode into the LLVM module model, and translating
// them to SPIR-V, in process.
#pragma once

#include <span>

namespace spire::bench {

/// spire_bench dxil [--passes N] <dir or files...>: the median time of a pass over every
/// container (read to the model; read and print), as MB/s of bitcode, one JSON line each.
int runDxil(std::span<char *const> args);

/// spire_bench dxil-translate [--passes N] <dir or files...>: the median time of a pass that
/// translates every container to SPIR-V (and of one that also validates the modules), one JSON
/// line each.
int runDxilTranslate(std::span<char *const> args);

} // namespace spire::bench
