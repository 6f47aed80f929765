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

// VUID-StandaloneSpirv-TessLevelInner-10880: the tessellation levels are decorated Patch.
TEST(ValVulkanBuiltIns, TessellationLevelsArePerPatch) {
  const std::string text = R"(
OpCapability Tessellation
OpMemoryModel Logical GLSL450
OpEntryPoint TessellationControl %main "main" %inner
OpExecutionMode %main OutputVertices 3
OpDecorate %inner BuiltIn TessLevelInner
PATCH
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%uint_2 = OpConstant %uint 2
%float_1 = OpConstant %float 1
%arr = OpTypeArray %float %uint_2
%ptr = OpTypePointer Output %arr
%ptr_f = OpTypePointer Output %float
%inner = OpVariable %ptr Output
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpAccessChain %ptr_f %inner %uint_0
OpStore %p %float_1
OpReturn
OpFunctionEnd
)";
  EXPECT_VALID(
      test::validateText(test::replaced(text, "PATCH", "OpDecorate %inner Patch"), "vulkan1.3"));
  EXPECT_RULE_ERROR(test::validateText(test::replaced(text, "PATCH", ""), "vulkan1.3"),
                    "the TessLevelInner variable %gl_TessLevelInner must be decorated Patch too",
                    "VUID-StandaloneSpirv-TessLevelInner-10880");
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

TEST(ValVulkanBuiltIns, MultiviewAndSubgroupBuiltIns) {
  auto withUint = [](std::string text, std::string_view caps) {
    text = test::replaced(text, "%float = OpTypeFloat 32",
                          "%float = OpTypeFloat 32\n%uint = OpTypeInt 32 0");
    return test::replaced(text, "OpCapability Shader", "OpCapability Shader\n" + std::string(caps));
  };
  // (An integer fragment input is Flat, built-in or not: VUID-StandaloneSpirv-Flat-04744.)
  EXPECT_VALID(test::validateText(
      test::replaced(withUint(fragment("%uint", "Input", "ViewIndex"), "OpCapability MultiView"),
                     "OpDecorate %b BuiltIn ViewIndex",
                     "OpDecorate %b BuiltIn ViewIndex\nOpDecorate %b Flat"),
      "vulkan1.3"));
  EXPECT_ERROR(test::validateText(
                   withUint(fragment("%float", "Input", "ViewIndex"), "OpCapability MultiView"),
                   "vulkan1.3"),
               "built-in ViewIndex must be a 32-bit integer");
  EXPECT_ERROR(test::validateText(withUint(fragment("%uint", "Input", "NumSubgroups"),
                                           "OpCapability GroupNonUniform"),
                                  "vulkan1.3"),
               "built-in NumSubgroups (variable %NumSubgroups) cannot be an Input");
}

// A ray tracing shader of model MODEL reading ObjectToWorldKHR of type TYPE.
constexpr const char *kRayTracing = R"(
OpCapability RayTracingKHR
OpExtension "SPV_KHR_ray_tracing"
OpMemoryModel Logical GLSL450
OpEntryPoint MODEL %main "main" %b
OpDecorate %b BuiltIn ObjectToWorldKHR
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v3float = OpTypeVector %float 3
%v4float = OpTypeVector %float 4
%m4x3 = OpTypeMatrix %v3float 4
%m3x4 = OpTypeMatrix %v4float 3
%ptr = OpTypePointer Input TYPE
%b = OpVariable %ptr Input
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpLoad TYPE %b
OpReturn
OpFunctionEnd
)";

TEST(ValVulkanBuiltIns, RayTracingBuiltIns) {
  auto shader = [](std::string_view model, std::string_view type) {
    return test::validateText(
        test::replaced(test::replaced(kRayTracing, "MODEL", model), "TYPE", type), "vulkan1.2");
  };
  EXPECT_VALID(shader("ClosestHitKHR", "%m4x3"));
  EXPECT_ERROR(shader("ClosestHitKHR", "%m3x4"),
               "built-in ObjectToWorldKHR must be a matrix of four columns of three 32-bit floats");
  EXPECT_ERROR(shader("MissKHR", "%m4x3"),
               "built-in ObjectToWorldKHR (variable %2) cannot be an Input");
}

} // namespace
} // namespace spire::val
