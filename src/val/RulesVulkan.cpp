// Rules: the Vulkan environment's standalone SPIR-V rules (Vulkan specification, appendix
// "Vulkan Environment for SPIR-V"), named by their VUIDs.
//
// Storage classes, resource decorations and block layout are checked with the decoration and type
// rules (RulesDecorations.cpp, RulesTypes.cpp); these are the rules of entry points and interfaces:
// - User-defined Input / Output interface variables have a Location, on the variable or on every
//   member of their block (-Location-04916); built-in variables have none (-Location-04915).
// - Compute, task and mesh entry points give their local size (-None-10685); fragment ones use
//   OriginUpperLeft (-OriginLowerLeft-04653); their integer and double inputs are Flat
//   (-Flat-04744).
// - An entry point's interface has at most one IncomingRayPayloadKHR, one HitAttributeKHR and one
//   IncomingCallableDataKHR variable (-04700, -04702, -04706).
#include "Rules.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace spire::val {

namespace {

constexpr uint32_t kInput = uint32_t(grammar::StorageClass::Input),
                   kOutput = uint32_t(grammar::StorageClass::Output); // storage classes
constexpr uint32_t kBlock = uint32_t(grammar::Decoration::Block),
                   kBuiltIn = uint32_t(grammar::Decoration::BuiltIn),
                   kFlat = uint32_t(grammar::Decoration::Flat),
                   kLocation = uint32_t(grammar::Decoration::Location),
                   kComponent = uint32_t(grammar::Decoration::Component); // decorations
constexpr uint32_t kModelVertex = uint32_t(grammar::ExecutionModel::Vertex),
                   kModelGLCompute = uint32_t(grammar::ExecutionModel::GLCompute),
                   kModelFragment = uint32_t(grammar::ExecutionModel::Fragment),
                   kModelKernel = uint32_t(grammar::ExecutionModel::Kernel);
constexpr uint32_t kModeOriginLowerLeft = uint32_t(grammar::ExecutionMode::OriginLowerLeft),
                   kModeLocalSize = uint32_t(grammar::ExecutionMode::LocalSize),
                   kModeLocalSizeId = uint32_t(grammar::ExecutionMode::LocalSizeId);
constexpr uint32_t kBuiltInWorkgroupSize = uint32_t(grammar::BuiltIn::WorkgroupSize);

bool isGraphicsModel(uint32_t model) { return model <= kModelFragment; }

class VulkanChecker {
public:
  explicit VulkanChecker(State &s) : s_(s), m_(s.module()) {}

  void run() {
    capabilities();
    initializers();
    for (uint32_t index : s_.entryPoints()) {
      if (s_.stopped())
        return;
      entryPoint(m_.inst(index));
    }
  }

private:
  // Which variables may have an initializer, and what a Workgroup variable's may be (shared
  // memory is zeroed, if at all, by VK_KHR_zero_initialize_workgroup_memory).
  void initializers() {
    using SC = grammar::StorageClass;
    for (Instruction inst : s_.instructions(State::Listed::Variables)) {
      if (inst.section() < Section::Global)
        continue;
      if (inst.opcode() != Op::Variable || inst.isRaw() || inst.wordCount() < 5)
        continue;
      const auto storage = static_cast<SC>(inst.word(3));
      // (Input and PushConstant variables are read-only in every environment: RulesMemory.)
      if (storage != SC::Output && storage != SC::Private && storage != SC::Function &&
          storage != SC::Workgroup && storage != SC::Input && storage != SC::PushConstant)
        s_.error(inst.index(), "VUID-StandaloneSpirv-OpVariable-04651",
                 "a variable with an initializer must be in the Output, Private, Function or "
                 "Workgroup storage class, not " +
                     State::enumerantName(grammar::OperandKind::StorageClass, inst.word(3)));
      else if (storage == SC::Workgroup && s_.defOpcode(inst.word(4)) != Op::ConstantNull)
        s_.error(inst.index(), "VUID-StandaloneSpirv-OpVariable-04734",
                 "the initializer " + s_.name(inst.word(4)) +
                     " of a Workgroup variable must be an OpConstantNull");
    }
  }

