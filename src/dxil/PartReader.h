// A bounds-checked little-endian view of one container part's bytes: every read is checked
// against the part's size, and errors name the part and the byte's offset in the file.
#pragma once

#include "spire/dxil/Container.h"

#include <cstring>
#include <optional>
#include <string>
#include <string_view>

namespace spire::dxil::detail {

class PartReader {
public:
  explicit PartReader(const ContainerPart &part)
      : PartReader(part.fourcc.str(), part.data, part.dataOffset()) {}
  /// Bytes that lie `fileOffset` bytes into the file, inside the part named `name`.
  PartReader(std::string name, std::span<const uint8_t> data, uint64_t fileOffset)
      : name_(std::move(name)), data_(data), base_(fileOffset) {}

  const std::string &name() const { return name_; }
  size_t size() const { return data_.size(); }
  std::span<const uint8_t> bytes() const { return data_; }
  uint64_t fileOffset(uint64_t at) const { return base_ + at; }

  /// An error at byte `at` of the part.
  Diagnostic error(uint64_t at, std::string message) const {
    return makeError(Location::container(name_, base_ + at), std::move(message));
  }

  /// Whether `count` bytes at `at` lie inside the part.
  bool fits(uint64_t at, uint64_t count) const {
    return at <= data_.size() && count <= data_.size() - at;
  }
  /// Nothing when `count` bytes at `at` lie inside the part, else an error that says what was
  /// to be read there.
  std::optional<Diagnostic> require(uint64_t at, uint64_t count, std::string_view what) const {
    if (fits(at, count))
      return std::nullopt;
    return error(at, std::string(what) + " (" + std::to_string(count) + " bytes at offset " +
                         std::to_string(at) + ") runs past the end of the part's " +
                         std::to_string(data_.size()) + " bytes");
  }
  /// `count` records of `size` bytes at `at`, checked without overflow.
  std::optional<Diagnostic> requireArray(uint64_t at, uint64_t count, uint64_t size,
                                         std::string_view what) const {
    if (size != 0 && count > (data_.size() + size - 1) / size)
      return error(at, std::string(what) + " (" + std::to_string(count) + " records of " +
                           std::to_string(size) + " bytes) is larger than the part's " +
                           std::to_string(data_.size()) + " bytes");
    return require(at, count * size, what);
  }

  // Loads: callers check the range first; a load outside the part reads zero rather than past it.
  uint8_t u8(uint64_t at) const { return fits(at, 1) ? data_[at] : 0; }
  uint16_t u16(uint64_t at) const { return load<uint16_t>(at); }
  uint32_t u32(uint64_t at) const { return load<uint32_t>(at); }
  uint64_t u64(uint64_t at) const { return load<uint64_t>(at); }
  float f32(uint64_t at) const { return load<float>(at); }

  /// The NUL-terminated string that starts at `at`, or an error naming `what`.
  Expected<std::string_view> cstring(uint64_t at, std::string_view what) const {
    if (at >= data_.size())
      return error(at, std::string(what) + " starts at offset " + std::to_string(at) +
                           ", outside the part's " + std::to_string(data_.size()) + " bytes");
    const void *nul = std::memchr(data_.data() + at, 0, data_.size() - at);
    if (!nul)
      return error(at, std::string(what) + " has no terminating NUL inside the part");
    size_t n = static_cast<const uint8_t *>(nul) - (data_.data() + at);
    return std::string_view(reinterpret_cast<const char *>(data_.data() + at), n);
  }

  /// The bytes [at, at + count): the caller checked the range.
  std::span<const uint8_t> slice(uint64_t at, uint64_t count) const {
    return fits(at, count) ? data_.subspan(at, count) : std::span<const uint8_t>();
  }
  /// A reader of the bytes [at, at + count) (checked by the caller), with the same name.
  PartReader sub(uint64_t at, uint64_t count) const {
    return PartReader(name_, slice(at, count), base_ + at);
  }

private:
  template <class T> T load(uint64_t at) const {
    T v{};
    if (fits(at, sizeof(T)))
      std::memcpy(&v, data_.data() + at, sizeof(T)); // the container is little-endian, as is
                                                     // every host spire builds for
    return v;
  }

  std::string name_;
  std::span<const uint8_t> data_;
  uint64_t base_ = 0;
};

/// How much a part's records may resolve to. Records can share what they refer to (strings of a
/// table, index arrays, raw bytes), so what they resolve to could grow with the square of the
/// part's size, and so would whatever prints them; real parts resolve to less than their own size
/// (the corpus: at most 0.4 bytes of strings and 0.04 index entries per byte), and a part may
/// resolve to four times its size.
class ResolveBudget {
public:
  explicit ResolveBudget(uint64_t partSize) : left_(4 * partSize + 4096) {}
  /// Takes `amount` from the budget; false (taking nothing) when it does not hold that much.
  bool take(uint64_t amount) {
    if (amount > left_)
      return false;
    left_ -= amount;
    return true;
  }

private:
  uint64_t left_;
};

} // namespace spire::dxil::detail
