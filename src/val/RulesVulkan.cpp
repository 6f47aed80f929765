// Rules: the Vulkan environment's standalone SPIR-V rules.
#include "Rules.h"

namespace spire::val {

void checkVulkan(State &s) { (void)s; }

} // namespace spire::val
