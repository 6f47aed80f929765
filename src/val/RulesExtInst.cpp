// Rules: instructions of GLSL.std.450 and OpenCL.std (the extended instruction set
// specifications, as spirv-val reads them): operand and result types.
//
// - Component-wise functions: a scalar or vector result of the function's kind (float, or
//   integer) and every operand of the result's type; for integer functions the operands may
//   differ from the result in signedness only.
// - Geometric functions: Length and Distance give the component type of their float vector
//   operands, Cross works on three-component vectors.
// - Modf's second operand points to the result type; Frexp's to integers of its component count.
#include "Rules.h"

#include <algorithm>
#include <iterator>
#include <string_view>

namespace spire::val {

namespace {

enum class Kind { FloatSame, IntSame, Length, Cross, Modf, None };

template <size_t N> bool listed(const std::string_view (&names)[N], std::string_view name) {
  return std::find(std::begin(names), std::end(names), name) != std::end(names);
}

Kind glslKind(std::string_view name) {
  static constexpr std::string_view kFloatSame[] = {
      "Round",     "RoundEven",   "Trunc",  "FAbs",       "FSign", "Floor",       "Ceil",  "Fract",
      "Radians",   "Degrees",     "Sin",    "Cos",        "Tan",   "Asin",        "Acos",  "Atan",
      "Sinh",      "Cosh",        "Tanh",   "Asinh",      "Acosh", "Atanh",       "Atan2", "Pow",
      "Exp",       "Log",         "Exp2",   "Log2",       "Sqrt",  "InverseSqrt", "FMin",  "FMax",
      "FClamp",    "FMix",        "Step",   "SmoothStep", "Fma",   "NMin",        "NMax",  "NClamp",
      "Normalize", "FaceForward", "Reflect"};
  static constexpr std::string_view kIntSame[] = {"SAbs", "SSign", "UMin",   "SMin",
                                                  "UMax", "SMax",  "UClamp", "SClamp"};
  if (listed(kFloatSame, name))
    return Kind::FloatSame;
  if (listed(kIntSame, name))
    return Kind::IntSame;
  if (name == "Length" || name == "Distance")
    return Kind::Length;
  if (name == "Cross")
    return Kind::Cross;
  if (name == "Modf")
    return Kind::Modf;
  return Kind::None;
}

Kind openclKind(std::string_view name) {
  // Functions whose every operand has the result's type in every overload.
  static constexpr std::string_view kFloatSame[] = {
      "acos",   "acosh",     "acospi", "asin",  "asinh",     "asinpi", "atan",   "atan2", "atanh",
      "atanpi", "atan2pi",   "cbrt",   "ceil",  "copysign",  "cos",    "cosh",   "cospi", "erfc",
      "erf",    "exp",       "exp2",   "exp10", "expm1",     "fabs",   "fdim",   "floor", "fma",
      "fmod",   "hypot",     "log",    "log2",  "log10",     "log1p",  "logb",   "mad",   "maxmag",
      "minmag", "nextafter", "pow",    "powr",  "remainder", "rint",   "round",  "rsqrt", "sin",
      "sinh",   "sinpi",     "sqrt",   "tan",   "tanh",      "tanpi",  "tgamma", "trunc"};
  static constexpr std::string_view kIntSame[] = {
      "s_abs_diff", "u_abs_diff", "s_add_sat", "u_add_sat", "s_hadd",   "u_hadd",
      "s_rhadd",    "u_rhadd",    "s_sub_sat", "u_sub_sat", "s_mad_hi", "u_mad_hi",
      "s_mul_hi",   "u_mul_hi",   "rotate",    "clz",       "ctz",      "popcount",
      "s_max",      "u_max",      "s_min",     "u_min"};
  if (listed(kFloatSame, name))
    return Kind::FloatSame;
  if (listed(kIntSame, name))
    return Kind::IntSame;
  return Kind::None;
}

class ExtInstChecker {
public:
  explicit ExtInstChecker(State &s) : s_(s) {}

