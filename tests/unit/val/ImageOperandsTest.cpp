// Per-instruction rules of images: OpImageTexelPointer (3.32.8) and the image operands of
// sampling, gathering, fetching, reading and writing (3.14).
#include "ValTestUtil.h"

namespace spire::val {
namespace {

// A compute shader with a sampled 2D image (%s, %i its image), a sampled cube image (%cs), a
// 2D storage image of R32ui (%si, %storage) and a multisampled one (%msimage). BODY is the code,
// GLOBALS more declarations, CAPS more capabilities, MODEL the memory model.
constexpr const char *kModule = R"(
OpCapability Shader
OpCapability MinLod
OpCapability ImageGatherExtended
OpCapability StorageImageMultisample
OpCapability StorageImageWriteWithoutFormat
CAPS
OpMemoryModel Logical MODEL
OpEntryPoint GLCompute %main "main" %tex %storage %msimage %ctex %fimage
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %tex DescriptorSet 0
OpDecorate %tex Binding 0
OpDecorate %storage DescriptorSet 0
OpDecorate %storage Binding 1
OpDecorate %msimage DescriptorSet 0
OpDecorate %msimage Binding 2
OpDecorate %ctex DescriptorSet 0
OpDecorate %ctex Binding 3
OpDecorate %fimage DescriptorSet 0
OpDecorate %fimage Binding 4
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v2float = OpTypeVector %float 2
%v3float = OpTypeVector %float 3
%v4float = OpTypeVector %float 4
%v2int = OpTypeVector %int 2
%v3int = OpTypeVector %int 3
%v4uint = OpTypeVector %uint 4
%int_0 = OpConstant %int 0
%int_1 = OpConstant %int 1
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_3 = OpConstant %uint 3
%uint_4 = OpConstant %uint 4
%float_1 = OpConstant %float 1
%v2f = OpConstantComposite %v2float %float_1 %float_1
%v3f = OpConstantComposite %v3float %float_1 %float_1 %float_1
%v2i = OpConstantComposite %v2int %int_1 %int_1
%v3i = OpConstantComposite %v3int %int_1 %int_1 %int_1
%texel = OpConstantNull %v4uint
%arr4 = OpTypeArray %v2int %uint_4
%offsets = OpConstantComposite %arr4 %v2i %v2i %v2i %v2i
%arr3 = OpTypeArray %v2int %uint_3
%offsets3 = OpConstantComposite %arr3 %v2i %v2i %v2i
%img = OpTypeImage %float 2D 0 0 0 1 Unknown
%simg = OpTypeSampledImage %img
%ptr_simg = OpTypePointer UniformConstant %simg
%tex = OpVariable %ptr_simg UniformConstant
%cimg = OpTypeImage %float Cube 0 0 0 1 Unknown
%csimg = OpTypeSampledImage %cimg
%ptr_csimg = OpTypePointer UniformConstant %csimg
%ctex = OpVariable %ptr_csimg UniformConstant
%simgt = OpTypeImage %uint 2D 0 0 0 2 R32ui
%ptr_simgt = OpTypePointer UniformConstant %simgt
%storage = OpVariable %ptr_simgt UniformConstant
%msimgt = OpTypeImage %uint 2D 0 0 1 2 R32ui
%ptr_msimgt = OpTypePointer UniformConstant %msimgt
%msimage = OpVariable %ptr_msimgt UniformConstant
%fimgt = OpTypeImage %float 2D 0 0 0 2 Rgba8
%ptr_fimgt = OpTypePointer UniformConstant %fimgt
%fimage = OpVariable %ptr_fimgt UniformConstant
%ptr_img_uint = OpTypePointer Image %uint
%ptr_img_int = OpTypePointer Image %int
%ptr_img_float = OpTypePointer Image %float
%ptr_fn_uint = OpTypePointer Function %uint
GLOBALS
%main = OpFunction %void None %fn
%entry = OpLabel
%s = OpLoad %simg %tex
%cs = OpLoad %csimg %ctex
%si = OpLoad %simgt %storage
%i = OpImage %img %s
BODY
OpReturn
OpFunctionEnd
)";

Report check(std::string_view body, std::string_view env = "spv1.6", std::string_view caps = "",
             std::string_view model = "GLSL450", std::string_view globals = "") {
  std::string text = test::replaced(kModule, "BODY", body);
  // 3.32.5: before SPIR-V 1.4 the interface lists Input and Output variables only.
  if (env == "spv1.3")
    text = test::replaced(text, "\"main\" %tex %storage %msimage %ctex %fimage", "\"main\"");
  text = test::replaced(text, "CAPS", caps);
  text = test::replaced(text, "MODEL", model);
  return test::validateText(test::replaced(text, "GLOBALS", globals), env);
}

TEST(ValImageTexelPointer, ResultPointsIntoTheImageStorageClass) {
  EXPECT_VALID(check("%p = OpImageTexelPointer %ptr_img_uint %storage %v2i %uint_0", "vulkan1.3"));
  EXPECT_ERROR(check("%p = OpImageTexelPointer %ptr_fn_uint %storage %v2i %uint_0"),
               "must be a pointer in the Image storage class");
  EXPECT_ERROR(check("%p = OpImageTexelPointer %ptr_img_int %storage %v2i %uint_0"),
               "OpImageTexelPointer points to %int, not the image's sampled type %uint");
  EXPECT_ERROR(check("%p = OpImageTexelPointer %ptr_img_uint %si %v2i %uint_0"),
               "must be a pointer to an OpTypeImage");
  EXPECT_ERROR(check("%p = OpImageTexelPointer %ptr_img_uint %tex %v2i %uint_0"),
               "must be a pointer to an OpTypeImage");
}

TEST(ValImageTexelPointer, CoordinateAndSample) {
  EXPECT_ERROR(check("%p = OpImageTexelPointer %ptr_img_uint %storage %v3i %uint_0"),
               "the coordinate has 3 components; this image needs 2");
  EXPECT_ERROR(check("%p = OpImageTexelPointer %ptr_img_uint %storage %v2f %uint_0"),
               "the coordinate must be an integer scalar or vector");
  EXPECT_ERROR(check("%p = OpImageTexelPointer %ptr_img_uint %storage %v2i %float_1"),
               "the sample must be an integer scalar");
  EXPECT_ERROR(check("%p = OpImageTexelPointer %ptr_img_uint %storage %v2i %uint_1"),
               "the sample of a single-sampled image must be the constant 0");
  EXPECT_VALID(check("%p = OpImageTexelPointer %ptr_img_uint %msimage %v2i %uint_1"));
}

TEST(ValImageTexelPointer, VulkanFormats) {
  const char *body = "%p = OpImageTexelPointer %ptr_img_float %fimage %v2i %uint_0";
  EXPECT_VALID(check(body));
  EXPECT_ERROR(check(body, "vulkan1.3"), "needs an image of format R32f, R32i, R32ui");
}

// 3.32.10: the texels images give and take are of their Sampled Type; fetches give four
// components, so do reads in Vulkan (VUID-StandaloneSpirv-Result-04780).
TEST(ValImages, TexelTypes) {
  EXPECT_VALID(check("%r = OpImageRead %v4uint %si %v2i\nOpImageWrite %si %v2i %texel"));
  EXPECT_ERROR(check("%r = OpImageRead %v4float %si %v2i"),
               "the result type %v4float must have components of the image's Sampled Type %uint");
  EXPECT_ERROR(check("OpImageWrite %si %v2i %v2f"),
               "must have components of the image's Sampled Type %uint");
  EXPECT_ERROR(check("%r = OpImageRead %uint %si %v2i", "vulkan1.3"),
               "in Vulkan OpImageRead gives a four-component vector");
  EXPECT_VALID(check("%r = OpImageRead %uint %si %v2i"));
  EXPECT_ERROR(check("%r = OpImageFetch %v2float %i %v2i", "spv1.6", "", "GLSL450"),
               "OpImageFetch gives a four-component vector");
  EXPECT_ERROR(check("%r = OpImageSampleExplicitLod %v4uint %s %v2f Lod %float_1"),
               "the result's components must be of the image's sampled type %float");
}

// 3.32.10 OpImageGather's Component, and the queries of sizes (OpImageQuerySize needs MS = 1 or
// a storage image; Vulkan's OpImageQuerySizeLod a sampled one, -04659), formats and orders.
TEST(ValImages, GatherComponentAndSizeQueries) {
  EXPECT_VALID(check("%r = OpImageGather %v4float %s %v2f %int_1"));
  EXPECT_ERROR(check("%r = OpImageGather %v4float %s %v2f %float_1"),
               "the gathered Component must be a 32-bit integer scalar");
  const std::string query = "OpCapability ImageQuery";
  EXPECT_VALID(check("%r = OpImageQuerySize %v2int %si", "spv1.6", query));
  EXPECT_ERROR(check("%r = OpImageQuerySize %v2int %i", "spv1.6", query),
               "OpImageQuerySize of a 1D, 2D, 3D or Cube image needs MS = 1 or Sampled = 0 or 2");
  EXPECT_VALID(check("%r = OpImageQuerySizeLod %v2int %i %int_0", "vulkan1.3", query));
  EXPECT_ERROR(check("%r = OpImageQuerySizeLod %v2int %si %int_0", "vulkan1.3", query),
               "in Vulkan OpImageQuerySizeLod queries images of Sampled = 1 only");
}

// 3.32.10: the sampling instructions take no multisampled or Buffer image; the projective ones
// take 1D, 2D, 3D or Rect images that are not arrayed.
TEST(ValImages, WhatSamplingTakes) {
  const std::string msSampled = "%msi = OpTypeImage %float 2D 0 0 1 1 Unknown\n"
                                "%mss = OpTypeSampledImage %msi\n%msnull = OpConstantNull %mss";
  EXPECT_ERROR(check("%r = OpImageSampleExplicitLod %v4float %msnull %v2f Lod %float_1", "spv1.6",
                     "", "GLSL450", msSampled),
               "OpImageSampleExplicitLod cannot sample a multisampled image");
  EXPECT_ERROR(check("%r = OpImageSampleProjExplicitLod %v4float %cs %v3f Lod %float_1"),
               "OpImageSampleProjExplicitLod needs a 1D, 2D, 3D or Rect image that is not arrayed");
  // The depth-comparison reference is a 32-bit float scalar (the dialect fuzz target found a
  // vector let through).
  EXPECT_VALID(check("%r = OpImageSampleDrefExplicitLod %float %s %v2f %float_1 Lod %float_1"));
  EXPECT_ERROR(check("%r = OpImageSampleDrefExplicitLod %float %s %v2f %v2f Lod %float_1"),
               "must be a 32-bit float scalar");
  EXPECT_ERROR(check("%r = OpImageDrefGather %v4float %s %v2f %int_1"), "OpImageDrefGather: Dref");
}

// 3.32.10, the sparse forms: the operands of the plain forms, and a result of the residency code
// and the texel (the dialect fuzz target found a pointer taken for the image).
TEST(ValImages, SparseFormsTakeImagesAndGiveCodeAndTexel) {
  const std::string caps = "OpCapability SparseResidency";
  const std::string types = "%res4 = OpTypeStruct %int %v4float\n%res1 = OpTypeStruct %int %float\n"
                            "%resu = OpTypeStruct %uint %v4uint\n";
  EXPECT_VALID(check("%r = OpImageSparseSampleExplicitLod %res4 %s %v2f Lod %float_1", "spv1.6",
                     caps, "GLSL450", types));
  EXPECT_VALID(check("%r = OpImageSparseSampleDrefExplicitLod %res1 %s %v2f %float_1 Lod %float_1",
                     "spv1.6", caps, "GLSL450", types));
  EXPECT_VALID(check("%r = OpImageSparseRead %resu %si %v2i", "spv1.6", caps, "GLSL450", types));
  EXPECT_ERROR(
      check("%r = OpImageSparseRead %resu %storage %v2i", "spv1.6", caps, "GLSL450", types),
      "OpImageSparseRead: Image %3 is not an OpTypeImage");
  EXPECT_ERROR(check("%r = OpImageSparseSampleExplicitLod %v4float %s %v2f Lod %float_1", "spv1.6",
                     caps, "GLSL450", types),
               "the result type must be a structure of an integer scalar (the residency code)");
  EXPECT_ERROR(check("%r = OpImageSparseSampleDrefExplicitLod %res4 %s %v2f %float_1 Lod "
                     "%float_1",
                     "spv1.6", caps, "GLSL450", types),
               "and an integer or float scalar (the texel)");
  EXPECT_ERROR(
      check("%r = OpImageSparseGather %res1 %s %v2f %int_1", "spv1.6", caps, "GLSL450", types),
      "and a vector of four integers or floats (the texel)");
}

// 2.16.1: image, sampler and sampled image objects are not operands of OpPhi or OpSelect, except
// with SPV_NV_bindless_texture; OpCopyObject may copy them.
TEST(ValImages, NotChosenByPhiOrSelect) {
  const std::string cond = "%bool = OpTypeBool\n%true = OpConstantTrue %bool";
  EXPECT_VALID(check("%c = OpCopyObject %img %i"));
  EXPECT_ERROR(check("%c = OpSelect %img %true %i %i", "spv1.6", "", "GLSL450", cond),
               "OpSelect cannot choose between images, samplers or sampled images");
  EXPECT_ERROR(check("%c = OpSelect %simg %true %s %s", "spv1.6", "", "GLSL450", cond),
               "OpSelect cannot choose between images, samplers or sampled images");
  EXPECT_ERROR(check("OpBranch %next\n%next = OpLabel\n%c = OpPhi %simg %s %entry"),
               "an image, sampler or sampled image cannot be the result of OpPhi");
  EXPECT_VALID(check("OpBranch %next\n%next = OpLabel\n%c = OpPhi %uint %uint_0 %entry"));
  // Nor of the composite instructions: no arrays or structures of loaded images.
  const std::string arrays = "%arr_img = OpTypeArray %img %uint_1\n"
                             "%arr_simg = OpTypeArray %simg %uint_1";
  EXPECT_ERROR(check("%c = OpCompositeConstruct %arr_img %i", "spv1.6", "", "GLSL450", arrays),
               "cannot be an operand of OpCompositeConstruct: only the image and sampler "
               "instructions take such objects");
  EXPECT_ERROR(check("%u = OpUndef %arr_simg\n%c = OpCompositeInsert %arr_simg %s %u 0", "spv1.6",
                     "", "GLSL450", arrays),
               "cannot be an operand of OpCompositeInsert");
  // 2.16.1: an OpSampledImage result is consumed in its own block.
  // (SPIR-V 1.3: the interface need not list the sampler variable.)
  const std::string sampler = "%sampler = OpTypeSampler\n"
                              "%ptr_sampler = OpTypePointer UniformConstant %sampler\n"
                              "%samplers = OpVariable %ptr_sampler UniformConstant";
  const std::string make = "%sm = OpLoad %sampler %samplers\n%si2 = OpSampledImage %simg %i %sm\n";
  const std::string use = "%x = OpImageSampleExplicitLod %v4float %si2 %v2f Lod %float_1";
  EXPECT_VALID(check(make + use, "spv1.3", "", "GLSL450", sampler));
  EXPECT_ERROR(
      check(make + "OpBranch %next\n%next = OpLabel\n" + use, "spv1.3", "", "GLSL450", sampler),
      "is used outside the block of its OpSampledImage");
  // So is a loaded image or sampler; DXC's shaders load before the branch that samples, and
  // spirv-val accepts them, so that one is a warning.
  const Report elsewhere =
      check("%sm = OpLoad %sampler %samplers\nOpBranch %next\n%next = OpLabel\n"
            "%si2 = OpSampledImage %simg %i %sm\n" +
                use,
            "spv1.3", "", "GLSL450", sampler);
  EXPECT_VALID(elsewhere);
  EXPECT_TRUE(test::hasWarning(elsewhere, "is used outside the block of its OpLoad"))
      << test::describe(elsewhere);
  EXPECT_FALSE(test::hasWarning(check(make + use, "spv1.3", "", "GLSL450", sampler), "OpLoad"));
}

// Coordinates are 32-bit (Khronos SPIR-V issue 905; spirv-val v2026.4), except 16-bit floats
// under SPV_AMD_gpu_shader_half_float_fetch. 3.14 Lod: "For sampling operations, it must be a
// 32-bit floating-point type scalar [...]. For fetch operations, it must be a 32-bit integer
// type scalar"; OpImageQuerySizeLod's Level of Detail "must be a 32-bit integer type scalar".
TEST(ValImages, CoordinatesAndLevelsOfDetailAre32Bit) {
  const std::string caps = "OpCapability Float16\nOpCapability Int16\nOpCapability ImageQuery";
  const std::string narrow = "%half = OpTypeFloat 16\n%v2half = OpTypeVector %half 2\n"
                             "%half_1 = OpConstant %half 1\n"
                             "%v2h = OpConstantComposite %v2half %half_1 %half_1\n"
                             "%short = OpTypeInt 16 1\n%v2short = OpTypeVector %short 2\n"
                             "%short_1 = OpConstant %short 1\n"
                             "%v2s = OpConstantComposite %v2short %short_1 %short_1";
  auto narrowCheck = [&](const std::string &body) {
    return check(body, "spv1.6", caps, "GLSL450", narrow);
  };
  EXPECT_VALID(narrowCheck("%r = OpImageSampleExplicitLod %v4float %s %v2f Lod %float_1"));
  EXPECT_ERROR(narrowCheck("%r = OpImageSampleExplicitLod %v4float %s %v2h Lod %float_1"),
               "the coordinate must have 32-bit components, not %v2half");
  EXPECT_ERROR(narrowCheck("%r = OpImageFetch %v4float %i %v2s Lod %int_0"),
               "the coordinate must have 32-bit components, not %v2short");
  EXPECT_ERROR(narrowCheck("%r = OpImageRead %v4uint %si %v2s"),
               "the coordinate must have 32-bit components");
  EXPECT_ERROR(narrowCheck("%r = OpImageSampleExplicitLod %v4float %s %v2f Lod %half_1"),
               "Lod must be a 32-bit floating-point scalar");
  EXPECT_ERROR(narrowCheck("%r = OpImageFetch %v4float %i %v2i Lod %short_1"),
               "Lod must be a 32-bit integer scalar");
  EXPECT_VALID(
      check("%r = OpImageQuerySizeLod %v2int %i %int_0", "spv1.6", "OpCapability ImageQuery"));
  EXPECT_ERROR(narrowCheck("%r = OpImageQuerySizeLod %v2int %i %short_1"),
               "the Level of Detail must be a 32-bit integer scalar");
  const std::string amd = caps + "\nOpCapability Float16ImageAMD\n"
                                 "OpExtension \"SPV_AMD_gpu_shader_half_float_fetch\"";
  EXPECT_VALID(check("%r = OpImageSampleExplicitLod %v4float %s %v2h Lod %half_1", "spv1.6", amd,
                     "GLSL450", narrow));
}

// 3.32.10 OpSampledImage: the result's image type is the image's type; spirv-val lets Depth
// differ, not the access qualifier.
TEST(ValImages, SampledImageKeepsTheAccessQualifier) {
  const std::string text = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability ImageBasic
OpCapability LiteralSampler
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%ro = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly
%rw = OpTypeImage %void 2D 0 0 0 0 Unknown ReadWrite
%sro = OpTypeSampledImage %ro
%sampler = OpTypeSampler
%smp = OpConstantSampler %sampler None 0 Nearest
%fn = OpTypeFunction %void %ro %rw
%k = OpFunction %void None %fn
%a = OpFunctionParameter %ro
%b = OpFunctionParameter %rw
%entry = OpLabel
%r = OpSampledImage %sro %a %smp
OpReturn
OpFunctionEnd
)";
  EXPECT_VALID(test::validateText(text));
  EXPECT_ERROR(test::validateText(test::replaced(text, "%sro %a", "%sro %b")),
               "not the result's image type");
}

