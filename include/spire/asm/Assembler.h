// The assembler: SPIR-V assembly text (the syntax of SPIRV-Tools' spirv-as) to a binary.
#pragma once

#include "spire/grammar/Grammar.h"
#include "spire/support/Expected.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace spire {

struct AssembleOptions {
  /// Version word of the module header; also gates opcodes by version the way spirv-as does for
  /// its --target-env (operand enumerants are not gated, as in SPIRV-Tools v2026.4).
  uint32_t version = grammar::makeVersion(1, 6);
  /// Numeric ids (%12) keep their number; named ids fill the gaps (spirv-as
  /// --preserve-numeric-ids).
  bool preserveNumericIds = false;
};

/// Assembles text into the words of a module (host order, header included). The words are
/// identical to what spirv-as (SPIRV-Tools v2026.4) produces for the same text; with the grammar
/// it was built with, the texts it rejects are rejected too (an empty text included). An error is
/// one diagnostic with the line and column (1-based, in bytes) of the offending word, or of the end
/// of the last word when the text ends too early. Time and memory are linear in the size of the
/// text.
Expected<std::vector<uint32_t>> assemble(std::string_view text,
                                         const AssembleOptions &options = {});

/// The SPIR-V version a text's header comment names ("; Version: 1.3", as spirv-dis writes it),
/// which spirv-as (v2026.4) assembles for when it is given no target environment. Only the
/// comment lines and blank lines before the first instruction are read; the first line of the
/// form "; Version: 1.<0-6>" (after spaces or tabs, the minor version not followed by a digit)
/// counts.
std::optional<uint32_t> headerCommentVersion(std::string_view text);

} // namespace spire
