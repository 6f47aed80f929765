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

} // namespace
} // namespace spire::dxil
