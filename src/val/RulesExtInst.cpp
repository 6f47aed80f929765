// Rules: instructions of GLSL.std.450 and OpenCL.std.
#include "Rules.h"

namespace spire::val {

void checkExtInst(State &s) { (void)s; }

} // namespace spire::val
