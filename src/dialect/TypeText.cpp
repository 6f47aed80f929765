// Types in MLIR's syntax: the printer writes what mlir-translate-16 writes; the parser also takes
// the other spellings the dialect's documentation uses (Dim "1D" as well as "Dim1D", arrays
// "4xf32" as well as "4 x f32", struct members with or without parentheses).
#include "spire/dialect/Types.h"

#include "spire/grammar/Grammar.h"

#include "AsmText.h"
#include "Naming.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <unordered_map>
#include <unordered_set>

namespace spire::dialect {

namespace {

using grammar::OperandKind;

/// The floats with an FP Encoding operand, by MLIR's builtin type names.
struct EncodedFloat {
  std::string_view name;
  SmallFloat format;
  grammar::FPEncoding encoding;
};
constexpr EncodedFloat kEncodedFloats[] = {
    {"bf16", SmallFloat::BFloat16, grammar::FPEncoding::BFloat16KHR},
    {"f8E4M3FN", SmallFloat::E4M3, grammar::FPEncoding::Float8E4M3EXT},
    {"f8E5M2", SmallFloat::E5M2, grammar::FPEncoding::Float8E5M2EXT},
};

std::string_view encodedFloatName(SmallFloat format) {
  for (const EncodedFloat &f : kEncodedFloats)
    if (f.format == format)
      return f.name;
  return "<<unknown float encoding>>";
}

// The name MLIR 16 gives an enumerant: the grammar's, except that of the names a value has
// (vendor forms that became KHR), the KHR one (IncomingRayPayloadKHR, not ...NV).
std::string enumName(OperandKind kind, uint32_t value) {
  const grammar::EnumerantDesc *e = grammar::findEnumerant(kind, value);
  if (!e)
    return std::to_string(value);
  auto isKhr = [](std::string_view n) { return n.size() > 3 && n.substr(n.size() - 3) == "KHR"; };
  if (!isKhr(e->name))
    for (std::string_view alias : e->aliases)
      if (isKhr(alias))
        return std::string(alias);
  return std::string(e->name);
}

// Struct names MLIR reads as bare identifiers print as they are; others as quoted strings. A
// bare identifier starts with a letter or '_' ('$' and '.' only follow: HLSL's "$Global" is
// quoted).
bool isBareIdentifier(std::string_view name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
    return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '$' && c != '.')
      return false;
  return true;
}

// Letters, digits, '_', '$' and '.' only (what the type parser reads as a word).
bool ofIdentifierCharacters(std::string_view name) {
  if (name.empty())
    return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '$' && c != '.')
      return false;
  return true;
}

void printQuoted(std::string_view s, std::string &out) {
  static const char *kHex = "0123456789ABCDEF";
  out += '"';
  for (char c : s) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\' || u < 0x20 || u >= 0x7F) {
      out += '\\';
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += c;
    }
  }
  out += '"';
}

std::string dimName(uint32_t dim) {
  std::string n = enumName(OperandKind::Dim, dim);
  return !n.empty() && n[0] >= '0' && n[0] <= '9' ? "Dim" + n : n;
}

constexpr std::string_view kDepth[] = {"NoDepth", "IsDepth", "DepthUnknown"};
constexpr std::string_view kArrayed[] = {"NonArrayed", "Arrayed"};
constexpr std::string_view kSampling[] = {"SingleSampled", "MultiSampled"};
constexpr std::string_view kSamplerUse[] = {"SamplerUnknown", "NeedSampler", "NoSampler"};
constexpr std::string_view kMatrixUse[] = {"MatrixA", "MatrixB", "MatrixAcc"};

template <size_t N> std::string pick(const std::string_view (&names)[N], uint32_t v) {
  return v < N ? std::string(names[v]) : std::to_string(v);
}

/// "OpTypeRayQueryKHR" -> "ray_query_khr".
std::string opaqueName(std::string_view opname) { return snakeCase(opname.substr(6)); }

class Printer {
public:
  explicit Printer(std::string &out, MlirVersion version = MlirVersion::Latest)
      : out_(out), version_(version), mlir16_(version <= MlirVersion::Mlir16) {}

