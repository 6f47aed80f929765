// The operand and result types of INTEL vendor instructions (RulesIntel.cpp): AVC motion
// estimation, arbitrary precision floating and fixed point, FPGA registers, blocking pipes,
// function pointers and calls of inline assembly, with the decisions of the structured IR's
// verifier. Instructions whose operands differ between the grammars spire builds with (Debian's
// and newer SPIRV-Headers) are written from this build's grammar.
#include "InstructionPool.h"
#include "ValTestUtil.h"
#include "spire/grammar/Grammar.h"

#include <functional>
#include <map>
#include <vector>

namespace spire::val {
namespace {

using grammar::OperandKind;

/// The text of instruction `op` with result `%result` of type `%type`: its id operands are
/// `ids` in order, each literal integer the value `literal` gives for its grammar name (0 when
/// it gives none).
/// The name this build's grammar gives an instruction (SPIR-V 1.6 revision 7 renamed the FPGA
/// instructions of SPV_INTEL_* from INTEL to ALTERA, keeping the INTEL names as aliases).
std::string canon(std::string_view opname) {
  const grammar::InstructionDesc *d = grammar::findInstruction(opname);
  return d ? std::string(d->name) : std::string(opname);
}

std::string instruction(std::string_view op, std::string_view result, std::string_view type,
                        const std::vector<std::string> &ids,
                        const std::map<std::string, uint32_t> &literal = {}) {
  const grammar::InstructionDesc *d = grammar::findInstruction(op);
  EXPECT_NE(d, nullptr) << op;
  if (d == nullptr)
    return {};
  std::string text = "%" + std::string(result) + " = " + std::string(op) + " %" + std::string(type);
  size_t next = 0;
  for (const grammar::OperandDesc &o : d->operands) {
    if (o.kind == OperandKind::IdRef) {
      EXPECT_LT(next, ids.size()) << op;
      text += " %" + (next < ids.size() ? ids[next++] : std::string("missing"));
    } else if (o.kind == OperandKind::LiteralInteger) {
      auto it = literal.find(std::string(o.name));
      text += " " + std::to_string(it == literal.end() ? 0 : it->second);
    }
  }
  EXPECT_EQ(next, ids.size()) << op << ": " << text;
  return text + "\n";
}

/// How many id operands `op` has in this build's grammar.
size_t idOperandCount(std::string_view op) {
  size_t n = 0;
  for (const grammar::OperandDesc &o : grammar::findInstruction(op)->operands)
    n += o.kind == OperandKind::IdRef;
  return n;
}

/// The first of `names` that `op`'s grammar entry gives one of its operands.
std::string operandNamed(std::string_view op, std::initializer_list<std::string_view> names) {
  for (std::string_view name : names)
    for (const grammar::OperandDesc &o : grammar::findInstruction(op)->operands)
      if (o.name == name)
        return std::string(name);
  return {};
}

/// `ids` after as many copies of `lead` as the grammar has id operands before them (OpFixed*INTEL
/// and OpFPGARegINTEL take one more in Debian's grammar).
std::vector<std::string> withLeading(std::string_view op, std::string lead,
                                     std::vector<std::string> ids) {
  while (ids.size() < idOperandCount(op))
    ids.insert(ids.begin(), lead);
  return ids;
}

// --- AVC motion estimation --------------------------------------------------------------------

// A kernel taking two images, a sampler, integers of 8, 16, 32 and 64 bits (%b, %h, %w, %l), a
// float %x, pairs of 16- and 32-bit integers (%c, %t) and a payload or result of each kind;
// BODY is its code.
constexpr const char *kAvcKernel = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Int8
OpCapability Int16
OpCapability Int64
OpCapability SubgroupAvcMotionEstimationINTEL
OpCapability SubgroupAvcMotionEstimationIntraINTEL
OpCapability SubgroupAvcMotionEstimationChromaINTEL
OpExtension "SPV_INTEL_device_side_avc_motion_estimation"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
OpName %src "src"
OpName %ref "ref"
OpName %smp "smp"
OpName %b "b"
OpName %h "h"
OpName %w "w"
OpName %l "l"
OpName %x "x"
OpName %c "c"
OpName %t "t"
OpName %mp "mp"
OpName %ir "ir"
OpName %so "so"
OpName %sr "sr"
OpName %sp "sp"
OpName %img "img"
OpName %vme "vme"
OpName %vme3d "vme3d"
OpName %sicp "sicp"
OpName %refr "refr"
%void = OpTypeVoid
%uchar = OpTypeInt 8 0
%ushort = OpTypeInt 16 0
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%v2ushort = OpTypeVector %ushort 2
%v2uint = OpTypeVector %uint 2
%img = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly
%img3d = OpTypeImage %void 3D 0 0 0 0 Unknown ReadOnly
%sampler = OpTypeSampler
%vme = OpTypeVmeImageINTEL %img
%vme3d = OpTypeVmeImageINTEL %img3d
%mcep = OpTypeAvcMcePayloadINTEL
%imep = OpTypeAvcImePayloadINTEL
%refp = OpTypeAvcRefPayloadINTEL
%sicp = OpTypeAvcSicPayloadINTEL
%mcer = OpTypeAvcMceResultINTEL
%imer = OpTypeAvcImeResultINTEL
%refr = OpTypeAvcRefResultINTEL
%sicr = OpTypeAvcSicResultINTEL
%sout = OpTypeAvcImeResultSingleReferenceStreamoutINTEL
%sin = OpTypeAvcImeSingleReferenceStreaminINTEL
%kfn = OpTypeFunction %void %img %img %sampler %uchar %ushort %uint %ulong %float %v2ushort %v2uint %mcep %imer %sout %sicr %sicp
%k = OpFunction %void None %kfn
%src = OpFunctionParameter %img
%ref = OpFunctionParameter %img
%smp = OpFunctionParameter %sampler
%b = OpFunctionParameter %uchar
%h = OpFunctionParameter %ushort
%w = OpFunctionParameter %uint
%l = OpFunctionParameter %ulong
%x = OpFunctionParameter %float
%c = OpFunctionParameter %v2ushort
%t = OpFunctionParameter %v2uint
%mp = OpFunctionParameter %mcep
%ir = OpFunctionParameter %imer
%so = OpFunctionParameter %sout
%sr = OpFunctionParameter %sicr
%sp = OpFunctionParameter %sicp
%e = OpLabel
BODY
OpReturn
OpFunctionEnd
)";

Report avcKernel(std::string_view body) {
  return test::validateText(test::replaced(kAvcKernel, "BODY", body));
}

TEST(ValIntel, MotionEstimationPayloadsFlowThroughAnEvaluation) {
  EXPECT_VALID(avcKernel(
      "%ip = OpSubgroupAvcImeInitializeINTEL %imep %c %b %b\n"
      "%ip2 = OpSubgroupAvcImeSetSingleReferenceINTEL %imep %c %b %ip\n"
      "%vs = OpVmeImageINTEL %vme %src %smp\n"
      "%vr = OpVmeImageINTEL %vme %ref %smp\n"
      "%r = OpSubgroupAvcImeEvaluateWithSingleReferenceINTEL %imer %vs %vr %ip2\n"
      "%so2 = OpSubgroupAvcImeEvaluateWithSingleReferenceStreamoutINTEL %sout %vs %vr %ip2\n"
      "%si = OpSubgroupAvcImeGetSingleReferenceStreaminINTEL %sin %so2\n"
      "%mr = OpSubgroupAvcImeConvertToMceResultINTEL %mcer %r\n"
      "%mv = OpSubgroupAvcMceGetMotionVectorsINTEL %ulong %mr\n"
      "%d = OpSubgroupAvcMceGetInterDistortionsINTEL %ushort %mr\n"
      "%pen = OpSubgroupAvcMceGetDefaultInterShapePenaltyINTEL %ulong %b %b\n"
      "%cost = OpSubgroupAvcMceGetDefaultHighPenaltyCostTableINTEL %v2uint\n"
      "%mp2 = OpSubgroupAvcMceSetMotionVectorCostFunctionINTEL %mcep %l %cost %b %mp\n"
      "%rp = OpSubgroupAvcMceConvertToRefPayloadINTEL %refp %mp2\n"
      "%fp = OpSubgroupAvcFmeInitializeINTEL %refp %c %l %b %b %b %b %b\n"
      "%rr = OpSubgroupAvcRefEvaluateWithMultiReferenceInterlacedINTEL %refr %vs %w %b %fp\n"
      "%sp2 = OpSubgroupAvcSicConfigureIpeLumaChromaINTEL %sicp %b %b %b %b %b %b %h %h %h %b "
      "%sp\n"
      "%shape = OpSubgroupAvcSicGetIpeLumaShapeINTEL %uchar %sr"));
}

TEST(ValIntel, MotionEstimationInstructionsTakeAndGiveTheirKindsAndWidths) {
  // The example of the verifier's rules: a 32-bit integer read as a result, a float given.
  EXPECT_ERROR(avcKernel("%mv = OpSubgroupAvcMceGetMotionVectorsINTEL %float %w"),
               "OpSubgroupAvcMceGetMotionVectorsINTEL: the result type %float must be a 64-bit "
               "integer scalar");
  EXPECT_TRUE(test::hasError(avcKernel("%mv = OpSubgroupAvcMceGetMotionVectorsINTEL %ulong %w"),
                             "OpSubgroupAvcMceGetMotionVectorsINTEL: Payload %w must be an "
                             "OpTypeAvcMceResultINTEL or OpTypeAvcImeResultINTEL",
                             "SPV_INTEL_device_side_avc_motion_estimation"));
  // The MCE result readers take the generic result (the built-ins) or the IME result (the text).
  EXPECT_VALID(avcKernel("%mv = OpSubgroupAvcMceGetMotionVectorsINTEL %ulong %ir"));
  EXPECT_ERROR(avcKernel("%mv = OpSubgroupAvcMceGetMotionVectorsINTEL %ulong %sr"),
               "Payload %sr must be an OpTypeAvcMceResultINTEL or OpTypeAvcImeResultINTEL");
  EXPECT_ERROR(avcKernel("%p = OpSubgroupAvcMceSetInterShapePenaltyINTEL %mcep %w %mp"),
               "OpSubgroupAvcMceSetInterShapePenaltyINTEL: Packed Shape Penalty %w must be a "
               "64-bit integer scalar");
  EXPECT_ERROR(avcKernel("%p = OpSubgroupAvcMceConvertToImePayloadINTEL %imep %sp"),
               "OpSubgroupAvcMceConvertToImePayloadINTEL: Payload %sp must be an "
               "OpTypeAvcMcePayloadINTEL");
  EXPECT_ERROR(avcKernel("%p = OpSubgroupAvcMceConvertToImePayloadINTEL %sicp %mp"),
               "OpSubgroupAvcMceConvertToImePayloadINTEL: the result type %sicp must be an "
               "OpTypeAvcImePayloadINTEL");
  // Coordinates are pairs of 16-bit integers, cost tables pairs of 32-bit ones.
  EXPECT_ERROR(avcKernel("%ip = OpSubgroupAvcImeInitializeINTEL %imep %t %b %b"),
               "OpSubgroupAvcImeInitializeINTEL: Src Coord %t must be a vector of two 16-bit "
               "integers");
  EXPECT_ERROR(avcKernel("%cost = OpSubgroupAvcMceGetDefaultLowPenaltyCostTableINTEL %v2ushort"),
               "the result type %v2ushort must be a vector of two 32-bit integers");
  // Every setter gives the payload it updates (the text gives this one an 8-bit integer).
  EXPECT_ERROR(avcKernel("%p = OpSubgroupAvcImeSetEarlySearchTerminationThresholdINTEL %uchar "
                         "%b %mp"),
               "OpSubgroupAvcImeSetEarlySearchTerminationThresholdINTEL: the result type %uchar "
               "must be an OpTypeAvcImePayloadINTEL");
  // Streamouts are read by major shape.
  EXPECT_VALID(avcKernel(
      "%d = OpSubgroupAvcImeGetStreamoutSingleReferenceMajorShapeDistortionsINTEL %ushort %so "
      "%b"));
  EXPECT_ERROR(
      avcKernel("%d = OpSubgroupAvcImeGetStreamoutSingleReferenceMajorShapeDistortionsINTEL "
                "%ushort %ir %b"),
      "Payload %ir must be an OpTypeAvcImeResultSingleReferenceStreamoutINTEL");
  // SIC: the skip block partition type is 8-bit (the text) or 32-bit (the built-in), the chroma
  // edge pixels 8- or 16-bit.
  for (const char *partition : {"%b", "%w"})
    EXPECT_VALID(avcKernel(std::string("%p = OpSubgroupAvcSicConfigureSkcINTEL %sicp ") +
                           partition + " %w %l %b %b %sp"));
  EXPECT_ERROR(avcKernel("%p = OpSubgroupAvcSicConfigureSkcINTEL %sicp %h %w %l %b %b %sp"),
               "OpSubgroupAvcSicConfigureSkcINTEL: Skip Block Partition Type %h must be an 8- or "
               "32-bit integer scalar");
  EXPECT_ERROR(avcKernel("%p = OpSubgroupAvcSicConfigureIpeLumaChromaINTEL %sicp %b %b %b %b %b "
                         "%b %h %h %w %b %sp"),
               "Upper Edge Chroma Pixels %w must be an 8- or 16-bit integer scalar");
  EXPECT_ERROR(avcKernel("%s = OpSubgroupAvcSicGetPackedSkcLumaSumThresholdINTEL %uint %sr"),
               "the result type %uint must be a 64-bit integer scalar");
}

TEST(ValIntel, MotionEstimationEvaluationsTakeVmeImagesOfTheirImages) {
  const std::string images = "%vs = OpVmeImageINTEL %vme %src %smp\n"
                             "%vr = OpVmeImageINTEL %vme %ref %smp\n"
                             "%ip = OpSubgroupAvcImeInitializeINTEL %imep %c %b %b\n";
  EXPECT_ERROR(avcKernel("%v = OpVmeImageINTEL %vme3d %src %smp"),
               "OpVmeImageINTEL: the result type %vme3d must be the VME image of %img, the type "
               "of Image Type %src");
  EXPECT_ERROR(avcKernel("%v = OpVmeImageINTEL %vme %smp %smp"),
               "OpVmeImageINTEL: Image Type %smp must be an OpTypeImage");
  EXPECT_ERROR(avcKernel("%v = OpVmeImageINTEL %vme %src %src"),
               "OpVmeImageINTEL: Sampler %src must be an OpTypeSampler");
  EXPECT_ERROR(avcKernel("%v = OpVmeImageINTEL %img %src %smp"),
               "OpVmeImageINTEL: the result type %img must be an OpTypeVmeImageINTEL");
  EXPECT_ERROR(avcKernel(images + "%r = OpSubgroupAvcImeEvaluateWithSingleReferenceINTEL %imer "
                                  "%vs %ref %ip"),
               "OpSubgroupAvcImeEvaluateWithSingleReferenceINTEL: Ref Image %ref must be an "
               "OpTypeVmeImageINTEL");
  EXPECT_ERROR(avcKernel(images + "%r = OpSubgroupAvcImeEvaluateWithSingleReferenceINTEL %refr "
                                  "%vs %vr %ip"),
               "the result type %refr must be an OpTypeAvcImeResultINTEL");
  EXPECT_ERROR(avcKernel(images + "%r = OpSubgroupAvcSicEvaluateWithMultiReferenceINTEL %sicr "
                                  "%vs %h %sp"),
               "OpSubgroupAvcSicEvaluateWithMultiReferenceINTEL: Packed Reference Ids %h must be "
               "a 32-bit integer scalar");
}

TEST(ValIntel, MotionEstimationNeedsItsCapabilityAndExtension) {
  // Availability's rules: each instruction needs SubgroupAvcMotionEstimationINTEL (or, for the
  // intra and chroma ones, their capabilities), which needs the extension.
  std::string text =
      test::replaced(kAvcKernel, "BODY", "%mv = OpSubgroupAvcMceGetMotionVectorsINTEL %ulong %ir");
  Report noExtension = test::validateText(
      test::replaced(text, "OpExtension \"SPV_INTEL_device_side_avc_motion_estimation\"\n", ""));
  EXPECT_ERROR(noExtension, "SPV_INTEL_device_side_avc_motion_estimation");
  Report noCapability = test::validateText(
      test::replaced(text, "OpCapability SubgroupAvcMotionEstimationINTEL\n", ""));
  EXPECT_ERROR(noCapability, "OpSubgroupAvcMceGetMotionVectorsINTEL needs");
  EXPECT_ERROR(noCapability, "OpTypeAvcImeResultINTEL needs");
}

// --- Arbitrary precision floating and fixed point ----------------------------------------------

// A kernel taking arbitrary precision integers of 13 and 16 bits (%a, %a16), a 64-bit integer
// %l, a float %x and a vector of two 13-bit integers %v; BODY is its code.
constexpr const char *kPrecisionKernel = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Int16
OpCapability Int64
OpCapability ArbitraryPrecisionIntegersINTEL
OpCapability ArbitraryPrecisionFloatingPointINTEL
OpCapability ArbitraryPrecisionFixedPointINTEL
OpExtension "SPV_INTEL_arbitrary_precision_fixed_point"
OpExtension "SPV_INTEL_arbitrary_precision_floating_point"
OpExtension "SPV_INTEL_arbitrary_precision_integers"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
OpName %a "a"
OpName %a16 "a16"
OpName %l "l"
OpName %x "x"
OpName %v "v"
OpName %i13 "i13"
OpName %i16 "i16"
OpName %i25 "i25"
OpName %i26 "i26"
OpName %float "float"
OpName %v3i13 "v3i13"
%void = OpTypeVoid
%bool = OpTypeBool
%i13 = OpTypeInt 13 0
%i16 = OpTypeInt 16 0
%i25 = OpTypeInt 25 0
%i26 = OpTypeInt 26 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%v2i13 = OpTypeVector %i13 2
%v3i13 = OpTypeVector %i13 3
%kfn = OpTypeFunction %void %i13 %i16 %ulong %float %v2i13
%k = OpFunction %void None %kfn
%a = OpFunctionParameter %i13
%a16 = OpFunctionParameter %i16
%l = OpFunctionParameter %ulong
%x = OpFunctionParameter %float
%v = OpFunctionParameter %v2i13
%e = OpLabel
BODY
OpReturn
OpFunctionEnd
)";

