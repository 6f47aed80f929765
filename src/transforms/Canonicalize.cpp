// canonicalize: constant folding, MLIR's simplifications of SPIR-V ops, and removal of unused
// ops without side effects, repeated until nothing changes.
//
// Folding follows SPIR-V's semantics exactly or not at all: integer arithmetic wraps at the
// type's width and takes signedness from the opcode (SDiv, SLessThan) not from the type;
// division and remainder by zero, SDiv of the least value by -1, shifts by the width or more,
// float-to-integer conversions of NaN or out-of-range values and out-of-range dynamic indices
// are left alone (their results are undefined); float results are rounded to the type's
// precision (f16 included).
#include "spire/transforms/Pass.h"

#include "spire/dialect/Availability.h"
#include "spire/dialect/Builder.h"
#include "spire/dialect/Ops.h"
#include "spire/dialect/StructuralOps.h"
#include "spire/support/Half.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace spire::transforms {

namespace {

using dialect::Attribute;
using dialect::AttrKind;
using dialect::Block;
using dialect::BranchOp;
using dialect::ConstantOp;
using dialect::OpBuilder;
using dialect::OperationState;
using dialect::OpInfo;
using dialect::OpKey;
using dialect::OpOperand;
using dialect::Region;
using dialect::Successor;
using dialect::Type;
using dialect::TypeKind;
using dialect::Value;
namespace attr = dialect::attr;
namespace ops = dialect::ops;
using Op = grammar::Op;
using GL = grammar::GlslStd450Inst;
using CL = grammar::OpenclStd100Inst;

// --- Scalars --------------------------------------------------------------------------------

uint64_t maskOf(unsigned width) { return width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1; }

int64_t signExtend(uint64_t bits, unsigned width) {
  if (width >= 64)
    return static_cast<int64_t>(bits);
  uint64_t sign = uint64_t(1) << (width - 1);
  bits &= maskOf(width);
  return static_cast<int64_t>((bits ^ sign) - sign);
}

/// `x` rounded to a float of `width` bits (16: half).
double roundTo(double x, unsigned width) {
  if (width == 32)
    return static_cast<double>(static_cast<float>(x));
  if (width == 16)
    return halfToDouble(halfFromDouble(x));
  return x;
}

/// `x` rounded to a value of the float type `t` (f16, bf16, the 8-bit floats, f32, f64).
double roundTo(double x, Type t) { return floatOfBits(t, bitsOfFloat(t, x)); }

/// A scalar constant: integers (and booleans) as their low bits, floats as doubles.
struct Scalar {
  uint64_t bits = 0;
  double f = 0;
};

std::optional<Scalar> scalarOf(Attribute a) {
  if (!a)
    return std::nullopt;
  if (a.is(AttrKind::Bool))
    return Scalar{a.boolValue() ? 1u : 0u, 0};
  if (a.is(AttrKind::Integer))
    return Scalar{a.bits(), 0};
  if (a.is(AttrKind::Float))
    return Scalar{0, a.floatValue()};
  return std::nullopt;
}

Attribute scalarAttr(Context &ctx, Type t, const Scalar &s) {
  if (t.isBool())
    return attr::boolean(ctx, s.bits & 1);
  if (t.is(TypeKind::Integer))
    return attr::integer(ctx, t, static_cast<int64_t>(s.bits & maskOf(t.width())));
  return attr::floating(ctx, t, roundTo(s.f, t));
}

Type elementOf(Type t) { return t.is(TypeKind::Vector) ? t.elementType() : t; }

/// The element constants of a scalar or vector constant value.
std::optional<std::vector<Scalar>> elementsOf(Attribute a, Type t) {
  std::vector<Scalar> out;
  if (t.is(TypeKind::Vector)) {
    if (!a || !a.is(AttrKind::Dense) || a.elements().size() != t.count())
      return std::nullopt;
    for (Attribute e : a.elements()) {
      std::optional<Scalar> s = scalarOf(e);
      if (!s)
        return std::nullopt;
      out.push_back(*s);
    }
    return out;
  }
  std::optional<Scalar> s = scalarOf(a);
  if (!s)
    return std::nullopt;
  out.push_back(*s);
  return out;
}

Attribute valueAttr(Context &ctx, Type t, const std::vector<Scalar> &elems) {
  if (!t.is(TypeKind::Vector))
    return scalarAttr(ctx, t, elems.front());
  std::vector<Attribute> as;
  for (const Scalar &s : elems)
    as.push_back(scalarAttr(ctx, t.elementType(), s));
  return attr::dense(ctx, t, as);
}

/// The value of `v` when a spirv.Constant defines it.
Attribute constantOf(Value v) {
  Operation *def = v ? v.definingOp() : nullptr;
  if (!def || &def->info() != &ops::constant())
    return {};
  return def->attr("value");
}

bool isSplat(Value v, uint64_t bits) {
  Attribute a = constantOf(v);
  if (!a)
    return false;
  std::optional<std::vector<Scalar>> es = elementsOf(a, v.type());
  if (!es)
    return false;
  unsigned w = elementOf(v.type()).width();
  for (const Scalar &s : *es)
    if ((s.bits & maskOf(w)) != (bits & maskOf(w)))
      return false;
  return true;
}

bool isIntOrBool(Type t) { return elementOf(t).is(TypeKind::Integer); }

// --- Element-wise folders -------------------------------------------------------------------

/// Folds one element (operands of element type `in`, result of element type `out`); nullopt
/// when the result is undefined.
using Folder = std::function<std::optional<Scalar>(const std::vector<Scalar> &, Type in, Type out)>;

/// The folders, found by the op's record key (its opcode or extended instruction number).
class FolderTable {
public:
  Folder &operator[](OpKey key) { return map_[code(key)]; }
  const Folder *find(OpKey key) const {
    auto it = map_.find(code(key));
    return it == map_.end() ? nullptr : &it->second;
  }

private:
  static uint32_t code(OpKey key) {
    return (static_cast<uint32_t>(key.space()) << 24) | key.number();
  }
  std::unordered_map<uint32_t, Folder> map_;
};

std::optional<Scalar> I(uint64_t v) { return Scalar{v, 0}; }
std::optional<Scalar> F(double v) { return Scalar{0, v}; }
std::optional<Scalar> B(bool v) { return Scalar{v ? 1u : 0u, 0}; }

/// Float arithmetic in the type's precision: f32 in float (exact rounding), f16 in float
/// rounded to half (products and quotients of halves are exact enough in float for one
/// rounding), f64 in double.
template <class Op> std::optional<Scalar> floatOp(double a, double b, unsigned width, Op op) {
  if (width == 64)
    return F(op(a, b));
  float r = op(static_cast<float>(a), static_cast<float>(b));
  return F(roundTo(r, width));
}

/// The extended instructions whose results are exact (GLSL.std.450 and OpenCL.std): absolute
/// values, signs, minima, maxima, clamps, rounding to integers. Transcendental functions,
/// square roots, Fma and Mix are left alone: their precision is the implementation's. Cases
/// the specifications leave undefined or open (a NaN operand where the result is undefined,
/// +0 against -0 in a minimum or maximum, a clamp whose bounds are reversed, the absolute value
/// of the least integer in GLSL) are not folded.
void extendedInstructionFolders(FolderTable &t) {
  auto sv = [](const Scalar &s, Type in) { return signExtend(s.bits, in.width()); };
  auto uv = [](const Scalar &s, Type in) { return s.bits & maskOf(in.width()); };
  auto si = [](int64_t v, Type out) { return I(static_cast<uint64_t>(v) & maskOf(out.width())); };
  // A float result computed exactly in double (integral roundings, abs, copysign): it is
  // representable in the type already.
  auto exact = [](double (*fn)(double)) {
    return [fn](auto &o, Type, Type) -> std::optional<Scalar> { return F(fn(o[0].f)); };
  };
  for (OpKey key : {OpKey(GL::FAbs), OpKey(CL::fabs)})
    t[key] = exact([](double x) { return std::fabs(x); });
  for (OpKey key : {OpKey(GL::Floor), OpKey(CL::floor)})
    t[key] = exact([](double x) { return std::floor(x); });
  for (OpKey key : {OpKey(GL::Ceil), OpKey(CL::ceil)})
    t[key] = exact([](double x) { return std::ceil(x); });
  for (OpKey key : {OpKey(GL::Trunc), OpKey(CL::trunc)})
    t[key] = exact([](double x) { return std::trunc(x); });
  // Halfway cases to even (GLSL RoundEven, OpenCL rint in the default rounding mode) and away
  // from zero (OpenCL round; GLSL Round leaves their direction to the implementation).
  for (OpKey key : {OpKey(GL::RoundEven), OpKey(CL::rint)})
    t[key] = exact([](double x) { return std::nearbyint(x); });
  t[CL::round] = exact([](double x) { return std::round(x); });
  t[CL::copysign] = [](auto &o, Type, Type) { return F(std::copysign(o[0].f, o[1].f)); };
  t[GL::FSign] = [](auto &o, Type, Type) -> std::optional<Scalar> {
    if (std::isnan(o[0].f) || o[0].f == 0)
      return std::nullopt;
    return F(o[0].f > 0 ? 1.0 : -1.0);
  };
  t[GL::SSign] = [sv, si](auto &o, Type in, Type out) {
    const int64_t v = sv(o[0], in);
    return si(v > 0 ? 1 : v < 0 ? -1 : 0, out);
  };
  t[GL::SAbs] = [sv, si](auto &o, Type in, Type out) -> std::optional<Scalar> {
    const int64_t v = sv(o[0], in);
    if (v == signExtend(uint64_t(1) << (in.width() - 1), in.width()))
      return std::nullopt;
    return si(v < 0 ? -v : v, out);
  };
  // OpenCL's s_abs returns the magnitude as an unsigned value: the least integer has one.
  t[CL::s_abs] = [sv](auto &o, Type in, Type out) {
    const int64_t v = sv(o[0], in);
    return I((v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v)) &
             maskOf(out.width()));
  };
  t[CL::u_abs] = [uv](auto &o, Type in, Type) { return I(uv(o[0], in)); };
  // Integer minima, maxima and clamps.
  auto pick = [](bool isSigned, bool wantMax) {
    return [isSigned, wantMax](auto &o, Type in, Type) {
      const unsigned w = in.width();
      const bool aLess = isSigned ? signExtend(o[0].bits, w) < signExtend(o[1].bits, w)
                                  : (o[0].bits & maskOf(w)) < (o[1].bits & maskOf(w));
      return I((aLess == wantMax ? o[1].bits : o[0].bits) & maskOf(w));
    };
  };
  for (OpKey key : {OpKey(GL::SMin), OpKey(CL::s_min)})
    t[key] = pick(true, false);
  for (OpKey key : {OpKey(GL::SMax), OpKey(CL::s_max)})
    t[key] = pick(true, true);
  for (OpKey key : {OpKey(GL::UMin), OpKey(CL::u_min)})
    t[key] = pick(false, false);
  for (OpKey key : {OpKey(GL::UMax), OpKey(CL::u_max)})
    t[key] = pick(false, true);
  auto clamp = [](bool isSigned) {
    return [isSigned](auto &o, Type in, Type) -> std::optional<Scalar> {
      const unsigned w = in.width();
      auto less = [&](const Scalar &a, const Scalar &b) {
        return isSigned ? signExtend(a.bits, w) < signExtend(b.bits, w)
                        : (a.bits & maskOf(w)) < (b.bits & maskOf(w));
      };
      if (less(o[2], o[1]))
        return std::nullopt; // bounds reversed: undefined
      const Scalar &r = less(o[0], o[1]) ? o[1] : less(o[2], o[0]) ? o[2] : o[0];
      return I(r.bits & maskOf(w));
    };
  };
  for (OpKey key : {OpKey(GL::SClamp), OpKey(CL::s_clamp)})
    t[key] = clamp(true);
  for (OpKey key : {OpKey(GL::UClamp), OpKey(CL::u_clamp)})
    t[key] = clamp(false);
  // Float minima and maxima: not for +0 against -0 (either may come back); GLSL leaves a NaN
  // operand undefined, OpenCL returns the other operand.
  auto fpick = [](bool wantMax, bool openCL) {
    return [wantMax, openCL](auto &o, Type, Type) -> std::optional<Scalar> {
      const double a = o[0].f, b = o[1].f;
      if (std::isnan(a) || std::isnan(b)) {
        if (!openCL)
          return std::nullopt;
        return F(std::isnan(a) ? b : a);
      }
      if (a == b && std::signbit(a) != std::signbit(b))
        return std::nullopt;
      return F(wantMax ? std::max(a, b) : std::min(a, b));
    };
  };
  t[GL::FMin] = fpick(false, false);
  t[GL::FMax] = fpick(true, false);
  t[CL::fmin] = fpick(false, true);
  t[CL::fmax] = fpick(true, true);
  t[GL::FClamp] = [](auto &o, Type, Type) -> std::optional<Scalar> {
    const double x = o[0].f, lo = o[1].f, hi = o[2].f;
    if (std::isnan(x) || std::isnan(lo) || std::isnan(hi) || lo > hi ||
        (x == 0 && (x == lo || x == hi)))
      return std::nullopt; // NaN, reversed bounds, or a zero whose sign is open
    return F(x < lo ? lo : x > hi ? hi : x);
  };
}