  void type(Type t) {
    if (!t) {
      out_ += "<<null type>>";
      return;
    }
    switch (t.kind()) {
    case TypeKind::None:
      out_ += "none";
      return;
    case TypeKind::Integer:
      out_ += t.signedness() == Signedness::Signed     ? "si"
              : t.signedness() == Signedness::Unsigned ? "ui"
                                                       : "i";
      out_ += std::to_string(t.width());
      return;
    case TypeKind::Float:
      if (std::optional<SmallFloat> small = smallFloatOf(t); small && t.fpEncoding())
        out_ += encodedFloatName(*small);
      else
        out_ += "f" + std::to_string(t.width());
      return;
    case TypeKind::Vector:
      out_ += "vector<" + std::to_string(t.count()) + "x";
      type(t.elementType());
      out_ += ">";
      return;
    case TypeKind::Array:
      dialectType("array<");
      if (!t.lengthSymbol().empty())
        symbol(t.lengthSymbol());
      else
        out_ += std::to_string(t.count());
      out_ += " x ";
      type(t.elementType());
      stride(t);
      out_ += ">";
      return;
    case TypeKind::RuntimeArray:
      dialectType("rtarray<");
      type(t.elementType());
      stride(t);
      out_ += ">";
      return;
    case TypeKind::Pointer:
      dialectType("ptr<");
      type(t.elementType());
      out_ += ", " + enumName(OperandKind::StorageClass, t.storageClass());
      if (!mlir16_)
        stride(t);
      out_ += ">";
      return;
    case TypeKind::Image: {
      const ImageInfo &i = t.image();
      dialectType("image<");
      type(i.sampledType);
      out_ += ", " + dimName(i.dim) + ", " + pick(kDepth, i.depth) + ", " +
              pick(kArrayed, i.arrayed) + ", " + pick(kSampling, i.ms) + ", " +
              pick(kSamplerUse, i.sampled) + ", " + enumName(OperandKind::ImageFormat, i.format);
      // The access qualifier (OpenCL's), which MLIR has no syntax for, after the format.
      if (i.access != ~0u && !mlir16_)
        out_ += ", " + enumName(OperandKind::AccessQualifier, i.access);
      out_ += ">";
      return;
    }
    case TypeKind::SampledImage:
      dialectType("sampled_image<");
      type(t.elementType());
      out_ += ">";
      return;
    case TypeKind::Sampler:
      dialectType("sampler");
      return;
    case TypeKind::Matrix:
      dialectType("matrix<" + std::to_string(t.count()) + " x ");
      type(t.elementType());
      out_ += ">";
      return;
    case TypeKind::CooperativeMatrix:
      coopMatrix(t);
      return;
    case TypeKind::JointMatrix:
      // "!spirv.jointmatrix<8x16xi32, RowMajor, Subgroup>": rows x columns x element type, the
      // layout, the scope.
      out_ += "!spirv.jointmatrix<" + std::to_string(t.count()) + "x" +
              std::to_string(t.columns()) + "x";
      type(t.elementType());
      out_ += ", " + enumName(OperandKind::JointMatrixLayoutINTEL, t.matrixLayout()) + ", " +
              enumName(OperandKind::Scope, t.scope()) + ">";
      return;
    case TypeKind::Function:
      function(t);
      return;
    case TypeKind::Tensor:
      out_ += "tensor<";
      for (uint32_t d : t.shape())
        out_ += std::to_string(d) + "x";
      type(t.elementType());
      out_ += ">";
      return;
    case TypeKind::GraphArm:
      dialectType("arm.graph<");
      function(t);
      out_ += ">";
      return;
    case TypeKind::Struct:
      structType(t);
      return;
    case TypeKind::Opaque:
      opaque(t);
      return;
    case TypeKind::TensorArm:
      // "!spirv.arm.tensor<2x?xi32>", "!spirv.arm.tensor<*xi32>" (unranked).
      dialectType("arm.tensor<");
      if (t.count() == Type::kUnranked)
        out_ += "*x";
      for (uint32_t d : t.shape())
        out_ += (d == Type::kDynamicDim ? std::string("?") : std::to_string(d)) + "x";
      type(t.elementType());
      out_ += ">";
      return;
    }
  }

  // A specialization constant's symbol: "@n", or "@\"name\"" where it is not an identifier.
  void symbol(std::string_view name) {
    out_ += '@';
    if (isBareIdentifier(name))
      out_ += name;
    else
      printQuoted(name, out_);
  }

  // "!spirv.coopmatrix<8x16xf32, Subgroup, MatrixA>" (KHR, with its use) and
  // "!spirv.NV.coopmatrix<8x16xf32, Subgroup>" (NV), as today's MLIR spells them; MLIR 16 had
  // only the NV type, spelled "!spirv.coopmatrix<8x16xf32, Subgroup>". Rows, columns, scope and
  // use may be specialization constants' symbols; the dimensions are then spaced as an array's
  // are ("8 x @n x f32"), since a symbol followed by "x" would read as one word.
  void coopMatrix(Type t) {
    auto param = [&](CoopOperand which) { return t.coopParam(which); };
    const CoopParam rows = param(CoopOperand::Rows), cols = param(CoopOperand::Columns);
    const std::string_view x = rows.symbol.empty() && cols.symbol.empty() ? "x" : " x ";
    dialectType(t.hasUse() || mlir16_ ? "coopmatrix<" : "NV.coopmatrix<");
    for (const CoopParam &dim : {rows, cols}) {
      if (dim.symbol.empty())
        out_ += std::to_string(dim.value);
      else
        symbol(dim.symbol);
      out_ += x;
    }
    type(t.elementType());
    out_ += ", ";
    if (CoopParam scope = param(CoopOperand::Scope); !scope.symbol.empty())
      symbol(scope.symbol);
    else
      out_ += enumName(OperandKind::Scope, scope.value);
    if (CoopParam use = param(CoopOperand::Use); t.hasUse()) {
      out_ += ", ";
      if (!use.symbol.empty())
        symbol(use.symbol);
      else
        out_ += pick(kMatrixUse, use.value);
    }
    out_ += ">";
  }

