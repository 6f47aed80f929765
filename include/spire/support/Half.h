// IEEE half precision (binary16) to and from double, for the layers that hold float constants as
// doubles (the structured IR's attributes, its folding, its text); SmallFloat.h has the other
// narrow formats. The assembler's half literals follow spirv-as's rules instead (asm/NumberParser).
#pragma once

#include <cstdint>

namespace spire {

/// The half nearest to `value` (ties to even); infinities and overflow give infinity, a NaN
/// keeps its sign and the top bits of its payload (the quiet NaN when those are zero).
uint16_t halfFromDouble(double value);
/// The half's value (every half is exactly a double; a NaN's payload is kept).
double halfToDouble(uint16_t bits);

} // namespace spire
