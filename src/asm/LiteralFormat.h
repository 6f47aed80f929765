// Numeric literals as text, the way spirv-dis prints them: integers in decimal, floats by value
// class (shortest exact decimal form is not what it does: see appendFloat32).
#pragma once

#include "spire/binary/Operand.h"

#include <cstdint>
#include <span>
#include <string>

namespace spire::spvasm {

/// Zero and normal floats with max_digits10 significant digits ("%.9g"), subnormals, infinities
/// and NaNs as hex floats ("0x1p-149", "-0x1p+128", "0x1.8p+128").
void appendFloat32(std::string &out, uint32_t bits);
/// Like appendFloat32 with 17 significant digits.
void appendFloat64(std::string &out, uint64_t bits);
/// Always a hex float ("0x1.8p+0", "0x0p+0").
void appendFloat16(std::string &out, uint16_t bits);

/// A literal number of one or two words (low-order word first) whose interpretation comes from
/// its type: signed or unsigned integer, or float of `bitWidth` bits (16: half, one word: float,
/// two words: double).
void appendNumber(std::string &out, binary::NumberKind kind, unsigned bitWidth,
                  std::span<const uint32_t> words);

/// An unsigned integer in decimal.
void appendDecimal(std::string &out, uint64_t value);

} // namespace spire::spvasm
