// The generic parts of the parser (TextParser.h): characters, values and their scopes, blocks
// and regions, ops in the generic form, and the custom syntax of an op's record: its format,
// read element by element (OpFormat.h), or its parse hook.
#include "TextParser.h"

#include "OpFormat.h"

#include <algorithm>
#include <charconv>
#include <cstdint>

namespace spire::dialect {

using namespace lexing;

namespace {

/// Moves the blocks of parsed regions into the op's regions.
void adopt(Operation *op, std::vector<std::unique_ptr<Region>> &regions) {
  for (size_t i = 0; i < regions.size(); ++i)
    while (Block *blk = regions[i]->front()) {
      regions[i]->remove(blk);
      op->region(static_cast<uint32_t>(i)).insert(blk);
    }
}

} // namespace

TextParser::~TextParser() {
  for (auto &[name, f] : forwardsStorage_) {
    (void)name;
    if (!f.placeholder)
      continue;
    Value v = f.placeholder->result(0);
    while (OpOperand *use = v.firstUse())
      use->set(Value());
    f.placeholder->erase();
  }
}

Expected<OwningOp> TextParser::run() {
  OwningOp op = top();
  if (!error_.empty())
    return diagnostic();
  return op;
}

// --- Errors and characters -------------------------------------------------------------------

Location TextParser::textLocation(size_t pos) const {
  uint32_t line = 1, col = 1;
  size_t end = std::min(pos, t_.size());
  for (size_t i = 0; i < end; ++i) {
    if (t_[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return Location::text(line, col);
}

Diagnostic TextParser::diagnostic() const {
  // One line: bytes of the input quoted in the message (an op name, an enumerant) may hold
  // anything.
  auto oneLine = [](std::string message) {
    for (char &c : message)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F)
        c = '?';
    return message;
  };
  Diagnostic d = makeError(textLocation(errorPos_), oneLine(error_));
  if (errorNote_)
    d.attachNote(textLocation(errorNote_->pos), oneLine(errorNote_->message), errorNote_->severity);
  return d;
}

Location TextParser::locationAt(size_t pos) {
  if (pos < scanPos_) {
    scanPos_ = 0;
    scanLine_ = scanColumn_ = 1;
  }
  for (; scanPos_ < pos && scanPos_ < t_.size(); ++scanPos_) {
    if (t_[scanPos_] == '\n') {
      ++scanLine_;
      scanColumn_ = 1;
    } else {
      ++scanColumn_;
    }
  }
  return Location::text(scanLine_, scanColumn_);
}

bool TextParser::failAt(size_t pos, std::string message) {
  if (error_.empty()) {
    error_ = std::move(message);
    errorPos_ = pos;
  }
  return false;
}

bool TextParser::failAt(size_t pos, std::string message, size_t notePos, std::string note,
                        Severity noteSeverity) {
  if (error_.empty())
    errorNote_ = ErrorNote{notePos, std::move(note), noteSeverity};
  return failAt(pos, std::move(message));
}

// --- MLIR releases -----------------------------------------------------------------------------

namespace {

/// The releases that read a spelling (bit v: MlirVersion(v)), and how messages name it.
struct SpellingInfo {
  uint8_t readBy;
  const char *what;
};
constexpr uint8_t kBit15 = 1u << uint8_t(MlirVersion::Mlir15);
constexpr uint8_t kBit16 = 1u << uint8_t(MlirVersion::Mlir16);
constexpr uint8_t kBitLatest = 1u << uint8_t(MlirVersion::Latest);
constexpr SpellingInfo kSpellings[] = {
    {kBit15, "MLIR 15's 'spv.' prefix"},
    {kBit16 | kBitLatest, "the 'spirv.' prefix of MLIR 16 and later"},
    {kBit15 | kBit16, "an atomic op's scope and semantics in quotes (MLIR 16 and older)"},
    {kBitLatest, "an atomic op's scope and semantics in angle brackets (after MLIR 16)"},
};

} // namespace

bool TextParser::spelled(Spelling s, size_t pos) {
  const size_t i = static_cast<size_t>(s);
  const SpellingInfo &info = kSpellings[i];
  if (readBy_ & info.readBy) {
    readBy_ &= info.readBy;
    spelledAt_[i] = std::min(spelledAt_[i], pos);
    return true;
  }
  // Some spelling used before is read by no release that reads this one.
  for (size_t j = 0; j < std::size(kSpellings); ++j)
    if (spelledAt_[j] != kUnspelled && !(kSpellings[j].readBy & info.readBy))
      return failAt(pos,
                    std::string(info.what) + " after " + kSpellings[j].what +
                        ": no MLIR release reads both",
                    spelledAt_[j], std::string(kSpellings[j].what) + " here");
  return failAt(pos, std::string(info.what) + ": no MLIR release reads it with the text before");
}

MlirVersion TextParser::written() const {
  for (MlirVersion v : {MlirVersion::Latest, MlirVersion::Mlir16, MlirVersion::Mlir15})
    if (readBy_ & (1u << uint8_t(v)))
      return v;
  return MlirVersion::Latest;
}

bool TextParser::acceptDialectPrefix() {
  size_t at = position();
  if (accept("spirv."))
    return spelled(Spelling::SpirvPrefix, at);
  if (accept("spv."))
    return spelled(Spelling::SpvPrefix, at);
  return false;
}

const OpInfo *TextParser::lookupOp(std::string_view name, size_t at, bool quoted) {
  constexpr std::string_view kSpv = "spv.", kSpirv = "spirv.";
  if (name.starts_with(kSpirv)) {
    if (!spelled(Spelling::SpirvPrefix, at))
      return nullptr;
  } else if (name.starts_with(kSpv) && !(quoted && options_.allowUnregistered)) {
    // MLIR 15's name of a spirv op. (With unregistered ops allowed, a generic `"spv.X"` is what
    // today's MLIR takes it for: an op of a dialect it does not have.)
    if (!spelled(Spelling::SpvPrefix, at))
      return nullptr;
    std::string current = std::string(kSpirv) + std::string(name.substr(kSpv.size()));
    if (const OpInfo *info = findOp(current))
      return info;
    if (quoted)
      failAt(at, "unregistered operation '" + std::string(name) +
                     "' found in dialect ('spv') that does not allow unknown operations");
    else
      failAt(at, "unknown op '" + std::string(name) + "'");
    return nullptr;
  }
  if (const OpInfo *info = findOp(name))
    return info;
  if (quoted)
    return unregisteredOp(name, at);
  failAt(at, name.empty() ? "expected an op" : "unknown op '" + std::string(name) + "'");
  return nullptr;
}

bool TextParser::fail(std::string message) {
  skip();
  // As MLIR reports a missing token: where the line's last token ends when the next token
  // starts a later line (or there is none), not at that token.
  size_t at = pos_;
  if (message.starts_with("expected ")) {
    size_t p = pos_;
    bool crossedLine = pos_ == t_.size();
    while (p > 0) {
      char c = t_[p - 1];
      if (c == ' ' || c == '\t' || c == '\r') {
        --p;
      } else if (c == '\n') {
        crossedLine = true;
        --p;
        // A line holding only a comment counts as blank.
        size_t start = t_.rfind('\n', p == 0 ? 0 : p - 1);
        start = start == std::string_view::npos ? 0 : start + 1;
        size_t first = t_.find_first_not_of(" \t", start);
        if (first < p && t_.compare(first, 2, "//") == 0)
          p = start;
      } else {
        break;
      }
    }
    if (crossedLine && p > 0)
      at = p;
  }
  return failAt(at, std::move(message));
}

void TextParser::skip() {
  while (pos_ < t_.size()) {
    char c = t_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < t_.size() && t_[pos_ + 1] == '/') {
      while (pos_ < t_.size() && t_[pos_] != '\n')
        ++pos_;
    } else {
      break;
    }
  }
}

char TextParser::peek() {
  skip();
  return pos_ < t_.size() ? t_[pos_] : '\0';
}

bool TextParser::accept(char c) {
  if (peek() != c)
    return false;
  ++pos_;
  return true;
}

bool TextParser::accept(std::string_view s) {
  skip();
  if (t_.substr(pos_, s.size()) != s)
    return false;
  pos_ += s.size();
  return true;
}

/// A keyword: `s` not followed by an identifier character.
bool TextParser::acceptKeyword(std::string_view s) {
  skip();
  if (t_.substr(pos_, s.size()) != s)
    return false;
  size_t end = pos_ + s.size();
  if (end < t_.size() && isSuffixChar(t_[end]))
    return false;
  pos_ = end;
  return true;
}

bool TextParser::expect(char c) {
  if (accept(c))
    return true;
  return fail(std::string("expected '") + c + "'");
}

bool TextParser::expect(std::string_view s) {
  if (accept(s))
    return true;
  return fail("expected '" + std::string(s) + "'");
}

bool TextParser::expectKeyword(std::string_view s) {
  if (acceptKeyword(s))
    return true;
  return fail("expected '" + std::string(s) + "'");
}

/// [A-Za-z_][A-Za-z0-9_$.]* (op names, attribute names, enumerants).
std::string_view TextParser::identifier() {
  skip();
  size_t start = pos_;
  if (pos_ < t_.size() && (isLetter(t_[pos_]) || t_[pos_] == '_'))
    while (pos_ < t_.size() && isIdChar(t_[pos_]))
      ++pos_;
  return t_.substr(start, pos_ - start);
}

std::string_view TextParser::until(char stop) {
  skip();
  size_t start = pos_;
  while (pos_ < t_.size() && t_[pos_] != stop && t_[pos_] != '\n')
    ++pos_;
  return t_.substr(start, pos_ - start);
}

// --- Values and blocks -----------------------------------------------------------------------

bool TextParser::use(Use &u) {
  if (peek() != '%')
    return fail("expected SSA operand");
  u.pos = pos_;
  size_t start = pos_++;
  // A name is digits or starts with a non-digit; mlir-translate-16 also writes names such as
  // %40entryPointOutput_addr (escaped symbols), which are read as one name.
  while (pos_ < t_.size() && isSuffixChar(t_[pos_]))
    ++pos_;
  if (pos_ == start + 1)
    return failAt(start, "expected an SSA value name after '%'");
  u.name = t_.substr(start, pos_ - start);
  u.index = 0;
  if (pos_ < t_.size() && t_[pos_] == '#') {
    ++pos_;
    uint32_t v = 0;
    auto r = std::from_chars(t_.data() + pos_, t_.data() + t_.size(), v);
    if (r.ec != std::errc())
      return failAt(pos_, "expected a result number after '#'");
    pos_ = static_cast<size_t>(r.ptr - t_.data());
    u.index = v;
  }
  return true;
}

bool TextParser::uses(std::vector<Use> &out) {
  if (peek() != '%')
    return true;
  do {
    Use u;
    if (!use(u))
      return false;
    out.push_back(u);
    size_t comma = pos_;
    if (!accept(','))
      break;
    if (peek() != '%') {
      pos_ = comma; // the comma belongs to what follows the uses
      break;
    }
  } while (true);
  return true;
}

namespace {
std::string quoted(Type t) { return "'" + toString(t) + "'"; }
} // namespace

/// As MLIR words it: the type this use expects, then the one of the definition or first use at
/// `priorPos`.
void TextParser::differentType(const Use &u, Type expected, Type prior, size_t priorPos) {
  failAt(u.pos,
         "use of value '" + std::string(u.name) + "' expects different type than prior uses: " +
             quoted(expected) + " vs " + quoted(prior),
         priorPos, "prior use here");
}

Value TextParser::resolve(const Use &u, Type hint, bool strict) {
  for (size_t i = scopes_.size(); i-- > 0;) {
    auto it = scopes_[i].values.find(u.name);
    if (it != scopes_[i].values.end()) {
      Value v = it->second.value;
      if (u.index) {
        Operation *def = v.definingOp();
        if (!def || u.index >= def->numResults()) {
          failAt(u.pos, "result number out of range");
          return {};
        }
        v = def->result(u.index);
      }
      if (strict && hint && v.type() != hint) {
        differentType(u, hint, v.type(), it->second.pos);
        return {};
      }
      return v;
    }
    if (scopes_[i].isolated)
      break;
  }
  size_t depth = forwardDepth();
  auto &fw = forwards_[depth];
  auto it = fw.find(u.name);
  if (it != fw.end()) {
    Value v = it->second->placeholder->result(0);
    if (hint && v.type() != hint) {
      differentType(u, hint, v.type(), it->second->pos);
      return {};
    }
    return v;
  }
  if (!hint || u.index) {
    failAt(u.pos, "use of undefined value " + std::string(u.name));
    return {};
  }
  OperationState st(&ops::constant());
  st.resultTypes.push_back(hint);
  Operation *placeholder = Operation::create(std::move(st));
  Forward f{placeholder, u.pos, {}};
  for (size_t i = scopes_.size(); i-- > 0;) {
    f.scopes.push_back(scopes_[i].id);
    if (scopes_[i].isolated)
      break;
  }
  forwardsStorage_.push_back({u.name, std::move(f)});
  fw.emplace(u.name, &forwardsStorage_.back().second);
  return placeholder->result(0);
}

bool TextParser::define(std::string_view name, size_t pos, Value v) {
  for (size_t i = scopes_.size(); i-- > 0;) {
    if (scopes_[i].values.count(name))
      return failAt(pos, "redefinition of " + std::string(name));
    if (scopes_[i].isolated)
      break;
  }
  scopes_.back().values.emplace(name, Defined{v, pos});
  auto &fw = forwards_[forwardDepth()];
  auto it = fw.find(name);
  if (it != fw.end()) {
    const std::vector<uint64_t> &seen = it->second->scopes;
    if (std::find(seen.begin(), seen.end(), scopes_.back().id) == seen.end())
      return failAt(it->second->pos,
                    "use of " + std::string(name) + " outside the region that defines it");
    Operation *p = it->second->placeholder;
    if (p->result(0).type() != v.type())
      return failAt(pos,
                    "definition of SSA value '" + std::string(name) + "#" +
                        std::to_string(v.isBlockArgument() ? 0 : v.index()) + "' has type " +
                        quoted(v.type()),
                    it->second->pos,
                    "previously used here with type " + quoted(p->result(0).type()));
    p->result(0).replaceAllUsesWith(v);
    p->erase();
    it->second->placeholder = nullptr;
    fw.erase(it);
  }
  return true;
}

Block *TextParser::blockRef(std::string_view name, size_t pos) {
  RegionScope &rs = regions_.back();
  auto it = rs.blocks.find(name);
  if (it != rs.blocks.end())
    return it->second.block;
  rs.pending.push_back(std::make_unique<Block>());
  Block *b = rs.pending.back().get();
  rs.blocks.emplace(name, BlockRef{b, false, pos});
  return b;
}

bool TextParser::blockName(std::string_view &name) {
  if (peek() != '^')
    return fail("expected block name");
  size_t start = pos_++;
  while (pos_ < t_.size() && isSuffixChar(t_[pos_]))
    ++pos_;
  if (pos_ == start + 1)
    return failAt(start, "expected a block name after '^'");
  name = t_.substr(start, pos_ - start);
  return true;
}

bool TextParser::region(Region &region, bool isolated, const std::vector<EntryArg> *entryArgs) {
  if (++depth_ > kMaxDepth)
    return fail("regions nested too deeply");
  if (!expect('{'))
    return false;
  scopes_.emplace_back();
  scopes_.back().isolated = isolated;
  scopes_.back().id = ++nextScope_;
  if (isolated)
    forwards_.emplace_back();
  regions_.emplace_back();
  bool ok = regionBody(region, entryArgs);
  if (ok) {
    for (auto &[name, ref] : regions_.back().blocks)
      if (!ref.defined) {
        ok = failAt(ref.pos, "reference to an undefined block " + std::string(name));
        break;
      }
  }
  if (ok && isolated) {
    const Forward *first = nullptr;
    for (auto &[name, f] : forwards_.back())
      if (!first || f->pos < first->pos)
        first = f;
    if (first) {
      for (auto &[name, f] : forwards_.back())
        if (f == first)
          ok = failAt(f->pos, "use of undefined value " + std::string(name));
    }
  }
  regions_.pop_back();
  if (isolated)
    forwards_.pop_back();
  scopes_.pop_back();
  --depth_;
  return ok;
}

bool TextParser::regionBody(Region &region, const std::vector<EntryArg> *entryArgs) {
  char c = peek();
  if (entryArgs || (c != '^' && c != '}')) {
    Block *entry = region.addBlock();
    if (entryArgs)
      for (const EntryArg &a : *entryArgs)
        if (!define(a.name, a.pos, entry->addArgument(a.type)))
          return false;
    if (!blockBody(entry))
      return false;
  }
  while (peek() == '^') {
    size_t at = pos_;
    std::string_view name;
    if (!blockName(name))
      return false;
    Block *b = blockRef(name, at);
    BlockRef &ref = regions_.back().blocks[name];
    if (ref.defined)
      return failAt(at, "redefinition of block " + std::string(name));
    ref.defined = true;
    auto &pending = regions_.back().pending;
    for (auto &p : pending)
      if (p.get() == b) {
        region.insert(p.release());
        break;
      }
    if (accept('(')) {
      if (!accept(')')) {
        do {
          Use u;
          if (!use(u) || !expect(':'))
            return false;
          Type t = type();
          if (!t || !argumentLocation())
            return false;
          if (u.index)
            return failAt(u.pos, "a block argument has no result number");
          if (!define(u.name, u.pos, b->addArgument(t)))
            return false;
        } while (accept(','));
        if (!expect(')'))
          return false;
      }
    }
    if (!expect(':') || !blockBody(b))
      return false;
  }
  return expect('}');
}

bool TextParser::blockBody(Block *b) {
  for (char c = peek(); c != '^' && c != '}'; c = peek()) {
    if (c == '\0')
      return fail("expected '}' at the end of the region");
    if (!operation(b))
      return false;
  }
  return true;
}

// --- Ops -----------------------------------------------------------------------------------

OwningOp TextParser::top() {
  // Every top-level op, in a scope of its own.
  scopes_.emplace_back();
  scopes_.back().isolated = true;
  scopes_.back().id = ++nextScope_;
  forwards_.emplace_back();
  Block holder;
  bool ok = true;
  while (ok && peek() != '\0')
    if (!locationAliasDefinition(ok))
      ok = operation(&holder);
  if (ok && holder.empty())
    ok = fail(t_.empty() ? "the text is empty: it holds no op"
                         : "the text holds no op, only whitespace and comments");
  if (ok && !forwards_.back().empty())
    ok = failAt(forwards_.back().begin()->second->pos, "use of undefined value");
  // Ops name location aliases that MLIR prints after them.
  for (const PendingLocation &p : pendingLocations_) {
    if (!ok)
      break;
    auto alias = locationAliases_.find(p.alias);
    if (alias == locationAliases_.end())
      ok = failAt(p.pos, "undefined symbol alias id '" + std::string(p.alias) + "'");
    else
      p.op->setDebugLoc(alias->second);
  }
  forwards_.pop_back();
  scopes_.pop_back();
  if (!ok)
    return {};
  // (Top-level ops with results, `%0 = spirv.Constant ...`, are values of the implicit module
  // below, as in MLIR's tools.)
  // A spirv.module alone, or alone in a `module { }` (whose attributes, if any, are dropped):
  // that spirv.module, which translate and the passes work on. Anything else: the
  // builtin.module that holds it all (the implicit module of MLIR's tools where the text has
  // none).
  Operation *first = holder.front();
  if (first == holder.back()) {
    Operation *inner = first;
    if (&first->info() == &ops::builtinModule() && first->numRegions() == 1 &&
        first->region().size() == 1 && first->region().front()->front() &&
        first->region().front()->front() == first->region().front()->back())
      inner = first->region().front()->front();
    if (&inner->info() == &ops::module()) {
      inner->remove();
      return OwningOp(inner);
    }
    if (&first->info() == &ops::builtinModule()) {
      first->remove();
      return OwningOp(first);
    }
  }
  OperationState st(&ops::builtinModule(), first->location());
  st.numRegions = 1;
  Operation *module = Operation::create(std::move(st));
  Block *body = module->region().addBlock();
  while (Operation *op = holder.front()) {
    op->remove();
    body->push_back(op);
  }
  return OwningOp(module);
}

bool TextParser::operation(Block *b) {
  if (++depth_ > kMaxDepth)
    return fail("ops nested too deeply");
  skip();
  // Where the op starts (its results included, as MLIR locates an op), computed before its
  // regions are read, so that the line count only moves forward.
  const Location location = locationAt(pos_);
  std::vector<ResultName> results;
  if (peek() == '%') {
    do {
      Use u;
      if (!use(u))
        return false;
      if (u.index)
        return failAt(u.pos, "a result name has no '#'");
      uint32_t count = 1;
      if (accept(':')) {
        std::optional<int64_t> n = integer();
        if (!n)
          return false;
        if (*n < 1 || *n > 1024)
          return failAt(u.pos, "bad result count");
        count = static_cast<uint32_t>(*n);
      }
      results.push_back({u.name, u.pos, count});
    } while (accept(','));
    if (!expect('='))
      return false;
  }
  skip();
  size_t at = pos_;
  Operation *op = nullptr;
  if (peek() == '"') {
    std::string name;
    if (!string(name))
      return false;
    const OpInfo *info = lookupOp(name, at, true);
    if (!info)
      return false;
    op = genericOp(*info, at);
  } else {
    std::string_view name = identifier();
    const OpInfo *info = lookupOp(name, at, false);
    if (!info)
      return false;
    if (!info->syntax)
      return failAt(at, "'" + std::string(name) +
                            "' has no custom syntax; write it in the generic form");
    op = customOp(*info, at);
  }
  if (!op)
    return false;
  op->setLocation(location);
  b->push_back(op);
  // Its source position (mlir-opt --mlir-print-debuginfo).
  if (acceptKeyword("loc")) {
    const DebugLoc *l = nullptr;
    std::string_view alias;
    size_t aliasAt = position();
    if (!locationBody(l, alias))
      return false;
    if (!alias.empty())
      pendingLocations_.push_back({op, alias, aliasAt + 1});
    op->setDebugLoc(l);
  }
  uint32_t declared = 0;
  for (const ResultName &r : results)
    declared += r.count;
  if (declared != op->numResults())
    return failAt(at, "the op has " + std::to_string(op->numResults()) + " results, " +
                          std::to_string(declared) + " are named");
  uint32_t next = 0;
  for (const ResultName &r : results) {
    if (!define(r.name, r.pos, op->result(next)))
      return false;
    next += r.count;
  }
  --depth_;
  return true;
}

const OpInfo *TextParser::unregisteredOp(std::string_view name, size_t at) {
  // The dialects spire has take no ops they do not define; the others only when told to.
  size_t dot = name.find('.');
  std::string_view dialect = name.substr(0, dot);
  if (dot != std::string_view::npos &&
      (dialect == "spirv" || dialect == "builtin" || dialect == "func" || dialect == "gpu")) {
    failAt(at, "unregistered operation '" + std::string(name) + "' found in dialect ('" +
                   std::string(dialect) + "') that does not allow unknown operations");
    return nullptr;
  }
  if (!options_.allowUnregistered) {
    failAt(position(), "operation being parsed with an unregistered dialect. If this is "
                       "intended, please use -allow-unregistered-dialect with the MLIR tool used");
    return nullptr;
  }
  return &ctx_.unregisteredOp(name);
}

bool TextParser::locationAliasDefinition(bool &ok) {
  skip();
  if (peek() != '#')
    return false;
  // `#name = loc(...)`; other attribute aliases are not read (the op parser reports them).
  size_t start = pos_, p = pos_ + 1;
  while (p < t_.size() && isIdChar(t_[p]))
    ++p;
  std::string_view name = t_.substr(start + 1, p - start - 1);
  size_t q = p;
  while (q < t_.size() && (t_[q] == ' ' || t_[q] == '\t'))
    ++q;
  if (name.empty() || q >= t_.size() || t_[q] != '=')
    return false;
  pos_ = q + 1;
  if (!acceptKeyword("loc")) {
    pos_ = start;
    return false;
  }
  const DebugLoc *l = nullptr;
  std::string_view alias;
  if (!locationBody(l, alias)) {
    ok = false;
    return true;
  }
  if (!alias.empty()) {
    // An alias of an alias, defined before it.
    auto it = locationAliases_.find(alias);
    if (it == locationAliases_.end()) {
      ok = failAt(start, "undefined symbol alias id '" + std::string(alias) + "'");
      return true;
    }
    l = it->second;
  }
  if (!locationAliases_.emplace(name, l).second)
    ok = failAt(start, "redefinition of attribute alias id '" + std::string(name) + "'");
  return true;
}

bool TextParser::locationBody(const DebugLoc *&out, std::string_view &alias) {
  out = nullptr;
  alias = {};
  skip();
  const size_t open = pos_;
  if (!expect('('))
    return false;
  skip();
  if (peek() == '#') {
    size_t start = ++pos_;
    while (pos_ < t_.size() && isIdChar(t_[pos_]))
      ++pos_;
    alias = t_.substr(start, pos_ - start);
    if (alias.empty())
      return fail("expected an alias name after '#'");
    return expect(')');
  }
  if (acceptKeyword("unknown"))
    return expect(')');
  if (peek() == '"') {
    // "file":line:col; a name, a call site, a fused location or a range are read and dropped
    // (SPIR-V's OpLine says a file, a line and a column).
    std::string file;
    if (!string(file))
      return false;
    if (accept(':')) {
      std::optional<int64_t> line = integer();
      if (!line)
        return false;
      if (!expect(':'))
        return false;
      std::optional<int64_t> column = integer();
      if (!column)
        return false;
      if (accept(')')) {
        if (*line < 0 || *line > UINT32_MAX || *column < 0 || *column > UINT32_MAX)
          return failAt(open, "a line or column out of range");
        out = fileLineCol(ctx_, file, static_cast<uint32_t>(*line), static_cast<uint32_t>(*column));
        return true;
      }
    }
  }
  pos_ = open;
  return skipParens();
}

bool TextParser::argumentLocation() {
  if (!acceptKeyword("loc"))
    return true;
  const DebugLoc *l = nullptr;
  std::string_view alias;
  return locationBody(l, alias); // block arguments keep no position
}

/// `( ... )` with nested parentheses and strings.
bool TextParser::skipParens() {
  if (!expect('('))
    return false;
  int depth = 1;
  while (pos_ < t_.size() && depth > 0) {
    char c = t_[pos_++];
    if (c == '(')
      ++depth;
    else if (c == ')')
      --depth;
    else if (c == '"')
      while (pos_ < t_.size() && t_[pos_] != '"')
        pos_ += t_[pos_] == '\\' ? 2 : 1;
    if (c == '"' && pos_ < t_.size())
      ++pos_;
  }
  return depth == 0 || fail("expected ')' at the end of the location");
}

Operation *TextParser::genericOp(const OpInfo &info, size_t at) {
  OperationState st(&info);
  std::vector<Use> ops;
  if (!expect('(') || !uses(ops) || !expect(')'))
    return nullptr;
  std::vector<Block *> succs;
  if (accept('[')) {
    do {
      skip();
      size_t bat = pos_;
      std::string_view name;
      if (!blockName(name))
        return nullptr;
      if (regions_.empty()) {
        failAt(bat, "a successor outside a region");
        return nullptr;
      }
      succs.push_back(blockRef(name, bat));
    } while (accept(','));
    if (!expect(']'))
      return nullptr;
  }
  std::vector<std::unique_ptr<Region>> regs;
  if (peek() == '(') {
    ++pos_;
    do {
      regs.push_back(std::make_unique<Region>());
      if (!region(*regs.back(), (info.flags & OpInfo::kIsolated) != 0))
        return nullptr;
    } while (accept(','));
    if (!expect(')'))
      return nullptr;
  }
  std::vector<NamedAttribute> attrs;
  if (peek() == '{' && !dictionary(attrs))
    return nullptr;
  if (!expect(':'))
    return nullptr;
  size_t tat = pos_;
  Type fn = type();
  if (!fn)
    return nullptr;
  if (!fn.is(TypeKind::Function)) {
    failAt(tat, "expected the op's function type");
    return nullptr;
  }
  if (fn.inputs().size() != ops.size()) {
    failAt(tat, std::to_string(ops.size()) + " operands but " + std::to_string(fn.inputs().size()) +
                    " operand types");
    return nullptr;
  }
  if (!resolveEach(ops, fn.inputs(), st.operands))
    return nullptr;
  st.resultTypes.assign(fn.results().begin(), fn.results().end());
  // Successor operands: all of a spirv.Branch's; by operand_segment_sizes otherwise.
  std::vector<uint32_t> segments;
  for (const NamedAttribute &a : attrs) {
    if (a.name == "operand_segment_sizes") {
      for (Attribute e : a.attr().elements())
        segments.push_back(e.is(AttrKind::Integer) ? static_cast<uint32_t>(e.intValue()) : 0);
      continue;
    }
    st.attributes.push_back(a);
  }
  uint32_t n = static_cast<uint32_t>(st.operands.size());
  std::vector<uint32_t> succCounts(succs.size(), 0);
  uint32_t ordinary = n;
  if (info.name == "spirv.Branch" && succs.size() == 1) {
    ordinary = 0;
    succCounts[0] = n;
  } else if (!succs.empty() && segments.size() == succs.size() + 1) {
    uint64_t total = 0;
    for (uint32_t s : segments)
      total += s;
    if (total != n) {
      failAt(at, "operand_segment_sizes does not add up to the operands");
      return nullptr;
    }
    ordinary = segments[0];
    for (size_t i = 0; i < succs.size(); ++i)
      succCounts[i] = segments[i + 1];
  }
  std::vector<Value> all = std::move(st.operands);
  st.operands.assign(all.begin(), all.begin() + ordinary);
  uint32_t next = ordinary;
  for (size_t i = 0; i < succs.size(); ++i) {
    st.addSuccessor(succs[i], std::span<const Value>(all.data() + next, succCounts[i]));
    next += succCounts[i];
  }
  st.numRegions = static_cast<unsigned>(regs.size());
  Operation *op = Operation::create(std::move(st));
  adopt(op, regs);
  return op;
}

bool TextParser::resolveEach(std::span<const Use> us, std::span<const Type> types,
                             std::vector<Value> &out) {
  for (size_t i = 0; i < us.size(); ++i) {
    Value v = resolve(us[i], types[i]);
    if (!v)
      return false;
    out.push_back(v);
  }
  return true;
}

bool TextParser::resolveAll(const std::vector<Use> &us, Type hint, OperationState &st) {
  for (const Use &u : us) {
    Value v = resolve(u, hint);
    if (!v)
      return false;
    st.operands.push_back(v);
  }
  return true;
}

bool TextParser::count(const std::vector<Use> &us, size_t lo, size_t hi, size_t at) {
  if (us.size() < lo || us.size() > hi)
    return failAt(at, "wrong number of operands");
  return true;
}

bool TextParser::successor(OperationState &st) {
  skip();
  size_t at = pos_;
  std::string_view name;
  if (!blockName(name))
    return false;
  if (regions_.empty())
    return failAt(at, "a successor outside a region");
  Block *b = blockRef(name, at);
  std::vector<Value> args;
  if (accept('(')) {
    std::vector<Use> us;
    std::vector<Type> ts;
    if (!uses(us) || !expect(':') || !typeList(ts) || !expect(')'))
      return false;
    if (us.size() != ts.size())
      return failAt(at, "successor operands and types differ in number");
    if (!resolveEach(us, ts, args))
      return false;
  }
  st.addSuccessor(b, args);
  return true;
}

Operation *TextParser::finish(OperationState &st, std::vector<std::unique_ptr<Region>> *regions) {
  if (st.attributes.size() > 1) {
    std::vector<std::string_view> names;
    for (const NamedAttribute &a : st.attributes)
      names.push_back(a.name);
    std::sort(names.begin(), names.end());
    for (size_t i = 1; i < names.size(); ++i)
      if (names[i] == names[i - 1]) {
        failAt(opAt_, "attribute '" + std::string(names[i]) + "' given twice");
        return nullptr;
      }
  }
  if (regions)
    st.numRegions = static_cast<unsigned>(regions->size());
  Operation *op = Operation::create(std::move(st));
  if (regions)
    adopt(op, *regions);
  return op;
}

// --- Custom syntax -----------------------------------------------------------------------------

Operation *TextParser::customOp(const OpInfo &info, size_t at) {
  opAt_ = at;
  const OpSyntax &syntax = *info.syntax;
  if (syntax.parse)
    return syntax.parse(info, *this, at);
  const OpFormat *format = syntax.format(info);
  if (!format) { // a declaration that does not compile (overlayProblems)
    failAt(at,
           "'" + std::string(info.name) + "' has no custom syntax; write it in the generic form");
    return nullptr;
  }
  return formatted(info, *format, at);
}

Operation *TextParser::formatted(const OpInfo &info, const OpFormat &f, size_t at) {
  OperationState st(&info);
  constexpr size_t kNoPos = ~size_t(0);
  std::vector<Use> uses;
  std::vector<Type> vars(f.numVars), list;
  std::vector<size_t> varPos(f.numVars, kNoPos);
  size_t listPos = kNoPos, attrPos = kNoPos;
  auto setUse = [&](size_t index, const Use &u) {
    if (uses.size() <= index)
      uses.resize(index + 1);
    uses[index] = u;
  };
  const std::vector<FormatElement> &es = f.elements;
  for (size_t i = 0; i < es.size();) {
    const FormatElement &e = es[i];
    switch (e.kind) {
    case FormatElement::Group: {
      // Present when its first element (a punctuation or a word) comes.
      const FormatElement &first = es[i + 1];
      bool present = first.kind == FormatElement::Keyword ? acceptKeyword(first.text)
                     : first.text.size() == 1             ? accept(first.text[0])
                                                          : accept(first.text);
      i = present ? i + 2 : e.end;
      continue;
    }
    case FormatElement::Punct:
      // The attribute dictionary may also come before the type section.
      if (e.text == ":" && f.hasAttrDict && peek() == '{' && !optionalAttrDict(st))
        return nullptr;
      if (!(e.text.size() == 1 ? expect(e.text[0]) : expect(e.text)))
        return nullptr;
      break;
    case FormatElement::Keyword:
      if (!expectKeyword(e.text))
        return nullptr;
      break;
    case FormatElement::Operands: {
      std::vector<Use> got;
      if (!this->uses(got))
        return nullptr;
      // A bracketed list goes on after a comma: an operand must come (MLIR's message).
      const FormatElement *next = i + 1 < es.size() ? &es[i + 1] : nullptr;
      if (e.variadic && next && next->kind == FormatElement::Punct &&
          (next->text == "]" || next->text == ")") && accept(',')) {
        fail("expected SSA operand");
        return nullptr;
      }
      // As MLIR's fixed operand lists say it: the first operand missing, or a comma.
      if (got.size() < e.count) {
        fail(got.empty() ? "expected SSA operand" : "expected ','");
        return nullptr;
      }
      if (!e.variadic && got.size() != e.count) {
        failAt(at, "wrong number of operands");
        return nullptr;
      }
      for (size_t k = 0; k < e.count; ++k)
        setUse(f.runs[e.first + k], got[k]);
      for (size_t k = e.count; k < got.size(); ++k)
        setUse(f.runs[e.first + e.count] + (k - e.count), got[k]);
      break;
    }
    case FormatElement::Attr: {
      size_t pos = position();
      if (attrPos == kNoPos)
        attrPos = pos;
      Attribute a;
      switch (e.style) {
      case FormatElement::Generic:
        a = attribute();
        break;
      case FormatElement::Quoted:
      case FormatElement::Angle: {
        // Either spelling reads: MLIR moved some enumerants (the atomics' scope and semantics)
        // from quotes to angle brackets, which tells the releases apart.
        const bool angle = peek() == '<';
        if (f.quotedInMlir16 &&
            !spelled(angle ? Spelling::AngleAtomic : Spelling::QuotedAtomic, pos))
          return nullptr;
        a = enumAttr(e.enumKind, angle);
        break;
      }
      case FormatElement::Symbol: {
        std::string s;
        if (symbol(s))
          a = attr::symbolRef(ctx_, s);
        break;
      }
      case FormatElement::TypeOf:
        if (Type t = type())
          a = attr::type(ctx_, t);
        break;
      }
      if (!a)
        return nullptr;
      addAttr(st, e.text, a);
      break;
    }
    case FormatElement::AttrDict:
      if (!optionalAttrDict(st))
        return nullptr;
      break;
    case FormatElement::TypeVar:
      varPos[e.var] = pos_;
      if (!(vars[e.var] = type()))
        return nullptr;
      break;
    case FormatElement::TypeList: {
      // As many types as the operands the list types: none, or a comma-separated list.
      listPos = pos_;
      size_t listed = uses.size() > f.operandTypes.size() ? uses.size() - f.operandTypes.size() : 0;
      char c = peek();
      if (listed && c != ')' && c != ']' && c != '>' && !typeList(list))
        return nullptr;
      if (list.size() != listed) {
        // MLIR's parser of the access chains words it as the op's own.
        failAt(at, f.infer == syntax::inferAccessChain
                       ? "'" + opName(info.name) +
                             "' op indices types' count must be equal to indices info count"
                       : std::string("wrong number of types"));
        return nullptr;
      }
      break;
    }
    }
    ++i;
  }
  if (f.hasAttrDict && peek() == '{' && !optionalAttrDict(st))
    return nullptr;
  if (uses.size() < f.minOperands || uses.size() > f.maxOperands) {
    // MLIR's parser of the access chains words an empty index list as the op's own.
    failAt(at, f.infer == syntax::inferAccessChain && uses.size() < f.minOperands
                   ? "'" + opName(info.name) + "' op expected at least one index"
                   : std::string("wrong number of operands"));
    return nullptr;
  }
  // The operands' types from the signature, then the operands.
  auto typePos = [&](size_t operand) {
    const TypeExpr *e = operand < f.operandTypes.size()    ? &f.operandTypes[operand]
                        : f.tail == OpFormat::Tail::Repeat ? &f.tailType
                                                           : nullptr;
    size_t p = e && e->kind == TypeExpr::Var ? varPos[e->var] : e ? kNoPos : listPos;
    return p != kNoPos ? p : uses[operand].pos;
  };
  std::string problem;
  uint8_t blamed = 0;
  auto eval = [&](const TypeExpr &e) {
    Type t = evalType(ctx_, e, vars, problem, blamed);
    if (!problem.empty())
      failAt(varPos[blamed] != kNoPos ? varPos[blamed] : at, problem);
    return t;
  };
  std::vector<Type> hints(uses.size());
  for (size_t i = 0; i < uses.size(); ++i) {
    if (i >= f.operandTypes.size() && f.tail == OpFormat::Tail::List) {
      hints[i] = list[i - f.operandTypes.size()];
      continue;
    }
    const TypeExpr &e = i < f.operandTypes.size() ? f.operandTypes[i] : f.tailType;
    if (e.kind != TypeExpr::Any && !(hints[i] = eval(e)) && !problem.empty())
      return nullptr;
  }
  for (size_t i = 0; i < uses.size(); ++i) {
    const TypeExpr *e = i < f.operandTypes.size() ? &f.operandTypes[i] : &f.tailType;
    Value v = resolve(uses[i], hints[i], e->kind != TypeExpr::Hint);
    if (!v)
      return nullptr;
    st.operands.push_back(v);
  }
  if (f.hasResult) {
    if (f.resultType.kind == TypeExpr::Infer) {
      InferQuery q;
      q.values = st.operands;
      q.attributes = st.attributes;
      q.context = &ctx_;
      if (!f.infer(info, q)) {
        failAt(q.blameUse >= 0     ? uses[static_cast<size_t>(q.blameUse)].pos
               : q.blameType >= 0  ? typePos(static_cast<size_t>(q.blameType))
               : attrPos != kNoPos ? attrPos
                                   : at,
               q.problem);
        return nullptr;
      }
      st.resultTypes.push_back(q.result);
    } else {
      Type r = eval(f.resultType);
      if (!r)
        return nullptr;
      st.resultTypes.push_back(r);
    }
    // Today's MLIR's `-> R`: the result type given (the verifier checks it), else the
    // signature's.
    if (f.resultArrow && accept("->")) {
      Type given = type();
      if (!given)
        return nullptr;
      st.resultTypes.back() = given;
    }
  }
  Operation *op = finish(st);
  // MLIR's parser checks the operand's type against its constraint before deriving the result
  // type from it, and names the operand as the op's definition does.
  if (std::string problem = op ? parseCheckedProblem(*op, f) : std::string(); !problem.empty()) {
    op->erase();
    failAt(at, std::move(problem));
    return nullptr;
  }
  return op;
}

namespace {

/// `a` with the names of MLIR 15's dialect attributes (`spv.X`) in its dictionaries, nested in
/// arrays too (argument attributes), made today's (`spirv.X`).
Attribute withCurrentNames(Context &ctx, Attribute a) {
  constexpr std::string_view kSpv = "spv.";
  if (a.is(AttrKind::Array)) {
    std::vector<Attribute> elements(a.elements().begin(), a.elements().end());
    bool changed = false;
    for (Attribute &e : elements) {
      Attribute renamed = withCurrentNames(ctx, e);
      changed = changed || renamed != e;
      e = renamed;
    }
    return changed ? attr::array(ctx, elements) : a;
  }
  if (!a.is(AttrKind::Dictionary))
    return a;
  std::vector<NamedAttribute> entries(a.entries().begin(), a.entries().end());
  bool changed = false;
  for (NamedAttribute &e : entries) {
    Attribute value = withCurrentNames(ctx, e.attr());
    std::string_view name = e.name;
    if (name.starts_with(kSpv))
      name = intern(ctx, "spirv." + std::string(name.substr(kSpv.size())));
    if (value != e.attr() || name != e.name) {
      e = NamedAttribute{name, value.storage()};
      changed = true;
    }
  }
  return changed ? attr::dictionary(ctx, std::move(entries)) : a;
}

/// Gives the dialect's attributes of MLIR 15 text (`spv.entry_point_abi`) today's names, which
/// the IR holds (an attribute name alone does not say the text is MLIR 15's: today's MLIR takes
/// `spv.X` as an attribute of a dialect it does not have).
void currentAttributeNames(Context &ctx, Operation *top) {
  constexpr std::string_view kSpv = "spv.";
  walk(top, [&](Operation *op) {
    std::vector<NamedAttribute> attrs(op->attributes().begin(), op->attributes().end());
    for (const NamedAttribute &a : attrs) {
      Attribute value = withCurrentNames(ctx, a.attr());
      if (a.name.starts_with(kSpv)) {
        op->removeAttr(a.name);
        op->setAttr(ctx, "spirv." + std::string(a.name.substr(kSpv.size())), value);
      } else if (value != a.attr()) {
        op->setAttr(ctx, a.name, value);
      }
    }
  });
}

} // namespace

Expected<OwningOp> parse(Context &context, std::string_view text, const ParseOptions &options,
                         MlirVersion *written) {
  TextParser p(context, text, options);
  Expected<OwningOp> op = p.run();
  if (op && p.written() == MlirVersion::Mlir15)
    currentAttributeNames(context, op->get());
  if (written)
    *written = p.written();
  return op;
}

} // namespace spire::dialect
