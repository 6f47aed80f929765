// Rules: the logical layout of a module (SPIR-V 2.4).
#include "Rules.h"

namespace spire::val {

void checkLayout(State &s) { (void)s; }

} // namespace spire::val
