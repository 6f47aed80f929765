// Reflection of small modules written in the test: bindings and their kinds, block layouts,
// push constants, specialization constants and local sizes.
#include "spire/run/Reflection.h"

#include "spire/asm/Assembler.h"

#include <gtest/gtest.h>

namespace spire::run {
namespace {

ModuleInterface reflectText(std::string_view text) {
  AssembleOptions o;
  o.version = grammar::makeVersion(1, 3);
  auto words = assemble(text, o);
  EXPECT_TRUE(words.ok()) << (words ? "" : words.error().format());
  auto m = Module::fromWords(*words);
  EXPECT_TRUE(m.ok());
  auto mi = reflect(*m);
  EXPECT_TRUE(mi.ok());
  return *mi;
}

constexpr std::string_view kBuffers = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 8 4 1
OpName %ssbo "data"
OpMemberName %Block 0 "count"
OpMemberName %Block 1 "m"
OpMemberName %Block 2 "values"
OpDecorate %Block BufferBlock
OpMemberDecorate %Block 0 Offset 0
OpMemberDecorate %Block 1 Offset 16
OpMemberDecorate %Block 1 ColMajor
OpMemberDecorate %Block 1 MatrixStride 16
OpMemberDecorate %Block 2 Offset 48
OpDecorate %rta ArrayStride 16
OpDecorate %ssbo DescriptorSet 1
OpDecorate %ssbo Binding 3
OpDecorate %ssbo NonWritable
OpDecorate %Ubo Block
OpMemberDecorate %Ubo 0 Offset 0
OpDecorate %arr ArrayStride 16
OpDecorate %ubo DescriptorSet 0
OpDecorate %ubo Binding 0
OpDecorate %Push Block
OpMemberDecorate %Push 0 Offset 0
OpMemberDecorate %Push 1 Offset 8
OpDecorate %spec SpecId 7
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v4 = OpTypeVector %float 4
%v3 = OpTypeVector %float 3
%m2 = OpTypeMatrix %v3 2
%rta = OpTypeRuntimeArray %v4
%Block = OpTypeStruct %uint %m2 %rta
%ptr = OpTypePointer Uniform %Block
%ssbo = OpVariable %ptr Uniform
%uint_3 = OpConstant %uint 3
%arr = OpTypeArray %v4 %uint_3
%Ubo = OpTypeStruct %arr
%uptr = OpTypePointer Uniform %Ubo
%ubo = OpVariable %uptr Uniform
%Push = OpTypeStruct %float %uint
%pptr = OpTypePointer PushConstant %Push
%push = OpVariable %pptr PushConstant
%spec = OpSpecConstant %uint 42
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
)";

TEST(Reflection, BuffersPushConstantsAndSpecConstants) {
  ModuleInterface mi = reflectText(kBuffers);
  EXPECT_EQ(mi.version, 0x00010300u);
  ASSERT_EQ(mi.entryPoints.size(), 1u);
  EXPECT_EQ(mi.entryPoints[0].model, "GLCompute");
  EXPECT_EQ(mi.entryPoints[0].localSize[0], 8u);
  EXPECT_EQ(mi.entryPoints[0].localSize[1], 4u);
  ASSERT_EQ(mi.resources.size(), 2u);
  const Resource &ubo = mi.resources[0];
  EXPECT_EQ(ubo.kind, DescriptorKind::UniformBuffer);
  EXPECT_EQ(ubo.blockSize, 48u);
  const Resource *ssbo = mi.find(1, 3);
  ASSERT_TRUE(ssbo);
  EXPECT_EQ(ssbo->kind, DescriptorKind::StorageBuffer); // BufferBlock in Uniform
  EXPECT_EQ(ssbo->name, "data");
  EXPECT_TRUE(ssbo->nonWritable);
  EXPECT_EQ(ssbo->blockSize, 48u);
  EXPECT_EQ(ssbo->runtimeStride, 16u);
  ASSERT_EQ(ssbo->members.size(), 3u);
  EXPECT_EQ(ssbo->members[1].type, "mat2x3<float>");
  EXPECT_EQ(ssbo->members[1].size, 32u);
  EXPECT_EQ(ssbo->members[2].type, "vec4<float>[]");
  EXPECT_TRUE(ssbo->members[2].runtimeArray);
  EXPECT_EQ(mi.pushConstantSize, 12u);
  ASSERT_EQ(mi.specConstants.size(), 1u);
  EXPECT_EQ(mi.specConstants[0].id, 7u);
  EXPECT_EQ(mi.specConstants[0].defaultBits, 42u);
  EXPECT_EQ(mi.specConstants[0].type, "uint32");
  std::string text = formatInterface(mi);
  EXPECT_NE(text.find("binding 1:3 storage data size 48 + n*16 (read-only)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("entry point GLCompute main local size 8 4 1"), std::string::npos);
  std::string json = interfaceJson(mi);
  EXPECT_NE(json.find("\"push_constants\":{\"size\":12"), std::string::npos) << json;
}

constexpr std::string_view kImages = R"(
OpCapability Shader
OpCapability ImageBuffer
OpCapability StorageImageExtendedFormats
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpDecorate %wgsize BuiltIn WorkgroupSize
OpDecorate %sx SpecId 0
OpDecorate %img DescriptorSet 0
OpDecorate %img Binding 0
OpDecorate %tex DescriptorSet 0
OpDecorate %tex Binding 1
OpDecorate %smp DescriptorSet 0
OpDecorate %smp Binding 2
OpDecorate %tb DescriptorSet 0
OpDecorate %tb Binding 3
OpDecorate %arr DescriptorSet 2
OpDecorate %arr Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v3u = OpTypeVector %uint 3
%sx = OpSpecConstant %uint 16
%one = OpConstant %uint 1
%wgsize = OpSpecConstantComposite %v3u %sx %one %one
%simg = OpTypeImage %float 2D 0 0 0 2 Rgba32f
%pimg = OpTypePointer UniformConstant %simg
%img = OpVariable %pimg UniformConstant
%timg = OpTypeImage %float 2D 0 0 0 1 Unknown
%stex = OpTypeSampledImage %timg
%ptex = OpTypePointer UniformConstant %stex
%tex = OpVariable %ptex UniformConstant
%sampler = OpTypeSampler
%psmp = OpTypePointer UniformConstant %sampler
%smp = OpVariable %psmp UniformConstant
%bimg = OpTypeImage %uint Buffer 0 0 0 2 R32ui
%pb = OpTypePointer UniformConstant %bimg
%tb = OpVariable %pb UniformConstant
%four = OpConstant %uint 4
%imgs = OpTypeArray %timg %four
%pimgs = OpTypePointer UniformConstant %imgs
%arr = OpVariable %pimgs UniformConstant
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
)";

TEST(Reflection, ImagesSamplersTexelBuffersAndAWorkgroupSizeBuiltIn) {
  ModuleInterface mi = reflectText(kImages);
  ASSERT_EQ(mi.resources.size(), 5u);
  EXPECT_EQ(mi.resources[0].kind, DescriptorKind::StorageImage);
  EXPECT_EQ(mi.resources[0].imageFormat, 109u); // Rgba32f
  EXPECT_EQ(mi.resources[1].kind, DescriptorKind::CombinedImageSampler);
  EXPECT_EQ(mi.resources[2].kind, DescriptorKind::Sampler);
  EXPECT_EQ(mi.resources[3].kind, DescriptorKind::StorageTexelBuffer);
  EXPECT_EQ(mi.resources[3].imageFormat, 98u); // R32ui
  EXPECT_EQ(mi.resources[4].kind, DescriptorKind::SampledImage);
  EXPECT_EQ(mi.resources[4].count, 4u);
  EXPECT_EQ(mi.resources[4].set, 2u);
  ASSERT_EQ(mi.entryPoints.size(), 1u);
  EXPECT_EQ(mi.entryPoints[0].localSize[0], 16u);
  EXPECT_EQ(mi.entryPoints[0].localSizeSpecIds[0], 0u);
  EXPECT_EQ(mi.entryPoints[0].localSizeSpecIds[1], ~0u);
  EXPECT_EQ(mi.capabilities.size(), 3u);
}

TEST(Reflection, SurvivesModulesWithoutAnInterface) {
  ModuleInterface mi = reflectText("OpCapability Shader\nOpCapability Linkage\n"
                                   "OpMemoryModel Logical GLSL450\n");
  EXPECT_TRUE(mi.entryPoints.empty());
  EXPECT_TRUE(mi.resources.empty());
  EXPECT_EQ(mi.pushConstantSize, 0u);
}

TEST(Reflection, StageVariablesHaveTheirLocationShapeAndDecorations) {
  ModuleInterface mi = reflectText(R"(
OpCapability Shader
OpCapability Float64
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %uv %ids %rows %coord %out %unused
OpExecutionMode %main OriginUpperLeft
OpName %uv "uv"
OpDecorate %uv Location 2
OpDecorate %uv Component 2
OpDecorate %uv NoPerspective
OpDecorate %uv Centroid
OpDecorate %ids Location 0
OpDecorate %ids Flat
OpDecorate %rows Location 3
OpDecorate %rows Flat
OpDecorate %coord BuiltIn FragCoord
OpDecorate %out Location 1
OpDecorate %unused Location 5
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%double = OpTypeFloat 64
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%v2float = OpTypeVector %float 2
%v4float = OpTypeVector %float 4
%v3int = OpTypeVector %int 3
%v2double = OpTypeVector %double 2
%m2 = OpTypeMatrix %v2double 2
%uint_3 = OpConstant %uint 3
%arr = OpTypeArray %m2 %uint_3
%p_in_v2float = OpTypePointer Input %v2float
%p_in_v3int = OpTypePointer Input %v3int
%p_in_arr = OpTypePointer Input %arr
%p_in_v4float = OpTypePointer Input %v4float
%p_out_v4float = OpTypePointer Output %v4float
%uv = OpVariable %p_in_v2float Input
%ids = OpVariable %p_in_v3int Input
%rows = OpVariable %p_in_arr Input
%coord = OpVariable %p_in_v4float Input
%out = OpVariable %p_out_v4float Output
%unused = OpVariable %p_in_v2float Input
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  ASSERT_EQ(mi.entryPoints.size(), 1u);
  ASSERT_EQ(mi.entryPoints[0].executionModes.size(), 1u);
  EXPECT_EQ(mi.entryPoints[0].executionModes[0][0],
            uint32_t(grammar::ExecutionMode::OriginUpperLeft));
  std::vector<const StageVariable *> in = mi.stageVariablesOf(mi.entryPoints[0], false);
  std::vector<const StageVariable *> out = mi.stageVariablesOf(mi.entryPoints[0], true);
  ASSERT_EQ(in.size(), 5u);
  ASSERT_EQ(out.size(), 1u);
  const StageVariable &uv = *in[0];
  EXPECT_EQ(uv.name, "uv");
  EXPECT_EQ(uv.location, 2u);
  EXPECT_EQ(uv.component, 2u);
  EXPECT_EQ(uv.kind, ComponentKind::Float);
  EXPECT_EQ(uv.components, 2u);
  EXPECT_TRUE(uv.noPerspective && uv.centroid && !uv.flat && !uv.sample);
  const StageVariable &ids = *in[1];
  EXPECT_EQ(ids.kind, ComponentKind::Int);
  EXPECT_EQ(ids.components, 3u);
  EXPECT_TRUE(ids.flat);
  const StageVariable &rows = *in[2];
  EXPECT_EQ(rows.kind, ComponentKind::Float);
  EXPECT_EQ(rows.width, 64u);
  EXPECT_EQ(rows.columns, 2u);
  EXPECT_EQ(rows.arrayLengths, std::vector<uint32_t>{3});
  EXPECT_EQ(in[3]->builtIn, uint32_t(grammar::BuiltIn::FragCoord));
  EXPECT_EQ(in[3]->location, ~0u);
  EXPECT_EQ(out[0]->location, 1u);
  EXPECT_TRUE(out[0]->output);
}

} // namespace
} // namespace spire::run
