// spire: one program, one subcommand per job.
#include "CommandLine.h"
#include "Commands.h"

#include <cstdio>
#include <link.h>
#include <string_view>
#include <sys/mman.h>

namespace {

// Maps every page of the program's own image (code, constants, the grammar tables) in one call
// before a command runs. A static program of this size touches code spread over a hundred 64 KB
// windows per command, and each first touch is a page fault; on the virtual machines where
// spire is built and benchmarked a fault costs 30-60 us, so for a small input the faults were
// most of a command's time (`spire translate` on a small container: 157 faults, 64 of them
// gone with this, 8 ms -> 7 ms of CPU). Populating only maps pages already in the page cache
// (0.3 us a page there); kernels older than 5.14 refuse the advice, which changes nothing.
void populateProgramImage() {
#ifdef MADV_POPULATE_READ
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *) {
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr) &ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_LOAD)
            continue;
          const uintptr_t page = 4096;
          const uintptr_t begin = (info->dlpi_addr + ph.p_vaddr) & ~(page - 1);
          const uintptr_t end =
              (info->dlpi_addr + ph.p_vaddr + ph.p_filesz + page - 1) & ~(page - 1);
          madvise(reinterpret_cast<void *>(begin), end - begin, MADV_POPULATE_READ);
        }
        return 1; // the program itself is the first object; shared libraries are not ours
      },
      nullptr);
#endif
}

struct Command {
  std::string_view name;
  std::string_view summary;
  int (*run)(std::span<char *const> args);
};

constexpr Command kCommands[] = {
    {"as", "assemble SPIR-V assembly text into a binary (like spirv-as)", spire::tool::runAs},
    {"dis", "disassemble a SPIR-V binary into assembly text (like spirv-dis)", spire::tool::runDis},
    {"val", "validate a SPIR-V binary for an environment (like spirv-val)", spire::tool::runVal},
    {"translate", "SPIR-V binary to the structured IR's MLIR syntax and back (like mlir-translate)",
     spire::tool::runTranslate},
    {"opt", "run passes over the structured IR (like mlir-opt)", spire::tool::runOpt},
    {"run", "run compute shaders and AmberScript/VkScript tests on a Vulkan device",
     spire::tool::runRun},
};

void printUsage(std::FILE *out) {
  std::fprintf(out, "spire - a compiler infrastructure for SPIR-V\n\n"
                    "Usage: spire <command> [options] [arguments]\n\nCommands:\n");
  for (const Command &c : kCommands)
    std::fprintf(out, "  %-10.*s %.*s\n", int(c.name.size()), c.name.data(), int(c.summary.size()),
                 c.summary.data());
  std::fprintf(out, "\nRun 'spire <command> --help' for the options of a command.\n"
                    "Exit status: 0 success, 1 invalid input or failed check, 2 usage error.\n");
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    printUsage(stderr);
    return spire::tool::kUsageError;
  }
  std::string_view name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    printUsage(stdout);
    return spire::tool::kSuccess;
  }
  if (name == "--version") {
    std::printf("spire 0.1.0\n");
    return spire::tool::kSuccess;
  }
  for (const Command &c : kCommands)
    if (c.name == name) {
      if (name != "run") // `spire run` execs the runner at once
        populateProgramImage();
      return c.run(std::span<char *const>(argv + 2, static_cast<size_t>(argc - 2)));
    }
  std::fprintf(stderr, "spire: unknown command '%s' (see 'spire --help')\n", argv[1]);
  return spire::tool::kUsageError;
}
