// Ray tracing (SPV_KHR_ray_tracing), ray queries (SPV_KHR_ray_query) and mesh shading
// (SPV_EXT_mesh_shader): operand and result types, and the stages their instructions and storage
// classes belong to.
#include "ValTestUtil.h"

#include <utility>

namespace spire::val {
namespace {

// A RayGenerationKHR entry point %main (BODY, after %a = the loaded acceleration structure) and an
// IntersectionKHR one %hit (HIT), with a ray payload, callable data, incoming callable data, a
// Function ray query %query and Function floats %fquery / %fpayload; TYPES are more declarations.
constexpr const char *kRayTracing = R"(
OpCapability RayTracingKHR
OpCapability RayQueryKHR
OpCapability Int64
OpExtension "SPV_KHR_ray_tracing"
OpExtension "SPV_KHR_ray_query"
OpMemoryModel Logical GLSL450
OpEntryPoint RayGenerationKHR %main "main" %tlas %payload %callable %incoming
OpEntryPoint IntersectionKHR %hit "hit"
OpName %tlas "tlas"
OpName %payload "payload"
OpName %callable "callable"
OpName %incoming "incoming"
OpName %fpayload "fpayload"
OpName %query "query"
OpName %fquery "fquery"
OpName %as "as"
OpName %v3f "v3f"
OpName %v2u "v2u"
OpName %main "main"
OpName %hit "hit"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%v2float = OpTypeVector %float 2
%v3float = OpTypeVector %float 3
%v2uint = OpTypeVector %uint 2
%mat4v3float = OpTypeMatrix %v3float 4
%mat3v3float = OpTypeMatrix %v3float 3
%as = OpTypeAccelerationStructureKHR
%rq = OpTypeRayQueryKHR
%ptr_uc_as = OpTypePointer UniformConstant %as
%ptr_fn_rq = OpTypePointer Function %rq
%ptr_fn_float = OpTypePointer Function %float
%ptr_payload = OpTypePointer RayPayloadKHR %float
%ptr_callable = OpTypePointer CallableDataKHR %float
%ptr_incoming = OpTypePointer IncomingCallableDataKHR %float
%tlas = OpVariable %ptr_uc_as UniformConstant
%payload = OpVariable %ptr_payload RayPayloadKHR
%callable = OpVariable %ptr_callable CallableDataKHR
%incoming = OpVariable %ptr_incoming IncomingCallableDataKHR
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%int_0 = OpConstant %int 0
%ulong_0 = OpConstant %ulong 0
%float_0 = OpConstant %float 0
%float_1 = OpConstant %float 1
%v3f = OpConstantComposite %v3float %float_0 %float_0 %float_1
%v2u = OpConstantComposite %v2uint %uint_0 %uint_0
TYPES
%main = OpFunction %void None %fn
%entry = OpLabel
%query = OpVariable %ptr_fn_rq Function
%fquery = OpVariable %ptr_fn_float Function
%fpayload = OpVariable %ptr_fn_float Function
%a = OpLoad %as %tlas
BODY
OpReturn
OpFunctionEnd
%hit = OpFunction %void None %fn
%hentry = OpLabel
HIT
OpReturn
OpFunctionEnd
)";

Report rt(std::string_view body, std::string_view hit = "", std::string_view types = "",
          const std::string &module = kRayTracing) {
  std::string text = test::replaced(module, "BODY", body);
  text = test::replaced(text, "TYPES", types);
  return test::validateText(test::replaced(text, "HIT", hit), "spv1.5");
}

const char *kTrace = "OpTraceRayKHR %a %uint_0 %uint_1 %uint_0 %uint_1 %uint_0 %v3f %float_0 %v3f "
                     "%float_1 %payload";

Report trace(std::string_view from, std::string_view to) {
  return rt(test::replaced(kTrace, from, to));
}

TEST(ValRayTracing, TraceRay) {
  EXPECT_VALID(rt(kTrace));
  EXPECT_ERROR(trace("%a", "%float_0"), "OpTraceRayKHR: the acceleration structure %float_0 must "
                                        "be of type OpTypeAccelerationStructureKHR");
  EXPECT_ERROR(trace("%a %uint_0", "%a %float_0"),
               "OpTraceRayKHR: Ray Flags %float_0 must be a 32-bit integer scalar");
  EXPECT_ERROR(trace("%a %uint_0 %uint_1", "%a %uint_0 %ulong_0"),
               "OpTraceRayKHR: Cull Mask %ulong_0 must be a 32-bit integer scalar");
  EXPECT_ERROR(trace("%uint_0 %v3f", "%float_1 %v3f"),
               "OpTraceRayKHR: Miss Index %float_1 must be a 32-bit integer scalar");
  EXPECT_ERROR(trace("%uint_0 %v3f", "%uint_0 %float_0"),
               "OpTraceRayKHR: Ray Origin %float_0 must be a vector of three 32-bit floats");
  EXPECT_ERROR(trace("%float_1 %payload", "%uint_0 %payload"),
               "OpTraceRayKHR: Ray Tmax %uint_0 must be a 32-bit float scalar");
  EXPECT_ERROR(trace("%payload", "%fpayload"),
               "OpTraceRayKHR: Payload %fpayload must be in the RayPayloadKHR or "
               "IncomingRayPayloadKHR storage class");
  EXPECT_ERROR(
      rt("%pc = OpCopyObject %ptr_payload %payload\n" + test::replaced(kTrace, "%payload", "%pc")),
      " must be the result of an OpVariable");
}

TEST(ValRayTracing, CallablesIntersectionsAndConversions) {
  EXPECT_VALID(rt("OpExecuteCallableKHR %uint_0 %callable\n"
                  "%c1 = OpConvertUToAccelerationStructureKHR %as %ulong_0\n"
                  "%c2 = OpConvertUToAccelerationStructureKHR %as %v2u",
                  "%r = OpReportIntersectionKHR %bool %float_1 %uint_0"));
  EXPECT_ERROR(rt("OpExecuteCallableKHR %int_0 %callable"),
               "OpExecuteCallableKHR: SBT Index %int_0 must be a 32-bit unsigned integer scalar");
  EXPECT_ERROR(rt("OpExecuteCallableKHR %uint_0 %payload"),
               "OpExecuteCallableKHR: Callable Data %payload must be in the CallableDataKHR or "
               "IncomingCallableDataKHR storage class");
  EXPECT_ERROR(rt("", "%r = OpReportIntersectionKHR %uint %float_1 %uint_0"),
               "OpReportIntersectionKHR: the result type %uint must be a boolean scalar");
  EXPECT_ERROR(rt("", "%r = OpReportIntersectionKHR %bool %uint_0 %uint_0"),
               "OpReportIntersectionKHR: Hit %uint_0 must be a 32-bit float scalar");
  EXPECT_ERROR(rt("", "%r = OpReportIntersectionKHR %bool %float_1 %int_0"),
               "OpReportIntersectionKHR: Hit Kind %int_0 must be a 32-bit unsigned integer");
  EXPECT_ERROR(rt("%c = OpConvertUToAccelerationStructureKHR %uint %ulong_0"),
               "OpConvertUToAccelerationStructureKHR: the result type %uint must be "
               "OpTypeAccelerationStructureKHR");
  EXPECT_ERROR(rt("%c = OpConvertUToAccelerationStructureKHR %as %uint_0"),
               "OpConvertUToAccelerationStructureKHR: Accel %uint_0 must be a 64-bit unsigned "
               "integer scalar or a vector of two 32-bit unsigned integers");
}

// (The grammar names execution models and modes shared by NV and KHR / EXT by the first of their
// names, which differs between grammar versions: the messages are matched without them.)
TEST(ValRayTracing, StorageClassesOfTheStages) {
  EXPECT_ERROR(rt("OpExecuteCallableKHR %uint_0 %incoming"),
               "entry point %main; IncomingCallableDataKHR is for CallableKHR entry points only");
  const std::string text = test::replaced(kRayTracing, "OpEntryPoint IntersectionKHR %hit \"hit\"",
                                          "OpEntryPoint IntersectionKHR %hit \"hit\" %payload");
  EXPECT_ERROR(rt("", "%l = OpLoad %float %payload", "", text),
               "entry point %hit; RayPayloadKHR is for RayGenerationKHR, ClosestHitKHR and MissKHR "
               "entry points only");
}

// The ray flags rules are the Vulkan specification's (RuntimeSpirv VUIDs): only Vulkan
// environments check them. spirv-val 2023.1 checks none of them, so each rejection below is spire
// being stricter than it.
Report vulkanTrace(std::string_view flags, std::string_view body = kTrace) {
  std::string text = test::replaced(kRayTracing, "OpName %hit \"hit\"\n",
                                    "OpName %hit \"hit\"\nOpDecorate %tlas DescriptorSet 0\n"
                                    "OpDecorate %tlas Binding 0\n");
  text = test::replaced(text, "BODY", test::replaced(std::string(body), "%a %uint_0", "%a %flags"));
  text = test::replaced(text, "TYPES", "%flags = OpConstant %uint " + std::string(flags));
  return test::validateText(test::replaced(text, "HIT", ""), "vulkan1.2");
}

TEST(ValRayTracing, RayFlagsUnderVulkan) {
  // OpaqueKHR, CullBackFacingTrianglesKHR and SkipAABBsKHR go together.
  EXPECT_VALID(vulkanTrace("0x211"));
  // Outside Vulkan the flags are not checked.
  EXPECT_VALID(
      rt(test::replaced(kTrace, "%a %uint_0", "%a %flags"), "", "%flags = OpConstant %uint 0x303"));
  EXPECT_ERROR(vulkanTrace("0x41"),
               "OpTraceRayKHR: Ray Flags %uint_65 (0x41) sets more than one of "
               "OpaqueKHR, NoOpaqueKHR, CullOpaqueKHR and CullNoOpaqueKHR");
  EXPECT_ERROR(vulkanTrace("0x30"),
               "OpTraceRayKHR: Ray Flags %uint_48 (0x30) sets more than one of SkipTrianglesKHR, "
               "CullBackFacingTrianglesKHR and CullFrontFacingTrianglesKHR");
  EXPECT_ERROR(vulkanTrace("0x120"), "sets more than one of SkipTrianglesKHR");
  EXPECT_ERROR(
      vulkanTrace("0x300"),
      "OpTraceRayKHR: Ray Flags %uint_768 (0x300) sets both SkipTrianglesKHR and SkipAABBsKHR");
  EXPECT_TRUE(test::hasError(vulkanTrace("0x300"), "SkipAABBsKHR",
                             "VUID-RuntimeSpirv-OpTraceRayKHR-06552"));
  const std::string init =
      "OpRayQueryInitializeKHR %query %a %uint_0 %uint_1 %v3f %float_0 %v3f %float_1";
  EXPECT_VALID(vulkanTrace("0x2", init));
  EXPECT_TRUE(test::hasError(vulkanTrace("0x82", init), "OpRayQueryInitializeKHR: Ray Flags",
                             "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06891"));
}

// Each ray flag needs the capability the grammar lists for it (3.2.31), as spirv-val v2026.4
// checks for ForceOpacityMicromap2StateKHR; the Skip flags' RayTraversalPrimitiveCullingKHR,
// which glslang omits, only warns.
TEST(ValRayTracing, RayFlagsNeedTheirCapabilities) {
  const Report skip = vulkanTrace("0x201");
  EXPECT_VALID(skip);
  EXPECT_TRUE(test::hasWarning(skip, "which needs the RayTraversalPrimitiveCullingKHR capability"))
      << test::describe(skip);
  if (grammar::findEnumerant(grammar::OperandKind::RayFlags, 0x400) == nullptr)
    GTEST_SKIP() << "this build's grammar has no ForceOpacityMicromap2State ray flag";
  EXPECT_RULE_ERROR(vulkanTrace("0x401"), "which needs the RayTracingOpacityMicromap",
                    "3.2.31 Ray Flags");
}

// A RayGenerationNV entry point %main (BODY) with %a the loaded acceleration structure, a
// ray payload at Location 0 and callable data at Location 1.
constexpr const char *kRayTracingNV = R"(
OpCapability RayTracingNV
OpExtension "SPV_NV_ray_tracing"
OpMemoryModel Logical GLSL450
OpEntryPoint RayGenerationNV %main "main" %tlas %payload %callable
OpName %tlas "tlas"
OpName %payload "payload"
OpName %v3f "v3f"
OpName %n "n"
OpDecorate %payload Location 0
OpDecorate %callable Location 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%v3float = OpTypeVector %float 3
%as = OpTypeAccelerationStructureNV
%ptr_uc_as = OpTypePointer UniformConstant %as
%ptr_payload = OpTypePointer RayPayloadNV %float
%ptr_callable = OpTypePointer CallableDataNV %float
%tlas = OpVariable %ptr_uc_as UniformConstant
%payload = OpVariable %ptr_payload RayPayloadNV
%callable = OpVariable %ptr_callable CallableDataNV
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%int_0 = OpConstant %int 0
%float_0 = OpConstant %float 0
%float_1 = OpConstant %float 1
%v3f = OpConstantComposite %v3float %float_0 %float_0 %float_1
%main = OpFunction %void None %fn
%entry = OpLabel
%a = OpLoad %as %tlas
%u = OpLoad %float %payload
%n = OpIAdd %int %int_0 %int_0
BODY
OpReturn
OpFunctionEnd
)";

