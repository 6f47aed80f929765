#include "spire/run/VulkanApi.h"

#include <cstdlib>
#include <dlfcn.h>

namespace spire::run {

void VulkanFunctions::loadInstance(VkInstance instance) {
#define SPIRE_VK_LOAD(name)                                                                        \
  name = reinterpret_cast<PFN_##name>(vkGetInstanceProcAddr(instance, #name));
  SPIRE_VK_INSTANCE_FUNCTIONS(SPIRE_VK_LOAD)
  SPIRE_VK_DEVICE_FUNCTIONS(SPIRE_VK_LOAD)
#undef SPIRE_VK_LOAD
}

void VulkanFunctions::loadDevice(VkDevice device) {
  // Device functions fetched from the device skip the loader's dispatch (and reach the layers).
#define SPIRE_VK_LOAD(name)                                                                        \
  if (auto f = reinterpret_cast<PFN_##name>(vkGetDeviceProcAddr(device, #name)))                   \
    name = f;
  SPIRE_VK_DEVICE_FUNCTIONS(SPIRE_VK_LOAD)
#undef SPIRE_VK_LOAD
}

Expected<VulkanLibrary> VulkanLibrary::open() {
  const char *name = std::getenv("SPIRE_VULKAN_LIBRARY");
  if (!name || !*name)
    name = "libvulkan.so.1";
  void *handle = ::dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return makeError({}, std::string("no Vulkan loader: cannot open ") + name +
                             " (install libvulkan1 and a driver, e.g. mesa-vulkan-drivers)");
  VulkanLibrary lib;
  lib.handle_ = handle;
  auto gipa = reinterpret_cast<PFN_vkGetInstanceProcAddr>(::dlsym(handle, "vkGetInstanceProcAddr"));
  if (!gipa)
    return makeError({}, std::string(name) + " has no vkGetInstanceProcAddr");
  VulkanFunctions &f = lib.functions_;
  f.vkGetInstanceProcAddr = gipa;
#define SPIRE_VK_LOAD(fn) f.fn = reinterpret_cast<PFN_##fn>(gipa(nullptr, #fn));
  SPIRE_VK_GLOBAL_FUNCTIONS(SPIRE_VK_LOAD)
#undef SPIRE_VK_LOAD
  if (!f.vkCreateInstance || !f.vkEnumerateInstanceExtensionProperties)
    return makeError({}, std::string(name) + " lacks vkCreateInstance");
  return lib;
}

VulkanLibrary::~VulkanLibrary() {
  if (handle_)
    ::dlclose(handle_);
}

const char *resultName(VkResult r) {
  switch (r) {
#define SPIRE_CASE(x)                                                                              \
  case x:                                                                                          \
    return #x;
    SPIRE_CASE(VK_SUCCESS)
    SPIRE_CASE(VK_NOT_READY)
    SPIRE_CASE(VK_TIMEOUT)
    SPIRE_CASE(VK_INCOMPLETE)
    SPIRE_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    SPIRE_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    SPIRE_CASE(VK_ERROR_INITIALIZATION_FAILED)
    SPIRE_CASE(VK_ERROR_DEVICE_LOST)
    SPIRE_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    SPIRE_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    SPIRE_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    SPIRE_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    SPIRE_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    SPIRE_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    SPIRE_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    SPIRE_CASE(VK_ERROR_FRAGMENTED_POOL)
    SPIRE_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    SPIRE_CASE(VK_ERROR_INVALID_SHADER_NV)
#undef SPIRE_CASE
  default:
    return "VkResult error";
  }
}

} // namespace spire::run
