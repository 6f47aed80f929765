#include "StringLiteral.h"

namespace spire::spvasm {

StringLiteral readStringLiteral(std::string_view word, std::string &value) {
  // spirv-as first decides whether the word is a number: decimal digits, at most one '.', and
  // '-' only in front (a lone '-' is not a number).
  bool other = false;
  bool minus = false;
  int periods = 0;
  for (size_t i = 0; i < word.size() && !other; ++i) {
    char c = word[i];
    if (c >= '0' && c <= '9')
      continue;
    if (c == '.')
      ++periods;
    else if (c == '-' && i == 0)
      minus = true;
    else
      other = true;
  }
  if (!other && periods <= 1 && !(minus && word.size() == 1))
    return StringLiteral::Number;
  if (word.size() < 2 || word.front() != '"' || word.back() != '"')
    return StringLiteral::NotString;
  std::string_view content = word.substr(1, word.size() - 2);
  if (content.find('\\') == std::string_view::npos) {
    value.assign(content);
    return StringLiteral::String;
  }
  value.clear();
  bool escaping = false;
  for (char c : content) {
    if (c == '\\' && !escaping) {
      escaping = true;
    } else {
      value += c;
      escaping = false;
    }
  }
  return StringLiteral::String;
}

} // namespace spire::spvasm
