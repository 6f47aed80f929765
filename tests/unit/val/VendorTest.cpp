// The operand and result types of NV and AMD vendor instructions (RulesVendor.cpp): hit objects
// (SPV_NV_shader_invocation_reorder and the queries of newer extensions), bindless textures,
// subgroup partitions, packed primitive indices and fragment masks; and, for these and the INTEL
// instructions RulesIntel checks beside them, that a module spire val accepts deserializes to IR
// that verifies.
#include "InstructionPool.h"
#include "ValTestUtil.h"
#include "spire/grammar/Grammar.h"

#include <map>
#include <sstream>
#include <vector>

namespace spire::val {
namespace {

/// What the structured IR's verifier says of `text` after deserialization: "" when it verifies.
std::string verifierSays(std::string_view text) {
  AssembleOptions as;
  as.version = grammar::makeVersion(1, 6);
  as.preserveNumericIds = true;
  Expected<std::vector<uint32_t>> words = assemble(text, as);
  if (!words)
    return "(not assembled) " + words.error().format("<test>");
  Expected<Module> m = Module::fromWords(*words);
  return m ? test::verdicts(*m).verifier : "(not read) " + m.error().format("<test>");
}

// --- Hit objects -------------------------------------------------------------------------------

// A RayGenerationKHR entry point whose BODY has a Private hit object %hobj, an acceleration
// structure %a, a payload %payload, hit object attributes %attr, 32-bit integers %u1 and %i1, a
// 64-bit one %l1, floats %f1, a ray origin and direction %v3 and a Function float %ff.
constexpr const char *kHitObjects = R"(
OpCapability RayTracingKHR
OpCapability ShaderInvocationReorderNV
OpCapability RayTracingMotionBlurNV
OpCapability Int64
OpExtension "SPV_KHR_ray_tracing"
OpExtension "SPV_NV_shader_invocation_reorder"
OpExtension "SPV_NV_ray_tracing_motion_blur"
OpMemoryModel Logical GLSL450
OpEntryPoint RayGenerationKHR %main "main" %tlas %hobj %payload %attr
OpName %hobj "hobj"
OpName %payload "payload"
OpName %attr "attr"
OpName %ff "ff"
OpName %a "a"
OpName %u1 "u1"
OpName %i1 "i1"
OpName %l1 "l1"
OpName %f1 "f1"
OpName %v3 "v3"
OpName %v4 "v4"
OpDecorate %tlas DescriptorSet 0
OpDecorate %tlas Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%v2float = OpTypeVector %float 2
%v3float = OpTypeVector %float 3
%v4float = OpTypeVector %float 4
%v2uint = OpTypeVector %uint 2
%v3uint = OpTypeVector %uint 3
%mat4v3float = OpTypeMatrix %v3float 4
%mat3v3float = OpTypeMatrix %v3float 3
%as = OpTypeAccelerationStructureKHR
%hit = OpTypeHitObjectNV
%ptr_uc_as = OpTypePointer UniformConstant %as
%ptr_private_hit = OpTypePointer Private %hit
%ptr_payload = OpTypePointer RayPayloadKHR %v4float
%ptr_attr = OpTypePointer HitObjectAttributeNV %v2float
%ptr_fn_float = OpTypePointer Function %float
TYPES
%tlas = OpVariable %ptr_uc_as UniformConstant
%hobj = OpVariable %ptr_private_hit Private
%payload = OpVariable %ptr_payload RayPayloadKHR
%attr = OpVariable %ptr_attr HitObjectAttributeNV
%u1 = OpConstant %uint 1
%i1 = OpConstant %int 1
%l1 = OpConstant %ulong 1
%f1 = OpConstant %float 1
%v3 = OpConstantComposite %v3float %f1 %f1 %f1
%v4 = OpConstantComposite %v4float %f1 %f1 %f1 %f1
%main = OpFunction %void None %fn
%e = OpLabel
%ff = OpVariable %ptr_fn_float Function
%a = OpLoad %as %tlas
BODY
OpReturn
OpFunctionEnd
)";

// Every instruction of SPV_NV_shader_invocation_reorder, as glslang writes them (signed and
// unsigned integers mixed).
constexpr const char *kAllHitObjectInstructions = R"(
OpHitObjectTraceRayNV %hobj %a %u1 %u1 %u1 %u1 %u1 %v3 %f1 %v3 %f1 %payload
OpHitObjectTraceRayMotionNV %hobj %a %u1 %u1 %u1 %u1 %u1 %v3 %f1 %v3 %f1 %f1 %payload
OpHitObjectRecordHitNV %hobj %a %i1 %i1 %i1 %u1 %u1 %u1 %v3 %f1 %v3 %f1 %attr
OpHitObjectRecordHitMotionNV %hobj %a %i1 %i1 %i1 %u1 %u1 %u1 %v3 %f1 %v3 %f1 %f1 %attr
OpHitObjectRecordHitWithIndexNV %hobj %a %i1 %i1 %i1 %u1 %u1 %v3 %f1 %v3 %f1 %attr
OpHitObjectRecordHitWithIndexMotionNV %hobj %a %i1 %i1 %i1 %u1 %u1 %v3 %f1 %v3 %f1 %f1 %attr
OpHitObjectRecordEmptyNV %hobj
OpHitObjectRecordMissNV %hobj %u1 %v3 %f1 %v3 %f1
OpHitObjectRecordMissMotionNV %hobj %u1 %v3 %f1 %v3 %f1 %f1
OpHitObjectExecuteShaderNV %hobj %payload
OpHitObjectGetAttributesNV %hobj %attr
%r1 = OpHitObjectIsHitNV %bool %hobj
%r2 = OpHitObjectIsMissNV %bool %hobj
%r3 = OpHitObjectIsEmptyNV %bool %hobj
%r4 = OpHitObjectGetRayTMinNV %float %hobj
%r5 = OpHitObjectGetRayTMaxNV %float %hobj
%r6 = OpHitObjectGetCurrentTimeNV %float %hobj
%r7 = OpHitObjectGetWorldRayOriginNV %v3float %hobj
%r8 = OpHitObjectGetWorldRayDirectionNV %v3float %hobj
%r9 = OpHitObjectGetObjectRayOriginNV %v3float %hobj
%r10 = OpHitObjectGetObjectRayDirectionNV %v3float %hobj
%r11 = OpHitObjectGetObjectToWorldNV %mat4v3float %hobj
%r12 = OpHitObjectGetWorldToObjectNV %mat4v3float %hobj
%r13 = OpHitObjectGetInstanceCustomIndexNV %int %hobj
%r14 = OpHitObjectGetInstanceIdNV %int %hobj
%r15 = OpHitObjectGetPrimitiveIndexNV %int %hobj
%r16 = OpHitObjectGetGeometryIndexNV %int %hobj
%r17 = OpHitObjectGetHitKindNV %uint %hobj
%r18 = OpHitObjectGetShaderRecordBufferHandleNV %v2uint %hobj
%r19 = OpHitObjectGetShaderBindingTableRecordIndexNV %uint %hobj
OpReorderThreadWithHitObjectNV %hobj
OpReorderThreadWithHitObjectNV %hobj %u1 %u1
OpReorderThreadWithHintNV %u1 %u1
)";

