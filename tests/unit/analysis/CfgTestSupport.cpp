#include "unit/analysis/CfgTestSupport.h"

#include "spire/analysis/Dominators.h"

#include <algorithm>

namespace spire::analysis::test {

namespace {

Cfg fromEdges(uint32_t n, const std::vector<std::vector<uint32_t>> &succs,
              const std::vector<uint8_t> &switches, const std::vector<uint8_t> &unreachable,
              std::mt19937 *rng) {
  Cfg cfg;
  GraphBuilder b(n);
  for (uint32_t v = 0; v < n; ++v)
    for (uint32_t s : succs[v])
      b.addEdge(v, s);
  cfg.graph = b.build(0);
  for (uint32_t v = 0; v < n; ++v) {
    const size_t count = cfg.graph.successors(v).size();
    Terminator t = count == 0   ? (unreachable[v] ? Terminator::Unreachable : Terminator::Return)
                   : count == 1 ? Terminator::Branch
                   : count == 2 && !switches[v] ? Terminator::ConditionalBranch
                                                : Terminator::Switch;
    cfg.terminators.push_back(t);
    if (t != Terminator::Switch)
      continue;
    uint64_t value = rng ? (*rng)() % 7 : 1;
    for (uint32_t i = 1; i < count; ++i) {
      // One or two case values per target (random graphs); values stay distinct.
      const uint32_t copies = rng && (*rng)() % 3 == 0 ? 2 : 1;
      for (uint32_t k = 0; k < copies; ++k)
        cfg.cases.push_back({v, value++, i});
    }
  }
  return cfg;
}

} // namespace

Cfg makeCfg(const std::vector<std::vector<uint32_t>> &succs,
            std::initializer_list<uint32_t> switches, std::initializer_list<uint32_t> unreachable) {
  const uint32_t n = static_cast<uint32_t>(succs.size());
  std::vector<uint8_t> sw(n, 0), un(n, 0);
  for (uint32_t v : switches)
    sw[v] = 1;
  for (uint32_t v : unreachable)
    un[v] = 1;
  return fromEdges(n, succs, sw, un, nullptr);
}

Cfg makeCfg(const std::vector<std::vector<uint32_t>> &succs, const std::vector<uint8_t> &switches,
            const std::vector<uint8_t> &unreachable) {
  return fromEdges(static_cast<uint32_t>(succs.size()), succs, switches, unreachable, nullptr);
}

Cfg randomReducibleCfg(std::mt19937 &rng, uint32_t n) {
  auto pick = [&](uint32_t lo, uint32_t hi) {
    return std::uniform_int_distribution<uint32_t>(lo, hi)(rng);
  };
  std::vector<std::vector<uint32_t>> succs(n);
  // A forward DAG: each node gets a predecessor before it, then random forward edges close by.
  for (uint32_t v = 1; v < n; ++v)
    succs[pick(v > 4 ? v - 4 : 0, v - 1)].push_back(v);
  for (uint32_t v = 0; v + 1 < n; ++v) {
    const uint32_t extra = pick(0, 2);
    for (uint32_t i = 0; i < extra; ++i)
      succs[v].push_back(pick(v + 1, std::min(n - 1, v + 6)));
  }
  GraphBuilder b(n);
  for (uint32_t v = 0; v < n; ++v)
    for (uint32_t s : succs[v])
      b.addEdge(v, s);
  const DominatorTree dom(b.build(0));
  // Back edges to dominators keep the dominator tree and make every cycle reducible.
  const uint32_t backEdges = pick(0, n / 3 + 1);
  for (uint32_t i = 0; i < backEdges; ++i) {
    uint32_t v = pick(0, n - 1), d = v;
    for (uint32_t up = pick(0, 3); up > 0 && dom.idom(d) != kNoNode; --up)
      d = dom.idom(d);
    succs[v].push_back(d);
  }
  std::vector<uint8_t> sw(n, 0), un(n, 0);
  for (uint32_t v = 0; v < n; ++v) {
    sw[v] = pick(0, 4) == 0;
    un[v] = pick(0, 5) == 0;
  }
  return fromEdges(n, succs, sw, un, &rng);
}

namespace {

/// Builds nested pieces into a successor list. Each piece is entered at one node and leaves to
/// `next`; loops record their header and exit so inner pieces can continue or break them.
struct NestedBuilder {
  std::mt19937 &rng;
  std::vector<std::vector<uint32_t>> succs;
  std::vector<uint8_t> switches;
  std::vector<std::pair<uint32_t, uint32_t>> loops; ///< (header, exit) of enclosing loops
  std::vector<uint32_t> returns;                    ///< a return node per function

