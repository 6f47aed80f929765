#include "spire/dxil/DxilModule.h"

#include "DxilMetadataReader.h"
#include "DxilOpCalls.h"
#include "ViewIdStateReader.h"

#include <algorithm>
#include <array>

namespace spire::dxil {

namespace {

/// Decodes the named metadata into a DxilModule.
class Decoder {
public:
  Decoder(const LlvmModule &m, DxilModule &out) : r_(m), m_(m), out_(out) {}

  /// The named metadata the decoder reads, found in one pass (namedAt(k...)).
  enum NamedIndex : size_t {
    kVersion,
    kValver,
    kShaderModel,
    kResources,
    kEntryPoints,
    kTypeAnnotations,
    kViewIdState,
    kRootSignature,
    kNamedCount
  };
  static constexpr std::string_view kNamed[kNamedCount] = {
      "dx.version",     "dx.valver",          "dx.shaderModel", "dx.resources",
      "dx.entryPoints", "dx.typeAnnotations", "dx.viewIdState", "dx.rootSignature"};
  static_assert(kNamedCount <= DxilMetadataReader::kMaxNamed);
  static constexpr DxilMetadataReader::NamedSet kNamedSet = DxilMetadataReader::namedSet(kNamed);

  bool run() {
    r_.findNamed(kNamedSet);
    return version() && shaderModel() && resources() && entryPoints() && typeAnnotations() &&
           viewIdState() && rootSignature();
  }
  const Diagnostic &error() const { return r_.error(); }

private:
  DxilMetadataReader r_;
  const LlvmModule &m_;
  DxilModule &out_;

  [[gnu::always_inline]] bool versionPair(NamedIndex name, uint32_t &major, uint32_t &minor,
                                          bool &present) {
    std::span<const MetadataId> list = r_.namedAt(name);
    present = !list.empty();
    if (!present)
      return true;
    std::span<const MetadataId> ops;
    return r_.node(list[0], ops, 2) && r_.u32(ops[0], major, "major version") &&
           r_.u32(ops[1], minor, "minor version");
  }

  bool version() {
    bool present = false;
    if (!versionPair(kVersion, out_.dxilMajor, out_.dxilMinor, present))
      return false;
    if (!present)
      return r_.fail(kNoId, "missing");
    uint32_t major = 0, minor = 0;
    if (!versionPair(kValver, major, minor, present))
      return false;
    if (present)
      out_.validatorVersion = std::array<uint32_t, 2>{major, minor};
    return true;
  }

  bool shaderModel() {
    std::span<const MetadataId> list = r_.namedAt(kShaderModel);
    if (list.empty())
      return r_.fail(kNoId, "missing");
    std::span<const MetadataId> ops;
    std::string_view prefix;
    if (!r_.node(list[0], ops, 3) || !r_.text(ops[0], prefix, "shader kind") ||
        !r_.u32(ops[1], out_.shaderModelMajor, "major") ||
        !r_.u32(ops[2], out_.shaderModelMinor, "minor"))
      return false;
    // The prefixes differ in their first character: it picks the one kind to compare with.
    struct Prefixes {
      int8_t kindByFirst[256];
      std::string_view names[unsigned(ShaderKind::Node) + 1];
    };
    static const Prefixes kPrefixes = [] {
      Prefixes p{};
      std::fill(std::begin(p.kindByFirst), std::end(p.kindByFirst), int8_t(-1));
      for (unsigned k = 0; k <= unsigned(ShaderKind::Node); ++k)
        if (const char *name = shaderKindPrefix(ShaderKind(k)); name && name[0]) {
          p.names[k] = name;
          p.kindByFirst[uint8_t(name[0])] = int8_t(k);
        }
      return p;
    }();
    if (!prefix.empty())
      if (int k = kPrefixes.kindByFirst[uint8_t(prefix[0])]; k >= 0) {
        std::string_view name = kPrefixes.names[k];
        bool same = name.size() == prefix.size();
        for (size_t i = 1; same && i < name.size(); ++i)
          same = name[i] == prefix[i];
        if (same) {
          out_.kind = ShaderKind(k);
          return true;
        }
      }
    return r_.fail(ops[0], "unknown shader kind \"" + std::string(prefix) + "\"");
  }

