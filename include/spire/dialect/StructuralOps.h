// The classes of the ops the grammar does not describe as the dialect has them: the dialect's
// own ops (spirv.module, spirv.func, globals, constants, spirv.mlir.*) and the instructions it
// reshapes (branches with successor blocks, calls naming their callee as a symbol). Written by
// hand beside the generated ones (GeneratedOps.h); see OpView.h for how to use them.
#pragma once

#include "spire/dialect/OpView.h"

#include <optional>
#include <span>
#include <string_view>

namespace spire::dialect {

/// spirv.module: one block of module-level ops.
class ModuleOp : public OpView {
public:
  static constexpr OpKey kKey = DialectOp::Module;
  using OpView::OpView;
  Block *body() const { return op_->region().front(); }
  /// A module with an empty body; it goes at the builder's insertion point, if any.
  static ModuleOp create(OpBuilder &b, grammar::AddressingModel addressing,
                         grammar::MemoryModel memory);
};

/// spirv.func: a function; its region's entry block takes the parameters.
class FuncOp : public OpView {
public:
  static constexpr OpKey kKey = DialectOp::Func;
  using OpView::OpView;
  std::string_view name() const { return attrNamed("sym_name").str(); }
  Type type() const { return attrNamed("function_type").type(); }
  Block *entryBlock() const { return op_->region().front(); }
  Value argument(uint32_t i) const { return entryBlock()->argument(i); }
  /// A function of type `type` with an entry block taking its parameters.
  static FuncOp create(OpBuilder &b, std::string_view name, Type type,
                       grammar::FunctionControl control = grammar::FunctionControl::None);
};

/// spirv.GlobalVariable: a module-level variable, reached through spirv.mlir.addressof.
class GlobalVariableOp : public OpView {
public:
  static constexpr OpKey kKey = DialectOp::GlobalVariable;
  using OpView::OpView;
  std::string_view name() const { return attrNamed("sym_name").str(); }
  /// The variable's pointer type.
  Type type() const { return attrNamed("type").type(); }
  /// `initializer`: a symbol reference or a constant value, or none.
  static GlobalVariableOp create(OpBuilder &b, std::string_view name, Type pointerType,
                                 Attribute initializer = {});
  /// Decorations, as the deserializer names them.
  void setBinding(OpBuilder &b, uint32_t descriptorSet, uint32_t binding);
  void setBuiltIn(OpBuilder &b, grammar::BuiltIn builtIn);
  void setLocation(OpBuilder &b, uint32_t location);
};

/// spirv.mlir.addressof: the pointer a global variable is.
class AddressOfOp : public OpView {
public:
  static constexpr OpKey kKey = DialectOp::AddressOf;
  using OpView::OpView;
  std::string_view variable() const { return attrNamed("variable").str(); }
  static AddressOfOp create(OpBuilder &b, GlobalVariableOp variable);
};

/// spirv.mlir.referenceof: the value of a specialization constant (or a function).
class ReferenceOfOp : public OpView {
public:
  static constexpr OpKey kKey = DialectOp::ReferenceOf;
  using OpView::OpView;
  std::string_view symbol() const { return attrNamed("spec_const").str(); }
  static ReferenceOfOp create(OpBuilder &b, Type type, std::string_view symbol);
};

/// spirv.SpecConstant: a scalar specialization constant.
class SpecConstantOp : public OpView {
public:
  static constexpr OpKey kKey = DialectOp::SpecConstant;
  using OpView::OpView;
  static SpecConstantOp create(OpBuilder &b, std::string_view name, Attribute defaultValue,
                               std::optional<uint32_t> specId = {});
};

/// spirv.Constant: a constant value at its use.
class ConstantOp : public OpView {
public:
  static constexpr OpKey kKey = DialectOp::Constant;
  using OpView::OpView;
  Attribute value() const { return attrNamed("value"); }
  static ConstantOp create(OpBuilder &b, Type type, Attribute value);
  /// An integer, float or boolean scalar of `type` (i1 for booleans).
  static ConstantOp integer(OpBuilder &b, Type type, int64_t value);
  static ConstantOp floating(OpBuilder &b, Type type, double value);
  static ConstantOp boolean(OpBuilder &b, bool value);
};

/// spirv.EntryPoint.
class EntryPointOp : public OpView {
public:
  static constexpr OpKey kKey = DialectOp::EntryPoint;
  using OpView::OpView;
  /// `interface`: the symbols of the global variables the entry point uses.
  static EntryPointOp create(OpBuilder &b, grammar::ExecutionModel model, std::string_view fn,
                             std::span<const std::string_view> interface = {});
};

/// spirv.ExecutionMode.
class ExecutionModeOp : public OpView {
public:
  static constexpr OpKey kKey = DialectOp::ExecutionMode;
  using OpView::OpView;
  static ExecutionModeOp create(OpBuilder &b, std::string_view fn, grammar::ExecutionMode mode,
                                std::span<const uint32_t> values = {});
};

/// spirv.mlir.selection: a selection construct; its region ends with a block holding only
/// spirv.mlir.merge, whose operands are the construct's results.
class SelectionOp : public OpView {
public:
  static constexpr OpKey kKey = DialectOp::Selection;
  using OpView::OpView;
  Region &body() const { return op_->region(); }
  /// An empty region; `results` are the types of the values the merge yields.
  static SelectionOp create(OpBuilder &b, std::span<const Type> results = {},
                            grammar::SelectionControl control = grammar::SelectionControl::None);
};

/// spirv.mlir.loop: a loop construct; its region's entry block branches to the header, its last
/// block holds only spirv.mlir.merge.
class LoopOp : public OpView {
public:
  static constexpr OpKey kKey = DialectOp::Loop;
  using OpView::OpView;
  Region &body() const { return op_->region(); }
  static LoopOp create(OpBuilder &b, std::span<const Type> results = {},
                       grammar::LoopControl control = grammar::LoopControl::None);
};

/// spirv.mlir.merge: ends a selection or loop region, yielding its results.
class MergeOp : public OpView {
public:
  static constexpr OpKey kKey = DialectOp::Merge;
  using OpView::OpView;
  static MergeOp create(OpBuilder &b, std::span<const Value> values = {});
};

/// spirv.mlir.yield: ends the region of a specialization constant operation.
class YieldOp : public OpView {
public:
  static constexpr OpKey kKey = DialectOp::Yield;
  using OpView::OpView;
  static YieldOp create(OpBuilder &b, Value value);
};

/// spirv.Branch: to a block, passing its arguments.
class BranchOp : public OpView {
public:
  static constexpr OpKey kKey = grammar::Op::Branch;
  using OpView::OpView;
  Block *target() const { return op_->successors()[0].block; }
  static BranchOp create(OpBuilder &b, Block *target, std::span<const Value> arguments = {});
};

/// spirv.BranchConditional: to the first block when the condition holds, else the second.
class BranchConditionalOp : public OpView {
public:
  static constexpr OpKey kKey = grammar::Op::BranchConditional;
  using OpView::OpView;
  Value condition() const { return valueAt(0); }
  Block *trueTarget() const { return op_->successors()[0].block; }
  Block *falseTarget() const { return op_->successors()[1].block; }
  static BranchConditionalOp create(OpBuilder &b, Value condition, Block *trueTarget,
                                    std::span<const Value> trueArguments, Block *falseTarget,
                                    std::span<const Value> falseArguments = {});
  static BranchConditionalOp create(OpBuilder &b, Value condition, Block *trueTarget,
                                    Block *falseTarget) {
    return create(b, condition, trueTarget, {}, falseTarget, {});
  }
};

/// spirv.Switch: to the block of the case the selector equals (`literals`, of the selector's
/// type), else to the default.
class SwitchOp : public OpView {
public:
  static constexpr OpKey kKey = grammar::Op::Switch;
  using OpView::OpView;
  Value selector() const { return valueAt(0); }
  /// `cases` and `targets` pair up; the default target comes first in the op's successors.
  static SwitchOp create(OpBuilder &b, Value selector, Block *defaultTarget,
                         std::span<const int64_t> cases, std::span<Block *const> targets);
};

/// spirv.FunctionCall: calls the function `callee` (a symbol).
class FunctionCallOp : public OpView {
public:
  static constexpr OpKey kKey = grammar::Op::FunctionCall;
  using OpView::OpView;
  std::string_view callee() const { return attrNamed("callee").str(); }
  ValueRange arguments() const { return valuesFrom(0); }
  /// `resultType`: null for a function that returns nothing.
  static FunctionCallOp create(OpBuilder &b, Type resultType, std::string_view callee,
                               std::span<const Value> arguments);
  static FunctionCallOp create(OpBuilder &b, FuncOp callee, std::span<const Value> arguments);
};

} // namespace spire::dialect
