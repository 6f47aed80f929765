// Rules: atomic and barrier instructions, scopes and memory semantics (SPIR-V 3.32.18, 3.32.20,
// 2.16.1, 2.16.2, 3.27 "Scope <id>", 3.25 "Memory Semantics <id>").
//
// - A Scope <id> or Memory Semantics <id> of any instruction is a 32-bit integer scalar; in
//   shaders it is an OpConstant (2.16.2; scopes of cooperative matrix modules may be any constant
//   instruction). A constant scope names a scope of the grammar: QueueFamily needs the
//   VulkanMemoryModel capability, Device under that capability VulkanMemoryModelDeviceScope.
// - Constant semantics set at most one of the ordering bits (Acquire, Release, AcquireRelease,
//   SequentiallyConsistent), no SequentiallyConsistent under the Vulkan memory model;
//   MakeAvailable, MakeVisible, OutputMemory and Volatile need the VulkanMemoryModel capability,
//   UniformMemory the Shader capability; MakeAvailable needs a release, MakeVisible an acquire,
//   both a storage class bit; Volatile is for atomics only, and compare-exchanges set it in both
//   semantics or neither.
// - Atomic loads do not release, atomic stores, flag clears and the Unequal semantics of
//   compare-exchanges do not acquire (resp. release).
// - Atomics: a pointer to a scalar of the result type (integer, or float for the float atomics),
//   values of that type; the flag atomics of kernels on 32-bit integers, OpAtomicFlagTestAndSet
//   giving a boolean. The pointer is in a storage class atomics may use (2.16.1), not Function in
//   shaders (2.16.2); 64-bit integers need Int64Atomics, the float atomics of shaders the
//   capability of their width.
// - Named barriers (OpNamedBarrierInitialize, OpMemoryNamedBarrier): of OpTypeNamedBarrier, from a
//   32-bit integer subgroup count.
// - Vulkan: no CrossDevice scope; execution scopes are Workgroup or Subgroup; atomics only on
//   Uniform, StorageBuffer, PhysicalStorageBuffer, Workgroup, Image and task payload memory; no
//   SequentiallyConsistent atomic loads and stores; ordered semantics not with the Invocation
//   memory scope; Vulkan 1.0 needs SubgroupBallotKHR or SubgroupVoteKHR for the Subgroup memory
//   scope.
#include "OpenCLRules.h"
#include "OperandCheck.h"
#include "Rules.h"

#include <array>