  // !spirv.<opname without OpType, snake_case>, then the operands in angle brackets (literals,
  // and the type operand of those that have one): "!spirv.ray_query_khr",
  // "!spirv.pipe<ReadOnly>", "!spirv.opaque<\"name\">",
  // "!spirv.vme_image_intel<!spirv.image<...>>".
  void opaque(Type t) {
    const grammar::InstructionDesc *d = grammar::findInstruction(t.opcode());
    dialectType("");
    out_ += d ? opaqueName(d->name) : "opcode_" + std::to_string(t.opcode());
    std::span<const uint32_t> w = t.words();
    if (w.empty() && !t.elementType())
      return;
    out_ += "<";
    size_t at = 0;
    bool firstOperand = true;
    for (const grammar::OperandDesc &o :
         d ? d->operands : std::span<const grammar::OperandDesc>{}) {
      bool id = grammar::operandCategory(o.kind) == grammar::OperandCategory::Id;
      if (o.kind == OperandKind::IdResult || (id ? !t.elementType() : at >= w.size()))
        continue;
      if (!firstOperand)
        out_ += ", ";
      firstOperand = false;
      if (id) {
        type(t.elementType());
      } else if (o.kind == OperandKind::LiteralString) {
        std::string text;
        for (; at < w.size(); ++at) {
          bool end = false;
          for (int k = 0; k < 4; ++k) {
            char c = static_cast<char>((w[at] >> (8 * k)) & 0xFF);
            if (!c) {
              end = true;
              break;
            }
            text += c;
          }
          if (end) {
            ++at;
            break;
          }
        }
        printQuoted(text, out_);
      } else if (grammar::operandCategory(o.kind) == grammar::OperandCategory::ValueEnum) {
        out_ += enumName(o.kind, w[at++]);
      } else {
        out_ += std::to_string(w[at++]);
      }
    }
    // A node payload array's decorations, as a struct's own are printed.
    for (const MemberDecoration &d : t.structDecorations()) {
      out_ += ", ";
      out_ += enumName(OperandKind::Decoration, d.decoration);
      if (d.decoration == uint32_t(grammar::Decoration::PayloadNodeNameAMDX)) {
        out_ += "=";
        printQuoted(t.nodeName(), out_);
      } else if (d.decoration == uint32_t(grammar::Decoration::NodeSharesPayloadLimitsWithAMDX)) {
        out_ += "=";
        type(t.sharesPayloadLimitsWith());
      } else {
        decorationValue(d);
      }
    }
    out_ += ">";
  }

private:
  /// `!spirv.<rest>`, with the prefix of the version printed.
  void dialectType(std::string_view rest) {
    out_ += '!';
    out_ += dialectPrefix(version_);
    out_ += '.';
    out_ += rest;
  }

  void stride(Type t) {
    if (t.stride() != 0)
      out_ += ", stride=" + std::to_string(t.stride());
  }

  void function(Type t) {
    out_ += "(";
    list(t.inputs());
    out_ += ") -> ";
    auto results = t.results();
    const bool parens = results.size() != 1 || results[0].is(TypeKind::Function);
    if (parens)
      out_ += "(";
    list(results);
    if (parens)
      out_ += ")";
  }

  void list(std::span<const Type> types) {
    for (size_t i = 0; i < types.size(); ++i) {
      if (i)
        out_ += ", ";
      type(types[i]);
    }
  }

  void structType(Type t) {
    dialectType("struct<");
    if (t.isIdentified()) {
      // MLIR 16 (and 15) printed a name of identifier characters bare even where it does not
      // start as an identifier ("$Global", which their parsers then reject); their text is
      // written as they wrote it.
      if (isBareIdentifier(t.name()) || (mlir16_ && ofIdentifierCharacters(t.name())))
        out_ += t.name();
      else
        printQuoted(t.name(), out_);
      // A reference from inside its own body, or a struct without members yet: the name only.
      if (!t.hasBody() || open_.count(t.opaque())) {
        out_ += ">";
        return;
      }
      out_ += ", ";
      open_.insert(t.opaque());
    }
    out_ += "(";
    auto members = t.members();
    for (size_t i = 0; i < members.size(); ++i) {
      if (i)
        out_ += ", ";
      type(members[i].type);
      decorations(members[i]);
    }
    out_ += ")";
    for (const MemberDecoration &d :
         mlir16_ ? std::span<const MemberDecoration>() : t.structDecorations()) {
      out_ += ", ";
      decoration(d);
    }
    out_ += ">";
    if (t.isIdentified())
      open_.erase(t.opaque());
  }

  void decorations(const StructMember &m) {
    if (!m.offset && m.decorations.empty())
      return;
    out_ += " [";
    bool first = true;
    if (m.offset) {
      out_ += std::to_string(*m.offset);
      first = false;
    }
    for (const MemberDecoration &d : m.decorations) {
      if (!first)
        out_ += ", ";
      first = false;
      decoration(d);
    }
    out_ += "]";
  }

  // A decoration of a struct, a member or a node payload array: "Block", "Offset=4".
  void decoration(const MemberDecoration &d) {
    out_ += enumName(OperandKind::Decoration, d.decoration);
    decorationValue(d);
  }
  void decorationValue(const MemberDecoration &d) {
    if (d.value) {
      out_ += "=" + std::to_string(*d.value);
    } else if (d.text) {
      out_ += "=";
      printQuoted(*d.text, out_);
    }
  }

  std::string &out_;
  MlirVersion version_;
  bool mlir16_; ///< MLIR 16 or older
  std::unordered_set<const void *> open_;
};

// --- Parser ------------------------------------------------------------------------------------

