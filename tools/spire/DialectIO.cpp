// What spire translate and spire opt share: see DialectIO.h.
#include "DialectIO.h"

#include "CommandLine.h"

#include "spire/dialect/Serialization.h"
#include "spire/dialect/Text.h"
#include "spire/dialect/Verifier.h"
#include "spire/support/File.h"
#include "spire/support/Pages.h"

#include <cstdio>
#include <cstring>
#include <malloc.h>
#include <utility>

namespace spire::tool {

bool isSpirvBinary(std::span<const uint8_t> bytes) {
  if (bytes.size() < 4)
    return false;
  uint32_t w;
  std::memcpy(&w, bytes.data(), 4);
  return w == 0x07230203u || w == 0x03022307u;
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kLeakAtExit = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kLeakAtExit = false;
#else
constexpr bool kLeakAtExit = true;
#endif
#else
constexpr bool kLeakAtExit = true;
#endif

Workspace::~Workspace() {
  if (!kLeakAtExit) {
    ops_.clear(); // the IR before the contexts that own its types and attributes
    return;
  }
  for (dialect::OwningOp &op : ops_)
    (void)op.release();
  for (std::unique_ptr<dialect::Context> &c : contexts_)
    (void)c.release();
}

dialect::Context &Workspace::newContext() {
  contexts_.push_back(std::make_unique<dialect::Context>());
  return *contexts_.back();
}

dialect::Operation &Workspace::keep(dialect::OwningOp op) {
  ops_.push_back(std::move(op));
  return *ops_.back();
}

dialect::Operation *parseModule(Workspace &ws, dialect::Context &ctx, std::string_view text,
                                const DiagnosticSink &diagnose,
                                const dialect::ParseOptions &options,
                                dialect::MlirVersion *written) {
  dialect::MlirVersion release = dialect::MlirVersion::Latest;
  Expected<dialect::OwningOp> parsed = dialect::parse(ctx, text, options, &release);
  if (written)
    *written = release;
  if (!parsed) {
    diagnose(parsed.error());
    return nullptr;
  }
  dialect::Operation &op = ws.keep(std::move(parsed).value());
  if (Status s = dialect::verify(op, options.messages.value_or(release)); !s) {
    diagnose(s.error());
    return nullptr;
  }
  return &op;
}

namespace {
/// The validation problems outside the structure that a deserialization reports as warnings.
constexpr size_t kMaxWarnings = 10;
} // namespace

namespace {

/// Modules from this size on give their heap pages back after deserialization.
constexpr size_t kTrimFrom = size_t(1) << 20;
/// Modules of this many words or more give their OpNames' pages back before their functions.
constexpr size_t kNamesReleasedFromWords = size_t(64) << 10;

dialect::Operation *deserializeRead(Workspace &ws, dialect::Context &ctx, Expected<Module> m,
                                    const val::Environment *validateFor, bool explain,
                                    const DiagnosticSink &diagnose,
                                    dialect::DeserializeOptions options) {
  if (!m) {
    diagnose(m.error());
    return nullptr;
  }
  // The validation: what the structured IR rests on (layout, ids, types, functions, control
  // flow, dominance) must hold, or the module is not read; the rest of what spire val says is
  // reported as warnings and the module read all the same, as mlir-translate reads it (it does
  // not validate at all), provided its structured IR then verifies.
  size_t warnings = 0;
  if (validateFor) {
    val::Options options;
    options.env = *validateFor;
    // One run: the structural families first, stopping at their first error; else the rest,
    // whose errors become warnings.
    options.maxErrors = kMaxWarnings + 1;
    options.structureFirst = true;
    auto describe = [&](const val::Problem &p, std::string_view consequence) {
      std::string message = p.message;
      if (!p.rule.empty())
        message += " [" + p.rule + "]";
      if (!p.instruction.empty())
        message += ": " + p.instruction;
      return message + " (the input is not valid SPIR-V for " + validateFor->name + "; " +
             std::string(consequence) + ")";
    };
    const val::Report r = val::validate(*m, options);
    if (r.structureBroken)
      for (const val::Problem &p : r.problems)
        if (p.severity == Severity::Error) {
          diagnose(makeError(p.location, describe(p, "--no-validate deserializes it anyway")));
          return nullptr;
        }
    for (const val::Problem &p : r.problems) {
      if (p.severity != Severity::Error)
        continue;
      if (++warnings > kMaxWarnings) {
        diagnose(Diagnostic{Severity::Warning, {}, "more problems of validation not shown", {}});
        break;
      }
      diagnose(Diagnostic{Severity::Warning, p.location, describe(p, "deserialized anyway"), {}});
    }
  }
  // The body goes to its reader as it is made only when nothing is to be verified whole after.
  if (!validateFor || warnings)
    options.bodyReady = nullptr;
  dialect::DeserializeStats stats;
  // A validated module goes as it is read (it goes with this function anyway): the pages of
  // the functions' words read so far are given back, so that the module's memory and the whole
  // IR's do not add up at the end of a large module, the peak.
  const void *releasedTo = nullptr; // where the words not given back start (null: before a
                                    // function is read)
  // The words of instructions [first, end), not empty.
  auto wordsOf = [&](uint32_t first, uint32_t end) {
    const Instruction a = m->inst(first), b = m->inst(end - 1);
    const uint32_t *words = m->words().data();
    return std::pair(words + a.wordOffset(), words + b.wordOffset() + b.wordCount());
  };
  if (validateFor)
    options.functionRead = [&](uint32_t first, uint32_t end) {
      if (first >= end)
        return;
      const auto [from, to] = wordsOf(first, end);
      releasedTo = releasePages(releasedTo ? releasedTo : from, to);
    };
  // The OpNames' words too (a module names every local: 0.17 bytes a module byte in the
  // bench's), before the first function, the peak of a module whose first function is large;
  // not worth a call for a small module (and its run then stays in the hot text).
  if (validateFor && m->words().size() >= kNamesReleasedFromWords)
    options.namesRead = [&](uint32_t first, uint32_t end) {
      const auto [from, to] = wordsOf(first, end);
      releasePages(from, to);
    };
  Expected<dialect::OwningOp> op = dialect::deserialize(ctx, *m, &stats, options);
  if (!op) {
    diagnose(op.error());
    return nullptr;
  }
  if (explain)
    for (const std::string &note : stats.notes)
      diagnose(Diagnostic{Severity::Note, {}, note, {}});
  dialect::Operation &read = ws.keep(std::move(op).value());
  // An invalid module's IR is printed only when it verifies (valid modules' always does).
  if (warnings)
    if (Status s = dialect::verify(read); !s) {
      Diagnostic d = s.error();
      d.message += " (the IR of a module that is not valid SPIR-V, see the warnings above)";
      diagnose(d);
      return nullptr;
    }
  return &read;
}

} // namespace

dialect::Operation *deserializeModule(Workspace &ws, dialect::Context &ctx,
                                      std::span<const uint8_t> bytes,
                                      const val::Environment *validateFor, bool explain,
                                      const DiagnosticSink &diagnose,
                                      dialect::DeserializeOptions options) {
  return deserializeRead(ws, ctx, Module::fromBytes(bytes), validateFor, explain, diagnose,
                         options);
}

dialect::Operation *deserializeModule(Workspace &ws, dialect::Context &ctx,
                                      std::vector<uint8_t> &&bytes,
                                      const val::Environment *validateFor, bool explain,
                                      const DiagnosticSink &diagnose,
                                      dialect::DeserializeOptions options) {
  const size_t size = bytes.size();
  Expected<Module> m = Module::fromBytes(bytes);
  std::vector<uint8_t>().swap(bytes); // the module holds its own copy of the words
  dialect::Operation *read =
      deserializeRead(ws, ctx, std::move(m), validateFor, explain, diagnose, options);
  // The module and the deserializer's tables are gone: a large module's pages, which the heap
  // keeps, go back before the printer takes what it needs (else they stay resident to the end;
  // a small one's heap stays as populated).
  if (size >= kTrimFrom)
    malloc_trim(0);
  return read;
}

std::optional<std::vector<uint32_t>> serializeModule(const dialect::Operation &module,
                                                     const DiagnosticSink &diagnose) {
  Expected<std::vector<uint32_t>> words = dialect::serialize(module);
  if (!words) {
    diagnose(words.error());
    return std::nullopt;
  }
  return std::move(words).value();
}

DialectFlags::Taken DialectFlags::take(std::string_view command, std::string_view flag,
                                       std::string_view value) {
  if (flag == "-o")
    output = value;
  else if (flag == "--generic" || flag == "--mlir-print-op-generic")
    generic = true;
  else if (flag == "--mlir16")
    version = dialect::MlirVersion::Mlir16;
  else if (flag == "--mlir-version") {
    if (value == "15")
      version = dialect::MlirVersion::Mlir15;
    else if (value == "16")
      version = dialect::MlirVersion::Mlir16;
    else if (value == "latest")
      version = dialect::MlirVersion::Latest;
    else {
      usageError(command, "--mlir-version is 15, 16 or latest, not '" + std::string(value) + "'");
      return Taken::Error;
    }
  } else if (flag == "--mlir-print-debuginfo")
    debugInfo = true;
  else if (flag == "--mlir-print-local-scope")
    localScope = true;
  else if (flag == "--split-input-file")
    splitInputFile = true;
  else if (flag == "--verify-diagnostics")
    verifyDiagnostics = true;
  else if (flag == "--target-env") {
    std::optional<val::Environment> e = val::parseEnvironment(value);
    if (!e) {
      usageError(command, "unknown target environment '" + std::string(value) + "'");
      return Taken::Error;
    }
    env = std::move(*e);
  } else if (flag == "--allow-unregistered-dialect") {
    allowUnregistered = true;
  } else if (flag == "--no-implicit-module" || flag == "--mlir-disable-threading" ||
             flag == "--error-diagnostics-only") {
    // MLIR's tools: spire's top-level op is always the spirv.module itself, and nothing here is
    // threaded.
  } else
    return Taken::No;
  return Taken::Yes;
}

dialect::PrintOptions DialectFlags::printOptions(dialect::MlirVersion release) const {
  dialect::PrintOptions options;
  options.generic = generic;
  options.version = release;
  options.debugInfo = debugInfo;
  options.localScope = localScope;
  return options;
}

std::string DialectFlags::print(const dialect::Operation &module,
                                dialect::MlirVersion release) const {
  std::string text;
  dialect::print(module, text, printOptions(release));
  if (text.empty() || text.back() != '\n')
    text += '\n';
  return text;
}

bool DialectFlags::print(const dialect::Operation &module, dialect::MlirVersion release,
                         FileWriter &out) const {
  Status status;
  char last = 0;
  dialect::print(
      module,
      [&](std::string_view piece) {
        if (status && !piece.empty()) {
          status = out.write(piece);
          last = piece.back();
        }
      },
      printOptions(release));
  if (status && last != '\n')
    status = out.write("\n");
  if (!status) {
    report(status.error(), output);
    return false;
  }
  return true;
}

bool writeOutput(const std::string &output, std::string_view bytes) {
  std::span<const uint8_t> data(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
  if (Status s = writeFileAtomic(output, data); !s) {
    report(s.error(), output);
    return false;
  }
  return true;
}

std::optional<std::vector<uint8_t>> readInput(const std::string &input, const std::string &source,
                                              bool binary) {
  Expected<std::vector<uint8_t>> bytes = readFile(input);
  if (!bytes) {
    report(bytes.error(), source);
    return std::nullopt;
  }
  if (bytes->empty()) {
    report(makeError({}, binary ? "byte 0: not a SPIR-V module: the input is empty, and a module "
                                  "starts with a header of 5 words (20 bytes)"
                                : "the input is empty: neither a SPIR-V binary nor MLIR text"),
           source);
    return std::nullopt;
  }
  return std::move(bytes).value();
}

int finishOutput(const std::string &output, bool good, std::string_view out) {
  if ((good || output == "-") && !writeOutput(output, out))
    return kInvalidInput;
  return good ? kSuccess : kInvalidInput;
}

} // namespace spire::tool