Report precisionKernel(std::string_view body) {
  return test::validateText(test::replaced(kPrecisionKernel, "BODY", body));
}

/// `op` (OpArbitraryFloat<name>INTEL) with mantissa widths `ma`, `mb` and `mresult`, under
/// whichever names this build's grammar gives them.
std::string arbitraryFloat(std::string_view name, std::string_view type,
                           const std::vector<std::string> &ids, uint32_t ma, uint32_t mb,
                           uint32_t mresult) {
  return instruction("OpArbitraryFloat" + std::string(name) + "INTEL", "r", type, ids,
                     {{"Ma", ma},
                      {"M1", ma},
                      {"Mb", mb},
                      {"M2", mb},
                      {"Mresult", mresult},
                      {"MResult", mresult},
                      {"Mout", mresult}});
}

TEST(ValIntel, ArbitraryPrecisionFloatsAreIntegersWideEnoughForTheirMantissas) {
  // 1 sign bit, 5 exponent bits and 7 mantissa bits; into 1 + 8 + 7 bits.
  EXPECT_VALID(precisionKernel(arbitraryFloat("Add", "i16", {"a", "a"}, 7, 7, 7)));
  EXPECT_VALID(precisionKernel(arbitraryFloat("Sqrt", "i16", {"a"}, 12, 0, 15)));
  EXPECT_VALID(precisionKernel(arbitraryFloat("GT", "bool", {"a", "a16"}, 7, 15, 0)));
  // Casts from integers take any integer, PowN's exponent is an integer of any width.
  EXPECT_VALID(precisionKernel(arbitraryFloat("CastFromInt", "i13", {"l"}, 0, 0, 7)));
  EXPECT_VALID(precisionKernel(arbitraryFloat("PowN", "i13", {"a", "l"}, 7, 0, 7)));
  // SinCos gives two values: a vector of two, or an integer of twice their width.
  EXPECT_VALID(precisionKernel(arbitraryFloat("SinCos", "v2i13", {"a"}, 7, 0, 7)));
  EXPECT_VALID(precisionKernel(arbitraryFloat("SinCosPi", "i26", {"a"}, 7, 0, 12)));

  const std::string ma = operandNamed("OpArbitraryFloatAddINTEL", {"Ma", "M1"});
  const std::string mb = operandNamed("OpArbitraryFloatAddINTEL", {"Mb", "M2"});
  const std::string mresult =
      operandNamed("OpArbitraryFloatSqrtINTEL", {"Mresult", "MResult", "Mout"});
  EXPECT_TRUE(test::hasError(precisionKernel(arbitraryFloat("Add", "i16", {"a", "a"}, 13, 7, 7)),
                             canon("OpArbitraryFloatAddINTEL") + ": " + ma +
                                 " (13) must be less than the 13 bits of A %a (%i13)",
                             "SPV_INTEL_arbitrary_precision_floating_point"));
  EXPECT_ERROR(precisionKernel(arbitraryFloat("Add", "i16", {"a", "a16"}, 7, 16, 7)),
               canon("OpArbitraryFloatAddINTEL") + ": " + mb +
                   " (16) must be less than the 16 bits of B %a16 (%i16)");
  EXPECT_ERROR(precisionKernel(arbitraryFloat("Sqrt", "i16", {"a"}, 7, 0, 16)),
               canon("OpArbitraryFloatSqrtINTEL") + ": " + mresult +
                   " (16) must be less than the 16 bits of the result type %i16");
  EXPECT_ERROR(precisionKernel(arbitraryFloat("SinCos", "i26", {"a"}, 7, 0, 13)),
               "(13) must be less than the 13 bits of each value of the result type %i26");
  EXPECT_ERROR(precisionKernel(arbitraryFloat("Mul", "i13", {"a", "v"}, 7, 7, 7)),
               canon("OpArbitraryFloatMulINTEL") + ": B %v must be an integer scalar");
  EXPECT_ERROR(precisionKernel(arbitraryFloat("Exp", "i13", {"x"}, 7, 0, 7)),
               "OpArbitraryFloatExpINTEL: A %x must be an integer scalar");
  EXPECT_ERROR(precisionKernel(arbitraryFloat("Exp", "float", {"a"}, 7, 0, 7)),
               "OpArbitraryFloatExpINTEL: the result type %float must be an integer scalar");
  // Comparisons give a bool.
  EXPECT_ERROR(precisionKernel(arbitraryFloat("EQ", "i13", {"a", "a"}, 7, 7, 0)),
               canon("OpArbitraryFloatEQINTEL") +
                   ": the result type %i13 must be a boolean scalar");
  EXPECT_ERROR(precisionKernel(arbitraryFloat("SinCos", "i25", {"a"}, 7, 0, 7)),
               "OpArbitraryFloatSinCosINTEL: the result type %i25 must be a vector of two "
               "integers or an integer of even width (the sine and the cosine)");
  EXPECT_ERROR(precisionKernel(arbitraryFloat("SinCos", "v3i13", {"a"}, 7, 0, 7)),
               "the result type %v3i13 must be a vector of two integers");
  EXPECT_ERROR(precisionKernel(arbitraryFloat("SinCos", "float", {"a"}, 7, 0, 7)),
               "the result type %float must be an integer scalar or vector");
}

