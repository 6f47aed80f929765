// A ray tracing pipeline of one shader (VK_KHR_ray_tracing_pipeline), after a given ray
// generation shader unless it is one: a ray generation, miss or callable shader as a general
// group, a closest or any hit shader as a triangles hit group, an
// intersection shader as a procedural hit group. Enough to have a driver and the validation
// layers check a translated ray tracing entry point; nothing is traced.
#pragma once

#include "spire/run/ComputePipeline.h"

namespace spire::run {

struct RayTracingPipelineDesc {
  std::span<const uint32_t> spirv;
  std::string entryPoint = "main";
  std::string model; ///< RayGenerationKHR, MissKHR, CallableKHR, ClosestHitKHR, AnyHitKHR,
                     ///< IntersectionKHR
  std::vector<LayoutBinding> bindings;
  uint32_t pushConstantSize = 0;
  /// The ray generation shader of a pipeline of another stage (in a group of its own, first).
  std::span<const uint32_t> rayGeneration;
};

/// Whether an execution model is a ray tracing stage.
bool isRayTracingModel(std::string_view model);

class RayTracingPipeline : public Pipeline {
public:
  static Expected<RayTracingPipeline> create(const VulkanContext &ctx,
                                             const RayTracingPipelineDesc &desc);

private:
  using Pipeline::Pipeline;
};

} // namespace spire::run
