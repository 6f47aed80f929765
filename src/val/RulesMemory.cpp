// Rules: variables, loads, stores, copies and access chains (SPIR-V 3.32.8 and 2.16.1).
#include "Composite.h"
#include "InstView.h"
#include "OpenCLRules.h"
#include "OperandCheck.h"
#include "Rules.h"
#include "spire/module/Opcodes.h"

#include <unordered_map>
#include <vector>

namespace spire::val {

namespace {

constexpr uint32_t kAddressingLogical = uint32_t(grammar::AddressingModel::Logical),
                   kCapabilityVariablePointersStorageBuffer =
                       uint32_t(grammar::Capability::VariablePointersStorageBuffer),
                   kCapabilityVariablePointers = uint32_t(grammar::Capability::VariablePointers),
                   kStorageStorageBuffer = uint32_t(grammar::StorageClass::StorageBuffer);

constexpr uint32_t kStorageUniformConstant = uint32_t(grammar::StorageClass::UniformConstant),
                   kStorageInput = uint32_t(grammar::StorageClass::Input),
                   kStorageFunction = uint32_t(grammar::StorageClass::Function),
                   kStorageGeneric = uint32_t(grammar::StorageClass::Generic),
                   kStoragePushConstant = uint32_t(grammar::StorageClass::PushConstant),
                   kStoragePhysicalStorageBuffer =
                       uint32_t(grammar::StorageClass::PhysicalStorageBuffer);
constexpr const char *kRule = "3.32.8";

class MemoryChecker {
public:
  explicit MemoryChecker(State &s) : s_(s) {}

  void run() {
    for (Instruction inst : s_.module()) {
      if (s_.stopped())
        return;
      if (inst.isRaw())
        continue;
      switch (inst.opcode()) {
      case Op::Variable:
        variable(inst);
        break;
      case Op::Load:
        load(inst);
        break;
      case Op::Store:
        store(inst);
        break;
      case Op::CopyMemory:
        copyMemory(inst);
        break;
      case Op::AccessChain:
      case Op::InBoundsAccessChain:
        accessChain(inst, 4);
        break;
      case Op::PtrAccessChain:
      case Op::InBoundsPtrAccessChain:
        accessChain(inst, 5);
        break;
      case Op::SpecConstantOp: // a Kernel's constant addresses and casts of them (3.32.7)
        if (inst.wordCount() >= 4) {
          const Op embedded = static_cast<Op>(inst.word(3));
          if (embedded == Op::AccessChain || embedded == Op::InBoundsAccessChain)
            accessChain(InstView::embeddedIn(inst), 4);
          else if (embedded == Op::PtrAccessChain || embedded == Op::InBoundsPtrAccessChain)
            accessChain(InstView::embeddedIn(inst), 5);
          else if (embedded == Op::PtrCastToGeneric || embedded == Op::GenericCastToPtr)
            genericCast(InstView::embeddedIn(inst));
        }
        break;
      case Op::PtrEqual:
      case Op::PtrNotEqual:
        pointerComparison(inst);
        break;
      case Op::ArrayLength:
        arrayLength(inst);
        break;
      case Op::PtrCastToGeneric:
      case Op::GenericCastToPtr:
        genericCast(inst);
        break;
      case Op::CopyMemorySized:
        copyMemorySized(inst);
        break;
      case Op::GenericCastToPtrExplicit:
        genericCastExplicit(inst);
        break;
      case Op::GenericPtrMemSemantics:
        genericPtrMemSemantics(inst);
        break;
      case Op::PtrDiff:
        pointerDifference(inst);
        break;
      case Op::LifetimeStart:
      case Op::LifetimeStop:
        lifetime(inst);
        break;
      default:
        break;
      }
    }
  }

private:
  // %r = OpVariable %pointerType StorageClass [%initializer]
  void variable(const Instruction &inst) {
    if (inst.wordCount() < 4)
      return;
    const uint32_t type = inst.word(1), storage = inst.word(3);
    if (!s_.isPointerType(type)) {
      // Untyped pointers (SPV_KHR_untyped_pointers) are another instruction's.
      s_.error(inst.index(), kRule,
               "the result type of OpVariable must be an OpTypePointer, not " + s_.name(type));
      return;
    }
    if (std::optional<uint32_t> sc = s_.storageClass(type); sc && *sc != storage)
      s_.error(inst.index(), kRule,
               "the variable's storage class differs from its pointer type " + s_.name(type) +
                   "'s storage class");
    if (storage == kStorageGeneric)
      s_.error(inst.index(), kRule, "a variable cannot have the Generic storage class");
    const bool inFunction = s_.functionOf(inst.index()) != kNoIndex;
    if (inFunction && storage != kStorageFunction)
      s_.error(inst.index(), kRule,
               "a variable inside a function must have the Function storage class");
    if (!inFunction && storage == kStorageFunction)
      s_.error(inst.index(), kRule,
               "a variable outside functions cannot have the Function storage class");
    logicalPointerVariable(inst, s_.pointeeType(type), storage);
    physicalStorageBufferVariable(inst, storage);
    booleanVariable(inst, s_.pointeeType(type), storage);
    if (inst.wordCount() < 5)
      return;
    // 3.7 Storage Class: Input and PushConstant variables "are read-only, and must not have
    // initializers" (spirv-val 2023.1 checks Input only).
    if (storage == kStorageInput || storage == kStoragePushConstant)
      s_.error(inst.index(), "3.7 Storage Class",
               "a variable in the " +
                   State::enumerantName(grammar::OperandKind::StorageClass, storage) +
                   " storage class is read-only and cannot have an initializer");
    const uint32_t init = inst.word(4);
    const Op initOp = s_.defOpcode(init);
    const bool globalVariable =
        initOp == Op::Variable && s_.functionOf(s_.module().defIndex(init)) == kNoIndex;
    if (!isConstantCreation(initOp) && !globalVariable && static_cast<uint32_t>(initOp) < 4096 &&
        initOp != kNoOp) {
      s_.error(inst.index(), kRule,
               "the initializer " + s_.name(init) +
                   " must be a constant or a module-scope variable");
      return;
    }
    const uint32_t pointee = s_.pointeeType(type), initType = s_.typeOf(init);
    if (pointee != 0 && initType != 0 && initType != pointee)
      s_.error(inst.index(), kRule,
               "the initializer's type " + s_.name(initType) +
                   " is not the variable's pointee type " + s_.name(pointee));
  }

  // Whether `type` is, or holds through arrays and structures, a logical pointer (any pointer but
  // a PhysicalStorageBuffer one).
  bool holdsLogicalPointer(uint32_t type) {
    return s_.holdsType(
        type,
        [&](uint32_t t) {
          return s_.defOpcode(t) == Op::TypePointer &&
                 s_.storageClass(t) != kStoragePhysicalStorageBuffer;
        },
        holdsPointer_);
  }

