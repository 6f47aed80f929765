// Shaders made to complete the pipeline of a shader that comes alone. A vertex shader feeds a
// fragment, geometry or tessellation control shader: an output for every located input of the
// entry point (same location, component, type and interpolation decorations; PerVertexKHR
// inputs and the inputs of geometry and tessellation control shaders without their vertex
// array), ClipDistance and CullDistance when the shader reads them, and Position; every output
// is written with zeros. A tessellation control shader feeds an evaluation shader, and an
// evaluation shader closes a control shader's pipeline.
#pragma once

#include "spire/run/Reflection.h"

#include <cstdint>
#include <vector>

namespace spire::run {

/// The SPIR-V words of the vertex shader (entry point "main", the SPIR-V version of the module
/// it feeds); fails with why for inputs that no vertex shader can feed (per-primitive inputs,
/// shapes the reflection does not describe).
Expected<std::vector<uint32_t>> passThroughVertexShader(const ModuleInterface &next,
                                                        const EntryPoint &entry);

/// A tessellation control shader to feed a tessellation evaluation (domain) shader alone: its
/// per-vertex inputs as per-vertex outputs of as many control points (OutputVertices), its patch
/// inputs as Patch outputs, Position, and the tessellation levels written with zeros; spacing and
/// vertex order where the evaluation shader does not say them. Fails as the vertex shader does.
Expected<std::vector<uint32_t>> passThroughTessellationControlShader(const ModuleInterface &next,
                                                                     const EntryPoint &entry);

/// A tessellation evaluation shader to close a tessellation control (hull) shader's pipeline:
/// Position written with zeros; the control shader's execution modes say the tessellation.
std::vector<uint32_t> passThroughTessellationEvaluationShader(const ModuleInterface &control);

/// A mesh shader to follow a task shader alone: one invocation that emits nothing (it need not
/// read the task payload).
std::vector<uint32_t> passThroughMeshShader(const ModuleInterface &task);

/// A ray generation shader that does nothing, for a ray tracing pipeline of another stage (a
/// pipeline that is no library needs one).
std::vector<uint32_t> passThroughRayGenerationShader(const ModuleInterface &other);

} // namespace spire::run
