#include "spire/run/DeviceFeatures.h"

#include <cstddef>
#include <cstring>

namespace spire::run {

namespace {

// The members of VkPhysicalDeviceFeatures, in declaration order (each a VkBool32).
constexpr std::string_view kCoreFeatures[] = {"robustBufferAccess",
                                              "fullDrawIndexUint32",
                                              "imageCubeArray",
                                              "independentBlend",
                                              "geometryShader",
                                              "tessellationShader",
                                              "sampleRateShading",
                                              "dualSrcBlend",
                                              "logicOp",
                                              "multiDrawIndirect",
                                              "drawIndirectFirstInstance",
                                              "depthClamp",
                                              "depthBiasClamp",
                                              "fillModeNonSolid",
                                              "depthBounds",
                                              "wideLines",
                                              "largePoints",
                                              "alphaToOne",
                                              "multiViewport",
                                              "samplerAnisotropy",
                                              "textureCompressionETC2",
                                              "textureCompressionASTC_LDR",
                                              "textureCompressionBC",
                                              "occlusionQueryPrecise",
                                              "pipelineStatisticsQuery",
                                              "vertexPipelineStoresAndAtomics",
                                              "fragmentStoresAndAtomics",
                                              "shaderTessellationAndGeometryPointSize",
                                              "shaderImageGatherExtended",
                                              "shaderStorageImageExtendedFormats",
                                              "shaderStorageImageMultisample",
                                              "shaderStorageImageReadWithoutFormat",
                                              "shaderStorageImageWriteWithoutFormat",
                                              "shaderUniformBufferArrayDynamicIndexing",
                                              "shaderSampledImageArrayDynamicIndexing",
                                              "shaderStorageBufferArrayDynamicIndexing",
                                              "shaderStorageImageArrayDynamicIndexing",
                                              "shaderClipDistance",
                                              "shaderCullDistance",
                                              "shaderFloat64",
                                              "shaderInt64",
                                              "shaderInt16",
                                              "shaderResourceResidency",
                                              "shaderResourceMinLod",
                                              "sparseBinding",
                                              "sparseResidencyBuffer",
                                              "sparseResidencyImage2D",
                                              "sparseResidencyImage3D",
                                              "sparseResidency2Samples",
                                              "sparseResidency4Samples",
                                              "sparseResidency8Samples",
                                              "sparseResidency16Samples",
                                              "sparseResidencyAliased",
                                              "variableMultisampleRate",
                                              "inheritedQueries"};
static_assert(sizeof(kCoreFeatures) / sizeof(kCoreFeatures[0]) ==
              sizeof(VkPhysicalDeviceFeatures) / sizeof(VkBool32));

enum class Where : uint8_t {
  V11,
  V12,
  V13,
  WorkgroupLayout,
  UniformControlFlow,
  AtomicFloat,
  Derivatives,
  AccelerationStructure,
  RayQuery,
  TransformFeedback,
  MeshShader,
  RayTracingPipeline,
  None
};

struct Dotted {
  std::string_view name;
  Where where;
  size_t offset;
};

#define V11(m) Where::V11, offsetof(VkPhysicalDeviceVulkan11Features, m)
#define V12(m) Where::V12, offsetof(VkPhysicalDeviceVulkan12Features, m)
#define V13(m) Where::V13, offsetof(VkPhysicalDeviceVulkan13Features, m)
// Amber's dotted names, each mapped to the member of the Vulkan 1.x struct that holds it.
constexpr Dotted kDotted[] = {
    {"VariablePointerFeatures.variablePointersStorageBuffer", V11(variablePointersStorageBuffer)},
    {"VariablePointerFeatures.variablePointers", V11(variablePointers)},
    {"Float16Int8Features.shaderFloat16", V12(shaderFloat16)},
    {"Float16Int8Features.shaderInt8", V12(shaderInt8)},
    {"Storage8BitFeatures.storageBuffer8BitAccess", V12(storageBuffer8BitAccess)},
    {"Storage8BitFeatures.uniformAndStorageBuffer8BitAccess",
     V12(uniformAndStorageBuffer8BitAccess)},
    {"Storage8BitFeatures.storagePushConstant8", V12(storagePushConstant8)},
    {"Storage16BitFeatures.storageBuffer16BitAccess", V11(storageBuffer16BitAccess)},
    {"Storage16BitFeatures.uniformAndStorageBuffer16BitAccess",
     V11(uniformAndStorageBuffer16BitAccess)},
    {"Storage16BitFeatures.storagePushConstant16", V11(storagePushConstant16)},
    {"Storage16BitFeatures.storageInputOutput16", V11(storageInputOutput16)},
    {"VulkanMemoryModelFeatures.vulkanMemoryModel", V12(vulkanMemoryModel)},
    {"VulkanMemoryModelFeatures.vulkanMemoryModelDeviceScope", V12(vulkanMemoryModelDeviceScope)},
    {"VulkanMemoryModelFeatures.vulkanMemoryModelAvailabilityVisibilityChains",
     V12(vulkanMemoryModelAvailabilityVisibilityChains)},
    {"ZeroInitializeWorkgroupMemoryFeatures.shaderZeroInitializeWorkgroupMemory",
     V13(shaderZeroInitializeWorkgroupMemory)},
    {"SubgroupSizeControl.subgroupSizeControl", V13(subgroupSizeControl)},
    {"SubgroupSizeControl.computeFullSubgroups", V13(computeFullSubgroups)},
    {"ShaderSubgroupExtendedTypesFeatures.shaderSubgroupExtendedTypes",
     V12(shaderSubgroupExtendedTypes)},
    {"BufferDeviceAddressFeatures.bufferDeviceAddress", V12(bufferDeviceAddress)},
    // Not amber's: the features the SPIR-V capabilities of translated shaders need, named
    // after their Vulkan structs the same way.
    {"MultiviewFeatures.multiview", V11(multiview)},
    {"DynamicRenderingFeatures.dynamicRendering", V13(dynamicRendering)},
    {"Maintenance4Features.maintenance4", V13(maintenance4)},
    {"ShaderIntegerDotProductFeatures.shaderIntegerDotProduct", V13(shaderIntegerDotProduct)},
    {"ShaderAtomicInt64Features.shaderSharedInt64Atomics", V12(shaderSharedInt64Atomics)},
    {"ShaderDrawParametersFeatures.shaderDrawParameters", V11(shaderDrawParameters)},
    {"ShaderAtomicInt64Features.shaderBufferInt64Atomics", V12(shaderBufferInt64Atomics)},
    {"ShaderOutputLayer.shaderOutputLayer", V12(shaderOutputLayer)},
    {"ShaderOutputViewportIndex.shaderOutputViewportIndex", V12(shaderOutputViewportIndex)},
    {"ShaderDemoteToHelperInvocation.shaderDemoteToHelperInvocation",
     V13(shaderDemoteToHelperInvocation)},
    {"DescriptorIndexingFeatures.runtimeDescriptorArray", V12(runtimeDescriptorArray)},
    {"DescriptorIndexingFeatures.shaderUniformTexelBufferArrayDynamicIndexing",
     V12(shaderUniformTexelBufferArrayDynamicIndexing)},
    {"DescriptorIndexingFeatures.shaderStorageTexelBufferArrayDynamicIndexing",
     V12(shaderStorageTexelBufferArrayDynamicIndexing)},
    {"DescriptorIndexingFeatures.shaderUniformBufferArrayNonUniformIndexing",
     V12(shaderUniformBufferArrayNonUniformIndexing)},
    {"DescriptorIndexingFeatures.shaderSampledImageArrayNonUniformIndexing",
     V12(shaderSampledImageArrayNonUniformIndexing)},
    {"DescriptorIndexingFeatures.shaderStorageBufferArrayNonUniformIndexing",
     V12(shaderStorageBufferArrayNonUniformIndexing)},
    {"DescriptorIndexingFeatures.shaderStorageImageArrayNonUniformIndexing",
     V12(shaderStorageImageArrayNonUniformIndexing)},
    {"DescriptorIndexingFeatures.shaderUniformTexelBufferArrayNonUniformIndexing",
     V12(shaderUniformTexelBufferArrayNonUniformIndexing)},
    {"DescriptorIndexingFeatures.shaderStorageTexelBufferArrayNonUniformIndexing",
     V12(shaderStorageTexelBufferArrayNonUniformIndexing)},
    {"ComputeShaderDerivativesFeatures.computeDerivativeGroupQuads", Where::Derivatives,
     offsetof(VkPhysicalDeviceComputeShaderDerivativesFeaturesNV, computeDerivativeGroupQuads)},
    {"ComputeShaderDerivativesFeatures.computeDerivativeGroupLinear", Where::Derivatives,
     offsetof(VkPhysicalDeviceComputeShaderDerivativesFeaturesNV, computeDerivativeGroupLinear)},
    {"RayQueryFeatures.rayQuery", Where::RayQuery,
     offsetof(VkPhysicalDeviceRayQueryFeaturesKHR, rayQuery)},
    {"RayTracingPipelineFeatures.rayTracingPipeline", Where::RayTracingPipeline,
     offsetof(VkPhysicalDeviceRayTracingPipelineFeaturesKHR, rayTracingPipeline)},
    {"MeshShaderFeatures.meshShader", Where::MeshShader,
     offsetof(VkPhysicalDeviceMeshShaderFeaturesEXT, meshShader)},
    {"MeshShaderFeatures.taskShader", Where::MeshShader,
     offsetof(VkPhysicalDeviceMeshShaderFeaturesEXT, taskShader)},
    {"TransformFeedbackFeatures.transformFeedback", Where::TransformFeedback,
     offsetof(VkPhysicalDeviceTransformFeedbackFeaturesEXT, transformFeedback)},
    {"TransformFeedbackFeatures.geometryStreams", Where::TransformFeedback,
     offsetof(VkPhysicalDeviceTransformFeedbackFeaturesEXT, geometryStreams)},
    {"AccelerationStructureFeaturesKHR.accelerationStructure", Where::AccelerationStructure,
     offsetof(VkPhysicalDeviceAccelerationStructureFeaturesKHR, accelerationStructure)},
    // Names amber knows that spire does not query: accepted, and never supported.
    {"IndexTypeUint8Features.indexTypeUint8", Where::None, 0},
    {"CooperativeMatrixFeaturesKHR.cooperativeMatrix", Where::None, 0},
    {"DepthClampZeroOneFeatures.depthClampZeroOne", Where::None, 0},
    {"RayTracingPipelineFeaturesKHR.rayTracingPipeline", Where::None, 0},
    {"ShaderLongVectorFeaturesEXT.longVector", Where::None, 0},
    {"ShaderImageAtomicInt64Features.shaderImageInt64Atomics", Where::None, 0},
};
#undef V11
#undef V12
#undef V13

constexpr std::string_view kSubgroupOperations[] = {
    "basic", "vote", "arithmetic", "ballot", "shuffle", "shuffleRelative", "clustered", "quad"};
constexpr std::string_view kSubgroupStages[] = {
    "vertex", "tessellationControl", "tessellationEvaluation", "geometry", "fragment", "compute"};

constexpr std::string_view kFloatControls[] = {
    "shaderSignedZeroInfNanPreserveFloat16", "shaderSignedZeroInfNanPreserveFloat32",
    "shaderSignedZeroInfNanPreserveFloat64", "shaderDenormPreserveFloat16",
    "shaderDenormPreserveFloat32",           "shaderDenormPreserveFloat64",
    "shaderDenormFlushToZeroFloat16",        "shaderDenormFlushToZeroFloat32",
    "shaderDenormFlushToZeroFloat64",        "shaderRoundingModeRTEFloat16",
    "shaderRoundingModeRTEFloat32",          "shaderRoundingModeRTEFloat64",
    "shaderRoundingModeRTZFloat16",          "shaderRoundingModeRTZFloat32",
    "shaderRoundingModeRTZFloat64"};

template <size_t N> bool listed(const std::string_view (&list)[N], std::string_view name) {
  for (std::string_view n : list)
    if (n == name)
      return true;
  return false;
}

bool hasExtension(const std::vector<std::string> &list, std::string_view name) {
  for (const std::string &e : list)
    if (e == name)
      return true;
  return false;
}

} // namespace

void FeatureChain::link(uint32_t apiVersion, const std::vector<std::string> &extensions) {
  core.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  v11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
  v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
  v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
  workgroupLayout.sType =
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_FEATURES_KHR;
  uniformControlFlow.sType =
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_FEATURES_KHR;
  atomicFloat.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT;
  derivatives.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COMPUTE_SHADER_DERIVATIVES_FEATURES_NV;
  accelerationStructure.sType =
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR;
  rayQuery.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_QUERY_FEATURES_KHR;
  transformFeedback.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT;
  meshShader.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT;
  rayTracingPipeline.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR;
  void **next = &core.pNext;
  auto append = [&](auto &s) {
    *next = &s;
    next = &s.pNext;
  };
  linked11 = linked12 = apiVersion >= VK_API_VERSION_1_2;
  linked13 = apiVersion >= VK_API_VERSION_1_3;
  if (linked11) {
    append(v11);
    append(v12);
  }
  if (linked13)
    append(v13);
  linkedWorkgroupLayout = hasExtension(extensions, "VK_KHR_workgroup_memory_explicit_layout");
  if (linkedWorkgroupLayout)
    append(workgroupLayout);
  linkedUniformControlFlow =
      hasExtension(extensions, "VK_KHR_shader_subgroup_uniform_control_flow");
  if (linkedUniformControlFlow)
    append(uniformControlFlow);
  linkedAtomicFloat = hasExtension(extensions, "VK_EXT_shader_atomic_float");
  if (linkedAtomicFloat)
    append(atomicFloat);
  linkedDerivatives = hasExtension(extensions, "VK_KHR_compute_shader_derivatives") ||
                      hasExtension(extensions, "VK_NV_compute_shader_derivatives");
  if (linkedDerivatives)
    append(derivatives);
  const bool accelerationStructures = hasExtension(extensions, "VK_KHR_acceleration_structure") &&
                                      hasExtension(extensions, "VK_KHR_deferred_host_operations");
  linkedRayQuery = accelerationStructures && hasExtension(extensions, "VK_KHR_ray_query");
  linkedRayTracingPipeline =
      accelerationStructures && hasExtension(extensions, "VK_KHR_ray_tracing_pipeline");
  if (linkedRayQuery || linkedRayTracingPipeline)
    append(accelerationStructure);
  if (linkedRayQuery)
    append(rayQuery);
  if (linkedRayTracingPipeline)
    append(rayTracingPipeline);
  linkedTransformFeedback = hasExtension(extensions, "VK_EXT_transform_feedback");
  if (linkedTransformFeedback)
    append(transformFeedback);
  linkedMeshShader = hasExtension(extensions, "VK_EXT_mesh_shader");
  if (linkedMeshShader)
    append(meshShader);
  *next = nullptr;
}

void FeatureChain::copyValues(const FeatureChain &o) {
  core.features = o.core.features;
  auto copy = [](auto &dst, const auto &src) {
    void *keep = dst.pNext;
    dst = src;
    dst.pNext = keep;
  };
  copy(v11, o.v11);
  copy(v12, o.v12);
  copy(v13, o.v13);
  copy(workgroupLayout, o.workgroupLayout);
  copy(uniformControlFlow, o.uniformControlFlow);
  copy(atomicFloat, o.atomicFloat);
  copy(derivatives, o.derivatives);
  copy(accelerationStructure, o.accelerationStructure);
  copy(rayQuery, o.rayQuery);
  copy(transformFeedback, o.transformFeedback);
  copy(meshShader, o.meshShader);
  copy(rayTracingPipeline, o.rayTracingPipeline);
}

void FeatureChain::clearBehaviourChanging() {
  core.features.robustBufferAccess = VK_FALSE;
  // Mesh shader features that need others (multiview, fragment shading rate) or queries.
  meshShader.multiviewMeshShader = VK_FALSE;
  meshShader.primitiveFragmentShadingRateMeshShader = VK_FALSE;
  meshShader.meshShaderQueries = VK_FALSE;
  // Capture and replay of handles and addresses, which need their buffer device address kin.
  rayTracingPipeline.rayTracingPipelineShaderGroupHandleCaptureReplay = VK_FALSE;
  rayTracingPipeline.rayTracingPipelineShaderGroupHandleCaptureReplayMixed = VK_FALSE;
  accelerationStructure.accelerationStructureCaptureReplay = VK_FALSE;
  v13.robustImageAccess = VK_FALSE;
}

const VkBool32 *FeatureChain::find(std::string_view name) const {
  for (size_t i = 0; i < std::size(kCoreFeatures); ++i)
    if (kCoreFeatures[i] == name)
      return reinterpret_cast<const VkBool32 *>(&core.features) + i;
  // Extension structs that amber names by their own prefix.
  if (name == "WorkgroupMemoryExplicitLayoutFeatures.workgroupMemoryExplicitLayout")
    return linkedWorkgroupLayout ? &workgroupLayout.workgroupMemoryExplicitLayout : nullptr;
  for (const Dotted &d : kDotted) {
    if (d.name != name)
      continue;
    const void *base = nullptr;
    switch (d.where) {
    case Where::V11:
      base = linked11 ? &v11 : nullptr;
      break;
    case Where::V12:
      base = linked12 ? &v12 : nullptr;
      break;
    case Where::V13:
      base = linked13 ? &v13 : nullptr;
      break;
    case Where::Derivatives:
      base = linkedDerivatives ? &derivatives : nullptr;
      break;
    case Where::AccelerationStructure:
      base = linkedRayQuery || linkedRayTracingPipeline ? &accelerationStructure : nullptr;
      break;
    case Where::RayTracingPipeline:
      base = linkedRayTracingPipeline ? &rayTracingPipeline : nullptr;
      break;
    case Where::RayQuery:
      base = linkedRayQuery ? &rayQuery : nullptr;
      break;
    case Where::TransformFeedback:
      base = linkedTransformFeedback ? &transformFeedback : nullptr;
      break;
    case Where::MeshShader:
      base = linkedMeshShader ? &meshShader : nullptr;
      break;
    default:
      break;
    }
    if (!base)
      return nullptr;
    return reinterpret_cast<const VkBool32 *>(static_cast<const char *>(base) + d.offset);
  }
  return nullptr;
}

bool isKnownFeature(std::string_view name) {
  if (listed(kCoreFeatures, name))
    return true;
  for (const Dotted &d : kDotted)
    if (d.name == name)
      return true;
  if (name.starts_with("SubgroupSupportedOperations."))
    return listed(kSubgroupOperations, name.substr(28));
  if (name.starts_with("SubgroupSupportedStages."))
    return listed(kSubgroupStages, name.substr(24));
  return false;
}

bool isKnownProperty(std::string_view name) {
  return name.starts_with("FloatControlsProperties.") && listed(kFloatControls, name.substr(24));
}

} // namespace spire::run
