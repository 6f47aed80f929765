// Floating-point and wide-integer constant text: see LlvmFloatText.h.
#include "LlvmFloatText.h"

#include <bit>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace spire::dxil {

namespace {

/// A non-negative integer of 32-bit limbs, little-endian: just what decimal conversion needs.
struct BigUnsigned {
  std::vector<uint32_t> limbs;

  explicit BigUnsigned(uint64_t v) {
    while (v) {
      limbs.push_back(uint32_t(v));
      v >>= 32;
    }
  }
  bool isZero() const { return limbs.empty(); }
  void trim() {
    while (!limbs.empty() && limbs.back() == 0)
      limbs.pop_back();
  }
  void mulSmall(uint32_t f) {
    uint64_t carry = 0;
    for (uint32_t &l : limbs) {
      uint64_t p = uint64_t(l) * f + carry;
      l = uint32_t(p);
      carry = p >> 32;
    }
    if (carry)
      limbs.push_back(uint32_t(carry));
  }
  /// Divides in place, returning the remainder.
  uint32_t divSmall(uint32_t d) {
    uint64_t rem = 0;
    for (size_t i = limbs.size(); i-- > 0;) {
      uint64_t cur = (rem << 32) | limbs[i];
      limbs[i] = uint32_t(cur / d);
      rem = cur % d;
    }
    trim();
    return uint32_t(rem);
  }
  void shiftLeft(unsigned n) {
    unsigned words = n / 32, bits = n % 32;
    if (bits) {
      uint32_t carry = 0;
      for (uint32_t &l : limbs) {
        uint32_t next = l >> (32 - bits);
        l = (l << bits) | carry;
        carry = next;
      }
      if (carry)
        limbs.push_back(carry);
    }
    limbs.insert(limbs.begin(), words, 0);
  }
  unsigned activeBits() const {
    if (limbs.empty())
      return 0;
    return unsigned(limbs.size() - 1) * 32 + unsigned(std::bit_width(limbs.back()));
  }
  uint64_t low64() const {
    uint64_t v = 0;
    if (!limbs.empty())
      v = limbs[0];
    if (limbs.size() > 1)
      v |= uint64_t(limbs[1]) << 32;
    return v;
  }
};

/// LLVM's decimal rendering of a finite nonzero double with six significant digits, in
/// exponent form, following its digit generation (truncating pre-division, then rounding half
/// up on the decimal digits).
std::string sixDigits(uint64_t bits) {
  bool negative = bits >> 63;
  int biased = int((bits >> 52) & 0x7FF);
  uint64_t mant = bits & ((uint64_t(1) << 52) - 1);
  int exp;
  if (biased == 0) {
    exp = -1074;
  } else {
    mant |= uint64_t(1) << 52;
    exp = biased - 1075;
  }
  int tz = std::countr_zero(mant);
  mant >>= tz;
  exp += tz;
  constexpr unsigned kPrecision = 6;
  constexpr unsigned kBitsRequired = (kPrecision * 196 + 58) / 59;
  int decExp = 0;
  std::string digits; // least significant first, without trailing zeros
  // The same steps in 128-bit arithmetic where every intermediate value fits (most constants
  // of shaders, floats widened among them); the arbitrary-precision path below otherwise.
  unsigned __int128 small = mant;
  bool fits = true;
  if (exp > 0) {
    fits = unsigned(std::bit_width(mant)) + unsigned(exp) <= 128;
    if (fits)
      small = small << exp;
  } else {
    for (int t = -exp; t > 0 && fits; --t)
      fits = !__builtin_mul_overflow(small, (unsigned __int128)5, &small);
  }
  if (fits) {
    if (exp < 0)
      decExp = exp;
    uint64_t high = uint64_t(small >> 64);
    unsigned active =
        high ? 64 + unsigned(std::bit_width(high)) : unsigned(std::bit_width(uint64_t(small)));
    if (active > kBitsRequired) {
      unsigned tens = (active - kBitsRequired) * 59 / 196; // at most 32: 10^32 fits
      decExp += int(tens);
      unsigned __int128 p = 1;
      while (tens-- > 0)
        p *= 10;
      small /= p;
    }
    uint64_t rest = uint64_t(small); // below 2^64 now: at most 20 + 4 bits are left
    bool inTrail = true;
    while (rest) {
      uint32_t d = uint32_t(rest % 10);
      rest /= 10;
      if (inTrail && d == 0) {
        ++decExp;
      } else {
        digits.push_back(char('0' + d));
        inTrail = false;
      }
    }
  } else {
    BigUnsigned sig(mant);
    if (exp > 0) {
      sig.shiftLeft(unsigned(exp));
    } else if (exp < 0) {
      int t = -exp;
      decExp = exp;
      while (t >= 13) {
        sig.mulSmall(1220703125u); // 5^13
        t -= 13;
      }
      uint32_t p = 1;
      while (t-- > 0)
        p *= 5;
      sig.mulSmall(p);
    }
    unsigned active = sig.activeBits();
    if (active > kBitsRequired) {
      unsigned tens = (active - kBitsRequired) * 59 / 196;
      decExp += int(tens);
      while (tens >= 9) {
        sig.divSmall(1000000000u);
        tens -= 9;
      }
      uint32_t p = 1;
      while (tens-- > 0)
        p *= 10;
      sig.divSmall(p);
    }
    bool inTrail = true;
    while (!sig.isZero()) {
      uint32_t d = sig.divSmall(10);
      if (inTrail && d == 0) {
        ++decExp;
      } else {
        digits.push_back(char('0' + d));
        inTrail = false;
      }
    }
  }
  // Round to the precision (half up, on the first dropped digit).
  if (digits.size() > kPrecision) {
    size_t first = digits.size() - kPrecision;
    if (digits[first - 1] < '5') {
      while (first < digits.size() && digits[first] == '0')
        ++first;
      decExp += int(first);
      digits.erase(0, first);
    } else {
      size_t i = first;
      for (; i < digits.size(); ++i) {
        if (digits[i] == '9') {
          ++first;
        } else {
          ++digits[i];
          break;
        }
      }
      if (first == digits.size()) {
        decExp += int(first);
        digits = "1";
      } else {
        decExp += int(first);
        digits.erase(0, first);
      }
    }
  }
  size_t n = digits.size();
  decExp += int(n) - 1;
  std::string out;
  if (negative)
    out.push_back('-');
  out.push_back(digits[n - 1]);
  out.push_back('.');
  for (size_t i = 1; i < n; ++i)
    out.push_back(digits[n - 1 - i]);
  if (kPrecision > n - 1)
    out.append(kPrecision - n + 1, '0');
  out.push_back('e');
  out.push_back(decExp >= 0 ? '+' : '-');
  int e = decExp < 0 ? -decExp : decExp;
  if (e < 10)
    out.push_back('0');
  out += std::to_string(e);
  return out;
}

void appendHex(std::string &out, uint64_t v, int digits) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (int i = digits - 1; i >= 0; --i)
    out.push_back(kHex[(v >> (i * 4)) & 15]);
}