// SPV_NV_shader_image_footprint: the footprint's image operands are those of the sampling it
// stands for (the agreement sweep gave one a pointer for its Lod).
TEST(ValImages, FootprintImageOperands) {
  const std::string caps = "OpCapability ImageFootprintNV\n"
                           "OpExtension \"SPV_NV_shader_image_footprint\"";
  const std::string types = "%bool = OpTypeBool\n%true = OpConstantTrue %bool\n"
                            "%v2uint = OpTypeVector %uint 2\n"
                            "%footprint = OpTypeStruct %v2uint %v2uint %uint %uint\n"
                            "%ptr_priv_float = OpTypePointer Private %float\n"
                            "%v = OpVariable %ptr_priv_float Private";
  auto footprint = [&](const std::string &operands) {
    return check("%r = OpImageSampleFootprintNV %footprint %s %v2f %uint_1 %true " + operands,
                 "spv1.6", caps, "GLSL450", types);
  };
  EXPECT_VALID(footprint("Lod %float_1"));
  EXPECT_ERROR(footprint("Lod %v"), "Lod must be a 32-bit floating-point scalar");
  EXPECT_ERROR(footprint("Bias %uint_1"), "Bias must be a floating-point scalar");
}

// 3.14 SignExtend and ZeroExtend: integer texels only, unsigned ones for ZeroExtend, not both.
TEST(ValImageOperands, SignAndZeroExtend) {
  EXPECT_VALID(check("%r = OpImageRead %v4uint %si %v2i ZeroExtend"));
  EXPECT_VALID(check("%r = OpImageRead %v4uint %si %v2i SignExtend"));
  EXPECT_ERROR(check("%r = OpImageRead %v4uint %si %v2i SignExtend|ZeroExtend"),
               "the SignExtend and ZeroExtend image operands exclude each other");
  EXPECT_ERROR(check("%r = OpImageFetch %v4float %i %v2i SignExtend"),
               "need an integer texel value, not %v4float");
  EXPECT_ERROR(check("%r = OpImageRead %v4int %si %v2i ZeroExtend", "spv1.6", "", "GLSL450",
                     "%v4int = OpTypeVector %int 4"),
               "the ZeroExtend image operand needs an unsigned integer texel value");
}

