// The rules are checked on the definitions: constructs are sets of blocks computed from
// structural dominance and post-dominance (over branch, merge and continue edges), and each
// branch edge is checked against every construct it leaves or enters.
#include "spire/analysis/StructuredCfgCheck.h"

#include "spire/analysis/Dominators.h"
#include "spire/analysis/Traversal.h"

#include <string>

namespace spire::analysis {

namespace {

using Kind = StructuredCfg::Kind;

Diagnostic violation(const std::string &rule, const std::string &what) {
  return makeError(Location{}, "structured control flow rule " + rule + ": " + what);
}

std::string block(uint32_t v) { return "block " + std::to_string(v); }

struct Construct {
  enum class Type : uint8_t { Selection, Switch, Loop, Continue, Case };
  Type type;
  uint32_t header; ///< the header, continue target or case target
  uint32_t owner;  ///< the header declaring it (itself for selection, loop, switch)
  std::vector<uint8_t> in;
};

class Checker {
public:
  Checker(const Cfg &input, const StructuredCfg &cfg) : input_(input), cfg_(cfg), g_(cfg.graph) {}

  Status run() {
    const uint32_t n = g_.size();
    if (n == 0 || cfg_.kinds.size() != n || cfg_.origin.size() != n || cfg_.merges.size() != n ||
        cfg_.values.size() != n)
      return violation("shape", "the per-block vectors do not match the graph");
    if (Status s = checkShapes(); !s)
      return s;
    buildStructuredGraph();
    if (Status s = checkDeclarations(); !s)
      return s;
    buildConstructs();
    if (Status s = checkEdges(); !s)
      return s;
    return checkNesting();
  }

private:
  const MergeInfo &merge(uint32_t v) const { return cfg_.merges[v]; }
  bool isLoopHeader(uint32_t v) const { return merge(v).kind == MergeInfo::Kind::Loop; }

  Status checkShapes() {
    const uint32_t n = g_.size();
    if (!g_.predecessors(g_.entry()).empty())
      return violation("entry", "the entry block is a branch target");
    for (uint32_t v = 0; v < n; ++v) {
      const size_t count = g_.successors(v).size();
      const Terminator t = cfg_.terminator(input_, v);
      size_t want = 1;
      if (cfg_.kinds[v] == Kind::Original) {
        if (cfg_.origin[v] >= input_.graph.size())
          return violation("shape", block(v) + " copies no input block");
        want = input_.graph.successors(cfg_.origin[v]).size();
      } else if (cfg_.kinds[v] == Kind::Ladder) {
        want = 2;
      } else if (cfg_.kinds[v] == Kind::Unreachable) {
        want = 0;
      }
      if (count != want)
        return violation("shape", block(v) + " has " + std::to_string(count) +
                                      " distinct successors, its terminator needs " +
                                      std::to_string(want));
      const MergeInfo &m = merge(v);
      if (m.kind == MergeInfo::Kind::None) {
        if (t == Terminator::Switch)
          return violation("S2", block(v) + " ends in a switch without a selection merge");
        continue;
      }
      if (m.mergeBlock >= n || (isLoopHeader(v) && m.continueTarget >= n))
        return violation("shape", block(v) + " declares a block that does not exist");
      if (m.kind == MergeInfo::Kind::Selection && t != Terminator::ConditionalBranch &&
          t != Terminator::Switch)
        return violation("shape", block(v) + " has a selection merge before neither a "
                                             "conditional branch nor a switch");
      if (m.kind == MergeInfo::Kind::Loop && t != Terminator::Branch &&
          t != Terminator::ConditionalBranch)
        return violation("shape", block(v) + " has a loop merge before neither a branch nor a "
                                             "conditional branch");
    }
    return {};
  }

