// Rules: execution models, execution modes and entry point interfaces (SPIR-V 2.16.1, 3.32.5,
// 3.6 "Execution Model", 3.7 "Execution Mode").
//
// - An execution mode names the function of an OpEntryPoint, and suits that entry point's
//   execution model.
// - Shader fragment entry points declare OriginUpperLeft or OriginLowerLeft; geometry entry points
//   exactly one input primitive and one output primitive.
// - The interface lists global variables only, each once; from SPIR-V 1.4 it lists every global
//   variable the entry point's call tree uses, before 1.4 every Input and Output one.
// - Instructions only some execution models execute (OpKill, implicit-LOD sampling and
//   derivatives, geometry streams, ray tracing, mesh outputs and tasks) appear only in the call
//   trees of those models, and so do instructions with pointers into the storage classes of the
//   ray tracing stages and of task payloads; in Vulkan, so do barriers wider than a subgroup and
//   the Workgroup execution and memory scopes.
// - A module without entry points must declare Linkage.
#include "Rules.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace spire::val {

namespace {

// Execution models (3.6).
enum Model : uint32_t {
  kVertex = uint32_t(grammar::ExecutionModel::Vertex),
  kTessControl = 1,
  kTessEval = 2,
  kGeometry = uint32_t(grammar::ExecutionModel::Geometry),
  kFragment = uint32_t(grammar::ExecutionModel::Fragment),
  kGLCompute = uint32_t(grammar::ExecutionModel::GLCompute),
  kKernel = uint32_t(grammar::ExecutionModel::Kernel),
  kTaskNV = uint32_t(grammar::ExecutionModel::TaskNV),
  kMeshNV = uint32_t(grammar::ExecutionModel::MeshNV),
  kTaskEXT = uint32_t(grammar::ExecutionModel::TaskEXT),
  kMeshEXT = uint32_t(grammar::ExecutionModel::MeshEXT),
};

// Execution modes (3.7) that belong to some models only.
enum Mode : uint32_t {
  kInvocations = uint32_t(grammar::ExecutionMode::Invocations),
  kSpacingEqual = uint32_t(grammar::ExecutionMode::SpacingEqual),
  kSpacingFractionalEven = uint32_t(grammar::ExecutionMode::SpacingFractionalEven),
  kSpacingFractionalOdd = uint32_t(grammar::ExecutionMode::SpacingFractionalOdd),
  kVertexOrderCw = uint32_t(grammar::ExecutionMode::VertexOrderCw),
  kVertexOrderCcw = uint32_t(grammar::ExecutionMode::VertexOrderCcw),
  kPixelCenterInteger = uint32_t(grammar::ExecutionMode::PixelCenterInteger),
  kOriginUpperLeft = uint32_t(grammar::ExecutionMode::OriginUpperLeft),
  kOriginLowerLeft = uint32_t(grammar::ExecutionMode::OriginLowerLeft),
  kEarlyFragmentTests = uint32_t(grammar::ExecutionMode::EarlyFragmentTests),
  kPointMode = uint32_t(grammar::ExecutionMode::PointMode),
  kDepthReplacing = uint32_t(grammar::ExecutionMode::DepthReplacing),
  kDepthGreater = uint32_t(grammar::ExecutionMode::DepthGreater),
  kDepthLess = uint32_t(grammar::ExecutionMode::DepthLess),
  kDepthUnchanged = uint32_t(grammar::ExecutionMode::DepthUnchanged),
  kLocalSize = uint32_t(grammar::ExecutionMode::LocalSize),
  kLocalSizeHint = uint32_t(grammar::ExecutionMode::LocalSizeHint),
  kInputPoints = uint32_t(grammar::ExecutionMode::InputPoints),
  kInputLines = uint32_t(grammar::ExecutionMode::InputLines),
  kInputLinesAdjacency = uint32_t(grammar::ExecutionMode::InputLinesAdjacency),
  kTriangles = uint32_t(grammar::ExecutionMode::Triangles),
  kInputTrianglesAdjacency = uint32_t(grammar::ExecutionMode::InputTrianglesAdjacency),
  kQuads = uint32_t(grammar::ExecutionMode::Quads),
  kIsolines = uint32_t(grammar::ExecutionMode::Isolines),
  kOutputVertices = uint32_t(grammar::ExecutionMode::OutputVertices),
  kOutputPoints = uint32_t(grammar::ExecutionMode::OutputPoints),
  kOutputLineStrip = uint32_t(grammar::ExecutionMode::OutputLineStrip),
  kOutputTriangleStrip = uint32_t(grammar::ExecutionMode::OutputTriangleStrip),
  kVecTypeHint = uint32_t(grammar::ExecutionMode::VecTypeHint),
  kContractionOff = uint32_t(grammar::ExecutionMode::ContractionOff),
  kLocalSizeId = uint32_t(grammar::ExecutionMode::LocalSizeId),
  kLocalSizeHintId = uint32_t(grammar::ExecutionMode::LocalSizeHintId),
  kOutputLinesEXT = uint32_t(grammar::ExecutionMode::OutputLinesEXT),
  kOutputPrimitivesEXT = uint32_t(grammar::ExecutionMode::OutputPrimitivesEXT),
  kOutputTrianglesEXT = uint32_t(grammar::ExecutionMode::OutputTrianglesEXT),
};

constexpr uint32_t kCapabilityShader = uint32_t(grammar::Capability::Shader),
                   kCapabilityLinkage = uint32_t(grammar::Capability::Linkage);
constexpr uint32_t kStorageInput = uint32_t(grammar::StorageClass::Input),
                   kStorageOutput = uint32_t(grammar::StorageClass::Output),
                   kStorageFunction = uint32_t(grammar::StorageClass::Function);

bool isTessellation(uint32_t m) { return m == kTessControl || m == kTessEval; }
bool isMesh(uint32_t m) { return m == kMeshNV || m == kMeshEXT; }
bool isComputeLike(uint32_t m) {
  return m == kGLCompute || m == kKernel || m == kTaskNV || m == kMeshNV || m == kTaskEXT ||
         m == kMeshEXT;
}

// Whether mode `mode` may be declared for an entry point of model `model`; true for modes this
// table does not know.
bool modeSuitsModel(uint32_t mode, uint32_t model) {
  switch (mode) {
  case kOriginUpperLeft:
  case kOriginLowerLeft:
  case kPixelCenterInteger:
  case kEarlyFragmentTests:
  case kDepthReplacing:
  case kDepthGreater:
  case kDepthLess:
  case kDepthUnchanged:
    return model == kFragment;
  case kInvocations:
  case kInputPoints:
  case kInputLines:
  case kInputLinesAdjacency:
  case kInputTrianglesAdjacency:
  case kOutputLineStrip:
  case kOutputTriangleStrip:
    return model == kGeometry;
  case kTriangles:
    return model == kGeometry || isTessellation(model);
  case kOutputPoints:
    return model == kGeometry || isMesh(model);
  case kOutputLinesEXT: // and the NV modes of the same values
  case kOutputPrimitivesEXT:
  case kOutputTrianglesEXT:
    return isMesh(model);
  case kOutputVertices:
    return model == kGeometry || isTessellation(model) || isMesh(model);
  case kSpacingEqual:
  case kSpacingFractionalEven:
  case kSpacingFractionalOdd:
  case kVertexOrderCw:
  case kVertexOrderCcw:
  case kPointMode:
  case kQuads:
  case kIsolines:
    return isTessellation(model);
  case kLocalSize:
  case kLocalSizeId:
  case kLocalSizeHint:
  case kLocalSizeHintId:
    return isComputeLike(model);
  case kVecTypeHint:
  case kContractionOff:
    return model == kKernel;
  default:
    return true;
  }
}

class ModesChecker {
public:
  explicit ModesChecker(State &s)
      : s_(s), m_(s.module()), vulkanMemoryModel_(s.isVulkanMemoryModel()) {}

