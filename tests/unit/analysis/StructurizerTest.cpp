// The structurizer on hand-written patterns and on thousands of random reducible graphs: every
// result passes the structured control flow checker, and runs the input blocks in the same
// order as the input for every sequence of branch decisions.
#include "unit/analysis/CfgTestSupport.h"

#include "spire/analysis/CfgInterpreter.h"
#include "spire/analysis/Dominators.h"
#include "spire/analysis/Loops.h"
#include "spire/analysis/StructuredCfgCheck.h"
#include "spire/analysis/Structurizer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

namespace spire::analysis {

void PrintTo(const CfgTrace &t, std::ostream *os) {
  static const char *ends[] = {"return", "unreachable", "limit", "stuck"};
  for (uint32_t v : t.nodes)
    *os << v << ' ';
  *os << ends[static_cast<int>(t.end)];
}

namespace {

using test::makeCfg;
using test::seededOracle;
using Kind = StructuredCfg::Kind;

uint32_t countKind(const StructuredCfg &s, Kind kind) {
  return static_cast<uint32_t>(std::count(s.kinds.begin(), s.kinds.end(), kind));
}

std::string dump(const Cfg &cfg, const StructuredCfg &s) {
  static const char *names[] = {"orig", "fwd", "loophdr", "cont", "set", "ladder", "unreach"};
  std::string out = "input:\n";
  for (uint32_t v = 0; v < cfg.graph.size(); ++v) {
    out += "  " + std::to_string(v) + " ->";
    for (uint32_t t : cfg.graph.successors(v))
      out += " " + std::to_string(t);
    out += "\n";
  }
  out += "structured:\n";
  for (uint32_t v = 0; v < s.size(); ++v) {
    out += "  " + std::to_string(v) + " " + names[static_cast<int>(s.kinds[v])];
    if (s.kinds[v] == Kind::Original)
      out += "(" + std::to_string(s.origin[v]) + ")";
    if (s.kinds[v] == Kind::SetSelector || s.kinds[v] == Kind::Ladder)
      out += "[" + std::to_string(s.values[v]) + "]";
    if (s.merges[v].kind == MergeInfo::Kind::Selection)
      out += " selmerge " + std::to_string(s.merges[v].mergeBlock);
    if (s.merges[v].kind == MergeInfo::Kind::Loop)
      out += " loopmerge " + std::to_string(s.merges[v].mergeBlock) + " cont " +
             std::to_string(s.merges[v].continueTarget);
    out += " ->";
    for (uint32_t t : s.graph.successors(v))
      out += " " + std::to_string(t);
    out += "\n";
  }
  return out;
}

uint32_t copyOf(const StructuredCfg &s, uint32_t original) {
  for (uint32_t v = 0; v < s.size(); ++v)
    if (s.kinds[v] == Kind::Original && s.origin[v] == original)
      return v;
  return kNoNode;
}

/// An input block that dominates another still does in the output: values keep dominating
/// their uses.
void expectDominanceKept(const Cfg &cfg, const StructuredCfg &s) {
  const DominatorTree in(cfg.graph), out(s.graph);
  for (uint32_t a = 0; a < cfg.graph.size(); ++a)
    for (uint32_t b = 0; b < cfg.graph.size(); ++b)
      if (in.inTree(b) && in.dominates(a, b)) {
        EXPECT_TRUE(out.dominates(copyOf(s, a), copyOf(s, b)))
            << a << " dominates " << b << " in the input only\n"
            << dump(cfg, s);
      }
}

/// Along a run, each edge block runs right after its source and before its target, and every
/// input edge into a block with several predecessors passes its edge block.
void expectEdgeBlocksOnTheirEdges(const Cfg &cfg, const StructuredCfg &s,
                                  const std::vector<uint32_t> &blocks) {
  std::vector<uint32_t> preds(cfg.graph.size(), 0);
  const DominatorTree in(cfg.graph);
  for (uint32_t v = 0; v < cfg.graph.size(); ++v)
    if (in.inTree(v))
      for (uint32_t t : cfg.graph.successors(v))
        preds[t]++;
  uint32_t last = kNoNode, seen = kNoNode;
  for (uint32_t b : blocks) {
    for (const StructuredCfg::EdgeBlock &e : s.edgeBlocks)
      if (e.block == b) {
        EXPECT_EQ(e.from, last) << "edge block " << b;
        seen = b;
      }
    if (s.kinds[b] != Kind::Original)
      continue;
    const uint32_t o = s.origin[b];
    if (last != kNoNode && preds[o] >= 2) {
      auto succ = cfg.graph.successors(last);
      const uint32_t i =
          static_cast<uint32_t>(std::find(succ.begin(), succ.end(), o) - succ.begin());
      ASSERT_LT(i, succ.size());
      EXPECT_NE(s.edgeBlock(last, i), kNoNode);
      EXPECT_EQ(seen, s.edgeBlock(last, i)) << "edge " << last << " -> " << o;
    }
    last = o;
    seen = kNoNode;
  }
}

/// Structures `cfg`, checks the rules, and compares the paths for `seeds` decision sequences.
/// Returns the result for more expectations.
StructuredCfg structureAndCompare(const Cfg &cfg, uint32_t seeds = 64, uint32_t limit = 300) {
  Expected<StructuredCfg> s = structurize(cfg);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  if (!s.ok())
    return {};
  const Status check = checkStructured(cfg, *s);
  EXPECT_TRUE(check.ok()) << check.error().message << "\n" << dump(cfg, *s);
  for (uint32_t seed = 0; seed < seeds; ++seed) {
    const CfgTrace before = interpret(cfg, seededOracle(seed), limit);
    std::vector<uint32_t> blocks;
    const CfgTrace after = interpret(cfg, *s, seededOracle(seed), limit, &blocks);
    EXPECT_EQ(before, after) << "seed " << seed << "\n" << dump(cfg, *s);
    if (before != after)
      break;
    expectEdgeBlocksOnTheirEdges(cfg, *s, blocks);
  }
  expectDominanceKept(cfg, *s);
  // Each reached input block appears once.
  std::vector<uint32_t> copies(cfg.graph.size(), 0);
  for (uint32_t v = 0; v < s->size(); ++v)
    if (s->kinds[v] == Kind::Original)
      copies[s->origin[v]]++;
  for (uint32_t v = 0; v < cfg.graph.size(); ++v)
    EXPECT_LE(copies[v], 1u) << "input block " << v;
  return std::move(*s);
}

TEST(Structurizer, StraightLineNeedsNothing) {
  StructuredCfg s = structureAndCompare(makeCfg({{1}, {2}, {}}));
  EXPECT_EQ(s.size(), 3u);
  EXPECT_EQ(countKind(s, Kind::Original), 3u);
}

TEST(Structurizer, DiamondIsASelection) {
  // 0 -> 1 | 2 -> 3: 0 heads a selection whose merge block is 3 itself.
  StructuredCfg s = structureAndCompare(makeCfg({{1, 2}, {3}, {3}, {}}));
  EXPECT_EQ(countKind(s, Kind::LoopHeader), 0u);
  EXPECT_EQ(countKind(s, Kind::Ladder), 0u);
  EXPECT_EQ(countKind(s, Kind::SetSelector), 0u);
  const MergeInfo &m = s.merges[copyOf(s, 0)];
  EXPECT_EQ(m.kind, MergeInfo::Kind::Selection);
  EXPECT_EQ(m.mergeBlock, copyOf(s, 3));
}

TEST(Structurizer, BreakToASelectionMergeFromANestedSelectionUsesABreakScope) {
  // 0 -> 1 | 4; 1 -> 2 | 3; 2 -> 4 | 3; 3 -> 4: 2 leaves the selection of 1 straight to 4,
  // which a selection merge does not allow, so 4 ends a scope that is a SPIR-V loop.
  StructuredCfg s = structureAndCompare(makeCfg({{1, 4}, {2, 3}, {4, 3}, {4}, {}}));
  EXPECT_GE(countKind(s, Kind::LoopHeader), 1u);
  EXPECT_EQ(s.merges[copyOf(s, 1)].kind, MergeInfo::Kind::Selection);
}

TEST(Structurizer, LoopWithSeveralBackEdgesGetsOneContinueBlock) {
  // 0 -> 1; 1 -> 2 | 3; 2 -> 1 | 4; 3 -> 1 | 4; 4 returns: two latches (2 and 3).
  StructuredCfg s = structureAndCompare(makeCfg({{1}, {2, 3}, {1, 4}, {1, 4}, {}}));
  const uint32_t header = copyOf(s, 1);
  ASSERT_NE(header, kNoNode);
  uint32_t loops = 0;
  for (uint32_t v = 0; v < s.size(); ++v)
    if (s.merges[v].kind == MergeInfo::Kind::Loop) {
      ++loops;
      // Exactly one back edge per loop header: from its continue block.
      uint32_t backEdges = 0;
      for (uint32_t p : s.graph.predecessors(v))
        backEdges += s.kinds[p] == Kind::Continue;
      EXPECT_EQ(backEdges, 1u);
    }
  EXPECT_GE(loops, 1u);
}

TEST(Structurizer, BreakOutOfTwoLoopsGoesThroughALadder) {
  // Outer loop 1..5, inner loop 2..3; 3 leaves both loops straight to 6.
  // 0->1, 1->2, 2->3, 3->2|4|6 (switch), 4->1|5, 5->6? keep 5 -> 1 | 6
  Cfg cfg = makeCfg({{1}, {2}, {3}, {2, 4, 6}, {1, 5}, {1, 6}, {}});
  StructuredCfg s = structureAndCompare(cfg);
  EXPECT_GE(countKind(s, Kind::SetSelector), 1u);
  EXPECT_GE(countKind(s, Kind::Ladder), 1u);
}

TEST(Structurizer, ContinueOfAnOuterLoopFromAnInnerOne) {
  // Outer loop header 1, inner loop header 2; 3 continues the outer loop directly.
  Cfg cfg = makeCfg({{1}, {2, 5}, {3}, {2, 1, 4}, {1}, {}});
  StructuredCfg s = structureAndCompare(cfg);
  EXPECT_GE(countKind(s, Kind::Ladder) + countKind(s, Kind::SetSelector), 1u);
}

TEST(Structurizer, ReturnFromDeepInsideNestedLoops) {
  // Three nested loops (headers 1, 2, 3); 4 returns from the innermost one.
  Cfg cfg = makeCfg({{1}, {2}, {3}, {4, 5}, {}, {3, 6}, {2, 7}, {1, 8}, {}});
  StructuredCfg s = structureAndCompare(cfg);
  EXPECT_EQ(s.terminator(cfg, copyOf(s, 4)), Terminator::Return);
}

TEST(Structurizer, SwitchWithFallThrough) {
  // Switch 0: default 1, case 2, case 3; 2 falls through to 3; all meet at 4.
  Cfg cfg = makeCfg({{1, 2, 3}, {4}, {3}, {4}, {}});
  StructuredCfg s = structureAndCompare(cfg);
  const uint32_t sw = copyOf(s, 0);
  // The switch merges at 3 (2 falls through by breaking); 1 breaks out of the switch to 4
  // through a scope around it.
  EXPECT_EQ(s.merges[sw].kind, MergeInfo::Kind::Selection);
  EXPECT_EQ(s.merges[sw].mergeBlock, copyOf(s, 3));
  EXPECT_EQ(countKind(s, Kind::LoopHeader), 1u);
}

TEST(Structurizer, SelectionsSharingAMergeAndCrossingBranches) {
  // 0 -> 1 | 2; 1 -> 3 | 4; 2 -> 4 | 5; 3, 4, 5 -> 6: no merge of 1 or 2 alone is possible.
  Cfg cfg = makeCfg({{1, 2}, {3, 4}, {4, 5}, {6}, {6}, {6}, {}});
  structureAndCompare(cfg);
  // Early exit out of two nested selections to a shared tail.
  structureAndCompare(makeCfg({{1, 5}, {2, 4}, {3, 5}, {6}, {6}, {6}, {}}));
}

TEST(Structurizer, InfiniteLoopAndUnreachableEnds) {
  structureAndCompare(makeCfg({{1}, {2}, {1}}));
  structureAndCompare(makeCfg({{1, 2}, {}, {2}}, {}, {1}));
}

TEST(Structurizer, EntryThatIsALoopHeaderGetsAnEntryBlock) {
  StructuredCfg s = structureAndCompare(makeCfg({{0, 1}, {}}));
  EXPECT_TRUE(s.graph.predecessors(s.graph.entry()).empty());
}

TEST(Structurizer, IrreducibleGraphIsAnError) {
  // 0 -> 1 | 2; 1 <-> 2: the cycle is entered at both nodes.
  Expected<StructuredCfg> s = structurize(makeCfg({{1, 2}, {2}, {1}}));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("irreducible"), std::string::npos) << s.error().message;
}

TEST(Structurizer, MalformedInputIsAnError) {
  Cfg cfg = makeCfg({{1, 2}, {}, {}});
  cfg.terminators[0] = Terminator::Branch;
  EXPECT_FALSE(structurize(cfg).ok());
  cfg.terminators.pop_back();
  EXPECT_FALSE(structurize(cfg).ok());
}

/// The input as it is, every block an Original copy, with no merge declared.
StructuredCfg asIs(const Cfg &cfg) {
  StructuredCfg s;
  const uint32_t n = cfg.graph.size();
  s.graph = cfg.graph;
  s.kinds.assign(n, Kind::Original);
  s.merges.assign(n, {});
  s.values.assign(n, 0);
  for (uint32_t v = 0; v < n; ++v) {
    s.origin.push_back(v);
    s.layout.push_back(v);
  }
  return s;
}

void expectBroken(const Cfg &cfg, const StructuredCfg &s, const std::string &rule) {
  const Status st = checkStructured(cfg, s);
  ASSERT_FALSE(st.ok()) << "expected " << rule;
  EXPECT_NE(st.error().message.find("rule " + rule + ":"), std::string::npos) << st.error().message;
}

/// `n` blocks: a chain of diamonds, each branching block dominating the next two.
Cfg diamondChain(uint32_t n) {
  std::vector<std::vector<uint32_t>> succs(n);
  for (uint32_t v = 0; v + 1 < n; ++v)
    succs[v] = v % 2 == 0 && v + 2 < n ? std::vector<uint32_t>{v + 1, v + 2}
                                       : std::vector<uint32_t>{v + 1};
  return test::makeCfg(succs, std::vector<uint8_t>(n), std::vector<uint8_t>(n));
}

TEST(Structurizer, LongChainsWorkAndTooDeepNestingIsAnError) {
  // The builder recurses down the dominator tree: thousands of levels work, more are refused
  // with an error instead of running out of stack.
  structureAndCompare(diamondChain(300), 4, 400);
  EXPECT_TRUE(structurize(diamondChain(3000)).ok());
  Expected<StructuredCfg> s = structurize(diamondChain(20000));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("nests more than"), std::string::npos) << s.error().message;
}

