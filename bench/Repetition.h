// Repetition: timing an operation several times, for at least a minimum time, and taking the
// median, so that one measurement is neither a single noisy sample nor an endless loop. Times are
// CPU time of the calling thread (what the work costs, even on a machine other jobs keep busy) and
// wall time beside it.
#pragma once

#include <chrono>
#include <functional>
#include <vector>

namespace spire::bench {

using Clock = std::chrono::steady_clock;

struct RepeatOptions {
  double minTime = 0.3;     ///< CPU seconds of timed calls per measurement, at least
  unsigned minReps = 3;     ///< timed samples per measurement, at least
  unsigned maxReps = 1000;  ///< timed samples per measurement, at most
  double singleAbove = 2.0; ///< a first call this slow (CPU seconds) is the only sample
};

/// Both clocks at one instant, and their difference.
struct Stamp {
  double cpu = 0;  ///< CPU time of this thread (user + system), seconds
  double wall = 0; ///< steady clock, seconds
  static Stamp now();
  Stamp operator-(const Stamp &o) const { return {cpu - o.cpu, wall - o.wall}; }
};

struct Timing {
  double median = 0;     ///< CPU seconds per call
  double min = 0;        ///< CPU seconds per call
  double medianWall = 0; ///< wall seconds per call
  unsigned reps = 0;     ///< samples (each one call, or the mean of a batch of fast calls)
  unsigned batch = 1;    ///< calls per sample
};

double secondsSince(Clock::time_point start);
/// The median of the samples (the mean of the middle two for an even count); 0 when empty.
double median(std::vector<double> samples);
/// Median and minimum of per-call samples.
Timing summarize(const std::vector<Stamp> &samples);

/// Calls `op` once as a warm-up (it is the only sample when it takes singleAbove or more), then
/// times samples until minReps and minTime are both reached, or maxReps. Calls faster than a
/// millisecond are timed in batches (the CPU clock costs microseconds to read). A caller that
/// already made the warm-up call passes what it cost as `warmup`.
Timing repeat(const std::function<void()> &op, const RepeatOptions &options,
              const Stamp *warmup = nullptr);

} // namespace spire::bench
