// Small modules written as LLVM assembly, assembled with llvm-as-14 at test time (LLVM 14's
// bitcode: string table, bulk metadata strings, explicit types), read by spire and printed: the
// text must be byte-identical to llvm-dis-14's for the same bitcode. Skipped without llvm-14.
#include "spire/dxil/LlvmPrinter.h"
#include "spire/dxil/BitcodeReader.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace spire::dxil {
namespace {

namespace fs = std::filesystem;

bool haveLlvm14() {
  return std::system("llvm-as-14 --version > /dev/null 2>&1") == 0 &&
         std::system("llvm-dis-14 --version > /dev/null 2>&1") == 0;
}

std::string readAll(const fs::path &p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

/// Assembles `text`, then returns llvm-dis-14's and spire's text for the bitcode.
void roundTrip(const std::string &text, std::string &reference, std::string &ours) {
  fs::path dir =
      fs::temp_directory_path() / ("spire-llvm-" + std::to_string(::getpid()) + "-" +
                                   std::to_string(std::hash<std::string>()(text) & 0xFFFFFF));
  fs::create_directories(dir);
  {
    std::ofstream f(dir / "m.ll", std::ios::binary);
    f << text;
  }
  std::string cd = "cd '" + dir.string() + "' && ";
  ASSERT_EQ(std::system((cd + "llvm-as-14 m.ll -o m.bc").c_str()), 0);
  ASSERT_EQ(std::system((cd + "llvm-dis-14 m.bc -o ref.ll").c_str()), 0);
  reference = readAll(dir / "ref.ll");
  std::string bc = readAll(dir / "m.bc");
  fs::remove_all(dir);
  Expected<LlvmModule> m = readBitcode(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t *>(bc.data()), bc.size()));
  ASSERT_TRUE(m) << m.error().format();
  LlvmPrintOptions options;
  options.moduleId = "m.bc";
  ours = printLlvmModuleToString(*m, options);
}

void expectSameAsLlvmDis(const std::string &text) {
  if (!haveLlvm14())
    GTEST_SKIP() << "llvm-as-14 / llvm-dis-14 not installed (Debian package llvm-14)";
  std::string reference, ours;
  roundTrip(text, reference, ours);
  EXPECT_EQ(ours, reference);
}

TEST(DxilLlvmPrinter, EveryInstructionAndFlag) {
  expectSameAsLlvmDis(
      R"LL(target datalayout = "e-m:e-p:32:32-i1:32-i8:32-i16:32-i32:32-i64:64-f16:32-f32:32-f64:64-n8:16:32:64"
target triple = "dxil-ms-dx"

%struct.S = type { i32, float, [4 x half] }
%opaque = type opaque
%pair = type <{ i8, i64 }>

@g = internal global i32 7, align 4
@arr = internal constant [4 x float] [float 1.000000e+00, float 0x3FB99999A0000000, float -0.000000e+00, float 2.500000e+00], align 4
@zero = internal global [3 x i32] zeroinitializer
@s = external addrspace(3) global %struct.S, align 8
@str = private unnamed_addr constant [6 x i8] c"hello\00"
@p = global %pair <{ i8 1, i64 -5 }>
@ce = global i32* getelementptr inbounds ([3 x i32], [3 x i32]* @zero, i32 0, i32 1)
@v = global <4 x i32> <i32 1, i32 2, i32 3, i32 4>
@h = global half 0xH3C00
@d = global double 1.000000e-300
@big = global i128 -170141183460469231731687303715884105728
@u = global { i32, float } undef
@bc = global i32 ptrtoint (i32* @g to i32)

declare float @ext(float, i32) #0

define i32 @f(i32 %a, float %b, i32* %p, i1 %c) #1 {
entry:
  %x = add nuw nsw i32 %a, 1
  %y = sub i32 %x, %a
  %z = mul nsw i32 %y, 3
  %q = udiv exact i32 %z, 2
  %r = sdiv i32 %q, 3
  %s1 = urem i32 %r, 5
  %s2 = srem i32 %s1, 7
  %s3 = shl i32 %s2, 1
  %s4 = lshr exact i32 %s3, 1
  %s5 = ashr i32 %s4, 2
  %s6 = and i32 %s5, 255
  %s7 = or i32 %s6, 256
  %s8 = xor i32 %s7, -1
  %fa = fadd fast float %b, 1.0
  %fb = fsub nnan ninf float %fa, 2.0
  %fc = fmul arcp float %fb, %fb
  %fd = fdiv float %fc, 3.0
  %fe = frem float %fd, 4.0
  %t = trunc i32 %s8 to i16
  %ze = zext i16 %t to i64
  %se = sext i16 %t to i32
  %fi = fptoui float %fe to i32
  %fs = fptosi float %fe to i32
  %uf = uitofp i32 %fi to float
  %sf = sitofp i32 %fs to double
  %ft = fptrunc double %sf to half
  %fx = fpext half %ft to float
  %bc = bitcast float %fx to i32
  %cmp = icmp slt i32 %bc, %a
  %fcmp = fcmp fast oeq float %fx, %b
  %sel = select i1 %cmp, i32 %a, i32 %bc
  %al = alloca [4 x i32], align 4
  %gep = getelementptr inbounds [4 x i32], [4 x i32]* %al, i32 0, i32 %a
  store i32 %sel, i32* %gep, align 4
  %ld = load i32, i32* %gep, align 4
  %vl = load volatile i32, i32* %p
  %rmw = atomicrmw add i32* %p, i32 1 seq_cst
  %cx = cmpxchg i32* %p, i32 %ld, i32 %vl acq_rel monotonic
  %ev = extractvalue { i32, i1 } %cx, 0
  %iv = insertvalue { i32, i1 } %cx, i32 5, 0
  %call = call float @ext(float %b, i32 %ev) #0
  %as = addrspacecast i32* %p to i32 addrspace(1)*
  br i1 %c, label %then, label %else

then:
  %ee = extractelement <4 x i32> <i32 1, i32 2, i32 3, i32 4>, i32 %a
  %ie = insertelement <4 x i32> undef, i32 %ee, i32 0
  %sv = shufflevector <4 x i32> %ie, <4 x i32> undef, <4 x i32> <i32 0, i32 0, i32 1, i32 undef>
  br label %merge

else:
  switch i32 %a, label %merge [
    i32 0, label %then
    i32 1, label %merge
  ]

merge:
  %phi = phi i32 [ %ee, %then ], [ 0, %else ], [ 0, %else ]
  fence seq_cst
  ret i32 %phi

dead:
  unreachable
}

define void @g2(%struct.S* noalias nocapture %s, i32 %0) {
  %2 = add i32 %0, 1
  ret void
}

attributes #0 = { nounwind readnone "fp32-denorm-mode"="any" }
attributes #1 = { noinline nounwind }

!llvm.ident = !{!0}
!named = !{!1, !2}
!0 = !{!"clang"}
!1 = !{i32 1, float 2.0, null, !0, !3}
!2 = distinct !{!2}
!3 = !{[4 x float]* @arr}
)LL");
}

