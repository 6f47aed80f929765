// libFuzzer entry point for spire::fuzz::script.
#include "FuzzTargets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  spire::fuzz::script(data, size);
  return 0;
}
