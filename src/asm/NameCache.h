// A small direct-mapped cache of the opcode and enumerant names a text uses, in front of the
// grammar's sorted name tables: assembly repeats a few dozen names many times.
#pragma once

#include "spire/grammar/Grammar.h"

#include <array>
#include <cstdint>
#include <string_view>

namespace spire::spvasm {

class NameCache {
public:
  /// One cache per thread, kept from one text to the next: its entries point into the grammar's
  /// tables, which live as long as the program, and a fresh cache would be 16 KB to clear for
  /// every text. A pure memo of those immutable tables: every answer is the grammar's own, so
  /// keeping it across texts and assemblers changes nothing but the time a lookup takes.
  static NameCache &forThisThread();

  /// grammar::findInstruction(name).
  const grammar::InstructionDesc *instruction(std::string_view name);
  /// grammar::findEnumerant(kind, name).
  const grammar::EnumerantDesc *enumerant(grammar::OperandKind kind, std::string_view name);

private:
  struct Entry {
    std::string_view name; ///< points into the grammar's tables
    uint32_t kind = 0;     ///< kInstruction, or an OperandKind
    const void *desc = nullptr;
  };
  static constexpr uint32_t kInstruction = 0xFFFFFFFFu;

  Entry &slot(uint32_t kind, std::string_view name);
  /// The entry of `name` in the cache, else find(kind, name), remembered.
  template <class Desc>
  const Desc *cached(uint32_t kind, std::string_view name,
                     const Desc *(*find)(uint32_t, std::string_view));

  std::array<Entry, 512> entries_{};
};

} // namespace spire::spvasm
