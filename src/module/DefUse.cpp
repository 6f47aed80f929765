#include "spire/module/DefUse.h"

#include <algorithm>

namespace spire {

DefUse::DefUse(const Module &module) {
  // A counting sort by id in two walks over the decoded operands: the first counts each id's
  // uses, a prefix sum places each id's run, and the second fills the runs in instruction order.
  // (A list of (id, use) pairs between the walks was validation's largest table: 12 bytes an
  // operand, more than the runs themselves.) Ids past the header's bound, which no instruction
  // can define, are left out: the table stays the size of the largest id used whatever words a
  // malformed module holds.
  const uint32_t bound = module.bound();
  auto forEachUse = [&](auto &&f) {
    for (Instruction inst : module) {
      auto ops = inst.operands();
      for (uint16_t k = 0; k < ops.size(); ++k) {
        if (grammar::operandCategory(ops[k].kind) != grammar::OperandCategory::Id ||
            ops[k].kind == grammar::OperandKind::IdResult)
          continue;
        const uint32_t id = inst.word(ops[k].offset);
        if (id < bound)
          f(id, inst.index(), k);
      }
    }
  };
  // Counts at begin_[id + 2] (grown as larger ids come), summed, so that begin_[id + 1] is
  // where id's run starts; the fill moves each to where the next id's run starts, which leaves
  // begin_[id] at the start of id's run (begin_ keeps one entry more than it needs).
  uint32_t maxId = 0;
  size_t total = 0;
  forEachUse([&](uint32_t id, uint32_t, uint16_t) {
    if (size_t(id) + 3 > begin_.size())
      begin_.resize(std::max<size_t>(size_t(id) + 3, 2 * begin_.size()), 0);
    ++begin_[id + 2];
    maxId = std::max(maxId, id);
    ++total;
  });
  if (total == 0) {
    begin_.assign(1, 0);
    return;
  }
  begin_.resize(size_t(maxId) + 3);
  for (size_t i = 2; i < begin_.size(); ++i)
    begin_[i] += begin_[i - 1];
  uses_.resize(total);
  forEachUse([&](uint32_t id, uint32_t inst, uint16_t k) { uses_[begin_[id + 1]++] = {inst, k}; });
}

std::span<const DefUse::Use> DefUse::uses(uint32_t id) const {
  if (size_t(id) + 1 >= begin_.size())
    return {};
  return std::span<const Use>(uses_).subspan(begin_[id], begin_[id + 1] - begin_[id]);
}

} // namespace spire
