// Buffers, descriptor heaps and the dx.ops of TranslateMoreOps.cpp on small programs: SM 6.6
// heaps, the 16- and 64-bit views of raw buffers, raw buffers as texel buffers, counters of UAV
// arrays, narrow and wide constant buffer loads, packed and wave ops, and float controls.
#include "unit/translate/DxilTranslateTestSupport.h"

#include <gtest/gtest.h>

namespace spire::translate::test {
namespace {

/// `text` with every `from` replaced by `to` (at least one must be there).
std::string replaced(std::string text, const std::string &from, const std::string &to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  for (; at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

/// A compute shader of shader model 6.6 (DXIL 1.6), optionally with native 16-bit types.
std::string computeShader66(const std::string &declarations, const std::string &body,
                            const std::string &resources = "", const std::string &metadata = "",
                            bool native16Bit = false, int minor = 6) {
  std::string text = computeShader(declarations, body, resources, metadata);
  const std::string m = std::to_string(minor);
  text = replaced(text, "!{i32 1, i32 2}", "!{i32 1, i32 " + m + "}");
  text = replaced(text, "!{!\"cs\", i32 6, i32 2}", "!{!\"cs\", i32 6, i32 " + m + "}");
  if (native16Bit)
    text = replaced(text, dxilPrelude(false), dxilPrelude(true));
  return text;
}

bool has(const Translation &t, const std::string &text) {
  return t.spvasm.find(text) != std::string::npos;
}

#define REQUIRE_LLVM_AS()                                                                          \
  if (!haveLlvmAs())                                                                               \
  GTEST_SKIP() << "llvm-as-14 not installed (Debian package llvm-14)"

const char *kHeapDeclarations = R"(
%dx.types.ResourceProperties = type { i32, i32 }
%dx.types.ResRet.i32 = type { i32, i32, i32, i32, i32 }
%dx.types.CBufRet.i32 = type { i32, i32, i32, i32 }
declare %dx.types.Handle @dx.op.createHandleFromHeap(i32, i32, i1, i1)
declare %dx.types.Handle @dx.op.annotateHandle(i32, %dx.types.Handle, %dx.types.ResourceProperties)
declare i32 @dx.op.threadId.i32(i32, i32)
declare %dx.types.CBufRet.i32 @dx.op.cbufferLoadLegacy.i32(i32, %dx.types.Handle, i32)
declare void @dx.op.rawBufferStore.i32(i32, %dx.types.Handle, i32, i32, i32, i32, i32, i32, i8, i32)
declare i32 @dx.op.bufferUpdateCounter(i32, %dx.types.Handle, i8)
)";

TEST(DxilTranslateBuffers, DescriptorHeapsAreRuntimeArraysPerDescriptorType) {
  REQUIRE_LLVM_AS();
  // ResourceDescriptorHeap[0] as a constant buffer (kind 13, 16 bytes); ResourceDescriptorHeap[i]
  // (non-uniform) as a RWStructuredBuffer with a counter (kind 12, UAV, counter; stride 4).
  const std::string body = R"(entry:
  %tid = call i32 @dx.op.threadId.i32(i32 93, i32 0)
  %c0 = call %dx.types.Handle @dx.op.createHandleFromHeap(i32 218, i32 0, i1 false, i1 false)
  %c = call %dx.types.Handle @dx.op.annotateHandle(i32 216, %dx.types.Handle %c0, %dx.types.ResourceProperties { i32 13, i32 16 })
  %row = call %dx.types.CBufRet.i32 @dx.op.cbufferLoadLegacy.i32(i32 59, %dx.types.Handle %c, i32 0)
  %i = extractvalue %dx.types.CBufRet.i32 %row, 0
  %idx = add i32 %i, %tid
  %u0 = call %dx.types.Handle @dx.op.createHandleFromHeap(i32 218, i32 %idx, i1 false, i1 true)
  %u = call %dx.types.Handle @dx.op.annotateHandle(i32 216, %dx.types.Handle %u0, %dx.types.ResourceProperties { i32 36876, i32 4 })
  %n = call i32 @dx.op.bufferUpdateCounter(i32 70, %dx.types.Handle %u, i8 1)
  call void @dx.op.rawBufferStore.i32(i32 140, %dx.types.Handle %u, i32 %n, i32 0, i32 %tid, i32 undef, i32 undef, i32 undef, i8 1, i32 4)
  ret void
)";
  const std::string program = computeShader66(kHeapDeclarations, body);
  Translation t = translateLl(program);
  ASSERT_EQ(t.error, "");
  // Set 6; storage buffers at binding 1, uniform buffers at 2, heap UAV counters at 8.
  EXPECT_TRUE(has(t, "OpCapability RuntimeDescriptorArray")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpCapability StorageBufferArrayNonUniformIndexing")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpDecorate %ResourceDescriptorHeap DescriptorSet 6")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpDecorate %ResourceDescriptorHeap_0 Binding 1")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpDecorate %ResourceDescriptorHeap Binding 2")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpDecorate %ResourceDescriptorHeap_counters Binding 8")) << t.spvasm;
  EXPECT_TRUE(has(t, "NonUniform")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpAtomicIAdd")) << t.spvasm;

  // The binding model reports the heap arrays.
  std::string error;
  std::vector<uint8_t> bitcode = assemble(program, error);
  ASSERT_FALSE(bitcode.empty()) << error;
  Expected<std::vector<TranslatedShader>> shaders = translateDxilBytes(bitcode, {});
  ASSERT_TRUE(shaders.ok());
  const std::string json = bindingsJson(shaders->front());
  EXPECT_NE(json.find("\"heap\": true"), std::string::npos) << json;
  EXPECT_NE(json.find("\"type\": \"uniform-buffer\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"counter\": true"), std::string::npos) << json;
}

TEST(DxilTranslateBuffers, HeapHandleAnnotatedAsTheWrongHeapIsAnError) {
  REQUIRE_LLVM_AS();
  const std::string body = R"(entry:
  %s0 = call %dx.types.Handle @dx.op.createHandleFromHeap(i32 218, i32 0, i1 true, i1 false)
  %s = call %dx.types.Handle @dx.op.annotateHandle(i32 216, %dx.types.Handle %s0, %dx.types.ResourceProperties { i32 11, i32 0 })
  ret void
)";
  Translation t = translateLl(computeShader66(kHeapDeclarations, body));
  EXPECT_NE(t.error.find("a sampler heap handle annotated as a resource"), std::string::npos)
      << t.error;
}

const char *kRawDeclarations = R"(
%dx.types.ResRet.i32 = type { i32, i32, i32, i32, i32 }
%dx.types.ResRet.f16 = type { half, half, half, half, i32 }
%dx.types.Dimensions = type { i32, i32, i32, i32 }
%struct.RWByteAddressBuffer = type { i32 }
@buf = external constant %struct.RWByteAddressBuffer
declare %dx.types.Handle @dx.op.createHandle(i32, i8, i32, i32, i1)
declare i32 @dx.op.threadId.i32(i32, i32)
declare %dx.types.ResRet.i32 @dx.op.rawBufferLoad.i32(i32, %dx.types.Handle, i32, i32, i8, i32)
declare %dx.types.ResRet.f16 @dx.op.rawBufferLoad.f16(i32, %dx.types.Handle, i32, i32, i8, i32)
declare void @dx.op.rawBufferStore.i32(i32, %dx.types.Handle, i32, i32, i32, i32, i32, i32, i8, i32)
declare void @dx.op.rawBufferStore.f16(i32, %dx.types.Handle, i32, i32, half, half, half, half, i8, i32)
declare i32 @dx.op.atomicBinOp.i32(i32, %dx.types.Handle, i32, i32, i32, i32, i32)
declare i64 @dx.op.atomicBinOp.i64(i32, %dx.types.Handle, i32, i32, i32, i32, i64)
declare %dx.types.Dimensions @dx.op.getDimensions(i32, %dx.types.Handle, i32)
)";
const char *kRawResources = "!{null, !{!10}, null, null}";
const char *kRawMetadata =
    "!10 = !{i32 0, %struct.RWByteAddressBuffer* @buf, !\"buf\", i32 0, i32 3, i32 1, i32 11, "
    "i1 false, i1 false, i1 false, null}\n";

