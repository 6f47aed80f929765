// spire run: executes shaders and AmberScript / VkScript tests on a Vulkan driver. This program
// is linked statically, and a static program must not load a driver stack; so `spire run`
// replaces itself with spire-run, the dynamically linked runner installed beside it.
#include "CommandLine.h"
#include "Commands.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
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
  // The runner's heap in transparent huge pages where the system offers them (glibc's
  // glibc.malloc.hugetlb=1 tunable, read at start-up): glslang's built-in tables, made on the
  // first GLSL compile, otherwise cost thousands of page faults, a third of that compile.
  std::string tunables = "GLIBC_TUNABLES=";
  if (const char *t = std::getenv("GLIBC_TUNABLES"); t && *t) {
    tunables += t;
    if (!std::strstr(t, "glibc.malloc.hugetlb"))
      tunables += ":glibc.malloc.hugetlb=1";
  } else {
    tunables += "glibc.malloc.hugetlb=1";
  }
  std::vector<char *> envp;
  for (char **e = environ; *e; ++e)
    if (std::strncmp(*e, "GLIBC_TUNABLES=", 15) != 0)
      envp.push_back(*e);
  envp.push_back(tunables.data());
  envp.push_back(nullptr);
  ::execve(runner.c_str(), argv.data(), envp.data());
  std::fprintf(stderr, "spire run: cannot start the runner %s: %s\n", runner.c_str(),
               std::strerror(errno));
  return kInvalidInput;
}

} // namespace spire::tool
