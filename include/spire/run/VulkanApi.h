// The Vulkan loader, opened at run time (dlopen of libvulkan.so.1), and the table of entry
// points the runner calls, each fetched through vkGetInstanceProcAddr / vkGetDeviceProcAddr.
// Nothing links against Vulkan, so a machine without it runs every other command.
#pragma once

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <vulkan/vulkan_core.h>

#include "spire/support/Expected.h"

namespace spire::run {

// X-macro lists of the entry points, by the object that resolves them.
#define SPIRE_VK_GLOBAL_FUNCTIONS(X)                                                               \
  X(vkCreateInstance)                                                                              \
  X(vkEnumerateInstanceExtensionProperties)                                                        \
  X(vkEnumerateInstanceLayerProperties)                                                            \
  X(vkEnumerateInstanceVersion)

#define SPIRE_VK_INSTANCE_FUNCTIONS(X)                                                             \
  X(vkDestroyInstance)                                                                             \
  X(vkEnumeratePhysicalDevices)                                                                    \
  X(vkGetPhysicalDeviceProperties)                                                                 \
  X(vkGetPhysicalDeviceProperties2)                                                                \
  X(vkGetPhysicalDeviceFeatures2)                                                                  \
  X(vkGetPhysicalDeviceQueueFamilyProperties)                                                      \
  X(vkGetPhysicalDeviceMemoryProperties)                                                           \
  X(vkGetPhysicalDeviceFormatProperties)                                                           \
  X(vkGetPhysicalDeviceFormatProperties2)                                                          \
  X(vkGetPhysicalDeviceImageFormatProperties)                                                      \
  X(vkEnumerateDeviceExtensionProperties)                                                          \
  X(vkCreateDevice)                                                                                \
  X(vkGetDeviceProcAddr)                                                                           \
  X(vkCreateDebugUtilsMessengerEXT)                                                                \
  X(vkDestroyDebugUtilsMessengerEXT)

#define SPIRE_VK_DEVICE_FUNCTIONS(X)                                                               \
  X(vkDestroyDevice)                                                                               \
  X(vkGetDeviceQueue)                                                                              \
  X(vkDeviceWaitIdle)                                                                              \
  X(vkCreateBuffer)                                                                                \
  X(vkDestroyBuffer)                                                                               \
  X(vkCreateBufferView)                                                                            \
  X(vkDestroyBufferView)                                                                           \
  X(vkGetBufferMemoryRequirements)                                                                 \
  X(vkGetBufferDeviceAddress)                                                                      \
  X(vkCreateImage)                                                                                 \
  X(vkDestroyImage)                                                                                \
  X(vkCreateImageView)                                                                             \
  X(vkDestroyImageView)                                                                            \
  X(vkGetImageMemoryRequirements)                                                                  \
  X(vkCreateSampler)                                                                               \
  X(vkDestroySampler)                                                                              \
  X(vkAllocateMemory)                                                                              \
  X(vkFreeMemory)                                                                                  \
  X(vkBindBufferMemory)                                                                            \
  X(vkBindImageMemory)                                                                             \
  X(vkMapMemory)                                                                                   \
  X(vkUnmapMemory)                                                                                 \
  X(vkCreateShaderModule)                                                                          \
  X(vkDestroyShaderModule)                                                                         \
  X(vkCreateDescriptorSetLayout)                                                                   \
  X(vkDestroyDescriptorSetLayout)                                                                  \
  X(vkCreatePipelineLayout)                                                                        \
  X(vkDestroyPipelineLayout)                                                                       \
  X(vkCreateComputePipelines)                                                                      \
  X(vkCreateGraphicsPipelines)                                                                     \
  X(vkCreateRayTracingPipelinesKHR)                                                                \
  X(vkGetAccelerationStructureBuildSizesKHR)                                                       \
  X(vkCreateAccelerationStructureKHR)                                                              \
  X(vkDestroyAccelerationStructureKHR)                                                             \
  X(vkGetAccelerationStructureDeviceAddressKHR)                                                    \
  X(vkCmdBuildAccelerationStructuresKHR)                                                           \
  X(vkDestroyPipeline)                                                                             \
  X(vkCreateDescriptorPool)                                                                        \
  X(vkDestroyDescriptorPool)                                                                       \
  X(vkAllocateDescriptorSets)                                                                      \
  X(vkUpdateDescriptorSets)                                                                        \
  X(vkCreateCommandPool)                                                                           \
  X(vkDestroyCommandPool)                                                                          \
  X(vkResetCommandPool)                                                                            \
  X(vkAllocateCommandBuffers)                                                                      \
  X(vkBeginCommandBuffer)                                                                          \
  X(vkEndCommandBuffer)                                                                            \
  X(vkCmdBindPipeline)                                                                             \
  X(vkCmdBindDescriptorSets)                                                                       \
  X(vkCmdPushConstants)                                                                            \
  X(vkCmdDispatch)                                                                                 \
  X(vkCmdPipelineBarrier)                                                                          \
  X(vkCmdCopyBufferToImage)                                                                        \
  X(vkCmdCopyImageToBuffer)                                                                        \
  X(vkCmdClearColorImage)                                                                          \
  X(vkCmdWriteTimestamp)                                                                           \
  X(vkCmdResetQueryPool)                                                                           \
  X(vkCreateQueryPool)                                                                             \
  X(vkDestroyQueryPool)                                                                            \
  X(vkGetQueryPoolResults)                                                                         \
  X(vkCreateFence)                                                                                 \
  X(vkDestroyFence)                                                                                \
  X(vkResetFences)                                                                                 \
  X(vkWaitForFences)                                                                               \
  X(vkQueueSubmit)

/// The entry points; null where the loader or driver does not provide one.
struct VulkanFunctions {
#define SPIRE_VK_MEMBER(name) PFN_##name name = nullptr;
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
  SPIRE_VK_GLOBAL_FUNCTIONS(SPIRE_VK_MEMBER)
  SPIRE_VK_INSTANCE_FUNCTIONS(SPIRE_VK_MEMBER)
  SPIRE_VK_DEVICE_FUNCTIONS(SPIRE_VK_MEMBER)
#undef SPIRE_VK_MEMBER

  void loadInstance(VkInstance instance);
  void loadDevice(VkDevice device);
};

/// The loader library: opened once, closed with the object.
class VulkanLibrary {
public:
  /// Opens libvulkan.so.1 (or the file named by SPIRE_VULKAN_LIBRARY) and fetches the global
  /// entry points; fails with one line saying what is missing.
  static Expected<VulkanLibrary> open();
  VulkanLibrary(VulkanLibrary &&o) noexcept : handle_(o.handle_), functions_(o.functions_) {
    o.handle_ = nullptr;
  }
  VulkanLibrary &operator=(VulkanLibrary &&) = delete;
  ~VulkanLibrary();

  const VulkanFunctions &functions() const { return functions_; }

private:
  VulkanLibrary() = default;
  void *handle_ = nullptr;
  VulkanFunctions functions_;
};

/// "VK_ERROR_OUT_OF_DEVICE_MEMORY" and so on, for messages.
const char *resultName(VkResult result);

} // namespace spire::run
