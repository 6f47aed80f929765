// libFuzzer entry point for spire::fuzz::assembler.
#include "FuzzTargets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  spire::fuzz::assembler(data, size);
  return 0;
}
