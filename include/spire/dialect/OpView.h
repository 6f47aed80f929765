// Typed views of ops: a view wraps an Operation* of one op and names its operands and
// attributes; its class also has a builder. The classes of the ops derived from the grammar are
// generated (GeneratedOps.h), those of the dialect's own ops written by hand (StructuralOps.h).
//
//   OpBuilder b(context);
//   b.setInsertionPointToEnd(block);
//   Value sum = b.create<FAddOp>(f32, x, y).result();
//   if (auto add = dyn<IAddOp>(op)) use(add.operand1());
#pragma once

#include "spire/dialect/IR.h"
#include "spire/dialect/Ops.h"

#include <cstdint>
#include <initializer_list>
#include <string_view>

namespace spire::dialect {

class OpBuilder;

/// A range of an op's operands.
class ValueRange {
public:
  ValueRange() = default;
  ValueRange(const Operation *op, uint32_t first, uint32_t count)
      : op_(op), first_(first), count_(count) {}
  uint32_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  Value operator[](uint32_t i) const { return op_->operand(first_ + i); }

  class iterator {
  public:
    using value_type = Value;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    iterator(const Operation *op, uint32_t i) : op_(op), i_(i) {}
    Value operator*() const { return op_->operand(i_); }
    iterator &operator++() {
      ++i_;
      return *this;
    }
    iterator operator++(int) {
      iterator t = *this;
      ++i_;
      return t;
    }
    bool operator==(const iterator &o) const { return i_ == o.i_; }

  private:
    const Operation *op_ = nullptr;
    uint32_t i_ = 0;
  };
  iterator begin() const { return iterator(op_, first_); }
  iterator end() const { return iterator(op_, first_ + count_); }

private:
  const Operation *op_ = nullptr;
  uint32_t first_ = 0, count_ = 0;
};

/// The base of the op classes: a possibly null Operation*.
class OpView {
public:
  OpView() = default;
  explicit OpView(Operation *op) : op_(op) {}
  explicit operator bool() const { return op_ != nullptr; }
  Operation *operation() const { return op_; }
  Operation *operator->() const { return op_; }
  /// The op's (first) result.
  Value result() const { return op_->result(0); }

protected:
  Value valueAt(uint32_t i) const { return op_->operand(i); }
  Value optionalValueAt(uint32_t i) const {
    return i < op_->numOrdinaryOperands() ? op_->operand(i) : Value();
  }
  ValueRange valuesFrom(uint32_t i) const {
    uint32_t n = op_->numOrdinaryOperands();
    return ValueRange(op_, i, i < n ? n - i : 0);
  }
  /// Operand `i` of the enum form, where a scope or memory semantics that is not a constant is
  /// an operand at its place (a unit attribute says so) and moves the operands after it.
  Value valueAfterEnums(uint32_t i, std::initializer_list<std::string_view> enums) const;
  Attribute attrNamed(std::string_view name) const { return op_->attr(name); }

  Operation *op_ = nullptr;
};

/// `op` as a `View` when it is that op, else a null view.
template <class View> View dyn(Operation *op) {
  return op && op->info().key == View::kKey ? View(op) : View();
}
template <class View> bool isa(const Operation *op) { return op && op->info().key == View::kKey; }

} // namespace spire::dialect
