// Execution models, modes and interfaces (3.32.5, 3.7, 2.16.1) and the Vulkan environment's
// standalone rules (VUIDs).
#include "ValTestUtil.h"

namespace spire::val {
namespace {

// A fragment shader with one output; `modes`, `decorations` and `extra` are spliced in.
std::string fragment(std::string_view modes, std::string_view decorations,
                     std::string_view extra = "", std::string_view interface = "%out") {
  return std::string(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" )") +
         std::string(interface) + "\n" + std::string(modes) + "\n" + std::string(decorations) +
         R"(
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%ptr_out = OpTypePointer Output %v4float
%out = OpVariable %ptr_out Output
)" + std::string(extra) +
         R"(
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
}

TEST(ValModes, FragmentNeedsAnOrigin) {
  EXPECT_VALID(test::validateText(
      fragment("OpExecutionMode %main OriginUpperLeft", "OpDecorate %out Location 0"),
      "vulkan1.3"));
  EXPECT_ERROR(test::validateText(fragment("", "OpDecorate %out Location 0")),
               "must declare exactly one of the OriginUpperLeft and OriginLowerLeft");
}

TEST(ValModes, ModeMustSuitTheModel) {
  EXPECT_ERROR(test::validateText(fragment("OpExecutionMode %main OriginUpperLeft\n"
                                           "OpExecutionMode %main LocalSize 1 1 1",
                                           "")),
               "execution mode LocalSize does not apply to the Fragment execution model");
}

TEST(ValModes, ModeMustNameAnEntryPoint) {
  EXPECT_ERROR(test::validateText(fragment("OpExecutionMode %main OriginUpperLeft\n"
                                           "OpExecutionMode %other OriginUpperLeft",
                                           "",
                                           "%other = OpFunction %void None %fn\n"
                                           "%l = OpLabel\nOpReturn\nOpFunctionEnd")),
               "which is not the function of any OpEntryPoint");
}

TEST(ValModes, InterfaceListsVariablesOnly) {
  EXPECT_ERROR(
      test::validateText(fragment("OpExecutionMode %main OriginUpperLeft", "", "", "%out %float")),
      "interface %float is not a variable");
}

TEST(ValModes, InterfaceListsEveryGlobalTheCallTreeUses) {
  const std::string extra = R"(
%ptr_priv = OpTypePointer Private %float
%g = OpVariable %ptr_priv Private
%helper = OpFunction %void None %fn
%h = OpLabel
%x = OpLoad %float %g
OpReturn
OpFunctionEnd
)";
  const std::string text =
      test::replaced(fragment("OpExecutionMode %main OriginUpperLeft", "", extra),
                     "%entry = OpLabel\n", "%entry = OpLabel\n%r = OpFunctionCall %void %helper\n");
  EXPECT_ERROR(test::validateText(text, "spv1.4"), "but its interface does not list it");
  // Before SPIR-V 1.4 only Input and Output variables are listed (3.32.5), and may be.
  EXPECT_VALID(test::validateText(text, "spv1.3"));
  const std::string listed = test::replaced(text, "\"main\" %out", "\"main\" %out %g");
  EXPECT_VALID(test::validateText(listed, "spv1.4"));
  EXPECT_ERROR(test::validateText(listed, "spv1.3"),
               "is a Private variable: before SPIR-V 1.4 the interface lists Input "
               "and Output variables only");
}

// A variable an entry point reaches through a specialization constant operation (its address,
// cast to Generic) is one it uses (the agreement sweep of constants found it unlisted).
TEST(ValModes, InterfaceListsVariablesReachedThroughConstants) {
  const std::string kernel = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability GenericPointer
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main "main" INTERFACE
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%ptr_cw = OpTypePointer CrossWorkgroup %uint
%ptr_gen = OpTypePointer Generic %uint
%g = OpVariable %ptr_cw CrossWorkgroup
%address = OpSpecConstantOp %ptr_gen PtrCastToGeneric %g
%main = OpFunction %void None %fn
%entry = OpLabel
%copy = OpCopyObject %ptr_gen %address
OpReturn
OpFunctionEnd
)";
  EXPECT_ERROR(test::validateText(test::replaced(kernel, "INTERFACE", ""), "spv1.4"),
               "the entry point uses global variable %7 but its interface does not list it");
  EXPECT_VALID(test::validateText(test::replaced(kernel, "INTERFACE", "%g"), "spv1.4"));
}

