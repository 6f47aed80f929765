// Rules: the operand and result types of NV and AMD vendor instructions that no other family
// checks, as their extensions state them and at least as strictly as the structured IR's
// verifier (src/dialect/VerifierTypes.cpp), so that a module spire val accepts deserializes to IR
// that verifies. Capabilities and extensions are availability's; the execution models that may
// use the instructions are RulesModes'. Integers are unsigned where the extensions say "must" of
// an unsigned type (these are graphics instructions, whose integer types carry a signedness);
// the verifier ignores signedness.
//
// - SPV_NV_shader_invocation_reorder: each Hit Object operand is a pointer to OpTypeHitObjectNV,
//   and hit objects live in Private or Function variables that are not loaded, stored or copied
//   (the extension's additions to OpTypePointer, OpLoad, OpStore, OpCopyMemory[Sized]). Records,
//   traces and the reorders take what OpTraceRayKHR takes: an acceleration structure, 32-bit
//   integer instance, primitive, geometry, hit kind, flags, mask and shader binding table
//   operands (Hit Kind, SBT Record Index and the Miss Index of a record unsigned, as spirv-val
//   checks them too), 32-bit float three-component origin and direction, scalar Tmin, Tmax and
//   Current Time; a Payload is an OpVariable in RayPayloadKHR or IncomingRayPayloadKHR, Hit Object
//   Attributes an OpVariable in HitObjectAttributeNV. OpReorderThreadWithHitObjectNV has its
//   Hint and Bits together or neither. The queries give booleans, 32-bit integers and floats,
//   three-component float vectors, 4x3 float matrices (the transforms) and a vector of two 32-bit
//   integers (the shader record buffer handle). The hit object queries of newer grammars are
//   checked where this build's grammar has them: OpHitObjectGetClusterIdNV
//   (SPV_NV_cluster_acceleration_structure) gives a 32-bit integer, the sphere and LSS queries
//   (SPV_NV_linear_swept_spheres) a boolean, a three-component float vector, a float, and arrays
//   of two of those.
// - SPV_NV_bindless_texture: OpSamplerImageAddressingModeNV's Bit Width is 32 or 64. Handles are
//   a 32-bit integer under Bit Width 32, a 64-bit integer or a vector of two 32-bit integers
//   under 64, and any of those in a module that declares no addressing mode (the extension says
//   nothing of it); their signedness is not checked (the text says they "should" be unsigned).
//   The conversions give or take OpTypeImage, OpTypeSampler and OpTypeSampledImage.
// - SPV_NV_shader_subgroup_partitioned: OpGroupNonUniformPartitionNV gives a vector of four 32-bit
//   integers from a scalar or vector (boolean, integer or float) value.
// - SPV_NV_mesh_shader: OpWritePackedPrimitiveIndices4x8NV takes a 32-bit unsigned integer Index
//   Offset, a multiple of four when it is a constant, and 32-bit unsigned Packed Indices.
// - SPV_AMD_shader_fragment_mask: the Image of OpFragmentMaskFetchAMD and OpFragmentFetchAMD is
//   an OpTypeImage with MS 1 and Dim 2D or SubpassData, the Coordinate an integer scalar or vector
//   of at least two components (three when the image is arrayed: "as needed by the definition of
//   Sampled Image", read as spirv-val reads it for OpImageFetch); the mask is a 32-bit unsigned
//   integer scalar, a fragment a vector of four floats or integers whose components are the image's
//   Sampled Type unless that is OpTypeVoid, fetched with an integer scalar Fragment Index.
#include "OperandCheck.h"
#include "Rules.h"

#include <algorithm>
#include <array>
#include <unordered_map>
#include <utility>

