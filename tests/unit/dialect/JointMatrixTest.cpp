// INTEL joint matrices (SPV_INTEL_joint_matrix, from spire's grammar supplement) in the dialect:
// the `!spirv.jointmatrix<RxCxT, Layout, Scope>` type, the four ops in MLIR's custom syntax,
// their verifier rules, and serialization both ways (OpTypeJointMatrixINTEL with its operands as
// 32-bit constants, the ops with their layout and scope as constants).
#include "Verdict.h"
#include "spire/dialect/Availability.h"
#include "spire/dialect/Ops.h"
#include "spire/dialect/Serialization.h"
#include "spire/dialect/Text.h"
#include "spire/dialect/Verifier.h"
#include "spire/grammar/Grammar.h"
#include "spire/module/Module.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

using namespace spire;
using namespace spire::dialect;
using spire::dialect::test::verdict;

namespace {

// Every op in its custom form, as spire prints it (and as mlir-translate printed these ops).
constexpr std::string_view kModule =
    R"(spirv.module Logical OpenCL requires #spirv.vce<v1.0, [Kernel, Addresses, JointMatrixINTEL], [SPV_INTEL_joint_matrix]> {
  spirv.func @load(%arg0: !spirv.ptr<i32, Workgroup>, %arg1: i32) -> !spirv.jointmatrix<8x16xi32, RowMajor, Subgroup> "None" {
    %0 = spirv.INTEL.JointMatrixLoad <Subgroup> <RowMajor> %arg0, %arg1 {memory_access = #spirv.memory_access<Volatile>} : (!spirv.ptr<i32, Workgroup>, i32) -> !spirv.jointmatrix<8x16xi32, RowMajor, Subgroup>
    spirv.ReturnValue %0 : !spirv.jointmatrix<8x16xi32, RowMajor, Subgroup>
  }
  spirv.func @store(%arg0: !spirv.ptr<f32, CrossWorkgroup>, %arg1: !spirv.jointmatrix<4x4xf32, ColumnMajor, Workgroup>, %arg2: i64) "None" {
    spirv.INTEL.JointMatrixStore <Workgroup> <PackedB> %arg0, %arg1, %arg2 {alignment = 16 : i32, memory_access = #spirv.memory_access<Aligned>} : (!spirv.ptr<f32, CrossWorkgroup>, !spirv.jointmatrix<4x4xf32, ColumnMajor, Workgroup>, i64)
    spirv.Return
  }
  spirv.func @mad(%arg0: !spirv.jointmatrix<8x32xi8, RowMajor, Subgroup>, %arg1: !spirv.jointmatrix<32x8xi8, PackedA, Subgroup>, %arg2: !spirv.jointmatrix<8x8xi32, RowMajor, Subgroup>) -> !spirv.jointmatrix<8x8xi32, RowMajor, Subgroup> "None" {
    %0 = spirv.INTEL.JointMatrixMad <Subgroup> %arg0, %arg1, %arg2 : !spirv.jointmatrix<8x32xi8, RowMajor, Subgroup>, !spirv.jointmatrix<32x8xi8, PackedA, Subgroup> -> !spirv.jointmatrix<8x8xi32, RowMajor, Subgroup>
    spirv.ReturnValue %0 : !spirv.jointmatrix<8x8xi32, RowMajor, Subgroup>
  }
  spirv.func @length() -> i32 "None" {
    %0 = spirv.INTEL.JointMatrixWorkItemLength : !spirv.jointmatrix<8x16xi32, PackedB, Subgroup>
    spirv.ReturnValue %0 : i32
  }
}
)";

std::vector<Instruction> instructionsOf(const Module &m, grammar::Op op) {
  std::vector<Instruction> out;
  for (Instruction inst : m)
    if (inst.opcode() == op)
      out.push_back(inst);
  return out;
}

/// The values of the module's 32-bit OpConstants, by id.
std::map<uint32_t, uint32_t> constants(const Module &m) {
  std::map<uint32_t, uint32_t> out;
  for (Instruction inst : instructionsOf(m, grammar::Op::Constant))
    if (inst.wordCount() == 4)
      out[inst.word(2)] = inst.word(3);
  return out;
}

} // namespace