TEST(StructuredCfgCheck, RejectsWhatBreaksTheRules) {
  Cfg cfg = makeCfg({{1, 2}, {3}, {3}, {}});
  Expected<StructuredCfg> s = structurize(cfg);
  ASSERT_TRUE(s.ok());
  // Drop every merge declaration: the scope's continue block is then an unstructured branch.
  StructuredCfg noMerges = *s;
  for (MergeInfo &m : noMerges.merges)
    m = {};
  EXPECT_FALSE(checkStructured(cfg, noMerges).ok());
  // A conditional branch with no merge at all; with a selection merge it is a valid if/else.
  StructuredCfg raw = asIs(cfg);
  expectBroken(cfg, raw, "S3");
  raw.merges[0] = {MergeInfo::Kind::Selection, 3, kNoNode};
  EXPECT_TRUE(checkStructured(cfg, raw).ok()) << checkStructured(cfg, raw).error().message;
  // A loop without a merge declaration: its back edge targets no loop header.
  Cfg loop = makeCfg({{1}, {2}, {1, 3}, {}});
  expectBroken(loop, asIs(loop), "C3");
  // A break from a nested selection to the outer selection's merge.
  Cfg nested = makeCfg({{1, 4}, {2, 3}, {4, 3}, {4}, {}});
  StructuredCfg c8 = asIs(nested);
  c8.merges[0] = {MergeInfo::Kind::Selection, 4, kNoNode};
  c8.merges[1] = {MergeInfo::Kind::Selection, 3, kNoNode};
  expectBroken(nested, c8, "C8");
  // Two headers declaring the same merge block.
  Cfg twice = makeCfg({{1, 4}, {2, 3}, {4}, {4}, {}});
  StructuredCfg c1 = asIs(twice);
  c1.merges[0] = {MergeInfo::Kind::Selection, 4, kNoNode};
  c1.merges[1] = {MergeInfo::Kind::Selection, 4, kNoNode};
  expectBroken(twice, c1, "C1");
  // A switch without a selection merge.
  Cfg sw = makeCfg({{1, 2}, {}, {}}, {0});
  expectBroken(sw, asIs(sw), "S2");
}

