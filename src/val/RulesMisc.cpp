// Rules: miscellaneous instructions (SPIR-V 3.32.1), the small extensions' ones and the integer
// dot products of SPIR-V 1.6 (3.32.13, SPV_KHR_integer_dot_product): operand and result types.
//
// - OpReadClockKHR (SPV_KHR_shader_clock): a 64-bit unsigned integer or a vector of two 32-bit
//   unsigned integers, of a constant scope that is Subgroup or Device
//   (VUID-StandaloneSpirv-OpReadClockKHR-04652).
// - OpAssumeTrueKHR (SPV_KHR_expect_assume): a boolean scalar condition. OpExpectKHR: an integer
//   or boolean scalar or vector result, and Value and ExpectedValue of that type.
// - OpSizeOf: a 32-bit integer scalar result from a pointer.
// - OpSDot, OpUDot, OpSUDot and their AccSat forms: an integer scalar result at least as wide as
//   the inputs' components (unsigned for the U forms), inputs that are 32-bit integers (with a
//   Packed Vector Format) or integer vectors, of one type (S, U: unsigned for U; SU: the same
//   count and width, the second unsigned); the accumulator of the result type.
// - OpIsHelperInvocationEXT (SPV_EXT_demote_to_helper_invocation): a boolean scalar result.
// - OpEmitStreamVertex, OpEndStreamPrimitive (3.32.16): the stream is a constant integer scalar.
#include "OperandCheck.h"
#include "Rules.h"
#include "spire/module/Opcodes.h"