namespace spire::val {

namespace {

using grammar::OperandKind;

enum : uint32_t {
  kSemanticsAcquire = uint32_t(grammar::MemorySemantics::Acquire),
  kSemanticsRelease = uint32_t(grammar::MemorySemantics::Release),
  kSemanticsAcquireRelease = uint32_t(grammar::MemorySemantics::AcquireRelease),
  kSemanticsSequentiallyConsistent = uint32_t(grammar::MemorySemantics::SequentiallyConsistent),
  kSemanticsUniformMemory = uint32_t(grammar::MemorySemantics::UniformMemory),
  kSemanticsSubgroupMemory = uint32_t(grammar::MemorySemantics::SubgroupMemory),
  kSemanticsWorkgroupMemory = uint32_t(grammar::MemorySemantics::WorkgroupMemory),
  kSemanticsCrossWorkgroupMemory = uint32_t(grammar::MemorySemantics::CrossWorkgroupMemory),
  kSemanticsAtomicCounterMemory = uint32_t(grammar::MemorySemantics::AtomicCounterMemory),
  kSemanticsImageMemory = uint32_t(grammar::MemorySemantics::ImageMemory),
  kSemanticsOutputMemory = uint32_t(grammar::MemorySemantics::OutputMemory),
  kSemanticsMakeAvailable = uint32_t(grammar::MemorySemantics::MakeAvailable),
  kSemanticsMakeVisible = uint32_t(grammar::MemorySemantics::MakeVisible),
  kSemanticsVolatile = uint32_t(grammar::MemorySemantics::Volatile),
};
constexpr uint32_t kOrderBits = kSemanticsAcquire | kSemanticsRelease | kSemanticsAcquireRelease |
                                kSemanticsSequentiallyConsistent;
constexpr uint32_t kStorageBits = kSemanticsUniformMemory | kSemanticsSubgroupMemory |
                                  kSemanticsWorkgroupMemory | kSemanticsCrossWorkgroupMemory |
                                  kSemanticsAtomicCounterMemory | kSemanticsImageMemory |
                                  kSemanticsOutputMemory;

enum : uint32_t {
  kScopeCrossDevice = uint32_t(grammar::Scope::CrossDevice),
  kScopeDevice = uint32_t(grammar::Scope::Device),
  kScopeWorkgroup = uint32_t(grammar::Scope::Workgroup),
  kScopeSubgroup = uint32_t(grammar::Scope::Subgroup),
  kScopeInvocation = uint32_t(grammar::Scope::Invocation),
  kScopeQueueFamily = uint32_t(grammar::Scope::QueueFamily),
};

enum : uint32_t {
  kCapabilityShader = uint32_t(grammar::Capability::Shader),
  kCapabilityInt64Atomics = uint32_t(grammar::Capability::Int64Atomics),
  kCapabilitySubgroupBallotKHR = uint32_t(grammar::Capability::SubgroupBallotKHR),
  kCapabilitySubgroupVoteKHR = uint32_t(grammar::Capability::SubgroupVoteKHR),
  kCapabilityVulkanMemoryModel = uint32_t(grammar::Capability::VulkanMemoryModel),
  kCapabilityVulkanMemoryModelDeviceScope =
      uint32_t(grammar::Capability::VulkanMemoryModelDeviceScope),
  kCapabilityCooperativeMatrixNV = uint32_t(grammar::Capability::CooperativeMatrixNV),
  kCapabilityAtomicFloat32MinMaxEXT = uint32_t(grammar::Capability::AtomicFloat32MinMaxEXT),
  kCapabilityAtomicFloat64MinMaxEXT = uint32_t(grammar::Capability::AtomicFloat64MinMaxEXT),
  kCapabilityAtomicFloat16MinMaxEXT = uint32_t(grammar::Capability::AtomicFloat16MinMaxEXT),
  kCapabilityCooperativeMatrixKHR = uint32_t(grammar::Capability::CooperativeMatrixKHR),
  kCapabilityAtomicFloat32AddEXT = uint32_t(grammar::Capability::AtomicFloat32AddEXT),
  kCapabilityAtomicFloat64AddEXT = uint32_t(grammar::Capability::AtomicFloat64AddEXT),
  kCapabilityAtomicFloat16AddEXT = uint32_t(grammar::Capability::AtomicFloat16AddEXT),
};

enum : uint32_t {
  kStorageUniform = uint32_t(grammar::StorageClass::Uniform),
  kStorageWorkgroup = uint32_t(grammar::StorageClass::Workgroup),
  kStorageCrossWorkgroup = uint32_t(grammar::StorageClass::CrossWorkgroup),
  kStorageFunction = uint32_t(grammar::StorageClass::Function),
  kStorageGeneric = uint32_t(grammar::StorageClass::Generic),
  kStorageAtomicCounter = uint32_t(grammar::StorageClass::AtomicCounter),
  kStorageImage = uint32_t(grammar::StorageClass::Image),
  kStorageStorageBuffer = uint32_t(grammar::StorageClass::StorageBuffer),
  kStoragePhysicalStorageBuffer = uint32_t(grammar::StorageClass::PhysicalStorageBuffer),
  kStorageTaskPayloadWorkgroup = uint32_t(grammar::StorageClass::TaskPayloadWorkgroupEXT),
};

constexpr const char *kRule = "3.32.18";

// By value where older grammars lack the name.
constexpr uint32_t kOpAtomicFAddEXT = uint32_t(grammar::Op::AtomicFAddEXT),
                   kOpAtomicFMinEXT = uint32_t(grammar::Op::AtomicFMinEXT),
                   kOpAtomicFMaxEXT = uint32_t(grammar::Op::AtomicFMaxEXT);
constexpr uint32_t kOpTypeUntypedPointerKHR = uint32_t(grammar::Op::TypeUntypedPointerKHR);

class AtomicsChecker {
public:
  explicit AtomicsChecker(State &s)
      : s_(s), shader_(s.hasCapability(kCapabilityShader)),
        vulkanMemoryModelCapability_(s.hasCapability(kCapabilityVulkanMemoryModel)) {}

