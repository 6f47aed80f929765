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

/// The first per-stage descriptor limit of the device that a layout goes beyond (every binding
/// is visible to every stage), or its push constant size limit, as a skip reason.
std::optional<std::string> exceededLimit(const VulkanContext &ctx,
                                         std::span<const LayoutBinding> bindings,
                                         uint32_t pushConstantSize) {
  const VkPhysicalDeviceLimits &l = ctx.properties().limits;
  if (pushConstantSize > l.maxPushConstantsSize)
    return "the shader's push constants take " + std::to_string(pushConstantSize) +
           " bytes where " + ctx.deviceName() + " allows " +
           std::to_string(l.maxPushConstantsSize) + " (maxPushConstantsSize)";
  uint32_t uniform = 0, storage = 0, sampled = 0, images = 0, samplers = 0, total = 0;
  for (const LayoutBinding &b : bindings) {
    if (b.set >= l.maxBoundDescriptorSets)
      return ctx.deviceName() + " binds " + std::to_string(l.maxBoundDescriptorSets) +
             " descriptor sets (maxBoundDescriptorSets); the shader uses set " +
             std::to_string(b.set);
    switch (b.kind) {
    case DescriptorKind::UniformBuffer:
    case DescriptorKind::UniformBufferDynamic:
      uniform += b.count;
      break;
    case DescriptorKind::StorageBuffer:
    case DescriptorKind::StorageBufferDynamic:
      storage += b.count;
      break;
    case DescriptorKind::SampledImage:
    case DescriptorKind::UniformTexelBuffer:
      sampled += b.count;
      break;
    case DescriptorKind::CombinedImageSampler:
      sampled += b.count;
      samplers += b.count;
      break;
    case DescriptorKind::StorageImage:
    case DescriptorKind::StorageTexelBuffer:
      images += b.count;
      break;
    case DescriptorKind::Sampler:
      samplers += b.count;
      break;
    case DescriptorKind::AccelerationStructure:
      break;
    }
    total += b.count;
  }
  const std::pair<const char *, std::pair<uint32_t, uint32_t>> checks[] = {
      {"maxPerStageDescriptorUniformBuffers", {uniform, l.maxPerStageDescriptorUniformBuffers}},
      {"maxPerStageDescriptorStorageBuffers", {storage, l.maxPerStageDescriptorStorageBuffers}},
      {"maxPerStageDescriptorSampledImages", {sampled, l.maxPerStageDescriptorSampledImages}},
      {"maxPerStageDescriptorStorageImages", {images, l.maxPerStageDescriptorStorageImages}},
      {"maxPerStageDescriptorSamplers", {samplers, l.maxPerStageDescriptorSamplers}},
      {"maxPerStageResources", {total, l.maxPerStageResources}},
  };
  for (const auto &[name, used] : checks)
    if (used.first > used.second)
      return "the layout has " + std::to_string(used.first) + " descriptors where " +
             ctx.deviceName() + " allows " + std::to_string(used.second) + " (" + name + ")";
  return std::nullopt;
}

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

