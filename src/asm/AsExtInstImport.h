// The extended instruction sets spirv-as (SPIRV-Tools 2023.1) recognizes by the name an
// OpExtInstImport gives, and how their instructions may be written.
#pragma once

#include "spire/grammar/Grammar.h"

#include <optional>
#include <string_view>

namespace spire::assembly {

struct ImportedSet {
  /// The set's grammar when spirv-as knows its instruction names; null for the non-semantic
  /// sets it does not know (all "NonSemantic.*" names but Shader.DebugInfo.100 and
  /// ClspvReflection, NonSemantic.DebugPrintf included).
  const grammar::ExtInstSetDesc *grammar = nullptr;
  /// Instructions of a non-semantic set may also be given by number, with <id> operands.
  bool nonSemantic = false;
};

/// What an OpExtInstImport name imports, or nullopt when spirv-as rejects the name.
std::optional<ImportedSet> importedSet(std::string_view name);

} // namespace spire::assembly
