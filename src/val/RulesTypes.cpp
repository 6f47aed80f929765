// Rules: type declarations and constants (SPIR-V 2.16.1, 3.32.6 type-declaration instructions,
// 3.32.7 constant-creation instructions, OpUndef).
#include "Composite.h"
#include "Rules.h"

#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace spire::val {

namespace {

using grammar::Capability;

constexpr uint32_t kStoragePhysicalStorageBuffer =
    uint32_t(grammar::StorageClass::PhysicalStorageBuffer);
constexpr uint32_t kStorageCrossWorkgroup = uint32_t(grammar::StorageClass::CrossWorkgroup),
                   kStorageGeneric = uint32_t(grammar::StorageClass::Generic),
                   kStorageAtomicCounter = uint32_t(grammar::StorageClass::AtomicCounter);
constexpr uint32_t kStorageCodeSectionINTEL = uint32_t(grammar::StorageClass::CodeSectionINTEL),
                   kStorageDeviceOnlyINTEL = uint32_t(grammar::StorageClass::DeviceOnlyINTEL),
                   kStorageHostOnlyINTEL = uint32_t(grammar::StorageClass::HostOnlyINTEL);
constexpr uint32_t kDimBuffer = uint32_t(grammar::Dim::Buffer),
                   kDimSubpassData = uint32_t(grammar::Dim::SubpassData);
constexpr uint32_t kFormatUnknown = uint32_t(grammar::ImageFormat::Unknown);

// Answers about types, computed once per type: a module's types may share members deeply.
struct TypeMemo {
  std::unordered_map<uint32_t, bool> limited, nullable, opaque;
};

// Whether the module may declare integers / floats of these widths (2.16.1 and the extensions
// and capabilities that allow 8- and 16-bit types for storage only).

bool mayDeclareInt8(const State &s) {
  return s.hasCapability(Capability::Int8) ||
         s.hasCapability(Capability::StorageBuffer8BitAccess) ||
         s.hasCapability(Capability::UniformAndStorageBuffer8BitAccess) ||
         s.hasCapability(Capability::StoragePushConstant8) ||
         s.hasCapability(Capability::WorkgroupMemoryExplicitLayout8BitAccessKHR);
}

bool mayDeclare16(const State &s) {
  return s.hasCapability(Capability::StorageBuffer16BitAccess) ||
         s.hasCapability(Capability::UniformAndStorageBuffer16BitAccess) ||
         s.hasCapability(Capability::StoragePushConstant16) ||
         s.hasCapability(Capability::StorageInputOutput16) ||
         s.hasCapability(Capability::WorkgroupMemoryExplicitLayout16BitAccessKHR);
}

bool mayDeclareInt16(const State &s) {
  return s.hasCapability(Capability::Int16) || mayDeclare16(s) ||
         s.hasExtension("SPV_AMD_gpu_shader_int16");
}

bool mayDeclareFloat16(const State &s) {
  return s.hasCapability(Capability::Float16) || s.hasCapability(Capability::Float16Buffer) ||
         mayDeclare16(s) || s.hasExtension("SPV_AMD_gpu_shader_half_float");
}

// OpTypeInt %r Width Signedness
void checkInt(State &s, const Instruction &inst) {
  if (inst.wordCount() < 4)
    return;
  const uint32_t width = inst.word(2), signedness = inst.word(3);
  const std::string_view rule = "2.16.1 / 3.32.6 OpTypeInt";
  switch (width) {
  case 8:
    if (!mayDeclareInt8(s))
      return s.error(inst.index(), rule,
                     "an 8-bit integer type needs the Int8 capability (or a capability such as "
                     "StorageBuffer8BitAccess that allows 8-bit integers)");
    break;
  case 16:
    if (!mayDeclareInt16(s))
      return s.error(inst.index(), rule,
                     "a 16-bit integer type needs the Int16 capability (or a capability such as "
                     "StorageBuffer16BitAccess, or an extension, that allows 16-bit integers)");
    break;
  case 64:
    if (!s.hasCapability(Capability::Int64))
      return s.error(inst.index(), rule, "a 64-bit integer type needs the Int64 capability");
    break;
  case 32:
    break;
  default:
    if (!s.hasCapability(Capability::ArbitraryPrecisionIntegersINTEL))
      return s.error(inst.index(), rule,
                     "an integer type of " + std::to_string(width) +
                         " bits is not allowed: the width must be 8, 16, 32 or 64");
    break;
  }
  // "The Signedness in OpTypeInt must always be 0" with the Kernel capability (2.16.3), for every
  // width (spirv-val 2023.1 looks at 32-bit types only, and so does the 0-or-1 rule here: the
  // mutated corpus has 64-bit types of other signedness that spirv-val accepts).
  if (width == 32 && signedness > 1)
    s.error(inst.index(), rule,
            "the signedness of an integer type must be 0 or 1, not " + std::to_string(signedness));
  else if (signedness != 0 && s.hasCapability(Capability::Kernel))
    s.error(inst.index(), "2.16.3",
            "with the Kernel capability an integer type's signedness must be 0, not " +
                std::to_string(signedness));
}

// OpTypeFloat %r Width [FP Encoding]
void checkFloat(State &s, const Instruction &inst) {
  if (inst.wordCount() < 3)
    return;
  const uint32_t width = inst.word(2);
  const std::string_view rule = "2.16.1 / 3.32.6 OpTypeFloat";
  if (inst.wordCount() > 3) {
    // An encoding (bfloat16, FP8) fixes the width.
    if (width != 16 && width != 8)
      s.error(inst.index(), rule,
              "a floating-point type with an encoding must be 8 or 16 bits wide, not " +
                  std::to_string(width));
    return;
  }
  switch (width) {
  case 32:
    return;
  case 16:
    if (!mayDeclareFloat16(s))
      s.error(inst.index(), rule,
              "a 16-bit floating-point type needs the Float16 or Float16Buffer capability (or a "
              "capability or extension that allows 16-bit floats)");
    return;
  case 64:
    if (!s.hasCapability(Capability::Float64))
      s.error(inst.index(), rule, "a 64-bit floating-point type needs the Float64 capability");
    return;
  default:
    s.error(inst.index(), rule,
            "a floating-point type of " + std::to_string(width) +
                " bits is not allowed: the width must be 16, 32 or 64");
  }
}

// OpTypeVector %r ComponentType Count
void checkVector(State &s, const Instruction &inst) {
  if (inst.wordCount() < 4)
    return;
  const uint32_t component = inst.word(2), count = inst.word(3);
  const std::string_view rule = "3.32.6 OpTypeVector";
  if (!s.isScalarType(component)) {
    s.error(inst.index(), rule,
            "the component type " + s.name(component) +
                " of a vector must be a scalar (bool, integer or float) type");
    return;
  }
  if (count == 2 || count == 3 || count == 4)
    return;
  if (count == 8 || count == 16) {
    if (!s.hasCapability(Capability::Vector16))
      s.error(inst.index(), rule,
              "a vector of " + std::to_string(count) +
                  " components needs the Vector16 capability (without it: 2, 3 or 4)");
    return;
  }
  s.error(inst.index(), rule,
          "a vector cannot have " + std::to_string(count) +
              " components: it must have 2, 3 or 4 (8 or 16 with Vector16)");
}

// OpTypeMatrix %r ColumnType Count
void checkMatrix(State &s, const Instruction &inst) {
  if (inst.wordCount() < 4)
    return;
  const uint32_t column = inst.word(2), count = inst.word(3);
  const std::string_view rule = "3.32.6 OpTypeMatrix";
  if (!s.isVectorType(column)) {
    s.error(inst.index(), rule,
            "the column type " + s.name(column) + " of a matrix must be a vector type");
    return;
  }
  if (!s.isFloatType(s.componentType(column))) {
    s.error(inst.index(), rule,
            "the columns of a matrix must be vectors of floating-point type, not " +
                s.name(column));
    return;
  }
  if (count < 2 || count > 4)
    s.error(inst.index(), rule,
            "a matrix must have 2, 3 or 4 columns, not " + std::to_string(count));
}

// A type-declaration instruction defines `id` (the grammar's class is not reliable for the
// vendor types: acceleration structures, ray queries, cooperative matrices).
bool isTypeId(const State &s, uint32_t id) {
  auto d = s.def(id);
  return d && !d->isRaw() && declaresType(d->opcode());
}

bool isConstantOp(Op op) {
  switch (op) {
  case Op::ConstantTrue:
  case Op::ConstantFalse:
  case Op::Constant:
  case Op::ConstantComposite:
  case Op::ConstantSampler:
  case Op::ConstantNull:
  case Op::SpecConstantTrue:
  case Op::SpecConstantFalse:
  case Op::SpecConstant:
  case Op::SpecConstantComposite:
  case Op::SpecConstantOp:
  case Op::ConstantFunctionPointerINTEL:
    return true;
  default: {
    const grammar::InstructionDesc *d = grammar::findInstruction(uint32_t(op));
    return d != nullptr && d->cls == grammar::InstructionClass::ConstantCreation;
  }
  }
}

// Checks shared by OpTypeArray and OpTypeRuntimeArray: the element type.
bool checkElementType(State &s, const Instruction &inst, std::string_view rule) {
  const uint32_t element = inst.word(2);
  if (!isTypeId(s, element)) {
    s.error(inst.index(), rule,
            "the element type " + s.name(element) + " of an array is not a type");
    return false;
  }
  if (s.isVoidType(element)) {
    s.error(inst.index(), rule, "the element type of an array cannot be void");
    return false;
  }
  if (s.isVulkan() && s.defOpcode(element) == Op::TypeRuntimeArray) {
    s.error(inst.index(), "VUID-StandaloneSpirv-OpTypeRuntimeArray-04680",
            "in Vulkan an array's element type cannot be a runtime array (" + s.name(element) +
                ")");
    return false;
  }
  return true;
}

// OpTypeArray %r ElementType Length
void checkArray(State &s, const Instruction &inst) {
  if (inst.wordCount() < 4)
    return;
  const std::string_view rule = "3.32.6 OpTypeArray";
  if (!checkElementType(s, inst, rule))
    return;
  const uint32_t length = inst.word(3);
  auto def = s.def(length);
  if (!def || !isConstantOp(def->opcode())) {
    s.error(inst.index(), rule,
            "the length " + s.name(length) + " of an array must be a constant instruction");
    return;
  }
  const uint32_t lengthType = def->typeId();
  auto type = s.def(lengthType);
  if (!type || type->opcode() != Op::TypeInt || type->wordCount() < 4) {
    s.error(inst.index(), rule,
            "the length " + s.name(length) + " of an array must be an integer constant");
    return;
  }
  // The value, where it is known: OpConstant (and OpSpecConstant's default), OpConstantNull.
  std::optional<int64_t> value;
  const uint32_t width = type->word(2);
  const bool isSigned = type->word(3) != 0;
  if (def->opcode() == Op::ConstantNull) {
    value = 0;
  } else if ((def->opcode() == Op::Constant || def->opcode() == Op::SpecConstant) &&
             def->wordCount() >= 4 && width <= 64) {
    uint64_t v = def->word(3);
    if (width > 32 && def->wordCount() >= 5)
      v |= uint64_t(def->word(4)) << 32;
    if (isSigned && width < 64 && width > 0 && (v >> (width - 1)) & 1)
      v |= ~uint64_t(0) << width; // sign extend
    value = static_cast<int64_t>(v);
  }
  if (value && (*value == 0 || (*value < 0 && isSigned)))
    s.error(inst.index(), rule,
            "the length " + s.name(length) + " of an array must be at least 1, not " +
                std::to_string(*value));
}

// OpTypeRuntimeArray %r ElementType
void checkRuntimeArray(State &s, const Instruction &inst) {
  if (inst.wordCount() < 3)
    return;
  checkElementType(s, inst, "3.32.6 OpTypeRuntimeArray");
}

// True when the type is or contains (through arrays, structures and pointers) an opaque type:
// images, samplers and the OpenCL object types.
bool containsOpaque(const State &s, uint32_t type, TypeMemo &memo, int depth = 0) {
  if (depth > 64)
    return false;
  if (auto it = memo.opaque.find(type); it != memo.opaque.end())
    return it->second;
  memo.opaque[type] = false; // while in progress (pointer cycles)
  bool r = false;
  auto d = s.def(type);
  if (d && !d->isRaw()) {
    switch (d->opcode()) {
    case Op::TypeImage:
    case Op::TypeSampler:
    case Op::TypeSampledImage:
    case Op::TypeOpaque:
    case Op::TypeEvent:
    case Op::TypeDeviceEvent:
    case Op::TypeReserveId:
    case Op::TypeQueue:
    case Op::TypePipe:
    case Op::TypePipeStorage:
    case Op::TypeNamedBarrier:
      r = true;
      break;
    case Op::TypeArray:
    case Op::TypeRuntimeArray:
    case Op::TypeVector:
    case Op::TypeMatrix:
      r = d->wordCount() >= 3 && containsOpaque(s, d->word(2), memo, depth + 1);
      break;
    case Op::TypePointer:
      r = d->wordCount() >= 4 && containsOpaque(s, d->word(3), memo, depth + 1);
      break;
    case Op::TypeStruct:
      for (uint32_t w = 2; w < d->wordCount() && !r; ++w)
        r = containsOpaque(s, d->word(w), memo, depth + 1);
      break;
    default:
      break;
    }
  }
  memo.opaque[type] = r;
  return r;
}

// OpTypeStruct %r Member...
void checkStruct(State &s, const Instruction &inst, TypeMemo &memo) {
  const std::string_view rule = "3.32.6 OpTypeStruct";
  const uint32_t self = inst.resultId();
  const uint32_t members = inst.wordCount() - 2;
  for (uint32_t w = 2; w < inst.wordCount(); ++w) {
    const uint32_t member = inst.word(w);
    if (member == self) {
      s.error(inst.index(), rule, "a structure cannot have itself as a member type");
      return;
    }
    if (!isTypeId(s, member)) {
      s.error(inst.index(), rule,
              "member " + std::to_string(w - 2) + " of the structure has " + s.name(member) +
                  " as its type, which is not a type");
      return;
    }
    if (s.isVoidType(member)) {
      s.error(inst.index(), rule,
              "member " + std::to_string(w - 2) + " of a structure cannot be of type void");
      return;
    }
    if (s.isVulkan() && s.defOpcode(member) == Op::TypeRuntimeArray && w - 2 + 1 != members) {
      s.error(inst.index(), "VUID-StandaloneSpirv-OpTypeRuntimeArray-04680",
              "in Vulkan a runtime array may only be the last member of a structure (member " +
                  std::to_string(w - 2) + " is " + s.name(member) + ")");
      return;
    }
  }
  // "OpTypeRuntimeArray must only be used for: the last member of a Block-decorated OpTypeStruct
  // ... BufferBlock-decorated OpTypeStruct" (VUID-StandaloneSpirv-OpTypeRuntimeArray-04680).
  if (s.isVulkan() && members > 0 &&
      s.defOpcode(inst.word(inst.wordCount() - 1)) == Op::TypeRuntimeArray &&
      !s.hasDecoration(self, uint32_t(grammar::Decoration::Block)) &&
      !s.hasDecoration(self, uint32_t(grammar::Decoration::BufferBlock))) {
    s.error(inst.index(), "VUID-StandaloneSpirv-OpTypeRuntimeArray-04680",
            "in Vulkan a structure whose last member is a runtime array must be decorated Block "
            "or BufferBlock");
    return;
  }
  if (s.isVulkan() && !s.hasCapability(Capability::BindlessTextureNV))
    for (uint32_t w = 2; w < inst.wordCount(); ++w)
      if (containsOpaque(s, inst.word(w), memo)) {
        s.error(inst.index(), "VUID-StandaloneSpirv-None-04667",
                "in Vulkan a structure cannot contain an opaque type (image, sampler...): member " +
                    std::to_string(w - 2) + " has type " + s.name(inst.word(w)));
        return;
      }
  // BuiltIn members: all or none (2.16.2 / 14.x of the Vulkan spec as spirv-val checks it).
  std::set<uint32_t> builtInMembers;
  for (const AppliedDecoration &d : s.decorations(self)) {
    Instruction deco = s.module().inst(d.inst);
    if (deco.isRaw())
      continue;
    if ((deco.opcode() == Op::MemberDecorate) && deco.wordCount() >= 4 && deco.word(1) == self &&
        deco.word(3) == uint32_t(grammar::Decoration::BuiltIn))
      builtInMembers.insert(deco.word(2));
  }
  if (!builtInMembers.empty() && builtInMembers.size() != members)
    s.error(inst.index(), "2.16.2",
            "when one member of structure " + s.name(self) +
                " is decorated BuiltIn, all its members must be (" +
                std::to_string(builtInMembers.size()) + " of " + std::to_string(members) + " are)");
}

// OpTypePointer %r StorageClass Type
void checkPointer(State &s, const Instruction &inst) {
  if (inst.wordCount() < 4)
    return;
  const uint32_t pointee = inst.word(3);
  if (!isTypeId(s, pointee)) {
    s.error(inst.index(), "3.32.6 OpTypePointer",
            "the pointee type " + s.name(pointee) + " of a pointer type is not a type");
    return;
  }
  // "The PhysicalStorageBuffer storage class must only be used with the PhysicalStorageBuffer64
  // addressing model" (2.16.1).
  constexpr uint32_t kStoragePhysicalStorageBuffer =
      uint32_t(grammar::StorageClass::PhysicalStorageBuffer);
  if (inst.word(2) == kStoragePhysicalStorageBuffer &&
      s.addressingModel() != uint32_t(grammar::AddressingModel::PhysicalStorageBuffer64))
    s.error(inst.index(), "2.16.1",
            "the PhysicalStorageBuffer storage class is used only with the PhysicalStorageBuffer64 "
            "addressing model");
  // Storage classes Vulkan has no use for (OpenCL's and Intel's).
  if (s.isVulkan()) {
    const uint32_t sc = inst.word(2);
    if (sc == kStorageCrossWorkgroup || sc == kStorageGeneric || sc == kStorageAtomicCounter ||
        sc == kStorageCodeSectionINTEL || sc == kStorageDeviceOnlyINTEL ||
        sc == kStorageHostOnlyINTEL) {
      const grammar::EnumerantDesc *e =
          grammar::findEnumerant(grammar::OperandKind::StorageClass, sc);
      s.error(inst.index(), "VUID-StandaloneSpirv-None-04643",
              "the " + (e != nullptr ? std::string(e->name) : std::to_string(sc)) +
                  " storage class cannot be used in Vulkan");
    }
  }
}

// OpTypeFunction %r ReturnType Parameter...
void checkFunctionType(State &s, const Instruction &inst) {
  if (inst.wordCount() < 3)
    return;
  const std::string_view rule = "3.32.6 OpTypeFunction";
  const uint32_t ret = inst.word(2);
  if (!isTypeId(s, ret)) {
    s.error(inst.index(), rule,
            "the return type " + s.name(ret) + " of a function type is not a type");
    return;
  }
  for (uint32_t w = 3; w < inst.wordCount(); ++w) {
    const uint32_t param = inst.word(w);
    if (!isTypeId(s, param)) {
      s.error(inst.index(), rule,
              "parameter " + std::to_string(w - 3) + " of a function type has " + s.name(param) +
                  " as its type, which is not a type");
      return;
    }
    if (s.isVoidType(param)) {
      s.error(inst.index(), rule,
              "parameter " + std::to_string(w - 3) + " of a function type cannot be void");
      return;
    }
  }
  // A function type is used only by OpFunction, debug and annotation instructions.
  const uint32_t type = inst.resultId();
  std::optional<std::span<const uint32_t>> recorded = s.functionTypeUses(type);
  std::vector<uint32_t> fromDefUse;
  if (!recorded) {
    for (const DefUse::Use &u : s.defUse().uses(type))
      fromDefUse.push_back(u.inst);
    recorded = std::span<const uint32_t>(fromDefUse);
  }
  for (const uint32_t at : *recorded) {
    Instruction user = s.module().inst(at);
    if (user.isRaw())
      continue;
    const Op op = user.opcode();
    // SPV_INTEL_inline_assembly: "Asm type is the type of the inline assembly", a function type.
    if (op == Op::Function || State::isExtInst(op) || op == Op::AsmINTEL)
      continue;
    const grammar::InstructionDesc *d = user.desc();
    if (d != nullptr && (d->cls == grammar::InstructionClass::Debug ||
                         d->cls == grammar::InstructionClass::Annotation))
      continue;
    s.error(at, rule,
            "the function type " + s.name(inst.resultId()) +
                " may only be used by OpFunction (and debug or decoration instructions), not by " +
                State::opcodeName(op));
    return;
  }
}

// OpTypeImage %r SampledType Dim Depth Arrayed MS Sampled Format [Access]
void checkImage(State &s, const Instruction &inst) {
  if (inst.wordCount() < 9)
    return;
  const std::string_view rule = "3.32.6 OpTypeImage";
  const uint32_t sampledType = inst.word(2), dim = inst.word(3), depth = inst.word(4),
                 arrayed = inst.word(5), ms = inst.word(6), sampled = inst.word(7),
                 format = inst.word(8);
  if (!s.isVoidType(sampledType) && !s.isIntType(sampledType) && !s.isFloatType(sampledType)) {
    s.error(inst.index(), rule,
            "the Sampled Type " + s.name(sampledType) +
                " of an image must be void or a numerical scalar type");
    return;
  }
  if (s.isVulkan()) {
    const uint32_t w = s.bitWidth(sampledType);
    if (!(s.isIntType(sampledType) && (w == 32 || w == 64)) &&
        !(s.isFloatType(sampledType) && w == 32))
      s.error(inst.index(), "VUID-StandaloneSpirv-OpTypeImage-04656",
              "in Vulkan the Sampled Type of an image must be a 32- or 64-bit integer or a 32-bit "
              "float, not " +
                  s.name(sampledType));
  }
  if (s.isVulkan() && sampled == 0)
    s.error(inst.index(), "VUID-StandaloneSpirv-OpTypeImage-04657",
            "in Vulkan an image's Sampled operand must be 1 (sampled) or 2 (storage), not 0");
  if (depth > 2)
    s.error(inst.index(), rule,
            "the Depth operand of an image must be 0, 1 or 2, not " + std::to_string(depth));
  if (arrayed > 1)
    s.error(inst.index(), rule,
            "the Arrayed operand of an image must be 0 or 1, not " + std::to_string(arrayed));
  if (ms > 1)
    s.error(inst.index(), rule,
            "the MS operand of an image must be 0 or 1, not " + std::to_string(ms));
  if (sampled > 2)
    s.error(inst.index(), rule,
            "the Sampled operand of an image must be 0, 1 or 2, not " + std::to_string(sampled));
  if (dim == kDimSubpassData) {
    if (sampled != 2)
      s.error(inst.index(), rule,
              "a SubpassData image must have Sampled 2 (used without a sampler)");
    if (format != kFormatUnknown)
      s.error(inst.index(), rule, "a SubpassData image must have the Unknown image format");
    if (s.isVulkan() && arrayed != 0)
      s.error(inst.index(), "VUID-StandaloneSpirv-OpTypeImage-06214",
              "in Vulkan a SubpassData image cannot be arrayed");
  }
  if (s.isIntType(sampledType) && s.bitWidth(sampledType) == 64 &&
      !s.hasCapability(Capability::Int64ImageEXT))
    s.error(inst.index(), rule,
            "an image with a 64-bit integer Sampled Type needs the Int64ImageEXT capability");
  if (ms == 1 && sampled == 2 && dim != kDimSubpassData &&
      !s.hasCapability(Capability::StorageImageMultisample))
    s.error(inst.index(), rule,
            "a multisampled storage image (MS 1, Sampled 2) needs the StorageImageMultisample "
            "capability");
}

// OpTypeSampledImage %r ImageType
void checkSampledImage(State &s, const Instruction &inst) {
  if (inst.wordCount() < 3)
    return;
  const std::string_view rule = "3.32.6 OpTypeSampledImage";
  auto image = s.def(inst.word(2));
  if (!image || image->isRaw() || image->opcode() != Op::TypeImage) {
    s.error(inst.index(), rule,
            "the image type " + s.name(inst.word(2)) +
                " of a sampled image type must be an OpTypeImage");
    return;
  }
  if (image->wordCount() < 9)
    return;
  const uint32_t dim = image->word(3), sampled = image->word(7);
  if (sampled != 0 && sampled != 1)
    s.error(inst.index(), s.isVulkan() ? "VUID-StandaloneSpirv-OpTypeSampledImage-04657" : rule,
            "a sampled image needs an image type whose Sampled operand is 0 or 1, not " +
                std::to_string(sampled));
  else if (s.module().version() >= 0x00010600 && dim == kDimBuffer)
    s.error(inst.index(), rule,
            "from SPIR-V 1.6 on, the image of a sampled image cannot have the Buffer dimension");
}

// --- Constants --------------------------------------------------------------------------------

// True when the type contains an 8- or 16-bit type whose arithmetic capability is missing
// (Int8, Int16, Float16): such types are for storage only.

bool containsLimitedTypeOnce(const State &s, uint32_t type, TypeMemo &memo, int depth);

bool containsLimitedType(const State &s, uint32_t type, TypeMemo &memo, int depth = 0) {
  if (depth > 64)
    return false;
  if (auto it = memo.limited.find(type); it != memo.limited.end())
    return it->second;
  memo.limited[type] = false; // while in progress (pointer cycles)
  const bool r = containsLimitedTypeOnce(s, type, memo, depth);
  memo.limited[type] = r;
  return r;
}

bool containsLimitedTypeOnce(const State &s, uint32_t type, TypeMemo &memo, int depth) {
  auto d = s.def(type);
  if (!d || d->isRaw())
    return false;
  switch (d->opcode()) {
  case Op::TypeInt:
    if (d->wordCount() < 3)
      return false;
    return (d->word(2) == 8 && !s.hasCapability(Capability::Int8)) ||
           (d->word(2) == 16 && !s.hasCapability(Capability::Int16));
  case Op::TypeFloat:
    return d->wordCount() == 3 && d->word(2) == 16 && !s.hasCapability(Capability::Float16);
  case Op::TypeArray:
  case Op::TypeRuntimeArray:
  case Op::TypeVector:
  case Op::TypeMatrix:
  case Op::TypeImage:
  case Op::TypeSampledImage:
  case Op::TypeCooperativeMatrixNV:
    return d->wordCount() >= 3 && containsLimitedType(s, d->word(2), memo, depth + 1);
  case Op::TypePointer:
    return d->wordCount() >= 4 && containsLimitedType(s, d->word(3), memo, depth + 1);
  case Op::TypeStruct:
  case Op::TypeFunction:
    for (uint32_t w = 2; w < d->wordCount(); ++w)
      if (containsLimitedType(s, d->word(w), memo, depth + 1))
        return true;
    return false;
  default:
    return false;
  }
}

bool isNullableOnce(const State &s, uint32_t type, TypeMemo &memo, int depth);

bool isNullable(const State &s, uint32_t type, TypeMemo &memo, int depth = 0) {
  if (depth > 64)
    return true;
  if (auto it = memo.nullable.find(type); it != memo.nullable.end())
    return it->second;
  memo.nullable[type] = true; // while in progress
  const bool r = isNullableOnce(s, type, memo, depth);
  memo.nullable[type] = r;
  return r;
}

bool isNullableOnce(const State &s, uint32_t type, TypeMemo &memo, int depth) {
  auto d = s.def(type);
  if (!d || d->isRaw())
    return false;
  switch (d->opcode()) {
  case Op::TypeBool:
  case Op::TypeInt:
  case Op::TypeFloat:
  case Op::TypeEvent:
  case Op::TypeDeviceEvent:
  case Op::TypeReserveId:
  case Op::TypeQueue:
    return true;
  case Op::TypeArray:
  case Op::TypeMatrix:
  case Op::TypeVector:
  case Op::TypeCooperativeMatrixNV:
    return d->wordCount() >= 3 && isNullable(s, d->word(2), memo, depth + 1);
  case Op::TypeStruct:
    for (uint32_t w = 2; w < d->wordCount(); ++w)
      if (!isNullable(s, d->word(w), memo, depth + 1))
        return false;
    return true;
  case Op::TypePointer:
    return d->wordCount() >= 3 && d->word(2) != kStoragePhysicalStorageBuffer;
  default:
    return false;
  }
}

bool isConstantOrUndef(const State &s, uint32_t id) {
  const Op op = s.defOpcode(id);
  return op == Op::Undef || (op != kNoOp && isConstantOp(op));
}

// OpConstantComposite / OpSpecConstantComposite %type %r Constituent...
void checkConstantComposite(State &s, const Instruction &inst) {
  const std::string rule = "3.32.7 " + State::opcodeName(inst.opcode());
  const uint32_t resultType = inst.typeId();
  auto type = s.def(resultType);
  const uint32_t count = inst.wordCount() >= 3 ? inst.wordCount() - 3 : 0;
  if (!type || type->isRaw()) {
    s.error(inst.index(), rule,
            "the result type " + s.name(resultType) + " is not a composite type");
    return;
  }
  auto constituent = [&](uint32_t i) { return inst.word(3 + i); };
  auto countMismatch = [&](std::string_view what, uint64_t expected) {
    s.error(inst.index(), rule,
            "the result type " + s.name(resultType) + " has " + std::to_string(expected) + " " +
                std::string(what) + " but " + std::to_string(count) + " constituents are given");
  };
  auto notConstant = [&](uint32_t id) {
    s.error(inst.index(), rule, "the constituent " + s.name(id) + " must be a constant or OpUndef");
  };
  auto typeMismatch = [&](uint32_t id, uint32_t expected) {
    s.error(inst.index(), rule,
            "the constituent " + s.name(id) + " has type " + s.name(s.typeOf(id)) +
                " but the result type " + s.name(resultType) + " expects " + s.name(expected) +
                " there");
  };
  // Khronos SPIR-V issue #574 (in the revision history): "Constituents of OpConstantComposite
  // must not be specialization constants" (OpSpecConstantComposite takes them; spirv-val 2023.1
  // does not check it).
  if (inst.opcode() == Op::ConstantComposite)
    for (uint32_t i = 0; i < count; ++i)
      if (State::opcodeName(s.defOpcode(constituent(i))).starts_with("OpSpecConstant")) {
        s.error(inst.index(), rule,
                "the constituent " + s.name(constituent(i)) +
                    " is a specialization constant; only OpSpecConstantComposite takes those");
        return;
      }
  switch (type->opcode()) {
  case Op::TypeVector: {
    if (type->wordCount() < 4)
      return;
    if (type->word(3) != count)
      return countMismatch("components", type->word(3));
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t c = constituent(i);
      if (!isConstantOrUndef(s, c))
        return notConstant(c);
      // "the same type as the types of the Constituents". spirv-val 2023.1 compares only the
      // kind of scalar here: an 8-bit or a signed constant in a vector of 32-bit unsigned
      // integers passes it (no corpus module that it accepts has one).
      const uint32_t component = type->word(2);
      if (s.typeOf(c) != component || s.defOpcode(component) == kNoOp)
        return typeMismatch(c, component);
    }
    return;
  }
  case Op::TypeMatrix: {
    if (type->wordCount() < 4)
      return;
    if (type->word(3) != count)
      return countMismatch("columns", type->word(3));
    const uint32_t columnType = type->word(2);
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t c = constituent(i);
      const Op op = s.defOpcode(c);
      if (op != Op::ConstantComposite && op != Op::SpecConstantComposite && op != Op::Undef &&
          op != Op::ConstantNull && op != Op::SpecConstantOp) {
        s.error(inst.index(), rule,
                "the column " + s.name(c) +
                    " of a matrix constant must be a composite constant or OpUndef");
        return;
      }
      if (op == Op::Undef)
        continue;
      const uint32_t t = s.typeOf(c);
      if (!s.isVectorType(t) || s.componentType(t) != s.componentType(columnType) ||
          s.componentCount(t) != s.componentCount(columnType))
        return typeMismatch(c, columnType);
    }
    return;
  }
  case Op::TypeArray: {
    if (type->wordCount() < 4)
      return;
    const uint32_t length = type->word(3);
    auto lengthDef = s.def(length);
    // The length's whole value, whatever its width (a 64-bit length past 2^32 is no count of
    // constituents any instruction can hold).
    if (lengthDef && lengthDef->opcode() == Op::Constant)
      if (std::optional<uint64_t> n = s.constantValue(length); n && *n != count)
        return countMismatch("elements", *n);
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t c = constituent(i);
      if (!isConstantOrUndef(s, c))
        return notConstant(c);
      if (s.typeOf(c) != type->word(2))
        return typeMismatch(c, type->word(2));
    }
    return;
  }
  case Op::TypeStruct: {
    const uint32_t members = type->wordCount() - 2;
    if (members != count)
      return countMismatch("members", members);
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t c = constituent(i);
      if (!isConstantOrUndef(s, c))
        return notConstant(c);
      if (s.typeOf(c) != type->word(2 + i))
        return typeMismatch(c, type->word(2 + i));
    }
    return;
  }
  case Op::TypeTensorARM:
    // SPV_ARM_tensors: a tensor of known shape (element type, rank and shape) is a composite.
    if (type->wordCount() != 5)
      s.error(inst.index(), rule,
              "the result type " + s.name(resultType) + " must be a tensor with a shape");
    return;
  default: {
    const grammar::InstructionDesc *d = type->desc();
    if (d != nullptr && d->name.starts_with("OpTypeCooperativeMatrix"))
      return;
    s.error(inst.index(), rule,
            "the result type " + s.name(resultType) +
                " must be a composite type (vector, matrix, array or structure)");
    return;
  }
  }
}