TEST(ValImageOperands, Grad) {
  EXPECT_VALID(check("%x = OpImageSampleExplicitLod %v4float %s %v2f Grad %v2f %v2f"));
  EXPECT_ERROR(check("%x = OpImageSampleExplicitLod %v4float %s %v2f Grad %float_1 %v2f"),
               "Grad dx has 1 components; this image needs 2");
  EXPECT_ERROR(check("%x = OpImageSampleExplicitLod %v4float %s %v2f Grad %v2i %v2i"),
               "Grad dx must be a floating-point scalar or vector");
  EXPECT_ERROR(check("%x = OpImageFetch %v4float %i %v2i Grad %v2f %v2f"),
               "the Grad image operand is for explicit-LOD sampling");
}

TEST(ValImageOperands, OffsetAndConstOffset) {
  EXPECT_VALID(check("%x = OpImageSampleExplicitLod %v4float %s %v2f Lod|ConstOffset %float_1 "
                     "%v2i\n%o = OpIAdd %v2int %v2i %v2i\n"
                     "%y = OpImageSampleExplicitLod %v4float %s %v2f Lod|Offset %float_1 %o\n"
                     "%z = OpImageFetch %v4float %i %v2i Lod|ConstOffset %int_0 %v2i"));
  EXPECT_ERROR(check("%x = OpImageSampleExplicitLod %v4float %s %v2f Lod|ConstOffset %float_1 "
                     "%int_1"),
               "ConstOffset has 1 components; this image needs 2");
  EXPECT_ERROR(check("%x = OpImageSampleExplicitLod %v4float %s %v2f Lod|Offset %float_1 %v2f"),
               "Offset must be an integer scalar or vector");
  EXPECT_ERROR(check("%o = OpIAdd %v2int %v2i %v2i\n"
                     "%x = OpImageSampleExplicitLod %v4float %s %v2f Lod|ConstOffset %float_1 %o"),
               "ConstOffset must be a constant");
  EXPECT_ERROR(check("%x = OpImageSampleExplicitLod %v4float %cs %v3f Lod|ConstOffset %float_1 "
                     "%v3i"),
               "the offset image operands cannot be used with a Cube image");
}

