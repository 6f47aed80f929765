// Stage inputs and outputs: the entry's signatures as Input/Output variables and built-ins, the
// execution modes a stage needs, and the dx.op calls that read and write them.
#include "Translator.h"

namespace spire::translate {

using dxil::DxOp;

void Translator::declareStageIO() {}

void Translator::addExecutionModes(uint32_t function) {
  const dxil::EntryProperties &p = entry_.properties;
  auto mode = [&](grammar::ExecutionMode m, std::initializer_list<uint32_t> literals) {
    b_.add(Section::ExecutionMode, Op::ExecutionMode)
        .id(function)
        .literal(uint32_t(m))
        .words(literals);
  };
  switch (entry_.kind) {
  case dxil::ShaderKind::Compute: {
    const std::array<uint32_t, 3> n = p.numThreads.value_or(std::array<uint32_t, 3>{1, 1, 1});
    mode(grammar::ExecutionMode::LocalSize, {n[0], n[1], n[2]});
    break;
  }
  case dxil::ShaderKind::Pixel:
    mode(grammar::ExecutionMode::OriginUpperLeft, {});
    break;
  default:
    break;
  }
}

bool Translator::translateStageOp(const dxil::DxilOpCall &, const dxil::Instruction &,
                                  std::span<const dxil::ValueId>, bool &handled) {
  handled = false;
  return true;
}

} // namespace spire::translate
