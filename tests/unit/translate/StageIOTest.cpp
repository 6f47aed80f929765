// Graphics stages on small programs: signatures as Input/Output variables and built-ins, the
// stage dx.ops and the execution modes (vertex, pixel, geometry, hull, domain, mesh, task).
#include "unit/translate/DxilTranslateTestSupport.h"

#include <gtest/gtest.h>

namespace spire::translate::test {
namespace {

/// A program of one stage (`kind` "vs", "ps"...; shader model and DXIL version 6.`minor`),
/// `signatures` the operand list of the entry's signature node (inputs, outputs, patch
/// constants), `properties` the entry's tag list or "null"; `metadata` the numbered nodes
/// from !5 up that they name.
std::string stageShader(const std::string &kind, const std::string &declarations,
                        const std::string &body, const std::string &signatures,
                        const std::string &properties, const std::string &metadata,
                        const std::string &extraFunctions = "", int minor = 0) {
  std::string text =
      dxilPrelude() + declarations + extraFunctions + "\ndefine void @main() {\n" + body + "}\n\n";
  const std::string m = std::to_string(minor);
  text += "!dx.version = !{!0}\n!0 = !{i32 1, i32 " + m +
          "}\n"
          "!dx.shaderModel = !{!1}\n!1 = !{!\"" +
          kind + "\", i32 6, i32 " + m +
          "}\n"
          "!dx.entryPoints = !{!3}\n!3 = !{void ()* @main, !\"main\", !4, null, " +
          properties + "}\n!4 = !{" + signatures + "}\n" + metadata;
  return text;
}

bool has(const Translation &t, const std::string &text) {
  return t.spvasm.find(text) != std::string::npos;
}

// Element records: id, name, component type (4 i32, 5 u32, 9 f32), semantic kind (0
// arbitrary, 1 vertex id, 3 position, 16 target, 17 depth, 25 tess factor, 26 inside tess
// factor), semantic indices, interpolation (1 constant, 2 linear, 4 noperspective, 5
// noperspective centroid), rows, columns, start row, start column, tags.

TEST(DxilTranslateStageIO, VertexShaderSignaturesAndVertexId) {
  if (!haveLlvmAs())
    GTEST_SKIP() << "llvm-as-14 not installed (Debian package llvm-14)";
  const std::string declarations = R"(
declare float @dx.op.loadInput.f32(i32, i32, i32, i8, i32)
declare i32 @dx.op.loadInput.i32(i32, i32, i32, i8, i32)
declare void @dx.op.storeOutput.f32(i32, i32, i32, i8, float)
declare void @dx.op.storeOutput.i32(i32, i32, i32, i8, i32)
)";
  const std::string body = R"(entry:
  %x = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 0, i32 undef)
  %w = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 3, i32 undef)
  %n = call float @dx.op.loadInput.f32(i32 4, i32 1, i32 1, i8 1, i32 undef)
  %vid = call i32 @dx.op.loadInput.i32(i32 4, i32 2, i32 0, i8 0, i32 undef)
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 0, float %x)
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 3, float %w)
  call void @dx.op.storeOutput.f32(i32 5, i32 1, i32 0, i8 2, float %n)
  call void @dx.op.storeOutput.i32(i32 5, i32 2, i32 0, i8 0, i32 %vid)
  ret void
)";
  // Inputs: POSITION (row 0, float4), NORMAL[2] (rows 1-2, float2 at column 1), SV_VertexID.
  // Outputs: SV_Position, TEXCOORD (row 1, float3), ID (row 1, column 3, uint).
  const std::string metadata = R"(!5 = !{!10, !11, !12}
