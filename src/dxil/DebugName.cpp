#include "spire/dxil/DebugName.h"

#include "PartReader.h"

namespace spire::dxil {

Expected<DebugName> readDebugName(const ContainerPart &part) {
  detail::PartReader r(part);
  if (auto e = r.require(0, 4, "the debug name header"))
    return *e;
  DebugName n;
  n.flags = r.u16(0);
  uint16_t length = r.u16(2);
  if (auto e = r.require(4, uint64_t(length) + 1, "the debug name and its NUL"))
    return *e;
  uint64_t padded = (4 + uint64_t(length) + 1 + 3) / 4 * 4;
  if (r.size() != padded)
    return r.error(2, "a debug name of " + std::to_string(length) + " bytes takes a part of " +
                          std::to_string(padded) + " bytes, not " + std::to_string(r.size()));
  if (r.u8(4 + uint64_t(length)) != 0)
    return r.error(4 + uint64_t(length), "the debug name of " + std::to_string(length) +
                                             " bytes is not followed by a NUL");
  std::span<const uint8_t> name = r.slice(4, length);
  n.name = std::string_view(reinterpret_cast<const char *>(name.data()), name.size());
  return n;
}

} // namespace spire::dxil
