// What kind of instruction an opcode is, where the grammar alone does not say (SPIR-V 2.2.4, 2.4).
#pragma once

#include "spire/grammar/Grammar.h"

namespace spire {

/// Ends a block: branches, returns, OpKill, OpUnreachable and the other terminators of 2.2.4.
bool isBlockTerminator(grammar::Op op);
/// Declares a type (the grammar's Type-Declaration class).
bool isTypeDeclaration(grammar::Op op);
/// Creates a constant or specialization constant (the grammar's Constant-Creation class).
bool isConstantCreation(grammar::Op op);

} // namespace spire
