// Per-instruction rules of atomics and barriers (3.32.18, 3.32.20, 3.25, 3.27), images
// (3.32.10), non-uniform groups (3.32.24) and the GLSL.std.450 / OpenCL.std instructions.
#include "ValTestUtil.h"

namespace spire::val {
namespace {

// A compute shader; globals other than %counter that the body uses are named in `interface`.
std::string shader(std::string_view caps, std::string_view globals, std::string_view body,
                   std::string_view interface = "") {
  return "OpCapability Shader\n" + std::string(caps) +
         "\n%glsl = OpExtInstImport \"GLSL.std.450\"\nOpMemoryModel Logical GLSL450\n"
         "OpEntryPoint GLCompute %main \"main\" %counter " +
         std::string(interface) + "\n" + "OpExecutionMode %main LocalSize 1 1 1\n" +
         R"(%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v3float = OpTypeVector %float 3
%v4float = OpTypeVector %float 4
%v2float = OpTypeVector %float 2
%v4uint = OpTypeVector %uint 4
%int_1 = OpConstant %int 1
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_9 = OpConstant %uint 9
%uint_6 = OpConstant %uint 6
%float_1 = OpConstant %float 1
%true = OpConstantTrue %bool
%ptr_wg_uint = OpTypePointer Workgroup %uint
%counter = OpVariable %ptr_wg_uint Workgroup
)" + std::string(globals) +
         "\n%main = OpFunction %void None %fn\n%entry = OpLabel\n" + std::string(body) +
         "\nOpReturn\nOpFunctionEnd\n";
}

TEST(ValAtomics, PointerValueAndResultTypes) {
  EXPECT_VALID(test::validateText(shader("", "",
                                         "%a = OpAtomicIAdd %uint %counter %uint_2 "
                                         "%uint_0 %uint_1")));
  EXPECT_ERROR(test::validateText(shader("", "",
                                         "%a = OpAtomicIAdd %int %counter %uint_2 "
                                         "%uint_0 %uint_1")),
               "is not the type the pointer points to");
  EXPECT_ERROR(test::validateText(shader("", "",
                                         "%a = OpAtomicIAdd %uint %counter %uint_2 "
                                         "%uint_0 %int_1")),
               "the value %int_1 has type %int, not %uint");
}

TEST(ValAtomics, ScopesAndSemantics) {
  EXPECT_ERROR(test::validateText(shader("", "",
                                         "%a = OpAtomicIAdd %uint %counter %uint_9 "
                                         "%uint_0 %uint_1")),
               "which is no scope");
  // Acquire | Release (0x6) sets two ordering bits.
  EXPECT_ERROR(test::validateText(shader("", "",
                                         "%a = OpAtomicIAdd %uint %counter %uint_2 "
                                         "%uint_6 %uint_1")),
               "sets more than one of Acquire, Release");
  EXPECT_ERROR(test::validateText(shader("", "", "OpControlBarrier %uint_2 %uint_2 %float_1")),
               "must be a 32-bit integer scalar");
  EXPECT_ERROR(test::validateText(shader("", "", "OpMemoryBarrier %uint_0 %uint_0"), "vulkan1.3"),
               "Vulkan has no CrossDevice scope");
}

// 2.16.1 / 2.16.2 / VUID-StandaloneSpirv-None-04686: where atomics may point.
TEST(ValAtomics, StorageClasses) {
  const std::string functionAtomic = shader("", "%ptr_fn_uint = OpTypePointer Function %uint",
                                            "%v = OpVariable %ptr_fn_uint Function\n"
                                            "%a = OpAtomicIAdd %uint %v %uint_2 %uint_0 %uint_1");
  EXPECT_ERROR(test::validateText(functionAtomic), "atomics cannot operate on Function memory");
  EXPECT_ERROR(test::validateText(functionAtomic, "vulkan1.3"),
               "in Vulkan atomics operate on Uniform, Workgroup");
  EXPECT_ERROR(
      test::validateText(shader("", R"(%ptr_priv_uint = OpTypePointer Private %uint
%p = OpVariable %ptr_priv_uint Private)",
                                "%a = OpAtomicIAdd %uint %p %uint_2 %uint_0 %uint_1", "%p")),
      "in the Private storage class, which atomics cannot use");
  // Kernels may use Function memory.
  EXPECT_VALID(
      test::validateText(test::kernelModule("", "%ptr = OpTypePointer Function %uint",
                                            "%v = OpVariable %ptr Function\n"
                                            "%a = OpAtomicIAdd %uint %v %uint_2 %uint_0 %uint_1"),
                         "opencl2.0"));
}

// 2.16.2: scopes and semantics of shaders are OpConstants.
TEST(ValAtomics, ShaderScopesAndSemanticsAreConstants) {
  EXPECT_VALID(test::validateText(shader("", "", "OpControlBarrier %uint_2 %uint_2 %uint_0")));
  EXPECT_ERROR(test::validateText(shader("", "",
                                         "%s = OpIAdd %uint %uint_2 %uint_0\n"
                                         "OpControlBarrier %s %uint_2 %uint_0")),
               "scope %25 must be an OpConstant");
  EXPECT_ERROR(test::validateText(shader("", "%spec = OpSpecConstant %uint 0",
                                         "%a = OpAtomicIAdd %uint %counter %uint_2 %spec %uint_1")),
               "memory semantics %24 must be an OpConstant");
}

