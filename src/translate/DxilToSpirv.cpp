// translateDxilBytes: a container or bare bitcode read, decoded and translated.
#include "spire/translate/DxilToSpirv.h"

#include "spire/dxil/BitcodeReader.h"
#include "spire/dxil/ContainerInfo.h"

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

Expected<std::vector<TranslatedShader>> translateDxilBytes(std::span<const uint8_t> bytes,
                                                           const DxilTranslateOptions &options) {
  std::span<const uint8_t> bitcode = bytes;
  std::optional<dxil::DxilContainerInfo> header;
  if (dxil::isContainer(bytes)) {
    Expected<dxil::Container> container = dxil::readContainer(bytes);
    if (!container)
      return container.error();
    Expected<dxil::ContainerInfo> info = dxil::readContainerInfo(*container);
    if (!info)
      return info.error();
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
  return translateDxil(*dx, options);
}

} // namespace spire::translate
