// The decorations that apply to each id of a module, decoration groups expanded: an id's own
// OpDecorate / OpDecorateId / OpDecorateString / OpMemberDecorate(String), and the decorations
// of every group an OpGroupDecorate or OpGroupMemberDecorate applies to it.
#pragma once

#include "spire/module/Module.h"

#include <cstdint>
#include <span>
#include <vector>

namespace spire {

/// One decoration applied to an id (or to one of its members).
struct AppliedDecoration {
  uint32_t inst = kNoIndex;   ///< the decorating instruction (OpDecorate*, OpMemberDecorate*)
  uint32_t member = kNoIndex; ///< the member it decorates, or kNoIndex for the id itself
  uint32_t group = kNoIndex;  ///< the OpGroupDecorate or OpGroupMemberDecorate that applied it,
                              ///< or kNoIndex when the instruction names the id itself
};

class DecorationIndex {
public:
  explicit DecorationIndex(const Module &module);

  /// What applies to `id`, in module order (a group's decorations where the group is applied).
  /// Decorations of a decoration group are listed under the group's id too.
  std::span<const AppliedDecoration> of(uint32_t id) const;
  /// The ids anything applies to, in increasing order.
  std::span<const uint32_t> ids() const { return ids_; }
  /// Whether `id` is the result of an OpDecorationGroup.
  bool isGroup(uint32_t id) const;

  /// The Decoration enumerant of an applied decoration, and its parameter words.
  uint32_t decoration(const AppliedDecoration &d) const;
  std::span<const uint32_t> parameters(const AppliedDecoration &d) const;

private:
  const Module &m_;
  std::vector<uint32_t> ids_, begin_; ///< sorted ids with decorations, and where theirs start
  std::vector<AppliedDecoration> applied_;
};

} // namespace spire
