// spire translate: between SPIR-V binaries and the structured IR's MLIR syntax, with
// mlir-translate's test flags (round trips, split input, expected diagnostics).
#include "CommandLine.h"
#include "Commands.h"
#include "DialectIO.h"
#include "SplitInput.h"

#include "spire/dialect/Attributes.h"
#include "spire/support/File.h"

#include <algorithm>
#include <cstdio>
#include <unistd.h>

namespace spire::tool {

namespace {

constexpr const char *kTranslateHelp =
    R"(spire translate - between SPIR-V binaries and the structured IR's MLIR syntax

Usage: spire translate --deserialize-spirv [options] [<file>]
       spire translate --serialize-spirv [options] [<file>]
       spire translate --test-spirv-roundtrip [options] [<file>]
       spire translate --dxil-to-spirv [options] <file.dxil>   (see --dxil-to-spirv --help)

--deserialize-spirv reads a SPIR-V binary (either byte order), validates it (the structured IR
is defined on valid modules) and prints its spirv.module in the syntax of MLIR's SPIR-V dialect,
as mlir-translate --deserialize-spirv does. --serialize-spirv reads that syntax (or MLIR's
generic form) and writes the SPIR-V binary. --test-spirv-roundtrip serializes and deserializes
and prints the result. Several translations chain in the order given (--serialize-spirv
--deserialize-spirv is a round trip, which does not validate what it serialized). <file> '-' or absent: standard input. Options are read
in either spelling, -name or --name, as mlir-translate reads them.

Options:
  -o <file>            write to <file> ('-': standard output, the default)
  --generic            print every op in MLIR's generic form (also --mlir-print-op-generic)
  --mlir16             print types as MLIR 16 holds them, so that mlir-opt-16 reads the text:
                       without the struct decorations (Block, BufferBlock) and pointer strides
                       that spire keeps and MLIR 16 drops; deserialize as mlir-translate-16
                       does (a selection header's ops inside the region, the region's blocks in
                       the module's order)
  --mlir-print-debuginfo
                       print each op's source position (loc("file":line:col), from the
                       module's OpLine) through #loc aliases, as MLIR prints them
  --mlir-print-local-scope
                       with --mlir-print-debuginfo, each position in place, without aliases
  --target-env <env>   the environment a binary input is validated for (default spv1.6)
  --no-validate        deserialize without validating first
  --explain-structure  list the constructs kept as blocks with their merge instruction as an
                       op, and why a region could not express them (notes on standard error)
  --split-input-file   translate each part of the text between '// -----' lines on its own
  --verify-diagnostics check the diagnostics against the input's expected-error/-warning/-note
                       annotations instead of printing them; succeed when they all match
  --spirv-save-validation-files-with-prefix <p>
                       also write each serialized module to <p><n>.spv (n from 0)
  --test-spirv-roundtrip-debug
                       a round trip of a module that allows debug information
                       (SPV_KHR_non_semantic_info); every round trip keeps the source
                       positions and debug instructions a module holds
  --allow-unregistered-dialect
                       read ops of dialects spire does not have (generic form), keep and print
                       them as they are; without it they are errors (they never serialize)
  --no-implicit-module, --mlir-disable-threading, --error-diagnostics-only
                       accepted for mlir-translate's command lines; they change nothing here
  -h, --help           print this help

Exit status: 0 success, 1 invalid input (unreadable, invalid, or not expressible), 2 usage error.
)";

enum class Translation { Deserialize, Serialize, RoundTrip, RoundTripDebug };

/// What flows between chained translations: MLIR text or a binary.
struct Stage {
  bool binary = false;
  std::string text;
  std::vector<uint8_t> bytes;
  bool serialized = false; ///< the binary is what an earlier translation of the command wrote
};

struct TranslateRun {
  DialectFlags flags;
  std::vector<Translation> translations;
  bool validate = true, explain = false;
  std::string validationPrefix;
  uint32_t validationFiles = 0;

