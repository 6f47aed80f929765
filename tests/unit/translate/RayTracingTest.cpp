// Libraries, ray tracing stages, inline ray queries and function calls in the translator: small
// DXIL libraries in LLVM assembly, one entry translated at a time and validated for vulkan1.3.
#include "unit/translate/DxilTranslateTestSupport.h"

#include <gtest/gtest.h>

namespace spire::translate::test {
namespace {

size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

/// Shader model 6.5 of `kind` ("lib", "cs") and dx.resources !2: one acceleration structure, t0.
std::string accelerationStructureMetadata(const std::string &kind) {
  return "!dx.version = !{!0}\n!0 = !{i32 1, i32 5}\n!dx.shaderModel = !{!1}\n!1 = !{!\"" + kind +
         "\", i32 6, i32 5}\n!dx.resources = !{!2}\n!2 = !{!3, null, null, null}\n!3 = !{!4}\n"
         "!4 = !{i32 0, %struct.RaytracingAccelerationStructure* @AS, !\"AS\", i32 0, i32 0, "
         "i32 1, i32 16, i32 0, null}\n";
}

// One library: a ray generation shader tracing a ray and calling a callable shader, a closest
// hit reading system values and its attributes, an any hit ignoring or accepting the hit, an
// intersection shader reporting a hit, a callable shader and a miss shader.
const char *kLibrary = R"(
%struct.RaytracingAccelerationStructure = type { i32 }
%struct.Payload = type { <4 x float> }
%struct.Attribs = type { <2 x float> }
@AS = external constant %struct.RaytracingAccelerationStructure

declare %dx.types.Handle @dx.op.createHandleForLib.struct.RaytracingAccelerationStructure(i32, %struct.RaytracingAccelerationStructure)
declare void @dx.op.traceRay.struct.Payload(i32, %dx.types.Handle, i32, i32, i32, i32, i32, float, float, float, float, float, float, float, float, %struct.Payload*)
declare void @dx.op.callShader.struct.Payload(i32, i32, %struct.Payload*)
declare i32 @dx.op.dispatchRaysIndex.i32(i32, i8)
declare float @dx.op.objectToWorld.f32(i32, i32, i8)
declare float @dx.op.worldRayDirection.f32(i32, i8)
declare float @dx.op.rayTCurrent.f32(i32)
declare i32 @dx.op.hitKind.i32(i32)
declare i32 @dx.op.instanceID.i32(i32)
declare i32 @dx.op.instanceIndex.i32(i32)
declare i32 @dx.op.primitiveIndex.i32(i32)
declare i32 @dx.op.geometryIndex.i32(i32)
declare void @dx.op.ignoreHit(i32)
declare void @dx.op.acceptHitAndEndSearch(i32)
declare i1 @dx.op.reportHit.struct.Attribs(i32, float, i32, %struct.Attribs*)

define void @raygen() {
  %p = alloca %struct.Payload
  %g = getelementptr %struct.Payload, %struct.Payload* %p, i32 0, i32 0
  store <4 x float> zeroinitializer, <4 x float>* %g
  %x = call i32 @dx.op.dispatchRaysIndex.i32(i32 145, i8 0)
  %fx = uitofp i32 %x to float
  %as = load %struct.RaytracingAccelerationStructure, %struct.RaytracingAccelerationStructure* @AS
  %h = call %dx.types.Handle @dx.op.createHandleForLib.struct.RaytracingAccelerationStructure(i32 160, %struct.RaytracingAccelerationStructure %as)
  call void @dx.op.traceRay.struct.Payload(i32 157, %dx.types.Handle %h, i32 16, i32 255, i32 0, i32 1, i32 0, float %fx, float 0.0, float 0.0, float 0.125, float 0.0, float 0.0, float 1.0, float 1000.0, %struct.Payload* %p)
  call void @dx.op.callShader.struct.Payload(i32 159, i32 2, %struct.Payload* %p)
  ret void
}

define void @closest(%struct.Payload* %payload, %struct.Attribs* %attr) {
  %a = getelementptr %struct.Attribs, %struct.Attribs* %attr, i32 0, i32 0
  %bary = load <2 x float>, <2 x float>* %a
  %b0 = extractelement <2 x float> %bary, i32 0
  %m = call float @dx.op.objectToWorld.f32(i32 151, i32 1, i8 3)
  %t = call float @dx.op.rayTCurrent.f32(i32 154)
  %d = call float @dx.op.worldRayDirection.f32(i32 148, i8 2)
  %id = call i32 @dx.op.instanceID.i32(i32 141)
  %ix = call i32 @dx.op.instanceIndex.i32(i32 142)
  %pr = call i32 @dx.op.primitiveIndex.i32(i32 161)
  %ge = call i32 @dx.op.geometryIndex.i32(i32 213)
  %s = fadd float %b0, %m
  %s2 = fadd float %s, %t
  %s3 = fadd float %s2, %d
  %v = insertelement <4 x float> zeroinitializer, float %s3, i32 0
  %g = getelementptr %struct.Payload, %struct.Payload* %payload, i32 0, i32 0
  store <4 x float> %v, <4 x float>* %g
  ret void
}

define void @anyhit(%struct.Payload* %payload, %struct.Attribs* %attr) {
entry:
  %k = call i32 @dx.op.hitKind.i32(i32 143)
  %c = icmp eq i32 %k, 254
  br i1 %c, label %ignore, label %accept
ignore:
  call void @dx.op.ignoreHit(i32 155)
  unreachable
accept:
  call void @dx.op.acceptHitAndEndSearch(i32 156)
  unreachable
}

define void @intersect() {
  %a = alloca %struct.Attribs
  %g = getelementptr %struct.Attribs, %struct.Attribs* %a, i32 0, i32 0
  store <2 x float> <float 0.5, float 0.25>, <2 x float>* %g
  %t = call float @dx.op.rayTCurrent.f32(i32 154)
  %hit = call i1 @dx.op.reportHit.struct.Attribs(i32 158, float %t, i32 1, %struct.Attribs* %a)
  ret void
}

define void @callable(%struct.Payload* %data) {
  %g = getelementptr %struct.Payload, %struct.Payload* %data, i32 0, i32 0
  store <4 x float> <float 1.0, float 2.0, float 3.0, float 4.0>, <4 x float>* %g
  ret void
}

define void @miss(%struct.Payload* %payload) {
  %g = getelementptr %struct.Payload, %struct.Payload* %payload, i32 0, i32 0
  store <4 x float> zeroinitializer, <4 x float>* %g
  ret void
}

!dx.entryPoints = !{!5, !6, !7, !8, !9, !10, !11}
!5 = !{null, !"", null, !2, null}
!6 = !{void ()* @raygen, !"raygen", null, null, !20}
!7 = !{void (%struct.Payload*, %struct.Attribs*)* @closest, !"closest", null, null, !21}
!8 = !{void (%struct.Payload*, %struct.Attribs*)* @anyhit, !"anyhit", null, null, !22}
!9 = !{void ()* @intersect, !"intersect", null, null, !23}
!10 = !{void (%struct.Payload*)* @callable, !"callable", null, null, !24}
!11 = !{void (%struct.Payload*)* @miss, !"miss", null, null, !25}
!20 = !{i32 8, i32 7}
!21 = !{i32 8, i32 10, i32 6, i32 16, i32 7, i32 8}
!22 = !{i32 8, i32 9, i32 6, i32 16, i32 7, i32 8}
!23 = !{i32 8, i32 8, i32 7, i32 8}
!24 = !{i32 8, i32 12, i32 6, i32 16}
!25 = !{i32 8, i32 11, i32 6, i32 16}
)";

std::string library() { return dxilPrelude() + kLibrary + accelerationStructureMetadata("lib"); }

Translation translateEntry(const std::string &text, const std::string &entry) {
  DxilTranslateOptions options;
  options.entry = entry;
  return translateLl(text, options);
}

#define REQUIRE_LLVM_AS()                                                                          \
  if (!haveLlvmAs())                                                                               \
  GTEST_SKIP() << "llvm-as-14 not installed (Debian package llvm-14)"

TEST(DxilRayTracing, RayGenerationTracesThroughAPayloadVariable) {
  REQUIRE_LLVM_AS();
  Translation t = translateEntry(library(), "raygen");
  ASSERT_EQ(t.error, "");
  EXPECT_NE(t.spvasm.find("OpCapability RayTracingKHR"), std::string::npos) << t.spvasm;
  EXPECT_NE(t.spvasm.find("OpExtension \"SPV_KHR_ray_tracing\""), std::string::npos);
  // The acceleration structure needs no ray query capability in a ray tracing stage.
  EXPECT_EQ(t.spvasm.find("RayQueryKHR"), std::string::npos) << t.spvasm;
  EXPECT_NE(t.spvasm.find("OpEntryPoint RayGenerationKHR %raygen \"raygen\""), std::string::npos);
  EXPECT_NE(t.spvasm.find("BuiltIn LaunchIdKHR"), std::string::npos);
  EXPECT_NE(t.spvasm.find("OpVariable %_ptr_RayPayloadKHR_"), std::string::npos) << t.spvasm;
  EXPECT_NE(t.spvasm.find("OpVariable %_ptr_CallableDataKHR_"), std::string::npos) << t.spvasm;
  // Flags 16, mask 255, hit group offset 0, stride 1, miss 0.
  EXPECT_NE(t.spvasm.find("OpTraceRayKHR %"), std::string::npos) << t.spvasm;
  EXPECT_NE(t.spvasm.find("%uint_16 %uint_255 %uint_0 %uint_1 %uint_0"), std::string::npos)
      << t.spvasm;
  EXPECT_NE(t.spvasm.find("OpExecuteCallableKHR %uint_2 %"), std::string::npos) << t.spvasm;
  // The payload is copied in before the call and out after it: two stores into the variable's
  // pointee and back, around each call.
  EXPECT_GE(count(t.spvasm, "OpStore"), 5u) << t.spvasm;
}

TEST(DxilRayTracing, ClosestHitReadsSystemValuesAndItsParameters) {
  REQUIRE_LLVM_AS();
  Translation t = translateEntry(library(), "closest");
  ASSERT_EQ(t.error, "");
  EXPECT_NE(t.spvasm.find("OpEntryPoint ClosestHitKHR %closest"), std::string::npos);
  EXPECT_NE(t.spvasm.find("OpVariable %_ptr_IncomingRayPayloadKHR_"), std::string::npos);
  EXPECT_NE(t.spvasm.find("OpVariable %_ptr_HitAttributeKHR_"), std::string::npos);
  for (const char *builtIn :
       {"ObjectToWorldKHR", "RayTmaxKHR", "WorldRayDirectionKHR", "InstanceCustomIndexKHR",
        "BuiltIn InstanceId", "PrimitiveId", "RayGeometryIndexKHR"})
    EXPECT_NE(t.spvasm.find(builtIn), std::string::npos) << builtIn << "\n" << t.spvasm;
  // ObjectToWorld row 1, column 3 of the 3x4 matrix: column 3, component 1 of the built-in.
  EXPECT_NE(t.spvasm.find("OpAccessChain %_ptr_Input_float %"), std::string::npos);
  EXPECT_NE(t.spvasm.find("%uint_3 %uint_1"), std::string::npos) << t.spvasm;
}

TEST(DxilRayTracing, AnyHitIgnoresOrAcceptsThroughTerminatorFunctions) {
  REQUIRE_LLVM_AS();
  Translation t = translateEntry(library(), "anyhit");
  ASSERT_EQ(t.error, "");
  EXPECT_NE(t.spvasm.find("OpEntryPoint AnyHitKHR %anyhit"), std::string::npos);
  EXPECT_NE(t.spvasm.find("BuiltIn HitKindKHR"), std::string::npos);
  EXPECT_EQ(count(t.spvasm, "OpIgnoreIntersectionKHR"), 1u) << t.spvasm;
  EXPECT_EQ(count(t.spvasm, "OpTerminateRayKHR"), 1u) << t.spvasm;
  EXPECT_EQ(count(t.spvasm, "OpFunctionCall %void"), 2u) << t.spvasm;
}

TEST(DxilRayTracing, IntersectionReportsHitsWithAttributes) {
  REQUIRE_LLVM_AS();
  Translation t = translateEntry(library(), "intersect");
  ASSERT_EQ(t.error, "");
  EXPECT_NE(t.spvasm.find("OpEntryPoint IntersectionKHR %intersect"), std::string::npos);
  EXPECT_NE(t.spvasm.find("OpVariable %_ptr_HitAttributeKHR_"), std::string::npos);
  EXPECT_NE(t.spvasm.find("OpReportIntersectionKHR %bool %"), std::string::npos) << t.spvasm;
}

TEST(DxilRayTracing, CallableAndMissEntries) {
  REQUIRE_LLVM_AS();
  Translation c = translateEntry(library(), "callable");
  ASSERT_EQ(c.error, "");
  EXPECT_NE(c.spvasm.find("OpEntryPoint CallableKHR %callable"), std::string::npos);
  EXPECT_NE(c.spvasm.find("OpVariable %_ptr_IncomingCallableDataKHR_"), std::string::npos);
  Translation m = translateEntry(library(), "miss");
  ASSERT_EQ(m.error, "");
  EXPECT_NE(m.spvasm.find("OpEntryPoint MissKHR %miss"), std::string::npos);
  EXPECT_NE(m.spvasm.find("OpVariable %_ptr_IncomingRayPayloadKHR_"), std::string::npos);
}

TEST(DxilRayTracing, EveryEntryOfALibraryIsAModule) {
  REQUIRE_LLVM_AS();
  std::string error;
  std::vector<uint8_t> bitcode = assemble(library(), error);
  ASSERT_FALSE(bitcode.empty()) << error;
  Expected<std::vector<TranslatedShader>> shaders = translateDxilBytes(bitcode, {});
  ASSERT_TRUE(shaders) << shaders.error().message;
  ASSERT_EQ(shaders->size(), 6u);
  EXPECT_EQ((*shaders)[0].entry, "raygen");
  EXPECT_EQ((*shaders)[0].kind, dxil::ShaderKind::RayGeneration);
  EXPECT_EQ((*shaders)[5].kind, dxil::ShaderKind::Miss);
}

TEST(DxilRayTracing, PayloadAndAttributesPassedToAFunctionAreCopied) {
  REQUIRE_LLVM_AS();
  // The closest hit hands its payload and attributes to @shade: both are copied into Function
  // variables; only the payload is copied back (hit attributes are read-only there).
  std::string text = library();
  const std::string from = "define void @closest(%struct.Payload* %payload, %struct.Attribs* "
                           "%attr) {\n";
  ASSERT_NE(text.find(from), std::string::npos);
  text.replace(text.find(from), from.size(),
               R"(define void @shade(%struct.Payload* %p, %struct.Attribs* %a) {
  %g = getelementptr %struct.Attribs, %struct.Attribs* %a, i32 0, i32 0
  %bary = load <2 x float>, <2 x float>* %g
  %v = shufflevector <2 x float> %bary, <2 x float> zeroinitializer, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  %pg = getelementptr %struct.Payload, %struct.Payload* %p, i32 0, i32 0
  store <4 x float> %v, <4 x float>* %pg
  ret void
}
define void @closest(%struct.Payload* %payload, %struct.Attribs* %attr) {
  call void @shade(%struct.Payload* %payload, %struct.Attribs* %attr)
)");
  Translation t = translateEntry(text, "closest");
  ASSERT_EQ(t.error, "");
  EXPECT_NE(t.spvasm.find("%shade = OpFunction %void None"), std::string::npos) << t.spvasm;
  EXPECT_EQ(count(t.spvasm, "OpFunctionCall %void %shade"), 1u) << t.spvasm;
  // Loads from the payload and attribute variables, one store back into the payload.
  const size_t call = t.spvasm.find("OpFunctionCall %void %shade");
  const std::string before = t.spvasm.substr(0, call), after = t.spvasm.substr(call);
  EXPECT_EQ(count(before, "OpStore"), 2u) << t.spvasm;
  EXPECT_EQ(count(after.substr(0, after.find("OpAccessChain")), "OpStore"), 1u) << t.spvasm;
}

TEST(DxilRayTracing, ExportNamesAreTheHlslNames) {
  EXPECT_EQ(exportName("\x01?RayGen@@YAXXZ"), "RayGen");
  EXPECT_EQ(exportName("?Miss@@YAXUPayload@@@Z"), "Miss");
  EXPECT_EQ(exportName("main"), "main");
  EXPECT_EQ(exportName("\x01plain"), "plain");
  EXPECT_EQ(exportName("?@odd"), "?@odd");
}

// ---- functions ------------------------------------------------------------------------------

// @scale multiplies what its pointer holds by a value; @main calls it with an alloca (passed as
// it is) and with an array element (copied in and out).
const char *kFunctions = R"(
define float @scale(float* %p, float %x) {
  %v = load float, float* %p
  %r = fmul float %v, %x
  store float %r, float* %p
  ret float %r
}
define void @twice(float* %p) {
  %r = call float @scale(float* %p, float 2.0)
  ret void
}
)";

