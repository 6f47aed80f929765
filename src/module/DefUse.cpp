#include "spire/module/DefUse.h"

#include <algorithm>

namespace spire {

DefUse::DefUse(const Module &module) {
  struct Entry {
    uint32_t id;
    Use use;
  };
  std::vector<Entry> entries;
  for (Instruction inst : module) {
    auto ops = inst.operands();
    for (uint16_t k = 0; k < ops.size(); ++k) {
      if (grammar::operandCategory(ops[k].kind) != grammar::OperandCategory::Id ||
          ops[k].kind == grammar::OperandKind::IdResult)
        continue;
      entries.push_back({inst.word(ops[k].offset), {inst.index(), k}});
    }
  }
  // Instruction order is kept within an id: a stable sort of an already ordered sequence.
  std::stable_sort(entries.begin(), entries.end(),
                   [](const Entry &a, const Entry &b) { return a.id < b.id; });
  uses_.reserve(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i == 0 || entries[i].id != entries[i - 1].id) {
      ids_.push_back(entries[i].id);
      begin_.push_back(static_cast<uint32_t>(i));
    }
    uses_.push_back(entries[i].use);
  }
  begin_.push_back(static_cast<uint32_t>(uses_.size()));
}

std::span<const DefUse::Use> DefUse::uses(uint32_t id) const {
  auto it = std::lower_bound(ids_.begin(), ids_.end(), id);
  if (it == ids_.end() || *it != id)
    return {};
  size_t i = static_cast<size_t>(it - ids_.begin());
  return std::span<const Use>(uses_).subspan(begin_[i], begin_[i + 1] - begin_[i]);
}

} // namespace spire
