// The structurizer works in two steps over the dominator tree of the input, after the
// "nested blocks and loops" translation of reducible graphs: a node with several forward
// predecessors (a merge node) becomes the code after a scope wrapped around the code of its
// immediate dominator, a loop header opens a loop scope, and every edge becomes either code
// placed inline (a target with one forward predecessor), a break to the end of an enclosing
// scope, or a continue of an enclosing loop. SPIR-V only lets a block break out of its innermost
// loop, so every scope is emitted as a SPIR-V loop construct and an exit that crosses several
// scopes writes the selector, breaks out of the innermost one, and is forwarded by a ladder at
// each merge it passes. The first pass records which exits cross each scope's merge, the second
// builds the blocks.
#include "spire/analysis/Structurizer.h"

#include "spire/analysis/Dominators.h"
#include "spire/analysis/Traversal.h"

#include <algorithm>
#include <string>

namespace spire::analysis {

std::span<const SwitchCase> Cfg::casesOf(uint32_t node) const {
  auto lo = std::lower_bound(cases.begin(), cases.end(), node,
                             [](const SwitchCase &c, uint32_t n) { return c.node < n; });
  auto hi = lo;
  while (hi != cases.end() && hi->node == node)
    ++hi;
  return std::span<const SwitchCase>(cases).subspan(static_cast<size_t>(lo - cases.begin()),
                                                    static_cast<size_t>(hi - lo));
}

uint32_t StructuredCfg::edgeBlock(uint32_t from, uint32_t successor) const {
  auto it =
      std::lower_bound(edgeBlocks.begin(), edgeBlocks.end(), EdgeBlock{from, successor, 0},
                       [](const EdgeBlock &a, const EdgeBlock &b) {
                         return a.from != b.from ? a.from < b.from : a.successor < b.successor;
                       });
  return it != edgeBlocks.end() && it->from == from && it->successor == successor ? it->block
                                                                                  : kNoNode;
}

Terminator StructuredCfg::terminator(const Cfg &input, uint32_t node) const {
  switch (kinds[node]) {
  case Kind::Original:
    return input.terminators[origin[node]];
  case Kind::Ladder:
    return Terminator::ConditionalBranch;
  case Kind::Unreachable:
    return Terminator::Unreachable;
  default:
    return Terminator::Branch;
  }
}

namespace {

Diagnostic error(std::string message) {
  return makeError(Location{}, "structurize: " + std::move(message));
}

class Builder {
public:
  Builder(const Cfg &in, const DominatorTree &dom, const DepthFirst &dfs)
      : in_(in), g_(in.graph), dom_(dom), dfs_(dfs) {
    const uint32_t n = g_.size();
    forwardPreds_.assign(n, 0);
    inputPreds_.assign(n, 0);
    loopHeader_.assign(n, 0);
    for (uint32_t v = 0; v < n; ++v) {
      if (!dfs.reached(v))
        continue;
      for (uint32_t s : g_.successors(v)) {
        inputPreds_[s]++;
        if (dom.dominates(s, v))
          loopHeader_[s] = 1;
        else
          forwardPreds_[s]++;
      }
    }
  }

  /// The builder recurses down the dominator tree (and once more per merge child on the way):
  /// deeper graphs are refused before the stack runs out.
  Status checkNesting() const {
    constexpr uint32_t kMaxNesting = 4096;
    std::vector<uint32_t> cost(g_.size(), 0), mergeKids(g_.size(), 0);
    for (uint32_t x : dfs_.reversePostOrder)
      if (x != g_.entry() && isMergeNode(x))
        mergeKids[dom_.idom(x)]++;
    for (uint32_t x : dfs_.reversePostOrder) {
      if (x == g_.entry())
        continue;
      const uint32_t p = dom_.idom(x);
      cost[x] = cost[p] + 1 + mergeKids[p];
      if (cost[x] > kMaxNesting)
        return error("the graph nests more than " + std::to_string(kMaxNesting) +
                     " levels deep (dominator tree depth and merge nodes), which the "
                     "structurizer does not handle");
    }
    return {};
  }