TEST(ValModes, ModuleWithoutEntryPointsNeedsLinkage) {
  EXPECT_ERROR(test::validateText("OpCapability Shader\nOpMemoryModel Logical GLSL450\n"),
               "has no OpEntryPoint");
  EXPECT_VALID(test::validateText(
      "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n"));
}

TEST(ValModes, InstructionsOfSomeExecutionModelsOnly) {
  const std::string compute = R"(
OpCapability Shader
OpCapability Geometry
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%float_1 = OpConstant %float 1
%main = OpFunction %void None %fn
%entry = OpLabel
%r = OpFunctionCall %void %helper
OpReturn
OpFunctionEnd
%helper = OpFunction %void None %fn
%h = OpLabel
%BODY
OpFunctionEnd
)";
  auto with = [&](std::string_view body) { return test::replaced(compute, "%BODY", body); };
  EXPECT_VALID(test::validateText(with("OpReturn")));
  EXPECT_ERROR(test::validateText(with("OpKill")),
               "OpKill cannot run in the GLCompute entry point");
  EXPECT_ERROR(test::validateText(with("%d = OpDPdx %float %float_1\nOpReturn")),
               "OpDPdx cannot run in the GLCompute entry point");
  // SPV_NV_compute_shader_derivatives: its capabilities enable derivatives in compute, with or
  // without a DerivativeGroup execution mode.
  const std::string derivatives =
      test::replaced(with("%d = OpDPdx %float %float_1\nOpReturn"), "OpCapability Geometry",
                     "OpCapability Geometry\nOpCapability ComputeDerivativeGroupLinearNV\n"
                     "OpExtension \"SPV_NV_compute_shader_derivatives\"");
  EXPECT_VALID(test::validateText(derivatives));
  EXPECT_VALID(test::validateText(
      test::replaced(derivatives, "LocalSize 1 1 1",
                     "LocalSize 4 1 1\nOpExecutionMode %main DerivativeGroupLinearNV")));
  EXPECT_ERROR(test::validateText(with("OpEmitVertex\nOpReturn")),
               "OpEmitVertex cannot run in the GLCompute entry point");
}

// Vulkan's storage classes by execution model: Workgroup memory in compute, task and mesh
// shaders only (VUID-StandaloneSpirv-None-04645); MeshEXT shaders do not read their outputs
// (-MeshEXT-07107).
TEST(ValVulkan, StorageClassesOfSomeExecutionModelsOnly) {
  const std::string workgroup = fragment(
      "OpExecutionMode %main OriginUpperLeft", "OpDecorate %out Location 0",
      "%ptr_wg = OpTypePointer Workgroup %float\n%w = OpVariable %ptr_wg Workgroup", "%out %w");
  const std::string use =
      test::replaced(workgroup, "%entry = OpLabel\n", "%entry = OpLabel\n%x = OpLoad %float %w\n");
  EXPECT_RULE_ERROR(test::validateText(use, "vulkan1.3"),
                    "in Vulkan the Workgroup storage class is for GLCompute, Task and Mesh entry "
                    "points only",
                    "VUID-StandaloneSpirv-None-04645");
  EXPECT_VALID(test::validateText(use));
  const std::string mesh = R"(
OpCapability MeshShadingEXT
OpExtension "SPV_EXT_mesh_shader"
OpMemoryModel Logical GLSL450
OpEntryPoint MeshEXT %main "main" %out
OpExecutionMode %main LocalSize 1 1 1
OpExecutionMode %main OutputVertices 1
OpExecutionMode %main OutputPrimitivesEXT 1
OpExecutionMode %main OutputPoints
OpDecorate %out Location 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%float_1 = OpConstant %float 1
%arr = OpTypeArray %float %uint_1
%ptr = OpTypePointer Output %arr
%out = OpVariable %ptr Output
%ptr_f = OpTypePointer Output %float
%main = OpFunction %void None %fn
%l = OpLabel
OpSetMeshOutputsEXT %uint_1 %uint_1
%p = OpAccessChain %ptr_f %out %uint_0
ACCESS
OpReturn
OpFunctionEnd
)";
  EXPECT_RULE_ERROR(
      test::validateText(test::replaced(mesh, "ACCESS", "%x = OpLoad %float %p"), "vulkan1.3"),
      "MeshEXT entry points do not read their outputs", "VUID-StandaloneSpirv-MeshEXT-07107");
  EXPECT_VALID(
      test::validateText(test::replaced(mesh, "ACCESS", "OpStore %p %float_1"), "vulkan1.3"));
}

