// AMD's AGS shader intrinsics (atomics on a UAV in register space 0x7FFF0ADE that the driver
// reads as other instructions) are refused, not translated as the atomics they look like.
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

} // namespace
} // namespace spire::translate::test
