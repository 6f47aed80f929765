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

  auto target = [&](uint32_t b, uint32_t inst, uint32_t id) {
    uint32_t t = blockOfLabel(id);
    if (t == kNoIndex)
      dangling_.push_back({b, inst, id});
    return t;
  };
  analysis::GraphBuilder edges(n);
  for (uint32_t b = 0; b < n; ++b) {
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
      if (op != Op::Branch && op != Op::BranchConditional && op != Op::Switch)
        continue;
      auto ops = inst.operands();
      for (size_t k = op == Op::Branch ? 0 : 1; k < ops.size(); ++k) {
        if (ops[k].kind != OperandKind::IdRef)
          continue;
        if (uint32_t t = target(b, i, inst.word(ops[k].offset)); t != kNoIndex)
          edges.addEdge(b, t);
      }
    }
  }
  graph_ = edges.build(0);
  order_ = analysis::depthFirst(graph_);
}

uint32_t Cfg::blockOfLabel(uint32_t labelId) const {
  auto it = std::lower_bound(labelOrder_.begin(), labelOrder_.end(), labelId,
                             [&](uint32_t b, uint32_t id) { return labels_[b] < id; });
  return it != labelOrder_.end() && labels_[*it] == labelId ? *it : kNoIndex;
}

} // namespace spire
