// The parts of a few fields: SFI0, HASH, VERS, ILDN, and SRCI's sections.
#include "DxilTestContainers.h"

#include "spire/dxil/CompilerVersion.h"
#include "spire/dxil/DebugName.h"
#include "spire/dxil/FeatureInfo.h"
#include "spire/dxil/ShaderHash.h"
#include "spire/dxil/SourceInfo.h"

#include <gtest/gtest.h>

namespace spire::dxil {
namespace {

using test::Bytes;

ContainerPart part(const char (&code)[5], const std::vector<uint8_t> &bytes) {
  return ContainerPart{FourCC::of(code), 0, bytes};
}

const std::vector<uint8_t> &partData(const char (&code)[5]) {
  static const std::vector<test::TestPart> parts = test::everyPart();
  for (const test::TestPart &p : parts)
    if (p.fourcc == FourCC::of(code))
      return p.data;
  static const std::vector<uint8_t> none;
  return none;
}

TEST(DxilFeatureInfo, ReadsTheFlagsAndNamesThem) {
  Expected<FeatureInfo> f = readFeatureInfo(part("SFI0", partData("SFI0")));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->flags, 1u | 1u << 14 | uint64_t(1) << 40);
  EXPECT_EQ(featureFlagNames(f->flags),
            (std::vector<std::string>{"Doubles", "WaveOps", "UsesDerivatives"}));
  EXPECT_EQ(featureFlagNames(uint64_t(1) << 50), (std::vector<std::string>{"Bit50"}));
  EXPECT_STREQ(featureFlagName(32), "ExtendedCommandInfo");
  EXPECT_FALSE(readFeatureInfo(part("SFI0", {1, 2, 3, 4})));
}

TEST(DxilShaderHash, ReadsFlagsAndDigest) {
  Expected<ShaderHash> h = readShaderHash(part("HASH", partData("HASH")));
  ASSERT_TRUE(h);
  EXPECT_TRUE(h->includesSource());
  EXPECT_EQ(h->digest[15], 15);
  std::vector<uint8_t> longer = partData("HASH");
  longer.push_back(0);
  EXPECT_FALSE(readShaderHash(part("HASH", longer)));
}

TEST(DxilCompilerVersion, ReadsTheVersionAndItsStrings) {
  Expected<CompilerVersion> v = readCompilerVersion(part("VERS", partData("VERS")));
  ASSERT_TRUE(v) << v.error().format();
  EXPECT_EQ(v->major, 1);
  EXPECT_EQ(v->minor, 8);
  EXPECT_EQ(v->flags, 1u);
  EXPECT_EQ(v->commitCount, 4662u);
  EXPECT_EQ(v->commitSha, "416fab6b");
  EXPECT_EQ(v->versionString, "1.8.2407.7");
  // No strings at all.
  Bytes b;
  b.u16(1).u16(7).u32(0).u32(3).u32(0);
  v = readCompilerVersion(part("VERS", b.v));
  ASSERT_TRUE(v);
  EXPECT_TRUE(v->commitSha.empty());
  // The list's last string without its NUL.
  Bytes bad{partData("VERS")};
  bad.set32(12, 19);
  EXPECT_FALSE(readCompilerVersion(part("VERS", bad.v)));
  bad.set32(12, 21);
  EXPECT_FALSE(readCompilerVersion(part("VERS", bad.v)));
}

TEST(DxilDebugName, ReadsTheName) {
  Expected<DebugName> n = readDebugName(part("ILDN", partData("ILDN")));
  ASSERT_TRUE(n) << n.error().format();
  EXPECT_EQ(n->name, "shader.pdb");
  Bytes b{partData("ILDN")};
  b.v[2] = 12; // the name and its NUL now run into the next part
  EXPECT_FALSE(readDebugName(part("ILDN", b.v)));
  b.v[2] = 200;
  EXPECT_FALSE(readDebugName(part("ILDN", b.v)));
}

TEST(DxilSourceInfo, ReadsEverySection) {
  std::vector<uint8_t> bytes = test::sourceInfoPart(); // the result views the bytes
  Expected<SourceInfo> si = readSourceInfo(part("SRCI", bytes));
  ASSERT_TRUE(si) << si.error().format();
  ASSERT_EQ(si->sections.size(), 6u);
  EXPECT_EQ(uint16_t(si->sections[5].type), 9); // unknown: kept
  EXPECT_EQ(sourceInfoSectionName(si->sections[5].type), nullptr);
  ASSERT_EQ(si->sources.size(), 1u);
  EXPECT_EQ(si->sources[0].name, "a.hlsl");
  EXPECT_EQ(si->sources[0].content, "float4 main() : SV_Target { return 1; }");
  EXPECT_EQ(si->defines, (std::vector<std::string_view>{"A=1", "B"}));
  EXPECT_EQ(si->args, (std::vector<std::string_view>{"-E", "main"}));
  EXPECT_EQ(si->targetProfile, "ps_6_0");
  EXPECT_EQ(si->entryPoint, "main");
}

TEST(DxilSourceInfo, KeepsCompressedSourcesAndChecksSizes) {
  std::vector<uint8_t> good = test::sourceInfoPart();
  Bytes b{good};
  b.v[8 + 8 + 2] = 1; // zlib
  Expected<SourceInfo> si = readSourceInfo(part("SRCI", b.v));
  ASSERT_TRUE(si) << si.error().format();
  EXPECT_TRUE(si->sources.empty());
  EXPECT_EQ(si->sourceCompression, 1);
  EXPECT_EQ(si->compressedSources.size(), si->uncompressedSourceSize);

  b = Bytes{good};
  b.set32(8 + 4, 1); // a section smaller than its header
  EXPECT_FALSE(readSourceInfo(part("SRCI", b.v)));
  b = Bytes{good};
  b.set32(4, 1000); // the part's size in words
  EXPECT_FALSE(readSourceInfo(part("SRCI", b.v)));
  b = Bytes{good};
  b.set32(8 + 8 + 12 + 12, 1000); // the file's content size
  EXPECT_FALSE(readSourceInfo(part("SRCI", b.v)));
  for (size_t n = 0; n + 4 < good.size(); n += 4)
    EXPECT_FALSE(readSourceInfo(part("SRCI", {good.begin(), good.begin() + n}))) << n;
}

} // namespace
} // namespace spire::dxil
