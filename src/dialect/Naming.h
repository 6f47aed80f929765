// MLIR-style snake_case names of grammar names: attribute names of operands and decorations.
#pragma once

#include <string>
#include <string_view>

namespace spire::dialect {

/// "RelaxedPrecision" -> "relaxed_precision", "FPRoundingMode" -> "fp_rounding_mode",
/// "'Indexes'" -> "indexes", "Literal Number" -> "literal_number".
std::string snakeCase(std::string_view name);

} // namespace spire::dialect