std::string hitObjects(std::string_view body, std::string_view types = "") {
  return test::replaced(test::replaced(kHitObjects, "TYPES", types), "BODY", body);
}

TEST(ValVendor, HitObjectInstructionsTakeAndGiveWhatTheExtensionLists) {
  const std::string valid = hitObjects(kAllHitObjectInstructions);
  EXPECT_VALID(test::validateText(valid));
  EXPECT_VALID(test::validateText(valid, "vulkan1.3"));
  EXPECT_EQ(verifierSays(valid), "");

  auto rejects = [&](std::string_view body, std::string_view message, std::string_view types = "") {
    const Report r = test::validateText(hitObjects(body, types));
    EXPECT_RULE_ERROR(r, message, "SPV_NV_shader_invocation_reorder");
  };
  // The hit object is a pointer to one.
  rejects("OpHitObjectRecordEmptyNV %payload",
          "OpHitObjectRecordEmptyNV: Hit Object %payload must be a pointer to OpTypeHitObjectNV");
  rejects("%r = OpHitObjectIsHitNV %bool %ff",
          "OpHitObjectIsHitNV: Hit Object %ff must be a pointer to OpTypeHitObjectNV");
  // Records and traces: an acceleration structure, 32-bit integers, the ray, and variables of
  // their storage classes.
  rejects("OpHitObjectRecordHitNV %hobj %u1 %u1 %u1 %u1 %u1 %u1 %u1 %v3 %f1 %v3 %f1 %attr",
          "OpHitObjectRecordHitNV: Acceleration Structure %u1 must be an "
          "OpTypeAccelerationStructureKHR");
  rejects("OpHitObjectRecordHitNV %hobj %a %u1 %u1 %l1 %u1 %u1 %u1 %v3 %f1 %v3 %f1 %attr",
          "OpHitObjectRecordHitNV: Geometry Index %l1 must be a 32-bit integer scalar");
  // Hit Kind, SBT Record Index and a record's Miss Index are unsigned ("must be a 32 bit
  // unsigned integer type scalar"); what glslang passes as signed is not.
  rejects("OpHitObjectRecordHitNV %hobj %a %u1 %u1 %u1 %i1 %u1 %u1 %v3 %f1 %v3 %f1 %attr",
          "OpHitObjectRecordHitNV: Hit Kind %i1 must be a 32-bit unsigned integer scalar");
  rejects("OpHitObjectRecordHitWithIndexNV %hobj %a %u1 %u1 %u1 %u1 %f1 %v3 %f1 %v3 %f1 %attr",
          "OpHitObjectRecordHitWithIndexNV: SBT Record Index %f1 must be a 32-bit unsigned "
          "integer scalar");
  rejects("OpHitObjectRecordMissNV %hobj %i1 %v3 %f1 %v3 %f1",
          "OpHitObjectRecordMissNV: Miss Index %i1 must be a 32-bit unsigned integer scalar");
  rejects("OpHitObjectRecordMissNV %hobj %u1 %v4 %f1 %v3 %f1",
          "OpHitObjectRecordMissNV: Ray Origin %v4 must be a vector of three 32-bit floats");
  rejects("OpHitObjectRecordMissMotionNV %hobj %u1 %v3 %f1 %v3 %f1 %u1",
          "OpHitObjectRecordMissMotionNV: Current Time %u1 must be a 32-bit float scalar");
  rejects("OpHitObjectTraceRayNV %hobj %a %u1 %u1 %u1 %u1 %u1 %v3 %f1 %v3 %f1 %attr",
          "OpHitObjectTraceRayNV: Payload %attr must be in the RayPayloadKHR or "
          "IncomingRayPayloadKHR storage class");
  rejects("OpHitObjectExecuteShaderNV %hobj %ff",
          "OpHitObjectExecuteShaderNV: Payload %ff must be in the RayPayloadKHR or "
          "IncomingRayPayloadKHR storage class");
  rejects("OpHitObjectRecordHitMotionNV %hobj %a %u1 %u1 %u1 %u1 %u1 %u1 %v3 %f1 %v3 %f1 %f1 "
          "%payload",
          "OpHitObjectRecordHitMotionNV: Hit Object Attributes %payload must be in the "
          "HitObjectAttributeNV storage class");
  {
    const Report r = test::validateText(hitObjects(
        "%c = OpAccessChain %ptr_attr_float %attr %u1\nOpHitObjectGetAttributesNV %hobj %c",
        "%ptr_attr_float = OpTypePointer HitObjectAttributeNV %float"));
    EXPECT_ERROR(r, "OpHitObjectGetAttributesNV: Hit Object Attributes %");
    EXPECT_ERROR(r, "must be the result of an OpVariable");
  }
  // What the queries give.
  rejects("%r = OpHitObjectGetRayTMinNV %int %hobj",
          "OpHitObjectGetRayTMinNV: the result type %int must be a 32-bit float scalar");
  rejects("%r = OpHitObjectGetInstanceIdNV %ulong %hobj",
          "OpHitObjectGetInstanceIdNV: the result type %ulong must be a 32-bit integer scalar");
  rejects("%r = OpHitObjectIsMissNV %uint %hobj",
          "OpHitObjectIsMissNV: the result type %uint must be a boolean scalar");
  rejects("%r = OpHitObjectGetWorldRayOriginNV %v4float %hobj",
          "OpHitObjectGetWorldRayOriginNV: the result type %v4float must be a vector of three "
          "32-bit floats");
  rejects("%r = OpHitObjectGetObjectToWorldNV %mat3v3float %hobj",
          "OpHitObjectGetObjectToWorldNV: the result type %mat3v3float must be a matrix of four "
          "columns of three 32-bit floats");
  rejects("%r = OpHitObjectGetShaderRecordBufferHandleNV %ulong %hobj",
          "OpHitObjectGetShaderRecordBufferHandleNV: the result type %ulong must be a vector of "
          "two 32-bit integers");
  // Reorders: 32-bit Hint and Bits, together or not at all.
  rejects("OpReorderThreadWithHintNV %u1 %l1",
          "OpReorderThreadWithHintNV: Bits %l1 must be a 32-bit integer scalar");
  rejects("OpReorderThreadWithHitObjectNV %hobj %f1 %u1",
          "OpReorderThreadWithHitObjectNV: Hint %f1 must be a 32-bit integer scalar");
  rejects("OpReorderThreadWithHitObjectNV %hobj %u1",
          "OpReorderThreadWithHitObjectNV: Hint %u1 is given without Bits: give both or neither");
  // Hit objects live in Private or Function variables and are not loaded, stored or copied.
  rejects("", "a pointer to OpTypeHitObjectNV must be in the Private or Function storage class",
          "%ptr_wg_hit = OpTypePointer Workgroup %hit");
  rejects("%h = OpLoad %hit %hobj",
          "OpLoad cannot access a hit object; hit objects are used through the OpHitObject*NV "
          "and OpReorderThreadWithHitObjectNV instructions only");
  rejects("OpCopyMemory %hobj %hobj", "OpCopyMemory cannot access a hit object");
}