  void run() {
    for (Instruction inst : s_.module()) {
      if (s_.stopped())
        return;
      if (inst.isRaw() || s_.functionOf(inst.index()) == kNoIndex)
        continue;
      if (mayHaveScopes(inst))
        scopesAndSemantics(inst);
      if (isAtomicInstruction(inst.opcode()))
        atomic(inst);
      else if (inst.opcode() == Op::NamedBarrierInitialize ||
               inst.opcode() == Op::MemoryNamedBarrier)
        namedBarrier(inst);
    }
  }

private:
  // OpGroupNonUniform* (SPIR-V 1.3, 3.32.24) and SPV_KHR_subgroup_rotate's rotation.
  static bool isNonUniform(Op op) {
    const uint32_t v = static_cast<uint32_t>(op);
    return (v >= uint32_t(Op::GroupNonUniformElect) &&
            v <= uint32_t(Op::GroupNonUniformQuadSwap)) ||
           v == uint32_t(Op::GroupNonUniformRotateKHR);
  }

  /// The value of a constant scope or semantics: OpConstant, or OpConstantNull (zero).
  std::optional<uint64_t> constant(uint32_t id) const {
    const Op op = s_.defOpcode(id);
    if (op == Op::ConstantNull)
      return 0;
    return op == Op::Constant ? s_.constantValue(id) : std::nullopt;
  }

  // "All <id> used for Scope <id> and Memory Semantics <id> must be of an OpConstant" (2.16.2);
  // SPV_NV_cooperative_matrix allows any constant instruction for both, SPV_KHR_cooperative_matrix
  // for scopes ("All <id> used for Scope <id> must be the result of a constant instruction").
  bool constantInShader(const Instruction &inst, uint32_t id, bool scope) {
    if (!shader_ || constant(id))
      return true;
    const grammar::InstructionDesc *d = grammar::findInstruction(uint32_t(s_.defOpcode(id)));
    const bool constantInstruction =
        d != nullptr && d->cls == grammar::InstructionClass::ConstantCreation;
    if (constantInstruction && (s_.hasCapability(kCapabilityCooperativeMatrixNV) ||
                                (scope && s_.hasCapability(kCapabilityCooperativeMatrixKHR))))
      return true;
    s_.error(inst.index(), "2.16.2",
             std::string(scope ? "scope " : "memory semantics ") + s_.name(id) +
                 " must be an OpConstant in a module that declares the Shader capability");
    return false;
  }

  // Whether `inst` may have scope or memory-semantics operands: its grammar lists one, or an
  // operand whose enumerants may add one (OpLoad's MakePointerVisible scope); an instruction
  // the grammar does not know, or of an extended set, may. Asked of every instruction in a
  // function, and most have none: the core opcodes' answers are kept (0: not yet asked, 1: no,
  // 2: maybe).
  bool mayHaveScopes(const Instruction &inst) {
    const auto v = static_cast<uint32_t>(inst.opcode());
    if (v < mayHaveScopes_.size() && mayHaveScopes_[v] != 0)
      return mayHaveScopes_[v] == 2;
    const grammar::InstructionDesc *d = inst.desc();
    bool maybe = d == nullptr || State::isExtInst(inst.opcode());
    for (size_t k = 0; d && !maybe && k < d->operands.size(); ++k) {
      const OperandKind kind = d->operands[k].kind;
      const grammar::OperandCategory c = grammar::operandCategory(kind);
      maybe = kind == OperandKind::IdScope || kind == OperandKind::IdMemorySemantics ||
              c == grammar::OperandCategory::BitEnum || c == grammar::OperandCategory::ValueEnum ||
              c == grammar::OperandCategory::Composite;
    }
    if (v < mayHaveScopes_.size())
      mayHaveScopes_[v] = maybe ? 2 : 1;
    return maybe;
  }