const FolderTable &folders() {
  static const FolderTable table = [] {
    FolderTable t;
    auto w = [](Type type) { return type.width(); };
    // Integer arithmetic, wrapping.
    t[Op::IAdd] = [w](auto &o, Type in, Type) {
      return I((o[0].bits + o[1].bits) & maskOf(w(in)));
    };
    t[Op::ISub] = [w](auto &o, Type in, Type) {
      return I((o[0].bits - o[1].bits) & maskOf(w(in)));
    };
    t[Op::IMul] = [w](auto &o, Type in, Type) {
      return I((o[0].bits * o[1].bits) & maskOf(w(in)));
    };
    t[Op::SNegate] = [w](auto &o, Type in, Type) { return I((0 - o[0].bits) & maskOf(w(in))); };
    t[Op::Not] = [w](auto &o, Type in, Type) { return I(~o[0].bits & maskOf(w(in))); };
    t[Op::UDiv] = [w](auto &o, Type in, Type) -> std::optional<Scalar> {
      uint64_t m = maskOf(w(in)), a = o[0].bits & m, b = o[1].bits & m;
      if (b == 0)
        return std::nullopt;
      return I(a / b);
    };
    t[Op::UMod] = [w](auto &o, Type in, Type) -> std::optional<Scalar> {
      uint64_t m = maskOf(w(in)), a = o[0].bits & m, b = o[1].bits & m;
      if (b == 0)
        return std::nullopt;
      return I(a % b);
    };
    // Signed division: undefined for 0 and for the least value by -1.
    auto sdivOk = [w](auto &o, Type in) {
      int64_t a = signExtend(o[0].bits, w(in)), b = signExtend(o[1].bits, w(in));
      int64_t least = signExtend(uint64_t(1) << (w(in) - 1), w(in));
      return b != 0 && !(b == -1 && a == least);
    };
    t[Op::SDiv] = [w, sdivOk](auto &o, Type in, Type) -> std::optional<Scalar> {
      if (!sdivOk(o, in))
        return std::nullopt;
      int64_t a = signExtend(o[0].bits, w(in)), b = signExtend(o[1].bits, w(in));
      return I(static_cast<uint64_t>(a / b) & maskOf(w(in)));
    };
    t[Op::SRem] = [w, sdivOk](auto &o, Type in, Type) -> std::optional<Scalar> {
      if (!sdivOk(o, in))
        return std::nullopt;
      int64_t a = signExtend(o[0].bits, w(in)), b = signExtend(o[1].bits, w(in));
      return I(static_cast<uint64_t>(a % b) & maskOf(w(in)));
    };
    t[Op::SMod] = [w, sdivOk](auto &o, Type in, Type) -> std::optional<Scalar> {
      if (!sdivOk(o, in))
        return std::nullopt;
      int64_t a = signExtend(o[0].bits, w(in)), b = signExtend(o[1].bits, w(in));
      int64_t r = a % b;
      if (r != 0 && ((r < 0) != (b < 0)))
        r += b;
      return I(static_cast<uint64_t>(r) & maskOf(w(in)));
    };
    // Shifts: the result has the type of the base; shifting by its width or more is
    // undefined.
    t[Op::ShiftLeftLogical] = [](auto &o, Type, Type out) -> std::optional<Scalar> {
      uint64_t n = o[1].bits; // constants hold their low width bits
      if (n >= out.width())
        return std::nullopt;
      return I((o[0].bits << n) & maskOf(out.width()));
    };
    t[Op::ShiftRightLogical] = [](auto &o, Type, Type out) -> std::optional<Scalar> {
      uint64_t n = o[1].bits; // constants hold their low width bits
      if (n >= out.width())
        return std::nullopt;
      return I((o[0].bits & maskOf(out.width())) >> n);
    };
    t[Op::ShiftRightArithmetic] = [](auto &o, Type, Type out) -> std::optional<Scalar> {
      uint64_t n = o[1].bits; // constants hold their low width bits
      if (n >= out.width())
        return std::nullopt;
      return I(static_cast<uint64_t>(signExtend(o[0].bits, out.width()) >> n) &
               maskOf(out.width()));
    };
    t[Op::BitwiseAnd] = [](auto &o, Type, Type) { return I(o[0].bits & o[1].bits); };
    t[Op::BitwiseOr] = [](auto &o, Type, Type) { return I(o[0].bits | o[1].bits); };
    t[Op::BitwiseXor] = [](auto &o, Type, Type) { return I(o[0].bits ^ o[1].bits); };
    // Integer comparisons.
    auto u = [](const Scalar &s, Type in) { return s.bits & maskOf(in.width()); };
    auto s = [](const Scalar &x, Type in) { return signExtend(x.bits, in.width()); };
    t[Op::IEqual] = [u](auto &o, Type in, Type) { return B(u(o[0], in) == u(o[1], in)); };
    t[Op::INotEqual] = [u](auto &o, Type in, Type) { return B(u(o[0], in) != u(o[1], in)); };
    t[Op::UGreaterThan] = [u](auto &o, Type in, Type) { return B(u(o[0], in) > u(o[1], in)); };
    t[Op::UGreaterThanEqual] = [u](auto &o, Type in, Type) {
      return B(u(o[0], in) >= u(o[1], in));
    };
    t[Op::ULessThan] = [u](auto &o, Type in, Type) { return B(u(o[0], in) < u(o[1], in)); };
    t[Op::ULessThanEqual] = [u](auto &o, Type in, Type) { return B(u(o[0], in) <= u(o[1], in)); };
    t[Op::SGreaterThan] = [s](auto &o, Type in, Type) { return B(s(o[0], in) > s(o[1], in)); };
    t[Op::SGreaterThanEqual] = [s](auto &o, Type in, Type) {
      return B(s(o[0], in) >= s(o[1], in));
    };
    t[Op::SLessThan] = [s](auto &o, Type in, Type) { return B(s(o[0], in) < s(o[1], in)); };
    t[Op::SLessThanEqual] = [s](auto &o, Type in, Type) { return B(s(o[0], in) <= s(o[1], in)); };
    // Logical.
    t[Op::LogicalAnd] = [](auto &o, Type, Type) { return B((o[0].bits & 1) && (o[1].bits & 1)); };
    t[Op::LogicalOr] = [](auto &o, Type, Type) { return B((o[0].bits & 1) || (o[1].bits & 1)); };
    t[Op::LogicalEqual] = [](auto &o, Type, Type) { return B((o[0].bits & 1) == (o[1].bits & 1)); };
    t[Op::LogicalNotEqual] = [](auto &o, Type, Type) {
      return B((o[0].bits & 1) != (o[1].bits & 1));
    };
    t[Op::LogicalNot] = [](auto &o, Type, Type) { return B(!(o[0].bits & 1)); };
    // Float arithmetic in the type's precision.
    t[Op::FAdd] = [](auto &o, Type in, Type) {
      return floatOp(o[0].f, o[1].f, in.width(), [](auto a, auto b) { return a + b; });
    };
    t[Op::FSub] = [](auto &o, Type in, Type) {
      return floatOp(o[0].f, o[1].f, in.width(), [](auto a, auto b) { return a - b; });
    };
    t[Op::FMul] = [](auto &o, Type in, Type) {
      return floatOp(o[0].f, o[1].f, in.width(), [](auto a, auto b) { return a * b; });
    };
    t[Op::FDiv] = [](auto &o, Type in, Type) -> std::optional<Scalar> {
      if (o[1].f == 0)
        return std::nullopt;
      return floatOp(o[0].f, o[1].f, in.width(), [](auto a, auto b) { return a / b; });
    };
    t[Op::FRem] = [](auto &o, Type, Type) -> std::optional<Scalar> {
      if (o[1].f == 0)
        return std::nullopt;
      return F(std::fmod(o[0].f, o[1].f)); // exact: the sign of operand 1
    };
    t[Op::FMod] = [](auto &o, Type in, Type) -> std::optional<Scalar> {
      if (o[1].f == 0 || std::isinf(o[1].f))
        return std::nullopt;
      double r = std::fmod(o[0].f, o[1].f);
      if (r != 0 && std::signbit(r) != std::signbit(o[1].f))
        return floatOp(r, o[1].f, in.width(), [](auto a, auto b) { return a + b; });
      return F(r);
    };
    t[Op::FNegate] = [](auto &o, Type, Type) { return F(-o[0].f); };
    // Float comparisons: ordered ones are false and unordered ones true when either is NaN.
    auto cmp = [](bool ordered, auto rel) {
      return [ordered, rel](auto &o, Type, Type) {
        if (std::isnan(o[0].f) || std::isnan(o[1].f))
          return B(!ordered);
        return B(rel(o[0].f, o[1].f));
      };
    };
    t[Op::FOrdEqual] = cmp(true, std::equal_to<double>());
    t[Op::FUnordEqual] = cmp(false, std::equal_to<double>());
    t[Op::FOrdNotEqual] = cmp(true, std::not_equal_to<double>());
    t[Op::FUnordNotEqual] = cmp(false, std::not_equal_to<double>());
    t[Op::FOrdLessThan] = cmp(true, std::less<double>());
    t[Op::FUnordLessThan] = cmp(false, std::less<double>());
    t[Op::FOrdGreaterThan] = cmp(true, std::greater<double>());
    t[Op::FUnordGreaterThan] = cmp(false, std::greater<double>());
    t[Op::FOrdLessThanEqual] = cmp(true, std::less_equal<double>());
    t[Op::FUnordLessThanEqual] = cmp(false, std::less_equal<double>());
    t[Op::FOrdGreaterThanEqual] = cmp(true, std::greater_equal<double>());
    t[Op::FUnordGreaterThanEqual] = cmp(false, std::greater_equal<double>());
    t[Op::IsNan] = [](auto &o, Type, Type) { return B(std::isnan(o[0].f)); };
    t[Op::IsInf] = [](auto &o, Type, Type) { return B(std::isinf(o[0].f)); };
    // Conversions.
    t[Op::SConvert] = [](auto &o, Type in, Type out) {
      return I(static_cast<uint64_t>(signExtend(o[0].bits, in.width())) & maskOf(out.width()));
    };
    t[Op::UConvert] = [](auto &o, Type in, Type out) {
      return I(o[0].bits & maskOf(in.width()) & maskOf(out.width()));
    };
    t[Op::FConvert] = [](auto &o, Type, Type out) { return F(roundTo(o[0].f, out)); };
    t[Op::ConvertSToF] = [](auto &o, Type in, Type out) {
      int64_t v = signExtend(o[0].bits, in.width());
      return F(out.width() == 32 ? static_cast<double>(static_cast<float>(v))
                                 : roundTo(static_cast<double>(v), out.width()));
    };
    t[Op::ConvertUToF] = [](auto &o, Type in, Type out) {
      uint64_t v = o[0].bits & maskOf(in.width());
      return F(out.width() == 32 ? static_cast<double>(static_cast<float>(v))
                                 : roundTo(static_cast<double>(v), out.width()));
    };
    // Float to integer: truncation; NaN and values out of the result's range are undefined.
    t[Op::ConvertFToS] = [](auto &o, Type, Type out) -> std::optional<Scalar> {
      double v = std::trunc(o[0].f);
      double lo = -std::ldexp(1.0, out.width() - 1), hi = std::ldexp(1.0, out.width() - 1);
      if (std::isnan(v) || v < lo || v >= hi)
        return std::nullopt;
      return I(static_cast<uint64_t>(static_cast<int64_t>(v)) & maskOf(out.width()));
    };
    t[Op::ConvertFToU] = [](auto &o, Type, Type out) -> std::optional<Scalar> {
      double v = std::trunc(o[0].f);
      if (std::isnan(v) || v < 0 || v >= std::ldexp(1.0, out.width()))
        return std::nullopt;
      return I(static_cast<uint64_t>(v));
    };
    extendedInstructionFolders(t);
    return t;
  }();
  return table;
}