  // 2.16.1, Logical addressing: "It is invalid for an OpVariable to allocate a type that is, or
  // contains, a logical pointer" without VariablePointers or VariablePointersStorageBuffer, and
  // with them "An OpVariable that allocates logical pointers must be in the Function or Private
  // storage classes". (spirv-val 2023.1 looks at pointer pointees only, not at aggregates holding
  // pointers.)
  void logicalPointerVariable(const Instruction &inst, uint32_t pointee, uint32_t storage) {
    constexpr uint32_t kStoragePrivate = uint32_t(grammar::StorageClass::Private);
    if (s_.addressingModel() != uint32_t(grammar::AddressingModel::Logical) ||
        !holdsLogicalPointer(pointee))
      return;
    if (!s_.hasVariablePointers())
      s_.error(inst.index(), "2.16.1",
               "with the Logical addressing model a variable cannot hold a pointer (" +
                   s_.name(pointee) +
                   ") unless the VariablePointers or VariablePointersStorageBuffer capability is "
                   "declared");
    else if (storage != kStorageFunction && storage != kStoragePrivate)
      s_.error(inst.index(), "2.16.1",
               "with the Logical addressing model a variable that holds pointers must be in the "
               "Function or Private storage class");
  }

  // 2.16.1: "OpVariable must not use a Storage Class of PhysicalStorageBuffer". Variables holding
  // PhysicalStorageBuffer pointers need no AliasedPointer or RestrictPointer since revision 6
  // (Khronos issue #827 lifted it; spirv-val 2023.1 still asks for one, later ones do not);
  // both on one variable is the exclusive-decorations rule's.
  void physicalStorageBufferVariable(const Instruction &inst, uint32_t storage) {
    if (storage == kStoragePhysicalStorageBuffer)
      s_.error(inst.index(), "2.16.1",
               "a variable cannot have the PhysicalStorageBuffer storage class");
  }

  // Whether `type` is, or holds through vectors, arrays and structures, a boolean; `user`: outside
  // structure members decorated BuiltIn (memoized: structure types may be shared deeply).
  bool holdsBool(uint32_t type, bool user = false, int depth = 0) {
    if (depth > 64)
      return false;
    auto &memo = holdsBool_[user];
    if (auto it = memo.find(type); it != memo.end())
      return it->second;
    bool r = false;
    std::optional<Instruction> d = s_.def(type);
    if (d && !d->isRaw()) {
      if (d->opcode() == Op::TypeBool)
        r = true;
      else if ((d->opcode() == Op::TypeVector || d->opcode() == Op::TypeArray ||
                d->opcode() == Op::TypeRuntimeArray) &&
               d->wordCount() >= 3)
        r = holdsBool(d->word(2), user, depth + 1);
      else if (d->opcode() == Op::TypeStruct)
        for (uint32_t w = 2; w < d->wordCount() && !r; ++w)
          r = !(user &&
                s_.hasDecoration(type, uint32_t(grammar::Decoration::BuiltIn), int(w - 2))) &&
              holdsBool(d->word(w), user, depth + 1);
    }
    memo[type] = r;
    return r;
  }

  // 3.32.6 OpTypeBool: stored booleans go "only with non-externally visible shader storage
  // classes: UniformConstant, Workgroup, CrossWorkgroup, Private, Function, Input, and Output"
  // (and the ray tracing and task payload classes, as spirv-val allows); Vulkan's Input and
  // Output booleans are built-ins (VUID-StandaloneSpirv-Input-07290).
  void booleanVariable(const Instruction &inst, uint32_t pointee, uint32_t storage) {
    constexpr uint32_t kOutput = uint32_t(grammar::StorageClass::Output),
                       kWorkgroup = uint32_t(grammar::StorageClass::Workgroup),
                       kCrossWorkgroup = uint32_t(grammar::StorageClass::CrossWorkgroup),
                       kPrivate = uint32_t(grammar::StorageClass::Private);
    switch (storage) {
    case kStorageUniformConstant:
    case kWorkgroup:
    case kCrossWorkgroup:
    case kPrivate:
    case kStorageFunction:
    case uint32_t(grammar::StorageClass::CallableDataKHR):
    case uint32_t(grammar::StorageClass::IncomingCallableDataKHR):
    case uint32_t(grammar::StorageClass::RayPayloadKHR):
    case uint32_t(grammar::StorageClass::HitAttributeKHR):
    case uint32_t(grammar::StorageClass::IncomingRayPayloadKHR):
    case uint32_t(grammar::StorageClass::TaskPayloadWorkgroupEXT):
      return;
    case kStorageInput:
    case kOutput:
      if (!s_.isVulkan() ||
          s_.hasDecoration(inst.resultId(), uint32_t(grammar::Decoration::BuiltIn)) ||
          !holdsBool(pointee, true))
        return;
      s_.error(inst.index(), "VUID-StandaloneSpirv-Input-07290",
               "in Vulkan an Input or Output variable holding booleans is a built-in");
      return;
    default:
      if (holdsBool(pointee))
        s_.error(inst.index(), "3.32.6 OpTypeBool",
                 "booleans are stored only in storage classes that are not externally visible "
                 "(UniformConstant, Workgroup, CrossWorkgroup, Private, Function, Input, Output), "
                 "not " +
                     State::enumerantName(grammar::OperandKind::StorageClass, storage));
    }
  }

  // The Memory Operands of an access through pointers of types `targetType` and `sourceType` (0
  // for none or unknown) from word `word` (3.26): an Aligned literal is a power of two;
  // MakePointerAvailable not on loads, MakePointerVisible not on stores, both with
  // NonPrivatePointer, which is for pointers into Uniform, Workgroup, CrossWorkgroup, Generic,
  // Image, StorageBuffer or PhysicalStorageBuffer memory (2.16.1); Vulkan's PhysicalStorageBuffer
  // accesses are Aligned (VUID-StandaloneSpirv-PhysicalStorageBuffer64-04708), to a multiple of
  // the size of the largest scalar they access
  // (VUID-StandaloneSpirv-PhysicalStorageBuffer64-06314).
  void memoryOperands(const Instruction &inst, uint32_t word, uint32_t targetType,
                      uint32_t sourceType) {
    using grammar::MemoryAccess;
    const std::optional<uint32_t> target = s_.storageClass(targetType),
                                  source = s_.storageClass(sourceType);
    const uint32_t mask = word < inst.wordCount() ? inst.word(word) : 0;
    auto has = [&](MemoryAccess bit) { return (mask & uint32_t(bit)) != 0; };
    auto fail = [&](std::string_view rule, const std::string &message) {
      s_.error(inst.index(), rule, message);
    };
    const Op op = inst.opcode();
    // Aligned is the first bit that takes a literal: the word after the mask.
    const std::optional<uint32_t> aligned =
        has(MemoryAccess::Aligned) && word + 1 < inst.wordCount()
            ? std::optional<uint32_t>(inst.word(word + 1))
            : std::nullopt;
    if (aligned && (*aligned == 0 || (*aligned & (*aligned - 1)) != 0))
      return fail("3.26 Aligned", "the Aligned memory operand " + std::to_string(*aligned) +
                                      " is not a power of two");
    if (has(MemoryAccess::MakePointerAvailable) && op == Op::Load)
      return fail("3.26", "MakePointerAvailable is not for OpLoad");
    if (has(MemoryAccess::MakePointerVisible) && op == Op::Store)
      return fail("3.26", "MakePointerVisible is not for OpStore");
    if ((has(MemoryAccess::MakePointerAvailable) || has(MemoryAccess::MakePointerVisible)) &&
        !has(MemoryAccess::NonPrivatePointer))
      return fail("3.26", "MakePointerAvailable and MakePointerVisible need NonPrivatePointer");
    if (has(MemoryAccess::NonPrivatePointer))
      for (std::optional<uint32_t> sc : {target, source}) {
        constexpr uint32_t kUniform = uint32_t(grammar::StorageClass::Uniform),
                           kWorkgroup = uint32_t(grammar::StorageClass::Workgroup),
                           kCrossWorkgroup = uint32_t(grammar::StorageClass::CrossWorkgroup),
                           kImage = uint32_t(grammar::StorageClass::Image),
                           kStorageBuffer = uint32_t(grammar::StorageClass::StorageBuffer);
        if (sc && *sc != kUniform && *sc != kWorkgroup && *sc != kCrossWorkgroup &&
            *sc != kStorageGeneric && *sc != kImage && *sc != kStorageBuffer &&
            *sc != kStoragePhysicalStorageBuffer)
          return fail("2.16.1",
                      "NonPrivatePointer is for pointers into Uniform, Workgroup, CrossWorkgroup, "
                      "Generic, Image, StorageBuffer or PhysicalStorageBuffer memory, not " +
                          State::enumerantName(grammar::OperandKind::StorageClass, *sc));
      }
    if (!s_.isVulkan())
      return;
    const uint32_t physical = target == kStoragePhysicalStorageBuffer   ? targetType
                              : source == kStoragePhysicalStorageBuffer ? sourceType
                                                                        : 0;
    if (physical == 0)
      return;
    if (!aligned)
      return fail("VUID-StandaloneSpirv-PhysicalStorageBuffer64-04708",
                  "in Vulkan memory accesses through PhysicalStorageBuffer pointers are Aligned");
    if (const uint32_t largest = largestScalarBytes(s_.pointeeType(physical)); *aligned < largest)
      fail("VUID-StandaloneSpirv-PhysicalStorageBuffer64-06314",
           "the access through a PhysicalStorageBuffer pointer is Aligned " +
               std::to_string(*aligned) + ", less than the " + std::to_string(largest) +
               " bytes of the largest scalar it accesses");
  }

