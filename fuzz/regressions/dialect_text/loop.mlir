spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.GlobalVariable @pos {location = 0 : i32} : !spirv.ptr<vector<4xf32>, Input>
  spirv.GlobalVariable @"@entryPointOutput" built_in("Position") : !spirv.ptr<vector<4xf32>, Output>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<!spirv.array<2 x vector<2xf32>>, Function>
    %1 = spirv.Variable : !spirv.ptr<!spirv.array<3 x vector<3xf32>>, Function>
    %pos_addr = spirv.mlir.addressof @pos : !spirv.ptr<vector<4xf32>, Input>
    %2 = spirv.Load "Input" %pos_addr : vector<4xf32>
    %cst0_si32 = spirv.Constant 0 : si32
    %3 = spirv.AccessChain %1[%cst0_si32] : !spirv.ptr<!spirv.array<3 x vector<3xf32>>, Function>, si32
    %cst_vec_3xf32 = spirv.Constant dense<0.000000e+00> : vector<3xf32>
    spirv.Store "Function" %3, %cst_vec_3xf32 : vector<3xf32>
    %cst0_si32_0 = spirv.Constant 0 : si32
    %4 = spirv.AccessChain %0[%cst0_si32_0] : !spirv.ptr<!spirv.array<2 x vector<2xf32>>, Function>, si32
    %cst_vec_2xf32 = spirv.Constant dense<[0.000000e+00, 1.000000e+00]> : vector<2xf32>
    spirv.Store "Function" %4, %cst_vec_2xf32 : vector<2xf32>
    %cst0_si32_1 = spirv.Constant 0 : si32
    spirv.Branch ^bb1(%cst0_si32_1 : si32)
  ^bb1(%5: si32):  // pred: ^bb0
    spirv.mlir.loop {
      spirv.Branch ^bb1(%5 : si32)
    ^bb1(%13: si32):  // 2 preds: ^bb0, ^bb2
      %cst1_si32 = spirv.Constant 1 : si32
      %14 = spirv.SLessThan %13, %cst1_si32 : si32
      spirv.BranchConditional %14, ^bb2, ^bb3
    ^bb2:  // pred: ^bb1
      %15 = spirv.AccessChain %0[%13] : !spirv.ptr<!spirv.array<2 x vector<2xf32>>, Function>, si32
      %16 = spirv.Load "Function" %15 : vector<2xf32>
      %17 = spirv.AccessChain %1[%13] : !spirv.ptr<!spirv.array<3 x vector<3xf32>>, Function>, si32
      %18 = spirv.Load "Function" %17 : vector<3xf32>
      %19 = spirv.VectorShuffle [0 : i32, 1 : i32] %18 : vector<3xf32>, %18 : vector<3xf32> -> vector<2xf32>
      %20 = spirv.FAdd %19, %16 : vector<2xf32>
      %cst0_i32 = spirv.Constant 0 : i32
      %21 = spirv.AccessChain %1[%13, %cst0_i32] : !spirv.ptr<!spirv.array<3 x vector<3xf32>>, Function>, si32, i32
      %22 = spirv.CompositeExtract %20[0 : i32] : vector<2xf32>
      spirv.Store "Function" %21, %22 : f32
      %cst1_i32 = spirv.Constant 1 : i32
      %23 = spirv.AccessChain %1[%13, %cst1_i32] : !spirv.ptr<!spirv.array<3 x vector<3xf32>>, Function>, si32, i32
      %24 = spirv.CompositeExtract %20[1 : i32] : vector<2xf32>
      spirv.Store "Function" %23, %24 : f32
      %cst1_si32_2 = spirv.Constant 1 : si32
      %25 = spirv.IAdd %13, %cst1_si32_2 : si32
      spirv.Branch ^bb1(%25 : si32)
    ^bb3:  // pred: ^bb1
      spirv.mlir.merge
    }
    %6 = spirv.Load "Function" %1 : !spirv.array<3 x vector<3xf32>>
    %7 = spirv.CompositeExtract %6[0 : i32] : !spirv.array<3 x vector<3xf32>>
    %8 = spirv.CompositeExtract %7[0 : i32] : vector<3xf32>
    %9 = spirv.CompositeExtract %7[1 : i32] : vector<3xf32>
    %10 = spirv.CompositeExtract %7[2 : i32] : vector<3xf32>
    %cst_f32 = spirv.Constant 0.000000e+00 : f32
    %11 = spirv.CompositeConstruct %8, %9, %10, %cst_f32 : (f32, f32, f32, f32) -> vector<4xf32>
    %12 = spirv.FAdd %2, %11 : vector<4xf32>
    %_40entryPointOutput_addr = spirv.mlir.addressof @"@entryPointOutput" : !spirv.ptr<vector<4xf32>, Output>
    spirv.Store "Output" %_40entryPointOutput_addr, %12 : vector<4xf32>
    spirv.Return
  }
  spirv.EntryPoint "Vertex" @main, @pos, @"@entryPointOutput"
}
