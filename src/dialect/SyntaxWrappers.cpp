// The custom syntax of the ops of other dialects that MLIR's tests wrap spirv ops in:
// `module [@name] [attributes {...}] { ... }` (builtin.module), `gpu.module @name [[targets]]
// [attributes {...}] { ... }`, `func.func [private] @f(%arg0: T) -> R [attributes {...}]
// { ... }`, func.return / func.call, named `return` / `call` inside a func.func as MLIR
// prints them there, and `arith.constant 1 : i32`.
#include "OpSyntax.h"
#include "TextParser.h"
#include "TextPrinter.h"

#include "AsmText.h"

#include <algorithm>
#include <string>

namespace spire::dialect::syntax {

namespace {

/// MLIR elides the func dialect's prefix inside a func.func.
void printFuncOpName(const Operation &op, std::string_view shortName, TextPrinter &p) {
  const Operation *parent = op.parentOp();
  if (parent && &parent->info() == &ops::funcFunc())
    p.out() += shortName;
  else
    p.out() += op.name();
}

/// Whether `op` has the shape of a module wrapper: one region of one block without arguments,
/// no operands, results or successors.
bool moduleShaped(const Operation &op) {
  return !op.numOperands() && !op.numResults() && op.numRegions() == 1 && op.successors().empty() &&
         op.region().size() == 1 && op.region().front()->numArguments() == 0;
}

/// ` attributes {...}` with the attributes not shown before, then the body.
void printModuleRest(const Operation &op, TextPrinter &p, unsigned indent,
                     std::initializer_list<std::string_view> shown) {
  if (!TextPrinter::onlyAttrs(op, shown)) {
    p.out() += " attributes";
    p.attrDict(op, shown);
  }
  p.out() += ' ';
  p.region(op.region(), indent, false);
}

} // namespace

bool printBuiltinModule(const Operation &op, TextPrinter &p, unsigned indent) {
  Attribute sym = op.attr("sym_name");
  if (!moduleShaped(op) || (sym && !sym.is(AttrKind::String)))
    return false;
  std::string &out = p.out();
  out += "module";
  if (sym) {
    out += ' ';
    printSymbol(sym.str(), out);
  }
  printModuleRest(op, p, indent, {"sym_name"});
  return true;
}

Operation *parseBuiltinModule(const OpInfo &info, TextParser &p, size_t) {
  OperationState st(&info);
  if (p.peek() == '@' && !p.symbolName(st))
    return nullptr;
  return parseModuleBody(p, st);
}

bool printGpuModule(const Operation &op, TextPrinter &p, unsigned indent) {
  Attribute sym = op.attr("sym_name"), targets = op.attr("targets");
  if (!moduleShaped(op) || !sym.is(AttrKind::String) || (targets && !targets.is(AttrKind::Array)))
    return false;
  std::string &out = p.out();
  out += "gpu.module ";
  printSymbol(sym.str(), out);
  if (targets) {
    out += ' ';
    print(targets, out, p.version());
  }
  printModuleRest(op, p, indent, {"sym_name", "targets"});
  return true;
}

Operation *parseGpuModule(const OpInfo &info, TextParser &p, size_t) {
  OperationState st(&info);
  if (!p.symbolName(st))
    return nullptr;
  if (p.peek() == '[') {
    Attribute targets = p.attribute();
    if (!targets)
      return nullptr;
    p.addAttr(st, "targets", targets);
  }
  return parseModuleBody(p, st);
}

bool printFuncFunc(const Operation &op, TextPrinter &p, unsigned indent) {
  Attribute sym = op.attr("sym_name"), visibility = op.attr("sym_visibility");
  if (op.numOperands() || op.numResults() || op.numRegions() != 1 || !sym.is(AttrKind::String) ||
      !op.successors().empty() || (visibility && !visibility.is(AttrKind::String)))
    return false;
  std::string &out = p.out();
  out += "func.func ";
  if (visibility) {
    out += visibility.str();
    out += ' ';
  }
  printSymbol(sym.str(), out);
  if (!printSignature(op, p))
    return false;
  constexpr std::string_view kShown[] = {"sym_name", "function_type", "sym_visibility",
                                         "arg_attrs"};
  bool others = false;
  for (const NamedAttribute &a : op.attributes())
    others = others || std::find(std::begin(kShown), std::end(kShown), a.name) == std::end(kShown);
  if (others) {
    out += " attributes";
    p.attrDict(op, kShown);
  }
  if (!op.region().empty()) {
    out += ' ';
    p.region(op.region(), indent, false);
  }
  return true;
}

Operation *parseFuncFunc(const OpInfo &info, TextParser &p, size_t) {
  OperationState st(&info);
  Context &ctx = p.context();
  for (std::string_view v : {"private", "public", "nested"})
    if (p.acceptKeyword(v)) {
      p.addAttr(st, "sym_visibility", attr::string(ctx, v));
      break;
    }
  std::string name;
  Signature sig;
  if (!p.symbol(name) || !parseSignature(p, st, sig))
    return nullptr;
  p.addAttr(st, "sym_name", attr::string(ctx, name));
  return parseFunctionRest(p, st, sig);
}

bool printFuncReturn(const Operation &op, TextPrinter &p, unsigned) {
  if (!plain(op) || op.numResults())
    return false;
  printFuncOpName(op, "return", p);
  p.attrDict(op);
  if (op.numOperands()) {
    p.out() += ' ';
    p.operands(op, 0, op.numOperands());
    p.out() += " : ";
    p.types(op, 0, op.numOperands());
  }
  return true;
}

Operation *parseFuncReturn(const OpInfo &info, TextParser &p, size_t) {
  OperationState st(&info);
  if (!p.optionalAttrDict(st))
    return nullptr;
  if (p.peek() == '%') {
    std::vector<Use> us;
    std::vector<Type> types;
    if (!p.uses(us) || !p.expect(':') || !p.typeList(types))
      return nullptr;
    if (types.size() != us.size()) {
      p.fail("the return gives " + std::to_string(us.size()) + " values and " +
             std::to_string(types.size()) + " types");
      return nullptr;
    }
    if (!p.resolveEach(us, types, st.operands))
      return nullptr;
  }
  return p.finish(st);
}

bool printFuncCall(const Operation &op, TextPrinter &p, unsigned indent) {
  if (op.numResults() > 1)
    return false;
  printFuncOpName(op, "call", p);
  return printFunctionCall(op, p, indent);
}

Operation *parseFuncCall(const OpInfo &info, TextParser &p, size_t at) {
  return parseFunctionCall(info, p, at);
}

namespace {
/// The type of a constant value: its own, i1 for a bool; null for other attributes.
Type valueType(Context &ctx, Attribute v) {
  switch (v.kind()) {
  case AttrKind::Bool:
    return ctx.boolean();
  case AttrKind::Integer:
  case AttrKind::Float:
  case AttrKind::Dense:
    return v.type();
  default:
    return {};
  }
}
} // namespace

bool printArithConstant(const Operation &op, TextPrinter &p, unsigned) {
  Attribute v = op.attr("value");
  if (!v || op.numOperands() || op.numResults() != 1 || op.attributes().size() != 1 ||
      op.numRegions() || !op.successors().empty() ||
      !(v.is(AttrKind::Bool) || v.is(AttrKind::Integer) || v.is(AttrKind::Float) ||
        v.is(AttrKind::Dense)) ||
      (v.is(AttrKind::Bool) ? !op.result().type().isBool() : v.type() != op.result().type()))
    return false;
  p.out() += ' ';
  p.attribute(v);
  return true;
}

Operation *parseArithConstant(const OpInfo &info, TextParser &p, size_t) {
  OperationState st(&info);
  size_t at = p.position();
  Attribute v = p.attribute();
  if (!v)
    return nullptr;
  Type t = valueType(p.context(), v);
  if (!t) {
    p.failAt(at, "expected a typed constant value");
    return nullptr;
  }
  if (!p.optionalAttrDict(st))
    return nullptr;
  p.addAttr(st, "value", v);
  st.resultTypes.push_back(t);
  return p.finish(st);
}

} // namespace spire::dialect::syntax
