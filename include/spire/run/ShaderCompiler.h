// Turning a script's shader into the SPIR-V module the runner hands to the driver: GLSL through
// the glslang library, SPIR-V assembly through spire's assembler, hex words, binary files; then
// spire's validator in the shader's environment, and optionally a trip through spire's own
// pipeline (`--via`): disassembly and reassembly, the structured IR, or passes.
#pragma once

#include "spire/run/Script.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace spire::run {

/// What `--via` runs each shader through after it is assembled or compiled.
struct Via {
  enum class Kind : uint8_t { None, Asm, Roundtrip, Opt } kind = Kind::None;
  std::string passes; ///< Opt: a pass pipeline ("canonicalize")

  /// "asm", "roundtrip", "opt=<passes>"; nothing for other text.
  static std::optional<Via> parse(std::string_view text);
  std::string name() const;
};

struct CompileOptions {
  std::string defaultTargetEnv; ///< a shader without TARGET_ENV uses this; empty: spv1.0
  Via via;
  bool validate = true; ///< run spire val on the module (amber runs spirv-val)
};

struct CompiledShader {
  enum class Outcome : uint8_t { Ok, Skip, Error } outcome = Outcome::Ok;
  std::vector<uint32_t> words;
  std::string message; ///< Skip: why; Error: what went wrong
};

/// Compiles or assembles one shader (`stage` chooses glslang's stage for GLSL).
CompiledShader compileShader(const ScriptShader &shader, const CompileOptions &options);

/// The module after `via`, or the error of the step that failed. `env` is the validator's
/// environment for the result (empty: skip validation).
Expected<std::vector<uint32_t>> applyVia(std::vector<uint32_t> words, const Via &via,
                                         std::string_view env);

/// Validates a module with spire val in `env`; the first error as one line.
Status validateModule(std::span<const uint32_t> words, std::string_view env);

/// GLSL to SPIR-V with glslang for a target environment (`spv1.3`, `vulkan1.1`, ...; empty:
/// Vulkan 1.0 and SPIR-V 1.0), as amber maps them.
Expected<std::vector<uint32_t>> compileGlsl(std::string_view source, ShaderStage stage,
                                            std::string_view targetEnv);

/// SPIRV-HEX text: hex byte values separated by whitespace, packed little-endian into words.
Expected<std::vector<uint32_t>> parseSpirvHex(std::string_view text);

} // namespace spire::run
