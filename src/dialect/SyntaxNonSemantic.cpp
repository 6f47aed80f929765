// The instructions of non-semantic and debug-information sets (spirv.spire.NonSemanticGlobal at
// module level, spirv.spire.NonSemantic in functions): their custom syntax, the set's name and
// the instruction's (from the set's grammar, else its number), then the operands in order,
// attributes and SSA values mixed as the instruction has them:
//   spirv.spire.NonSemanticGlobal @dbg_8 "NonSemantic.Shader.DebugInfo.100"
//       DebugTypeBasic("uint", 32 : i32, 6 : i32, 0 : i32)
//   spirv.spire.NonSemantic "NonSemantic.Shader.DebugInfo.100" DebugDeclare(@dbg_56, %2,
//       @dbg_40) : (!spirv.ptr<i32, Function>) -> ()
// and what the verifier checks of them.
#include "OpOverlay.h"
#include "OpSyntax.h"
#include "TextParser.h"
#include "TextPrinter.h"

#include "AsmText.h"

#include <cstdint>
#include <string>

namespace spire::dialect {

namespace {

/// The SSA operands `operands` places (its `unit` entries).
size_t valuePlaces(Attribute operands) {
  size_t n = 0;
  for (Attribute a : operands.elements())
    n += a.is(AttrKind::Unit);
  return n;
}

/// What both ops hold: `set`, `instruction`, `operands` (with `values` unit entries); empty
/// when it is so.
std::string shape(const Operation &op, size_t values) {
  Attribute set = op.attr("set"), number = op.attr("instruction"), list = op.attr("operands");
  if (!set || !set.is(AttrKind::String))
    return "requires a string attribute 'set' (the instruction set's import name)";
  if (!syntax::isInt(number, 32))
    return "requires an i32 attribute 'instruction' (the instruction's number)";
  if (!list || !list.is(AttrKind::Array))
    return "requires an array attribute 'operands'";
  if (valuePlaces(list) != values)
    return "has " + std::to_string(values) + " SSA operands but 'operands' places " +
           std::to_string(valuePlaces(list));
  if (op.numRegions() || !op.successors().empty())
    return "has no regions and no successors";
  return {};
}

} // namespace

namespace syntax {

namespace {

/// ` "Set" Name(a, %v, ...)`.
bool printInstruction(const Operation &op, TextPrinter &p) {
  Attribute set = op.attr("set"), number = op.attr("instruction"), list = op.attr("operands");
  if (!shape(op, op.numOperands()).empty())
    return false;
  std::string &out = p.out();
  out += ' ';
  printString(set.str(), out);
  out += ' ';
  const uint32_t n = static_cast<uint32_t>(number.bits());
  const grammar::ExtInstDesc *inst = nullptr;
  if (const grammar::ExtInstSetDesc *desc = grammar::findExtInstSet(set.str()))
    inst = grammar::findExtInst(*desc, n);
  out += inst ? std::string(inst->name) : std::to_string(n);
  out += '(';
  uint32_t next = 0;
  bool first = true;
  for (Attribute a : list.elements()) {
    out += first ? "" : ", ";
    first = false;
    if (a.is(AttrKind::Unit))
      p.use(op.operand(next++));
    else
      print(a, out, p.version());
  }
  out += ')';
  p.attrDict(op, {"set", "instruction", "operands", "sym_name"});
  return true;
}

/// What follows the op's name and symbol: the set, the instruction and the operands (uses
/// in `uses`, their places `unit` in `operands`).
bool parseInstruction(TextParser &p, OperationState &st, std::vector<Use> &uses) {
  Context &ctx = p.context();
  std::string set;
  if (p.peek() != '"')
    return p.fail("expected the instruction set's name");
  if (!p.string(set))
    return false;
  const size_t at = p.position();
  uint32_t number = 0;
  if (lexing::isDigit(p.peek())) {
    std::optional<int64_t> n = p.integer();
    if (!n || *n < 0 || *n > INT32_MAX)
      return p.failAt(at, "expected an instruction number");
    number = static_cast<uint32_t>(*n);
  } else {
    std::string_view name = p.identifier();
    const grammar::ExtInstSetDesc *desc = grammar::findExtInstSet(set);
    const grammar::ExtInstDesc *inst = desc ? grammar::findExtInst(*desc, name) : nullptr;
    if (!inst)
      return p.failAt(at, "'" + std::string(name) + "' is no instruction of '" + set +
                              "' (an instruction of a set spire has no grammar of is its number)");
    number = inst->opcode;
  }
  std::vector<Attribute> operands;
  if (!p.expect('(') || !p.listUntil(')', [&] {
        if (p.peek() == '%') {
          Use u;
          if (!p.use(u))
            return false;
          uses.push_back(u);
          operands.push_back(attr::unit(ctx));
          return true;
        }
        Attribute a = p.attribute();
        if (!a)
          return false;
        if (a.is(AttrKind::Unit))
          return p.fail("an operand is an attribute or an SSA value, not 'unit'");
        operands.push_back(a);
        return true;
      }))
    return false;
  p.addAttr(st, "set", attr::string(ctx, set));
  p.addAttr(st, "instruction", attr::integer(ctx, ctx.integer(32), static_cast<int32_t>(number)));
  p.addAttr(st, "operands", attr::array(ctx, operands));
  return p.optionalAttrDict(st);
}

} // namespace

bool printNonSemanticGlobal(const Operation &op, TextPrinter &p, unsigned) {
  Attribute sym = op.attr("sym_name");
  if (!sym || !sym.is(AttrKind::String) || op.numResults())
    return false;
  p.out() += ' ';
  printSymbol(sym.str(), p.out());
  return printInstruction(op, p);
}

Operation *parseNonSemanticGlobal(const OpInfo &info, TextParser &p, size_t) {
  OperationState st(&info);
  std::vector<Use> uses;
  if (!p.symbolName(st) || !parseInstruction(p, st, uses))
    return nullptr;
  if (!uses.empty()) {
    p.failAt(uses.front().pos, "a module-level instruction has no SSA operands");
    return nullptr;
  }
  return p.finish(st);
}

bool printNonSemantic(const Operation &op, TextPrinter &p, unsigned) {
  if (op.numResults() > 1 || !printInstruction(op, p))
    return false;
  if (op.numOperands() || op.numResults())
    p.functionalType(op, op.numOperands());
  return true;
}

Operation *parseNonSemantic(const OpInfo &info, TextParser &p, size_t) {
  OperationState st(&info);
  std::vector<Use> uses;
  if (!parseInstruction(p, st, uses))
    return nullptr;
  if (p.accept(':')) {
    const size_t at = p.offset();
    Type fn = p.type();
    if (!fn)
      return nullptr;
    if (!fn.is(TypeKind::Function) || fn.inputs().size() != uses.size() ||
        fn.results().size() > 1) {
      p.failAt(at, "expected the function type of the SSA operands (and a result)");
      return nullptr;
    }
    if (!p.resolveEach(uses, fn.inputs(), st.operands))
      return nullptr;
    st.resultTypes.assign(fn.results().begin(), fn.results().end());
  } else if (!uses.empty()) {
    p.fail("expected ':' and the types of the SSA operands");
    return nullptr;
  }
  return p.finish(st);
}

} // namespace syntax

namespace detail {

std::string verifyNonSemanticGlobal(const Operation &op) {
  if (std::string s = shape(op, 0); !s.empty())
    return s;
  Attribute sym = op.attr("sym_name");
  if (!sym || !sym.is(AttrKind::String))
    return "requires a string attribute 'sym_name'";
  if (op.numOperands() || op.numResults())
    return "has no operands and no results (it is a symbol)";
  const Operation *parent = op.parentOp();
  if (!parent || !ops::isSymbolTable(parent->info()))
    return "expects a module as its parent";
  return {};
}

std::string verifyNonSemantic(const Operation &op) {
  if (std::string s = shape(op, op.numOperands()); !s.empty())
    return s;
  if (op.numResults() > 1 || (op.numResults() == 1 && !op.result().type().is(TypeKind::None)))
    return "has at most one result, of type none (OpTypeVoid)";
  return {};
}

} // namespace detail

} // namespace spire::dialect
