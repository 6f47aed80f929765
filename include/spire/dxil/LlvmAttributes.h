// What LLVM assembly knows of attributes: kind names, which kinds take an integer or a type,
// the order LLVM sorts a set in, and an attribute's text ("align 4", "\"key\"=\"value\"").
#pragma once

#include "spire/dxil/LlvmModule.h"

#include <string>
#include <string_view>

namespace spire::dxil {

enum class AttrForm : uint8_t { Enum, Type, Int };

/// The form a kind takes (align: Int, byval: Type, nounwind: Enum).
AttrForm attrKindForm(AttrKind kind);
/// True when `a` sorts before `b` in LLVM 14's order: enum kinds, then type kinds, then integer
/// kinds (each by LLVM's internal kind name), then strings by key and value.
bool attributeLess(const LlvmModule &m, const Attribute &a, const Attribute &b);
bool attributeEqual(const LlvmModule &m, const Attribute &a, const Attribute &b);
/// The same kind (or, for strings, the same key).
bool attributeSameKind(const LlvmModule &m, const Attribute &a, const Attribute &b);

} // namespace spire::dxil
