// The narrow float formats to and from double: every bit pattern survives (NaN payloads
// included), rounding to nearest even, subnormals, overflow to infinity (or to NaN in E4M3,
// which has no infinity), and known values of each format.
#include "spire/support/SmallFloat.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace spire;

TEST(SmallFloat, EveryBitPatternRoundTrips) {
  for (SmallFloat f :
       {SmallFloat::Half, SmallFloat::BFloat16, SmallFloat::E4M3, SmallFloat::E5M2}) {
    const uint32_t count = uint32_t(1) << smallFloatWidth(f);
    for (uint32_t bits = 0; bits < count; ++bits)
      EXPECT_EQ(smallFloatFromDouble(f, smallFloatToDouble(f, bits)), bits)
          << "format " << int(f) << " bits 0x" << std::hex << bits;
  }
}

TEST(SmallFloat, Widths) {
  EXPECT_EQ(smallFloatWidth(SmallFloat::Half), 16u);
  EXPECT_EQ(smallFloatWidth(SmallFloat::BFloat16), 16u);
  EXPECT_EQ(smallFloatWidth(SmallFloat::E4M3), 8u);
  EXPECT_EQ(smallFloatWidth(SmallFloat::E5M2), 8u);
}

TEST(SmallFloat, BFloat16IsTheTopHalfOfAFloat) {
  EXPECT_EQ(smallFloatFromDouble(SmallFloat::BFloat16, 1.0), 0x3F80u);
  EXPECT_EQ(smallFloatFromDouble(SmallFloat::BFloat16, -2.0), 0xC000u);
  EXPECT_EQ(smallFloatFromDouble(SmallFloat::BFloat16, 1.5), 0x3FC0u);
  // 1 + 2^-8 is a tie between 1 and 1 + 2^-7: to the even mantissa.
  EXPECT_EQ(smallFloatFromDouble(SmallFloat::BFloat16, 1.0 + std::ldexp(1.0, -8)), 0x3F80u);
  EXPECT_EQ(smallFloatFromDouble(SmallFloat::BFloat16, 1.0 + 3 * std::ldexp(1.0, -8)), 0x3F82u);
  EXPECT_EQ(smallFloatFromDouble(SmallFloat::BFloat16, 1e39), 0x7F80u); // beyond its range
  EXPECT_EQ(smallFloatFromDouble(SmallFloat::BFloat16, std::ldexp(1.0, -133)), 0x0001u);
  EXPECT_EQ(smallFloatToDouble(SmallFloat::BFloat16, 0x7F7F), std::ldexp(255.0, 120));
}

TEST(SmallFloat, E4M3HasNoInfinity) {
  EXPECT_EQ(smallFloatFromDouble(SmallFloat::E4M3, 1.0), 0x38u);
  EXPECT_EQ(smallFloatToDouble(SmallFloat::E4M3, 0x7E), 448.0); // the largest
  EXPECT_EQ(smallFloatFromDouble(SmallFloat::E4M3, 448.0), 0x7Eu);
  EXPECT_EQ(smallFloatFromDouble(SmallFloat::E4M3, 464.0), 0x7Eu); // a tie: to even, down
  EXPECT_EQ(smallFloatFromDouble(SmallFloat::E4M3, 470.0), 0x7Fu); // overflow: NaN
  EXPECT_EQ(smallFloatFromDouble(SmallFloat::E4M3, -INFINITY), 0xFFu);
  EXPECT_TRUE(std::isnan(smallFloatToDouble(SmallFloat::E4M3, 0x7F)));
  EXPECT_EQ(smallFloatToDouble(SmallFloat::E4M3, 0x78), 256.0); // the all-ones exponent is finite
  EXPECT_EQ(smallFloatToDouble(SmallFloat::E4M3, 0x01), std::ldexp(1.0, -9)); // smallest subnormal
  EXPECT_EQ(smallFloatToDouble(SmallFloat::E4M3, 0x08), std::ldexp(1.0, -6)); // smallest normal
}

TEST(SmallFloat, E5M2IsIeeeLike) {
  EXPECT_EQ(smallFloatFromDouble(SmallFloat::E5M2, 1.0), 0x3Cu);
  EXPECT_EQ(smallFloatToDouble(SmallFloat::E5M2, 0x7B), 57344.0); // the largest
  EXPECT_EQ(smallFloatFromDouble(SmallFloat::E5M2, 1e6), 0x7Cu);  // infinity
  EXPECT_EQ(smallFloatToDouble(SmallFloat::E5M2, 0xFC), -INFINITY);
  EXPECT_TRUE(std::isnan(smallFloatToDouble(SmallFloat::E5M2, 0x7E)));
  EXPECT_EQ(smallFloatToDouble(SmallFloat::E5M2, 0x01), std::ldexp(1.0, -16));
  EXPECT_EQ(smallFloatFromDouble(SmallFloat::E5M2, std::nan("")), 0x7Eu); // the quiet NaN
}
