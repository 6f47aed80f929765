// Rules: Vulkan's built-in variables (Vulkan specification, "Built-In Variables", the
// VUID-<BuiltIn>-<BuiltIn>-* rules): each built-in has a type, and is an input or an output only of
// some execution models.
//
// As spirv-val does, a built-in is checked where code uses it: its type wherever it decorates a
// used variable or a member of a used block; its execution model and storage class for the used
// built-ins an entry point's interface lists. Arrayed interfaces (tessellation, geometry and mesh
// inputs and outputs) may hold an array of the type. The table covers the graphics, compute,
// subgroup, multiview, fragment-extension and ray tracing built-ins spirv-val checks.
#include "Rules.h"

#include <unordered_map>
#include <unordered_set>

namespace spire::val {

namespace {

using grammar::BuiltIn;
using grammar::ExecutionModel;

enum class Shape : uint8_t {
  Float,      ///< 32-bit float scalar
  Int,        ///< 32-bit integer scalar
  Bool,       ///< boolean scalar
  Float2,     ///< vec2 of 32-bit floats
  Float3,     ///< vec3 of 32-bit floats
  Float4,     ///< vec4 of 32-bit floats
  Int3,       ///< vec3 of 32-bit integers
  Int4,       ///< vec4 of 32-bit integers
  FloatArray, ///< array of 32-bit floats (of any size)
  IntArray,   ///< array of 32-bit integers
  FloatArray4,
  FloatArray2,
  Int2,     ///< vec2 of 32-bit integers
  Float4x3, ///< matrix of four columns of three 32-bit floats
};

// Execution model bits.
enum : uint32_t {
  kVertex = 1u << 0,
  kTessControl = 1u << 1,
  kTessEval = 1u << 2,
  kGeometry = 1u << 3,
  kFragment = 1u << 4,
  kCompute = 1u << 5, // GLCompute, Task, Mesh (NV and EXT)
  kMesh = 1u << 6,
  kRayGeneration = 1u << 7,
  kIntersection = 1u << 8,
  kAnyHit = 1u << 9,
  kClosestHit = 1u << 10,
  kMiss = 1u << 11,
  kCallable = 1u << 12,
  kTask = 1u << 13,
  kRayTracing = kRayGeneration | kIntersection | kAnyHit | kClosestHit | kMiss | kCallable,
  kHitModels = kIntersection | kAnyHit | kClosestHit,
  kAnyShader = 0xFFFF,
};

struct BuiltInRule {
  const char *name;
  Shape shape;
  uint32_t inputs;  ///< models where it may be an Input
  uint32_t outputs; ///< models where it may be an Output
};

const std::unordered_map<uint32_t, BuiltInRule> &rules() {
  static const std::unordered_map<uint32_t, BuiltInRule> kRules = {
      {uint32_t(BuiltIn::Position),
       {"Position", Shape::Float4, kTessControl | kTessEval | kGeometry,
        kVertex | kTessControl | kTessEval | kGeometry | kMesh}},
      {uint32_t(BuiltIn::PointSize),
       {"PointSize", Shape::Float, kTessControl | kTessEval | kGeometry,
        kVertex | kTessControl | kTessEval | kGeometry | kMesh}},
      {uint32_t(BuiltIn::ClipDistance),
       {"ClipDistance", Shape::FloatArray, kTessControl | kTessEval | kGeometry | kFragment,
        kVertex | kTessControl | kTessEval | kGeometry | kMesh}},
      {uint32_t(BuiltIn::CullDistance),
       {"CullDistance", Shape::FloatArray, kTessControl | kTessEval | kGeometry | kFragment,
        kVertex | kTessControl | kTessEval | kGeometry | kMesh}},
      {uint32_t(BuiltIn::PrimitiveId),
       {"PrimitiveId", Shape::Int, kTessControl | kTessEval | kGeometry | kFragment | kRayTracing,
        kGeometry | kMesh}},
      {uint32_t(BuiltIn::InvocationId), {"InvocationId", Shape::Int, kTessControl | kGeometry, 0}},
      // Tessellation control outputs them with SPV_NV_viewport_array2 / stereo view rendering.
      {uint32_t(BuiltIn::Layer),
       {"Layer", Shape::Int, kFragment, kVertex | kTessControl | kTessEval | kGeometry | kMesh}},
      {uint32_t(BuiltIn::ViewportIndex),
       {"ViewportIndex", Shape::Int, kFragment,
        kVertex | kTessControl | kTessEval | kGeometry | kMesh}},
      {uint32_t(BuiltIn::TessLevelOuter),
       {"TessLevelOuter", Shape::FloatArray4, kTessEval, kTessControl}},
      {uint32_t(BuiltIn::TessLevelInner),
       {"TessLevelInner", Shape::FloatArray2, kTessEval, kTessControl}},
      {uint32_t(BuiltIn::TessCoord), {"TessCoord", Shape::Float3, kTessEval, 0}},
      {uint32_t(BuiltIn::PatchVertices),
       {"PatchVertices", Shape::Int, kTessControl | kTessEval, 0}},
      {uint32_t(BuiltIn::FragCoord), {"FragCoord", Shape::Float4, kFragment, 0}},
      {uint32_t(BuiltIn::PointCoord), {"PointCoord", Shape::Float2, kFragment, 0}},
      {uint32_t(BuiltIn::FrontFacing), {"FrontFacing", Shape::Bool, kFragment, 0}},
      {uint32_t(BuiltIn::SampleId), {"SampleId", Shape::Int, kFragment, 0}},
      {uint32_t(BuiltIn::SamplePosition), {"SamplePosition", Shape::Float2, kFragment, 0}},
      {uint32_t(BuiltIn::SampleMask), {"SampleMask", Shape::IntArray, kFragment, kFragment}},
      {uint32_t(BuiltIn::FragDepth), {"FragDepth", Shape::Float, 0, kFragment}},
      {uint32_t(BuiltIn::HelperInvocation), {"HelperInvocation", Shape::Bool, kFragment, 0}},
      {uint32_t(BuiltIn::NumWorkgroups), {"NumWorkgroups", Shape::Int3, kCompute, 0}},
      {uint32_t(BuiltIn::WorkgroupId), {"WorkgroupId", Shape::Int3, kCompute, 0}},
      {uint32_t(BuiltIn::LocalInvocationId), {"LocalInvocationId", Shape::Int3, kCompute, 0}},
      {uint32_t(BuiltIn::GlobalInvocationId), {"GlobalInvocationId", Shape::Int3, kCompute, 0}},
      {uint32_t(BuiltIn::LocalInvocationIndex), {"LocalInvocationIndex", Shape::Int, kCompute, 0}},
      {uint32_t(BuiltIn::VertexIndex), {"VertexIndex", Shape::Int, kVertex, 0}},
      {uint32_t(BuiltIn::InstanceIndex), {"InstanceIndex", Shape::Int, kVertex, 0}},
      {uint32_t(BuiltIn::BaseVertex), {"BaseVertex", Shape::Int, kVertex, 0}},
      {uint32_t(BuiltIn::BaseInstance), {"BaseInstance", Shape::Int, kVertex, 0}},
      {uint32_t(BuiltIn::DrawIndex), {"DrawIndex", Shape::Int, kVertex | kCompute, 0}},
      {uint32_t(BuiltIn::SubgroupSize), {"SubgroupSize", Shape::Int, kAnyShader, 0}},
      {uint32_t(BuiltIn::SubgroupLocalInvocationId),
       {"SubgroupLocalInvocationId", Shape::Int, kAnyShader, 0}},
      {uint32_t(BuiltIn::SubgroupEqMask), {"SubgroupEqMask", Shape::Int4, kAnyShader, 0}},
      {uint32_t(BuiltIn::SubgroupGeMask), {"SubgroupGeMask", Shape::Int4, kAnyShader, 0}},
      {uint32_t(BuiltIn::SubgroupGtMask), {"SubgroupGtMask", Shape::Int4, kAnyShader, 0}},
      {uint32_t(BuiltIn::SubgroupLeMask), {"SubgroupLeMask", Shape::Int4, kAnyShader, 0}},
      {uint32_t(BuiltIn::SubgroupLtMask), {"SubgroupLtMask", Shape::Int4, kAnyShader, 0}},
      {uint32_t(BuiltIn::NumSubgroups), {"NumSubgroups", Shape::Int, kCompute, 0}},
      {uint32_t(BuiltIn::SubgroupId), {"SubgroupId", Shape::Int, kCompute, 0}},
      {uint32_t(BuiltIn::DeviceIndex), {"DeviceIndex", Shape::Int, kAnyShader, 0}},
      {uint32_t(BuiltIn::ViewIndex),
       {"ViewIndex", Shape::Int,
        kVertex | kTessControl | kTessEval | kGeometry | kFragment | kMesh | kTask | kRayTracing,
        0}},
      {uint32_t(BuiltIn::PrimitiveShadingRateKHR),
       {"PrimitiveShadingRateKHR", Shape::Int, 0, kVertex | kGeometry | kMesh}},
      {uint32_t(BuiltIn::ShadingRateKHR), {"ShadingRateKHR", Shape::Int, kFragment, 0}},
      {uint32_t(BuiltIn::FragStencilRefEXT), {"FragStencilRefEXT", Shape::Int, 0, kFragment}},
      {uint32_t(BuiltIn::FullyCoveredEXT), {"FullyCoveredEXT", Shape::Bool, kFragment, 0}},
      {uint32_t(BuiltIn::BaryCoordKHR), {"BaryCoordKHR", Shape::Float3, kFragment, 0}},
      {uint32_t(BuiltIn::BaryCoordNoPerspKHR),
       {"BaryCoordNoPerspKHR", Shape::Float3, kFragment, 0}},
      {uint32_t(BuiltIn::FragSizeEXT), {"FragSizeEXT", Shape::Int2, kFragment, 0}},
      {uint32_t(BuiltIn::FragInvocationCountEXT),
       {"FragInvocationCountEXT", Shape::Int, kFragment, 0}},
      {uint32_t(BuiltIn::CullPrimitiveEXT), {"CullPrimitiveEXT", Shape::Bool, 0, kMesh}},
      // Ray tracing (SPV_KHR_ray_tracing).
      {uint32_t(BuiltIn::LaunchIdKHR), {"LaunchIdKHR", Shape::Int3, kRayTracing, 0}},
      {uint32_t(BuiltIn::LaunchSizeKHR), {"LaunchSizeKHR", Shape::Int3, kRayTracing, 0}},
      {uint32_t(BuiltIn::WorldRayOriginKHR),
       {"WorldRayOriginKHR", Shape::Float3, kHitModels | kMiss, 0}},
      {uint32_t(BuiltIn::WorldRayDirectionKHR),
       {"WorldRayDirectionKHR", Shape::Float3, kHitModels | kMiss, 0}},
      {uint32_t(BuiltIn::ObjectRayOriginKHR), {"ObjectRayOriginKHR", Shape::Float3, kHitModels, 0}},
      {uint32_t(BuiltIn::ObjectRayDirectionKHR),
       {"ObjectRayDirectionKHR", Shape::Float3, kHitModels, 0}},
      {uint32_t(BuiltIn::RayTminKHR), {"RayTminKHR", Shape::Float, kHitModels | kMiss, 0}},
      {uint32_t(BuiltIn::RayTmaxKHR), {"RayTmaxKHR", Shape::Float, kHitModels | kMiss, 0}},
      {uint32_t(BuiltIn::InstanceCustomIndexKHR),
       {"InstanceCustomIndexKHR", Shape::Int, kHitModels, 0}},
      {uint32_t(BuiltIn::ObjectToWorldKHR), {"ObjectToWorldKHR", Shape::Float4x3, kHitModels, 0}},
      {uint32_t(BuiltIn::WorldToObjectKHR), {"WorldToObjectKHR", Shape::Float4x3, kHitModels, 0}},
      {uint32_t(BuiltIn::HitKindKHR), {"HitKindKHR", Shape::Int, kAnyHit | kClosestHit, 0}},
      {uint32_t(BuiltIn::IncomingRayFlagsKHR),
       {"IncomingRayFlagsKHR", Shape::Int, kHitModels | kMiss, 0}},
      {uint32_t(BuiltIn::RayGeometryIndexKHR), {"RayGeometryIndexKHR", Shape::Int, kHitModels, 0}},
      {uint32_t(BuiltIn::InstanceId), {"InstanceId", Shape::Int, kHitModels, 0}},
  };
  return kRules;
}

uint32_t modelBit(uint32_t model) {
  switch (model) {
  case uint32_t(ExecutionModel::Vertex):
    return kVertex;
  case uint32_t(ExecutionModel::TessellationControl):
    return kTessControl;
  case uint32_t(ExecutionModel::TessellationEvaluation):
    return kTessEval;
  case uint32_t(ExecutionModel::Geometry):
    return kGeometry;
  case uint32_t(ExecutionModel::Fragment):
    return kFragment;
  case uint32_t(ExecutionModel::GLCompute):
  case uint32_t(ExecutionModel::TaskNV):
  case uint32_t(ExecutionModel::TaskEXT):
    return kCompute | kTask;
  case uint32_t(ExecutionModel::MeshNV):
  case uint32_t(ExecutionModel::MeshEXT):
    return kCompute | kMesh;
  case uint32_t(ExecutionModel::RayGenerationKHR):
    return kRayGeneration;
  case uint32_t(ExecutionModel::IntersectionKHR):
    return kIntersection;
  case uint32_t(ExecutionModel::AnyHitKHR):
    return kAnyHit;
  case uint32_t(ExecutionModel::ClosestHitKHR):
    return kClosestHit;
  case uint32_t(ExecutionModel::MissKHR):
    return kMiss;
  case uint32_t(ExecutionModel::CallableKHR):
    return kCallable;
  default:
    return 0;
  }
}

constexpr uint32_t kDecorationBuiltIn = uint32_t(grammar::Decoration::BuiltIn);
constexpr uint32_t kStorageInput = uint32_t(grammar::StorageClass::Input),
                   kStorageOutput = uint32_t(grammar::StorageClass::Output);

class BuiltInChecker {
public:
  explicit BuiltInChecker(State &s) : s_(s), m_(s.module()) {}

