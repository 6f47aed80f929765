// The ops of TOSA.001000.1 (spirv.Tosa.Conv2D, ...): one custom syntax and one verifier for all
// 66, read from the op records (their constant operands are attributes, OperandMapping::
// Kind::Constant, generate_ops.py's table) and from the table below of what each op's operands
// and result may be and how they relate, as today's MLIR's definitions say (its
// SPIRVTosaOps.td), in its words.
#include "AsmText.h"
#include "OpOverlay.h"
#include "OpSyntax.h"
#include "TextParser.h"
#include "TextPrinter.h"
#include "TosaAttributes.h"

#include "spire/dialect/Attributes.h"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <string>
#include <vector>

namespace spire::dialect {

std::optional<DialectEnumKind> dialectEnumOf(ConstAttr c) {
  switch (c) {
  case ConstAttr::AccType:
    return DialectEnumKind::TosaAccType;
  case ConstAttr::NanMode:
    return DialectEnumKind::TosaNanMode;
  case ConstAttr::ResizeMode:
    return DialectEnumKind::TosaResizeMode;
  case ConstAttr::RoundingMode:
    return DialectEnumKind::TosaRoundingMode;
  default:
    return std::nullopt;
  }
}

namespace {

using Tosa = grammar::Tosa0010001Inst;

/// An attribute of the kind `c` says, for the custom syntax (which shows no types).
bool hasClass(Attribute a, ConstAttr c) {
  if (!a)
    return false;
  switch (c) {
  case ConstAttr::I32:
    return syntax::isInt(a, 32);
  case ConstAttr::Bool:
    return a.is(AttrKind::Bool);
  case ConstAttr::I32Tensor: {
    if (!a.is(AttrKind::Dense))
      return false;
    Type t = a.type();
    return t.is(TypeKind::TensorArm) && t.count() == 1 && t.shape()[0] == a.elements().size() &&
           syntax::isInt(a.elements().empty() ? Attribute() : a.elements()[0], 32) &&
           t.elementType() == a.elements()[0].type();
  }
  case ConstAttr::Scalar:
    return a.is(AttrKind::Integer) || a.is(AttrKind::Float);
  case ConstAttr::None:
    return false;
  default:
    return a.is(AttrKind::DialectEnum) && a.dialectEnum() == dialectEnumOf(c);
  }
}

} // namespace

namespace syntax {

/// `axis = 3, nan_mode = <Propagate>, pad = [0, 0, 0, 0], local_bound = false, %a, %b
/// [attr-dict] : A, B -> R`: the constant operands by name in the instruction's order, then the
/// values, then the types of the values and of the result.
bool printTosa(const Operation &op, TextPrinter &p, unsigned) {
  if (!plain(op) || op.numResults() != 1 || op.numOperands() == 0)
    return false;
  std::string &out = p.out();
  std::vector<std::string_view> shown;
  bool first = true;
  for (const OperandMapping &m : op.info().operands) {
    if (m.kind != OperandMapping::Kind::Constant)
      continue;
    Attribute a = op.attr(m.name);
    if (!hasClass(a, m.constAttr))
      return false;
    out += first ? " " : ", ";
    first = false;
    out += m.name;
    out += " = ";
    switch (m.constAttr) {
    case ConstAttr::I32:
      out += std::to_string(a.intValue());
      break;
    case ConstAttr::Bool:
      out += a.boolValue() ? "true" : "false";
      break;
    case ConstAttr::I32Tensor: {
      out += '[';
      for (size_t i = 0; i < a.elements().size(); ++i)
        out += (i ? ", " : "") + std::to_string(a.elements()[i].intValue());
      out += ']';
      break;
    }
    case ConstAttr::Scalar:
      print(a, out, p.version());
      break;
    default:
      out += '<';
      out += dialectEnumText(a.dialectEnum(), a.enumValue());
      out += '>';
      break;
    }
    shown.push_back(m.name);
  }
  out += first ? " " : ", ";
  p.operands(op, 0, op.numOperands());
  p.attrDict(op, shown);
  out += " : ";
  p.types(op, 0, op.numOperands());
  out += " -> ";
  p.type(op.result().type());
  return true;
}

Operation *parseTosa(const OpInfo &info, TextParser &p, size_t) {
  OperationState st(&info);
  Context &ctx = p.context();
  bool first = true;
  for (const OperandMapping &m : info.operands) {
    if (m.kind != OperandMapping::Kind::Constant)
      continue;
    if ((!first && !p.expect(',')) || !p.expectKeyword(m.name) || !p.expect('='))
      return nullptr;
    first = false;
    size_t at = p.position();
    Attribute a;
    switch (m.constAttr) {
    case ConstAttr::I32: {
      std::optional<int64_t> v = p.integer();
      if (!v)
        return nullptr;
      a = attr::integer(ctx, ctx.integer(32), *v);
      break;
    }
    case ConstAttr::Bool:
      if (p.acceptKeyword("true"))
        a = attr::boolean(ctx, true);
      else if (p.acceptKeyword("false"))
        a = attr::boolean(ctx, false);
      else
        return p.failAt(at, "expected true or false"), nullptr;
      break;
    case ConstAttr::I32Tensor: {
      std::vector<Attribute> elems;
      Type i32 = ctx.integer(32);
      if (!p.expect('[') || !p.listUntil(']', [&] {
            std::optional<int64_t> v = p.integer();
            if (v)
              elems.push_back(attr::integer(ctx, i32, *v));
            return v.has_value();
          }))
        return nullptr;
      if (elems.empty())
        return p.failAt(at, "expected at least one element"), nullptr;
      const uint32_t shape[] = {static_cast<uint32_t>(elems.size())};
      a = attr::dense(ctx, ctx.tensorArm(i32, shape), elems);
      break;
    }
    case ConstAttr::Scalar:
      a = p.attribute();
      if (!a)
        return nullptr;
      break;
    default:
      a = p.dialectEnumAttr(*dialectEnumOf(m.constAttr));
      if (!a)
        return nullptr;
      break;
    }
    p.addAttr(st, m.name, a);
  }
  std::vector<Use> us;
  if (!first && !p.expect(','))
    return nullptr;
  if (!p.uses(us))
    return nullptr;
  if (us.empty())
    return p.fail("expected an operand"), nullptr;
  if (!p.optionalAttrDict(st) || !p.expect(':'))
    return nullptr;
  std::vector<Type> types;
  do {
    Type t = p.type();
    if (!t)
      return nullptr;
    types.push_back(t);
  } while (p.accept(','));
  if (types.size() != us.size())
    return p.fail(std::to_string(us.size()) + " operands present, but expected " +
                  std::to_string(types.size())),
           nullptr;
  if (!p.expect("->"))
    return nullptr;
  Type result = p.type();
  if (!result || !p.resolveEach(us, types, st.operands))
    return nullptr;
  st.resultTypes.push_back(result);
  return p.finish(st);
}

} // namespace syntax

namespace detail {

namespace {

// --- What operands and results may be ------------------------------------------------------

/// Element types, as a mask.
enum Elem : uint16_t {
  kBool = 1 << 0,
  kI8 = 1 << 1,
  kI16 = 1 << 2,
  kI32 = 1 << 3,
  kI64 = 1 << 4,
  kF16 = 1 << 5,
  kF32 = 1 << 6,
  kBF16 = 1 << 7,
};
constexpr uint16_t kFloat = kF16 | kF32 | kBF16;
constexpr uint16_t kInt = kI8 | kI16 | kI32;
constexpr uint16_t kNumeric = kInt | kI64 | kFloat;
constexpr uint16_t kAny = kBool | kInt | kFloat;

/// Ranks, as a mask (bit r: rank r).
constexpr uint8_t rank(int r) { return static_cast<uint8_t>(1u << r); }
constexpr uint8_t kRanks = 0x7E;   ///< 1 to 6
constexpr uint8_t kUpTo5 = 0x3E;   ///< 1 to 5
constexpr uint8_t kLength1 = 0x80; ///< rank 1 of length 1 (zero points, Mul's shift)

/// What one value (an operand, the result) may be: a ranked tensor of these element types and
/// ranks; or (kStruct2) a struct of two rank-3 f32 tensors (the FFTs' result).
struct ValueRule {
  uint16_t elems = 0;
  uint8_t ranks = 0;
};
constexpr ValueRule kStruct2{0, 0};

uint16_t elemOf(Type t) {
  if (!t)
    return 0;
  if (t.is(TypeKind::Integer)) {
    if (t.signedness() != Signedness::Signless)
      return 0;
    switch (t.width()) {
    case 1:
      return kBool;
    case 8:
      return kI8;
    case 16:
      return kI16;
    case 32:
      return kI32;
    case 64:
      return kI64;
    }
    return 0;
  }
  if (t.is(TypeKind::Float)) {
    if (t.width() == 16)
      return smallFloatOf(t) == SmallFloat::BFloat16 ? kBF16 : kF16;
    return t.width() == 32 && !t.fpEncoding() ? kF32 : 0;
  }
  return 0;
}

/// MLIR's summary of each element type.
std::string elemNames(uint16_t mask) {
  static constexpr std::pair<uint16_t, std::string_view> kNames[] = {
      {kBool, "bool"},
      {kI8, "8-bit signless integer"},
      {kI16, "16-bit signless integer"},
      {kI32, "32-bit signless integer"},
      {kI64, "64-bit signless integer"},
      {kF16, "16-bit float"},
      {kF32, "32-bit float"},
      {kBF16, "bfloat16 type"},
  };
  std::string out;
  for (const auto &[bit, name] : kNames)
    if (mask & bit)
      out += (out.empty() ? "" : " or ") + std::string(name);
  return out;
}

std::string describe(const ValueRule &r) {
  if (r.ranks == 0)
    return "Struct of 2 elements of 3D tensorArm of 32-bit float values";
  if (r.ranks == kLength1)
    return "rank 1 tensorArm of length 1 of " + elemNames(r.elems) + " values";
  std::string ranks;
  for (int k = 1; k <= 6; ++k)
    if (r.ranks & rank(k))
      ranks += (ranks.empty() ? "" : "/") + std::to_string(k) + "D";
  return ranks + " tensorArm of " + elemNames(r.elems) + " values";
}

bool ranked(Type t) { return t.is(TypeKind::TensorArm) && t.count() != Type::kUnranked; }

bool satisfies(Type t, const ValueRule &r) {
  if (r.ranks == 0) {
    if (!t.is(TypeKind::Struct) || t.members().size() != 2)
      return false;
    return std::all_of(t.members().begin(), t.members().end(), [](const StructMember &m) {
      return ranked(m.type) && m.type.count() == 3 && elemOf(m.type.elementType()) == kF32;
    });
  }
  if (!ranked(t) || !(elemOf(t.elementType()) & r.elems))
    return false;
  if (r.ranks == kLength1)
    return t.count() == 1 && t.shape()[0] == 1;
  return t.count() <= 6 && (r.ranks & rank(static_cast<int>(t.count())));
}

/// Each op's operands (in order; a variadic operand's rule is its every value's) and result.
struct OpRule {
  uint32_t number = 0;
  std::array<ValueRule, 5> operands{};
  size_t numOperands = 0;
  ValueRule result;
  OpRule(Tosa n, std::initializer_list<ValueRule> ops, ValueRule r)
      : number(uint32_t(n)), numOperands(ops.size()), result(r) {
    std::copy(ops.begin(), ops.begin() + std::min<size_t>(ops.size(), 5), operands.begin());
  }
};

constexpr ValueRule any(uint16_t e) { return {e, kRanks}; }
constexpr ValueRule ranks(uint16_t e, uint8_t r) { return {e, r}; }
constexpr ValueRule len1(uint16_t e) { return {e, kLength1}; }

constexpr uint16_t kPoolIn = kI8 | kI16 | kFloat;
constexpr uint16_t kConvAcc = kI32 | kI64 | kFloat;
constexpr uint16_t kWeight = kI8 | kFloat;

const std::vector<OpRule> &opRules() {
  static const std::vector<OpRule> rules = {
      {Tosa::ARGMAX, {any(kPoolIn)}, ranks(kI32, kUpTo5)},
      {Tosa::AVG_POOL2D,
       {ranks(kPoolIn, rank(4)), len1(kPoolIn), len1(kPoolIn)},
       ranks(kPoolIn, rank(4))},
      {Tosa::CONV2D,
       {ranks(kPoolIn, rank(4)), ranks(kWeight, rank(4)), ranks(kConvAcc, rank(1)), len1(kPoolIn),
        len1(kWeight)},
       ranks(kConvAcc, rank(4))},
      {Tosa::CONV3D,
       {ranks(kPoolIn, rank(5)), ranks(kWeight, rank(5)), ranks(kConvAcc, rank(1)), len1(kPoolIn),
        len1(kWeight)},
       ranks(kConvAcc, rank(5))},
      {Tosa::DEPTHWISE_CONV2D,
       {ranks(kPoolIn, rank(4)), ranks(kWeight, rank(4)), ranks(kConvAcc, rank(1)), len1(kPoolIn),
        len1(kWeight)},
       ranks(kConvAcc, rank(4))},
      {Tosa::FFT2D, {ranks(kF32, rank(3)), ranks(kF32, rank(3))}, kStruct2},
      {Tosa::MATMUL,
       {ranks(kPoolIn, rank(3)), ranks(kPoolIn, rank(3)), len1(kPoolIn), len1(kPoolIn)},
       ranks(kI32 | kI64 | kF16 | kF32, rank(3))},
      {Tosa::MAX_POOL2D, {ranks(kPoolIn, rank(4))}, ranks(kPoolIn, rank(4))},
      {Tosa::RFFT2D, {ranks(kF32, rank(3))}, kStruct2},
      {Tosa::TRANSPOSE_CONV2D,
       {ranks(kPoolIn, rank(4)), ranks(kWeight, rank(4)), ranks(kConvAcc, rank(1)), len1(kPoolIn),
        len1(kWeight)},
       ranks(kConvAcc, rank(4))},
      {Tosa::CLAMP, {any(kPoolIn)}, any(kPoolIn)},
      {Tosa::ERF, {any(kFloat)}, any(kFloat)},
      {Tosa::SIGMOID, {any(kFloat)}, any(kFloat)},
      {Tosa::TANH, {any(kFloat)}, any(kFloat)},
      {Tosa::ADD, {any(kI32 | kFloat), any(kI32 | kFloat)}, any(kI32 | kFloat)},
      {Tosa::ARITHMETIC_RIGHT_SHIFT, {any(kInt), any(kInt)}, any(kInt)},
      {Tosa::BITWISE_AND, {any(kInt), any(kInt)}, any(kInt)},
      {Tosa::BITWISE_OR, {any(kInt), any(kInt)}, any(kInt)},
      {Tosa::BITWISE_XOR, {any(kInt), any(kInt)}, any(kInt)},
      {Tosa::INTDIV, {any(kI32), any(kI32)}, any(kI32)},
      {Tosa::LOGICAL_AND, {any(kBool), any(kBool)}, any(kBool)},
      {Tosa::LOGICAL_LEFT_SHIFT, {any(kInt), any(kInt)}, any(kInt)},
      {Tosa::LOGICAL_RIGHT_SHIFT, {any(kInt), any(kInt)}, any(kInt)},
      {Tosa::LOGICAL_OR, {any(kBool), any(kBool)}, any(kBool)},
      {Tosa::LOGICAL_XOR, {any(kBool), any(kBool)}, any(kBool)},
      {Tosa::MAXIMUM, {any(kI32 | kFloat), any(kI32 | kFloat)}, any(kI32 | kFloat)},
      {Tosa::MINIMUM, {any(kI32 | kFloat), any(kI32 | kFloat)}, any(kI32 | kFloat)},
      {Tosa::MUL, {any(kInt | kFloat), any(kInt | kFloat), len1(kI8)}, any(kI32 | kFloat)},
      {Tosa::POW, {any(kFloat), any(kFloat)}, any(kFloat)},
      {Tosa::SUB, {any(kI32 | kFloat), any(kI32 | kFloat)}, any(kI32 | kFloat)},
      {Tosa::TABLE, {any(kI8 | kI16), ranks(kI8 | kI16, rank(1))}, any(kI8 | kI32)},
      {Tosa::ABS, {any(kI32 | kFloat)}, any(kI32 | kFloat)},
      {Tosa::BITWISE_NOT, {any(kInt)}, any(kInt)},
      {Tosa::CEIL, {any(kFloat)}, any(kFloat)},
      {Tosa::CLZ, {any(kI32)}, any(kI32)},
      {Tosa::COS, {any(kFloat)}, any(kFloat)},
      {Tosa::EXP, {any(kFloat)}, any(kFloat)},
      {Tosa::FLOOR, {any(kFloat)}, any(kFloat)},
      {Tosa::LOG, {any(kFloat)}, any(kFloat)},
      {Tosa::LOGICAL_NOT, {any(kBool)}, any(kBool)},
      {Tosa::NEGATE,
       {any(kInt | kFloat), len1(kInt | kFloat), len1(kInt | kFloat)},
       any(kInt | kFloat)},
      {Tosa::RECIPROCAL, {any(kFloat)}, any(kFloat)},
      {Tosa::RSQRT, {any(kFloat)}, any(kFloat)},
      {Tosa::SIN, {any(kFloat)}, any(kFloat)},
      {Tosa::SELECT, {any(kBool), any(kAny), any(kAny)}, any(kAny)},
      {Tosa::EQUAL, {any(kI32 | kFloat), any(kI32 | kFloat)}, any(kBool)},
      {Tosa::GREATER, {any(kI32 | kFloat), any(kI32 | kFloat)}, any(kBool)},
      {Tosa::GREATER_EQUAL, {any(kI32 | kFloat), any(kI32 | kFloat)}, any(kBool)},
      {Tosa::REDUCE_ALL, {any(kBool)}, any(kBool)},
      {Tosa::REDUCE_ANY, {any(kBool)}, any(kBool)},
      {Tosa::REDUCE_MAX, {any(kInt | kFloat)}, any(kInt | kFloat)},
      {Tosa::REDUCE_MIN, {any(kInt | kFloat)}, any(kInt | kFloat)},
      {Tosa::REDUCE_PRODUCT, {any(kFloat)}, any(kFloat)},
      {Tosa::REDUCE_SUM, {any(kI32 | kFloat)}, any(kI32 | kFloat)},
      {Tosa::CONCAT, {any(kAny)}, any(kAny)},
      {Tosa::PAD, {any(kAny), ranks(kI32, rank(1)), len1(kAny)}, any(kAny)},
      {Tosa::RESHAPE, {any(kAny), ranks(kI32, rank(1))}, any(kAny)},
      {Tosa::REVERSE, {any(kAny)}, any(kAny)},
      {Tosa::SLICE, {any(kAny), ranks(kI32, rank(1)), ranks(kI32, rank(1))}, any(kAny)},
      {Tosa::TILE, {any(kAny), ranks(kI32, rank(1))}, any(kAny)},
      {Tosa::TRANSPOSE, {any(kAny)}, any(kAny)},
      {Tosa::GATHER,
       {ranks(kInt | kFloat, rank(3)), ranks(kI32, rank(2))},
       ranks(kInt | kFloat, rank(3))},
      {Tosa::SCATTER,
       {ranks(kInt | kFloat, rank(3)), ranks(kI32, rank(2)), ranks(kInt | kFloat, rank(3))},
       ranks(kInt | kFloat, rank(3))},
      {Tosa::RESIZE,
       {ranks(kPoolIn, rank(4)), ranks(kI32, rank(1)), ranks(kI32, rank(1)), ranks(kI32, rank(1))},
       ranks(kNumeric, rank(4))},
      {Tosa::CAST, {any(kAny)}, any(kAny)},
      {Tosa::RESCALE,
       {any(kInt | kI64), ranks(kI16 | kI32, rank(1)), ranks(kI8, rank(1)), len1(kInt | kI64),
        len1(kInt)},
       any(kInt)},
  };
  return rules;
}

const OpRule *ruleOf(uint32_t number) {
  const std::vector<OpRule> &rules = opRules();
  return number < rules.size() && rules[number].number == number ? &rules[number] : nullptr;
}

// --- The checks ----------------------------------------------------------------------------

/// The op's values by MLIR's names: its operands, then its result (last).
struct Values {
  std::vector<Type> types;
  std::vector<std::string> names;
  Type type(std::string_view name) const {
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == name)
        return types[i];
    return {};
  }
};

constexpr std::string_view kFailed = "failed to verify that ";

int64_t elements(Type t) {
  int64_t n = 1;
  for (uint32_t d : t.shape()) {
    if (d == Type::kDynamicDim)
      return -1;
    n *= d;
  }
  return n;
}

/// The rank of a ranked tensor, -1 otherwise.
int rankOf(Type t) { return ranked(t) ? static_cast<int>(t.count()) : -1; }

std::string join(std::initializer_list<std::string_view> names) {
  std::string out;
  for (std::string_view n : names)
    out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

class Checker {
public:
  Checker(const Operation &op, const Values &v) : op_(op), v_(v) {}
  const std::string &problem() const { return problem_; }
  bool failed() const { return !problem_.empty(); }

  void fail(std::string message) {
    if (problem_.empty())
      problem_ = std::move(message);
  }

  Type elemType(std::string_view name) const {
    Type t = v_.type(name);
    if (t && t.is(TypeKind::TensorArm))
      return t.elementType();
    if (Attribute a = op_.attr(name); a && (a.is(AttrKind::Integer) || a.is(AttrKind::Float)))
      return a.type(); // Clamp's bounds
    return t;
  }

  void sameElem(std::initializer_list<std::string_view> names) {
    Type first = elemType(*names.begin());
    for (std::string_view n : names)
      if (elemType(n) != first)
        return fail(std::string(kFailed) + "all of {" + join(names) + "} have same element type");
  }
  void sameType(std::initializer_list<std::string_view> names) {
    Type first = v_.type(*names.begin());
    for (std::string_view n : names)
      if (v_.type(n) != first)
        return fail(std::string(kFailed) + "all of {" + join(names) + "} have same type");
  }
  void sameRank(std::initializer_list<std::string_view> names) {
    int first = rankOf(v_.type(*names.begin()));
    for (std::string_view n : names)
      if (rankOf(v_.type(n)) != first)
        return fail(std::string(kFailed) + "all of {" + join(names) + "} have same rank");
  }
  void sameShape(std::initializer_list<std::string_view> names) {
    Type first = v_.type(*names.begin());
    for (std::string_view n : names) {
      Type t = v_.type(n);
      if (rankOf(t) != rankOf(first) || !std::equal(t.shape().begin(), t.shape().end(),
                                                    first.shape().begin(), first.shape().end()))
        return fail(std::string(kFailed) + "all of {" + join(names) + "} have same shape");
    }
  }
  void sameElementCount(std::string_view a, std::string_view b) {
    int64_t x = elements(v_.type(a)), y = elements(v_.type(b));
    if (x >= 0 && y >= 0 && x != y)
      fail(std::string(kFailed) + "all of {" + std::string(a) + ", " + std::string(b) +
           "} have same number of elements");
  }
  /// Dimensions equal, or one of them 1, and the larger the output's.
  void broadcast(std::string_view a, std::string_view b, std::string_view out) {
    Type x = v_.type(a), y = v_.type(b), z = v_.type(out);
    if (rankOf(x) != rankOf(y) || rankOf(x) != rankOf(z))
      return;
    for (uint32_t i = 0; i < x.count(); ++i) {
      uint32_t p = x.shape()[i], q = y.shape()[i], r = z.shape()[i];
      if (p == Type::kDynamicDim || q == Type::kDynamicDim || r == Type::kDynamicDim)
        continue;
      if ((p != q && p != 1 && q != 1) || std::max(p, q) != r)
        return fail(std::string(kFailed) + "the shape of " + std::string(a) + " and " +
                    std::string(b) +
                    " are compatible for broadcasting and the broadcast shape is equal to the " +
                    std::string(out) + " shape");
    }
  }
  /// When `name`'s element type is `when`, `other`'s is one of `allowed`.
  void implies(std::string_view name, uint16_t when, std::string_view other, uint16_t allowed) {
    if (!(elemOf(elemType(name)) & when) || (elemOf(elemType(other)) & allowed))
      return;
    std::string list = elemNames(allowed);
    for (size_t at; (at = list.find(" or ")) != std::string::npos;)
      list.replace(at, 4, ",");
    fail(std::string(kFailed) + "if " + std::string(name) + " has type " + elemNames(when) +
         " then " + std::string(other) + " must have a type in [" + list + "]");
  }
  /// When `name`'s element type is `when`, acc_type is one of `allowed`.
  void accType(std::string_view name, uint16_t when, std::initializer_list<uint32_t> allowed) {
    Attribute acc = op_.attr("acc_type");
    if (!(elemOf(elemType(name)) & when) || !acc || !acc.is(AttrKind::DialectEnum) ||
        std::find(allowed.begin(), allowed.end(), acc.enumValue()) != allowed.end())
      return;
    std::string list;
    for (uint32_t v : allowed)
      list +=
          (list.empty() ? "" : ",") + std::string(dialectEnumText(DialectEnumKind::TosaAccType, v));
    fail(std::string(kFailed) + "acc_type must be one in [" + list + "] when type has value " +
         elemNames(when));
  }
  void axisBelowRank(std::string_view name) {
    Attribute axis = op_.attr("axis");
    int r = rankOf(v_.type(name));
    if (axis && axis.is(AttrKind::Integer) && r >= 0 && axis.intValue() >= r)
      fail(std::string(kFailed) + "axis attribute value should be lower than rank(" +
           std::string(name) + ")");
  }
  /// `name`'s length (a rank-1 tensor, or an I32Tensor attribute) is `factor` times `of`'s rank.
  void lengthIsRank(std::string_view name, std::string_view of, int factor = 1) {
    int r = rankOf(v_.type(of));
    if (r < 0)
      return;
    int64_t length = -1;
    if (Type t = v_.type(name); ranked(t) && t.count() == 1 && t.shape()[0] != Type::kDynamicDim)
      length = t.shape()[0];
    else if (Attribute a = op_.attr(name); a && a.is(AttrKind::Dense))
      length = static_cast<int64_t>(a.elements().size());
    if (length >= 0 && length != factor * r)
      fail(std::string(kFailed) + "the length of " + std::string(name) + " is " +
           (factor == 1 ? "" : std::to_string(factor) + " times ") + "the rank of " +
           std::string(of));
  }

private:
  const Operation &op_;
  const Values &v_;
  std::string problem_;
};

constexpr uint32_t kAccInt32 = 1, kAccFp16 = 2, kAccFp32 = 3, kAccInt48 = 4;

/// What relates the values of each op (MLIR's traits), by instruction number.
void relations(uint32_t number, Checker &c, const Operation &op) {
  auto convolution = [&] {
    c.implies("input", kI8, "output", kI32);
    c.implies("input", kI16, "output", kI64);
    c.implies("input", kBF16, "output", kBF16);
    c.implies("input", kF16, "output", kF16);
    c.implies("input", kF32, "output", kF32);
    c.implies("input", kBF16, "weight", kBF16);
    c.implies("input", kF16, "weight", kF16);
    c.implies("input", kF32, "weight", kF32);
    c.accType("input", kI8, {kAccInt32});
    c.accType("input", kI16, {kAccInt48});
    c.accType("input", kF16, {kAccFp16, kAccFp32});
    c.accType("input", kBF16, {kAccFp32});
    c.accType("input", kF32, {kAccFp32});
    c.sameElem({"bias", "output"});
    c.sameElem({"input", "input_zp"});
    c.sameElem({"weight", "weight_zp"});
  };
  auto binary = [&] {
    c.sameElem({"input1", "input2"});
    c.sameRank({"input1", "input2", "output"});
    c.broadcast("input1", "input2", "output");
  };
  auto elementwiseBinary = [&] {
    binary();
    c.sameElem({"input1", "output"});
  };
  auto reduction = [&] {
    c.sameElem({"input", "output"});
    c.sameRank({"input", "output"});
    c.axisBelowRank("input");
  };
  switch (static_cast<Tosa>(number)) {
  case Tosa::ARGMAX: {
    Type in = op.operand(0).type(), out = op.result().type();
    if (rankOf(in) >= 0 && rankOf(out) >= 0 && std::max(1, rankOf(in) - 1) != rankOf(out))
      c.fail(std::string(kFailed) + "output rank must be equal to max(1, rank(input))");
    c.axisBelowRank("input");
    break;
  }
  case Tosa::AVG_POOL2D:
    c.accType("input", kI8, {kAccInt32});
    c.accType("input", kI16, {kAccInt32});
    c.accType("input", kF16, {kAccFp16, kAccFp32});
    c.accType("input", kBF16, {kAccFp32});
    c.accType("input", kF32, {kAccFp32});
    c.sameElem({"input", "input_zp", "output", "output_zp"});
    break;
  case Tosa::CONV2D:
  case Tosa::CONV3D:
  case Tosa::DEPTHWISE_CONV2D:
  case Tosa::TRANSPOSE_CONV2D:
    convolution();
    break;
  case Tosa::MATMUL:
    c.implies("A", kI8, "output", kI32);
    c.implies("A", kI16, "output", kI64);
    c.implies("A", kBF16, "output", kF32);
    c.implies("A", kF16, "output", kF16 | kF32);
    c.implies("A", kF32, "output", kF32);
    c.sameElem({"A", "A_zp", "B", "B_zp"});
    break;
  case Tosa::MAX_POOL2D:
    c.sameElem({"input", "output"});
    break;
  case Tosa::CLAMP:
    c.sameType({"input", "output"});
    c.sameElem({"input", "output", "min_val", "max_val"});
    break;
  case Tosa::ERF:
  case Tosa::SIGMOID:
  case Tosa::TANH:
    c.sameType({"input", "output"});
    break;
  case Tosa::ADD:
  case Tosa::ARITHMETIC_RIGHT_SHIFT:
  case Tosa::BITWISE_AND:
  case Tosa::BITWISE_OR:
  case Tosa::BITWISE_XOR:
  case Tosa::INTDIV:
  case Tosa::LOGICAL_AND:
  case Tosa::LOGICAL_LEFT_SHIFT:
  case Tosa::LOGICAL_RIGHT_SHIFT:
  case Tosa::LOGICAL_OR:
  case Tosa::LOGICAL_XOR:
  case Tosa::MAXIMUM:
  case Tosa::MINIMUM:
  case Tosa::POW:
  case Tosa::SUB:
    elementwiseBinary();
    break;
  case Tosa::MUL:
    binary();
    c.implies("input1", kF16, "output", kF16);
    c.implies("input1", kF32, "output", kF32);
    c.implies("input1", kBF16, "output", kBF16);
    c.implies("input1", kInt | kI64, "output", kI32);
    break;
  case Tosa::TABLE: {
    c.sameElem({"input1", "table"});
    c.sameShape({"input1", "output"});
    c.implies("input1", kI8, "output", kI8);
    c.implies("input1", kI16, "output", kI32);
    Type in = op.operand(0).type(), table = op.operand(1).type();
    for (auto [e, size] : {std::pair<uint16_t, uint32_t>{kI8, 256}, {kI16, 513}})
      if ((elemOf(in.elementType()) & e) && table.shape()[0] != size)
        c.fail(std::string(kFailed) + "table must have size " + std::to_string(size) +
               " if input1 has element type " + elemNames(e));
    break;
  }
  case Tosa::NEGATE:
    c.sameType({"input1", "output"});
    c.sameElem({"input1", "output", "input1_zp", "output_zp"});
    break;
  case Tosa::SELECT:
    c.sameElem({"true_value", "false_value", "output"});
    c.sameRank({"condition", "true_value", "false_value", "output"});
    break;
  case Tosa::EQUAL:
  case Tosa::GREATER:
  case Tosa::GREATER_EQUAL:
    c.sameElem({"input1", "input2"});
    c.broadcast("input1", "input2", "output");
    break;
  case Tosa::REDUCE_ALL:
  case Tosa::REDUCE_ANY:
  case Tosa::REDUCE_MAX:
  case Tosa::REDUCE_MIN:
  case Tosa::REDUCE_PRODUCT:
  case Tosa::REDUCE_SUM:
    reduction();
    break;
  case Tosa::CONCAT: {
    Type out = op.result().type();
    for (uint32_t i = 0; i < op.numOperands(); ++i) {
      Type t = op.operand(i).type();
      if (t.elementType() != out.elementType())
        c.fail(std::string(kFailed) + "all of {input1} have the element type of output");
      else if (rankOf(t) != rankOf(out))
        c.fail(std::string(kFailed) + "all of {input1} have the rank of output");
    }
    c.axisBelowRank("output");
    break;
  }
  case Tosa::PAD:
    c.sameElem({"input1", "pad_const", "output"});
    c.sameRank({"input1", "output"});
    c.lengthIsRank("padding", "input1", 2);
    break;
  case Tosa::RESHAPE:
    c.sameElem({"input1", "output"});
    c.sameElementCount("input1", "output");
    c.lengthIsRank("shape", "output");
    break;
  case Tosa::REVERSE:
    c.sameType({"input1", "output"});
    c.axisBelowRank("input1");
    break;
  case Tosa::SLICE:
    c.sameElem({"input1", "output"});
    c.lengthIsRank("start", "input1");
    c.lengthIsRank("size", "input1");
    break;
  case Tosa::TILE:
    c.sameElem({"input1", "output"});
    c.sameRank({"input1", "output"});
    c.lengthIsRank("multiples", "input1");
    break;
  case Tosa::TRANSPOSE:
    c.sameElem({"input1", "output"});
    c.sameRank({"input1", "output"});
    c.sameElementCount("input1", "output");
    c.lengthIsRank("perms", "input1");
    break;
  case Tosa::GATHER:
    c.sameElem({"values", "output"});
    break;
  case Tosa::SCATTER:
    c.sameElem({"values_in", "input", "values_out"});
    c.sameType({"values_in", "values_out"});
    break;
  case Tosa::RESIZE:
    c.implies("input", kF16, "output", kF16);
    c.implies("input", kF32, "output", kF32);
    c.implies("input", kBF16, "output", kBF16);
    c.implies("input", kI8, "output", kI8 | kI32);
    c.implies("input", kI16, "output", kI16 | kI64);
    break;
  case Tosa::CAST:
    c.sameShape({"input", "output"});
    c.implies("input", kF16, "output", kF32 | kI16 | kI32 | kI8);
    c.implies("input", kF32, "output", kF16 | kI16 | kI32 | kI8 | kBF16);
    c.implies("input", kI16, "output", kF16 | kF32 | kI32 | kI8 | kBool | kBF16);
    c.implies("input", kI32, "output", kF16 | kF32 | kI16 | kI8 | kBool | kBF16);
    c.implies("input", kI8, "output", kF16 | kF32 | kI16 | kI32 | kBool | kBF16);
    c.implies("input", kBool, "output", kI16 | kI32 | kI8);
    c.implies("input", kBF16, "output", kF32 | kI16 | kI32 | kI8);
    break;
  case Tosa::RESCALE:
    c.sameShape({"input", "output"});
    c.sameElem({"input", "input_zp"});
    c.sameElem({"output", "output_zp"});
    break;
  default: // the unary ops
    if (number >= uint32_t(Tosa::ABS) && number <= uint32_t(Tosa::SIN))
      c.sameType({"input1", "output"});
    break;
  }
}

/// MLIR's description of each constant attribute's constraint, with its own length for the
/// rank-1 tensors (0: any from 1 to 6).
std::string constraintOf(ConstAttr c, size_t length) {
  switch (c) {
  case ConstAttr::I32:
    return "32-bit signless integer attribute whose minimum value is 0 whose maximum value is 5";
  case ConstAttr::Bool:
    return "bool attribute";
  case ConstAttr::I32Tensor:
    return "32-bit signless integer elements attribute of shape [" +
           (length ? std::to_string(length) : std::string("1 to 6")) + "] of a tensorArm type";
  case ConstAttr::Scalar:
    return "8-bit, 16-bit or 32-bit signless integer or 16-bit, 32-bit or bfloat16 float attribute";
  default:
    return "valid SPIR-V " + std::string(dialectEnumName(*dialectEnumOf(c)));
  }
}

/// The length MLIR's definition gives each rank-1 tensor attribute (0: 1 to 6, Transpose's
/// perms).
size_t tensorLength(uint32_t number, std::string_view name) {
  switch (static_cast<Tosa>(number)) {
  case Tosa::AVG_POOL2D:
  case Tosa::MAX_POOL2D:
    return name == "pad" ? 4 : 2;
  case Tosa::CONV2D:
  case Tosa::DEPTHWISE_CONV2D:
    return name == "pad" ? 4 : 2;
  case Tosa::CONV3D:
    return name == "pad" ? 6 : 3;
  case Tosa::TRANSPOSE_CONV2D:
    return name == "out_pad" ? 4 : 2;
  default:
    return 0;
  }
}

std::string quoted(Type t) { return "'" + toString(t) + "'"; }

std::string verifyTosa(const Operation &op) {
  const OpInfo &info = op.info();
  const uint32_t number = info.key.number();
  const OpRule *rule = ruleOf(number);
  if (!rule)
    return {};
  if (const Operation *parent = op.parentOp(); !parent || &parent->info() != &ops::graph())
    return "failed to verify that op must appear in a spirv.ARM.Graph op's block";
  // The attributes: present, of their kind, in their range.
  for (const OperandMapping &m : info.operands) {
    if (m.kind != OperandMapping::Kind::Constant)
      continue;
    Attribute a = op.attr(m.name);
    if (!a)
      return "requires attribute '" + std::string(m.name) + "'";
    const size_t length = tensorLength(number, m.name);
    bool ok =
        m.constAttr == ConstAttr::Scalar
            ? (a.is(AttrKind::Integer) || a.is(AttrKind::Float)) && elemOf(a.type()) & kNumeric
            : hasClass(a, m.constAttr);
    if (ok && m.constAttr == ConstAttr::I32)
      ok = a.intValue() >= 0 && a.intValue() <= 5;
    if (ok && m.constAttr == ConstAttr::I32Tensor)
      ok = length ? a.elements().size() == length : a.elements().size() <= 6;
    if (ok && dialectEnumOf(m.constAttr))
      ok = !dialectEnumText(a.dialectEnum(), a.enumValue()).empty();
    if (!ok)
      return "attribute '" + std::string(m.name) +
             "' failed to satisfy constraint: " + constraintOf(m.constAttr, length);
  }
  // The values: each of its kind.
  Values v;
  size_t k = 0;
  const ValueRule *variadicRule = nullptr;
  auto ruleAt = [&](size_t index) -> const ValueRule & {
    return rule->operands[std::min(index, rule->numOperands - 1)];
  };
  for (const OperandMapping &m : info.operands) {
    if (m.kind != OperandMapping::Kind::Value)
      continue;
    const bool variadic = m.quantifier == grammar::Quantifier::Variadic;
    const uint32_t end = variadic ? op.numOperands() : static_cast<uint32_t>(k + 1);
    for (; k < end && k < op.numOperands(); ++k) {
      const ValueRule &r = ruleAt(v.names.size());
      if (variadic)
        variadicRule = &r;
      Type t = op.operand(static_cast<uint32_t>(k)).type();
      if (!satisfies(t, r))
        return "operand #" + std::to_string(k) + " must be " + (variadic ? "variadic of " : "") +
               describe(r) + ", but got " + quoted(t);
      std::string name(m.name);
      // MLIR names Select's operands by their roles.
      if (number == uint32_t(Tosa::SELECT))
        name = k == 0 ? "condition" : k == 1 ? "true_value" : "false_value";
      v.names.push_back(std::move(name));
      v.types.push_back(t);
    }
  }
  if (variadicRule && op.numOperands() == 0)
    return "failed to verify that input1 has at least 1 value";
  if (number == uint32_t(Tosa::CONCAT) && op.numOperands() == 0)
    return "failed to verify that input1 has at least 1 value";
  Type result = op.result().type();
  if (!satisfies(result, rule->result))
    return "result #0 must be " + describe(rule->result) + ", but got " + quoted(result);
  v.names.push_back(number == uint32_t(Tosa::SCATTER) ? "values_out" : "output");
  v.types.push_back(result);
  Checker c(op, v);
  relations(number, c, op);
  return c.problem();
}

} // namespace

void attachTosa(const OpRecords &records) {
  OverlayStore &store = records.store();
  OpSyntax *syntax = nullptr;
  // The set's instructions, not every number: a look-up per number was a sixth of the start.
  const grammar::ExtInstSetDesc *set = grammar::extInstSet(grammar::ExtInstSet::Tosa0010001);
  if (!set)
    return;
  for (const grammar::ExtInstDesc &e : set->instructions) {
    const uint32_t n = e.opcode;
    OpInfo *info = records.find(OpKey(OpSpace::Tosa, n));
    if (!info)
      continue;
    if (!syntax) {
      syntax = &store.syntaxes.emplace_back();
      syntax->print = syntax::printTosa;
      syntax->parse = syntax::parseTosa;
      syntax->newerThanMlir16 = true;
    }
    info->syntax = syntax;
    info->verify = verifyTosa;
  }
}

std::string tosaProblem(const OpInfo &info) {
  if (info.key.space() != OpSpace::Tosa)
    return {};
  const OpRule *rule = ruleOf(info.key.number());
  if (!rule || rule->numOperands == 0)
    return std::string(info.name) + ": no rule for its operands";
  return {};
}

} // namespace detail

} // namespace spire::dialect