bool hasInstruction(std::string_view name) { return grammar::findInstruction(name) != nullptr; }

// SPV_NV_cluster_acceleration_structure and SPV_NV_linear_swept_spheres query hit objects too;
// newer grammars than Debian's have them.
TEST(ValVendor, HitObjectQueriesOfNewerExtensions) {
  if (!hasInstruction("OpHitObjectGetClusterIdNV") ||
      !hasInstruction("OpHitObjectGetLSSPositionsNV"))
    GTEST_SKIP() << "this build's grammar has no SPV_NV_linear_swept_spheres";
  constexpr const char *kCapabilities = R"(
OpCapability RayTracingClusterAccelerationStructureNV
OpCapability RayTracingSpheresGeometryNV
OpCapability RayTracingLinearSweptSpheresGeometryNV
OpExtension "SPV_NV_cluster_acceleration_structure"
OpExtension "SPV_NV_linear_swept_spheres"
)";
  constexpr const char *kTypes = R"(
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%positions = OpTypeArray %v3float %uint_2
%radii = OpTypeArray %float %uint_2
%radii3 = OpTypeArray %float %uint_3
)";
  auto module = [&](std::string_view body) {
    std::string text = test::replaced(kHitObjects, "OpCapability Int64",
                                      std::string("OpCapability Int64") + kCapabilities);
    return test::replaced(test::replaced(text, "TYPES", kTypes), "BODY", body);
  };
  EXPECT_VALID(test::validateText(module(R"(
%r1 = OpHitObjectGetClusterIdNV %int %hobj
%r2 = OpHitObjectGetSpherePositionNV %v3float %hobj
%r3 = OpHitObjectGetSphereRadiusNV %float %hobj
%r4 = OpHitObjectGetLSSPositionsNV %positions %hobj
%r5 = OpHitObjectGetLSSRadiiNV %radii %hobj
%r6 = OpHitObjectIsSphereHitNV %bool %hobj
%r7 = OpHitObjectIsLSSHitNV %bool %hobj
)")));
  auto rejects = [&](std::string_view body, std::string_view message, std::string_view rule) {
    const Report r = test::validateText(module(body));
    EXPECT_RULE_ERROR(r, message, rule);
  };
  rejects("%r = OpHitObjectGetClusterIdNV %float %hobj",
          "OpHitObjectGetClusterIdNV: the result type %float must be a 32-bit integer scalar",
          "SPV_NV_cluster_acceleration_structure");
  rejects("%r = OpHitObjectGetSphereRadiusNV %float %ff",
          "OpHitObjectGetSphereRadiusNV: Hit Object %ff must be a pointer to OpTypeHitObjectNV",
          "SPV_NV_linear_swept_spheres");
  rejects("%r = OpHitObjectGetLSSRadiiNV %radii3 %hobj",
          "OpHitObjectGetLSSRadiiNV: the result type %_arr_float_uint_3 must be an array of two "
          "32-bit floats",
          "SPV_NV_linear_swept_spheres");
  rejects("%r = OpHitObjectGetLSSPositionsNV %radii %hobj",
          "OpHitObjectGetLSSPositionsNV: the result type %_arr_float_uint_2 must be an array of "
          "two vectors of three 32-bit floats",
          "SPV_NV_linear_swept_spheres");
  rejects("%r = OpHitObjectIsLSSHitNV %int %hobj",
          "OpHitObjectIsLSSHitNV: the result type %int must be a boolean scalar",
          "SPV_NV_linear_swept_spheres");
}

// --- Bindless textures -------------------------------------------------------------------------

// A compute shader with an image %img, a sampler %smp and a sampled image %si loaded from
// variables, 32- and 64-bit integers %u, %l and a pair of 32-bit ones %p; MODE is the addressing
// mode instruction (or nothing).
constexpr const char *kBindless = R"(
OpCapability Shader
OpCapability Int64
OpCapability BindlessTextureNV
OpExtension "SPV_NV_bindless_texture"
OpMemoryModel Logical GLSL450
MODE
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %img "img"
OpName %smp "smp"
OpName %si "si"
OpName %u "u"
OpName %l "l"
OpName %p "p"
OpName %f "f"
OpName %image "image"
OpName %sampler "sampler"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%v2uint = OpTypeVector %uint 2
%image = OpTypeImage %float 2D 0 0 0 1 Unknown
%sampler = OpTypeSampler
%sampled = OpTypeSampledImage %image
%u = OpConstant %uint 1
%l = OpConstant %ulong 1
%p = OpConstantComposite %v2uint %u %u
%f = OpConstant %float 1
%main = OpFunction %void None %fn
%e = OpLabel
%img = OpConvertUToImageNV %image HANDLE
%smp = OpConvertUToSamplerNV %sampler HANDLE
%si = OpConvertUToSampledImageNV %sampled HANDLE
%ri = OpConvertImageToUNV HANDLE_TYPE %img
%rs = OpConvertSamplerToUNV HANDLE_TYPE %smp
%rsi = OpConvertSampledImageToUNV HANDLE_TYPE %si
BODY
OpReturn
OpFunctionEnd
)";

