// The translator core on small programs: buffers, control flow with phis, the binding model and
// the errors that name the function, block and instruction.
#include "unit/translate/DxilTranslateTestSupport.h"

#include <gtest/gtest.h>

namespace spire::translate::test {
namespace {

const std::string kRawBufferDeclarations = rawBufferDeclarations();
const char *kRawBufferResources = "!{null, !{!10}, null, null}";
const char *kRawBufferMetadata =
    "!10 = !{i32 0, %struct.RWByteAddressBuffer* @buf, !\"buf\", i32 2, i32 3, i32 1, i32 11, "
    "i1 false, i1 false, i1 false, null}\n";

TEST(DxilTranslate, LoopWithPhisOverARawBuffer) {
  if (!haveLlvmAs())
    GTEST_SKIP() << "llvm-as-14 not installed (Debian package llvm-14)";
  const std::string body = R"(entry:
  %h = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 3, i1 false)
  %tid = call i32 @dx.op.threadId.i32(i32 93, i32 0)
  %addr = shl i32 %tid, 2
  %r = call %dx.types.ResRet.i32 @dx.op.rawBufferLoad.i32(i32 139, %dx.types.Handle %h, i32 %addr, i32 undef, i8 1, i32 4)
  %v = extractvalue %dx.types.ResRet.i32 %r, 0
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i2, %loop ]
  %acc = phi i32 [ %v, %entry ], [ %acc2, %loop ]
  %acc2 = mul i32 %acc, 3
  %i2 = add i32 %i, 1
  %c = icmp ult i32 %i2, 4
  br i1 %c, label %loop, label %done
done:
  call void @dx.op.rawBufferStore.i32(i32 140, %dx.types.Handle %h, i32 %addr, i32 undef, i32 %acc2, i32 undef, i32 undef, i32 undef, i8 1, i32 4)
  ret void
)";
  Translation t = translateLl(
      computeShader(kRawBufferDeclarations, body, kRawBufferResources, kRawBufferMetadata));
  ASSERT_EQ(t.error, "");
  // u3 in space 2: set 2, binding 3 + the UAV offset; a storage buffer of words.
  EXPECT_NE(t.spvasm.find("OpDecorate %buf DescriptorSet 2"), std::string::npos) << t.spvasm;
  EXPECT_NE(t.spvasm.find("OpDecorate %buf Binding 1003"), std::string::npos) << t.spvasm;
  EXPECT_NE(t.spvasm.find("OpLoopMerge"), std::string::npos) << t.spvasm;
  EXPECT_NE(t.spvasm.find("BuiltIn GlobalInvocationId"), std::string::npos) << t.spvasm;
  EXPECT_NE(t.spvasm.find("OpExecutionMode %main LocalSize 8 1 1"), std::string::npos) << t.spvasm;
}

TEST(DxilTranslate, UnsupportedOperationNamesFunctionBlockAndInstruction) {
  if (!haveLlvmAs())
    GTEST_SKIP() << "llvm-as-14 not installed (Debian package llvm-14)";
  // An LLVM instruction DXIL does not allow: a pointer to integer cast.
  const std::string body = R"(entry:
  %a = alloca i32
  %p = ptrtoint i32* %a to i32
  ret void
)";
  Translation t = translateLl(computeShader("", body));
  EXPECT_EQ(t.error, "entry 'main', function 'main', block 0, instruction 1 (ptrtoint): "
                     "pointer/integer casts have no SPIR-V equivalent in logical addressing");
}

TEST(DxilTranslate, PointerCastsOnlyForLifetimeMarkers) {
  if (!haveLlvmAs())
    GTEST_SKIP() << "llvm-as-14 not installed (Debian package llvm-14)";
  const std::string declarations = R"(
declare void @llvm.lifetime.start.p0i8(i64, i8*)
declare void @llvm.lifetime.end.p0i8(i64, i8*)
)";
  // The cast feeds the lifetime markers only: both are left out.
  Translation t = translateLl(computeShader(declarations, R"(entry:
  %a = alloca [4 x float]
  %p = bitcast [4 x float]* %a to i8*
  call void @llvm.lifetime.start.p0i8(i64 16, i8* %p)
  %e = getelementptr [4 x float], [4 x float]* %a, i32 0, i32 1
  store float 1.0, float* %e
  call void @llvm.lifetime.end.p0i8(i64 16, i8* %p)
  ret void
)"));
  ASSERT_EQ(t.error, "");
  EXPECT_EQ(t.spvasm.find("OpBitcast"), std::string::npos) << t.spvasm;
  // A cast something else reads through has no logical-addressing form.
  t = translateLl(computeShader(declarations, R"(entry:
  %a = alloca [4 x float]
  %p = bitcast [4 x float]* %a to i32*
  store i32 1, i32* %p
  ret void
)"));
  EXPECT_EQ(t.error, "entry 'main', function 'main', block 0, instruction 1 (bitcast): a pointer "
                     "cast between different pointee types");
}

} // namespace
} // namespace spire::translate::test
