// Equality of the model's short names (dx.* metadata, dx.types structs, dx.op classes: 4 to 16
// characters), where a memcmp call costs more than the comparison.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace spire::dxil::detail {

/// The `n` characters (sizeof(Word) to 2 * sizeof(Word)) at `a` and `b` are the same: their
/// first and last words, which overlap when n is under twice a word.
template <class Word> inline bool sameEnds(const char *a, const char *b, size_t n) {
  Word a0, a1, b0, b1;
  std::memcpy(&a0, a, sizeof(Word));
  std::memcpy(&b0, b, sizeof(Word));
  std::memcpy(&a1, a + n - sizeof(Word), sizeof(Word));
  std::memcpy(&b1, b + n - sizeof(Word), sizeof(Word));
  return ((a0 ^ b0) | (a1 ^ b1)) == 0;
}

/// The `n` characters at `a` and at `b` are the same: 4 to 16 of them in two overlapping loads of
/// each, any other count with memcmp.
inline bool sameShortText(const char *a, const char *b, size_t n) {
  if (n >= 8 && n <= 16)
    return sameEnds<uint64_t>(a, b, n);
  if (n >= 4 && n < 8)
    return sameEnds<uint32_t>(a, b, n);
  return std::memcmp(a, b, n) == 0;
}

} // namespace spire::dxil::detail
