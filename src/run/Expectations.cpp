#include "spire/run/Expectations.h"

#include "ScriptParserSupport.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace spire::run {

namespace {

std::string number(double d) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", d);
  return buf;
}

// Position of non-padding component `i` of `format` counted from the start of the data.
size_t componentOffset(const BufferFormat &format, size_t i) {
  uint32_t per = format.componentsPerElement();
  size_t element = i / per, want = i % per, seen = 0, offset = 0;
  for (const Segment &s : format.segments) {
    if (!s.padding && seen++ == want)
      break;
    offset += s.component.bits / 8;
  }
  return element * format.stride + offset;
}

uint64_t truncated(uint64_t v, unsigned bits) {
  return bits >= 64 ? v : (v & ((uint64_t(1) << bits) - 1));
}

int64_t signExtended(uint64_t v, unsigned bits) {
  if (bits >= 64)
    return static_cast<int64_t>(v);
  uint64_t t = truncated(v, bits);
  if (t >> (bits - 1) & 1)
    t |= ~uint64_t(0) << bits;
  return static_cast<int64_t>(t);
}

bool withinTolerance(double a, double e, const Tolerance &t) {
  if (std::isnan(a) || std::isnan(e))
    return std::isnan(a) && std::isnan(e);
  double limit = t.percent ? t.value / 100.0 * std::fabs(e) : t.value;
  return std::fabs(a - e) <= limit;
}

// One value: true when it satisfies the comparator.
bool compareInteger(Comparator op, Component c, uint64_t actualBits, const Value &expected,
                    const std::vector<Tolerance> &tolerances, std::string &got, std::string &want) {
  uint64_t e = expected.asBits();
  bool isSigned = c.isSigned();
  if (isSigned) {
    got = std::to_string(signExtended(actualBits, c.bits));
    want = std::to_string(signExtended(e, c.bits));
  } else {
    got = std::to_string(truncated(actualBits, c.bits));
    want = std::to_string(truncated(e, c.bits));
  }
  auto lessThan = [&](bool orEqual) {
    if (isSigned) {
      int64_t a = signExtended(actualBits, c.bits), b = signExtended(e, c.bits);
      return orEqual ? a <= b : a < b;
    }
    uint64_t a = truncated(actualBits, c.bits), b = truncated(e, c.bits);
    return orEqual ? a <= b : a < b;
  };
  bool equal = truncated(actualBits, c.bits) == truncated(e, c.bits);
  switch (op) {
  case Comparator::Eq:
    return equal;
  case Comparator::Ne:
    return !equal;
  case Comparator::Lt:
    return lessThan(false);
  case Comparator::Le:
    return lessThan(true);
  case Comparator::Gt:
    return !lessThan(true);
  case Comparator::Ge:
    return !lessThan(false);
  case Comparator::FuzzyEq: {
    if (tolerances.empty())
      return equal;
    double a =
        isSigned ? double(signExtended(actualBits, c.bits)) : double(truncated(actualBits, c.bits));
    double x = isSigned ? double(signExtended(e, c.bits)) : double(truncated(e, c.bits));
    return withinTolerance(a, x, tolerances[0]);
  }
  }
  return false;
}

bool compareFloat(Comparator op, Component c, double a, const Value &expected,
                  const std::vector<Tolerance> &tolerances, std::string &got, std::string &want) {
  double e = expected.asDouble();
  if (c.bits <= 32)
    e = static_cast<float>(e);
  got = number(a);
  want = number(e);
  auto nearlyEqual = [&] {
    if (std::isnan(a) || std::isnan(e))
      return std::isnan(a) && std::isnan(e);
    return std::fabs(a - e) <= 1e-8 * std::fabs(e);
  };
  switch (op) {
  case Comparator::Eq:
    return nearlyEqual();
  case Comparator::Ne:
    return !nearlyEqual();
  case Comparator::Lt:
    return !(a >= e);
  case Comparator::Le:
    return !(a > e);
  case Comparator::Gt:
    return !(a <= e);
  case Comparator::Ge:
    return !(a < e);
  case Comparator::FuzzyEq:
    return tolerances.empty() ? nearlyEqual() : withinTolerance(a, e, tolerances[0]);
  }
  return false;
}