/// The bits of a float of type `t` holding `v` (NaN payloads are not folded).
std::optional<uint64_t> floatBits(double v, Type t) {
  if (std::isnan(v))
    return std::nullopt;
  return bitsOfFloat(t, v);
}

std::optional<double> floatFromBits(uint64_t bits, Type t) {
  double v = floatOfBits(t, bits);
  if (std::isnan(v))
    return std::nullopt;
  return v;
}

// --- The pass -------------------------------------------------------------------------------

bool isPure(const Operation &op) {
  const OpInfo &info = op.info();
  if (&info == &ops::constant() || &info == &ops::addressOf() || &info == &ops::referenceOf())
    return true;
  if (info.ext) {
    if (info.key.space() != dialect::OpSpace::Glsl)
      return false;
    // Modf and Frexp write through a pointer.
    return info.key != OpKey(GL::Modf) && info.key != OpKey(GL::Frexp);
  }
  if (!info.inst || op.numRegions() || !op.successors().empty())
    return false;
  switch (static_cast<grammar::Op>(info.inst->opcode)) {
  case grammar::Op::Undef:
  case grammar::Op::ConstantNull:
  case grammar::Op::AccessChain:
  case grammar::Op::InBoundsAccessChain:
  case grammar::Op::PtrAccessChain:
  case grammar::Op::InBoundsPtrAccessChain:
  case grammar::Op::CopyObject:
    return true;
  default:
    break;
  }
  switch (info.inst->cls) {
  case grammar::InstructionClass::Composite:
  case grammar::InstructionClass::Conversion:
  case grammar::InstructionClass::Arithmetic:
  case grammar::InstructionClass::RelationalAndLogical:
  case grammar::InstructionClass::Bit:
    return op.numResults() == 1;
  default:
    return false;
  }
}