TEST(ValIntel, ArbitraryPrecisionFixedPointTakesAndGivesIntegers) {
  // Debian's grammar lists an Input Type id before the input, which is left unchecked.
  auto fixed = [](std::string_view name, std::string_view type, std::string input) {
    std::string op = "OpFixed" + std::string(name) + "INTEL";
    return precisionKernel(instruction(op, "r", type, withLeading(op, "a", {std::move(input)}),
                                       {{"I", 8}, {"rI", 8}}));
  };
  EXPECT_VALID(fixed("Sqrt", "i16", "a"));
  EXPECT_VALID(fixed("SinCos", "v2i13", "a"));
  EXPECT_VALID(fixed("SinCosPi", "i26", "a"));
  EXPECT_TRUE(test::hasError(fixed("Sqrt", "i16", "x"),
                             canon("OpFixedSqrtINTEL") + ": Input %x must be an integer scalar",
                             "SPV_INTEL_arbitrary_precision_fixed_point"));
  EXPECT_ERROR(fixed("Exp", "float", "a"),
               canon("OpFixedExpINTEL") + ": the result type %float must be an integer scalar");
  EXPECT_ERROR(fixed("SinCosPi", "i25", "a"),
               canon("OpFixedSinCosPiINTEL") +
                   ": the result type %i25 must be a vector of two integers or "
                   "an integer of even width");
}

