// IsolatedRun: running a measurement in a forked child with a time limit, so that a quadratic
// reference tool on a huge module, or a crash in code under development, costs one table cell
// instead of the whole benchmark run.
#pragma once

#include <functional>
#include <string>

namespace spire::bench {

struct IsolatedResult {
  enum class End { Finished, TimedOut, Crashed };
  End end = End::Finished;
  std::string output; ///< what the body returned (only when Finished)
  std::string why;    ///< for Crashed: the signal or exit status
};

/// Forks; the child runs `body` and sends back the string it returns. The child is killed when
/// it uses more than `timeoutSeconds` of CPU time (0: no limit; see armTimeLimit). Output printed
/// by the parent before the call is flushed first so that the child does not print it again.
IsolatedResult runIsolated(const std::function<std::string()> &body, double timeoutSeconds);

/// Arms timers that kill this process after `seconds` of CPU time (SIGPROF), or after three
/// times as long plus 5 s of wall time (SIGALRM) should it wait on something instead of
/// running. Timers survive exec, which is how commands get their limit. 0: no limit.
void armTimeLimit(double seconds);
/// Whether a process killed by `signal` was stopped by armTimeLimit's timers.
bool isTimeLimitSignal(int signal);

} // namespace spire::bench
