// The Vulkan context of a run: the loader, an instance (with the validation layers and a debug
// messenger when asked), the chosen physical device with its features, properties and
// extensions, and one logical device with every supported feature the runner uses enabled and a
// queue that can compute. Nothing here is specific to compute pipelines.
#pragma once

#include "spire/run/DeviceFeatures.h"
#include "spire/run/VulkanApi.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace spire::run {

struct DeviceOptions {
  /// A device index ("0") or part of a device name ("llvmpipe"); empty: the first GPU, or the
  /// first device of any kind when there is no GPU (lavapipe on a machine without one).
  std::string device;
  /// Turn on VK_LAYER_KHRONOS_validation (when installed); its messages are collected.
  bool validation = true;
  /// Fail instead of running without the layer when validation is asked for and missing.
  bool requireValidation = false;
};

/// Whether a device name matches a --device name part: a substring of it, or "lavapipe" for
/// lavapipe's device, which calls itself "llvmpipe (LLVM ...)".
bool deviceNameMatches(std::string_view deviceName, std::string_view part);

/// The driver manifests (a glob of their file names, as the loader's VK_LOADER_DRIVERS_SELECT
/// takes it) that hold the device a --device value asks for, when that is known without loading
/// a driver: lavapipe's for "llvmpipe" or "lavapipe". Empty otherwise: an index counts the
/// devices of every driver, and the default looks for a GPU among all of them.
std::string driverManifestGlob(std::string_view device);

/// One line per physical device: "<index>: <name> (<type>, Vulkan <version>)".
Expected<std::vector<std::string>> listDevices();

class VulkanContext {
public:
  static Expected<std::unique_ptr<VulkanContext>> create(const DeviceOptions &options);
  ~VulkanContext();
  VulkanContext(const VulkanContext &) = delete;
  VulkanContext &operator=(const VulkanContext &) = delete;

  const VulkanFunctions &vk() const { return vk_; }
  VkInstance instance() const { return instance_; }
  VkPhysicalDevice physicalDevice() const { return physical_; }
  VkDevice device() const { return device_; }
  VkQueue queue() const { return queue_; }
  uint32_t queueFamily() const { return queueFamily_; }
  uint32_t apiVersion() const { return properties_.apiVersion; }
  const VkPhysicalDeviceProperties &properties() const { return properties_; }
  const VkPhysicalDeviceSubgroupProperties &subgroupProperties() const { return subgroup_; }
  const VkPhysicalDeviceSubgroupSizeControlProperties &subgroupSizeControl() const {
    return sizeControl_;
  }
  std::string deviceName() const { return properties_.deviceName; }
  /// The driver's own name and version ("Mesa 22.3.6 (LLVM 15.0.6)"); empty where the device
  /// does not say (Vulkan 1.1 without VK_KHR_driver_properties).
  std::string driverInfo() const { return driver_.driverInfo; }
  bool validationEnabled() const { return validation_; }
  uint32_t timestampValidBits() const { return timestampBits_; }

  /// Whether the device reports an extension (every reported one the runner knows is enabled).
  bool hasExtension(std::string_view name) const;
  bool hasInstanceExtension(std::string_view name) const;
  /// Whether the runner enables an extension when a module needs it: the device reports it and
  /// the runner knows it (the first device has every such extension enabled; recreateDevice
  /// enables those it is given).
  bool extensionUsable(std::string_view name) const;
  /// Whether an amber feature name is supported (and so enabled); false for unknown names.
  bool hasFeature(std::string_view name) const;
  /// Whether an amber DEVICE_PROPERTY name holds.
  bool hasProperty(std::string_view name) const;
  /// The highest SPIR-V version the device consumes (0x00010300 for Vulkan 1.1, ...).
  uint32_t maxSpirvVersion() const;

  /// A memory type with all of `required` among `typeBits`, or ~0u.
  uint32_t memoryType(uint32_t typeBits, VkMemoryPropertyFlags required) const;

  /// How long the loader, the instance and the device took to make (milliseconds).
  double instanceMilliseconds() const { return instanceMs_; }
  double deviceMilliseconds() const { return deviceMs_; }

  /// Replaces the logical device by one with only these extensions and features (names as
  /// hasFeature takes them) enabled; every object made on the old device must be gone. Fails,
  /// keeping the old device, when the device lacks one of them.
  Status recreateDevice(const std::vector<std::string> &extensions,
                        const std::vector<std::string> &features);

  /// The validation messages since the last call, and clears them.
  std::vector<std::string> takeMessages();

private:
  VulkanContext(VulkanLibrary library) : library_(std::move(library)), vk_(library_.functions()) {}
  Status init(const DeviceOptions &options);
  Status createDevice(const FeatureChain &enabled, const std::vector<std::string> &extensions);
  static VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                  VkDebugUtilsMessageTypeFlagsEXT types,
                                                  const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                  void *user);

  VulkanLibrary library_;
  VulkanFunctions vk_;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queueFamily_ = 0;
  uint32_t timestampBits_ = 0;
  bool validation_ = false;
  double instanceMs_ = 0, deviceMs_ = 0;
  VkPhysicalDeviceProperties properties_{};
  VkPhysicalDeviceSubgroupProperties subgroup_{};
  VkPhysicalDeviceSubgroupSizeControlProperties sizeControl_{};
  VkPhysicalDeviceFloatControlsProperties floatControls_{};
  VkPhysicalDeviceDriverProperties driver_{};
  VkPhysicalDeviceMemoryProperties memory_{};
  FeatureChain features_;
  std::vector<std::string> extensions_, instanceExtensions_, usableExtensions_;
  std::mutex messagesMutex_;
  std::vector<std::string> messages_;
};

} // namespace spire::run
