// The tokenizer of AmberScript (and of VkScript's [require] and [test] sections), with amber's
// rules: newlines are tokens, '#' starts a comment where a token would start, a lone '\' before
// a newline continues the line, numbers stop where strtod/strtoull stop ("0:1" is 0 then ":1").
#pragma once

#include "spire/run/Value.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace spire::run {

enum class TokenKind : uint8_t { End, EndOfLine, Identifier, String, Integer, Double, Hex };

struct Token {
  TokenKind kind = TokenKind::End;
  std::string text;      ///< identifiers, strings (escapes decoded) and numbers as written
  uint64_t integer = 0;  ///< Integer and Hex
  double number = 0;     ///< Double
  bool negative = false; ///< Integer: written with a leading '-'
  uint32_t line = 1;

  bool isEnd() const { return kind == TokenKind::End; }
  bool isEndOfLine() const { return kind == TokenKind::EndOfLine; }
  bool endsCommand() const { return isEnd() || isEndOfLine(); }
  bool isIdentifier() const { return kind == TokenKind::Identifier; }
  bool is(std::string_view word) const { return isIdentifier() && text == word; }
  bool isInteger() const { return kind == TokenKind::Integer; }
  bool isNumber() const {
    return kind == TokenKind::Integer || kind == TokenKind::Double || kind == TokenKind::Hex;
  }
  /// The number as a script value (Integer and Hex as integers, Double as floating point).
  Value value() const;
  /// How the token reads in a message.
  std::string describe() const;
};

class ScriptTokenizer {
public:
  explicit ScriptTokenizer(std::string_view text, uint32_t firstLine = 1)
      : text_(text), line_(firstLine) {}

  Token next();
  Token peek();
  /// The text from here up to (not including) the first occurrence of `marker`, which is left to
  /// be read next; the rest of the text when there is none (`found` says which).
  std::string_view extractTo(std::string_view marker, bool &found);
  uint32_t line() const { return line_; }

private:
  std::string_view text_;
  size_t pos_ = 0;
  uint32_t line_;
};

} // namespace spire::run
