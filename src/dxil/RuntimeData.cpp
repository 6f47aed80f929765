#include "spire/dxil/RuntimeData.h"

#include "NameTable.h"

#include "PartReader.h"

#include <iterator>

namespace spire::dxil {

namespace {

constexpr uint32_t kNone = ~0u;
constexpr uint32_t kResourceSize = 32;
constexpr uint32_t kFunctionSize = 44;
constexpr uint32_t kFunction2Size = 52;
constexpr uint32_t kSubobjectSize = 24;
constexpr uint32_t kNodeIdSize = 8;
constexpr uint32_t kAttribSize = 8;
constexpr uint32_t kIONodeSize = 8;
constexpr uint32_t kNodeShaderSize = 20;

// Subobject kinds and node attribute kinds whose fields refer to something.
constexpr uint32_t kGlobalRootSignature = 1, kLocalRootSignature = 2, kStateObjectConfig = 0,
                   kExportsAssociation = 8, kShaderConfig = 9, kPipelineConfig = 10, kHitGroup = 11,
                   kPipelineConfig1 = 12;
constexpr uint32_t kFuncAttribId = 1, kFuncAttribNumThreads = 2, kFuncAttribShareInputOf = 3,
                   kFuncAttribDispatchGrid = 4, kFuncAttribMaxDispatchGrid = 7;
constexpr uint32_t kIOAttribOutputId = 1, kIOAttribRecordDispatchGrid = 5;

/// Whether a sub-part of this type is a table (a record count and stride, then the records).
/// Types spire does not know are kept as bytes.
bool isTable(RdatPartType type) {
  uint32_t t = uint32_t(type);
  return t == 3 || t == 4 || (t >= 6 && t <= 11) || (t >= 13 && t <= 21);
}

/// Decodes the tables once every sub-part is located, resolving what records refer to.
class Decoder {
public:
  Decoder(const detail::PartReader &r, RuntimeData &out) : r_(r), out_(out), budget_(r.size()) {}

  /// Locates the sub-parts; the string buffer, index arrays and raw bytes are taken here.
  std::optional<Diagnostic> locate() {
    if (auto e = r_.require(0, 8, "the runtime data header"))
      return e;
    out_.version = r_.u32(0);
    uint32_t count = r_.u32(4);
    if (auto e = r_.requireArray(8, count, 4, "the sub-part offsets"))
      return e;
    for (uint32_t i = 0; i < count; ++i) {
      uint32_t at = r_.u32(8 + 4 * uint64_t(i));
      if (auto e = r_.require(at, 8, "sub-part " + std::to_string(i) + "'s header"))
        return e;
      RdatPart p;
      p.type = RdatPartType(r_.u32(at));
      p.size = r_.u32(at + 4);
      p.fileOffset = r_.fileOffset(at);
      if (auto e = r_.require(at + 8, p.size, "sub-part " + std::to_string(i)))
        return e;
      detail::PartReader body = r_.sub(at + 8, p.size);
      p.isTable = isTable(p.type);
      if (p.isTable) {
        if (auto e = body.require(0, 8, "the table header"))
          return e;
        p.recordCount = body.u32(0);
        p.recordStride = body.u32(4);
        if (auto e = body.requireArray(8, p.recordCount, p.recordStride, "the table's records"))
          return e;
      }
      std::span<const uint8_t> bytes = body.bytes();
      for (const RdatPart &q : out_.parts)
        if (q.type == p.type &&
            (p.type == RdatPartType::StringBuffer || p.type == RdatPartType::IndexArrays ||
             p.type == RdatPartType::RawBytes))
          return r_.error(at, std::string("a second ") + rdatPartTypeName(p.type));
      switch (p.type) {
      case RdatPartType::StringBuffer:
        if (!bytes.empty() && bytes.back() != 0)
          return body.error(p.size - 1, "the string buffer does not end with a NUL");
        out_.strings = std::string_view(reinterpret_cast<const char *>(bytes.data()), bytes.size());
        p.decoded = true;
        break;
      case RdatPartType::IndexArrays:
        out_.indexArrays.resize(p.size / 4);
        for (size_t k = 0; k < out_.indexArrays.size(); ++k)
          out_.indexArrays[k] = body.u32(4 * k);
        p.decoded = true;
        break;
      case RdatPartType::RawBytes:
        out_.rawBytes = bytes;
        p.decoded = true;
        break;
      default:
        break;
      }
      out_.parts.push_back(p);
      bodies_.push_back(body);
    }
    return std::nullopt;
  }

