// What the constant attributes of the TOSA ops are, shared by TosaOps.cpp (syntax, verifier) and
// the deserializer (which reads them from constant operands).
#pragma once

#include "spire/dialect/Attributes.h"
#include "spire/dialect/Ops.h"

#include <optional>

namespace spire::dialect {

/// The dialect enumeration that an enum kind of constant attribute holds (AccType, NanMode,
/// ResizeMode, RoundingMode); nothing for the other kinds.
std::optional<DialectEnumKind> dialectEnumOf(ConstAttr c);

} // namespace spire::dialect
