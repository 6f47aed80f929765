#include "spire/run/PipelineCheck.h"

#include "spire/grammar/Grammar.h"
#include "spire/run/ComputePipeline.h"
#include "spire/run/GraphicsPipeline.h"
#include "spire/run/ModuleRequirements.h"
#include "spire/run/PassThroughVertexShader.h"
#include "spire/run/RayTracingPipeline.h"

#include <algorithm>
#include <optional>

namespace spire::run {

namespace {

constexpr uint32_t kModeLocalSizeId = uint32_t(grammar::ExecutionMode::LocalSizeId);

/// What the module needs of the device (moduleNeeds) and what the pipeline made for it needs:
/// dynamic rendering, independent blending where some colour locations have no output,
/// stores from vertex and fragment shaders, maintenance4 for LocalSizeId, extended types in
/// subgroup operations where the module has 8-, 16- or 64-bit types. `generated`: the vertex
/// shader made for a fragment shader alone, whose needs are added.
DeviceNeeds pipelineNeeds(const VulkanContext &ctx, const ModuleInterface &mi, const EntryPoint &ep,
                          const GraphicsPipelineDesc *graphics, const ModuleInterface *generated) {
  DeviceNeeds needs = moduleNeeds(ctx, mi);
  auto need = [&](const std::string &feature) {
    if (std::find(needs.features.begin(), needs.features.end(), feature) == needs.features.end())
      needs.features.emplace_back(feature);
  };
  for (const std::vector<uint32_t> &mode : ep.executionModes)
    if (mode[0] == kModeLocalSizeId)
      need("Maintenance4Features.maintenance4");
  auto declares = [&](std::string_view capability) {
    return std::find(mi.capabilities.begin(), mi.capabilities.end(), capability) !=
           mi.capabilities.end();
  };
  const bool subgroups =
      std::any_of(mi.capabilities.begin(), mi.capabilities.end(),
                  [](const std::string &c) { return c.starts_with("GroupNonUniform"); });
  if (subgroups &&
      (declares("Int8") || declares("Int16") || declares("Int64") || declares("Float16")))
    need("ShaderSubgroupExtendedTypesFeatures.shaderSubgroupExtendedTypes");
  if (!graphics)
    return needs;
  if (generated) {
    DeviceNeeds more = moduleNeeds(ctx, *generated);
    for (const std::string &f : more.features)
      need(f);
    for (const std::string &e : more.extensions)
      if (std::find(needs.extensions.begin(), needs.extensions.end(), e) == needs.extensions.end())
        needs.extensions.push_back(e);
  }
  need("DynamicRenderingFeatures.dynamicRendering");
  if (std::find(graphics->colorFormats.begin(), graphics->colorFormats.end(),
                VK_FORMAT_UNDEFINED) != graphics->colorFormats.end())
    need("independentBlend");
  for (const Resource &r : mi.resources) {
    if (r.nonWritable || !isWritableKind(r.kind) || r.kind == DescriptorKind::SampledImage ||
        r.kind == DescriptorKind::CombinedImageSampler)
      continue;
    if (ep.model == "Fragment")
      need("fragmentStoresAndAtomics");
    else if (ep.model != "MeshEXT" && ep.model != "TaskEXT") // those store freely
      need("vertexPipelineStoresAndAtomics");
  }
  if (ep.model == "TaskEXT")
    need("MeshShaderFeatures.taskShader");
  return needs;
}

/// The patch size a tessellation control shader takes: the length of its per-vertex input
/// arrays (3 when it has none).
uint32_t patchSize(const ModuleInterface &mi, const EntryPoint &ep) {
  for (const StageVariable *v : mi.stageVariablesOf(ep, false))
    if (!v->patch && !v->arrayLengths.empty() && v->arrayLengths[0])
      return v->arrayLengths[0];
  return 3;
}

/// The input assembly topology a geometry shader's input primitive takes.
VkPrimitiveTopology inputTopology(const EntryPoint &ep) {
  for (const std::vector<uint32_t> &mode : ep.executionModes) {
    switch (mode.empty() ? ~0u : mode[0]) {
    case uint32_t(grammar::ExecutionMode::InputPoints):
      return VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    case uint32_t(grammar::ExecutionMode::InputLines):
      return VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
    case uint32_t(grammar::ExecutionMode::InputLinesAdjacency):
      return VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY;
    case uint32_t(grammar::ExecutionMode::InputTrianglesAdjacency):
      return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY;
    default:
      break;
    }
  }
  return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST; // Triangles
}

/// The interface of a module made here (a generated stage, or one given to link against).
Expected<ModuleInterface> interfaceOf(std::span<const uint32_t> words) {
  auto m = Module::fromWords(std::vector<uint32_t>(words.begin(), words.end()));
  if (!m)
    return m.error();
  return reflect(*m);
}

/// The check of one entry point: its outcome `c`, built by one method per kind of pipeline,
/// each of which returns false when it has decided the outcome (a skip or a rejection).
class EntryCheck {
public:
  EntryCheck(VulkanContext &ctx, const ModuleInterface &mi, std::span<const uint32_t> words,
             const EntryPoint &ep, const PipelineCheckOptions &options)
      : ctx_(ctx), mi_(mi), words_(words), ep_(ep), options_(options) {
    c.entry = ep.name;
    c.model = ep.model;
  }

