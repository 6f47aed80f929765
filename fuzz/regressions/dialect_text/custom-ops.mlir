module {
  spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
    spirv.SpecConstant @sc1 spec_id(3) = 1.000000e+00 : f32
    spirv.SpecConstant @sc2 = true
    spirv.SpecConstant @sc3 = 5 : i32
    spirv.SpecConstantComposite @scc (@sc1, @sc1) : vector<2xf32>
    spirv.GlobalVariable @gv2 : !spirv.ptr<f32, Private>
    spirv.GlobalVariable @gv initializer(@gv2) bind(1, 2) built_in("Position") {foo = 3 : i32} : !spirv.ptr<f32, Private>
    spirv.func @f(%arg0: f32, %arg1: vector<4xf32>, %arg2: !spirv.ptr<i32, StorageBuffer>, %arg3: i32, %arg4: i1) -> f32 "Inline|Pure" {
      %0 = spirv.AtomicIIncrement "Device" "None" %arg2 : !spirv.ptr<i32, StorageBuffer>
      %1 = spirv.AtomicCompareExchange "Device" "None" "Acquire" %arg2, %arg3, %arg3 : !spirv.ptr<i32, StorageBuffer>
      %2 = spirv.IsNan %arg0 : f32 {relaxed_precision}
      %3 = spirv.FOrdEqual %arg0, %arg0 : f32 {relaxed_precision}
      %4 = spirv.Not %arg3 : i32 {relaxed_precision}
      %5 = spirv.IAdd %arg3, %arg3 {relaxed_precision} : i32
      %6 = spirv.ConvertFToS %arg0 {relaxed_precision} : f32 to i32
      %7 = spirv.GroupNonUniformElect <Subgroup> : i1
      %8 = spirv.GroupNonUniformBallot <Subgroup> %arg4 : vector<4xi32>
      %cst1_i32 = spirv.Constant 1 : i32
      %9 = spirv.GroupNonUniformBroadcast <Subgroup> %arg0, %cst1_i32 : f32, i32
      %10 = spirv.GroupNonUniformFAdd "Subgroup" "Reduce" %arg0 : f32
      %11 = spirv.Undef : f32
      %12 = spirv.CompositeExtract %arg1[1 : i32] : vector<4xf32>
      %13 = spirv.CompositeConstruct %arg0, %arg0 {relaxed_precision} : (f32, f32) -> vector<2xf32>
      %14 = spirv.Select %arg4, %arg0, %arg0 : i1, f32
      %15 = spirv.GL.FAbs %arg0 : f32 {relaxed_precision}
      %16 = spirv.GL.FMax %arg0, %arg0 {relaxed_precision} : f32
      %17 = "spirv.Dot"(%arg1, %arg1) : (vector<4xf32>, vector<4xf32>) -> f32
      %18 = spirv.VectorExtractDynamic %arg1[%arg3] : vector<4xf32>, i32
      %19 = spirv.VectorInsertDynamic %arg0, %arg1[%arg3] : vector<4xf32>, i32
      %20 = spirv.FunctionCall @f(%arg0, %arg1, %arg2, %arg3, %arg4) : (f32, vector<4xf32>, !spirv.ptr<i32, StorageBuffer>, i32, i1) -> f32
      %21 = "spirv.GroupNonUniformBroadcastFirst"(%arg0) {execution_scope = #spirv.scope<Subgroup>} : (f32) -> f32
      %22 = spirv.BitFieldInsert %arg3, %arg3, %arg3, %arg3 : i32, i32, i32
      %23 = spirv.BitFieldUExtract %arg3, %arg3, %arg3 : i32, i32, i32
      %24 = spirv.Variable {foo} : !spirv.ptr<f32, Function>
      %25 = spirv.VectorTimesScalar %arg1, %arg0 : (vector<4xf32>, f32) -> vector<4xf32>
      %26 = spirv.AtomicUMax "Device" "None" %arg2, %arg3 : !spirv.ptr<i32, StorageBuffer>
      %27 = spirv.Load "StorageBuffer" %arg2 ["Volatile"] : i32
      spirv.Store "StorageBuffer" %arg2, %arg3 ["Volatile|Aligned", 4] : i32
      %28 = spirv.GroupNonUniformIAdd "Workgroup" "ClusteredReduce" %arg3 cluster_size(%cst1_i32) : i32
      %29 = spirv.CompositeInsert %arg0, %arg1[1 : i32] : f32 into vector<4xf32>
      %30 = spirv.VectorShuffle {relaxed_precision} [1 : i32, 5 : i32] %arg1 : vector<4xf32>, %arg1 : vector<4xf32> -> vector<2xf32>
      %31 = spirv.AccessChain %arg2[] : !spirv.ptr<i32, StorageBuffer>, 
      %32 = spirv.mlir.referenceof @sc1 {foo} : f32
      %gv_addr = spirv.mlir.addressof @gv {foo} : !spirv.ptr<f32, Private>
      %cst_f32 = spirv.Constant 1.000000e+00 : f32
      spirv.ControlBarrier <Workgroup>, <Device>, <None> {foo}
      spirv.BranchConditional %arg4 [1, 2], ^bb1(%arg0 : f32), ^bb2(%arg3 : i32)
    ^bb1(%33: f32):  // pred: ^bb0
      spirv.ReturnValue %33 {foo} : f32
    ^bb2(%34: i32):  // 2 preds: ^bb0, ^bb2
      spirv.Branch ^bb2(%34 : i32) {foo}
    }
    spirv.func @g() "None" attributes {foo = 1 : i32} {
      spirv.mlir.selection control(Flatten) {
        spirv.Branch ^bb1
      ^bb1:  // pred: ^bb0
        spirv.mlir.merge
      }
      spirv.Return
    }
    spirv.EntryPoint "GLCompute" @g
    spirv.ExecutionMode @g "LocalSize", 1, 1, 1
  }
}