  void buildStructuredGraph() {
    const uint32_t n = g_.size();
    GraphBuilder b(n);
    for (uint32_t v = 0; v < n; ++v) {
      for (uint32_t s : g_.successors(v))
        b.addEdge(v, s);
      if (merge(v).kind != MergeInfo::Kind::None)
        b.addEdge(v, merge(v).mergeBlock);
      if (isLoopHeader(v))
        b.addEdge(v, merge(v).continueTarget);
    }
    sg_ = b.build(g_.entry());
    dfs_ = depthFirst(sg_);
    sdom_ = DominatorTree(sg_);
    spdom_ = DominatorTree(sg_, DominatorTree::Kind::PostDominators);
    backEdgeBlock_.assign(n, kNoNode);
    declared_.assign(n, 0);
  }

  bool reached(uint32_t v) const { return dfs_.reached(v); }
  bool isBackEdge(uint32_t a, uint32_t b) const { return reached(a) && dfs_.retreats(a, b); }

  Status checkDeclarations() {
    const uint32_t n = g_.size();
    for (uint32_t a = 0; a < n; ++a) {
      if (!reached(a))
        continue;
      for (uint32_t b : g_.successors(a)) {
        if (!isBackEdge(a, b))
          continue;
        if (!isLoopHeader(b))
          return violation("C3", "the back edge " + block(a) + " -> " + std::to_string(b) +
                                     " does not target a loop header");
        if (backEdgeBlock_[b] != kNoNode)
          return violation("C3", "loop header " + std::to_string(b) + " has several back edges");
        backEdgeBlock_[b] = a;
      }
    }
    for (uint32_t h = 0; h < n; ++h) {
      const MergeInfo &m = merge(h);
      if (m.kind == MergeInfo::Kind::None || !reached(h))
        continue;
      if (declared_[m.mergeBlock]++)
        return violation("C1", block(m.mergeBlock) + " is declared a merge block twice");
      if (!sdom_.strictlyDominates(h, m.mergeBlock))
        return violation("C2", "header " + std::to_string(h) +
                                   " does not strictly structurally dominate its merge block");
      if (!isLoopHeader(h))
        continue;
      const uint32_t c = m.continueTarget, be = backEdgeBlock_[h];
      if (c == m.mergeBlock)
        return violation("C4", "loop header " + std::to_string(h) +
                                   " has the same merge block and continue target");
      if (be == kNoNode)
        return violation("C3", "loop header " + std::to_string(h) + " has no back edge");
      if (!sdom_.dominates(h, c))
        return violation("C5", "loop header " + std::to_string(h) +
                                   " does not structurally dominate its continue target");
      if (!sdom_.dominates(c, be))
        return violation("C6", "the continue target of " + std::to_string(h) +
                                   " does not structurally dominate the back-edge block");
      if (!spdom_.dominates(be, c))
        return violation("C7", "the back-edge block of " + std::to_string(h) +
                                   " does not structurally post-dominate the continue target");
    }
    // S3: a two-way branch that neither breaks nor continues declares a selection merge.
    std::vector<uint8_t> exitTarget(n, 0);
    for (uint32_t h = 0; h < n; ++h)
      if (isLoopHeader(h)) {
        exitTarget[merge(h).mergeBlock] = 1;
        exitTarget[merge(h).continueTarget] = 1;
      } else if (merge(h).kind == MergeInfo::Kind::Selection) {
        exitTarget[merge(h).mergeBlock] = 1;
      }
    for (uint32_t v = 0; v < n; ++v) {
      auto s = g_.successors(v);
      if (cfg_.terminator(input_, v) == Terminator::ConditionalBranch &&
          merge(v).kind == MergeInfo::Kind::None && !exitTarget[s[0]] && !exitTarget[s[1]])
        return violation("S3", block(v) + " branches two ways with no selection merge");
    }
    // Layout: every reached block once, after its dominator.
    const DominatorTree dom(g_);
    std::vector<uint32_t> position(n, kNoNode);
    for (uint32_t i = 0; i < cfg_.layout.size(); ++i) {
      const uint32_t v = cfg_.layout[i];
      if (v >= n || position[v] != kNoNode)
        return violation("layout", "the layout lists a block twice or one that does not exist");
      position[v] = i;
    }
    for (uint32_t v = 0; v < n; ++v) {
      if (reached(v) && position[v] == kNoNode)
        return violation("layout", "the layout misses " + block(v));
      if (dom.inTree(v) && dom.idom(v) != kNoNode && position[dom.idom(v)] > position[v])
        return violation("layout", block(v) + " comes before its dominator");
    }
    return {};
  }

