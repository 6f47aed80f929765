// The CFG structurizer: turns a reducible control flow graph (any IR's blocks and terminators)
// into one that follows SPIR-V's structured control flow rules, with the merge declarations,
// the new blocks and the selector state a translator emits.
#pragma once

#include "spire/analysis/Graph.h"
#include "spire/support/Expected.h"

#include <cstdint>
#include <span>
#include <vector>

namespace spire::analysis {

/// How a block ends. A ConditionalBranch has two successors (true first); a Switch has one
/// successor per distinct target, the default first, and its case values in `SwitchCase`s.
enum class Terminator : uint8_t { Branch, ConditionalBranch, Switch, Return, Unreachable };

struct SwitchCase {
  uint32_t node = kNoNode; ///< the switch block
  uint64_t value = 0;      ///< the case literal
  uint32_t successor = 0;  ///< index into the block's successors (never 0, the default)
};

/// The input: a graph, each node's terminator, and the case values of its switches (sorted by
/// node, in the order the translator lists them).
struct Cfg {
  Graph graph;
  std::vector<Terminator> terminators;
  std::vector<SwitchCase> cases;

  /// The cases of `node` (a subrange of `cases`).
  std::span<const SwitchCase> casesOf(uint32_t node) const;
};

/// The merge instruction a block starts its terminator with.
struct MergeInfo {
  enum class Kind : uint8_t { None, Selection, Loop };
  Kind kind = Kind::None;
  uint32_t mergeBlock = kNoNode;
  uint32_t continueTarget = kNoNode; ///< loops only
};

/// The output: every block of the structured function. Blocks copied from the input keep their
/// code and terminator (successors retargeted, in the same order; switch cases keep their
/// successor indices); the other blocks are new and hold no code of the input. The structurizer
/// keeps one integer "selector" per function: SetSelector blocks write it, Ladder blocks test it.
/// A translator materializes it as a Function-storage variable (store in SetSelector, load in
/// Ladder) or as SSA values (an OpPhi in each Ladder and in each block joining paths that
/// carry different values; every path into a Ladder passes a SetSelector first).
struct StructuredCfg {
  enum class Kind : uint8_t {
    Original,    ///< the input block origin[v]: its code and its terminator
    Forward,     ///< empty block: OpBranch to its one successor
    LoopHeader,  ///< empty block: OpLoopMerge, then OpBranch to its one successor
    Continue,    ///< empty continue target: OpBranch back to its loop header
    SetSelector, ///< selector = value, then OpBranch to its one successor
    Ladder,      ///< OpBranchConditional (selector == value) successor0 successor1
    Unreachable, ///< a merge block no path reaches: OpUnreachable
  };

  Graph graph;
  std::vector<Kind> kinds;
  std::vector<uint32_t> origin; ///< the input node an Original block copies; kNoNode otherwise
  std::vector<MergeInfo> merges;
  std::vector<uint32_t> values; ///< SetSelector: the value written; Ladder: the value tested
  /// A block order for emission: the entry first, every block after the blocks that
  /// structurally dominate it.
  std::vector<uint32_t> layout;

  /// The block of an input edge into a block with several input predecessors (the only blocks
  /// with phis): a new Forward block that runs exactly when the input takes that edge, after
  /// its source and before any other input block. The translator puts the copies the target's
  /// phis receive along the edge there (stores to a Function variable per phi, loaded at the
  /// target, or values for OpPhis it places again with DominanceFrontiers over `graph`).
  /// Sorted by (from, successor).
  struct EdgeBlock {
    uint32_t from;      ///< the input block
    uint32_t successor; ///< index into its successors
    uint32_t block;     ///< the output block
  };
  std::vector<EdgeBlock> edgeBlocks;

  uint32_t size() const { return graph.size(); }
  /// The edge block of input edge (from, successor index), or kNoNode when it has none.
  uint32_t edgeBlock(uint32_t from, uint32_t successor) const;
  /// The terminator a block ends with (Original blocks: their input's).
  Terminator terminator(const Cfg &input, uint32_t node) const;
};

/// Structures a reducible CFG. Each input block reached from the entry appears once in the
/// output (no duplication is needed: multi-level exits go through ladders instead), and an
/// input block that dominates another still dominates it in the output, so every value of the
/// input still dominates its uses; only phis need the edge blocks. Unreached
/// input blocks are dropped. Every Block/Loop scope of the result is a SPIR-V loop construct
/// (a scope left only by breaks is a loop whose continue target no path reaches); selections
/// and switches get a merge block no path reaches. Errors: an irreducible graph (naming a
/// retreating edge that enters a cycle other than at its header), or a terminator whose
/// successor count does not match its kind.
Expected<StructuredCfg> structurize(const Cfg &input);

} // namespace spire::analysis