  // The size in bytes of the largest scalar in `type` (its members, elements, components and
  // columns; a pointer counts as a 64-bit scalar), 0 when it holds none.
  uint32_t largestScalarBytes(uint32_t type, int depth = 0) const {
    const std::optional<Instruction> def = s_.def(type);
    if (!def || depth > 64)
      return 0;
    switch (def->opcode()) {
    case Op::TypeInt:
    case Op::TypeFloat:
      return s_.bitWidth(type) / 8;
    case Op::TypePointer:
    case Op::TypeForwardPointer:
      return 8;
    case Op::TypeVector:
    case Op::TypeMatrix:
    case Op::TypeArray:
    case Op::TypeRuntimeArray:
      return def->wordCount() > 2 ? largestScalarBytes(def->word(2), depth + 1) : 0;
    case Op::TypeStruct: {
      uint32_t largest = 0;
      for (uint32_t w = 2; w < def->wordCount(); ++w)
        largest = std::max(largest, largestScalarBytes(def->word(w), depth + 1));
      return largest;
    }
    default:
      return 0;
    }
  }

  // The pointee type of the pointer value `id`, 0 when unknown; reports non-pointers.
  std::optional<uint32_t> pointee(const InstView &inst, uint32_t id, std::string_view role) {
    const uint32_t type = s_.typeOf(id);
    if (type == 0)
      return 0;
    if (!s_.isPointerType(type)) {
      if (s_.defOpcode(type) == static_cast<Op>(4417)) // OpTypeUntypedPointerKHR
        return 0;
      s_.error(inst.index(), kRule,
               std::string(role) + " " + s_.name(id) + " is not a pointer (its type is " +
                   s_.name(type) + ")");
      return std::nullopt;
    }
    return s_.pointeeType(type);
  }

  // Under the Logical addressing model without variable pointers, loads and stores go through
  // pointers that name memory directly: variables, access chains, parameters, texel pointers and
  // copies of those (2.16.1, "Logical addressing"; spirv-val's --relax-logical-pointer lifts it).
  void logicalPointer(const Instruction &inst, uint32_t pointer) {
    if (s_.options().relaxLogicalPointer || s_.addressingModel() != kAddressingLogical ||
        s_.hasCapability(kCapabilityVariablePointers))
      return;
    if (s_.hasCapability(kCapabilityVariablePointersStorageBuffer) &&
        s_.storageClass(s_.typeOf(pointer)) == kStorageStorageBuffer)
      return;
    const Op op = s_.defOpcode(pointer);
    const uint32_t v = static_cast<uint32_t>(op);
    const bool direct = op == Op::Variable || op == Op::AccessChain ||
                        op == Op::InBoundsAccessChain || op == Op::FunctionParameter ||
                        op == Op::ImageTexelPointer || op == Op::CopyObject || op == kNoOp ||
                        v >= 4096; // extension instructions (untyped pointers, ...)
    if (!direct)
      s_.error(inst.index(), "2.16.1",
               "with the Logical addressing model, " + s_.name(pointer) + " (the result of Op" +
                   std::string(grammar::findInstruction(v)
                                   ? grammar::findInstruction(v)->name.substr(2)
                                   : "?") +
                   ") is not a pointer to memory that this instruction may access without the "
                   "VariablePointers capability");
  }

  // %r = OpLoad %type %pointer [MemoryAccess]
  void load(const Instruction &inst) {
    if (inst.wordCount() < 4)
      return;
    logicalPointer(inst, inst.word(3));
    memoryOperands(inst, 4, s_.typeOf(inst.word(3)), 0);
    std::optional<uint32_t> p = pointee(inst, inst.word(3), "the pointer");
    if (p && *p != 0 && *p != inst.word(1))
      s_.error(inst.index(), kRule,
               "the result type " + s_.name(inst.word(1)) +
                   " is not the type the pointer points to, " + s_.name(*p));
  }

  // OpStore %pointer %object [MemoryAccess]
  void store(const Instruction &inst) {
    if (inst.wordCount() < 3)
      return;
    // UniformConstant, Input and PushConstant memory is read-only.
    if (std::optional<uint32_t> sc = s_.storageClass(s_.typeOf(inst.word(1)));
        sc &&
        (*sc == kStorageUniformConstant || *sc == kStorageInput || *sc == kStoragePushConstant))
      s_.error(inst.index(), kRule,
               "the pointer " + s_.name(inst.word(1)) +
                   " is to read-only memory (UniformConstant, Input or PushConstant)");
    logicalPointer(inst, inst.word(1));
    memoryOperands(inst, 3, s_.typeOf(inst.word(1)), 0);
    std::optional<uint32_t> p = pointee(inst, inst.word(1), "the pointer");
    // "Objects of types OpTypeImage, OpTypeSampler, OpTypeSampledImage,
    // OpTypeAccelerationStructureKHR, and arrays of these types must not be stored to or
    // modified" (VUID-StandaloneSpirv-OpTypeImage-06924).
    if (p && *p != 0 && s_.isVulkan()) {
      const Op held = s_.defOpcode(s_.stripArrays(*p));
      if (held == Op::TypeImage || held == Op::TypeSampler || held == Op::TypeSampledImage ||
          held == Op::TypeAccelerationStructureKHR)
        s_.error(inst.index(), "VUID-StandaloneSpirv-OpTypeImage-06924",
                 "in Vulkan images, samplers, sampled images and acceleration structures are not "
                 "stored to (the pointer " +
                     s_.name(inst.word(1)) + " is to " + s_.name(*p) + ")");
    }
    const uint32_t objectType = s_.typeOf(inst.word(2));
    if (p && *p != 0 && objectType != 0 && *p != objectType)
      s_.error(inst.index(), kRule,
               "the object's type " + s_.name(objectType) +
                   " is not the type the pointer points to, " + s_.name(*p));
  }