  std::vector<uint8_t> dominated(uint32_t by, uint32_t notBy) const {
    std::vector<uint8_t> in(g_.size(), 0);
    for (uint32_t v = 0; v < g_.size(); ++v)
      in[v] = reached(v) && sdom_.dominates(by, v) && !sdom_.dominates(notBy, v);
    return in;
  }

  void buildConstructs() {
    const uint32_t n = g_.size();
    for (uint32_t h = 0; h < n; ++h) {
      const MergeInfo &m = merge(h);
      if (m.kind == MergeInfo::Kind::None || !reached(h))
        continue;
      if (m.kind == MergeInfo::Kind::Selection) {
        const bool isSwitch = cfg_.terminator(input_, h) == Terminator::Switch;
        constructs_.push_back({isSwitch ? Construct::Type::Switch : Construct::Type::Selection, h,
                               h, dominated(h, m.mergeBlock)});
        if (isSwitch)
          for (uint32_t t : g_.successors(h))
            if (t != m.mergeBlock)
              constructs_.push_back({Construct::Type::Case, t, h, dominated(t, m.mergeBlock)});
        continue;
      }
      Construct cont{Construct::Type::Continue, m.continueTarget, h, std::vector<uint8_t>(n, 0)};
      for (uint32_t v = 0; v < n; ++v)
        cont.in[v] = reached(v) && sdom_.dominates(m.continueTarget, v) &&
                     spdom_.dominates(backEdgeBlock_[h], v);
      Construct loop{Construct::Type::Loop, h, h, dominated(h, m.mergeBlock)};
      for (uint32_t v = 0; v < n; ++v)
        loop.in[v] &= !cont.in[v];
      constructs_.push_back(std::move(loop));
      constructs_.push_back(std::move(cont));
    }
  }

  /// The innermost loop (its loop or continue construct) or switch holding `a`: its header.
  uint32_t innermost(uint32_t a, bool loops) const {
    uint32_t best = kNoNode;
    for (const Construct &c : constructs_) {
      const bool fits = loops
                            ? c.type == Construct::Type::Loop || c.type == Construct::Type::Continue
                            : c.type == Construct::Type::Switch;
      if (fits && c.in[a] && (best == kNoNode || sdom_.depth(c.owner) > sdom_.depth(best)))
        best = c.owner;
    }
    return best;
  }

  /// C8/C9: may the edge a -> b leave construct `s`?
  bool mayLeave(const Construct &s, uint32_t a, uint32_t b) const {
    if (isBackEdge(a, b))
      return s.type != Construct::Type::Continue || b == s.owner;
    const MergeInfo &m = merge(s.owner);
    switch (s.type) {
    case Construct::Type::Loop:
      return b == m.mergeBlock || b == m.continueTarget;
    case Construct::Type::Continue:
      return b == m.mergeBlock;
    default:
      break;
    }
    if (b == m.mergeBlock)
      return true;
    if (s.type == Construct::Type::Case)
      for (uint32_t t : g_.successors(s.owner))
        if (t == b)
          return true;
    const uint32_t loop = innermost(a, true), sw = innermost(a, false);
    if (loop != kNoNode && (b == merge(loop).mergeBlock || b == merge(loop).continueTarget))
      return true;
    return sw != kNoNode && b == merge(sw).mergeBlock &&
           (loop == kNoNode || sdom_.depth(sw) > sdom_.depth(loop));
  }

