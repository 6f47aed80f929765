#include "spire/dxil/ContainerSummary.h"
#include "spire/support/JsonWriter.h"

#include <algorithm>

namespace spire::dxil {

namespace {

/// A name from a table, or null when the table has none.
void nameOrNull(JsonWriter &w, std::string_view key, const char *name) {
  w.key(key);
  if (name)
    w.value(name);
  else
    w.null();
}

class JsonPrinter {
public:
  JsonPrinter(const ContainerInfo &info, JsonWriter &w) : info_(info), w_(w) {}

  void print() {
    w_.beginObject();
    container();
    program("program", info_.program);
    program("debugProgram", info_.debugProgram);
    program("statistics", info_.statistics);
    if (info_.featureInfo) {
      w_.key("featureInfo").beginObject().field("flags", info_.featureInfo->flags);
      w_.key("names").beginArray();
      for (const std::string &n : featureFlagNames(info_.featureInfo->flags))
        w_.value(n);
      w_.endArray().endObject();
    }
    if (info_.shaderHash)
      w_.key("shaderHash")
          .beginObject()
          .field("flags", info_.shaderHash->flags)
          .field("includesSource", info_.shaderHash->includesSource())
          .field("digest", digestHex(info_.shaderHash->digest))
          .endObject();
    if (const CompilerVersion *v = info_.compilerVersion ? &*info_.compilerVersion : nullptr)
      w_.key("compilerVersion")
          .beginObject()
          .field("major", v->major)
          .field("minor", v->minor)
          .field("flags", v->flags)
          .field("commitCount", v->commitCount)
          .field("commitSha", v->commitSha)
          .field("versionString", v->versionString)
          .endObject();
    if (info_.debugName)
      w_.key("debugName")
          .beginObject()
          .field("flags", info_.debugName->flags)
          .field("name", info_.debugName->name)
          .endObject();
    signature("inputSignature", info_.inputSignature);
    signature("outputSignature", info_.outputSignature);
    signature("patchConstantSignature", info_.patchConstantSignature);
    pipelineState();
    if (info_.rootSignature) {
      w_.key("rootSignature");
      rootSignature(*info_.rootSignature);
    }
    runtimeData();
    sourceInfo();
    w_.key("unknownParts").beginArray();
    for (size_t i : info_.unknownParts)
      w_.beginObject()
          .field("index", uint64_t(i))
          .field("fourcc", info_.container.parts[i].fourcc.str())
          .field("size", uint64_t(info_.container.parts[i].data.size()))
          .endObject();
    w_.endArray();
    w_.key("inconsistencies").beginArray();
    for (const std::string &p : checkConsistency(info_))
      w_.value(p);
    w_.endArray();
    w_.endObject();
  }

private:
  void container() {
    const Container &c = info_.container;
    w_.key("container")
        .beginObject()
        .field("majorVersion", c.majorVersion)
        .field("minorVersion", c.minorVersion)
        .field("size", c.declaredSize)
        .field("digest", digestHex(c.digest))
        .field("computedDigest", digestHex(info_.computedDigest))
        .field("digestStatus", digestStatusName(info_.digestStatus));
    w_.key("parts").beginArray();
    for (const ContainerPart &p : c.parts)
      w_.beginObject()
          .field("fourcc", p.fourcc.str())
          .field("fourccValue", p.fourcc.value)
          .field("offset", p.headerOffset)
          .field("size", uint64_t(p.data.size()))
          .endObject();
    w_.endArray().endObject();
  }

  void program(std::string_view key, const std::optional<ProgramHeader> &p) {
    if (!p)
      return;
    w_.key(key).beginObject().field("kind", unsigned(p->kind));
    nameOrNull(w_, "kindName", shaderKindName(p->kind));
    w_.field("shaderModel", shaderModelName(*p))
        .field("shaderModelMajor", p->shaderModelMajor)
        .field("shaderModelMinor", p->shaderModelMinor)
        .field("dxilMajor", p->dxilMajor)
        .field("dxilMinor", p->dxilMinor)
        .field("sizeInWords", p->sizeInWords)
        .field("bitcodeOffset", p->bitcodeFileOffset)
        .field("bitcodeSize", uint64_t(p->bitcode.size()))
        .endObject();
  }

