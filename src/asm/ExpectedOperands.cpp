#include "ExpectedOperands.h"

namespace spire::spvasm {

using grammar::OperandCategory;
using grammar::OperandKind;
using grammar::Quantifier;

ExpectedOperand expectedOperand(const grammar::OperandDesc &desc) {
  Slot slot = Slot::Id;
  switch (grammar::operandCategory(desc.kind)) {
  case OperandCategory::Id:
    slot = desc.kind == OperandKind::IdResultType ? Slot::TypeId
           : desc.kind == OperandKind::IdResult   ? Slot::ResultId
                                                  : Slot::Id;
    break;
  case OperandCategory::Literal:
    switch (desc.kind) {
    case OperandKind::LiteralString:
      slot = Slot::String;
      break;
    case OperandKind::LiteralContextDependentNumber:
      slot = Slot::TypedNumber;
      break;
    case OperandKind::LiteralExtInstInteger:
      slot = Slot::ExtInstNumber;
      break;
    case OperandKind::LiteralSpecConstantOpInteger:
      slot = Slot::SpecOpcode;
      break;
    default:
      slot =
          grammar::operandKind(desc.kind).literalFloat ? Slot::LiteralFloat : Slot::LiteralInteger;
      break;
    }
    break;
  case OperandCategory::Composite:
    slot = desc.kind == OperandKind::PairLiteralIntegerIdRef   ? Slot::LiteralIdPairs
           : desc.kind == OperandKind::PairIdRefLiteralInteger ? Slot::IdLiteralPairs
                                                               : Slot::Id; // PairIdRefIdRef
    break;
  case OperandCategory::ValueEnum:
    slot = Slot::ValueEnum;
    break;
  case OperandCategory::BitEnum:
    slot = Slot::BitMask;
    break;
  }
  return {slot, desc.quantifier, desc.kind, desc.name};
}

ExpectedOperand anyOperand() { return {Slot::Any, Quantifier::Optional, OperandKind::IdRef, {}}; }

void ExpectedOperands::push(std::span<const grammar::OperandDesc> operands) {
  for (auto it = operands.rbegin(); it != operands.rend(); ++it)
    stack_.push_back(expectedOperand(*it));
}

void ExpectedOperands::expandVariadic(const ExpectedOperand &e) {
  stack_.push_back(e);
  auto one = [&](Slot slot, Quantifier q, OperandKind kind) {
    stack_.push_back({slot, q, kind, e.name});
  };
  switch (e.slot) {
  case Slot::LiteralIdPairs: // the literal may end the list, the target <id> then must follow
    one(Slot::Id, Quantifier::One, OperandKind::IdRef);
    one(Slot::TypedNumber, Quantifier::Optional, OperandKind::LiteralContextDependentNumber);
    break;
  case Slot::IdLiteralPairs:
    one(Slot::LiteralInteger, Quantifier::One, OperandKind::LiteralInteger);
    one(Slot::Id, Quantifier::Optional, OperandKind::IdRef);
    break;
  default:
    one(e.slot, Quantifier::Optional, e.kind);
    break;
  }
}

void ExpectedOperands::replaceAfterImmediate() {
  size_t before = 0;
  bool result = false;
  for (auto it = stack_.rbegin(); it != stack_.rend(); ++it, ++before) {
    if (it->slot == Slot::ResultId) {
      result = true;
      break;
    }
  }
  if (!result) {
    stack_.assign(1, anyOperand());
    return;
  }
  // As many operands of any kind as came before the result id, the result id, then anything.
  stack_.assign(before + 2, anyOperand());
  stack_[1] = {Slot::ResultId, Quantifier::One, OperandKind::IdResult, {}};
}

} // namespace spire::spvasm
