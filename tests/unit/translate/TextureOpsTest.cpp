// The texture and sampler dx.ops: sampling in its implicit, explicit, biased, gradient and
// comparison forms, texel loads and stores, gathers, LOD and size queries, 16-bit results, the
// compute derivative groups, and the operations Vulkan cannot express.
#include "unit/translate/DxilTranslateTestSupport.h"

#include <gtest/gtest.h>

#include <array>

namespace spire::translate::test {
namespace {

const char *kDeclarations = R"(
%dx.types.ResRet.f32 = type { float, float, float, float, i32 }
%dx.types.ResRet.i32 = type { i32, i32, i32, i32, i32 }
%dx.types.ResRet.f16 = type { half, half, half, half, i32 }
%dx.types.ResRet.i16 = type { i16, i16, i16, i16, i32 }
%dx.types.Dimensions = type { i32, i32, i32, i32 }
%dx.types.SamplePos = type { float, float }
%T = type { <4 x float> }
%S = type { i32 }
declare %dx.types.Handle @dx.op.createHandle(i32, i8, i32, i32, i1)
declare i32 @dx.op.threadId.i32(i32, i32)
declare %dx.types.ResRet.f32 @dx.op.sample.f32(i32, %dx.types.Handle, %dx.types.Handle, float, float, float, float, i32, i32, i32, float)
declare %dx.types.ResRet.f32 @dx.op.sampleBias.f32(i32, %dx.types.Handle, %dx.types.Handle, float, float, float, float, i32, i32, i32, float, float)
declare %dx.types.ResRet.f32 @dx.op.sampleLevel.f32(i32, %dx.types.Handle, %dx.types.Handle, float, float, float, float, i32, i32, i32, float)
declare %dx.types.ResRet.f16 @dx.op.sampleLevel.f16(i32, %dx.types.Handle, %dx.types.Handle, float, float, float, float, i32, i32, i32, float)
declare %dx.types.ResRet.f32 @dx.op.sampleGrad.f32(i32, %dx.types.Handle, %dx.types.Handle, float, float, float, float, i32, i32, i32, float, float, float, float, float, float, float)
declare %dx.types.ResRet.f32 @dx.op.sampleCmp.f32(i32, %dx.types.Handle, %dx.types.Handle, float, float, float, float, i32, i32, i32, float, float)
declare %dx.types.ResRet.f32 @dx.op.sampleCmpLevelZero.f32(i32, %dx.types.Handle, %dx.types.Handle, float, float, float, float, i32, i32, i32, float)
declare %dx.types.ResRet.f32 @dx.op.sampleCmpLevel.f32(i32, %dx.types.Handle, %dx.types.Handle, float, float, float, float, i32, i32, i32, float, float)
declare %dx.types.ResRet.f32 @dx.op.sampleCmpGrad.f32(i32, %dx.types.Handle, %dx.types.Handle, float, float, float, float, i32, i32, i32, float, float, float, float, float, float, float, float)
declare %dx.types.ResRet.f32 @dx.op.sampleCmpBias.f32(i32, %dx.types.Handle, %dx.types.Handle, float, float, float, float, i32, i32, i32, float, float, float)
declare %dx.types.ResRet.f32 @dx.op.textureLoad.f32(i32, %dx.types.Handle, i32, i32, i32, i32, i32, i32, i32)
declare %dx.types.ResRet.i32 @dx.op.textureLoad.i32(i32, %dx.types.Handle, i32, i32, i32, i32, i32, i32, i32)
declare %dx.types.ResRet.i16 @dx.op.textureLoad.i16(i32, %dx.types.Handle, i32, i32, i32, i32, i32, i32, i32)
declare void @dx.op.textureStore.f32(i32, %dx.types.Handle, i32, i32, i32, float, float, float, float, i8)
declare void @dx.op.textureStore.i16(i32, %dx.types.Handle, i32, i32, i32, i16, i16, i16, i16, i8)
declare void @dx.op.textureStoreSample.f32(i32, %dx.types.Handle, i32, i32, i32, float, float, float, float, i8, i32)
declare %dx.types.ResRet.f32 @dx.op.textureGather.f32(i32, %dx.types.Handle, %dx.types.Handle, float, float, float, float, i32, i32, i32)
declare %dx.types.ResRet.f32 @dx.op.textureGatherCmp.f32(i32, %dx.types.Handle, %dx.types.Handle, float, float, float, float, i32, i32, i32, float)
declare %dx.types.ResRet.i32 @dx.op.textureGatherRaw.i32(i32, %dx.types.Handle, %dx.types.Handle, float, float, float, float, i32, i32)
declare i32 @dx.op.quadReadLaneAt.i32(i32, i32, i32)
declare float @dx.op.calculateLOD.f32(i32, %dx.types.Handle, %dx.types.Handle, float, float, float, i1)
declare %dx.types.Dimensions @dx.op.getDimensions(i32, %dx.types.Handle, i32)
declare %dx.types.SamplePos @dx.op.texture2DMSGetSamplePosition(i32, %dx.types.Handle, i32)
declare %dx.types.SamplePos @dx.op.renderTargetGetSamplePosition(i32, i32)
declare i32 @dx.op.renderTargetGetSampleCount(i32)
declare void @dx.op.writeSamplerFeedback(i32, %dx.types.Handle, %dx.types.Handle, %dx.types.Handle, float, float, float, float, float)
)";

// SRVs t0 Texture2D<float4>, t1 Texture2DArray<float4>, t2 Texture2DMS<float4> (4 samples),
// t3 Buffer<uint>, t4 TextureCube<float4>, t5 Texture2D<uint>, t6..t9 Texture2D<float4>[4]; UAVs u0
// RWTexture2D<float4>, u1 RWTexture2D<int>, u2 RWTexture2DMS<float4>; samplers s0 (default), s1
// (comparison).
const char *kResourceMetadata = R"(!10 = !{!11, !12, !13, !14, !15, !33, !35}
!11 = !{i32 0, %T* undef, !"t2d", i32 0, i32 0, i32 1, i32 2, i32 0, !30}
!12 = !{i32 1, %T* undef, !"t2darray", i32 0, i32 1, i32 1, i32 7, i32 0, !30}
!13 = !{i32 2, %T* undef, !"t2dms", i32 0, i32 2, i32 1, i32 3, i32 4, !30}
!14 = !{i32 3, %T* undef, !"buf", i32 0, i32 3, i32 1, i32 10, i32 0, !31}
!15 = !{i32 4, %T* undef, !"cube", i32 0, i32 4, i32 1, i32 5, i32 0, !30}
!33 = !{i32 5, %T* undef, !"t2du", i32 0, i32 5, i32 1, i32 2, i32 0, !31}
!35 = !{i32 6, [4 x %T]* undef, !"tarr", i32 0, i32 6, i32 4, i32 2, i32 0, !30}
!16 = !{!17, !18, !34}
!17 = !{i32 0, %T* undef, !"rw", i32 0, i32 0, i32 1, i32 2, i1 false, i1 false, i1 false, !30}
!18 = !{i32 1, %T* undef, !"rwi", i32 0, i32 1, i32 1, i32 2, i1 false, i1 false, i1 false, !32}
!34 = !{i32 2, %T* undef, !"rwms", i32 0, i32 2, i32 1, i32 3, i1 false, i1 false, i1 false, !30}
!19 = !{!20, !21}
!20 = !{i32 0, %S* undef, !"s", i32 0, i32 0, i32 1, i32 0, null}
!21 = !{i32 1, %S* undef, !"sc", i32 0, i32 1, i32 1, i32 1, null}
!30 = !{i32 0, i32 9}
!31 = !{i32 0, i32 5}
!32 = !{i32 0, i32 4}
)";

