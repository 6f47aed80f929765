// A decoded operand: which words of an instruction it covers and what they mean.
#pragma once

#include "spire/grammar/Grammar.h"

#include <cstdint>

namespace spire::binary {

using NumberKind = grammar::NumberKind;
using Operand = grammar::DecodedOperand;

/// A scalar numeric type as seen by the decoder: int or float and its width.
struct NumberType {
  NumberKind kind = NumberKind::None;
  uint16_t width = 0;
  bool operator==(const NumberType &) const = default;
};

} // namespace spire::binary