// 3.25 Memory Semantics: the bits that need the Vulkan memory model, and their companions.
TEST(ValAtomics, SemanticsBits) {
  // AcquireRelease | WorkgroupMemory | MakeAvailable (0x2108).
  const std::string available =
      shader("", "%sem = OpConstant %uint 0x2108", "OpMemoryBarrier %uint_2 %sem");
  EXPECT_ERROR(test::validateText(available), "MakeAvailable needs the VulkanMemoryModel");
  const std::string vulkanModel = test::replaced(
      test::replaced(available, "OpMemoryModel Logical GLSL450", "OpMemoryModel Logical Vulkan"),
      "OpCapability Shader", "OpCapability Shader\nOpCapability VulkanMemoryModel");
  EXPECT_VALID(test::validateText(vulkanModel, "spv1.5"));
  // MakeAvailable without a release (Acquire | WorkgroupMemory | MakeAvailable).
  EXPECT_ERROR(test::validateText(test::replaced(vulkanModel, "0x2108", "0x2102"), "spv1.5"),
               "MakeAvailable needs Release or AcquireRelease");
  // SequentiallyConsistent | WorkgroupMemory under the Vulkan memory model.
  EXPECT_ERROR(test::validateText(test::replaced(vulkanModel, "0x2108", "0x110"), "spv1.5"),
               "SequentiallyConsistent cannot be used with the Vulkan memory model");
  // Volatile (0x8000) on a barrier.
  EXPECT_ERROR(test::validateText(test::replaced(vulkanModel, "0x2108", "0x8108"), "spv1.5"),
               "Volatile is for atomic instructions only");
}

// 3.32.18: the orderings loads, stores and compare-exchanges may not have.
TEST(ValAtomics, OrderingsByInstruction) {
  // Unequal semantics Release (0x4) | WorkgroupMemory; Equal AcquireRelease | WorkgroupMemory.
  const std::string exchange =
      shader("", "%unequal = OpConstant %uint UNEQUAL\n%equal = OpConstant %uint EQUAL",
             "%a = OpAtomicCompareExchange %uint %counter %uint_2 %equal %unequal %uint_1 "
             "%uint_0");
  auto semantics = [&](std::string_view equal, std::string_view unequal) {
    return test::replaced(test::replaced(exchange, "UNEQUAL", unequal), "EQUAL", equal);
  };
  EXPECT_VALID(test::validateText(semantics("0x108", "0x102")));
  EXPECT_ERROR(test::validateText(semantics("0x108", "0x104")),
               "the Unequal semantics of a compare-exchange cannot release");
  // "Unequal cannot be set to a stronger memory-order than Equal" (Relaxed < Acquire, Release <
  // AcquireRelease < SequentiallyConsistent).
  EXPECT_ERROR(test::validateText(semantics("0x100", "0x102")),
               "order memory more strongly than the Equal semantics");
  EXPECT_ERROR(test::validateText(semantics("0x108", "0x110")),
               "order memory more strongly than the Equal semantics");
  EXPECT_VALID(test::validateText(semantics("0x104", "0x102")));
  // Vulkan: no SequentiallyConsistent atomic loads (0x110).
  const std::string load =
      shader("", "%seq = OpConstant %uint 0x110", "%a = OpAtomicLoad %uint %counter %uint_2 %seq");
  EXPECT_VALID(test::validateText(load));
  EXPECT_ERROR(test::validateText(load, "vulkan1.3"),
               "Vulkan has no SequentiallyConsistent atomic loads and stores");
  // Vulkan: an order names Vulkan memory and Vulkan memory has an order (MemorySemantics-10870,
  // -10871); no SequentiallyConsistent (-10866).
  const std::string barrier =
      shader("", "%sem = OpConstant %uint SEM", "OpControlBarrier %uint_2 %uint_2 %sem");
  EXPECT_VALID(test::validateText(test::replaced(barrier, "SEM", "0x108"), "vulkan1.3"));
  EXPECT_VALID(test::validateText(test::replaced(barrier, "SEM", "0"), "vulkan1.3"));
  EXPECT_RULE_ERROR(test::validateText(test::replaced(barrier, "SEM", "0x8"), "vulkan1.3"),
                    "an Acquire, Release or AcquireRelease order names the memory it orders",
                    "VUID-StandaloneSpirv-MemorySemantics-10870");
  EXPECT_VALID(test::validateText(test::replaced(barrier, "SEM", "0x8")));
  EXPECT_RULE_ERROR(
      test::validateText(shader("", "%uint_256 = OpConstant %uint 256",
                                "%a = OpAtomicIAdd %uint %counter %uint_2 %uint_256 %uint_1"),
                         "vulkan1.3"),
      "have an Acquire, Release or AcquireRelease order",
      "VUID-StandaloneSpirv-MemorySemantics-10871");
  EXPECT_RULE_ERROR(test::validateText(test::replaced(barrier, "SEM", "0x110"), "vulkan1.3"),
                    "Vulkan has no SequentiallyConsistent memory order",
                    "VUID-StandaloneSpirv-MemorySemantics-10866");
  // Vulkan: ordered semantics with the Invocation memory scope (4).
  EXPECT_ERROR(
      test::validateText(shader("", "%acq = OpConstant %uint 0x102\n%uint_4 = OpConstant %uint 4",
                                "%a = OpAtomicIAdd %uint %counter %uint_4 %acq %uint_1", ""),
                         "vulkan1.3"),
      "the semantics of an Invocation memory scope are None");
}

// 3.27 Scope <id>: QueueFamily and Device under the VulkanMemoryModel capability.
TEST(ValAtomics, ScopesOfTheVulkanMemoryModel) {
  const std::string queueFamily =
      shader("", "%uint_5 = OpConstant %uint 5",
             "%a = OpAtomicIAdd %uint %counter %uint_5 %uint_0 %uint_1");
  EXPECT_ERROR(test::validateText(queueFamily),
               "the QueueFamily memory scope needs the VulkanMemoryModel capability");
  const std::string device = shader("OpCapability VulkanMemoryModel", "",
                                    "%a = OpAtomicIAdd %uint %counter %uint_1 %uint_0 %uint_1");
  const std::string vulkanDevice =
      test::replaced(device, "OpMemoryModel Logical GLSL450", "OpMemoryModel Logical Vulkan");
  EXPECT_ERROR(test::validateText(vulkanDevice, "spv1.5"),
               "needs the VulkanMemoryModelDeviceScope");
  EXPECT_VALID(test::validateText(
      test::replaced(vulkanDevice, "OpCapability VulkanMemoryModel",
                     "OpCapability VulkanMemoryModel\nOpCapability VulkanMemoryModelDeviceScope"),
      "spv1.5"));
}