class Canonicalize final : public Pass {
public:
  std::string_view name() const override { return "canonicalize"; }

  Status run(Operation &module, Context &context) override {
    ctx_ = &context;
    capabilities_.clear();
    if (Attribute vce = module.attr("vce_triple"); vce && vce.is(AttrKind::Vce))
      for (uint32_t c : vce.capabilities())
        for (grammar::Capability implied :
             dialect::impliedCapabilities(static_cast<grammar::Capability>(c)))
          capabilities_.insert(static_cast<uint32_t>(implied));
    for (int round = 0; round < 32; ++round) {
      changed_ = false;
      visit(module);
      removeDead(module);
      removeUnreachableBlocks(module);
      if (!changed_)
        break;
    }
    return {};
  }

private:
  void visit(Operation &op) {
    for (uint32_t r = 0; r < op.numRegions(); ++r)
      for (Block *b : op.region(r))
        for (Operation *child = b->front(); child;) {
          Operation *next = child->next();
          if (!child->numRegions())
            simplify(*child);
          else if (!computesSpecConstant(*child))
            visit(*child);
          child = next;
        }
  }

  /// Removes unused ops without side effects, last first so that chains go at once.
  void removeDead(Operation &op) {
    for (uint32_t r = 0; r < op.numRegions(); ++r)
      for (Block *b : op.region(r))
        for (Operation *child = b->back(); child;) {
          Operation *prev = child->prev();
          if (child->numRegions()) {
            if (!computesSpecConstant(*child))
              removeDead(*child);
          } else if (isPure(*child) && !hasUses(*child)) {
            child->erase();
            changed_ = true;
          }
          child = prev;
        }
  }

