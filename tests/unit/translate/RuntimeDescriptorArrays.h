// Test support shared by the unit and corpus tests: running translated modules on llvmpipe,
// which has no runtime arrays of descriptors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace spire::translate::test {

/// Calls `f(opcode, operands, wordIndexOfOperands)` for each instruction of a SPIR-V module
/// after its header (stopping at a malformed word count).
template <typename F> void forEachInstruction(const std::vector<uint32_t> &words, F f) {
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16;
    if (count == 0 || i + count > words.size())
      return;
    f(words[i] & 0xFFFF, std::span<const uint32_t>(words.data() + i + 1, count - 1), i + 1);
    i += count;
  }
}

/// Makes the runtime arrays of descriptors (unbounded arrays, heaps) arrays of `length`, and
/// drops the RuntimeDescriptorArray capability, so that a device without runtime descriptor
/// arrays (llvmpipe) runs the module; a shader indexing within `length` computes what it did.
/// The length is a new constant of the module's 32-bit unsigned integer type (declared before
/// the first such array: moved there, or made).
void fixRuntimeDescriptorArrays(std::vector<uint32_t> &words, uint32_t length);

} // namespace spire::translate::test
