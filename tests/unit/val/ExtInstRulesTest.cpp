// Instruction-specific rules of GLSL.std.450 (packing, Frexp / Ldexp and the struct forms,
// Find*, Refract, matrices, interpolation) and OpenCL.std (math with pointer outputs, integer
// exponents, select, shuffles, vloadn / vstoren, printf, prefetch, upsample, ldexp, the geometric
// functions, the half-float loads and stores).
#include "ValTestUtil.h"

namespace spire::val {
namespace {

// A shader of model MODEL (mode MODE) whose BODY uses GLSL.std.450 as %glsl.
constexpr const char *kGlsl = R"(
OpCapability Shader
OpCapability Float64
OpCapability InterpolationFunction
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint MODEL %main "main" %in
OpExecutionMode %main MODE
OpDecorate %in Location 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%double = OpTypeFloat 64
%v2float = OpTypeVector %float 2
%v3float = OpTypeVector %float 3
%v4float = OpTypeVector %float 4
%v2int = OpTypeVector %int 2
%v2uint = OpTypeVector %uint 2
%int_1 = OpConstant %int 1
%uint_1 = OpConstant %uint 1
%float_1 = OpConstant %float 1
%double_1 = OpConstant %double 1
%v2f = OpConstantComposite %v2float %float_1 %float_1
%v3f = OpConstantComposite %v3float %float_1 %float_1 %float_1
%v4f = OpConstantComposite %v4float %float_1 %float_1 %float_1 %float_1
%v2i = OpConstantComposite %v2int %int_1 %int_1
%v2u = OpConstantComposite %v2uint %uint_1 %uint_1
%ptr_fn_int = OpTypePointer Function %int
%ptr_fn_v2int = OpTypePointer Function %v2int
%ptr_in_float = OpTypePointer Input %float
%in = OpVariable %ptr_in_float Input
%st_fi = OpTypeStruct %float %int
%st_ff = OpTypeStruct %float %float
%m2 = OpTypeMatrix %v2float 2
%m23 = OpTypeMatrix %v3float 2
%m2c = OpConstantComposite %m2 %v2f %v2f
%m23c = OpConstantComposite %m23 %v3f %v3f
%main = OpFunction %void None %fn
%entry = OpLabel
%ivar = OpVariable %ptr_fn_int Function
%v2ivar = OpVariable %ptr_fn_v2int Function
BODY
OpReturn
OpFunctionEnd
)";

Report glsl(std::string_view body, std::string_view model = "GLCompute",
            std::string_view mode = "LocalSize 1 1 1") {
  std::string text = test::replaced(kGlsl, "BODY", body);
  text = test::replaced(text, "MODEL", model);
  return test::validateText(test::replaced(text, "MODE", mode));
}

TEST(ValExtInstGlsl, PackAndUnpack) {
  EXPECT_VALID(glsl("%a = OpExtInst %uint %glsl PackHalf2x16 %v2f\n"
                    "%b = OpExtInst %v2float %glsl UnpackHalf2x16 %uint_1\n"
                    "%c = OpExtInst %double %glsl PackDouble2x32 %v2u\n"
                    "%d = OpExtInst %int %glsl PackUnorm4x8 %v4f"));
  EXPECT_ERROR(glsl("%a = OpExtInst %uint %glsl PackHalf2x16 %v4f"),
               "GLSL.std.450 PackHalf2x16: the operand must be a vector of 2 32-bit floats");
  EXPECT_ERROR(glsl("%a = OpExtInst %v2float %glsl UnpackHalf2x16 %v2u"),
               "the operand must be a 32-bit integer scalar");
  EXPECT_ERROR(glsl("%a = OpExtInst %float %glsl UnpackDouble2x32 %double_1"),
               "UnpackDouble2x32: the result must be a vector of 2 32-bit integers");
}

TEST(ValExtInstGlsl, FrexpLdexpAndStructs) {
  EXPECT_VALID(glsl("%a = OpExtInst %float %glsl Frexp %float_1 %ivar\n"
                    "%b = OpExtInst %float %glsl Ldexp %float_1 %int_1\n"
                    "%c = OpExtInst %st_fi %glsl FrexpStruct %float_1\n"
                    "%d = OpExtInst %st_ff %glsl ModfStruct %float_1"));
  EXPECT_ERROR(glsl("%a = OpExtInst %float %glsl Frexp %float_1 %v2ivar"),
               "Frexp: exp must have as many components as the result");
  EXPECT_ERROR(glsl("%a = OpExtInst %float %glsl Frexp %float_1 %int_1"),
               "Frexp: exp must be a pointer");
  EXPECT_ERROR(glsl("%a = OpExtInst %v2float %glsl Ldexp %v2f %int_1"),
               "Ldexp: exp must have as many components as the result");
  EXPECT_ERROR(glsl("%a = OpExtInst %st_ff %glsl FrexpStruct %float_1"),
               "FrexpStruct: the result must be a struct of a float scalar or vector and 32-bit");
  EXPECT_ERROR(glsl("%a = OpExtInst %st_fi %glsl ModfStruct %float_1"),
               "ModfStruct: the result must be a struct of two members of one float");
}

TEST(ValExtInstGlsl, FindRefractAndMatrices) {
  EXPECT_VALID(glsl("%a = OpExtInst %uint %glsl FindUMsb %int_1\n"
                    "%b = OpExtInst %float %glsl Refract %float_1 %float_1 %float_1\n"
                    "%c = OpExtInst %float %glsl Determinant %m2c\n"
                    "%d = OpExtInst %m2 %glsl MatrixInverse %m2c"));
  EXPECT_ERROR(glsl("%a = OpExtInst %int %glsl FindSMsb %v2i"),
               "FindSMsb: the value must have the result's component count and width");
  EXPECT_ERROR(glsl("%a = OpExtInst %float %glsl Refract %float_1 %float_1 %v2f"),
               "Refract: eta must be a float scalar");
  EXPECT_ERROR(glsl("%a = OpExtInst %m23 %glsl MatrixInverse %m23c"),
               "MatrixInverse: the result must be a square matrix");
  EXPECT_ERROR(glsl("%a = OpExtInst %float %glsl Determinant %m23c"),
               "Determinant: x must be a square matrix of the result type");
}

TEST(ValExtInstGlsl, InterpolationInFragmentShaders) {
  EXPECT_VALID(glsl("%a = OpExtInst %float %glsl InterpolateAtCentroid %in\n"
                    "%b = OpExtInst %float %glsl InterpolateAtOffset %in %v2f",
                    "Fragment", "OriginUpperLeft"));
  EXPECT_ERROR(glsl("%a = OpExtInst %float %glsl InterpolateAtCentroid %in"),
               "GLSL.std.450 InterpolateAt* is for Fragment entry points only");
  EXPECT_ERROR(glsl("%a = OpExtInst %float %glsl InterpolateAtSample %in %float_1", "Fragment",
                    "OriginUpperLeft"),
               "the sample must be a 32-bit integer scalar");
  EXPECT_ERROR(glsl("%a = OpExtInst %float %glsl InterpolateAtCentroid %float_1", "Fragment",
                    "OriginUpperLeft"),
               "the interpolant must be a pointer to the result type in Input");
}

// An OpenCL kernel whose BODY uses OpenCL.std as %cl.
constexpr const char *kOpenCL = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability Int8
OpCapability Float16Buffer
%cl = OpExtInstImport "OpenCL.std"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uchar = OpTypeInt 8 0
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%half = OpTypeFloat 16
%v2float = OpTypeVector %float 2
%v3float = OpTypeVector %float 3
%v4float = OpTypeVector %float 4
%v2uint = OpTypeVector %uint 2
%v3uint = OpTypeVector %uint 3
%v4uint = OpTypeVector %uint 4
%st = OpTypeStruct %float
%uint_1 = OpConstant %uint 1
%ulong_1 = OpConstant %ulong 1
%float_1 = OpConstant %float 1
%v2f = OpConstantComposite %v2float %float_1 %float_1
%v3f = OpConstantComposite %v3float %float_1 %float_1 %float_1
%v4f = OpConstantComposite %v4float %float_1 %float_1 %float_1 %float_1
%v2u = OpConstantComposite %v2uint %uint_1 %uint_1
%v3u = OpConstantComposite %v3uint %uint_1 %uint_1 %uint_1
%v4u = OpConstantComposite %v4uint %uint_1 %uint_1 %uint_1 %uint_1
%ptr_fn_float = OpTypePointer Function %float
%ptr_fn_uint = OpTypePointer Function %uint
%ptr_cw_float = OpTypePointer CrossWorkgroup %float
%ptr_uc_uchar = OpTypePointer UniformConstant %uchar
%ptr_cw_uchar = OpTypePointer CrossWorkgroup %uchar
%ptr_cw_half = OpTypePointer CrossWorkgroup %half
%ptr_uc_half = OpTypePointer UniformConstant %half
%ptr_cw_st = OpTypePointer CrossWorkgroup %st
%k = OpFunction %void None %fn
%entry = OpLabel
%fvar = OpVariable %ptr_fn_float Function
%uvar = OpVariable %ptr_fn_uint Function
%cw = OpBitcast %ptr_cw_float %ulong_1
%fmt = OpBitcast %ptr_uc_uchar %ulong_1
%cwfmt = OpBitcast %ptr_cw_uchar %ulong_1
%hp = OpBitcast %ptr_cw_half %ulong_1
%hc = OpBitcast %ptr_uc_half %ulong_1
%cwst = OpBitcast %ptr_cw_st %ulong_1
BODY
OpReturn
OpFunctionEnd
)";