// A shader of execution model MODEL (with the execution mode MODE) that runs BODY.
constexpr const char *kBarrierShader = R"(
OpCapability Shader
OpCapability Tessellation
OpMemoryModel Logical GLSL450
OpEntryPoint MODEL %main "main"
OpExecutionMode %main MODE
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%main = OpFunction %void None %fn
%entry = OpLabel
BODY
OpReturn
OpFunctionEnd
)";

Report barrier(std::string_view model, std::string_view mode, std::string_view body) {
  std::string text = test::replaced(kBarrierShader, "MODEL", model);
  text = test::replaced(text, "MODE", mode);
  return test::validateText(test::replaced(text, "BODY", body), "vulkan1.3");
}

TEST(ValVulkan, ControlBarrierScopesByExecutionModel) {
  EXPECT_VALID(barrier("Fragment", "OriginUpperLeft", "OpControlBarrier %uint_3 %uint_3 %uint_0"));
  EXPECT_VALID(barrier("GLCompute", "LocalSize 1 1 1", "OpControlBarrier %uint_2 %uint_2 %uint_0"));
  EXPECT_VALID(barrier("TessellationControl", "OutputVertices 3",
                       "OpControlBarrier %uint_2 %uint_3 %uint_0"));
  EXPECT_ERROR(barrier("TessellationControl", "OutputVertices 3",
                       "OpControlBarrier %uint_2 %uint_2 %uint_0"),
               "TessellationControl ones under the Vulkan memory model");
  EXPECT_ERROR(barrier("Fragment", "OriginUpperLeft", "OpControlBarrier %uint_2 %uint_2 %uint_0"),
               "in Vulkan its execution scope must be Subgroup in Fragment");
  EXPECT_ERROR(
      barrier("TessellationEvaluation", "Triangles", "OpControlBarrier %uint_2 %uint_3 %uint_0"),
      "in Vulkan its execution scope must be Subgroup");
  EXPECT_ERROR(barrier("Fragment", "OriginUpperLeft", "OpControlBarrier %uint_3 %uint_2 %uint_0"),
               "the Workgroup memory scope is for GLCompute, Task and Mesh entry points");
  EXPECT_ERROR(barrier("GLCompute", "LocalSize 1 1 1", "OpControlBarrier %uint_1 %uint_2 %uint_0"),
               "in Vulkan an execution scope is Workgroup or Subgroup");
}