  // -------------------------------------------------------------------------------------------
  // Resources

  /// A tag/value list: calls `decode(tag, value)` for each pair; a pair it does not take (returns
  /// false without failing) goes to `other`.
  template <class F> bool tagList(MetadataId list, std::vector<RawTag> &other, F decode) {
    std::span<const MetadataId> ops;
    if (!r_.optionalNode(list, ops))
      return false;
    if (ops.size() % 2)
      return r_.fail(list, "a tag list with an odd number of operands");
    for (size_t i = 0; i < ops.size(); i += 2) {
      uint32_t tag = 0;
      if (!r_.u32(ops[i], tag, "tag"))
        return false;
      if (!decode(tag, ops[i + 1])) {
        if (r_.failed())
          return false;
        other.push_back({tag, ops[i + 1]});
      }
    }
    return true;
  }

  [[gnu::always_inline]] bool boolean(MetadataId id, bool &out, std::string_view what) {
    int64_t v = 0;
    if (!r_.integer(id, v, what))
      return false;
    out = v != 0;
    return true;
  }

  bool resource(MetadataId id, ResourceClass c, uint32_t position, DxilResource &res) {
    static constexpr size_t kFields[] = {9, 11, 8, 8};
    std::span<const MetadataId> ops;
    if (!r_.node(id, ops, kFields[size_t(c)]))
      return false;
    res.resourceClass = c;
    res.node = id;
    if (!r_.u32(ops[0], res.id, "resource id") || !r_.value(ops[1], res.symbol, "symbol") ||
        !r_.string(ops[2], res.name, "name") || !r_.u32(ops[3], res.space, "space") ||
        !r_.u32(ops[4], res.lowerBound, "lower bound") ||
        !r_.u32(ops[5], res.rangeSize, "range size"))
      return false;
    if (res.id != position)
      return r_.fail(id, "resource id " + std::to_string(res.id) + " at position " +
                             std::to_string(position));
    if (res.symbol != kNoId)
      res.global = r_.stripCasts(res.symbol);
    uint32_t kind = 0;
    MetadataId tags = kNoId;
    switch (c) {
    case ResourceClass::SRV:
      if (!r_.u32(ops[6], kind, "shape") || !r_.u32(ops[7], res.sampleCount, "sample count"))
        return false;
      tags = ops[8];
      break;
    case ResourceClass::UAV:
      if (!r_.u32(ops[6], kind, "shape") ||
          !boolean(ops[7], res.globallyCoherent, "globally coherent") ||
          !boolean(ops[8], res.hasCounter, "counter") ||
          !boolean(ops[9], res.rasterizerOrdered, "rasterizer ordered"))
        return false;
      tags = ops[10];
      break;
    case ResourceClass::CBuffer:
      kind = uint32_t(ResourceKind::CBuffer);
      if (!r_.u32(ops[6], res.cbufferSize, "size"))
        return false;
      tags = ops[7];
      break;
    case ResourceClass::Sampler: {
      kind = uint32_t(ResourceKind::Sampler);
      uint32_t sk = 0;
      if (!r_.u32(ops[6], sk, "sampler kind"))
        return false;
      if (sk > uint32_t(SamplerKind::Mono))
        return r_.fail(ops[6], "unknown sampler kind " + std::to_string(sk));
      res.samplerKind = SamplerKind(sk);
      tags = ops[7];
      break;
    }
    }
    if (kind > uint32_t(ResourceKind::FeedbackTexture2DArray))
      return r_.fail(ops[6], "unknown resource kind " + std::to_string(kind));
    res.kind = ResourceKind(kind);
    return tagList(tags, res.otherTags, [&](uint32_t tag, MetadataId v) {
      uint32_t x = 0;
      switch (tag) {
      case 0:
        if (!r_.u32(v, x, "element type"))
          return false;
        if (x > uint32_t(DxilComponentType::PackedU8x32))
          return r_.fail(v, "unknown component type " + std::to_string(x));
        res.elementType = DxilComponentType(x);
        return true;
      case 1:
        if (!r_.u32(v, x, "stride"))
          return false;
        res.stride = x;
        return true;
      case 2:
        if (!r_.u32(v, x, "sampler feedback kind"))
          return false;
        res.samplerFeedbackKind = x;
        return true;
      case 3:
        return boolean(v, res.atomic64Use, "atomic64 use");
      default:
        return false;
      }
    });
  }

