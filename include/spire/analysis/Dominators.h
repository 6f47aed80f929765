// Dominator and post-dominator trees of a Graph, with O(1) dominance queries, and the
// dominance frontiers of each node (where SSA construction places its phis).
#pragma once

#include "spire/analysis/Graph.h"

#include <cstdint>
#include <span>
#include <vector>

namespace spire::analysis {

class DominatorTree {
public:
  enum class Kind { Dominators, PostDominators };
  /// Dominators of the nodes the entry reaches, or post-dominators of the nodes that reach a
  /// node without successors (the post-dominator tree's root is a virtual exit after all of
  /// them; a node that only reaches an endless loop is outside the tree).
  explicit DominatorTree(const Graph &graph, Kind kind = Kind::Dominators);

  Kind kind() const { return kind_; }
  uint32_t size() const { return static_cast<uint32_t>(idom_.size()); }
  /// Immediate (post-)dominator, or kNoNode for the root(s) and nodes outside the tree. The
  /// post-dominator tree's roots are the nodes without successors, children of the virtual exit.
  uint32_t idom(uint32_t node) const { return idom_[node]; }
  /// True when `a` (post-)dominates `b`; every node in the tree dominates itself. Nodes outside
  /// the tree dominate nothing and are dominated by nothing.
  bool dominates(uint32_t a, uint32_t b) const;
  bool strictlyDominates(uint32_t a, uint32_t b) const { return a != b && dominates(a, b); }
  bool inTree(uint32_t node) const { return pre_[node] != kNoNode; }
  /// The nodes `node` immediately dominates, in node order.
  std::span<const uint32_t> children(uint32_t node) const {
    return std::span<const uint32_t>(children_).subspan(childBegin_[node],
                                                        childBegin_[node + 1] - childBegin_[node]);
  }
  /// Depth in the tree (the root, or each post-dominator root, is 0); kNoNode outside it.
  uint32_t depth(uint32_t node) const { return depth_[node]; }
  /// The deepest node that (post-)dominates both, or kNoNode when there is none (one is outside
  /// the tree, or two post-dominator roots).
  uint32_t nearestCommonDominator(uint32_t a, uint32_t b) const;

private:
  Kind kind_;
  std::vector<uint32_t> idom_, pre_, post_, depth_, childBegin_, children_;
};

/// Dominance frontiers: DF(x) is the set of nodes y such that x dominates a predecessor of y but
/// does not strictly dominate y. Computed for the nodes of a dominator tree (not a
/// post-dominator one).
class DominanceFrontiers {
public:
  DominanceFrontiers(const Graph &graph, const DominatorTree &dominators);
  /// DF(node), sorted, each node once.
  std::span<const uint32_t> of(uint32_t node) const {
    return std::span<const uint32_t>(nodes_).subspan(begin_[node], begin_[node + 1] - begin_[node]);
  }
  /// The iterated frontier of a set of nodes (where a variable assigned in them needs phis).
  std::vector<uint32_t> iterated(std::span<const uint32_t> nodes) const;

private:
  std::vector<uint32_t> begin_, nodes_;
};

} // namespace spire::analysis