  // OpCopyMemory %target %source [MemoryAccess [MemoryAccess]]
  void copyMemory(const Instruction &inst) {
    if (inst.wordCount() < 3)
      return;
    memoryOperands(inst, 3, s_.typeOf(inst.word(1)), s_.typeOf(inst.word(2)));
    std::optional<uint32_t> target = pointee(inst, inst.word(1), "the target");
    std::optional<uint32_t> source = pointee(inst, inst.word(2), "the source");
    if (target && source && *target != 0 && *source != 0 && *target != *source)
      s_.error(inst.index(), kRule,
               "the target points to " + s_.name(*target) + " but the source to " +
                   s_.name(*source));
  }

  // %r = OpPtrEqual / OpPtrNotEqual %bool %a %b
  void pointerComparison(const Instruction &inst) {
    if (inst.wordCount() < 5)
      return;
    if (!s_.isBoolType(inst.typeId()))
      s_.error(inst.index(), kRule, "the result type of a pointer comparison must be a boolean");
    const uint32_t a = s_.typeOf(inst.word(3)), b = s_.typeOf(inst.word(4));
    if (a != 0 && b != 0 && a != b) {
      s_.error(inst.index(), kRule, "the compared pointers must have the same type");
      return;
    }
    if (physicalStorageBufferOperand(inst, a))
      return;
    // Logical addressing compares pointers only with variable pointers.
    if (s_.addressingModel() != kAddressingLogical || s_.hasCapability(kCapabilityVariablePointers))
      return;
    const std::optional<uint32_t> sc = s_.storageClass(a);
    if (!(sc == kStorageStorageBuffer &&
          s_.hasCapability(kCapabilityVariablePointersStorageBuffer)))
      s_.error(inst.index(), "2.16.1",
               "with the Logical addressing model, comparing pointers needs the VariablePointers "
               "capability (VariablePointersStorageBuffer for StorageBuffer pointers)");
  }

  // %r = OpPtrCastToGeneric %genericPointer %pointer; OpGenericCastToPtr the other way.
  void genericCast(const InstView &inst) {
    if (inst.wordCount() < 4)
      return;
    const uint32_t result = inst.typeId(), input = s_.typeOf(inst.word(3));
    if (!s_.isPointerType(result) || !s_.isPointerType(input)) {
      s_.error(inst.index(), kRule, "a generic cast converts a pointer into a pointer");
      return;
    }
    const bool toGeneric = inst.opcode() == Op::PtrCastToGeneric;
    const uint32_t generic = toGeneric ? result : input, specific = toGeneric ? input : result;
    constexpr uint32_t kWorkgroup = uint32_t(grammar::StorageClass::Workgroup),
                       kCrossWorkgroup = uint32_t(grammar::StorageClass::CrossWorkgroup);
    const std::optional<uint32_t> sc = s_.storageClass(specific);
    if (s_.storageClass(generic) != kStorageGeneric)
      s_.error(inst.index(), kRule, "the generic side of the cast must be a Generic pointer");
    else if (!sc || (*sc != kWorkgroup && *sc != kCrossWorkgroup && *sc != kStorageFunction))
      s_.error(inst.index(), kRule,
               "the other side of a generic cast must be a Workgroup, CrossWorkgroup or "
               "Function pointer");
    else if (s_.pointeeType(result) != s_.pointeeType(input))
      s_.error(inst.index(), kRule,
               "a generic cast keeps the pointee type: " + s_.name(s_.pointeeType(input)) +
                   " becomes " + s_.name(s_.pointeeType(result)));
  }

  // OpCopyMemorySized %target %source %size ...: "Size is the number of bytes to copy. It must
  // have a scalar integer type."
  void copyMemorySized(const Instruction &inst) {
    OperandCheck c(s_, inst, kRule);
    memoryOperands(inst, 4, c.type(1), c.type(2));
    c.operand(1, "Target", "a pointer", [&](uint32_t t) { return pointerOrUntyped(t); }) &&
        c.operand(2, "Source", "a pointer", [&](uint32_t t) { return pointerOrUntyped(t); }) &&
        c.operand(3, "Size", "an integer scalar", [&](uint32_t t) { return c.intScalar(t); });
  }

  bool pointerOrUntyped(uint32_t type) const {
    return s_.isPointerType(type) || s_.defOpcode(type) == Op::TypeUntypedPointerKHR;
  }

  // %r = OpGenericCastToPtrExplicit %type %pointer Storage: "Result Type must be an OpTypePointer.
  // Its Storage Class must be Storage", one of Workgroup, CrossWorkgroup and Function; "Pointer
  // must have a type of OpTypePointer whose Type is the same as the Type of Result Type", in
  // Generic memory.
  void genericCastExplicit(const Instruction &inst) {
    if (inst.wordCount() < 5)
      return;
    OperandCheck c(s_, inst, kRule);
    constexpr uint32_t kWorkgroup = uint32_t(grammar::StorageClass::Workgroup),
                       kCrossWorkgroup = uint32_t(grammar::StorageClass::CrossWorkgroup);
    const uint32_t storage = inst.word(4);
    if (storage != kWorkgroup && storage != kCrossWorkgroup && storage != kStorageFunction) {
      c.fail("Storage must be Workgroup, CrossWorkgroup or Function");
      return;
    }
    c.result("a pointer in the Storage storage class (" +
                 State::enumerantName(grammar::OperandKind::StorageClass, storage) + ")",
             [&](uint32_t t) { return s_.isPointerType(t) && s_.storageClass(t) == storage; }) &&
        c.operand(3, "Pointer", "a Generic pointer to the result's pointee type", [&](uint32_t t) {
          return s_.isPointerType(t) && s_.storageClass(t) == kStorageGeneric &&
                 s_.pointeeType(t) == s_.pointeeType(c.resultType());
        });
  }

  // %r = OpGenericPtrMemSemantics %uint %pointer: "Result Type must be an OpTypeInt with 32-bit
  // Width and 0 Signedness. Pointer must point to Generic Storage Class."
  void genericPtrMemSemantics(const Instruction &inst) {
    OperandCheck c(s_, inst, kRule);
    c.result("a 32-bit unsigned integer scalar", [&](uint32_t t) { return c.unsignedInt32(t); }) &&
        c.operand(3, "Pointer", "a pointer into Generic memory", [&](uint32_t t) {
          return s_.isPointerType(t) && s_.storageClass(t) == kStorageGeneric;
        });
  }

  // %r = OpPtrDiff %int %a %b: "Result Type must be an integer type scalar. Operand 1 and Operand
  // 2 must be pointers of the same type."
  void pointerDifference(const Instruction &inst) {
    OperandCheck c(s_, inst, kRule);
    c.result("an integer scalar", [&](uint32_t t) { return c.intScalar(t); }) &&
        c.operand(3, "Operand 1", "a pointer", [&](uint32_t t) { return pointerOrUntyped(t); }) &&
        c.operand(4, "Operand 2", "a pointer of Operand 1's type",
                  [&](uint32_t t) { return t == c.type(3); }) &&
        !physicalStorageBufferOperand(inst, c.type(3));
  }