  /// Runs the translations on one chunk (or a binary input).
  bool run(Stage stage, std::string &out, const DiagnosticSink &diagnose) {
    Workspace ws;
    for (Translation t : translations) {
      if (t == Translation::Deserialize) {
        if (!stage.binary) {
          diagnose(makeError({}, "--deserialize-spirv reads a SPIR-V binary"));
          return false;
        }
        // What an earlier --serialize-spirv of this command made is read as the round trip
        // reads it, unvalidated (as mlir-translate chains the two).
        dialect::Operation *m = deserializeModule(
            ws, ws.newContext(), stage.bytes, validate && !stage.serialized ? &flags.env : nullptr,
            explain, diagnose, flags.deserializeOptions());
        if (!m)
          return false;
        stage = Stage{false, flags.print(*m), {}};
        continue;
      }
      if (stage.binary) {
        diagnose(makeError({}, "this translation reads MLIR text, not a binary"));
        return false;
      }
      dialect::Operation *m =
          parseModule(ws, ws.newContext(), stage.text, diagnose, flags.parseOptions());
      if (!m)
        return false;
      if (t == Translation::RoundTripDebug && !allowsDebugInfo(*m)) {
        diagnose(makeError(m->location(), "SPV_KHR_non_semantic_info extension not available"));
        return false;
      }
      std::optional<std::vector<uint32_t>> words = serializeModule(*m, diagnose);
      if (!words)
        return false;
      const uint8_t *b = reinterpret_cast<const uint8_t *>(words->data());
      std::vector<uint8_t> bytes(b, b + words->size() * 4);
      if (t == Translation::Serialize) {
        if (!validationPrefix.empty() &&
            !writeOutput(
                validationPrefix + std::to_string(validationFiles++) + ".spv",
                std::string_view(reinterpret_cast<const char *>(bytes.data()), bytes.size())))
          return false;
        stage = Stage{true, {}, std::move(bytes), true};
        continue;
      }
      // A round trip: what was serialized, deserialized in a context of its own, unvalidated
      // (as MLIR's round trip), and printed.
      dialect::Operation *back = deserializeModule(ws, ws.newContext(), bytes, nullptr, false,
                                                   diagnose, flags.deserializeOptions());
      if (!back)
        return false;
      stage = Stage{false, flags.print(*back), {}};
    }
    if (stage.binary)
      out.append(reinterpret_cast<const char *>(stage.bytes.data()), stage.bytes.size());
    else if (out.empty())
      out = std::move(stage.text); // a whole module's text is not copied again
    else
      out += stage.text;
    return true;
  }

  /// MLIR writes debug information only into a module whose extensions allow it.
  static bool allowsDebugInfo(const dialect::Operation &module) {
    dialect::Attribute vce = module.attr("vce_triple");
    if (!vce)
      return false;
    std::span<const std::string> ext = vce.extensions();
    return std::find(ext.begin(), ext.end(), "SPV_KHR_non_semantic_info") != ext.end();
  }
};

} // namespace

int runTranslate(std::span<char *const> args) {
  for (const char *arg : args)
    if (std::string_view(arg) == "--dxil-to-spirv" || std::string_view(arg) == "-dxil-to-spirv")
      return runDxilToSpirv(args);
  std::string input = "-";
  TranslateRun run;
  constexpr std::string_view withValue[] = {"-o", "--target-env",
                                            "--spirv-save-validation-files-with-prefix"};
  ArgScanner scanner("translate", args);
  scanner.acceptSingleDashLong();
  bool ok = scanner.scan(
      withValue,
      [&](std::string_view flag, std::string_view value) {
        if (DialectFlags::Taken t = run.flags.take("translate", flag, value);
            t != DialectFlags::Taken::No)
          return t == DialectFlags::Taken::Yes;
        if (flag == "--deserialize-spirv")
          run.translations.push_back(Translation::Deserialize);
        else if (flag == "--serialize-spirv")
          run.translations.push_back(Translation::Serialize);
        else if (flag == "--test-spirv-roundtrip")
          run.translations.push_back(Translation::RoundTrip);
        else if (flag == "--test-spirv-roundtrip-debug")
          run.translations.push_back(Translation::RoundTripDebug);
        else if (flag == "--spirv-save-validation-files-with-prefix")
          run.validationPrefix = value;
        else if (flag == "--no-validate")
          run.validate = false;
        else if (flag == "--explain-structure")
          run.explain = true;
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
  if (run.translations.empty())
    return usageError("translate",
                      "say --deserialize-spirv, --serialize-spirv or --test-spirv-roundtrip");
  const std::string source = input == "-" ? "<stdin>" : input;
  std::optional<std::vector<uint8_t>> bytes = readInput(input, source);
  if (!bytes)
    return kInvalidInput;
  const bool binaryIn = isSpirvBinary(*bytes);
  if (binaryIn != (run.translations.front() == Translation::Deserialize))
    return usageError("translate", binaryIn ? "a SPIR-V binary is read by --deserialize-spirv"
                                            : "--deserialize-spirv reads a SPIR-V binary");
  const bool binaryOut = run.translations.back() == Translation::Serialize;
  if (binaryOut && run.flags.output == "-" && ::isatty(1))
    return usageError("translate", "not writing a binary to a terminal; use -o <file>");

  std::string out;
  bool good;
  if (binaryIn) {
    good = run.run(Stage{true, {}, std::move(*bytes)}, out,
                   [&](const Diagnostic &d) { report(d, source); });
  } else {
    std::string_view text(reinterpret_cast<const char *>(bytes->data()), bytes->size());
    // Chunks are joined by a blank line, as today's mlir-translate joins them.
    good = runChunks(
        text, source, run.flags.splitInputFile, run.flags.verifyDiagnostics,
        [&](const InputChunk &chunk, std::string &chunkOut, const DiagnosticSink &diagnose) {
          return run.run(Stage{false, chunk.text, {}}, chunkOut, diagnose);
        },
        "\n", out);
  }
  return finishOutput(run.flags.output, good, out);
}

} // namespace spire::tool
