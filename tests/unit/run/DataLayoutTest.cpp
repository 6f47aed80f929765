// Data types, their layouts in std430 and std140 as amber lays them out, and the encoding of
// values: float16 with amber's own rounding, integers truncated, matrices column by column.
#include "spire/run/DataType.h"
#include "spire/run/Value.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <vector>

namespace spire::run {
namespace {

uint32_t stride(std::string_view type, Layout layout = Layout::Std430) {
  auto t = parseAmberType(type);
  if (!t)
    t = parseFormatName(type);
  EXPECT_TRUE(t.has_value()) << type;
  return t ? layoutOf(*t, layout).stride : 0;
}

TEST(DataType, AmberTypeNames) {
  auto t = parseAmberType("mat3x2<float16>");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->columns, 3);
  EXPECT_EQ(t->rows, 2);
  EXPECT_EQ(t->scalar, (Component{NumberKind::Float, 16}));
  EXPECT_TRUE(parseAmberType("int8[]")->runtimeArray);
  EXPECT_EQ(parseAmberType("vec4<uint64>")->rows, 4);
  EXPECT_FALSE(parseAmberType("vec5<float>"));
  EXPECT_FALSE(parseAmberType("vec4<bool>"));
  EXPECT_FALSE(parseAmberType("mat1x2<float>"));
  EXPECT_FALSE(parseAmberType("R8G8B8A8_UNORM"));
}

TEST(DataType, FormatNamesAndTheirVkFormats) {
  auto f = parseFormatName("R8G8B8A8_UNORM");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->vkFormat, 37u);
  EXPECT_EQ(f->formatComponents.size(), 4u);
  EXPECT_EQ(parseFormatName("R32G32B32A32_SFLOAT")->vkFormat, 109u);
  EXPECT_EQ(parseFormatName("R64_UINT")->vkFormat, 110u);
  EXPECT_EQ(parseFormatName("B8G8R8A8_SRGB")->vkFormat, 50u);
  EXPECT_EQ(parseFormatName("R16G16_SFLOAT")->vkFormat, 83u);
  EXPECT_FALSE(parseFormatName("R8G16_UNORM"));
  EXPECT_FALSE(parseFormatName("R32_UNORM"));
  EXPECT_FALSE(parseFormatName("R8_BOGUS"));
  EXPECT_EQ(vkFormatOf(*parseAmberType("vec4<int32>")), 108u);
  EXPECT_EQ(vkFormatOf(*parseAmberType("float")), 100u);
  EXPECT_EQ(vkFormatOf(*parseAmberType("mat2x2<float>")), 0u);
  EXPECT_EQ(formatName(37), "R8G8B8A8_UNORM");
  EXPECT_EQ(formatName(100), "R32_SFLOAT");
  EXPECT_EQ(formatName(5000), "");
}

TEST(DataType, VkScriptDatumTypes) {
  EXPECT_EQ(parseVkScriptType("vec3")->rows, 3);
  EXPECT_EQ(parseVkScriptType("vec")->rows, 4);
  EXPECT_EQ(parseVkScriptType("i8vec2")->scalar, (Component{NumberKind::Int, 8}));
  EXPECT_EQ(parseVkScriptType("u64vec4")->scalar, (Component{NumberKind::Uint, 64}));
  EXPECT_EQ(parseVkScriptType("uint64_t")->scalar, (Component{NumberKind::Uint, 64}));
  auto m = parseVkScriptType("dmat2x3");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->columns, 2);
  EXPECT_EQ(m->rows, 3);
  EXPECT_EQ(m->scalar.bits, 64);
  EXPECT_EQ(parseVkScriptType("mat4")->columns, 4);
  EXPECT_EQ(parseVkScriptType("mat")->columns, 1); // amber's quirk: a bare mat is 1x1
  EXPECT_FALSE(parseVkScriptType("imat2"));
  EXPECT_FALSE(parseVkScriptType("float16_t"));
}

TEST(DataLayout, Std430StridesAsAmberLaysThemOut) {
  EXPECT_EQ(stride("uint32"), 4u);
  EXPECT_EQ(stride("float[]"), 4u);
  EXPECT_EQ(stride("int8[]"), 1u);
  EXPECT_EQ(stride("vec2<float>"), 8u);
  EXPECT_EQ(stride("vec3<float>"), 16u);
  EXPECT_EQ(stride("vec3<float16>"), 8u);
  EXPECT_EQ(stride("vec3<int8>"), 4u);
  EXPECT_EQ(stride("mat2x2<float>"), 16u);
  EXPECT_EQ(stride("mat3x3<float>"), 48u);
  EXPECT_EQ(stride("mat3x3<float16>"), 24u);
  EXPECT_EQ(stride("mat4x4<double>"), 128u);
  EXPECT_EQ(stride("mat3x2<float>"), 24u);
  EXPECT_EQ(stride("R32G32B32_SFLOAT"), 12u);
}