  // 2.16.1: "Operands of OpPtrEqual, OpPtrNotEqual, and OpPtrDiff must not be pointers into the
  // PhysicalStorageBuffer Storage Class" (spirv-val: "Cannot use a pointer in the
  // PhysicalStorageBuffer storage class").
  bool physicalStorageBufferOperand(const Instruction &inst, uint32_t pointerType) {
    if (pointerType == 0 || s_.storageClass(pointerType) != kStoragePhysicalStorageBuffer)
      return false;
    s_.error(inst.index(), "2.16.1",
             "the operands of " + State::opcodeName(inst.opcode()) +
                 " cannot be PhysicalStorageBuffer pointers");
    return true;
  }

  // OpLifetimeStart / OpLifetimeStop %pointer Size: "Size must be 0 if Pointer is a pointer to a
  // non-void type or the Addresses capability is not declared" (a non-zero size goes with a
  // pointer to 8-bit integers, the OpenCL translator's void*).
  void lifetime(const Instruction &inst) {
    if (inst.wordCount() < 3)
      return;
    OperandCheck c(s_, inst, kRule);
    if (!c.operand(1, "Pointer", "a pointer", [&](uint32_t t) { return pointerOrUntyped(t); }))
      return;
    const uint32_t pointee = s_.pointeeType(c.type(1));
    const bool bytes = s_.isIntType(pointee) && s_.bitWidth(pointee) == 8;
    if (inst.word(2) != 0 &&
        (!s_.hasCapability(grammar::Capability::Addresses) || (pointee != 0 && !bytes)))
      c.fail("Size must be 0 unless the Addresses capability is declared and Pointer points to "
             "8-bit integers (void), not to " +
             s_.name(pointee));
  }

  // %r = OpArrayLength %uint %structure <member> (3.32.8): "Result Type must be an OpTypeInt
  // with 32-bit Width and 0 Signedness", Structure "a logical pointer to an OpTypeStruct whose
  // last member is a run-time array", Array member "the last member number of the structure".
  void arrayLength(const Instruction &inst) {
    if (inst.wordCount() < 5)
      return;
    const uint32_t type = inst.word(1), structure = inst.word(3), member = inst.word(4);
    if (!s_.isIntType(type) || s_.bitWidth(type) != 32 || s_.isSignedInt(type)) {
      s_.error(inst.index(), "3.32.8 OpArrayLength",
               "the result type must be a 32-bit unsigned integer, not " + s_.name(type));
      return;
    }
    const uint32_t pointee = s_.pointeeType(s_.typeOf(structure));
    std::optional<Instruction> st = s_.def(pointee);
    if (!st || st->opcode() != Op::TypeStruct || st->wordCount() < 3 ||
        s_.defOpcode(st->word(st->wordCount() - 1)) != Op::TypeRuntimeArray) {
      s_.error(inst.index(), "3.32.8 OpArrayLength",
               "the structure " + s_.name(structure) +
                   " must be a pointer to a struct whose last member is a runtime array");
      return;
    }
    if (member != st->wordCount() - 3)
      s_.error(inst.index(), "3.32.8 OpArrayLength",
               "the array member " + std::to_string(member) + " must be the last member (" +
                   std::to_string(st->wordCount() - 3) + ") of " + s_.name(pointee));
  }

  // %r = Op(InBounds)AccessChain %type %base %index...
  // %r = Op(InBounds)PtrAccessChain %type %base %element %index...
  void accessChain(const InstView &inst, uint32_t firstIndex) {
    if (inst.wordCount() < firstIndex)
      return;
    const uint32_t resultType = inst.word(1), base = inst.word(3);
    std::optional<uint32_t> p = pointee(inst, base, "the base");
    if (!p || *p == 0)
      return;
    uint32_t type = *p;
    // The Element of the Ptr forms "is treated as a signed count of elements" (3.32.8).
    if (firstIndex == 5 && inst.wordCount() >= 5 && !s_.isIntType(s_.typeOf(inst.word(4)))) {
      s_.error(inst.index(), kRule,
               "the element " + s_.name(inst.word(4)) + " must be an integer scalar");
      return;
    }
    // "If the storage class of Base requires an explicit layout then its type must be decorated
    // with ArrayStride": Uniform, PushConstant, StorageBuffer and PhysicalStorageBuffer.
    if (firstIndex == 5) {
      constexpr uint32_t kUniform = uint32_t(grammar::StorageClass::Uniform),
                         kPushConstant = uint32_t(grammar::StorageClass::PushConstant),
                         kStorageBuffer = uint32_t(grammar::StorageClass::StorageBuffer),
                         kPhysicalStorageBuffer =
                             uint32_t(grammar::StorageClass::PhysicalStorageBuffer);
      const uint32_t baseType = s_.typeOf(base);
      const std::optional<uint32_t> sc = s_.storageClass(baseType);
      if (sc &&
          (*sc == kUniform || *sc == kPushConstant || *sc == kStorageBuffer ||
           *sc == kPhysicalStorageBuffer) &&
          !s_.hasDecoration(baseType, uint32_t(grammar::Decoration::ArrayStride))) {
        s_.error(inst.index(), kRule,
                 "the base " + s_.name(base) + " points into " +
                     State::enumerantName(grammar::OperandKind::StorageClass, *sc) +
                     " memory, which has an explicit layout: its pointer type " +
                     s_.name(baseType) + " needs an ArrayStride decoration");
        return;
      }
    }
    for (uint32_t w = firstIndex; w < inst.wordCount(); ++w) {
      const uint32_t index = inst.word(w);
      const uint32_t indexType = s_.typeOf(index);
      if (!s_.isIntType(indexType)) {
        s_.error(inst.index(), kRule, "index " + s_.name(index) + " must be an integer scalar");
        return;
      }
      // (constantValue answers for OpConstant only)
      const std::optional<uint64_t> value = s_.constantValue(index);
      // 2.16.1, Logical addressing: "All indexes in OpAccessChain and OpInBoundsAccessChain that
      // are OpConstant with type of OpTypeInt with a signedness of 1 must not have their sign bit
      // set." (spirv-val 2023.1 does not check it.)
      uint32_t width = 0;
      if (value && firstIndex == 4 && s_.isSignedInt(indexType) &&
          s_.addressingModel() == uint32_t(grammar::AddressingModel::Logical) &&
          (width = s_.bitWidth(indexType)) <= 64 && ((*value >> (width - 1)) & 1)) {
        s_.error(inst.index(), "2.16.1",
                 "index " + s_.name(index) +
                     " is a negative constant; with the Logical addressing model access chain "
                     "indexes have no sign bit set");
        return;
      }
      ElementType e = elementType(s_, type, value, Bounds::StructsOnly);
      if (!e.error.empty()) {
        s_.error(inst.index(), kRule, e.error);
        return;
      }
      if (e.type == 0)
        return;
      type = e.type;
    }
    if (!s_.isPointerType(resultType)) {
      if (s_.defOpcode(resultType) != static_cast<Op>(4417))
        s_.error(inst.index(), kRule,
                 "the result type " + s_.name(resultType) + " must be a pointer");
      return;
    }
    if (s_.storageClass(resultType) != s_.storageClass(s_.typeOf(base)))
      s_.error(inst.index(), kRule,
               "the result's storage class differs from the base pointer's storage class");
    else if (s_.pointeeType(resultType) != type)
      s_.error(inst.index(), kRule,
               "the result type points to " + s_.name(s_.pointeeType(resultType)) +
                   " but the indexes select " + s_.name(type));
  }

