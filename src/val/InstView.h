// An instruction as the per-instruction rules read it: one of the module's, or the operation an
// OpSpecConstantOp embeds.
#pragma once

#include "spire/module/Module.h"

namespace spire::val {

/// `%r = OpSpecConstantOp %type Opcode <operands>` read as `%r = Opcode %type <operands>`
/// (3.32.7: the operation is performed "as if" by that instruction), reported at the
/// OpSpecConstantOp. The structured IR verifies the embedded operation as the op it names, so a
/// module spire val accepts holds it to the same rules. Any instruction converts to its own view.
class InstView {
public:
  InstView(const Instruction &inst) : inst_(inst) {} // NOLINT(google-explicit-constructor)
  static InstView embeddedIn(const Instruction &specConstantOp) {
    InstView v(specConstantOp);
    v.embedded_ = true;
    return v;
  }

  uint32_t index() const { return inst_.index(); }
  grammar::Op opcode() const {
    return embedded_ ? static_cast<grammar::Op>(inst_.word(3)) : inst_.opcode();
  }
  uint32_t typeId() const { return inst_.typeId(); }
  uint32_t resultId() const { return inst_.resultId(); }
  bool isRaw() const { return inst_.isRaw(); }
  uint32_t wordCount() const { return inst_.wordCount() - (embedded_ ? 1 : 0); }
  /// Word 0 (the opcode word) and the result type and result are the module's; the operands
  /// follow them.
  uint32_t word(size_t i) const { return inst_.word(embedded_ && i >= 3 ? i + 1 : i); }

private:
  Instruction inst_;
  bool embedded_ = false;
};

} // namespace spire::val