  PipelineCheck run() {
    const std::string &model = ep_.model;
    const bool known = model == "GLCompute" || model == "Vertex" || model == "Fragment" ||
                       model == "Geometry" || model == "TessellationControl" ||
                       model == "TessellationEvaluation" || model == "MeshEXT" ||
                       model == "TaskEXT" || isRayTracingModel(model);
    if (!known) {
      skip("a " + model +
           " entry point (pipelines are made for compute, vertex, tessellation, geometry, task, "
           "mesh, fragment and ray tracing shaders)");
      return c;
    }
    if (auto why = unmetModuleRequirement(ctx_, mi_)) {
      skip(*why);
      return c;
    }
    const bool made = model == "GLCompute"                       ? compute()
                      : isRayTracingModel(model)                 ? rayTracing()
                      : model == "MeshEXT" || model == "TaskEXT" ? mesh()
                                                                 : graphics();
    if (made) {
      c.messages = ctx_.takeMessages();
      if (!c.messages.empty())
        c.outcome = PipelineCheck::Outcome::Rejected;
    }
    return c;
  }

private:
  bool skip(std::string why) {
    c.outcome = PipelineCheck::Outcome::Skipped;
    c.reason = std::move(why);
    return false;
  }
  bool reject(std::string why) {
    c.outcome = PipelineCheck::Outcome::Rejected;
    c.messages = ctx_.takeMessages();
    // A validation error aborts the call it reports (VulkanContext::onMessage): the messages
    // say why, the failed call's VkResult nothing more.
    if (c.messages.empty())
      c.reason = std::move(why);
    return false;
  }
  /// The bindings and push constants of the pipeline's modules, within the device's limits.
  bool layOut(std::span<const ModuleInterface *const> modules) {
    auto b = layoutBindings(modules);
    if (!b)
      return reject(b.error().message);
    bindings_ = std::move(*b);
    pushConstantSize_ = 0;
    for (const ModuleInterface *m : modules)
      pushConstantSize_ = std::max(pushConstantSize_, m->pushConstantSize);
    if (auto why = exceededLayoutLimit(ctx_, bindings_, pushConstantSize_))
      return skip(*why);
    return true;
  }
  /// Creates the pipeline `make` makes, on a device with only what it needs when asked
  /// (exactFeatures), which replaces the one there.
  template <typename Make>
  bool create(const GraphicsPipelineDesc *graphics, const ModuleInterface *generated, Make make) {
    if (options_.exactFeatures) {
      DeviceNeeds needs = pipelineNeeds(ctx_, mi_, ep_, graphics, generated);
      if (Status s = ctx_.recreateDevice(needs.extensions, needs.features); !s)
        return skip(s.error().message);
    }
    ctx_.takeMessages();
    auto p = make();
    if (!p)
      return reject(p.error().message);
    return true;
  }
  /// A generated or given stage's interface, as `what` in the rejection when it has none.
  bool interfaceOfStage(std::span<const uint32_t> words, const std::string &what,
                        ModuleInterface &out) {
    auto i = interfaceOf(words);
    if (!i)
      return reject(what + " does not read back: " + i.error().message);
    out = std::move(*i);
    return true;
  }

