// libFuzzer entry point for spire::fuzz::binaryReader.
#include "FuzzTargets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  spire::fuzz::binaryReader(data, size);
  return 0;
}
