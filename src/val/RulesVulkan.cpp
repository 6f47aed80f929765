// Rules: the Vulkan environment's standalone SPIR-V rules (Vulkan specification, appendix
// "Vulkan Environment for SPIR-V"), named by their VUIDs.
//
// - Storage classes Vulkan has (VUID-StandaloneSpirv-None-04643).
// - Resource variables (Uniform, StorageBuffer, UniformConstant) carry DescriptorSet and Binding
//   (-UniformConstant-06677); Uniform and StorageBuffer ones are Block / BufferBlock structs
//   (-Uniform-06676), push constants Block structs (-PushConstant-06675).
// - Blocks of buffers and push constants are explicitly laid out: Offset on every member,
//   ArrayStride on arrays, MatrixStride on matrices (VUID-StandaloneSpirv-None-10684 and the
//   "Offset and Stride Assignment" section).
// - User-defined Input / Output interface variables have a Location, on the variable or on every
//   member of their block (-Location-04916); built-in variables have none (-Location-04915).
// - GLCompute entry points give their local size (-LocalSize-06426); fragment entry points use
//   OriginUpperLeft (-OriginLowerLeft-04653); their integer and double inputs are Flat
//   (-Flat-04744).
#include "Rules.h"

#include <unordered_set>

namespace spire::val {

namespace {

enum Storage : uint32_t {
  kUniformConstant = 0,
  kInput = 1,
  kUniform = 2,
  kOutput = 3,
  kWorkgroup = 4,
  kCrossWorkgroup = 5,
  kGeneric = 8,
  kPushConstant = 9,
  kAtomicCounter = 10,
  kStorageBuffer = 12,
  kPhysicalStorageBuffer = 5349,
};

enum Deco : uint32_t {
  kBlock = 2,
  kBufferBlock = 3,
  kRowMajor = 4,
  kColMajor = 5,
  kArrayStride = 6,
  kMatrixStride = 7,
  kBuiltIn = 11,
  kFlat = 14,
  kLocation = 30,
  kComponent = 31,
  kBinding = 33,
  kDescriptorSet = 34,
  kOffset = 35,
};

constexpr uint32_t kModelGLCompute = 5, kModelFragment = 4, kModelKernel = 6;
constexpr uint32_t kModeOriginLowerLeft = 8, kModeLocalSize = 17, kModeLocalSizeId = 38;
constexpr uint32_t kBuiltInWorkgroupSize = 25;

bool isGraphicsModel(uint32_t model) { return model <= kModelFragment; }

class VulkanChecker {
public:
  explicit VulkanChecker(State &s) : s_(s), m_(s.module()) {}

  void run() {
    for (Instruction inst : m_) {
      if (s_.stopped())
        return;
      if (inst.isRaw())
        continue;
      if (inst.opcode() == Op::Variable)
        variable(inst);
    }
    for (uint32_t index : s_.entryPoints()) {
      if (s_.stopped())
        return;
      entryPoint(m_.inst(index));
    }
  }

private:
  // The type under any arrays.
  uint32_t stripArrays(uint32_t type) const {
    for (int depth = 0; depth < 16; ++depth) {
      const Op op = s_.defOpcode(type);
      if (op != Op::TypeArray && op != Op::TypeRuntimeArray)
        break;
      std::optional<Instruction> d = s_.def(type);
      if (!d || d->wordCount() < 3)
        break;
      type = d->word(2);
    }
    return type;
  }

  void variable(const Instruction &inst) {
    if (inst.wordCount() < 4)
      return;
    const uint32_t id = inst.resultId(), storage = inst.word(3);
    if (storage == kCrossWorkgroup || storage == kGeneric || storage == kAtomicCounter) {
      s_.error(inst.index(), "VUID-StandaloneSpirv-None-04643",
               "storage class " + std::string(storageName(storage)) + " does not exist in Vulkan");
      return;
    }
    const uint32_t pointee = s_.pointeeType(inst.word(1));
    const uint32_t inner = stripArrays(pointee);
    if (storage == kUniform || storage == kStorageBuffer || storage == kUniformConstant) {
      for (uint32_t deco : {kDescriptorSet, kBinding})
        if (!s_.hasDecoration(id, deco)) {
          s_.error(inst.index(), "VUID-StandaloneSpirv-UniformConstant-06677",
                   "resource variable " + s_.name(id) + " in " + storageName(storage) + " has no " +
                       (deco == kBinding ? "Binding" : "DescriptorSet") + " decoration");
          break;
        }
    }
    if (storage == kUniform || storage == kStorageBuffer) {
      if (s_.defOpcode(inner) != Op::TypeStruct ||
          (!s_.hasDecoration(inner, kBlock) && !s_.hasDecoration(inner, kBufferBlock)))
        s_.error(inst.index(), "VUID-StandaloneSpirv-Uniform-06676",
                 "variable " + s_.name(id) + " in " + storageName(storage) +
                     " must be a struct decorated Block or BufferBlock (or an array of them)");
      else
        explicitLayout(inst, inner);
    }
    if (storage == kPushConstant) {
      if (s_.defOpcode(inner) != Op::TypeStruct || !s_.hasDecoration(inner, kBlock))
        s_.error(inst.index(), "VUID-StandaloneSpirv-PushConstant-06675",
                 "push constant variable " + s_.name(id) + " must be a struct decorated Block");
      else
        explicitLayout(inst, inner);
    }
  }

