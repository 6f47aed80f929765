#include "spire/run/AccelerationStructure.h"

#include "spire/run/ComputePipeline.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

namespace spire::run {

namespace {

/// What a build needs of the device, or why it cannot build.
Status canBuild(const VulkanContext &ctx) {
  if (!ctx.extensionUsable("VK_KHR_acceleration_structure") ||
      !ctx.hasFeature("AccelerationStructureFeaturesKHR.accelerationStructure"))
    return makeError({}, ctx.deviceName() + " has no acceleration structures "
                                            "(VK_KHR_acceleration_structure)");
  if (!ctx.hasFeature("BufferDeviceAddressFeatures.bufferDeviceAddress"))
    return makeError({}, ctx.deviceName() +
                             " has no buffer device addresses (bufferDeviceAddress), "
                             "which acceleration structures are built from");
  const VulkanFunctions &vk = ctx.vk();
  if (!vk.vkGetAccelerationStructureBuildSizesKHR || !vk.vkCreateAccelerationStructureKHR ||
      !vk.vkDestroyAccelerationStructureKHR || !vk.vkGetAccelerationStructureDeviceAddressKHR ||
      !vk.vkCmdBuildAccelerationStructuresKHR)
    return makeError({}, "the Vulkan driver lacks the acceleration structure entry points");
  return {};
}

/// The alignment of scratch memory addresses the device wants.
uint64_t scratchAlignment(const VulkanContext &ctx) {
  VkPhysicalDeviceAccelerationStructurePropertiesKHR as{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_PROPERTIES_KHR};
  VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &as};
  ctx.vk().vkGetPhysicalDeviceProperties2(ctx.physicalDevice(), &p2);
  return std::max<uint64_t>(as.minAccelerationStructureScratchOffsetAlignment, 1);
}

} // namespace