  void run() {
    checkModeTargets();
    // SPV_ARM_graph: a module that declares GraphARM is entered by its graph entry points, and
    // needs one (it may have no OpEntryPoint then).
    const bool graphs = s_.hasCapability(uint32_t(grammar::Capability::GraphARM));
    if (graphs && std::none_of(m_.begin(), m_.end(), [](Instruction inst) {
          return inst.opcode() == Op::GraphEntryPointARM;
        }))
      s_.error(kNoIndex, "2.16.1",
               "the module declares the GraphARM capability but has no OpGraphEntryPointARM");
    if (s_.entryPoints().empty()) {
      if (!s_.hasCapability(kCapabilityLinkage) && !graphs)
        s_.error(kNoIndex, "2.16.1",
                 "the module has no OpEntryPoint; only a module that declares the Linkage "
                 "capability may have none");
      return;
    }
    for (uint32_t index : s_.entryPoints()) {
      if (s_.stopped())
        return;
      entryPoint(m_.inst(index));
    }
    checkCallTrees();
  }

private:
  // Checks each OpExecutionMode(Id) names the function of an entry point and suits its model.
  void checkModeTargets() {
    std::unordered_map<uint32_t, std::vector<uint32_t>> models; // function -> models
    for (uint32_t index : s_.entryPoints()) {
      Instruction ep = m_.inst(index);
      if (ep.wordCount() >= 3)
        models[ep.word(2)].push_back(ep.word(1));
    }
    for (Instruction inst : m_) {
      if (inst.isRaw() ||
          (inst.opcode() != Op::ExecutionMode && inst.opcode() != Op::ExecutionModeId) ||
          inst.wordCount() < 3)
        continue;
      const uint32_t fn = inst.word(1), mode = inst.word(2);
      modeInstructions_[fn].push_back(inst.index());
      modeOperands(inst);
      auto it = models.find(fn);
      if (it == models.end()) {
        s_.error(inst.index(), "3.32.5",
                 "the execution mode names " + s_.name(fn) +
                     ", which is not the function of any OpEntryPoint");
        continue;
      }
      for (uint32_t model : it->second)
        if (!modeSuitsModel(mode, model)) {
          s_.error(inst.index(), "3.7",
                   "execution mode " +
                       State::enumerantName(grammar::OperandKind::ExecutionMode, mode) +
                       " does not apply to the " +
                       State::enumerantName(grammar::OperandKind::ExecutionModel, model) +
                       " execution model of " + s_.name(fn));
          break;
        }
    }
  }

  // OpExecutionMode takes the modes whose Extra Operands are literals, OpExecutionModeId those
  // whose are ids, and those ids are constant instructions (3.32.5).
  void modeOperands(const Instruction &inst) {
    const grammar::EnumerantDesc *e =
        grammar::findEnumerant(grammar::OperandKind::ExecutionMode, inst.word(2));
    if (e == nullptr)
      return;
    const bool idOperands =
        std::any_of(e->parameters.begin(), e->parameters.end(), [](const grammar::OperandDesc &o) {
          return o.kind == grammar::OperandKind::IdRef;
        });
    const bool byId = inst.opcode() == Op::ExecutionModeId;
    if (byId != idOperands && !e->parameters.empty()) {
      s_.error(inst.index(), "3.32.5",
               "execution mode " + std::string(e->name) + " takes " +
                   (idOperands ? "ids: it is given by OpExecutionModeId"
                               : "literals: it is given by OpExecutionMode"));
      return;
    }
    if (!byId)
      return;
    for (uint32_t w = 3; w < inst.wordCount(); ++w) {
      const Op def = s_.defOpcode(inst.word(w));
      const grammar::InstructionDesc *d = grammar::findInstruction(static_cast<uint32_t>(def));
      // The AMDX string constants (node names) are constants of the grammar's "Reserved" class.
      const bool amdxString = def == Op::ConstantStringAMDX || def == Op::SpecConstantStringAMDX;
      if (!amdxString && (d == nullptr || d->cls != grammar::InstructionClass::ConstantCreation)) {
        s_.error(inst.index(), "3.32.5",
                 "the Extra Operands of OpExecutionModeId must be constant instructions, " +
                     s_.name(inst.word(w)) + " is none");
        return;
      }
    }
  }