void checkConstant(State &s, const Instruction &inst, TypeMemo &memo) {
  const uint32_t type = inst.typeId();
  const std::string rule = "3.32.7 " + State::opcodeName(inst.opcode());
  switch (inst.opcode()) {
  case Op::ConstantTrue:
  case Op::ConstantFalse:
  case Op::SpecConstantTrue:
  case Op::SpecConstantFalse:
    if (!s.isBoolType(type))
      s.error(inst.index(), rule,
              "the result type " + s.name(type) + " of a boolean constant must be OpTypeBool");
    break;
  case Op::Constant:
  case Op::SpecConstant:
    if (!s.isIntType(type) && !s.isFloatType(type))
      s.error(inst.index(), rule,
              "the result type " + s.name(type) +
                  " of a numeric constant must be an integer or floating-point scalar type");
    break;
  case Op::ConstantComposite:
  case Op::SpecConstantComposite:
    checkConstantComposite(s, inst);
    break;
  case Op::ConstantSampler:
    if (s.defOpcode(type) != Op::TypeSampler)
      s.error(inst.index(), rule,
              "the result type " + s.name(type) + " of OpConstantSampler must be OpTypeSampler");
    break;
  case Op::ConstantNull:
    if (!isNullable(s, type, memo))
      s.error(inst.index(), rule,
              "the type " + s.name(type) +
                  " has no null value (only scalars, vectors, matrices, arrays, structures of "
                  "those, pointers and a few opaque types do)");
    break;
  default:
    break;
  }
  if (s.stopped())
    return;
  // 8- and 16-bit types without their arithmetic capability are for storage only (2.16.1).
  if (s.hasCapability(Capability::Shader) && type != 0 && !s.isPointerType(type) &&
      containsLimitedType(s, type, memo))
    s.error(inst.index(), "2.16.1",
            "a constant of type " + s.name(type) +
                " cannot be made: 8- and 16-bit types without the Int8, Int16 or Float16 "
                "capability may only be used for storage");
}

