// The checks of the dialect's own ops beyond the grammar's shape and the type rules: the
// attributes each one needs, with their kinds, and the shapes of their regions. Attached to the
// ops' records (OpInfo::verify).
#include "OpOverlay.h"

#include "spire/dialect/IR.h"

#include <string>

namespace spire::dialect {

namespace {

/// One op being checked; `problem` holds the first thing wrong.
struct Check {
  const Operation &op;
  std::string problem;

  bool fail(std::string message) {
    problem = std::move(message);
    return false;
  }
  bool need(std::string_view name, AttrKind kind) {
    Attribute a = op.attr(name);
    if (!a)
      return fail("needs the attribute " + std::string(name));
    if (!a.is(kind))
      return fail("attribute " + std::string(name) + " has the wrong kind");
    return true;
  }
  bool optional(std::string_view name, AttrKind kind) {
    Attribute a = op.attr(name);
    return !a || a.is(kind) || fail("attribute " + std::string(name) + " has the wrong kind");
  }
  bool present(std::string_view name) {
    return op.attr(name) || fail("needs the attribute " + std::string(name));
  }
};

using Rule = bool (*)(Check &);

bool module(Check &c) {
  return c.need("addressing_model", AttrKind::Enum) && c.need("memory_model", AttrKind::Enum) &&
         c.optional("vce_triple", AttrKind::Vce) &&
         (c.op.region().size() == 1 || c.fail("must hold one block"));
}

bool isPhysicalPointer(Type t) {
  return t.is(TypeKind::Pointer) &&
         t.storageClass() == uint32_t(grammar::StorageClass::PhysicalStorageBuffer);
}

/// An argument's attributes (a dictionary, or null): a pointer into PhysicalStorageBuffer is
/// decorated Aliased or Restrict, another pointer to one AliasedPointer or RestrictPointer, as
/// MLIR requires; then every name is a dialect's (has a '.').
bool argumentAttributes(Check &c, Type arg, Attribute attrs) {
  Attribute d = attrs.is(AttrKind::Dictionary) ? attrs.lookup("spirv.decoration") : Attribute();
  auto decoratedAs = [&](grammar::Decoration a, grammar::Decoration b) {
    return d.is(AttrKind::Enum) && d.enumKind() == grammar::OperandKind::Decoration &&
           (d.enumValue() == uint32_t(a) || d.enumValue() == uint32_t(b));
  };
  using grammar::Decoration;
  if (isPhysicalPointer(arg) && !decoratedAs(Decoration::Aliased, Decoration::Restrict))
    return c.fail("with physical buffer pointer must be decorated either 'Aliased' or 'Restrict'");
  if (!isPhysicalPointer(arg) && arg.is(TypeKind::Pointer) &&
      isPhysicalPointer(arg.elementType()) &&
      !decoratedAs(Decoration::AliasedPointer, Decoration::RestrictPointer))
    return c.fail("with a pointer points to a physical buffer pointer must be decorated either "
                  "'AliasedPointer' or 'RestrictPointer'");
  if (attrs.is(AttrKind::Dictionary))
    for (const NamedAttribute &n : attrs.entries())
      if (n.name.find('.') == std::string_view::npos)
        return c.fail("arguments may only have dialect attributes");
  return true;
}

bool func(Check &c) {
  if (!c.need("sym_name", AttrKind::String) || !c.need("function_type", AttrKind::Type) ||
      !c.optional("function_control", AttrKind::Enum) ||
      !c.optional("arg_attrs", AttrKind::Array) ||
      !c.optional("linkage_attributes", AttrKind::LinkageAttributes))
    return false;
  Type type = c.op.attr("function_type").type();
  if (!type.is(TypeKind::Function))
    return c.fail("function_type is not a function type");
  if (!c.op.region().empty() && c.op.region().front()->numArguments() != type.inputs().size())
    return c.fail("entry block arguments and function type parameters differ in number");
  Attribute argAttrs = c.op.attr("arg_attrs");
  for (size_t i = 0; i < type.inputs().size(); ++i)
    if (!argumentAttributes(c, type.inputs()[i],
                            argAttrs && i < argAttrs.elements().size() ? argAttrs.elements()[i]
                                                                       : Attribute()))
      return false;
  // A declaration in a spirv.module is an imported function.
  Attribute linkage = c.op.attr("linkage_attributes");
  const Operation *parent = c.op.parentOp();
  if (c.op.region().empty() && parent && &parent->info() == &ops::module() &&
      !(linkage && linkage.enumValue() == uint32_t(grammar::LinkageType::Import)))
    return c.fail(std::string(1, detail::kWholeMessage) +
                  "'spirv.module' cannot contain external functions without 'Import' "
                  "linkage_attributes (LinkageAttributes)");
  return true;
}

/// builtin.module: one block of ops; func.func: a function of any signature (MLIR's func
/// dialect), its body's entry block taking the parameters.
bool builtinModule(Check &c) {
  return c.optional("sym_name", AttrKind::String) &&
         (c.op.region().size() == 1 || c.fail("must hold one block"));
}

bool funcFunc(Check &c) {
  if (!c.need("sym_name", AttrKind::String) || !c.need("function_type", AttrKind::Type) ||
      !c.optional("sym_visibility", AttrKind::String) || !c.optional("arg_attrs", AttrKind::Array))
    return false;
  Type type = c.op.attr("function_type").type();
  if (!type.is(TypeKind::Function))
    return c.fail("function_type is not a function type");
  if (c.op.region().empty())
    return c.op.attr("sym_visibility") ||
           c.fail("symbol declaration cannot have public visibility");
  const Block *entry = c.op.region().front();
  if (entry->numArguments() != type.inputs().size())
    return c.fail("entry block must have " + std::to_string(type.inputs().size()) +
                  " arguments to match function signature");
  for (uint32_t i = 0; i < entry->numArguments(); ++i)
    if (entry->argument(i).type() != type.inputs()[i])
      return c.fail("type of entry block argument #" + std::to_string(i) +
                    " does not match the function signature");
  return true;
}

bool globalVariable(Check &c) {
  return c.need("sym_name", AttrKind::String) && c.need("type", AttrKind::Type) &&
         c.optional("linkage_attributes", AttrKind::LinkageAttributes) &&
         (c.op.attr("type").type().is(TypeKind::Pointer) || c.fail("type is not a pointer type"));
}

bool specConstant(Check &c) {
  return c.need("sym_name", AttrKind::String) && c.present("default_value");
}

bool specConstantComposite(Check &c) {
  return c.need("sym_name", AttrKind::String) && c.need("type", AttrKind::Type) &&
         c.need("constituents", AttrKind::Array);
}

bool entryPoint(Check &c) {
  return c.need("execution_model", AttrKind::Enum) && c.need("fn", AttrKind::SymbolRef) &&
         c.optional("interface", AttrKind::Array) && c.optional("name", AttrKind::String);
}

bool executionMode(Check &c) {
  return c.need("fn", AttrKind::SymbolRef) && c.need("execution_mode", AttrKind::Enum) &&
         c.optional("values", AttrKind::Array);
}

bool addressOf(Check &c) { return c.need("variable", AttrKind::SymbolRef); }
bool referenceOf(Check &c) { return c.need("spec_const", AttrKind::SymbolRef); }
bool functionCall(Check &c) { return c.need("callee", AttrKind::SymbolRef); }
bool constant(Check &c) { return c.present("value"); }

/// spirv.mlir.selection and spirv.mlir.loop: the region ends with a block holding only
/// spirv.mlir.merge, which yields the construct's results.
bool construct(Check &c, std::string_view control, size_t leastBlocks) {
  if (!c.optional(control, AttrKind::Enum))
    return false;
  const Region &r = c.op.region();
  size_t n = r.size();
  if (n < leastBlocks)
    return c.fail("region has " + std::to_string(n) + " blocks, too few");
  const Block *last = r.back();
  if (last->front() != last->back() || &last->front()->info() != &ops::merge())
    return c.fail("the last block of the region must hold only spirv.mlir.merge");
  const Operation &merge = *last->front();
  if (merge.numOperands() != c.op.numResults())
    return c.fail("spirv.mlir.merge yields " + std::to_string(merge.numOperands()) +
                  " values for " + std::to_string(c.op.numResults()) + " results");
  for (uint32_t i = 0; i < c.op.numResults(); ++i)
    if (merge.operand(i).type() != c.op.result(i).type())
      return c.fail("result " + std::to_string(i) + " and the merged value differ in type");
  return true;
}
bool selection(Check &c) { return construct(c, "selection_control", 2); }
bool loop(Check &c) { return construct(c, "loop_control", 3); }

bool merge(Check &c) {
  const Operation *parent = c.op.parentOp();
  return (parent && (&parent->info() == &ops::selection() || &parent->info() == &ops::loop())) ||
         c.fail("outside a spirv.mlir.selection or spirv.mlir.loop");
}

/// spirv.SpecConstantOperationSymbol: one block that ends with spirv.mlir.yield of one value
/// computed in it.
bool specConstantOperationSymbol(Check &c) {
  if (!c.need("sym_name", AttrKind::String))
    return false;
  if (c.op.numRegions() != 1 || c.op.region().size() != 1)
    return c.fail("must have one region of one block");
  const Region &r = c.op.region();
  const Operation *y = r.front()->back();
  if (!y || &y->info() != &ops::yield() || y->numOperands() != 1)
    return c.fail("region must end with spirv.mlir.yield of one value");
  const Operation *def = y->operand(0).definingOp();
  if (!def || def->block() != r.front())
    return c.fail("must yield a value its region computes");
  return true;
}

bool extInst(Check &c) {
  return c.need("set", AttrKind::String) && c.need("instruction", AttrKind::Integer) &&
         (c.op.numResults() == 1 || c.fail("needs one result"));
}

template <Rule rule> std::string run(const Operation &op) {
  Check c{op, {}};
  rule(c);
  return std::move(c.problem);
}

} // namespace

namespace detail {

void attachVerifiers(const OpRecords &records) {
  using D = DialectOp;
  const std::pair<OpKey, std::string (*)(const Operation &)> hooks[] = {
      {D::Module, run<module>},
      {D::Func, run<func>},
      {D::GlobalVariable, run<globalVariable>},
      {D::SpecConstant, run<specConstant>},
      {D::SpecConstantComposite, run<specConstantComposite>},
      {D::EntryPoint, run<entryPoint>},
      {D::ExecutionMode, run<executionMode>},
      {D::AddressOf, run<addressOf>},
      {D::ReferenceOf, run<referenceOf>},
      {grammar::Op::FunctionCall, run<functionCall>},
      {D::Constant, run<constant>},
      {D::Selection, run<selection>},
      {D::Loop, run<loop>},
      {D::Merge, run<merge>},
      {D::SpecConstantOperationSymbol, run<specConstantOperationSymbol>},
      {D::ExtInst, run<extInst>},
      {D::BuiltinModule, run<builtinModule>},
      {D::FuncFunc, run<funcFunc>},
  };
  for (auto [key, hook] : hooks)
    if (OpInfo *info = records.find(key))
      info->verify = hook;
}

} // namespace detail

} // namespace spire::dialect
