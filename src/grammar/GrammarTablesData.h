// The layout of the generated tables, shared by GrammarTables.cpp (generated) and Grammar.cpp.
#pragma once

#include "spire/grammar/Grammar.h"

namespace spire::grammar::detail {

/// One slot of the (kind, value) -> enumerant hash table; kind kNoKind marks an empty slot.
struct EnumerantSlot {
  static constexpr uint16_t kNoKind = 0xFFFF;
  uint32_t value = 0;
  uint16_t kind = kNoKind;
  uint16_t index = 0; ///< in the kind's enumerants
};

struct GrammarData {
  std::span<const InstructionDesc> instructions;    ///< sorted by opcode
  std::span<const int16_t> denseOpcodeIndex;        ///< opcode -> index, every opcode
  std::span<const NameIndex> instructionNames;      ///< sorted by name
  std::span<const OperandKindDesc> operandKinds;    ///< indexed by OperandKind
  std::span<const ExtInstSetDesc> extInstSets;      ///< indexed by ExtInstSet - 1
  std::span<const std::string_view> extensionNames; ///< indexed by Extension, sorted
  uint32_t version;
  unsigned revision;
  std::span<const GeneratorDesc> generators; ///< sorted by id
  /// Every enumerant by (kind, value), open addressing, a power-of-two size; a key's first
  /// slot is ((kind << 32 | value) * 0x9E3779B97F4A7C15) >> enumerantShift.
  std::span<const EnumerantSlot> enumerantSlots;
  unsigned enumerantShift;
};

extern const GrammarData kGrammar;

} // namespace spire::grammar::detail
