// Depth-first orders of a Graph from its entry: pre-order, post-order and reverse post-order
// numbers, and whether an edge retreats (goes to an ancestor in the depth-first tree).
#pragma once

#include "spire/analysis/Graph.h"

#include <cstdint>
#include <vector>

namespace spire::analysis {

struct DepthFirst {
  /// The nodes reached from the entry, in reverse post-order (the entry first).
  std::vector<uint32_t> reversePostOrder;
  /// Per node: its position in reversePostOrder, its pre-order and post-order numbers; kNoNode
  /// for nodes the entry does not reach.
  std::vector<uint32_t> rpoIndex, pre, post;

  bool reached(uint32_t node) const { return pre[node] != kNoNode; }
  /// True when `ancestor` is on the depth-first tree path from the entry to `node` (a node is
  /// its own ancestor). Both must be reached.
  bool isAncestor(uint32_t ancestor, uint32_t node) const {
    return pre[ancestor] <= pre[node] && post[node] <= post[ancestor];
  }
  /// True when the edge from -> to goes back to an ancestor (a loop's back edge in a reducible
  /// graph).
  bool retreats(uint32_t from, uint32_t to) const { return isAncestor(to, from); }
};

/// The depth-first search from the graph's entry, successors visited in their order.
DepthFirst depthFirst(const Graph &graph);

} // namespace spire::analysis