  /// Decodes the tables, in an order where every table comes after the ones it refers to.
  std::optional<Diagnostic> decodeTables() {
    static constexpr RdatPartType kOrder[] = {RdatPartType::ResourceTable,
                                              RdatPartType::NodeIdTable,
                                              RdatPartType::NodeShaderIOAttribTable,
                                              RdatPartType::NodeShaderFuncAttribTable,
                                              RdatPartType::IONodeTable,
                                              RdatPartType::NodeShaderInfoTable,
                                              RdatPartType::FunctionTable,
                                              RdatPartType::SubobjectTable};
    for (RdatPartType type : kOrder) {
      bool seen = false;
      for (size_t i = 0; i < out_.parts.size(); ++i) {
        if (out_.parts[i].type != type)
          continue;
        if (seen) // records of two tables of one type would not know which they refer to
          return bodies_[i].error(0, std::string("a second ") + rdatPartTypeName(type));
        seen = true;
        if (auto e = decodeTable(out_.parts[i], bodies_[i]))
          return e;
      }
    }
    return std::nullopt;
  }

private:
  std::optional<Diagnostic> decodeTable(RdatPart &p, const detail::PartReader &body) {
    p.decoded = true;
    uint32_t minimum = 0;
    switch (p.type) {
    case RdatPartType::ResourceTable:
      minimum = kResourceSize;
      break;
    case RdatPartType::FunctionTable:
      minimum = kFunctionSize;
      break;
    case RdatPartType::SubobjectTable:
      minimum = kSubobjectSize;
      break;
    case RdatPartType::NodeIdTable:
      minimum = kNodeIdSize;
      break;
    case RdatPartType::NodeShaderIOAttribTable:
    case RdatPartType::NodeShaderFuncAttribTable:
      minimum = kAttribSize;
      break;
    case RdatPartType::IONodeTable:
      minimum = kIONodeSize;
      break;
    default:
      minimum = kNodeShaderSize;
      break;
    }
    if (p.recordCount && p.recordStride < minimum)
      return body.error(4, std::string(rdatPartTypeName(p.type)) + " records of " +
                               std::to_string(p.recordStride) + " bytes are smaller than " +
                               std::to_string(minimum));
    for (uint32_t i = 0; i < p.recordCount; ++i) {
      detail::PartReader rec = body.sub(8 + uint64_t(i) * p.recordStride, p.recordStride);
      std::optional<Diagnostic> e;
      switch (p.type) {
      case RdatPartType::ResourceTable:
        e = resource(rec);
        break;
      case RdatPartType::FunctionTable:
        e = function(rec);
        break;
      case RdatPartType::SubobjectTable:
        e = subobject(rec);
        break;
      case RdatPartType::NodeIdTable:
        e = nodeId(rec);
        break;
      case RdatPartType::NodeShaderIOAttribTable:
        e = ioAttrib(rec);
        break;
      case RdatPartType::NodeShaderFuncAttribTable:
        e = funcAttrib(rec);
        break;
      case RdatPartType::IONodeTable:
        e = ioNode(rec);
        break;
      default:
        e = nodeShader(rec);
        break;
      }
      if (e)
        return e;
    }
    return std::nullopt;
  }

  // References. `at` is the field's offset in the record; errors point at the field.

  std::optional<Diagnostic> string(const detail::PartReader &rec, uint64_t at,
                                   std::string_view &out) {
    uint32_t offset = rec.u32(at);
    if (offset == kNone)
      return std::nullopt;
    if (offset >= out_.strings.size())
      return rec.error(at, "string offset " + std::to_string(offset) +
                               " lies outside the string buffer's " +
                               std::to_string(out_.strings.size()) + " bytes");
    out = out_.strings.substr(offset, out_.strings.find('\0', offset) - offset);
    if (!budget_.take(out.size()))
      return overBudget(rec, at);
    return std::nullopt;
  }

  /// A string of an array of string offsets (a function's dependencies, a subobject's exports).
  std::optional<Diagnostic> arrayString(const detail::PartReader &rec, uint64_t at, uint32_t offset,
                                        std::vector<std::string_view> &out) {
    if (offset >= out_.strings.size())
      return rec.error(at, "string offset " + std::to_string(offset) +
                               " in an array lies outside the string buffer's " +
                               std::to_string(out_.strings.size()) + " bytes");
    out.push_back(out_.strings.substr(offset, out_.strings.find('\0', offset) - offset));
    if (!budget_.take(out.back().size()))
      return overBudget(rec, at);
    return std::nullopt;
  }

