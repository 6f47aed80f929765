#include "spire/module/Opcodes.h"

#include <bitset>

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

namespace {

// The type opcodes, from the grammar once: a pure memo of its immutable tables.
struct TypeOpcodes {
  std::bitset<65536> type, cooperative;
  TypeOpcodes() {
    for (const grammar::InstructionDesc &d : grammar::instructions()) {
      const bool declaration =
          d.cls == grammar::InstructionClass::TypeDeclaration || d.name.starts_with("OpType");
      type[d.opcode] = declaration && d.opcode != uint16_t(Op::TypeForwardPointer);
      cooperative[d.opcode] = d.name.starts_with("OpTypeCooperative");
    }
  }
};
const TypeOpcodes &typeOpcodes() {
  static const TypeOpcodes t;
  return t;
}

} // namespace

bool declaresType(Op op) { return typeOpcodes().type[static_cast<uint16_t>(op)]; }

bool declaresCooperativeType(Op op) { return typeOpcodes().cooperative[static_cast<uint16_t>(op)]; }

bool isConstantCreation(Op op) {
  const grammar::InstructionDesc *d = grammar::findInstruction(static_cast<uint32_t>(op));
  return d != nullptr && d->cls == grammar::InstructionClass::ConstantCreation;
}

} // namespace spire