/// Handles of every resource above: %t2d, %t2darray, %t2dms, %buf, %cube, %t2du, %rw, %rwi,
/// %rwms, %s, %sc (then textureShader adds %tid and %f, a float of it).
const char *kHandles = R"(entry:
  %t2d = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 0, i32 0, i32 0, i1 false)
  %t2darray = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 0, i32 1, i32 1, i1 false)
  %t2dms = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 0, i32 2, i32 2, i1 false)
  %buf = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 0, i32 3, i32 3, i1 false)
  %cube = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 0, i32 4, i32 4, i1 false)
  %t2du = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 0, i32 5, i32 5, i1 false)
  %rw = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)
  %rwi = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 1, i32 1, i1 false)
  %rwms = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 2, i32 2, i1 false)
  %s = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 3, i32 0, i32 0, i1 false)
  %sc = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 3, i32 1, i32 1, i1 false)
)";

/// A program over the resources above: `body` follows kHandles (and ends with `ret void`).
/// Compute shaders get `threads`; pixel shaders have no signature elements.
std::string textureShader(const std::string &body, const std::string &stage = "cs",
                          std::array<int, 3> threads = {8, 8, 1}, bool native16Bit = false) {
  const bool compute = stage == "cs";
  // %tid: a thread id in compute shaders, a number the compiler cannot fold elsewhere.
  std::string text = dxilPrelude(native16Bit) + kDeclarations + "\ndefine void @main() {\n" +
                     kHandles +
                     (compute ? "  %tid = call i32 @dx.op.threadId.i32(i32 93, i32 0)\n"
                              : "  %tid = add i32 1, 2\n") +
                     "  %f = uitofp i32 %tid to float\n" + body + "}\n\n";
  text += "!dx.version = !{!0}\n!0 = !{i32 1, i32 8}\n"
          "!dx.shaderModel = !{!1}\n!1 = !{!\"" +
          stage +
          "\", i32 6, i32 8}\n"
          "!dx.resources = !{!2}\n!2 = !{!10, !16, null, !19}\n"
          "!dx.entryPoints = !{!3}\n!3 = !{void ()* @main, !\"main\", null, !2, " +
          std::string(compute ? "!4" : "null") + "}\n";
  if (compute)
    text += "!4 = !{i32 4, !5}\n!5 = !{i32 " + std::to_string(threads[0]) + ", i32 " +
            std::to_string(threads[1]) + ", i32 " + std::to_string(threads[2]) + "}\n";
  return text + kResourceMetadata;
}

/// Stores the four floats of a ResRet.f32 named %r into u0 at (%tid, 0).
std::string storeResult(const std::string &r) {
  std::string text;
  for (int i = 0; i < 4; ++i)
    text += "  %" + r + std::to_string(i) + " = extractvalue %dx.types.ResRet.f32 %" + r + ", " +
            std::to_string(i) + "\n";
  return text + "  call void @dx.op.textureStore.f32(i32 67, %dx.types.Handle %rw, i32 %tid, i32 " +
         "0, i32 undef, float %" + r + "0, float %" + r + "1, float %" + r + "2, float %" + r +
         "3, i8 15)\n";
}

bool contains(const std::string &text, const std::string &what) {
  return text.find(what) != std::string::npos;
}

#define SKIP_WITHOUT_LLVM_AS()                                                                     \
  if (!haveLlvmAs())                                                                               \
  GTEST_SKIP() << "llvm-as-14 not installed (Debian package llvm-14)"

