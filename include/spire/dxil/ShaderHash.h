// The HASH part: the shader's own hash (an MD5 of the program, or of the program and its source),
// unrelated to the container digest, with its flags.
#pragma once

#include "spire/dxil/Container.h"

#include <array>

namespace spire::dxil {

struct ShaderHash {
  uint32_t flags = 0; ///< bit 0: the hash covers the source too (-Zss)
  std::array<uint8_t, 16> digest{};
  bool includesSource() const { return flags & 1; }
};

/// Reads a HASH part: a 32-bit flags word and a 16-byte digest, 20 bytes in all.
Expected<ShaderHash> readShaderHash(const ContainerPart &part);

} // namespace spire::dxil
