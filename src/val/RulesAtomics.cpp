// Rules: atomic and barrier instructions, scopes and memory semantics (SPIR-V 3.32.18, 3.32.20,
// 2.16.1, 3.27 "Scope <id>", 3.25 "Memory Semantics <id>").
//
// - A Scope <id> or Memory Semantics <id> of any instruction is a 32-bit integer scalar; when it
//   is a constant, a scope names a scope of the grammar and semantics set at most one of the
//   ordering bits (Acquire, Release, AcquireRelease, SequentiallyConsistent).
// - Atomic loads do not release, atomic stores do not acquire.
// - Atomics: a pointer to a scalar of the result type (integer, or float for the float atomics),
//   values of that type; the flag atomics of kernels on 32-bit integers.
// - Vulkan: no CrossDevice scope; execution scopes are Workgroup or Subgroup; 64-bit integer
//   atomics need Int64Atomics.
#include "OpenCLRules.h"
#include "Rules.h"

namespace spire::val {

namespace {

using grammar::OperandKind;

constexpr uint32_t kSemanticsAcquire = 0x2, kSemanticsRelease = 0x4, kSemanticsAcquireRelease = 0x8,
                   kSemanticsSequentiallyConsistent = 0x10;
constexpr uint32_t kScopeCrossDevice = 0, kScopeWorkgroup = 2, kScopeSubgroup = 3;
constexpr uint32_t kCapabilityInt64Atomics = 12;
constexpr const char *kRule = "3.32.18";

// By value where older grammars lack the name.
constexpr uint32_t kOpAtomicFAddEXT = 6035, kOpAtomicFMinEXT = 5614, kOpAtomicFMaxEXT = 5615;

class AtomicsChecker {
public:
  explicit AtomicsChecker(State &s) : s_(s) {}

  void run() {
    for (Instruction inst : s_.module()) {
      if (s_.stopped())
        return;
      if (inst.isRaw() || s_.functionOf(inst.index()) == kNoIndex)
        continue;
      scopesAndSemantics(inst);
      if (isAtomicInstruction(inst.opcode()))
        atomic(inst);
    }
  }

private:
  // OpControlBarrier's first operand, the scope of the group instructions (non-uniform ones have
  // rules of their own).
  static bool isExecutionScope(const Instruction &inst, uint32_t offset) {
    const uint32_t op = static_cast<uint32_t>(inst.opcode());
    if (inst.opcode() == Op::ControlBarrier)
      return offset == 1;
    return offset == 3 && ((op >= 261 && op <= 271) || (op >= 6401 && op <= 6408));
  }

  void scopesAndSemantics(const Instruction &inst) {
    auto ops = inst.operands();
    for (const binary::Operand &op : ops) {
      if (op.kind != OperandKind::IdScope && op.kind != OperandKind::IdMemorySemantics)
        continue;
      const uint32_t id = inst.word(op.offset);
      const bool scope = op.kind == OperandKind::IdScope;
      const std::string what = scope ? "scope" : "memory semantics";
      const uint32_t type = s_.typeOf(id);
      if (type == 0)
        continue;
      if (!s_.isIntType(type) || s_.bitWidth(type) != 32) {
        s_.error(inst.index(), scope ? "3.27" : "3.25",
                 "the " + what + " " + s_.name(id) + " must be a 32-bit integer scalar");
        continue;
      }
      if (s_.defOpcode(id) != Op::Constant)
        continue; // a specialization constant or a computed value (Vulkan memory model)
      std::optional<uint64_t> value = s_.constantValue(id);
      if (!value)
        continue;
      if (scope) {
        if (!grammar::findEnumerant(OperandKind::Scope, static_cast<uint32_t>(*value)))
          s_.error(inst.index(), "3.27",
                   "scope " + s_.name(id) + " has the value " + std::to_string(*value) +
                       ", which is no scope");
        else if (s_.isVulkan() && *value == kScopeCrossDevice)
          s_.error(inst.index(), "VUID-StandaloneSpirv-None-04633",
                   "Vulkan has no CrossDevice scope");
        else if (s_.isVulkan() && isExecutionScope(inst, op.offset) && *value != kScopeWorkgroup &&
                 *value != kScopeSubgroup)
          s_.error(inst.index(), "VUID-StandaloneSpirv-None-04636",
                   "in Vulkan an execution scope is Workgroup or Subgroup");
        continue;
      }
      const uint32_t order = static_cast<uint32_t>(*value) &
                             (kSemanticsAcquire | kSemanticsRelease | kSemanticsAcquireRelease |
                              kSemanticsSequentiallyConsistent);
      if (order & (order - 1))
        s_.error(inst.index(), "3.25",
                 "memory semantics " + s_.name(id) +
                     " sets more than one of Acquire, Release, AcquireRelease and "
                     "SequentiallyConsistent");
      if (s_.isVulkan() && inst.opcode() == Op::MemoryBarrier && op.offset == 2) {
        // OpMemoryBarrier %scope %semantics: an ordering and some memory to order.
        constexpr uint32_t kUniformMemory = 0x40, kWorkgroupMemory = 0x100, kImageMemory = 0x800,
                           kOutputMemory = 0x1000;
        if (order == 0)
          s_.error(inst.index(), "VUID-StandaloneSpirv-OpMemoryBarrier-04732",
                   "in Vulkan an OpMemoryBarrier orders: its semantics need Acquire, Release, "
                   "AcquireRelease or SequentiallyConsistent");
        else if ((*value & (kUniformMemory | kWorkgroupMemory | kImageMemory | kOutputMemory)) == 0)
          s_.error(inst.index(), "VUID-StandaloneSpirv-OpMemoryBarrier-04733",
                   "in Vulkan an OpMemoryBarrier's semantics name the memory it orders "
                   "(UniformMemory, WorkgroupMemory, ImageMemory or OutputMemory)");
      }
      if (inst.opcode() == Op::AtomicLoad &&
          (order & (kSemanticsRelease | kSemanticsAcquireRelease)))
        s_.error(inst.index(), kRule, "an atomic load cannot have Release semantics");
      if (inst.opcode() == Op::AtomicStore &&
          (order & (kSemanticsAcquire | kSemanticsAcquireRelease)))
        s_.error(inst.index(), kRule, "an atomic store cannot have Acquire semantics");
    }
  }