TEST(ValIntel, ArbitraryPrecisionNeedsItsCapabilities) {
  std::string text =
      test::replaced(kPrecisionKernel, "BODY", arbitraryFloat("Add", "i16", {"a", "a"}, 7, 7, 7));
  EXPECT_ERROR(test::validateText(
                   test::replaced(text, "OpCapability ArbitraryPrecisionFloatingPointINTEL\n", "")),
               canon("OpArbitraryFloatAddINTEL"));
  EXPECT_ERROR(test::validateText(test::replaced(
                   text, "OpExtension \"SPV_INTEL_arbitrary_precision_floating_point\"\n", "")),
               "SPV_INTEL_arbitrary_precision_floating_point");
}

// --- FPGA registers, blocking pipes, function pointers, inline assembly ------------------------

// A kernel taking a 32-bit integer %i, a 64-bit integer %l, a float %x, a CrossWorkgroup pointer
// to 8-bit integers %q and a pointer to %gfn (a function from a 32-bit integer to a float) %fp;
// %g is such a function. BODY is the kernel's code.
constexpr const char *kMiscKernel = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Int8
OpCapability Int64
OpCapability FPGARegINTEL
OpCapability BlockingPipesINTEL
OpCapability FunctionPointersINTEL
OpCapability AsmINTEL
OpExtension "SPV_INTEL_blocking_pipes"
OpExtension "SPV_INTEL_fpga_reg"
OpExtension "SPV_INTEL_function_pointers"
OpExtension "SPV_INTEL_inline_assembly"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
OpName %i "i"
OpName %l "l"
OpName %x "x"
OpName %q "q"
OpName %fp "fp"
OpName %g "g"
OpName %gfn "gfn"
OpName %ph "ph"
OpName %pgf "pgf"
%void = OpTypeVoid
%uchar = OpTypeInt 8 0
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%gfn = OpTypeFunction %float %uint
%hfn = OpTypeFunction %uint %uint
%pg = OpTypePointer CodeSectionINTEL %gfn
%ph = OpTypePointer CodeSectionINTEL %hfn
%pgf = OpTypePointer Function %gfn
%pq = OpTypePointer CrossWorkgroup %uchar
GLOBALS
%kfn = OpTypeFunction %void %uint %ulong %float %pq %pg
%g = OpFunction %float None %gfn
%ga = OpFunctionParameter %uint
%ge = OpLabel
%gr = OpConvertUToF %float %ga
OpReturnValue %gr
OpFunctionEnd
%k = OpFunction %void None %kfn
%i = OpFunctionParameter %uint
%l = OpFunctionParameter %ulong
%x = OpFunctionParameter %float
%q = OpFunctionParameter %pq
%fp = OpFunctionParameter %pg
%e = OpLabel
BODY
OpReturn
OpFunctionEnd
)";

Report miscKernel(std::string_view body, std::string_view globals = "") {
  std::string text = test::replaced(kMiscKernel, "GLOBALS", globals);
  return test::validateText(test::replaced(text, "BODY", body));
}

