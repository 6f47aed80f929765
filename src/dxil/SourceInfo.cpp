#include "spire/dxil/SourceInfo.h"

#include "NameTable.h"

#include "PartReader.h"

#include <iterator>

namespace spire::dxil {

namespace {

constexpr uint32_t kHeaderSize = 8;
constexpr uint32_t kSectionHeaderSize = 8;
constexpr uint32_t kSourcesHeaderSize = 12;
constexpr uint32_t kSourceElementSize = 16;

std::string_view text(std::span<const uint8_t> bytes) {
  return std::string_view(reinterpret_cast<const char *>(bytes.data()), bytes.size());
}

std::optional<Diagnostic> readSources(const detail::PartReader &s, SourceInfo &info) {
  if (auto e = s.require(0, kSourcesHeaderSize, "the sources header"))
    return e;
  info.sourceFileCount = s.u16(0);
  info.sourceCompression = s.u16(2);
  uint32_t size = s.u32(4);
  info.uncompressedSourceSize = s.u32(8);
  if (auto e = s.require(kSourcesHeaderSize, size, "the sources"))
    return e;
  detail::PartReader data = s.sub(kSourcesHeaderSize, size);
  if (info.sourceCompression != 0) {
    info.compressedSources = data.bytes();
    return std::nullopt;
  }
  uint64_t at = 0;
  for (uint32_t i = 0; i < info.sourceFileCount; ++i) {
    std::string what = "source file " + std::to_string(i);
    if (auto e = data.require(at, kSourceElementSize, what + "'s header"))
      return e;
    uint64_t total = uint64_t(data.u32(at + 4)) * 4;
    uint32_t nameSize = data.u32(at + 8);
    uint32_t contentSize = data.u32(at + 12);
    if (auto e = data.require(at, total, what))
      return e;
    uint64_t needed = kSourceElementSize + uint64_t(nameSize) + 1 + uint64_t(contentSize) + 1;
    if (needed > total)
      return data.error(at + 4, what + "'s name and content (" + std::to_string(needed) +
                                    " bytes) do not fit its " + std::to_string(total) + " bytes");
    uint64_t nameAt = at + kSourceElementSize, contentAt = nameAt + nameSize + 1;
    if (data.u8(nameAt + nameSize) != 0 || data.u8(contentAt + contentSize) != 0)
      return data.error(nameAt, what + "'s name or content is not followed by a NUL");
    info.sources.push_back(
        {text(data.slice(nameAt, nameSize)), text(data.slice(contentAt, contentSize))});
    at += total;
  }
  return std::nullopt;
}

std::optional<Diagnostic> readStringList(const detail::PartReader &s,
                                         std::vector<std::string_view> &out) {
  if (auto e = s.require(0, 8, "the string list header"))
    return e;
  uint16_t size = s.u16(2);
  uint32_t count = s.u32(4);
  if (auto e = s.require(8, size, "the string list"))
    return e;
  detail::PartReader list = s.sub(8, size);
  uint64_t at = 0;
  for (uint32_t i = 0; i < count; ++i) {
    Expected<std::string_view> str = list.cstring(at, "string " + std::to_string(i));
    if (!str)
      return str.error();
    out.push_back(*str);
    at += str->size() + 1;
  }
  return std::nullopt;
}

std::optional<Diagnostic> readString(const detail::PartReader &s, std::string_view &out) {
  if (auto e = s.require(0, 4, "the string header"))
    return e;
  uint16_t size = s.u16(2);
  if (auto e = s.require(4, uint64_t(size) + 1, "the string and its NUL"))
    return e;
  if (s.u8(4 + uint64_t(size)) != 0)
    return s.error(4 + uint64_t(size), "the string is not followed by a NUL");
  out = text(s.slice(4, size));
  return std::nullopt;
}

} // namespace

Expected<SourceInfo> readSourceInfo(const ContainerPart &part) {
  detail::PartReader r(part);
  if (auto e = r.require(0, kHeaderSize, "the source info header"))
    return *e;
  SourceInfo info;
  info.flags = r.u16(0);
  uint16_t sectionCount = r.u16(2);
  uint64_t size = uint64_t(r.u32(4)) * 4;
  if (auto e = r.require(0, size, "the source info"))
    return *e;
  uint64_t at = kHeaderSize;
  bool seen[5] = {};
  for (uint32_t i = 0; i < sectionCount; ++i) {
    std::string what = "section " + std::to_string(i);
    if (auto e = r.require(at, kSectionHeaderSize, what + "'s header"))
      return *e;
    SourceInfoSection sec;
    sec.flags = r.u16(at);
    sec.type = SourceInfoSectionType(r.u16(at + 2));
    sec.fileOffset = r.fileOffset(at);
    uint64_t total = uint64_t(r.u32(at + 4)) * 4;
    if (total < kSectionHeaderSize)
      return r.error(at + 4,
                     what + " takes " + std::to_string(total) + " bytes, fewer than its header");
    if (auto e = r.require(at, total, what))
      return *e;
    detail::PartReader body = r.sub(at + kSectionHeaderSize, total - kSectionHeaderSize);
    sec.data = body.bytes();
    uint16_t type = uint16_t(sec.type);
    if (type < std::size(seen) && !seen[type]) {
      seen[type] = true;
      std::optional<Diagnostic> e;
      switch (sec.type) {
      case SourceInfoSectionType::Sources:
        e = readSources(body, info);
        break;
      case SourceInfoSectionType::Defines:
        e = readStringList(body, info.defines);
        break;
      case SourceInfoSectionType::Args:
        e = readStringList(body, info.args);
        break;
      case SourceInfoSectionType::TargetProfile:
        e = readString(body, info.targetProfile);
        break;
      case SourceInfoSectionType::EntryPoint:
        e = readString(body, info.entryPoint);
        break;
      }
      if (e)
        return *e;
    }
    info.sections.push_back(sec);
    at += total;
  }
  return info;
}

const char *sourceInfoSectionName(SourceInfoSectionType type) {
  static constexpr const char *kNames[] = {"Sources", "Defines", "Args", "TargetProfile",
                                           "EntryPoint"};
  return detail::nameAt(kNames, uint64_t(type));
}

} // namespace spire::dxil