  void run() {
    collectUsed();
    for (Instruction inst : m_) {
      if (s_.stopped())
        return;
      if (inst.section() > Section::Annotation)
        break;
      if (inst.isRaw())
        continue;
      if (inst.opcode() == Op::Decorate && inst.wordCount() >= 4 &&
          inst.word(2) == kDecorationBuiltIn)
        decorated(inst, inst.word(1), -1, inst.word(3));
      else if (inst.opcode() == Op::MemberDecorate && inst.wordCount() >= 5 &&
               inst.word(3) == kDecorationBuiltIn)
        decorated(inst, inst.word(1), static_cast<int>(inst.word(2)), inst.word(4));
    }
    for (uint32_t index : s_.entryPoints())
      if (!s_.stopped())
        interface(m_.inst(index));
  }

private:
  // Like spirv-val, a built-in is checked where the code uses it: a variable declared (and even
  // listed in an interface) but never read or written is not. Used: by some function (for the
  // type) or by the entry point's call tree (for its model and storage class).
  void collectUsed() {
    const CallGraph &graph = s_.callGraph();
    for (uint32_t f = 0; f < m_.functions().size(); ++f)
      for (uint32_t var : graph.globals(f))
        if (usedVariables_.insert(var).second) {
          uint32_t type = s_.pointeeType(s_.typeOf(var));
          for (int n = 0; n < 2 && arrayElement(type) != 0; ++n)
            type = arrayElement(type);
          if (s_.defOpcode(type) == Op::TypeStruct)
            usedStructs_.insert(type);
        }
  }