// 2.16.1 / 2.16.2 / 3.6: the sets of execution modes an entry point may have.
TEST(ValModes, ExclusiveAndRepeatedModes) {
  auto tess = [](std::string_view modes) {
    std::string text = test::replaced(kBarrierShader, "MODEL", "TessellationEvaluation");
    text = test::replaced(text, "OpExecutionMode %main MODE", modes);
    return test::validateText(test::replaced(text, "BODY", ""));
  };
  EXPECT_VALID(tess("OpExecutionMode %main Triangles\nOpExecutionMode %main SpacingEqual\n"
                    "OpExecutionMode %main VertexOrderCw"));
  EXPECT_ERROR(tess("OpExecutionMode %main Triangles\nOpExecutionMode %main Quads"),
               "sets at most one of Triangles, Quads and Isolines");
  EXPECT_ERROR(
      tess("OpExecutionMode %main SpacingEqual\nOpExecutionMode %main SpacingFractionalOdd"),
      "sets at most one of SpacingEqual, SpacingFractionalEven and SpacingFractionalOdd");
  EXPECT_ERROR(tess("OpExecutionMode %main VertexOrderCw\nOpExecutionMode %main VertexOrderCcw"),
               "sets at most one of VertexOrderCw and VertexOrderCcw");
  EXPECT_ERROR(test::validateText(fragment("OpExecutionMode %main OriginUpperLeft\n"
                                           "OpExecutionMode %main DepthGreater\n"
                                           "OpExecutionMode %main DepthLess",
                                           "")),
               "sets at most one of DepthGreater, DepthLess and DepthUnchanged");
  EXPECT_ERROR(test::validateText(fragment("OpExecutionMode %main OriginUpperLeft\n"
                                           "OpExecutionMode %main EarlyFragmentTests\n"
                                           "OpExecutionMode %main EarlyFragmentTests",
                                           "")),
               "execution mode EarlyFragmentTests is applied to %1 more than once");
  // The float controls: once per Target Width.
  const std::string controls = "OpCapability Shader\nOpCapability DenormPreserve\n"
                               "OpCapability DenormFlushToZero";
  auto compute = [&](std::string_view modes) {
    std::string text = test::replaced(kBarrierShader, "MODEL", "GLCompute");
    text = test::replaced(text, "OpCapability Shader", controls);
    text = test::replaced(text, "OpExecutionMode %main MODE", modes);
    return test::validateText(test::replaced(text, "BODY", ""), "spv1.4");
  };
  EXPECT_VALID(compute("OpExecutionMode %main LocalSize 1 1 1\n"
                       "OpExecutionMode %main DenormPreserve 16\n"
                       "OpExecutionMode %main DenormFlushToZero 32"));
  EXPECT_ERROR(compute("OpExecutionMode %main LocalSize 1 1 1\n"
                       "OpExecutionMode %main DenormPreserve 32\n"
                       "OpExecutionMode %main DenormFlushToZero 32"),
               "at most one of DenormFlushToZero and DenormPreserve for Target Width 32");
  EXPECT_ERROR(compute("OpExecutionMode %main LocalSize 1 1 1\n"
                       "OpExecutionModeId %main LocalSizeId %uint_1 %uint_1 %uint_1"),
               "at most one of the LocalSize and LocalSizeId execution modes");
  EXPECT_ERROR(compute("OpExecutionMode %main LocalSize 4 0 1"),
               "the product of its dimensions must not be zero");
}

// 3.32.5: OpExecutionModeId for the modes whose operands are ids, which are constants.
TEST(ValModes, ExecutionModeIdOperands) {
  std::string text = test::replaced(kBarrierShader, "MODEL", "GLCompute");
  text = test::replaced(text, "BODY", "");
  EXPECT_VALID(test::validateText(
      test::replaced(text, "OpExecutionMode %main MODE",
                     "OpExecutionModeId %main LocalSizeId %uint_1 %uint_1 %uint_1"),
      "spv1.2"));
  const std::string undefined = test::replaced(
      test::replaced(text, "OpExecutionMode %main MODE",
                     "OpExecutionModeId %main LocalSizeId %u %uint_1 %uint_1"),
      "%uint_3 = OpConstant %uint 3", "%uint_3 = OpConstant %uint 3\n%u = OpUndef %uint");
  EXPECT_ERROR(test::validateText(undefined, "spv1.2"),
               "the Extra Operands of OpExecutionModeId must be constant instructions");
  EXPECT_ERROR(test::validateText(test::replaced(text, "OpExecutionMode %main MODE",
                                                 "OpExecutionModeId %main LocalSize 1 1 1"),
                                  "spv1.2"),
               "execution mode LocalSize takes literals: it is given by OpExecutionMode");
}

// SPV_KHR_workgroup_memory_explicit_layout: all of an entry point's Workgroup variables are Block
// structures, or none.
TEST(ValModes, ExplicitWorkgroupLayoutIsAllOrNothing) {
  const std::string text = R"(OpCapability Shader
OpCapability WorkgroupMemoryExplicitLayoutKHR
OpExtension "SPV_KHR_workgroup_memory_explicit_layout"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %a %b
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %A Block
OpMemberDecorate %A 0 Offset 0
DECO
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%A = OpTypeStruct %uint
%B = OpTypeStruct %uint
%pA = OpTypePointer Workgroup %A
%pB = OpTypePointer Workgroup %B
%a = OpVariable %pA Workgroup
%b = OpVariable %pB Workgroup
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
  EXPECT_VALID(test::validateText(
      test::replaced(text, "DECO", "OpDecorate %B Block\nOpMemberDecorate %B 0 Offset 0"),
      "spv1.4"));
  EXPECT_ERROR(test::validateText(test::replaced(text, "DECO", ""), "spv1.4"),
               "either all or none of the entry point's Workgroup variables are Block structures");
}

