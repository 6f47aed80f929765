// Test support shared by the unit and corpus tests: running translated modules on llvmpipe,
// which has no runtime arrays of descriptors.
#pragma once

#include <cstdint>
#include <vector>

namespace spire::translate::test {

/// Makes the runtime arrays of descriptors (unbounded arrays, heaps) arrays of `length`, and
/// drops the RuntimeDescriptorArray capability, so that a device without runtime descriptor
/// arrays (llvmpipe) runs the module; a shader indexing within `length` computes what it did.
/// The length is a new constant of the module's 32-bit unsigned integer type (declared before
/// the first such array: moved there, or made).
void fixRuntimeDescriptorArrays(std::vector<uint32_t> &words, uint32_t length);

} // namespace spire::translate::test