// 64-bit integer atomics need Int64Atomics everywhere; the flag test-and-set gives a boolean;
// named barriers are of OpTypeNamedBarrier.
TEST(ValAtomics, WidthsFlagsAndNamedBarriers) {
  EXPECT_ERROR(test::validateText(shader("OpCapability Int64", R"(%ulong = OpTypeInt 64 0
%ulong_1 = OpConstant %ulong 1
%ptr_wg_ulong = OpTypePointer Workgroup %ulong
%wide = OpVariable %ptr_wg_ulong Workgroup)",
                                         "%a = OpAtomicIAdd %ulong %wide %uint_2 %uint_0 %ulong_1",
                                         "%wide")),
               "64-bit integer atomics need the Int64Atomics capability");
  const std::string kernel =
      test::kernelModule("OpCapability NamedBarrier",
                         "%nb = OpTypeNamedBarrier\n%ptr = OpTypePointer Workgroup %uint\n"
                         "%flag = OpVariable %ptr Workgroup",
                         "%t = OpAtomicFlagTestAndSet RESULT %flag %uint_2 %uint_0\n"
                         "%b = OpNamedBarrierInitialize BARRIER %uint_2");
  const std::string valid =
      test::replaced(test::replaced(kernel, "RESULT", "%bool"), "BARRIER", "%nb");
  EXPECT_VALID(test::validateText(valid, "spv1.1"));
  EXPECT_ERROR(
      test::validateText(
          test::replaced(test::replaced(kernel, "RESULT", "%uint"), "BARRIER", "%nb"), "spv1.1"),
      "OpAtomicFlagTestAndSet must be a boolean scalar");
  EXPECT_ERROR(
      test::validateText(
          test::replaced(test::replaced(kernel, "RESULT", "%bool"), "BARRIER", "%uint"), "spv1.1"),
      "OpNamedBarrierInitialize: the result type %uint must be OpTypeNamedBarrier");
}

// RulesMisc: OpReadClockKHR (SPV_KHR_shader_clock, VUID-StandaloneSpirv-OpReadClockKHR-04652),
// OpAssumeTrueKHR and OpExpectKHR (SPV_KHR_expect_assume).
TEST(ValMisc, ClockExpectAndAssume) {
  const std::string clock = "OpCapability ShaderClockKHR\nOpExtension \"SPV_KHR_shader_clock\"";
  const std::string v2uint = "%v2uint = OpTypeVector %uint 2";
  EXPECT_VALID(test::validateText(shader(clock, v2uint, "%c = OpReadClockKHR %v2uint %uint_3")));
  EXPECT_ERROR(test::validateText(shader(clock, v2uint, "%c = OpReadClockKHR %v4uint %uint_3")),
               "OpReadClockKHR: the result type %v4uint must be a 64-bit unsigned integer scalar "
               "or a vector of two 32-bit unsigned integers");
  EXPECT_ERROR(test::validateText(shader(clock, v2uint, "%c = OpReadClockKHR %v2uint %uint_2")),
               "OpReadClockKHR: the scope %uint_2 must be Subgroup or Device");
  const std::string expect = "OpCapability ExpectAssumeKHR\nOpExtension \"SPV_KHR_expect_assume\"";
  EXPECT_VALID(test::validateText(
      shader(expect, "", "OpAssumeTrueKHR %true\n%x = OpExpectKHR %uint %uint_1 %uint_0")));
  EXPECT_ERROR(test::validateText(shader(expect, "", "OpAssumeTrueKHR %uint_1")),
               "OpAssumeTrueKHR: Condition %uint_1 must be a boolean scalar");
  EXPECT_ERROR(test::validateText(shader(expect, "", "%x = OpExpectKHR %uint %uint_1 %true")),
               "OpExpectKHR: ExpectedValue %true must be of the result type %uint");
  EXPECT_ERROR(
      test::validateText(shader(expect, "", "%x = OpExpectKHR %float %float_1 %float_1")),
      "OpExpectKHR: the result type %float must be an integer or boolean scalar or vector");
}

// The KHR subgroup instructions and rotation (SPV_KHR_shader_ballot, SPV_KHR_subgroup_vote,
// SPV_KHR_subgroup_rotate), and the AMD group operations.
TEST(ValGroups, KhrSubgroupInstructions) {
  const std::string ballot =
      "OpCapability SubgroupBallotKHR\nOpExtension \"SPV_KHR_shader_ballot\"";
  EXPECT_VALID(
      test::validateText(shader(ballot, "",
                                "%b = OpSubgroupBallotKHR %v4uint %true\n"
                                "%f = OpSubgroupFirstInvocationKHR %uint %uint_1\n"
                                "%r = OpSubgroupReadInvocationKHR %uint %uint_1 %uint_0")));
  EXPECT_ERROR(test::validateText(shader(ballot, "", "%b = OpSubgroupBallotKHR %uint %true")),
               "OpSubgroupBallotKHR: the result type %uint must be a vector of four 32-bit "
               "integers");
  EXPECT_ERROR(test::validateText(
                   shader(ballot, "", "%r = OpSubgroupReadInvocationKHR %uint %float_1 %uint_0")),
               "OpSubgroupReadInvocationKHR: Value %float_1 must be of the result type %uint");
  const std::string vote = "OpCapability SubgroupVoteKHR\nOpExtension \"SPV_KHR_subgroup_vote\"";
  EXPECT_ERROR(test::validateText(shader(vote, "", "%a = OpSubgroupAllKHR %bool %uint_1")),
               "OpSubgroupAllKHR: Predicate %uint_1 must be a boolean scalar");
  const std::string rotate = "OpCapability GroupNonUniformRotateKHR\nOpExtension "
                             "\"SPV_KHR_subgroup_rotate\"";
  // (3.32.5: a SPIR-V 1.3 interface lists no Workgroup variable.)
  EXPECT_VALID(test::validateText(
      test::replaced(
          shader(rotate, "", "%r = OpGroupNonUniformRotateKHR %float %uint_3 %float_1 %uint_1"),
          "\"main\" %counter", "\"main\""),
      "spv1.3"));
  EXPECT_ERROR(
      test::validateText(
          shader(rotate, "", "%r = OpGroupNonUniformRotateKHR %float %uint_3 %float_1 %int_1"),
          "spv1.3"),
      "OpGroupNonUniformRotateKHR: Delta %int_1 must be an unsigned integer scalar");
  const std::string amd = "OpCapability Groups\nOpExtension \"SPV_AMD_shader_ballot\"";
  EXPECT_ERROR(test::validateText(
                   shader(amd, "", "%s = OpGroupIAddNonUniformAMD %uint %uint_3 Reduce %true")),
               "the operand %true has type %bool, not the result type %uint");
}

