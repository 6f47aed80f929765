// libFuzzer entry point for spire::fuzz::structurizer.
#include "StructurizerTarget.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  spire::fuzz::structurizer(data, size);
  return 0;
}
