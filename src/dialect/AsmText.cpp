#include "AsmText.h"

#include "Naming.h"

#include "spire/dialect/Ops.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

namespace spire::dialect {

namespace {

/// How a float type lays out its bits: IEEE-like (the all-ones exponent holds infinities and
/// NaNs) or not (E4M3: only the all-ones pattern is NaN).
struct FloatLayout {
  unsigned width, precision; ///< precision: mantissa bits plus the implicit one
  bool ieee;
};

FloatLayout layoutOf(Type type) {
  if (std::optional<SmallFloat> small = smallFloatOf(type)) {
    const SmallFloatLayout l = smallFloatLayout(*small);
    return {smallFloatWidth(*small), unsigned(l.mantissaBits + 1), l.ieee};
  }
  if (type && type.is(TypeKind::Float) && type.width() == 32)
    return {32, 24, true};
  return {64, 53, true};
}

} // namespace

namespace {

/// An unsigned integer of any size (little-endian 32-bit limbs), for exact decimal conversion.
struct BigUint {
  std::vector<uint32_t> limbs;

  explicit BigUint(uint64_t v) {
    while (v) {
      limbs.push_back(static_cast<uint32_t>(v));
      v >>= 32;
    }
  }
  bool zero() const { return limbs.empty(); }
  void trim() {
    while (!limbs.empty() && limbs.back() == 0)
      limbs.pop_back();
  }
  unsigned activeBits() const {
    if (limbs.empty())
      return 0;
    uint32_t top = limbs.back();
    unsigned bits = 0;
    while (top) {
      ++bits;
      top >>= 1;
    }
    return static_cast<unsigned>((limbs.size() - 1) * 32) + bits;
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
    limbs.insert(limbs.begin(), words, 0u);
  }
  void mul(uint32_t m) {
    uint64_t carry = 0;
    for (uint32_t &l : limbs) {
      uint64_t v = uint64_t(l) * m + carry;
      l = static_cast<uint32_t>(v);
      carry = v >> 32;
    }
    if (carry)
      limbs.push_back(static_cast<uint32_t>(carry));
  }
  /// Divides in place; returns the remainder.
  uint32_t div(uint32_t d) {
    uint64_t rem = 0;
    for (size_t i = limbs.size(); i-- > 0;) {
      uint64_t v = (rem << 32) | limbs[i];
      limbs[i] = static_cast<uint32_t>(v / d);
      rem = v % d;
    }
    trim();
    return static_cast<uint32_t>(rem);
  }
};

/// What llvm::APFloat::toString writes for sig * 2^exp2 (MLIR prints floats with it):
/// the exact value truncated to a little more than `precision` digits, rounded half up to
/// `precision` digits, in scientific form when `maxPadding` is 0.
std::string apFloatString(uint64_t sig, int exp2, unsigned precision, unsigned maxPadding,
                          bool truncateZero) {
  if (sig == 0) {
    if (maxPadding)
      return "0";
    if (truncateZero)
      return "0.0E+0";
    std::string z = "0.0";
    if (precision > 1)
      z.append(precision - 1, '0');
    return z + "e+00";
  }
  while (!(sig & 1)) {
    sig >>= 1;
    ++exp2;
  }
  BigUint n(sig);
  int exp = 0;
  if (exp2 > 0) {
    n.shiftLeft(static_cast<unsigned>(exp2));
  } else if (exp2 < 0) {
    for (int e = -exp2; e > 0; e -= 13)
      n.mul(e >= 13 ? 1220703125u : [](int k) {
        uint32_t p = 1;
        while (k--)
          p *= 5;
        return p;
      }(e));
    exp = exp2;
  }
  // Drop the decimal digits far below the precision (truncating).
  unsigned bits = n.activeBits();
  unsigned required = (precision * 196 + 58) / 59;
  if (bits > required) {
    unsigned tens = (bits - required) * 59 / 196;
    exp += static_cast<int>(tens);
    for (; tens >= 9; tens -= 9)
      n.div(1000000000u);
    uint32_t p = 1;
    while (tens--)
      p *= 10;
    if (p > 1)
      n.div(p);
  }
  std::string buffer; // least significant digit first
  bool trail = true;
  while (!n.zero()) {
    uint32_t d = n.div(10);
    if (trail && d == 0) {
      ++exp;
      continue;
    }
    trail = false;
    buffer.push_back(static_cast<char>('0' + d));
  }
  // Round half up to `precision` digits.
  if (buffer.size() > precision) {
    size_t first = buffer.size() - precision;
    if (buffer[first - 1] < '5') {
      while (first < buffer.size() && buffer[first] == '0')
        ++first;
      exp += static_cast<int>(first);
      buffer.erase(0, first);
    } else {
      size_t i = first;
      for (; i < buffer.size(); ++i) {
        if (buffer[i] == '9') {
          ++first;
        } else {
          ++buffer[i];
          break;
        }
      }
      if (first == buffer.size()) {
        exp += static_cast<int>(first);
        buffer = "1";
      } else {
        exp += static_cast<int>(first);
        buffer.erase(0, first);
      }
    }
  }
  size_t nd = buffer.size();
  bool scientific;
  if (!maxPadding) {
    scientific = true;
  } else if (exp >= 0) {
    scientific =
        static_cast<unsigned>(exp) > maxPadding || nd + static_cast<unsigned>(exp) > precision;
  } else {
    int msd = exp + static_cast<int>(nd - 1);
    scientific = msd < 0 && static_cast<unsigned>(-msd) > maxPadding;
  }
  std::string s;
  if (scientific) {
    exp += static_cast<int>(nd - 1);
    s += buffer[nd - 1];
    s += '.';
    if (nd == 1 && truncateZero)
      s += '0';
    else
      for (size_t i = 1; i != nd; ++i)
        s += buffer[nd - 1 - i];
    if (!truncateZero && precision > nd - 1)
      s.append(precision - nd + 1, '0');
    s += truncateZero ? 'E' : 'e';
    s += exp >= 0 ? '+' : '-';
    std::string e = std::to_string(exp < 0 ? -exp : exp);
    if (!truncateZero && e.size() < 2)
      s += '0';
    s += e;
    return s;
  }
  if (exp >= 0) {
    for (size_t i = 0; i != nd; ++i)
      s += buffer[nd - 1 - i];
    s.append(static_cast<size_t>(exp), '0');
    return s;
  }
  int whole = exp + static_cast<int>(nd);
  size_t i = 0;
  if (whole > 0) {
    for (; i != static_cast<size_t>(whole); ++i)
      s += buffer[nd - i - 1];
    s += '.';
  } else {
    s += "0.";
    s.append(static_cast<size_t>(-whole), '0');
  }
  for (; i != nd; ++i)
    s += buffer[nd - i - 1];
  return s;
}

} // namespace

void appendFloat(double value, Type type, std::string &out) {
  const FloatLayout layout = layoutOf(type);
  const unsigned width = layout.width, precision = layout.precision;
  const uint64_t bits = bitsOfFloat(type, value);
  const unsigned expBits = width - 1 - (precision - 1);
  const uint64_t expMax = (uint64_t(1) << expBits) - 1;
  const bool negative = (bits >> (width - 1)) & 1;
  const uint64_t e = (bits >> (precision - 1)) & expMax;
  const uint64_t m = bits & ((uint64_t(1) << (precision - 1)) - 1);
  const bool finite =
      layout.ieee ? e != expMax : !(e == expMax && m == (uint64_t(1) << (precision - 1)) - 1);
  char buf[64];
  if (finite) {
    const int bias = static_cast<int>(expMax >> 1);
    uint64_t sig = e ? (m | (uint64_t(1) << (precision - 1))) : m;
    int exp2 = (e ? static_cast<int>(e) : 1) - bias - static_cast<int>(precision - 1);
    std::string s = (negative ? "-" : "") + apFloatString(sig, exp2, 6, 0, false);
    if (bitsOfFloat(type, std::strtod(s.c_str(), nullptr)) == bits || (width == 32 && [&] {
          float f = std::strtof(s.c_str(), nullptr);
          uint32_t b;
          std::memcpy(&b, &f, 4);
          return b == bits;
        }())) {
      out += s;
      return;
    }
    s = (negative ? "-" : "") + apFloatString(sig, exp2, 2 + precision * 59 / 196, 3, true);
    if (s.find('.') != std::string::npos) {
      out += s;
      return;
    }
  }
  std::snprintf(buf, sizeof buf, "0x%llX", static_cast<unsigned long long>(bits));
  out += buf;
}

bool isBareIdentifier(std::string_view s) {
  if (s.empty() || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_'))
    return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
          c == '$' || c == '.'))
      return false;
  return true;
}