// A library whose closest hit and ray generation shaders read their local root arguments:
// root constants b0, a root CBV b1, a root SRV t0 and a root UAV u0 (buffer device addresses),
// and t1 in a descriptor table.
const char *kLocalArguments = R"(
%struct.Payload = type { <4 x float> }
%struct.Attribs = type { <2 x float> }
%struct.ByteAddressBuffer = type { i32 }
%struct.RWByteAddressBuffer = type { i32 }
%Consts = type { i32, i32, i32 }
%Params = type { <4 x float> }
%dx.types.CBufRet.i32 = type { i32, i32, i32, i32 }
%dx.types.CBufRet.f32 = type { float, float, float, float }
%dx.types.ResRet.i32 = type { i32, i32, i32, i32, i32 }
@consts = external constant %Consts
@params = external constant %Params
@src = external constant %struct.ByteAddressBuffer
@table = external constant %struct.ByteAddressBuffer
@dst = external global %struct.RWByteAddressBuffer

declare %dx.types.Handle @dx.op.createHandleForLib.Consts(i32, %Consts)
declare %dx.types.Handle @dx.op.createHandleForLib.Params(i32, %Params)
declare %dx.types.Handle @dx.op.createHandleForLib.struct.ByteAddressBuffer(i32, %struct.ByteAddressBuffer)
declare %dx.types.Handle @dx.op.createHandleForLib.struct.RWByteAddressBuffer(i32, %struct.RWByteAddressBuffer)
declare %dx.types.CBufRet.i32 @dx.op.cbufferLoadLegacy.i32(i32, %dx.types.Handle, i32)
declare %dx.types.CBufRet.f32 @dx.op.cbufferLoadLegacy.f32(i32, %dx.types.Handle, i32)
declare %dx.types.ResRet.i32 @dx.op.rawBufferLoad.i32(i32, %dx.types.Handle, i32, i32, i8, i32)
declare void @dx.op.rawBufferStore.i32(i32, %dx.types.Handle, i32, i32, i32, i32, i32, i32, i8, i32)
declare i32 @dx.op.atomicBinOp.i32(i32, %dx.types.Handle, i32, i32, i32, i32, i32)
declare i32 @dx.op.dispatchRaysIndex.i32(i32, i8)