  std::unordered_set<uint32_t> usedBy(const Instruction &ep) const {
    std::unordered_set<uint32_t> used;
    const CallGraph &graph = s_.callGraph();
    const uint32_t root = ep.wordCount() >= 3 ? graph.function(ep.word(2)) : kNoIndex;
    if (root != kNoIndex)
      for (uint32_t f : graph.reachable(root))
        for (uint32_t var : graph.globals(f))
          used.insert(var);
    return used;
  }

  bool is32(uint32_t type, bool floating) const {
    return (floating ? s_.isFloatType(type) : s_.isIntType(type)) && s_.bitWidth(type) == 32;
  }

  bool vectorOf(uint32_t type, uint32_t n, bool floating) const {
    return s_.isVectorType(type) && s_.componentCount(type) == n &&
           is32(s_.componentType(type), floating);
  }

  std::optional<uint64_t> arrayLength(uint32_t type) const {
    std::optional<Instruction> d = s_.def(type);
    if (!d || d->opcode() != Op::TypeArray || d->wordCount() < 4)
      return std::nullopt;
    return s_.constantValue(d->word(3));
  }

  uint32_t arrayElement(uint32_t type) const {
    std::optional<Instruction> d = s_.def(type);
    if (!d || (d->opcode() != Op::TypeArray && d->opcode() != Op::TypeRuntimeArray) ||
        d->wordCount() < 3)
      return 0;
    return d->word(2);
  }

