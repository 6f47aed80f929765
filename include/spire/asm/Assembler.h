// The assembler: SPIR-V assembly text (the syntax of SPIRV-Tools' spirv-as) to a binary.
#pragma once

#include "spire/grammar/Grammar.h"
#include "spire/support/Expected.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace spire {

struct AssembleOptions {
  /// Version word of the module header; also gates opcodes and enumerants by version the way
  /// spirv-as does for its --target-env.
  uint32_t version = grammar::makeVersion(1, 6);
  /// Numeric ids (%12) keep their number; named ids fill the gaps (spirv-as
  /// --preserve-numeric-ids).
  bool preserveNumericIds = false;
};

/// Assembles text into the words of a module (host order, header included). The words are
/// identical to what spirv-as (SPIRV-Tools 2023.1) produces for the same text. Errors carry the
/// line and column of the offending token.
Expected<std::vector<uint32_t>> assemble(std::string_view text,
                                         const AssembleOptions &options = {});

} // namespace spire
