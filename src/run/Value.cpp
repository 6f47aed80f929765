#include "spire/run/Value.h"

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace spire::run {

double Value::asDouble() const {
  if (isFloat)
    return number;
  return negative ? static_cast<double>(static_cast<int64_t>(bits)) : static_cast<double>(bits);
}

uint64_t Value::asBits() const {
  if (!isFloat)
    return bits;
  if (std::isnan(number) || std::isinf(number))
    return 0;
  if (number < 0)
    return static_cast<uint64_t>(static_cast<int64_t>(number));
  return number >= 18446744073709551616.0 ? ~uint64_t(0) : static_cast<uint64_t>(number);
}

uint16_t amberHalfFromFloat(float value) {
  uint32_t f = std::bit_cast<uint32_t>(value);
  uint32_t sign = (f >> 16) & 0x8000u;
  uint32_t exp = (f >> 23) & 0xFFu;
  uint32_t mantissa = (f >> 13) & 0x3FFu;
  if (exp == 0 && (f & 0x7FFFFFu) == 0)
    return static_cast<uint16_t>(sign);
  // The half exponent is the float's biased exponent less 112, kept to five bits; an exponent of
  // zero (values in [2^-15, 2^-14)) flushes the mantissa.
  uint32_t hexp = (exp - 112u) & 0x1Fu;
  if (hexp == 0)
    return static_cast<uint16_t>(sign);
  return static_cast<uint16_t>(sign | (hexp << 10) | mantissa);
}

float amberHalfToFloat(uint16_t bits) {
  uint32_t sign = (bits & 0x8000u) << 16;
  uint32_t exp = (bits >> 10) & 0x1Fu;
  uint32_t mantissa = bits & 0x3FFu;
  if (exp == 0)
    return std::bit_cast<float>(sign);
  return std::bit_cast<float>(sign | ((exp + 112u) << 23) | (mantissa << 13));
}

namespace {

void storeBits(uint64_t bits, unsigned bytes, uint8_t *out) {
  for (unsigned i = 0; i < bytes; ++i)
    out[i] = static_cast<uint8_t>(bits >> (8 * i));
}

uint64_t loadBits(unsigned bytes, const uint8_t *in) {
  uint64_t v = 0;
  for (unsigned i = 0; i < bytes; ++i)
    v |= uint64_t(in[i]) << (8 * i);
  return v;
}

} // namespace

void writeComponent(Component c, const Value &value, uint8_t *out) {
  unsigned bytes = c.bits / 8;
  if (c.isFloat()) {
    double d = value.asDouble();
    if (c.bits == 16)
      storeBits(amberHalfFromFloat(static_cast<float>(d)), 2, out);
    else if (c.bits == 32)
      storeBits(std::bit_cast<uint32_t>(static_cast<float>(d)), 4, out);
    else
      storeBits(std::bit_cast<uint64_t>(d), 8, out);
    return;
  }
  storeBits(value.asBits(), bytes, out);
}

uint64_t readInteger(Component c, const uint8_t *in) {
  uint64_t v = loadBits(c.bits / 8, in);
  if (c.isSigned() && c.bits < 64 && (v >> (c.bits - 1)) & 1)
    v |= ~uint64_t(0) << c.bits;
  return v;
}

double readFloat(Component c, const uint8_t *in) {
  uint64_t v = loadBits(c.bits / 8, in);
  if (c.bits == 16)
    return amberHalfToFloat(static_cast<uint16_t>(v));
  if (c.bits == 32)
    return std::bit_cast<float>(static_cast<uint32_t>(v));
  return std::bit_cast<double>(v);
}

std::string formatComponent(Component c, const uint8_t *in) {
  char buf[64];
  if (c.isFloat()) {
    double d = readFloat(c, in);
    std::snprintf(buf, sizeof buf, c.bits == 64 ? "%.17g" : "%.9g", d);
  } else if (c.isSigned()) {
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(readInteger(c, in)));
  } else {
    std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(readInteger(c, in)));
  }
  return buf;
}

std::string formatElements(const BufferFormat &format, std::span<const uint8_t> bytes) {
  std::string out;
  if (format.stride == 0)
    return out;
  unsigned rows = format.type.isFormat() ? 0 : format.type.rows;
  for (size_t base = 0; base + format.stride <= bytes.size(); base += format.stride) {
    size_t offset = base;
    unsigned inColumn = 0;
    bool first = true;
    for (const Segment &s : format.segments) {
      if (!s.padding) {
        if (!first)
          out += (rows != 0 && inColumn == 0) ? " | " : " ";
        out += formatComponent(s.component, bytes.data() + offset);
        first = false;
        if (rows != 0)
          inColumn = (inColumn + 1) % rows;
      }
      offset += s.component.bits / 8;
    }
    out += '\n';
  }
  return out;
}

std::string hexDump(std::span<const uint8_t> bytes) {
  std::string out;
  char buf[32];
  for (size_t i = 0; i < bytes.size(); i += 16) {
    std::snprintf(buf, sizeof buf, "%08zx:", i);
    out += buf;
    for (size_t j = i; j < i + 16 && j < bytes.size(); ++j) {
      std::snprintf(buf, sizeof buf, " %02x", bytes[j]);
      out += buf;
    }
    out += '\n';
  }
  return out;
}

} // namespace spire::run