void appendHexMinimal(std::string &out, uint64_t v) {
  int digits = 1;
  while (digits < 16 && (v >> (digits * 4)))
    ++digits;
  appendHex(out, v, digits);
}

} // namespace

void appendLlvmDouble(std::string &out, uint64_t bits) {
  bool finite = ((bits >> 52) & 0x7FF) != 0x7FF;
  if (finite) {
    if ((bits & ~(uint64_t(1) << 63)) == 0) {
      out += (bits >> 63) ? "-0.000000e+00" : "0.000000e+00";
      return;
    }
    std::string text = sixDigits(bits);
    double value, back;
    std::memcpy(&value, &bits, 8);
    // Read back with from_chars (correctly rounded, as strtod, and cheaper); where it reports
    // a range error (overflow, underflow) strtod decides, as it always did.
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), back);
    if (ec != std::errc() || end != text.data() + text.size())
      back = std::strtod(text.c_str(), nullptr);
    if (back == value) {
      out += text;
      return;
    }
  }
  out += "0x";
  appendHexMinimal(out, bits);
}

void appendLlvmFloat(std::string &out, uint32_t f) {
  uint32_t exp = (f >> 23) & 0xFF;
  uint64_t sign = uint64_t(f >> 31) << 63;
  uint64_t d;
  if (exp == 0xFF) {
    d = sign | (uint64_t(0x7FF) << 52) | (uint64_t(f & 0x7FFFFF) << 29);
  } else {
    float value;
    std::memcpy(&value, &f, 4);
    double widened = value;
    std::memcpy(&d, &widened, 8);
  }
  appendLlvmDouble(out, d);
}

void appendSignedDecimal(std::string &out, const uint64_t *words, uint32_t numWords,
                         uint32_t bitWidth) {
  if (numWords == 1) { // the common case: sign-extend within the width and print
    uint64_t v = words[0];
    if (bitWidth < 64 && bitWidth > 0) {
      v &= (uint64_t(1) << bitWidth) - 1;
      if ((v >> (bitWidth - 1)) & 1)
        v |= ~uint64_t(0) << bitWidth;
    }
    char buf[24];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, int64_t(v));
    out.append(buf, end);
    return;
  }
  // Sign-extend within the width, then print magnitude.
  std::vector<uint64_t> w(words, words + numWords);
  uint32_t topBits = bitWidth - 64 * (numWords - 1);
  bool negative = (w.back() >> (topBits - 1)) & 1;
  if (negative) { // two's complement negate within the width
    uint64_t carry = 1;
    for (uint64_t &x : w) {
      x = ~x;
      uint64_t s = x + carry;
      carry = (carry && s == 0) ? 1 : 0;
      x = s;
    }
    if (topBits < 64)
      w.back() &= (uint64_t(1) << topBits) - 1;
  }
  BigUnsigned big(0);
  for (size_t i = 0; i < w.size(); ++i) {
    big.limbs.push_back(uint32_t(w[i]));
    big.limbs.push_back(uint32_t(w[i] >> 32));
  }
  big.trim();
  std::string digits;
  while (!big.isZero())
    digits.push_back(char('0' + big.divSmall(10)));
  if (digits.empty())
    digits = "0";
  if (negative)
    out.push_back('-');
  out.append(digits.rbegin(), digits.rend());
}

} // namespace spire::dxil