!6 = !{!13, !14, !15}
!10 = !{i32 0, !"POSITION", i8 9, i8 0, !20, i8 0, i32 1, i8 4, i32 0, i8 0, null}
!11 = !{i32 1, !"NORMAL", i8 9, i8 0, !21, i8 0, i32 2, i8 2, i32 1, i8 1, null}
!12 = !{i32 2, !"SV_VertexID", i8 5, i8 1, !20, i8 0, i32 1, i8 1, i32 3, i8 0, null}
!13 = !{i32 0, !"SV_Position", i8 9, i8 3, !20, i8 4, i32 1, i8 4, i32 0, i8 0, null}
!14 = !{i32 1, !"TEXCOORD", i8 9, i8 0, !20, i8 2, i32 1, i8 3, i32 1, i8 0, null}
!15 = !{i32 2, !"ID", i8 5, i8 0, !20, i8 1, i32 1, i8 1, i32 1, i8 3, null}
!20 = !{i32 0}
!21 = !{i32 0, i32 1}
)";
  Translation t =
      translateLl(stageShader("vs", declarations, body, "!5, !6, null", "null", metadata));
  ASSERT_EQ(t.error, "");
  EXPECT_TRUE(has(t, "OpEntryPoint Vertex %main")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpDecorate %POSITION Location 0")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpDecorate %NORMAL Location 1")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpDecorate %NORMAL Component 1")) << t.spvasm;
  EXPECT_TRUE(has(t, "%NORMAL = OpVariable %_ptr_Input__arr_v2float_uint_2 Input")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpDecorate %TEXCOORD Location 1")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpDecorate %ID Location 1")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpDecorate %ID Component 3")) << t.spvasm;
  EXPECT_TRUE(has(t, "BuiltIn Position")) << t.spvasm;
  // SV_VertexID counts from the draw's base vertex.
  EXPECT_TRUE(has(t, "BuiltIn VertexIndex")) << t.spvasm;
  EXPECT_TRUE(has(t, "BuiltIn BaseVertex")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpISub")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpCapability DrawParameters")) << t.spvasm;
  // The row and column of NORMAL[1].y.
  EXPECT_TRUE(has(t, "OpAccessChain %_ptr_Input_float %NORMAL %uint_1 %uint_1")) << t.spvasm;
}

TEST(DxilTranslateStageIO, PixelShaderInterpolationTargetsDepthAndDiscard) {
  if (!haveLlvmAs())
    GTEST_SKIP() << "llvm-as-14 not installed (Debian package llvm-14)";
  const std::string declarations = R"(
declare float @dx.op.loadInput.f32(i32, i32, i32, i8, i32)
declare i32 @dx.op.loadInput.i32(i32, i32, i32, i8, i32)
declare void @dx.op.storeOutput.f32(i32, i32, i32, i8, float)
declare void @dx.op.discard(i32, i1)
declare float @dx.op.evalCentroid.f32(i32, i32, i32, i8)
)";
  const std::string body = R"(entry:
  %w = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 3, i32 undef)
  %c = call float @dx.op.loadInput.f32(i32 4, i32 1, i32 0, i8 0, i32 undef)
  %k = call i32 @dx.op.loadInput.i32(i32 4, i32 2, i32 0, i8 0, i32 undef)
  %e = call float @dx.op.evalCentroid.f32(i32 89, i32 1, i32 0, i8 1)
  %neg = fcmp olt float %c, 0.000000e+00
  call void @dx.op.discard(i32 82, i1 %neg)
  %kf = uitofp i32 %k to float
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 0, float %w)
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 1, float %kf)
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 2, float %e)
  call void @dx.op.storeOutput.f32(i32 5, i32 1, i32 0, i8 0, float %c)
  ret void
)";
  // Inputs: SV_Position (noperspective), COLOR (row 1, noperspective centroid), KEY (row 2,
  // nointerpolation uint). Outputs: SV_Target3 (row 0... the semantic index is the
  // location), SV_Depth.
  const std::string metadata = R"(!5 = !{!10, !11, !12}
!6 = !{!13, !14}
!10 = !{i32 0, !"SV_Position", i8 9, i8 3, !20, i8 4, i32 1, i8 4, i32 0, i8 0, null}
!11 = !{i32 1, !"COLOR", i8 9, i8 0, !20, i8 5, i32 1, i8 2, i32 1, i8 0, null}
!12 = !{i32 2, !"KEY", i8 5, i8 0, !20, i8 1, i32 1, i8 1, i32 2, i8 0, null}
!13 = !{i32 0, !"SV_Target", i8 9, i8 16, !22, i8 0, i32 1, i8 4, i32 3, i8 0, null}
!14 = !{i32 1, !"SV_Depth", i8 9, i8 17, !20, i8 0, i32 1, i8 1, i32 -1, i8 -1, null}
!20 = !{i32 0}
!22 = !{i32 3}
)";
  Translation t =
      translateLl(stageShader("ps", declarations, body, "!5, !6, null", "null", metadata));
  ASSERT_EQ(t.error, "");
  EXPECT_TRUE(has(t, "OpEntryPoint Fragment %main")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpExecutionMode %main OriginUpperLeft")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpExecutionMode %main DepthReplacing")) << t.spvasm;
  EXPECT_TRUE(has(t, "BuiltIn FragCoord")) << t.spvasm;
  EXPECT_TRUE(has(t, "BuiltIn FragDepth")) << t.spvasm;
  // D3D's SV_Position.w is w; Vulkan's FragCoord.w is 1/w.
  EXPECT_TRUE(has(t, "OpFDiv %float %float_1")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpDecorate %COLOR NoPerspective")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpDecorate %COLOR Centroid")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpDecorate %KEY Flat")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpDecorate %SV_Target Location 3")) << t.spvasm;
  EXPECT_TRUE(has(t, "InterpolateAtCentroid")) << t.spvasm;
  // Discard is demote (helper lanes keep running for derivatives), under the condition.
  EXPECT_TRUE(has(t, "OpDemoteToHelperInvocation")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpFunctionCall %void %discard")) << t.spvasm;
}

