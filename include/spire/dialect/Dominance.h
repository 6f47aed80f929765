// Dominance in the structured IR: which block of a region dominates which (the region's blocks
// as an analysis::Graph), and whether a value is defined where a use can see it, by MLIR's rules
// for SSA regions: a value dominates the ops after its definition in its block, the blocks its
// block dominates, and everything nested in the regions of those ops.
#pragma once

#include "spire/analysis/Dominators.h"
#include "spire/analysis/Graph.h"
#include "spire/dialect/IR.h"
#include "spire/support/Expected.h"

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace spire::dialect {

/// The blocks of a region as a graph: block i is the region's i-th block (the entry node 0),
/// the edges its terminator's successors.
class RegionGraph {
public:
  explicit RegionGraph(const Region &region);
  const analysis::Graph &graph() const { return graph_; }
  /// The node of a block of the region, or analysis::kNoNode.
  uint32_t nodeOf(const Block *block) const;
  Block *block(uint32_t node) const { return blocks_[node]; }

private:
  analysis::Graph graph_;
  std::vector<Block *> blocks_;
  std::unordered_map<const Block *, uint32_t> index_;
};

/// Dominance among the blocks and ops nested in an op, computed per region when first asked
/// (an analysis: constructible from the op).
class DominanceInfo {
public:
  explicit DominanceInfo(Operation &root) {}

  /// Whether block `a` dominates block `b` (both in one region); a block dominates itself. A
  /// block the region's entry does not reach is dominated by every block.
  bool dominates(const Block *a, const Block *b);
  /// Whether `value` may be used by `user` (an op nested in the root): walking up from the
  /// user to its ancestor in the region that defines the value, without leaving an op isolated
  /// from above, that ancestor comes after the definition in the same block (a block argument
  /// comes before every op of its block), or is in a block the definition's block dominates.
  /// An op's results are not visible in its own regions.
  bool dominates(Value value, const Operation *user);

private:
  struct PerRegion {
    RegionGraph graph;
    analysis::DominatorTree tree;
    explicit PerRegion(const Region &r) : graph(r), tree(graph.graph()) {}
  };
  PerRegion &of(const Region *region);

  std::unordered_map<const Region *, std::unique_ptr<PerRegion>> regions_;
};

/// Checks that every operand of every op nested in `root` is defined where its user can see it;
/// the first violation as "<op>: operand <i> does not dominate its use". Ops isolated from
/// above (spirv.func, spirv.module) are checked for uses of values from outside them too.
Status verifyDominance(const Operation &root);

} // namespace spire::dialect
