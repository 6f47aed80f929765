// Rules: the oneAPI Level Zero environment (../shared/docs/notes/levelzero.md).
#include "Rules.h"

namespace spire::val {

void checkLevelZero(State &s) { (void)s; }

} // namespace spire::val