TEST(TextureOps, SampleLevelWithConstantOffsetAndSampleGradWithClamp) {
  SKIP_WITHOUT_LLVM_AS();
  const std::string body =
      "  %a = call %dx.types.ResRet.f32 @dx.op.sampleLevel.f32(i32 62, %dx.types.Handle %t2d, "
      "%dx.types.Handle %s, float %f, float 5.000000e-01, float undef, float undef, i32 -1, i32 2, "
      "i32 undef, float 1.000000e+00)\n" +
      storeResult("a") +
      "  %g = call %dx.types.ResRet.f32 @dx.op.sampleGrad.f32(i32 63, %dx.types.Handle %t2darray, "
      "%dx.types.Handle %s, float %f, float 0.0, float 2.0, float undef, i32 0, i32 0, i32 undef, "
      "float 1.0, float 0.0, float undef, float 0.0, float 1.0, float undef, float %f)\n" +
      storeResult("g") + "  ret void\n";
  Translation t = translateLl(textureShader(body));
  ASSERT_EQ(t.error, "");
  EXPECT_TRUE(contains(t.spvasm, "OpSampledImage")) << t.spvasm;
  // Offsets (-1, 2) as a signed constant vector; the layer is the third coordinate.
  EXPECT_TRUE(contains(t.spvasm, "Lod|ConstOffset %float_1 %")) << t.spvasm;
  EXPECT_TRUE(contains(t.spvasm, "OpConstantComposite %v2int %int_n1 %int_2")) << t.spvasm;
  EXPECT_TRUE(contains(t.spvasm, "Grad|MinLod")) << t.spvasm;
  EXPECT_TRUE(contains(t.spvasm, "OpCapability MinLod")) << t.spvasm;
  EXPECT_TRUE(contains(t.spvasm, "OpTypeImage %float 2D 0 1 0 1 Unknown")) << t.spvasm;
  EXPECT_FALSE(contains(t.spvasm, "DerivativeGroup")) << t.spvasm;
}

TEST(TextureOps, ImplicitLodInAPixelShader) {
  SKIP_WITHOUT_LLVM_AS();
  const std::string body =
      "  %a = call %dx.types.ResRet.f32 @dx.op.sample.f32(i32 60, %dx.types.Handle %cube, "
      "%dx.types.Handle %s, float %f, float 1.0, float 0.5, float undef, i32 undef, i32 undef, "
      "i32 undef, float undef)\n" +
      storeResult("a") +
      "  %b = call %dx.types.ResRet.f32 @dx.op.sampleBias.f32(i32 61, %dx.types.Handle %t2d, "
      "%dx.types.Handle %s, float %f, float 0.5, float undef, float undef, i32 0, i32 0, i32 "
      "undef, float -1.0, float 0.0)\n" +
      storeResult("b") +
      "  %c = call %dx.types.ResRet.f32 @dx.op.sampleCmp.f32(i32 64, %dx.types.Handle %t2d, "
      "%dx.types.Handle %sc, float %f, float 0.5, float undef, float undef, i32 1, i32 1, i32 "
      "undef, float 0.25, float 2.0)\n"
      "  %c0 = extractvalue %dx.types.ResRet.f32 %c, 0\n"
      "  %d = call %dx.types.ResRet.f32 @dx.op.sampleCmpBias.f32(i32 255, %dx.types.Handle %t2d, "
      "%dx.types.Handle %sc, float %f, float 0.5, float undef, float undef, i32 0, i32 0, i32 "
      "undef, float 0.25, float 1.0, float undef)\n"
      "  %d0 = extractvalue %dx.types.ResRet.f32 %d, 0\n"
      "  %lod = call float @dx.op.calculateLOD.f32(i32 81, %dx.types.Handle %t2darray, "
      "%dx.types.Handle %s, float %f, float 0.5, float undef, i1 true)\n"
      "  %ulod = call float @dx.op.calculateLOD.f32(i32 81, %dx.types.Handle %t2darray, "
      "%dx.types.Handle %s, float %f, float 0.5, float undef, i1 false)\n"
      "  call void @dx.op.textureStore.f32(i32 67, %dx.types.Handle %rw, i32 %tid, i32 1, i32 "
      "undef, float %c0, float %d0, float %lod, float %ulod, i8 15)\n"
      "  ret void\n";
  Translation t = translateLl(textureShader(body, "ps"));
  ASSERT_EQ(t.error, "");
  EXPECT_TRUE(contains(t.spvasm, "OpEntryPoint Fragment")) << t.spvasm;
  EXPECT_TRUE(contains(t.spvasm, "OpImageSampleImplicitLod %v4float")) << t.spvasm;
  EXPECT_TRUE(contains(t.spvasm, "Bias %float_n1")) << t.spvasm;
  // Comparison: Dref, constant offsets and the clamp as MinLod.
  EXPECT_TRUE(contains(t.spvasm, "OpImageSampleDrefImplicitLod %float")) << t.spvasm;
  EXPECT_TRUE(contains(t.spvasm, "%float_0_25 ConstOffset|MinLod")) << t.spvasm;
  EXPECT_TRUE(contains(t.spvasm, "%float_0_25 Bias %float_1")) << t.spvasm;
  // CalculateLOD: x clamped, y unclamped, coordinates without the array layer.
  EXPECT_TRUE(contains(t.spvasm, "OpImageQueryLod %v2float")) << t.spvasm;
  EXPECT_TRUE(contains(t.spvasm, "OpCapability ImageQuery")) << t.spvasm;
  EXPECT_FALSE(contains(t.spvasm, "DerivativeGroup")) << t.spvasm;
}

