// remove-dead-values (mlir-opt's pass of that name, on the dialect): a liveness analysis over the
// whole module, then removal of the ops without side effects none of whose results is live. An
// op is live when it has effects (stores, calls, barriers...), is a terminator or branch, or
// holds regions or a symbol; a value is live when a live op uses it, and an op is live when one
// of its results is. Unlike canonicalize it folds nothing, removes whole chains of unused values
// in one sweep, and ops of several results too. Values passed to blocks count as used (the
// branch that passes them is live), and function signatures stay as they are (MLIR's pass also
// drops the unused arguments and results of private functions; spirv.func has no visibility).
#include "spire/transforms/Pass.h"

#include "spire/dialect/Ops.h"

#include <unordered_set>
#include <vector>

namespace spire::transforms {

namespace {

using dialect::Block;
using dialect::OpInfo;
using dialect::OpOperand;

/// Whether `op` may go when none of its results is live: no side effects, no regions, no
/// successors, not a terminator.
bool removable(const Operation &op) {
  return (op.info().flags & OpInfo::kPure) && !(op.info().flags & OpInfo::kTerminator) &&
         op.numResults() > 0 && op.numRegions() == 0 && op.successors().empty();
}

class RemoveDeadValues final : public Pass {
public:
  std::string_view name() const override { return "remove-dead-values"; }

  Status run(Operation &module, Context &) override {
    live_.clear();
    work_.clear();
    candidates_.clear();
    seed(module);
    // Backward propagation: the operands of a live op are live, and so is the op that
    // defines a live value.
    while (!work_.empty()) {
      Operation *op = work_.back();
      work_.pop_back();
      for (uint32_t i = 0; i < op->numOperands(); ++i)
        if (Operation *def = op->operand(i).definingOp())
          markLive(def);
    }
    // The dead ops use only each other's results (a live user would have made them live):
    // their references go first, then the ops.
    std::erase_if(candidates_, [&](const Operation *op) { return live_.count(op) != 0; });
    for (Operation *op : candidates_)
      op->dropAllReferences();
    for (Operation *op : candidates_)
      op->erase();
    return {};
  }

private:
  void markLive(Operation *op) {
    if (live_.insert(op).second)
      work_.push_back(op);
  }

  /// Every op that is live in itself starts the propagation; the others wait for a live use.
  void seed(Operation &op) {
    for (uint32_t r = 0; r < op.numRegions(); ++r)
      for (Block *b : op.region(r))
        for (Operation *child = b->front(); child; child = child->next()) {
          if (removable(*child))
            candidates_.push_back(child);
          else
            markLive(child);
          seed(*child);
        }
  }

  std::unordered_set<const Operation *> live_;
  std::vector<Operation *> work_;
  std::vector<Operation *> candidates_; ///< the removable ops, in program order
};

} // namespace

std::unique_ptr<Pass> createRemoveDeadValuesPass() { return std::make_unique<RemoveDeadValues>(); }

extern const PassRegistration kRemoveDeadValuesPass{
    "remove-dead-values",
    "remove the ops without side effects whose results no live op uses (liveness over the "
    "module)",
    createRemoveDeadValuesPass};

} // namespace spire::transforms
