// Rules: atomic and barrier instructions, scopes and memory semantics.
#include "Rules.h"

namespace spire::val {

void checkAtomicsBarriers(State &s) { (void)s; }

} // namespace spire::val
