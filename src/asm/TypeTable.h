// What spirv-as remembers about ids while it assembles: the ids that declare types (integer and
// float scalars with their width and signedness), the result type of each value, and the
// extended instruction sets imported. OpConstant and OpSwitch take the width of their literals
// from it.
#pragma once

#include "ExtInstImport.h"

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace spire::spvasm {

struct DeclaredType {
  enum class Kind : uint8_t { Other, Int, Float };
  Kind kind = Kind::Other;
  bool isSigned = false;
  uint32_t width = 0;
  /// A float's FP Encoding operand (grammar::FPEncoding), kNoEncoding for IEEE floats.
  uint32_t encoding = kNoEncoding;
  static constexpr uint32_t kNoEncoding = ~0u;
};

class TypeTable {
public:
  /// Ids below `denseIds` are kept in arrays (grown as ids come), larger ones in hash maps.
  explicit TypeTable(size_t denseIds) : denseLimit_(denseIds) {}

  /// Records that `id` declares a type; false when it declares one already.
  bool declareType(uint32_t id, DeclaredType type);
  /// The type `id` declares, if any.
  std::optional<DeclaredType> type(uint32_t id) const;

  /// Records the result type of a value, unless the value has one already (the first
  /// definition counts, as in spirv-as).
  void recordValue(uint32_t value, uint32_t type);
  /// The type of a value through its recorded result type, if any.
  std::optional<DeclaredType> typeOfValue(uint32_t value) const;

  /// Records that `id` imports `set`; false when `id` imports a set already.
  bool addImport(uint32_t id, ImportedSet set);
  /// The set `id` imports, or null.
  const ImportedSet *import(uint32_t id) const;

private:
  bool isDeclared(uint32_t id) const;
  std::optional<uint32_t> valueType(uint32_t value) const;

  size_t denseLimit_;
  std::vector<uint64_t> declared_; // bit per id below denseLimit_
  std::unordered_set<uint32_t> declaredSparse_;
  std::unordered_map<uint32_t, DeclaredType> scalars_; // the Int and Float types
  std::vector<uint32_t> valueTypes_;                   // type + 1, 0: none
  std::unordered_map<uint32_t, uint32_t> valueTypesSparse_;
  std::unordered_map<uint32_t, ImportedSet> imports_;
};

} // namespace spire::spvasm
