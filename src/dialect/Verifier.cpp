#include "spire/dialect/Verifier.h"

#include "spire/dialect/Dominance.h"

#include "spire/dialect/Ops.h"

#include "OpOverlay.h"
#include "VerifierTypes.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace spire::dialect {

namespace {

class Verifier {
public:
  explicit Verifier(MlirVersion messages) : messages_(messages) {}

  Status run(const Operation &top) {
    if (!check(top) || !symbolsResolve(top))
      return makeError(where_, message_);
    return {};
  }

private:
  bool fail(const Operation &op, std::string message) {
    where_ = op.location();
    // As MLIR words it, so that its tests' expected-error annotations match.
    if (!message.empty() && message[0] == detail::kWholeMessage)
      message_ = message.substr(1);
    else
      message_ = "'" + spelledIn(op.name(), messages_) + "' op " + std::move(message);
    return false;
  }

  /// The op's own shape, then its regions'. Whether operands are defined where they are used
  /// is verifyDominance's to say, once the structure holds.
  bool check(const Operation &op) {
    for (uint32_t i = 0; i < op.numOperands(); ++i)
      if (!op.operand(i))
        return fail(op, "operand " + std::to_string(i) + " is null");
    const Region *here = op.block() ? op.block()->parent() : nullptr;
    for (uint32_t s = 0; s < op.successors().size(); ++s) {
      const Successor &succ = op.successors()[s];
      if (!succ.block || succ.block->parent() != here)
        return fail(op, "successor " + std::to_string(s) + " is not a block of the same region");
      // Merge instructions kept as ops name blocks without passing control to them.
      if (!(op.info().flags & OpInfo::kTerminator))
        continue;
      if (succ.numOperands != succ.block->numArguments())
        return fail(op, "successor " + std::to_string(s) + " takes " +
                            std::to_string(succ.block->numArguments()) + " arguments, given " +
                            std::to_string(succ.numOperands));
      for (uint32_t a = 0; a < succ.numOperands; ++a)
        if (op.operand(succ.firstOperand + a).type() != succ.block->argument(a).type())
          return fail(op, "argument " + std::to_string(a) + " of successor " + std::to_string(s) +
                              " has the wrong type");
      if (here && succ.block == here->front())
        return fail(op, "branches to the entry block of its region");
    }
    if (!shape(op))
      return false;
    for (uint32_t r = 0; r < op.numRegions(); ++r) {
      const Region &region = op.region(r);
      for (Block *b : region) {
        // The block's ops first: MLIR reports what is wrong with them before a missing
        // terminator.
        for (Operation *child : *b) {
          if (child->next() && (child->info().flags & OpInfo::kTerminator))
            return fail(*child, "terminator in the middle of a block");
          if (!check(*child))
            return false;
        }
        bool needsTerminator = !(op.info().flags & OpInfo::kNoTerminator);
        if (needsTerminator && (b->empty() || !b->terminator()))
          return fail(op, "a block of its region does not end with a terminator");
      }
    }
    return &op.info() != &ops::module() || onlySpirvOps(op);
  }

  /// A spirv.module holds spirv ops only, its functions too (as MLIR's verifier says it, at the
  /// first other op).
  bool onlySpirvOps(const Operation &module) {
    if (module.region().empty())
      return true;
    for (const Operation *op : *module.region().front()) {
      if (!ops::isSpirv(op->info()))
        return fail(*op, std::string(1, detail::kWholeMessage) +
                             "'spirv.module' can only contain spirv.* ops");
      if (&op->info() != &ops::func())
        continue;
      const Operation *other = nullptr;
      walk(const_cast<Operation *>(op), [&](Operation *inner) {
        if (!other && !ops::isSpirv(inner->info()))
          other = inner;
      });
      if (other)
        return fail(*other, std::string(1, detail::kWholeMessage) +
                                "functions in 'spirv.module' can only contain spirv.* ops");
    }
    return true;
  }

