// canonicalize: each op folded as its record says (dialect::fold: constant folding and MLIR's
// simplifications of SPIR-V ops, declared by opcode beside the op records), and removal of
// unused ops without side effects, repeated until nothing changes. Constants of 8- and 16-bit
// types are made only where the module declares the capability that allows them.
#include "spire/transforms/Pass.h"

#include "spire/dialect/Availability.h"
#include "spire/dialect/Builder.h"
#include "spire/dialect/Fold.h"
#include "spire/dialect/Ops.h"
#include "spire/dialect/StructuralOps.h"

#include <unordered_set>

namespace spire::transforms {

namespace {

using dialect::Attribute;
using dialect::AttrKind;
using dialect::Block;
using dialect::ConstantOp;
using dialect::FoldResult;
using dialect::OpBuilder;
using dialect::OpInfo;
using dialect::OpOperand;
using dialect::Region;
using dialect::Successor;
using dialect::Type;
using dialect::TypeKind;
using dialect::Value;
namespace ops = dialect::ops;

/// Whether `op` may go when its results are unused (the record's trait).
bool isPure(const Operation &op) {
  return (op.info().flags & OpInfo::kPure) && op.numResults() == 1 && op.numRegions() == 0 &&
         op.successors().empty();
}

class Canonicalize final : public Pass {
public:
  std::string_view name() const override { return "canonicalize"; }

  Status run(Operation &module, Context &context) override {
    ctx_ = &context;
    capabilities_.clear();
    if (Attribute vce = module.attr("vce_triple"); vce && vce.is(AttrKind::Vce))
      for (uint32_t c : vce.capabilities())
        for (grammar::Capability implied :
             dialect::impliedCapabilities(static_cast<grammar::Capability>(c)))
          capabilities_.insert(static_cast<uint32_t>(implied));
    for (int round = 0; round < 32; ++round) {
      changed_ = false;
      visit(module);
      removeDead(module);
      removeUnreachableBlocks(module);
      if (!changed_)
        break;
    }
    return {};
  }

private:
  void visit(Operation &op) {
    for (uint32_t r = 0; r < op.numRegions(); ++r)
      for (Block *b : op.region(r))
        for (Operation *child = b->front(); child;) {
          Operation *next = child->next();
          if (!child->numRegions())
            simplify(*child);
          else if (!computesSpecConstant(*child))
            visit(*child);
          child = next;
        }
  }

  /// Removes unused ops without side effects, last first so that chains go at once.
  void removeDead(Operation &op) {
    for (uint32_t r = 0; r < op.numRegions(); ++r)
      for (Block *b : op.region(r))
        for (Operation *child = b->back(); child;) {
          Operation *prev = child->prev();
          if (child->numRegions()) {
            if (!computesSpecConstant(*child))
              removeDead(*child);
          } else if (isPure(*child) && !hasUses(*child)) {
            child->erase();
            changed_ = true;
          }
          child = prev;
        }
  }

  /// Removes the blocks of each function body that no path from its entry reaches (constant
  /// branch conditions leave them behind). Merge instructions kept as ops name their blocks as
  /// successors, so merge and continue targets stay. Nested regions are left alone: their
  /// merge and continue blocks must stay even when no path reaches them.
  void removeUnreachableBlocks(Operation &module) {
    if (module.numRegions() != 1)
      return;
    for (Block *b : module.region(0))
      for (Operation *op = b->front(); op; op = op->next())
        if (&op->info() == &ops::func() && op->numRegions() == 1 && !op->region(0).empty())
          removeUnreachableBlocks(op->region(0));
  }

