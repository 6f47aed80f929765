// The extended instruction sets spirv-as and spirv-dis (SPIRV-Tools v2026.4) recognize by the
// name an OpExtInstImport gives, and how their instructions may be written and are printed.
#pragma once

#include "spire/grammar/Grammar.h"

#include <optional>
#include <string_view>

namespace spire::spvasm {

struct ImportedSet {
  /// The set's grammar when SPIRV-Tools knows its instruction names; null for the non-semantic
  /// sets it does not know (all "NonSemantic.*" names but Shader.DebugInfo, ClspvReflection,
  /// VkspReflection and Graph.DebugInfo, NonSemantic.DebugPrintf included): spirv-as takes
  /// their instructions by number with <id> operands, spirv-dis prints them so.
  const grammar::ExtInstSetDesc *grammar = nullptr;
  /// Instructions of a non-semantic set may also be given by number, with <id> operands.
  bool nonSemantic = false;
};

/// What an OpExtInstImport name imports, or nullopt when spirv-as rejects the name.
std::optional<ImportedSet> importedSet(std::string_view name);

} // namespace spire::spvasm
