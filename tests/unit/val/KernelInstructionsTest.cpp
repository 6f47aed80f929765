// Per-instruction rules met mostly in kernels: OpBitcast of pointers (3.32.11, 2.16.1), the
// kernel group instructions (3.32.21), pipes (3.32.23) and device-side enqueue (3.32.22).
#include "ValTestUtil.h"

namespace spire::val {
namespace {

// An OpenCL kernel; ADDR is the addressing model, CAPS more capabilities, GLOBALS more
// declarations and BODY the code.
constexpr const char *kKernel = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
CAPS
OpMemoryModel ADDR OpenCL
OpEntryPoint Kernel %k "k"
OpName %var "var"
OpName %v2u "v2u"
OpName %v2f "v2f"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%v2uint = OpTypeVector %uint 2
%v3uint = OpTypeVector %uint 3
%v4uint = OpTypeVector %uint 4
%v2float = OpTypeVector %float 2
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%ulong_1 = OpConstant %ulong 1
%float_1 = OpConstant %float 1
%true = OpConstantTrue %bool
%v2u = OpConstantComposite %v2uint %uint_1 %uint_1
%v3u = OpConstantComposite %v3uint %uint_1 %uint_1 %uint_1
%v4u = OpConstantComposite %v4uint %uint_1 %uint_1 %uint_1 %uint_1
%v2f = OpConstantComposite %v2float %float_1 %float_1
%ptr_fn_uint = OpTypePointer Function %uint
%ptr_fn_float = OpTypePointer Function %float
%ptr_wg_uint = OpTypePointer Workgroup %uint
GLOBALS
%k = OpFunction %void None %fn
%entry = OpLabel
%var = OpVariable %ptr_fn_uint Function
BODY
OpReturn
OpFunctionEnd
)";

Report kernel(std::string_view body, std::string_view env = "spv1.4",
              std::string_view addressing = "Physical64", std::string_view caps = "",
              std::string_view globals = "") {
  std::string text = test::replaced(kKernel, "BODY", body);
  text = test::replaced(text, "ADDR", addressing);
  text = test::replaced(text, "CAPS", caps);
  return test::validateText(test::replaced(text, "GLOBALS", globals), env);
}

TEST(ValBitcast, PointersToPointersAndIntegers) {
  EXPECT_VALID(kernel("%a = OpBitcast %ptr_fn_float %var\n%b = OpBitcast %ulong %var\n"
                      "%c = OpBitcast %ptr_fn_uint %ulong_1"));
  EXPECT_VALID(kernel("%a = OpBitcast %uint %var", "spv1.4", "Physical32"));
  EXPECT_ERROR(kernel("%a = OpBitcast %ptr_wg_uint %var"),
               "OpBitcast between pointers keeps the storage class");
  EXPECT_ERROR(kernel("%a = OpBitcast %float %var"),
               "when OpBitcast converts a pointer, the result must be a pointer or an integer "
               "scalar");
  EXPECT_ERROR(kernel("%a = OpBitcast %ptr_fn_uint %v2u"),
               "the operand must be a pointer or an integer scalar");
  EXPECT_ERROR(kernel("%a = OpBitcast %uint %var"),
               "pointers are 64-bit with this addressing model, the result has 32 bits");
  EXPECT_ERROR(kernel("%a = OpBitcast %bool %uint_1"),
               "the result type of OpBitcast must be a pointer or a numerical scalar or vector");
}

TEST(ValMemory, PtrAccessChainElementIsAnInteger) {
  // "Element is treated as a signed count of elements" (3.32.8); the dialect fuzz target found
  // a pointer there that spire val let through (and spirv-val 2023.1 accepts).
  EXPECT_VALID(kernel("%a = OpPtrAccessChain %ptr_fn_uint %var %ulong_1\n"
                      "%b = OpInBoundsPtrAccessChain %ptr_fn_uint %var %uint_0"));
  EXPECT_ERROR(kernel("%a = OpInBoundsPtrAccessChain %ptr_fn_uint %var %var"),
               "the element %var must be an integer scalar");
}

TEST(ValBitcast, VectorsOf32BitIntegersFromVersion15) {
  EXPECT_VALID(kernel("%a = OpBitcast %v2uint %var\n%b = OpBitcast %ptr_fn_uint %v2u", "spv1.5"));
  EXPECT_ERROR(kernel("%a = OpBitcast %v2uint %var", "spv1.4"),
               "the result must be a pointer or an integer scalar");
  EXPECT_ERROR(kernel("%a = OpBitcast %v2float %var", "spv1.5"), "or a vector of 32-bit integers");
  EXPECT_ERROR(kernel("%a = OpBitcast %ptr_fn_uint %v4u", "spv1.5"),
               "pointers are 64-bit with this addressing model, the operand has 128 bits");
}

// OpConvertPtrToU / OpConvertUToPtr (unsigned scalars, physical pointers), the saturating
// conversions (3.32.11) and the ordered / unordered tests (3.32.15). spirv-val 2023.1 rejects each
// invalid case too.
TEST(ValConversions, PointersSaturationAndOrdering) {
  const std::string globals = "%double = OpTypeFloat 64\n%double_1 = OpConstant %double 1";
  auto check = [&](std::string_view body, std::string_view addressing = "Physical64") {
    return kernel(body, "spv1.4", addressing, "OpCapability Float64", globals);
  };
  EXPECT_VALID(check("%p = OpConvertPtrToU %ulong %var\n"
                     "%q = OpConvertUToPtr %ptr_fn_uint %ulong_1\n"
                     "%s = OpSatConvertSToU %uint %ulong_1\n"
                     "%t = OpSatConvertUToS %v2uint %v2u\n"
                     "%o = OpOrdered %bool %float_1 %float_1\n"
                     "%u = OpUnordered %bool %double_1 %double_1\n"
                     "%l = OpLessOrGreater %bool %float_1 %float_1"));
  // (Kernels have no signed integer types either; the rule holds for every module.)
  EXPECT_ERROR(
      kernel("%p = OpConvertPtrToU %int %var", "spv1.4", "Physical64", "", "%int = OpTypeInt 64 1"),
      "OpConvertPtrToU: the result type %long must be an unsigned integer scalar "
      "(Signedness 0)");
  EXPECT_ERROR(kernel("%p = OpConvertPtrToU %ulong %var", "spv1.5", "PhysicalStorageBuffer64",
                      "OpCapability PhysicalStorageBufferAddresses"),
               "must be a physical pointer: under PhysicalStorageBuffer64 only pointers to "
               "PhysicalStorageBuffer are");
  EXPECT_ERROR(check("%p = OpConvertPtrToU %ulong %uint_1"),
               "OpConvertPtrToU: Pointer %uint_1 must be a physical pointer");
  EXPECT_ERROR(check("%q = OpConvertUToPtr %ulong %ulong_1"),
               "OpConvertUToPtr: the result type %ulong must be a physical pointer");
  EXPECT_ERROR(check("%q = OpConvertUToPtr %ptr_fn_uint %v2u"),
               "OpConvertUToPtr: Integer Value %v2u must be an unsigned integer scalar");
  EXPECT_ERROR(check("%p = OpConvertPtrToU %ulong %var", "Logical"),
               "OpConvertPtrToU: Pointer %var must be a physical pointer, and the Logical "
               "addressing model has none");
  EXPECT_ERROR(check("%s = OpSatConvertSToU %uint %v2u"),
               "OpSatConvertSToU: the value %v2u must have as many components as the result");
  EXPECT_ERROR(check("%s = OpSatConvertSToU %uint %float_1"),
               "OpSatConvertSToU: the value %float_1 must be an integer scalar or vector");
  EXPECT_ERROR(check("%s = OpSatConvertUToS %float %uint_1"),
               "OpSatConvertUToS: the result type %float must be an integer scalar or vector");
  EXPECT_ERROR(check("%o = OpOrdered %bool %float_1 %double_1"),
               "OpOrdered: y %double_1 must have the type of x %float");
  EXPECT_ERROR(check("%o = OpUnordered %bool %float_1 %v2f"),
               "must be a floating-point scalar or vector with as many components as the result");
  EXPECT_ERROR(check("%o = OpLessOrGreater %uint %float_1 %float_1"),
               "the result type of a comparison must be a boolean scalar or vector");
  EXPECT_ERROR(check("%o = OpLessOrGreater %bool %uint_1 %uint_1"),
               "must be a floating-point scalar or vector");
}

TEST(ValKernelGroups, AllAnyAndBroadcast) {
  const char *caps = "OpCapability Groups";
  EXPECT_VALID(kernel("%a = OpGroupAll %bool %uint_2 %true\n"
                      "%b = OpGroupBroadcast %float %uint_2 %float_1 %v3u",
                      "opencl2.0", "Physical64", caps));
  EXPECT_ERROR(kernel("%a = OpGroupAny %uint %uint_2 %true", "spv1.4", "Physical64", caps),
               "OpGroupAny gives a boolean scalar");
  EXPECT_ERROR(kernel("%a = OpGroupAll %bool %uint_2 %uint_1", "spv1.4", "Physical64", caps),
               "the predicate of OpGroupAll must be a boolean scalar");
  EXPECT_ERROR(
      kernel("%b = OpGroupBroadcast %uint %uint_2 %float_1 %uint_0", "spv1.4", "Physical64", caps),
      "has type %float, not the result type %uint");
  EXPECT_ERROR(
      kernel("%b = OpGroupBroadcast %uint %uint_2 %uint_1 %v4u", "spv1.4", "Physical64", caps),
      "the LocalId of OpGroupBroadcast must be an integer scalar or a vector of two");
  EXPECT_ERROR(kernel("%a = OpGroupAll %bool %uint_1 %true", "opencl2.0", "Physical64", caps),
               "the execution scope of a group instruction is Workgroup or Subgroup");
}

TEST(ValKernelGroups, Operations) {
  const char *caps = "OpCapability Groups\nOpCapability GroupUniformArithmeticKHR\n"
                     "OpExtension \"SPV_KHR_uniform_group_instructions\"";
  EXPECT_VALID(kernel("%a = OpGroupIAdd %v2uint %uint_2 Reduce %v2u\n"
                      "%b = OpGroupFMin %float %uint_2 InclusiveScan %float_1\n"
                      "%c = OpGroupBitwiseAndKHR %uint %uint_2 Reduce %uint_1\n"
                      "%d = OpGroupLogicalOrKHR %bool %uint_2 Reduce %true",
                      "spv1.4", "Physical64", caps));
  EXPECT_ERROR(
      kernel("%a = OpGroupIAdd %float %uint_2 Reduce %float_1", "spv1.4", "Physical64", caps),
      "OpGroupIAdd gives an integer scalar or vector");
  EXPECT_ERROR(
      kernel("%a = OpGroupFMax %uint %uint_2 Reduce %uint_1", "spv1.4", "Physical64", caps),
      "OpGroupFMax gives a floating-point scalar or vector");
  EXPECT_ERROR(
      kernel("%a = OpGroupUMax %uint %uint_2 Reduce %ulong_1", "spv1.4", "Physical64", caps),
      "has type %ulong, not the result type %uint");
  EXPECT_ERROR(kernel("%a = OpGroupLogicalAndKHR %uint %uint_2 Reduce %uint_1", "spv1.4",
                      "Physical64", caps),
               "gives a boolean scalar or vector");
}

// The OpenCL environment's capabilities by version and profile.
TEST(ValOpenCL, CapabilitiesOfEachVersion) {
  EXPECT_VALID(kernel("", "opencl2.0", "Physical64", "OpCapability Pipes"));
  EXPECT_ERROR(kernel("", "opencl1.2", "Physical64", "OpCapability Pipes"),
               "the Pipes capability is not one OpenCL 1.2 supports");
  EXPECT_ERROR(kernel("", "opencl2.0", "Physical64", "OpCapability Shader"),
               "the Shader capability is not one OpenCL 2.0 supports");
  EXPECT_ERROR(kernel("", "opencl2.0", "Physical64", "OpCapability Sampled1D"),
               "the Sampled1D capability is not one OpenCL 2.0 supports");
  EXPECT_VALID(
      kernel("", "opencl2.0", "Physical64", "OpCapability ImageBasic\nOpCapability Sampled1D"));
  // Float16 is optional everywhere (cl_khr_fp16, an OpenCL extension, enables it).
  EXPECT_VALID(kernel("", "opencl1.2", "Physical64", "OpCapability Float16"));
  EXPECT_VALID(kernel("", "opencl2.0", "Physical64", "OpCapability Float16"));
}

// 3.32.8: the memory instructions met in kernels, and 3.32.10's channel queries.
TEST(ValKernelMemory, SizedCopiesCastsAndLifetimes) {
  const std::string generic = "OpCapability GenericPointer";
  const std::string globals = "%ptr_gen_uint = OpTypePointer Generic %uint";
  EXPECT_VALID(kernel("OpCopyMemorySized %var %var %uint_1"));
  EXPECT_ERROR(kernel("OpCopyMemorySized %var %var %float_1"),
               "OpCopyMemorySized: Size %float_1 must be an integer scalar");
  const std::string cast = "%g = OpPtrCastToGeneric %ptr_gen_uint %var\n";
  EXPECT_VALID(kernel(cast + "%p = OpGenericCastToPtrExplicit %ptr_fn_uint %g Function\n"
                             "%s = OpGenericPtrMemSemantics %uint %g",
                      "spv1.4", "Physical64", generic, globals));
  EXPECT_ERROR(kernel(cast + "%p = OpGenericCastToPtrExplicit %ptr_fn_uint %g Workgroup", "spv1.4",
                      "Physical64", generic, globals),
               "OpGenericCastToPtrExplicit: the result type %_ptr_Function_uint must be a pointer "
               "in the Storage storage class (Workgroup)");
  EXPECT_ERROR(
      kernel("%s = OpGenericPtrMemSemantics %uint %var", "spv1.4", "Physical64", generic, globals),
      "OpGenericPtrMemSemantics: Pointer %var must be a pointer into Generic memory");
  EXPECT_ERROR(kernel("%d = OpPtrDiff %float %var %var"),
               "OpPtrDiff: the result type %float must be an integer scalar");
  EXPECT_VALID(kernel("OpLifetimeStart %var 0\nOpLifetimeStop %var 0"));
  EXPECT_ERROR(kernel("OpLifetimeStart %var 4"),
               "OpLifetimeStart: Size must be 0 unless the Addresses capability is declared and "
               "Pointer points to 8-bit integers");
  const std::string image = "OpCapability ImageBasic";
  const std::string imageGlobals = "%img = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly\n"
                                   "%ptr_img = OpTypePointer UniformConstant %img\n"
                                   "%imv = OpVariable %ptr_img UniformConstant";
  const std::string load = "%im = OpLoad %img %imv\n";
  EXPECT_VALID(kernel(load + "%o = OpImageQueryOrder %uint %im", "spv1.3", "Physical64", image,
                      imageGlobals));
  EXPECT_ERROR(kernel(load + "%o = OpImageQueryFormat %float %im", "spv1.3", "Physical64", image,
                      imageGlobals),
               "OpImageQueryFormat: the result type %float must be an integer scalar");
}

// A kernel's constant addresses: OpSpecConstantOp's access chains follow the access chain rules
// (3.32.7, 3.32.8), as the structured IR verifies them.
TEST(ValKernel, SpecConstantAccessChainsFollowTheInstructionsRules) {
  const std::string globals = "%arr = OpTypeArray %uint %uint_3\n"
                              "%ptr_cw_arr = OpTypePointer CrossWorkgroup %arr\n"
                              "%ptr_cw_uint = OpTypePointer CrossWorkgroup %uint\n"
                              "%g = OpVariable %ptr_cw_arr CrossWorkgroup\n";
  EXPECT_VALID(kernel("", "spv1.4", "Physical64", "",
                      globals + "%p = OpSpecConstantOp %ptr_cw_uint InBoundsPtrAccessChain %g "
                                "%ulong_1 %uint_2\n"));
  EXPECT_ERROR(kernel("", "spv1.4", "Physical64", "",
                      globals + "%p = OpSpecConstantOp %ptr_cw_uint InBoundsPtrAccessChain %g "
                                "%float_1 %uint_2\n"),
               "must be an integer scalar");
  EXPECT_ERROR(
      kernel("", "spv1.4", "Physical64", "",
             globals + "%p = OpSpecConstantOp %ptr_cw_arr InBoundsAccessChain %g %uint_2\n"),
      "but the indexes select");
  const std::string generic = globals + "%ptr_gen_arr = OpTypePointer Generic %arr\n";
  EXPECT_VALID(kernel("", "spv1.4", "Physical64", "OpCapability GenericPointer",
                      generic + "%p = OpSpecConstantOp %ptr_gen_arr PtrCastToGeneric %g\n"));
  EXPECT_ERROR(kernel("", "spv1.4", "Physical64", "OpCapability GenericPointer",
                      generic + "%p = OpSpecConstantOp %arr PtrCastToGeneric %g\n"),
               "a generic cast converts a pointer into a pointer");
}

} // namespace
} // namespace spire::val
