// The records of the ops of no dialect spire has (Context::unregisteredOp), one per name, owned
// by the context that made them.
#pragma once

#include "spire/dialect/Ops.h"

#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace spire::dialect::detail {

struct UnregisteredOps {
  /// The record named `name`, made on first use.
  const OpInfo &get(std::string_view name);

private:
  std::deque<std::string> names_;
  std::deque<OpInfo> records_;
  std::unordered_map<std::string_view, const OpInfo *> byName_;
};

} // namespace spire::dialect::detail