  bool resourceLists(MetadataId id, ResourceLists &out) {
    std::span<const MetadataId> lists;
    if (id == kNoId)
      return true;
    // An entry's lists are most often dx.resources' own node, decoded already.
    if (id == out_.resources.node && &out != &out_.resources) {
      out = out_.resources;
      return true;
    }
    if (!r_.node(id, lists, 4))
      return false;
    out.node = id;
    std::vector<DxilResource> *targets[] = {&out.srvs, &out.uavs, &out.cbvs, &out.samplers};
    for (size_t c = 0; c < 4; ++c) {
      std::span<const MetadataId> records;
      if (!r_.optionalNode(lists[c], records))
        return false;
      targets[c]->resize(records.size());
      for (size_t i = 0; i < records.size(); ++i)
        if (!resource(records[i], ResourceClass(c), uint32_t(i), (*targets[c])[i]))
          return false;
    }
    return true;
  }

  bool resources() {
    std::span<const MetadataId> list = r_.namedAt(kResources);
    return list.empty() || resourceLists(list[0], out_.resources);
  }

  // -------------------------------------------------------------------------------------------
  // Signatures

  [[gnu::always_inline]] bool element(MetadataId id, DxilSignatureElement &e) {
    std::span<const MetadataId> ops;
    if (!r_.node(id, ops, 11))
      return false;
    e.node = id;
    uint32_t componentType = 0, semanticKind = 0, interpolation = 0, cols = 0, startCol = 0,
             startRow = 0;
    if (!r_.u32(ops[0], e.id, "element id") || !r_.string(ops[1], e.name, "semantic name") ||
        !r_.u32(ops[2], componentType, "component type") ||
        !r_.u32(ops[3], semanticKind, "semantic kind") ||
        !r_.u32(ops[5], interpolation, "interpolation mode") || !r_.u32(ops[6], e.rows, "rows") ||
        !r_.u32(ops[7], cols, "columns") || !r_.u32(ops[8], startRow, "start row") ||
        !r_.u32(ops[9], startCol, "start column"))
      return false;
    if (componentType > uint32_t(DxilComponentType::PackedU8x32))
      return r_.fail(ops[2], "unknown component type " + std::to_string(componentType));
    if (semanticKind > uint32_t(SemanticKind::StartInstanceLocation))
      return r_.fail(ops[3], "unknown semantic kind " + std::to_string(semanticKind));
    if (interpolation > uint32_t(InterpolationMode::LinearNoperspectiveSample))
      return r_.fail(ops[5], "unknown interpolation mode " + std::to_string(interpolation));
    e.componentType = DxilComponentType(componentType);
    e.semanticKind = SemanticKind(semanticKind);
    e.interpolation = InterpolationMode(interpolation);
    e.cols = cols;
    e.startRow = int32_t(startRow);
    e.startCol = int32_t(startCol);
    std::span<const MetadataId> indices;
    if (!r_.optionalNode(ops[4], indices))
      return false;
    // Most elements' indices fit inside the element (no allocation).
    uint32_t *out = e.semanticIndices.resize(uint32_t(indices.size()));
    for (size_t i = 0; i < indices.size(); ++i)
      if (!r_.u32(indices[i], out[i], "semantic index"))
        return false;
    return tagList(ops[10], e.otherTags, [&](uint32_t tag, MetadataId v) {
      std::optional<uint32_t> *field = tag == 0   ? &e.outputStream
                                       : tag == 2 ? &e.dynamicIndexMask
                                       : tag == 3 ? &e.usageMask
                                                  : nullptr;
      uint32_t x = 0;
      if (!field || !r_.u32(v, x, "element property"))
        return false;
      *field = x;
      return true;
    });
  }

