// Field decoding the bitstream cursor's files share (Bitstream.cpp, BitstreamChars.cpp,
// BitstreamScalars.cpp): the char6 alphabet and a VBR field from the bits of one load.
#pragma once

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

} // namespace spire::dxil::detail
