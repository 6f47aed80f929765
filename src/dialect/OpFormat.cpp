// The custom-syntax format notation and its compiler.
//
// A format is a line of elements, written as the text they stand for looks:
//   %0 %1          operand 0, 1 (a run `%0, %1` prints and parses as one comma-separated list)
//   %2...          operands 2 to the last
//   %2+            operands 2 to the last, one at least
//   $name          attribute `name` in MLIR's attribute syntax: [1 : i32, 2 : i32]
//   "$name"        an enumerant attribute in quotes: "Device"
//   <$name>        an enumerant attribute in angle brackets: <Subgroup>
//   @$name         a symbol reference attribute: @main
//   !$name         a type attribute, as its type
//   attr-dict      the attributes no other element shows, ` {a = 1 : i32}` when there are any
//   T  Ts...       a type variable's type; a list variable's types, comma-separated
//   , : ( ) [ ] -> =  and bare words (to, into, as, cluster_size): themselves
//   {...}          an optional group: printed when its first operand or attribute is there,
//                  read when its first element (a punctuation or word) comes
// The signature says every operand's type and the result's from the variables:
//   (T, T) -> bool(T)   two operands of type T, a result of i1 or a vector of i1 like T
//   (P, pointee(P)*) -> pointee(P)   `X*`: the rest of the operands all have type X
//   (Ts...) -> R        `Ts...`: the rest of the operands, each its own type
//   ~T (T where a use comes before the definition, else the value's own type), ? (the value's
//   own type), i1, i32, elem(T), pointee(T), member0(T), image(T), bool(T), and for the result
//   `infer` (the op's infer hook computes it) or `()` (no result).
//
// Why this notation: it reads like the text it describes, so that a format is checked by eye
// against mlir-translate-16's output; the type relations sit apart from the layout, once per
// op, instead of as directives spread through it (MLIR's type($x) plus traits such as
// SameOperandsAndResultType); and the printer can tell exactly when the custom form would read
// back as another op (a type the text does not show that inference would not give back), which
// is when it falls back to the generic form.
#include "OpFormat.h"
#include "VerifierTypes.h"

#include "spire/dialect/Attributes.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>

namespace spire::dialect {

namespace {

bool isLower(char c) { return (c >= 'a' && c <= 'z') || c == '_' || (c >= '0' && c <= '9'); }
bool isUpper(char c) { return c >= 'A' && c <= 'Z'; }
bool isWordChar(char c) { return isLower(c) || isUpper(c); }

class Compiler {
public:
  Compiler(const OpInfo &info, std::string_view format, std::string_view signature)
      : info_(info), format_(format), signature_(signature) {}

  bool run(OpFormat &out, bool infers, std::string &problem) {
    f_ = &out;
    if (elements() && types() && check(infers))
      return true;
    problem = std::string(info_.name) + ": " + problem_;
    return false;
  }

private:
  bool fail(std::string message) {
    if (problem_.empty())
      problem_ = std::move(message);
    return false;
  }

  // --- The format ----------------------------------------------------------------------------

  uint8_t var(std::string_view name, bool list) {
    auto it = vars_.find(name);
    if (it != vars_.end()) {
      if (list != isList_[it->second])
        fail("variable " + std::string(name) + " is both a type and a list");
      return it->second;
    }
    uint8_t slot = static_cast<uint8_t>(vars_.size());
    vars_.emplace(name, slot);
    isList_.push_back(list);
    printed_.push_back(false);
    plain_.push_back(false);
    return slot;
  }

  std::string_view word(std::string_view text, size_t &i, bool (*more)(char)) {
    size_t start = i;
    while (i < text.size() && more(text[i]))
      ++i;
    return text.substr(start, i - start);
  }

  /// The enumerant kind of attribute `name`, from the op's operand mappings.
  bool enumKind(std::string_view name, grammar::OperandKind &kind) {
    for (const OperandMapping &m : info_.operands) {
      if (m.name != name)
        continue;
      kind = m.kind == OperandMapping::Kind::IdEnum ? m.attrKind : m.operandKind;
      grammar::OperandCategory c = grammar::operandCategory(kind);
      return c == grammar::OperandCategory::BitEnum || c == grammar::OperandCategory::ValueEnum ||
             fail("attribute " + std::string(name) + " is not an enumerant");
    }
    return fail("no attribute " + std::string(name));
  }

