// spire translate: between SPIR-V binaries and the structured IR's MLIR syntax.
#include "CommandLine.h"
#include "Commands.h"
#include "DialectIO.h"

#include <cstdio>
#include <unistd.h>

namespace spire::tool {

namespace {

constexpr const char *kTranslateHelp =
    R"(spire translate - between SPIR-V binaries and the structured IR's MLIR syntax

Usage: spire translate --deserialize-spirv [options] [<file>]
       spire translate --serialize-spirv [options] [<file>]

--deserialize-spirv reads a SPIR-V binary (either byte order), validates it (the structured IR
is defined on valid modules) and prints its spirv.module in the syntax of MLIR's SPIR-V dialect,
as mlir-translate-16 --deserialize-spirv does. --serialize-spirv reads that syntax (or MLIR's
generic form) and writes the SPIR-V binary. <file> '-' or absent: standard input.

Options:
  -o <file>            write to <file> ('-': standard output, the default for text)
  --generic            print every op in MLIR's generic form
  --mlir16             print types as MLIR 16 holds them, so that mlir-opt-16 reads the text:
                       without the struct decorations (Block, BufferBlock) and pointer strides
                       that spire keeps and MLIR 16 drops
  --target-env <env>   the environment the input is validated for (default spv1.6)
  --no-validate        deserialize without validating first
  --explain-structure  list the constructs kept as blocks with their merge instruction as an
                       op, and why a region could not express them (standard error)
  -h, --help           print this help

Exit status: 0 success, 1 invalid input (unreadable, invalid, or not expressible), 2 usage error.
)";

} // namespace

int runTranslate(std::span<char *const> args) {
  enum class Mode { None, Deserialize, Serialize } mode = Mode::None;
  std::string input = "-";
  DialectFlags flags;
  bool validate = true, explain = false;
  ArgScanner scanner("translate", args);
  bool ok = scanner.scan(
      DialectFlags::kWithValue,
      [&](std::string_view flag, std::string_view value) {
        if (DialectFlags::Taken t = flags.take("translate", flag, value);
            t != DialectFlags::Taken::No)
          return t == DialectFlags::Taken::Yes;
        if (flag == "--deserialize-spirv")
          mode = Mode::Deserialize;
        else if (flag == "--serialize-spirv")
          mode = Mode::Serialize;
        else if (flag == "--no-validate")
          validate = false;
        else if (flag == "--explain-structure")
          explain = true;
        else
          return scanner.unknownOption(flag);
        return true;
      },
      input);
  if (!ok)
    return kUsageError;
  if (scanner.helpAsked()) {
    std::fputs(kTranslateHelp, stdout);
    return kSuccess;
  }
  if (mode == Mode::None)
    return usageError("translate", "say --deserialize-spirv or --serialize-spirv");
  Workspace ws;
  dialect::Context &ctx = *ws.context;
  LoadedModule &loaded = *ws.loaded;
  if (!loadModule(input, validate ? &flags.env : nullptr, explain, ctx, loaded))
    return kInvalidInput;
  if (mode == Mode::Deserialize) {
    if (!loaded.fromBinary)
      return usageError("translate", "--deserialize-spirv reads a SPIR-V binary");
    return writeMlir(*loaded.module, flags.output, flags.generic, flags.mlir16) ? kSuccess
                                                                                : kInvalidInput;
  }
  if (loaded.fromBinary)
    return usageError("translate", "--serialize-spirv reads MLIR text");
  if (flags.output == "-" && ::isatty(1))
    return usageError("translate", "not writing a binary to a terminal; use -o <file>");
  return writeSpirv(*loaded.module, flags.output) ? kSuccess : kInvalidInput;
}

} // namespace spire::tool
