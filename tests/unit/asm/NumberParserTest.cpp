// The number syntax of spirv-as: integers read like a C++ stream reads them (checked here against
// std::istringstream itself), floats in decimal and hex-float notation (expected bits are what
// spirv-as 2023.1 writes).
#include "../../../src/asm/NumberParser.h"
#include "../../../src/asm/NumberLiteral.h"

#include <gtest/gtest.h>

#include <iomanip>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

using namespace spire::spvasm;

namespace {

// The rule spirv-as applies: what `istream >> setbase(0) >> value` reads, without failing and
// with the whole text consumed; an unsigned value written with a leading '-' must be 0.
template <class T> std::optional<T> streamRead(const std::string &s) {
  if (s.empty())
    return std::nullopt;
  std::istringstream in(s);
  in >> std::setbase(0);
  T value{};
  in >> value;
  if (in.bad() || in.fail() || !in.eof())
    return std::nullopt;
  if (std::is_unsigned_v<T> && s[0] == '-' && value != 0)
    return std::nullopt;
  return value;
}

// Every text of up to four bytes over an alphabet of digits, signs, base prefixes and blanks,
// then numbers around the limits.
std::vector<std::string> integerTexts() {
  const std::string alphabet = "0178afxX-+ \v";
  std::vector<std::string> texts = {""};
  for (size_t begin = 0, length = 0; length < 4; ++length) {
    size_t end = texts.size();
    for (size_t i = begin; i < end; ++i)
      for (char c : alphabet)
        texts.push_back(texts[i] + c);
    begin = end;
  }
  for (const char *s : {"4294967295",
                        "4294967296",
                        "-4294967295",
                        "-4294967296",
                        "0xffffffff",
                        "0x100000000",
                        "037777777777",
                        "040000000000",
                        "18446744073709551615",
                        "18446744073709551616",
                        "-18446744073709551615",
                        "9223372036854775807",
                        "9223372036854775808",
                        "-9223372036854775808",
                        "-9223372036854775809",
                        "0xFFFFFFFFFFFFFFFF",
                        "0x10000000000000000",
                        "01777777777777777777777",
                        "02000000000000000000000",
                        "000000000000000000000000000000000007",
                        "-0x8000000000000000",
                        "+0x7fffffffffffffff"})
    texts.push_back(s);
  return texts;
}

} // namespace

TEST(AsNumberParser, IntegersAsTheCppStreamReadsThem) {
  size_t accepted = 0;
  for (const std::string &s : integerTexts()) {
    SCOPED_TRACE("'" + s + "'");
    std::optional<uint64_t> u64 = streamRead<uint64_t>(s);
    std::optional<int64_t> i64 = streamRead<int64_t>(s);
    std::optional<uint32_t> u32 = streamRead<uint32_t>(s);
    if (!s.empty()) {
      EXPECT_EQ(readUnsigned64(s), u64);
      EXPECT_EQ(readSigned64(s), i64);
      EXPECT_EQ(readUnsigned32(s), u32);
    }
    accepted += u64.has_value();
  }
  // The alphabet makes both outcomes common.
  EXPECT_GT(accepted, 500u);
}

