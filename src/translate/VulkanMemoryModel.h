// Moves a translated module from the GLSL450 memory model to the Vulkan memory model, which
// cooperative matrices require: storage-buffer, uniform and workgroup loads and stores become
// NonPrivatePointer, storage-image reads and writes NonPrivateTexel, barriers that acquire or
// release also make memory available and visible.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace spire::translate {

/// Rewrites `words` (a whole module) in place. Returns an empty string, or why the module cannot
/// use the Vulkan memory model (a Coherent or Volatile decoration, which it does not allow).
std::string toVulkanMemoryModel(std::vector<uint32_t> &words);

} // namespace spire::translate