  Status checkEdges() {
    const uint32_t n = g_.size();
    for (uint32_t a = 0; a < n; ++a) {
      if (!reached(a))
        continue;
      for (uint32_t b : g_.successors(a)) {
        for (const Construct &s : constructs_) {
          if (s.in[a] && !s.in[b] && !mayLeave(s, a, b))
            return violation(s.type == Construct::Type::Continue ? "C9" : "C8",
                             "the edge " + block(a) + " -> " + std::to_string(b) +
                                 " leaves the construct of " + std::to_string(s.header) +
                                 " other than by a break, continue or back edge");
          const bool entersHeaded = s.type == Construct::Type::Selection ||
                                    s.type == Construct::Type::Switch ||
                                    s.type == Construct::Type::Loop;
          if (entersHeaded && !s.in[a] && s.in[b] && b != s.header)
            return violation("C12", "the edge " + block(a) + " -> " + std::to_string(b) +
                                        " enters the construct of " + std::to_string(s.header) +
                                        " other than at its header");
        }
        for (uint32_t h = 0; h < n; ++h)
          if (isLoopHeader(h) && reached(h) && b == merge(h).continueTarget && b != h &&
              !isBackEdge(a, b) && a != h) {
            const Construct *loop = loopConstruct(h);
            if (loop && !loop->in[a])
              return violation("C10", "the edge " + block(a) + " -> " + std::to_string(b) +
                                          " continues a loop from outside it");
          }
      }
    }
    return {};
  }

  const Construct *loopConstruct(uint32_t h) const {
    for (const Construct &c : constructs_)
      if (c.type == Construct::Type::Loop && c.owner == h)
        return &c;
    return nullptr;
  }

  Status checkNesting() {
    for (const Construct &s : constructs_) {
      const bool headed = s.type == Construct::Type::Selection ||
                          s.type == Construct::Type::Switch || s.type == Construct::Type::Loop;
      if (!headed)
        continue;
      for (const Construct &t : constructs_) {
        const bool tHeaded = t.type == Construct::Type::Selection ||
                             t.type == Construct::Type::Switch || t.type == Construct::Type::Loop;
        if (&s == &t || !tHeaded || t.header == s.header || !s.in[t.header])
          continue;
        if (!s.in[merge(t.header).mergeBlock])
          return violation("C11", "the construct of " + std::to_string(s.header) +
                                      " holds the header " + std::to_string(t.header) +
                                      " but not its merge block");
      }
    }
    // C13..C15: case constructs hang off their switch and fall through at most once each way.
    for (const Construct &k : constructs_) {
      if (k.type != Construct::Type::Case)
        continue;
      if (!sdom_.dominates(k.owner, k.header))
        return violation("C13", "switch " + std::to_string(k.owner) +
                                    " does not dominate its case " + std::to_string(k.header));
      uint32_t out = 0, into = 0;
      for (const Construct &o : constructs_) {
        if (o.type != Construct::Type::Case || o.owner != k.owner || o.header == k.header)
          continue;
        bool kToO = false, oToK = false;
        for (uint32_t v = 0; v < g_.size(); ++v)
          for (uint32_t s : g_.successors(v)) {
            kToO |= k.in[v] && s == o.header;
            oToK |= o.in[v] && s == k.header;
          }
        out += kToO;
        into += oToK;
      }
      if (out > 1 || into > 1)
        return violation(out > 1 ? "C14" : "C15",
                         "case " + std::to_string(k.header) + " falls through more than once");
    }
    return {};
  }

  const Cfg &input_;
  const StructuredCfg &cfg_;
  const Graph &g_;
  Graph sg_;
  DepthFirst dfs_;
  DominatorTree sdom_{Graph()}, spdom_{Graph()};
  std::vector<uint32_t> backEdgeBlock_;
  std::vector<uint8_t> declared_;
  std::vector<Construct> constructs_;
};

} // namespace

Status checkStructured(const Cfg &input, const StructuredCfg &cfg) {
  return Checker(input, cfg).run();
}

} // namespace spire::analysis
