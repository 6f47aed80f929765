// spirv-as reads numbers with C++ streams (libstdc++'s num_get) and, for floats, with its own
// hex-float reader. The rules below reproduce what those accept and produce:
//  - integers: white space first, one sign, then "0x"/"0X" and hex digits, or "0" and octal
//    digits, or decimal digits; the whole text must be consumed; out-of-range values fail.
//  - decimal floats: white space, sign, digits with at most one '.', an optional exponent
//    'e'/'E' with sign and at least one digit; correctly rounded; overflow fails, underflow
//    gives zero or a subnormal.
//  - hex floats: ['-'] "0x" hex digits ['.' hex digits] 'p' [sign] decimal digits, 'p' in lower
//    case; significand bits past the format's precision are dropped (truncation), exponents
//    saturate to infinity or zero, an all-ones exponent keeps its fraction (a NaN).
#include "NumberParser.h"

#include "spire/support/SmallFloat.h"

#include <charconv>
#include <cstring>

namespace spire::spvasm {

namespace {

bool isStreamSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// The index of the first byte at or after `i` that is not white space to a C++ stream.
size_t skipStreamSpace(std::string_view s, size_t i) {
  while (i < s.size() && isStreamSpace(s[i]))
    ++i;
  return i;
}

bool isDecimalDigit(char c) { return c >= '0' && c <= '9'; }

int hexDigitValue(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

int digitValue(char c, unsigned base) {
  int d = hexDigitValue(c);
  return d >= 0 && unsigned(d) < base ? d : -1;
}

struct StreamInteger {
  bool negative;
  uint64_t magnitude;
};

// What num_get reads for an integer type whose largest magnitudes are `maxPositive` and
// `maxNegative`, when it must consume the whole text.
std::optional<StreamInteger> readStreamInteger(std::string_view s, uint64_t maxPositive,
                                               uint64_t maxNegative) {
  const size_t n = s.size();
  size_t i = skipStreamSpace(s, 0);
  if (i == n)
    return std::nullopt;
  bool negative = false;
  if (s[i] == '+' || s[i] == '-') {
    negative = s[i] == '-';
    ++i;
  }
  // A leading zero selects octal (and is a digit by itself); "0x" or "0X" selects hex.
  unsigned base = 10;
  bool loneZero = false;
  if (i < n && s[i] == '0') {
    base = 8;
    loneZero = true;
    ++i;
    if (i < n && (s[i] == 'x' || s[i] == 'X')) {
      base = 16;
      loneZero = false;
      ++i;
    }
  }
  const uint64_t max = negative ? maxNegative : maxPositive;
  uint64_t value = 0;
  bool digits = false;
  bool overflow = false;
  for (; i < n; ++i) {
    int d = digitValue(s[i], base);
    if (d < 0)
      break;
    if (value > max / base) {
      overflow = true;
      continue;
    }
    value *= base;
    overflow |= value > max - unsigned(d);
    value += unsigned(d);
    digits = true;
  }
  if ((!digits && !loneZero) || overflow || i != n)
    return std::nullopt;
  return StreamInteger{negative, value};
}

// ---- floats --------------------------------------------------------------------------------

struct Layout {
  unsigned width;        // bits of the whole value
  unsigned fractionBits; // stored significand bits
  unsigned exponentBits;
  int64_t bias;
};

Layout layoutOf(FloatFormat f) {
  auto narrow = [](SmallFloat small) {
    const SmallFloatLayout l = smallFloatLayout(small);
    return Layout{smallFloatWidth(small), unsigned(l.mantissaBits), unsigned(l.exponentBits),
                  (int64_t(1) << (l.exponentBits - 1)) - 1};
  };
  switch (f) {
  case FloatFormat::Half:
    return narrow(SmallFloat::Half);
  case FloatFormat::BFloat16:
    return narrow(SmallFloat::BFloat16);
  case FloatFormat::Float8E4M3:
    return narrow(SmallFloat::E4M3);
  case FloatFormat::Float8E5M2:
    return narrow(SmallFloat::E5M2);
  case FloatFormat::Single:
    return {32, 23, 8, 127};
  case FloatFormat::Double:
    break;
  }
  return {64, 52, 11, 1023};
}

uint64_t widthMask(unsigned width) {
  return width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
}

// A hex float after its "0x": the significand is accumulated MSB first into a register as wide
// as the format (the leading one of a number with an integer part stays implicit; bits that
// fall off the register are dropped), then shifted into place, without rounding.
std::optional<uint64_t> readHexFloat(std::string_view s, size_t i, bool negative, Layout f) {
  const size_t n = s.size();
  const uint64_t registerMask = widthMask(f.width);
  uint64_t fraction = 0;
  uint64_t nextBit = 0; // next free bit of `fraction`, counted from its top
  int64_t exponent = f.bias;
  auto store = [&](unsigned bit) {
    if (nextBit < f.width && bit)
      fraction |= uint64_t(1) << (f.width - 1 - nextBit);
    ++nextBit;
  };

  while (i < n && s[i] == '0')
    ++i;
  bool integerPart = false; // a non-zero digit before the '.'
  bool seenOne = false;
  bool seenDot = false;
  for (;; ++i) {
    if (i == n)
      return std::nullopt;
    if (s[i] == 'p')
      break;
    if (s[i] == '.') {
      seenDot = true;
      ++i;
      break;
    }
    int nibble = hexDigitValue(s[i]);
    if (nibble < 0)
      return std::nullopt;
    integerPart = true;
    for (int b = 3; b >= 0; --b) {
      unsigned bit = (nibble >> b) & 1;
      if (seenOne) {
        store(bit);
        ++exponent;
      }
      seenOne |= bit != 0;
    }
  }
  if (seenDot) {
    seenOne = false;
    for (;; ++i) {
      if (i == n)
        return std::nullopt;
      if (s[i] == 'p')
        break;
      int nibble = hexDigitValue(s[i]);
      if (nibble < 0)
        return std::nullopt;
      for (int b = 3; b >= 0; --b) {
        unsigned bit = (nibble >> b) & 1;
        seenOne |= bit != 0;
        if (!integerPart && !seenOne)
          --exponent; // leading zeros of a number below one
        else
          store(bit);
      }
    }
  }
  ++i; // the 'p'

  // The binary exponent: one optional sign, then at least one decimal digit. Its magnitude
  // saturates far beyond any format's range.
  constexpr int64_t kSaturated = int64_t(1) << 40;
  bool minus = false;
  if (i < n && (s[i] == '+' || s[i] == '-')) {
    minus = s[i] == '-';
    ++i;
  }
  int64_t written = 0;
  size_t digitsStart = i;
  for (; i < n && isDecimalDigit(s[i]); ++i)
    written = written >= kSaturated ? kSaturated : written * 10 + (s[i] - '0');
  if (i == digitsStart || i != n)
    return std::nullopt;
  exponent += minus ? -written : written;

  bool zero = !integerPart && fraction == 0;
  if (!integerPart && !zero) {
    fraction = (fraction << 1) & registerMask; // the leading one becomes implicit
    --exponent;
  } else if (zero) {
    exponent = 0;
  }
  if (exponent <= 0 && !zero)
    fraction = (fraction >> 1) | (uint64_t(1) << (f.width - 1)); // subnormal: explicit one
  const uint64_t fractionMask = (uint64_t(1) << f.fractionBits) - 1;
  fraction = (fraction >> (f.width - f.fractionBits)) & fractionMask;
  while (exponent < 0 && !zero) {
    fraction >>= 1;
    ++exponent;
    if (fraction == 0) {
      zero = true;
      exponent = 0;
    }
  }
  const int64_t maxExponent = (int64_t(1) << f.exponentBits) - 1;
  if (exponent > maxExponent) {
    exponent = maxExponent;
    fraction = 0;
  }
  uint64_t bits = uint64_t(exponent) << f.fractionBits | fraction;
  if (negative)
    bits |= uint64_t(1) << (f.width - 1);
  return bits;
}

// A decimal float as num_get reads it: [sign] (digits ['.' digits] | '.' digits)
// [('e'|'E') [sign] digits], the whole text. `format` is Single or Double.
std::optional<uint64_t> readDecimalFloat(std::string_view s, FloatFormat format) {
  const size_t n = s.size();
  size_t i = skipStreamSpace(s, 0);
  bool negative = false;
  if (i < n && (s[i] == '+' || s[i] == '-')) {
    negative = s[i] == '-';
    ++i;
  }
  const size_t start = i;
  size_t mantissaDigits = 0;
  // The value is 0.d1d2... * 10^order, d1 the first non-zero digit (exponent part aside).
  int64_t order = 0;
  bool nonZero = false;
  bool dot = false;
  for (; i < n; ++i) {
    char c = s[i];
    if (isDecimalDigit(c)) {
      ++mantissaDigits;
      nonZero |= c != '0';
      if (!dot && nonZero)
        ++order;
      else if (dot && !nonZero)
        --order;
    } else if (c == '.' && !dot) {
      dot = true;
    } else {
      break;
    }
  }
  if (mantissaDigits == 0)
    return std::nullopt;
  int64_t exponent = 0;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool minus = false;
    if (i < n && (s[i] == '+' || s[i] == '-')) {
      minus = s[i] == '-';
      ++i;
    }
    size_t digitsStart = i;
    for (; i < n && isDecimalDigit(s[i]); ++i)
      exponent = exponent >= (int64_t(1) << 40) ? exponent : exponent * 10 + (s[i] - '0');
    if (i == digitsStart)
      return std::nullopt;
    if (minus)
      exponent = -exponent;
  }
  if (i != n)
    return std::nullopt;

  const char *first = s.data() + start;
  const char *last = s.data() + n;
  uint64_t bits = 0;
  std::from_chars_result r;
  if (format == FloatFormat::Single) {
    float v = 0;
    r = std::from_chars(first, last, v);
    uint32_t b;
    std::memcpy(&b, &v, sizeof b);
    bits = b;
  } else {
    double v = 0;
    r = std::from_chars(first, last, v);
    std::memcpy(&bits, &v, sizeof bits);
  }
  if (r.ptr != last)
    return std::nullopt;
  if (r.ec == std::errc::result_out_of_range) {
    // Out of range either way: too large fails (the stream reports overflow), too small is a
    // zero (the stream accepts underflow).
    if (nonZero && order + exponent > 0)
      return std::nullopt;
    bits = 0;
  } else if (r.ec != std::errc()) {
    return std::nullopt;
  }
  if (negative)
    bits |= uint64_t(1) << (format == FloatFormat::Single ? 31 : 63);
  return bits;
}

// A single narrowed to a half, an E4M3 or an E5M2 float, rounding toward zero; nullopt when it
// overflows to infinity (E4M3, which has none, takes its largest value up to it and fails
// beyond, as SPIRV-Tools does).
std::optional<uint64_t> narrowFromSingleTowardZero(uint32_t single, FloatFormat format) {
  const Layout f = layoutOf(format);
  const uint32_t sign = (single >> 31) << (f.width - 1);
  const uint32_t magnitude = single & 0x7FFFFFFF;
  const uint32_t biased = magnitude >> 23;
  if (biased == 0) // zero or a single subnormal: far below the smallest value
    return sign;
  const int exponent = int(biased) - 127;
  const int bias = int(f.bias);
  const int maxExponent = (1 << f.exponentBits) - 2 - bias; // IEEE-style: all ones is special
  if (biased == 0xFF || exponent > maxExponent) {
    if (format != FloatFormat::Float8E4M3 || biased == 0xFF)
      return std::nullopt;
    constexpr uint32_t kLargestE4M3 = 0x43E00000; // 448 as a single
    if (magnitude > kLargestE4M3)
      return std::nullopt;
    return sign | 0x7E;
  }
  uint32_t significand = (magnitude & 0x7FFFFF) >> (23 - f.fractionBits);
  if (exponent >= 1 - bias)
    return sign | uint32_t(exponent + bias) << f.fractionBits | significand;
  // As a subnormal of exponent -bias.
  significand = (significand | (uint32_t(1) << f.fractionBits)) >> 1;
  for (int e = exponent; e < -bias && significand != 0; ++e)
    significand >>= 1;
  return sign | significand;
}

// What SPIRV-Tools does for a float that is not a hex float: a decimal read, negated when the
// caller consumed a '-' (then the text must not start with another sign).
std::optional<uint64_t> readNormalFloat(std::string_view rest, bool negate, FloatFormat format) {
  if (negate && !rest.empty() && (rest[0] == '+' || rest[0] == '-'))
    return std::nullopt;
  FloatFormat read = format == FloatFormat::Double ? format : FloatFormat::Single;
  std::optional<uint64_t> bits = readDecimalFloat(rest, read);
  if (!bits)
    return std::nullopt;
  if (negate)
    *bits ^= uint64_t(1) << (read == FloatFormat::Single ? 31 : 63);
  switch (format) {
  case FloatFormat::Half:
  case FloatFormat::Float8E4M3:
  case FloatFormat::Float8E5M2:
    return narrowFromSingleTowardZero(static_cast<uint32_t>(*bits), format);
  case FloatFormat::BFloat16: // the top half of the single
    return *bits >> 16;
  case FloatFormat::Single:
  case FloatFormat::Double:
    break;
  }
  return bits;
}

} // namespace

const char *floatFormatName(FloatFormat format) {
  switch (format) {
  case FloatFormat::Half:
    return "16-bit float";
  case FloatFormat::Single:
    return "32-bit float";
  case FloatFormat::Double:
    return "64-bit float";
  case FloatFormat::BFloat16:
    return "bfloat16";
  case FloatFormat::Float8E4M3:
    return "E4M3 float";
  case FloatFormat::Float8E5M2:
    return "E5M2 float";
  }
  return "float";
}

std::optional<uint64_t> readUnsigned64(std::string_view text) {
  std::optional<StreamInteger> r = readStreamInteger(text, UINT64_MAX, UINT64_MAX);
  if (!r)
    return std::nullopt;
  uint64_t v = r->negative ? uint64_t(0) - r->magnitude : r->magnitude;
  if (text[0] == '-' && v != 0)
    return std::nullopt;
  return v;
}

std::optional<int64_t> readSigned64(std::string_view text) {
  std::optional<StreamInteger> r =
      readStreamInteger(text, uint64_t(INT64_MAX), uint64_t(INT64_MAX) + 1);
  if (!r)
    return std::nullopt;
  return static_cast<int64_t>(r->negative ? uint64_t(0) - r->magnitude : r->magnitude);
}

std::optional<uint32_t> readUnsigned32(std::string_view text) {
  std::optional<StreamInteger> r = readStreamInteger(text, UINT32_MAX, UINT32_MAX);
  if (!r)
    return std::nullopt;
  uint32_t v = static_cast<uint32_t>(r->negative ? uint64_t(0) - r->magnitude : r->magnitude);
  if (text[0] == '-' && v != 0)
    return std::nullopt;
  return v;
}

std::optional<uint64_t> readFloatBits(std::string_view text, FloatFormat format) {
  const size_t n = text.size();
  size_t i = skipStreamSpace(text, 0);
  bool negate = false;
  if (i < n && text[i] == '-') {
    negate = true;
    ++i;
  }
  if (i + 1 < n && text[i] == '0' && (text[i + 1] == 'x' || text[i + 1] == 'X'))
    return readHexFloat(text, i + 2, negate, layoutOf(format));
  return readNormalFloat(text.substr(i), negate, format);
}

} // namespace spire::spvasm
