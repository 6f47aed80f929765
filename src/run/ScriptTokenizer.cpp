#include "spire/run/ScriptTokenizer.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace spire::run {

Value Token::value() const {
  if (kind == TokenKind::Double)
    return Value::real(number);
  return Value::integer(integer, negative);
}

std::string Token::describe() const {
  switch (kind) {
  case TokenKind::End:
    return "end of file";
  case TokenKind::EndOfLine:
    return "end of line";
  case TokenKind::String:
    return "\"" + (text.size() > 40 ? text.substr(0, 40) + "..." : text) + "\"";
  default:
    return text;
  }
}

namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\0'; }
bool endsToken(char c) {
  return c == ' ' || c == '\r' || c == '\n' || c == '(' || c == ')' || c == ',';
}
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isNan(std::string_view t) {
  return t.size() == 3 && (t[0] == 'n' || t[0] == 'N') && (t[1] == 'a' || t[1] == 'A') &&
         (t[2] == 'n' || t[2] == 'N');
}
bool looksNumeric(std::string_view t) {
  if (t.empty())
    return false;
  if (isDigit(t[0]))
    return true;
  if ((t[0] == '-' || t[0] == '.') && t.size() > 1 && isDigit(t[1]))
    return true;
  return isNan(t);
}

} // namespace

Token ScriptTokenizer::next() {
  for (;;) {
    while (pos_ < text_.size() && isSpace(text_[pos_]))
      ++pos_;
    Token t;
    t.line = line_;
    if (pos_ >= text_.size())
      return t;
    char c = text_[pos_];
    if (c == '\n') {
      ++pos_;
      t.kind = TokenKind::EndOfLine;
      ++line_;
      return t;
    }
    if (c == '#') {
      while (pos_ < text_.size() && text_[pos_] != '\n')
        ++pos_;
      continue;
    }
    // A lone backslash right before a newline joins the lines.
    if (c == '\\') {
      if (pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n') {
        pos_ += 2;
        ++line_;
        continue;
      }
      if (pos_ + 2 < text_.size() && text_[pos_ + 1] == '\r' && text_[pos_ + 2] == '\n') {
        pos_ += 3;
        ++line_;
        continue;
      }
    }
    if (c == '(' || c == ')' || c == ',') {
      ++pos_;
      t.kind = TokenKind::Identifier;
      t.text = std::string(1, c);
      return t;
    }
    if (c == '"') {
      ++pos_;
      t.kind = TokenKind::String;
      while (pos_ < text_.size() && text_[pos_] != '"') {
        char ch = text_[pos_++];
        if (ch == '\n')
          ++line_;
        if (ch == '\\' && pos_ < text_.size()) {
          char e = text_[pos_++];
          switch (e) {
          case 'a':
            ch = '\a';
            break;
          case 'b':
            ch = '\b';
            break;
          case 't':
            ch = '\t';
            break;
          case 'n':
            ch = '\n';
            break;
          case 'v':
            ch = '\v';
            break;
          case 'f':
            ch = '\f';
            break;
          case 'r':
            ch = '\r';
            break;
          default:
            ch = e;
            break;
          }
        }
        t.text += ch;
      }
      if (pos_ < text_.size())
        ++pos_;
      return t;
    }
    size_t start = pos_;
    while (pos_ < text_.size() && !endsToken(text_[pos_]))
      ++pos_;
    std::string word(text_.substr(start, pos_ - start));
    if (!looksNumeric(word)) {
      t.kind = TokenKind::Identifier;
      t.text = std::move(word);
      return t;
    }
    // A number: parsed as strtod/strtoull would, and the tokenizer backs up to where it ended.
    char *end = nullptr;
    const char *s = word.c_str();
    if (word.size() > 2 && word[0] == '0' && word[1] == 'x') {
      t.kind = TokenKind::Hex;
      errno = 0;
      t.integer = std::strtoull(s, &end, 16);
    } else if (isNan(word)) {
      t.kind = TokenKind::Double;
      t.number = std::nan("");
      end = const_cast<char *>(s) + 3;
    } else if (word.find('.') != std::string::npos) {
      t.kind = TokenKind::Double;
      t.number = std::strtod(s, &end);
    } else {
      t.kind = TokenKind::Integer;
      t.integer = std::strtoull(s, &end, 10);
      t.negative = word[0] == '-';
    }
    size_t used = static_cast<size_t>(end - s);
    if (used == 0) {
      // Nothing numeric after all ("-.x"): an identifier.
      t.kind = TokenKind::Identifier;
      t.text = std::move(word);
      return t;
    }
    t.text = word.substr(0, used);
    pos_ = start + used;
    return t;
  }
}

Token ScriptTokenizer::peek() {
  size_t pos = pos_;
  uint32_t line = line_;
  Token t = next();
  pos_ = pos;
  line_ = line;
  return t;
}

std::string_view ScriptTokenizer::extractTo(std::string_view marker, bool &found) {
  size_t at = text_.find(marker, pos_);
  found = at != std::string_view::npos;
  if (!found)
    at = text_.size();
  std::string_view body = text_.substr(pos_, at - pos_);
  for (char c : body)
    if (c == '\n')
      ++line_;
  pos_ = at;
  return body;
}

} // namespace spire::run
