#include "spire/run/PassThroughVertexShader.h"

#include "spire/module/Builder.h"

#include <algorithm>
#include <map>
#include <set>

namespace spire::run {

namespace {

using grammar::BuiltIn;
using grammar::Capability;
using grammar::Decoration;
using grammar::Op;
using grammar::StorageClass;

/// Types and constants, each declared once, in the order they are first asked for.
class Declarations {
public:
  explicit Declarations(ModuleBuilder &b) : b_(b) {}

  uint32_t type(Op op, std::vector<uint32_t> operands) {
    std::vector<uint32_t> key = operands;
    key.insert(key.begin(), uint32_t(op));
    auto it = ids_.find(key);
    if (it != ids_.end())
      return it->second;
    const uint32_t id = b_.newId();
    b_.add(Section::Global, op).id(id).words(operands);
    ids_[key] = id;
    return id;
  }
  uint32_t uintConstant(uint32_t value) {
    const uint32_t u32 = type(Op::TypeInt, {32, 0});
    return valued(Op::Constant, u32, {value});
  }
  uint32_t null(uint32_t typeId) { return valued(Op::ConstantNull, typeId, {}); }

private:
  uint32_t valued(Op op, uint32_t typeId, std::vector<uint32_t> operands) {
    std::vector<uint32_t> key = operands;
    key.insert(key.begin(), {uint32_t(op), typeId});
    auto it = ids_.find(key);
    if (it != ids_.end())
      return it->second;
    const uint32_t id = b_.newId();
    b_.add(Section::Global, op).id(typeId).id(id).words(operands);
    ids_[key] = id;
    return id;
  }

  ModuleBuilder &b_;
  std::map<std::vector<uint32_t>, uint32_t> ids_;
};

} // namespace

namespace {

/// A module of one entry point that writes outputs for the stage after it: the outputs, the
/// capabilities they need, and `main` storing a constant into each (zeros unless given).
class StageModule {
public:
  explicit StageModule(uint32_t version) : b_(version), decl_(b_) {}

  Declarations &decl() { return decl_; }
  void need(Capability c) { capabilities_.insert(c); }
  /// A new Output variable of `type`; its value is stored by main when `value` is not 0.
  uint32_t output(uint32_t type, uint32_t value) {
    const uint32_t pointer = decl_.type(Op::TypePointer, {uint32_t(StorageClass::Output), type});
    const uint32_t var = b_.newId();
    b_.add(Section::Global, Op::Variable)
        .id(pointer)
        .id(var)
        .literal(uint32_t(StorageClass::Output));
    outputs_.push_back({var, value});
    return var;
  }
  void decorate(uint32_t id, Decoration d, std::initializer_list<uint32_t> args = {}) {
    b_.add(Section::Annotation, Op::Decorate).id(id).literal(uint32_t(d)).words(args);
  }
  void mode(uint32_t mode, std::initializer_list<uint32_t> args = {}) {
    modes_.push_back({mode, args});
  }
  void extension(std::string_view name) { b_.add(Section::Extension, Op::Extension).string(name); }
  /// An instruction of main without a result, before its stores.
  void statement(Op op, std::vector<uint32_t> operands) {
    statements_.push_back({op, std::move(operands)});
  }

