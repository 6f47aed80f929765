// Rules of definitions and uses (2.2, 2.4, 2.5, 2.16.1): one definition per id, defined before
// use outside 2.4's forward references, types and values in their places, dominance.
#include "ValTestUtil.h"

namespace spire::val {
namespace {

std::string compute(std::string_view globals, std::string_view body) {
  return std::string(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %main "main"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%bool = OpTypeBool
%true = OpConstantTrue %bool
%int_1 = OpConstant %int 1
)") + std::string(globals) +
         R"(
%main = OpFunction %void None %fn
%entry = OpLabel
)" + std::string(body) +
         R"(
OpFunctionEnd
)";
}

TEST(ValIds, ForwardReferencesThatTwoPointFourAllowsAreValid) {
  // OpName, OpEntryPoint and OpExecutionMode name %main before it is defined; branches name
  // later labels; OpPhi names a value of a later block.
  EXPECT_VALID(test::validateText(compute("", R"(
OpBranch %loop
%loop = OpLabel
%i = OpPhi %int %int_1 %entry %next %loop
%next = OpIAdd %int %i %int_1
OpLoopMerge %exit %loop None
OpBranchConditional %true %loop %exit
%exit = OpLabel
OpReturn)")));
}

TEST(ValIds, IdDefinedTwice) {
  Report r = test::validateText(compute("%int_1 = OpConstant %int 2\n", "OpReturn"));
  EXPECT_ERROR(r, "is already the result of instruction");
}

TEST(ValIds, UndefinedId) {
  Report r = test::validateText(compute("", "%x = OpIAdd %int %int_1 %nowhere\nOpReturn"));
  EXPECT_ERROR(r, "is used but never defined");
}

TEST(ValIds, UseBeforeDefinitionOutsideTheAllowedForwardReferences) {
  Report r = test::validateText(compute("%c = OpConstantComposite %v2 %int_1 %int_1\n"
                                        "%v2 = OpTypeVector %int 2\n",
                                        "OpReturn"));
  EXPECT_ERROR(r, "is used before its definition");
  Report inBody = test::validateText(
      compute("", "%a = OpIAdd %int %b %int_1\n%b = OpIAdd %int %int_1 %int_1\nOpReturn"));
  EXPECT_ERROR(inBody, "is used before its definition (instruction 14)");
}

// OpExtInst is not among 2.4's forward references, non-semantic sets included (spirv-val
// v2026.4 agrees); OpExtInstWithForwardRefsKHR (SPV_KHR_relaxed_extended_instruction) is.
TEST(ValIds, ExtendedInstructionsReferToEarlierIdsOnly) {
  const std::string later = "%b = OpExtInst %void %ns 1 %fmt %c\n%c = OpExtInst %void %ns 1 %fmt\n";
  std::string text = compute("", later + "OpReturn");
  text = test::replaced(text, "OpMemoryModel",
                        "OpExtension \"SPV_KHR_non_semantic_info\"\n"
                        "%ns = OpExtInstImport \"NonSemantic.DebugPrintf\"\nOpMemoryModel");
  text = test::replaced(text, "OpName %main", "%fmt = OpString \"%u\"\nOpName %main");
  EXPECT_ERROR(test::validateText(text), "is used before its definition");
  EXPECT_VALID(test::validateText(test::replaced(
      text, later, "%c = OpExtInst %void %ns 1 %fmt\n%b = OpExtInst %void %ns 1 %fmt %c\n")));
  // (OpExtInstWithForwardRefsKHR, which SPV_KHR_relaxed_extended_instruction adds for such
  // references, is not yet known to the assembler's and reader's extended-instruction decoding.)
}

TEST(ValIds, ForwardDeclaredPointerMayBeUsedBeforeItsDefinition) {
  EXPECT_VALID(test::validateText(R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Linkage
OpMemoryModel Physical64 OpenCL
OpTypeForwardPointer %ptr CrossWorkgroup
%s = OpTypeStruct %ptr
%ptr = OpTypePointer CrossWorkgroup %s
)",
                                  "spv1.6"));
}

TEST(ValIds, TypeWhereValueIsExpectedAndValueWhereTypeIsExpected) {
  EXPECT_ERROR(test::validateText(compute("", "%x = OpIAdd %int %int %int_1\nOpReturn")),
               "%int is a type where a value is expected");
  EXPECT_ERROR(test::validateText(compute("", "%x = OpIAdd %int_1 %int_1 %int_1\nOpReturn")),
               "result type %int_1 is not a type");
  EXPECT_ERROR(test::validateText(compute("", "%x = OpIAdd %int %entry %int_1\nOpReturn")),
               "is a label where a value is expected");
  // A function is named only by the operands that take one (OpFunctionCall's Function, ...):
  // the dialect fuzz target found one passed to GLSL.std.450 Cross, whose type checks held
  // because OpFunction's result type is the function's return type.
  const std::string f = "%fi = OpTypeFunction %int\n";
  const std::string callee =
      "\nOpFunctionEnd\n%g = OpFunction %int None %fi\n%gl = OpLabel\nOpReturnValue %int_1";
  EXPECT_VALID(test::validateText(compute(f, "%x = OpFunctionCall %int %g\nOpReturn" + callee)));
  EXPECT_ERROR(test::validateText(compute(f, "%x = OpIAdd %int %g %int_1\nOpReturn" + callee)),
               "is a function where a value is expected");
  EXPECT_ERROR(test::validateText(compute(f, "%x = OpFunctionCall %int %g %g\nOpReturn" + callee)),
               "is a function where a value is expected");
}

TEST(ValIds, ValueOfAnotherFunction) {
  Report r = test::validateText(compute("", R"(
%a = OpIAdd %int %int_1 %int_1
OpReturn
OpFunctionEnd
%other = OpFunction %void None %fn
%l = OpLabel
%b = OpIAdd %int %a %int_1
OpReturn)"));
  EXPECT_ERROR(r, "is defined in another function");
  // OpPhi may name later values, but of its own function only (the dialect fuzz target found a
  // phi taking another function's value).
  Report phi = test::validateText(compute("", R"(
%a = OpIAdd %int %int_1 %int_1
OpReturn
OpFunctionEnd
%other = OpFunction %void None %fn
%l = OpLabel
OpBranch %next
%next = OpLabel
%p = OpPhi %int %a %l
OpReturn)"));
  EXPECT_ERROR(phi, "is defined in another function");
}

TEST(ValIds, DefinitionMustDominateUse) {
  Report r = test::validateText(compute("", R"(
OpSelectionMerge %merge None
OpBranchConditional %true %then %merge
%then = OpLabel
%v = OpIAdd %int %int_1 %int_1
OpBranch %merge
%merge = OpLabel
%w = OpIAdd %int %v %int_1
OpReturn)"));
  EXPECT_ERROR(r, "does not dominate this use in block");
}

TEST(ValIds, PhiOperandMustDominateItsParentBlock) {
  Report r = test::validateText(compute("", R"(
OpSelectionMerge %merge None
OpBranchConditional %true %then %else
%then = OpLabel
%v = OpIAdd %int %int_1 %int_1
OpBranch %merge
%else = OpLabel
OpBranch %merge
%merge = OpLabel
%p = OpPhi %int %v %then %v %else
OpReturn)"));
  EXPECT_ERROR(r, "does not dominate its parent");
  EXPECT_EQ(r.errorCount(), 1u) << test::describe(r);
}

TEST(ValIds, UnreachableUsesAreNotCheckedForDominance) {
  EXPECT_VALID(test::validateText(compute("", R"(
OpSelectionMerge %merge None
OpBranchConditional %true %then %merge
%then = OpLabel
%v = OpIAdd %int %int_1 %int_1
OpBranch %merge
%dead = OpLabel
%w = OpIAdd %int %v %int_1
OpBranch %merge
%merge = OpLabel
OpReturn)")));
}

} // namespace
} // namespace spire::val