class Parser {
public:
  Parser(Context &ctx, std::string_view text) : ctx_(ctx), t_(text) {}

  /// Where the text spelled the dialect's prefixes.
  TypePrefixes prefixes;

  Expected<Type> parseAll() {
    Type t = type();
    if (t) {
      skipSpace();
      if (pos_ != t_.size())
        fail("unexpected text after the type");
    }
    if (!error_.empty())
      return makeError(Location::text(1, static_cast<uint32_t>(errorPos_ + 1)), error_);
    return t;
  }

  /// A type at the start of the text; `consumed` is where it ends.
  Expected<Type> parsePrefix(size_t &consumed) {
    Type t = type();
    consumed = pos_;
    if (!error_.empty())
      return makeError(Location::text(1, static_cast<uint32_t>(errorPos_ + 1)), error_);
    return t;
  }

private:
  void fail(std::string message) {
    if (error_.empty()) {
      error_ = std::move(message);
      errorPos_ = pos_;
    }
  }

  void skipSpace() {
    while (pos_ < t_.size() &&
           (t_[pos_] == ' ' || t_[pos_] == '\t' || t_[pos_] == '\n' || t_[pos_] == '\r'))
      ++pos_;
  }

  bool accept(std::string_view s) {
    skipSpace();
    if (t_.substr(pos_, s.size()) == s) {
      pos_ += s.size();
      return true;
    }
    return false;
  }

  bool expect(std::string_view s) {
    if (accept(s))
      return true;
    fail("expected '" + std::string(s) + "'");
    return false;
  }

  /// The rest of a parenthesized type list, `type (',' type)* ')'` or just `)`, into `out`.
  bool typesUntilParen(std::vector<Type> &out) {
    if (accept(")"))
      return true;
    do {
      Type t = type();
      if (!t)
        return false;
      out.push_back(t);
    } while (accept(","));
    return expect(")");
  }

  std::optional<uint32_t> number() {
    skipSpace();
    uint32_t v = 0;
    auto r = std::from_chars(t_.data() + pos_, t_.data() + t_.size(), v);
    if (r.ec != std::errc() || r.ptr == t_.data() + pos_) {
      fail("expected a number");
      return std::nullopt;
    }
    pos_ = static_cast<size_t>(r.ptr - t_.data());
    return v;
  }

