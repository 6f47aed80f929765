// Rules: execution models, execution modes and entry point interfaces.
#include "Rules.h"

namespace spire::val {

void checkModes(State &s) { (void)s; }

} // namespace spire::val
