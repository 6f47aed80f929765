// Pieces of MLIR's textual syntax shared by the attribute, type and op printers.
#pragma once

#include <string>
#include <string_view>

namespace spire::dialect {

/// A float as MLIR prints it: "1.000000e+00" when six digits give the value back at `width`
/// bits, the shortest decimal form that does otherwise, and the bits in hexadecimal
/// ("0x7F800000") for infinities and NaNs.
void appendFloat(double value, unsigned width, std::string &out);
/// A quoted string as MLIR writes it: `\` doubled, `"` and other bytes outside ASCII's printable
/// range as `\XX`.
void printString(std::string_view s, std::string &out);
/// `@name`, quoted when `name` is not a bare identifier.
void printSymbol(std::string_view name, std::string &out);
/// [A-Za-z_][A-Za-z0-9_$.]*
bool isBareIdentifier(std::string_view s);

} // namespace spire::dialect