  /// Removes the blocks of each function body that no path from its entry reaches (constant
  /// branch conditions leave them behind). Merge instructions kept as ops name their blocks as
  /// successors, so merge and continue targets stay. Nested regions are left alone: their
  /// merge and continue blocks must stay even when no path reaches them.
  void removeUnreachableBlocks(Operation &module) {
    if (module.numRegions() != 1)
      return;
    for (Block *b : module.region(0))
      for (Operation *op = b->front(); op; op = op->next())
        if (&op->info() == &ops::func() && op->numRegions() == 1 && !op->region(0).empty())
          removeUnreachableBlocks(op->region(0));
  }

  void removeUnreachableBlocks(Region &body) {
    std::unordered_set<const Block *> live{body.front()};
    std::vector<Block *> work{body.front()};
    while (!work.empty()) {
      Block *b = work.back();
      work.pop_back();
      for (Operation *op = b->front(); op; op = op->next())
        for (const Successor &succ : op->successors())
          if (succ.block && succ.block->parent() == &body && live.insert(succ.block).second)
            work.push_back(succ.block);
    }
    std::vector<Block *> dead;
    for (Block *b : body)
      if (!live.count(b))
        dead.push_back(b);
    if (dead.empty())
      return;
    // The block of `body` that holds `op` (perhaps through nested regions).
    auto topBlock = [&body](Operation *op) -> const Block * {
      while (op && op->block() && op->block()->parent() != &body)
        op = op->block()->parentOp();
      return op ? op->block() : nullptr;
    };
    auto usedByLiveCode = [&](Value v) {
      for (OpOperand *use = v.firstUse(); use; use = use->nextUse())
        if (live.count(topBlock(use->owner())))
          return true;
      return false;
    };
    // Values of unreachable blocks cannot reach live code in valid IR; if they do, keep all.
    auto escapes = [&](Block *b) {
      bool used = false;
      auto argumentsUsed = [&](Block *block) {
        for (uint32_t a = 0; a < block->numArguments() && !used; ++a)
          used = usedByLiveCode(block->argument(a));
      };
      argumentsUsed(b);
      for (Operation *op = b->front(); op && !used; op = op->next())
        dialect::walk(op, [&](Operation *o) {
          for (uint32_t i = 0; i < o->numResults() && !used; ++i)
            used = usedByLiveCode(o->result(i));
          for (uint32_t r = 0; r < o->numRegions(); ++r)
            for (Block *nested : o->region(r))
              argumentsUsed(nested);
        });
      return used;
    };
    for (Block *b : dead)
      if (escapes(b))
        return;
    for (Block *b : dead)
      for (Operation *op = b->front(); op; op = op->next())
        dialect::walk(op, [](Operation *o) { o->dropAllReferences(); });
    for (Block *b : dead)
      body.erase(b);
    changed_ = true;
  }

  /// The region of a specialization constant operation holds the operation the module computes
  /// when specialized: folding it away would leave nothing to serialize.
  static bool computesSpecConstant(const Operation &op) {
    return &op.info() == &dialect::ops::specConstantOperation() ||
           &op.info() == &dialect::ops::specConstantOperationSymbol();
  }