TEST(DxilTranslateBuffers, HalfStoresGoThroughAnAliasedUint16View) {
  REQUIRE_LLVM_AS();
  const std::string body = R"(entry:
  %h = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 3, i1 false)
  %tid = call i32 @dx.op.threadId.i32(i32 93, i32 0)
  %a = shl i32 %tid, 1
  %r = call %dx.types.ResRet.f16 @dx.op.rawBufferLoad.f16(i32 139, %dx.types.Handle %h, i32 %a, i32 undef, i8 1, i32 2)
  %v = extractvalue %dx.types.ResRet.f16 %r, 0
  %w = fadd fast half %v, 0xH3C00
  call void @dx.op.rawBufferStore.f16(i32 140, %dx.types.Handle %h, i32 %a, i32 undef, half %w, half undef, half undef, half undef, i8 1, i32 2)
  ret void
)";
  Translation t =
      translateLl(computeShader66(kRawDeclarations, body, kRawResources, kRawMetadata, true));
  ASSERT_EQ(t.error, "");
  EXPECT_TRUE(has(t, "OpCapability StorageBuffer16BitAccess")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpDecorate %buf_u16 Binding 1003")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpDecorate %buf Binding 1003")) << t.spvasm;
  EXPECT_TRUE(has(t, "ArrayStride 2")) << t.spvasm;
  // The load stays exact on words: a shift picks the half.
  EXPECT_TRUE(has(t, "OpShiftRightLogical")) << t.spvasm;
  EXPECT_TRUE(has(t, "%_ptr_StorageBuffer_ushort")) << t.spvasm;
}

