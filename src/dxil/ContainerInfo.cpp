#include "spire/dxil/ContainerInfo.h"

#include <algorithm>
#include <tuple>

namespace spire::dxil {

namespace {

/// Decodes one part into `slot`, refusing a second part of the same code.
template <class T, class Read>
std::optional<Diagnostic> decodeInto(std::optional<T> &slot, const ContainerPart &p, Read read) {
  if (slot)
    return makeError(Location::container(p.fourcc.str(), p.headerOffset),
                     "a second " + p.fourcc.str() + " part");
  Expected<T> value = read(p);
  if (!value)
    return value.error();
  slot = std::move(*value);
  return std::nullopt;
}

} // namespace

Expected<ContainerInfo> readContainerInfo(const Container &container) {
  ContainerInfo info;
  info.container = container;
  size_t size = std::min<size_t>(container.declaredSize, container.bytes.size());
  info.computedDigest = computeContainerDigest(container.bytes.first(size));
  info.digestStatus = classifyDigest(container.digest, info.computedDigest);

  // The program's kind decodes the stage information of a version 0 PSV0 part.
  std::optional<ShaderKind> kind;
  if (const ContainerPart *dxil = container.find(part::Dxil))
    if (Expected<ProgramHeader> h = readProgramHeader(*dxil))
      kind = h->kind;

  for (size_t i = 0; i < container.parts.size(); ++i) {
    const ContainerPart &p = container.parts[i];
    FourCC code = p.fourcc;
    std::optional<Diagnostic> e;
    if (code == part::Dxil)
      e = decodeInto(info.program, p, readProgramHeader);
    else if (code == part::DebugDxil)
      e = decodeInto(info.debugProgram, p, readProgramHeader);
    else if (code == part::Statistics)
      e = decodeInto(info.statistics, p, readProgramHeader);
    else if (code == part::InputSignature)
      e = decodeInto(info.inputSignature, p, readSignature);
    else if (code == part::OutputSignature)
      e = decodeInto(info.outputSignature, p, readSignature);
    else if (code == part::PatchConstantSignature)
      e = decodeInto(info.patchConstantSignature, p, readSignature);
    else if (code == part::PipelineStateValidation)
      e = decodeInto(info.pipelineStateValidation, p,
                     [&](const ContainerPart &q) { return readPipelineStateValidation(q, kind); });
    else if (code == part::FeatureInfo)
      e = decodeInto(info.featureInfo, p, readFeatureInfo);
    else if (code == part::ShaderHash)
      e = decodeInto(info.shaderHash, p, readShaderHash);
    else if (code == part::CompilerVersion)
      e = decodeInto(info.compilerVersion, p, readCompilerVersion);
    else if (code == part::RuntimeData)
      e = decodeInto(info.runtimeData, p, readRuntimeData);
    else if (code == part::DebugName)
      e = decodeInto(info.debugName, p, readDebugName);
    else if (code == part::RootSignature)
      e = decodeInto(info.rootSignature, p,
                     [](const ContainerPart &q) { return readRootSignature(q); });
    else if (code == part::SourceInfo)
      e = decodeInto(info.sourceInfo, p, readSourceInfo);
    else
      info.unknownParts.push_back(i);
    if (e)
      return *e;
  }
  return info;
}

const ProgramHeader *mainProgram(const ContainerInfo &info) {
  if (info.program)
    return &*info.program;
  if (info.debugProgram)
    return &*info.debugProgram;
  if (info.statistics)
    return &*info.statistics;
  return nullptr;
}

namespace {

/// A signature row as both parts describe it: register, semantic index, mask, stream and name.
/// PSV0 leaves the names of system values empty.
using Row = std::tuple<uint32_t, uint32_t, uint8_t, uint32_t, std::string_view>;

std::vector<Row> rowsOf(const ProgramSignature &sig) {
  std::vector<Row> rows;
  for (const SignatureElement &e : sig.elements)
    rows.emplace_back(e.registerIndex, e.semanticIndex, e.mask, e.stream, e.semanticName);
  std::sort(rows.begin(), rows.end());
  return rows;
}

std::vector<Row> rowsOf(const std::vector<PsvSignatureElement> &elements) {
  std::vector<Row> rows;
  for (const PsvSignatureElement &e : elements)
    for (uint32_t r = 0; r < e.rows && r < e.semanticIndexes.size(); ++r)
      rows.emplace_back(e.allocated ? e.startRow + r : ~0u, e.semanticIndexes[r],
                        uint8_t(((1u << e.cols) - 1) << e.startCol & 0xf), e.outputStream,
                        e.semanticName);
  std::sort(rows.begin(), rows.end());
  return rows;
}

bool sameRows(const std::vector<Row> &part, const std::vector<Row> &psv) {
  if (part.size() != psv.size())
    return false;
  for (size_t i = 0; i < part.size(); ++i) {
    const auto &[reg, index, mask, stream, name] = psv[i];
    if (std::tie(reg, index, mask, stream) != std::tie(std::get<0>(part[i]), std::get<1>(part[i]),
                                                       std::get<2>(part[i]),
                                                       std::get<3>(part[i])) ||
        (!name.empty() && name != std::get<4>(part[i])))
      return false;
  }
  return true;
}

} // namespace

std::vector<std::string> checkConsistency(const ContainerInfo &info) {
  std::vector<std::string> problems;
  const ProgramHeader *program = mainProgram(info);
  if (program && info.debugProgram && program != &*info.debugProgram &&
      (info.debugProgram->kind != program->kind ||
       info.debugProgram->shaderModelMajor != program->shaderModelMajor ||
       info.debugProgram->shaderModelMinor != program->shaderModelMinor))
    problems.push_back("ILDB's shader model differs from DXIL's");
  if (const PipelineStateValidation *psv =
          info.pipelineStateValidation ? &*info.pipelineStateValidation : nullptr) {
    if (program && psv->version >= 1 && psv->shaderStage != program->kind)
      problems.push_back("PSV0's shader stage " + std::to_string(unsigned(*psv->shaderStage)) +
                         " differs from the program's kind " +
                         std::to_string(unsigned(program->kind)));
    struct Pair {
      const std::optional<ProgramSignature> &part;
      const std::vector<PsvSignatureElement> &elements;
      const char *name;
    } pairs[] = {{info.inputSignature, psv->inputElements, "ISG1"},
                 {info.outputSignature, psv->outputElements, "OSG1"},
                 {info.patchConstantSignature, psv->patchConstOrPrimElements, "PSG1"}};
    if (psv->version >= 1)
      for (const Pair &p : pairs) {
        if (!p.part) {
          if (!p.elements.empty())
            problems.push_back(std::string("PSV0 lists ") + std::to_string(p.elements.size()) +
                               " elements where the container has no " + p.name + " part");
          continue;
        }
        if (!sameRows(rowsOf(*p.part), rowsOf(p.elements)))
          problems.push_back(std::string("PSV0's ") + p.name +
                             " elements (their rows, names, semantic indexes, registers and "
                             "masks) differ from the " +
                             p.name + " part's");
      }
  }
  if (info.runtimeData && program)
    for (const RdatFunction &f : info.runtimeData->functions)
      if (f.minShaderTarget >> 16 == uint32_t(ShaderKind::Library) &&
          program->kind != ShaderKind::Library)
        problems.push_back("RDAT's function " + std::string(f.name) +
                           " targets a library, the program does not");
  return problems;
}

} // namespace spire::dxil
