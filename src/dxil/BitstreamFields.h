// Field decoding the bitstream cursor's files share (Bitstream.cpp, BitstreamChars.cpp,
// BitstreamScalars.cpp), and the block readers that decode their common records from the bits
// (FunctionReader.cpp, MetadataReader.cpp): the char6 alphabet and a VBR field from one load.
#pragma once

#include "spire/dxil/Bitstream.h"

#include <cstdint>

namespace spire::dxil::detail {

/// The characters of the char6 encoding, by value.
inline constexpr char kChar6Chars[] =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._";

/// A VBR field's value and length in bits (0: not decoded).
struct VbrField {
  uint64_t value;
  uint64_t bits;
};

/// The VBR field of `width` (2..32) bits a chunk at the start of `w` (the bits of one load),
/// when its chunks lie in the first 57 bits; else bits 0. (Out of line: the callers' common
/// paths, one-chunk fields, then keep to a few registers.)
[[gnu::noinline]] inline VbrField vbrFromLoad(uint64_t w, unsigned width) {
  const uint64_t hi = uint64_t(1) << (width - 1);
  uint64_t value = w & (hi - 1);
  if (!(w & hi))
    return {value, width};
  uint64_t rest = w >> width; // (the next chunk in the low bits: no shift count to keep)
  for (unsigned used = 2 * width, shift = width - 1; used <= 57;
       used += width, shift += width - 1) {
    value |= (rest & (hi - 1)) << shift;
    if (!(rest & hi))
      return {value, used};
    rest >>= width;
  }
  return {0, 0};
}

/// A VBR-6 field at bit `at` of `data` (a whole load readable there) of at most four chunks
/// (values below 2^20: every id a call or a metadata node names): its value into `v` and `at`
/// past it; false (nothing moved) when it is longer.
[[gnu::always_inline]] inline bool vbr6Field(const uint8_t *data, uint64_t &at, uint64_t &v) {
  const uint64_t x = loadBitsAt(data, at);
  if (!(x & 32)) {
    v = x & 31;
    at += 6;
    return true;
  }
  if (!(x & 0x800)) {
    v = (x & 31) | ((x >> 1) & 0x3E0);
    at += 12;
    return true;
  }
  uint64_t r = (x & 31) | ((x >> 1) & 0x3E0);
#pragma GCC unroll 2
  for (unsigned k = 2; k < 4; ++k) {
    r |= (x >> k) & (uint64_t(31) << (5 * k));
    if (!((x >> (6 * k + 5)) & 1)) {
      v = r;
      at += 6 * (k + 1);
      return true;
    }
  }
  return false;
}

} // namespace spire::dxil::detail