/// The same kernel without the pointers to functions that spire val (as spirv-val 2023.1)
/// rejects in every module: what is left is valid.
Report miscKernelWithoutFunctionPointers(std::string_view body) {
  std::string text = test::replaced(kMiscKernel, "GLOBALS", "");
  for (std::string_view line :
       {"%pg = OpTypePointer CodeSectionINTEL %gfn\n",
        "%ph = OpTypePointer CodeSectionINTEL %hfn\n", "%pgf = OpTypePointer Function %gfn\n",
        "%fp = OpFunctionParameter %pg\n", "OpName %fp \"fp\"\n", "OpName %ph \"ph\"\n",
        "OpName %pgf \"pgf\"\n"})
    text = test::replaced(text, line, "");
  text = test::replaced(text, "%pq %pg\n", "%pq\n");
  return test::validateText(test::replaced(text, "BODY", body));
}

TEST(ValIntel, FpgaRegistersPassTheirInputThrough) {
  auto reg = [](std::string_view type, std::string input) {
    return miscKernelWithoutFunctionPointers(
        instruction("OpFPGARegINTEL", "r", type, withLeading("OpFPGARegINTEL", input, {input})));
  };
  EXPECT_VALID(reg("float", "x"));
  EXPECT_VALID(reg("uint", "i"));
  EXPECT_TRUE(test::hasError(
      reg("float", "i"), canon("OpFPGARegINTEL") + ": Input %i must be of the result type %float",
      "SPV_INTEL_fpga_reg"));
}

TEST(ValIntel, BlockingPipesTake32BitPacketSizesAndAlignments) {
  // Grammars before SPIR-V 1.6 revision 7 give the blocking pipe instructions a result and the
  // packet size and alignment only; later ones (and the extension) a pipe and a pointer first,
  // and no result.
  auto pipe = [](std::string_view op, std::string_view size, std::string_view align) {
    const grammar::InstructionDesc *d = grammar::findInstruction(op);
    std::string name = canon(op);
    if (d->hasResult)
      return "%" + name + " = " + name + " %uint " + std::string(size) + " " + std::string(align);
    return name + " %pipe %q " + std::string(size) + " " + std::string(align);
  };
  auto kernel = [](std::string body) {
    // The kernel without the pointers to functions, with a pipe parameter in their place.
    std::string text = test::replaced(kMiscKernel, "GLOBALS", "%pipeT = OpTypePipe ReadOnly\n");
    text =
        test::replaced(text, "OpCapability Kernel\n", "OpCapability Kernel\nOpCapability Pipes\n");
    text = test::replaced(text, "%fp = OpFunctionParameter %pg\n",
                          "%pipe = OpFunctionParameter %pipeT\n");
    for (std::string_view line :
         {"%pg = OpTypePointer CodeSectionINTEL %gfn\n",
          "%ph = OpTypePointer CodeSectionINTEL %hfn\n", "%pgf = OpTypePointer Function %gfn\n",
          "OpName %fp \"fp\"\n", "OpName %ph \"ph\"\n", "OpName %pgf \"pgf\"\n"})
      text = test::replaced(text, line, "");
    text = test::replaced(text, "%pq %pg\n", "%pq %pipeT\n");
    return test::validateText(test::replaced(text, "BODY", body));
  };
  EXPECT_VALID(kernel(pipe("OpReadPipeBlockingINTEL", "%i", "%i") + "\n" +
                      pipe("OpWritePipeBlockingINTEL", "%i", "%i")));
  EXPECT_TRUE(test::hasError(kernel(pipe("OpWritePipeBlockingINTEL", "%l", "%i")),
                             canon("OpWritePipeBlockingINTEL") +
                                 ": Packet Size %l must be a 32-bit integer scalar",
                             "SPV_INTEL_blocking_pipes"));
  EXPECT_ERROR(kernel(pipe("OpReadPipeBlockingINTEL", "%i", "%x")),
               canon("OpReadPipeBlockingINTEL") +
                   ": Packet Alignment %x must be a 32-bit integer scalar");
}

TEST(ValIntel, FunctionPointersPointToTheirFunctionsAndCallsPassTheirParameters) {
  // spire val (as spirv-val 2023.1) rejects pointers to function types and functions as
  // operands in every module; the rules here say their own part all the same.
  EXPECT_TRUE(test::hasError(
      miscKernel("", "%c = OpConstantFunctionPointerINTEL %ph %g\n"),
      "OpConstantFunctionPointerINTEL: the result type %ph must be a pointer to %gfn, the type "
      "of Function %g",
      "SPV_INTEL_function_pointers"));
  EXPECT_ERROR(miscKernel("", "%c = OpConstantFunctionPointerINTEL %pgf %g\n"),
               "OpConstantFunctionPointerINTEL: the result type %pgf must be in the "
               "CodeSectionINTEL storage class");
  EXPECT_ERROR(miscKernel("", "%uint_1 = OpConstant %uint 1\n"
                              "%c = OpConstantFunctionPointerINTEL %pg %uint_1\n"),
               "OpConstantFunctionPointerINTEL: Function %uint_1 must be the result of an "
               "OpFunction");
  EXPECT_FALSE(test::hasError(miscKernel("", "%c = OpConstantFunctionPointerINTEL %pg %g\n"),
                              "OpConstantFunctionPointerINTEL:"));

  // A call through a pointer to 8-bit integers (untyped pointers) says nothing of the function.
  EXPECT_VALID(miscKernelWithoutFunctionPointers("%c = OpFunctionPointerCallINTEL %uint %q %l %x"));
  EXPECT_TRUE(test::hasError(
      miscKernelWithoutFunctionPointers("%c = OpFunctionPointerCallINTEL %uint %i %i"),
      "OpFunctionPointerCallINTEL: Function Pointer %i must be a pointer",
      "SPV_INTEL_function_pointers"));
  EXPECT_FALSE(test::hasError(miscKernel("%c = OpFunctionPointerCallINTEL %float %fp %i"),
                              "OpFunctionPointerCallINTEL:"));
  EXPECT_ERROR(miscKernel("%c = OpFunctionPointerCallINTEL %float %fp %x"),
               "OpFunctionPointerCallINTEL: Argument %x must be of type %uint (parameter 0 of "
               "%gfn)");
  EXPECT_ERROR(miscKernel("%c = OpFunctionPointerCallINTEL %float %fp"),
               "OpFunctionPointerCallINTEL: passes 0 arguments to a function of type %gfn, "
               "which takes 1");
  EXPECT_ERROR(miscKernel("%c = OpFunctionPointerCallINTEL %uint %fp %i"),
               "OpFunctionPointerCallINTEL: the result type %uint must be %float, the return "
               "type of %gfn");
}

TEST(ValIntel, AsmCallsCallInlineAssembly) {
  // What is not an OpAsmINTEL cannot be called (a valid call: Layout.ExtensionsDeclareGlobalsToo).
  EXPECT_TRUE(test::hasError(miscKernelWithoutFunctionPointers("%c = OpAsmCallINTEL %uint %i %i"),
                             "OpAsmCallINTEL: Asm %i must be the result of an OpAsmINTEL",
                             "SPV_INTEL_inline_assembly"));
}

// --- Integer functions, media blocks, split barriers, loop controls ----------------------------

