#include "spire/support/JsonWriter.h"

#include <cassert>
#include <charconv>
#include <cmath>

namespace spire {

namespace {

/// The length of the valid UTF-8 sequence that starts `s` (1-4), or 0 if it is not one.
size_t utf8Length(std::string_view s) {
  auto byte = [&](size_t i) { return uint8_t(s[i]); };
  auto continuation = [&](size_t i) { return i < s.size() && (byte(i) & 0xc0) == 0x80; };
  uint8_t b = byte(0);
  if (b < 0x80)
    return 1;
  if (b >= 0xc2 && b <= 0xdf)
    return continuation(1) ? 2 : 0;
  if (b >= 0xe0 && b <= 0xef) {
    if (!continuation(1) || !continuation(2))
      return 0;
    uint8_t b1 = byte(1);
    if ((b == 0xe0 && b1 < 0xa0) || (b == 0xed && b1 > 0x9f)) // overlong, surrogates
      return 0;
    return 3;
  }
  if (b >= 0xf0 && b <= 0xf4) {
    if (!continuation(1) || !continuation(2) || !continuation(3))
      return 0;
    uint8_t b1 = byte(1);
    if ((b == 0xf0 && b1 < 0x90) || (b == 0xf4 && b1 > 0x8f)) // overlong, past U+10FFFF
      return 0;
    return 4;
  }
  return 0;
}

} // namespace

void appendJsonString(std::string &out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = uint8_t(s[i]);
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\b':
      out += "\\b";
      break;
    case '\f':
      out += "\\f";
      break;
    default:
      if (c < 0x20) {
        out += "\\u00";
        out += kHex[c >> 4];
        out += kHex[c & 15];
      } else if (c < 0x80) {
        out += char(c);
      } else if (size_t n = utf8Length(s.substr(i))) {
        out.append(s.data() + i, n);
        i += n;
        continue;
      } else {
        out += "\\ufffd";
      }
      break;
    }
    ++i;
  }
  out += '"';
}

void JsonWriter::newline() {
  if (!indent_)
    return;
  out_ += '\n';
  out_.append(stack_.size() * size_t(indent_), ' ');
}

void JsonWriter::beforeValue() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (stack_.empty()) {
    assert(!wroteTop_ && "one top-level value");
    wroteTop_ = true;
    return;
  }
  assert(!stack_.back().object && "a member needs a key");
  if (!stack_.back().empty)
    out_ += ',';
  stack_.back().empty = false;
  newline();
}

JsonWriter &JsonWriter::key(std::string_view name) {
  assert(!stack_.empty() && stack_.back().object && !afterKey_);
  if (!stack_.back().empty)
    out_ += ',';
  stack_.back().empty = false;
  newline();
  appendJsonString(out_, name);
  out_ += indent_ ? ": " : ":";
  afterKey_ = true;
  return *this;
}

JsonWriter &JsonWriter::beginObject() {
  beforeValue();
  out_ += '{';
  stack_.push_back({true});
  return *this;
}

JsonWriter &JsonWriter::endObject() {
  assert(!stack_.empty() && stack_.back().object && !afterKey_);
  bool empty = stack_.back().empty;
  stack_.pop_back();
  if (!empty)
    newline();
  out_ += '}';
  return *this;
}

JsonWriter &JsonWriter::beginArray() {
  beforeValue();
  out_ += '[';
  stack_.push_back({false});
  return *this;
}

JsonWriter &JsonWriter::endArray() {
  assert(!stack_.empty() && !stack_.back().object);
  bool empty = stack_.back().empty;
  stack_.pop_back();
  if (!empty)
    newline();
  out_ += ']';
  return *this;
}

JsonWriter &JsonWriter::value(std::string_view s) {
  beforeValue();
  appendJsonString(out_, s);
  return *this;
}

JsonWriter &JsonWriter::value(bool b) {
  beforeValue();
  out_ += b ? "true" : "false";
  return *this;
}

JsonWriter &JsonWriter::value(int64_t n) {
  beforeValue();
  out_ += std::to_string(n);
  return *this;
}

JsonWriter &JsonWriter::value(uint64_t n) {
  beforeValue();
  out_ += std::to_string(n);
  return *this;
}

JsonWriter &JsonWriter::value(double d) {
  if (!std::isfinite(d))
    return null();
  beforeValue();
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);
  (void)ec;
  out_.append(buf, end);
  return *this;
}

JsonWriter &JsonWriter::null() {
  beforeValue();
  out_ += "null";
  return *this;
}

} // namespace spire
