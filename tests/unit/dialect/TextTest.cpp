// The dialect's text: every op family in custom and generic form as MLIR 16's tools print them
// (the fixtures are mlir-opt-16 / mlir-translate-16 output), print(parse(t)) == t, the generic
// form as lossless as the IR, SSA and block names, and errors with their line and column.
#include "spire/dialect/Text.h"

#include "spire/dialect/Ops.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace spire::dialect {
namespace {

// mlir-opt-16 output for ops of each family (custom syntax; ops whose attributes the custom
// syntax cannot show are in generic form in kGenericOps).
constexpr std::string_view kCustomOps = R"mlir(module {
  spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
    spirv.SpecConstant @sc1 spec_id(3) = 1.000000e+00 : f32
    spirv.SpecConstant @sc2 = true
    spirv.SpecConstant @sc3 = 5 : i32
    spirv.SpecConstantComposite @scc (@sc1, @sc1) : vector<2xf32>
    spirv.GlobalVariable @gv2 : !spirv.ptr<f32, Private>
    spirv.GlobalVariable @gv initializer(@gv2) bind(1, 2) built_in("Position") {foo = 3 : i32} : !spirv.ptr<f32, Private>
    spirv.func @f(%arg0: f32, %arg1: vector<4xf32>, %arg2: !spirv.ptr<i32, StorageBuffer>, %arg3: i32, %arg4: i1) -> f32 "Inline|Pure" {
      %0 = spirv.AtomicIIncrement <Device> <None> %arg2 : !spirv.ptr<i32, StorageBuffer>
      %1 = spirv.AtomicCompareExchange <Device> <None> <Acquire> %arg2, %arg3, %arg3 : !spirv.ptr<i32, StorageBuffer>
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
      %17 = spirv.Dot %arg1, %arg1 : vector<4xf32> -> f32
      %18 = spirv.VectorExtractDynamic %arg1[%arg3] : vector<4xf32>, i32
      %19 = spirv.VectorInsertDynamic %arg0, %arg1[%arg3] : vector<4xf32>, i32
      %20 = spirv.FunctionCall @f(%arg0, %arg1, %arg2, %arg3, %arg4) : (f32, vector<4xf32>, !spirv.ptr<i32, StorageBuffer>, i32, i1) -> f32
      %21 = "spirv.GroupNonUniformBroadcastFirst"(%arg0) {execution_scope = #spirv.scope<Subgroup>} : (f32) -> f32
      %22 = spirv.BitFieldInsert %arg3, %arg3, %arg3, %arg3 : i32, i32, i32
      %23 = spirv.BitFieldUExtract %arg3, %arg3, %arg3 : i32, i32, i32
      %24 = spirv.Variable {foo} : !spirv.ptr<f32, Function>
      %25 = spirv.VectorTimesScalar %arg1, %arg0 : (vector<4xf32>, f32) -> vector<4xf32>
      %26 = spirv.AtomicUMax <Device> <None> %arg2, %arg3 : !spirv.ptr<i32, StorageBuffer>
      %27 = spirv.Load "StorageBuffer" %arg2 ["Volatile"] : i32
      spirv.Store "StorageBuffer" %arg2, %arg3 ["Volatile|Aligned", 4] : i32
      %28 = spirv.GroupNonUniformIAdd "Workgroup" "ClusteredReduce" %arg3 cluster_size(%cst1_i32) : i32
      %29 = spirv.CompositeInsert %arg0, %arg1[1 : i32] : f32 into vector<4xf32>
      %30 = spirv.VectorShuffle {relaxed_precision} [1 : i32, 5 : i32] %arg1 : vector<4xf32>, %arg1 : vector<4xf32> -> vector<2xf32>
      %31 = "spirv.AccessChain"(%arg2) : (!spirv.ptr<i32, StorageBuffer>) -> !spirv.ptr<i32, StorageBuffer>
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
)mlir";

constexpr std::string_view kMoreCustomOps = R"mlir(module {
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
      %11 = spirv.MatrixTimesScalar %arg1, %arg0 {foo} : !spirv.matrix<2 x vector<2xf32>>, f32 -> !spirv.matrix<2 x vector<2xf32>>
      %12 = spirv.CompositeConstruct %arg0, %arg0 {foo} : (f32, f32) -> vector<2xf32>
      %13 = spirv.GL.FindUMsb %arg3 : i32 {foo}
      %14 = spirv.Ordered %arg0, %arg0 : f32 {foo}
      %15 = spirv.GL.Exp %arg0 : f32
      %16 = spirv.CL.fma %arg0, %arg0, %arg0 {foo} : f32
      %17 = spirv.CL.exp %arg0 : f32 {foo}
      %18 = spirv.CL.fmax %arg0, %arg0 {foo} : f32
      %19 = spirv.IsInf %arg0 : f32
      %20 = spirv.SNegate %arg3 {foo} : i32
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
      %35 = spirv.FNegate %arg0 {foo} : f32
      spirv.Return {foo}
    }
    spirv.EntryPoint "GLCompute" @f
  }
}
)mlir";

