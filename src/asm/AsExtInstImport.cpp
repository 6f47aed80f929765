#include "AsExtInstImport.h"

namespace spire::assembly {

std::optional<ImportedSet> importedSet(std::string_view name) {
  // The sets SPIRV-Tools 2023.1 knows, by exact name.
  static constexpr std::string_view kKnown[] = {
      "GLSL.std.450",
      "OpenCL.std",
      "SPV_AMD_shader_explicit_vertex_parameter",
      "SPV_AMD_shader_trinary_minmax",
      "SPV_AMD_gcn_shader",
      "SPV_AMD_shader_ballot",
      "DebugInfo",
      "OpenCL.DebugInfo.100",
  };
  for (std::string_view known : kKnown) {
    if (name == known) {
      const grammar::ExtInstSetDesc *set = grammar::findExtInstSet(name);
      if (set == nullptr)
        return std::nullopt;
      return ImportedSet{set, false};
    }
  }
  constexpr std::string_view kNonSemantic = "NonSemantic.";
  if (name.substr(0, kNonSemantic.size()) != kNonSemantic)
    return std::nullopt;
  if (name == "NonSemantic.Shader.DebugInfo.100")
    return ImportedSet{grammar::findExtInstSet(name), true};
  // Any version of ClspvReflection ("NonSemantic.ClspvReflection.5").
  constexpr std::string_view kClspv = "NonSemantic.ClspvReflection.";
  if (name.substr(0, kClspv.size()) == kClspv)
    return ImportedSet{grammar::findExtInstSet("NonSemantic.ClspvReflection"), true};
  return ImportedSet{nullptr, true};
}

} // namespace spire::assembly
