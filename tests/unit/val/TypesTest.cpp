// Type declarations and constants (RulesTypes.cpp): for each rule a module that breaks it and a
// valid neighbour.
#include "ValTestUtil.h"

namespace spire::val {
namespace {

using test::validateText;

// A compute shader that does nothing; $CAPS and $TYPES are replaced to make the variants.
constexpr std::string_view kShader = R"(
OpCapability Shader
$CAPS
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
$DECOS
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
$TYPES
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";

std::string shader(std::string_view types, std::string_view caps = "",
                   std::string_view decos = "") {
  return test::replaced(
      test::replaced(test::replaced(std::string(kShader), "$CAPS", caps), "$DECOS", decos),
      "$TYPES", types);
}

Report val(std::string_view types, std::string_view caps = "", std::string_view env = "spv1.6") {
  return validateText(shader(types, caps), env);
}

TEST(ValTypes, ValidBase) { EXPECT_VALID(val("")); }

TEST(ValTypes, IntWidthNeedsCapability) {
  EXPECT_ERROR(val("%long = OpTypeInt 64 0"), "Int64");
  EXPECT_VALID(val("%long = OpTypeInt 64 0", "OpCapability Int64"));
  EXPECT_ERROR(val("%short = OpTypeInt 16 1"), "Int16");
  EXPECT_VALID(val("%short = OpTypeInt 16 1", "OpCapability Int16"));
  EXPECT_ERROR(val("%char = OpTypeInt 8 0"), "Int8");
  EXPECT_VALID(val("%char = OpTypeInt 8 0", "OpCapability Int8"));
}

TEST(ValTypes, StorageCapabilitiesAllowSmallInts) {
  EXPECT_VALID(val("%short = OpTypeInt 16 0", "OpCapability StorageBuffer16BitAccess"));
  EXPECT_VALID(val("%char = OpTypeInt 8 0", "OpCapability StorageBuffer8BitAccess"));
  EXPECT_VALID(val("%half = OpTypeFloat 16", "OpCapability StorageBuffer16BitAccess"));
}

TEST(ValTypes, IntWidthMustBeKnown) { EXPECT_ERROR(val("%i24 = OpTypeInt 24 0"), "24 bits"); }

TEST(ValTypes, IntSignedness) { EXPECT_ERROR(val("%odd = OpTypeInt 32 2"), "signedness"); }

// 2.16.3: kernels' integer types are unsigned, whatever their width.
TEST(ValTypes, KernelIntegersHaveNoSignedness) {
  const std::string kernel =
      test::kernelModule("OpCapability Int64", "%long = OpTypeInt 64 SIGNEDNESS", "");
  EXPECT_VALID(validateText(test::replaced(kernel, "SIGNEDNESS", "0")));
  EXPECT_ERROR(validateText(test::replaced(kernel, "SIGNEDNESS", "1")),
               "with the Kernel capability an integer type's signedness must be 0");
}

TEST(ValTypes, FloatWidth) {
  EXPECT_ERROR(val("%f24 = OpTypeFloat 24"), "24 bits");
  EXPECT_ERROR(val("%half = OpTypeFloat 16"), "Float16");
  EXPECT_VALID(val("%half = OpTypeFloat 16", "OpCapability Float16"));
  EXPECT_ERROR(val("%double = OpTypeFloat 64"), "Float64");
  EXPECT_VALID(val("%double = OpTypeFloat 64", "OpCapability Float64"));
}

TEST(ValTypes, VectorComponents) {
  EXPECT_ERROR(val("%v5 = OpTypeVector %float 5"), "5 components");
  EXPECT_ERROR(val("%v1 = OpTypeVector %float 1"), "1 components");
  EXPECT_VALID(val("%v4 = OpTypeVector %float 4"));
  EXPECT_ERROR(val("%v8 = OpTypeVector %float 8"), "Vector16");
  EXPECT_ERROR(val("%vv = OpTypeVector %void 2"), "scalar");
}

TEST(ValTypes, MatrixShape) {
  EXPECT_VALID(val("%v4 = OpTypeVector %float 4\n%m4 = OpTypeMatrix %v4 4"));
  EXPECT_ERROR(val("%v4 = OpTypeVector %float 4\n%m5 = OpTypeMatrix %v4 5"), "2, 3 or 4 columns");
  EXPECT_ERROR(val("%v4 = OpTypeVector %int 4\n%m4 = OpTypeMatrix %v4 4"), "floating-point");
  EXPECT_ERROR(val("%m4 = OpTypeMatrix %float 4"), "vector type");
}

TEST(ValTypes, ArrayLength) {
  EXPECT_VALID(val("%uint_4 = OpConstant %uint 4\n%arr = OpTypeArray %float %uint_4"));
  EXPECT_ERROR(val("%uint_0 = OpConstant %uint 0\n%arr = OpTypeArray %float %uint_0"),
               "at least 1");
  EXPECT_ERROR(val("%int_m1 = OpConstant %int -1\n%arr = OpTypeArray %float %int_m1"),
               "at least 1");
  EXPECT_ERROR(val("%f4 = OpConstant %float 4\n%arr = OpTypeArray %float %f4"), "integer constant");
  EXPECT_ERROR(val("%uint_4 = OpConstant %uint 4\n%arr = OpTypeArray %void %uint_4"), "void");
}

TEST(ValTypes, StructMembers) {
  EXPECT_VALID(val("%s = OpTypeStruct %float %uint"));
  EXPECT_ERROR(val("%s = OpTypeStruct %float %void"), "void");
}

// VUID-StandaloneSpirv-OpTypeRuntimeArray-04680: a runtime array is the last member of a Block or
// BufferBlock structure (in Vulkan).
TEST(ValTypes, RuntimeArrayOnlyLastInVulkanBlock) {
  const std::string types = "%ra = OpTypeRuntimeArray %float\n%s = OpTypeStruct %uint %ra";
  const std::string block = "OpDecorate %ra ArrayStride 4\nOpDecorate %s Block\n"
                            "OpMemberDecorate %s 0 Offset 0\nOpMemberDecorate %s 1 Offset 4";
  EXPECT_VALID(validateText(shader(types, "", block), "vulkan1.3"));
  EXPECT_ERROR(validateText(shader("%ra = OpTypeRuntimeArray %float\n%s = OpTypeStruct %ra %uint",
                                   "", block),
                            "vulkan1.3"),
               "last member");
  EXPECT_RULE_ERROR(validateText(shader(types), "vulkan1.3"),
                    "a structure whose last member is a runtime array must be decorated Block",
                    "VUID-StandaloneSpirv-OpTypeRuntimeArray-04680");
  EXPECT_VALID(validateText(shader(types)));
}

TEST(ValTypes, DuplicateTypes) {
  EXPECT_ERROR(val("%v4a = OpTypeVector %float 4\n%v4b = OpTypeVector %float 4"), "declared once");
  // Structures may repeat.
  EXPECT_VALID(val("%s1 = OpTypeStruct %float\n%s2 = OpTypeStruct %float"));
}

TEST(ValTypes, FunctionTypeParameters) {
  EXPECT_ERROR(val("%fv = OpTypeFunction %void %void"), "cannot be void");
  EXPECT_VALID(val("%ff = OpTypeFunction %float %float"));
}

TEST(ValTypes, ImageOperandRanges) {
  EXPECT_VALID(val("%img = OpTypeImage %float 2D 0 0 0 1 Unknown"));
  EXPECT_ERROR(val("%img = OpTypeImage %float 2D 0 2 0 1 Unknown"), "Arrayed");
  EXPECT_ERROR(val("%img = OpTypeImage %float 2D 3 0 0 1 Unknown"), "Depth");
  EXPECT_ERROR(val("%img = OpTypeImage %float 2D 0 0 0 3 Unknown"), "Sampled operand");
}

TEST(ValTypes, BoolConstants) {
  EXPECT_VALID(val("%t = OpConstantTrue %bool"));
  EXPECT_ERROR(val("%t = OpConstantTrue %uint"), "OpTypeBool");
}

TEST(ValTypes, ConstantComposite) {
  EXPECT_VALID(val("%v2 = OpTypeVector %float 2\n%f1 = OpConstant %float 1\n"
                   "%c = OpConstantComposite %v2 %f1 %f1"));
  EXPECT_ERROR(val("%v2 = OpTypeVector %float 2\n%f1 = OpConstant %float 1\n"
                   "%c = OpConstantComposite %v2 %f1 %f1 %f1"),
               "3 constituents");
  EXPECT_ERROR(val("%v2 = OpTypeVector %float 2\n%u1 = OpConstant %uint 1\n"
                   "%c = OpConstantComposite %v2 %u1 %u1"),
               "expects");
  EXPECT_ERROR(val("%s = OpTypeStruct %float %uint\n%f1 = OpConstant %float 1\n"
                   "%c = OpConstantComposite %s %f1 %f1"),
               "expects");
  // Specialization constants go into OpSpecConstantComposite only (Khronos issue #574).
  const std::string spec = "%v2 = OpTypeVector %float 2\n%f1 = OpSpecConstant %float 1\n";
  EXPECT_VALID(val(spec + "%c = OpSpecConstantComposite %v2 %f1 %f1"));
  EXPECT_ERROR(val(spec + "%c = OpConstantComposite %v2 %f1 %f1"),
               "is a specialization constant; only OpSpecConstantComposite takes those");
  // An array length of any width counts whole: 5 * 2^40 is not 2 (nor its low word, 0).
  const std::string longArray = "%ulong = OpTypeInt 64 0\n%n = OpConstant %ulong 5497558138880\n"
                                "%a = OpTypeArray %uint %n\n%u1 = OpConstant %uint 1\n";
  EXPECT_ERROR(val(longArray + "%c = OpConstantComposite %a %u1 %u1", "OpCapability Int64"),
               "has 5497558138880 elements but 2 constituents are given");
  // A vector's constituents have its component type: not another width, not another signedness
  // (spirv-val 2023.1 compares only the kind; the sweep of constants found both).
  const std::string vectors = "%v2u = OpTypeVector %uint 2\n%i1 = OpConstant %int 1\n"
                              "%uchar = OpTypeInt 8 0\n%c8 = OpSpecConstant %uchar 1\n";
  EXPECT_ERROR(val(vectors + "%c = OpConstantComposite %v2u %i1 %i1", "OpCapability Int8"),
               "the constituent %int_1 has type %int but the result type %v2uint expects %uint");
  EXPECT_ERROR(val(vectors + "%c = OpSpecConstantComposite %v2u %c8 %c8", "OpCapability Int8"),
               "has type %uchar but the result type %v2uint expects %uint");
}

TEST(ValTypes, ConstantNull) {
  EXPECT_VALID(val("%v2 = OpTypeVector %float 2\n%n = OpConstantNull %v2"));
  EXPECT_ERROR(val("%ra = OpTypeRuntimeArray %float\n%n = OpConstantNull %ra"), "no null value");
}

TEST(ValTypes, SmallConstantsNeedArithmeticCapability) {
  EXPECT_ERROR(val("%short = OpTypeInt 16 0\n%c = OpConstant %short 1",
                   "OpCapability StorageBuffer16BitAccess"),
               "storage");
  EXPECT_VALID(val("%short = OpTypeInt 16 0\n%c = OpConstant %short 1", "OpCapability Int16"));
}

TEST(ValTypes, UndefOfVoid) {
  EXPECT_ERROR(val("%u = OpUndef %void"), "void");
  EXPECT_VALID(val("%u = OpUndef %float"));
}

TEST(ValTypes, VulkanPointerStorageClass) {
  EXPECT_ERROR(validateText(shader("%p = OpTypePointer CrossWorkgroup %float"), "vulkan1.3"),
               "Vulkan");
  EXPECT_VALID(validateText(shader("%p = OpTypePointer Private %float"), "vulkan1.3"));
}

TEST(ValTypes, MultisampledStorageImage) {
  EXPECT_ERROR(val("%img = OpTypeImage %float 2D 0 0 1 2 Rgba8"), "StorageImageMultisample");
  EXPECT_VALID(
      val("%img = OpTypeImage %float 2D 0 0 1 2 Rgba8", "OpCapability StorageImageMultisample"));
}

TEST(ValTypes, SampledImageOfStorageImage) {
  EXPECT_ERROR(val("%img = OpTypeImage %float 2D 0 0 0 2 Rgba8\n%si = OpTypeSampledImage %img"),
               "Sampled operand is 0 or 1");
  EXPECT_VALID(val("%img = OpTypeImage %float 2D 0 0 0 1 Unknown\n%si = OpTypeSampledImage %img"));
  EXPECT_ERROR(val("%si = OpTypeSampledImage %float"), "OpTypeImage");
}

TEST(ValTypes, SpecConstantOpKernelOnly) {
  EXPECT_ERROR(val("%f1 = OpConstant %float 1\n%s = OpSpecConstantOp %float FAdd %f1 %f1"),
               "Kernel");
  EXPECT_VALID(val("%u1 = OpConstant %uint 1\n%s = OpSpecConstantOp %uint IAdd %u1 %u1"));
}

// 3.32.7: the operation is one the specification lists. spire's assembler (like spirv-as) takes
// only those, so the others are written into the words.
TEST(ValTypes, SpecConstantOpPerformsOnlyTheListedOperations) {
  AssembleOptions as;
  as.preserveNumericIds = true;
  const Expected<std::vector<uint32_t>> words =
      assemble(shader("%u1 = OpConstant %uint 1\n%s = OpSpecConstantOp %uint Not %u1"), as);
  ASSERT_TRUE(bool(words));
  auto performing = [&](grammar::Op op) {
    std::vector<uint32_t> w = *words;
    for (size_t i = 5; i < w.size(); i += w[i] >> 16)
      if ((w[i] & 0xFFFF) == uint32_t(grammar::Op::SpecConstantOp))
        w[i + 3] = uint32_t(op);
    Expected<Module> m = Module::fromWords(std::move(w));
    EXPECT_TRUE(bool(m));
    return m ? validate(*m, Options{}) : Report{};
  };
  EXPECT_VALID(performing(grammar::Op::Not));
  EXPECT_ERROR(performing(grammar::Op::BitCount),
               "OpBitCount cannot be the operation of an OpSpecConstantOp");
  EXPECT_ERROR(performing(grammar::Op::CopyObject),
               "OpCopyObject cannot be the operation of an OpSpecConstantOp");
  // Its operands are values, as its operation's are (the sweep of specialization constant
  // operations found a type let through).
  EXPECT_ERROR(val("%u1 = OpConstant %uint 1\n%s = OpSpecConstantOp %uint IAdd %u1 %uint"),
               "operand %uint is a type where a value is expected");
  // ... but for the cooperative matrix lengths, whose operand is a cooperative matrix type.
  EXPECT_ERROR(val("%u1 = OpConstant %uint 1\n"
                   "%s = OpSpecConstantOp %uint CooperativeMatrixLengthNV %u1",
                   "OpCapability CooperativeMatrixNV\nOpExtension \"SPV_NV_cooperative_matrix\""),
               "Type %uint_1 must be an OpTypeCooperativeMatrixNV");
}

TEST(ValTypes, SpecConstantOpCompositeExtractGivesTheSelectedType) {
  // As the instruction (3.32.12); the dialect fuzz target found a pointer result let through.
  const std::string v = "%u1 = OpConstant %uint 1\n%v2 = OpTypeVector %uint 2\n"
                        "%c = OpSpecConstantComposite %v2 %u1 %u1\n";
  EXPECT_VALID(val(v + "%s = OpSpecConstantOp %uint CompositeExtract %c 1"));
  EXPECT_ERROR(val(v + "%s = OpSpecConstantOp %v2 CompositeExtract %c 1"),
               "CompositeExtract: the result type");
  EXPECT_ERROR(val(v + "%s = OpSpecConstantOp %uint CompositeExtract %c 2"), "CompositeExtract");
}

TEST(ValTypes, SpecConstantOpOperationsFollowTheInstructionsRules) {
  // The embedded operation reads as the instruction it names (3.32.7), with that instruction's
  // operand and result rules; the dialect fuzz target found an out-of-range shuffle component
  // and a mixed-width IAdd that spire val (and spirv-val 2023.1) let through.
  const std::string v = "%u1 = OpConstant %uint 1\n%i1 = OpConstant %int 1\n"
                        "%v2 = OpTypeVector %uint 2\n%c = OpSpecConstantComposite %v2 %u1 %u1\n";
  EXPECT_VALID(val(v + "%s = OpSpecConstantOp %v2 VectorShuffle %c %c 0 3"));
  EXPECT_VALID(val(v + "%s = OpSpecConstantOp %v2 VectorShuffle %c %c 0 0xFFFFFFFF"));
  EXPECT_ERROR(val(v + "%s = OpSpecConstantOp %v2 VectorShuffle %c %c 0 4"),
               "component 4 is out of bounds");
  EXPECT_VALID(val(v + "%s = OpSpecConstantOp %int IAdd %u1 %i1")); // signedness aside
  EXPECT_ERROR(val(v + "%long = OpTypeInt 64 0\n%l1 = OpConstant %long 1\n"
                       "%s = OpSpecConstantOp %uint IAdd %u1 %l1",
                   "OpCapability Int64"),
               "the result's component count and width");
  EXPECT_ERROR(val(v + "%s = OpSpecConstantOp %bool SLessThan %u1 %c"),
               "with as many components as the result");
  EXPECT_ERROR(val(v + "%s = OpSpecConstantOp %uint Select %u1 %u1 %u1"),
               "condition must be a boolean");
  EXPECT_VALID(val(v + "%t = OpConstantTrue %bool\n%s = OpSpecConstantOp %uint Select %t %u1 %u1"));
}

TEST(ValTypes, ForwardPointer) {
  const std::string caps = "OpCapability PhysicalStorageBufferAddresses";
  const std::string text = R"(
OpCapability Shader
OpCapability PhysicalStorageBufferAddresses
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
OpTypeForwardPointer %ptr $SC
%void = OpTypeVoid
%fn = OpTypeFunction %void
%S = OpTypeStruct %ptr
%ptr = OpTypePointer PhysicalStorageBuffer %S
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
  auto with = [&](std::string sc) {
    std::string t = text;
    t.replace(t.find("$SC"), 3, sc);
    return validateText(t, "vulkan1.3");
  };
  EXPECT_VALID(with("PhysicalStorageBuffer"));
  EXPECT_ERROR(with("Private"), "storage class");
}

// Types that share members 60 levels deep: every question about them is answered once per type,
// so validation stays fast (a naive recursion would visit 2^60 members).
TEST(ValTypes, DeeplySharedTypesStayFast) {
  std::string types = "%s0 = OpTypeStruct %float %uint\n";
  for (int i = 1; i <= 60; ++i)
    types += "%s" + std::to_string(i) + " = OpTypeStruct %s" + std::to_string(i - 1) + " %s" +
             std::to_string(i - 1) + "\n";
  types += "%null = OpConstantNull %s60\n%undef = OpUndef %s60\n"
           "%ptr = OpTypePointer Uniform %s60\n%buf = OpVariable %ptr Uniform\n";
  std::string text = shader(types, "",
                            "OpDecorate %s60 Block\nOpDecorate %buf DescriptorSet 0\n"
                            "OpDecorate %buf Binding 0");
  // Not laid out: the error is the missing Offset decorations.
  EXPECT_ERROR(validateText(text, "vulkan1.3"), "Offset");
}

TEST(ValTypes, VulkanStructHasNoOpaqueMember) {
  const std::string img = "%img = OpTypeImage %float 2D 0 0 0 1 Unknown\n";
  EXPECT_ERROR(validateText(shader(img + "%s = OpTypeStruct %img"), "vulkan1.3"), "opaque");
  EXPECT_VALID(validateText(shader(img + "%s = OpTypeStruct %img"), "spv1.6"));
}

TEST(ValTypes, VulkanImageSampledIsKnown) {
  EXPECT_ERROR(validateText(shader("%img = OpTypeImage %float 2D 0 0 0 0 Unknown"), "vulkan1.3"),
               "Sampled operand");
  EXPECT_VALID(validateText(shader("%img = OpTypeImage %float 2D 0 0 0 1 Unknown"), "vulkan1.3"));
}

TEST(ValTypes, VectorOfPointers) {
  EXPECT_ERROR(val("%p = OpTypePointer Private %float\n%v = OpTypeVector %p 2"), "scalar");
}

} // namespace
} // namespace spire::val