Report rtNV(std::string_view body) {
  return test::validateText(test::replaced(kRayTracingNV, "BODY", body), "spv1.4");
}

const char *kTraceNV =
    "OpTraceNV %a %uint_0 %uint_1 %uint_0 %uint_1 %uint_0 %v3f %float_0 %v3f %float_1 %int_0";

// spirv-val 2023.1 checks none of OpTraceNV's and OpExecuteCallableNV's operands: each rejection
// follows SPV_NV_ray_tracing's description of the instruction.
TEST(ValRayTracingNV, TraceAndExecuteCallable) {
  EXPECT_VALID(rtNV(std::string(kTraceNV) + "\nOpExecuteCallableNV %uint_0 %int_0"));
  EXPECT_ERROR(rtNV(test::replaced(kTraceNV, "%a", "%tlas")),
               "OpTraceNV: the acceleration structure %tlas must be of type "
               "OpTypeAccelerationStructure");
  EXPECT_ERROR(rtNV(test::replaced(kTraceNV, "%a %uint_0", "%a %float_0")),
               "OpTraceNV: Ray Flags %float_0 must be a 32-bit integer scalar");
  EXPECT_ERROR(rtNV(test::replaced(kTraceNV, "%uint_0 %v3f", "%uint_0 %float_1")),
               "OpTraceNV: Ray Origin %float_1 must be a vector of three 32-bit floats");
  EXPECT_ERROR(rtNV(test::replaced(kTraceNV, "%float_1 %int_0", "%v3f %int_0")),
               "OpTraceNV: Ray Tmax %v3f must be a 32-bit float scalar");
  EXPECT_ERROR(rtNV(test::replaced(kTraceNV, "%int_0", "%payload")),
               "OpTraceNV: Payload number %payload must be an integer constant (the Location of "
               "the data)");
  EXPECT_ERROR(rtNV(test::replaced(kTraceNV, "%int_0", "%float_0")),
               "OpTraceNV: Payload number %float_0 must be an integer constant");
  EXPECT_ERROR(rtNV("OpExecuteCallableNV %float_0 %int_0"),
               "OpExecuteCallableNV: SBT Index %float_0 must be a 32-bit integer scalar");
  EXPECT_ERROR(rtNV("OpExecuteCallableNV %uint_0 %n"),
               "OpExecuteCallableNV: Callable Data number %n must be an integer constant");
}