  void scopesAndSemantics(const Instruction &inst) {
    std::optional<uint64_t> memoryScope; // the last scope before the semantics
    auto ops = inst.operands();
    uint32_t semanticsSeen = 0;
    for (size_t k = 0; k < ops.size(); ++k) {
      const binary::Operand &op = ops[k];
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
      if (!constantInShader(inst, id, scope))
        continue;
      const std::optional<uint64_t> value = constant(id);
      if (scope) {
        if (!isExecutionScope(inst, k))
          memoryScope = value;
        if (value)
          scopeValue(inst, isExecutionScope(inst, k), id, static_cast<uint32_t>(*value));
        continue;
      }
      ++semanticsSeen;
      if (value)
        semantics(inst, id, static_cast<uint32_t>(*value), semanticsSeen == 2, memoryScope);
    }
    if (semanticsSeen == 2)
      compareExchangeSemantics(inst);
  }

  void scopeValue(const Instruction &inst, bool execution, uint32_t id, uint32_t value) {
    if (!grammar::findEnumerant(OperandKind::Scope, value)) {
      s_.error(inst.index(), "3.27",
               "scope " + s_.name(id) + " has the value " + std::to_string(value) +
                   ", which is no scope");
      return;
    }
    if (!execution && value == kScopeQueueFamily && !vulkanMemoryModelCapability_) {
      s_.error(inst.index(), "3.27",
               "the QueueFamily memory scope needs the VulkanMemoryModel capability");
      return;
    }
    // "If the Vulkan memory model is declared and any instruction uses Device scope, the
    // VulkanMemoryModelDeviceScope capability must be declared" (2.16.1).
    if (value == kScopeDevice && vulkanMemoryModelCapability_ &&
        !s_.hasCapability(kCapabilityVulkanMemoryModelDeviceScope)) {
      s_.error(inst.index(), "2.16.1",
               "the Device scope under the VulkanMemoryModel capability needs the "
               "VulkanMemoryModelDeviceScope capability");
      return;
    }
    if (!s_.isVulkan())
      return;
    if (value == kScopeCrossDevice)
      s_.error(inst.index(), "VUID-StandaloneSpirv-None-04633", "Vulkan has no CrossDevice scope");
    else if (execution && !isNonUniform(inst.opcode()) && value != kScopeWorkgroup &&
             value != kScopeSubgroup) // non-uniform ones: RulesGroups
      s_.error(inst.index(), "VUID-StandaloneSpirv-None-04636",
               "in Vulkan an execution scope is Workgroup or Subgroup");
    else if (!execution && value == kScopeSubgroup && s_.env().targetEnv == TargetEnv::Vulkan1_0 &&
             !s_.hasCapability(kCapabilitySubgroupBallotKHR) &&
             !s_.hasCapability(kCapabilitySubgroupVoteKHR))
      s_.error(inst.index(), "VUID-StandaloneSpirv-SubgroupVoteKHR-06997",
               "in Vulkan 1.0 the Subgroup memory scope needs the SubgroupBallotKHR or "
               "SubgroupVoteKHR capability");
  }

