#include "OpcodeRules.h"

#include "spire/grammar/Grammar.h"

#include <string>

namespace spire::spvasm {

using grammar::Op;

std::optional<uint16_t> specConstantOperation(std::string_view name) {
  const std::string full = "Op" + std::string(name);
  const grammar::InstructionDesc *d = grammar::findInstruction(full);
  if (d == nullptr || d->name != full || // (aliases are not taken)
      grammar::specConstantOperation(d->opcode) == grammar::SpecConstantOperation::No)
    return std::nullopt;
  return static_cast<uint16_t>(d->opcode);
}

bool isSpirvToolsTypeOpcode(uint16_t opcode) {
  switch (static_cast<Op>(opcode)) {
  case Op::TypeVoid:
  case Op::TypeBool:
  case Op::TypeInt:
  case Op::TypeFloat:
  case Op::TypeVector:
  case Op::TypeMatrix:
  case Op::TypeImage:
  case Op::TypeSampler:
  case Op::TypeSampledImage:
  case Op::TypeArray:
  case Op::TypeRuntimeArray:
  case Op::TypeStruct:
  case Op::TypeOpaque:
  case Op::TypePointer:
  case Op::TypeFunction:
  case Op::TypeEvent:
  case Op::TypeDeviceEvent:
  case Op::TypeReserveId:
  case Op::TypeQueue:
  case Op::TypePipe:
  case Op::TypePipeStorage:
  case Op::TypeNamedBarrier:
  case Op::TypeRayQueryKHR:
  case Op::TypeHitObjectNV:
  case Op::TypeAccelerationStructureNV:
  case Op::TypeCooperativeMatrixNV:
    return true;
  default:
    return false;
  }
}

} // namespace spire::spvasm
