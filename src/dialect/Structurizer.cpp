#include "Structurizer.h"

#include "spire/dialect/Ops.h"

#include <algorithm>
#include <functional>
#include <unordered_map>
#include <unordered_set>

namespace spire::dialect {

struct Structurizer::Construct {
  Block *header = nullptr, *merge = nullptr;
  Region *region = nullptr;
  std::vector<Block *> blocks; ///< header first
  std::unordered_set<Block *> members;
  std::string whyNot;
};

Structurizer::Structurizer(Context &context, const Cfg &cfg, std::vector<Block *> blocks,
                           Block *entry, DeserializeStats &stats, DeserializeOptions options)
    : ctx_(context), cfg_(cfg), dom_(cfg), blocks_(blocks), current_(std::move(blocks)),
      entry_(entry), stats_(stats), options_(options) {}

namespace {

/// Calls f(op, successorIndex) for every successor of every op of `b`.
template <class F> void forEachSuccessor(Block *b, F &&f) {
  for (Operation *op : *b)
    for (uint32_t i = 0; i < op->successors().size(); ++i)
      f(op, i);
}

/// Orders `blocks` (the header first, the rest in the module's order) as the branches reach
/// them: breadth first from the header, each block's targets in operand order (merge ops kept
/// in a block name blocks without branching there: not followed), so that a block comes after
/// its dominators; blocks no branch of the construct reaches keep their order after those.
/// `last` (a loop's continue construct) moves to the end, in that order.
void branchOrder(std::vector<Block *> &blocks, const std::unordered_set<Block *> &members,
                 const std::function<bool(Block *)> &last) {
  std::vector<Block *> order{blocks.front()};
  std::unordered_set<Block *> seen{blocks.front()};
  for (size_t i = 0; i < order.size(); ++i)
    forEachSuccessor(order[i], [&](Operation *op, uint32_t k) {
      Block *t = op->successors()[k].block;
      if ((op->info().flags & OpInfo::kTerminator) && members.count(t) && seen.insert(t).second)
        order.push_back(t);
    });
  for (Block *b : blocks)
    if (seen.insert(b).second)
      order.push_back(b);
  std::stable_partition(order.begin() + 1, order.end(), [&](Block *b) { return !last(b); });
  blocks = std::move(order);
}

/// The block of region `r` that holds `op`, perhaps through nested regions, or null.
Block *ancestorIn(Operation *op, const Region *r) {
  Block *b = op->block();
  while (b && b->parent() != r) {
    Operation *parent = b->parentOp();
    b = parent ? parent->block() : nullptr;
  }
  return b;
}

} // namespace

Block *Structurizer::resolve(Block *b) {
  Block *r = b;
  for (auto it = forward_.find(r); it != forward_.end(); it = forward_.find(r))
    r = it->second;
  // Path compression: the next lookup is one step.
  for (Block *x = b; x != r;) {
    Block *next = forward_[x];
    forward_[x] = r;
    x = next;
  }
  return r;
}

uint32_t Structurizer::indexOf(Block *b) const {
  auto it = index_.find(b);
  return it == index_.end() ? kNoIndex : it->second;
}

Status Structurizer::run(std::vector<MergeInfo> merges) {
  for (uint32_t i = 0; i < blocks_.size(); ++i)
    index_[blocks_[i]] = i;
  declaredBy_.assign(blocks_.size(), {});
  for (uint32_t g = 0; g < cfg_.size(); ++g) {
    if (cfg_.mergeBlock(g) != kNoIndex)
      declaredBy_[cfg_.mergeBlock(g)].push_back(g);
    if (cfg_.continueBlock(g) != kNoIndex)
      declaredBy_[cfg_.continueBlock(g)].push_back(g);
  }
  // Inner constructs first: a construct's header dominates the headers nested in it, which
  // therefore come later in reverse post-order.
  std::stable_sort(merges.begin(), merges.end(), [&](const MergeInfo &a, const MergeInfo &b) {
    return cfg_.rpoIndex(a.header) > cfg_.rpoIndex(b.header);
  });
  for (const MergeInfo &mi : merges) {
    Construct c;
    if (cfg_.reachable(mi.header) && collect(mi, c)) {
      regionize(mi, c);
    } else {
      if (!cfg_.reachable(mi.header))
        c.whyNot = "its header is unreachable";
      stats_.notes.push_back("block %" + std::to_string(cfg_.labelId(mi.header)) + ": " +
                             (mi.loop ? "loop" : "selection") + " kept as blocks: " + c.whyNot);
      ++stats_.unstructured;
      keepMergeOp(mi);
    }
  }
  return {};
}

bool Structurizer::exitOfEnclosing(uint32_t h, uint32_t block) const {
  for (uint32_t g : declaredBy_[block])
    if (g != h && cfg_.reachable(g) && dom_.dominates(g, h))
      return true;
  return false;
}

bool Structurizer::collect(const MergeInfo &mi, Construct &c) {
  uint32_t h = mi.header;
  uint32_t mergeIndex = cfg_.mergeBlock(h);
  if (mergeIndex == kNoIndex) {
    c.whyNot = "its merge block is not a block of the function";
    return false;
  }
  c.header = blocks_[h];
  c.merge = resolve(current_[mergeIndex]);
  c.region = c.header->parent();
  if (c.merge->parent() != c.region) {
    c.whyNot = "its merge block is in another region";
    return false;
  }
  std::vector<Block *> work{c.header};
  c.members.insert(c.header);
  c.blocks.push_back(c.header);
  auto consider = [&](Block *t) -> bool {
    if (t == c.merge || c.members.count(t))
      return true;
    uint32_t ti = indexOf(t);
    if (ti != kNoIndex && t->parent() == c.region &&
        (dom_.dominates(h, ti) || !cfg_.reachable(ti)) && !exitOfEnclosing(h, ti)) {
      c.members.insert(t);
      c.blocks.push_back(t);
      work.push_back(t);
      return true;
    }
    c.whyNot = "block %" + std::to_string(ti == kNoIndex ? 0 : cfg_.labelId(ti)) +
               " is a target of the construct that is neither its merge block nor inside it";
    return false;
  };
  if (mi.loop) {
    uint32_t cont = cfg_.continueBlock(h);
    if (cont == kNoIndex) {
      c.whyNot = "its continue target is not a block of the function";
      return false;
    }
    if (!consider(resolve(current_[cont])))
      return false;
  }
  while (!work.empty()) {
    Block *b = work.back();
    work.pop_back();
    bool ok = true;
    forEachSuccessor(b, [&](Operation *op, uint32_t i) {
      if (ok)
        ok = consider(op->successors()[i].block);
    });
    if (!ok)
      return false;
  }
  return true;
}

void Structurizer::regionize(const MergeInfo &mi, Construct &c) {
  Region &outer = *c.region;
  Block *H = c.header, *M = c.merge;
  uint32_t h = mi.header;

  // Values defined inside and used outside leave through the merge block.
  auto usesOutside = [&](Value v) {
    std::vector<OpOperand *> outside;
    for (OpOperand *u = v.firstUse(); u; u = u->nextUse()) {
      Block *at = ancestorIn(u->owner(), &outer);
      if (!at || !c.members.count(at))
        outside.push_back(u);
    }
    return outside;
  };
  // A selection header's ops run once, before the branch: today's MLIR keeps them outside the
  // region (in front of it), which then starts with the branch alone. MLIR 16 moves the header
  // into the region whole, unless something after the construct uses what they define.
  const bool mlir16 = options_.version <= MlirVersion::Mlir16;
  bool hoist = !mi.loop && H->front() != H->back() && !mlir16;
  if (!mi.loop && mlir16)
    for (Operation *op = H->front(); op && op != H->back() && !hoist; op = op->next())
      for (uint32_t r = 0; r < op->numResults() && !hoist; ++r)
        hoist = !usesOutside(op->result(r)).empty();
  if (hoist)
    for (Operation *op = H->front(); op && op != H->back(); op = op->next())
      pendingHoist_.push_back(op);
  std::vector<Value> escaping;
  std::vector<std::vector<OpOperand *>> escapingUses;
  auto check = [&](Value v) {
    std::vector<OpOperand *> outside = usesOutside(v);
    if (!outside.empty()) {
      escaping.push_back(v);
      escapingUses.push_back(std::move(outside));
    }
  };
  for (Block *b : c.blocks) {
    if (b != H || mi.loop)
      for (uint32_t a = 0; a < b->numArguments(); ++a)
        check(b->argument(a));
    for (Operation *op : *b) {
      if (b == H && hoist && op != H->back())
        continue; // hoisted
      for (uint32_t r = 0; r < op->numResults(); ++r)
        check(op->result(r));
    }
  }

  // The construct's op, in a new block standing where the header stood.
  // When the header is the function's entry block, the entry stays a block of its own (with
  // the parameters) that branches to N, as MLIR 16 makes it.
  Block *entryOfFunction = nullptr;
  if (H == outer.front() && !mi.loop && !hoist) {
    entryOfFunction = outer.addBlock(H);
    for (uint32_t a = 0; a < H->numArguments(); ++a)
      entryOfFunction->addArgument(H->argument(a).type());
  }
  Block *N = outer.addBlock(H);
  for (uint32_t a = 0; !entryOfFunction && a < H->numArguments(); ++a)
    N->addArgument(H->argument(a).type());
  if (entryOfFunction) {
    for (uint32_t a = H->numArguments(); a-- > 0;) {
      H->argument(a).replaceAllUsesWith(entryOfFunction->argument(a));
      H->eraseArgument(a);
    }
    OperationState toN(&ops::branch(), mi.location);
    toN.addSuccessor(N, {});
    entryOfFunction->push_back(Operation::create(std::move(toN)));
  }
  std::vector<Type> mergeTypes;
  for (uint32_t a = 0; a < M->numArguments(); ++a)
    mergeTypes.push_back(M->argument(a).type());
  const uint32_t mergeArgs = M->numArguments();
  for (Value v : escaping)
    mergeTypes.push_back(v.type());

  OperationState st(mi.loop ? &ops::loop() : &ops::selection(), mi.location);
  st.debugLoc = mi.debugLoc; // the merge instruction's line, which the serializer gives it back
  st.numRegions = 1;
  st.resultTypes = mergeTypes;
  st.addAttribute(ctx_, mi.loop ? "loop_control" : "selection_control",
                  attr::enumerant(ctx_,
                                  mi.loop ? grammar::OperandKind::LoopControl
                                          : grammar::OperandKind::SelectionControl,
                                  mi.control));
  if (!mi.controlParameters.empty()) {
    std::vector<Attribute> params;
    for (uint32_t p : mi.controlParameters)
      params.push_back(attr::integer(ctx_, ctx_.integer(32), static_cast<int32_t>(p)));
    st.addAttribute(ctx_, "loop_control_parameters", attr::array(ctx_, params));
  }
  Operation *X = Operation::create(std::move(st));
  Region &inner = X->region();

  // Edges into the header from outside now go to N.
  auto retarget = [&](Block *from) {
    if (!from || c.members.count(from))
      return;
    forEachSuccessor(from, [&](Operation *op, uint32_t i) {
      if (op->successors()[i].block == H)
        op->setSuccessorBlock(i, N);
    });
  };
  for (uint32_t p : cfg_.predecessors(h))
    retarget(resolve(current_[p]));
  if (entry_)
    retarget(entry_);
  for (Operation *op : mergeOps_)
    for (uint32_t i = 0; i < op->successors().size(); ++i)
      if (op->successors()[i].block == H)
        op->setSuccessorBlock(i, N);

  // The blocks move into the region in their order, the header first (after an entry block
  // for a loop, since the loop header is a branch target), and a new merge block last.
  std::sort(c.blocks.begin() + 1, c.blocks.end(),
            [&](Block *a, Block *b) { return indexOf(a) < indexOf(b); });
  if (options_.version > MlirVersion::Mlir16) {
    // MLIR puts a loop's continue target last (before the merge block): with the blocks it
    // dominates, so that each block still follows its dominators.
    uint32_t cont = mi.loop ? cfg_.continueBlock(h) : kNoIndex;
    branchOrder(c.blocks, c.members, [&](Block *b) {
      uint32_t i = indexOf(b);
      return cont != kNoIndex && i != kNoIndex && dom_.dominates(cont, i);
    });
  }
  if (mi.loop) {
    Block *E = inner.addBlock();
    OperationState br(&ops::branch(), mi.location);
    std::vector<Value> args;
    for (uint32_t a = 0; a < N->numArguments(); ++a)
      args.push_back(N->argument(a));
    br.addSuccessor(H, args);
    E->push_back(Operation::create(std::move(br)));
  } else {
    for (uint32_t a = H->numArguments(); a-- > 0;) {
      H->argument(a).replaceAllUsesWith(N->argument(a));
      H->eraseArgument(a);
    }
  }
  for (Block *b : c.blocks) {
    outer.remove(b);
    inner.insert(b);
  }
  Block *mergeBlock = inner.addBlock();
  std::vector<Value> mergeValues;
  for (Type t : mergeTypes)
    mergeValues.push_back(mergeBlock->addArgument(t));
  OperationState mst(&ops::merge(), mi.location);
  mst.operands = mergeValues;
  mergeBlock->push_back(Operation::create(std::move(mst)));

  // Branches to the merge block go to the region's merge block, with the escaping values.
  for (Block *b : c.blocks) {
    uint32_t bi = indexOf(b);
    for (Operation *op : *b) {
      bool targetsMerge = false;
      for (const Successor &s : op->successors())
        targetsMerge |= s.block == M;
      if (!targetsMerge)
        continue;
      std::vector<const Block *> succBlocks;
      std::vector<std::vector<Value>> succArgs;
      for (uint32_t i = 0; i < op->successors().size(); ++i) {
        const Successor &s = op->successors()[i];
        std::vector<Value> args = op->successorOperands(i);
        if (s.block == M) {
          succBlocks.push_back(mergeBlock);
          for (Value v : escaping) {
            Block *defBlock =
                v.isBlockArgument() ? v.ownerBlock() : ancestorIn(v.definingOp(), &inner);
            uint32_t di = defBlock ? indexOf(defBlock) : kNoIndex;
            bool available = defBlock == b || (di != kNoIndex && bi != kNoIndex &&
                                               dom_.dominates(di, bi) && cfg_.reachable(bi));
            if (available) {
              args.push_back(v);
            } else {
              OperationState u(opForInstruction(grammar::Op::Undef), mi.location);
              u.resultTypes.push_back(v.type());
              Operation *undef = Operation::create(std::move(u));
              b->insertBefore(op, undef);
              args.push_back(undef->result());
            }
          }
        } else {
          succBlocks.push_back(s.block);
        }
        succArgs.push_back(std::move(args));
      }
      op->setSuccessors(succBlocks, succArgs);
    }
  }

  if (mi.loop) {
    // The continue target: MLIR's convention is the block before the merge block; where it is
    // another, the loop says which.
    Block *cont = resolve(current_[cfg_.continueBlock(h)]);
    uint32_t position = 0;
    for (Block *b : inner) {
      if (b == cont)
        break;
      ++position;
    }
    if (cont != mergeBlock->prev())
      X->setAttr(ctx_, "continue_block",
                 attr::integer(ctx_, ctx_.integer(32), static_cast<int32_t>(position)));
  }
  for (Operation *op : pendingHoist_)
    op->moveToEnd(N);
  pendingHoist_.clear();
  N->push_back(X);
  OperationState br(&ops::branch(), mi.location);
  std::vector<Value> forwarded;
  for (uint32_t a = 0; a < mergeArgs; ++a)
    forwarded.push_back(X->result(a));
  br.addSuccessor(M, forwarded);
  N->push_back(Operation::create(std::move(br)));
  for (size_t i = 0; i < escaping.size(); ++i)
    for (OpOperand *u : escapingUses[i])
      u->set(X->result(mergeArgs + static_cast<uint32_t>(i)));

  index_[N] = h;
  for (Block *b : c.blocks) {
    uint32_t bi = indexOf(b);
    if (bi != kNoIndex)
      current_[bi] = N;
    forward_[b] = N; // nested now: N stands for it in the enclosing region
  }
  current_[h] = N;

  // A merge block that only the construct reaches continues N itself, as MLIR prints it: the
  // ops after a construct follow it in its block.
  uint32_t mergeIndex = cfg_.mergeBlock(h);
  bool onlyFromInside = M != outer.front() && declaredBy_[mergeIndex].size() == 1;
  for (uint32_t p : cfg_.predecessors(mergeIndex))
    onlyFromInside &= resolve(current_[p]) == N;
  for (Operation *op : mergeOps_)
    for (const Successor &s : op->successors())
      onlyFromInside &= s.block != M;
  if (entry_)
    for (const Successor &s : entry_->back()->successors())
      onlyFromInside &= s.block != M;
  if (onlyFromInside) {
    for (uint32_t a = 0; a < M->numArguments(); ++a)
      M->argument(a).replaceAllUsesWith(X->result(a));
    N->back()->erase();
    M->splice(M->front(), N);
    while (M->numArguments())
      M->eraseArgument(M->numArguments() - 1);
    outer.remove(M);
    graveyard_.emplace_back(M); // freed later: its address must stay unique meanwhile
    forward_[M] = N;
    current_[mergeIndex] = N;
  }
  if (mi.loop)
    ++stats_.loops;
  else
    ++stats_.selections;
}

void Structurizer::keepMergeOp(const MergeInfo &mi) {
  Block *H = blocks_[mi.header];
  uint32_t mergeIndex = cfg_.mergeBlock(mi.header);
  uint32_t contIndex = cfg_.continueBlock(mi.header);
  OperationState st(
      opForInstruction(mi.loop ? grammar::Op::LoopMerge : grammar::Op::SelectionMerge),
      mi.location);
  st.debugLoc = mi.debugLoc;
  if (mergeIndex != kNoIndex)
    st.addSuccessor(resolve(current_[mergeIndex]), {});
  if (mi.loop && contIndex != kNoIndex)
    st.addSuccessor(resolve(current_[contIndex]), {});
  st.addAttribute(ctx_, mi.loop ? "loop_control" : "selection_control",
                  attr::enumerant(ctx_,
                                  mi.loop ? grammar::OperandKind::LoopControl
                                          : grammar::OperandKind::SelectionControl,
                                  mi.control));
  Operation *op = Operation::create(std::move(st));
  Operation *term = H->back();
  if (term)
    H->insertBefore(term, op);
  else
    H->push_back(op);
  mergeOps_.push_back(op);
}

} // namespace spire::dialect
