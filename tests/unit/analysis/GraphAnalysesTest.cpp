// The graph analyses against their definitions, on hand-made graphs and on random ones: a node
// dominates another when every path from the entry to it goes through the first; the
// dominance frontier and natural loops checked the same way, by brute force.
#include "spire/analysis/Dominators.h"
#include "spire/analysis/Graph.h"
#include "spire/analysis/Loops.h"
#include "spire/analysis/Traversal.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

namespace spire::analysis {
namespace {

Graph graphOf(uint32_t n, std::initializer_list<std::pair<uint32_t, uint32_t>> edges,
              uint32_t entry = 0) {
  GraphBuilder b(n);
  for (auto [from, to] : edges)
    b.addEdge(from, to);
  return b.build(entry);
}

/// Random graph of `n` nodes, entry 0: a spanning path or tree plus random edges.
Graph randomGraph(std::mt19937 &rng, uint32_t n, uint32_t extraEdges) {
  GraphBuilder b(n);
  for (uint32_t v = 1; v < n; ++v)
    b.addEdge(std::uniform_int_distribution<uint32_t>(0, v - 1)(rng), v);
  for (uint32_t i = 0; i < extraEdges; ++i)
    b.addEdge(std::uniform_int_distribution<uint32_t>(0, n - 1)(rng),
              std::uniform_int_distribution<uint32_t>(0, n - 1)(rng));
  return b.build(0);
}

/// The nodes reachable from `from` along successors (or predecessors), never entering `cut`.
std::vector<uint8_t> reach(const Graph &g, uint32_t from, uint32_t cut, bool backwards = false) {
  std::vector<uint8_t> seen(g.size(), 0);
  if (from == cut)
    return seen;
  std::vector<uint32_t> work = {from};
  seen[from] = 1;
  while (!work.empty()) {
    uint32_t v = work.back();
    work.pop_back();
    for (uint32_t s : backwards ? g.predecessors(v) : g.successors(v))
      if (s != cut && !seen[s]) {
        seen[s] = 1;
        work.push_back(s);
      }
  }
  return seen;
}

bool naiveDominates(const Graph &g, uint32_t a, uint32_t b) {
  if (!reach(g, g.entry(), kNoNode)[b])
    return false;
  return a == b || !reach(g, g.entry(), a)[b];
}

bool reachesExit(const Graph &g, uint32_t from, uint32_t cut) {
  std::vector<uint8_t> r = reach(g, from, cut);
  for (uint32_t v = 0; v < g.size(); ++v)
    if (r[v] && g.successors(v).empty())
      return true;
  return false;
}

bool naivePostDominates(const Graph &g, uint32_t a, uint32_t b) {
  if (!reachesExit(g, b, kNoNode))
    return false;
  return a == b || !reachesExit(g, b, a);
}

TEST(Graph, KeepsEdgeOrderDropsDuplicatesAndListsPredecessors) {
  Graph g = graphOf(4, {{0, 2}, {0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 0}});
  ASSERT_EQ(g.size(), 4u);
  EXPECT_EQ(std::vector<uint32_t>(g.successors(0).begin(), g.successors(0).end()),
            (std::vector<uint32_t>{2, 1}));
  EXPECT_EQ(std::vector<uint32_t>(g.predecessors(3).begin(), g.predecessors(3).end()),
            (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(g.numEdges(), 5u);
  EXPECT_EQ(GraphBuilder(0).build(0).entry(), kNoNode);
}

TEST(Traversal, OrdersAndRetreatingEdges) {
  // 0 -> 1 -> 2 -> 1 (a loop), 0 -> 3; 4 unreachable.
  Graph g = graphOf(5, {{0, 1}, {1, 2}, {2, 1}, {0, 3}, {4, 0}});
  DepthFirst d = depthFirst(g);
  EXPECT_EQ(d.reversePostOrder, (std::vector<uint32_t>{0, 3, 1, 2}));
  EXPECT_FALSE(d.reached(4));
  EXPECT_TRUE(d.retreats(2, 1));
  EXPECT_FALSE(d.retreats(0, 3));
}

TEST(Dominators, DiamondAndLoop) {
  //   0 -> 1 -> 3, 0 -> 2 -> 3, 3 -> 4 -> 3 (loop), 4 -> 5
  Graph g = graphOf(6, {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}, {4, 3}, {4, 5}});
  DominatorTree dom(g);
  EXPECT_EQ(dom.idom(3), 0u);
  EXPECT_EQ(dom.idom(5), 4u);
  EXPECT_TRUE(dom.dominates(3, 5));
  EXPECT_FALSE(dom.dominates(1, 3));
  EXPECT_EQ(dom.nearestCommonDominator(1, 2), 0u);
  EXPECT_EQ(dom.depth(5), 3u);
  DominatorTree post(g, DominatorTree::Kind::PostDominators);
  EXPECT_EQ(post.idom(0), 3u);
  EXPECT_EQ(post.idom(3), 4u);
  EXPECT_EQ(post.idom(5), kNoNode); // a root: the virtual exit's child
  EXPECT_TRUE(post.dominates(5, 0));
  DominanceFrontiers df(g, dom);
  EXPECT_EQ(std::vector<uint32_t>(df.of(1).begin(), df.of(1).end()), (std::vector<uint32_t>{3}));
  EXPECT_EQ(std::vector<uint32_t>(df.of(4).begin(), df.of(4).end()), (std::vector<uint32_t>{3}));
  EXPECT_EQ(df.iterated(std::vector<uint32_t>{1}), (std::vector<uint32_t>{3}));
}

TEST(Dominators, EndlessLoopsHaveNoPostDominators) {
  // 0 -> 1 -> 1 (endless), 0 -> 2 (exit)
  Graph g = graphOf(3, {{0, 1}, {1, 1}, {0, 2}});
  DominatorTree post(g, DominatorTree::Kind::PostDominators);
  EXPECT_FALSE(post.inTree(1));
  EXPECT_TRUE(post.dominates(2, 0));
}

TEST(Dominators, AgreeWithTheDefinitionOnRandomGraphs) {
  std::mt19937 rng(2026);
  for (int round = 0; round < 300; ++round) {
    const uint32_t n = std::uniform_int_distribution<uint32_t>(1, 14)(rng);
    Graph g = randomGraph(rng, n, std::uniform_int_distribution<uint32_t>(0, 2 * n)(rng));
    DominatorTree dom(g);
    DominatorTree post(g, DominatorTree::Kind::PostDominators);
    for (uint32_t a = 0; a < n; ++a)
      for (uint32_t b = 0; b < n; ++b) {
        ASSERT_EQ(dom.dominates(a, b), naiveDominates(g, a, b)) << round << ": " << a << " " << b;
        ASSERT_EQ(post.dominates(a, b), naivePostDominates(g, a, b))
            << round << ": " << a << " " << b;
      }
    // Every immediate dominator strictly dominates its node, and is dominated by every other
    // strict dominator of it.
    for (uint32_t v = 0; v < n; ++v) {
      if (dom.idom(v) == kNoNode)
        continue;
      ASSERT_TRUE(dom.strictlyDominates(dom.idom(v), v));
      for (uint32_t a = 0; a < n; ++a)
        if (dom.strictlyDominates(a, v))
          ASSERT_TRUE(dom.dominates(a, dom.idom(v)));
    }
    // DF(x) = { y : x dominates a predecessor of y, x does not strictly dominate y }.
    DominanceFrontiers df(g, dom);
    for (uint32_t x = 0; x < n; ++x) {
      if (!dom.inTree(x))
        continue;
      std::set<uint32_t> expected;
      for (uint32_t y = 0; y < n; ++y)
        for (uint32_t p : g.predecessors(y))
          if (dom.dominates(x, p) && !dom.strictlyDominates(x, y))
            expected.insert(y);
      ASSERT_EQ(std::set<uint32_t>(df.of(x).begin(), df.of(x).end()), expected) << round;
    }
  }
}

TEST(Loops, NestedLoopsExitsAndDepths) {
  // 0 -> 1 (outer header) -> 2 (inner header) -> 3 -> 2, 3 -> 4 -> 1, 4 -> 5
  Graph g = graphOf(6, {{0, 1}, {1, 2}, {2, 3}, {3, 2}, {3, 4}, {4, 1}, {4, 5}});
  DominatorTree dom(g);
  LoopNest loops(g, dom);
  ASSERT_EQ(loops.loops().size(), 2u);
  const LoopNest::Loop &outer = loops.loops()[0];
  const LoopNest::Loop &inner = loops.loops()[1];
  EXPECT_EQ(outer.header, 1u);
  EXPECT_EQ(outer.nodes, (std::vector<uint32_t>{1, 2, 3, 4}));
  EXPECT_EQ(outer.exits, (std::vector<uint32_t>{5}));
  EXPECT_EQ(inner.header, 2u);
  EXPECT_EQ(inner.parent, 0u);
  EXPECT_EQ(inner.latches, (std::vector<uint32_t>{3}));
  EXPECT_EQ(inner.exits, (std::vector<uint32_t>{4}));
  EXPECT_EQ(loops.depth(3), 2u);
  EXPECT_EQ(loops.depth(0), 0u);
  EXPECT_EQ(loops.loopHeadedBy(2), 1u);
  EXPECT_TRUE(loops.reducible());
}

TEST(Loops, IrreducibleEntriesAreReported) {
  // Two ways into the cycle 1 <-> 2.
  Graph g = graphOf(3, {{0, 1}, {0, 2}, {1, 2}, {2, 1}});
  DominatorTree dom(g);
  LoopNest loops(g, dom);
  EXPECT_FALSE(loops.reducible());
  EXPECT_EQ(loops.irreducibleEdges().size(), 1u);
  EXPECT_TRUE(loops.loops().empty());
}

TEST(Loops, NaturalLoopsAgreeWithTheDefinitionOnRandomGraphs) {
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    const uint32_t n = std::uniform_int_distribution<uint32_t>(1, 14)(rng);
    Graph g = randomGraph(rng, n, std::uniform_int_distribution<uint32_t>(0, n)(rng));
    DominatorTree dom(g);
    LoopNest loops(g, dom);
    // Each header h: the nodes that reach a latch (a node h dominates with an edge to h)
    // without going through h.
    std::set<uint32_t> headers;
    for (uint32_t v = 0; v < n; ++v)
      for (uint32_t s : g.successors(v))
        if (dom.dominates(s, v))
          headers.insert(s);
    ASSERT_EQ(loops.loops().size(), headers.size()) << round;
    for (const LoopNest::Loop &loop : loops.loops()) {
      std::set<uint32_t> expected = {loop.header};
      for (uint32_t latch : loop.latches) {
        std::vector<uint8_t> r = reach(g, latch, loop.header, true);
        for (uint32_t v = 0; v < n; ++v)
          if (r[v] && reach(g, g.entry(), kNoNode)[v])
            expected.insert(v);
      }
      ASSERT_EQ(std::set<uint32_t>(loop.nodes.begin(), loop.nodes.end()), expected) << round;
      if (loops.reducible() && loop.parent != kNoNode) {
        const LoopNest::Loop &parent = loops.loops()[loop.parent];
        ASSERT_TRUE(std::includes(parent.nodes.begin(), parent.nodes.end(), loop.nodes.begin(),
                                  loop.nodes.end()));
      }
    }
  }
}

} // namespace
} // namespace spire::analysis