  Diagnostic overBudget(const detail::PartReader &rec, uint64_t at) const {
    return rec.error(at, "the records refer to more strings, indices and bytes than a part of " +
                             std::to_string(r_.size()) + " bytes can plausibly hold");
  }

  std::optional<Diagnostic> indexArray(const detail::PartReader &rec, uint64_t at,
                                       std::vector<uint32_t> &out) {
    uint32_t ref = rec.u32(at);
    if (ref == kNone)
      return std::nullopt;
    const std::vector<uint32_t> &t = out_.indexArrays;
    if (ref >= t.size() || t[ref] > t.size() - ref - 1)
      return rec.error(at, "index array " + std::to_string(ref) + " runs past the index arrays' " +
                               std::to_string(t.size()) + " entries");
    if (!budget_.take(4 * uint64_t(t[ref])))
      return overBudget(rec, at);
    out.assign(t.begin() + ref + 1, t.begin() + ref + 1 + t[ref]);
    return std::nullopt;
  }

  /// An array of indices of records of a table with `count` records.
  std::optional<Diagnostic> recordArray(const detail::PartReader &rec, uint64_t at, size_t count,
                                        std::vector<uint32_t> &out, std::string_view what) {
    if (auto e = indexArray(rec, at, out))
      return e;
    for (uint32_t index : out)
      if (index >= count)
        return rec.error(at, "refers to " + std::string(what) + " " + std::to_string(index) +
                                 " of " + std::to_string(count));
    return std::nullopt;
  }

  std::optional<Diagnostic> record(const detail::PartReader &rec, uint64_t at, size_t count,
                                   std::optional<uint32_t> &out, std::string_view what) {
    uint32_t index = rec.u32(at);
    if (index == kNone)
      return std::nullopt;
    if (index >= count)
      return rec.error(at, "refers to " + std::string(what) + " " + std::to_string(index) + " of " +
                               std::to_string(count));
    out = index;
    return std::nullopt;
  }

  // Records.

  std::optional<Diagnostic> resource(const detail::PartReader &rec) {
    RdatResource res;
    res.resourceClass = ResourceClass(rec.u32(0));
    res.kind = ResourceKind(rec.u32(4));
    res.id = rec.u32(8);
    res.space = rec.u32(12);
    res.lowerBound = rec.u32(16);
    res.upperBound = rec.u32(20);
    if (auto e = string(rec, 24, res.name))
      return e;
    res.flags = rec.u32(28);
    out_.resources.push_back(res);
    return std::nullopt;
  }

  std::optional<Diagnostic> function(const detail::PartReader &rec) {
    RdatFunction f;
    if (auto e = string(rec, 0, f.name))
      return e;
    if (auto e = string(rec, 4, f.unmangledName))
      return e;
    if (auto e = recordArray(rec, 8, out_.resources.size(), f.resources, "resource"))
      return e;
    std::vector<uint32_t> dependencies;
    if (auto e = indexArray(rec, 12, dependencies))
      return e;
    for (uint32_t offset : dependencies)
      if (auto e = arrayString(rec, 12, offset, f.dependencies))
        return e;
    f.shaderKind = ShaderKind(rec.u32(16));
    f.payloadSizeInBytes = rec.u32(20);
    f.attributeSizeInBytes = rec.u32(24);
    f.featureFlags = uint64_t(rec.u32(28)) | uint64_t(rec.u32(32)) << 32;
    f.shaderStageFlags = rec.u32(36);
    f.minShaderTarget = rec.u32(40);
    if (rec.size() >= kFunction2Size) {
      f.hasVersion2 = true;
      f.minimumExpectedWaveLaneCount = rec.u8(44);
      f.maximumExpectedWaveLaneCount = rec.u8(45);
      f.shaderFlags = rec.u16(46);
      f.stageInfoRef = rec.u32(48);
      if (f.shaderKind == ShaderKind::Node)
        if (auto e = record(rec, 48, out_.nodeShaders.size(), f.nodeShader, "node shader"))
          return e;
    }
    out_.functions.push_back(std::move(f));
    return std::nullopt;
  }

