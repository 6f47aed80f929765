// Work graph node shaders in the translator: small lib_6_8 node shaders in LLVM assembly (thread,
// coalescing and broadcasting launches, outputs, shared inputs) translated to
// SPV_AMDX_shader_enqueue and validated for vulkan1.3 by spire val and spirv-val (the newer
// SPIRV-Tools of ../shared/tools: the distribution's 2023.1 predates AMDX).
#include "unit/translate/DxilTranslateTestSupport.h"

#include <gtest/gtest.h>

namespace spire::translate::test {
namespace {

const char *kNodeDeclarations = R"(
%dx.types.NodeHandle = type { i8* }
%dx.types.NodeInfo = type { i32, i32 }
%dx.types.NodeRecordHandle = type { i8* }
%dx.types.NodeRecordInfo = type { i32, i32 }
%struct.In = type { i32, i32 }
%struct.Out = type { i32 }
%struct.Grid = type { i32, [2 x i32], i32 }

declare %dx.types.NodeRecordHandle @dx.op.createNodeInputRecordHandle(i32, i32)
declare %dx.types.NodeRecordHandle @dx.op.annotateNodeRecordHandle(i32, %dx.types.NodeRecordHandle, %dx.types.NodeRecordInfo)
declare %dx.types.NodeHandle @dx.op.createNodeOutputHandle(i32, i32)
declare %dx.types.NodeHandle @dx.op.indexNodeHandle(i32, %dx.types.NodeHandle, i32)
declare %dx.types.NodeHandle @dx.op.annotateNodeHandle(i32, %dx.types.NodeHandle, %dx.types.NodeInfo)
declare %dx.types.NodeRecordHandle @dx.op.allocateNodeOutputRecords(i32, %dx.types.NodeHandle, i32, i1)
declare %struct.In addrspace(6)* @dx.op.getNodeRecordPtr.struct.In(i32, %dx.types.NodeRecordHandle, i32)
declare %struct.Out addrspace(6)* @dx.op.getNodeRecordPtr.struct.Out(i32, %dx.types.NodeRecordHandle, i32)
declare %struct.Grid addrspace(6)* @dx.op.getNodeRecordPtr.struct.Grid(i32, %dx.types.NodeRecordHandle, i32)
declare void @dx.op.outputComplete(i32, %dx.types.NodeRecordHandle)
declare void @dx.op.incrementOutputCount(i32, %dx.types.NodeHandle, i32, i1)
declare i32 @dx.op.getInputRecordCount(i32, %dx.types.NodeRecordHandle)
declare i1 @dx.op.nodeOutputIsValid(i32, %dx.types.NodeHandle)
declare i32 @dx.op.getRemainingRecursionLevels(i32)
declare i32 @dx.op.flattenedThreadIdInGroup.i32(i32)
)";

/// A lib_6_8 module of one node entry @`function`: `body` its blocks, `properties` the text of
/// its extended properties list (tag/value pairs) and `metadata` numbered metadata from !10 up.
std::string nodeShader(const std::string &function, const std::string &body,
                       const std::string &properties, const std::string &metadata) {
  return dxilPrelude() + kNodeDeclarations + "\ndefine void @" + function + "() {\n" + body +
         "}\n\n!dx.version = !{!0}\n!0 = !{i32 1, i32 8}\n!dx.shaderModel = !{!1}\n"
         "!1 = !{!\"lib\", i32 6, i32 8}\n!dx.entryPoints = !{!2}\n!2 = !{void ()* @" +
         function + ", !\"" + function + "\", null, null, !3}\n!3 = !{i32 8, i32 15, " +
         properties + "}\n" + metadata;
}

Translation translateNode(const std::string &text) { return translateLl(text); }

bool has(const std::string &text, const std::string &what) {
  return text.find(what) != std::string::npos;
}

#define SKIP_WITHOUT_LLVM_AS()                                                                     \
  if (!haveLlvmAs())                                                                               \
  GTEST_SKIP() << "llvm-as-14 not installed (Debian package llvm-14)"

// A thread launch node: its record read from the input payload array, one record per thread
// allocated for node "Child", written and enqueued.
TEST(DxilNodeShader, ThreadLaunchReadsItsRecordAndEnqueuesOne) {
  SKIP_WITHOUT_LLVM_AS();
  const std::string body = R"(
  %ih = call %dx.types.NodeRecordHandle @dx.op.createNodeInputRecordHandle(i32 250, i32 0)
  %ia = call %dx.types.NodeRecordHandle @dx.op.annotateNodeRecordHandle(i32 251, %dx.types.NodeRecordHandle %ih, %dx.types.NodeRecordInfo { i32 33, i32 8 })
  %ip = call %struct.In addrspace(6)* @dx.op.getNodeRecordPtr.struct.In(i32 239, %dx.types.NodeRecordHandle %ia, i32 0)
  %f = getelementptr %struct.In, %struct.In addrspace(6)* %ip, i32 0, i32 1
  %v = load i32, i32 addrspace(6)* %f
  %oh = call %dx.types.NodeHandle @dx.op.createNodeOutputHandle(i32 247, i32 0)
  %oa = call %dx.types.NodeHandle @dx.op.annotateNodeHandle(i32 249, %dx.types.NodeHandle %oh, %dx.types.NodeInfo { i32 6, i32 4 })
  %r = call %dx.types.NodeRecordHandle @dx.op.allocateNodeOutputRecords(i32 238, %dx.types.NodeHandle %oa, i32 1, i1 true)
  %ra = call %dx.types.NodeRecordHandle @dx.op.annotateNodeRecordHandle(i32 251, %dx.types.NodeRecordHandle %r, %dx.types.NodeRecordInfo { i32 38, i32 4 })
  %op = call %struct.Out addrspace(6)* @dx.op.getNodeRecordPtr.struct.Out(i32 239, %dx.types.NodeRecordHandle %ra, i32 0)
  %g = getelementptr %struct.Out, %struct.Out addrspace(6)* %op, i32 0, i32 0
  %w = add i32 %v, 1
  store i32 %w, i32 addrspace(6)* %g
  call void @dx.op.outputComplete(i32 241, %dx.types.NodeRecordHandle %ra)
  ret void
)";
  const std::string text =
      nodeShader("ThreadNode", body,
                 "i32 13, i32 3, i32 15, !10, i32 14, i1 true, i32 4, !11, i32 20, !12, "
                 "i32 21, !15",
                 "!10 = !{!\"Worker\", i32 2}\n!11 = !{i32 1, i32 1, i32 1}\n!12 = !{!13}\n"
                 "!13 = !{i32 1, i32 33, i32 2, !14}\n!14 = !{i32 0, i32 8, i32 2, i32 4}\n"
                 "!15 = !{!16}\n!16 = !{i32 1, i32 6, i32 2, !17, i32 3, i32 1, i32 0, !18}\n"
                 "!17 = !{i32 0, i32 4, i32 2, i32 4}\n!18 = !{!\"Child\", i32 0}\n");
  Translation t = translateNode(text);
  ASSERT_EQ(t.error, "");
  const std::string &s = t.spvasm;
  EXPECT_TRUE(has(s, "OpCapability ShaderEnqueueAMDX")) << s;
  EXPECT_TRUE(has(s, "OpExtension \"SPV_AMDX_shader_enqueue\"")) << s;
  // The node's name is the entry point's: AMDX links payloads to entry points by name.
  EXPECT_TRUE(has(s, "OpEntryPoint GLCompute %ThreadNode \"Worker\"")) << s;
  EXPECT_TRUE(has(s, "OpExecutionMode %ThreadNode LocalSize 1 1 1")) << s;
  EXPECT_TRUE(has(s, "OpExecutionMode %ThreadNode CoalescingAMDX")) << s;
  EXPECT_TRUE(has(s, "OpExecutionModeId %ThreadNode IsApiEntryAMDX %true")) << s;
  EXPECT_TRUE(has(s, "OpExecutionModeId %ThreadNode ShaderIndexAMDX %uint_2")) << s;
  EXPECT_TRUE(has(s, "OpConstantStringAMDX \"Child\"")) << s;
  EXPECT_TRUE(has(s, "PayloadNodeNameAMDX")) << s;
  EXPECT_TRUE(has(s, "PayloadNodeArraySizeAMDX %uint_1")) << s;
  EXPECT_TRUE(has(s, "OpMemberDecorate %_struct_") && has(s, " 1 Offset 4")) << s;
  EXPECT_TRUE(has(s, "OpTypeNodePayloadArrayAMDX %_struct_") &&
              has(s, "= OpVariable %_ptr_NodePayloadAMDX_"))
      << s;
  // One record per thread: Invocation (4) visibility, node index 0.
  EXPECT_TRUE(has(s, "OpAllocateNodePayloadsAMDX %_ptr_NodePayloadAMDX_")) << s;
  EXPECT_TRUE(has(s, " %uint_4 %uint_1 %uint_0")) << s;
  EXPECT_TRUE(has(s, "OpEnqueueNodePayloadsAMDX")) << s;
}