std::string bindless(std::string_view mode, std::string_view handle, std::string_view handleType,
                     std::string_view body = "") {
  std::string text = test::replaced(kBindless, "MODE", mode);
  text = test::replaced(text, "HANDLE_TYPE", handleType);
  return test::replaced(test::replaced(text, "HANDLE", handle), "BODY", body);
}

TEST(ValVendor, BindlessHandlesHaveTheWidthOfTheAddressingMode) {
  // Bit Width 64: a 64-bit integer or two 32-bit ones; 32: a 32-bit integer; no addressing mode:
  // any of them.
  for (auto [mode, handle, type] :
       {std::tuple{"OpSamplerImageAddressingModeNV 64", "%l", "%ulong"},
        std::tuple{"OpSamplerImageAddressingModeNV 64", "%p", "%v2uint"},
        std::tuple{"OpSamplerImageAddressingModeNV 32", "%u", "%uint"},
        std::tuple{"", "%u", "%uint"}, std::tuple{"", "%l", "%ulong"},
        std::tuple{"", "%p", "%v2uint"}}) {
    SCOPED_TRACE(std::string(mode) + " " + handle);
    const std::string text = bindless(mode, handle, type);
    EXPECT_VALID(test::validateText(text));
    EXPECT_EQ(verifierSays(text), "");
  }
  auto rejects = [&](const std::string &text, std::string_view message) {
    const Report r = test::validateText(text);
    EXPECT_RULE_ERROR(r, message, "SPV_NV_bindless_texture");
  };
  rejects(bindless("OpSamplerImageAddressingModeNV 64", "%u", "%ulong"),
          "OpConvertUToImageNV: Operand %u must be a 64-bit integer scalar or a vector of two "
          "32-bit integers (the module's OpSamplerImageAddressingModeNV is 64)");
  rejects(bindless("OpSamplerImageAddressingModeNV 32", "%u", "%ulong"),
          "OpConvertImageToUNV: the result type %ulong must be a 32-bit integer scalar (the "
          "module's OpSamplerImageAddressingModeNV is 32)");
  rejects(bindless("OpSamplerImageAddressingModeNV 32", "%p", "%uint"),
          "OpConvertUToSamplerNV: Operand %p must be a 32-bit integer scalar");
  rejects(bindless("", "%f", "%uint"),
          "OpConvertUToSampledImageNV: Operand %f must be a 32- or 64-bit integer scalar or a "
          "vector of two 32-bit integers");
  rejects(bindless("OpSamplerImageAddressingModeNV 16", "%u", "%uint"),
          "OpSamplerImageAddressingModeNV: Bit Width 16 must be 32 or 64");
  // The conversions give and take images, samplers and sampled images.
  rejects(bindless("", "%u", "%uint", "%x = OpConvertUToImageNV %sampler %u"),
          "OpConvertUToImageNV: the result type %sampler must be OpTypeImage");
  rejects(bindless("", "%u", "%uint", "%x = OpConvertUToSampledImageNV %image %u"),
          "OpConvertUToSampledImageNV: the result type %image must be OpTypeSampledImage");
  rejects(bindless("", "%u", "%uint", "%x = OpConvertSamplerToUNV %uint %img"),
          "OpConvertSamplerToUNV: Operand %img must be of type OpTypeSampler");
  rejects(bindless("", "%u", "%uint", "%x = OpConvertSampledImageToUNV %uint %smp"),
          "OpConvertSampledImageToUNV: Operand %smp must be of type OpTypeSampledImage");
}

// --- Partitions, packed primitive indices ------------------------------------------------------

