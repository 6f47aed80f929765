// What kind of instruction an opcode is, where the grammar alone does not say (SPIR-V 2.2.4, 2.4).
#pragma once

#include "spire/grammar/Grammar.h"

namespace spire {

/// Ends a block: branches, returns, OpKill, OpUnreachable and the other terminators of 2.2.4.
bool isBlockTerminator(grammar::Op op);
/// In the grammar's Type-Declaration class (OpTypeForwardPointer included).
bool isTypeDeclaration(grammar::Op op);
/// Whether `op`'s result is a type: the grammar's Type-Declaration class and the extension types
/// it files under other classes (an OpType* name: acceleration structures, ray queries, the AVC
/// types), less OpTypeForwardPointer, which declares no type of its own. spire's one "is this a
/// type opcode"; spvasm::isSpirvToolsTypeOpcode is SPIRV-Tools' list, kept for its text.
bool declaresType(grammar::Op op);
/// Among those, the cooperative types (OpTypeCooperative*, whatever the grammar's revision).
bool declaresCooperativeType(grammar::Op op);
/// Creates a constant or specialization constant (the grammar's Constant-Creation class).
bool isConstantCreation(grammar::Op op);

} // namespace spire
