// spire: one program, one subcommand per job.
#include "CommandLine.h"
#include "Commands.h"

#include <cstdio>
#include <string_view>

namespace {

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
      // `spire run` execs the runner at once; `spire translate` decides when it has its input.
      // `spire dis` maps at once the functions its DXIL disassembly runs, which the link packs
      // together (CommandLine.cpp, populateHotText), and the whole image once it knows its
      // input is SPIR-V (DisCommand.cpp).
      if (name == "dis")
        spire::tool::populateHotText(spire::tool::HotText::Dis);
      else if (name != "run" && name != "translate")
        spire::tool::populateProgramImage();
      return c.run(std::span<char *const>(argv + 2, static_cast<size_t>(argc - 2)));
    }
  std::fprintf(stderr, "spire: unknown command '%s' (see 'spire --help')\n", argv[1]);
  return spire::tool::kUsageError;
}