  /// The scalar, vector or matrix type of a stage variable, with its arrays from `firstArray`
  /// on (outermost first); fails with why for shapes no output can have.
  Expected<uint32_t> typeOf(const StageVariable &v, size_t firstArray, const std::string &what) {
    uint32_t scalar = 0;
    switch (v.kind) {
    case ComponentKind::Float:
      scalar = decl_.type(Op::TypeFloat, {v.width});
      if (v.width == 16)
        need(Capability::Float16);
      if (v.width == 64)
        need(Capability::Float64);
      break;
    case ComponentKind::Int:
    case ComponentKind::Uint:
      scalar = decl_.type(Op::TypeInt, {v.width, v.kind == ComponentKind::Int ? 1u : 0u});
      if (v.width == 16)
        need(Capability::Int16);
      if (v.width == 64)
        need(Capability::Int64);
      break;
    default:
      return makeError({}, what + "has components that are neither numbers nor integers");
    }
    if (v.width == 16)
      need(Capability::StorageInputOutput16);
    uint32_t type = v.components > 1 ? decl_.type(Op::TypeVector, {scalar, v.components}) : scalar;
    if (v.columns)
      type = decl_.type(Op::TypeMatrix, {type, v.columns});
    for (size_t i = v.arrayLengths.size(); i-- > firstArray;) {
      if (!v.arrayLengths[i])
        return makeError({}, what + "is a runtime array");
      type = decl_.type(Op::TypeArray, {type, decl_.uintConstant(v.arrayLengths[i])});
    }
    return type;
  }
  /// Location, Component and the interpolation decorations of `v` on `var`.
  void decorateLike(uint32_t var, const StageVariable &v) {
    decorate(var, Decoration::Location, {v.location});
    if (v.component)
      decorate(var, Decoration::Component, {v.component});
    if (v.flat)
      decorate(var, Decoration::Flat);
    if (v.noPerspective)
      decorate(var, Decoration::NoPerspective);
    if (v.centroid)
      decorate(var, Decoration::Centroid);
    if (v.sample) {
      need(Capability::SampleRateShading);
      decorate(var, Decoration::Sample);
    }
    if (v.patch)
      decorate(var, Decoration::Patch);
  }