namespace spire::val {

namespace {

constexpr const char *kReorder = "SPV_NV_shader_invocation_reorder";
constexpr const char *kBindless = "SPV_NV_bindless_texture";
constexpr const char *kFragmentMask = "SPV_AMD_shader_fragment_mask";

// By value: the acceleration structure's opcode is shared by its NV and KHR names.
constexpr Op kTypeAccelerationStructure = static_cast<Op>(5341);
constexpr uint32_t kStoragePrivate = uint32_t(grammar::StorageClass::Private),
                   kStorageFunction = uint32_t(grammar::StorageClass::Function),
                   kStorageRayPayload = uint32_t(grammar::StorageClass::RayPayloadKHR),
                   kStorageIncomingRayPayload =
                       uint32_t(grammar::StorageClass::IncomingRayPayloadKHR),
                   kStorageHitObjectAttribute =
                       uint32_t(grammar::StorageClass::HitObjectAttributeNV);
constexpr uint32_t kDim2D = uint32_t(grammar::Dim::Dim2D),
                   kDimSubpassData = uint32_t(grammar::Dim::SubpassData);

// --- Hit objects -------------------------------------------------------------------------------

/// What a hit object instruction's operand or result is. `None` ends an operand list (and is the
/// result of the instructions without one).
enum class Hit : uint8_t {
  None,
  HitObject,  ///< a pointer to OpTypeHitObjectNV
  Accel,      ///< OpTypeAccelerationStructureKHR
  I32,        ///< a 32-bit integer scalar
  U32,        ///< a 32-bit unsigned integer scalar
  F32,        ///< a 32-bit float scalar
  F32x3,      ///< a vector of three 32-bit floats
  Payload,    ///< an OpVariable in RayPayloadKHR or IncomingRayPayloadKHR
  Attributes, ///< an OpVariable in HitObjectAttributeNV
  Bool,
  U32x2,   ///< a vector of two 32-bit integers
  Mat4x3,  ///< a matrix of four columns of three 32-bit floats
  F32x3x2, ///< an array of two vectors of three 32-bit floats
  F32Pair, ///< an array of two 32-bit floats
};

struct HitOperand {
  Hit shape = Hit::None;
  const char *name = nullptr;
};

/// One instruction: its opcode, result, operands in order, and the extension that defines it.
struct HitRow {
  grammar::Op op;
  Hit result;
  std::array<HitOperand, 14> operands;
  const char *rule = kReorder;
};

using enum Hit;

constexpr HitOperand kObject{HitObject, "Hit Object"}, kAccel{Accel, "Acceleration Structure"},
    kOrigin{F32x3, "Ray Origin"}, kTmin{F32, "Ray Tmin"}, kDirection{F32x3, "Ray Direction"},
    kTmax{F32, "Ray Tmax"}, kTime{F32, "Current Time"},
    kAttributes{Attributes, "Hit Object Attributes"}, kPayload{Payload, "Payload"},
    kHint{I32, "Hint"}, kBits{I32, "Bits"};

// clang-format off
constexpr HitRow kHitRows[] = {
    // Records of a hit: instance, primitive, geometry, hit kind, then the shader binding table
    // record by offset and stride or by index; the ray; [the time;] the attributes.
    {Op::HitObjectRecordHitNV, None,
     {kObject, kAccel, {I32, "Instance Id"}, {I32, "Primitive Id"}, {I32, "Geometry Index"},
      {U32, "Hit Kind"}, {I32, "SBT Record Offset"}, {I32, "SBT Record Stride"}, kOrigin, kTmin,
      kDirection, kTmax, kAttributes}},
    {Op::HitObjectRecordHitMotionNV, None,
     {kObject, kAccel, {I32, "Instance Id"}, {I32, "Primitive Id"}, {I32, "Geometry Index"},
      {U32, "Hit Kind"}, {I32, "SBT Record Offset"}, {I32, "SBT Record Stride"}, kOrigin, kTmin,
      kDirection, kTmax, kTime, kAttributes}},
    {Op::HitObjectRecordHitWithIndexNV, None,
     {kObject, kAccel, {I32, "Instance Id"}, {I32, "Primitive Id"}, {I32, "Geometry Index"},
      {U32, "Hit Kind"}, {U32, "SBT Record Index"}, kOrigin, kTmin, kDirection, kTmax,
      kAttributes}},
    {Op::HitObjectRecordHitWithIndexMotionNV, None,
     {kObject, kAccel, {I32, "Instance Id"}, {I32, "Primitive Id"}, {I32, "Geometry Index"},
      {U32, "Hit Kind"}, {U32, "SBT Record Index"}, kOrigin, kTmin, kDirection, kTmax, kTime,
      kAttributes}},
    // Records of a miss and of nothing.
    {Op::HitObjectRecordMissNV, None,
     {kObject, {U32, "Miss Index"}, kOrigin, kTmin, kDirection, kTmax}},
    {Op::HitObjectRecordMissMotionNV, None,
     {kObject, {U32, "Miss Index"}, kOrigin, kTmin, kDirection, kTmax, kTime}},
    {Op::HitObjectRecordEmptyNV, None, {kObject}},
    // Traces: OpTraceRayKHR's operands [and the time].
    {Op::HitObjectTraceRayNV, None,
     {kObject, kAccel, {I32, "Ray Flags"}, {I32, "Cull Mask"}, {I32, "SBT Offset"},
      {I32, "SBT Stride"}, {I32, "Miss Index"}, kOrigin, kTmin, kDirection, kTmax, kPayload}},
    {Op::HitObjectTraceRayMotionNV, None,
     {kObject, kAccel, {I32, "Ray Flags"}, {I32, "Cull Mask"}, {I32, "SBT Offset"},
      {I32, "SBT Stride"}, {I32, "Miss Index"}, kOrigin, kTmin, kDirection, kTmax, kTime,
      kPayload}},
    {Op::HitObjectExecuteShaderNV, None, {kObject, kPayload}},
    {Op::HitObjectGetAttributesNV, None, {kObject, kAttributes}},
    // Queries.
    {Op::HitObjectGetCurrentTimeNV, F32, {kObject}},
    {Op::HitObjectGetRayTMaxNV, F32, {kObject}},
    {Op::HitObjectGetRayTMinNV, F32, {kObject}},
    {Op::HitObjectGetHitKindNV, I32, {kObject}},
    {Op::HitObjectGetPrimitiveIndexNV, I32, {kObject}},
    {Op::HitObjectGetGeometryIndexNV, I32, {kObject}},
    {Op::HitObjectGetInstanceIdNV, I32, {kObject}},
    {Op::HitObjectGetInstanceCustomIndexNV, I32, {kObject}},
    {Op::HitObjectGetShaderBindingTableRecordIndexNV, I32, {kObject}},
    {Op::HitObjectGetWorldRayDirectionNV, F32x3, {kObject}},
    {Op::HitObjectGetWorldRayOriginNV, F32x3, {kObject}},
    {Op::HitObjectGetObjectRayDirectionNV, F32x3, {kObject}},
    {Op::HitObjectGetObjectRayOriginNV, F32x3, {kObject}},
    {Op::HitObjectGetWorldToObjectNV, Mat4x3, {kObject}},
    {Op::HitObjectGetObjectToWorldNV, Mat4x3, {kObject}},
    {Op::HitObjectGetShaderRecordBufferHandleNV, U32x2, {kObject}},
    {Op::HitObjectIsEmptyNV, Bool, {kObject}},
    {Op::HitObjectIsHitNV, Bool, {kObject}},
    {Op::HitObjectIsMissNV, Bool, {kObject}},
    // Reorders (the hit object's Hint and Bits are optional together).
    {Op::ReorderThreadWithHitObjectNV, None, {kObject, kHint, kBits}},
    {Op::ReorderThreadWithHintNV, None, {kHint, kBits}},
    // The queries of newer extensions.
    {Op::HitObjectGetClusterIdNV, I32, {kObject}, "SPV_NV_cluster_acceleration_structure"},
    {Op::HitObjectGetSpherePositionNV, F32x3, {kObject}, "SPV_NV_linear_swept_spheres"},
    {Op::HitObjectGetSphereRadiusNV, F32, {kObject}, "SPV_NV_linear_swept_spheres"},
    {Op::HitObjectGetLSSPositionsNV, F32x3x2, {kObject}, "SPV_NV_linear_swept_spheres"},
    {Op::HitObjectGetLSSRadiiNV, F32Pair, {kObject}, "SPV_NV_linear_swept_spheres"},
    {Op::HitObjectIsSphereHitNV, Bool, {kObject}, "SPV_NV_linear_swept_spheres"},
    {Op::HitObjectIsLSSHitNV, Bool, {kObject}, "SPV_NV_linear_swept_spheres"},
};
// clang-format on

/// The lowest and highest opcode of kHitRows.
constexpr std::pair<uint32_t, uint32_t> kHitOpcodes = [] {
  std::pair<uint32_t, uint32_t> range{~0u, 0u};
  for (const HitRow &row : kHitRows)
    range = {std::min(range.first, static_cast<uint32_t>(row.op)),
             std::max(range.second, static_cast<uint32_t>(row.op))};
  return range;
}();

const HitRow *hitRow(uint32_t opcode) {
  if (opcode < kHitOpcodes.first || opcode > kHitOpcodes.second)
    return nullptr; // most instructions are looked at no further
  static const auto *rows = [] {
    auto *m = new std::unordered_map<uint32_t, const HitRow *>; // never torn down
    for (const HitRow &row : kHitRows)
      m->emplace(static_cast<uint32_t>(row.op), &row);
    return m;
  }();
  auto it = rows->find(opcode);
  return it == rows->end() ? nullptr : it->second;
}

std::string hitShape(Hit h) {
  switch (h) {
  case HitObject:
    return "a pointer to OpTypeHitObjectNV";
  case Accel:
    return "of type OpTypeAccelerationStructureKHR";
  case I32:
    return "a 32-bit integer scalar";
  case U32:
    return "a 32-bit unsigned integer scalar";
  case F32:
    return "a 32-bit float scalar";
  case F32x3:
    return "a vector of three 32-bit floats";
  case Bool:
    return "a boolean scalar";
  case U32x2:
    return "a vector of two 32-bit integers";
  case Mat4x3:
    return "a matrix of four columns of three 32-bit floats";
  case F32x3x2:
    return "an array of two vectors of three 32-bit floats";
  case F32Pair:
    return "an array of two 32-bit floats";
  default:
    return "anything";
  }
}

/// The element type of an OpTypeArray of two elements, 0 for other types.
uint32_t pairElement(State &s, uint32_t t) {
  std::optional<Instruction> d = s.def(t);
  if (!d || d->opcode() != Op::TypeArray || d->wordCount() < 4)
    return 0;
  const std::optional<uint64_t> length = s.constantValue(d->word(3));
  return length == 2u ? d->word(2) : 0;
}

bool hitFits(const OperandCheck &c, Hit h, uint32_t t) {
  State &s = c.state();
  switch (h) {
  case HitObject:
    return c.pointerTo(t, Op::TypeHitObjectNV);
  case Accel:
    return s.defOpcode(t) == kTypeAccelerationStructure;
  case I32:
    return c.intScalar(t, 32);
  case U32:
    return c.unsignedInt32(t);
  case F32:
    return c.floatScalar(t, 32);
  case F32x3:
    return c.floatVector(t, 3, 32);
  case Bool:
    return s.isBoolType(t);
  case U32x2:
    return c.intVector(t, 2, 32);
  case Mat4x3: {
    std::optional<Instruction> d = s.def(t);
    return d && d->opcode() == Op::TypeMatrix && d->wordCount() >= 4 && d->word(3) == 4 &&
           c.floatVector(d->word(2), 3, 32);
  }
  case F32x3x2:
    return c.floatVector(pairElement(s, t), 3, 32);
  case F32Pair:
    return c.floatScalar(pairElement(s, t), 32);
  default:
    return true;
  }
}

/// The operand at `word` is an OpVariable in storage class `storage` or `other` (`names` says
/// which).
bool variableIn(OperandCheck &c, uint32_t word, std::string_view what, uint32_t storage,
                uint32_t other, std::string_view names) {
  State &s = c.state();
  const uint32_t id = c.id(word);
  if (id == 0 || c.type(word) == 0)
    return true;
  if (s.defOpcode(id) != Op::Variable)
    return c.fail(std::string(what) + " " + s.name(id) + " must be the result of an OpVariable");
  const std::optional<uint32_t> sc = s.storageClass(c.type(word));
  if (sc != storage && sc != other)
    return c.fail(std::string(what) + " " + s.name(id) + " must be in the " + std::string(names) +
                  " storage class");
  return true;
}

void hitObjectInstruction(State &s, const Instruction &inst, const HitRow &row) {
  OperandCheck c(s, inst, row.rule);
  if (row.result != None &&
      !c.result(hitShape(row.result), [&](uint32_t t) { return hitFits(c, row.result, t); }))
    return;
  // Result type and result, when there are, come before the operands.
  uint32_t word = row.result != None ? 3 : 1;
  for (const HitOperand &o : row.operands) {
    if (o.shape == None || word >= inst.wordCount())
      break;
    bool ok = true;
    if (o.shape == Payload)
      ok = variableIn(c, word, o.name, kStorageRayPayload, kStorageIncomingRayPayload,
                      "RayPayloadKHR or IncomingRayPayloadKHR");
    else if (o.shape == Attributes)
      ok = variableIn(c, word, o.name, kStorageHitObjectAttribute, kStorageHitObjectAttribute,
                      "HitObjectAttributeNV");
    else
      ok = c.operand(word, o.name, hitShape(o.shape),
                     [&](uint32_t t) { return hitFits(c, o.shape, t); });
    if (!ok)
      return;
    ++word;
  }
  // "Hint and Bits are optional together i.e Either both Hint and Bits should be provided or
  // neither."
  if (row.op == Op::ReorderThreadWithHitObjectNV && inst.wordCount() == 3)
    c.fail("Hint " + s.name(c.id(2)) + " is given without Bits: give both or neither");
}

/// "If Type is OpTypeHitObjectNV, Storage Class must be Private or Function"; OpLoad, OpStore and
/// OpCopyMemory[Sized] do not access hit objects.
void hitObjectMemory(State &s, const Instruction &inst) {
  switch (inst.opcode()) {
  case Op::TypePointer: // %result StorageClass %type
    if (inst.wordCount() >= 4 && s.defOpcode(inst.word(3)) == Op::TypeHitObjectNV &&
        inst.word(2) != kStoragePrivate && inst.word(2) != kStorageFunction)
      s.error(inst.index(), kReorder,
              "a pointer to OpTypeHitObjectNV must be in the Private or Function storage class");
    return;
  case Op::Load:              // %type %result %pointer
  case Op::Store:             // %pointer %object
  case Op::CopyMemory:        // %target %source
  case Op::CopyMemorySized: { // %target %source %size
    const uint32_t first = inst.opcode() == Op::Load ? 3 : 1;
    const uint32_t last = inst.opcode() == Op::Load || inst.opcode() == Op::Store ? first : 2;
    for (uint32_t w = first; w <= last && w < inst.wordCount(); ++w)
      if (s.defOpcode(s.pointeeType(s.typeOf(inst.word(w)))) == Op::TypeHitObjectNV) {
        s.error(inst.index(), kReorder,
                State::opcodeName(inst.opcode()) +
                    " cannot access a hit object; hit objects are used through the "
                    "OpHitObject*NV and OpReorderThreadWithHitObjectNV instructions only");
        return;
      }
    return;
  }
  default:
    return;
  }
}

// --- Bindless textures -------------------------------------------------------------------------

/// The Bit Width of the module's OpSamplerImageAddressingModeNV: 0 when it declares none.
uint32_t addressingBitWidth(const State &s) {
  for (Instruction inst : s.module()) {
    if (inst.isRaw())
      continue;
    if (inst.opcode() == Op::SamplerImageAddressingModeNV && inst.wordCount() >= 2)
      return inst.word(1);
    if (inst.opcode() == Op::Function)
      break; // the layout puts it before the functions
  }
  return 0;
}

class BindlessChecker {
public:
  explicit BindlessChecker(State &s) : s_(s) {}

