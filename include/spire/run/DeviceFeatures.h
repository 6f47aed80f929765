// A device's features as a chain of Vulkan feature structs (core, Vulkan 1.1-1.3 and the
// extension structs the runner knows), and amber's feature names looked up in it.
#pragma once

#include "spire/run/VulkanApi.h"

#include <string>
#include <string_view>
#include <vector>

namespace spire::run {

struct FeatureChain {
  VkPhysicalDeviceFeatures2 core{};
  VkPhysicalDeviceVulkan11Features v11{};
  VkPhysicalDeviceVulkan12Features v12{};
  VkPhysicalDeviceVulkan13Features v13{};
  VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR workgroupLayout{};
  VkPhysicalDeviceShaderSubgroupUniformControlFlowFeaturesKHR uniformControlFlow{};
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomicFloat{};
  /// VK_KHR_compute_shader_derivatives' struct: the NV one it was promoted from, same sType.
  VkPhysicalDeviceComputeShaderDerivativesFeaturesNV derivatives{};
  VkPhysicalDeviceAccelerationStructureFeaturesKHR accelerationStructure{};
  VkPhysicalDeviceRayQueryFeaturesKHR rayQuery{};
  VkPhysicalDeviceRayTracingPipelineFeaturesKHR rayTracingPipeline{};
  VkPhysicalDeviceTransformFeedbackFeaturesEXT transformFeedback{};
  VkPhysicalDeviceMeshShaderFeaturesEXT meshShader{};

  FeatureChain() = default;
  FeatureChain(const FeatureChain &) = delete;
  FeatureChain &operator=(const FeatureChain &) = delete;

  /// Links the structs a device of `apiVersion` with these extensions can report (Vulkan 1.1 and
  /// 1.2 structs from 1.2 on, 1.3 from 1.3 on, extension structs when their extension is there).
  void link(uint32_t apiVersion, const std::vector<std::string> &extensions);
  /// Copies the values of another chain (the links stay).
  void copyValues(const FeatureChain &other);
  /// Clears the features that change behaviour without a script asking (robustness).
  void clearBehaviourChanging();

  /// The flag of an amber feature name (`shaderInt64`,
  /// `Storage8BitFeatures.storageBuffer8BitAccess`), or null when the name is unknown or its struct
  /// was not linked.
  const VkBool32 *find(std::string_view name) const;
  VkBool32 *find(std::string_view name) {
    return const_cast<VkBool32 *>(static_cast<const FeatureChain *>(this)->find(name));
  }

  bool linked11 = false, linked12 = false, linked13 = false;
  bool linkedWorkgroupLayout = false, linkedUniformControlFlow = false, linkedAtomicFloat = false;
  bool linkedDerivatives = false, linkedRayQuery = false, linkedTransformFeedback = false,
       linkedMeshShader = false, linkedRayTracingPipeline = false;
};

/// Every name DEVICE_FEATURE accepts.
bool isKnownFeature(std::string_view name);
/// The names DEVICE_PROPERTY accepts.
bool isKnownProperty(std::string_view name);

} // namespace spire::run
