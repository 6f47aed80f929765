#include "spire/run/ComputePipeline.h"

#include <algorithm>
#include <utility>

namespace spire::run {

Diagnostic vkFailure(const char *what, VkResult r) {
  return makeError({}, std::string(what) + " failed: " + resultName(r));
}

namespace {

/// Destroys what a dispatch made, whatever path it leaves by.
struct DispatchObjects {
  const VulkanContext &ctx;
  std::vector<VkDescriptorPool> pools;
  VkQueryPool queries = VK_NULL_HANDLE;
  ~DispatchObjects() {
    const VulkanFunctions &vk = ctx.vk();
    VkDevice d = ctx.device();
    for (VkDescriptorPool p : pools)
      vk.vkDestroyDescriptorPool(d, p, nullptr);
    if (queries)
      vk.vkDestroyQueryPool(d, queries, nullptr);
  }
};

} // namespace

// --- PipelineLayout ---

std::optional<std::string> exceededLayoutLimit(const VulkanContext &ctx,
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

Expected<std::vector<LayoutBinding>>
layoutBindings(std::span<const ModuleInterface *const> modules) {
  std::vector<LayoutBinding> out;
  for (const ModuleInterface *mi : modules)
    for (const Resource &r : mi->resources) {
      const uint32_t count = r.count ? r.count : kRuntimeArrayDescriptors;
      auto same = std::find_if(out.begin(), out.end(), [&](const LayoutBinding &b) {
        return b.set == r.set && b.binding == r.binding;
      });
      if (same == out.end()) {
        out.push_back(LayoutBinding{r.set, r.binding, r.kind, count});
        continue;
      }
      if (same->kind != r.kind)
        return makeError({}, "binding " + std::to_string(r.set) + ":" + std::to_string(r.binding) +
                                 " is declared as " + std::string(descriptorKindName(same->kind)) +
                                 " and as " + std::string(descriptorKindName(r.kind)));
      same->count = std::max(same->count, count);
    }
  return out;
}

Expected<PipelineLayout> PipelineLayout::create(const VulkanContext &ctx,
                                                std::span<const LayoutBinding> bindings,
                                                uint32_t pushConstantSize) {
  PipelineLayout pl;
  pl.ctx_ = &ctx;
  pl.bindings_.assign(bindings.begin(), bindings.end());
  pl.pushSize_ = pushConstantSize;
  const VulkanFunctions &vk = ctx.vk();
  uint32_t numSets = 0;
  for (const LayoutBinding &b : bindings) {
    if (b.set >= ctx.properties().limits.maxBoundDescriptorSets)
      return makeError({}, "descriptor set " + std::to_string(b.set) + " is beyond the device's " +
                               std::to_string(ctx.properties().limits.maxBoundDescriptorSets) +
                               " (maxBoundDescriptorSets)");
    numSets = std::max(numSets, b.set + 1);
  }
  for (uint32_t set = 0; set < numSets; ++set) {
    std::vector<VkDescriptorSetLayoutBinding> lb;
    for (const LayoutBinding &b : bindings)
      if (b.set == set) {
        VkDescriptorSetLayoutBinding x{};
        x.binding = b.binding;
        x.descriptorType = static_cast<VkDescriptorType>(vkDescriptorType(b.kind));
        x.descriptorCount = b.count;
        x.stageFlags = VK_SHADER_STAGE_ALL;
        lb.push_back(x);
      }
    VkDescriptorSetLayoutCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    ci.bindingCount = static_cast<uint32_t>(lb.size());
    ci.pBindings = lb.data();
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    if (VkResult r = vk.vkCreateDescriptorSetLayout(ctx.device(), &ci, nullptr, &layout);
        r != VK_SUCCESS)
      return vkFailure("vkCreateDescriptorSetLayout", r);
    pl.sets_.push_back(layout);
  }
  VkPushConstantRange range{VK_SHADER_STAGE_ALL, 0, (pushConstantSize + 3) / 4 * 4};
  VkPipelineLayoutCreateInfo ci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  ci.setLayoutCount = numSets;
  ci.pSetLayouts = pl.sets_.data();
  if (pushConstantSize > 0) {
    ci.pushConstantRangeCount = 1;
    ci.pPushConstantRanges = &range;
  }
  if (VkResult r = vk.vkCreatePipelineLayout(ctx.device(), &ci, nullptr, &pl.layout_);
      r != VK_SUCCESS)
    return vkFailure("vkCreatePipelineLayout", r);
  return pl;
}

PipelineLayout::PipelineLayout(PipelineLayout &&o) noexcept
    : ctx_(o.ctx_), layout_(std::exchange(o.layout_, VK_NULL_HANDLE)), sets_(std::move(o.sets_)),
      bindings_(std::move(o.bindings_)), pushSize_(o.pushSize_) {
  o.sets_.clear();
}

PipelineLayout::~PipelineLayout() {
  if (!ctx_)
    return;
  const VulkanFunctions &vk = ctx_->vk();
  if (layout_)
    vk.vkDestroyPipelineLayout(ctx_->device(), layout_, nullptr);
  for (VkDescriptorSetLayout s : sets_)
    vk.vkDestroyDescriptorSetLayout(ctx_->device(), s, nullptr);
}

// --- ComputePipeline ---

Expected<ComputePipeline> ComputePipeline::create(const VulkanContext &ctx,
                                                  const ComputePipelineDesc &desc) {
  auto layout = PipelineLayout::create(ctx, desc.bindings, desc.pushConstantSize);
  if (!layout)
    return layout.error();
  ComputePipeline p(ctx, std::move(*layout));
  const VulkanFunctions &vk = ctx.vk();
  auto module = ShaderModule::create(ctx, desc.spirv);
  if (!module)
    return module.error();

  std::vector<VkSpecializationMapEntry> entries;
  std::vector<uint32_t> values;
  for (auto [id, value] : desc.specialization) {
    entries.push_back({id, static_cast<uint32_t>(values.size() * 4), 4});
    values.push_back(value);
  }
  VkSpecializationInfo spec{static_cast<uint32_t>(entries.size()), entries.data(),
                            values.size() * 4, values.data()};
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo required{
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
  VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  ci.stage.module = module->handle();
  ci.stage.pName = desc.entryPoint.c_str();
  ci.stage.pSpecializationInfo = entries.empty() ? nullptr : &spec;
  if (desc.fullSubgroups)
    ci.stage.flags |= VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
  if (desc.varyingSubgroupSize)
    ci.stage.flags |= VK_PIPELINE_SHADER_STAGE_CREATE_ALLOW_VARYING_SUBGROUP_SIZE_BIT;
  if (desc.requiredSubgroupSize) {
    required.requiredSubgroupSize = desc.requiredSubgroupSize;
    ci.stage.pNext = &required;
  }
  ci.layout = p.layout_.handle();
  if (VkResult r =
          vk.vkCreateComputePipelines(ctx.device(), VK_NULL_HANDLE, 1, &ci, nullptr, &p.pipeline_);
      r != VK_SUCCESS)
    return vkFailure("vkCreateComputePipelines", r);
  return p;
}

// --- ShaderModule, Pipeline ---

Expected<ShaderModule> ShaderModule::create(const VulkanContext &ctx,
                                            std::span<const uint32_t> words) {
  ShaderModule m(ctx);
  VkShaderModuleCreateInfo mci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  mci.codeSize = words.size() * 4;
  mci.pCode = words.data();
  if (VkResult r = ctx.vk().vkCreateShaderModule(ctx.device(), &mci, nullptr, &m.module_);
      r != VK_SUCCESS)
    return vkFailure("vkCreateShaderModule", r);
  return m;
}

ShaderModule::ShaderModule(ShaderModule &&o) noexcept
    : ctx_(o.ctx_), module_(std::exchange(o.module_, VK_NULL_HANDLE)) {}

ShaderModule::~ShaderModule() {
  if (module_)
    ctx_->vk().vkDestroyShaderModule(ctx_->device(), module_, nullptr);
}

Pipeline::Pipeline(Pipeline &&o) noexcept
    : ctx_(o.ctx_), layout_(std::move(o.layout_)),
      pipeline_(std::exchange(o.pipeline_, VK_NULL_HANDLE)) {}

Pipeline::~Pipeline() {
  if (pipeline_)
    ctx_->vk().vkDestroyPipeline(ctx_->device(), pipeline_, nullptr);
}

// --- OneTimeCommands ---

Expected<OneTimeCommands> OneTimeCommands::begin(const VulkanContext &ctx) {
  const VulkanFunctions &vk = ctx.vk();
  const VkDevice dev = ctx.device();
  OneTimeCommands c(ctx);
  VkCommandPoolCreateInfo cpi{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  cpi.queueFamilyIndex = ctx.queueFamily();
  if (VkResult r = vk.vkCreateCommandPool(dev, &cpi, nullptr, &c.pool_); r != VK_SUCCESS)
    return vkFailure("vkCreateCommandPool", r);
  VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  cai.commandPool = c.pool_;
  cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cai.commandBufferCount = 1;
  if (VkResult r = vk.vkAllocateCommandBuffers(dev, &cai, &c.cmd_); r != VK_SUCCESS)
    return vkFailure("vkAllocateCommandBuffers", r);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  if (VkResult r = vk.vkBeginCommandBuffer(c.cmd_, &bi); r != VK_SUCCESS)
    return vkFailure("vkBeginCommandBuffer", r);
  return c;
}

OneTimeCommands::OneTimeCommands(OneTimeCommands &&o) noexcept
    : ctx_(o.ctx_), pool_(std::exchange(o.pool_, VK_NULL_HANDLE)),
      cmd_(std::exchange(o.cmd_, VK_NULL_HANDLE)), fence_(std::exchange(o.fence_, VK_NULL_HANDLE)) {
}

OneTimeCommands::~OneTimeCommands() {
  if (fence_)
    ctx_->vk().vkDestroyFence(ctx_->device(), fence_, nullptr);
  if (pool_)
    ctx_->vk().vkDestroyCommandPool(ctx_->device(), pool_, nullptr);
}

Status OneTimeCommands::submitAndWait(uint64_t timeoutNs, std::string_view what) {
  const VulkanFunctions &vk = ctx_->vk();
  const VkDevice dev = ctx_->device();
  if (VkResult r = vk.vkEndCommandBuffer(cmd_); r != VK_SUCCESS)
    return vkFailure("vkEndCommandBuffer", r);
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  if (VkResult r = vk.vkCreateFence(dev, &fci, nullptr, &fence_); r != VK_SUCCESS)
    return vkFailure("vkCreateFence", r);
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cmd_;
  if (VkResult r = vk.vkQueueSubmit(ctx_->queue(), 1, &si, fence_); r != VK_SUCCESS)
    return vkFailure("vkQueueSubmit", r);
  VkResult wr = vk.vkWaitForFences(dev, 1, &fence_, VK_TRUE, timeoutNs);
  if (wr == VK_TIMEOUT) {
    vk.vkDeviceWaitIdle(dev);
    return makeError({}, std::string(what) + " did not finish within the fence timeout");
  }
  if (wr != VK_SUCCESS)
    return vkFailure("vkWaitForFences", wr);
  return {};
}

// --- dispatch ---

Expected<DispatchResult> dispatch(const VulkanContext &ctx, const ComputePipeline &pipeline,
                                  const Dispatch &d) {
  const VulkanFunctions &vk = ctx.vk();
  VkDevice dev = ctx.device();
  DispatchObjects objs{ctx};
  const PipelineLayout &layout = pipeline.layout();

  // One pool and set per non-empty set index.
  std::vector<VkDescriptorSet> sets(layout.setLayouts().size(), VK_NULL_HANDLE);
  for (uint32_t set = 0; set < sets.size(); ++set) {
    std::vector<VkDescriptorPoolSize> sizes;
    for (const LayoutBinding &b : layout.bindings())
      if (b.set == set)
        sizes.push_back({static_cast<VkDescriptorType>(vkDescriptorType(b.kind)), b.count});
    if (sizes.empty())
      continue;
    VkDescriptorPoolCreateInfo pci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pci.maxSets = 1;
    pci.poolSizeCount = static_cast<uint32_t>(sizes.size());
    pci.pPoolSizes = sizes.data();
    VkDescriptorPool pool = VK_NULL_HANDLE;
    if (VkResult r = vk.vkCreateDescriptorPool(dev, &pci, nullptr, &pool); r != VK_SUCCESS)
      return vkFailure("vkCreateDescriptorPool", r);
    objs.pools.push_back(pool);
    VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    ai.descriptorPool = pool;
    ai.descriptorSetCount = 1;
    ai.pSetLayouts = &layout.setLayouts()[set];
    if (VkResult r = vk.vkAllocateDescriptorSets(dev, &ai, &sets[set]); r != VK_SUCCESS)
      return vkFailure("vkAllocateDescriptorSets", r);
  }

  // Descriptor writes; the infos live in vectors sized up front so that pointers stay valid.
  size_t total = 0;
  for (const BoundBinding &b : d.bindings)
    total += b.elements.size();
  std::vector<VkDescriptorBufferInfo> bufferInfos;
  std::vector<VkDescriptorImageInfo> imageInfos;
  std::vector<VkBufferView> views;
  std::vector<VkAccelerationStructureKHR> structures;
  std::vector<VkWriteDescriptorSetAccelerationStructureKHR> structureWrites;
  bufferInfos.reserve(total);
  imageInfos.reserve(total);
  views.reserve(total);
  structures.reserve(total);
  structureWrites.reserve(d.bindings.size());
  std::vector<VkWriteDescriptorSet> writes;
  for (const BoundBinding &b : d.bindings) {
    if (b.set >= sets.size() || !sets[b.set] || b.elements.empty())
      continue;
    VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstSet = sets[b.set];
    w.dstBinding = b.binding;
    w.descriptorCount = static_cast<uint32_t>(b.elements.size());
    w.descriptorType = static_cast<VkDescriptorType>(vkDescriptorType(b.kind));
    if (isBufferKind(b.kind)) {
      w.pBufferInfo = bufferInfos.data() + bufferInfos.size();
      for (const BoundElement &e : b.elements)
        bufferInfos.push_back({e.buffer, e.offset, e.range});
    } else if (isTexelBufferKind(b.kind)) {
      w.pTexelBufferView = views.data() + views.size();
      for (const BoundElement &e : b.elements)
        views.push_back(e.texelView);
    } else if (b.kind == DescriptorKind::AccelerationStructure) {
      VkWriteDescriptorSetAccelerationStructureKHR &s = structureWrites.emplace_back();
      s.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_ACCELERATION_STRUCTURE_KHR;
      s.accelerationStructureCount = w.descriptorCount;
      s.pAccelerationStructures = structures.data() + structures.size();
      for (const BoundElement &e : b.elements)
        structures.push_back(e.accelerationStructure);
      w.pNext = &s;
    } else {
      w.pImageInfo = imageInfos.data() + imageInfos.size();
      for (const BoundElement &e : b.elements)
        imageInfos.push_back({e.sampler, e.imageView,
                              b.kind == DescriptorKind::Sampler ? VK_IMAGE_LAYOUT_UNDEFINED
                                                                : VK_IMAGE_LAYOUT_GENERAL});
    }
    writes.push_back(w);
  }
  if (!writes.empty())
    vk.vkUpdateDescriptorSets(dev, static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr);

  auto recording = OneTimeCommands::begin(ctx);
  if (!recording)
    return recording.error();
  const VkCommandBuffer cmd = recording->commands();
  bool timed = d.timed && ctx.timestampValidBits() > 0;
  if (timed) {
    VkQueryPoolCreateInfo qci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qci.queryCount = 2;
    if (vk.vkCreateQueryPool(dev, &qci, nullptr, &objs.queries) != VK_SUCCESS)
      timed = false;
  }

  for (auto [image, upload] : d.images)
    image->recordPrepare(cmd, upload);
  vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.handle());
  for (uint32_t set = 0; set < sets.size(); ++set) {
    if (!sets[set])
      continue;
    // Dynamic offsets in binding order, array elements in order.
    std::vector<const BoundBinding *> dyn;
    for (const BoundBinding &b : d.bindings)
      if (b.set == set && isDynamicKind(b.kind))
        dyn.push_back(&b);
    std::sort(dyn.begin(), dyn.end(),
              [](const BoundBinding *a, const BoundBinding *b) { return a->binding < b->binding; });
    std::vector<uint32_t> offsets;
    for (const BoundBinding *b : dyn)
      for (const BoundElement &e : b->elements)
        offsets.push_back(e.dynamicOffset);
    vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout.handle(), set, 1,
                               &sets[set], static_cast<uint32_t>(offsets.size()), offsets.data());
  }
  if (!d.pushConstants.empty() && layout.pushConstantSize() > 0) {
    std::vector<uint8_t> push(d.pushConstants.begin(), d.pushConstants.end());
    push.resize((layout.pushConstantSize() + 3) / 4 * 4, 0);
    vk.vkCmdPushConstants(cmd, layout.handle(), VK_SHADER_STAGE_ALL, 0,
                          static_cast<uint32_t>(push.size()), push.data());
  }
  if (timed) {
    vk.vkCmdResetQueryPool(cmd, objs.queries, 0, 2);
    vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, objs.queries, 0);
  }
  vk.vkCmdDispatch(cmd, d.groups[0], d.groups[1], d.groups[2]);
  if (timed)
    vk.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, objs.queries, 1);
  for (auto [image, upload] : d.images)
    image->recordReadBack(cmd);
  VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vk.vkCmdPipelineBarrier(cmd,
                          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                          VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
  if (Status s = recording->submitAndWait(d.timeoutNs, "the dispatch"); !s)
    return s.error();
  DispatchResult result;
  if (timed) {
    uint64_t stamps[2] = {0, 0};
    if (vk.vkGetQueryPoolResults(dev, objs.queries, 0, 2, sizeof stamps, stamps, sizeof(uint64_t),
                                 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS)
      result.gpuMilliseconds =
          double(stamps[1] - stamps[0]) * ctx.properties().limits.timestampPeriod / 1e6;
  }
  return result;
}

} // namespace spire::run