// A coalescing node: up to 4 records, their count from the payload array's length, a record
// picked by the thread index; an empty output counted for the whole group.
TEST(DxilNodeShader, CoalescingCountsItsRecordsAndEmptyOutputs) {
  SKIP_WITHOUT_LLVM_AS();
  const std::string body = R"(
  %ih = call %dx.types.NodeRecordHandle @dx.op.createNodeInputRecordHandle(i32 250, i32 0)
  %ia = call %dx.types.NodeRecordHandle @dx.op.annotateNodeRecordHandle(i32 251, %dx.types.NodeRecordHandle %ih, %dx.types.NodeRecordInfo { i32 65, i32 8 })
  %n = call i32 @dx.op.getInputRecordCount(i32 242, %dx.types.NodeRecordHandle %ia)
  %tid = call i32 @dx.op.flattenedThreadIdInGroup.i32(i32 96)
  %ip = call %struct.In addrspace(6)* @dx.op.getNodeRecordPtr.struct.In(i32 239, %dx.types.NodeRecordHandle %ia, i32 %tid)
  %f = getelementptr %struct.In, %struct.In addrspace(6)* %ip, i32 0, i32 0
  %v = load i32, i32 addrspace(6)* %f
  %s = add i32 %v, %n
  store i32 %s, i32 addrspace(6)* %f
  %oh = call %dx.types.NodeHandle @dx.op.createNodeOutputHandle(i32 247, i32 0)
  %oa = call %dx.types.NodeHandle @dx.op.annotateNodeHandle(i32 249, %dx.types.NodeHandle %oh, %dx.types.NodeInfo { i32 10, i32 0 })
  call void @dx.op.incrementOutputCount(i32 240, %dx.types.NodeHandle %oa, i32 3, i1 false)
  ret void
)";
  const std::string text = nodeShader(
      "Coalesce", body, "i32 13, i32 2, i32 15, !10, i32 4, !11, i32 20, !12, i32 21, !15",
      "!10 = !{!\"Coalesce\", i32 0}\n!11 = !{i32 32, i32 1, i32 1}\n!12 = !{!13}\n"
      "!13 = !{i32 1, i32 65, i32 2, !14, i32 3, i32 4}\n"
      "!14 = !{i32 0, i32 8, i32 2, i32 4}\n!15 = !{!16}\n"
      "!16 = !{i32 1, i32 10, i32 3, i32 3, i32 0, !17}\n!17 = !{!\"Empty\", i32 0}\n");
  Translation t = translateNode(text);
  ASSERT_EQ(t.error, "");
  const std::string &s = t.spvasm;
  EXPECT_TRUE(has(s, "OpExecutionMode %Coalesce LocalSize 32 1 1")) << s;
  EXPECT_TRUE(has(s, "OpExecutionMode %Coalesce CoalescingAMDX")) << s;
  // Not declared an entry: IsApiEntryAMDX is left to its default.
  EXPECT_FALSE(has(s, "IsApiEntryAMDX")) << s;
  EXPECT_TRUE(has(s, "NodeMaxPayloadsAMDX %uint_4")) << s;
  EXPECT_TRUE(has(s, "OpNodePayloadArrayLengthAMDX %uint")) << s;
  // The record the thread index selects, written back (an RW input).
  EXPECT_TRUE(has(s, "OpAccessChain %_ptr_NodePayloadAMDX__struct_")) << s;
  EXPECT_TRUE(has(s, "OpStore")) << s;
  // The empty output: an empty payload struct, 3 allocated for the group (Workgroup = 2) and
  // enqueued at once.
  EXPECT_TRUE(has(s, "OpTypeStruct\n")) << s;
  EXPECT_TRUE(has(s, "OpConstantStringAMDX \"Empty\"")) << s;
  EXPECT_TRUE(has(s, " %uint_2 %uint_3 %uint_0")) << s;
  EXPECT_TRUE(has(s, "OpEnqueueNodePayloadsAMDX")) << s;
}

