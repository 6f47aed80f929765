#include "spire/support/SmallFloat.h"

#include <bit>
#include <cmath>

namespace spire {

namespace {

constexpr int kDoubleMantissaBits = 52;

} // namespace

SmallFloatLayout smallFloatLayout(SmallFloat format) {
  switch (format) {
  case SmallFloat::Half:
    return {5, 10, true};
  case SmallFloat::BFloat16:
    return {8, 7, true};
  case SmallFloat::E4M3:
    return {4, 3, false};
  case SmallFloat::E5M2:
    return {5, 2, true};
  }
  return {5, 10, true};
}

unsigned smallFloatWidth(SmallFloat format) {
  SmallFloatLayout l = smallFloatLayout(format);
  return static_cast<unsigned>(1 + l.exponentBits + l.mantissaBits);
}

uint32_t smallFloatFromDouble(SmallFloat format, double value) {
  const SmallFloatLayout l = smallFloatLayout(format);
  const uint32_t signBit = uint32_t(1) << (l.exponentBits + l.mantissaBits);
  const uint32_t sign = std::signbit(value) ? signBit : 0;
  const uint32_t maxExponent = (uint32_t(1) << l.exponentBits) - 1;
  const uint32_t mantissaMask = (uint32_t(1) << l.mantissaBits) - 1;
  const uint32_t nan = l.ieee
                           ? (maxExponent << l.mantissaBits) | (uint32_t(1) << (l.mantissaBits - 1))
                           : (maxExponent << l.mantissaBits) | mantissaMask;
  if (std::isnan(value)) {
    if (!l.ieee)
      return sign | nan;
    const uint64_t payload = std::bit_cast<uint64_t>(value) & ((uint64_t(1) << 52) - 1);
    const uint32_t top = static_cast<uint32_t>(payload >> (kDoubleMantissaBits - l.mantissaBits));
    return sign | (top ? (maxExponent << l.mantissaBits) | top : nan);
  }
  const uint32_t overflow = l.ieee ? sign | (maxExponent << l.mantissaBits) : sign | nan;
  double a = std::fabs(value);
  if (std::isinf(a))
    return overflow;
  if (a == 0)
    return sign;
  const int bias = (1 << (l.exponentBits - 1)) - 1;
  const int minNormal = 1 - bias;
  int e;
  std::frexp(a, &e); // a = m * 2^e, m in [0.5, 1): the leading bit's exponent is e - 1
  int exp = e - 1;
  if (exp < minNormal) {
    // A subnormal: a multiple of 2^(minNormal - mantissaBits). Rounding up to the smallest
    // normal gives exactly its bits.
    return sign | static_cast<uint32_t>(std::nearbyint(std::ldexp(a, l.mantissaBits - minNormal)));
  }
  double mantissa = std::nearbyint(std::ldexp(a, l.mantissaBits - exp));
  if (mantissa == std::ldexp(1.0, l.mantissaBits + 1)) {
    mantissa = std::ldexp(1.0, l.mantissaBits);
    ++exp;
  }
  const uint32_t biased = static_cast<uint32_t>(exp + bias);
  const uint32_t fraction = static_cast<uint32_t>(mantissa) & mantissaMask;
  const uint32_t largest = l.ieee ? maxExponent - 1 : maxExponent;
  if (exp + bias > static_cast<int>(largest) ||
      (!l.ieee && biased == maxExponent && fraction == mantissaMask))
    return overflow;
  return sign | (biased << l.mantissaBits) | fraction;
}

double smallFloatToDouble(SmallFloat format, uint32_t bits) {
  const SmallFloatLayout l = smallFloatLayout(format);
  const uint32_t maxExponent = (uint32_t(1) << l.exponentBits) - 1;
  const uint32_t mantissaMask = (uint32_t(1) << l.mantissaBits) - 1;
  const uint32_t exp = (bits >> l.mantissaBits) & maxExponent;
  const uint32_t mant = bits & mantissaMask;
  const bool negative = (bits >> (l.exponentBits + l.mantissaBits)) & 1;
  const int bias = (1 << (l.exponentBits - 1)) - 1;
  double magnitude;
  if (exp == maxExponent && (l.ieee || mant == mantissaMask)) {
    if (l.ieee && mant == 0) {
      magnitude = INFINITY;
    } else {
      // A NaN: its payload in the top bits of the double's (quiet NaN for E4M3's one NaN).
      const uint64_t payload =
          l.ieee ? uint64_t(mant) << (kDoubleMantissaBits - l.mantissaBits) : uint64_t(1) << 51;
      const uint64_t d = (uint64_t(negative) << 63) | (uint64_t(0x7FF) << 52) | payload;
      return std::bit_cast<double>(d);
    }
  } else if (exp == 0) {
    magnitude = std::ldexp(static_cast<double>(mant), 1 - bias - l.mantissaBits);
  } else {
    magnitude = std::ldexp(static_cast<double>(mant | (mantissaMask + 1)),
                           static_cast<int>(exp) - bias - l.mantissaBits);
  }
  return negative ? -magnitude : magnitude;
}

} // namespace spire
