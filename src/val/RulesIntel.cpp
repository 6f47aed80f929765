// Rules: the operand and result types of INTEL vendor instructions, with the decisions of the
// structured IR's verifier (src/dialect/VerifierTypes.cpp), so that a module spire val accepts
// deserializes to IR that verifies. Where the extensions' texts and what producers emit
// disagree, both are accepted, as the verifier does. Capabilities and extensions are
// availability's: each instruction needs its grammar capability, which needs its extension.
//
// - SPV_INTEL_device_side_avc_motion_estimation: OpVmeImageINTEL makes the VME image of its
//   image's type from an image and a sampler; every OpSubgroupAvc*INTEL takes and gives the
//   payloads and results of its kind (OpTypeAvc*INTEL), VME images, and integers of the widths
//   the extension names (its "unsigned" is not checked: signedness never is), pairs of 16-bit
//   integers for coordinates, offsets and window sizes, of 32-bit ones for cost tables. The MCE
//   result readers take the generic MCE result (what the OpenCL built-ins, and so producers,
//   pass) or the IME result (the text); OpSubgroupAvcSicConfigureSkcINTEL's skip block partition
//   type is 8-bit (text) or 32-bit (built-in), OpSubgroupAvcSicConfigureIpeLumaChromaINTEL's
//   chroma edge pixels 8-bit or 16-bit; OpSubgroupAvcImeSetEarlySearchTerminationThresholdINTEL
//   gives the payload it updates, as every setter does (the text says an 8-bit integer).
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
// - SPV_INTEL_shader_integer_functions2: the result is an integer scalar or vector, 32-bit for
//   OpUCountLeadingZerosINTEL, OpUCountTrailingZerosINTEL and OpIMul32x16INTEL / OpUMul32x16INTEL
//   (the text's "whose Width operand is 32"), and the operands have its type, signedness aside
//   (the text asks for signed or unsigned types by instruction, which OpenCL's integers cannot
//   say, and the verifier compares signedness aside).
// - SPV_INTEL_media_block_io: the Image is an OpTypeImage whose Sampled is 0 or 2, the
//   Coordinate a vector of two integers (a byte offset into a row and a row), Width and Height
//   integer scalars; what is read or written is an integer scalar or vector.
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

#include <array>
#include <initializer_list>
#include <unordered_map>