TEST(DxilTranslateBuffers, SixtyFourBitAtomicsGoThroughAnAliasedUint64View) {
  REQUIRE_LLVM_AS();
  const std::string body = R"(entry:
  %h = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 3, i1 false)
  %tid = call i32 @dx.op.threadId.i32(i32 93, i32 0)
  %a = shl i32 %tid, 3
  %old = call i64 @dx.op.atomicBinOp.i64(i32 78, %dx.types.Handle %h, i32 7, i32 %a, i32 undef, i32 undef, i64 5)
  ret void
)";
  // Where raw buffers are R32ui texel buffers, one that 64-bit atomics use stays a storage
  // buffer (a texel pointer is 32 bits wide).
  for (bool texelBuffers : {false, true}) {
    DxilTranslateOptions options;
    options.bindings.rawBuffersAsTexelBuffers = texelBuffers;
    Translation t =
        translateLl(computeShader66(kRawDeclarations, body, kRawResources, kRawMetadata), options);
    ASSERT_EQ(t.error, "") << texelBuffers;
    EXPECT_TRUE(has(t, "OpCapability Int64Atomics")) << t.spvasm;
    EXPECT_TRUE(has(t, "OpDecorate %buf_u64 Binding 1003")) << t.spvasm;
    EXPECT_TRUE(has(t, "ArrayStride 8")) << t.spvasm;
    EXPECT_TRUE(has(t, "OpAtomicUMax %ulong")) << t.spvasm;
    EXPECT_FALSE(has(t, "R32ui")) << t.spvasm;
  }
}

TEST(DxilTranslateBuffers, RawBuffersAsTexelBuffers) {
  REQUIRE_LLVM_AS();
  const std::string body = R"(entry:
  %h = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 3, i1 false)
  %tid = call i32 @dx.op.threadId.i32(i32 93, i32 0)
  %a = shl i32 %tid, 2
  %r = call %dx.types.ResRet.i32 @dx.op.rawBufferLoad.i32(i32 139, %dx.types.Handle %h, i32 %a, i32 undef, i8 1, i32 4)
  %v = extractvalue %dx.types.ResRet.i32 %r, 0
  %old = call i32 @dx.op.atomicBinOp.i32(i32 78, %dx.types.Handle %h, i32 0, i32 %a, i32 undef, i32 undef, i32 %v)
  %d = call %dx.types.Dimensions @dx.op.getDimensions(i32 72, %dx.types.Handle %h, i32 undef)
  %size = extractvalue %dx.types.Dimensions %d, 0
  call void @dx.op.rawBufferStore.i32(i32 140, %dx.types.Handle %h, i32 %a, i32 undef, i32 %size, i32 undef, i32 undef, i32 undef, i8 1, i32 4)
  ret void
)";
  DxilTranslateOptions options;
  options.bindings.rawBuffersAsTexelBuffers = true;
  Translation t =
      translateLl(computeShader66(kRawDeclarations, body, kRawResources, kRawMetadata), options);
  ASSERT_EQ(t.error, "");
  EXPECT_TRUE(has(t, "R32ui")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpImageRead %v4uint")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpImageTexelPointer %_ptr_Image_uint")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpImageQuerySize %uint")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpImageWrite")) << t.spvasm;
  EXPECT_FALSE(has(t, "StorageBuffer")) << t.spvasm;
}