define void @hit(%struct.Payload* %payload, %struct.Attribs* %attr) {
  %c = load %Consts, %Consts* @consts
  %ch = call %dx.types.Handle @dx.op.createHandleForLib.Consts(i32 160, %Consts %c)
  %row = call %dx.types.CBufRet.i32 @dx.op.cbufferLoadLegacy.i32(i32 59, %dx.types.Handle %ch, i32 0)
  %k = extractvalue %dx.types.CBufRet.i32 %row, 2
  %p = load %Params, %Params* @params
  %ph = call %dx.types.Handle @dx.op.createHandleForLib.Params(i32 160, %Params %p)
  %prow = call %dx.types.CBufRet.f32 @dx.op.cbufferLoadLegacy.f32(i32 59, %dx.types.Handle %ph, i32 0)
  %f = extractvalue %dx.types.CBufRet.f32 %prow, 1
  %s = load %struct.ByteAddressBuffer, %struct.ByteAddressBuffer* @src
  %sh = call %dx.types.Handle @dx.op.createHandleForLib.struct.ByteAddressBuffer(i32 160, %struct.ByteAddressBuffer %s)
  %ld = call %dx.types.ResRet.i32 @dx.op.rawBufferLoad.i32(i32 139, %dx.types.Handle %sh, i32 %k, i32 undef, i8 1, i32 4)
  %v = extractvalue %dx.types.ResRet.i32 %ld, 0
  %t = load %struct.ByteAddressBuffer, %struct.ByteAddressBuffer* @table
  %th = call %dx.types.Handle @dx.op.createHandleForLib.struct.ByteAddressBuffer(i32 160, %struct.ByteAddressBuffer %t)
  %ld2 = call %dx.types.ResRet.i32 @dx.op.rawBufferLoad.i32(i32 139, %dx.types.Handle %th, i32 0, i32 undef, i8 1, i32 4)
  %w = extractvalue %dx.types.ResRet.i32 %ld2, 0
  %d = load %struct.RWByteAddressBuffer, %struct.RWByteAddressBuffer* @dst
  %dh = call %dx.types.Handle @dx.op.createHandleForLib.struct.RWByteAddressBuffer(i32 160, %struct.RWByteAddressBuffer %d)
  %sum = add i32 %v, %w
  call void @dx.op.rawBufferStore.i32(i32 140, %dx.types.Handle %dh, i32 8, i32 undef, i32 %sum, i32 undef, i32 undef, i32 undef, i8 1, i32 4)
  %old = call i32 @dx.op.atomicBinOp.i32(i32 78, %dx.types.Handle %dh, i32 0, i32 4, i32 undef, i32 undef, i32 1)
  %g = getelementptr %struct.Payload, %struct.Payload* %payload, i32 0, i32 0
  %fv = insertelement <4 x float> zeroinitializer, float %f, i32 0
  store <4 x float> %fv, <4 x float>* %g
  ret void
}

