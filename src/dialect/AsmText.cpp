#include "AsmText.h"
#include "Naming.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace spire::dialect {

namespace {

uint16_t toHalfBits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  int exp = static_cast<int>((x >> 23) & 0xFF) - 127 + 15;
  uint32_t mant = x & 0x7FFFFFu;
  if (((x >> 23) & 0xFF) == 0xFF)
    return static_cast<uint16_t>(sign | 0x7C00u | (mant ? 0x200u : 0));
  if (exp >= 31)
    return static_cast<uint16_t>(sign | 0x7C00u);
  if (exp <= 0) {
    if (exp < -10)
      return static_cast<uint16_t>(sign);
    mant |= 0x800000u;
    unsigned shift = static_cast<unsigned>(14 - exp);
    uint32_t half = mant >> shift;
    uint32_t rest = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rest > mid || (rest == mid && (half & 1)))
      ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = sign | (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1)))
    ++half;
  return static_cast<uint16_t>(half);
}

/// The value rounded to a float of `width` bits, as bits, for comparing.
uint64_t bitsAt(double v, unsigned width) {
  if (width == 64) {
    uint64_t b;
    std::memcpy(&b, &v, 8);
    return b;
  }
  float f = static_cast<float>(v);
  if (width == 16)
    return toHalfBits(f);
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

} // namespace

void appendFloat(double value, unsigned width, std::string &out) {
  char buf[64];
  if (!std::isfinite(value)) {
    unsigned digits = width == 64 ? 16 : width == 16 ? 4 : 8;
    std::snprintf(buf, sizeof buf, "0x%0*llX", static_cast<int>(digits),
                  static_cast<unsigned long long>(bitsAt(value, width)));
    out += buf;
    return;
  }
  uint64_t want = bitsAt(value, width);
  std::snprintf(buf, sizeof buf, "%.6e", value);
  if (bitsAt(std::strtod(buf, nullptr), width) == want) {
    out += buf;
    return;
  }
  for (int precision = 7; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, value);
    if (bitsAt(std::strtod(buf, nullptr), width) == want)
      break;
  }
  std::string s = buf;
  if (s.find_first_of(".e") == std::string::npos)
    s += ".0";
  out += s;
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
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7F) {
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

} // namespace spire::dialect
