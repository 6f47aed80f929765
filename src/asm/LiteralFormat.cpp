#include "LiteralFormat.h"

#include <bit>
#include <charconv>
#include <cmath>

namespace spire::spvasm {

namespace {

template <class T> void appendChars(std::string &out, T value) {
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, value);
  out.append(buf, r.ptr);
}

template <class T> void appendGeneral(std::string &out, T value, int precision) {
  // std::to_chars with a precision formats like printf's "%.<precision>g" in the C locale.
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::general, precision);
  out.append(buf, r.ptr);
}

// A binary floating-point value as "[-]0x<1|0>[.<hex fraction>]p<+|-><exponent>": the fraction
// is padded on the right to whole nibbles and loses its trailing zero nibbles; subnormals are
// normalized (their exponent goes below the minimum normal one).
void appendHexFloat(std::string &out, uint64_t bits, unsigned fractionBits, unsigned exponentBits) {
  const int bias = (1 << (exponentBits - 1)) - 1;
  const bool negative = (bits >> (fractionBits + exponentBits)) & 1;
  const uint64_t exponentField = (bits >> fractionBits) & ((uint64_t(1) << exponentBits) - 1);
  unsigned nibbles = (fractionBits + 3) / 4;
  const unsigned width = nibbles * 4;
  const uint64_t widthMask = width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  uint64_t fraction = (bits & ((uint64_t(1) << fractionBits) - 1)) << (width - fractionBits);

  const bool zero = exponentField == 0 && fraction == 0;
  int exponent = zero ? 0 : int(exponentField) - bias;
  if (exponentField == 0 && !zero) {
    const uint64_t top = uint64_t(1) << (width - 1);
    while ((fraction & top) == 0) {
      fraction <<= 1;
      --exponent;
    }
    fraction = (fraction << 1) & widthMask; // the leading 1 becomes implicit
  }
  while (nibbles > 0 && (fraction & 0xF) == 0) {
    fraction >>= 4;
    --nibbles;
  }

  if (negative)
    out += '-';
  out += "0x";
  out += zero ? '0' : '1';
  if (nibbles > 0) {
    out += '.';
    static constexpr char kDigits[] = "0123456789abcdef";
    for (unsigned i = nibbles; i-- > 0;)
      out += kDigits[(fraction >> (4 * i)) & 0xF];
  }
  out += 'p';
  if (exponent >= 0)
    out += '+';
  appendChars(out, exponent);
}

// Zero and normal values with `digits` significant digits, the others as hex floats.
template <class Float>
void appendFloatByClass(std::string &out, Float value, uint64_t bits, int digits,
                        unsigned fractionBits, unsigned exponentBits) {
  const int cls = std::fpclassify(value);
  if (cls == FP_ZERO || cls == FP_NORMAL)
    appendGeneral(out, value, digits);
  else
    appendHexFloat(out, bits, fractionBits, exponentBits);
}

} // namespace

void appendDecimal(std::string &out, uint64_t value) { appendChars(out, value); }

void appendFloat32(std::string &out, uint32_t bits) {
  appendFloatByClass(out, std::bit_cast<float>(bits), bits, 9, 23, 8);
}

void appendFloat64(std::string &out, uint64_t bits) {
  appendFloatByClass(out, std::bit_cast<double>(bits), bits, 17, 52, 11);
}

void appendFloat16(std::string &out, uint16_t bits) { appendHexFloat(out, bits, 10, 5); }

void appendNumber(std::string &out, binary::NumberKind kind, unsigned bitWidth,
                  std::span<const uint32_t> words) {
  if (words.empty())
    return;
  const bool wide = words.size() > 1;
  const uint64_t bits = wide ? (uint64_t(words[1]) << 32 | words[0]) : words[0];
  switch (kind) {
  case binary::NumberKind::Signed:
    if (wide)
      appendChars(out, static_cast<int64_t>(bits));
    else
      appendChars(out, static_cast<int32_t>(words[0]));
    break;
  case binary::NumberKind::Float:
    if (wide)
      appendFloat64(out, bits);
    else if (bitWidth == 16)
      appendFloat16(out, static_cast<uint16_t>(words[0] & 0xFFFF));
    else
      appendFloat32(out, words[0]);
    break;
  // bfloat16 and the 8-bit floats print as hex floats, as halves do.
  case binary::NumberKind::BFloat16:
    appendHexFloat(out, words[0] & 0xFFFF, 7, 8);
    break;
  case binary::NumberKind::Float8E4M3:
    appendHexFloat(out, words[0] & 0xFF, 3, 4);
    break;
  case binary::NumberKind::Float8E5M2:
    appendHexFloat(out, words[0] & 0xFF, 2, 5);
    break;
  default:
    appendChars(out, bits);
    break;
  }
}

} // namespace spire::spvasm