// OpControlBarrier before SPIR-V 1.3; OpBegin/EndInvocationInterlockEXT with an interlock mode;
// Vulkan's LocalSizeId from 1.3 on.
TEST(ValModes, BarriersInterlocksAndVulkanLocalSizeId) {
  std::string fragmentBarrier = test::replaced(kBarrierShader, "MODEL", "Fragment");
  fragmentBarrier = test::replaced(fragmentBarrier, "MODE", "OriginUpperLeft");
  fragmentBarrier =
      test::replaced(fragmentBarrier, "BODY", "OpControlBarrier %uint_3 %uint_3 %uint_0");
  EXPECT_VALID(test::validateText(fragmentBarrier, "spv1.3"));
  EXPECT_ERROR(
      test::validateText(fragmentBarrier, "spv1.2"),
      "before SPIR-V 1.3 it is for TessellationControl, GLCompute and Kernel entry points");
  const std::string interlock =
      fragment("OpExecutionMode %main OriginUpperLeft\nMODE", "", "", "%out");
  std::string withCapability =
      test::replaced(interlock, "OpCapability Shader",
                     "OpCapability Shader\nOpCapability FragmentShaderPixelInterlockEXT\n"
                     "OpExtension \"SPV_EXT_fragment_shader_interlock\"");
  withCapability = test::replaced(withCapability, "%entry = OpLabel",
                                  "%entry = OpLabel\nOpBeginInvocationInterlockEXT\n"
                                  "OpEndInvocationInterlockEXT");
  EXPECT_VALID(test::validateText(
      test::replaced(withCapability, "MODE", "OpExecutionMode %main PixelInterlockOrderedEXT")));
  EXPECT_ERROR(test::validateText(test::replaced(withCapability, "MODE", "")),
               "OpBeginInvocationInterlockEXT cannot run in the Fragment entry point");
  std::string localSizeId = test::replaced(kBarrierShader, "MODEL", "GLCompute");
  localSizeId = test::replaced(localSizeId, "OpExecutionMode %main MODE",
                               "OpExecutionModeId %main LocalSizeId %uint_1 %uint_1 %uint_1");
  localSizeId = test::replaced(localSizeId, "BODY", "");
  EXPECT_VALID(test::validateText(localSizeId, "vulkan1.3"));
  EXPECT_ERROR(test::validateText(localSizeId, "vulkan1.2"),
               "the LocalSizeId execution mode needs Vulkan 1.3");
}

// The Vulkan specification's SPIR-V capability table (checked for every Vulkan version, as
// spirv-val v2026.4 does): Kernel and Float16Buffer are no Vulkan capabilities, nor are OpenGL's
// SampledRect and ImageRect; a declared extension enables its capabilities.
TEST(ValVulkan, CapabilitiesOfEachVersion) {
  auto with = [](std::string_view caps) {
    return test::replaced(
        fragment("OpExecutionMode %main OriginUpperLeft", "OpDecorate %out Location 0"),
        "OpCapability Shader", caps);
  };
  EXPECT_VALID(test::validateText(with("OpCapability Shader"), "vulkan1.1"));
  EXPECT_ERROR(
      test::validateText(with("OpCapability Shader\nOpCapability Float16Buffer"), "vulkan1.1"),
      "the Float16Buffer capability is not one Vulkan 1.1 supports");
  EXPECT_ERROR(test::validateText(with("OpCapability Shader\nOpCapability Kernel"), "vulkan1.0"),
               "the Kernel capability is not one Vulkan 1.0 supports");
  EXPECT_ERROR(
      test::validateText(with("OpCapability Shader\nOpCapability SampledRect"), "vulkan1.3"),
      "the SampledRect capability is not one Vulkan 1.3 supports");
  EXPECT_VALID(test::validateText(with("OpCapability Shader\nOpCapability SampledRect"), "spv1.6"));
  EXPECT_VALID(test::validateText(with("OpCapability Shader\nOpCapability FragmentFullyCoveredEXT\n"
                                       "OpExtension \"SPV_EXT_fragment_fully_covered\""),
                                  "vulkan1.1"));
}