  // The rules on the set of an entry point's execution modes (2.16.1, 2.16.2, 3.6 "Execution
  // Mode"): a mode at most once (the float controls once per Target Width), at most one local
  // size, one denormal mode and one rounding mode per width, one depth mode for fragments, one
  // spacing, one primitive and one vertex order for tessellation; a static workgroup size is not
  // zero.
  void modeSets(const Instruction &ep, uint32_t model, uint32_t fn) {
    constexpr uint32_t kDenormPreserve = uint32_t(grammar::ExecutionMode::DenormPreserve),
                       kDenormFlushToZero = uint32_t(grammar::ExecutionMode::DenormFlushToZero),
                       kRoundingModeRTE = uint32_t(grammar::ExecutionMode::RoundingModeRTE),
                       kRoundingModeRTZ = uint32_t(grammar::ExecutionMode::RoundingModeRTZ),
                       kFirstVendorMode = 4096;
    // The model-independent rules once per function, which several entry points may share.
    const bool first = modesChecked_.insert(fn).second;
    std::set<std::pair<uint32_t, uint32_t>> seen; // (mode, target width)
    std::map<uint32_t, int> denorm, rounding;     // per target width
    for (uint32_t index : modeInstructions_[fn]) {
      const Instruction inst = m_.inst(index);
      const uint32_t mode = inst.word(2);
      const bool perWidth = mode >= kDenormPreserve && mode <= kRoundingModeRTZ;
      const uint32_t width = perWidth && inst.wordCount() > 3 ? inst.word(3) : 0;
      if ((mode < kFirstVendorMode || perWidth) && !seen.insert({mode, width}).second && first)
        s_.error(index, "3.6",
                 "execution mode " +
                     State::enumerantName(grammar::OperandKind::ExecutionMode, mode) +
                     " is applied to " + s_.name(fn) + " more than once" +
                     (perWidth ? " for Target Width " + std::to_string(width) : std::string()));
      if (mode == kDenormPreserve || mode == kDenormFlushToZero)
        ++denorm[width];
      if (mode == kRoundingModeRTE || mode == kRoundingModeRTZ)
        ++rounding[width];
    }
    if (!first)
      denorm.clear(), rounding.clear();
    for (auto [width, n] : denorm)
      if (n > 1)
        s_.error(ep.index(), "2.16.1",
                 "an entry point sets at most one of DenormFlushToZero and DenormPreserve for "
                 "Target Width " +
                     std::to_string(width));
    for (auto [width, n] : rounding)
      if (n > 1)
        s_.error(ep.index(), "2.16.1",
                 "an entry point sets at most one of RoundingModeRTE and RoundingModeRTZ for "
                 "Target Width " +
                     std::to_string(width));
    // 2.16.1 says "at most one of LocalSize, LocalSizeId, LocalSizeHint, or LocalSizeHintId", but
    // clang and the OpenCL translator give a kernel with reqd_work_group_size and
    // work_group_size_hint both LocalSize and LocalSizeHint (spirv-val accepts it): a size and a
    // hint may go together, two sizes or two hints may not.
    if (first && countModes(fn, {kLocalSize, kLocalSizeId}) > 1)
      s_.error(ep.index(), "2.16.1",
               "an entry point contains at most one of the LocalSize and LocalSizeId execution "
               "modes");
    if (first && countModes(fn, {kLocalSizeHint, kLocalSizeHintId}) > 1)
      s_.error(ep.index(), "2.16.1",
               "an entry point contains at most one of the LocalSizeHint and LocalSizeHintId "
               "execution modes");
    if (model == kFragment && countModes(fn, {kDepthGreater, kDepthLess, kDepthUnchanged}) > 1)
      s_.error(ep.index(), "2.16.2",
               "a fragment entry point sets at most one of DepthGreater, DepthLess and "
               "DepthUnchanged");
    if (isTessellation(model)) {
      if (countModes(fn, {kSpacingEqual, kSpacingFractionalEven, kSpacingFractionalOdd}) > 1)
        s_.error(ep.index(), "2.16.2",
                 "a tessellation entry point sets at most one of SpacingEqual, "
                 "SpacingFractionalEven and SpacingFractionalOdd");
      if (countModes(fn, {kTriangles, kQuads, kIsolines}) > 1)
        s_.error(ep.index(), "2.16.2",
                 "a tessellation entry point sets at most one of Triangles, Quads and Isolines");
      if (countModes(fn, {kVertexOrderCw, kVertexOrderCcw}) > 1)
        s_.error(ep.index(), "2.16.2",
                 "a tessellation entry point sets at most one of VertexOrderCw and "
                 "VertexOrderCcw");
    }
    if (first)
      workgroupSizeNotZero(ep, fn);
  }

  // "If the workgroup size is statically specified (using the LocalSize, LocalSizeId execution
  // modes, or the WorkgroupSize BuiltIn), the product of all workgroup size dimensions must not be
  // zero" (2.16.1; specialization constants are not static).
  void workgroupSizeNotZero(const Instruction &ep, uint32_t fn) {
    for (uint32_t index : modeInstructions_[fn]) {
      const Instruction inst = m_.inst(index);
      const uint32_t mode = inst.word(2);
      if ((mode != kLocalSize && mode != kLocalSizeId) || inst.wordCount() < 6)
        continue;
      for (uint32_t w = 3; w < 6; ++w) {
        std::optional<uint64_t> v = inst.word(w);
        if (mode == kLocalSizeId)
          v = s_.defOpcode(inst.word(w)) == Op::Constant ? s_.constantValue(inst.word(w))
                                                         : std::nullopt;
        if (v == 0u) {
          s_.error(ep.index(), "2.16.1",
                   "the workgroup size of " + s_.name(fn) +
                       " is zero in a dimension; the product of its dimensions must not be zero");
          return;
        }
      }
    }
  }

  // SPV_KHR_workgroup_memory_explicit_layout: "If any variable in the Workgroup Storage Class is
  // decorated Block, then all variables in the Workgroup Storage Class in the entry point's
  // interface must be" (spirv-val: "either all or none of the Workgroup Storage Class variables
  // in the entry point interface must point to struct types decorated with Block").
  void explicitLayoutBlocks(const Instruction &ep) {
    if (!s_.hasCapability(grammar::Capability::WorkgroupMemoryExplicitLayoutKHR))
      return;
    constexpr uint32_t kStorageWorkgroup = uint32_t(grammar::StorageClass::Workgroup);
    size_t blocks = 0, others = 0;
    auto ops = ep.operands();
    for (size_t k = 3; k < ops.size(); ++k) {
      const uint32_t id = ep.word(ops[k].offset);
      if (s_.defOpcode(id) != Op::Variable || s_.storageClass(s_.typeOf(id)) != kStorageWorkgroup)
        continue;
      const uint32_t pointee = s_.pointeeType(s_.typeOf(id));
      const bool block = s_.defOpcode(pointee) == Op::TypeStruct &&
                         s_.hasDecoration(pointee, uint32_t(grammar::Decoration::Block));
      ++(block ? blocks : others);
    }
    if (blocks != 0 && others != 0)
      s_.error(ep.index(), "SPV_KHR_workgroup_memory_explicit_layout",
               "either all or none of the entry point's Workgroup variables are Block structures "
               "(here " +
                   std::to_string(blocks) + " are, " + std::to_string(others) + " are not)");
  }

  // How many of the execution modes of `fn` are among `any`.
  size_t countModes(uint32_t fn, std::initializer_list<uint32_t> any) const {
    auto modes = s_.executionModes(fn);
    return std::count_if(modes.begin(), modes.end(), [&](uint32_t m) {
      return std::find(any.begin(), any.end(), m) != any.end();
    });
  }

