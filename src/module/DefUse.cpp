#include "spire/module/DefUse.h"

#include <algorithm>

namespace spire {

DefUse::DefUse(const Module &module) {
  // A counting sort by id: one walk collects the uses in instruction order, a count per id and
  // a prefix sum place each id's run, and a scatter that keeps the walk's order fills it. Ids
  // past the header's bound, which no instruction can define, are left out: the table stays
  // the size of the bound whatever words a malformed module holds.
  struct Entry {
    uint32_t id;
    Use use;
  };
  std::vector<Entry> entries;
  // Each id operand is a word of its own: the module's words bound their number (a reserve by
  // instruction count fell short, and the copies as the vector grew were a tenth of this).
  entries.reserve(module.words().size());
  const uint32_t bound = module.bound();
  uint32_t maxId = 0;
  for (Instruction inst : module) {
    auto ops = inst.operands();
    for (uint16_t k = 0; k < ops.size(); ++k) {
      if (grammar::operandCategory(ops[k].kind) != grammar::OperandCategory::Id ||
          ops[k].kind == grammar::OperandKind::IdResult)
        continue;
      const uint32_t id = inst.word(ops[k].offset);
      if (id >= bound)
        continue;
      maxId = std::max(maxId, id);
      entries.push_back({id, {inst.index(), k}});
    }
  }
  // Counts at begin_[id + 2], summed, so that begin_[id + 1] is where id's run starts; the
  // scatter moves each to where the next id's run starts, which leaves begin_[id] at the start
  // of id's run (begin_ keeps one entry more than it needs).
  begin_.assign(entries.empty() ? 1 : size_t(maxId) + 3, 0);
  if (entries.empty())
    return;
  for (const Entry &e : entries)
    ++begin_[e.id + 2];
  for (size_t i = 2; i < begin_.size(); ++i)
    begin_[i] += begin_[i - 1];
  uses_.resize(entries.size());
  for (const Entry &e : entries)
    uses_[begin_[e.id + 1]++] = e.use;
}

std::span<const DefUse::Use> DefUse::uses(uint32_t id) const {
  if (size_t(id) + 1 >= begin_.size())
    return {};
  return std::span<const Use>(uses_).subspan(begin_[id], begin_[id + 1] - begin_[id]);
}

} // namespace spire
