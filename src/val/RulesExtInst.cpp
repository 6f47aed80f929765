// Rules: instructions of GLSL.std.450 and OpenCL.std (the extended instruction set
// specifications, as spirv-val reads them): operand and result types.
//
// - Component-wise functions: a scalar or vector result of the function's kind (float, or
//   integer) and every operand of the result's type; for integer functions the operands may
//   differ from the result in signedness only.
// - Geometric functions: Length and Distance give the component type of their float vector
//   operands, Cross works on three-component vectors.
// - Modf's second operand points to the result type; Frexp's to integers of its component count.
// - GLSL.std.450: Pack* / Unpack* take and give their exact types; Ldexp's exponent and Frexp's
//   pointed-to exponent have the result's component count; FrexpStruct / ModfStruct give a struct
//   of two members; Find* keep count and width; Refract's eta is a float scalar; Determinant and
//   MatrixInverse work on square matrices; InterpolateAt* read a pointer to an Input of the result
//   type (and run in Fragment entry points: RulesModes).
// - OpenCL.std: fract / modf / sincos store the result type, frexp / lgamma_r / remquo 32-bit
//   integers; pown / rootn / ilogb / nan have integer operands or results of the result's count;
//   select's condition and the shuffle masks are integers of the result's count and width;
//   vloadn / vstoren take a size_t offset and a pointer to the component type; printf a pointer to
//   8-bit integers in UniformConstant; prefetch a CrossWorkgroup pointer to integers or floats;
//   upsample half-width halves; ldexp's exponent is 32-bit integers of the result's count; the
//   geometric functions (cross, distance, length, normalize and their fast_ forms) work on float
//   scalars or vectors of up to four components; vload_half / vload_halfn / vloada_halfn give 32-
//   or 64-bit floats (a scalar, or n components) from a pointer to 16-bit floats, and the
//   vstore_half* forms store such floats through one (not in UniformConstant).
#include "Rules.h"

#include <algorithm>
#include <iterator>
#include <string_view>

namespace spire::val {

namespace {

constexpr const char *kRule = "extended instruction sets";

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
      "acos",        "acosh",       "acospi",        "asin",        "asinh",        "asinpi",
      "atan",        "atan2",       "atanh",         "atanpi",      "atan2pi",      "cbrt",
      "ceil",        "copysign",    "cos",           "cosh",        "cospi",        "erfc",
      "erf",         "exp",         "exp2",          "exp10",       "expm1",        "fabs",
      "fdim",        "floor",       "fma",           "fmod",        "hypot",        "log",
      "log2",        "log10",       "log1p",         "logb",        "mad",          "maxmag",
      "minmag",      "nextafter",   "pow",           "powr",        "remainder",    "rint",
      "round",       "rsqrt",       "sin",           "sinh",        "sinpi",        "sqrt",
      "tan",         "tanh",        "tanpi",         "tgamma",      "trunc",        "fmax",
      "fmin",        "fmax_common", "fmin_common",   "degrees",     "radians",      "sign",
      "lgamma",      "fclamp",      "mix",           "step",        "smoothstep",   "half_cos",
      "half_divide", "half_exp",    "half_exp2",     "half_exp10",  "half_log",     "half_log2",
      "half_log10",  "half_powr",   "half_recip",    "half_rsqrt",  "half_sin",     "half_sqrt",
      "half_tan",    "native_cos",  "native_divide", "native_exp",  "native_exp2",  "native_exp10",
      "native_log",  "native_log2", "native_log10",  "native_powr", "native_recip", "native_rsqrt",
      "native_sin",  "native_sqrt", "native_tan"};
  static constexpr std::string_view kIntSame[] = {
      "s_abs_diff", "u_abs_diff", "s_add_sat", "u_add_sat", "s_hadd",   "u_hadd",   "s_rhadd",
      "u_rhadd",    "s_sub_sat",  "u_sub_sat", "s_mad_hi",  "u_mad_hi", "s_mul_hi", "u_mul_hi",
      "rotate",     "clz",        "ctz",       "popcount",  "s_max",    "u_max",    "s_min",
      "u_min",      "s_abs",      "u_abs",     "s_clamp",   "u_clamp",  "s_mad24",  "u_mad24",
      "s_mul24",    "u_mul24",    "s_mad_sat", "u_mad_sat"};
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
    for (Instruction inst : s_.instructions(State::Listed::ExtInsts)) {
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
      if (tooManyOperands(inst, *import.set, *ext))
        continue;
      Kind kind = Kind::None;
      const bool glsl = import.set->key == "glsl.std.450";
      if (glsl)
        kind = glslKind(ext->name);
      else if (import.set->key == "opencl.std.100")
        kind = openclKind(ext->name);
      if (kind == Kind::None && (glsl || import.set->key == "opencl.std.100")) {
        const std::string what =
            std::string(glsl ? "GLSL.std.450 " : "OpenCL.std ") + std::string(ext->name);
        if (glsl)
          glslSpecific(inst, what, ext->name);
        else
          openclSpecific(inst, what, ext->name);
        continue;
      }
      if (kind != Kind::None)
        check(inst,
              std::string(import.set->key == "glsl.std.450" ? "GLSL.std.450 " : "OpenCL.std ") +
                  std::string(ext->name),
              kind);
      // The 24-bit multiplications compute on 32-bit integers.
      if (!glsl && ext->name.ends_with("24") && s_.isIntScalarOrVector(inst.typeId()) &&
          s_.bitWidth(inst.typeId()) != 32)
        s_.error(inst.index(), "extended instruction sets",
                 "OpenCL.std " + std::string(ext->name) + " gives 32-bit integers, not " +
                     s_.name(inst.typeId()));
    }
  }

