// spire translate: between SPIR-V binaries and the structured IR's MLIR syntax, with
// mlir-translate's test flags (round trips, split input, expected diagnostics).
#include "CommandLine.h"
#include "Commands.h"
#include "DialectIO.h"
#include "SplitInput.h"

#include "spire/dialect/Attributes.h"
#include "spire/dialect/Text.h"
#include "spire/support/File.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <unistd.h>

namespace spire::tool {

namespace {

constexpr const char *kTranslateHelp =
    R"(spire translate - between SPIR-V binaries and the structured IR's MLIR syntax

Usage: spire translate --deserialize-spirv [options] [<file>]
       spire translate --serialize-spirv [options] [<file>]
       spire translate --test-spirv-roundtrip [options] [<file>]
       spire translate --dxil-to-spirv [options] <file.dxil>   (see --dxil-to-spirv --help)

--deserialize-spirv reads a SPIR-V binary (either byte order), validates it and prints its
spirv.module in the syntax of MLIR's SPIR-V dialect, as mlir-translate --deserialize-spirv does.
A module whose structure is broken (layout, ids, types, functions, control flow, dominance) is an
error; other problems spire val finds are warnings on standard error (ten at most), and the
module is printed when its structured IR verifies (mlir-translate does not validate at all). --serialize-spirv reads that syntax (or MLIR's
generic form) and writes the SPIR-V binary. --test-spirv-roundtrip serializes and deserializes
and prints the result. Several translations chain in the order given (--serialize-spirv
--deserialize-spirv is a round trip, which does not validate what it serialized). <file> '-' or absent: standard input. Options are read
in either spelling, -name or --name, as mlir-translate reads them.

Options:
  -o <file>            write to <file> ('-': standard output, the default)
  --generic            print every op in MLIR's generic form (also --mlir-print-op-generic)
  --mlir-version <v>   the MLIR release whose text to write: 15, 16 or latest. Text input is
                       read in any of them and, without this option, answered in the one it is
                       written in (MLIR 15: the spv. prefix; MLIR 16: atomics' scope and
                       semantics in quotes; else today's); a binary in today's. 16 (and 15)
                       print what mlir-opt-16 (mlir-opt-15) reads: types without the struct
                       decorations (Block, BufferBlock) and pointer strides that spire keeps,
                       newer ops in the generic form; and deserialize as mlir-translate-16 does
                       (a selection header's ops inside the region, the region's blocks in the
                       module's order). Messages take the release's wording
  --mlir16             the same as --mlir-version 16
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

/// Inputs from this size on run long enough that the faults populateProgramImage saves are a
/// small part of the time; its pages are not. (Nor do their printed ops stay: their memory is
/// what counts then.)
constexpr size_t kPopulateImageBelow = size_t(64) << 10;

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

  /// Runs the translations on one chunk (or a binary input). With `stream` (given when the last
  /// translation prints text), that text goes there as it is printed instead of into `out`.
  bool run(Stage stage, std::string &out, const DiagnosticSink &diagnose,
           FileWriter *stream = nullptr) {
    Workspace ws;
    // The release to answer in: the flags', else the input text's (a binary's: today's).
    dialect::MlirVersion release = flags.answerIn(dialect::MlirVersion::Latest);
    for (size_t i = 0; i < translations.size(); ++i) {
      const Translation t = translations[i];
      const bool last = i + 1 == translations.size();
      if (t == Translation::Deserialize) {
        if (!stage.binary) {
          diagnose(makeError({}, "--deserialize-spirv reads a SPIR-V binary"));
          return false;
        }
        // What an earlier --serialize-spirv of this command made is read as the round trip
        // reads it, unvalidated (as mlir-translate chains the two).
        // The binary is not read again: it goes as soon as the module is read from it.
        dialect::DeserializeOptions options = DialectFlags::deserializeOptions(release);
        // Printed as it is made, when the text goes to the output: each function's IR goes
        // once printed, so that a large module's IR is never whole (the peak memory).
        const dialect::PrintOptions printing = flags.printOptions(release);
        std::optional<dialect::ModuleTextStream> text;
        Status written;
        if (stream && last && dialect::ModuleTextStream::supports(printing)) {
          text.emplace(
              [&](std::string_view piece) {
                if (written && !piece.empty())
                  written = stream->write(piece);
              },
              printing);
          // A small module's ops are kept: freeing them one by one costs more than they weigh.
          const bool erase = stage.bytes.size() >= kPopulateImageBelow;
          options.bodyReady = [&, erase](dialect::Operation &module) {
            text->printBody(module, erase);
          };
        }
        dialect::Operation *m =
            deserializeModule(ws, ws.newContext(), std::move(stage.bytes),
                              validate && !stage.serialized ? &flags.env : nullptr, explain,
                              diagnose, std::move(options));
        if (!m)
          return false;
        if (text) {
          text->finish(*m);
          if (!written)
            report(written.error(), flags.output);
          return bool(written);
        }
        if (stream && last)
          return flags.print(*m, release, *stream);
        stage = Stage{false, flags.print(*m, release), {}};
        continue;
      }
      if (stage.binary) {
        diagnose(makeError({}, "this translation reads MLIR text, not a binary"));
        return false;
      }
      dialect::MlirVersion written = dialect::MlirVersion::Latest;
      dialect::Operation *m =
          parseModule(ws, ws.newContext(), stage.text, diagnose, flags.parseOptions(), &written);
      if (!m)
        return false;
      release = flags.answerIn(written);
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
      dialect::Operation *back =
          deserializeModule(ws, ws.newContext(), bytes, nullptr, false, diagnose,
                            DialectFlags::deserializeOptions(release));
      if (!back)
        return false;
      if (stream && last)
        return flags.print(*back, release, *stream);
      stage = Stage{false, flags.print(*back, release), {}};
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
    if (std::string_view(arg) == "--dxil-to-spirv" || std::string_view(arg) == "-dxil-to-spirv") {
      // The functions a container's translation runs, packed by the link (hot-text.txt): the
      // whole image would be too much to map (bench/dxil_translate.py per file on a quiet
      // machine: 5.5 ms CPU with the whole image populated, 5.0 with only the DXIL reader's
      // packed range, 4.4 with nothing; dxil-spirv 5.6).
      populateHotText(HotText::DxilTranslate);
      return runDxilToSpirv(args);
    }
  std::string input = "-";
  TranslateRun run;
  constexpr std::string_view withValue[] = {"-o", "--target-env", "--mlir-version",
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
  std::optional<std::vector<uint8_t>> bytes =
      readInput(input, source, run.translations.front() == Translation::Deserialize);
  if (!bytes)
    return kInvalidInput;
  // The program's image only for a small input (see populateProgramImage; a binary's
  // translation maps the functions it runs, populateHotText), and the heap: a binary's
  // deserialization holds about 0.6 MB (the registry of ops, validation's tables) and 4.5 bytes
  // per input byte at its peak (the module's records, the largest function's ops, the values
  // by id; docs/layers/dialect.md), text a MB and about 6. A populated page that is not used
  // counts in the peak, one short of it faults in later: a little less than that is populated.
  const bool binaryIn = isSpirvBinary(*bytes);
  if (bytes->size() < kPopulateImageBelow) {
    if (binaryIn)
      populateHotText(HotText::SpirvTranslate);
    else
      populateProgramImage();
  }
  const size_t heap =
      binaryIn ? (size_t(640) << 10) + 4 * bytes->size() : (size_t(1) << 20) + 6 * bytes->size();
  populateHeap(std::min<size_t>(heap, size_t(16) << 20));
  if (binaryIn != (run.translations.front() == Translation::Deserialize))
    return usageError("translate", binaryIn ? "a SPIR-V binary is read by --deserialize-spirv"
                                            : "--deserialize-spirv reads a SPIR-V binary");
  const bool binaryOut = run.translations.back() == Translation::Serialize;
  if (binaryOut && run.flags.output == "-" && ::isatty(1))
    return usageError("translate", "not writing a binary to a terminal; use -o <file>");

  std::string out;
  bool good;
  if (binaryIn) {
    // A binary in and text out: the text goes to the output as it is printed (through a
    // temporary file renamed at the end, so that a failure leaves no partial file).
    std::optional<FileWriter> stream;
    if (!binaryOut) {
      // Spooled: a module printed as it is deserialized may still fail after its first
      // functions, and then nothing reaches a pipe or a redirected standard output either.
      Expected<FileWriter> w = FileWriter::open(run.flags.output, true);
      if (!w) {
        report(w.error(), run.flags.output);
        return kInvalidInput;
      }
      stream.emplace(std::move(w).value());
    }
    good = run.run(
        Stage{true, {}, std::move(*bytes)}, out, [&](const Diagnostic &d) { report(d, source); },
        stream ? &*stream : nullptr);
    if (stream) {
      if (!good)
        return kInvalidInput;
      if (Status s = stream->commit(); !s) {
        report(s.error(), run.flags.output);
        return kInvalidInput;
      }
      return kSuccess;
    }
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