  bool signature(MetadataId id, std::vector<DxilSignatureElement> &out) {
    std::span<const MetadataId> elements;
    if (!r_.optionalNode(id, elements))
      return false;
    out.resize(elements.size());
    for (size_t i = 0; i < elements.size(); ++i)
      if (!element(elements[i], out[i]))
        return false;
    return true;
  }

  // -------------------------------------------------------------------------------------------
  // Entry points

  /// A node of `n` integer operands.
  template <size_t N>
  bool integers(MetadataId id, std::array<uint32_t, N> &out, std::string_view what) {
    std::span<const MetadataId> ops;
    if (!r_.node(id, ops, N))
      return false;
    for (size_t i = 0; i < N; ++i)
      if (!r_.u32(ops[i], out[i], what))
        return false;
    return true;
  }

  /// An integer or an !{i32, i32, i32} into an optional field.
  bool optionalU32(MetadataId v, std::optional<uint32_t> &out, std::string_view what) {
    uint32_t x = 0;
    if (!r_.u32(v, x, what))
      return false;
    out = x;
    return true;
  }
  bool optionalTriple(MetadataId v, std::optional<std::array<uint32_t, 3>> &out,
                      std::string_view what) {
    std::array<uint32_t, 3> a{};
    if (!integers(v, a, what))
      return false;
    out = a;
    return true;
  }

