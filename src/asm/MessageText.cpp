#include "MessageText.h"

namespace spire::spvasm {

std::string printable(std::string_view s) {
  constexpr size_t kMax = 60;
  std::string out;
  for (size_t i = 0; i < s.size() && i < kMax; ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20 || c == 0x7F) {
      constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (s.size() > kMax)
    out += "...";
  return out;
}

std::string quoted(std::string_view s) { return "'" + printable(s) + "'"; }

} // namespace spire::spvasm
