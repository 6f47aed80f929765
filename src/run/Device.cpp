#include "spire/run/Device.h"

#include <algorithm>
#include <chrono>
#include <cstring>

namespace spire::run {

namespace {

constexpr const char *kValidationLayer = "VK_LAYER_KHRONOS_validation";

// Device extensions enabled whenever the device has them: those compute shaders and scripts
// use. (Extensions that need others, or window-system ones, are left out.)
constexpr const char *kWantedExtensions[] = {
    "VK_KHR_16bit_storage",
    "VK_KHR_8bit_storage",
    "VK_KHR_storage_buffer_storage_class",
    "VK_KHR_variable_pointers",
    "VK_KHR_shader_float16_int8",
    "VK_KHR_shader_float_controls",
    "VK_KHR_spirv_1_4",
    "VK_KHR_vulkan_memory_model",
    "VK_KHR_shader_subgroup_extended_types",
    "VK_KHR_shader_terminate_invocation",
    "VK_KHR_shader_non_semantic_info",
    "VK_KHR_zero_initialize_workgroup_memory",
    "VK_KHR_workgroup_memory_explicit_layout",
    "VK_KHR_shader_subgroup_uniform_control_flow",
    "VK_KHR_shader_integer_dot_product",
    "VK_EXT_subgroup_size_control",
    "VK_EXT_descriptor_indexing",
    "VK_EXT_shader_atomic_float",
    "VK_EXT_shader_demote_to_helper_invocation",
    "VK_EXT_scalar_block_layout",
    "VK_KHR_uniform_buffer_standard_layout",
    "VK_KHR_shader_atomic_int64",
    "VK_EXT_shader_stencil_export",
    "VK_EXT_shader_viewport_index_layer",
    "VK_EXT_conservative_rasterization",
    "VK_KHR_compute_shader_derivatives",
    "VK_NV_compute_shader_derivatives",
    "VK_KHR_deferred_host_operations",
    "VK_KHR_acceleration_structure",
    "VK_KHR_ray_query",
    "VK_KHR_ray_tracing_pipeline",
    "VK_EXT_transform_feedback",
    "VK_EXT_mesh_shader",
};

Expected<std::vector<std::string>> deviceExtensions(const VulkanFunctions &vk,
                                                    VkPhysicalDevice pd) {
  uint32_t n = 0;
  if (vk.vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr) != VK_SUCCESS)
    return makeError({}, "vkEnumerateDeviceExtensionProperties failed");
  std::vector<VkExtensionProperties> props(n);
  vk.vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, props.data());
  std::vector<std::string> names;
  for (uint32_t i = 0; i < n; ++i)
    names.emplace_back(props[i].extensionName);
  return names;
}

std::string versionText(uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) +
         "." + std::to_string(VK_API_VERSION_PATCH(v));
}

const char *typeName(VkPhysicalDeviceType t) {
  switch (t) {
  case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
    return "integrated GPU";
  case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
    return "discrete GPU";
  case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
    return "virtual GPU";
  case VK_PHYSICAL_DEVICE_TYPE_CPU:
    return "CPU";
  default:
    return "other";
  }
}

// A bare instance for listing devices.
struct ListingInstance {
  const VulkanFunctions *vk = nullptr;
  VkInstance instance = VK_NULL_HANDLE;
  ~ListingInstance() {
    if (instance)
      vk->vkDestroyInstance(instance, nullptr);
  }
};

Diagnostic vkError(const char *what, VkResult r) {
  return makeError({}, std::string(what) + " failed: " + resultName(r));
}

} // namespace

bool deviceNameMatches(std::string_view deviceName, std::string_view part) {
  if (deviceName.find(part) != std::string_view::npos)
    return true;
  return part == "lavapipe" && deviceName.starts_with("llvmpipe");
}

std::string driverManifestGlob(std::string_view device) {
  // Mesa installs lavapipe's manifest as lvp_icd.<arch>.json.
  if (device.find("llvmpipe") != std::string_view::npos || device == "lavapipe")
    return "*lvp_icd*";
  return {};
}

