// The custom syntax of control flow: branches name their successor blocks with the values they
// pass (`^bb1(%a : i32)`), a conditional branch its weights in brackets, a call its callee
// symbol and function type, and selection and loop constructs hold a region.
#include "OpSyntax.h"
#include "TextParser.h"
#include "TextPrinter.h"

#include "AsmText.h"

#include <string>

namespace spire::dialect::syntax {

using grammar::OperandKind;

bool printBranch(const Operation &op, TextPrinter &p, unsigned) {
  if (op.successors().size() != 1 || op.numOrdinaryOperands() != 0 || op.numResults() != 0 ||
      op.numRegions() != 0)
    return false;
  p.out() += ' ';
  p.successor(op, op.successors()[0]);
  p.attrDict(op);
  return true;
}

Operation *parseBranch(const OpInfo &info, TextParser &p, size_t) {
  OperationState st(&info);
  if (!p.successor(st) || !p.optionalAttrDict(st))
    return nullptr;
  return p.finish(st);
}

/// `spirv.BranchConditional %c [1, 2], ^bb1, ^bb2(%x : i32)`.
bool printBranchConditional(const Operation &op, TextPrinter &p, unsigned) {
  Attribute w = op.attr("branch_weights");
  if (op.successors().size() != 2 || op.numOrdinaryOperands() != 1 || op.numResults() != 0 ||
      op.numRegions() != 0 || !op.operand(0).type().isBool())
    return false;
  if (w && (!w.is(AttrKind::Array) || w.elements().size() != 2 || !isInt(w.elements()[0], 32) ||
            !isInt(w.elements()[1], 32)))
    return false;
  std::string &out = p.out();
  out += ' ';
  p.use(op.operand(0));
  if (w)
    out += " [" + std::to_string(w.elements()[0].intValue()) + ", " +
           std::to_string(w.elements()[1].intValue()) + "]";
  out += ", ";
  p.successor(op, op.successors()[0]);
  out += ", ";
  p.successor(op, op.successors()[1]);
  p.attrDict(op, {"branch_weights"});
  return true;
}

Operation *parseBranchConditional(const OpInfo &info, TextParser &p, size_t) {
  OperationState st(&info);
  Context &ctx = p.context();
  Use cond;
  if (!p.use(cond))
    return nullptr;
  Value c = p.resolve(cond, ctx.boolean());
  if (!c)
    return nullptr;
  st.operands.push_back(c);
  if (p.accept('[')) {
    std::optional<int64_t> a = p.integer();
    std::optional<int64_t> b;
    if (!a || !p.expect(',') || !(b = p.integer()) || !p.expect(']'))
      return nullptr;
    Attribute w[2] = {attr::integer(ctx, ctx.integer(32), *a),
                      attr::integer(ctx, ctx.integer(32), *b)};
    p.addAttr(st, "branch_weights", attr::array(ctx, w));
  }
  if (!p.expect(',') || !p.successor(st) || !p.expect(',') || !p.successor(st) ||
      !p.optionalAttrDict(st))
    return nullptr;
  return p.finish(st);
}

/// `spirv.FunctionCall @f(%a, %b) : (i32, f32) -> i32`, `-> ()` for a call without a result.
/// `spirv.Switch %sel : i32, [` then `default: ^bb1,` and one `<literal>: ^bbN(%x : T)` line
/// per case, `]` on a line of its own after the last case (right after the default when there
/// is none), as today's MLIR prints it.
bool printSwitch(const Operation &op, TextPrinter &p, unsigned indent) {
  Attribute literals = op.attr("literals");
  const size_t cases = op.successors().size() - (op.successors().empty() ? 0 : 1);
  if (op.successors().empty() || op.numOrdinaryOperands() != 1 || op.numResults() != 0 ||
      op.numRegions() != 0 || !op.operand(0).type().is(TypeKind::Integer) ||
      (literals && !literals.is(AttrKind::Array)) ||
      (literals ? literals.elements().size() : 0) != cases)
    return false;
  Type selector = op.operand(0).type();
  for (size_t k = 0; k < cases; ++k)
    if (!literals.elements()[k].is(AttrKind::Integer) || literals.elements()[k].type() != selector)
      return false;
  std::string &out = p.out();
  out += ' ';
  p.use(op.operand(0));
  out += " : ";
  p.type(selector);
  out += ", [\n";
  out.append(indent + 2, ' ');
  out += "default: ";
  p.successor(op, op.successors()[0]);
  for (size_t k = 0; k < cases; ++k) {
    out += ",\n";
    out.append(indent + 2, ' ');
    out += std::to_string(literals.elements()[k].intValue()) + ": ";
    p.successor(op, op.successors()[k + 1]);
  }
  if (cases) {
    out += '\n';
    out.append(indent, ' ');
  }
  out += ']';
  p.attrDict(op, {"literals"});
  return true;
}

Operation *parseSwitch(const OpInfo &info, TextParser &p, size_t) {
  OperationState st(&info);
  Context &ctx = p.context();
  Use sel;
  if (!p.use(sel) || !p.expect(':'))
    return nullptr;
  size_t at = p.position();
  Type t = p.type();
  if (!t)
    return nullptr;
  if (!t.is(TypeKind::Integer)) {
    p.failAt(at, "the selector of spirv.Switch is an integer");
    return nullptr;
  }
  Value v = p.resolve(sel, t);
  if (!v)
    return nullptr;
  st.operands.push_back(v);
  if (!p.expect(',') || !p.expect('[') || !p.expectKeyword("default") || !p.expect(':') ||
      !p.successor(st))
    return nullptr;
  std::vector<Attribute> literals;
  while (p.accept(',')) {
    std::optional<int64_t> n = p.integer();
    if (!n || !p.expect(':') || !p.successor(st))
      return nullptr;
    literals.push_back(attr::integer(ctx, t, *n));
  }
  if (!p.expect(']'))
    return nullptr;
  p.addAttr(st, "literals", attr::array(ctx, literals));
  if (!p.optionalAttrDict(st))
    return nullptr;
  return p.finish(st);
}

bool printFunctionCall(const Operation &op, TextPrinter &p, unsigned) {
  Attribute callee = op.attr("callee");
  if (!plain(op) || op.numResults() > 1 || !callee.is(AttrKind::SymbolRef))
    return false;
  std::string &out = p.out();
  out += ' ';
  printSymbol(callee.str(), out);
  out += '(';
  p.operands(op, 0, op.numOperands());
  out += ')';
  p.attrDict(op, {"callee"});
  p.functionalType(op, op.numOperands());
  return true;
}

Operation *parseFunctionCall(const OpInfo &info, TextParser &p, size_t) {
  OperationState st(&info);
  std::string callee;
  std::vector<Use> us;
  if (!p.symbol(callee) || !p.expect('(') || !p.uses(us) || !p.expect(')'))
    return nullptr;
  p.addAttr(st, "callee", attr::symbolRef(p.context(), callee));
  if (!p.optionalAttrDict(st) || !p.expect(':'))
    return nullptr;
  size_t at = p.offset();
  Type fn = p.type();
  if (!fn)
    return nullptr;
  if (!fn.is(TypeKind::Function) || fn.inputs().size() != us.size()) {
    p.failAt(at, "the function type does not match the operands");
    return nullptr;
  }
  // The op has an optional result: MLIR's verifier of its result group says so.
  if (fn.results().size() > 1) {
    p.failAt(at, "'" + p.opName(info.name) +
                     "' op result group starting at #0 requires 0 or 1 element, but found " +
                     std::to_string(fn.results().size()));
    return nullptr;
  }
  if (!p.resolveEach(us, fn.inputs(), st.operands))
    return nullptr;
  st.resultTypes.assign(fn.results().begin(), fn.results().end());
  return p.finish(st);
}

namespace {

/// The control attribute of a selection or loop and its enumerant kind.
std::pair<std::string_view, OperandKind> control(const OpInfo &info) {
  if (&info == &ops::selection())
    return {"selection_control", OperandKind::SelectionControl};
  return {"loop_control", OperandKind::LoopControl};
}

} // namespace

/// `spirv.mlir.selection control(Flatten) { ... }`; no control() when it is None.
bool printConstruct(const Operation &op, TextPrinter &p, unsigned indent) {
  auto [key, kind] = control(op.info());
  Attribute c = op.attr(key);
  if (op.numOperands() || op.numResults() || op.numRegions() != 1 || !op.successors().empty() ||
      !TextPrinter::onlyAttrs(op, {key}) || !c.is(AttrKind::Enum) || c.enumKind() != kind)
    return false;
  const Block *entry = op.region().front();
  if (entry && entry->numArguments())
    return false;
  p.out() += ' ';
  if (c.enumValue() != 0) {
    p.out() += "control(";
    p.enumerant(kind, c.enumValue());
    p.out() += ") ";
  }
  p.region(op.region(), indent, false);
  return true;
}

Operation *parseConstruct(const OpInfo &info, TextParser &p, size_t) {
  OperationState st(&info);
  auto [key, kind] = control(info);
  uint32_t v = 0;
  if (p.acceptKeyword("control")) {
    if (!p.expect('('))
      return nullptr;
    size_t at = p.position();
    if (!p.enumValue(kind, p.until(')'), at, v) || !p.expect(')'))
      return nullptr;
  }
  p.addAttr(st, key, attr::enumerant(p.context(), kind, v));
  std::vector<std::unique_ptr<Region>> regions;
  regions.push_back(std::make_unique<Region>());
  if (!p.region(*regions.back(), false))
    return nullptr;
  return p.finish(st, &regions);
}

} // namespace spire::dialect::syntax
