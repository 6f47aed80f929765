// Vulkan's built-in variables: type, execution model and storage class, checked where used.
#include "ValTestUtil.h"

namespace spire::val {
namespace {

std::string fragment(std::string_view builtinType, std::string_view storage,
                     std::string_view builtin, bool use = true) {
  std::string t = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %b
OpExecutionMode %main OriginUpperLeft
OpDecorate %b BuiltIn BUILTIN
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v3float = OpTypeVector %float 3
%v4float = OpTypeVector %float 4
%ptr = OpTypePointer STORAGE TYPE
%b = OpVariable %ptr STORAGE
%main = OpFunction %void None %fn
%entry = OpLabel
USE
OpReturn
OpFunctionEnd
)";
  t = test::replaced(t, "BUILTIN", builtin);
  t = test::replaced(t, "STORAGE", storage);
  t = test::replaced(t, "TYPE", builtinType);
  t = test::replaced(t, "USE", use ? "%x = OpLoad " + std::string(builtinType) + " %b" : "");
  return t;
}

TEST(ValVulkanBuiltIns, TypeOfABuiltIn) {
  EXPECT_VALID(test::validateText(fragment("%v4float", "Input", "FragCoord"), "vulkan1.3"));
  EXPECT_ERROR(test::validateText(fragment("%v3float", "Input", "FragCoord"), "vulkan1.3"),
               "built-in FragCoord must be a vector of four 32-bit floats");
  // Not used by any code: not checked, as spirv-val.
  EXPECT_VALID(test::validateText(fragment("%v3float", "Input", "FragCoord", false), "vulkan1.3"));
}

TEST(ValVulkanBuiltIns, ModelAndStorageClass) {
  EXPECT_ERROR(test::validateText(fragment("%float", "Input", "FragDepth"), "vulkan1.3"),
               "built-in FragDepth (variable %gl_FragDepth) cannot be an Input");
  EXPECT_ERROR(test::validateText(fragment("%v4float", "Input", "Position"), "vulkan1.3"),
               "built-in Position (variable %gl_Position) cannot be an Input");
}

TEST(ValVulkanBuiltIns, FragDepthNeedsDepthReplacing) {
  std::string text = fragment("%float", "Output", "FragDepth", false);
  text = test::replaced(text, "OpReturn", "OpStore %b %float_1\nOpReturn");
  text = test::replaced(text, "%v3float = ", "%float_1 = OpConstant %float 1\n%v3float = ");
  EXPECT_ERROR(test::validateText(text, "vulkan1.3"), "declares the DepthReplacing execution mode");
  EXPECT_VALID(test::validateText(
      test::replaced(text, "OpExecutionMode %main OriginUpperLeft",
                     "OpExecutionMode %main DepthReplacing\nOpExecutionMode %main OriginUpperLeft"),
      "vulkan1.3"));
}

} // namespace
} // namespace spire::val