  // 2.16.1: "There must be no more than one object per Storage Class that contains a structure
  // type containing members decorated with BuiltIn, consumed per entry point." Like spirv-val,
  // this counts the interface variables that are such structures themselves: arrays of them
  // (gl_in[], mesh shaders' per-vertex and per-primitive outputs) are not counted.
  void builtInBlocks(const Instruction &ep) {
    constexpr uint32_t kBuiltIn = uint32_t(grammar::Decoration::BuiltIn);
    auto ops = ep.operands();
    std::unordered_set<uint32_t> inputs, outputs;
    for (size_t k = 3; k < ops.size(); ++k) {
      const uint32_t id = ep.word(ops[k].offset);
      std::optional<Instruction> d = s_.def(id);
      if (!d || d->opcode() != Op::Variable || d->wordCount() < 4 ||
          (d->word(3) != kStorageInput && d->word(3) != kStorageOutput))
        continue;
      const uint32_t type = s_.pointeeType(d->word(1));
      std::optional<Instruction> st = s_.def(type);
      if (!st || st->isRaw() || st->opcode() != Op::TypeStruct)
        continue;
      bool builtIn = false;
      for (uint32_t member = 0; member + 2 < st->wordCount() && !builtIn; ++member)
        builtIn = s_.hasDecoration(type, kBuiltIn, static_cast<int>(member));
      if (builtIn)
        (d->word(3) == kStorageInput ? inputs : outputs).insert(id);
    }
    for (const auto *set : {&inputs, &outputs})
      if (set->size() > 1)
        s_.error(ep.index(), "2.16.1",
                 "the entry point consumes " + std::to_string(set->size()) + " " +
                     (set == &inputs ? "Input" : "Output") +
                     " structures with BuiltIn members; there must be at most one per storage "
                     "class");
  }

  // OpEntryPoint Model %function "name" %interface...
  void entryPoint(const Instruction &ep) {
    auto ops = ep.operands();
    if (ops.size() < 3 || ep.wordCount() < 3)
      return;
    const uint32_t model = ep.word(1), fn = ep.word(2);
    modeSets(ep, model, fn);
    const bool shader = s_.hasCapability(kCapabilityShader);
    if (model == kFragment && shader && countModes(fn, {kOriginUpperLeft, kOriginLowerLeft}) != 1)
      s_.error(ep.index(), "3.7",
               "a fragment entry point must declare exactly one of the OriginUpperLeft and "
               "OriginLowerLeft execution modes");
    if (model == kGeometry) {
      if (countModes(fn, {kInputPoints, kInputLines, kInputLinesAdjacency, kTriangles,
                          kInputTrianglesAdjacency}) != 1)
        s_.error(ep.index(), "3.7",
                 "a geometry entry point must declare exactly one input primitive mode "
                 "(InputPoints, InputLines, InputLinesAdjacency, Triangles, "
                 "InputTrianglesAdjacency)");
      if (countModes(fn, {kOutputPoints, kOutputLineStrip, kOutputTriangleStrip}) != 1)
        s_.error(ep.index(), "3.7",
                 "a geometry entry point must declare exactly one output primitive mode "
                 "(OutputPoints, OutputLineStrip, OutputTriangleStrip)");
    }
    if (model == kMeshEXT && shader) {
      // SPV_EXT_mesh_shader, "Entry point and execution model": exactly one output primitive
      // mode, and both OutputPrimitivesEXT and OutputVertices.
      if (countModes(fn, {kOutputPoints, kOutputLinesEXT, kOutputTrianglesEXT}) != 1)
        s_.error(ep.index(), "SPV_EXT_mesh_shader",
                 "a MeshEXT entry point must declare exactly one of the OutputPoints, "
                 "OutputLinesEXT and OutputTrianglesEXT execution modes");
      if (countModes(fn, {kOutputPrimitivesEXT}) == 0 || countModes(fn, {kOutputVertices}) == 0)
        s_.error(ep.index(), "SPV_EXT_mesh_shader",
                 "a MeshEXT entry point must declare both the OutputPrimitivesEXT and "
                 "OutputVertices execution modes");
      // VUID-StandaloneSpirv-MeshEXT-07330 / -07331: in Vulkan a mesh shader writes at least
      // one vertex and one primitive.
      if (s_.isVulkan())
        for (uint32_t index : modeInstructions_[fn]) {
          const Instruction inst = m_.inst(index);
          const uint32_t mode = inst.word(2);
          if ((mode == kOutputVertices || mode == kOutputPrimitivesEXT) && inst.wordCount() > 3 &&
              inst.word(3) == 0)
            s_.error(index,
                     mode == kOutputVertices ? "VUID-StandaloneSpirv-MeshEXT-07330"
                                             : "VUID-StandaloneSpirv-MeshEXT-07331",
                     "a MeshEXT entry point's " +
                         State::enumerantName(grammar::OperandKind::ExecutionMode, mode) +
                         " must be greater than 0 in Vulkan");
        }
    }
    if (model == kMeshEXT || model == kTaskEXT) {
      // "Each OpEntryPoint with the MeshEXT or TaskEXT Execution Models can have at most one
      // global OpVariable of storage class TaskPayloadWorkgroupEXT" (spirv-val 2023.1 accepts
      // two).
      constexpr uint32_t kStorageTaskPayloadWorkgroup =
          uint32_t(grammar::StorageClass::TaskPayloadWorkgroupEXT);
      size_t payloads = 0;
      std::unordered_set<uint32_t> counted;
      for (size_t k = 3; k < ops.size(); ++k) {
        const uint32_t id = ep.word(ops[k].offset);
        if (s_.defOpcode(id) == Op::Variable &&
            s_.storageClass(s_.typeOf(id)) == kStorageTaskPayloadWorkgroup &&
            counted.insert(id).second)
          ++payloads;
      }
      if (payloads > 1)
        s_.error(ep.index(), "SPV_EXT_mesh_shader",
                 "a MeshEXT or TaskEXT entry point may have at most one TaskPayloadWorkgroupEXT "
                 "variable");
    }
    explicitLayoutBlocks(ep);
    builtInBlocks(ep);
    std::unordered_set<uint32_t> seen;
    for (size_t k = 3; k < ops.size(); ++k) {
      const uint32_t id = ep.word(ops[k].offset);
      std::optional<Instruction> d = s_.def(id);
      // (Untyped variables, SPV_KHR_untyped_pointers, are variables too.)
      if (!d || (d->opcode() != Op::Variable && d->opcode() != Op::UntypedVariableKHR)) {
        s_.error(ep.index(), "3.32.5",
                 "interface " + s_.name(id) + " is not a variable: the interface lists " +
                     "global OpVariables only");
        continue;
      }
      if (d->wordCount() >= 4 && d->word(3) == kStorageFunction) {
        s_.error(ep.index(), "3.32.5",
                 "interface " + s_.name(id) + " is a Function variable, not a global one");
        continue;
      }
      // "Before version 1.4, the interface's storage classes are limited to the Input and Output
      // storage classes."
      using grammar::StorageClass;
      if (d->wordCount() >= 4 && m_.version() < grammar::makeVersion(1, 4) &&
          d->word(3) != uint32_t(StorageClass::Input) &&
          d->word(3) != uint32_t(StorageClass::Output)) {
        s_.error(ep.index(), "3.32.5",
                 "interface " + s_.name(id) + " is a " +
                     State::enumerantName(grammar::OperandKind::StorageClass, d->word(3)) +
                     " variable: before SPIR-V 1.4 the interface lists Input and Output "
                     "variables only");
        continue;
      }
      if (!seen.insert(id).second && m_.version() >= grammar::makeVersion(1, 4))
        s_.error(ep.index(), "3.32.5", "interface " + s_.name(id) + " is listed twice");
    }
  }

