// Availability (2.16.1 and section 3's requirements): every opcode and enumerant against the
// module's version, capabilities (implied ones included) and extensions.
#include "ValTestUtil.h"

namespace spire::val {
namespace {

TEST(ValAvailability, EnumerantNeedsACapability) {
  // The GLSL450 memory model is for shaders.
  Report r = test::validateText("OpCapability Kernel\nOpCapability Addresses\n"
                                "OpMemoryModel Physical32 GLSL450\n");
  EXPECT_ERROR(r, "MemoryModel GLSL450 (operand of OpMemoryModel) needs one of the capabilities "
                  "Shader");
  EXPECT_VALID(test::validateText(
      "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n"));
}

TEST(ValAvailability, InstructionOfNoVersionNamesItsCapabilities) {
  // OpGroupNonUniformRotateKHR is in no version's core and lists no extension of its own: its
  // capability brings it (and SPV_KHR_subgroup_rotate the capability).
  const std::string text = R"(
OpCapability Shader
OpCapability GroupNonUniform
@cap
OpExtension "SPV_KHR_subgroup_rotate"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%scope = OpConstant %uint 3
%one = OpConstant %uint 1
%main = OpFunction %void None %fn
%entry = OpLabel
%r = OpGroupNonUniformRotateKHR %uint %scope %one %one
OpReturn
OpFunctionEnd
)";
  EXPECT_ERROR(test::validateText(test::replaced(text, "@cap", "")),
               "OpGroupNonUniformRotateKHR needs one of the capabilities "
               "GroupNonUniformRotateKHR, and the module declares none of them");
  EXPECT_VALID(
      test::validateText(test::replaced(text, "@cap", "OpCapability GroupNonUniformRotateKHR")));
}

TEST(ValAvailability, ImpliedCapabilitiesCount) {
  // Geometry implies Shader.
  EXPECT_VALID(test::validateText(
      "OpCapability Geometry\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n"));
}

TEST(ValAvailability, DecorationNeedsACapability) {
  Report r = test::validateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpDecorate %x LinkageAttributes "x" Export
%int = OpTypeInt 32 1
%x = OpConstant %int 1
)");
  EXPECT_ERROR(r, "Decoration LinkageAttributes (operand of OpDecorate) needs one of the "
                  "capabilities Linkage");
}

TEST(ValAvailability, InstructionNeedsACapability) {
  const std::string text = R"(
OpCapability Shader
%cap
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%uint_3 = OpConstant %uint 3
%main = OpFunction %void None %fn
%entry = OpLabel
%e = OpGroupNonUniformElect %bool %uint_3
OpReturn
OpFunctionEnd
)";
  const std::string without = test::replaced(text, "%cap", ""),
                    with = test::replaced(text, "%cap", "OpCapability GroupNonUniform");
  EXPECT_ERROR(test::validateText(without, "spv1.3"),
               "OpGroupNonUniformElect needs one of the capabilities GroupNonUniform");
  EXPECT_VALID(test::validateText(with, "spv1.3"));
}

// Assembles for SPIR-V 1.6, then gives the header an older version, as a module of that
// version that uses something newer would be.
Report validateAsVersion(std::string_view text, uint32_t version) {
  AssembleOptions as;
  as.version = grammar::makeVersion(1, 6);
  Expected<std::vector<uint32_t>> words = assemble(text, as);
  EXPECT_TRUE(bool(words));
  if (!words)
    return {};
  std::vector<uint32_t> w = std::move(words).value();
  w[1] = version;
  Expected<Module> m = Module::fromWords(std::move(w));
  EXPECT_TRUE(bool(m));
  return m ? validate(*m, {}) : Report{};
}

TEST(ValAvailability, VersionOfAnEnumerant) {
  // The Capability operand itself is checked for its version and extensions only.
  const char *text = R"(
OpCapability Shader
OpCapability Linkage
OpCapability GroupNonUniform
OpMemoryModel Logical GLSL450
)";
  EXPECT_ERROR(validateAsVersion(text, grammar::makeVersion(1, 2)),
               "Capability GroupNonUniform (operand of OpCapability) needs SPIR-V 1.3");
  EXPECT_VALID(validateAsVersion(text, grammar::makeVersion(1, 3)));
}

