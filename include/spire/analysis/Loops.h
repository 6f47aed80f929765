// The loops of a Graph: natural loops found from back edges (edges to a node that dominates
// their source), merged per header and nested; and the edges that make the graph irreducible
// (retreating edges whose target does not dominate their source).
#pragma once

#include "spire/analysis/Dominators.h"
#include "spire/analysis/Graph.h"

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace spire::analysis {

class LoopNest {
public:
  struct Loop {
    uint32_t header = kNoNode;
    uint32_t parent = kNoNode;     ///< the innermost loop holding this one, or kNoNode
    uint32_t depth = 1;            ///< 1 for an outermost loop
    std::vector<uint32_t> latches; ///< sources of the back edges to the header, sorted
    std::vector<uint32_t> nodes;   ///< every node of the loop, inner loops' included, sorted
    /// Targets of the edges that leave the loop, sorted, each once.
    std::vector<uint32_t> exits;
  };

  LoopNest(const Graph &graph, const DominatorTree &dominators);

  /// Every loop, outer loops before the loops they hold.
  std::span<const Loop> loops() const { return loops_; }
  /// The innermost loop holding `node` (an index into loops()), or kNoNode.
  uint32_t loopOf(uint32_t node) const { return innermost_[node]; }
  /// The loop `node` heads, or kNoNode.
  uint32_t loopHeadedBy(uint32_t node) const;
  /// How many loops hold `node` (0 outside every loop).
  uint32_t depth(uint32_t node) const {
    return innermost_[node] == kNoNode ? 0 : loops_[innermost_[node]].depth;
  }
  bool reducible() const { return irreducible_.empty(); }
  /// The retreating edges that are not back edges: each enters a cycle somewhere other than
  /// at a node that dominates the cycle.
  std::span<const std::pair<uint32_t, uint32_t>> irreducibleEdges() const { return irreducible_; }

private:
  std::vector<Loop> loops_;
  std::vector<uint32_t> innermost_;
  std::vector<std::pair<uint32_t, uint32_t>> irreducible_;
};

} // namespace spire::analysis