  StructuredCfg run() {
    // Pass 1 records which labels cross each scope; pass 2 emits.
    recording_ = true;
    scopeCount_ = 0;
    const uint32_t entry = g_.entry();
    emitTree(entry, kNoNode);
    for (uint32_t id = 0; id < scopeCount_; ++id)
      selection_[id] = selection_[id] && !notSelection_[id];
    for (std::vector<uint32_t> &c : crossing_) {
      std::sort(c.begin(), c.end());
      c.erase(std::unique(c.begin(), c.end()), c.end());
    }
    recording_ = false;
    scopeCount_ = 0;
    // The function's first block may not be a branch target: a tree that starts with a scope
    // header gets an empty entry block in front.
    const bool scopeFirst = loopHeader_[entry] || !mergeChildren(entry).empty();
    if (scopeFirst) {
      const uint32_t first = newNode(StructuredCfg::Kind::Forward);
      const uint32_t tree = newNode(StructuredCfg::Kind::Forward);
      succs_[first].push_back(tree);
      emitTree(entry, tree);
    } else {
      emitTree(entry, newNode(StructuredCfg::Kind::Forward));
    }
    return finish();
  }

private:
  struct Scope {
    bool loop;      ///< a loop scope (continue = back to `node`) or a block scope (break = `node`)
    bool selection; ///< a block scope that is the selection construct of the code it wraps
    uint32_t node;  ///< the loop header, or the merge node the block scope ends before
    uint32_t id;
    uint32_t header = kNoNode, continueBlock = kNoNode, merge = kNoNode;
  };

  bool isMergeNode(uint32_t v) const { return forwardPreds_[v] >= 2; }

  /// The children of `x` in the dominator tree that are merge nodes, latest in reverse
  /// post-order first (the outermost scope).
  std::vector<uint32_t> mergeChildren(uint32_t x) const {
    std::vector<uint32_t> ys;
    for (uint32_t c : dom_.children(x))
      if (isMergeNode(c))
        ys.push_back(c);
    std::sort(ys.begin(), ys.end(),
              [&](uint32_t a, uint32_t b) { return dfs_.rpoIndex[a] > dfs_.rpoIndex[b]; });
    return ys;
  }

  uint32_t newNode(StructuredCfg::Kind kind, uint32_t origin = kNoNode, uint32_t value = 0) {
    kinds_.push_back(kind);
    origin_.push_back(origin);
    values_.push_back(value);
    merges_.push_back({});
    succs_.emplace_back();
    return static_cast<uint32_t>(kinds_.size() - 1);
  }
  void setNode(uint32_t at, StructuredCfg::Kind kind, uint32_t origin = kNoNode,
               uint32_t value = 0) {
    kinds_[at] = kind;
    origin_[at] = origin;
    values_[at] = value;
  }

  bool branches(uint32_t x) const {
    return in_.terminators[x] == Terminator::ConditionalBranch ||
           in_.terminators[x] == Terminator::Switch;
  }

  /// The code of the dominator subtree of `x`, its first block filled in at `at`.
  void emitTree(uint32_t x, uint32_t at) {
    // Code that opens no construct keeps breaking straight to a selection scope's merge.
    const uint32_t plain = plainScope_;
    if (loopHeader_[x] || branches(x) || !mergeChildren(x).empty())
      plainScope_ = kNoNode;
    emitScopes(x, at);
    plainScope_ = plain;
  }

  void emitScopes(uint32_t x, uint32_t at) {
    if (!loopHeader_[x]) {
      nodeWithin(x, mergeChildren(x), 0, at);
      return;
    }
    openScope(true, x, at, false);
    Scope &s = scopes_.back();
    const uint32_t body = recording_ ? kNoNode : newNode(StructuredCfg::Kind::Forward);
    if (!recording_)
      succs_[s.header].push_back(body);
    nodeWithin(x, mergeChildren(x), 0, body);
    closeScope(kNoNode);
  }

