// The kinds and classes of DXIL resources, shared by PSV0's bindings and RDAT's resource table.
#pragma once

#include <cstdint>

namespace spire::dxil {

/// The shape of a resource (DXIL's ResourceKind numbering).
enum class ResourceKind : uint32_t {
  Invalid = 0,
  Texture1D = 1,
  Texture2D = 2,
  Texture2DMS = 3,
  Texture3D = 4,
  TextureCube = 5,
  Texture1DArray = 6,
  Texture2DArray = 7,
  Texture2DMSArray = 8,
  TextureCubeArray = 9,
  TypedBuffer = 10,
  RawBuffer = 11,
  StructuredBuffer = 12,
  CBuffer = 13,
  Sampler = 14,
  TBuffer = 15,
  RTAccelerationStructure = 16,
  FeedbackTexture2D = 17,
  FeedbackTexture2DArray = 18,
};

/// How a resource is bound (DXIL's ResourceClass numbering).
enum class ResourceClass : uint32_t { SRV = 0, UAV = 1, CBuffer = 2, Sampler = 3 };

/// "Texture2D", "RawBuffer"..., or null for a value with no name.
const char *resourceKindName(ResourceKind kind);
/// "SRV", "UAV", "CBuffer", "Sampler", or null.
const char *resourceClassName(ResourceClass resourceClass);

} // namespace spire::dxil