// Dual-source blending (an option: in D3D the blend state decides): SV_Target0 and SV_Target1
// are Location 0 with Index 0 and 1; a third target cannot be written then.
TEST(DxilTranslateStageIO, DualSourceBlendingTargets) {
  if (!haveLlvmAs())
    GTEST_SKIP() << "llvm-as-14 not installed (Debian package llvm-14)";
  const std::string declarations = R"(
declare void @dx.op.storeOutput.f32(i32, i32, i32, i8, float)
)";
  auto shader = [&](int targets) {
    std::string body = "entry:\n", outputs, elements;
    for (int i = 0; i < targets; ++i) {
      const std::string n = std::to_string(i);
      body += "  call void @dx.op.storeOutput.f32(i32 5, i32 " + n + ", i32 0, i8 0, float 1.0)\n";
      outputs += std::string(i ? ", " : "") + "!1" + n;
      elements += "!1" + n + " = !{i32 " + n + ", !\"SV_Target\", i8 9, i8 16, !2" + n +
                  ", i8 0, i32 1, i8 4, i32 " + n + ", i8 0, null}\n!2" + n + " = !{i32 " + n +
                  "}\n";
    }
    return stageShader("ps", declarations, body + "  ret void\n", "null, !6, null", "null",
                       "!6 = !{" + outputs + "}\n" + elements);
  };
  DxilTranslateOptions dual;
  dual.dualSourceBlending = true;
  Translation two = translateLl(shader(2), dual);
  ASSERT_EQ(two.error, "");
  EXPECT_TRUE(has(two, "OpDecorate %SV_Target Location 0")) << two.spvasm;
  EXPECT_TRUE(has(two, "OpDecorate %SV_Target Index 0")) << two.spvasm;
  EXPECT_TRUE(has(two, "OpDecorate %SV_Target_0 Location 0")) << two.spvasm;
  EXPECT_TRUE(has(two, "OpDecorate %SV_Target_0 Index 1")) << two.spvasm;
  Translation plain = translateLl(shader(2));
  ASSERT_EQ(plain.error, "");
  EXPECT_TRUE(has(plain, "OpDecorate %SV_Target_0 Location 1")) << plain.spvasm;
  EXPECT_FALSE(has(plain, " Index ")) << plain.spvasm;
  Translation three = translateLl(shader(3), dual);
  EXPECT_NE(three.error.find("dual-source blending: the pixel shader writes SV_Target2"),
            std::string::npos)
      << three.error;
}

TEST(DxilTranslateStageIO, GeometryShaderStreamsAndModes) {
  if (!haveLlvmAs())
    GTEST_SKIP() << "llvm-as-14 not installed (Debian package llvm-14)";
  const std::string declarations = R"(
declare float @dx.op.loadInput.f32(i32, i32, i32, i8, i32)
declare void @dx.op.storeOutput.f32(i32, i32, i32, i8, float)
declare void @dx.op.emitStream(i32, i8)
declare void @dx.op.cutStream(i32, i8)
declare i32 @dx.op.gsInstanceID.i32(i32)
)";
  const std::string body = R"(entry:
  %x = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 0, i32 2)
  %i = call i32 @dx.op.gsInstanceID.i32(i32 100)
  %f = uitofp i32 %i to float
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 0, float %x)
  call void @dx.op.emitStream(i32 97, i8 0)
  call void @dx.op.storeOutput.f32(i32 5, i32 1, i32 0, i8 0, float %f)
  call void @dx.op.emitStream(i32 97, i8 1)
  call void @dx.op.cutStream(i32 98, i8 1)
  ret void
)";
  // Input: SV_Position of a triangle's vertices. Outputs: SV_Position on stream 0, DATA
  // (row 0) on stream 1; GS state: triangle in, 4 vertices, streams 0 and 1, point list, 2
  // instances.
  const std::string metadata = R"(!5 = !{!10}
