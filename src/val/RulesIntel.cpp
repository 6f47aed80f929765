// Rules: the operand and result types of INTEL vendor instructions, with the decisions of the
// structured IR's verifier (src/dialect/VerifierTypes.cpp), so that a module spire val accepts
// deserializes to IR that verifies. Where the extensions' texts and what producers emit
// disagree, both are accepted, as the verifier does. Capabilities and extensions are
// availability's: each instruction needs its grammar capability, which needs its extension.
//
// - SPV_INTEL_device_side_avc_motion_estimation: its instructions' types are rows of the table
//   shared with the verifier (include/spire/grammar/OperandTypes.h), checked by
//   RulesOperandTypes.cpp.
// - SPV_INTEL_arbitrary_precision_floating_point: integer scalars hold the values (a bool for the
//   comparisons), and each mantissa width literal (Ma or M1, Mb or M2, Mresult or Mout: grammars
//   name them differently) is less than its value's width, which leaves the sign bit room. SinCos
//   and SinCosPi give two values: a vector of two integers (the text) or an integer of twice their
//   width (the first revisions, as the SYCL headers still declare them).
// - SPV_INTEL_arbitrary_precision_fixed_point: the input, the last id operand (Debian's grammar
//   lists an Input Type id before it, which the extension has not: it is left unchecked), is an
//   integer scalar; the result an integer scalar, for SinCos and SinCosPi two values as above.
// - SPV_INTEL_fpga_reg: the input, the last id operand (Debian's grammar lists a Result id
//   before it), has the result type.
// - SPV_INTEL_blocking_pipes: 32-bit integer Packet Size and Packet Alignment.
// - SPV_INTEL_function_pointers: OpConstantFunctionPointerINTEL names an OpFunction and gives a
//   pointer to its function type in CodeSectionINTEL; OpFunctionPointerCallINTEL calls through a
//   pointer and, when it points to an OpTypeFunction (producers of untyped pointers pass an 8-bit
//   integer pointer), passes that type's parameters and gets its return type. Untyped pointers
//   (SPV_KHR_untyped_pointers, which the structured IR cannot hold) are accepted as such.
// - SPV_INTEL_inline_assembly: OpAsmCallINTEL calls the result of an OpAsmINTEL and gives its
//   type.
// - SPV_INTEL_shader_integer_functions2 and SPV_INTEL_media_block_io: rows of the shared table,
//   as AVC motion estimation.
// - SPV_INTEL_split_barrier: OpControlBarrierArriveINTEL and OpControlBarrierWaitINTEL take only
//   a Scope <id> Execution, a Scope <id> Memory and a Memory Semantics <id>, which RulesAtomics
//   checks as it checks those of every instruction (32-bit integers, constants in shaders, values
//   that are scopes, semantics bits); nothing is left to check here.
// - SPV_INTEL_unstructured_loop_controls: OpLoopControlINTEL's operands are literals (the loop
//   controls and their parameters), with no type to check.
//
// Types are compared by id (FPGA registers, calls through function pointers, calls of inline
// assembly), where the structured IR compares uniqued types: the two differ only for identical
// aggregate or pointer types declared twice (SPIR-V 2.8 allows those), which val then rejects
// where the IR would not.
#include "OperandCheck.h"
#include "Rules.h"

#include <initializer_list>

