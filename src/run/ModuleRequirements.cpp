#include "spire/run/ModuleRequirements.h"

#include <algorithm>

namespace spire::run {

namespace {

// SPIR-V extensions whose Vulkan extension a device must have unless its version took it in.
struct SpirvExtension {
  std::string_view spirv, vulkan;
  uint32_t core; ///< the Vulkan version that made it core, 0 if none did
};
constexpr SpirvExtension kSpirvExtensions[] = {
    {"SPV_KHR_storage_buffer_storage_class", "VK_KHR_storage_buffer_storage_class",
     VK_API_VERSION_1_1},
    {"SPV_KHR_16bit_storage", "VK_KHR_16bit_storage", VK_API_VERSION_1_1},
    {"SPV_KHR_variable_pointers", "VK_KHR_variable_pointers", VK_API_VERSION_1_1},
    {"SPV_KHR_8bit_storage", "VK_KHR_8bit_storage", VK_API_VERSION_1_2},
    {"SPV_KHR_float_controls", "VK_KHR_shader_float_controls", VK_API_VERSION_1_2},
    {"SPV_KHR_vulkan_memory_model", "VK_KHR_vulkan_memory_model", VK_API_VERSION_1_2},
    {"SPV_KHR_shader_draw_parameters", "VK_KHR_shader_draw_parameters", VK_API_VERSION_1_1},
    {"SPV_KHR_non_semantic_info", "VK_KHR_shader_non_semantic_info", VK_API_VERSION_1_3},
    {"SPV_KHR_terminate_invocation", "VK_KHR_shader_terminate_invocation", VK_API_VERSION_1_3},
    {"SPV_KHR_integer_dot_product", "VK_KHR_shader_integer_dot_product", VK_API_VERSION_1_3},
    {"SPV_EXT_demote_to_helper_invocation", "VK_EXT_shader_demote_to_helper_invocation",
     VK_API_VERSION_1_3},
    {"SPV_KHR_workgroup_memory_explicit_layout", "VK_KHR_workgroup_memory_explicit_layout", 0},
    {"SPV_KHR_subgroup_uniform_control_flow", "VK_KHR_shader_subgroup_uniform_control_flow", 0},
    {"SPV_EXT_shader_atomic_float_add", "VK_EXT_shader_atomic_float", 0},
    {"SPV_EXT_shader_image_int64", "VK_EXT_shader_image_atomic_int64", 0},
    {"SPV_NV_compute_shader_derivatives", "VK_NV_compute_shader_derivatives", 0},
    {"SPV_KHR_compute_shader_derivatives", "VK_KHR_compute_shader_derivatives", 0},
    {"SPV_EXT_descriptor_indexing", "VK_EXT_descriptor_indexing", VK_API_VERSION_1_2},
    {"SPV_EXT_shader_viewport_index_layer", "VK_EXT_shader_viewport_index_layer",
     VK_API_VERSION_1_2},
    {"SPV_KHR_physical_storage_buffer", "VK_KHR_buffer_device_address", VK_API_VERSION_1_2},
    {"SPV_EXT_shader_stencil_export", "VK_EXT_shader_stencil_export", 0},
    {"SPV_KHR_fragment_shader_barycentric", "VK_KHR_fragment_shader_barycentric", 0},
    {"SPV_EXT_fragment_shader_interlock", "VK_EXT_fragment_shader_interlock", 0},
    {"SPV_KHR_fragment_shading_rate", "VK_KHR_fragment_shading_rate", 0},
    {"SPV_EXT_fragment_fully_covered", "VK_EXT_conservative_rasterization", 0},
    {"SPV_KHR_ray_query", "VK_KHR_ray_query", 0},
    {"SPV_KHR_ray_tracing", "VK_KHR_ray_tracing_pipeline", 0},
    {"SPV_AMDX_shader_enqueue", "VK_AMDX_shader_enqueue", 0},
    {"SPV_EXT_mesh_shader", "VK_EXT_mesh_shader", 0},
    {"SPV_EXT_shader_atomic_float_min_max", "VK_EXT_shader_atomic_float2", 0},
    {"SPV_EXT_shader_atomic_float16_add", "VK_EXT_shader_atomic_float2", 0},
    {"SPV_KHR_cooperative_matrix", "VK_KHR_cooperative_matrix", 0},
    {"SPV_EXT_float8", "VK_EXT_shader_float8", 0},
    {"SPV_KHR_shader_clock", "VK_KHR_shader_clock", 0},
    {"SPV_NV_shader_subgroup_partitioned", "VK_NV_shader_subgroup_partitioned", 0},
};

// What enabling an extension brings with it: other extensions it requires, features without
// which its objects cannot be made (a layout with an acceleration structure descriptor).
struct ExtensionNeed {
  std::string_view extension, need;
  bool feature;
};
constexpr ExtensionNeed kExtensionNeeds[] = {
    {"VK_KHR_ray_query", "VK_KHR_acceleration_structure", false},
    {"VK_KHR_ray_tracing_pipeline", "VK_KHR_acceleration_structure", false},
    {"VK_KHR_acceleration_structure", "VK_KHR_deferred_host_operations", false},
    {"VK_KHR_acceleration_structure", "AccelerationStructureFeaturesKHR.accelerationStructure",
     true},
};

// Feature names by the extension whose struct holds them.
constexpr std::pair<std::string_view, std::string_view> kFeatureExtensions[] = {
    {"TransformFeedbackFeatures.", "VK_EXT_transform_feedback"},
    {"MeshShaderFeatures.", "VK_EXT_mesh_shader"},
    {"RayQueryFeatures.", "VK_KHR_ray_query"},
    {"RayTracingPipelineFeatures.", "VK_KHR_ray_tracing_pipeline"},
    {"AccelerationStructureFeaturesKHR.", "VK_KHR_acceleration_structure"},
};

// Capabilities that need a device feature (Vulkan's "SPIR-V environment" appendix).
constexpr std::pair<std::string_view, std::string_view> kCapabilityFeatures[] = {
    {"Float64", "shaderFloat64"},
    {"Int64", "shaderInt64"},
    {"Int16", "shaderInt16"},
    {"Int8", "Float16Int8Features.shaderInt8"},
    {"Float16", "Float16Int8Features.shaderFloat16"},
    {"StorageBuffer16BitAccess", "Storage16BitFeatures.storageBuffer16BitAccess"},
    {"UniformAndStorageBuffer16BitAccess",
     "Storage16BitFeatures.uniformAndStorageBuffer16BitAccess"},
    {"StoragePushConstant16", "Storage16BitFeatures.storagePushConstant16"},
    {"StorageBuffer8BitAccess", "Storage8BitFeatures.storageBuffer8BitAccess"},
    {"UniformAndStorageBuffer8BitAccess", "Storage8BitFeatures.uniformAndStorageBuffer8BitAccess"},
    {"StoragePushConstant8", "Storage8BitFeatures.storagePushConstant8"},
    {"VariablePointers", "VariablePointerFeatures.variablePointers"},
    {"VariablePointersStorageBuffer", "VariablePointerFeatures.variablePointersStorageBuffer"},
    {"StorageImageMultisample", "shaderStorageImageMultisample"},
    {"StorageImageReadWithoutFormat", "shaderStorageImageReadWithoutFormat"},
    {"StorageImageWriteWithoutFormat", "shaderStorageImageWriteWithoutFormat"},
    {"VulkanMemoryModel", "VulkanMemoryModelFeatures.vulkanMemoryModel"},
    {"VulkanMemoryModelDeviceScope", "VulkanMemoryModelFeatures.vulkanMemoryModelDeviceScope"},
    {"StorageInputOutput16", "Storage16BitFeatures.storageInputOutput16"},
    {"Geometry", "geometryShader"},
    {"Tessellation", "tessellationShader"},
    {"SampleRateShading", "sampleRateShading"},
    {"ImageGatherExtended", "shaderImageGatherExtended"},
    {"MinLod", "shaderResourceMinLod"},
    {"SparseResidency", "shaderResourceResidency"},
    {"ClipDistance", "shaderClipDistance"},
    {"CullDistance", "shaderCullDistance"},
    {"ImageCubeArray", "imageCubeArray"},
    {"SampledCubeArray", "imageCubeArray"},
    {"Int64Atomics", "ShaderAtomicInt64Features.shaderBufferInt64Atomics"},
    {"DemoteToHelperInvocation", "ShaderDemoteToHelperInvocation.shaderDemoteToHelperInvocation"},
    {"MultiView", "MultiviewFeatures.multiview"},
    {"DrawParameters", "ShaderDrawParametersFeatures.shaderDrawParameters"},
    {"RuntimeDescriptorArray", "DescriptorIndexingFeatures.runtimeDescriptorArray"},
    {"UniformTexelBufferArrayDynamicIndexing",
     "DescriptorIndexingFeatures.shaderUniformTexelBufferArrayDynamicIndexing"},
    {"StorageTexelBufferArrayDynamicIndexing",
     "DescriptorIndexingFeatures.shaderStorageTexelBufferArrayDynamicIndexing"},
    {"UniformBufferArrayNonUniformIndexing",
     "DescriptorIndexingFeatures.shaderUniformBufferArrayNonUniformIndexing"},
    {"SampledImageArrayNonUniformIndexing",
     "DescriptorIndexingFeatures.shaderSampledImageArrayNonUniformIndexing"},
    {"StorageBufferArrayNonUniformIndexing",
     "DescriptorIndexingFeatures.shaderStorageBufferArrayNonUniformIndexing"},
    {"StorageImageArrayNonUniformIndexing",
     "DescriptorIndexingFeatures.shaderStorageImageArrayNonUniformIndexing"},
    {"UniformTexelBufferArrayNonUniformIndexing",
     "DescriptorIndexingFeatures.shaderUniformTexelBufferArrayNonUniformIndexing"},
    {"StorageTexelBufferArrayNonUniformIndexing",
     "DescriptorIndexingFeatures.shaderStorageTexelBufferArrayNonUniformIndexing"},
    {"ShaderLayer", "ShaderOutputLayer.shaderOutputLayer"},
    {"ShaderViewportIndex", "ShaderOutputViewportIndex.shaderOutputViewportIndex"},
    {"PhysicalStorageBufferAddresses", "BufferDeviceAddressFeatures.bufferDeviceAddress"},
    {"DotProduct", "ShaderIntegerDotProductFeatures.shaderIntegerDotProduct"},
    {"DotProductInputAll", "ShaderIntegerDotProductFeatures.shaderIntegerDotProduct"},
    {"DotProductInput4x8Bit", "ShaderIntegerDotProductFeatures.shaderIntegerDotProduct"},
    {"DotProductInput4x8BitPacked", "ShaderIntegerDotProductFeatures.shaderIntegerDotProduct"},
    {"ImageMSArray", "shaderStorageImageMultisample"},
    {"StorageImageExtendedFormats", "shaderStorageImageExtendedFormats"},
    {"UniformBufferArrayDynamicIndexing", "shaderUniformBufferArrayDynamicIndexing"},
    {"SampledImageArrayDynamicIndexing", "shaderSampledImageArrayDynamicIndexing"},
    {"StorageBufferArrayDynamicIndexing", "shaderStorageBufferArrayDynamicIndexing"},
    {"StorageImageArrayDynamicIndexing", "shaderStorageImageArrayDynamicIndexing"},
    {"ComputeDerivativeGroupQuadsKHR",
     "ComputeShaderDerivativesFeatures.computeDerivativeGroupQuads"},
    {"ComputeDerivativeGroupLinearKHR",
     "ComputeShaderDerivativesFeatures.computeDerivativeGroupLinear"},
    {"RayQueryKHR", "RayQueryFeatures.rayQuery"},
    {"RayTracingKHR", "RayTracingPipelineFeatures.rayTracingPipeline"},
    {"MeshShadingEXT", "MeshShaderFeatures.meshShader"},
    {"GeometryStreams", "TransformFeedbackFeatures.geometryStreams"},
    {"TransformFeedback", "TransformFeedbackFeatures.transformFeedback"},
    // Features of extension structs spire run does not enable: never supported here.
    {"Int64ImageEXT", "ShaderImageAtomicInt64Features.shaderImageInt64Atomics"},
};

// Float-controls execution modes (DenormPreserve ... RoundingModeRTZ, numbered from 4459 in
// that order), each the float-controls property the device needs for its width.
constexpr std::string_view kFloatControlModes[] = {"DenormPreserve", "DenormFlushToZero",
                                                   "SignedZeroInfNanPreserve", "RoundingModeRTE",
                                                   "RoundingModeRTZ"};
constexpr uint32_t kFirstFloatControlMode = 4459;

/// The shader stage bit of an execution model name, 0 for others.
VkShaderStageFlags stageOf(std::string_view model) {
  if (model == "GLCompute")
    return VK_SHADER_STAGE_COMPUTE_BIT;
  if (model == "Vertex")
    return VK_SHADER_STAGE_VERTEX_BIT;
  if (model == "Fragment")
    return VK_SHADER_STAGE_FRAGMENT_BIT;
  if (model == "Geometry")
    return VK_SHADER_STAGE_GEOMETRY_BIT;
  if (model == "TessellationControl")
    return VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT;
  if (model == "TessellationEvaluation")
    return VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT;
  if (model == "TaskEXT")
    return VK_SHADER_STAGE_TASK_BIT_EXT;
  if (model == "MeshEXT")
    return VK_SHADER_STAGE_MESH_BIT_EXT;
  return 0;
}

std::string versionText(uint32_t v) {
  return std::to_string((v >> 16) & 0xFF) + "." + std::to_string((v >> 8) & 0xFF);
}

/// Whether the capability's feature may be off: images without a format, which Vulkan 1.3 (or
/// VK_KHR_format_feature_flags2) allows whatever the feature says (whether a format can be read
/// or written so is then a property of the format).
bool featureOptional(const VulkanContext &ctx, std::string_view capability) {
  return (capability == "StorageImageReadWithoutFormat" ||
          capability == "StorageImageWriteWithoutFormat") &&
         (ctx.apiVersion() >= VK_API_VERSION_1_3 ||
          ctx.hasExtension("VK_KHR_format_feature_flags2"));
}

template <typename T> void addOnce(std::vector<T> &list, const T &value) {
  if (std::find(list.begin(), list.end(), value) == list.end())
    list.push_back(value);
}

} // namespace

std::optional<std::string> unmetModuleRequirement(const VulkanContext &ctx,
                                                  const ModuleInterface &mi) {
  if (mi.version > ctx.maxSpirvVersion())
    return ctx.deviceName() + " does not consume SPIR-V " + versionText(mi.version);
  for (const std::string &e : mi.extensions)
    for (const SpirvExtension &x : kSpirvExtensions)
      if (e == x.spirv && !x.vulkan.empty() && (x.core == 0 || ctx.apiVersion() < x.core) &&
          !ctx.extensionUsable(x.vulkan))
        return ctx.deviceName() +
               (ctx.hasExtension(x.vulkan)
                    ? " has " + std::string(x.vulkan) + ", which spire run does not enable,"
                    : " lacks " + std::string(x.vulkan)) +
               " (the shader uses " + e + ")";
  for (const std::string &c : mi.capabilities)
    for (auto [cap, feature] : kCapabilityFeatures)
      if (c == cap && !ctx.hasFeature(feature) && !featureOptional(ctx, c))
        return ctx.deviceName() + " lacks feature " + std::string(feature) +
               " (the shader declares " + c + ")";
  for (const EntryPoint &ep : mi.entryPoints) {
    for (const std::vector<uint32_t> &mode : ep.executionModes) {
      if (mode.size() < 2 || mode[0] < kFirstFloatControlMode ||
          mode[0] >= kFirstFloatControlMode + std::size(kFloatControlModes))
        continue;
      const std::string property =
          "FloatControlsProperties.shader" +
          std::string(kFloatControlModes[mode[0] - kFirstFloatControlMode]) + "Float" +
          std::to_string(mode[1]);
      if (!ctx.hasProperty(property))
        return ctx.deviceName() + " lacks property " + property + " (the entry point " + ep.name +
               " asks for it)";
    }
    if (ep.model == "TaskEXT" && !ctx.hasFeature("MeshShaderFeatures.taskShader"))
      return ctx.deviceName() + " lacks feature MeshShaderFeatures.taskShader (the entry point " +
             ep.name + " is a task shader)";
    // Subgroup operations in a stage the device does not run them in.
    const VkShaderStageFlags stage = stageOf(ep.model);
    if (stage && !(ctx.subgroupProperties().supportedStages & stage))
      for (const std::string &c : mi.capabilities)
        if (c.starts_with("GroupNonUniform"))
          return ctx.deviceName() + " has no subgroup operations in " + ep.model +
                 " shaders (the shader declares " + c + ")";
  }
  return std::nullopt;
}

DeviceNeeds moduleNeeds(const VulkanContext &ctx, const ModuleInterface &mi) {
  DeviceNeeds needs;
  for (const std::string &e : mi.extensions)
    for (const SpirvExtension &x : kSpirvExtensions)
      if (e == x.spirv && !x.vulkan.empty() && (x.core == 0 || ctx.apiVersion() < x.core))
        addOnce(needs.extensions, std::string(x.vulkan));
  for (const std::string &c : mi.capabilities)
    for (auto [cap, feature] : kCapabilityFeatures)
      if (c == cap && !(featureOptional(ctx, c) && !ctx.hasFeature(feature)))
        addOnce(needs.features, std::string(feature));
  // The extensions whose structs hold the features (a core capability's, such as
  // GeometryStreams), then what each extension needs with it (the list grows as it is read).
  for (size_t i = 0; i < needs.features.size(); ++i)
    for (auto [prefix, extension] : kFeatureExtensions)
      if (needs.features[i].starts_with(prefix))
        addOnce(needs.extensions, std::string(extension));
  for (size_t i = 0; i < needs.extensions.size(); ++i)
    for (const ExtensionNeed &n : kExtensionNeeds)
      if (needs.extensions[i] == n.extension)
        addOnce(n.feature ? needs.features : needs.extensions, std::string(n.need));
  return needs;
}

} // namespace spire::run
