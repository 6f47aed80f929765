// Rules: group and non-uniform instructions.
#include "Rules.h"

namespace spire::val {

void checkGroups(State &s) { (void)s; }

} // namespace spire::val
