// The verifier's type rules for INTEL vendor ops (VerifierTypes.cpp): AVC motion estimation
// beyond its evaluations, arbitrary precision floating and fixed point, FPGA registers, blocking
// pipes, function pointers and calls of inline assembly. Ops whose operands differ between the
// grammars spire builds with (Debian's and newer SPIRV-Headers) are written from this build's
// operand mapping.
#include "Verdict.h"
#include "spire/dialect/Ops.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

using namespace spire;
using namespace spire::dialect;
using spire::dialect::test::verdict;

namespace {

/// The name an op prints under in this build's grammar (SPIR-V 1.6 revision 7 renamed the FPGA
/// instructions of SPV_INTEL_* ALTERA; the INTEL names still find them).
std::string canonOp(std::string_view name) {
  const OpInfo *info = findOp(name);
  return info ? std::string(info->name) : std::string(name);
}

/// The name this build's grammar gives the first of `names` among `op`'s literal attributes,
/// or "".
std::string attributeNamed(std::string_view op, std::initializer_list<std::string_view> names) {
  const OpInfo *info = findOp(op);
  for (std::string_view name : names)
    for (const OperandMapping &m : info ? info->operands : std::span<const OperandMapping>())
      if (m.kind == OperandMapping::Kind::Attribute && m.name == name)
        return std::string(name);
  return {};
}

/// The literal attributes of an arbitrary precision op, all 0 but (floating point) the mantissa
/// widths of A, B and the result.
std::string literalAttributes(std::string_view op, unsigned a, unsigned b, unsigned result) {
  std::string out;
  for (const OperandMapping &m : findOp(op)->operands) {
    if (m.kind != OperandMapping::Kind::Attribute)
      continue;
    unsigned v = m.name == "ma" || m.name == "m1"                                  ? a
                 : m.name == "mb" || m.name == "m2"                                ? b
                 : m.name == "mresult" || m.name == "m_result" || m.name == "mout" ? result
                                                                                   : 0;
    out += (out.empty() ? "" : ", ") + std::string(m.name) + " = " + std::to_string(v) + " : i32";
  }
  return "{" + out + "}";
}

/// How many value operands `op` takes in this build's grammar (OpFixed*INTEL and
/// OpFPGARegINTEL take one more in Debian's).
size_t valueOperands(std::string_view op) {
  size_t n = 0;
  for (const OperandMapping &m : findOp(op)->operands)
    n += m.kind == OperandMapping::Kind::Value;
  return n;
}

/// `%name, ` repeated before a last `%last` to make `op`'s value operands, with their types.
struct Operands {
  std::string values, types;
};
Operands leading(std::string_view op, std::string_view name, std::string_view type,
                 std::string_view last, std::string_view lastType) {
  Operands o;
  for (size_t i = 1; i < valueOperands(op); ++i) {
    o.values += "%" + std::string(name) + ", ";
    o.types += std::string(type) + ", ";
  }
  o.values += "%" + std::string(last);
  o.types += lastType;
  return o;
}

} // namespace