  uint32_t pick(uint32_t lo, uint32_t hi) {
    return std::uniform_int_distribution<uint32_t>(lo, hi)(rng);
  }
  uint32_t node() {
    succs.emplace_back();
    switches.push_back(0);
    return static_cast<uint32_t>(succs.size() - 1);
  }
  /// Maybe an extra edge from `v` that leaves early: break or continue some enclosing loop, or
  /// return.
  void maybeJump(uint32_t v) {
    if (pick(0, 3) != 0)
      return;
    const uint32_t kind = pick(0, 2);
    if (kind == 0 || loops.empty())
      succs[v].push_back(returns[0]);
    else {
      auto [header, exit] = loops[pick(0, static_cast<uint32_t>(loops.size() - 1))];
      succs[v].push_back(kind == 1 ? exit : header);
    }
  }
  /// A piece entered at the returned node, leaving to `next`.
  uint32_t piece(uint32_t next, uint32_t &budget) {
    if (budget == 0) {
      const uint32_t v = node();
      succs[v].push_back(next);
      return v;
    }
    --budget;
    const uint32_t v = node();
    switch (pick(0, 4)) {
    case 0: { // sequence
      const uint32_t second = piece(next, budget);
      const uint32_t first = piece(second, budget);
      succs[v].push_back(first);
      break;
    }
    case 1: { // if / else (or if without else)
      const uint32_t then = piece(next, budget);
      const uint32_t otherwise = pick(0, 1) ? piece(next, budget) : next;
      succs[v] = {then, otherwise};
      break;
    }
    case 2: { // loop: v is the header, the body continues to v or leaves to next
      loops.push_back({v, next});
      const uint32_t latch = node();
      succs[latch] = {v, next};
      const uint32_t body = piece(latch, budget);
      succs[v].push_back(body);
      if (pick(0, 1))
        succs[v].push_back(next);
      loops.pop_back();
      break;
    }
    case 3: { // switch, sometimes with a case falling through to the next one
      switches[v] = 1;
      const uint32_t count = pick(2, 4);
      uint32_t later = next;
      for (uint32_t i = 0; i < count; ++i) {
        const uint32_t c = piece(pick(0, 2) == 0 ? later : next, budget);
        succs[v].push_back(c);
        later = c;
      }
      break;
    }
    default: // a plain block
      succs[v].push_back(next);
      break;
    }
    maybeJump(v);
    return v;
  }
};

} // namespace

Cfg randomNestedCfg(std::mt19937 &rng, uint32_t budget) {
  NestedBuilder nb{rng, {}, {}, {}, {}};
  const uint32_t entry = nb.node(); // node 0
  const uint32_t exit = nb.node();
  nb.returns.push_back(exit);
  const uint32_t first = nb.piece(exit, budget);
  nb.succs[entry].push_back(first);
  const uint32_t n = static_cast<uint32_t>(nb.succs.size());
  std::vector<uint8_t> un(n, 0);
  return fromEdges(n, nb.succs, nb.switches, un, &rng);
}

BranchOracle seededOracle(uint64_t seed) {
  return [seed](uint32_t node, uint32_t visit, uint32_t count) {
    uint64_t x = seed ^ (uint64_t(node) << 32) ^ visit;
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    x ^= x >> 31;
    return static_cast<uint32_t>(x % count);
  };
}

} // namespace spire::analysis::test