  std::string_view word() {
    skipSpace();
    const size_t start = pos_;
    while (pos_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[pos_])) ||
                                t_[pos_] == '_' || t_[pos_] == '$' || t_[pos_] == '.'))
      ++pos_;
    return t_.substr(start, pos_ - start);
  }

  std::optional<uint32_t> enumerant(OperandKind kind, std::string_view what) {
    skipSpace();
    const size_t at = pos_;
    std::string_view w = word();
    if (kind == OperandKind::Dim && w.substr(0, 3) == "Dim" && w.size() > 3 &&
        std::isdigit(static_cast<unsigned char>(w[3])))
      w.remove_prefix(3);
    if (const grammar::EnumerantDesc *e = grammar::findEnumerant(kind, w))
      return e->value;
    pos_ = at;
    fail("expected " + std::string(what));
    return std::nullopt;
  }

  template <size_t N>
  std::optional<uint32_t> keyword(const std::string_view (&names)[N], std::string_view what) {
    skipSpace();
    const size_t at = pos_;
    std::string_view w = word();
    for (size_t i = 0; i < N; ++i)
      if (names[i] == w)
        return static_cast<uint32_t>(i);
    pos_ = at;
    fail("expected " + std::string(what));
    return std::nullopt;
  }

  // "4xf32" or "4 x f32": the count, then the element type.
  std::optional<uint32_t> countX() {
    std::optional<uint32_t> n = number();
    if (!n || !expect("x"))
      return std::nullopt;
    return n;
  }

  Type type() {
    if (++depth_ > 256) {
      fail("types nested too deeply");
      return {};
    }
    Type t = typeInner();
    --depth_;
    return error_.empty() ? t : Type();
  }

  Type typeInner() {
    skipSpace();
    const size_t at = pos_;
    if (accept("!spirv.")) {
      prefixes.spirv = std::min(prefixes.spirv, at);
      return dialectType();
    }
    if (accept("!spv.")) {
      prefixes.spv = std::min(prefixes.spv, at);
      return dialectType();
    }
    if (accept("vector<")) {
      std::optional<uint32_t> n = countX();
      Type e = n ? type() : Type();
      return e && expect(">") ? ctx_.vector(e, *n) : Type();
    }
    if (accept("none"))
      return ctx_.none();
    if (accept("tensor<")) {
      // MLIR's builtin tensor, of a static shape: read as an ARM tensor's body.
      size_t at = pos_;
      Type body = tensorArmBody();
      if (!body || !expect(">"))
        return {};
      std::span<const uint32_t> shape = body.shape();
      if (body.count() == Type::kUnranked ||
          std::find(shape.begin(), shape.end(), Type::kDynamicDim) != shape.end()) {
        pos_ = at;
        fail("a tensor type needs a static shape");
        return {};
      }
      return ctx_.tensor(body.elementType(), shape);
    }
    if (accept("("))
      return functionType();
    std::string_view w = word();
    for (const EncodedFloat &f : kEncodedFloats)
      if (w == f.name)
        return ctx_.floating(smallFloatWidth(f.format), static_cast<uint32_t>(f.encoding));
    Signedness sign = Signedness::Signless;
    std::string_view digits;
    if (w.substr(0, 2) == "si") {
      sign = Signedness::Signed;
      digits = w.substr(2);
    } else if (w.substr(0, 2) == "ui") {
      sign = Signedness::Unsigned;
      digits = w.substr(2);
    } else if (!w.empty() && (w[0] == 'i' || w[0] == 'f')) {
      digits = w.substr(1);
    }
    unsigned width = 0;
    auto r = std::from_chars(digits.data(), digits.data() + digits.size(), width);
    if (digits.empty() || r.ec != std::errc() || r.ptr != digits.data() + digits.size() ||
        width == 0) {
      pos_ = at;
      fail("expected a type");
      return {};
    }
    return w[0] == 'f' ? ctx_.floating(width) : ctx_.integer(width, sign);
  }

  Type functionType() {
    std::vector<Type> inputs, results;
    if (!typesUntilParen(inputs) || !expect("->"))
      return {};
    if (accept("(")) {
      if (!typesUntilParen(results))
        return {};
    } else {
      Type t = type();
      if (!t)
        return {};
      results.push_back(t);
    }
    return ctx_.function(inputs, results);
  }

  std::optional<uint32_t> optionalStride() {
    if (!accept(","))
      return 0u;
    if (!expect("stride") || !expect("="))
      return std::nullopt;
    return number();
  }

  Type dialectType() {
    std::string_view kind = word();
    if (kind == "sampler")
      return ctx_.sampler();
    // An opaque type without operands has no angle brackets.
    if (const grammar::InstructionDesc *d = opaqueType(kind); d && t_.substr(pos_, 1) != "<")
      return ctx_.opaque(d->opcode);
    if (!expect("<"))
      return {};
    Type result;
    if (kind == "array") {
      // A literal length, or a specialization constant's symbol: `@N x f32`.
      std::string symbol;
      const bool bySymbol = symbolRef(symbol, "the array's length");
      std::optional<uint32_t> n;
      if (bySymbol)
        n = error_.empty() && expect("x") ? std::optional<uint32_t>(0) : std::nullopt;
      else
        n = countX();
      Type e = n ? type() : Type();
      std::optional<uint32_t> stride = e ? optionalStride() : std::nullopt;
      if (stride)
        result = bySymbol ? ctx_.specArray(e, symbol, *stride) : ctx_.array(e, *n, *stride);
    } else if (kind == "rtarray") {
      Type e = type();
      std::optional<uint32_t> stride = e ? optionalStride() : std::nullopt;
      if (stride)
        result = ctx_.runtimeArray(e, *stride);
    } else if (kind == "ptr") {
      Type e = type();
      std::optional<uint32_t> sc;
      if (e && expect(","))
        sc = enumerant(OperandKind::StorageClass, "a storage class");
      std::optional<uint32_t> stride = sc ? optionalStride() : std::nullopt;
      if (sc && stride)
        result = ctx_.pointer(e, *sc, *stride);
    } else if (kind == "image") {
      result = imageBody();
    } else if (kind == "sampled_image") {
      Type image = type();
      if (image && !image.is(TypeKind::Image))
        fail("a sampled image holds an !spirv.image");
      else
        result = image ? ctx_.sampledImage(image) : Type();
    } else if (kind == "matrix") {
      std::optional<uint32_t> n = countX();
      Type column = n ? type() : Type();
      if (column && !column.is(TypeKind::Vector))
        fail("the columns of a matrix are vectors");
      else if (column)
        result = ctx_.matrix(column, *n);
    } else if (kind == "coopmatrix" || kind == "NV.coopmatrix") {
      result = coopMatrixBody(kind == "coopmatrix");
    } else if (kind == "jointmatrix") {
      result = jointMatrixBody();
    } else if (kind == "arm.tensor") {
      result = tensorArmBody();
    } else if (kind == "arm.graph") {
      // A graph's type, written as a function type: `!spirv.arm.graph<(A) -> (R, S)>`.
      Type f = expect("(") ? functionType() : Type();
      result = f ? ctx_.graphArm(f.inputs(), f.results()) : Type();
    } else if (kind == "struct") {
      result = structBody();
    } else if (const grammar::InstructionDesc *d = opaqueType(kind)) {
      result = opaqueBody(*d);
    } else {
      fail("unknown dialect type !spirv." + std::string(kind));
    }
    if (!result || !expect(">"))
      return {};
    return result;
  }

  /// The type instruction an opaque type's name stands for, or null.
  static const grammar::InstructionDesc *opaqueType(std::string_view name) {
    static const std::unordered_map<std::string, const grammar::InstructionDesc *> byName = [] {
      std::unordered_map<std::string, const grammar::InstructionDesc *> m;
      for (const grammar::InstructionDesc &d : grammar::instructions()) {
        if (d.name.starts_with("OpType"))
          m.emplace(opaqueName(d.name), &d);
        // A newer grammar's alias (OpTypeAccelerationStructureNV of the KHR type) still reads.
        for (std::string_view alias : d.aliases)
          if (alias.starts_with("OpType"))
            m.emplace(opaqueName(alias), &d);
      }
      return m;
    }();
    auto it = byName.find(std::string(name));
    return it == byName.end() ? nullptr : it->second;
  }

  Type opaqueBody(const grammar::InstructionDesc &d) {
    std::vector<uint32_t> words;
    Type operand; // the one type operand of those that take one (OpTypeVmeImageINTEL)
    bool firstOperand = true;
    for (const grammar::OperandDesc &o : d.operands) {
      if (o.kind == OperandKind::IdResult)
        continue;
      if (!firstOperand && !expect(","))
        return {};
      firstOperand = false;
      skipSpace();
      if (o.kind == OperandKind::LiteralString) {
        if (t_.substr(pos_, 1) != "\"") {
          fail("expected a quoted string");
          return {};
        }
        std::optional<std::string> q = quoted();
        if (!q)
          return {};
        std::string padded = *q;
        padded.resize((padded.size() / 4 + 1) * 4, '\0');
        for (size_t k = 0; k < padded.size(); k += 4)
          words.push_back(uint32_t(uint8_t(padded[k])) | uint32_t(uint8_t(padded[k + 1])) << 8 |
                          uint32_t(uint8_t(padded[k + 2])) << 16 |
                          uint32_t(uint8_t(padded[k + 3])) << 24);
      } else if (grammar::operandCategory(o.kind) == grammar::OperandCategory::ValueEnum) {
        std::optional<uint32_t> v = enumerant(o.kind, "an enumerant");
        if (!v)
          return {};
        words.push_back(*v);
      } else if (grammar::operandCategory(o.kind) == grammar::OperandCategory::Literal) {
        std::optional<uint32_t> v = number();
        if (!v)
          return {};
        words.push_back(*v);
      } else if (!operand && (d.opcode == uint32_t(grammar::Op::TypeVmeImageINTEL) ||
                              d.opcode == uint32_t(nodePayloadArray))) {
        if (!(operand = type()))
          return {};
      } else {
        fail("!spirv." + opaqueName(d.name) + " has operands that are ids");
        return {};
      }
    }
    if (d.opcode == uint32_t(nodePayloadArray))
      return nodePayloadArrayDecorations(operand);
    return ctx_.opaque(d.opcode, words, operand);
  }

  // The decorations after a node payload array's record type: ", NodeMaxPayloadsAMDX=4,
  // PayloadNodeNameAMDX=\"name\", PayloadNodeSparseArrayAMDX".
  Type nodePayloadArrayDecorations(Type payload) {
    std::vector<MemberDecoration> decorations;
    std::string name;
    Type sharesLimitsWith;
    while (accept(",")) {
      std::optional<uint32_t> d = enumerant(OperandKind::Decoration, "a decoration");
      if (!d)
        return {};
      MemberDecoration md{*d, std::nullopt, std::nullopt};
      const bool isName = *d == uint32_t(grammar::Decoration::PayloadNodeNameAMDX);
      const bool isPeer = *d == uint32_t(grammar::Decoration::NodeSharesPayloadLimitsWithAMDX);
      if ((isName || isPeer) && !expect("="))
        return {};
      if (isPeer) {
        if (!(sharesLimitsWith = type()))
          return {};
        if (!isNodePayloadArray(sharesLimitsWith)) {
          fail("NodeSharesPayloadLimitsWithAMDX must name a node payload array");
          return {};
        }
      } else if (isName) {
        skipSpace();
        std::optional<std::string> q = t_.substr(pos_, 1) == "\"" ? quoted() : std::nullopt;
        if (!q) {
          fail("expected the node's name in quotes");
          return {};
        }
        name = std::move(*q);
      } else if (!decorationValue(md)) {
        return {};
      }
      decorations.push_back(md);
    }
    return ctx_.nodePayloadArray(payload, decorations, name, sharesLimitsWith);
  }

  static constexpr grammar::Op nodePayloadArray = grammar::Op::TypeNodePayloadArrayAMDX;

  Type imageBody() {
    ImageInfo i;
    i.sampledType = type();
    std::optional<uint32_t> v;
    if (!i.sampledType || !expect(",") || !(v = enumerant(OperandKind::Dim, "a dimension")))
      return {};
    i.dim = *v;
    if (!expect(",") || !(v = keyword(kDepth, "NoDepth, IsDepth or DepthUnknown")))
      return {};
    i.depth = *v;
    if (!expect(",") || !(v = keyword(kArrayed, "NonArrayed or Arrayed")))
      return {};
    i.arrayed = *v;
    if (!expect(",") || !(v = keyword(kSampling, "SingleSampled or MultiSampled")))
      return {};
    i.ms = *v;
    if (!expect(",") || !(v = keyword(kSamplerUse, "SamplerUnknown, NeedSampler or NoSampler")))
      return {};
    i.sampled = *v;
    if (!expect(",") || !(v = enumerant(OperandKind::ImageFormat, "an image format")))
      return {};
    i.format = *v;
    if (accept(",")) {
      if (!(v = enumerant(OperandKind::AccessQualifier, "an access qualifier")))
        return {};
      i.access = *v;
    }
    return ctx_.image(i);
  }

  /// A specialization constant's symbol (`@n`, `@"name"`) into `out`; false, consuming
  /// nothing, where the text has none. `what` names it in errors.
  bool symbolRef(std::string &out, std::string_view what) {
    skipSpace();
    if (t_.substr(pos_, 1) != "@")
      return false;
    ++pos_;
    if (t_.substr(pos_, 1) == "\"") {
      if (std::optional<std::string> q = quoted())
        out = std::move(*q);
    } else {
      out = std::string(word());
    }
    if (out.empty())
      fail("expected the symbol of " + std::string(what));
    return true;
  }

  /// One cooperative matrix operand: a symbol, or what `literal` reads.
  template <class Literal>
  std::optional<CoopParam> coopParam(std::string &symbol, std::string_view what, Literal literal) {
    if (symbolRef(symbol, what))
      return error_.empty() ? std::optional(CoopParam{0, symbol}) : std::nullopt;
    std::optional<uint32_t> v = literal();
    return v ? std::optional(CoopParam{*v, {}}) : std::nullopt;
  }

  // After "!spirv.coopmatrix<" or "!spirv.NV.coopmatrix<": rows x columns x element type,
  // scope[, use] (the use only where `mayHaveUse`: the KHR spelling, which without a use is
  // MLIR 16's NV matrix); any of rows, columns, scope and use may be a specialization
  // constant's symbol.
  Type coopMatrixBody(bool mayHaveUse) {
    std::string rowsSymbol, columnsSymbol, scopeSymbol, useSymbol;
    auto count = [&] { return number(); };
    std::optional<CoopParam> rows = coopParam(rowsSymbol, "the rows", count);
    std::optional<CoopParam> cols =
        rows && expect("x") ? coopParam(columnsSymbol, "the columns", count) : std::nullopt;
    Type e = cols && expect("x") ? type() : Type();
    std::optional<CoopParam> scope =
        e && expect(",") ? coopParam(scopeSymbol, "the scope",
                                     [&] { return enumerant(OperandKind::Scope, "a scope"); })
                         : std::nullopt;
    if (!scope)
      return {};
    std::vector<CoopParam> params{*scope, *rows, *cols};
    if (mayHaveUse && accept(",")) {
      std::optional<CoopParam> use = coopParam(useSymbol, "the use", [&] {
        return keyword(kMatrixUse, "MatrixA, MatrixB or MatrixAcc");
      });
      if (!use)
        return {};
      params.push_back(*use);
    }
    return ctx_.cooperativeMatrix(e, params);
  }

  // After "!spirv.jointmatrix<": rows x columns x element type, layout, scope.
  Type jointMatrixBody() {
    std::optional<uint32_t> rows = countX();
    std::optional<uint32_t> cols = rows ? countX() : std::nullopt;
    if (cols && (*rows == 0 || *cols == 0)) {
      fail("a joint matrix has at least one row and one column");
      return {};
    }
    Type e = cols ? type() : Type();
    if (e && !e.is(TypeKind::Integer) && !e.is(TypeKind::Float)) {
      fail("the components of a joint matrix are integer or float scalars");
      return {};
    }
    std::optional<uint32_t> layout =
        e && expect(",") ? enumerant(OperandKind::JointMatrixLayoutINTEL,
                                     "a joint matrix layout (RowMajor, ColumnMajor, PackedA or "
                                     "PackedB)")
                         : std::nullopt;
    std::optional<uint32_t> scope =
        layout && expect(",") ? enumerant(OperandKind::Scope, "a scope") : std::nullopt;
    return scope ? ctx_.jointMatrix(e, *rows, *cols, *layout, *scope) : Type();
  }

  // A decoration's literal after its name, if it has one: "=4", or a string: "=\"TEXCOORD\"".
  // False on a bad number or string.
  bool decorationValue(MemberDecoration &md) {
    if (!accept("="))
      return true;
    skipSpace();
    if (pos_ < t_.size() && t_[pos_] == '"') {
      const grammar::EnumerantDesc *e =
          grammar::findEnumerant(OperandKind::Decoration, md.decoration);
      if (!e || e->parameters.empty() || e->parameters[0].kind != OperandKind::LiteralString) {
        fail("decoration " + enumName(OperandKind::Decoration, md.decoration) + " takes no string");
        return false;
      }
      md.text = quoted();
      return md.text.has_value();
    }
    md.value = number();
    return md.value.has_value();
  }

  // After "!spirv.arm.tensor<": `*x` (unranked) or dimensions, each a number or `?`, each
  // followed by `x`; then the element type.
  Type tensorArmBody() {
    if (accept("*")) {
      Type e = expect("x") ? type() : Type();
      return e ? ctx_.tensorArm(e, std::nullopt) : Type();
    }
    std::vector<uint32_t> dims;
    for (;;) {
      skipSpace();
      if (accept("?")) {
        if (!expect("x"))
          return {};
        dims.push_back(Type::kDynamicDim);
      } else if (pos_ < t_.size() && t_[pos_] >= '0' && t_[pos_] <= '9') {
        std::optional<uint32_t> n = countX();
        if (!n)
          return {};
        if (*n == 0 || *n == Type::kDynamicDim) {
          fail("a tensor dimension is positive");
          return {};
        }
        dims.push_back(*n);
      } else {
        break;
      }
    }
    if (dims.empty()) {
      fail("expected the tensor's shape");
      return {};
    }
    Type e = type();
    return e ? ctx_.tensorArm(e, std::span<const uint32_t>(dims)) : Type();
  }

  // After "!spirv.struct<": a name (identified), then members in parentheses, or members alone.
  Type structBody() {
    skipSpace();
    Type identified;
    const size_t at = pos_;
    if (pos_ < t_.size() && t_[pos_] != '(' && t_[pos_] != '!' && t_[pos_] != '>') {
      // "Name, (members)" or "Name" (a reference); anything else starts the members of a
      // literal struct written without parentheses ("f32 [0], i32 [4]").
      std::string quotedName;
      std::string_view name;
      if (t_[pos_] == '"') {
        std::optional<std::string> q = quoted();
        if (!q)
          return {};
        quotedName = std::move(*q);
        name = quotedName;
      } else {
        name = word();
      }
      bool isName = false;
      if (!name.empty()) {
        const size_t after = pos_;
        if (accept(",")) {
          skipSpace();
          isName = t_.substr(pos_, 1) == "(";
        } else {
          skipSpace();
          isName = t_.substr(pos_, 1) == ">";
        }
        pos_ = isName ? pos_ : after;
      }
      if (isName)
        identified = ctx_.identifiedStruct(name);
      else
        pos_ = at;
    }
    if (identified && t_.substr(pos_, 1) == ">")
      return identified; // a reference by name
    const bool parens = accept("(");
    std::vector<StructMember> members;
    if (!(parens && accept(")"))) {
      do {
        StructMember m;
        m.type = type();
        if (!m.type)
          return {};
        if (accept("[") && !memberDecorations(m))
          return {};
        members.push_back(std::move(m));
      } while (accept(","));
      if (parens && !expect(")"))
        return {};
    }
    // Decorations of the struct itself after the members: ", Block".
    std::vector<MemberDecoration> decos;
    while (parens && accept(",")) {
      std::optional<uint32_t> d = enumerant(OperandKind::Decoration, "a decoration");
      if (!d)
        return {};
      MemberDecoration md{*d, std::nullopt, std::nullopt};
      if (!decorationValue(md))
        return {};
      decos.push_back(md);
    }
    if (!identified)
      return ctx_.literalStruct(members, decos);
    if (!ctx_.setStructBody(identified, members, decos)) {
      fail("struct " + std::string(identified.name()) + " is defined twice differently");
      return {};
    }
    return identified;
  }

  // A string in double quotes; \XX is a byte in hexadecimal.
  std::optional<std::string> quoted() {
    std::string out;
    ++pos_;
    while (pos_ < t_.size() && t_[pos_] != '"') {
      if (t_[pos_] == '\\') {
        auto hex = [&](size_t i) -> int {
          if (i >= t_.size())
            return -1;
          const char c = t_[i];
          return c >= '0' && c <= '9'   ? c - '0'
                 : c >= 'a' && c <= 'f' ? c - 'a' + 10
                 : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                        : -1;
        };
        const int hi = hex(pos_ + 1), lo = hex(pos_ + 2);
        if (hi < 0 || lo < 0) {
          fail("expected two hexadecimal digits after '\\'");
          return std::nullopt;
        }
        out += static_cast<char>(hi * 16 + lo);
        pos_ += 3;
      } else {
        out += t_[pos_++];
      }
    }
    if (pos_ >= t_.size()) {
      fail("unterminated string");
      return std::nullopt;
    }
    ++pos_;
    return out;
  }

  bool memberDecorations(StructMember &m) {
    if (accept("]"))
      return true;
    bool first = true;
    do {
      skipSpace();
      if (first && pos_ < t_.size() && std::isdigit(static_cast<unsigned char>(t_[pos_]))) {
        std::optional<uint32_t> offset = number();
        if (!offset)
          return false;
        m.offset = offset;
      } else {
        std::optional<uint32_t> d = enumerant(OperandKind::Decoration, "a decoration");
        if (!d)
          return false;
        MemberDecoration md{*d, std::nullopt, std::nullopt};
        if (!decorationValue(md))
          return false;
        m.decorations.push_back(md);
      }
      first = false;
    } while (accept(","));
    return expect("]");
  }

  Context &ctx_;
  std::string_view t_;
  size_t pos_ = 0;
  int depth_ = 0;
  std::string error_;
  size_t errorPos_ = 0;
};

} // namespace

std::string_view dialectPrefix(MlirVersion version) {
  return version == MlirVersion::Mlir15 ? "spv" : "spirv";
}

std::string spelledIn(std::string_view name, MlirVersion version) {
  constexpr std::string_view kCurrent = "spirv.";
  if (version != MlirVersion::Mlir15 || !name.starts_with(kCurrent))
    return std::string(name);
  return "spv." + std::string(name.substr(kCurrent.size()));
}

void print(Type type, std::string &out, MlirVersion version) { Printer(out, version).type(type); }

std::string toString(Type type) {
  std::string s;
  print(type, s);
  return s;
}

Expected<Type> parseType(Context &context, std::string_view text) {
  return Parser(context, text).parseAll();
}

Expected<Type> parseTypePrefix(Context &context, std::string_view text, size_t &consumed,
                               TypePrefixes *prefixes) {
  Parser parser(context, text);
  Expected<Type> t = parser.parsePrefix(consumed);
  if (prefixes)
    *prefixes = parser.prefixes;
  return t;
}

} // namespace spire::dialect