// 3.32.13 (SPIR-V 1.6): the integer dot products.
TEST(ValArithmetic, IntegerDotProducts) {
  const std::string caps = "OpCapability DotProduct\nOpCapability DotProductInputAll\n"
                           "OpCapability DotProductInput4x8BitPacked";
  const std::string globals = "%v4int = OpTypeVector %int 4\n%zi = OpConstantNull %v4int\n"
                              "%zu = OpConstantNull %v4uint";
  EXPECT_VALID(
      test::validateText(shader(caps, globals,
                                "%a = OpSDot %int %zi %zi\n%b = OpUDot %uint %zu %zu\n"
                                "%c = OpSUDot %int %zi %zu\n"
                                "%d = OpSDotAccSat %int %zi %zi %int_1\n"
                                "%e = OpUDot %uint %uint_1 %uint_1 PackedVectorFormat4x8Bit")));
  EXPECT_ERROR(test::validateText(shader(caps, globals, "%a = OpSDot %int %zi %zu")),
               "OpSDot: Vector 1 and Vector 2 must have the same type");
  EXPECT_ERROR(test::validateText(shader(caps, globals, "%a = OpUDot %uint %zi %zi")),
               "OpUDot: the vectors' components must be unsigned");
  EXPECT_ERROR(test::validateText(shader(caps, globals, "%a = OpUDot %uint %uint_1 %uint_1")),
               "OpUDot: 32-bit integer inputs need a Packed Vector Format");
  EXPECT_ERROR(test::validateText(shader(caps, globals, "%d = OpSDotAccSat %int %zi %zi %uint_1")),
               "OpSDotAccSat: Accumulator %uint_1 must be of the result type %int");
}

// 3.32.10 OpImageSparseTexelsResident.
TEST(ValImages, SparseTexelsResident) {
  const std::string sparse = "OpCapability SparseResidency";
  EXPECT_VALID(
      test::validateText(shader(sparse, "", "%r = OpImageSparseTexelsResident %bool %uint_1")));
  EXPECT_ERROR(
      test::validateText(shader(sparse, "", "%r = OpImageSparseTexelsResident %bool %float_1")),
      "OpImageSparseTexelsResident: Resident Code %float_1 must be an integer scalar");
}

TEST(ValImages, SamplingTakesASampledImageAndEnoughCoordinates) {
  const std::string globals = R"(
%img = OpTypeImage %float 2D 0 0 0 1 Unknown
%simg = OpTypeSampledImage %img
%ptr_simg = OpTypePointer UniformConstant %simg
%tex = OpVariable %ptr_simg UniformConstant
%coord2 = OpConstantComposite %v2float %float_1 %float_1
)";
  EXPECT_VALID(test::validateText(shader("", globals, R"(
%s = OpLoad %simg %tex
%x = OpImageSampleExplicitLod %v4float %s %coord2 Lod %float_1)",
                                         "%tex")));
  EXPECT_ERROR(test::validateText(shader("", globals, R"(
%s = OpLoad %simg %tex
%x = OpImageSampleExplicitLod %v4float %s %float_1 Lod %float_1)")),
               "the coordinate has 1 components; this image needs at least 2");
  EXPECT_ERROR(test::validateText(shader("", globals, R"(
%s = OpLoad %simg %tex
%x = OpImageSampleExplicitLod %v3float %s %coord2 Lod %float_1)")),
               "sampling returns a four-component vector");
  EXPECT_ERROR(test::validateText(shader("", globals, R"(
%s = OpLoad %simg %tex
%i = OpImage %img %s
%x = OpImageSampleExplicitLod %v4float %i %coord2 Lod %float_1)")),
               "is not an OpTypeSampledImage");
}

TEST(ValImages, LodOperandsAndQueries) {
  const std::string globals = R"(
%img = OpTypeImage %float 2D 0 0 0 1 Unknown
%simg = OpTypeSampledImage %img
%ptr_simg = OpTypePointer UniformConstant %simg
%tex = OpVariable %ptr_simg UniformConstant
%coord2 = OpConstantComposite %v2float %float_1 %float_1
%v2int = OpTypeVector %int 2
)";
  auto with = [&](std::string_view body) {
    return test::validateText(shader("OpCapability ImageQuery", globals,
                                     "%s = OpLoad %simg %tex\n" + std::string(body), "%tex"));
  };
  EXPECT_VALID(with("%x = OpImageSampleExplicitLod %v4float %s %coord2 Lod %float_1\n"
                    "%i = OpImage %img %s\n%q = OpImageQuerySizeLod %v2int %i %int_1"));
  EXPECT_ERROR(with("%x = OpImageSampleExplicitLod %v4float %s %coord2 None"),
               "explicit-LOD sampling needs the Lod or Grad image operand");
  EXPECT_ERROR(with("%x = OpImageSampleExplicitLod %v4float %s %coord2 Lod %int_1"),
               "Lod must be a 32-bit floating-point scalar");
  EXPECT_ERROR(with("%x = OpImageSampleExplicitLod %v4float %s %coord2 Bias|Lod %float_1 "
                    "%float_1"),
               "the Bias image operand is for implicit-LOD sampling");
  EXPECT_ERROR(with("%i = OpImage %img %s\n%q = OpImageQuerySizeLod %int %i %int_1"),
               "the size of this image has 2 components, not 1");
}

TEST(ValImages, StorageImageWritesWithoutFormatNeedTheCapability) {
  const std::string globals = R"(
%img = OpTypeImage %float 2D 0 0 0 2 Unknown
%ptr_img = OpTypePointer UniformConstant %img
%image = OpVariable %ptr_img UniformConstant
%v2int = OpTypeVector %int 2
%c = OpConstantComposite %v2int %int_1 %int_1
%texel = OpConstantComposite %v4float %float_1 %float_1 %float_1 %float_1
)";
  const std::string body = "%i = OpLoad %img %image\nOpImageWrite %i %c %texel";
  EXPECT_ERROR(test::validateText(shader("", globals, body, "%image")),
               "needs the StorageImageWriteWithoutFormat capability");
  EXPECT_VALID(test::validateText(
      shader("OpCapability StorageImageWriteWithoutFormat", globals, body, "%image")));
}

