// Input the translator refuses with one clear line instead of translating it wrongly or
// crashing: AMD's AGS shader intrinsics (atomics on a UAV in register space 0x7FFF0ADE that the
// driver reads as other instructions), library entries of kinds not translated yet.
#include "unit/translate/DxilTranslateTestSupport.h"

#include <gtest/gtest.h>

namespace spire::translate::test {
namespace {

TEST(DxilTranslate, AmdShaderIntrinsicsAreUnsupported) {
  if (!haveLlvmAs())
    GTEST_SKIP() << "llvm-as-14 not installed (Debian package llvm-14)";
  const std::string declarations = R"(
%struct.RWByteAddressBuffer = type { i32 }
@ags = external constant %struct.RWByteAddressBuffer
declare %dx.types.Handle @dx.op.createHandle(i32, i8, i32, i32, i1)
declare i32 @dx.op.atomicCompareExchange.i32(i32, %dx.types.Handle, i32, i32, i32, i32, i32)
)";
  const std::string body = R"(entry:
  %h = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)
  %x = call i32 @dx.op.atomicCompareExchange.i32(i32 79, %dx.types.Handle %h, i32 0, i32 undef, i32 undef, i32 0, i32 12345)
  ret void
)";
  Translation t = translateLl(computeShader(
      declarations, body, "!{null, !{!10}, null, null}",
      "!10 = !{i32 0, %struct.RWByteAddressBuffer* @ags, !\"ags\", i32 2147420894, i32 0, "
      "i32 1, i32 11, i1 false, i1 false, i1 false, null}\n"));
  EXPECT_EQ(t.error,
            "entry 'main': unsupported: AMD shader intrinsics (AGS; the UAV in register space "
            "2147420894)");
}

TEST(DxilTranslate, UntranslatedLibraryEntryKindIsNamed) {
  if (!haveLlvmAs())
    GTEST_SKIP() << "llvm-as-14 not installed (Debian package llvm-14)";
  // A ray generation shader in a library (shader kind tag 8 = 7): it has no shader model
  // prefix of its own, and the message names its kind.
  const std::string text = dxilPrelude() + R"(
define void @ray() {
entry:
  ret void
}

!dx.version = !{!0}
!0 = !{i32 1, i32 3}
!dx.shaderModel = !{!1}
!1 = !{!"lib", i32 6, i32 3}
!dx.entryPoints = !{!2, !3}
!2 = !{null, !"", null, null, null}
!3 = !{void ()* @ray, !"ray", null, null, !4}
!4 = !{i32 8, i32 7}
)";
  Translation t = translateLl(text);
  EXPECT_EQ(t.error, "entry 'ray': unsupported: raygeneration entry points are not translated yet");
}

} // namespace
} // namespace spire::translate::test
