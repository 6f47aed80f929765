#include "spire/module/Opcodes.h"
#include "asm/OpcodeRules.h"

#include <gtest/gtest.h>

namespace spire {
namespace {

using grammar::Op;

// spire's type predicate is the grammar's: its Type-Declaration class and the OpType* names of
// other classes, less OpTypeForwardPointer; spirv-as's list is a separate, narrower quirk.
TEST(Opcodes, DeclaresTypeIsTheGrammars) {
  EXPECT_TRUE(declaresType(Op::TypeInt));
  EXPECT_TRUE(declaresType(Op::TypeStruct));
  EXPECT_TRUE(declaresType(Op::TypeCooperativeMatrixKHR));
  EXPECT_TRUE(declaresType(Op::TypeRayQueryKHR));
  EXPECT_FALSE(declaresType(Op::TypeForwardPointer));
  EXPECT_TRUE(isTypeDeclaration(Op::TypeForwardPointer));
  EXPECT_FALSE(declaresType(Op::IAdd));
  EXPECT_FALSE(declaresType(static_cast<Op>(0xFFFF)));
  EXPECT_TRUE(declaresCooperativeType(Op::TypeCooperativeMatrixKHR));
  EXPECT_TRUE(declaresCooperativeType(Op::TypeCooperativeMatrixNV));
  EXPECT_FALSE(declaresCooperativeType(Op::TypeMatrix));

  EXPECT_TRUE(spvasm::isSpirvToolsTypeOpcode(uint16_t(Op::TypeInt)));
  EXPECT_FALSE(spvasm::isSpirvToolsTypeOpcode(uint16_t(Op::TypeCooperativeMatrixKHR)));
  EXPECT_FALSE(spvasm::isSpirvToolsTypeOpcode(uint16_t(Op::TypeForwardPointer)));
  // Every opcode of SPIRV-Tools' list is a type by the grammar too.
  for (const grammar::InstructionDesc &d : grammar::instructions()) {
    if (spvasm::isSpirvToolsTypeOpcode(d.opcode)) {
      EXPECT_TRUE(declaresType(static_cast<Op>(d.opcode))) << d.name;
    }
  }
}

} // namespace
} // namespace spire