  bool attribute(FormatElement::Style style, std::string_view name) {
    if (name.empty())
      return fail("an attribute without a name");
    FormatElement e;
    e.kind = FormatElement::Attr;
    e.style = style;
    e.text = name;
    if ((style == FormatElement::Quoted || style == FormatElement::Angle) &&
        !enumKind(name, e.enumKind))
      return false;
    f_->shownAttrs.push_back(name);
    push(e);
    return true;
  }

  void push(const FormatElement &e) { f_->elements.push_back(e); }

  bool operand(std::string_view text, size_t &i) {
    size_t start = ++i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9')
      ++i;
    if (i == start)
      return fail("'%' without an operand number");
    unsigned index = 0;
    for (size_t k = start; k < i; ++k)
      index = index * 10 + static_cast<unsigned>(text[k] - '0');
    bool variadic = text.substr(i, 3) == "...";
    // `%0+`: as `%0...` with one operand at least (MLIR cannot read an empty list there).
    bool nonEmpty = !variadic && i < text.size() && text[i] == '+';
    if (variadic)
      i += 3;
    if (nonEmpty) {
      variadic = true;
      ++i;
    }
    if (index > 64 || std::count(f_->runs.begin(), f_->runs.end(), index))
      return fail("operand " + std::to_string(index) + " twice");
    // `%a , %b`: the run goes on.
    std::vector<FormatElement> &es = f_->elements;
    bool extends = es.size() >= 2 && es.back().kind == FormatElement::Punct &&
                   es.back().text == "," && es[es.size() - 2].kind == FormatElement::Operands &&
                   !es[es.size() - 2].variadic;
    if (extends)
      es.pop_back();
    else {
      FormatElement e;
      e.kind = FormatElement::Operands;
      e.first = static_cast<uint8_t>(f_->runs.size());
      es.push_back(e);
    }
    FormatElement &run = es.back();
    f_->runs.push_back(static_cast<uint8_t>(index));
    run.variadic = variadic;
    if (!variadic)
      ++run.count;
    if (variadic)
      variadicFrom_ = index;
    if (groups_.empty()) {
      if (variadic)
        required_ = std::max<uint32_t>(required_, nonEmpty ? index + 1 : index);
      else
        required_ = std::max<uint32_t>(required_, index + 1);
    }
    return true;
  }

  bool elements() {
    std::string_view t = format_;
    size_t i = 0;
    while (i < t.size()) {
      char c = t[i];
      if (c == ' ') {
        ++i;
      } else if (t.substr(i, 2) == "->") {
        push({FormatElement::Punct, FormatElement::Generic, 0, 0, 0, false, 0, -1, "->"});
        i += 2;
      } else if (std::string_view(",:()[]=").find(c) != std::string_view::npos) {
        push({FormatElement::Punct, FormatElement::Generic, 0, 0, 0, false, 0, -1, t.substr(i, 1)});
        ++i;
      } else if (c == '{') {
        groups_.push_back(f_->elements.size());
        FormatElement g;
        g.kind = FormatElement::Group;
        push(g);
        ++i;
      } else if (c == '}') {
        if (groups_.empty())
          return fail("'}' without '{'");
        FormatElement &g = f_->elements[groups_.back()];
        g.end = static_cast<uint16_t>(f_->elements.size());
        if (!group(groups_.back()))
          return false;
        groups_.pop_back();
        ++i;
      } else if (c == '%') {
        if (!operand(t, i))
          return false;
      } else if (c == '$') {
        ++i;
        if (!attribute(FormatElement::Generic, word(t, i, isLower)))
          return false;
      } else if ((c == '"' || c == '<' || c == '@' || c == '!') && t.substr(i + 1, 1) == "$") {
        i += 2;
        std::string_view name = word(t, i, isLower);
        FormatElement::Style style = c == '"'   ? FormatElement::Quoted
                                     : c == '<' ? FormatElement::Angle
                                     : c == '@' ? FormatElement::Symbol
                                                : FormatElement::TypeOf;
        if ((c == '"' || c == '<') && (i >= t.size() || t[i] != (c == '"' ? '"' : '>')))
          return fail("unterminated " + std::string(1, c) + "$" + std::string(name));
        if (c == '"' || c == '<')
          ++i;
        if (!attribute(style, name))
          return false;
      } else if (t.substr(i, 9) == "attr-dict") {
        FormatElement e;
        e.kind = FormatElement::AttrDict;
        push(e);
        f_->hasAttrDict = true;
        i += 9;
      } else if (isUpper(c)) {
        std::string_view name = word(t, i, isWordChar);
        bool list = t.substr(i, 3) == "...";
        if (list)
          i += 3;
        FormatElement e;
        e.kind = list ? FormatElement::TypeList : FormatElement::TypeVar;
        e.var = var(name, list);
        printed_[e.var] = true;
        push(e);
      } else if (isLower(c)) {
        push({FormatElement::Keyword, FormatElement::Generic, 0, 0, 0, false, 0, -1,
              word(t, i, isLower)});
      } else {
        return fail("unexpected '" + std::string(1, c) + "' in the format");
      }
    }
    return groups_.empty() || fail("'{' without '}'");
  }