  static const char *storageName(uint32_t storage) {
    switch (storage) {
    case kUniformConstant:
      return "UniformConstant";
    case kUniform:
      return "Uniform";
    case kStorageBuffer:
      return "StorageBuffer";
    case kPushConstant:
      return "PushConstant";
    case kCrossWorkgroup:
      return "CrossWorkgroup";
    case kGeneric:
      return "Generic";
    case kAtomicCounter:
      return "AtomicCounter";
    default:
      return "?";
    }
  }

  // Every member of `structType` (and of structs inside it) has an Offset; arrays inside have
  // an ArrayStride; matrices a MatrixStride.
  void explicitLayout(const Instruction &var, uint32_t structType) {
    std::unordered_set<uint32_t> visited;
    std::string problem = layoutProblem(structType, visited, 0);
    if (!problem.empty())
      s_.error(var.index(), "VUID-StandaloneSpirv-None-10684", problem);
  }

  std::string layoutProblem(uint32_t structType, std::unordered_set<uint32_t> &visited, int depth) {
    if (depth > 32 || !visited.insert(structType).second)
      return {};
    std::optional<Instruction> d = s_.def(structType);
    if (!d || d->opcode() != Op::TypeStruct)
      return {};
    for (uint32_t member = 0; member + 2 < d->wordCount(); ++member) {
      if (!s_.hasDecoration(structType, kOffset, static_cast<int>(member)))
        return "struct " + s_.name(structType) + " is a block of a buffer but its member " +
               std::to_string(member) +
               " has no Offset decoration: blocks must be laid out "
               "explicitly";
      uint32_t type = d->word(2 + member);
      // Through arrays: each needs its stride; matrices need MatrixStride on the member.
      for (int k = 0; k < 16; ++k) {
        const Op op = s_.defOpcode(type);
        if (op == Op::TypeArray || op == Op::TypeRuntimeArray) {
          if (!s_.hasDecoration(type, kArrayStride))
            return "array " + s_.name(type) + " in block " + s_.name(structType) +
                   " has no ArrayStride decoration: blocks must be laid out explicitly";
          type = s_.def(type)->wordCount() >= 3 ? s_.def(type)->word(2) : 0;
          continue;
        }
        break;
      }
      if (s_.defOpcode(type) == Op::TypeMatrix &&
          !s_.hasDecoration(structType, kMatrixStride, static_cast<int>(member)))
        return "matrix member " + std::to_string(member) + " of block " + s_.name(structType) +
               " has no MatrixStride decoration: blocks must be laid out explicitly";
      if (s_.defOpcode(type) == Op::TypeStruct) {
        std::string inner = layoutProblem(type, visited, depth + 1);
        if (!inner.empty())
          return inner;
      }
    }
    return {};
  }

  bool hasMode(uint32_t fn, std::initializer_list<uint32_t> modes) const {
    for (Instruction inst : m_) {
      if (inst.section() > Section::ExecutionMode)
        break;
      if ((inst.opcode() == Op::ExecutionMode || inst.opcode() == Op::ExecutionModeId) &&
          inst.wordCount() >= 3 && inst.word(1) == fn)
        for (uint32_t m : modes)
          if (inst.word(2) == m)
            return true;
    }
    return false;
  }

  bool hasWorkgroupSizeBuiltIn() const {
    for (Instruction inst : m_) {
      if (inst.section() > Section::Annotation)
        break;
      if (inst.opcode() == Op::Decorate && inst.wordCount() >= 4 && inst.word(2) == kBuiltIn &&
          inst.word(3) == kBuiltInWorkgroupSize)
        return true;
    }
    return false;
  }

