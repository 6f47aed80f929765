// The operand and result types of AVC motion estimation, NV hit object, INTEL integer function
// and media block instructions, as their extensions state them (see OperandTypes.h). Where the
// extension's text and what producers emit disagree, the table allows both (noted at the row);
// spire val and the dialect's verifier read these rows and nothing else for these instructions, so
// they cannot disagree on them.
#include "spire/grammar/OperandTypes.h"

#include "spire/grammar/Grammar.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace spire::grammar {

namespace {

using S = TypeShape;

constexpr const char *kAvc = "SPV_INTEL_device_side_avc_motion_estimation";
constexpr const char *kReorder = "SPV_NV_shader_invocation_reorder";

constexpr TypeConstraint type(Op t, const char *name = nullptr) {
  return {S::Type, t, Op::Nop, name};
}
constexpr TypeConstraint named(TypeConstraint c, const char *name) {
  c.name = name;
  return c;
}

// --- SPV_INTEL_device_side_avc_motion_estimation -------------------------------------------
// Integers of the widths the extension names (its "unsigned" is not checked: signedness never
// is for these), pairs of 16-bit integers for coordinates, offsets and window sizes, of 32-bit
// ones for cost tables; payloads and results of each kind.
constexpr TypeConstraint kU8{S::Int8}, kU16{S::Int16}, kU32{S::Int32}, kU64{S::Int64},
    kU8or16{S::Int8or16}, kU8or32{S::Int8or32}, kInt{S::Int}, kU16x2{S::Int16x2},
    kU32x2{S::Int32x2};
constexpr TypeConstraint kImage = type(Op::TypeImage), kSampler = type(Op::TypeSampler),
                         kVme = type(Op::TypeVmeImageINTEL),
                         kMceP = type(Op::TypeAvcMcePayloadINTEL),
                         kImeP = type(Op::TypeAvcImePayloadINTEL),
                         kRefP = type(Op::TypeAvcRefPayloadINTEL),
                         kSicP = type(Op::TypeAvcSicPayloadINTEL),
                         kMceR = type(Op::TypeAvcMceResultINTEL),
                         kImeR = type(Op::TypeAvcImeResultINTEL),
                         kRefR = type(Op::TypeAvcRefResultINTEL),
                         kSicR = type(Op::TypeAvcSicResultINTEL),
                         kSingleOut = type(Op::TypeAvcImeResultSingleReferenceStreamoutINTEL),
                         kDualOut = type(Op::TypeAvcImeResultDualReferenceStreamoutINTEL),
                         kSingleIn = type(Op::TypeAvcImeSingleReferenceStreaminINTEL),
                         kDualIn = type(Op::TypeAvcImeDualReferenceStreaminINTEL);
// What the MCE result readers take: the text names the IME result, the OpenCL built-ins they
// were written for (and so the producers) pass the generic MCE result.
constexpr TypeConstraint kMceOrImeR{S::TypeOrAlt, Op::TypeAvcMceResultINTEL,
                                    Op::TypeAvcImeResultINTEL};

// clang-format off
constexpr OperandTypeRule kAvcRows[] = {
    {{Op::VmeImageINTEL}, kVme, {kImage, kSampler}},
    // Evaluations: VME images of the source and the references (or packed reference ids and
    // field polarities) and a payload give the result of their kind.
    {{Op::SubgroupAvcImeEvaluateWithSingleReferenceINTEL}, kImeR, {kVme, kVme, kImeP}},
    {{Op::SubgroupAvcImeEvaluateWithDualReferenceINTEL}, kImeR,
     {kVme, kVme, kVme, kImeP}},
    {{Op::SubgroupAvcImeEvaluateWithSingleReferenceStreaminINTEL}, kImeR,
     {kVme, kVme, kImeP, kSingleIn}},
    {{Op::SubgroupAvcImeEvaluateWithDualReferenceStreaminINTEL}, kImeR,
     {kVme, kVme, kVme, kImeP, kDualIn}},
    {{Op::SubgroupAvcImeEvaluateWithSingleReferenceStreamoutINTEL}, kSingleOut,
     {kVme, kVme, kImeP}},
    {{Op::SubgroupAvcImeEvaluateWithDualReferenceStreamoutINTEL}, kDualOut,
     {kVme, kVme, kVme, kImeP}},
    {{Op::SubgroupAvcImeEvaluateWithSingleReferenceStreaminoutINTEL}, kSingleOut,
     {kVme, kVme, kImeP, kSingleIn}},
    {{Op::SubgroupAvcImeEvaluateWithDualReferenceStreaminoutINTEL}, kDualOut,
     {kVme, kVme, kVme, kImeP, kDualIn}},
    {{Op::SubgroupAvcRefEvaluateWithSingleReferenceINTEL}, kRefR, {kVme, kVme, kRefP}},
    {{Op::SubgroupAvcRefEvaluateWithDualReferenceINTEL}, kRefR,
     {kVme, kVme, kVme, kRefP}},
    {{Op::SubgroupAvcRefEvaluateWithMultiReferenceINTEL}, kRefR, {kVme, kU32, kRefP}},
    {{Op::SubgroupAvcRefEvaluateWithMultiReferenceInterlacedINTEL}, kRefR,
     {kVme, kU32, kInt, kRefP}},
    {{Op::SubgroupAvcSicEvaluateIpeINTEL}, kSicR, {kVme, kSicP}},
    {{Op::SubgroupAvcSicEvaluateWithSingleReferenceINTEL}, kSicR, {kVme, kVme, kSicP}},
    {{Op::SubgroupAvcSicEvaluateWithDualReferenceINTEL}, kSicR,
     {kVme, kVme, kVme, kSicP}},
    {{Op::SubgroupAvcSicEvaluateWithMultiReferenceINTEL}, kSicR, {kVme, kU32, kSicP}},
    {{Op::SubgroupAvcSicEvaluateWithMultiReferenceInterlacedINTEL}, kSicR,
     {kVme, kU32, kInt, kSicP}},
    // MCE: defaults by slice type and Qp, setters of the generic payload, conversions, readers
    // of the result.
    {{Op::SubgroupAvcMceGetDefaultInterBaseMultiReferencePenaltyINTEL,
      Op::SubgroupAvcMceGetDefaultInterDirectionPenaltyINTEL,
      Op::SubgroupAvcMceGetDefaultIntraLumaModePenaltyINTEL}, kU8, {kU8, kU8}},
    {{Op::SubgroupAvcMceGetDefaultInterShapePenaltyINTEL}, kU64, {kU8, kU8}},
    {{Op::SubgroupAvcMceGetDefaultIntraLumaShapePenaltyINTEL}, kU32, {kU8, kU8}},
    {{Op::SubgroupAvcMceGetDefaultInterMotionVectorCostTableINTEL}, kU32x2, {kU8, kU8}},
    {{Op::SubgroupAvcMceGetDefaultHighPenaltyCostTableINTEL,
      Op::SubgroupAvcMceGetDefaultMediumPenaltyCostTableINTEL,
      Op::SubgroupAvcMceGetDefaultLowPenaltyCostTableINTEL}, kU32x2, {}},
    {{Op::SubgroupAvcMceGetDefaultNonDcLumaIntraPenaltyINTEL}, kU32, {}},
    {{Op::SubgroupAvcMceGetDefaultIntraChromaModeBasePenaltyINTEL}, kU8, {}},
    {{Op::SubgroupAvcMceSetInterBaseMultiReferencePenaltyINTEL,
      Op::SubgroupAvcMceSetInterDirectionPenaltyINTEL,
      Op::SubgroupAvcMceSetSourceInterlacedFieldPolarityINTEL,
      Op::SubgroupAvcMceSetSingleReferenceInterlacedFieldPolarityINTEL}, kMceP, {kU8, kMceP}},
    {{Op::SubgroupAvcMceSetInterShapePenaltyINTEL}, kMceP, {kU64, kMceP}},
    {{Op::SubgroupAvcMceSetDualReferenceInterlacedFieldPolaritiesINTEL}, kMceP, {kU8, kU8, kMceP}},
    {{Op::SubgroupAvcMceSetMotionVectorCostFunctionINTEL}, kMceP, {kU64, kU32x2, kU8, kMceP}},
    {{Op::SubgroupAvcMceSetAcOnlyHaarINTEL}, kMceP, {kMceP}},
    {{Op::SubgroupAvcMceConvertToImePayloadINTEL}, kImeP, {kMceP}},
    {{Op::SubgroupAvcMceConvertToRefPayloadINTEL}, kRefP, {kMceP}},
    {{Op::SubgroupAvcMceConvertToSicPayloadINTEL}, kSicP, {kMceP}},
    {{Op::SubgroupAvcMceConvertToImeResultINTEL}, kImeR, {kMceR}},
    {{Op::SubgroupAvcMceConvertToRefResultINTEL}, kRefR, {kMceR}},
    {{Op::SubgroupAvcMceConvertToSicResultINTEL}, kSicR, {kMceR}},
    {{Op::SubgroupAvcImeConvertToMcePayloadINTEL}, kMceP, {kImeP}},
    {{Op::SubgroupAvcRefConvertToMcePayloadINTEL}, kMceP, {kRefP}},
    {{Op::SubgroupAvcSicConvertToMcePayloadINTEL}, kMceP, {kSicP}},
    {{Op::SubgroupAvcImeConvertToMceResultINTEL}, kMceR, {kImeR}},
    {{Op::SubgroupAvcRefConvertToMceResultINTEL}, kMceR, {kRefR}},
    {{Op::SubgroupAvcSicConvertToMceResultINTEL}, kMceR, {kSicR}},
    {{Op::SubgroupAvcMceGetMotionVectorsINTEL}, kU64, {kMceOrImeR}},
    {{Op::SubgroupAvcMceGetInterDistortionsINTEL,
      Op::SubgroupAvcMceGetBestInterDistortionsINTEL}, kU16, {kMceOrImeR}},
    {{Op::SubgroupAvcMceGetInterMajorShapeINTEL, Op::SubgroupAvcMceGetInterMinorShapeINTEL,
      Op::SubgroupAvcMceGetInterDirectionsINTEL,
      Op::SubgroupAvcMceGetInterMotionVectorCountINTEL}, kU8, {kMceOrImeR}},
    {{Op::SubgroupAvcMceGetInterReferenceIdsINTEL}, kU32, {kMceOrImeR}},
    {{Op::SubgroupAvcMceGetInterReferenceInterlacedFieldPolaritiesINTEL}, kU8,
     {kU32, kU32, kMceOrImeR}},
    // IME: source coordinates, reference offsets and window sizes are pairs of 16-bit integers.
    {{Op::SubgroupAvcImeInitializeINTEL}, kImeP, {kU16x2, kU8, kU8}},
    {{Op::SubgroupAvcImeSetSingleReferenceINTEL}, kImeP, {kU16x2, kU8, kImeP}},
    {{Op::SubgroupAvcImeSetDualReferenceINTEL}, kImeP, {kU16x2, kU16x2, kU8, kImeP}},
    {{Op::SubgroupAvcImeRefWindowSizeINTEL}, kU16x2, {kU8, kU8}},
    {{Op::SubgroupAvcImeAdjustRefOffsetINTEL}, kU16x2, {kU16x2, kU16x2, kU16x2, kU16x2}},
    {{Op::SubgroupAvcImeSetMaxMotionVectorCountINTEL,
      Op::SubgroupAvcImeSetEarlySearchTerminationThresholdINTEL}, kImeP, {kU8, kImeP}},
    {{Op::SubgroupAvcImeSetUnidirectionalMixDisableINTEL}, kImeP, {kImeP}},
    {{Op::SubgroupAvcImeSetWeightedSadINTEL}, kImeP, {kU32, kImeP}},
    {{Op::SubgroupAvcImeGetSingleReferenceStreaminINTEL}, kSingleIn, {kSingleOut}},
    {{Op::SubgroupAvcImeGetDualReferenceStreaminINTEL}, kDualIn, {kDualOut}},
    {{Op::SubgroupAvcImeStripSingleReferenceStreamoutINTEL}, kImeR, {kSingleOut}},
    {{Op::SubgroupAvcImeStripDualReferenceStreamoutINTEL}, kImeR, {kDualOut}},
    {{Op::SubgroupAvcImeGetStreamoutSingleReferenceMajorShapeMotionVectorsINTEL}, kU32,
     {kSingleOut, kU8}},
    {{Op::SubgroupAvcImeGetStreamoutSingleReferenceMajorShapeDistortionsINTEL}, kU16,
     {kSingleOut, kU8}},
    {{Op::SubgroupAvcImeGetStreamoutSingleReferenceMajorShapeReferenceIdsINTEL}, kU8,
     {kSingleOut, kU8}},
    {{Op::SubgroupAvcImeGetStreamoutDualReferenceMajorShapeMotionVectorsINTEL}, kU32,
     {kDualOut, kU8, kU8}},
    {{Op::SubgroupAvcImeGetStreamoutDualReferenceMajorShapeDistortionsINTEL}, kU16,
     {kDualOut, kU8, kU8}},
    {{Op::SubgroupAvcImeGetStreamoutDualReferenceMajorShapeReferenceIdsINTEL}, kU8,
     {kDualOut, kU8, kU8}},
    {{Op::SubgroupAvcImeGetBorderReachedINTEL}, kU8, {kU8, kImeR}},
    {{Op::SubgroupAvcImeGetTruncatedSearchIndicationINTEL,
      Op::SubgroupAvcImeGetUnidirectionalEarlySearchTerminationINTEL}, kU8, {kImeR}},
    {{Op::SubgroupAvcImeGetWeightingPatternMinimumMotionVectorINTEL}, kU32, {kImeR}},
    {{Op::SubgroupAvcImeGetWeightingPatternMinimumDistortionINTEL}, kU16, {kImeR}},
    // REF: packed bidirectional motion vectors are 64-bit integers.
    {{Op::SubgroupAvcFmeInitializeINTEL}, kRefP, {kU16x2, kU64, kU8, kU8, kU8, kU8, kU8}},
    {{Op::SubgroupAvcBmeInitializeINTEL}, kRefP, {kU16x2, kU64, kU8, kU8, kU8, kU8, kU8, kU8}},
    {{Op::SubgroupAvcRefSetBidirectionalMixDisableINTEL,
      Op::SubgroupAvcRefSetBilinearFilterEnableINTEL}, kRefP, {kRefP}},
    // SIC.
    {{Op::SubgroupAvcSicInitializeINTEL}, kSicP, {kU16x2}},
    {{Op::SubgroupAvcSicConfigureSkcINTEL}, kSicP, {kU8or32, kU32, kU64, kU8, kU8, kSicP}},
    {{Op::SubgroupAvcSicConfigureIpeLumaINTEL}, kSicP, {kU8, kU8, kU8, kU8, kU8, kU8, kU8, kSicP}},
    {{Op::SubgroupAvcSicConfigureIpeLumaChromaINTEL}, kSicP,
     {kU8, kU8, kU8, kU8, kU8, kU8, kU8or16, kU8or16, kU8or16, kU8, kSicP}},
    {{Op::SubgroupAvcSicGetMotionVectorMaskINTEL}, kU32, {kU32, kU8}},
    {{Op::SubgroupAvcSicSetIntraLumaShapePenaltyINTEL}, kSicP, {kU32, kSicP}},
    {{Op::SubgroupAvcSicSetIntraLumaModeCostFunctionINTEL}, kSicP, {kU8, kU32, kU32, kSicP}},
    {{Op::SubgroupAvcSicSetIntraChromaModeCostFunctionINTEL,
      Op::SubgroupAvcSicSetBlockBasedRawSkipSadINTEL}, kSicP, {kU8, kSicP}},
    {{Op::SubgroupAvcSicSetBilinearFilterEnableINTEL}, kSicP, {kSicP}},
    {{Op::SubgroupAvcSicSetSkcForwardTransformEnableINTEL}, kSicP, {kU64, kSicP}},
    {{Op::SubgroupAvcSicGetIpeLumaShapeINTEL, Op::SubgroupAvcSicGetIpeChromaModeINTEL}, kU8,
     {kSicR}},
    {{Op::SubgroupAvcSicGetBestIpeLumaDistortionINTEL,
      Op::SubgroupAvcSicGetBestIpeChromaDistortionINTEL, Op::SubgroupAvcSicGetInterRawSadsINTEL},
     kU16, {kSicR}},
    {{Op::SubgroupAvcSicGetPackedIpeLumaModesINTEL,
      Op::SubgroupAvcSicGetPackedSkcLumaSumThresholdINTEL}, kU64, {kSicR}},
    {{Op::SubgroupAvcSicGetPackedSkcLumaCountThresholdINTEL}, kU32, {kSicR}},
};
// clang-format on

// --- SPV_NV_shader_invocation_reorder (and the hit object queries of newer NV extensions) ----
// Records, traces and the reorders take what OpTraceRayKHR takes: an acceleration structure,
// 32-bit integer instance, primitive, geometry, hit kind, flags, mask and shader binding table
// operands (Hit Kind, SBT Record Index and a record's Miss Index unsigned), 32-bit float
// three-component origin and direction, scalar Tmin, Tmax and Current Time; the payload and the
// hit object attributes are variables of their storage classes. The queries give booleans,
// 32-bit integers and floats, three-component float vectors, 4x3 float matrices (the
// transforms), a vector of two 32-bit integers (the shader record buffer handle), and arrays of
// two of those (the linear swept spheres).
constexpr TypeConstraint kNone{}, kI32{S::Int32}, kU32u{S::UInt32}, kF32{S::Float32},
    kF32x3{S::Float32x3}, kBool{S::Bool}, kMat4x3{S::Float32Mat4x3}, kF32Pair{S::Float32Pair},
    kF32x3Pair{S::Float32x3Pair};
constexpr TypeConstraint kObject{S::PointerToType, Op::TypeHitObjectNV, Op::Nop, "Hit Object"},
    kAccel = type(Op::TypeAccelerationStructureKHR, "Acceleration Structure"),
    kOrigin = named(kF32x3, "Ray Origin"), kTmin = named(kF32, "Ray Tmin"),
    kDirection = named(kF32x3, "Ray Direction"), kTmax = named(kF32, "Ray Tmax"),
    kTime = named(kF32, "Current Time"),
    kAttributes{S::HitAttributes, Op::Nop, Op::Nop, "Hit Object Attributes"},
    kPayload{S::RayPayload, Op::Nop, Op::Nop, "Payload"}, kHint = named(kI32, "Hint"),
    kBits = named(kI32, "Bits");

// clang-format off
constexpr OperandTypeRule kHitRows[] = {
    // Records of a hit: instance, primitive, geometry, hit kind, then the shader binding table
    // record by offset and stride or by index; the ray; [the time;] the attributes.
    {{Op::HitObjectRecordHitNV}, kNone,
     {kObject, kAccel, named(kI32, "Instance Id"), named(kI32, "Primitive Id"), named(kI32, "Geometry Index"),
      named(kU32u, "Hit Kind"), named(kI32, "SBT Record Offset"), named(kI32, "SBT Record Stride"), kOrigin, kTmin,
      kDirection, kTmax, kAttributes}},
    {{Op::HitObjectRecordHitMotionNV}, kNone,
     {kObject, kAccel, named(kI32, "Instance Id"), named(kI32, "Primitive Id"), named(kI32, "Geometry Index"),
      named(kU32u, "Hit Kind"), named(kI32, "SBT Record Offset"), named(kI32, "SBT Record Stride"), kOrigin, kTmin,
      kDirection, kTmax, kTime, kAttributes}},
    {{Op::HitObjectRecordHitWithIndexNV}, kNone,
     {kObject, kAccel, named(kI32, "Instance Id"), named(kI32, "Primitive Id"), named(kI32, "Geometry Index"),
      named(kU32u, "Hit Kind"), named(kU32u, "SBT Record Index"), kOrigin, kTmin, kDirection, kTmax,
      kAttributes}},
    {{Op::HitObjectRecordHitWithIndexMotionNV}, kNone,
     {kObject, kAccel, named(kI32, "Instance Id"), named(kI32, "Primitive Id"), named(kI32, "Geometry Index"),
      named(kU32u, "Hit Kind"), named(kU32u, "SBT Record Index"), kOrigin, kTmin, kDirection, kTmax, kTime,
      kAttributes}},
    // Records of a miss and of nothing.
    {{Op::HitObjectRecordMissNV}, kNone,
     {kObject, named(kU32u, "Miss Index"), kOrigin, kTmin, kDirection, kTmax}},
    {{Op::HitObjectRecordMissMotionNV}, kNone,
     {kObject, named(kU32u, "Miss Index"), kOrigin, kTmin, kDirection, kTmax, kTime}},
    {{Op::HitObjectRecordEmptyNV}, kNone, {kObject}},
    // Traces: OpTraceRayKHR's operands [and the time].
    {{Op::HitObjectTraceRayNV}, kNone,
     {kObject, kAccel, named(kI32, "Ray Flags"), named(kI32, "Cull Mask"), named(kI32, "SBT Offset"),
      named(kI32, "SBT Stride"), named(kI32, "Miss Index"), kOrigin, kTmin, kDirection, kTmax, kPayload}},
    {{Op::HitObjectTraceRayMotionNV}, kNone,
     {kObject, kAccel, named(kI32, "Ray Flags"), named(kI32, "Cull Mask"), named(kI32, "SBT Offset"),
      named(kI32, "SBT Stride"), named(kI32, "Miss Index"), kOrigin, kTmin, kDirection, kTmax, kTime,
      kPayload}},
    {{Op::HitObjectExecuteShaderNV}, kNone, {kObject, kPayload}},
    {{Op::HitObjectGetAttributesNV}, kNone, {kObject, kAttributes}},
    // Queries.
    {{Op::HitObjectGetCurrentTimeNV}, kF32, {kObject}},
    {{Op::HitObjectGetRayTMaxNV}, kF32, {kObject}},
    {{Op::HitObjectGetRayTMinNV}, kF32, {kObject}},
    {{Op::HitObjectGetHitKindNV}, kI32, {kObject}},
    {{Op::HitObjectGetPrimitiveIndexNV}, kI32, {kObject}},
    {{Op::HitObjectGetGeometryIndexNV}, kI32, {kObject}},
    {{Op::HitObjectGetInstanceIdNV}, kI32, {kObject}},
    {{Op::HitObjectGetInstanceCustomIndexNV}, kI32, {kObject}},
    {{Op::HitObjectGetShaderBindingTableRecordIndexNV}, kI32, {kObject}},
    {{Op::HitObjectGetWorldRayDirectionNV}, kF32x3, {kObject}},
    {{Op::HitObjectGetWorldRayOriginNV}, kF32x3, {kObject}},
    {{Op::HitObjectGetObjectRayDirectionNV}, kF32x3, {kObject}},
    {{Op::HitObjectGetObjectRayOriginNV}, kF32x3, {kObject}},
    {{Op::HitObjectGetWorldToObjectNV}, kMat4x3, {kObject}},
    {{Op::HitObjectGetObjectToWorldNV}, kMat4x3, {kObject}},
    {{Op::HitObjectGetShaderRecordBufferHandleNV}, kU32x2, {kObject}},
    {{Op::HitObjectIsEmptyNV}, kBool, {kObject}},
    {{Op::HitObjectIsHitNV}, kBool, {kObject}},
    {{Op::HitObjectIsMissNV}, kBool, {kObject}},
    // Reorders (the hit object's Hint and Bits are optional together).
    {{Op::ReorderThreadWithHitObjectNV}, kNone, {kObject, kHint, kBits}},
    {{Op::ReorderThreadWithHintNV}, kNone, {kHint, kBits}},
    // The queries of newer extensions.
    {{Op::HitObjectGetClusterIdNV}, kI32, {kObject}, "SPV_NV_cluster_acceleration_structure"},
    {{Op::HitObjectGetSpherePositionNV}, kF32x3, {kObject}, "SPV_NV_linear_swept_spheres"},
    {{Op::HitObjectGetSphereRadiusNV}, kF32, {kObject}, "SPV_NV_linear_swept_spheres"},
    {{Op::HitObjectGetLSSPositionsNV}, kF32x3Pair, {kObject}, "SPV_NV_linear_swept_spheres"},
    {{Op::HitObjectGetLSSRadiiNV}, kF32Pair, {kObject}, "SPV_NV_linear_swept_spheres"},
    {{Op::HitObjectIsSphereHitNV}, kBool, {kObject}, "SPV_NV_linear_swept_spheres"},
    {{Op::HitObjectIsLSSHitNV}, kBool, {kObject}, "SPV_NV_linear_swept_spheres"},
};
// clang-format on

// --- SPV_INTEL_shader_integer_functions2, SPV_INTEL_media_block_io ----------------------------
// The integer functions give an integer scalar or vector, 32-bit for the counts of zeros and the
// 32x16 multiplications (the text's "whose Width operand is 32"), from operands of its type; the
// text asks for signed or unsigned types by instruction, which OpenCL's integers cannot say.
// Media blocks are read from and written to images whose Sampled is 0 or 2, at a coordinate of
// two integers (a byte offset into a row and a row), in blocks of integer scalar width and height.
constexpr const char *kIntegerFunctions = "SPV_INTEL_shader_integer_functions2";
constexpr const char *kMediaBlocks = "SPV_INTEL_media_block_io";
constexpr TypeConstraint kIntSV{S::IntScalarOrVector}, kInt32SV{S::Int32ScalarOrVector},
    kLike{S::LikeResult}, kIntPair{S::IntPair}, kStorageImage{S::StorageImage};

// clang-format off
constexpr OperandTypeRule kIntelRows[] = {
    {{Op::UCountLeadingZerosINTEL, Op::UCountTrailingZerosINTEL}, kInt32SV, {kLike},
     kIntegerFunctions},
    {{Op::IMul32x16INTEL, Op::UMul32x16INTEL}, kInt32SV, {kLike, kLike}, kIntegerFunctions},
    {{Op::AbsISubINTEL, Op::AbsUSubINTEL, Op::IAddSatINTEL, Op::UAddSatINTEL, Op::ISubSatINTEL},
     kIntSV, {kLike, kLike}, kIntegerFunctions},
    {{Op::USubSatINTEL, Op::IAverageINTEL, Op::UAverageINTEL, Op::IAverageRoundedINTEL,
      Op::UAverageRoundedINTEL}, kIntSV, {kLike, kLike}, kIntegerFunctions},
    {{Op::SubgroupImageMediaBlockReadINTEL}, kIntSV, {kStorageImage, kIntPair, kInt, kInt},
     kMediaBlocks},
    {{Op::SubgroupImageMediaBlockWriteINTEL}, kNone, {kStorageImage, kIntPair, kInt, kInt, kIntSV},
     kMediaBlocks},
};
// clang-format on

/// Every row, with its extension, sorted by each opcode it names.
struct Index {
  std::vector<OperandTypeRule> rows;
  std::vector<std::pair<uint32_t, uint32_t>> byOpcode; ///< (opcode, row)
};

const Index &index() {
  static const Index *idx = [] {
    auto *i = new Index; // never torn down
    auto add = [&](std::span<const OperandTypeRule> rows, const char *extension) {
      for (OperandTypeRule row : rows) {
        if (!row.extension)
          row.extension = extension;
        i->rows.push_back(row);
      }
    };
    add(kAvcRows, kAvc);
    add(kHitRows, kReorder);
    add(kIntelRows, nullptr);
    for (uint32_t r = 0; r < i->rows.size(); ++r)
      for (Op op : i->rows[r].ops)
        if (op != Op::Nop)
          i->byOpcode.emplace_back(static_cast<uint32_t>(op), r);
    std::sort(i->byOpcode.begin(), i->byOpcode.end());
    return i;
  }();
  return *idx;
}

std::string opcodeName(Op op) {
  const InstructionDesc *d = findInstruction(static_cast<uint32_t>(op));
  return d ? std::string(d->name) : "opcode " + std::to_string(static_cast<uint32_t>(op));
}

// The smallest and largest opcode the rows name, known at compile time: the validator asks
// for every instruction, and most ask no further, without the index being made (its rows are
// copied, a tenth of validating a small shader's start).
struct OpcodeRange {
  uint32_t low = ~0u, high = 0;
  constexpr void add(std::span<const OperandTypeRule> rows) {
    for (const OperandTypeRule &row : rows)
      for (Op op : row.ops)
        if (op != Op::Nop) {
          low = std::min(low, static_cast<uint32_t>(op));
          high = std::max(high, static_cast<uint32_t>(op));
        }
  }
};
constexpr OpcodeRange kOpcodeRange = [] {
  OpcodeRange r;
  r.add(kAvcRows);
  r.add(kHitRows);
  r.add(kIntelRows);
  return r;
}();

} // namespace

