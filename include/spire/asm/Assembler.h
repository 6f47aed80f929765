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
/// identical to what spirv-as (SPIRV-Tools 2023.1) produces for the same text; with the grammar
/// it was built with, the texts it rejects are rejected too (an empty text included). An error is
/// one diagnostic with the line and column (1-based, in bytes) of the offending word, or of the end
/// of the last word when the text ends too early. Time and memory are linear in the size of the
/// text.
Expected<std::vector<uint32_t>> assemble(std::string_view text,
                                         const AssembleOptions &options = {});

} // namespace spire