  // OpEntryPoint Model %function "name" %interface...
  void entryPoint(const Instruction &ep) {
    auto ops = ep.operands();
    if (ops.size() < 3)
      return;
    const uint32_t model = ep.word(1), fn = ep.word(2);
    if (model == kModelKernel)
      return;
    if (model == kModelGLCompute && !hasMode(fn, {kModeLocalSize, kModeLocalSizeId}) &&
        !hasWorkgroupSizeBuiltIn())
      s_.error(ep.index(), "VUID-StandaloneSpirv-LocalSize-06426",
               "a GLCompute entry point must give its workgroup size: the LocalSize or "
               "LocalSizeId execution mode, or a WorkgroupSize built-in");
    if (model == kModelFragment && hasMode(fn, {kModeOriginLowerLeft}))
      s_.error(ep.index(), "VUID-StandaloneSpirv-OriginLowerLeft-04653",
               "Vulkan fragment shaders use OriginUpperLeft, not OriginLowerLeft");
    if (!isGraphicsModel(model))
      return;
    for (size_t k = 3; k < ops.size(); ++k) {
      interfaceLocation(ep, ep.word(ops[k].offset));
      if (model == kModelFragment)
        flatInput(ep, ep.word(ops[k].offset));
    }
  }

  // Integers and doubles cannot be interpolated.
  bool needsFlat(uint32_t type) const {
    const uint32_t c = s_.componentType(stripArrays(type));
    return s_.isIntType(c) || (s_.isFloatType(c) && s_.bitWidth(c) == 64);
  }

  // VUID-StandaloneSpirv-Flat-04744: a fragment input of integer or double type is Flat.
  void flatInput(const Instruction &ep, uint32_t var) {
    std::optional<Instruction> d = s_.def(var);
    if (!d || d->opcode() != Op::Variable || d->wordCount() < 4 || d->word(3) != kInput ||
        s_.hasDecoration(var, kBuiltIn) || s_.hasDecoration(var, kFlat))
      return;
    const uint32_t inner = stripArrays(s_.pointeeType(d->word(1)));
    bool missing = false;
    if (s_.defOpcode(inner) == Op::TypeStruct) {
      std::optional<Instruction> st = s_.def(inner);
      for (uint32_t member = 0; member + 2 < st->wordCount(); ++member)
        missing |= needsFlat(st->word(2 + member)) &&
                   !s_.hasDecoration(inner, kFlat, static_cast<int>(member)) &&
                   !s_.hasDecoration(inner, kBuiltIn, static_cast<int>(member));
    } else {
      missing = needsFlat(inner);
    }
    if (missing)
      s_.error(ep.index(), "VUID-StandaloneSpirv-Flat-04744",
               "fragment input " + s_.name(var) +
                   " holds integers or doubles, which do not interpolate: decorate it Flat");
  }

  void interfaceLocation(const Instruction &ep, uint32_t var) {
    std::optional<Instruction> d = s_.def(var);
    if (!d || d->opcode() != Op::Variable || d->wordCount() < 4)
      return;
    const uint32_t storage = d->word(3);
    if (storage != kInput && storage != kOutput)
      return;
    const bool hasLocation = s_.hasDecoration(var, kLocation);
    if (s_.hasDecoration(var, kBuiltIn)) {
      if (hasLocation || s_.hasDecoration(var, kComponent))
        s_.error(ep.index(), "VUID-StandaloneSpirv-Location-04915",
                 "built-in variable " + s_.name(var) +
                     " cannot have a Location or Component decoration");
      return;
    }
    if (hasLocation)
      return;
    const uint32_t inner = stripArrays(s_.pointeeType(d->word(1)));
    if (s_.defOpcode(inner) == Op::TypeStruct) {
      std::optional<Instruction> st = s_.def(inner);
      bool allMembers = true, anyBuiltIn = false;
      for (uint32_t member = 0; member + 2 < st->wordCount(); ++member) {
        anyBuiltIn |= s_.hasDecoration(inner, kBuiltIn, static_cast<int>(member));
        allMembers &= s_.hasDecoration(inner, kLocation, static_cast<int>(member));
      }
      if (anyBuiltIn || allMembers)
        return;
      s_.error(ep.index(), "VUID-StandaloneSpirv-Location-04916",
               "interface variable " + s_.name(var) +
                   " needs a Location, on the variable or on every member of its block");
      return;
    }
    s_.error(ep.index(), "VUID-StandaloneSpirv-Location-04916",
             "interface variable " + s_.name(var) + " needs a Location decoration");
  }

  State &s_;
  const Module &m_;
};

} // namespace

void checkVulkan(State &s) {
  VulkanChecker(s).run();
  if (!s.stopped())
    checkVulkanBuiltIns(s);
}

} // namespace spire::val