// VUID-StandaloneSpirv-PixelCenterInteger-04654: "The PixelCenterInteger Execution Mode must not
// be used".
TEST(ValVulkan, NoPixelCenterInteger) {
  const std::string text = fragment("OpExecutionMode %main OriginUpperLeft\n"
                                    "OpExecutionMode %main PixelCenterInteger",
                                    "OpDecorate %out Location 0");
  EXPECT_RULE_ERROR(test::validateText(text, "vulkan1.3"),
                    "Vulkan does not allow the PixelCenterInteger execution mode",
                    "VUID-StandaloneSpirv-PixelCenterInteger-04654");
  EXPECT_VALID(test::validateText(text));
}

// VUID-StandaloneSpirv-OpEntryPoint-09658 / -09659: a built-in at most once per interface.
TEST(ValVulkan, BuiltInsOncePerInterface) {
  const std::string coords = "%v4 = OpTypePointer Input %v4float\n"
                             "%a = OpVariable %v4 Input\n%b = OpVariable %v4 Input";
  const std::string text = fragment("OpExecutionMode %main OriginUpperLeft",
                                    "OpDecorate %out Location 0\nOpDecorate %a BuiltIn FragCoord\n"
                                    "OpDecorate %b BuiltIn BUILTIN",
                                    coords, "%out %a %b");
  EXPECT_RULE_ERROR(test::validateText(test::replaced(text, "BUILTIN", "FragCoord"), "vulkan1.3"),
                    "the Input interface of the entry point uses the FragCoord built-in more than "
                    "once",
                    "VUID-StandaloneSpirv-OpEntryPoint-09658");
  EXPECT_VALID(test::validateText(test::replaced(text, "BUILTIN", "FragCoord")));
}

// VUID-StandaloneSpirv-Input-09557: no PhysicalStorageBuffer pointers in user-defined interfaces.
TEST(ValVulkan, NoPhysicalPointersInInterfaces) {
  std::string text = fragment("OpExecutionMode %main OriginUpperLeft",
                              "OpDecorate %out Location 0\nOpDecorate %in Location 0\n"
                              "OpDecorate %in Flat",
                              "%pp = OpTypePointer PhysicalStorageBuffer %float\n"
                              "%S = OpTypeStruct %pp\n%ptr_in = OpTypePointer Input %S\n"
                              "%in = OpVariable %ptr_in Input",
                              "%out %in");
  text = test::replaced(text, "OpCapability Shader",
                        "OpCapability Shader\nOpCapability PhysicalStorageBufferAddresses");
  text = test::replaced(text, "OpMemoryModel Logical GLSL450",
                        "OpMemoryModel PhysicalStorageBuffer64 GLSL450");
  EXPECT_RULE_ERROR(test::validateText(text, "vulkan1.3"),
                    "holds a PhysicalStorageBuffer pointer, which no interface variable may",
                    "VUID-StandaloneSpirv-Input-09557");
  EXPECT_VALID(test::validateText(text, "spv1.6"));
}

TEST(ValVulkan, UserInterfaceVariablesNeedALocation) {
  EXPECT_ERROR(
      test::validateText(fragment("OpExecutionMode %main OriginUpperLeft", ""), "vulkan1.3"),
      "needs a Location decoration");
  EXPECT_VALID(test::validateText(fragment("OpExecutionMode %main OriginUpperLeft", ""), "spv1.6"));
  EXPECT_ERROR(test::validateText(fragment("OpExecutionMode %main OriginUpperLeft",
                                           "OpDecorate %out BuiltIn FragCoord\n"
                                           "OpDecorate %out Location 0"),
                                  "vulkan1.3"),
               "cannot have a Location or Component");
}

TEST(ValVulkan, IntegerFragmentInputsAreFlat) {
  const std::string extra = "%int = OpTypeInt 32 1\n%ptr_in = OpTypePointer Input %int\n"
                            "%in = OpVariable %ptr_in Input";
  EXPECT_ERROR(test::validateText(fragment("OpExecutionMode %main OriginUpperLeft",
                                           "OpDecorate %out Location 0\n"
                                           "OpDecorate %in Location 0",
                                           extra, "%out %in"),
                                  "vulkan1.3"),
               "decorate it Flat");
  EXPECT_VALID(test::validateText(fragment("OpExecutionMode %main OriginUpperLeft",
                                           "OpDecorate %out Location 0\n"
                                           "OpDecorate %in Location 0\nOpDecorate %in Flat",
                                           extra, "%out %in"),
                                  "vulkan1.3"));
}

