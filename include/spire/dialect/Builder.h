// OpBuilder: where new ops go (the end of a block, or before an op) and the location they get;
// the op classes' builders (GeneratedOps.h, StructuralOps.h) create ops through it.
#pragma once

#include "spire/dialect/GeneratedOps.h"
#include "spire/dialect/IR.h"
#include "spire/dialect/StructuralOps.h"

#include <span>
#include <string_view>
#include <utility>

namespace spire::dialect {

class OpBuilder {
public:
  explicit OpBuilder(Context &context) : ctx_(context) {}
  Context &context() const { return ctx_; }

  /// New ops go at the end of `block`.
  void setInsertionPointToEnd(Block *block) {
    block_ = block;
    before_ = nullptr;
  }
  /// New ops go right before `op` (in its block).
  void setInsertionPoint(Operation *op) {
    block_ = op->block();
    before_ = op;
  }
  Block *insertionBlock() const { return block_; }
  /// The location new ops get.
  void setLocation(Location location) { location_ = location; }
  Location location() const { return location_; }

  /// `View::create(*this, args...)`: `b.create<IAddOp>(i32, x, y)`.
  template <class View, class... Args> View create(Args &&...args) {
    return View::create(*this, std::forward<Args>(args)...);
  }

  /// Creates the op and puts it at the insertion point (when there is one).
  Operation *insert(OperationState &&state);

private:
  Context &ctx_;
  Block *block_ = nullptr;
  Operation *before_ = nullptr;
  Location location_;
};

namespace detail {

/// What a generated builder gathers: the operands and attributes of one new op.
class BuildArgs {
public:
  BuildArgs(OpBuilder &b, OpKey key);
  BuildArgs(const BuildArgs &) = delete;
  BuildArgs &operator=(const BuildArgs &) = delete;
  ~BuildArgs();
  void result(Type t);
  void value(Value v);
  /// None for a null value.
  void optionalValue(Value v);
  void values(std::span<const Value> vs);
  void enumerant(std::string_view name, grammar::OperandKind kind, uint32_t value);
  void integer(std::string_view name, uint32_t value);
  void integers(std::string_view name, std::span<const uint32_t> values);
  void string(std::string_view name, std::string_view value);
  /// A type attribute; none for a null type.
  void type(std::string_view name, Type t);
  Operation *finish();

private:
  OpBuilder &b_;
  OperationState state_;
};

} // namespace detail

} // namespace spire::dialect
