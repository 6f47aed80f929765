// A small JSON writer: objects, arrays, strings (escaped, and valid UTF-8 whatever the input
// bytes), numbers, booleans and null, appended to a string, compact or indented.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace spire {

/// Appends `s` as a JSON string literal: quotes, backslashes and control characters escaped,
/// every byte that is not part of valid UTF-8 written as U+FFFD.
void appendJsonString(std::string &out, std::string_view s);

class JsonWriter {
public:
  /// `indent` spaces per level, each value on its own line; 0: everything on one line.
  explicit JsonWriter(std::string &out, int indent = 0) : out_(out), indent_(indent) {}

  JsonWriter &beginObject();
  JsonWriter &endObject();
  JsonWriter &beginArray();
  JsonWriter &endArray();
  /// The key of the next member of the enclosing object.
  JsonWriter &key(std::string_view name);

  JsonWriter &value(std::string_view s);
  JsonWriter &value(const char *s) { return value(std::string_view(s)); }
  JsonWriter &value(bool b);
  JsonWriter &value(int64_t n);
  JsonWriter &value(uint64_t n);
  JsonWriter &value(int n) { return value(int64_t(n)); }
  JsonWriter &value(unsigned n) { return value(uint64_t(n)); }
  /// A finite double as the shortest text that reads back as it; NaN and infinities as null.
  JsonWriter &value(double d);
  JsonWriter &null();

  /// key(name) followed by value(v).
  template <class T> JsonWriter &field(std::string_view name, const T &v) {
    key(name);
    return value(v);
  }

  /// Whether every object and array begun has ended.
  bool complete() const { return stack_.empty() && wroteTop_; }

private:
  void beforeValue();
  void newline();

  std::string &out_;
  int indent_;
  struct Level {
    bool object;
    bool empty = true;
  };
  std::vector<Level> stack_;
  bool afterKey_ = false;
  bool wroteTop_ = false;
};

} // namespace spire
