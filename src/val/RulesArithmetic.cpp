// Rules: arithmetic, bit, logical, relational, conversion and composite instructions.
#include "Rules.h"

namespace spire::val {

void checkArithmetic(State &s) { (void)s; }

} // namespace spire::val
