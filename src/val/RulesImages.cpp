// Rules: image types and image instructions.
#include "Rules.h"

namespace spire::val {

void checkImages(State &s) { (void)s; }

} // namespace spire::val