  // The capabilities a Vulkan version guarantees or may support (the Vulkan specification's
  // "SPIR-V Environment" capability table, as spirv-val reads it); others come with a declared
  // extension that enables them.
  static bool supported(const State &s, grammar::Capability c) {
    using C = grammar::Capability;
    const uint32_t api = s.env().apiVersion;
    switch (c) {
    // Vulkan 1.0, guaranteed and optional.
    case C::Matrix:
    case C::Shader:
    case C::InputAttachment:
    case C::Sampled1D:
    case C::Image1D:
    case C::SampledBuffer:
    case C::ImageBuffer:
    case C::ImageQuery:
    case C::DerivativeControl:
    case C::Geometry:
    case C::Tessellation:
    case C::Float64:
    case C::Int64:
    case C::Int16:
    case C::TessellationPointSize:
    case C::GeometryPointSize:
    case C::ImageGatherExtended:
    case C::StorageImageMultisample:
    case C::UniformBufferArrayDynamicIndexing:
    case C::SampledImageArrayDynamicIndexing:
    case C::StorageBufferArrayDynamicIndexing:
    case C::StorageImageArrayDynamicIndexing:
    case C::ClipDistance:
    case C::CullDistance:
    case C::ImageCubeArray:
    case C::SampleRateShading:
    case C::SparseResidency:
    case C::MinLod:
    case C::SampledCubeArray:
    case C::ImageMSArray:
    case C::StorageImageExtendedFormats:
    case C::InterpolationFunction:
    case C::StorageImageReadWithoutFormat:
    case C::StorageImageWriteWithoutFormat:
    case C::MultiViewport:
    case C::Int64Atomics:
    case C::TransformFeedback:
    case C::GeometryStreams:
    case C::Float16:
    case C::Int8:
      return true;
    // Vulkan 1.1.
    case C::DeviceGroup:
    case C::MultiView:
    case C::GroupNonUniform:
    case C::GroupNonUniformVote:
    case C::GroupNonUniformArithmetic:
    case C::GroupNonUniformBallot:
    case C::GroupNonUniformShuffle:
    case C::GroupNonUniformShuffleRelative:
    case C::GroupNonUniformClustered:
    case C::GroupNonUniformQuad:
    case C::DrawParameters:
    case C::StorageBuffer16BitAccess:
    case C::UniformAndStorageBuffer16BitAccess:
    case C::StoragePushConstant16:
    case C::StorageInputOutput16:
    case C::VariablePointersStorageBuffer:
    case C::VariablePointers:
      return api >= (1u << 16 | 1);
    // Vulkan 1.2.
    case C::ShaderNonUniform:
    case C::DenormPreserve:
    case C::DenormFlushToZero:
    case C::SignedZeroInfNanPreserve:
    case C::RoundingModeRTE:
    case C::RoundingModeRTZ:
    case C::VulkanMemoryModel:
    case C::VulkanMemoryModelDeviceScope:
    case C::StorageBuffer8BitAccess:
    case C::UniformAndStorageBuffer8BitAccess:
    case C::StoragePushConstant8:
    case C::ShaderViewportIndex:
    case C::ShaderLayer:
    case C::PhysicalStorageBufferAddresses:
    case C::RuntimeDescriptorArray:
    case C::UniformTexelBufferArrayDynamicIndexing:
    case C::StorageTexelBufferArrayDynamicIndexing:
    case C::UniformBufferArrayNonUniformIndexing:
    case C::SampledImageArrayNonUniformIndexing:
    case C::StorageBufferArrayNonUniformIndexing:
    case C::StorageImageArrayNonUniformIndexing:
    case C::InputAttachmentArrayNonUniformIndexing:
    case C::UniformTexelBufferArrayNonUniformIndexing:
    case C::StorageTexelBufferArrayNonUniformIndexing:
      return api >= (1u << 16 | 2);
    // Vulkan 1.3.
    case C::DotProduct:
    case C::DotProductInputAll:
    case C::DotProductInput4x8Bit:
    case C::DotProductInput4x8BitPacked:
    case C::DemoteToHelperInvocation:
      return api >= (1u << 16 | 3);
    default:
      return false;
    }
  }