  void signature(std::string_view key, const std::optional<ProgramSignature> &sig) {
    if (!sig)
      return;
    w_.key(key).beginArray();
    for (const SignatureElement &e : sig->elements) {
      w_.beginObject()
          .field("semanticName", e.semanticName)
          .field("semanticIndex", e.semanticIndex)
          .field("stream", e.stream)
          .field("systemValue", uint32_t(e.systemValue));
      nameOrNull(w_, "systemValueName", systemValueName(e.systemValue));
      w_.field("componentType", uint32_t(e.componentType));
      nameOrNull(w_, "componentTypeName", componentTypeName(e.componentType));
      w_.key("register");
      if (e.registerIndex == ~0u)
        w_.null();
      else
        w_.value(e.registerIndex);
      w_.field("mask", e.mask)
          .field("readWriteMask", e.readWriteMask)
          .field("minPrecision", uint32_t(e.minPrecision));
      nameOrNull(w_, "minPrecisionName", minPrecisionName(e.minPrecision));
      w_.endObject();
    }
    w_.endArray();
  }

  void words(std::string_view key, const std::vector<uint32_t> &v) {
    w_.key(key).beginArray();
    for (uint32_t x : v)
      w_.value(x);
    w_.endArray();
  }

  void stage(const PsvStageInfo &stage) {
    struct Visitor {
      JsonWriter &w;
      void operator()(std::monostate) const { w.null(); }
      void operator()(const PsvVertexInfo &v) const {
        w.beginObject().field("outputPositionPresent", v.outputPositionPresent).endObject();
      }
      void operator()(const PsvHullInfo &h) const {
        w.beginObject()
            .field("inputControlPointCount", h.inputControlPointCount)
            .field("outputControlPointCount", h.outputControlPointCount)
            .field("tessellatorDomain", h.tessellatorDomain)
            .field("tessellatorOutputPrimitive", h.tessellatorOutputPrimitive)
            .endObject();
      }
      void operator()(const PsvDomainInfo &d) const {
        w.beginObject()
            .field("inputControlPointCount", d.inputControlPointCount)
            .field("outputPositionPresent", d.outputPositionPresent)
            .field("tessellatorDomain", d.tessellatorDomain)
            .endObject();
      }
      void operator()(const PsvGeometryInfo &g) const {
        w.beginObject()
            .field("inputPrimitive", g.inputPrimitive)
            .field("outputTopology", g.outputTopology)
            .field("outputStreamMask", g.outputStreamMask)
            .field("outputPositionPresent", g.outputPositionPresent)
            .endObject();
      }
      void operator()(const PsvPixelInfo &p) const {
        w.beginObject()
            .field("depthOutput", p.depthOutput)
            .field("sampleFrequency", p.sampleFrequency)
            .endObject();
      }
      void operator()(const PsvMeshInfo &m) const {
        w.beginObject()
            .field("groupSharedBytesUsed", m.groupSharedBytesUsed)
            .field("groupSharedBytesDependentOnViewId", m.groupSharedBytesDependentOnViewId)
            .field("payloadSizeInBytes", m.payloadSizeInBytes)
            .field("maxOutputVertices", m.maxOutputVertices)
            .field("maxOutputPrimitives", m.maxOutputPrimitives)
            .endObject();
      }
      void operator()(const PsvAmplificationInfo &a) const {
        w.beginObject().field("payloadSizeInBytes", a.payloadSizeInBytes).endObject();
      }
    };
    w_.key("stageInfo");
    std::visit(Visitor{w_}, stage);
  }

  void psvElements(std::string_view key, const std::vector<PsvSignatureElement> &elements) {
    w_.key(key).beginArray();
    for (const PsvSignatureElement &e : elements) {
      w_.beginObject().field("semanticName", e.semanticName);
      words("semanticIndexes", e.semanticIndexes);
      w_.field("rows", e.rows)
          .field("startRow", e.startRow)
          .field("cols", e.cols)
          .field("startCol", e.startCol)
          .field("allocated", e.allocated)
          .field("semanticKind", unsigned(e.semanticKind));
      nameOrNull(w_, "semanticKindName", semanticKindName(e.semanticKind));
      w_.field("componentType", unsigned(e.componentType))
          .field("interpolationMode", unsigned(e.interpolationMode));
      nameOrNull(w_, "interpolationModeName", interpolationModeName(e.interpolationMode));
      w_.field("dynamicIndexMask", e.dynamicIndexMask)
          .field("outputStream", e.outputStream)
          .endObject();
    }
    w_.endArray();
  }

