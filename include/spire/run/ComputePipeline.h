// A compute pipeline made from a SPIR-V module and a description of its descriptor sets and
// push constants, and one dispatch of it with the resources bound to each binding.
#pragma once

#include "spire/run/Descriptor.h"
#include "spire/run/Reflection.h"
#include "spire/run/Resources.h"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace spire::run {

/// One binding of a descriptor set layout.
struct LayoutBinding {
  uint32_t set = 0, binding = 0;
  DescriptorKind kind = DescriptorKind::StorageBuffer;
  uint32_t count = 1;
};

/// The descriptors a runtime array of descriptors gets in a layout made from reflection.
inline constexpr uint32_t kRuntimeArrayDescriptors = 4;

/// The layout bindings of the modules' resources, merged: a set and binding that several
/// modules (or aliased variables of one) declare is one binding, of one descriptor type (two
/// types fail); a runtime array of descriptors gets kRuntimeArrayDescriptors.
Expected<std::vector<LayoutBinding>>
layoutBindings(std::span<const ModuleInterface *const> modules);

/// The first limit of the device that a layout goes beyond, as a reason: its set indices
/// (maxBoundDescriptorSets), its descriptors of each type as one stage sees them (every binding
/// is visible to every stage; maxPerStageDescriptor*, maxPerStageResources), its push
/// constants (maxPushConstantsSize); nothing when it fits.
std::optional<std::string> exceededLayoutLimit(const VulkanContext &ctx,
                                               std::span<const LayoutBinding> bindings,
                                               uint32_t pushConstantSize);

/// The descriptor set layouts (one per set index up to the highest used; unused ones empty)
/// and the pipeline layout over them, with at most one push-constant range from offset 0.
class PipelineLayout {
public:
  static Expected<PipelineLayout> create(const VulkanContext &ctx,
                                         std::span<const LayoutBinding> bindings,
                                         uint32_t pushConstantSize);
  PipelineLayout(PipelineLayout &&o) noexcept;
  PipelineLayout &operator=(PipelineLayout &&) = delete;
  ~PipelineLayout();

  VkPipelineLayout handle() const { return layout_; }
  std::span<const VkDescriptorSetLayout> setLayouts() const { return sets_; }
  std::span<const LayoutBinding> bindings() const { return bindings_; }
  uint32_t pushConstantSize() const { return pushSize_; }

private:
  PipelineLayout() = default;
  const VulkanContext *ctx_ = nullptr;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  std::vector<VkDescriptorSetLayout> sets_;
  std::vector<LayoutBinding> bindings_;
  uint32_t pushSize_ = 0;
};

struct ComputePipelineDesc {
  std::span<const uint32_t> spirv;
  std::string entryPoint = "main";
  std::map<uint32_t, uint32_t> specialization; ///< constant id -> 32-bit value
  bool fullSubgroups = false, varyingSubgroupSize = false;
  uint32_t requiredSubgroupSize = 0; ///< 0: none
  std::vector<LayoutBinding> bindings;
  uint32_t pushConstantSize = 0;
};

/// The error of a Vulkan call that failed: "<what> failed: VK_...".
Diagnostic vkFailure(const char *what, VkResult r);

/// A shader module, alive while a pipeline is created from it.
class ShaderModule {
public:
  static Expected<ShaderModule> create(const VulkanContext &ctx, std::span<const uint32_t> words);
  ShaderModule(ShaderModule &&o) noexcept;
  ShaderModule &operator=(ShaderModule &&) = delete;
  ~ShaderModule();
  VkShaderModule handle() const { return module_; }

private:
  explicit ShaderModule(const VulkanContext &ctx) : ctx_(&ctx) {}
  const VulkanContext *ctx_;
  VkShaderModule module_ = VK_NULL_HANDLE;
};

/// A created pipeline with its layout, destroyed with it: what compute and graphics pipelines
/// share.
class Pipeline {
public:
  Pipeline(Pipeline &&o) noexcept;
  Pipeline &operator=(Pipeline &&) = delete;
  ~Pipeline();

  VkPipeline handle() const { return pipeline_; }
  const PipelineLayout &layout() const { return layout_; }

protected:
  Pipeline(const VulkanContext &ctx, PipelineLayout layout)
      : ctx_(&ctx), layout_(std::move(layout)) {}
  const VulkanContext *ctx_;
  PipelineLayout layout_;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
};

class ComputePipeline : public Pipeline {
public:
  static Expected<ComputePipeline> create(const VulkanContext &ctx,
                                          const ComputePipelineDesc &desc);

private:
  using Pipeline::Pipeline;
};

/// One array element of a binding: a buffer range, a texel view, an image view, a sampler.
struct BoundElement {
  VkBuffer buffer = VK_NULL_HANDLE;
  uint64_t offset = 0, range = VK_WHOLE_SIZE;
  uint32_t dynamicOffset = 0;
  VkBufferView texelView = VK_NULL_HANDLE;
  VkImageView imageView = VK_NULL_HANDLE;
  VkSampler sampler = VK_NULL_HANDLE;
  VkAccelerationStructureKHR accelerationStructure = VK_NULL_HANDLE;
};

struct BoundBinding {
  uint32_t set = 0, binding = 0;
  DescriptorKind kind = DescriptorKind::StorageBuffer;
  std::vector<BoundElement> elements;
};

struct Dispatch {
  std::vector<BoundBinding> bindings;
  std::span<const uint8_t> pushConstants;
  uint32_t groups[3] = {1, 1, 1};
  /// Images to bring to the GENERAL layout first (their staging data uploaded when `upload`)
  /// and to copy back into their staging buffers after.
  std::vector<std::pair<const DeviceImage *, bool>> images;
  uint64_t timeoutNs = 10'000'000'000ull;
  bool timed = false; ///< measure the dispatch with timestamps
};

struct DispatchResult {
  double gpuMilliseconds = -1; ///< the dispatch alone, when timed and the queue has timestamps
};

/// One primary command buffer from a pool of its own, recorded once, then submitted alone and
/// waited for: what a dispatch and an acceleration structure build are.
class OneTimeCommands {
public:
  /// A command buffer in the recording state.
  static Expected<OneTimeCommands> begin(const VulkanContext &ctx);
  OneTimeCommands(OneTimeCommands &&o) noexcept;
  OneTimeCommands &operator=(OneTimeCommands &&) = delete;
  ~OneTimeCommands();

  VkCommandBuffer commands() const { return cmd_; }
  /// Ends the recording, submits it and waits up to `timeoutNs` (after which the device is
  /// waited for idle, and the error says "<what> did not finish within the fence timeout").
  Status submitAndWait(uint64_t timeoutNs, std::string_view what);

private:
  explicit OneTimeCommands(const VulkanContext &ctx) : ctx_(&ctx) {}
  const VulkanContext *ctx_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
};

/// Records, submits and waits for one dispatch; the buffers' host memory is up to date after.
Expected<DispatchResult> dispatch(const VulkanContext &ctx, const ComputePipeline &pipeline,
                                  const Dispatch &d);

} // namespace spire::run
