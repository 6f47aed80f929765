// Floating-point constants as LLVM assembly writes them: six significant digits in exponent
// form when that reads back to the same double, else the double's bits in hex (0x...), and
// 0xH / 0xR / 0xK / 0xL / 0xM forms for half, bfloat and the long types.
#pragma once

#include <cstdint>
#include <string>

namespace spire::dxil {

/// A double, or a float widened to double (`bits` is the double's bit pattern).
void appendLlvmDouble(std::string &out, uint64_t doubleBits);
/// A float's bits, printed as LLVM prints float constants (through double).
void appendLlvmFloat(std::string &out, uint32_t floatBits);
/// An arbitrary-width integer of `numWords` little-endian words, as a signed decimal.
void appendSignedDecimal(std::string &out, const uint64_t *words, uint32_t numWords,
                         uint32_t bitWidth);

} // namespace spire::dxil