  void pipelineState() {
    if (!info_.pipelineStateValidation)
      return;
    const PipelineStateValidation &p = *info_.pipelineStateValidation;
    w_.key("pipelineStateValidation")
        .beginObject()
        .field("runtimeInfoSize", p.runtimeInfoSize)
        .field("version", p.version);
    w_.key("shaderStage");
    if (p.shaderStage)
      w_.value(unsigned(*p.shaderStage));
    else
      w_.null();
    stage(p.stage);
    w_.field("minimumWaveLaneCount", p.minimumWaveLaneCount)
        .field("maximumWaveLaneCount", p.maximumWaveLaneCount);
    if (p.version >= 1) {
      w_.field("usesViewId", p.usesViewId)
          .field("maxVertexCount", p.maxVertexCount)
          .field("sigPatchConstOrPrimVectors", p.sigPatchConstOrPrimVectors)
          .field("meshOutputTopology", p.meshOutputTopology)
          .field("sigInputElements", p.sigInputElements)
          .field("sigOutputElements", p.sigOutputElements)
          .field("sigPatchConstOrPrimElements", p.sigPatchConstOrPrimElements)
          .field("sigInputVectors", p.sigInputVectors);
      w_.key("sigOutputVectors").beginArray();
      for (uint8_t v : p.sigOutputVectors)
        w_.value(v);
      w_.endArray();
    }
    if (p.version >= 2) {
      w_.key("numThreads").beginArray();
      for (uint32_t n : p.numThreads)
        w_.value(n);
      w_.endArray();
    }
    if (p.version >= 3)
      w_.field("entryName", p.entryName);
    w_.field("resourceBindingSize", p.resourceBindingSize);
    w_.key("resources").beginArray();
    for (const PsvResourceBinding &b : p.resources) {
      w_.beginObject().field("type", uint32_t(b.type));
      nameOrNull(w_, "typeName", psvResourceTypeName(b.type));
      w_.field("space", b.space)
          .field("lowerBound", b.lowerBound)
          .field("upperBound", b.upperBound)
          .field("kind", uint32_t(b.kind));
      nameOrNull(w_, "kindName", resourceKindName(b.kind));
      w_.field("flags", b.flags).endObject();
    }
    w_.endArray();
    w_.field("stringTableSize", uint64_t(p.stringTable.size()));
    words("semanticIndexTable", p.semanticIndexTable);
    w_.field("signatureElementSize", p.signatureElementSize);
    psvElements("inputElements", p.inputElements);
    psvElements("outputElements", p.outputElements);
    psvElements("patchConstOrPrimElements", p.patchConstOrPrimElements);
    w_.key("viewIdOutputMasks").beginArray();
    for (const auto &m : p.viewIdOutputMasks) {
      w_.beginArray();
      for (uint32_t x : m)
        w_.value(x);
      w_.endArray();
    }
    w_.endArray();
    words("viewIdPatchConstOrPrimOutputMask", p.viewIdPatchConstOrPrimOutputMask);
    w_.key("inputToOutputTables").beginArray();
    for (const auto &m : p.inputToOutputTables) {
      w_.beginArray();
      for (uint32_t x : m)
        w_.value(x);
      w_.endArray();
    }
    w_.endArray();
    words("inputToPatchConstOutputTable", p.inputToPatchConstOutputTable);
    words("patchConstInputToOutputTable", p.patchConstInputToOutputTable);
    w_.field("trailingBytes", p.trailingBytes).endObject();
  }

  void rootSignature(const RootSignature &rs) {
    w_.beginObject().field("version", rs.version).field("flags", rs.flags);
    w_.key("parameters").beginArray();
    for (const RootParameter &p : rs.parameters) {
      w_.beginObject().field("type", uint32_t(p.type));
      nameOrNull(w_, "typeName", rootParameterTypeName(p.type));
      w_.field("shaderVisibility", p.shaderVisibility);
      if (p.type == RootParameterType::DescriptorTable) {
        w_.key("ranges").beginArray();
        for (const DescriptorRange &d : p.ranges)
          w_.beginObject()
              .field("rangeType", d.rangeType)
              .field("numDescriptors", d.numDescriptors)
              .field("baseShaderRegister", d.baseShaderRegister)
              .field("registerSpace", d.registerSpace)
              .field("flags", d.flags)
              .field("offsetInDescriptorsFromTableStart", d.offsetInDescriptorsFromTableStart)
              .endObject();
        w_.endArray();
      } else {
        w_.field("shaderRegister", p.shaderRegister).field("registerSpace", p.registerSpace);
        if (p.type == RootParameterType::Constants32Bit)
          w_.field("num32BitValues", p.num32BitValues);
        else
          w_.field("flags", p.flags);
      }
      w_.endObject();
    }
    w_.endArray();
    w_.key("staticSamplers").beginArray();
    for (const StaticSampler &s : rs.staticSamplers)
      w_.beginObject()
          .field("filter", s.filter)
          .field("addressU", s.addressU)
          .field("addressV", s.addressV)
          .field("addressW", s.addressW)
          .field("mipLodBias", double(s.mipLodBias))
          .field("maxAnisotropy", s.maxAnisotropy)
          .field("comparisonFunc", s.comparisonFunc)
          .field("borderColor", s.borderColor)
          .field("minLod", double(s.minLod))
          .field("maxLod", double(s.maxLod))
          .field("shaderRegister", s.shaderRegister)
          .field("registerSpace", s.registerSpace)
          .field("shaderVisibility", s.shaderVisibility)
          .field("flags", s.flags)
          .endObject();
    w_.endArray().endObject();
  }

