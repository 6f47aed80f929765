// Float controls: DXIL's fp32 denormal mode (the entry function's "fp32-denorm-mode" attribute:
// any, preserve or ftz) as SPV_KHR_float_controls execution modes (core in SPIR-V 1.4).
#include "Translator.h"

namespace spire::translate {

void Translator::addFloatControls(uint32_t entryFunction) {
  const dxil::LlvmModule &m = llvm();
  if (entry_.functionIndex >= m.functions.size())
    return;
  const uint32_t set =
      m.attributeSet(m.functions[entry_.functionIndex].attributes, dxil::AttributeList::kFunction);
  if (set == dxil::kNoId || set >= m.attributeSets.size())
    return;
  const dxil::AttributeSet &s = m.attributeSets[set];
  for (uint32_t i = 0; i < s.count && s.first + i < m.attributes.size(); ++i) {
    const dxil::Attribute &a = m.attributes[s.first + i];
    if (a.form != dxil::Attribute::Form::String || m.str(a.key) != "fp32-denorm-mode")
      continue;
    const std::string_view mode = m.str(a.value);
    grammar::ExecutionMode em;
    if (mode == "preserve") {
      capability(Capability::DenormPreserve);
      em = grammar::ExecutionMode::DenormPreserve;
    } else if (mode == "ftz") {
      capability(Capability::DenormFlushToZero);
      em = grammar::ExecutionMode::DenormFlushToZero;
    } else {
      continue; // "any": the implementation's choice, no mode
    }
    b_.add(Section::ExecutionMode, Op::ExecutionMode)
        .id(entryFunction)
        .literal(uint32_t(em))
        .literal(32);
  }
}

} // namespace spire::translate
