// The body of the DXIL bitcode fuzz target (kept apart from FuzzTargets.cpp so that the fuzzer
// links only the DXIL layers): see FuzzTargets.h. A module that reads is printed, decoded to
// the DXIL model and translated to SPIR-V.
#include "FuzzTargets.h"

#include "spire/dxil/BitcodeReader.h"
#include "spire/dxil/Container.h"
#include "spire/dxil/DxilModule.h"
#include "spire/dxil/LlvmPrinter.h"
#include "spire/module/Module.h"
#include "spire/translate/DxilToSpirv.h"

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

/// Decodes the module to the DXIL model: an error is one line; a model's calls point at calls.
void decode(const dxil::LlvmModule &m) {
  Expected<dxil::DxilModule> d = dxil::decodeDxil(m);
  if (!d) {
    check(d.error().format("input").find('\n') == std::string::npos,
          "a model error of more than one line");
    return;
  }
  check(d->opCallIndex.size() == m.instructions.size(), "an op call index of the wrong size");
  for (size_t i = 0; i < d->opCalls.size(); ++i) {
    const dxil::DxilOpCall &call = d->opCalls[i];
    check(call.instruction < m.instructions.size() &&
              m.instructions[call.instruction].opcode == dxil::Opcode::Call &&
              d->opCallAt(call.instruction) == &call && call.op,
          "a resolved call that is not one");
    check(d->opArguments(call).size() + 2 == m.operandsOf(m.instructions[call.instruction]).size(),
          "a resolved call's arguments out of step");
  }
  // The translation: an error is one line; a module reads back.
  Expected<std::vector<translate::TranslatedShader>> shaders = translate::translateDxil(*d, {});
  if (!shaders) {
    check(shaders.error().format("input").find('\n') == std::string::npos,
          "a translation error of more than one line");
    return;
  }
  for (translate::TranslatedShader &s : *shaders)
    check(Module::fromWords(std::move(s.words)).ok(), "a translated module that does not read");
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
  decode(*m);
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