// SPV_NV_ray_tracing: "Location also forms the linkage between OpTraceNV and the RayPayloadKHR
// and IncomingRayPayloadKHR Storage Classes", and OpExecuteCallableNV's with the callable data
// ones. A number that names no such Location is a warning (spirv-val checks nothing, and
// glslang's tests trace with payload 1 where only location 0 exists).
TEST(ValRayTracingNV, NumbersNameTheLocationOfTheData) {
  const Report linked = rtNV(std::string(kTraceNV));
  EXPECT_VALID(linked);
  EXPECT_FALSE(test::hasWarning(linked, "is the Location of no"));
  const Report unlinked = test::validateText(
      test::replaced(test::replaced(kRayTracingNV, "BODY", kTraceNV),
                     "OpDecorate %payload Location 0", "OpDecorate %payload Location 2"),
      "spv1.4");
  EXPECT_VALID(unlinked);
  EXPECT_TRUE(test::hasWarning(unlinked, "Payload number 0 is the Location of no RayPayloadKHR or "
                                         "IncomingRayPayloadKHR variable"))
      << test::describe(unlinked);
  EXPECT_TRUE(test::hasWarning(rtNV("OpExecuteCallableNV %uint_0 %int_0"),
                               "Callable Data number 0 is the Location of no CallableDataKHR"));
}