  void run() {
    for (Instruction inst : s_.module()) {
      if (s_.stopped())
        return;
      if (inst.isRaw() || inst.opcode() != Op::ExtInst || inst.wordCount() < 5)
        continue;
      const binary::ExtInstImport import = s_.module().extInstImport(inst.word(3));
      if (!import.set)
        continue;
      const grammar::ExtInstDesc *ext = grammar::findExtInst(*import.set, inst.word(4));
      if (!ext)
        continue;
      Kind kind = Kind::None;
      if (import.set->key == "glsl.std.450")
        kind = glslKind(ext->name);
      else if (import.set->key == "opencl.std.100")
        kind = openclKind(ext->name);
      if (kind != Kind::None)
        check(inst,
              std::string(import.set->key == "glsl.std.450" ? "GLSL.std.450 " : "OpenCL.std ") +
                  std::string(ext->name),
              kind);
    }
  }

private:
  void check(const Instruction &inst, const std::string &what, Kind kind) {
    const uint32_t result = inst.typeId();
    const char *rule = "extended instruction sets";
    auto operandType = [&](uint32_t w) { return s_.typeOf(inst.word(w)); };
    switch (kind) {
    case Kind::FloatSame:
      if (!s_.isFloatScalarOrVector(result) ||
          !(s_.isScalarType(result) || s_.isVectorType(result))) {
        s_.error(inst.index(), rule, what + " returns a floating-point scalar or vector");
        return;
      }
      for (uint32_t w = 5; w < inst.wordCount(); ++w)
        if (uint32_t t = operandType(w); t != 0 && t != result) {
          s_.error(inst.index(), rule,
                   what + ": operand " + s_.name(inst.word(w)) + " has type " + s_.name(t) +
                       ", not the result type " + s_.name(result));
          return;
        }
      return;
    case Kind::IntSame:
      if (!s_.isIntScalarOrVector(result) ||
          !(s_.isScalarType(result) || s_.isVectorType(result))) {
        s_.error(inst.index(), rule, what + " returns an integer scalar or vector");
        return;
      }
      for (uint32_t w = 5; w < inst.wordCount(); ++w) {
        const uint32_t t = operandType(w);
        if (t == 0)
          continue;
        if (!s_.isIntScalarOrVector(t) || s_.componentCount(t) != s_.componentCount(result) ||
            s_.bitWidth(t) != s_.bitWidth(result)) {
          s_.error(inst.index(), rule,
                   what + ": operand " + s_.name(inst.word(w)) + " of type " + s_.name(t) +
                       " must be an integer scalar or vector of the result's size");
          return;
        }
      }
      return;
    case Kind::Length:
      if (!s_.isFloatType(result)) {
        s_.error(inst.index(), rule, what + " returns a floating-point scalar");
        return;
      }
      for (uint32_t w = 5; w < inst.wordCount(); ++w)
        if (uint32_t t = operandType(w); t != 0 && s_.componentType(t) != result) {
          s_.error(inst.index(), rule,
                   what + ": operand " + s_.name(inst.word(w)) +
                       " must be a scalar or vector of the result type");
          return;
        }
      return;
    case Kind::Cross:
      if (!s_.isFloatScalarOrVector(result) || s_.componentCount(result) != 3) {
        s_.error(inst.index(), rule, what + " returns a three-component floating-point vector");
        return;
      }
      for (uint32_t w = 5; w < inst.wordCount(); ++w)
        if (uint32_t t = operandType(w); t != 0 && t != result) {
          s_.error(inst.index(), rule,
                   what + ": operand " + s_.name(inst.word(w)) + " is not of the result type");
          return;
        }
      return;
    case Kind::Modf: {
      if (!s_.isFloatScalarOrVector(result) ||
          !(s_.isScalarType(result) || s_.isVectorType(result))) {
        s_.error(inst.index(), rule, what + " returns a floating-point scalar or vector");
        return;
      }
      if (inst.wordCount() < 7)
        return;
      const uint32_t x = operandType(5), i = operandType(6);
      if (x != 0 && x != result)
        s_.error(inst.index(), rule, what + ": x must be of the result type");
      else if (i != 0 && s_.isPointerType(i) && s_.pointeeType(i) != result)
        s_.error(inst.index(), rule, what + ": i must point to the result type");
      return;
    }
    case Kind::None:
      return;
    }
  }

  State &s_;
};

} // namespace

void checkExtInst(State &s) { ExtInstChecker(s).run(); }

} // namespace spire::val
