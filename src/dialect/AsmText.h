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
/// While one lives (on this thread), types print as MLIR 16 can hold them (printForMlir16),
/// wherever they are printed: op signatures, type attributes, nested types.
class Mlir16Types {
public:
  explicit Mlir16Types(bool on);
  ~Mlir16Types();
  Mlir16Types(const Mlir16Types &) = delete;
  Mlir16Types &operator=(const Mlir16Types &) = delete;
  static bool active();

private:
  bool saved_;
};

/// `@name`, quoted when `name` is not a bare identifier.
void printSymbol(std::string_view name, std::string &out);
/// [A-Za-z_][A-Za-z0-9_$.]*
bool isBareIdentifier(std::string_view s);

} // namespace spire::dialect