  // Per function, the instructions that only some execution models may execute.
  void collectRestricted() {
    // Only modules that may declare those storage classes look for pointers into them.
    constexpr uint32_t kCapabilityRayTracingNV = uint32_t(grammar::Capability::RayTracingNV),
                       kCapabilityRayTracingKHR = uint32_t(grammar::Capability::RayTracingKHR),
                       kCapabilityMeshShadingEXT = uint32_t(grammar::Capability::MeshShadingEXT);
    const bool stageStorage = s_.hasCapability(kCapabilityRayTracingKHR) ||
                              s_.hasCapability(kCapabilityRayTracingNV) ||
                              s_.hasCapability(kCapabilityMeshShadingEXT);
    const auto fns = m_.functions();
    restricted_.resize(fns.size());
    for (uint32_t f = 0; f < fns.size(); ++f)
      for (uint32_t i = fns[f].begin; i < fns[f].end; ++i) {
        Instruction inst = m_.inst(i);
        if (inst.isRaw())
          continue;
        if (const Restriction *r = fixedRestriction(static_cast<uint32_t>(inst.opcode())))
          restricted_[f].push_back({i, r});
        if (inst.opcode() == Op::ControlBarrier && m_.version() < grammar::makeVersion(1, 3))
          restricted_[f].push_back({i, earlyBarrier()});
        if (s_.isVulkan()) {
          vulkanScopes(inst, i, restricted_[f]);
          vulkanStorageUses(inst, i, restricted_[f]);
        }
        if (stageStorage)
          stageStorageClasses(inst, i, restricted_[f]);
        if (inst.opcode() == Op::ExtInst && isGlslInterpolation(inst))
          restricted_[f].push_back({i, interpolation()});
      }
  }

  // For each entry point: every global variable of its call tree is in its interface (1.4+:
  // every storage class; before: Input and Output), and every instruction of its call tree may
  // run in its execution model.
  void checkCallTrees() {
    collectRestricted();
    const CallGraph &graph = s_.callGraph();
    const bool allClasses = m_.version() >= grammar::makeVersion(1, 4);
    std::unordered_set<uint64_t> reportedRestricted; // (instruction, model)
    for (uint32_t index : s_.entryPoints()) {
      if (s_.stopped())
        return;
      Instruction ep = m_.inst(index);
      auto ops = ep.operands();
      if (ops.size() < 2)
        continue;
      const uint32_t root = graph.function(ep.word(2));
      if (root == kNoIndex)
        continue;
      const uint32_t model = ep.word(1), fn = ep.word(2);
      std::unordered_set<uint32_t> listed;
      for (size_t k = 3; k < ops.size(); ++k)
        listed.insert(ep.word(ops[k].offset));
      std::unordered_set<uint32_t> reported;
      for (uint32_t f : graph.reachable(root)) {
        for (uint32_t g : graph.globals(f)) {
          if (listed.count(g) || !reported.insert(g).second)
            continue;
          std::optional<uint32_t> sc = s_.storageClass(s_.typeOf(g));
          if (!allClasses && (!sc || (*sc != kStorageInput && *sc != kStorageOutput)))
            continue;
          s_.error(index, allClasses ? "2.16.1 (SPIR-V 1.4)" : "2.16.1",
                   "the entry point uses global variable " + s_.name(g) +
                       " but its interface does not list it");
          if (s_.stopped())
            return;
        }
        for (auto [i, r] : restricted_[f]) {
          if (r->allows(*this, model, fn) ||
              !reportedRestricted.insert(uint64_t(i) << 32 | model).second)
            continue;
          const grammar::InstructionDesc *desc = m_.inst(i).desc();
          s_.error(i, r->rule,
                   std::string(desc ? desc->name : r->what) + " cannot run in the " +
                       State::enumerantName(grammar::OperandKind::ExecutionModel, model) +
                       " entry point " + s_.name(fn) + "; " + r->where);
          if (s_.stopped())
            return;
        }
      }
    }
  }

  // Instructions that only some execution models may execute (3.32 instruction descriptions).
  struct Restriction {
    const char *what;
    const char *where;
    const char *rule;
    bool (*allowsModel)(const ModesChecker &, uint32_t model, uint32_t fn);
    bool allows(const ModesChecker &c, uint32_t model, uint32_t fn) const {
      return allowsModel(c, model, fn);
    }
  };

  // Derivatives are for Fragment (3.32.16); SPV_NV/KHR_compute_shader_derivatives: "The new
  // ComputeDerivativeGroupQuads and ComputeDerivativeGroupLinear capabilities enable the use of
  // OpImageQueryLod, the ImplicitLod instructions, and the Derivative instructions" in the models
  // with defined workgroups, the DerivativeGroup execution modes being optional ("if neither
  // derivative group mode was specified, the derivatives return zero"; spirv-val v2026.4 no
  // longer asks for one). spirv-val v2026.4 allows them without the capabilities too, which the
  // text does not (known-reference-bugs.txt).
  static bool derivativesAllowed(const ModesChecker &c, uint32_t model, uint32_t) {
    using grammar::Capability;
    return model == kFragment ||
           (isComputeLike(model) && model != kKernel &&
            (c.s_.hasCapability(Capability::ComputeDerivativeGroupQuadsKHR) ||
             c.s_.hasCapability(Capability::ComputeDerivativeGroupLinearKHR)));
  }

  // The value of a Scope <id> that is a constant, or nothing.
  std::optional<uint64_t> scopeValue(uint32_t id) const {
    return s_.defOpcode(id) == Op::Constant ? s_.constantValue(id) : std::nullopt;
  }

  // GLSL.std.450 InterpolateAtCentroid, InterpolateAtSample, InterpolateAtOffset.
  bool isGlslInterpolation(const Instruction &inst) const {
    if (inst.wordCount() < 5 || inst.word(4) < 76 || inst.word(4) > 78)
      return false;
    const binary::ExtInstImport import = m_.extInstImport(inst.word(3));
    return import.set && import.set->key == "glsl.std.450";
  }

  // OpControlBarrier: "Before version 1.3, it is only valid to use this instruction with
  // TessellationControl, GLCompute, or Kernel execution models" (and the NV task and mesh ones,
  // as spirv-val allows).
  static const Restriction *earlyBarrier() {
    static const Restriction kEarlyBarrier{
        "OpControlBarrier",
        "before SPIR-V 1.3 it is for TessellationControl, GLCompute and Kernel entry points only",
        "3.32.20", [](const ModesChecker &, uint32_t model, uint32_t) {
          return model == kTessControl || model == kGLCompute || model == kKernel ||
                 model == kTaskNV || model == kMeshNV;
        }};
    return &kEarlyBarrier;
  }