  bool matches(uint32_t type, Shape shape) const {
    switch (shape) {
    case Shape::Float:
      return is32(type, true);
    case Shape::Int:
      return is32(type, false);
    case Shape::Bool:
      return s_.isBoolType(type);
    case Shape::Float2:
      return vectorOf(type, 2, true);
    case Shape::Float3:
      return vectorOf(type, 3, true);
    case Shape::Float4:
      return vectorOf(type, 4, true);
    case Shape::Int3:
      return vectorOf(type, 3, false);
    case Shape::Int4:
      return vectorOf(type, 4, false);
    case Shape::FloatArray:
      return is32(arrayElement(type), true);
    case Shape::IntArray:
      return is32(arrayElement(type), false);
    case Shape::FloatArray4:
      return is32(arrayElement(type), true) && arrayLength(type) == 4u;
    case Shape::FloatArray2:
      return is32(arrayElement(type), true) && arrayLength(type) == 2u;
    case Shape::Int2:
      return vectorOf(type, 2, false);
    case Shape::Float4x3: {
      std::optional<Instruction> d = s_.def(type);
      return d && d->opcode() == Op::TypeMatrix && d->wordCount() >= 4 && d->word(3) == 4 &&
             vectorOf(d->word(2), 3, true);
    }
    }
    return true;
  }