void checkUndef(State &s, const Instruction &inst, TypeMemo &memo) {
  const uint32_t type = inst.typeId();
  if (s.isVoidType(type)) {
    s.error(inst.index(), "3.32.1 OpUndef", "OpUndef cannot have the void type");
    return;
  }
  if (s.hasCapability(Capability::Shader) && type != 0 && !s.isPointerType(type) &&
      containsLimitedType(s, type, memo))
    s.error(inst.index(), "2.16.1",
            "an undefined value of type " + s.name(type) +
                " cannot be made: 8- and 16-bit types without the Int8, Int16 or Float16 "
                "capability may only be used for storage");
}

// OpTypeForwardPointer PointerType StorageClass
void checkForwardPointer(State &s, const Instruction &inst) {
  if (inst.wordCount() < 3)
    return;
  const std::string_view rule = "3.32.6 OpTypeForwardPointer";
  const uint32_t pointer = inst.word(1), sc = inst.word(2);
  auto def = s.def(pointer);
  if (!def || def->isRaw() || def->opcode() != Op::TypePointer || def->wordCount() < 4) {
    s.error(inst.index(), rule,
            "the forward-declared type " + s.name(pointer) + " must be defined by OpTypePointer");
    return;
  }
  if (def->word(2) != sc) {
    s.error(inst.index(), rule,
            "the storage class of the forward declaration does not match the one of the pointer "
            "type " +
                s.name(pointer));
    return;
  }
  if (s.defOpcode(def->word(3)) != Op::TypeStruct) {
    s.error(inst.index(), rule,
            "a forward-declared pointer must point to a structure, not to " + s.name(def->word(3)));
    return;
  }
  if (s.isVulkan() && sc != kStoragePhysicalStorageBuffer)
    s.error(inst.index(), "VUID-StandaloneSpirv-OpTypeForwardPointer-04711",
            "in Vulkan a forward-declared pointer must be in the PhysicalStorageBuffer storage "
            "class");
}

