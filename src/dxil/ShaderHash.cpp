#include "spire/dxil/ShaderHash.h"

#include "PartReader.h"

#include <algorithm>

namespace spire::dxil {

Expected<ShaderHash> readShaderHash(const ContainerPart &part) {
  detail::PartReader r(part);
  if (r.size() != 20)
    return r.error(0, "a shader hash part holds 20 bytes, this one " + std::to_string(r.size()));
  ShaderHash h;
  h.flags = r.u32(0);
  std::span<const uint8_t> d = r.slice(4, 16);
  std::copy(d.begin(), d.end(), h.digest.begin());
  return h;
}

} // namespace spire::dxil
