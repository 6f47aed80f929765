// The ops of SPV_ARM_graph (spirv.ARM.Graph, spirv.ARM.GraphEntryPoint, spirv.ARM.GraphOutputs,
// spirv.ARM.GraphConstant) and spirv.ExperimentalML.Call: their custom syntax and what their
// verifiers check, as today's MLIR words it.
#include "AsmText.h"
#include "OpOverlay.h"
#include "OpSyntax.h"
#include "TextParser.h"
#include "TextPrinter.h"

#include "spire/dialect/Attributes.h"

#include <algorithm>
#include <string>

namespace spire::dialect {

namespace syntax {

/// `spirv.ARM.Graph @g(%arg0: T, ...) -> R [attributes {...}] { ... }`: a function's signature
/// without a function control; the function_type is the graph's type.
bool printGraph(const Operation &op, TextPrinter &p, unsigned indent) {
  return printCallable(op, p, indent, {});
}

Operation *parseGraph(const OpInfo &info, TextParser &p, size_t) {
  OperationState st(&info);
  Context &ctx = p.context();
  std::string name;
  Signature sig;
  if (!p.symbol(name) || !parseSignature(p, st, sig))
    return nullptr;
  // The signature reads as a function type: a graph's is its GraphArm twin.
  for (NamedAttribute &a : st.attributes)
    if (a.name == "function_type") {
      Type f = a.attr().type();
      a.value = attr::type(ctx, ctx.graphArm(f.inputs(), f.results())).storage();
    }
  p.addAttr(st, "sym_name", attr::string(ctx, name));
  return parseFunctionRest(p, st, sig);
}

/// `spirv.ARM.GraphEntryPoint @graph, @var0, @var1`.
bool printGraphEntryPoint(const Operation &op, TextPrinter &p, unsigned) {
  Attribute fn = op.attr("fn"), iface = op.attr("interface");
  if (!plain(op) || op.numOperands() || op.numResults() ||
      !TextPrinter::onlyAttrs(op, {"fn", "interface"}))
    return false;
  p.out() += ' ';
  return printEntryPointSymbols(fn, iface, p.out());
}

Operation *parseGraphEntryPoint(const OpInfo &info, TextParser &p, size_t) {
  OperationState st(&info);
  return parseEntryPointSymbols(p, st) ? p.finish(st) : nullptr;
}

/// `spirv.ExperimentalML.Call opcode = 0, %a, %b [attr-dict] : (A, B) -> R`.
bool printExperimentalMlCall(const Operation &op, TextPrinter &p, unsigned) {
  Attribute opcode = op.attr("opcode");
  if (!plain(op) || op.numResults() != 1 || !isInt(opcode, 32))
    return false;
  std::string &out = p.out();
  out += " opcode = " + std::to_string(opcode.intValue());
  if (op.numOperands()) {
    out += ", ";
    p.operands(op, 0, op.numOperands());
  }
  p.attrDict(op, {"opcode"});
  p.functionalType(op, op.numOperands());
  return true;
}

Operation *parseExperimentalMlCall(const OpInfo &info, TextParser &p, size_t) {
  OperationState st(&info);
  Context &ctx = p.context();
  if (!p.expectKeyword("opcode") || !p.expect('='))
    return nullptr;
  Attribute opcode = p.attribute();
  if (!opcode)
    return nullptr;
  if (!opcode.is(AttrKind::Integer)) {
    p.fail("expected an integer opcode");
    return nullptr;
  }
  p.addAttr(st, "opcode",
            attr::integer(ctx, ctx.integer(32), static_cast<int32_t>(opcode.intValue())));
  std::vector<Use> us;
  if (p.accept(',') && !p.uses(us))
    return nullptr;
  if (!p.optionalAttrDict(st) || !p.expect(':'))
    return nullptr;
  size_t at = p.offset();
  Type fn = p.type();
  if (!fn)
    return nullptr;
  if (!fn.is(TypeKind::Function) || fn.inputs().size() != us.size() || fn.results().size() != 1) {
    p.failAt(at, "expected a function type of the operands to one result");
    return nullptr;
  }
  if (!p.resolveEach(us, fn.inputs(), st.operands))
    return nullptr;
  st.resultTypes.assign(fn.results().begin(), fn.results().end());
  return p.finish(st);
}

} // namespace syntax

namespace detail {

namespace {

std::string quoted(Type t) { return "'" + toString(t) + "'"; }

/// MLIR's InGraphScope: the op's parent is a spirv.ARM.Graph.
bool inGraph(const Operation &op) {
  const Operation *parent = op.parentOp();
  return parent && &parent->info() == &ops::graph();
}

constexpr std::string_view kNotInGraph =
    "failed to verify that op must appear in a spirv.ARM.Graph op's block";

} // namespace

std::string verifyGraph(const Operation &op) {
  Attribute sym = op.attr("sym_name"), ft = op.attr("function_type"),
            entry = op.attr("entry_point");
  if (!sym || !sym.is(AttrKind::String))
    return "needs the attribute sym_name";
  if (!ft || !ft.is(AttrKind::Type) || !ft.type().is(TypeKind::GraphArm))
    return "needs a function_type of a graph type";
  if (entry && !entry.is(AttrKind::Bool))
    return "attribute entry_point has the wrong kind";
  if (const Operation *parent = op.parentOp(); parent && !ops::isSymbolTable(parent->info()))
    return "must appear in a module-like op's block";
  Type type = ft.type();
  if (type.results().empty())
    return "there should be at least one result";
  for (size_t i = 0; i < type.inputs().size(); ++i)
    if (!type.inputs()[i].is(TypeKind::TensorArm))
      return "type of argument #" + std::to_string(i) + " must be a TensorArmType, but got " +
             quoted(type.inputs()[i]);
  for (size_t i = 0; i < type.results().size(); ++i)
    if (!type.results()[i].is(TypeKind::TensorArm))
      return "type of result #" + std::to_string(i) + " must be a TensorArmType, but got " +
             quoted(type.results()[i]);
  if (op.numRegions() != 1)
    return "must have one region";
  const Region &body = op.region();
  if (body.empty())
    return {};
  if (body.size() != 1)
    return "must have one block";
  const Block &b = *body.front();
  if (b.numArguments() != type.inputs().size())
    return "entry block must have " + std::to_string(type.inputs().size()) +
           " arguments to match graph signature";
  for (uint32_t i = 0; i < b.numArguments(); ++i)
    if (b.argument(i).type() != type.inputs()[i])
      return "type of entry block argument #" + std::to_string(i) + "(" +
             toString(b.argument(i).type()) +
             ") must match the type of the corresponding argument in graph signature(" +
             toString(type.inputs()[i]) + ")";
  if (b.empty())
    return std::string(1, kWholeMessage) + "empty block: expect at least a terminator";
  return {};
}

std::string verifyGraphOutputs(const Operation &op) {
  if (!inGraph(op))
    return std::string(kNotInGraph);
  Attribute ft = op.parentOp()->attr("function_type");
  if (!ft || !ft.is(AttrKind::Type) || !ft.type().is(TypeKind::GraphArm))
    return {}; // the graph says what is wrong
  auto results = ft.type().results();
  if (op.numOperands() != results.size())
    return "is returning " + std::to_string(op.numOperands()) +
           " value(s) but enclosing spirv.ARM.Graph requires " + std::to_string(results.size()) +
           " result(s)";
  for (uint32_t i = 0; i < op.numOperands(); ++i)
    if (op.operand(i).type() != results[i])
      return std::string(1, kWholeMessage) + "type of return operand " + std::to_string(i) + " (" +
             quoted(op.operand(i).type()) + ") doesn't match graph result type (" +
             quoted(results[i]) + ")";
  return {};
}

std::string verifyGraphConstant(const Operation &op) {
  if (!inGraph(op))
    return std::string(kNotInGraph);
  Attribute id = op.attr("graph_constant_id");
  if (!syntax::isInt(id, 32))
    return "attribute 'graph_constant_id' failed to satisfy constraint: 32-bit signless integer "
           "attribute";
  if (op.numResults() != 1 || !op.result().type().is(TypeKind::TensorArm))
    return "result #0 must be any SPIR-V tensorArm type";
  return {};
}

std::string verifyGraphEntryPoint(const Operation &op) {
  Attribute fn = op.attr("fn"), iface = op.attr("interface");
  if (!fn || !fn.is(AttrKind::SymbolRef))
    return "needs the attribute fn";
  if (!iface || !iface.is(AttrKind::Array))
    return "needs the attribute interface";
  for (Attribute a : iface.elements())
    if (!a.is(AttrKind::SymbolRef))
      return "attribute interface must name global variables";
  if (const Operation *parent = op.parentOp(); parent && !ops::isSymbolTable(parent->info()))
    return "must appear in a module-like op's block";
  return {};
}

std::string verifyExperimentalMlCall(const Operation &op) {
  if (!syntax::isInt(op.attr("opcode"), 32))
    return "requires attribute 'opcode'";
  if (op.numResults() != 1)
    return "needs one result";
  return {};
}

} // namespace detail

} // namespace spire::dialect