TEST(ValAvailability, ACoreCapabilityBringsNothingOfALaterVersion) {
  // The StorageBuffer storage class lists Shader, SPIR-V 1.3 and its extensions: Shader, a
  // capability of SPIR-V 1.0, does not bring it to a 1.0 module; the extension does.
  const std::string text = R"(
OpCapability Shader
OpCapability Linkage
@ext
OpMemoryModel Logical GLSL450
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
%uint = OpTypeInt 32 0
%S = OpTypeStruct %uint
%p = OpTypePointer StorageBuffer %S
)";
  const uint32_t v10 = grammar::makeVersion(1, 0);
  EXPECT_ERROR(validateAsVersion(test::replaced(text, "@ext", ""), v10),
               "StorageClass StorageBuffer (operand of OpTypePointer) needs SPIR-V 1.3 or one of "
               "the extensions SPV_KHR_storage_buffer_storage_class");
  EXPECT_VALID(validateAsVersion(
      test::replaced(text, "@ext", "OpExtension \"SPV_KHR_storage_buffer_storage_class\""), v10));
  EXPECT_VALID(validateAsVersion(test::replaced(text, "@ext", ""), grammar::makeVersion(1, 3)));
}

TEST(ValAvailability, VersionOfAnInstruction) {
  // OpCopyLogical is SPIR-V 1.4 and needs no capability.
  const char *text = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_3 = OpConstant %uint 3
%s = OpTypeStruct %uint
%s2 = OpTypeStruct %uint
%c = OpConstantComposite %s %uint_3
%main = OpFunction %void None %fn
%entry = OpLabel
%copy = OpCopyLogical %s2 %c
OpReturn
OpFunctionEnd
)";
  EXPECT_ERROR(validateAsVersion(text, grammar::makeVersion(1, 3)),
               "OpCopyLogical needs SPIR-V 1.4; the module is SPIR-V 1.3");
  EXPECT_VALID(validateAsVersion(text, grammar::makeVersion(1, 4)));
}

// What a version removed stays removed whatever the module declares: OpLessOrGreater needs Kernel
// up to 1.5 and is gone from 1.6, BufferBlock and OpAtomicCompareExchangeWeak from 1.4 (spirv-val
// 2023.1 says the same of each).
TEST(ValAvailability, RemovedInALaterVersion) {
  const std::string kernel = R"(
OpCapability Kernel
OpCapability Addresses
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main "main"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%float = OpTypeFloat 32
%float_1 = OpConstant %float 1
%ptr = OpTypePointer Function %uint
%main = OpFunction %void None %fn
%e = OpLabel
%v = OpVariable %ptr Function
BODY
OpReturn
OpFunctionEnd
)";
  const std::string lessOrGreater =
      test::replaced(kernel, "BODY", "%l = OpLessOrGreater %bool %float_1 %float_1");
  EXPECT_VALID(test::validateText(lessOrGreater, "spv1.5"));
  EXPECT_ERROR(test::validateText(lessOrGreater, "spv1.6"),
               "OpLessOrGreater was removed after SPIR-V 1.5; the module is SPIR-V 1.6");
  const std::string weak =
      test::replaced(kernel, "BODY",
                     "%r = OpAtomicCompareExchangeWeak %uint %v %uint_1 %uint_0 %uint_0 %uint_1 "
                     "%uint_0");
  EXPECT_VALID(test::validateText(weak, "spv1.3"));
  EXPECT_ERROR(test::validateText(weak, "spv1.4"),
               "OpAtomicCompareExchangeWeak was removed after SPIR-V 1.3");
  const std::string bufferBlock = R"(
OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpDecorate %S BufferBlock
OpMemberDecorate %S 0 Offset 0
%uint = OpTypeInt 32 0
%S = OpTypeStruct %uint
)";
  EXPECT_VALID(test::validateText(bufferBlock, "spv1.3"));
  EXPECT_ERROR(test::validateText(bufferBlock, "spv1.4"),
               "Decoration BufferBlock (operand of OpDecorate) was removed after SPIR-V 1.3");
}

