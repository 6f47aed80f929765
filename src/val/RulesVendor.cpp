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
//   (the extension's additions to OpTypePointer, OpLoad, OpStore, OpCopyMemory[Sized]). The
//   instructions' operand and result types are rows of the table shared with the verifier
//   (include/spire/grammar/OperandTypes.h), checked by RulesOperandTypes.cpp.
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
#include <utility>

namespace spire::val {

namespace {

constexpr const char *kReorder = "SPV_NV_shader_invocation_reorder";
constexpr const char *kBindless = "SPV_NV_bindless_texture";
constexpr const char *kFragmentMask = "SPV_AMD_shader_fragment_mask";

constexpr uint32_t kStoragePrivate = uint32_t(grammar::StorageClass::Private),
                   kStorageFunction = uint32_t(grammar::StorageClass::Function);
constexpr uint32_t kDim2D = uint32_t(grammar::Dim::Dim2D),
                   kDimSubpassData = uint32_t(grammar::Dim::SubpassData);

// --- Hit objects (their instructions' operands: RulesOperandTypes) ----------------------------

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
  if (!hitObjects && !s.extensionOpcodes())
    return; // the core instructions are checked for hit objects only
  BindlessChecker bindless(s);
  forEachInstruction(s, [&](const Instruction &inst, uint32_t op) {
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