Report opencl(std::string_view body) {
  return test::validateText(test::replaced(kOpenCL, "BODY", body), "opencl2.0");
}

TEST(ValExtInstOpenCL, MathWithPointerOutputs) {
  EXPECT_VALID(opencl("%a = OpExtInst %float %cl fract %float_1 %fvar\n"
                      "%b = OpExtInst %float %cl frexp %float_1 %uvar\n"
                      "%c = OpExtInst %float %cl remquo %float_1 %float_1 %uvar\n"
                      "%d = OpExtInst %float %cl pown %float_1 %uint_1"));
  EXPECT_ERROR(opencl("%a = OpExtInst %float %cl sincos %float_1 %uvar"),
               "OpenCL.std sincos: the pointer must point to the result type");
  EXPECT_ERROR(opencl("%a = OpExtInst %float %cl lgamma_r %float_1 %fvar"),
               "lgamma_r: the pointer must point to 32-bit integers of the result's component");
  EXPECT_ERROR(opencl("%a = OpExtInst %v2float %cl rootn %v2f %uint_1"),
               "rootn: y must be 32-bit integers of the result's component count");
}

TEST(ValExtInstOpenCL, SelectShuffleAndVectors) {
  EXPECT_VALID(opencl("%a = OpExtInst %float %cl select %float_1 %float_1 %uint_1\n"
                      "%b = OpExtInst %v2float %cl shuffle %v4f %v2u\n"
                      "%c = OpExtInst %v2float %cl vloadn %ulong_1 %cw 2\n"
                      "%d = OpExtInst %void %cl vstoren %v2f %ulong_1 %cw\n"
                      "%e = OpExtInst %uint %cl printf %fmt\n"
                      "%f = OpExtInst %void %cl prefetch %cw %ulong_1"));
  EXPECT_ERROR(opencl("%a = OpExtInst %float %cl select %float_1 %float_1 %v2u"),
               "select: c must be integers of the result's component count and width");
  EXPECT_ERROR(opencl("%b = OpExtInst %v2float %cl shuffle %v4f %v4u"),
               "shuffle: the shuffle mask must be integers of the result's component count");
  EXPECT_ERROR(opencl("%c = OpExtInst %v2float %cl vloadn %uint_1 %cw 2"),
               "vloadn: the offset must be a size_t integer scalar");
  EXPECT_ERROR(opencl("%c = OpExtInst %v4float %cl vloadn %ulong_1 %cw 2"),
               "vloadn: the result must have n components");
  EXPECT_ERROR(opencl("%e = OpExtInst %uint %cl printf %cw"),
               "printf: the format must be a pointer to 8-bit integers");
  EXPECT_ERROR(opencl("%f = OpExtInst %void %cl prefetch %fvar %ulong_1"),
               "prefetch: ptr must be a pointer in CrossWorkgroup");
  EXPECT_ERROR(opencl("%e = OpExtInst %uint %cl printf %cwfmt"),
               "printf: the format must be in the UniformConstant storage class");
  EXPECT_ERROR(opencl("%f = OpExtInst %void %cl prefetch %cwst %ulong_1"),
               "prefetch: ptr must point to an integer or float scalar or vector");
  EXPECT_ERROR(
      opencl("%b = OpExtInst %v3float %cl shuffle %v4f %v3u"),
      "shuffle: the result must be an integer or float vector of 2, 4, 8 or 16 components");
  EXPECT_ERROR(opencl("%b = OpExtInst %v2float %cl shuffle2 %v3f %v3f %v2u"),
               "shuffle2: x must be a vector of 2, 4, 8 or 16 components of the result's "
               "component type");
}