// Built-in inputs too (as glslang decorates gl_SampleID and gl_PrimitiveID), but not an array of
// them: spirv-val does not ask it of SampleMask.
TEST(ValVulkan, IntegerBuiltInFragmentInputsAreFlat) {
  const std::string extra = "%int = OpTypeInt 32 1\n%ptr_in = OpTypePointer Input %int\n"
                            "%in = OpVariable %ptr_in Input\n%uint_1 = OpConstant %int 1\n"
                            "%mask = OpTypeArray %int %uint_1\n"
                            "%ptr_mask = OpTypePointer Input %mask\n"
                            "%sm = OpVariable %ptr_mask Input";
  const std::string decorations = "OpDecorate %out Location 0\nOpDecorate %in BuiltIn SampleId\n"
                                  "OpDecorate %sm BuiltIn SampleMask";
  const std::string text =
      "OpCapability SampleRateShading\n" +
      fragment("OpExecutionMode %main OriginUpperLeft", decorations, extra, "%out %in %sm");
  EXPECT_ERROR(test::validateText(text, "vulkan1.3"), "fragment input %gl_SampleID holds integers");
  EXPECT_VALID(
      test::validateText(test::replaced(text, "OpDecorate %sm BuiltIn SampleMask",
                                        "OpDecorate %sm BuiltIn SampleMask\nOpDecorate %in Flat"),
                         "vulkan1.3"));
}

// VUID-StandaloneSpirv-Flat-06201 / -06202: fragment outputs and vertex inputs are not
// interpolated.
TEST(ValVulkan, NoInterpolationOnFragmentOutputsOrVertexInputs) {
  const std::string origin = "OpExecutionMode %main OriginUpperLeft";
  EXPECT_ERROR(
      test::validateText(fragment(origin, "OpDecorate %out Location 0\nOpDecorate %out Flat"),
                         "vulkan1.3"),
      "is not interpolated: it cannot be decorated Flat");
  std::string vertex = test::replaced(
      fragment("",
               "OpDecorate %out Location 0\nOpDecorate %in Location 0\n"
               "OpDecorate %in NoPerspective",
               "%ptr_in = OpTypePointer Input %v4float\n%in = OpVariable %ptr_in Input",
               "%out %in"),
      "OpEntryPoint Fragment", "OpEntryPoint Vertex");
  EXPECT_ERROR(test::validateText(vertex, "vulkan1.3"),
               "vertex input %3 is not interpolated: it cannot be decorated NoPerspective");
  EXPECT_VALID(test::validateText(vertex, "spv1.6"));
  EXPECT_VALID(test::validateText(
      test::replaced(vertex, "OpDecorate %in NoPerspective", "OpDecorate %out NoPerspective"),
      "vulkan1.3"));
}

// 2.16.1: at most one structure with BuiltIn members per storage class in an entry point's
// interface (arrays of them are not counted, as in spirv-val).
TEST(ValModes, OneBuiltInBlockPerStorageClass) {
  const std::string blocks = "%P = OpTypeStruct %v4float\n%Q = OpTypeStruct %float\n"
                             "%ptr_P = OpTypePointer Output %P\n%ptr_Q = OpTypePointer Output %Q\n"
                             "%a = OpVariable %ptr_P Output\n%b = OpVariable %ptr_Q Output";
  const std::string decos = "OpMemberDecorate %P 0 BuiltIn Position\nOpDecorate %P Block\n"
                            "OpMemberDecorate %Q 0 BuiltIn PointSize\nOpDecorate %Q Block";
  auto vertex = [&](std::string_view interface) {
    return test::replaced(fragment("", decos, blocks, interface), "OpEntryPoint Fragment",
                          "OpEntryPoint Vertex");
  };
  EXPECT_VALID(test::validateText(vertex("%a"), "spv1.6"));
  EXPECT_ERROR(test::validateText(vertex("%a %b"), "spv1.6"),
               "the entry point consumes 2 Output structures with BuiltIn members");
}

