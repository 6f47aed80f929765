#include "DxilTestContainers.h"

#include "spire/dxil/PipelineStateValidation.h"

#include <gtest/gtest.h>

namespace spire::dxil {
namespace {

using test::Bytes;

/// The result views `bytes`: callers keep them alive while they use it.
Expected<PipelineStateValidation> read(const std::vector<uint8_t> &bytes,
                                       std::optional<ShaderKind> kind = std::nullopt) {
  return readPipelineStateValidation(ContainerPart{FourCC::of("PSV0"), 0, bytes}, kind);
}

TEST(DxilPsv, ReadsVersion3WithEveryTable) {
  std::vector<uint8_t> bytes = test::pixelPsvPart(52); // the result views the bytes
  Expected<PipelineStateValidation> psv = read(bytes);
  ASSERT_TRUE(psv) << psv.error().format();
  EXPECT_EQ(psv->version, 3u);
  EXPECT_EQ(psv->shaderStage, ShaderKind::Pixel);
  ASSERT_TRUE(std::holds_alternative<PsvPixelInfo>(psv->stage));
  EXPECT_TRUE(std::get<PsvPixelInfo>(psv->stage).depthOutput);
  EXPECT_FALSE(std::get<PsvPixelInfo>(psv->stage).sampleFrequency);
  EXPECT_EQ(psv->minimumWaveLaneCount, 4u);
  EXPECT_EQ(psv->maximumWaveLaneCount, 64u);
  EXPECT_TRUE(psv->usesViewId);
  EXPECT_EQ(psv->sigInputVectors, 3);
  EXPECT_EQ(psv->sigOutputVectors[0], 1);
  EXPECT_EQ(psv->entryName, "main");

  ASSERT_EQ(psv->resources.size(), 2u);
  EXPECT_EQ(psv->resourceBindingSize, 24u);
  EXPECT_EQ(psv->resources[0].type, PsvResourceType::CBV);
  EXPECT_EQ(psv->resources[0].kind, ResourceKind::CBuffer);
  EXPECT_EQ(psv->resources[1].type, PsvResourceType::SRVTyped);
  EXPECT_EQ(psv->resources[1].space, 1u);
  EXPECT_EQ(psv->resources[1].lowerBound, 2u);
  EXPECT_EQ(psv->resources[1].upperBound, ~0u);
  EXPECT_EQ(psv->resources[1].kind, ResourceKind::Texture2D);
  EXPECT_EQ(psv->resources[1].flags, 1u);

  ASSERT_EQ(psv->inputElements.size(), 2u);
  const PsvSignatureElement &tex = psv->inputElements[1];
  EXPECT_EQ(tex.semanticName, "TEXCOORD");
  EXPECT_EQ(tex.semanticIndexes, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(tex.rows, 2);
  EXPECT_EQ(tex.startRow, 1);
  EXPECT_EQ(tex.cols, 2);
  EXPECT_EQ(tex.startCol, 0);
  EXPECT_TRUE(tex.allocated);
  EXPECT_EQ(tex.semanticKind, SemanticKind::Arbitrary);
  EXPECT_EQ(tex.interpolationMode, InterpolationMode::Linear);
  EXPECT_EQ(tex.dynamicIndexMask, 3);
  EXPECT_EQ(psv->inputElements[0].semanticKind, SemanticKind::Position);
  EXPECT_EQ(psv->inputElements[0].semanticName, ""); // system values go by their kind
  ASSERT_EQ(psv->outputElements.size(), 1u);
  EXPECT_EQ(psv->outputElements[0].semanticKind, SemanticKind::Target);

  EXPECT_EQ(psv->viewIdOutputMasks[0], (std::vector<uint32_t>{0x5}));
  ASSERT_EQ(psv->inputToOutputTables[0].size(), 12u);
  EXPECT_EQ(psv->inputToOutputTables[0][4], 0x3u);
  EXPECT_TRUE(psv->inputToOutputTables[1].empty());
  EXPECT_EQ(psv->trailingBytes, 0u);
}

TEST(DxilPsv, TheRuntimeInfoSizeSelectsTheVersion) {
  for (auto [size, version] : {std::pair{24u, 0u}, {36u, 1u}, {48u, 2u}, {52u, 3u}, {60u, 3u}}) {
    std::vector<uint8_t> bytes = test::pixelPsvPart(size);
    Expected<PipelineStateValidation> psv = read(bytes, ShaderKind::Pixel);
    ASSERT_TRUE(psv) << size << ": " << psv.error().format();
    EXPECT_EQ(psv->version, version) << size;
    EXPECT_EQ(psv->runtimeInfoSize, size);
    EXPECT_TRUE(std::holds_alternative<PsvPixelInfo>(psv->stage)) << size;
    EXPECT_EQ(psv->entryName, version == 3 ? "main" : "") << size;
    EXPECT_EQ(psv->inputElements.size(), version ? 2u : 0u) << size;
  }
  // Version 0 does not say its stage: without the program's kind it stays undecoded.
  std::vector<uint8_t> bytes = test::pixelPsvPart(24);
  Expected<PipelineStateValidation> psv = read(bytes);
  ASSERT_TRUE(psv);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(psv->stage));
  EXPECT_EQ(psv->stageBytes[0], 1);
  EXPECT_FALSE(read(test::pixelPsvPart(20)));
}

/// A version 1 runtime info of `kind` with these element counts and vectors, no resources, an
/// empty string table, and the words that follow.
std::vector<uint8_t> psv1(ShaderKind kind, bool viewId, uint16_t extra, uint8_t inVectors,
                          std::array<uint8_t, 4> outVectors, std::span<const uint32_t> tail) {
  Bytes p;
  p.u32(36);
  for (int i = 0; i < 16; ++i)
    p.u8(uint8_t(i + 1));
  p.u32(0).u32(~0u).u8(uint8_t(kind)).u8(viewId).u16(extra);
  p.u8(0).u8(0).u8(0).u8(inVectors);
  for (uint8_t v : outVectors)
    p.u8(v);
  p.u32(0); // resources
  p.u32(0); // string table
  p.u32(0); // semantic indexes
  for (uint32_t w : tail)
    p.u32(w);
  return p.v;
}

TEST(DxilPsv, ReadsTheDependenceTablesOfEachStage) {
  // A geometry shader has a mask and a table per stream with vectors.
  std::vector<uint32_t> words(1 + 2 + 4 + 8 + 1, 7); // one word more than the tables
  Expected<PipelineStateValidation> gs =
      read(psv1(ShaderKind::Geometry, true, 300, 1, {1, 0, 9, 0}, words));
  ASSERT_TRUE(gs) << gs.error().format();
  EXPECT_EQ(gs->maxVertexCount, 300);
  EXPECT_EQ(gs->viewIdOutputMasks[0].size(), 1u);
  EXPECT_EQ(gs->viewIdOutputMasks[2].size(), 2u);
  EXPECT_EQ(gs->inputToOutputTables[0].size(), 4u);
  EXPECT_EQ(gs->inputToOutputTables[2].size(), 8u);
  EXPECT_EQ(gs->trailingBytes, 4u);
  ASSERT_TRUE(std::holds_alternative<PsvGeometryInfo>(gs->stage));
  EXPECT_EQ(std::get<PsvGeometryInfo>(gs->stage).inputPrimitive, 0x04030201u);

  // A hull shader: output masks, then the patch constant mask, then both tables.
  std::vector<uint32_t> hsWords(1 + 1 + 2 * 4 + 2 * 4, 1);
  Expected<PipelineStateValidation> hs =
      read(psv1(ShaderKind::Hull, true, 5, 2, {3, 0, 0, 0}, hsWords));
  ASSERT_TRUE(hs) << hs.error().format();
  EXPECT_EQ(hs->sigPatchConstOrPrimVectors, 5);
  EXPECT_EQ(hs->viewIdPatchConstOrPrimOutputMask.size(), 1u);
  EXPECT_EQ(hs->inputToOutputTables[0].size(), 8u);
  EXPECT_EQ(hs->inputToPatchConstOutputTable.size(), 8u);
  EXPECT_EQ(hs->trailingBytes, 0u);

  // A domain shader: the patch-constant-to-output table, no view ID here.
  std::vector<uint32_t> dsWords(1 * 2 * 4 + 1 * 3 * 4, 1);
  Expected<PipelineStateValidation> ds =
      read(psv1(ShaderKind::Domain, false, 3, 2, {4, 0, 0, 0}, dsWords));
  ASSERT_TRUE(ds) << ds.error().format();
  EXPECT_EQ(ds->inputToOutputTables[0].size(), 8u);
  EXPECT_EQ(ds->patchConstInputToOutputTable.size(), 12u);

  // A mesh shader has no input-to-output tables; its primitive mask follows the view ID's.
  std::vector<uint32_t> msWords(2, 1);
  Expected<PipelineStateValidation> ms =
      read(psv1(ShaderKind::Mesh, true, 2u << 8 | 1, 0, {1, 0, 0, 0}, msWords));
  ASSERT_TRUE(ms) << ms.error().format();
  EXPECT_EQ(ms->meshOutputTopology, 2);
  EXPECT_EQ(ms->sigPatchConstOrPrimVectors, 1);
  EXPECT_EQ(ms->viewIdPatchConstOrPrimOutputMask.size(), 1u);
  EXPECT_EQ(ms->trailingBytes, 0u);

  // One word short of the hull shader's tables.
  hsWords.pop_back();
  Expected<PipelineStateValidation> cut =
      read(psv1(ShaderKind::Hull, true, 5, 2, {3, 0, 0, 0}, hsWords));
  ASSERT_FALSE(cut);
  EXPECT_NE(cut.error().message.find("the input to patch constant table"), std::string::npos);
}

TEST(DxilPsv, AcceptsLargerRecordsAndRejectsSmallerOnes) {
  Bytes p;
  p.u32(24);
  for (int i = 0; i < 24; ++i)
    p.u8(0);
  p.u32(1).u32(32).u32(7).u32(1).u32(2).u32(3).u32(12).u32(0).u32(0xaa).u32(0xbb);
  Expected<PipelineStateValidation> psv = read(p.v);
  ASSERT_TRUE(psv) << psv.error().format();
  EXPECT_EQ(psv->resources[0].type, PsvResourceType::UAVRaw);
  EXPECT_EQ(psv->resources[0].kind, ResourceKind::StructuredBuffer);
  p.set32(32, 12);
  psv = read(p.v);
  ASSERT_FALSE(psv);
  EXPECT_EQ(psv.error().location.offset, 8u + 32); // the part header, then the size field
  // Version 0 bindings have no kind.
  p.set32(32, 16);
  p.v.resize(36 + 16);
  psv = read(p.v);
  ASSERT_TRUE(psv) << psv.error().format();
  EXPECT_EQ(psv->resources[0].kind, ResourceKind::Invalid);
}

TEST(DxilPsv, ChecksTheStringAndSemanticIndexTables) {
  std::vector<uint8_t> good = test::pixelPsvPart(52);
  size_t stringSize = 4 + 52 + 4 + 4 + 2 * 24;
  Bytes b{good};
  b.set32(stringSize, 15); // not a multiple of 4
  EXPECT_FALSE(read(b.v));
  size_t firstElement = stringSize + 4 + 16 + 4 + 12 + 4;
  b = Bytes{good};
  b.set32(firstElement + 16 + 4, 2); // TEXCOORD's two indexes start at the last entry
  Expected<PipelineStateValidation> psv = read(b.v);
  ASSERT_FALSE(psv);
  EXPECT_NE(psv.error().message.find("semantic indexes"), std::string::npos);
  b = Bytes{good};
  b.set32(firstElement + 16, 16); // TEXCOORD's name past the table
  EXPECT_FALSE(read(b.v));
  b = Bytes{good};
  b.set32(4 + 48, 15); // the entry name runs into the padding: still a string ("")
  EXPECT_TRUE(read(b.v));
}

TEST(DxilPsv, RejectsEveryTruncation) {
  std::vector<uint8_t> bytes = test::pixelPsvPart(52);
  for (size_t n = 0; n < bytes.size(); ++n) {
    Expected<PipelineStateValidation> psv = read({bytes.begin(), bytes.begin() + n});
    ASSERT_FALSE(psv) << n << " bytes";
    EXPECT_EQ(psv.error().location.scopeName(), "PSV0");
  }
}

} // namespace
} // namespace spire::dxil

