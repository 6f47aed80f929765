// Appends text to a string through a small buffer, so that the many short pieces of a
// disassembly (names, spaces, numbers) cost a store each instead of a string append each.
#pragma once

#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace spire::spvasm {

class TextWriter {
public:
  explicit TextWriter(std::string &out) : out_(out) {}
  TextWriter(const TextWriter &) = delete;
  TextWriter &operator=(const TextWriter &) = delete;
  ~TextWriter() { flush(); }

  [[gnu::always_inline]] void put(char c) {
    if (n_ == kSize)
      flush();
    buf_[n_++] = c;
  }
  [[gnu::always_inline]] void put(std::string_view s) {
    if (s.size() > kSize - n_) {
      flush();
      if (s.size() > kSize) {
        out_.append(s);
        return;
      }
    }
    std::memcpy(buf_ + n_, s.data(), s.size());
    n_ += s.size();
  }
  void fill(size_t count, char c) {
    for (; count > 0; --count)
      put(c);
  }
  void decimal(uint64_t value) {
    if (kSize - n_ < 20)
      flush();
    n_ = static_cast<size_t>(std::to_chars(buf_ + n_, buf_ + kSize, value).ptr - buf_);
  }
  [[gnu::noinline]] void flush() {
    out_.append(buf_, n_);
    n_ = 0;
  }

private:
  static constexpr size_t kSize = 8192;
  std::string &out_;
  size_t n_ = 0;
  char buf_[kSize];
};

} // namespace spire::spvasm