  void removeUnreachableBlocks(Region &body) {
    std::unordered_set<const Block *> live{body.front()};
    std::vector<Block *> work{body.front()};
    while (!work.empty()) {
      Block *b = work.back();
      work.pop_back();
      for (Operation *op = b->front(); op; op = op->next())
        for (const Successor &succ : op->successors())
          if (succ.block && succ.block->parent() == &body && live.insert(succ.block).second)
            work.push_back(succ.block);
    }
    std::vector<Block *> dead;
    for (Block *b : body)
      if (!live.count(b))
        dead.push_back(b);
    if (dead.empty())
      return;
    // The block of `body` that holds `op` (perhaps through nested regions).
    auto topBlock = [&body](Operation *op) -> const Block * {
      while (op && op->block() && op->block()->parent() != &body)
        op = op->block()->parentOp();
      return op ? op->block() : nullptr;
    };
    auto usedByLiveCode = [&](Value v) {
      for (OpOperand *use = v.firstUse(); use; use = use->nextUse())
        if (live.count(topBlock(use->owner())))
          return true;
      return false;
    };
    // Values of unreachable blocks cannot reach live code in valid IR; if they do, keep all.
    auto escapes = [&](Block *b) {
      bool used = false;
      auto argumentsUsed = [&](Block *block) {
        for (uint32_t a = 0; a < block->numArguments() && !used; ++a)
          used = usedByLiveCode(block->argument(a));
      };
      argumentsUsed(b);
      for (Operation *op = b->front(); op && !used; op = op->next())
        dialect::walk(op, [&](Operation *o) {
          for (uint32_t i = 0; i < o->numResults() && !used; ++i)
            used = usedByLiveCode(o->result(i));
          for (uint32_t r = 0; r < o->numRegions(); ++r)
            for (Block *nested : o->region(r))
              argumentsUsed(nested);
        });
      return used;
    };
    for (Block *b : dead)
      if (escapes(b))
        return;
    for (Block *b : dead)
      for (Operation *op = b->front(); op; op = op->next())
        dialect::walk(op, [](Operation *o) { o->dropAllReferences(); });
    for (Block *b : dead)
      body.erase(b);
    changed_ = true;
  }

  /// The region of a specialization constant operation holds the operation the module computes
  /// when specialized: folding it away would leave nothing to serialize.
  static bool computesSpecConstant(const Operation &op) {
    return &op.info() == &dialect::ops::specConstantOperation() ||
           &op.info() == &dialect::ops::specConstantOperationSymbol();
  }

  static bool hasUses(const Operation &op) {
    for (uint32_t i = 0; i < op.numResults(); ++i)
      if (op.result(i).hasUses())
        return true;
    return false;
  }

  void replace(Operation &op, Value with) {
    op.result().replaceAllUsesWith(with);
    op.erase();
    changed_ = true;
  }

  /// Whether a constant of type `t` may be made: 8- and 16-bit scalars need the Int8, Int16 or
  /// Float16 capability (without them such types serve storage only).
  bool constantAllowed(Type t) const {
    if (t.is(TypeKind::Vector) || t.is(TypeKind::Array) || t.is(TypeKind::Matrix))
      return constantAllowed(t.elementType());
    if (t.is(TypeKind::Struct)) {
      for (const dialect::StructMember &m : t.members())
        if (!constantAllowed(m.type))
          return false;
      return true;
    }
    grammar::Capability needed;
    if (t.is(TypeKind::Integer) && t.width() == 8)
      needed = grammar::Capability::Int8;
    else if (t.is(TypeKind::Integer) && t.width() == 16)
      needed = grammar::Capability::Int16;
    else if (t.is(TypeKind::Float) && t.width() == 16)
      needed = grammar::Capability::Float16;
    else
      return true;
    return capabilities_.count(static_cast<uint32_t>(needed)) != 0;
  }

  void replaceWithConstant(Operation &op, Attribute value) {
    if (!constantAllowed(op.result().type()))
      return;
    OpBuilder b(*ctx_);
    b.setInsertionPoint(&op);
    b.setLocation(op.location());
    replace(op, b.create<ConstantOp>(op.result().type(), value).result());
  }

  /// Folds `op` and applies what that gives.
  void simplify(Operation &op) {
    FoldResult r = dialect::fold(op, *ctx_);
    switch (r.kind) {
    case FoldResult::Kind::None:
      return;
    case FoldResult::Kind::Value:
      return replace(op, r.value);
    case FoldResult::Kind::Constant:
      return replaceWithConstant(op, r.constant);
    case FoldResult::Kind::NewOp:
      for (uint32_t i = 0; i < op.numResults(); ++i)
        op.result(i).replaceAllUsesWith(r.newOp->result(i));
      op.erase();
      changed_ = true;
      return;
    case FoldResult::Kind::InPlace:
      changed_ = true;
      return;
    }
  }

  Context *ctx_ = nullptr;
  bool changed_ = false;
  std::unordered_set<uint32_t> capabilities_; ///< declared and implied by the module
};

} // namespace

std::unique_ptr<Pass> createCanonicalizePass() { return std::make_unique<Canonicalize>(); }

extern const PassRegistration kCanonicalizePass{
    "canonicalize", "fold constants, simplify, remove dead code", createCanonicalizePass};

} // namespace spire::transforms