TEST(ValVendor, PartitionsAreBallotsOfScalarsOrVectors) {
  constexpr const char *kPartition = R"(
OpCapability Shader
OpCapability GroupNonUniformPartitionedNV
OpExtension "SPV_NV_shader_subgroup_partitioned"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %f "f"
OpName %v "v"
OpName %t "t"
OpName %sc "sc"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v3uint = OpTypeVector %uint 3
%v4uint = OpTypeVector %uint 4
%v2float = OpTypeVector %float 2
%s = OpTypeStruct %uint
%f = OpConstant %float 1
%v = OpConstantComposite %v2float %f %f
%u = OpConstant %uint 1
%t = OpConstantTrue %bool
%sc = OpConstantComposite %s %u
%main = OpFunction %void None %fn
%e = OpLabel
BODY
OpReturn
OpFunctionEnd
)";
  auto module = [&](std::string_view body) { return test::replaced(kPartition, "BODY", body); };
  EXPECT_VALID(test::validateText(module(R"(
%a = OpGroupNonUniformPartitionNV %v4uint %f
%b = OpGroupNonUniformPartitionNV %v4uint %v
%c = OpGroupNonUniformPartitionNV %v4uint %t
)")));
  // SPIR-V 1.6 revision 7 names the instruction ...PartitionEXT, with the NV name an alias.
  const std::string partition(grammar::findInstruction("OpGroupNonUniformPartitionNV")->name);
  EXPECT_ERROR(test::validateText(module("%a = OpGroupNonUniformPartitionNV %v3uint %f")),
               partition + ": the result type %v3uint must be a vector of four "
                           "32-bit integers");
  EXPECT_ERROR(test::validateText(module("%a = OpGroupNonUniformPartitionNV %v4uint %sc")),
               partition + ": Value %sc must be a boolean, integer or float "
                           "scalar or vector");
}

TEST(ValVendor, PackedPrimitiveIndicesAre32BitIntegersAtMultiplesOfFour) {
  constexpr const char *kMesh = R"(
OpCapability MeshShadingNV
OpCapability Int64
OpExtension "SPV_NV_mesh_shader"
OpMemoryModel Logical GLSL450
OpEntryPoint MeshNV %main "main" %indices
OpExecutionMode %main LocalSize 1 1 1
OpExecutionMode %main OutputVertices 3
OpExecutionMode %main OutputPrimitivesNV 1
OpExecutionMode %main OutputTrianglesNV
OpName %u4 "u4"
OpName %u6 "u6"
OpName %l4 "l4"
OpName %f "f"
OpName %i4 "i4"
OpDecorate %indices BuiltIn PrimitiveIndicesNV
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%uint_3 = OpConstant %uint 3
%arr = OpTypeArray %uint %uint_3
%ptr = OpTypePointer Output %arr
%indices = OpVariable %ptr Output
%int = OpTypeInt 32 1
%u0 = OpConstant %uint 0
%u4 = OpConstant %uint 4
%i4 = OpConstant %int 4
%u6 = OpConstant %uint 6
%l4 = OpConstant %ulong 4
%f = OpConstant %float 1
%main = OpFunction %void None %fn
%e = OpLabel
BODY
OpReturn
OpFunctionEnd
)";
  auto module = [&](std::string_view body) { return test::replaced(kMesh, "BODY", body); };
  EXPECT_VALID(test::validateText(module("OpWritePackedPrimitiveIndices4x8NV %u4 %u0")));
  EXPECT_ERROR(test::validateText(module("OpWritePackedPrimitiveIndices4x8NV %l4 %u0")),
               "OpWritePackedPrimitiveIndices4x8NV: Index Offset %l4 must be a 32-bit unsigned "
               "integer scalar");
  EXPECT_ERROR(test::validateText(module("OpWritePackedPrimitiveIndices4x8NV %u4 %f")),
               "OpWritePackedPrimitiveIndices4x8NV: Packed Indices %f must be a 32-bit unsigned "
               "integer scalar");
  EXPECT_ERROR(test::validateText(module("OpWritePackedPrimitiveIndices4x8NV %i4 %u0")),
               "OpWritePackedPrimitiveIndices4x8NV: Index Offset %i4 must be a 32-bit unsigned "
               "integer scalar");
  EXPECT_ERROR(test::validateText(module("OpWritePackedPrimitiveIndices4x8NV %u6 %u0")),
               "OpWritePackedPrimitiveIndices4x8NV: Index Offset %u6 (6) must be a multiple of "
               "four");
}

// --- Fragment masks ----------------------------------------------------------------------------

// A fragment shader with multisampled images: float 2D %ms, int arrayed 2D %msa, a uint subpass
// %sub, and a single-sampled %ss; integer coordinates %c2 and %c3.
constexpr const char *kFragmentMask = R"(
OpCapability Shader
OpCapability InputAttachment
OpCapability ImageMSArray
OpCapability FragmentMaskAMD
OpExtension "SPV_AMD_shader_fragment_mask"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %vms %vmsa %vsub %vss
OpExecutionMode %main OriginUpperLeft
OpName %ms "ms"
OpName %msa "msa"
OpName %sub "sub"
OpName %ss "ss"
OpName %c2 "c2"
OpName %c3 "c3"
OpName %f "f"
OpName %l "l"
OpDecorate %vms DescriptorSet 0
OpDecorate %vms Binding 0
OpDecorate %vmsa DescriptorSet 0
OpDecorate %vmsa Binding 1
OpDecorate %vsub DescriptorSet 0
OpDecorate %vsub Binding 2
OpDecorate %vsub InputAttachmentIndex 0
OpDecorate %vss DescriptorSet 0
OpDecorate %vss Binding 3
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%v2int = OpTypeVector %int 2
%v3int = OpTypeVector %int 3
%v3float = OpTypeVector %float 3
%v4float = OpTypeVector %float 4
%v4int = OpTypeVector %int 4
%v4uint = OpTypeVector %uint 4
%tms = OpTypeImage %float 2D 0 0 1 1 Unknown
%tmsa = OpTypeImage %int 2D 0 1 1 1 Unknown
%tsub = OpTypeImage %uint SubpassData 0 0 1 2 Unknown
%tss = OpTypeImage %float 2D 0 0 0 1 Unknown
%pms = OpTypePointer UniformConstant %tms
%pmsa = OpTypePointer UniformConstant %tmsa
%psub = OpTypePointer UniformConstant %tsub
%pss = OpTypePointer UniformConstant %tss
%vms = OpVariable %pms UniformConstant
%vmsa = OpVariable %pmsa UniformConstant
%vsub = OpVariable %psub UniformConstant
%vss = OpVariable %pss UniformConstant
%i0 = OpConstant %int 0
%u1 = OpConstant %uint 1
%l = OpConstant %ulong 1
%f = OpConstant %float 1
%c2 = OpConstantComposite %v2int %i0 %i0
%c3 = OpConstantComposite %v3int %i0 %i0 %i0
%main = OpFunction %void None %fn
%e = OpLabel
%ms = OpLoad %tms %vms
%msa = OpLoad %tmsa %vmsa
%sub = OpLoad %tsub %vsub
%ss = OpLoad %tss %vss
BODY
OpReturn
OpFunctionEnd
)";

