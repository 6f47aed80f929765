// An op's custom syntax, attached to its record (OpInfo::syntax): a declarative format that the
// one generic printer and parser read (OpFormat.cpp says the notation), or, for the ops whose
// syntax no format can say, a print hook and a parse hook of their own (Syntax*.cpp).
#pragma once

#include "spire/dialect/IR.h"
#include "spire/dialect/Ops.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace spire::dialect {

class TextPrinter;
class TextParser;
struct OpFormat;
struct Signature;

/// Prints `op` in its custom syntax after the op's name; false when it cannot (the printer then
/// writes the generic form instead).
using PrintHook = bool (*)(const Operation &op, TextPrinter &p, unsigned indent);
/// Parses the custom syntax of an op of `info` after its name (read at `at`); null on an error
/// (reported to the parser).
using ParseHook = Operation *(*)(const OpInfo &info, TextParser &p, size_t at);

/// What a format's `infer` result type is computed from: the operands (their types, their
/// defining ops for constant indices) and the attributes, of the op being printed or of the one
/// being parsed.
struct InferQuery {
  const Operation *op = nullptr;              ///< the printer's
  std::span<const Value> values;              ///< or the parser's operands
  std::span<const NamedAttribute> attributes; ///< and attributes
  Context *context = nullptr;                 ///< null when the printer only checks `result`
  /// In: the op's result type (printer). Out: the inferred type (parser).
  Type result;
  /// Why there is none, and what is to blame: the use of operand `blameUse`, the type of
  /// operand `blameType`, or (neither) the attributes.
  std::string problem;
  int blameUse = -1, blameType = -1;

  uint32_t numOperands() const;
  Value operand(uint32_t i) const;
  Attribute attr(std::string_view name) const;
  bool fail(std::string why, int use = -1, int type = -1);
  /// The integer a spirv.Constant operand holds, when it does.
  static bool constantIndex(Value v, int64_t &out);
};
/// The result type of an op whose format ends `-> infer`; false when there is none (or, in the
/// printer's check, when it is not `q.result`).
using InferHook = bool (*)(const OpInfo &info, InferQuery &q);

namespace detail {
/// A line of OpSyntaxTable.cpp: a format and its signature, for the ops that share them.
struct FormatDeclaration;
} // namespace detail

struct OpSyntax {
  /// The declarative form, compiled for the op when first used (format()), or
  const detail::FormatDeclaration *declaration = nullptr;
  PrintHook print = nullptr; ///< hooks of the op's own
  ParseHook parse = nullptr;
  InferHook infer = nullptr;
  /// mlir-translate-16 prints the op in generic form (MLIR 16 lacks it or its syntax): so does
  /// --mlir16.
  bool newerThanMlir16 = false;
  /// The print hook writes the op's name itself (the wrappers' short names: `module`, and
  /// `return` / `call` inside a func.func).
  bool printsName = false;

  /// The compiled declarative form of the op of `info` (whose record holds this syntax), or
  /// null (hooks only, or a declaration that does not compile: overlayProblems says why).
  /// Formats compile when an op first prints or parses, not when the registry is made: a run
  /// meets a few dozen of the ops, and compiling them all cost a small module's translation
  /// more than deserializing it.
  const OpFormat *format(const OpInfo &info) const {
    const OpFormat *f = compiled_.load(std::memory_order_acquire);
    return f || !declaration ? f : compile(info);
  }

private:
  const OpFormat *compile(const OpInfo &info) const;
  mutable std::atomic<const OpFormat *> compiled_{nullptr};
};

namespace detail {

/// Compiles a format and its type signature for the op of `info` into `out` (OpFormat.cpp);
/// false, saying why in `problem`, when they do not fit each other or the op.
bool compileFormat(const OpInfo &info, std::string_view format, std::string_view signature,
                   bool infers, OpFormat &out, std::string &problem);

} // namespace detail

