#include "DxilTestContainers.h"

#include "spire/dxil/RootSignature.h"
#include "spire/dxil/RuntimeData.h"

#include <gtest/gtest.h>

namespace spire::dxil {
namespace {

using test::Bytes;

/// The result views `bytes`: callers keep them alive while they use it.
Expected<RuntimeData> read(const std::vector<uint8_t> &bytes) {
  return readRuntimeData(ContainerPart{FourCC::of("RDAT"), 0, bytes});
}

TEST(DxilRdat, ReadsEveryTableAndResolvesTheReferences) {
  std::vector<uint8_t> bytes = test::runtimeDataPart();
  Expected<RuntimeData> rd = read(bytes);
  ASSERT_TRUE(rd) << rd.error().format();
  EXPECT_EQ(rd->version, 0x10u);
  ASSERT_EQ(rd->parts.size(), 12u);
  EXPECT_EQ(rd->parts[0].type, RdatPartType::FunctionTable);
  EXPECT_EQ(rd->parts[0].recordStride, 52u);
  EXPECT_TRUE(rd->parts[0].decoded);
  EXPECT_EQ(uint32_t(rd->parts[11].type), 99u); // kept as it is
  EXPECT_FALSE(rd->parts[11].isTable);
  EXPECT_FALSE(rd->parts[11].decoded);

  ASSERT_EQ(rd->resources.size(), 2u);
  EXPECT_EQ(rd->resources[0].name, "tex");
  EXPECT_EQ(rd->resources[0].resourceClass, ResourceClass::UAV);
  EXPECT_EQ(rd->resources[0].kind, ResourceKind::Texture2D);
  EXPECT_EQ(rd->resources[0].lowerBound, 1u);
  EXPECT_EQ(rd->resources[1].kind, ResourceKind::RawBuffer);
  EXPECT_EQ(rd->resources[1].flags, 0x11u);

  ASSERT_EQ(rd->functions.size(), 2u);
  const RdatFunction &main = rd->functions[0];
  EXPECT_EQ(main.name, "main");
  EXPECT_EQ(main.shaderKind, ShaderKind::Pixel);
  EXPECT_EQ(main.resources, (std::vector<uint32_t>{0, 1}));
  ASSERT_EQ(main.dependencies.size(), 1u);
  EXPECT_EQ(main.dependencies[0], "helper");
  EXPECT_EQ(main.featureFlags, 0x100'00004001u);
  EXPECT_EQ(main.minShaderTarget, 0x68u);
  EXPECT_TRUE(main.hasVersion2);
  EXPECT_EQ(main.minimumExpectedWaveLaneCount, 32);
  EXPECT_EQ(main.maximumExpectedWaveLaneCount, 64);
  EXPECT_EQ(main.shaderFlags, 1);
  EXPECT_FALSE(main.nodeShader);
  const RdatFunction &node = rd->functions[1];
  EXPECT_EQ(node.shaderKind, ShaderKind::Node);
  ASSERT_TRUE(node.nodeShader);
  const RdatNodeShader &shader = rd->nodeShaders[*node.nodeShader];
  EXPECT_EQ(shader.launchType, 1u);
  EXPECT_EQ(shader.groupSharedBytesUsed, 16u);
  ASSERT_EQ(shader.attribs.size(), 2u);
  const RdatNodeFuncAttrib &id = rd->nodeFuncAttribs[shader.attribs[0]];
  ASSERT_TRUE(id.nodeId);
  EXPECT_EQ(rd->nodeIds[*id.nodeId].name, "nodeMain");
  EXPECT_EQ(rd->nodeFuncAttribs[shader.attribs[1]].values, (std::vector<uint32_t>{8, 1, 1}));
  ASSERT_EQ(shader.outputs.size(), 1u);
  const RdatIONode &out = rd->ioNodes[shader.outputs[0]];
  EXPECT_STREQ(nodeIOKindName(out.ioFlagsAndKind), "NodeOutput");
  ASSERT_EQ(out.attribs.size(), 3u);
  const RdatNodeIOAttrib &outputId = rd->nodeIOAttribs[out.attribs[0]];
  ASSERT_TRUE(outputId.outputId);
  EXPECT_EQ(rd->nodeIds[*outputId.outputId].name, "out");
  EXPECT_EQ(rd->nodeIds[*outputId.outputId].index, 1u);
  const RdatNodeIOAttrib &grid = rd->nodeIOAttribs[out.attribs[2]];
  EXPECT_EQ(grid.dispatchGridByteOffset, 8);
  EXPECT_EQ(grid.dispatchGridComponents, 1);
  EXPECT_STREQ(dxilComponentTypeName(grid.dispatchGridComponentType), "u32");
  EXPECT_STREQ(nodeIOKindName(rd->ioNodes[shader.inputs[0]].ioFlagsAndKind),
               "DispatchNodeInputRecord");

  ASSERT_EQ(rd->subobjects.size(), 4u);
  const RdatSubobject &grs = rd->subobjects[0];
  EXPECT_STREQ(subobjectKindName(grs.kind), "GlobalRootSignature");
  EXPECT_EQ(grs.name, "grs");
  Expected<RootSignature> rs = readRootSignature(grs.rootSignature, "RDAT", 0);
  ASSERT_TRUE(rs) << rs.error().format();
  EXPECT_EQ(rs->parameters.size(), 3u);
  EXPECT_EQ(rd->subobjects[1].closestHit, "main");
  EXPECT_EQ(rd->subobjects[1].anyHit, "");
  EXPECT_EQ(rd->subobjects[2].associatedSubobject, "grs");
  EXPECT_EQ(rd->subobjects[2].exports, (std::vector<std::string_view>{"main"}));
  EXPECT_EQ(rd->subobjects[3].maxPayloadSizeInBytes, 16u);
  EXPECT_EQ(rd->subobjects[3].maxAttributeSizeInBytes, 8u);
}

TEST(DxilRdat, TakesFunctionRecordsOfVersion1) {
  std::vector<uint8_t> bytes = test::runtimeDataPart(44); // the result views the bytes
  Expected<RuntimeData> rd = read(bytes);
  ASSERT_TRUE(rd) << rd.error().format();
  EXPECT_FALSE(rd->functions[1].hasVersion2);
  EXPECT_FALSE(rd->functions[1].nodeShader);
  EXPECT_EQ(rd->functions[1].name, "nodeMain");
  // Records longer than the ones known are read up to what is known.
  bytes = test::runtimeDataPart(64);
  rd = read(bytes);
  ASSERT_TRUE(rd) << rd.error().format();
  EXPECT_TRUE(rd->functions[1].nodeShader);
  EXPECT_FALSE(read(test::runtimeDataPart(40)));
}

/// The offset of the first sub-part of `type` in a runtime data part.
size_t subPart(const std::vector<uint8_t> &bytes, uint32_t type) {
  Bytes b{bytes};
  uint32_t count;
  std::memcpy(&count, bytes.data() + 4, 4);
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t at, t;
    std::memcpy(&at, bytes.data() + 8 + 4 * i, 4);
    std::memcpy(&t, bytes.data() + at, 4);
    if (t == type)
      return at;
  }
  return 0;
}

TEST(DxilRdat, ChecksEveryReference) {
  std::vector<uint8_t> good = test::runtimeDataPart();
  size_t resources = subPart(good, 3) + 16, functions = subPart(good, 4) + 16;
  size_t ioNodes = subPart(good, 10) + 16, subobjects = subPart(good, 6) + 16;
  struct Case {
    size_t at;
    uint32_t value;
    const char *message;
    size_t errorAt;
  } cases[] = {
      {resources + 24, 5000, "lies outside the string buffer", resources + 24},
      {functions + 8, 5000, "runs past the index arrays", functions + 8},
      {functions + 52 + 48, 3, "refers to node shader 3 of 1", functions + 52 + 48},
      // The first index array is {8, 1, 1}: as an attribute list it names attribute 8.
      {ioNodes + 8 + 4, 0, "refers to node I/O attribute 8 of 3", ioNodes + 8 + 4},
      {subobjects + 12, 4096, "run past the raw bytes", subobjects + 8},
  };
  for (const Case &c : cases) {
    Bytes b{good};
    b.set32(c.at, c.value);
    Expected<RuntimeData> rd = read(b.v);
    ASSERT_FALSE(rd) << c.message;
    EXPECT_NE(rd.error().message.find(c.message), std::string::npos) << rd.error().message;
    EXPECT_EQ(rd.error().location.offset, 8 + c.errorAt) << c.message;
  }
}

TEST(DxilRdat, RejectsTruncatedAndDuplicatedParts) {
  std::vector<uint8_t> good = test::runtimeDataPart();
  for (size_t n = 0; n + 4 <= good.size(); n += 4) {
    Expected<RuntimeData> rd = read({good.begin(), good.begin() + n});
    ASSERT_FALSE(rd) << n;
    EXPECT_EQ(rd.error().location.scopeName(), "RDAT");
  }
  // A second string buffer.
  Bytes b{good};
  b.set32(subPart(good, 2), 1);
  Expected<RuntimeData> rd = read(b.v);
  ASSERT_FALSE(rd);
  EXPECT_NE(rd.error().message.find("a second StringBuffer"), std::string::npos);
  // A second resource table.
  b = Bytes{good};
  b.set32(subPart(good, 7), 3);
  rd = read(b.v);
  ASSERT_FALSE(rd);
  EXPECT_NE(rd.error().message.find("a second ResourceTable"), std::string::npos);
}

} // namespace
} // namespace spire::dxil

