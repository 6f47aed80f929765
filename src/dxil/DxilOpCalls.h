// Resolving a DXIL module's dx.op calls: each call's opcode, function name, overload, operand
// types, stage, shader model and DXIL version checked against the operation table.
#pragma once

#include "spire/dxil/DxilModule.h"

#include <optional>

namespace spire::dxil {

/// Fills module.opCalls and module.opCallIndex; the first call that does not resolve is the
/// diagnostic.
std::optional<Diagnostic> resolveOpCalls(DxilModule &module);

} // namespace spire::dxil