// OpSpecConstantOp %type %r Opcode Operands...: "Opcode ... must equal one of the following
// opcodes" (3.32.7), some only with the Shader or the Kernel capability.
void checkSpecConstantOp(State &s, const Instruction &inst) {
  if (inst.wordCount() < 4)
    return;
  const std::string_view rule = "3.32.7 OpSpecConstantOp";
  const Op op = static_cast<Op>(inst.word(3));
  switch (grammar::specConstantOperation(inst.word(3))) {
  case grammar::SpecConstantOperation::No:
    s.error(inst.index(), rule,
            State::opcodeName(op) +
                " cannot be the operation of an OpSpecConstantOp: it is not one of those 3.32.7 "
                "lists");
    break;
  case grammar::SpecConstantOperation::ShaderOnly:
    if (!s.hasCapability(Capability::Shader))
      s.error(inst.index(), rule,
              State::opcodeName(op) +
                  " as a specialization constant operation needs the Shader capability");
    break;
  case grammar::SpecConstantOperation::KernelOnly:
    if (!s.hasCapability(Capability::Kernel))
      s.error(inst.index(), rule,
              State::opcodeName(op) +
                  " as a specialization constant operation needs the Kernel capability");
    break;
  case grammar::SpecConstantOperation::Any:
    if (op == Op::UConvert && !s.hasCapability(Capability::Kernel) &&
        s.module().version() < 0x00010400 && !s.hasExtension("SPV_AMD_gpu_shader_int16"))
      s.error(inst.index(), rule,
              "before SPIR-V 1.4, OpUConvert as a specialization constant operation needs the "
              "Kernel capability");
    break;
  }
}

} // namespace