  /// An optional group starts with a punctuation or word (what the parser looks for) and is
  /// anchored on its first operand or attribute.
  bool group(size_t at) {
    FormatElement &g = f_->elements[at];
    if (g.end == at + 1)
      return fail("an empty group");
    const FormatElement &first = f_->elements[at + 1];
    if (first.kind != FormatElement::Punct && first.kind != FormatElement::Keyword)
      return fail("a group must start with a punctuation or a word");
    for (size_t k = at + 1; k < g.end; ++k) {
      const FormatElement &e = f_->elements[k];
      if (e.kind == FormatElement::Operands) {
        if (e.variadic || e.count != 1)
          return fail("a group's anchor must be one operand");
        g.anchorOperand = f_->runs[e.first];
        return true;
      }
      if (e.kind == FormatElement::Attr) {
        g.text = e.text;
        return true;
      }
    }
    return fail("a group without an operand or attribute");
  }

  // --- The signature -------------------------------------------------------------------------

  bool typeExpr(std::string_view t, size_t &i, TypeExpr &e, bool result) {
    while (i < t.size() && t[i] == ' ')
      ++i;
    if (i >= t.size())
      return fail("expected a type in the signature");
    if (t[i] == '?') {
      ++i;
      e = {TypeExpr::Any, 0};
      return true;
    }
    bool hint = t[i] == '~';
    if (hint)
      ++i;
    std::string_view w = word(t, i, isWordChar);
    if (w.empty())
      return fail("expected a type in the signature");
    if (hint) {
      e = {TypeExpr::Hint, var(w, false)};
      return true;
    }
    static constexpr std::pair<std::string_view, TypeExpr::Kind> kFunctions[] = {
        {"bool", TypeExpr::Bool},       {"elem", TypeExpr::Elem},   {"pointee", TypeExpr::Pointee},
        {"member0", TypeExpr::Member0}, {"image", TypeExpr::Image},
    };
    if (w == "i1" || w == "i32" || w == "infer") {
      if (w == "infer" && !result)
        return fail("only the result is inferred");
      e = {w == "i1" ? TypeExpr::I1 : w == "i32" ? TypeExpr::I32 : TypeExpr::Infer, 0};
      return true;
    }
    for (auto [name, kind] : kFunctions)
      if (w == name) {
        if (i >= t.size() || t[i] != '(')
          return fail("expected '(' after " + std::string(name));
        std::string_view v = word(t, ++i, isWordChar);
        if (v.empty() || !isUpper(v[0]) || i >= t.size() || t[i] != ')')
          return fail("expected a variable in " + std::string(name) + "(...)");
        ++i;
        e = {kind, var(v, false)};
        return true;
      }
    if (!isUpper(w[0]))
      return fail("unknown type " + std::string(w) + " in the signature");
    e = {TypeExpr::Var, var(w, false)};
    plain_[e.var] = true;
    return true;
  }