  static const char *shapeText(Shape shape) {
    switch (shape) {
    case Shape::Float:
      return "a 32-bit float";
    case Shape::Int:
      return "a 32-bit integer";
    case Shape::Bool:
      return "a boolean";
    case Shape::Float2:
      return "a vector of two 32-bit floats";
    case Shape::Float3:
      return "a vector of three 32-bit floats";
    case Shape::Float4:
      return "a vector of four 32-bit floats";
    case Shape::Int3:
      return "a vector of three 32-bit integers";
    case Shape::Int4:
      return "a vector of four 32-bit integers";
    case Shape::FloatArray:
      return "an array of 32-bit floats";
    case Shape::IntArray:
      return "an array of 32-bit integers";
    case Shape::FloatArray4:
      return "an array of four 32-bit floats";
    case Shape::FloatArray2:
      return "an array of two 32-bit floats";
    case Shape::Int2:
      return "a vector of two 32-bit integers";
    case Shape::Float4x3:
      return "a matrix of four columns of three 32-bit floats";
    }
    return "?";
  }

  // The type a built-in decoration gives its target: a variable's pointee, a member's type.
  void decorated(const Instruction &deco, uint32_t target, int member, uint32_t builtin) {
    auto rule = rules().find(builtin);
    if (rule == rules().end())
      return;
    if (member >= 0 ? !usedStructs_.count(target) : !usedVariables_.count(target))
      return;
    uint32_t type = 0;
    if (member >= 0) {
      std::optional<Instruction> st = s_.def(target);
      if (!st || st->opcode() != Op::TypeStruct || uint32_t(member) + 2 >= st->wordCount())
        return;
      type = st->word(2 + member);
    } else {
      std::optional<Instruction> d = s_.def(target);
      if (!d || d->opcode() != Op::Variable)
        return; // constants (WorkgroupSize) and other targets: the decoration rules' business
      type = s_.pointeeType(d->typeId());
      // The tessellation levels are per patch: "BuiltIn TessLevelOuter / TessLevelInner variable
      // needs to also have a Patch decoration" (VUID-StandaloneSpirv-TessLevelInner-10880).
      using grammar::BuiltIn;
      if ((builtin == uint32_t(BuiltIn::TessLevelOuter) ||
           builtin == uint32_t(BuiltIn::TessLevelInner)) &&
          !s_.hasDecoration(target, uint32_t(grammar::Decoration::Patch)))
        s_.error(deco.index(), "VUID-StandaloneSpirv-TessLevelInner-10880",
                 std::string("the ") + rule->second.name + " variable " + s_.name(target) +
                     " must be decorated Patch too");
    }
    if (type == 0 || matches(type, rule->second.shape))
      return;
    // Arrayed interfaces hold one per vertex: an array of the type.
    if (member < 0 && matches(arrayElement(type), rule->second.shape))
      return;
    s_.error(deco.index(),
             std::string("VUID-") + rule->second.name + "-" + rule->second.name + " (type)",
             std::string("built-in ") + rule->second.name + " must be " +
                 shapeText(rule->second.shape) + ", not " + s_.name(type));
  }