!6 = !{!11, !12}
!7 = !{i32 1, !8}
!8 = !{i32 3, i32 4, i32 3, i32 1, i32 2}
!10 = !{i32 0, !"SV_Position", i8 9, i8 3, !20, i8 4, i32 1, i8 4, i32 0, i8 0, null}
!11 = !{i32 0, !"SV_Position", i8 9, i8 3, !20, i8 4, i32 1, i8 4, i32 0, i8 0, null}
!12 = !{i32 1, !"DATA", i8 9, i8 0, !20, i8 2, i32 1, i8 1, i32 0, i8 0, !21}
!20 = !{i32 0}
!21 = !{i32 0, i32 1}
)";
  Translation t =
      translateLl(stageShader("gs", declarations, body, "!5, !6, null", "!7", metadata));
  ASSERT_EQ(t.error, "");
  EXPECT_TRUE(has(t, "OpEntryPoint Geometry %main")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpExecutionMode %main Triangles")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpExecutionMode %main OutputVertices 4")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpExecutionMode %main OutputPoints")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpExecutionMode %main Invocations 2")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpCapability GeometryStreams")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpEmitStreamVertex %uint_1")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpEndStreamPrimitive %uint_1")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpDecorate %DATA Stream 1")) << t.spvasm;
  // Stream 1's rows come after stream 0's (one row: SV_Position).
  EXPECT_TRUE(has(t, "OpDecorate %DATA Location 1")) << t.spvasm;
  EXPECT_TRUE(has(t, "BuiltIn InvocationId")) << t.spvasm;
  // The per-vertex input is an array of the primitive's three vertices.
  EXPECT_TRUE(has(t, "_arr_v4float_uint_3 Input")) << t.spvasm;
}

TEST(DxilTranslateStageIO, HullShaderRunsThePatchConstantFunctionAfterTheControlPoints) {
  if (!haveLlvmAs())
    GTEST_SKIP() << "llvm-as-14 not installed (Debian package llvm-14)";
  const std::string declarations = R"(
declare float @dx.op.loadInput.f32(i32, i32, i32, i8, i32)
declare void @dx.op.storeOutput.f32(i32, i32, i32, i8, float)
declare float @dx.op.loadOutputControlPoint.f32(i32, i32, i32, i8, i32)
declare void @dx.op.storePatchConstant.f32(i32, i32, i32, i8, float)
declare i32 @dx.op.outputControlPointID.i32(i32)
)";
  const std::string patchFunction = R"(
define void @patch() {
entry:
  %a = call float @dx.op.loadOutputControlPoint.f32(i32 103, i32 0, i32 0, i8 0, i32 2)
  call void @dx.op.storePatchConstant.f32(i32 106, i32 0, i32 0, i8 0, float %a)
  call void @dx.op.storePatchConstant.f32(i32 106, i32 0, i32 2, i8 0, float %a)
  call void @dx.op.storePatchConstant.f32(i32 106, i32 1, i32 0, i8 0, float %a)
  call void @dx.op.storePatchConstant.f32(i32 106, i32 2, i32 0, i8 1, float %a)
  ret void
}
)";
  const std::string body = R"(entry:
  %id = call i32 @dx.op.outputControlPointID.i32(i32 107)
  %x = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 0, i32 %id)
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 0, float %x)
  ret void
)";
  // Control points: VALUE (row 0) in and out. Patch constants: SV_TessFactor[3] (rows 0-2),
  // SV_InsideTessFactor (row 3), EXTRA (row 0, column 1... placed after the control point
  // rows). HS state: 3 in, 3 out, triangle domain, fractional odd, triangle cw, 64.
  const std::string metadata = R"(!5 = !{!10}