TEST(DataLayout, Std140PadsMatrixColumnsAndArrayElementsToFourComponents) {
  EXPECT_EQ(stride("uint32", Layout::Std140), 4u);
  EXPECT_EQ(stride("float[]", Layout::Std140), 16u);
  EXPECT_EQ(stride("int8[]", Layout::Std140), 4u);
  EXPECT_EQ(stride("vec2<float>", Layout::Std140), 8u);
  EXPECT_EQ(stride("vec2<double>[]", Layout::Std140), 32u);
  EXPECT_EQ(stride("mat2x2<float>", Layout::Std140), 32u);
  EXPECT_EQ(stride("mat4x4<float16>", Layout::Std140), 32u);
  EXPECT_EQ(stride("mat3x2<float>", Layout::Std140), 48u);
  BufferFormat f = layoutOf(*parseAmberType("vec3<float>"));
  ASSERT_EQ(f.segments.size(), 4u);
  EXPECT_TRUE(f.segments[3].padding);
  EXPECT_EQ(f.componentsPerElement(), 3u);
}

TEST(Values, Float16UsesAmbersTruncatingConversion) {
  EXPECT_EQ(amberHalfFromFloat(2.4f), 0x40CC); // IEEE nearest would be 0x40CD
  EXPECT_EQ(amberHalfFromFloat(1.0f), 0x3C00);
  EXPECT_EQ(amberHalfFromFloat(-2.0f), 0xC000);
  EXPECT_EQ(amberHalfFromFloat(0.0f), 0x0000);
  EXPECT_EQ(amberHalfFromFloat(-0.0f), 0x8000);
  EXPECT_EQ(amberHalfFromFloat(std::ldexp(1.5f, -15)), 0x0000); // [2^-15, 2^-14) flushes
  EXPECT_EQ(amberHalfFromFloat(70000.0f), 0x7C45);              // not handled: the exponent wraps
  EXPECT_EQ(amberHalfFromFloat(0.00001f), 0x793E);
  EXPECT_EQ(amberHalfToFloat(0x40CC), 2.3984375f);
  EXPECT_EQ(amberHalfToFloat(0x7C00), 65536.0f); // no infinity
  EXPECT_EQ(amberHalfToFloat(0x7E00), 98304.0f);
  EXPECT_EQ(amberHalfToFloat(0x0001), 0.0f); // subnormals read as zero
  EXPECT_TRUE(std::signbit(amberHalfToFloat(0x8001)));
}

TEST(Values, IntegersAreTruncatedToTheirWidth) {
  uint8_t b[8] = {};
  writeComponent({NumberKind::Int, 8}, Value::integer(200), b);
  EXPECT_EQ(b[0], 200);
  EXPECT_EQ(readInteger({NumberKind::Int, 8}, b), uint64_t(-56));
  writeComponent({NumberKind::Uint, 8}, Value::integer(uint64_t(-1), true), b);
  EXPECT_EQ(b[0], 255);
  writeComponent({NumberKind::Int, 16}, Value::integer(0x8000), b);
  EXPECT_EQ(static_cast<int64_t>(readInteger({NumberKind::Int, 16}, b)), -32768);
  writeComponent({NumberKind::Uint, 64}, Value::integer(0x0123456789ABCDEFull), b);
  EXPECT_EQ(b[0], 0xEF);
  EXPECT_EQ(b[7], 0x01);
  // Integers written to floats convert numerically; negative ones keep their sign.
  writeComponent({NumberKind::Float, 32}, Value::integer(0x3f800000), b);
  EXPECT_EQ(readFloat({NumberKind::Float, 32}, b), 1065353216.0);
  writeComponent({NumberKind::Float, 64}, Value::integer(uint64_t(-3), true), b);
  EXPECT_EQ(readFloat({NumberKind::Float, 64}, b), -3.0);
  writeComponent({NumberKind::Float, 32}, Value::real(std::nan("")), b);
  EXPECT_EQ(std::bit_cast<uint32_t>(static_cast<float>(readFloat({NumberKind::Float, 32}, b))) &
                0x7FC00000u,
            0x7FC00000u);
}

TEST(Values, ElementsFormatByColumn) {
  BufferFormat f = layoutOf(*parseAmberType("mat2x3<float>"));
  ASSERT_EQ(f.stride, 32u);
  std::vector<uint8_t> bytes(32, 0);
  float v[8] = {1, 2, 3, 0, 4, 5, 6, 0};
  std::memcpy(bytes.data(), v, sizeof v);
  EXPECT_EQ(formatElements(f, bytes), "1 2 3 | 4 5 6\n");
  BufferFormat i8 = layoutOf(*parseAmberType("int8"));
  std::vector<uint8_t> small = {0xFF, 0x05};
  EXPECT_EQ(formatElements(i8, small), "-1\n5\n");
  EXPECT_EQ(hexDump(small), "00000000: ff 05\n");
  std::vector<uint8_t> h = {0x00, 0x3C};
  EXPECT_EQ(formatElements(layoutOf(*parseAmberType("float16")), h), "1\n");
}

} // namespace
} // namespace spire::run
