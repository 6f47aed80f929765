// The element-wise constant folders of the ops (OpFolder::element), by opcode: integer
// arithmetic wrapping at the type's width with signedness from the opcode (SDiv, SLessThan), not
// the type; bitwise, comparison, logical, float (in the type's precision, f16 included) and
// conversion ops; the exact GLSL.std.450 and OpenCL.std instructions. Results SPIR-V leaves
// undefined (division and remainder by zero, SDiv of the least value by -1, shifts by the width
// or more, float-to-integer conversions of NaN or out-of-range values) are not folded.
#include "OpFolder.h"

#include <cmath>
#include <functional>

namespace spire::dialect::detail {

namespace {

using Op = grammar::Op;
using GL = grammar::GlslStd450Inst;
using CL = grammar::OpenclStd100Inst;

std::optional<FoldScalar> I(uint64_t v) { return FoldScalar{v, 0}; }
std::optional<FoldScalar> F(double v) { return FoldScalar{0, v}; }
std::optional<FoldScalar> B(bool v) { return FoldScalar{v ? 1u : 0u, 0}; }

/// Float arithmetic in the type's precision: f32 in float (exact rounding), f16 in float
/// rounded to half (products and quotients of halves are exact enough in float for one
/// rounding), f64 in double.
template <class Op> std::optional<FoldScalar> floatOp(double a, double b, unsigned width, Op op) {
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
  auto sv = [](const FoldScalar &s, Type in) { return signExtend(s.bits, in.width()); };
  auto uv = [](const FoldScalar &s, Type in) { return s.bits & maskOf(in.width()); };
  auto si = [](int64_t v, Type out) { return I(static_cast<uint64_t>(v) & maskOf(out.width())); };
  // A float result computed exactly in double (integral roundings, abs, copysign): it is
  // representable in the type already.
  auto exact = [](double (*fn)(double)) {
    return [fn](auto &o, Type, Type) -> std::optional<FoldScalar> { return F(fn(o[0].f)); };
  };
  for (OpKey key : {OpKey(GL::FAbs), OpKey(CL::fabs)})
    t[key].element = exact([](double x) { return std::fabs(x); });
  for (OpKey key : {OpKey(GL::Floor), OpKey(CL::floor)})
    t[key].element = exact([](double x) { return std::floor(x); });
  for (OpKey key : {OpKey(GL::Ceil), OpKey(CL::ceil)})
    t[key].element = exact([](double x) { return std::ceil(x); });
  for (OpKey key : {OpKey(GL::Trunc), OpKey(CL::trunc)})
    t[key].element = exact([](double x) { return std::trunc(x); });
  // Halfway cases to even (GLSL RoundEven, OpenCL rint in the default rounding mode) and away
  // from zero (OpenCL round; GLSL Round leaves their direction to the implementation).
  for (OpKey key : {OpKey(GL::RoundEven), OpKey(CL::rint)})
    t[key].element = exact([](double x) { return std::nearbyint(x); });
  t[CL::round].element = exact([](double x) { return std::round(x); });
  t[CL::copysign].element = [](auto &o, Type, Type) { return F(std::copysign(o[0].f, o[1].f)); };
  t[GL::FSign].element = [](auto &o, Type, Type) -> std::optional<FoldScalar> {
    if (std::isnan(o[0].f) || o[0].f == 0)
      return std::nullopt;
    return F(o[0].f > 0 ? 1.0 : -1.0);
  };
  t[GL::SSign].element = [sv, si](auto &o, Type in, Type out) {
    const int64_t v = sv(o[0], in);
    return si(v > 0 ? 1 : v < 0 ? -1 : 0, out);
  };
  t[GL::SAbs].element = [sv, si](auto &o, Type in, Type out) -> std::optional<FoldScalar> {
    const int64_t v = sv(o[0], in);
    if (v == signExtend(uint64_t(1) << (in.width() - 1), in.width()))
      return std::nullopt;
    return si(v < 0 ? -v : v, out);
  };
  // OpenCL's s_abs returns the magnitude as an unsigned value: the least integer has one.
  t[CL::s_abs].element = [sv](auto &o, Type in, Type out) {
    const int64_t v = sv(o[0], in);
    return I((v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v)) &
             maskOf(out.width()));
  };
  t[CL::u_abs].element = [uv](auto &o, Type in, Type) { return I(uv(o[0], in)); };
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
    t[key].element = pick(true, false);
  for (OpKey key : {OpKey(GL::SMax), OpKey(CL::s_max)})
    t[key].element = pick(true, true);
  for (OpKey key : {OpKey(GL::UMin), OpKey(CL::u_min)})
    t[key].element = pick(false, false);
  for (OpKey key : {OpKey(GL::UMax), OpKey(CL::u_max)})
    t[key].element = pick(false, true);
  auto clamp = [](bool isSigned) {
    return [isSigned](auto &o, Type in, Type) -> std::optional<FoldScalar> {
      const unsigned w = in.width();
      auto less = [&](const FoldScalar &a, const FoldScalar &b) {
        return isSigned ? signExtend(a.bits, w) < signExtend(b.bits, w)
                        : (a.bits & maskOf(w)) < (b.bits & maskOf(w));
      };
      if (less(o[2], o[1]))
        return std::nullopt; // bounds reversed: undefined
      const FoldScalar &r = less(o[0], o[1]) ? o[1] : less(o[2], o[0]) ? o[2] : o[0];
      return I(r.bits & maskOf(w));
    };
  };
  for (OpKey key : {OpKey(GL::SClamp), OpKey(CL::s_clamp)})
    t[key].element = clamp(true);
  for (OpKey key : {OpKey(GL::UClamp), OpKey(CL::u_clamp)})
    t[key].element = clamp(false);
  // Float minima and maxima: not for +0 against -0 (either may come back); GLSL leaves a NaN
  // operand undefined, OpenCL returns the other operand.
  auto fpick = [](bool wantMax, bool openCL) {
    return [wantMax, openCL](auto &o, Type, Type) -> std::optional<FoldScalar> {
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
  t[GL::FMin].element = fpick(false, false);
  t[GL::FMax].element = fpick(true, false);
  t[CL::fmin].element = fpick(false, true);
  t[CL::fmax].element = fpick(true, true);
  t[GL::FClamp].element = [](auto &o, Type, Type) -> std::optional<FoldScalar> {
    const double x = o[0].f, lo = o[1].f, hi = o[2].f;
    if (std::isnan(x) || std::isnan(lo) || std::isnan(hi) || lo > hi ||
        (x == 0 && (x == lo || x == hi)))
      return std::nullopt; // NaN, reversed bounds, or a zero whose sign is open
    return F(x < lo ? lo : x > hi ? hi : x);
  };
}

} // namespace

void declareElementFolders(FolderTable &t) {
  auto w = [](Type type) { return type.width(); };
  // Integer arithmetic, wrapping.
  t[Op::IAdd].element = [w](auto &o, Type in, Type) {
    return I((o[0].bits + o[1].bits) & maskOf(w(in)));
  };
  t[Op::ISub].element = [w](auto &o, Type in, Type) {
    return I((o[0].bits - o[1].bits) & maskOf(w(in)));
  };
  t[Op::IMul].element = [w](auto &o, Type in, Type) {
    return I((o[0].bits * o[1].bits) & maskOf(w(in)));
  };
  t[Op::SNegate].element = [w](auto &o, Type in, Type) {
    return I((0 - o[0].bits) & maskOf(w(in)));
  };
  t[Op::Not].element = [w](auto &o, Type in, Type) { return I(~o[0].bits & maskOf(w(in))); };
  t[Op::UDiv].element = [w](auto &o, Type in, Type) -> std::optional<FoldScalar> {
    uint64_t m = maskOf(w(in)), a = o[0].bits & m, b = o[1].bits & m;
    if (b == 0)
      return std::nullopt;
    return I(a / b);
  };
  t[Op::UMod].element = [w](auto &o, Type in, Type) -> std::optional<FoldScalar> {
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
  t[Op::SDiv].element = [w, sdivOk](auto &o, Type in, Type) -> std::optional<FoldScalar> {
    if (!sdivOk(o, in))
      return std::nullopt;
    int64_t a = signExtend(o[0].bits, w(in)), b = signExtend(o[1].bits, w(in));
    return I(static_cast<uint64_t>(a / b) & maskOf(w(in)));
  };
  t[Op::SRem].element = [w, sdivOk](auto &o, Type in, Type) -> std::optional<FoldScalar> {
    if (!sdivOk(o, in))
      return std::nullopt;
    int64_t a = signExtend(o[0].bits, w(in)), b = signExtend(o[1].bits, w(in));
    return I(static_cast<uint64_t>(a % b) & maskOf(w(in)));
  };
  t[Op::SMod].element = [w, sdivOk](auto &o, Type in, Type) -> std::optional<FoldScalar> {
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
  t[Op::ShiftLeftLogical].element = [](auto &o, Type, Type out) -> std::optional<FoldScalar> {
    uint64_t n = o[1].bits; // constants hold their low width bits
    if (n >= out.width())
      return std::nullopt;
    return I((o[0].bits << n) & maskOf(out.width()));
  };
  t[Op::ShiftRightLogical].element = [](auto &o, Type, Type out) -> std::optional<FoldScalar> {
    uint64_t n = o[1].bits; // constants hold their low width bits
    if (n >= out.width())
      return std::nullopt;
    return I((o[0].bits & maskOf(out.width())) >> n);
  };
  t[Op::ShiftRightArithmetic].element = [](auto &o, Type, Type out) -> std::optional<FoldScalar> {
    uint64_t n = o[1].bits; // constants hold their low width bits
    if (n >= out.width())
      return std::nullopt;
    return I(static_cast<uint64_t>(signExtend(o[0].bits, out.width()) >> n) & maskOf(out.width()));
  };
  t[Op::BitwiseAnd].element = [](auto &o, Type, Type) { return I(o[0].bits & o[1].bits); };
  t[Op::BitwiseOr].element = [](auto &o, Type, Type) { return I(o[0].bits | o[1].bits); };
  t[Op::BitwiseXor].element = [](auto &o, Type, Type) { return I(o[0].bits ^ o[1].bits); };
  // Integer comparisons.
  auto u = [](const FoldScalar &s, Type in) { return s.bits & maskOf(in.width()); };
  auto s = [](const FoldScalar &x, Type in) { return signExtend(x.bits, in.width()); };
  t[Op::IEqual].element = [u](auto &o, Type in, Type) { return B(u(o[0], in) == u(o[1], in)); };
  t[Op::INotEqual].element = [u](auto &o, Type in, Type) { return B(u(o[0], in) != u(o[1], in)); };
  t[Op::UGreaterThan].element = [u](auto &o, Type in, Type) {
    return B(u(o[0], in) > u(o[1], in));
  };
  t[Op::UGreaterThanEqual].element = [u](auto &o, Type in, Type) {
    return B(u(o[0], in) >= u(o[1], in));
  };
  t[Op::ULessThan].element = [u](auto &o, Type in, Type) { return B(u(o[0], in) < u(o[1], in)); };
  t[Op::ULessThanEqual].element = [u](auto &o, Type in, Type) {
    return B(u(o[0], in) <= u(o[1], in));
  };
  t[Op::SGreaterThan].element = [s](auto &o, Type in, Type) {
    return B(s(o[0], in) > s(o[1], in));
  };
  t[Op::SGreaterThanEqual].element = [s](auto &o, Type in, Type) {
    return B(s(o[0], in) >= s(o[1], in));
  };
  t[Op::SLessThan].element = [s](auto &o, Type in, Type) { return B(s(o[0], in) < s(o[1], in)); };
  t[Op::SLessThanEqual].element = [s](auto &o, Type in, Type) {
    return B(s(o[0], in) <= s(o[1], in));
  };
  // Logical.
  t[Op::LogicalAnd].element = [](auto &o, Type, Type) {
    return B((o[0].bits & 1) && (o[1].bits & 1));
  };
  t[Op::LogicalOr].element = [](auto &o, Type, Type) {
    return B((o[0].bits & 1) || (o[1].bits & 1));
  };
  t[Op::LogicalEqual].element = [](auto &o, Type, Type) {
    return B((o[0].bits & 1) == (o[1].bits & 1));
  };
  t[Op::LogicalNotEqual].element = [](auto &o, Type, Type) {
    return B((o[0].bits & 1) != (o[1].bits & 1));
  };
  t[Op::LogicalNot].element = [](auto &o, Type, Type) { return B(!(o[0].bits & 1)); };
  // Float arithmetic in the type's precision.
  t[Op::FAdd].element = [](auto &o, Type in, Type) {
    return floatOp(o[0].f, o[1].f, in.width(), [](auto a, auto b) { return a + b; });
  };
  t[Op::FSub].element = [](auto &o, Type in, Type) {
    return floatOp(o[0].f, o[1].f, in.width(), [](auto a, auto b) { return a - b; });
  };
  t[Op::FMul].element = [](auto &o, Type in, Type) {
    return floatOp(o[0].f, o[1].f, in.width(), [](auto a, auto b) { return a * b; });
  };
  t[Op::FDiv].element = [](auto &o, Type in, Type) -> std::optional<FoldScalar> {
    if (o[1].f == 0)
      return std::nullopt;
    return floatOp(o[0].f, o[1].f, in.width(), [](auto a, auto b) { return a / b; });
  };
  t[Op::FRem].element = [](auto &o, Type, Type) -> std::optional<FoldScalar> {
    if (o[1].f == 0)
      return std::nullopt;
    return F(std::fmod(o[0].f, o[1].f)); // exact: the sign of operand 1
  };
  t[Op::FMod].element = [](auto &o, Type in, Type) -> std::optional<FoldScalar> {
    if (o[1].f == 0 || std::isinf(o[1].f))
      return std::nullopt;
    double r = std::fmod(o[0].f, o[1].f);
    if (r != 0 && std::signbit(r) != std::signbit(o[1].f))
      return floatOp(r, o[1].f, in.width(), [](auto a, auto b) { return a + b; });
    return F(r);
  };
  t[Op::FNegate].element = [](auto &o, Type, Type) { return F(-o[0].f); };
  // Float comparisons: ordered ones are false and unordered ones true when either is NaN.
  auto cmp = [](bool ordered, auto rel) {
    return [ordered, rel](auto &o, Type, Type) {
      if (std::isnan(o[0].f) || std::isnan(o[1].f))
        return B(!ordered);
      return B(rel(o[0].f, o[1].f));
    };
  };
  t[Op::FOrdEqual].element = cmp(true, std::equal_to<double>());
  t[Op::FUnordEqual].element = cmp(false, std::equal_to<double>());
  t[Op::FOrdNotEqual].element = cmp(true, std::not_equal_to<double>());
  t[Op::FUnordNotEqual].element = cmp(false, std::not_equal_to<double>());
  t[Op::FOrdLessThan].element = cmp(true, std::less<double>());
  t[Op::FUnordLessThan].element = cmp(false, std::less<double>());
  t[Op::FOrdGreaterThan].element = cmp(true, std::greater<double>());
  t[Op::FUnordGreaterThan].element = cmp(false, std::greater<double>());
  t[Op::FOrdLessThanEqual].element = cmp(true, std::less_equal<double>());
  t[Op::FUnordLessThanEqual].element = cmp(false, std::less_equal<double>());
  t[Op::FOrdGreaterThanEqual].element = cmp(true, std::greater_equal<double>());
  t[Op::FUnordGreaterThanEqual].element = cmp(false, std::greater_equal<double>());
  t[Op::IsNan].element = [](auto &o, Type, Type) { return B(std::isnan(o[0].f)); };
  t[Op::IsInf].element = [](auto &o, Type, Type) { return B(std::isinf(o[0].f)); };
  // Conversions.
  t[Op::SConvert].element = [](auto &o, Type in, Type out) {
    return I(static_cast<uint64_t>(signExtend(o[0].bits, in.width())) & maskOf(out.width()));
  };
  t[Op::UConvert].element = [](auto &o, Type in, Type out) {
    return I(o[0].bits & maskOf(in.width()) & maskOf(out.width()));
  };
  t[Op::FConvert].element = [](auto &o, Type, Type out) { return F(roundTo(o[0].f, out)); };
  t[Op::ConvertSToF].element = [](auto &o, Type in, Type out) {
    int64_t v = signExtend(o[0].bits, in.width());
    return F(out.width() == 32 ? static_cast<double>(static_cast<float>(v))
                               : roundTo(static_cast<double>(v), out.width()));
  };
  t[Op::ConvertUToF].element = [](auto &o, Type in, Type out) {
    uint64_t v = o[0].bits & maskOf(in.width());
    return F(out.width() == 32 ? static_cast<double>(static_cast<float>(v))
                               : roundTo(static_cast<double>(v), out.width()));
  };
  // Float to integer: truncation; NaN and values out of the result's range are undefined.
  t[Op::ConvertFToS].element = [](auto &o, Type, Type out) -> std::optional<FoldScalar> {
    double v = std::trunc(o[0].f);
    double lo = -std::ldexp(1.0, out.width() - 1), hi = std::ldexp(1.0, out.width() - 1);
    if (std::isnan(v) || v < lo || v >= hi)
      return std::nullopt;
    return I(static_cast<uint64_t>(static_cast<int64_t>(v)) & maskOf(out.width()));
  };
  t[Op::ConvertFToU].element = [](auto &o, Type, Type out) -> std::optional<FoldScalar> {
    double v = std::trunc(o[0].f);
    if (std::isnan(v) || v < 0 || v >= std::ldexp(1.0, out.width()))
      return std::nullopt;
    return I(static_cast<uint64_t>(v));
  };
  extendedInstructionFolders(t);
  // spirv.Select: the object its condition picks (the element type is the objects').
  OpFolder &select = t[Op::Select];
  select.element = [](auto &o, Type, Type) { return (o[0].bits & 1) ? o[1] : o[2]; };
  select.typedOperand = 1;
  select.anyElementType = true;
}

} // namespace spire::dialect::detail