TEST(DialectVerifierTypes, MotionEstimationPayloadsAndResultsHaveTheirKindsAndWidths) {
  std::string_view params =
      "%mp: !spirv.avc_mce_payload_intel, %ip: !spirv.avc_ime_payload_intel, "
      "%mr: !spirv.avc_mce_result_intel, %ir: !spirv.avc_ime_result_intel, "
      "%so: !spirv.avc_ime_result_single_reference_streamout_intel, "
      "%sp: !spirv.avc_sic_payload_intel, %sr: !spirv.avc_sic_result_intel, %b: i8, %h: i16, "
      "%w: i32, %l: i64, %c: vector<2xi16>, %t: vector<2xi32>";
  auto op = [&](std::string_view name, std::string_view operands, std::string_view types,
                std::string_view result) {
    return verdict(params, "%0 = \"spirv.INTEL.SubgroupAvc" + std::string(name) + "\"(" +
                               std::string(operands) + ") : (" + std::string(types) + ") -> " +
                               std::string(result));
  };
  // MCE: defaults by slice type and Qp, setters of the generic payload, conversions.
  EXPECT_EQ(op("MceGetDefaultInterShapePenalty", "%b, %b", "i8, i8", "i64"), "");
  EXPECT_EQ(op("MceGetDefaultInterShapePenalty", "%b, %b", "i8, i8", "i32"),
            "'spirv.INTEL.SubgroupAvcMceGetDefaultInterShapePenalty' op result #0 must be 64-bit "
            "integer, but got 'i32'");
  EXPECT_EQ(op("MceGetDefaultInterMotionVectorCostTable", "%b, %w", "i8, i32", "vector<2xi32>"),
            "'spirv.INTEL.SubgroupAvcMceGetDefaultInterMotionVectorCostTable' op operand #1 must "
            "be 8-bit integer, but got 'i32'");
  EXPECT_EQ(op("MceSetMotionVectorCostFunction", "%l, %t, %b, %mp",
               "i64, vector<2xi32>, i8, !spirv.avc_mce_payload_intel",
               "!spirv.avc_mce_payload_intel"),
            "");
  EXPECT_EQ(op("MceSetInterShapePenalty", "%l, %ip", "i64, !spirv.avc_ime_payload_intel",
               "!spirv.avc_mce_payload_intel"),
            "'spirv.INTEL.SubgroupAvcMceSetInterShapePenalty' op operand #1 must be a generic MCE "
            "payload, but got '!spirv.avc_ime_payload_intel'");
  EXPECT_EQ(op("ImeConvertToMcePayload", "%ip", "!spirv.avc_ime_payload_intel",
               "!spirv.avc_mce_payload_intel"),
            "");
  EXPECT_EQ(op("MceConvertToImeResult", "%ir", "!spirv.avc_ime_result_intel",
               "!spirv.avc_ime_result_intel"),
            "'spirv.INTEL.SubgroupAvcMceConvertToImeResult' op operand #0 must be a generic MCE "
            "result, but got '!spirv.avc_ime_result_intel'");
  // The MCE result readers take the generic result (as producers pass it) or the IME result
  // (as the extension's text says).
  EXPECT_EQ(op("MceGetMotionVectors", "%mr", "!spirv.avc_mce_result_intel", "i64"), "");
  EXPECT_EQ(op("MceGetMotionVectors", "%ir", "!spirv.avc_ime_result_intel", "i64"), "");
  EXPECT_EQ(op("MceGetMotionVectors", "%sr", "!spirv.avc_sic_result_intel", "i64"),
            "'spirv.INTEL.SubgroupAvcMceGetMotionVectors' op operand #0 must be an IME result or "
            "generic MCE result, but got '!spirv.avc_sic_result_intel'");
  // IME: coordinates and offsets are pairs of 16-bit integers; every setter gives the payload.
  EXPECT_EQ(
      op("ImeInitialize", "%c, %b, %b", "vector<2xi16>, i8, i8", "!spirv.avc_ime_payload_intel"),
      "");
  EXPECT_EQ(
      op("ImeInitialize", "%t, %b, %b", "vector<2xi32>, i8, i8", "!spirv.avc_ime_payload_intel"),
      "'spirv.INTEL.SubgroupAvcImeInitialize' op operand #0 must be vector of 16-bit integer "
      "values of length 2, but got 'vector<2xi32>'");
  EXPECT_EQ(op("ImeSetEarlySearchTerminationThreshold", "%b, %ip",
               "i8, !spirv.avc_ime_payload_intel", "i8"),
            "'spirv.INTEL.SubgroupAvcImeSetEarlySearchTerminationThreshold' op result #0 must be "
            "an IME payload, but got 'i8'");
  EXPECT_EQ(op("ImeGetStreamoutSingleReferenceMajorShapeDistortions", "%so, %b",
               "!spirv.avc_ime_result_single_reference_streamout_intel, i8", "i16"),
            "");
  EXPECT_EQ(
      op("ImeGetStreamoutSingleReferenceMajorShapeDistortions", "%ir, %b",
         "!spirv.avc_ime_result_intel, i8", "i16"),
      "'spirv.INTEL.SubgroupAvcImeGetStreamoutSingleReferenceMajorShapeDistortions' op operand #0 "
      "must be an IME single-reference streamout result, but got '!spirv.avc_ime_result_intel'");
  // REF: motion vectors are packed in 64 bits.
  EXPECT_EQ(
      op("FmeInitialize", "%c, %w, %b, %b, %b, %b, %b", "vector<2xi16>, i32, i8, i8, i8, i8, i8",
         "!spirv.avc_ref_payload_intel"),
      "'spirv.INTEL.SubgroupAvcFmeInitialize' op operand #1 must be 64-bit integer, but got 'i32'");
  // SIC: the skip block partition type is 8-bit in the text, 32-bit in the built-ins; the
  // chroma edge pixels 8-bit and 16-bit.
  for (std::string_view partition : {"%b, %w", "%w, %w"}) {
    std::string types = partition == "%b, %w" ? "i8, i32" : "i32, i32";
    EXPECT_EQ(op("SicConfigureSkc", std::string(partition) + ", %l, %b, %b, %sp",
                 types + ", i64, i8, i8, !spirv.avc_sic_payload_intel",
                 "!spirv.avc_sic_payload_intel"),
              "");
  }
  EXPECT_EQ(op("SicConfigureSkc", "%h, %w, %l, %b, %b, %sp",
               "i16, i32, i64, i8, i8, !spirv.avc_sic_payload_intel",
               "!spirv.avc_sic_payload_intel"),
            "'spirv.INTEL.SubgroupAvcSicConfigureSkc' op operand #0 must be 8/32-bit integer, but "
            "got 'i16'");
  EXPECT_EQ(op("SicConfigureIpeLumaChroma", "%b, %b, %b, %b, %b, %b, %h, %h, %b, %b, %sp",
               "i8, i8, i8, i8, i8, i8, i16, i16, i8, i8, !spirv.avc_sic_payload_intel",
               "!spirv.avc_sic_payload_intel"),
            "");
  EXPECT_EQ(op("SicGetPackedSkcLumaSumThreshold", "%sr", "!spirv.avc_sic_result_intel", "i32"),
            "'spirv.INTEL.SubgroupAvcSicGetPackedSkcLumaSumThreshold' op result #0 must be 64-bit "
            "integer, but got 'i32'");
}

