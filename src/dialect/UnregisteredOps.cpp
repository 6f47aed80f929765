#include "UnregisteredOps.h"

#include "spire/dialect/Types.h"

namespace spire::dialect {

namespace detail {

const OpInfo &UnregisteredOps::get(std::string_view name) {
  if (auto it = byName_.find(name); it != byName_.end())
    return *it->second;
  const std::string &owned = names_.emplace_back(name);
  OpInfo &info = records_.emplace_back();
  info.name = owned;
  // As MLIR treats an op it knows nothing of: its blocks need no terminator, and it may have
  // side effects.
  info.flags = OpInfo::kUnregistered | OpInfo::kNoTerminator;
  byName_.emplace(owned, &info);
  return info;
}

} // namespace detail

const OpInfo &Context::unregisteredOp(std::string_view name) {
  if (!unregistered_)
    unregistered_ = std::make_unique<detail::UnregisteredOps>();
  return unregistered_->get(name);
}

} // namespace spire::dialect
