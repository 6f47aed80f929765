// What spire translate and spire opt share: reading a SPIR-V binary (validated first) or MLIR
// text into the structured IR, and writing it back as either.
#pragma once

#include "spire/dialect/IR.h"
#include "spire/val/Validator.h"

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace spire::tool {

/// True when the bytes start with the SPIR-V magic number, in either byte order.
bool isSpirvBinary(std::span<const uint8_t> bytes);

struct LoadedModule {
  dialect::OwningOp module;
  bool fromBinary = false;
};

/// The spirv.module of an input file ('-': standard input): a binary, validated for
/// `validateFor` unless it is null, then deserialized; or MLIR text, parsed and verified. On
/// failure the one-line error has been printed.
bool loadModule(const std::string &input, const val::Environment *validateFor, bool explain,
                dialect::Context &ctx, LoadedModule &out);

/// The IR of one command and its context. Left to the operating system at exit (except under
/// the leak-checking sanitizers): freeing millions of small objects one by one would cost a
/// tenth of the run on a large module, for nothing.
struct Workspace {
  std::unique_ptr<dialect::Context> context = std::make_unique<dialect::Context>();
  std::unique_ptr<LoadedModule> loaded = std::make_unique<LoadedModule>();
  ~Workspace();
};

/// Serializes the module to `output` (atomically); false after printing the error.
bool writeSpirv(const dialect::Operation &module, const std::string &output);
/// Prints the module as MLIR text to `output` (atomically); false after printing the error.
bool writeMlir(const dialect::Operation &module, const std::string &output, bool generic,
               bool mlir16);

/// The options spire translate and spire opt both take.
struct DialectFlags {
  std::string output = "-";
  /// What a binary input is validated for (--target-env).
  val::Environment env = *val::parseEnvironment("spv1.6");
  bool generic = false, mlir16 = false;

  /// The flags that take a value, for ArgScanner.
  static constexpr std::string_view kWithValue[] = {"-o", "--target-env"};

  enum class Taken { No, Yes, Error };
  /// Takes `flag` when it is one of these options (Error: after printing a usage error of
  /// `command`).
  Taken take(std::string_view command, std::string_view flag, std::string_view value);
};

} // namespace spire::tool
