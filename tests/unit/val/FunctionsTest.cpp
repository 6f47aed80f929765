// Functions, parameters, calls, returns and entry point functions (SPIR-V 2.16.1, 3.32.9).
#include "ValTestUtil.h"

namespace spire::val {
namespace {

using test::validateText;

constexpr std::string_view kHeader = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%int_1 = OpConstant %int 1
%float_1 = OpConstant %float 1
%fn_int_int = OpTypeFunction %int %int
)";

constexpr std::string_view kMain = R"(
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";

std::string module(std::string_view body) {
  return std::string(kHeader) + std::string(body) + std::string(kMain);
}

constexpr std::string_view kCallee = R"(
%f = OpFunction %int None %fn_int_int
%p = OpFunctionParameter %int
%fe = OpLabel
OpReturnValue %p
OpFunctionEnd
)";

TEST(Functions, ValidCallIsValid) {
  EXPECT_VALID(validateText(std::string(kHeader) + std::string(kCallee) + R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%r = OpFunctionCall %int %f %int_1
OpReturn
OpFunctionEnd
)"));
}

TEST(Functions, ResultTypeDiffersFromFunctionType) {
  Report r = validateText(module(R"(
%f = OpFunction %float None %fn_int_int
%p = OpFunctionParameter %int
%fe = OpLabel
OpReturnValue %float_1
OpFunctionEnd
)"));
  EXPECT_ERROR(r, "differs from the return type");
}

TEST(Functions, FunctionTypeIsNotATypeFunction) {
  Report r = validateText(module(R"(
%f = OpFunction %int None %int
%fe = OpLabel
OpReturnValue %int_1
OpFunctionEnd
)"));
  EXPECT_ERROR(r, "is not an OpTypeFunction");
}

TEST(Functions, ParameterTypeMismatch) {
  Report r = validateText(module(R"(
%f = OpFunction %int None %fn_int_int
%p = OpFunctionParameter %float
%fe = OpLabel
OpReturnValue %int_1
OpFunctionEnd
)"));
  EXPECT_ERROR(r, "parameter #0");
}

TEST(Functions, TooManyAndTooFewParameters) {
  Report many = validateText(module(R"(
%f = OpFunction %int None %fn_int_int
%p = OpFunctionParameter %int
%q = OpFunctionParameter %int
%fe = OpLabel
OpReturnValue %p
OpFunctionEnd
)"));
  EXPECT_ERROR(many, "more parameters than");
  Report few = validateText(module(R"(
%f = OpFunction %int None %fn_int_int
%fe = OpLabel
OpReturnValue %int_1
OpFunctionEnd
)"));
  EXPECT_ERROR(few, "has 0 parameter(s)");
}

TEST(Functions, CallOfANonFunction) {
  Report r = validateText(std::string(kHeader) + R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%r = OpFunctionCall %int %int_1 %int_1
OpReturn
OpFunctionEnd
)");
  EXPECT_ERROR(r, "is not a function");
}

TEST(Functions, CallArgumentCountAndTypes) {
  Report count = validateText(std::string(kHeader) + std::string(kCallee) + R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%r = OpFunctionCall %int %f %int_1 %int_1
OpReturn
OpFunctionEnd
)");
  EXPECT_ERROR(count, "passes 2 argument(s)");
  Report type = validateText(std::string(kHeader) + std::string(kCallee) + R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%r = OpFunctionCall %int %f %float_1
OpReturn
OpFunctionEnd
)");
  EXPECT_ERROR(type, "argument #0");
  Report result = validateText(std::string(kHeader) + std::string(kCallee) + R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%r = OpFunctionCall %float %f %int_1
OpReturn
OpFunctionEnd
)");
  EXPECT_ERROR(result, "differs from the return type");
}

TEST(Functions, ReturnKinds) {
  Report plain = validateText(module(R"(
%f = OpFunction %int None %fn_int_int
%p = OpFunctionParameter %int
%fe = OpLabel
OpReturn
OpFunctionEnd
)"));
  EXPECT_ERROR(plain, "must use OpReturnValue");
  Report value = validateText(module(R"(
%g = OpFunction %void None %fn
%ge = OpLabel
OpReturnValue %int_1
OpFunctionEnd
)"));
  EXPECT_ERROR(value, "must use OpReturn");
  Report type = validateText(module(R"(
%f = OpFunction %int None %fn_int_int
%p = OpFunctionParameter %int
%fe = OpLabel
OpReturnValue %float_1
OpFunctionEnd
)"));
  EXPECT_ERROR(type, "the returned value");
  // 2.16.1: returning a logical pointer needs variable pointers.
  const std::string pointer = R"(
%ptr = OpTypePointer Function %int
%fn_ptr = OpTypeFunction %ptr %ptr
%f = OpFunction %ptr None %fn_ptr
%p = OpFunctionParameter %ptr
%fe = OpLabel
OpReturnValue %p
OpFunctionEnd
)";
  EXPECT_ERROR(validateText(module(pointer)),
               "with the Logical addressing model, returning the pointer");
  EXPECT_VALID(validateText(test::replaced(module(pointer), "OpCapability Shader",
                                           "OpCapability Shader\nOpCapability VariablePointers"),
                            "spv1.3"));
}

TEST(Functions, EntryPointMustBeAVoidFunctionWithoutParameters) {
  Report notFn = validateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %int_1 "main"
%int = OpTypeInt 32 1
%int_1 = OpConstant %int 1
)");
  EXPECT_ERROR(notFn, "is not a function");
  Report params = validateText(std::string(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %f "main"
OpExecutionMode %f LocalSize 1 1 1
%void = OpTypeVoid
%int = OpTypeInt 32 1
%fn_int_int = OpTypeFunction %int %int
)") + std::string(kCallee));
  EXPECT_ERROR(params, "has parameters");
  EXPECT_ERROR(params, "must return void");
}

TEST(Functions, KernelEntryPointMayTakeParameters) {
  EXPECT_VALID(validateText(R"(
OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%int = OpTypeInt 32 0
%fn = OpTypeFunction %void %int
%k = OpFunction %void None %fn
%p = OpFunctionParameter %int
%e = OpLabel
OpReturn
OpFunctionEnd
)",
                            "opencl2.0"));
}

// 2.16.1: "It is invalid for any function to be targeted by both an OpEntryPoint instruction and
// an OpFunctionCall instruction."
TEST(Functions, EntryPointsAreNotCalled) {
  EXPECT_ERROR(validateText(module("%helper = OpFunction %void None %fn\n%he = OpLabel\n"
                                   "%r = OpFunctionCall %void %main\nOpReturn\nOpFunctionEnd\n")),
               "the callee %1 is an entry point's function");
}

// 2.16.1, Logical addressing: calls take pointers into UniformConstant, Function, Private,
// Workgroup or AtomicCounter memory, and memory object declarations.
TEST(Functions, LogicalPointerArguments) {
  const std::string callee = "%pf = OpTypePointer STORAGE %int\n%fnp = OpTypeFunction %void %pf\n"
                             "%g = OpVariable %pf STORAGE\n"
                             "%callee = OpFunction %void None %fnp\n%cp = OpFunctionParameter %pf\n"
                             "%ce = OpLabel\nOpReturn\nOpFunctionEnd\n"
                             "%caller = OpFunction %void None %fn\n%ke = OpLabel\n"
                             "%r = OpFunctionCall %void %callee ARG\nOpReturn\nOpFunctionEnd\n";
  auto call = [&](std::string_view storage, std::string_view arg) {
    return validateText(
        test::replaced(test::replaced(module(callee), "STORAGE", storage), "ARG", arg), "spv1.3");
  };
  EXPECT_VALID(call("Private", "%g"));
  EXPECT_ERROR(call("Input", "%g"), "points into Input memory; with the Logical addressing model");
  const std::string element =
      "%arr = OpTypeArray %int %int_1\n%pa = OpTypePointer Private %arr\n%pf = OpTypePointer "
      "Private %int\n%fnp = OpTypeFunction %void %pf\n%a = OpVariable %pa Private\n"
      "%callee = OpFunction %void None %fnp\n%cp = OpFunctionParameter %pf\n"
      "%ce = OpLabel\nOpReturn\nOpFunctionEnd\n"
      "%caller = OpFunction %void None %fn\n%ke = OpLabel\n%e = OpAccessChain %pf %a %int_1\n"
      "%r = OpFunctionCall %void %callee %e\nOpReturn\nOpFunctionEnd\n";
  EXPECT_ERROR(validateText(module(element), "spv1.3"),
               "must be a memory object declaration (a variable or a function parameter)");
}

TEST(Functions, FunctionIdIsNotAValue) {
  Report r = validateText(std::string(kHeader) + std::string(kCallee) + R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpCopyObject %int %f
OpReturn
OpFunctionEnd
)");
  EXPECT_ERROR(r, "is a function where a value is expected");
}

TEST(Functions, FunctionTypeOnlyTypesFunctions) {
  Report r = validateText(module(R"(
%ptr = OpTypePointer Function %int
%arr = OpTypeArray %fn_int_int %int_1
)"));
  EXPECT_ERROR(r, "may only be used by OpFunction");
  std::string named = std::string(kHeader) + std::string(kCallee) + std::string(kMain);
  const std::string modeLine = "LocalSize 1 1 1\n";
  named.insert(named.find(modeLine) + modeLine.size(), "OpName %fn_int_int \"fnty\"\n");
  EXPECT_VALID(validateText(named));
}

} // namespace
} // namespace spire::val