  std::vector<uint32_t> finish(grammar::ExecutionModel model) {
    const uint32_t voidType = decl_.type(Op::TypeVoid, {});
    const uint32_t fnType = decl_.type(Op::TypeFunction, {voidType});
    const uint32_t main = b_.newId();
    b_.add(Section::FunctionDefinition, Op::Function).id(voidType).id(main).literal(0).id(fnType);
    b_.add(Section::FunctionDefinition, Op::Label).id(b_.newId());
    for (const auto &[op, operands] : statements_)
      b_.add(Section::FunctionDefinition, op).words(operands);
    for (const Output &o : outputs_)
      if (o.value)
        b_.add(Section::FunctionDefinition, Op::Store).id(o.variable).id(o.value);
    b_.add(Section::FunctionDefinition, Op::Return);
    b_.add(Section::FunctionDefinition, Op::FunctionEnd);
    for (Capability c : capabilities_)
      b_.add(Section::Capability, Op::Capability).literal(uint32_t(c));
    b_.add(Section::MemoryModel, Op::MemoryModel)
        .literal(uint32_t(grammar::AddressingModel::Logical))
        .literal(uint32_t(grammar::MemoryModel::GLSL450));
    {
      InstWriter ep = b_.add(Section::EntryPoint, Op::EntryPoint);
      ep.literal(uint32_t(model)).id(main).string("main");
      for (const Output &o : outputs_)
        ep.id(o.variable);
    }
    for (const auto &[m, args] : modes_)
      b_.add(Section::ExecutionMode, Op::ExecutionMode).id(main).literal(m).words(args);
    return b_.words();
  }

private:
  struct Output {
    uint32_t variable, value;
  };
  ModuleBuilder b_;
  Declarations decl_;
  std::set<Capability> capabilities_{Capability::Shader};
  std::vector<Output> outputs_;
  std::vector<std::pair<uint32_t, std::vector<uint32_t>>> modes_;
  std::vector<std::pair<Op, std::vector<uint32_t>>> statements_;
};

uint32_t versionFor(const ModuleInterface &next) {
  return std::clamp(next.version, grammar::makeVersion(1, 0), grammar::makeVersion(1, 6));
}

bool isClipCull(const StageVariable &v) {
  return v.builtIn == uint32_t(BuiltIn::ClipDistance) ||
         v.builtIn == uint32_t(BuiltIn::CullDistance);
}

} // namespace

Expected<std::vector<uint32_t>> passThroughVertexShader(const ModuleInterface &next,
                                                        const EntryPoint &entry) {
  StageModule m(versionFor(next));
  // The inputs of geometry and tessellation control shaders are arrays of what each vertex of
  // their primitive or patch wrote.
  const bool arrayed = entry.model == "Geometry" || entry.model == "TessellationControl";
  const std::string stage = entry.model == "Fragment" ? "fragment" : entry.model;
  for (const StageVariable *v : next.stageVariablesOf(entry, false)) {
    const bool clipCull = isClipCull(*v);
    if (v->builtIn != ~0u && !clipCull)
      continue; // FragCoord, FrontFacing, PrimitiveId, Position...: the pipeline provides them
    if (arrayed && v->other && v->location == ~0u)
      continue; // gl_in, the block of the built-ins each vertex wrote
    const std::string what =
        stage + " input " + (v->name.empty() ? std::string("") : "'" + v->name + "' ");
    if (v->perPrimitive)
      return makeError({}, what + "is per primitive (it needs a mesh shader)");
    if (v->other || (v->builtIn == ~0u && v->location == ~0u))
      return makeError({}, what + "is not a located scalar, vector, matrix or array of them");
    // A per-vertex input's outer array (the primitive's vertices) is not what one vertex writes.
    auto type = m.typeOf(*v, v->perVertex || arrayed ? 1 : 0, what);
    if (!type)
      return type.error();
    const uint32_t var = m.output(*type, m.decl().null(*type));
    if (clipCull) {
      m.need(v->builtIn == uint32_t(BuiltIn::ClipDistance) ? Capability::ClipDistance
                                                           : Capability::CullDistance);
      m.decorate(var, Decoration::BuiltIn, {v->builtIn});
      continue;
    }
    StageVariable located = *v;
    located.patch = false;
    m.decorateLike(var, located);
  }
  const uint32_t v4 = m.decl().type(Op::TypeVector, {m.decl().type(Op::TypeFloat, {32}), 4});
  const uint32_t position = m.output(v4, m.decl().null(v4));
  m.decorate(position, Decoration::BuiltIn, {uint32_t(BuiltIn::Position)});
  return m.finish(grammar::ExecutionModel::Vertex);
}

Expected<std::vector<uint32_t>> passThroughTessellationControlShader(const ModuleInterface &next,
                                                                     const EntryPoint &entry) {
  StageModule m(versionFor(next));
  m.need(Capability::Tessellation);
  const uint32_t f32 = m.decl().type(Op::TypeFloat, {32});
  uint32_t vertices = 0; // the patch size: the outer length of the per-vertex inputs
  for (const StageVariable *v : next.stageVariablesOf(entry, false)) {
    const std::string what = "tessellation evaluation input " +
                             (v->name.empty() ? std::string("") : "'" + v->name + "' ");
    if (v->builtIn == uint32_t(BuiltIn::TessLevelOuter) ||
        v->builtIn == uint32_t(BuiltIn::TessLevelInner)) {
      continue; // written below, both
    }
    const bool perVertex = !v->patch;
    if (perVertex && !v->arrayLengths.empty() && v->arrayLengths[0])
      vertices = vertices ? vertices : v->arrayLengths[0];
    if (v->builtIn != ~0u && v->builtIn != uint32_t(BuiltIn::Position) && !isClipCull(*v))
      continue; // TessCoord, PrimitiveId...: the pipeline provides them
    if (v->other && v->location == ~0u)
      continue; // gl_in: Position below
    if (v->other || (v->builtIn == ~0u && v->location == ~0u))
      return makeError({}, what + "is not a located scalar, vector, matrix or array of them");
    if (v->builtIn == uint32_t(BuiltIn::Position))
      continue; // below
    // Per-vertex: the same array of control points, written by nobody (a pipeline check does
    // not run it); per patch: the variable itself, Patch.
    auto type = m.typeOf(*v, 0, what);
    if (!type)
      return type.error();
    const uint32_t var = m.output(*type, 0);
    if (isClipCull(*v)) {
      m.need(v->builtIn == uint32_t(BuiltIn::ClipDistance) ? Capability::ClipDistance
                                                           : Capability::CullDistance);
      m.decorate(var, Decoration::BuiltIn, {v->builtIn});
      continue;
    }
    m.decorateLike(var, *v);
  }
  if (!vertices)
    vertices = 3;
  const uint32_t v4 = m.decl().type(Op::TypeVector, {f32, 4});
  const uint32_t positions =
      m.output(m.decl().type(Op::TypeArray, {v4, m.decl().uintConstant(vertices)}), 0);
  m.decorate(positions, Decoration::BuiltIn, {uint32_t(BuiltIn::Position)});
  // The tessellation levels, one everywhere, whether the next stage reads them or not.
  const uint32_t outer = m.decl().type(Op::TypeArray, {f32, m.decl().uintConstant(4)});
  const uint32_t inner = m.decl().type(Op::TypeArray, {f32, m.decl().uintConstant(2)});
  const uint32_t outerLevels = m.output(outer, m.decl().null(outer));
  m.decorate(outerLevels, Decoration::BuiltIn, {uint32_t(BuiltIn::TessLevelOuter)});
  m.decorate(outerLevels, Decoration::Patch);
  const uint32_t innerLevels = m.output(inner, m.decl().null(inner));
  m.decorate(innerLevels, Decoration::BuiltIn, {uint32_t(BuiltIn::TessLevelInner)});
  m.decorate(innerLevels, Decoration::Patch);
  m.mode(uint32_t(grammar::ExecutionMode::OutputVertices), {vertices});
  // The domain is the evaluation shader's; spacing and vertex order, which Vulkan wants in one
  // of the two, here unless it has them.
  bool spacing = false, order = false;
  for (const std::vector<uint32_t> &mode : entry.executionModes) {
    const uint32_t id = mode.empty() ? ~0u : mode[0];
    spacing |= id == uint32_t(grammar::ExecutionMode::SpacingEqual) ||
               id == uint32_t(grammar::ExecutionMode::SpacingFractionalEven) ||
               id == uint32_t(grammar::ExecutionMode::SpacingFractionalOdd);
    order |= id == uint32_t(grammar::ExecutionMode::VertexOrderCw) ||
             id == uint32_t(grammar::ExecutionMode::VertexOrderCcw);
  }
  if (!spacing)
    m.mode(uint32_t(grammar::ExecutionMode::SpacingEqual));
  if (!order)
    m.mode(uint32_t(grammar::ExecutionMode::VertexOrderCcw));
  return m.finish(grammar::ExecutionModel::TessellationControl);
}

std::vector<uint32_t> passThroughMeshShader(const ModuleInterface &task) {
  StageModule m(std::max(versionFor(task), grammar::makeVersion(1, 4)));
  m.need(Capability::MeshShadingEXT);
  m.extension("SPV_EXT_mesh_shader");
  m.mode(uint32_t(grammar::ExecutionMode::LocalSize), {1, 1, 1});
  m.mode(uint32_t(grammar::ExecutionMode::OutputVertices), {1});
  m.mode(uint32_t(grammar::ExecutionMode::OutputPrimitivesEXT), {1});
  m.mode(uint32_t(grammar::ExecutionMode::OutputTrianglesEXT));
  const uint32_t none = m.decl().uintConstant(0);
  m.statement(Op::SetMeshOutputsEXT, {none, none});
  return m.finish(grammar::ExecutionModel::MeshEXT);
}

std::vector<uint32_t> passThroughRayGenerationShader(const ModuleInterface &other) {
  StageModule m(std::max(versionFor(other), grammar::makeVersion(1, 4)));
  m.need(Capability::RayTracingKHR);
  m.extension("SPV_KHR_ray_tracing");
  return m.finish(grammar::ExecutionModel::RayGenerationKHR);
}

std::vector<uint32_t> passThroughTessellationEvaluationShader(const ModuleInterface &control) {
  StageModule m(versionFor(control));
  m.need(Capability::Tessellation);
  const uint32_t v4 = m.decl().type(Op::TypeVector, {m.decl().type(Op::TypeFloat, {32}), 4});
  const uint32_t position = m.output(v4, m.decl().null(v4));
  m.decorate(position, Decoration::BuiltIn, {uint32_t(BuiltIn::Position)});
  return m.finish(grammar::ExecutionModel::TessellationEvaluation);
}

} // namespace spire::run
