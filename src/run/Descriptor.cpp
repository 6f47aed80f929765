#include "spire/run/Descriptor.h"

#include <vulkan/vulkan_core.h>

namespace spire::run {

namespace {

struct KindInfo {
  DescriptorKind kind;
  std::string_view name;
  VkDescriptorType type;
};

constexpr KindInfo kKinds[] = {
    {DescriptorKind::StorageBuffer, "storage", VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
    {DescriptorKind::UniformBuffer, "uniform", VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER},
    {DescriptorKind::StorageBufferDynamic, "storage_dynamic",
     VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC},
    {DescriptorKind::UniformBufferDynamic, "uniform_dynamic",
     VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC},
    {DescriptorKind::StorageTexelBuffer, "storage_texel_buffer",
     VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER},
    {DescriptorKind::UniformTexelBuffer, "uniform_texel_buffer",
     VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER},
    {DescriptorKind::StorageImage, "storage_image", VK_DESCRIPTOR_TYPE_STORAGE_IMAGE},
    {DescriptorKind::SampledImage, "sampled_image", VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE},
    {DescriptorKind::CombinedImageSampler, "combined_image_sampler",
     VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER},
    {DescriptorKind::Sampler, "sampler", VK_DESCRIPTOR_TYPE_SAMPLER},
    {DescriptorKind::AccelerationStructure, "acceleration_structure",
     VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR},
};

} // namespace

std::string_view descriptorKindName(DescriptorKind kind) {
  return kKinds[static_cast<unsigned>(kind)].name;
}

std::optional<DescriptorKind> parseDescriptorKind(std::string_view name) {
  for (const KindInfo &k : kKinds)
    if (k.name == name && k.kind != DescriptorKind::Sampler &&
        k.kind != DescriptorKind::AccelerationStructure)
      return k.kind;
  return std::nullopt;
}

uint32_t vkDescriptorType(DescriptorKind kind) {
  return static_cast<uint32_t>(kKinds[static_cast<unsigned>(kind)].type);
}

uint32_t vkBufferUsage(DescriptorKind kind) {
  switch (kind) {
  case DescriptorKind::StorageBuffer:
  case DescriptorKind::StorageBufferDynamic:
    return VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  case DescriptorKind::UniformBuffer:
  case DescriptorKind::UniformBufferDynamic:
    return VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT;
  case DescriptorKind::StorageTexelBuffer:
    return VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT;
  case DescriptorKind::UniformTexelBuffer:
    return VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT;
  default:
    return 0;
  }
}

bool isBufferKind(DescriptorKind k) {
  return k == DescriptorKind::StorageBuffer || k == DescriptorKind::UniformBuffer ||
         k == DescriptorKind::StorageBufferDynamic || k == DescriptorKind::UniformBufferDynamic;
}

bool isTexelBufferKind(DescriptorKind k) {
  return k == DescriptorKind::StorageTexelBuffer || k == DescriptorKind::UniformTexelBuffer;
}

bool isImageKind(DescriptorKind k) {
  return k == DescriptorKind::StorageImage || k == DescriptorKind::SampledImage ||
         k == DescriptorKind::CombinedImageSampler;
}

bool isDynamicKind(DescriptorKind k) {
  return k == DescriptorKind::StorageBufferDynamic || k == DescriptorKind::UniformBufferDynamic;
}

bool isWritableKind(DescriptorKind k) {
  // Amber copies images back whatever their descriptor (it never marks them read-only).
  return k == DescriptorKind::StorageBuffer || k == DescriptorKind::StorageBufferDynamic ||
         k == DescriptorKind::StorageTexelBuffer || isImageKind(k);
}

} // namespace spire::run