// A broadcasting node whose record gives its dispatch grid (uint2 at byte 4): the member a
// vector decorated PayloadDispatchIndirectAMDX, the grid's maximum as MaxNumWorkgroupsAMDX; it
// re-enqueues itself (MaxNodeRecursionAMDX) through an output array at a dynamic index.
TEST(DxilNodeShader, BroadcastingTakesItsGridFromTheRecordAndRecurses) {
  SKIP_WITHOUT_LLVM_AS();
  const std::string body = R"(
  %ih = call %dx.types.NodeRecordHandle @dx.op.createNodeInputRecordHandle(i32 250, i32 0)
  %ia = call %dx.types.NodeRecordHandle @dx.op.annotateNodeRecordHandle(i32 251, %dx.types.NodeRecordHandle %ih, %dx.types.NodeRecordInfo { i32 97, i32 16 })
  %ip = call %struct.Grid addrspace(6)* @dx.op.getNodeRecordPtr.struct.Grid(i32 239, %dx.types.NodeRecordHandle %ia, i32 0)
  %gy = getelementptr %struct.Grid, %struct.Grid addrspace(6)* %ip, i32 0, i32 1, i32 1
  %y = load i32, i32 addrspace(6)* %gy
  %levels = call i32 @dx.op.getRemainingRecursionLevels(i32 253)
  %oh = call %dx.types.NodeHandle @dx.op.createNodeOutputHandle(i32 247, i32 0)
  %ox = call %dx.types.NodeHandle @dx.op.indexNodeHandle(i32 248, %dx.types.NodeHandle %oh, i32 %levels)
  %oa = call %dx.types.NodeHandle @dx.op.annotateNodeHandle(i32 249, %dx.types.NodeHandle %ox, %dx.types.NodeInfo { i32 22, i32 16 })
  %r = call %dx.types.NodeRecordHandle @dx.op.allocateNodeOutputRecords(i32 238, %dx.types.NodeHandle %oa, i32 1, i1 false)
  %ra = call %dx.types.NodeRecordHandle @dx.op.annotateNodeRecordHandle(i32 251, %dx.types.NodeRecordHandle %r, %dx.types.NodeRecordInfo { i32 86, i32 16 })
  %op = call %struct.Grid addrspace(6)* @dx.op.getNodeRecordPtr.struct.Grid(i32 239, %dx.types.NodeRecordHandle %ra, i32 0)
  %g = getelementptr %struct.Grid, %struct.Grid addrspace(6)* %op, i32 0, i32 2
  store i32 %y, i32 addrspace(6)* %g
  call void @dx.op.outputComplete(i32 241, %dx.types.NodeRecordHandle %ra)
  ret void
)";
  const std::string text = nodeShader(
      "Tile", body,
      "i32 13, i32 1, i32 15, !10, i32 14, i1 true, i32 22, !11, i32 19, i32 4, i32 4, !12, "
      "i32 20, !13, i32 21, !17",
      "!10 = !{!\"Tile\", i32 1}\n!11 = !{i32 64, i32 64, i32 1}\n!12 = !{i32 8, i32 8, i32 1}\n"
      "!13 = !{!14}\n!14 = !{i32 1, i32 97, i32 2, !15}\n"
      "!15 = !{i32 0, i32 16, i32 1, !16, i32 2, i32 4}\n!16 = !{i32 4, i32 5, i32 2}\n"
      "!17 = !{!18}\n!18 = !{i32 1, i32 22, i32 2, !15, i32 3, i32 1, i32 5, i32 3, i32 0, !19}\n"
      "!19 = !{!\"Tile\", i32 1}\n");
  Translation t = translateNode(text);
  ASSERT_EQ(t.error, "");
  const std::string &s = t.spvasm;
  EXPECT_TRUE(has(s, "OpEntryPoint GLCompute %Tile \"Tile\"")) << s;
  EXPECT_TRUE(has(s, "OpExecutionModeId %Tile MaxNumWorkgroupsAMDX %uint_64 %uint_64 %uint_1"))
      << s;
  EXPECT_FALSE(has(s, "CoalescingAMDX")) << s;
  EXPECT_TRUE(has(s, "OpExecutionModeId %Tile MaxNodeRecursionAMDX %uint_4")) << s;
  EXPECT_TRUE(has(s, "OpExecutionModeId %Tile ShaderIndexAMDX %uint_1")) << s;
  // Only the input's grid member is decorated; both records hold it as a uint2.
  EXPECT_TRUE(has(s, " 1 PayloadDispatchIndirectAMDX")) << s;
  EXPECT_TRUE(has(s, "OpTypeStruct %uint %v2uint %uint\n")) << s;
  EXPECT_TRUE(has(s, "BuiltIn RemainingRecursionLevelsAMDX")) << s;
  // The output array: base index 1, 3 nodes, the node index the recursion level.
  EXPECT_TRUE(has(s, "PayloadNodeBaseIndexAMDX %uint_1")) << s;
  EXPECT_TRUE(has(s, "PayloadNodeArraySizeAMDX %uint_3")) << s;
  EXPECT_TRUE(has(s, "OpAllocateNodePayloadsAMDX")) << s;
  EXPECT_TRUE(has(s, "OpEnqueueNodePayloadsAMDX")) << s;
}