define void @raygen() {
  %c = load %Consts, %Consts* @consts
  %ch = call %dx.types.Handle @dx.op.createHandleForLib.Consts(i32 160, %Consts %c)
  %x = call i32 @dx.op.dispatchRaysIndex.i32(i32 145, i8 0)
  %row = call %dx.types.CBufRet.i32 @dx.op.cbufferLoadLegacy.i32(i32 59, %dx.types.Handle %ch, i32 %x)
  %k = extractvalue %dx.types.CBufRet.i32 %row, 0
  %d = load %struct.RWByteAddressBuffer, %struct.RWByteAddressBuffer* @dst
  %dh = call %dx.types.Handle @dx.op.createHandleForLib.struct.RWByteAddressBuffer(i32 160, %struct.RWByteAddressBuffer %d)
  call void @dx.op.rawBufferStore.i32(i32 140, %dx.types.Handle %dh, i32 0, i32 undef, i32 %k, i32 undef, i32 undef, i32 undef, i8 1, i32 4)
  ret void
}

!dx.version = !{!0}
!0 = !{i32 1, i32 5}
!dx.shaderModel = !{!1}
!1 = !{!"lib", i32 6, i32 5}
!dx.resources = !{!2}
!2 = !{!3, !4, !12, null}
!3 = !{!30, !31}
!30 = !{i32 0, %struct.ByteAddressBuffer* @src, !"src", i32 0, i32 0, i32 1, i32 11, i32 0, null}
!31 = !{i32 1, %struct.ByteAddressBuffer* @table, !"table", i32 0, i32 1, i32 1, i32 11, i32 0, null}
!4 = !{!32}
!32 = !{i32 0, %struct.RWByteAddressBuffer* @dst, !"dst", i32 0, i32 0, i32 1, i32 11, i1 false, i1 false, i1 false, null}
!12 = !{!33, !34}
!33 = !{i32 0, %Consts* @consts, !"consts", i32 0, i32 0, i32 1, i32 12, null}
!34 = !{i32 1, %Params* @params, !"params", i32 0, i32 1, i32 1, i32 16, null}
!dx.entryPoints = !{!5, !6, !7}
!5 = !{null, !"", null, !2, null}
!6 = !{void (%struct.Payload*, %struct.Attribs*)* @hit, !"hit", null, null, !20}
!7 = !{void ()* @raygen, !"raygen", null, null, !21}
!20 = !{i32 8, i32 10, i32 6, i32 16, i32 7, i32 8}
!21 = !{i32 8, i32 7}
)";