  // "A capability ... must be supported" (the Vulkan specification's SPIR-V capability table):
  // an OpCapability a Vulkan version does not list is an error unless a declared extension
  // enables it.
  void capabilities() {
    // Vulkan 1.3 too (SampledRect and ImageRect, which glslang's 1.3 modules declare, are not in
    // its table; spirv-val 2023.1 checked only 1.0 to 1.2, v2026.4 checks every version).
    checkClientCapabilities(s_, supported, "Vulkan, SPIR-V capabilities",
                            "Vulkan " + std::to_string(s_.env().apiVersion >> 16) + "." +
                                std::to_string(s_.env().apiVersion & 0xFFFF));
  }

  // "There must be at most one variable with the IncomingRayPayloadKHR [HitAttributeKHR,
  // IncomingCallableDataKHR] storage class in the input interface of an entry point"
  // (VUID-StandaloneSpirv-IncomingRayPayloadKHR-04700, -HitAttributeKHR-04702,
  // -IncomingCallableDataKHR-04706; spirv-val 2023.1 does not check them yet).
  void oneOfEachIncoming(const Instruction &ep) {
    static constexpr struct {
      uint32_t storage;
      const char *name, *vuid;
    } kOnce[] = {
        {uint32_t(grammar::StorageClass::IncomingRayPayloadKHR), "IncomingRayPayloadKHR",
         "VUID-StandaloneSpirv-IncomingRayPayloadKHR-04700"},
        {uint32_t(grammar::StorageClass::HitAttributeKHR), "HitAttributeKHR",
         "VUID-StandaloneSpirv-HitAttributeKHR-04702"},
        {uint32_t(grammar::StorageClass::IncomingCallableDataKHR), "IncomingCallableDataKHR",
         "VUID-StandaloneSpirv-IncomingCallableDataKHR-04706"},
    };
    auto ops = ep.operands();
    for (const auto &once : kOnce) {
      std::unordered_set<uint32_t> seen;
      for (size_t k = 3; k < ops.size(); ++k) {
        const uint32_t id = ep.word(ops[k].offset);
        if (s_.defOpcode(id) == Op::Variable && s_.storageClass(s_.typeOf(id)) == once.storage)
          seen.insert(id);
      }
      if (seen.size() > 1)
        s_.error(ep.index(), once.vuid,
                 std::string("an entry point's interface has at most one ") + once.name +
                     " variable, this one has " + std::to_string(seen.size()));
    }
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
    // "For each compute shader entry point, either a TileShadingRateQCOM, LocalSize, or
    // LocalSizeId Execution Mode, or an object decorated with the WorkgroupSize decoration must be
    // specified" (VUID-StandaloneSpirv-None-10685, formerly -LocalSize-06426); spirv-val reads
    // the task and mesh models as compute shaders too.
    using grammar::ExecutionModel;
    const bool computeLike =
        model == kModelGLCompute || model == uint32_t(ExecutionModel::TaskEXT) ||
        model == uint32_t(ExecutionModel::MeshEXT) || model == uint32_t(ExecutionModel::TaskNV) ||
        model == uint32_t(ExecutionModel::MeshNV);
    if (computeLike && !s_.hasExecutionMode(fn, kModeLocalSize) &&
        !s_.hasExecutionMode(fn, kModeLocalSizeId) &&
        !s_.hasExecutionMode(fn, uint32_t(grammar::ExecutionMode::TileShadingRateQCOM)) &&
        !hasWorkgroupSizeBuiltIn())
      s_.error(ep.index(), "VUID-StandaloneSpirv-None-10685",
               "a " + State::enumerantName(grammar::OperandKind::ExecutionModel, model) +
                   " entry point must give its workgroup size: the LocalSize or LocalSizeId "
                   "execution mode, or a WorkgroupSize built-in");
    // LocalSizeId needs Vulkan 1.3 (or maintenance4), as spirv-val reads
    // VUID-StandaloneSpirv-LocalSizeId-06434.
    if (s_.hasExecutionMode(fn, kModeLocalSizeId) && s_.env().apiVersion < (1u << 16 | 3))
      s_.error(ep.index(), "VUID-StandaloneSpirv-LocalSizeId-06434",
               "the LocalSizeId execution mode needs Vulkan 1.3 (or the maintenance4 feature)");
    if (model == kModelFragment && s_.hasExecutionMode(fn, kModeOriginLowerLeft))
      s_.error(ep.index(), "VUID-StandaloneSpirv-OriginLowerLeft-04653",
               "Vulkan fragment shaders use OriginUpperLeft, not OriginLowerLeft");
    // "The PixelCenterInteger Execution Mode must not be used (pixels are always centered at
    // half-integer coordinates)".
    if (s_.hasExecutionMode(fn, uint32_t(grammar::ExecutionMode::PixelCenterInteger)))
      s_.error(ep.index(), "VUID-StandaloneSpirv-PixelCenterInteger-04654",
               "Vulkan does not allow the PixelCenterInteger execution mode");
    oneOfEachIncoming(ep);
    interfaceBuiltInsOnce(ep);
    for (size_t k = 3; k < ops.size(); ++k)
      noPhysicalPointersInInterface(ep, ep.word(ops[k].offset));
    if (!isGraphicsModel(model))
      return;
    for (size_t k = 3; k < ops.size(); ++k) {
      interfaceLocation(ep, ep.word(ops[k].offset));
      if (model == kModelFragment)
        flatInput(ep, ep.word(ops[k].offset));
      if (model == kModelFragment || model == kModelVertex)
        uninterpolated(ep, model, ep.word(ops[k].offset));
    }
    for (uint32_t storage : {kInput, kOutput})
      if (!s_.stopped())
        locationConflicts(ep, model, storage);
  }