Expected<std::vector<std::string>> listDevices() {
  auto lib = VulkanLibrary::open();
  if (!lib)
    return lib.error();
  VulkanFunctions vk = lib->functions();
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ci.pApplicationInfo = &app;
  ListingInstance li;
  li.vk = &vk;
  if (VkResult r = vk.vkCreateInstance(&ci, nullptr, &li.instance); r != VK_SUCCESS)
    return vkError("vkCreateInstance", r);
  vk.loadInstance(li.instance);
  uint32_t n = 0;
  vk.vkEnumeratePhysicalDevices(li.instance, &n, nullptr);
  std::vector<VkPhysicalDevice> devices(n);
  vk.vkEnumeratePhysicalDevices(li.instance, &n, devices.data());
  std::vector<std::string> lines;
  for (uint32_t i = 0; i < n; ++i) {
    VkPhysicalDeviceProperties p;
    vk.vkGetPhysicalDeviceProperties(devices[i], &p);
    lines.push_back(std::to_string(i) + ": " + p.deviceName + " (" + typeName(p.deviceType) +
                    ", Vulkan " + versionText(p.apiVersion) + ")");
  }
  return lines;
}

Expected<std::unique_ptr<VulkanContext>> VulkanContext::create(const DeviceOptions &options) {
  auto lib = VulkanLibrary::open();
  if (!lib)
    return lib.error();
  std::unique_ptr<VulkanContext> ctx(new VulkanContext(std::move(*lib)));
  if (Status s = ctx->init(options); !s)
    return s.error();
  return ctx;
}