TEST(TextureOps, ExplicitComparisonForms) {
  SKIP_WITHOUT_LLVM_AS();
  const std::string body =
      "  %a = call %dx.types.ResRet.f32 @dx.op.sampleCmpLevelZero.f32(i32 65, %dx.types.Handle "
      "%t2darray, %dx.types.Handle %sc, float %f, float 0.5, float 1.0, float undef, i32 0, i32 0, "
      "i32 undef, float 0.5)\n"
      "  %a0 = extractvalue %dx.types.ResRet.f32 %a, 0\n"
      "  %b = call %dx.types.ResRet.f32 @dx.op.sampleCmpLevel.f32(i32 224, %dx.types.Handle "
      "%t2d, %dx.types.Handle %sc, float %f, float 0.5, float undef, float undef, i32 0, i32 0, "
      "i32 undef, float 0.5, float 3.0)\n"
      "  %b0 = extractvalue %dx.types.ResRet.f32 %b, 0\n"
      "  %c = call %dx.types.ResRet.f32 @dx.op.sampleCmpGrad.f32(i32 254, %dx.types.Handle %cube, "
      "%dx.types.Handle %sc, float %f, float 0.5, float 1.0, float undef, i32 undef, i32 undef, "
      "i32 undef, float 0.5, float 1.0, float 0.0, float 0.0, float 0.0, float 1.0, float 0.0, "
      "float undef)\n"
      "  %c0 = extractvalue %dx.types.ResRet.f32 %c, 0\n"
      "  call void @dx.op.textureStore.f32(i32 67, %dx.types.Handle %rw, i32 %tid, i32 1, i32 "
      "undef, float %a0, float %b0, float %c0, float %c0, i8 15)\n"
      "  ret void\n";
  Translation t = translateLl(textureShader(body));
  ASSERT_EQ(t.error, "");
  EXPECT_TRUE(contains(t.spvasm, "OpImageSampleDrefExplicitLod %float")) << t.spvasm;
  EXPECT_TRUE(contains(t.spvasm, "%float_0_5 Lod %float_0\n")) << t.spvasm;
  EXPECT_TRUE(contains(t.spvasm, "%float_0_5 Lod %float_3\n")) << t.spvasm;
  // A cube's gradients have three components; no clamp given: no MinLod.
  EXPECT_TRUE(contains(t.spvasm, "%float_0_5 Grad %")) << t.spvasm;
  EXPECT_FALSE(contains(t.spvasm, "MinLod")) << t.spvasm;
}

TEST(TextureOps, LoadsAndStores) {
  SKIP_WITHOUT_LLVM_AS();
  const std::string body =
      // SRV: mip level and a dynamic offset (its low four bits, sign-extended, added).
      "  %a = call %dx.types.ResRet.f32 @dx.op.textureLoad.f32(i32 66, %dx.types.Handle %t2d, "
      "i32 2, i32 %tid, i32 3, i32 undef, i32 %tid, i32 0, i32 undef)\n" +
      storeResult("a") +
      // Multisampled: the sample index.
      "  %b = call %dx.types.ResRet.f32 @dx.op.textureLoad.f32(i32 66, %dx.types.Handle %t2dms, "
      "i32 3, i32 %tid, i32 3, i32 undef, i32 undef, i32 undef, i32 undef)\n" +
      storeResult("b") +
      // UAV of int: OpImageRead of a signed texel, bitcast to the overload.
      "  %c = call %dx.types.ResRet.i32 @dx.op.textureLoad.i32(i32 66, %dx.types.Handle %rwi, "
      "i32 undef, i32 %tid, i32 3, i32 undef, i32 undef, i32 undef, i32 undef)\n"
      "  %c0 = extractvalue %dx.types.ResRet.i32 %c, 0\n"
      "  %cf = sitofp i32 %c0 to float\n"
      "  call void @dx.op.textureStoreSample.f32(i32 225, %dx.types.Handle %rwms, i32 %tid, i32 "
      "1, i32 undef, float %cf, float %cf, float %cf, float %cf, i8 15, i32 2)\n"
      "  ret void\n";
  Translation t = translateLl(textureShader(body));
  ASSERT_EQ(t.error, "");
  EXPECT_TRUE(contains(t.spvasm, "OpImageFetch %v4float")) << t.spvasm;
  EXPECT_TRUE(contains(t.spvasm, "Lod %uint_2")) << t.spvasm;
  EXPECT_TRUE(contains(t.spvasm, "OpBitFieldSExtract %int")) << t.spvasm;
  EXPECT_TRUE(contains(t.spvasm, "Sample %uint_3")) << t.spvasm;
  EXPECT_TRUE(contains(t.spvasm, "OpImageRead %v4int")) << t.spvasm;
  EXPECT_TRUE(contains(t.spvasm, "OpImageWrite")) << t.spvasm;
  EXPECT_TRUE(contains(t.spvasm, "Sample %uint_2")) << t.spvasm;
  EXPECT_TRUE(contains(t.spvasm, "OpCapability StorageImageMultisample")) << t.spvasm;
}

TEST(TextureOps, Gathers) {
  SKIP_WITHOUT_LLVM_AS();
  const std::string body =
      "  %a = call %dx.types.ResRet.f32 @dx.op.textureGather.f32(i32 73, %dx.types.Handle %t2d, "
      "%dx.types.Handle %s, float %f, float 0.5, float undef, float undef, i32 %tid, i32 1, i32 "
      "2)\n" +
      storeResult("a") +
      "  %b = call %dx.types.ResRet.f32 @dx.op.textureGatherCmp.f32(i32 74, %dx.types.Handle "
      "%cube, %dx.types.Handle %sc, float %f, float 0.5, float 1.0, float undef, i32 undef, i32 "
      "undef, i32 0, float 0.5)\n" +
      storeResult("b") +
      "  %c = call %dx.types.ResRet.i32 @dx.op.textureGatherRaw.i32(i32 223, %dx.types.Handle "
      "%t2du, %dx.types.Handle %s, float %f, float 0.5, float undef, float undef, i32 1, i32 1)\n"
      "  %c0 = extractvalue %dx.types.ResRet.i32 %c, 0\n"
      "  %cf = uitofp i32 %c0 to float\n"
      "  call void @dx.op.textureStore.f32(i32 67, %dx.types.Handle %rw, i32 %tid, i32 1, i32 "
      "undef, float %cf, float %cf, float %cf, float %cf, i8 15)\n"
      "  ret void\n";
  Translation t = translateLl(textureShader(body));
  ASSERT_EQ(t.error, "");
  // A dynamic offset: six bits, the Offset operand and ImageGatherExtended.
  EXPECT_TRUE(contains(t.spvasm, "%uint_2 Offset %")) << t.spvasm;
  EXPECT_TRUE(contains(t.spvasm, "OpCapability ImageGatherExtended")) << t.spvasm;
  EXPECT_TRUE(contains(t.spvasm, "%uint_6")) << t.spvasm;
  EXPECT_TRUE(contains(t.spvasm, "OpImageDrefGather %v4float")) << t.spvasm;
  EXPECT_TRUE(contains(t.spvasm, "OpImageGather %v4uint")) << t.spvasm;
  EXPECT_TRUE(contains(t.spvasm, "%uint_0 ConstOffset")) << t.spvasm;
}