  bool compute() {
    const ModuleInterface *modules[] = {&mi_};
    if (!layOut(modules))
      return false;
    ComputePipelineDesc desc;
    desc.spirv = words_;
    desc.entryPoint = ep_.name;
    desc.bindings = bindings_;
    desc.pushConstantSize = pushConstantSize_;
    return create(nullptr, nullptr, [&] { return ComputePipeline::create(ctx_, desc); });
  }

  /// The shader in a ray tracing pipeline, in the group its stage takes, after a generated ray
  /// generation shader unless it is one.
  bool rayTracing() {
    const ModuleInterface *modules[] = {&mi_};
    if (!layOut(modules))
      return false;
    std::vector<uint32_t> rayGeneration;
    if (ep_.model != "RayGenerationKHR")
      rayGeneration = passThroughRayGenerationShader(mi_);
    RayTracingPipelineDesc desc;
    desc.rayGeneration = rayGeneration;
    desc.spirv = words_;
    desc.entryPoint = ep_.name;
    desc.model = ep_.model;
    desc.bindings = bindings_;
    desc.pushConstantSize = pushConstantSize_;
    return create(nullptr, nullptr, [&] { return RayTracingPipeline::create(ctx_, desc); });
  }

  /// A mesh shader alone, without a fragment stage (rasterizer discard); a task shader with a
  /// generated mesh shader after it.
  bool mesh() {
    const bool task = ep_.model == "TaskEXT";
    std::vector<uint32_t> meshWords;
    ModuleInterface meshInterface;
    if (task) {
      meshWords = passThroughMeshShader(mi_);
      if (!interfaceOfStage(meshWords, "the generated mesh shader", meshInterface))
        return false;
    }
    const ModuleInterface *modules[] = {&mi_, &meshInterface};
    if (!layOut(std::span(modules, task ? 2 : 1)))
      return false;
    GraphicsPipelineDesc desc;
    desc.bindings = bindings_;
    desc.pushConstantSize = pushConstantSize_;
    if (task) {
      desc.task = words_;
      desc.taskEntry = ep_.name;
      desc.mesh = meshWords;
    } else {
      desc.mesh = words_;
      desc.meshEntry = ep_.name;
    }
    return create(&desc, task ? &meshInterface : nullptr,
                  [&] { return GraphicsPipeline::create(ctx_, desc); });
  }

