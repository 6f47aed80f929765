// The custom syntax of the module-level ops no format can say: spirv.module and spirv.func
// (regions, function types with named arguments), globals and specialization constants
// (symbols, decorations, values), entry points and execution modes (lists of symbols and
// literals), and spirv.Constant (a value whose attribute syntax gives the result type).
#include "OpSyntax.h"
#include "TextParser.h"
#include "TextPrinter.h"

#include "AsmText.h"

#include <string>

namespace spire::dialect::syntax {

using grammar::OperandKind;

// --- spirv.module ------------------------------------------------------------------------------

bool printModule(const Operation &op, TextPrinter &p, unsigned indent) {
  Attribute am = op.attr("addressing_model"), mm = op.attr("memory_model");
  Attribute vce = op.attr("vce_triple"), sym = op.attr("sym_name");
  if (op.numOperands() || op.numResults() || op.numRegions() != 1 || !am.is(AttrKind::Enum) ||
      !mm.is(AttrKind::Enum) || am.enumKind() != OperandKind::AddressingModel ||
      mm.enumKind() != OperandKind::MemoryModel || (vce && !vce.is(AttrKind::Vce)) ||
      (sym && !sym.is(AttrKind::String)) || !op.successors().empty() || op.region().size() > 1 ||
      (op.region().front() && op.region().front()->numArguments() != 0))
    return false;
  std::string &out = p.out();
  if (sym) {
    out += ' ';
    printSymbol(sym.str(), out);
  }
  out += ' ';
  out += enumText(OperandKind::AddressingModel, am.enumValue());
  out += ' ';
  out += enumText(OperandKind::MemoryModel, mm.enumValue());
  if (vce) {
    out += " requires ";
    print(vce, out, p.version());
  }
  if (!TextPrinter::onlyAttrs(op, {"addressing_model", "memory_model", "vce_triple", "sym_name"})) {
    out += " attributes";
    p.attrDict(op, {"addressing_model", "memory_model", "vce_triple", "sym_name"});
  }
  out += ' ';
  p.region(op.region(), indent, false);
  return true;
}

namespace {

/// A bare enumerant of `kind` (spirv.module's models) as attribute `name`.
bool bareEnumerant(TextParser &p, OperationState &st, OperandKind kind, std::string_view name,
                   const char *opName) {
  size_t at = p.position();
  std::string_view text = p.identifier();
  uint32_t v = 0;
  // In MLIR's words (a custom parser's errors name the op).
  if (text.empty())
    return p.fail(std::string("custom op '") + opName + "' expected valid keyword");
  if (uint32_t probe = 0; !lexing::isDigit(text[0]) && !grammar::findEnumerant(kind, text) &&
                          !mlirEnumerantValue(kind, text, probe))
    return p.failAt(at, std::string("custom op '") + opName + "' invalid " + std::string(name) +
                            " attribute specification: " + std::string(text));
  if (!p.enumValue(kind, text, at, v))
    return false;
  p.addAttr(st, name, attr::enumerant(p.context(), kind, v));
  return true;
}

} // namespace

Operation *parseModule(const OpInfo &info, TextParser &p, size_t) {
  OperationState st(&info);
  if (p.peek() == '@' && !p.symbolName(st))
    return nullptr;
  if (!bareEnumerant(p, st, OperandKind::AddressingModel, "addressing_model", "spirv.module") ||
      !bareEnumerant(p, st, OperandKind::MemoryModel, "memory_model", "spirv.module"))
    return nullptr;
  if (p.acceptKeyword("requires")) {
    size_t at = p.position();
    Attribute vce = p.attribute();
    if (!vce)
      return nullptr;
    if (!vce.is(AttrKind::Vce)) {
      p.failAt(at, "expected #spirv.vce<...>");
      return nullptr;
    }
    p.addAttr(st, "vce_triple", vce);
  }
  return parseModuleBody(p, st);
}

Operation *parseModuleBody(TextParser &p, OperationState &st) {
  if (p.acceptKeyword("attributes") && !p.optionalAttrDict(st))
    return nullptr;
  std::vector<std::unique_ptr<Region>> regions;
  regions.push_back(std::make_unique<Region>());
  if (!p.region(*regions.back(), true))
    return nullptr;
  if (regions.back()->empty())
    regions.back()->addBlock();
  return p.finish(st, &regions);
}

// --- spirv.func ------------------------------------------------------------------------------

bool printSignature(const Operation &op, TextPrinter &p) {
  Attribute ft = op.attr("function_type");
  // (spirv.ARM.Graph's is a graph type, of the same shape)
  if (!ft.is(AttrKind::Type) ||
      !(ft.type().is(TypeKind::Function) || ft.type().is(TypeKind::GraphArm)))
    return false;
  Type fnType = ft.type();
  const Block *entry = op.numRegions() ? op.region().front() : nullptr;
  if (entry) {
    if (entry->numArguments() != fnType.inputs().size())
      return false;
    for (uint32_t i = 0; i < entry->numArguments(); ++i)
      if (entry->argument(i).type() != fnType.inputs()[i])
        return false;
  }
  // Argument attributes (arg_attrs: one dictionary per argument) print after each argument's
  // type, as MLIR prints them; MLIR 16 holds none on spirv.func (--mlir16 leaves them out).
  Attribute argAttrs = op.attr("arg_attrs");
  if (argAttrs &&
      (!argAttrs.is(AttrKind::Array) || argAttrs.elements().size() != fnType.inputs().size()))
    return false;
  for (size_t i = 0; argAttrs && i < argAttrs.elements().size(); ++i)
    if (!argAttrs.elements()[i].is(AttrKind::Dictionary))
      return false;
  std::string &out = p.out();
  out += '(';
  for (size_t i = 0; i < fnType.inputs().size(); ++i) {
    if (i)
      out += ", ";
    if (entry) {
      p.use(entry->argument(static_cast<uint32_t>(i)));
      out += ": ";
    }
    p.type(fnType.inputs()[i]);
    if (argAttrs && !p.mlir16() && !argAttrs.elements()[i].entries().empty()) {
      out += ' ';
      print(argAttrs.elements()[i], out, p.version());
    }
    if (entry)
      p.argumentLocation();
  }
  out += ')';
  auto results = fnType.results();
  if (!results.empty()) {
    out += " -> ";
    bool parens = results.size() > 1 || results[0].is(TypeKind::Function);
    if (parens)
      out += '(';
    for (size_t i = 0; i < results.size(); ++i) {
      if (i)
        out += ", ";
      p.type(results[i]);
    }
    if (parens)
      out += ')';
  }
  return true;
}

bool printFunc(const Operation &op, TextPrinter &p, unsigned indent) {
  Attribute fc = op.attr("function_control");
  return fc.is(AttrKind::Enum) && fc.enumKind() == OperandKind::FunctionControl &&
         printCallable(op, p, indent, fc);
}

bool printCallable(const Operation &op, TextPrinter &p, unsigned indent, Attribute control) {
  Attribute sym = op.attr("sym_name");
  if (op.numOperands() || op.numResults() || op.numRegions() != 1 || !sym.is(AttrKind::String) ||
      !op.successors().empty())
    return false;
  std::string &out = p.out();
  out += ' ';
  printSymbol(sym.str(), out);
  if (!printSignature(op, p))
    return false;
  if (control) {
    out += " \"" + enumText(OperandKind::FunctionControl, control.enumValue()) + "\"";
    if (!TextPrinter::onlyAttrs(op,
                                {"sym_name", "function_type", "function_control", "arg_attrs"})) {
      out += " attributes";
      p.attrDict(op, {"sym_name", "function_type", "function_control", "arg_attrs"});
    }
  } else if (!TextPrinter::onlyAttrs(op, {"sym_name", "function_type", "arg_attrs"})) {
    out += " attributes";
    p.attrDict(op, {"sym_name", "function_type", "arg_attrs"});
  }
  if (!op.region().empty()) {
    out += ' ';
    p.region(op.region(), indent, false);
  }
  return true;
}

bool parseSignature(TextParser &p, OperationState &st, Signature &sig) {
  Context &ctx = p.context();
  if (!p.expect('('))
    return false;
  std::vector<Type> inputs, results;
  std::vector<Attribute> argAttrs;
  bool anyArgAttrs = false;
  sig.named = p.peek() == '%';
  if (!p.accept(')')) {
    do {
      if (sig.named) {
        Use u;
        if (p.peek() != '%')
          return p.fail("expected SSA identifier");
        if (!p.use(u) || !p.expect(':'))
          return false;
        Type t = p.type();
        if (!t)
          return false;
        sig.args.push_back({u.name, u.pos, t});
        inputs.push_back(t);
      } else {
        Type t = p.type();
        if (!t)
          return false;
        inputs.push_back(t);
      }
      // An argument's attributes: `{spirv.decoration = #spirv.decoration<Aliased>}`.
      OperationState scratch(nullptr);
      if (p.peek() == '{' && !p.optionalAttrDict(scratch))
        return false;
      if (sig.named && !p.argumentLocation())
        return false;
      anyArgAttrs |= !scratch.attributes.empty();
      argAttrs.push_back(attr::dictionary(ctx, scratch.attributes));
    } while (p.accept(','));
    if (!p.expect(')'))
      return false;
  }
  if (p.accept("->")) {
    if (p.accept('(')) {
      if (!p.accept(')') && (!p.typeList(results) || !p.expect(')')))
        return false;
    } else {
      Type t = p.type();
      if (!t)
        return false;
      results.push_back(t);
    }
  }
  sig.numInputs = inputs.size();
  p.addAttr(st, "function_type", attr::type(ctx, ctx.function(inputs, results)));
  if (anyArgAttrs)
    p.addAttr(st, "arg_attrs", attr::array(ctx, argAttrs));
  return true;
}

Operation *parseFunctionRest(TextParser &p, OperationState &st, const Signature &sig) {
  if (p.acceptKeyword("attributes") && !p.optionalAttrDict(st))
    return nullptr;
  std::vector<std::unique_ptr<Region>> regions;
  regions.push_back(std::make_unique<Region>());
  if (p.peek() == '{') {
    if (!sig.named && sig.numInputs) {
      p.fail("a function with a body names its arguments");
      return nullptr;
    }
    if (!p.region(*regions.back(), true, &sig.args))
      return nullptr;
  } // else a declaration (of an imported function): its argument names, if any, name nothing
  return p.finish(st, &regions);
}

Operation *parseFunc(const OpInfo &info, TextParser &p, size_t) {
  OperationState st(&info);
  Context &ctx = p.context();
  std::string name;
  Signature sig;
  if (!p.symbol(name) || !parseSignature(p, st, sig))
    return nullptr;
  if (p.peek() != '"') {
    p.fail("expected function_control attribute specified as string");
    return nullptr;
  }
  Attribute control =
      p.enumAttr(OperandKind::FunctionControl, false, info.name, "function_control");
  if (!control)
    return nullptr;
  p.addAttr(st, "sym_name", attr::string(ctx, name));
  p.addAttr(st, "function_control", control);
  return parseFunctionRest(p, st, sig);
}

// --- Globals and specialization constants ------------------------------------------------------

bool printGlobalVariable(const Operation &op, TextPrinter &p, unsigned) {
  Attribute sym = op.attr("sym_name"), ty = op.attr("type"), init = op.attr("initializer");
  if (!plain(op) || op.numOperands() || op.numResults() || !sym.is(AttrKind::String) ||
      !ty.is(AttrKind::Type) || (init && !init.is(AttrKind::SymbolRef)))
    return false;
  std::string &out = p.out();
  out += ' ';
  printSymbol(sym.str(), out);
  if (init) {
    out += " initializer(";
    printSymbol(init.str(), out);
    out += ')';
  }
  std::vector<std::string_view> elided = {"sym_name", "type", "initializer"};
  printVariableDecorations(op, p, elided);
  p.attrDict(op, elided);
  out += " : ";
  p.type(ty.type());
  return true;
}

Operation *parseGlobalVariable(const OpInfo &info, TextParser &p, size_t) {
  OperationState st(&info);
  Context &ctx = p.context();
  if (!p.symbolName(st))
    return nullptr;
  if (p.acceptKeyword("initializer")) {
    std::string init;
    if (!p.expect('(') || !p.symbol(init) || !p.expect(')'))
      return nullptr;
    p.addAttr(st, "initializer", attr::symbolRef(ctx, init));
  }
  Type t;
  size_t typeAt = 0;
  if (!parseVariableDecorations(p, st) || !p.optionalAttrDict(st) || !p.expect(':') ||
      ((typeAt = p.position()), !(t = p.type())))
    return nullptr;
  if (!t.is(TypeKind::Pointer)) {
    p.failAt(typeAt, "expected spirv.ptr type");
    return nullptr;
  }
  p.addAttr(st, "type", attr::type(ctx, t));
  return p.finish(st);
}

bool printSpecConstant(const Operation &op, TextPrinter &p, unsigned) {
  Attribute sym = op.attr("sym_name"), id = op.attr("spec_id"), v = op.attr("default_value");
  if (!plain(op) || op.numOperands() || op.numResults() || !sym.is(AttrKind::String) || !v ||
      (id && !isInt(id, 64)) ||
      !TextPrinter::onlyAttrs(op, {"sym_name", "spec_id", "default_value"}))
    return false;
  std::string &out = p.out();
  out += ' ';
  printSymbol(sym.str(), out);
  if (id)
    out += " spec_id(" + std::to_string(id.intValue()) + ")";
  out += " = ";
  print(v, out, p.version());
  return true;
}

Operation *parseSpecConstant(const OpInfo &info, TextParser &p, size_t) {
  OperationState st(&info);
  Context &ctx = p.context();
  if (!p.symbolName(st))
    return nullptr;
  if (p.acceptKeyword("spec_id")) {
    std::optional<int64_t> id;
    if (!p.expect('(') || !(id = p.integer()) || !p.expect(')'))
      return nullptr;
    p.addAttr(st, "spec_id", attr::integer(ctx, ctx.integer(64), *id));
  }
  if (!p.expect('='))
    return nullptr;
  Attribute v = p.attribute();
  if (!v)
    return nullptr;
  p.addAttr(st, "default_value", v);
  return p.finish(st);
}

bool printSpecConstantComposite(const Operation &op, TextPrinter &p, unsigned) {
  Attribute sym = op.attr("sym_name"), ty = op.attr("type"), cs = op.attr("constituents");
  if (!plain(op) || op.numOperands() || op.numResults() || !sym.is(AttrKind::String) ||
      !ty.is(AttrKind::Type) || !cs.is(AttrKind::Array) ||
      !TextPrinter::onlyAttrs(op, {"sym_name", "type", "constituents"}))
    return false;
  for (Attribute c : cs.elements())
    if (!c.is(AttrKind::SymbolRef))
      return false;
  std::string &out = p.out();
  out += ' ';
  printSymbol(sym.str(), out);
  out += " (";
  bool first = true;
  for (Attribute c : cs.elements()) {
    out += first ? "" : ", ";
    first = false;
    printSymbol(c.str(), out);
  }
  out += ") : ";
  p.type(ty.type());
  return true;
}

Operation *parseSpecConstantComposite(const OpInfo &info, TextParser &p, size_t) {
  OperationState st(&info);
  Context &ctx = p.context();
  if (!p.symbolName(st) || !p.expect('('))
    return nullptr;
  std::vector<Attribute> cs;
  if (!p.listUntil(')', [&] {
        std::string c;
        if (!p.symbol(c))
          return false;
        cs.push_back(attr::symbolRef(ctx, c));
        return true;
      }))
    return nullptr;
  Type t;
  if (!p.expect(':') || !(t = p.type()))
    return nullptr;
  p.addAttr(st, "constituents", attr::array(ctx, cs));
  p.addAttr(st, "type", attr::type(ctx, t));
  return p.finish(st);
}

/// `spirv.SpecConstantOperation wraps "spirv.IAdd"(...) ...`: its one-block region holds the
/// operation in generic form and spirv.mlir.yield of its result.
bool printSpecConstantOperation(const Operation &op, TextPrinter &p, unsigned indent) {
  if (op.numOperands() || op.numResults() != 1 || op.numRegions() != 1 ||
      !op.attributes().empty() || op.region().size() != 1)
    return false;
  const Block *b = op.region().front();
  const Operation *inner = b->front();
  const Operation *yield = inner ? inner->next() : nullptr;
  if (b->numArguments() || !inner || !yield || yield->next() || &yield->info() != &ops::yield() ||
      inner->numResults() != 1 || yield->numOperands() != 1 ||
      yield->operand(0) != inner->result(0) || !yield->attributes().empty() ||
      inner->result(0).type() != op.result(0).type() || inner->numRegions() != 0 ||
      !inner->successors().empty())
    return false;
  p.out() += " wraps ";
  p.generic(*inner, indent);
  return true;
}

Operation *parseSpecConstantOperation(const OpInfo &info, TextParser &p, size_t) {
  OperationState st(&info);
  if (!p.expectKeyword("wraps"))
    return nullptr;
  size_t at = p.position();
  std::string name;
  if (p.peek() != '"') {
    p.fail("expected the wrapped op in generic form");
    return nullptr;
  }
  if (!p.string(name))
    return nullptr;
  const OpInfo *inner = findOp(name);
  if (!inner) {
    p.failAt(at, "unknown op \"" + name + "\"");
    return nullptr;
  }
  Operation *op = p.genericOp(*inner, at);
  if (!op)
    return nullptr;
  OwningOp innerOp(op);
  if (op->numResults() != 1) {
    p.failAt(at, "the wrapped op has one result");
    return nullptr;
  }
  st.resultTypes.push_back(op->result(0).type());
  st.numRegions = 1;
  Operation *outer = p.finish(st);
  if (!outer)
    return nullptr;
  Block *b = outer->region().addBlock();
  b->push_back(innerOp.release());
  OperationState y(&ops::yield());
  y.operands.push_back(op->result(0));
  b->push_back(Operation::create(std::move(y)));
  return outer;
}

// --- Entry points and execution modes ----------------------------------------------------------

bool printEntryPoint(const Operation &op, TextPrinter &p, unsigned) {
  Attribute em = op.attr("execution_model"), fn = op.attr("fn"), iface = op.attr("interface");
  if (!plain(op) || op.numOperands() || op.numResults() || !em.is(AttrKind::Enum) ||
      em.enumKind() != OperandKind::ExecutionModel ||
      !TextPrinter::onlyAttrs(op, {"execution_model", "fn", "interface"}))
    return false;
  std::string text = " \"" + enumText(OperandKind::ExecutionModel, em.enumValue()) + "\" ";
  if (!printEntryPointSymbols(fn, iface, text))
    return false;
  p.out() += text;
  return true;
}

bool printEntryPointSymbols(Attribute fn, Attribute iface, std::string &out) {
  if (!fn.is(AttrKind::SymbolRef) || !iface.is(AttrKind::Array))
    return false;
  for (Attribute a : iface.elements())
    if (!a.is(AttrKind::SymbolRef))
      return false;
  printSymbol(fn.str(), out);
  for (Attribute a : iface.elements()) {
    out += ", ";
    printSymbol(a.str(), out);
  }
  return true;
}

bool parseEntryPointSymbols(TextParser &p, OperationState &st) {
  Context &ctx = p.context();
  std::string fn;
  if (!p.symbolRef(fn))
    return false;
  std::vector<Attribute> iface;
  while (p.accept(',')) {
    std::string s;
    if (!p.symbolRef(s))
      return false;
    iface.push_back(attr::symbolRef(ctx, s));
  }
  p.addAttr(st, "fn", attr::symbolRef(ctx, fn));
  p.addAttr(st, "interface", attr::array(ctx, iface));
  return true;
}

Operation *parseEntryPoint(const OpInfo &info, TextParser &p, size_t) {
  OperationState st(&info);
  Attribute model = p.enumAttr(OperandKind::ExecutionModel, false, info.name, "execution_model");
  if (!model)
    return nullptr;
  p.addAttr(st, "execution_model", model);
  return parseEntryPointSymbols(p, st) ? p.finish(st) : nullptr;
}

/// `spirv.ExecutionMode @fn "Mode", 1, 2`; a mode whose operands are ids given as
/// specialization constants prints as today's MLIR's spirv.ExecutionModeId (`spirv.ExecutionModeId
/// @fn "LocalSizeId" @x, @y, @z`), the same op here (both instructions are one op).
bool printExecutionMode(const Operation &op, TextPrinter &p, unsigned) {
  Attribute fn = op.attr("fn"), mode = op.attr("execution_mode"), vals = op.attr("values");
  if (!plain(op) || op.numOperands() || op.numResults() || !mode.is(AttrKind::Enum) ||
      !fn.is(AttrKind::SymbolRef) || mode.enumKind() != OperandKind::ExecutionMode ||
      !vals.is(AttrKind::Array) || !TextPrinter::onlyAttrs(op, {"execution_mode", "fn", "values"}))
    return false;
  bool symbols = !vals.elements().empty();
  for (Attribute a : vals.elements())
    symbols = symbols && a.is(AttrKind::SymbolRef);
  const grammar::EnumerantDesc *e =
      grammar::findEnumerant(OperandKind::ExecutionMode, mode.enumValue());
  bool ids = e && !e->parameters.empty() &&
             grammar::operandCategory(e->parameters[0].kind) == grammar::OperandCategory::Id;
  if (symbols && (!ids || p.mlir16())) // MLIR 16 has no spirv.ExecutionModeId
    return false;
  for (Attribute a : vals.elements())
    if (!symbols && !isInt(a, 32))
      return false;
  std::string &out = p.out();
  p.name(symbols ? "spirv.ExecutionModeId" : "spirv.ExecutionMode");
  out += ' ';
  printSymbol(fn.str(), out);
  out += " \"" + enumText(OperandKind::ExecutionMode, mode.enumValue()) + "\"";
  for (size_t i = 0; i < vals.elements().size(); ++i) {
    Attribute a = vals.elements()[i];
    if (!symbols) {
      out += ", " + std::to_string(a.intValue());
      continue;
    }
    out += i ? ", " : " ";
    printSymbol(a.str(), out);
  }
  return true;
}

Operation *parseExecutionMode(const OpInfo &info, TextParser &p, size_t) {
  OperationState st(&info);
  Context &ctx = p.context();
  std::string fn;
  if (!p.symbolRef(fn))
    return nullptr;
  Attribute mode = p.enumAttr(OperandKind::ExecutionMode, false, info.name, "execution_mode");
  if (!mode)
    return nullptr;
  std::vector<Attribute> vals;
  const bool symbols = p.peek() == '@';
  if (symbols) { // spirv.ExecutionModeId's specialization constants
    do {
      std::string sym;
      if (!p.symbol(sym))
        return nullptr;
      vals.push_back(attr::symbolRef(ctx, sym));
    } while (p.accept(','));
  }
  while (!symbols && p.accept(',')) {
    std::optional<int64_t> v = p.integer();
    if (!v)
      return nullptr;
    vals.push_back(attr::integer(ctx, ctx.integer(32), *v));
  }
  p.addAttr(st, "fn", attr::symbolRef(ctx, fn));
  p.addAttr(st, "execution_mode", mode);
  p.addAttr(st, "values", attr::array(ctx, vals));
  return p.finish(st);
}

// --- spirv.Constant ----------------------------------------------------------------------------

/// `spirv.Constant 1 : i32`, `true`, `dense<...> : vector<2xf32>`: the value's syntax gives the
/// result type; an array value is followed by it.
bool printConstant(const Operation &op, TextPrinter &p, unsigned) {
  Attribute v = op.attr("value");
  if (!plain(op) || op.numOperands() || op.numResults() != 1 || !v ||
      !TextPrinter::onlyAttrs(op, {"value"}))
    return false;
  Type r = op.result(0).type();
  switch (v.kind()) {
  case AttrKind::Bool:
    if (!r.isBool())
      return false;
    break;
  case AttrKind::Integer:
  case AttrKind::Float:
  case AttrKind::Dense:
    // A dense value of MLIR's builtin tensor type names the result type after it.
    if (v.type() != r && !v.type().is(TypeKind::Tensor))
      return false;
    break;
  case AttrKind::Array:
    if (!r.is(TypeKind::Array))
      return false;
    break;
  default:
    return false;
  }
  p.out() += ' ';
  p.attribute(v);
  if (v.is(AttrKind::Array) || (v.is(AttrKind::Dense) && v.type().is(TypeKind::Tensor))) {
    p.out() += " : ";
    p.type(r);
  }
  return true;
}

Operation *parseConstant(const OpInfo &info, TextParser &p, size_t) {
  OperationState st(&info);
  size_t at = p.position();
  Attribute v = p.attribute();
  if (!v)
    return nullptr;
  Type r;
  switch (v.kind()) {
  case AttrKind::Bool:
    r = p.context().boolean();
    break;
  case AttrKind::Integer:
  case AttrKind::Float:
  case AttrKind::Dense:
    r = v.type();
    // `dense<[1, 2]> : tensor<2xi8> : !spirv.array<2 x i8>`: the result type after the value's.
    if (r.is(TypeKind::Tensor) && (!p.expect(':') || !(r = p.type())))
      return nullptr;
    break;
  case AttrKind::Array:
    if (!p.expect(':') || !(r = p.type()))
      return nullptr;
    break;
  default:
    // Another attribute (`unit : none`): the verifier says it is no constant, as MLIR's does.
    if (!p.accept(':')) {
      p.failAt(at, "expected a constant value");
      return nullptr;
    }
    if (!(r = p.type()))
      return nullptr;
  }
  p.addAttr(st, "value", v);
  st.resultTypes.push_back(r);
  return p.finish(st);
}

} // namespace spire::dialect::syntax
