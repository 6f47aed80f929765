// The operand type table that spire val and the dialect's verifier share
// (include/spire/grammar/OperandTypes.h), against the grammar: every row names instructions the
// grammar has, once each, and as many id operands as they take.
#include "spire/grammar/OperandTypes.h"
#include "spire/grammar/Grammar.h"

#include <gtest/gtest.h>

#include <set>

using namespace spire::grammar;

TEST(OperandTypes, RowsNameEachInstructionOnceWithItsIdOperands) {
  std::set<uint32_t> seen;
  size_t instructions = 0;
  for (const OperandTypeRule &row : operandTypeRules()) {
    ASSERT_NE(row.extension, nullptr);
    size_t listed = 0;
    while (listed < row.operands.size() && row.operands[listed].shape != TypeShape::None)
      ++listed;
    for (size_t k = listed; k < row.operands.size(); ++k)
      EXPECT_EQ(row.operands[k].shape, TypeShape::None) << "a gap in a row of " << row.extension;
    for (Op op : row.ops) {
      if (op == Op::Nop)
        continue;
      ++instructions;
      const uint32_t opcode = static_cast<uint32_t>(op);
      EXPECT_TRUE(seen.insert(opcode).second) << opcode << " is in two rows";
      EXPECT_EQ(operandTypeRule(opcode), &row);
      const InstructionDesc *d = findInstruction(opcode);
      ASSERT_NE(d, nullptr) << opcode;
      // The row lists the result exactly when the instruction has one, and as many operands as
      // its required and optional ids (OpReorderThreadWithHitObjectNV's Hint and Bits are
      // optional).
      EXPECT_EQ(row.result.shape != TypeShape::None, d->hasResultType) << d->name;
      size_t required = 0, optional = 0;
      for (const OperandDesc &o : d->operands) {
        if (o.kind != OperandKind::IdRef)
          continue;
        EXPECT_NE(o.quantifier, Quantifier::Variadic) << d->name;
        (o.quantifier == Quantifier::One ? required : optional) += 1;
      }
      EXPECT_EQ(listed, required + optional) << d->name;
    }
  }
  // AVC motion estimation and the hit objects: 144 instructions when this was written.
  EXPECT_GT(instructions, 140u);
  EXPECT_EQ(operandTypeRule(static_cast<uint32_t>(Op::IAdd)), nullptr);
  EXPECT_EQ(operandTypeRule(0xFFFFu), nullptr);
}

TEST(OperandTypes, ShapesInWords) {
  EXPECT_EQ(describe({TypeShape::Int8or32}), "an 8- or 32-bit integer scalar");
  EXPECT_EQ(describe({TypeShape::Type, Op::TypeAvcImePayloadINTEL}), "an OpTypeAvcImePayloadINTEL");
  EXPECT_EQ(describe({TypeShape::TypeOrAlt, Op::TypeAvcMceResultINTEL, Op::TypeAvcImeResultINTEL}),
            "an OpTypeAvcMceResultINTEL or OpTypeAvcImeResultINTEL");
  EXPECT_EQ(describe({TypeShape::PointerToType, Op::TypeHitObjectNV}),
            "a pointer to OpTypeHitObjectNV");
}
