// Turns the merge instructions of one deserialized function into regions: each construct whose
// only exits go to its merge block becomes a spirv.mlir.selection or spirv.mlir.loop op, inner
// constructs first. A construct that a region cannot express keeps its blocks, with its merge
// instruction as an op in the header (spirv.SelectionMerge / spirv.LoopMerge).
#pragma once

#include "spire/dialect/IR.h"
#include "spire/dialect/Serialization.h"
#include "spire/module/Cfg.h"

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace spire::dialect {

/// A merge instruction of the function: its header block (Cfg index) and operands.
struct MergeInfo {
  uint32_t header = 0;
  bool loop = false;
  uint32_t control = 0;
  std::vector<uint32_t> controlParameters;
  Location location;
  const DebugLoc *debugLoc = nullptr; ///< the merge instruction's source line
};

class Structurizer {
public:
  /// `blocks[i]` is the IR block of the Cfg's block i; `entry` is the block in front of them
  /// when the function needed a new entry block, else null.
  Structurizer(Context &context, const Cfg &cfg, std::vector<Block *> blocks, Block *entry,
               DeserializeStats &stats, DeserializeOptions options);
  Status run(std::vector<MergeInfo> merges);

private:
  struct Construct;
  bool collect(const MergeInfo &mi, Construct &c);
  void regionize(const MergeInfo &mi, Construct &c);
  void keepMergeOp(const MergeInfo &mi);
  uint32_t indexOf(Block *b) const;
  /// The block of the outermost region so far that holds `b` (itself when not nested).
  Block *resolve(Block *b);
  /// True when `block` is the merge block or continue target of a construct enclosing the one
  /// headed by `h`: an exit, never a member.
  bool exitOfEnclosing(uint32_t h, uint32_t block) const;

  Context &ctx_;
  const Cfg &cfg_;
  DominatorTree dom_;
  std::vector<Block *> blocks_;  ///< Cfg index -> the IR block now standing for it
  std::vector<Block *> current_; ///< Cfg index -> the block at the outermost level holding it
  Block *entry_;
  DeserializeStats &stats_;
  DeserializeOptions options_;
  std::vector<Operation *> mergeOps_;
  std::vector<Operation *> pendingHoist_; ///< a selection header's ops, moved in front of it
  std::unordered_map<const Block *, uint32_t> index_; ///< IR block -> Cfg index
  std::vector<std::vector<uint32_t>> declaredBy_;     ///< headers naming a block merge or continue
  std::unordered_map<Block *, Block *> forward_;      ///< nested block -> the block standing for it
  std::vector<std::unique_ptr<Block>> graveyard_; ///< merge blocks folded into their construct's
};

} // namespace spire::dialect
