#include "spire/binary/Literal.h"
#include "spire/binary/Words.h"

#include <gtest/gtest.h>

using namespace spire::binary;

TEST(Literal, StringTakesTerminatorAndPadding) {
  std::vector<uint32_t> w;
  appendString(w, "abc");
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0], 0x00636261u);
  w.clear();
  appendString(w, "abcd"); // a multiple of four needs a whole word of nul
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[1], 0u);
  w.clear();
  appendString(w, "");
  EXPECT_EQ(w, std::vector<uint32_t>{0u});
}

TEST(Literal, StringRoundTripsAndFindsTerminator) {
  for (std::string s : {"", "a", "ab", "abc", "abcd", "GLSL.std.450", "main\xc3\xa9"}) {
    std::vector<uint32_t> w;
    appendString(w, s);
    EXPECT_EQ(decodeString(w), s);
    ASSERT_TRUE(findStringLength(w).has_value());
    EXPECT_EQ(*findStringLength(w), s.size());
  }
  std::vector<uint32_t> noNul = {0x64636261u, 0x68676665u};
  EXPECT_FALSE(findStringLength(noNul).has_value());
}

TEST(Literal, SixtyFourBitValuesAreLowWordFirst) {
  std::vector<uint32_t> w = {0x89abcdefu, 0x01234567u};
  EXPECT_EQ(literalValue(w), 0x0123456789abcdefull);
}

TEST(Words, DetectsByteOrderFromMagic) {
  std::vector<uint8_t> little = {0x03, 0x02, 0x23, 0x07, 0, 6, 1, 0, 0, 0,
                                 0,    0,    1,    0,    0, 0, 0, 0, 0, 0};
  auto a = wordsFromBytes(little);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->endianness, Endianness::Little);
  EXPECT_EQ(a->words[1], 0x00010600u);
  std::vector<uint8_t> big = {0x07, 0x23, 0x02, 0x03, 0, 1, 6, 0, 0, 0,
                              0,    0,    0,    0,    0, 1, 0, 0, 0, 0};
  auto b = wordsFromBytes(big);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->endianness, Endianness::Big);
  EXPECT_EQ(b->words, a->words);
  EXPECT_EQ(bytesFromWords(b->words, Endianness::Big), big);
  EXPECT_EQ(bytesFromWords(a->words, Endianness::Little), little);
}

TEST(Words, RejectsBadSizesAndMagic) {
  std::vector<uint8_t> odd(21, 0);
  EXPECT_FALSE(wordsFromBytes(odd).ok());
  std::vector<uint8_t> tiny(16, 0);
  EXPECT_FALSE(wordsFromBytes(tiny).ok());
  std::vector<uint8_t> wrong(20, 0);
  auto r = wordsFromBytes(wrong);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("magic"), std::string::npos);
}

TEST(Literal, CanonicalEncodings) {
  std::vector<uint32_t> w;
  appendString(w, "patn");
  EXPECT_TRUE(isCanonicalString(w));
  w.back() = 0x72746500u; // "\0etr": bytes after the nul that are not 0
  EXPECT_FALSE(isCanonicalString(w));
  std::vector<uint32_t> ab;
  appendString(ab, "ab");
  EXPECT_TRUE(isCanonicalString(ab));
  ab[0] |= 0x01000000u;
  EXPECT_FALSE(isCanonicalString(ab));
  std::vector<uint32_t> extra = {0x00636261u, 0u}; // a whole word of padding too many
  EXPECT_FALSE(isCanonicalString(extra));

  uint32_t minus3 = 0xFFFFFFFDu;
  EXPECT_TRUE(isCanonicalNumber(std::span(&minus3, 1), true, 8));   // sign-extended -3
  EXPECT_FALSE(isCanonicalNumber(std::span(&minus3, 1), false, 8)); // unsigned: high bits set
  uint32_t v253 = 0xFDu;
  EXPECT_FALSE(isCanonicalNumber(std::span(&v253, 1), true, 8)); // -3 not sign-extended
  EXPECT_TRUE(isCanonicalNumber(std::span(&v253, 1), false, 8));
  uint32_t any = 0x89abcdefu;
  EXPECT_TRUE(isCanonicalNumber(std::span(&any, 1), false, 32));
  std::vector<uint32_t> w48 = {0u, 0xFFFF8000u};
  EXPECT_TRUE(isCanonicalNumber(w48, true, 48));
  EXPECT_FALSE(isCanonicalNumber(w48, false, 48));
  EXPECT_FALSE(isCanonicalNumber(std::span(&any, 1), false, 64)); // too few words
}
