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
#include "spire/dialect/Ops.h"
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
using dialect::OperationState;
using dialect::OpInfo;
using dialect::OpOperand;
using dialect::Region;
using dialect::Successor;
using dialect::Type;
using dialect::TypeKind;
using dialect::Value;
namespace attr = dialect::attr;
namespace ops = dialect::ops;

// --- Scalars --------------------------------------------------------------------------------

uint64_t maskOf(unsigned width) { return width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1; }

int64_t signExtend(uint64_t bits, unsigned width) {
  if (width >= 64)
    return static_cast<int64_t>(bits);
  uint64_t sign = uint64_t(1) << (width - 1);
  bits &= maskOf(width);
  return static_cast<int64_t>((bits ^ sign) - sign);
}

/// `x` rounded to the nearest half-precision value (ties to even), as a double.
double roundToHalf(double x) { return halfToDouble(halfFromDouble(x)); }

/// `x` rounded to a float of `width` bits.
double roundTo(double x, unsigned width) {
  if (width == 32)
    return static_cast<double>(static_cast<float>(x));
  if (width == 16)
    return roundToHalf(x);
  return x;
}

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
  return attr::floating(ctx, t, roundTo(s.f, t.width()));
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
void extendedInstructionFolders(std::unordered_map<std::string_view, Folder> &t) {
  auto sv = [](const Scalar &s, Type in) { return signExtend(s.bits, in.width()); };
  auto uv = [](const Scalar &s, Type in) { return s.bits & maskOf(in.width()); };
  auto si = [](int64_t v, Type out) { return I(static_cast<uint64_t>(v) & maskOf(out.width())); };
  // A float result computed exactly in double (integral roundings, abs, copysign): it is
  // representable in the type already.
  auto exact = [](double (*fn)(double)) {
    return [fn](auto &o, Type, Type) -> std::optional<Scalar> { return F(fn(o[0].f)); };
  };
  for (const char *name : {"spirv.GL.FAbs", "spirv.CL.fabs"})
    t[name] = exact([](double x) { return std::fabs(x); });
  for (const char *name : {"spirv.GL.Floor", "spirv.CL.floor"})
    t[name] = exact([](double x) { return std::floor(x); });
  for (const char *name : {"spirv.GL.Ceil", "spirv.CL.ceil"})
    t[name] = exact([](double x) { return std::ceil(x); });
  for (const char *name : {"spirv.GL.Trunc", "spirv.CL.trunc"})
    t[name] = exact([](double x) { return std::trunc(x); });
  // Halfway cases to even (GLSL RoundEven, OpenCL rint in the default rounding mode) and away
  // from zero (OpenCL round; GLSL Round leaves their direction to the implementation).
  for (const char *name : {"spirv.GL.RoundEven", "spirv.CL.rint"})
    t[name] = exact([](double x) { return std::nearbyint(x); });
  t["spirv.CL.round"] = exact([](double x) { return std::round(x); });
  t["spirv.CL.copysign"] = [](auto &o, Type, Type) { return F(std::copysign(o[0].f, o[1].f)); };
  t["spirv.GL.FSign"] = [](auto &o, Type, Type) -> std::optional<Scalar> {
    if (std::isnan(o[0].f) || o[0].f == 0)
      return std::nullopt;
    return F(o[0].f > 0 ? 1.0 : -1.0);
  };
  t["spirv.GL.SSign"] = [sv, si](auto &o, Type in, Type out) {
    const int64_t v = sv(o[0], in);
    return si(v > 0 ? 1 : v < 0 ? -1 : 0, out);
  };
  t["spirv.GL.SAbs"] = [sv, si](auto &o, Type in, Type out) -> std::optional<Scalar> {
    const int64_t v = sv(o[0], in);
    if (v == signExtend(uint64_t(1) << (in.width() - 1), in.width()))
      return std::nullopt;
    return si(v < 0 ? -v : v, out);
  };
  // OpenCL's s_abs returns the magnitude as an unsigned value: the least integer has one.
  t["spirv.CL.s_abs"] = [sv](auto &o, Type in, Type out) {
    const int64_t v = sv(o[0], in);
    return I((v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v)) &
             maskOf(out.width()));
  };
  t["spirv.CL.u_abs"] = [uv](auto &o, Type in, Type) { return I(uv(o[0], in)); };
  // Integer minima, maxima and clamps.
  auto pick = [](bool isSigned, bool wantMax) {
    return [isSigned, wantMax](auto &o, Type in, Type) {
      const unsigned w = in.width();
      const bool aLess = isSigned ? signExtend(o[0].bits, w) < signExtend(o[1].bits, w)
                                  : (o[0].bits & maskOf(w)) < (o[1].bits & maskOf(w));
      return I((aLess == wantMax ? o[1].bits : o[0].bits) & maskOf(w));
    };
  };
  for (const char *name : {"spirv.GL.SMin", "spirv.CL.s_min"})
    t[name] = pick(true, false);
  for (const char *name : {"spirv.GL.SMax", "spirv.CL.s_max"})
    t[name] = pick(true, true);
  for (const char *name : {"spirv.GL.UMin", "spirv.CL.u_min"})
    t[name] = pick(false, false);
  for (const char *name : {"spirv.GL.UMax", "spirv.CL.u_max"})
    t[name] = pick(false, true);
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
  for (const char *name : {"spirv.GL.SClamp", "spirv.CL.s_clamp"})
    t[name] = clamp(true);
  for (const char *name : {"spirv.GL.UClamp", "spirv.CL.u_clamp"})
    t[name] = clamp(false);
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
  t["spirv.GL.FMin"] = fpick(false, false);
  t["spirv.GL.FMax"] = fpick(true, false);
  t["spirv.CL.fmin"] = fpick(false, true);
  t["spirv.CL.fmax"] = fpick(true, true);
  t["spirv.GL.FClamp"] = [](auto &o, Type, Type) -> std::optional<Scalar> {
    const double x = o[0].f, lo = o[1].f, hi = o[2].f;
    if (std::isnan(x) || std::isnan(lo) || std::isnan(hi) || lo > hi ||
        (x == 0 && (x == lo || x == hi)))
      return std::nullopt; // NaN, reversed bounds, or a zero whose sign is open
    return F(x < lo ? lo : x > hi ? hi : x);
  };
}