TEST(ValImageOperands, ConstOffsets) {
  EXPECT_VALID(check("%x = OpImageGather %v4float %s %v2f %int_0 ConstOffsets %offsets"));
  EXPECT_ERROR(check("%x = OpImageSampleExplicitLod %v4float %s %v2f Lod|ConstOffsets %float_1 "
                     "%offsets"),
               "the ConstOffsets image operand is for OpImageGather and OpImageDrefGather");
  EXPECT_ERROR(check("%x = OpImageGather %v4float %s %v2f %int_0 ConstOffsets %offsets3"),
               "ConstOffsets must be an array of four offsets");
  EXPECT_ERROR(check("%x = OpImageGather %v4float %s %v2f %int_0 ConstOffset|ConstOffsets %v2i "
                     "%offsets"),
               "Offset, ConstOffset, ConstOffsets and Offsets exclude each other");
}

TEST(ValImageOperands, LodSampleAndMinLod) {
  EXPECT_VALID(check("%x = OpImageSampleExplicitLod %v4float %s %v2f Grad|MinLod %v2f %v2f "
                     "%float_1\n%y = OpImageFetch %v4float %i %v2i Lod %int_0"));
  EXPECT_ERROR(check("%x = OpImageFetch %v4float %i %v2i Lod %float_1"),
               "Lod must be a 32-bit integer scalar");
  EXPECT_ERROR(check("%x = OpImageRead %v4uint %si %v2i Lod %int_0"),
               "the Lod image operand is for explicit-LOD sampling and OpImageFetch");
  EXPECT_ERROR(check("%x = OpImageRead %v4uint %si %v2i Sample %int_0"),
               "the Sample image operand needs a multisampled image");
  EXPECT_ERROR(check("%x = OpImageSampleExplicitLod %v4float %s %v2f Lod|Sample %float_1 %int_0"),
               "the Sample image operand is for OpImageFetch, OpImageRead and OpImageWrite");
  EXPECT_ERROR(check("%x = OpImageSampleExplicitLod %v4float %s %v2f Lod|MinLod %float_1 "
                     "%float_1"),
               "the MinLod image operand is for implicit-LOD sampling or goes with Grad");
  EXPECT_ERROR(check("%x = OpImageSampleExplicitLod %v4float %s %v2f Grad|MinLod %v2f %v2f "
                     "%int_1"),
               "MinLod must be a floating-point scalar");
}

