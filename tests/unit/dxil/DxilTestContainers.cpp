#include "DxilTestContainers.h"

#include "spire/dxil/ContainerDigest.h"

#include <map>

namespace spire::dxil::test {

namespace {

/// A string table built as strings are added: offset 0 is the empty string.
struct Strings {
  Bytes b;
  std::map<std::string, uint32_t> offsets;
  Strings() { b.u8(0); }
  uint32_t add(const std::string &s) {
    if (s.empty())
      return 0;
    auto [it, added] = offsets.emplace(s, uint32_t(b.size()));
    if (added)
      b.cstr(s);
    return it->second;
  }
};

/// RDAT's index arrays: each a count followed by the values.
struct IndexArrays {
  std::vector<uint32_t> words;
  uint32_t add(const std::vector<uint32_t> &values) {
    uint32_t at = uint32_t(words.size());
    words.push_back(uint32_t(values.size()));
    words.insert(words.end(), values.begin(), values.end());
    return at;
  }
};

std::vector<uint8_t> table(uint32_t count, uint32_t stride, const Bytes &records) {
  Bytes t;
  t.u32(count).u32(stride).raw(records.v);
  return t.v;
}

/// A record padded (or cut) to `stride` bytes.
Bytes &fit(Bytes &record, size_t start, uint32_t stride) {
  record.v.resize(start + stride);
  return record;
}

const uint8_t kBitcode[] = {'B', 'C', 0xc0, 0xde, 0x35, 0x14, 0, 0, 5, 0, 0, 0};

} // namespace

std::vector<uint8_t> buildContainer(const std::vector<TestPart> &parts, bool sign) {
  Bytes c;
  c.u32(FourCC::of("DXBC").value);
  for (int i = 0; i < 16; ++i)
    c.u8(0);
  c.u16(1).u16(0).u32(0).u32(uint32_t(parts.size()));
  size_t table = c.size();
  for (size_t i = 0; i < parts.size(); ++i)
    c.u32(0);
  for (size_t i = 0; i < parts.size(); ++i) {
    c.set32(table + 4 * i, uint32_t(c.size()));
    c.u32(parts[i].fourcc.value).u32(uint32_t(parts[i].data.size())).raw(parts[i].data);
  }
  c.set32(24, uint32_t(c.size()));
  if (sign) {
    Digest d = computeContainerDigest(c.v);
    std::memcpy(c.v.data() + 4, d.data(), 16);
  }
  return c.v;
}

std::vector<uint8_t> programPart(ShaderKind kind, uint8_t smMajor, uint8_t smMinor,
                                 std::span<const uint8_t> bitcode) {
  Bytes p;
  uint32_t words = uint32_t((24 + bitcode.size() + 3) / 4);
  p.u32(uint32_t(kind) << 16 | uint32_t(smMajor) << 4 | smMinor)
      .u32(words)
      .u32(FourCC::of("DXIL").value)
      .u32(1u << 8 | smMinor)
      .u32(16)
      .u32(uint32_t(bitcode.size()))
      .raw(bitcode);
  p.v.resize(size_t(words) * 4);
  return p.v;
}

std::vector<uint8_t> signaturePart(const std::vector<TestElement> &elements) {
  Bytes p;
  p.u32(uint32_t(elements.size())).u32(8);
  size_t namesAt = 8 + 32 * elements.size();
  Bytes names;
  for (const TestElement &e : elements) {
    p.u32(e.stream)
        .u32(uint32_t(namesAt + names.size()))
        .u32(e.index)
        .u32(e.systemValue)
        .u32(e.componentType)
        .u32(e.reg)
        .u8(e.mask)
        .u8(e.rwMask)
        .u16(0)
        .u32(e.minPrecision);
    names.cstr(e.name);
  }
  p.raw(names.v).pad4();
  return p.v;
}

std::vector<uint8_t> pixelPsvPart(uint32_t runtimeInfoSize) {
  Strings strings;
  uint32_t texcoord = strings.add("TEXCOORD");
  uint32_t entry = strings.add("main");
  strings.b.pad4();
  Bytes p;
  p.u32(runtimeInfoSize);
  Bytes info;
  info.u8(1).u8(0).u16(0).u32(0).u32(0).u32(0);         // depth output, no sample frequency
  info.u32(4).u32(64);                                  // wave lane counts
  info.u8(0).u8(1).u16(0);                              // pixel, uses the view ID
  info.u8(2).u8(1).u8(0).u8(3).u8(1).u8(0).u8(0).u8(0); // elements and vectors
  info.u32(0).u32(0).u32(0).u32(entry);
  info.v.resize(runtimeInfoSize);
  p.raw(info.v);
  // Two bindings of the version 1 layout.
  p.u32(2).u32(24);
  p.u32(2).u32(0).u32(0).u32(0).u32(13).u32(0);
  p.u32(3).u32(1).u32(2).u32(~0u).u32(2).u32(1);
  if (runtimeInfoSize < 36)
    return p.v;
  p.u32(uint32_t(strings.b.size())).raw(strings.b.v);
  p.u32(3).u32(0).u32(0).u32(1); // semantic indexes: {0}, {0, 1}
  p.u32(16);
  p.u32(0).u32(0).u8(1).u8(0).u8(0x44).u8(3).u8(3).u8(4).u8(0).u8(0);          // SV_Position
  p.u32(texcoord).u32(1).u8(2).u8(1).u8(0x42).u8(0).u8(3).u8(2).u8(0x3).u8(0); // TEXCOORD0-1
  p.u32(0).u32(0).u8(1).u8(0).u8(0x44).u8(16).u8(3).u8(0).u8(0).u8(0);         // SV_Target
  p.u32(0x5);                                                                  // view ID mask
  for (int i = 0; i < 12; ++i)                                                 // inputs to output
    p.u32(i == 4 ? 0x3 : 0);
  return p.v;
}

std::vector<uint8_t> rootSignaturePart(uint32_t version) {
  Bytes p;
  uint32_t paramsAt = 24, payloadAt = paramsAt + 3 * 12;
  uint32_t rangeSize = version == 1 ? 20 : 24;
  uint32_t rangesAt = payloadAt + 8;
  uint32_t constantsAt = rangesAt + 2 * rangeSize;
  uint32_t descriptorAt = constantsAt + 12;
  uint32_t samplersAt = descriptorAt + (version == 1 ? 8 : 12);
  p.u32(version).u32(3).u32(paramsAt).u32(1).u32(samplersAt).u32(0x1);
  p.u32(0).u32(5).u32(payloadAt);    // a descriptor table for the pixel stage
  p.u32(1).u32(0).u32(constantsAt);  // root constants
  p.u32(2).u32(0).u32(descriptorAt); // a root CBV
  p.u32(2).u32(rangesAt);
  auto range = [&](uint32_t type, uint32_t count, uint32_t reg, uint32_t flags, uint32_t offset) {
    p.u32(type).u32(count).u32(reg).u32(0);
    if (version > 1)
      p.u32(flags);
    p.u32(offset);
  };
  range(0, 4, 0, 4, 0);
  range(3, ~0u, 1, 0, ~0u);
  p.u32(0).u32(1).u32(4);
  p.u32(1).u32(0);
  if (version > 1)
    p.u32(2);
  p.u32(0x15)
      .u32(1)
      .u32(2)
      .u32(3)
      .f32(0.5f)
      .u32(16)
      .u32(4)
      .u32(1)
      .f32(0)
      .f32(1000)
      .u32(2)
      .u32(0)
      .u32(5);
  if (version == 3)
    p.u32(1);
  return p.v;
}

std::vector<uint8_t> runtimeDataPart(uint32_t functionStride) {
  Strings s;
  IndexArrays ix;
  Bytes raw;
  raw.raw(rootSignaturePart(2));

  Bytes resources;
  resources.u32(1).u32(2).u32(0).u32(0).u32(1).u32(1).u32(s.add("tex")).u32(0);
  resources.u32(1).u32(11).u32(0).u32(0).u32(0).u32(0).u32(s.add("buf")).u32(0x11);

  Bytes nodeIds;
  nodeIds.u32(s.add("nodeMain")).u32(0);
  nodeIds.u32(s.add("out")).u32(1);
  Bytes funcAttribs;
  funcAttribs.u32(1).u32(0);                 // ID: node 0
  funcAttribs.u32(2).u32(ix.add({8, 1, 1})); // NumThreads
  Bytes ioAttribs;
  ioAttribs.u32(1).u32(1);                        // OutputID: node 1
  ioAttribs.u32(2).u32(4);                        // MaxRecords
  ioAttribs.u32(5).u32((1u | 5u << 2) << 16 | 8); // RecordDispatchGrid: byte 8, 1 x u32
  Bytes ioNodes;
  ioNodes.u32(0x61).u32(~0u);
  ioNodes.u32(0x06).u32(ix.add({0, 1, 2}));
  Bytes nodeShaders;
  nodeShaders.u32(1).u32(16).u32(ix.add({0, 1})).u32(ix.add({1})).u32(ix.add({0}));

  Bytes functions;
  auto function = [&](const std::string &name, uint32_t kind, uint32_t resourceList, uint32_t deps,
                      uint32_t stageRef) {
    size_t start = functions.size();
    functions.u32(s.add(name)).u32(s.add(name)).u32(resourceList).u32(deps).u32(kind);
    functions.u32(0).u32(0).u32(0x4001).u32(0x100).u32(1u << kind).u32(kind << 16 | 0x68);
    functions.u8(32).u8(64).u16(1).u32(stageRef);
    fit(functions, start, functionStride);
  };
  // Arguments are evaluated in no set order: add the arrays first, so every compiler builds the
  // same bytes.
  uint32_t mainResources = ix.add({0, 1});
  uint32_t helper = s.add("helper");
  uint32_t mainCalls = ix.add({helper});
  function("main", 0, mainResources, mainCalls, ~0u);
  function("nodeMain", 15, ~0u, ~0u, 0);

  Bytes subobjects;
  subobjects.u32(1).u32(s.add("grs")).u32(0).u32(uint32_t(raw.size())).u32(0).u32(0);
  subobjects.u32(11).u32(s.add("hg")).u32(0).u32(0).u32(s.add("main")).u32(0);
  subobjects.u32(8)
      .u32(s.add("assoc"))
      .u32(s.add("grs"))
      .u32(ix.add({s.add("main")}))
      .u32(0)
      .u32(0);
  subobjects.u32(9).u32(s.add("config")).u32(16).u32(8).u32(0).u32(0);

  Bytes indexes;
  for (uint32_t w : ix.words)
    indexes.u32(w);
  s.b.pad4();

  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> parts = {
      {4, table(2, functionStride, functions)}, // before the tables it refers to
      {1, s.b.v},
      {2, indexes.v},
      {5, raw.v},
      {3, table(2, 32, resources)},
      {6, table(4, 24, subobjects)},
      {11, table(1, 20, nodeShaders)},
      {7, table(2, 8, nodeIds)},
      {8, table(3, 8, ioAttribs)},
      {9, table(2, 8, funcAttribs)},
      {10, table(2, 8, ioNodes)},
      {99, {1, 2, 3, 4}}, // a sub-part spire does not know
  };
  Bytes p;
  p.u32(0x10).u32(uint32_t(parts.size()));
  size_t offsets = p.size();
  for (size_t i = 0; i < parts.size(); ++i)
    p.u32(0);
  for (size_t i = 0; i < parts.size(); ++i) {
    p.set32(offsets + 4 * i, uint32_t(p.size()));
    p.u32(parts[i].first).u32(uint32_t(parts[i].second.size())).raw(parts[i].second).pad4();
  }
  return p.v;
}

std::vector<uint8_t> sourceInfoPart() {
  auto section = [](uint16_t type, const Bytes &data) {
    Bytes s;
    s.u16(0).u16(type).u32(0).raw(data.v).pad4();
    s.set32(4, uint32_t(s.size() / 4));
    return s;
  };
  const std::string name = "a.hlsl", content = "float4 main() : SV_Target { return 1; }";
  Bytes file;
  file.u32(0).u32(0).u32(uint32_t(name.size())).u32(uint32_t(content.size()));
  file.cstr(name).cstr(content).pad4();
  file.set32(4, uint32_t(file.size() / 4));
  Bytes sources;
  sources.u16(1).u16(0).u32(uint32_t(file.size())).u32(uint32_t(file.size())).raw(file.v);
  Bytes defines;
  defines.u16(0).u16(7).u32(2).cstr("A=1").cstr("B").u8(0);
  Bytes args;
  args.u16(0).u16(9).u32(2).cstr("-E").cstr("main").u8(0);
  Bytes profile;
  profile.u16(0).u16(6).cstr("ps_6_0");
  Bytes entry;
  entry.u16(0).u16(4).cstr("main");
  Bytes p;
  p.u16(0).u16(6).u32(0);
  p.raw(section(0, sources).v)
      .raw(section(1, defines).v)
      .raw(section(2, args).v)
      .raw(section(3, profile).v)
      .raw(section(4, entry).v)
      .raw(section(9, Bytes{{1, 2, 3, 4}}).v);
  p.set32(4, uint32_t(p.size() / 4));
  return p.v;
}

std::vector<TestPart> everyPart() {
  Bytes features;
  features.u64(1u | 1u << 14 | uint64_t(1) << 40);
  Bytes hash;
  hash.u32(1);
  for (uint8_t i = 0; i < 16; ++i)
    hash.u8(i);
  Bytes version;
  version.u16(1).u16(8).u32(1).u32(4662).u32(20).cstr("416fab6b").cstr("1.8.2407.7");
  Bytes debugName;
  debugName.u16(0).u16(10).cstr("shader.pdb").pad4();
  std::vector<TestElement> inputs = {{"SV_Position", 0, 1, 3, 0, 0xf, 0},
                                     {"TEXCOORD", 0, 0, 3, 1, 0x3, 0x3},
                                     {"TEXCOORD", 1, 0, 3, 2, 0x3, 0x1}};
  std::vector<TestElement> outputs = {{"SV_Target", 0, 64, 3, 0, 0xf, 0}};
  return {
      {FourCC::of("SFI0"), features.v},
      {FourCC::of("ISG1"), signaturePart(inputs)},
      {FourCC::of("OSG1"), signaturePart(outputs)},
      {FourCC::of("PSG1"), signaturePart({})},
      {FourCC::of("PSV0"), pixelPsvPart(52)},
      {FourCC::of("RTS0"), rootSignaturePart(2)},
      {FourCC::of("HASH"), hash.v},
      {FourCC::of("VERS"), version.v},
      {FourCC::of("ILDN"), debugName.v},
      {FourCC::of("SRCI"), sourceInfoPart()},
      {FourCC::of("RDAT"), runtimeDataPart()},
      {FourCC::of("PRIV"), {9, 9, 9, 9}},
      {FourCC::of("STAT"), programPart(ShaderKind::Pixel, 6, 8, kBitcode)},
      {FourCC::of("ILDB"), programPart(ShaderKind::Pixel, 6, 8, kBitcode)},
      {FourCC::of("DXIL"), programPart(ShaderKind::Pixel, 6, 8, kBitcode)},
  };
}

} // namespace spire::dxil::test
