// The layout of the generated tables, shared by GrammarTables.cpp (generated) and Grammar.cpp.
#pragma once

#include "spire/grammar/Grammar.h"

namespace spire::grammar::detail {

struct GrammarData {
  std::span<const InstructionDesc> instructions;    ///< sorted by opcode
  std::span<const int16_t> denseOpcodeIndex;        ///< opcode -> index, for small opcodes
  std::span<const NameIndex> instructionNames;      ///< sorted by name
  std::span<const OperandKindDesc> operandKinds;    ///< indexed by OperandKind
  std::span<const ExtInstSetDesc> extInstSets;      ///< indexed by ExtInstSet - 1
  std::span<const std::string_view> extensionNames; ///< indexed by Extension, sorted
  uint32_t version;
  unsigned revision;
  std::span<const GeneratorDesc> generators; ///< sorted by id
};

extern const GrammarData kGrammar;

} // namespace spire::grammar::detail