// A record nothing reads is declared all the same (in words), its grid where the metadata puts
// it: AMDX would otherwise read the dispatch size from an implicit uvec3 at byte 0.
TEST(DxilNodeShader, AnUnreadRecordStillGivesTheGrid) {
  SKIP_WITHOUT_LLVM_AS();
  const std::string text = nodeShader(
      "Idle", "  ret void\n", "i32 13, i32 1, i32 22, !10, i32 4, !11, i32 20, !12",
      "!10 = !{i32 16, i32 1, i32 1}\n!11 = !{i32 64, i32 1, i32 1}\n!12 = !{!13}\n"
      "!13 = !{i32 1, i32 97, i32 2, !14}\n!14 = !{i32 0, i32 16, i32 1, !15, i32 2, i32 4}\n"
      "!15 = !{i32 4, i32 5, i32 2}\n");
  Translation t = translateNode(text);
  ASSERT_EQ(t.error, "");
  const std::string &s = t.spvasm;
  EXPECT_TRUE(has(s, "OpTypeStruct %uint %v2uint %uint\n")) << s;
  EXPECT_TRUE(has(s, " 1 PayloadDispatchIndirectAMDX")) << s;
  EXPECT_TRUE(has(s, " 2 Offset 12")) << s;
  EXPECT_TRUE(has(s, "= OpVariable %_ptr_NodePayloadAMDX_")) << s;
  EXPECT_TRUE(has(s, "OpEntryPoint GLCompute %Idle \"Idle\"")) << s;
}