// A compute shader with 32-bit integers %u, %i, a 16-bit one %h, 64-bit ones %l, %sl, vectors of
// two 32-bit integers %v, %sv and three %v3, and a float %f; BODY is its code.
constexpr const char *kIntegerFunctions = R"(
OpCapability Shader
OpCapability Int16
OpCapability Int64
OpCapability IntegerFunctions2INTEL
OpExtension "SPV_INTEL_shader_integer_functions2"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %u "u"
OpName %i "i"
OpName %h "h"
OpName %l "l"
OpName %sl "sl"
OpName %v "v"
OpName %sv "sv"
OpName %v3 "v3"
OpName %f "f"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%ushort = OpTypeInt 16 0
%ulong = OpTypeInt 64 0
%long = OpTypeInt 64 1
%float = OpTypeFloat 32
%v2uint = OpTypeVector %uint 2
%v2int = OpTypeVector %int 2
%v3uint = OpTypeVector %uint 3
%u = OpConstant %uint 1
%i = OpConstant %int 1
%h = OpConstant %ushort 1
%l = OpConstant %ulong 1
%sl = OpConstant %long 1
%f = OpConstant %float 1
%v = OpConstantComposite %v2uint %u %u
%sv = OpConstantComposite %v2int %i %i
%v3 = OpConstantComposite %v3uint %u %u %u
%main = OpFunction %void None %fn
%e = OpLabel
BODY
OpReturn
OpFunctionEnd
)";

Report integerFunctions(std::string_view body) {
  return test::validateText(test::replaced(kIntegerFunctions, "BODY", body));
}

TEST(ValIntel, IntegerFunctionsTakeOperandsOfTheirResultType) {
  // Operands of the result type, signedness aside; 32-bit counts and 32x16 products, the others
  // of any width.
  EXPECT_VALID(integerFunctions(R"(
%r1 = OpUCountLeadingZerosINTEL %uint %u
%r2 = OpUCountTrailingZerosINTEL %v2uint %sv
%r3 = OpAbsISubINTEL %uint %i %i
%r4 = OpAbsUSubINTEL %ulong %l %l
%r5 = OpIAddSatINTEL %int %i %u
%r6 = OpUAddSatINTEL %ushort %h %h
%r7 = OpIAverageINTEL %v2int %sv %sv
%r8 = OpUAverageINTEL %v2uint %v %v
%r9 = OpIAverageRoundedINTEL %long %sl %sl
%r10 = OpUAverageRoundedINTEL %uint %u %u
%r11 = OpISubSatINTEL %int %i %i
%r12 = OpUSubSatINTEL %uint %u %u
%r13 = OpIMul32x16INTEL %v2int %sv %sv
%r14 = OpUMul32x16INTEL %uint %u %u
)"));
  auto rejects = [](std::string_view body, std::string_view message) {
    const Report r = integerFunctions(body);
    EXPECT_RULE_ERROR(r, message, "SPV_INTEL_shader_integer_functions2");
  };
  rejects("%r = OpUCountLeadingZerosINTEL %ulong %l",
          "OpUCountLeadingZerosINTEL: the result type %ulong must be a 32-bit integer scalar or "
          "vector");
  rejects("%r = OpUMul32x16INTEL %ushort %h %h",
          "OpUMul32x16INTEL: the result type %ushort must be a 32-bit integer scalar or vector");
  rejects("%r = OpIAddSatINTEL %float %f %f",
          "OpIAddSatINTEL: the result type %float must be an integer scalar or vector");
  rejects("%r = OpUCountTrailingZerosINTEL %uint %v",
          "OpUCountTrailingZerosINTEL: Operand %v must be of the result type %uint, signedness "
          "aside");
  rejects("%r = OpAbsISubINTEL %uint %i %l",
          "OpAbsISubINTEL: Operand 2 %l must be of the result type %uint, signedness aside");
  rejects("%r = OpUAverageINTEL %v2uint %v3 %v",
          "OpUAverageINTEL: Operand 1 %v3 must be of the result type %v2uint, signedness aside");
  rejects("%r = OpISubSatINTEL %int %f %i",
          "OpISubSatINTEL: Operand 1 %f must be of the result type %int, signedness aside");
}

// A kernel with a read-only and a write-only 2D image %ri and %wi, a sampled 2D image %si (of the
// Shader-style Sampled 1), integers %b (8-bit), %u (32-bit), a coordinate %c (two 32-bit
// integers), %c3 (three), a float %f; BODY is its code.
constexpr const char *kMediaBlocks = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Int8
OpCapability ImageBasic
OpCapability SubgroupImageMediaBlockIOINTEL
OpExtension "SPV_INTEL_media_block_io"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
OpName %ri "ri"
OpName %wi "wi"
OpName %b "b"
OpName %u "u"
OpName %c "c"
OpName %c3 "c3"
OpName %f "f"
%void = OpTypeVoid
%uchar = OpTypeInt 8 0
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v2uchar = OpTypeVector %uchar 2
%v2uint = OpTypeVector %uint 2
%v3uint = OpTypeVector %uint 3
%v2float = OpTypeVector %float 2
%rimage = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly
%wimage = OpTypeImage %void 2D 0 0 0 0 Unknown WriteOnly
%kfn = OpTypeFunction %void %rimage %wimage %uchar %uint %v2uint %v3uint %float
%k = OpFunction %void None %kfn
%ri = OpFunctionParameter %rimage
%wi = OpFunctionParameter %wimage
%b = OpFunctionParameter %uchar
%u = OpFunctionParameter %uint
%c = OpFunctionParameter %v2uint
%c3 = OpFunctionParameter %v3uint
%f = OpFunctionParameter %float
%e = OpLabel
BODY
OpReturn
OpFunctionEnd
)";

Report mediaBlocks(std::string_view body) {
  return test::validateText(test::replaced(kMediaBlocks, "BODY", body), "opencl2.0");
}

