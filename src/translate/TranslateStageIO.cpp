// Stage inputs and outputs: the entry's signatures as Input/Output variables and built-ins, the
// execution modes a stage needs, the hull shader's two functions, and the dx.op calls that read
// and write the interface (signatures, system values, GS streams, mesh outputs, discard).
#include "Translator.h"

#include <cctype>

#include <algorithm>
#include <optional>

namespace spire::translate {

using dxil::DxOp;
using dxil::SemanticKind;
using dxil::ShaderKind;
using grammar::ExecutionMode;

namespace {

bool isPerVertexBuiltIn(BuiltIn b) {
  return b == BuiltIn::Position || b == BuiltIn::ClipDistance || b == BuiltIn::CullDistance;
}

/// The number of vertices a GS input primitive has (D3D_PRIMITIVE numbering), 0 if unsupported.
uint32_t geometryInputVertices(uint32_t primitive) {
  switch (primitive) {
  case 1:
    return 1;
  case 2:
    return 2;
  case 3:
    return 3;
  case 6:
    return 4;
  case 7:
    return 6;
  default:
    return 0;
  }
}

/// The interpolation decorations of a pixel shader input.
void interpolationDecorations(Translator &t, uint32_t var, dxil::InterpolationMode mode,
                              bool integer) {
  using M = dxil::InterpolationMode;
  if (integer || mode == M::Constant) {
    t.decorate(var, Decoration::Flat);
    return;
  }
  if (mode == M::LinearNoperspective || mode == M::LinearNoperspectiveCentroid ||
      mode == M::LinearNoperspectiveSample)
    t.decorate(var, Decoration::NoPerspective);
  if (mode == M::LinearCentroid || mode == M::LinearNoperspectiveCentroid)
    t.decorate(var, Decoration::Centroid);
  if (mode == M::LinearSample || mode == M::LinearNoperspectiveSample) {
    t.capability(Capability::SampleRateShading);
    t.decorate(var, Decoration::Sample);
  }
}

/// Rows a signature's located elements occupy (patch constants and primitives are placed after
/// them, as both sides of the interface agree on).
uint32_t rowsUsed(const std::vector<dxil::DxilSignatureElement> &elements,
                  std::optional<uint32_t> stream = std::nullopt) {
  uint32_t rows = 0;
  for (const dxil::DxilSignatureElement &e : elements)
    if (e.startRow >= 0 && (!stream || e.outputStream.value_or(0) == *stream))
      rows = std::max(rows, uint32_t(e.startRow) + e.rows);
  return rows;
}

} // namespace

// ---- declarations ---------------------------------------------------------------------------

namespace {

/// What one element becomes: a built-in (with its SPIR-V shape) or a located variable.
struct ElementPlan {
  bool builtIn = false;
  BuiltIn which = BuiltIn::Position;
  IoSpecial special = IoSpecial::None;
  uint32_t vectorSize = 0;  ///< built-ins: 0 scalar
  uint32_t arrayLength = 0; ///< built-ins: a fixed array (clip/cull, tess levels, sample mask)
  enum class Scalar { Float, Int, Bool, Element } scalar = Scalar::Element;
};

/// How a semantic maps in a stage, for one direction of one signature. Nothing: located.
std::optional<ElementPlan> planBuiltIn(ShaderKind stage, SignatureKind sig, SemanticKind s,
                                       dxil::InterpolationMode interpolation) {
  using S = ElementPlan::Scalar;
  const bool in = sig == SignatureKind::Input ||
                  (sig == SignatureKind::PatchConstant && stage == ShaderKind::Domain);
  const bool pixelIn = stage == ShaderKind::Pixel && in;
  auto plan = [](BuiltIn b, S scalar, uint32_t vectorSize = 0, uint32_t arrayLength = 0,
                 IoSpecial special = IoSpecial::None) {
    ElementPlan p;
    p.builtIn = true;
    p.which = b;
    p.scalar = scalar;
    p.vectorSize = vectorSize;
    p.arrayLength = arrayLength;
    p.special = special;
    return p;
  };
  if (stage == ShaderKind::Vertex && in) {
    if (s == SemanticKind::VertexId)
      return plan(BuiltIn::VertexIndex, S::Int, 0, 0, IoSpecial::VertexIndex);
    if (s == SemanticKind::InstanceId)
      return plan(BuiltIn::InstanceIndex, S::Int, 0, 0, IoSpecial::InstanceIndex);
    return std::nullopt;
  }
  if (sig == SignatureKind::PatchConstant && stage != ShaderKind::Mesh) {
    // Index for index, isolines too: D3D's isoline factors are line density then line detail
    // (DXC's signature names them LINEDEN, LINEDET), and Vulkan takes the number of lines from
    // TessLevelOuter[0] and the segments per line from [1].
    if (s == SemanticKind::TessFactor)
      return plan(BuiltIn::TessLevelOuter, S::Float, 0, 4, IoSpecial::Flattened);
    if (s == SemanticKind::InsideTessFactor)
      return plan(BuiltIn::TessLevelInner, S::Float, 0, 2, IoSpecial::Flattened);
    return std::nullopt;
  }
  switch (s) {
  case SemanticKind::Position:
    if (pixelIn)
      return plan(BuiltIn::FragCoord, S::Float, 4, 0, IoSpecial::FragCoord);
    return plan(BuiltIn::Position, S::Float, 4);
  case SemanticKind::ClipDistance:
  case SemanticKind::CullDistance:
    return plan(s == SemanticKind::ClipDistance ? BuiltIn::ClipDistance : BuiltIn::CullDistance,
                S::Float, 0, 0, IoSpecial::Flattened);
  case SemanticKind::RenderTargetArrayIndex:
  case SemanticKind::ViewportArrayIndex:
    // Geometry, hull and domain inputs carry them as ordinary values.
    if (in && !pixelIn)
      return std::nullopt;
    return plan(s == SemanticKind::RenderTargetArrayIndex ? BuiltIn::Layer : BuiltIn::ViewportIndex,
                S::Int);
  case SemanticKind::PrimitiveId:
    return plan(BuiltIn::PrimitiveId, S::Int);
  case SemanticKind::SampleIndex:
    return plan(BuiltIn::SampleId, S::Int);
  case SemanticKind::IsFrontFace:
    if (!pixelIn) {
      ElementPlan p;
      p.special = IoSpecial::Dropped;
      return p;
    }
    return plan(BuiltIn::FrontFacing, S::Bool, 0, 0, IoSpecial::FrontFacing);
  case SemanticKind::Coverage:
    return plan(BuiltIn::SampleMask, S::Int, 0, 1, IoSpecial::ArrayOfOne);
  case SemanticKind::Depth:
  case SemanticKind::DepthLessEqual:
  case SemanticKind::DepthGreaterEqual:
    return plan(BuiltIn::FragDepth, S::Float);
  case SemanticKind::StencilRef:
    return plan(BuiltIn::FragStencilRefEXT, S::Int);
  case SemanticKind::Barycentrics:
    return plan(interpolation == dxil::InterpolationMode::LinearNoperspective ||
                        interpolation == dxil::InterpolationMode::LinearNoperspectiveCentroid ||
                        interpolation == dxil::InterpolationMode::LinearNoperspectiveSample
                    ? BuiltIn::BaryCoordNoPerspKHR
                    : BuiltIn::BaryCoordKHR,
                S::Float, 3);
  case SemanticKind::ShadingRate:
    if (in && !pixelIn)
      return std::nullopt;
    return plan(pixelIn ? BuiltIn::ShadingRateKHR : BuiltIn::PrimitiveShadingRateKHR, S::Int);
  case SemanticKind::CullPrimitive:
    return plan(BuiltIn::CullPrimitiveEXT, S::Bool);
  case SemanticKind::ViewId:
    return plan(BuiltIn::ViewIndex, S::Int);
  default:
    return std::nullopt;
  }
}

/// Where a stage's signatures start their locations: patch constants and primitives after the
/// per-vertex rows, GS streams after the streams before them.
struct LocationOffsets {
  uint32_t patch = 0;
  uint32_t stream[4] = {0, 0, 0, 0};
};

LocationOffsets locationOffsets(ShaderKind stage, const dxil::Signatures &sigs) {
  LocationOffsets o;
  if (stage == ShaderKind::Hull || stage == ShaderKind::Mesh)
    o.patch = rowsUsed(sigs.outputs);
  else if (stage == ShaderKind::Domain)
    o.patch = rowsUsed(sigs.inputs);
  if (stage == ShaderKind::Geometry)
    for (uint32_t s = 1; s < 4; ++s)
      o.stream[s] = o.stream[s - 1] + rowsUsed(sigs.outputs, s - 1);
  return o;
}

/// The semantic index of row `row` of an element (its first index + the row when the
/// signature lists fewer).
uint32_t semanticIndexOf(const dxil::DxilSignatureElement &el, uint32_t row) {
  return row < el.semanticIndices.size() ? el.semanticIndices[row] : row;
}

std::string upperCase(std::string_view s) {
  std::string out(s);
  for (char &c : out)
    c = char(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

} // namespace

std::vector<StageOutput> stageOutputs(const dxil::EntryPoint &entry) {
  const ShaderKind stage = entry.kind;
  std::vector<StageOutput> out;
  if (stage != ShaderKind::Vertex && stage != ShaderKind::Hull && stage != ShaderKind::Domain &&
      stage != ShaderKind::Geometry && stage != ShaderKind::Mesh)
    return out;
  const LocationOffsets offsets = locationOffsets(stage, entry.signatures);
  auto add = [&](const dxil::DxilSignatureElement &el, SignatureKind sig, uint32_t offset) {
    if (el.startRow < 0 || planBuiltIn(stage, sig, el.semanticKind, el.interpolation))
      return; // placed by the driver, or a built-in
    for (uint32_t r = 0; r < el.rows; ++r) {
      StageOutput o;
      o.semantic = upperCase(el.name);
      o.semanticIndex = semanticIndexOf(el, r);
      o.location = offset + uint32_t(el.startRow) + r;
      o.component = uint32_t(std::max(0, el.startCol));
      o.perPrimitive = stage == ShaderKind::Mesh && sig == SignatureKind::PatchConstant;
      o.perPatch = stage == ShaderKind::Hull && sig == SignatureKind::PatchConstant;
      out.push_back(std::move(o));
    }
  };
  for (const dxil::DxilSignatureElement &el : entry.signatures.outputs)
    if (stage != ShaderKind::Geometry || el.outputStream.value_or(0) == 0) // the rasterized one
      add(el, SignatureKind::Output, 0);
  if (stage == ShaderKind::Hull || stage == ShaderKind::Mesh)
    for (const dxil::DxilSignatureElement &el : entry.signatures.patchConstants)
      add(el, SignatureKind::PatchConstant, offsets.patch);
  return out;
}

bool Translator::linkInput(const dxil::DxilSignatureElement &el, bool patch, uint32_t &location,
                           uint32_t &component, bool &perPrimitive) {
  const std::string semantic = upperCase(el.name);
  auto find = [&](uint32_t index) -> const StageOutput * {
    for (const StageOutput &o : options_.previousStage)
      if (o.semanticIndex == index && o.perPatch == patch && o.semantic == semantic)
        return &o;
    return nullptr;
  };
  const uint32_t first = semanticIndexOf(el, 0);
  const StageOutput *base = find(first);
  const std::string what = "input " + el.name + std::to_string(first);
  if (!base) {
    if (el.semanticKind != dxil::SemanticKind::Arbitrary)
      return true; // a system value the previous stage has as a built-in: placed as before
    return !fail("unsupported: " + what + " is not an output of the previous stage");
  }
  for (uint32_t r = 1; r < el.rows; ++r) {
    const StageOutput *row = find(semanticIndexOf(el, r));
    if (!row || row->location != base->location + r || row->component != base->component)
      return !fail("unsupported: " + what + ": its " + std::to_string(el.rows) +
                   " rows are not consecutive rows of the previous stage's outputs");
  }
  if (base->component + el.cols > 4)
    return !fail("unsupported: " + what + " has " + std::to_string(el.cols) +
                 " columns, from column " + std::to_string(base->component) +
                 " of the previous stage's output");
  location = base->location;
  component = base->component;
  perPrimitive = base->perPrimitive;
  return true;
}

void Translator::declareStageIO() {
  const ShaderKind stage = entry_.kind;
  const dxil::EntryProperties &p = entry_.properties;
  stageIO_.patchConstantFunction = dxil::kNoId;
  switch (stage) {
  case ShaderKind::Geometry:
    capability(Capability::Geometry);
    break;
  case ShaderKind::Hull:
  case ShaderKind::Domain:
    capability(Capability::Tessellation);
    break;
  case ShaderKind::Mesh:
  case ShaderKind::Amplification:
    capability(Capability::MeshShadingEXT);
    extension("SPV_EXT_mesh_shader");
    break;
  default:
    break;
  }
  if (stage == ShaderKind::Hull) {
    if (!p.hs)
      return void(fail("a hull shader without hull state"));
    if (p.hs->patchConstantFunction != dxil::kNoId) {
      for (uint32_t i = 0; i < llvm().functions.size(); ++i)
        if (llvm().functions[i].value == p.hs->patchConstantFunction &&
            !llvm().functions[i].isDeclaration)
          stageIO_.patchConstantFunction = i;
      if (stageIO_.patchConstantFunction == dxil::kNoId)
        return void(fail("the patch constant function has no body"));
    }
  }
  // Inputs read per vertex by AttributeAtVertex are arrays of the triangle's three vertices.
  for (const dxil::DxilOpCall &call : dx_.opCalls) {
    if (call.op->opcode != uint32_t(DxOp::AttributeAtVertex) ||
        call.function != entry_.functionIndex)
      continue;
    auto args = dx_.opArguments(call);
    int64_t id = 0;
    if (!args.empty() && constantInt(args[0], id))
      stageIO_.perVertexInputs.insert(uint32_t(id));
  }
  if (stage == ShaderKind::Geometry && p.gs)
    stageIO_.multiStream = (p.gs->activeStreamMask & ~1u) != 0;

  const bool native16 = llvm().dataLayout.find("f16:16") != std::string::npos;
  auto elementScalar = [&](dxil::DxilComponentType c) {
    using C = dxil::DxilComponentType;
    switch (c) {
    case C::I1:
    case C::I32:
    case C::U32:
      return typeInt(32);
    case C::I16:
    case C::U16:
      return typeInt(native16 ? 16 : 32);
    case C::I64:
    case C::U64:
      return typeInt(64);
    case C::F16:
    case C::SNormF16:
    case C::UNormF16:
      return typeFloat(native16 ? 16 : 32);
    case C::F64:
    case C::SNormF64:
    case C::UNormF64:
      return typeFloat(64);
    default:
      return typeFloat(32);
    }
  };

  const dxil::Signatures &sigs = entry_.signatures;
  const std::vector<dxil::DxilSignatureElement> *lists[3] = {&sigs.inputs, &sigs.outputs,
                                                             &sigs.patchConstants};
  // The outer array of per-vertex signatures.
  auto outerLength = [&](SignatureKind sig) -> uint32_t {
    switch (stage) {
    case ShaderKind::Geometry:
      return sig == SignatureKind::Input && p.gs ? geometryInputVertices(p.gs->inputPrimitive) : 0;
    case ShaderKind::Hull:
      if (sig == SignatureKind::Input)
        return std::max(1u, p.hs->inputControlPoints);
      return sig == SignatureKind::Output ? std::max(1u, p.hs->outputControlPoints) : 0;
    case ShaderKind::Domain:
      return sig == SignatureKind::Input && p.ds ? std::max(1u, p.ds->inputControlPoints) : 0;
    case ShaderKind::Mesh:
      if (!p.ms)
        return 0;
      return sig == SignatureKind::Output          ? std::max(1u, p.ms->maxVertexCount)
             : sig == SignatureKind::PatchConstant ? std::max(1u, p.ms->maxPrimitiveCount)
                                                   : 0;
    default:
      return 0;
    }
  };
  if (stage == ShaderKind::Geometry && p.gs && !geometryInputVertices(p.gs->inputPrimitive))
    return void(fail("unsupported: geometry shader input primitive " +
                     std::to_string(p.gs->inputPrimitive)));
  const LocationOffsets offsets = locationOffsets(stage, sigs);

  for (uint32_t k = 0; k < 3 && !failed_; ++k) {
    const SignatureKind sig = SignatureKind(k);
    const bool output = sig == SignatureKind::Output ||
                        (sig == SignatureKind::PatchConstant && stage != ShaderKind::Domain);
    const StorageClass sc = output ? StorageClass::Output : StorageClass::Input;
    const uint32_t outer = outerLength(sig);
    // Flattened built-ins (clip/cull distances) shared by several elements: their lengths.
    std::map<uint32_t, uint32_t> flattenedLength;
    for (const dxil::DxilSignatureElement &el : *lists[k]) {
      if (el.rows < 1 || el.rows > 32 || el.cols < 1 || el.cols > 4)
        return void(fail("signature element '" + el.name + "' has " + std::to_string(el.rows) +
                         " rows of " + std::to_string(el.cols) + " columns"));
      auto plan = planBuiltIn(stage, sig, el.semanticKind, el.interpolation);
      if (plan && plan->builtIn && plan->special == IoSpecial::Flattened && !plan->arrayLength)
        flattenedLength[uint32_t(plan->which)] += el.rows * el.cols;
    }
    std::map<uint32_t, uint32_t> flattenedNext;
    for (const dxil::DxilSignatureElement &el : *lists[k]) {
      IoElement e;
      e.storage = sc;
      e.rows = el.rows;
      e.cols = el.cols;
      auto plan = planBuiltIn(stage, sig, el.semanticKind, el.interpolation);
      if (plan && plan->special == IoSpecial::Dropped) {
        e.special = IoSpecial::Dropped;
        stageIO_.elements[k][el.id] = e;
        continue;
      }
      if (plan && plan->builtIn) {
        const BuiltIn b = plan->which;
        const bool fits = plan->special == IoSpecial::Flattened
                              ? !plan->arrayLength || el.rows * el.cols <= plan->arrayLength
                              : el.rows == 1 && el.cols <= std::max(1u, plan->vectorSize);
        if (!fits)
          return void(fail("signature element '" + el.name + "' has " + std::to_string(el.rows) +
                           " rows of " + std::to_string(el.cols) +
                           " columns, more than its built-in holds"));
        e.special = plan->special;
        e.scalarType = plan->scalar == ElementPlan::Scalar::Float  ? typeFloat(32)
                       : plan->scalar == ElementPlan::Scalar::Bool ? typeBool()
                                                                   : typeInt(32);
        uint32_t type = typeVector(e.scalarType, std::max(1u, plan->vectorSize));
        e.vector = plan->vectorSize > 1;
        uint32_t length = plan->arrayLength;
        if (e.special == IoSpecial::Flattened && !length) {
          length = flattenedLength[uint32_t(b)];
          e.base = flattenedNext[uint32_t(b)];
          flattenedNext[uint32_t(b)] += el.rows * el.cols;
        }
        if (length)
          type = typeArray(type, length);
        e.arrayed = outer && (stage == ShaderKind::Mesh || isPerVertexBuiltIn(b));
        if (e.arrayed)
          type = typeArray(type, outer);
        switch (b) {
        case BuiltIn::ClipDistance:
          capability(Capability::ClipDistance);
          break;
        case BuiltIn::CullDistance:
          capability(Capability::CullDistance);
          break;
        case BuiltIn::Layer:
        case BuiltIn::ViewportIndex:
          if (stage == ShaderKind::Mesh)
            break;
          if (stage == ShaderKind::Pixel || stage == ShaderKind::Geometry)
            capability(Capability::Geometry);
          else
            capability(b == BuiltIn::Layer ? Capability::ShaderLayer
                                           : Capability::ShaderViewportIndex);
          break;
        case BuiltIn::PrimitiveId:
          if (stage == ShaderKind::Pixel)
            capability(Capability::Geometry);
          break;
        case BuiltIn::SampleId:
          capability(Capability::SampleRateShading);
          break;
        case BuiltIn::FragStencilRefEXT:
          capability(Capability::StencilExportEXT);
          extension("SPV_EXT_shader_stencil_export");
          break;
        case BuiltIn::BaryCoordKHR:
        case BuiltIn::BaryCoordNoPerspKHR:
          capability(Capability::FragmentBarycentricKHR);
          extension("SPV_KHR_fragment_shader_barycentric");
          break;
        case BuiltIn::ShadingRateKHR:
        case BuiltIn::PrimitiveShadingRateKHR:
          capability(Capability::FragmentShadingRateKHR);
          extension("SPV_KHR_fragment_shading_rate");
          break;
        case BuiltIn::ViewIndex:
          capability(Capability::MultiView);
          break;
        default:
          break;
        }
        const bool fresh =
            !builtins_.count({uint32_t(b), uint32_t(sc == StorageClass::Output ? 1 : 0)});
        e.variable = sc == StorageClass::Output ? builtinOutput(b, type) : builtinInput(b, type);
        if (fresh && (b == BuiltIn::TessLevelOuter || b == BuiltIn::TessLevelInner))
          decorate(e.variable, Decoration::Patch);
        if (fresh && stage == ShaderKind::Mesh && sig == SignatureKind::PatchConstant)
          decorate(e.variable, Decoration::PerPrimitiveEXT);
        if (fresh && stage == ShaderKind::Geometry && stageIO_.multiStream && output)
          decorate(e.variable, Decoration::Stream, {el.outputStream.value_or(0)});
        stageIO_.elements[k][el.id] = e;
        continue;
      }
      // A located variable: a vector of the columns, an array of the rows.
      if (el.startRow < 0) {
        e.special = IoSpecial::Dropped; // a system value the driver places; none in Vulkan
        stageIO_.elements[k][el.id] = e;
        continue;
      }
      e.scalarType = elementScalar(el.componentType);
      if (scalarWidth(e.scalarType) == 16)
        capability(Capability::StorageInputOutput16);
      e.vector = e.cols > 1;
      e.rowArray = el.rows > 1;
      uint32_t type = typeVector(e.scalarType, e.cols);
      if (e.rowArray)
        type = typeArray(type, el.rows);
      const bool perVertex = stage == ShaderKind::Pixel && sig == SignatureKind::Input &&
                             stageIO_.perVertexInputs.count(el.id);
      e.arrayed = outer != 0 || perVertex;
      if (e.arrayed)
        type = typeArray(type, perVertex ? 3 : outer);
      e.variable = globalVariable(type, sc);
      name(e.variable, el.name);
      uint32_t location = uint32_t(el.startRow);
      std::optional<uint32_t> blendIndex;
      if (stage == ShaderKind::Pixel && output && el.semanticKind == SemanticKind::Target) {
        location = el.semanticIndices.empty() ? 0 : el.semanticIndices[0];
        if (options_.dualSourceBlending) {
          if (location > 1 || el.rows > 1) {
            fail("dual-source blending: the pixel shader writes SV_Target" +
                 std::to_string(location + el.rows - 1) +
                 " (only SV_Target0 and SV_Target1, "
                 "the blend's two sources, may be written)");
            return;
          }
          blendIndex = location;
          location = 0;
        }
      }
      if (sig == SignatureKind::PatchConstant)
        location += offsets.patch;
      if (stage == ShaderKind::Geometry && output)
        location += offsets.stream[std::min(3u, el.outputStream.value_or(0))];
      uint32_t component = uint32_t(std::max(0, el.startCol));
      bool perPrimitive = false; // a pixel shader input that a mesh shader writes per primitive
      if (!output && !options_.previousStage.empty() &&
          !linkInput(el, sig == SignatureKind::PatchConstant, location, component, perPrimitive))
        return;
      decorate(e.variable, Decoration::Location, {location});
      if (blendIndex)
        decorate(e.variable, Decoration::Index, {*blendIndex});
      if (component > 0)
        decorate(e.variable, Decoration::Component, {component});
      if (perPrimitive && stage == ShaderKind::Pixel) {
        capability(Capability::MeshShadingEXT);
        extension("SPV_EXT_mesh_shader");
        decorate(e.variable, Decoration::PerPrimitiveEXT);
      }
      if (sig == SignatureKind::PatchConstant && stage != ShaderKind::Mesh)
        decorate(e.variable, Decoration::Patch);
      if (sig == SignatureKind::PatchConstant && stage == ShaderKind::Mesh)
        decorate(e.variable, Decoration::PerPrimitiveEXT);
      if (stage == ShaderKind::Geometry && stageIO_.multiStream && output)
        decorate(e.variable, Decoration::Stream, {el.outputStream.value_or(0)});
      if (perVertex) {
        capability(Capability::FragmentBarycentricKHR);
        extension("SPV_KHR_fragment_shader_barycentric");
        decorate(e.variable, Decoration::PerVertexKHR);
      } else if (stage == ShaderKind::Pixel && sig == SignatureKind::Input) {
        interpolationDecorations(*this, e.variable, el.interpolation,
                                 !isFloatType(e.scalarType) || scalarWidth(e.scalarType) == 64);
      }
      stageIO_.elements[k][el.id] = e;
    }
  }
}

// ---- execution modes ------------------------------------------------------------------------

void Translator::addExecutionModes(uint32_t function) {
  const dxil::EntryProperties &p = entry_.properties;
  auto mode = [&](ExecutionMode m, std::initializer_list<uint32_t> literals) {
    b_.add(Section::ExecutionMode, Op::ExecutionMode)
        .id(function)
        .literal(uint32_t(m))
        .words(literals);
  };
  auto localSize = [&](std::optional<std::array<uint32_t, 3>> n) {
    const std::array<uint32_t, 3> v = n.value_or(std::array<uint32_t, 3>{1, 1, 1});
    mode(ExecutionMode::LocalSize, {std::max(1u, v[0]), std::max(1u, v[1]), std::max(1u, v[2])});
  };
  // The tessellator's domain (D3D: 1 isoline, 2 triangle, 3 quad).
  auto domain = [&](uint32_t d) {
    if (d == 1)
      mode(ExecutionMode::Isolines, {});
    else if (d == 2)
      mode(ExecutionMode::Triangles, {});
    else if (d == 3)
      mode(ExecutionMode::Quads, {});
    else
      fail("unsupported: tessellator domain " + std::to_string(d));
  };
  switch (entry_.kind) {
  case ShaderKind::Compute:
  case ShaderKind::Node: // thread launch: (1, 1, 1)
    localSize(p.numThreads);
    break;
  case ShaderKind::Pixel: {
    mode(ExecutionMode::OriginUpperLeft, {});
    // (Integer built-in inputs are flat: builtinInput.)
    if (p.shaderFlags && (*p.shaderFlags & 0x8))
      mode(ExecutionMode::EarlyFragmentTests, {});
    bool depth = false, stencil = false;
    SemanticKind depthKind = SemanticKind::Depth;
    for (const dxil::DxilSignatureElement &el : entry_.signatures.outputs) {
      if (el.semanticKind == SemanticKind::Depth ||
          el.semanticKind == SemanticKind::DepthLessEqual ||
          el.semanticKind == SemanticKind::DepthGreaterEqual) {
        depth = true;
        depthKind = el.semanticKind;
      }
      stencil |= el.semanticKind == SemanticKind::StencilRef;
    }
    if (depth) {
      mode(ExecutionMode::DepthReplacing, {});
      if (depthKind == SemanticKind::DepthGreaterEqual)
        mode(ExecutionMode::DepthGreater, {});
      else if (depthKind == SemanticKind::DepthLessEqual)
        mode(ExecutionMode::DepthLess, {});
    }
    if (stencil)
      mode(ExecutionMode::StencilRefReplacingEXT, {});
    break;
  }
  case ShaderKind::Geometry: {
    const dxil::GsState gs = p.gs.value_or(dxil::GsState{});
    switch (gs.inputPrimitive) {
    case 1:
      mode(ExecutionMode::InputPoints, {});
      break;
    case 2:
      mode(ExecutionMode::InputLines, {});
      break;
    case 3:
      mode(ExecutionMode::Triangles, {});
      break;
    case 6:
      mode(ExecutionMode::InputLinesAdjacency, {});
      break;
    case 7:
      mode(ExecutionMode::InputTrianglesAdjacency, {});
      break;
    default:
      break; // rejected with the inputs
    }
    mode(ExecutionMode::Invocations, {std::max(1u, gs.instanceCount)});
    mode(ExecutionMode::OutputVertices, {gs.maxVertexCount});
    // D3D_PRIMITIVE_TOPOLOGY: 1 point list, 3 line strip, 5 triangle strip.
    if (gs.outputTopology == 1)
      mode(ExecutionMode::OutputPoints, {});
    else if (gs.outputTopology == 3)
      mode(ExecutionMode::OutputLineStrip, {});
    else if (gs.outputTopology == 5)
      mode(ExecutionMode::OutputTriangleStrip, {});
    else
      fail("unsupported: geometry shader output topology " + std::to_string(gs.outputTopology));
    break;
  }
  case ShaderKind::Hull: {
    const dxil::HsState hs = p.hs.value_or(dxil::HsState{});
    mode(ExecutionMode::OutputVertices, {std::max(1u, hs.outputControlPoints)});
    domain(hs.domain);
    // Partitioning: 1 integer, 2 pow2 (no Vulkan equivalent: equal spacing is the closest),
    // 3 fractional odd, 4 fractional even.
    if (hs.partitioning == 3)
      mode(ExecutionMode::SpacingFractionalOdd, {});
    else if (hs.partitioning == 4)
      mode(ExecutionMode::SpacingFractionalEven, {});
    else
      mode(ExecutionMode::SpacingEqual, {});
    // Output primitive: 1 point, 2 line, 3 triangle cw, 4 triangle ccw.
    if (hs.outputPrimitive == 1)
      mode(ExecutionMode::PointMode, {});
    else if (hs.outputPrimitive == 3)
      mode(ExecutionMode::VertexOrderCw, {});
    else if (hs.outputPrimitive == 4)
      mode(ExecutionMode::VertexOrderCcw, {});
    break;
  }
  case ShaderKind::Domain:
    domain(p.ds ? p.ds->domain : 0);
    break;
  case ShaderKind::Mesh: {
    const dxil::MsState ms = p.ms.value_or(dxil::MsState{});
    localSize(p.ms ? std::optional(ms.numThreads) : p.numThreads);
    // Vulkan wants both above 0 (VUID-StandaloneSpirv-MeshEXT-07330/07331); they are maxima,
    // so 1 also holds a mesh shader that outputs nothing.
    mode(ExecutionMode::OutputVertices, {std::max(1u, ms.maxVertexCount)});
    mode(ExecutionMode::OutputPrimitivesEXT, {std::max(1u, ms.maxPrimitiveCount)});
    // Mesh output topology: 1 line, 2 triangle.
    mode(ms.outputTopology == 1 ? ExecutionMode::OutputLinesEXT : ExecutionMode::OutputTrianglesEXT,
         {});
    break;
  }
  case ShaderKind::Amplification:
    localSize(p.as ? std::optional(p.as->numThreads) : p.numThreads);
    break;
  default:
    break;
  }
}

// ---- the hull shader's entry ----------------------------------------------------------------

bool Translator::translateHullEntry(uint32_t entryFunction) {
  const uint32_t controlPoint = functionId(entry_.functionIndex);
  const uint32_t patchConstant = stageIO_.patchConstantFunction != dxil::kNoId
                                     ? functionId(stageIO_.patchConstantFunction)
                                     : 0;
  const uint32_t voidType = typeVoid(), functionType = typeFunction(voidType, {});
  const uint32_t u32 = typeInt(32), boolType = typeBool();
  const uint32_t invocation = builtinInput(BuiltIn::InvocationId, u32);
  const uint32_t zero = constU32(0), workgroup = constU32(uint32_t(grammar::Scope::Workgroup)),
                 invocationScope = constU32(uint32_t(grammar::Scope::Invocation));
  const uint32_t entryLabel = id(), loaded = id(), isFirst = id(), callLabel = id(),
                 mergeLabel = id(), call1 = id(), call2 = id();
  auto add = [&](Op op) { return b_.add(Section::FunctionDefinition, op); };
  add(Op::Function).id(voidType).id(entryFunction).literal(0).id(functionType);
  add(Op::Label).id(entryLabel);
  add(Op::FunctionCall).id(voidType).id(call1).id(controlPoint);
  if (patchConstant) {
    // Every control point is written before the patch constant phase reads them.
    add(Op::ControlBarrier).id(workgroup).id(invocationScope).id(zero);
    add(Op::Load).id(u32).id(loaded).id(invocation);
    add(Op::IEqual).id(boolType).id(isFirst).id(loaded).id(zero);
    add(Op::SelectionMerge).id(mergeLabel).literal(0);
    add(Op::BranchConditional).id(isFirst).id(callLabel).id(mergeLabel);
    add(Op::Label).id(callLabel);
    add(Op::FunctionCall).id(voidType).id(call2).id(patchConstant);
    add(Op::Branch).id(mergeLabel);
    add(Op::Label).id(mergeLabel);
  }
  add(Op::Return);
  add(Op::FunctionEnd);
  // The control point function (and what it calls), then the patch constant function: both
  // void(void), as an entry function is.
  if (!translateFunctions())
    return false;
  if (patchConstant) {
    name(patchConstant, llvm().name(llvm().functions[stageIO_.patchConstantFunction].value));
    return translateFunction(stageIO_.patchConstantFunction, true);
  }
  return true;
}

// ---- the dx.op calls ------------------------------------------------------------------------

bool Translator::translateStageOp(const dxil::DxilOpCall &call, const dxil::Instruction &inst,
                                  std::span<const dxil::ValueId> args, bool &handled) {
  const DxOp op = DxOp(call.op->opcode);
  handled = true;
  const ShaderKind stage = entry_.kind;
  const bool hasResult = inst.value != dxil::kNoId;
  const uint32_t type = hasResult ? llvmType(inst.type) : 0;
  const uint32_t u32 = typeInt(32);
  if (failed_)
    return false;
  auto constArg = [&](size_t i, int64_t &out) { return opConstant(call, args, i, out); };
  auto result = [&](uint32_t v) {
    if (hasResult && v)
      setValue(inst.value, v);
    return !failed_;
  };
  auto loadBuiltIn = [&](BuiltIn b, uint32_t t) { return emit(Op::Load, t, {builtinInput(b, t)}); };
  // The element a (signature, id) pair names.
  auto element = [&](SignatureKind sig, size_t idArg) -> const IoElement * {
    int64_t id = 0;
    if (!constArg(idArg, id))
      return nullptr;
    auto &map = stageIO_.elements[uint32_t(sig)];
    auto it = map.find(uint32_t(id));
    if (it == map.end()) {
      fail("dx.op." + std::string(call.op->name) + " names signature element " +
           std::to_string(id) + ", which the signature does not have");
      return nullptr;
    }
    return &it->second;
  };
  // A pointer to the scalar at (vertex, row, column) of an element; `vertex` is an id or 0.
  auto pointer = [&](const IoElement &e, uint32_t vertex, size_t rowArg,
                     size_t colArg) -> uint32_t {
    int64_t col = 0;
    if (!constArg(colArg, col))
      return 0;
    if (rowArg >= args.size())
      return fail("dx.op." + std::string(call.op->name) + " has too few operands");
    const dxil::ValueId rowValue = args[rowArg];
    std::vector<uint32_t> chain{e.variable};
    if (e.arrayed) {
      if (!vertex)
        return fail("dx.op." + std::string(call.op->name) +
                    " reads a per-vertex element without a vertex index");
      chain.push_back(vertex);
    }
    int64_t row = 0;
    const bool constantRow = constantInt(rowValue, row);
    if ((constantRow && (row < 0 || row >= e.rows)) || col < 0 || col >= e.cols)
      return fail("dx.op." + std::string(call.op->name) + " reads or writes row " +
                  (constantRow ? std::to_string(row) : std::string("?")) + ", column " +
                  std::to_string(col) + " of an element of " + std::to_string(e.rows) +
                  " rows and " + std::to_string(e.cols) + " columns");
    switch (e.special) {
    case IoSpecial::Flattened:
      if (constantRow) {
        chain.push_back(constU32(uint32_t(e.base + row * e.cols + col)));
      } else {
        const uint32_t r = toU32(value(rowValue), llvmType(llvm().typeOf(rowValue)));
        chain.push_back(
            emit(Op::IAdd, u32,
                 {emit(Op::IMul, u32, {r, constU32(e.cols)}), constU32(uint32_t(e.base + col))}));
      }
      break;
    case IoSpecial::ArrayOfOne:
      chain.push_back(constU32(0));
      break;
    default:
      if (e.rowArray)
        chain.push_back(value(rowValue));
      if (e.vector)
        chain.push_back(constU32(uint32_t(col)));
      break;
    }
    if (failed_)
      return 0;
    if (chain.size() == 1)
      return e.variable;
    return emit(Op::AccessChain, typePointer(e.storage, e.scalarType), chain);
  };
  auto load = [&](const IoElement *e, uint32_t vertex, size_t rowArg, size_t colArg) -> uint32_t {
    if (!e)
      return 0;
    if (e->special == IoSpecial::Dropped || !e->variable)
      return fail("unsupported: reading a signature element that has no Vulkan equivalent");
    if (e->special == IoSpecial::VertexIndex || e->special == IoSpecial::InstanceIndex) {
      // D3D's ids exclude the draw's base vertex / instance.
      capability(Capability::DrawParameters);
      const BuiltIn base =
          e->special == IoSpecial::VertexIndex ? BuiltIn::BaseVertex : BuiltIn::BaseInstance;
      const uint32_t index = emit(Op::Load, u32, {e->variable});
      return convertScalar(emit(Op::ISub, u32, {index, loadBuiltIn(base, u32)}), u32, type);
    }
    const uint32_t ptr = pointer(*e, vertex, rowArg, colArg);
    if (!ptr)
      return 0;
    uint32_t v = emit(Op::Load, e->scalarType, {ptr});
    if (e->special == IoSpecial::FrontFacing && !isBoolType(type))
      return emit(Op::Select, type, {v, constI(type, ~0ull), constI(type, 0)});
    int64_t col = 0;
    if (e->special == IoSpecial::FragCoord && constantInt(args[colArg], col) && col == 3)
      v = emit(Op::FDiv, e->scalarType, {constF32(1.0f), v});
    return convertScalar(v, e->scalarType, type);
  };
  auto store = [&](const IoElement *e, uint32_t vertex, size_t rowArg, size_t colArg,
                   size_t valueArg) {
    if (!e)
      return false;
    if (e->special == IoSpecial::Dropped)
      return true;
    if (valueArg >= args.size())
      return !fail("dx.op." + std::string(call.op->name) + " has too few operands");
    const uint32_t ptr = pointer(*e, vertex, rowArg, colArg);
    const uint32_t v = value(args[valueArg]);
    const uint32_t from = llvmType(llvm().typeOf(args[valueArg]));
    if (!ptr || failed_)
      return false;
    emitVoid(Op::Store, {ptr, convertScalar(v, from, e->scalarType)});
    return !failed_;
  };
  auto argument = [&](size_t i) { return opArgument(call, args, i); };
  auto invocationId = [&] { return loadBuiltIn(BuiltIn::InvocationId, u32); };

  switch (op) {
  case DxOp::LoadInput: {
    const IoElement *e = element(SignatureKind::Input, 0);
    uint32_t vertex = 0;
    if (e && e->arrayed) // pixel inputs read per vertex elsewhere: the provoking vertex here
      vertex = stage == ShaderKind::Pixel ? constU32(0) : argument(3);
    return result(load(e, vertex, 1, 2));
  }
  case DxOp::AttributeAtVertex: {
    const IoElement *e = element(SignatureKind::Input, 0);
    return result(load(e, argument(3), 1, 2));
  }
  case DxOp::StoreOutput: {
    const IoElement *e = element(SignatureKind::Output, 0);
    if (stage == ShaderKind::Mesh)
      return !fail("StoreOutput in a mesh shader (StoreVertexOutput writes its vertices)");
    return store(e, e && e->arrayed ? invocationId() : 0, 1, 2, 3);
  }
  case DxOp::LoadOutputControlPoint: {
    if (stage != ShaderKind::Hull)
      return !fail("LoadOutputControlPoint outside a hull shader");
    const IoElement *e = element(SignatureKind::Output, 0);
    return result(load(e, argument(3), 1, 2));
  }
  case DxOp::LoadPatchConstant:
    return result(load(element(SignatureKind::PatchConstant, 0), 0, 1, 2));
  case DxOp::StorePatchConstant:
    if (stage != ShaderKind::Hull)
      return !fail("StorePatchConstant outside a hull shader");
    return store(element(SignatureKind::PatchConstant, 0), 0, 1, 2, 3);
  case DxOp::StoreVertexOutput:
    return store(element(SignatureKind::Output, 0), argument(4), 1, 2, 3);
  case DxOp::StorePrimitiveOutput:
    return store(element(SignatureKind::PatchConstant, 0), argument(4), 1, 2, 3);

  // ---- pixel shaders ------------------------------------------------------------------------
  case DxOp::EvalCentroid:
  case DxOp::EvalSampleIndex:
  case DxOp::EvalSnapped: {
    const IoElement *e = element(SignatureKind::Input, 0);
    if (!e)
      return false;
    if (e->special != IoSpecial::None || e->arrayed || !isFloatType(e->scalarType) ||
        scalarWidth(e->scalarType) != 32)
      return !fail("unsupported: evaluating an input that is not a 32-bit float attribute");
    capability(Capability::InterpolationFunction);
    const uint32_t ptr = pointer(*e, 0, 1, 2);
    if (!ptr)
      return false;
    uint32_t v = 0;
    if (op == DxOp::EvalCentroid) {
      v = glsl("InterpolateAtCentroid", e->scalarType, {ptr});
    } else if (op == DxOp::EvalSampleIndex) {
      v = glsl("InterpolateAtSample", e->scalarType, {ptr, argument(3)});
    } else {
      // Offsets in 1/16 pixel, signed 4-bit: sign-extend the low nibble and scale.
      const uint32_t f32 = typeFloat(32);
      auto offset = [&](size_t i) {
        const uint32_t x = argument(i);
        const uint32_t s = emit(Op::ShiftRightArithmetic, u32,
                                {emit(Op::ShiftLeftLogical, u32, {x, constU32(28)}), constU32(28)});
        return emit(Op::FMul, f32, {emit(Op::ConvertSToF, f32, {s}), constF32(1.0f / 16)});
      };
      const uint32_t ox = offset(3), oy = offset(4);
      const uint32_t offsets = emit(Op::CompositeConstruct, typeVector(f32, 2), {ox, oy});
      v = glsl("InterpolateAtOffset", e->scalarType, {ptr, offsets});
    }
    return result(convertScalar(v, e->scalarType, type));
  }
  case DxOp::Discard: {
    if (args.empty())
      return !fail("dx.op.discard has no condition");
    int64_t always = 0;
    if (constantInt(args[0], always)) {
      if (always & 1)
        emitVoid(Op::DemoteToHelperInvocation, {});
      capability(Capability::DemoteToHelperInvocation);
      return true;
    }
    // A helper function keeps the caller's block whole: void(bool) { if (c) demote; }.
    capability(Capability::DemoteToHelperInvocation);
    const uint32_t boolType = typeBool(), voidType = typeVoid();
    if (!stageIO_.discardFunction) {
      const uint32_t fn = id(), param = id(), entryLabel = id(), demoteLabel = id(),
                     mergeLabel = id();
      const uint32_t fnType = typeFunction(voidType, {boolType});
      auto add = [&](Op o) { return b_.add(Section::FunctionDefinition, o); };
      add(Op::Function).id(voidType).id(fn).literal(0).id(fnType);
      add(Op::FunctionParameter).id(boolType).id(param);
      add(Op::Label).id(entryLabel);
      add(Op::SelectionMerge).id(mergeLabel).literal(0);
      add(Op::BranchConditional).id(param).id(demoteLabel).id(mergeLabel);
      add(Op::Label).id(demoteLabel);
      add(Op::DemoteToHelperInvocation);
      add(Op::Branch).id(mergeLabel);
      add(Op::Label).id(mergeLabel);
      add(Op::Return);
      add(Op::FunctionEnd);
      name(fn, "discard");
      stageIO_.discardFunction = fn;
    }
    const uint32_t cond = value(args[0]);
    emit(Op::FunctionCall, voidType, {stageIO_.discardFunction, cond});
    return !failed_;
  }
  case DxOp::IsHelperLane:
    if (stage != ShaderKind::Pixel)
      return result(constBool(false));
    capability(Capability::DemoteToHelperInvocation);
    return result(emit(Op::IsHelperInvocationEXT, typeBool(), {}));
  case DxOp::SampleIndex:
    capability(Capability::SampleRateShading);
    return result(convertScalar(loadBuiltIn(BuiltIn::SampleId, u32), u32, type));
  case DxOp::Coverage: {
    const uint32_t mask = builtinInput(BuiltIn::SampleMask, typeArray(u32, 1));
    const uint32_t ptr =
        emit(Op::AccessChain, typePointer(StorageClass::Input, u32), {mask, constU32(0)});
    return result(convertScalar(emit(Op::Load, u32, {ptr}), u32, type));
  }
  case DxOp::InnerCoverage: {
    capability(Capability::FragmentFullyCoveredEXT);
    extension("SPV_EXT_fragment_fully_covered");
    return result(
        convertScalar(loadBuiltIn(BuiltIn::FullyCoveredEXT, typeBool()), typeBool(), type));
  }

  // ---- system values by intrinsic -----------------------------------------------------------
  case DxOp::PrimitiveID:
    if (stage == ShaderKind::Pixel)
      capability(Capability::Geometry);
    return result(convertScalar(loadBuiltIn(BuiltIn::PrimitiveId, u32), u32, type));
  case DxOp::ViewID:
    capability(Capability::MultiView);
    return result(convertScalar(loadBuiltIn(BuiltIn::ViewIndex, u32), u32, type));
  case DxOp::GSInstanceID:
  case DxOp::OutputControlPointID:
    return result(convertScalar(invocationId(), u32, type));
  case DxOp::DomainLocation: {
    int64_t component = 0;
    if (!constArg(0, component))
      return false;
    if (component < 0 || component > 2)
      return !fail("DomainLocation component " + std::to_string(component));
    const uint32_t f32 = typeFloat(32);
    const uint32_t coord = loadBuiltIn(BuiltIn::TessCoord, typeVector(f32, 3));
    return result(
        convertScalar(emit(Op::CompositeExtract, f32, {coord, uint32_t(component)}), f32, type));
  }
  case DxOp::StartVertexLocation:
  case DxOp::StartInstanceLocation:
    capability(Capability::DrawParameters);
    return result(convertScalar(
        loadBuiltIn(op == DxOp::StartVertexLocation ? BuiltIn::BaseVertex : BuiltIn::BaseInstance,
                    u32),
        u32, type));

  // ---- geometry shaders ---------------------------------------------------------------------
  case DxOp::EmitStream:
  case DxOp::CutStream:
  case DxOp::EmitThenCutStream: {
    int64_t stream = 0;
    if (!constArg(0, stream))
      return false;
    if (stream < 0 || stream > 3)
      return !fail("stream " + std::to_string(stream));
    const bool emitVertex = op != DxOp::CutStream, cut = op != DxOp::EmitStream;
    if (stageIO_.multiStream) {
      capability(Capability::GeometryStreams);
      const uint32_t s = constU32(uint32_t(stream));
      if (emitVertex)
        emitVoid(Op::EmitStreamVertex, {s});
      if (cut)
        emitVoid(Op::EndStreamPrimitive, {s});
    } else {
      if (emitVertex)
        emitVoid(Op::EmitVertex, {});
      if (cut)
        emitVoid(Op::EndPrimitive, {});
    }
    return true;
  }

  // ---- mesh and amplification shaders -------------------------------------------------------
  case DxOp::SetMeshOutputCounts:
    emitVoid(Op::SetMeshOutputsEXT, {argument(0), argument(1)});
    return !failed_;
  case DxOp::EmitIndices: {
    const bool lines = entry_.properties.ms && entry_.properties.ms->outputTopology == 1;
    const uint32_t count = lines ? 2 : 3;
    const uint32_t maxPrimitives =
        entry_.properties.ms ? std::max(1u, entry_.properties.ms->maxPrimitiveCount) : 1;
    const uint32_t vec = typeVector(u32, count);
    const uint32_t indices = builtinOutput(lines ? BuiltIn::PrimitiveLineIndicesEXT
                                                 : BuiltIn::PrimitiveTriangleIndicesEXT,
                                           typeArray(vec, maxPrimitives));
    const uint32_t primitive = argument(0);
    std::vector<uint32_t> parts;
    for (uint32_t i = 0; i < count; ++i)
      parts.push_back(argument(1 + i));
    if (failed_)
      return false;
    const uint32_t v = emit(Op::CompositeConstruct, vec, parts);
    const uint32_t ptr =
        emit(Op::AccessChain, typePointer(StorageClass::Output, vec), {indices, primitive});
    emitVoid(Op::Store, {ptr, v});
    return !failed_;
  }
  case DxOp::GetMeshPayload:
  case DxOp::DispatchMesh: {
    const dxil::ValueId pointerValue = op == DxOp::GetMeshPayload ? inst.value
                                       : args.size() >= 4         ? args[3]
                                                                  : dxil::kNoId;
    if (pointerValue == dxil::kNoId)
      return !fail("dx.op." + std::string(call.op->name) + " has no payload");
    const dxil::TypeId pointerType = llvm().typeOf(pointerValue);
    if (llvm().type(pointerType).kind != dxil::TypeKind::Pointer)
      return !fail("the payload is not a pointer");
    const uint32_t payloadType = llvmType(llvm().elementType(pointerType));
    if (failed_)
      return false;
    if (!stageIO_.taskPayload)
      stageIO_.taskPayload = globalVariable(payloadType, StorageClass::TaskPayloadWorkgroupEXT);
    if (op == DxOp::GetMeshPayload) {
      setValue(inst.value, stageIO_.taskPayload);
      setPointerClass(inst.value, StorageClass::TaskPayloadWorkgroupEXT);
      return true;
    }
    // OpEmitMeshTasksEXT ends the block: DXIL's call must be right before the return.
    const dxil::Instruction &next = llvm().instructions[currentInstruction_ + 1];
    if (next.opcode != dxil::Opcode::Ret)
      return !fail("unsupported: DispatchMesh that is not followed by the return");
    const uint32_t x = argument(0), y = argument(1), z = argument(2);
    const uint32_t source = value(pointerValue);
    if (failed_)
      return false;
    emitVoid(Op::Store, {stageIO_.taskPayload, emit(Op::Load, payloadType, {source})});
    emitVoid(Op::EmitMeshTasksEXT, {x, y, z, stageIO_.taskPayload});
    emitLabel(id()); // the return that follows lands in a block nothing reaches
    return true;
  }
  default:
    handled = false;
    return true;
  }
}

} // namespace spire::translate