!6 = !{!10}
!7 = !{!11, !12, !13}
!8 = !{i32 3, !9}
!9 = !{void ()* @patch, i32 3, i32 3, i32 2, i32 3, i32 3, float 6.400000e+01}
!10 = !{i32 0, !"VALUE", i8 9, i8 0, !20, i8 0, i32 1, i8 1, i32 0, i8 0, null}
!11 = !{i32 0, !"SV_TessFactor", i8 9, i8 25, !21, i8 0, i32 3, i8 1, i32 0, i8 3, null}
!12 = !{i32 1, !"SV_InsideTessFactor", i8 9, i8 26, !20, i8 0, i32 1, i8 1, i32 3, i8 3, null}
!13 = !{i32 2, !"EXTRA", i8 9, i8 0, !20, i8 0, i32 1, i8 2, i32 0, i8 0, null}
!20 = !{i32 0}
!21 = !{i32 0, i32 1, i32 2}
)";
  Translation t = translateLl(
      stageShader("hs", declarations, body, "!5, !6, !7", "!8", metadata, patchFunction));
  ASSERT_EQ(t.error, "");
  EXPECT_TRUE(has(t, "OpEntryPoint TessellationControl %main")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpExecutionMode %main OutputVertices 3")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpExecutionMode %main Triangles")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpExecutionMode %main SpacingFractionalOdd")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpExecutionMode %main VertexOrderCw")) << t.spvasm;
  // main calls the control point function, waits for every invocation, and lets invocation 0
  // run the patch constant function.
  EXPECT_TRUE(has(t, "OpControlBarrier %uint_2 %uint_4 %uint_0")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpFunctionCall %void %patch")) << t.spvasm;
  EXPECT_TRUE(has(t, "BuiltIn TessLevelOuter")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpDecorate %gl_TessLevelOuter Patch")) << t.spvasm;
  EXPECT_TRUE(has(t, "BuiltIn TessLevelInner")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpAccessChain %_ptr_Output_float %gl_TessLevelOuter %uint_2")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpDecorate %EXTRA Patch")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpDecorate %EXTRA Location 1")) << t.spvasm;
  // Control point outputs are written at the invocation's own index, read back at any.
  EXPECT_TRUE(has(t, "%VALUE_0 = OpVariable %_ptr_Output__arr_float_uint_3 Output")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpAccessChain %_ptr_Output_float %VALUE_0 %uint_2")) << t.spvasm;
}

TEST(DxilTranslateStageIO, DomainShaderReadsControlPointsPatchConstantsAndTessCoord) {
  if (!haveLlvmAs())
    GTEST_SKIP() << "llvm-as-14 not installed (Debian package llvm-14)";
  const std::string declarations = R"(
declare float @dx.op.loadInput.f32(i32, i32, i32, i8, i32)
declare float @dx.op.loadPatchConstant.f32(i32, i32, i32, i8)
declare float @dx.op.domainLocation.f32(i32, i8)
declare void @dx.op.storeOutput.f32(i32, i32, i32, i8, float)
)";
  const std::string body = R"(entry:
  %u = call float @dx.op.domainLocation.f32(i32 105, i8 1)
  %a = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 0, i32 3)
  %e = call float @dx.op.loadPatchConstant.f32(i32 104, i32 0, i32 3, i8 0)
  %x = call float @dx.op.loadPatchConstant.f32(i32 104, i32 2, i32 0, i8 1)
  %s = fadd float %u, %a
  %s2 = fadd float %s, %e
  %s3 = fadd float %s2, %x
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 0, float %s3)
  ret void
)";
  // Control points: VALUE. Patch constants: SV_TessFactor[4], SV_InsideTessFactor[2], EXTRA
  // (row 0, two columns). Output: SV_Position. DS state: quad domain, 4 control points.
  const std::string metadata = R"(!5 = !{!10}
!6 = !{!14}
!7 = !{!11, !12, !13}
!8 = !{i32 2, !9}
!9 = !{i32 3, i32 4}
!10 = !{i32 0, !"VALUE", i8 9, i8 0, !20, i8 0, i32 1, i8 1, i32 0, i8 0, null}
!11 = !{i32 0, !"SV_TessFactor", i8 9, i8 25, !21, i8 0, i32 4, i8 1, i32 0, i8 3, null}
!12 = !{i32 1, !"SV_InsideTessFactor", i8 9, i8 26, !22, i8 0, i32 2, i8 1, i32 4, i8 3, null}
!13 = !{i32 2, !"EXTRA", i8 9, i8 0, !20, i8 0, i32 1, i8 2, i32 0, i8 0, null}
!14 = !{i32 0, !"SV_Position", i8 9, i8 3, !20, i8 4, i32 1, i8 4, i32 0, i8 0, null}
!20 = !{i32 0}
!21 = !{i32 0, i32 1, i32 2, i32 3}
!22 = !{i32 0, i32 1}
)";
  Translation t = translateLl(stageShader("ds", declarations, body, "!5, !6, !7", "!8", metadata));
  ASSERT_EQ(t.error, "");
  EXPECT_TRUE(has(t, "OpEntryPoint TessellationEvaluation %main")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpExecutionMode %main Quads")) << t.spvasm;
  EXPECT_TRUE(has(t, "BuiltIn TessCoord")) << t.spvasm;
  EXPECT_TRUE(has(t, "%VALUE = OpVariable %_ptr_Input__arr_float_uint_4 Input")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpAccessChain %_ptr_Input_float %VALUE %uint_3")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpAccessChain %_ptr_Input_float %gl_TessLevelOuter %uint_3")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpDecorate %EXTRA Patch")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpDecorate %EXTRA Location 1")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpAccessChain %_ptr_Input_float %EXTRA %uint_1")) << t.spvasm;
}