  /// The code of `x` inside block scopes that end before ys[i..] (the outermost first).
  void nodeWithin(uint32_t x, const std::vector<uint32_t> &ys, size_t i, uint32_t at) {
    if (i == ys.size()) {
      emitCode(x, at);
      return;
    }
    // The innermost scope around a branching block can be that block's selection construct
    // when every break to its end comes from code directly in it (no construct between).
    const uint32_t y = ys[i];
    const bool candidate = i + 1 == ys.size() && branches(x);
    const uint32_t id = scopeCount_;
    const bool asSelection = candidate && !recording_ && selection_[id];
    openScope(false, y, at, asSelection);
    if (recording_)
      selection_[id] = candidate;
    uint32_t body = at;
    if (!asSelection) {
      body = recording_ ? kNoNode : newNode(StructuredCfg::Kind::Forward);
      if (!recording_)
        succs_[scopes_.back().header].push_back(body);
    }
    const uint32_t plain = plainScope_;
    plainScope_ = candidate ? id : kNoNode;
    nodeWithin(x, ys, i + 1, body);
    plainScope_ = plain;
    // The code of y follows the scope, in the enclosing scopes.
    Scope closed = scopes_.back();
    scopes_.pop_back();
    uint32_t follower = kNoNode;
    if (!recording_)
      follower = onlySelf(closed) ? closed.merge : newNode(StructuredCfg::Kind::Forward);
    emitTree(y, follower);
    scopes_.push_back(closed);
    closeScope(follower);
  }

  /// True when the only exit through a block scope's merge is the break to its own end: its
  /// merge block is then the code after it, with no ladder.
  bool onlySelf(const Scope &s) const {
    if (s.selection)
      return true;
    const std::vector<uint32_t> &c = crossing_[s.id];
    return !s.loop && c.size() == 1 && c[0] == s.id;
  }

  void openScope(bool loop, uint32_t node, uint32_t at, bool selection) {
    Scope s{loop, selection, node, scopeCount_++};
    if (recording_) {
      crossing_.emplace_back();
      selection_.push_back(0);
      notSelection_.push_back(0);
    } else if (selection) {
      s.header = at; // the branching block itself; emitCode declares the merge
      s.merge = newNode(StructuredCfg::Kind::Forward);
    } else {
      s.header = at;
      setNode(at, StructuredCfg::Kind::LoopHeader);
      s.continueBlock = newNode(StructuredCfg::Kind::Continue);
      succs_[s.continueBlock].push_back(at);
      s.merge = newNode(crossing_[s.id].empty() ? StructuredCfg::Kind::Unreachable
                                                : StructuredCfg::Kind::Forward);
      merges_[at] = {MergeInfo::Kind::Loop, s.merge, s.continueBlock};
    }
    scopes_.push_back(s);
  }

  /// Builds the ladder at the merge of the innermost scope (`follower`: where a break to a
  /// block scope's own end goes) and leaves the scope.
  void closeScope(uint32_t follower) {
    const Scope s = scopes_.back();
    scopes_.pop_back();
    if (recording_ || crossing_[s.id].empty() || onlySelf(s))
      return;
    const Scope *parent = loopScope(scopes_.size());
    bool toSelf = false, toContinue = false, toOuter = false;
    for (uint32_t label : crossing_[s.id]) {
      if (label == s.id)
        toSelf = true;
      else if (parent && parent->loop && label == parent->id)
        toContinue = true;
      else
        toOuter = true;
    }
    // Each ladder has a merge or continue target among its targets, so needs no merge of its own.
    uint32_t at = s.merge;
    if (toContinue && (toSelf || toOuter)) {
      setNode(at, StructuredCfg::Kind::Ladder, kNoNode, parent->id);
      const uint32_t next = newNode(StructuredCfg::Kind::Forward);
      succs_[at] = {parent->continueBlock, next};
      at = next;
      toContinue = false;
    }
    if (toSelf && toOuter) {
      setNode(at, StructuredCfg::Kind::Ladder, kNoNode, s.id);
      succs_[at] = {follower, parent->merge};
      return;
    }
    succs_[at] = {toSelf ? follower : toContinue ? parent->continueBlock : parent->merge};
  }