/// b0: 3 root constants; t1 in a table of one SRV range; b1, t0, u0 root descriptors, in an
/// order that makes alignment matter: constants at 0 (12 bytes), the table at 16, b1 at 24,
/// t0 at 32, u0 at 40.
dxil::RootSignature localSignature() {
  dxil::RootSignature signature;
  dxil::RootParameter constants, table, cbv, srv, uav;
  constants.type = dxil::RootParameterType::Constants32Bit;
  constants.num32BitValues = 3;
  table.type = dxil::RootParameterType::DescriptorTable;
  dxil::DescriptorRange range;
  range.rangeType = 0; // SRV t1..t2, 5 descriptors into the table
  range.baseShaderRegister = 1;
  range.numDescriptors = 2;
  range.offsetInDescriptorsFromTableStart = 5;
  table.ranges = {range};
  cbv.type = dxil::RootParameterType::CBV;
  cbv.shaderRegister = 1;
  srv.type = dxil::RootParameterType::SRV;
  uav.type = dxil::RootParameterType::UAV;
  signature.parameters = {constants, table, cbv, srv, uav};
  return signature;
}

TEST(DxilRayTracing, LocalRootArgumentsAreReadFromTheShaderRecord) {
  REQUIRE_LLVM_AS();
  BindingModel model;
  ASSERT_TRUE(applyLocalRootSignature(localSignature(), model).ok());
  ASSERT_EQ(model.rootConstants.size(), 1u);
  EXPECT_EQ(model.rootConstants[0].offset, 0u);
  EXPECT_EQ(model.rootConstants[0].where, RootArguments::ShaderRecord);
  ASSERT_EQ(model.heapTables.size(), 1u);
  EXPECT_EQ(model.heapTables[0].offset, 16u) << "an 8-byte descriptor handle, 8-aligned";
  ASSERT_EQ(model.rootAddresses.size(), 3u);
  EXPECT_EQ(model.rootAddresses[0].offset, 24u);
  EXPECT_EQ(model.rootAddresses[2].offset, 40u);
  EXPECT_EQ(model.rootAddresses[1].resourceClass, dxil::ResourceClass::SRV);
  // More arguments than a shader record holds (4096 bytes, the identifier's 32 among them).
  dxil::RootSignature large = localSignature();
  large.parameters[0].num32BitValues = 1014; // 4056 bytes, then the table at 4056, ...
  BindingModel tooLarge;
  Status s = applyLocalRootSignature(large, tooLarge);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("more than the 4064 bytes a shader record holds"),
            std::string::npos)
      << s.error().message;
  large.parameters[0].num32BitValues = 0x40000001u; // 4 * n wraps around
  EXPECT_FALSE(applyLocalRootSignature(large, tooLarge).ok());

  const std::string text = dxilPrelude() + kLocalArguments;
  DxilTranslateOptions options;
  options.localRootSignatures = {{{"hit"}, localSignature()}};
  options.entry = "hit";
  Translation t = translateLl(text, options);
  ASSERT_EQ(t.error, "");
  EXPECT_NE(t.spvasm.find("OpVariable %_ptr_ShaderRecordBufferKHR_"), std::string::npos)
      << t.spvasm;
  EXPECT_NE(t.spvasm.find("OpMemoryModel PhysicalStorageBuffer64"), std::string::npos);
  EXPECT_NE(t.spvasm.find("OpCapability PhysicalStorageBufferAddresses"), std::string::npos);
  // The record's Block: the pointer type's pointee, its members at the offsets laid out.
  const std::string pointer = "%_ptr_ShaderRecordBufferKHR_";
  const size_t at = t.spvasm.find(pointer);
  ASSERT_NE(at, std::string::npos) << t.spvasm;
  const std::string record =
      "%" + t.spvasm.substr(at + pointer.size(), t.spvasm.find(' ', at) - at - pointer.size());
  for (const char *offset :
       {" 0 Offset 0", " 1 Offset 16", " 2 Offset 24", " 3 Offset 32", " 4 Offset 40"})
    EXPECT_NE(t.spvasm.find("OpMemberDecorate " + record + offset), std::string::npos)
        << record << offset << "\n"
        << t.spvasm;
  // No descriptor of its own for any of them; t1 is the heap's (set 6).
  for (const char *name : {"%consts", "%params", "%src", "%dst"})
    EXPECT_EQ(t.spvasm.find(std::string("OpDecorate ") + name + " Binding"), std::string::npos)
        << name;
  EXPECT_NE(t.spvasm.find("OpDecorate %table DescriptorSet 6"), std::string::npos) << t.spvasm;
  // Through the addresses: aligned loads and stores, an atomic.
  EXPECT_NE(t.spvasm.find("Aligned 16"), std::string::npos) << "the CBV's row";
  EXPECT_NE(t.spvasm.find("OpStore %"), std::string::npos);
  EXPECT_NE(t.spvasm.find("Aligned 4"), std::string::npos);
  EXPECT_NE(t.spvasm.find("OpAtomicIAdd %uint"), std::string::npos);
  EXPECT_NE(t.spvasm.find("_ptr_PhysicalStorageBuffer_"), std::string::npos);

  // --bindings json: where each argument is in the record.
  std::string error;
  Expected<std::vector<TranslatedShader>> shaders =
      translateDxilBytes(assemble(text, error), options);
  ASSERT_TRUE(shaders.ok());
  const std::string json = bindingsJson(shaders->front());
  EXPECT_NE(json.find("\"offset\": 0,\n      \"size\": 12,\n      \"type\": "
                      "\"shader-record-constants\""),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"offset\": 40,\n      \"size\": 8,\n      \"type\": "
                      "\"shader-record-address\""),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"offset\": 16,\n      \"table-offset\": 5,\n      \"type\": "
                      "\"shader-record-heap-table\""),
            std::string::npos)
      << json;

  // The signature names "hit" only: raygen's resources stay descriptors.
  options.entry = "raygen";
  Translation plain = translateLl(text, options);
  ASSERT_EQ(plain.error, "");
  EXPECT_EQ(plain.spvasm.find("ShaderRecordBufferKHR"), std::string::npos) << plain.spvasm;
  // A default one applies to it; a dynamic row of root constants is clamped.
  options.localRootSignatures.push_back({{}, localSignature()});
  Translation local = translateLl(text, options);
  ASSERT_EQ(local.error, "");
  EXPECT_NE(local.spvasm.find("OpVariable %_ptr_ShaderRecordBufferKHR_"), std::string::npos);
  EXPECT_NE(local.spvasm.find("UMin"), std::string::npos) << local.spvasm;
}