TEST(DialectVerifierTypes, ArbitraryPrecisionFloatsAreIntegersWideEnoughForTheirMantissas) {
  std::string_view params = "%a: i13, %v: vector<2xi13>, %l: i64, %x: f32";
  auto op = [&](std::string_view name, std::string_view operands, std::string_view types,
                std::string_view result, unsigned ma, unsigned mb, unsigned mr) {
    std::string full = "spirv.INTEL.ArbitraryFloat" + std::string(name);
    return verdict(params, "%0 = \"" + full + "\"(" + std::string(operands) + ") " +
                               literalAttributes(full, ma, mb, mr) + " : (" + std::string(types) +
                               ") -> " + std::string(result));
  };
  // Grammars name the mantissa widths differently, op by op (M1 or Ma, Mout, Mresult or
  // MResult).
  auto ma = [](std::string_view name) {
    return attributeNamed("spirv.INTEL.ArbitraryFloat" + std::string(name), {"ma", "m1"});
  };
  auto mresult = [](std::string_view name) {
    return attributeNamed("spirv.INTEL.ArbitraryFloat" + std::string(name),
                          {"mresult", "m_result", "mout"});
  };
  // 1 sign bit, 5 exponent bits, 7 mantissa bits; into 1 + 8 + 7 bits.
  EXPECT_EQ(op("Add", "%a, %a", "i13, i13", "i16", 7, 7, 7), "");
  EXPECT_EQ(op("Add", "%a, %a", "i13, i13", "i13", 13, 7, 7),
            "'" + canonOp("spirv.INTEL.ArbitraryFloatAdd") + "' op " + ma("Add") +
                " (13) must be less than the 13 bits of operand 0 (i13)");
  EXPECT_EQ(op("Sqrt", "%a", "i13", "i16", 7, 0, 16),
            "'" + canonOp("spirv.INTEL.ArbitraryFloatSqrt") + "' op " + mresult("Sqrt") +
                " (16) must be less than the 16 bits of the result (i16)");
  EXPECT_EQ(op("Mul", "%a, %v", "i13, vector<2xi13>", "i13", 7, 7, 7),
            "'spirv.ALTERA.ArbitraryFloatMul' op operand #1 must be 8/16/32/64-bit integer, but "
            "got 'vector<2xi13>'");
  EXPECT_EQ(op("Exp", "%x", "f32", "i13", 7, 0, 7),
            "'spirv.INTEL.ArbitraryFloatExp' op operand #0 must be 8/16/32/64-bit integer, but got "
            "'f32'");
  // Comparisons give a bool.
  EXPECT_EQ(op("GT", "%a, %a", "i13, i13", "i1", 7, 7, 0), "");
  EXPECT_EQ(op("EQ", "%a, %a", "i13, i13", "i13", 7, 7, 0),
            "'spirv.ALTERA.ArbitraryFloatEQ' op result #0 must be bool, but got 'i13'");
  // Casts from integers take any integer; PowN's exponent is an integer of any width.
  EXPECT_EQ(op("CastFromInt", "%l", "i64", "i13", 0, 0, 7), "");
  EXPECT_EQ(op("PowN", "%a, %l", "i13, i64", "i13", 7, 0, 7), "");
  // SinCos gives two values: a vector of two, or an integer of twice their width.
  EXPECT_EQ(op("SinCos", "%a", "i13", "vector<2xi13>", 7, 0, 7), "");
  EXPECT_EQ(op("SinCosPi", "%a", "i13", "i26", 7, 0, 7), "");
  EXPECT_EQ(op("SinCos", "%a", "i13", "i25", 7, 0, 7),
            "'" + canonOp("spirv.INTEL.ArbitraryFloatSinCos") +
                "' op the result (i25) must be a vector of two integers "
                "or an integer of even width (the sine and the cosine)");
  EXPECT_EQ(op("SinCos", "%a", "i13", "vector<3xi13>", 7, 0, 7),
            "'" + canonOp("spirv.INTEL.ArbitraryFloatSinCos") +
                "' op the result (vector<3xi13>) must be a vector of two "
                "integers or an integer of even width (the sine and the cosine)");
  EXPECT_EQ(op("SinCos", "%a", "i13", "i26", 7, 0, 13),
            "'" + canonOp("spirv.INTEL.ArbitraryFloatSinCos") + "' op " + mresult("SinCos") +
                " (13) must be less than the 13 bits of each value of the result (i26)");
}

