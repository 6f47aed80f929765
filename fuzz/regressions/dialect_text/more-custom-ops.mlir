module {
  spirv.module Logical GLSL450 {
    spirv.func @f(%arg0: f32, %arg1: !spirv.matrix<2 x vector<2xf32>>, %arg2: i1, %arg3: i32, %arg4: vector<2xf32>) "None" {
      %0 = spirv.LogicalAnd %arg2, %arg2 : i1 {foo}
      %1 = spirv.Transpose %arg1 {foo} : !spirv.matrix<2 x vector<2xf32>> -> !spirv.matrix<2 x vector<2xf32>>
      %2 = spirv.MatrixTimesMatrix %arg1, %arg1 {foo} : !spirv.matrix<2 x vector<2xf32>>, !spirv.matrix<2 x vector<2xf32>> -> !spirv.matrix<2 x vector<2xf32>>
      %3 = spirv.GL.Fma %arg0, %arg0, %arg0 {foo} : f32
      %4 = spirv.GL.FMix {foo} %arg0 : f32, %arg0 : f32, %arg0 : f32 -> f32
      %5 = spirv.GL.Ldexp {foo} %arg0 : f32, %arg3 : i32 -> f32
      %6 = spirv.GL.FrexpStruct {foo} %arg0 : f32 -> !spirv.struct<(f32, i32)>
      %7 = spirv.LogicalNot %arg2 : i1 {foo}
      %8 = spirv.ShiftLeftLogical %arg3, %arg3 {foo} : i32, i32
      %9 = spirv.Select %arg2, %arg0, %arg0 {foo} : i1, f32
      %10 = spirv.BitFieldInsert %arg3, %arg3, %arg3, %arg3 {foo} : i32, i32, i32
      %11 = spirv.MatrixTimesScalar %arg1, %arg0 {foo} : !spirv.matrix<2 x vector<2xf32>>, f32
      %12 = spirv.CompositeConstruct %arg0, %arg0 {foo} : (f32, f32) -> vector<2xf32>
      %13 = spirv.GL.FindUMsb %arg3 : i32 {foo}
      %14 = spirv.Ordered %arg0, %arg0 : f32 {foo}
      %15 = spirv.GL.Exp %arg0 : f32
      %16 = spirv.CL.fma %arg0, %arg0, %arg0 {foo} : f32
      %17 = spirv.CL.exp %arg0 : f32 {foo}
      %18 = spirv.CL.fmax %arg0, %arg0 {foo} : f32
      %19 = spirv.IsInf %arg0 : f32
      %20 = spirv.SNegate %arg3 : i32
      %21 = spirv.ConvertUToF %arg3 : i32 to f32
      %22 = spirv.IMul %arg3, %arg3 : i32
      %23 = spirv.UMod %arg3, %arg3 : i32
      %24 = spirv.FRem %arg0, %arg0 : f32
      %25 = spirv.GL.Sqrt %arg0 : f32
      %26 = spirv.GL.SAbs %arg3 : i32
      %27 = spirv.FOrdNotEqual %arg0, %arg0 : f32
      %28 = spirv.Unordered %arg0, %arg0 : f32 {foo}
      %29 = spirv.ISubBorrow %arg3, %arg3 : !spirv.struct<(i32, i32)>
      %30 = spirv.GL.FSign %arg0 : f32
      %31 = spirv.GL.SSign %arg3 : i32
      %32 = spirv.GL.Round %arg0 : f32
      %33 = spirv.KHR.SubgroupBallot %arg2 : vector<4xi32>
      %34 = "spirv.AtomicFlagTestAndSet"(%arg3) : (i32) -> i1
      spirv.Return {foo}
    }
    spirv.EntryPoint "GLCompute" @f
  }
}