TEST(DxilRayTracing, LocalRootDescriptorsThatCannotBeAddressesAreErrors) {
  REQUIRE_LLVM_AS();
  const std::string text = dxilPrelude() + kLocalArguments;
  DxilTranslateOptions options;
  options.entry = "hit";
  // t1 as a root SRV too: it is also in no table then; reading its size has no answer.
  dxil::RootSignature signature = localSignature();
  signature.parameters[1].ranges.clear();
  dxil::RootParameter second;
  second.type = dxil::RootParameterType::SRV;
  second.shaderRegister = 1;
  signature.parameters.push_back(second);
  options.localRootSignatures = {{{}, signature}};
  Translation t = translateLl(text, options);
  ASSERT_EQ(t.error, "") << "two root SRVs read through addresses";
  std::string sized = text;
  const std::string load = "%ld2 = call %dx.types.ResRet.i32 @dx.op.rawBufferLoad.i32(i32 139, "
                           "%dx.types.Handle %th, i32 0, i32 undef, i8 1, i32 4)\n  %w = "
                           "extractvalue %dx.types.ResRet.i32 %ld2, 0";
  ASSERT_NE(sized.find(load), std::string::npos);
  sized.replace(sized.find(load), load.size(),
                "%dims = call %dx.types.Dimensions @dx.op.getDimensions(i32 72, "
                "%dx.types.Handle %th, i32 undef)\n  %w = extractvalue %dx.types.Dimensions "
                "%dims, 0");
  sized.replace(sized.find("declare i32 @dx.op.dispatchRaysIndex"), 0,
                "%dx.types.Dimensions = type { i32, i32, i32, i32 }\ndeclare "
                "%dx.types.Dimensions @dx.op.getDimensions(i32, %dx.types.Handle, i32)\n");
  Translation bad = translateLl(sized, options);
  EXPECT_NE(bad.error.find("GetDimensions of a buffer that is a root descriptor"),
            std::string::npos)
      << bad.error;
  // A root UAV that is an array of descriptors.
  std::string arrayed = text;
  arrayed.replace(arrayed.find("!\"dst\", i32 0, i32 0, i32 1,"), 28,
                  "!\"dst\", i32 0, i32 0, i32 2,");
  Translation array = translateLl(arrayed, options);
  EXPECT_NE(array.error.find("(a root descriptor read through its address) is an array"),
            std::string::npos)
      << array.error;
  // A signature that does not fit a shader record fails each entry that takes it, one line
  // each naming the entry (the others of a library would still translate).
  dxil::RootSignature tooLarge = localSignature();
  tooLarge.parameters[0].num32BitValues = 2000;
  DxilTranslateOptions all;
  all.localRootSignatures = {{{}, tooLarge}};
  std::vector<Diagnostic> failed;
  all.failedEntries = &failed;
  std::string error;
  Expected<std::vector<TranslatedShader>> shaders = translateDxilBytes(assemble(text, error), all);
  EXPECT_FALSE(shaders.ok());
  ASSERT_EQ(failed.size(), 2u);
  for (const Diagnostic &d : failed)
    EXPECT_NE(d.message.find("': its local root signature: root parameter 0 has 2000 constants"),
              std::string::npos)
        << d.message;
}

TEST(DxilFunctions, CallsWithPointerAndValueParameters) {
  REQUIRE_LLVM_AS();
  const std::string body = R"(entry:
  %a = alloca float
  store float 2.0, float* %a
  %r = call float @scale(float* %a, float 3.0)
  %arr = alloca [2 x float]
  %e = getelementptr [2 x float], [2 x float]* %arr, i32 0, i32 1
  store float %r, float* %e
  %r2 = call float @scale(float* %e, float %r)
  call void @twice(float* %a)
  ret void
)";
  Translation t = translateLl(computeShader(kFunctions, body));
  ASSERT_EQ(t.error, "");
  EXPECT_NE(t.spvasm.find("%scale = OpFunction %float None"), std::string::npos) << t.spvasm;
  EXPECT_NE(t.spvasm.find("%twice = OpFunction %void None"), std::string::npos) << t.spvasm;
  EXPECT_NE(t.spvasm.find("%p = OpFunctionParameter %_ptr_Function_float"), std::string::npos);
  EXPECT_NE(t.spvasm.find("%x = OpFunctionParameter %float"), std::string::npos);
  EXPECT_NE(t.spvasm.find("OpReturnValue %"), std::string::npos) << t.spvasm;
  // The array element is copied into a Function variable and back; the alloca is passed.
  EXPECT_NE(t.spvasm.find("OpFunctionCall %void %twice %"), std::string::npos) << t.spvasm;
  EXPECT_EQ(count(t.spvasm, "OpFunctionCall %float %scale"), 3u) << t.spvasm;
  EXPECT_EQ(count(t.spvasm, "OpFunctionCall %void %twice"), 1u) << t.spvasm;
  // Each function once, though two calls reach @scale.
  EXPECT_EQ(count(t.spvasm, "OpFunctionEnd"), 3u) << t.spvasm;
}