TEST(TextureOps, GetDimensionsOfEveryShape) {
  SKIP_WITHOUT_LLVM_AS();
  std::string body;
  const char *handles[] = {"t2darray", "t2dms", "buf", "cube", "rw"};
  for (const char *h : handles) {
    const std::string n = h;
    body += "  %d" + n + " = call %dx.types.Dimensions @dx.op.getDimensions(i32 72, " +
            "%dx.types.Handle %" + n + ", i32 " + (n == "t2darray" ? "%tid" : "undef") + ")\n" +
            "  %x" + n + " = extractvalue %dx.types.Dimensions %d" + n + ", 0\n" + "  %xf" + n +
            " = uitofp i32 %x" + n + " to float\n" +
            "  call void @dx.op.textureStore.f32(i32 67, %dx.types.Handle %rw, i32 %tid, i32 2, " +
            "i32 undef, float %xf" + n + ", float %xf" + n + ", float %xf" + n + ", float %xf" + n +
            ", i8 15)\n";
  }
  body += "  ret void\n";
  Translation t = translateLl(textureShader(body));
  ASSERT_EQ(t.error, "");
  // The array texture: levels, the level checked against them, the size at that level.
  EXPECT_TRUE(contains(t.spvasm, "OpImageQueryLevels %uint")) << t.spvasm;
  EXPECT_TRUE(contains(t.spvasm, "OpImageQuerySizeLod %v3uint")) << t.spvasm;
  EXPECT_TRUE(contains(t.spvasm, "OpULessThan %bool")) << t.spvasm;
  // Past the last level the level asked is 0 and every size component reads 0: for the array
  // texture the level, width, height and array size; for the cube the level, width, height.
  size_t selects = 0;
  for (size_t at = t.spvasm.find("OpSelect %uint"); at != std::string::npos;
       at = t.spvasm.find("OpSelect %uint", at + 1))
    ++selects;
  EXPECT_EQ(selects, 7u) << t.spvasm;
  EXPECT_TRUE(contains(t.spvasm, "OpImageQuerySamples %uint")) << t.spvasm;
  EXPECT_TRUE(contains(t.spvasm, "OpImageQuerySize %uint")) << t.spvasm;      // typed buffer
  EXPECT_TRUE(contains(t.spvasm, "OpImageQuerySizeLod %v2uint")) << t.spvasm; // cube
  EXPECT_TRUE(contains(t.spvasm, "OpImageQuerySize %v2uint")) << t.spvasm;    // MS, RW
  EXPECT_TRUE(contains(t.spvasm, "OpCapability ImageQuery")) << t.spvasm;
}

TEST(TextureOps, TypedUavReadsDeclareTheirR32FormatWhenAsked) {
  SKIP_WITHOUT_LLVM_AS();
  // u1 read as RWTexture2D<int> (one component), u0 as RWTexture2D<float4>; both written back.
  const std::string body =
      "  %a = call %dx.types.ResRet.i32 @dx.op.textureLoad.i32(i32 66, %dx.types.Handle %rwi, "
      "i32 undef, i32 %tid, i32 0, i32 undef, i32 undef, i32 undef, i32 undef)\n"
      "  %a0 = extractvalue %dx.types.ResRet.i32 %a, 0\n"
      "  %af = sitofp i32 %a0 to float\n"
      "  %b = call %dx.types.ResRet.f32 @dx.op.textureLoad.f32(i32 66, %dx.types.Handle %rw, "
      "i32 undef, i32 %tid, i32 0, i32 undef, i32 undef, i32 undef, i32 undef)\n"
      "  %b0 = extractvalue %dx.types.ResRet.f32 %b, 0\n"
      "  %c = fadd float %af, %b0\n"
      "  call void @dx.op.textureStore.f32(i32 67, %dx.types.Handle %rw, i32 %tid, i32 1, i32 "
      "undef, float %c, float %c, float %c, float %c, i8 15)\n"
      "  ret void\n";
  std::string program = textureShader(body);
  const std::string vectorClass = "%T* undef, !\"rwi\"";
  ASSERT_NE(program.find(vectorClass), std::string::npos);
  program.replace(program.find(vectorClass), vectorClass.size(), "%S* undef, !\"rwi\"");
  Translation plain = translateLl(program);
  ASSERT_EQ(plain.error, "");
  EXPECT_FALSE(contains(plain.spvasm, " R32i")) << plain.spvasm;
  EXPECT_TRUE(contains(plain.spvasm, "OpCapability StorageImageReadWithoutFormat")) << plain.spvasm;
  DxilTranslateOptions r32;
  r32.typedUavReadsR32 = true;
  Translation formats = translateLl(program, r32);
  ASSERT_EQ(formats.error, "");
  // The one-component UAV has its format; the float4 one keeps none (D3D reads it only with the
  // additional formats, whatever they are); reading it still needs the capability.
  EXPECT_TRUE(contains(formats.spvasm, "OpTypeImage %int 2D 0 0 0 2 R32i")) << formats.spvasm;
  EXPECT_TRUE(contains(formats.spvasm, "OpTypeImage %float 2D 0 0 0 2 Unknown")) << formats.spvasm;
  EXPECT_TRUE(contains(formats.spvasm, "OpCapability StorageImageReadWithoutFormat"))
      << formats.spvasm;
  // With the shader flag that says it reads other formats (bit 13), none is assumed.
  std::string relaxed = program;
  const std::string entryTags =
      "!3 = !{void ()* @main, !\"main\", null, !2, !4}\n!4 = !{i32 4, !5}";
  ASSERT_NE(relaxed.find(entryTags), std::string::npos);
  relaxed.replace(relaxed.find(entryTags), entryTags.size(),
                  "!3 = !{void ()* @main, !\"main\", null, !2, !4}\n!4 = !{i32 0, i64 8192, i32 4, "
                  "!5}");
  Translation flagged = translateLl(relaxed, r32);
  ASSERT_EQ(flagged.error, "");
  EXPECT_FALSE(contains(flagged.spvasm, " R32i")) << flagged.spvasm;
}

