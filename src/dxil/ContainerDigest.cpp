#include "spire/dxil/ContainerDigest.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace spire::dxil {

namespace {

constexpr size_t kDigestEnd = 20; // the digest field ends 20 bytes into the header

/// MD5's 64 additive constants: the integer part of |sin(i + 1)| * 2^32 (RFC 1321, 3.4). Double
/// precision gives every one of them exactly.
const std::array<uint32_t, 64> &sineTable() {
  static const std::array<uint32_t, 64> table = [] {
    std::array<uint32_t, 64> t{};
    for (int i = 0; i < 64; ++i)
      t[i] = uint32_t(std::floor(std::fabs(std::sin(double(i + 1))) * 4294967296.0));
    return t;
  }();
  return table;
}

uint32_t rotl(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

/// One application of MD5's compression function to a 64-byte block.
void compress(std::array<uint32_t, 4> &state, const uint8_t *block) {
  static constexpr int kShift[4][4] = {
      {7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};
  const std::array<uint32_t, 64> &k = sineTable();
  uint32_t m[16];
  for (int i = 0; i < 16; ++i)
    m[i] = uint32_t(block[4 * i]) | uint32_t(block[4 * i + 1]) << 8 |
           uint32_t(block[4 * i + 2]) << 16 | uint32_t(block[4 * i + 3]) << 24;
  uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  for (int i = 0; i < 64; ++i) {
    int round = i / 16;
    uint32_t f;
    int word;
    switch (round) {
    case 0:
      f = (b & c) | (~b & d);
      word = i;
      break;
    case 1:
      f = (d & b) | (~d & c);
      word = (5 * i + 1) % 16;
      break;
    case 2:
      f = b ^ c ^ d;
      word = (3 * i + 5) % 16;
      break;
    default:
      f = c ^ (b | ~d);
      word = (7 * i) % 16;
      break;
    }
    uint32_t sum = a + f + k[i] + m[word];
    a = d;
    d = c;
    c = b;
    b = b + rotl(sum, kShift[round][i % 4]);
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
}

void put32(uint8_t *at, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    at[i] = uint8_t(v >> (8 * i));
}

} // namespace

Digest computeContainerDigest(std::span<const uint8_t> container) {
  std::span<const uint8_t> bytes =
      container.size() > kDigestEnd ? container.subspan(kDigestEnd) : std::span<const uint8_t>();
  std::array<uint32_t, 4> state = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};
  size_t whole = bytes.size() / 64 * 64;
  for (size_t at = 0; at < whole; at += 64)
    compress(state, bytes.data() + at);

  // DXC's last block: instead of MD5's padding and 64-bit length, the 32-bit bit count comes
  // first and (bits >> 2) | 1 last; a tail that leaves no room for both gets a block of its own.
  uint32_t bits = uint32_t(bytes.size() * 8);
  uint32_t closing = (bits >> 2) | 1u;
  size_t tail = bytes.size() - whole;
  uint8_t block[64] = {};
  if (tail >= 56) {
    std::memcpy(block, bytes.data() + whole, tail);
    block[tail] = 0x80;
    compress(state, block);
    std::memset(block, 0, sizeof block);
    put32(block, bits);
    put32(block + 60, closing);
    compress(state, block);
  } else {
    put32(block, bits);
    if (tail)
      std::memcpy(block + 4, bytes.data() + whole, tail);
    block[4 + tail] = 0x80;
    put32(block + 60, closing);
    compress(state, block);
  }
  Digest digest;
  for (int i = 0; i < 4; ++i)
    put32(digest.data() + 4 * i, state[i]);
  return digest;
}

DigestStatus checkDigest(const Container &container) {
  if (std::all_of(container.digest.begin(), container.digest.end(),
                  [](uint8_t b) { return b == 0; }))
    return DigestStatus::Unsigned;
  size_t size = std::min<size_t>(container.declaredSize, container.bytes.size());
  return computeContainerDigest(container.bytes.first(size)) == container.digest
             ? DigestStatus::Signed
             : DigestStatus::Corrupt;
}

const char *digestStatusName(DigestStatus status) {
  switch (status) {
  case DigestStatus::Signed:
    return "signed";
  case DigestStatus::Unsigned:
    return "unsigned";
  case DigestStatus::Corrupt:
    return "corrupt";
  }
  return "corrupt";
}

std::string digestHex(const Digest &digest) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s;
  s.reserve(32);
  for (uint8_t b : digest) {
    s += kHex[b >> 4];
    s += kHex[b & 15];
  }
  return s;
}

} // namespace spire::dxil