TEST(ValExtInstOpenCL, ExponentsAndGeometry) {
  EXPECT_VALID(opencl("%a = OpExtInst %v2float %cl ldexp %v2f %v2u\n"
                      "%b = OpExtInst %v2float %cl mix %v2f %v2f %v2f\n"
                      "%c = OpExtInst %v2float %cl step %v2f %v2f\n"
                      "%d = OpExtInst %float %cl lgamma %float_1\n"
                      "%e = OpExtInst %v4float %cl cross %v4f %v4f\n"
                      "%f = OpExtInst %float %cl distance %v4f %v4f\n"
                      "%g = OpExtInst %float %cl fast_length %float_1\n"
                      "%h = OpExtInst %v2float %cl normalize %v2f"));
  EXPECT_ERROR(opencl("%a = OpExtInst %v2float %cl ldexp %v2f %uint_1"),
               "ldexp: k must be 32-bit integers of the result's component count");
  EXPECT_ERROR(opencl("%a = OpExtInst %v2float %cl ldexp %v4f %v2u"),
               "ldexp: x must be of the result type");
  EXPECT_ERROR(opencl("%c = OpExtInst %v2float %cl step %float_1 %v2f"),
               "OpenCL.std step: operand %float_1 has type %float, not the result type %v2float");
  EXPECT_ERROR(opencl("%b = OpExtInst %v2float %cl fclamp %v2f %v2f %float_1"),
               "OpenCL.std fclamp: operand %float_1 has type %float");
  EXPECT_ERROR(opencl("%e = OpExtInst %v2float %cl cross %v2f %v2f"),
               "cross: the result must be a vector of three or four floats");
  EXPECT_ERROR(opencl("%e = OpExtInst %v3float %cl cross %v3f %v4f"),
               "cross: p0 and p1 must be of the result type");
  EXPECT_ERROR(opencl("%f = OpExtInst %float %cl distance %v4f %v2f"),
               "distance: p1 must be of p0's type");
  EXPECT_ERROR(opencl("%f = OpExtInst %float %cl fast_distance %v4u %v4u"),
               "fast_distance: p0 must be a float scalar or a vector of up to four floats");
  EXPECT_ERROR(opencl("%g = OpExtInst %uint %cl length %v2f"),
               "length: the result must be a float scalar");
  EXPECT_ERROR(opencl("%h = OpExtInst %v2float %cl fast_normalize %v4f"),
               "fast_normalize: p must be of the result type");
}

