// Rules: the OpenCL environment (the OpenCL SPIR-V environment specification, as spirv-val checks
// it for its opencl* targets): the capabilities of each version and profile, the memory model,
// image types, image writes without operands, atomics' storage classes. They run for Level Zero
// too, whose guide takes them over; there the rule names are the guide's.
#include "OpenCLRules.h"
#include "Rules.h"

namespace spire::val {

namespace {

// Enumerant values (SPIR-V 3.x tables).
constexpr uint32_t kAddressingPhysical32 = uint32_t(grammar::AddressingModel::Physical32),
                   kAddressingPhysical64 = uint32_t(grammar::AddressingModel::Physical64);
constexpr uint32_t kMemoryModelOpenCL = uint32_t(grammar::MemoryModel::OpenCL);
constexpr uint32_t kDim1D = uint32_t(grammar::Dim::Dim1D), kDim2D = uint32_t(grammar::Dim::Dim2D);
constexpr uint32_t kStorageGeneric = uint32_t(grammar::StorageClass::Generic);
constexpr uint32_t kImageOperandsNone = uint32_t(grammar::ImageOperands::None);

bool levelZero(const State &s) { return s.client() == Client::LevelZero; }

void checkMemoryModel(State &s, const Instruction &inst) {
  if (inst.wordCount() < 3)
    return;
  const uint32_t addressing = inst.word(1), memory = inst.word(2);
  if (levelZero(s)) {
    if (addressing != kAddressingPhysical64)
      s.error(inst.index(), "LZ-G1",
              "Level Zero requires the Physical64 addressing model (device pointers are 64 bits)");
    if (memory != kMemoryModelOpenCL)
      s.error(inst.index(), "LZ-G2", "Level Zero requires the OpenCL memory model");
    return;
  }
  if (addressing != kAddressingPhysical32 && addressing != kAddressingPhysical64)
    s.error(inst.index(), "OpenCL env 2.2 / 6.1",
            "the OpenCL environment requires the Physical32 or Physical64 addressing model");
  if (memory != kMemoryModelOpenCL)
    s.error(inst.index(), "OpenCL env 2.2 / 6.1",
            "the OpenCL environment requires the OpenCL memory model");
}

// OpTypeImage %type Dim Depth Arrayed MS Sampled Format [Access]
void checkImageType(State &s, const Instruction &inst) {
  if (inst.wordCount() < 9)
    return;
  const std::string_view rule = levelZero(s) ? "LZ-I4" : "OpenCL env 2.2 / 6.4";
  const uint32_t sampledType = inst.word(2), dim = inst.word(3), arrayed = inst.word(5),
                 ms = inst.word(6), sampled = inst.word(7), format = inst.word(8);
  if (!s.isVoidType(sampledType))
    s.error(inst.index(), rule, "the Sampled Type of an image must be OpTypeVoid here");
  if (sampled != 0)
    s.error(inst.index(), rule,
            "an image's Sampled operand must be 0 here (usage known only at run time), not " +
                std::to_string(sampled));
  if (ms != 0)
    s.error(inst.index(), rule, "multisampled images (MS = 1) are not supported here");
  if (arrayed != 0 && dim != kDim1D && dim != kDim2D)
    s.error(inst.index(), rule, "only 1D and 2D images may be arrayed");
  if (inst.wordCount() < 10)
    s.error(inst.index(), rule, "an image type must have its Access Qualifier operand here");
  if (levelZero(s) && format != 0)
    s.error(inst.index(), rule, "an image's Image Format must be Unknown in Level Zero");
}

// The OpenCL environment's atomics (spirv-val's reading of the OpenCL SPIR-V environment): on
// Function, Workgroup, CrossWorkgroup or Generic memory, and not Generic in OpenCL 1.2, which has
// no generic address space. Storage classes no atomic may use are the universal rule's
// (RulesAtomics); Level Zero says the same with its own requirement (LZ-I7).
void checkAtomicStorage(State &s, const Instruction &inst) {
  const uint32_t pointer = atomicPointer(inst);
  const std::optional<uint32_t> storage =
      pointer != 0 ? s.storageClass(s.typeOf(pointer)) : std::nullopt;
  if (!storage || levelZero(s))
    return;
  constexpr uint32_t kUniform = uint32_t(grammar::StorageClass::Uniform),
                     kAtomicCounter = uint32_t(grammar::StorageClass::AtomicCounter),
                     kImage = uint32_t(grammar::StorageClass::Image),
                     kStorageBuffer = uint32_t(grammar::StorageClass::StorageBuffer),
                     kPhysicalStorageBuffer =
                         uint32_t(grammar::StorageClass::PhysicalStorageBuffer),
                     kTaskPayloadWorkgroup =
                         uint32_t(grammar::StorageClass::TaskPayloadWorkgroupEXT);
  const uint32_t sc = *storage;
  if (sc == kUniform || sc == kAtomicCounter || sc == kImage || sc == kStorageBuffer ||
      sc == kPhysicalStorageBuffer || sc == kTaskPayloadWorkgroup)
    s.error(inst.index(), "OpenCL env 2.2 / 6.5",
            "in the OpenCL environment atomics operate on Function, Workgroup, CrossWorkgroup or "
            "Generic memory, not " +
                State::enumerantName(grammar::OperandKind::StorageClass, sc));
  else if (sc == kStorageGeneric && s.env().apiVersion == (1u << 16 | 2))
    s.error(inst.index(), "OpenCL env 2.2 / 6.5",
            "OpenCL 1.2 has no Generic storage: an atomic cannot operate on it");
}

// The capabilities an OpenCL version and profile support (the OpenCL SPIR-V environment's
// "Required Capabilities" and "Optional Capabilities", as spirv-val reads them); others come with
// a declared extension that enables them, and the image ones with ImageBasic. Float16 is optional
// in every version: the OpenCL extension cl_khr_fp16 enables it, which no SPIR-V extension
// declares, so a module may declare it (spirv-val v2026.4 accepts it; 2023.1 did not).
bool openCLCapability(const State &s, grammar::Capability c) {
  using C = grammar::Capability;
  const uint32_t api = s.env().apiVersion;
  const bool embedded = s.env().embeddedProfile;
  switch (c) {
  case C::Addresses:
  case C::Float16:
  case C::Float16Buffer:
  case C::Int16:
  case C::Int8:
  case C::Kernel:
  case C::Linkage:
  case C::Vector16:
  case C::ImageBasic:
  case C::Float64:
    return true;
  case C::Int64:
    return !embedded;
  case C::DeviceEnqueue:
  case C::GenericPointer:
  case C::Groups:
  case C::Pipes:
    return api >= (2u << 16);
  case C::SubgroupDispatch:
  case C::PipeStorage:
    return api >= (2u << 16 | 2);
  case C::LiteralSampler:
  case C::Sampled1D:
  case C::Image1D:
  case C::SampledBuffer:
  case C::ImageBuffer:
    return s.hasCapability(C::ImageBasic);
  case C::ImageReadWrite:
    return api >= (2u << 16) && s.hasCapability(C::ImageBasic);
  default:
    return false;
  }
}

} // namespace

void checkOpenCL(State &s) {
  if (!levelZero(s)) // Level Zero has its own table (LZ-H)
    checkClientCapabilities(s, openCLCapability, "OpenCL env 2.2 / 5",
                            "OpenCL " + std::to_string(s.env().apiVersion >> 16) + "." +
                                std::to_string(s.env().apiVersion & 0xFFFF) +
                                (s.env().embeddedProfile ? " (embedded profile)" : ""));
  for (Instruction inst : s.module()) {
    if (s.stopped())
      return;
    if (inst.isRaw())
      continue;
    switch (inst.opcode()) {
    case Op::MemoryModel:
      checkMemoryModel(s, inst);
      break;
    case Op::TypeImage:
      checkImageType(s, inst);
      break;
    case Op::ImageWrite:
      // OpImageWrite %image %coordinate %texel [ImageOperands ...]
      if (inst.wordCount() > 4 && inst.word(4) != kImageOperandsNone)
        s.error(inst.index(), levelZero(s) ? "LZ-I5" : "OpenCL env 2.2 / 6.4",
                "OpImageWrite must not have image operands here");
      break;
    default:
      if (isAtomicInstruction(inst.opcode()))
        checkAtomicStorage(s, inst);
      break;
    }
  }
}

bool isAtomicInstruction(Op op) {
  const uint32_t v = static_cast<uint32_t>(op);
  return (v >= uint32_t(Op::AtomicLoad) && v <= uint32_t(Op::AtomicXor)) ||
         v == uint32_t(Op::AtomicFlagTestAndSet) || v == uint32_t(Op::AtomicFlagClear) ||
         v == uint32_t(Op::AtomicFMinEXT) || v == uint32_t(Op::AtomicFMaxEXT) ||
         v == uint32_t(Op::AtomicFAddEXT);
}

uint32_t atomicPointer(const Instruction &inst) {
  const uint32_t v = static_cast<uint32_t>(inst.opcode());
  // OpAtomicStore and OpAtomicFlagClear have no result: the pointer comes first.
  const uint32_t at =
      (v == uint32_t(Op::AtomicStore) || v == uint32_t(Op::AtomicFlagClear)) ? 1 : 3;
  return inst.wordCount() > at ? inst.word(at) : 0;
}

} // namespace spire::val