  bool properties(MetadataId id, EntryProperties &p) {
    return tagList(id, p.otherTags, [&](uint32_t tag, MetadataId v) {
      switch (tag) {
      case 0: {
        int64_t flags = 0;
        if (!r_.integer(v, flags, "shader flags"))
          return false;
        p.shaderFlags = uint64_t(flags);
        return true;
      }
      case 1: {
        std::array<uint32_t, 5> a{};
        if (!integers(v, a, "GS state"))
          return false;
        p.gs = GsState{a[0], a[1], a[2], a[3], a[4]};
        return true;
      }
      case 2: {
        std::array<uint32_t, 2> a{};
        if (!integers(v, a, "DS state"))
          return false;
        p.ds = DsState{a[0], a[1]};
        return true;
      }
      case 3: {
        std::span<const MetadataId> ops;
        HsState hs;
        std::array<uint32_t, 5> a{};
        double maxTess = 0;
        if (!r_.node(v, ops, 7) || !r_.value(ops[0], hs.patchConstantFunction, "patch constant"))
          return false;
        for (size_t i = 0; i < 5; ++i)
          if (!r_.u32(ops[1 + i], a[i], "HS state"))
            return false;
        if (!r_.floating(ops[6], maxTess, "max tessellation factor"))
          return false;
        hs.inputControlPoints = a[0];
        hs.outputControlPoints = a[1];
        hs.domain = a[2];
        hs.partitioning = a[3];
        hs.outputPrimitive = a[4];
        hs.maxTessFactor = float(maxTess);
        p.hs = hs;
        return true;
      }
      case 4:
        return optionalTriple(v, p.numThreads, "numthreads");
      case 5:
      case 6:
      case 7: {
        std::optional<uint32_t> *field = tag == 5   ? &p.autoBindingSpace
                                         : tag == 6 ? &p.rayPayloadSize
                                                    : &p.rayAttributeSize;
        // An i32, or (the auto-binding space) a node holding one.
        if (r_.isNode(v)) {
          std::span<const MetadataId> ops;
          if (!r_.node(v, ops, 1))
            return false;
          v = ops[0];
        }
        uint32_t x = 0;
        if (!r_.u32(v, x, "entry property"))
          return false;
        *field = x;
        return true;
      }
      case 8: {
        uint32_t x = 0;
        if (!r_.u32(v, x, "shader kind"))
          return false;
        if (x > uint32_t(ShaderKind::Node))
          return r_.fail(v, "unknown shader kind " + std::to_string(x));
        p.shaderKind = ShaderKind(x);
        return true;
      }
      case 9: {
        std::span<const MetadataId> ops;
        MsState ms;
        if (!r_.node(v, ops, 5) || !integers(ops[0], ms.numThreads, "MS numthreads") ||
            !r_.u32(ops[1], ms.maxVertexCount, "MS state") ||
            !r_.u32(ops[2], ms.maxPrimitiveCount, "MS state") ||
            !r_.u32(ops[3], ms.outputTopology, "MS state") ||
            !r_.u32(ops[4], ms.payloadSize, "MS state"))
          return false;
        p.ms = ms;
        return true;
      }
      case 10: {
        std::span<const MetadataId> ops;
        AsState as;
        if (!r_.node(v, ops, 2) || !integers(ops[0], as.numThreads, "AS numthreads") ||
            !r_.u32(ops[1], as.payloadSize, "AS state"))
          return false;
        p.as = as;
        return true;
      }
      case 11: {
        std::span<const MetadataId> ops;
        WaveSize w;
        if (!r_.node(v, ops, 1) || !r_.u32(ops[0], w.min, "wave size"))
          return false;
        if (ops.size() >= 3 &&
            (!r_.u32(ops[1], w.max, "wave size") || !r_.u32(ops[2], w.preferred, "wave size")))
          return false;
        p.waveSize = w;
        return true;
      }
      case 23: { // the SM 6.8 range form
        std::array<uint32_t, 3> a{};
        if (!integers(v, a, "wave size range"))
          return false;
        p.waveSize = WaveSize{a[0], a[1], a[2]};
        return true;
      }
      default:
        if (tag >= 13 && tag <= 22) {
          if (!p.node)
            p.node.emplace();
          return nodeProperty(tag, v, *p.node);
        }
        return false;
      }
    });
  }

  bool nodeId(MetadataId v, std::optional<NodeId> &out) {
    std::span<const MetadataId> ops;
    NodeId id;
    if (!r_.node(v, ops, 2) || !r_.string(ops[0], id.name, "node name") ||
        !r_.u32(ops[1], id.index, "node index"))
      return false;
    out = std::move(id);
    return true;
  }

  /// Work graph node tags 13-22 (DXIL 1.8).
  bool nodeProperty(uint32_t tag, MetadataId v, NodeProperties &n) {
    switch (tag) {
    case 13:
      return r_.u32(v, n.launch, "node launch type");
    case 14:
      return boolean(v, n.programEntry, "node program entry");
    case 15:
      return nodeId(v, n.id);
    case 16:
      return optionalU32(v, n.localRootArgumentsTableIndex,
                         "node local root arguments table index");
    case 17:
      return nodeId(v, n.sharesInputOf);
    case 18:
    case 22:
      return optionalTriple(v, tag == 18 ? n.dispatchGrid : n.maxDispatchGrid,
                            "node dispatch grid");
    case 19:
      return optionalU32(v, n.maxRecursionDepth, "node recursion depth");
    default: { // 20 inputs, 21 outputs
      std::span<const MetadataId> list;
      if (!r_.optionalNode(v, list))
        return false;
      std::vector<NodeIo> &out = tag == 20 ? n.inputs : n.outputs;
      for (MetadataId io : list) {
        out.emplace_back();
        if (!nodeIo(io, out.back()))
          return false;
      }
      return true;
    }
    }
  }