  std::optional<Diagnostic> subobject(const detail::PartReader &rec) {
    RdatSubobject s;
    s.kind = rec.u32(0);
    if (auto e = string(rec, 4, s.name))
      return e;
    for (int i = 0; i < 4; ++i)
      s.raw[i] = rec.u32(8 + 4 * i);
    switch (s.kind) {
    case kStateObjectConfig:
      s.stateObjectFlags = s.raw[0];
      break;
    case kGlobalRootSignature:
    case kLocalRootSignature:
      if (s.raw[0] > out_.rawBytes.size() || s.raw[1] > out_.rawBytes.size() - s.raw[0])
        return rec.error(8, "the root signature's " + std::to_string(s.raw[1]) +
                                " bytes at offset " + std::to_string(s.raw[0]) +
                                " run past the raw bytes' " + std::to_string(out_.rawBytes.size()));
      if (!budget_.take(s.raw[1]))
        return overBudget(rec, 12);
      s.rootSignature = out_.rawBytes.subspan(s.raw[0], s.raw[1]);
      break;
    case kExportsAssociation: {
      if (auto e = string(rec, 8, s.associatedSubobject))
        return e;
      std::vector<uint32_t> names;
      if (auto e = indexArray(rec, 12, names))
        return e;
      for (uint32_t offset : names)
        if (auto e = arrayString(rec, 12, offset, s.exports))
          return e;
      break;
    }
    case kShaderConfig:
      s.maxPayloadSizeInBytes = s.raw[0];
      s.maxAttributeSizeInBytes = s.raw[1];
      break;
    case kPipelineConfig:
      s.maxTraceRecursionDepth = s.raw[0];
      break;
    case kHitGroup:
      s.hitGroupType = s.raw[0];
      if (auto e = string(rec, 12, s.anyHit))
        return e;
      if (auto e = string(rec, 16, s.closestHit))
        return e;
      if (auto e = string(rec, 20, s.intersection))
        return e;
      break;
    case kPipelineConfig1:
      s.maxTraceRecursionDepth = s.raw[0];
      s.pipelineFlags = s.raw[1];
      break;
    default:
      break;
    }
    out_.subobjects.push_back(std::move(s));
    return std::nullopt;
  }

  std::optional<Diagnostic> nodeId(const detail::PartReader &rec) {
    RdatNodeId n;
    if (auto e = string(rec, 0, n.name))
      return e;
    n.index = rec.u32(4);
    out_.nodeIds.push_back(n);
    return std::nullopt;
  }

  std::optional<Diagnostic> ioAttrib(const detail::PartReader &rec) {
    RdatNodeIOAttrib a;
    a.kind = rec.u32(0);
    a.value = rec.u32(4);
    if (a.kind == kIOAttribOutputId)
      if (auto e = record(rec, 4, out_.nodeIds.size(), a.outputId, "node ID"))
        return e;
    if (a.kind == kIOAttribRecordDispatchGrid) {
      a.dispatchGridByteOffset = uint16_t(a.value);
      a.dispatchGridComponents = uint8_t(a.value >> 16 & 3);
      a.dispatchGridComponentType = uint16_t(a.value >> 18);
    }
    out_.nodeIOAttribs.push_back(a);
    return std::nullopt;
  }

  std::optional<Diagnostic> funcAttrib(const detail::PartReader &rec) {
    RdatNodeFuncAttrib a;
    a.kind = rec.u32(0);
    a.value = rec.u32(4);
    if (a.kind == kFuncAttribId || a.kind == kFuncAttribShareInputOf) {
      if (auto e = record(rec, 4, out_.nodeIds.size(), a.nodeId, "node ID"))
        return e;
    } else if (a.kind == kFuncAttribNumThreads || a.kind == kFuncAttribDispatchGrid ||
               a.kind == kFuncAttribMaxDispatchGrid) {
      if (auto e = indexArray(rec, 4, a.values))
        return e;
    }
    out_.nodeFuncAttribs.push_back(std::move(a));
    return std::nullopt;
  }

  std::optional<Diagnostic> ioNode(const detail::PartReader &rec) {
    RdatIONode n;
    n.ioFlagsAndKind = rec.u32(0);
    if (auto e = recordArray(rec, 4, out_.nodeIOAttribs.size(), n.attribs, "node I/O attribute"))
      return e;
    out_.ioNodes.push_back(std::move(n));
    return std::nullopt;
  }

  std::optional<Diagnostic> nodeShader(const detail::PartReader &rec) {
    RdatNodeShader n;
    n.launchType = rec.u32(0);
    n.groupSharedBytesUsed = rec.u32(4);
    if (auto e = recordArray(rec, 8, out_.nodeFuncAttribs.size(), n.attribs, "node attribute"))
      return e;
    if (auto e = recordArray(rec, 12, out_.ioNodes.size(), n.outputs, "I/O node"))
      return e;
    if (auto e = recordArray(rec, 16, out_.ioNodes.size(), n.inputs, "I/O node"))
      return e;
    out_.nodeShaders.push_back(std::move(n));
    return std::nullopt;
  }

