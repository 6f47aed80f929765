#include "JsonLine.h"

#include <cmath>
#include <cstdio>

namespace spire::bench {

std::string jsonQuote(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      out += buf;
    } else {
      out += c; // UTF-8 bytes pass through; invalid sequences are the caller's input as given
    }
  }
  return out + "\"";
}

void JsonLine::addKey(std::string_view key) {
  if (!body_.empty())
    body_ += ", ";
  body_ += jsonQuote(key);
  body_ += ": ";
}

JsonLine &JsonLine::addString(std::string_view key, std::string_view value) {
  addKey(key);
  body_ += jsonQuote(value);
  return *this;
}

JsonLine &JsonLine::addNumber(std::string_view key, double value) {
  addKey(key);
  if (!std::isfinite(value)) {
    body_ += "null";
    return *this;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", value);
  body_ += buf;
  return *this;
}

JsonLine &JsonLine::addInteger(std::string_view key, uint64_t value) {
  addKey(key);
  body_ += std::to_string(value);
  return *this;
}

JsonLine &JsonLine::addBool(std::string_view key, bool value) {
  addKey(key);
  body_ += value ? "true" : "false";
  return *this;
}

} // namespace spire::bench