  static bool hasUses(const Operation &op) {
    for (uint32_t i = 0; i < op.numResults(); ++i)
      if (op.result(i).hasUses())
        return true;
    return false;
  }

  void replace(Operation &op, Value with) {
    op.result().replaceAllUsesWith(with);
    op.erase();
    changed_ = true;
  }

  /// Whether a constant of type `t` may be made: 8- and 16-bit scalars need the Int8, Int16 or
  /// Float16 capability (without them such types serve storage only).
  bool constantAllowed(Type t) const {
    if (t.is(TypeKind::Vector) || t.is(TypeKind::Array) || t.is(TypeKind::Matrix))
      return constantAllowed(t.elementType());
    if (t.is(TypeKind::Struct)) {
      for (const dialect::StructMember &m : t.members())
        if (!constantAllowed(m.type))
          return false;
      return true;
    }
    grammar::Capability needed;
    if (t.is(TypeKind::Integer) && t.width() == 8)
      needed = grammar::Capability::Int8;
    else if (t.is(TypeKind::Integer) && t.width() == 16)
      needed = grammar::Capability::Int16;
    else if (t.is(TypeKind::Float) && t.width() == 16)
      needed = grammar::Capability::Float16;
    else
      return true;
    return capabilities_.count(static_cast<uint32_t>(needed)) != 0;
  }

  void replaceWithConstant(Operation &op, Attribute value) {
    if (!constantAllowed(op.result().type()))
      return;
    OpBuilder b = builderBefore(op);
    replace(op, b.create<ConstantOp>(op.result().type(), value).result());
  }

  /// A builder of new ops right before `op`, at its location.
  OpBuilder builderBefore(Operation &op) {
    OpBuilder b(*ctx_);
    b.setInsertionPoint(&op);
    b.setLocation(op.location());
    return b;
  }

  /// Replaces `op` by a new op `key` with the same result type and `operands`.
  void replaceWithOp(Operation &op, OpKey key, std::vector<Value> operands) {
    OperationState st(dialect::findOp(key), op.location());
    st.resultTypes.push_back(op.result().type());
    st.operands = std::move(operands);
    Operation *n = Operation::create(std::move(st));
    op.block()->insertBefore(&op, n);
    replace(op, n->result());
  }

  void simplify(Operation &op) {
    OpKey key = op.info().key;
    if (&op.info() == &ops::branchConditional()) {
      branchConditional(op);
      return;
    }
    if (op.numResults() != 1 || &op.info() == &ops::constant())
      return;
    if (fold(op))
      return;
    if (key == Op::CompositeExtract || key == Op::CompositeConstruct ||
        key == Op::VectorExtractDynamic)
      return composite(op);
    if (key == Op::CompositeInsert)
      return compositeInsert(op);
    if (key == Op::AccessChain)
      return accessChain(op);
    if (key == Op::Bitcast)
      return bitcast(op);
    algebraic(op);
  }

  /// Element-wise folding of ops whose operands are all constants.
  bool fold(Operation &op) {
    const Folder *folder = folders().find(op.info().key);
    bool select = op.info().key == OpKey(Op::Select);
    if ((!folder && !select) || op.numOperands() == 0)
      return false;
    Type resultType = op.result().type();
    std::vector<std::vector<Scalar>> operands;
    for (uint32_t i = 0; i < op.numOperands(); ++i) {
      Value v = op.operand(i);
      std::optional<std::vector<Scalar>> es = elementsOf(constantOf(v), v.type());
      if (!es)
        return false;
      operands.push_back(std::move(*es));
    }
    size_t n = resultType.is(TypeKind::Vector) ? resultType.count() : 1;
    Type in = elementOf(op.operand(0).type()), out = elementOf(resultType);
    if (select)
      in = elementOf(op.operand(1).type());
    std::vector<Scalar> results;
    for (size_t k = 0; k < n; ++k) {
      std::vector<Scalar> args;
      for (const auto &o : operands) {
        if (o.size() != n && o.size() != 1)
          return false;
        args.push_back(o.size() == 1 ? o[0] : o[k]);
      }
      if (select) {
        results.push_back((args[0].bits & 1) ? args[1] : args[2]);
        continue;
      }
      // Operands of an integer op that are floats, or the reverse, mean a malformed op.
      if (!in.is(TypeKind::Integer) && !in.is(TypeKind::Float))
        return false;
      std::optional<Scalar> r = (*folder)(args, in, out);
      if (!r)
        return false;
      results.push_back(*r);
    }
    replaceWithConstant(op, valueAttr(*ctx_, resultType, results));
    return true;
  }

  void bitcast(Operation &op) {
    Value x = op.operand(0);
    Type from = x.type(), to = op.result().type();
    if (from == to)
      return replace(op, x);
    // bitcast(bitcast(y)) with y of the result's type is y.
    if (Operation *def = x.definingOp();
        def && def->info().key == Op::Bitcast && def->operand(0).type() == to)
      return replace(op, def->operand(0));
    // A scalar constant of the same width.
    Attribute c = constantOf(x);
    if (!c || from.is(TypeKind::Vector) || to.is(TypeKind::Vector) ||
        !(from.is(TypeKind::Integer) || from.is(TypeKind::Float)) ||
        !(to.is(TypeKind::Integer) || to.is(TypeKind::Float)) || from.width() != to.width())
      return;
    std::optional<Scalar> s = scalarOf(c);
    if (!s)
      return;
    uint64_t bits = s->bits;
    if (from.is(TypeKind::Float)) {
      std::optional<uint64_t> b = floatBits(s->f, from);
      if (!b)
        return;
      bits = *b;
    }
    Scalar r{bits & maskOf(to.width()), 0};
    if (to.is(TypeKind::Float)) {
      std::optional<double> f = floatFromBits(bits, to);
      if (!f)
        return;
      r.f = *f;
    }
    replaceWithConstant(op, scalarAttr(*ctx_, to, r));
  }