  State &s_;
  std::unordered_map<uint32_t, bool> holdsPointer_, holdsBool_[2];
};

// Calls f(index, instruction) for the instructions inside functions, raw ones left out, until
// validation stops.
template <class F> void forEachFunctionInstruction(State &s, F &&f) {
  for (const FunctionInfo &fn : s.module().functions())
    for (uint32_t i = fn.begin; i < fn.end; ++i) {
      if (s.stopped())
        return;
      if (Instruction inst = s.module().inst(i); !inst.isRaw())
        f(i, inst);
    }
}

// 2.16.1, Logical addressing with variable pointers: "A variable pointer must not: be an operand
// to an OpArrayLength instruction; point to an array of structures with a structure type
// decorated with Block or BufferBlock; point to an object that is or contains an OpTypeMatrix;
// point to a column, or a component in a column, within an OpTypeMatrix" (spirv-val 2023.1
// checks none of them). Variable pointers are defined in 2.2: the pointer results of OpSelect,
// OpPhi, OpFunctionCall, OpPtrAccessChain, OpLoad and OpConstantNull, access chains and copies
// of them, and parameters some call passes one to.
class VariablePointerChecker {
public:
  explicit VariablePointerChecker(State &s) : s_(s) {}

  void run() {
    if (s_.addressingModel() != 0 || s_.options().relaxLogicalPointer || !s_.hasVariablePointers())
      return;
    const bool variablePointers = s_.hasCapability(grammar::Capability::VariablePointers);
    forEachFunctionInstruction(s_, [&](uint32_t i, const Instruction &inst) {
      if (inst.opcode() == Op::ArrayLength && inst.wordCount() >= 4 &&
          variablePointer(inst.word(3)))
        s_.error(i, "2.16.1",
                 "the structure operand of OpArrayLength is a variable pointer (" +
                     s_.name(inst.word(3)) + ")");
      const uint32_t type = inst.typeId(), id = inst.resultId();
      if (type == 0 || id == 0 || !s_.isPointerType(type) || !variablePointer(id))
        return;
      if ((inst.opcode() == Op::Select || inst.opcode() == Op::Phi) && !variablePointers &&
          !sameStructure(i, inst))
        return;
      const uint32_t pointee = s_.pointeeType(type);
      if (const Op op = s_.defOpcode(pointee);
          (op == Op::TypeArray || op == Op::TypeRuntimeArray) && isBlock(s_.def(pointee)->word(2)))
        s_.error(i, "2.16.1",
                 "the variable pointer " + s_.name(id) + " points to an array of blocks");
      else if (containsMatrix(pointee))
        s_.error(i, "2.16.1",
                 "the variable pointer " + s_.name(id) +
                     " points to a matrix or to an object containing one");
      else if (insideMatrix(id))
        s_.error(i, "2.16.1",
                 "the variable pointer " + s_.name(id) +
                     " points to a column of a matrix, or to a component of one");
    });
  }

private:
  bool isBlock(uint32_t type) const {
    return s_.defOpcode(type) == Op::TypeStruct &&
           (s_.hasDecoration(type, uint32_t(grammar::Decoration::Block)) ||
            s_.hasDecoration(type, uint32_t(grammar::Decoration::BufferBlock)));
  }

  bool containsMatrix(uint32_t type) {
    return s_.holdsType(
        type, [&](uint32_t t) { return s_.defOpcode(t) == Op::TypeMatrix; }, containsMatrix_);
  }

  // The arguments calls pass for parameter `param`.
  std::vector<uint32_t> arguments(uint32_t param) {
    std::vector<uint32_t> args;
    const uint32_t at = s_.module().defIndex(param);
    const uint32_t f = s_.functionOf(at);
    if (f >= s_.module().functions().size())
      return args;
    const uint32_t begin = s_.module().functions()[f].begin;
    const uint32_t position = at - begin - 1; // parameters follow OpFunction
    const uint32_t fn = s_.module().inst(begin).resultId();
    for (const DefUse::Use &u : s_.defUse().uses(fn)) {
      Instruction call = s_.module().inst(u.inst);
      if (!call.isRaw() && call.opcode() == Op::FunctionCall && call.word(3) == fn &&
          call.wordCount() > 4 + position)
        args.push_back(call.word(4 + position));
    }
    return args;
  }

  // 2.16.1: "If the VariablePointers capability is not declared, a variable pointer must be
  // selected from pointers pointing into the same structure or be OpConstantNull." The
  // structure a pointer points into is the variable its access chains and copies start from;
  // pointers from parameters, calls and loads point into structures this module does not name,
  // and pass. Reports and returns false when the choices start from two variables.
  bool sameStructure(uint32_t index, const Instruction &inst) {
    std::vector<uint32_t> choices;
    if (inst.opcode() == Op::Select && inst.wordCount() >= 6)
      choices = {inst.word(4), inst.word(5)};
    else if (inst.opcode() == Op::Phi)
      for (uint32_t w = 3; w < inst.wordCount(); w += 2)
        choices.push_back(inst.word(w));
    uint32_t first = 0;
    for (uint32_t choice : choices) {
      std::vector<uint32_t> seen;
      const uint32_t v = rootVariable(choice, seen);
      if (v == 0 || v == first)
        continue;
      if (first == 0) {
        first = v;
        continue;
      }
      s_.error(index, "2.16.1",
               "without the VariablePointers capability a variable pointer is selected from "
               "pointers into one structure, but " +
                   s_.name(inst.resultId()) + " chooses between pointers into " + s_.name(first) +
                   " and " + s_.name(v));
      return false;
    }
    return true;
  }

  // The variable whose memory pointer `id` points into, following access chains, copies and the
  // choices of OpSelect and OpPhi (when they agree); 0 when that is not known here.
  // `path` holds the values being decided (a phi may reach itself).
  uint32_t rootVariable(uint32_t id, std::vector<uint32_t> &path) {
    if (std::find(path.begin(), path.end(), id) != path.end() || path.size() > 256)
      return 0;
    // Memoized, so that chains of selects stay linear (a value cut short by a cycle may keep 0,
    // "not known", which only lets it pass).
    if (auto it = roots_.find(id); it != roots_.end())
      return it->second;
    path.push_back(id);
    const uint32_t root = rootOf(id, path);
    path.pop_back();
    roots_[id] = root;
    return root;
  }