  /// The innermost scope below stack position `end` that is a SPIR-V loop construct.
  const Scope *loopScope(size_t end) const {
    while (end > 0 && scopes_[end - 1].selection)
      --end;
    return end == 0 ? nullptr : &scopes_[end - 1];
  }

  /// Where the edge x -> target goes: a new block for the edge's path, filled in or returned.
  uint32_t branch(uint32_t x, uint32_t target, bool trampoline) {
    const bool back = dom_.dominates(target, x);
    if (!back && !isMergeNode(target)) {
      const uint32_t at = recording_ ? kNoNode : newNode(StructuredCfg::Kind::Forward);
      emitTree(target, at);
      return at;
    }
    // A break or continue: find the scope, innermost first.
    size_t k = scopes_.size();
    while (k > 0 && !(scopes_[k - 1].loop == back && scopes_[k - 1].node == target))
      --k;
    const Scope &label = scopes_[k - 1]; // exists in a reducible graph
    if (recording_) {
      if (!back && plainScope_ != label.id)
        notSelection_[label.id] = 1;
      for (size_t j = k; j < scopes_.size(); ++j)
        crossing_[scopes_[j].id].push_back(label.id);
      if (!back)
        crossing_[label.id].push_back(label.id);
      return kNoNode;
    }
    uint32_t to;
    if (label.selection) {
      to = label.merge;
    } else {
      // The label is a loop construct, so there is an innermost one.
      const Scope &inner = *loopScope(scopes_.size());
      if (&label == &inner && back) {
        to = inner.continueBlock;
      } else if (&label == &inner && onlySelf(inner)) {
        to = inner.merge;
      } else {
        to = newNode(StructuredCfg::Kind::SetSelector, kNoNode, label.id);
        succs_[to].push_back(inner.merge);
        return to;
      }
    }
    if (!trampoline)
      return to;
    const uint32_t t = newNode(StructuredCfg::Kind::Forward);
    succs_[t].push_back(to);
    return t;
  }

  void emitCode(uint32_t x, uint32_t at) {
    if (!recording_)
      setNode(at, StructuredCfg::Kind::Original, x);
    const Terminator term = in_.terminators[x];
    std::vector<uint32_t> targets;
    auto succs = g_.successors(x);
    for (uint32_t i = 0; i < succs.size(); ++i) {
      // An edge into a block with several predecessors gets a block of its own, where the
      // translator stores what the target's phis receive along it.
      const bool ownBlock = inputPreds_[succs[i]] >= 2;
      const uint32_t to = branch(x, succs[i], term == Terminator::Switch && !ownBlock);
      if (recording_ || !ownBlock) {
        targets.push_back(to);
        continue;
      }
      const uint32_t e = newNode(StructuredCfg::Kind::Forward);
      succs_[e].push_back(to);
      edgeBlocks_.push_back({x, i, e});
      targets.push_back(e);
    }
    if (recording_)
      return;
    if (!scopes_.empty() && scopes_.back().selection && scopes_.back().header == at) {
      merges_[at] = {MergeInfo::Kind::Selection, scopes_.back().merge, kNoNode};
      succs_[at] = std::move(targets);
      return;
    }
    bool exempt = false; // a conditional branch that breaks or continues needs no merge
    for (uint32_t t : targets)
      for (const Scope &s : scopes_)
        exempt |= t == s.merge || t == s.continueBlock;
    if (term == Terminator::Switch || (term == Terminator::ConditionalBranch && !exempt)) {
      const uint32_t merge = newNode(StructuredCfg::Kind::Unreachable);
      merges_[at] = {MergeInfo::Kind::Selection, merge, kNoNode};
    }
    succs_[at] = std::move(targets);
  }

