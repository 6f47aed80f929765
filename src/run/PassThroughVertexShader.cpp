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

Expected<std::vector<uint32_t>> passThroughVertexShader(const ModuleInterface &fragment,
                                                        const EntryPoint &entry) {
  const uint32_t version =
      std::clamp(fragment.version, grammar::makeVersion(1, 0), grammar::makeVersion(1, 6));
  ModuleBuilder b(version);
  Declarations decl(b);
  std::set<Capability> capabilities{Capability::Shader};
  struct Output {
    uint32_t variable, type;
  };
  std::vector<Output> outputs;
  auto declareOutput = [&](uint32_t type) {
    const uint32_t pointer = decl.type(Op::TypePointer, {uint32_t(StorageClass::Output), type});
    const uint32_t var = b.newId();
    b.add(Section::Global, Op::Variable)
        .id(pointer)
        .id(var)
        .literal(uint32_t(StorageClass::Output));
    outputs.push_back({var, type});
    return var;
  };
  auto decorate = [&](uint32_t id, Decoration d, std::initializer_list<uint32_t> args = {}) {
    b.add(Section::Annotation, Op::Decorate).id(id).literal(uint32_t(d)).words(args);
  };

  // A geometry shader's inputs are arrays of what each vertex of its input primitive wrote.
  const bool geometry = entry.model == "Geometry";
  for (const StageVariable *v : fragment.stageVariablesOf(entry, false)) {
    const bool clipCull = v->builtIn == uint32_t(BuiltIn::ClipDistance) ||
                          v->builtIn == uint32_t(BuiltIn::CullDistance);
    if (v->builtIn != ~0u && !clipCull)
      continue; // FragCoord, FrontFacing, PrimitiveId, Position...: the pipeline provides them
    if (geometry && v->other && v->location == ~0u)
      continue; // gl_in, the block of the built-ins each vertex wrote
    const std::string what = std::string(geometry ? "geometry" : "fragment") + " input " +
                             (v->name.empty() ? std::string("") : "'" + v->name + "' ");
    if (v->perPrimitive)
      return makeError({}, what + "is per primitive (it needs a mesh shader)");
    if (v->other || (v->builtIn == ~0u && v->location == ~0u))
      return makeError({}, what + "is not a located scalar, vector, matrix or array of them");
    uint32_t scalar = 0;
    switch (v->kind) {
    case ComponentKind::Float:
      scalar = decl.type(Op::TypeFloat, {v->width});
      if (v->width == 16)
        capabilities.insert(Capability::Float16);
      if (v->width == 64)
        capabilities.insert(Capability::Float64);
      break;
    case ComponentKind::Int:
    case ComponentKind::Uint:
      scalar = decl.type(Op::TypeInt, {v->width, v->kind == ComponentKind::Int ? 1u : 0u});
      if (v->width == 16)
        capabilities.insert(Capability::Int16);
      if (v->width == 64)
        capabilities.insert(Capability::Int64);
      break;
    default:
      return makeError({}, what + "has components that are neither numbers nor integers");
    }
    if (v->width == 16)
      capabilities.insert(Capability::StorageInputOutput16);
    uint32_t type = v->components > 1 ? decl.type(Op::TypeVector, {scalar, v->components}) : scalar;
    if (v->columns)
      type = decl.type(Op::TypeMatrix, {type, v->columns});
    // Arrays from the innermost out; a per-vertex input's outer array (the triangle's vertices)
    // is not part of what one vertex writes.
    const size_t outer = v->perVertex || geometry ? 1 : 0;
    for (size_t i = v->arrayLengths.size(); i-- > outer;) {
      if (!v->arrayLengths[i])
        return makeError({}, what + "is a runtime array");
      type = decl.type(Op::TypeArray, {type, decl.uintConstant(v->arrayLengths[i])});
    }
    const uint32_t var = declareOutput(type);
    if (clipCull) {
      capabilities.insert(v->builtIn == uint32_t(BuiltIn::ClipDistance) ? Capability::ClipDistance
                                                                        : Capability::CullDistance);
      decorate(var, Decoration::BuiltIn, {v->builtIn});
      continue;
    }
    decorate(var, Decoration::Location, {v->location});
    if (v->component)
      decorate(var, Decoration::Component, {v->component});
    if (v->flat)
      decorate(var, Decoration::Flat);
    if (v->noPerspective)
      decorate(var, Decoration::NoPerspective);
    if (v->centroid)
      decorate(var, Decoration::Centroid);
    if (v->sample) {
      capabilities.insert(Capability::SampleRateShading);
      decorate(var, Decoration::Sample);
    }
  }
  const uint32_t f32 = decl.type(Op::TypeFloat, {32});
  const uint32_t position = declareOutput(decl.type(Op::TypeVector, {f32, 4}));
  decorate(position, Decoration::BuiltIn, {uint32_t(BuiltIn::Position)});

  // main: every output written with zeros.
  std::vector<uint32_t> stores;
  for (const Output &o : outputs)
    stores.push_back(decl.null(o.type));
  const uint32_t voidType = decl.type(Op::TypeVoid, {});
  const uint32_t fnType = decl.type(Op::TypeFunction, {voidType});
  const uint32_t main = b.newId();
  b.add(Section::FunctionDefinition, Op::Function).id(voidType).id(main).literal(0).id(fnType);
  b.add(Section::FunctionDefinition, Op::Label).id(b.newId());
  for (size_t i = 0; i < outputs.size(); ++i)
    b.add(Section::FunctionDefinition, Op::Store).id(outputs[i].variable).id(stores[i]);
  b.add(Section::FunctionDefinition, Op::Return);
  b.add(Section::FunctionDefinition, Op::FunctionEnd);

  for (Capability c : capabilities)
    b.add(Section::Capability, Op::Capability).literal(uint32_t(c));
  b.add(Section::MemoryModel, Op::MemoryModel)
      .literal(uint32_t(grammar::AddressingModel::Logical))
      .literal(uint32_t(grammar::MemoryModel::GLSL450));
  {
    InstWriter ep = b.add(Section::EntryPoint, Op::EntryPoint);
    ep.literal(uint32_t(grammar::ExecutionModel::Vertex)).id(main).string("main");
    for (const Output &o : outputs)
      ep.id(o.variable);
  }
  return b.words();
}

} // namespace spire::run
