#include "CommandLine.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <malloc.h>
#include <sys/mman.h>

namespace spire::tool {

bool ArgScanner::scan(
    std::span<const std::string_view> withValue,
    const std::function<bool(std::string_view flag, std::string_view value)> &onFlag,
    const std::function<bool(std::string_view positional)> &onPositional) {
  bool flagsDone = false;
  for (size_t i = 0; i < args_.size(); ++i) {
    std::string_view a = args_[i];
    if (flagsDone || a.size() < 2 || a[0] != '-') {
      if (!onPositional(a))
        return false;
      continue;
    }
    if (a == "--") {
      flagsDone = true;
      continue;
    }
    std::string longForm;
    if (singleDashLong_ && a.size() > 2 && a[1] != '-') {
      longForm = "-" + std::string(a);
      a = longForm;
    }
    if (a == "-h" || a == "--help") {
      helpAsked_ = true;
      continue;
    }
    std::string_view name = a, value;
    size_t eq = a.find('=');
    bool inlineValue = a.starts_with("--") && eq != std::string_view::npos;
    if (inlineValue) {
      name = a.substr(0, eq);
      value = a.substr(eq + 1);
    }
    bool takesValue = std::find(withValue.begin(), withValue.end(), name) != withValue.end();
    if (takesValue && !inlineValue) {
      if (i + 1 >= args_.size()) {
        usageError(command_, "option " + std::string(name) + " needs a value");
        return false;
      }
      value = args_[++i];
    } else if (!takesValue && inlineValue) {
      usageError(command_, "option " + std::string(name) + " takes no value");
      return false;
    }
    if (!onFlag(name, value))
      return false;
  }
  return true;
}

bool ArgScanner::scan(
    std::span<const std::string_view> withValue,
    const std::function<bool(std::string_view flag, std::string_view value)> &onFlag,
    std::string &input) {
  bool haveInput = false;
  return scan(withValue, onFlag, [&](std::string_view positional) {
    if (haveInput) {
      usageError(command_, "more than one input file");
      return false;
    }
    input = positional;
    haveInput = true;
    return true;
  });
}

bool ArgScanner::unknownOption(std::string_view flag) const {
  usageError(command_, "unknown option " + std::string(flag));
  return false;
}

int usageError(std::string_view command, std::string_view message) {
  std::fprintf(stderr, "spire %.*s: %.*s (see 'spire %.*s --help')\n", int(command.size()),
               command.data(), int(message.size()), message.data(), int(command.size()),
               command.data());
  return kUsageError;
}

void report(const Diagnostic &d, std::string_view source) {
  std::string line = d.formatWithNotes(source);
  std::fprintf(stderr, "%s\n", line.c_str());
}

void populateHeap(size_t bytes) {
#ifdef MADV_POPULATE_WRITE
  bytes = std::min<size_t>(bytes, size_t(64) << 20);
  mallopt(M_MMAP_THRESHOLD, int(bytes) + (1 << 20));
  mallopt(M_TRIM_THRESHOLD, int(bytes) + (1 << 20));
  void *block = std::malloc(bytes);
  if (!block)
    return;
  const uintptr_t page = 4096, at = reinterpret_cast<uintptr_t>(block);
  const uintptr_t begin = (at + page - 1) & ~(page - 1), end = (at + bytes) & ~(page - 1);
  if (end > begin)
    madvise(reinterpret_cast<void *>(begin), end - begin, MADV_POPULATE_WRITE);
  std::free(block);
#else
  (void)bytes;
#endif
}

} // namespace spire::tool