  bool types() {
    std::string_view t = signature_;
    size_t i = 0;
    auto skip = [&] {
      while (i < t.size() && t[i] == ' ')
        ++i;
    };
    skip();
    if (i >= t.size() || t[i] != '(')
      return fail("a signature starts with '('");
    ++i;
    skip();
    while (i < t.size() && t[i] != ')') {
      if (f_->tail != OpFormat::Tail::None)
        return fail("a repeated type or a list comes last");
      size_t start = i;
      std::string_view w = word(t, i, isWordChar);
      if (!w.empty() && isUpper(w[0]) && t.substr(i, 3) == "...") {
        i += 3;
        f_->tail = OpFormat::Tail::List;
        f_->tailType = {TypeExpr::Var, var(w, true)};
        plain_[f_->tailType.var] = true;
      } else {
        i = start;
        TypeExpr e;
        if (!typeExpr(t, i, e, false))
          return false;
        if (i < t.size() && t[i] == '*') {
          ++i;
          f_->tail = OpFormat::Tail::Repeat;
          f_->tailType = e;
        } else {
          f_->operandTypes.push_back(e);
        }
      }
      skip();
      if (i < t.size() && t[i] == ',') {
        ++i;
        skip();
      } else if (i >= t.size() || t[i] != ')') {
        return fail("expected ',' or ')' in the signature");
      }
    }
    if (i >= t.size())
      return fail("expected ')' in the signature");
    ++i;
    skip();
    if (t.substr(i, 2) != "->")
      return fail("expected '->' in the signature");
    i += 2;
    skip();
    if (t.substr(i, 2) == "()") {
      i += 2;
    } else {
      f_->hasResult = true;
      if (!typeExpr(t, i, f_->resultType, true))
        return false;
    }
    skip();
    return i == t.size() || fail("unexpected text after the signature");
  }

  // --- Consistency ---------------------------------------------------------------------------

  bool check(bool infers) {
    f_->numVars = static_cast<uint8_t>(vars_.size());
    for (const auto &[name, slot] : vars_) {
      if (!printed_[slot])
        return fail("variable " + std::string(name) + " is never printed");
      if (!plain_[slot])
        return fail("variable " + std::string(name) + " is no operand's or result's own type");
    }
    bool inferred = f_->hasResult && f_->resultType.kind == TypeExpr::Infer;
    if (inferred != infers)
      return fail(infers ? "an infer hook without 'infer'" : "'infer' without an infer hook");
    if (f_->hasResult != info_.hasResultType() && (info_.inst || info_.ext))
      return fail("the signature and the instruction differ on the result");
    // Operand counts: what the format shows, the signature types and the grammar allows.
    constexpr uint32_t kUnbounded = std::numeric_limits<uint32_t>::max();
    uint32_t shown = 0;
    for (uint8_t index : f_->runs)
      shown = std::max<uint32_t>(shown, index + 1u);
    for (uint32_t k = 0; k < shown; ++k)
      if (std::count(f_->runs.begin(), f_->runs.end(), k) == 0 && k != variadicFrom_)
        return fail("operand " + std::to_string(k) + " is not shown");
    bool variadic = variadicFrom_ != kUnbounded;
    uint32_t least = required_, most = variadic ? kUnbounded : shown;
    if (f_->tail == OpFormat::Tail::None)
      most = std::min<uint32_t>(most, static_cast<uint32_t>(f_->operandTypes.size()));
    if (info_.inst || info_.ext) {
      uint32_t gLeast = 0, gMost = 0;
      bool gUnbounded = false;
      for (const OperandMapping &m : info_.operands) {
        if (m.kind != OperandMapping::Kind::Value)
          continue;
        if (m.quantifier == grammar::Quantifier::One)
          ++gLeast, ++gMost;
        else if (m.quantifier == grammar::Quantifier::Optional)
          ++gMost;
        else
          gUnbounded = true;
      }
      least = std::max(least, gLeast);
      if (!gUnbounded)
        most = std::min(most, gMost);
    }
    if (least > most)
      return fail("no operand count fits the format, the signature and the grammar");
    f_->minOperands = least;
    f_->maxOperands = most;
    return true;
  }

