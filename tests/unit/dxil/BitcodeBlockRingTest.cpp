// The memos' ring of blocks (dxil/PerThread.h): a body finds the block remembered with its
// shape (abbreviation width and size) and that the caller accepts, the first such slot first;
// bodies whose 32-bit tags agree but whose shapes differ find nothing; the oldest slot goes
// first.
#include "dxil/PerThread.h"
#include "dxil/ReaderSupport.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace spire::dxil::detail {
namespace {

struct Block {
  int value = -1;
};

BitstreamReader::BlockBody bodyOf(unsigned width, const std::vector<uint8_t> &bytes, size_t size) {
  return {width, std::span<const uint8_t>(bytes.data(), size)};
}

template <unsigned Slots> void findsWhatWasInserted() {
  SCOPED_TRACE(Slots);
  BlockRing<Block, Slots> ring;
  std::vector<uint8_t> bytes(4 * Slots + 8);
  auto any = [](const Block &) { return true; };
  EXPECT_EQ(ring.find(bodyOf(3, bytes, 4), any), nullptr);
  for (unsigned k = 0; k < Slots; ++k)
    ring.insert(bodyOf(3, bytes, 4 * (k + 1))).value = int(k);
  for (unsigned k = 0; k < Slots; ++k) {
    const Block *b = ring.find(bodyOf(3, bytes, 4 * (k + 1)), any);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->value, int(k));
    EXPECT_EQ(ring.find(bodyOf(4, bytes, 4 * (k + 1)), any), nullptr); // another width
  }
  EXPECT_EQ(ring.find(bodyOf(3, bytes, 4 * Slots + 8), any), nullptr);
  // A second block of the same shape: the first slot's comes first, the other when the first
  // is refused.
  ring.insert(bodyOf(3, bytes, 8)).value = 100; // replaces the oldest (slot 0, size 4)
  EXPECT_EQ(ring.find(bodyOf(3, bytes, 4), any), nullptr);
  EXPECT_EQ(ring.find(bodyOf(3, bytes, 8), any)->value, 100);
  const Block *other =
      ring.find(bodyOf(3, bytes, 8), [](const Block &b) { return b.value != 100; });
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(other->value, 1);
  EXPECT_EQ(ring.find(bodyOf(3, bytes, 8), [](const Block &) { return false; }), nullptr);
}

TEST(BitcodeBlockRing, FindsWhatWasInserted) {
  findsWhatWasInserted<4>();
  findsWhatWasInserted<8>();
  findsWhatWasInserted<16>();
  findsWhatWasInserted<32>();
}

template <unsigned Slots> void sameTagOtherShape() {
  SCOPED_TRACE(Slots);
  // Width 3 and 0x100 bytes, width 2 and 0x01000100 bytes: the same tag (the shape's halves
  // xor'ed), not the same shape.
  std::vector<uint8_t> bytes(0x01000100);
  BlockRing<Block, Slots> ring;
  auto any = [](const Block &) { return true; };
  ring.insert(bodyOf(3, bytes, 0x100)).value = 1;
  EXPECT_EQ(ring.find(bodyOf(2, bytes, 0x01000100), any), nullptr);
  ring.insert(bodyOf(2, bytes, 0x01000100)).value = 2;
  EXPECT_EQ(ring.find(bodyOf(2, bytes, 0x01000100), any)->value, 2);
  EXPECT_EQ(ring.find(bodyOf(3, bytes, 0x100), any)->value, 1);
}

TEST(BitcodeBlockRing, SameTagOtherShape) {
  sameTagOtherShape<8>();
  sameTagOtherShape<16>();
  sameTagOtherShape<32>();
}

TEST(BitcodeBlockRing, BodySampleGate) {
  // The memos compare bodySample() before a slot's bytes: equal bodies give equal samples,
  // bodies differing in the sampled middle word or the word before the last eight bytes give
  // different ones (elsewhere the full compare tells them apart), and a body under 16 bytes
  // is sampled by its size alone (nothing read past it).
  std::vector<uint8_t> a(64), b(64);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = b[i] = uint8_t(i * 7 + 1);
  auto sample = [](const std::vector<uint8_t> &v, size_t n) {
    return bodySample(std::span<const uint8_t>(v.data(), n));
  };
  for (size_t n : {16, 20, 32, 44, 64})
    EXPECT_EQ(sample(a, n), sample(b, n)) << n;
  b[32] ^= 1; // the middle word of 64 bytes (32..39)
  EXPECT_NE(sample(a, 64), sample(b, 64));
  b[32] ^= 1;
  b[50] ^= 0x80; // the word at 48..55, before the last eight
  EXPECT_NE(sample(a, 64), sample(b, 64));
  b[50] ^= 0x80;
  b[0] ^= 1; // not sampled: the full compare decides
  EXPECT_EQ(sample(a, 64), sample(b, 64));
  for (size_t n = 0; n < 16; ++n) {
    std::vector<uint8_t> small(n, 0xFF);
    EXPECT_EQ(sample(small, n), n);
  }
}

} // namespace
} // namespace spire::dxil::detail
