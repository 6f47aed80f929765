// The VERS part: the version of the compiler that wrote the container, its commit and its own
// version string.
#pragma once

#include "spire/dxil/Container.h"

#include <string_view>

namespace spire::dxil {

struct CompilerVersion {
  uint16_t major = 0;
  uint16_t minor = 0;
  uint32_t flags = 0; ///< bit 0: a debug build of the compiler; bit 1: an internal build
  uint32_t commitCount = 0;
  std::string_view commitSha;     ///< views the container's bytes; empty when absent
  std::string_view versionString; ///< the custom version string ("1.8.2407.7"), or empty
};

/// Reads a VERS part: major, minor, flags, commit count, the size of a list of up to two
/// NUL-terminated strings (the commit hash, then the version string) and the list.
Expected<CompilerVersion> readCompilerVersion(const ContainerPart &part);

} // namespace spire::dxil