  void check(const Instruction &inst) {
    OperandCheck c(s_, inst, kBindless);
    switch (inst.opcode()) {
    case Op::SamplerImageAddressingModeNV: {
      // "Bit Width takes either a value of 32 or 64, any other value is invalid."
      const uint32_t width = inst.wordCount() >= 2 ? inst.word(1) : 0;
      if (width != 32 && width != 64)
        c.fail("Bit Width " + std::to_string(width) + " must be 32 or 64");
      return;
    }
    case Op::ConvertUToImageNV:
      c.resultOfType(Op::TypeImage) && handle(c, 3);
      return;
    case Op::ConvertUToSamplerNV:
      c.resultOfType(Op::TypeSampler) && handle(c, 3);
      return;
    case Op::ConvertUToSampledImageNV:
      c.resultOfType(Op::TypeSampledImage) && handle(c, 3);
      return;
    case Op::ConvertImageToUNV:
      handle(c, 0) && c.ofType(3, "Operand", Op::TypeImage);
      return;
    case Op::ConvertSamplerToUNV:
      handle(c, 0) && c.ofType(3, "Operand", Op::TypeSampler);
      return;
    case Op::ConvertSampledImageToUNV:
      handle(c, 0) && c.ofType(3, "Operand", Op::TypeSampledImage);
      return;
    default:
      return;
    }
  }

private:
  /// The handle at `word` (0: the result type) has the shape the addressing mode asks for: "If
  /// OpSamplerImageAddressingModeNV has a literal value of 64, [it] should be specified either
  /// as 64-bit unsigned integer type or vector of 2 unsigned 32-bit integer type. If [it] has a
  /// literal value of 32, [it] should be specified as a 32-bit unsigned integer type."
  bool handle(OperandCheck &c, uint32_t word) {
    if (!bitWidth_)
      bitWidth_ = addressingBitWidth(s_);
    const uint32_t mode = *bitWidth_;
    auto wide = [&](uint32_t t) { return c.intScalar(t, 64) || c.intVector(t, 2, 32); };
    auto narrow = [&](uint32_t t) { return c.intScalar(t, 32); };
    const std::string shape =
        mode == 32   ? "a 32-bit integer scalar (the module's OpSamplerImageAddressingModeNV is 32)"
        : mode == 64 ? "a 64-bit integer scalar or a vector of two 32-bit integers (the module's "
                       "OpSamplerImageAddressingModeNV is 64)"
                     : "a 32- or 64-bit integer scalar or a vector of two 32-bit integers";
    auto ok = [&](uint32_t t) {
      return mode == 32 ? narrow(t) : mode == 64 ? wide(t) : narrow(t) || wide(t);
    };
    return word == 0 ? c.result(shape, ok) : c.operand(word, "Operand", shape, ok);
  }