TEST(DxilFunctions, RecursionIsAnError) {
  REQUIRE_LLVM_AS();
  const std::string declarations = R"(
define void @ping() {
  call void @pong()
  ret void
}
define void @pong() {
  call void @ping()
  ret void
}
)";
  Translation t =
      translateLl(computeShader(declarations, "entry:\n  call void @ping()\n  ret void\n"));
  EXPECT_EQ(t.error, "entry 'main', function 'pong': recursion: 'ping' is called while it runs");
}

TEST(DxilFunctions, CallOfAnUndefinedFunctionIsAnError) {
  REQUIRE_LLVM_AS();
  Translation t = translateLl(computeShader("declare void @elsewhere()\n",
                                            "entry:\n  call void @elsewhere()\n  ret void\n"));
  EXPECT_EQ(t.error, "entry 'main', function 'main', block 0, instruction 0 (call @elsewhere): a "
                     "call of 'elsewhere', a function this module declares but does not define");
}

// ---- work graphs ----------------------------------------------------------------------------

const char *kNodeLibrary = R"(
define void @node() {
  ret void
}
define void @gen() {
  ret void
}
!dx.version = !{!0}
!0 = !{i32 1, i32 8}
!dx.shaderModel = !{!1}
!1 = !{!"lib", i32 6, i32 8}
!dx.entryPoints = !{!5, !6, !7}
!5 = !{null, !"", null, null, null}
!6 = !{void ()* @node, !"node", null, null, !20}
!7 = !{void ()* @gen, !"gen", null, null, !21}
!20 = !{i32 8, i32 15, i32 4, !22}
!21 = !{i32 8, i32 7}
!22 = !{i32 1, i32 1, i32 1}
)";

// A node shader without a launch type (TranslateNodes.cpp; NodeShaderTest.cpp has the ones
// that translate) fails alone.
TEST(DxilWorkGraphs, AMalformedNodeShaderFailsAndTheOtherEntriesTranslate) {
  REQUIRE_LLVM_AS();
  const std::string message = "entry 'node': node metadata: launch type 0 (only broadcasting, "
                              "coalescing and thread launches exist)";
  Translation t = translateEntry(dxilPrelude() + kNodeLibrary, "node");
  EXPECT_EQ(t.error, message);
  std::string error;
  std::vector<uint8_t> bitcode = assemble(dxilPrelude() + kNodeLibrary, error);
  ASSERT_FALSE(bitcode.empty()) << error;
  // Without a place for the failures, the first one fails the program.
  Expected<std::vector<TranslatedShader>> all = translateDxilBytes(bitcode, {});
  ASSERT_FALSE(all);
  EXPECT_EQ(all.error().message, message);
  // With one, the node shader is reported and the ray generation shader translated.
  std::vector<Diagnostic> failed;
  DxilTranslateOptions options;
  options.failedEntries = &failed;
  Expected<std::vector<TranslatedShader>> some = translateDxilBytes(bitcode, options);
  ASSERT_TRUE(some) << some.error().message;
  ASSERT_EQ(some->size(), 1u);
  EXPECT_EQ(some->front().entry, "gen");
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].message, message);
}

// ---- ray queries ----------------------------------------------------------------------------

const char *kRayQuery = R"(
%struct.RaytracingAccelerationStructure = type { i32 }
@AS = external constant %struct.RaytracingAccelerationStructure
declare %dx.types.Handle @dx.op.createHandle(i32, i8, i32, i32, i1)
declare i32 @dx.op.allocateRayQuery(i32, i32)
declare void @dx.op.rayQuery_TraceRayInline(i32, i32, %dx.types.Handle, i32, i32, float, float, float, float, float, float, float, float)
declare i1 @dx.op.rayQuery_Proceed.i1(i32, i32)
declare void @dx.op.rayQuery_Abort(i32, i32)
declare void @dx.op.rayQuery_CommitNonOpaqueTriangleHit(i32, i32)
declare void @dx.op.rayQuery_CommitProceduralPrimitiveHit(i32, i32, float)
declare i32 @dx.op.rayQuery_StateScalar.i32(i32, i32)
declare i1 @dx.op.rayQuery_StateScalar.i1(i32, i32)
declare float @dx.op.rayQuery_StateScalar.f32(i32, i32)
declare float @dx.op.rayQuery_StateVector.f32(i32, i32, i8)
declare float @dx.op.rayQuery_StateMatrix.f32(i32, i32, i32, i8)

define void @main() {
entry:
  %h = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 0, i32 0, i32 0, i1 false)
  %q = call i32 @dx.op.allocateRayQuery(i32 178, i32 4)
  call void @dx.op.rayQuery_TraceRayInline(i32 179, i32 %q, %dx.types.Handle %h, i32 1, i32 255, float 0.0, float 0.0, float 0.0, float 0.0, float 0.0, float 0.0, float 1.0, float 100.0)
  br label %loop
loop:
  %more = call i1 @dx.op.rayQuery_Proceed.i1(i32 180, i32 %q)
  br i1 %more, label %candidate, label %done
candidate:
  %type = call i32 @dx.op.rayQuery_StateScalar.i32(i32 185, i32 %q)
  %triangle = icmp eq i32 %type, 0
  br i1 %triangle, label %commit, label %procedural
commit:
  %t = call float @dx.op.rayQuery_StateScalar.f32(i32 199, i32 %q)
  %far = fcmp ogt float %t, 50.0
  br i1 %far, label %abort, label %accept
