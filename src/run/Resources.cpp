#include "spire/run/Resources.h"

#include <algorithm>
#include <utility>

namespace spire::run {

namespace {

Diagnostic vkFailure(const char *what, VkResult r) {
  return makeError({}, std::string(what) + " failed: " + resultName(r));
}

Expected<VkDeviceMemory> allocate(const VulkanContext &ctx, VkMemoryRequirements req,
                                  VkMemoryPropertyFlags want, bool deviceAddress = false) {
  uint32_t type = ctx.memoryType(req.memoryTypeBits, want);
  if (type == ~0u)
    return makeError({}, "no suitable memory type");
  VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  ai.allocationSize = req.size;
  ai.memoryTypeIndex = type;
  VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  if (deviceAddress)
    ai.pNext = &flags;
  VkDeviceMemory mem = VK_NULL_HANDLE;
  if (VkResult r = ctx.vk().vkAllocateMemory(ctx.device(), &ai, nullptr, &mem); r != VK_SUCCESS)
    return vkFailure("vkAllocateMemory", r);
  return mem;
}

/// The aspect an image's view and copies use: depth for the depth-only formats (images that
/// depth comparisons sample), colour for the others.
VkImageAspectFlags aspectOf(VkFormat f) {
  return f == VK_FORMAT_D16_UNORM || f == VK_FORMAT_X8_D24_UNORM_PACK32 || f == VK_FORMAT_D32_SFLOAT
             ? VK_IMAGE_ASPECT_DEPTH_BIT
             : VK_IMAGE_ASPECT_COLOR_BIT;
}

} // namespace

// --- DeviceBuffer ---

Expected<DeviceBuffer> DeviceBuffer::create(const VulkanContext &ctx, uint64_t size,
                                            VkBufferUsageFlags usage, bool deviceAddress) {
  if (deviceAddress && !ctx.hasFeature("BufferDeviceAddressFeatures.bufferDeviceAddress"))
    return makeError({}, "the device has no buffer device addresses (bufferDeviceAddress)");
  DeviceBuffer b;
  b.ctx_ = &ctx;
  b.size_ = std::max<uint64_t>(size, 4);
  const VulkanFunctions &vk = ctx.vk();
  VkBufferCreateInfo ci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  ci.size = b.size_;
  ci.usage = usage | (deviceAddress ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT : 0);
  ci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  if (VkResult r = vk.vkCreateBuffer(ctx.device(), &ci, nullptr, &b.buffer_); r != VK_SUCCESS)
    return vkFailure("vkCreateBuffer", r);
  VkMemoryRequirements req;
  vk.vkGetBufferMemoryRequirements(ctx.device(), b.buffer_, &req);
  auto mem =
      allocate(ctx, req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
               deviceAddress);
  if (!mem)
    return mem.error();
  b.memory_ = *mem;
  if (VkResult r = vk.vkBindBufferMemory(ctx.device(), b.buffer_, b.memory_, 0); r != VK_SUCCESS)
    return vkFailure("vkBindBufferMemory", r);
  void *p = nullptr;
  if (VkResult r = vk.vkMapMemory(ctx.device(), b.memory_, 0, VK_WHOLE_SIZE, 0, &p);
      r != VK_SUCCESS)
    return vkFailure("vkMapMemory", r);
  b.mapped_ = static_cast<uint8_t *>(p);
  return b;
}

uint64_t DeviceBuffer::deviceAddress() const {
  VkBufferDeviceAddressInfo info{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
  info.buffer = buffer_;
  return ctx_->vk().vkGetBufferDeviceAddress(ctx_->device(), &info);
}

DeviceBuffer::DeviceBuffer(DeviceBuffer &&o) noexcept
    : ctx_(o.ctx_), buffer_(std::exchange(o.buffer_, VK_NULL_HANDLE)),
      memory_(std::exchange(o.memory_, VK_NULL_HANDLE)),
      view_(std::exchange(o.view_, VK_NULL_HANDLE)), size_(o.size_),
      mapped_(std::exchange(o.mapped_, nullptr)) {}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&o) noexcept {
  if (this != &o) {
    release();
    ctx_ = o.ctx_;
    buffer_ = std::exchange(o.buffer_, VK_NULL_HANDLE);
    memory_ = std::exchange(o.memory_, VK_NULL_HANDLE);
    view_ = std::exchange(o.view_, VK_NULL_HANDLE);
    size_ = o.size_;
    mapped_ = std::exchange(o.mapped_, nullptr);
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() { release(); }

void DeviceBuffer::release() {
  if (!ctx_)
    return;
  const VulkanFunctions &vk = ctx_->vk();
  if (view_)
    vk.vkDestroyBufferView(ctx_->device(), view_, nullptr);
  if (buffer_)
    vk.vkDestroyBuffer(ctx_->device(), buffer_, nullptr);
  if (memory_)
    vk.vkFreeMemory(ctx_->device(), memory_, nullptr);
  view_ = VK_NULL_HANDLE;
  buffer_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
}

Expected<VkBufferView> DeviceBuffer::view(VkFormat format) {
  if (view_)
    return view_;
  VkBufferViewCreateInfo ci{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
  ci.buffer = buffer_;
  ci.format = format;
  ci.offset = 0;
  ci.range = VK_WHOLE_SIZE;
  if (VkResult r = ctx_->vk().vkCreateBufferView(ctx_->device(), &ci, nullptr, &view_);
      r != VK_SUCCESS)
    return vkFailure("vkCreateBufferView", r);
  return view_;
}

// --- DeviceImage ---

Expected<DeviceImage> DeviceImage::create(const VulkanContext &ctx, const ImageDesc &desc) {
  DeviceImage img;
  img.ctx_ = &ctx;
  img.desc_ = desc;
  const VulkanFunctions &vk = ctx.vk();
  VkImageCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ci.imageType = desc.type;
  ci.format = desc.format;
  ci.extent = {desc.width, desc.height, desc.depth};
  ci.mipLevels = desc.mipLevels;
  ci.arrayLayers = desc.layers;
  ci.flags = desc.cube ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0;
  ci.samples = static_cast<VkSampleCountFlagBits>(desc.samples);
  ci.tiling = VK_IMAGE_TILING_OPTIMAL;
  ci.usage = desc.usage | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  ci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  ci.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  if (VkResult r = vk.vkCreateImage(ctx.device(), &ci, nullptr, &img.image_); r != VK_SUCCESS)
    return vkFailure("vkCreateImage", r);
  VkMemoryRequirements req;
  vk.vkGetImageMemoryRequirements(ctx.device(), img.image_, &req);
  auto mem = allocate(ctx, req, 0);
  if (!mem)
    return mem.error();
  img.memory_ = *mem;
  if (VkResult r = vk.vkBindImageMemory(ctx.device(), img.image_, img.memory_, 0); r != VK_SUCCESS)
    return vkFailure("vkBindImageMemory", r);
  VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vi.image = img.image_;
  vi.viewType = desc.cube ? (desc.arrayed ? VK_IMAGE_VIEW_TYPE_CUBE_ARRAY : VK_IMAGE_VIEW_TYPE_CUBE)
                : desc.type == VK_IMAGE_TYPE_1D
                    ? (desc.arrayed ? VK_IMAGE_VIEW_TYPE_1D_ARRAY : VK_IMAGE_VIEW_TYPE_1D)
                : desc.type == VK_IMAGE_TYPE_3D
                    ? VK_IMAGE_VIEW_TYPE_3D
                    : (desc.arrayed ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D);
  vi.format = desc.format;
  vi.subresourceRange = {aspectOf(desc.format), desc.baseMipLevel,
                         desc.mipLevels - desc.baseMipLevel, 0, desc.layers};
  if (VkResult r = vk.vkCreateImageView(ctx.device(), &vi, nullptr, &img.view_); r != VK_SUCCESS)
    return vkFailure("vkCreateImageView", r);
  if (desc.samples == 1) {
    auto staging = DeviceBuffer::create(
        ctx, uint64_t(desc.width) * desc.height * desc.depth * desc.layers * desc.texelBytes,
        VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    if (!staging)
      return staging.error();
    img.staging_ = std::make_unique<DeviceBuffer>(std::move(*staging));
  }
  return img;
}

DeviceImage::DeviceImage(DeviceImage &&o) noexcept
    : ctx_(o.ctx_), desc_(o.desc_), image_(std::exchange(o.image_, VK_NULL_HANDLE)),
      view_(std::exchange(o.view_, VK_NULL_HANDLE)),
      memory_(std::exchange(o.memory_, VK_NULL_HANDLE)), staging_(std::move(o.staging_)) {}

DeviceImage &DeviceImage::operator=(DeviceImage &&o) noexcept {
  if (this != &o) {
    release();
    ctx_ = o.ctx_;
    desc_ = o.desc_;
    image_ = std::exchange(o.image_, VK_NULL_HANDLE);
    view_ = std::exchange(o.view_, VK_NULL_HANDLE);
    memory_ = std::exchange(o.memory_, VK_NULL_HANDLE);
    staging_ = std::move(o.staging_);
  }
  return *this;
}

DeviceImage::~DeviceImage() { release(); }

void DeviceImage::release() {
  if (!ctx_)
    return;
  const VulkanFunctions &vk = ctx_->vk();
  if (view_)
    vk.vkDestroyImageView(ctx_->device(), view_, nullptr);
  if (image_)
    vk.vkDestroyImage(ctx_->device(), image_, nullptr);
  if (memory_)
    vk.vkFreeMemory(ctx_->device(), memory_, nullptr);
  view_ = VK_NULL_HANDLE;
  image_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
  staging_.reset();
}

void DeviceImage::recordPrepare(VkCommandBuffer cmd, bool upload) const {
  const VulkanFunctions &vk = ctx_->vk();
  VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image_;
  b.subresourceRange = {aspectOf(desc_.format), 0, desc_.mipLevels, 0, desc_.layers};
  b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  // An upload: the staging buffer copied into level 0, or, for a multisampled colour image
  // (which no copy can fill), every sample cleared to zero.
  const bool copy = upload && staging_ && desc_.samples == 1;
  const bool clear =
      upload && desc_.samples > 1 && aspectOf(desc_.format) == VK_IMAGE_ASPECT_COLOR_BIT;
  if (copy || clear) {
    b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    b.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    vk.vkCmdPipelineBarrier(cmd,
                            copy ? VK_PIPELINE_STAGE_HOST_BIT : VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                            VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1, &b);
    if (copy) {
      VkBufferImageCopy region{};
      region.imageSubresource = {aspectOf(desc_.format), 0, 0, desc_.layers};
      region.imageExtent = {desc_.width, desc_.height, desc_.depth};
      vk.vkCmdCopyBufferToImage(cmd, staging_->handle(), image_,
                                VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    } else {
      const VkClearColorValue zero{};
      vk.vkCmdClearColorImage(cmd, image_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &zero, 1,
                              &b.subresourceRange);
    }
    b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  }
  b.newLayout = VK_IMAGE_LAYOUT_GENERAL;
  b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  vk.vkCmdPipelineBarrier(
      cmd, copy || clear ? VK_PIPELINE_STAGE_TRANSFER_BIT : VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
      VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, nullptr, 0, nullptr, 1, &b);
}

void DeviceImage::recordReadBack(VkCommandBuffer cmd) const {
  if (!staging_ || desc_.samples != 1)
    return;
  const VulkanFunctions &vk = ctx_->vk();
  VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image_;
  b.subresourceRange = {aspectOf(desc_.format), 0, desc_.mipLevels, 0, desc_.layers};
  b.oldLayout = VK_IMAGE_LAYOUT_GENERAL;
  b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  b.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                          0, 0, nullptr, 0, nullptr, 1, &b);
  VkBufferImageCopy region{};
  region.imageSubresource = {aspectOf(desc_.format), 0, 0, desc_.layers};
  region.imageExtent = {desc_.width, desc_.height, desc_.depth};
  vk.vkCmdCopyImageToBuffer(cmd, image_, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, staging_->handle(),
                            1, &region);
  VkBufferMemoryBarrier hb{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
  hb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  hb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  hb.srcQueueFamilyIndex = hb.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  hb.buffer = staging_->handle();
  hb.size = VK_WHOLE_SIZE;
  vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0,
                          nullptr, 1, &hb, 0, nullptr);
}

// --- DeviceSampler ---

Expected<DeviceSampler> DeviceSampler::create(const VulkanContext &ctx, const SamplerDesc &d) {
  DeviceSampler s;
  s.ctx_ = &ctx;
  VkSamplerCreateInfo ci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  ci.magFilter = d.magFilter;
  ci.minFilter = d.minFilter;
  ci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  ci.addressModeU = d.addressU;
  ci.addressModeV = d.addressV;
  ci.addressModeW = d.addressW;
  ci.borderColor = d.borderColor;
  ci.minLod = d.minLod;
  ci.maxLod = d.maxLod;
  ci.unnormalizedCoordinates = d.normalized ? VK_FALSE : VK_TRUE;
  ci.compareEnable = d.compare ? VK_TRUE : VK_FALSE;
  ci.compareOp = d.compareOp;
  if (VkResult r = ctx.vk().vkCreateSampler(ctx.device(), &ci, nullptr, &s.sampler_);
      r != VK_SUCCESS)
    return vkFailure("vkCreateSampler", r);
  return s;
}

DeviceSampler::~DeviceSampler() {
  if (sampler_)
    ctx_->vk().vkDestroySampler(ctx_->device(), sampler_, nullptr);
}

} // namespace spire::run