/// A mesh shader: SV_Position per vertex, SV_PrimitiveID and ID (row 0) per primitive.
std::string meshShader() {
  const std::string declarations = R"(
%struct.Payload = type { i32 }
declare void @dx.op.setMeshOutputCounts(i32, i32, i32)
declare void @dx.op.emitIndices(i32, i32, i32, i32, i32)
declare void @dx.op.storeVertexOutput.f32(i32, i32, i32, i8, float, i32)
declare void @dx.op.storePrimitiveOutput.i32(i32, i32, i32, i8, i32, i32)
declare %struct.Payload* @dx.op.getMeshPayload.struct.Payload(i32)
declare i32 @dx.op.threadIdInGroup.i32(i32, i32)
)";
  const std::string body = R"(entry:
  %t = call i32 @dx.op.threadIdInGroup.i32(i32 95, i32 0)
  %p = call %struct.Payload* @dx.op.getMeshPayload.struct.Payload(i32 170)
  %f = getelementptr inbounds %struct.Payload, %struct.Payload* %p, i32 0, i32 0
  %v = load i32, i32* %f
  call void @dx.op.setMeshOutputCounts(i32 168, i32 3, i32 1)
  call void @dx.op.emitIndices(i32 169, i32 0, i32 0, i32 1, i32 2)
  call void @dx.op.storeVertexOutput.f32(i32 171, i32 0, i32 0, i8 3, float 1.0, i32 %t)
  call void @dx.op.storePrimitiveOutput.i32(i32 172, i32 0, i32 0, i8 0, i32 %v, i32 0)
  call void @dx.op.storePrimitiveOutput.i32(i32 172, i32 1, i32 0, i8 0, i32 %v, i32 0)
  ret void
)";
  // Vertex outputs: SV_Position. Primitive outputs: SV_PrimitiveID, ID (row 0). MS state:
  // 32x1x1 threads, 3 vertices, 1 primitive, triangles, 4-byte payload.
  const std::string metadata = R"(!6 = !{!11}
!7 = !{!12, !13}
!8 = !{i32 9, !9}
!9 = !{!{i32 32, i32 1, i32 1}, i32 3, i32 1, i32 2, i32 4}
!11 = !{i32 0, !"SV_Position", i8 9, i8 3, !20, i8 4, i32 1, i8 4, i32 0, i8 0, null}
!12 = !{i32 0, !"SV_PrimitiveID", i8 5, i8 10, !20, i8 1, i32 1, i8 1, i32 -1, i8 -1, null}
!13 = !{i32 1, !"ID", i8 5, i8 0, !20, i8 1, i32 1, i8 1, i32 0, i8 0, null}
!20 = !{i32 0}
)";
  return stageShader("ms", declarations, body, "null, !6, !7", "!8", metadata, "", 5);
}

TEST(DxilTranslateStageIO, MeshShaderOutputsIndicesAndPayload) {
  if (!haveLlvmAs())
    GTEST_SKIP() << "llvm-as-14 not installed (Debian package llvm-14)";
  Translation t = translateLl(meshShader());
  ASSERT_EQ(t.error, "");
  EXPECT_TRUE(has(t, "OpEntryPoint MeshEXT %main")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpExecutionMode %main LocalSize 32 1 1")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpExecutionMode %main OutputVertices 3")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpExecutionMode %main OutputPrimitivesEXT 1")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpExecutionMode %main OutputTrianglesEXT")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpSetMeshOutputsEXT %uint_3 %uint_1")) << t.spvasm;
  EXPECT_TRUE(has(t, "BuiltIn PrimitiveTriangleIndicesEXT")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpDecorate %gl_PrimitiveID PerPrimitiveEXT")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpDecorate %ID PerPrimitiveEXT")) << t.spvasm;
  // Primitive locations follow the vertex rows.
  EXPECT_TRUE(has(t, "OpDecorate %ID Location 1")) << t.spvasm;
  EXPECT_TRUE(has(t, "TaskPayloadWorkgroupEXT")) << t.spvasm;
  EXPECT_TRUE(has(t, "%gl_Position = OpVariable %_ptr_Output__arr_v4float_uint_3 Output"))
      << t.spvasm;
}

