#include "spire/run/RayTracingPipeline.h"

#include "spire/run/Device.h"

namespace spire::run {

namespace {

struct RayStage {
  std::string_view model;
  VkShaderStageFlagBits stage;
};
constexpr RayStage kRayStages[] = {
    {"RayGenerationKHR", VK_SHADER_STAGE_RAYGEN_BIT_KHR},
    {"MissKHR", VK_SHADER_STAGE_MISS_BIT_KHR},
    {"CallableKHR", VK_SHADER_STAGE_CALLABLE_BIT_KHR},
    {"ClosestHitKHR", VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR},
    {"AnyHitKHR", VK_SHADER_STAGE_ANY_HIT_BIT_KHR},
    {"IntersectionKHR", VK_SHADER_STAGE_INTERSECTION_BIT_KHR},
};

} // namespace

bool isRayTracingModel(std::string_view model) {
  for (const RayStage &s : kRayStages)
    if (s.model == model)
      return true;
  return false;
}

Expected<RayTracingPipeline> RayTracingPipeline::create(const VulkanContext &ctx,
                                                        const RayTracingPipelineDesc &desc) {
  const RayStage *stage = nullptr;
  for (const RayStage &s : kRayStages)
    if (s.model == desc.model)
      stage = &s;
  if (!stage)
    return makeError({}, "a " + desc.model + " entry point is no ray tracing stage");
  const VulkanFunctions &vk = ctx.vk();
  if (!vk.vkCreateRayTracingPipelinesKHR)
    return makeError({}, ctx.deviceName() + " has no vkCreateRayTracingPipelinesKHR");
  auto layout = PipelineLayout::create(ctx, desc.bindings, desc.pushConstantSize);
  if (!layout)
    return layout.error();
  RayTracingPipeline p(ctx, std::move(*layout));
  const bool withRayGeneration = stage->stage != VK_SHADER_STAGE_RAYGEN_BIT_KHR;
  if (withRayGeneration && desc.rayGeneration.empty())
    return makeError({}, "a " + desc.model + " shader's pipeline needs a ray generation shader");
  std::vector<ShaderModule> modules;
  std::vector<VkPipelineShaderStageCreateInfo> stages;
  std::vector<VkRayTracingShaderGroupCreateInfoKHR> groups;
  auto addStage = [&](std::span<const uint32_t> code, VkShaderStageFlagBits flags,
                      const char *entry) -> Status {
    auto module = ShaderModule::create(ctx, code);
    if (!module)
      return module.error();
    modules.push_back(std::move(*module));
    VkPipelineShaderStageCreateInfo si{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    si.stage = flags;
    si.module = modules.back().handle();
    si.pName = entry;
    const uint32_t index = static_cast<uint32_t>(stages.size());
    stages.push_back(si);
    VkRayTracingShaderGroupCreateInfoKHR group{
        VK_STRUCTURE_TYPE_RAY_TRACING_SHADER_GROUP_CREATE_INFO_KHR};
    group.generalShader = group.closestHitShader = group.anyHitShader = group.intersectionShader =
        VK_SHADER_UNUSED_KHR;
    switch (flags) {
    case VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR:
      group.type = VK_RAY_TRACING_SHADER_GROUP_TYPE_TRIANGLES_HIT_GROUP_KHR;
      group.closestHitShader = index;
      break;
    case VK_SHADER_STAGE_ANY_HIT_BIT_KHR:
      group.type = VK_RAY_TRACING_SHADER_GROUP_TYPE_TRIANGLES_HIT_GROUP_KHR;
      group.anyHitShader = index;
      break;
    case VK_SHADER_STAGE_INTERSECTION_BIT_KHR:
      group.type = VK_RAY_TRACING_SHADER_GROUP_TYPE_PROCEDURAL_HIT_GROUP_KHR;
      group.intersectionShader = index;
      break;
    default:
      group.type = VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_KHR;
      group.generalShader = index;
      break;
    }
    groups.push_back(group);
    return {};
  };
  if (withRayGeneration)
    if (Status s = addStage(desc.rayGeneration, VK_SHADER_STAGE_RAYGEN_BIT_KHR, "main"); !s)
      return s.error();
  if (Status s = addStage(desc.spirv, stage->stage, desc.entryPoint.c_str()); !s)
    return s.error();
  VkRayTracingPipelineCreateInfoKHR ci{VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_CREATE_INFO_KHR};
  ci.stageCount = static_cast<uint32_t>(stages.size());
  ci.pStages = stages.data();
  ci.groupCount = static_cast<uint32_t>(groups.size());
  ci.pGroups = groups.data();
  ci.maxPipelineRayRecursionDepth = 1;
  ci.layout = p.layout_.handle();
  if (VkResult r = vk.vkCreateRayTracingPipelinesKHR(ctx.device(), VK_NULL_HANDLE, VK_NULL_HANDLE,
                                                     1, &ci, nullptr, &p.pipeline_);
      r != VK_SUCCESS)
    return vkFailure("vkCreateRayTracingPipelinesKHR", r);
  return p;
}

} // namespace spire::run