  // "For a given OpEntryPoint, any BuiltIn decoration must not be used more than once by the
  // Input interface" (VUID-StandaloneSpirv-OpEntryPoint-09658), nor by the Output interface
  // (-09659): on the variables or on the members of their blocks.
  void interfaceBuiltInsOnce(const Instruction &ep) {
    std::unordered_set<uint64_t> seen; // storage class << 32 | built-in
    auto ops = ep.operands();
    for (size_t k = 3; k < ops.size() && !s_.stopped(); ++k) {
      const uint32_t var = ep.word(ops[k].offset);
      const uint32_t pointer = s_.typeOf(var);
      const std::optional<uint32_t> sc = s_.storageClass(pointer);
      if (s_.defOpcode(var) != Op::Variable || (sc != kInput && sc != kOutput))
        continue;
      std::vector<uint32_t> builtIns;
      if (const uint32_t b = decorationValue(var, kBuiltIn); b != ~0u)
        builtIns.push_back(b);
      const uint32_t block = s_.stripArrays(s_.pointeeType(pointer));
      if (s_.defOpcode(block) == Op::TypeStruct)
        for (const AppliedDecoration &di : s_.decorations(block)) {
          Instruction d = m_.inst(di.inst);
          if (d.opcode() == Op::MemberDecorate && d.wordCount() >= 5 && d.word(1) == block &&
              d.word(3) == kBuiltIn)
            builtIns.push_back(d.word(4));
        }
      for (uint32_t b : builtIns)
        if (!seen.insert(uint64_t(*sc) << 32 | b).second) {
          s_.error(ep.index(),
                   *sc == kInput ? "VUID-StandaloneSpirv-OpEntryPoint-09658"
                                 : "VUID-StandaloneSpirv-OpEntryPoint-09659",
                   "the " + std::string(*sc == kInput ? "Input" : "Output") +
                       " interface of the entry point uses the " +
                       State::enumerantName(grammar::OperandKind::BuiltIn, b) +
                       " built-in more than once (again on " + s_.name(var) + ")");
          return;
        }
    }
  }