  void strings(std::string_view key, const std::vector<std::string_view> &v) {
    w_.key(key).beginArray();
    for (std::string_view s : v)
      w_.value(s);
    w_.endArray();
  }

  void runtimeData() {
    if (!info_.runtimeData)
      return;
    const RuntimeData &rd = *info_.runtimeData;
    w_.key("runtimeData").beginObject().field("version", rd.version);
    w_.key("parts").beginArray();
    for (const RdatPart &p : rd.parts) {
      w_.beginObject().field("type", uint32_t(p.type));
      nameOrNull(w_, "typeName", rdatPartTypeName(p.type));
      w_.field("size", p.size).field("decoded", p.decoded);
      if (p.isTable)
        w_.field("recordCount", p.recordCount).field("recordStride", p.recordStride);
      w_.endObject();
    }
    w_.endArray();
    w_.field("stringBufferSize", uint64_t(rd.strings.size()))
        .field("indexArrayEntries", uint64_t(rd.indexArrays.size()))
        .field("rawBytesSize", uint64_t(rd.rawBytes.size()));
    w_.key("resources").beginArray();
    for (const RdatResource &r : rd.resources) {
      w_.beginObject().field("name", r.name).field("class", uint32_t(r.resourceClass));
      nameOrNull(w_, "className", resourceClassName(r.resourceClass));
      w_.field("kind", uint32_t(r.kind));
      nameOrNull(w_, "kindName", resourceKindName(r.kind));
      w_.field("id", r.id)
          .field("space", r.space)
          .field("lowerBound", r.lowerBound)
          .field("upperBound", r.upperBound)
          .field("flags", r.flags)
          .endObject();
    }
    w_.endArray();
    w_.key("functions").beginArray();
    for (const RdatFunction &f : rd.functions) {
      w_.beginObject()
          .field("name", f.name)
          .field("unmangledName", f.unmangledName)
          .field("shaderKind", unsigned(f.shaderKind));
      nameOrNull(w_, "shaderKindName", shaderKindName(f.shaderKind));
      words("resources", f.resources);
      strings("dependencies", f.dependencies);
      w_.field("payloadSizeInBytes", f.payloadSizeInBytes)
          .field("attributeSizeInBytes", f.attributeSizeInBytes)
          .field("featureFlags", f.featureFlags)
          .field("shaderStageFlags", f.shaderStageFlags)
          .field("minShaderTarget", f.minShaderTarget);
      if (f.hasVersion2) {
        w_.field("minimumExpectedWaveLaneCount", f.minimumExpectedWaveLaneCount)
            .field("maximumExpectedWaveLaneCount", f.maximumExpectedWaveLaneCount)
            .field("shaderFlags", f.shaderFlags)
            .field("stageInfoRef", f.stageInfoRef);
        if (f.nodeShader)
          w_.field("nodeShader", *f.nodeShader);
      }
      w_.endObject();
    }
    w_.endArray();
    w_.key("subobjects").beginArray();
    for (const RdatSubobject &s : rd.subobjects) {
      w_.beginObject().field("name", s.name).field("kind", s.kind);
      nameOrNull(w_, "kindName", subobjectKindName(s.kind));
      w_.key("raw").beginArray();
      for (uint32_t x : s.raw)
        w_.value(x);
      w_.endArray();
      if (s.kind == 1 || s.kind == 2) {
        w_.field("rootSignatureSize", uint64_t(s.rootSignature.size()));
        Expected<RootSignature> rs = readRootSignature(
            s.rootSignature, "RDAT",
            s.rootSignature.empty()
                ? 0
                : uint64_t(s.rootSignature.data() - info_.container.bytes.data()));
        w_.key("rootSignature");
        if (rs)
          rootSignature(*rs);
        else
          w_.null();
      } else if (s.kind == 8) {
        w_.field("subobject", s.associatedSubobject);
        strings("exports", s.exports);
      } else if (s.kind == 11) {
        w_.field("hitGroupType", s.hitGroupType)
            .field("anyHit", s.anyHit)
            .field("closestHit", s.closestHit)
            .field("intersection", s.intersection);
      }
      w_.endObject();
    }
    w_.endArray();
    w_.key("nodeIds").beginArray();
    for (const RdatNodeId &n : rd.nodeIds)
      w_.beginObject().field("name", n.name).field("index", n.index).endObject();
    w_.endArray();
    // The node tables as they are stored, records referring to one another by index: printing
    // what a record refers to inside it would multiply what records share.
    w_.key("nodeShaders").beginArray();
    for (const RdatNodeShader &n : rd.nodeShaders) {
      w_.beginObject()
          .field("launchType", n.launchType)
          .field("groupSharedBytesUsed", n.groupSharedBytesUsed);
      nameOrNull(w_, "launchTypeName", nodeLaunchTypeName(n.launchType));
      words("attribs", n.attribs);
      words("inputs", n.inputs);
      words("outputs", n.outputs);
      w_.endObject();
    }
    w_.endArray();
    w_.key("nodeFuncAttribs").beginArray();
    for (const RdatNodeFuncAttrib &attr : rd.nodeFuncAttribs) {
      w_.beginObject().field("kind", attr.kind).field("value", attr.value);
      nameOrNull(w_, "kindName", nodeFuncAttribKindName(attr.kind));
      if (attr.nodeId)
        w_.field("nodeId", *attr.nodeId);
      if (!attr.values.empty())
        words("values", attr.values);
      w_.endObject();
    }
    w_.endArray();
    w_.key("ioNodes").beginArray();
    for (const RdatIONode &io : rd.ioNodes) {
      w_.beginObject().field("ioFlagsAndKind", io.ioFlagsAndKind);
      nameOrNull(w_, "kindName", nodeIOKindName(io.ioFlagsAndKind));
      words("attribs", io.attribs);
      w_.endObject();
    }
    w_.endArray();
    w_.key("nodeIOAttribs").beginArray();
    for (const RdatNodeIOAttrib &attr : rd.nodeIOAttribs) {
      w_.beginObject().field("kind", attr.kind).field("value", attr.value);
      nameOrNull(w_, "kindName", nodeIOAttribKindName(attr.kind));
      if (attr.outputId)
        w_.field("nodeId", *attr.outputId);
      if (attr.kind == 5)
        w_.field("dispatchGridByteOffset", attr.dispatchGridByteOffset)
            .field("dispatchGridComponents", attr.dispatchGridComponents)
            .field("dispatchGridComponentType", attr.dispatchGridComponentType);
      w_.endObject();
    }
    w_.endArray().endObject();
  }

