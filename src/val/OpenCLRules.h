// What the OpenCL and Level Zero rule families share: which instructions are atomics and where
// their pointer is.
#pragma once

#include "State.h"

namespace spire::val {

/// OpAtomic* of the core grammar (load, store, exchange, compare-exchange, arithmetic, flags) and
/// the float atomics of SPV_EXT_shader_atomic_float_add / _min_max.
bool isAtomicInstruction(Op op);
/// The id of an atomic instruction's Pointer operand, 0 when it is missing.
uint32_t atomicPointer(const Instruction &inst);

} // namespace spire::val
