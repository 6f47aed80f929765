// The SRCI part: the shader's source as the compiler saw it. Sections of source files (names and
// contents, possibly zlib-compressed), defines, arguments, the target profile and the entry point.
#pragma once

#include "spire/dxil/Container.h"

#include <span>
#include <string_view>
#include <vector>

namespace spire::dxil {

enum class SourceInfoSectionType : uint16_t {
  Sources = 0,
  Defines = 1,
  Args = 2,
  TargetProfile = 3,
  EntryPoint = 4,
};

struct SourceInfoSection {
  SourceInfoSectionType type = SourceInfoSectionType::Sources;
  uint16_t flags = 0;
  uint64_t fileOffset = 0;       ///< the section header's offset in the file
  std::span<const uint8_t> data; ///< after the section header, padding included
};

struct SourceFile {
  std::string_view name;
  std::string_view content;
};

struct SourceInfo {
  uint16_t flags = 0;
  std::vector<SourceInfoSection> sections; ///< every section, unknown types included
  // Decoded sections (the first of each type).
  uint16_t sourceFileCount = 0;
  uint16_t sourceCompression = 0; ///< 0 none, 1 zlib
  uint32_t uncompressedSourceSize = 0;
  std::span<const uint8_t> compressedSources; ///< when compressed: kept, not inflated
  std::vector<SourceFile> sources;            ///< when not compressed
  std::vector<std::string_view> defines;
  std::vector<std::string_view> args;
  std::string_view targetProfile;
  std::string_view entryPoint;
};

/// Reads an SRCI part: its header, the sections (each inside the part), and the contents of the
/// sections it knows (every size and string inside its section).
Expected<SourceInfo> readSourceInfo(const ContainerPart &part);

/// "Sources", "Defines", "Args", "TargetProfile", "EntryPoint", or null.
const char *sourceInfoSectionName(SourceInfoSectionType type);

} // namespace spire::dxil