Status VulkanContext::init(const DeviceOptions &options) {
  using Clock = std::chrono::steady_clock;
  auto since = [](Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
  };
  Clock::time_point start = Clock::now();
  uint32_t loaderVersion = VK_API_VERSION_1_0;
  if (vk_.vkEnumerateInstanceVersion)
    vk_.vkEnumerateInstanceVersion(&loaderVersion);
  if (loaderVersion < VK_API_VERSION_1_1)
    return makeError({},
                     "the Vulkan loader is older than 1.1 (" + versionText(loaderVersion) + ")");

  uint32_t n = 0;
  vk_.vkEnumerateInstanceExtensionProperties(nullptr, &n, nullptr);
  std::vector<VkExtensionProperties> iexts(n);
  vk_.vkEnumerateInstanceExtensionProperties(nullptr, &n, iexts.data());
  for (const VkExtensionProperties &e : iexts)
    instanceExtensions_.emplace_back(e.extensionName);

  bool haveLayer = false;
  if (options.validation && vk_.vkEnumerateInstanceLayerProperties) {
    uint32_t nl = 0;
    vk_.vkEnumerateInstanceLayerProperties(&nl, nullptr);
    std::vector<VkLayerProperties> layers(nl);
    vk_.vkEnumerateInstanceLayerProperties(&nl, layers.data());
    for (const VkLayerProperties &l : layers)
      haveLayer |= std::strcmp(l.layerName, kValidationLayer) == 0;
    if (!haveLayer && options.requireValidation)
      return makeError({}, "the Vulkan validation layers are not installed "
                           "(vulkan-validationlayers)");
  }
  validation_ = haveLayer;

  std::vector<const char *> instanceExts;
  bool debugUtils = validation_ && hasInstanceExtension("VK_EXT_debug_utils");
  if (debugUtils)
    instanceExts.push_back("VK_EXT_debug_utils");
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "spire run";
  app.apiVersion = std::min<uint32_t>(loaderVersion, VK_API_VERSION_1_3);
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  ici.enabledExtensionCount = static_cast<uint32_t>(instanceExts.size());
  ici.ppEnabledExtensionNames = instanceExts.data();
  const char *layers[] = {kValidationLayer};
  if (validation_) {
    ici.enabledLayerCount = 1;
    ici.ppEnabledLayerNames = layers;
  }
  VkDebugUtilsMessengerCreateInfoEXT dci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  dci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                        VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  dci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                    VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                    VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  dci.pfnUserCallback = &VulkanContext::onMessage;
  dci.pUserData = this;
  if (debugUtils)
    ici.pNext = &dci;
  if (VkResult r = vk_.vkCreateInstance(&ici, nullptr, &instance_); r != VK_SUCCESS)
    return vkError("vkCreateInstance", r);
  vk_.loadInstance(instance_);
  if (debugUtils && vk_.vkCreateDebugUtilsMessengerEXT)
    vk_.vkCreateDebugUtilsMessengerEXT(instance_, &dci, nullptr, &messenger_);
  instanceMs_ = since(start);
  start = Clock::now();

  // Choose the device.
  uint32_t count = 0;
  vk_.vkEnumeratePhysicalDevices(instance_, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vk_.vkEnumeratePhysicalDevices(instance_, &count, devices.data());
  if (count == 0)
    return makeError({}, "no Vulkan device (install mesa-vulkan-drivers for lavapipe)");
  std::vector<VkPhysicalDeviceProperties> props(count);
  for (uint32_t i = 0; i < count; ++i)
    vk_.vkGetPhysicalDeviceProperties(devices[i], &props[i]);
  int chosen = -1;
  if (!options.device.empty()) {
    bool numeric = std::all_of(options.device.begin(), options.device.end(),
                               [](char c) { return c >= '0' && c <= '9'; });
    if (numeric) {
      unsigned long index = std::stoul(options.device);
      if (index >= count)
        return makeError({}, "no Vulkan device " + options.device + " (there are " +
                                 std::to_string(count) + ")");
      chosen = static_cast<int>(index);
    } else {
      for (uint32_t i = 0; i < count && chosen < 0; ++i)
        if (deviceNameMatches(props[i].deviceName, options.device))
          chosen = static_cast<int>(i);
      if (chosen < 0)
        return makeError({}, "no Vulkan device named like '" + options.device + "'");
    }
  } else {
    for (uint32_t i = 0; i < count && chosen < 0; ++i)
      if (props[i].deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU ||
          props[i].deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU)
        chosen = static_cast<int>(i);
    if (chosen < 0)
      chosen = 0;
  }
  physical_ = devices[static_cast<size_t>(chosen)];
  properties_ = props[static_cast<size_t>(chosen)];
  if (properties_.apiVersion < VK_API_VERSION_1_1)
    return makeError({}, std::string(properties_.deviceName) + " supports only Vulkan " +
                             versionText(properties_.apiVersion) + "; spire run needs 1.1");

  auto exts = deviceExtensions(vk_, physical_);
  if (!exts)
    return exts.error();
  extensions_ = std::move(*exts);

  // Properties.
  VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  subgroup_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
  sizeControl_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES;
  floatControls_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES;
  p2.pNext = &subgroup_;
  void **next = &subgroup_.pNext;
  if (properties_.apiVersion >= VK_API_VERSION_1_3 ||
      hasExtension("VK_EXT_subgroup_size_control")) {
    *next = &sizeControl_;
    next = &sizeControl_.pNext;
  }
  if (properties_.apiVersion >= VK_API_VERSION_1_2 ||
      hasExtension("VK_KHR_shader_float_controls")) {
    *next = &floatControls_;
    next = &floatControls_.pNext;
  }
  if (properties_.apiVersion >= VK_API_VERSION_1_2 || hasExtension("VK_KHR_driver_properties")) {
    driver_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
    *next = &driver_;
    next = &driver_.pNext;
  }
  vk_.vkGetPhysicalDeviceProperties2(physical_, &p2);
  vk_.vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);

  // Features: everything supported is enabled, except what changes behaviour unasked.
  features_.link(properties_.apiVersion, extensions_);
  vk_.vkGetPhysicalDeviceFeatures2(physical_, &features_.core);
  FeatureChain enabled;
  enabled.link(properties_.apiVersion, extensions_);
  enabled.copyValues(features_);
  enabled.clearBehaviourChanging();

  // A queue that computes.
  uint32_t nq = 0;
  vk_.vkGetPhysicalDeviceQueueFamilyProperties(physical_, &nq, nullptr);
  std::vector<VkQueueFamilyProperties> families(nq);
  vk_.vkGetPhysicalDeviceQueueFamilyProperties(physical_, &nq, families.data());
  int family = -1;
  for (uint32_t i = 0; i < nq && family < 0; ++i)
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
      family = static_cast<int>(i);
  if (family < 0)
    return makeError({}, std::string(properties_.deviceName) + " has no compute queue");
  queueFamily_ = static_cast<uint32_t>(family);
  timestampBits_ = families[queueFamily_].timestampValidBits;

  std::vector<std::string> enable;
  for (const char *e : kWantedExtensions)
    if (hasExtension(e))
      enable.emplace_back(e);
  usableExtensions_ = enable;
  if (Status s = createDevice(enabled, enable); !s)
    return s;
  deviceMs_ = since(start);
  return {};
}