PipelineCheck checkEntry(VulkanContext &ctx, const ModuleInterface &mi,
                         std::span<const uint32_t> words, const EntryPoint &ep,
                         const PipelineCheckOptions &options) {
  PipelineCheck c;
  c.entry = ep.name;
  c.model = ep.model;
  auto skip = [&](std::string why) {
    c.outcome = PipelineCheck::Outcome::Skipped;
    c.reason = std::move(why);
    return c;
  };
  auto reject = [&](std::string why) {
    c.outcome = PipelineCheck::Outcome::Rejected;
    c.messages = ctx.takeMessages();
    // A validation error aborts the call it reports (VulkanContext::onMessage): the messages
    // say why, the failed call's VkResult nothing more.
    if (c.messages.empty())
      c.reason = std::move(why);
    return c;
  };
  if (ep.model != "GLCompute" && ep.model != "Vertex" && ep.model != "Fragment" &&
      ep.model != "Geometry" && ep.model != "TessellationControl" &&
      ep.model != "TessellationEvaluation" && ep.model != "MeshEXT" && ep.model != "TaskEXT" &&
      !isRayTracingModel(ep.model))
    return skip("a " + ep.model +
                " entry point (pipelines are made for compute, vertex, tessellation, geometry, "
                "task, mesh, fragment and ray tracing shaders)");
  if (auto why = unmetModuleRequirement(ctx, mi))
    return skip(*why);
  // With exactFeatures, a device with only what the pipeline needs replaces the one there.
  auto useDevice = [&](const GraphicsPipelineDesc *graphics,
                       const ModuleInterface *generated) -> std::optional<std::string> {
    if (!options.exactFeatures)
      return std::nullopt;
    DeviceNeeds needs = pipelineNeeds(ctx, mi, ep, graphics, generated);
    if (Status s = ctx.recreateDevice(needs.extensions, needs.features); !s)
      return s.error().message;
    return std::nullopt;
  };
  if (ep.model == "GLCompute") {
    const ModuleInterface *modules[] = {&mi};
    auto bindings = layoutBindings(modules);
    if (!bindings)
      return reject(bindings.error().message);
    if (auto why = exceededLimit(ctx, *bindings, mi.pushConstantSize))
      return skip(*why);
    ComputePipelineDesc desc;
    desc.spirv = words;
    desc.entryPoint = ep.name;
    desc.bindings = std::move(*bindings);
    desc.pushConstantSize = mi.pushConstantSize;
    if (auto why = useDevice(nullptr, nullptr))
      return skip(*why);
    ctx.takeMessages();
    auto p = ComputePipeline::create(ctx, desc);
    if (!p)
      return reject(p.error().message);
  } else if (isRayTracingModel(ep.model)) {
    // The shader alone in a ray tracing pipeline, in the group its stage takes.
    const ModuleInterface *modules[] = {&mi};
    auto bindings = layoutBindings(modules);
    if (!bindings)
      return reject(bindings.error().message);
    if (auto why = exceededLimit(ctx, *bindings, mi.pushConstantSize))
      return skip(*why);
    std::vector<uint32_t> rayGeneration;
    if (ep.model != "RayGenerationKHR")
      rayGeneration = passThroughRayGenerationShader(mi);
    RayTracingPipelineDesc desc;
    desc.rayGeneration = rayGeneration;
    desc.spirv = words;
    desc.entryPoint = ep.name;
    desc.model = ep.model;
    desc.bindings = std::move(*bindings);
    desc.pushConstantSize = mi.pushConstantSize;
    if (auto why = useDevice(nullptr, nullptr))
      return skip(*why);
    ctx.takeMessages();
    auto p = RayTracingPipeline::create(ctx, desc);
    if (!p)
      return reject(p.error().message);
  } else if (ep.model == "MeshEXT" || ep.model == "TaskEXT") {
    // A mesh shader alone, without a fragment stage (rasterizer discard); a task shader with a
    // generated mesh shader after it.
    const bool task = ep.model == "TaskEXT";
    std::vector<uint32_t> meshWords;
    ModuleInterface meshInterface;
    if (task) {
      meshWords = passThroughMeshShader(mi);
      auto m = Module::fromWords(meshWords);
      auto r = m ? reflect(*m) : Expected<ModuleInterface>(m.error());
      if (!r)
        return reject("the generated mesh shader does not read back: " + r.error().message);
      meshInterface = std::move(*r);
    }
    const ModuleInterface *modules[] = {&mi, &meshInterface};
    auto bindings = layoutBindings(std::span(modules, task ? 2 : 1));
    if (!bindings)
      return reject(bindings.error().message);
    GraphicsPipelineDesc desc;
    desc.bindings = std::move(*bindings);
    desc.pushConstantSize = mi.pushConstantSize;
    if (task) {
      desc.task = words;
      desc.taskEntry = ep.name;
      desc.mesh = meshWords;
    } else {
      desc.mesh = words;
      desc.meshEntry = ep.name;
    }
    if (auto why = exceededLimit(ctx, desc.bindings, desc.pushConstantSize))
      return skip(*why);
    if (auto why = useDevice(&desc, task ? &meshInterface : nullptr))
      return skip(*why);
    ctx.takeMessages();
    auto p = GraphicsPipeline::create(ctx, desc);
    if (!p)
      return reject(p.error().message);
  } else {
    // A fragment shader with the given vertex shader or a generated one; a geometry shader
    // with a generated one and no fragment stage (rasterizer discard); a tessellation control
    // shader between generated vertex and evaluation shaders, an evaluation shader after
    // generated vertex and control shaders (neither with a fragment stage).
    const bool geometry = ep.model == "Geometry";
    const bool control = ep.model == "TessellationControl";
    const bool evaluation = ep.model == "TessellationEvaluation";
    const bool fragment = ep.model == "Fragment" || geometry || control || evaluation;
    std::vector<uint32_t> vertexWords, controlWords, evaluationWords;
    ModuleInterface vertexInterface, controlInterface;
    const bool given = !options.vertexShader.empty() && ep.model == "Fragment";
    if (evaluation) {
      auto tcs = passThroughTessellationControlShader(mi, ep);
      if (!tcs)
        return skip("no tessellation control shader can feed it: " + tcs.error().message);
      controlWords = std::move(*tcs);
      auto m = Module::fromWords(controlWords);
      auto ci = m ? reflect(*m) : Expected<ModuleInterface>(m.error());
      if (!ci)
        return reject("the generated tessellation control shader does not read back: " +
                      ci.error().message);
      controlInterface = std::move(*ci);
    }
    if (control)
      evaluationWords = passThroughTessellationEvaluationShader(mi);
    if (fragment) {
      if (given) {
        vertexWords.assign(options.vertexShader.begin(), options.vertexShader.end());
      } else {
        const ModuleInterface &fed = evaluation ? controlInterface : mi;
        auto vs = passThroughVertexShader(fed, evaluation ? fed.entryPoints.at(0) : ep);
        if (!vs)
          return skip("no vertex shader can feed it: " + vs.error().message);
        vertexWords = std::move(*vs);
      }
      auto m = Module::fromWords(vertexWords);
      if (!m)
        return reject(std::string(given ? "the" : "the generated") +
                      " vertex shader does not read back: " + m.error().message);
      auto vi = reflect(*m);
      if (!vi)
        return reject(vi.error().message);
      vertexInterface = std::move(*vi);
    }
    const ModuleInterface &vmi = fragment ? vertexInterface : mi;
    auto vertexEntry = std::find_if(vmi.entryPoints.begin(), vmi.entryPoints.end(),
                                    [](const EntryPoint &e) { return e.model == "Vertex"; });
    if (fragment && vertexEntry == vmi.entryPoints.end())
      return reject("the vertex shader has no Vertex entry point");
    const EntryPoint &vep = fragment ? *vertexEntry : ep;
    const bool withFragment = ep.model == "Fragment";
    auto desc = describeGraphicsPipeline(ctx, vmi, vep, withFragment ? &mi : nullptr,
                                         withFragment ? &ep : nullptr);
    if (!desc)
      return skip(desc.error().message);
    if (!withFragment && fragment) { // the bindings of the shader checked
      const ModuleInterface *modules[] = {&vmi, &mi};
      auto bindings = layoutBindings(modules);
      if (!bindings)
        return reject(bindings.error().message);
      desc->bindings = std::move(*bindings);
      desc->pushConstantSize = std::max(vmi.pushConstantSize, mi.pushConstantSize);
    }
    if (geometry) {
      desc->geometry = words;
      desc->geometryEntry = ep.name;
      desc->topology = inputTopology(ep);
    }
    if (control) {
      desc->tessellationControl = words;
      desc->tessellationControlEntry = ep.name;
      desc->tessellationEvaluation = evaluationWords;
      desc->patchControlPoints = patchSize(mi, ep);
    }
    if (evaluation) {
      desc->tessellationControl = controlWords;
      desc->tessellationEvaluation = words;
      desc->tessellationEvaluationEntry = ep.name;
      desc->patchControlPoints = patchSize(controlInterface, controlInterface.entryPoints.at(0));
    }
    if (auto why = exceededLimit(ctx, desc->bindings, desc->pushConstantSize))
      return skip(*why);
    desc->vertex = fragment ? std::span<const uint32_t>(vertexWords) : words;
    if (withFragment)
      desc->fragment = words;
    if (auto why = useDevice(&*desc, fragment ? &vertexInterface : nullptr))
      return skip(*why);
    ctx.takeMessages();
    auto p = GraphicsPipeline::create(ctx, *desc);
    if (!p)
      return reject(p.error().message);
  }
  c.messages = ctx.takeMessages();
  if (!c.messages.empty())
    c.outcome = PipelineCheck::Outcome::Rejected;
  return c;
}

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
      out.push_back(checkEntry(ctx, *mi, words, ep, options));
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
