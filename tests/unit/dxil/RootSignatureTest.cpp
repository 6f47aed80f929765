#include "DxilTestContainers.h"

#include "spire/dxil/RootSignature.h"

#include <gtest/gtest.h>

namespace spire::dxil {
namespace {

using test::Bytes;

Expected<RootSignature> read(const std::vector<uint8_t> &bytes) {
  return readRootSignature(ContainerPart{FourCC::of("RTS0"), 0, bytes});
}

TEST(DxilRootSignature, ReadsVersions10To12) {
  for (uint32_t version : {1u, 2u, 3u}) {
    SCOPED_TRACE(version);
    Expected<RootSignature> rs = read(test::rootSignaturePart(version));
    ASSERT_TRUE(rs) << rs.error().format();
    EXPECT_EQ(rs->version, version);
    EXPECT_EQ(rs->flags, 1u);
    ASSERT_EQ(rs->parameters.size(), 3u);
    const RootParameter &table = rs->parameters[0];
    EXPECT_EQ(table.type, RootParameterType::DescriptorTable);
    EXPECT_STREQ(shaderVisibilityName(table.shaderVisibility), "Pixel");
    ASSERT_EQ(table.ranges.size(), 2u);
    EXPECT_EQ(table.ranges[0].numDescriptors, 4u);
    EXPECT_EQ(table.ranges[0].flags, version > 1 ? 4u : 0u);
    EXPECT_EQ(table.ranges[0].offsetInDescriptorsFromTableStart, 0u);
    EXPECT_STREQ(descriptorRangeTypeName(table.ranges[1].rangeType), "Sampler");
    EXPECT_EQ(table.ranges[1].numDescriptors, ~0u);
    EXPECT_EQ(table.ranges[1].baseShaderRegister, 1u);
    EXPECT_EQ(table.ranges[1].offsetInDescriptorsFromTableStart, ~0u);
    const RootParameter &constants = rs->parameters[1];
    EXPECT_EQ(constants.type, RootParameterType::Constants32Bit);
    EXPECT_EQ(constants.registerSpace, 1u);
    EXPECT_EQ(constants.num32BitValues, 4u);
    const RootParameter &cbv = rs->parameters[2];
    EXPECT_EQ(cbv.type, RootParameterType::CBV);
    EXPECT_EQ(cbv.shaderRegister, 1u);
    EXPECT_EQ(cbv.flags, version > 1 ? 2u : 0u);
    ASSERT_EQ(rs->staticSamplers.size(), 1u);
    const StaticSampler &s = rs->staticSamplers[0];
    EXPECT_EQ(s.filter, 0x15u);
    EXPECT_EQ(s.addressW, 3u);
    EXPECT_EQ(s.mipLodBias, 0.5f);
    EXPECT_EQ(s.maxAnisotropy, 16u);
    EXPECT_EQ(s.maxLod, 1000.0f);
    EXPECT_EQ(s.shaderRegister, 2u);
    EXPECT_EQ(s.shaderVisibility, 5u);
    EXPECT_EQ(s.flags, version == 3 ? 1u : 0u);
  }
}

TEST(DxilRootSignature, RejectsBadVersionsTypesAndRanges) {
  std::vector<uint8_t> good = test::rootSignaturePart(2);
  Bytes b{good};
  b.set32(0, 4);
  EXPECT_FALSE(read(b.v));
  b = Bytes{good};
  b.set32(24 + 12, 7); // the second parameter's type
  Expected<RootSignature> rs = read(b.v);
  ASSERT_FALSE(rs);
  EXPECT_EQ(rs.error().location.offset, 8u + 24 + 12);
  b = Bytes{good};
  b.set32(24 + 36, 1000000); // the descriptor table's range count
  EXPECT_FALSE(read(b.v));
  b = Bytes{good};
  b.set32(12, 2); // two static samplers
  EXPECT_FALSE(read(b.v));
  for (size_t n = 0; n < good.size(); ++n)
    EXPECT_FALSE(read({good.begin(), good.begin() + n})) << n;
}

TEST(DxilRootSignature, LimitsRangesThatParametersShare) {
  // Many descriptor tables that all point at one array of ranges: what they read in all stays
  // within what the part could hold without sharing.
  Bytes p;
  uint32_t count = 200;
  p.u32(2).u32(count).u32(24).u32(0).u32(0).u32(0);
  uint32_t table = 24 + 12 * count;
  for (uint32_t i = 0; i < count; ++i)
    p.u32(0).u32(0).u32(table);
  p.u32(20).u32(table + 8);
  for (int i = 0; i < 20 * 6; ++i)
    p.u32(0);
  Expected<RootSignature> rs = read(p.v);
  ASSERT_FALSE(rs);
  EXPECT_NE(rs.error().message.find("past what the part holds"), std::string::npos);
}

} // namespace
} // namespace spire::dxil
