// The checks of the dialect's own ops beyond the grammar's shape and the type rules: the
// attributes each one needs, with their kinds, and the shapes of their regions. Attached to the
// ops' records (OpInfo::verify).
#include "OpOverlay.h"

#include "spire/dialect/IR.h"

#include <bit>
#include <initializer_list>
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

/// MLIR's InModuleScope: directly in a spirv.module or builtin.module (or at the top).
bool inModuleScope(Check &c) {
  const Operation *parent = c.op.parentOp();
  return !parent || ops::isSymbolTable(parent->info()) ||
         c.fail("must appear in a module-like op's block");
}

bool module(Check &c) {
  return c.need("addressing_model", AttrKind::Enum) && c.need("memory_model", AttrKind::Enum) &&
         c.optional("vce_triple", AttrKind::Vce) &&
         (c.op.region().size() <= 1 || c.fail("expects region #0 to have 0 or 1 blocks")) &&
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
  if (!inModuleScope(c) || !c.need("sym_name", AttrKind::String) ||
      !c.need("function_type", AttrKind::Type) || !c.optional("function_control", AttrKind::Enum) ||
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

/// gpu.module: a symbol holding one block of ops, with an optional array of target attributes.
bool gpuModule(Check &c) {
  return c.need("sym_name", AttrKind::String) && c.optional("targets", AttrKind::Array) &&
         (c.op.region().size() == 1 || c.fail("must hold one block"));
}

/// arith.constant: a scalar or dense value of its result's type.
bool arithConstant(Check &c) {
  if (!c.present("value"))
    return false;
  Attribute v = c.op.attr("value");
  if (c.op.numResults() != 1)
    return c.fail("needs one result");
  Type r = c.op.result().type();
  bool fits = v.is(AttrKind::Bool)
                  ? r.isBool()
                  : (v.is(AttrKind::Integer) || v.is(AttrKind::Float) || v.is(AttrKind::Dense)) &&
                        v.type() == r;
  return fits || c.fail("value must match the result type");
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
  return inModuleScope(c) && c.need("sym_name", AttrKind::String) &&
         c.need("type", AttrKind::Type) &&
         c.optional("linkage_attributes", AttrKind::LinkageAttributes) &&
         (c.op.attr("type").type().is(TypeKind::Pointer) ||
          c.fail("result must be of a !spv.ptr type"));
}

/// MLIR's checks: a SpecId not negative, a default value a bool, integer or float scalar, an
/// integer one of 1, 8, 16, 32 or 64 bits.
bool specConstant(Check &c) {
  if (!inModuleScope(c) || !c.need("sym_name", AttrKind::String) || !c.present("default_value"))
    return false;
  if (Attribute id = c.op.attr("spec_id"); id && id.is(AttrKind::Integer) && id.intValue() < 0)
    return c.fail("SpecId cannot be negative");
  Attribute v = c.op.attr("default_value");
  if (!v.is(AttrKind::Bool) && !v.is(AttrKind::Integer) && !v.is(AttrKind::Float))
    return c.fail("default value can only be a bool, integer, or float scalar");
  if (v.is(AttrKind::Integer) && v.type()) {
    unsigned w = v.type().width();
    if (w != 1 && w != 8 && w != 16 && w != 32 && w != 64)
      return c.fail("default value bitwidth disallowed");
  }
  return true;
}

bool specConstantComposite(Check &c) {
  return inModuleScope(c) && c.need("sym_name", AttrKind::String) &&
         c.need("type", AttrKind::Type) && c.need("constituents", AttrKind::Array);
}

/// In a module, the function an entry point names is a spirv.func of it, and no entry point
/// before it names the same function and execution model (MLIR's module checks, at the entry
/// point, in its words).
bool entryPoint(Check &c) {
  if (!inModuleScope(c) || !c.need("execution_model", AttrKind::Enum) ||
      !c.need("fn", AttrKind::SymbolRef) || !c.optional("interface", AttrKind::Array) ||
      !c.optional("name", AttrKind::String))
    return false;
  const Operation *parent = c.op.parentOp();
  if (!parent || &parent->info() != &ops::module())
    return true;
  std::string_view fn = c.op.attr("fn").str();
  uint32_t model = c.op.attr("execution_model").enumValue();
  bool found = false;
  for (const Operation *x : *c.op.block()) {
    if (x == &c.op)
      continue;
    Attribute name = x->attr("sym_name");
    found |= &x->info() == &ops::func() && name.is(AttrKind::String) && name.str() == fn;
  }
  if (!found)
    return c.fail(std::string(1, detail::kWholeMessage) + "function '" + std::string(fn) +
                  "' not found in 'spirv.module'");
  for (const Operation *x = c.op.prev(); x; x = x->prev())
    if (&x->info() == &c.op.info() && x->attr("fn").is(AttrKind::SymbolRef) &&
        x->attr("fn").str() == fn && x->attr("execution_model").is(AttrKind::Enum) &&
        x->attr("execution_model").enumValue() == model)
      return c.fail(std::string(1, detail::kWholeMessage) + "duplicate of a previous EntryPointOp");
  return true;
}

bool executionMode(Check &c) {
  return inModuleScope(c) && c.need("fn", AttrKind::SymbolRef) &&
         c.need("execution_mode", AttrKind::Enum) && c.optional("values", AttrKind::Array);
}

bool addressOf(Check &c) { return c.need("variable", AttrKind::SymbolRef); }
bool referenceOf(Check &c) { return c.need("spec_const", AttrKind::SymbolRef); }
bool functionCall(Check &c) { return c.need("callee", AttrKind::SymbolRef); }
/// spirv.Constant: a value a constant can hold (MLIR's wording for another attribute).
bool constant(Check &c) {
  if (!c.present("value"))
    return false;
  Attribute v = c.op.attr("value");
  switch (v.kind()) {
  case AttrKind::Bool:
  case AttrKind::Integer:
  case AttrKind::Float:
  case AttrKind::Dense:
  case AttrKind::Array:
  case AttrKind::Undef:
  case AttrKind::Null:
    return true;
  default:
    return c.fail("cannot have attribute: " + toString(v));
  }
}

/// The atomics and barriers, as MLIR checks them before their type rules: at most one ordering
/// bit in each memory semantics; and the atomics' named values of the pointer's pointee type
/// (`result`, then `value`, then `comparator`, as each op's traits list them). Only with the
/// scope and semantics as attributes: given as operands (OpenCL kernels), they shift the
/// operands.
bool atomicSemantics(Check &c) {
  constexpr uint32_t kOrdering = 0x2 | 0x4 | 0x8 | 0x10; // Acquire ... SequentiallyConsistent
  for (std::string_view name :
       {"semantics", "equal_semantics", "unequal_semantics", "memory_semantics"}) {
    Attribute a = c.op.attr(name);
    if (a && a.is(AttrKind::Enum) && std::popcount(a.enumValue() & kOrdering) > 1)
      return c.fail("expected at most one of these four memory constraints to be set: "
                    "`Acquire`, `Release`,`AcquireRelease` or `SequentiallyConsistent`");
  }
  return true;
}
bool atomicValues(Check &c, std::initializer_list<std::pair<std::string_view, int>> named) {
  if (!atomicSemantics(c))
    return false;
  for (std::string_view name :
       {"memory_scope", "semantics", "equal_semantics", "unequal_semantics"})
    if (Attribute a = c.op.attr(name); a && !a.is(AttrKind::Enum))
      return true;
  if (c.op.numOperands() == 0)
    return true;
  Type ptr = c.op.operand(0).type();
  if (!ptr.is(TypeKind::Pointer))
    return true;
  for (auto [name, operand] : named) {
    Type t = operand < 0
                 ? (c.op.numResults() ? c.op.result().type() : Type())
                 : (uint32_t(operand) < c.op.numOperands() ? c.op.operand(operand).type() : Type());
    if (t && t != ptr.elementType())
      return c.fail("failed to verify that `" + std::string(name) +
                    "` type matches pointee type of `pointer`");
  }
  return true;
}
bool atomicUpdate(Check &c) { return atomicValues(c, {{"value", 1}}); }
bool atomicResult(Check &c) { return atomicValues(c, {{"result", -1}}); }
bool atomicCompare(Check &c) {
  return atomicValues(c, {{"result", -1}, {"value", 1}, {"comparator", 2}});
}

/// As many successors as the op's trait says, in MLIR's words.
bool successors(Check &c, size_t n) {
  size_t got = c.op.successors().size();
  return got == n || c.fail("requires " + std::to_string(n) + " successor" + (n == 1 ? "" : "s") +
                            " but found " + std::to_string(got));
}
bool branch(Check &c) { return successors(c, 1); }

/// Two successors; branch weights, when given, are two and not both zero.
bool branchConditional(Check &c) {
  if (!successors(c, 2))
    return false;
  Attribute w = c.op.attr("branch_weights");
  if (!w || !w.is(AttrKind::Array))
    return true;
  if (w.elements().size() != 2)
    return c.fail("must have exactly two branch weights");
  bool allZero = true;
  for (Attribute e : w.elements())
    allZero &= e.is(AttrKind::Integer) && e.intValue() == 0;
  return !allZero || c.fail("branch weights cannot both be zero");
}

/// Not alone in the entry block of its region, which is reachable. MLIR rejects it anywhere in
/// an entry block; spire keeps accepting one after a construct whose merge block nothing
/// reaches, as valid modules deserialize (a function ending in a selection that returns on
/// every path).
bool unreachable(Check &c) {
  const Block *b = c.op.block();
  return !b || !b->parent() || b->parent()->front() != b || b->front() != &c.op ||
         c.fail("cannot be used in reachable block");
}

/// The block holds spirv.mlir.merge alone.
bool isMergeBlock(const Block &b) {
  return b.front() && b.front() == b.back() && &b.front()->info() == &ops::merge();
}

/// Whether `from` ends with a branch (any successor) to `to`.
bool branchesTo(const Block &from, const Block *to) {
  const Operation *term = from.back();
  if (!term)
    return false;
  for (const Successor &s : term->successors())
    if (s.block == to)
      return true;
  return false;
}

/// spirv.mlir.selection and spirv.mlir.loop, in MLIR's order and words: an empty region, or one
/// whose last block holds only spirv.mlir.merge, which yields the construct's results; a
/// selection has a header block before it; a loop an entry block that only branches to the
/// header, the second block, and a continue block (the second to last, unless continue_block
/// names another) that branches back to the header, which no other block branches to.
bool construct(Check &c, std::string_view control, bool loop) {
  if (!c.optional(control, AttrKind::Enum))
    return false;
  const Region &r = c.op.region();
  if (r.empty())
    return true;
  const Block *last = r.back();
  if (!isMergeBlock(*last))
    return c.fail("last block must be the merge block with only one 'spirv.mlir.merge' op");
  size_t n = r.size();
  if (!loop && n < 2)
    return c.fail("must have a selection header block");
  if (loop) {
    if (n < 2)
      return c.fail("must have an entry block branching to the loop header block");
    if (n < 3)
      return c.fail("must have a loop header block branched from the entry block");
    const Block *entry = r.front();
    const Block *header = entry->next();
    const Operation *enter = entry->back();
    // (spire lets ops such as constants come before the branch: they run before the loop.)
    if (!enter || &enter->info() != &ops::branch() || enter->successors()[0].block != header)
      return c.fail("entry block must only have one 'spirv.Branch' op to the second block");
    // (A header that is its own continue block, branching back to itself, stands for both.)
    if (n < 4 && !branchesTo(*header, header))
      return c.fail("requires a loop continue block branching to the loop header block");
    if (!c.op.attr("continue_block")) {
      const Block *cont = last->prev();
      if (!branchesTo(*cont, header))
        return c.fail("second to last block must be the loop continue block that branches to "
                      "the loop header block");
      for (const Block *b = header->next(); b && b != cont; b = b->next())
        if (branchesTo(*b, header))
          return c.fail("can only have the entry and loop continue block branching to the loop "
                        "header block");
    }
  }
  const Operation &merge = *last->front();
  if (merge.numOperands() != c.op.numResults())
    return c.fail("spirv.mlir.merge yields " + std::to_string(merge.numOperands()) +
                  " values for " + std::to_string(c.op.numResults()) + " results");
  for (uint32_t i = 0; i < c.op.numResults(); ++i)
    if (merge.operand(i).type() != c.op.result(i).type())
      return c.fail("result " + std::to_string(i) + " and the merged value differ in type");
  return true;
}
bool selection(Check &c) { return construct(c, "selection_control", false); }
bool loop(Check &c) { return construct(c, "loop_control", true); }

bool merge(Check &c) {
  const Operation *parent = c.op.parentOp();
  if (!parent || (&parent->info() != &ops::selection() && &parent->info() != &ops::loop()))
    return c.fail("expected parent op to be 'spirv.mlir.selection' or 'spirv.mlir.loop'");
  return &c.op == parent->region().back()->back() ||
         c.fail("can only be used in the last block of 'spirv.mlir.selection' or "
                "'spirv.mlir.loop'");
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

/// spirv.SpecConstantOperation: one block holding an operation that OpSpecConstantOp may take
/// (3.32.7) on constants, then spirv.mlir.yield of its result, as MLIR's verifier words it.
bool specConstantOperation(Check &c) {
  if (c.op.numRegions() != 1 || c.op.region().size() != 1)
    return c.fail("must have one region of one block");
  const Block &b = *c.op.region().front();
  const Operation *enclosed = b.front();
  if (!enclosed || enclosed->next() != b.back())
    return c.fail("expected exactly 2 nested ops");
  const OpKey key = enclosed->info().key;
  if (key.space() != OpSpace::Core ||
      grammar::specConstantOperation(key.number()) == grammar::SpecConstantOperation::No)
    return c.fail("invalid enclosed op");
  for (uint32_t i = 0; i < enclosed->numOperands(); ++i) {
    const Operation *def = enclosed->operand(i).definingOp();
    const OpInfo *info = def ? &def->info() : nullptr;
    // A global variable's address too: a Kernel's access chain starts at one.
    bool constant =
        info && (info == &ops::constant() || info == &ops::referenceOf() ||
                 info == &ops::addressOf() || info == &ops::specConstantOperation() ||
                 info->key == grammar::Op::ConstantNull || info->key == grammar::Op::Undef);
    if (!constant)
      return c.fail("invalid operand, must be defined by a constant operation");
  }
  return true;
}

/// spirv.mlir.yield ends the region of a specialization constant operation.
bool yield(Check &c) {
  const Operation *parent = c.op.parentOp();
  return (parent && (&parent->info() == &ops::specConstantOperation() ||
                     &parent->info() == &ops::specConstantOperationSymbol())) ||
         c.fail("expects parent op 'spirv.SpecConstantOperation'");
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
      {grammar::Op::Branch, run<branch>},
      {grammar::Op::BranchConditional, run<branchConditional>},
      {grammar::Op::Unreachable, run<unreachable>},
      {grammar::Op::AtomicAnd, run<atomicUpdate>},
      {grammar::Op::AtomicIAdd, run<atomicUpdate>},
      {grammar::Op::AtomicISub, run<atomicUpdate>},
      {grammar::Op::AtomicOr, run<atomicUpdate>},
      {grammar::Op::AtomicXor, run<atomicUpdate>},
      {grammar::Op::AtomicSMax, run<atomicUpdate>},
      {grammar::Op::AtomicSMin, run<atomicUpdate>},
      {grammar::Op::AtomicUMax, run<atomicUpdate>},
      {grammar::Op::AtomicUMin, run<atomicUpdate>},
      {grammar::Op::AtomicExchange, run<atomicUpdate>},
      {grammar::Op::AtomicIIncrement, run<atomicResult>},
      {grammar::Op::AtomicIDecrement, run<atomicResult>},
      {grammar::Op::AtomicFAddEXT, run<atomicResult>},
      {grammar::Op::AtomicCompareExchange, run<atomicCompare>},
      {grammar::Op::AtomicCompareExchangeWeak, run<atomicCompare>},
      {grammar::Op::ControlBarrier, run<atomicSemantics>},
      {grammar::Op::MemoryBarrier, run<atomicSemantics>},
      {grammar::Op::MemoryNamedBarrier, run<atomicSemantics>},
      {D::Constant, run<constant>},
      {D::Selection, run<selection>},
      {D::Loop, run<loop>},
      {D::Merge, run<merge>},
      {D::SpecConstantOperationSymbol, run<specConstantOperationSymbol>},
      {D::SpecConstantOperation, run<specConstantOperation>},
      {D::Yield, run<yield>},
      {D::ExtInst, run<extInst>},
      {D::BuiltinModule, run<builtinModule>},
      {D::FuncFunc, run<funcFunc>},
      {D::GpuModule, run<gpuModule>},
      {D::Graph, verifyGraph},
      {D::GraphOutputs, verifyGraphOutputs},
      {D::GraphEntryPoint, verifyGraphEntryPoint},
      {grammar::Op::GraphConstantARM, verifyGraphConstant},
      {D::ExperimentalMlCall, verifyExperimentalMlCall},
      {D::ArithConstant, run<arithConstant>},
      {D::NonSemanticGlobal, verifyNonSemanticGlobal},
      {D::NonSemantic, verifyNonSemantic},
  };
  for (auto [key, hook] : hooks)
    if (OpInfo *info = records.find(key))
      info->verify = hook;
}

} // namespace detail

} // namespace spire::dialect