TEST(ValGroups, NonUniformTypesAndScopes) {
  const std::string caps =
      "OpCapability GroupNonUniformArithmetic\nOpCapability GroupNonUniformBallot\n"
      "OpCapability GroupNonUniformClustered";
  EXPECT_VALID(test::validateText(shader(caps, "", R"(
%a = OpGroupNonUniformFAdd %float %uint_3 Reduce %float_1
%b = OpGroupNonUniformBallot %v4uint %uint_3 %true
%c = OpGroupNonUniformIAdd %uint %uint_3 ClusteredReduce %uint_1 %uint_2)"),
                                  "vulkan1.3"));
  // "It must be Subgroup" (3.32.24), in every environment (VUID-StandaloneSpirv-None-04642).
  const std::string workgroup = shader(caps, "",
                                       "%a = OpGroupNonUniformFAdd %float %uint_2 "
                                       "Reduce %float_1");
  EXPECT_RULE_ERROR(test::validateText(workgroup, "vulkan1.3"),
                    "the execution scope of a non-uniform instruction must be Subgroup",
                    "VUID-StandaloneSpirv-None-04642");
  EXPECT_RULE_ERROR(test::validateText(workgroup),
                    "the execution scope of a non-uniform instruction must be Subgroup", "3.32.24");
  // The integer reductions' Value has the result's type, signedness included.
  EXPECT_ERROR(test::validateText(shader(caps, "",
                                         "%c = OpGroupNonUniformSMin %uint %uint_3 "
                                         "Reduce %int_1"),
                                  "vulkan1.3"),
               "has type %int, not the result type %uint");
  EXPECT_ERROR(test::validateText(shader(caps, "",
                                         "%a = OpGroupNonUniformFAdd %float %uint_3 "
                                         "Reduce %int_1"),
                                  "vulkan1.3"),
               "has type %int, not the result type %float");
  EXPECT_ERROR(test::validateText(shader(caps, "",
                                         "%c = OpGroupNonUniformIAdd %uint %uint_3 "
                                         "ClusteredReduce %uint_1 %uint_3"),
                                  "vulkan1.3"),
               "ClusterSize must be a power of two, not 3");
  // SPV_NV_shader_subgroup_partitioned: the partitioned operations take a ballot (a
  // four-component integer vector) in the cluster size's place, and need it.
  const std::string partitioned = "OpCapability GroupNonUniformPartitionedNV\nOpExtension "
                                  "\"SPV_NV_shader_subgroup_partitioned\"";
  const std::string ballot = "%b = OpGroupNonUniformBallot %v4uint %uint_3 %true\n";
  EXPECT_VALID(test::validateText(
      shader(caps + "\n" + partitioned, "",
             ballot + "%a = OpGroupNonUniformFAdd %float %uint_3 PartitionedReduceNV %float_1 %b"),
      "vulkan1.3"));
  EXPECT_ERROR(test::validateText(shader(caps + "\n" + partitioned, "",
                                         "%a = OpGroupNonUniformFAdd %float %uint_3 "
                                         "PartitionedInclusiveScanNV %float_1 %uint_1"),
                                  "vulkan1.3"),
               "must be a four-component integer vector, not of type %uint");
  EXPECT_ERROR(test::validateText(shader(caps + "\n" + partitioned, "",
                                         "%a = OpGroupNonUniformFAdd %float %uint_3 "
                                         "PartitionedExclusiveScanNV %float_1"),
                                  "vulkan1.3"),
               "needs its ballot operand");
  EXPECT_ERROR(test::validateText(shader(caps, "",
                                         "%b = OpGroupNonUniformBallot %uint %uint_3 "
                                         "%true"),
                                  "vulkan1.3"),
               "vector of four 32-bit unsigned integers");
  // AllEqual compares scalars or vectors; a pointer was let through (found by fuzzing).
  const std::string vote = "OpCapability GroupNonUniformVote";
  EXPECT_VALID(test::validateText(
      shader(vote, "", "%e = OpGroupNonUniformAllEqual %bool %uint_3 %float_1"), "vulkan1.3"));
  EXPECT_ERROR(
      test::validateText(shader(vote, "", "%e = OpGroupNonUniformAllEqual %bool %uint_3 %counter"),
                         "vulkan1.3"),
      "the value must be a scalar or vector of floating-point, integer or boolean type");
}

