#include "ExtInstImport.h"

namespace spire::spvasm {

std::optional<ImportedSet> importedSet(std::string_view name) {
  // The sets SPIRV-Tools v2026.4 knows by exact name.
  static constexpr std::string_view kKnown[] = {
      "GLSL.std.450",
      "OpenCL.std",
      "SPV_AMD_shader_explicit_vertex_parameter",
      "SPV_AMD_shader_trinary_minmax",
      "SPV_AMD_gcn_shader",
      "SPV_AMD_shader_ballot",
      "DebugInfo",
      "OpenCL.DebugInfo.100",
      "TOSA.001000.1",
      "Arm.MotionEngine.100",
  };
  for (std::string_view known : kKnown) {
    if (name == known) {
      const grammar::ExtInstSetDesc *set = grammar::findExtInstSet(name);
      if (set == nullptr)
        return std::nullopt; // a set this build's grammar lacks
      return ImportedSet{set, false};
    }
  }
  constexpr std::string_view kNonSemantic = "NonSemantic.";
  if (!name.starts_with(kNonSemantic))
    return std::nullopt;
  // The non-semantic sets it names the instructions of, imported under any version
  // ("NonSemantic.Shader.DebugInfo.100", "NonSemantic.ClspvReflection.5"); the grammar's
  // unversioned file serves every version.
  static constexpr std::string_view kNamed[] = {
      "NonSemantic.Shader.DebugInfo.",
      "NonSemantic.ClspvReflection.",
      "NonSemantic.VkspReflection.",
      "NonSemantic.Graph.DebugInfo.",
  };
  for (std::string_view prefix : kNamed)
    if (name.starts_with(prefix))
      return ImportedSet{grammar::findExtInstSet(name), true};
  return ImportedSet{nullptr, true};
}

} // namespace spire::spvasm