TEST(DialectJointMatrix, TheSupplementGivesTheGrammarItsInstructions) {
  const grammar::InstructionDesc *load = grammar::findInstruction("OpJointMatrixLoadINTEL");
  ASSERT_NE(load, nullptr);
  EXPECT_EQ(load->opcode, 6120u);
  EXPECT_EQ(uint32_t(grammar::Op::TypeJointMatrixINTEL), 6119u);
  EXPECT_EQ(uint32_t(grammar::Op::JointMatrixWorkItemLengthINTEL), 6410u);
  EXPECT_EQ(uint32_t(grammar::Capability::JointMatrixINTEL), 6118u);
  const grammar::EnumerantDesc *cap = grammar::findEnumerant(
      grammar::OperandKind::Capability, uint32_t(grammar::Capability::JointMatrixINTEL));
  ASSERT_NE(cap, nullptr);
  EXPECT_EQ(cap->name, "JointMatrixINTEL");
  ASSERT_EQ(cap->availability.extensions.size(), 1u);
  EXPECT_EQ(grammar::extensionName(cap->availability.extensions[0]), "SPV_INTEL_joint_matrix");
  EXPECT_EQ(grammar::findEnumerant(grammar::OperandKind::JointMatrixLayoutINTEL, 3u)->name,
            "PackedB");
}

TEST(DialectJointMatrix, TypePrintsAndParses) {
  Context ctx;
  for (std::string_view text : {"!spirv.jointmatrix<8x16xi32, RowMajor, Subgroup>",
                                "!spirv.jointmatrix<1x2xf16, ColumnMajor, Workgroup>",
                                "!spirv.jointmatrix<32x8xsi8, PackedA, Subgroup>"}) {
    Expected<Type> t = parseType(ctx, text);
    ASSERT_TRUE(bool(t)) << text << ": " << t.error().message;
    EXPECT_TRUE(t->is(TypeKind::JointMatrix));
    EXPECT_EQ(toString(*t), text);
  }
  Type t = *parseType(ctx, "!spirv.jointmatrix<8x16xi32, PackedB, Workgroup>");
  EXPECT_EQ(t.count(), 8u);
  EXPECT_EQ(t.columns(), 16u);
  EXPECT_EQ(t.elementType(), ctx.integer(32));
  EXPECT_EQ(t.matrixLayout(), uint32_t(grammar::JointMatrixLayoutINTEL::PackedB));
  EXPECT_EQ(t.scope(), uint32_t(grammar::Scope::Workgroup));
  // Uniqued: the same parameters are the same type, another layout another type.
  EXPECT_EQ(t, ctx.jointMatrix(ctx.integer(32), 8, 16, 3, uint32_t(grammar::Scope::Workgroup)));
  EXPECT_NE(t, ctx.jointMatrix(ctx.integer(32), 8, 16, 0, uint32_t(grammar::Scope::Workgroup)));
  for (std::string_view bad :
       {"!spirv.jointmatrix<8xi32, RowMajor, Subgroup>",
        "!spirv.jointmatrix<8x0xi32, RowMajor, "
        "Subgroup>",
        "!spirv.jointmatrix<8x8xvector<2xi32>, RowMajor, Subgroup>",
        "!spirv.jointmatrix<8x8xi32, Sideways, Subgroup>", "!spirv.jointmatrix<8x8xi32, RowMajor>",
        "!spirv.jointmatrix<8x8xi32, RowMajor, Subgroup"})
    EXPECT_FALSE(bool(parseType(ctx, bad))) << bad;
}

TEST(DialectJointMatrix, TypeNeedsItsCapability) {
  Context ctx;
  Availability a = typeAvailability(*parseType(ctx, "!spirv.jointmatrix<8x8xi32, RowMajor, "
                                                    "Subgroup>"));
  EXPECT_TRUE(std::any_of(a.capabilities.begin(), a.capabilities.end(), [](const auto &r) {
    return std::find(r.anyOf.begin(), r.anyOf.end(), grammar::Capability::JointMatrixINTEL) !=
           r.anyOf.end();
  }));
}

TEST(DialectJointMatrix, OpsPrintInTheirCustomSyntaxAndVerify) {
  for (std::string_view op :
       {"spirv.INTEL.JointMatrixLoad", "spirv.INTEL.JointMatrixStore", "spirv.INTEL.JointMatrixMad",
        "spirv.INTEL.JointMatrixWorkItemLength"})
    EXPECT_TRUE(hasCustomSyntax(op)) << op;
  Context ctx;
  Expected<OwningOp> op = parse(ctx, kModule);
  ASSERT_TRUE(bool(op)) << op.error().message;
  Status verified = verify(**op);
  EXPECT_TRUE(bool(verified)) << verified.error().message;
  EXPECT_EQ(toString(**op), kModule);
}