  /// A vertex shader alone (rasterizer discard); a fragment shader after the given vertex shader
  /// or a generated one; a geometry shader after a generated one, without a fragment stage; a
  /// tessellation control shader between generated vertex and evaluation shaders, an
  /// evaluation shader after generated vertex and control shaders.
  bool graphics() {
    const std::string &model = ep_.model;
    const bool vertex = model == "Vertex", fragment = model == "Fragment";
    const bool geometry = model == "Geometry", control = model == "TessellationControl";
    const bool evaluation = model == "TessellationEvaluation";
    std::vector<uint32_t> vertexWords, controlWords, evaluationWords;
    ModuleInterface vertexInterface, controlInterface;
    if (evaluation) {
      auto tcs = passThroughTessellationControlShader(mi_, ep_);
      if (!tcs)
        return skip("no tessellation control shader can feed it: " + tcs.error().message);
      controlWords = std::move(*tcs);
      if (!interfaceOfStage(controlWords, "the generated tessellation control shader",
                            controlInterface))
        return false;
    }
    if (control)
      evaluationWords = passThroughTessellationEvaluationShader(mi_);
    const bool given = fragment && !options_.vertexShader.empty();
    if (!vertex) {
      if (given) {
        vertexWords.assign(options_.vertexShader.begin(), options_.vertexShader.end());
      } else {
        // The vertex shader feeds the checked shader, or the generated control shader.
        const ModuleInterface &fed = evaluation ? controlInterface : mi_;
        auto vs = passThroughVertexShader(fed, evaluation ? fed.entryPoints.at(0) : ep_);
        if (!vs)
          return skip("no vertex shader can feed it: " + vs.error().message);
        vertexWords = std::move(*vs);
      }
      if (!interfaceOfStage(vertexWords,
                            given ? "the vertex shader" : "the generated vertex shader",
                            vertexInterface))
        return false;
    }
    const ModuleInterface &vmi = vertex ? mi_ : vertexInterface;
    auto vertexEntry = std::find_if(vmi.entryPoints.begin(), vmi.entryPoints.end(),
                                    [](const EntryPoint &e) { return e.model == "Vertex"; });
    if (vertexEntry == vmi.entryPoints.end())
      return reject("the vertex shader has no Vertex entry point");
    const EntryPoint &vep = vertex ? ep_ : *vertexEntry;
    auto desc = describeGraphicsPipeline(ctx_, vmi, vep, fragment ? &mi_ : nullptr,
                                         fragment ? &ep_ : nullptr);
    if (!desc)
      return skip(desc.error().message);
    const ModuleInterface *modules[] = {&vmi, &mi_};
    if (!layOut(std::span(modules, vertex ? 1 : 2)))
      return false;
    desc->bindings = bindings_;
    desc->pushConstantSize = pushConstantSize_;
    desc->vertex = vertex ? words_ : std::span<const uint32_t>(vertexWords);
    if (fragment)
      desc->fragment = words_;
    if (geometry) {
      desc->geometry = words_;
      desc->geometryEntry = ep_.name;
      desc->topology = inputTopology(ep_);
    }
    if (control) {
      desc->tessellationControl = words_;
      desc->tessellationControlEntry = ep_.name;
      desc->tessellationEvaluation = evaluationWords;
      desc->patchControlPoints = patchSize(mi_, ep_);
    }
    if (evaluation) {
      desc->tessellationControl = controlWords;
      desc->tessellationEvaluation = words_;
      desc->tessellationEvaluationEntry = ep_.name;
      desc->patchControlPoints = patchSize(controlInterface, controlInterface.entryPoints.at(0));
    }
    return create(&*desc, vertex ? nullptr : &vertexInterface,
                  [&] { return GraphicsPipeline::create(ctx_, *desc); });
  }

  VulkanContext &ctx_;
  const ModuleInterface &mi_;
  std::span<const uint32_t> words_;
  const EntryPoint &ep_;
  const PipelineCheckOptions &options_;
  PipelineCheck c;
  std::vector<LayoutBinding> bindings_;
  uint32_t pushConstantSize_ = 0;
};

} // namespace

Expected<std::vector<PipelineCheck>> checkPipelines(VulkanContext &ctx,
                                                    std::span<const uint32_t> words,
                                                    const std::string &entry,
                                                    const PipelineCheckOptions &options) {
  auto m = Module::fromWords(std::vector<uint32_t>(words.begin(), words.end()));
  if (!m)
    return m.error();
  auto mi = reflect(*m);
  if (!mi)
    return mi.error();
  std::vector<PipelineCheck> out;
  for (const EntryPoint &ep : mi->entryPoints)
    if (entry.empty() || ep.name == entry)
      out.push_back(EntryCheck(ctx, *mi, words, ep, options).run());
  if (out.empty())
    return makeError({}, entry.empty() ? "the module has no entry point"
                                       : "the module has no entry point named '" + entry + "'");
  return out;
}

std::string describeCheck(const PipelineCheck &c) {
  switch (c.outcome) {
  case PipelineCheck::Outcome::Accepted:
    return "ok";
  case PipelineCheck::Outcome::Skipped:
    return "skipped: " + c.reason;
  case PipelineCheck::Outcome::Rejected:
    break;
  }
  std::string out = "rejected";
  if (!c.reason.empty())
    out += ": " + c.reason;
  for (const std::string &m : c.messages)
    out += "\n  validation: " + m;
  return out;
}

} // namespace spire::run