  const detail::PartReader &r_;
  RuntimeData &out_;
  std::vector<detail::PartReader> bodies_;
  detail::ResolveBudget budget_;
};

} // namespace

Expected<RuntimeData> readRuntimeData(const ContainerPart &part) {
  detail::PartReader r(part);
  RuntimeData data;
  Decoder d(r, data);
  if (auto e = d.locate())
    return *e;
  if (auto e = d.decodeTables())
    return *e;
  return data;
}

const char *rdatPartTypeName(RdatPartType type) {
  static constexpr const char *kNames[] = {"Invalid",
                                           "StringBuffer",
                                           "IndexArrays",
                                           "ResourceTable",
                                           "FunctionTable",
                                           "RawBytes",
                                           "SubobjectTable",
                                           "NodeIDTable",
                                           "NodeShaderIOAttribTable",
                                           "NodeShaderFuncAttribTable",
                                           "IONodeTable",
                                           "NodeShaderInfoTable",
                                           nullptr,
                                           "SignatureElementTable",
                                           "VSInfoTable",
                                           "PSInfoTable",
                                           "HSInfoTable",
                                           "DSInfoTable",
                                           "GSInfoTable",
                                           "CSInfoTable",
                                           "MSInfoTable",
                                           "ASInfoTable"};
  return detail::nameAt(kNames, uint64_t(type));
}

const char *subobjectKindName(uint32_t kind) {
  static constexpr const char *kNames[] = {"StateObjectConfig",
                                           "GlobalRootSignature",
                                           "LocalRootSignature",
                                           nullptr,
                                           nullptr,
                                           nullptr,
                                           nullptr,
                                           nullptr,
                                           "SubobjectToExportsAssociation",
                                           "RaytracingShaderConfig",
                                           "RaytracingPipelineConfig",
                                           "HitGroup",
                                           "RaytracingPipelineConfig1"};
  return detail::nameAt(kNames, kind);
}

const char *nodeLaunchTypeName(uint32_t launchType) {
  static constexpr const char *kNames[] = {"Invalid", "Broadcasting", "Coalescing", "Thread",
                                           "Mesh"};
  return detail::nameAt(kNames, launchType);
}

const char *nodeFuncAttribKindName(uint32_t kind) {
  static constexpr const char *kNames[] = {"None",
                                           "ID",
                                           "NumThreads",
                                           "ShareInputOf",
                                           "DispatchGrid",
                                           "MaxRecursionDepth",
                                           "LocalRootArgumentsTableIndex",
                                           "MaxDispatchGrid"};
  return detail::nameAt(kNames, kind);
}

const char *nodeIOAttribKindName(uint32_t kind) {
  static constexpr const char *kNames[] = {"None",
                                           "OutputID",
                                           "MaxRecords",
                                           "MaxRecordsSharedWith",
                                           "RecordSizeInBytes",
                                           "RecordDispatchGrid",
                                           "OutputArraySize",
                                           "AllowSparseNodes",
                                           "RecordAlignmentInBytes",
                                           "MaxRecordsPerNode"};
  return detail::nameAt(kNames, kind);
}

const char *dxilComponentTypeName(uint32_t type) {
  static constexpr const char *kNames[] = {"invalid",   "i1",           "i16",         "u16",
                                           "i32",       "u32",          "i64",         "u64",
                                           "f16",       "f32",          "f64",         "snorm_f16",
                                           "unorm_f16", "snorm_f32",    "unorm_f32",   "snorm_f64",
                                           "unorm_f64", "packed_s8x32", "packed_u8x32"};
  return detail::nameAt(kNames, type);
}

const char *nodeIOKindName(uint32_t ioFlagsAndKind) {
  switch (ioFlagsAndKind & 0x7f) {
  case 0x09:
    return "EmptyInput";
  case 0x06:
    return "NodeOutput";
  case 0x16:
    return "NodeOutputArray";
  case 0x0a:
    return "EmptyOutput";
  case 0x1a:
    return "EmptyOutputArray";
  case 0x61:
    return "DispatchNodeInputRecord";
  case 0x41:
    return "GroupNodeInputRecords";
  case 0x21:
    return "ThreadNodeInputRecord";
  case 0x65:
    return "RWDispatchNodeInputRecord";
  case 0x45:
    return "RWGroupNodeInputRecords";
  case 0x25:
    return "RWThreadNodeInputRecord";
  case 0x46:
    return "GroupNodeOutputRecords";
  case 0x26:
    return "ThreadNodeOutputRecords";
  default:
    return nullptr;
  }
}

} // namespace spire::dxil
