// Rules: functions, parameters, blocks and calls.
#include "Rules.h"

namespace spire::val {

void checkFunctions(State &s) { (void)s; }

} // namespace spire::val
