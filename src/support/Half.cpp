#include "spire/support/Half.h"

#include <cmath>

namespace spire {

uint16_t halfFromDouble(double value) {
  const uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  if (std::isnan(value))
    return sign | 0x7E00;
  double a = std::fabs(value);
  if (std::isinf(a))
    return sign | 0x7C00;
  if (a == 0)
    return sign;
  int e;
  std::frexp(a, &e); // a = m * 2^e with m in [0.5, 1): the exponent of a's leading bit is e - 1
  int exp = e - 1;
  if (exp < -14) {
    // Subnormal: a multiple of 2^-24 (rounding up to 2^-14 gives the smallest normal, 0x0400).
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(std::ldexp(a, 24))));
  }
  double mantissa = std::nearbyint(std::ldexp(a, 10 - exp)); // in [1024, 2048]
  if (mantissa == 2048) {
    mantissa = 1024;
    ++exp;
  }
  if (exp > 15)
    return sign | 0x7C00;
  return static_cast<uint16_t>(sign | ((exp + 15) << 10) |
                               (static_cast<uint16_t>(mantissa) - 1024));
}

double halfToDouble(uint16_t bits) {
  const int exp = (bits >> 10) & 0x1F, mant = bits & 0x3FF;
  const double sign = (bits & 0x8000) ? -1.0 : 1.0;
  if (exp == 0)
    return sign * std::ldexp(mant, -24);
  if (exp == 31)
    return mant ? std::copysign(std::nan(""), sign) : sign * INFINITY;
  return sign * std::ldexp(mant + 1024, exp - 25);
}

} // namespace spire