void checkTypes(State &s) {
  // Non-aggregate types must be unique: the same opcode with the same operands twice is an
  // error (2.8; structures, arrays and pointers may repeat, and so may node payload arrays of
  // one record type, which their decorations tell apart: the node each writes to, as
  // SPV_AMDX_shader_enqueue uses them and spirv-val accepts).
  std::set<std::vector<uint32_t>> seen;
  TypeMemo memo;
  for (Instruction inst : s.module()) {
    if (s.stopped())
      return;
    if (inst.isRaw())
      continue;
    const Op op = inst.opcode();
    const grammar::InstructionDesc *d = inst.desc();
    if (d == nullptr)
      continue;
    if (declaresType(op) && inst.resultId() != 0 && inst.wordCount() >= 2) {
      if (op != Op::TypeArray && op != Op::TypeRuntimeArray && op != Op::TypeStruct &&
          op != Op::TypePointer && op != Op::TypeNodePayloadArrayAMDX) {
        std::vector<uint32_t> key;
        key.push_back(uint32_t(op));
        key.insert(key.end(), inst.words().begin() + 2, inst.words().end());
        if (!seen.insert(std::move(key)).second) {
          s.error(inst.index(), "2.8",
                  "this type repeats an earlier declaration of " + State::opcodeName(op) +
                      " with the same operands; non-aggregate types must be declared once");
          continue;
        }
      }
      switch (op) {
      case Op::TypeInt:
        checkInt(s, inst);
        break;
      case Op::TypeFloat:
        checkFloat(s, inst);
        break;
      case Op::TypeVector:
        checkVector(s, inst);
        break;
      case Op::TypeMatrix:
        checkMatrix(s, inst);
        break;
      case Op::TypeArray:
        checkArray(s, inst);
        break;
      case Op::TypeRuntimeArray:
        checkRuntimeArray(s, inst);
        break;
      case Op::TypeStruct:
        checkStruct(s, inst, memo);
        break;
      case Op::TypePointer:
        checkPointer(s, inst);
        break;
      case Op::TypeFunction:
        checkFunctionType(s, inst);
        break;
      case Op::TypeImage:
        checkImage(s, inst);
        break;
      case Op::TypeSampledImage:
        checkSampledImage(s, inst);
        break;
      default:
        break;
      }
      continue;
    }
    if (op == Op::TypeForwardPointer) {
      checkForwardPointer(s, inst);
      continue;
    }
    if (op == Op::SpecConstantOp)
      checkSpecConstantOp(s, inst);
    if (op == Op::Undef) {
      checkUndef(s, inst, memo);
      continue;
    }
    if (d->cls == grammar::InstructionClass::ConstantCreation && inst.typeId() != 0)
      checkConstant(s, inst, memo);
  }
}

} // namespace spire::val
