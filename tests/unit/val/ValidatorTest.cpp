// The validator's interface: environments, reports, limits on the number of errors.
#include "ValTestUtil.h"

namespace spire::val {
namespace {

constexpr std::string_view kMinimalCompute = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";

TEST(Validator, EnvironmentNames) {
  for (std::string_view name : {"spv1.0", "spv1.6", "vulkan1.0", "vulkan1.1spv1.4", "vulkan1.3",
                                "opencl1.2", "opencl2.2", "opengl4.5", "level-zero"})
    EXPECT_TRUE(parseEnvironment(name).has_value()) << name;
  EXPECT_FALSE(parseEnvironment("vulkan9.9").has_value());
  EXPECT_EQ(parseEnvironment("vulkan1.2")->client, Client::Vulkan);
  EXPECT_EQ(parseEnvironment("vulkan1.2")->maxVersion, grammar::makeVersion(1, 5));
  EXPECT_EQ(parseEnvironment("opencl2.0")->client, Client::OpenCL);
  EXPECT_EQ(parseEnvironment("level-zero")->client, Client::LevelZero);
  EXPECT_NE(environmentList().find("level-zero"), std::string::npos);
}

TEST(Validator, MinimalComputeShaderIsValid) {
  EXPECT_VALID(test::validateText(kMinimalCompute, "spv1.6"));
  EXPECT_VALID(test::validateText(kMinimalCompute, "vulkan1.3"));
}

TEST(Validator, UnreadableBinaryIsOneProblem) {
  const uint8_t bytes[] = {1, 2, 3, 4, 5};
  Report r = validateBinary(bytes, {});
  ASSERT_EQ(r.errorCount(), 1u);
  EXPECT_FALSE(r.valid());
}

TEST(Validator, ProblemFormatsOnOneLine) {
  Problem p;
  p.location = Location::binary(12, 3);
  p.message = "something is wrong";
  p.rule = "2.4";
  p.instruction = "%1 = OpTypeVoid";
  const std::string line = p.format("a.spv");
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_NE(line.find("word 12"), std::string::npos) << line;
  EXPECT_NE(line.find("instruction 3"), std::string::npos) << line;
  EXPECT_NE(line.find("[2.4]"), std::string::npos) << line;
  EXPECT_NE(line.find("%1 = OpTypeVoid"), std::string::npos) << line;
  const std::string json = p.toJson();
  EXPECT_NE(json.find("\"word_offset\":12"), std::string::npos) << json;
  EXPECT_NE(json.find("\"rule\":\"2.4\""), std::string::npos) << json;
}

} // namespace
} // namespace spire::val