namespace spire::val {

namespace {

constexpr const char *kAvc = "SPV_INTEL_device_side_avc_motion_estimation";
constexpr const char *kFloat = "SPV_INTEL_arbitrary_precision_floating_point";
constexpr const char *kFixed = "SPV_INTEL_arbitrary_precision_fixed_point";
constexpr uint32_t kStorageCodeSectionINTEL = uint32_t(grammar::StorageClass::CodeSectionINTEL);
// By value: older grammars lack SPV_KHR_untyped_pointers.
constexpr Op kTypeUntypedPointer = static_cast<Op>(4417);

// --- Operands ----------------------------------------------------------------------------------

/// The words of the instruction's id operands (result type and result aside), in order: the
/// operands the structured IR's op takes. Literals (arbitrary precision widths, the fixed point
/// parameters) are not among them.
std::vector<uint32_t> idOperandWords(const Instruction &inst) {
  std::vector<uint32_t> words;
  for (const binary::Operand &o : inst.operands())
    if (o.kind == grammar::OperandKind::IdRef && o.numWords == 1)
      words.push_back(o.offset);
  return words;
}

/// The grammar's name of the operand at `word` ("Payload"), or "Operand N".
std::string operandName(const Instruction &inst, uint32_t word) {
  const grammar::InstructionDesc *d = inst.desc();
  auto ops = inst.operands();
  for (size_t i = 0; d != nullptr && i < ops.size() && i < d->operands.size(); ++i)
    if (ops[i].offset == word && !d->operands[i].name.empty()) {
      std::string_view name = d->operands[i].name;
      // One grammar name carries the "<id> " of the specification's layout.
      if (size_t gt = name.find("> "); gt != std::string_view::npos)
        name.remove_prefix(gt + 2);
      return std::string(name);
    }
  return "Operand " + std::to_string(word - (inst.typeId() != 0 ? 2 : 0));
}

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

// --- AVC motion estimation ---------------------------------------------------------------------

/// What an AVC operand or result is. `None` ends an operand list.
enum class Avc : uint8_t {
  None,
  U8,
  U16,
  U32,
  U64,
  U8or16,
  U8or32,
  Int,   ///< an integer scalar of any width
  U16x2, ///< a vector of two 16-bit integers
  U32x2,
  Image,
  Sampler,
  VmeImage,
  MceP,
  ImeP,
  RefP,
  SicP,
  MceR,
  ImeR,
  RefR,
  SicR,
  MceOrImeR,
  SingleOut, ///< OpTypeAvcImeResultSingleReferenceStreamoutINTEL
  DualOut,
  SingleIn, ///< OpTypeAvcImeSingleReferenceStreaminINTEL
  DualIn,
};

/// The type declaration an opaque shape is, kNoOp for the others.
Op avcTypeOpcode(Avc a) {
  switch (a) {
  case Avc::Image:
    return Op::TypeImage;
  case Avc::Sampler:
    return Op::TypeSampler;
  case Avc::VmeImage:
    return Op::TypeVmeImageINTEL;
  case Avc::MceP:
    return Op::TypeAvcMcePayloadINTEL;
  case Avc::ImeP:
    return Op::TypeAvcImePayloadINTEL;
  case Avc::RefP:
    return Op::TypeAvcRefPayloadINTEL;
  case Avc::SicP:
    return Op::TypeAvcSicPayloadINTEL;
  case Avc::MceR:
    return Op::TypeAvcMceResultINTEL;
  case Avc::ImeR:
    return Op::TypeAvcImeResultINTEL;
  case Avc::RefR:
    return Op::TypeAvcRefResultINTEL;
  case Avc::SicR:
    return Op::TypeAvcSicResultINTEL;
  case Avc::SingleOut:
    return Op::TypeAvcImeResultSingleReferenceStreamoutINTEL;
  case Avc::DualOut:
    return Op::TypeAvcImeResultDualReferenceStreamoutINTEL;
  case Avc::SingleIn:
    return Op::TypeAvcImeSingleReferenceStreaminINTEL;
  case Avc::DualIn:
    return Op::TypeAvcImeDualReferenceStreaminINTEL;
  default:
    return kNoOp;
  }
}

bool avcFits(const OperandCheck &c, Avc a, uint32_t t) {
  State &s = c.state();
  switch (a) {
  case Avc::None:
    return true;
  case Avc::U8:
    return c.intScalar(t, 8);
  case Avc::U16:
    return c.intScalar(t, 16);
  case Avc::U32:
    return c.intScalar(t, 32);
  case Avc::U64:
    return c.intScalar(t, 64);
  case Avc::U8or16:
    return c.intScalar(t, 8) || c.intScalar(t, 16);
  case Avc::U8or32:
    return c.intScalar(t, 8) || c.intScalar(t, 32);
  case Avc::Int:
    return c.intScalar(t);
  case Avc::U16x2:
    return c.intVector(t, 2, 16);
  case Avc::U32x2:
    return c.intVector(t, 2, 32);
  case Avc::MceOrImeR:
    return s.defOpcode(t) == Op::TypeAvcMceResultINTEL ||
           s.defOpcode(t) == Op::TypeAvcImeResultINTEL;
  default:
    return s.defOpcode(t) == avcTypeOpcode(a);
  }
}

std::string avcShape(Avc a) {
  switch (a) {
  case Avc::None:
    return "anything";
  case Avc::U8:
    return "an 8-bit integer scalar";
  case Avc::U16:
    return "a 16-bit integer scalar";
  case Avc::U32:
    return "a 32-bit integer scalar";
  case Avc::U64:
    return "a 64-bit integer scalar";
  case Avc::U8or16:
    return "an 8- or 16-bit integer scalar";
  case Avc::U8or32:
    return "an 8- or 32-bit integer scalar";
  case Avc::Int:
    return "an integer scalar";
  case Avc::U16x2:
    return "a vector of two 16-bit integers";
  case Avc::U32x2:
    return "a vector of two 32-bit integers";
  case Avc::MceOrImeR:
    return "an OpTypeAvcMceResultINTEL or OpTypeAvcImeResultINTEL";
  default:
    return "an " + State::opcodeName(avcTypeOpcode(a));
  }
}

/// One row: the instructions, their result, their operands in order (as many as they have).
struct AvcRow {
  std::array<Op, 4> ops;
  Avc result;
  std::array<Avc, 11> operands;
};

using enum Avc;

// clang-format off
constexpr AvcRow kAvcRows[] = {
    {{Op::VmeImageINTEL}, VmeImage, {Image, Sampler}},
    // Evaluations: VME images of the source and the references (or packed reference ids and
    // field polarities) and a payload give the result of their kind.
    {{Op::SubgroupAvcImeEvaluateWithSingleReferenceINTEL}, ImeR, {VmeImage, VmeImage, ImeP}},
    {{Op::SubgroupAvcImeEvaluateWithDualReferenceINTEL}, ImeR,
     {VmeImage, VmeImage, VmeImage, ImeP}},
    {{Op::SubgroupAvcImeEvaluateWithSingleReferenceStreaminINTEL}, ImeR,
     {VmeImage, VmeImage, ImeP, SingleIn}},
    {{Op::SubgroupAvcImeEvaluateWithDualReferenceStreaminINTEL}, ImeR,
     {VmeImage, VmeImage, VmeImage, ImeP, DualIn}},
    {{Op::SubgroupAvcImeEvaluateWithSingleReferenceStreamoutINTEL}, SingleOut,
     {VmeImage, VmeImage, ImeP}},
    {{Op::SubgroupAvcImeEvaluateWithDualReferenceStreamoutINTEL}, DualOut,
     {VmeImage, VmeImage, VmeImage, ImeP}},
    {{Op::SubgroupAvcImeEvaluateWithSingleReferenceStreaminoutINTEL}, SingleOut,
     {VmeImage, VmeImage, ImeP, SingleIn}},
    {{Op::SubgroupAvcImeEvaluateWithDualReferenceStreaminoutINTEL}, DualOut,
     {VmeImage, VmeImage, VmeImage, ImeP, DualIn}},
    {{Op::SubgroupAvcRefEvaluateWithSingleReferenceINTEL}, RefR, {VmeImage, VmeImage, RefP}},
    {{Op::SubgroupAvcRefEvaluateWithDualReferenceINTEL}, RefR,
     {VmeImage, VmeImage, VmeImage, RefP}},
    {{Op::SubgroupAvcRefEvaluateWithMultiReferenceINTEL}, RefR, {VmeImage, U32, RefP}},
    {{Op::SubgroupAvcRefEvaluateWithMultiReferenceInterlacedINTEL}, RefR,
     {VmeImage, U32, Int, RefP}},
    {{Op::SubgroupAvcSicEvaluateIpeINTEL}, SicR, {VmeImage, SicP}},
    {{Op::SubgroupAvcSicEvaluateWithSingleReferenceINTEL}, SicR, {VmeImage, VmeImage, SicP}},
    {{Op::SubgroupAvcSicEvaluateWithDualReferenceINTEL}, SicR,
     {VmeImage, VmeImage, VmeImage, SicP}},
    {{Op::SubgroupAvcSicEvaluateWithMultiReferenceINTEL}, SicR, {VmeImage, U32, SicP}},
    {{Op::SubgroupAvcSicEvaluateWithMultiReferenceInterlacedINTEL}, SicR,
     {VmeImage, U32, Int, SicP}},
    // MCE: defaults by slice type and Qp, setters of the generic payload, conversions, readers
    // of the result.
    {{Op::SubgroupAvcMceGetDefaultInterBaseMultiReferencePenaltyINTEL,
      Op::SubgroupAvcMceGetDefaultInterDirectionPenaltyINTEL,
      Op::SubgroupAvcMceGetDefaultIntraLumaModePenaltyINTEL}, U8, {U8, U8}},
    {{Op::SubgroupAvcMceGetDefaultInterShapePenaltyINTEL}, U64, {U8, U8}},
    {{Op::SubgroupAvcMceGetDefaultIntraLumaShapePenaltyINTEL}, U32, {U8, U8}},
    {{Op::SubgroupAvcMceGetDefaultInterMotionVectorCostTableINTEL}, U32x2, {U8, U8}},
    {{Op::SubgroupAvcMceGetDefaultHighPenaltyCostTableINTEL,
      Op::SubgroupAvcMceGetDefaultMediumPenaltyCostTableINTEL,
      Op::SubgroupAvcMceGetDefaultLowPenaltyCostTableINTEL}, U32x2, {}},
    {{Op::SubgroupAvcMceGetDefaultNonDcLumaIntraPenaltyINTEL}, U32, {}},
    {{Op::SubgroupAvcMceGetDefaultIntraChromaModeBasePenaltyINTEL}, U8, {}},
    {{Op::SubgroupAvcMceSetInterBaseMultiReferencePenaltyINTEL,
      Op::SubgroupAvcMceSetInterDirectionPenaltyINTEL,
      Op::SubgroupAvcMceSetSourceInterlacedFieldPolarityINTEL,
      Op::SubgroupAvcMceSetSingleReferenceInterlacedFieldPolarityINTEL}, MceP, {U8, MceP}},
    {{Op::SubgroupAvcMceSetInterShapePenaltyINTEL}, MceP, {U64, MceP}},
    {{Op::SubgroupAvcMceSetDualReferenceInterlacedFieldPolaritiesINTEL}, MceP, {U8, U8, MceP}},
    {{Op::SubgroupAvcMceSetMotionVectorCostFunctionINTEL}, MceP, {U64, U32x2, U8, MceP}},
    {{Op::SubgroupAvcMceSetAcOnlyHaarINTEL}, MceP, {MceP}},
    {{Op::SubgroupAvcMceConvertToImePayloadINTEL}, ImeP, {MceP}},
    {{Op::SubgroupAvcMceConvertToRefPayloadINTEL}, RefP, {MceP}},
    {{Op::SubgroupAvcMceConvertToSicPayloadINTEL}, SicP, {MceP}},
    {{Op::SubgroupAvcMceConvertToImeResultINTEL}, ImeR, {MceR}},
    {{Op::SubgroupAvcMceConvertToRefResultINTEL}, RefR, {MceR}},
    {{Op::SubgroupAvcMceConvertToSicResultINTEL}, SicR, {MceR}},
    {{Op::SubgroupAvcImeConvertToMcePayloadINTEL}, MceP, {ImeP}},
    {{Op::SubgroupAvcRefConvertToMcePayloadINTEL}, MceP, {RefP}},
    {{Op::SubgroupAvcSicConvertToMcePayloadINTEL}, MceP, {SicP}},
    {{Op::SubgroupAvcImeConvertToMceResultINTEL}, MceR, {ImeR}},
    {{Op::SubgroupAvcRefConvertToMceResultINTEL}, MceR, {RefR}},
    {{Op::SubgroupAvcSicConvertToMceResultINTEL}, MceR, {SicR}},
    {{Op::SubgroupAvcMceGetMotionVectorsINTEL}, U64, {MceOrImeR}},
    {{Op::SubgroupAvcMceGetInterDistortionsINTEL,
      Op::SubgroupAvcMceGetBestInterDistortionsINTEL}, U16, {MceOrImeR}},
    {{Op::SubgroupAvcMceGetInterMajorShapeINTEL, Op::SubgroupAvcMceGetInterMinorShapeINTEL,
      Op::SubgroupAvcMceGetInterDirectionsINTEL,
      Op::SubgroupAvcMceGetInterMotionVectorCountINTEL}, U8, {MceOrImeR}},
    {{Op::SubgroupAvcMceGetInterReferenceIdsINTEL}, U32, {MceOrImeR}},
    {{Op::SubgroupAvcMceGetInterReferenceInterlacedFieldPolaritiesINTEL}, U8,
     {U32, U32, MceOrImeR}},
    // IME: source coordinates, reference offsets and window sizes are pairs of 16-bit integers.
    {{Op::SubgroupAvcImeInitializeINTEL}, ImeP, {U16x2, U8, U8}},
    {{Op::SubgroupAvcImeSetSingleReferenceINTEL}, ImeP, {U16x2, U8, ImeP}},
    {{Op::SubgroupAvcImeSetDualReferenceINTEL}, ImeP, {U16x2, U16x2, U8, ImeP}},
    {{Op::SubgroupAvcImeRefWindowSizeINTEL}, U16x2, {U8, U8}},
    {{Op::SubgroupAvcImeAdjustRefOffsetINTEL}, U16x2, {U16x2, U16x2, U16x2, U16x2}},
    {{Op::SubgroupAvcImeSetMaxMotionVectorCountINTEL,
      Op::SubgroupAvcImeSetEarlySearchTerminationThresholdINTEL}, ImeP, {U8, ImeP}},
    {{Op::SubgroupAvcImeSetUnidirectionalMixDisableINTEL}, ImeP, {ImeP}},
    {{Op::SubgroupAvcImeSetWeightedSadINTEL}, ImeP, {U32, ImeP}},
    {{Op::SubgroupAvcImeGetSingleReferenceStreaminINTEL}, SingleIn, {SingleOut}},
    {{Op::SubgroupAvcImeGetDualReferenceStreaminINTEL}, DualIn, {DualOut}},
    {{Op::SubgroupAvcImeStripSingleReferenceStreamoutINTEL}, ImeR, {SingleOut}},
    {{Op::SubgroupAvcImeStripDualReferenceStreamoutINTEL}, ImeR, {DualOut}},
    {{Op::SubgroupAvcImeGetStreamoutSingleReferenceMajorShapeMotionVectorsINTEL}, U32,
     {SingleOut, U8}},
    {{Op::SubgroupAvcImeGetStreamoutSingleReferenceMajorShapeDistortionsINTEL}, U16,
     {SingleOut, U8}},
    {{Op::SubgroupAvcImeGetStreamoutSingleReferenceMajorShapeReferenceIdsINTEL}, U8,
     {SingleOut, U8}},
    {{Op::SubgroupAvcImeGetStreamoutDualReferenceMajorShapeMotionVectorsINTEL}, U32,
     {DualOut, U8, U8}},
    {{Op::SubgroupAvcImeGetStreamoutDualReferenceMajorShapeDistortionsINTEL}, U16,
     {DualOut, U8, U8}},
    {{Op::SubgroupAvcImeGetStreamoutDualReferenceMajorShapeReferenceIdsINTEL}, U8,
     {DualOut, U8, U8}},
    {{Op::SubgroupAvcImeGetBorderReachedINTEL}, U8, {U8, ImeR}},
    {{Op::SubgroupAvcImeGetTruncatedSearchIndicationINTEL,
      Op::SubgroupAvcImeGetUnidirectionalEarlySearchTerminationINTEL}, U8, {ImeR}},
    {{Op::SubgroupAvcImeGetWeightingPatternMinimumMotionVectorINTEL}, U32, {ImeR}},
    {{Op::SubgroupAvcImeGetWeightingPatternMinimumDistortionINTEL}, U16, {ImeR}},
    // REF: packed bidirectional motion vectors are 64-bit integers.
    {{Op::SubgroupAvcFmeInitializeINTEL}, RefP, {U16x2, U64, U8, U8, U8, U8, U8}},
    {{Op::SubgroupAvcBmeInitializeINTEL}, RefP, {U16x2, U64, U8, U8, U8, U8, U8, U8}},
    {{Op::SubgroupAvcRefSetBidirectionalMixDisableINTEL,
      Op::SubgroupAvcRefSetBilinearFilterEnableINTEL}, RefP, {RefP}},
    // SIC.
    {{Op::SubgroupAvcSicInitializeINTEL}, SicP, {U16x2}},
    {{Op::SubgroupAvcSicConfigureSkcINTEL}, SicP, {U8or32, U32, U64, U8, U8, SicP}},
    {{Op::SubgroupAvcSicConfigureIpeLumaINTEL}, SicP, {U8, U8, U8, U8, U8, U8, U8, SicP}},
    {{Op::SubgroupAvcSicConfigureIpeLumaChromaINTEL}, SicP,
     {U8, U8, U8, U8, U8, U8, U8or16, U8or16, U8or16, U8, SicP}},
    {{Op::SubgroupAvcSicGetMotionVectorMaskINTEL}, U32, {U32, U8}},
    {{Op::SubgroupAvcSicSetIntraLumaShapePenaltyINTEL}, SicP, {U32, SicP}},
    {{Op::SubgroupAvcSicSetIntraLumaModeCostFunctionINTEL}, SicP, {U8, U32, U32, SicP}},
    {{Op::SubgroupAvcSicSetIntraChromaModeCostFunctionINTEL,
      Op::SubgroupAvcSicSetBlockBasedRawSkipSadINTEL}, SicP, {U8, SicP}},
    {{Op::SubgroupAvcSicSetBilinearFilterEnableINTEL}, SicP, {SicP}},
    {{Op::SubgroupAvcSicSetSkcForwardTransformEnableINTEL}, SicP, {U64, SicP}},
    {{Op::SubgroupAvcSicGetIpeLumaShapeINTEL, Op::SubgroupAvcSicGetIpeChromaModeINTEL}, U8,
     {SicR}},
    {{Op::SubgroupAvcSicGetBestIpeLumaDistortionINTEL,
      Op::SubgroupAvcSicGetBestIpeChromaDistortionINTEL, Op::SubgroupAvcSicGetInterRawSadsINTEL},
     U16, {SicR}},
    {{Op::SubgroupAvcSicGetPackedIpeLumaModesINTEL,
      Op::SubgroupAvcSicGetPackedSkcLumaSumThresholdINTEL}, U64, {SicR}},
    {{Op::SubgroupAvcSicGetPackedSkcLumaCountThresholdINTEL}, U32, {SicR}},
};
// clang-format on

const AvcRow *avcRow(uint32_t opcode) {
  static const auto *rows = [] {
    auto *m = new std::unordered_map<uint32_t, const AvcRow *>; // never torn down
    for (const AvcRow &row : kAvcRows)
      for (Op op : row.ops)
        if (op != Op::Nop)
          m->emplace(uint32_t(op), &row);
    return m;
  }();
  auto it = rows->find(opcode);
  return it == rows->end() ? nullptr : it->second;
}

void avc(State &s, const Instruction &inst, const AvcRow &row) {
  OperandCheck c(s, inst, kAvc);
  if (!c.result(avcShape(row.result), [&](uint32_t t) { return avcFits(c, row.result, t); }))
    return;
  const std::vector<uint32_t> words = idOperandWords(inst);
  for (size_t k = 0; k < words.size() && k < row.operands.size(); ++k) {
    const Avc a = row.operands[k];
    if (!c.operand(words[k], operandName(inst, words[k]), avcShape(a),
                   [&](uint32_t t) { return avcFits(c, a, t); }))
      return;
  }
  // OpVmeImageINTEL: the VME image of the image's type.
  if (inst.opcode() == Op::VmeImageINTEL && !words.empty()) {
    std::optional<Instruction> vme = s.def(inst.typeId());
    const uint32_t image = c.type(words[0]);
    if (vme && vme->wordCount() >= 3 && image != 0 && vme->word(2) != image)
      c.fail("the result type " + s.name(inst.typeId()) + " must be the VME image of " +
             s.name(image) + ", the type of Image Type " + s.name(c.id(words[0])));
  }
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

// --- Integer functions, media blocks ------------------------------------------------------------

// %r = OpUCountLeadingZerosINTEL %type %operand, %r = OpIAddSatINTEL %type %operand1 %operand2
// and the other integer functions.
void integerFunction(State &s, const Instruction &inst, bool only32, uint32_t operands) {
  OperandCheck c(s, inst, "SPV_INTEL_shader_integer_functions2");
  const uint32_t r = c.resultType();
  if (!c.result(
          only32 ? "a 32-bit integer scalar or vector" : "an integer scalar or vector",
          [&](uint32_t t) { return s.isIntScalarOrVector(t) && (!only32 || s.bitWidth(t) == 32); }))
    return;
  // "The type of Operand 1 and Operand 2 must be the same as Result Type" (OpAbsISubINTEL: as
  // many components of the same width).
  for (uint32_t k = 0; k < operands; ++k) {
    const std::string what = operands == 1 ? "Operand" : "Operand " + std::to_string(k + 1);
    if (!c.operand(
            3 + k, what, [&] { return "of the result type " + s.name(r) + ", signedness aside"; },
            [&](uint32_t t) {
              return t == r ||
                     (s.isIntScalarOrVector(t) && s.isVectorType(t) == s.isVectorType(r) &&
                      s.componentCount(t) == s.componentCount(r) && s.bitWidth(t) == s.bitWidth(r));
            }))
      return;
  }
}

// %r = OpSubgroupImageMediaBlockReadINTEL %type %image %coordinate %width %height
// OpSubgroupImageMediaBlockWriteINTEL %image %coordinate %width %height %data
void mediaBlock(State &s, const Instruction &inst, bool read) {
  OperandCheck c(s, inst, "SPV_INTEL_media_block_io");
  const uint32_t first = read ? 3 : 1;
  auto intScalarOrVector = [&](uint32_t t) { return s.isIntScalarOrVector(t); };
  if (read && !c.result("an integer scalar or vector", intScalarOrVector))
    return;
  // "Image must be an object whose type is OpTypeImage with a Sampled operand of 0 or 2."
  if (!c.operand(first, "Image", "an OpTypeImage whose Sampled is 0 or 2", [&](uint32_t t) {
        std::optional<Instruction> d = s.def(t);
        return d && d->opcode() == Op::TypeImage && d->wordCount() >= 9 &&
               (d->word(7) == 0 || d->word(7) == 2);
      }))
    return;
  if (!c.operand(first + 1, "Coordinate", "a vector of two integers",
                 [&](uint32_t t) {
                   return s.isVectorType(t) && s.isIntScalarOrVector(t) && s.componentCount(t) == 2;
                 }) ||
      !c.operand(first + 2, "Width", "an integer scalar",
                 [&](uint32_t t) { return c.intScalar(t); }) ||
      !c.operand(first + 3, "Height", "an integer scalar",
                 [&](uint32_t t) { return c.intScalar(t); }))
    return;
  if (!read)
    c.operand(first + 4, "Data", "an integer scalar or vector", intScalarOrVector);
}

bool isArbitraryFloat(uint32_t op) {
  return op >= uint32_t(Op::ArbitraryFloatSinCosPiINTEL) &&
         op <= uint32_t(Op::ArbitraryFloatPowNINTEL) &&
         State::opcodeName(static_cast<Op>(op)).starts_with("OpArbitraryFloat");
}

} // namespace

void checkIntel(State &s) {
  forEachInstruction(s, [&](const Instruction &inst, uint32_t op) {
    if (const AvcRow *row = avcRow(op)) {
      avc(s, inst, *row);
      return;
    }
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
    case Op::UCountLeadingZerosINTEL:
    case Op::UCountTrailingZerosINTEL:
      integerFunction(s, inst, true, 1);
      break;
    case Op::IMul32x16INTEL:
    case Op::UMul32x16INTEL:
      integerFunction(s, inst, true, 2);
      break;
    case Op::AbsISubINTEL:
    case Op::AbsUSubINTEL:
    case Op::IAddSatINTEL:
    case Op::UAddSatINTEL:
    case Op::IAverageINTEL:
    case Op::UAverageINTEL:
    case Op::IAverageRoundedINTEL:
    case Op::UAverageRoundedINTEL:
    case Op::ISubSatINTEL:
    case Op::USubSatINTEL:
      integerFunction(s, inst, false, 2);
      break;
    case Op::SubgroupImageMediaBlockReadINTEL:
    case Op::SubgroupImageMediaBlockWriteINTEL:
      mediaBlock(s, inst, inst.opcode() == Op::SubgroupImageMediaBlockReadINTEL);
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