  void composite(Operation &op) {
    OpKey key = op.info().key;
    Type resultType = op.result().type();
    if (key == Op::CompositeConstruct) {
      std::vector<Attribute> parts;
      for (uint32_t i = 0; i < op.numOperands(); ++i) {
        Attribute c = constantOf(op.operand(i));
        if (!c)
          return;
        parts.push_back(c);
      }
      if (resultType.is(TypeKind::Vector)) {
        // Scalars and vectors, concatenated.
        std::vector<Attribute> elems;
        for (Attribute p : parts) {
          if (p.is(AttrKind::Dense))
            elems.insert(elems.end(), p.elements().begin(), p.elements().end());
          else
            elems.push_back(p);
        }
        if (elems.size() != resultType.count())
          return;
        return replaceWithConstant(op, attr::dense(*ctx_, resultType, elems));
      }
      if (resultType.is(TypeKind::Array) || resultType.is(TypeKind::Struct) ||
          resultType.is(TypeKind::Matrix))
        return replaceWithConstant(op, attr::array(*ctx_, parts));
      return;
    }
    if (key == Op::VectorExtractDynamic) {
      Attribute v = constantOf(op.operand(0)), i = constantOf(op.operand(1));
      if (!v || !i || !v.is(AttrKind::Dense) || !i.is(AttrKind::Integer))
        return;
      uint64_t index = i.bits() & maskOf(i.type().width());
      if (index >= v.elements().size())
        return; // undefined
      return replaceWithConstant(op, v.elements()[index]);
    }
    // CompositeExtract.
    Attribute indices = op.attr("indices");
    if (!indices || !indices.is(AttrKind::Array) || indices.elements().empty())
      return;
    if (extractOfInsert(op))
      return;
    Value base = op.operand(0);
    if (Attribute c = constantOf(base)) {
      for (Attribute index : indices.elements()) {
        if (!index.is(AttrKind::Integer) || !(c.is(AttrKind::Dense) || c.is(AttrKind::Array)) ||
            index.bits() >= c.elements().size())
          return;
        c = c.elements()[index.bits()];
      }
      return replaceWithConstant(op, c);
    }
    // Of a CompositeConstruct with one constituent per element: that constituent (then the
    // rest of the indices from there).
    Operation *def = base.definingOp();
    if (!def || def->info().key != Op::CompositeConstruct)
      return;
    Type bt = base.type();
    uint32_t elements = bt.is(TypeKind::Struct)         ? static_cast<uint32_t>(bt.members().size())
                        : bt.is(TypeKind::RuntimeArray) ? 0u
                                                        : bt.count();
    Attribute first = indices.elements().front();
    if (def->numOperands() != elements || !first.is(AttrKind::Integer) || first.bits() >= elements)
      return;
    Value part = def->operand(static_cast<uint32_t>(first.bits()));
    if (indices.elements().size() == 1)
      return replace(op, part);
    OperationState st(&op.info(), op.location());
    st.resultTypes.push_back(resultType);
    st.operands.push_back(part);
    st.addAttribute(*ctx_, "indices", attr::array(*ctx_, indices.elements().subspan(1)));
    Operation *n = Operation::create(std::move(st));
    op.block()->insertBefore(&op, n);
    replace(op, n->result());
  }

  /// The integer indices of a CompositeExtract / CompositeInsert, or nullopt.
  static std::optional<std::vector<uint64_t>> indicesOf(const Operation &op) {
    Attribute indices = op.attr("indices");
    if (!indices || !indices.is(AttrKind::Array) || indices.elements().empty())
      return std::nullopt;
    std::vector<uint64_t> out;
    for (Attribute index : indices.elements()) {
      if (!index.is(AttrKind::Integer))
        return std::nullopt;
      out.push_back(index.bits());
    }
    return out;
  }

  /// `c` (a composite constant) with the element at `path` replaced by `object`.
  Attribute replaceElement(Attribute c, std::span<const uint64_t> path, Attribute object,
                           Type type) {
    if (path.empty())
      return object;
    if (!c || !(c.is(AttrKind::Dense) || c.is(AttrKind::Array)) ||
        path.front() >= c.elements().size())
      return {};
    Type elementType =
        type.is(TypeKind::Struct) ? type.members()[path.front()].type
        : type.is(TypeKind::Matrix) || type.is(TypeKind::Vector) || type.is(TypeKind::Array)
            ? type.elementType()
            : Type();
    if (!elementType)
      return {};
    std::vector<Attribute> parts(c.elements().begin(), c.elements().end());
    parts[path.front()] = replaceElement(parts[path.front()], path.subspan(1), object, elementType);
    if (!parts[path.front()])
      return {};
    return c.is(AttrKind::Dense) ? attr::dense(*ctx_, type, parts) : attr::array(*ctx_, parts);
  }

  /// CompositeInsert of a constant into a constant is a constant.
  void compositeInsert(Operation &op) {
    std::optional<std::vector<uint64_t>> path = indicesOf(op);
    Attribute object = constantOf(op.operand(0)), base = constantOf(op.operand(1));
    if (!path || !object || !base || op.numOperands() != 2)
      return;
    if (Attribute folded = replaceElement(base, *path, object, op.result().type()))
      replaceWithConstant(op, folded);
  }

  /// CompositeExtract of a CompositeInsert: the inserted object when the indices are the same,
  /// the extraction from the insert's composite when they part (neither is a prefix of the
  /// other).
  bool extractOfInsert(Operation &op) {
    Operation *insert = op.operand(0).definingOp();
    if (!insert || insert->info().key != Op::CompositeInsert || insert->numOperands() != 2)
      return false;
    std::optional<std::vector<uint64_t>> from = indicesOf(op), into = indicesOf(*insert);
    if (!from || !into)
      return false;
    if (*from == *into && insert->operand(0).type() == op.result().type()) {
      replace(op, insert->operand(0));
      return true;
    }
    const size_t common = std::min(from->size(), into->size());
    if (std::equal(from->begin(), from->begin() + static_cast<std::ptrdiff_t>(common),
                   into->begin()))
      return false; // one path contains the other
    op.setOperand(0, insert->operand(1));
    changed_ = true;
    return true;
  }

  /// An AccessChain whose base is an AccessChain: one chain from the inner base.
  void accessChain(Operation &op) {
    // Decorations (NonUniform, ...) are attributes of the ops: chains that carry any stay.
    Operation *inner = op.numOperands() > 0 ? op.operand(0).definingOp() : nullptr;
    if (!inner || inner->info().key != Op::AccessChain || inner->numOperands() == 0 ||
        !op.attributes().empty() || !inner->attributes().empty())
      return;
    std::vector<Value> operands = inner->operandValues();
    for (uint32_t i = 1; i < op.numOperands(); ++i)
      operands.push_back(op.operand(i));
    replaceWithOp(op, Op::AccessChain, std::move(operands));
  }

