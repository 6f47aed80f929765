// spire dis on DXIL: see DxilDis.h.
#include "DxilDis.h"

#include "CommandLine.h"

#include "spire/dxil/BitcodeReader.h"
#include "spire/dxil/ContainerInfo.h"
#include "spire/dxil/ContainerSummary.h"
#include "spire/dxil/LlvmPrinter.h"
#include "spire/support/File.h"

#include <algorithm>
#include <cstdlib>
#include <optional>

namespace spire::tool {

bool isDxilInput(std::span<const uint8_t> bytes) {
  return dxil::isContainer(bytes) || dxil::isBitcode(bytes);
}

int disassembleDxil(std::span<const uint8_t> bytes, const std::string &input,
                    const std::string &output, const DxilDisOptions &options) {
  // The heap the command touches, populated in one call (CommandLine.cpp). Over the corpus
  // (page faults of `spire dis` and `--format json` of every container against a 4 MB populate),
  // 16 KB and 40 bytes a byte leave at most 2 pages to fault in; 64 KB and 64 bytes a byte, the
  // size before, allocated and zeroed about 24 pages more a container for nothing.
  populateHeap(16 * 1024 + 40 * bytes.size());
  const std::string source = input == "-" ? "<stdin>" : input;
  auto fail = [&](const Diagnostic &d, const std::string &where) {
    report(d, where);
    return kInvalidInput;
  };
  std::span<const uint8_t> bitcode = bytes;
  std::string text; // the summary or JSON, written before the program
  std::optional<dxil::ProgramHeader> programHeader;
  if (dxil::isContainer(bytes)) {
    Expected<dxil::Container> container = dxil::readContainer(bytes);
    if (!container)
      return fail(container.error(), source);
    Expected<dxil::ContainerInfo> info = dxil::readContainerInfo(*container);
    if (!info)
      return fail(info.error(), source);
    const dxil::ProgramHeader *program = info->program        ? &*info->program
                                         : info->debugProgram ? &*info->debugProgram
                                                              : nullptr;
    if (!program && !options.containerOnly && !options.json)
      return fail(makeError(Location::container("", 0), "the container has no DXIL program part"),
                  source);
    if (program) {
      bitcode = program->bitcode;
      programHeader = *program;
    }
    if (options.json)
      dxil::printContainerJson(*info, text);
    else if (options.header || options.containerOnly)
      dxil::printContainerSummary(*info, text);
  } else if (options.containerOnly || options.json) {
    return fail(makeError(Location::container("", 0),
                          "--container-only and --format json need a DXBC container; this is "
                          "bare bitcode"),
                source);
  }

  // The program is read to be printed, and (under the container's header) for its model.
  std::optional<dxil::LlvmModule> module;
  const bool printProgram = !options.containerOnly && !options.json;
  const bool printModel = !options.json && !text.empty() && programHeader;
  if (printProgram || printModel) {
    Expected<dxil::LlvmModule> read = dxil::readBitcode(bitcode);
    if (!read && printProgram)
      return fail(read.error(), source);
    if (read)
      module = std::move(*read);
  }
  if (module && printModel)
    dxil::printModelSummary(*module,
                            dxil::DxilContainerInfo{programHeader->kind,
                                                    programHeader->shaderModelMajor,
                                                    programHeader->shaderModelMinor},
                            text);
  if (!printProgram)
    module.reset();
  Expected<FileWriter> out = FileWriter::open(output);
  if (!out)
    return fail(out.error(), output);
  Status written = out->write(text);
  if (module && !text.empty() && written)
    written = out->write(";\n");
  if (module) {
    dxil::LlvmPrintOptions printOptions;
    printOptions.moduleId = source;
    dxil::printLlvmModule(
        *module,
        [&](std::string_view piece) {
          if (written)
            written = out->write(piece);
        },
        printOptions);
  }
  if (written)
    written = out->commit();
  if (!written)
    return fail(written.error(), output);
  return kSuccess;
}

} // namespace spire::tool