namespace spire::dxil {
namespace {

TEST(DxilRdat, RefusesRecordsThatShareLongStringsBeyondReason) {
  // 200 resources named by one string of 4000 bytes.
  auto part = [](uint32_t count) {
    test::Bytes strings;
    strings.u8(0).cstr(std::string(4000, 'r')).pad4();
    test::Bytes table;
    table.u32(count).u32(32);
    for (uint32_t i = 0; i < count; ++i)
      table.u32(0).u32(2).u32(i).u32(0).u32(i).u32(i).u32(1).u32(0);
    test::Bytes p;
    p.u32(0x10).u32(2).u32(16).u32(uint32_t(24 + strings.size()));
    p.u32(1).u32(uint32_t(strings.size())).raw(strings.v);
    p.u32(3).u32(uint32_t(table.size())).raw(table.v);
    return p.v;
  };
  Expected<RuntimeData> rd = read(part(200));
  ASSERT_FALSE(rd);
  EXPECT_NE(rd.error().message.find("can plausibly hold"), std::string::npos);
  std::vector<uint8_t> three = part(3); // the result views the bytes
  rd = read(three);
  ASSERT_TRUE(rd) << rd.error().format();
  EXPECT_EQ(rd->resources[2].name.size(), 4000u);
}

} // namespace
} // namespace spire::dxil
