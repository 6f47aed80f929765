// The readers' memos of what repeats across bitstreams (abbreviation definitions, BLOCKINFO,
// kind and attribute blocks) are kept per thread, made on a thread's first use of each; a memo
// of blocks knows one again by its body.
#pragma once

#include "spire/dxil/Bitstream.h"

#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
/// shape and a 32-bit tag of it (the tags compared with a body's four at a time before any
/// shape or bytes: most bodies asked about match none), the oldest replaced first.
template <class Block, unsigned Slots> class BlockRing {
  static_assert(Slots >= 1 && Slots <= 32, "the candidates are a 32-bit mask");

public:
  /// The first block whose body has `body`'s shape and that `accept` takes; null when none.
  template <class Accept>
  const Block *find(const BitstreamReader::BlockBody &body, Accept accept) const {
    const uint64_t key = RememberedBody::shape(body);
    if constexpr (Slots < 16) { // (a few slots: their shapes at once, the tags cost more)
      for (unsigned slot = 0; slot < Slots; ++slot)
        if (shapes_[slot] == key) [[unlikely]] {
          if (accept(blocks_[slot]))
            return &blocks_[slot];
        }
      return nullptr;
    }
    for (uint32_t c = candidates(tag(key)); c; c &= c - 1) {
      const unsigned slot = unsigned(std::countr_zero(c));
      if (shapes_[slot] == key && accept(blocks_[slot]))
        return &blocks_[slot];
    }
    return nullptr;
  }
  /// The oldest slot (its storage kept), now `body`'s block's.
  Block &insert(const BitstreamReader::BlockBody &body) {
    const unsigned slot = next_;
    next_ = (next_ + 1) % Slots;
    shapes_[slot] = RememberedBody::shape(body);
    tags_[slot] = tag(shapes_[slot]);
    return blocks_[slot];
  }

private:
  static uint32_t tag(uint64_t shape) { return uint32_t(shape) ^ uint32_t(shape >> 32); }
  /// Bit k: slot k's tag is `t` (its shape may still differ).
  uint32_t candidates(uint32_t t) const {
#if defined(__SSE2__)
    if constexpr (Slots % 4 == 0) {
      const __m128i key = _mm_set1_epi32(int(t));
      uint32_t mask = 0;
      for (unsigned i = 0; i < Slots; i += 4) {
        const __m128i eq =
            _mm_cmpeq_epi32(_mm_load_si128(reinterpret_cast<const __m128i *>(tags_ + i)), key);
        mask |= uint32_t(_mm_movemask_ps(_mm_castsi128_ps(eq))) << i;
      }
      return mask;
    }
#endif
    uint32_t mask = 0;
    for (unsigned i = 0; i < Slots; ++i)
      mask |= uint32_t(tags_[i] == t) << i;
    return mask;
  }

  Block blocks_[Slots];
  uint64_t shapes_[Slots] = {};
  alignas(16) uint32_t tags_[Slots] = {}; ///< tag(shapes_[k]) (a slot never filled: 0, 0)
  unsigned next_ = 0;
};

} // namespace spire::dxil::detail