TEST(TextureOps, SixteenBitResultsConvertFromTheSampledType) {
  SKIP_WITHOUT_LLVM_AS();
  const std::string body =
      "  %a = call %dx.types.ResRet.f16 @dx.op.sampleLevel.f16(i32 62, %dx.types.Handle %t2d, "
      "%dx.types.Handle %s, float %f, float 0.5, float undef, float undef, i32 0, i32 0, i32 "
      "undef, float 0.0)\n"
      "  %a0 = extractvalue %dx.types.ResRet.f16 %a, 0\n"
      "  %af = fpext half %a0 to float\n"
      "  %b = call %dx.types.ResRet.i16 @dx.op.textureLoad.i16(i32 66, %dx.types.Handle %rwi, i32 "
      "undef, i32 %tid, i32 0, i32 undef, i32 undef, i32 undef, i32 undef)\n"
      "  %b0 = extractvalue %dx.types.ResRet.i16 %b, 0\n"
      "  call void @dx.op.textureStore.i16(i32 67, %dx.types.Handle %rwi, i32 %tid, i32 1, i32 "
      "undef, i16 %b0, i16 %b0, i16 %b0, i16 %b0, i8 15)\n"
      "  call void @dx.op.textureStore.f32(i32 67, %dx.types.Handle %rw, i32 %tid, i32 1, i32 "
      "undef, float %af, float %af, float %af, float %af, i8 15)\n"
      "  ret void\n";
  Translation native = translateLl(textureShader(body, "cs", {8, 8, 1}, true));
  ASSERT_EQ(native.error, "");
  EXPECT_TRUE(contains(native.spvasm, "OpFConvert %half")) << native.spvasm;
  EXPECT_TRUE(contains(native.spvasm, "OpUConvert %ushort")) << native.spvasm;
  // Stored back into a signed 32-bit image: sign-extended.
  EXPECT_TRUE(contains(native.spvasm, "OpSConvert %int")) << native.spvasm;
  // Min precision: half and i16 are 32 bits, no conversion but the int's signedness.
  Translation minimum = translateLl(textureShader(body));
  ASSERT_EQ(minimum.error, "");
  EXPECT_FALSE(contains(minimum.spvasm, "OpFConvert")) << minimum.spvasm;
  EXPECT_FALSE(contains(minimum.spvasm, "half")) << minimum.spvasm;
}

TEST(TextureOps, ComputeDerivativeGroupsFollowNumthreads) {
  SKIP_WITHOUT_LLVM_AS();
  const std::string body =
      "  %a = call %dx.types.ResRet.f32 @dx.op.sample.f32(i32 60, %dx.types.Handle %t2d, "
      "%dx.types.Handle %s, float %f, float 0.5, float undef, float undef, i32 0, i32 0, i32 "
      "undef, float undef)\n" +
      storeResult("a") + "  ret void\n";
  Translation quads = translateLl(textureShader(body, "cs", {8, 8, 1}));
  ASSERT_EQ(quads.error, "");
  EXPECT_TRUE(contains(quads.spvasm, "OpExecutionMode %main DerivativeGroupQuadsKHR"))
      << quads.spvasm;
  EXPECT_TRUE(contains(quads.spvasm, "OpExtension \"SPV_NV_compute_shader_derivatives\""))
      << quads.spvasm;
  Translation linear = translateLl(textureShader(body, "cs", {64, 1, 1}));
  ASSERT_EQ(linear.error, "");
  EXPECT_TRUE(contains(linear.spvasm, "OpExecutionMode %main DerivativeGroupLinearKHR"))
      << linear.spvasm;
  EXPECT_TRUE(contains(linear.spvasm, "OpCapability ComputeDerivativeGroupLinearKHR"))
      << linear.spvasm;
  // For devices with the promoted extension only (Mesa 24 and later): the same enumerants.
  DxilTranslateOptions khr;
  khr.khrComputeDerivatives = true;
  Translation promoted = translateLl(textureShader(body, "cs", {8, 8, 1}), khr);
  ASSERT_EQ(promoted.error, "");
  EXPECT_TRUE(contains(promoted.spvasm, "OpExtension \"SPV_KHR_compute_shader_derivatives\""))
      << promoted.spvasm;
  EXPECT_FALSE(contains(promoted.spvasm, "SPV_NV_compute_shader_derivatives")) << promoted.spvasm;
  EXPECT_TRUE(contains(promoted.spvasm, "OpExecutionMode %main DerivativeGroupQuadsKHR"))
      << promoted.spvasm;
  Translation none = translateLl(textureShader(body, "cs", {3, 1, 1}));
  EXPECT_EQ(none.error, "entry 'main', function 'main', block 0, instruction 13 (call "
                        "@dx.op.sample.f32): unsupported: derivatives in a thread group of "
                        "3x1x1, which forms no quads");
}

