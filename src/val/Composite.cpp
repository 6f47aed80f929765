#include "Composite.h"

namespace spire::val {

namespace {

constexpr uint32_t kTypeCooperativeMatrixKHR =
    uint32_t(grammar::Op::TypeCooperativeMatrixKHR); // by value: older grammars lack it

std::string outOfBounds(const State &s, std::string_view what, uint32_t type, uint64_t count,
                        uint64_t index) {
  return "index " + std::to_string(index) + " is out of bounds: " + std::string(what) + " " +
         s.name(type) + " has " + std::to_string(count) + (count == 1 ? " element" : " elements");
}

} // namespace

uint32_t structMemberCount(const State &s, uint32_t type) {
  std::optional<Instruction> d = s.def(type);
  return d && d->opcode() == Op::TypeStruct ? d->wordCount() - 2 : 0;
}

ElementType elementType(const State &s, uint32_t type, std::optional<uint64_t> index,
                        Bounds bounds) {
  std::optional<Instruction> d = s.def(type);
  if (!d || d->isRaw())
    return {0, "type " + s.name(type) + " is not defined"};
  const Op op = d->opcode();
  const uint32_t n = d->wordCount();
  // The index to check the bounds of vectors, matrices and arrays against, if any.
  const uint64_t bounded = bounds == Bounds::All && index ? *index : ~uint64_t(0);
  switch (op) {
  case Op::TypeVector:
  case Op::TypeMatrix:
    if (n < 4)
      return {};
    if (bounded != ~uint64_t(0) && bounded >= d->word(3))
      return {
          0, outOfBounds(s, op == Op::TypeVector ? "vector" : "matrix", type, d->word(3), bounded)};
    return {d->word(2), {}};
  case Op::TypeArray: {
    if (n < 4)
      return {};
    if (bounded != ~uint64_t(0)) // (its length only when there is an index to check)
      if (std::optional<uint64_t> length = s.constantValue(d->word(3));
          length && bounded >= *length)
        return {0, outOfBounds(s, "array", type, *length, bounded)};
    return {d->word(2), {}};
  }
  case Op::TypeRuntimeArray:
  case Op::TypeNodePayloadArrayAMDX: // "dereferenced ... in the same way as OpTypeRuntimeArray"
    return {n >= 3 ? d->word(2) : 0, {}};
  case Op::TypeStruct:
    if (!index)
      return {0, "a struct member can only be selected by a constant integer"};
    if (*index >= n - 2)
      return {0, outOfBounds(s, "struct", type, n - 2, *index)};
    return {d->word(2 + static_cast<uint32_t>(*index)), {}};
  default:
    if (static_cast<uint32_t>(op) == kTypeCooperativeMatrixKHR || op == Op::TypeCooperativeMatrixNV)
      return {n >= 3 ? d->word(2) : 0, {}};
    return {0, "type " + s.name(type) + " is not a composite: there is nothing to index into"};
  }
}

} // namespace spire::val
