// The parser's literals, types and attributes: strings, symbols, numbers, MLIR's attribute
// syntax (integers and floats with their types, dense vectors, arrays, dictionaries, #spirv
// enumerants and the vce triple), enumerants by name.
#include "TextParser.h"

#include "AsmText.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace spire::dialect {

using grammar::OperandKind;
using namespace lexing;

bool TextParser::string(std::string &out) {
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
bool TextParser::symbol(std::string &out) {
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

bool TextParser::symbolRef(std::string &out) {
  if (peek() == '"')
    return fail("invalid kind of attribute specified");
  return symbol(out);
}

bool TextParser::symbolName(OperationState &st) {
  std::string name;
  if (!symbol(name))
    return false;
  addAttr(st, "sym_name", attr::string(ctx_, name));
  return true;
}

std::optional<int64_t> TextParser::integer() {
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
size_t TextParser::typeEnd(size_t pos) const {
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

/// Whether the text at `pos` can start a type: '!' or '(' (a function type), or one of the
/// builtin type keywords (iN, siN, uiN, fN and the other float names, index, none, vector...).
static bool startsType(std::string_view t, size_t pos) {
  if (pos >= t.size())
    return false;
  if (t[pos] == '!' || t[pos] == '(')
    return true;
  size_t end = pos;
  while (end < t.size() && (isLetter(t[end]) || isDigit(t[end]) || t[end] == '_'))
    ++end;
  std::string_view w = t.substr(pos, end - pos);
  for (std::string_view prefix : {"si", "ui", "i", "f"})
    if (w.size() > prefix.size() && w.starts_with(prefix) && isDigit(w[prefix.size()]))
      return true;
  for (std::string_view k :
       {"bf16", "tf32", "index", "none", "vector", "tensor", "memref", "complex", "tuple"})
    if (w == k)
      return true;
  return false;
}

Type TextParser::type() {
  skip();
  // MLIR's words for a missing type, where it reports them.
  if (!startsType(t_, pos_)) {
    fail("expected non-function type");
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
  TypePrefixes prefixes;
  Expected<Type> t = parseTypePrefix(ctx_, t_.substr(pos_), consumed, &prefixes);
  if (!t) {
    failAt(pos_ + t.error().location.column - 1, t.error().message);
    return {};
  }
  // The prefixes the type spells, in the order they come.
  const size_t at = pos_;
  bool spvFirst = prefixes.spv < prefixes.spirv;
  for (int i = 0; i < 2; ++i) {
    const bool spv = (i == 0) == spvFirst;
    size_t where = spv ? prefixes.spv : prefixes.spirv;
    if (where != std::string_view::npos &&
        !spelled(spv ? Spelling::SpvPrefix : Spelling::SpirvPrefix, at + where))
      return {};
  }
  if (!span.empty() && consumed == span.size())
    typeCache_.emplace(span, *t);
  pos_ += consumed;
  return *t;
}

bool TextParser::typeList(std::vector<Type> &out) {
  do {
    Type t = type();
    if (!t)
      return false;
    out.push_back(t);
  } while (accept(','));
  return true;
}

/// A number's text: -?digits[.digits][e[+-]digits], or 0x hex digits.
std::optional<TextParser::Literal> TextParser::numberText() {
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

bool TextParser::isFloatText(std::string_view s) {
  return s.find_first_of(".eE") != std::string_view::npos && s.find("0x") == std::string_view::npos;
}

/// The literal as an attribute of type `t` (an integer or float type).
Attribute TextParser::typedLiteral(const Literal &lit, Type t) {
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
      d = floatOfBits(t, bits);
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

namespace {

/// The value of an enumerant of `kind` named `part` as the grammar or MLIR spells it (`Dim2D`
/// as well as `2D`).
bool namedEnumerant(OperandKind kind, std::string_view part, uint32_t &v) {
  const grammar::EnumerantDesc *e = grammar::findEnumerant(kind, part);
  if (!e && kind == OperandKind::Dim && part.substr(0, 3) == "Dim")
    e = grammar::findEnumerant(kind, part.substr(3));
  if (e) {
    v = e->value;
    return true;
  }
  return mlirEnumerantValue(kind, part, v);
}

} // namespace

bool TextParser::enumValue(OperandKind kind, std::string_view text, size_t at, uint32_t &value,
                           std::string_view op, std::string_view attrName) {
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
    } else if (namedEnumerant(kind, part, v)) {
    } else if (!op.empty()) {
      return failAt(at, "custom op '" + opName(op) + "' invalid " + std::string(attrName) +
                            " attribute specification: \"" + std::string(text) + "\"");
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
Attribute TextParser::enumAttr(OperandKind kind, bool angle, std::string_view op,
                               std::string_view attrName) {
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
    const size_t end = pos_;
    if (!expect('>'))
      return {};
    if (op.empty() && !knownEnumerants(kind, text, start, end))
      return {};
  } else {
    if (!string(buf))
      return {};
    text = buf;
  }
  uint32_t v = 0;
  if (!enumValue(kind, text, at, v, op, attrName))
    return {};
  uint64_t key = (uint64_t(static_cast<uint32_t>(kind)) << 32) | v;
  auto it = enums_.find(key);
  if (it != enums_.end())
    return it->second;
  return enums_.emplace(key, attr::enumerant(ctx_, kind, v)).first->second;
}

/// Whether every name in `text` (`Name` or `A|B`, from `start` to `end` of the text) is an
/// enumerant of `kind`; else the errors of MLIR's parser of an enum attribute in angle brackets
/// (`<Something>`): that the keyword is none of the enum's, then that the attribute failed.
bool TextParser::knownEnumerants(OperandKind kind, std::string_view text, size_t start,
                                 size_t end) {
  size_t i = 0;
  do {
    size_t bar = text.find('|', i);
    std::string_view part = text.substr(i, bar == std::string_view::npos ? text.npos : bar - i);
    size_t partAt = start + i;
    while (!part.empty() && part.front() == ' ') {
      part.remove_prefix(1);
      ++partAt;
    }
    while (!part.empty() && part.back() == ' ')
      part.remove_suffix(1);
    uint32_t v = 0;
    if (!part.empty() && !isDigit(part[0]) && !namedEnumerant(kind, part, v)) {
      // MLIR names the enum and its attribute constraint as its ODS does: `::mlir::spirv::Scope`,
      // `SPIRV_ScopeAttr` (MLIR 15: `SPV_ScopeAttr`).
      const std::string name(grammar::operandKindName(kind));
      std::string cases;
      for (const grammar::EnumerantDesc &e : grammar::operandKind(kind).enumerants)
        cases += (cases.empty() ? "" : ", ") + std::string(e.name);
      const std::string constraint =
          std::string(messages() == MlirVersion::Mlir15 ? "SPV_" : "SPIRV_") + name + "Attr";
      return failAt(partAt, "expected ::mlir::spirv::" + name + " to be one of: " + cases, end,
                    "failed to parse " + constraint +
                        " parameter 'value' which is to be a `::mlir::spirv::" + name + "`",
                    Severity::Error);
    }
    if (bar == std::string_view::npos)
      break;
    i = bar + 1;
  } while (true);
  return true;
}

Attribute TextParser::attribute() {
  if (++depth_ > kMaxDepth) {
    fail("attribute nested too deeply");
    return {};
  }
  Attribute a = attributeInner();
  --depth_;
  return failed() ? Attribute() : a;
}

Attribute TextParser::attributeInner() {
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
    if (!acceptDialectPrefix()) {
      if (!failed())
        fail("expected a #spirv attribute");
      return {};
    }
    std::string_view kind = identifier();
    if (kind == "vce")
      return vce();
    if (kind == "linkage_attributes")
      return linkageAttributes();
    if (kind == "target_env")
      return targetEnv();
    if (kind == "resource_limits")
      return resourceLimits();
    if (kind == "undef")
      return attr::undef(ctx_);
    if (kind == "null")
      return attr::null(ctx_);
    if (std::optional<DialectEnumKind> d = dialectEnumNamed(kind))
      return dialectEnumAttr(*d);
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

Attribute TextParser::vce() {
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

/// `<linkage_name = name, linkage_type = <Import>>`, the name quoted or bare.
Attribute TextParser::linkageAttributes() {
  if (!expect('<') || !expectKeyword("linkage_name") || !expect('='))
    return {};
  std::string name;
  if (peek() == '"') {
    if (!string(name))
      return {};
  } else {
    name = identifier();
    if (name.empty()) {
      fail("expected a linkage name");
      return {};
    }
  }
  if (!expect(',') || !expectKeyword("linkage_type") || !expect('='))
    return {};
  Attribute type = enumAttr(OperandKind::LinkageType, true);
  if (!type || !expect('>'))
    return {};
  return attr::linkage(ctx_, name, type.enumValue());
}

/// `<#spirv.vce<...>, [api=API,] [Vendor:DeviceType[:id],] #spirv.resource_limits<...>>`; what
/// lies between the triple and the limits is kept as text.
Attribute TextParser::targetEnv() {
  if (!expect('<') || !expect('#'))
    return {};
  if (!acceptDialectPrefix()) {
    if (!failed())
      fail("expected #spirv.vce");
    return {};
  }
  if (!expect("vce"))
    return {};
  Attribute triple = vce();
  if (!triple || !expect(','))
    return {};
  std::string device;
  while (!failed() && peek() != '#') {
    std::string_view part = until(',');
    while (!part.empty() && part.back() == ' ')
      part.remove_suffix(1);
    if (part.empty() || part.find_first_of("<>") != std::string_view::npos) {
      fail("expected the target's api, device or #spirv.resource_limits");
      return {};
    }
    device += device.empty() ? "" : ", ";
    device += part;
    if (!expect(','))
      return {};
  }
  if (!expect('#'))
    return {};
  if (!acceptDialectPrefix()) {
    if (!failed())
      fail("expected #spirv.resource_limits");
    return {};
  }
  if (!expect("resource_limits"))
    return {};
  Attribute limits = resourceLimits();
  if (!limits || !expect('>'))
    return {};
  return attr::targetEnv(ctx_, triple, device, limits);
}

/// `<name = N, name = [N, ...], ...>` as a dictionary of i32 values (and arrays of them).
Attribute TextParser::resourceLimits() {
  if (!expect('<'))
    return {};
  std::vector<NamedAttribute> entries;
  Type i32 = ctx_.integer(32);
  auto value = [&]() -> Attribute {
    std::optional<int64_t> v = integer();
    return v ? attr::integer(ctx_, i32, *v) : Attribute();
  };
  if (!listUntil('>', [&] {
        std::string_view name = identifier();
        if (name.empty())
          return fail("expected a resource limit");
        if (!expect('='))
          return false;
        Attribute a;
        if (accept('[')) {
          std::vector<Attribute> elems;
          if (!listUntil(']', [&] {
                Attribute e = value();
                if (e)
                  elems.push_back(e);
                return bool(e);
              }))
            return false;
          a = attr::array(ctx_, elems);
        } else {
          a = value();
        }
        if (a)
          entries.push_back({intern(ctx_, name), a.storage()});
        return bool(a);
      }))
    return {};
  return attr::dictionary(ctx_, std::move(entries));
}

Attribute TextParser::dense() {
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
  // A vector's components, or an ARM tensor's elements in row-major order (its shape known).
  uint64_t count = t.is(TypeKind::Vector) ? t.count() : 0;
  if ((t.is(TypeKind::TensorArm) || t.is(TypeKind::Tensor)) && t.count() != Type::kUnranked) {
    count = 1;
    for (uint32_t d : t.shape())
      count = d == Type::kDynamicDim || count * d > (1u << 24) ? 0 : count * d;
  }
  if (!count) {
    failAt(at, "a dense attribute needs a vector type or a tensor type of a known shape");
    return {};
  }
  Type e = t.elementType();
  std::vector<Attribute> elems;
  if (splat) {
    Attribute a = typedLiteral(lits[0], e);
    if (!a)
      return {};
    elems.assign(count, a);
  } else {
    if (lits.size() != count) {
      failAt(at, "the dense attribute has " + std::to_string(lits.size()) + " elements, its type " +
                     std::to_string(count));
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
bool TextParser::dictionary(std::vector<NamedAttribute> &out) {
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
      // MLIR 16's spelling of the linkage: ["name", #spirv.linkage_type<Import>].
      std::span<const Attribute> parts =
          value.is(AttrKind::Array) ? value.elements() : std::span<const Attribute>();
      if (name == "linkage_attributes" && parts.size() == 2 && parts[0].is(AttrKind::String) &&
          parts[1].is(AttrKind::Enum) && parts[1].enumKind() == OperandKind::LinkageType)
        value = attr::linkage(ctx_, parts[0].str(), parts[1].enumValue());
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
bool TextParser::unique(const std::vector<NamedAttribute> &attrs,
                        const std::vector<size_t> &positions, size_t first) {
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

bool TextParser::optionalAttrDict(OperationState &st) {
  if (peek() != '{')
    return true;
  return dictionary(st.attributes);
}

void TextParser::addAttr(OperationState &st, std::string_view name, Attribute a) {
  st.attributes.push_back(NamedAttribute{name_(name), a.storage()});
}

/// The Context's copy of an attribute name, looked up once per name and parse.
std::string_view TextParser::name_(std::string_view name) {
  auto it = names_.find(name);
  if (it != names_.end())
    return it->second;
  std::string_view kept = intern(ctx_, name);
  names_.emplace(kept, kept);
  return kept;
}

Attribute TextParser::dialectEnumAttr(DialectEnumKind kind) {
  if (!expect('<'))
    return {};
  size_t at = position();
  std::string_view name = identifier();
  std::optional<uint32_t> value = dialectEnumValue(kind, name);
  if (!value) {
    failAt(at,
           "unknown " + std::string(dialectEnumName(kind)) + " value '" + std::string(name) + "'");
    return {};
  }
  if (!expect('>'))
    return {};
  return attr::dialectEnum(ctx_, kind, *value);
}

} // namespace spire::dialect
