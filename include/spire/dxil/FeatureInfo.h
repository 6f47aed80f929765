// The SFI0 part: the 64 bits of optional features a shader requires (doubles, wave operations,
// 64-bit atomics...), and their names.
#pragma once

#include "spire/dxil/Container.h"

#include <string>
#include <vector>

namespace spire::dxil {

struct FeatureInfo {
  uint64_t flags = 0;
};

/// Reads an SFI0 part: exactly one little-endian 64-bit word.
Expected<FeatureInfo> readFeatureInfo(const ContainerPart &part);

/// The name DXC gives feature bit `bit` (0-63: "Doubles", "WaveOps"; bits 40 and up are
/// optional, informative flags: "UsesDerivatives"), or null for a bit with no name.
const char *featureFlagName(unsigned bit);

/// The names of the bits set in `flags`, lowest first; a bit with no name is "Bit<n>".
std::vector<std::string> featureFlagNames(uint64_t flags);

} // namespace spire::dxil