TEST(TextureOps, NonUniformTextureIndex) {
  SKIP_WITHOUT_LLVM_AS();
  const std::string body =
      "  %lane = and i32 %tid, 3\n"
      "  %reg = add i32 %lane, 6\n"
      "  %tarr = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 0, i32 6, i32 %reg, i1 "
      "true)\n"
      "  %a = call %dx.types.ResRet.f32 @dx.op.sampleLevel.f32(i32 62, %dx.types.Handle %tarr, "
      "%dx.types.Handle %s, float %f, float 0.5, float undef, float undef, i32 0, i32 0, i32 "
      "undef, float 0.0)\n" +
      storeResult("a") + "  ret void\n";
  Translation t = translateLl(textureShader(body));
  ASSERT_EQ(t.error, "");
  // The element pointer, the loaded image and the sampled image are all NonUniform.
  size_t decorations = 0;
  for (size_t at = t.spvasm.find(" NonUniform\n"); at != std::string::npos;
       at = t.spvasm.find(" NonUniform\n", at + 1))
    ++decorations;
  EXPECT_EQ(decorations, 4u) << t.spvasm; // the index too
  EXPECT_TRUE(contains(t.spvasm, "OpCapability SampledImageArrayNonUniformIndexing")) << t.spvasm;
}

TEST(TextureOps, QuadOperationsFollowTheDerivativeGroupsWhenNumthreadsFormQuads) {
  SKIP_WITHOUT_LLVM_AS();
  const std::string body =
      "  %q = call i32 @dx.op.quadReadLaneAt.i32(i32 122, i32 %tid, i32 1)\n"
      "  %qf = uitofp i32 %q to float\n"
      "  call void @dx.op.textureStore.f32(i32 67, %dx.types.Handle %rw, i32 %tid, i32 0, i32 "
      "undef, float %qf, float %qf, float %qf, float %qf, i8 15)\n"
      "  ret void\n";
  Translation quads = translateLl(textureShader(body, "cs", {4, 2, 1}));
  ASSERT_EQ(quads.error, "");
  EXPECT_TRUE(contains(quads.spvasm, "OpExecutionMode %main DerivativeGroupQuadsKHR"))
      << quads.spvasm;
  // No quads in 3x1x1: the implementation's layout, as before SM 6.6; not an error.
  Translation none = translateLl(textureShader(body, "cs", {3, 1, 1}));
  ASSERT_EQ(none.error, "");
  EXPECT_FALSE(contains(none.spvasm, "DerivativeGroup")) << none.spvasm;
}

// SM 6.7's programmable offsets: Vulkan takes a dynamic Offset on gathers only, so an
// explicit-LOD sample switches over the 16 x 16 values D3D can mean (the low four bits of each
// component, sign-extended), each case sampling with its constant offset.
TEST(TextureOps, SampleLevelWithADynamicOffsetSwitchesOverItsValues) {
  SKIP_WITHOUT_LLVM_AS();
  const std::string sample =
      "  %a = call %dx.types.ResRet.f32 @dx.op.sampleLevel.f32(i32 62, %dx.types.Handle %t2d, "
      "%dx.types.Handle %s, float %f, float 0.5, float undef, float undef, i32 %tid, i32 %i, "
      "i32 undef, float 0.0)\n";
  Translation straight = translateLl(
      textureShader("  %i = add i32 %tid, 3\n" + sample + storeResult("a") + "  ret void\n"));
  ASSERT_EQ(straight.error, "");
  EXPECT_TRUE(contains(straight.spvasm, "OpSwitch")) << straight.spvasm;
  EXPECT_TRUE(contains(straight.spvasm, " 255 %")) << straight.spvasm;
  EXPECT_FALSE(contains(straight.spvasm, " 256 %")) << straight.spvasm;
  // Selector 0x8F: x = 15 -> -1, y = 8 -> -8.
  EXPECT_TRUE(contains(straight.spvasm, "OpConstantComposite %v2int %int_n1 %int_n8"))
      << straight.spvasm;
  EXPECT_TRUE(contains(straight.spvasm, "OpPhi %v4float")) << straight.spvasm;
  EXPECT_FALSE(contains(straight.spvasm, "ImageGatherExtended")) << straight.spvasm;
  // In a loop whose header is the sample's block: the header keeps its OpLoopMerge in the block
  // the back edge goes to.
  Translation loop =
      translateLl(textureShader("  br label %pre\npre:\n  br label %loop\nloop:\n  %i = phi i32 [ "
                                "0, %pre ], [ %next, %loop ]\n" +
                                sample + storeResult("a") +
                                "  %next = add i32 %i, 1\n  %more = icmp ult i32 %next, 4\n"
                                "  br i1 %more, label %loop, label %done\ndone:\n  ret void\n"));
  ASSERT_EQ(loop.error, "");
  EXPECT_TRUE(contains(loop.spvasm, "OpLoopMerge")) << loop.spvasm;
  EXPECT_TRUE(contains(loop.spvasm, "OpSwitch")) << loop.spvasm;
}

// An implicit level of detail needs the quad's lanes in step, which the switch over a dynamic
// offset's values splits: the derivatives are taken before it and the cases sample with them
// as gradients, scaled by 2^bias for SampleBias; the clamp stays a MinLod.
TEST(TextureOps, ImplicitSamplesWithADynamicOffsetUseTheQuadsGradients) {
  SKIP_WITHOUT_LLVM_AS();
  Translation plain = translateLl(textureShader(
      "  %a = call %dx.types.ResRet.f32 @dx.op.sample.f32(i32 60, %dx.types.Handle %t2d, "
      "%dx.types.Handle %s, float %f, float 0.5, float undef, float undef, i32 %tid, i32 0, i32 "
      "undef, float 0.0)\n" +
          storeResult("a") + "  ret void\n",
      "ps"));
  ASSERT_EQ(plain.error, "");
  const std::string &p = plain.spvasm;
  EXPECT_TRUE(contains(p, "OpDPdx %v2float")) << p;
  EXPECT_TRUE(contains(p, "OpDPdy %v2float")) << p;
  EXPECT_LT(p.find("OpDPdx"), p.find("OpSwitch")) << p;
  EXPECT_TRUE(contains(p, "OpImageSampleExplicitLod %v4float")) << p;
  EXPECT_TRUE(contains(p, "Grad|ConstOffset")) << p;
  EXPECT_FALSE(contains(p, "OpImageSampleImplicitLod")) << p;
  Translation biased = translateLl(textureShader(
      "  %a = call %dx.types.ResRet.f32 @dx.op.sampleBias.f32(i32 61, %dx.types.Handle %t2d, "
      "%dx.types.Handle %s, float %f, float 0.5, float undef, float undef, i32 %tid, i32 0, i32 "
      "undef, float 1.5, float 2.0)\n" +
          storeResult("a") + "  ret void\n",
      "ps"));
  ASSERT_EQ(biased.error, "");
  const std::string &b = biased.spvasm;
  EXPECT_TRUE(contains(b, "Exp2 %float_1_5")) << b;
  EXPECT_TRUE(contains(b, "OpVectorTimesScalar %v2float")) << b;
  EXPECT_TRUE(contains(b, "Grad|ConstOffset|MinLod")) << b;
  EXPECT_FALSE(contains(b, "Bias")) << b;
}

