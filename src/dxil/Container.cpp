#include "spire/dxil/Container.h"

#include <algorithm>
#include <cstring>

namespace spire::dxil {

namespace {

constexpr FourCC kDxbc = FourCC::of("DXBC");
constexpr FourCC kDxilMagic = FourCC::of("DXIL");
constexpr size_t kHeaderSize = 4 + 16 + 2 + 2 + 4 + 4;
constexpr size_t kProgramHeaderSize = 24;

uint32_t load32(std::span<const uint8_t> bytes, size_t at) {
  uint32_t v;
  std::memcpy(&v, bytes.data() + at, 4);
  return v; // the container is little-endian, as is every host spire builds for
}

uint16_t load16(std::span<const uint8_t> bytes, size_t at) {
  uint16_t v;
  std::memcpy(&v, bytes.data() + at, 2);
  return v;
}

Diagnostic headerError(uint64_t at, std::string message) {
  return makeError(Location::container("", at), std::move(message));
}

} // namespace

std::string FourCC::str() const {
  std::string s(4, '?');
  for (int i = 0; i < 4; ++i) {
    char c = char((value >> (8 * i)) & 0xff);
    if (c >= 0x20 && c < 0x7f)
      s[i] = c;
  }
  return s;
}

const ContainerPart *Container::find(FourCC code) const {
  for (const ContainerPart &p : parts)
    if (p.fourcc == code)
      return &p;
  return nullptr;
}

bool isContainer(std::span<const uint8_t> bytes) {
  return bytes.size() >= 4 && load32(bytes, 0) == kDxbc.value;
}

Expected<Container> readContainer(std::span<const uint8_t> bytes) {
  if (bytes.size() < kHeaderSize)
    return headerError(bytes.size(), "a container header takes " + std::to_string(kHeaderSize) +
                                         " bytes, the file has " + std::to_string(bytes.size()));
  if (!isContainer(bytes))
    return headerError(0, "not a DXBC container: the file does not start with 'DXBC'");
  Container c;
  c.bytes = bytes;
  std::memcpy(c.digest.data(), bytes.data() + 4, 16);
  c.majorVersion = load16(bytes, 20);
  c.minorVersion = load16(bytes, 22);
  c.declaredSize = load32(bytes, 24);
  uint32_t count = load32(bytes, 28);
  if (c.declaredSize > bytes.size())
    return headerError(24, "the container declares " + std::to_string(c.declaredSize) +
                               " bytes, the file has " + std::to_string(bytes.size()));
  if (c.declaredSize < kHeaderSize)
    return headerError(24, "the container declares " + std::to_string(c.declaredSize) +
                               " bytes, less than its header");
  uint64_t tableEnd = kHeaderSize + uint64_t(count) * 4;
  if (tableEnd > c.declaredSize)
    return headerError(28, "the part table of " + std::to_string(count) +
                               " entries runs past the end of the container");
  auto container = bytes.first(c.declaredSize);
  c.parts.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t at = load32(container, kHeaderSize + size_t(i) * 4);
    if (at < tableEnd || at + 8 > container.size())
      return headerError(kHeaderSize + size_t(i) * 4, "part " + std::to_string(i) +
                                                          " starts at byte " + std::to_string(at) +
                                                          ", outside the container's parts area");
    ContainerPart p;
    p.fourcc = FourCC{load32(container, at)};
    p.headerOffset = at;
    uint32_t size = load32(container, at + 4);
    if (at + 8 + size > container.size())
      return makeError(Location::container(p.fourcc.str(), at + 4),
                       "the part's " + std::to_string(size) +
                           " bytes run past the end of the container");
    p.data = container.subspan(at + 8, size);
    c.parts.push_back(p);
  }
  // Parts may come in any order in the table; sorted by offset, each must end before the next.
  std::vector<const ContainerPart *> byOffset;
  byOffset.reserve(c.parts.size());
  for (const ContainerPart &p : c.parts)
    byOffset.push_back(&p);
  std::sort(byOffset.begin(), byOffset.end(),
            [](auto *a, auto *b) { return a->headerOffset < b->headerOffset; });
  for (size_t i = 1; i < byOffset.size(); ++i) {
    const ContainerPart &prev = *byOffset[i - 1], &next = *byOffset[i];
    if (next.headerOffset < prev.dataOffset() + prev.data.size())
      return makeError(Location::container(next.fourcc.str(), next.headerOffset),
                       "the part overlaps part " + prev.fourcc.str() + " at byte " +
                           std::to_string(prev.headerOffset));
  }
  return c;
}

const char *shaderKindPrefix(ShaderKind kind) {
  switch (kind) {
  case ShaderKind::Pixel:
    return "ps";
  case ShaderKind::Vertex:
    return "vs";
  case ShaderKind::Geometry:
    return "gs";
  case ShaderKind::Hull:
    return "hs";
  case ShaderKind::Domain:
    return "ds";
  case ShaderKind::Compute:
    return "cs";
  case ShaderKind::Library:
    return "lib";
  case ShaderKind::Mesh:
    return "ms";
  case ShaderKind::Amplification:
    return "as";
  default: // the kinds of library entries have no shader model prefix of their own
    return nullptr;
  }
}

Expected<ProgramHeader> readProgramHeader(const ContainerPart &part) {
  std::string name = part.fourcc.str();
  auto at = [&](uint64_t offset) { return Location::container(name, part.dataOffset() + offset); };
  if (part.data.size() < kProgramHeaderSize)
    return makeError(at(0), "a program header takes 24 bytes, the part has " +
                                std::to_string(part.data.size()));
  ProgramHeader h;
  uint32_t version = load32(part.data, 0);
  h.shaderModelMinor = version & 0xf;
  h.shaderModelMajor = (version >> 4) & 0xf;
  h.kind = ShaderKind(version >> 16);
  h.sizeInWords = load32(part.data, 4);
  if (load32(part.data, 8) != kDxilMagic.value)
    return makeError(at(8), "the program header's magic is '" + FourCC{load32(part.data, 8)}.str() +
                                "', not 'DXIL'");
  uint32_t dxilVersion = load32(part.data, 12);
  h.dxilMajor = uint8_t(dxilVersion >> 8);
  h.dxilMinor = uint8_t(dxilVersion);
  uint64_t programBytes = uint64_t(h.sizeInWords) * 4;
  if (programBytes < kProgramHeaderSize || programBytes > part.data.size())
    return makeError(at(4), "the program declares " + std::to_string(programBytes) +
                                " bytes, the part has " + std::to_string(part.data.size()));
  // The bitcode offset counts from the 'DXIL' magic, 8 bytes into the part.
  uint64_t offset = 8 + uint64_t(load32(part.data, 16));
  uint64_t size = load32(part.data, 20);
  if (offset < kProgramHeaderSize || offset + size > programBytes)
    return makeError(at(16), "the bitcode (" + std::to_string(size) + " bytes at offset " +
                                 std::to_string(offset) + ") lies outside the program's " +
                                 std::to_string(programBytes) + " bytes");
  h.bitcode = part.data.subspan(offset, size);
  h.bitcodeFileOffset = part.dataOffset() + offset;
  return h;
}

} // namespace spire::dxil