TEST(ValImageOperands, LodOfStorageImagesWithTheAmdCapability) {
  // SPV_AMD_shader_image_load_store_lod: ImageReadWriteLodAMD lets OpImageRead and OpImageWrite
  // take Lod, an integer level as OpImageFetch's; without the capability it stays an error.
  const std::string_view caps =
      "OpCapability ImageReadWriteLodAMD\nOpExtension \"SPV_AMD_shader_image_load_store_lod\"";
  const std::string_view body = "%x = OpImageRead %v4uint %si %v2i Lod %int_0\n"
                                "OpImageWrite %si %v2i %texel Lod %int_1";
  EXPECT_VALID(check(body, "spv1.6", caps));
  EXPECT_ERROR(check(body), "the Lod image operand is for explicit-LOD sampling and OpImageFetch");
  EXPECT_ERROR(check("%x = OpImageRead %v4uint %si %v2i Lod %float_1", "spv1.6", caps),
               "Lod must be a 32-bit integer scalar");
  // Sampling keeps its floating-point Lod.
  EXPECT_VALID(
      check("%x = OpImageSampleExplicitLod %v4float %s %v2f Lod %float_1", "spv1.6", caps));
}

TEST(ValImageOperands, TexelAvailabilityAndVisibility) {
  const char *caps = "OpCapability VulkanMemoryModel";
  EXPECT_VALID(check("%x = OpImageRead %v4uint %si %v2i MakeTexelVisible|NonPrivateTexel "
                     "%uint_4\nOpImageWrite %si %v2i %texel MakeTexelAvailable|NonPrivateTexel "
                     "%uint_4",
                     "spv1.6", caps, "Vulkan"));
  EXPECT_ERROR(
      check("%x = OpImageRead %v4uint %si %v2i MakeTexelVisible %uint_4", "spv1.6", caps, "Vulkan"),
      "need NonPrivateTexel");
  EXPECT_ERROR(check("OpImageWrite %si %v2i %texel MakeTexelVisible|NonPrivateTexel %uint_4",
                     "spv1.6", caps, "Vulkan"),
               "the MakeTexelVisible image operand is for OpImageRead");
  EXPECT_ERROR(check("%x = OpImageRead %v4uint %si %v2i MakeTexelAvailable|NonPrivateTexel "
                     "%uint_4",
                     "spv1.6", caps, "Vulkan"),
               "the MakeTexelAvailable image operand is for OpImageWrite");
}