TEST(ValGroups, BallotsAreVectorsOfFour32BitIntegers) {
  // What reads a ballot takes a vector of four 32-bit integers (3.32.24); the dialect fuzz target
  // found an integer scalar given to OpGroupNonUniformInverseBallot (spirv-val 2023.1 misses it).
  const std::string caps = "OpCapability GroupNonUniformBallot";
  const std::string ballot = "%b = OpGroupNonUniformBallot %v4uint %uint_3 %true\n";
  EXPECT_VALID(test::validateText(
      shader(caps, "",
             ballot + "%i = OpGroupNonUniformInverseBallot %bool %uint_3 %b\n"
                      "%e = OpGroupNonUniformBallotBitExtract %bool %uint_3 %b %uint_0\n"
                      "%c = OpGroupNonUniformBallotBitCount %uint %uint_3 Reduce %b\n"
                      "%l = OpGroupNonUniformBallotFindLSB %uint %uint_3 %b"),
      "vulkan1.3"));
  EXPECT_ERROR(test::validateText(
                   shader(caps, "", "%i = OpGroupNonUniformInverseBallot %bool %uint_3 %uint_1"),
                   "vulkan1.3"),
               "Value %uint_1 must be a ballot: a vector of four 32-bit integers");
  EXPECT_ERROR(test::validateText(shader(caps, "",
                                         ballot + "%c = OpGroupNonUniformBallotBitCount %bool "
                                                  "%uint_3 Reduce %b"),
                                  "vulkan1.3"),
               "the result type must be an integer scalar");
  EXPECT_ERROR(test::validateText(shader(caps, "",
                                         ballot + "%e = OpGroupNonUniformBallotBitExtract %bool "
                                                  "%uint_3 %b %true"),
                                  "vulkan1.3"),
               "Index %true must be an unsigned integer scalar");
  // The finds give, and BitExtract's Index is, an integer of Signedness 0.
  EXPECT_ERROR(test::validateText(
                   shader(caps, "", ballot + "%l = OpGroupNonUniformBallotFindLSB %int %uint_3 %b"),
                   "vulkan1.3"),
               "the result type of OpGroupNonUniformBallotFindLSB must be an unsigned integer");
  EXPECT_ERROR(test::validateText(shader(caps, "",
                                         ballot + "%e = OpGroupNonUniformBallotBitExtract %bool "
                                                  "%uint_3 %b %int_1"),
                                  "vulkan1.3"),
               "Index %int_1 must be an unsigned integer scalar");
  // The ballot itself: "whose Width operand is 32 and whose Signedness operand is 0".
  EXPECT_ERROR(test::validateText(shader(caps, "%v4int = OpTypeVector %int 4",
                                         "%b = OpGroupNonUniformBallot %v4int %uint_3 %true"),
                                  "vulkan1.3"),
               "the result of a ballot must be a vector of four 32-bit unsigned integers");
}

TEST(ValGroups, BroadcastAndShuffleLanes) {
  // The Id, Mask, Delta, Index or Direction is an integer scalar (3.32.24); a pointer was let
  // through (found by fuzzing the dialect: the verifier rejected it).
  const std::string caps = "OpCapability GroupNonUniformBallot\n"
                           "OpCapability GroupNonUniformShuffle\n"
                           "OpCapability GroupNonUniformQuad";
  const std::string lanes = R"(
%a = OpGroupNonUniformBroadcast %float %uint_3 %float_1 %uint_1
%b = OpGroupNonUniformShuffle %float %uint_3 %float_1 %lane
%c = OpGroupNonUniformQuadSwap %float %uint_3 %float_1 %uint_2
%d = OpGroupNonUniformQuadBroadcast %float %uint_3 %float_1 %uint_0)";
  const std::string load = "%lane = OpLoad %uint %counter";
  EXPECT_VALID(test::validateText(shader(caps, "", load + lanes), "vulkan1.3"));
  EXPECT_ERROR(
      test::validateText(
          shader(caps, "", "%a = OpGroupNonUniformBroadcast %float %uint_3 %float_1 %counter"),
          "vulkan1.3"),
      "must be an unsigned integer scalar (Signedness 0), not of type %_ptr_Workgroup_uint");
  EXPECT_ERROR(test::validateText(shader(caps, "",
                                         "%b = OpGroupNonUniformShuffleXor %float %uint_3 "
                                         "%float_1 %float_1"),
                                  "vulkan1.3"),
               "the Mask %float_1 must be an unsigned integer scalar");
  // "whose Signedness operand is 0" (spirv-val v2026.4 checks it; 2023.1 did not).
  EXPECT_ERROR(test::validateText(shader(caps, "",
                                         "%b = OpGroupNonUniformShuffle %float %uint_3 "
                                         "%float_1 %int_1"),
                                  "vulkan1.3"),
               "the Id %int_1 must be an unsigned integer scalar (Signedness 0)");
  EXPECT_ERROR(test::validateText(shader(caps, "",
                                         "%d = OpGroupNonUniformQuadBroadcast %float %uint_3 "
                                         "%float_1 %int_1"),
                                  "vulkan1.3"),
               "the Index %int_1 must be an unsigned integer scalar (Signedness 0)");
  // QuadSwap's Direction is always a constant; a broadcast's Id before SPIR-V 1.5.
  EXPECT_ERROR(test::validateText(shader(caps, "",
                                         load + "\n%c = OpGroupNonUniformQuadSwap %float %uint_3 "
                                                "%float_1 %lane"),
                                  "vulkan1.3"),
               "must come from a constant instruction");
  const std::string computed =
      shader(caps, "", load + "\n%a = OpGroupNonUniformBroadcast %float %uint_3 %float_1 %lane");
  EXPECT_VALID(test::validateText(computed, "vulkan1.3"));
  EXPECT_ERROR(test::validateText(computed, "vulkan1.1"),
               "must come from a constant instruction before SPIR-V 1.5");
}

