#include "AsOpcodeRules.h"

#include "spire/grammar/Grammar.h"

namespace spire::assembly {

using grammar::Op;

std::optional<uint16_t> specConstantOperation(std::string_view name) {
  if (name.empty() || name.size() > 64)
    return std::nullopt;
  char full[68] = "Op";
  name.copy(full + 2, name.size());
  const grammar::InstructionDesc *d =
      grammar::findInstruction(std::string_view(full, name.size() + 2));
  if (d == nullptr || d->name != std::string_view(full, name.size() + 2) ||
      grammar::specConstantOperation(d->opcode) == grammar::SpecConstantOperation::No)
    return std::nullopt;
  return static_cast<uint16_t>(d->opcode);
}

bool declaresType(uint16_t opcode) {
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

} // namespace spire::assembly
