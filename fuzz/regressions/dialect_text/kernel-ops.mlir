module {
  spirv.module @named Physical64 OpenCL requires #spirv.vce<v1.0, [Kernel, Addresses, GroupNonUniformArithmetic, AtomicFloat32AddEXT, Int64, GenericPointer], [SPV_EXT_shader_atomic_float_add]> attributes {foo = "bar"} {
    spirv.GlobalVariable @v bind(1, 2) {location = 3 : i32} : !spirv.ptr<f32, CrossWorkgroup>
    spirv.GlobalVariable @w built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi64>, Input>
    spirv.SpecConstant @sc = 1.500000e+00 : f32
    spirv.func @f(%arg0: i32, %arg1: i1, %arg2: f32, %arg3: !spirv.ptr<f32, CrossWorkgroup>, %arg4: !spirv.ptr<f32, Generic>, %arg5: i64, %arg6: vector<2xi1>, %arg7: vector<2xf32>) "Inline" {
      %0 = "spirv.GroupNonUniformBitwiseAnd"(%arg0) {execution_scope = #spirv.scope<Subgroup>, group_operation = #spirv.group_operation<Reduce>} : (i32) -> i32
      %1 = "spirv.GroupNonUniformLogicalAnd"(%arg1) {execution_scope = #spirv.scope<Subgroup>, group_operation = #spirv.group_operation<InclusiveScan>} : (i1) -> i1
      %2 = spirv.GroupNonUniformFMul "Workgroup" "ExclusiveScan" %arg2 : f32
      %3 = spirv.EXT.AtomicFAdd "Device" "AcquireRelease" %arg3, %arg2 : !spirv.ptr<f32, CrossWorkgroup>
      %4 = "spirv.ConvertPtrToU"(%arg3) : (!spirv.ptr<f32, CrossWorkgroup>) -> i64
      %5 = "spirv.ConvertUToPtr"(%arg5) : (i64) -> !spirv.ptr<f32, CrossWorkgroup>
      %6 = spirv.PtrCastToGeneric %arg3 : !spirv.ptr<f32, CrossWorkgroup> to !spirv.ptr<f32, Generic>
      %7 = spirv.GenericCastToPtr %arg4 : !spirv.ptr<f32, Generic> to !spirv.ptr<f32, CrossWorkgroup>
      %8 = spirv.Select %arg6, %arg7, %arg7 : vector<2xi1>, vector<2xf32>
      %9 = spirv.CL.s_abs %arg0 : i32
      %10 = spirv.CL.s_max %arg0, %arg0 : i32
      %11 = spirv.UMulExtended %arg0, %arg0 : !spirv.struct<(i32, i32)>
      %12 = spirv.IsNan %arg7 : vector<2xf32>
      %13 = spirv.FOrdLessThan %arg7, %arg7 : vector<2xf32>
      %14 = spirv.mlir.referenceof @sc : f32
      %cst_f32 = spirv.Constant 2.000000e+00 : f32
      %15 = spirv.Variable init(%cst_f32) : !spirv.ptr<f32, Function>
      %16 = spirv.Load "CrossWorkgroup" %arg3 ["Aligned", 4] : f32
      %cst = spirv.Constant [1.000000e+00 : f32, 2.000000e+00 : f32] : !spirv.array<2 x f32>
      %cst_vec_2xi1 = spirv.Constant dense<[true, false]> : vector<2xi1>
      %false = spirv.Constant false
      %cst-5_i64 = spirv.Constant -5 : i64
      %cst-1_i32 = spirv.Constant -1 : i32
      %cst_vec_2xi32 = spirv.Constant dense<[1, 2]> : vector<2xi32>
      %cst7_ui8 = spirv.Constant 7 : ui8
      %17 = spirv.GroupNonUniformFMax "Subgroup" "Reduce" %arg2 : f32
      spirv.mlir.loop control(Unroll) {
        spirv.Branch ^bb1
      ^bb1:  // 2 preds: ^bb0, ^bb2
        spirv.BranchConditional %arg1 [3, 4], ^bb2, ^bb3
      ^bb2:  // pred: ^bb1
        spirv.Branch ^bb1
      ^bb3:  // pred: ^bb1
        spirv.mlir.merge
      }
      %18 = spirv.FunctionCall @g() : () -> i32
      spirv.FunctionCall @h(%arg0) : (i32) -> ()
      spirv.Return
    }
    spirv.func @g() -> i32 "Pure|Const" {
      %cst1_i32 = spirv.Constant 1 : i32
      spirv.ReturnValue %cst1_i32 : i32
    }
    spirv.func @h(%arg0: i32) "DontInline" {
      spirv.Return
    }
    spirv.EntryPoint "Kernel" @f, @v, @w
    spirv.ExecutionMode @f "ContractionOff"
  }
}