// VUID-StandaloneSpirv-IncomingRayPayloadKHR-04700 (-HitAttributeKHR-04702,
// -IncomingCallableDataKHR-04706): at most one such variable in an entry point's interface.
TEST(ValRayTracing, OneIncomingVariableOfEachKind) {
  const std::string text = R"(OpCapability RayTracingKHR
OpExtension "SPV_KHR_ray_tracing"
OpMemoryModel Logical GLSL450
OpEntryPoint MissKHR %main "main" INTERFACE
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%ptr = OpTypePointer IncomingRayPayloadKHR %float
%p1 = OpVariable %ptr IncomingRayPayloadKHR
%p2 = OpVariable %ptr IncomingRayPayloadKHR
%main = OpFunction %void None %fn
%e = OpLabel
OpReturn
OpFunctionEnd
)";
  EXPECT_VALID(test::validateText(test::replaced(text, "INTERFACE", "%p1"), "vulkan1.2"));
  EXPECT_ERROR(test::validateText(test::replaced(text, "INTERFACE", "%p1 %p2"), "vulkan1.2"),
               "an entry point's interface has at most one IncomingRayPayloadKHR variable");
}

// A RayGenerationKHR entry point %main (MAIN) and an AnyHitKHR one %ahit (AHIT), both with the
// loaded acceleration structure %a, a payload %payload (RayPayloadKHR) and %incoming
// (IncomingRayPayloadKHR).
constexpr const char *kMotion = R"(
OpCapability RayTracingKHR
OpCapability RayTracingMotionBlurNV
OpExtension "SPV_KHR_ray_tracing"
OpExtension "SPV_NV_ray_tracing_motion_blur"
OpMemoryModel Logical GLSL450
OpEntryPoint RayGenerationKHR %main "main" %tlas %payload
OpEntryPoint AnyHitKHR %ahit "ahit" %tlas %incoming
OpName %main "main"
OpName %ahit "ahit"
OpName %tlas "tlas"
OpName %v3f "v3f"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v3float = OpTypeVector %float 3
%as = OpTypeAccelerationStructureKHR
%ptr_uc_as = OpTypePointer UniformConstant %as
%ptr_payload = OpTypePointer RayPayloadKHR %float
%ptr_incoming = OpTypePointer IncomingRayPayloadKHR %float
%tlas = OpVariable %ptr_uc_as UniformConstant
%payload = OpVariable %ptr_payload RayPayloadKHR
%incoming = OpVariable %ptr_incoming IncomingRayPayloadKHR
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%float_0 = OpConstant %float 0
%float_1 = OpConstant %float 1
%v3f = OpConstantComposite %v3float %float_0 %float_0 %float_1
%main = OpFunction %void None %fn
%entry = OpLabel
%a = OpLoad %as %tlas
MAIN
OpReturn
OpFunctionEnd
%ahit = OpFunction %void None %fn
%aentry = OpLabel
%b = OpLoad %as %tlas
AHIT
OpReturn
OpFunctionEnd
)";

