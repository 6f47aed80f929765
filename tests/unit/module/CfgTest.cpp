// Control-flow graphs, dominators and post-dominators, def-use chains.
#include "spire/module/Cfg.h"
#include "spire/module/Builder.h"
#include "spire/module/DefUse.h"

#include <gtest/gtest.h>

using namespace spire;
using grammar::Op;

namespace {

// A void function whose blocks are described one by one; block k has label id 100 + k.
struct Sketch {
  struct Block {
    Op terminator = Op::Return;
    std::vector<uint32_t> targets; // block numbers (or any id >= 1000 for a dangling target)
    Op merge = Op::Nop;            // SelectionMerge or LoopMerge
    std::vector<uint32_t> mergeTargets{};
  };
  std::vector<Block> blocks;

  static uint32_t label(uint32_t b) { return b >= 1000 ? b : 100 + b; }

  Module build() const {
    ModuleBuilder mb;
    mb.reserveIds(1000);
    const uint32_t voidT = 1, fnT = 2, fn = 3, boolT = 4, cond = 5, intT = 6, sel = 7;
    mb.add(Section::Capability, Op::Capability).literal(1);
    mb.add(Section::MemoryModel, Op::MemoryModel).literal(0).literal(1);
    mb.add(Section::Global, Op::TypeVoid).id(voidT);
    mb.add(Section::Global, Op::TypeFunction).id(fnT).id(voidT);
    mb.add(Section::Global, Op::TypeBool).id(boolT);
    mb.add(Section::Global, Op::Undef).id(boolT).id(cond);
    mb.add(Section::Global, Op::TypeInt).id(intT).literal(32).literal(0);
    mb.add(Section::Global, Op::Undef).id(intT).id(sel);
    mb.add(Section::FunctionDefinition, Op::Function).id(voidT).id(fn).literal(0).id(fnT);
    for (uint32_t b = 0; b < blocks.size(); ++b) {
      const Block &blk = blocks[b];
      mb.add(Section::FunctionDefinition, Op::Label).id(label(b));
      if (blk.merge == Op::SelectionMerge)
        mb.add(Section::FunctionDefinition, Op::SelectionMerge)
            .id(label(blk.mergeTargets[0]))
            .literal(0);
      if (blk.merge == Op::LoopMerge)
        mb.add(Section::FunctionDefinition, Op::LoopMerge)
            .id(label(blk.mergeTargets[0]))
            .id(label(blk.mergeTargets[1]))
            .literal(0);
      std::vector<uint32_t> &out = mb.sectionWords(Section::FunctionDefinition);
      InstWriter w(out, blk.terminator);
      if (blk.terminator == Op::BranchConditional)
        w.id(cond);
      if (blk.terminator == Op::Switch) {
        w.id(sel).id(label(blk.targets[0]));
        for (size_t k = 1; k < blk.targets.size(); ++k)
          w.literal(static_cast<uint32_t>(k)).id(label(blk.targets[k]));
      } else {
        for (uint32_t t : blk.targets)
          w.id(label(t));
      }
    }
    mb.add(Section::FunctionDefinition, Op::FunctionEnd);
    Expected<Module> m = mb.build({.allowIdsPastBound = true});
    EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().format());
    return std::move(m).value();
  }
};

std::vector<uint32_t> vec(std::span<const uint32_t> s) { return {s.begin(), s.end()}; }

} // namespace