constexpr std::string_view kGenericOps = R"mlir("builtin.module"() ({
  "spirv.module"() ({
    "spirv.SpecConstant"() {default_value = 1.000000e+00 : f32, spec_id = 3 : i64, sym_name = "sc1"} : () -> ()
    "spirv.SpecConstant"() {default_value = true, sym_name = "sc2"} : () -> ()
    "spirv.SpecConstant"() {default_value = 5 : i32, sym_name = "sc3"} : () -> ()
    "spirv.SpecConstantComposite"() {constituents = [@sc1, @sc1], sym_name = "scc", type = vector<2xf32>} : () -> ()
    "spirv.GlobalVariable"() {sym_name = "gv2", type = !spirv.ptr<f32, Private>} : () -> ()
    "spirv.GlobalVariable"() {binding = 2 : i32, built_in = "Position", descriptor_set = 1 : i32, foo = 3 : i32, initializer = @gv2, sym_name = "gv", type = !spirv.ptr<f32, Private>} : () -> ()
    "spirv.func"() ({
    ^bb0(%arg0: f32, %arg1: vector<4xf32>, %arg2: !spirv.ptr<i32, StorageBuffer>, %arg3: i32, %arg4: i1):
      %0 = "spirv.AtomicIIncrement"(%arg2) {memory_scope = #spirv.scope<Device>, semantics = #spirv.memory_semantics<None>} : (!spirv.ptr<i32, StorageBuffer>) -> i32
      %1 = "spirv.AtomicCompareExchange"(%arg2, %arg3, %arg3) {equal_semantics = #spirv.memory_semantics<None>, memory_scope = #spirv.scope<Device>, unequal_semantics = #spirv.memory_semantics<Acquire>} : (!spirv.ptr<i32, StorageBuffer>, i32, i32) -> i32
      %2 = "spirv.IsNan"(%arg0) {relaxed_precision} : (f32) -> i1
      %3 = "spirv.FOrdEqual"(%arg0, %arg0) {relaxed_precision} : (f32, f32) -> i1
      %4 = "spirv.Not"(%arg3) {relaxed_precision} : (i32) -> i32
      %5 = "spirv.IAdd"(%arg3, %arg3) {relaxed_precision} : (i32, i32) -> i32
      %6 = "spirv.ConvertFToS"(%arg0) {relaxed_precision} : (f32) -> i32
      %7 = "spirv.GroupNonUniformElect"() {execution_scope = #spirv.scope<Subgroup>} : () -> i1
      %8 = "spirv.GroupNonUniformBallot"(%arg4) {execution_scope = #spirv.scope<Subgroup>} : (i1) -> vector<4xi32>
      %9 = "spirv.Constant"() {value = 1 : i32} : () -> i32
      %10 = "spirv.GroupNonUniformBroadcast"(%arg0, %9) {execution_scope = #spirv.scope<Subgroup>} : (f32, i32) -> f32
      %11 = "spirv.GroupNonUniformFAdd"(%arg0) {execution_scope = #spirv.scope<Subgroup>, group_operation = #spirv.group_operation<Reduce>} : (f32) -> f32
      %12 = "spirv.Undef"() : () -> f32
      %13 = "spirv.CompositeExtract"(%arg1) {indices = [1 : i32], relaxed_precision} : (vector<4xf32>) -> f32
      %14 = "spirv.CompositeConstruct"(%arg0, %arg0) {relaxed_precision} : (f32, f32) -> vector<2xf32>
      %15 = "spirv.Select"(%arg4, %arg0, %arg0) : (i1, f32, f32) -> f32
      %16 = "spirv.GL.FAbs"(%arg0) {relaxed_precision} : (f32) -> f32
      %17 = "spirv.GL.FMax"(%arg0, %arg0) {relaxed_precision} : (f32, f32) -> f32
      %18 = "spirv.Dot"(%arg1, %arg1) : (vector<4xf32>, vector<4xf32>) -> f32
      %19 = "spirv.VectorExtractDynamic"(%arg1, %arg3) : (vector<4xf32>, i32) -> f32
      %20 = "spirv.VectorInsertDynamic"(%arg1, %arg0, %arg3) : (vector<4xf32>, f32, i32) -> vector<4xf32>
      %21 = "spirv.FunctionCall"(%arg0, %arg1, %arg2, %arg3, %arg4) {callee = @f} : (f32, vector<4xf32>, !spirv.ptr<i32, StorageBuffer>, i32, i1) -> f32
      %22 = "spirv.GroupNonUniformBroadcastFirst"(%arg0) {execution_scope = #spirv.scope<Subgroup>} : (f32) -> f32
      %23 = "spirv.BitFieldInsert"(%arg3, %arg3, %arg3, %arg3) : (i32, i32, i32, i32) -> i32
      %24 = "spirv.BitFieldUExtract"(%arg3, %arg3, %arg3) : (i32, i32, i32) -> i32
      %25 = "spirv.Variable"() {foo, storage_class = #spirv.storage_class<Function>} : () -> !spirv.ptr<f32, Function>
      %26 = "spirv.VectorTimesScalar"(%arg1, %arg0) : (vector<4xf32>, f32) -> vector<4xf32>
      %27 = "spirv.AtomicUMax"(%arg2, %arg3) {memory_scope = #spirv.scope<Device>, semantics = #spirv.memory_semantics<None>} : (!spirv.ptr<i32, StorageBuffer>, i32) -> i32
      %28 = "spirv.Load"(%arg2) {memory_access = #spirv.memory_access<Volatile>} : (!spirv.ptr<i32, StorageBuffer>) -> i32
      "spirv.Store"(%arg2, %arg3) {alignment = 4 : i32, memory_access = #spirv.memory_access<Volatile|Aligned>} : (!spirv.ptr<i32, StorageBuffer>, i32) -> ()
      %29 = "spirv.GroupNonUniformIAdd"(%arg3, %9) {execution_scope = #spirv.scope<Workgroup>, group_operation = #spirv.group_operation<ClusteredReduce>} : (i32, i32) -> i32
      %30 = "spirv.CompositeInsert"(%arg0, %arg1) {indices = [1 : i32], relaxed_precision} : (f32, vector<4xf32>) -> vector<4xf32>
      %31 = "spirv.VectorShuffle"(%arg1, %arg1) {components = [1 : i32, 5 : i32], relaxed_precision} : (vector<4xf32>, vector<4xf32>) -> vector<2xf32>
      %32 = "spirv.AccessChain"(%arg2) {relaxed_precision} : (!spirv.ptr<i32, StorageBuffer>) -> !spirv.ptr<i32, StorageBuffer>
      %33 = "spirv.mlir.referenceof"() {foo, spec_const = @sc1} : () -> f32
      %34 = "spirv.mlir.addressof"() {foo, variable = @gv} : () -> !spirv.ptr<f32, Private>
      %35 = "spirv.Constant"() {foo, value = 1.000000e+00 : f32} : () -> f32
      "spirv.ControlBarrier"() {execution_scope = #spirv.scope<Workgroup>, foo, memory_scope = #spirv.scope<Device>, memory_semantics = #spirv.memory_semantics<None>} : () -> ()
      "spirv.BranchConditional"(%arg4, %arg0, %arg3)[^bb1, ^bb2] {branch_weights = [1 : i32, 2 : i32], operand_segment_sizes = array<i32: 1, 1, 1>} : (i1, f32, i32) -> ()
    ^bb1(%36: f32):  // pred: ^bb0
      "spirv.ReturnValue"(%36) {foo} : (f32) -> ()
    ^bb2(%37: i32):  // 2 preds: ^bb0, ^bb2
      "spirv.Branch"(%37)[^bb2] {foo} : (i32) -> ()
    }) {function_control = #spirv.function_control<Inline|Pure>, function_type = (f32, vector<4xf32>, !spirv.ptr<i32, StorageBuffer>, i32, i1) -> f32, sym_name = "f"} : () -> ()
    "spirv.func"() ({
      "spirv.mlir.selection"() ({
        "spirv.Branch"()[^bb1] : () -> ()
      ^bb1:  // pred: ^bb0
        "spirv.mlir.merge"() : () -> ()
      }) {selection_control = #spirv.selection_control<Flatten>} : () -> ()
      "spirv.Return"() : () -> ()
    }) {foo = 1 : i32, function_control = #spirv.function_control<None>, function_type = () -> (), sym_name = "g"} : () -> ()
    "spirv.EntryPoint"() {execution_model = #spirv.execution_model<GLCompute>, fn = @g, interface = []} : () -> ()
    "spirv.ExecutionMode"() {execution_mode = #spirv.execution_mode<LocalSize>, fn = @g, values = [1 : i32, 1 : i32, 1 : i32]} : () -> ()
  }) {addressing_model = #spirv.addressing_model<Logical>, memory_model = #spirv.memory_model<GLSL450>, vce_triple = #spirv.vce<v1.0, [Shader], []>} : () -> ()
}) : () -> ()
)mlir";

constexpr std::string_view kFloats = R"mlir(module {
  spirv.module Logical GLSL450 {
    spirv.func @f() "None" {
      %cst_f32 = spirv.Constant 0.899999976 : f32
      %cst_f32_0 = spirv.Constant 0.899999976 : f32
      %cst_f32_1 = spirv.Constant 9.300000e-01 : f32
      %cst_f32_2 = spirv.Constant 2.300000e+00 : f32
      %cst_f64 = spirv.Constant 9.000000e-01 : f64
      %cst_f64_3 = spirv.Constant 0.89999997615814198 : f64
      %cst_f32_4 = spirv.Constant 0x4CEB79A3 : f32
      %cst_f32_5 = spirv.Constant -0.000000e+00 : f32
      %cst_f32_6 = spirv.Constant 9.999940e-41 : f32
      %cst_f64_7 = spirv.Constant 1.000000e+300 : f64
      %cst_f16 = spirv.Constant 9.997550e-02 : f16
      %cst_f16_8 = spirv.Constant 6.550400e+04 : f16
      %cst_f32_9 = spirv.Constant 0x7F800000 : f32
      %cst_f64_10 = spirv.Constant 2.999970e-320 : f64
      %cst_f32_11 = spirv.Constant 1.000000e+10 : f32
      %cst_f32_12 = spirv.Constant 1.000000e-03 : f32
      spirv.Return
    }
  }
}
)mlir";

constexpr std::string_view kLoop =
    R"mlir(spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
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
)mlir";

// Images, Group, dot product, cooperative matrix (NV), INTEL block IO and assume ops.
constexpr std::string_view kOtherOps = R"mlir(module {
  spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Groups, DotProduct, DotProductInput4x8BitPacked, CooperativeMatrixNV, SubgroupBufferBlockIOINTEL, ExpectAssumeKHR, GroupUniformArithmeticKHR], [SPV_KHR_expect_assume, SPV_NV_cooperative_matrix, SPV_INTEL_subgroups, SPV_KHR_uniform_group_instructions, SPV_KHR_integer_dot_product]> {
    spirv.func @f(%arg0: !spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>, %arg1: vector<2xf32>, %arg2: f32, %arg3: i32, %arg4: f32, %arg5: i1, %arg6: !spirv.ptr<i32, StorageBuffer>, %arg7: !spirv.NV.coopmatrix<8x16xi32, Subgroup>, %arg8: !spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba8>) "None" {
      %0 = spirv.ImageDrefGather %arg0 : !spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>, %arg1 : vector<2xf32>, %arg2 : f32  {foo} -> vector<4xf32>
      %1 = spirv.Image {foo} %arg0 : !spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>
      %2 = spirv.ImageQuerySize {foo} %arg8 : !spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba8> -> vector<2xi32>
      %3 = spirv.GroupBroadcast <Workgroup> %arg4, %arg3 {foo} : f32, i32
      %4 = spirv.GroupIAdd <Workgroup> <Reduce> %arg3 {foo} : i32
      %5 = spirv.GroupFMax <Workgroup> <Reduce> %arg4 : f32
      %6 = spirv.KHR.GroupFMul <Workgroup> <Reduce> %arg4 : f32
      %7 = spirv.SDot %arg3, %arg3 {format = #spirv.packed_vector_format<PackedVectorFormat4x8Bit>} : (i32, i32) -> i32
      %8 = spirv.SDotAccSat %arg3, %arg3, %arg3 {format = #spirv.packed_vector_format<PackedVectorFormat4x8Bit>} : (i32, i32, i32) -> i32
      %9 = spirv.NV.CooperativeMatrixLength {foo} : !spirv.NV.coopmatrix<8x16xi32, Subgroup>
      %10 = spirv.NV.CooperativeMatrixLoad %arg6, %arg3, %arg5 : !spirv.ptr<i32, StorageBuffer> as !spirv.NV.coopmatrix<8x16xi32, Subgroup>
      spirv.NV.CooperativeMatrixStore %arg6, %arg7, %arg3, %arg5 : !spirv.ptr<i32, StorageBuffer>, !spirv.NV.coopmatrix<8x16xi32, Subgroup>
      %11 = spirv.INTEL.SubgroupBlockRead %arg6 : i32
      spirv.INTEL.SubgroupBlockWrite %arg6, %arg3 : i32
      spirv.KHR.AssumeTrue %arg5 {foo}
      %12 = spirv.GroupUMin <Subgroup> <Reduce> %arg3 : i32
      %13 = spirv.SUDot %arg3, %arg3 {format = #spirv.packed_vector_format<PackedVectorFormat4x8Bit>} : (i32, i32) -> i32
      %14 = spirv.ImageDrefGather %arg0 : !spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>, %arg1 : vector<2xf32>, %arg2 : f32 ["Bias"] -> vector<4xf32>
      spirv.Return
    }
  }
}
)mlir";

// The same ops with attributes their custom syntax drops.
constexpr std::string_view kOtherOpsGeneric = R"mlir("builtin.module"() ({
  "spirv.module"() ({
    "spirv.func"() ({
    ^bb0(%arg0: !spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>, %arg1: vector<2xf32>, %arg2: f32, %arg3: i32, %arg4: f32, %arg5: i1, %arg6: !spirv.ptr<i32, StorageBuffer>, %arg7: !spirv.NV.coopmatrix<8x16xi32, Subgroup>, %arg8: !spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba8>):
      %0 = "spirv.ImageDrefGather"(%arg0, %arg1, %arg2) {foo} : (!spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>, vector<2xf32>, f32) -> vector<4xf32>
      %1 = "spirv.Image"(%arg0) {foo} : (!spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>) -> !spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>
      %2 = "spirv.ImageQuerySize"(%arg8) {foo} : (!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba8>) -> vector<2xi32>
      %3 = "spirv.GroupBroadcast"(%arg4, %arg3) {execution_scope = #spirv.scope<Workgroup>, foo} : (f32, i32) -> f32
      %4 = "spirv.GroupIAdd"(%arg3) {execution_scope = #spirv.scope<Workgroup>, foo, group_operation = #spirv.group_operation<Reduce>} : (i32) -> i32
      %5 = "spirv.GroupFMax"(%arg4) {execution_scope = #spirv.scope<Workgroup>, group_operation = #spirv.group_operation<Reduce>} : (f32) -> f32
      %6 = "spirv.KHR.GroupFMul"(%arg4) {execution_scope = #spirv.scope<Workgroup>, group_operation = #spirv.group_operation<Reduce>} : (f32) -> f32
      %7 = "spirv.SDot"(%arg3, %arg3) {format = #spirv.packed_vector_format<PackedVectorFormat4x8Bit>} : (i32, i32) -> i32
      %8 = "spirv.SDotAccSat"(%arg3, %arg3, %arg3) {format = #spirv.packed_vector_format<PackedVectorFormat4x8Bit>} : (i32, i32, i32) -> i32
      %9 = "spirv.NV.CooperativeMatrixLength"() {cooperative_matrix_type = !spirv.NV.coopmatrix<8x16xi32, Subgroup>, foo} : () -> i32
      %10 = "spirv.NV.CooperativeMatrixLoad"(%arg6, %arg3, %arg5) {foo} : (!spirv.ptr<i32, StorageBuffer>, i32, i1) -> !spirv.NV.coopmatrix<8x16xi32, Subgroup>
      "spirv.NV.CooperativeMatrixStore"(%arg6, %arg7, %arg3, %arg5) {foo} : (!spirv.ptr<i32, StorageBuffer>, !spirv.NV.coopmatrix<8x16xi32, Subgroup>, i32, i1) -> ()
      %11 = "spirv.INTEL.SubgroupBlockRead"(%arg6) {foo} : (!spirv.ptr<i32, StorageBuffer>) -> i32
      "spirv.INTEL.SubgroupBlockWrite"(%arg6, %arg3) {foo} : (!spirv.ptr<i32, StorageBuffer>, i32) -> ()
      "spirv.KHR.AssumeTrue"(%arg5) {foo} : (i1) -> ()
      %12 = "spirv.GroupUMin"(%arg3) {execution_scope = #spirv.scope<Subgroup>, group_operation = #spirv.group_operation<Reduce>} : (i32) -> i32
      %13 = "spirv.SUDot"(%arg3, %arg3) {format = #spirv.packed_vector_format<PackedVectorFormat4x8Bit>} : (i32, i32) -> i32
      %14 = "spirv.ImageDrefGather"(%arg0, %arg1, %arg2) {imageoperands = #spirv.image_operands<Bias>} : (!spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>, vector<2xf32>, f32) -> vector<4xf32>
      "spirv.Return"() : () -> ()
    }) {function_control = #spirv.function_control<None>, function_type = (!spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>, vector<2xf32>, f32, i32, f32, i1, !spirv.ptr<i32, StorageBuffer>, !spirv.NV.coopmatrix<8x16xi32, Subgroup>, !spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba8>) -> (), sym_name = "f"} : () -> ()
  }) {addressing_model = #spirv.addressing_model<Logical>, memory_model = #spirv.memory_model<GLSL450>, vce_triple = #spirv.vce<v1.0, [Shader, Groups, DotProduct, DotProductInput4x8BitPacked, CooperativeMatrixNV, SubgroupBufferBlockIOINTEL, ExpectAssumeKHR, GroupUniformArithmeticKHR], [SPV_KHR_expect_assume, SPV_NV_cooperative_matrix, SPV_INTEL_subgroups, SPV_KHR_uniform_group_instructions, SPV_KHR_integer_dot_product]>} : () -> ()
}) : () -> ()
)mlir";

// A named module with attributes, kernel ops, constants of every kind and their names, ops
// MLIR 16 only has in generic form, loop control and branch weights, calls.
constexpr std::string_view kKernel = R"mlir(module {
  spirv.module @named Physical64 OpenCL requires #spirv.vce<v1.0, [Kernel, Addresses, GroupNonUniformArithmetic, AtomicFloat32AddEXT, Int64, GenericPointer], [SPV_EXT_shader_atomic_float_add]> attributes {foo = "bar"} {
    spirv.GlobalVariable @v bind(1, 2) {location = 3 : i32} : !spirv.ptr<f32, CrossWorkgroup>
    spirv.GlobalVariable @w built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi64>, Input>
    spirv.SpecConstant @sc = 1.500000e+00 : f32
    spirv.func @f(%arg0: i32, %arg1: i1, %arg2: f32, %arg3: !spirv.ptr<f32, CrossWorkgroup>, %arg4: !spirv.ptr<f32, Generic>, %arg5: i64, %arg6: vector<2xi1>, %arg7: vector<2xf32>) "Inline" {
      %0 = spirv.GroupNonUniformBitwiseAnd "Subgroup" "Reduce" %arg0 : i32
      %1 = spirv.GroupNonUniformLogicalAnd "Subgroup" "InclusiveScan" %arg1 : i1
      %2 = spirv.GroupNonUniformFMul "Workgroup" "ExclusiveScan" %arg2 : f32
      %3 = spirv.EXT.AtomicFAdd <Device> <AcquireRelease> %arg3, %arg2 : !spirv.ptr<f32, CrossWorkgroup>
      %4 = spirv.ConvertPtrToU %arg3 : !spirv.ptr<f32, CrossWorkgroup> to i64
      %5 = spirv.ConvertUToPtr %arg5 {foo} : i64 to !spirv.ptr<f32, CrossWorkgroup>
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
)mlir";

constexpr std::string_view kMulAdd = R"mlir(module {
  spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, CooperativeMatrixNV], [SPV_NV_cooperative_matrix]> {
    spirv.func @f(%arg0: !spirv.NV.coopmatrix<8x16xi32, Subgroup>, %arg1: !spirv.NV.coopmatrix<16x8xi32, Subgroup>, %arg2: !spirv.NV.coopmatrix<8x8xi32, Subgroup>) "None" {
      %0 = spirv.NV.CooperativeMatrixMulAdd %arg0, %arg1, %arg2 {foo} : !spirv.NV.coopmatrix<8x16xi32, Subgroup>, !spirv.NV.coopmatrix<16x8xi32, Subgroup> -> !spirv.NV.coopmatrix<8x8xi32, Subgroup>
      spirv.Return
    }
  }
}
)mlir";

// Seed ops that MLIR 16 lacks, in the seed's syntax.
constexpr std::string_view kNewerOps = R"mlir(module {
  spirv.module Physical64 OpenCL requires #spirv.vce<v1.0, [Kernel, Addresses, Int8], []> {
    spirv.func @f(%arg0: f32, %arg1: !spirv.ptr<i8, UniformConstant>, %arg2: i32, %arg3: vector<2xf32>) "None" {
      %0 = spirv.CL.acos %arg0 : f32
      %1 = spirv.CL.atan2 %arg0, %arg0 : f32
      %2 = spirv.CL.mix %arg3, %arg3, %arg3 {foo} : vector<2xf32>
      %3 = spirv.CL.printf %arg1, %arg2, %arg0 : (!spirv.ptr<i8, UniformConstant>, (i32, f32)) -> i32
      %4 = spirv.CL.printf %arg1 {foo} : (!spirv.ptr<i8, UniformConstant>, ()) -> i32
      %5 = spirv.Dot %arg3, %arg3 {foo} : vector<2xf32> -> f32
      %6 = spirv.GroupNonUniformBitwiseXor "Workgroup" "ExclusiveScan" %arg2 : i32
      spirv.Return
    }
  }
}
)mlir";

PrintOptions wrapped(bool generic = false) {
  PrintOptions o;
  o.generic = generic;
  o.builtinModule = true;
  return o;
}

std::string roundTrip(std::string_view text, const PrintOptions &options = {}) {
  Context ctx;
  Expected<OwningOp> op = parse(ctx, text);
  if (!op)
    return "error: " + op.error().format();
  return toString(**op, options);
}

std::string errorOf(std::string_view text) {
  Context ctx;
  Expected<OwningOp> op = parse(ctx, text);
  if (op)
    return "parsed";
  return op.error().formatWithNotes("t");
}

TEST(DialectText, CustomFormsPrintBackUnchanged) {
  EXPECT_EQ(roundTrip(kCustomOps, wrapped()), kCustomOps);
  EXPECT_EQ(roundTrip(kMoreCustomOps, wrapped()), kMoreCustomOps);
  EXPECT_EQ(roundTrip(kFloats, wrapped()), kFloats);
  EXPECT_EQ(roundTrip(kOtherOps, wrapped()), kOtherOps);
  EXPECT_EQ(roundTrip(kKernel, wrapped()), kKernel);
  EXPECT_EQ(roundTrip(kMulAdd, wrapped()), kMulAdd);
}

TEST(DialectText, AtomicsPrintScopeAndSemanticsInAngleBracketsOrQuotedForMlir16) {
  constexpr std::string_view kAtomics = R"mlir(module {
  spirv.func @f(%arg0: !spirv.ptr<i32, Workgroup>, %arg1: i32) "None" {
    %0 = spirv.AtomicIAdd <Workgroup> <Acquire|UniformMemory> %arg0, %arg1 : !spirv.ptr<i32, Workgroup>
    %1 = spirv.AtomicCompareExchangeWeak <Device> <Release> <Acquire> %arg0, %arg1, %arg1 : !spirv.ptr<i32, Workgroup>
    spirv.Return
  }
}
)mlir";
  EXPECT_EQ(roundTrip(kAtomics), kAtomics);
  // MLIR 16 (and 17) print them in quotes; either spelling reads.
  PrintOptions mlir16;
  mlir16.version = MlirVersion::Mlir16;
  std::string old = roundTrip(kAtomics, mlir16);
  EXPECT_NE(old.find("spirv.AtomicIAdd \"Workgroup\" \"Acquire|UniformMemory\" %arg0, %arg1"),
            std::string::npos)
      << old;
  EXPECT_NE(old.find("spirv.AtomicCompareExchangeWeak \"Device\" \"Release\" \"Acquire\" %arg0"),
            std::string::npos)
      << old;
  EXPECT_EQ(roundTrip(old), kAtomics);
}

TEST(DialectText, GenericCastToPtrExplicitTakesItsStorageClassFromTheResult) {
  // MLIR's op has no attribute for the instruction's Storage operand: the custom form leaves
  // it out, and the parser takes it from the result pointer.
  constexpr std::string_view kCast = R"mlir(spirv.func @f(%arg0: !spirv.ptr<i32, Generic>) "None" {
  %0 = spirv.GenericCastToPtrExplicit %arg0 : !spirv.ptr<i32, Generic> to !spirv.ptr<i32, Workgroup>
  spirv.Return
}
)mlir";
  Context ctx;
  Expected<OwningOp> op = parse(ctx, kCast);
  ASSERT_TRUE(op) << op.error().format();
  const Operation *cast = nullptr;
  walk(op->get(), [&](Operation *o) {
    if (o->name() == "spirv.GenericCastToPtrExplicit")
      cast = o;
  });
  ASSERT_NE(cast, nullptr);
  // No attribute: the storage class is the result pointer's (OperandMapping::ResultStorage).
  EXPECT_FALSE(cast->attr("storage_class"));
  EXPECT_NE(toString(**op).find("%0 = spirv.GenericCastToPtrExplicit %arg0 : !spirv.ptr<i32, "
                                "Generic> to !spirv.ptr<i32, Workgroup>\n"),
            std::string::npos);
}

TEST(DialectText, SeedSyntaxOfOpsNewerThanMlir16) {
  EXPECT_EQ(roundTrip(kNewerOps, wrapped()), kNewerOps);
  // --mlir16 writes them as mlir-translate-16 does: in the generic form.
  PrintOptions mlir16 = wrapped();
  mlir16.version = MlirVersion::Mlir16;
  std::string text = roundTrip(kNewerOps, mlir16);
  EXPECT_NE(
      text.find(R"(%5 = "spirv.Dot"(%arg3, %arg3) {foo} : (vector<2xf32>, vector<2xf32>) -> f32)"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find(R"(%0 = "spirv.CL.acos"(%arg0) : (f32) -> f32)"), std::string::npos) << text;
  EXPECT_EQ(roundTrip(text, wrapped()), kNewerOps);
  // Operand counts and types the syntax cannot express are errors at the op.
  EXPECT_EQ(errorOf("spirv.module Logical GLSL450 {\n  %0 = spirv.Dot %a : f32 -> f32\n}"),
            "t:2:21: error: expected ','");
  EXPECT_EQ(errorOf("spirv.module Physical64 OpenCL {\n  %0 = spirv.CL.printf %a, %b : "
                    "(!spirv.ptr<i8, UniformConstant>, ()) -> i32\n}"),
            "t:2:8: error: wrong number of types");
}

TEST(DialectText, NegationsTakeAttributesBeforeTheType) {
  // MLIR 16 declares FNegate and SNegate with the attributes before the type (the other unary
  // ops after it); the other place is read too.
  std::string after(kMoreCustomOps);
  for (auto [from, to] : {std::pair<std::string_view, std::string_view>{
                              "SNegate %arg3 {foo} : i32", "SNegate %arg3 : i32 {foo}"},
                          {"FNegate %arg0 {foo} : f32", "FNegate %arg0 : f32 {foo}"}}) {
    size_t at = after.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    after.replace(at, from.size(), to);
  }
  ASSERT_NE(after, kMoreCustomOps);
  EXPECT_EQ(roundTrip(after, wrapped()), kMoreCustomOps);
}

TEST(DialectText, ModuleAsMlirTranslatePrintsIt) {
  // Loops, block arguments, predecessor comments, constant and address names with their
  // conflict suffixes, names that restart in a nested region; %_40... is spire's valid spelling
  // of mlir-translate-16's %40entryPointOutput_addr.
  EXPECT_EQ(roundTrip(kLoop), kLoop);
  // mlir-translate-16's invalid name is read too.
  std::string invalid(kLoop);
  for (size_t at; (at = invalid.find("%_40")) != std::string::npos;)
    invalid.erase(at + 1, 1);
  EXPECT_EQ(roundTrip(invalid), kLoop);
}

TEST(DialectText, ConflictSuffixesRestartInSiblingRegions) {
  // A name taken in a region gets the next `_N`; a nested region continues from the N its
  // enclosing region reached, and its sibling starts from the same N again (the first's names
  // are no longer taken there), as numbered values do.
  constexpr std::string_view kNested = R"mlir(spirv.module Logical GLSL450 {
  spirv.func @f(%arg0: i1) -> i32 "None" {
    %cst7_i32 = spirv.Constant 7 : i32
    %cst7_i32_0 = spirv.Constant 7 : i32
    spirv.mlir.selection {
      spirv.BranchConditional %arg0, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %cst7_i32_1 = spirv.Constant 7 : i32
      %cst7_i32_2 = spirv.Constant 7 : i32
      %1 = spirv.IAdd %cst7_i32_1, %cst7_i32_2 : i32
      spirv.Branch ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      spirv.mlir.merge
    }
    spirv.mlir.selection {
      spirv.BranchConditional %arg0, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %cst7_i32_1 = spirv.Constant 7 : i32
      %1 = spirv.IAdd %cst7_i32_1, %cst7_i32 : i32
      spirv.Branch ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      spirv.mlir.merge
    }
    %0 = spirv.IAdd %cst7_i32, %cst7_i32_0 : i32
    spirv.ReturnValue %0 : i32
  }
}
)mlir";
  EXPECT_EQ(roundTrip(kNested), kNested);
}

TEST(DialectText, GenericFormIsLossless) {
  EXPECT_EQ(roundTrip(kGenericOps, wrapped(true)), kGenericOps);
  // The custom form keeps what the IR holds: ops whose attributes MLIR's custom syntax would
  // drop print in generic form.
  std::string custom = roundTrip(kGenericOps, wrapped());
  EXPECT_NE(custom.find("\"spirv.CompositeExtract\"(%arg1) {indices = [1 : i32], "
                        "relaxed_precision}"),
            std::string::npos);
  EXPECT_EQ(roundTrip(custom, wrapped(true)), kGenericOps);
  EXPECT_EQ(roundTrip(kOtherOpsGeneric, wrapped(true)), kOtherOpsGeneric);
  EXPECT_EQ(roundTrip(roundTrip(kOtherOpsGeneric, wrapped()), wrapped(true)), kOtherOpsGeneric);
  // Generic text of a custom module parses back to the same custom text.
  EXPECT_EQ(roundTrip(roundTrip(kLoop, wrapped(true))), kLoop);
  EXPECT_EQ(roundTrip(roundTrip(kCustomOps, wrapped(true)), wrapped()), kCustomOps);
}

TEST(DialectText, EveryOpHasAGenericForm) {
  for (const OpInfo *info : allOps()) {
    if (info->name == "spirv.module")
      continue;
    std::string text = "\"spirv.module\"() ({\n  \"" + std::string(info->name) +
                       "\"() : () -> ()\n}) {addressing_model = #spirv.addressing_model<Logical>, "
                       "memory_model = #spirv.memory_model<GLSL450>} : () -> ()\n";
    // A name may read as the dialect's op that stands for the instruction
    // (spirv.ExecutionModeId is spirv.ExecutionMode): that op prints.
    std::string expected = text;
    if (std::string_view reads = findOp(info->name)->name; reads != info->name)
      expected.replace(expected.find(info->name), info->name.size(), reads);
    PrintOptions generic;
    generic.generic = true;
    EXPECT_EQ(roundTrip(text, generic), expected) << info->name;
    // The custom printer falls back to the generic form for what its syntax cannot show.
    EXPECT_EQ(roundTrip(roundTrip(text), generic), expected) << info->name;
  }
}

TEST(DialectText, OperandsAndSuccessorsInGenericForm) {
  constexpr std::string_view text = R"mlir("spirv.module"() ({
  "spirv.func"() ({
  ^bb0(%arg0: i1, %arg1: f32):
    "spirv.BranchConditional"(%arg0, %arg1)[^bb1, ^bb2] {operand_segment_sizes = array<i32: 1, 1, 0>} : (i1, f32) -> ()
  ^bb1(%0: f32):  // 2 preds: ^bb0, ^bb1
    "spirv.Branch"(%0)[^bb1] : (f32) -> ()
  ^bb2:  // pred: ^bb0
    "spirv.Return"() : () -> ()
  ^bb3:  // no predecessors
    "spirv.Unreachable"() : () -> ()
  }) {function_control = #spirv.function_control<None>, function_type = (i1, f32) -> (), sym_name = "f"} : () -> ()
}) {addressing_model = #spirv.addressing_model<Logical>, memory_model = #spirv.memory_model<GLSL450>} : () -> ()
)mlir";
  PrintOptions generic;
  generic.generic = true;
  EXPECT_EQ(roundTrip(text, generic), text);
  Context ctx;
  Expected<OwningOp> op = parse(ctx, text);
  ASSERT_TRUE(op);
  Block *entry = (*op)->region().front()->front()->region().front();
  Operation *br = entry->back();
  ASSERT_EQ(br->successors().size(), 2u);
  EXPECT_EQ(br->numOrdinaryOperands(), 1u);
  EXPECT_EQ(br->successors()[0].numOperands, 1u);
  EXPECT_EQ(br->successors()[1].numOperands, 0u);
  // operand_segment_sizes is derived, not stored.
  EXPECT_FALSE(br->attr("operand_segment_sizes"));
  EXPECT_EQ(roundTrip(text), R"mlir(spirv.module Logical GLSL450 {
  spirv.func @f(%arg0: i1, %arg1: f32) "None" {
    spirv.BranchConditional %arg0, ^bb1(%arg1 : f32), ^bb2
  ^bb1(%0: f32):  // 2 preds: ^bb0, ^bb1
    spirv.Branch ^bb1(%0 : f32)
  ^bb2:  // pred: ^bb0
    spirv.Return
  ^bb3:  // no predecessors
    spirv.Unreachable
  }
}
)mlir");
}

TEST(DialectText, ForwardReferencesAndWrappers) {
  // A value used before the op that defines it (a later block), with the type the use gives.
  constexpr std::string_view text = R"mlir(spirv.module Logical GLSL450 {
  spirv.func @f(%arg0: i32) -> i32 "None" {
    spirv.Branch ^bb2
  ^bb1:  // pred: ^bb2
    %0 = spirv.IAdd %1, %1 : i32
    spirv.ReturnValue %0 : i32
  ^bb2:  // pred: ^bb0
    %1 = spirv.IMul %arg0, %arg0 : i32
    spirv.Branch ^bb1
  }
}
)mlir";
  EXPECT_EQ(roundTrip(text), text);
  std::string inModule = "module {\n" + std::string(text) + "}\n";
  EXPECT_EQ(roundTrip(inModule), text);
  std::string generic = roundTrip(text, wrapped(true));
  EXPECT_EQ(generic.rfind("\"builtin.module\"() ({\n", 0), 0u);
  EXPECT_EQ(roundTrip(generic), text);
}

TEST(DialectText, ErrorsNameLineAndColumn) {
  EXPECT_EQ(errorOf(""), "t:1:1: error: the text is empty: it holds no op");
  EXPECT_EQ(errorOf("\n// nothing\n"),
            "t:3:1: error: the text holds no op, only whitespace and comments");
  EXPECT_EQ(errorOf("spirv.module Logical GLSL450 {\n  spirv.Bogus\n}"),
            "t:2:3: error: unknown op 'spirv.Bogus'");
  EXPECT_EQ(errorOf("spirv.module Logical Foo {\n}"),
            "t:1:22: error: custom op 'spirv.module' invalid memory_model attribute "
            "specification: Foo");
  EXPECT_EQ(errorOf("spirv.module Logical GLSL450 {\n  spirv.func @f() \"None\" {\n"
                    "    %0 = spirv.IAdd %1, %1 : i32\n    spirv.Return\n  }\n}"),
            "t:3:21: error: use of undefined value %1");
  EXPECT_EQ(errorOf("spirv.module Logical GLSL450 {\n  spirv.func @f() \"None\" {\n"
                    "    spirv.Branch ^bb7\n  }\n}"),
            "t:3:18: error: reference to an undefined block ^bb7");
  EXPECT_EQ(errorOf("spirv.module Logical GLSL450 {\n  spirv.func @f(%arg0: i32) \"None\" {\n"
                    "    %0 = spirv.FAdd %arg0, %arg0 : f32\n  }\n}"),
            "t:3:21: error: use of value '%arg0' expects different type than prior uses: "
            "'f32' vs 'i32'\nt:2:17: note: prior use here");
  // A forward reference: the note points at the first use; a definition of another type than
  // its uses, at the use.
  EXPECT_EQ(errorOf("spirv.module Logical GLSL450 {\n  spirv.func @f() \"None\" {\n"
                    "    spirv.Branch ^bb2\n  ^bb1:\n    %0 = spirv.IAdd %1, %1 : i32\n"
                    "    %2 = spirv.FAdd %1, %1 : f32\n    spirv.Return\n  ^bb2:\n"
                    "    spirv.Branch ^bb1\n  }\n}"),
            "t:6:21: error: use of value '%1' expects different type than prior uses: 'f32' vs "
            "'i32'\nt:5:21: note: prior use here");
  EXPECT_EQ(errorOf("spirv.module Logical GLSL450 {\n  spirv.func @f() \"None\" {\n"
                    "    spirv.Branch ^bb2\n  ^bb1:\n    %0 = spirv.IAdd %1, %1 : i32\n"
                    "    spirv.Return\n  ^bb2:\n    %1 = spirv.Undef : f32\n"
                    "    spirv.Branch ^bb1\n  }\n}"),
            "t:8:5: error: definition of SSA value '%1#0' has type 'f32'\nt:5:21: note: "
            "previously used here with type 'i32'");
  EXPECT_EQ(errorOf("spirv.module Logical GLSL450 {\n  spirv.GlobalVariable @v : !spirv.ptr<f32, "
                    "Nowhere>\n}"),
            "t:2:45: error: expected a storage class");
  EXPECT_EQ(errorOf("spirv.module Logical GLSL450 {\n  spirv.SpecConstant @s = \"unterminated\n}"),
            "t:2:27: error: unterminated string");
  // Several top-level ops may follow each other (MLIR's implicit module).
  EXPECT_EQ(errorOf("spirv.module Logical GLSL450 {\n  spirv.Unreachable\n} extra"),
            "t:3:3: error: unknown op 'extra'");
  EXPECT_EQ(errorOf("spirv.module Logical GLSL450 {\n  \"spirv.Undef\"() : () -> (i32)\n}"),
            "t:2:3: error: the op has 1 results, 0 are named");
  EXPECT_EQ(errorOf("spirv.module Logical GLSL450 {\n  %0 = spirv.Undef : i32\n  %0 = "
                    "spirv.Undef : i32\n}"),
            "t:3:3: error: redefinition of %0");
  EXPECT_EQ(errorOf("spirv.module Logical GLSL450 {\n  spirv.GroupNonUniformBroadcastFirst\n}"),
            "t:2:3: error: 'spirv.GroupNonUniformBroadcastFirst' has no custom syntax; write it "
            "in the generic form");
  EXPECT_EQ(errorOf("\"spirv.module\"() ({\n  \"spirv.Bogus\"() : () -> ()\n}) : () -> ()"),
            "t:2:3: error: unregistered operation 'spirv.Bogus' found in dialect ('spirv') that "
            "does not allow unknown operations");
  EXPECT_EQ(errorOf("\"spirv.module\"() ({\n  %0 = \"spirv.Undef\"() : () -> i32\n  "
                    "\"spirv.Store\"(%0) : (i32, i32) -> ()\n}) : () -> ()"),
            "t:3:22: error: 1 operands but 2 operand types");
  EXPECT_EQ(errorOf("\"spirv.module\"() ({\n  \"spirv.Nop\"() : i32\n}) : () -> ()"),
            "t:2:18: error: expected the op's function type");
  EXPECT_EQ(errorOf("\"spirv.module\"() ({\n}) {a = #spirv.bogus<X>} : () -> ()"),
            "t:2:9: error: unknown attribute #spirv.bogus");
  EXPECT_EQ(errorOf("\"spirv.module\"() ({\n}) {a = 1, a = 2} : () -> ()"),
            "t:2:12: error: attribute 'a' given twice");
  EXPECT_EQ(errorOf("\"spirv.module\"() ({\n}) {a = dense<[1, 2]> : vector<3xi32>} : () -> ()"),
            "t:2:24: error: the dense attribute has 2 elements, its type 3");
  EXPECT_EQ(errorOf("\"spirv.module\"() ({\n}) {a = 1.5 : i32} : () -> ()"),
            "t:2:9: error: expected an integer literal");
  EXPECT_EQ(errorOf("\"spirv.module\"() ({\n}) {a = #spirv.vce<v1.0, [Bogus], []>} : () -> ()"),
            "t:2:27: error: unknown Capability 'Bogus'");
  EXPECT_EQ(errorOf("spirv.module Logical GLSL450 {\n  spirv.func @f() \"None\" {\n    %0 = "
                    "spirv.Constant 1 : i32\n    %1 = spirv.AccessChain %0[%0] : i32, i32\n  }\n}"),
            "t:4:36: error: expected a pointer to composite type, but provided 'i32'");
  // MLIR's parser wants an index (an access chain without, which SPIR-V allows, prints generic).
  EXPECT_EQ(errorOf("spirv.module Logical GLSL450 {\n  spirv.func @f(%arg0: !spirv.ptr<i32, "
                    "Function>) \"None\" {\n    %1 = spirv.AccessChain %arg0[] : !spirv.ptr<i32, "
                    "Function>, i32\n  }\n}"),
            "t:3:10: error: 'spirv.AccessChain' op expected at least one index");
  EXPECT_EQ(
      errorOf("spirv.module Logical GLSL450 {\n  spirv.func @f() \"Bogus\" {\n  }\n}"),
      "t:2:19: error: custom op 'spirv.func' invalid function_control attribute specification: "
      "\"Bogus\"");
  // Deep nesting ends in an error, not a stack overflow.
  std::string deep = "spirv.module Logical GLSL450 {\n";
  for (int i = 0; i < 1000; ++i)
    deep += "spirv.mlir.loop {\n";
  EXPECT_NE(errorOf(deep).find("nested too deeply"), std::string::npos);
  std::string deepAttr = "spirv.module Logical GLSL450 attributes {a = ";
  for (int i = 0; i < 100000; ++i)
    deepAttr += '[';
  EXPECT_NE(errorOf(deepAttr).find("nested too deeply"), std::string::npos);
}

TEST(DialectText, EscapesUnsignedLocationsAndResultGroups) {
  // As mlir-opt-16 prints it: quotes in symbols as \22, the value name escaped, unsigned
  // integers above INT64_MAX, locations dropped.
  EXPECT_EQ(roundTrip(R"mlir(spirv.module Logical GLSL450 {
  spirv.GlobalVariable @"a\"b\\c" : !spirv.ptr<ui64, Private>
  spirv.func @f() "None" {
    %0 = "spirv.Undef"() : () -> ui64 loc("x.c":3:4)
    %c = spirv.Constant 18446744073709551615 : ui64
    %1 = spirv.mlir.addressof @"a\"b\\c" : !spirv.ptr<ui64, Private>
    spirv.Return
  }
}
)mlir"),
            R"mlir(spirv.module Logical GLSL450 {
  spirv.GlobalVariable @"a\22b\\c" : !spirv.ptr<ui64, Private>
  spirv.func @f() "None" {
    %0 = spirv.Undef : ui64
    %cst18446744073709551615_ui64 = spirv.Constant 18446744073709551615 : ui64
    %a22b5Cc_addr = spirv.mlir.addressof @"a\22b\\c" : !spirv.ptr<ui64, Private>
    spirv.Return
  }
}
)mlir");
  // Results in a group: %0:2 and %0#1.
  constexpr std::string_view grouped = R"mlir("builtin.module"() ({
  "spirv.module"() ({
    "spirv.func"() ({
      %0:2 = "spirv.Nop"() : () -> (i32, f32)
      %1 = "spirv.IAdd"(%0#0, %0#0) : (i32, i32) -> i32
      "spirv.Nop"(%0#1) : (f32) -> ()
      "spirv.Return"() : () -> ()
    }) {function_control = #spirv.function_control<None>, function_type = () -> (), sym_name = "f"} : () -> ()
  }) {addressing_model = #spirv.addressing_model<Logical>, memory_model = #spirv.memory_model<GLSL450>} : () -> ()
}) : () -> ()
)mlir";
  EXPECT_EQ(roundTrip(grouped, wrapped(true)), grouped);
  EXPECT_EQ(roundTrip(roundTrip(grouped), wrapped(true)), grouped);
}

TEST(DialectText, BuiltOpsPrint) {
  // Names come from the IR: a constant's value and type, a variable's symbol (escaped, with a
  // '_' in front where the escape starts with a digit).
  Context ctx;
  OperationState ms(&ops::module());
  ms.addAttribute(ctx, "addressing_model",
                  attr::enumerant(ctx, grammar::OperandKind::AddressingModel, 0));
  ms.addAttribute(ctx, "memory_model", attr::enumerant(ctx, grammar::OperandKind::MemoryModel, 1));
  ms.numRegions = 1;
  OwningOp module(Operation::create(std::move(ms)));
  Block *body = module->region().addBlock();
  OperationState fs(&ops::func());
  fs.addAttribute(ctx, "sym_name", attr::string(ctx, "main"));
  fs.addAttribute(ctx, "function_type", attr::type(ctx, ctx.function({}, {})));
  fs.addAttribute(ctx, "function_control",
                  attr::enumerant(ctx, grammar::OperandKind::FunctionControl, 0));
  fs.numRegions = 1;
  Operation *fn = Operation::create(std::move(fs));
  body->push_back(fn);
  Block *entry = fn->region().addBlock();
  Type i32 = ctx.integer(32, Signedness::Signed);
  for (int64_t v : {-3, -3, 7}) {
    OperationState cs(&ops::constant());
    cs.addAttribute(ctx, "value", attr::integer(ctx, i32, v));
    cs.resultTypes.push_back(i32);
    entry->push_back(Operation::create(std::move(cs)));
  }
  OperationState as(&ops::addressOf());
  as.addAttribute(ctx, "variable", attr::symbolRef(ctx, "@out"));
  as.resultTypes.push_back(ctx.pointer(i32, 3));
  entry->push_back(Operation::create(std::move(as)));
  OperationState rs(findOp("spirv.Return"));
  entry->push_back(Operation::create(std::move(rs)));
  EXPECT_EQ(toString(*module), R"mlir(spirv.module Logical GLSL450 {
  spirv.func @main() "None" {
    %cst-3_si32 = spirv.Constant -3 : si32
    %cst-3_si32_0 = spirv.Constant -3 : si32
    %cst7_si32 = spirv.Constant 7 : si32
    %_40out_addr = spirv.mlir.addressof @"@out" : !spirv.ptr<si32, Output>
    spirv.Return
  }
}
)mlir");
}

TEST(DialectText, IndexingErrorsSayWhy) {
  auto extract = [](std::string_view type, std::string_view index) {
    return errorOf("spirv.module Logical GLSL450 {\n  spirv.func @f(%arg0: " + std::string(type) +
                   ") \"None\" {\n    %0 = spirv.CompositeExtract %arg0[" + std::string(index) +
                   "] : " + std::string(type) + "\n    spirv.Return\n  }\n}");
  };
  EXPECT_EQ(extract("vector<2xf32>", "1 : i32"), "parsed");
  EXPECT_NE(extract("!spirv.struct<(f32)>", "1 : i32").find("struct index out of range"),
            std::string::npos);
  EXPECT_NE(extract("f32", "0 : i32").find("cannot index into f32"), std::string::npos);
}

// spire's own constructs (ARCHITECTURE.md, deliberate departures from MLIR 16): a module-level
// specialization constant operation, undefined and null parts of constants, a sampler
// initializer, a memory semantics given by an operand, an extended instruction of a set without
// ops, a function as an operand.
constexpr std::string_view kSpireConstructs =
    R"mlir(spirv.module Physical32 OpenCL requires #spirv.vce<v1.0, [Addresses, Linkage, Kernel, DeviceEnqueue], []> {
  spirv.SpecConstant @n = 4 : i32
  "spirv.SpecConstantOperationSymbol"() ({
    %0 = spirv.mlir.referenceof @n : i32
    %cst2_i32 = spirv.Constant 2 : i32
    %1 = spirv.IAdd %0, %cst2_i32 : i32
    spirv.mlir.yield %1 : i32
  }) {sym_name = "len"} : () -> ()
  spirv.GlobalVariable @g : !spirv.ptr<!spirv.array<@len x i32>, Workgroup>
  "spirv.GlobalVariable"() {initializer = [#spirv.undef, #spirv.null], sym_name = "h", type = !spirv.ptr<!spirv.struct<(i32, !spirv.ptr<i32, CrossWorkgroup>)>, CrossWorkgroup>} : () -> ()
  "spirv.GlobalVariable"() {initializer = [#spirv.sampler_addressing_mode<Repeat>, 1 : i32, #spirv.sampler_filter_mode<Linear>], sym_name = "s", type = !spirv.ptr<!spirv.sampler, UniformConstant>} : () -> ()
  spirv.func @f(%arg0: i32, %arg1: f32) "None" {
    "spirv.ControlBarrier"(%arg0) {execution_scope = #spirv.scope<Workgroup>, memory_scope = #spirv.scope<Workgroup>, memory_semantics} : (i32) -> ()
    %0 = "spirv.ExtInst"(%arg1, %arg1, %arg1) {instruction = 1 : i32, set = "SPV_AMD_shader_trinary_minmax"} : (f32, f32, f32) -> f32
    %1 = spirv.mlir.referenceof @f : (i32, f32) -> ()
    %cst_vec_2xi32 = "spirv.Constant"() {value = [#spirv.undef, 1 : i32]} : () -> vector<2xi32>
    %2 = spirv.mlir.referenceof @len : i32
    spirv.Return
  }
}
)mlir";

TEST(DialectText, SpireConstructsPrintBackUnchanged) {
  EXPECT_EQ(roundTrip(kSpireConstructs), kSpireConstructs);
  // And through the generic form.
  EXPECT_EQ(roundTrip(roundTrip(kSpireConstructs, PrintOptions{true})), kSpireConstructs);
  EXPECT_EQ(errorOf("\"spirv.module\"() ({\n}) {a = #spirv.undefined} : () -> ()"),
            "t:2:9: error: unknown attribute #spirv.undefined");
}

} // namespace
} // namespace spire::dialect

namespace spire::dialect {
namespace {

// An access chain into a pointer type with an ArrayStride (as SPIR-V shares one OpTypePointer
// between a variable pointer with a stride and a plain access chain's result): the custom form
// infers the result without the stride, so the op prints in generic form and parses back. So do
// a load and a store through such a pointer, whose custom form names only the pointee.
TEST(DialectText, AccessChainToStridedPointerPrintsGeneric) {
  constexpr std::string_view kStrided =
      R"mlir(spirv.module Logical GLSL450 requires #spirv.vce<v1.4, [Shader, VariablePointers], []> {
  spirv.GlobalVariable @wg : !spirv.ptr<!spirv.array<4 x si32>, Workgroup>
  spirv.func @main() "None" {
    %wg_addr = spirv.mlir.addressof @wg : !spirv.ptr<!spirv.array<4 x si32>, Workgroup>
    %cst0_si32 = spirv.Constant 0 : si32
    %0 = "spirv.AccessChain"(%wg_addr, %cst0_si32) : (!spirv.ptr<!spirv.array<4 x si32>, Workgroup>, si32) -> !spirv.ptr<si32, Workgroup, stride=4>
    %1 = spirv.AccessChain %wg_addr[%cst0_si32] : !spirv.ptr<!spirv.array<4 x si32>, Workgroup>, si32
    %2 = "spirv.Load"(%0) : (!spirv.ptr<si32, Workgroup, stride=4>) -> si32
    "spirv.Store"(%0, %2) : (!spirv.ptr<si32, Workgroup, stride=4>, si32) -> ()
    %3 = spirv.Load "Workgroup" %1 : si32
    spirv.Return
  }
}
)mlir";
  EXPECT_EQ(roundTrip(kStrided), kStrided);
}

TEST(DialectText, AMissingTokenAtTheEndOfALineIsReportedThere) {
  // As MLIR: where the line's last token ends, not at the next line's first token (comment
  // lines between count as blank).
  EXPECT_EQ(errorOf("spirv.func @f(%arg0: i1) \"None\" {\n"
                    "  %0 = spirv.LogicalAnd %arg0, %arg0\n"
                    "  // a comment\n"
                    "  spirv.Return\n}\n"),
            "t:2:37: error: expected ':'");
  // On the same line the next token is where it is missing.
  EXPECT_EQ(errorOf("spirv.func @f(%arg0: i1) \"None\" {\n"
                    "  %0 = spirv.LogicalAnd %arg0, %arg0 i1\n  spirv.Return\n}\n"),
            "t:2:38: error: expected ':'");
}

TEST(DialectText, LinkageAndTargetEnvironmentAttributes) {
  // The linkage name prints bare where it reads back so (as the stored MLIR tests print it),
  // quoted otherwise; both spellings read.
  constexpr std::string_view kText =
      R"(spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Linkage], []> attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, api=Vulkan, ARM:IntegratedGPU, #spirv.resource_limits<max_compute_workgroup_size = [128, 64, 64], subgroup_size = 4>>} {
  spirv.GlobalVariable @v {linkage_attributes = #spirv.linkage_attributes<linkage_name = "a b", linkage_type = <Export>>} : !spirv.ptr<f32, Private>
  spirv.func @f(i8) "Pure" attributes {linkage_attributes = #spirv.linkage_attributes<linkage_name = outside.f, linkage_type = <Import>>}
}
)";
  EXPECT_EQ(roundTrip(kText), kText);
  std::string quoted(kText);
  quoted.replace(quoted.find("outside.f"), 9, "\"outside.f\"");
  EXPECT_EQ(roundTrip(quoted), kText);
  // MLIR 16 has no such attribute: an array of the name and the type, which reads back.
  PrintOptions mlir16;
  mlir16.version = MlirVersion::Mlir16;
  std::string old = roundTrip(kText, mlir16);
  EXPECT_NE(old.find("{linkage_attributes = [\"outside.f\", #spirv.linkage_type<Import>]}"),
            std::string::npos)
      << old;
  EXPECT_EQ(roundTrip(old), kText);
  EXPECT_EQ(roundTrip("spirv.module Logical GLSL450 attributes {spirv.target_env = "
                      "#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, "
                      "#spirv.resource_limits<>>} {\n}\n"),
            "spirv.module Logical GLSL450 attributes {spirv.target_env = "
            "#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<>>} {\n}\n");
  EXPECT_EQ(errorOf("spirv.module Logical GLSL450 attributes {a = #spirv.linkage_attributes<"
                    "linkage_name = x, linkage_type = <Nope>>} {\n}\n"),
            "t:1:106: error: expected ::mlir::spirv::LinkageType to be one of: Export, Import, "
            "LinkOnceODR, WeakAMD\n"
            "t:1:110: error: failed to parse SPIRV_LinkageTypeAttr parameter 'value' which is to "
            "be a `::mlir::spirv::LinkageType`");
  EXPECT_EQ(errorOf("spirv.module Logical GLSL450 attributes {a = #spirv.target_env<"
                    "#spirv.vce<v1.0, [], []>, <bad>, #spirv.resource_limits<>>} {\n}\n"),
            "t:1:95: error: expected the target's api, device or #spirv.resource_limits");
}

// spire translate writes a large module's text as it prints it: the pieces, each ending at an
// op's end, make exactly the text printed whole.
TEST(DialectText, StreamedPrintingGivesTheSameTextInPieces) {
  std::string text = "spirv.module Logical GLSL450 {\n"
                     "  spirv.func @f(%arg0: f32) -> f32 \"None\" {\n";
  std::string prev = "%arg0";
  for (int i = 0; i < 3000; ++i) {
    text += "    %" + std::to_string(i) + " = spirv.FAdd " + prev + ", %arg0 : f32\n";
    prev = "%" + std::to_string(i);
  }
  text += "    spirv.ReturnValue " + prev + " : f32\n  }\n}\n";
  Context ctx;
  Expected<OwningOp> op = parse(ctx, text);
  ASSERT_TRUE(bool(op)) << op.error().format();
  for (bool generic : {false, true}) {
    PrintOptions options;
    options.generic = generic;
    std::string whole = toString(**op, options);
    std::string joined;
    size_t pieces = 0;
    print(
        **op,
        [&](std::string_view piece) {
          ++pieces;
          EXPECT_FALSE(piece.empty());
          EXPECT_EQ(piece.back(), '\n');
          joined += piece;
        },
        options);
    EXPECT_EQ(joined, whole);
    EXPECT_GT(pieces, 1u) << whole.size() << " bytes in one piece";
  }
}

} // namespace
} // namespace spire::dialect
