// Rules: branches, OpPhi and structured control flow (SPIR-V 2.11).
#include "Rules.h"

namespace spire::val {

void checkControlFlow(State &s) { (void)s; }

} // namespace spire::val