// GetSamplePosition: D3D's standard patterns as one Private table (a count's pattern starts at
// count - 1), indexed by the texture's sample count and the sample; (0, 0) past the count.
TEST(TextureOps, SamplePositionsFromTheStandardPatterns) {
  SKIP_WITHOUT_LLVM_AS();
  Translation t = translateLl(textureShader(
      "  %p = call %dx.types.SamplePos @dx.op.texture2DMSGetSamplePosition(i32 75, "
      "%dx.types.Handle %t2dms, i32 %tid)\n  %px = extractvalue %dx.types.SamplePos %p, 0\n"
      "  %py = extractvalue %dx.types.SamplePos %p, 1\n"
      "  call void @dx.op.textureStore.f32(i32 67, %dx.types.Handle %rw, i32 %tid, i32 0, i32 "
      "undef, float %px, float %py, float 0.0, float 0.0, i8 15)\n  ret void\n"));
  ASSERT_EQ(t.error, "");
  const std::string &s = t.spvasm;
  EXPECT_TRUE(contains(s, "OpImageQuerySamples %uint")) << s;
  EXPECT_TRUE(contains(s, "%_arr_v2float_uint_31")) << s;
  EXPECT_TRUE(contains(s,
                       "%standard_sample_positions = OpVariable %_ptr_Private__arr_v2float_uint_31 "
                       "Private"))
      << s;
  // 4 samples: (-2, -6) / 16 first; 16 samples: (-7, -8) / 16 last.
  EXPECT_TRUE(contains(s, "OpConstantComposite %v2float %float_n0_125 %float_n0_375")) << s;
  EXPECT_TRUE(contains(s, "OpConstantComposite %v2float %float_n0_4375 %float_n0_5")) << s;
  EXPECT_TRUE(contains(s, "OpSelect %v2float")) << s;
}

// The render targets' sample count, which a Vulkan shader cannot query, is a specialization
// constant (default 1) that the application sets; their sample positions come from the same
// standard patterns by that count.
TEST(TextureOps, RenderTargetSampleCountIsASpecializationConstant) {
  SKIP_WITHOUT_LLVM_AS();
  const std::string body =
      "  %n = call i32 @dx.op.renderTargetGetSampleCount(i32 77)\n"
      "  %p = call %dx.types.SamplePos @dx.op.renderTargetGetSamplePosition(i32 76, i32 %n)\n"
      "  %px = extractvalue %dx.types.SamplePos %p, 0\n"
      "  %nf = uitofp i32 %n to float\n"
      "  call void @dx.op.textureStore.f32(i32 67, %dx.types.Handle %rw, i32 %tid, i32 0, i32 "
      "undef, float %px, float %nf, float 0.0, float 0.0, i8 15)\n  ret void\n";
  DxilTranslateOptions options;
  options.renderTargetSampleCountSpecId = 7;
  Translation t = translateLl(textureShader(body, "ps"), options);
  ASSERT_EQ(t.error, "");
  const std::string &s = t.spvasm;
  EXPECT_TRUE(contains(s, "OpDecorate %render_target_sample_count SpecId 7")) << s;
  EXPECT_TRUE(contains(s, "%render_target_sample_count = OpSpecConstant %uint 1")) << s;
  EXPECT_TRUE(contains(s, "%standard_sample_positions = OpVariable")) << s;
  EXPECT_FALSE(contains(s, "OpImageQuerySamples")) << s;
  // The count picks the pattern and bounds the index: count - 1 + index.
  EXPECT_TRUE(contains(s, "OpISub %uint %render_target_sample_count %uint_1")) << s;
}

TEST(TextureOps, WhatVulkanCannotExpressIsRefused) {
  SKIP_WITHOUT_LLVM_AS();
  Translation feedback = translateLl(textureShader(
      "  call void @dx.op.writeSamplerFeedback(i32 174, %dx.types.Handle %t2d, %dx.types.Handle "
      "%t2d, %dx.types.Handle %s, float 0.5, float 0.5, float undef, float undef, float "
      "undef)\n  ret void\n",
      "ps"));
  EXPECT_NE(feedback.error.find("unsupported: sampler feedback (dx.op.WriteSamplerFeedback)"),
            std::string::npos)
      << feedback.error;
  Translation gatherCmpGreen = translateLl(textureShader(
      "  %b = call %dx.types.ResRet.f32 @dx.op.textureGatherCmp.f32(i32 74, %dx.types.Handle "
      "%t2d, %dx.types.Handle %sc, float %f, float 0.5, float undef, float undef, i32 0, i32 0, "
      "i32 1, float 0.5)\n  ret void\n"));
  EXPECT_NE(gatherCmpGreen.error.find("unsupported: dx.op.TextureGatherCmp of channel 1"),
            std::string::npos)
      << gatherCmpGreen.error;
}

} // namespace
} // namespace spire::translate::test