TEST(ValVulkan, MemoryBarrierSemantics) {
  const std::string extra = "%uint = OpTypeInt 32 0\n%uint_1 = OpConstant %uint 1\n"
                            "%none = OpConstant %uint 0\n%acqrel_uniform = OpConstant %uint 72";
  const std::string text =
      fragment("OpExecutionMode %main OriginUpperLeft", "OpDecorate %out Location 0", extra);
  const std::string bad = test::replaced(text, "%entry = OpLabel\n",
                                         "%entry = OpLabel\nOpMemoryBarrier %uint_1 %none\n");
  const std::string good = test::replaced(
      text, "%entry = OpLabel\n", "%entry = OpLabel\nOpMemoryBarrier %uint_1 %acqrel_uniform\n");
  EXPECT_ERROR(test::validateText(bad, "vulkan1.3"), "its semantics need Acquire");
  EXPECT_VALID(test::validateText(good, "vulkan1.3"));
}

TEST(ValVulkan, InterfaceLocationsDoNotOverlap) {
  const std::string extra = "%ptr_out2 = OpTypePointer Output %float\n"
                            "%out2 = OpVariable %ptr_out2 Output";
  EXPECT_ERROR(test::validateText(fragment("OpExecutionMode %main OriginUpperLeft",
                                           "OpDecorate %out Location 0\n"
                                           "OpDecorate %out2 Location 0\n"
                                           "OpDecorate %out2 Component 3",
                                           extra, "%out %out2"),
                                  "vulkan1.3"),
               "both take location 0, component 3");
  EXPECT_VALID(test::validateText(fragment("OpExecutionMode %main OriginUpperLeft",
                                           "OpDecorate %out Location 0\n"
                                           "OpDecorate %out2 Location 1",
                                           extra, "%out %out2"),
                                  "vulkan1.3"));
}

TEST(ValVulkan, OriginLowerLeftIsNotVulkan) {
  EXPECT_ERROR(test::validateText(
                   fragment("OpExecutionMode %main OriginLowerLeft", "OpDecorate %out Location 0"),
                   "vulkan1.3"),
               "not OriginLowerLeft");
}

TEST(ValVulkan, ComputeGivesItsWorkgroupSize) {
  const char *text = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
  EXPECT_ERROR(test::validateText(text, "vulkan1.3"), "must give its workgroup size");
  EXPECT_VALID(test::validateText(text, "spv1.6"));
  // Task and mesh shaders too (VUID-StandaloneSpirv-None-10685).
  std::string task = test::replaced(text, "OpEntryPoint GLCompute", "OpEntryPoint TaskEXT");
  task = test::replaced(task, "OpCapability Shader",
                        "OpCapability Shader\nOpCapability MeshShadingEXT\n"
                        "OpExtension \"SPV_EXT_mesh_shader\"");
  EXPECT_RULE_ERROR(test::validateText(task, "vulkan1.3"),
                    "a TaskEXT entry point must give its workgroup size",
                    "VUID-StandaloneSpirv-None-10685");
  EXPECT_VALID(test::validateText(
      test::replaced(task, "%void = OpTypeVoid",
                     "OpExecutionMode %main LocalSize 32 1 1\n%void = OpTypeVoid"),
      "vulkan1.3"));
}

TEST(ValVulkan, InitializersOnlyWhereVulkanAllowsThem) {
  // VUID-StandaloneSpirv-OpVariable-04651 and -04734: Output, Private, Function and Workgroup
  // variables may have an initializer, a Workgroup one only OpConstantNull.
  const std::string text = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %v
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%zero = OpConstantNull %uint
%seven = OpConstant %uint 7
%ptr = OpTypePointer @class %uint
%v = OpVariable %ptr @class @init
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
  const auto with = [&](std::string_view storage, std::string_view init) {
    return test::replaced(test::replaced(text, "@class", storage), "@init", init);
  };
  EXPECT_VALID(test::validateText(with("Workgroup", "%zero"), "vulkan1.3"));
  EXPECT_VALID(test::validateText(with("Private", "%seven"), "vulkan1.3"));
  EXPECT_ERROR(test::validateText(with("Workgroup", "%seven"), "vulkan1.3"),
               "the initializer %uint_7 of a Workgroup variable must be an OpConstantNull");
  EXPECT_ERROR(test::validateText(with("StorageBuffer", "%zero"), "vulkan1.3"),
               "a variable with an initializer must be in the Output, Private, Function or "
               "Workgroup storage class, not StorageBuffer");
  // The universal rules allow both.
  EXPECT_VALID(test::validateText(with("Workgroup", "%seven"), "spv1.6"));
}

} // namespace
} // namespace spire::val