  StructuredCfg finish() {
    StructuredCfg out;
    const uint32_t n = static_cast<uint32_t>(kinds_.size());
    GraphBuilder b(n);
    for (uint32_t v = 0; v < n; ++v)
      for (uint32_t s : succs_[v])
        b.addEdge(v, s);
    out.graph = b.build(0);
    // Layout: reverse post-order over branch, merge and continue edges.
    GraphBuilder sb(n);
    for (uint32_t v = 0; v < n; ++v) {
      for (uint32_t s : succs_[v])
        sb.addEdge(v, s);
      if (merges_[v].kind != MergeInfo::Kind::None)
        sb.addEdge(v, merges_[v].mergeBlock);
      if (merges_[v].kind == MergeInfo::Kind::Loop)
        sb.addEdge(v, merges_[v].continueTarget);
    }
    out.layout = depthFirst(sb.build(0)).reversePostOrder;
    out.kinds = std::move(kinds_);
    out.origin = std::move(origin_);
    out.merges = std::move(merges_);
    out.values = std::move(values_);
    out.edgeBlocks = std::move(edgeBlocks_);
    std::sort(out.edgeBlocks.begin(), out.edgeBlocks.end(), [](const auto &a, const auto &b) {
      return a.from != b.from ? a.from < b.from : a.successor < b.successor;
    });
    return out;
  }

  const Cfg &in_;
  const Graph &g_;
  const DominatorTree &dom_;
  const DepthFirst &dfs_;
  std::vector<uint32_t> forwardPreds_, inputPreds_;
  std::vector<StructuredCfg::EdgeBlock> edgeBlocks_;
  std::vector<uint8_t> loopHeader_;
  bool recording_ = true;
  uint32_t plainScope_ = kNoNode; ///< the selection candidate the code being built is directly in
  std::vector<uint8_t> selection_, notSelection_; ///< per scope
  uint32_t scopeCount_ = 0;
  std::vector<Scope> scopes_;
  std::vector<std::vector<uint32_t>> crossing_; ///< per scope: labels whose exits pass its merge
  std::vector<StructuredCfg::Kind> kinds_;
  std::vector<uint32_t> origin_, values_;
  std::vector<MergeInfo> merges_;
  std::vector<std::vector<uint32_t>> succs_;
};

Status checkInput(const Cfg &in) {
  const Graph &g = in.graph;
  if (g.size() == 0)
    return error("the graph has no nodes");
  if (in.terminators.size() != g.size())
    return error("the graph has " + std::to_string(g.size()) + " nodes but " +
                 std::to_string(in.terminators.size()) + " terminators");
  for (uint32_t v = 0; v < g.size(); ++v) {
    const size_t n = g.successors(v).size();
    const Terminator t = in.terminators[v];
    const bool ok = t == Terminator::Branch              ? n == 1
                    : t == Terminator::ConditionalBranch ? n == 2
                    : t == Terminator::Switch            ? n >= 1
                                                         : n == 0;
    if (!ok)
      return error("node " + std::to_string(v) + " has " + std::to_string(n) +
                   " successors, which its terminator cannot have");
  }
  for (size_t i = 0; i < in.cases.size(); ++i) {
    const SwitchCase &c = in.cases[i];
    if (c.node >= g.size() || in.terminators[c.node] != Terminator::Switch || c.successor == 0 ||
        c.successor >= g.successors(c.node).size() || (i > 0 && in.cases[i - 1].node > c.node))
      return error("switch case " + std::to_string(i) + " does not name a switch successor");
  }
  return {};
}

} // namespace

Expected<StructuredCfg> structurize(const Cfg &input) {
  if (Status s = checkInput(input); !s)
    return s.error();
  const DominatorTree dom(input.graph);
  const DepthFirst dfs = depthFirst(input.graph);
  // Reducible: every edge back to a depth-first ancestor goes to a node that dominates it.
  for (uint32_t v : dfs.reversePostOrder)
    for (uint32_t t : input.graph.successors(v))
      if (dfs.retreats(v, t) && !dom.dominates(t, v))
        return error("the graph is irreducible: the edge " + std::to_string(v) + " -> " +
                     std::to_string(t) + " enters a cycle other than at its header");
  Builder builder(input, dom, dfs);
  if (Status s = builder.checkNesting(); !s)
    return s.error();
  return builder.run();
}

} // namespace spire::analysis
