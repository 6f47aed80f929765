// Literal encodings: nul-terminated UTF-8 strings packed in words, multi-word numbers.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace spire::binary {

/// Number of words a string takes, terminator and padding included.
constexpr size_t stringWordCount(size_t length) { return length / 4 + 1; }

/// Whether one of the four bytes of `w` is zero (a string's nul): (w - 0x01010101) & ~w &
/// 0x80808080 sets the high bit of the lowest zero byte.
constexpr bool hasZeroByte(uint32_t w) { return ((w - 0x01010101u) & ~w & 0x80808080u) != 0; }

/// Appends a string in SPIR-V encoding (little-endian bytes within each word).
void appendString(std::vector<uint32_t> &words, std::string_view s);

/// Length in bytes of the string that starts at words[0], or nullopt when no terminator is found
/// within `words`.
std::optional<size_t> findStringLength(std::span<const uint32_t> words);

/// Decodes the string that starts at words[0] (up to its terminator or the end of `words`).
std::string decodeString(std::span<const uint32_t> words);

/// SPIR-V 2.2.1 fixes what the unused bits of a literal hold: the bytes after a string's nul
/// are 0, and the bits above a number's width are 0 (floats, unsigned integers) or copies of
/// the sign bit (signed integers). Modules that break this still read and write exactly, but
/// text cannot show those bits.
bool isCanonicalString(std::span<const uint32_t> words);
bool isCanonicalNumber(std::span<const uint32_t> words, bool isSigned, unsigned width);

/// The value of a literal number of up to 64 bits, low-order word first.
inline uint64_t literalValue(std::span<const uint32_t> words) {
  uint64_t v = words.empty() ? 0 : words[0];
  if (words.size() > 1)
    v |= uint64_t(words[1]) << 32;
  return v;
}

} // namespace spire::binary