  // One constant Memory Semantics operand (3.25); `unequal`: the second of a compare-exchange.
  void semantics(const Instruction &inst, uint32_t id, uint32_t value, bool unequal,
                 std::optional<uint64_t> memoryScope) {
    const Op opcode = inst.opcode();
    const uint32_t order = value & kOrderBits;
    auto fail = [&](std::string_view rule, const std::string &message) {
      s_.error(inst.index(), rule, "memory semantics " + s_.name(id) + ": " + message);
    };
    if (order & (order - 1))
      return fail("3.25", "sets more than one of Acquire, Release, AcquireRelease and "
                          "SequentiallyConsistent");
    if ((value & kSemanticsSequentiallyConsistent) && s_.isVulkanMemoryModel())
      return fail("3.25", "SequentiallyConsistent cannot be used with the Vulkan memory model");
    static constexpr std::pair<uint32_t, const char *> kVulkanModelBits[] = {
        {kSemanticsMakeAvailable, "MakeAvailable"},
        {kSemanticsMakeVisible, "MakeVisible"},
        {kSemanticsOutputMemory, "OutputMemory"},
        {kSemanticsVolatile, "Volatile"}};
    for (auto [bit, name] : kVulkanModelBits)
      if ((value & bit) && !vulkanMemoryModelCapability_)
        return fail("3.25", std::string(name) + " needs the VulkanMemoryModel capability");
    if ((value & kSemanticsVolatile) && !isAtomicInstruction(opcode))
      return fail("3.25", "Volatile is for atomic instructions only");
    if ((value & kSemanticsUniformMemory) && !shader_)
      return fail("3.25", "UniformMemory needs the Shader capability");
    if ((value & (kSemanticsMakeAvailable | kSemanticsMakeVisible)) && !(value & kStorageBits))
      return fail("3.25", "MakeAvailable and MakeVisible need a storage class bit");
    if ((value & kSemanticsMakeVisible) &&
        !(value & (kSemanticsAcquire | kSemanticsAcquireRelease)))
      return fail("3.25", "MakeVisible needs Acquire or AcquireRelease");
    if ((value & kSemanticsMakeAvailable) &&
        !(value & (kSemanticsRelease | kSemanticsAcquireRelease)))
      return fail("3.25", "MakeAvailable needs Release or AcquireRelease");
    const bool vulkan = s_.isVulkan();
    if (vulkan && opcode == Op::MemoryBarrier) {
      // OpMemoryBarrier %scope %semantics: an ordering and some memory to order.
      constexpr uint32_t kVulkanStorage = kSemanticsUniformMemory | kSemanticsWorkgroupMemory |
                                          kSemanticsImageMemory | kSemanticsOutputMemory;
      if (order == 0)
        return fail("VUID-StandaloneSpirv-OpMemoryBarrier-04732",
                    "in Vulkan an OpMemoryBarrier orders: its semantics need Acquire, Release, "
                    "AcquireRelease or SequentiallyConsistent");
      if ((value & kVulkanStorage) == 0)
        return fail("VUID-StandaloneSpirv-OpMemoryBarrier-04733",
                    "in Vulkan an OpMemoryBarrier's semantics name the memory it orders "
                    "(UniformMemory, WorkgroupMemory, ImageMemory or OutputMemory)");
    } else if (vulkan && order != 0 && memoryScope == kScopeInvocation) {
      return fail("VUID-StandaloneSpirv-None-04641",
                  "in Vulkan the semantics of an Invocation memory scope are None");
    }
    const bool acquires = order & (kSemanticsAcquire | kSemanticsAcquireRelease);
    const bool releases = order & (kSemanticsRelease | kSemanticsAcquireRelease);
    const bool sequential = order & kSemanticsSequentiallyConsistent;
    if (opcode == Op::AtomicLoad && releases)
      return fail(kRule, "an atomic load cannot have Release semantics");
    if ((opcode == Op::AtomicStore || opcode == Op::AtomicFlagClear) && acquires)
      return fail(kRule, std::string("an ") +
                             (opcode == Op::AtomicStore ? "atomic store" : "atomic flag clear") +
                             " cannot have Acquire semantics");
    if (unequal && releases)
      return fail(kRule, "the Unequal semantics of a compare-exchange cannot release");
    if (vulkan && sequential && (opcode == Op::AtomicLoad || opcode == Op::AtomicStore))
      return fail(opcode == Op::AtomicLoad ? "VUID-StandaloneSpirv-OpAtomicLoad-04731"
                                           : "VUID-StandaloneSpirv-OpAtomicStore-04730",
                  "Vulkan has no SequentiallyConsistent atomic loads and stores");
    if (!vulkan)
      return;
    // Vulkan's memory semantics (VUID-StandaloneSpirv-MemorySemantics-10866, -10870, -10871):
    // no SequentiallyConsistent order; an order (Acquire, Release, AcquireRelease) comes with at
    // least one of the storage classes Vulkan has (UniformMemory, WorkgroupMemory, ImageMemory,
    // OutputMemory), and those come with an order.
    constexpr uint32_t kVulkanStorage = kSemanticsUniformMemory | kSemanticsWorkgroupMemory |
                                        kSemanticsImageMemory | kSemanticsOutputMemory;
    if (sequential)
      return fail("VUID-StandaloneSpirv-MemorySemantics-10866",
                  "Vulkan has no SequentiallyConsistent memory order");
    if (order != 0 && (value & kVulkanStorage) == 0)
      return fail("VUID-StandaloneSpirv-MemorySemantics-10870",
                  "in Vulkan an Acquire, Release or AcquireRelease order names the memory it "
                  "orders (UniformMemory, WorkgroupMemory, ImageMemory or OutputMemory)");
    if (order == 0 && (value & kVulkanStorage) != 0)
      return fail("VUID-StandaloneSpirv-MemorySemantics-10871",
                  "in Vulkan semantics that name UniformMemory, WorkgroupMemory, ImageMemory or "
                  "OutputMemory have an Acquire, Release or AcquireRelease order");
  }