private:
  /// An extended instruction with operands past those its grammar lists (none of them
  /// variadic): spirv-val refuses it when it parses the module.
  bool tooManyOperands(const Instruction &inst, const grammar::ExtInstSetDesc &set,
                       const grammar::ExtInstDesc &ext) {
    size_t listed = 0;
    for (const grammar::OperandDesc &d : ext.operands) {
      if (d.quantifier == grammar::Quantifier::Variadic)
        return false;
      ++listed;
    }
    size_t given = 0;
    bool afterNumber = false;
    for (const binary::Operand &o : inst.operands()) {
      if (afterNumber)
        ++given;
      afterNumber |= o.kind == grammar::OperandKind::LiteralExtInstInteger;
    }
    if (given <= listed)
      return false;
    s_.error(inst.index(), "3.32.2 OpExtInst",
             std::string(set.key == "glsl.std.450" ? "GLSL.std.450 " : "") + std::string(ext.name) +
                 " takes " + std::to_string(listed) + " operands, not " + std::to_string(given));
    return true;
  }

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
      // Distance: P0 and P1 have the same number of components.
      if (inst.wordCount() >= 7 && operandType(5) != 0 && operandType(6) != 0 &&
          s_.componentCount(operandType(5)) != s_.componentCount(operandType(6)))
        s_.error(inst.index(), rule, what + ": P0 and P1 must have the same number of components");
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
      else if (i != 0 && (!s_.isPointerType(i) || s_.pointeeType(i) != result))
        s_.error(inst.index(), rule, what + ": i must be a pointer to the result type");
      return;
    }
    case Kind::None:
      return;
    }
  }

  // --- Helpers for the instruction-specific rules --------------------------------------------

  uint32_t operandType(const Instruction &inst, uint32_t operand) const {
    return 5 + operand < inst.wordCount() ? s_.typeOf(inst.word(5 + operand)) : 0;
  }
  bool scalarOrVector(uint32_t t) const { return s_.isScalarType(t) || s_.isVectorType(t); }
  bool floats(uint32_t t) const { return scalarOrVector(t) && s_.isFloatScalarOrVector(t); }
  bool ints(uint32_t t) const { return scalarOrVector(t) && s_.isIntScalarOrVector(t); }
  /// A float (or int) scalar or vector of `count` components of `width` bits (0: any width).
  bool shaped(uint32_t t, bool floating, uint32_t count, uint32_t width) const {
    return (floating ? floats(t) : ints(t)) && s_.componentCount(t) == count &&
           (width == 0 || s_.bitWidth(t) == width);
  }
  uint32_t structMember(uint32_t type, uint32_t member) const {
    std::optional<Instruction> d = s_.def(type);
    if (!d || d->opcode() != Op::TypeStruct || d->wordCount() != 4)
      return 0;
    return d->word(2 + member);
  }
  // A square matrix type's column count, 0 for others.
  uint32_t squareMatrix(uint32_t type) const {
    std::optional<Instruction> d = s_.def(type);
    if (!d || d->opcode() != Op::TypeMatrix || d->wordCount() < 4)
      return 0;
    return s_.componentCount(d->word(2)) == d->word(3) && s_.isFloatScalarOrVector(d->word(2))
               ? d->word(3)
               : 0;
  }
  // Reports `message` when `ok` is false; returns `ok`.
  bool expect(const Instruction &inst, bool ok, const std::string &what,
              const std::string &message) {
    if (!ok)
      s_.error(inst.index(), kRule, what + ": " + message);
    return ok;
  }

  // GLSL.std.450 instructions with operands of their own shapes (the extended instruction set
  // specification, as spirv-val reads it).
  void glslSpecific(const Instruction &inst, const std::string &what, std::string_view name) {
    const uint32_t result = inst.typeId();
    const uint32_t a = operandType(inst, 0), b = operandType(inst, 1);
    const bool amdInt16 = s_.hasExtension("SPV_AMD_gpu_shader_int16");
    // IMix is in the grammar, but the GLSL.std.450 specification removed it: no definition.
    if (name == "IMix") {
      s_.error(inst.index(), "extended instruction sets",
               what + " was removed from the GLSL.std.450 specification; no module may use it");
      return;
    }
    // Pack / Unpack: exact types.
    struct Pack {
      std::string_view name;
      bool resultFloat;
      uint32_t resultCount, resultWidth;
      bool operandFloat;
      uint32_t operandCount, operandWidth;
    };
    static constexpr Pack kPacks[] = {
        {"PackSnorm4x8", false, 1, 32, true, 4, 32},
        {"PackUnorm4x8", false, 1, 32, true, 4, 32},
        {"PackSnorm2x16", false, 1, 32, true, 2, 32},
        {"PackUnorm2x16", false, 1, 32, true, 2, 32},
        {"PackHalf2x16", false, 1, 32, true, 2, 32},
        {"PackDouble2x32", true, 1, 64, false, 2, 32},
        {"UnpackSnorm2x16", true, 2, 32, false, 1, 32},
        {"UnpackUnorm2x16", true, 2, 32, false, 1, 32},
        {"UnpackHalf2x16", true, 2, 32, false, 1, 32},
        {"UnpackSnorm4x8", true, 4, 32, false, 1, 32},
        {"UnpackUnorm4x8", true, 4, 32, false, 1, 32},
        {"UnpackDouble2x32", false, 2, 32, true, 1, 64},
    };
    auto shapeText = [](bool floating, uint32_t count, uint32_t width) {
      const std::string scalar = std::to_string(width) + "-bit " + (floating ? "float" : "integer");
      return count == 1 ? "a " + scalar + " scalar"
                        : "a vector of " + std::to_string(count) + " " + scalar + "s";
    };
    for (const Pack &p : kPacks) {
      if (p.name != name)
        continue;
      if (expect(inst, shaped(result, p.resultFloat, p.resultCount, p.resultWidth), what,
                 "the result must be " + shapeText(p.resultFloat, p.resultCount, p.resultWidth)) &&
          a != 0)
        expect(inst, shaped(a, p.operandFloat, p.operandCount, p.operandWidth), what,
               "the operand must be " + shapeText(p.operandFloat, p.operandCount, p.operandWidth));
      return;
    }
    if (name == "Frexp" || name == "Ldexp") {
      if (!expect(inst, floats(result), what, "the result must be a float scalar or vector") ||
          !expect(inst, a == 0 || a == result, what, "x must be of the result type") || b == 0)
        return;
      uint32_t exp = b;
      if (name == "Frexp") {
        if (!expect(inst, s_.isPointerType(b), what, "exp must be a pointer"))
          return;
        exp = s_.pointeeType(b);
        const uint32_t w = s_.bitWidth(exp);
        if (!expect(inst, ints(exp) && (w == 32 || (amdInt16 && w == 16)), what,
                    "exp must point to a 32-bit integer scalar or vector"))
          return;
      } else if (!expect(inst, ints(exp), what, "exp must be an integer scalar or vector")) {
        return;
      }
      expect(inst, s_.componentCount(exp) == s_.componentCount(result), what,
             "exp must have as many components as the result");
      return;
    }
    if (name == "FrexpStruct" || name == "ModfStruct") {
      const uint32_t first = structMember(result, 0), second = structMember(result, 1);
      const bool ok =
          floats(first) &&
          (name == "ModfStruct"
               ? second == first
               : (ints(second) && s_.componentCount(second) == s_.componentCount(first) &&
                  (s_.bitWidth(second) == 32 || (amdInt16 && s_.bitWidth(second) == 16))));
      if (expect(inst, ok, what,
                 name == "ModfStruct"
                     ? "the result must be a struct of two members of one float scalar or "
                       "vector type"
                     : "the result must be a struct of a float scalar or vector and 32-bit "
                       "integers of as many components") &&
          a != 0)
        expect(inst, a == first, what, "x must be of the type of the result's first member");
      return;
    }
    if (name == "FindILsb" || name == "FindSMsb" || name == "FindUMsb") {
      if (expect(inst, ints(result), what, "the result must be an integer scalar or vector") &&
          a != 0 && expect(inst, ints(a), what, "the value must be an integer scalar or vector"))
        expect(inst,
               s_.componentCount(a) == s_.componentCount(result) &&
                   s_.bitWidth(a) == s_.bitWidth(result),
               what, "the value must have the result's component count and width");
      return;
    }
    if (name == "Refract") {
      if (!expect(inst, floats(result), what, "the result must be a float scalar or vector"))
        return;
      if (!expect(inst, (a == 0 || a == result) && (b == 0 || b == result), what,
                  "I and N must be of the result type"))
        return;
      const uint32_t eta = operandType(inst, 2);
      expect(inst, eta == 0 || s_.isFloatType(eta), what, "eta must be a float scalar");
      return;
    }
    if (name == "Determinant") {
      if (expect(inst, s_.isFloatType(result), what, "the result must be a float scalar") && a != 0)
        expect(inst, squareMatrix(a) != 0 && s_.componentType(s_.def(a)->word(2)) == result, what,
               "x must be a square matrix of the result type");
      return;
    }
    if (name == "MatrixInverse") {
      if (expect(inst, squareMatrix(result) != 0, what, "the result must be a square matrix"))
        expect(inst, a == 0 || a == result, what, "x must be of the result type");
      return;
    }
    if (name == "InterpolateAtCentroid" || name == "InterpolateAtSample" ||
        name == "InterpolateAtOffset") {
      constexpr uint32_t kStorageInput = uint32_t(grammar::StorageClass::Input);
      if (!expect(inst, floats(result) && s_.bitWidth(result) == 32, what,
                  "the result must be a 32-bit float scalar or vector") ||
          a == 0)
        return;
      if (!expect(inst,
                  s_.isPointerType(a) && s_.storageClass(a) == kStorageInput &&
                      s_.pointeeType(a) == result,
                  what, "the interpolant must be a pointer to the result type in Input"))
        return;
      if (name == "InterpolateAtSample" && b != 0)
        expect(inst, s_.isIntType(b) && s_.bitWidth(b) == 32, what,
               "the sample must be a 32-bit integer scalar");
      if (name == "InterpolateAtOffset" && b != 0)
        expect(inst, shaped(b, true, 2, 32) && s_.isVectorType(b), what,
               "the offset must be a vector of two 32-bit floats");
      return;
    }
  }

  // OpenCL.std instructions with operands of their own shapes.
  void openclSpecific(const Instruction &inst, const std::string &what, std::string_view name);
  void halfLoadStore(const Instruction &inst, const std::string &what, std::string_view name,
                     uint32_t sizeWidth);
  /// A scalar, or a vector of 2, 3, 4, 8 or 16 components (OpenCL's vector sizes).
  bool vectorCount(uint32_t t) const {
    const uint32_t n = s_.componentCount(t);
    return s_.isScalarType(t) ||
           (s_.isVectorType(t) && (n == 2 || n == 3 || n == 4 || n == 8 || n == 16));
  }

  State &s_;
};

