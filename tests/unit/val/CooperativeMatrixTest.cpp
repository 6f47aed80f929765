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

// Where cooperative matrices go, by both extensions' edits of the core instructions. spirv-val
// 2023.1 has each of these rules for the NV matrices (with messages of its own).
TEST(ValCooperativeMatrixNV, CoreInstructions) {
  EXPECT_VALID(nv("%d = OpFAdd %mC %c %c\n"
                  "%e = OpFNegate %mC %d\n"
                  "%f = OpMatrixTimesScalar %mC %e %float_1\n"
                  "%g = OpConvertFToS %mCi %f\n"
                  "%h = OpCompositeConstruct %mC %float_1\n"
                  "%x = OpCompositeExtract %float %h 0\n"
                  "%y = OpCompositeInsert %mC %x %h 1",
                  "%ptr_pr_mC = OpTypePointer Private %mC\n"
                  "%m = OpVariable %ptr_pr_mC Private\n"
                  "%mCi = OpTypeCooperativeMatrixNV %int %uint_3 %uint_8 %uint_8\n"
                  "%cc = OpConstantComposite %mC %float_1"));
  EXPECT_ERROR(nv("", "%ptr_wg_mC = OpTypePointer Workgroup %mC\n"
                      "%arr_mC = OpTypeArray %mC %uint_2\n"
                      "%ptr_wg_marr = OpTypePointer Workgroup %arr_mC\n"
                      "%wm = OpVariable %ptr_wg_marr Workgroup"),
               ", which holds a cooperative matrix, must be in the Function or Private storage "
               "class, not Workgroup");
  EXPECT_ERROR(nv("%w = OpCooperativeMatrixLoadNV %mCw %p %uint_8 %true\n"
                  "%d = OpFAdd %mC %c %w"),
               " must be of the result type %mC");
  EXPECT_ERROR(nv("%d = OpFNegate %mC %a"), "OpFNegate: operand %a must be of the result type %mC");
  EXPECT_ERROR(nv("%d = OpIAdd %mC %c %c"),
               "OpIAdd: the cooperative matrix type %mC must have integer components");
  EXPECT_ERROR(nv("%d = OpFMul %mC %c %c"),
               "OpFMul: not defined on OpTypeCooperativeMatrixNV operands (OpMatrixTimesScalar "
               "multiplies one by a scalar)");
  EXPECT_ERROR(nv("%d = OpFRem %mC %c %c"), "OpFRem: not defined on OpTypeCooperativeMatrixNV");
  EXPECT_ERROR(nv("%d = OpMatrixTimesScalar %mC %a %float_1"),
               "OpMatrixTimesScalar: Matrix %a must be of the result type %mC");
  EXPECT_ERROR(nv("%d = OpMatrixTimesScalar %mC %c %uint_2"),
               "OpMatrixTimesScalar: Scalar %uint_2 must be the matrix's component type %float");
  EXPECT_ERROR(nv("%d = OpConvertFToS %mAi %c",
                  "%mAi = OpTypeCooperativeMatrixNV %int %uint_3 %uint_8 %uint_16"),
               " must have the same number of columns");
  EXPECT_ERROR(nv("%d = OpConvertFToS %mCwi %c",
                  "%mCwi = OpTypeCooperativeMatrixNV %int %uint_2 %uint_8 %uint_8"),
               " must have the same scope");
  EXPECT_ERROR(nv("%d = OpConvertSToF %mC %c"),
               "OpConvertSToF: the value %c must be a cooperative matrix of integer components");
  EXPECT_ERROR(nv("%d = OpConvertFToS %int %c"),
               "OpConvertFToS: the result type %int must be an OpTypeCooperativeMatrixNV as the "
               "value is one");
  EXPECT_ERROR(nv("%d = OpCompositeConstruct %mC %float_1 %float_1"),
               "OpCompositeConstruct: the cooperative matrix %mC takes exactly one constituent, 2 "
               "are given");
  EXPECT_ERROR(nv("%d = OpCompositeConstruct %mC %uint_8"),
               "OpCompositeConstruct: Constituent %uint_8 must be of the matrix's component type "
               "%float");
  EXPECT_ERROR(nv("", "%cc = OpConstantComposite %mC %float_1 %float_1"),
               "OpConstantComposite: the cooperative matrix %mC takes exactly one constituent");
  EXPECT_ERROR(nv("%d = OpCompositeExtract %mC %c"),
               "OpCompositeExtract: the cooperative matrix %c is indexed by exactly one index, 0 "
               "are given");
  EXPECT_ERROR(nv("%d = OpCompositeInsert %mC %c %c"),
               "OpCompositeInsert: the cooperative matrix %c is indexed by exactly one index");
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

TEST(ValCooperativeMatrixKHR, Float8ComponentsNeedFloat8CooperativeMatrix) {
  if (!khrGrammar() || !grammar::findExtension("SPV_EXT_float8"))
    GTEST_SKIP() << "this build's grammar has no SPV_KHR_cooperative_matrix or SPV_EXT_float8";
  // An FP8 accumulator (SPV_EXT_float8) converted from the f32 one.
  std::string module = test::replaced(khrModule(), "OpCapability Int64\n",
                                      "OpCapability Int64\nOpCapability Float8EXT\nCAP8");
  module = test::replaced(module, "OpExtension \"SPV_KHR_cooperative_matrix\"",
                          "OpExtension \"SPV_KHR_cooperative_matrix\"\n"
                          "OpExtension \"SPV_EXT_float8\"");
  const std::string types = "%fp8 = OpTypeFloat 8 Float8E4M3EXT\n"
                            "%m8 = OpTypeCooperativeMatrixKHR %fp8 %uint_3 %uint_8 %uint_8 %uint_2";
  const std::string body = "%d = OpFConvert %m8 %c";
  EXPECT_VALID(coop(test::replaced(module, "CAP8", "OpCapability Float8CooperativeMatrixEXT\n"),
                    body, types, "spv1.6"));
  EXPECT_ERROR(
      coop(test::replaced(module, "CAP8", ""), body, types, "spv1.6"),
      "OpTypeCooperativeMatrixKHR: Component Type %fp8e4m3 is a float8 type, which needs the "
      "Float8CooperativeMatrixEXT capability");
  // Float8 values are converted, moved and multiplied, never computed on.
  EXPECT_ERROR(coop(test::replaced(module, "CAP8", "OpCapability Float8CooperativeMatrixEXT\n"),
                    body + "\n%e = OpFAdd %m8 %d %d", types, "spv1.6"),
               "cannot be an operand of OpFAdd");
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

// KHR adds OpIMul and OpFMul to the instructions that take cooperative matrices, allows integer
// matrices in OpMatrixTimesScalar, and its conversions keep the Use. (spirv-val 2023.1 and its
// assembler predate SPV_KHR_cooperative_matrix.)
TEST(ValCooperativeMatrixKHR, CoreInstructions) {
  if (!khrGrammar())
    GTEST_SKIP() << "this build's grammar has no SPV_KHR_cooperative_matrix";
  EXPECT_VALID(khr("%i = OpCooperativeMatrixLoadKHR %mI %p %uint_0 %uint_16\n"
                   "%d = OpIMul %mI %i %i\n"
                   "%e = OpMatrixTimesScalar %mI %d %uint_2\n"
                   "%f = OpFMul %mC %c %c\n"
                   "%g = OpConvertFToU %mCu %f",
                   "%mCu = OpTypeCooperativeMatrixKHR %uint %uint_3 %uint_8 %uint_8 %uint_2"));
  EXPECT_ERROR(khr("%g = OpConvertFToU %mCa %c",
                   "%mCa = OpTypeCooperativeMatrixKHR %uint %uint_3 %uint_8 %uint_8 %uint_0"),
               " must have the same Use");
  EXPECT_ERROR(khr("%d = OpFMul %mC %c %a"), "OpFMul: operand %a must be of the result type %mC");
  EXPECT_ERROR(khr("%d = OpSRem %mI %c %c"), "OpSRem: not defined on OpTypeCooperativeMatrixKHR");
  EXPECT_ERROR(
      khr("", "%ptr_sb_mA = OpTypePointer StorageBuffer %mA\n"
              "%sm = OpVariable %ptr_sb_mA StorageBuffer"),
      "OpVariable: a variable of type %mA, which holds a cooperative matrix, must be in the "
      "Function or Private storage class, not StorageBuffer");
}

// SPV_KHR_cooperative_matrix 3.42.11: OpBitcast between matrices of integers of one width and
// the same scope, rows, columns and Use; and KHR types that match though declared twice.
TEST(ValCooperativeMatrixKHR, BitcastAndMatchingTypes) {
  if (!khrGrammar())
    GTEST_SKIP() << "this build's grammar has no SPV_KHR_cooperative_matrix";
  const std::string types =
      "%mS = OpTypeCooperativeMatrixKHR %int %uint_3 %uint_8 %uint_16 %uint_1\n"
      "%mF = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_8 %uint_16 %uint_1\n"
      "%mSa = OpTypeCooperativeMatrixKHR %int %uint_3 %uint_8 %uint_16 %uint_0\n"
      "%uint_8b = OpConstant %uint 8\n"
      "%mC2 = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_8b %uint_8 %uint_2\n"
      "%mCa = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_8b %uint_8 %uint_0";
  const std::string load = "%i = OpCooperativeMatrixLoadKHR %mI %p %uint_0 %uint_16\n";
  EXPECT_VALID(khr(load + "%s = OpBitcast %mS %i", types));
  EXPECT_ERROR(khr(load + "%s = OpBitcast %mF %i", types),
               "OpBitcast: the components of the value");
  EXPECT_ERROR(khr(load + "%s = OpBitcast %mSa %i", types), "must have the same Use");
  EXPECT_ERROR(khr(load + "%s = OpBitcast %v2uint %i", types + "\n%v2uint = OpTypeVector %uint 2"),
               "a cooperative matrix is bitcast only to and from a cooperative matrix");
  // %mC2 is %mC declared again with another (equal) Rows constant: the types match.
  EXPECT_VALID(khr("%d = OpFAdd %mC2 %c %c\n%e = OpMatrixTimesScalar %mC2 %c %float_1", types));
  EXPECT_ERROR(khr("%d = OpFAdd %mCa %c %c", types), "(its Use differs)");
  EXPECT_ERROR(khr("%e = OpMatrixTimesScalar %mCa %c %float_1", types), "(its Use differs)");
}

} // namespace
} // namespace spire::val
