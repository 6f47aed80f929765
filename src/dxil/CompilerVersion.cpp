#include "spire/dxil/CompilerVersion.h"

#include "PartReader.h"

namespace spire::dxil {

Expected<CompilerVersion> readCompilerVersion(const ContainerPart &part) {
  detail::PartReader r(part);
  if (auto e = r.require(0, 16, "the compiler version header"))
    return *e;
  CompilerVersion v;
  v.major = r.u16(0);
  v.minor = r.u16(2);
  v.flags = r.u32(4);
  v.commitCount = r.u32(8);
  uint32_t listSize = r.u32(12);
  if (auto e = r.require(16, listSize, "the compiler version strings"))
    return *e;
  detail::PartReader list = r.sub(16, listSize);
  std::string_view *strings[] = {&v.commitSha, &v.versionString};
  uint64_t at = 0;
  for (std::string_view *s : strings) {
    if (at >= list.size())
      break;
    Expected<std::string_view> text = list.cstring(at, "a compiler version string");
    if (!text)
      return text.error();
    *s = *text;
    at += text->size() + 1;
  }
  return v;
}

} // namespace spire::dxil
