#include "spire/dxil/RootSignature.h"

#include "NameTable.h"

#include "PartReader.h"

#include <iterator>

namespace spire::dxil {

namespace {

constexpr uint32_t kHeaderSize = 24;
constexpr uint32_t kParameterSize = 12;
constexpr uint32_t kSamplerSize = 52;
constexpr uint32_t kSampler12Size = 56;

Expected<RootSignature> read(const detail::PartReader &r) {
  if (auto e = r.require(0, kHeaderSize, "the root signature header"))
    return *e;
  RootSignature rs;
  rs.version = r.u32(0);
  if (rs.version < 1 || rs.version > 3)
    return r.error(0, "root signature version " + std::to_string(rs.version) +
                          " is not 1 (1.0), 2 (1.1) or 3 (1.2)");
  uint32_t numParameters = r.u32(4);
  uint32_t parametersAt = r.u32(8);
  uint32_t numSamplers = r.u32(12);
  uint32_t samplersAt = r.u32(16);
  rs.flags = r.u32(20);
  if (auto e = r.requireArray(parametersAt, numParameters, kParameterSize, "the root parameters"))
    return *e;
  rs.parameters.resize(numParameters);
  // Tables may share their ranges; the ranges read in all may not exceed what the part could
  // hold unshared, so that hostile sharing cannot multiply them.
  uint64_t rangesLeft = r.size() / 20;
  for (uint32_t i = 0; i < numParameters; ++i) {
    uint64_t at = parametersAt + uint64_t(i) * kParameterSize;
    RootParameter &p = rs.parameters[i];
    p.type = RootParameterType(r.u32(at));
    p.shaderVisibility = r.u32(at + 4);
    uint32_t payload = r.u32(at + 8);
    std::string what = "root parameter " + std::to_string(i);
    switch (p.type) {
    case RootParameterType::DescriptorTable: {
      if (auto e = r.require(payload, 8, what + "'s descriptor table"))
        return *e;
      uint32_t numRanges = r.u32(payload);
      uint32_t rangesAt = r.u32(payload + 4);
      uint32_t rangeSize = rs.version == 1 ? 20 : 24;
      if (auto e = r.requireArray(rangesAt, numRanges, rangeSize, what + "'s descriptor ranges"))
        return *e;
      if (numRanges > rangesLeft)
        return r.error(payload, what + "'s " + std::to_string(numRanges) +
                                    " ranges bring the descriptor ranges past what the part holds");
      rangesLeft -= numRanges;
      p.ranges.resize(numRanges);
      for (uint32_t k = 0; k < numRanges; ++k) {
        uint64_t ra = rangesAt + uint64_t(k) * rangeSize;
        DescriptorRange &d = p.ranges[k];
        d.rangeType = r.u32(ra);
        d.numDescriptors = r.u32(ra + 4);
        d.baseShaderRegister = r.u32(ra + 8);
        d.registerSpace = r.u32(ra + 12);
        if (rs.version == 1) {
          d.offsetInDescriptorsFromTableStart = r.u32(ra + 16);
        } else {
          d.flags = r.u32(ra + 16);
          d.offsetInDescriptorsFromTableStart = r.u32(ra + 20);
        }
      }
      break;
    }
    case RootParameterType::Constants32Bit:
      if (auto e = r.require(payload, 12, what + "'s constants"))
        return *e;
      p.shaderRegister = r.u32(payload);
      p.registerSpace = r.u32(payload + 4);
      p.num32BitValues = r.u32(payload + 8);
      break;
    case RootParameterType::CBV:
    case RootParameterType::SRV:
    case RootParameterType::UAV: {
      uint32_t size = rs.version == 1 ? 8 : 12;
      if (auto e = r.require(payload, size, what + "'s root descriptor"))
        return *e;
      p.shaderRegister = r.u32(payload);
      p.registerSpace = r.u32(payload + 4);
      if (rs.version > 1)
        p.flags = r.u32(payload + 8);
      break;
    }
    default:
      return r.error(at, what + " has type " + std::to_string(uint32_t(p.type)) +
                             ", which is none of 0-4");
    }
  }
  uint32_t samplerSize = rs.version == 3 ? kSampler12Size : kSamplerSize;
  if (auto e = r.requireArray(samplersAt, numSamplers, samplerSize, "the static samplers"))
    return *e;
  rs.staticSamplers.resize(numSamplers);
  for (uint32_t i = 0; i < numSamplers; ++i) {
    uint64_t at = samplersAt + uint64_t(i) * samplerSize;
    StaticSampler &s = rs.staticSamplers[i];
    s.filter = r.u32(at);
    s.addressU = r.u32(at + 4);
    s.addressV = r.u32(at + 8);
    s.addressW = r.u32(at + 12);
    s.mipLodBias = r.f32(at + 16);
    s.maxAnisotropy = r.u32(at + 20);
    s.comparisonFunc = r.u32(at + 24);
    s.borderColor = r.u32(at + 28);
    s.minLod = r.f32(at + 32);
    s.maxLod = r.f32(at + 36);
    s.shaderRegister = r.u32(at + 40);
    s.registerSpace = r.u32(at + 44);
    s.shaderVisibility = r.u32(at + 48);
    if (rs.version == 3)
      s.flags = r.u32(at + 52);
  }
  return rs;
}

} // namespace

Expected<RootSignature> readRootSignature(const ContainerPart &part) {
  return read(detail::PartReader(part));
}

Expected<RootSignature> readRootSignature(std::span<const uint8_t> bytes, std::string partName,
                                          uint64_t fileOffset) {
  return read(detail::PartReader(std::move(partName), bytes, fileOffset));
}

const char *rootParameterTypeName(RootParameterType type) {
  static constexpr const char *kNames[] = {"DescriptorTable", "Constants32Bit", "CBV", "SRV",
                                           "UAV"};
  return detail::nameAt(kNames, uint64_t(type));
}

const char *shaderVisibilityName(uint32_t visibility) {
  static constexpr const char *kNames[] = {"All",      "Vertex", "Hull",          "Domain",
                                           "Geometry", "Pixel",  "Amplification", "Mesh"};
  return detail::nameAt(kNames, visibility);
}

const char *descriptorRangeTypeName(uint32_t rangeType) {
  static constexpr const char *kNames[] = {"SRV", "UAV", "CBV", "Sampler"};
  return detail::nameAt(kNames, rangeType);
}

const char *rootSignatureVersionName(uint32_t version) {
  static constexpr const char *kNames[] = {nullptr, "1.0", "1.1", "1.2"};
  return detail::nameAt(kNames, version);
}

} // namespace spire::dxil