namespace spire::dxil {
namespace {

TEST(DxilPsv, DecodesTheStageInformationOfEachKind) {
  // A version 0 part: the stage union holds 1, 2, 3, 4 as 32-bit words, and no resources.
  Bytes p;
  p.u32(24).u32(1).u32(2).u32(3).u32(4).u32(0).u32(~0u).u32(0);
  auto stage = [&](ShaderKind kind) {
    Expected<PipelineStateValidation> psv = read(p.v, kind);
    EXPECT_TRUE(psv) << psv.error().format();
    return psv ? psv->stage : PsvStageInfo{};
  };
  PsvHullInfo hs = std::get<PsvHullInfo>(stage(ShaderKind::Hull));
  EXPECT_EQ(hs.inputControlPointCount, 1u);
  EXPECT_EQ(hs.outputControlPointCount, 2u);
  EXPECT_STREQ(tessellatorDomainName(hs.tessellatorDomain), "quad");
  EXPECT_STREQ(tessellatorOutputPrimitiveName(hs.tessellatorOutputPrimitive), "triangle_ccw");
  PsvDomainInfo ds = std::get<PsvDomainInfo>(stage(ShaderKind::Domain));
  EXPECT_EQ(ds.inputControlPointCount, 1u);
  EXPECT_TRUE(ds.outputPositionPresent);
  EXPECT_EQ(ds.tessellatorDomain, 3u);
  EXPECT_TRUE(std::get<PsvVertexInfo>(stage(ShaderKind::Vertex)).outputPositionPresent);
  PsvGeometryInfo gs = std::get<PsvGeometryInfo>(stage(ShaderKind::Geometry));
  EXPECT_STREQ(inputPrimitiveName(gs.inputPrimitive), "point");
  EXPECT_STREQ(primitiveTopologyName(gs.outputTopology), "linelist");
  EXPECT_EQ(gs.outputStreamMask, 3u);
  EXPECT_TRUE(gs.outputPositionPresent);
  PsvMeshInfo ms = std::get<PsvMeshInfo>(stage(ShaderKind::Mesh));
  EXPECT_EQ(ms.groupSharedBytesUsed, 1u);
  EXPECT_EQ(ms.payloadSizeInBytes, 3u);
  EXPECT_EQ(ms.maxOutputVertices, 4);
  EXPECT_EQ(ms.maxOutputPrimitives, 0);
  EXPECT_EQ(std::get<PsvAmplificationInfo>(stage(ShaderKind::Amplification)).payloadSizeInBytes,
            1u);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(stage(ShaderKind::Compute)));
  EXPECT_STREQ(inputPrimitiveName(8 + 31), "patch32");
  EXPECT_EQ(inputPrimitiveName(4), nullptr);
}

} // namespace
} // namespace spire::dxil
