#include "spire/module/Opcodes.h"

#include <atomic>

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

// What declaresType and declaresCooperativeType answer, from the instruction's grammar entry
// (its class and name).
constexpr uint8_t kKnown = 1, kType = 2, kCooperative = 4;
uint8_t typeFlags(Op op) {
  const grammar::InstructionDesc *d = grammar::findInstruction(static_cast<uint32_t>(op));
  if (d == nullptr)
    return kKnown;
  uint8_t f = kKnown;
  if ((d->cls == grammar::InstructionClass::TypeDeclaration || d->name.starts_with("OpType")) &&
      op != Op::TypeForwardPointer)
    f |= kType;
  if (d->name.starts_with("OpTypeCooperative"))
    f |= kCooperative;
  return f;
}

// The validator asks for every id operand. A table over the whole grammar, made at start, cost
// a small module's validation more than its asking; the core opcodes' answers are kept as they
// are first asked for (a pure memo of the grammar's constant tables: relaxed atomics, as any
// thread may fill an entry, always with the same value).
constexpr uint32_t kMemoOpcodes = 1024;
std::atomic<uint8_t> memo[kMemoOpcodes];

uint8_t flagsOf(Op op) {
  const uint32_t v = static_cast<uint16_t>(op); // (an opcode is 16 bits)
  if (v >= kMemoOpcodes)
    return typeFlags(static_cast<Op>(v));
  uint8_t f = memo[v].load(std::memory_order_relaxed);
  if (f == 0) {
    f = typeFlags(static_cast<Op>(v));
    memo[v].store(f, std::memory_order_relaxed);
  }
  return f;
}

} // namespace

bool declaresType(Op op) { return flagsOf(op) & kType; }

bool declaresCooperativeType(Op op) { return flagsOf(op) & kCooperative; }

bool isConstantCreation(Op op) {
  const grammar::InstructionDesc *d = grammar::findInstruction(static_cast<uint32_t>(op));
  return d != nullptr && d->cls == grammar::InstructionClass::ConstantCreation;
}

} // namespace spire