  State &s_;
  std::optional<uint32_t> bitWidth_;
};

// --- Partitions, packed primitive indices ------------------------------------------------------

// %r = OpGroupNonUniformPartitionNV %type %value
void partition(State &s, const Instruction &inst) {
  OperandCheck c(s, inst, "SPV_NV_shader_subgroup_partitioned");
  // "Value must be a scalar or vector type. Result Type must be a 4 component vector of 32 bit
  // integer types."
  c.result("a vector of four 32-bit integers", [&](uint32_t t) { return c.intVector(t, 4, 32); }) &&
      c.operand(3, "Value", "a boolean, integer or float scalar or vector", [&](uint32_t t) {
        return s.isBoolScalarOrVector(t) || s.isIntScalarOrVector(t) || s.isFloatScalarOrVector(t);
      });
}

// OpWritePackedPrimitiveIndices4x8NV %indexOffset %packedIndices
void packedPrimitiveIndices(State &s, const Instruction &inst) {
  OperandCheck c(s, inst, "SPV_NV_mesh_shader");
  // "Index Offset must be a scalar of 32-bit integer type, whose Signedness operand is 0, ...
  // Packed Indices must be a scalar of 32-bit integer type, whose Signedness operand is 0."
  auto unsigned32 = [&](uint32_t t) { return c.unsignedInt32(t); };
  if (!c.operand(1, "Index Offset", "a 32-bit unsigned integer scalar", unsigned32) ||
      !c.operand(2, "Packed Indices", "a 32-bit unsigned integer scalar", unsigned32))
    return;
  // "Index Offset ... must be a multiple of four."
  if (s.defOpcode(c.id(1)) != Op::Constant)
    return;
  const std::optional<uint64_t> offset = s.constantValue(c.id(1));
  if (offset && *offset % 4 != 0)
    c.fail("Index Offset " + s.name(c.id(1)) + " (" + std::to_string(*offset) +
           ") must be a multiple of four");
}

// --- Fragment masks ----------------------------------------------------------------------------

// %r = OpFragmentMaskFetchAMD %type %image %coordinate
// %r = OpFragmentFetchAMD %type %image %coordinate %fragmentIndex
void fragmentFetch(State &s, const Instruction &inst, bool mask) {
  OperandCheck c(s, inst, kFragmentMask);
  // OpTypeImage %result %sampledType Dim Depth Arrayed MS Sampled Format
  std::optional<Instruction> image = s.def(c.type(3));
  const uint32_t sampledType = image && image->wordCount() >= 9 ? image->word(2) : 0;
  const bool ok =
      // "Result Type must be a 32-bit unsigned integer type scalar."
      (mask ? c.result("a 32-bit unsigned integer scalar",
                       [&](uint32_t t) { return c.unsignedInt32(t); })
            : c.result("a vector of four floats or integers",
                       [&](uint32_t t) {
                         return s.isVectorType(t) && s.componentCount(t) == 4 &&
                                (s.isFloatScalarOrVector(t) || s.isIntScalarOrVector(t));
                       })) &&
      c.operand(3, "Image", "an OpTypeImage with MS 1 and Dim 2D or SubpassData", [&](uint32_t) {
        return image && image->opcode() == Op::TypeImage && image->wordCount() >= 9 &&
               image->word(6) == 1 &&
               (image->word(3) == kDim2D || image->word(3) == kDimSubpassData);
      });
  if (!ok)
    return;
  // "Its components must be the same as Sampled Type of the underlying OpTypeImage (unless that
  // underlying Sampled Type is OpTypeVoid)."
  if (!mask && image && !s.isVoidType(sampledType) &&
      s.componentType(c.resultType()) != sampledType) {
    c.fail("the result type " + s.name(c.resultType()) +
           " must have components of the image's Sampled Type " + s.name(sampledType));
    return;
  }
  const uint32_t needed = image ? 2 + (image->word(5) != 0 ? 1 : 0) : 0;
  if (!c.operand(
          4, "Coordinate",
          "an integer scalar or vector of at least " + std::to_string(needed) +
              " components (the image's (u, v" + (needed == 3 ? ", array layer" : "") + "))",
          [&](uint32_t t) { return s.isIntScalarOrVector(t) && s.componentCount(t) >= needed; }))
    return;
  if (!mask)
    c.operand(5, "Fragment Index", "an integer scalar", [&](uint32_t t) { return c.intScalar(t); });
}

} // namespace

void checkVendor(State &s) {
  constexpr uint32_t kCapabilityShaderInvocationReorderNV =
      uint32_t(grammar::Capability::ShaderInvocationReorderNV);
  const bool hitObjects = s.hasCapability(kCapabilityShaderInvocationReorderNV);
  BindlessChecker bindless(s);
  forEachInstruction(s, [&](const Instruction &inst, uint32_t op) {
    if (const HitRow *row = hitRow(op)) {
      hitObjectInstruction(s, inst, *row);
      return;
    }
    switch (static_cast<Op>(op)) {
    case Op::TypePointer:
    case Op::Load:
    case Op::Store:
    case Op::CopyMemory:
    case Op::CopyMemorySized:
      if (hitObjects)
        hitObjectMemory(s, inst);
      break;
    case Op::SamplerImageAddressingModeNV:
    case Op::ConvertUToImageNV:
    case Op::ConvertUToSamplerNV:
    case Op::ConvertUToSampledImageNV:
    case Op::ConvertImageToUNV:
    case Op::ConvertSamplerToUNV:
    case Op::ConvertSampledImageToUNV:
      bindless.check(inst);
      break;
    case Op::GroupNonUniformPartitionNV:
      partition(s, inst);
      break;
    case Op::WritePackedPrimitiveIndices4x8NV:
      packedPrimitiveIndices(s, inst);
      break;
    case Op::FragmentMaskFetchAMD:
    case Op::FragmentFetchAMD:
      fragmentFetch(s, inst, op == uint32_t(Op::FragmentMaskFetchAMD));
      break;
    default:
      break;
    }
  });
}

} // namespace spire::val
