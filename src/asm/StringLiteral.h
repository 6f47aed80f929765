// Literal strings as spirv-as reads them: a word that starts and ends with '"'; inside, a
// backslash makes the next byte literal. Words that look like numbers are not strings.
#pragma once

#include <string>
#include <string_view>

namespace spire::spvasm {

enum class StringLiteral : uint8_t {
  String,    ///< a string
  Number,    ///< digits, at most one '.', an optional leading '-': a number, not a string
  NotString, ///< neither
};

/// What `word` is; for a string, `value` is set to its bytes.
StringLiteral readStringLiteral(std::string_view word, std::string &value);

} // namespace spire::spvasm
