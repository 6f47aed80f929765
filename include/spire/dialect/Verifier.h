// Structural checks of the IR: what every op must satisfy whatever it is (terminators end
// blocks, successors are blocks of the same region with matching arguments, operands are
// values in scope), the region shapes of the dialect's structural ops (spirv.module,
// spirv.func, spirv.mlir.selection, spirv.mlir.loop, spirv.mlir.merge), and the types each op's
// operands and results must have (VerifierTypes.cpp).
#pragma once

#include "spire/dialect/IR.h"
#include "spire/dialect/Ops.h"
#include "spire/support/Expected.h"

#include <string_view>
#include <vector>

namespace spire::dialect {

/// The first problem found in `op` and everything nested in it, naming the op (as `messages`'
/// text names it: `'spv.Load' op` in MLIR 15's) and where it came from.
Status verify(const Operation &op, MlirVersion messages = MlirVersion::Latest);

/// The keys in the verifier's table of type rules that no op has: empty, unless this build's
/// grammar lacks the instruction (its op then goes unchecked).
std::vector<OpKey> typeRuleKeysWithoutOp();

/// Whether the verifier checks the operand and result types of the op named `opName`
/// ("spirv.IAdd"): the table of type rules has a row, or a function, for it.
bool hasTypeRule(std::string_view opName);

} // namespace spire::dialect
