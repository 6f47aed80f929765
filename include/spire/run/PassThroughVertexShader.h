// A vertex shader made to feed a fragment or geometry shader that comes alone: an output for
// every located input of the entry point (same location, component, type and interpolation
// decorations; PerVertexKHR inputs and a geometry shader's inputs without their vertex array),
// ClipDistance and CullDistance when the shader reads them, and Position; every output is
// written with zeros.
#pragma once

#include "spire/run/Reflection.h"

#include <cstdint>
#include <vector>

namespace spire::run {

/// The SPIR-V words of the vertex shader (entry point "main", the SPIR-V version of the module
/// it feeds); fails with why for inputs that no vertex shader can feed (per-primitive inputs,
/// shapes the reflection does not describe).
Expected<std::vector<uint32_t>> passThroughVertexShader(const ModuleInterface &fragment,
                                                        const EntryPoint &entry);

} // namespace spire::run