  bool nodeIo(MetadataId id, NodeIo &io) {
    std::vector<RawTag> ignored; // alignment and later additions
    return tagList(id, ignored, [&](uint32_t tag, MetadataId v) {
      switch (tag) {
      case 0: {
        std::optional<NodeId> target;
        if (!nodeId(v, target))
          return false;
        io.target = std::move(*target);
        return true;
      }
      case 1:
        return r_.u32(v, io.flags, "node input/output flags");
      case 2: { // the record type: its own tag list (0 size, 1 SV_DispatchGrid, 2 alignment)
        std::vector<RawTag> other;
        return tagList(v, other, [&](uint32_t rtag, MetadataId rv) {
          if (rtag == 0)
            return r_.u32(rv, io.recordSize, "node record size");
          return rtag == 1 && optionalTriple(rv, io.dispatchGrid, "SV_DispatchGrid");
        });
      }
      case 3:
        return r_.u32(v, io.maxRecords, "node max records");
      case 4:
        return optionalU32(v, io.maxRecordsSharedWith, "node max records shared with");
      case 5:
        return optionalU32(v, io.arraySize, "node array size");
      case 6:
        return boolean(v, io.allowSparse, "node allow sparse nodes");
      default:
        return false;
      }
    });
  }

  bool entryPoints() {
    std::span<const MetadataId> list = r_.namedAt(kEntryPoints);
    if (!out_.isLibrary() && list.size() != 1)
      return r_.fail(kNoId, "a " + std::string(shaderKindPrefix(out_.kind)) +
                                " shader needs exactly one entry point, found " +
                                std::to_string(list.size()));
    out_.entryPoints.resize(list.size());
    for (size_t i = 0; i < list.size(); ++i) {
      EntryPoint &e = out_.entryPoints[i];
      std::span<const MetadataId> ops, sigs;
      e.node = list[i];
      if (!r_.node(list[i], ops, 5) || !r_.value(ops[0], e.function, "entry function") ||
          !r_.string(ops[1], e.name, "entry name") || !r_.optionalNode(ops[2], sigs))
        return false;
      if (e.function != kNoId) {
        if (m_.values[e.function].kind != ValueKind::Function)
          return r_.fail(ops[0], "the entry is not a function");
        e.functionIndex = m_.values[e.function].index;
      }
      if (!sigs.empty() && sigs.size() < 3)
        return r_.fail(ops[2], "expected three signatures");
      if (!sigs.empty() &&
          (!signature(sigs[0], e.signatures.inputs) || !signature(sigs[1], e.signatures.outputs) ||
           !signature(sigs[2], e.signatures.patchConstants)))
        return false;
      if (!resourceLists(ops[3], e.resources) || !properties(ops[4], e.properties))
        return false;
      e.kind = out_.kind;
      if (e.properties.shaderKind)
        e.kind = *e.properties.shaderKind;
    }
    return true;
  }

  // -------------------------------------------------------------------------------------------
  // Type annotations

  bool fieldAnnotation(MetadataId id, FieldAnnotation &f) {
    return tagList(id, f.otherTags, [&](uint32_t tag, MetadataId v) {
      uint32_t x = 0;
      switch (tag) {
      case 0:
      case 1:
      case 8: {
        bool &flag = tag == 0 ? f.snorm : tag == 1 ? f.unorm : f.precise;
        return boolean(v, flag, "field flag");
      }
      case 2: {
        std::array<uint32_t, 3> a{};
        if (!integers(v, a, "matrix annotation"))
          return false;
        f.matrix = a;
        return true;
      }
      case 3:
        if (!r_.u32(v, x, "cbuffer offset"))
          return false;
        f.cbufferOffset = x;
        return true;
      case 4: {
        std::string s;
        if (!r_.string(v, s, "semantic"))
          return false;
        f.semantic = std::move(s);
        return true;
      }
      case 5:
        if (!r_.u32(v, x, "interpolation mode"))
          return false;
        if (x > uint32_t(InterpolationMode::LinearNoperspectiveSample))
          return r_.fail(v, "unknown interpolation mode " + std::to_string(x));
        f.interpolation = InterpolationMode(x);
        return true;
      case 6:
        return r_.string(v, f.name, "field name");
      case 7:
        if (!r_.u32(v, x, "component type"))
          return false;
        if (x > uint32_t(DxilComponentType::PackedU8x32))
          return r_.fail(v, "unknown component type " + std::to_string(x));
        f.componentType = DxilComponentType(x);
        return true;
      case 9:
        if (!r_.u32(v, x, "cbuffer used"))
          return false;
        f.cbUsed = x;
        return true;
      default:
        return false;
      }
    });
  }