  const OpInfo &info_;
  std::string_view format_, signature_;
  OpFormat *f_ = nullptr;
  std::string problem_;
  std::map<std::string_view, uint8_t> vars_;
  std::vector<bool> isList_, printed_, plain_;
  std::vector<size_t> groups_;
  uint32_t required_ = 0;
  uint32_t variadicFrom_ = std::numeric_limits<uint32_t>::max();
};

} // namespace

namespace detail {

bool compileFormat(const OpInfo &info, std::string_view format, std::string_view signature,
                   bool infers, OpFormat &out, std::string &problem) {
  return Compiler(info, format, signature).run(out, infers, problem);
}

} // namespace detail

Type evalType(Context &context, const TypeExpr &e, std::span<const Type> vars, std::string &problem,
              uint8_t &blamed) {
  Type v = e.var < vars.size() ? vars[e.var] : Type();
  blamed = e.var;
  auto need = [&](TypeKind kind, const char *what) {
    if (v.is(kind))
      return true;
    problem = std::string("expected ") + what;
    return false;
  };
  switch (e.kind) {
  case TypeExpr::Var:
  case TypeExpr::Hint:
    return v;
  case TypeExpr::Bool:
    return v.is(TypeKind::Vector) ? context.vector(context.boolean(), v.count())
                                  : context.boolean();
  case TypeExpr::Elem:
    return need(TypeKind::Vector, "a vector type") ? v.elementType() : Type();
  case TypeExpr::Pointee:
    return need(TypeKind::Pointer, "a pointer type") ? v.elementType() : Type();
  case TypeExpr::Image:
    return need(TypeKind::SampledImage, "a sampled image type") ? v.elementType() : Type();
  case TypeExpr::Member0:
    // The ops that name their operands' type by their result's (IAddCarry and the like) have
    // a struct of two members, as MLIR's parser of their custom form says.
    if (!v.is(TypeKind::Struct) || v.members().size() != 2) {
      problem = "expected spirv.struct type with two members";
      return {};
    }
    return v.members()[0].type;
  case TypeExpr::I1:
    return context.boolean();
  case TypeExpr::I32:
    return context.integer(32);
  case TypeExpr::Any:
  case TypeExpr::Infer:
    return {};
  }
  return {};
}

bool matchType(const TypeExpr &e, Type actual, std::span<const Type> vars) {
  Type v = e.var < vars.size() ? vars[e.var] : Type();
  auto signlessBool = [](Type t) { return t.isBool() && t.signedness() == Signedness::Signless; };
  switch (e.kind) {
  case TypeExpr::Var:
    return actual == v;
  case TypeExpr::Bool:
    if (v.is(TypeKind::Vector))
      return actual.is(TypeKind::Vector) && actual.count() == v.count() &&
             signlessBool(actual.elementType());
    return signlessBool(actual);
  case TypeExpr::Elem:
  case TypeExpr::Pointee:
  case TypeExpr::Image: {
    TypeKind kind = e.kind == TypeExpr::Elem      ? TypeKind::Vector
                    : e.kind == TypeExpr::Pointee ? TypeKind::Pointer
                                                  : TypeKind::SampledImage;
    return v.is(kind) && v.elementType() == actual;
  }
  case TypeExpr::Member0:
    return v.is(TypeKind::Struct) && !v.members().empty() && v.members()[0].type == actual;
  case TypeExpr::I1:
    return signlessBool(actual);
  case TypeExpr::I32:
    return actual.is(TypeKind::Integer) && actual.width() == 32 &&
           actual.signedness() == Signedness::Signless;
  case TypeExpr::Hint:
  case TypeExpr::Any:
    return true;
  case TypeExpr::Infer:
    return false; // the infer hook checks
  }
  return false;
}

std::string parseCheckedProblem(const Operation &op, const OpFormat &f) {
  if (f.parseCheckedOperand.empty())
    return {};
  constexpr std::string_view kFirst = "operand #0 must be ";
  std::string problem = TypeVerifier().check(op);
  if (!problem.starts_with(kFirst))
    return {};
  return "'" + std::string(f.parseCheckedOperand) + "' must be " + problem.substr(kFirst.size());
}

} // namespace spire::dialect
