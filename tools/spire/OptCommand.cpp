// spire opt: passes over the structured IR, on either form, with mlir-opt's test flags.
#include "CommandLine.h"
#include "Commands.h"
#include "DialectIO.h"
#include "SplitInput.h"

#include "spire/support/File.h"
#include "spire/transforms/Pass.h"

#include <cstdio>
#include <unistd.h>

namespace spire::tool {

namespace {

constexpr const char *kOptHelp = R"(spire opt - run passes over the structured SPIR-V IR

Usage: spire opt [--passes <p1,p2,...>] [--<pass>...] [options] [<file>]

Reads a SPIR-V binary (deserialized after validation) or MLIR text (detected from the first
bytes, verified), runs the passes in order, verifying the IR after each, and writes the result
in the input's form unless --emit says otherwise; without passes it writes what it read (as
mlir-opt does). A pass may also be named as a flag of its own (--canonicalize), as mlir-opt
takes them; options are read in either spelling, -name or --name. <file> '-' or absent:
standard input.

Options:
  --passes <list>      comma-separated pass names (see --list-passes); none by default
  --list-passes        print the passes and what they do
  --emit <form>        spirv (a binary) or mlir (text)
  -o <file>            write to <file> ('-': standard output)
  --generic            print MLIR text in the generic form (also --mlir-print-op-generic)
  --mlir-version <v>   the MLIR release whose text to write: 15, 16 or latest; without it,
                       text is answered in the release it is written in (see spire translate
                       --help), a binary in today's
  --mlir16             the same as --mlir-version 16
  --mlir-print-debuginfo
                       print each op's source position (loc("file":line:col), from the
                       module's OpLine) through #loc aliases, as MLIR prints them
  --mlir-print-local-scope
                       with --mlir-print-debuginfo, each position in place, without aliases
  --target-env <env>   the environment a binary input is validated for (default spv1.6)
  --split-input-file   run on each part of the text between '// -----' lines on its own; the
                       outputs are joined by '// -----' lines
  --verify-diagnostics check the diagnostics against the input's expected-error/-warning/-note
                       annotations instead of printing them; succeed when they all match
  --allow-unregistered-dialect
                       read ops of dialects spire does not have (generic form), keep and print
                       them as they are; without it they are errors (they never serialize)
  --no-implicit-module, --mlir-disable-threading, --error-diagnostics-only
                       accepted for mlir-opt's command lines; they change nothing here
  -h, --help           print this help

Exit status: 0 success, 1 invalid input or a pass failed, 2 usage error.
)";

bool isPassName(std::string_view name) {
  for (const transforms::PassInfo &p : transforms::registeredPasses())
    if (p.name == name)
      return true;
  return false;
}

} // namespace

int runOpt(std::span<char *const> args) {
  std::string input = "-", passes, emit;
  DialectFlags flags;
  bool list = false;
  constexpr std::string_view withValue[] = {"-o", "--target-env", "--mlir-version", "--passes",
                                            "--emit"};
  ArgScanner scanner("opt", args);
  scanner.acceptSingleDashLong();
  bool ok = scanner.scan(
      withValue,
      [&](std::string_view flag, std::string_view value) {
        if (DialectFlags::Taken t = flags.take("opt", flag, value); t != DialectFlags::Taken::No)
          return t == DialectFlags::Taken::Yes;
        if (flag == "--passes")
          passes += (passes.empty() ? "" : ",") + std::string(value);
        else if (flag == "--emit") {
          if (value != "spirv" && value != "mlir") {
            usageError("opt", "--emit is spirv or mlir, not '" + std::string(value) + "'");
            return false;
          }
          emit = value;
        } else if (flag == "--list-passes")
          list = true;
        else if (flag.starts_with("--") && isPassName(flag.substr(2)))
          passes += (passes.empty() ? "" : ",") + std::string(flag.substr(2));
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
  {
    transforms::PassManager check;
    if (!passes.empty())
      if (Status s = check.addPipeline(passes); !s)
        return usageError("opt", s.error().message);
  }
  const std::string source = input == "-" ? "<stdin>" : input;
  std::optional<std::vector<uint8_t>> bytes = readInput(input, source);
  if (!bytes)
    return kInvalidInput;
  const bool binaryIn = isSpirvBinary(*bytes);
  const bool binaryOut = emit.empty() ? binaryIn : emit == "spirv";
  if (binaryOut && flags.output == "-" && ::isatty(1))
    return usageError("opt", "not writing a binary to a terminal; use -o <file>");

  // One input (a binary, or a chunk of text): read, run the passes (without passes, as
  // mlir-opt: read, verify or validate, and write back), write in the chosen form.
  auto process = [&](std::span<const uint8_t> in, bool binary, std::string &out,
                     const DiagnosticSink &diagnose) {
    Workspace ws;
    dialect::Context &ctx = ws.newContext();
    // Text is answered in the release it is written in, a binary in today's, unless the flags
    // say one.
    dialect::MlirVersion written = dialect::MlirVersion::Latest;
    dialect::Operation *m =
        binary ? deserializeModule(ws, ctx, in, &flags.env, false, diagnose,
                                   DialectFlags::deserializeOptions(flags.answerIn(written)))
               : parseModule(ws, ctx,
                             std::string_view(reinterpret_cast<const char *>(in.data()), in.size()),
                             diagnose, flags.parseOptions(), &written);
    if (!m)
      return false;
    transforms::PassManager pm;
    if (!passes.empty())
      (void)pm.addPipeline(passes); // checked above
    if (Status s = pm.run(*m, ctx); !s) {
      diagnose(s.error());
      return false;
    }
    if (!binaryOut) {
      out += flags.print(*m, flags.answerIn(written));
      return true;
    }
    std::optional<std::vector<uint32_t>> words = serializeModule(*m, diagnose);
    if (!words)
      return false;
    out.append(reinterpret_cast<const char *>(words->data()), words->size() * 4);
    return true;
  };
  std::string out;
  bool good;
  if (binaryIn) {
    good = process(*bytes, true, out, [&](const Diagnostic &d) { report(d, source); });
  } else {
    std::string_view text(reinterpret_cast<const char *>(bytes->data()), bytes->size());
    good = runChunks(
        text, source, flags.splitInputFile, flags.verifyDiagnostics,
        [&](const InputChunk &chunk, std::string &chunkOut, const DiagnosticSink &diagnose) {
          std::span<const uint8_t> in(reinterpret_cast<const uint8_t *>(chunk.text.data()),
                                      chunk.text.size());
          return process(in, false, chunkOut, diagnose);
        },
        "// -----\n", out);
  }
  return finishOutput(flags.output, good, out);
}

} // namespace spire::tool