// VUID-StandaloneSpirv-SubpassData-04660: a subpass input is read at the constant (0,0).
TEST(ValImageOperands, SubpassDataReadsAtZero) {
  const std::string text = R"(
OpCapability Shader
OpCapability InputAttachment
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %in
OpExecutionMode %main OriginUpperLeft
OpDecorate %in DescriptorSet 0
OpDecorate %in Binding 0
OpDecorate %in InputAttachmentIndex 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%v2int = OpTypeVector %int 2
%v4float = OpTypeVector %float 4
%int_0 = OpConstant %int 0
%int_1 = OpConstant %int 1
%zero = OpConstantComposite %v2int %int_0 %int_0
%one = OpConstantComposite %v2int %int_1 %int_0
%null = OpConstantNull %v2int
%img = OpTypeImage %float SubpassData 0 0 0 2 Unknown
%ptr = OpTypePointer UniformConstant %img
%in = OpVariable %ptr UniformConstant
%main = OpFunction %void None %fn
%entry = OpLabel
%i = OpLoad %img %in
%x = OpImageRead %v4float %i COORD
OpReturn
OpFunctionEnd
)";
  EXPECT_VALID(test::validateText(test::replaced(text, "COORD", "%zero"), "vulkan1.3"));
  EXPECT_VALID(test::validateText(test::replaced(text, "COORD", "%null"), "vulkan1.3"));
  EXPECT_RULE_ERROR(test::validateText(test::replaced(text, "COORD", "%one"), "vulkan1.3"),
                    "in Vulkan the coordinate of a SubpassData image is the constant vector (0,0)",
                    "VUID-StandaloneSpirv-SubpassData-04660");
}

} // namespace
} // namespace spire::val
