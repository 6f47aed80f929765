// Equality of the model's short names (dx.* metadata, dx.types structs, dx.op classes: 4 to 16
// characters), where a memcmp call costs more than the comparison.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace spire::dxil::detail {

/// The `n` characters at `a` and at `b` are the same: 4 to 16 of them in two overlapping loads of
/// each, any other count with memcmp.
inline bool sameShortText(const char *a, const char *b, size_t n) {
  if (n >= 8 && n <= 16) {
    uint64_t a0, a1, b0, b1;
    std::memcpy(&a0, a, 8);
    std::memcpy(&b0, b, 8);
    std::memcpy(&a1, a + n - 8, 8);
    std::memcpy(&b1, b + n - 8, 8);
    return ((a0 ^ b0) | (a1 ^ b1)) == 0;
  }
  if (n >= 4 && n < 8) {
    uint32_t a0, a1, b0, b1;
    std::memcpy(&a0, a, 4);
    std::memcpy(&b0, b, 4);
    std::memcpy(&a1, a + n - 4, 4);
    std::memcpy(&b1, b + n - 4, 4);
    return ((a0 ^ b0) | (a1 ^ b1)) == 0;
  }
  return std::memcmp(a, b, n) == 0;
}

} // namespace spire::dxil::detail