  bool structAnnotation(ValueId v, MetadataId fieldsId) {
    StructAnnotation s;
    s.type = m_.typeOf(v);
    std::span<const MetadataId> fields;
    if (!r_.node(fieldsId, fields, 1) || !r_.u32(fields[0], s.sizeInBytes, "struct size"))
      return false;
    s.fields.resize(fields.size() - 1);
    for (size_t i = 1; i < fields.size(); ++i)
      if (!fieldAnnotation(fields[i], s.fields[i - 1]))
        return false;
    out_.structAnnotations.push_back(std::move(s));
    return true;
  }

  bool functionAnnotation(ValueId v, MetadataId paramsId) {
    FunctionAnnotation f;
    f.function = r_.stripCasts(v);
    std::span<const MetadataId> params;
    if (!r_.node(paramsId, params))
      return false;
    f.parameters.resize(params.size());
    for (size_t i = 0; i < params.size(); ++i) {
      ParameterAnnotation &p = f.parameters[i];
      std::span<const MetadataId> ops, indices;
      if (!r_.node(params[i], ops, 2) || !r_.u32(ops[0], p.inputOutput, "parameter kind") ||
          !fieldAnnotation(ops[1], p.field))
        return false;
      if (ops.size() > 2 && !r_.optionalNode(ops[2], indices))
        return false;
      for (MetadataId index : indices) {
        uint32_t x = 0;
        if (!r_.u32(index, x, "semantic index"))
          return false;
        p.semanticIndices.push_back(x);
      }
    }
    out_.functionAnnotations.push_back(std::move(f));
    return true;
  }

  bool typeAnnotations() {
    for (MetadataId id : r_.namedAt(kTypeAnnotations)) {
      std::span<const MetadataId> ops;
      uint32_t kind = 0;
      if (!r_.node(id, ops, 1) || !r_.u32(ops[0], kind, "annotation kind"))
        return false;
      if (kind > 1) {
        out_.otherTypeAnnotations.push_back(id); // a kind this model does not know: kept raw
        continue;
      }
      if (ops.size() % 2 != 1)
        return r_.fail(id, "annotation pairs expected after the kind");
      // One allocation for the record's annotations, not one per doubling (a few hundred at
      // most before they are read: a hostile count allocates no more than its records fill).
      const size_t pairs = std::min<size_t>(ops.size() / 2, 256);
      if (kind == 0)
        out_.structAnnotations.reserve(out_.structAnnotations.size() + pairs);
      else
        out_.functionAnnotations.reserve(out_.functionAnnotations.size() + pairs);
      for (size_t i = 1; i < ops.size(); i += 2) {
        ValueId v = kNoId;
        if (!r_.value(ops[i], v, "annotated value"))
          return false;
        if (v == kNoId)
          return r_.fail(ops[i], "null annotated value");
        if (kind == 0 ? !structAnnotation(v, ops[i + 1]) : !functionAnnotation(v, ops[i + 1]))
          return false;
      }
    }
    return true;
  }

  // -------------------------------------------------------------------------------------------

