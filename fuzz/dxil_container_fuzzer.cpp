// libFuzzer entry point for spire::fuzz::dxilContainer.
#include "DxilContainerTarget.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  spire::fuzz::dxilContainer(data, size);
  return 0;
}