  static bool isFloatAtomic(Op op) {
    const uint32_t v = static_cast<uint32_t>(op);
    return v == kOpAtomicFAddEXT || v == kOpAtomicFMinEXT || v == kOpAtomicFMaxEXT;
  }

  void atomic(const Instruction &inst) {
    const Op op = inst.opcode();
    const uint32_t pointer = atomicPointer(inst);
    if (pointer == 0)
      return;
    const uint32_t pointerType = s_.typeOf(pointer);
    if (pointerType == 0)
      return;
    if (!s_.isPointerType(pointerType)) {
      if (s_.defOpcode(pointerType) != static_cast<Op>(4417)) // untyped pointers: elsewhere
        s_.error(inst.index(), kRule,
                 "the atomic's pointer " + s_.name(pointer) + " is not a pointer");
      return;
    }
    const uint32_t pointee = s_.pointeeType(pointerType);
    if (op == Op::AtomicFlagTestAndSet || op == Op::AtomicFlagClear) {
      if (!s_.isIntType(pointee) || s_.bitWidth(pointee) != 32)
        s_.error(inst.index(), kRule, "the atomic flag must be a 32-bit integer");
      return;
    }
    const bool floating = isFloatAtomic(op) || op == Op::AtomicLoad || op == Op::AtomicStore ||
                          op == Op::AtomicExchange;
    const bool scalarOk = s_.isIntType(pointee) || (floating && s_.isFloatType(pointee));
    if (!scalarOk) {
      s_.error(inst.index(), kRule,
               "the atomic's pointer must point to an integer scalar" +
                   std::string(floating ? " or a floating-point scalar" : "") + ", not " +
                   s_.name(pointee));
      return;
    }
    if (isFloatAtomic(op) && !s_.isFloatType(pointee)) {
      s_.error(inst.index(), kRule, "a floating-point atomic needs a floating-point pointee");
      return;
    }
    if (s_.isVulkan() && s_.isIntType(pointee) && s_.bitWidth(pointee) == 64 &&
        !s_.hasCapability(kCapabilityInt64Atomics))
      s_.error(inst.index(), "VUID-StandaloneSpirv-None-04625",
               "64-bit integer atomics need the Int64Atomics capability");
    if (op == Op::AtomicStore) {
      // OpAtomicStore %pointer %scope %semantics %value
      if (inst.wordCount() >= 5)
        sameType(inst, inst.word(4), pointee, "value");
      return;
    }
    if (inst.typeId() != pointee) {
      s_.error(inst.index(), kRule,
               "the result type " + s_.name(inst.typeId()) +
                   " is not the type the pointer points to, " + s_.name(pointee));
      return;
    }
    // The value operands after pointer, scope and semantics (two semantics for compare-exchange).
    const uint32_t firstValue =
        (op == Op::AtomicCompareExchange || op == Op::AtomicCompareExchangeWeak) ? 7 : 6;
    for (uint32_t w = firstValue; w < inst.wordCount(); ++w)
      sameType(inst, inst.word(w), pointee, "value");
  }

  void sameType(const Instruction &inst, uint32_t value, uint32_t want, const char *role) {
    const uint32_t t = s_.typeOf(value);
    if (t != 0 && t != want)
      s_.error(inst.index(), kRule,
               std::string("the ") + role + " " + s_.name(value) + " has type " + s_.name(t) +
                   ", not " + s_.name(want));
  }

  State &s_;
};

} // namespace

void checkAtomicsBarriers(State &s) { AtomicsChecker(s).run(); }

} // namespace spire::val