  // "The pointers of any Input or Output Interface user-defined variables must not contain any
  // PhysicalStorageBuffer Storage Class pointers" (VUID-StandaloneSpirv-Input-09557).
  void noPhysicalPointersInInterface(const Instruction &ep, uint32_t var) {
    const uint32_t pointer = s_.typeOf(var);
    const std::optional<uint32_t> sc = s_.storageClass(pointer);
    if (s_.defOpcode(var) != Op::Variable || (sc != kInput && sc != kOutput) ||
        s_.hasDecoration(var, kBuiltIn) || !holdsPhysicalPointer(s_.pointeeType(pointer)))
      return;
    s_.error(ep.index(), "VUID-StandaloneSpirv-Input-09557",
             "the " + std::string(*sc == kInput ? "Input" : "Output") + " variable " +
                 s_.name(var) +
                 " holds a PhysicalStorageBuffer pointer, which no interface variable may");
  }

  bool holdsPhysicalPointer(uint32_t type, int depth = 0) const {
    std::optional<Instruction> d = s_.def(type);
    if (!d || depth > 16)
      return false;
    switch (d->opcode()) {
    case Op::TypePointer:
    case Op::TypeForwardPointer:
      return s_.storageClass(type) == uint32_t(grammar::StorageClass::PhysicalStorageBuffer);
    case Op::TypeArray:
    case Op::TypeRuntimeArray:
      return d->wordCount() > 2 && holdsPhysicalPointer(d->word(2), depth + 1);
    case Op::TypeStruct:
      for (uint32_t w = 2; w < d->wordCount(); ++w)
        if (holdsPhysicalPointer(d->word(w), depth + 1))
          return true;
      return false;
    default:
      return false;
    }
  }

  // --- Location assignment (VUID-StandaloneSpirv-OpEntryPoint-08721 / -08722) ------------------

  // Locations a value of this type takes (64-bit three- and four-component vectors take two).
  uint32_t locationsOf(uint32_t type, int depth = 0) const {
    if (depth > 16)
      return 1;
    std::optional<Instruction> d = s_.def(type);
    if (!d)
      return 1;
    switch (d->opcode()) {
    case Op::TypeVector:
      return s_.bitWidth(type) == 64 && s_.componentCount(type) > 2 ? 2 : 1;
    case Op::TypeMatrix:
      return d->wordCount() >= 4 ? d->word(3) * locationsOf(d->word(2), depth + 1) : 1;
    case Op::TypeArray: {
      std::optional<uint64_t> n = d->wordCount() >= 4 ? s_.constantValue(d->word(3)) : 0;
      return static_cast<uint32_t>(std::min<uint64_t>(n.value_or(1), 4096)) *
             locationsOf(d->word(2), depth + 1);
    }
    case Op::TypeStruct: {
      uint32_t n = 0;
      for (uint32_t w = 2; w < d->wordCount(); ++w)
        n += locationsOf(d->word(w), depth + 1);
      return n;
    }
    default:
      return 1;
    }
  }

  // Components of one location a scalar or vector takes, or 4 for anything larger.
  uint32_t componentsOf(uint32_t type) const {
    if (!s_.isScalarType(type) && !s_.isVectorType(type))
      return 4;
    const uint32_t n = s_.componentCount(type) * (s_.bitWidth(type) == 64 ? 2 : 1);
    return std::min(n, 4u);
  }

