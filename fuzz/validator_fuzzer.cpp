// libFuzzer entry point for spire::fuzz::validator.
#include "FuzzTargets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  spire::fuzz::validator(data, size);
  return 0;
}