TEST(DxilLlvmPrinter, ConstantsMetadataAndNames) {
  expectSameAsLlvmDis(R"LL(target triple = "dxil-ms-dx"

%T0 = type { i32 }
%"struct.with space" = type { %T0*, %"struct.with space"* }

@0 = global i32 1
@1 = internal global %T0 { i32 3 }, !dbg !4
@"g.x$1" = global float 0x7FF0000000000000
@nan = global float 0x7FF8000000000000
@ninf = global double 0xFFF0000000000000
@dv = global <2 x double> <double 1.5, double 0x3FB999999999999A>
@fv = global [2 x float] [float 1.5, float 1.0e+10]
@sp = global %"struct.with space" zeroinitializer
@hv = global [2 x half] [half 0xH3C00, half 0xH0000]
@i16a = global [3 x i16] [i16 -1, i16 0, i16 300]
@al = alias i32, i32* @0
@tl = thread_local global i32 0, section "sec", align 16
@i1s = global [2 x i1] [i1 true, i1 false]
@nested = global [2 x { i32, [2 x i8] }] [{ i32, [2 x i8] } { i32 1, [2 x i8] c"ab" }, { i32, [2 x i8] } zeroinitializer]
@cexp = global i32 add (i32 ptrtoint (i32* @0 to i32), i32 4)
@cmpx = global i1 icmp eq (i32* @0, i32* null)

declare void @llvm.dbg.value(metadata, metadata, metadata)
declare i32 @vararg(i32, ...)

define internal fastcc <4 x float> @"weird name"(<4 x float> %v) !md !5 {
"entry block":
  %0 = fadd <4 x float> %v, <float 1.0, float 2.0, float 3.0, float 4.0>
  call void @llvm.dbg.value(metadata <4 x float> %v, metadata !6, metadata !7)
  %1 = call i32 (i32, ...) @vararg(i32 1, float 2.0, i8 3), !tbaa !8, !dx.precise !9
  %2 = tail call fastcc <4 x float> @"weird name"(<4 x float> %0)
  %3 = load atomic i32, i32* @0 acquire, align 4
  store atomic i32 %3, i32* @0 syncscope("singlethread") release, align 4
  %4 = atomicrmw volatile xchg i32* @0, i32 %3 syncscope("singlethread") monotonic
  %5 = cmpxchg weak volatile i32* @0, i32 1, i32 2 seq_cst seq_cst
  %6 = alloca i32, i32 4
  %7 = alloca i64
  %8 = getelementptr %"struct.with space", %"struct.with space"* @sp, i64 0, i32 1
  %9 = freeze i32 %3
  %10 = fneg float 1.0
  ret <4 x float> %2
}

!llvm.module.flags = !{!0}
!0 = !{i32 1, !"wchar_size", i32 4}
!4 = !{!"global md"}
!5 = !{!"fn md", i64 -1}
!6 = !{!"var"}
!7 = !{}
!8 = !{!"tbaa", !7}
!9 = !{}
)LL");
}

