// The numbers of a script and their bytes in buffer memory: amber's conversions (truncating
// integers, its own float16 rounding), reading components back and printing them.
#pragma once

#include "spire/run/DataType.h"

#include <cstdint>
#include <span>
#include <string>

namespace spire::run {

/// A number as a script writes it: an integer (the 64 bits amber keeps; a negative one in two's
/// complement) or a floating-point value (written with a '.', or `nan`).
struct Value {
  bool isFloat = false;
  bool negative = false; ///< integers: written with a leading '-'
  uint64_t bits = 0;     ///< integers
  double number = 0;     ///< floating-point values

  static Value integer(uint64_t bits, bool negative = false) {
    Value v;
    v.bits = bits;
    v.negative = negative;
    return v;
  }
  static Value real(double d) {
    Value v;
    v.isFloat = true;
    v.number = d;
    return v;
  }
  /// The value as a double: integers numerically (0x3f800000 is 1065353216.0).
  double asDouble() const;
  /// The value as an integer: floating-point values truncated toward zero.
  uint64_t asBits() const;
};

/// Amber's float16 conversion: the value rounded to float, then its mantissa truncated; values
/// below 2^-14 in magnitude become zero, values beyond the half range are not handled (the
/// exponent wraps, as amber's does).
uint16_t amberHalfFromFloat(float value);
/// Amber's float16 reading: zero and subnormals read as (signed) zero, and an exponent of 31 as
/// an ordinary power of two (0x7C00 is 65536).
float amberHalfToFloat(uint16_t bits);

/// Writes `value` as component `c` (c.bits / 8 bytes, little-endian) at `out`.
void writeComponent(Component c, const Value &value, uint8_t *out);
/// A component's integer bits, sign-extended for signed kinds.
uint64_t readInteger(Component c, const uint8_t *in);
/// A float component's value (float16 read as amber reads it).
double readFloat(Component c, const uint8_t *in);
/// A component as text: integers in decimal, floats with up to 9 significant digits.
std::string formatComponent(Component c, const uint8_t *in);

/// Elements of `format` in `bytes` as text: components separated by spaces, elements by
/// newlines (vectors and matrix columns on one line each); a partial element at the end is left
/// out.
std::string formatElements(const BufferFormat &format, std::span<const uint8_t> bytes);
/// Bytes as a hex dump: 16 per line, with the offset first.
std::string hexDump(std::span<const uint8_t> bytes);

} // namespace spire::run