Report motion(std::string_view mainBody, std::string_view anyHitBody = "") {
  std::string text = test::replaced(kMotion, "MAIN", mainBody);
  return test::validateText(test::replaced(text, "AHIT", anyHitBody), "spv1.5");
}

const char *kTraceMotion = "OpTraceRayMotionNV %a %uint_0 %uint_1 %uint_0 %uint_1 %uint_0 %v3f "
                           "%float_0 %v3f %float_1 %float_0 %payload";

// spirv-val 2023.1 checks neither the operands of OpTraceRayMotionNV nor where it runs: these
// follow SPV_NV_ray_tracing_motion_blur's description of the instruction.
TEST(ValRayTracing, TraceRayMotion) {
  EXPECT_VALID(motion(kTraceMotion));
  EXPECT_ERROR(motion(test::replaced(kTraceMotion, "%float_1 %float_0", "%float_1 %uint_0")),
               "OpTraceRayMotionNV: Current Time %uint_0 must be a 32-bit float scalar");
  EXPECT_ERROR(motion(test::replaced(kTraceMotion, "%uint_0 %v3f", "%uint_0 %float_1")),
               "OpTraceRayMotionNV: Ray Origin %float_1 must be a vector of three 32-bit floats");
  EXPECT_ERROR(motion(test::replaced(kTraceMotion, "%payload", "%tlas")),
               "OpTraceRayMotionNV: Payload %tlas must be in the RayPayloadKHR or "
               "IncomingRayPayloadKHR storage class");
  const std::string inAnyHit =
      test::replaced(test::replaced(kTraceMotion, "%payload", "%incoming"), "%a ", "%b ");
  EXPECT_ERROR(motion("", inAnyHit), "OpTraceRayMotionNV cannot run in the AnyHit");
  EXPECT_ERROR(motion("", inAnyHit), "entry point %ahit; it is for RayGeneration, ClosestHit and "
                                     "Miss entry points only");
}

// kMotion with hit objects (SPV_NV_shader_invocation_reorder) instead of motion blur: %h and %h2
// are Function hit objects of %main and %ahit.
std::string hitObjectModule() {
  static constexpr std::pair<std::string_view, std::string_view> kEdits[] = {
      {"OpCapability RayTracingMotionBlurNV", "OpCapability ShaderInvocationReorderNV"},
      {"SPV_NV_ray_tracing_motion_blur", "SPV_NV_shader_invocation_reorder"},
      {"%as = OpTypeAccelerationStructureKHR\n",
       "%as = OpTypeAccelerationStructureKHR\n%ho = OpTypeHitObjectNV\n"
       "%ptr_fn_ho = OpTypePointer Function %ho\n"},
      {"%entry = OpLabel\n", "%entry = OpLabel\n%h = OpVariable %ptr_fn_ho Function\n"},
      {"%aentry = OpLabel\n", "%aentry = OpLabel\n%h2 = OpVariable %ptr_fn_ho Function\n"},
  };
  std::string text = kMotion;
  for (auto [from, to] : kEdits)
    text = test::replaced(text, from, to);
  return text;
}

// SPV_NV_shader_invocation_reorder allows a hit-object trace "only in RayGenerationKHR,
// ClosestHitKHR and MissKHR execution models" (spirv-val 2023.1 rejects the AnyHit case too).
TEST(ValRayTracing, HitObjectTraceStages) {
  const std::string trace = "OpHitObjectTraceRayNV %h %a %uint_0 %uint_1 %uint_0 %uint_1 %uint_0 "
                            "%v3f %float_0 %v3f %float_1 %payload";
  auto run = [](std::string_view mainBody, std::string_view anyHitBody) {
    std::string text = test::replaced(hitObjectModule(), "MAIN", mainBody);
    return test::validateText(test::replaced(text, "AHIT", anyHitBody), "spv1.5");
  };
  EXPECT_VALID(run(trace, ""));
  const std::string inAnyHit = test::replaced(
      test::replaced(test::replaced(trace, "%payload", "%incoming"), "%a ", "%b "), "%h ", "%h2 ");
  EXPECT_ERROR(run("", inAnyHit), "OpHitObjectTraceRayNV cannot run in the AnyHit");
}

