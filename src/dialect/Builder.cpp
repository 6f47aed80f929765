#include "spire/dialect/Builder.h"

#include "spire/dialect/Attributes.h"

#include <vector>

namespace spire::dialect {

Operation *OpBuilder::insert(OperationState &&state) {
  Operation *op = Operation::create(std::move(state));
  if (before_)
    block_->insertBefore(before_, op);
  else if (block_)
    block_->push_back(op);
  return op;
}

Value OpView::valueAfterEnums(uint32_t i, std::initializer_list<std::string_view> enums) const {
  for (std::string_view name : enums)
    if (Attribute a = op_->attr(name); a && a.is(AttrKind::Unit))
      ++i;
  return op_->operand(i);
}

namespace detail {

BuildArgs::BuildArgs(OpBuilder &b, OpKey key) : b_(b), state_(findOp(key), b.location()) {}

BuildArgs::~BuildArgs() = default;

void BuildArgs::result(Type t) { state_.resultTypes.push_back(t); }

void BuildArgs::value(Value v) { state_.operands.push_back(v); }

void BuildArgs::optionalValue(Value v) {
  if (v)
    state_.operands.push_back(v);
}

void BuildArgs::values(std::span<const Value> vs) {
  state_.operands.insert(state_.operands.end(), vs.begin(), vs.end());
}

Operation *BuildArgs::finish() { return b_.insert(std::move(state_)); }

void BuildArgs::enumerant(std::string_view name, grammar::OperandKind kind, uint32_t value) {
  state_.addAttribute(b_.context(), name, attr::enumerant(b_.context(), kind, value));
}

void BuildArgs::integer(std::string_view name, uint32_t value) {
  Context &ctx = b_.context();
  state_.addAttribute(ctx, name, attr::integer(ctx, ctx.integer(32), value));
}

void BuildArgs::integers(std::string_view name, std::span<const uint32_t> values) {
  if (values.empty())
    return;
  Context &ctx = b_.context();
  std::vector<Attribute> elements;
  elements.reserve(values.size());
  for (uint32_t v : values)
    elements.push_back(attr::integer(ctx, ctx.integer(32), v));
  state_.addAttribute(ctx, name, attr::array(ctx, elements));
}

void BuildArgs::string(std::string_view name, std::string_view value) {
  state_.addAttribute(b_.context(), name, attr::string(b_.context(), value));
}

void BuildArgs::type(std::string_view name, Type t) {
  if (t)
    state_.addAttribute(b_.context(), name, attr::type(b_.context(), t));
}

} // namespace detail

} // namespace spire::dialect