std::optional<std::string> checkValues(const ScriptBuffer &b, const Command &cmd) {
  if (!b.format)
    return "buffer " + b.name + " has no type";
  const BufferFormat &f = *b.format;
  if (cmd.offset % f.stride != 0)
    return "given offset (" + std::to_string(cmd.offset) + ") is not multiple of element size (" +
           std::to_string(f.stride) + ")";
  if (b.bytes.empty())
    return std::string("actual data is empty while expected data is not");
  uint32_t per = f.componentsPerElement();
  uint64_t covered = cmd.values.size() / per;
  if (cmd.offset > b.bytes.size() || covered * f.stride + cmd.offset > b.elementCount() * f.stride)
    return "request to access to byte " + std::to_string(covered * f.stride + cmd.offset) +
           " would read outside buffer of size " + std::to_string(b.elementCount() * f.stride) +
           " bytes";
  for (size_t i = 0; i < cmd.values.size(); ++i) {
    size_t at = cmd.offset + componentOffset(f, i);
    Component c = detail::componentAt(f, i);
    if (at + c.bits / 8 > b.bytes.size())
      return "value " + std::to_string(i) + " lies beyond the end of buffer " + b.name;
    std::string got, want;
    bool ok = c.isFloat() ? compareFloat(cmd.comparator, c, readFloat(c, b.bytes.data() + at),
                                         cmd.values[i], cmd.tolerances, got, want)
                          : compareInteger(cmd.comparator, c, readInteger(c, b.bytes.data() + at),
                                           cmd.values[i], cmd.tolerances, got, want);
    if (!ok) {
      std::string tol;
      if (cmd.comparator == Comparator::FuzzyEq && !cmd.tolerances.empty())
        tol = " (tolerance " + number(cmd.tolerances[0].value) +
              (cmd.tolerances[0].percent ? "%" : "") + ")";
      return b.name + " byte " + std::to_string(at) + " (value " + std::to_string(i) + "): got " +
             got + ", expected " + std::string(comparatorSymbol(cmd.comparator)) + " " + want + tol;
    }
  }
  return std::nullopt;
}

std::optional<std::string> checkBuffers(const ScriptBuffer &a, const ScriptBuffer &b) {
  if (a.bytes.size() != b.bytes.size())
    return a.name + " has " + std::to_string(a.bytes.size()) + " bytes, " + b.name + " " +
           std::to_string(b.bytes.size());
  size_t differing = 0, first = 0;
  for (size_t i = 0; i < a.bytes.size(); ++i)
    if (a.bytes[i] != b.bytes[i]) {
      if (differing++ == 0)
        first = i;
    }
  if (differing == 0)
    return std::nullopt;
  std::string detail;
  if (a.format && a.format->stride) {
    const BufferFormat &f = *a.format;
    size_t element = first / f.stride;
    std::span<const uint8_t> ea(a.bytes.data() + element * f.stride, f.stride);
    std::span<const uint8_t> eb(b.bytes.data() + element * f.stride, f.stride);
    auto text = [&](std::span<const uint8_t> s) {
      std::string t = formatElements(f, s);
      if (!t.empty() && t.back() == '\n')
        t.pop_back();
      return t;
    };
    detail = " (element " + std::to_string(element) + ": got " + text(ea) + ", expected " +
             text(eb) + ")";
  }
  return std::to_string(differing) + " bytes of " + a.name + " differ from " + b.name +
         ", first at byte " + std::to_string(first) + ": " + std::to_string(a.bytes[first]) +
         " != " + std::to_string(b.bytes[first]) + detail;
}

