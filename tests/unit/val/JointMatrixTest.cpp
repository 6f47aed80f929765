// INTEL joint matrices (SPV_INTEL_joint_matrix, from spire's grammar supplement): a kernel that
// declares, loads, multiplies, stores and measures them is valid; each rule of RulesJointMatrix
// reports its own breach; without the capability or the extension, availability says so.
#include "ValTestUtil.h"

#include <string>

namespace spire::val {
namespace {

using namespace test;

// A kernel with a Workgroup int array %shared (%p points to an element) and 8x16 (%mA), 16x8
// (%mB) and 8x8 (%mC) matrices of Subgroup scope; %a, %b and %c are loaded as them. CAPS are
// more capabilities, TYPES more declarations, BODY the code after the loads.
constexpr const char *kKernel = R"(
OpCapability Kernel
OpCapability Addresses
OpCapability Int64
OpCapability JointMatrixINTEL
CAPS
OpExtension "SPV_INTEL_joint_matrix"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k" %shared
OpName %shared "shared"
OpName %a "a"
OpName %b "b"
OpName %c "c"
OpName %mA "mA"
OpName %mB "mB"
OpName %mC "mC"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_8 = OpConstant %uint 8
%uint_16 = OpConstant %uint 16
%uint_64 = OpConstant %uint 64
%ulong_8 = OpConstant %ulong 8
%arr = OpTypeArray %uint %uint_64
%ptr_wg_arr = OpTypePointer Workgroup %arr
%ptr_wg_uint = OpTypePointer Workgroup %uint
%shared = OpVariable %ptr_wg_arr Workgroup
%mA = OpTypeJointMatrixINTEL %uint %uint_8 %uint_16 %uint_0 %uint_3
%mB = OpTypeJointMatrixINTEL %uint %uint_16 %uint_8 %uint_2 %uint_3
%mC = OpTypeJointMatrixINTEL %uint %uint_8 %uint_8 %uint_0 %uint_3
TYPES
%k = OpFunction %void None %fn
%e = OpLabel
%p = OpAccessChain %ptr_wg_uint %shared %uint_0
%a = OpJointMatrixLoadINTEL %mA %p %uint_16 %uint_0 %uint_3
%b = OpJointMatrixLoadINTEL %mB %p %ulong_8 %uint_2 %uint_3 Volatile
%c = OpJointMatrixLoadINTEL %mC %p %uint_8 %uint_0 %uint_3
BODY
OpReturn
OpFunctionEnd
)";

std::string kernel(std::string_view caps, std::string_view types, std::string_view body) {
  std::string text = replaced(kKernel, "CAPS", caps);
  text = replaced(text, "TYPES", types);
  return replaced(text, "BODY", body);
}

constexpr const char *kGoodBody = R"(%r = OpJointMatrixMadINTEL %mC %a %b %c %uint_3
OpJointMatrixStoreINTEL %p %r %uint_8 %uint_1 %uint_3 Aligned 4
%n = OpJointMatrixWorkItemLengthINTEL %uint %mC)";

} // namespace

TEST(ValJointMatrix, AKernelUsingThemIsValid) {
  Report r = validateText(kernel("", "", kGoodBody));
  EXPECT_EQ(r.errorCount(), 0u) << describe(r);
}

TEST(ValJointMatrix, NeedsTheCapabilityAndTheExtension) {
  std::string noCapability =
      replaced(kernel("", "", kGoodBody), "OpCapability JointMatrixINTEL\n", "");
  EXPECT_TRUE(hasError(validateText(noCapability), "JointMatrixINTEL"))
      << describe(validateText(noCapability));
  std::string noExtension =
      replaced(kernel("", "", kGoodBody), "OpExtension \"SPV_INTEL_joint_matrix\"\n", "");
  EXPECT_TRUE(hasError(validateText(noExtension), "SPV_INTEL_joint_matrix"))
      << describe(validateText(noExtension));
}

