#include "spire/binary/Words.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <iterator>

namespace spire::binary {

namespace {

uint32_t byteSwap(uint32_t v) { return __builtin_bswap32(v); }

uint32_t loadLittle(const uint8_t *p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

// A random-access iterator over the words of a byte buffer (possibly unaligned), byte-swapped
// or not.
template <bool Swap> struct WordReader {
  using iterator_category = std::random_access_iterator_tag;
  using value_type = uint32_t;
  using difference_type = std::ptrdiff_t;
  using pointer = const uint32_t *;
  using reference = uint32_t;
  const uint8_t *p;
  uint32_t operator*() const {
    uint32_t w;
    std::memcpy(&w, p, 4);
    return Swap ? byteSwap(w) : w;
  }
  uint32_t operator[](difference_type i) const { return *(*this + i); }
  WordReader &operator++() {
    p += 4;
    return *this;
  }
  WordReader operator++(int) {
    WordReader t = *this;
    p += 4;
    return t;
  }
  WordReader &operator--() {
    p -= 4;
    return *this;
  }
  WordReader &operator+=(difference_type i) {
    p += 4 * i;
    return *this;
  }
  WordReader operator+(difference_type i) const { return {p + 4 * i}; }
  WordReader operator-(difference_type i) const { return {p - 4 * i}; }
  difference_type operator-(const WordReader &o) const { return (p - o.p) / 4; }
  bool operator==(const WordReader &o) const { return p == o.p; }
  bool operator!=(const WordReader &o) const { return p != o.p; }
  bool operator<(const WordReader &o) const { return p < o.p; }
};

// Whether words in `order` are stored the other way round from the host's.
bool needsSwap(Endianness order) {
  return (order == Endianness::Little) != (std::endian::native == std::endian::little);
}

} // namespace

Expected<Endianness> byteOrderOf(std::span<const uint8_t> bytes) {
  if (bytes.size() % 4 != 0)
    return makeError(Location{}, "module size " + std::to_string(bytes.size()) +
                                     " bytes is not a multiple of 4");
  if (bytes.size() < kHeaderWords * 4)
    return makeError(Location{}, "module has " + std::to_string(bytes.size() / 4) +
                                     " words, fewer than the 5 of a header");
  const uint32_t first = loadLittle(bytes.data());
  if (first == kMagic)
    return Endianness::Little;
  if (byteSwap(first) == kMagic)
    return Endianness::Big;
  char buf[64];
  std::snprintf(buf, sizeof buf, "invalid magic number 0x%08x", first);
  return makeError(Location::binary(0, 0), buf);
}

void copyWords(std::span<const uint8_t> bytes, Endianness order, uint32_t *out) {
  const size_t n = bytes.size() / 4;
  if (!needsSwap(order)) {
    if (n != 0)
      std::memcpy(out, bytes.data(), n * 4);
    return;
  }
  std::copy(WordReader<true>{bytes.data()}, WordReader<true>{bytes.data() + n * 4}, out);
}

Expected<WordStream> wordsFromBytes(std::span<const uint8_t> bytes) {
  Expected<Endianness> order = byteOrderOf(bytes);
  if (!order)
    return order.error();
  WordStream out;
  out.endianness = *order;
  const size_t n = bytes.size() / 4;
  // Constructed straight from the bytes: resize() would first zero the whole vector.
  if (needsSwap(out.endianness))
    out.words.assign(WordReader<true>{bytes.data()}, WordReader<true>{bytes.data() + n * 4});
  else
    out.words.assign(WordReader<false>{bytes.data()}, WordReader<false>{bytes.data() + n * 4});
  return out;
}

std::vector<uint8_t> bytesFromWords(std::span<const uint32_t> words, Endianness order) {
  const uint8_t *p = reinterpret_cast<const uint8_t *>(words.data());
  if (!needsSwap(order)) // one allocation and one memcpy
    return std::vector<uint8_t>(p, p + words.size() * 4);
  std::vector<uint8_t> out;
  out.reserve(words.size() * 4);
  for (uint32_t w : words) {
    uint32_t s = byteSwap(w);
    const uint8_t *b = reinterpret_cast<const uint8_t *>(&s);
    out.insert(out.end(), b, b + 4);
  }
  return out;
}

Header readHeader(std::span<const uint32_t> words) {
  Header h;
  h.magic = words[0];
  h.version = words[1];
  h.generator = words[2];
  h.bound = words[3];
  h.schema = words[4];
  return h;
}

} // namespace spire::binary