  /// The ops derived from the grammar: as many SSA operands as their instruction takes (ids,
  /// and the id parameters of their enumerants), a result exactly when the instruction has one,
  /// and each required attribute present with the kind the instruction's operand needs.
  bool grammarShape(const Operation &op) {
    const OpInfo &info = op.info();
    if ((info.flags & OpInfo::kStructural) || (!info.inst && !info.ext))
      return true;
    bool hasResult = info.inst ? info.inst->hasResult : true;
    bool resultTyped = info.inst ? info.inst->hasResultType : true;
    if (hasResult && resultTyped && op.numResults() != 1)
      return fail(op,
                  "has " + std::to_string(op.numResults()) + " results; its instruction has one");
    if (!hasResult && op.numResults() != 0)
      return fail(op, "has a result; its instruction has none");
    uint32_t least = 0, most = 0;
    bool unbounded = false;
    for (const OperandMapping &m : info.operands) {
      if (m.kind == OperandMapping::Kind::Value) {
        if (m.quantifier == grammar::Quantifier::One)
          ++least, ++most;
        else if (m.quantifier == grammar::Quantifier::Optional)
          ++most;
        else
          unbounded = true;
        continue;
      }
      // Constants held as attributes: the op's own verifier checks them (TOSA's, in MLIR's
      // words).
      if (m.kind == OperandMapping::Kind::Other || m.kind == OperandMapping::Kind::ResultStorage ||
          m.kind == OperandMapping::Kind::Constant)
        continue;
      Attribute a = op.attr(m.name);
      if (!a) {
        if (m.quantifier == grammar::Quantifier::One)
          return fail(op, "needs the attribute " + std::string(m.name));
        continue;
      }
      if (scopeByOperand(m, a)) {
        ++least, ++most;
        continue;
      }
      if (m.kind == OperandMapping::Kind::TypeId) {
        if (!a.is(AttrKind::Type))
          return fail(op, "attribute " + std::string(m.name) + " must be a type");
        continue;
      }
      bool isEnum = m.kind != OperandMapping::Kind::Attribute ||
                    grammar::operandCategory(m.operandKind) == grammar::OperandCategory::BitEnum ||
                    grammar::operandCategory(m.operandKind) == grammar::OperandCategory::ValueEnum;
      auto kindOk = [&](Attribute x) {
        if (isEnum)
          return x.is(AttrKind::Enum);
        if (m.operandKind == grammar::OperandKind::LiteralString)
          return x.is(AttrKind::String);
        return x.is(AttrKind::Integer) || x.is(AttrKind::Float);
      };
      bool ok = a.is(AttrKind::Array) && m.quantifier == grammar::Quantifier::Variadic
                    ? std::all_of(a.elements().begin(), a.elements().end(), kindOk)
                    : kindOk(a);
      // An enumerant in MLIR's words (ODS's attribute constraint).
      if (!ok && isEnum)
        return fail(op,
                    "attribute '" + std::string(m.name) +
                        "' failed to satisfy constraint: valid SPIR-V " +
                        std::string(grammar::operandKindName(
                            m.kind == OperandMapping::Kind::IdEnum ? m.attrKind : m.operandKind)));
      if (!ok)
        return fail(op, "attribute " + std::string(m.name) + " is not a literal of the right kind");
      // Enumerants with id parameters (image operands, memory access scopes) take operands.
      if (a.is(AttrKind::Enum)) {
        auto params = [&](uint32_t value) {
          if (const grammar::EnumerantDesc *e = grammar::findEnumerant(a.enumKind(), value))
            for (const grammar::OperandDesc &p : e->parameters)
              if (grammar::operandCategory(p.kind) == grammar::OperandCategory::Id)
                ++least, ++most;
        };
        if (grammar::operandCategory(a.enumKind()) == grammar::OperandCategory::BitEnum) {
          for (unsigned bit = 0; bit < 32; ++bit)
            if (a.enumValue() & (1u << bit))
              params(1u << bit);
        } else {
          params(a.enumValue());
        }
      }
    }
    // An alignment exactly where a memory access says Aligned (its literal parameter).
    for (const OperandMapping &m : info.operands) {
      if (m.operandKind != grammar::OperandKind::MemoryAccess)
        continue;
      Attribute access = op.attr(m.name);
      std::string_view alignment =
          m.name == "source_memory_access" ? "source_alignment" : "alignment";
      bool aligned = access && access.is(AttrKind::Enum) &&
                     (access.enumValue() & uint32_t(grammar::MemoryAccess::Aligned));
      if (aligned && !op.attr(alignment))
        return fail(op, "missing alignment value");
      if (!aligned && op.attr(alignment))
        return fail(op, "invalid alignment specification with non-aligned memory access "
                        "specification");
    }
    for (std::string_view name : {"alignment", "source_alignment"})
      if (Attribute a = op.attr(name); a && a.is(AttrKind::Integer)) {
        int64_t v = a.intValue();
        if (v <= 0 || (v & (v - 1)) != 0)
          return fail(op, "attribute '" + std::string(name) +
                              "' failed to satisfy constraint: 32-bit signless integer attribute "
                              "whose value is positive and whose value is a power of two > 0");
      }
    uint32_t n = op.numOrdinaryOperands();
    if (n < least || (!unbounded && n > most))
      return fail(op,
                  "has " + std::to_string(n) + " operands; its instruction takes " +
                      (unbounded       ? "at least " + std::to_string(least)
                       : least == most ? std::to_string(least)
                                       : std::to_string(least) + " to " + std::to_string(most)));
    return true;
  }

