// What a SPIR-V module needs of a Vulkan device, from its interface: the SPIR-V version, the
// Vulkan extensions of its SPIR-V extensions, the features its capabilities need (the SPIR-V
// environment appendix of the Vulkan specification), float-controls properties of its execution
// modes and subgroup operations in its stages. Used to skip what a device cannot run, and to
// enable on a device exactly what a module needs.
#pragma once

#include "spire/run/Device.h"
#include "spire/run/Reflection.h"

#include <optional>
#include <string>
#include <vector>

namespace spire::run {

/// What a module needs of the device that the device lacks, as a skip reason: a SPIR-V version
/// beyond the device's, an extension or a capability whose Vulkan extension or feature is off,
/// a float-controls mode without its property, subgroup operations in a stage without them.
std::optional<std::string> unmetModuleRequirement(const VulkanContext &ctx,
                                                  const ModuleInterface &module);

/// The device extensions and features (by the names VulkanContext::hasFeature knows) that a
/// module's SPIR-V extensions and capabilities need on this device: extensions the device's
/// Vulkan version took in are left out.
struct DeviceNeeds {
  std::vector<std::string> extensions, features;
};
DeviceNeeds moduleNeeds(const VulkanContext &ctx, const ModuleInterface &module);

} // namespace spire::run