TEST(ValAvailability, CapabilityOnlyThroughAnExtension) {
  const char *text = R"(
OpCapability Shader
OpCapability Linkage
OpCapability RayQueryKHR
%s
OpMemoryModel Logical GLSL450
)";
  const std::string without = test::replaced(text, "%s\n", ""),
                    with = test::replaced(text, "%s\n", "OpExtension \"SPV_KHR_ray_query\"\n");
  EXPECT_ERROR(test::validateText(without, "spv1.4"),
               "Capability RayQueryKHR (operand of OpCapability) needs one of the extensions "
               "SPV_KHR_ray_query");
  EXPECT_VALID(test::validateText(with, "spv1.4"));
}

TEST(ValAvailability, NonSemanticSetsNeedTheirExtensionBeforeOneSix) {
  const char *text = R"(
OpCapability Shader
OpCapability Linkage
%ext
%set = OpExtInstImport "NonSemantic.Example"
OpMemoryModel Logical GLSL450
)";
  const std::string without = test::replaced(text, "%ext", ""),
                    with =
                        test::replaced(text, "%ext", "OpExtension \"SPV_KHR_non_semantic_info\"");
  EXPECT_ERROR(validateAsVersion(without, grammar::makeVersion(1, 5)),
               "non-semantic instruction sets need SPIR-V 1.6");
  EXPECT_VALID(validateAsVersion(with, grammar::makeVersion(1, 5)));
  EXPECT_VALID(validateAsVersion(without, grammar::makeVersion(1, 6)));
}

// "This extension requires SPIR-V 1.3" (SPV_KHR_vulkan_memory_model, Dependencies): declaring the
// extension in an older module is an error, whether or not anything it brings is used.
TEST(ValAvailability, ExtensionsNeedTheVersionTheirSpecificationRequires) {
  const char *text = R"(
OpCapability Shader
OpCapability Linkage
OpExtension "SPV_KHR_vulkan_memory_model"
OpMemoryModel Logical GLSL450
)";
  EXPECT_RULE_ERROR(validateAsVersion(text, grammar::makeVersion(1, 2)),
                    "SPV_KHR_vulkan_memory_model requires SPIR-V 1.3; the module is SPIR-V 1.2",
                    "SPV_KHR_vulkan_memory_model, Dependencies");
  EXPECT_VALID(validateAsVersion(text, grammar::makeVersion(1, 3)));
  // SPV_EXT_mesh_shader requires SPIR-V 1.4.
  EXPECT_ERROR(
      validateAsVersion(test::replaced(text, "SPV_KHR_vulkan_memory_model", "SPV_EXT_mesh_shader"),
                        grammar::makeVersion(1, 3)),
      "SPV_EXT_mesh_shader requires SPIR-V 1.4");
}

TEST(ValAvailability, MaskBitsAreCheckedOneByOne) {
  // MakeTexelAvailable (an ImageOperands bit) needs VulkanMemoryModel.
  Report r = test::validateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%int_1 = OpConstant %int 1
%ptr = OpTypePointer Function %int
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpVariable %ptr Function
OpStore %v %int_1 Volatile|MakePointerAvailable %int_1
OpReturn
OpFunctionEnd
)");
  EXPECT_ERROR(r, "MemoryAccess MakePointerAvailable (operand of OpStore) needs one of the "
                  "capabilities VulkanMemoryModel");
}

TEST(ValAvailability, ClipAndCullDistanceNeedNoCapabilityToBeDeclared) {
  EXPECT_VALID(test::validateText(R"(
OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpMemberDecorate %pv 0 BuiltIn Position
OpMemberDecorate %pv 1 BuiltIn ClipDistance
OpMemberDecorate %pv 2 BuiltIn CullDistance
OpDecorate %pv Block
%float = OpTypeFloat 32
%v4 = OpTypeVector %float 4
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%arr = OpTypeArray %float %uint_1
%pv = OpTypeStruct %v4 %arr %arr
)"));
}

} // namespace
} // namespace spire::val
