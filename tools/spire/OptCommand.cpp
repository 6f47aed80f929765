// spire opt: passes over the structured IR, on either form.
#include "CommandLine.h"
#include "Commands.h"
#include "DialectIO.h"

#include "spire/transforms/Pass.h"

#include <cstdio>
#include <unistd.h>

namespace spire::tool {

namespace {

constexpr const char *kOptHelp = R"(spire opt - run passes over the structured SPIR-V IR

Usage: spire opt [--passes <p1,p2,...>] [options] [<file>]

Reads a SPIR-V binary (deserialized after validation) or MLIR text (detected from the first
bytes, verified), runs the passes in order, verifying the IR after each, and writes the result
in the input's form unless --emit says otherwise; without --passes it writes what it read (as
mlir-opt does). <file> '-' or absent: standard input.

Options:
  --passes <list>      comma-separated pass names (see --list-passes); none by default
  --list-passes        print the passes and what they do
  --emit <form>        spirv (a binary) or mlir (text)
  -o <file>            write to <file> ('-': standard output)
  --generic            print MLIR text in the generic form
  --mlir16             print types as MLIR 16 holds them (see spire translate --help)
  --target-env <env>   the environment a binary input is validated for (default spv1.6)
  -h, --help           print this help

Exit status: 0 success, 1 invalid input or a pass failed, 2 usage error.
)";

} // namespace

int runOpt(std::span<char *const> args) {
  std::string input = "-", passes, emit;
  DialectFlags flags;
  bool list = false;
  constexpr std::string_view withValue[] = {"-o", "--target-env", "--passes", "--emit"};
  ArgScanner scanner("opt", args);
  bool ok = scanner.scan(
      withValue,
      [&](std::string_view flag, std::string_view value) {
        if (DialectFlags::Taken t = flags.take("opt", flag, value); t != DialectFlags::Taken::No)
          return t == DialectFlags::Taken::Yes;
        if (flag == "--passes")
          passes = value;
        else if (flag == "--emit") {
          if (value != "spirv" && value != "mlir") {
            usageError("opt", "--emit is spirv or mlir, not '" + std::string(value) + "'");
            return false;
          }
          emit = value;
        } else if (flag == "--list-passes")
          list = true;
        else
          return scanner.unknownOption(flag);
        return true;
      },
      input);
  if (!ok)
    return kUsageError;
  if (scanner.helpAsked()) {
    std::fputs(kOptHelp, stdout);
    return kSuccess;
  }
  if (list) {
    for (const transforms::PassInfo &p : transforms::registeredPasses())
      std::printf("  %-18s %s\n", p.name.c_str(), p.description.c_str());
    return kSuccess;
  }
  // Without --passes, as mlir-opt: read, verify (or validate) and write back.
  transforms::PassManager pm;
  if (!passes.empty())
    if (Status s = pm.addPipeline(passes); !s)
      return usageError("opt", s.error().message);
  Workspace ws;
  dialect::Context &ctx = *ws.context;
  LoadedModule &loaded = *ws.loaded;
  if (!loadModule(input, &flags.env, false, ctx, loaded))
    return kInvalidInput;
  if (Status s = pm.run(*loaded.module, ctx); !s) {
    report(s.error(), input == "-" ? "<stdin>" : input);
    return kInvalidInput;
  }
  bool binary = emit.empty() ? loaded.fromBinary : emit == "spirv";
  if (binary && flags.output == "-" && ::isatty(1))
    return usageError("opt", "not writing a binary to a terminal; use -o <file>");
  bool written = binary ? writeSpirv(*loaded.module, flags.output)
                        : writeMlir(*loaded.module, flags.output, flags.generic, flags.mlir16);
  return written ? kSuccess : kInvalidInput;
}

} // namespace spire::tool