  uint32_t decorationValue(uint32_t id, uint32_t decoration, int member = -1) const {
    for (const AppliedDecoration &di : s_.decorations(id)) {
      Instruction d = m_.inst(di.inst);
      if (member < 0 && di.member == kNoIndex && d.opcode() == Op::Decorate && d.wordCount() >= 4 &&
          d.word(2) == decoration)
        return d.word(3);
      if (member >= 0 && d.opcode() == Op::MemberDecorate && d.wordCount() >= 5 &&
          d.word(2) == uint32_t(member) && d.word(3) == decoration)
        return d.word(4);
    }
    return ~0u;
  }

  // Whether this model's inputs (or outputs) are arrays with one element per vertex.
  static bool perVertex(uint32_t model, uint32_t storage) {
    constexpr uint32_t kTessControl = 1, kTessEval = 2,
                       kGeometry = uint32_t(grammar::ExecutionModel::Geometry),
                       kMeshNV = uint32_t(grammar::ExecutionModel::MeshNV),
                       kMeshEXT = uint32_t(grammar::ExecutionModel::MeshEXT);
    return storage == kInput ? (model == kTessControl || model == kTessEval || model == kGeometry)
                             : (model == kTessControl || model == kMeshNV || model == kMeshEXT);
  }

  void locationConflicts(const Instruction &ep, uint32_t model, uint32_t storage) {
    constexpr uint32_t kDecorationIndex = uint32_t(grammar::Decoration::Index),
                       kDecorationPatch = uint32_t(grammar::Decoration::Patch);
    std::unordered_map<uint64_t, uint32_t> taken; // (location << 2 | component) -> variable
    std::unordered_set<uint32_t> seen;
    auto ops = ep.operands();
    for (size_t k = 3; k < ops.size(); ++k) {
      const uint32_t var = ep.word(ops[k].offset);
      std::optional<Instruction> d = s_.def(var);
      if (!seen.insert(var).second || !d || d->opcode() != Op::Variable || d->wordCount() < 4 ||
          d->word(3) != storage || s_.hasDecoration(var, kBuiltIn) ||
          s_.hasDecoration(var, kDecorationIndex))
        continue;
      uint32_t type = s_.pointeeType(d->word(1));
      constexpr uint32_t kDecorationPerVertexKHR =
          uint32_t(grammar::Decoration::PerVertexKHR); // fragment barycentric inputs
      if ((perVertex(model, storage) || s_.hasDecoration(var, kDecorationPerVertexKHR)) &&
          !s_.hasDecoration(var, kDecorationPatch) && s_.defOpcode(type) == Op::TypeArray)
        type = s_.def(type)->word(2);
      auto claim = [&](uint32_t location, uint32_t component, uint32_t valueType) {
        const uint32_t locations = locationsOf(valueType);
        const uint32_t components = locations == 1 ? componentsOf(valueType) : 4;
        for (uint32_t l = 0; l < locations; ++l)
          for (uint32_t c = (locations == 1 ? component : 0);
               c < (locations == 1 ? std::min(component + components, 4u) : 4); ++c) {
            auto [it, fresh] = taken.emplace(uint64_t(location + l) << 2 | c, var);
            if (!fresh && it->second != var) {
              s_.error(ep.index(),
                       storage == kInput ? "VUID-StandaloneSpirv-OpEntryPoint-08721"
                                         : "VUID-StandaloneSpirv-OpEntryPoint-08722",
                       std::string(storage == kInput ? "inputs " : "outputs ") +
                           s_.name(it->second) + " and " + s_.name(var) + " both take location " +
                           std::to_string(location + l) + ", component " + std::to_string(c));
              return false;
            }
          }
        return true;
      };
      const uint32_t location = decorationValue(var, kLocation);
      const uint32_t component = decorationValue(var, kComponent);
      if (s_.defOpcode(type) == Op::TypeStruct) {
        std::optional<Instruction> st = s_.def(type);
        uint32_t next = location;
        for (uint32_t member = 0; member + 2 < st->wordCount(); ++member) {
          if (s_.hasDecoration(type, kBuiltIn, static_cast<int>(member)))
            continue;
          uint32_t at = decorationValue(type, kLocation, static_cast<int>(member));
          if (at == ~0u)
            at = next;
          if (at == ~0u)
            break; // no location: the Location rule reports it
          const uint32_t c = decorationValue(type, kComponent, static_cast<int>(member));
          if (!claim(at, c == ~0u ? 0 : c, st->word(2 + member)))
            return;
          next = at + locationsOf(st->word(2 + member));
        }
        continue;
      }
      if (location != ~0u && !claim(location, component == ~0u ? 0 : component, type))
        return;
    }
  }

