// The parser of the dialect's text: MLIR's generic form for every op and the custom syntax of the
// ops the printer writes in custom form (OpForms.h). One pass over the text, no tokens kept: the
// parser reads at a position, names are views of the text, and an op is created once all of it
// has been read, so that an error leaves nothing half-built but the temporaries on the stack.
#include "spire/dialect/Text.h"

#include "OpForms.h"

#include "spire/support/Half.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace spire::dialect {

namespace {

using grammar::OperandKind;

constexpr int kMaxDepth = 128;

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isIdChar(char c) { return isLetter(c) || isDigit(c) || c == '_' || c == '$' || c == '.'; }
bool isSuffixChar(char c) { return isIdChar(c) || c == '-'; }

/// A literal of a dense attribute, typed once the attribute's type is known.
struct Literal {
  std::string_view text;
  size_t pos;
};

struct Use {
  std::string_view name; ///< with the '%', without a '#N' suffix
  uint32_t index = 0;    ///< the N of '#N'
  size_t pos = 0;
};

class Parser {
public:
  Parser(Context &ctx, std::string_view text) : ctx_(ctx), t_(text) {}

  ~Parser() {
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

  Expected<OwningOp> run() {
    OwningOp op = top();
    if (!error_.empty())
      return diagnostic();
    return op;
  }

private:
  // --- Errors and characters -----------------------------------------------------------------

  Diagnostic diagnostic() const {
    uint32_t line = 1, col = 1;
    size_t end = std::min(errorPos_, t_.size());
    for (size_t i = 0; i < end; ++i) {
      if (t_[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    // One line: bytes of the input quoted in the message (an op name, an enumerant) may hold
    // anything.
    std::string message = error_;
    for (char &c : message)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F)
        c = '?';
    return makeError(Location::text(line, col), std::move(message));
  }

  bool failAt(size_t pos, std::string message) {
    if (error_.empty()) {
      error_ = std::move(message);
      errorPos_ = pos;
    }
    return false;
  }
  bool fail(std::string message) {
    skip();
    return failAt(pos_, std::move(message));
  }
  bool failed() const { return !error_.empty(); }

  void skip() {
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

  char peek() {
    skip();
    return pos_ < t_.size() ? t_[pos_] : '\0';
  }

  bool accept(char c) {
    if (peek() != c)
      return false;
    ++pos_;
    return true;
  }

  /// `one (',' one)* close`, or just `close`: the rest of a bracketed list whose opening the
  /// caller took. `one` parses an element and returns false on an error (already reported).
  template <class ParseOne> bool listUntil(char close, ParseOne one) {
    if (accept(close))
      return true;
    do {
      if (!one())
        return false;
    } while (accept(','));
    return expect(close);
  }

  bool accept(std::string_view s) {
    skip();
    if (t_.substr(pos_, s.size()) != s)
      return false;
    pos_ += s.size();
    return true;
  }

  /// A keyword: `s` not followed by an identifier character.
  bool acceptKeyword(std::string_view s) {
    skip();
    if (t_.substr(pos_, s.size()) != s)
      return false;
    size_t end = pos_ + s.size();
    if (end < t_.size() && isSuffixChar(t_[end]))
      return false;
    pos_ = end;
    return true;
  }

  bool expect(char c) {
    if (accept(c))
      return true;
    return fail(std::string("expected '") + c + "'");
  }
  bool expect(std::string_view s) {
    if (accept(s))
      return true;
    return fail("expected '" + std::string(s) + "'");
  }
  bool expectKeyword(std::string_view s) {
    if (acceptKeyword(s))
      return true;
    return fail("expected '" + std::string(s) + "'");
  }

  /// [A-Za-z_][A-Za-z0-9_$.]* (op names, attribute names, enumerants).
  std::string_view identifier() {
    skip();
    size_t start = pos_;
    if (pos_ < t_.size() && (isLetter(t_[pos_]) || t_[pos_] == '_'))
      while (pos_ < t_.size() && isIdChar(t_[pos_]))
        ++pos_;
    return t_.substr(start, pos_ - start);
  }

  bool string(std::string &out) {
    if (peek() != '"')
      return fail("expected a string");
    size_t start = pos_++;
    auto hex = [](char c) {
      return isDigit(c)             ? c - '0'
             : c >= 'a' && c <= 'f' ? c - 'a' + 10
             : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                    : -1;
    };
    while (pos_ < t_.size() && t_[pos_] != '"') {
      char c = t_[pos_];
      if (c == '\n')
        return failAt(start, "unterminated string");
      if (c != '\\') {
        out += c;
        ++pos_;
        continue;
      }
      if (pos_ + 1 >= t_.size())
        break;
      char e = t_[pos_ + 1];
      if (e == '"' || e == '\\') {
        out += e;
        pos_ += 2;
      } else if (e == 'n') {
        out += '\n';
        pos_ += 2;
      } else if (e == 't') {
        out += '\t';
        pos_ += 2;
      } else if (pos_ + 2 < t_.size() && hex(e) >= 0 && hex(t_[pos_ + 2]) >= 0) {
        out += static_cast<char>(hex(e) * 16 + hex(t_[pos_ + 2]));
        pos_ += 3;
      } else {
        return failAt(pos_, "unknown escape in string");
      }
    }
    if (pos_ >= t_.size())
      return failAt(start, "unterminated string");
    ++pos_;
    return true;
  }

  /// @name or @"name".
  bool symbol(std::string &out) {
    if (peek() != '@')
      return fail("expected a symbol (@name)");
    ++pos_;
    if (pos_ < t_.size() && t_[pos_] == '"')
      return string(out);
    std::string_view id = identifier();
    if (id.empty())
      return fail("expected a symbol name after '@'");
    out.assign(id);
    return true;
  }

  std::optional<int64_t> integer() {
    skip();
    size_t start = pos_;
    bool neg = accept('-');
    uint64_t v = 0;
    auto r = std::from_chars(t_.data() + pos_, t_.data() + t_.size(), v);
    if (r.ec != std::errc() || r.ptr == t_.data() + pos_) {
      failAt(start, "expected an integer");
      return std::nullopt;
    }
    pos_ = static_cast<size_t>(r.ptr - t_.data());
    return neg ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
  }

  /// Where the type starting at `pos` ends, judged by its brackets (a type ends at a space,
  /// comma, colon or closing bracket outside its own brackets); 0 for a function type or when
  /// unsure. Only a guess for the type cache: the type parser has the last word.
  size_t typeEnd(size_t pos) const {
    if (pos >= t_.size() || t_[pos] == '(')
      return 0;
    int depth = 0;
    for (size_t i = pos; i < t_.size(); ++i) {
      char c = t_[i];
      switch (c) {
      case '<':
      case '(':
      case '[':
        ++depth;
        break;
      case '>':
      case ')':
      case ']':
        if (depth == 0)
          return i;
        --depth;
        break;
      case '"':
        for (++i; i < t_.size() && t_[i] != '"'; ++i)
          if (t_[i] == '\\')
            ++i;
        break;
      case ' ':
      case '\t':
      case '\n':
      case '\r':
      case ',':
      case ':':
      case '{':
      case '}':
      case '=':
        if (depth == 0)
          return i;
        break;
      case '-':
        if (depth == 0 && i + 1 < t_.size() && t_[i + 1] == '>')
          return i;
        break;
      default:
        break;
      }
    }
    return depth == 0 ? t_.size() : 0;
  }

  Type type() {
    skip();
    if (pos_ >= t_.size()) {
      fail("expected a type");
      return {};
    }
    // The same type text comes back often (a struct pointer on every access): parse it once.
    size_t end = typeEnd(pos_);
    std::string_view span = end > pos_ ? t_.substr(pos_, end - pos_) : std::string_view();
    if (!span.empty()) {
      auto it = typeCache_.find(span);
      if (it != typeCache_.end()) {
        pos_ = end;
        return it->second;
      }
    }
    size_t consumed = 0;
    Expected<Type> t = parseTypePrefix(ctx_, t_.substr(pos_), consumed);
    if (!t) {
      failAt(pos_ + t.error().location.column - 1, t.error().message);
      return {};
    }
    if (!span.empty() && consumed == span.size())
      typeCache_.emplace(span, *t);
    pos_ += consumed;
    return *t;
  }

  // --- Attributes ----------------------------------------------------------------------------

  /// A number's text: -?digits[.digits][e[+-]digits], or 0x hex digits.
  std::optional<Literal> numberText() {
    skip();
    size_t start = pos_;
    size_t i = pos_;
    if (i < t_.size() && t_[i] == '-')
      ++i;
    if (i + 1 < t_.size() && t_[i] == '0' && t_[i + 1] == 'x') {
      i += 2;
      while (i < t_.size() &&
             (isDigit(t_[i]) || (t_[i] >= 'a' && t_[i] <= 'f') || (t_[i] >= 'A' && t_[i] <= 'F')))
        ++i;
    } else {
      size_t digits = i;
      while (i < t_.size() && isDigit(t_[i]))
        ++i;
      if (i == digits) {
        failAt(start, "expected a number");
        return std::nullopt;
      }
      if (i < t_.size() && t_[i] == '.') {
        ++i;
        while (i < t_.size() && isDigit(t_[i]))
          ++i;
      }
      if (i < t_.size() && (t_[i] == 'e' || t_[i] == 'E')) {
        size_t e = i + 1;
        if (e < t_.size() && (t_[e] == '+' || t_[e] == '-'))
          ++e;
        if (e < t_.size() && isDigit(t_[e])) {
          i = e;
          while (i < t_.size() && isDigit(t_[i]))
            ++i;
        }
      }
    }
    pos_ = i;
    return Literal{t_.substr(start, i - start), start};
  }

  static bool isFloatText(std::string_view s) {
    return s.find_first_of(".eE") != std::string_view::npos &&
           s.find("0x") == std::string_view::npos;
  }

  /// The literal as an attribute of type `t` (an integer or float type).
  Attribute typedLiteral(const Literal &lit, Type t) {
    std::string_view s = lit.text;
    if (s == "true" || s == "false") {
      if (!t.is(TypeKind::Integer) || t.width() != 1) {
        failAt(lit.pos, "a boolean literal needs type i1");
        return {};
      }
      return attr::integer(ctx_, t, s == "true");
    }
    bool neg = !s.empty() && s[0] == '-';
    std::string_view digits = neg ? s.substr(1) : s;
    bool hex = digits.substr(0, 2) == "0x";
    if (t.is(TypeKind::Float)) {
      double d = 0;
      if (hex) {
        uint64_t bits = 0;
        auto r = std::from_chars(digits.data() + 2, digits.data() + digits.size(), bits, 16);
        if (r.ec != std::errc() || neg) {
          failAt(lit.pos, "bad hexadecimal float");
          return {};
        }
        if (t.width() == 16) {
          d = halfToDouble(static_cast<uint16_t>(bits));
        } else if (t.width() == 32) {
          uint32_t b = static_cast<uint32_t>(bits);
          float f;
          std::memcpy(&f, &b, 4);
          d = f;
        } else {
          std::memcpy(&d, &bits, 8);
        }
      } else {
        char buf[128];
        if (s.size() >= sizeof buf) {
          failAt(lit.pos, "float literal too long");
          return {};
        }
        std::memcpy(buf, s.data(), s.size());
        buf[s.size()] = '\0';
        d = std::strtod(buf, nullptr);
      }
      return attr::floating(ctx_, t, d);
    }
    if (!t.is(TypeKind::Integer)) {
      failAt(lit.pos, "a number needs an integer or float type");
      return {};
    }
    if (isFloatText(s)) {
      failAt(lit.pos, "expected an integer literal");
      return {};
    }
    uint64_t v = 0;
    auto r = hex ? std::from_chars(digits.data() + 2, digits.data() + digits.size(), v, 16)
                 : std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (r.ec != std::errc() || r.ptr != digits.data() + digits.size()) {
      failAt(lit.pos, "integer literal out of range");
      return {};
    }
    return attr::integer(ctx_, t, neg ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v));
  }

  bool enumValue(OperandKind kind, std::string_view text, size_t at, uint32_t &value) {
    value = 0;
    bool bits = grammar::operandCategory(kind) == grammar::OperandCategory::BitEnum;
    size_t i = 0;
    do {
      size_t bar = text.find('|', i);
      std::string_view part = text.substr(i, bar == std::string_view::npos ? text.npos : bar - i);
      while (!part.empty() && part.front() == ' ')
        part.remove_prefix(1);
      while (!part.empty() && part.back() == ' ')
        part.remove_suffix(1);
      uint32_t v = 0;
      if (!part.empty() && isDigit(part[0])) {
        auto r = std::from_chars(part.data(), part.data() + part.size(), v);
        if (r.ec != std::errc() || r.ptr != part.data() + part.size())
          return failAt(at, "bad enumerant '" + std::string(part) + "'");
      } else if (const grammar::EnumerantDesc *e = grammar::findEnumerant(kind, part)) {
        v = e->value;
      } else if (mlirEnumerantValue(kind, part, v)) {
      } else if (kind == OperandKind::Dim && part.substr(0, 3) == "Dim" &&
                 (e = grammar::findEnumerant(kind, part.substr(3)))) {
        v = e->value;
      } else {
        return failAt(at, "unknown " + std::string(grammar::operandKindName(kind)) + " '" +
                              std::string(part) + "'");
      }
      value |= v;
      if (bar == std::string_view::npos)
        break;
      if (!bits)
        return failAt(at, std::string(grammar::operandKindName(kind)) + " is not a bit mask");
      i = bar + 1;
    } while (true);
    return true;
  }

  /// `"Name"` (quoted) or `<Name>` (angle) as an enum attribute of `kind`.
  Attribute enumAttr(OperandKind kind, bool angle) {
    skip();
    size_t at = pos_;
    std::string_view text;
    std::string buf;
    if (angle) {
      if (!expect('<'))
        return {};
      size_t start = pos_;
      while (pos_ < t_.size() && t_[pos_] != '>' && t_[pos_] != '\n')
        ++pos_;
      text = t_.substr(start, pos_ - start);
      if (!expect('>'))
        return {};
    } else {
      if (!string(buf))
        return {};
      text = buf;
    }
    uint32_t v = 0;
    if (!enumValue(kind, text, at, v))
      return {};
    uint64_t key = (uint64_t(static_cast<uint32_t>(kind)) << 32) | v;
    auto it = enums_.find(key);
    if (it != enums_.end())
      return it->second;
    return enums_.emplace(key, attr::enumerant(ctx_, kind, v)).first->second;
  }

  Attribute attribute() {
    if (++depth_ > kMaxDepth) {
      fail("attribute nested too deeply");
      return {};
    }
    Attribute a = attributeInner();
    --depth_;
    return failed() ? Attribute() : a;
  }

  Attribute attributeInner() {
    char c = peek();
    size_t at = pos_;
    if (c == '"') {
      std::string s;
      return string(s) ? attr::string(ctx_, s) : Attribute();
    }
    if (c == '@') {
      std::string s;
      return symbol(s) ? attr::symbolRef(ctx_, s) : Attribute();
    }
    if (c == '[') {
      ++pos_;
      std::vector<Attribute> elems;
      if (!listUntil(']', [&] {
            Attribute e = attribute();
            if (e)
              elems.push_back(e);
            return bool(e);
          }))
        return {};
      return attr::array(ctx_, elems);
    }
    if (c == '{') {
      std::vector<NamedAttribute> entries;
      if (!dictionary(entries))
        return {};
      return attr::dictionary(ctx_, std::move(entries));
    }
    if (c == '#') {
      ++pos_;
      if (!accept("spirv.")) {
        fail("expected a #spirv attribute");
        return {};
      }
      std::string_view kind = identifier();
      if (kind == "vce")
        return vce();
      if (kind == "undef")
        return attr::undef(ctx_);
      if (kind == "null")
        return attr::null(ctx_);
      OperandKind k;
      if (!enumKindByAttrName(kind, k)) {
        failAt(at, "unknown attribute #spirv." + std::string(kind));
        return {};
      }
      return enumAttr(k, true);
    }
    if (isDigit(c) || c == '-') {
      std::optional<Literal> lit = numberText();
      if (!lit)
        return {};
      Type t;
      if (accept(':')) {
        t = type();
        if (!t)
          return {};
      } else {
        t = isFloatText(lit->text) ? ctx_.floating(64) : ctx_.integer(64);
      }
      return typedLiteral(*lit, t);
    }
    if (acceptKeyword("true"))
      return attr::boolean(ctx_, true);
    if (acceptKeyword("false"))
      return attr::boolean(ctx_, false);
    if (acceptKeyword("unit"))
      return attr::unit(ctx_);
    if (accept("dense<"))
      return dense();
    if (accept("array<")) {
      Type t = type();
      std::vector<Attribute> elems;
      if (!t || !expect(':'))
        return {};
      if (!listUntil('>', [&] {
            std::optional<Literal> lit = numberText();
            Attribute e = lit ? typedLiteral(*lit, t) : Attribute();
            if (e)
              elems.push_back(e);
            return bool(e);
          }))
        return {};
      return attr::array(ctx_, elems);
    }
    Type t = type();
    return t ? attr::type(ctx_, t) : Attribute();
  }

  Attribute vce() {
    if (!expect('<') || !expect('v'))
      return {};
    std::optional<int64_t> major = integer();
    if (!major || !expect('.'))
      return {};
    std::optional<int64_t> minor = integer();
    if (!minor || !expect(',') || !expect('['))
      return {};
    if (*major < 0 || *major > 255 || *minor < 0 || *minor > 255) {
      fail("bad version");
      return {};
    }
    std::vector<uint32_t> caps;
    std::vector<std::string> exts;
    if (!listUntil(']', [&] {
          skip();
          size_t at = pos_;
          std::string_view name = identifier();
          uint32_t v = 0;
          if (name.empty())
            return fail("expected a capability");
          if (!enumValue(OperandKind::Capability, name, at, v))
            return false;
          caps.push_back(v);
          return true;
        }))
      return {};
    if (!expect(',') || !expect('['))
      return {};
    if (!listUntil(']', [&] {
          std::string_view name = identifier();
          if (name.empty())
            return fail("expected an extension");
          exts.emplace_back(name);
          return true;
        }))
      return {};
    if (!expect('>'))
      return {};
    uint32_t version = (static_cast<uint32_t>(*major) << 16) | (static_cast<uint32_t>(*minor) << 8);
    return attr::vce(ctx_, version, caps, exts);
  }

  Attribute dense() {
    std::vector<Literal> lits;
    bool splat = true;
    auto literal = [&]() -> bool {
      skip();
      size_t at = pos_;
      if (acceptKeyword("true") || acceptKeyword("false")) {
        lits.push_back({t_.substr(at, pos_ - at), at});
        return true;
      }
      std::optional<Literal> l = numberText();
      if (!l)
        return false;
      lits.push_back(*l);
      return true;
    };
    if (accept('[')) {
      splat = false;
      if (!listUntil(']', literal))
        return {};
    } else if (!literal()) {
      return {};
    }
    if (!expect('>') || !expect(':'))
      return {};
    size_t at = pos_;
    Type t = type();
    if (!t)
      return {};
    if (!t.is(TypeKind::Vector)) {
      failAt(at, "a dense attribute needs a vector type");
      return {};
    }
    Type e = t.elementType();
    std::vector<Attribute> elems;
    if (splat) {
      Attribute a = typedLiteral(lits[0], e);
      if (!a)
        return {};
      elems.assign(t.count(), a);
    } else {
      if (lits.size() != t.count()) {
        failAt(at, "the dense attribute has " + std::to_string(lits.size()) +
                       " elements, its type " + std::to_string(t.count()));
        return {};
      }
      for (const Literal &l : lits) {
        Attribute a = typedLiteral(l, e);
        if (!a)
          return {};
        elems.push_back(a);
      }
    }
    return attr::dense(ctx_, t, elems);
  }

  /// `{name = value, unit-name, ...}`; the names interned.
  bool dictionary(std::vector<NamedAttribute> &out) {
    if (!expect('{'))
      return false;
    if (accept('}'))
      return true;
    // Names must differ from each other and from the attributes `out` already holds (those the
    // op's custom syntax gave).
    size_t first = 0;
    std::vector<size_t> positions(out.size(), 0);
    do {
      skip();
      size_t at = pos_;
      std::string quoted;
      std::string_view name;
      if (peek() == '"') {
        if (!string(quoted))
          return false;
        name = quoted;
      } else {
        name = identifier();
        if (name.empty())
          return fail("expected an attribute name");
      }
      Attribute value;
      if (accept('=')) {
        value = attribute();
        if (!value)
          return false;
      } else {
        value = attr::unit(ctx_);
      }
      out.push_back(NamedAttribute{name_(name), value.storage()});
      positions.push_back(at);
    } while (accept(','));
    if (!expect('}'))
      return false;
    return unique(out, positions, first);
  }

  /// Fails at the second of two attributes (from `first` on) with the same name.
  bool unique(const std::vector<NamedAttribute> &attrs, const std::vector<size_t> &positions,
              size_t first) {
    std::vector<std::pair<std::string_view, size_t>> names;
    names.reserve(attrs.size() - first);
    for (size_t i = first; i < attrs.size(); ++i)
      names.emplace_back(attrs[i].name, i - first < positions.size() ? positions[i - first] : 0);
    std::sort(names.begin(), names.end());
    for (size_t i = 1; i < names.size(); ++i)
      if (names[i].first == names[i - 1].first)
        return failAt(std::max(names[i].second, names[i - 1].second),
                      "attribute '" + std::string(names[i].first) + "' given twice");
    return true;
  }

  bool optionalAttrDict(OperationState &st) {
    if (peek() != '{')
      return true;
    return dictionary(st.attributes);
  }

  void addAttr(OperationState &st, std::string_view name, Attribute a) {
    st.attributes.push_back(NamedAttribute{name_(name), a.storage()});
  }

  /// The Context's copy of an attribute name, looked up once per name and parse.
  std::string_view name_(std::string_view name) {
    auto it = names_.find(name);
    if (it != names_.end())
      return it->second;
    std::string_view kept = intern(ctx_, name);
    names_.emplace(kept, kept);
    return kept;
  }

  // --- Values and blocks ---------------------------------------------------------------------

  struct Scope {
    std::unordered_map<std::string_view, Value> values;
    bool isolated = false;
    uint64_t id = 0;
  };
  struct Forward {
    Operation *placeholder = nullptr;
    size_t pos = 0;
    /// The scopes the use sees (up to its isolated one): a definition must be in one of them.
    std::vector<uint64_t> scopes;
  };
  struct BlockRef {
    Block *block = nullptr;
    bool defined = false;
    size_t pos = 0;
  };
  struct RegionScope {
    std::unordered_map<std::string_view, BlockRef> blocks;
    std::vector<std::unique_ptr<Block>> pending; ///< referenced, not yet defined
  };

  bool use(Use &u) {
    if (peek() != '%')
      return fail("expected an SSA value");
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

  /// Zero or more uses separated by commas (when the next token is a '%').
  bool uses(std::vector<Use> &out) {
    if (peek() != '%')
      return true;
    do {
      Use u;
      if (!use(u))
        return false;
      out.push_back(u);
    } while (accept(','));
    return true;
  }

  Scope *isolatedScope() {
    for (size_t i = scopes_.size(); i-- > 0;)
      if (scopes_[i].isolated)
        return &scopes_[i];
    return scopes_.empty() ? nullptr : &scopes_.front();
  }

  /// The value a use names; `hint` (may be null) is its type, which a forward reference needs.
  Value resolve(const Use &u, Type hint, bool strict = true) {
    for (size_t i = scopes_.size(); i-- > 0;) {
      auto it = scopes_[i].values.find(u.name);
      if (it != scopes_[i].values.end()) {
        Value v = it->second;
        if (u.index) {
          Operation *def = v.definingOp();
          if (!def || u.index >= def->numResults()) {
            failAt(u.pos, "result number out of range");
            return {};
          }
          v = def->result(u.index);
        }
        if (strict && hint && v.type() != hint) {
          failAt(u.pos, "use of " + std::string(u.name) + " as " + toString(hint) + ", but it is " +
                            toString(v.type()));
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
        failAt(u.pos, "use of " + std::string(u.name) + " as " + toString(hint) +
                          ", but it was used as " + toString(v.type()));
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

  size_t forwardDepth() const { return forwards_.empty() ? 0 : forwards_.size() - 1; }

  bool define(std::string_view name, size_t pos, Value v) {
    for (size_t i = scopes_.size(); i-- > 0;) {
      if (scopes_[i].values.count(name))
        return failAt(pos, "redefinition of " + std::string(name));
      if (scopes_[i].isolated)
        break;
    }
    scopes_.back().values.emplace(name, v);
    auto &fw = forwards_[forwardDepth()];
    auto it = fw.find(name);
    if (it != fw.end()) {
      const std::vector<uint64_t> &seen = it->second->scopes;
      if (std::find(seen.begin(), seen.end(), scopes_.back().id) == seen.end())
        return failAt(it->second->pos,
                      "use of " + std::string(name) + " outside the region that defines it");
      Operation *p = it->second->placeholder;
      if (p->result(0).type() != v.type())
        return failAt(pos, std::string(name) + " is defined as " + toString(v.type()) +
                               " but was used as " + toString(p->result(0).type()));
      p->result(0).replaceAllUsesWith(v);
      p->erase();
      it->second->placeholder = nullptr;
      fw.erase(it);
    }
    return true;
  }

  Block *blockRef(std::string_view name, size_t pos) {
    RegionScope &rs = regions_.back();
    auto it = rs.blocks.find(name);
    if (it != rs.blocks.end())
      return it->second.block;
    rs.pending.push_back(std::make_unique<Block>());
    Block *b = rs.pending.back().get();
    rs.blocks.emplace(name, BlockRef{b, false, pos});
    return b;
  }

  bool blockName(std::string_view &name) {
    if (peek() != '^')
      return fail("expected a block name");
    size_t start = pos_++;
    while (pos_ < t_.size() && isSuffixChar(t_[pos_]))
      ++pos_;
    if (pos_ == start + 1)
      return failAt(start, "expected a block name after '^'");
    name = t_.substr(start, pos_ - start);
    return true;
  }

  struct EntryArg {
    std::string_view name;
    size_t pos;
    Type type;
  };

  /// `{ ops, ^blocks }` into `region`.
  bool region(Region &region, bool isolated, const std::vector<EntryArg> *entryArgs = nullptr) {
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

  bool regionBody(Region &region, const std::vector<EntryArg> *entryArgs) {
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
            if (!t)
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

  bool blockBody(Block *b) {
    for (char c = peek(); c != '^' && c != '}'; c = peek()) {
      if (c == '\0')
        return fail("expected '}' at the end of the region");
      if (!operation(b))
        return false;
    }
    return true;
  }

  // --- Ops -----------------------------------------------------------------------------------

  OwningOp top() {
    skip();
    OwningOp op;
    if (acceptKeyword("module") || acceptKeyword("builtin.module")) {
      if (peek() == '@') {
        std::string name;
        if (!symbol(name))
          return {};
      }
      if (acceptKeyword("attributes")) {
        std::vector<NamedAttribute> ignored;
        if (!dictionary(ignored))
          return {};
      }
      if (!expect('{'))
        return {};
      op = single();
      if (!op || !expect('}'))
        return {};
    } else if (accept("\"builtin.module\"")) {
      if (!expect('(') || !expect(')') || !expect('(') || !expect('{'))
        return {};
      if (peek() == '^') {
        std::string_view name;
        if (!blockName(name) || !expect(':'))
          return {};
      }
      op = single();
      if (!op || !expect('}') || !expect(')'))
        return {};
      if (peek() == '{') {
        std::vector<NamedAttribute> ignored;
        if (!dictionary(ignored))
          return {};
      }
      if (!expect(':') || !expect('(') || !expect(')') || !expect("->") || !expect('(') ||
          !expect(')'))
        return {};
    } else {
      op = single();
      if (!op)
        return {};
    }
    if (peek() != '\0') {
      fail("expected the end of the text after the top-level op");
      return {};
    }
    return op;
  }

  /// One op, in a scope of its own, not in a block.
  OwningOp single() {
    scopes_.emplace_back();
    scopes_.back().isolated = true;
    scopes_.back().id = ++nextScope_;
    forwards_.emplace_back();
    Block holder;
    bool ok = operation(&holder);
    if (ok && !forwards_.back().empty())
      ok = failAt(forwards_.back().begin()->second->pos, "use of undefined value");
    forwards_.pop_back();
    scopes_.pop_back();
    if (!ok)
      return {};
    Operation *op = holder.front();
    if (op->numResults()) {
      failAt(0, "the top-level op has results");
      return {};
    }
    op->remove();
    return OwningOp(op);
  }

  struct ResultName {
    std::string_view name;
    size_t pos;
    uint32_t count;
  };

  bool operation(Block *b) {
    if (++depth_ > kMaxDepth)
      return fail("ops nested too deeply");
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
      const OpInfo *info = findOp(name);
      if (!info)
        return failAt(at, "unknown op \"" + name + "\"");
      op = genericOp(*info, at);
    } else {
      std::string_view name = identifier();
      const OpInfo *info = name.empty() ? nullptr : findOp(name);
      if (!info)
        return failAt(at,
                      name.empty() ? "expected an op" : "unknown op '" + std::string(name) + "'");
      if (formOf(*info) == Form::Generic)
        return failAt(at, "'" + std::string(name) +
                              "' has no custom syntax; write it in the generic form");
      op = customOp(*info, at);
    }
    if (!op)
      return false;
    b->push_back(op);
    // A location (mlir-opt --mlir-print-debuginfo): read and dropped.
    if (acceptKeyword("loc") && !skipParens())
      return false;
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

  /// `( ... )` with nested parentheses and strings.
  bool skipParens() {
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

  /// Moves the blocks of parsed regions into the op's regions.
  static void adopt(Operation *op, std::vector<std::unique_ptr<Region>> &regions) {
    for (size_t i = 0; i < regions.size(); ++i)
      while (Block *blk = regions[i]->front()) {
        regions[i]->remove(blk);
        op->region(static_cast<uint32_t>(i)).insert(blk);
      }
  }

  Operation *genericOp(const OpInfo &info, size_t at) {
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
      failAt(tat, std::to_string(ops.size()) + " operands but " +
                      std::to_string(fn.inputs().size()) + " operand types");
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

  // --- Custom forms --------------------------------------------------------------------------

  Type boolLike(Type t) {
    if (t.is(TypeKind::Vector))
      return ctx_.vector(ctx_.boolean(), t.count());
    return ctx_.boolean();
  }

  /// Resolves each use against its type (us[i] with types[i]) onto `out`.
  bool resolveEach(std::span<const Use> us, std::span<const Type> types, std::vector<Value> &out) {
    for (size_t i = 0; i < us.size(); ++i) {
      Value v = resolve(us[i], types[i]);
      if (!v)
        return false;
      out.push_back(v);
    }
    return true;
  }

  bool resolveAll(const std::vector<Use> &us, Type hint, OperationState &st) {
    for (const Use &u : us) {
      Value v = resolve(u, hint);
      if (!v)
        return false;
      st.operands.push_back(v);
    }
    return true;
  }

  bool typeList(std::vector<Type> &out) {
    do {
      Type t = type();
      if (!t)
        return false;
      out.push_back(t);
    } while (accept(','));
    return true;
  }

  bool count(const std::vector<Use> &us, size_t lo, size_t hi, size_t at) {
    if (us.size() < lo || us.size() > hi)
      return failAt(at, "wrong number of operands");
    return true;
  }

  /// The scope and semantics attributes of the op in order: `"X" "Y"` or `<X>, <Y>`.
  bool scopeAttrs(const OpInfo &info, OperationState &st, bool angle) {
    bool first = true;
    for (const OperandMapping &m : info.operands) {
      if (m.kind != OperandMapping::Kind::IdEnum)
        continue;
      if (!first && angle && !expect(','))
        return false;
      first = false;
      Attribute a = enumAttr(m.attrKind, angle);
      if (!a)
        return false;
      addAttr(st, m.name, a);
    }
    return true;
  }

  bool memoryAccess(OperationState &st) {
    if (!accept('['))
      return true;
    Attribute a = enumAttr(OperandKind::MemoryAccess, false);
    if (!a)
      return false;
    addAttr(st, "memory_access", a);
    if (accept(',')) {
      std::optional<int64_t> n = integer();
      if (!n)
        return false;
      addAttr(st, "alignment", attr::integer(ctx_, ctx_.integer(32), *n));
    }
    return expect(']');
  }

  bool variableDecorations(OperationState &st) {
    if (acceptKeyword("bind")) {
      if (!expect('('))
        return false;
      std::optional<int64_t> set = integer();
      if (!set || !expect(','))
        return false;
      std::optional<int64_t> binding = integer();
      if (!binding || !expect(')'))
        return false;
      addAttr(st, "descriptor_set", attr::integer(ctx_, ctx_.integer(32), *set));
      addAttr(st, "binding", attr::integer(ctx_, ctx_.integer(32), *binding));
    }
    if (acceptKeyword("built_in")) {
      std::string s;
      if (!expect('(') || !string(s) || !expect(')'))
        return false;
      addAttr(st, "built_in", attr::string(ctx_, s));
    }
    return true;
  }

  bool successor(OperationState &st) {
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

  /// The result type of indexing the composite `t` with constant indices; an error names why
  /// there is none.
  Type indexType(Type t, int64_t index, bool known, size_t at) {
    Type r = dialect::indexType(t, index, known);
    if (!r)
      failAt(at, !t.is(TypeKind::Struct) ? "cannot index into " + toString(t)
                 : !known                ? std::string("a struct index must be a constant")
                                         : std::string("struct index out of range"));
    return r;
  }

  /// The op, once its attributes are known to have distinct names (an attribute dictionary may
  /// repeat one the custom syntax gives).
  Operation *finish(OperationState &st) {
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
    return Operation::create(std::move(st));
  }

  Operation *customOp(const OpInfo &info, size_t at) {
    opAt_ = at;
    OperationState st(&info);
    Form form = formOf(info);
    std::vector<Use> us;
    Type t, r;
    switch (form) {
    case Form::BinarySame:
      if (!uses(us) || !count(us, 1, 64, at) || !optionalAttrDict(st) || !expect(':') ||
          !(t = type()) || !resolveAll(us, t, st))
        return nullptr;
      st.resultTypes.push_back(t);
      return finish(st);
    case Form::UnarySame:
    case Form::UnaryAttrsFirst:
    case Form::UnaryBool:
      // The attributes may come on either side of the type (MLIR's place for FNegate and
      // SNegate is before it, for the others after it).
      if (!uses(us) || !count(us, 1, 1, at) || !optionalAttrDict(st) || !expect(':') ||
          !(t = type()) || !optionalAttrDict(st) || !resolveAll(us, t, st))
        return nullptr;
      st.resultTypes.push_back(form == Form::UnaryBool ? boolLike(t) : t);
      return finish(st);
    case Form::Compare:
      if (!uses(us) || !count(us, 2, 2, at) || !expect(':') || !(t = type()) ||
          !optionalAttrDict(st) || !resolveAll(us, t, st))
        return nullptr;
      st.resultTypes.push_back(boolLike(t));
      return finish(st);
    case Form::Convert:
      if (!uses(us) || !count(us, 1, 1, at) || !optionalAttrDict(st) || !expect(':') ||
          !(t = type()) || !expectKeyword("to") || !(r = type()) || !resolveAll(us, t, st))
        return nullptr;
      st.resultTypes.push_back(r);
      return finish(st);
    case Form::ResultTyped:
      if (!uses(us) || !count(us, 1, 8, at) || !optionalAttrDict(st) || !expect(':') ||
          !(r = type()))
        return nullptr;
      if (!resolveAll(us,
                      r.is(TypeKind::Struct) && !r.members().empty() ? r.members()[0].type : Type(),
                      st))
        return nullptr;
      st.resultTypes.push_back(r);
      return finish(st);
    case Form::Atomic: {
      if (!scopeAttrs(info, st, false) || !uses(us) || !count(us, 1, 8, at) ||
          !optionalAttrDict(st) || !expect(':'))
        return nullptr;
      size_t tat = pos_;
      if (!(t = type()))
        return nullptr;
      if (!t.is(TypeKind::Pointer)) {
        failAt(tat, "expected a pointer type");
        return nullptr;
      }
      Value p = resolve(us[0], t);
      if (!p)
        return nullptr;
      st.operands.push_back(p);
      for (size_t i = 1; i < us.size(); ++i) {
        Value v = resolve(us[i], t.elementType());
        if (!v)
          return nullptr;
        st.operands.push_back(v);
      }
      st.resultTypes.push_back(t.elementType());
      return finish(st);
    }
    case Form::GroupScoped: {
      std::vector<Type> ts;
      if (!scopeAttrs(info, st, true) || !uses(us) || !count(us, 2, 2, at) ||
          !optionalAttrDict(st) || !expect(':') || !typeList(ts))
        return nullptr;
      if (ts.size() != 2) {
        failAt(at, "expected two types");
        return nullptr;
      }
      if (!resolveEach(std::span<const Use>(us).first(2), ts, st.operands))
        return nullptr;
      st.resultTypes.push_back(ts[0]);
      return finish(st);
    }
    case Form::Elect:
    case Form::Ballot:
    case Form::PlainBallot:
      if ((form != Form::PlainBallot && !scopeAttrs(info, st, true)) || !uses(us) ||
          !count(us, form == Form::Elect ? 0 : 1, form == Form::Elect ? 0 : 1, at) ||
          !optionalAttrDict(st) || !expect(':') || !(r = type()) ||
          !resolveAll(us, ctx_.boolean(), st))
        return nullptr;
      st.resultTypes.push_back(r);
      return finish(st);
    case Form::GroupArith: {
      Attribute scope = enumAttr(OperandKind::Scope, false);
      Attribute group = scope ? enumAttr(OperandKind::GroupOperation, false) : Attribute();
      Use v, cluster;
      if (!group || !use(v))
        return nullptr;
      bool clustered = acceptKeyword("cluster_size");
      if (clustered && (!expect('(') || !use(cluster) || !expect(')')))
        return nullptr;
      addAttr(st, "execution_scope", scope);
      addAttr(st, "group_operation", group);
      if (!optionalAttrDict(st) || !expect(':') || !(t = type()))
        return nullptr;
      // MLIR prints the result type; the operand's may differ (and is needed only when it is
      // defined later).
      Value x = resolve(v, t, false);
      if (!x)
        return nullptr;
      st.operands.push_back(x);
      if (clustered) {
        Value c = resolve(cluster, Type());
        if (!c)
          return nullptr;
        st.operands.push_back(c);
      }
      st.resultTypes.push_back(t);
      return finish(st);
    }
    case Form::Barrier:
      if (!scopeAttrs(info, st, true) || !optionalAttrDict(st))
        return nullptr;
      return finish(st);
    case Form::Select: {
      Type tc;
      if (!uses(us) || !count(us, 3, 3, at) || !optionalAttrDict(st) || !expect(':') ||
          !(tc = type()) || !expect(',') || !(t = type()))
        return nullptr;
      Value c = resolve(us[0], tc), a = c ? resolve(us[1], t) : Value(),
            b = a ? resolve(us[2], t) : Value();
      if (!b)
        return nullptr;
      st.operands = {c, a, b};
      st.resultTypes.push_back(t);
      return finish(st);
    }
    case Form::TwoTypes:
    case Form::BitField: {
      std::vector<Type> ts;
      bool bitField = form == Form::BitField;
      if (!uses(us) || !count(us, bitField ? 3 : 2, bitField ? 4 : 2, at) ||
          !optionalAttrDict(st) || !expect(':') || !typeList(ts))
        return nullptr;
      if (ts.size() != (bitField ? 3u : 2u)) {
        failAt(at, "wrong number of types");
        return nullptr;
      }
      std::vector<Type> hints;
      if (!bitField)
        hints = ts;
      else if (us.size() == 4)
        hints = {ts[0], ts[0], ts[1], ts[2]};
      else
        hints = ts;
      if (!resolveEach(us, hints, st.operands))
        return nullptr;
      st.resultTypes.push_back(ts[0]);
      return finish(st);
    }
    case Form::OperandsToResult:
    case Form::FunctionCall: {
      if (form == Form::FunctionCall) {
        std::string callee;
        if (!symbol(callee) || !expect('(') || !uses(us) || !expect(')'))
          return nullptr;
        addAttr(st, "callee", attr::symbolRef(ctx_, callee));
      } else if (!uses(us) || !count(us, 1, 1u << 16, at)) {
        return nullptr;
      }
      if (!optionalAttrDict(st) || !expect(':'))
        return nullptr;
      size_t tat = pos_;
      Type fn = type();
      if (!fn)
        return nullptr;
      if (!fn.is(TypeKind::Function) || fn.inputs().size() != us.size() ||
          fn.results().size() > 1 || (form != Form::FunctionCall && fn.results().size() != 1)) {
        failAt(tat, "the function type does not match the operands");
        return nullptr;
      }
      if (!resolveEach(us, fn.inputs(), st.operands))
        return nullptr;
      st.resultTypes.assign(fn.results().begin(), fn.results().end());
      return finish(st);
    }
    case Form::TypesToResult:
    case Form::TypeToResult: {
      std::vector<Type> ts;
      size_t n = form == Form::TypeToResult ? 1 : 2;
      if (!uses(us) || !count(us, n, n, at) || !optionalAttrDict(st) || !expect(':') ||
          !typeList(ts) || !expect("->") || !(r = type()))
        return nullptr;
      if (ts.size() != n) {
        failAt(at, "wrong number of types");
        return nullptr;
      }
      if (!resolveEach(std::span<const Use>(us).first(n), ts, st.operands))
        return nullptr;
      st.resultTypes.push_back(r);
      return finish(st);
    }
    case Form::SameTypeToResult:
      if (!uses(us) || !count(us, 2, 2, at) || !optionalAttrDict(st) || !expect(':') ||
          !(t = type()) || !expect("->") || !(r = type()) || !resolveAll(us, t, st))
        return nullptr;
      st.resultTypes.push_back(r);
      return finish(st);
    case Form::Printf: {
      std::vector<Type> ts;
      if (!uses(us) || !count(us, 1, 1u << 16, at) || !optionalAttrDict(st) || !expect(':') ||
          !expect('(') || !(t = type()) || !expect(',') || !expect('('))
        return nullptr;
      ts.push_back(t);
      if (!accept(')') && (!typeList(ts) || !expect(')')))
        return nullptr;
      if (!expect(')') || !expect("->") || !(r = type()))
        return nullptr;
      if (ts.size() != us.size()) {
        failAt(at, "wrong number of types");
        return nullptr;
      }
      if (!resolveEach(us, ts, st.operands))
        return nullptr;
      st.resultTypes.push_back(r);
      return finish(st);
    }
    case Form::TypedOperands: {
      if (!optionalAttrDict(st))
        return nullptr;
      do {
        Use u;
        if (!use(u) || !expect(':') || !(t = type()))
          return nullptr;
        Value v = resolve(u, t);
        if (!v)
          return nullptr;
        st.operands.push_back(v);
      } while (accept(','));
      if (!expect("->") || !(r = type()))
        return nullptr;
      st.resultTypes.push_back(r);
      return finish(st);
    }
    case Form::Undef:
      if (!optionalAttrDict(st) || !expect(':') || !(r = type()))
        return nullptr;
      st.resultTypes.push_back(r);
      return finish(st);
    case Form::NoOperands:
      if (!optionalAttrDict(st))
        return nullptr;
      return finish(st);
    case Form::ReturnValue:
      if (!uses(us) || !count(us, 1, 1, at) || !optionalAttrDict(st) || !expect(':') ||
          !(t = type()) || !resolveAll(us, t, st))
        return nullptr;
      return finish(st);
    case Form::VectorExtractDynamic:
    case Form::VectorInsertDynamic: {
      bool insert = form == Form::VectorInsertDynamic;
      Use comp, vec, idx;
      Type ti;
      if ((insert && (!use(comp) || !expect(','))) || !use(vec) || !expect('[') || !use(idx) ||
          !expect(']') || !optionalAttrDict(st) || !expect(':'))
        return nullptr;
      size_t tat = pos_;
      if (!(t = type()) || !expect(',') || !(ti = type()))
        return nullptr;
      if (!t.is(TypeKind::Vector)) {
        failAt(tat, "expected a vector type");
        return nullptr;
      }
      Value v = resolve(vec, t);
      Value c = v && insert ? resolve(comp, t.elementType()) : Value();
      Value i = v && (c || !insert) ? resolve(idx, ti) : Value();
      if (!i)
        return nullptr;
      if (insert)
        st.operands = {v, c, i};
      else
        st.operands = {v, i};
      st.resultTypes.push_back(insert ? t : t.elementType());
      return finish(st);
    }
    case Form::VectorShuffle: {
      Use a, b;
      Type ta, tb;
      if (!optionalAttrDict(st))
        return nullptr;
      if (peek() != '[') {
        fail("expected the components");
        return nullptr;
      }
      Attribute comps = attribute();
      if (!comps || !use(a) || !expect(':') || !(ta = type()) || !expect(',') || !use(b) ||
          !expect(':') || !(tb = type()) || !expect("->") || !(r = type()))
        return nullptr;
      addAttr(st, "components", comps);
      Value va = resolve(a, ta), vb = va ? resolve(b, tb) : Value();
      if (!vb)
        return nullptr;
      st.operands = {va, vb};
      st.resultTypes.push_back(r);
      return finish(st);
    }
    case Form::CompositeExtract:
    case Form::CompositeInsert: {
      bool insert = form == Form::CompositeInsert;
      Use obj, comp;
      if ((insert && (!use(obj) || !expect(','))) || !use(comp))
        return nullptr;
      skip();
      size_t iat = pos_;
      if (peek() != '[') {
        fail("expected the indices");
        return nullptr;
      }
      Attribute idx = attribute();
      if (!idx || !expect(':'))
        return nullptr;
      Type to;
      if (insert && (!(to = type()) || !expectKeyword("into")))
        return nullptr;
      if (!(t = type()))
        return nullptr;
      addAttr(st, "indices", idx);
      Type elem = t;
      for (Attribute e : idx.elements()) {
        if (!e.is(AttrKind::Integer)) {
          failAt(iat, "indices are integers");
          return nullptr;
        }
        elem = indexType(elem, e.intValue(), true, iat);
        if (!elem)
          return nullptr;
      }
      Value c = resolve(comp, t);
      if (!c)
        return nullptr;
      if (insert) {
        Value o = resolve(obj, to);
        if (!o)
          return nullptr;
        st.operands = {o, c};
      } else {
        st.operands = {c};
      }
      st.resultTypes.push_back(insert ? t : elem);
      return finish(st);
    }
    case Form::AccessChain: {
      Use base;
      std::vector<Type> ts;
      if (!use(base) || !expect('[') || !uses(us) || !expect(']') || !expect(':'))
        return nullptr;
      size_t tat = pos_;
      if (!(t = type()) || !expect(','))
        return nullptr;
      char c = peek();
      if (c != '\0' && c != '\n' && !us.empty() && !typeList(ts))
        return nullptr;
      if (ts.size() != us.size()) {
        failAt(tat, "the indices and their types differ in number");
        return nullptr;
      }
      if (!t.is(TypeKind::Pointer)) {
        failAt(tat, "expected a pointer type");
        return nullptr;
      }
      bool ptrChain = info.name != "spirv.AccessChain";
      if (ptrChain && us.empty()) {
        failAt(at, "expected the element index");
        return nullptr;
      }
      Value b = resolve(base, t);
      if (!b)
        return nullptr;
      st.operands.push_back(b);
      Type pointee = t.elementType();
      for (size_t i = 0; i < us.size(); ++i) {
        Value v = resolve(us[i], ts[i]);
        if (!v)
          return nullptr;
        st.operands.push_back(v);
        if (ptrChain && i == 0)
          continue;
        int64_t index = 0;
        bool known = false;
        if (Operation *def = v.definingOp())
          if (def->name() == "spirv.Constant")
            if (Attribute a = def->attr("value"); a.is(AttrKind::Integer)) {
              index = a.intValue();
              known = true;
            }
        pointee = indexType(pointee, index, known, us[i].pos);
        if (!pointee)
          return nullptr;
      }
      st.resultTypes.push_back(ctx_.pointer(pointee, t.storageClass()));
      return finish(st);
    }
    case Form::Load:
    case Form::Store: {
      bool load = form == Form::Load;
      Attribute sc = enumAttr(OperandKind::StorageClass, false);
      if (!sc || !uses(us) || !count(us, load ? 1 : 2, load ? 1 : 2, at) || !memoryAccess(st) ||
          !optionalAttrDict(st) || !expect(':') || !(t = type()))
        return nullptr;
      Value p = resolve(us[0], ctx_.pointer(t, sc.enumValue()));
      if (!p)
        return nullptr;
      st.operands.push_back(p);
      if (!load) {
        Value v = resolve(us[1], t);
        if (!v)
          return nullptr;
        st.operands.push_back(v);
      } else {
        st.resultTypes.push_back(t);
      }
      return finish(st);
    }
    case Form::Variable: {
      Use init;
      bool hasInit = acceptKeyword("init");
      if (hasInit && (!expect('(') || !use(init) || !expect(')')))
        return nullptr;
      if (!variableDecorations(st) || !optionalAttrDict(st) || !expect(':'))
        return nullptr;
      size_t tat = pos_;
      if (!(t = type()))
        return nullptr;
      if (!t.is(TypeKind::Pointer)) {
        failAt(tat, "expected a pointer type");
        return nullptr;
      }
      if (hasInit) {
        Value v = resolve(init, Type());
        if (!v)
          return nullptr;
        st.operands.push_back(v);
      }
      addAttr(st, "storage_class",
              attr::enumerant(ctx_, OperandKind::StorageClass, t.storageClass()));
      st.resultTypes.push_back(t);
      return finish(st);
    }
    case Form::CopyMemory: {
      Use target, source;
      Attribute ts = enumAttr(OperandKind::StorageClass, false);
      if (!ts || !use(target) || !expect(','))
        return nullptr;
      Attribute ss = enumAttr(OperandKind::StorageClass, false);
      if (!ss || !use(source) || !expect(',') || !expect(':') || !(t = type()))
        return nullptr;
      Value a = resolve(target, ctx_.pointer(t, ts.enumValue()));
      Value b = a ? resolve(source, ctx_.pointer(t, ss.enumValue())) : Value();
      if (!b)
        return nullptr;
      st.operands = {a, b};
      return finish(st);
    }
    case Form::Branch:
      if (!successor(st) || !optionalAttrDict(st))
        return nullptr;
      return finish(st);
    case Form::BranchConditional: {
      Use cond;
      if (!use(cond))
        return nullptr;
      Value c = resolve(cond, ctx_.boolean());
      if (!c)
        return nullptr;
      st.operands.push_back(c);
      if (accept('[')) {
        std::optional<int64_t> a = integer();
        std::optional<int64_t> b;
        if (!a || !expect(',') || !(b = integer()) || !expect(']'))
          return nullptr;
        Attribute w[2] = {attr::integer(ctx_, ctx_.integer(32), *a),
                          attr::integer(ctx_, ctx_.integer(32), *b)};
        addAttr(st, "branch_weights", attr::array(ctx_, w));
      }
      if (!expect(',') || !successor(st) || !expect(',') || !successor(st) || !optionalAttrDict(st))
        return nullptr;
      return finish(st);
    }
    case Form::Module: {
      if (peek() == '@') {
        std::string name;
        if (!symbol(name))
          return nullptr;
        addAttr(st, "sym_name", attr::string(ctx_, name));
      }
      skip();
      size_t eat = pos_;
      std::string_view am = identifier();
      uint32_t v = 0;
      if (am.empty()) {
        fail("expected an addressing model");
        return nullptr;
      }
      if (!enumValue(OperandKind::AddressingModel, am, eat, v))
        return nullptr;
      addAttr(st, "addressing_model", attr::enumerant(ctx_, OperandKind::AddressingModel, v));
      skip();
      eat = pos_;
      std::string_view mm = identifier();
      if (mm.empty()) {
        fail("expected a memory model");
        return nullptr;
      }
      if (!enumValue(OperandKind::MemoryModel, mm, eat, v))
        return nullptr;
      addAttr(st, "memory_model", attr::enumerant(ctx_, OperandKind::MemoryModel, v));
      if (acceptKeyword("requires")) {
        skip();
        size_t vat = pos_;
        Attribute vce = attribute();
        if (!vce)
          return nullptr;
        if (!vce.is(AttrKind::Vce)) {
          failAt(vat, "expected #spirv.vce<...>");
          return nullptr;
        }
        addAttr(st, "vce_triple", vce);
      }
      if (acceptKeyword("attributes") && !optionalAttrDict(st))
        return nullptr;
      auto reg = std::make_unique<Region>();
      if (!region(*reg, true))
        return nullptr;
      if (reg->empty())
        reg->addBlock();
      std::vector<std::unique_ptr<Region>> regs;
      regs.push_back(std::move(reg));
      st.numRegions = 1;
      Operation *op = finish(st);
      if (op)
        adopt(op, regs);
      return op;
    }
    case Form::Func:
      return func(st);
    case Form::GlobalVariable: {
      std::string name;
      if (!symbol(name))
        return nullptr;
      addAttr(st, "sym_name", attr::string(ctx_, name));
      if (acceptKeyword("initializer")) {
        std::string init;
        if (!expect('(') || !symbol(init) || !expect(')'))
          return nullptr;
        addAttr(st, "initializer", attr::symbolRef(ctx_, init));
      }
      if (!variableDecorations(st) || !optionalAttrDict(st) || !expect(':') || !(t = type()))
        return nullptr;
      addAttr(st, "type", attr::type(ctx_, t));
      return finish(st);
    }
    case Form::SpecConstant: {
      std::string name;
      if (!symbol(name))
        return nullptr;
      addAttr(st, "sym_name", attr::string(ctx_, name));
      if (acceptKeyword("spec_id")) {
        std::optional<int64_t> id;
        if (!expect('(') || !(id = integer()) || !expect(')'))
          return nullptr;
        addAttr(st, "spec_id", attr::integer(ctx_, ctx_.integer(64), *id));
      }
      if (!expect('='))
        return nullptr;
      Attribute v = attribute();
      if (!v)
        return nullptr;
      addAttr(st, "default_value", v);
      return finish(st);
    }
    case Form::SpecConstantComposite: {
      std::string name;
      if (!symbol(name) || !expect('('))
        return nullptr;
      addAttr(st, "sym_name", attr::string(ctx_, name));
      std::vector<Attribute> cs;
      if (!listUntil(')', [&] {
            std::string c;
            if (!symbol(c))
              return false;
            cs.push_back(attr::symbolRef(ctx_, c));
            return true;
          }))
        return nullptr;
      if (!expect(':') || !(t = type()))
        return nullptr;
      addAttr(st, "constituents", attr::array(ctx_, cs));
      addAttr(st, "type", attr::type(ctx_, t));
      return finish(st);
    }
    case Form::SpecConstantOperation: {
      if (!expectKeyword("wraps"))
        return nullptr;
      skip();
      size_t iat = pos_;
      std::string name;
      if (peek() != '"') {
        fail("expected the wrapped op in generic form");
        return nullptr;
      }
      if (!string(name))
        return nullptr;
      const OpInfo *inner = findOp(name);
      if (!inner) {
        failAt(iat, "unknown op \"" + name + "\"");
        return nullptr;
      }
      Operation *op = genericOp(*inner, iat);
      if (!op)
        return nullptr;
      OwningOp innerOp(op);
      if (op->numResults() != 1) {
        failAt(iat, "the wrapped op has one result");
        return nullptr;
      }
      st.resultTypes.push_back(op->result(0).type());
      st.numRegions = 1;
      Operation *outer = finish(st);
      if (!outer)
        return nullptr;
      Block *b = outer->region().addBlock();
      b->push_back(innerOp.release());
      OperationState y(&ops::yield());
      y.operands.push_back(op->result(0));
      b->push_back(Operation::create(std::move(y)));
      return outer;
    }
    case Form::EntryPoint: {
      Attribute model = enumAttr(OperandKind::ExecutionModel, false);
      std::string fn;
      if (!model || !symbol(fn))
        return nullptr;
      std::vector<Attribute> iface;
      while (accept(',')) {
        std::string s;
        if (!symbol(s))
          return nullptr;
        iface.push_back(attr::symbolRef(ctx_, s));
      }
      addAttr(st, "execution_model", model);
      addAttr(st, "fn", attr::symbolRef(ctx_, fn));
      addAttr(st, "interface", attr::array(ctx_, iface));
      return finish(st);
    }
    case Form::ExecutionMode: {
      std::string fn;
      if (!symbol(fn))
        return nullptr;
      Attribute mode = enumAttr(OperandKind::ExecutionMode, false);
      if (!mode)
        return nullptr;
      std::vector<Attribute> vals;
      while (accept(',')) {
        std::optional<int64_t> v = integer();
        if (!v)
          return nullptr;
        vals.push_back(attr::integer(ctx_, ctx_.integer(32), *v));
      }
      addAttr(st, "fn", attr::symbolRef(ctx_, fn));
      addAttr(st, "execution_mode", mode);
      addAttr(st, "values", attr::array(ctx_, vals));
      return finish(st);
    }
    case Form::AddressOf:
    case Form::ReferenceOf: {
      std::string s;
      if (!symbol(s))
        return nullptr;
      addAttr(st, form == Form::AddressOf ? "variable" : "spec_const", attr::symbolRef(ctx_, s));
      if (!optionalAttrDict(st) || !expect(':') || !(r = type()))
        return nullptr;
      st.resultTypes.push_back(r);
      return finish(st);
    }
    case Form::Constant: {
      skip();
      size_t vat = pos_;
      Attribute v = attribute();
      if (!v)
        return nullptr;
      switch (v.kind()) {
      case AttrKind::Bool:
        r = ctx_.boolean();
        break;
      case AttrKind::Integer:
      case AttrKind::Float:
      case AttrKind::Dense:
        r = v.type();
        break;
      case AttrKind::Array:
        if (!expect(':') || !(r = type()))
          return nullptr;
        break;
      default:
        failAt(vat, "expected a constant value");
        return nullptr;
      }
      addAttr(st, "value", v);
      st.resultTypes.push_back(r);
      return finish(st);
    }
    case Form::Selection:
    case Form::Loop: {
      bool sel = form == Form::Selection;
      if (acceptKeyword("control")) {
        if (!expect('('))
          return nullptr;
        skip();
        size_t cat = pos_;
        size_t start = pos_;
        while (pos_ < t_.size() && t_[pos_] != ')' && t_[pos_] != '\n')
          ++pos_;
        uint32_t v = 0;
        OperandKind kind = sel ? OperandKind::SelectionControl : OperandKind::LoopControl;
        if (!enumValue(kind, t_.substr(start, pos_ - start), cat, v) || !expect(')'))
          return nullptr;
        addAttr(st, sel ? "selection_control" : "loop_control", attr::enumerant(ctx_, kind, v));
      } else {
        addAttr(st, sel ? "selection_control" : "loop_control",
                attr::enumerant(ctx_,
                                sel ? OperandKind::SelectionControl : OperandKind::LoopControl, 0));
      }
      auto reg = std::make_unique<Region>();
      if (!region(*reg, false))
        return nullptr;
      std::vector<std::unique_ptr<Region>> regs;
      regs.push_back(std::move(reg));
      st.numRegions = 1;
      Operation *op = finish(st);
      if (op)
        adopt(op, regs);
      return op;
    }
    case Form::GroupReduce: {
      Attribute scope = enumAttr(OperandKind::Scope, true);
      Attribute group = scope ? enumAttr(OperandKind::GroupOperation, true) : Attribute();
      if (!group || !uses(us) || !count(us, 1, 1, at))
        return nullptr;
      addAttr(st, "execution_scope", scope);
      addAttr(st, "group_operation", group);
      if (!optionalAttrDict(st) || !expect(':') || !(t = type()) || !resolveAll(us, t, st))
        return nullptr;
      st.resultTypes.push_back(t);
      return finish(st);
    }
    case Form::Image: {
      if (!optionalAttrDict(st) || !uses(us) || !count(us, 1, 1, at) || !expect(':'))
        return nullptr;
      size_t tat = pos_;
      if (!(t = type()))
        return nullptr;
      if (!t.is(TypeKind::SampledImage)) {
        failAt(tat, "expected a sampled image type");
        return nullptr;
      }
      if (!resolveAll(us, t, st))
        return nullptr;
      st.resultTypes.push_back(t.elementType());
      return finish(st);
    }
    case Form::ImageDrefGather: {
      for (int i = 0; i < 3; ++i) {
        Use u;
        if ((i && !expect(',')) || !use(u) || !expect(':') || !(t = type()))
          return nullptr;
        Value v = resolve(u, t);
        if (!v)
          return nullptr;
        st.operands.push_back(v);
      }
      if (accept('[')) {
        Attribute io = enumAttr(OperandKind::ImageOperands, false);
        if (!io || !expect(']'))
          return nullptr;
        addAttr(st, "imageoperands", io);
        if (accept('(')) {
          std::vector<Type> ts;
          if (!uses(us) || !expect(':') || !typeList(ts) || !expect(')'))
            return nullptr;
          if (ts.size() != us.size()) {
            failAt(at, "the image operands and their types differ in number");
            return nullptr;
          }
          if (!resolveEach(us, ts, st.operands))
            return nullptr;
        }
      }
      if (!optionalAttrDict(st) || !expect("->") || !(r = type()))
        return nullptr;
      st.resultTypes.push_back(r);
      return finish(st);
    }
    case Form::CoopMatrixLoad:
    case Form::CoopMatrixStore: {
      bool load = form == Form::CoopMatrixLoad;
      if (!uses(us) || !count(us, load ? 3 : 4, load ? 3 : 4, at) || !expect(':') || !(t = type()))
        return nullptr;
      Type second;
      if (load ? !expectKeyword("as") : !expect(','))
        return nullptr;
      if (!(second = type()))
        return nullptr;
      Value p = resolve(us[0], t);
      if (!p)
        return nullptr;
      st.operands.push_back(p);
      for (size_t i = 1; i < us.size(); ++i) {
        Value v = resolve(us[i], !load && i == 1 ? second : Type());
        if (!v)
          return nullptr;
        st.operands.push_back(v);
      }
      if (load)
        st.resultTypes.push_back(second);
      return finish(st);
    }
    case Form::BlockRead:
    case Form::BlockWrite: {
      bool read = form == Form::BlockRead;
      if (!uses(us) || !count(us, read ? 1 : 2, read ? 1 : 2, at) || !expect(':') || !(t = type()))
        return nullptr;
      for (size_t i = 0; i < us.size(); ++i) {
        Value v = resolve(us[i], i == 1 ? t : Type());
        if (!v)
          return nullptr;
        st.operands.push_back(v);
      }
      if (read)
        st.resultTypes.push_back(t);
      return finish(st);
    }
    case Form::CoopMatrixLength:
      if (!optionalAttrDict(st) || !expect(':') || !(t = type()))
        return nullptr;
      addAttr(st, "cooperative_matrix_type", attr::type(ctx_, t));
      st.resultTypes.push_back(ctx_.integer(32));
      return finish(st);
    case Form::MulAdd: {
      std::vector<Type> ts;
      if (!uses(us) || !count(us, 3, 3, at) || !optionalAttrDict(st) || !expect(':') ||
          !typeList(ts) || !expect("->") || !(r = type()))
        return nullptr;
      if (ts.size() != 2) {
        failAt(at, "expected two types before '->'");
        return nullptr;
      }
      ts.push_back(r);
      if (!resolveEach(std::span<const Use>(us).first(3), ts, st.operands))
        return nullptr;
      st.resultTypes.push_back(r);
      return finish(st);
    }
    case Form::KhrCoopLoad:
    case Form::KhrCoopStore:
    case Form::KhrMulAdd: {
      const bool mulAdd = form == Form::KhrMulAdd, load = form == Form::KhrCoopLoad;
      const std::string_view first = mulAdd ? "matrix_operands" : "matrix_layout";
      // The values, then the enumerants in angle brackets after a comma.
      bool angle = false;
      if (peek() == '%') {
        do {
          if (peek() == '<') {
            angle = true;
            break;
          }
          Use u;
          if (!use(u))
            return nullptr;
          us.push_back(u);
        } while (accept(','));
      }
      if (!count(us, load ? 2 : 3, load ? 2 : 3, at))
        return nullptr;
      if (!angle && !mulAdd) {
        failAt(at, "expected the matrix layout after the operands, as <RowMajor>");
        return nullptr;
      }
      if (angle) {
        OperandKind kind{};
        for (const OperandMapping &m : info.operands)
          if (m.name == first)
            kind = m.kind == OperandMapping::Kind::IdEnum ? m.attrKind : m.operandKind;
        Attribute a = enumAttr(kind, true);
        if (!a)
          return nullptr;
        addAttr(st, first, a);
        if (!mulAdd && accept(',')) {
          Attribute mem = enumAttr(OperandKind::MemoryAccess, true);
          if (!mem)
            return nullptr;
          addAttr(st, "memory_operand", mem);
        }
      }
      std::vector<Type> ts;
      if (!optionalAttrDict(st) || !expect(':') || !typeList(ts))
        return nullptr;
      if ((mulAdd || load) && (!expect("->") || !(r = type())))
        return nullptr;
      if (mulAdd)
        ts.push_back(r);
      if (ts.size() != us.size()) {
        failAt(at, "wrong number of types");
        return nullptr;
      }
      if (!resolveEach(us, ts, st.operands))
        return nullptr;
      if (mulAdd || load)
        st.resultTypes.push_back(r);
      return finish(st);
    }
    case Form::AssumeTrue:
      if (!uses(us) || !count(us, 1, 1, at) || !optionalAttrDict(st) ||
          !resolveAll(us, ctx_.boolean(), st))
        return nullptr;
      return finish(st);
    case Form::Generic:
      break;
    }
    failAt(at, "no custom syntax");
    return nullptr;
  }

  Operation *func(OperationState &st) {
    std::string name;
    if (!symbol(name) || !expect('('))
      return nullptr;
    std::vector<EntryArg> args;
    std::vector<Type> inputs, results;
    std::vector<Attribute> argAttrs;
    bool anyArgAttrs = false;
    bool named = peek() == '%';
    if (!accept(')')) {
      do {
        if (named) {
          Use u;
          if (!use(u) || !expect(':'))
            return nullptr;
          Type t = type();
          if (!t)
            return nullptr;
          args.push_back({u.name, u.pos, t});
          inputs.push_back(t);
        } else {
          Type t = type();
          if (!t)
            return nullptr;
          inputs.push_back(t);
        }
        // An argument's attributes: `{spirv.decoration = #spirv.decoration<Aliased>}`.
        OperationState scratch(nullptr);
        if (peek() == '{' && !optionalAttrDict(scratch))
          return nullptr;
        anyArgAttrs |= !scratch.attributes.empty();
        argAttrs.push_back(attr::dictionary(ctx_, scratch.attributes));
      } while (accept(','));
      if (!expect(')'))
        return nullptr;
    }
    if (accept("->")) {
      if (accept('(')) {
        if (!accept(')') && (!typeList(results) || !expect(')')))
          return nullptr;
      } else {
        Type t = type();
        if (!t)
          return nullptr;
        results.push_back(t);
      }
    }
    Attribute control = enumAttr(OperandKind::FunctionControl, false);
    if (!control)
      return nullptr;
    addAttr(st, "sym_name", attr::string(ctx_, name));
    addAttr(st, "function_type", attr::type(ctx_, ctx_.function(inputs, results)));
    addAttr(st, "function_control", control);
    if (anyArgAttrs)
      addAttr(st, "arg_attrs", attr::array(ctx_, argAttrs));
    if (acceptKeyword("attributes") && !optionalAttrDict(st))
      return nullptr;
    std::vector<std::unique_ptr<Region>> regs;
    regs.push_back(std::make_unique<Region>());
    if (peek() == '{') {
      if (!named && !inputs.empty()) {
        fail("a function with a body names its arguments");
        return nullptr;
      }
      if (!region(*regs.back(), true, &args))
        return nullptr;
    } else if (named) {
      fail("expected the function's body");
      return nullptr;
    }
    st.numRegions = 1;
    Operation *op = finish(st);
    if (op)
      adopt(op, regs);
    return op;
  }

  Context &ctx_;
  std::string_view t_;
  size_t pos_ = 0;
  int depth_ = 0;
  std::string error_;
  size_t errorPos_ = 0;
  std::vector<Scope> scopes_;
  std::vector<std::unordered_map<std::string_view, Forward *>> forwards_;
  std::deque<std::pair<std::string_view, Forward>> forwardsStorage_;
  std::vector<RegionScope> regions_;
  std::unordered_map<std::string_view, Type> typeCache_;
  size_t opAt_ = 0;
  std::unordered_map<std::string_view, std::string_view> names_;
  std::unordered_map<uint64_t, Attribute> enums_;
  uint64_t nextScope_ = 0;
};

} // namespace

Expected<OwningOp> parse(Context &context, std::string_view text) {
  Parser p(context, text);
  return p.run();
}

} // namespace spire::dialect
