#include "CommandRunner.h"

#include "IsolatedRun.h"
#include "JsonLine.h"
#include "Repetition.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <string>
#include <string_view>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace spire::bench {

namespace {

constexpr const char *kHelp = R"(spire_bench run - time commands from a job file

Usage: spire_bench run [options] <jobs.tsv>

Each line of the job file is one job: key, stdout path, program, arguments, separated by tabs.
The program's standard output goes to the stdout path ('-': discarded), its standard error to
<stdout path>.err. A job runs --runs times in a row (once when the first run takes
--single-above CPU seconds or more) and prints one JSON line: key, exit code, median CPU
time (user + system), median and minimum wall time, median user and system time, peak resident
memory (the maximum over the runs), the size and FNV-1a hash of the last run's standard output,
the first line of its standard error (when it failed).

With --jobs N, N jobs run at once (the times are CPU times, which that disturbs little), each
writing to its own copy of the stdout path (<path>.<slot>); lines come in the order jobs end.

Options:
  --jobs <n>            jobs running at once (default 1)
  --runs <n>            runs per job (default 1)
  --single-above <s>    a first run this slow is the only one (default 2)
  --timeout <s>         stop a run after this many CPU seconds (or 3x + 5 s of wall time) and
                        report timed_out (default 0: no limit)
)";

struct Job {
  std::string key;
  std::string stdoutPath;
  std::vector<std::string> argv;
};

struct RunOptions {
  unsigned jobs = 1;
  unsigned runs = 1;
  double singleAbove = 2.0;
  double timeout = 0;
};

std::vector<std::string> splitTabs(const std::string &line) {
  std::vector<std::string> fields;
  size_t start = 0;
  for (;;) {
    size_t tab = line.find('\t', start);
    fields.push_back(
        line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
    if (tab == std::string::npos)
      return fields;
    start = tab + 1;
  }
}

struct OutputDigest {
  uint64_t bytes = 0;
  uint64_t hash = 0xcbf29ce484222325ull; // FNV-1a 64 offset basis
};

OutputDigest digestFile(const std::string &path) {
  OutputDigest d;
  int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0)
    return d;
  std::vector<unsigned char> buf(1 << 20);
  for (;;) {
    ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    for (ssize_t i = 0; i < n; ++i) {
      d.hash ^= buf[static_cast<size_t>(i)];
      d.hash *= 0x100000001b3ull;
    }
    d.bytes += static_cast<uint64_t>(n);
  }
  ::close(fd);
  return d;
}

std::string firstLine(const std::string &path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  if (line.size() > 300)
    line.resize(300);
  return line;
}

struct OneRun {
  double wall = 0, user = 0, sys = 0;
  long maxrssKb = 0;
  int exitCode = 0; ///< -1 when killed by a signal other than the time limit
  bool timedOut = false;
  std::string signal;
};

double seconds(const timeval &tv) { return double(tv.tv_sec) + double(tv.tv_usec) * 1e-6; }

/// Starts one run of a job with its output in `outPath`; returns the child's pid, or -1.
pid_t launch(const Job &job, const std::string &outPath, double timeout) {
  std::vector<char *> argv;
  for (const std::string &a : job.argv)
    argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  std::string out = outPath == "-" ? "/dev/null" : outPath;
  std::string err = outPath == "-" ? "/dev/null" : outPath + ".err";
  std::fflush(stdout);
  pid_t pid = ::fork();
  if (pid == 0) {
    armTimeLimit(timeout);
    int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (o < 0 || e < 0 || ::dup2(o, 1) < 0 || ::dup2(e, 2) < 0)
      ::_exit(126);
    ::close(o);
    ::close(e);
    ::execvp(argv[0], argv.data());
    std::fprintf(stderr, "cannot run %s: %s\n", argv[0], std::strerror(errno));
    ::_exit(127);
  }
  return pid;
}

OneRun finished(int status, const rusage &usage, double wall) {
  OneRun r;
  r.wall = wall;
  r.user = seconds(usage.ru_utime);
  r.sys = seconds(usage.ru_stime);
  r.maxrssKb = usage.ru_maxrss;
  if (WIFSIGNALED(status)) {
    r.exitCode = -1;
    r.timedOut = isTimeLimitSignal(WTERMSIG(status));
    r.signal = strsignal(WTERMSIG(status));
  } else {
    r.exitCode = WEXITSTATUS(status);
  }
  return r;
}

/// The runs of one job so far.
struct JobRuns {
  std::vector<double> walls, cpus, users, syss;
  long maxrss = 0;
  OneRun last;

  /// Records a run; returns whether the job needs another.
  bool add(const OneRun &r, const RunOptions &options) {
    last = r;
    maxrss = std::max(maxrss, r.maxrssKb);
    if (r.timedOut)
      return false;
    walls.push_back(r.wall);
    cpus.push_back(r.user + r.sys);
    users.push_back(r.user);
    syss.push_back(r.sys);
    if (walls.size() == 1 && r.user + r.sys >= options.singleAbove)
      return false;
    return walls.size() < std::max(options.runs, 1u);
  }

