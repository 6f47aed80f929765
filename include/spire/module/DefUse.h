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

  /// The uses of `id`, in instruction order (none for an id past the module's bound).
  std::span<const Use> uses(uint32_t id) const;

private:
  // Uses grouped by id, in instruction order within an id: the uses of id i are
  // uses_[begin_[i], begin_[i + 1]) (begin_ has an entry past the largest used id).
  std::vector<uint32_t> begin_;
  std::vector<Use> uses_;
};

} // namespace spire