/// What the structurizer made of many graphs.
struct Shapes {
  uint32_t graphs = 0, ladders = 0, selections = 0, loops = 0, inputLoops = 0;

  void add(const Cfg &cfg, const StructuredCfg &s) {
    ++graphs;
    ladders += countKind(s, Kind::Ladder);
    for (const MergeInfo &m : s.merges)
      selections +=
          m.kind == MergeInfo::Kind::Selection && s.kinds[m.mergeBlock] != Kind::Unreachable;
    loops += countKind(s, Kind::LoopHeader);
    inputLoops +=
        static_cast<uint32_t>(LoopNest(cfg.graph, DominatorTree(cfg.graph)).loops().size());
  }
  void print(const char *what) const {
    std::printf("%u %s: %u ladder blocks, %u selections with a merge, %u loop constructs for %u "
                "input loops\n",
                graphs, what, ladders, selections, loops, inputLoops);
  }
};

TEST(Structurizer, RandomReducibleGraphsKeepEveryPath) {
  std::mt19937 rng(1234);
  Shapes shapes;
  for (uint32_t i = 0; i < 1500; ++i) {
    const uint32_t n = std::uniform_int_distribution<uint32_t>(1, 28)(rng);
    const Cfg cfg = test::randomReducibleCfg(rng, n);
    SCOPED_TRACE("graph " + std::to_string(i));
    shapes.add(cfg, structureAndCompare(cfg, 12, 200));
    if (::testing::Test::HasFailure())
      break;
  }
  EXPECT_EQ(shapes.graphs, 1500u);
  // The generator does produce multi-level exits, and selections with a reachable merge.
  EXPECT_GT(shapes.ladders, 100u);
  EXPECT_GT(shapes.selections, 100u);
  shapes.print("random DAGs with back edges");
}

TEST(Structurizer, RandomNestedGraphsKeepEveryPath) {
  std::mt19937 rng(99);
  Shapes shapes;
  for (uint32_t i = 0; i < 1500; ++i) {
    const Cfg cfg = test::randomNestedCfg(rng, std::uniform_int_distribution<uint32_t>(1, 14)(rng));
    SCOPED_TRACE("graph " + std::to_string(i));
    shapes.add(cfg, structureAndCompare(cfg, 12, 200));
    if (::testing::Test::HasFailure())
      break;
  }
  EXPECT_EQ(shapes.graphs, 1500u);
  shapes.print("nested structured graphs with jumps");
}

} // namespace
} // namespace spire::analysis