TEST(Cfg, DiamondWithSelection) {
  // 0 -> {1, 2} -> 3
  Sketch s;
  s.blocks = {{Op::BranchConditional, {1, 2}, Op::SelectionMerge, {3}},
              {Op::Branch, {3}},
              {Op::Branch, {3}},
              {Op::Return, {}}};
  Module m = s.build();
  Cfg cfg(m, m.functions()[0]);
  ASSERT_EQ(cfg.size(), 4u);
  EXPECT_EQ(vec(cfg.successors(0)), (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(vec(cfg.predecessors(3)), (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(cfg.mergeBlock(0), 3u);
  EXPECT_EQ(cfg.continueBlock(0), kNoIndex);
  EXPECT_EQ(cfg.blockOfLabel(102), 2u);
  EXPECT_EQ(cfg.blockOfLabel(999), kNoIndex);
  EXPECT_EQ(cfg.reversePostOrder().size(), 4u);
  EXPECT_EQ(cfg.reversePostOrder()[0], 0u);
  EXPECT_EQ(cfg.reversePostOrder()[3], 3u);

  DominatorTree dom(cfg);
  EXPECT_EQ(dom.idom(3), 0u);
  EXPECT_EQ(dom.idom(1), 0u);
  EXPECT_TRUE(dom.dominates(0, 3));
  EXPECT_FALSE(dom.dominates(1, 3));
  EXPECT_TRUE(dom.dominates(2, 2));
  DominatorTree pdom(cfg, DominatorTree::Kind::PostDominators);
  EXPECT_EQ(pdom.idom(0), 3u);
  EXPECT_EQ(pdom.idom(1), 3u);
  EXPECT_EQ(pdom.idom(3), kNoIndex);
  EXPECT_TRUE(pdom.dominates(3, 0));
  EXPECT_FALSE(pdom.dominates(1, 0));
}

TEST(Cfg, LoopWithContinueAndUnreachableBlock) {
  // 0 -> 1 (header: merge 4, continue 3) -> 2 -> 3 -> 1; 2 -> 4; 5 is unreachable.
  Sketch s;
  s.blocks = {{Op::Branch, {1}},
              {Op::Branch, {2}, Op::LoopMerge, {4, 3}},
              {Op::BranchConditional, {3, 4}},
              {Op::Branch, {1}},
              {Op::Return, {}},
              {Op::Unreachable, {}}};
  Module m = s.build();
  Cfg cfg(m, m.functions()[0]);
  EXPECT_EQ(cfg.mergeBlock(1), 4u);
  EXPECT_EQ(cfg.continueBlock(1), 3u);
  EXPECT_TRUE(cfg.reachable(3));
  EXPECT_FALSE(cfg.reachable(5));
  EXPECT_EQ(cfg.rpoIndex(5), kNoIndex);
  EXPECT_EQ(vec(cfg.predecessors(1)), (std::vector<uint32_t>{0, 3}));
  DominatorTree dom(cfg);
  EXPECT_EQ(dom.idom(1), 0u);
  EXPECT_EQ(dom.idom(2), 1u);
  EXPECT_EQ(dom.idom(3), 2u);
  EXPECT_EQ(dom.idom(4), 2u);
  EXPECT_TRUE(dom.dominates(1, 3));
  EXPECT_FALSE(dom.dominates(3, 1));
  EXPECT_FALSE(dom.inTree(5));
  EXPECT_FALSE(dom.dominates(0, 5));
  DominatorTree pdom(cfg, DominatorTree::Kind::PostDominators);
  EXPECT_EQ(pdom.idom(2), 4u);
  EXPECT_EQ(pdom.idom(3), 1u);
  EXPECT_TRUE(pdom.dominates(4, 0));
  // The unreachable block ends in OpUnreachable: it reaches the virtual exit.
  EXPECT_TRUE(pdom.inTree(5));
}

TEST(Cfg, SwitchTargetsAreUniqueAndDanglingTargetsAreReported) {
  Sketch s;
  s.blocks = {
      {Op::Switch, {2, 1, 1, 2}, Op::SelectionMerge, {2}}, {Op::Branch, {1000}}, {Op::Return, {}}};
  Module m = s.build();
  Cfg cfg(m, m.functions()[0]);
  EXPECT_EQ(vec(cfg.successors(0)), (std::vector<uint32_t>{2, 1}));
  ASSERT_EQ(cfg.danglingTargets().size(), 1u);
  EXPECT_EQ(cfg.danglingTargets()[0].block, 1u);
  EXPECT_EQ(cfg.danglingTargets()[0].target, 1000u);
  EXPECT_TRUE(cfg.successors(1).empty());
}

TEST(Cfg, InfiniteLoopStaysOutOfThePostDominatorTree) {
  // 0 -> 1 -> 1 forever; 0 -> 2 returns.
  Sketch s;
  s.blocks = {{Op::BranchConditional, {1, 2}}, {Op::Branch, {1}}, {Op::Return, {}}};
  Module m = s.build();
  Cfg cfg(m, m.functions()[0]);
  DominatorTree pdom(cfg, DominatorTree::Kind::PostDominators);
  EXPECT_FALSE(pdom.inTree(1));
  EXPECT_TRUE(pdom.inTree(0));
  EXPECT_EQ(pdom.idom(0), 2u);
}

TEST(DefUse, UsesInInstructionOrder) {
  Sketch s;
  s.blocks = {{Op::BranchConditional, {1, 1}}, {Op::Return, {}}};
  Module m = s.build();
  DefUse du(m);
  // The bool type (4) is used by the OpUndef of the condition; the condition (5) by the branch.
  ASSERT_EQ(du.uses(4).size(), 1u);
  EXPECT_EQ(m.inst(du.uses(4)[0].inst).opcode(), Op::Undef);
  ASSERT_EQ(du.uses(5).size(), 1u);
  EXPECT_EQ(m.inst(du.uses(5)[0].inst).opcode(), Op::BranchConditional);
  EXPECT_EQ(du.uses(5)[0].operand, 0u);
  // The label of block 1 is used twice by the same branch.
  EXPECT_EQ(du.uses(101).size(), 2u);
  EXPECT_TRUE(du.uses(12345).empty());
  // The void type: by OpTypeFunction and OpFunction.
  EXPECT_EQ(du.uses(1).size(), 2u);
  EXPECT_LT(du.uses(1)[0].inst, du.uses(1)[1].inst);
}