  // Integers and doubles cannot be interpolated.
  bool needsFlat(uint32_t type) const {
    const uint32_t c = s_.componentType(s_.stripArrays(type));
    return s_.isIntType(c) || (s_.isFloatType(c) && s_.bitWidth(c) == 64);
  }

  // VUID-StandaloneSpirv-Flat-06201 / -06202: fragment outputs and vertex inputs are not
  // interpolated, so they take no Flat, NoPerspective, Sample or Centroid decoration.
  void uninterpolated(const Instruction &ep, uint32_t model, uint32_t var) {
    std::optional<Instruction> d = s_.def(var);
    const uint32_t storage = model == kModelFragment ? kOutput : kInput;
    if (!d || d->opcode() != Op::Variable || d->wordCount() < 4 || d->word(3) != storage)
      return;
    for (const grammar::Decoration deco :
         {grammar::Decoration::Flat, grammar::Decoration::NoPerspective,
          grammar::Decoration::Sample, grammar::Decoration::Centroid})
      if (s_.hasDecoration(var, uint32_t(deco))) {
        s_.error(ep.index(),
                 model == kModelFragment ? "VUID-StandaloneSpirv-Flat-06201"
                                         : "VUID-StandaloneSpirv-Flat-06202",
                 std::string(model == kModelFragment ? "fragment output " : "vertex input ") +
                     s_.name(var) + " is not interpolated: it cannot be decorated " +
                     State::enumerantName(grammar::OperandKind::Decoration, uint32_t(deco)));
        return;
      }
  }

  // VUID-StandaloneSpirv-Flat-04744: a fragment input of integer or double type is Flat.
  // A built-in input is one too (SampleId, PrimitiveId, Layer, ViewIndex, ... as glslang
  // decorates them), but not an array of them (SampleMask), which spirv-val does not ask.
  void flatInput(const Instruction &ep, uint32_t var) {
    std::optional<Instruction> d = s_.def(var);
    if (!d || d->opcode() != Op::Variable || d->wordCount() < 4 || d->word(3) != kInput ||
        s_.hasDecoration(var, kFlat))
      return;
    const uint32_t pointee = s_.pointeeType(d->word(1));
    const uint32_t inner = s_.stripArrays(pointee);
    bool missing = false;
    if (s_.hasDecoration(var, kBuiltIn)) {
      missing = inner == pointee && needsFlat(inner);
    } else if (s_.defOpcode(inner) == Op::TypeStruct) {
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
    const uint32_t inner = s_.stripArrays(s_.pointeeType(d->word(1)));
    if (s_.defOpcode(inner) == Op::TypeStruct) {
      std::optional<Instruction> st = s_.def(inner);
      bool allMembers = true, anyBuiltIn = false;
      for (uint32_t member = 0; member + 2 < st->wordCount(); ++member) {
        anyBuiltIn |= s_.hasDecoration(inner, kBuiltIn, static_cast<int>(member));
        allMembers &= s_.hasDecoration(inner, kLocation, static_cast<int>(member));
      }
      if (anyBuiltIn && !s_.hasDecoration(inner, kBlock))
        s_.error(ep.index(), "VUID-StandaloneSpirv-Location-04919",
                 "interface struct " + s_.name(inner) +
                     " has built-in members, so it must be decorated Block");
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
