#include "spire/dialect/Verifier.h"

#include "spire/dialect/Ops.h"

#include <string>
#include <unordered_map>
#include <unordered_set>

namespace spire::dialect {

namespace {

class Verifier {
public:
  Status run(const Operation &top) {
    if (!check(top))
      return makeError(where_, message_);
    return {};
  }

private:
  bool fail(const Operation &op, std::string message) {
    where_ = op.location();
    message_ = std::string(op.name()) + ": " + std::move(message);
    return false;
  }

  /// Values visible at a point: those of enclosing blocks (arguments and earlier ops' results)
  /// and of earlier blocks of the same region (dominance is not checked here).
  bool check(const Operation &op) {
    for (uint32_t i = 0; i < op.numOperands(); ++i) {
      Value v = op.operand(i);
      if (!v)
        return fail(op, "operand " + std::to_string(i) + " is null");
      if (!visible_.count(v.impl()))
        return fail(op, "operand " + std::to_string(i) +
                            " is not defined in an enclosing region before its use");
    }
    const Region *here = op.block() ? op.block()->parent() : nullptr;
    for (uint32_t s = 0; s < op.successors().size(); ++s) {
      const Successor &succ = op.successors()[s];
      if (!succ.block || succ.block->parent() != here)
        return fail(op, "successor " + std::to_string(s) + " is not a block of the same region");
      // Merge instructions kept as ops name blocks without passing control to them.
      if (!(op.info().flags & OpInfo::kTerminator))
        continue;
      if (succ.numOperands != succ.block->numArguments())
        return fail(op, "successor " + std::to_string(s) + " takes " +
                            std::to_string(succ.block->numArguments()) + " arguments, given " +
                            std::to_string(succ.numOperands));
      for (uint32_t a = 0; a < succ.numOperands; ++a)
        if (op.operand(succ.firstOperand + a).type() != succ.block->argument(a).type())
          return fail(op, "argument " + std::to_string(a) + " of successor " + std::to_string(s) +
                              " has the wrong type");
      if (here && succ.block == here->front())
        return fail(op, "branches to the entry block of its region");
    }
    if (!shape(op))
      return false;
    bool isolated = op.info().flags & OpInfo::kIsolated;
    std::unordered_set<const detail::ValueImpl *> saved;
    if (isolated)
      saved.swap(visible_);
    for (uint32_t r = 0; r < op.numRegions(); ++r) {
      const Region &region = op.region(r);
      std::vector<const detail::ValueImpl *> added;
      for (Block *b : region) {
        for (uint32_t a = 0; a < b->numArguments(); ++a) {
          visible_.insert(b->argument(a).impl());
          added.push_back(b->argument(a).impl());
        }
        bool needsTerminator = !(op.info().flags & OpInfo::kNoTerminator);
        if (needsTerminator && (b->empty() || !b->terminator()))
          return fail(op, "a block of its region does not end with a terminator");
        for (Operation *child : *b) {
          if (child->next() && (child->info().flags & OpInfo::kTerminator))
            return fail(*child, "terminator in the middle of a block");
          if (!check(*child))
            return false;
          for (uint32_t k = 0; k < child->numResults(); ++k) {
            visible_.insert(child->result(k).impl());
            added.push_back(child->result(k).impl());
          }
        }
      }
      for (const detail::ValueImpl *v : added)
        visible_.erase(v);
    }
    if (isolated)
      visible_.swap(saved);
    return true;
  }

  bool shape(const Operation &op) {
    const OpInfo &info = op.info();
    if (&info == &ops::selection() || &info == &ops::loop()) {
      const Region &r = op.region();
      size_t n = r.size();
      bool loop = &info == &ops::loop();
      if (n < (loop ? 3u : 2u))
        return fail(op, "region has " + std::to_string(n) + " blocks, too few");
      Block *last = r.back();
      if (last->front() != last->back() || &last->front()->info() != &ops::merge())
        return fail(op, "the last block of the region must hold only spirv.mlir.merge");
      if (last->front()->numOperands() != op.numResults())
        return fail(op, "spirv.mlir.merge yields " + std::to_string(last->front()->numOperands()) +
                            " values for " + std::to_string(op.numResults()) + " results");
      for (uint32_t i = 0; i < op.numResults(); ++i)
        if (last->front()->operand(i).type() != op.result(i).type())
          return fail(op, "result " + std::to_string(i) + " and the merged value differ in type");
    } else if (&info == &ops::merge()) {
      const Operation *parent = op.parentOp();
      if (!parent || (&parent->info() != &ops::selection() && &parent->info() != &ops::loop()))
        return fail(op, "outside a spirv.mlir.selection or spirv.mlir.loop");
    } else if (&info == &ops::module() || &info == &ops::func()) {
      if (&info == &ops::module() && op.region().size() != 1)
        return fail(op, "must hold one block");
      if (&info == &ops::func() && !op.region().empty()) {
        Attribute t = op.attr("function_type");
        if (!t || !t.is(AttrKind::Type))
          return fail(op, "has no function_type");
        if (op.region().front()->numArguments() != t.type().inputs().size())
          return fail(op, "entry block arguments and function type parameters differ in number");
      }
    }
    return true;
  }

  std::unordered_set<const detail::ValueImpl *> visible_;
  Location where_;
  std::string message_;
};

} // namespace

Status verify(const Operation &op) {
  Verifier v;
  return v.run(op);
}

} // namespace spire::dialect
