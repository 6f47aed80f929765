// The RTS0 part (and the root signature subobjects of RDAT): a serialized D3D12 root signature of
// version 1.0, 1.1 or 1.2, with its parameters, descriptor ranges and static samplers.
#pragma once

#include "spire/dxil/Container.h"

#include <span>
#include <string>
#include <vector>

namespace spire::dxil {

enum class RootParameterType : uint32_t {
  DescriptorTable = 0,
  Constants32Bit = 1,
  CBV = 2,
  SRV = 3,
  UAV = 4,
};

struct DescriptorRange {
  uint32_t rangeType = 0;      ///< 0 SRV, 1 UAV, 2 CBV, 3 sampler
  uint32_t numDescriptors = 0; ///< ~0u: unbounded
  uint32_t baseShaderRegister = 0;
  uint32_t registerSpace = 0;
  uint32_t flags = 0;                             ///< version 1.1 and up
  uint32_t offsetInDescriptorsFromTableStart = 0; ///< ~0u: appended
};

struct RootParameter {
  RootParameterType type = RootParameterType::DescriptorTable;
  uint32_t shaderVisibility = 0; ///< 0 all, 1 vertex, 2 hull, 3 domain, 4 geometry, 5 pixel,
                                 ///< 6 amplification, 7 mesh
  // Constants32Bit, CBV, SRV, UAV:
  uint32_t shaderRegister = 0;
  uint32_t registerSpace = 0;
  uint32_t num32BitValues = 0;         ///< Constants32Bit
  uint32_t flags = 0;                  ///< root descriptors of version 1.1 and up
  std::vector<DescriptorRange> ranges; ///< DescriptorTable
};

struct StaticSampler {
  uint32_t filter = 0;
  uint32_t addressU = 0, addressV = 0, addressW = 0;
  float mipLodBias = 0;
  uint32_t maxAnisotropy = 0;
  uint32_t comparisonFunc = 0;
  uint32_t borderColor = 0;
  float minLod = 0, maxLod = 0;
  uint32_t shaderRegister = 0;
  uint32_t registerSpace = 0;
  uint32_t shaderVisibility = 0;
  uint32_t flags = 0; ///< version 1.2
};

struct RootSignature {
  uint32_t version = 0; ///< 1: 1.0, 2: 1.1, 3: 1.2
  uint32_t flags = 0;   ///< D3D12_ROOT_SIGNATURE_FLAGS
  std::vector<RootParameter> parameters;
  std::vector<StaticSampler> staticSamplers;
};

/// Reads a serialized root signature from an RTS0 part. Offsets count from the part's start.
Expected<RootSignature> readRootSignature(const ContainerPart &part);
/// The same from bytes found `fileOffset` bytes into the file inside the part named `partName`
/// (RDAT's root signature subobjects).
Expected<RootSignature> readRootSignature(std::span<const uint8_t> bytes, std::string partName,
                                          uint64_t fileOffset);

/// "DescriptorTable", "Constants32Bit", "CBV", "SRV", "UAV", or null.
const char *rootParameterTypeName(RootParameterType type);
/// "All", "Vertex", ..., "Mesh", or null.
const char *shaderVisibilityName(uint32_t visibility);
/// "SRV", "UAV", "CBV", "Sampler", or null.
const char *descriptorRangeTypeName(uint32_t rangeType);
/// "1.0", "1.1", "1.2", or null.
const char *rootSignatureVersionName(uint32_t version);

} // namespace spire::dxil
