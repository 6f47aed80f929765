// Rules: decorations, decoration groups and linkage.
#include "Rules.h"

namespace spire::val {

void checkDecorations(State &s) { (void)s; }

} // namespace spire::val
