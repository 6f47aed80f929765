// The DXBC-style container that wraps a DXIL program: its header, its part table, and the
// program header of a DXIL/ILDB part that locates the LLVM bitcode inside it.
#pragma once

#include "spire/support/Expected.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace spire::dxil {

/// A part's four-character code as stored (little-endian: the first character in the low byte).
struct FourCC {
  uint32_t value = 0;

  static constexpr FourCC of(const char (&s)[5]) {
    return FourCC{uint32_t(uint8_t(s[0])) | uint32_t(uint8_t(s[1])) << 8 |
                  uint32_t(uint8_t(s[2])) << 16 | uint32_t(uint8_t(s[3])) << 24};
  }
  /// The four characters, with any byte that is not printable ASCII as '?'.
  std::string str() const;
  friend constexpr bool operator==(FourCC a, FourCC b) { return a.value == b.value; }
};

/// One entry of the part table. `data` views the caller's bytes.
struct ContainerPart {
  FourCC fourcc;
  uint64_t headerOffset = 0;     ///< file offset of the part header (fourcc, size)
  std::span<const uint8_t> data; ///< the part's payload, after its 8-byte header
  uint64_t dataOffset() const { return headerOffset + 8; }
};

/// A container read from bytes the caller keeps alive: the container borrows them.
struct Container {
  std::span<const uint8_t> bytes;   ///< the whole file
  std::array<uint8_t, 16> digest{}; ///< the stored hash (all zero: not signed)
  uint16_t majorVersion = 0;
  uint16_t minorVersion = 0;
  uint32_t declaredSize = 0;        ///< ContainerSizeInBytes as stored
  std::vector<ContainerPart> parts; ///< in table order

  /// The first part with this code, or null.
  const ContainerPart *find(FourCC code) const;
};

/// True when the bytes start with the container magic 'DXBC'.
bool isContainer(std::span<const uint8_t> bytes);

/// Reads the header and the part table. Every part must lie inside the declared container size,
/// which must lie inside the bytes; parts may not overlap the header, the table or each other.
/// Errors name the part and byte offset.
Expected<Container> readContainer(std::span<const uint8_t> bytes);

/// The pipeline stage a program is compiled for (the high half of ProgramVersion).
enum class ShaderKind : uint16_t {
  Pixel = 0,
  Vertex = 1,
  Geometry = 2,
  Hull = 3,
  Domain = 4,
  Compute = 5,
  Library = 6,
  RayGeneration = 7,
  Intersection = 8,
  AnyHit = 9,
  ClosestHit = 10,
  Miss = 11,
  Callable = 12,
  Mesh = 13,
  Amplification = 14,
  Node = 15,
};

/// The short name of a kind as in shader model strings ("ps", "cs", "lib"), or null if unknown.
const char *shaderKindPrefix(ShaderKind kind);

/// The header of a DXIL or ILDB part and the bitcode it locates.
struct ProgramHeader {
  ShaderKind kind = ShaderKind::Pixel;
  uint8_t shaderModelMajor = 0;
  uint8_t shaderModelMinor = 0;
  uint32_t sizeInWords = 0; ///< SizeInUint32: the program, this header included
  uint8_t dxilMajor = 0;    ///< DxilVersion
  uint8_t dxilMinor = 0;
  uint64_t bitcodeFileOffset = 0;   ///< where the bitcode starts in the file
  std::span<const uint8_t> bitcode; ///< the LLVM bitcode ('BC' 0xC0DE ...)
};

/// Reads the program header of a DXIL or ILDB part: the 'DXIL' magic, sizes that fit the part,
/// and a bitcode range inside it.
Expected<ProgramHeader> readProgramHeader(const ContainerPart &part);

} // namespace spire::dxil
