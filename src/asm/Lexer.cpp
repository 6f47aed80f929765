#include "Lexer.h"

#include <array>
#include <cstring>

namespace spire::spvasm {

namespace {

// What a byte does to word scanning.
enum CharClass : uint8_t {
  kPlain,     // part of a word
  kBlank,     // space, tab, CR: separates words
  kNewline,   // LF: separates words, ends a line
  kComment,   // ';': separates words, starts a comment
  kQuote,     // '"': toggles quoting
  kBackslash, // '\\': escapes the next byte
  kNul,       // ends the text
};

constexpr std::array<uint8_t, 256> makeClasses() {
  std::array<uint8_t, 256> t{};
  t[' '] = kBlank;
  t['\t'] = kBlank;
  t['\r'] = kBlank;
  t['\n'] = kNewline;
  t[';'] = kComment;
  t['"'] = kQuote;
  t['\\'] = kBackslash;
  t[0] = kNul;
  return t;
}

constexpr std::array<uint8_t, 256> kClasses = makeClasses();

uint8_t classOf(char c) { return kClasses[static_cast<uint8_t>(c)]; }

} // namespace

bool Lexer::skipBlanks(TextPosition &p) const {
  const size_t n = text_.size();
  while (p.offset < n) {
    // Runs of spaces first, eight at a time: disassembly indents every instruction.
    const size_t start = p.offset;
    while (p.offset + 8 <= n && std::memcmp(text_.data() + p.offset, "        ", 8) == 0)
      p.offset += 8;
    while (p.offset < n && text_[p.offset] == ' ')
      ++p.offset;
    p.column += static_cast<uint32_t>(p.offset - start);
    if (p.offset == n)
      break;
    switch (classOf(text_[p.offset])) {
    case kBlank:
      ++p.offset;
      ++p.column;
      break;
    case kNewline:
      ++p.offset;
      ++p.line;
      p.column = 0;
      break;
    case kComment:
      // To the end of the line; a NUL byte in the comment ends the text.
      while (p.offset < n && text_[p.offset] != '\n') {
        if (text_[p.offset] == '\0')
          return false;
        ++p.offset;
        ++p.column;
      }
      break;
    case kNul:
      return false;
    default:
      return true;
    }
  }
  return false;
}

std::string_view Lexer::wordAt(const TextPosition &p, TextPosition &end) const {
  const size_t n = text_.size();
  size_t i = p.offset;
  uint32_t line = p.line;
  uint32_t column = p.column;
  bool quoting = false;
  bool escaping = false;
  while (i < n) {
    // Runs of plain bytes first: most words have nothing else.
    if (!escaping) {
      size_t run = i;
      while (run < n && classOf(text_[run]) == kPlain)
        ++run;
      column += static_cast<uint32_t>(run - i);
      i = run;
      if (i == n)
        break;
    }
    uint8_t cls = classOf(text_[i]);
    if (cls == kBackslash) {
      escaping = !escaping;
    } else {
      if (cls == kNul)
        break;
      if (cls == kQuote) {
        if (!escaping)
          quoting = !quoting;
      } else if (cls == kBlank || cls == kNewline || cls == kComment) {
        if (!escaping && !quoting)
          break;
      }
      escaping = false;
    }
    if (cls == kNewline) {
      ++line;
      column = 0;
    } else {
      ++column;
    }
    ++i;
  }
  end.offset = static_cast<uint32_t>(i);
  end.line = line;
  end.column = column;
  return text_.substr(p.offset, i - p.offset);
}

bool Lexer::atOpcode(const TextPosition &p) const {
  if (size_t(p.offset) + 3 > text_.size())
    return false;
  const char *s = text_.data() + p.offset;
  return s[0] == 'O' && s[1] == 'p' && s[2] >= 'A' && s[2] <= 'Z';
}

bool Lexer::startsInstruction(std::string_view word, const TextPosition &end) const {
  if (atOpcode(pos_))
    return true;
  if (word.empty() || word[0] != '%')
    return false;
  // The next word must be exactly "=".
  TextPosition next = end;
  if (!skipBlanks(next) || text_[next.offset] != '=')
    return false;
  if (size_t(next.offset) + 1 == text_.size())
    return true;
  uint8_t after = classOf(text_[next.offset + 1]);
  return after == kBlank || after == kNewline || after == kComment || after == kNul;
}

} // namespace spire::spvasm
