// The control-flow graph of one function of a module: blocks, their successors and
// predecessors, the merge and continue targets their merge instructions declare, and a reverse
// post-order of the blocks reachable from the entry.
#pragma once

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

  std::span<const uint32_t> successors(uint32_t block) const {
    return std::span<const uint32_t>(succs_).subspan(succBegin_[block],
                                                     succBegin_[block + 1] - succBegin_[block]);
  }
  std::span<const uint32_t> predecessors(uint32_t block) const {
    return std::span<const uint32_t>(preds_).subspan(predBegin_[block],
                                                     predBegin_[block + 1] - predBegin_[block]);
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
  std::span<const uint32_t> reversePostOrder() const { return rpo_; }
  bool reachable(uint32_t block) const { return rpoIndex_[block] != kNoIndex; }
  /// Position of a block in reversePostOrder(), or kNoIndex when unreachable.
  uint32_t rpoIndex(uint32_t block) const { return rpoIndex_[block]; }

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
  std::vector<uint32_t> succBegin_, succs_, predBegin_, preds_;
  std::vector<uint32_t> mergeInst_, merge_, continue_, terminator_;
  std::vector<uint32_t> rpo_, rpoIndex_;
  std::vector<Dangling> dangling_;
};

/// Dominators (or post-dominators) of the reachable blocks of a Cfg, with O(1) queries.
class DominatorTree {
public:
  enum class Kind { Dominators, PostDominators };
  explicit DominatorTree(const Cfg &cfg, Kind kind = Kind::Dominators);

  /// Immediate dominator, or kNoIndex for the root(s) and blocks outside the tree. For
  /// post-dominators the root is a virtual exit after every block without successors.
  uint32_t idom(uint32_t block) const { return idom_[block]; }
  /// True when `a` (post-)dominates `b`; every block in the tree dominates itself. Blocks outside
  /// the tree (unreachable ones) dominate nothing and are dominated by nothing.
  bool dominates(uint32_t a, uint32_t b) const;
  bool inTree(uint32_t block) const { return pre_[block] != kNoIndex; }

private:
  std::vector<uint32_t> idom_, pre_, post_;
};

} // namespace spire
