// Rules: the OpenCL environment.
#include "Rules.h"

namespace spire::val {

void checkOpenCL(State &s) { (void)s; }

} // namespace spire::val