// A broadcasting node with a fixed grid sharing another node's input: StaticNumWorkgroupsAMDX,
// SharesInputWithAMDX, not an API entry, its record NonWritable.
TEST(DxilNodeShader, SharedInputIsReadOnlyWithAFixedGrid) {
  SKIP_WITHOUT_LLVM_AS();
  const std::string body = R"(
  %ih = call %dx.types.NodeRecordHandle @dx.op.createNodeInputRecordHandle(i32 250, i32 0)
  %ia = call %dx.types.NodeRecordHandle @dx.op.annotateNodeRecordHandle(i32 251, %dx.types.NodeRecordHandle %ih, %dx.types.NodeRecordInfo { i32 97, i32 8 })
  %ip = call %struct.In addrspace(6)* @dx.op.getNodeRecordPtr.struct.In(i32 239, %dx.types.NodeRecordHandle %ia, i32 0)
  %f = getelementptr %struct.In, %struct.In addrspace(6)* %ip, i32 0, i32 1
  %v = load i32, i32 addrspace(6)* %f
  ret void
)";
  const std::string text = nodeShader(
      "Tap", body, "i32 13, i32 1, i32 15, !10, i32 17, !11, i32 18, !12, i32 4, !12, i32 20, !13",
      "!10 = !{!\"Tap\", i32 0}\n!11 = !{!\"Main\", i32 0}\n!12 = !{i32 2, i32 1, i32 1}\n"
      "!13 = !{!14}\n!14 = !{i32 1, i32 97, i32 2, !15}\n!15 = !{i32 0, i32 8, i32 2, i32 4}\n");
  Translation t = translateNode(text);
  ASSERT_EQ(t.error, "");
  const std::string &s = t.spvasm;
  EXPECT_TRUE(has(s, "OpExecutionModeId %Tap StaticNumWorkgroupsAMDX %uint_2 %uint_1 %uint_1"))
      << s;
  EXPECT_TRUE(has(s, "OpExecutionModeId %Tap IsApiEntryAMDX %false")) << s;
  EXPECT_TRUE(has(s, "SharesInputWithAMDX")) << s;
  EXPECT_TRUE(has(s, "OpConstantStringAMDX \"Main\"")) << s;
  EXPECT_TRUE(has(s, " 0 NonWritable") && has(s, " 1 NonWritable")) << s;
  EXPECT_FALSE(has(s, "PayloadDispatchIndirectAMDX")) << s;
}