TEST(DxilTranslateBuffers, CountersOfUavArraysAreAnArray) {
  REQUIRE_LLVM_AS();
  const std::string declarations = R"(
%struct.RWStructuredBuffer = type { i32 }
@bufs = external constant [4 x %struct.RWStructuredBuffer]
declare %dx.types.Handle @dx.op.createHandle(i32, i8, i32, i32, i1)
declare i32 @dx.op.threadId.i32(i32, i32)
declare i32 @dx.op.bufferUpdateCounter(i32, %dx.types.Handle, i8)
declare void @dx.op.rawBufferStore.i32(i32, %dx.types.Handle, i32, i32, i32, i32, i32, i32, i8, i32)
)";
  const std::string body = R"(entry:
  %tid = call i32 @dx.op.threadId.i32(i32 93, i32 0)
  %i = and i32 %tid, 3
  %h = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 %i, i1 false)
  %n = call i32 @dx.op.bufferUpdateCounter(i32 70, %dx.types.Handle %h, i8 -1)
  call void @dx.op.rawBufferStore.i32(i32 140, %dx.types.Handle %h, i32 %n, i32 0, i32 %tid, i32 undef, i32 undef, i32 undef, i8 1, i32 4)
  ret void
)";
  const char *metadata =
      "!10 = !{i32 0, [4 x %struct.RWStructuredBuffer]* @bufs, !\"bufs\", i32 0, i32 0, i32 4, "
      "i32 12, i1 false, i1 true, i1 false, !11}\n!11 = !{i32 1, i32 4}\n";
  Translation t = translateLl(computeShader(declarations, body, kRawResources, metadata));
  ASSERT_EQ(t.error, "");
  EXPECT_TRUE(has(t, "OpDecorate %bufs_counter DescriptorSet 7")) << t.spvasm;
  EXPECT_TRUE(has(t, "%_ptr_StorageBuffer__arr_")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpAtomicISub")) << t.spvasm;
}

TEST(DxilTranslateBuffers, NarrowAndWideConstantBufferLoads) {
  REQUIRE_LLVM_AS();
  const std::string declarations = R"(
%Params = type { i32 }
@cb = external constant %Params
declare %dx.types.Handle @dx.op.createHandle(i32, i8, i32, i32, i1)
declare i16 @dx.op.cbufferLoad.i16(i32, %dx.types.Handle, i32, i32)
declare i64 @dx.op.cbufferLoad.i64(i32, %dx.types.Handle, i32, i32)
)";
  const std::string body = R"(entry:
  %h = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 2, i32 0, i32 0, i1 false)
  %a = call i16 @dx.op.cbufferLoad.i16(i32 58, %dx.types.Handle %h, i32 6, i32 2)
  %b = call i64 @dx.op.cbufferLoad.i64(i32 58, %dx.types.Handle %h, i32 8, i32 8)
  ret void
)";
  const char *metadata =
      "!10 = !{i32 0, %Params* @cb, !\"cb\", i32 0, i32 0, i32 1, i32 16, null}\n";
  Translation t = translateLl(
      computeShader66(declarations, body, "!{null, null, !{!10}, null}", metadata, true));
  ASSERT_EQ(t.error, "");
  EXPECT_TRUE(has(t, "OpUConvert %ushort")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpBitcast %ulong")) << t.spvasm;
}