TEST(DialectJointMatrix, GenericFormNamesTheLayoutAsMlirDoes) {
  Context ctx;
  Expected<OwningOp> op = parse(ctx, kModule);
  ASSERT_TRUE(bool(op)) << op.error().message;
  PrintOptions generic;
  generic.generic = true;
  const std::string text = toString(**op, generic);
  EXPECT_NE(text.find("layout = #spirv.matrix_layout<RowMajor>"), std::string::npos) << text;
  EXPECT_NE(text.find("scope = #spirv.scope<Subgroup>"), std::string::npos) << text;
  EXPECT_NE(text.find("joint_matrix_type = !spirv.jointmatrix<8x16xi32, PackedB, Subgroup>"),
            std::string::npos)
      << text;
  // And reads back as the same module.
  Context ctx2;
  Expected<OwningOp> back = parse(ctx2, text);
  ASSERT_TRUE(bool(back)) << back.error().message;
  EXPECT_EQ(toString(**back), kModule);
}

TEST(DialectJointMatrix, VerifierSaysWhatMlirSays) {
  const std::string a16x16 = "!spirv.jointmatrix<16x16xi32, RowMajor, Subgroup>",
                    a8x16 = "!spirv.jointmatrix<8x16xi32, RowMajor, Subgroup>",
                    b16x8 = "!spirv.jointmatrix<16x8xi32, RowMajor, Subgroup>",
                    c8x8 = "!spirv.jointmatrix<8x8xi32, RowMajor, Subgroup>";
  auto mad = [&](const std::string &a, const std::string &b, const std::string &c) {
    return verdict("%a: " + a + ", %b: " + b + ", %c: " + c,
                   "%r = spirv.INTEL.JointMatrixMad <Subgroup> %a, %b, %c : " + a + ", " + b +
                       " -> " + c);
  };
  EXPECT_EQ(mad(a8x16, b16x8, c8x8), "");
  EXPECT_NE(mad(a16x16, b16x8, c8x8).find("'spirv.INTEL.JointMatrixMad' op matrix size must match"),
            std::string::npos)
      << mad(a16x16, b16x8, c8x8);
  EXPECT_NE(mad(a8x16, c8x8, c8x8).find("matrix size must match"), std::string::npos);
  EXPECT_NE(mad(a8x16, "!spirv.jointmatrix<16x8xi32, RowMajor, Workgroup>", c8x8)
                .find("matrix scope must match"),
            std::string::npos);
  EXPECT_NE(mad("!spirv.jointmatrix<8x16xf32, RowMajor, Subgroup>", b16x8, c8x8)
                .find("matrix element type must match"),
            std::string::npos);

  auto load = [](const std::string &pointer) {
    return verdict("%p: " + pointer + ", %s: i32",
                   "%0 = spirv.INTEL.JointMatrixLoad <Subgroup> <RowMajor> %p, %s : (" + pointer +
                       ", i32) -> !spirv.jointmatrix<8x16xi32, RowMajor, Subgroup>");
  };
  EXPECT_EQ(load("!spirv.ptr<vector<4xi32>, CrossWorkgroup>"), "");
  EXPECT_NE(load("!spirv.ptr<!spirv.struct<(f32 [0])>, Workgroup>")
                .find("Pointer must point to a scalar or vector type"),
            std::string::npos);
  EXPECT_NE(load("!spirv.ptr<i32, Function>")
                .find("Pointer storage class must be Workgroup or CrossWorkgroup but provided "
                      "Function"),
            std::string::npos)
      << load("!spirv.ptr<i32, Function>");
  // The stride is an integer, the loaded value a joint matrix.
  EXPECT_NE(verdict("%p: !spirv.ptr<i32, Workgroup>, %s: f32",
                    "%0 = spirv.INTEL.JointMatrixLoad <Subgroup> <RowMajor> %p, %s : "
                    "(!spirv.ptr<i32, Workgroup>, f32) -> !spirv.jointmatrix<8x16xi32, RowMajor, "
                    "Subgroup>"),
            "");
  EXPECT_NE(verdict("%p: !spirv.ptr<i32, Workgroup>, %s: i32",
                    "%0 = spirv.INTEL.JointMatrixLoad <Subgroup> <RowMajor> %p, %s : "
                    "(!spirv.ptr<i32, Workgroup>, i32) -> vector<4xi32>"),
            "");
  // The length's type attribute must be a joint matrix.
  EXPECT_NE(
      verdict(
          "",
          R"(%0 = "spirv.INTEL.JointMatrixWorkItemLength"() {joint_matrix_type = vector<4xi32>} : () -> i32)")
          .find("'!spirv.jointmatrix'"),
      std::string::npos);
}

