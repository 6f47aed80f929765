// The ops generated from the grammar (OpTable.cpp, written at build time by generate_ops.py),
// which the registry (Ops.cpp) is made of.
#pragma once

#include "spire/dialect/Ops.h"

#include <span>
#include <string_view>

namespace spire::dialect::detail {

struct GeneratedOp {
  std::string_view name;
  OpKey key;
  uint32_t flags;
  grammar::ExtInstSet set; ///< None for core instructions
  uint16_t firstMapping, numMappings;
};

/// Another name of an op (an older grammar's name of its instruction).
struct GeneratedAlias {
  std::string_view name;
  uint32_t op; ///< index in generatedOps()
};

std::span<const GeneratedOp> generatedOps();
std::span<const OperandMapping> generatedMappings();
std::span<const GeneratedAlias> generatedAliases();

} // namespace spire::dialect::detail
