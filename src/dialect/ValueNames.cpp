// The names the printer gives values and blocks, as mlir-translate-16 picks them: constants
// after their value and type (%cst0_i32, %true, %cst_vec_2xf32), addresses after their symbol
// (%pos_addr), entry block arguments %argN, the rest numbered per region, `_N` suffixes where a
// name is taken, and ^bbN blocks with their predecessors.
#include "TextPrinter.h"

#include "spire/dialect/Ops.h"

#include <algorithm>
#include <charconv>

namespace spire::dialect {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isAlnum(char c) { return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

bool keptAsIs(char c) { return isAlnum(c) || c == '$' || c == '.' || c == '_' || c == '-'; }

/// MLIR's sanitizeIdentifier, except that a result starting with a digit always gets a '_' in
/// front (MLIR only checks the first character before escaping, so "@x" gives "40x"). A name
/// that needs nothing of that (most do not) is `name` itself; else it is written into `buffer`.
std::string_view sanitize(std::string_view name, std::string &buffer) {
  bool plain = !name.empty() && !isDigit(name[0]);
  for (size_t i = 0; plain && i < name.size(); ++i)
    plain = keptAsIs(name[i]);
  if (plain)
    return name;
  static const char kHex[] = "0123456789ABCDEF";
  buffer.clear();
  for (char c : name) {
    if (keptAsIs(c)) {
      buffer += c;
    } else if (c == ' ') {
      buffer += '_';
    } else {
      unsigned char u = static_cast<unsigned char>(c);
      if (u >= 16)
        buffer += kHex[u >> 4];
      buffer += kHex[u & 15];
    }
  }
  if (buffer.empty() || isDigit(buffer[0]))
    buffer.insert(buffer.begin(), '_');
  return buffer;
}

/// FNV-1a: names are short, and this is a few instructions a character.
uint32_t hashName(std::string_view name) {
  uint32_t h = 2166136261u;
  for (char c : name)
    h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  return h;
}

/// Appends the decimal digits of `n`.
void appendDecimal(std::string &out, uint64_t n) {
  if (n < 10) {
    out.push_back(static_cast<char>('0' + n));
    return;
  }
  char buf[20];
  auto r = std::to_chars(buf, buf + sizeof buf, n);
  out.append(buf, static_cast<size_t>(r.ptr - buf));
}

/// Appends `%` and the decimal digits of `n`, in one append (a numbered value's name).
void appendValueNumber(std::string &out, uint64_t n) {
  char buf[24];
  char *end = buf + sizeof buf, *at = end;
  do
    *--at = static_cast<char>('0' + n % 10);
  while ((n /= 10) != 0);
  *--at = '%';
  out.append(at, static_cast<size_t>(end - at));
}

/// Appends `n` in decimal, with a '-' when negative.
void appendSigned(std::string &out, int64_t n) {
  if (n < 0)
    out += '-';
  appendDecimal(out, n < 0 ? 0 - static_cast<uint64_t>(n) : static_cast<uint64_t>(n));
}

} // namespace

void TextPrinter::findNamedOps() {
  constantInfo_ = &ops::constant();
  addressOfInfo_ = &ops::addressOf();
}

void TextPrinter::number(const Operation &root) {
  findNamedOps();
  numberResults(root);
  numberRegions(root, 0);
}

void TextPrinter::numberRegions(const Operation &root, size_t parentScopes) {
  std::vector<NameContext> stack;
  for (uint32_t r = root.numRegions(); r-- > 0;)
    stack.push_back({&root.region(r), nextValue_, nextArg_, nextConflict_, parentScopes});
  while (!stack.empty()) {
    NameContext c = stack.back();
    stack.pop_back();
    nextValue_ = c.nextValue;
    nextArg_ = c.nextArg;
    nextConflict_ = c.nextConflict;
    while (scopes_.size() > c.parentScopes) {
      for (size_t i = scopes_.back().names; i < scopeNames_.size(); ++i)
        names_[scopeNames_[i]].live = false;
      scopeNames_.resize(scopes_.back().names);
      lazyLive_.resize(scopes_.back().lazy);
      scopes_.pop_back();
    }
    scopes_.push_back({scopeNames_.size(), lazyLive_.size()});
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
      if (entry) {
        hint_.assign("arg");
        appendDecimal(hint_, nextArg_++);
        setName(b->argument(i), hint_);
      } else
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
  if (op.numResults() == 1 && !opts_.generic) {
    // A constant's name is made of its value and type, an address's of its symbol: made once
    // for each, since a module materializes the same constants at every use.
    const void *named = nullptr, *type = nullptr;
    if (&op.info() == constantInfo_) {
      named = op.attr("value").storage();
      type = op.result(0).type().opaque();
    } else if (&op.info() == addressOfInfo_) {
      if (Attribute v = op.attr("variable"); v.is(AttrKind::SymbolRef))
        named = v.storage();
    }
    if (named) {
      bool added = false;
      HintSlot &slot = hintSlot(named, type, added);
      if (added) {
        nameHint(op, hint_);
        slot.name = baseName(hint_);
      }
      takeName(op.result(0), slot.name);
      return;
    }
    // (Only constants and addresses have hints: the others go without the call.)
    if ((&op.info() == constantInfo_ || &op.info() == addressOfInfo_) && nameHint(op, hint_)) {
      setName(op.result(0), hint_);
      return;
    }
  }
  // One number for all results: a group %3:2 defines %3#0 and %3#1.
  int64_t id = nextValue_++;
  for (uint32_t i = 0; i < op.numResults(); ++i)
    setId(op.result(i).impl(), id);
}

TextPrinter::HintSlot &TextPrinter::hintSlot(const void *named, const void *type, bool &added) {
  if (2 * (hintsUsed_ + 1) > hintNames_.size()) {
    std::vector<HintSlot> old = std::move(hintNames_);
    hintNames_.assign(std::max<size_t>(64, 2 * old.size()), HintSlot{});
    hintsUsed_ = 0; // (counted again as they go back)
    for (const HintSlot &h : old)
      if (h.named) {
        bool unused = false;
        hintSlot(h.named, h.type, unused) = h;
      }
  }
  const size_t mask = hintNames_.size() - 1;
  const uint64_t key = reinterpret_cast<uintptr_t>(named) * 0x9E3779B97F4A7C15ull ^
                       reinterpret_cast<uintptr_t>(type) * 0xC2B2AE3D27D4EB4Full;
  for (size_t i = (key >> 32) & mask;; i = (i + 1) & mask) {
    HintSlot &h = hintNames_[i];
    if (h.named == named && h.type == type)
      return h;
    if (!h.named) {
      h.named = named;
      h.type = type;
      ++hintsUsed_;
      added = true;
      return h;
    }
  }
}

uint32_t TextPrinter::findName(std::string_view name, uint32_t hash) const {
  if (nameSlots_.empty())
    return UINT32_MAX;
  const size_t mask = nameSlots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    const uint32_t slot = nameSlots_[i];
    if (slot == 0)
      return UINT32_MAX;
    const NameRecord &r = names_[slot - 1];
    if (r.hash == hash && r.length == name.size() + 1 &&
        std::string_view(nameText_).substr(r.offset + 1, name.size()) == name)
      return slot - 1;
  }
}

uint32_t TextPrinter::addName(std::string_view name, uint32_t hash) {
  const auto start = static_cast<uint32_t>(nameText_.size());
  nameText_ += '%';
  nameText_ += name;
  const uint32_t index = addRecord(start, static_cast<uint32_t>(name.size() + 1), hash);
  noteSuffixes(index);
  return index;
}

namespace {

/// Where `name` (`%base_N`, N in decimal without leading zeros) has its `_`, or 0.
size_t suffixAt(std::string_view name) {
  size_t i = name.size();
  while (i > 0 && isDigit(name[i - 1]))
    --i;
  if (i == name.size() || i < 3 || name[i - 1] != '_' || (name[i] == '0' && i + 1 < name.size()))
    return 0;
  return i - 1;
}

uint64_t lazyKey(uint32_t base, uint32_t n) { return uint64_t(base) << 32 | n; }

} // namespace

void TextPrinter::noteSuffixes(uint32_t index) {
  const auto text = [&](uint32_t k) {
    return std::string_view(nameText_).substr(names_[k].offset, names_[k].length);
  };
  // Names spelled so come from hints (symbols, constants of unusual types), rarely.
  for (uint32_t k : suffixedRecords_)
    if (const std::string_view other = text(k); other.substr(0, suffixAt(other)) == text(index))
      names_[index].hasSuffixed = true;
  const std::string_view name = text(index);
  const size_t at = suffixAt(name);
  if (at == 0)
    return;
  names_[index].suffixed = true;
  suffixedRecords_.push_back(index);
  const std::string_view base = name.substr(1, at - 1);
  if (const uint32_t b = findName(base, hashName(base)); b != UINT32_MAX)
    names_[b].hasSuffixed = true;
}

bool TextPrinter::takenLazily(uint32_t index) const {
  const std::string_view name =
      std::string_view(nameText_).substr(names_[index].offset, names_[index].length);
  const size_t at = suffixAt(name);
  const std::string_view base = name.substr(1, at - 1);
  const uint32_t b = findName(base, hashName(base));
  uint32_t n = 0;
  std::from_chars(name.data() + at + 1, name.data() + name.size(), n);
  return b != UINT32_MAX &&
         std::find(lazyLive_.begin(), lazyLive_.end(), lazyKey(b, n)) != lazyLive_.end();
}

uint32_t TextPrinter::addRecord(uint32_t offset, uint32_t length, uint32_t hash) {
  if (2 * (names_.size() + 1) > nameSlots_.size()) {
    // Grow (or make: room for about the ops' names) and put every name back.
    std::vector<uint32_t> slots(std::max<size_t>(64, 4 * nameSlots_.size()), 0);
    const size_t mask = slots.size() - 1;
    for (uint32_t k = 0; k < names_.size(); ++k) {
      size_t i = names_[k].hash & mask;
      while (slots[i] != 0)
        i = (i + 1) & mask;
      slots[i] = k + 1;
    }
    nameSlots_ = std::move(slots);
  }
  const uint32_t index = static_cast<uint32_t>(names_.size());
  names_.push_back({offset, length, hash, false});
  const size_t mask = nameSlots_.size() - 1;
  size_t i = hash & mask;
  while (nameSlots_[i] != 0)
    i = (i + 1) & mask;
  nameSlots_[i] = index + 1;
  return index;
}

uint32_t TextPrinter::baseName(std::string_view raw) {
  const std::string_view name = sanitize(raw, sanitized_);
  const uint32_t hash = hashName(name);
  const uint32_t index = findName(name, hash);
  return index != UINT32_MAX ? index : addName(name, hash);
}

void TextPrinter::setName(Value v, std::string_view raw) { takeName(v, baseName(raw)); }

void TextPrinter::takeName(Value v, uint32_t base) {
  uint32_t index = base;
  if (names_[index].live || (names_[index].suffixed && takenLazily(index))) {
    // Taken: the first of name_N, name_N+1, ... that is not (N counts for the whole print).
    // A `_N` no record spells is free but for the names of the regions bodyOp() left; it is
    // given without a record.
    for (;;) {
      const uint32_t n = nextConflict_++;
      const uint64_t key = lazyKey(base, n);
      if (bodyResults_ && std::find(lazyLive_.begin(), lazyLive_.end(), key) != lazyLive_.end())
        continue;
      if (names_[base].hasSuffixed) {
        if (const uint32_t r = suffixedName(base, n); r != UINT32_MAX) {
          if (names_[r].live)
            continue;
          index = r;
          break;
        }
      }
      lazyLive_.push_back(key);
      const auto k = static_cast<int64_t>(lazy_.size());
      lazy_.push_back({base, n, 0, 0});
      setId(v.impl(), -(int64_t(kLazy) + k) - 1);
      return;
    }
  }
  names_[index].live = true;
  scopeNames_.push_back(index);
  setId(v.impl(), -static_cast<int64_t>(index) - 1);
}

namespace {

/// Writes `_n` at the end of `buffer`, returning it.
std::string_view suffixText(uint32_t n, char (&buffer)[16]) {
  char *end = buffer + sizeof buffer, *at = end;
  do
    *--at = static_cast<char>('0' + n % 10);
  while ((n /= 10) != 0);
  *--at = '_';
  return std::string_view(at, static_cast<size_t>(end - at));
}

} // namespace

uint32_t TextPrinter::suffixedName(uint32_t base, uint32_t n) const {
  // The name's hash carried on from the base's (FNV-1a goes character by character): no copy
  // of the base to probe with.
  char buffer[16];
  const std::string_view tail = suffixText(n, buffer);
  const uint32_t offset = names_[base].offset, length = names_[base].length; // `%base`
  uint32_t hash = names_[base].hash;
  for (char c : tail)
    hash = (hash ^ static_cast<unsigned char>(c)) * 16777619u;
  const uint32_t total = length + static_cast<uint32_t>(tail.size());
  const size_t mask = nameSlots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    const uint32_t slot = nameSlots_[i];
    if (slot == 0)
      return UINT32_MAX;
    const NameRecord &r = names_[slot - 1];
    if (r.hash == hash && r.length == total &&
        nameText_.compare(r.offset, length, nameText_, offset, length) == 0 &&
        nameText_.compare(r.offset + length, tail.size(), tail) == 0)
      return slot - 1;
  }
}

