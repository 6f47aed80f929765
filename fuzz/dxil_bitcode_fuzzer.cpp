// libFuzzer entry point for spire::fuzz::dxilBitcode.
#include "FuzzTargets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  spire::fuzz::dxilBitcode(data, size);
  return 0;
}
