// The kinds of descriptors a shader binds, as scripts name them and as reflection finds them
// (one per Vulkan descriptor type that the runner supports).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace spire::run {

enum class DescriptorKind : uint8_t {
  StorageBuffer,
  UniformBuffer,
  StorageBufferDynamic,
  UniformBufferDynamic,
  StorageTexelBuffer,
  UniformTexelBuffer,
  StorageImage,
  SampledImage,
  CombinedImageSampler,
  Sampler,
  AccelerationStructure, ///< reflected (ray queries); scripts cannot bind one
};

/// The AmberScript name (`storage`, `uniform_dynamic`, `storage_image`, ...).
std::string_view descriptorKindName(DescriptorKind kind);
/// The kind an AmberScript `AS <name>` names; nothing for other names.
std::optional<DescriptorKind> parseDescriptorKind(std::string_view name);
/// The VkDescriptorType of a kind.
uint32_t vkDescriptorType(DescriptorKind kind);
/// The VkBufferUsageFlags a buffer bound as this kind needs (0 for kinds that are not buffers).
uint32_t vkBufferUsage(DescriptorKind kind);
bool isBufferKind(DescriptorKind kind); ///< storage/uniform buffers, dynamic or not
bool isTexelBufferKind(DescriptorKind kind);
bool isImageKind(DescriptorKind kind); ///< storage, sampled and combined images
bool isDynamicKind(DescriptorKind kind);
/// Whether a shader may write through the descriptor (its data is read back after a dispatch).
bool isWritableKind(DescriptorKind kind);

} // namespace spire::run