void printString(std::string_view s, std::string &out) {
  static const char kHex[] = "0123456789ABCDEF";
  out += '"';
  for (unsigned char c : s) {
    // As llvm::printEscapedString: a backslash doubled, a quote and other bytes outside
    // ASCII's printable range as two hexadecimal digits.
    if (c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7F && c != '"') {
      out += static_cast<char>(c);
    } else {
      out += '\\';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  out += '"';
}

void printSymbol(std::string_view name, std::string &out) {
  out += '@';
  if (isBareIdentifier(name))
    out += name;
  else
    printString(name, out);
}

} // namespace spire::dialect

namespace spire::dialect {

std::string snakeCase(std::string_view name) {
  auto isUpper = [](char c) { return c >= 'A' && c <= 'Z'; };
  auto isLower = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (isUpper(c)) {
      if (i > 0 && !out.empty() && out.back() != '_') {
        char prev = name[i - 1];
        bool nextLower = i + 1 < name.size() && name[i + 1] >= 'a' && name[i + 1] <= 'z';
        if (isLower(prev) || (isUpper(prev) && nextLower))
          out += '_';
      }
      out += static_cast<char>(c - 'A' + 'a');
    } else if (isLower(c)) {
      out += c;
    } else if (!out.empty() && out.back() != '_') {
      out += '_';
    }
  }
  while (!out.empty() && out.back() == '_')
    out.pop_back();
  return out;
}

bool encodesOperand(const OpInfo &info, std::string_view attributeName) {
  if (attributeName.ends_with("_value"))
    return true;
  bool memoryAccess = false;
  for (const OperandMapping &m : info.operands) {
    if (attributeName == m.name)
      return true;
    memoryAccess |= m.operandKind == grammar::OperandKind::MemoryAccess;
  }
  return memoryAccess && (attributeName == "alignment" || attributeName == "source_alignment");
}

std::optional<uint32_t> decorationNamed(std::string_view attributeName) {
  static const std::unordered_map<std::string, uint32_t> names = [] {
    std::unordered_map<std::string, uint32_t> m;
    for (const grammar::EnumerantDesc &e :
         grammar::operandKind(grammar::OperandKind::Decoration).enumerants)
      m.emplace(snakeCase(e.name), e.value);
    m["descriptor_set"] = static_cast<uint32_t>(grammar::Decoration::DescriptorSet);
    return m;
  }();
  if (attributeName.starts_with("spirv."))
    attributeName.remove_prefix(6);
  auto it = names.find(std::string(attributeName));
  return it == names.end() ? std::nullopt : std::optional<uint32_t>(it->second);
}

} // namespace spire::dialect
