// Where each id is used: every id operand of every instruction (result types included, results
// excluded), grouped by id.
#pragma once

#include "spire/module/Module.h"

#include <cstdint>
#include <span>
#include <vector>

namespace spire {

class DefUse {
public:
  struct Use {
    uint32_t inst;    ///< index of the using instruction
    uint16_t operand; ///< index of the operand in inst.operands()
  };

  explicit DefUse(const Module &module);

  /// The uses of `id`, in instruction order.
  std::span<const Use> uses(uint32_t id) const;

private:
  // Uses sorted by id: the uses of the i-th distinct used id (ids_[i]) are
  // uses_[begin_[i], begin_[i + 1]).
  std::vector<uint32_t> ids_, begin_;
  std::vector<Use> uses_;
};

} // namespace spire
