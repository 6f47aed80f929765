#include "DxilTestContainers.h"

#include "spire/dxil/ContainerInfo.h"

#include <gtest/gtest.h>

namespace spire::dxil {
namespace {

using test::Bytes;
using test::TestPart;

/// The info views `bytes`: callers keep them alive while they use it.
Expected<ContainerInfo> decode(const std::vector<uint8_t> &bytes) {
  Expected<Container> c = readContainer(bytes);
  if (!c)
    return c.error();
  return readContainerInfo(*c);
}

TEST(DxilContainerInfo, DecodesEveryPart) {
  std::vector<uint8_t> bytes = test::buildContainer(test::everyPart());
  Expected<ContainerInfo> info = decode(bytes);
  ASSERT_TRUE(info) << info.error().format();
  EXPECT_EQ(info->digestStatus, DigestStatus::Signed);
  EXPECT_EQ(info->computedDigest, info->container.digest);
  ASSERT_TRUE(info->program);
  EXPECT_EQ(info->program->kind, ShaderKind::Pixel);
  EXPECT_EQ(mainProgram(*info), &*info->program);
  EXPECT_TRUE(info->debugProgram);
  EXPECT_TRUE(info->statistics);
  ASSERT_TRUE(info->inputSignature);
  EXPECT_EQ(info->inputSignature->elements.size(), 3u);
  EXPECT_TRUE(info->outputSignature);
  ASSERT_TRUE(info->patchConstantSignature);
  EXPECT_TRUE(info->patchConstantSignature->elements.empty());
  ASSERT_TRUE(info->pipelineStateValidation);
  EXPECT_EQ(info->pipelineStateValidation->version, 3u);
  EXPECT_TRUE(info->featureInfo);
  EXPECT_TRUE(info->shaderHash);
  EXPECT_TRUE(info->compilerVersion);
  ASSERT_TRUE(info->runtimeData);
  EXPECT_EQ(info->runtimeData->functions.size(), 2u);
  EXPECT_TRUE(info->debugName);
  EXPECT_TRUE(info->rootSignature);
  EXPECT_TRUE(info->sourceInfo);
  ASSERT_EQ(info->unknownParts.size(), 1u);
  EXPECT_EQ(info->container.parts[info->unknownParts[0]].fourcc.str(), "PRIV");
  EXPECT_EQ(checkConsistency(*info), std::vector<std::string>());
}

TEST(DxilContainerInfo, AContainerOfOnlyUnknownPartsDecodes) {
  std::vector<uint8_t> bytes =
      test::buildContainer({{FourCC::of("ABCD"), {}}, {FourCC::of("RDEF"), {1, 2}}});
  Expected<ContainerInfo> info = decode(bytes);
  ASSERT_TRUE(info) << info.error().format();
  EXPECT_EQ(info->unknownParts.size(), 2u);
  EXPECT_EQ(mainProgram(*info), nullptr);
}

TEST(DxilContainerInfo, ABrokenOrRepeatedPartIsAnErrorThatNamesIt) {
  std::vector<TestPart> parts = test::everyPart();
  parts.push_back(parts[1]); // a second ISG1
  std::vector<uint8_t> bytes = test::buildContainer(parts);
  Expected<ContainerInfo> info = decode(bytes);
  ASSERT_FALSE(info);
  EXPECT_EQ(info.error().location.scopeName(), "ISG1");
  EXPECT_NE(info.error().message.find("a second ISG1 part"), std::string::npos);

  parts = test::everyPart();
  parts[4].data.resize(parts[4].data.size() - 4); // PSV0 loses its last word
  bytes = test::buildContainer(parts);
  info = decode(bytes);
  ASSERT_FALSE(info);
  EXPECT_EQ(info.error().location.scopeName(), "PSV0");
}

TEST(DxilContainerInfo, FindsWherePsvDisagreesWithTheSignatures) {
  std::vector<TestPart> parts = test::everyPart();
  parts[1].data = test::signaturePart({{"SV_Position", 0, 1, 3, 0, 0xf, 0},
                                       {"TEXCOORD", 0, 0, 3, 1, 0x3, 0x3},
                                       {"TEXCOORD", 1, 0, 3, 3, 0x3, 0x1}}); // row 3, not 2
  parts.erase(parts.begin() + 2);                                            // no OSG1
  std::vector<uint8_t> bytes = test::buildContainer(parts);
  Expected<ContainerInfo> info = decode(bytes);
  ASSERT_TRUE(info) << info.error().format();
  std::vector<std::string> problems = checkConsistency(*info);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_NE(problems[0].find("ISG1"), std::string::npos) << problems[0];
  EXPECT_NE(problems[1].find("no OSG1 part"), std::string::npos) << problems[1];
}

TEST(DxilContainerInfo, SurvivesEveryTruncationOfEveryPart) {
  std::vector<TestPart> all = test::everyPart();
  size_t failures = 0, runs = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    for (size_t n = 0; n < all[i].data.size(); ++n) {
      std::vector<TestPart> parts = all;
      parts[i].data.resize(n);
      std::vector<uint8_t> bytes = test::buildContainer(parts);
      Expected<ContainerInfo> info = decode(bytes);
      ++runs;
      if (!info) {
        ++failures;
        EXPECT_EQ(info.error().location.scopeName(), all[i].fourcc.str());
      }
    }
  }
  // Only padding and the parts spire keeps as bytes may be cut and still decode.
  EXPECT_GT(failures, runs * 9 / 10) << failures << " of " << runs;
}

} // namespace
} // namespace spire::dxil
