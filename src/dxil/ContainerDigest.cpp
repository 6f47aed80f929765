#include "spire/dxil/ContainerDigest.h"

#include <algorithm>
#include <cstring>

namespace spire::dxil {

namespace {

constexpr size_t kDigestEnd = 20; // the digest field ends 20 bytes into the header

/// MD5's 64 additive constants: the integer part of |sin(i + 1)| * 2^32 (RFC 1321, 3.4).
constexpr uint32_t kSine[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};

/// The rotation of each step, by round and step within the round modulo 4.
constexpr int kShift[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};

uint32_t rotl(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

/// One application of MD5's compression function to a 64-byte block.
void compress(std::array<uint32_t, 4> &state, const uint8_t *block) {
  uint32_t m[16];
  for (int i = 0; i < 16; ++i)
    m[i] = uint32_t(block[4 * i]) | uint32_t(block[4 * i + 1]) << 8 |
           uint32_t(block[4 * i + 2]) << 16 | uint32_t(block[4 * i + 3]) << 24;
  uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  auto step = [&](uint32_t f, int i, int word, int shift) {
    uint32_t sum = a + f + kSine[i] + m[word];
    a = d;
    d = c;
    c = b;
    b = b + rotl(sum, shift);
  };
  for (int i = 0; i < 16; ++i)
    step((b & c) | (~b & d), i, i, kShift[0][i & 3]);
  for (int i = 16; i < 32; ++i)
    step((d & b) | (~d & c), i, (5 * i + 1) & 15, kShift[1][i & 3]);
  for (int i = 32; i < 48; ++i)
    step(b ^ c ^ d, i, (3 * i + 5) & 15, kShift[2][i & 3]);
  for (int i = 48; i < 64; ++i)
    step(c ^ (b | ~d), i, (7 * i) & 15, kShift[3][i & 3]);
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
  size_t size = std::min<size_t>(container.declaredSize, container.bytes.size());
  return classifyDigest(container.digest, computeContainerDigest(container.bytes.first(size)));
}

DigestStatus classifyDigest(const Digest &stored, const Digest &computed) {
  if (std::all_of(stored.begin(), stored.end(), [](uint8_t b) { return b == 0; }))
    return DigestStatus::Unsigned;
  return stored == computed ? DigestStatus::Signed : DigestStatus::Corrupt;
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