  uint32_t rootOf(uint32_t id, std::vector<uint32_t> &seen) {
    std::optional<Instruction> d = s_.def(id);
    if (!d || d->isRaw())
      return 0;
    switch (d->opcode()) {
    case Op::Variable:
      return id;
    case Op::AccessChain:
    case Op::InBoundsAccessChain:
    case Op::PtrAccessChain:
    case Op::CopyObject:
      return d->wordCount() >= 4 ? rootVariable(d->word(3), seen) : 0;
    case Op::Select:
    case Op::Phi: {
      uint32_t root = 0;
      const uint32_t from = d->opcode() == Op::Select ? 4 : 3,
                     step = d->opcode() == Op::Select ? 1 : 2;
      for (uint32_t w = from; w < d->wordCount(); w += step) {
        const uint32_t r = rootVariable(d->word(w), seen);
        if (r == 0 || (root != 0 && r != root))
          return 0;
        root = r;
      }
      return root;
    }
    default:
      return 0;
    }
  }

  // Memoized walks over values; a value met again while it is being decided counts as false.
  template <class F> bool memo(std::unordered_map<uint32_t, int8_t> &m, uint32_t id, F &&f) {
    auto [it, fresh] = m.emplace(id, -1);
    if (!fresh)
      return it->second == 1;
    const bool r = f();
    m[id] = r ? 1 : 0;
    return r;
  }

  bool variablePointer(uint32_t id) {
    return memo(variable_, id, [&] {
      std::optional<Instruction> d = s_.def(id);
      if (!d || d->isRaw() || !s_.isPointerType(d->typeId()))
        return false;
      switch (d->opcode()) {
      case Op::Select:
      case Op::Phi:
      case Op::FunctionCall:
      case Op::PtrAccessChain:
      case Op::Load:
      case Op::ConstantNull:
        return true;
      case Op::AccessChain:
      case Op::InBoundsAccessChain:
      case Op::CopyObject:
        return d->wordCount() >= 4 && variablePointer(d->word(3));
      case Op::FunctionParameter:
        for (uint32_t arg : arguments(id))
          if (variablePointer(arg))
            return true;
        return false;
      default:
        return false;
      }
    });
  }

  // Whether pointer `id` points into a matrix: an access chain that selects a column, or a value
  // chosen or copied from one.
  bool insideMatrix(uint32_t id) {
    return memo(inside_, id, [&] {
      std::optional<Instruction> d = s_.def(id);
      if (!d || d->isRaw())
        return false;
      switch (d->opcode()) {
      case Op::AccessChain:
      case Op::InBoundsAccessChain:
      case Op::PtrAccessChain: {
        if (d->wordCount() < 4)
          return false;
        if (insideMatrix(d->word(3)))
          return true;
        uint32_t type = s_.pointeeType(s_.typeOf(d->word(3)));
        for (uint32_t w = d->opcode() == Op::PtrAccessChain ? 5 : 4; w < d->wordCount(); ++w) {
          if (s_.defOpcode(type) == Op::TypeMatrix)
            return true;
          type = elementType(s_, type, s_.constantValue(d->word(w)), Bounds::StructsOnly).type;
          if (type == 0)
            return false;
        }
        return false;
      }
      case Op::CopyObject:
        return d->wordCount() >= 4 && insideMatrix(d->word(3));
      case Op::Select:
        return d->wordCount() >= 6 && (insideMatrix(d->word(4)) || insideMatrix(d->word(5)));
      case Op::Phi:
        for (uint32_t w = 3; w + 1 < d->wordCount(); w += 2)
          if (insideMatrix(d->word(w)))
            return true;
        return false;
      case Op::FunctionParameter:
        for (uint32_t arg : arguments(id))
          if (insideMatrix(arg))
            return true;
        return false;
      default:
        return false;
      }
    });
  }

  State &s_;
  std::unordered_map<uint32_t, bool> containsMatrix_;
  std::unordered_map<uint32_t, uint32_t> roots_;
  std::unordered_map<uint32_t, int8_t> variable_, inside_;
};

// 2.16.1, PhysicalStorageBuffer: "Any pointer value whose storage class is PhysicalStorageBuffer
// and that points to a matrix, an array of matrices, or a row or element of a matrix must be the
// result of an OpAccessChain or OpPtrAccessChain instruction whose Base operand is a structure
// type (or recursively must be the result of a sequence of only access chains from a structure to
// the final value). Such a pointer must only be used as the Pointer operand to OpLoad or OpStore"
// (the matrix layout comes from the structure's member decorations; spirv-val 2023.1 does not
// check it). Further access chains into the matrix are the recursion the rule allows.
class PhysicalMatrixChecker {
public:
  explicit PhysicalMatrixChecker(State &s) : s_(s) {}

  void run() {
    if (s_.addressingModel() != uint32_t(grammar::AddressingModel::PhysicalStorageBuffer64))
      return;
    forEachFunctionInstruction(s_, [&](uint32_t i, const Instruction &inst) {
      if (inst.resultId() == 0 || !matrixPointer(inst.resultId()))
        return;
      if (!fromStructure(inst)) {
        s_.error(i, "2.16.1",
                 "a PhysicalStorageBuffer pointer to a matrix (or into one) must come from "
                 "access chains that start at a structure");
        return;
      }
      for (const DefUse::Use &u : s_.defUse().uses(inst.resultId())) {
        Instruction user = s_.module().inst(u.inst);
        if (user.isRaw())
          continue;
        const Op op = user.opcode();
        const bool pointerOperand =
            ((op == Op::Load || isChain(op)) && user.wordCount() >= 4 &&
             user.word(3) == inst.resultId()) ||
            (op == Op::Store && user.wordCount() >= 3 && user.word(1) == inst.resultId() &&
             user.word(2) != inst.resultId());
        if (!pointerOperand && op != Op::Name && op != Op::Decorate) {
          s_.error(u.inst, "2.16.1",
                   "a PhysicalStorageBuffer pointer to a matrix (or into one) is only the "
                   "Pointer of OpLoad or OpStore, not an operand of " +
                       State::opcodeName(op));
          break;
        }
      }
    });
  }

private:
  static bool isChain(Op op) {
    return op == Op::AccessChain || op == Op::InBoundsAccessChain || op == Op::PtrAccessChain ||
           op == Op::InBoundsPtrAccessChain;
  }

  // A PhysicalStorageBuffer pointer to a matrix or an array of matrices, or an access chain
  // result inside a matrix.
  bool matrixPointer(uint32_t id, int depth = 0) {
    const uint32_t type = s_.typeOf(id);
    if (type == 0 || !s_.isPointerType(type) ||
        s_.storageClass(type) != kStoragePhysicalStorageBuffer)
      return false;
    if (s_.defOpcode(s_.stripArrays(s_.pointeeType(type))) == Op::TypeMatrix)
      return true;
    std::optional<Instruction> d = s_.def(id);
    return d && !d->isRaw() && isChain(d->opcode()) && d->wordCount() >= 4 && depth < 256 &&
           (matrixPointer(d->word(3), depth + 1) || walksThroughMatrix(*d));
  }

  bool walksThroughMatrix(const Instruction &chain) {
    uint32_t type = s_.pointeeType(s_.typeOf(chain.word(3)));
    const bool ptr =
        chain.opcode() == Op::PtrAccessChain || chain.opcode() == Op::InBoundsPtrAccessChain;
    for (uint32_t w = ptr ? 5 : 4; w < chain.wordCount() && type != 0; ++w) {
      if (s_.defOpcode(type) == Op::TypeMatrix)
        return true;
      type = elementType(s_, type, s_.constantValue(chain.word(w)), Bounds::StructsOnly).type;
    }
    return false;
  }