const std::unordered_map<std::string_view, Folder> &folders() {
  static const std::unordered_map<std::string_view, Folder> table = [] {
    std::unordered_map<std::string_view, Folder> t;
    auto w = [](Type type) { return type.width(); };
    // Integer arithmetic, wrapping.
    t["spirv.IAdd"] = [w](auto &o, Type in, Type) {
      return I((o[0].bits + o[1].bits) & maskOf(w(in)));
    };
    t["spirv.ISub"] = [w](auto &o, Type in, Type) {
      return I((o[0].bits - o[1].bits) & maskOf(w(in)));
    };
    t["spirv.IMul"] = [w](auto &o, Type in, Type) {
      return I((o[0].bits * o[1].bits) & maskOf(w(in)));
    };
    t["spirv.SNegate"] = [w](auto &o, Type in, Type) { return I((0 - o[0].bits) & maskOf(w(in))); };
    t["spirv.Not"] = [w](auto &o, Type in, Type) { return I(~o[0].bits & maskOf(w(in))); };
    t["spirv.UDiv"] = [w](auto &o, Type in, Type) -> std::optional<Scalar> {
      uint64_t m = maskOf(w(in)), a = o[0].bits & m, b = o[1].bits & m;
      if (b == 0)
        return std::nullopt;
      return I(a / b);
    };
    t["spirv.UMod"] = [w](auto &o, Type in, Type) -> std::optional<Scalar> {
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
    t["spirv.SDiv"] = [w, sdivOk](auto &o, Type in, Type) -> std::optional<Scalar> {
      if (!sdivOk(o, in))
        return std::nullopt;
      int64_t a = signExtend(o[0].bits, w(in)), b = signExtend(o[1].bits, w(in));
      return I(static_cast<uint64_t>(a / b) & maskOf(w(in)));
    };
    t["spirv.SRem"] = [w, sdivOk](auto &o, Type in, Type) -> std::optional<Scalar> {
      if (!sdivOk(o, in))
        return std::nullopt;
      int64_t a = signExtend(o[0].bits, w(in)), b = signExtend(o[1].bits, w(in));
      return I(static_cast<uint64_t>(a % b) & maskOf(w(in)));
    };
    t["spirv.SMod"] = [w, sdivOk](auto &o, Type in, Type) -> std::optional<Scalar> {
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
    t["spirv.ShiftLeftLogical"] = [](auto &o, Type, Type out) -> std::optional<Scalar> {
      uint64_t n = o[1].bits; // constants hold their low width bits
      if (n >= out.width())
        return std::nullopt;
      return I((o[0].bits << n) & maskOf(out.width()));
    };
    t["spirv.ShiftRightLogical"] = [](auto &o, Type, Type out) -> std::optional<Scalar> {
      uint64_t n = o[1].bits; // constants hold their low width bits
      if (n >= out.width())
        return std::nullopt;
      return I((o[0].bits & maskOf(out.width())) >> n);
    };
    t["spirv.ShiftRightArithmetic"] = [](auto &o, Type, Type out) -> std::optional<Scalar> {
      uint64_t n = o[1].bits; // constants hold their low width bits
      if (n >= out.width())
        return std::nullopt;
      return I(static_cast<uint64_t>(signExtend(o[0].bits, out.width()) >> n) &
               maskOf(out.width()));
    };
    t["spirv.BitwiseAnd"] = [](auto &o, Type, Type) { return I(o[0].bits & o[1].bits); };
    t["spirv.BitwiseOr"] = [](auto &o, Type, Type) { return I(o[0].bits | o[1].bits); };
    t["spirv.BitwiseXor"] = [](auto &o, Type, Type) { return I(o[0].bits ^ o[1].bits); };
    // Integer comparisons.
    auto u = [](const Scalar &s, Type in) { return s.bits & maskOf(in.width()); };
    auto s = [](const Scalar &x, Type in) { return signExtend(x.bits, in.width()); };
    t["spirv.IEqual"] = [u](auto &o, Type in, Type) { return B(u(o[0], in) == u(o[1], in)); };
    t["spirv.INotEqual"] = [u](auto &o, Type in, Type) { return B(u(o[0], in) != u(o[1], in)); };
    t["spirv.UGreaterThan"] = [u](auto &o, Type in, Type) { return B(u(o[0], in) > u(o[1], in)); };
    t["spirv.UGreaterThanEqual"] = [u](auto &o, Type in, Type) {
      return B(u(o[0], in) >= u(o[1], in));
    };
    t["spirv.ULessThan"] = [u](auto &o, Type in, Type) { return B(u(o[0], in) < u(o[1], in)); };
    t["spirv.ULessThanEqual"] = [u](auto &o, Type in, Type) {
      return B(u(o[0], in) <= u(o[1], in));
    };
    t["spirv.SGreaterThan"] = [s](auto &o, Type in, Type) { return B(s(o[0], in) > s(o[1], in)); };
    t["spirv.SGreaterThanEqual"] = [s](auto &o, Type in, Type) {
      return B(s(o[0], in) >= s(o[1], in));
    };
    t["spirv.SLessThan"] = [s](auto &o, Type in, Type) { return B(s(o[0], in) < s(o[1], in)); };
    t["spirv.SLessThanEqual"] = [s](auto &o, Type in, Type) {
      return B(s(o[0], in) <= s(o[1], in));
    };
    // Logical.
    t["spirv.LogicalAnd"] = [](auto &o, Type, Type) {
      return B((o[0].bits & 1) && (o[1].bits & 1));
    };
    t["spirv.LogicalOr"] = [](auto &o, Type, Type) {
      return B((o[0].bits & 1) || (o[1].bits & 1));
    };
    t["spirv.LogicalEqual"] = [](auto &o, Type, Type) {
      return B((o[0].bits & 1) == (o[1].bits & 1));
    };
    t["spirv.LogicalNotEqual"] = [](auto &o, Type, Type) {
      return B((o[0].bits & 1) != (o[1].bits & 1));
    };
    t["spirv.LogicalNot"] = [](auto &o, Type, Type) { return B(!(o[0].bits & 1)); };
    // Float arithmetic in the type's precision.
    t["spirv.FAdd"] = [](auto &o, Type in, Type) {
      return floatOp(o[0].f, o[1].f, in.width(), [](auto a, auto b) { return a + b; });
    };
    t["spirv.FSub"] = [](auto &o, Type in, Type) {
      return floatOp(o[0].f, o[1].f, in.width(), [](auto a, auto b) { return a - b; });
    };
    t["spirv.FMul"] = [](auto &o, Type in, Type) {
      return floatOp(o[0].f, o[1].f, in.width(), [](auto a, auto b) { return a * b; });
    };
    t["spirv.FDiv"] = [](auto &o, Type in, Type) -> std::optional<Scalar> {
      if (o[1].f == 0)
        return std::nullopt;
      return floatOp(o[0].f, o[1].f, in.width(), [](auto a, auto b) { return a / b; });
    };
    t["spirv.FRem"] = [](auto &o, Type, Type) -> std::optional<Scalar> {
      if (o[1].f == 0)
        return std::nullopt;
      return F(std::fmod(o[0].f, o[1].f)); // exact: the sign of operand 1
    };
    t["spirv.FMod"] = [](auto &o, Type in, Type) -> std::optional<Scalar> {
      if (o[1].f == 0 || std::isinf(o[1].f))
        return std::nullopt;
      double r = std::fmod(o[0].f, o[1].f);
      if (r != 0 && std::signbit(r) != std::signbit(o[1].f))
        return floatOp(r, o[1].f, in.width(), [](auto a, auto b) { return a + b; });
      return F(r);
    };
    t["spirv.FNegate"] = [](auto &o, Type, Type) { return F(-o[0].f); };
    // Float comparisons: ordered ones are false and unordered ones true when either is NaN.
    auto cmp = [](bool ordered, auto rel) {
      return [ordered, rel](auto &o, Type, Type) {
        if (std::isnan(o[0].f) || std::isnan(o[1].f))
          return B(!ordered);
        return B(rel(o[0].f, o[1].f));
      };
    };
    t["spirv.FOrdEqual"] = cmp(true, std::equal_to<double>());
    t["spirv.FUnordEqual"] = cmp(false, std::equal_to<double>());
    t["spirv.FOrdNotEqual"] = cmp(true, std::not_equal_to<double>());
    t["spirv.FUnordNotEqual"] = cmp(false, std::not_equal_to<double>());
    t["spirv.FOrdLessThan"] = cmp(true, std::less<double>());
    t["spirv.FUnordLessThan"] = cmp(false, std::less<double>());
    t["spirv.FOrdGreaterThan"] = cmp(true, std::greater<double>());
    t["spirv.FUnordGreaterThan"] = cmp(false, std::greater<double>());
    t["spirv.FOrdLessThanEqual"] = cmp(true, std::less_equal<double>());
    t["spirv.FUnordLessThanEqual"] = cmp(false, std::less_equal<double>());
    t["spirv.FOrdGreaterThanEqual"] = cmp(true, std::greater_equal<double>());
    t["spirv.FUnordGreaterThanEqual"] = cmp(false, std::greater_equal<double>());
    t["spirv.IsNan"] = [](auto &o, Type, Type) { return B(std::isnan(o[0].f)); };
    t["spirv.IsInf"] = [](auto &o, Type, Type) { return B(std::isinf(o[0].f)); };
    // Conversions.
    t["spirv.SConvert"] = [](auto &o, Type in, Type out) {
      return I(static_cast<uint64_t>(signExtend(o[0].bits, in.width())) & maskOf(out.width()));
    };
    t["spirv.UConvert"] = [](auto &o, Type in, Type out) {
      return I(o[0].bits & maskOf(in.width()) & maskOf(out.width()));
    };
    t["spirv.FConvert"] = [](auto &o, Type, Type out) { return F(roundTo(o[0].f, out.width())); };
    t["spirv.ConvertSToF"] = [](auto &o, Type in, Type out) {
      int64_t v = signExtend(o[0].bits, in.width());
      return F(out.width() == 32 ? static_cast<double>(static_cast<float>(v))
                                 : roundTo(static_cast<double>(v), out.width()));
    };
    t["spirv.ConvertUToF"] = [](auto &o, Type in, Type out) {
      uint64_t v = o[0].bits & maskOf(in.width());
      return F(out.width() == 32 ? static_cast<double>(static_cast<float>(v))
                                 : roundTo(static_cast<double>(v), out.width()));
    };
    // Float to integer: truncation; NaN and values out of the result's range are undefined.
    t["spirv.ConvertFToS"] = [](auto &o, Type, Type out) -> std::optional<Scalar> {
      double v = std::trunc(o[0].f);
      double lo = -std::ldexp(1.0, out.width() - 1), hi = std::ldexp(1.0, out.width() - 1);
      if (std::isnan(v) || v < lo || v >= hi)
        return std::nullopt;
      return I(static_cast<uint64_t>(static_cast<int64_t>(v)) & maskOf(out.width()));
    };
    t["spirv.ConvertFToU"] = [](auto &o, Type, Type out) -> std::optional<Scalar> {
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

/// The bits of a float of `width` bits holding `v`.
std::optional<uint64_t> floatBits(double v, unsigned width) {
  if (width == 64)
    return std::bit_cast<uint64_t>(v);
  if (width == 32)
    return std::bit_cast<uint32_t>(static_cast<float>(v));
  if (width == 16) {
    if (std::isnan(v))
      return std::nullopt; // payloads are not kept
    return halfFromDouble(v);
  }
  return std::nullopt;
}

std::optional<double> floatFromBits(uint64_t bits, unsigned width) {
  if (width == 64)
    return std::bit_cast<double>(bits);
  if (width == 32)
    return static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(bits)));
  if (width == 16) {
    if (((bits >> 10) & 0x1F) == 31 && (bits & 0x3FF))
      return std::nullopt;
    return halfToDouble(static_cast<uint16_t>(bits));
  }
  return std::nullopt;
}

// --- The pass -------------------------------------------------------------------------------

bool isPure(const Operation &op) {
  const OpInfo &info = op.info();
  if (&info == &ops::constant() || &info == &ops::addressOf() || &info == &ops::referenceOf())
    return true;
  if (info.ext) {
    if (!info.set || info.set->key != "glsl.std.450")
      return false;
    // Modf and Frexp write through a pointer.
    return info.ext->name != "Modf" && info.ext->name != "Frexp";
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
    OperationState st(&ops::constant(), op.location());
    st.resultTypes.push_back(op.result().type());
    st.addAttribute(*ctx_, "value", value);
    Operation *c = Operation::create(std::move(st));
    op.block()->insertBefore(&op, c);
    replace(op, c->result());
  }

  /// Replaces `op` by a new op `name` with the same result type and `operands`.
  void replaceWithOp(Operation &op, std::string_view name, std::vector<Value> operands) {
    OperationState st(dialect::findOp(name), op.location());
    st.resultTypes.push_back(op.result().type());
    st.operands = std::move(operands);
    Operation *n = Operation::create(std::move(st));
    op.block()->insertBefore(&op, n);
    replace(op, n->result());
  }

  void simplify(Operation &op) {
    std::string_view name = op.name();
    if (&op.info() == &ops::branchConditional()) {
      branchConditional(op);
      return;
    }
    if (op.numResults() != 1 || &op.info() == &ops::constant())
      return;
    if (fold(op))
      return;
    if (name == "spirv.CompositeExtract" || name == "spirv.CompositeConstruct" ||
        name == "spirv.VectorExtractDynamic")
      return composite(op);
    if (name == "spirv.CompositeInsert")
      return compositeInsert(op);
    if (name == "spirv.AccessChain")
      return accessChain(op);
    if (name == "spirv.Bitcast")
      return bitcast(op);
    algebraic(op);
  }

  /// Element-wise folding of ops whose operands are all constants.
  bool fold(Operation &op) {
    auto it = folders().find(op.name());
    bool select = op.name() == "spirv.Select";
    if ((it == folders().end() && !select) || op.numOperands() == 0)
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
      std::optional<Scalar> r = it->second(args, in, out);
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
        def && def->name() == "spirv.Bitcast" && def->operand(0).type() == to)
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
      std::optional<uint64_t> b = floatBits(s->f, from.width());
      if (!b)
        return;
      bits = *b;
    }
    Scalar r{bits & maskOf(to.width()), 0};
    if (to.is(TypeKind::Float)) {
      std::optional<double> f = floatFromBits(bits, to.width());
      if (!f)
        return;
      r.f = *f;
    }
    replaceWithConstant(op, scalarAttr(*ctx_, to, r));
  }

  void composite(Operation &op) {
    std::string_view name = op.name();
    Type resultType = op.result().type();
    if (name == "spirv.CompositeConstruct") {
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
    if (name == "spirv.VectorExtractDynamic") {
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
    if (!def || def->name() != "spirv.CompositeConstruct")
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
    if (!insert || insert->name() != "spirv.CompositeInsert" || insert->numOperands() != 2)
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
    if (!inner || inner->name() != "spirv.AccessChain" || inner->numOperands() == 0 ||
        !op.attributes().empty() || !inner->attributes().empty())
      return;
    std::vector<Value> operands = inner->operandValues();
    for (uint32_t i = 1; i < op.numOperands(); ++i)
      operands.push_back(op.operand(i));
    replaceWithOp(op, "spirv.AccessChain", std::move(operands));
  }

  /// MLIR's simplifications of ops whose operands are not all constants.
  void algebraic(Operation &op) {
    std::string_view name = op.name();
    Type t = op.result().type();
    auto operand = [&op](uint32_t i) { return op.operand(i); };
    auto definedBy = [](Value v, std::string_view n) -> Operation * {
      Operation *d = v.definingOp();
      return d && d->name() == n ? d : nullptr;
    };
    auto zeroOf = [this, &op]() {
      Type rt = op.result().type();
      std::vector<Scalar> zeros(rt.is(TypeKind::Vector) ? rt.count() : 1);
      replaceWithConstant(op, valueAttr(*ctx_, rt, zeros));
    };
    const uint64_t ones = ~uint64_t(0);
    if (name == "spirv.Select") {
      Attribute c = constantOf(operand(0));
      if (c && scalarOf(c))
        return replace(op, operand((scalarOf(c)->bits & 1) ? 1 : 2));
      if (operand(1) == operand(2))
        return replace(op, operand(1));
      return;
    }
    // Involutions.
    for (std::string_view self :
         {"spirv.SNegate", "spirv.Not", "spirv.LogicalNot", "spirv.FNegate"})
      if (name == self) {
        if (Operation *inner = definedBy(operand(0), self))
          return replace(op, inner->operand(0));
        break;
      }
    if (name == "spirv.LogicalNot") {
      // Of an equality comparison: the opposite comparison.
      static const std::pair<std::string_view, std::string_view> opposite[] = {
          {"spirv.IEqual", "spirv.INotEqual"},
          {"spirv.INotEqual", "spirv.IEqual"},
          {"spirv.LogicalEqual", "spirv.LogicalNotEqual"},
          {"spirv.LogicalNotEqual", "spirv.LogicalEqual"}};
      Operation *inner = operand(0).definingOp();
      for (const auto &p : opposite)
        if (inner && inner->name() == p.first)
          return replaceWithOp(op, p.second, {inner->operand(0), inner->operand(1)});
      return;
    }
    if (!isIntOrBool(t) || op.numOperands() != 2)
      return;
    Value a = operand(0), b = operand(1);
    if (name == "spirv.IAdd") {
      if (isSplat(b, 0))
        return replace(op, a);
      if (isSplat(a, 0))
        return replace(op, b);
    } else if (name == "spirv.ISub") {
      if (isSplat(b, 0))
        return replace(op, a);
      if (a == b)
        return zeroOf();
    } else if (name == "spirv.IMul") {
      if (isSplat(b, 1))
        return replace(op, a);
      if (isSplat(a, 1))
        return replace(op, b);
      if (isSplat(a, 0) || isSplat(b, 0))
        return zeroOf();
    } else if (name == "spirv.UDiv" || name == "spirv.SDiv") {
      if (isSplat(b, 1))
        return replace(op, a);
    } else if (name == "spirv.ShiftLeftLogical" || name == "spirv.ShiftRightLogical" ||
               name == "spirv.ShiftRightArithmetic") {
      if (isSplat(b, 0))
        return replace(op, a);
    } else if (name == "spirv.BitwiseAnd") {
      if (isSplat(b, ones))
        return replace(op, a);
      if (isSplat(a, ones))
        return replace(op, b);
      if (isSplat(a, 0) || isSplat(b, 0))
        return zeroOf();
      if (a == b)
        return replace(op, a);
    } else if (name == "spirv.BitwiseOr") {
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
    } else if (name == "spirv.BitwiseXor") {
      if (isSplat(b, 0))
        return replace(op, a);
      if (isSplat(a, 0))
        return replace(op, b);
      if (a == b)
        return zeroOf();
    } else if (name == "spirv.LogicalAnd") {
      if (isSplat(b, 1))
        return replace(op, a);
      if (isSplat(a, 1))
        return replace(op, b);
      if (isSplat(a, 0))
        return replace(op, a);
      if (isSplat(b, 0))
        return replace(op, b);
    } else if (name == "spirv.LogicalOr") {
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
      if (o->name() == "spirv.SelectionMerge" || o->name() == "spirv.LoopMerge")
        return true;
    const Operation *owner = block->parentOp();
    if (owner && &owner->info() == &ops::selection() && block == owner->region(0).front())
      return true;
    for (const Successor &succ : op.successors()) {
      const Block *target = succ.block;
      if (!target)
        continue;
      for (const Operation *o = target->front(); o; o = o->next())
        if (o->name() == "spirv.LoopMerge")
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
    OperationState st(&ops::branch(), op.location());
    st.addSuccessor(op.successors()[taken].block, args);
    op.block()->insertBefore(&op, Operation::create(std::move(st)));
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
