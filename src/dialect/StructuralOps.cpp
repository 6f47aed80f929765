#include "spire/dialect/Builder.h"

#include "spire/dialect/Attributes.h"

#include <vector>

namespace spire::dialect {

namespace {

using grammar::OperandKind;

Attribute enumerant(OpBuilder &b, OperandKind kind, uint32_t value) {
  return attr::enumerant(b.context(), kind, value);
}

Attribute i32(OpBuilder &b, uint32_t value) {
  return attr::integer(b.context(), b.context().integer(32), value);
}

/// An op of `info` with `regions` empty regions at the builder's insertion point.
Operation *insert(OpBuilder &b, OperationState &st) { return b.insert(std::move(st)); }

} // namespace

ModuleOp ModuleOp::create(OpBuilder &b, grammar::AddressingModel addressing,
                          grammar::MemoryModel memory) {
  OperationState st(&ops::module(), b.location());
  st.addAttribute(b.context(), "addressing_model",
                  enumerant(b, OperandKind::AddressingModel, static_cast<uint32_t>(addressing)));
  st.addAttribute(b.context(), "memory_model",
                  enumerant(b, OperandKind::MemoryModel, static_cast<uint32_t>(memory)));
  st.numRegions = 1;
  Operation *op = insert(b, st);
  op->region().addBlock();
  return ModuleOp(op);
}

FuncOp FuncOp::create(OpBuilder &b, std::string_view name, Type type,
                      grammar::FunctionControl control) {
  Context &ctx = b.context();
  OperationState st(&ops::func(), b.location());
  st.addAttribute(ctx, "sym_name", attr::string(ctx, name));
  st.addAttribute(ctx, "function_type", attr::type(ctx, type));
  st.addAttribute(ctx, "function_control",
                  enumerant(b, OperandKind::FunctionControl, static_cast<uint32_t>(control)));
  st.numRegions = 1;
  Operation *op = insert(b, st);
  Block *entry = op->region().addBlock();
  for (Type t : type.inputs())
    entry->addArgument(t);
  return FuncOp(op);
}

GlobalVariableOp GlobalVariableOp::create(OpBuilder &b, std::string_view name, Type pointerType,
                                          Attribute initializer) {
  Context &ctx = b.context();
  OperationState st(&ops::globalVariable(), b.location());
  st.addAttribute(ctx, "sym_name", attr::string(ctx, name));
  st.addAttribute(ctx, "type", attr::type(ctx, pointerType));
  if (initializer)
    st.addAttribute(ctx, "initializer", initializer);
  return GlobalVariableOp(insert(b, st));
}

void GlobalVariableOp::setBinding(OpBuilder &b, uint32_t descriptorSet, uint32_t binding) {
  op_->setAttr(b.context(), "descriptor_set", i32(b, descriptorSet));
  op_->setAttr(b.context(), "binding", i32(b, binding));
}

void GlobalVariableOp::setBuiltIn(OpBuilder &b, grammar::BuiltIn builtIn) {
  const grammar::EnumerantDesc *e =
      grammar::findEnumerant(OperandKind::BuiltIn, static_cast<uint32_t>(builtIn));
  if (e)
    op_->setAttr(b.context(), "built_in", attr::string(b.context(), e->name));
}

void GlobalVariableOp::setLocation(OpBuilder &b, uint32_t location) {
  op_->setAttr(b.context(), "location", i32(b, location));
}

AddressOfOp AddressOfOp::create(OpBuilder &b, GlobalVariableOp variable) {
  OperationState st(&ops::addressOf(), b.location());
  st.addAttribute(b.context(), "variable", attr::symbolRef(b.context(), variable.name()));
  st.resultTypes.push_back(variable.type());
  return AddressOfOp(insert(b, st));
}

ReferenceOfOp ReferenceOfOp::create(OpBuilder &b, Type type, std::string_view symbol) {
  OperationState st(&ops::referenceOf(), b.location());
  st.addAttribute(b.context(), "spec_const", attr::symbolRef(b.context(), symbol));
  st.resultTypes.push_back(type);
  return ReferenceOfOp(insert(b, st));
}

SpecConstantOp SpecConstantOp::create(OpBuilder &b, std::string_view name, Attribute defaultValue,
                                      std::optional<uint32_t> specId) {
  Context &ctx = b.context();
  OperationState st(&ops::specConstant(), b.location());
  st.addAttribute(ctx, "sym_name", attr::string(ctx, name));
  st.addAttribute(ctx, "default_value", defaultValue);
  if (specId)
    st.addAttribute(ctx, "spec_id", attr::integer(ctx, ctx.integer(64), *specId));
  return SpecConstantOp(insert(b, st));
}

ConstantOp ConstantOp::create(OpBuilder &b, Type type, Attribute value) {
  OperationState st(&ops::constant(), b.location());
  st.addAttribute(b.context(), "value", value);
  st.resultTypes.push_back(type);
  return ConstantOp(insert(b, st));
}

ConstantOp ConstantOp::integer(OpBuilder &b, Type type, int64_t value) {
  return create(b, type, attr::integer(b.context(), type, value));
}

ConstantOp ConstantOp::floating(OpBuilder &b, Type type, double value) {
  return create(b, type, attr::floating(b.context(), type, value));
}

ConstantOp ConstantOp::boolean(OpBuilder &b, bool value) {
  return create(b, b.context().boolean(), attr::boolean(b.context(), value));
}

EntryPointOp EntryPointOp::create(OpBuilder &b, grammar::ExecutionModel model, std::string_view fn,
                                  std::span<const std::string_view> interface) {
  Context &ctx = b.context();
  OperationState st(&ops::entryPoint(), b.location());
  st.addAttribute(ctx, "execution_model",
                  enumerant(b, OperandKind::ExecutionModel, static_cast<uint32_t>(model)));
  st.addAttribute(ctx, "fn", attr::symbolRef(ctx, fn));
  std::vector<Attribute> symbols;
  for (std::string_view s : interface)
    symbols.push_back(attr::symbolRef(ctx, s));
  st.addAttribute(ctx, "interface", attr::array(ctx, symbols));
  return EntryPointOp(insert(b, st));
}

ExecutionModeOp ExecutionModeOp::create(OpBuilder &b, std::string_view fn,
                                        grammar::ExecutionMode mode,
                                        std::span<const uint32_t> values) {
  Context &ctx = b.context();
  OperationState st(&ops::executionMode(), b.location());
  st.addAttribute(ctx, "fn", attr::symbolRef(ctx, fn));
  st.addAttribute(ctx, "execution_mode",
                  enumerant(b, OperandKind::ExecutionMode, static_cast<uint32_t>(mode)));
  std::vector<Attribute> literals;
  for (uint32_t v : values)
    literals.push_back(i32(b, v));
  st.addAttribute(ctx, "values", attr::array(ctx, literals));
  return ExecutionModeOp(insert(b, st));
}

namespace {

/// A selection or loop op with results of `types` and one empty region.
Operation *construct(OpBuilder &b, const OpInfo &info, std::string_view control, OperandKind kind,
                     uint32_t value, std::span<const Type> types) {
  OperationState st(&info, b.location());
  st.addAttribute(b.context(), control, enumerant(b, kind, value));
  st.resultTypes.assign(types.begin(), types.end());
  st.numRegions = 1;
  return insert(b, st);
}

} // namespace

SelectionOp SelectionOp::create(OpBuilder &b, std::span<const Type> results,
                                grammar::SelectionControl control) {
  return SelectionOp(construct(b, ops::selection(), "selection_control",
                               OperandKind::SelectionControl, static_cast<uint32_t>(control),
                               results));
}

LoopOp LoopOp::create(OpBuilder &b, std::span<const Type> results, grammar::LoopControl control) {
  return LoopOp(construct(b, ops::loop(), "loop_control", OperandKind::LoopControl,
                          static_cast<uint32_t>(control), results));
}

MergeOp MergeOp::create(OpBuilder &b, std::span<const Value> values) {
  OperationState st(&ops::merge(), b.location());
  st.operands.assign(values.begin(), values.end());
  return MergeOp(insert(b, st));
}

YieldOp YieldOp::create(OpBuilder &b, Value value) {
  OperationState st(&ops::yield(), b.location());
  st.operands.push_back(value);
  return YieldOp(insert(b, st));
}

BranchOp BranchOp::create(OpBuilder &b, Block *target, std::span<const Value> arguments) {
  OperationState st(&ops::branch(), b.location());
  st.addSuccessor(target, arguments);
  return BranchOp(insert(b, st));
}

BranchConditionalOp BranchConditionalOp::create(OpBuilder &b, Value condition, Block *trueTarget,
                                                std::span<const Value> trueArguments,
                                                Block *falseTarget,
                                                std::span<const Value> falseArguments) {
  OperationState st(&ops::branchConditional(), b.location());
  st.operands.push_back(condition);
  st.addSuccessor(trueTarget, trueArguments);
  st.addSuccessor(falseTarget, falseArguments);
  return BranchConditionalOp(insert(b, st));
}

SwitchOp SwitchOp::create(OpBuilder &b, Value selector, Block *defaultTarget,
                          std::span<const int64_t> cases, std::span<Block *const> targets) {
  Context &ctx = b.context();
  OperationState st(&ops::switchOp(), b.location());
  st.operands.push_back(selector);
  st.addSuccessor(defaultTarget, {});
  std::vector<Attribute> literals;
  for (size_t i = 0; i < cases.size() && i < targets.size(); ++i) {
    literals.push_back(attr::integer(ctx, selector.type(), cases[i]));
    st.addSuccessor(targets[i], {});
  }
  st.addAttribute(ctx, "literals", attr::array(ctx, literals));
  return SwitchOp(insert(b, st));
}

FunctionCallOp FunctionCallOp::create(OpBuilder &b, Type resultType, std::string_view callee,
                                      std::span<const Value> arguments) {
  OperationState st(&ops::functionCall(), b.location());
  if (resultType)
    st.resultTypes.push_back(resultType);
  st.addAttribute(b.context(), "callee", attr::symbolRef(b.context(), callee));
  st.operands.assign(arguments.begin(), arguments.end());
  return FunctionCallOp(insert(b, st));
}

FunctionCallOp FunctionCallOp::create(OpBuilder &b, FuncOp callee,
                                      std::span<const Value> arguments) {
  std::span<const Type> results = callee.type().results();
  return create(b, results.empty() ? Type() : results[0], callee.name(), arguments);
}

} // namespace spire::dialect
