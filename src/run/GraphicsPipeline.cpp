#include "spire/run/GraphicsPipeline.h"

#include "spire/run/DataType.h"

#include "spire/grammar/Grammar.h"

#include <algorithm>
#include <map>
#include <utility>

namespace spire::run {

namespace {

constexpr uint32_t kBuiltInFragDepth = uint32_t(grammar::BuiltIn::FragDepth),
                   kBuiltInFragStencilRef = uint32_t(grammar::BuiltIn::FragStencilRefEXT);

std::string where(const StageVariable &v) {
  return (v.name.empty() ? std::string("the variable at") : "'" + v.name + "' at") + " location " +
         std::to_string(v.location);
}

/// The number of elements (array elements times matrix columns) of a located variable, each one
/// vector; 0 when an array is a runtime one.
uint32_t elementCount(const StageVariable &v) {
  uint32_t n = std::max(1u, v.columns);
  for (size_t i = 0; i < v.arrayLengths.size(); ++i)
    n *= v.arrayLengths[i];
  return n;
}

bool formatHas(const VulkanContext &ctx, VkFormat f, bool buffer, VkFormatFeatureFlags want) {
  VkFormatProperties p{};
  ctx.vk().vkGetPhysicalDeviceFormatProperties(ctx.physicalDevice(), f, &p);
  return ((buffer ? p.bufferFeatures : p.optimalTilingFeatures) & want) == want;
}

/// The first of the formats that the device can attach as depth/stencil.
VkFormat firstDepthStencil(const VulkanContext &ctx, std::initializer_list<VkFormat> formats) {
  for (VkFormat f : formats)
    if (formatHas(ctx, f, false, VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT))
      return f;
  return VK_FORMAT_UNDEFINED;
}

} // namespace

VkFormat vertexFormat(ComponentKind kind, uint32_t width, uint32_t components) {
  if (components < 1 || components > 4 || (width != 8 && width != 16 && width != 32 && width != 64))
    return VK_FORMAT_UNDEFINED;
  DataType t; // the format tables the scripts' types use
  switch (kind) {
  case ComponentKind::Float:
    t.scalar.kind = NumberKind::Float;
    break;
  case ComponentKind::Int:
    t.scalar.kind = NumberKind::Int;
    break;
  case ComponentKind::Uint:
    t.scalar.kind = NumberKind::Uint;
    break;
  default:
    return VK_FORMAT_UNDEFINED;
  }
  t.scalar.bits = uint8_t(width);
  t.rows = uint8_t(components);
  return static_cast<VkFormat>(vkFormatOf(t));
}

Expected<std::vector<VertexAttribute>> vertexAttributes(const ModuleInterface &vertex,
                                                        const EntryPoint &entry) {
  // Each vector (array element, matrix column) takes a location, a 64-bit vector of three or
  // four components two; inputs that share a location (by Component) share its attribute.
  struct Slot {
    const StageVariable *first = nullptr;
    uint32_t components = 0;
  };
  std::map<uint32_t, Slot> slots;
  for (const StageVariable *v : vertex.stageVariablesOf(entry, false)) {
    if (v->builtIn != ~0u)
      continue;
    if (v->location == ~0u || v->other)
      return makeError({}, "vertex input " + where(*v) +
                               " is not a located scalar, vector, matrix or array of them");
    if (vertexFormat(v->kind, v->width, v->components) == VK_FORMAT_UNDEFINED)
      return makeError({}, "vertex input " + where(*v) + " has no matching vertex format");
    const uint32_t step = v->width == 64 && v->components > 2 ? 2 : 1;
    const uint32_t perLocation = v->width == 64 ? 2 : 4;
    for (uint32_t i = 0; i < elementCount(*v); ++i) {
      Slot &s = slots[v->location + i * step];
      if (s.first && (s.first->kind != v->kind || s.first->width != v->width))
        return makeError({}, "vertex inputs of different types share location " +
                                 std::to_string(v->location + i * step));
      if (!s.first)
        s.first = v;
      // Components are counted in 32-bit words; a 64-bit input's Component is even.
      const uint32_t first = v->width == 64 ? v->component / 2 : v->component;
      s.components = std::max(s.components, first + v->components);
      if (step == 1 && s.components > perLocation)
        return makeError({}, "vertex input " + where(*v) + " does not fit its location");
    }
  }
  std::vector<VertexAttribute> out;
  for (const auto &[location, s] : slots)
    out.push_back({location, vertexFormat(s.first->kind, s.first->width, s.components),
                   s.first->width / 8 * s.components});
  for (size_t i = 1; i < out.size(); ++i)
    if (out[i - 1].bytes > 16 && out[i].location == out[i - 1].location + 1)
      return makeError({}, "vertex inputs overlap at location " + std::to_string(out[i].location));
  return out;
}

Expected<GraphicsPipelineDesc> describeGraphicsPipeline(const VulkanContext &ctx,
                                                        const ModuleInterface &vertex,
                                                        const EntryPoint &vertexEntry,
                                                        const ModuleInterface *fragment,
                                                        const EntryPoint *fragmentEntry) {
  GraphicsPipelineDesc d;
  d.vertexEntry = vertexEntry.name;
  std::vector<const ModuleInterface *> modules{&vertex};
  if (fragment && fragmentEntry) {
    modules.push_back(fragment);
    d.fragmentEntry = fragmentEntry->name;
  }
  auto bindings = layoutBindings(modules);
  if (!bindings)
    return bindings.error();
  d.bindings = std::move(*bindings);
  for (const ModuleInterface *m : modules)
    d.pushConstantSize = std::max(d.pushConstantSize, m->pushConstantSize);

  auto attributes = vertexAttributes(vertex, vertexEntry);
  if (!attributes)
    return attributes.error();
  d.attributes = std::move(*attributes);
  for (const VertexAttribute &a : d.attributes)
    if (!formatHas(ctx, a.format, true, VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT))
      return makeError({}, ctx.deviceName() + " has no vertex buffer format " +
                               std::to_string(a.format) + " for the vertex input at location " +
                               std::to_string(a.location));
  if (!fragment || !fragmentEntry)
    return d;

  // Fragment outputs: a colour attachment per location, with the components the outputs there
  // use; FragDepth and FragStencilRefEXT make depth and stencil attachments.
  struct Attachment {
    ComponentKind kind = ComponentKind::Other;
    uint32_t components = 0;
  };
  std::map<uint32_t, Attachment> colors;
  bool depth = false, stencil = false;
  for (const StageVariable *v : fragment->stageVariablesOf(*fragmentEntry, true)) {
    if (v->builtIn == kBuiltInFragDepth)
      depth = true;
    if (v->builtIn == kBuiltInFragStencilRef)
      stencil = true;
    if (v->builtIn != ~0u)
      continue;
    if (v->location == ~0u || v->other || v->columns ||
        (v->kind != ComponentKind::Float && v->kind != ComponentKind::Int &&
         v->kind != ComponentKind::Uint))
      return makeError({}, "fragment output " + where(*v) +
                               " is not a located float, int or uint scalar, vector or array");
    for (uint32_t i = 0; i < elementCount(*v); ++i) {
      Attachment &a = colors[v->location + i];
      if (a.components && a.kind != v->kind)
        return makeError({}, "fragment outputs of different types share location " +
                                 std::to_string(v->location + i));
      a.kind = v->kind;
      a.components = std::max(a.components, v->component + v->components);
    }
  }
  for (auto &[location, a] : colors) {
    if (location >= ctx.properties().limits.maxColorAttachments)
      return makeError({}, "fragment output location " + std::to_string(location) +
                               " is beyond the device's colour attachments");
    const VkFormat f = vertexFormat(a.kind, 32, std::min(4u, a.components));
    if (!formatHas(ctx, f, false, VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT))
      return makeError({}, ctx.deviceName() + " cannot attach format " + std::to_string(f) +
                               " as a colour attachment");
    d.colorFormats.resize(std::max<size_t>(d.colorFormats.size(), location + 1),
                          VK_FORMAT_UNDEFINED);
    d.colorFormats[location] = f;
  }
  if (depth && stencil) {
    d.depthFormat = d.stencilFormat =
        firstDepthStencil(ctx, {VK_FORMAT_D32_SFLOAT_S8_UINT, VK_FORMAT_D24_UNORM_S8_UINT});
  } else if (depth) {
    d.depthFormat = firstDepthStencil(ctx, {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D16_UNORM});
  } else if (stencil) {
    d.stencilFormat = firstDepthStencil(
        ctx, {VK_FORMAT_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT, VK_FORMAT_D24_UNORM_S8_UINT});
  }
  if ((depth && !d.depthFormat) || (stencil && !d.stencilFormat))
    return makeError({}, ctx.deviceName() + " has no depth/stencil attachment format");
  return d;
}

Expected<GraphicsPipeline> GraphicsPipeline::create(const VulkanContext &ctx,
                                                    const GraphicsPipelineDesc &desc) {
  auto layout = PipelineLayout::create(ctx, desc.bindings, desc.pushConstantSize);
  if (!layout)
    return layout.error();
  GraphicsPipeline p(ctx, std::move(*layout));
  const VulkanFunctions &vk = ctx.vk();
  const VkDevice dev = ctx.device();
  const bool withFragment = !desc.fragment.empty();

  struct Stage {
    std::span<const uint32_t> code;
    VkShaderStageFlagBits stage;
    const std::string *entry;
  };
  const bool meshPipeline = !desc.mesh.empty();
  std::vector<Stage> wanted;
  if (!desc.task.empty())
    wanted.push_back({desc.task, VK_SHADER_STAGE_TASK_BIT_EXT, &desc.taskEntry});
  if (meshPipeline)
    wanted.push_back({desc.mesh, VK_SHADER_STAGE_MESH_BIT_EXT, &desc.meshEntry});
  else
    wanted.push_back({desc.vertex, VK_SHADER_STAGE_VERTEX_BIT, &desc.vertexEntry});
  const bool tessellation = !desc.tessellationControl.empty();
  if (tessellation) {
    wanted.push_back({desc.tessellationControl, VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT,
                      &desc.tessellationControlEntry});
    wanted.push_back({desc.tessellationEvaluation, VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT,
                      &desc.tessellationEvaluationEntry});
  }
  if (!desc.geometry.empty())
    wanted.push_back({desc.geometry, VK_SHADER_STAGE_GEOMETRY_BIT, &desc.geometryEntry});
  if (withFragment)
    wanted.push_back({desc.fragment, VK_SHADER_STAGE_FRAGMENT_BIT, &desc.fragmentEntry});
  std::vector<ShaderModule> modules;
  std::vector<VkPipelineShaderStageCreateInfo> stages(wanted.size());
  for (size_t i = 0; i < wanted.size(); ++i) {
    auto module = ShaderModule::create(ctx, wanted[i].code);
    if (!module)
      return module.error();
    modules.push_back(std::move(*module));
    stages[i].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    stages[i].stage = wanted[i].stage;
    stages[i].module = modules.back().handle();
    stages[i].pName = wanted[i].entry->c_str();
  }

  // One vertex buffer binding with the attributes one after the other.
  std::vector<VkVertexInputAttributeDescription> attributes;
  uint32_t stride = 0;
  for (const VertexAttribute &a : desc.attributes) {
    attributes.push_back({a.location, 0, a.format, stride});
    stride += (a.bytes + 3) / 4 * 4;
  }
  VkVertexInputBindingDescription binding{0, std::max(stride, 4u), VK_VERTEX_INPUT_RATE_VERTEX};
  VkPipelineVertexInputStateCreateInfo vertexInput{
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  if (!attributes.empty()) {
    vertexInput.vertexBindingDescriptionCount = 1;
    vertexInput.pVertexBindingDescriptions = &binding;
    vertexInput.vertexAttributeDescriptionCount = static_cast<uint32_t>(attributes.size());
    vertexInput.pVertexAttributeDescriptions = attributes.data();
  }
  VkPipelineInputAssemblyStateCreateInfo assembly{
      VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  assembly.topology = tessellation ? VK_PRIMITIVE_TOPOLOGY_PATCH_LIST : desc.topology;
  VkPipelineTessellationStateCreateInfo patches{
      VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO};
  patches.patchControlPoints = desc.patchControlPoints;
  VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewport.viewportCount = 1;
  viewport.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo raster{
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.rasterizerDiscardEnable = withFragment ? VK_FALSE : VK_TRUE;
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;
  raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{
      VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineDepthStencilStateCreateInfo depthStencil{
      VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  depthStencil.depthTestEnable = desc.depthFormat != VK_FORMAT_UNDEFINED;
  depthStencil.depthWriteEnable = desc.depthFormat != VK_FORMAT_UNDEFINED;
  depthStencil.depthCompareOp = VK_COMPARE_OP_ALWAYS;
  depthStencil.stencilTestEnable = desc.stencilFormat != VK_FORMAT_UNDEFINED;
  depthStencil.front = {VK_STENCIL_OP_KEEP,
                        VK_STENCIL_OP_REPLACE,
                        VK_STENCIL_OP_KEEP,
                        VK_COMPARE_OP_ALWAYS,
                        0xFF,
                        0xFF,
                        0};
  depthStencil.back = depthStencil.front;
  std::vector<VkPipelineColorBlendAttachmentState> blends(desc.colorFormats.size());
  for (size_t i = 0; i < blends.size(); ++i)
    if (desc.colorFormats[i] != VK_FORMAT_UNDEFINED) // locations without an output: no writes
      blends[i].colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                                 VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
  VkPipelineColorBlendStateCreateInfo blend{
      VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  blend.attachmentCount = static_cast<uint32_t>(blends.size());
  blend.pAttachments = blends.data();
  const VkDynamicState dynamicStates[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dynamic.dynamicStateCount = 2;
  dynamic.pDynamicStates = dynamicStates;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  rendering.colorAttachmentCount = static_cast<uint32_t>(desc.colorFormats.size());
  rendering.pColorAttachmentFormats = desc.colorFormats.data();
  rendering.depthAttachmentFormat = desc.depthFormat;
  rendering.stencilAttachmentFormat = desc.stencilFormat;

  VkGraphicsPipelineCreateInfo ci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  ci.pNext = &rendering;
  ci.stageCount = static_cast<uint32_t>(stages.size());
  ci.pStages = stages.data();
  ci.pVertexInputState = meshPipeline ? nullptr : &vertexInput;
  ci.pInputAssemblyState = meshPipeline ? nullptr : &assembly;
  if (tessellation)
    ci.pTessellationState = &patches;
  ci.pRasterizationState = &raster;
  if (withFragment) {
    ci.pViewportState = &viewport;
    ci.pMultisampleState = &multisample;
    ci.pDepthStencilState = &depthStencil;
    ci.pColorBlendState = &blend;
    ci.pDynamicState = &dynamic;
  }
  ci.layout = p.layout_.handle();
  if (VkResult r = vk.vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &ci, nullptr, &p.pipeline_);
      r != VK_SUCCESS)
    return vkFailure("vkCreateGraphicsPipelines", r);
  return p;
}

} // namespace spire::run
