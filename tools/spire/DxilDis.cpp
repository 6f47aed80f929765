// spire dis on DXIL: see DxilDis.h.
#include "DxilDis.h"

#include "CommandLine.h"

#include "spire/dxil/BitcodeReader.h"
#include "spire/dxil/Container.h"
#include "spire/dxil/LlvmPrinter.h"
#include "spire/support/File.h"

namespace spire::tool {

bool isDxilInput(std::span<const uint8_t> bytes) {
  return dxil::isContainer(bytes) || dxil::isBitcode(bytes);
}

int disassembleDxil(std::span<const uint8_t> bytes, const std::string &input,
                    const std::string &output) {
  std::string source = input == "-" ? "<stdin>" : input;
  std::span<const uint8_t> bitcode = bytes;
  if (dxil::isContainer(bytes)) {
    Expected<dxil::Container> container = dxil::readContainer(bytes);
    if (!container) {
      report(container.error(), source);
      return kInvalidInput;
    }
    const dxil::ContainerPart *part = container->find(dxil::FourCC::of("DXIL"));
    if (!part)
      part = container->find(dxil::FourCC::of("ILDB"));
    if (!part) {
      report(makeError(Location::container("", 0), "the container has no DXIL program part"),
             source);
      return kInvalidInput;
    }
    Expected<dxil::ProgramHeader> program = dxil::readProgramHeader(*part);
    if (!program) {
      report(program.error(), source);
      return kInvalidInput;
    }
    bitcode = program->bitcode;
  }
  Expected<dxil::LlvmModule> module = dxil::readBitcode(bitcode);
  if (!module) {
    report(module.error(), source);
    return kInvalidInput;
  }
  Expected<FileWriter> out = FileWriter::open(output);
  if (!out) {
    report(out.error(), output);
    return kInvalidInput;
  }
  Status written;
  dxil::LlvmPrintOptions options;
  options.moduleId = source;
  dxil::printLlvmModule(
      *module,
      [&](std::string_view piece) {
        if (written)
          written = out->write(piece);
      },
      options);
  if (written)
    written = out->commit();
  if (!written) {
    report(written.error(), output);
    return kInvalidInput;
  }
  return kSuccess;
}

} // namespace spire::tool
