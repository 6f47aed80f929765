// Folding one op as its record declares it (OpInfo::folder, attached by opcode): element-wise
// constant folding, then the op's own simplifications. What canonicalize asks of every op.
#pragma once

#include "spire/dialect/IR.h"

namespace spire::dialect {

/// What folding an op gives. Nothing in the IR changes, except for `NewOp` (the new op is
/// already in place, right before the op) and `InPlace`.
struct FoldResult {
  enum class Kind : uint8_t {
    None,     ///< nothing to do
    Value,    ///< the op's result is `value`, an existing value
    Constant, ///< the op's result is a constant of its type, `constant`
    NewOp,    ///< `newOp` takes the op's place (its results, if any, the op's results)
    InPlace,  ///< the op itself changed (an operand)
  };
  Kind kind = Kind::None;
  Value value;
  Attribute constant;
  Operation *newOp = nullptr;

  static FoldResult replaceWith(Value v) { return {Kind::Value, v, {}, nullptr}; }
  static FoldResult constantValue(Attribute c) { return {Kind::Constant, {}, c, nullptr}; }
  static FoldResult replaceWithOp(Operation *op) { return {Kind::NewOp, {}, {}, op}; }
  static FoldResult inPlace() { return {Kind::InPlace, {}, {}, nullptr}; }
  explicit operator bool() const { return kind != Kind::None; }
};

/// Folds `op` as its record says: when all its operands are constants and the op has an
/// element-wise folder, the constant result (nothing where the result is undefined: division
/// by zero, shifts past the width, NaN to integer, ...); otherwise the op's simplifications
/// (algebraic identities, composites, chained access chains, constant branch conditions, ...).
/// A `Constant` result is only a proposal: the caller decides whether the module may hold a
/// constant of the result's type.
FoldResult fold(Operation &op, Context &context);

} // namespace spire::dialect