TEST(DialectVerifierTypes, ArbitraryPrecisionFixedPointTakesAndGivesIntegers) {
  std::string_view params = "%a: i13, %x: f32";
  auto op = [&](std::string_view name, std::string_view input, std::string_view inputType,
                std::string_view result) {
    std::string full = "spirv.INTEL.Fixed" + std::string(name);
    Operands o = leading(full, "a", "i13", input, inputType);
    return verdict(params, "%0 = \"" + full + "\"(" + o.values + ") " +
                               literalAttributes(full, 0, 0, 0) + " : (" + o.types + ") -> " +
                               std::string(result));
  };
  const std::string input = std::to_string(valueOperands("spirv.INTEL.FixedSqrt") - 1);
  EXPECT_EQ(op("Sqrt", "a", "i13", "i16"), "");
  EXPECT_EQ(op("Sqrt", "x", "f32", "i16"), "'" + canonOp("spirv.INTEL.FixedSqrt") +
                                               "' op operand " + input +
                                               " (the input) must be an integer scalar, not f32");
  EXPECT_EQ(op("Exp", "a", "i13", "f32"),
            "'spirv.ALTERA.FixedExp' op result #0 must be 8/16/32/64-bit integer, but got 'f32'");
  EXPECT_EQ(op("SinCos", "a", "i13", "vector<2xi16>"), "");
  EXPECT_EQ(op("SinCosPi", "a", "i13", "i32"), "");
  EXPECT_EQ(op("SinCosPi", "a", "i13", "i31"),
            "'" + canonOp("spirv.INTEL.FixedSinCosPi") +
                "' op the result (i31) must be a vector of two integers or an "
                "integer of even width (the sine and the cosine)");
}