Expected<DeviceAccelerationStructure>
DeviceAccelerationStructure::create(const VulkanContext &ctx, std::span<const uint8_t> triangles) {
  if (Status s = canBuild(ctx); !s)
    return s.error();
  constexpr size_t kTriangleBytes = 3 * 3 * sizeof(float);
  if (triangles.size() % kTriangleBytes)
    return makeError({}, "an acceleration structure's data is triangles: 36 bytes each (three "
                         "vertices of three floats), not " +
                             std::to_string(triangles.size()) + " bytes");
  const VulkanFunctions &vk = ctx.vk();
  const VkDevice dev = ctx.device();
  const uint64_t alignment = scratchAlignment(ctx);
  DeviceAccelerationStructure as(ctx);
  auto buffer = [&](uint64_t size, VkBufferUsageFlags usage) -> Expected<DeviceBuffer *> {
    auto b = DeviceBuffer::create(ctx, size, usage, true);
    if (!b)
      return b.error();
    as.buffers_.push_back(std::make_unique<DeviceBuffer>(std::move(*b)));
    return as.buffers_.back().get();
  };
  // One level: its storage, the structure and its scratch memory, for `geometry` of `count`
  // primitives; the build is recorded later.
  struct Level {
    VkAccelerationStructureGeometryKHR geometry{
        VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR};
    VkAccelerationStructureBuildGeometryInfoKHR info{
        VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_GEOMETRY_INFO_KHR};
    VkAccelerationStructureBuildRangeInfoKHR range{};
  };
  auto makeLevel = [&](Level &l, VkAccelerationStructureTypeKHR type, uint32_t count,
                       VkAccelerationStructureKHR &handle) -> Status {
    l.info.type = type;
    l.info.flags = VK_BUILD_ACCELERATION_STRUCTURE_PREFER_FAST_TRACE_BIT_KHR;
    l.info.mode = VK_BUILD_ACCELERATION_STRUCTURE_MODE_BUILD_KHR;
    l.info.geometryCount = 1;
    l.info.pGeometries = &l.geometry;
    l.range.primitiveCount = count;
    VkAccelerationStructureBuildSizesInfoKHR sizes{
        VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_SIZES_INFO_KHR};
    vk.vkGetAccelerationStructureBuildSizesKHR(dev, VK_ACCELERATION_STRUCTURE_BUILD_TYPE_DEVICE_KHR,
                                               &l.info, &count, &sizes);
    auto storage = buffer(sizes.accelerationStructureSize,
                          VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_STORAGE_BIT_KHR);
    if (!storage)
      return storage.error();
    VkAccelerationStructureCreateInfoKHR ci{
        VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_CREATE_INFO_KHR};
    ci.buffer = (*storage)->handle();
    ci.size = sizes.accelerationStructureSize;
    ci.type = type;
    if (VkResult r = vk.vkCreateAccelerationStructureKHR(dev, &ci, nullptr, &handle);
        r != VK_SUCCESS)
      return vkFailure("vkCreateAccelerationStructureKHR", r);
    auto scratch = buffer(sizes.buildScratchSize + alignment, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    if (!scratch)
      return scratch.error();
    l.info.dstAccelerationStructure = handle;
    l.info.scratchData.deviceAddress =
        ((*scratch)->deviceAddress() + alignment - 1) / alignment * alignment;
    return {};
  };
  constexpr VkBufferUsageFlags kInput =
      VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR;

  Level bottom, top;
  const uint32_t primitives = static_cast<uint32_t>(triangles.size() / kTriangleBytes);
  if (primitives) {
    auto vertices = buffer(triangles.size(), kInput);
    if (!vertices)
      return vertices.error();
    std::memcpy((*vertices)->data(), triangles.data(), triangles.size());
    bottom.geometry.geometryType = VK_GEOMETRY_TYPE_TRIANGLES_KHR;
    bottom.geometry.flags = VK_GEOMETRY_OPAQUE_BIT_KHR;
    VkAccelerationStructureGeometryTrianglesDataKHR &t = bottom.geometry.geometry.triangles;
    t.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_TRIANGLES_DATA_KHR;
    t.vertexFormat = VK_FORMAT_R32G32B32_SFLOAT;
    t.vertexData.deviceAddress = (*vertices)->deviceAddress();
    t.vertexStride = 12;
    t.maxVertex = primitives * 3 - 1;
    t.indexType = VK_INDEX_TYPE_NONE_KHR;
    if (Status s = makeLevel(bottom, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, primitives,
                             as.bottom_);
        !s)
      return s.error();
  }
  auto instances = buffer(sizeof(VkAccelerationStructureInstanceKHR), kInput);
  if (!instances)
    return instances.error();
  if (primitives) {
    VkAccelerationStructureInstanceKHR instance{};
    instance.transform.matrix[0][0] = instance.transform.matrix[1][1] =
        instance.transform.matrix[2][2] = 1.0f;
    instance.mask = 0xFF;
    instance.flags = VK_GEOMETRY_INSTANCE_TRIANGLE_FACING_CULL_DISABLE_BIT_KHR;
    VkAccelerationStructureDeviceAddressInfoKHR ai{
        VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_DEVICE_ADDRESS_INFO_KHR};
    ai.accelerationStructure = as.bottom_;
    instance.accelerationStructureReference =
        vk.vkGetAccelerationStructureDeviceAddressKHR(dev, &ai);
    std::memcpy((*instances)->data(), &instance, sizeof instance);
  }
  top.geometry.geometryType = VK_GEOMETRY_TYPE_INSTANCES_KHR;
  VkAccelerationStructureGeometryInstancesDataKHR &i = top.geometry.geometry.instances;
  i.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_INSTANCES_DATA_KHR;
  i.arrayOfPointers = VK_FALSE;
  i.data.deviceAddress = (*instances)->deviceAddress();
  if (Status s =
          makeLevel(top, VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR, primitives ? 1 : 0, as.top_);
      !s)
    return s.error();

  auto recording = OneTimeCommands::begin(ctx);
  if (!recording)
    return recording.error();
  const VkCommandBuffer cmd = recording->commands();
  if (primitives) {
    const VkAccelerationStructureBuildRangeInfoKHR *range = &bottom.range;
    vk.vkCmdBuildAccelerationStructuresKHR(cmd, 1, &bottom.info, &range);
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_ACCELERATION_STRUCTURE_WRITE_BIT_KHR;
    mb.dstAccessMask = VK_ACCESS_ACCELERATION_STRUCTURE_READ_BIT_KHR;
    vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR,
                            VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR, 0, 1, &mb, 0,
                            nullptr, 0, nullptr);
  }
  const VkAccelerationStructureBuildRangeInfoKHR *range = &top.range;
  vk.vkCmdBuildAccelerationStructuresKHR(cmd, 1, &top.info, &range);
  if (Status s = recording->submitAndWait(10'000'000'000ull, "the acceleration structure build");
      !s)
    return s.error();
  return as;
}

DeviceAccelerationStructure::DeviceAccelerationStructure(DeviceAccelerationStructure &&o) noexcept
    : ctx_(o.ctx_), bottom_(std::exchange(o.bottom_, VK_NULL_HANDLE)),
      top_(std::exchange(o.top_, VK_NULL_HANDLE)), buffers_(std::move(o.buffers_)) {}

DeviceAccelerationStructure::~DeviceAccelerationStructure() {
  if (top_)
    ctx_->vk().vkDestroyAccelerationStructureKHR(ctx_->device(), top_, nullptr);
  if (bottom_)
    ctx_->vk().vkDestroyAccelerationStructureKHR(ctx_->device(), bottom_, nullptr);
}

} // namespace spire::run