double normalized(Component c, const uint8_t *p) {
  double max = std::ldexp(1.0, c.bits) - 1;
  switch (c.kind) {
  case NumberKind::Unorm:
    return double(readInteger(c, p)) / max;
  case NumberKind::Srgb: {
    double v = double(readInteger(c, p)) / max;
    return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
  }
  case NumberKind::Snorm: {
    double m = std::ldexp(1.0, c.bits - 1) - 1;
    return std::max(-1.0, double(static_cast<int64_t>(readInteger(c, p))) / m);
  }
  case NumberKind::Int:
    return double(static_cast<int64_t>(readInteger(c, p)));
  case NumberKind::Uint:
    return double(readInteger(c, p));
  default:
    return readFloat(c, p);
  }
}

std::optional<std::string> checkRgba(const ScriptBuffer &b, const Command &cmd) {
  if (!b.format)
    return "image " + b.name + " has no format";
  const BufferFormat &f = *b.format;
  if (uint64_t(cmd.x) + cmd.width > b.width || uint64_t(cmd.y) + cmd.height > b.height)
    return "the probed rectangle is out of the image's scope";
  unsigned channels = cmd.hasAlpha ? 4 : 3;
  double tol[4] = {0.002, 0.002, 0.002, 0.002};
  bool pct[4] = {false, false, false, false};
  if (cmd.tolerances.size() == 4) {
    for (int i = 0; i < 4; ++i) {
      tol[i] = cmd.tolerances[i].value;
      pct[i] = cmd.tolerances[i].percent;
    }
  } else if (!cmd.tolerances.empty()) {
    for (int i = 0; i < 4; ++i) {
      tol[i] = cmd.tolerances[0].value;
      pct[i] = cmd.tolerances[0].percent;
    }
  }
  size_t failures = 0;
  std::string first;
  for (uint32_t y = cmd.y; y < cmd.y + cmd.height; ++y)
    for (uint32_t x = cmd.x; x < cmd.x + cmd.width; ++x) {
      size_t base = (size_t(y) * b.width + x) * f.stride;
      size_t offset = base;
      double actual[4] = {0, 0, 0, 0};
      unsigned ci = 0;
      for (const Segment &s : f.segments) {
        if (!s.padding && ci < 4 && offset + s.component.bits / 8 <= b.bytes.size())
          actual[ci++] = normalized(s.component, b.bytes.data() + offset);
        offset += s.component.bits / 8;
      }
      bool ok = true;
      for (unsigned c = 0; c < channels; ++c) {
        double e = cmd.values[c].asDouble() / 255.0;
        double limit = pct[c] ? tol[c] / 100.0 * std::fabs(e) : tol[c];
        if (!(std::fabs(actual[c] - e) <= limit))
          ok = false;
      }
      if (!ok && failures++ == 0) {
        first = "texel (" + std::to_string(x) + ", " + std::to_string(y) + "): got";
        for (unsigned c = 0; c < channels; ++c)
          first += " " + number(actual[c] * 255.0);
        first += ", expected";
        for (unsigned c = 0; c < channels; ++c)
          first += " " + number(cmd.values[c].asDouble());
      }
    }
  if (failures == 0)
    return std::nullopt;
  return b.name + " " + first + " (" + std::to_string(failures) + " texels differ)";
}

} // namespace

std::optional<std::string> checkExpectation(const Script &script, const Command &cmd) {
  const ScriptBuffer &b = script.buffers[cmd.buffer];
  switch (cmd.kind) {
  case Command::Kind::Expect:
    return checkValues(b, cmd);
  case Command::Kind::ExpectBuffer:
    return checkBuffers(b, script.buffers[cmd.otherBuffer]);
  case Command::Kind::ExpectRgba:
    return checkRgba(b, cmd);
  default:
    return std::nullopt;
  }
}

} // namespace spire::run