  // The two semantics of a compare-exchange: "Volatile mask setting must match for Equal and
  // Unequal" (the Volatile bit of 3.25), and "Unequal cannot be set to a stronger memory-order
  // than Equal" (3.32.18; Acquire and Release ranked alike, as spirv-val does).
  void compareExchangeSemantics(const Instruction &inst) {
    // OpAtomicCompareExchange(Weak) %type %result %pointer %scope %equal %unequal ...
    if (inst.wordCount() < 7)
      return;
    const std::optional<uint64_t> equal = constant(inst.word(5)), unequal = constant(inst.word(6));
    if (!equal || !unequal)
      return;
    if ((*equal ^ *unequal) & kSemanticsVolatile) {
      s_.error(inst.index(), "3.25",
               "the Equal and Unequal semantics must both set Volatile or neither");
      return;
    }
    auto rank = [](uint64_t semantics) {
      const uint64_t order = semantics & kOrderBits;
      return order & kSemanticsSequentiallyConsistent ? 3
             : order & kSemanticsAcquireRelease       ? 2
             : order != 0                             ? 1
                                                      : 0;
    };
    if (rank(*unequal) > rank(*equal))
      s_.error(inst.index(), kRule,
               "the Unequal semantics " + s_.name(inst.word(6)) +
                   " order memory more strongly than the Equal semantics " + s_.name(inst.word(5)));
  }

  static bool isFloatAtomic(Op op) {
    const uint32_t v = static_cast<uint32_t>(op);
    return v == kOpAtomicFAddEXT || v == kOpAtomicFMinEXT || v == kOpAtomicFMaxEXT;
  }

  // The storage classes atomics may use: 2.16.1, and for shaders 2.16.2 and Vulkan's
  // VUID-StandaloneSpirv-None-04686.
  void storageClass(const Instruction &inst, uint32_t pointer, uint32_t sc) {
    switch (sc) {
    case kStorageUniform:
    case kStorageWorkgroup:
    case kStorageCrossWorkgroup:
    case kStorageFunction:
    case kStorageGeneric:
    case kStorageAtomicCounter:
    case kStorageImage:
    case kStorageStorageBuffer:
    case kStoragePhysicalStorageBuffer:
    case kStorageTaskPayloadWorkgroup:
      break;
    default:
      s_.error(inst.index(), "2.16.1",
               "the atomic's pointer " + s_.name(pointer) + " is in the " +
                   State::enumerantName(OperandKind::StorageClass, sc) +
                   " storage class, which atomics cannot use");
      return;
    }
    if (!shader_)
      return;
    if (s_.isVulkan()) {
      if (sc != kStorageUniform && sc != kStorageWorkgroup && sc != kStorageImage &&
          sc != kStorageStorageBuffer && sc != kStoragePhysicalStorageBuffer &&
          sc != kStorageTaskPayloadWorkgroup)
        s_.error(inst.index(), "VUID-StandaloneSpirv-None-04686",
                 "in Vulkan atomics operate on Uniform, Workgroup, Image, StorageBuffer, "
                 "PhysicalStorageBuffer or TaskPayloadWorkgroupEXT memory, not " +
                     State::enumerantName(OperandKind::StorageClass, sc));
    } else if (sc == kStorageFunction) {
      s_.error(inst.index(), "2.16.2",
               "in a module that declares the Shader capability atomics cannot operate on "
               "Function memory");
    }
  }

