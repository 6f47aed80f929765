// A minimal LLVM bitstream writer for tests: fields, blocks with their length word, abbreviation
// definitions and records, so tests can build exact (and exactly broken) bit patterns.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <utility>
#include <vector>

namespace spire::test {

class BitWriter {
public:
  void fixed(uint64_t value, unsigned width) {
    for (unsigned i = 0; i < width; ++i) {
      if (bit_ % 8 == 0)
        bytes_.push_back(0);
      if ((value >> i) & 1)
        bytes_.back() |= uint8_t(1u << (bit_ % 8));
      ++bit_;
    }
  }
  void vbr(uint64_t value, unsigned width) {
    uint64_t hi = uint64_t(1) << (width - 1);
    while (value >= hi) {
      fixed((value & (hi - 1)) | hi, width);
      value >>= width - 1;
    }
    fixed(value, width);
  }
  void align32() {
    while (bit_ % 32)
      fixed(0, 1);
  }
  /// ENTER_SUBBLOCK with a length word patched by endBlock().
  void enterBlock(uint32_t id, unsigned newWidth) {
    fixed(1, width_);
    vbr(id, 8);
    vbr(newWidth, 4);
    align32();
    lengthAt_.push_back(bytes_.size());
    widths_.push_back(width_);
    fixed(0, 32);
    width_ = newWidth;
  }
  void endBlock() {
    fixed(0, width_);
    align32();
    size_t at = lengthAt_.back();
    lengthAt_.pop_back();
    uint32_t words = uint32_t((bytes_.size() - at - 4) / 4);
    for (int i = 0; i < 4; ++i)
      bytes_[at + i] = uint8_t(words >> (8 * i));
    width_ = widths_.back();
    widths_.pop_back();
  }
  /// An UNABBREV_RECORD.
  void record(uint32_t code, std::initializer_list<uint64_t> ops) {
    record(code, std::vector<uint64_t>(ops));
  }
  void record(uint32_t code, const std::vector<uint64_t> &ops) {
    fixed(3, width_);
    vbr(code, 6);
    vbr(ops.size(), 6);
    for (uint64_t op : ops)
      vbr(op, 6);
  }
  /// DEFINE_ABBREV: pairs of (-1, literal value) or (encoding, width), encoding 1 fixed,
  /// 2 vbr, 3 array, 4 char6, 5 blob.
  void defineAbbrev(std::initializer_list<std::pair<int, uint64_t>> ops) {
    fixed(2, width_);
    vbr(ops.size(), 5);
    for (auto [enc, v] : ops) {
      if (enc < 0) {
        fixed(1, 1);
        vbr(v, 8);
      } else {
        fixed(0, 1);
        fixed(uint64_t(enc), 3);
        if (enc == 1 || enc == 2)
          vbr(v, 5);
      }
    }
  }
  /// A record [code, ops..., blob] with a fresh abbreviation (literal code, vbr6 ops, blob);
  /// `abbrevId` is the id the block gives it (4 for the block's first).
  void blobRecord(uint32_t code, std::initializer_list<uint64_t> ops, std::string_view blob,
                  uint32_t abbrevId = 4) {
    std::vector<std::pair<int, uint64_t>> def = {{-1, code}};
    for (size_t i = 0; i < ops.size(); ++i)
      def.push_back({2, 6});
    def.push_back({5, 0});
    fixed(2, width_);
    vbr(def.size(), 5);
    for (auto [enc, v] : def) {
      fixed(enc < 0 ? 1 : 0, 1);
      if (enc < 0)
        vbr(v, 8);
      else {
        fixed(uint64_t(enc), 3);
        if (enc == 2)
          vbr(v, 5);
      }
    }
    fixed(abbrevId, width_);
    for (uint64_t op : ops)
      vbr(op, 6);
    vbr(blob.size(), 6);
    align32();
    for (char c : blob)
      fixed(uint8_t(c), 8);
    align32();
  }
  unsigned width() const { return width_; }
  void setWidth(unsigned w) { width_ = w; }
  std::vector<uint8_t> &bytes() { return bytes_; }
  /// The stream with the 'BC' 0xC0DE magic in front, padded to a word.
  std::vector<uint8_t> bitcode() {
    align32();
    std::vector<uint8_t> out(4 + bytes_.size());
    const uint8_t magic[4] = {'B', 'C', 0xC0, 0xDE};
    std::copy(magic, magic + 4, out.begin());
    std::copy(bytes_.begin(), bytes_.end(), out.begin() + 4);
    return out;
  }

private:
  std::vector<uint8_t> bytes_;
  uint64_t bit_ = 0;
  unsigned width_ = 2;
  std::vector<size_t> lengthAt_;
  std::vector<unsigned> widths_;
};

} // namespace spire::test