TEST(ValIntel, MediaBlocksAreReadFromAndWrittenTo2DImages) {
  EXPECT_VALID(mediaBlocks(R"(
%r1 = OpSubgroupImageMediaBlockReadINTEL %uchar %ri %c %u %u
%r2 = OpSubgroupImageMediaBlockReadINTEL %v2uchar %ri %c %u %u
OpSubgroupImageMediaBlockWriteINTEL %wi %c %u %u %r2
OpSubgroupImageMediaBlockWriteINTEL %wi %c %b %b %u
)"));
  auto rejects = [](std::string_view body, std::string_view message) {
    const Report r = mediaBlocks(body);
    EXPECT_RULE_ERROR(r, message, "SPV_INTEL_media_block_io");
  };
  rejects("%r = OpSubgroupImageMediaBlockReadINTEL %v2float %ri %c %u %u",
          "OpSubgroupImageMediaBlockReadINTEL: the result type %v2float must be an integer "
          "scalar or vector");
  rejects("%r = OpSubgroupImageMediaBlockReadINTEL %uint %u %c %u %u",
          "OpSubgroupImageMediaBlockReadINTEL: Image %u must be an OpTypeImage whose Sampled is "
          "0 or 2");
  rejects("%r = OpSubgroupImageMediaBlockReadINTEL %uint %ri %c3 %u %u",
          "OpSubgroupImageMediaBlockReadINTEL: Coordinate %c3 must be a vector of two integers");
  rejects("%r = OpSubgroupImageMediaBlockReadINTEL %uint %ri %c %f %u",
          "OpSubgroupImageMediaBlockReadINTEL: Width %f must be an integer scalar");
  rejects("OpSubgroupImageMediaBlockWriteINTEL %wi %c %u %c %u",
          "OpSubgroupImageMediaBlockWriteINTEL: Height %c must be an integer scalar");
  rejects("OpSubgroupImageMediaBlockWriteINTEL %wi %c %u %u %f",
          "OpSubgroupImageMediaBlockWriteINTEL: Data %f must be an integer scalar or vector");
}

TEST(ValIntel, MediaBlocksUseStorageImagesInShaders) {
  // Sampled 1 (an image used with a sampler) is not one the media block instructions read.
  constexpr const char *kShader = R"(
OpCapability Shader
OpCapability SubgroupImageMediaBlockIOINTEL
OpExtension "SPV_INTEL_media_block_io"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %var
OpExecutionMode %main LocalSize 1 1 1
OpName %img "img"
OpDecorate %var DescriptorSet 0
OpDecorate %var Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v2uint = OpTypeVector %uint 2
%u = OpConstant %uint 1
%c = OpConstantComposite %v2uint %u %u
%image = OpTypeImage %uint 2D 0 0 0 SAMPLED R32ui
%ptr = OpTypePointer UniformConstant %image
%var = OpVariable %ptr UniformConstant
%main = OpFunction %void None %fn
%e = OpLabel
%img = OpLoad %image %var
%r = OpSubgroupImageMediaBlockReadINTEL %uint %img %c %u %u
OpReturn
OpFunctionEnd
)";
  EXPECT_VALID(test::validateText(test::replaced(kShader, "SAMPLED", "2")));
  EXPECT_TRUE(test::hasError(test::validateText(test::replaced(kShader, "SAMPLED", "1")),
                             "OpSubgroupImageMediaBlockReadINTEL: Image %img must be an "
                             "OpTypeImage whose Sampled is 0 or 2",
                             "SPV_INTEL_media_block_io"));
}

TEST(ValIntel, SplitBarriersTakeScopesAndSemanticsAsTheOtherBarriersDo) {
  // RulesAtomics checks their Scope <id> and Memory Semantics <id> operands, as every
  // instruction's (the ids are named after their values: %ulong_2, %uint_9, %uint_6).
  constexpr const char *kGlobals = R"(
%ulong = OpTypeInt 64 0
%workgroup = OpConstant %uint 2
%release = OpConstant %uint 0x104
%twoOrders = OpConstant %uint 6
%wide = OpConstant %ulong 2
%nine = OpConstant %uint 9
)";
  auto kernel = [&](std::string_view body) {
    return test::validateText(test::kernelModule("OpCapability Int64\nOpCapability "
                                                 "SplitBarrierINTEL\nOpExtension "
                                                 "\"SPV_INTEL_split_barrier\"",
                                                 kGlobals, body),
                              "opencl2.0");
  };
  EXPECT_VALID(kernel("OpControlBarrierArriveINTEL %workgroup %workgroup %release\n"
                      "OpControlBarrierWaitINTEL %workgroup %workgroup %uint_0"));
  EXPECT_TRUE(test::hasError(kernel("OpControlBarrierArriveINTEL %wide %workgroup %release"),
                             "the scope %ulong_2 must be a 32-bit integer scalar", "3.27"));
  EXPECT_TRUE(test::hasError(kernel("OpControlBarrierWaitINTEL %workgroup %nine %uint_0"),
                             "scope %uint_9 has the value 9, which is no scope", "3.27"));
  EXPECT_TRUE(test::hasError(kernel("OpControlBarrierWaitINTEL %workgroup %workgroup %twoOrders"),
                             "memory semantics %uint_6: sets more than one of Acquire, Release, "
                             "AcquireRelease and SequentiallyConsistent",
                             "3.25"));
  EXPECT_TRUE(test::hasError(kernel("OpControlBarrierArriveINTEL %workgroup %workgroup %wide"),
                             "the memory semantics %ulong_2 must be a 32-bit integer scalar",
                             "3.25"));
}

TEST(ValIntel, UnstructuredLoopControlsHaveNoTypedOperands) {
  // OpLoopControlINTEL's operands are literals: nothing of theirs has a type to check.
  EXPECT_VALID(test::validateText(
      test::kernelModule(
          "OpCapability UnstructuredLoopControlsINTEL\nOpExtension "
          "\"SPV_INTEL_unstructured_loop_controls\"",
          "%true = OpConstantTrue %bool",
          "OpBranch %loop\n%loop = OpLabel\nOpLoopControlINTEL 1\nOpBranchConditional %true "
          "%loop %exit\n%exit = OpLabel"),
      "opencl2.0"));
}

// --- The agreement with the structured IR's verifier -------------------------------------------

// A kernel with one parameter of each type the INTEL instructions take and give (and a few they
// do not), named after it (%p_<type>); INST is the instruction under test.
constexpr const char *kPool = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Int8
OpCapability Int16
OpCapability Int64
OpCapability SubgroupAvcMotionEstimationINTEL
OpCapability SubgroupAvcMotionEstimationIntraINTEL
OpCapability SubgroupAvcMotionEstimationChromaINTEL
OpCapability ArbitraryPrecisionIntegersINTEL
OpCapability ArbitraryPrecisionFloatingPointINTEL
OpCapability ArbitraryPrecisionFixedPointINTEL
OpCapability FPGARegINTEL
OpCapability BlockingPipesINTEL
OpExtension "SPV_INTEL_arbitrary_precision_fixed_point"
OpExtension "SPV_INTEL_arbitrary_precision_floating_point"
OpExtension "SPV_INTEL_arbitrary_precision_integers"
OpExtension "SPV_INTEL_blocking_pipes"
OpExtension "SPV_INTEL_device_side_avc_motion_estimation"
OpExtension "SPV_INTEL_fpga_reg"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%bool = OpTypeBool
%i8 = OpTypeInt 8 0
%i13 = OpTypeInt 13 0
%i16 = OpTypeInt 16 0
%i26 = OpTypeInt 26 0
%i32 = OpTypeInt 32 0
%i64 = OpTypeInt 64 0
%f32 = OpTypeFloat 32
%v2i16 = OpTypeVector %i16 2
%v2i32 = OpTypeVector %i32 2
%v3i32 = OpTypeVector %i32 3
%img = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly
%smp = OpTypeSampler
%vme = OpTypeVmeImageINTEL %img
%mcep = OpTypeAvcMcePayloadINTEL
%imep = OpTypeAvcImePayloadINTEL
%refp = OpTypeAvcRefPayloadINTEL
%sicp = OpTypeAvcSicPayloadINTEL
%mcer = OpTypeAvcMceResultINTEL
%imer = OpTypeAvcImeResultINTEL
%refr = OpTypeAvcRefResultINTEL
%sicr = OpTypeAvcSicResultINTEL
%sout = OpTypeAvcImeResultSingleReferenceStreamoutINTEL
%dout = OpTypeAvcImeResultDualReferenceStreamoutINTEL
%sin = OpTypeAvcImeSingleReferenceStreaminINTEL
%din = OpTypeAvcImeDualReferenceStreaminINTEL
%kfn = OpTypeFunction %void PARAMETER_TYPES
%k = OpFunction %void None %kfn
PARAMETERS
%e = OpLabel
INST
OpReturn
OpFunctionEnd
)";