  std::string report(const Job &job, const std::string &outPath, const RunOptions &options) {
    JsonLine line;
    line.addString("key", job.key).addBool("timed_out", last.timedOut);
    if (last.timedOut)
      line.addNumber("timeout_s", options.timeout);
    line.addInteger("runs", walls.size());
    if (last.exitCode >= 0)
      line.addInteger("rc", static_cast<uint64_t>(last.exitCode));
    else
      line.addString("signal", last.signal);
    line.addNumber("cpu_s", median(cpus))
        .addNumber("wall_s", median(walls))
        .addNumber("wall_min_s", walls.empty() ? 0 : *std::min_element(walls.begin(), walls.end()))
        .addNumber("user_s", median(users))
        .addNumber("sys_s", median(syss))
        .addInteger("maxrss_kb", static_cast<uint64_t>(maxrss));
    if (outPath != "-" && !last.timedOut) {
      OutputDigest d = digestFile(outPath);
      char hex[17];
      std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(d.hash));
      line.addInteger("out_bytes", d.bytes).addString("out_hash", hex);
      if (last.exitCode != 0)
        line.addString("stderr", firstLine(outPath + ".err"));
    }
    return line.str();
  }
};

/// Runs the jobs, `options.jobs` at a time; prints each job's line when its last run ends.
/// Concurrent jobs write to their own copy of the output path (suffix .<slot>).
void runAll(const std::vector<Job> &jobs, const RunOptions &options) {
  struct Slot {
    bool busy = false;
    size_t job = 0;
    pid_t pid = -1;
    Clock::time_point start;
    std::string outPath;
    JobRuns runs;
  };
  unsigned parallel = std::max(options.jobs, 1u);
  std::vector<Slot> slots(parallel);
  size_t next = 0, running = 0;
  auto start = [&](Slot &slot) {
    const Job &job = jobs[slot.job];
    slot.start = Clock::now();
    slot.pid = launch(job, slot.outPath, options.timeout);
    if (slot.pid < 0) { // could not fork: report it as a failed run
      OneRun r;
      r.exitCode = -1;
      r.signal = std::string("fork: ") + std::strerror(errno);
      slot.runs.add(r, options);
      std::string line = slot.runs.report(job, "-", options);
      std::fwrite(line.data(), 1, line.size(), stdout);
      slot.busy = false;
      return false;
    }
    return true;
  };
  for (;;) {
    for (size_t i = 0; i < slots.size() && next < jobs.size(); ++i) {
      Slot &slot = slots[i];
      if (slot.busy)
        continue;
      slot = Slot();
      slot.busy = true;
      slot.job = next++;
      const std::string &out = jobs[slot.job].stdoutPath;
      slot.outPath = out == "-" || parallel == 1 ? out : out + "." + std::to_string(i);
      if (start(slot))
        ++running;
    }
    if (running == 0)
      return;
    int status = 0;
    rusage usage{};
    pid_t pid = ::wait4(-1, &status, 0, &usage);
    if (pid < 0) {
      if (errno == EINTR)
        continue;
      return;
    }
    for (Slot &slot : slots) {
      if (!slot.busy || slot.pid != pid)
        continue;
      --running;
      OneRun r = finished(status, usage, secondsSince(slot.start));
      if (slot.runs.add(r, options)) {
        if (start(slot))
          ++running;
      } else {
        std::string line = slot.runs.report(jobs[slot.job], slot.outPath, options);
        std::fwrite(line.data(), 1, line.size(), stdout);
        std::fflush(stdout);
        slot.busy = false;
      }
      break;
    }
  }
}

bool parseNumber(std::string_view text, double &value) {
  std::string s(text);
  char *end = nullptr;
  value = std::strtod(s.c_str(), &end);
  return !s.empty() && end && *end == '\0' && value >= 0;
}

} // namespace

int runCommands(std::span<char *const> args) {
  RunOptions options;
  std::string jobsPath;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string_view a = args[i];
    auto value = [&](double &out) {
      if (i + 1 >= args.size() || !parseNumber(args[i + 1], out)) {
        std::fprintf(stderr, "spire_bench run: %s needs a non-negative number\n", args[i]);
        return false;
      }
      ++i;
      return true;
    };
    double v = 0;
    if (a == "-h" || a == "--help") {
      std::fputs(kHelp, stdout);
      return 0;
    } else if (a == "--runs") {
      if (!value(v))
        return 2;
      options.runs = static_cast<unsigned>(v);
    } else if (a == "--jobs") {
      if (!value(v))
        return 2;
      options.jobs = static_cast<unsigned>(v);
    } else if (a == "--single-above") {
      if (!value(options.singleAbove))
        return 2;
    } else if (a == "--timeout") {
      if (!value(options.timeout))
        return 2;
    } else if (a.starts_with("-") && a != "-") {
      std::fprintf(stderr, "spire_bench run: unknown option %s\n", args[i]);
      return 2;
    } else {
      jobsPath = a;
    }
  }
  if (jobsPath.empty()) {
    std::fputs("spire_bench run: no job file (see --help)\n", stderr);
    return 2;
  }
  std::ifstream in(jobsPath);
  if (!in) {
    std::fprintf(stderr, "spire_bench run: cannot read %s\n", jobsPath.c_str());
    return 1;
  }
  std::vector<Job> jobs;
  std::string lineText;
  unsigned lineNumber = 0;
  while (std::getline(in, lineText)) {
    ++lineNumber;
    if (lineText.empty())
      continue;
    std::vector<std::string> fields = splitTabs(lineText);
    if (fields.size() < 3) {
      std::fprintf(stderr, "spire_bench run: %s:%u: expected key, stdout path and program\n",
                   jobsPath.c_str(), lineNumber);
      return 1;
    }
    jobs.push_back(
        {fields[0], fields[1], std::vector<std::string>(fields.begin() + 2, fields.end())});
  }
  runAll(jobs, options);
  return 0;
}

} // namespace spire::bench
