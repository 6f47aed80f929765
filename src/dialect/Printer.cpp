// The generic parts of the printer (TextPrinter.h): ops in the generic form, regions and blocks,
// and the custom syntax of an op's record: its format, written element by element (OpFormat.h)
// when the text would read back as the same op, or its print hook. An op whose custom syntax
// cannot show all its attributes or types prints in the generic form, so that the text always
// parses back to the same IR.
#include "TextPrinter.h"

#include "AsmText.h"
#include "OpFormat.h"

#include <algorithm>
#include <array>
#include <string>
#include <string_view>

namespace spire::dialect {

using namespace std::string_view_literals;

void TextPrinter::top(const Operation &op) {
  number(op);
  // About a line of 50 bytes per op, or a chunk when the text goes to a sink.
  out_.reserve(out_.size() + (sink_ ? kStreamChunk + 4096 : numbered_ * 56));
  const size_t start = out_.size();
  if (opts_.debugInfo && !opts_.localScope) {
    if (opts_.builtinModule) {
      locAliases_.emplace(nullptr, 0);
      locOrder_.push_back(nullptr);
    }
    numberLocations(op);
  }
  topLevel(op);
  if (!locOrder_.empty()) {
    // As MLIR prints them: the alias of the unknown position in front when a block argument
    // printed it in place, the others after the op. (Printing with positions is not streamed:
    // the aliases in front are known only at the end.)
    std::string body = out_.substr(start);
    out_.resize(start);
    locationAliases(false);
    out_ += body;
    locationAliases(true);
  }
  if (sink_ && !out_.empty())
    flush();
}

void TextPrinter::topLevel(const Operation &op) {
  if (!opts_.builtinModule) {
    operation(op, 0);
    return;
  }
  out_ += opts_.generic ? "\"builtin.module\"() ({\n" : "module {\n";
  operation(op, 2);
  out_ += opts_.generic ? "}) : () -> ()" : "}";
  if (opts_.debugInfo)
    location(nullptr, true);
  out_ += '\n';
}

void TextPrinter::openModule(const Operation &module, std::string &tail) {
  findNamedOps();
  numberResults(module);
  scopes_.push_back({scopeNames_.size(), lazyLive_.size()}); // the body's scope (bodyOp())
  bodyNextValue_ = nextValue_;
  bodyNextArg_ = nextArg_;
  bodyNextConflict_ = nextConflict_;
  out_.reserve(out_.size() + kStreamChunk + 4096);
  // Printed whole, the body left out, and cut where it goes: no piece leaves before the cut.
  const std::function<void(std::string_view)> *sink = sink_;
  sink_ = nullptr;
  deferred_ = module.numRegions() == 1 ? &module.region(0) : nullptr;
  const size_t start = out_.size();
  deferMark_ = start;
  topLevel(module);
  if (!deferred_)
    deferMark_ = out_.size(); // nothing to stream into
  deferred_ = nullptr;
  sink_ = sink;
  tail.assign(out_, deferMark_, std::string::npos);
  out_.resize(deferMark_);
  flushAll();
}

void TextPrinter::bodyOp(const Operation &op) {
  nextValue_ = bodyNextValue_;
  nextArg_ = bodyNextArg_;
  nextConflict_ = bodyNextConflict_;
  bodyResults_ = true;
  numberResults(op);
  bodyResults_ = false;
  bodyNextValue_ = nextValue_;
  bodyNextArg_ = nextArg_;
  bodyNextConflict_ = nextConflict_;
  numberRegions(op, 1);
  operation(op, bodyIndent_);
  // The op's blocks go once it is printed (ModuleTextStream erases it).
  blockIds_.clear();
  preds_.clear();
  if (sink_ && out_.size() >= kStreamChunk)
    flush();
}

void TextPrinter::operation(const Operation &op, unsigned ind) {
  indent(ind);
  if (op.numResults() > 0) {
    results(op);
    out_ += " = "sv;
  }
  size_t mark = out_.size();
  if (opts_.generic || !custom(op, ind)) {
    out_.resize(mark);
    generic(op, ind);
  }
  if (opts_.debugInfo)
    location(op.debugLoc(), true);
  out_ += '\n';
  // Only between ops: an op's printer may still fall back to the generic form and discard what
  // it wrote, but not once it prints a region, which is where every nested op is printed.
  if (sink_ && !opts_.debugInfo && out_.size() >= kStreamChunk)
    flush();
}

// --- Source positions ----------------------------------------------------------------------------

void TextPrinter::numberLocations(const Operation &op) {
  if (locAliases_.emplace(op.debugLoc(), static_cast<uint32_t>(locOrder_.size())).second)
    locOrder_.push_back(op.debugLoc());
  for (uint32_t r = 0; r < op.numRegions(); ++r)
    for (const Block *b : op.region(r))
      for (const Operation *child : *b)
        numberLocations(*child);
}

void TextPrinter::location(const DebugLoc *l, bool alias) {
  out_ += " loc("sv;
  if (alias && !opts_.localScope) {
    const uint32_t n = locAliases_.at(l);
    out_ += n ? "#loc" + std::to_string(n) : std::string("#loc");
  } else if (!l) {
    out_ += "unknown";
  } else {
    printString(l->file, out_);
    out_ += ':' + std::to_string(l->line) + ':' + std::to_string(l->column);
  }
  out_ += ')';
}

void TextPrinter::argumentLocation() {
  if (!opts_.debugInfo)
    return;
  argumentsPrinted_ = true;
  location(nullptr, false);
}

void TextPrinter::locationAliases(bool deferred) {
  for (uint32_t n = 0; n < locOrder_.size(); ++n) {
    const DebugLoc *l = locOrder_[n];
    if (deferred == (!l && argumentsPrinted_))
      continue;
    out_ += n ? "#loc" + std::to_string(n) : std::string("#loc");
    out_ += " =";
    location(l, false);
    out_ += '\n';
  }
}

void TextPrinter::generic(const Operation &op, unsigned ind) {
  out_ += '"';
  name(op.name());
  out_ += "\"("sv;
  uint32_t n = op.numOperands();
  for (uint32_t i = 0; i < n; ++i) {
    if (i)
      out_ += ", "sv;
    use(op.operand(i));
  }
  out_ += ')';
  if (!op.successors().empty()) {
    out_ += '[';
    bool first = true;
    for (const Successor &s : op.successors()) {
      if (!first)
        out_ += ", "sv;
      first = false;
      blockName(s.block);
    }
    out_ += ']';
  }
  if (op.numRegions() > 0) {
    out_ += " ("sv;
    for (uint32_t r = 0; r < op.numRegions(); ++r) {
      if (r)
        out_ += ", "sv;
      region(op.region(r), ind, true);
    }
    out_ += ')';
  }
  genericAttrs(op);
  functionalType(op, n);
}

void TextPrinter::functionalType(const Operation &op, uint32_t n) {
  out_ += " : ("sv;
  types(op, 0, n);
  out_ += ") -> "sv;
  resultTypes(op);
}

void TextPrinter::name(std::string_view name) {
  if (opts_.version == MlirVersion::Mlir15)
    out_ += spelledIn(name, MlirVersion::Mlir15);
  else
    out_ += name;
}

void TextPrinter::resultTypes(const Operation &op) {
  bool parens = op.numResults() != 1 || op.result(0).type().is(TypeKind::Function);
  if (parens)
    out_ += '(';
  for (uint32_t i = 0; i < op.numResults(); ++i) {
    if (i)
      out_ += ", "sv;
    type(op.result(i).type());
  }
  if (parens)
    out_ += ')';
}

void TextPrinter::attrEntry(const NamedAttribute &a, bool &first) {
  out_ += first ? ""sv : ", "sv;
  first = false;
  if (isBareIdentifier(a.name))
    name(a.name);
  else
    printString(a.name, out_);
  if (a.attr().is(AttrKind::LinkageAttributes) && mlir16()) {
    // MLIR 16 has no #spirv.linkage_attributes: the name and the type as an array.
    out_ += " = [";
    printString(a.attr().str(), out_);
    constexpr grammar::OperandKind kLinkage = grammar::OperandKind::LinkageType;
    out_ += ", #";
    out_ += dialectPrefix(version());
    out_ += "." + enumAttrName(kLinkage) + "<" + enumText(kLinkage, a.attr().enumValue()) + ">]";
  } else if (!a.attr().is(AttrKind::Unit)) {
    out_ += " = "sv;
    print(a.attr(), out_, version());
  }
}

void TextPrinter::genericAttrs(const Operation &op) {
  // MLIR's BranchConditional has operand_segment_sizes; other ops with successors get it where
  // their successors take operands (except spirv.Branch, whose operands are all its
  // successor's), so that the text keeps which operands go where.
  const OpKey key = op.info().key;
  bool segments = key == grammar::Op::BranchConditional && op.successors().size() == 2;
  if (!segments && key != grammar::Op::Branch)
    for (const Successor &sc : op.successors())
      segments = segments || sc.numOperands > 0;
  if (op.attributes().empty() && !segments)
    return;
  out_ += " {"sv;
  bool first = true;
  constexpr std::string_view kSegments = "operand_segment_sizes";
  auto emitSegments = [&] {
    out_ += first ? ""sv : ", "sv;
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

void TextPrinter::attrDict(const Operation &op, std::span<const std::string_view> elided) {
  bool first = true;
  for (const NamedAttribute &a : op.attributes()) {
    if (std::find(elided.begin(), elided.end(), a.name) != elided.end())
      continue;
    if (first)
      out_ += " {"sv;
    attrEntry(a, first);
  }
  if (!first)
    out_ += '}';
}

bool TextPrinter::onlyAttrs(const Operation &op, std::initializer_list<std::string_view> allowed) {
  for (const NamedAttribute &a : op.attributes())
    if (std::find(allowed.begin(), allowed.end(), a.name) == allowed.end())
      return false;
  return true;
}

void TextPrinter::region(const Region &r, unsigned ind, bool entryArgs) {
  out_ += "{\n"sv;
  if (&r == deferred_) {
    deferMark_ = out_.size();
    bodyIndent_ = ind + 2;
  } else {
    for (const Block *b : r)
      block(*b, ind + 2, b == r.front(), entryArgs);
  }
  indent(ind);
  out_ += '}';
}

void TextPrinter::block(const Block &b, unsigned ind, bool entry, bool entryArgs) {
  if (!entry || (entryArgs && (b.numArguments() > 0 || b.empty() || preds_.count(&b)))) {
    indent(ind - 2);
    blockName(&b);
    if (b.numArguments() > 0) {
      out_ += '(';
      for (uint32_t i = 0; i < b.numArguments(); ++i) {
        if (i)
          out_ += ", "sv;
        use(b.argument(i));
        out_ += ": "sv;
        type(b.argument(i).type());
        argumentLocation();
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

void TextPrinter::predecessors(const Block &b, bool entry) {
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

void TextPrinter::operands(const Operation &op, uint32_t first, uint32_t end) {
  for (uint32_t i = first; i < end; ++i) {
    if (i > first)
      out_ += ", "sv;
    use(op.operand(i));
  }
}

void TextPrinter::types(const Operation &op, uint32_t first, uint32_t end) {
  for (uint32_t i = first; i < end; ++i) {
    if (i > first)
      out_ += ", "sv;
    type(op.operand(i).type());
  }
}

void TextPrinter::typeText(Type t, std::string &out) {
  if (!t.opaque()) {
    print(t, out, version());
    return;
  }
  typeText_.append(t.opaque(), out, [&](std::string &text) { print(t, text, version()); });
}

void TextPrinter::attribute(Attribute a) {
  if (!a.storage()) {
    print(a, out_, version());
    return;
  }
  attrText_.append(a.storage(), out_, [&](std::string &text) { print(a, text, version()); });
}

void TextPrinter::enumerant(grammar::OperandKind kind, uint32_t value) {
  const uint64_t key = (uint64_t(kind) + 1) << 32 | value;
  enumText_.append(reinterpret_cast<const void *>(static_cast<uintptr_t>(key)), out_,
                   [&](std::string &text) { text += enumText(kind, value); });
}

void TextPrinter::successor(const Operation &op, const Successor &s) {
  blockName(s.block);
  if (s.numOperands == 0)
    return;
  out_ += '(';
  operands(op, s.firstOperand, s.firstOperand + s.numOperands);
  out_ += " : "sv;
  types(op, s.firstOperand, s.firstOperand + s.numOperands);
  out_ += ')';
}

/// Whether a region's entry block is a branch target (so that its label must be printed,
/// which the custom forms do not do).
bool TextPrinter::entryTargeted(const Operation &op) const {
  for (uint32_t i = 0; i < op.numRegions(); ++i)
    if (const Block *entry = op.region(i).front())
      if (preds_.count(entry))
        return true;
  return false;
}

// --- Custom syntax -----------------------------------------------------------------------------

bool TextPrinter::custom(const Operation &op, unsigned ind) {
  const OpSyntax *syntax = op.info().syntax;
  if (!syntax || entryTargeted(op) || (mlir16() && syntax->newerThanMlir16))
    return false;
  if (!syntax->printsName)
    name(op.name());
  if (syntax->print)
    return syntax->print(op, *this, ind);
  const OpFormat *format = syntax->format(op.info());
  return format && formatted(op, *format);
}

namespace {

/// Whether the attribute an element shows is one it can show.
bool shows(const FormatElement &e, Attribute a) {
  switch (e.style) {
  case FormatElement::Generic:
    return bool(a);
  case FormatElement::Quoted:
  case FormatElement::Angle:
    return a.is(AttrKind::Enum) && a.enumKind() == e.enumKind;
  case FormatElement::Symbol:
    return a.is(AttrKind::SymbolRef);
  case FormatElement::TypeOf:
    return a.is(AttrKind::Type);
  }
  return false;
}

} // namespace

bool TextPrinter::formatted(const Operation &op, const OpFormat &f) {
  const uint32_t n = op.numOperands();
  if (!op.successors().empty() || op.numRegions() || n < f.minOperands || n > f.maxOperands ||
      op.numResults() != (f.hasResult ? 1u : 0u) || !parseCheckedProblem(op, f).empty())
    return false;
  // The custom form reads back as this op only when the types it does not show are those the
  // signature gives: bind the variables to the types they show, then check the rest.
  std::array<Type, 8> vars{};
  const size_t fixed = f.operandTypes.size();
  const bool listed = f.tail == OpFormat::Tail::List;
  auto typeOf = [&](uint32_t i) -> const TypeExpr * {
    return i < fixed ? &f.operandTypes[i] : listed ? nullptr : &f.tailType;
  };
  auto bind = [&](const TypeExpr &e, Type actual) {
    if (e.kind != TypeExpr::Var)
      return true;
    if (!vars[e.var])
      vars[e.var] = actual;
    return vars[e.var] == actual;
  };
  for (uint32_t i = 0; i < n; ++i)
    if (const TypeExpr *e = typeOf(i); e && !bind(*e, op.operand(i).type()))
      return false;
  Type r = f.hasResult ? op.result(0).type() : Type();
  if (f.hasResult && !bind(f.resultType, r))
    return false;
  for (uint32_t i = 0; i < n; ++i)
    if (const TypeExpr *e = typeOf(i);
        e && e->kind != TypeExpr::Var && !matchType(*e, op.operand(i).type(), vars))
      return false;
  if (f.hasResult && f.resultType.kind != TypeExpr::Var) {
    if (f.resultType.kind == TypeExpr::Infer) {
      InferQuery q;
      q.op = &op;
      q.result = r;
      if (!f.infer(op.info(), q))
        return false;
    } else if (!matchType(f.resultType, r, vars)) {
      return false;
    }
  }
  // Every attribute is shown by an element (of a group that is there) or the dictionary.
  const std::vector<FormatElement> &es = f.elements;
  auto present = [&](const FormatElement &g) {
    return g.anchorOperand >= 0 ? n > static_cast<uint32_t>(g.anchorOperand)
                                : bool(op.attr(g.text));
  };
  for (size_t i = 0; i < es.size(); ++i) {
    if (es[i].kind == FormatElement::Group && !present(es[i]))
      i = es[i].end - 1;
    else if (es[i].kind == FormatElement::Attr && !shows(es[i], op.attr(es[i].text)))
      return false;
  }
  if (!f.hasAttrDict)
    for (const NamedAttribute &a : op.attributes())
      if (std::find(f.shownAttrs.begin(), f.shownAttrs.end(), a.name) == f.shownAttrs.end())
        return false;
  // Then the text: a space before each element but after an opening bracket and before closing
  // ones and commas; `(` and `[` follow an operand, symbol or word directly (%v[%i],
  // cluster_size(%c), @f(...)), and so does an attribute in MLIR's syntax an operand (%v[0 : i32]).
  enum class Prev { Word, Open, Operand, Glue } prev = Prev::Word;
  auto space = [&](bool glued = false) {
    if (prev != Prev::Open && !(glued && prev != Prev::Word))
      out_ += ' ';
  };
  for (size_t i = 0; i < es.size(); ++i) {
    const FormatElement &e = es[i];
    switch (e.kind) {
    case FormatElement::Group:
      if (!present(e))
        i = e.end - 1;
      continue;
    case FormatElement::Punct: {
      char c = e.text[0];
      bool open = e.text == "(" || e.text == "[";
      // A bracket that opens an optional group (a memory access: `%2 ["Volatile"]`) is spaced
      // as a word; one after an operand otherwise indexes it (`%0[%1]`).
      bool opensGroup = i > 0 && es[i - 1].kind == FormatElement::Group;
      if (open && !opensGroup)
        space(true);
      else if (c != ',' && c != ')' && c != ']')
        space();
      out_ += e.text;
      prev = open ? Prev::Open : Prev::Word;
      continue;
    }
    case FormatElement::Keyword:
      space();
      out_ += e.text;
      prev = Prev::Glue;
      continue;
    case FormatElement::Operands: {
      space();
      uint32_t end = e.variadic ? n : 0;
      for (uint32_t k = 0; k < e.count; ++k) {
        out_ += k ? ", "sv : ""sv;
        use(op.operand(f.runs[e.first + k]));
      }
      for (uint32_t k = e.variadic ? f.runs[e.first + e.count] : 0; k < end; ++k) {
        out_ += k != f.runs[e.first + e.count] || e.count ? ", "sv : ""sv;
        use(op.operand(k));
      }
      prev = Prev::Operand;
      continue;
    }
    case FormatElement::Attr: {
      Attribute a = op.attr(e.text);
      space(e.style == FormatElement::Generic && prev == Prev::Operand);
      switch (e.style) {
      case FormatElement::Generic:
        attribute(a);
        break;
      case FormatElement::Quoted:
      case FormatElement::Angle: {
        bool quoted = e.style == FormatElement::Quoted || (f.quotedInMlir16 && mlir16());
        out_ += quoted ? '"' : '<';
        enumerant(e.enumKind, a.enumValue());
        out_ += quoted ? '"' : '>';
        break;
      }
      case FormatElement::Symbol:
        printSymbol(a.str(), out_);
        break;
      case FormatElement::TypeOf:
        type(a.type());
        break;
      }
      prev = e.style == FormatElement::Symbol ? Prev::Glue : Prev::Word;
      continue;
    }
    case FormatElement::AttrDict: {
      size_t mark = out_.size();
      attrDict(op, f.shownAttrs);
      if (out_.size() != mark)
        prev = Prev::Word;
      continue;
    }
    case FormatElement::TypeVar:
      space();
      type(vars[e.var]);
      prev = Prev::Word;
      continue;
    case FormatElement::TypeList:
      space();
      types(op, static_cast<uint32_t>(fixed), n);
      prev = Prev::Word;
      continue;
    }
  }
  if (f.printsArrow && !mlir16()) {
    out_ += " -> "sv;
    type(r);
  }
  return true;
}

void print(const Operation &op, std::string &out, const PrintOptions &options) {
  TextPrinter(out, options).top(op);
}

void print(const Operation &op, const std::function<void(std::string_view)> &sink,
           const PrintOptions &options) {
  std::string chunk;
  TextPrinter printer(chunk, options);
  printer.streamTo(&sink);
  printer.top(op);
}

struct ModuleTextStream::State {
  State(std::function<void(std::string_view)> s, const PrintOptions &options)
      : sink(std::move(s)), printer(chunk, options) {
    printer.streamTo(&sink);
  }
  std::function<void(std::string_view)> sink;
  std::string chunk, tail;
  TextPrinter printer;
  bool opened = false;
  const Operation *last = nullptr; ///< the last op printed and kept (printBody without erase)
};

ModuleTextStream::ModuleTextStream(std::function<void(std::string_view)> sink,
                                   const PrintOptions &options)
    : state_(std::make_unique<State>(std::move(sink), options)) {}

ModuleTextStream::~ModuleTextStream() = default;

bool ModuleTextStream::supports(const PrintOptions &options) {
  return !options.generic && (!options.debugInfo || options.localScope);
}

void ModuleTextStream::printBody(Operation &module, bool erase) {
  if (!state_->opened) {
    state_->printer.openModule(module, state_->tail);
    state_->opened = true;
  }
  Block *body = module.numRegions() == 1 ? module.region(0).front() : nullptr;
  if (!body)
    return;
  Operation *op = state_->last ? state_->last->next() : body->front();
  while (op) {
    state_->printer.bodyOp(*op);
    Operation *next = op->next();
    if (erase)
      op->erase();
    else
      state_->last = op;
    op = next;
  }
}

void ModuleTextStream::finish(Operation &module) {
  printBody(module, state_->last == nullptr);
  state_->printer.out() += state_->tail;
  state_->printer.flushAll();
}

std::string toString(const Operation &op, const PrintOptions &options) {
  std::string out;
  print(op, out, options);
  return out;
}

bool hasCustomSyntax(std::string_view opName) {
  const OpInfo *info = findOp(opName);
  return info && info->syntax;
}

} // namespace spire::dialect