TEST(ValVendor, FragmentMasksAreFetchedFromMultisampledImages) {
  auto module = [&](std::string_view body) {
    std::string text = test::replaced(kFragmentMask, "BODY", body);
    return test::replaced(text, "OpCapability Shader", "OpCapability Shader\nOpCapability Int64");
  };
  const std::string valid = module(R"(
%m1 = OpFragmentMaskFetchAMD %uint %ms %c2
%f1 = OpFragmentFetchAMD %v4float %ms %c2 %u1
%m2 = OpFragmentMaskFetchAMD %uint %msa %c3
%f2 = OpFragmentFetchAMD %v4int %msa %c3 %u1
%m3 = OpFragmentMaskFetchAMD %uint %sub %c2
%f3 = OpFragmentFetchAMD %v4uint %sub %c2 %u1
)");
  EXPECT_VALID(test::validateText(valid));
  EXPECT_VALID(test::validateText(valid, "vulkan1.3"));
  EXPECT_EQ(verifierSays(valid), "");
  auto rejects = [&](std::string_view body, std::string_view message) {
    const Report r = test::validateText(module(body));
    EXPECT_RULE_ERROR(r, message, "SPV_AMD_shader_fragment_mask");
  };
  rejects("%m = OpFragmentMaskFetchAMD %ulong %ms %c2",
          "OpFragmentMaskFetchAMD: the result type %ulong must be a 32-bit unsigned integer "
          "scalar");
  rejects("%m = OpFragmentMaskFetchAMD %int %ms %c2",
          "OpFragmentMaskFetchAMD: the result type %int must be a 32-bit unsigned integer scalar");
  rejects("%m = OpFragmentMaskFetchAMD %uint %ss %c2",
          "OpFragmentMaskFetchAMD: Image %ss must be an OpTypeImage with MS 1 and Dim 2D or "
          "SubpassData");
  rejects("%m = OpFragmentMaskFetchAMD %uint %msa %c2",
          "OpFragmentMaskFetchAMD: Coordinate %c2 must be an integer scalar or vector of at least "
          "3 components (the image's (u, v, array layer))");
  rejects("%m = OpFragmentFetchAMD %v3float %ms %c2 %u1",
          "OpFragmentFetchAMD: the result type %v3float must be a vector of four floats or "
          "integers");
  rejects("%m = OpFragmentFetchAMD %v4int %ms %c2 %u1",
          "OpFragmentFetchAMD: the result type %v4int must have components of the image's "
          "Sampled Type %float");
  rejects("%m = OpFragmentFetchAMD %v4float %ms %f %u1",
          "OpFragmentFetchAMD: Coordinate %f must be an integer scalar or vector of at least 2 "
          "components");
  rejects("%m = OpFragmentFetchAMD %v4float %ms %c2 %f",
          "OpFragmentFetchAMD: Fragment Index %f must be an integer scalar");
}

// --- The verifier's property -------------------------------------------------------------------

// A module with one parameter of each type the instructions take and give (%p_<type>) in a
// function that no entry point calls, and three variables: a Private hit object, a ray payload and
// hit object attributes. INST is the instruction under test.
constexpr const char *kPool = R"(
OpCapability Shader
OpCapability Int64
OpCapability RayTracingKHR
OpCapability ShaderInvocationReorderNV
OpCapability RayTracingMotionBlurNV
OpCapability BindlessTextureNV
OpCapability GroupNonUniformPartitionedNV
OpCapability MeshShadingNV
OpCapability FragmentMaskAMD
OpCapability IntegerFunctions2INTEL
OpCapability SubgroupImageMediaBlockIOINTEL
MORE_CAPABILITIES
OpExtension "SPV_KHR_ray_tracing"
OpExtension "SPV_NV_shader_invocation_reorder"
OpExtension "SPV_NV_ray_tracing_motion_blur"
OpExtension "SPV_NV_bindless_texture"
OpExtension "SPV_NV_shader_subgroup_partitioned"
OpExtension "SPV_NV_mesh_shader"
OpExtension "SPV_AMD_shader_fragment_mask"
OpExtension "SPV_INTEL_shader_integer_functions2"
OpExtension "SPV_INTEL_media_block_io"
MORE_EXTENSIONS
OpMemoryModel Logical GLSL450
OpSamplerImageAddressingModeNV 64
OpEntryPoint RayGenerationKHR %main "main" %hobj %payload %attr
%void = OpTypeVoid
%bool = OpTypeBool
%i32 = OpTypeInt 32 1
%u32 = OpTypeInt 32 0
%u64 = OpTypeInt 64 0
%f32 = OpTypeFloat 32
%v2u32 = OpTypeVector %u32 2
%v3u32 = OpTypeVector %u32 3
%v4u32 = OpTypeVector %u32 4
%v4i32 = OpTypeVector %i32 4
%v2f32 = OpTypeVector %f32 2
%v3f32 = OpTypeVector %f32 3
%v4f32 = OpTypeVector %f32 4
%m4x3 = OpTypeMatrix %v3f32 4
%m3x3 = OpTypeMatrix %v3f32 3
%c2 = OpConstant %u32 2
%a2v3 = OpTypeArray %v3f32 %c2
%a2f32 = OpTypeArray %f32 %c2
%img = OpTypeImage %f32 2D 0 0 0 1 Unknown
%ms = OpTypeImage %f32 2D 0 0 1 1 Unknown
%st = OpTypeImage %u32 2D 0 0 0 2 R32ui
%si = OpTypeSampledImage %img
%smp = OpTypeSampler
%as = OpTypeAccelerationStructureKHR
%hit = OpTypeHitObjectNV
%phit = OpTypePointer Private %hit
%pf32 = OpTypePointer Private %f32
%ppayload = OpTypePointer RayPayloadKHR %v4f32
%pattr = OpTypePointer HitObjectAttributeNV %v2f32
%hobj = OpVariable %phit Private
%payload = OpVariable %ppayload RayPayloadKHR
%attr = OpVariable %pattr HitObjectAttributeNV
%fn = OpTypeFunction %void
%poolfn = OpTypeFunction %void PARAMETER_TYPES
%main = OpFunction %void None %fn
%me = OpLabel
OpReturn
OpFunctionEnd
%pool = OpFunction %void None %poolfn
PARAMETERS
%e = OpLabel
INST
OpReturn
OpFunctionEnd
)";

