#include "DxilTestContainers.h"

#include "spire/dxil/ContainerDigest.h"

#include <gtest/gtest.h>

namespace spire::dxil {
namespace {

/// 20 header bytes, then `n` bytes counting up: what the digest covers.
std::vector<uint8_t> counting(size_t n) {
  std::vector<uint8_t> bytes(20, 0xee); // the header's first 20 bytes do not count
  for (size_t i = 0; i < n; ++i)
    bytes.push_back(uint8_t(i));
  return bytes;
}

// Known answers: the tails of fewer than 56 bytes share the last block with the bit count, the
// longer ones take a block of their own. (The corpus test checks 218 digests DXC wrote.)
TEST(DxilDigest, MatchesKnownAnswersForEveryKindOfTail) {
  struct Case {
    size_t n;
    const char *digest;
  } cases[] = {{0, "140d60f6b775e2ba4e4abed401b2e9a1"},  {40, "d2785b2c32dfa912e36d586692dea72f"},
               {55, "842e55534ba93daa93e94bd5af9b0c03"}, {56, "00f9cc964ff2ec81959d4a3f092ce63f"},
               {60, "d98a05681c6f0439ba5a8dab5efe1853"}, {64, "f42eb06ca921c878e435e3b8d4f92b13"},
               {131, "7f0f4ab62b3246129951355f15916803"}};
  for (const Case &c : cases)
    EXPECT_EQ(digestHex(computeContainerDigest(counting(c.n))), c.digest) << c.n;
  EXPECT_EQ(digestHex(computeContainerDigest({})), cases[0].digest);
}

TEST(DxilDigest, ClassifiesSignedUnsignedAndCorruptContainers) {
  std::vector<uint8_t> bytes = test::buildContainer(test::everyPart(), true);
  Expected<Container> c = readContainer(bytes);
  ASSERT_TRUE(c);
  EXPECT_EQ(checkDigest(*c), DigestStatus::Signed);

  std::vector<uint8_t> corrupt = bytes;
  corrupt[100] ^= 1;
  c = readContainer(corrupt);
  ASSERT_TRUE(c);
  EXPECT_EQ(checkDigest(*c), DigestStatus::Corrupt);

  // Bytes past the declared size do not count.
  std::vector<uint8_t> longer = bytes;
  longer.push_back(7);
  c = readContainer(longer);
  ASSERT_TRUE(c);
  EXPECT_EQ(checkDigest(*c), DigestStatus::Signed);

  std::vector<uint8_t> unsignedBytes = test::buildContainer(test::everyPart(), false);
  c = readContainer(unsignedBytes); // the container views the bytes: keep them alive
  ASSERT_TRUE(c);
  EXPECT_EQ(checkDigest(*c), DigestStatus::Unsigned);
  EXPECT_STREQ(digestStatusName(DigestStatus::Corrupt), "corrupt");
}

} // namespace
} // namespace spire::dxil
