// What spire translate and spire opt share: reading SPIR-V binaries (validated first) and MLIR
// text into the structured IR, writing either back, and the options both take, MLIR's test
// flags included (see SplitInput.h for --split-input-file and --verify-diagnostics).
#pragma once

#include "spire/dialect/IR.h"
#include "spire/dialect/Serialization.h"
#include "spire/dialect/Text.h"
#include "spire/support/Diagnostic.h"
#include "spire/support/File.h"
#include "spire/val/Validator.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace spire::tool {

using DiagnosticSink = std::function<void(const Diagnostic &)>;

/// True when the bytes start with the SPIR-V magic number, in either byte order.
bool isSpirvBinary(std::span<const uint8_t> bytes);

/// The contexts and IR of one command. Left to the operating system at exit (except under the
/// leak-checking sanitizers): freeing millions of small objects one by one would cost a tenth
/// of the run on a large module, for nothing.
class Workspace {
public:
  Workspace() = default;
  Workspace(const Workspace &) = delete;
  Workspace &operator=(const Workspace &) = delete;
  ~Workspace();
  /// A fresh context (each chunk of a split input gets its own, as in MLIR's tools).
  dialect::Context &newContext();
  /// Keeps an op alive until the workspace goes.
  dialect::Operation &keep(dialect::OwningOp op);

private:
  std::vector<std::unique_ptr<dialect::Context>> contexts_;
  std::vector<dialect::OwningOp> ops_;
};

/// MLIR text parsed (into `ctx`, one of the workspace's) and verified; null after reporting the
/// error to `diagnose`. `written` (when not null) is set to the MLIR release the text is in
/// (dialect::parse), which also words the verifier's messages unless the options say one.
dialect::Operation *parseModule(Workspace &ws, dialect::Context &ctx, std::string_view text,
                                const DiagnosticSink &diagnose,
                                const dialect::ParseOptions &options = {},
                                dialect::MlirVersion *written = nullptr);

/// A binary validated for `validateFor` (unless null) and deserialized; null after reporting the
/// error to `diagnose`. `explain` reports the constructs kept as blocks, as notes. A problem of
/// the rules the structured IR rests on (layout, ids, limits, types, functions, control flow,
/// dominance) is an error; the others are warnings (ten at most), and the module is read when
/// its IR then verifies.
dialect::Operation *deserializeModule(Workspace &ws, dialect::Context &ctx,
                                      std::span<const uint8_t> bytes,
                                      const val::Environment *validateFor, bool explain,
                                      const DiagnosticSink &diagnose,
                                      dialect::DeserializeOptions options = {});
/// The same, freeing `bytes` as soon as the module is read from them (so that the peak memory
/// of spire translate does not hold the binary twice).
dialect::Operation *deserializeModule(Workspace &ws, dialect::Context &ctx,
                                      std::vector<uint8_t> &&bytes,
                                      const val::Environment *validateFor, bool explain,
                                      const DiagnosticSink &diagnose,
                                      dialect::DeserializeOptions options = {});

/// The module's words; nothing after reporting the error to `diagnose`.
std::optional<std::vector<uint32_t>> serializeModule(const dialect::Operation &module,
                                                     const DiagnosticSink &diagnose);

/// The options spire translate and spire opt both take.
struct DialectFlags {
  std::string output = "-";
  /// What a binary input is validated for (--target-env).
  val::Environment env = *val::parseEnvironment("spv1.6");
  bool generic = false;
  /// --mlir-version (--mlir16): the MLIR release whose text to write. Without it, text is
  /// answered in the release it is written in (dialect::parse) and a binary in today's.
  std::optional<dialect::MlirVersion> version;
  /// --mlir-print-debuginfo: ops' source positions (loc(...)); --mlir-print-local-scope: in
  /// place rather than through #loc aliases.
  bool debugInfo = false, localScope = false;
  bool splitInputFile = false, verifyDiagnostics = false;
  /// --allow-unregistered-dialect: ops of other dialects, kept as they are (never serialized).
  bool allowUnregistered = false;

  /// The flags of both commands that take a value, for ArgScanner.
  static constexpr std::string_view kWithValue[] = {"-o", "--target-env", "--mlir-version"};

  enum class Taken { No, Yes, Error };
  /// Takes `flag` when it is one of these options, or one of MLIR's tool flags that change
  /// nothing here (Error: after printing a usage error of `command`).
  Taken take(std::string_view command, std::string_view flag, std::string_view value);

  /// How text is read, per the flags (messages in the wording of --mlir-version's release).
  dialect::ParseOptions parseOptions() const {
    return {.allowUnregistered = allowUnregistered, .messages = version};
  }
  /// The release to answer in: --mlir-version's, else `written` (the input text's).
  dialect::MlirVersion answerIn(dialect::MlirVersion written) const {
    return version.value_or(written);
  }
  /// The module as text in `release`, per the printing flags.
  std::string print(const dialect::Operation &module, dialect::MlirVersion release) const;
  /// The same text written to `out` as it is printed, so that a large module's text is never
  /// held whole; false after reporting a write error.
  bool print(const dialect::Operation &module, dialect::MlirVersion release, FileWriter &out) const;
  dialect::PrintOptions printOptions(dialect::MlirVersion release) const;
  /// Deserialization shaped as `release` shapes it (MLIR 16 and 15: as mlir-translate-16).
  static dialect::DeserializeOptions deserializeOptions(dialect::MlirVersion release) {
    dialect::DeserializeOptions options;
    options.version = release;
    return options;
  }
};

/// Writes `bytes` to `output` ('-': standard output) atomically; false after printing the error.
bool writeOutput(const std::string &output, std::string_view bytes);

/// The bytes of an input file ('-': standard input), not empty; nothing after printing the
/// error. `source` is the name messages give it. `binary`: the input must be a SPIR-V module
/// (an empty one then misses its header rather than being empty text).
std::optional<std::vector<uint8_t>> readInput(const std::string &input, const std::string &source,
                                              bool binary = false);

/// What a command of chunks writes at the end: to standard output what the chunks that worked
/// made, to a file only a complete result. The exit code.
int finishOutput(const std::string &output, bool good, std::string_view out);

} // namespace spire::tool