namespace spire::val {

namespace {

enum : uint32_t {
  kOpSDot = uint32_t(grammar::Op::SDot),
  kOpUDot = uint32_t(grammar::Op::UDot),
  kOpSUDot = uint32_t(grammar::Op::SUDot),
  kOpSDotAccSat = uint32_t(grammar::Op::SDotAccSat),
  kOpUDotAccSat = uint32_t(grammar::Op::UDotAccSat),
  kOpSUDotAccSat = uint32_t(grammar::Op::SUDotAccSat),
  kOpSizeOf = uint32_t(grammar::Op::SizeOf),
  kOpReadClockKHR = uint32_t(grammar::Op::ReadClockKHR),
  kOpAssumeTrueKHR = uint32_t(grammar::Op::AssumeTrueKHR),
  kOpExpectKHR = uint32_t(grammar::Op::ExpectKHR),
  kOpEmitStreamVertex = uint32_t(grammar::Op::EmitStreamVertex),
  kOpEndStreamPrimitive = uint32_t(grammar::Op::EndStreamPrimitive),
  kOpIsHelperInvocationEXT = uint32_t(grammar::Op::IsHelperInvocationEXT),
};

// %r = OpReadClockKHR %type %scope
void readClock(State &s, const Instruction &inst) {
  OperandCheck c(s, inst, "SPV_KHR_shader_clock");
  if (!c.result("a 64-bit unsigned integer scalar or a vector of two 32-bit unsigned integers",
                [&](uint32_t t) {
                  return !s.isSignedInt(t) && (c.intScalar(t, 64) || c.intVector(t, 2, 32));
                }))
    return;
  constexpr uint64_t kScopeDevice = uint32_t(grammar::Scope::Device),
                     kScopeSubgroup = uint32_t(grammar::Scope::Subgroup);
  const uint32_t scope = c.id(3);
  if (scope == 0 || s.defOpcode(scope) != Op::Constant)
    return;
  const std::optional<uint64_t> v = s.constantValue(scope);
  if (v && *v != kScopeDevice && *v != kScopeSubgroup)
    s.error(inst.index(), "VUID-StandaloneSpirv-OpReadClockKHR-04652",
            "OpReadClockKHR: the scope " + s.name(scope) + " must be Subgroup or Device");
}

// OpAssumeTrueKHR %condition; %r = OpExpectKHR %type %value %expected
void expectAssume(State &s, const Instruction &inst, bool assume) {
  OperandCheck c(s, inst, "SPV_KHR_expect_assume");
  if (assume) {
    c.operand(1, "Condition", "a boolean scalar", [&](uint32_t t) { return s.isBoolType(t); });
    return;
  }
  const uint32_t type = c.resultType();
  c.result("an integer or boolean scalar or vector",
           [&](uint32_t t) { return s.isIntScalarOrVector(t) || s.isBoolScalarOrVector(t); }) &&
      c.operand(
          3, "Value", [&] { return "of the result type " + s.name(type); },
          [&](uint32_t t) { return t == type; }) &&
      c.operand(
          4, "ExpectedValue", [&] { return "of the result type " + s.name(type); },
          [&](uint32_t t) { return t == type; });
}

// %r = OpSizeOf %type %pointer: "Result Type must be a 32-bit integer type scalar. Pointer is a
// pointer type."
void sizeOf(State &s, const Instruction &inst) {
  OperandCheck c(s, inst, "3.32.1");
  c.resultInt32() &&
      c.operand(3, "Pointer", "a pointer", [&](uint32_t t) { return s.isPointerType(t); });
}

// %r = OpSDot / OpUDot / OpSUDot %type %vector1 %vector2 [PackedVectorFormat]; the AccSat forms
// have %accumulator before the format.
void dot(State &s, const Instruction &inst, uint32_t op) {
  const bool accumulate = op >= kOpSDotAccSat;
  const uint32_t base = accumulate ? op - 3 : op;
  const bool unsignedDot = base == kOpUDot, mixed = base == kOpSUDot;
  OperandCheck c(s, inst, "3.32.13");
  if (!c.result(unsignedDot ? "an unsigned integer scalar" : "an integer scalar",
                [&](uint32_t t) { return c.intScalar(t) && (!unsignedDot || !s.isSignedInt(t)); }))
    return;
  const uint32_t v1 = c.type(3), v2 = c.type(4);
  if (v1 == 0 || v2 == 0)
    return;
  auto input = [&](uint32_t t) {
    return c.intScalar(t, 32) || (s.isVectorType(t) && s.isIntScalarOrVector(t));
  };
  if (!c.operand(3, "Vector 1", "a 32-bit integer or a vector of integers", input) ||
      !c.operand(4, "Vector 2", "a 32-bit integer or a vector of integers", input))
    return;
  const bool vectors = s.isVectorType(v1);
  if (mixed ? (vectors != s.isVectorType(v2) || s.componentCount(v1) != s.componentCount(v2) ||
               s.bitWidth(v1) != s.bitWidth(v2))
            : v1 != v2) {
    c.fail(mixed ? "Vector 1 and Vector 2 must have the same number of components and width"
                 : "Vector 1 and Vector 2 must have the same type");
    return;
  }
  if (vectors &&
      ((unsignedDot && s.isSignedInt(v1)) || ((unsignedDot || mixed) && s.isSignedInt(v2)))) {
    c.fail(std::string(unsignedDot ? "the vectors' components" : "Vector 2's components") +
           " must be unsigned (Signedness 0)");
    return;
  }
  if (s.bitWidth(c.resultType()) < s.bitWidth(v1)) {
    c.fail("the result type " + s.name(c.resultType()) +
           " must be at least as wide as the vectors' components");
    return;
  }
  const uint32_t format = accumulate ? 6 : 5;
  if (!vectors && inst.wordCount() <= format) {
    c.fail("32-bit integer inputs need a Packed Vector Format");
    return;
  }
  if (accumulate)
    c.operand(
        5, "Accumulator", [&] { return "of the result type " + s.name(c.resultType()); },
        [&](uint32_t t) { return t == c.resultType(); });
}

// OpEmitStreamVertex / OpEndStreamPrimitive %stream: "Stream must be an <id> of a constant
// instruction with a scalar integer type."
void stream(State &s, const Instruction &inst) {
  OperandCheck c(s, inst, "3.32.16");
  if (c.operand(1, "Stream", "an integer scalar", [&](uint32_t t) { return c.intScalar(t); }) &&
      inst.wordCount() > 1 && !isConstantCreation(s.defOpcode(inst.word(1))))
    c.fail("Stream " + s.name(inst.word(1)) + " must be a constant");
}

} // namespace

void checkMisc(State &s) {
  forEachInstruction(s, [&](const Instruction &inst, uint32_t op) {
    switch (op) {
    case kOpReadClockKHR:
      readClock(s, inst);
      break;
    case kOpAssumeTrueKHR:
    case kOpExpectKHR:
      expectAssume(s, inst, op == kOpAssumeTrueKHR);
      break;
    case kOpSizeOf:
      sizeOf(s, inst);
      break;
    case kOpIsHelperInvocationEXT:
      OperandCheck(s, inst, "SPV_EXT_demote_to_helper_invocation").resultBool();
      break;
    case kOpEmitStreamVertex:
    case kOpEndStreamPrimitive:
      stream(s, inst);
      break;
    case kOpSDot:
    case kOpUDot:
    case kOpSUDot:
    case kOpSDotAccSat:
    case kOpUDotAccSat:
    case kOpSUDotAccSat:
      dot(s, inst, op);
      break;
    default:
      break;
    }
  });
}

} // namespace spire::val
