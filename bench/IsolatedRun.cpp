#include "IsolatedRun.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

namespace spire::bench {

namespace {

itimerval oneShot(double seconds) {
  itimerval timer{};
  timer.it_value.tv_sec = static_cast<time_t>(seconds);
  timer.it_value.tv_usec =
      static_cast<suseconds_t>((seconds - double(timer.it_value.tv_sec)) * 1e6);
  if (timer.it_value.tv_sec == 0 && timer.it_value.tv_usec == 0)
    timer.it_value.tv_usec = 1;
  return timer;
}

} // namespace

void armTimeLimit(double seconds) {
  if (seconds <= 0)
    return;
  std::signal(SIGPROF, SIG_DFL);
  std::signal(SIGALRM, SIG_DFL);
  itimerval cpu = oneShot(seconds);
  itimerval wall = oneShot(3 * seconds + 5);
  ::setitimer(ITIMER_PROF, &cpu, nullptr);
  ::setitimer(ITIMER_REAL, &wall, nullptr);
}

bool isTimeLimitSignal(int signal) { return signal == SIGPROF || signal == SIGALRM; }

namespace {

bool writeAll(int fd, const char *data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

} // namespace

IsolatedResult runIsolated(const std::function<std::string()> &body, double timeoutSeconds) {
  IsolatedResult result;
  std::fflush(stdout);
  std::fflush(stderr);
  int fds[2];
  if (::pipe(fds) != 0) {
    result.end = IsolatedResult::End::Crashed;
    result.why = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    result.end = IsolatedResult::End::Crashed;
    result.why = std::string("fork: ") + std::strerror(errno);
    return result;
  }
  if (pid == 0) {
    ::close(fds[0]);
    armTimeLimit(timeoutSeconds);
    std::string out = body();
    bool ok = writeAll(fds[1], out.data(), out.size());
    ::_exit(ok ? 0 : 3);
  }
  ::close(fds[1]);
  // Read while the child runs: it may send more than a pipe holds.
  std::string received;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    received.append(buf, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status) && isTimeLimitSignal(WTERMSIG(status))) {
    result.end = IsolatedResult::End::TimedOut;
  } else if (WIFSIGNALED(status)) {
    result.end = IsolatedResult::End::Crashed;
    result.why = std::string("killed by signal ") + std::to_string(WTERMSIG(status)) + " (" +
                 strsignal(WTERMSIG(status)) + ")";
  } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
    result.end = IsolatedResult::End::Crashed;
    result.why = "exited with status " + std::to_string(WEXITSTATUS(status));
  } else {
    result.output = std::move(received);
  }
  return result;
}

} // namespace spire::bench
