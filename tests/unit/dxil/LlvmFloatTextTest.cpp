// Floating-point constant text as llvm-dis-14 writes it (src/dxil/LlvmFloatText.h): six digits
// where they read back to the same double, the bits in hex where they do not.
#include "dxil/LlvmFloatText.h"

#include <gtest/gtest.h>

#include <string>

namespace spire::dxil {
namespace {

std::string doubleText(uint64_t bits) {
  std::string s;
  appendLlvmDouble(s, bits);
  return s;
}

std::string floatText(uint32_t bits) {
  std::string s;
  appendLlvmFloat(s, bits);
  return s;
}

TEST(DxilFloatText, DoublesThatReadBackPrintSixDigits) {
  EXPECT_EQ(doubleText(0x3FF0000000000000ull), "1.000000e+00");
  EXPECT_EQ(doubleText(0x3FB999999999999Aull), "1.000000e-01");
  EXPECT_EQ(doubleText(0x3FD3333333333333ull), "3.000000e-01");
  EXPECT_EQ(doubleText(0xC05EDD2F1A9FBE77ull), "-1.234560e+02");
  EXPECT_EQ(doubleText(0x3E112E0BE826D695ull), "1.000000e-09");
  EXPECT_EQ(doubleText(0x4415AF1D78B58C40ull), "1.000000e+20");
  EXPECT_EQ(doubleText(0x0000000000000001ull), "4.940660e-324"); // the least subnormal
  EXPECT_EQ(doubleText(0x8000000000000000ull), "-0.000000e+00");
}

TEST(DxilFloatText, DoublesThatDoNotReadBackPrintHex) {
  EXPECT_EQ(doubleText(0x7FEFFFFFFFFFFFFFull), "0x7FEFFFFFFFFFFFFF");
  EXPECT_EQ(doubleText(0x000FFFFFFFFFFFFFull), "0xFFFFFFFFFFFFF");
  EXPECT_EQ(doubleText(0x0010000000000000ull), "0x10000000000000");
  EXPECT_EQ(doubleText(0x7FF0000000000000ull), "0x7FF0000000000000");
}

TEST(DxilFloatText, FloatsPrintThroughDouble) {
  EXPECT_EQ(floatText(0x3F800000u), "1.000000e+00");
  EXPECT_EQ(floatText(0xBF000000u), "-5.000000e-01");
  EXPECT_EQ(floatText(0x3DCCCCCDu), "0x3FB99999A0000000");
  EXPECT_EQ(floatText(0x00000001u), "0x36A0000000000000");
  EXPECT_EQ(floatText(0x7F7FFFFFu), "0x47EFFFFFE0000000");
}

TEST(DxilFloatText, ValuesThatFitOneHundredTwentyEightBits) {
  // Exact binary fractions and integers: digits come from the 128-bit path.
  EXPECT_EQ(doubleText(0x3FD0000000000000ull), "2.500000e-01");
  EXPECT_EQ(doubleText(0x406FE00000000000ull), "2.550000e+02");
  EXPECT_EQ(doubleText(0x40EFFC0000000000ull), "6.550400e+04");
  EXPECT_EQ(floatText(0x3E800000u), "2.500000e-01");
  EXPECT_EQ(floatText(0x3FC00000u), "1.500000e+00");
  EXPECT_EQ(floatText(0x3F400000u), "7.500000e-01");
  EXPECT_EQ(floatText(0x44800000u), "1.024000e+03");
  EXPECT_EQ(floatText(0x3B000000u), "0x3F60000000000000"); // 2^-9 needs seven digits
  // Beyond 128 bits: the arbitrary-precision path.
  EXPECT_EQ(doubleText(0x3EE4F8B588E368F1ull), "1.000000e-05");
  EXPECT_EQ(doubleText(0x400921F9F01B866Eull), "3.141590e+00");
  EXPECT_EQ(doubleText(0x3FD5555555555555ull), "0x3FD5555555555555");
}

} // namespace
} // namespace spire::dxil
