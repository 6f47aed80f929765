// The control-flow graph of one function of a module: blocks, their successors and
// predecessors, the merge and continue targets their merge instructions declare, and a reverse
// post-order of the blocks reachable from the entry. Its graph() is an analysis::Graph, so the
// analyses of spire/analysis (dominators, loops, orders) run on it.
#pragma once

#include "spire/analysis/Dominators.h"
#include "spire/analysis/Graph.h"
#include "spire/analysis/Traversal.h"
#include "spire/module/Module.h"

#include <cstdint>
#include <span>
#include <vector>

namespace spire {

class Cfg {
public:
  /// The graph of `function` (which must have blocks). Branch targets that are not labels of
  /// this function are left out of the graph and listed by danglingTargets().
  Cfg(const Module &module, const FunctionInfo &function);

  uint32_t size() const { return static_cast<uint32_t>(blocks_.size()); }
  std::span<const BlockInfo> blocks() const { return blocks_; }
  /// Block index of a label id, or kNoIndex when it is not a block of this function.
  uint32_t blockOfLabel(uint32_t labelId) const;
  uint32_t labelId(uint32_t block) const { return labels_[block]; }

  /// The blocks as nodes (block i is node i, the entry node 0), the branch targets as edges.
  const analysis::Graph &graph() const { return graph_; }
  std::span<const uint32_t> successors(uint32_t block) const { return graph_.successors(block); }
  std::span<const uint32_t> predecessors(uint32_t block) const {
    return graph_.predecessors(block);
  }

  /// Index of the block's OpSelectionMerge or OpLoopMerge, or kNoIndex.
  uint32_t mergeInst(uint32_t block) const { return mergeInst_[block]; }
  /// Merge target of the block's merge instruction (as a block index), or kNoIndex.
  uint32_t mergeBlock(uint32_t block) const { return merge_[block]; }
  /// Continue target of the block's OpLoopMerge (as a block index), or kNoIndex.
  uint32_t continueBlock(uint32_t block) const { return continue_[block]; }
  /// Index of the block's terminator, or kNoIndex when the block has none.
  uint32_t terminator(uint32_t block) const { return terminator_[block]; }

  /// The blocks reachable from the entry (block 0), in reverse post-order.
  std::span<const uint32_t> reversePostOrder() const { return order_.reversePostOrder; }
  bool reachable(uint32_t block) const { return order_.reached(block); }
  /// Position of a block in reversePostOrder(), or kNoIndex when unreachable.
  uint32_t rpoIndex(uint32_t block) const { return order_.rpoIndex[block]; }
  /// The depth-first search the order comes from.
  const analysis::DepthFirst &depthFirst() const { return order_; }

  struct Dangling {
    uint32_t block;  ///< the block whose instruction names the target
    uint32_t inst;   ///< the branch or merge instruction
    uint32_t target; ///< the id that is not a label of this function
  };
  std::span<const Dangling> danglingTargets() const { return dangling_; }

private:
  std::vector<BlockInfo> blocks_;
  std::vector<uint32_t> labels_;
  std::vector<uint32_t> labelOrder_; // block indices sorted by label id
  analysis::Graph graph_;
  analysis::DepthFirst order_;
  std::vector<uint32_t> mergeInst_, merge_, continue_, terminator_;
  std::vector<Dangling> dangling_;
};

static_assert(kNoIndex == analysis::kNoNode);

/// Dominators (or post-dominators) of the reachable blocks of a Cfg (analysis::DominatorTree
/// over its graph).
class DominatorTree : public analysis::DominatorTree {
public:
  explicit DominatorTree(const Cfg &cfg, Kind kind = Kind::Dominators)
      : analysis::DominatorTree(cfg.graph(), kind) {}
};

} // namespace spire