TEST(ValRayQuery, InitializeAndProceed) {
  EXPECT_VALID(rt("OpRayQueryInitializeKHR %query %a %int_0 %uint_1 %v3f %float_0 %v3f %float_1\n"
                  "%p = OpRayQueryProceedKHR %bool %query\n"
                  "OpRayQueryGenerateIntersectionKHR %query %float_1\n"
                  "OpRayQueryConfirmIntersectionKHR %query\n"
                  "OpRayQueryTerminateKHR %query"));
  EXPECT_ERROR(rt("OpRayQueryInitializeKHR %fquery %a %uint_0 %uint_1 %v3f %float_0 %v3f %float_1"),
               "OpRayQueryInitializeKHR: RayQuery %fquery must be a pointer to OpTypeRayQueryKHR");
  EXPECT_ERROR(
      rt("OpRayQueryInitializeKHR %query %tlas %uint_0 %uint_1 %v3f %float_0 %v3f %float_1"),
      "OpRayQueryInitializeKHR: the acceleration structure %tlas must be of type "
      "OpTypeAccelerationStructureKHR");
  EXPECT_ERROR(rt("OpRayQueryInitializeKHR %query %a %uint_0 %float_1 %v3f %float_0 %v3f %float_1"),
               "OpRayQueryInitializeKHR: Cull Mask %float_1 must be a 32-bit integer scalar");
  EXPECT_ERROR(rt("OpRayQueryInitializeKHR %query %a %uint_0 %uint_1 %v3f %v3f %v3f %float_1"),
               "OpRayQueryInitializeKHR: Ray Tmin %v3f must be a 32-bit float scalar");
  EXPECT_ERROR(rt("OpRayQueryGenerateIntersectionKHR %query %uint_1"),
               "OpRayQueryGenerateIntersectionKHR: Hit T %uint_1 must be a 32-bit float scalar");
  EXPECT_ERROR(rt("%p = OpRayQueryProceedKHR %uint %query"),
               "OpRayQueryProceedKHR: the result type %uint must be a boolean scalar");
  EXPECT_ERROR(rt("OpRayQueryTerminateKHR %tlas"),
               "OpRayQueryTerminateKHR: RayQuery %tlas must be a pointer to OpTypeRayQueryKHR");
}

TEST(ValRayQuery, IntersectionQueries) {
  EXPECT_VALID(
      rt("%t = OpRayQueryGetIntersectionTypeKHR %uint %query %uint_1\n"
         "%tmin = OpRayQueryGetRayTMinKHR %float %query\n"
         "%flags = OpRayQueryGetRayFlagsKHR %uint %query\n"
         "%it = OpRayQueryGetIntersectionTKHR %float %query %uint_0\n"
         "%ci = OpRayQueryGetIntersectionInstanceCustomIndexKHR %int %query %uint_1\n"
         "%ii = OpRayQueryGetIntersectionInstanceIdKHR %int %query %uint_1\n"
         "%so = OpRayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR %uint %query "
         "%uint_1\n"
         "%gi = OpRayQueryGetIntersectionGeometryIndexKHR %int %query %uint_1\n"
         "%pi = OpRayQueryGetIntersectionPrimitiveIndexKHR %int %query %uint_1\n"
         "%bc = OpRayQueryGetIntersectionBarycentricsKHR %v2float %query %uint_1\n"
         "%ff = OpRayQueryGetIntersectionFrontFaceKHR %bool %query %uint_1\n"
         "%op = OpRayQueryGetIntersectionCandidateAABBOpaqueKHR %bool %query\n"
         "%od = OpRayQueryGetIntersectionObjectRayDirectionKHR %v3float %query %uint_0\n"
         "%oo = OpRayQueryGetIntersectionObjectRayOriginKHR %v3float %query %uint_0\n"
         "%wd = OpRayQueryGetWorldRayDirectionKHR %v3float %query\n"
         "%wo = OpRayQueryGetWorldRayOriginKHR %v3float %query\n"
         "%ow = OpRayQueryGetIntersectionObjectToWorldKHR %mat4v3float %query %uint_1\n"
         "%wo2 = OpRayQueryGetIntersectionWorldToObjectKHR %mat4v3float %query %uint_1"));
  EXPECT_ERROR(rt("%t = OpRayQueryGetIntersectionTypeKHR %float %query %uint_1"),
               "OpRayQueryGetIntersectionTypeKHR: the result type %float must be a 32-bit integer "
               "scalar");
  EXPECT_ERROR(rt("%flags = OpRayQueryGetRayFlagsKHR %uint %query\n"
                  "%t = OpRayQueryGetIntersectionTypeKHR %uint %query %flags"),
               " must be a 32-bit integer constant");
  EXPECT_ERROR(rt("%it = OpRayQueryGetIntersectionTKHR %float %query %ulong_0"),
               "OpRayQueryGetIntersectionTKHR: Intersection %ulong_0 must be a 32-bit integer "
               "constant");
  EXPECT_ERROR(rt("%tmin = OpRayQueryGetRayTMinKHR %uint %query"),
               "OpRayQueryGetRayTMinKHR: the result type %uint must be a 32-bit float scalar");
  EXPECT_ERROR(rt("%bc = OpRayQueryGetIntersectionBarycentricsKHR %v3float %query %uint_1"),
               "OpRayQueryGetIntersectionBarycentricsKHR: the result type %v3float must be a "
               "vector of 2 32-bit floats");
  EXPECT_ERROR(rt("%wo = OpRayQueryGetWorldRayOriginKHR %v2float %query"),
               "OpRayQueryGetWorldRayOriginKHR: the result type %v2float must be a vector of 3 "
               "32-bit floats");
  EXPECT_ERROR(rt("%ow = OpRayQueryGetIntersectionObjectToWorldKHR %mat3v3float %query %uint_1"),
               "OpRayQueryGetIntersectionObjectToWorldKHR: the result type %mat3v3float must be "
               "a matrix of four columns of three 32-bit floats");
  EXPECT_ERROR(rt("%ci = OpRayQueryGetIntersectionInstanceCustomIndexKHR %int %fquery %uint_1"),
               "OpRayQueryGetIntersectionInstanceCustomIndexKHR: RayQuery %fquery must be a "
               "pointer to OpTypeRayQueryKHR");
}

