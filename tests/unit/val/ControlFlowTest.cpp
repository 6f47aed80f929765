// Branches, OpPhi, merge instructions and structured control flow (SPIR-V 2.11, 3.32.17).
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
%bool = OpTypeBool
%true = OpConstantTrue %bool
%int = OpTypeInt 32 1
%int_0 = OpConstant %int 0
%int_1 = OpConstant %int 1
%float = OpTypeFloat 32
%float_1 = OpConstant %float 1
)";

std::string body(std::string_view blocks) {
  return std::string(kHeader) + "%main = OpFunction %void None %fn\n" + std::string(blocks) +
         "OpFunctionEnd\n";
}

TEST(ControlFlow, StructuredIfAndLoopAreValid) {
  EXPECT_VALID(validateText(body(R"(
%entry = OpLabel
OpSelectionMerge %merge None
OpBranchConditional %true %then %merge
%then = OpLabel
OpBranch %merge
%merge = OpLabel
%x = OpPhi %int %int_0 %entry %int_1 %then
OpBranch %header
%header = OpLabel
OpLoopMerge %exit %cont None
OpBranchConditional %true %loopbody %exit
%loopbody = OpLabel
OpBranch %cont
%cont = OpLabel
OpBranch %header
%exit = OpLabel
OpSelectionMerge %end None
OpSwitch %int_0 %end 1 %case
%case = OpLabel
OpBranch %end
%end = OpLabel
OpReturn
)")));
}

// 3.23 Loop Control: Unroll and DontUnroll exclude each other, DontUnroll excludes PeelCount and
// PartialCount, IterationMultiple is greater than 0.
TEST(ControlFlow, LoopControls) {
  auto loop = [](std::string_view control) {
    return validateText(body(R"(
%entry = OpLabel
OpBranch %header
%header = OpLabel
OpLoopMerge %exit %cont )" + std::string(control) +
                             R"(
OpBranchConditional %true %cont %exit
%cont = OpLabel
OpBranch %header
%exit = OpLabel
OpReturn
)"));
  };
  EXPECT_VALID(loop("Unroll|PeelCount 2"));
  EXPECT_VALID(loop("MaxIterations|IterationMultiple 4 2"));
  EXPECT_ERROR(loop("Unroll|DontUnroll"), "Unroll and DontUnroll cannot both be given");
  EXPECT_ERROR(loop("DontUnroll|PeelCount 2"), "PeelCount cannot go with DontUnroll");
  EXPECT_ERROR(loop("DontUnroll|PartialCount 2"), "PartialCount cannot go with DontUnroll");
  EXPECT_ERROR(loop("MaxIterations|IterationMultiple 4 0"),
               "IterationMultiple must be greater than 0");
}

TEST(ControlFlow, BranchTargetMustBeALabel) {
  Report r = validateText(body(R"(
%entry = OpLabel
OpBranch %int_0
)"));
  EXPECT_ERROR(r, "must be an OpLabel of the same function");
}

TEST(ControlFlow, BranchTargetInAnotherFunction) {
  Report r = validateText(std::string(kHeader) + R"(
%g = OpFunction %void None %fn
%gentry = OpLabel
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
OpBranch %gentry
OpFunctionEnd
)");
  EXPECT_ERROR(r, "block of another function");
}

TEST(ControlFlow, ConditionMustBeBool) {
  Report r = validateText(body(R"(
%entry = OpLabel
OpSelectionMerge %merge None
OpBranchConditional %int_1 %merge %merge
%merge = OpLabel
OpReturn
)"));
  EXPECT_ERROR(r, "needs a boolean scalar");
}

TEST(ControlFlow, SwitchSelectorAndDuplicateCases) {
  Report sel = validateText(body(R"(
%entry = OpLabel
OpSelectionMerge %merge None
OpSwitch %float_1 %merge
%merge = OpLabel
OpReturn
)"));
  EXPECT_FALSE(sel.valid());
  Report dup = validateText(body(R"(
%entry = OpLabel
OpSelectionMerge %merge None
OpSwitch %int_0 %merge 1 %a 1 %b
%a = OpLabel
OpBranch %merge
%b = OpLabel
OpBranch %merge
%merge = OpLabel
OpReturn
)"));
  EXPECT_VALID(dup);
  bool warned = false;
  for (const Problem &p : dup.problems)
    warned |= p.severity == Severity::Warning &&
              p.message.find("appears more than once") != std::string::npos;
  EXPECT_TRUE(warned) << test::describe(dup);
}

TEST(ControlFlow, ContinueTargetMustBeALabel) {
  Report r = validateText(body(R"(
%entry = OpLabel
OpBranch %header
%header = OpLabel
OpLoopMerge %exit %int_0 None
OpBranch %exit
%exit = OpLabel
OpReturn
)"));
  EXPECT_ERROR(r, "Continue Target");
}

TEST(ControlFlow, PhiNeedsOnePairPerPredecessor) {
  Report count = validateText(body(R"(
%entry = OpLabel
OpSelectionMerge %merge None
OpBranchConditional %true %then %merge
%then = OpLabel
OpBranch %merge
%merge = OpLabel
%x = OpPhi %int %int_0 %entry
OpReturn
)"));
  EXPECT_ERROR(count, "one pair per predecessor");
  Report parent = validateText(body(R"(
%entry = OpLabel
OpSelectionMerge %merge None
OpBranchConditional %true %then %merge
%then = OpLabel
OpBranch %merge
%merge = OpLabel
%x = OpPhi %int %int_0 %entry %int_1 %merge
OpReturn
)"));
  EXPECT_ERROR(parent, "is not a predecessor");
  Report type = validateText(body(R"(
%entry = OpLabel
OpSelectionMerge %merge None
OpBranchConditional %true %then %merge
%then = OpLabel
OpBranch %merge
%merge = OpLabel
%x = OpPhi %int %int_0 %entry %float_1 %then
OpReturn
)"));
  EXPECT_ERROR(type, "the incoming value");
}

TEST(ControlFlow, PhiValueDominatesItsParent) {
  Report r = validateText(body(R"(
%entry = OpLabel
OpSelectionMerge %merge None
OpBranchConditional %true %then %else
%then = OpLabel
%v = OpIAdd %int %int_1 %int_1
OpBranch %merge
%else = OpLabel
OpBranch %merge
%merge = OpLabel
%x = OpPhi %int %v %then %v %else
OpReturn
)"));
  EXPECT_ERROR(r, "which does not dominate its parent");
}

TEST(ControlFlow, PhiMustComeFirst) {
  Report r = validateText(body(R"(
%entry = OpLabel
OpBranch %next
%next = OpLabel
%y = OpIAdd %int %int_1 %int_1
%x = OpPhi %int %int_0 %entry
OpReturn
)"));
  EXPECT_ERROR(r, "OpPhi must come first");
}

TEST(ControlFlow, MergeMustPrecedeTerminator) {
  Report r = validateText(body(R"(
%entry = OpLabel
OpSelectionMerge %merge None
%y = OpIAdd %int %int_1 %int_1
OpBranchConditional %true %merge %merge
%merge = OpLabel
OpReturn
)"));
  EXPECT_ERROR(r, "must come right before");
  Report loop = validateText(body(R"(
%entry = OpLabel
OpBranch %header
%header = OpLabel
OpLoopMerge %exit %header None
OpSwitch %int_0 %exit
%exit = OpLabel
OpReturn
)"));
  EXPECT_ERROR(loop, "OpBranch or OpBranchConditional");
}

TEST(ControlFlow, EntryBlockIsNotATarget) {
  Report r = validateText(body(R"(
%entry = OpLabel
OpBranch %entry
)"));
  EXPECT_ERROR(r, "must not be targeted");
}

TEST(ControlFlow, BlocksComeAfterTheirDominators) {
  Report r = validateText(body(R"(
%entry = OpLabel
OpBranch %b
%c = OpLabel
OpReturn
%b = OpLabel
OpBranch %c
)"));
  EXPECT_ERROR(r, "comes before its dominator");
}

TEST(ControlFlow, MergeBlockOfTwoHeaders) {
  Report r = validateText(body(R"(
%entry = OpLabel
OpSelectionMerge %merge None
OpBranchConditional %true %then %merge
%then = OpLabel
OpSelectionMerge %merge None
OpBranchConditional %true %inner %merge
%inner = OpLabel
OpBranch %merge
%merge = OpLabel
OpReturn
)"));
  EXPECT_ERROR(r, "merge block of only one header");
}

TEST(ControlFlow, UnstructuredSelectionInAShader) {
  Report r = validateText(body(R"(
%entry = OpLabel
OpBranchConditional %true %a %b
%a = OpLabel
OpReturn
%b = OpLabel
OpReturn
)"));
  EXPECT_ERROR(r, "is not structured");
  Report sw = validateText(body(R"(
%entry = OpLabel
OpSwitch %int_0 %a
%a = OpLabel
OpReturn
)"));
  EXPECT_ERROR(sw, "must be preceded by an OpSelectionMerge");
}

TEST(ControlFlow, KernelsNeedNoMerges) {
  EXPECT_VALID(validateText(R"(
OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%bool = OpTypeBool
%true = OpConstantTrue %bool
%fn = OpTypeFunction %void
%k = OpFunction %void None %fn
%e = OpLabel
OpBranchConditional %true %a %b
%a = OpLabel
OpBranch %b
%b = OpLabel
OpBranchConditional %true %a2 %e2
%a2 = OpLabel
OpBranch %b
%e2 = OpLabel
OpReturn
OpFunctionEnd
)",
                            "opencl2.0"));
}

TEST(ControlFlow, LoopWithTwoBackEdges) {
  Report r = validateText(body(R"(
%entry = OpLabel
OpBranch %header
%header = OpLabel
OpLoopMerge %exit %cont None
OpBranchConditional %true %body %exit
%body = OpLabel
OpSelectionMerge %cont None
OpBranchConditional %true %header %cont
%cont = OpLabel
OpBranch %header
%exit = OpLabel
OpReturn
)"));
  EXPECT_ERROR(r, "back edges; a loop has exactly one");
}

TEST(ControlFlow, BackEdgeMustLeaveFromTheContinueConstruct) {
  Report r = validateText(body(R"(
%entry = OpLabel
OpBranch %header
%header = OpLabel
OpLoopMerge %exit %cont None
OpBranchConditional %true %loopbody %cont
%loopbody = OpLabel
OpBranch %header
%cont = OpLabel
OpBranchConditional %true %header %exit
%exit = OpLabel
OpReturn
)"));
  EXPECT_ERROR(r, "must dominate the back-edge block");
}

TEST(ControlFlow, SameTrueAndFalseLabelFromSpirv16) {
  const std::string text = body(R"(
%entry = OpLabel
OpSelectionMerge %merge None
OpBranchConditional %true %merge %merge
%merge = OpLabel
OpReturn
)");
  EXPECT_ERROR(validateText(text), "they must differ");
  EXPECT_VALID(validateText(text, "spv1.5"));
}

TEST(ControlFlow, PhiListsEachParentOnce) {
  Report r = validateText(body(R"(
%entry = OpLabel
OpSelectionMerge %merge None
OpBranchConditional %true %then %merge
%then = OpLabel
OpBranch %merge
%merge = OpLabel
%x = OpPhi %int %int_0 %entry %int_1 %entry
OpReturn
)"));
  EXPECT_ERROR(r, "more than once");
}

TEST(ControlFlow, ConstructEnteredOnlyThroughItsHeader) {
  // The merge block of the selection jumps back into its middle.
  Report r = validateText(body(R"(
%entry = OpLabel
OpBranch %header
%header = OpLabel
OpLoopMerge %exit %cont None
OpBranch %sel
%sel = OpLabel
OpSelectionMerge %selmerge None
OpBranchConditional %true %then %selmerge
%then = OpLabel
OpBranch %cont
%selmerge = OpLabel
OpBranchConditional %true %then %cont
%cont = OpLabel
OpBranchConditional %true %header %exit
%exit = OpLabel
OpReturn
)"));
  EXPECT_ERROR(r, "a construct may only be entered through its header");
  // A branch to the loop's continue target from inside a nested selection is fine.
  EXPECT_VALID(validateText(body(R"(
%entry = OpLabel
OpBranch %header
%header = OpLabel
OpLoopMerge %exit %cont None
OpBranch %sel
%sel = OpLabel
OpSelectionMerge %selmerge None
OpBranchConditional %true %then %selmerge
%then = OpLabel
OpBranch %cont
%selmerge = OpLabel
OpBranch %cont
%cont = OpLabel
OpBranchConditional %true %header %exit
%exit = OpLabel
OpReturn
)")));
}

TEST(ControlFlow, ContinueTargetOnlyFromInsideTheLoop) {
  Report r = validateText(body(R"(
%entry = OpLabel
OpBranch %header
%header = OpLabel
OpLoopMerge %exit %cont None
OpBranchConditional %true %body %exit
%body = OpLabel
OpBranch %cont
%dead = OpLabel
OpBranch %cont
%cont = OpLabel
OpBranch %header
%exit = OpLabel
OpReturn
)"));
  EXPECT_ERROR(r, "is not inside that loop");
}

TEST(ControlFlow, SelectionLeftOnlyByStructuredExits) {
  // The inner selection jumps past its merge block to the outer selection's merge.
  Report r = validateText(body(R"(
%entry = OpLabel
OpSelectionMerge %outer None
OpBranchConditional %true %a %outer
%a = OpLabel
OpSelectionMerge %inner None
OpBranchConditional %true %b %inner
%b = OpLabel
OpBranch %outer
%inner = OpLabel
OpBranch %outer
%outer = OpLabel
OpReturn
)"));
  EXPECT_ERROR(r, "not a structured exit");
  // Breaking out of a loop from a selection inside it is structured.
  EXPECT_VALID(validateText(body(R"(
%entry = OpLabel
OpBranch %header
%header = OpLabel
OpLoopMerge %exit %cont None
OpBranch %sel
%sel = OpLabel
OpSelectionMerge %selmerge None
OpBranchConditional %true %brk %selmerge
%brk = OpLabel
OpBranch %exit
%selmerge = OpLabel
OpBranch %cont
%cont = OpLabel
OpBranchConditional %true %header %exit
%exit = OpLabel
OpReturn
)")));
}

TEST(ControlFlow, SwitchFallThrough) {
  EXPECT_VALID(validateText(body(R"(
%entry = OpLabel
OpSelectionMerge %m None
OpSwitch %int_0 %m 1 %a 2 %b
%a = OpLabel
OpBranch %b
%b = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
)")));
  Report order = validateText(body(R"(
%entry = OpLabel
OpSelectionMerge %m None
OpSwitch %int_0 %m 1 %b 2 %a
%a = OpLabel
OpBranch %b
%b = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
)"));
  EXPECT_ERROR(order, "must come right before that case");
  Report two = validateText(body(R"(
%entry = OpLabel
OpSelectionMerge %m None
OpSwitch %int_0 %m 1 %a 2 %b 3 %c
%a = OpLabel
OpBranchConditional %true %b %c
%b = OpLabel
OpBranch %m
%c = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
)"));
  EXPECT_ERROR(two, "branches to two other cases");
  Report many = validateText(body(R"(
%entry = OpLabel
OpSelectionMerge %m None
OpSwitch %int_0 %m 1 %a 2 %c 3 %b
%a = OpLabel
OpBranch %c
%b = OpLabel
OpBranch %c
%c = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
)"));
  EXPECT_ERROR(many, "at most one case may branch into another");
}

TEST(ControlFlow, NestedConstructEndsInsideItsParent) {
  Report r = validateText(body(R"(
%entry = OpLabel
OpSelectionMerge %end None
OpBranchConditional %true %loop %selmerge
%loop = OpLabel
OpLoopMerge %exit %cont None
OpBranch %sel
%sel = OpLabel
OpSelectionMerge %selmerge None
OpBranchConditional %true %a %cont
%a = OpLabel
OpBranch %cont
%cont = OpLabel
OpBranchConditional %true %loop %exit
%exit = OpLabel
OpBranch %end
%selmerge = OpLabel
OpBranch %end
%end = OpLabel
OpReturn
)"));
  EXPECT_ERROR(r, "nested constructs must end inside the construct around them");
}

TEST(ControlFlow, BackEdgeBlockPostDominatesTheContinueTarget) {
  Report r = validateText(body(R"(
%entry = OpLabel
OpBranch %h
%h = OpLabel
OpLoopMerge %exit %cont None
OpBranchConditional %true %loopbody %exit
%loopbody = OpLabel
OpBranch %cont
%cont = OpLabel
OpBranchConditional %true %be %exit
%be = OpLabel
OpBranch %h
%exit = OpLabel
OpReturn
)"));
  EXPECT_ERROR(r, "does not post-dominate its continue target");
}

TEST(ControlFlow, BackEdgeToANonHeader) {
  Report r = validateText(body(R"(
%entry = OpLabel
OpBranch %a
%a = OpLabel
OpBranch %b
%b = OpLabel
OpBranch %a
)"));
  EXPECT_ERROR(r, "is not a loop header");
}

} // namespace
} // namespace spire::val
