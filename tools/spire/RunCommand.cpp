// spire run: executes shaders and AmberScript / VkScript tests on a Vulkan driver. This program
// is linked statically, and a static program must not load a driver stack; so `spire run`
// replaces itself with spire-run, the dynamically linked runner installed beside it.
#include "CommandLine.h"
#include "Commands.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

namespace spire::tool {

int runRun(std::span<char *const> args) {
  char self[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  std::string runner = "spire-run";
  if (n > 0) {
    self[n] = '\0';
    std::string dir(self);
    size_t slash = dir.rfind('/');
    runner = dir.substr(0, slash + 1) + "spire-run";
  }
  std::vector<char *> argv;
  argv.push_back(const_cast<char *>(runner.c_str()));
  for (char *a : args)
    argv.push_back(a);
  argv.push_back(nullptr);
  ::execv(runner.c_str(), argv.data());
  std::fprintf(stderr, "spire run: cannot start the runner %s: %s\n", runner.c_str(),
               std::strerror(errno));
  return kInvalidInput;
}

} // namespace spire::tool
