#include "Repetition.h"

#include <algorithm>
#include <cmath>
#include <ctime>

namespace spire::bench {

Stamp Stamp::now() {
  timespec ts{};
  // The thread's clock, not the process's: with a CPU-time limit armed (armTimeLimit), the
  // process clock only advances at scheduler ticks. The measured code runs on this thread.
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  Stamp s;
  s.cpu = double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
  s.wall = std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
  return s;
}

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double median(std::vector<double> samples) {
  if (samples.empty())
    return 0;
  size_t mid = samples.size() / 2;
  std::nth_element(samples.begin(), samples.begin() + mid, samples.end());
  double upper = samples[mid];
  if (samples.size() % 2)
    return upper;
  double lower = *std::max_element(samples.begin(), samples.begin() + mid);
  return (lower + upper) / 2;
}

Timing summarize(const std::vector<Stamp> &samples) {
  Timing t;
  t.reps = static_cast<unsigned>(samples.size());
  std::vector<double> cpu, wall;
  for (const Stamp &s : samples) {
    cpu.push_back(s.cpu);
    wall.push_back(s.wall);
  }
  t.median = median(cpu);
  t.min = cpu.empty() ? 0 : *std::min_element(cpu.begin(), cpu.end());
  t.medianWall = median(wall);
  return t;
}

Timing repeat(const std::function<void()> &op, const RepeatOptions &options, const Stamp *warmup) {
  Stamp first;
  if (warmup) {
    first = *warmup;
  } else {
    Stamp start = Stamp::now();
    op();
    first = Stamp::now() - start;
  }
  if (first.cpu >= options.singleAbove)
    return summarize({first});
  constexpr double kMinBatchSeconds = 1e-3;
  unsigned batch = 1;
  if (first.cpu < kMinBatchSeconds)
    batch = static_cast<unsigned>(
        std::min(10000.0, std::ceil(kMinBatchSeconds / std::max(first.cpu, 1e-7))));
  std::vector<Stamp> samples;
  double total = 0;
  while ((samples.size() < options.minReps || total < options.minTime) &&
         samples.size() < std::max(options.maxReps, 1u)) {
    Stamp start = Stamp::now();
    for (unsigned i = 0; i < batch; ++i)
      op();
    Stamp d = Stamp::now() - start;
    total += d.cpu;
    samples.push_back({d.cpu / batch, d.wall / batch});
  }
  Timing t = summarize(samples);
  t.batch = batch;
  return t;
}

} // namespace spire::bench