TEST(AsNumberParser, Floats) {
  struct Case {
    const char *text;
    FloatFormat format;
    std::optional<uint64_t> bits;
  };
  const Case cases[] = {
      {"1", FloatFormat::Single, 0x3f800000ull},
      {"-1.5", FloatFormat::Single, 0xbfc00000ull},
      {"+1.5", FloatFormat::Single, 0x3fc00000ull},
      {".5", FloatFormat::Single, 0x3f000000ull},
      {"5.", FloatFormat::Single, 0x40a00000ull},
      {"1e3", FloatFormat::Single, 0x447a0000ull},
      {"1E-3", FloatFormat::Single, 0x3a83126full},
      {"1.e5", FloatFormat::Single, 0x47c35000ull},
      {"0x1p0", FloatFormat::Single, 0x3f800000ull},
      {"0X1.8p+1", FloatFormat::Single, 0x40400000ull},
      {"-0x1.8p1", FloatFormat::Single, 0xc0400000ull},
      {"0x.8p0", FloatFormat::Single, 0x3f000000ull},
      {"0x1p", FloatFormat::Single, std::nullopt},
      {"0x1P0", FloatFormat::Single, std::nullopt},
      {"0x1.8", FloatFormat::Single, std::nullopt},
      {"0x1p+1x", FloatFormat::Single, std::nullopt},
      {"0x1p1-2", FloatFormat::Single, std::nullopt},
      {"0x1p+128", FloatFormat::Single, 0x7f800000ull},
      {"0x1.8p+128", FloatFormat::Single, 0x7fc00000ull},
      {"-0x1p+129", FloatFormat::Single, 0xff800000ull},
      {"0x1p-149", FloatFormat::Single, 0x00000001ull},
      {"0x1p-150", FloatFormat::Single, 0x00000000ull},
      {"0x1.fffffep-127", FloatFormat::Single, 0x007fffffull},
      {"0x1.000001p0", FloatFormat::Single, 0x3f800000ull},
      {"0x100000000p0", FloatFormat::Single, 0x4f800000ull},
      {"1e39", FloatFormat::Single, std::nullopt},
      {"1e-50", FloatFormat::Single, 0x00000000ull},
      {"-0", FloatFormat::Single, 0x80000000ull},
      {"inf", FloatFormat::Single, std::nullopt},
      {"nan", FloatFormat::Single, std::nullopt},
      {".", FloatFormat::Single, std::nullopt},
      {"e5", FloatFormat::Single, std::nullopt},
      {"1e", FloatFormat::Single, std::nullopt},
      {"--1", FloatFormat::Single, std::nullopt},
      {"-+1", FloatFormat::Single, std::nullopt},
      {"3.4028235e38", FloatFormat::Single, 0x7f7fffffull},
      {"3.4028236e38", FloatFormat::Single, std::nullopt},
      {"\v7", FloatFormat::Single, 0x40e00000ull},
      {"-\v7", FloatFormat::Single, 0xc0e00000ull},
      {"0x1p99999999999", FloatFormat::Single, 0x7f800000ull},
      {"0.1", FloatFormat::Double, 0x3fb999999999999aull},
      {"1e308", FloatFormat::Double, 0x7fe1ccf385ebc8a0ull},
      {"1e309", FloatFormat::Double, std::nullopt},
      {"4.9e-324", FloatFormat::Double, 0x0000000000000001ull},
      {"0x1p-1074", FloatFormat::Double, 0x0000000000000001ull},
      {"0x1p1024", FloatFormat::Double, 0x7ff0000000000000ull},
      {"0x1.8p1024", FloatFormat::Double, 0x7ff8000000000000ull},
      {"0x1.0000000000001p0", FloatFormat::Double, 0x3ff0000000000001ull},
      {"0x1.00000000000008p0", FloatFormat::Double, 0x3ff0000000000000ull},
      {"1", FloatFormat::Half, 0x00003c00ull},
      {"0.1", FloatFormat::Half, 0x00002e66ull},
      {"65504", FloatFormat::Half, 0x00007bffull},
      {"65519", FloatFormat::Half, 0x00007bffull},
      {"65520", FloatFormat::Half, 0x00007bffull},
      {"65536", FloatFormat::Half, std::nullopt},
      {"6e-8", FloatFormat::Half, 0x00000001ull},
      {"5.96e-8", FloatFormat::Half, 0x00000000ull},
      {"0x1p-24", FloatFormat::Half, 0x00000001ull},
      {"0x1p-25", FloatFormat::Half, 0x00000000ull},
      {"0x1.8p16", FloatFormat::Half, 0x00007e00ull},
      {"0x1.004p15", FloatFormat::Half, 0x00007801ull},
      {"0x1.ffep15", FloatFormat::Half, 0x00007bffull},
      {"-0", FloatFormat::Half, 0x00008000ull},
      {"-2", FloatFormat::Half, 0x0000c000ull},
  };
  for (const Case &c : cases)
    EXPECT_EQ(readFloatBits(c.text, c.format), c.bits) << "'" << c.text << "'";
}

TEST(AsNumberLiteral, WidthsSignsAndMessages) {
  auto words = [](std::string_view text, LiteralType type) {
    LiteralWords out{};
    std::string error;
    EXPECT_TRUE(encodeNumericLiteral(text, type, out, error)) << error;
    return std::vector<uint32_t>(out.words, out.words + out.count);
  };
  using K = LiteralType::Kind;
  EXPECT_EQ(words("-1", {K::Signed, 16}), std::vector<uint32_t>{0xffffffffu});
  EXPECT_EQ(words("0xFFFF", {K::Signed, 16}), std::vector<uint32_t>{0xffffffffu});
  EXPECT_EQ(words("0xFFFF", {K::Unsigned, 16}), std::vector<uint32_t>{0x0000ffffu});
  EXPECT_EQ(words("-0", {K::Signed, 8}), std::vector<uint32_t>{0u});
  EXPECT_EQ(words("-1", {K::Signed, 48}), (std::vector<uint32_t>{0xffffffffu, 0xffffffffu}));
  EXPECT_EQ(words("0x8000000000000000", {K::Unsigned, 64}),
            (std::vector<uint32_t>{0u, 0x80000000u}));
  EXPECT_EQ(words("-2", {K::Float, 16}), std::vector<uint32_t>{0x0000c000u});
  EXPECT_EQ(words("0.1", {K::Float, 64}), (std::vector<uint32_t>{0x9999999au, 0x3fb99999u}));

  auto error = [](std::string_view text, LiteralType type) {
    LiteralWords out{};
    std::string message;
    EXPECT_FALSE(encodeNumericLiteral(text, type, out, message));
    return message;
  };
  EXPECT_EQ(error("-1", {K::Unsigned, 32}), "negative number '-1' for a 32-bit unsigned literal");
  EXPECT_EQ(error("65535", {K::Signed, 16}),
            "integer 65535 does not fit in a 16-bit signed literal");
  EXPECT_EQ(error("0x10000", {K::Unsigned, 16}),
            "integer 0x10000 does not fit in a 16-bit unsigned literal");
  EXPECT_EQ(error("-2147483649", {K::Signed, 32}),
            "integer -2147483649 does not fit in a 32-bit signed literal");
  EXPECT_EQ(error("-9223372036854775809", {K::Signed, 64}),
            "'-9223372036854775809' is not a signed integer literal (or is below -2^63)");
  EXPECT_EQ(error("1.5", {K::Unsigned, 32}),
            "'1.5' is not an integer literal (decimal, 0x hex or 0-prefixed octal, below 2^64)");
  EXPECT_EQ(error("1", {K::Unsigned, 65}),
            "65-bit integer literals are not supported (at most 64 bits)");
  EXPECT_EQ(error("1", {K::Float, 8}),
            "8-bit float literals are not supported (16, 32 and 64 bits are)");
  EXPECT_EQ(error("1e400", {K::Float, 64}),
            "'1e400' is not a 64-bit float literal (decimal or hex float, in range)");
}