// Derivatives: a broadcasting node's thread group forms quads as a compute shader's does; a
// coalescing node's does not (D3D allows them in broadcasting launches only).
TEST(DxilNodeShader, DerivativesInBroadcastingNodesOnly) {
  SKIP_WITHOUT_LLVM_AS();
  const std::string body = R"(
  %ih = call %dx.types.NodeRecordHandle @dx.op.createNodeInputRecordHandle(i32 250, i32 0)
  %ia = call %dx.types.NodeRecordHandle @dx.op.annotateNodeRecordHandle(i32 251, %dx.types.NodeRecordHandle %ih, %dx.types.NodeRecordInfo { i32 97, i32 8 })
  %ip = call %struct.In addrspace(6)* @dx.op.getNodeRecordPtr.struct.In(i32 239, %dx.types.NodeRecordHandle %ia, i32 0)
  %f = getelementptr %struct.In, %struct.In addrspace(6)* %ip, i32 0, i32 1
  %v = load i32, i32 addrspace(6)* %f
  %x = uitofp i32 %v to float
  %d = call float @dx.op.unary.f32(i32 83, float %x)
  %y = fptoui float %d to i32
  store i32 %y, i32 addrspace(6)* %f
  ret void
)";
  const std::string metadata =
      "!10 = !{!\"Quad\", i32 0}\n!11 = !{i32 8, i32 8, i32 1}\n!12 = !{i32 4, i32 1, i32 1}\n"
      "!13 = !{!14}\n!14 = !{i32 1, i32 101, i32 2, !15, i32 3, i32 4}\n"
      "!15 = !{i32 0, i32 8, i32 2, i32 4}\n";
  const std::string derivative = "declare float @dx.op.unary.f32(i32, float)\n";
  Translation t = translateNode(
      nodeShader("Quad", body, "i32 13, i32 1, i32 15, !10, i32 18, !12, i32 4, !11, i32 20, !13",
                 metadata) +
      derivative);
  ASSERT_EQ(t.error, "");
  EXPECT_TRUE(has(t.spvasm, "OpExecutionMode %Quad DerivativeGroupQuads")) << t.spvasm;
  EXPECT_TRUE(has(t.spvasm, "OpDPdxCoarse")) << t.spvasm;
  Translation coalescing = translateNode(
      nodeShader("Quad", body, "i32 13, i32 2, i32 15, !10, i32 4, !11, i32 20, !13", metadata) +
      derivative);
  EXPECT_NE(coalescing.error.find(
                "unsupported: implicit derivatives in a coalescing or thread launch node shader"),
            std::string::npos)
      << coalescing.error;
}

