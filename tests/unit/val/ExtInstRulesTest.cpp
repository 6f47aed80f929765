// Instruction-specific rules of GLSL.std.450 (packing, Frexp / Ldexp and the struct forms,
// Find*, Refract, matrices, interpolation) and OpenCL.std (math with pointer outputs, integer
// exponents, select, shuffles, vloadn / vstoren, printf, prefetch, upsample).
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
%cl = OpExtInstImport "OpenCL.std"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uchar = OpTypeInt 8 0
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%v2float = OpTypeVector %float 2
%v4float = OpTypeVector %float 4
%v2uint = OpTypeVector %uint 2
%v4uint = OpTypeVector %uint 4
%uint_1 = OpConstant %uint 1
%ulong_1 = OpConstant %ulong 1
%float_1 = OpConstant %float 1
%v2f = OpConstantComposite %v2float %float_1 %float_1
%v4f = OpConstantComposite %v4float %float_1 %float_1 %float_1 %float_1
%v2u = OpConstantComposite %v2uint %uint_1 %uint_1
%v4u = OpConstantComposite %v4uint %uint_1 %uint_1 %uint_1 %uint_1
%ptr_fn_float = OpTypePointer Function %float
%ptr_fn_uint = OpTypePointer Function %uint
%ptr_cw_float = OpTypePointer CrossWorkgroup %float
%ptr_uc_uchar = OpTypePointer UniformConstant %uchar
%k = OpFunction %void None %fn
%entry = OpLabel
%fvar = OpVariable %ptr_fn_float Function
%uvar = OpVariable %ptr_fn_uint Function
%cw = OpBitcast %ptr_cw_float %ulong_1
%fmt = OpBitcast %ptr_uc_uchar %ulong_1
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
