// libFuzzer entry point for spire::fuzz::disassembler.
#include "FuzzTargets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  spire::fuzz::disassembler(data, size);
  return 0;
}
