#include "spire/module/Decorations.h"

#include <algorithm>
#include <tuple>

namespace spire {

using grammar::Op;

namespace {

bool isMemberDecoration(Op op) {
  return op == Op::MemberDecorate || op == Op::MemberDecorateString;
}

} // namespace

DecorationIndex::DecorationIndex(const Module &module) : m_(module) {
  // (target, position in the module, entry): own decorations sit at their instruction, a
  // group's at the instruction that applies it.
  struct Entry {
    uint32_t target, position, order;
    AppliedDecoration d;
  };
  std::vector<Entry> entries;
  std::vector<std::pair<uint32_t, uint32_t>> groupDecorations; // (group id, decorating inst)
  struct GroupUse {
    uint32_t group, target, member, inst;
  };
  std::vector<GroupUse> uses;
  // The whole module: a decoration out of its section (in an invalid module) applies too.
  for (Instruction inst : module) {
    if (inst.isRaw() || inst.wordCount() < 2)
      continue;
    const Op op = inst.opcode();
    const uint32_t at = inst.index();
    switch (op) {
    case Op::Decorate:
    case Op::DecorateId:
    case Op::DecorateString:
      if (inst.wordCount() >= 3) {
        entries.push_back({inst.word(1), at, 0, {at, kNoIndex, kNoIndex}});
        groupDecorations.emplace_back(inst.word(1), at);
      }
      break;
    case Op::MemberDecorate:
    case Op::MemberDecorateString:
      if (inst.wordCount() >= 4) {
        entries.push_back({inst.word(1), at, 0, {at, inst.word(2), kNoIndex}});
        groupDecorations.emplace_back(inst.word(1), at);
      }
      break;
    case Op::GroupDecorate:
      for (uint32_t w = 2; w < inst.wordCount(); ++w)
        uses.push_back({inst.word(1), inst.word(w), kNoIndex, at});
      break;
    case Op::GroupMemberDecorate:
      for (uint32_t w = 2; w + 1 < inst.wordCount(); w += 2)
        uses.push_back({inst.word(1), inst.word(w), inst.word(w + 1), at});
      break;
    default:
      break;
    }
  }
  if (!uses.empty()) {
    std::stable_sort(groupDecorations.begin(), groupDecorations.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    for (const GroupUse &u : uses) {
      auto it = std::lower_bound(
          groupDecorations.begin(), groupDecorations.end(), u.group,
          [](const std::pair<uint32_t, uint32_t> &g, uint32_t id) { return g.first < id; });
      uint32_t order = 0;
      for (; it != groupDecorations.end() && it->first == u.group; ++it) {
        // A group's own member decorations do not travel; OpGroupMemberDecorate applies the
        // group's decorations to a member.
        if (isMemberDecoration(module.inst(it->second).opcode()))
          continue;
        entries.push_back({u.target, u.inst, ++order, {it->second, u.member, u.inst}});
      }
    }
  }
  std::sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) {
    return std::tie(a.target, a.position, a.order) < std::tie(b.target, b.position, b.order);
  });
  applied_.reserve(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i == 0 || entries[i].target != entries[i - 1].target) {
      ids_.push_back(entries[i].target);
      begin_.push_back(static_cast<uint32_t>(applied_.size()));
    }
    applied_.push_back(entries[i].d);
  }
  begin_.push_back(static_cast<uint32_t>(applied_.size()));
}

std::span<const AppliedDecoration> DecorationIndex::of(uint32_t id) const {
  auto it = std::lower_bound(ids_.begin(), ids_.end(), id);
  if (it == ids_.end() || *it != id)
    return {};
  const size_t k = static_cast<size_t>(it - ids_.begin());
  return std::span<const AppliedDecoration>(applied_).subspan(begin_[k], begin_[k + 1] - begin_[k]);
}

bool DecorationIndex::isGroup(uint32_t id) const {
  const uint32_t def = m_.defIndex(id);
  return def != kNoIndex && !m_.inst(def).isRaw() && m_.inst(def).opcode() == Op::DecorationGroup;
}

uint32_t DecorationIndex::decoration(const AppliedDecoration &d) const {
  Instruction inst = m_.inst(d.inst);
  return inst.word(isMemberDecoration(inst.opcode()) ? 3 : 2);
}

std::span<const uint32_t> DecorationIndex::parameters(const AppliedDecoration &d) const {
  Instruction inst = m_.inst(d.inst);
  const uint32_t first = isMemberDecoration(inst.opcode()) ? 4 : 3;
  std::span<const uint32_t> words = inst.words();
  return first < words.size() ? words.subspan(first) : std::span<const uint32_t>();
}

} // namespace spire
