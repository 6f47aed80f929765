#include "spire/support/Half.h"

#include "spire/support/SmallFloat.h"

namespace spire {

uint16_t halfFromDouble(double value) {
  return static_cast<uint16_t>(smallFloatFromDouble(SmallFloat::Half, value));
}

double halfToDouble(uint16_t bits) { return smallFloatToDouble(SmallFloat::Half, bits); }

} // namespace spire
