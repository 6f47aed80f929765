// libFuzzer entry point for spire::fuzz::dialectText.
#include "FuzzTargets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  spire::fuzz::dialectText(data, size);
  return 0;
}
