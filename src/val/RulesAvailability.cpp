// Rules: version, capability and extension requirements of everything the module uses.
#include "Rules.h"

namespace spire::val {

void checkAvailability(State &s) { (void)s; }

} // namespace spire::val
