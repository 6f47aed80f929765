// The operands spirv-as expects next while it reads an instruction: a stack seeded from the
// grammar and grown by operands that bring operands of their own (enumerant and mask
// parameters, extended instructions, the operation of an OpSpecConstantOp).
#pragma once

#include "spire/grammar/Grammar.h"

#include <span>
#include <vector>

namespace spire::spvasm {

/// How the text of an operand is read.
enum class Slot : uint8_t {
  Id,             ///< "%name"
  TypeId,         ///< the result type: "%name", which also types an OpConstant's literal
  ResultId,       ///< the result: written before '=', so not read at its place
  LiteralInteger, ///< a 32-bit unsigned integer
  LiteralFloat,   ///< a 32-bit float
  TypedNumber,    ///< as wide as OpConstant's type or OpSwitch's selector
  String,         ///< a quoted string
  ExtInstNumber,  ///< an extended instruction: its name, or its number in a non-semantic set
  SpecOpcode,     ///< the operation of an OpSpecConstantOp: an opcode name without "Op"
  ValueEnum,      ///< one enumerant name
  BitMask,        ///< enumerant names joined by '|'
  LiteralIdPairs, ///< (literal, <id>) pairs: OpSwitch targets
  IdLiteralPairs, ///< (<id>, literal) pairs
  Any,            ///< after a !<integer>: a number, a string or an <id>
};

struct ExpectedOperand {
  Slot slot;
  grammar::Quantifier quantifier;
  grammar::OperandKind kind; ///< the grammar's kind (enumerants are looked up in it)
  std::string_view name;     ///< the grammar's name for it, for messages; may be empty

  bool optional() const { return quantifier != grammar::Quantifier::One; }
};

/// How spirv-as reads an operand the grammar describes.
ExpectedOperand expectedOperand(const grammar::OperandDesc &desc);

/// The operand a !<integer> leaves: anything, optional.
ExpectedOperand anyOperand();

class ExpectedOperands {
public:
  void clear() { stack_.clear(); }
  bool empty() const { return stack_.empty(); }
  ExpectedOperand pop() {
    ExpectedOperand e = stack_.back();
    stack_.pop_back();
    return e;
  }
  void push(const ExpectedOperand &e) { stack_.push_back(e); }
  /// Pushes operands so that the first of them comes next.
  void push(std::span<const grammar::OperandDesc> operands);

  /// Replaces a variadic operand by its first optional occurrence and itself after it: "zero
  /// or more" read one at a time. Pairs put both halves, the second one required.
  void expandVariadic(const ExpectedOperand &e);

  /// What spirv-as expects after a !<integer> operand: anything, except that a result id still
  /// expected keeps its place (after as many operands as came before it).
  void replaceAfterImmediate();

private:
  std::vector<ExpectedOperand> stack_; // the back comes next
};

} // namespace spire::spvasm
