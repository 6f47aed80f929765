// The program signature parts ISG1 (inputs), OSG1 (outputs) and PSG1 (patch constants or mesh
// primitives): one 32-byte record per signature element, with its semantic name.
#pragma once

#include "spire/dxil/Container.h"

#include <string_view>
#include <vector>

namespace spire::dxil {

/// The system value of an element, in D3D_NAME numbering. Values the enumeration does not name
/// are kept as they are.
enum class SystemValue : uint32_t {
  Undefined = 0,
  Position = 1,
  ClipDistance = 2,
  CullDistance = 3,
  RenderTargetArrayIndex = 4,
  ViewportArrayIndex = 5,
  VertexId = 6,
  PrimitiveId = 7,
  InstanceId = 8,
  IsFrontFace = 9,
  SampleIndex = 10,
  FinalQuadEdgeTessFactor = 11,
  FinalQuadInsideTessFactor = 12,
  FinalTriEdgeTessFactor = 13,
  FinalTriInsideTessFactor = 14,
  FinalLineDetailTessFactor = 15,
  FinalLineDensityTessFactor = 16,
  Barycentrics = 23,
  ShadingRate = 24,
  CullPrimitive = 25,
  Target = 64,
  Depth = 65,
  Coverage = 66,
  DepthGreaterEqual = 67,
  DepthLessEqual = 68,
  StencilRef = 69,
  InnerCoverage = 70,
};

/// The type of an element's components (also PSV0's signature element component type).
enum class ComponentType : uint32_t {
  Unknown = 0,
  UInt32 = 1,
  SInt32 = 2,
  Float32 = 3,
  UInt16 = 4,
  SInt16 = 5,
  Float16 = 6,
  UInt64 = 7,
  SInt64 = 8,
  Float64 = 9,
};

/// The minimum precision an element's data may be computed at.
enum class MinPrecision : uint32_t {
  Default = 0,
  Float16 = 1,
  Float2_8 = 2,
  Reserved = 3,
  SInt16 = 4,
  UInt16 = 5,
  Any16 = 0xf0,
  Any10 = 0xf1,
};

struct SignatureElement {
  uint32_t stream = 0;
  std::string_view semanticName; ///< views the container's bytes
  uint32_t semanticIndex = 0;
  SystemValue systemValue = SystemValue::Undefined;
  ComponentType componentType = ComponentType::Unknown;
  uint32_t registerIndex = 0; ///< the row; ~0u for a system value the driver places
  uint8_t mask = 0;           ///< the components the element occupies (x = 1, y = 2, z = 4, w = 8)
  /// Inputs: the components the shader always reads. Outputs: those it never writes.
  uint8_t readWriteMask = 0;
  MinPrecision minPrecision = MinPrecision::Default;
};

struct ProgramSignature {
  FourCC fourcc; ///< ISG1, OSG1 or PSG1
  std::vector<SignatureElement> elements;
};

/// Reads a signature part: its element count and offset, the elements, and each semantic name
/// (offsets from the start of the part, NUL-terminated inside it).
Expected<ProgramSignature> readSignature(const ContainerPart &part);

/// The short name dxc -dumpbin prints for a system value ("POS", "TARGET", "NONE"), or null.
const char *systemValueName(SystemValue value);
/// The name of a component type as a format ("float", "uint", "int16"), or null.
const char *componentTypeName(ComponentType type);
/// The name of a minimum precision ("min16f", "min16i", "any16"), empty for the default, or null.
const char *minPrecisionName(MinPrecision precision);
/// A component mask as letters in place ("xy w"); four characters.
std::string maskLetters(uint8_t mask);

} // namespace spire::dxil
