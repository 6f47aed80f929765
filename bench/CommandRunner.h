// CommandRunner: `spire_bench run`, which times programs (spire and the reference tools) from a
// job list, with their peak memory, a time limit, and a hash of what they print.
#pragma once

#include <span>

namespace spire::bench {

/// Runs the jobs of a job file; prints one JSON line per job. Returns the process exit code.
int runCommands(std::span<char *const> args);

} // namespace spire::bench
