// Floating-point formats narrower than float, to and from double: IEEE binary16, bfloat16
// (SPV_KHR_bfloat16) and the two 8-bit formats of SPV_EXT_float8 (E4M3 without infinities,
// E5M2), for the layers that hold float constants as doubles (the structured IR's attributes,
// its folding and its text). Every value of these formats is exactly a double, and a NaN keeps
// its payload's top bits both ways, so bits -> double -> bits is the identity.
#pragma once

#include <cstdint>
#include <optional>

namespace spire {

enum class SmallFloat : uint8_t {
  Half,     ///< IEEE binary16: 5 exponent bits, 10 mantissa bits
  BFloat16, ///< 8 exponent bits, 7 mantissa bits (the top half of a float)
  E4M3,     ///< 4 exponent bits, 3 mantissa bits, no infinities, one NaN per sign (0x7F, 0xFF)
  E5M2,     ///< 5 exponent bits, 2 mantissa bits, IEEE-like
};

/// How a format lays out its bits after the sign.
struct SmallFloatLayout {
  int exponentBits, mantissaBits;
  /// The all-ones exponent holds infinities and NaNs (IEEE); otherwise it holds ordinary values
  /// and only the all-ones pattern is NaN (E4M3).
  bool ieee;
};
SmallFloatLayout smallFloatLayout(SmallFloat format);

/// The format's width in bits.
unsigned smallFloatWidth(SmallFloat format);

/// The value of `format` nearest to `value` (ties to even). Overflow gives infinity, or NaN in
/// E4M3, which has none; a NaN keeps its sign and the top bits of its payload (quiet when those
/// are zero).
uint32_t smallFloatFromDouble(SmallFloat format, double value);
/// The value of the bits (those above the format's width are ignored).
double smallFloatToDouble(SmallFloat format, uint32_t bits);

} // namespace spire