TEST(DialectJointMatrix, SerializesAndDeserializes) {
  Context ctx;
  Expected<OwningOp> op = parse(ctx, kModule);
  ASSERT_TRUE(bool(op)) << op.error().message;
  Expected<std::vector<uint32_t>> words = serialize(**op);
  ASSERT_TRUE(bool(words)) << words.error().message;
  Expected<Module> m = Module::fromWords(*words);
  ASSERT_TRUE(bool(m));
  const std::map<uint32_t, uint32_t> values = constants(*m);
  auto value = [&](uint32_t id) {
    auto it = values.find(id);
    return it == values.end() ? ~0u : it->second;
  };
  // OpTypeJointMatrixINTEL %t %component %rows %columns %layout %scope, the four as constants.
  std::vector<std::vector<uint32_t>> types;
  for (Instruction inst : instructionsOf(*m, grammar::Op::TypeJointMatrixINTEL)) {
    ASSERT_EQ(inst.wordCount(), 7u);
    types.push_back(
        {value(inst.word(3)), value(inst.word(4)), value(inst.word(5)), value(inst.word(6))});
  }
  std::sort(types.begin(), types.end());
  const uint32_t subgroup = uint32_t(grammar::Scope::Subgroup),
                 workgroup = uint32_t(grammar::Scope::Workgroup);
  EXPECT_EQ(types, (std::vector<std::vector<uint32_t>>{{4, 4, 1, workgroup},
                                                       {8, 8, 0, subgroup},
                                                       {8, 16, 0, subgroup},
                                                       {8, 16, 3, subgroup},
                                                       {8, 32, 0, subgroup},
                                                       {32, 8, 2, subgroup}}));
  // Load %type %r %pointer %stride %layout %scope Volatile; Store ... Aligned 16.
  std::vector<Instruction> loads = instructionsOf(*m, grammar::Op::JointMatrixLoadINTEL);
  ASSERT_EQ(loads.size(), 1u);
  ASSERT_EQ(loads[0].wordCount(), 8u);
  EXPECT_EQ(value(loads[0].word(5)), 0u);
  EXPECT_EQ(value(loads[0].word(6)), subgroup);
  EXPECT_EQ(loads[0].word(7), uint32_t(grammar::MemoryAccess::Volatile));
  std::vector<Instruction> stores = instructionsOf(*m, grammar::Op::JointMatrixStoreINTEL);
  ASSERT_EQ(stores.size(), 1u);
  ASSERT_EQ(stores[0].wordCount(), 8u);
  EXPECT_EQ(value(stores[0].word(4)), 3u);
  EXPECT_EQ(value(stores[0].word(5)), workgroup);
  EXPECT_EQ(stores[0].word(6), uint32_t(grammar::MemoryAccess::Aligned));
  EXPECT_EQ(stores[0].word(7), 16u);
  std::vector<Instruction> mads = instructionsOf(*m, grammar::Op::JointMatrixMadINTEL);
  ASSERT_EQ(mads.size(), 1u);
  EXPECT_EQ(value(mads[0].word(6)), subgroup);
  std::vector<Instruction> lengths =
      instructionsOf(*m, grammar::Op::JointMatrixWorkItemLengthINTEL);
  ASSERT_EQ(lengths.size(), 1u);
  EXPECT_EQ(m->inst(m->defIndex(lengths[0].word(3))).opcode(), grammar::Op::TypeJointMatrixINTEL);

  Context ctx2;
  Expected<OwningOp> back = deserialize(ctx2, *m);
  ASSERT_TRUE(bool(back)) << back.error().message;
  EXPECT_EQ(toString(**back), kModule);
}