constexpr const char *kPoolParameters[] = {"bool",  "i32",   "u32",   "u64",   "f32",   "v2u32",
                                           "v3u32", "v4u32", "v4i32", "v2f32", "v3f32", "v4f32",
                                           "m4x3",  "m3x3",  "a2v3",  "a2f32", "img",   "ms",
                                           "st",    "si",    "smp",   "as",    "phit",  "pf32"};
constexpr const char *kPoolVariables[] = {"hobj", "payload", "attr"};

/// The pool's entries: its parameters, then its variables, each with its id and type.
class Pool {
public:
  Pool() : module_(poolText(), kPoolParameters) {
    if (!module_.module())
      return;
    std::vector<Entry> variables;
    for (Instruction inst : *module_.module())
      if (inst.opcode() == grammar::Op::FunctionParameter)
        entries_.push_back({kPoolParameters[entries_.size()], inst.resultId(), inst.typeId()});
      else if (inst.opcode() == grammar::Op::Variable &&
               variables.size() < std::size(kPoolVariables))
        variables.push_back({kPoolVariables[variables.size()], inst.resultId(), inst.typeId()});
    entries_.insert(entries_.end(), variables.begin(), variables.end());
    valid_ = validate(*module_.module(), Options{}).valid();
  }

  const std::string &text() const { return module_.text(); }
  bool valid() const { return valid_; }
  size_t size() const { return entries_.size(); }
  std::string name(size_t i) const { return entries_[i].name; }
  /// The entry named `name`, size() when there is none.
  size_t find(std::string_view name) const {
    for (size_t i = 0; i < entries_.size(); ++i)
      if (entries_[i].name == name)
        return i;
    return size();
  }

  /// What spire val and the verifier say of `op` with pool entry `result`'s type as its result
  /// type (when it has one) and the pool entries `operands` as its id operands.
  test::Verdicts verdicts(const grammar::InstructionDesc &op, size_t result,
                          const std::vector<size_t> &operands) const {
    std::vector<uint32_t> words;
    for (const grammar::OperandDesc &o : op.operands)
      if (o.kind == grammar::OperandKind::IdResultType)
        words = {entries_[result].type, module_.freeId()};
    for (size_t k : operands)
      words.push_back(entries_[k].id);
    return module_.with(op.opcode, words);
  }

private:
  struct Entry {
    std::string name;
    uint32_t id, type;
  };

  /// The pool with the capabilities of the newer grammars' hit object queries where this build's
  /// grammar has them.
  static std::string poolText() {
    std::string caps, exts;
    if (hasInstruction("OpHitObjectGetClusterIdNV")) {
      caps += "OpCapability RayTracingClusterAccelerationStructureNV\n";
      exts += "OpExtension \"SPV_NV_cluster_acceleration_structure\"\n";
    }
    if (hasInstruction("OpHitObjectGetLSSPositionsNV")) {
      caps += "OpCapability RayTracingSpheresGeometryNV\n"
              "OpCapability RayTracingLinearSweptSpheresGeometryNV\n";
      exts += "OpExtension \"SPV_NV_linear_swept_spheres\"\n";
    }
    return test::replaced(test::replaced(kPool, "MORE_CAPABILITIES", caps), "MORE_EXTENSIONS",
                          exts);
  }

  test::PoolModule module_;
  std::vector<Entry> entries_;
  bool valid_ = false;
};

