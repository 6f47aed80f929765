"builtin.module"() ({
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
      "spirv.BranchConditional"(%arg4, %arg0, %arg3)[^bb0, ^bb2] {branch_weights = [1 : i32, 2 : i32], operand_segment_oizes = array<i32: 1, 1, 1>} : (i1, f32, i32) -> ()
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

