// Rules: miscellaneous instructions (SPIR-V 3.32.1) and the small extensions' ones: operand and
// result types.
//
// - OpReadClockKHR (SPV_KHR_shader_clock): a 64-bit unsigned integer or a vector of two 32-bit
//   unsigned integers, of a constant scope that is Subgroup or Device
//   (VUID-StandaloneSpirv-OpReadClockKHR-04652).
// - OpAssumeTrueKHR (SPV_KHR_expect_assume): a boolean scalar condition. OpExpectKHR: an integer
//   or boolean scalar or vector result, and Value and ExpectedValue of that type.
// - OpSizeOf: a 32-bit integer scalar result from a pointer.
#include "OperandCheck.h"
#include "Rules.h"

namespace spire::val {

namespace {

enum : uint32_t {
  kOpSizeOf = 321,
  kOpReadClockKHR = 5056,
  kOpAssumeTrueKHR = 5630,
  kOpExpectKHR = 5631,
};

// %r = OpReadClockKHR %type %scope
void readClock(State &s, const Instruction &inst) {
  OperandCheck c(s, inst, "SPV_KHR_shader_clock");
  if (!c.result("a 64-bit unsigned integer scalar or a vector of two 32-bit unsigned integers",
                [&](uint32_t t) {
                  return !s.isSignedInt(t) && (c.intScalar(t, 64) || c.intVector(t, 2, 32));
                }))
    return;
  constexpr uint64_t kScopeDevice = 1, kScopeSubgroup = 3;
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
      c.operand(3, "Value", "of the result type " + s.name(type),
                [&](uint32_t t) { return t == type; }) &&
      c.operand(4, "ExpectedValue", "of the result type " + s.name(type),
                [&](uint32_t t) { return t == type; });
}

// %r = OpSizeOf %type %pointer: "Result Type must be a 32-bit integer type scalar. Pointer is a
// pointer type."
void sizeOf(State &s, const Instruction &inst) {
  OperandCheck c(s, inst, "3.32.1");
  c.resultInt32() &&
      c.operand(3, "Pointer", "a pointer", [&](uint32_t t) { return s.isPointerType(t); });
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
    default:
      break;
    }
  });
}

} // namespace spire::val