  static const Restriction *interpolation() {
    static const Restriction kInterpolation{
        "GLSL.std.450 interpolation",
        "GLSL.std.450 InterpolateAt* is for Fragment entry points only",
        "extended instruction sets",
        [](const ModesChecker &, uint32_t model, uint32_t) { return model == kFragment; }};
    return &kInterpolation;
  }

  static bool workgroupModel(uint32_t model) {
    return model == kTessControl || model == kGLCompute || model == kTaskNV || model == kMeshNV ||
           model == kTaskEXT || model == kMeshEXT;
  }

  // Vulkan's limits on scopes by execution model (VUID-StandaloneSpirv-OpControlBarrier-04682,
  // -None-04637, -None-07321): barriers outside compute-like and tessellation control models
  // synchronize subgroups only, and only those models have workgroups.
  // Vulkan's storage classes by execution model: "If the Storage Class is Workgroup, then it must
  // only be used in the task, mesh, or compute Execution Model" (VUID-StandaloneSpirv-None-04645:
  // any instruction with a Workgroup pointer operand), and "In mesh shaders using the MeshEXT
  // Execution Model all variables declared as output must not be read from" (-MeshEXT-07107: a
  // load through an Output pointer).
  void vulkanStorageUses(const Instruction &inst, uint32_t index,
                         std::vector<std::pair<uint32_t, const Restriction *>> &out) const {
    static const Restriction kWorkgroupStorage{
        "an instruction on Workgroup memory",
        "in Vulkan the Workgroup storage class is for GLCompute, Task and Mesh entry points only",
        "VUID-StandaloneSpirv-None-04645", [](const ModesChecker &, uint32_t model, uint32_t) {
          return model == kGLCompute || model == kTaskNV || model == kMeshNV || model == kTaskEXT ||
                 model == kMeshEXT;
        }};
    static const Restriction kMeshOutputRead{
        "a load from Output memory", "MeshEXT entry points do not read their outputs",
        "VUID-StandaloneSpirv-MeshEXT-07107",
        [](const ModesChecker &, uint32_t model, uint32_t) { return model != kMeshEXT; }};
    for (const binary::Operand &o : inst.operands()) {
      if (o.kind != grammar::OperandKind::IdRef)
        continue;
      if (s_.storageClass(s_.typeOf(inst.word(o.offset))) ==
          uint32_t(grammar::StorageClass::Workgroup)) {
        out.push_back({index, &kWorkgroupStorage});
        break;
      }
    }
    if (inst.opcode() == Op::Load && inst.wordCount() > 3 &&
        s_.storageClass(s_.typeOf(inst.word(3))) == kStorageOutput)
      out.push_back({index, &kMeshOutputRead});
  }

  void vulkanScopes(const Instruction &inst, uint32_t index,
                    std::vector<std::pair<uint32_t, const Restriction *>> &out) const {
    static const Restriction kBarrierSubgroup{
        "OpControlBarrier",
        "in Vulkan its execution scope must be Subgroup in Fragment, Vertex, Geometry, "
        "TessellationEvaluation and ray tracing entry points",
        "VUID-StandaloneSpirv-OpControlBarrier-04682",
        [](const ModesChecker &, uint32_t model, uint32_t) {
          return !(model == kVertex || model == kTessEval || model == kGeometry ||
                   model == kFragment ||
                   (model >= uint32_t(grammar::ExecutionModel::RayGenerationKHR) &&
                    model <= uint32_t(grammar::ExecutionModel::CallableKHR)));
        }};
    static const Restriction kWorkgroupExecution{
        "an instruction with the Workgroup execution scope",
        "in Vulkan the Workgroup execution scope is for TessellationControl, GLCompute, Task and "
        "Mesh entry points only",
        "VUID-StandaloneSpirv-None-04637",
        [](const ModesChecker &, uint32_t model, uint32_t) { return workgroupModel(model); }};
    static const Restriction kWorkgroupMemory{
        "an instruction with the Workgroup memory scope",
        "in Vulkan the Workgroup memory scope is for GLCompute, Task and Mesh entry points, and "
        "TessellationControl ones under the Vulkan memory model",
        "VUID-StandaloneSpirv-None-07321 / -ExecutionModel-07320",
        [](const ModesChecker &c, uint32_t model, uint32_t) {
          return workgroupModel(model) && (model != kTessControl || c.vulkanMemoryModel_);
        }};
    static const Restriction kShaderCallMemory{
        "an instruction with the ShaderCallKHR memory scope",
        "in Vulkan the ShaderCallKHR memory scope is for the ray tracing entry points only",
        "VUID-StandaloneSpirv-None-04640", [](const ModesChecker &, uint32_t model, uint32_t) {
          return model >= uint32_t(grammar::ExecutionModel::RayGenerationKHR) &&
                 model <= uint32_t(grammar::ExecutionModel::CallableKHR);
        }};
    constexpr uint64_t kScopeWorkgroup = uint32_t(grammar::Scope::Workgroup),
                       kScopeSubgroup = uint32_t(grammar::Scope::Subgroup),
                       kScopeShaderCall = uint32_t(grammar::Scope::ShaderCallKHR);
    const uint32_t op = static_cast<uint32_t>(inst.opcode());
    // The execution scope: OpControlBarrier's first operand, the third word of the group
    // instructions.
    uint32_t executionWord = 0;
    if (inst.opcode() == Op::ControlBarrier)
      executionWord = 1;
    else if ((op >= uint32_t(Op::GroupAll) && op <= uint32_t(Op::GroupSMax)) ||
             (op >= uint32_t(Op::GroupNonUniformElect) &&
              op <= uint32_t(Op::GroupNonUniformQuadSwap)) ||
             (op >= uint32_t(Op::GroupIMulKHR) && op <= uint32_t(Op::GroupLogicalXorKHR)))
      executionWord = 3;
    std::optional<uint64_t> execution;
    if (executionWord != 0 && inst.wordCount() > executionWord)
      execution = scopeValue(inst.word(executionWord));
    if (inst.opcode() == Op::ControlBarrier && execution && *execution != kScopeSubgroup)
      out.push_back({index, &kBarrierSubgroup});
    if (execution == kScopeWorkgroup)
      out.push_back({index, &kWorkgroupExecution});
    for (const binary::Operand &o : inst.operands()) {
      if (o.kind != grammar::OperandKind::IdScope || o.offset == executionWord)
        continue;
      const std::optional<uint64_t> memory = scopeValue(inst.word(o.offset));
      if (memory == kScopeWorkgroup || memory == kScopeShaderCall) {
        out.push_back({index, memory == kScopeWorkgroup ? &kWorkgroupMemory : &kShaderCallMemory});
        return;
      }
    }
  }