namespace spire::val {

namespace {

constexpr const char *kFloat = "SPV_INTEL_arbitrary_precision_floating_point";
constexpr const char *kFixed = "SPV_INTEL_arbitrary_precision_fixed_point";
constexpr uint32_t kStorageCodeSectionINTEL = uint32_t(grammar::StorageClass::CodeSectionINTEL);
// By value: older grammars lack SPV_KHR_untyped_pointers.
constexpr Op kTypeUntypedPointer = static_cast<Op>(4417);

/// The literal integer operand named one of `names` (grammars name some differently), as its
/// name and value.
std::optional<std::pair<std::string_view, uint32_t>>
literalNamed(const Instruction &inst, std::initializer_list<std::string_view> names) {
  const grammar::InstructionDesc *d = inst.desc();
  auto ops = inst.operands();
  for (size_t i = 0; d != nullptr && i < ops.size() && i < d->operands.size(); ++i)
    if (ops[i].kind == grammar::OperandKind::LiteralInteger && ops[i].numWords == 1)
      for (std::string_view name : names)
        if (d->operands[i].name == name)
          return std::pair{name, inst.word(ops[i].offset)};
  return std::nullopt;
}

// --- Arbitrary precision floating and fixed point ----------------------------------------------

/// The width of each of the two values (sine and cosine) a SinCos result holds: a vector of two
/// integers, or an integer of even width; 0 (and an error) for any other result.
uint32_t sinCosValueWidth(OperandCheck &c) {
  State &s = c.state();
  const uint32_t r = c.resultType();
  const uint32_t w = s.isVectorType(r) ? (s.componentCount(r) == 2 ? s.bitWidth(r) : 0)
                                       : (s.bitWidth(r) % 2 == 0 ? s.bitWidth(r) / 2 : 0);
  if (w == 0)
    c.fail("the result type " + s.name(r) +
           " must be a vector of two integers or an integer of even width (the sine and the "
           "cosine)");
  return w;
}

bool intScalarResult(OperandCheck &c) {
  return c.result("an integer scalar", [&](uint32_t t) { return c.intScalar(t); });
}
bool intScalarOrVectorResult(OperandCheck &c) {
  return c.result("an integer scalar or vector",
                  [&](uint32_t t) { return c.state().isIntScalarOrVector(t); });
}
bool intScalarOperand(OperandCheck &c, const Instruction &inst, uint32_t word) {
  return c.operand(word, operandName(inst, word), "an integer scalar",
                   [&](uint32_t t) { return c.intScalar(t); });
}

enum class FloatKind { Values, Comparison, SinCos };

FloatKind floatKind(Op op) {
  switch (op) {
  case Op::ArbitraryFloatGTINTEL:
  case Op::ArbitraryFloatGEINTEL:
  case Op::ArbitraryFloatLTINTEL:
  case Op::ArbitraryFloatLEINTEL:
  case Op::ArbitraryFloatEQINTEL:
    return FloatKind::Comparison;
  case Op::ArbitraryFloatSinCosINTEL:
  case Op::ArbitraryFloatSinCosPiINTEL:
    return FloatKind::SinCos;
  default:
    return FloatKind::Values;
  }
}

// OpArbitraryFloat*INTEL %type %A M1 [%B M2] [Mout] ...: integers of 1 + E + M bits (sign,
// exponent, mantissa) whose mantissa widths M the literals give.
void arbitraryFloat(State &s, const Instruction &inst) {
  OperandCheck c(s, inst, kFloat);
  const FloatKind kind = floatKind(inst.opcode());
  const bool resultOk = kind == FloatKind::Comparison ? c.resultBool()
                        : kind == FloatKind::SinCos   ? intScalarOrVectorResult(c)
                                                      : intScalarResult(c);
  if (!resultOk)
    return;
  const std::vector<uint32_t> words = idOperandWords(inst);
  for (uint32_t word : words)
    if (!intScalarOperand(c, inst, word))
      return;
  uint32_t resultWidth = s.bitWidth(c.resultType());
  if (kind == FloatKind::SinCos && (resultWidth = sinCosValueWidth(c)) == 0)
    return;
  // "M must leave the sign bit room": M <= width - 1.
  auto fits = [&](std::initializer_list<std::string_view> names, uint32_t width,
                  const std::string &whose) {
    auto m = literalNamed(inst, names);
    return !m || m->second < width ||
           c.fail(std::string(m->first) + " (" + std::to_string(m->second) +
                  ") must be less than the " + std::to_string(width) + " bits of " + whose);
  };
  auto valueOf = [&](uint32_t word) {
    return operandName(inst, word) + " " + s.name(c.id(word)) + " (" + s.name(c.type(word)) + ")";
  };
  if (!words.empty() && !fits({"Ma", "M1"}, s.bitWidth(c.type(words[0])), valueOf(words[0])))
    return;
  if (words.size() > 1 && !fits({"Mb", "M2"}, s.bitWidth(c.type(words[1])), valueOf(words[1])))
    return;
  if (kind != FloatKind::Comparison)
    fits({"Mresult", "MResult", "Mout"}, resultWidth,
         (kind == FloatKind::SinCos ? "each value of the result type " : "the result type ") +
             s.name(c.resultType()));
}

// OpFixed*INTEL %type [%inputType] %input S I rI Q O: the literals place the binary point and
// say the signedness, which the types do not carry.
void fixedPoint(State &s, const Instruction &inst) {
  OperandCheck c(s, inst, kFixed);
  const bool sinCos =
      inst.opcode() == Op::FixedSinCosINTEL || inst.opcode() == Op::FixedSinCosPiINTEL;
  if (!(sinCos ? intScalarOrVectorResult(c) : intScalarResult(c)))
    return;
  const std::vector<uint32_t> words = idOperandWords(inst);
  if (words.empty() || !intScalarOperand(c, inst, words.back()))
    return;
  if (sinCos)
    sinCosValueWidth(c);
}

// --- FPGA registers, blocking pipes, function pointers, inline assembly ------------------------

// OpFPGARegINTEL %type [%result] %input
void fpgaReg(State &s, const Instruction &inst) {
  OperandCheck c(s, inst, "SPV_INTEL_fpga_reg");
  const std::vector<uint32_t> words = idOperandWords(inst);
  if (words.empty())
    return;
  c.operand(
      words.back(), operandName(inst, words.back()),
      [&] { return "of the result type " + s.name(c.resultType()); },
      [&](uint32_t t) { return t == c.resultType(); });
}

bool isAnyPointer(State &s, uint32_t t) {
  return s.isPointerType(t) || s.defOpcode(t) == kTypeUntypedPointer;
}

// OpConstantFunctionPointerINTEL %type %function
void constantFunctionPointer(State &s, const Instruction &inst) {
  OperandCheck c(s, inst, "SPV_INTEL_function_pointers");
  const uint32_t fn = c.id(3);
  std::optional<Instruction> def = s.def(fn);
  if (!def || def->opcode() != Op::Function) {
    c.fail("Function " + s.name(fn) + " must be the result of an OpFunction");
    return;
  }
  const uint32_t fnType = def->wordCount() >= 5 ? def->word(4) : 0;
  const uint32_t r = c.resultType();
  if (!c.result(
          [&] { return "a pointer to " + s.name(fnType) + ", the type of Function " + s.name(fn); },
          [&](uint32_t t) {
            return s.defOpcode(t) == kTypeUntypedPointer || s.pointeeType(t) == fnType;
          }))
    return;
  std::optional<Instruction> ptr = s.def(r);
  if (ptr && ptr->wordCount() >= 3 && ptr->word(2) != kStorageCodeSectionINTEL)
    c.fail("the result type " + s.name(r) + " must be in the CodeSectionINTEL storage class");
}

// OpFunctionPointerCallINTEL %type %pointer %arguments...
void functionPointerCall(State &s, const Instruction &inst) {
  OperandCheck c(s, inst, "SPV_INTEL_function_pointers");
  if (inst.wordCount() < 4)
    return;
  if (!c.operand(3, "Function Pointer", "a pointer",
                 [&](uint32_t t) { return isAnyPointer(s, t); }))
    return;
  const uint32_t fnType = s.pointeeType(c.type(3));
  std::optional<Instruction> fn = s.def(fnType);
  if (!fn || fn->opcode() != Op::TypeFunction || fn->wordCount() < 3)
    return;
  const uint32_t params = fn->wordCount() - 3, args = inst.wordCount() - 4;
  if (args != params) {
    c.fail("passes " + std::to_string(args) + " arguments to a function of type " + s.name(fnType) +
           ", which takes " + std::to_string(params));
    return;
  }
  for (uint32_t i = 0; i < args; ++i) {
    const uint32_t param = fn->word(3 + i);
    if (!c.operand(
            4 + i, "Argument",
            [&] {
              return "of type " + s.name(param) + " (parameter " + std::to_string(i) + " of " +
                     s.name(fnType) + ")";
            },
            [&](uint32_t t) { return t == param; }))
      return;
  }
  c.result([&] { return s.name(fn->word(2)) + ", the return type of " + s.name(fnType); },
           [&](uint32_t t) { return t == fn->word(2); });
}

// OpAsmCallINTEL %type %asm %arguments...
void asmCall(State &s, const Instruction &inst) {
  OperandCheck c(s, inst, "SPV_INTEL_inline_assembly");
  const uint32_t asmId = c.id(3);
  if (asmId == 0)
    return;
  if (s.defOpcode(asmId) != Op::AsmINTEL) {
    c.fail("Asm " + s.name(asmId) + " must be the result of an OpAsmINTEL");
    return;
  }
  const uint32_t asmType = c.type(3);
  c.result([&] { return s.name(asmType) + ", the type of Asm " + s.name(asmId); },
           [&](uint32_t t) { return asmType == 0 || t == asmType; });
}

bool isArbitraryFloat(uint32_t op) {
  return op >= uint32_t(Op::ArbitraryFloatSinCosPiINTEL) &&
         op <= uint32_t(Op::ArbitraryFloatPowNINTEL) &&
         State::opcodeName(static_cast<Op>(op)).starts_with("OpArbitraryFloat");
}

} // namespace

void checkIntel(State &s) {
  static_assert(uint32_t(Op::ArbitraryFloatSinCosPiINTEL) >= 4096 &&
                uint32_t(Op::FixedSqrtINTEL) >= 4096 &&
                uint32_t(Op::ReadPipeBlockingINTEL) >= 4096);
  if (!s.extensionOpcodes())
    return; // every instruction checked here is an extension's
  forEachInstruction(s, [&](const Instruction &inst, uint32_t op) {
    if (isArbitraryFloat(op)) {
      arbitraryFloat(s, inst);
      return;
    }
    switch (static_cast<Op>(op)) {
    case Op::FixedSqrtINTEL:
    case Op::FixedRecipINTEL:
    case Op::FixedRsqrtINTEL:
    case Op::FixedSinINTEL:
    case Op::FixedCosINTEL:
    case Op::FixedSinCosINTEL:
    case Op::FixedSinPiINTEL:
    case Op::FixedCosPiINTEL:
    case Op::FixedSinCosPiINTEL:
    case Op::FixedLogINTEL:
    case Op::FixedExpINTEL:
      fixedPoint(s, inst);
      break;
    case Op::FPGARegINTEL:
      fpgaReg(s, inst);
      break;
    case Op::ReadPipeBlockingINTEL:
    case Op::WritePipeBlockingINTEL: {
      // %type %packetSize %packetAlignment (the grammar's; the extension puts the pipe and the
      // pointer first)
      OperandCheck c(s, inst, "SPV_INTEL_blocking_pipes");
      c.int32(3, "Packet Size") && c.int32(4, "Packet Alignment");
      break;
    }
    case Op::ConstantFunctionPointerINTEL:
      constantFunctionPointer(s, inst);
      break;
    case Op::FunctionPointerCallINTEL:
      functionPointerCall(s, inst);
      break;
    case Op::AsmCallINTEL:
      asmCall(s, inst);
      break;
    case Op::ControlBarrierArriveINTEL: // scopes and semantics only: RulesAtomics
    case Op::ControlBarrierWaitINTEL:
    case Op::LoopControlINTEL: // literals only
      break;
    default:
      break;
    }
  });
}

} // namespace spire::val
