// The body of the DXIL bitcode fuzz target (kept apart from FuzzTargets.cpp so that the fuzzer
// links only the DXIL layer): see FuzzTargets.h.
#include "FuzzTargets.h"

#include "spire/dxil/BitcodeReader.h"
#include "spire/dxil/Container.h"
#include "spire/dxil/LlvmPrinter.h"

#include <cstdio>
#include <cstdlib>
#include <span>

namespace spire::fuzz {

namespace {

void check(bool condition, const char *what) {
  if (!condition) {
    std::fprintf(stderr, "dxil_bitcode: %s\n", what);
    std::abort();
  }
}

void readAndPrint(std::span<const uint8_t> bitcode) {
  Expected<dxil::LlvmModule> m = dxil::readBitcode(bitcode);
  if (!m) {
    std::string line = m.error().format("input");
    check(line.find('\n') == std::string::npos, "an error message of more than one line");
    check(m.error().location.kind == Location::Kind::Bitcode, "an error without a location");
    return;
  }
  size_t size = 0;
  uint64_t hash = 1469598103934665603ull;
  dxil::printLlvmModule(*m, [&](std::string_view piece) {
    size += piece.size();
    for (char c : piece)
      hash = (hash ^ uint8_t(c)) * 1099511628211ull;
  });
  std::string again = dxil::printLlvmModuleToString(*m);
  uint64_t hash2 = 1469598103934665603ull;
  for (char c : again)
    hash2 = (hash2 ^ uint8_t(c)) * 1099511628211ull;
  check(again.size() == size && hash == hash2, "printing twice gave different text");
}

} // namespace

void dxilBitcode(const uint8_t *data, size_t size) {
  std::span<const uint8_t> bytes(data, size);
  if (dxil::isContainer(bytes)) {
    Expected<dxil::Container> c = dxil::readContainer(bytes);
    if (!c)
      return;
    if (const dxil::ContainerPart *part = c->find(dxil::FourCC::of("DXIL"))) {
      Expected<dxil::ProgramHeader> program = dxil::readProgramHeader(*part);
      if (program)
        readAndPrint(program->bitcode);
    }
    return;
  }
  readAndPrint(bytes);
}

} // namespace spire::fuzz
