// Rules: variables, loads, stores, copies and access chains.
#include "Rules.h"

namespace spire::val {

void checkMemory(State &s) { (void)s; }

} // namespace spire::val