TEST(ValExtInst, GlslOperandTypes) {
  EXPECT_VALID(test::validateText(shader("", "", R"(
%a = OpExtInst %float %glsl FMax %float_1 %float_1
%b = OpExtInst %uint %glsl SMax %int_1 %int_1
%v = OpCompositeConstruct %v3float %float_1 %float_1 %float_1
%l = OpExtInst %float %glsl Length %v
%c = OpExtInst %v3float %glsl Cross %v %v)")));
  EXPECT_ERROR(test::validateText(shader("", "",
                                         "%a = OpExtInst %float %glsl FMax %float_1 "
                                         "%int_1")),
               "GLSL.std.450 FMax: operand %int_1 has type %int, not the result type %float");
  EXPECT_ERROR(test::validateText(shader("", "", "%a = OpExtInst %int %glsl Sqrt %int_1")),
               "GLSL.std.450 Sqrt returns a floating-point scalar or vector");
  EXPECT_ERROR(test::validateText(shader("", "",
                                         "%a = OpExtInst %float %glsl SMax %int_1 "
                                         "%int_1")),
               "GLSL.std.450 SMax returns an integer scalar or vector");
}

TEST(ValExtInst, OpenCLOperandTypes) {
  const char *kernel = R"(
OpCapability Addresses
OpCapability Kernel
%cl = OpExtInstImport "OpenCL.std"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%uint_1 = OpConstant %uint 1
%float_1 = OpConstant %float 1
%k = OpFunction %void None %fn
%entry = OpLabel
%a = OpExtInst %uint %cl s_max %uint_1 %X
OpReturn
OpFunctionEnd
)";
  const std::string good = test::replaced(kernel, "%X", "%uint_1"),
                    bad = test::replaced(kernel, "%X", "%float_1");
  EXPECT_VALID(test::validateText(good, "opencl2.0"));
  EXPECT_ERROR(test::validateText(bad, "opencl2.0"), "OpenCL.std s_max: operand %float_1");
  // The 24-bit multiplications give 32-bit integers (spirv-val holds this; the sweep found it).
  const std::string mul24 = test::replaced(
      test::replaced(kernel, "%a = OpExtInst %uint %cl s_max %uint_1 %X",
                     "%a = OpExtInst %ushort %cl u_mul24 %ushort_1 %ushort_1"),
      "%uint_1 = OpConstant %uint 1",
      "%uint_1 = OpConstant %uint 1\n%ushort = OpTypeInt 16 0\n%ushort_1 = OpConstant %ushort 1");
  EXPECT_ERROR(test::validateText(test::replaced(mul24, "OpCapability Kernel",
                                                 "OpCapability Kernel\nOpCapability Int16"),
                                  "opencl2.0"),
               "OpenCL.std u_mul24 gives 32-bit integers");
}

// What the agreement sweep (AgreementSweepTest.cpp) found spire val accepting and the structured
// IR's verifier rejecting: each is an error now. Values come from OpUndef.
TEST(ValInstructionTypes, FoundByTheAgreementSweep) {
  const std::string globals = R"(
%img = OpTypeImage %float 2D 0 0 0 1 Unknown
%depth = OpTypeImage %float 2D 1 0 0 1 Unknown
%simg = OpTypeSampledImage %img
%sdepth = OpTypeSampledImage %depth
%m2 = OpTypeMatrix %v2float 2
%half = OpTypeFloat 16
%v2half = OpTypeVector %half 2
%a2f = OpTypeArray %float %uint_2
%a2u = OpTypeArray %uint %uint_2
%sres = OpTypeStruct %uint %v4float
%sres3 = OpTypeStruct %uint %v3float
%sresu = OpTypeStruct %uint %v4uint
%bufimg = OpTypeImage %float Buffer 0 0 0 1 Unknown
%msimg = OpTypeImage %float 2D 0 0 1 1 Unknown
%stimg = OpTypeImage %float 2D 0 0 0 2 Rgba32f
%v4int = OpTypeVector %int 4
%v2int = OpTypeVector %int 2
%pfn = OpTypePointer Function %float
%as = OpTypeAccelerationStructureKHR
%pimg = OpTypePointer Image %float
%ucimg = OpTypePointer UniformConstant %img
%vimg = OpVariable %ucimg UniformConstant
)";
  const std::string caps = "OpCapability ImageQuery\nOpCapability SparseResidency\n"
                           "OpCapability Geometry\nOpCapability GeometryStreams\n"
                           "OpCapability Float16\nOpCapability RayQueryKHR\n"
                           "OpCapability DemoteToHelperInvocation\nOpCapability SubgroupVoteKHR\n"
                           "OpCapability GroupNonUniformArithmetic\n"
                           "OpCapability GroupNonUniformBallot\nOpCapability SampledBuffer\n"
                           "OpExtension \"SPV_KHR_ray_query\"\n"
                           "OpExtension \"SPV_KHR_subgroup_vote\"";
  const std::string values = R"(
%si = OpUndef %simg
%sd = OpUndef %sdepth
%i = OpUndef %img
%c2 = OpUndef %v2float
%c3 = OpUndef %v3float
%mat = OpUndef %m2
%h2 = OpUndef %v2half
%a = OpUndef %a2u
%u = OpUndef %uint
%b = OpUndef %bool
%hf = OpUndef %half
%v4u = OpUndef %v4uint
%buf = OpUndef %bufimg
%msi = OpUndef %msimg
%st = OpUndef %stimg
%v4i = OpUndef %v4int
%v2i = OpUndef %v2int
)";
  const std::pair<const char *, const char *> cases[] = {
      {"%x = OpIAdd %as %u %u", "the result type must be an integer scalar or vector"},
      {"%x = OpCompositeConstruct %img %float_1", "must be a composite type"},
      {"%x = OpImageTexelPointer %as %vimg %u %uint_0",
       "the result type of OpImageTexelPointer must be a pointer"},
      {"%x = OpImageQuerySizeLod %uint %si %int_1", "OpImageQuerySizeLod takes an image"},
      {"%x = OpImageQueryLevels %v4uint %i", "OpImageQueryLevels gives an integer scalar"},
      {"%x = OpImageQuerySizeLod %uint %i %b",
       "the Level of Detail must be a 32-bit integer scalar"},
      {"%x = OpImageQueryLod %v2float %si %b", "the coordinate must be a floating-point"},
      {"%x = OpImageQueryLod %bool %si %c2", "a two-component floating-point vector"},
      {"%x = OpImageSparseSampleProjImplicitLod %uint %si %c3",
       "is a reserved opcode without a definition"},
      // Found by running spirv-val on every combination the sweep accepts.
      {"%x = OpExtInst %int %glsl IMix %int_1 %int_1 %int_1",
       "was removed from the GLSL.std.450 specification"},
      {"%x = OpConvertFToU %int %float_1", "OpConvertFToU gives unsigned integers"},
      {"%x = OpDPdx %half %hf", "a derivative must have 32-bit components"},
      {"%x = OpGroupNonUniformBallotBitCount %int %uint_3 Reduce %v4u",
       "must be an unsigned integer scalar (Signedness 0)"},
      {"%x = OpImageQueryLevels %uint %buf", "needs an image of Dim 1D, 2D, 3D or Cube"},
      {"%x = OpImageSparseSampleImplicitLod %sres3 %si %c2", "a vector of four integers or floats"},
      {"%x = OpImageSparseSampleImplicitLod %sresu %si %c2",
       "the texel's components must be of the image's sampled type"},
      {"%x = OpGroupNonUniformBallotBitCount %uint %uint_3 Reduce %v4i",
       "must be of unsigned integers (Signedness 0)"},
      {"%x = OpImageSparseRead %sres %i %v2i", "needs a storage image (Sampled = 0 or 2)"},
      {"%x = OpImageSparseFetch %sres %st %v2i", "needs an image with Sampled = 1"},
      {"%x = OpImageFetch %v4float %msi %v2i", "needs the Sample image operand"},
      {"%x = OpCompositeExtract %v2float %c2", "OpCompositeExtract needs at least one index"},
      {"%x = OpCompositeInsert %v2float %c2 %c2", "OpCompositeInsert needs at least one index"},
      {"%x = OpImageSparseSampleImplicitLod %sres %si %b", "the coordinate must be"},
      {"%x = OpImageSparseGather %sres %si %c2 %b", "the gathered Component must be"},
      {"%x = OpImageSampleDrefImplicitLod %bool %sd %c2 %float_1",
       "returns an integer or floating-point scalar"},
      {"%x = OpImageDrefGather %float %sd %c2 %float_1",
       "OpImageDrefGather returns a vector of four"},
      {"%x = OpMatrixTimesVector %v2float %mat %h2", "must have the result's component type"},
      {"%x = OpVectorTimesMatrix %v2half %h2 %mat", "must have the result's component type"},
      {"%x = OpMatrixTimesMatrix %v2float %mat %mat", "multiplies matrices into a matrix"},
      {"OpEmitStreamVertex %u", "must be a constant"},
      {"OpEndStreamPrimitive %b", "must be an integer scalar"},
      {"%x = OpIsHelperInvocationEXT %uint", "must be a boolean scalar"},
      {"%x = OpSubgroupAllEqualKHR %bool %mat",
       "must be a scalar or vector of integers, floats or booleans"},
      {"%x = OpExtInst %float %glsl Modf %float_1 %float_1",
       "i must be a pointer to the result type"},
      {"%x = OpExtInst %float %glsl Distance %c2 %c3",
       "P0 and P1 must have the same number of components"},
      {"%x = OpCopyLogical %a2f %a", "does not logically match"},
      {"%x = OpGroupNonUniformFAdd %sres %uint_3 Reduce %float_1",
       "the result type must be a floating-point scalar or vector"},
  };
  for (auto [body, error] : cases) {
    SCOPED_TRACE(body);
    EXPECT_ERROR(test::validateText(shader(caps, globals, values + body, "%vimg")), error);
  }
  // The kernel group copies: events in and out, pointers to the same numbers in Workgroup and
  // CrossWorkgroup, 64-bit counts in Physical64.
  const std::string kernelGlobals = R"(
