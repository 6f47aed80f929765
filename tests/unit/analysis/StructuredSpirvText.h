// A structured CFG as a SPIR-V compute shader in assembly text, for validators to judge: each
// input block loads its branch condition or switch selector from a storage buffer, and the
// structurizer's selector is a Function variable.
#pragma once

#include "spire/analysis/Structurizer.h"

#include <string>

namespace spire::analysis::test {

/// SPIR-V 1.6 assembly for Vulkan: one GLCompute entry point whose blocks follow `cfg.layout`.
std::string structuredSpirvText(const Cfg &input, const StructuredCfg &cfg);

} // namespace spire::analysis::test
