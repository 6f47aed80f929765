// translateDxilBytes: a container or bare bitcode read, decoded and translated.
#include "spire/translate/DxilToSpirv.h"

#include "spire/dxil/BitcodeReader.h"
#include "spire/dxil/ContainerInfo.h"

#include <algorithm>
#include <functional>
#include <optional>

namespace spire::translate {

std::string exportName(std::string_view name) {
  if (name.starts_with('\x01'))
    name.remove_prefix(1);
  if (!name.starts_with('?'))
    return std::string(name);
  const size_t at = name.find('@');
  if (at == std::string_view::npos || at == 1)
    return std::string(name);
  return std::string(name.substr(1, at - 1));
}

namespace {

/// Reads a container (or bare bitcode), decodes its program and gives it to `use`, with the
/// container's runtime data (RDAT) when it has some.
Status withDecodedProgram(
    std::span<const uint8_t> bytes,
    const std::function<Status(const dxil::DxilModule &, const dxil::RuntimeData *)> &use) {
  std::span<const uint8_t> bitcode = bytes;
  std::optional<dxil::DxilContainerInfo> header;
  std::optional<dxil::ContainerInfo> info;
  if (dxil::isContainer(bytes)) {
    Expected<dxil::Container> container = dxil::readContainer(bytes);
    if (!container)
      return container.error();
    Expected<dxil::ContainerInfo> read = dxil::readContainerInfo(*container);
    if (!read)
      return read.error();
    info = std::move(*read);
    const dxil::ProgramHeader *program = info->program        ? &*info->program
                                         : info->debugProgram ? &*info->debugProgram
                                                              : nullptr;
    if (!program)
      return makeError(Location::container("", 0), "the container has no DXIL program part");
    bitcode = program->bitcode;
    header = dxil::DxilContainerInfo{program->kind, program->shaderModelMajor,
                                     program->shaderModelMinor};
  } else if (!dxil::isBitcode(bytes)) {
    return makeError({}, "not a DXIL container or LLVM bitcode");
  }
  Expected<dxil::LlvmModule> module = dxil::readBitcode(bitcode);
  if (!module)
    return module.error();
  Expected<dxil::DxilModule> dx = dxil::decodeDxil(*module, header);
  if (!dx)
    return dx.error();
  return use(*dx, info && info->runtimeData ? &*info->runtimeData : nullptr);
}

} // namespace

Expected<std::vector<LocalRootSignature>> localRootSignaturesOf(const dxil::RuntimeData &rdat) {
  std::vector<LocalRootSignature> out;
  for (const dxil::RdatSubobject &s : rdat.subobjects) {
    if (s.kind != dxil::kLocalRootSignatureSubobject)
      continue;
    LocalRootSignature local;
    Expected<dxil::RootSignature> signature = dxil::readRootSignature(s.rootSignature, "RDAT", 0);
    if (!signature)
      return makeError(signature.error().location, "the local root signature '" +
                                                       std::string(s.name) +
                                                       "': " + signature.error().message);
    local.signature = std::move(*signature);
    // The exports its associations name; associated with none, it is a default.
    bool isDefault = true;
    for (const dxil::RdatSubobject &a : rdat.subobjects)
      if (a.kind == dxil::kSubobjectToExportsAssociation && a.associatedSubobject == s.name) {
        isDefault = isDefault && a.exports.empty();
        for (std::string_view e : a.exports)
          local.exports.emplace_back(e);
      }
    if (isDefault)
      local.exports.clear();
    out.push_back(std::move(local));
  }
  // The named ones first: an entry takes the first that names it, else the first default.
  std::stable_partition(out.begin(), out.end(),
                        [](const LocalRootSignature &l) { return !l.exports.empty(); });
  return out;
}

Expected<std::vector<StageOutput>> stageOutputsOf(std::span<const uint8_t> bytes) {
  std::optional<std::vector<StageOutput>> found;
  Status s = withDecodedProgram(
      bytes, [&](const dxil::DxilModule &dx, const dxil::RuntimeData *) -> Status {
        for (const dxil::EntryPoint &entry : dx.entryPoints) {
          if (entry.function == dxil::kNoId)
            continue;
          std::vector<StageOutput> outputs = stageOutputs(entry);
          if (outputs.empty())
            continue;
          if (found)
            return makeError({}, "the program has more than one entry point with outputs");
          found = std::move(outputs);
        }
        return {};
      });
  if (!s)
    return s.error();
  if (!found)
    return makeError({}, "the program has no vertex, hull, domain, geometry or mesh shader with "
                         "user-defined outputs");
  return std::move(*found);
}

Expected<std::vector<TranslatedShader>> translateDxilBytes(std::span<const uint8_t> bytes,
                                                           const DxilTranslateOptions &options) {
  std::optional<std::vector<TranslatedShader>> out;
  Status s = withDecodedProgram(
      bytes, [&](const dxil::DxilModule &dx, const dxil::RuntimeData *rdat) -> Status {
        std::optional<DxilTranslateOptions> withLocal; // the container's local root signatures
        if (options.localRootSignatures.empty() && rdat) {
          Expected<std::vector<LocalRootSignature>> local = localRootSignaturesOf(*rdat);
          if (!local)
            return local.error();
          if (!local->empty()) {
            withLocal = options;
            withLocal->localRootSignatures = std::move(*local);
          }
        }
        Expected<std::vector<TranslatedShader>> shaders =
            translateDxil(dx, withLocal ? *withLocal : options);
        if (!shaders)
          return shaders.error();
        out = std::move(*shaders);
        return {};
      });
  if (!s)
    return s.error();
  return std::move(*out);
}

} // namespace spire::translate