  void sourceInfo() {
    if (!info_.sourceInfo)
      return;
    const SourceInfo &si = *info_.sourceInfo;
    w_.key("sourceInfo").beginObject().field("flags", si.flags);
    w_.key("sections").beginArray();
    for (const SourceInfoSection &s : si.sections) {
      w_.beginObject().field("type", unsigned(s.type));
      nameOrNull(w_, "typeName", sourceInfoSectionName(s.type));
      w_.field("flags", s.flags).field("size", uint64_t(s.data.size())).endObject();
    }
    w_.endArray();
    w_.field("sourceFileCount", si.sourceFileCount)
        .field("sourceCompression", si.sourceCompression)
        .field("uncompressedSourceSize", si.uncompressedSourceSize)
        .field("compressedSourceSize", uint64_t(si.compressedSources.size()));
    w_.key("sources").beginArray();
    for (const SourceFile &f : si.sources)
      w_.beginObject().field("name", f.name).field("content", f.content).endObject();
    w_.endArray();
    strings("defines", si.defines);
    strings("args", si.args);
    w_.field("targetProfile", si.targetProfile).field("entryPoint", si.entryPoint).endObject();
  }

  const ContainerInfo &info_;
  JsonWriter &w_;
};

} // namespace

void printContainerJson(const ContainerInfo &info, std::string &out, int indent) {
  JsonWriter w(out, indent);
  JsonPrinter(info, w).print();
  out += '\n';
}

} // namespace spire::dxil
