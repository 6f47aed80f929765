// MLIR-style snake_case names of grammar names: attribute names of operands and decorations.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace spire::dialect {

struct OpInfo;

/// "RelaxedPrecision" -> "relaxed_precision", "FPRoundingMode" -> "fp_rounding_mode",
/// "'Indexes'" -> "indexes", "Literal Number" -> "literal_number".
std::string snakeCase(std::string_view name);

/// The Decoration a decoration attribute names ("relaxed_precision", "descriptor_set"; a
/// "spirv." prefix, as argument attributes carry it, read past), or none.
std::optional<uint32_t> decorationNamed(std::string_view attributeName);

/// An attribute of an op of `info` that is part of its instruction, not a decoration: one of
/// its operands, a literal parameter of an enumerant (`..._value`), or MemoryAccess Aligned's
/// `alignment` (on ops without a memory access operand, `alignment` is the Alignment
/// decoration). The serializer and update-vce read attributes alike through it.
bool encodesOperand(const OpInfo &info, std::string_view attributeName);

} // namespace spire::dialect
