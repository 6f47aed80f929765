// Pieces of MLIR's textual syntax shared by the attribute, type and op printers.
#pragma once

#include "spire/dialect/Types.h"
#include "spire/grammar/Grammar.h"
#include "spire/support/Expected.h"

#include <string>
#include <string_view>

namespace spire::dialect {

/// A float as MLIR prints it: "1.000000e+00" when six digits give the value back in `type` (a
/// float type; null is f64), the shortest decimal form that does otherwise, and the bits in
/// hexadecimal ("0x7F800000") for infinities and NaNs.
void appendFloat(double value, Type type, std::string &out);
/// A quoted string as MLIR writes it: `\` doubled, `"` and other bytes outside ASCII's printable
/// range as `\XX`.
void printString(std::string_view s, std::string &out);

/// The operand kind of an enum attribute named as in `#spirv.storage_class<...>`, or false.
bool enumKindByAttrName(std::string_view name, grammar::OperandKind &kind);

/// Where a type's text spells the dialect's prefix: the offset of its first `!spv.` (MLIR 15)
/// and of its first `!spirv.` (MLIR 16 and later), npos where it has none.
struct TypePrefixes {
  size_t spv = std::string_view::npos;
  size_t spirv = std::string_view::npos;
};

/// Parses a type at the start of `text`; `consumed` is how many characters it used. On failure
/// the error's column counts from the start of `text` (line 1). Dialect types read with either
/// prefix, `!spirv.` or MLIR 15's `!spv.`; `prefixes` (when not null) says where.
Expected<Type> parseTypePrefix(Context &context, std::string_view text, size_t &consumed,
                               TypePrefixes *prefixes = nullptr);

/// `@name`, quoted when `name` is not a bare identifier.
void printSymbol(std::string_view name, std::string &out);
/// [A-Za-z_][A-Za-z0-9_$.]*
bool isBareIdentifier(std::string_view s);

} // namespace spire::dialect