void ExtInstChecker::openclSpecific(const Instruction &inst, const std::string &what,
                                    std::string_view name) {
  const uint32_t result = inst.typeId();
  const uint32_t a = operandType(inst, 0), b = operandType(inst, 1), c = operandType(inst, 2);
  constexpr uint32_t kPhysical32 = uint32_t(grammar::AddressingModel::Physical32),
                     kPhysical64 = uint32_t(grammar::AddressingModel::Physical64);
  const uint32_t sizeWidth = s_.addressingModel() == kPhysical32   ? 32
                             : s_.addressingModel() == kPhysical64 ? 64
                                                                   : 0;
  auto pointee = [&](uint32_t t) { return s_.isPointerType(t) ? s_.pointeeType(t) : 0; };
  // Math with a pointer output: fract, modf, sincos store the result type; frexp, lgamma_r and
  // remquo store 32-bit integers of the result's component count.
  const bool sameOut = name == "fract" || name == "modf" || name == "sincos";
  const bool intOut = name == "frexp" || name == "lgamma_r" || name == "remquo";
  if (sameOut || intOut) {
    if (!expect(inst, floats(result), what, "the result must be a float scalar or vector"))
      return;
    const uint32_t x = a, y = name == "remquo" ? b : result;
    const uint32_t ptr = name == "remquo" ? c : b;
    if (!expect(inst, (x == 0 || x == result) && (y == 0 || y == result), what,
                "x must be of the result type") ||
        ptr == 0)
      return;
    if (!expect(inst, s_.isPointerType(ptr), what, "the last operand must be a pointer"))
      return;
    const uint32_t out = pointee(ptr);
    if (sameOut)
      expect(inst, out == result, what, "the pointer must point to the result type");
    else
      expect(inst, shaped(out, false, s_.componentCount(result), 32), what,
             "the pointer must point to 32-bit integers of the result's component count");
    return;
  }
  if (name == "pown" || name == "rootn") {
    if (expect(inst, floats(result), what, "the result must be a float scalar or vector") &&
        expect(inst, a == 0 || a == result, what, "x must be of the result type") && b != 0)
      expect(inst, shaped(b, false, s_.componentCount(result), 32), what,
             "y must be 32-bit integers of the result's component count");
    return;
  }
  if (name == "ilogb") {
    if (expect(inst, ints(result) && s_.bitWidth(result) == 32, what,
               "the result must be a 32-bit integer scalar or vector") &&
        a != 0)
      expect(inst, floats(a) && s_.componentCount(a) == s_.componentCount(result), what,
             "x must be floats of the result's component count");
    return;
  }
  if (name == "nan") {
    if (expect(inst, floats(result), what, "the result must be a float scalar or vector") && a != 0)
      expect(inst, shaped(a, false, s_.componentCount(result), s_.bitWidth(result)), what,
             "nancode must be integers of the result's component count and width");
    return;
  }
  if (name == "bitselect" || name == "select") {
    if (!expect(inst, floats(result) || ints(result), what,
                "the result must be an integer or float scalar or vector"))
      return;
    const uint32_t last = name == "select" ? 2 : 3;
    for (uint32_t k = 0; k < last; ++k)
      if (const uint32_t t = operandType(inst, k);
          !expect(inst, t == 0 || t == result, what, "a and b must be of the result type"))
        return;
    if (name == "select" && c != 0)
      expect(inst, shaped(c, false, s_.componentCount(result), s_.bitWidth(result)), what,
             "c must be integers of the result's component count and width");
    return;
  }
  if (name == "shuffle" || name == "shuffle2") {
    // "x, y and shuffle mask must be vectors of 2, 4, 8 or 16 components", as the result.
    auto shuffleCount = [&](uint32_t t) {
      const uint32_t n = s_.componentCount(t);
      return s_.isVectorType(t) && (n == 2 || n == 4 || n == 8 || n == 16);
    };
    if (!expect(inst, shuffleCount(result) && (floats(result) || ints(result)), what,
                "the result must be an integer or float vector of 2, 4, 8 or 16 components"))
      return;
    const uint32_t x = a, mask = name == "shuffle2" ? c : b;
    if (x != 0 &&
        !expect(inst, shuffleCount(x) && s_.componentType(x) == s_.componentType(result), what,
                "x must be a vector of 2, 4, 8 or 16 components of the result's component type"))
      return;
    if (name == "shuffle2" && b != 0 && !expect(inst, b == x, what, "y must be of x's type"))
      return;
    if (mask != 0)
      expect(inst,
             s_.isVectorType(mask) &&
                 shaped(mask, false, s_.componentCount(result), s_.bitWidth(result)),
             what, "the shuffle mask must be integers of the result's component count and width");
    return;
  }
  if (name == "vloadn" || name == "vstoren") {
    const bool load = name == "vloadn";
    const uint32_t data = load ? result : a, offset = load ? a : b, ptr = load ? b : c;
    if (!load && !expect(inst, s_.isVoidType(result), what, "the result must be void"))
      return;
    if (data != 0 && !expect(inst, s_.isVectorType(data) && (floats(data) || ints(data)), what,
                             load ? "the result must be an integer or float vector"
                                  : "the data must be an integer or float vector"))
      return;
    if (offset != 0 &&
        !expect(inst, s_.isIntType(offset) && (sizeWidth == 0 || s_.bitWidth(offset) == sizeWidth),
                what, "the offset must be a size_t integer scalar"))
      return;
    if (ptr != 0 && data != 0)
      expect(inst, pointee(ptr) == s_.componentType(data), what,
             "the pointer must point to the data's component type");
    if (load && inst.wordCount() > 7 && s_.isVectorType(result))
      expect(inst, s_.componentCount(result) == inst.word(7), what,
             "the result must have n components");
    return;
  }
  constexpr uint32_t kUniformConstant = uint32_t(grammar::StorageClass::UniformConstant),
                     kCrossWorkgroup = uint32_t(grammar::StorageClass::CrossWorkgroup);
  if (name == "printf") {
    if (expect(inst, s_.isIntType(result) && s_.bitWidth(result) == 32, what,
               "the result must be a 32-bit integer") &&
        a != 0 &&
        expect(inst,
               s_.isPointerType(a) && s_.isIntType(pointee(a)) && s_.bitWidth(pointee(a)) == 8,
               what, "the format must be a pointer to 8-bit integers"))
      expect(inst, s_.storageClass(a) == kUniformConstant, what,
             "the format must be in the UniformConstant storage class");
    return;
  }
  if (name == "prefetch") {
    if (expect(inst, s_.isVoidType(result), what, "the result must be void") && a != 0 &&
        expect(inst, s_.isPointerType(a) && s_.storageClass(a) == kCrossWorkgroup, what,
               "ptr must be a pointer in CrossWorkgroup") &&
        expect(inst, vectorCount(pointee(a)) && (floats(pointee(a)) || ints(pointee(a))), what,
               "ptr must point to an integer or float scalar or vector") &&
        b != 0)
      expect(inst, s_.isIntType(b) && (sizeWidth == 0 || s_.bitWidth(b) == sizeWidth), what,
             "num_elements must be a size_t integer scalar");
    return;
  }
  if (name == "ldexp") {
    if (expect(inst, floats(result), what, "the result must be a float scalar or vector") &&
        expect(inst, a == 0 || a == result, what, "x must be of the result type") && b != 0)
      expect(inst, shaped(b, false, s_.componentCount(result), 32), what,
             "k must be 32-bit integers of the result's component count");
    return;
  }
  if (name == "cross") {
    if (expect(inst,
               s_.isVectorType(result) && floats(result) &&
                   (s_.componentCount(result) == 3 || s_.componentCount(result) == 4),
               what, "the result must be a vector of three or four floats"))
      expect(inst, (a == 0 || a == result) && (b == 0 || b == result), what,
             "p0 and p1 must be of the result type");
    return;
  }
  if (name == "distance" || name == "fast_distance" || name == "length" || name == "fast_length") {
    if (!expect(inst, s_.isFloatType(result), what, "the result must be a float scalar"))
      return;
    if (a != 0 && expect(inst, floats(a) && s_.componentCount(a) <= 4, what,
                         "p0 must be a float scalar or a vector of up to four floats"))
      expect(inst, s_.componentType(a) == result, what,
             "p0's components must be of the result type");
    if (a != 0 && b != 0)
      expect(inst, b == a, what, "p1 must be of p0's type");
    return;
  }
  if (name == "normalize" || name == "fast_normalize") {
    if (expect(inst, floats(result) && s_.componentCount(result) <= 4, what,
               "the result must be a float scalar or a vector of up to four floats"))
      expect(inst, a == 0 || a == result, what, "p must be of the result type");
    return;
  }
  if (name == "vload_half" || name == "vload_halfn" || name == "vloada_halfn" ||
      name.starts_with("vstore")) {
    halfLoadStore(inst, what, name, sizeWidth);
    return;
  }
  if (name == "s_upsample" || name == "u_upsample") {
    if (!expect(inst, ints(result), what, "the result must be an integer scalar or vector"))
      return;
    for (uint32_t t : {a, b})
      if (t != 0 &&
          !expect(inst, shaped(t, false, s_.componentCount(result), s_.bitWidth(result) / 2), what,
                  "hi and lo must be integers of the result's component count and "
                  "half its width"))
        return;
    return;
  }
}