bool TextPrinter::nameHint(const Operation &op, std::string &name) {
  name.clear();
  if (&op.info() == addressOfInfo_) {
    Attribute v = op.attr("variable");
    if (!v.is(AttrKind::SymbolRef))
      return false;
    name.assign(v.str());
    name += "_addr";
    return true;
  }
  if (&op.info() != constantInfo_)
    return false;
  Type type = op.result(0).type();
  Attribute value = op.attr("value");
  name.assign("cst");
  bool isInt = type && type.is(TypeKind::Integer);
  if (value.is(AttrKind::Bool) || value.is(AttrKind::Integer)) {
    if (isInt && type.width() == 1) {
      name.assign((value.is(AttrKind::Bool) ? value.boolValue() : value.bits() != 0) ? "true"
                                                                                     : "false");
      return true;
    }
    if (value.is(AttrKind::Integer)) {
      if (isInt && type.signedness() == Signedness::Unsigned) {
        appendDecimal(name, value.bits());
      } else {
        appendSigned(name, value.intValue());
      }
    }
  }
  if (isInt || (type && type.is(TypeKind::Float))) {
    name += '_';
    typeText(type, name);
  }
  if (type && type.is(TypeKind::Vector)) {
    name += "_vec_";
    appendDecimal(name, type.count());
    Type e = type.elementType();
    if (e.is(TypeKind::Integer) || e.is(TypeKind::Float)) {
      name += 'x';
      typeText(e, name);
    }
  }
  return true;
}