// Each instruction with a use of it spire val accepts: the pool entry of its result type ("-":
// none) and of each id operand.
constexpr std::pair<const char *, const char *> kPoolUses[] = {
    {"OpHitObjectRecordHitNV", "- hobj as u32 u32 u32 u32 u32 u32 v3f32 f32 v3f32 f32 attr"},
    {"OpHitObjectRecordHitMotionNV",
     "- hobj as u32 u32 u32 u32 u32 u32 v3f32 f32 v3f32 f32 f32 attr"},
    {"OpHitObjectRecordHitWithIndexNV", "- hobj as u32 u32 u32 u32 u32 v3f32 f32 v3f32 f32 attr"},
    {"OpHitObjectRecordHitWithIndexMotionNV",
     "- hobj as u32 u32 u32 u32 u32 v3f32 f32 v3f32 f32 f32 attr"},
    {"OpHitObjectRecordMissNV", "- hobj u32 v3f32 f32 v3f32 f32"},
    {"OpHitObjectRecordMissMotionNV", "- hobj u32 v3f32 f32 v3f32 f32 f32"},
    {"OpHitObjectRecordEmptyNV", "- hobj"},
    {"OpHitObjectTraceRayNV", "- hobj as u32 u32 u32 u32 u32 v3f32 f32 v3f32 f32 payload"},
    {"OpHitObjectTraceRayMotionNV",
     "- hobj as u32 u32 u32 u32 u32 v3f32 f32 v3f32 f32 f32 payload"},
    {"OpHitObjectExecuteShaderNV", "- hobj payload"},
    {"OpHitObjectGetAttributesNV", "- hobj attr"},
    {"OpHitObjectGetCurrentTimeNV", "f32 hobj"},
    {"OpHitObjectGetRayTMaxNV", "f32 hobj"},
    {"OpHitObjectGetRayTMinNV", "f32 hobj"},
    {"OpHitObjectGetHitKindNV", "u32 hobj"},
    {"OpHitObjectGetPrimitiveIndexNV", "i32 hobj"},
    {"OpHitObjectGetGeometryIndexNV", "i32 hobj"},
    {"OpHitObjectGetInstanceIdNV", "i32 hobj"},
    {"OpHitObjectGetInstanceCustomIndexNV", "i32 hobj"},
    {"OpHitObjectGetShaderBindingTableRecordIndexNV", "u32 hobj"},
    {"OpHitObjectGetWorldRayDirectionNV", "v3f32 hobj"},
    {"OpHitObjectGetWorldRayOriginNV", "v3f32 hobj"},
    {"OpHitObjectGetObjectRayDirectionNV", "v3f32 hobj"},
    {"OpHitObjectGetObjectRayOriginNV", "v3f32 hobj"},
    {"OpHitObjectGetWorldToObjectNV", "m4x3 hobj"},
    {"OpHitObjectGetObjectToWorldNV", "m4x3 hobj"},
    {"OpHitObjectGetShaderRecordBufferHandleNV", "v2u32 hobj"},
    {"OpHitObjectIsEmptyNV", "bool hobj"},
    {"OpHitObjectIsHitNV", "bool hobj"},
    {"OpHitObjectIsMissNV", "bool hobj"},
    {"OpReorderThreadWithHitObjectNV", "- hobj u32 u32"},
    {"OpReorderThreadWithHintNV", "- u32 u32"},
    {"OpHitObjectGetClusterIdNV", "u32 hobj"},
    {"OpHitObjectGetSpherePositionNV", "v3f32 hobj"},
    {"OpHitObjectGetSphereRadiusNV", "f32 hobj"},
    {"OpHitObjectGetLSSPositionsNV", "a2v3 hobj"},
    {"OpHitObjectGetLSSRadiiNV", "a2f32 hobj"},
    {"OpHitObjectIsSphereHitNV", "bool hobj"},
    {"OpHitObjectIsLSSHitNV", "bool hobj"},
    {"OpConvertUToImageNV", "img u64"},
    {"OpConvertUToSamplerNV", "smp v2u32"},
    {"OpConvertUToSampledImageNV", "si u64"},
    {"OpConvertImageToUNV", "u64 img"},
    {"OpConvertSamplerToUNV", "v2u32 smp"},
    {"OpConvertSampledImageToUNV", "u64 si"},
    {"OpGroupNonUniformPartitionNV", "v4u32 f32"},
    {"OpWritePackedPrimitiveIndices4x8NV", "- u32 u32"},
    {"OpFragmentMaskFetchAMD", "u32 ms v2u32"},
    {"OpFragmentFetchAMD", "v4f32 ms v2u32 u32"},
    {"OpUCountLeadingZerosINTEL", "u32 u32"},
    {"OpUCountTrailingZerosINTEL", "v2u32 v2u32"},
    {"OpAbsISubINTEL", "u32 i32 i32"},
    {"OpAbsUSubINTEL", "u32 u32 u32"},
    {"OpIAddSatINTEL", "i32 i32 i32"},
    {"OpUAddSatINTEL", "u64 u64 u64"},
    {"OpIAverageINTEL", "v4i32 v4i32 v4i32"},
    {"OpUAverageINTEL", "u32 u32 u32"},
    {"OpIAverageRoundedINTEL", "i32 i32 i32"},
    {"OpUAverageRoundedINTEL", "u32 u32 u32"},
    {"OpISubSatINTEL", "i32 i32 i32"},
    {"OpUSubSatINTEL", "u32 u32 u32"},
    {"OpIMul32x16INTEL", "i32 i32 i32"},
    {"OpUMul32x16INTEL", "u32 u32 u32"},
    {"OpSubgroupImageMediaBlockReadINTEL", "u32 st v2u32 u32 u32"},
    {"OpSubgroupImageMediaBlockWriteINTEL", "- st v2u32 u32 u32 v4u32"},
};

// The structured IR's property: a module spire val accepts deserializes to IR that verifies.
// For each instruction, a use spire val accepts and every neighbour that differs from it in one
// position (the result type or one id operand) by a pool entry: where spire val accepts one,
// the verifier must too. (spire val may reject more: it checks what the verifier's table cannot,
// such as payloads being variables in their storage classes.)
TEST(ValVendor, WhatValAcceptsVerifies) {
  Pool pool;
  ASSERT_TRUE(pool.valid()) << pool.text() << test::describe(test::validateText(pool.text()));
  size_t ops = 0, accepted = 0, stricter = 0;
  for (auto [name, use] : kPoolUses) {
    const grammar::InstructionDesc *op = grammar::findInstruction(name);
    if (op == nullptr)
      continue; // an instruction of a newer grammar
    SCOPED_TRACE(name);
    ++ops;
    std::istringstream in(use);
    std::vector<size_t> positions;
    for (std::string entry; in >> entry;) {
      const size_t i = entry == "-" ? 0 : pool.find(entry);
      ASSERT_LT(i, pool.size()) << entry;
      positions.push_back(i);
    }
    const std::vector<size_t> operands(positions.begin() + 1, positions.end());
    const test::Verdicts v = pool.verdicts(*op, positions[0], operands);
    EXPECT_TRUE(v.valAccepts) << "the use " << use;
    EXPECT_EQ(v.verifier, "") << "the use " << use;
    const bool hasResult = std::string_view(use).substr(0, 2) != "- ";
    for (size_t at = hasResult ? 0 : 1; at < positions.size(); ++at)
      for (size_t t = 0; t < pool.size(); ++t) {
        if (t == positions[at])
          continue;
        std::vector<size_t> p = positions;
        p[at] = t;
        const test::Verdicts w =
            pool.verdicts(*op, p[0], std::vector<size_t>(p.begin() + 1, p.end()));
        accepted += w.valAccepts;
        stricter += !w.valAccepts && w.verifies();
        if (w.valAccepts) {
          EXPECT_EQ(w.verifier, "")
              << (at == 0 ? std::string("result type ") : "operand " + std::to_string(at - 1) + " ")
              << pool.name(t) << ": spire val accepts, the verifier does not";
        }
      }
  }
  // 32 instructions of SPV_NV_shader_invocation_reorder, 6 bindless conversions, the partition,
  // the packed indices, 2 fragment fetches, 14 integer functions and 2 media block accesses; 7
  // more hit object queries with newer grammars.
  EXPECT_EQ(ops, hasInstruction("OpHitObjectGetClusterIdNV") ? 65u : 58u);
  std::printf("%zu instructions, %zu neighbours spire val accepts, %zu only the verifier does\n",
              ops, accepted, stricter);
}

} // namespace
} // namespace spire::val