  // The built-ins of an entry point's interface: Input or Output where its model allows.
  void interface(const Instruction &ep) {
    auto ops = ep.operands();
    if (ops.size() < 3)
      return;
    const uint32_t model = modelBit(ep.word(1));
    if (model == 0)
      return;
    const std::unordered_set<uint32_t> used = usedBy(ep);
    for (size_t k = 3; k < ops.size(); ++k) {
      const uint32_t var = ep.word(ops[k].offset);
      if (!used.count(var))
        continue;
      std::optional<Instruction> d = s_.def(var);
      if (!d || d->opcode() != Op::Variable || d->wordCount() < 4)
        continue;
      const uint32_t storage = d->word(3);
      if (storage != kStorageInput && storage != kStorageOutput)
        continue;
      for (const AppliedDecoration &di : s_.decorations(var)) {
        Instruction deco = m_.inst(di.inst);
        if (di.member == kNoIndex && deco.opcode() == Op::Decorate && deco.wordCount() >= 4 &&
            deco.word(2) == kDecorationBuiltIn)
          place(ep, var, deco.word(3), storage, model);
      }
      // Members of a block (gl_PerVertex and its kind), through per-vertex arrays.
      uint32_t type = s_.pointeeType(d->typeId());
      for (int n = 0; n < 2 && arrayElement(type) != 0; ++n)
        type = arrayElement(type);
      if (s_.defOpcode(type) != Op::TypeStruct)
        continue;
      for (const AppliedDecoration &di : s_.decorations(type)) {
        Instruction deco = m_.inst(di.inst);
        if (deco.opcode() == Op::MemberDecorate && deco.wordCount() >= 5 &&
            deco.word(3) == kDecorationBuiltIn)
          place(ep, var, deco.word(4), storage, model);
      }
    }
  }

  void place(const Instruction &ep, uint32_t var, uint32_t builtin, uint32_t storage,
             uint32_t model) {
    auto rule = rules().find(builtin);
    if (rule == rules().end())
      return;
    const uint32_t allowed = storage == kStorageInput ? rule->second.inputs : rule->second.outputs;
    constexpr uint32_t kFragDepth = uint32_t(grammar::BuiltIn::FragDepth),
                       kModeDepthReplacing = uint32_t(grammar::ExecutionMode::DepthReplacing);
    if (builtin == kFragDepth && (allowed & model) &&
        !s_.hasExecutionMode(ep.word(2), kModeDepthReplacing))
      s_.error(ep.index(), "VUID-FragDepth-FragDepth-04216",
               "an entry point that writes FragDepth declares the DepthReplacing execution mode");
    if (allowed & model)
      return;
    s_.error(ep.index(), std::string("VUID-") + rule->second.name + "-" + rule->second.name,
             std::string("built-in ") + rule->second.name + " (variable " + s_.name(var) +
                 ") cannot be an " + (storage == kStorageInput ? "Input" : "Output") +
                 " of this entry point's execution model");
  }

  State &s_;
  const Module &m_;
  std::unordered_set<uint32_t> usedVariables_, usedStructs_;
};

} // namespace

void checkVulkanBuiltIns(State &s) { BuiltInChecker(s).run(); }

} // namespace spire::val
