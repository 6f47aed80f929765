// The logical layout rules (SPIR-V 2.4): section order and the structure of functions and blocks.
#include "ValTestUtil.h"

namespace spire::val {
namespace {

using test::validateText;

constexpr std::string_view kHeader = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
)";

std::string module(std::string_view body) { return std::string(kHeader) + std::string(body); }

constexpr std::string_view kTypes = R"(
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%int_1 = OpConstant %int 1
%ptr = OpTypePointer Function %int
)";

TEST(Layout, OrderedModuleIsValid) {
  EXPECT_VALID(validateText(std::string(kHeader) + R"(
%str = OpString "a.comp"
OpSource GLSL 450
OpName %main "main"
OpModuleProcessed "test"
OpDecorate %int_1 RelaxedPrecision
)" + std::string(kTypes) + R"(
OpLine %str 1 1
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpVariable %ptr Function
OpLine %str 2 1
OpStore %v %int_1
OpReturn
OpFunctionEnd
)"));
}

TEST(Layout, NameAfterTypesIsOutOfOrder) {
  Report r = validateText(module(std::string(kTypes) + R"(
OpName %main "main"
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)"));
  EXPECT_ERROR(r, "OpName is out of order");
  EXPECT_ERROR(r, "debug names");
}

TEST(Layout, DecorateAfterTypesIsOutOfOrder) {
  Report r = validateText(module(std::string(kTypes) + R"(
OpDecorate %int_1 RelaxedPrecision
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)"));
  EXPECT_ERROR(r, "OpDecorate is out of order");
}

TEST(Layout, EntryPointBeforeMemoryModel) {
  Report r = validateText(R"(
OpCapability Shader
OpEntryPoint GLCompute %main "main"
OpMemoryModel Logical GLSL450
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_ERROR(r, "OpEntryPoint cannot appear before the memory model instruction");
}

TEST(Layout, MissingMemoryModel) {
  Report r = validateText(R"(
OpCapability Shader
OpCapability Linkage
%void = OpTypeVoid
)");
  EXPECT_ERROR(r, "cannot appear before the memory model");
  Report r2 = validateText(R"(
OpCapability Shader
)");
  EXPECT_ERROR(r2, "no OpMemoryModel");
}

TEST(Layout, SecondMemoryModel) {
  Report r = validateText(R"(
OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpMemoryModel Logical GLSL450
)");
  EXPECT_ERROR(r, "a second OpMemoryModel");
}

TEST(Layout, ExecutionModeAfterDebugIsOutOfOrder) {
  Report r = validateText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpName %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)");
  EXPECT_ERROR(r, "OpExecutionMode is out of order");
}

TEST(Layout, TypeInsideFunction) {
  Report r = validateText(module(std::string(kTypes) + R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%float = OpTypeFloat 32
OpReturn
OpFunctionEnd
)"));
  EXPECT_ERROR(r, "OpTypeFloat cannot appear among the functions");
}

TEST(Layout, FunctionEndInsideBlock) {
  Report r = validateText(module(std::string(kTypes) + R"(
%main = OpFunction %void None %fn
%entry = OpLabel
OpFunctionEnd
)"));
  EXPECT_ERROR(r, "OpFunctionEnd inside a block");
}

TEST(Layout, MissingFunctionEnd) {
  Report r = validateText(module(std::string(kTypes) + R"(
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
)"));
  EXPECT_ERROR(r, "missing OpFunctionEnd at end of module");
}

TEST(Layout, FunctionEndOutsideFunction) {
  Report r = validateText(module(std::string(kTypes) + R"(
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
OpFunctionEnd
)"));
  EXPECT_ERROR(r, "OpFunctionEnd outside a function body");
}

TEST(Layout, FunctionInsideFunction) {
  Report r = validateText(module(std::string(kTypes) + R"(
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
%other = OpFunction %void None %fn
%b = OpLabel
OpReturn
OpFunctionEnd
)"));
  EXPECT_ERROR(r, "OpFunction inside the body of the function");
}

TEST(Layout, ParameterOutsideFunction) {
  Report r = validateText(module(std::string(kTypes) + R"(
%p = OpFunctionParameter %int
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)"));
  EXPECT_ERROR(r, "OpFunctionParameter outside a function body");
}

TEST(Layout, ParameterAfterLabel) {
  Report r = validateText(module(std::string(kTypes) + R"(
%fn1 = OpTypeFunction %void %int
%f = OpFunction %void None %fn1
%entry = OpLabel
%p = OpFunctionParameter %int
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fn
%e2 = OpLabel
OpReturn
OpFunctionEnd
)"));
  EXPECT_ERROR(r, "OpFunctionParameter after the first block");
}

TEST(Layout, LabelOutsideFunction) {
  Report r = validateText(module(std::string(kTypes) + R"(
%l = OpLabel
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)"));
  EXPECT_ERROR(r, "OpLabel outside a function body");
}

TEST(Layout, BlockWithoutTerminator) {
  Report r = validateText(module(std::string(kTypes) + R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%next = OpLabel
OpReturn
OpFunctionEnd
)"));
  EXPECT_ERROR(r, "OpLabel inside a block");
}

TEST(Layout, InstructionAfterTerminator) {
  Report r = validateText(module(std::string(kTypes) + R"(
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
%x = OpIAdd %int %int_1 %int_1
OpFunctionEnd
)"));
  EXPECT_ERROR(r, "OpIAdd must appear in a block");
}

TEST(Layout, InstructionBeforeFirstLabel) {
  Report r = validateText(module(std::string(kTypes) + R"(
%main = OpFunction %void None %fn
%x = OpIAdd %int %int_1 %int_1
%entry = OpLabel
OpReturn
OpFunctionEnd
)"));
  EXPECT_ERROR(r, "before the first OpLabel");
}

TEST(Layout, DeclarationAfterDefinition) {
  Report r = validateText(R"(
OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpDecorate %ext LinkageAttributes "ext" Import
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
%ext = OpFunction %void None %fn
OpFunctionEnd
)");
  EXPECT_ERROR(r, "all declarations must come before the definitions");
  EXPECT_VALID(validateText(R"(
OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpDecorate %ext LinkageAttributes "ext" Import
%void = OpTypeVoid
%fn = OpTypeFunction %void
%ext = OpFunction %void None %fn
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)"));
}

TEST(Layout, VariableAfterOtherInstructions) {
  Report r = validateText(module(std::string(kTypes) + R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpIAdd %int %int_1 %int_1
%v = OpVariable %ptr Function
OpReturn
OpFunctionEnd
)"));
  EXPECT_ERROR(r, "follows other instructions");
}

TEST(Layout, VariableInLaterBlock) {
  Report r = validateText(module(std::string(kTypes) + R"(
%main = OpFunction %void None %fn
%entry = OpLabel
OpBranch %next
%next = OpLabel
%v = OpVariable %ptr Function
OpReturn
OpFunctionEnd
)"));
  EXPECT_ERROR(r, "not in the first block");
}

TEST(Layout, ExtendedInstructionsAtModuleLevel) {
  constexpr std::string_view kTop = R"(
OpCapability Shader
OpExtension "SPV_KHR_non_semantic_info"
%glsl = OpExtInstImport "GLSL.std.450"
%ns = OpExtInstImport "NonSemantic.Testing"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%float_1 = OpConstant %float 1
)";
  constexpr std::string_view kMain = R"(
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
  EXPECT_VALID(validateText(std::string(kTop) + "%n = OpExtInst %void %ns 1 %float_1\n" +
                            std::string(kMain)));
  Report r = validateText(std::string(kTop) + "%x = OpExtInst %float %glsl Sqrt %float_1\n" +
                          std::string(kMain));
  EXPECT_ERROR(r, "must appear in a block");
}

// Global declarations of extensions: SPV_KHR_untyped_pointers' variables,
// SPV_INTEL_inline_assembly's targets and assembly; decorated as variables are.
TEST(Layout, ExtensionsDeclareGlobalsToo) {
  if (grammar::findInstruction("OpUntypedVariableKHR") == nullptr)
    GTEST_SKIP() << "this build's grammar has no SPV_KHR_untyped_pointers";
  const std::string untyped = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Linkage
OpCapability UntypedPointersKHR
OpExtension "SPV_KHR_untyped_pointers"
OpMemoryModel Physical64 OpenCL
OpDecorate %v Coherent
%uint = OpTypeInt 32 0
%uptr = OpTypeUntypedPointerKHR CrossWorkgroup
%v = OpUntypedVariableKHR %uptr CrossWorkgroup %uint
)";
  EXPECT_VALID(validateText(untyped));
  const grammar::InstructionDesc *target = grammar::findInstruction("OpAsmTargetINTEL");
  if (target == nullptr || target->operands.empty() ||
      target->operands[0].kind != grammar::OperandKind::IdResult)
    GTEST_SKIP() << "this build's grammar gives OpAsmTargetINTEL a result type (revision 1)";
  const std::string assembly = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Linkage
OpCapability AsmINTEL
OpExtension "SPV_INTEL_inline_assembly"
OpMemoryModel Physical64 OpenCL
%void = OpTypeVoid
%fn = OpTypeFunction %void
%target = OpAsmTargetINTEL "spir64-unknown-unknown"
%asm = OpAsmINTEL %void %fn %target "nop" ""
%f = OpFunction %void None %fn
%entry = OpLabel
%call = OpAsmCallINTEL %void %asm
OpReturn
OpFunctionEnd
)";
  EXPECT_VALID(validateText(assembly, "opencl2.0"));
}

TEST(Layout, AnIdBoundOfZeroHoldsNoId) {
  // 2.3: every id is below the bound, so a module with ids cannot have bound 0 (the decoder's
  // per-operand test of ids below the bound says nothing for 0).
  const char *text = "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n"
                     "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n";
  Expected<std::vector<uint32_t>> words = assemble(text, AssembleOptions{});
  ASSERT_TRUE(bool(words));
  std::vector<uint32_t> w = std::move(words).value();
  ASSERT_EQ(w[3], 3u);
  Expected<Module> good = Module::fromWords(w);
  ASSERT_TRUE(bool(good));
  EXPECT_VALID(validate(*good, Options{}));
  w[3] = 0;
  Expected<Module> m = Module::fromWords(w);
  ASSERT_TRUE(bool(m));
  EXPECT_ERROR(validate(*m, Options{}), "id %void is not below the header's bound 0");
}

TEST(Layout, HeaderOnlyModuleHasNoMemoryModel) {
  Expected<Module> m = Module::fromWords({0x07230203u, 0x00010600u, 0u, 1u, 0u});
  ASSERT_TRUE(bool(m));
  Report r = validate(*m, Options{});
  EXPECT_ERROR(r, "no OpMemoryModel");
}

} // namespace
} // namespace spire::val
