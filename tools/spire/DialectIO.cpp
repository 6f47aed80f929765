// What spire translate and spire opt share: see DialectIO.h.
#include "DialectIO.h"

#include "CommandLine.h"

#include "spire/dialect/Serialization.h"
#include "spire/dialect/Text.h"
#include "spire/dialect/Verifier.h"
#include "spire/support/File.h"

#include <cstdio>
#include <cstring>

namespace spire::tool {

bool isSpirvBinary(std::span<const uint8_t> bytes) {
  if (bytes.size() < 4)
    return false;
  uint32_t w;
  std::memcpy(&w, bytes.data(), 4);
  return w == 0x07230203u || w == 0x03022307u;
}

bool loadModule(const std::string &input, const val::Environment *validateFor, bool explain,
                dialect::Context &ctx, LoadedModule &out) {
  std::string source = input == "-" ? "<stdin>" : input;
  Expected<std::vector<uint8_t>> bytes = readFile(input);
  if (!bytes) {
    report(bytes.error(), source);
    return false;
  }
  if (!isSpirvBinary(*bytes)) {
    std::string_view text(reinterpret_cast<const char *>(bytes->data()), bytes->size());
    Expected<dialect::OwningOp> parsed = dialect::parse(ctx, text);
    if (!parsed) {
      report(parsed.error(), source);
      return false;
    }
    if (Status s = dialect::verify(**parsed); !s) {
      report(s.error(), source);
      return false;
    }
    out.module = std::move(parsed).value();
    return true;
  }
  Expected<Module> m = Module::fromBytes(*bytes);
  if (!m) {
    report(m.error(), source);
    return false;
  }
  if (validateFor) {
    val::Options options;
    options.env = *validateFor;
    options.maxErrors = 1;
    val::Report r = val::validate(*m, options);
    for (const val::Problem &p : r.problems)
      if (p.severity == Severity::Error) {
        std::fprintf(stderr, "%s\n",
                     (p.format(source) + " (the input is not valid SPIR-V for " +
                      validateFor->name + "; --no-validate deserializes it anyway)")
                         .c_str());
        return false;
      }
  }
  dialect::DeserializeStats stats;
  Expected<dialect::OwningOp> op = dialect::deserialize(ctx, *m, &stats);
  if (!op) {
    report(op.error(), source);
    return false;
  }
  if (explain)
    for (const std::string &note : stats.notes)
      std::fprintf(stderr, "%s: note: %s\n", source.c_str(), note.c_str());
  out.module = std::move(op).value();
  out.fromBinary = true;
  return true;
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
  if (kLeakAtExit) {
    (void)loaded.release();
    (void)context.release();
  }
}

bool writeSpirv(const dialect::Operation &module, const std::string &output) {
  Expected<std::vector<uint32_t>> words = dialect::serialize(module);
  if (!words) {
    report(words.error(), output);
    return false;
  }
  std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t *>(words->data()),
                                 words->size() * 4);
  if (Status s = writeFileAtomic(output, bytes); !s) {
    report(s.error(), output);
    return false;
  }
  return true;
}

bool writeMlir(const dialect::Operation &module, const std::string &output, bool generic,
               bool mlir16) {
  std::string text;
  dialect::PrintOptions options;
  options.generic = generic;
  options.mlir16 = mlir16;
  dialect::print(module, text, options);
  if (text.empty() || text.back() != '\n')
    text += '\n';
  if (Status s = writeFileAtomic(output, text); !s) {
    report(s.error(), output);
    return false;
  }
  return true;
}

DialectFlags::Taken DialectFlags::take(std::string_view command, std::string_view flag,
                                       std::string_view value) {
  if (flag == "-o")
    output = value;
  else if (flag == "--generic")
    generic = true;
  else if (flag == "--mlir16")
    mlir16 = true;
  else if (flag == "--target-env") {
    std::optional<val::Environment> e = val::parseEnvironment(value);
    if (!e) {
      usageError(command, "unknown target environment '" + std::string(value) + "'");
      return Taken::Error;
    }
    env = std::move(*e);
  } else
    return Taken::No;
  return Taken::Yes;
}

} // namespace spire::tool