  // The width capabilities of the float atomics in shaders (SPV_EXT_shader_atomic_float_add,
  // SPV_EXT_shader_atomic_float16_add, SPV_EXT_shader_atomic_float_min_max).
  void floatAtomicCapability(const Instruction &inst, uint32_t width) {
    const bool add = static_cast<uint32_t>(inst.opcode()) == kOpAtomicFAddEXT;
    const uint32_t capability = add ? (width == 16   ? kCapabilityAtomicFloat16AddEXT
                                       : width == 32 ? kCapabilityAtomicFloat32AddEXT
                                                     : kCapabilityAtomicFloat64AddEXT)
                                    : (width == 16   ? kCapabilityAtomicFloat16MinMaxEXT
                                       : width == 32 ? kCapabilityAtomicFloat32MinMaxEXT
                                                     : kCapabilityAtomicFloat64MinMaxEXT);
    if ((width == 16 || width == 32 || width == 64) && !s_.hasCapability(capability))
      s_.error(inst.index(), kRule,
               std::to_string(width) + "-bit float " + (add ? "add" : "min/max") +
                   " atomics need the " +
                   State::enumerantName(OperandKind::Capability, capability) + " capability");
  }

  void atomic(const Instruction &inst) {
    const Op op = inst.opcode();
    const uint32_t pointer = atomicPointer(inst);
    if (pointer == 0)
      return;
    if (op == Op::AtomicFlagTestAndSet && inst.typeId() != 0 && !s_.isBoolType(inst.typeId())) {
      s_.error(inst.index(), kRule,
               "the result type of OpAtomicFlagTestAndSet must be a boolean scalar, not " +
                   s_.name(inst.typeId()));
      return;
    }
    const uint32_t pointerType = s_.typeOf(pointer);
    if (pointerType == 0)
      return;
    if (!s_.isPointerType(pointerType)) {
      if (s_.defOpcode(pointerType) != static_cast<Op>(kOpTypeUntypedPointerKHR)) // elsewhere
        s_.error(inst.index(), kRule,
                 "the atomic's pointer " + s_.name(pointer) + " is not a pointer");
      return;
    }
    if (const std::optional<uint32_t> sc = s_.storageClass(pointerType))
      storageClass(inst, pointer, *sc);
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
    if (s_.isIntType(pointee) && s_.bitWidth(pointee) == 64 &&
        !s_.hasCapability(kCapabilityInt64Atomics))
      s_.error(inst.index(), s_.isVulkan() ? "VUID-StandaloneSpirv-None-04625" : kRule,
               "64-bit integer atomics need the Int64Atomics capability");
    if (isFloatAtomic(op) && shader_)
      floatAtomicCapability(inst, s_.bitWidth(pointee));
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

  // %barrier = OpNamedBarrierInitialize %type %subgroupCount; OpMemoryNamedBarrier %barrier
  // %scope %semantics (3.32.20).
  void namedBarrier(const Instruction &inst) {
    OperandCheck c(s_, inst, "3.32.20");
    if (inst.opcode() == Op::NamedBarrierInitialize)
      c.resultOfType(Op::TypeNamedBarrier) && c.int32(3, "Subgroup Count");
    else
      c.ofType(1, "Named Barrier", Op::TypeNamedBarrier);
  }

  void sameType(const Instruction &inst, uint32_t value, uint32_t want, const char *role) {
    const uint32_t t = s_.typeOf(value);
    if (t != 0 && t != want)
      s_.error(inst.index(), kRule,
               std::string("the ") + role + " " + s_.name(value) + " has type " + s_.name(t) +
                   ", not " + s_.name(want));
  }

  State &s_;
  const bool shader_, vulkanMemoryModelCapability_;
  std::array<uint8_t, 1024> mayHaveScopes_{}; ///< by core opcode: see mayHaveScopes
};

} // namespace

void checkAtomicsBarriers(State &s) { AtomicsChecker(s).run(); }

} // namespace spire::val
