// libFuzzer entry point for spire::fuzz::dialect.
#include "FuzzTargets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  spire::fuzz::dialect(data, size);
  return 0;
}
