// Structural checks of the IR: what every op must satisfy whatever it is (terminators end
// blocks, successors are blocks of the same region with matching arguments, operands are
// values in scope) and the region shapes of the dialect's structural ops (spirv.module,
// spirv.func, spirv.mlir.selection, spirv.mlir.loop, spirv.mlir.merge).
#pragma once

#include "spire/dialect/IR.h"
#include "spire/support/Expected.h"

namespace spire::dialect {

/// The first problem found in `op` and everything nested in it, naming the op and where it
/// came from.
Status verify(const Operation &op);

} // namespace spire::dialect
