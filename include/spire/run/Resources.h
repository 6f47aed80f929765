// Device resources with their memory: buffers (host-visible and coherent, with an optional
// texel view), images (with a view and a staging buffer for upload and read-back) and samplers.
// Each owns its Vulkan objects and releases them when destroyed.
#pragma once

#include "spire/run/Device.h"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace spire::run {

class DeviceBuffer {
public:
  /// A buffer of `size` bytes (at least 4) with `usage`, mapped for the host; with
  /// `deviceAddress`, shaders can reach it by its address (bufferDeviceAddress).
  static Expected<DeviceBuffer> create(const VulkanContext &ctx, uint64_t size,
                                       VkBufferUsageFlags usage, bool deviceAddress = false);
  DeviceBuffer(DeviceBuffer &&o) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&o) noexcept;
  ~DeviceBuffer();

  VkBuffer handle() const { return buffer_; }
  uint64_t size() const { return size_; }
  uint8_t *data() const { return mapped_; }
  /// Its device address (a buffer made with `deviceAddress`).
  uint64_t deviceAddress() const;
  /// A texel view of the whole buffer in `format` (made once; later calls return it).
  Expected<VkBufferView> view(VkFormat format);

private:
  DeviceBuffer() = default;
  void release();
  const VulkanContext *ctx_ = nullptr;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkBufferView view_ = VK_NULL_HANDLE;
  uint64_t size_ = 0;
  uint8_t *mapped_ = nullptr;
};

struct ImageDesc {
  VkImageType type = VK_IMAGE_TYPE_2D;
  VkFormat format = VK_FORMAT_UNDEFINED;
  uint32_t width = 1, height = 1, depth = 1;
  uint32_t mipLevels = 1, samples = 1;
  uint32_t layers = 1;                ///< array layers (a cube: 6 per cube)
  bool arrayed = false, cube = false; ///< the view: an array view, a cube (array) view
  VkImageUsageFlags usage = 0;
  uint32_t baseMipLevel = 0; ///< the first level the view shows
  uint32_t texelBytes = 4;   ///< bytes of one texel in the staging buffer
};

class DeviceImage {
public:
  static Expected<DeviceImage> create(const VulkanContext &ctx, const ImageDesc &desc);
  DeviceImage(DeviceImage &&o) noexcept;
  DeviceImage &operator=(DeviceImage &&o) noexcept;
  ~DeviceImage();

  VkImage handle() const { return image_; }
  VkImageView view() const { return view_; }
  const ImageDesc &desc() const { return desc_; }
  /// The staging buffer holding level 0's texels, tightly packed (x, then y, then z, then
  /// the layer).
  DeviceBuffer &staging() { return *staging_; }
  bool hasStaging() const { return staging_ != nullptr; }

  /// Records the layout change to GENERAL (from UNDEFINED, or after an upload), and when
  /// `upload` the copy of the staging buffer into level 0 (single-sampled images) or a clear
  /// of every sample to zero (multisampled colour images, which copies cannot fill).
  void recordPrepare(VkCommandBuffer cmd, bool upload) const;
  /// Records the copy of level 0 into the staging buffer, after the shader's writes.
  void recordReadBack(VkCommandBuffer cmd) const;

private:
  DeviceImage() = default;
  void release();
  const VulkanContext *ctx_ = nullptr;
  ImageDesc desc_;
  VkImage image_ = VK_NULL_HANDLE;
  VkImageView view_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  std::unique_ptr<DeviceBuffer> staging_;
};

struct SamplerDesc {
  VkFilter magFilter = VK_FILTER_NEAREST, minFilter = VK_FILTER_NEAREST;
  VkSamplerAddressMode addressU = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  VkSamplerAddressMode addressV = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  VkSamplerAddressMode addressW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  VkBorderColor borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
  float minLod = 0, maxLod = 1;
  bool normalized = true;
  bool compare = false;
  VkCompareOp compareOp = VK_COMPARE_OP_NEVER;
};

class DeviceSampler {
public:
  static Expected<DeviceSampler> create(const VulkanContext &ctx, const SamplerDesc &desc);
  DeviceSampler(DeviceSampler &&o) noexcept : ctx_(o.ctx_), sampler_(o.sampler_) {
    o.sampler_ = VK_NULL_HANDLE;
  }
  DeviceSampler &operator=(DeviceSampler &&) = delete;
  ~DeviceSampler();
  VkSampler handle() const { return sampler_; }

private:
  DeviceSampler() = default;
  const VulkanContext *ctx_ = nullptr;
  VkSampler sampler_ = VK_NULL_HANDLE;
};

} // namespace spire::run