abort:
  call void @dx.op.rayQuery_Abort(i32 181, i32 %q)
  br label %loop
accept:
  call void @dx.op.rayQuery_CommitNonOpaqueTriangleHit(i32 182, i32 %q)
  br label %loop
procedural:
  %np = call i1 @dx.op.rayQuery_StateScalar.i1(i32 190, i32 %q)
  br i1 %np, label %generate, label %loop
generate:
  call void @dx.op.rayQuery_CommitProceduralPrimitiveHit(i32 183, i32 %q, float 5.0)
  br label %loop
done:
  %status = call i32 @dx.op.rayQuery_StateScalar.i32(i32 184, i32 %q)
  %m = call float @dx.op.rayQuery_StateMatrix.f32(i32 188, i32 %q, i32 2, i8 3)
  %b = call float @dx.op.rayQuery_StateVector.f32(i32 194, i32 %q, i8 1)
  %o = call float @dx.op.rayQuery_StateVector.f32(i32 196, i32 %q, i8 2)
  %ff = call i1 @dx.op.rayQuery_StateScalar.i1(i32 192, i32 %q)
  %ct = call float @dx.op.rayQuery_StateScalar.f32(i32 200, i32 %q)
  %ii = call i32 @dx.op.rayQuery_StateScalar.i32(i32 207, i32 %q)
  %sbt = call i32 @dx.op.rayQuery_StateScalar.i32(i32 215, i32 %q)
  ret void
}

!dx.entryPoints = !{!5}
!5 = !{void ()* @main, !"main", null, !2, !6}
!6 = !{i32 4, !7}
!7 = !{i32 8, i32 1, i32 1}
)";

std::string rayQueryShader() {
  return dxilPrelude() + kRayQuery + accelerationStructureMetadata("cs");
}

TEST(DxilRayQuery, InlineTraversalAndStateGetters) {
  REQUIRE_LLVM_AS();
  Translation t = translateLl(rayQueryShader());
  ASSERT_EQ(t.error, "");
  EXPECT_NE(t.spvasm.find("OpCapability RayQueryKHR"), std::string::npos);
  EXPECT_NE(t.spvasm.find("OpExtension \"SPV_KHR_ray_query\""), std::string::npos);
  EXPECT_EQ(t.spvasm.find("RayTracingKHR"), std::string::npos);
  EXPECT_EQ(count(t.spvasm, "OpTypeRayQueryKHR"), 1u) << t.spvasm;
  // The allocation's flags (4) are or-ed with the call's (1).
  EXPECT_NE(t.spvasm.find("OpBitwiseOr %uint %uint_1 %uint_4"), std::string::npos) << t.spvasm;
  EXPECT_EQ(count(t.spvasm, "OpRayQueryInitializeKHR"), 1u);
  EXPECT_EQ(count(t.spvasm, "OpRayQueryProceedKHR %bool"), 1u);
  EXPECT_EQ(count(t.spvasm, "OpRayQueryTerminateKHR"), 1u);
  EXPECT_EQ(count(t.spvasm, "OpRayQueryConfirmIntersectionKHR"), 1u);
  EXPECT_EQ(count(t.spvasm, "OpRayQueryGenerateIntersectionKHR"), 1u);
  // Candidate type (intersection 0) and committed status (1).
  EXPECT_NE(t.spvasm.find("OpRayQueryGetIntersectionTypeKHR %uint %"), std::string::npos);
  EXPECT_EQ(count(t.spvasm, "OpRayQueryGetIntersectionTypeKHR"), 2u);
  // Procedural non-opaque is the negation of the candidate AABB's opacity.
  EXPECT_NE(t.spvasm.find("OpRayQueryGetIntersectionCandidateAABBOpaqueKHR %bool"),
            std::string::npos);
  EXPECT_NE(t.spvasm.find("OpLogicalNot %bool"), std::string::npos);
  // Committed ObjectToWorld row 2, column 3: column 3, component 2 of the 4x3 matrix.
  EXPECT_NE(t.spvasm.find("OpRayQueryGetIntersectionObjectToWorldKHR %mat4v3float"),
            std::string::npos)
      << t.spvasm;
  EXPECT_NE(t.spvasm.find("OpCompositeExtract %float %"), std::string::npos);
  EXPECT_NE(t.spvasm.find(" 3 2\n"), std::string::npos) << t.spvasm;
  EXPECT_NE(t.spvasm.find("OpRayQueryGetIntersectionBarycentricsKHR %v2float"), std::string::npos);
  EXPECT_NE(t.spvasm.find("OpRayQueryGetWorldRayOriginKHR %v3float"), std::string::npos);
  EXPECT_NE(t.spvasm.find("OpRayQueryGetIntersectionFrontFaceKHR %bool"), std::string::npos);
  EXPECT_EQ(count(t.spvasm, "OpRayQueryGetIntersectionTKHR %float"), 2u);
  EXPECT_NE(t.spvasm.find("OpRayQueryGetIntersectionInstanceIdKHR %uint"), std::string::npos);
  EXPECT_NE(
      t.spvasm.find("OpRayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR %uint"),
      std::string::npos);
}

TEST(DxilRayQuery, HandleThroughAPhiIsAnError) {
  REQUIRE_LLVM_AS();
  std::string text = rayQueryShader();
  // The query handle chosen by a select: not a handle straight from AllocateRayQuery.
  const std::string from =
      "  br label %loop\nloop:\n  %more = call i1 @dx.op.rayQuery_Proceed.i1(i32 180, i32 %q)";
  const std::string to = "  %q2 = select i1 true, i32 %q, i32 %q\n  br label %loop\nloop:\n  "
                         "%more = call i1 @dx.op.rayQuery_Proceed.i1(i32 180, i32 %q2)";
  ASSERT_NE(text.find(from), std::string::npos);
  text.replace(text.find(from), from.size(), to);
  Translation t = translateLl(text);
  EXPECT_NE(t.error.find("a ray query handle that does not come straight from AllocateRayQuery"),
            std::string::npos)
      << t.error;
}

} // namespace
} // namespace spire::translate::test
