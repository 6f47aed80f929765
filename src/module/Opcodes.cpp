#include "spire/module/Opcodes.h"

namespace spire {

using grammar::Op;

bool isBlockTerminator(Op op) {
  switch (op) {
  // SPIR-V 2.2.5: branch instructions and function termination instructions.
  case Op::Branch:
  case Op::BranchConditional:
  case Op::Switch:
  case Op::Return:
  case Op::ReturnValue:
  case Op::Kill:
  case Op::Unreachable:
  case Op::TerminateInvocation:
  // Terminators added by extensions (SPV_KHR_ray_tracing, SPV_EXT_mesh_shader).
  case Op::IgnoreIntersectionKHR:
  case Op::TerminateRayKHR:
  case Op::EmitMeshTasksEXT:
    return true;
  default:
    return false;
  }
}

bool isTypeDeclaration(Op op) {
  const grammar::InstructionDesc *d = grammar::findInstruction(static_cast<uint32_t>(op));
  return d != nullptr && d->cls == grammar::InstructionClass::TypeDeclaration;
}

// Asked of every id operand by the validator: computed from the instruction's grammar entry
// (its class and name, two compares) rather than from a table built over the whole grammar at
// start, which cost a small module's validation a tenth of its instructions.
bool declaresType(Op op) {
  const grammar::InstructionDesc *d = grammar::findInstruction(static_cast<uint32_t>(op));
  if (d == nullptr || op == Op::TypeForwardPointer)
    return false;
  return d->cls == grammar::InstructionClass::TypeDeclaration || d->name.starts_with("OpType");
}

bool declaresCooperativeType(Op op) {
  const grammar::InstructionDesc *d = grammar::findInstruction(static_cast<uint32_t>(op));
  return d != nullptr && d->name.starts_with("OpTypeCooperative");
}

bool isConstantCreation(Op op) {
  const grammar::InstructionDesc *d = grammar::findInstruction(static_cast<uint32_t>(op));
  return d != nullptr && d->cls == grammar::InstructionClass::ConstantCreation;
}

} // namespace spire
