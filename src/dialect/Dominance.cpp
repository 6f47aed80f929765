#include "spire/dialect/Dominance.h"

#include "spire/dialect/Ops.h"

#include <string>

namespace spire::dialect {

RegionGraph::RegionGraph(const Region &region) {
  for (Block *b : region) {
    index_.emplace(b, static_cast<uint32_t>(blocks_.size()));
    blocks_.push_back(b);
  }
  analysis::GraphBuilder edges(static_cast<uint32_t>(blocks_.size()));
  for (uint32_t i = 0; i < blocks_.size(); ++i)
    if (const Operation *t = blocks_[i]->terminator())
      for (const Successor &s : t->successors())
        if (uint32_t to = nodeOf(s.block); to != analysis::kNoNode)
          edges.addEdge(i, to);
  graph_ = edges.build(0);
}

uint32_t RegionGraph::nodeOf(const Block *block) const {
  auto it = index_.find(block);
  return it == index_.end() ? analysis::kNoNode : it->second;
}

DominanceInfo::PerRegion &DominanceInfo::of(const Region *region) {
  std::unique_ptr<PerRegion> &slot = regions_[region];
  if (!slot)
    slot = std::make_unique<PerRegion>(*region);
  return *slot;
}

bool DominanceInfo::dominates(const Block *a, const Block *b) {
  if (a == b)
    return true;
  if (a->parent() != b->parent() || a->parent() == nullptr)
    return false;
  PerRegion &r = of(a->parent());
  const uint32_t na = r.graph.nodeOf(a), nb = r.graph.nodeOf(b);
  if (!r.tree.inTree(nb))
    return true; // an unreachable block sees everything of its region
  return r.tree.dominates(na, nb);
}

namespace {

/// The ancestor of `user` (itself included) whose block is in `region`, or null when there is
/// none short of an op isolated from above (whose regions see nothing from outside it).
const Operation *ancestorIn(const Operation *user, const Region *region) {
  for (const Operation *op = user; op;) {
    if (op->block() && op->block()->parent() == region)
      return op;
    const Operation *parent = op->parentOp();
    if (parent == nullptr || (parent->info().flags & OpInfo::kIsolated))
      return nullptr;
    op = parent;
  }
  return nullptr;
}

bool comesBefore(const Operation *a, const Operation *b) {
  for (const Operation *op = a->next(); op; op = op->next())
    if (op == b)
      return true;
  return false;
}

} // namespace

bool DominanceInfo::dominates(Value value, const Operation *user) {
  const Block *defBlock =
      value.isBlockArgument() ? value.ownerBlock() : value.definingOp()->block();
  if (defBlock == nullptr || defBlock->parent() == nullptr)
    return false;
  const Operation *at = ancestorIn(user, defBlock->parent());
  if (at == nullptr)
    return false;
  if (at->block() == defBlock) {
    if (value.isBlockArgument())
      return true;
    return at != value.definingOp() && comesBefore(value.definingOp(), at);
  }
  return dominates(defBlock, at->block());
}

namespace {

// One walk in program order: an op's results count as defined once the op and its regions are
// behind; a use in the defining block needs the definition already seen, which saves ordering
// queries.
class DominanceChecker {
public:
  explicit DominanceChecker(const Operation &root)
      : info_(const_cast<Operation &>(root)), epoch_(newScratchEpoch()) {}

  Status check(const Operation &op) {
    for (uint32_t i = 0; i < op.numOperands(); ++i)
      if (Value v = op.operand(i); v && !visible(v, op))
        return makeError({}, "'" + std::string(op.name()) + "' op operand " + std::to_string(i) +
                                 " is not defined where the op can use it (its definition "
                                 "does not dominate the use)");
    for (uint32_t r = 0; r < op.numRegions(); ++r)
      for (Block *b : op.region(r))
        for (Operation *child : *b)
          if (Status s = check(*child); !s)
            return s;
    for (uint32_t i = 0; i < op.numResults(); ++i)
      op.result(i).impl()->scratch = {epoch_, 1};
    return {};
  }

private:
  bool visible(Value v, const Operation &user) {
    if (v.isBlockArgument() || v.definingOp() == nullptr || v.definingOp()->block() == nullptr)
      return info_.dominates(v, &user);
    const Block *defBlock = v.definingOp()->block();
    const Operation *at = ancestorIn(&user, defBlock->parent());
    if (at && at->block() == defBlock)
      return v.impl()->scratch.epoch == epoch_;
    return info_.dominates(v, &user);
  }

  DominanceInfo info_;
  uint32_t epoch_;
};

} // namespace

Status verifyDominance(const Operation &root) { return DominanceChecker(root).check(root); }

} // namespace spire::dialect