TEST(ValRayQuery, RayQueryObjectsAreNotLoadedOrStored) {
  EXPECT_ERROR(rt("%l = OpLoad %rq %query"),
               "OpLoad cannot access a ray query; ray queries are used through the OpRayQuery* "
               "instructions only");
  EXPECT_ERROR(rt("OpCopyMemory %query %query"), "OpCopyMemory cannot access a ray query");
  EXPECT_ERROR(rt("", "", "%ptr_wg_rq = OpTypePointer Workgroup %rq"),
               "a pointer to OpTypeRayQueryKHR must be in the Private or Function storage class");
}

// A MeshEXT entry point %mesh (MESH, with its terminator) and a TaskEXT one %task (TASK, with its
// terminator), with a task payload %tp and a Workgroup variable %wg.
constexpr const char *kMesh = R"(
OpCapability MeshShadingEXT
OpExtension "SPV_EXT_mesh_shader"
OpMemoryModel Logical GLSL450
OpEntryPoint MeshEXT %mesh "mesh" %tp
OpEntryPoint TaskEXT %task "task" %tp %wg
OpExecutionMode %mesh LocalSize 1 1 1
OpExecutionMode %mesh OutputVertices 3
OpExecutionMode %mesh OutputPrimitivesEXT 1
OpExecutionMode %mesh OutputTrianglesEXT
OpExecutionMode %task LocalSize 1 1 1
OpName %mesh "mesh"
OpName %task "task"
OpName %tp "tp"
OpName %wg "wg"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%ptr_tp = OpTypePointer TaskPayloadWorkgroupEXT %uint
%tp = OpVariable %ptr_tp TaskPayloadWorkgroupEXT
%ptr_wg = OpTypePointer Workgroup %uint
%wg = OpVariable %ptr_wg Workgroup
%uint_1 = OpConstant %uint 1
%uint_3 = OpConstant %uint 3
%int_1 = OpConstant %int 1
%float_1 = OpConstant %float 1
%mesh = OpFunction %void None %fn
%me = OpLabel
MESH
OpFunctionEnd
%task = OpFunction %void None %fn
%te = OpLabel
TASK
OpFunctionEnd
)";

Report mesh(std::string_view meshBody,
            std::string_view taskBody = "OpEmitMeshTasksEXT %uint_1 %uint_1 %uint_1 %tp") {
  std::string text = test::replaced(kMesh, "MESH", meshBody);
  return test::validateText(test::replaced(text, "TASK", taskBody), "spv1.5");
}