Status VulkanContext::createDevice(const FeatureChain &enabled,
                                   const std::vector<std::string> &extensions) {
  std::vector<const char *> names;
  for (const std::string &e : extensions)
    names.push_back(e.c_str());
  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueFamilyIndex = queueFamily_;
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.pNext = &enabled.core;
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  dci.enabledExtensionCount = static_cast<uint32_t>(names.size());
  dci.ppEnabledExtensionNames = names.data();
  if (VkResult r = vk_.vkCreateDevice(physical_, &dci, nullptr, &device_); r != VK_SUCCESS)
    return vkError("vkCreateDevice", r);
  vk_.loadDevice(device_);
  vk_.vkGetDeviceQueue(device_, queueFamily_, 0, &queue_);
  return {};
}

Status VulkanContext::recreateDevice(const std::vector<std::string> &extensions,
                                     const std::vector<std::string> &features) {
  for (const std::string &e : extensions)
    if (!extensionUsable(e))
      return makeError({}, deviceName() + (hasExtension(e)
                                               ? " has " + e + ", which spire run does not enable"
                                               : " lacks " + e));
  FeatureChain enabled;
  enabled.link(properties_.apiVersion, extensions);
  for (const std::string &f : features) {
    const VkBool32 *supported = features_.find(f);
    VkBool32 *flag = enabled.find(f);
    if (!supported || !*supported || !flag)
      return makeError({}, deviceName() + " lacks feature " + f);
    *flag = VK_TRUE;
  }
  if (device_) {
    vk_.vkDeviceWaitIdle(device_);
    vk_.vkDestroyDevice(device_, nullptr);
    device_ = VK_NULL_HANDLE;
    queue_ = VK_NULL_HANDLE;
  }
  return createDevice(enabled, extensions);
}

VulkanContext::~VulkanContext() {
  if (device_)
    vk_.vkDestroyDevice(device_, nullptr);
  if (messenger_ && vk_.vkDestroyDebugUtilsMessengerEXT)
    vk_.vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
  if (instance_)
    vk_.vkDestroyInstance(instance_, nullptr);
}

bool VulkanContext::hasExtension(std::string_view name) const {
  return std::find(extensions_.begin(), extensions_.end(), name) != extensions_.end();
}

bool VulkanContext::extensionUsable(std::string_view name) const {
  return std::find(usableExtensions_.begin(), usableExtensions_.end(), name) !=
         usableExtensions_.end();
}

bool VulkanContext::hasInstanceExtension(std::string_view name) const {
  return std::find(instanceExtensions_.begin(), instanceExtensions_.end(), name) !=
         instanceExtensions_.end();
}

bool VulkanContext::hasFeature(std::string_view name) const {
  static constexpr std::string_view kOps[] = {
      "basic", "vote", "arithmetic", "ballot", "shuffle", "shuffleRelative", "clustered", "quad"};
  static constexpr std::string_view kStages[] = {
      "vertex", "tessellationControl", "tessellationEvaluation", "geometry", "fragment", "compute"};
  static constexpr VkShaderStageFlags kStageBits[] = {VK_SHADER_STAGE_VERTEX_BIT,
                                                      VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT,
                                                      VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT,
                                                      VK_SHADER_STAGE_GEOMETRY_BIT,
                                                      VK_SHADER_STAGE_FRAGMENT_BIT,
                                                      VK_SHADER_STAGE_COMPUTE_BIT};
  if (name.starts_with("SubgroupSupportedOperations.")) {
    for (size_t i = 0; i < std::size(kOps); ++i)
      if (name.substr(28) == kOps[i])
        return subgroup_.supportedOperations & (1u << i);
    return false;
  }
  if (name.starts_with("SubgroupSupportedStages.")) {
    for (size_t i = 0; i < std::size(kStages); ++i)
      if (name.substr(24) == kStages[i])
        return subgroup_.supportedStages & kStageBits[i];
    return false;
  }
  const VkBool32 *flag = features_.find(name);
  return flag && *flag;
}

