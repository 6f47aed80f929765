// InProcessBench: `spire_bench measure`, which times spire's reader, writer, disassembler and
// assembler, and SPIRV-Tools' equivalents, inside one process: per file, or over all files.
#pragma once

#include <span>

namespace spire::bench {

/// Measures the files named by the arguments; prints one JSON line per measurement. Returns the
/// process exit code.
int runMeasure(std::span<char *const> args);

} // namespace spire::bench
