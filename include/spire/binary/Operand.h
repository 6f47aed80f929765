// A decoded operand: which words of an instruction it covers and what they mean.
#pragma once

#include "spire/grammar/Grammar.h"

#include <cstdint>

namespace spire::binary {

enum class NumberKind : uint8_t { None, Unsigned, Signed, Float };

struct Operand {
  uint16_t offset;   ///< first word, counted from the instruction's opcode word
  uint16_t numWords; ///< words it covers
  grammar::OperandKind kind;
  NumberKind number; ///< for literal numbers
  uint16_t bitWidth; ///< for literal numbers
};
static_assert(sizeof(Operand) == 8);

/// A scalar numeric type as seen by the decoder: int or float and its width.
struct NumberType {
  NumberKind kind = NumberKind::None;
  uint16_t width = 0;
  bool operator==(const NumberType &) const = default;
};

} // namespace spire::binary
