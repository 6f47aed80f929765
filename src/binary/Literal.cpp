#include "spire/binary/Literal.h"

#include <bit>
#include <cstring>

namespace spire::binary {

void appendString(std::vector<uint32_t> &words, std::string_view s) {
  size_t n = stringWordCount(s.size());
  size_t base = words.size();
  words.resize(base + n, 0);
  for (size_t i = 0; i < s.size(); ++i)
    words[base + i / 4] |= uint32_t(static_cast<uint8_t>(s[i])) << (8 * (i % 4));
}

std::optional<size_t> findStringLength(std::span<const uint32_t> words) {
  for (size_t w = 0; w < words.size(); ++w) {
    const uint32_t v = words[w];
    if (!hasZeroByte(v))
      continue;
    for (size_t b = 0; b < 4; ++b)
      if (((v >> (8 * b)) & 0xFF) == 0)
        return w * 4 + b;
  }
  return std::nullopt;
}

std::string decodeString(std::span<const uint32_t> words) {
  const size_t length = findStringLength(words).value_or(words.size() * 4);
  std::string s(length, '\0');
  if constexpr (std::endian::native == std::endian::little) {
    // The bytes of a word are the string's in order (SPIR-V 2.2.1: little-endian within words).
    std::memcpy(s.data(), words.data(), length);
  } else {
    for (size_t i = 0; i < length; ++i)
      s[i] = static_cast<char>((words[i / 4] >> (8 * (i % 4))) & 0xFF);
  }
  return s;
}

bool isCanonicalString(std::span<const uint32_t> words) {
  std::optional<size_t> len = findStringLength(words);
  if (!len || *len / 4 + 1 != words.size())
    return false;
  uint32_t last = words.back();
  unsigned used = static_cast<unsigned>(*len % 4); // bytes of the string in the last word
  return (last >> (8 * used)) == 0;
}

bool isCanonicalNumber(std::span<const uint32_t> words, bool isSigned, unsigned width) {
  if (width == 0 || words.size() != (width + 31) / 32)
    return false;
  unsigned top = width % 32; // bits of the value in the last word (0: all 32)
  if (top == 0)
    return true;
  uint32_t last = words.back();
  uint32_t high = last >> top;             // the bits above the width
  uint32_t ones = (1u << (32 - top)) - 1u; // as many ones as there are such bits
  bool negative = (last >> (top - 1)) & 1u;
  return high == (isSigned && negative ? ones : 0u);
}

} // namespace spire::binary
