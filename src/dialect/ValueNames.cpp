// The names the printer gives values and blocks, as mlir-translate-16 picks them: constants
// after their value and type (%cst0_i32, %true, %cst_vec_2xf32), addresses after their symbol
// (%pos_addr), entry block arguments %argN, the rest numbered per region, `_N` suffixes where a
// name is taken, and ^bbN blocks with their predecessors.
#include "TextPrinter.h"

#include "spire/dialect/Ops.h"

#include <charconv>

namespace spire::dialect {

namespace {

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

} // namespace

void TextPrinter::number(const Operation &root) {
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

void TextPrinter::numberRegion(const Region &region) {
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

void TextPrinter::numberResults(const Operation &op) {
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

void TextPrinter::setName(Value v, std::string_view raw) {
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

std::string TextPrinter::nameHint(const Operation &op) {
  if (&op.info() == &ops::addressOf()) {
    Attribute v = op.attr("variable");
    return v.is(AttrKind::SymbolRef) ? std::string(v.str()) + "_addr" : std::string();
  }
  if (&op.info() != &ops::constant())
    return {};
  Type type = op.result(0).type();
  Attribute value = op.attr("value");
  std::string name = "cst";
  bool isInt = type && type.is(TypeKind::Integer);
  if (value.is(AttrKind::Bool) || value.is(AttrKind::Integer)) {
    if (isInt && type.width() == 1)
      return (value.is(AttrKind::Bool) ? value.boolValue() : value.bits() != 0) ? "true" : "false";
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

void TextPrinter::appendNumber(int64_t n) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, n);
  out_.append(buf, r.ptr);
}

/// A value's name: `%name`, `%7`, or `%7#1` for a result of a group.
void TextPrinter::use(Value v) {
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
void TextPrinter::results(const Operation &op) {
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

std::string TextPrinter::blockName(const Block *b) {
  auto it = blockIds_.find(b);
  return it == blockIds_.end() ? "^INVALIDBLOCK" : "^bb" + std::to_string(it->second);
}

} // namespace spire::dialect
