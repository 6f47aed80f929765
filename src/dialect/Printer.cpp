// The printer of the dialect's text: MLIR's generic form for every op, and the custom syntax
// mlir-translate-16 prints for the ops that have one (OpForms.h). An op whose attributes or types
// its custom syntax cannot show (an attribute MLIR would drop, types that do not agree) prints in
// the generic form, so the text always parses back to the same IR.
#include "spire/dialect/Text.h"

#include "AsmText.h"
#include "OpForms.h"

#include <algorithm>
#include <charconv>
#include <initializer_list>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace spire::dialect {

namespace {

using grammar::OperandKind;

/// The enumerant's name as MLIR 16 prints it.
std::string enumName(OperandKind kind, uint32_t value) { return enumText(kind, value); }

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isAlnum(char c) { return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/// MLIR's sanitizeIdentifier, except that a result starting with a digit always gets a '_' in
/// front (MLIR only checks the first character before escaping, so "@x" gives "40x").
std::string sanitize(std::string_view name) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(name.size() + 1);
  for (char c : name) {
    if (isAlnum(c) || c == '$' || c == '.' || c == '_' || c == '-') {
      out += c;
    } else if (c == ' ') {
      out += '_';
    } else {
      unsigned char u = static_cast<unsigned char>(c);
      if (u >= 16)
        out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  if (out.empty() || isDigit(out[0]))
    out.insert(out.begin(), '_');
  return out;
}

bool isBoolLike(Type result, Type operand) {
  if (!result || !operand)
    return false;
  if (operand.is(TypeKind::Vector))
    return result.is(TypeKind::Vector) && result.count() == operand.count() &&
           result.elementType().isBool();
  return result.isBool();
}

/// An integer attribute of type i<width> (what the custom syntax writes as a bare number).
bool isInt(Attribute a, unsigned width) {
  return a.is(AttrKind::Integer) && a.type() && a.type().is(TypeKind::Integer) &&
         a.type().width() == width && a.type().signedness() == Signedness::Signless;
}

/// The constant integer an SSA index holds, when a spirv.Constant defines it.
bool constantIndex(Value v, int64_t &out) {
  Operation *def = v.definingOp();
  if (!def || def->name() != "spirv.Constant")
    return false;
  Attribute a = def->attr("value");
  if (!a.is(AttrKind::Integer))
    return false;
  out = a.intValue();
  return true;
}

class Printer {
public:
  Printer(std::string &out, const PrintOptions &options) : out_(out), opts_(options) {}

  void top(const Operation &op) {
    number(op);
    out_.reserve(out_.size() + numbered_ * 80); // about a line per op
    if (opts_.builtinModule) {
      out_ += opts_.generic ? "\"builtin.module\"() ({\n" : "module {\n";
      operation(op, 2);
      out_ += opts_.generic ? "}) : () -> ()\n" : "}\n";
    } else {
      operation(op, 0);
    }
  }

private:
  // --- Names ---------------------------------------------------------------------------------

  struct NameContext {
    const Region *region;
    int64_t nextValue;
    uint32_t nextArg, nextConflict;
    size_t parentScopes;
  };

  void number(const Operation &root) {
    numberResults(root);
    std::vector<NameContext> stack;
    for (uint32_t r = root.numRegions(); r-- > 0;)
      stack.push_back({&root.region(r), nextValue_, nextArg_, nextConflict_, 0});
    while (!stack.empty()) {
      NameContext c = stack.back();
      stack.pop_back();
      nextValue_ = c.nextValue;
      nextArg_ = c.nextArg;
      nextConflict_ = c.nextConflict;
      while (scopes_.size() > c.parentScopes) {
        for (size_t i = scopes_.back(); i < scopeNames_.size(); ++i)
          used_.erase(scopeNames_[i]);
        scopeNames_.resize(scopes_.back());
        scopes_.pop_back();
      }
      scopes_.push_back(scopeNames_.size());
      numberRegion(*c.region);
      size_t depth = scopes_.size();
      // Nested regions in reverse, so that they come off the stack in order (the order does not
      // change the names: each starts from the counters as this region leaves them).
      std::vector<const Region *> nested;
      for (const Block *b : *c.region)
        for (const Operation *op : *b)
          for (uint32_t r = 0; r < op->numRegions(); ++r)
            nested.push_back(&op->region(r));
      for (size_t i = nested.size(); i-- > 0;)
        stack.push_back({nested[i], nextValue_, nextArg_, nextConflict_, depth});
    }
  }

  void numberRegion(const Region &region) {
    uint32_t nextBlock = 0;
    for (const Block *b : region) {
      blockIds_[b] = nextBlock++;
      bool entry = b == region.front();
      for (uint32_t i = 0; i < b->numArguments(); ++i) {
        if (entry)
          setName(b->argument(i), "arg" + std::to_string(nextArg_++));
        else
          setId(b->argument(i).impl(), nextValue_++);
      }
      for (const Operation *op : *b)
        numberResults(*op);
    }
    for (const Block *b : region)
      if (const Operation *t = b->back())
        for (const Successor &s : t->successors())
          preds_[s.block].push_back(blockIds_[b]);
  }

  void numberResults(const Operation &op) {
    ++numbered_;
    if (op.numResults() == 0)
      return;
    std::string hint = opts_.generic ? std::string() : nameHint(op);
    if (!hint.empty() && op.numResults() == 1) {
      setName(op.result(0), hint);
      return;
    }
    // One number for all results: a group %3:2 defines %3#0 and %3#1.
    int64_t id = nextValue_++;
    for (uint32_t i = 0; i < op.numResults(); ++i)
      setId(op.result(i).impl(), id);
  }

  void setName(Value v, std::string_view raw) {
    std::string name = sanitize(raw);
    if (used_.count(name)) {
      std::string probe;
      do {
        probe = name + "_" + std::to_string(nextConflict_++);
      } while (used_.count(probe));
      name = std::move(probe);
    }
    used_.insert(name);
    scopeNames_.push_back(name);
    named_.push_back("%" + name);
    setId(v.impl(), -static_cast<int64_t>(named_.size()));
  }

  static std::string nameHint(const Operation &op) {
    if (op.name() == "spirv.mlir.addressof") {
      Attribute v = op.attr("variable");
      return v.is(AttrKind::SymbolRef) ? std::string(v.str()) + "_addr" : std::string();
    }
    if (op.name() != "spirv.Constant")
      return {};
    Type type = op.result(0).type();
    Attribute value = op.attr("value");
    std::string name = "cst";
    bool isInt = type && type.is(TypeKind::Integer);
    if (value.is(AttrKind::Bool) || value.is(AttrKind::Integer)) {
      if (isInt && type.width() == 1)
        return (value.is(AttrKind::Bool) ? value.boolValue() : value.bits() != 0) ? "true"
                                                                                  : "false";
      if (value.is(AttrKind::Integer)) {
        if (isInt && type.signedness() == Signedness::Unsigned)
          name += std::to_string(value.bits());
        else
          name += std::to_string(value.intValue());
      }
    }
    if (isInt || (type && type.is(TypeKind::Float))) {
      name += '_';
      print(type, name);
    }
    if (type && type.is(TypeKind::Vector)) {
      name += "_vec_" + std::to_string(type.count());
      Type e = type.elementType();
      if (e.is(TypeKind::Integer) || e.is(TypeKind::Float)) {
        name += 'x';
        print(e, name);
      }
    }
    return name;
  }

  void appendNumber(int64_t n) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, n);
    out_.append(buf, r.ptr);
  }

  /// A value's name: `%name`, `%7`, or `%7#1` for a result of a group.
  void use(Value v) {
    const detail::Scratch &slot = v.impl()->scratch;
    if (slot.epoch != epoch_) {
      out_ += "%<<UNKNOWN SSA VALUE>>"; // a value from outside the printed op
      return;
    }
    if (slot.value < 0) {
      out_ += named_[static_cast<size_t>(-slot.value - 1)];
      return;
    }
    out_ += '%';
    appendNumber(slot.value);
    if (const Operation *def = v.definingOp(); def && def->numResults() > 1) {
      out_ += '#';
      appendNumber(v.index());
    }
  }

  /// The name an op's results are defined with: `%name`, `%7` or `%7:2`.
  void results(const Operation &op) {
    if (op.numResults() == 1) {
      use(op.result(0));
      return;
    }
    const detail::Scratch &slot = op.result(0).impl()->scratch;
    if (slot.epoch != epoch_ || slot.value < 0) {
      out_ += "%<<UNKNOWN SSA VALUE>>";
      return;
    }
    out_ += '%';
    appendNumber(slot.value);
    out_ += ':';
    appendNumber(op.numResults());
  }

  std::string blockName(const Block *b) {
    auto it = blockIds_.find(b);
    return it == blockIds_.end() ? "^INVALIDBLOCK" : "^bb" + std::to_string(it->second);
  }

  // --- Ops -----------------------------------------------------------------------------------

  void indent(unsigned n) { out_.append(n, ' '); }

  void operation(const Operation &op, unsigned ind) {
    indent(ind);
    if (op.numResults() > 0) {
      results(op);
      out_ += " = ";
    }
    size_t mark = out_.size();
    if (opts_.generic || !custom(op, ind)) {
      out_.resize(mark);
      generic(op, ind);
    }
    out_ += '\n';
  }

  void generic(const Operation &op, unsigned ind) {
    out_ += '"';
    out_ += op.name();
    out_ += "\"(";
    uint32_t n = op.numOperands();
    for (uint32_t i = 0; i < n; ++i) {
      if (i)
        out_ += ", ";
      use(op.operand(i));
    }
    out_ += ')';
    if (!op.successors().empty()) {
      out_ += '[';
      bool first = true;
      for (const Successor &s : op.successors()) {
        if (!first)
          out_ += ", ";
        first = false;
        out_ += blockName(s.block);
      }
      out_ += ']';
    }
    if (op.numRegions() > 0) {
      out_ += " (";
      for (uint32_t r = 0; r < op.numRegions(); ++r) {
        if (r)
          out_ += ", ";
        region(op.region(r), ind, true);
      }
      out_ += ')';
    }
    genericAttrs(op);
    out_ += " : (";
    for (uint32_t i = 0; i < n; ++i) {
      if (i)
        out_ += ", ";
      type(op.operand(i).type());
    }
    out_ += ") -> ";
    resultTypes(op);
  }

  void resultTypes(const Operation &op) {
    bool parens = op.numResults() != 1 || op.result(0).type().is(TypeKind::Function);
    if (parens)
      out_ += '(';
    for (uint32_t i = 0; i < op.numResults(); ++i) {
      if (i)
        out_ += ", ";
      type(op.result(i).type());
    }
    if (parens)
      out_ += ')';
  }

  void attrEntry(const NamedAttribute &a, bool &first) {
    out_ += first ? "" : ", ";
    first = false;
    if (isBareIdentifier(a.name))
      out_ += a.name;
    else
      printString(a.name, out_);
    if (!a.attr().is(AttrKind::Unit)) {
      out_ += " = ";
      print(a.attr(), out_);
    }
  }

  void genericAttrs(const Operation &op) {
    // MLIR's BranchConditional has operand_segment_sizes; other ops with successors get it where
    // their successors take operands (except spirv.Branch, whose operands are all its
    // successor's), so that the text keeps which operands go where.
    bool segments = op.name() == "spirv.BranchConditional" && op.successors().size() == 2;
    if (!segments && op.name() != "spirv.Branch")
      for (const Successor &sc : op.successors())
        segments = segments || sc.numOperands > 0;
    if (op.attributes().empty() && !segments)
      return;
    out_ += " {";
    bool first = true;
    constexpr std::string_view kSegments = "operand_segment_sizes";
    auto emitSegments = [&] {
      out_ += first ? "" : ", ";
      first = false;
      out_ += "operand_segment_sizes = array<i32: ";
      out_ += std::to_string(op.numOrdinaryOperands());
      for (const Successor &s : op.successors())
        out_ += ", " + std::to_string(s.numOperands);
      out_ += '>';
      segments = false;
    };
    for (const NamedAttribute &a : op.attributes()) {
      if (segments && a.name >= kSegments) {
        emitSegments();
        if (a.name == kSegments)
          continue;
      }
      attrEntry(a, first);
    }
    if (segments)
      emitSegments();
    out_ += '}';
  }

  /// ` {a = 1 : i32, b}` with the attributes not in `elided`, or nothing.
  void attrDict(const Operation &op, std::initializer_list<std::string_view> elided = {}) {
    bool first = true;
    for (const NamedAttribute &a : op.attributes()) {
      if (std::find(elided.begin(), elided.end(), a.name) != elided.end())
        continue;
      if (first)
        out_ += " {";
      attrEntry(a, first);
    }
    if (!first)
      out_ += '}';
  }

  /// Whether the op has no attributes but those in `allowed`.
  static bool onlyAttrs(const Operation &op, std::initializer_list<std::string_view> allowed) {
    for (const NamedAttribute &a : op.attributes())
      if (std::find(allowed.begin(), allowed.end(), a.name) == allowed.end())
        return false;
    return true;
  }

  /// `entryArgs`: the generic form, which shows the entry block's label when it has arguments
  /// or no ops.
  void region(const Region &r, unsigned ind, bool entryArgs) {
    out_ += "{\n";
    for (const Block *b : r)
      block(*b, ind + 2, b == r.front(), entryArgs);
    indent(ind);
    out_ += '}';
  }

  void block(const Block &b, unsigned ind, bool entry, bool entryArgs) {
    if (!entry || (entryArgs && (b.numArguments() > 0 || b.empty() || preds_.count(&b)))) {
      indent(ind - 2);
      out_ += blockName(&b);
      if (b.numArguments() > 0) {
        out_ += '(';
        for (uint32_t i = 0; i < b.numArguments(); ++i) {
          if (i)
            out_ += ", ";
          use(b.argument(i));
          out_ += ": ";
          type(b.argument(i).type());
        }
        out_ += ')';
      }
      out_ += ':';
      predecessors(b, entry);
      out_ += '\n';
    }
    for (const Operation *op : b)
      operation(*op, ind);
  }

  void predecessors(const Block &b, bool entry) {
    auto found = preds_.find(&b);
    std::vector<uint32_t> preds;
    if (found != preds_.end())
      preds = found->second;
    if (preds.empty()) {
      if (!entry)
        out_ += "  // no predecessors";
      return;
    }
    if (std::all_of(preds.begin(), preds.end(), [&](uint32_t p) { return p == preds[0]; })) {
      out_ += "  // pred: ^bb" + std::to_string(preds[0]);
      return;
    }
    std::sort(preds.begin(), preds.end());
    out_ += "  // " + std::to_string(preds.size()) + " preds: ";
    for (size_t i = 0; i < preds.size(); ++i) {
      if (i)
        out_ += ", ";
      out_ += "^bb" + std::to_string(preds[i]);
    }
  }

  // --- Custom forms --------------------------------------------------------------------------

  void operands(const Operation &op, uint32_t first, uint32_t end) {
    for (uint32_t i = first; i < end; ++i) {
      if (i > first)
        out_ += ", ";
      use(op.operand(i));
    }
  }
  void types(const Operation &op, uint32_t first, uint32_t end) {
    for (uint32_t i = first; i < end; ++i) {
      if (i > first)
        out_ += ", ";
      type(op.operand(i).type());
    }
  }
  std::string typeString(Type t) const {
    std::string s;
    print(t, s);
    return s;
  }
  /// A type's text, printed once per type.
  void type(Type t) {
    auto it = typeText_.find(t.opaque());
    if (it == typeText_.end())
      it = typeText_.emplace(t.opaque(), typeString(t)).first;
    out_ += it->second;
  }

  /// `"Name"` or `<Name>` of an enum attribute; false when it is missing.
  bool enumAttr(const Operation &op, std::string_view attrName, OperandKind kind, bool angle) {
    Attribute a = op.attr(attrName);
    if (!a.is(AttrKind::Enum) || a.enumKind() != kind)
      return false;
    out_ += angle ? '<' : '"';
    out_ += enumName(kind, a.enumValue());
    out_ += angle ? '>' : '"';
    return true;
  }

  /// The scope and semantics attributes in their operand order, as `"X"` or `<X>`.
  bool scopeAttrs(const Operation &op, bool angle, const char *sep,
                  std::vector<std::string_view> &names) {
    bool first = true;
    for (const OperandMapping &m : op.info().operands) {
      if (m.kind != OperandMapping::Kind::IdEnum)
        continue;
      out_ += first ? " " : sep;
      first = false;
      if (!enumAttr(op, m.name, m.attrKind, angle))
        return false;
      names.push_back(m.name);
    }
    return true;
  }

  void attrDictExcept(const Operation &op, const std::vector<std::string_view> &elided) {
    bool first = true;
    for (const NamedAttribute &a : op.attributes()) {
      if (std::find(elided.begin(), elided.end(), a.name) != elided.end())
        continue;
      if (first)
        out_ += " {";
      attrEntry(a, first);
    }
    if (!first)
      out_ += '}';
  }

  bool sameTypes(const Operation &op, Type t) {
    for (uint32_t i = 0; i < op.numOperands(); ++i)
      if (op.operand(i).type() != t)
        return false;
    return true;
  }

  void successor(const Operation &op, const Successor &s) {
    out_ += blockName(s.block);
    if (s.numOperands == 0)
      return;
    out_ += '(';
    operands(op, s.firstOperand, s.firstOperand + s.numOperands);
    out_ += " : ";
    types(op, s.firstOperand, s.firstOperand + s.numOperands);
    out_ += ')';
  }

  /// ` ["Volatile|Aligned", 4]` for a memory access attribute pair.
  bool memoryAccess(const Operation &op, std::string_view access, std::string_view alignment) {
    Attribute a = op.attr(access);
    if (!a)
      return !op.attr(alignment);
    if (!a.is(AttrKind::Enum) || a.enumKind() != OperandKind::MemoryAccess)
      return false;
    out_ += " [\"";
    out_ += enumText(OperandKind::MemoryAccess, a.enumValue());
    out_ += '"';
    Attribute al = op.attr(alignment);
    constexpr uint32_t kAligned = 0x2;
    if (a.enumValue() & kAligned) {
      if (!isInt(al, 32))
        return false;
      out_ += ", " + std::to_string(al.intValue());
    } else if (al) {
      return false;
    }
    out_ += ']';
    return true;
  }

  /// bind(set, binding) and built_in("X") of variables; adds what it printed to `elided`.
  void variableDecorations(const Operation &op, std::vector<std::string_view> &elided) {
    Attribute set = op.attr("descriptor_set"), binding = op.attr("binding");
    if (isInt(set, 32) && isInt(binding, 32)) {
      out_ += " bind(" + std::to_string(set.intValue()) + ", " +
              std::to_string(binding.intValue()) + ")";
      elided.push_back("descriptor_set");
      elided.push_back("binding");
    }
    Attribute builtIn = op.attr("built_in");
    if (builtIn.is(AttrKind::String)) {
      out_ += " built_in(\"";
      out_ += builtIn.str();
      out_ += "\")";
      elided.push_back("built_in");
    }
  }

  /// Whether a region's entry block is a branch target (so that its label must be printed,
  /// which the custom forms do not do).
  bool entryTargeted(const Operation &op) const {
    for (uint32_t i = 0; i < op.numRegions(); ++i)
      if (const Block *entry = op.region(i).front())
        if (preds_.count(entry))
          return true;
    return false;
  }

  bool plain(const Operation &op) const { return op.successors().empty() && op.numRegions() == 0; }

  /// Walks `t` with the constant indices operands [first, end); null when one is unknown.
  Type indexed(const Operation &op, Type t, uint32_t first, uint32_t end) {
    for (uint32_t i = first; i < end && t; ++i) {
      int64_t index = 0;
      bool known = constantIndex(op.operand(i), index);
      t = indexType(t, index, known);
    }
    return t;
  }

  bool custom(const Operation &op, unsigned ind) {
    Form form = formOf(op.info());
    if (form == Form::Generic || entryTargeted(op) ||
        (opts_.mlir16 && customSyntaxNewerThanMlir16(op.info())))
      return false;
    uint32_t n = op.numOperands();
    uint32_t nr = op.numResults();
    Type r = nr == 1 ? op.result(0).type() : Type();
    Type t0 = n > 0 ? op.operand(0).type() : Type();
    std::vector<std::string_view> elided;
    auto head = [&] { out_ += op.name(); };
    // The name, every operand and the attribute dictionary: how most forms start.
    auto lead = [&] {
      head();
      out_ += ' ';
      operands(op, 0, n);
      attrDict(op);
    };
    switch (form) {
    case Form::BinarySame:
      if (!plain(op) || n < 2 || nr != 1 || !sameTypes(op, r))
        return false;
      lead();
      out_ += " : ";
      type(r);
      return true;
    case Form::UnarySame:
    case Form::UnaryAttrsFirst:
    case Form::UnaryBool:
      if (!plain(op) || n != 1 || nr != 1 ||
          (form == Form::UnaryBool ? !isBoolLike(r, t0) : r != t0))
        return false;
      head();
      out_ += ' ';
      use(op.operand(0));
      if (form == Form::UnaryAttrsFirst)
        attrDict(op);
      out_ += " : ";
      type(t0);
      if (form != Form::UnaryAttrsFirst)
        attrDict(op);
      return true;
    case Form::Compare:
      if (!plain(op) || n != 2 || nr != 1 || op.operand(1).type() != t0 || !isBoolLike(r, t0))
        return false;
      head();
      out_ += ' ';
      operands(op, 0, 2);
      out_ += " : ";
      type(t0);
      attrDict(op);
      return true;
    case Form::Convert:
      if (!plain(op) || n != 1 || nr != 1)
        return false;
      head();
      out_ += ' ';
      use(op.operand(0));
      attrDict(op);
      out_ += " : ";
      type(t0);
      out_ += " to ";
      type(r);
      return true;
    case Form::ResultTyped:
      if (!plain(op) || n != 2 || nr != 1 || !r.is(TypeKind::Struct) || r.members().empty() ||
          !sameTypes(op, r.members()[0].type))
        return false;
      lead();
      out_ += " : ";
      type(r);
      return true;
    case Form::Atomic:
      if (!plain(op) || n < 1 || nr != 1 || !t0.is(TypeKind::Pointer) || t0.elementType() != r)
        return false;
      for (uint32_t i = 1; i < n; ++i)
        if (op.operand(i).type() != r)
          return false;
      head();
      if (!scopeAttrs(op, false, " ", elided))
        return false;
      out_ += ' ';
      operands(op, 0, n);
      attrDictExcept(op, elided);
      out_ += " : ";
      type(t0);
      return true;
    case Form::GroupScoped:
      if (!plain(op) || n != 2 || nr != 1 || r != t0)
        return false;
      head();
      if (!scopeAttrs(op, true, ", ", elided))
        return false;
      out_ += ' ';
      operands(op, 0, n);
      attrDictExcept(op, elided);
      out_ += " : ";
      types(op, 0, n);
      return true;
    case Form::Elect:
    case Form::Ballot:
      if (!plain(op) || n != (form == Form::Elect ? 0u : 1u) || nr != 1 || (n && !t0.isBool()))
        return false;
      head();
      if (!scopeAttrs(op, true, ", ", elided))
        return false;
      if (n) {
        out_ += ' ';
        use(op.operand(0));
      }
      attrDictExcept(op, elided);
      out_ += " : ";
      type(r);
      return true;
    case Form::PlainBallot:
      if (!plain(op) || n != 1 || nr != 1 || !t0.isBool())
        return false;
      head();
      out_ += ' ';
      use(op.operand(0));
      attrDict(op);
      out_ += " : ";
      type(r);
      return true;
    case Form::GroupArith:
      if (!plain(op) || n < 1 || n > 2 || nr != 1)
        return false;
      head();
      out_ += ' ';
      if (!enumAttr(op, "execution_scope", OperandKind::Scope, false))
        return false;
      out_ += ' ';
      if (!enumAttr(op, "group_operation", OperandKind::GroupOperation, false))
        return false;
      out_ += ' ';
      use(op.operand(0));
      if (n == 2) {
        out_ += " cluster_size(";
        use(op.operand(1));
        out_ += ')';
      }
      attrDict(op, {"execution_scope", "group_operation"});
      out_ += " : ";
      type(r);
      return true;
    case Form::Barrier:
      if (!plain(op) || n != 0 || nr != 0)
        return false;
      head();
      if (!scopeAttrs(op, true, ", ", elided))
        return false;
      attrDictExcept(op, elided);
      return true;
    case Form::Select:
      if (!plain(op) || n != 3 || nr != 1 || op.operand(1).type() != r || op.operand(2).type() != r)
        return false;
      head();
      out_ += ' ';
      operands(op, 0, 3);
      attrDict(op);
      out_ += " : ";
      type(t0);
      out_ += ", ";
      type(r);
      return true;
    case Form::TwoTypes:
      if (!plain(op) || n != 2 || nr != 1 || r != t0)
        return false;
      head();
      out_ += ' ';
      operands(op, 0, 2);
      attrDict(op);
      out_ += " : ";
      types(op, 0, 2);
      return true;
    case Form::BitField:
      if (!plain(op) || (n != 3 && n != 4) || nr != 1 || r != t0 ||
          (n == 4 && op.operand(1).type() != t0))
        return false;
      lead();
      out_ += " : ";
      type(t0);
      out_ += ", ";
      types(op, n - 2, n);
      return true;
    case Form::OperandsToResult:
      if (!plain(op) || n < 1 || nr != 1)
        return false;
      lead();
      out_ += " : (";
      types(op, 0, n);
      out_ += ") -> ";
      type(r);
      return true;
    case Form::TypesToResult:
    case Form::TypeToResult:
      if (!plain(op) || n != (form == Form::TypeToResult ? 1u : 2u) || nr != 1)
        return false;
      lead();
      out_ += " : ";
      types(op, 0, n);
      out_ += " -> ";
      type(r);
      return true;
    case Form::SameTypeToResult:
      if (!plain(op) || n != 2 || nr != 1 || op.operand(1).type() != t0)
        return false;
      lead();
      out_ += " : ";
      type(t0);
      out_ += " -> ";
      type(r);
      return true;
    case Form::Printf:
      if (!plain(op) || n < 1 || nr != 1)
        return false;
      lead();
      out_ += " : (";
      type(t0);
      out_ += ", (";
      types(op, 1, n);
      out_ += ")) -> ";
      type(r);
      return true;
    case Form::TypedOperands:
      if (!plain(op) || n < 1 || nr != 1)
        return false;
      head();
      attrDict(op);
      for (uint32_t i = 0; i < n; ++i) {
        out_ += i ? ", " : " ";
        use(op.operand(i));
        out_ += " : ";
        type(op.operand(i).type());
      }
      out_ += " -> ";
      type(r);
      return true;
    case Form::Undef:
      if (!plain(op) || n != 0 || nr != 1)
        return false;
      head();
      attrDict(op);
      out_ += " : ";
      type(r);
      return true;
    case Form::NoOperands:
      if (!plain(op) || n != 0 || nr != 0)
        return false;
      head();
      attrDict(op);
      return true;
    case Form::ReturnValue:
      if (!plain(op) || n != 1 || nr != 0)
        return false;
      head();
      out_ += ' ';
      use(op.operand(0));
      attrDict(op);
      out_ += " : ";
      type(t0);
      return true;
    case Form::VectorExtractDynamic:
      if (!plain(op) || n != 2 || nr != 1 || !t0.is(TypeKind::Vector) || t0.elementType() != r)
        return false;
      head();
      out_ += ' ';
      use(op.operand(0));
      out_ += '[';
      use(op.operand(1));
      out_ += ']';
      attrDict(op);
      out_ += " : ";
      types(op, 0, 2);
      return true;
    case Form::VectorInsertDynamic:
      if (!plain(op) || n != 3 || nr != 1 || r != t0 || !t0.is(TypeKind::Vector) ||
          op.operand(1).type() != t0.elementType())
        return false;
      head();
      out_ += ' ';
      use(op.operand(1));
      out_ += ", ";
      use(op.operand(0));
      out_ += '[';
      use(op.operand(2));
      out_ += ']';
      attrDict(op);
      out_ += " : ";
      type(t0);
      out_ += ", ";
      type(op.operand(2).type());
      return true;
    case Form::VectorShuffle: {
      Attribute comps = op.attr("components");
      if (!plain(op) || n != 2 || nr != 1 || !comps.is(AttrKind::Array))
        return false;
      head();
      attrDict(op, {"components"});
      out_ += ' ';
      print(comps, out_);
      out_ += ' ';
      use(op.operand(0));
      out_ += " : ";
      type(t0);
      out_ += ", ";
      use(op.operand(1));
      out_ += " : ";
      type(op.operand(1).type());
      out_ += " -> ";
      type(r);
      return true;
    }
    case Form::CompositeExtract: {
      Attribute idx = op.attr("indices");
      if (!plain(op) || n != 1 || nr != 1 || !idx.is(AttrKind::Array) ||
          !onlyAttrs(op, {"indices"}))
        return false;
      Type t = t0;
      for (Attribute e : idx.elements())
        t = t && e.is(AttrKind::Integer) ? indexType(t, e.intValue(), true) : Type();
      if (t != r)
        return false;
      head();
      out_ += ' ';
      use(op.operand(0));
      print(idx, out_);
      out_ += " : ";
      type(t0);
      return true;
    }
    case Form::CompositeInsert: {
      Attribute idx = op.attr("indices");
      if (!plain(op) || n != 2 || nr != 1 || !idx.is(AttrKind::Array) ||
          !onlyAttrs(op, {"indices"}) || op.operand(1).type() != r)
        return false;
      Type t = r;
      for (Attribute e : idx.elements())
        t = t && e.is(AttrKind::Integer) ? indexType(t, e.intValue(), true) : Type();
      if (!t)
        return false;
      head();
      out_ += ' ';
      operands(op, 0, 2);
      print(idx, out_);
      out_ += " : ";
      type(t0);
      out_ += " into ";
      type(r);
      return true;
    }
    case Form::AccessChain: {
      if (!plain(op) || n < 1 || nr != 1 || !op.attributes().empty() || !t0.is(TypeKind::Pointer) ||
          !r.is(TypeKind::Pointer) || r.storageClass() != t0.storageClass())
        return false;
      bool ptrChain = op.name() != "spirv.AccessChain";
      if (ptrChain && n < 2)
        return false;
      Type pointee = indexed(op, t0.elementType(), ptrChain ? 2 : 1, n);
      // The custom form infers the result pointer, which then has no ArrayStride.
      if (pointee != r.elementType() || r.stride() != 0)
        return false;
      head();
      out_ += ' ';
      use(op.operand(0));
      out_ += '[';
      operands(op, 1, n);
      out_ += "] : ";
      type(t0);
      out_ += ", ";
      types(op, 1, n);
      return true;
    }
    case Form::Load:
    case Form::Store: {
      bool load = form == Form::Load;
      // The custom form names the pointee; the pointer it infers has no ArrayStride.
      if (!plain(op) || n != (load ? 1u : 2u) || nr != (load ? 1u : 0u) ||
          !t0.is(TypeKind::Pointer) || t0.elementType() != (load ? r : op.operand(1).type()) ||
          t0.stride() != 0)
        return false;
      head();
      out_ += " \"";
      out_ += enumName(OperandKind::StorageClass, t0.storageClass());
      out_ += "\" ";
      operands(op, 0, n);
      if (!memoryAccess(op, "memory_access", "alignment"))
        return false;
      attrDict(op, {"memory_access", "alignment"});
      out_ += " : ";
      type(t0.elementType());
      return true;
    }
    case Form::Variable: {
      Attribute sc = op.attr("storage_class");
      if (!plain(op) || n > 1 || nr != 1 || !r.is(TypeKind::Pointer) || !sc.is(AttrKind::Enum) ||
          sc.enumKind() != OperandKind::StorageClass || sc.enumValue() != r.storageClass())
        return false;
      head();
      if (n) {
        out_ += " init(";
        use(op.operand(0));
        out_ += ')';
      }
      elided.push_back("storage_class");
      variableDecorations(op, elided);
      attrDictExcept(op, elided);
      out_ += " : ";
      type(r);
      return true;
    }
    case Form::CopyMemory:
      if (!plain(op) || n != 2 || nr != 0 || !op.attributes().empty() ||
          !t0.is(TypeKind::Pointer) || !op.operand(1).type().is(TypeKind::Pointer) ||
          op.operand(1).type().elementType() != t0.elementType() || t0.stride() != 0 ||
          op.operand(1).type().stride() != 0)
        return false;
      head();
      out_ += "  \"" + enumName(OperandKind::StorageClass, t0.storageClass()) + "\" ";
      use(op.operand(0));
      out_ += ",  \"" + enumName(OperandKind::StorageClass, op.operand(1).type().storageClass()) +
              "\" ";
      use(op.operand(1));
      out_ += ",  : ";
      type(t0.elementType());
      return true;
    case Form::FunctionCall: {
      Attribute callee = op.attr("callee");
      if (!plain(op) || nr > 1 || !callee.is(AttrKind::SymbolRef))
        return false;
      head();
      out_ += ' ';
      printSymbol(callee.str(), out_);
      out_ += '(';
      operands(op, 0, n);
      out_ += ')';
      attrDict(op, {"callee"});
      out_ += " : (";
      types(op, 0, n);
      out_ += ") -> ";
      resultTypes(op);
      return true;
    }
    case Form::Branch:
      if (op.successors().size() != 1 || op.numOrdinaryOperands() != 0 || nr != 0 ||
          op.numRegions() != 0)
        return false;
      head();
      out_ += ' ';
      successor(op, op.successors()[0]);
      attrDict(op);
      return true;
    case Form::BranchConditional: {
      Attribute w = op.attr("branch_weights");
      if (op.successors().size() != 2 || op.numOrdinaryOperands() != 1 || nr != 0 ||
          op.numRegions() != 0 || !t0.isBool())
        return false;
      if (w && (!w.is(AttrKind::Array) || w.elements().size() != 2 || !isInt(w.elements()[0], 32) ||
                !isInt(w.elements()[1], 32)))
        return false;
      head();
      out_ += ' ';
      use(op.operand(0));
      if (w)
        out_ += " [" + std::to_string(w.elements()[0].intValue()) + ", " +
                std::to_string(w.elements()[1].intValue()) + "]";
      out_ += ", ";
      successor(op, op.successors()[0]);
      out_ += ", ";
      successor(op, op.successors()[1]);
      attrDict(op, {"branch_weights"});
      return true;
    }
    case Form::Module: {
      Attribute am = op.attr("addressing_model"), mm = op.attr("memory_model");
      Attribute vce = op.attr("vce_triple"), sym = op.attr("sym_name");
      if (n || nr || op.numRegions() != 1 || !am.is(AttrKind::Enum) || !mm.is(AttrKind::Enum) ||
          am.enumKind() != OperandKind::AddressingModel ||
          mm.enumKind() != OperandKind::MemoryModel || (vce && !vce.is(AttrKind::Vce)) ||
          (sym && !sym.is(AttrKind::String)) || !op.successors().empty() ||
          op.region().size() > 1 ||
          (op.region().front() && op.region().front()->numArguments() != 0))
        return false;
      head();
      if (sym) {
        out_ += ' ';
        printSymbol(sym.str(), out_);
      }
      out_ += ' ';
      out_ += enumName(OperandKind::AddressingModel, am.enumValue());
      out_ += ' ';
      out_ += enumName(OperandKind::MemoryModel, mm.enumValue());
      if (vce) {
        out_ += " requires ";
        print(vce, out_);
      }
      if (!onlyAttrs(op, {"addressing_model", "memory_model", "vce_triple", "sym_name"})) {
        out_ += " attributes";
        attrDict(op, {"addressing_model", "memory_model", "vce_triple", "sym_name"});
      }
      out_ += ' ';
      region(op.region(), ind, false);
      return true;
    }
    case Form::Func: {
      Attribute sym = op.attr("sym_name"), ft = op.attr("function_type");
      Attribute fc = op.attr("function_control");
      if (n || nr || op.numRegions() != 1 || !sym.is(AttrKind::String) || !ft.is(AttrKind::Type) ||
          !ft.type().is(TypeKind::Function) || !fc.is(AttrKind::Enum) ||
          fc.enumKind() != OperandKind::FunctionControl || !op.successors().empty())
        return false;
      Type fnType = ft.type();
      const Region &body = op.region();
      const Block *entry = body.front();
      if (entry) {
        if (entry->numArguments() != fnType.inputs().size())
          return false;
        for (uint32_t i = 0; i < entry->numArguments(); ++i)
          if (entry->argument(i).type() != fnType.inputs()[i])
            return false;
      }
      // Argument attributes (arg_attrs: one dictionary per argument) print after each
      // argument's type, as MLIR prints them; MLIR 16 holds none on spirv.func (--mlir16 leaves
      // them out).
      Attribute argAttrs = op.attr("arg_attrs");
      if (argAttrs &&
          (!argAttrs.is(AttrKind::Array) || argAttrs.elements().size() != fnType.inputs().size()))
        return false;
      for (size_t i = 0; argAttrs && i < argAttrs.elements().size(); ++i)
        if (!argAttrs.elements()[i].is(AttrKind::Dictionary))
          return false;
      head();
      out_ += ' ';
      printSymbol(sym.str(), out_);
      out_ += '(';
      for (size_t i = 0; i < fnType.inputs().size(); ++i) {
        if (i)
          out_ += ", ";
        if (entry) {
          use(entry->argument(static_cast<uint32_t>(i)));
          out_ += ": ";
        }
        type(fnType.inputs()[i]);
        if (argAttrs && !opts_.mlir16 && !argAttrs.elements()[i].entries().empty()) {
          out_ += ' ';
          print(argAttrs.elements()[i], out_);
        }
      }
      out_ += ')';
      auto results = fnType.results();
      if (!results.empty()) {
        out_ += " -> ";
        bool parens = results.size() > 1 || results[0].is(TypeKind::Function);
        if (parens)
          out_ += '(';
        for (size_t i = 0; i < results.size(); ++i) {
          if (i)
            out_ += ", ";
          type(results[i]);
        }
        if (parens)
          out_ += ')';
      }
      out_ += " \"" + enumText(OperandKind::FunctionControl, fc.enumValue()) + "\"";
      if (!onlyAttrs(op, {"sym_name", "function_type", "function_control", "arg_attrs"})) {
        out_ += " attributes";
        attrDict(op, {"sym_name", "function_type", "function_control", "arg_attrs"});
      }
      if (entry) {
        out_ += ' ';
        region(body, ind, false);
      }
      return true;
    }
    case Form::GlobalVariable: {
      Attribute sym = op.attr("sym_name"), ty = op.attr("type"), init = op.attr("initializer");
      if (!plain(op) || n || nr || !sym.is(AttrKind::String) || !ty.is(AttrKind::Type) ||
          (init && !init.is(AttrKind::SymbolRef)))
        return false;
      head();
      out_ += ' ';
      printSymbol(sym.str(), out_);
      if (init) {
        out_ += " initializer(";
        printSymbol(init.str(), out_);
        out_ += ')';
      }
      elided = {"sym_name", "type", "initializer"};
      variableDecorations(op, elided);
      attrDictExcept(op, elided);
      out_ += " : ";
      type(ty.type());
      return true;
    }
    case Form::SpecConstant: {
      Attribute sym = op.attr("sym_name"), id = op.attr("spec_id"), v = op.attr("default_value");
      if (!plain(op) || n || nr || !sym.is(AttrKind::String) || !v || (id && !isInt(id, 64)) ||
          !onlyAttrs(op, {"sym_name", "spec_id", "default_value"}))
        return false;
      head();
      out_ += ' ';
      printSymbol(sym.str(), out_);
      if (id)
        out_ += " spec_id(" + std::to_string(id.intValue()) + ")";
      out_ += " = ";
      print(v, out_);
      return true;
    }
    case Form::SpecConstantComposite: {
      Attribute sym = op.attr("sym_name"), ty = op.attr("type"), cs = op.attr("constituents");
      if (!plain(op) || n || nr || !sym.is(AttrKind::String) || !ty.is(AttrKind::Type) ||
          !cs.is(AttrKind::Array) || !onlyAttrs(op, {"sym_name", "type", "constituents"}))
        return false;
      for (Attribute c : cs.elements())
        if (!c.is(AttrKind::SymbolRef))
          return false;
      head();
      out_ += ' ';
      printSymbol(sym.str(), out_);
      out_ += " (";
      bool first = true;
      for (Attribute c : cs.elements()) {
        out_ += first ? "" : ", ";
        first = false;
        printSymbol(c.str(), out_);
      }
      out_ += ") : ";
      type(ty.type());
      return true;
    }
    case Form::SpecConstantOperation: {
      if (n || nr != 1 || op.numRegions() != 1 || !op.attributes().empty() ||
          op.region().size() != 1)
        return false;
      const Block *b = op.region().front();
      const Operation *inner = b->front();
      const Operation *yield = inner ? inner->next() : nullptr;
      if (b->numArguments() || !inner || !yield || yield->next() ||
          yield->name() != "spirv.mlir.yield" || inner->numResults() != 1 ||
          yield->numOperands() != 1 || yield->operand(0) != inner->result(0) ||
          !yield->attributes().empty() || inner->result(0).type() != r ||
          inner->numRegions() != 0 || !inner->successors().empty())
        return false;
      head();
      out_ += " wraps ";
      generic(*inner, ind);
      return true;
    }
    case Form::EntryPoint: {
      Attribute em = op.attr("execution_model"), fn = op.attr("fn"), iface = op.attr("interface");
      if (!plain(op) || n || nr || !em.is(AttrKind::Enum) || !fn.is(AttrKind::SymbolRef) ||
          em.enumKind() != OperandKind::ExecutionModel || !iface.is(AttrKind::Array) ||
          !onlyAttrs(op, {"execution_model", "fn", "interface"}))
        return false;
      if (iface)
        for (Attribute a : iface.elements())
          if (!a.is(AttrKind::SymbolRef))
            return false;
      head();
      out_ += " \"" + enumName(OperandKind::ExecutionModel, em.enumValue()) + "\" ";
      printSymbol(fn.str(), out_);
      if (iface)
        for (Attribute a : iface.elements()) {
          out_ += ", ";
          printSymbol(a.str(), out_);
        }
      return true;
    }
    case Form::ExecutionMode: {
      Attribute fn = op.attr("fn"), mode = op.attr("execution_mode"), vals = op.attr("values");
      if (!plain(op) || n || nr || !mode.is(AttrKind::Enum) || !fn.is(AttrKind::SymbolRef) ||
          mode.enumKind() != OperandKind::ExecutionMode || !vals.is(AttrKind::Array) ||
          !onlyAttrs(op, {"execution_mode", "fn", "values"}))
        return false;
      for (Attribute a : vals.elements())
        if (!isInt(a, 32))
          return false;
      head();
      out_ += ' ';
      printSymbol(fn.str(), out_);
      out_ += " \"" + enumName(OperandKind::ExecutionMode, mode.enumValue()) + "\"";
      for (Attribute a : vals.elements())
        out_ += ", " + std::to_string(a.intValue());
      return true;
    }
    case Form::AddressOf:
    case Form::ReferenceOf: {
      std::string_view key = form == Form::AddressOf ? "variable" : "spec_const";
      Attribute s = op.attr(key);
      if (!plain(op) || n || nr != 1 || !s.is(AttrKind::SymbolRef))
        return false;
      head();
      out_ += ' ';
      printSymbol(s.str(), out_);
      attrDict(op, {key});
      out_ += " : ";
      type(r);
      return true;
    }
    case Form::Constant: {
      Attribute v = op.attr("value");
      if (!plain(op) || n || nr != 1 || !v || !onlyAttrs(op, {"value"}))
        return false;
      switch (v.kind()) {
      case AttrKind::Bool:
        if (!r.isBool())
          return false;
        break;
      case AttrKind::Integer:
      case AttrKind::Float:
      case AttrKind::Dense:
        if (v.type() != r)
          return false;
        break;
      case AttrKind::Array:
        if (!r.is(TypeKind::Array))
          return false;
        break;
      default:
        return false;
      }
      head();
      out_ += ' ';
      print(v, out_);
      if (v.is(AttrKind::Array)) {
        out_ += " : ";
        type(r);
      }
      return true;
    }
    case Form::Selection:
    case Form::Loop: {
      std::string_view key = form == Form::Selection ? "selection_control" : "loop_control";
      OperandKind kind =
          form == Form::Selection ? OperandKind::SelectionControl : OperandKind::LoopControl;
      Attribute c = op.attr(key);
      if (n || nr || op.numRegions() != 1 || !op.successors().empty() || !onlyAttrs(op, {key}) ||
          !c.is(AttrKind::Enum) || c.enumKind() != kind)
        return false;
      const Block *entry = op.region().front();
      if (entry && entry->numArguments())
        return false;
      head();
      out_ += ' ';
      if (c.enumValue() != 0)
        out_ += "control(" + enumText(kind, c.enumValue()) + ") ";
      region(op.region(), ind, false);
      return true;
    }
    case Form::GroupReduce:
      if (!plain(op) || n != 1 || nr != 1 || r != t0)
        return false;
      head();
      out_ += ' ';
      if (!enumAttr(op, "execution_scope", OperandKind::Scope, true))
        return false;
      out_ += ' ';
      if (!enumAttr(op, "group_operation", OperandKind::GroupOperation, true))
        return false;
      out_ += ' ';
      use(op.operand(0));
      attrDict(op, {"execution_scope", "group_operation"});
      out_ += " : ";
      type(r);
      return true;
    case Form::Image:
      if (!plain(op) || n != 1 || nr != 1 || !t0.is(TypeKind::SampledImage) ||
          t0.elementType() != r)
        return false;
      head();
      attrDict(op);
      out_ += ' ';
      use(op.operand(0));
      out_ += " : ";
      type(t0);
      return true;
    case Form::ImageDrefGather: {
      Attribute io = op.attr("imageoperands");
      if (!plain(op) || n < 3 || nr != 1 ||
          (io && (!io.is(AttrKind::Enum) || io.enumKind() != OperandKind::ImageOperands)) ||
          (n > 3 && !io))
        return false;
      head();
      for (uint32_t i = 0; i < 3; ++i) {
        out_ += i ? ", " : " ";
        use(op.operand(i));
        out_ += " : ";
        type(op.operand(i).type());
      }
      out_ += ' ';
      if (io)
        out_ += "[\"" + enumText(OperandKind::ImageOperands, io.enumValue()) + "\"]";
      if (n > 3) {
        out_ += " (";
        operands(op, 3, n);
        out_ += " : ";
        types(op, 3, n);
        out_ += ')';
      }
      attrDict(op, {"imageoperands"});
      out_ += " -> ";
      type(r);
      return true;
    }
    case Form::CoopMatrixLoad:
      if (!plain(op) || n != 3 || nr != 1 || !op.attributes().empty())
        return false;
      head();
      out_ += ' ';
      operands(op, 0, 3);
      out_ += " : ";
      type(t0);
      out_ += " as ";
      type(r);
      return true;
    case Form::CoopMatrixStore:
      if (!plain(op) || n != 4 || nr != 0 || !op.attributes().empty())
        return false;
      head();
      out_ += ' ';
      operands(op, 0, 4);
      out_ += " : ";
      type(t0);
      out_ += ", ";
      type(op.operand(1).type());
      return true;
    case Form::BlockRead:
    case Form::BlockWrite: {
      bool read = form == Form::BlockRead;
      if (!plain(op) || n != (read ? 1u : 2u) || nr != (read ? 1u : 0u) ||
          !op.attributes().empty() || !t0.is(TypeKind::Pointer))
        return false;
      head();
      out_ += ' ';
      operands(op, 0, n);
      out_ += " : ";
      type(read ? r : op.operand(1).type());
      return true;
    }
    case Form::CoopMatrixLength: {
      Attribute ct = op.attr("cooperative_matrix_type");
      if (!plain(op) || n != 0 || nr != 1 || !ct.is(AttrKind::Type) || !r.is(TypeKind::Integer) ||
          r.width() != 32 || r.signedness() != Signedness::Signless)
        return false;
      head();
      attrDict(op, {"cooperative_matrix_type"});
      out_ += " : ";
      type(ct.type());
      return true;
    }
    case Form::MulAdd:
      if (!plain(op) || n != 3 || nr != 1 || op.operand(2).type() != r)
        return false;
      head();
      out_ += ' ';
      operands(op, 0, 3);
      attrDict(op);
      out_ += " : ";
      types(op, 0, 2);
      out_ += " -> ";
      type(r);
      return true;
    case Form::KhrCoopLoad:
    case Form::KhrCoopStore:
    case Form::KhrMulAdd: {
      const bool mulAdd = form == Form::KhrMulAdd, load = form == Form::KhrCoopLoad;
      const char *first = mulAdd ? "matrix_operands" : "matrix_layout";
      Attribute a = op.attr(first), mem = op.attr("memory_operand");
      if (!plain(op) || n != (load ? 2u : 3u) || nr != (mulAdd || load ? 1u : 0u) ||
          (a && !a.is(AttrKind::Enum)) || (!mulAdd && !a) || (mem && !mem.is(AttrKind::Enum)) ||
          (mulAdd && op.operand(2).type() != r))
        return false;
      head();
      out_ += ' ';
      operands(op, 0, n);
      if (a) {
        out_ += ", ";
        enumAttr(op, first, a.enumKind(), true);
      }
      if (mem) {
        out_ += ", ";
        enumAttr(op, "memory_operand", OperandKind::MemoryAccess, true);
      }
      attrDict(op, {first, "memory_operand"});
      out_ += " : ";
      types(op, 0, mulAdd ? 2 : n);
      if (mulAdd || load) {
        out_ += " -> ";
        type(r);
      }
      return true;
    }
    case Form::AssumeTrue:
      if (!plain(op) || n != 1 || nr != 0 || !t0.isBool())
        return false;
      head();
      out_ += ' ';
      use(op.operand(0));
      attrDict(op);
      return true;
    case Form::Generic:
      return false;
    }
    return false;
  }

  std::string &out_;
  PrintOptions opts_;
  /// A value's number, or for a named one -(its index in named_ + 1).
  /// Values' numbers live in their scratch slots, marked with this printer's epoch.
  uint32_t epoch_ = newScratchEpoch();
  void setId(const detail::ValueImpl *v, int64_t id) { v->scratch = {epoch_, id}; }
  std::vector<std::string> named_;
  std::unordered_map<const Block *, uint32_t> blockIds_;
  std::unordered_map<const void *, std::string> typeText_;
  std::unordered_map<const Block *, std::vector<uint32_t>> preds_;
  std::unordered_set<std::string> used_;
  std::vector<std::string> scopeNames_;
  std::vector<size_t> scopes_;
  int64_t nextValue_ = 0;
  uint32_t nextArg_ = 0, nextConflict_ = 0;
  size_t numbered_ = 0;
};

} // namespace

void print(const Operation &op, std::string &out, const PrintOptions &options) {
  Mlir16Types types(options.mlir16);
  Printer(out, options).top(op);
}

std::string toString(const Operation &op, const PrintOptions &options) {
  std::string out;
  print(op, out, options);
  return out;
}

} // namespace spire::dialect
