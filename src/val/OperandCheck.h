// What the per-instruction rule families share: one instruction's operands by word, their types
// against the shapes the instruction's description asks for, and one-line diagnostics
// "OpName: <what> <id> must be <shape>".
#pragma once

#include "State.h"

#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace spire::val {

/// Checks the operands of one instruction under one rule. Each check reports at most one error
/// and returns false when it did; an operand past the instruction's last word, and an operand
/// without a type (the ids family reports those), passes, so checks never read past the words.
class OperandCheck {
public:
  /// `name` names the instruction in messages (default: the grammar's name for its opcode).
  /// `rule` and `name` are kept as views: pass strings that outlive the check (literals).
  OperandCheck(State &s, const Instruction &inst, std::string_view rule, std::string_view name = {})
      : s_(s), inst_(inst), rule_(rule), name_(name) {}

  State &state() const { return s_; }
  /// The id at `word`, 0 past the end.
  uint32_t id(uint32_t word) const { return word < inst_.wordCount() ? inst_.word(word) : 0; }
  /// The type of the id at `word`, 0 when there is none.
  uint32_t type(uint32_t word) const { return s_.typeOf(id(word)); }
  uint32_t resultType() const { return inst_.typeId(); }

  /// Reports "OpName: message"; returns false.
  bool fail(const std::string &message) {
    const std::string op = name_.empty() ? State::opcodeName(inst_.opcode()) : std::string(name_);
    s_.error(inst_.index(), rule_, op + ": " + message);
    return false;
  }

  /// The operand at `word` passes `ok` (a predicate over its type), or "<what> <id> must be
  /// <shape>" is reported. A shape is text, or a function that gives it, called only on failure
  /// (shapes that name ids: names are costly to build).
  template <class Shape, class Pred>
  bool operand(uint32_t word, std::string_view what, const Shape &shape, Pred ok) {
    const uint32_t t = type(word);
    if (t == 0 || ok(t))
      return true;
    return fail(std::string(what) + " " + s_.name(id(word)) + " must be " + describe(shape));
  }
  /// The result type passes `ok`, or "the result type <id> must be <shape>" is reported.
  template <class Shape, class Pred> bool result(const Shape &shape, Pred ok) {
    const uint32_t t = inst_.typeId();
    if (t == 0 || ok(t))
      return true;
    return fail("the result type " + s_.name(t) + " must be " + describe(shape));
  }

  // --- Shapes ----------------------------------------------------------------------------------
  /// An integer scalar of `width` bits (0: any width).
  bool intScalar(uint32_t t, uint32_t width = 0) const {
    return s_.isIntType(t) && (width == 0 || s_.bitWidth(t) == width);
  }
  bool unsignedInt32(uint32_t t) const { return intScalar(t, 32) && !s_.isSignedInt(t); }
  bool floatScalar(uint32_t t, uint32_t width) const {
    return s_.isFloatType(t) && s_.bitWidth(t) == width;
  }
  /// A vector of `count` components of `width`-bit floats (or integers).
  bool floatVector(uint32_t t, uint32_t count, uint32_t width) const {
    return s_.isVectorType(t) && s_.isFloatScalarOrVector(t) && s_.componentCount(t) == count &&
           s_.bitWidth(t) == width;
  }
  bool intVector(uint32_t t, uint32_t count, uint32_t width) const {
    return s_.isVectorType(t) && s_.isIntScalarOrVector(t) && s_.componentCount(t) == count &&
           s_.bitWidth(t) == width;
  }
  /// A pointer (OpTypePointer) whose pointee is declared by `pointee`.
  bool pointerTo(uint32_t t, Op pointee) const {
    return s_.isPointerType(t) && s_.defOpcode(s_.pointeeType(t)) == pointee;
  }

  // --- Common operands -------------------------------------------------------------------------
  bool int32(uint32_t word, std::string_view what) {
    return operand(word, what, "a 32-bit integer scalar",
                   [&](uint32_t t) { return intScalar(t, 32); });
  }
  bool float32(uint32_t word, std::string_view what) {
    return operand(word, what, "a 32-bit float scalar",
                   [&](uint32_t t) { return floatScalar(t, 32); });
  }
  bool ofType(uint32_t word, std::string_view what, Op typeOpcode) {
    return operand(word, what, "of type " + State::opcodeName(typeOpcode),
                   [&](uint32_t t) { return s_.defOpcode(t) == typeOpcode; });
  }
  bool resultInt32() {
    return result("a 32-bit integer scalar", [&](uint32_t t) { return intScalar(t, 32); });
  }
  bool resultBool() {
    return result("a boolean scalar", [&](uint32_t t) { return s_.isBoolType(t); });
  }
  bool resultOfType(Op typeOpcode) {
    return result(State::opcodeName(typeOpcode),
                  [&](uint32_t t) { return s_.defOpcode(t) == typeOpcode; });
  }

private:
  template <class Shape> static std::string describe(const Shape &shape) {
    if constexpr (std::is_invocable_v<const Shape &>)
      return shape();
    else
      return std::string(shape);
  }

  State &s_;
  const Instruction &inst_;
  std::string_view rule_, name_;
};

/// True when operand `index` (into inst.operands()) is a Scope <id> the grammar names Execution
/// (barriers, group and non-uniform instructions), false for memory and other scopes.
inline bool isExecutionScope(const Instruction &inst, size_t index) {
  const grammar::InstructionDesc *d = inst.desc();
  return d != nullptr && index < d->operands.size() &&
         d->operands[index].kind == grammar::OperandKind::IdScope &&
         d->operands[index].name.find("Execution") != std::string_view::npos;
}

/// The words of the instruction's id operands (result type and result aside), in order: the
/// operands the structured IR's op takes. Literals are not among them.
std::vector<uint32_t> idOperandWords(const Instruction &inst);
/// The grammar's name of the operand at `word` ("Payload"), or "Operand N".
std::string operandName(const Instruction &inst, uint32_t word);

/// Calls `f(inst, opcode)` for every instruction the reader decoded (raw ones are skipped), until
/// the report is full.
template <class F> void forEachInstruction(State &s, F f) {
  for (Instruction inst : s.module()) {
    if (s.stopped())
      return;
    if (!inst.isRaw())
      f(inst, static_cast<uint32_t>(inst.opcode()));
  }
}

} // namespace spire::val