TEST(ValExtInstOpenCL, HalfLoadsAndStores) {
  EXPECT_VALID(opencl("%a = OpExtInst %float %cl vload_half %ulong_1 %hp\n"
                      "%b = OpExtInst %v2float %cl vload_halfn %ulong_1 %hc 2\n"
                      "%c = OpExtInst %v4float %cl vloada_halfn %ulong_1 %hp 4\n"
                      "%d = OpExtInst %void %cl vstore_half %float_1 %ulong_1 %hp\n"
                      "%e = OpExtInst %void %cl vstore_half_r %float_1 %ulong_1 %hp RTE\n"
                      "%f = OpExtInst %void %cl vstore_halfn %v2f %ulong_1 %hp\n"
                      "%g = OpExtInst %void %cl vstorea_halfn_r %v4f %ulong_1 %hp RTZ"));
  EXPECT_ERROR(opencl("%a = OpExtInst %v2float %cl vload_half %ulong_1 %hp"),
               "vload_half: the result must be a 32- or 64-bit float scalar");
  EXPECT_ERROR(opencl("%b = OpExtInst %float %cl vload_halfn %ulong_1 %hp 1"),
               "vload_halfn: the result must be a vector of 2, 3, 4, 8 or 16 32- or 64-bit floats");
  EXPECT_ERROR(opencl("%c = OpExtInst %v2float %cl vloada_halfn %ulong_1 %hp 4"),
               "vloada_halfn: the result must have n components");
  EXPECT_ERROR(opencl("%a = OpExtInst %float %cl vload_half %uint_1 %hp"),
               "vload_half: the offset must be a size_t integer scalar");
  EXPECT_ERROR(opencl("%a = OpExtInst %float %cl vload_half %ulong_1 %cw"),
               "vload_half: p must be a pointer to a 16-bit float scalar");
  EXPECT_ERROR(opencl("%d = OpExtInst %void %cl vstore_half %float_1 %ulong_1 %hc"),
               "vstore_half: p must be in Generic, CrossWorkgroup, Workgroup or Function");
  EXPECT_ERROR(opencl("%d = OpExtInst %float %cl vstore_half_r %float_1 %ulong_1 %hp RTE"),
               "vstore_half_r: the result must be void");
  EXPECT_ERROR(opencl("%d = OpExtInst %void %cl vstore_half %uint_1 %ulong_1 %hp"),
               "vstore_half: the data must be a 32- or 64-bit float scalar");
  EXPECT_ERROR(opencl("%f = OpExtInst %void %cl vstore_halfn %float_1 %ulong_1 %hp"),
               "vstore_halfn: the data must be a vector of 2, 3, 4, 8 or 16 32- or 64-bit floats");
  EXPECT_ERROR(opencl("%g = OpExtInst %void %cl vstorea_halfn %v2u %ulong_1 %hp"),
               "vstorea_halfn: the data must be a vector of 2, 3, 4, 8 or 16 32- or 64-bit");
  EXPECT_ERROR(opencl("%g = OpExtInst %void %cl vstorea_halfn_r %v2f %ulong_1 %fvar RTN"),
               "vstorea_halfn_r: p must be a pointer to a 16-bit float scalar");
}

} // namespace
} // namespace spire::val