// NodeOutputIsValid: D3D creates a graph only when the nodes of every output without
// [AllowSparseNodes] exist, so a single output is valid (true) and an array output's node is
// valid when its index is below the array size; a sparse output's validity is known only to the
// device, and OpIsNodePayloadValidAMDX has no form spirv-val accepts: refused, naming it.
std::string isValidProbe(const std::string &outputTags, bool indexed) {
  const std::string index =
      indexed ? "  %ox = call %dx.types.NodeHandle @dx.op.indexNodeHandle(i32 248, "
                "%dx.types.NodeHandle %oa, i32 %i)\n"
              : "";
  const std::string handle = indexed ? "%ox" : "%oa";
  const std::string body =
      "  %ih = call %dx.types.NodeRecordHandle @dx.op.createNodeInputRecordHandle(i32 250, i32 0)\n"
      "  %ia = call %dx.types.NodeRecordHandle @dx.op.annotateNodeRecordHandle(i32 251, "
      "%dx.types.NodeRecordHandle %ih, %dx.types.NodeRecordInfo { i32 33, i32 8 })\n"
      "  %ip = call %struct.In addrspace(6)* @dx.op.getNodeRecordPtr.struct.In(i32 239, "
      "%dx.types.NodeRecordHandle %ia, i32 0)\n"
      "  %f = getelementptr %struct.In, %struct.In addrspace(6)* %ip, i32 0, i32 1\n"
      "  %i = load i32, i32 addrspace(6)* %f\n"
      "  %oh = call %dx.types.NodeHandle @dx.op.createNodeOutputHandle(i32 247, i32 0)\n"
      "  %oa = call %dx.types.NodeHandle @dx.op.annotateNodeHandle(i32 249, %dx.types.NodeHandle "
      "%oh, %dx.types.NodeInfo { i32 6, i32 4 })\n" +
      index + "  %ok = call i1 @dx.op.nodeOutputIsValid(i32 252, %dx.types.NodeHandle " + handle +
      ")\n  %n = zext i1 %ok to i32\n"
      "  call void @dx.op.incrementOutputCount(i32 240, %dx.types.NodeHandle " +
      handle + ", i32 %n, i1 false)\n  ret void\n";
  return nodeShader("Probe", body,
                    "i32 13, i32 3, i32 15, !10, i32 4, !11, i32 20, !16, i32 21, !12",
                    "!10 = !{!\"Probe\", i32 0}\n!11 = !{i32 1, i32 1, i32 1}\n!12 = !{!13}\n"
                    "!13 = !{i32 1, " +
                        outputTags +
                        ", i32 0, !15}\n"
                        "!14 = !{i32 0, i32 4, i32 2, i32 4}\n!15 = !{!\"Next\", i32 0}\n"
                        "!16 = !{!17}\n!17 = !{i32 1, i32 33, i32 2, !18}\n"
                        "!18 = !{i32 0, i32 8, i32 2, i32 4}\n");
}

