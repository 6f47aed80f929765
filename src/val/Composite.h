// Walking into composite types by index: what OpAccessChain, OpCompositeExtract and
// OpCompositeInsert do to a type, shared by the memory and composite rules.
#pragma once

#include "State.h"

#include <optional>
#include <string>

namespace spire::val {

struct ElementType {
  /// The element's type; 0 when it cannot be known statically (an index that is not a
  /// constant into a struct) or on error.
  uint32_t type = 0;
  /// Why the index is wrong, empty when it is not.
  std::string error;
};

/// How indexes are bounded: the literals of OpCompositeExtract / OpCompositeInsert must select
/// an element that exists; access chains may index past the end of vectors, matrices and
/// arrays (the access is undefined, not invalid), but never past a struct's last member.
enum class Bounds { All, StructsOnly };

/// The type of element `index` of composite type `type`; `index` is nothing when it is not a
/// known constant. Structs need a known index.
ElementType elementType(const State &s, uint32_t type, std::optional<uint64_t> index,
                        Bounds bounds);

/// Members of a struct type (0 for anything else).
uint32_t structMemberCount(const State &s, uint32_t type);

} // namespace spire::val
