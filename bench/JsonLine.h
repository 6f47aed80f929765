// JsonLine: one JSON object on one line, the format spire_bench prints for bench/compare.py.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace spire::bench {

class JsonLine {
public:
  JsonLine &addString(std::string_view key, std::string_view value);
  JsonLine &addNumber(std::string_view key, double value);
  JsonLine &addInteger(std::string_view key, uint64_t value);
  JsonLine &addBool(std::string_view key, bool value);
  /// The object followed by a newline.
  std::string str() const { return "{" + body_ + "}\n"; }

private:
  void addKey(std::string_view key);
  std::string body_;
};

/// `text` as a JSON string literal, quotes included.
std::string jsonQuote(std::string_view text);

} // namespace spire::bench
