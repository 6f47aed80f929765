// Cooperative matrices of SPV_NV_cooperative_matrix and SPV_KHR_cooperative_matrix: types,
// loads and stores, multiply-add and length. The KHR tests need a grammar that has the KHR
// instructions (SPIRV-Headers from mid 2023 on, e.g. shared/grammar/spirv-headers-1.6r6) and are
// skipped with older ones.
#include "ValTestUtil.h"

#include "spire/grammar/Grammar.h"

#include <string>
#include <utility>

namespace spire::val {
namespace {

// A compute shader with a StorageBuffer float array %buf (%p points to an element) and a
// Workgroup one %shared (%q); matrices %mA (8x16), %mB (16x8), %mC (8x8), %mCw (8x8 of Workgroup
// scope) and %mI (8x16 of integers); %a, %b and %c are loaded as %mA, %mB and %mC. TYPES are more
// declarations, BODY the code.
constexpr const char *kNV = R"(
OpCapability Shader
OpCapability CooperativeMatrixNV
OpCapability VulkanMemoryModel
OpCapability Int64
OpExtension "SPV_NV_cooperative_matrix"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main" %buf %shared
OpExecutionMode %main LocalSize 32 1 1
OpName %buf "buf"
OpName %shared "shared"
OpName %p "p"
OpName %q "q"
OpName %fv "fv"
OpName %mA "mA"
OpName %mB "mB"
OpName %mC "mC"
OpName %mCw "mCw"
OpName %mI "mI"
OpName %a "a"
OpName %b "b"
OpName %c "c"
OpDecorate %rt ArrayStride 4
OpMemberDecorate %block 0 Offset 0
OpDecorate %block Block
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%true = OpConstantTrue %bool
%false = OpConstantFalse %bool
%uint_0 = OpConstant %uint 0
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_8 = OpConstant %uint 8
%uint_16 = OpConstant %uint 16
%uint_64 = OpConstant %uint 64
%int_0 = OpConstant %int 0
%float_1 = OpConstant %float 1
%rt = OpTypeRuntimeArray %float
%block = OpTypeStruct %rt
%ptr_sb_block = OpTypePointer StorageBuffer %block
%ptr_sb_float = OpTypePointer StorageBuffer %float
%arr = OpTypeArray %float %uint_64
%ptr_wg_arr = OpTypePointer Workgroup %arr
%ptr_wg_float = OpTypePointer Workgroup %float
%ptr_fn_float = OpTypePointer Function %float
%buf = OpVariable %ptr_sb_block StorageBuffer
%shared = OpVariable %ptr_wg_arr Workgroup
%mA = OpTypeCooperativeMatrixNV %float %uint_3 %uint_8 %uint_16
%mB = OpTypeCooperativeMatrixNV %float %uint_3 %uint_16 %uint_8
%mC = OpTypeCooperativeMatrixNV %float %uint_3 %uint_8 %uint_8
%mCw = OpTypeCooperativeMatrixNV %float %uint_2 %uint_8 %uint_8
%mI = OpTypeCooperativeMatrixNV %uint %uint_3 %uint_8 %uint_16
TYPES
%main = OpFunction %void None %fn
%entry = OpLabel
%fv = OpVariable %ptr_fn_float Function
%p = OpAccessChain %ptr_sb_float %buf %int_0 %uint_0
%q = OpAccessChain %ptr_wg_float %shared %uint_0
%a = OpCooperativeMatrixLoadNV %mA %p %uint_16 %false
%b = OpCooperativeMatrixLoadNV %mB %q %uint_8 %false
%c = OpCooperativeMatrixLoadNV %mC %p %uint_8 %true
BODY
OpReturn
OpFunctionEnd
)";

// The same shader with the KHR types (%mA of Use MatrixAKHR, %mB MatrixBKHR, %mC and %mCw
// MatrixAccumulatorKHR, %mI MatrixBKHR) and loads (%a and %c row-major, %b column-major).
std::string khrModule() {
  static constexpr std::pair<std::string_view, std::string_view> kEdits[] = {
      {"CooperativeMatrixNV\n", "CooperativeMatrixKHR\n"},
      {"SPV_NV_cooperative_matrix", "SPV_KHR_cooperative_matrix"},
      {"%uint_0 = OpConstant %uint 0\n",
       "%uint_0 = OpConstant %uint 0\n%uint_1 = OpConstant %uint 1\n"},
      {"NV %float %uint_3 %uint_8 %uint_16", "KHR %float %uint_3 %uint_8 %uint_16 %uint_0"},
      {"NV %float %uint_3 %uint_16 %uint_8", "KHR %float %uint_3 %uint_16 %uint_8 %uint_1"},
      {"NV %float %uint_3 %uint_8 %uint_8", "KHR %float %uint_3 %uint_8 %uint_8 %uint_2"},
      {"NV %float %uint_2 %uint_8 %uint_8", "KHR %float %uint_2 %uint_8 %uint_8 %uint_2"},
      {"NV %uint %uint_3 %uint_8 %uint_16", "KHR %uint %uint_3 %uint_8 %uint_16 %uint_1"},
      {"LoadNV %mA %p %uint_16 %false", "LoadKHR %mA %p %uint_0 %uint_16"},
      {"LoadNV %mB %q %uint_8 %false", "LoadKHR %mB %q %uint_1 %uint_16"},
      {"LoadNV %mC %p %uint_8 %true", "LoadKHR %mC %p %uint_0 %uint_8"},
  };
  std::string text = kNV;
  for (auto [from, to] : kEdits)
    text = test::replaced(text, from, to);
  return text;
}

Report coop(const std::string &module, std::string_view body, std::string_view types = "",
            std::string_view env = "spv1.5") {
  std::string text = test::replaced(module, "BODY", body);
  return test::validateText(test::replaced(text, "TYPES", types), env);
}
Report nv(std::string_view body, std::string_view types = "") { return coop(kNV, body, types); }
Report khr(std::string_view body, std::string_view types = "", std::string_view env = "spv1.6") {
  return coop(khrModule(), body, types, env);
}

TEST(ValCooperativeMatrixNV, Types) {
  // Rows and columns may be specialization constants, and of any integer width.
  EXPECT_VALID(nv("", "%spec = OpSpecConstant %uint 4\n"
                      "%ulong_8 = OpConstant %ulong 8\n"
                      "%ms = OpTypeCooperativeMatrixNV %float %uint_3 %spec %ulong_8"));
  EXPECT_ERROR(nv("", "%mz = OpTypeCooperativeMatrixNV %bool %uint_3 %uint_8 %uint_8"),
               "OpTypeCooperativeMatrixNV: Component Type %bool must be a numerical scalar type");
  EXPECT_ERROR(nv("", "%mz = OpTypeCooperativeMatrixNV %float %uint_3 %float_1 %uint_8"),
               "OpTypeCooperativeMatrixNV: Rows %float_1 must be a constant instruction of an "
               "integer type");
  EXPECT_ERROR(nv("", "%ulong_3 = OpConstant %ulong 3\n"
                      "%mz = OpTypeCooperativeMatrixNV %float %ulong_3 %uint_8 %uint_8"),
               "OpTypeCooperativeMatrixNV: Scope %ulong_3 must be a constant instruction of a "
               "32-bit integer type");
}

TEST(ValCooperativeMatrixNV, LoadStoreMulAddLength) {
  EXPECT_VALID(nv("%d = OpCooperativeMatrixMulAddNV %mC %a %b %c\n"
                  "OpCooperativeMatrixStoreNV %p %d %uint_8 %false None\n"
                  "%n = OpCooperativeMatrixLengthNV %uint %mC"));
  EXPECT_ERROR(
      nv("%x = OpCooperativeMatrixLoadNV %uint %p %uint_8 %false"),
      "OpCooperativeMatrixLoadNV: the result type %uint must be OpTypeCooperativeMatrixNV");
  EXPECT_ERROR(nv("%x = OpCooperativeMatrixLoadNV %mA %fv %uint_16 %false"),
               "OpCooperativeMatrixLoadNV: Pointer %fv must be a pointer to a scalar or vector in "
               "Workgroup, StorageBuffer or PhysicalStorageBuffer");
  EXPECT_ERROR(
      nv("%x = OpCooperativeMatrixLoadNV %mA %shared %uint_16 %false"),
      "OpCooperativeMatrixLoadNV: Pointer %shared must be a pointer to a scalar or vector");
  EXPECT_ERROR(nv("%x = OpCooperativeMatrixLoadNV %mA %p %float_1 %false"),
               "OpCooperativeMatrixLoadNV: Stride %float_1 must be an integer scalar");
  EXPECT_ERROR(nv("%x = OpCooperativeMatrixLoadNV %mA %p %uint_8 %uint_0"),
               "OpCooperativeMatrixLoadNV: Column Major %uint_0 must be a boolean constant");
  EXPECT_ERROR(nv("OpCooperativeMatrixStoreNV %p %uint_8 %uint_8 %false"),
               "OpCooperativeMatrixStoreNV: Object %uint_8 must be OpTypeCooperativeMatrixNV");
  EXPECT_ERROR(nv("%d = OpCooperativeMatrixMulAddNV %uint %a %b %c"),
               "OpCooperativeMatrixMulAddNV: the result type %uint must be an "
               "OpTypeCooperativeMatrixNV");
  EXPECT_ERROR(nv("%d = OpCooperativeMatrixMulAddNV %mC %a %b %uint_8"),
               "OpCooperativeMatrixMulAddNV: C %uint_8 must be of an OpTypeCooperativeMatrixNV");
  EXPECT_ERROR(nv("%w = OpCooperativeMatrixLoadNV %mCw %p %uint_8 %true\n"
                  "%d = OpCooperativeMatrixMulAddNV %mC %a %b %w"),
               "OpCooperativeMatrixMulAddNV: A, B, C and the result type must have the same scope");
  EXPECT_ERROR(nv("%d = OpCooperativeMatrixMulAddNV %mA %a %b %c"),
               "OpCooperativeMatrixMulAddNV: B, C and the result type must have the same number "
               "of columns (N)");
  EXPECT_ERROR(nv("%d = OpCooperativeMatrixMulAddNV %mC %b %b %c"),
               "OpCooperativeMatrixMulAddNV: A, C and the result type must have the same number "
               "of rows (M)");
  EXPECT_ERROR(nv("%d = OpCooperativeMatrixMulAddNV %mC %a %c %c"),
               "OpCooperativeMatrixMulAddNV: A's columns and B's rows must be the same number (K)");
  EXPECT_ERROR(nv("%n = OpCooperativeMatrixLengthNV %int %mC"),
               "OpCooperativeMatrixLengthNV: the result type %int must be a 32-bit unsigned "
               "integer scalar");
  EXPECT_ERROR(nv("%n = OpCooperativeMatrixLengthNV %uint %uint"),
               "OpCooperativeMatrixLengthNV: Type %uint must be an OpTypeCooperativeMatrixNV");
}

std::string khrBody(std::string_view body) {
  return test::replaced(test::replaced(khrModule(), "BODY", body), "TYPES", "");
}

// `text` with Cooperative Matrix Operands `operands` appended to its OpCooperativeMatrixMulAddKHR:
// the assembler, as spirv-as, takes the operands only by name, and refuses those the grammar
// gives no version.
Report withOperands(const std::string &text, uint32_t operands) {
  AssembleOptions as;
  as.version = grammar::makeVersion(1, 6);
  as.preserveNumericIds = true;
  Expected<std::vector<uint32_t>> words = assemble(text, as);
  EXPECT_TRUE(bool(words));
  if (!words)
    return Report{};
  std::vector<uint32_t> w = std::move(words).value();
  for (size_t p = 5; p < w.size() && (w[p] >> 16) != 0; p += w[p] >> 16)
    if ((w[p] & 0xFFFF) == 4459) { // OpCooperativeMatrixMulAddKHR
      const uint32_t count = w[p] >> 16;
      w.insert(w.begin() + static_cast<std::ptrdiff_t>(p + count), operands);
      w[p] = (w[p] & 0xFFFF) | ((count + 1) << 16);
      break;
    }
  Expected<Module> m = Module::fromWords(std::move(w));
  EXPECT_TRUE(bool(m));
  return m ? validate(*m, Options{}) : Report{};
}

bool khrGrammar() { return grammar::findInstruction("OpTypeCooperativeMatrixKHR") != nullptr; }

TEST(ValCooperativeMatrixKHR, TypesAndUses) {
  if (!khrGrammar())
    GTEST_SKIP() << "this build's grammar has no SPV_KHR_cooperative_matrix";
  EXPECT_VALID(khr("%d = OpCooperativeMatrixMulAddKHR %mC %a %b %c\n"
                   "OpCooperativeMatrixStoreKHR %p %d %uint_1 %uint_8 None\n"
                   "%n = OpCooperativeMatrixLengthKHR %uint %mC"));
  EXPECT_ERROR(khr("", "%mz = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_8 %uint_8 %uint_8"),
               "OpTypeCooperativeMatrixKHR: Use %uint_8 is 8, which is no Cooperative Matrix Use");
  EXPECT_ERROR(khr("", "%mz = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_8 %uint_8 "
                       "%float_1"),
               "OpTypeCooperativeMatrixKHR: Use %float_1 must be a constant instruction of a "
               "32-bit integer type");
  EXPECT_ERROR(khr("", "%mz = OpTypeCooperativeMatrixKHR %mA %uint_3 %uint_8 %uint_8 %uint_2"),
               "OpTypeCooperativeMatrixKHR: Component Type %mA must be a numerical scalar type");
  EXPECT_ERROR(khr("%d = OpCooperativeMatrixMulAddKHR %mC %b %b %c"),
               "OpCooperativeMatrixMulAddKHR: A, C and the result type must have the same number "
               "of rows (M)");
  EXPECT_ERROR(khr("%x = OpCooperativeMatrixLoadKHR %mA2 %p %uint_0 %uint_16\n"
                   "%d = OpCooperativeMatrixMulAddKHR %mC %x %b %c",
                   "%mA2 = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_8 %uint_16 %uint_1"),
               "OpCooperativeMatrixMulAddKHR: the Use of A must be MatrixAKHR");
  EXPECT_ERROR(withOperands(khrBody("%d = OpCooperativeMatrixMulAddKHR %mC %a %b %c"), 0x2),
               "OpCooperativeMatrixMulAddKHR: MatrixBSignedComponentsKHR needs a matrix of "
               "integers as B");
  std::string glslModel = test::replaced(khrModule(), "OpCapability VulkanMemoryModel\n", "");
  glslModel =
      test::replaced(glslModel, "OpMemoryModel Logical Vulkan", "OpMemoryModel Logical GLSL450");
  EXPECT_ERROR(coop(glslModel, "", "", "spv1.6"),
               "a shader that declares CooperativeMatrixKHR must declare VulkanMemoryModel");
  EXPECT_ERROR(khr("%d = OpCooperativeMatrixMulAddKHR %mC %a %b %c\n"
                   "%e = OpCooperativeMatrixMulAddKHR %mC %a %b %a"),
               "OpCooperativeMatrixMulAddKHR: B, C and the result type must have the same number "
               "of columns (N)");
}

TEST(ValCooperativeMatrixKHR, LoadStoreLength) {
  if (!khrGrammar())
    GTEST_SKIP() << "this build's grammar has no SPV_KHR_cooperative_matrix";
  EXPECT_VALID(khr("%x = OpCooperativeMatrixLoadKHR %mA %fv %uint_0 %uint_16"));
  EXPECT_ERROR(khr("%x = OpCooperativeMatrixLoadKHR %mA %fv %uint_0 %uint_16", "", "vulkan1.3"),
               "OpCooperativeMatrixLoadKHR: Pointer %fv must be a pointer to a scalar or vector "
               "in Workgroup, StorageBuffer or PhysicalStorageBuffer");
  EXPECT_ERROR(khr("%x = OpCooperativeMatrixLoadKHR %mA %p %uint_3 %uint_16"),
               "OpCooperativeMatrixLoadKHR: MemoryLayout %uint_3 is 3, which is no Cooperative "
               "Matrix Layout");
  EXPECT_ERROR(khr("%x = OpCooperativeMatrixLoadKHR %mA %p %float_1 %uint_16"),
               "OpCooperativeMatrixLoadKHR: MemoryLayout %float_1 must be a constant instruction "
               "of a 32-bit integer type");
  EXPECT_ERROR(khr("%x = OpCooperativeMatrixLoadKHR %mA %p %uint_0 %float_1"),
               "OpCooperativeMatrixLoadKHR: Stride %float_1 must be an integer scalar");
  EXPECT_ERROR(khr("%x = OpCooperativeMatrixLoadKHR %uint %p %uint_0 %uint_16"),
               "OpCooperativeMatrixLoadKHR: the result type %uint must be "
               "OpTypeCooperativeMatrixKHR");
  EXPECT_ERROR(khr("OpCooperativeMatrixStoreKHR %p %uint_8 %uint_0 %uint_8"),
               "OpCooperativeMatrixStoreKHR: Object %uint_8 must be OpTypeCooperativeMatrixKHR");
  EXPECT_ERROR(khr("OpCooperativeMatrixStoreKHR %shared %c %uint_0 %uint_8"),
               "OpCooperativeMatrixStoreKHR: Pointer %shared must be a pointer to a scalar or "
               "vector");
  EXPECT_ERROR(khr("OpCooperativeMatrixStoreKHR %p %c %uint_1"),
               "OpCooperativeMatrixStoreKHR: the RowMajorKHR and ColumnMajorKHR layouts need a "
               "Stride operand");
  EXPECT_ERROR(khr("%n = OpCooperativeMatrixLengthKHR %int %mC"),
               "OpCooperativeMatrixLengthKHR: the result type %int must be a 32-bit unsigned "
               "integer scalar");
  EXPECT_ERROR(khr("%n = OpCooperativeMatrixLengthKHR %uint %uint"),
               "OpCooperativeMatrixLengthKHR: Type %uint must be an OpTypeCooperativeMatrixKHR");
}

} // namespace
} // namespace spire::val
