#include "spire/binary/Words.h"

#include <bit>
#include <cstring>

namespace spire::binary {

namespace {

uint32_t byteSwap(uint32_t v) { return __builtin_bswap32(v); }

uint32_t loadLittle(const uint8_t *p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

} // namespace

Expected<WordStream> wordsFromBytes(std::span<const uint8_t> bytes) {
  if (bytes.size() % 4 != 0)
    return makeError(Location{}, "module size " + std::to_string(bytes.size()) +
                                     " bytes is not a multiple of 4");
  if (bytes.size() < kHeaderWords * 4)
    return makeError(Location{}, "module has " + std::to_string(bytes.size() / 4) +
                                     " words, fewer than the 5 of a header");
  WordStream out;
  uint32_t first = loadLittle(bytes.data());
  if (first == kMagic) {
    out.endianness = Endianness::Little;
  } else if (byteSwap(first) == kMagic) {
    out.endianness = Endianness::Big;
  } else {
    char buf[64];
    std::snprintf(buf, sizeof buf, "invalid magic number 0x%08x", first);
    return makeError(Location::binary(0, 0), buf);
  }
  const size_t n = bytes.size() / 4;
  const bool swap =
      (out.endianness == Endianness::Little) != (std::endian::native == std::endian::little);
  out.words.resize(n);
  std::memcpy(out.words.data(), bytes.data(), n * 4);
  if (swap)
    for (uint32_t &w : out.words)
      w = byteSwap(w);
  return out;
}

std::vector<uint8_t> bytesFromWords(std::span<const uint32_t> words, Endianness order) {
  std::vector<uint8_t> out;
  out.reserve(words.size() * 4);
  bool swap = (order == Endianness::Little) != (std::endian::native == std::endian::little);
  if (!swap) {
    const uint8_t *p = reinterpret_cast<const uint8_t *>(words.data());
    out.insert(out.end(), p, p + words.size() * 4);
  } else {
    for (uint32_t w : words) {
      uint32_t s = byteSwap(w);
      const uint8_t *b = reinterpret_cast<const uint8_t *>(&s);
      out.insert(out.end(), b, b + 4);
    }
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
