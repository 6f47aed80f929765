; A DXIL compute shader written as LLVM assembly (what DXC writes for the HLSL below, in the
; syntax llvm-as-14 reads): the demo assembles it, then spire prints its DXIL model, translates
; it to Vulkan SPIR-V and runs it.
;
;   ByteAddressBuffer input : register(t0);
;   RWByteAddressBuffer output : register(u0);
;   [numthreads(64, 1, 1)]
;   void main(uint3 id : SV_DispatchThreadID) {
;     float x = asfloat(input.Load(id.x * 4));
;     if (x < 0) x = abs(x);
;     output.Store(id.x * 4, asuint(x * 2));
;   }
target datalayout = "e-m:e-p:32:32-i1:32-i8:32-i16:32-i32:32-i64:64-f16:32-f32:32-f64:64-n8:16:32:64"
target triple = "dxil-ms-dx"

%dx.types.Handle = type { i8* }
%dx.types.ResRet.f32 = type { float, float, float, float, i32 }
%struct.ByteAddressBuffer = type { i32 }
%struct.RWByteAddressBuffer = type { i32 }

@input = external constant %struct.ByteAddressBuffer
@output = external constant %struct.RWByteAddressBuffer

define void @main() {
entry:
  %in = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 0, i32 0, i32 0, i1 false)
  %out = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)
  %id = call i32 @dx.op.threadId.i32(i32 93, i32 0)
  %addr = shl i32 %id, 2
  %r = call %dx.types.ResRet.f32 @dx.op.rawBufferLoad.f32(i32 139, %dx.types.Handle %in, i32 %addr, i32 undef, i8 1, i32 4)
  %x = extractvalue %dx.types.ResRet.f32 %r, 0
  %negative = fcmp fast olt float %x, 0.000000e+00
  br i1 %negative, label %flip, label %done

flip:
  %abs = call float @dx.op.unary.f32(i32 6, float %x)
  br label %done

done:
  %v = phi float [ %x, %entry ], [ %abs, %flip ]
  %y = fmul fast float %v, 2.000000e+00
  call void @dx.op.rawBufferStore.f32(i32 140, %dx.types.Handle %out, i32 %addr, i32 undef, float %y, float undef, float undef, float undef, i8 1, i32 4)
  ret void
}

declare %dx.types.Handle @dx.op.createHandle(i32, i8, i32, i32, i1)
declare i32 @dx.op.threadId.i32(i32, i32)
declare %dx.types.ResRet.f32 @dx.op.rawBufferLoad.f32(i32, %dx.types.Handle, i32, i32, i8, i32)
declare float @dx.op.unary.f32(i32, float)
declare void @dx.op.rawBufferStore.f32(i32, %dx.types.Handle, i32, i32, float, float, float, float, i8, i32)

!dx.version = !{!0}
!0 = !{i32 1, i32 2}
!dx.shaderModel = !{!1}
!1 = !{!"cs", i32 6, i32 2}
!dx.resources = !{!2}
!2 = !{!3, !5, null, null}
!3 = !{!4}
!4 = !{i32 0, %struct.ByteAddressBuffer* @input, !"input", i32 0, i32 0, i32 1, i32 11, i32 0, null}
!5 = !{!6}
!6 = !{i32 0, %struct.RWByteAddressBuffer* @output, !"output", i32 0, i32 0, i32 1, i32 11, i1 false, i1 false, i1 false, null}
!dx.entryPoints = !{!7}
!7 = !{void ()* @main, !"main", null, !2, !8}
!8 = !{i32 4, !9}
!9 = !{i32 64, i32 1, i32 1}
