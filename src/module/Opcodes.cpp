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

bool isConstantCreation(Op op) {
  const grammar::InstructionDesc *d = grammar::findInstruction(static_cast<uint32_t>(op));
  return d != nullptr && d->cls == grammar::InstructionClass::ConstantCreation;
}

} // namespace spire
