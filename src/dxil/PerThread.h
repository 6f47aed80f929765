// The readers' memos of what repeats across bitstreams (abbreviation definitions, BLOCKINFO,
// kind and attribute blocks) are kept per thread, made on a thread's first use of each; a memo
// of blocks knows one again by its body.
#pragma once

#include "spire/dxil/Bitstream.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

namespace spire::dxil::detail {

/// This thread's object of type T, made (value-initialized) the first time it is asked for.
template <typename T> T &perThread() {
  thread_local std::unique_ptr<T> object;
  if (!object) [[unlikely]]
    object = std::make_unique<T>();
  return *object;
}

/// A block's body as a memo keeps it: its abbreviation width and its bytes, which (with
/// BLOCKINFO's definitions, for abbreviated records) say all that the block holds.
struct RememberedBody {
  unsigned width = 0;
  std::vector<uint8_t> bytes;

  bool matches(const BitstreamReader::BlockBody &body) const {
    return width == body.abbrevWidth && bytes.size() == body.bytes.size() &&
           std::memcmp(bytes.data(), body.bytes.data(), bytes.size()) == 0;
  }
  void assign(const BitstreamReader::BlockBody &body) {
    width = body.abbrevWidth;
    bytes.assign(body.bytes.begin(), body.bytes.end());
  }
  /// A body's width and size in one word, which a memo compares with its slots' in one pass
  /// before any bytes (a slot never filled holds 0, which no body has).
  static uint64_t shape(const BitstreamReader::BlockBody &body) {
    return uint64_t(body.abbrevWidth) << 56 | body.bytes.size();
  }
};

/// The slots of a memo of blocks: the latest `Slots` blocks remembered, each beside its body's
/// shape (compared with a body's in one pass before any bytes), the oldest replaced first.
template <class Block, unsigned Slots> class BlockRing {
public:
  /// The first block whose body has `body`'s shape and that `accept` takes; null when none.
  template <class Accept>
  const Block *find(const BitstreamReader::BlockBody &body, Accept accept) const {
    const uint64_t key = RememberedBody::shape(body);
    for (unsigned slot = 0; slot < Slots; ++slot)
      if (shapes_[slot] == key) [[unlikely]] {
        if (accept(blocks_[slot]))
          return &blocks_[slot];
      }
    return nullptr;
  }
  /// The oldest slot (its storage kept), now `body`'s block's.
  Block &insert(const BitstreamReader::BlockBody &body) {
    const unsigned slot = next_;
    next_ = (next_ + 1) % Slots;
    shapes_[slot] = RememberedBody::shape(body);
    return blocks_[slot];
  }

private:
  Block blocks_[Slots];
  uint64_t shapes_[Slots] = {};
  unsigned next_ = 0;
};

} // namespace spire::dxil::detail