TEST(ValMeshShading, OutputsAndTasks) {
  EXPECT_VALID(mesh("%x = OpLoad %uint %tp\nOpSetMeshOutputsEXT %uint_3 %uint_1\nOpReturn",
                    "OpStore %tp %uint_1\nOpEmitMeshTasksEXT %uint_1 %uint_1 %uint_1 %tp"));
  EXPECT_VALID(mesh("OpReturn", "OpEmitMeshTasksEXT %uint_1 %uint_1 %uint_1"));
  EXPECT_ERROR(mesh("OpSetMeshOutputsEXT %int_1 %uint_1\nOpReturn"),
               "OpSetMeshOutputsEXT: Vertex Count %int_1 must be a 32-bit unsigned integer scalar");
  EXPECT_ERROR(mesh("OpSetMeshOutputsEXT %uint_3 %float_1\nOpReturn"),
               "OpSetMeshOutputsEXT: Primitive Count %float_1 must be a 32-bit unsigned integer");
  EXPECT_ERROR(mesh("OpReturn", "OpEmitMeshTasksEXT %uint_1 %int_1 %uint_1 %tp"),
               "OpEmitMeshTasksEXT: Group Count Y %int_1 must be a 32-bit unsigned integer");
  EXPECT_ERROR(mesh("OpReturn", "OpEmitMeshTasksEXT %uint_1 %uint_1 %uint_1 %wg"),
               "OpEmitMeshTasksEXT: Payload %wg must be in the TaskPayloadWorkgroupEXT storage "
               "class");
  EXPECT_ERROR(mesh("OpReturn", "OpSetMeshOutputsEXT %uint_3 %uint_1\n"
                                "OpEmitMeshTasksEXT %uint_1 %uint_1 %uint_1"),
               "OpSetMeshOutputsEXT cannot run in the TaskEXT entry point %task; it is for MeshEXT "
               "entry points only");
  EXPECT_ERROR(mesh("OpEmitMeshTasksEXT %uint_1 %uint_1 %uint_1"),
               "OpEmitMeshTasksEXT cannot run in the MeshEXT entry point %mesh; it is for TaskEXT "
               "entry points only");
}

TEST(ValMeshShading, EntryPoints) {
  auto without = [](std::string_view line, std::string_view replacement = "") {
    std::string text = test::replaced(kMesh, "MESH", "OpReturn");
    text = test::replaced(text, "TASK", "OpEmitMeshTasksEXT %uint_1 %uint_1 %uint_1 %tp");
    return test::validateText(test::replaced(text, line, replacement), "spv1.5");
  };
  EXPECT_ERROR(without("OpExecutionMode %mesh OutputTrianglesEXT\n"),
               "a MeshEXT entry point must declare exactly one of the OutputPoints, "
               "OutputLinesEXT and OutputTrianglesEXT execution modes");
  EXPECT_ERROR(without("OpExecutionMode %mesh OutputTrianglesEXT\n",
                       "OpExecutionMode %mesh OutputTrianglesEXT\n"
                       "OpExecutionMode %mesh OutputLinesEXT\n"),
               "a MeshEXT entry point must declare exactly one of the OutputPoints");
  EXPECT_ERROR(without("OpExecutionMode %mesh OutputPrimitivesEXT 1\n"),
               "a MeshEXT entry point must declare both the OutputPrimitivesEXT and "
               "OutputVertices execution modes");
  EXPECT_ERROR(without("OpExecutionMode %task LocalSize 1 1 1\n",
                       "OpExecutionMode %task LocalSize 1 1 1\n"
                       "OpExecutionMode %task OutputPrimitivesEXT 1\n"),
               "does not apply to the TaskEXT execution model of %task");
  std::string twoPayloads =
      test::replaced(kMesh, "%task \"task\" %tp %wg", "%task \"task\" %tp %wg %tp2");
  twoPayloads = test::replaced(twoPayloads, "%wg = OpVariable %ptr_wg Workgroup\n",
                               "%wg = OpVariable %ptr_wg Workgroup\n"
                               "%tp2 = OpVariable %ptr_tp TaskPayloadWorkgroupEXT\n");
  twoPayloads = test::replaced(twoPayloads, "MESH", "OpReturn");
  EXPECT_ERROR(test::validateText(test::replaced(twoPayloads, "TASK",
                                                 "OpEmitMeshTasksEXT %uint_1 %uint_1 %uint_1 %tp"),
                                  "spv1.5"),
               "a MeshEXT or TaskEXT entry point may have at most one TaskPayloadWorkgroupEXT "
               "variable");
}

// VUID-StandaloneSpirv-MeshEXT-07330 / -07331: Vulkan's mesh shaders output at least one vertex
// and one primitive; SPIR-V alone allows zero.
TEST(ValMeshShading, VulkanMeshShadersOutputSomething) {
  std::string text = test::replaced(kMesh, "MESH", "OpReturn");
  text = test::replaced(text, "TASK", "OpEmitMeshTasksEXT %uint_1 %uint_1 %uint_1 %tp");
  const std::string noVertices = test::replaced(text, "OutputVertices 3", "OutputVertices 0");
  const std::string noPrimitives =
      test::replaced(text, "OutputPrimitivesEXT 1", "OutputPrimitivesEXT 0");
  EXPECT_VALID(test::validateText(text, "vulkan1.3"));
  EXPECT_VALID(test::validateText(noVertices, "spv1.5"));
  EXPECT_ERROR(test::validateText(noVertices, "vulkan1.3"),
               "a MeshEXT entry point's OutputVertices must be greater than 0 in Vulkan");
  EXPECT_ERROR(test::validateText(noPrimitives, "vulkan1.3"),
               "a MeshEXT entry point's OutputPrimitivesEXT must be greater than 0 in Vulkan");
}

} // namespace
} // namespace spire::val
