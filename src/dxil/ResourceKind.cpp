#include "spire/dxil/ResourceKind.h"

#include "NameTable.h"

#include <iterator>

namespace spire::dxil {

const char *resourceKindName(ResourceKind kind) {
  static constexpr const char *kNames[] = {"Invalid",
                                           "Texture1D",
                                           "Texture2D",
                                           "Texture2DMS",
                                           "Texture3D",
                                           "TextureCube",
                                           "Texture1DArray",
                                           "Texture2DArray",
                                           "Texture2DMSArray",
                                           "TextureCubeArray",
                                           "TypedBuffer",
                                           "RawBuffer",
                                           "StructuredBuffer",
                                           "CBuffer",
                                           "Sampler",
                                           "TBuffer",
                                           "RTAccelerationStructure",
                                           "FeedbackTexture2D",
                                           "FeedbackTexture2DArray"};
  return detail::nameAt(kNames, uint64_t(kind));
}

const char *resourceClassName(ResourceClass resourceClass) {
  static constexpr const char *kNames[] = {"SRV", "UAV", "CBuffer", "Sampler"};
  return detail::nameAt(kNames, uint64_t(resourceClass));
}

} // namespace spire::dxil