  /// MLIR's simplifications of ops whose operands are not all constants.
  void algebraic(Operation &op) {
    OpKey key = op.info().key;
    Type t = op.result().type();
    auto operand = [&op](uint32_t i) { return op.operand(i); };
    auto definedBy = [](Value v, OpKey n) -> Operation * {
      Operation *d = v.definingOp();
      return d && d->info().key == n ? d : nullptr;
    };
    auto zeroOf = [this, &op]() {
      Type rt = op.result().type();
      std::vector<Scalar> zeros(rt.is(TypeKind::Vector) ? rt.count() : 1);
      replaceWithConstant(op, valueAttr(*ctx_, rt, zeros));
    };
    const uint64_t ones = ~uint64_t(0);
    if (key == Op::Select) {
      Attribute c = constantOf(operand(0));
      if (c && scalarOf(c))
        return replace(op, operand((scalarOf(c)->bits & 1) ? 1 : 2));
      if (operand(1) == operand(2))
        return replace(op, operand(1));
      return;
    }
    // Involutions.
    for (OpKey self : {Op::SNegate, Op::Not, Op::LogicalNot, Op::FNegate})
      if (key == self) {
        if (Operation *inner = definedBy(operand(0), self))
          return replace(op, inner->operand(0));
        break;
      }
    if (key == Op::LogicalNot) {
      // Of an equality comparison: the opposite comparison.
      static const std::pair<OpKey, OpKey> opposite[] = {{Op::IEqual, Op::INotEqual},
                                                         {Op::INotEqual, Op::IEqual},
                                                         {Op::LogicalEqual, Op::LogicalNotEqual},
                                                         {Op::LogicalNotEqual, Op::LogicalEqual}};
      Operation *inner = operand(0).definingOp();
      for (const auto &p : opposite)
        if (inner && inner->info().key == p.first)
          return replaceWithOp(op, p.second, {inner->operand(0), inner->operand(1)});
      return;
    }
    if (!isIntOrBool(t) || op.numOperands() != 2)
      return;
    Value a = operand(0), b = operand(1);
    if (key == Op::IAdd) {
      if (isSplat(b, 0))
        return replace(op, a);
      if (isSplat(a, 0))
        return replace(op, b);
    } else if (key == Op::ISub) {
      if (isSplat(b, 0))
        return replace(op, a);
      if (a == b)
        return zeroOf();
    } else if (key == Op::IMul) {
      if (isSplat(b, 1))
        return replace(op, a);
      if (isSplat(a, 1))
        return replace(op, b);
      if (isSplat(a, 0) || isSplat(b, 0))
        return zeroOf();
    } else if (key == Op::UDiv || key == Op::SDiv) {
      if (isSplat(b, 1))
        return replace(op, a);
    } else if (key == Op::ShiftLeftLogical || key == Op::ShiftRightLogical ||
               key == Op::ShiftRightArithmetic) {
      if (isSplat(b, 0))
        return replace(op, a);
    } else if (key == Op::BitwiseAnd) {
      if (isSplat(b, ones))
        return replace(op, a);
      if (isSplat(a, ones))
        return replace(op, b);
      if (isSplat(a, 0) || isSplat(b, 0))
        return zeroOf();
      if (a == b)
        return replace(op, a);
    } else if (key == Op::BitwiseOr) {
      if (isSplat(b, 0))
        return replace(op, a);
      if (isSplat(a, 0))
        return replace(op, b);
      if (isSplat(a, ones))
        return replace(op, a);
      if (isSplat(b, ones))
        return replace(op, b);
      if (a == b)
        return replace(op, a);
    } else if (key == Op::BitwiseXor) {
      if (isSplat(b, 0))
        return replace(op, a);
      if (isSplat(a, 0))
        return replace(op, b);
      if (a == b)
        return zeroOf();
    } else if (key == Op::LogicalAnd) {
      if (isSplat(b, 1))
        return replace(op, a);
      if (isSplat(a, 1))
        return replace(op, b);
      if (isSplat(a, 0))
        return replace(op, a);
      if (isSplat(b, 0))
        return replace(op, b);
    } else if (key == Op::LogicalOr) {
      if (isSplat(b, 0))
        return replace(op, a);
      if (isSplat(a, 0))
        return replace(op, b);
      if (isSplat(a, 1))
        return replace(op, a);
      if (isSplat(b, 1))
        return replace(op, b);
    }
  }

  /// spirv.BranchConditional on a constant: spirv.Branch to the target it takes.
  /// Structured control flow fixes some conditional branches: a selection header's (its merge
  /// instruction must precede a conditional branch or a switch) and a loop's back edge (a loop
  /// has exactly one, even when it is never taken).
  static bool structurallyRequired(const Operation &op) {
    Block *block = op.block();
    for (const Operation *o = block->front(); o; o = o->next())
      if (o->info().key == Op::SelectionMerge || o->info().key == Op::LoopMerge)
        return true;
    const Operation *owner = block->parentOp();
    if (owner && &owner->info() == &ops::selection() && block == owner->region(0).front())
      return true;
    for (const Successor &succ : op.successors()) {
      const Block *target = succ.block;
      if (!target)
        continue;
      for (const Operation *o = target->front(); o; o = o->next())
        if (o->info().key == Op::LoopMerge)
          return true; // a back edge to a loop kept as blocks (or an entry to it)
      const Operation *loop = target->parentOp();
      if (loop && &loop->info() == &ops::loop() && !loop->region(0).empty()) {
        const Operation *entry = loop->region(0).front()->terminator();
        if (entry && !entry->successors().empty() && entry->successors()[0].block == target)
          return true; // a back edge to the header of a loop region
      }
    }
    return false;
  }

  void branchConditional(Operation &op) {
    Attribute c = constantOf(op.operand(0));
    std::optional<Scalar> s = scalarOf(c);
    if (!s || op.successors().size() != 2 || structurallyRequired(op))
      return;
    uint32_t taken = (s->bits & 1) ? 0 : 1;
    std::vector<Value> args = op.successorOperands(taken);
    OpBuilder b = builderBefore(op);
    b.create<BranchOp>(op.successors()[taken].block, args);
    op.erase();
    changed_ = true;
  }

  Context *ctx_ = nullptr;
  bool changed_ = false;
  std::unordered_set<uint32_t> capabilities_; ///< declared and implied by the module
};

} // namespace

std::unique_ptr<Pass> createCanonicalizePass() { return std::make_unique<Canonicalize>(); }

extern const PassRegistration kCanonicalizePass{
    "canonicalize", "fold constants, simplify, remove dead code", createCanonicalizePass};

} // namespace spire::transforms