/// A pixel shader reading ID (row 1, a nointerpolation uint) and TEXCOORD0 (row 2, a float2)
/// into SV_Target.
std::string linkedPixelShader() {
  const std::string declarations = R"(
declare float @dx.op.loadInput.f32(i32, i32, i32, i8, i32)
declare i32 @dx.op.loadInput.i32(i32, i32, i32, i8, i32)
declare void @dx.op.storeOutput.f32(i32, i32, i32, i8, float)
)";
  const std::string body = R"(entry:
  %id = call i32 @dx.op.loadInput.i32(i32 4, i32 1, i32 0, i8 0, i32 undef)
  %u = call float @dx.op.loadInput.f32(i32 4, i32 2, i32 0, i8 1, i32 undef)
  %f = uitofp i32 %id to float
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 0, float %f)
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 1, float %u)
  ret void
)";
  const std::string metadata = R"(!5 = !{!10, !11, !12}
!6 = !{!13}
!10 = !{i32 0, !"SV_Position", i8 9, i8 3, !20, i8 4, i32 1, i8 4, i32 0, i8 0, null}
!11 = !{i32 1, !"ID", i8 5, i8 0, !20, i8 1, i32 1, i8 1, i32 1, i8 0, null}
!12 = !{i32 2, !"TEXCOORD", i8 9, i8 0, !20, i8 2, i32 1, i8 2, i32 2, i8 0, null}
!13 = !{i32 0, !"SV_Target", i8 9, i8 16, !20, i8 0, i32 1, i8 4, i32 0, i8 0, null}
!20 = !{i32 0}
)";
  return stageShader("ps", declarations, body, "!5, !6, null", "null", metadata);
}

// D3D links a pixel shader's inputs to the previous stage's outputs by semantic, Vulkan by
// location: with the previous stage known, each input takes its place there, and one a mesh
// shader writes per primitive is PerPrimitiveEXT.
TEST(DxilTranslateStageIO, InputsTakeThePreviousStagesLocationsAndPerPrimitive) {
  if (!haveLlvmAs())
    GTEST_SKIP() << "llvm-as-14 not installed (Debian package llvm-14)";
  // Alone: each input at its own row.
  Translation alone = translateLl(linkedPixelShader());
  ASSERT_EQ(alone.error, "");
  EXPECT_TRUE(has(alone, "OpDecorate %ID Location 1")) << alone.spvasm;
  EXPECT_TRUE(has(alone, "OpDecorate %TEXCOORD Location 2")) << alone.spvasm;
  EXPECT_FALSE(has(alone, "PerPrimitiveEXT")) << alone.spvasm;

  // After a vertex shader that packs TEXCOORD0 into row 3 from column 2 and writes ID at row 5.
  DxilTranslateOptions options;
  options.previousStage = {{"TEXCOORD", 0, 3, 2}, {"ID", 0, 5, 0}};
  Translation linked = translateLl(linkedPixelShader(), options);
  ASSERT_EQ(linked.error, "");
  EXPECT_TRUE(has(linked, "OpDecorate %ID Location 5")) << linked.spvasm;
  EXPECT_TRUE(has(linked, "OpDecorate %TEXCOORD Location 3")) << linked.spvasm;
  EXPECT_TRUE(has(linked, "OpDecorate %TEXCOORD Component 2")) << linked.spvasm;

  // After a mesh shader (MeshShaderOutputsIndicesAndPayload's), whose primitive output ID
  // follows its vertex rows; it writes no TEXCOORD0, so the pixel shader without that input.
  std::string error;
  const std::vector<uint8_t> mesh = assemble(meshShader(), error);
  ASSERT_FALSE(mesh.empty()) << error;
  Expected<std::vector<StageOutput>> outputs = stageOutputsOf(mesh);
  ASSERT_TRUE(outputs.ok()) << outputs.error().message;
  ASSERT_EQ(outputs->size(), 1u) << "SV_Position and SV_PrimitiveID are built-ins";
  EXPECT_EQ((*outputs)[0].semantic, "ID");
  EXPECT_EQ((*outputs)[0].location, 1u);
  EXPECT_TRUE((*outputs)[0].perPrimitive);
  options.previousStage = *outputs;
  Translation missing = translateLl(linkedPixelShader(), options);
  EXPECT_NE(missing.error.find("input TEXCOORD0 is not an output of the previous stage"),
            std::string::npos)
      << missing.error;
  options.previousStage.push_back({"TEXCOORD", 0, 2, 0});
  Translation perPrimitive = translateLl(linkedPixelShader(), options);
  ASSERT_EQ(perPrimitive.error, "");
  EXPECT_TRUE(has(perPrimitive, "OpDecorate %ID Location 1")) << perPrimitive.spvasm;
  EXPECT_TRUE(has(perPrimitive, "OpDecorate %ID PerPrimitiveEXT")) << perPrimitive.spvasm;
  EXPECT_TRUE(has(perPrimitive, "OpCapability MeshShadingEXT")) << perPrimitive.spvasm;
  EXPECT_FALSE(has(perPrimitive, "OpDecorate %TEXCOORD PerPrimitiveEXT")) << perPrimitive.spvasm;

  // A two-row input whose rows the previous stage does not keep together.
  options.previousStage = {{"TEXCOORD", 0, 3, 0}, {"ID", 0, 5, 0}, {"ID", 1, 7, 0}};
  std::string twoRows = linkedPixelShader();
  const std::string oneRow = "!11 = !{i32 1, !\"ID\", i8 5, i8 0, !20, i8 1, i32 1,";
  twoRows.replace(twoRows.find(oneRow), oneRow.size(),
                  "!11 = !{i32 1, !\"ID\", i8 5, i8 0, !21, i8 1, i32 2,");
  twoRows += "!21 = !{i32 0, i32 1}\n";
  Translation split = translateLl(twoRows, options);
  EXPECT_NE(split.error.find("rows are not consecutive"), std::string::npos) << split.error;
}

