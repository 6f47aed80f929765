// What a container holds, for people and for tools: the comment header `spire dis` prints before
// a DXIL program (in the spirit of `dxc -dumpbin`), and the same facts as JSON.
#pragma once

#include "spire/dxil/ContainerInfo.h"

#include <string>

namespace spire::dxil {

/// Appends the summary: the container's version, size and digest status, its parts, the shader
/// kind and model and DXIL version, the compiler, the feature flags by name, the signatures as
/// aligned tables, PSV0's runtime information, signature elements and resource bindings, the root
/// signature, RDAT's resources, functions, subobjects and nodes, the source info, the unknown
/// parts, and where the parts disagree. Every line starts with ';'.
void printContainerSummary(const ContainerInfo &info, std::string &out);

/// Appends one JSON document with the same facts, every field of every decoded part, raw values
/// beside their names. `indent`: spaces per level, 0 for one line.
void printContainerJson(const ContainerInfo &info, std::string &out, int indent = 2);

/// The stage's name as a word ("pixel", "compute", "raygeneration", "node"), or null.
const char *shaderKindName(ShaderKind kind);

/// "cs_6_6", "lib_6_3", or "<kind>_6_3" for kinds without a prefix.
std::string shaderModelName(const ProgramHeader &program);

} // namespace spire::dxil
