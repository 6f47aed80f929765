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
      {0,
       {"Position", Shape::Float4, kTessControl | kTessEval | kGeometry,
        kVertex | kTessControl | kTessEval | kGeometry | kMesh}},
      {1,
       {"PointSize", Shape::Float, kTessControl | kTessEval | kGeometry,
        kVertex | kTessControl | kTessEval | kGeometry | kMesh}},
      {3,
       {"ClipDistance", Shape::FloatArray, kTessControl | kTessEval | kGeometry | kFragment,
        kVertex | kTessControl | kTessEval | kGeometry | kMesh}},
      {4,
       {"CullDistance", Shape::FloatArray, kTessControl | kTessEval | kGeometry | kFragment,
        kVertex | kTessControl | kTessEval | kGeometry | kMesh}},
      {7,
       {"PrimitiveId", Shape::Int, kTessControl | kTessEval | kGeometry | kFragment | kRayTracing,
        kGeometry | kMesh}},
      {8, {"InvocationId", Shape::Int, kTessControl | kGeometry, 0}},
      // Tessellation control outputs them with SPV_NV_viewport_array2 / stereo view rendering.
      {9, {"Layer", Shape::Int, kFragment, kVertex | kTessControl | kTessEval | kGeometry | kMesh}},
      {10,
       {"ViewportIndex", Shape::Int, kFragment,
        kVertex | kTessControl | kTessEval | kGeometry | kMesh}},
      {11, {"TessLevelOuter", Shape::FloatArray4, kTessEval, kTessControl}},
      {12, {"TessLevelInner", Shape::FloatArray2, kTessEval, kTessControl}},
      {13, {"TessCoord", Shape::Float3, kTessEval, 0}},
      {14, {"PatchVertices", Shape::Int, kTessControl | kTessEval, 0}},
      {15, {"FragCoord", Shape::Float4, kFragment, 0}},
      {16, {"PointCoord", Shape::Float2, kFragment, 0}},
      {17, {"FrontFacing", Shape::Bool, kFragment, 0}},
      {18, {"SampleId", Shape::Int, kFragment, 0}},
      {19, {"SamplePosition", Shape::Float2, kFragment, 0}},
      {20, {"SampleMask", Shape::IntArray, kFragment, kFragment}},
      {22, {"FragDepth", Shape::Float, 0, kFragment}},
      {23, {"HelperInvocation", Shape::Bool, kFragment, 0}},
      {24, {"NumWorkgroups", Shape::Int3, kCompute, 0}},
      {26, {"WorkgroupId", Shape::Int3, kCompute, 0}},
      {27, {"LocalInvocationId", Shape::Int3, kCompute, 0}},
      {28, {"GlobalInvocationId", Shape::Int3, kCompute, 0}},
      {29, {"LocalInvocationIndex", Shape::Int, kCompute, 0}},
      {42, {"VertexIndex", Shape::Int, kVertex, 0}},
      {43, {"InstanceIndex", Shape::Int, kVertex, 0}},
      {4424, {"BaseVertex", Shape::Int, kVertex, 0}},
      {4425, {"BaseInstance", Shape::Int, kVertex, 0}},
      {4426, {"DrawIndex", Shape::Int, kVertex | kCompute, 0}},
      {36, {"SubgroupSize", Shape::Int, kAnyShader, 0}},
      {41, {"SubgroupLocalInvocationId", Shape::Int, kAnyShader, 0}},
      {4416, {"SubgroupEqMask", Shape::Int4, kAnyShader, 0}},
      {4417, {"SubgroupGeMask", Shape::Int4, kAnyShader, 0}},
      {4418, {"SubgroupGtMask", Shape::Int4, kAnyShader, 0}},
      {4419, {"SubgroupLeMask", Shape::Int4, kAnyShader, 0}},
      {4420, {"SubgroupLtMask", Shape::Int4, kAnyShader, 0}},
      {38, {"NumSubgroups", Shape::Int, kCompute, 0}},
      {40, {"SubgroupId", Shape::Int, kCompute, 0}},
      {4438, {"DeviceIndex", Shape::Int, kAnyShader, 0}},
      {4440,
       {"ViewIndex", Shape::Int,
        kVertex | kTessControl | kTessEval | kGeometry | kFragment | kMesh | kTask | kRayTracing,
        0}},
      {4432, {"PrimitiveShadingRateKHR", Shape::Int, 0, kVertex | kGeometry | kMesh}},
      {4444, {"ShadingRateKHR", Shape::Int, kFragment, 0}},
      {5014, {"FragStencilRefEXT", Shape::Int, 0, kFragment}},
      {5264, {"FullyCoveredEXT", Shape::Bool, kFragment, 0}},
      {5286, {"BaryCoordKHR", Shape::Float3, kFragment, 0}},
      {5287, {"BaryCoordNoPerspKHR", Shape::Float3, kFragment, 0}},
      {5292, {"FragSizeEXT", Shape::Int2, kFragment, 0}},
      {5293, {"FragInvocationCountEXT", Shape::Int, kFragment, 0}},
      {5299, {"CullPrimitiveEXT", Shape::Bool, 0, kMesh}},
      // Ray tracing (SPV_KHR_ray_tracing).
      {5319, {"LaunchIdKHR", Shape::Int3, kRayTracing, 0}},
      {5320, {"LaunchSizeKHR", Shape::Int3, kRayTracing, 0}},
      {5321, {"WorldRayOriginKHR", Shape::Float3, kHitModels | kMiss, 0}},
      {5322, {"WorldRayDirectionKHR", Shape::Float3, kHitModels | kMiss, 0}},
      {5323, {"ObjectRayOriginKHR", Shape::Float3, kHitModels, 0}},
      {5324, {"ObjectRayDirectionKHR", Shape::Float3, kHitModels, 0}},
      {5325, {"RayTminKHR", Shape::Float, kHitModels | kMiss, 0}},
      {5326, {"RayTmaxKHR", Shape::Float, kHitModels | kMiss, 0}},
      {5327, {"InstanceCustomIndexKHR", Shape::Int, kHitModels, 0}},
      {5330, {"ObjectToWorldKHR", Shape::Float4x3, kHitModels, 0}},
      {5331, {"WorldToObjectKHR", Shape::Float4x3, kHitModels, 0}},
      {5333, {"HitKindKHR", Shape::Int, kAnyHit | kClosestHit, 0}},
      {5351, {"IncomingRayFlagsKHR", Shape::Int, kHitModels | kMiss, 0}},
      {5352, {"RayGeometryIndexKHR", Shape::Int, kHitModels, 0}},
      {6, {"InstanceId", Shape::Int, kHitModels, 0}},
  };
  return kRules;
}

uint32_t modelBit(uint32_t model) {
  switch (model) {
  case 0:
    return kVertex;
  case 1:
    return kTessControl;
  case 2:
    return kTessEval;
  case 3:
    return kGeometry;
  case 4:
    return kFragment;
  case 5:
  case 5267: // TaskNV
  case 5364: // TaskEXT
    return kCompute | kTask;
  case 5268: // MeshNV
  case 5365: // MeshEXT
    return kCompute | kMesh;
  case 5313:
    return kRayGeneration;
  case 5314:
    return kIntersection;
  case 5315:
    return kAnyHit;
  case 5316:
    return kClosestHit;
  case 5317:
    return kMiss;
  case 5318:
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