  /// A scope or memory semantics that is not a constant is an operand at its place; its
  /// attribute is a unit attribute.
  static bool scopeByOperand(const OperandMapping &m, Attribute a) {
    return m.kind == OperandMapping::Kind::IdEnum && a.is(AttrKind::Unit);
  }

  /// Symbol references name symbols that the nearest symbol table around them (a spirv.module
  /// or builtin.module) defines.
  bool symbolsResolve(const Operation &top) {
    std::unordered_map<const Operation *, std::unordered_set<std::string_view>> tables;
    auto definedIn = [&](const Operation *table) -> const std::unordered_set<std::string_view> & {
      auto [it, added] = tables.try_emplace(table);
      if (added && table->numRegions() && !table->region().empty())
        for (const Operation *op : *table->region().front())
          if (Attribute s = op->attr("sym_name"); s && s.is(AttrKind::String))
            it->second.insert(s.str());
      return it->second;
    };
    bool ok = true;
    auto check = [&](const Operation &op, Attribute a) {
      if (!ok || !a || !a.is(AttrKind::SymbolRef))
        return;
      // MLIR's spirv.ARM.GraphEntryPoint does not look its symbols up (the serializer does).
      if (&op.info() == &ops::graphEntryPoint())
        return;
      const Operation *table = op.parentOp();
      while (table && !ops::isSymbolTable(table->info()))
        table = table->parentOp();
      if (!table) // a symbol table's own references (none) or an op verified on its own
        return;
      if (!definedIn(table).count(a.str()))
        ok = fail(op, "refers to @" + std::string(a.str()) + ", which the " +
                          (&table->info() == &ops::module() ? "module" : "enclosing module") +
                          " does not define");
    };
    walk(const_cast<Operation *>(&top), [&](Operation *op) {
      for (const NamedAttribute &a : op->attributes()) {
        check(*op, a.attr());
        if (a.attr().is(AttrKind::Array))
          for (Attribute e : a.attr().elements())
            check(*op, e);
      }
    });
    return ok;
  }

  bool shape(const Operation &op) {
    if (!grammarShape(op))
      return false;
    if (op.info().verify)
      if (std::string problem = op.info().verify(op); !problem.empty())
        return fail(op, std::move(problem));
    if (std::string problem = types_.check(op); !problem.empty())
      return fail(op, std::move(problem));
    return true;
  }

  TypeVerifier types_;
  MlirVersion messages_;
  Location where_;
  std::string message_;
};

} // namespace

Status verify(const Operation &op, MlirVersion messages) {
  Verifier v(messages);
  if (Status s = v.run(op); !s)
    return s;
  return verifyDominance(op);
}

} // namespace spire::dialect