  bool viewIdState() {
    std::span<const MetadataId> list = r_.namedAt(kViewIdState);
    if (list.empty())
      return true;
    std::span<const MetadataId> ops;
    ValueId v = kNoId;
    if (!r_.node(list[0], ops, 1) || !r_.value(ops[0], v, "view ID state"))
      return false;
    const Constant *c = v == kNoId ? nullptr : m_.constant(v);
    if (!c)
      return r_.fail(ops[0], "view ID state: expected a constant array");
    if (c->kind == ConstantKind::Null)
      return true;
    if (c->kind != ConstantKind::Data || uint64_t(c->firstWord) + c->numWords > m_.words.size())
      return r_.fail(ops[0], "view ID state: expected an i32 array");
    std::span<const uint64_t> words = m_.wordsOf(*c);
    out_.viewIdState.resize(words.size());
    for (size_t i = 0; i < words.size(); ++i)
      out_.viewIdState[i] = uint32_t(words[i]);
    if (out_.viewIdState.empty())
      return true;
    // Read into the module's own state (no state built and moved in).
    std::string error;
    if (!detail::readViewIdState(out_.viewIdState, out_.kind, out_.viewId.emplace(), error)) {
      out_.viewId.reset();
      return r_.fail(ops[0], "view ID state: " + error);
    }
    return true;
  }

  bool rootSignature() {
    std::span<const MetadataId> list = r_.namedAt(kRootSignature);
    if (!list.empty())
      out_.rootSignature = list[0];
    return true;
  }
};

} // namespace

const std::vector<DxilResource> &ResourceLists::list(ResourceClass c) const {
  switch (c) {
  case ResourceClass::SRV:
    return srvs;
  case ResourceClass::UAV:
    return uavs;
  case ResourceClass::CBuffer:
    return cbvs;
  case ResourceClass::Sampler:
    break;
  }
  return samplers;
}

const DxilResource *ResourceLists::find(ResourceClass c, uint32_t id) const {
  const std::vector<DxilResource> &l = list(c);
  return id < l.size() ? &l[id] : nullptr;
}

std::span<const ValueId> DxilModule::opArguments(const DxilOpCall &call) const {
  std::span<const ValueId> ops = llvm->operandsOf(llvm->instructions[call.instruction]);
  return ops.size() >= 2 ? ops.subspan(2) : std::span<const ValueId>();
}

const EntryPoint *DxilModule::entryOf(uint32_t functionIndex) const {
  for (const EntryPoint &e : entryPoints)
    if (e.functionIndex == functionIndex)
      return &e;
  return nullptr;
}

std::string_view dxilComponentTypeName(DxilComponentType type) {
  static constexpr std::string_view kNames[] = {
      "invalid",   "i1",        "i16",       "u16",   "i32",       "u32",       "i64",
      "u64",       "f16",       "f32",       "f64",   "snorm_f16", "unorm_f16", "snorm_f32",
      "unorm_f32", "snorm_f64", "unorm_f64", "p32i8", "p32u8"};
  return size_t(type) < std::size(kNames) ? kNames[size_t(type)] : std::string_view();
}

Expected<DxilModule> decodeDxil(const LlvmModule &module,
                                std::optional<DxilContainerInfo> container) {
  // Decoded in place, and every path returns `result` (one object, made in place: no module
  // moved into the result, nor the result out).
  Expected<DxilModule> result(std::in_place);
  DxilModule &out = *result;
  out.llvm = &module;
  Decoder decoder(module, out);
  if (!decoder.run()) {
    result = decoder.error();
    return result;
  }
  if (container &&
      (container->kind != out.kind || container->shaderModelMajor != out.shaderModelMajor ||
       container->shaderModelMinor != out.shaderModelMinor)) {
    result = makeError(Location(), "!dx.shaderModel: " + std::string(shaderKindPrefix(out.kind)) +
                                       "_" + std::to_string(out.shaderModelMajor) + "_" +
                                       std::to_string(out.shaderModelMinor) +
                                       " differs from the program header's");
    return result;
  }
  if (std::optional<Diagnostic> error = resolveOpCalls(out))
    result = std::move(*error);
  return result;
}

} // namespace spire::dxil
