// The words of assembly text as spirv-as splits it: blanks (space, tab, CR, LF) and ';' comments
// separate words; inside double quotes, and after a backslash, blanks and ';' belong to the
// word; a NUL byte ends the text.
#pragma once

#include "spire/support/Diagnostic.h"

#include <cstdint>
#include <string_view>

namespace spire::spvasm {

/// A place in the text: byte offset, and 0-based line and column (counted in bytes).
struct TextPosition {
  uint32_t offset = 0;
  uint32_t line = 0;
  uint32_t column = 0;
};

class Lexer {
public:
  explicit Lexer(std::string_view text) : text_(text) {}

  /// Moves past blanks and comments. False when the text ends there (its end or a NUL byte).
  bool skipBlanks() { return skipBlanks(pos_); }
  /// Whether the position is before the end of the text (a NUL byte counts as text).
  bool hasText() const { return pos_.offset < text_.size(); }
  /// The byte at the position (NUL at the end).
  char peek() const { return pos_.offset < text_.size() ? text_[pos_.offset] : '\0'; }

  /// The word that starts at the position; `end` is set to just past it. Does not move.
  std::string_view word(TextPosition &end) const { return wordAt(pos_, end); }
  /// Whether "Op" and an upper-case letter start the text at the position.
  bool atOpcode() const { return atOpcode(pos_); }
  /// Whether `word`, read at the position and ending at `end`, starts an instruction: it is an
  /// opcode, or an id followed by '='.
  bool startsInstruction(std::string_view word, const TextPosition &end) const;

  const TextPosition &position() const { return pos_; }
  void moveTo(const TextPosition &p) { pos_ = p; }

  /// The 1-based line and column of a position, for diagnostics.
  static Location location(const TextPosition &p) {
    return Location::text(p.line + 1, p.column + 1);
  }

  /// Calls `onWord` for each word of `text`, in order, as the assembler would meet them.
  template <class F> static void forEachWord(std::string_view text, F &&onWord) {
    Lexer lex(text);
    TextPosition end;
    while (lex.skipBlanks()) {
      onWord(lex.word(end));
      lex.moveTo(end);
    }
  }

private:
  bool skipBlanks(TextPosition &p) const;
  std::string_view wordAt(const TextPosition &p, TextPosition &end) const;
  bool atOpcode(const TextPosition &p) const;

  std::string_view text_;
  TextPosition pos_;
};

} // namespace spire::spvasm
