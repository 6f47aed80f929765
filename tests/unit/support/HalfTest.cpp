// Half precision to and from double: rounding to nearest even, subnormals, overflow, specials.
#include "spire/support/Half.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace spire;

TEST(Half, ExactValuesRoundTrip) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    uint16_t h = static_cast<uint16_t>(bits);
    bool nan = ((h >> 10) & 0x1F) == 31 && (h & 0x3FF);
    if (nan)
      continue;
    EXPECT_EQ(halfFromDouble(halfToDouble(h)), h) << std::hex << bits;
  }
}

TEST(Half, RoundsToNearestEven) {
  EXPECT_EQ(halfFromDouble(1.0), 0x3C00);
  EXPECT_EQ(halfFromDouble(65504.0), 0x7BFF);              // the largest half
  EXPECT_EQ(halfFromDouble(65519.0), 0x7BFF);              // below the halfway point to 65536
  EXPECT_EQ(halfFromDouble(65520.0), 0x7C00);              // halfway: rounds (to even) to infinity
  EXPECT_EQ(halfFromDouble(1.0 + 1.0 / 2048), 0x3C00);     // a tie: to the even mantissa
  EXPECT_EQ(halfFromDouble(1.0 + 3.0 / 2048), 0x3C02);     // a tie: to the even mantissa, up
  EXPECT_EQ(halfFromDouble(std::ldexp(1.0, -24)), 0x0001); // the smallest subnormal
  EXPECT_EQ(halfFromDouble(std::ldexp(1.0, -26)), 0x0000); // below half of it: zero
  EXPECT_EQ(halfFromDouble(std::ldexp(1023.5, -24)), 0x0400); // rounds up into the normals
  EXPECT_EQ(halfFromDouble(-0.0), 0x8000);
  EXPECT_EQ(halfFromDouble(-INFINITY), 0xFC00);
  EXPECT_EQ(halfFromDouble(1e10), 0x7C00);
  EXPECT_EQ(halfFromDouble(std::nan("")) & 0x7E00, 0x7E00);
  EXPECT_TRUE(std::isnan(halfToDouble(0x7E00)));
  EXPECT_EQ(halfToDouble(0xC000), -2.0);
}