TEST(ValJointMatrix, TypeRules) {
  auto errors = [](std::string_view types) { return validateText(kernel("", types, kGoodBody)); };
  Report r = errors("%v2 = OpTypeVector %uint 2\n%bad = OpTypeJointMatrixINTEL %v2 %uint_8 "
                    "%uint_8 %uint_0 %uint_3");
  EXPECT_TRUE(hasError(r, "must be a numerical scalar type", "SPV_INTEL_joint_matrix"))
      << describe(r);
  r = errors("%bad = OpTypeJointMatrixINTEL %uint %ulong_8 %uint_8 %uint_0 %uint_3");
  EXPECT_TRUE(hasError(r, "Rows")) << describe(r);
  r = errors("%bad = OpTypeJointMatrixINTEL %uint %uint_8 %uint_0 %uint_0 %uint_3");
  EXPECT_TRUE(hasError(r, "Columns %uint_0 must not be 0")) << describe(r);
  r = errors("%uint_7 = OpConstant %uint 7\n%bad = OpTypeJointMatrixINTEL %uint %uint_8 %uint_8 "
             "%uint_7 %uint_3");
  EXPECT_TRUE(hasError(r, "which is no Joint Matrix Layout")) << describe(r);
  r = errors("%bad = OpTypeJointMatrixINTEL %uint %uint_8 %uint_8 %uint_0 %uint_1");
  EXPECT_TRUE(hasError(r, "must be Workgroup or Subgroup")) << describe(r);
}

TEST(ValJointMatrix, LoadStoreRules) {
  auto body = [](std::string_view extra) { return std::string(kGoodBody) + "\n" + extra.data(); };
  Report r = validateText(kernel("",
                                 "%ptr_uc_uint = OpTypePointer UniformConstant %uint\n"
                                 "%pu = OpVariable %ptr_uc_uint UniformConstant %uint_0",
                                 body("%x = OpJointMatrixLoadINTEL %mA %pu %uint_8 %uint_0 "
                                      "%uint_3")));
  EXPECT_TRUE(hasError(r, "Pointer storage class must be Workgroup or CrossWorkgroup"))
      << describe(r);
  r = validateText(kernel("", "",
                          body("%x = OpJointMatrixLoadINTEL %mA %shared %uint_8 %uint_0 "
                               "%uint_3")));
  EXPECT_TRUE(hasError(r, "must point to a scalar or vector type")) << describe(r);
  r = validateText(kernel("", "",
                          body("%x = OpJointMatrixLoadINTEL %uint %p %uint_8 %uint_0 "
                               "%uint_3")));
  EXPECT_TRUE(hasError(r, "must be an OpTypeJointMatrixINTEL")) << describe(r);
  r = validateText(kernel("", "",
                          body("%x = OpJointMatrixLoadINTEL %mA %p %uint_8 %ulong_8 "
                               "%uint_3")));
  EXPECT_TRUE(hasError(r, "Layout %ulong_8 must be a constant instruction of a 32-bit integer"))
      << describe(r);
  r = validateText(kernel("", "",
                          body("OpJointMatrixStoreINTEL %p %uint_8 %uint_8 %uint_0 "
                               "%uint_3")));
  EXPECT_TRUE(hasError(r, "Object")) << describe(r);
}

TEST(ValJointMatrix, MadAndLengthRules) {
  auto check = [](std::string_view body, std::string_view text) {
    Report r = validateText(kernel("", "", body));
    EXPECT_TRUE(hasError(r, text, "SPV_INTEL_joint_matrix")) << body << "\n" << describe(r);
  };
  check("%r = OpJointMatrixMadINTEL %mC %b %a %c %uint_3", "must give the result's shape");
  check("%r = OpJointMatrixMadINTEL %mC %a %b %a %uint_3", "C %a must be of the result type");
  check("%r = OpJointMatrixMadINTEL %uint %a %b %c %uint_3", "OpTypeJointMatrixINTEL");
  check("%n = OpJointMatrixWorkItemLengthINTEL %uint %uint", "must be an OpTypeJointMatrixINTEL");
  check("%n = OpJointMatrixWorkItemLengthINTEL %ulong %mA", "32-bit integer");
}

TEST(ValJointMatrix, VariablesOfThemAreFunctionOrPrivate) {
  Report r = validateText(
      kernel("", "%ptr_wg_mA = OpTypePointer Workgroup %mA\n%g = OpVariable %ptr_wg_mA Workgroup",
             kGoodBody));
  EXPECT_TRUE(hasError(r, "which holds a joint matrix, must be in the Function or Private"))
      << describe(r);
}

} // namespace spire::val