  // Whether `inst`, a matrix pointer, is an access chain from a structure, directly or through
  // access chains from one.
  bool fromStructure(const Instruction &inst, int depth = 0) {
    if (!isChain(inst.opcode()) || inst.wordCount() < 4 || depth >= 256)
      return false;
    const uint32_t base = inst.word(3);
    if (s_.defOpcode(s_.pointeeType(s_.typeOf(base))) == Op::TypeStruct)
      return true;
    std::optional<Instruction> d = s_.def(base);
    return d && !d->isRaw() && matrixPointer(base) && fromStructure(*d, depth + 1);
  }

  State &s_;
};

} // namespace

// 2.16.1, logical pointer types (every pointer under the Logical addressing model, all but
// PhysicalStorageBuffer ones under PhysicalStorageBuffer64): "It is invalid for a pointer to be
// an operand to any instruction other than" OpLoad, OpStore, the access chains, OpFunctionCall,
// OpImageTexelPointer, OpCopyMemory, OpCopyObject, OpArrayLength, the atomics and extended
// instructions that take pointers, nor "the Result <id> of any instruction other than"
// OpVariable, the access chains, OpFunctionParameter, OpImageTexelPointer and OpCopyObject.
// VariablePointers or VariablePointersStorageBuffer add OpReturnValue, OpPtrAccessChain and the
// pointer comparisons as users, and the variable pointers' definitions (2.2: OpSelect, OpPhi,
// OpFunctionCall, OpPtrAccessChain, OpLoad, OpConstantNull) and OpFunction as producers.
// Instructions that extensions add (opcodes from 4096) define their own pointer operands and
// results and pass; OpPtrEqual and OpPtrNotEqual have their own rule. spirv-val 2023.1 checks
// only OpSelect and OpPhi of these; its --relax-logical-pointer (ours too) lifts the rule.
class LogicalPointerChecker {
public:
  explicit LogicalPointerChecker(State &s) : s_(s) {}

  void run() {
    const uint32_t model = s_.addressingModel();
    if (s_.options().relaxLogicalPointer ||
        (model != uint32_t(grammar::AddressingModel::Logical) &&
         model != uint32_t(grammar::AddressingModel::PhysicalStorageBuffer64)))
      return;
    variablePointers_ = s_.hasVariablePointers();
    firstMisuse();
    for (Instruction inst : s_.module()) {
      if (s_.stopped())
        return;
      if (!producer(inst)) {
        const uint32_t type = inst.isRaw() ? 0 : inst.typeId();
        if (type == 0 || !logicalPointer(type) || uint32_t(inst.opcode()) >= 4096 ||
            mayProduce(inst.opcode()))
          continue;
        s_.error(inst.index(), "2.16.1",
                 "a logical pointer cannot be the result of " + State::opcodeName(inst.opcode()) +
                     variablePointerNote(mayProduceWithVariablePointers(inst.opcode())));
        continue;
      }
      auto misuse = misused_.find(inst.index());
      if (misuse == misused_.end())
        continue;
      Instruction user = s_.module().inst(misuse->second);
      s_.error(user.index(), "2.16.1",
               "the logical pointer " + s_.name(inst.resultId()) + " cannot be an operand of " +
                   State::opcodeName(user.opcode()) +
                   variablePointerNote(mayUseWithVariablePointers(user.opcode())));
    }
  }

private:
  // Whether `inst` makes a logical pointer whose uses the rule checks: one it may produce
  // (other producers are reported as such), not a function (whose uses are calls).
  bool producer(const Instruction &inst) {
    const uint32_t type = inst.isRaw() ? 0 : inst.typeId();
    return type != 0 && logicalPointer(type) && uint32_t(inst.opcode()) < 4096 &&
           mayProduce(inst.opcode()) && inst.opcode() != Op::Function && inst.resultId() != 0;
  }

  // The first instruction (in the module's order) that uses each producer's pointer where it
  // may not stand, by the producer's index: one walk over the users' operands, of the users
  // that may not take a pointer only (most of a function's instructions may), rather than a
  // walk over every producer's uses, which would need the module's table of every use.
  void firstMisuse() {
    for (Instruction user : s_.module()) {
      if (user.isRaw() || uint32_t(user.opcode()) >= 4096 || mayUse(user.opcode()) ||
          s_.functionOf(user.index()) == kNoIndex)
        continue;
      if (const uint32_t t = user.typeId(); t != 0 && logicalPointer(t))
        continue; // an OpSelect or OpPhi of pointers: reported as the result's producer
      for (const binary::Operand &o : user.operands()) {
        if (grammar::operandCategory(o.kind) != grammar::OperandCategory::Id ||
            o.kind == grammar::OperandKind::IdResult)
          continue;
        const uint32_t def = s_.module().defIndex(user.word(o.offset));
        if (def != kNoIndex && producer(s_.module().inst(def)))
          misused_.try_emplace(def, user.index()); // the first one only
      }
    }
  }

  bool logicalPointer(uint32_t type) {
    if (s_.defOpcode(type) != Op::TypePointer)
      return false;
    return s_.addressingModel() == uint32_t(grammar::AddressingModel::Logical) ||
           s_.storageClass(type) != kStoragePhysicalStorageBuffer;
  }

  static bool mayProduceWithVariablePointers(Op op) {
    return op == Op::Select || op == Op::Phi || op == Op::FunctionCall ||
           op == Op::PtrAccessChain || op == Op::Load || op == Op::ConstantNull;
  }

  bool mayProduce(Op op) const {
    return op == Op::Variable || op == Op::AccessChain || op == Op::InBoundsAccessChain ||
           op == Op::FunctionParameter || op == Op::ImageTexelPointer || op == Op::CopyObject ||
           op == Op::Function || // the returned pointers: RulesFunctions' rule
           (variablePointers_ && mayProduceWithVariablePointers(op));
  }

  static bool mayUseWithVariablePointers(Op op) {
    return op == Op::PtrAccessChain || op == Op::PtrDiff || op == Op::Select || op == Op::Phi ||
           op == Op::Variable; // a pointer's initializer
  }

  bool mayUse(Op op) const {
    return op == Op::Load || op == Op::Store || op == Op::AccessChain ||
           op == Op::InBoundsAccessChain || op == Op::FunctionCall || op == Op::ImageTexelPointer ||
           op == Op::CopyMemory || op == Op::CopyMemorySized || op == Op::CopyObject ||
           op == Op::ArrayLength || op == Op::ExtInst || op == Op::PtrEqual ||
           op == Op::PtrNotEqual || // their own rule, as for returns
           op == Op::ReturnValue || isAtomicInstruction(op) ||
           (variablePointers_ && mayUseWithVariablePointers(op));
  }

  std::string variablePointerNote(bool allowedWithVariablePointers) const {
    return allowedWithVariablePointers && !variablePointers_
               ? " without the VariablePointers or VariablePointersStorageBuffer capability"
               : "";
  }

  State &s_;
  bool variablePointers_ = false;
  std::unordered_map<uint32_t, uint32_t> misused_; ///< producer index -> first misuse
};

void checkMemory(State &s) {
  MemoryChecker(s).run();
  if (!s.stopped())
    VariablePointerChecker(s).run();
  if (!s.stopped())
    PhysicalMatrixChecker(s).run();
  if (!s.stopped())
    LogicalPointerChecker(s).run();
}

} // namespace spire::val