TEST(DxilTranslateBuffers, PackedAndWaveOps) {
  REQUIRE_LLVM_AS();
  const std::string declarations = R"(
%dx.types.fouri32 = type { i32, i32, i32, i32 }
%dx.types.fouri16 = type { i16, i16, i16, i16 }
declare i32 @dx.op.threadId.i32(i32, i32)
declare i32 @dx.op.tertiary.i32(i32, i32, i32, i32)
declare i32 @dx.op.pack4x8.i16(i32, i8, i16, i16, i16, i16)
declare %dx.types.fouri16 @dx.op.unpack4x8.i16(i32, i8, i32)
declare i32 @dx.op.dot4AddPacked.i32(i32, i32, i32, i32)
declare float @dx.op.dot2AddHalf.f32(i32, float, half, half, half, half)
declare %dx.types.fouri32 @dx.op.waveMatch.i64(i32, i64)
declare i32 @dx.op.waveMultiPrefixBitCount(i32, i1, i32, i32, i32, i32)
declare i32 @dx.op.waveMultiPrefixOp.i32(i32, i32, i32, i32, i32, i32, i8, i8)
declare i32 @dx.op.unaryBits.i64(i32, i64)
declare i32 @dx.op.unaryBits.i16(i32, i16)
declare void @dx.op.barrierByMemoryType(i32, i32, i32)
)";
  const std::string body = R"(entry:
  %t = call i32 @dx.op.threadId.i32(i32 93, i32 0)
  %m = call i32 @dx.op.tertiary.i32(i32 50, i32 %t, i32 7, i32 100)
  %t16 = trunc i32 %t to i16
  %p = call i32 @dx.op.pack4x8.i16(i32 220, i8 2, i16 %t16, i16 1, i16 -300, i16 300)
  %u = call %dx.types.fouri16 @dx.op.unpack4x8.i16(i32 219, i8 1, i32 %p)
  %d = call i32 @dx.op.dot4AddPacked.i32(i32 163, i32 %m, i32 %p, i32 %t)
  %e = call i32 @dx.op.dot4AddPacked.i32(i32 164, i32 %d, i32 %p, i32 %t)
  %f = call float @dx.op.dot2AddHalf.f32(i32 162, float 1.0, half 0xH3C00, half 0xH4000, half 0xH3C00, half 0xH3C00)
  %w = zext i32 %e to i64
  %match = call %dx.types.fouri32 @dx.op.waveMatch.i64(i32 165, i64 %w)
  %m0 = extractvalue %dx.types.fouri32 %match, 0
  %odd = trunc i32 %t to i1
  %c = call i32 @dx.op.waveMultiPrefixBitCount(i32 167, i1 %odd, i32 %m0, i32 0, i32 0, i32 0)
  %s = call i32 @dx.op.waveMultiPrefixOp.i32(i32 166, i32 %c, i32 %m0, i32 0, i32 0, i32 0, i8 0, i8 1)
  %hi = call i32 @dx.op.unaryBits.i64(i32 34, i64 %w)
  %lo = call i32 @dx.op.unaryBits.i16(i32 32, i16 %t16)
  call void @dx.op.barrierByMemoryType(i32 244, i32 3, i32 5)
  ret void
)";
  Translation t = translateLl(computeShader66(declarations, body, "", "", true, 8));
  ASSERT_EQ(t.error, "");
  EXPECT_TRUE(has(t, "OpIAddCarry")) << t.spvasm;        // Msad's saturation
  EXPECT_TRUE(has(t, "SClamp")) << t.spvasm;             // Pack4x8's signed clamp
  EXPECT_TRUE(has(t, "OpBitFieldSExtract")) << t.spvasm; // Unpack4x8's sign extension
  EXPECT_TRUE(has(t, "OpSDot %uint")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpUDot %uint")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpDot %float")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpGroupNonUniformBallot")) << t.spvasm;
  EXPECT_TRUE(has(t, "BuiltIn SubgroupLtMask")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpGroupNonUniformIAdd %uint %uint_3 PartitionedExclusiveScan")) << t.spvasm;
  EXPECT_TRUE(has(t, "FindUMsb")) << t.spvasm;
  EXPECT_TRUE(has(t, "FindILsb")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpControlBarrier %uint_2 %uint_1")) << t.spvasm; // device scope
}

TEST(DxilTranslateBuffers, DenormModeBecomesFloatControls) {
  REQUIRE_LLVM_AS();
  std::string text = computeShader("", "entry:\n  ret void\n");
  text = replaced(text, "define void @main() {", "define void @main() #0 {");
  text += "attributes #0 = { \"fp32-denorm-mode\"=\"preserve\" }\n";
  Translation t = translateLl(text);
  ASSERT_EQ(t.error, "");
  EXPECT_TRUE(has(t, "OpCapability DenormPreserve")) << t.spvasm;
  EXPECT_TRUE(has(t, "OpExecutionMode %main DenormPreserve 32")) << t.spvasm;
}

} // namespace
} // namespace spire::translate::test
