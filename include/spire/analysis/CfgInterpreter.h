// Runs a control flow graph without its code: which input blocks execute, in order, when each
// branch is decided by an oracle. Shows that structuring keeps every path of the input.
#pragma once

#include "spire/analysis/Structurizer.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace spire::analysis {

/// Picks the successor (an index) a block takes on its `visit`-th execution (0-based), out of
/// `count`. Called for input blocks with two or more successors, keyed by the input block.
using BranchOracle = std::function<uint32_t(uint32_t node, uint32_t visit, uint32_t count)>;

struct CfgTrace {
  enum class End : uint8_t { Return, Unreachable, Limit, Stuck };
  std::vector<uint32_t> nodes; ///< the input blocks executed, in order
  End end = End::Limit;
  bool operator==(const CfgTrace &) const = default;
};

/// Runs the input until it returns, reaches an Unreachable terminator, or has executed `limit`
/// blocks (End::Limit).
CfgTrace interpret(const Cfg &input, const BranchOracle &oracle, uint32_t limit);

/// Runs a structured graph the same way: new blocks are not recorded, Ladders test the
/// selector, Original blocks ask the oracle about the input block they copy. End::Stuck when
/// the structured graph runs a long way without reaching an input block, or reaches an
/// Unreachable block. `blocks`, when given, receives every structured block run, in order.
CfgTrace interpret(const Cfg &input, const StructuredCfg &structured, const BranchOracle &oracle,
                   uint32_t limit, std::vector<uint32_t> *blocks = nullptr);

} // namespace spire::analysis
