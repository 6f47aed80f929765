// A compiled custom-syntax format (OpFormat.cpp has the notation): the elements the generic
// printer writes and the generic parser reads, in order, and the type signature that says the
// types of the operands and the result from the types the text shows.
#pragma once

#include "OpSyntax.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace spire::dialect {

/// One operand's or the result's type in a signature.
struct TypeExpr {
  enum Kind : uint8_t {
    Var,     ///< `T`: the type the variable shows
    Bool,    ///< `bool(T)`: i1, or a vector of i1 of T's size when T is a vector
    Elem,    ///< `elem(T)`: the component type of the vector T
    Pointee, ///< `pointee(T)`: what the pointer T points to
    Member0, ///< `member0(T)`: the first member of the struct T (of two members)
    Image,   ///< `image(T)`: the image type of the sampled image T
    I1,      ///< `i1`
    I32,     ///< `i32`
    Hint,    ///< `~T`: T where the value is used before its definition, else whatever it has
    Any,     ///< `?`: whatever the value has (it must be defined before the use)
    Infer,   ///< `infer`: the op's infer hook says (results only)
  };
  Kind kind = Any;
  uint8_t var = 0;
};

struct FormatElement {
  enum Kind : uint8_t {
    Punct,    ///< , : ( ) [ ] -> =
    Keyword,  ///< a bare word: to, into, as, cluster_size
    Operands, ///< %a, %b, %c... : a run of operands separated by commas
    Attr,     ///< an attribute, in one of the styles
    AttrDict, ///< the attributes no other element shows: ` {a = 1 : i32}`
    TypeVar,  ///< a type variable's type
    TypeList, ///< a list variable's types, separated by commas
    Group,    ///< `{...}`: the elements up to `end`, present when their anchor is
  };
  enum Style : uint8_t {
    Generic, ///< $name: MLIR's attribute syntax
    Quoted,  ///< "$name": an enumerant in quotes
    Angle,   ///< <$name>: an enumerant in angle brackets
    Symbol,  ///< @$name: a symbol reference
    TypeOf,  ///< !$name: a type attribute, as the type
  };
  Kind kind = Punct;
  Style style = Generic;
  uint8_t var = 0;            ///< TypeVar, TypeList
  uint8_t first = 0;          ///< Operands: the first operand index in OpFormat::runs
  uint8_t count = 0;          ///< Operands: how many single operands the run names
  bool variadic = false;      ///< Operands: the run ends with the rest of the operands
  uint16_t end = 0;           ///< Group: the index after its last element
  int16_t anchorOperand = -1; ///< Group: present when this operand is
  std::string_view text;      ///< Punct and Keyword text; Attr and Group anchor attribute names
  grammar::OperandKind enumKind{}; ///< Quoted, Angle
};

struct OpFormat {
  std::vector<FormatElement> elements;
  /// The operand indices of the runs, in the order they print.
  std::vector<uint8_t> runs;
  /// The type of each operand; after them, a repeated type or a list variable for the rest.
  std::vector<TypeExpr> operandTypes;
  enum class Tail : uint8_t { None, Repeat, List } tail = Tail::None;
  TypeExpr tailType;
  bool hasResult = false;
  TypeExpr resultType;
  uint8_t numVars = 0;
  uint32_t minOperands = 0, maxOperands = 0;
  bool hasAttrDict = false;
  /// The attributes elements show (the attribute dictionary leaves them out).
  std::vector<std::string_view> shownAttrs;
  InferHook infer = nullptr;
  /// Today's MLIR ends the form with ` -> <result type>` where MLIR 16 does not: read when it
  /// comes (the result type given, else the signature's), and printed unless --mlir16 when
  /// `printsArrow`.
  bool resultArrow = false, printsArrow = false;
  /// The <$name> enumerants print as "$name" with --mlir16 (MLIR 16's atomics).
  bool quotedInMlir16 = false;
  /// The name MLIR's definition gives operand #0, when MLIR's parser checks that operand's
  /// type against its constraint (it derives the result type from it): a type outside it is a
  /// parse error, "'operand' must be ..., but got 'i32'". Empty: the verifier says it.
  std::string_view parseCheckedOperand;
};

/// MLIR's parse error for `op` when `f` checks its operand's type while parsing
/// (parseCheckedOperand) and that type is outside the operand's constraint ("'operand' must be
/// bool or vector of bool values ..., but got 'i32'"); empty otherwise. The printer writes such
/// an op in the generic form, so that its text parses back.
std::string parseCheckedProblem(const Operation &op, const OpFormat &f);

/// The type `e` stands for, given the variables' types (the parser); null with `problem` set
/// when a variable is not of the kind `e` needs (then `blamed` is the variable).
Type evalType(Context &context, const TypeExpr &e, std::span<const Type> vars, std::string &problem,
              uint8_t &blamed);
/// Whether `actual` is the type `e` stands for (the printer's check that the custom form
/// parses back to the same op).
bool matchType(const TypeExpr &e, Type actual, std::span<const Type> vars);

} // namespace spire::dialect
