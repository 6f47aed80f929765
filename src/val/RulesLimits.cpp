// Rules: universal limits (SPIR-V 2.17).
#include "Rules.h"

namespace spire::val {

void checkLimits(State &s) { (void)s; }

} // namespace spire::val
