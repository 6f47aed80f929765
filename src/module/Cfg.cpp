#include "spire/module/Cfg.h"

#include "spire/module/Opcodes.h"

#include <algorithm>

namespace spire {

using grammar::Op;
using grammar::OperandKind;

Cfg::Cfg(const Module &module, const FunctionInfo &function) {
  auto blocks = module.blocks(function);
  blocks_.assign(blocks.begin(), blocks.end());
  const uint32_t n = size();
  labels_.resize(n);
  for (uint32_t b = 0; b < n; ++b)
    labels_[b] = module.inst(blocks_[b].label).resultId();
  labelOrder_.resize(n);
  for (uint32_t b = 0; b < n; ++b)
    labelOrder_[b] = b;
  std::sort(labelOrder_.begin(), labelOrder_.end(),
            [&](uint32_t a, uint32_t b) { return labels_[a] < labels_[b]; });

  mergeInst_.assign(n, kNoIndex);
  merge_.assign(n, kNoIndex);
  continue_.assign(n, kNoIndex);
  terminator_.assign(n, kNoIndex);
  succBegin_.assign(n + 1, 0);

  auto target = [&](uint32_t b, uint32_t inst, uint32_t id) {
    uint32_t t = blockOfLabel(id);
    if (t == kNoIndex)
      dangling_.push_back({b, inst, id});
    return t;
  };
  std::vector<uint32_t> local;
  for (uint32_t b = 0; b < n; ++b) {
    succBegin_[b] = static_cast<uint32_t>(succs_.size());
    for (uint32_t i = blocks_[b].label + 1; i < blocks_[b].end; ++i) {
      Instruction inst = module.inst(i);
      if (inst.isRaw())
        continue;
      Op op = inst.opcode();
      if ((op == Op::SelectionMerge || op == Op::LoopMerge) && mergeInst_[b] == kNoIndex) {
        mergeInst_[b] = i;
        merge_[b] = target(b, i, inst.word(1));
        if (op == Op::LoopMerge)
          continue_[b] = target(b, i, inst.word(2));
      }
      if (!isBlockTerminator(op))
        continue;
      terminator_[b] = i;
      // Successors: every label operand of the terminator (not the condition or selector).
      local.clear();
      auto ops = inst.operands();
      size_t first = op == Op::BranchConditional || op == Op::Switch ? 1 : 0;
      if (op == Op::Branch || op == Op::BranchConditional || op == Op::Switch) {
        for (size_t k = first; k < ops.size(); ++k) {
          if (ops[k].kind != OperandKind::IdRef)
            continue;
          uint32_t t = target(b, i, inst.word(ops[k].offset));
          if (t != kNoIndex && std::find(local.begin(), local.end(), t) == local.end())
            local.push_back(t);
        }
      }
      succs_.insert(succs_.end(), local.begin(), local.end());
    }
  }
  succBegin_[n] = static_cast<uint32_t>(succs_.size());

  // Predecessors, as compressed rows like the successors.
  predBegin_.assign(n + 1, 0);
  for (uint32_t s : succs_)
    predBegin_[s + 1]++;
  for (uint32_t b = 0; b < n; ++b)
    predBegin_[b + 1] += predBegin_[b];
  preds_.resize(succs_.size());
  std::vector<uint32_t> fill(predBegin_.begin(), predBegin_.end() - 1);
  for (uint32_t b = 0; b < n; ++b)
    for (uint32_t s : successors(b))
      preds_[fill[s]++] = b;

  // Reverse post-order of the blocks reachable from the entry (iterative depth-first search).
  rpoIndex_.assign(n, kNoIndex);
  if (n == 0)
    return;
  std::vector<uint8_t> seen(n, 0);
  std::vector<std::pair<uint32_t, uint32_t>> stack = {{0, 0}};
  seen[0] = 1;
  std::vector<uint32_t> post;
  while (!stack.empty()) {
    auto &[b, next] = stack.back();
    auto succ = successors(b);
    if (next < succ.size()) {
      uint32_t s = succ[next++];
      if (!seen[s]) {
        seen[s] = 1;
        stack.push_back({s, 0});
      }
      continue;
    }
    post.push_back(b);
    stack.pop_back();
  }
  rpo_.assign(post.rbegin(), post.rend());
  for (uint32_t i = 0; i < rpo_.size(); ++i)
    rpoIndex_[rpo_[i]] = i;
}

uint32_t Cfg::blockOfLabel(uint32_t labelId) const {
  auto it = std::lower_bound(labelOrder_.begin(), labelOrder_.end(), labelId,
                             [&](uint32_t b, uint32_t id) { return labels_[b] < id; });
  return it != labelOrder_.end() && labels_[*it] == labelId ? *it : kNoIndex;
}

DominatorTree::DominatorTree(const Cfg &cfg, Kind kind) {
  // Cooper, Harvey and Kennedy's iterative algorithm over a reverse post-order. For
  // post-dominators the graph is reversed and rooted at a virtual exit (index n) whose reverse
  // edges lead to every block without successors.
  const uint32_t n = cfg.size();
  const bool post = kind == Kind::PostDominators;
  const uint32_t nodes = post ? n + 1 : n;
  const uint32_t root = post ? n : 0;
  std::vector<uint32_t> exits;
  if (post)
    for (uint32_t b = 0; b < n; ++b)
      if (cfg.successors(b).empty())
        exits.push_back(b);
  auto forward = [&](uint32_t b) -> std::span<const uint32_t> {
    if (!post)
      return cfg.successors(b);
    return b == n ? std::span<const uint32_t>(exits) : cfg.predecessors(b);
  };
  std::vector<uint32_t> exitPreds; // in the reversed graph, the exit precedes nothing
  auto backward = [&](uint32_t b) -> std::span<const uint32_t> {
    if (!post)
      return cfg.predecessors(b);
    return b == n ? std::span<const uint32_t>(exitPreds) : cfg.successors(b);
  };

  idom_.assign(nodes, kNoIndex);
  pre_.assign(nodes, kNoIndex);
  post_.assign(nodes, kNoIndex);
  if (n == 0)
    return;

  // Reverse post-order from the root.
  std::vector<uint32_t> order, index(nodes, kNoIndex);
  {
    std::vector<uint8_t> seen(nodes, 0);
    std::vector<std::pair<uint32_t, uint32_t>> stack = {{root, 0}};
    seen[root] = 1;
    while (!stack.empty()) {
      auto &[b, next] = stack.back();
      auto succ = forward(b);
      if (next < succ.size()) {
        uint32_t s = succ[next++];
        if (!seen[s]) {
          seen[s] = 1;
          stack.push_back({s, 0});
        }
        continue;
      }
      order.push_back(b);
      stack.pop_back();
    }
    std::reverse(order.begin(), order.end());
    for (uint32_t i = 0; i < order.size(); ++i)
      index[order[i]] = i;
  }

  // A block whose only path to an exit runs through the exit-less part of the graph is kept out
  // of the post-dominator tree, as are unreachable blocks of the dominator tree.
  std::vector<uint32_t> dom(nodes, kNoIndex);
  dom[root] = root;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (index[a] > index[b])
        a = dom[a];
      while (index[b] > index[a])
        b = dom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = 1; i < order.size(); ++i) {
      uint32_t b = order[i];
      uint32_t best = kNoIndex;
      for (uint32_t p : backward(b)) {
        if (index[p] == kNoIndex || dom[p] == kNoIndex)
          continue;
        best = best == kNoIndex ? p : intersect(p, best);
      }
      if (post && cfg.successors(b).empty())
        best = root; // the virtual exit's edge
      if (best != dom[b]) {
        dom[b] = best;
        changed = true;
      }
    }
  }
  for (uint32_t b = 0; b < nodes; ++b)
    if (b != root && dom[b] != kNoIndex)
      idom_[b] = post && dom[b] == root ? kNoIndex : dom[b];

  // Number the tree depth-first so that dominance is an interval test.
  std::vector<uint32_t> childBegin(nodes + 1, 0), children;
  for (uint32_t b = 0; b < nodes; ++b)
    if (b != root && dom[b] != kNoIndex)
      childBegin[dom[b] + 1]++;
  for (uint32_t b = 0; b < nodes; ++b)
    childBegin[b + 1] += childBegin[b];
  children.resize(childBegin[nodes]);
  std::vector<uint32_t> fill(childBegin.begin(), childBegin.end() - 1);
  for (uint32_t b = 0; b < nodes; ++b)
    if (b != root && dom[b] != kNoIndex)
      children[fill[dom[b]]++] = b;
  uint32_t counter = 0;
  std::vector<std::pair<uint32_t, uint32_t>> stack = {{root, childBegin[root]}};
  pre_[root] = counter++;
  while (!stack.empty()) {
    auto &[b, next] = stack.back();
    if (next < childBegin[b + 1]) {
      uint32_t c = children[next++];
      pre_[c] = counter++;
      stack.push_back({c, childBegin[c]});
      continue;
    }
    post_[b] = counter++;
    stack.pop_back();
  }
  if (post) {
    pre_.resize(n);
    post_.resize(n);
    idom_.resize(n);
  }
}

bool DominatorTree::dominates(uint32_t a, uint32_t b) const {
  if (pre_[a] == kNoIndex || pre_[b] == kNoIndex)
    return false;
  return pre_[a] <= pre_[b] && post_[b] <= post_[a];
}

} // namespace spire