TEST(DialectVerifierTypes, FpgaRegistersBlockingPipesFunctionPointersAndAsmCallsFollowIntel) {
  std::string_view params = "%x: f32, %i: i32, %l: i64, %fp: !spirv.ptr<(i32) -> f32, "
                            "CodeSectionINTEL>, %q: !spirv.ptr<i8, CrossWorkgroup>";
  // FPGAReg passes its input through (Debian's grammar has a Result operand before it).
  auto reg = [&](std::string_view input, std::string_view type, std::string_view result) {
    Operands o = leading("spirv.INTEL.FPGAReg", "x", "f32", input, type);
    return verdict(params, "%0 = \"spirv.INTEL.FPGAReg\"(" + o.values + ") : (" + o.types +
                               ") -> " + std::string(result));
  };
  const std::string input = std::to_string(valueOperands("spirv.INTEL.FPGAReg") - 1);
  EXPECT_EQ(reg("x", "f32", "f32"), "");
  EXPECT_EQ(reg("i", "i32", "f32"), "'" + canonOp("spirv.INTEL.FPGAReg") + "' op operand " + input +
                                        " (i32) must have the result's type (f32)");
  // Blocking pipes: a 32-bit packet size and alignment, the last two operands. Grammars before
  // SPIR-V 1.6 revision 7 give the instructions a result and only those two operands; later ones
  // a pipe and a pointer first, and no result.
  auto pipe = [&](std::string_view op, std::string_view size, std::string_view sizeType) {
    const std::string name = "spirv.INTEL." + std::string(op);
    if (findOp(name)->hasResultType())
      return verdict(params, "%0 = \"" + name + "\"(%" + std::string(size) + ", %i) : (" +
                                 std::string(sizeType) + ", i32) -> i32");
    return verdict(params, "\"" + name + "\"(%q, %q, %" + std::string(size) +
                               ", %i) : (!spirv.ptr<i8, CrossWorkgroup>, !spirv.ptr<i8, "
                               "CrossWorkgroup>, " +
                               std::string(sizeType) + ", i32) -> ()");
  };
  EXPECT_EQ(pipe("ReadPipeBlocking", "i", "i32"), "");
  const std::string sizeOperand =
      findOp("spirv.INTEL.WritePipeBlocking")->hasResultType() ? "0" : "2";
  EXPECT_EQ(pipe("WritePipeBlocking", "l", "i64"),
            "'" + canonOp("spirv.INTEL.WritePipeBlocking") + "' op operand " + sizeOperand +
                " (the packet size) must be a 32-bit integer, not i64");
  // A constant function pointer points to its function's type, in CodeSectionINTEL.
  std::string_view g = "  spirv.func @g(%a: i32) -> i32 \"None\" {\n"
                       "    spirv.ReturnValue %a : i32\n  }";
  auto pointer = [&](std::string_view result) {
    return verdict(params,
                   "%fn = spirv.mlir.referenceof @g : (i32) -> i32\n    "
                   "%0 = \"spirv.INTEL.ConstantFunctionPointer\"(%fn) : ((i32) -> i32) -> " +
                       std::string(result),
                   g);
  };
  EXPECT_EQ(pointer("!spirv.ptr<(i32) -> i32, CodeSectionINTEL>"), "");
  EXPECT_EQ(pointer("!spirv.ptr<(i32) -> f32, CodeSectionINTEL>"),
            "'spirv.INTEL.ConstantFunctionPointer' op the result (!spirv.ptr<(i32) -> f32, "
            "CodeSectionINTEL>) must point to operand 0's type ((i32) -> i32)");
  EXPECT_EQ(
      pointer("!spirv.ptr<(i32) -> i32, Function>"),
      "'spirv.INTEL.ConstantFunctionPointer' op the result (!spirv.ptr<(i32) -> i32, Function>) "
      "must be in the CodeSectionINTEL storage class");
  EXPECT_EQ(
      verdict(params, "%0 = \"spirv.INTEL.ConstantFunctionPointer\"(%i) : (i32) -> "
                      "!spirv.ptr<i32, CodeSectionINTEL>"),
      "'spirv.INTEL.ConstantFunctionPointer' op operand #0 must be a function, but got 'i32'");
  // A call through a function pointer passes its parameters and gets its result; a pointer to
  // i8 (untyped pointers) says nothing of the function.
  auto call = [&](std::string_view operands, std::string_view types, std::string_view result) {
    return verdict(params, "%0 = \"spirv.INTEL.FunctionPointerCall\"(" + std::string(operands) +
                               ") : (" + std::string(types) + ") -> " + std::string(result));
  };
  std::string fpType = "!spirv.ptr<(i32) -> f32, CodeSectionINTEL>";
  EXPECT_EQ(call("%fp, %i", fpType + ", i32", "f32"), "");
  EXPECT_EQ(call("%q, %l, %x", "!spirv.ptr<i8, CrossWorkgroup>, i64, f32", "i32"), "");
  EXPECT_EQ(
      call("%fp, %x", fpType + ", f32", "f32"),
      "'spirv.INTEL.FunctionPointerCall' op operand 1 (f32) must have parameter 0's type (i32)");
  EXPECT_EQ(
      call("%fp", fpType, "f32"),
      "'spirv.INTEL.FunctionPointerCall' op passes 0 arguments to a function of type (i32) -> "
      "f32, which takes 1");
  EXPECT_EQ(call("%fp, %i", fpType + ", i32", "i32"),
            "'spirv.INTEL.FunctionPointerCall' op the result (i32) must have the return type of "
            "(i32) -> f32 (f32)");
  EXPECT_EQ(call("%i, %i", "i32, i32", "i32"), "'spirv.INTEL.FunctionPointerCall' op operand #0 "
                                               "must be any SPIR-V pointer type, but got 'i32'");
  // A call of inline assembly gives the assembly's type (its function type's return type).
  std::string asmOp = "%a = \"spirv.INTEL.Asm\"(%i, %i) {asm_instructions = \"nop\", "
                      "constraints = \"\"} : (i32, i32) -> i32\n    ";
  EXPECT_EQ(verdict(params, asmOp + "%0 = \"spirv.INTEL.AsmCall\"(%a, %x) : (i32, f32) -> i32"),
            "");
  EXPECT_EQ(verdict(params, asmOp + "%0 = \"spirv.INTEL.AsmCall\"(%a) : (i32) -> f32"),
            "'spirv.INTEL.AsmCall' op the result (f32) must have operand 0's type (i32)");
  EXPECT_EQ(verdict(params, "%0 = \"spirv.INTEL.AsmCall\"(%i) : (i32) -> i32"),
            "'spirv.INTEL.AsmCall' op operand 0 must be a spirv.INTEL.Asm");
}