std::span<const OperandTypeRule> operandTypeRules() { return index().rows; }

const OperandTypeRule *operandTypeRule(uint32_t opcode) {
  if (opcode < kOpcodeRange.low || opcode > kOpcodeRange.high)
    return nullptr; // most instructions are looked at no further
  const Index &idx = index();
  if (idx.byOpcode.empty())
    return nullptr;
  auto it = std::lower_bound(idx.byOpcode.begin(), idx.byOpcode.end(),
                             std::pair<uint32_t, uint32_t>{opcode, 0});
  return it != idx.byOpcode.end() && it->first == opcode ? &idx.rows[it->second] : nullptr;
}

std::string describe(const TypeConstraint &c) {
  switch (c.shape) {
  case S::None:
    return "anything";
  case S::Int:
    return "an integer scalar";
  case S::Int8:
    return "an 8-bit integer scalar";
  case S::Int16:
    return "a 16-bit integer scalar";
  case S::Int32:
    return "a 32-bit integer scalar";
  case S::Int64:
    return "a 64-bit integer scalar";
  case S::Int8or16:
    return "an 8- or 16-bit integer scalar";
  case S::Int8or32:
    return "an 8- or 32-bit integer scalar";
  case S::UInt32:
    return "a 32-bit unsigned integer scalar";
  case S::IntScalarOrVector:
    return "an integer scalar or vector";
  case S::Int32ScalarOrVector:
    return "a 32-bit integer scalar or vector";
  case S::LikeResult:
    return "of the result type, signedness aside";
  case S::IntPair:
    return "a vector of two integers";
  case S::Int16x2:
    return "a vector of two 16-bit integers";
  case S::Int32x2:
    return "a vector of two 32-bit integers";
  case S::Bool:
    return "a boolean scalar";
  case S::Float32:
    return "a 32-bit float scalar";
  case S::Float32x3:
    return "a vector of three 32-bit floats";
  case S::Float32Mat4x3:
    return "a matrix of four columns of three 32-bit floats";
  case S::Float32Pair:
    return "an array of two 32-bit floats";
  case S::Float32x3Pair:
    return "an array of two vectors of three 32-bit floats";
  case S::Type:
    return "an " + opcodeName(c.type);
  case S::StorageImage:
    return "an OpTypeImage whose Sampled is 0 or 2";
  case S::TypeOrAlt:
    return "an " + opcodeName(c.type) + " or " + opcodeName(c.alt);
  case S::PointerToType:
    return "a pointer to " + opcodeName(c.type);
  case S::RayPayload:
    return "a variable in the RayPayloadKHR or IncomingRayPayloadKHR storage class";
  case S::HitAttributes:
    return "a variable in the HitObjectAttributeNV storage class";
  }
  return "anything";
}

} // namespace spire::grammar
