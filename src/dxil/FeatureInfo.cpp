#include "spire/dxil/FeatureInfo.h"

#include "PartReader.h"

namespace spire::dxil {

Expected<FeatureInfo> readFeatureInfo(const ContainerPart &part) {
  detail::PartReader r(part);
  if (r.size() != 8)
    return r.error(0, "a feature info part holds 8 bytes, this one " + std::to_string(r.size()));
  return FeatureInfo{r.u64(0)};
}

const char *featureFlagName(unsigned bit) {
  static constexpr const char *kNames[] = {
      "Doubles",
      "ComputeShadersPlusRawAndStructuredBuffersViaShader4X",
      "UAVsAtEveryStage",
      "64UAVs",
      "MinimumPrecision",
      "11_1_DoubleExtensions",
      "11_1_ShaderExtensions",
      "LEVEL9ComparisonFiltering",
      "TiledResources",
      "StencilRef",
      "InnerCoverage",
      "TypedUAVLoadAdditionalFormats",
      "ROVs",
      "ViewportAndRTArrayIndexFromAnyShaderFeedingRasterizer",
      "WaveOps",
      "Int64Ops",
      "ViewID",
      "Barycentrics",
      "NativeLowPrecision",
      "ShadingRate",
      "Raytracing_Tier_1_1",
      "SamplerFeedback",
      "AtomicInt64OnTypedResource",
      "AtomicInt64OnGroupShared",
      "DerivativesInMeshAndAmpShaders",
      "ResourceDescriptorHeapIndexing",
      "SamplerDescriptorHeapIndexing",
      "WaveMMA",
      "AtomicInt64OnHeapResource",
      "AdvancedTextureOps",
      "WriteableMSAATextures",
      "SampleCmpGradientOrBias",
      "ExtendedCommandInfo",
  };
  if (bit < std::size(kNames))
    return kNames[bit];
  if (bit == 40)
    return "UsesDerivatives";
  if (bit == 41)
    return "RequiresGroup";
  return nullptr;
}

std::vector<std::string> featureFlagNames(uint64_t flags) {
  std::vector<std::string> names;
  for (unsigned bit = 0; bit < 64; ++bit) {
    if (!(flags >> bit & 1))
      continue;
    const char *name = featureFlagName(bit);
    names.push_back(name ? name : "Bit" + std::to_string(bit));
  }
  return names;
}

} // namespace spire::dxil