void TextPrinter::appendNumber(int64_t n) { appendSigned(out_, n); }

/// Appends lazy_[k]'s `%name_N`, its text made when first printed (its definition) and kept
/// for its uses.
void TextPrinter::lazyName(size_t k) {
  LazyName &e = lazy_[k];
  if (e.length == 0) {
    const NameRecord &r = names_[e.base];
    char buffer[16];
    const std::string_view tail = suffixText(e.n, buffer);
    nameText_.reserve(nameText_.size() + r.length + tail.size()); // (the base's text stays put)
    e.offset = static_cast<uint32_t>(nameText_.size());
    e.length = static_cast<uint32_t>(r.length + tail.size());
    nameText_.append(nameText_.data() + r.offset, r.length);
    nameText_ += tail;
  }
  out_.append(nameText_.data() + e.offset, e.length);
}

/// A value's name: `%name`, `%7`, or `%7#1` for a result of a group.
void TextPrinter::use(Value v) {
  const detail::Scratch &slot = v.impl()->scratch;
  if (slot.epoch != epoch_) {
    out_ += "%<<UNKNOWN SSA VALUE>>"; // a value from outside the printed op
    return;
  }
  if (slot.value < 0) {
    uint32_t index = static_cast<uint32_t>(-(slot.value + 1));
    if (index < kLazy) {
      const NameRecord &r = names_[index];
      out_.append(nameText_.data() + r.offset, r.length);
      return;
    }
    lazyName(index - kLazy);
    return;
  }
  appendValueNumber(out_, static_cast<uint64_t>(slot.value)); // numbers are not negative
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

void TextPrinter::blockName(const Block *b) {
  auto it = blockIds_.find(b);
  if (it == blockIds_.end()) {
    out_ += "^INVALIDBLOCK";
    return;
  }
  out_ += "^bb";
  appendDecimal(out_, it->second);
}

} // namespace spire::dialect