  // The storage classes of SPV_KHR_ray_tracing and SPV_EXT_mesh_shader that only some stages
  // have ("Only valid in the ... execution models"): an instruction with an operand that points
  // into one runs only in those stages (so does spirv-val, for each instruction it counts as a
  // consumer of the storage class).
  void stageStorageClasses(const Instruction &inst, uint32_t index,
                           std::vector<std::pair<uint32_t, const Restriction *>> &out) const {
    enum : uint32_t {
      kRayGeneration = uint32_t(grammar::ExecutionModel::RayGenerationKHR),
      kIntersection = uint32_t(grammar::ExecutionModel::IntersectionKHR),
      kAnyHit = uint32_t(grammar::ExecutionModel::AnyHitKHR),
      kClosestHit = uint32_t(grammar::ExecutionModel::ClosestHitKHR),
      kMiss = uint32_t(grammar::ExecutionModel::MissKHR),
      kCallable = uint32_t(grammar::ExecutionModel::CallableKHR),
    };
    static const Restriction kCallableData{
        "this instruction",
        "CallableDataKHR is for RayGenerationKHR, ClosestHitKHR, CallableKHR and MissKHR entry "
        "points only",
        "SPV_KHR_ray_tracing", [](const ModesChecker &, uint32_t model, uint32_t) {
          return model == kRayGeneration || model == kClosestHit || model == kCallable ||
                 model == kMiss;
        }};
    static const Restriction kIncomingCallableData{
        "this instruction", "IncomingCallableDataKHR is for CallableKHR entry points only",
        "SPV_KHR_ray_tracing",
        [](const ModesChecker &, uint32_t model, uint32_t) { return model == kCallable; }};
    static const Restriction kRayPayload{
        "this instruction",
        "RayPayloadKHR is for RayGenerationKHR, ClosestHitKHR and MissKHR entry points only",
        "SPV_KHR_ray_tracing", [](const ModesChecker &, uint32_t model, uint32_t) {
          return model == kRayGeneration || model == kClosestHit || model == kMiss;
        }};
    static const Restriction kHitAttribute{
        "this instruction",
        "HitAttributeKHR is for IntersectionKHR, AnyHitKHR and ClosestHitKHR entry points only",
        "SPV_KHR_ray_tracing", [](const ModesChecker &, uint32_t model, uint32_t) {
          return model == kIntersection || model == kAnyHit || model == kClosestHit;
        }};
    static const Restriction kIncomingRayPayload{
        "this instruction",
        "IncomingRayPayloadKHR is for AnyHitKHR, ClosestHitKHR and MissKHR entry points only",
        "SPV_KHR_ray_tracing", [](const ModesChecker &, uint32_t model, uint32_t) {
          return model == kAnyHit || model == kClosestHit || model == kMiss;
        }};
    static const Restriction kShaderRecordBuffer{
        "this instruction", "ShaderRecordBufferKHR is for the ray tracing entry points only",
        "SPV_KHR_ray_tracing", [](const ModesChecker &, uint32_t model, uint32_t) {
          return model >= kRayGeneration && model <= kCallable;
        }};
    static const Restriction kTaskPayload{
        "this instruction", "TaskPayloadWorkgroupEXT is for TaskEXT and MeshEXT entry points only",
        "SPV_EXT_mesh_shader", [](const ModesChecker &, uint32_t model, uint32_t) {
          return model == kTaskEXT || model == kMeshEXT;
        }};
    const Restriction *last = nullptr;
    for (const binary::Operand &o : inst.operands()) {
      if (o.kind != grammar::OperandKind::IdRef)
        continue;
      const std::optional<uint32_t> sc = s_.storageClass(s_.typeOf(inst.word(o.offset)));
      if (!sc)
        continue;
      const Restriction *r = nullptr;
      switch (*sc) {
      case uint32_t(grammar::StorageClass::CallableDataKHR):
        r = &kCallableData;
        break;
      case uint32_t(grammar::StorageClass::IncomingCallableDataKHR):
        r = &kIncomingCallableData;
        break;
      case uint32_t(grammar::StorageClass::RayPayloadKHR):
        r = &kRayPayload;
        break;
      case uint32_t(grammar::StorageClass::HitAttributeKHR):
        r = &kHitAttribute;
        break;
      case uint32_t(grammar::StorageClass::IncomingRayPayloadKHR):
        r = &kIncomingRayPayload;
        break;
      case uint32_t(grammar::StorageClass::ShaderRecordBufferKHR):
        r = &kShaderRecordBuffer;
        break;
      case uint32_t(grammar::StorageClass::TaskPayloadWorkgroupEXT):
        r = &kTaskPayload;
        break;
      default:
        break;
      }
      if (r != nullptr && r != last) {
        out.push_back({index, r});
        last = r;
      }
    }
  }