%event = OpTypeEvent
%ulong = OpTypeInt 64 0
%pwg = OpTypePointer Workgroup %uint
%pcw = OpTypePointer CrossWorkgroup %uint
%pevent = OpTypePointer Function %event
%wg = OpVariable %pwg Workgroup
%cw = OpVariable %pcw CrossWorkgroup
%n = OpConstant %ulong 4
)";
  auto kernel = [&](std::string_view body) {
    return test::validateText(test::kernelModule("OpCapability Int64", kernelGlobals,
                                                 "%e0 = OpUndef %event\n" + std::string(body)),
                              "opencl2.0");
  };
  EXPECT_VALID(kernel("%x = OpGroupAsyncCopy %event %uint_2 %wg %cw %n %n %e0"));
  EXPECT_ERROR(kernel("%x = OpGroupAsyncCopy %uint %uint_2 %wg %cw %n %n %e0"),
               "OpGroupAsyncCopy: the result type %uint must be OpTypeEvent");
  EXPECT_ERROR(kernel("%x = OpGroupAsyncCopy %event %uint_2 %wg %wg %n %n %e0"),
               "Source %14 must be a pointer to the Destination's type in the other");
  EXPECT_ERROR(kernel("%x = OpGroupAsyncCopy %event %uint_2 %wg %cw %uint_1 %n %e0"),
               "Num Elements %uint_1 must be a 64-bit integer scalar");
  EXPECT_ERROR(kernel("OpGroupWaitEvents %uint_2 %uint_1 %uint_1"),
               "Events List %uint_1 must be a pointer to OpTypeEvent");
}

} // namespace
} // namespace spire::val
