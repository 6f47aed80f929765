// Facts about opcodes that spirv-as (SPIRV-Tools 2023.1) applies while assembling and that the
// grammar does not say: which opcodes an OpSpecConstantOp may name, and which opcodes declare
// types that it remembers.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace spire::spvasm {

/// The opcode of an OpSpecConstantOp operation written without "Op" ("IAdd"), if spirv-as
/// accepts it: the operations grammar::specConstantOperation allows in some module (the
/// specification's, and the cooperative matrix lengths). Aliases are not accepted.
std::optional<uint16_t> specConstantOperation(std::string_view name);

/// A quirk kept for byte parity, not spire's type predicate (that is spire::declaresType):
/// SPIRV-Tools' own list of the opcodes that generate a type, which is not the grammar's
/// (OpTypeForwardPointer, OpTypeCooperativeMatrixKHR, OpTypeUntypedPointerKHR, the tensor and
/// INTEL types are not in it). spirv-as records their results as types (a second type with the
/// same id is an error, and OpConstant needs a recorded integer or float type); spirv-dis
/// --comment opens its "Types, variables and constants" section at the first of them.
bool isSpirvToolsTypeOpcode(uint16_t opcode);

} // namespace spire::spvasm