bool VulkanContext::hasProperty(std::string_view name) const {
  if (properties_.apiVersion < VK_API_VERSION_1_2 && !hasExtension("VK_KHR_shader_float_controls"))
    return false;
  const VkPhysicalDeviceFloatControlsProperties &f = floatControls_;
  std::string_view m = name.substr(name.find('.') + 1);
  const std::pair<std::string_view, VkBool32> kProps[] = {
      {"shaderSignedZeroInfNanPreserveFloat16", f.shaderSignedZeroInfNanPreserveFloat16},
      {"shaderSignedZeroInfNanPreserveFloat32", f.shaderSignedZeroInfNanPreserveFloat32},
      {"shaderSignedZeroInfNanPreserveFloat64", f.shaderSignedZeroInfNanPreserveFloat64},
      {"shaderDenormPreserveFloat16", f.shaderDenormPreserveFloat16},
      {"shaderDenormPreserveFloat32", f.shaderDenormPreserveFloat32},
      {"shaderDenormPreserveFloat64", f.shaderDenormPreserveFloat64},
      {"shaderDenormFlushToZeroFloat16", f.shaderDenormFlushToZeroFloat16},
      {"shaderDenormFlushToZeroFloat32", f.shaderDenormFlushToZeroFloat32},
      {"shaderDenormFlushToZeroFloat64", f.shaderDenormFlushToZeroFloat64},
      {"shaderRoundingModeRTEFloat16", f.shaderRoundingModeRTEFloat16},
      {"shaderRoundingModeRTEFloat32", f.shaderRoundingModeRTEFloat32},
      {"shaderRoundingModeRTEFloat64", f.shaderRoundingModeRTEFloat64},
      {"shaderRoundingModeRTZFloat16", f.shaderRoundingModeRTZFloat16},
      {"shaderRoundingModeRTZFloat32", f.shaderRoundingModeRTZFloat32},
      {"shaderRoundingModeRTZFloat64", f.shaderRoundingModeRTZFloat64},
  };
  for (auto [n, v] : kProps)
    if (n == m)
      return v;
  return false;
}

uint32_t VulkanContext::maxSpirvVersion() const {
  uint32_t api = properties_.apiVersion;
  if (api >= VK_API_VERSION_1_3)
    return 0x00010600;
  if (api >= VK_API_VERSION_1_2)
    return 0x00010500;
  return hasExtension("VK_KHR_spirv_1_4") ? 0x00010400 : 0x00010300;
}

uint32_t VulkanContext::memoryType(uint32_t typeBits, VkMemoryPropertyFlags required) const {
  for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i)
    if ((typeBits & (1u << i)) && (memory_.memoryTypes[i].propertyFlags & required) == required)
      return i;
  return ~0u;
}

std::vector<std::string> VulkanContext::takeMessages() {
  std::lock_guard<std::mutex> lock(messagesMutex_);
  return std::exchange(messages_, {});
}

VkBool32 VulkanContext::onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                  VkDebugUtilsMessageTypeFlagsEXT type,
                                  const VkDebugUtilsMessengerCallbackDataEXT *data, void *user) {
  // A general or performance warning (a loader's note on a manifest) says nothing about the
  // shader: only validation messages, and errors of any type, fail a run or a pipeline.
  if (!(type & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT) &&
      severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
    return VK_FALSE;
  auto *self = static_cast<VulkanContext *>(user);
  std::lock_guard<std::mutex> lock(self->messagesMutex_);
  std::string text = data && data->pMessage ? data->pMessage : "(no message)";
  for (char &c : text)
    if (c == '\n')
      c = ' ';
  self->messages_.push_back(std::move(text));
  // An error aborts the call (it returns VK_ERROR_VALIDATION_FAILED_EXT): a pipeline layout
  // without a set the shader uses, passed on, crashed lavapipe inside vkCreateComputePipelines.
  return severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? VK_TRUE : VK_FALSE;
}

} // namespace spire::run