  static const Restriction *fixedRestriction(uint32_t opcode) {
    static const Restriction kFragmentOnly{
        "this instruction", "it is for Fragment entry points only", "3.32",
        [](const ModesChecker &, uint32_t model, uint32_t) { return model == kFragment; }};
    static const Restriction kDerivatives{
        "an implicit-LOD or derivative instruction",
        "it needs Fragment, or a compute-like model and a ComputeDerivativeGroup capability",
        "3.32.10 / 3.32.16", derivativesAllowed};
    static const Restriction kGeometryOnly{
        "a geometry-stream instruction", "it is for Geometry entry points only", "3.32.19",
        [](const ModesChecker &, uint32_t model, uint32_t) { return model == kGeometry; }};
    static const Restriction kIntersectionOnly{
        "OpReportIntersection", "it is for Intersection entry points only", "SPV_KHR_ray_tracing",
        [](const ModesChecker &, uint32_t model, uint32_t) {
          return model == uint32_t(grammar::ExecutionModel::IntersectionKHR);
        }};
    static const Restriction kAnyHitOnly{
        "ignoring an intersection or terminating a ray", "it is for AnyHit entry points only",
        "SPV_KHR_ray_tracing", [](const ModesChecker &, uint32_t model, uint32_t) {
          return model == uint32_t(grammar::ExecutionModel::AnyHitKHR);
        }};
    static const Restriction kTraceRay{
        "tracing a ray", "it is for RayGeneration, ClosestHit and Miss entry points only",
        "SPV_KHR_ray_tracing", [](const ModesChecker &, uint32_t model, uint32_t) {
          return model == uint32_t(grammar::ExecutionModel::RayGenerationKHR) ||
                 model == uint32_t(grammar::ExecutionModel::ClosestHitKHR) ||
                 model == uint32_t(grammar::ExecutionModel::MissKHR);
        }};
    // "This instruction is allowed only in RayGenerationKHR, ClosestHitKHR and MissKHR execution
    // models" (OpTraceMotionNV, OpTraceRayMotionNV; OpHitObjectTraceRay[Motion]NV).
    static const Restriction kTraceRayMotion{
        "tracing a ray", "it is for RayGeneration, ClosestHit and Miss entry points only",
        "SPV_NV_ray_tracing_motion_blur", [](const ModesChecker &, uint32_t model, uint32_t) {
          return model == uint32_t(grammar::ExecutionModel::RayGenerationKHR) ||
                 model == uint32_t(grammar::ExecutionModel::ClosestHitKHR) ||
                 model == uint32_t(grammar::ExecutionModel::MissKHR);
        }};
    static const Restriction kHitObjectTrace{
        "tracing a ray", "it is for RayGeneration, ClosestHit and Miss entry points only",
        "SPV_NV_shader_invocation_reorder", [](const ModesChecker &, uint32_t model, uint32_t) {
          return model == uint32_t(grammar::ExecutionModel::RayGenerationKHR) ||
                 model == uint32_t(grammar::ExecutionModel::ClosestHitKHR) ||
                 model == uint32_t(grammar::ExecutionModel::MissKHR);
        }};
    static const Restriction kExecuteCallable{
        "executing a callable shader",
        "it is for RayGeneration, ClosestHit, Miss and Callable entry points only",
        "SPV_KHR_ray_tracing", [](const ModesChecker &, uint32_t model, uint32_t) {
          return model == uint32_t(grammar::ExecutionModel::RayGenerationKHR) ||
                 model == uint32_t(grammar::ExecutionModel::ClosestHitKHR) ||
                 model == uint32_t(grammar::ExecutionModel::MissKHR) ||
                 model == uint32_t(grammar::ExecutionModel::CallableKHR);
        }};
    static const Restriction kTaskOnly{"OpEmitMeshTasksEXT", "it is for TaskEXT entry points only",
                                       "SPV_EXT_mesh_shader",
                                       [](const ModesChecker &, uint32_t model, uint32_t) {
                                         return model == uint32_t(grammar::ExecutionModel::TaskEXT);
                                       }};
    static const Restriction kMeshOnly{"OpSetMeshOutputsEXT", "it is for MeshEXT entry points only",
                                       "SPV_EXT_mesh_shader",
                                       [](const ModesChecker &, uint32_t model, uint32_t) {
                                         return model == uint32_t(grammar::ExecutionModel::MeshEXT);
                                       }};
    // SPV_EXT_fragment_shader_interlock: "only valid in the Fragment Execution Model", in an
    // entry point that declares one of the interlock execution modes.
    static const Restriction kInterlock{
        "an invocation interlock",
        "it is for Fragment entry points with a Pixel-, Sample- or ShadingRateInterlock execution "
        "mode only",
        "SPV_EXT_fragment_shader_interlock",
        [](const ModesChecker &c, uint32_t model, uint32_t fn) {
          return model == kFragment &&
                 c.countModes(
                     fn, {uint32_t(grammar::ExecutionMode::PixelInterlockOrderedEXT),
                          uint32_t(grammar::ExecutionMode::PixelInterlockUnorderedEXT),
                          uint32_t(grammar::ExecutionMode::SampleInterlockOrderedEXT),
                          uint32_t(grammar::ExecutionMode::SampleInterlockUnorderedEXT),
                          uint32_t(grammar::ExecutionMode::ShadingRateInterlockOrderedEXT),
                          uint32_t(grammar::ExecutionMode::ShadingRateInterlockUnorderedEXT)}) != 0;
        }};
    switch (opcode) {
    case uint32_t(Op::BeginInvocationInterlockEXT):
    case uint32_t(Op::EndInvocationInterlockEXT):
      return &kInterlock;
    case uint32_t(Op::Kill):
    case uint32_t(Op::TerminateInvocation):
    case uint32_t(Op::DemoteToHelperInvocation):
    case uint32_t(Op::IsHelperInvocationEXT):
      return &kFragmentOnly;
    case uint32_t(Op::ImageSampleImplicitLod):
    case uint32_t(Op::ImageSampleDrefImplicitLod):
    case uint32_t(Op::ImageSampleProjImplicitLod):
    case uint32_t(Op::ImageSampleProjDrefImplicitLod):
    case uint32_t(Op::ImageQueryLod):
    case uint32_t(Op::ImageSparseSampleImplicitLod):
    case uint32_t(Op::ImageSparseSampleDrefImplicitLod):
    case uint32_t(Op::ImageSparseSampleProjImplicitLod):
    case uint32_t(Op::ImageSparseSampleProjDrefImplicitLod):
    case uint32_t(Op::DPdx):
    case uint32_t(Op::DPdy):
    case uint32_t(Op::Fwidth):
    case uint32_t(Op::DPdxFine):
    case uint32_t(Op::DPdyFine):
    case uint32_t(Op::FwidthFine):
    case uint32_t(Op::DPdxCoarse):
    case uint32_t(Op::DPdyCoarse):
    case uint32_t(Op::FwidthCoarse):
      return &kDerivatives;
    case uint32_t(Op::EmitVertex):
    case uint32_t(Op::EndPrimitive):
    case uint32_t(Op::EmitStreamVertex):
    case uint32_t(Op::EndStreamPrimitive):
      return &kGeometryOnly;
    case uint32_t(Op::ReportIntersectionKHR):
      return &kIntersectionOnly;
    case uint32_t(Op::IgnoreIntersectionKHR):
    case uint32_t(Op::TerminateRayKHR):
    case uint32_t(Op::IgnoreIntersectionNV):
    case uint32_t(Op::TerminateRayNV):
      return &kAnyHitOnly;
    case uint32_t(Op::TraceRayKHR):
    case uint32_t(Op::TraceNV):
      return &kTraceRay;
    case uint32_t(Op::TraceMotionNV):
    case uint32_t(Op::TraceRayMotionNV):
      return &kTraceRayMotion;
    case uint32_t(Op::HitObjectTraceRayMotionNV):
    case uint32_t(Op::HitObjectTraceRayNV):
      return &kHitObjectTrace;
    case uint32_t(Op::ExecuteCallableKHR):
    case uint32_t(Op::ExecuteCallableNV):
      return &kExecuteCallable;
    case uint32_t(Op::EmitMeshTasksEXT):
      return &kTaskOnly;
    case uint32_t(Op::SetMeshOutputsEXT):
      return &kMeshOnly;
    default:
      return nullptr;
    }
  }

  State &s_;
  const Module &m_;
  // Per function: restricted instructions and their restrictions, in order.
  std::vector<std::vector<std::pair<uint32_t, const Restriction *>>> restricted_;
  const bool vulkanMemoryModel_;
  // The OpExecutionMode(Id) instructions by the function they name.
  std::unordered_map<uint32_t, std::vector<uint32_t>> modeInstructions_;
  std::unordered_set<uint32_t> modesChecked_;
};

} // namespace

void checkModes(State &s) { ModesChecker(s).run(); }

} // namespace spire::val