/// The hooks of the ops whose syntax no format can say, by family.
namespace syntax {
inline bool plain(const Operation &op) { return op.successors().empty() && op.numRegions() == 0; }
/// An integer attribute of type i<width> (what the custom syntax writes as a bare number).
inline bool isInt(Attribute a, unsigned width) {
  return a.is(AttrKind::Integer) && a.type() && a.type().is(TypeKind::Integer) &&
         a.type().width() == width && a.type().signedness() == Signedness::Signless;
}

// SyntaxSymbols.cpp
/// A function's `(%arg0: T {attrs}, ...) -> R` from its function_type, entry block and
/// arg_attrs (spirv.func, func.func); false when they do not agree.
bool printSignature(const Operation &op, TextPrinter &p);
/// ` @name(%arg: T, ...) -> R ["Control"] [attributes {...}] { body }`: spirv.func's form, and
/// spirv.ARM.Graph's without a function control (a null `control`); false when the op does not
/// have that shape.
bool printCallable(const Operation &op, TextPrinter &p, unsigned indent, Attribute control);
/// Reads that into `st`'s function_type (and arg_attrs) and `sig`.
bool parseSignature(TextParser &p, OperationState &st, Signature &sig);
/// What follows a function's signature: `[attributes {...}]` and the body, if any (an empty
/// region for none); then the op.
Operation *parseFunctionRest(TextParser &p, OperationState &st, const Signature &sig);
/// A module's `[attributes {...}] { ... }` (spirv.module, builtin.module), then the op.
Operation *parseModuleBody(TextParser &p, OperationState &st);
bool printModule(const Operation &, TextPrinter &, unsigned);
Operation *parseModule(const OpInfo &, TextParser &, size_t);
bool printFunc(const Operation &, TextPrinter &, unsigned);
Operation *parseFunc(const OpInfo &, TextParser &, size_t);
bool printGlobalVariable(const Operation &, TextPrinter &, unsigned);
Operation *parseGlobalVariable(const OpInfo &, TextParser &, size_t);
bool printSpecConstant(const Operation &, TextPrinter &, unsigned);
Operation *parseSpecConstant(const OpInfo &, TextParser &, size_t);
bool printSpecConstantComposite(const Operation &, TextPrinter &, unsigned);
Operation *parseSpecConstantComposite(const OpInfo &, TextParser &, size_t);
bool printSpecConstantOperation(const Operation &, TextPrinter &, unsigned);
Operation *parseSpecConstantOperation(const OpInfo &, TextParser &, size_t);
bool printEntryPoint(const Operation &, TextPrinter &, unsigned);
/// An entry point's `@fn, @var0, @var1` (spirv.EntryPoint, spirv.ARM.GraphEntryPoint) from its
/// `fn` and `interface` attributes; false when they are not symbols.
bool printEntryPointSymbols(Attribute fn, Attribute iface, std::string &out);
bool parseEntryPointSymbols(TextParser &p, OperationState &st);
Operation *parseEntryPoint(const OpInfo &, TextParser &, size_t);
bool printExecutionMode(const Operation &, TextPrinter &, unsigned);
Operation *parseExecutionMode(const OpInfo &, TextParser &, size_t);
bool printConstant(const Operation &, TextPrinter &, unsigned);
Operation *parseConstant(const OpInfo &, TextParser &, size_t);
// SyntaxMemory.cpp
bool printLoadStore(const Operation &, TextPrinter &, unsigned);
Operation *parseLoadStore(const OpInfo &, TextParser &, size_t);
bool printVariable(const Operation &, TextPrinter &, unsigned);
Operation *parseVariable(const OpInfo &, TextParser &, size_t);
bool printCopyMemory(const Operation &, TextPrinter &, unsigned);
Operation *parseCopyMemory(const OpInfo &, TextParser &, size_t);
/// Reads what the block read and write formats print and the older storage-class form.
Operation *parseBlockReadWrite(const OpInfo &, TextParser &, size_t);
/// bind(set, binding) and built_in("X") of variables; adds what it printed to `elided`.
void printVariableDecorations(const Operation &op, TextPrinter &p,
                              std::vector<std::string_view> &elided);
bool parseVariableDecorations(TextParser &p, OperationState &st);
// SyntaxControlFlow.cpp
bool printBranch(const Operation &, TextPrinter &, unsigned);
Operation *parseBranch(const OpInfo &, TextParser &, size_t);
bool printBranchConditional(const Operation &, TextPrinter &, unsigned);
Operation *parseBranchConditional(const OpInfo &, TextParser &, size_t);
bool printSwitch(const Operation &, TextPrinter &, unsigned);
Operation *parseSwitch(const OpInfo &, TextParser &, size_t);
bool printFunctionCall(const Operation &, TextPrinter &, unsigned);
Operation *parseFunctionCall(const OpInfo &, TextParser &, size_t);
bool printConstruct(const Operation &, TextPrinter &, unsigned);
Operation *parseConstruct(const OpInfo &, TextParser &, size_t);
// SyntaxComposite.cpp
bool inferExtract(const OpInfo &, InferQuery &);
bool inferInsert(const OpInfo &, InferQuery &);
bool inferAccessChain(const OpInfo &, InferQuery &);
bool printImageDrefGather(const Operation &, TextPrinter &, unsigned);
Operation *parseImageDrefGather(const OpInfo &, TextParser &, size_t);
// GraphOps.cpp
// SyntaxNonSemantic.cpp
bool printNonSemanticGlobal(const Operation &, TextPrinter &, unsigned);
Operation *parseNonSemanticGlobal(const OpInfo &, TextParser &, size_t);
bool printNonSemantic(const Operation &, TextPrinter &, unsigned);
Operation *parseNonSemantic(const OpInfo &, TextParser &, size_t);
bool printGraph(const Operation &, TextPrinter &, unsigned);
Operation *parseGraph(const OpInfo &, TextParser &, size_t);
bool printGraphEntryPoint(const Operation &, TextPrinter &, unsigned);
Operation *parseGraphEntryPoint(const OpInfo &, TextParser &, size_t);
bool printExperimentalMlCall(const Operation &, TextPrinter &, unsigned);
Operation *parseExperimentalMlCall(const OpInfo &, TextParser &, size_t);
// TosaOps.cpp
bool printTosa(const Operation &, TextPrinter &, unsigned);
Operation *parseTosa(const OpInfo &, TextParser &, size_t);
// SyntaxWrappers.cpp
bool printBuiltinModule(const Operation &, TextPrinter &, unsigned);
Operation *parseBuiltinModule(const OpInfo &, TextParser &, size_t);
bool printGpuModule(const Operation &, TextPrinter &, unsigned);
Operation *parseGpuModule(const OpInfo &, TextParser &, size_t);
bool printFuncFunc(const Operation &, TextPrinter &, unsigned);
Operation *parseFuncFunc(const OpInfo &, TextParser &, size_t);
bool printFuncReturn(const Operation &, TextPrinter &, unsigned);
Operation *parseFuncReturn(const OpInfo &, TextParser &, size_t);
bool printFuncCall(const Operation &, TextPrinter &, unsigned);
Operation *parseFuncCall(const OpInfo &, TextParser &, size_t);
bool printArithConstant(const Operation &, TextPrinter &, unsigned);
Operation *parseArithConstant(const OpInfo &, TextParser &, size_t);
} // namespace syntax

} // namespace spire::dialect
