#include "TypeTable.h"

#include <algorithm>

namespace spire::spvasm {

namespace {

// Grows `v` so that index `i` exists, doubling at least, up to `limit` entries.
template <class T> void growFor(std::vector<T> &v, size_t i, size_t limit) {
  if (i >= v.size())
    v.resize(std::min(limit, std::max(i + 1, v.size() * 2)), T{});
}

} // namespace

bool TypeTable::isDeclared(uint32_t id) const {
  if (id < denseLimit_) {
    size_t word = id / 64;
    return word < declared_.size() && (declared_[word] >> (id % 64) & 1) != 0;
  }
  return declaredSparse_.count(id) != 0;
}

bool TypeTable::declareType(uint32_t id, DeclaredType type) {
  if (isDeclared(id))
    return false;
  if (id < denseLimit_) {
    growFor(declared_, id / 64, denseLimit_ / 64 + 1);
    declared_[id / 64] |= uint64_t(1) << (id % 64);
  } else {
    declaredSparse_.insert(id);
  }
  if (type.kind != DeclaredType::Kind::Other)
    scalars_.emplace(id, type);
  return true;
}

std::optional<DeclaredType> TypeTable::type(uint32_t id) const {
  if (!isDeclared(id))
    return std::nullopt;
  auto it = scalars_.find(id);
  return it == scalars_.end() ? DeclaredType{} : it->second;
}

std::optional<uint32_t> TypeTable::valueType(uint32_t value) const {
  if (value < valueTypes_.size() && valueTypes_[value] != 0)
    return valueTypes_[value] - 1;
  if (valueTypesSparse_.empty())
    return std::nullopt;
  auto it = valueTypesSparse_.find(value);
  return it == valueTypesSparse_.end() ? std::nullopt : std::optional<uint32_t>(it->second);
}

void TypeTable::recordValue(uint32_t value, uint32_t type) {
  if (valueType(value))
    return;
  if (value < denseLimit_ && type != UINT32_MAX) {
    growFor(valueTypes_, value, denseLimit_);
    valueTypes_[value] = type + 1;
  } else {
    valueTypesSparse_.emplace(value, type);
  }
}

std::optional<DeclaredType> TypeTable::typeOfValue(uint32_t value) const {
  std::optional<uint32_t> t = valueType(value);
  return t ? type(*t) : std::nullopt;
}

bool TypeTable::addImport(uint32_t id, ImportedSet set) {
  return imports_.try_emplace(id, set).second;
}

const ImportedSet *TypeTable::import(uint32_t id) const {
  auto it = imports_.find(id);
  return it == imports_.end() ? nullptr : &it->second;
}

} // namespace spire::spvasm
