// The ILDN part: the name of the file that holds the shader's debug information.
#pragma once

#include "spire/dxil/Container.h"

#include <string_view>

namespace spire::dxil {

struct DebugName {
  uint16_t flags = 0;    ///< reserved, zero
  std::string_view name; ///< views the container's bytes
};

/// Reads an ILDN part: flags, the name's length, the name and its NUL, padded to 4 bytes.
Expected<DebugName> readDebugName(const ContainerPart &part);

} // namespace spire::dxil
