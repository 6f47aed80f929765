// A top-level acceleration structure for shaders that trace rays (ray queries): triangles built
// into one bottom-level structure, placed once in the top level. What `spire run` binds to an
// acceleration structure binding of a compute shader.
#pragma once

#include "spire/run/Device.h"
#include "spire/run/Resources.h"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace spire::run {

class DeviceAccelerationStructure {
public:
  /// Builds the structure of `triangles`, bytes of three vertices of three floats (x y z) each,
  /// 36 bytes a triangle: one
  /// bottom-level structure of opaque geometry, and a top level with one instance of it
  /// (identity transform, mask 0xFF, custom index 0, hit group offset 0, no face culling).
  /// Without triangles the top level has no instance: every ray misses. Fails, saying what is
  /// missing, on a device without VK_KHR_acceleration_structure or buffer device addresses.
  static Expected<DeviceAccelerationStructure> create(const VulkanContext &ctx,
                                                      std::span<const uint8_t> triangles);
  DeviceAccelerationStructure(DeviceAccelerationStructure &&o) noexcept;
  DeviceAccelerationStructure &operator=(DeviceAccelerationStructure &&) = delete;
  ~DeviceAccelerationStructure();

  /// The top level, which shaders see.
  VkAccelerationStructureKHR handle() const { return top_; }

private:
  explicit DeviceAccelerationStructure(const VulkanContext &ctx) : ctx_(&ctx) {}
  const VulkanContext *ctx_;
  VkAccelerationStructureKHR bottom_ = VK_NULL_HANDLE, top_ = VK_NULL_HANDLE;
  /// The structures' storage, their inputs (vertices, the instance) and scratch memory.
  std::vector<std::unique_ptr<DeviceBuffer>> buffers_;
};

} // namespace spire::run
