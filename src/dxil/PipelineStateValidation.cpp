#include "spire/dxil/PipelineStateValidation.h"

#include "NameTable.h"

#include "PartReader.h"

#include <algorithm>
#include <iterator>

namespace spire::dxil {

namespace {

constexpr uint32_t kRuntimeInfo0Size = 24;
constexpr uint32_t kRuntimeInfo1Size = 36;
constexpr uint32_t kRuntimeInfo2Size = 48;
constexpr uint32_t kRuntimeInfo3Size = 52;
constexpr uint32_t kBinding0Size = 16;
constexpr uint32_t kBinding1Size = 24;
constexpr uint32_t kElementSize = 16;

/// 32-bit words of a mask with one bit per component of `vectors` 4-component vectors.
uint32_t maskWords(uint32_t vectors) { return (vectors + 7) >> 3; }

/// Reads the part sequentially, each read checked and named.
class Cursor {
public:
  explicit Cursor(const detail::PartReader &r) : r_(r) {}
  uint64_t at() const { return at_; }

  std::optional<Diagnostic> u32(uint32_t &out, std::string_view what) {
    if (auto e = r_.require(at_, 4, what))
      return e;
    out = r_.u32(at_);
    at_ += 4;
    return std::nullopt;
  }
  /// `count` records of `size` bytes: returns their start.
  std::optional<Diagnostic> skip(uint64_t count, uint64_t size, std::string_view what,
                                 uint64_t &start) {
    if (auto e = r_.requireArray(at_, count, size, what))
      return e;
    start = at_;
    at_ += count * size;
    return std::nullopt;
  }
  std::optional<Diagnostic> words(uint64_t count, std::vector<uint32_t> &out,
                                  std::string_view what) {
    uint64_t start;
    if (auto e = skip(count, 4, what, start))
      return e;
    out.resize(count);
    for (uint64_t i = 0; i < count; ++i)
      out[i] = r_.u32(start + 4 * i);
    return std::nullopt;
  }

private:
  const detail::PartReader &r_;
  uint64_t at_ = 0;
};

PsvStageInfo decodeStage(const detail::PartReader &r, ShaderKind kind) {
  switch (kind) {
  case ShaderKind::Vertex:
    return PsvVertexInfo{r.u8(0) != 0};
  case ShaderKind::Hull:
    return PsvHullInfo{r.u32(0), r.u32(4), r.u32(8), r.u32(12)};
  case ShaderKind::Domain:
    return PsvDomainInfo{r.u32(0), r.u8(4) != 0, r.u32(8)};
  case ShaderKind::Geometry:
    return PsvGeometryInfo{r.u32(0), r.u32(4), r.u32(8), r.u8(12) != 0};
  case ShaderKind::Pixel:
    return PsvPixelInfo{r.u8(0) != 0, r.u8(1) != 0};
  case ShaderKind::Mesh:
    return PsvMeshInfo{r.u32(0), r.u32(4), r.u32(8), r.u16(12), r.u16(14)};
  case ShaderKind::Amplification:
    return PsvAmplificationInfo{r.u32(0)};
  default:
    return std::monostate{};
  }
}

/// A string of the table at `offset`; offset 0 of an empty table is the empty string.
Expected<std::string_view> tableString(const detail::PartReader &r, uint64_t tableAt,
                                       std::string_view table, uint32_t offset,
                                       std::string_view what) {
  if (table.empty() && offset == 0)
    return std::string_view();
  if (offset >= table.size())
    return r.error(tableAt, std::string(what) + " is at offset " + std::to_string(offset) +
                                " of a string table of " + std::to_string(table.size()) + " bytes");
  size_t end = table.find('\0', offset);
  if (end == std::string_view::npos)
    return r.error(tableAt + offset, std::string(what) + " has no terminating NUL in the table");
  return table.substr(offset, end - offset);
}

} // namespace

Expected<PipelineStateValidation> readPipelineStateValidation(const ContainerPart &part,
                                                              std::optional<ShaderKind> kind) {
  detail::PartReader r(part);
  Cursor c(r);
  PipelineStateValidation psv;
  if (auto e = c.u32(psv.runtimeInfoSize, "the runtime info size"))
    return *e;
  if (psv.runtimeInfoSize < kRuntimeInfo0Size)
    return r.error(0, "the runtime info takes " + std::to_string(psv.runtimeInfoSize) +
                          " bytes, fewer than version 0's " + std::to_string(kRuntimeInfo0Size));
  uint64_t info;
  if (auto e = c.skip(1, psv.runtimeInfoSize, "the runtime info", info))
    return *e;
  detail::PartReader ri = r.sub(info, psv.runtimeInfoSize);
  psv.version = psv.runtimeInfoSize >= kRuntimeInfo3Size   ? 3
                : psv.runtimeInfoSize >= kRuntimeInfo2Size ? 2
                : psv.runtimeInfoSize >= kRuntimeInfo1Size ? 1
                                                           : 0;
  std::span<const uint8_t> stage = ri.slice(0, 16);
  std::copy(stage.begin(), stage.end(), psv.stageBytes.begin());
  psv.minimumWaveLaneCount = ri.u32(16);
  psv.maximumWaveLaneCount = ri.u32(20);
  psv.shaderStage = kind;
  if (psv.version >= 1) {
    psv.shaderStage = ShaderKind(ri.u8(24));
    psv.usesViewId = ri.u8(25) != 0;
    uint16_t extra = ri.u16(26);
    switch (*psv.shaderStage) {
    case ShaderKind::Geometry:
      psv.maxVertexCount = extra;
      break;
    case ShaderKind::Hull:
    case ShaderKind::Domain:
      psv.sigPatchConstOrPrimVectors = uint8_t(extra);
      break;
    case ShaderKind::Mesh:
      psv.sigPatchConstOrPrimVectors = uint8_t(extra);
      psv.meshOutputTopology = uint8_t(extra >> 8);
      break;
    default:
      break;
    }
    psv.sigInputElements = ri.u8(28);
    psv.sigOutputElements = ri.u8(29);
    psv.sigPatchConstOrPrimElements = ri.u8(30);
    psv.sigInputVectors = ri.u8(31);
    for (int i = 0; i < 4; ++i)
      psv.sigOutputVectors[i] = ri.u8(32 + i);
  }
  if (psv.shaderStage)
    psv.stage = decodeStage(ri, *psv.shaderStage);
  if (psv.version >= 2)
    psv.numThreads = {ri.u32(36), ri.u32(40), ri.u32(44)};
  uint32_t entryNameOffset = psv.version >= 3 ? ri.u32(48) : 0;

  uint32_t resourceCount;
  if (auto e = c.u32(resourceCount, "the resource count"))
    return *e;
  if (resourceCount) {
    uint64_t sizeAt = c.at();
    if (auto e = c.u32(psv.resourceBindingSize, "the resource binding size"))
      return *e;
    if (psv.resourceBindingSize < kBinding0Size)
      return r.error(sizeAt, "resource bindings of " + std::to_string(psv.resourceBindingSize) +
                                 " bytes are smaller than version 0's 16");
    uint64_t start;
    if (auto e = c.skip(resourceCount, psv.resourceBindingSize, "the resource bindings", start))
      return *e;
    psv.resources.resize(resourceCount);
    for (uint32_t i = 0; i < resourceCount; ++i) {
      uint64_t at = start + uint64_t(i) * psv.resourceBindingSize;
      PsvResourceBinding &b = psv.resources[i];
      b.type = PsvResourceType(r.u32(at));
      b.space = r.u32(at + 4);
      b.lowerBound = r.u32(at + 8);
      b.upperBound = r.u32(at + 12);
      if (psv.resourceBindingSize >= kBinding1Size) {
        b.kind = ResourceKind(r.u32(at + 16));
        b.flags = r.u32(at + 20);
      }
    }
  }
  if (psv.version == 0) {
    psv.trailingBytes = uint32_t(r.size() - c.at());
    return psv;
  }

  uint32_t stringTableSize;
  uint64_t stringSizeAt = c.at();
  if (auto e = c.u32(stringTableSize, "the string table size"))
    return *e;
  if (stringTableSize % 4)
    return r.error(stringSizeAt, "the string table's size " + std::to_string(stringTableSize) +
                                     " is not a multiple of 4");
  uint64_t stringsAt;
  if (auto e = c.skip(1, stringTableSize, "the string table", stringsAt))
    return *e;
  std::span<const uint8_t> strings = r.slice(stringsAt, stringTableSize);
  psv.stringTable =
      std::string_view(reinterpret_cast<const char *>(strings.data()), strings.size());
  uint32_t indexEntries;
  if (auto e = c.u32(indexEntries, "the semantic index table size"))
    return *e;
  if (auto e = c.words(indexEntries, psv.semanticIndexTable, "the semantic index table"))
    return *e;
  detail::ResolveBudget budget(r.size());
  if (psv.version >= 3) {
    Expected<std::string_view> name =
        tableString(r, stringsAt, psv.stringTable, entryNameOffset, "the entry name");
    if (!name)
      return name.error();
    psv.entryName = *name;
  }

  struct Group {
    uint8_t count;
    std::vector<PsvSignatureElement> *out;
    const char *what;
  } groups[] = {
      {psv.sigInputElements, &psv.inputElements, "the input signature elements"},
      {psv.sigOutputElements, &psv.outputElements, "the output signature elements"},
      {psv.sigPatchConstOrPrimElements, &psv.patchConstOrPrimElements,
       "the patch constant or primitive signature elements"},
  };
  if (psv.sigInputElements || psv.sigOutputElements || psv.sigPatchConstOrPrimElements) {
    uint64_t sizeAt = c.at();
    if (auto e = c.u32(psv.signatureElementSize, "the signature element size"))
      return *e;
    if (psv.signatureElementSize < kElementSize)
      return r.error(sizeAt, "signature elements of " + std::to_string(psv.signatureElementSize) +
                                 " bytes are smaller than version 0's 16");
    for (const Group &g : groups) {
      uint64_t start;
      if (auto e = c.skip(g.count, psv.signatureElementSize, g.what, start))
        return *e;
      g.out->resize(g.count);
      for (uint32_t i = 0; i < g.count; ++i) {
        uint64_t at = start + uint64_t(i) * psv.signatureElementSize;
        PsvSignatureElement &el = (*g.out)[i];
        Expected<std::string_view> name =
            tableString(r, stringsAt, psv.stringTable, r.u32(at),
                        std::string("the semantic name of element ") + std::to_string(i));
        if (!name)
          return name.error();
        if (!budget.take(name->size()))
          return r.error(at, "the elements' semantic names add up to more than a part of " +
                                 std::to_string(r.size()) + " bytes can plausibly hold");
        el.semanticName = *name;
        uint32_t indexes = r.u32(at + 4);
        el.rows = r.u8(at + 8);
        el.startRow = r.u8(at + 9);
        uint8_t colsAndStart = r.u8(at + 10);
        el.cols = colsAndStart & 0xf;
        el.startCol = (colsAndStart >> 4) & 3;
        el.allocated = (colsAndStart >> 6) & 1;
        el.semanticKind = SemanticKind(r.u8(at + 11));
        el.componentType = ComponentType(r.u8(at + 12));
        el.interpolationMode = InterpolationMode(r.u8(at + 13));
        uint8_t dynamicAndStream = r.u8(at + 14);
        el.dynamicIndexMask = dynamicAndStream & 0xf;
        el.outputStream = (dynamicAndStream >> 4) & 3;
        if (el.rows && (indexes >= psv.semanticIndexTable.size() ||
                        el.rows > psv.semanticIndexTable.size() - indexes))
          return r.error(at + 4, "element " + std::to_string(i) + "'s " + std::to_string(el.rows) +
                                     " semantic indexes at entry " + std::to_string(indexes) +
                                     " run past the table's " +
                                     std::to_string(psv.semanticIndexTable.size()) + " entries");
        if (el.rows)
          el.semanticIndexes.assign(psv.semanticIndexTable.begin() + indexes,
                                    psv.semanticIndexTable.begin() + indexes + el.rows);
      }
    }
  }

  ShaderKind stageKind = psv.shaderStage.value_or(ShaderKind::Library);
  bool gs = stageKind == ShaderKind::Geometry, hs = stageKind == ShaderKind::Hull,
       ds = stageKind == ShaderKind::Domain, ms = stageKind == ShaderKind::Mesh;
  int streams = gs ? 4 : 1;
  if (psv.usesViewId) {
    for (int i = 0; i < streams; ++i)
      if (psv.sigOutputVectors[i])
        if (auto e = c.words(maskWords(psv.sigOutputVectors[i]), psv.viewIdOutputMasks[i],
                             "the view ID output mask"))
          return *e;
    if ((hs || ms) && psv.sigPatchConstOrPrimVectors)
      if (auto e = c.words(maskWords(psv.sigPatchConstOrPrimVectors),
                           psv.viewIdPatchConstOrPrimOutputMask,
                           "the view ID patch constant or primitive output mask"))
        return *e;
  }
  for (int i = 0; i < streams; ++i)
    if (!ms && psv.sigOutputVectors[i] && psv.sigInputVectors)
      if (auto e = c.words(uint64_t(maskWords(psv.sigOutputVectors[i])) * psv.sigInputVectors * 4,
                           psv.inputToOutputTables[i], "the input to output table"))
        return *e;
  if (hs && psv.sigPatchConstOrPrimVectors && psv.sigInputVectors)
    if (auto e =
            c.words(uint64_t(maskWords(psv.sigPatchConstOrPrimVectors)) * psv.sigInputVectors * 4,
                    psv.inputToPatchConstOutputTable, "the input to patch constant table"))
      return *e;
  if (ds && psv.sigOutputVectors[0] && psv.sigPatchConstOrPrimVectors)
    if (auto e = c.words(uint64_t(maskWords(psv.sigOutputVectors[0])) *
                             psv.sigPatchConstOrPrimVectors * 4,
                         psv.patchConstInputToOutputTable, "the patch constant to output table"))
      return *e;
  psv.trailingBytes = uint32_t(r.size() - c.at());
  return psv;
}

const char *psvResourceTypeName(PsvResourceType type) {
  static constexpr const char *kNames[] = {
      "Invalid",       "Sampler",  "CBV",    "SRVTyped",      "SRVRaw",
      "SRVStructured", "UAVTyped", "UAVRaw", "UAVStructured", "UAVStructuredWithCounter"};
  return detail::nameAt(kNames, uint64_t(type));
}

const char *semanticKindName(SemanticKind kind) {
  static constexpr const char *kNames[] = {"Arbitrary",
                                           "VertexID",
                                           "InstanceID",
                                           "Position",
                                           "RenderTargetArrayIndex",
                                           "ViewPortArrayIndex",
                                           "ClipDistance",
                                           "CullDistance",
                                           "OutputControlPointID",
                                           "DomainLocation",
                                           "PrimitiveID",
                                           "GSInstanceID",
                                           "SampleIndex",
                                           "IsFrontFace",
                                           "Coverage",
                                           "InnerCoverage",
                                           "Target",
                                           "Depth",
                                           "DepthLessEqual",
                                           "DepthGreaterEqual",
                                           "StencilRef",
                                           "DispatchThreadID",
                                           "GroupID",
                                           "GroupIndex",
                                           "GroupThreadID",
                                           "TessFactor",
                                           "InsideTessFactor",
                                           "ViewID",
                                           "Barycentrics",
                                           "ShadingRate",
                                           "CullPrimitive",
                                           "StartVertexLocation",
                                           "StartInstanceLocation"};
  return detail::nameAt(kNames, uint64_t(kind));
}

const char *interpolationModeName(InterpolationMode mode) {
  static constexpr const char *kNames[] = {"undefined",
                                           "constant",
                                           "linear",
                                           "linear centroid",
                                           "linear noperspective",
                                           "linear noperspective centroid",
                                           "linear sample",
                                           "linear noperspective sample"};
  return detail::nameAt(kNames, uint64_t(mode));
}

const char *tessellatorDomainName(uint32_t domain) {
  static constexpr const char *kNames[] = {"undefined", "isoline", "tri", "quad"};
  return detail::nameAt(kNames, domain);
}

const char *tessellatorOutputPrimitiveName(uint32_t primitive) {
  static constexpr const char *kNames[] = {"undefined", "point", "line", "triangle_cw",
                                           "triangle_ccw"};
  return detail::nameAt(kNames, primitive);
}

const char *inputPrimitiveName(uint32_t primitive) {
  static constexpr const char *kNames[] = {"undefined", "point", "line",    "triangle",
                                           nullptr,     nullptr, "lineadj", "triangleadj"};
  if (primitive < std::size(kNames))
    return kNames[primitive];
  static constexpr const char *kPatches[] = {
      "patch1",  "patch2",  "patch3",  "patch4",  "patch5",  "patch6",  "patch7",  "patch8",
      "patch9",  "patch10", "patch11", "patch12", "patch13", "patch14", "patch15", "patch16",
      "patch17", "patch18", "patch19", "patch20", "patch21", "patch22", "patch23", "patch24",
      "patch25", "patch26", "patch27", "patch28", "patch29", "patch30", "patch31", "patch32"};
  uint32_t patch = primitive - 8;
  return patch < std::size(kPatches) ? kPatches[patch] : nullptr;
}

const char *primitiveTopologyName(uint32_t topology) {
  static constexpr const char *kNames[] = {"undefined", "pointlist",    "linelist",
                                           "linestrip", "trianglelist", "trianglestrip"};
  return detail::nameAt(kNames, topology);
}

const char *meshOutputTopologyName(uint32_t topology) {
  static constexpr const char *kNames[] = {"undefined", "line", "triangle"};
  return detail::nameAt(kNames, topology);
}

} // namespace spire::dxil