TEST(DxilLlvmPrinter, CanonicalConstantsLoopsAndAttachments) {
  expectSameAsLlvmDis(
      R"LL(target datalayout = "e-m:e-p:32:32-i1:32-i8:32-i16:32-i32:32-i64:64-f16:32-f32:32-f64:64-n8:16:32:64"
target triple = "dxil-ms-dx"

%0 = type { i32, float }
%1 = type opaque
%dx.types.Handle = type { i8* }
%dx.types.ResRet.f32 = type { float, float, float, float, i32 }

@a = global [4 x i32] [i32 0, i32 0, i32 0, i32 0], !annot !0
@b = global %0 { i32 0, float 0.0 }
@c = global [2 x %0] [%0 undef, %0 undef]
@d = global <4 x float> <float 1.0, float 1.0, float 1.0, float 1.0>
@e = global [3 x double] [double 1.0e+100, double -2.5e-05, double 123456.0]
@f = global [2 x i64] [i64 9223372036854775807, i64 -9223372036854775808]
@g = external global %1*
@h = global [5 x i8] c"a\22\\\0A\00"
@i = global { [2 x float], <2 x i16> } { [2 x float] [float 0x36A0000000000000, float 0x47EFFFFFE0000000], <2 x i16> <i16 1, i16 -1> }

declare %dx.types.ResRet.f32 @dx.op.bufferLoad.f32(i32, %dx.types.Handle, i32, i32) #0
declare !annot !1 void @decl()

define void @main(%0* %p) {
entry:
  %h = load %dx.types.Handle, %dx.types.Handle* undef
  %r = call %dx.types.ResRet.f32 @dx.op.bufferLoad.f32(i32 68, %dx.types.Handle %h, i32 0, i32 undef)
  %x = extractvalue %dx.types.ResRet.f32 %r, 0
  %gp = getelementptr %0, %0* %p, i32 0, i32 1
  store float %x, float* %gp, align 4
  %cmp = fcmp olt float %x, 0.0
  br i1 %cmp, label %loop, label %exit, !dx.controlflow.hints !2

loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %next = add i32 %i, 1
  %done = icmp uge i32 %next, 10
  br i1 %done, label %exit, label %loop, !llvm.loop !3

exit:
  %v = phi float [ %x, %entry ], [ 1.0, %loop ]
  %sel = select fast i1 %cmp, float %v, float 2.0
  %agg = insertvalue { float, i32 } undef, float %sel, 0
  call void @decl()
  ret void
}

attributes #0 = { nounwind readonly }

!0 = !{!"global annotation"}
!1 = !{!"declaration annotation", i32 7}
!2 = distinct !{!2, !"dx.controlflow.hints", i32 1}
!3 = distinct !{!3, !4}
!4 = !{!"llvm.loop.unroll.disable"}
)LL");
}

} // namespace
} // namespace spire::dxil