namespace spire::val {
namespace {

TEST(ValExtInstGlsl, NoOperandsPastThoseTheGrammarLists) {
  constexpr std::string_view kModule = R"(
OpCapability Shader
%1 = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %2 "main"
OpExecutionMode %2 LocalSize 1 1 1
%3 = OpTypeVoid
%4 = OpTypeFunction %3
%6 = OpTypeFloat 32
%5 = OpConstant %6 1
%2 = OpFunction %3 None %4
%7 = OpLabel
%8 = OpExtInst %6 %1 Step %5 %5
OpReturn
OpFunctionEnd
)";
  EXPECT_VALID(test::validateText(kModule));
  // The text cannot say it (spirv-as ends the instruction), so the words get a third operand.
  AssembleOptions as;
  as.preserveNumericIds = true;
  Expected<std::vector<uint32_t>> words = assemble(kModule, as);
  ASSERT_TRUE(bool(words));
  std::vector<uint32_t> w = *words;
  for (size_t p = 5; p < w.size(); p += w[p] >> 16)
    if ((w[p] & 0xFFFF) == static_cast<uint32_t>(grammar::Op::ExtInst)) {
      uint32_t count = w[p] >> 16;
      w.insert(w.begin() + static_cast<std::ptrdiff_t>(p + count), 5u);
      w[p] = (w[p] & 0xFFFF) | ((count + 1) << 16);
      break;
    }
  Expected<Module> m = Module::fromWords(std::move(w));
  ASSERT_TRUE(bool(m)) << m.error().message;
  EXPECT_ERROR(validate(*m, Options{}), "GLSL.std.450 Step takes 2 operands, not 3");
}

} // namespace
} // namespace spire::val
