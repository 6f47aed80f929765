// Rules: definitions and uses of ids (SPIR-V 2.2, 2.5).
#include "Rules.h"

namespace spire::val {

void checkIds(State &s) { (void)s; }

} // namespace spire::val
