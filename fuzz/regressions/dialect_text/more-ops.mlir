module {
  spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Groups, DotProduct, DotProductInput4x8BitPacked, CooperativeMatrixNV, SubgroupBufferBlockIOINTEL, ExpectAssumeKHR, GroupUniformArithmeticKHR], [SPV_KHR_expect_assume, SPV_NV_cooperative_matrix, SPV_INTEL_subgroups, SPV_KHR_uniform_group_instructions, SPV_KHR_integer_dot_product]> {
    spirv.func @f(%arg0: !spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>, %arg1: vector<2xf32>, %arg2: f32, %arg3: i32, %arg4: f32, %arg5: i1, %arg6: !spirv.ptr<i32, StorageBuffer>, %arg7: !spirv.coopmatrix<8x16xi32, Subgroup>, %arg8: !spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba8>) "None" {
      %0 = spirv.ImageDrefGather %arg0 : !spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>, %arg1 : vector<2xf32>, %arg2 : f32  {foo} -> vector<4xf32>
      %1 = spirv.Image {foo} %arg0 : !spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>
      %2 = spirv.ImageQuerySize {foo} %arg8 : !spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba8> -> vector<2xi32>
      %3 = spirv.GroupBroadcast <Workgroup> %arg4, %arg3 {foo} : f32, i32
      %4 = spirv.GroupIAdd <Workgroup> <Reduce> %arg3 {foo} : i32
      %5 = spirv.GroupFMax <Workgroup> <Reduce> %arg4 : f32
      %6 = spirv.KHR.GroupFMul <Workgroup> <Reduce> %arg4 : f32
      %7 = spirv.SDot %arg3, %arg3 {format = #spirv.packed_vector_format<PackedVectorFormat4x8Bit>} : (i32, i32) -> i32
      %8 = spirv.SDotAccSat %arg3, %arg3, %arg3 {format = #spirv.packed_vector_format<PackedVectorFormat4x8Bit>} : (i32, i32, i32) -> i32
      %9 = spirv.NV.CooperativeMatrixLength {foo} : !spirv.coopmatrix<8x16xi32, Subgroup>
      %10 = spirv.NV.CooperativeMatrixLoad %arg6, %arg3, %arg5 : !spirv.ptr<i32, StorageBuffer> as !spirv.coopmatrix<8x16xi32, Subgroup>
      spirv.NV.CooperativeMatrixStore %arg6, %arg7, %arg3, %arg5 : !spirv.ptr<i32, StorageBuffer>, !spirv.coopmatrix<8x16xi32, Subgroup>
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