// vload_half %offset %p, vload_halfn / vloada_halfn %offset %p n, vstore_half[_r] %data %offset
// %p [mode], vstore_halfn[_r] / vstorea_halfn[_r] %data %offset %p [mode]: the loads give, and the
// stores take, 32- or 64-bit floats (a scalar for vload_half / vstore_half, a vector of n
// components for the n forms), the offset is a size_t integer, and p points to 16-bit floats in
// UniformConstant (loads only), Generic, CrossWorkgroup, Workgroup or Function.
void ExtInstChecker::halfLoadStore(const Instruction &inst, const std::string &what,
                                   std::string_view name, uint32_t sizeWidth) {
  constexpr uint32_t kUniformConstant = uint32_t(grammar::StorageClass::UniformConstant),
                     kWorkgroup = uint32_t(grammar::StorageClass::Workgroup),
                     kCrossWorkgroup = uint32_t(grammar::StorageClass::CrossWorkgroup),
                     kFunction = uint32_t(grammar::StorageClass::Function),
                     kGeneric = uint32_t(grammar::StorageClass::Generic);
  const bool load = name.starts_with("vload");
  const bool scalar = name == "vload_half" || name == "vstore_half" || name == "vstore_half_r";
  const uint32_t result = inst.typeId();
  const uint32_t data = load ? result : operandType(inst, 0);
  const uint32_t offset = operandType(inst, load ? 0 : 1), ptr = operandType(inst, load ? 1 : 2);
  if (!load && !expect(inst, s_.isVoidType(result), what, "the result must be void"))
    return;
  const std::string role = load ? "the result" : "the data";
  if (data != 0) {
    const bool width = s_.bitWidth(data) == 32 || s_.bitWidth(data) == 64;
    const bool ok = scalar ? s_.isFloatType(data) && width
                           : s_.isVectorType(data) && floats(data) && width && vectorCount(data);
    if (!expect(inst, ok, what,
                role + (scalar ? " must be a 32- or 64-bit float scalar"
                               : " must be a vector of 2, 3, 4, 8 or 16 32- or 64-bit floats")))
      return;
  }
  if (offset != 0 &&
      !expect(inst, s_.isIntType(offset) && (sizeWidth == 0 || s_.bitWidth(offset) == sizeWidth),
              what, "the offset must be a size_t integer scalar"))
    return;
  if (ptr != 0) {
    const std::optional<uint32_t> sc = s_.storageClass(ptr);
    const uint32_t p = s_.isPointerType(ptr) ? s_.pointeeType(ptr) : 0;
    if (!expect(inst, s_.isFloatType(p) && s_.bitWidth(p) == 16, what,
                "p must be a pointer to a 16-bit float scalar") ||
        !expect(inst,
                sc == kGeneric || sc == kCrossWorkgroup || sc == kWorkgroup || sc == kFunction ||
                    (load && sc == kUniformConstant),
                what,
                load ? "p must be in UniformConstant, Generic, CrossWorkgroup, Workgroup or "
                       "Function"
                     : "p must be in Generic, CrossWorkgroup, Workgroup or Function"))
      return;
  }
  // vload_halfn / vloada_halfn %offset %p n: "n ... the number of components of Result Type".
  if (load && !scalar && inst.wordCount() > 7 && data != 0)
    expect(inst, s_.componentCount(data) == inst.word(7), what,
           "the result must have n components");
}

} // namespace

void checkExtInst(State &s) { ExtInstChecker(s).run(); }

} // namespace spire::val
