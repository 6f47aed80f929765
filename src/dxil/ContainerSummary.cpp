#include "spire/dxil/ContainerSummary.h"

#include "NameTable.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string_view>

namespace spire::dxil {

namespace {

std::string hex(uint64_t v, int digits = 0) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%0*llx", digits, static_cast<unsigned long long>(v));
  return buf;
}

/// A name from a table, or the value in decimal when the table has none.
std::string nameOr(const char *name, uint64_t value) {
  return name ? std::string(name) : std::to_string(value);
}

const char *hitGroupTypeName(uint32_t type) {
  return type == 0 ? "Triangle" : type == 1 ? "ProceduralPrimitive" : nullptr;
}

/// "1 record", "2 records".
std::string count(size_t n, const char *noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

// What the summary prints of a string, a list or a table cell is bounded, so that records that
// share long strings or long lists print in time and space linear in the container.
constexpr size_t kStringLimit = 120; ///< bytes of a quoted string
constexpr size_t kListLimit = 16;    ///< items of a list
constexpr size_t kCellLimit = 64;    ///< bytes of a table cell

/// The first kStringLimit bytes of a string with quotes and backslashes escaped, and every byte
/// that is not printable ASCII as \xNN: the summary stays ASCII, one line per line.
std::string escaped(std::string_view s) {
  std::string e;
  for (char c : s.substr(0, kStringLimit)) {
    if (c == '"' || c == '\\') {
      e += '\\';
      e += c;
    } else if (uint8_t(c) < 0x20 || uint8_t(c) >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", unsigned(uint8_t(c)));
      e += buf;
    } else {
      e += c;
    }
  }
  return e;
}

std::string quoted(std::string_view s) {
  std::string q = "\"" + escaped(s) + "\"";
  if (s.size() > kStringLimit)
    q += "... (" + std::to_string(s.size()) + " bytes)";
  return q;
}

/// The first kListLimit items of a list as `item(x)` joined by `separator`, then how many there
/// are in all.
template <class List, class Item>
std::string joined(const List &list, const char *separator, Item item) {
  std::string s;
  size_t n = 0;
  for (const auto &x : list) {
    if (n++ == kListLimit) {
      s += std::string(separator) + "... (" + std::to_string(list.size()) + " in all)";
      break;
    }
    s += (n == 1 ? "" : separator) + item(x);
  }
  return s;
}

/// A table printed with aligned columns under a header and a rule of dashes.
class Table {
public:
  /// Column titles; a title starting with '>' is right-aligned (the '>' is not printed).
  explicit Table(std::vector<std::string> titles) {
    for (std::string &t : titles) {
      bool right = !t.empty() && t[0] == '>';
      columns_.push_back({right ? t.substr(1) : t, right});
    }
  }
  void row(std::vector<std::string> cells) {
    for (std::string &c : cells)
      if (c.size() > kCellLimit)
        c = c.substr(0, kCellLimit - 3) + "...";
    rows_.push_back(std::move(cells));
  }

  void print(std::string &out, const char *prefix = "; ") const {
    std::vector<size_t> width(columns_.size());
    size_t widest = 0;
    for (size_t c = 0; c < columns_.size(); ++c) {
      width[c] = columns_[c].title.size();
      for (const auto &r : rows_)
        if (c < r.size())
          width[c] = std::max(width[c], r[c].size());
      widest = std::max(widest, width[c]);
    }
    // Each line is sized, then written in place, and its trailing spaces (the prefix's too)
    // taken back.
    const size_t prefixSize = std::strlen(prefix);
    auto line = [&](auto cell) {
      const size_t start = out.size();
      size_t size = prefixSize;
      for (size_t c = 0; c < columns_.size(); ++c) {
        size_t text = cell(c).size();
        bool padded = columns_[c].right || c + 1 < columns_.size();
        size += (c ? 1 : 0) + (padded ? std::max(width[c], text) : text);
      }
      out.resize(start + size);
      char *p = out.data() + start;
      std::memcpy(p, prefix, prefixSize);
      p += prefixSize;
      for (size_t c = 0; c < columns_.size(); ++c) {
        std::string_view text = cell(c);
        size_t pad = width[c] - std::min(width[c], text.size());
        if (c)
          *p++ = ' ';
        if (columns_[c].right) {
          std::memset(p, ' ', pad);
          p += pad;
        }
        if (!text.empty()) // an absent cell is a null view
          std::memcpy(p, text.data(), text.size());
        p += text.size();
        if (!columns_[c].right && c + 1 < columns_.size()) {
          std::memset(p, ' ', pad);
          p += pad;
        }
      }
      size_t end = size_t(p - out.data());
      while (end > start && out[end - 1] == ' ')
        --end;
      out.resize(end);
      out += '\n';
    };
    const std::string dashes(widest, '-');
    line([&](size_t c) { return std::string_view(columns_[c].title); });
    line([&](size_t c) { return std::string_view(dashes).substr(0, width[c]); });
    for (const auto &r : rows_)
      line([&](size_t c) { return c < r.size() ? std::string_view(r[c]) : std::string_view(); });
  }

private:
  struct Column {
    std::string title;
    bool right;
  };
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

class Printer {
public:
  Printer(const ContainerInfo &info, std::string &out) : info_(info), out_(out) {}

  void print() {
    header();
    parts();
    programs();
    versionAndHash();
    features();
    signature("Input signature", part::InputSignature, info_.inputSignature, true);
    signature("Output signature", part::OutputSignature, info_.outputSignature, false);
    signature(info_.pipelineStateValidation &&
                      info_.pipelineStateValidation->shaderStage == ShaderKind::Mesh
                  ? "Primitive signature"
                  : "Patch constant signature",
              part::PatchConstantSignature, info_.patchConstantSignature, false);
    pipelineState();
    rootSignature();
    runtimeData();
    sourceInfo();
    unknownParts();
    consistency();
  }

private:
  void line(const std::string &s = {}) {
    if (s.empty()) {
      out_ += ";\n";
      return;
    }
    out_ += "; ";
    out_ += s;
    out_ += '\n';
  }

  void header() {
    const Container &c = info_.container;
    line("DXIL container " + std::to_string(c.majorVersion) + "." + std::to_string(c.minorVersion) +
         ", " + std::to_string(c.declaredSize) + " bytes, " + std::to_string(c.parts.size()) +
         (c.parts.size() == 1 ? " part" : " parts"));
    std::string digest =
        "Digest: " + digestHex(c.digest) + " (" + digestStatusName(info_.digestStatus);
    if (info_.digestStatus == DigestStatus::Corrupt)
      digest += "; the bytes hash to " + digestHex(info_.computedDigest);
    line(digest + ")");
  }

  void parts() {
    line();
    Table t({"Part", ">Offset", ">Size", "Contents"});
    for (size_t i = 0; i < info_.container.parts.size(); ++i) {
      const ContainerPart &p = info_.container.parts[i];
      bool unknown = std::find(info_.unknownParts.begin(), info_.unknownParts.end(), i) !=
                     info_.unknownParts.end();
      t.row({p.fourcc.str(), std::to_string(p.headerOffset), std::to_string(p.data.size()),
             unknown ? "unknown, kept" : partDescription(p.fourcc)});
    }
    t.print(out_);
  }

  static std::string partDescription(FourCC code) {
    struct Entry {
      FourCC code;
      const char *what;
    } static constexpr kEntries[] = {
        {part::Dxil, "program"},
        {part::DebugDxil, "program with debug information"},
        {part::Statistics, "program with statistics"},
        {part::InputSignature, "input signature"},
        {part::OutputSignature, "output signature"},
        {part::PatchConstantSignature, "patch constant or primitive signature"},
        {part::PipelineStateValidation, "pipeline state validation"},
        {part::FeatureInfo, "feature flags"},
        {part::ShaderHash, "shader hash"},
        {part::CompilerVersion, "compiler version"},
        {part::RuntimeData, "runtime data"},
        {part::DebugName, "debug name"},
        {part::RootSignature, "root signature"},
        {part::SourceInfo, "source info"},
    };
    for (const Entry &e : kEntries)
      if (e.code == code)
        return e.what;
    return "";
  }

  void program(const char *what, const ProgramHeader &p) {
    line(std::string(what) + shaderModelName(p) + " (" +
         nameOr(shaderKindName(p.kind), unsigned(p.kind)) + "), DXIL " +
         std::to_string(p.dxilMajor) + "." + std::to_string(p.dxilMinor) + ", bitcode of " +
         std::to_string(p.bitcode.size()) + " bytes at file offset " +
         std::to_string(p.bitcodeFileOffset));
  }

  void programs() {
    if (!info_.program && !info_.debugProgram && !info_.statistics)
      return;
    line();
    if (info_.program)
      program("Shader: ", *info_.program);
    if (info_.debugProgram)
      program("Debug program (ILDB): ", *info_.debugProgram);
    if (info_.statistics)
      program("Statistics program (STAT): ", *info_.statistics);
  }

  void versionAndHash() {
    if (!info_.compilerVersion && !info_.shaderHash && !info_.debugName)
      return;
    line();
    if (const CompilerVersion *v = info_.compilerVersion ? &*info_.compilerVersion : nullptr) {
      std::string s = "Compiler: " + std::to_string(v->major) + "." + std::to_string(v->minor);
      if (!v->versionString.empty())
        s += " " + quoted(v->versionString);
      s += ", commit " + (v->commitSha.empty() ? std::string("unknown") : quoted(v->commitSha)) +
           ", " + std::to_string(v->commitCount) + " commits";
      if (v->flags & 1)
        s += ", debug build";
      if (v->flags & 2)
        s += ", internal build";
      line(s);
    }
    if (const ShaderHash *h = info_.shaderHash ? &*info_.shaderHash : nullptr)
      line("Shader hash: " + digestHex(h->digest) +
           (h->includesSource() ? " (includes the source)" : "") +
           (h->flags & ~1u ? ", flags " + hex(h->flags) : std::string()));
    if (info_.debugName)
      line("Debug name: " + quoted(info_.debugName->name));
  }

  void features() {
    if (!info_.featureInfo)
      return;
    line();
    uint64_t flags = info_.featureInfo->flags;
    std::vector<std::string> names = featureFlagNames(flags);
    line("Shader feature flags: " + hex(flags, 16) + (names.empty() ? " (none)" : ""));
    for (const std::string &n : names)
      line("  " + n);
  }

  void signature(const char *title, FourCC code, const std::optional<ProgramSignature> &sig,
                 bool input) {
    if (!sig)
      return;
    line();
    if (sig->elements.empty()) {
      line(std::string(title) + " (" + code.str() + "): no elements");
      return;
    }
    line(std::string(title) + " (" + code.str() + "):");
    line();
    bool streams = std::any_of(sig->elements.begin(), sig->elements.end(),
                               [](const SignatureElement &e) { return e.stream != 0; });
    bool precision =
        std::any_of(sig->elements.begin(), sig->elements.end(), [](const SignatureElement &e) {
          return e.minPrecision != MinPrecision::Default;
        });
    std::vector<std::string> titles = {"Name",      ">Index",  "Mask", ">Register",
                                       ">SysValue", ">Format", "Used"};
    if (precision)
      titles.push_back("Precision");
    if (streams)
      titles.push_back(">Stream");
    Table t(titles);
    for (const SignatureElement &e : sig->elements) {
      uint8_t used = input ? e.readWriteMask : uint8_t(e.mask & ~e.readWriteMask & 0xf);
      std::vector<std::string> row = {
          escaped(e.semanticName),
          std::to_string(e.semanticIndex),
          maskLetters(e.mask),
          e.registerIndex == ~0u ? "N/A" : std::to_string(e.registerIndex),
          nameOr(systemValueName(e.systemValue), uint32_t(e.systemValue)),
          nameOr(componentTypeName(e.componentType), uint32_t(e.componentType)),
          maskLetters(used)};
      if (precision)
        row.push_back(nameOr(minPrecisionName(e.minPrecision), uint32_t(e.minPrecision)));
      if (streams)
        row.push_back(std::to_string(e.stream));
      t.row(std::move(row));
    }
    t.print(out_);
  }

  void stageInfo(const PipelineStateValidation &psv) {
    struct Visitor {
      Printer &p;
      void operator()(std::monostate) const {}
      void operator()(const PsvVertexInfo &v) const {
        p.line("  OutputPositionPresent=" + std::to_string(v.outputPositionPresent));
      }
      void operator()(const PsvHullInfo &h) const {
        p.line("  InputControlPointCount=" + std::to_string(h.inputControlPointCount) +
               " OutputControlPointCount=" + std::to_string(h.outputControlPointCount));
        p.line("  TessellatorDomain=" +
               nameOr(tessellatorDomainName(h.tessellatorDomain), h.tessellatorDomain) +
               " TessellatorOutputPrimitive=" +
               nameOr(tessellatorOutputPrimitiveName(h.tessellatorOutputPrimitive),
                      h.tessellatorOutputPrimitive));
      }
      void operator()(const PsvDomainInfo &d) const {
        p.line("  InputControlPointCount=" + std::to_string(d.inputControlPointCount) +
               " OutputPositionPresent=" + std::to_string(d.outputPositionPresent));
        p.line("  TessellatorDomain=" +
               nameOr(tessellatorDomainName(d.tessellatorDomain), d.tessellatorDomain));
      }
      void operator()(const PsvGeometryInfo &g) const {
        p.line(
            "  InputPrimitive=" + nameOr(inputPrimitiveName(g.inputPrimitive), g.inputPrimitive) +
            " OutputTopology=" + nameOr(primitiveTopologyName(g.outputTopology), g.outputTopology) +
            " OutputStreamMask=" + std::to_string(g.outputStreamMask) +
            " OutputPositionPresent=" + std::to_string(g.outputPositionPresent));
      }
      void operator()(const PsvPixelInfo &ps) const {
        p.line("  DepthOutput=" + std::to_string(ps.depthOutput) +
               " SampleFrequency=" + std::to_string(ps.sampleFrequency));
      }
      void operator()(const PsvMeshInfo &m) const {
        p.line("  GroupSharedBytesUsed=" + std::to_string(m.groupSharedBytesUsed) +
               " GroupSharedBytesDependentOnViewID=" +
               std::to_string(m.groupSharedBytesDependentOnViewId) +
               " PayloadSizeInBytes=" + std::to_string(m.payloadSizeInBytes));
        p.line("  MaxOutputVertices=" + std::to_string(m.maxOutputVertices) +
               " MaxOutputPrimitives=" + std::to_string(m.maxOutputPrimitives));
      }
      void operator()(const PsvAmplificationInfo &a) const {
        p.line("  PayloadSizeInBytes=" + std::to_string(a.payloadSizeInBytes));
      }
    };
    std::visit(Visitor{*this}, psv.stage);
  }

  void psvElements(const char *title, const std::vector<PsvSignatureElement> &elements) {
    if (elements.empty())
      return;
    line();
    line(std::string("PSV0 ") + title + " elements:");
    line();
    Table t({"Name", "Indexes", ">Rows", ">StartRow", ">Cols", ">StartCol", "Kind", "Format",
             "Interpolation", ">DynIndexMask", ">Stream"});
    for (const PsvSignatureElement &e : elements) {
      std::string indexes;
      for (uint32_t i : e.semanticIndexes)
        indexes += (indexes.empty() ? "" : ",") + std::to_string(i);
      t.row({escaped(e.semanticName), indexes, std::to_string(e.rows),
             e.allocated ? std::to_string(e.startRow) : "N/A", std::to_string(e.cols),
             e.allocated ? std::to_string(e.startCol) : "N/A",
             nameOr(semanticKindName(e.semanticKind), uint32_t(e.semanticKind)),
             nameOr(componentTypeName(e.componentType), uint32_t(e.componentType)),
             nameOr(interpolationModeName(e.interpolationMode), uint32_t(e.interpolationMode)),
             maskLetters(e.dynamicIndexMask), std::to_string(e.outputStream)});
    }
    t.print(out_);
  }

  void pipelineState() {
    if (!info_.pipelineStateValidation)
      return;
    const PipelineStateValidation &psv = *info_.pipelineStateValidation;
    line();
    line("Pipeline runtime information (PSV0 version " + std::to_string(psv.version) + ", " +
         std::to_string(psv.runtimeInfoSize) + " bytes):");
    line();
    if (psv.shaderStage)
      line("  Stage: " + nameOr(shaderKindName(*psv.shaderStage), unsigned(*psv.shaderStage)));
    stageInfo(psv);
    line("  MinimumExpectedWaveLaneCount=" + std::to_string(psv.minimumWaveLaneCount) +
         " MaximumExpectedWaveLaneCount=" + std::to_string(psv.maximumWaveLaneCount));
    if (psv.version >= 1) {
      line("  UsesViewID=" + std::to_string(psv.usesViewId));
      if (psv.shaderStage == ShaderKind::Geometry)
        line("  MaxVertexCount=" + std::to_string(psv.maxVertexCount));
      if (psv.shaderStage == ShaderKind::Hull || psv.shaderStage == ShaderKind::Domain ||
          psv.shaderStage == ShaderKind::Mesh)
        line("  SigPatchConstOrPrimVectors=" + std::to_string(psv.sigPatchConstOrPrimVectors));
      if (psv.shaderStage == ShaderKind::Mesh)
        line("  MeshOutputTopology=" +
             nameOr(meshOutputTopologyName(psv.meshOutputTopology), psv.meshOutputTopology));
      line("  SigInputElements=" + std::to_string(psv.sigInputElements) +
           " SigOutputElements=" + std::to_string(psv.sigOutputElements) +
           " SigPatchConstOrPrimElements=" + std::to_string(psv.sigPatchConstOrPrimElements));
      line("  SigInputVectors=" + std::to_string(psv.sigInputVectors) + " SigOutputVectors=[" +
           std::to_string(psv.sigOutputVectors[0]) + "," + std::to_string(psv.sigOutputVectors[1]) +
           "," + std::to_string(psv.sigOutputVectors[2]) + "," +
           std::to_string(psv.sigOutputVectors[3]) + "]");
    }
    if (psv.version >= 2 && (psv.numThreads[0] || psv.numThreads[1] || psv.numThreads[2]))
      line("  NumThreads=(" + std::to_string(psv.numThreads[0]) + "," +
           std::to_string(psv.numThreads[1]) + "," + std::to_string(psv.numThreads[2]) + ")");
    if (psv.version >= 3)
      line("  EntryFunctionName=" + quoted(psv.entryName));
    if (psv.trailingBytes)
      line("  " + std::to_string(psv.trailingBytes) + " bytes follow the last table");
    dependenceSummary(psv);
    psvElements("input", psv.inputElements);
    psvElements("output", psv.outputElements);
    psvElements(psv.shaderStage == ShaderKind::Mesh ? "primitive" : "patch constant",
                psv.patchConstOrPrimElements);
    line();
    if (psv.resources.empty()) {
      line("Resource bindings (PSV0): none");
      return;
    }
    line("Resource bindings (PSV0):");
    line();
    Table t({"Type", "Kind", ">Space", ">Lower", ">Upper", "Flags"});
    for (const PsvResourceBinding &b : psv.resources)
      t.row(
          {nameOr(psvResourceTypeName(b.type), uint32_t(b.type)),
           psv.resourceBindingSize >= 24 ? nameOr(resourceKindName(b.kind), uint32_t(b.kind)) : "",
           std::to_string(b.space), std::to_string(b.lowerBound),
           b.upperBound == ~0u ? "unbounded" : std::to_string(b.upperBound),
           b.flags & 1 ? "Atomics64" : (b.flags ? hex(b.flags) : "")});
    t.print(out_);
  }

  /// The view-ID and input-to-output masks as counts of set bits: what depends on what.
  void dependenceSummary(const PipelineStateValidation &psv) {
    auto bits = [](const std::vector<uint32_t> &words) {
      size_t n = 0;
      for (uint32_t w : words)
        n += size_t(__builtin_popcount(w));
      return n;
    };
    for (int s = 0; s < 4; ++s) {
      if (!psv.viewIdOutputMasks[s].empty())
        line("  Outputs of stream " + std::to_string(s) + " depending on the view ID: " +
             std::to_string(bits(psv.viewIdOutputMasks[s])) + " components");
      if (!psv.inputToOutputTables[s].empty())
        line("  Input-to-output dependences of stream " + std::to_string(s) + ": " +
             std::to_string(bits(psv.inputToOutputTables[s])));
    }
    if (!psv.viewIdPatchConstOrPrimOutputMask.empty())
      line("  Patch constant or primitive outputs depending on the view ID: " +
           std::to_string(bits(psv.viewIdPatchConstOrPrimOutputMask)) + " components");
    if (!psv.inputToPatchConstOutputTable.empty())
      line("  Input-to-patch-constant dependences: " +
           std::to_string(bits(psv.inputToPatchConstOutputTable)));
    if (!psv.patchConstInputToOutputTable.empty())
      line("  Patch-constant-to-output dependences: " +
           std::to_string(bits(psv.patchConstInputToOutputTable)));
  }

  void rootSignatureBody(const RootSignature &rs) {
    line("  Version " + nameOr(rootSignatureVersionName(rs.version), rs.version) + ", flags " +
         hex(rs.flags) + ", " + count(rs.parameters.size(), "parameter") + ", " +
         count(rs.staticSamplers.size(), "static sampler"));
    for (size_t i = 0; i < rs.parameters.size(); ++i) {
      const RootParameter &p = rs.parameters[i];
      std::string s = "  [" + std::to_string(i) + "] " +
                      nameOr(rootParameterTypeName(p.type), uint32_t(p.type)) + ", visibility " +
                      nameOr(shaderVisibilityName(p.shaderVisibility), p.shaderVisibility);
      if (p.type == RootParameterType::DescriptorTable) {
        line(s + ", " + count(p.ranges.size(), "range"));
        for (const DescriptorRange &d : p.ranges)
          line("      " + nameOr(descriptorRangeTypeName(d.rangeType), d.rangeType) + " " +
               (d.numDescriptors == ~0u ? "unbounded" : std::to_string(d.numDescriptors)) +
               " at register " + std::to_string(d.baseShaderRegister) + ", space " +
               std::to_string(d.registerSpace) + ", offset " +
               (d.offsetInDescriptorsFromTableStart == ~0u
                    ? "appended"
                    : std::to_string(d.offsetInDescriptorsFromTableStart)) +
               (d.flags ? ", flags " + hex(d.flags) : ""));
      } else {
        s += ", register " + std::to_string(p.shaderRegister) + ", space " +
             std::to_string(p.registerSpace);
        if (p.type == RootParameterType::Constants32Bit)
          s += ", " + std::to_string(p.num32BitValues) + " constants";
        if (p.flags)
          s += ", flags " + hex(p.flags);
        line(s);
      }
    }
    for (size_t i = 0; i < rs.staticSamplers.size(); ++i) {
      const StaticSampler &ss = rs.staticSamplers[i];
      line("  Static sampler " + std::to_string(i) + ": register " +
           std::to_string(ss.shaderRegister) + ", space " + std::to_string(ss.registerSpace) +
           ", visibility " +
           nameOr(shaderVisibilityName(ss.shaderVisibility), ss.shaderVisibility) + ", filter " +
           hex(ss.filter) + ", address " + std::to_string(ss.addressU) + "/" +
           std::to_string(ss.addressV) + "/" + std::to_string(ss.addressW));
    }
  }

  void rootSignature() {
    if (!info_.rootSignature)
      return;
    line();
    line("Root signature (RTS0):");
    rootSignatureBody(*info_.rootSignature);
  }

  static std::string stageFlags(uint32_t flags) {
    if (flags == 0xffff)
      return "all";
    std::string s;
    for (unsigned k = 0; k < 32; ++k)
      if (flags >> k & 1) {
        const char *name = shaderKindName(ShaderKind(k));
        s += (s.empty() ? "" : "|") + nameOr(name, k);
      }
    return s.empty() ? "none" : s;
  }

  static std::string target(uint32_t minShaderTarget) {
    ProgramHeader h;
    h.kind = ShaderKind(minShaderTarget >> 16);
    h.shaderModelMajor = uint8_t(minShaderTarget >> 4 & 0xf);
    h.shaderModelMinor = uint8_t(minShaderTarget & 0xf);
    return shaderModelName(h);
  }

  void runtimeData() {
    if (!info_.runtimeData)
      return;
    const RuntimeData &rd = *info_.runtimeData;
    line();
    line("Runtime data (RDAT version " + hex(rd.version) + "): " + std::to_string(rd.parts.size()) +
         " sub-parts");
    for (const RdatPart &p : rd.parts) {
      const char *type = rdatPartTypeName(p.type);
      std::string s = "  " +
                      (type ? std::string(type) : "type " + std::to_string(uint32_t(p.type))) +
                      ": " + std::to_string(p.size) + " bytes";
      if (p.isTable)
        s += ", " + std::to_string(p.recordCount) + (p.recordCount == 1 ? " record" : " records") +
             " of " + std::to_string(p.recordStride) + " bytes";
      if (!p.decoded)
        s += " (kept undecoded)";
      line(s);
    }
    if (!rd.resources.empty()) {
      line();
      line("RDAT resources:");
      line();
      Table t({"Name", "Class", "Kind", ">ID", ">Space", ">Lower", ">Upper", "Flags"});
      for (const RdatResource &r : rd.resources)
        t.row({escaped(r.name),
               nameOr(resourceClassName(r.resourceClass), uint32_t(r.resourceClass)),
               nameOr(resourceKindName(r.kind), uint32_t(r.kind)), std::to_string(r.id),
               std::to_string(r.space), std::to_string(r.lowerBound),
               r.upperBound == ~0u ? "unbounded" : std::to_string(r.upperBound),
               r.flags ? hex(r.flags) : ""});
      t.print(out_);
    }
    for (const RdatFunction &f : rd.functions) {
      line();
      line("RDAT function " + quoted(f.unmangledName) +
           (f.name != f.unmangledName ? " (" + quoted(f.name) + ")" : "") + ":");
      line("  Kind=" + nameOr(shaderKindName(f.shaderKind), unsigned(f.shaderKind)) +
           " MinShaderTarget=" + target(f.minShaderTarget) +
           " ShaderStages=" + stageFlags(f.shaderStageFlags));
      if (f.featureFlags) {
        std::string names;
        for (const std::string &n : featureFlagNames(f.featureFlags))
          names += (names.empty() ? "" : ", ") + n;
        line("  Features: " + names);
      }
      if (f.payloadSizeInBytes || f.attributeSizeInBytes)
        line("  PayloadSizeInBytes=" + std::to_string(f.payloadSizeInBytes) +
             " AttributeSizeInBytes=" + std::to_string(f.attributeSizeInBytes));
      if (!f.resources.empty())
        line("  Resources: " +
             joined(f.resources, ", ", [&](uint32_t r) { return quoted(rd.resources[r].name); }));
      if (!f.dependencies.empty())
        line("  Calls: " + joined(f.dependencies, ", ", quoted));
      if (f.hasVersion2)
        line("  WaveLaneCount=" + std::to_string(f.minimumExpectedWaveLaneCount) + ".." +
             std::to_string(f.maximumExpectedWaveLaneCount) + " ShaderFlags=" + hex(f.shaderFlags));
      if (f.nodeShader)
        nodeShader(rd, rd.nodeShaders[*f.nodeShader]);
    }
    for (const RdatSubobject &s : rd.subobjects)
      subobject(s);
  }

  void nodeShader(const RuntimeData &rd, const RdatNodeShader &n) {
    line("  Node: launch " + nameOr(nodeLaunchTypeName(n.launchType), n.launchType) +
         ", GroupSharedBytesUsed=" + std::to_string(n.groupSharedBytesUsed));
    for (size_t k = 0; k < n.attribs.size() && k < kListLimit; ++k) {
      const RdatNodeFuncAttrib &attr = rd.nodeFuncAttribs[n.attribs[k]];
      std::string s = "    " + nameOr(nodeFuncAttribKindName(attr.kind), attr.kind) + "=";
      if (attr.nodeId)
        s += quoted(rd.nodeIds[*attr.nodeId].name) + "[" +
             std::to_string(rd.nodeIds[*attr.nodeId].index) + "]";
      else if (!attr.values.empty())
        s += "(" + joined(attr.values, ",", [](uint32_t x) { return std::to_string(x); }) + ")";
      else
        s += std::to_string(attr.value);
      line(s);
    }
    if (n.attribs.size() > kListLimit)
      line("    ... (" + std::to_string(n.attribs.size()) + " attributes in all)");
    auto ioNodes = [&](const char *what, const std::vector<uint32_t> &nodes) {
      for (size_t k = 0; k < nodes.size() && k < kListLimit; ++k) {
        const RdatIONode &io = rd.ioNodes[nodes[k]];
        std::string s = std::string("    ") + what + " " +
                        nameOr(nodeIOKindName(io.ioFlagsAndKind), io.ioFlagsAndKind & 0x7f) +
                        " (flags " + hex(io.ioFlagsAndKind) + ")";
        for (size_t j = 0; j < io.attribs.size() && j < kListLimit; ++j) {
          const RdatNodeIOAttrib &attr = rd.nodeIOAttribs[io.attribs[j]];
          s += " " + nameOr(nodeIOAttribKindName(attr.kind), attr.kind) + "=";
          if (attr.outputId)
            s += quoted(rd.nodeIds[*attr.outputId].name) + "[" +
                 std::to_string(rd.nodeIds[*attr.outputId].index) + "]";
          else if (attr.kind == 5)
            s += "(byte " + std::to_string(attr.dispatchGridByteOffset) + ", " +
                 std::to_string(attr.dispatchGridComponents) + " x " +
                 nameOr(dxilComponentTypeName(attr.dispatchGridComponentType),
                        attr.dispatchGridComponentType) +
                 ")";
          else
            s += std::to_string(attr.value);
        }
        if (io.attribs.size() > kListLimit)
          s += " ... (" + std::to_string(io.attribs.size()) + " attributes in all)";
        line(s);
      }
      if (nodes.size() > kListLimit)
        line("    ... (" + std::to_string(nodes.size()) + " " + what + " nodes in all)");
    };
    ioNodes("Input", n.inputs);
    ioNodes("Output", n.outputs);
  }

  void subobject(const RdatSubobject &s) {
    line();
    line("RDAT subobject " + quoted(s.name) + ": " + nameOr(subobjectKindName(s.kind), s.kind));
    switch (s.kind) {
    case 0:
      line("  Flags=" + hex(s.stateObjectFlags));
      break;
    case 1:
    case 2: {
      line("  " + std::to_string(s.rootSignature.size()) + " bytes of serialized root signature");
      Expected<RootSignature> rs =
          readRootSignature(s.rootSignature, "RDAT", fileOffset(s.rootSignature));
      if (rs)
        rootSignatureBody(*rs);
      else
        line("  (does not decode: " + rs.error().message + ")");
      break;
    }
    case 8:
      line("  Subobject=" + quoted(s.associatedSubobject) +
           " Exports=" + joined(s.exports, ", ", quoted));
      break;
    case 9:
      line("  MaxPayloadSizeInBytes=" + std::to_string(s.maxPayloadSizeInBytes) +
           " MaxAttributeSizeInBytes=" + std::to_string(s.maxAttributeSizeInBytes));
      break;
    case 10:
      line("  MaxTraceRecursionDepth=" + std::to_string(s.maxTraceRecursionDepth));
      break;
    case 11:
      line("  Type=" + nameOr(hitGroupTypeName(s.hitGroupType), s.hitGroupType) +
           " AnyHit=" + quoted(s.anyHit) + " ClosestHit=" + quoted(s.closestHit) +
           " Intersection=" + quoted(s.intersection));
      break;
    case 12:
      line("  MaxTraceRecursionDepth=" + std::to_string(s.maxTraceRecursionDepth) +
           " Flags=" + hex(s.pipelineFlags));
      break;
    default:
      break;
    }
  }

  uint64_t fileOffset(std::span<const uint8_t> bytes) const {
    return bytes.empty() ? 0 : uint64_t(bytes.data() - info_.container.bytes.data());
  }

  void sourceInfo() {
    if (!info_.sourceInfo)
      return;
    const SourceInfo &si = *info_.sourceInfo;
    line();
    line("Source info (SRCI): " + std::to_string(si.sections.size()) + " sections");
    if (!si.targetProfile.empty())
      line("  Target profile: " + quoted(si.targetProfile));
    if (!si.entryPoint.empty())
      line("  Entry point: " + quoted(si.entryPoint));
    for (std::string_view d : si.defines)
      line("  Define: " + quoted(d));
    for (std::string_view a : si.args)
      line("  Argument: " + quoted(a));
    if (si.sourceCompression)
      line("  " + std::to_string(si.sourceFileCount) + " source files, compressed (" +
           std::to_string(si.compressedSources.size()) + " bytes, " +
           std::to_string(si.uncompressedSourceSize) + " uncompressed)");
    for (const SourceFile &f : si.sources)
      line("  Source file " + quoted(f.name) + ": " + std::to_string(f.content.size()) + " bytes");
  }

  void unknownParts() {
    if (info_.unknownParts.empty())
      return;
    line();
    std::string s;
    for (size_t i : info_.unknownParts)
      s += (s.empty() ? "" : ", ") + info_.container.parts[i].fourcc.str() + " (" +
           std::to_string(info_.container.parts[i].data.size()) + " bytes)";
    line("Parts spire does not decode (kept): " + s);
  }

  void consistency() {
    std::vector<std::string> problems = checkConsistency(info_);
    if (problems.empty())
      return;
    line();
    line("The parts disagree:");
    for (const std::string &p : problems)
      line("  " + p);
  }

  const ContainerInfo &info_;
  std::string &out_;
};

/// The model's entry points and resources, for printModelSummary.
class ModelPrinter {
public:
  ModelPrinter(const DxilModule &model, std::string &out) : m_(model), out_(out) {}

  void print() {
    out_ +=
        ";\n; DXIL model: " + std::string(nameOr(shaderKindPrefix(m_.kind), unsigned(m_.kind))) +
        "_" + std::to_string(m_.shaderModelMajor) + "_" + std::to_string(m_.shaderModelMinor) +
        ", DXIL " + std::to_string(m_.dxilMajor) + "." + std::to_string(m_.dxilMinor) + ", " +
        count(m_.entryPoints.size(), "entry point") + ", " +
        count(m_.opCalls.size(), "dx.op call") + "\n";
    if (!m_.entryPoints.empty()) {
      out_ += ";\n";
      Table t({"Entry", "Stage", ">Inputs", ">Outputs", ">PatchConst", "Threads"});
      for (const EntryPoint &e : m_.entryPoints) {
        std::string threads;
        if (const std::optional<std::array<uint32_t, 3>> &n =
                e.properties.numThreads ? e.properties.numThreads
                : e.properties.ms       ? std::optional(e.properties.ms->numThreads)
                : e.properties.as       ? std::optional(e.properties.as->numThreads)
                                        : std::nullopt)
          threads = std::to_string((*n)[0]) + "," + std::to_string((*n)[1]) + "," +
                    std::to_string((*n)[2]);
        t.row({e.name.empty() ? "(none)" : e.name, nameOr(shaderKindName(e.kind), unsigned(e.kind)),
               std::to_string(e.signatures.inputs.size()),
               std::to_string(e.signatures.outputs.size()),
               std::to_string(e.signatures.patchConstants.size()), threads});
      }
      t.print(out_);
    }
    resources("Resources (dx.resources)", m_.resources);
    for (const EntryPoint &e : m_.entryPoints)
      if (e.resources.size() && e.resources.node != m_.resources.node)
        resources("Resources of entry " + (e.name.empty() ? std::string("(none)") : e.name),
                  e.resources);
  }

private:
  const DxilModule &m_;
  std::string &out_;

  void resources(const std::string &title, const ResourceLists &lists) {
    out_ += ";\n; " + title + (lists.size() ? ":\n;\n" : ": none\n");
    if (!lists.size())
      return;
    Table t({"Name", "Class", "Kind", "Format", ">ID", "Bind", ">Space", ">Count"});
    for (ResourceClass c :
         {ResourceClass::SRV, ResourceClass::UAV, ResourceClass::CBuffer, ResourceClass::Sampler})
      for (const DxilResource &r : lists.list(c)) {
        static constexpr char kPrefix[] = {'t', 'u', 'b', 's'};
        std::string format;
        if (r.elementType)
          format = std::string(dxilComponentTypeName(*r.elementType));
        else if (r.stride)
          format = "stride " + std::to_string(*r.stride);
        else if (c == ResourceClass::CBuffer)
          format = std::to_string(r.cbufferSize) + " bytes";
        else if (c == ResourceClass::Sampler)
          format = r.samplerKind == SamplerKind::Comparison ? "comparison"
                   : r.samplerKind == SamplerKind::Mono     ? "mono"
                                                            : "default";
        std::string kind = nameOr(resourceKindName(r.kind), uint32_t(r.kind));
        if (r.hasCounter)
          kind += " +counter";
        if (r.rasterizerOrdered)
          kind += " ROV";
        if (r.globallyCoherent)
          kind += " coherent";
        t.row({r.name.empty() ? "(unnamed)" : r.name, resourceClassName(c), kind, format,
               std::to_string(r.id), kPrefix[size_t(c)] + std::to_string(r.lowerBound),
               std::to_string(r.space),
               r.rangeSize == ~0u ? "unbounded" : std::to_string(r.rangeSize)});
      }
    t.print(out_);
  }
};

} // namespace

void printModelSummary(const LlvmModule &module, std::optional<DxilContainerInfo> container,
                       std::string &out) {
  Expected<DxilModule> model = decodeDxil(module, container);
  if (!model) {
    out += ";\n; DXIL model: not decoded: " + model.error().message + "\n";
    return;
  }
  ModelPrinter(*model, out).print();
}

const char *shaderKindName(ShaderKind kind) {
  static constexpr const char *kNames[] = {
      "pixel",    "vertex",        "geometry",      "hull",   "domain",     "compute",
      "library",  "raygeneration", "intersection",  "anyhit", "closesthit", "miss",
      "callable", "mesh",          "amplification", "node"};
  return detail::nameAt(kNames, uint64_t(kind));
}

std::string shaderModelName(const ProgramHeader &program) {
  const char *prefix = shaderKindPrefix(program.kind);
  std::string s = prefix ? prefix : nameOr(shaderKindName(program.kind), unsigned(program.kind));
  return s + "_" + std::to_string(program.shaderModelMajor) + "_" +
         std::to_string(program.shaderModelMinor);
}

void printContainerSummary(const ContainerInfo &info, std::string &out) {
  Printer(info, out).print();
}

} // namespace spire::dxil
