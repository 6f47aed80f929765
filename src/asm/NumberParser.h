// The number syntax of spirv-as: integers as a C++ stream reads them with automatic base
// detection, floats in decimal or hex-float notation. Each function accepts exactly the texts
// SPIRV-Tools 2023.1 accepts, quirks included (see NumberParser.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace spire::spvasm {

/// The number a whole text spells for SPIRV-Tools' ParseNumber<uint64_t>: what
/// `std::istream >> std::setbase(0) >> value` reads (leading white space, a sign, "0x"/"0X" hex,
/// a leading "0" for octal, else decimal; a '-' sign wraps modulo 2^64), except that a text
/// starting with '-' must have the value 0.
std::optional<uint64_t> readUnsigned64(std::string_view text);
/// The same for int64_t: values outside [-2^63, 2^63) fail; no rule about '-'.
std::optional<int64_t> readSigned64(std::string_view text);
/// The same as readUnsigned64 for uint32_t: the numbers of ids ("%12") and of immediates
/// ("!0x20011").
std::optional<uint32_t> readUnsigned32(std::string_view text);

/// IEEE binary16/32/64, and the floats of OpTypeFloat's FP encodings: bfloat16
/// (SPV_KHR_bfloat16), E4M3 and E5M2 (SPV_EXT_float8).
enum class FloatFormat : uint8_t { Half, Single, Double, BFloat16, Float8E4M3, Float8E5M2 };

/// "bfloat16", "E4M3 float", ... for messages.
const char *floatFormatName(FloatFormat format);

/// The bits of a floating-point literal (in the low 8, 16, 32 or 64 bits), or nullopt when the
/// text is not one or a decimal value overflows. Decimal values round to nearest (for the
/// formats narrower than single: to the nearest single, then toward zero); hex floats
/// ("0x1.8p+3") are truncated and may spell infinities and NaNs. As SPIRV-Tools 2026.4 reads
/// E4M3, a decimal value from 256 to 448 is 448 (0x7E) and one beyond 448 fails, while a hex
/// float beyond the format's largest exponent is 0x78.
std::optional<uint64_t> readFloatBits(std::string_view text, FloatFormat format);

} // namespace spire::spvasm