TEST(DxilNodeShader, NodeOutputIsValidFromTheGraphRules) {
  SKIP_WITHOUT_LLVM_AS();
  Translation single = translateNode(isValidProbe("i32 6, i32 2, !14, i32 3, i32 1", false));
  ASSERT_EQ(single.error, "");
  EXPECT_TRUE(has(single.spvasm, "OpSelect %uint %true %uint_1 %uint_0")) << single.spvasm;
  Translation array =
      translateNode(isValidProbe("i32 22, i32 2, !14, i32 3, i32 1, i32 5, i32 4", true));
  ASSERT_EQ(array.error, "");
  EXPECT_TRUE(has(array.spvasm, "OpULessThan %bool")) << array.spvasm;
  EXPECT_TRUE(has(array.spvasm, "%uint_4")) << array.spvasm;
  Translation sparse = translateNode(
      isValidProbe("i32 22, i32 2, !14, i32 3, i32 1, i32 5, i32 4, i32 6, i1 true", true));
  EXPECT_NE(sparse.error.find("unsupported: dx.op.NodeOutputIsValid of the sparse output 'Next' "
                              "in node 'Probe'"),
            std::string::npos)
      << sparse.error;
}

// A barrier on node record memory has no memory semantics to keep it: refused, not dropped.
TEST(DxilNodeShader, BarriersOnRecordMemoryAreRefused) {
  SKIP_WITHOUT_LLVM_AS();
  const std::string text =
      nodeShader("Sync",
                 "  call void @dx.op.barrierByMemoryType(i32 244, i32 15, i32 1)\n  ret void\n",
                 "i32 13, i32 2, i32 4, !10", "!10 = !{i32 4, i32 1, i32 1}\n") +
      "declare void @dx.op.barrierByMemoryType(i32, i32, i32)\n";
  Translation t = translateNode(text);
  EXPECT_NE(t.error.find("unsupported: dx.op.BarrierByMemoryType on node record memory (memory "
                         "types 15)"),
            std::string::npos)
      << t.error;
}

// SPIR-V has no atomics on NodePayloadAMDX pointers (spirv-val: "Can not be used with storage
// class NodePayloadAMDX"): an atomic on a record is refused.
TEST(DxilNodeShader, AtomicsOnRecordsAreRefused) {
  SKIP_WITHOUT_LLVM_AS();
  const std::string body = R"(
  %ih = call %dx.types.NodeRecordHandle @dx.op.createNodeInputRecordHandle(i32 250, i32 0)
  %ia = call %dx.types.NodeRecordHandle @dx.op.annotateNodeRecordHandle(i32 251, %dx.types.NodeRecordHandle %ih, %dx.types.NodeRecordInfo { i32 101, i32 8 })
  %ip = call %struct.In addrspace(6)* @dx.op.getNodeRecordPtr.struct.In(i32 239, %dx.types.NodeRecordHandle %ia, i32 0)
  %f = getelementptr %struct.In, %struct.In addrspace(6)* %ip, i32 0, i32 0
  %old = atomicrmw add i32 addrspace(6)* %f, i32 1 seq_cst
  ret void
)";
  const std::string text =
      nodeShader("Count", body, "i32 13, i32 2, i32 4, !10, i32 20, !11",
                 "!10 = !{i32 4, i32 1, i32 1}\n!11 = !{!12}\n!12 = !{i32 1, i32 101, i32 2, "
                 "!13}\n!13 = !{i32 0, i32 8, i32 2, i32 4}\n");
  Translation t = translateNode(text);
  EXPECT_NE(t.error.find("unsupported: an atomic operation on a work graph node record"),
            std::string::npos)
      << t.error;
}

// A node without a launch type is malformed metadata, named as such.
TEST(DxilNodeShader, MissingLaunchTypeIsAnError) {
  SKIP_WITHOUT_LLVM_AS();
  const std::string text =
      nodeShader("Odd", "  ret void\n", "i32 4, !10", "!10 = !{i32 1, i32 1, i32 1}\n");
  Translation t = translateNode(text);
  EXPECT_NE(t.error.find("entry 'Odd': node metadata: launch type 0"), std::string::npos)
      << t.error;
}

} // namespace
} // namespace spire::translate::test