constexpr const char *kPoolTypes[] = {"bool", "i8",    "i13",   "i16",   "i26",  "i32",  "i64",
                                      "f32",  "v2i16", "v2i32", "v3i32", "img",  "smp",  "vme",
                                      "mcep", "imep",  "refp",  "sicp",  "mcer", "imer", "refr",
                                      "sicr", "sout",  "dout",  "sin",   "din"};

using test::Verdicts;

class Pool {
public:
  Pool() : module_(kPool, kPoolTypes) {
    if (!module_.module())
      return;
    for (Instruction inst : *module_.module())
      if (inst.opcode() == grammar::Op::FunctionParameter) {
        params_.push_back(inst.resultId());
        types_.push_back(inst.typeId());
      }
  }

  size_t size() const { return params_.size(); }

  /// `op` with the result type of pool entry `result`, the pool entry `operands[k]` for id
  /// operand k, and the literals `literals` (0 past their end).
  Verdicts verdicts(const grammar::InstructionDesc &op, size_t result,
                    const std::vector<size_t> &operands,
                    const std::vector<uint32_t> &literals) const {
    // (Instructions without a result, such as the blocking pipes of SPIR-V 1.6 revision 7,
    // take none: `result` is then unused.)
    std::vector<uint32_t> inst;
    if (op.hasResultType)
      inst.push_back(types_[result]);
    if (op.hasResult)
      inst.push_back(module_.freeId());
    size_t id = 0, literal = 0;
    for (const grammar::OperandDesc &o : op.operands) {
      if (o.kind == OperandKind::IdRef)
        inst.push_back(params_[operands[id++]]);
      else if (o.kind == OperandKind::LiteralInteger)
        inst.push_back(literal < literals.size() ? literals[literal++] : 0);
    }
    SCOPED_TRACE(op.name);
    return module_.with(op.opcode, inst);
  }

  std::string typeName(size_t i) const { return kPoolTypes[i]; }

private:
  test::PoolModule module_;
  std::vector<uint32_t> params_, types_;
};

/// Checks that spire val and the verifier agree on `op` with every pool type at each position
/// of a combination the verifier accepts (found by following its messages), and for each value
/// of the literals `literalValues` at each literal position.
void expectAgreement(const Pool &pool, const grammar::InstructionDesc &op,
                     const std::vector<uint32_t> &literalValues, size_t &cases) {
  size_t ids = 0, literals = 0;
  for (const grammar::OperandDesc &o : op.operands) {
    ids += o.kind == OperandKind::IdRef;
    literals += o.kind == OperandKind::LiteralInteger;
  }
  // positions[0] is the result type, positions[k + 1] id operand k.
  std::vector<size_t> positions(ids + 1, 0);
  std::vector<uint32_t> noLiterals;
  auto run = [&](const std::vector<size_t> &p, const std::vector<uint32_t> &lits) {
    ++cases;
    return pool.verdicts(op, p[0], std::vector<size_t>(p.begin() + 1, p.end()), lits);
  };
  Verdicts v = run(positions, noLiterals);
  for (size_t step = 0; v.deserialized && !v.verifier.empty(); ++step) {
    int at = test::namedPosition(v.verifier);
    ASSERT_TRUE(at >= 0 && size_t(at) < positions.size() && step < pool.size() * positions.size())
        << op.name << ": no combination of types found: " << v.verifier;
    ASSERT_LT(++positions[at], pool.size()) << op.name << ": " << v.verifier;
    v = run(positions, noLiterals);
  }
  ASSERT_TRUE(v.deserialized) << op.name;
  EXPECT_TRUE(v.valAccepts) << op.name << " with what the verifier accepts";
  auto describe = [&](const std::vector<size_t> &p) {
    std::string s = "%" + pool.typeName(p[0]) + " =";
    for (size_t k = 1; k < p.size(); ++k)
      s += " %" + pool.typeName(p[k]);
    return s;
  };
  auto agree = [&](const Verdicts &w, const std::string &what) {
    const bool verifies = w.deserialized && w.verifier.empty();
    if (w.valAccepts)
      EXPECT_TRUE(verifies) << op.name << " " << what << ": spire val accepts, the verifier says "
                            << (w.deserialized ? w.verifier : "(not deserialized)");
    else
      EXPECT_FALSE(verifies) << op.name << " " << what
                             << ": the verifier accepts, spire val rejects";
  };
  for (size_t at = 0; at < positions.size(); ++at)
    for (size_t t = 0; t < pool.size(); ++t) {
      if (t == positions[at])
        continue;
      std::vector<size_t> p = positions;
      p[at] = t;
      agree(run(p, noLiterals), describe(p));
    }
  for (size_t at = 0; at < literals; ++at)
    for (uint32_t value : literalValues) {
      std::vector<uint32_t> lits(literals, 0);
      lits[at] = value;
      agree(run(positions, lits),
            describe(positions) + " literal " + std::to_string(at) + " = " + std::to_string(value));
    }
}

TEST(ValIntel, AgreesWithTheVerifierOnEveryInstructionOfTheTypesOfThePool) {
  Pool pool;
  ASSERT_EQ(pool.size(), std::size(kPoolTypes));
  size_t ops = 0, cases = 0;
  for (const grammar::InstructionDesc &op : grammar::instructions()) {
    // The INTEL name, which SPIR-V 1.6 revision 7 keeps as an alias of the FPGA instructions
    // it renamed ALTERA.
    std::string_view name = op.name;
    for (std::string_view alias : op.aliases)
      if (!name.ends_with("INTEL") && alias.ends_with("INTEL"))
        name = alias;
    const bool avc = name.starts_with("OpSubgroupAvc") || name == "OpVmeImageINTEL";
    const bool arbitrary = name.starts_with("OpArbitraryFloat") ||
                           (name.starts_with("OpFixed") && name.ends_with("INTEL"));
    const bool misc = name == "OpFPGARegINTEL" || name == "OpReadPipeBlockingINTEL" ||
                      name == "OpWritePipeBlockingINTEL";
    if (!avc && !arbitrary && !misc)
      continue;
    SCOPED_TRACE(op.name);
    ++ops;
    expectAgreement(pool, op,
                    arbitrary ? std::vector<uint32_t>{3, 4, 5, 7, 8, 12, 13, 16, 64}
                              : std::vector<uint32_t>{},
                    cases);
  }
  // 104 AVC instructions and OpVmeImageINTEL, 41 floating point, 11 fixed point, FPGA
  // registers and the two blocking pipes.
  EXPECT_EQ(ops, 160u);
  std::printf("%zu instructions, %zu modules\n", ops, cases);
}

} // namespace
} // namespace spire::val