TEST(DxilTranslateStageIO, AmplificationShaderDispatchesMeshesWithItsPayload) {
  if (!haveLlvmAs())
    GTEST_SKIP() << "llvm-as-14 not installed (Debian package llvm-14)";
  const std::string declarations = R"(
%struct.Payload = type { i32, i32 }
declare void @dx.op.dispatchMesh.struct.Payload(i32, i32, i32, i32, %struct.Payload*)
declare i32 @dx.op.groupId.i32(i32, i32)
)";
  const std::string body = R"(entry:
  %g = call i32 @dx.op.groupId.i32(i32 94, i32 0)
  %p = alloca %struct.Payload
  %f = getelementptr inbounds %struct.Payload, %struct.Payload* %p, i32 0, i32 1
  store i32 %g, i32* %f
  call void @dx.op.dispatchMesh.struct.Payload(i32 173, i32 %g, i32 1, i32 1, %struct.Payload* %p)
  ret void
)";
  const std::string metadata = R"(!8 = !{i32 10, !9}
!9 = !{!{i32 4, i32 1, i32 1}, i32 8}
)";
  Translation t =
      translateLl(stageShader("as", declarations, body, "null, null, null", "!8", metadata, "", 5));
  ASSERT_EQ(t.error, "");
  EXPECT_TRUE(has(t, "OpEntryPoint TaskEXT %main")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpExecutionMode %main LocalSize 4 1 1")) << t.spvasm;
  // The payload is copied into the task payload variable, which OpEmitMeshTasksEXT (a
  // terminator) hands to the mesh shaders.
  EXPECT_TRUE(has(t, "TaskPayloadWorkgroupEXT")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpEmitMeshTasksEXT")) << t.spvasm;
}

TEST(DxilTranslateStageIO, SignatureElementThatDoesNotExistIsAnError) {
  if (!haveLlvmAs())
    GTEST_SKIP() << "llvm-as-14 not installed (Debian package llvm-14)";
  const std::string declarations =
      "declare void @dx.op.storeOutput.f32(i32, i32, i32, i8, float)\n";
  const std::string body = R"(entry:
  call void @dx.op.storeOutput.f32(i32 5, i32 7, i32 0, i8 0, float 1.0)
  ret void
)";
  const std::string metadata = R"(!6 = !{!13}
!13 = !{i32 0, !"SV_Position", i8 9, i8 3, !20, i8 4, i32 1, i8 4, i32 0, i8 0, null}
!20 = !{i32 0}
)";
  Translation t =
      translateLl(stageShader("vs", declarations, body, "null, !6, null", "null", metadata));
  EXPECT_EQ(t.error, "entry 'main', function 'main', block 0, instruction 0 (call "
                     "@dx.op.storeOutput.f32): dx.op.StoreOutput names signature element 7, "
                     "which the signature does not have");
}

} // namespace
} // namespace spire::translate::test
