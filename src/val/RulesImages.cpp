// Rules: image types and image instructions (SPIR-V 3.32.10, 3.32.6 OpTypeSampledImage,
// 2.16.1, 2.16.2).
//
// - OpTypeSampledImage holds an OpTypeImage that is not a storage image nor subpass data.
// - OpSampledImage makes a sampled image of its result type's image type and a sampler.
// - Sampling and gathering instructions take a sampled image, fetch / read / write take an image:
//   fetch a sampled one (Sampled = 1), read and write a storage one (Sampled = 0 or 2).
// - Coordinates have at least as many components as the image's dimensionality needs (one more
//   when arrayed, one more for projection); sampling results are four-component vectors of the
//   image's sampled type, depth-comparison results scalars.
// - Shaders writing storage images of Unknown format declare StorageImageWriteWithoutFormat;
//   reading or writing multisampled storage images needs StorageImageMultisample.
// - Image operands (3.14): each goes with some instructions only (Bias and MinLod with implicit
//   LOD, Lod with explicit LOD and fetches, Grad with explicit LOD, ConstOffsets with gathers,
//   Sample with fetch / read / write of multisampled images, MakeTexelAvailable with writes and
//   MakeTexelVisible with reads, both beside NonPrivateTexel); offsets and gradients have one
//   component per coordinate of a layer, ConstOffset(s) are constants, at most one offset kind.
// - OpImageTexelPointer (3.32.8): a pointer in the Image storage class to the sampled type, from
//   a pointer to an image that is not subpass data; integer coordinates of the image's size; the
//   sample is 0 for single-sampled images; Vulkan wants 32- or 64-bit single-channel formats.
#include "OperandCheck.h"
#include "Rules.h"

#include <algorithm>

namespace spire::val {

namespace {

constexpr const char *kRule = "3.32.10";
constexpr uint32_t kDim1D = uint32_t(grammar::Dim::Dim1D), kDim2D = uint32_t(grammar::Dim::Dim2D),
                   kDim3D = uint32_t(grammar::Dim::Dim3D), kDimCube = uint32_t(grammar::Dim::Cube),
                   kDimRect = uint32_t(grammar::Dim::Rect),
                   kDimBuffer = uint32_t(grammar::Dim::Buffer),
                   kDimSubpassData = uint32_t(grammar::Dim::SubpassData);
constexpr uint32_t kFormatUnknown = uint32_t(grammar::ImageFormat::Unknown);
constexpr uint32_t kCapabilityShader = uint32_t(grammar::Capability::Shader),
                   kCapabilityStorageImageMultisample =
                       uint32_t(grammar::Capability::StorageImageMultisample),
                   kCapabilityStorageImageWriteWithoutFormat =
                       uint32_t(grammar::Capability::StorageImageWriteWithoutFormat);

struct ImageType {
  uint32_t id = 0;
  uint32_t sampledType = 0, dim = 0, depth = 0, arrayed = 0, ms = 0, sampled = 0, format = 0;
  // The Access Qualifier operand, or kNoAccess where the type has none.
  uint32_t access = kNoAccess;
  static constexpr uint32_t kNoAccess = ~0u;
};

std::optional<ImageType> imageType(const State &s, uint32_t type) {
  std::optional<Instruction> d = s.def(type);
  if (!d || d->opcode() != Op::TypeImage || d->wordCount() < 9)
    return std::nullopt;
  ImageType t;
  t.id = type;
  t.sampledType = d->word(2);
  t.dim = d->word(3);
  t.depth = d->word(4);
  t.arrayed = d->word(5);
  t.ms = d->word(6);
  t.sampled = d->word(7);
  t.format = d->word(8);
  if (d->wordCount() > 9)
    t.access = d->word(9);
  return t;
}

// The image type inside an OpTypeSampledImage, or 0.
uint32_t sampledImageImage(const State &s, uint32_t type) {
  std::optional<Instruction> d = s.def(type);
  return d && d->opcode() == Op::TypeSampledImage && d->wordCount() >= 3 ? d->word(2) : 0;
}

uint32_t coordinateComponents(uint32_t dim) {
  switch (dim) {
  case kDim1D:
  case kDimBuffer:
    return 1;
  case kDim2D:
  case kDimRect:
  case kDimSubpassData:
    return 2;
  case kDim3D:
  case kDimCube:
    return 3;
  default:
    return 0; // extension dimensions: not checked
  }
}

class ImagesChecker {
public:
  explicit ImagesChecker(State &s) : s_(s) {}

  void run() {
    for (Instruction inst : s_.module()) {
      if (s_.stopped())
        return;
      if (inst.isRaw())
        continue;
      switch (inst.opcode()) {
      case Op::TypeSampledImage:
        typeSampledImage(inst);
        break;
      case Op::SampledImage:
        sampledImage(inst);
        break;
      case Op::CompositeConstruct:
        for (uint32_t w = 3; w < inst.wordCount(); ++w)
          if (!notComposed(inst, inst.word(w)))
            break; // one report per instruction
        break;
      case Op::CompositeInsert:
        if (inst.wordCount() > 3)
          notComposed(inst, inst.word(3));
        break;
      case Op::Load:
        if (const Op t = s_.defOpcode(inst.typeId());
            t == Op::TypeImage || t == Op::TypeSampler || t == Op::TypeSampledImage)
          sameBlockUses(inst, false);
        break;
      case Op::ImageSampleImplicitLod:
      case Op::ImageSampleExplicitLod:
      case Op::ImageGather:
        sample(inst, false, false);
        break;
      case Op::ImageSampleDrefImplicitLod:
      case Op::ImageSampleDrefExplicitLod:
      case Op::ImageDrefGather:
        sample(inst, true, false);
        break;
      case Op::ImageSampleProjImplicitLod:
      case Op::ImageSampleProjExplicitLod:
        sample(inst, false, true);
        break;
      case Op::ImageSampleProjDrefImplicitLod:
      case Op::ImageSampleProjDrefExplicitLod:
        sample(inst, true, true);
        break;
      case Op::ImageTexelPointer:
        texelPointer(inst);
        break;
      case Op::ImageSparseSampleImplicitLod:
      case Op::ImageSparseSampleExplicitLod:
        sparseOperands(inst, 5, true, Texel::Vector4);
        break;
      case Op::ImageSparseSampleDrefImplicitLod:
      case Op::ImageSparseSampleDrefExplicitLod:
        drefOperand(inst);
        sparseOperands(inst, 6, true, Texel::Scalar);
        break;
      case Op::ImageSparseSampleProjImplicitLod:
      case Op::ImageSparseSampleProjExplicitLod:
      case Op::ImageSparseSampleProjDrefImplicitLod:
      case Op::ImageSparseSampleProjDrefExplicitLod:
        // The specification has given these no definition since 1.0.3 and keeps their
        // opcodes reserved only (#833): they are not valid SPIR-V.
        s_.error(inst.index(), kRule,
                 State::opcodeName(inst.opcode()) +
                     " is a reserved opcode without a definition; no module may use it");
        break;
      case Op::ImageQueryLod:
        queryLod(inst);
        break;
      case Op::ImageSampleFootprintNV:
        footprint(inst);
        break;
      case Op::ImageSparseDrefGather:
        drefOperand(inst);
        sparseOperands(inst, 6, true, Texel::Vector4);
        break;
      case Op::ImageSparseGather:
        sparseOperands(inst, 6, true, Texel::Vector4);
        break;
      case Op::ImageSparseFetch:
        sparseOperands(inst, 5, false, Texel::Vector4);
        break;
      case Op::ImageSparseRead:
        sparseOperands(inst, 5, false, Texel::Any);
        break;
      case Op::ImageFetch:
        fetchReadWrite(inst, 3, "OpImageFetch");
        break;
      case Op::ImageRead:
        fetchReadWrite(inst, 3, "OpImageRead");
        break;
      case Op::ImageWrite:
        fetchReadWrite(inst, 1, "OpImageWrite");
        break;
      case Op::Image:
        image(inst);
        break;
      case Op::ImageQuerySizeLod:
      case Op::ImageQuerySize:
      case Op::ImageQueryLevels:
      case Op::ImageQuerySamples:
        query(inst);
        break;
      case Op::ImageQueryFormat:
      case Op::ImageQueryOrder:
        channelQuery(inst);
        break;
      case Op::ImageSparseTexelsResident: {
        // %r = OpImageSparseTexelsResident %bool %residentCode: "Result Type must be a Boolean
        // type scalar", the code "must be an integer type scalar".
        OperandCheck c(s_, inst, kRule);
        c.resultBool() && c.operand(3, "Resident Code", "an integer scalar",
                                    [&](uint32_t t) { return c.intScalar(t); });
        break;
      }
      default:
        break;
      }
    }
  }

private:
  // %r = OpTypeSampledImage %image
  void typeSampledImage(const Instruction &inst) {
    if (inst.wordCount() < 3)
      return;
    std::optional<ImageType> t = imageType(s_, inst.word(2));
    if (!t) {
      s_.error(inst.index(), "3.32.6",
               "the image type of OpTypeSampledImage must be an "
               "OpTypeImage");
      return;
    }
    if (t->sampled == 2 || t->dim == kDimSubpassData)
      s_.error(inst.index(), "3.32.6",
               "a sampled image cannot hold a storage image or subpass data");
  }

  // %r = OpSampledImage %type %image %sampler
  void sampledImage(const Instruction &inst) {
    if (inst.wordCount() < 5)
      return;
    const uint32_t inner = sampledImageImage(s_, inst.typeId());
    if (inner == 0) {
      s_.error(inst.index(), kRule,
               "the result type of OpSampledImage must be an "
               "OpTypeSampledImage");
      return;
    }
    const uint32_t image = s_.typeOf(inst.word(3)), sampler = s_.typeOf(inst.word(4));
    // The image's type must be the result's image type; spirv-val lets the Depth operand
    // differ (HLSL's comparison samplers on images declared without depth), and so do we. The
    // access qualifier is part of the type.
    std::optional<ImageType> a = imageType(s_, image), b = imageType(s_, inner);
    const bool sameButDepth = a && b && a->sampledType == b->sampledType && a->dim == b->dim &&
                              a->arrayed == b->arrayed && a->ms == b->ms &&
                              a->sampled == b->sampled && a->format == b->format &&
                              a->access == b->access;
    if (image != 0 && image != inner && !sameButDepth)
      s_.error(inst.index(), kRule,
               "the image " + s_.name(inst.word(3)) + " has type " + s_.name(image) +
                   ", not the result's image type " + s_.name(inner));
    if (sampler != 0 && s_.defOpcode(sampler) != Op::TypeSampler)
      s_.error(inst.index(), kRule,
               "the sampler " + s_.name(inst.word(4)) + " is not an OpTypeSampler");
    sameBlockUses(inst, true);
  }

  // 2.16.1: "Image, sampler, and sampled image objects must not appear as operands to OpPhi
  // instructions, or OpSelect instructions, or any instructions other than the image or sampler
  // instructions specified to operate on them": the composite instructions do not build
  // aggregates of them (spirv-val 2023.1 lets an array of loaded images through; OpPhi and
  // OpSelect are the control flow and selection rules'). SPV_NV_bindless_texture's handles pass.
  // Returns false when it reports.
  bool notComposed(const Instruction &inst, uint32_t constituent) {
    const Op t = s_.defOpcode(s_.typeOf(constituent));
    if ((t != Op::TypeImage && t != Op::TypeSampler && t != Op::TypeSampledImage) ||
        s_.hasCapability(grammar::Capability::BindlessTextureNV))
      return true;
    s_.error(inst.index(), "2.16.1",
             "the image, sampler or sampled image " + s_.name(constituent) +
                 " cannot be an operand of " + State::opcodeName(inst.opcode()) +
                 ": only the image and sampler instructions take such objects");
    return false;
  }

  // 2.16.1: "All OpSampledImage instructions, or instructions that load an image or sampler
  // reference, must be in the same block in which their Result <id> are consumed"
  // (non-semantic instructions, such as debug info, aside). spirv-val 2023.1 checks
  // OpSampledImage only, and DXC's and SPIRV-Cross's shaders load images before a loop or a
  // branch that samples them (19 corpus modules spirv-val accepts), so a load used in another
  // block is a warning and an OpSampledImage used in another block an error.
  void sameBlockUses(const Instruction &inst, bool sampledImage) {
    const uint32_t f = s_.functionOf(inst.index());
    if (f == kNoIndex)
      return;
    const auto blocks = s_.module().blocks(s_.module().functions()[f]);
    auto blockOf = [&](uint32_t index) {
      auto it = std::upper_bound(blocks.begin(), blocks.end(), index,
                                 [](uint32_t i, const BlockInfo &b) { return i < b.label; });
      return it == blocks.begin() ? kNoIndex : uint32_t(it - blocks.begin() - 1);
    };
    const uint32_t home = blockOf(inst.index());
    for (const DefUse::Use &u : s_.defUse().uses(inst.resultId())) {
      Instruction user = s_.module().inst(u.inst);
      if (user.isRaw() || user.opcode() == Op::ExtInst || user.opcode() == Op::Name ||
          user.opcode() == Op::Decorate || s_.functionOf(u.inst) != f)
        continue;
      if (blockOf(u.inst) == home)
        continue;
      if (sampledImage)
        s_.error(u.inst, "2.16.1",
                 "the sampled image " + s_.name(inst.resultId()) +
                     " is used outside the block of its OpSampledImage; it must be consumed in "
                     "that block");
      else
        s_.warning(u.inst, "2.16.1",
                   "the loaded image or sampler " + s_.name(inst.resultId()) +
                       " is used outside the block of its OpLoad; the specification asks that it "
                       "be consumed in that block (spirv-val does not check this)");
      return;
    }
  }

  void coordinate(const Instruction &inst, uint32_t coordId, const ImageType &t, bool proj,
                  bool integer) {
    const uint32_t type = s_.typeOf(coordId);
    if (type == 0)
      return;
    const bool ok = integer
                        ? s_.isIntScalarOrVector(type)
                        : (s_.isFloatScalarOrVector(type) ||
                           (!s_.hasCapability(kCapabilityShader) && s_.isIntScalarOrVector(type)));
    if (!ok) {
      s_.error(inst.index(), kRule,
               std::string("the coordinate must be ") +
                   (integer ? "an integer" : "a floating-point") + " scalar or vector");
      return;
    }
    if (!coordinateWidth(inst, type))
      return;
    const uint32_t base = coordinateComponents(t.dim);
    if (base == 0)
      return;
    // Integer coordinates of a cube (array) are (x, y, face) or (x, y, layer * 6 + face).
    const bool cubeFace = integer && t.dim == kDimCube;
    const uint32_t needed = base + (t.arrayed && !cubeFace ? 1 : 0) + (proj ? 1 : 0);
    if (s_.componentCount(type) < needed)
      s_.error(inst.index(), kRule,
               "the coordinate has " + std::to_string(s_.componentCount(type)) +
                   " components; this image needs at least " + std::to_string(needed));
  }

  // Image coordinates are 32-bit: the SPIR-V working group's answer to drivers that failed on
  // 16-bit ones (Khronos SPIR-V issue 905, after revision 6 of 1.6, which says no width);
  // spirv-val v2026.4 checks it in every environment. SPV_AMD_gpu_shader_half_float_fetch
  // "introduces support for 16-bit floating-point type which can now be used as a coordinate"
  // (spirv-val v2026.4 rejects those too). Returns false when it reports.
  bool coordinateWidth(const Instruction &inst, uint32_t type) {
    if (s_.bitWidth(type) == 32 ||
        (halfFloatFetch() && s_.isFloatScalarOrVector(type) && s_.bitWidth(type) == 16))
      return true;
    s_.error(inst.index(), kRule,
             "the coordinate must have 32-bit components, not " + s_.name(type) +
                 " (SPIR-V issue 905)");
    return false;
  }

  bool halfFloatFetch() const { return s_.hasExtension("SPV_AMD_gpu_shader_half_float_fetch"); }

  // %r = OpImageSample... %type %sampledImage %coordinate [%dref] ...
  void sample(const Instruction &inst, bool dref, bool proj) {
    if (inst.wordCount() < 5)
      return;
    const uint32_t sampledType = s_.typeOf(inst.word(3));
    if (sampledType == 0)
      return;
    const uint32_t inner = sampledImageImage(s_, sampledType);
    if (inner == 0) {
      s_.error(inst.index(), kRule,
               "the sampled image " + s_.name(inst.word(3)) + " is not an OpTypeSampledImage");
      return;
    }
    std::optional<ImageType> t = imageType(s_, inner);
    if (!t)
      return;
    // "The MS operand of the underlying OpTypeImage must be 0" (the sampling and gathering
    // instructions; spirv-val: "Sampling operation is invalid for multisample image").
    if (t->ms != 0)
      s_.error(inst.index(), kRule,
               State::opcodeName(inst.opcode()) + " cannot sample a multisampled image");
    else if (t->dim == kDimBuffer)
      // "Its OpTypeImage must not have a Dim of Buffer."
      s_.error(inst.index(), kRule,
               State::opcodeName(inst.opcode()) + " cannot sample a Buffer image");
    else if (proj && (t->arrayed != 0 || t->dim == kDimCube))
      // The projective forms: "The Dim operand of the underlying OpTypeImage must be 1D, 2D, 3D,
      // or Rect, and the Arrayed and MS operands must be 0."
      s_.error(inst.index(), kRule,
               State::opcodeName(inst.opcode()) +
                   " needs a 1D, 2D, 3D or Rect image that is not arrayed");
    coordinate(inst, inst.word(4), *t, proj, false);
    // The mask follows the coordinate, and the Dref or the gathered component if any.
    const bool gather = inst.opcode() == Op::ImageGather || inst.opcode() == Op::ImageDrefGather;
    if (inst.opcode() == Op::ImageGather && inst.wordCount() > 5) {
      // "Component is the component number gathered ... It must be a 32-bit integer type scalar."
      const uint32_t component = s_.typeOf(inst.word(5));
      if (component != 0 && (!s_.isIntType(component) || s_.bitWidth(component) != 32))
        s_.error(inst.index(), kRule, "the gathered Component must be a 32-bit integer scalar");
    }
    if (dref)
      drefOperand(inst);
    imageOperands(inst, dref || gather ? 6 : 5, *t);
    const uint32_t result = inst.typeId();
    if (dref) {
      const bool numbers = s_.isIntScalarOrVector(result) || s_.isFloatScalarOrVector(result);
      if (inst.opcode() != Op::ImageDrefGather && (!numbers || !s_.isScalarType(result)))
        s_.error(inst.index(), kRule,
                 "a depth-comparison sample returns an integer or floating-point scalar");
      else if (inst.opcode() == Op::ImageDrefGather &&
               (!numbers || !s_.isVectorType(result) || s_.componentCount(result) != 4))
        s_.error(inst.index(), kRule,
                 "OpImageDrefGather returns a vector of four integers or floats");
      else if (!s_.isVoidType(t->sampledType) && s_.componentType(result) != t->sampledType)
        s_.error(inst.index(), kRule,
                 "the result's components must be of the image's sampled type " +
                     s_.name(t->sampledType));
      return;
    }
    if (!s_.isVectorType(result) || s_.componentCount(result) != 4) {
      s_.error(inst.index(), kRule, "sampling returns a four-component vector");
      return;
    }
    if (!s_.isVoidType(t->sampledType) && s_.componentType(result) != t->sampledType)
      s_.error(inst.index(), kRule,
               "the result's components must be of the image's sampled type " +
                   s_.name(t->sampledType));
  }

  static bool isExplicitLod(Op op) {
    return op == Op::ImageSampleExplicitLod || op == Op::ImageSampleDrefExplicitLod ||
           op == Op::ImageSampleProjExplicitLod || op == Op::ImageSampleProjDrefExplicitLod ||
           op == Op::ImageSparseSampleExplicitLod || op == Op::ImageSparseSampleDrefExplicitLod;
  }
  static bool isImplicitLod(Op op) {
    return op == Op::ImageSampleImplicitLod || op == Op::ImageSampleDrefImplicitLod ||
           op == Op::ImageSampleProjImplicitLod || op == Op::ImageSampleProjDrefImplicitLod ||
           op == Op::ImageSparseSampleImplicitLod || op == Op::ImageSparseSampleDrefImplicitLod;
  }
  static bool isGather(Op op) {
    return op == Op::ImageGather || op == Op::ImageDrefGather || op == Op::ImageSparseGather ||
           op == Op::ImageSparseDrefGather;
  }

  // Components of an offset or a gradient: the coordinates of one layer.
  static uint32_t planeComponents(const ImageType &t) {
    return t.dim == kDimSubpassData ? 2 : coordinateComponents(t.dim);
  }

  static bool lodDim(const ImageType &t) {
    return t.dim == kDim1D || t.dim == kDim2D || t.dim == kDim3D || t.dim == kDimCube;
  }

  bool isConstant(uint32_t id) const {
    switch (s_.defOpcode(id)) {
    case Op::Constant:
    case Op::ConstantComposite:
    case Op::ConstantNull:
    case Op::SpecConstant:
    case Op::SpecConstantComposite:
    case Op::SpecConstantOp:
      return true;
    default:
      return false;
    }
  }

  // The Image Operands mask at word `at` (if present) and the operands it announces, in bit
  // order (3.14): which instructions take each operand, the operand's type, and the images it
  // suits.
  // 3.14 SignExtend and ZeroExtend: only for integer texel values (ZeroExtend: unsigned ones),
  // and "It is invalid to set both the ZeroExtend and SignExtend bits" (spirv-val 2023.1 checks
  // none of it). The texel value is the Texel of OpImageWrite, the second member of a sparse
  // result, or else the result.
  template <class Fail> void extension(const Instruction &inst, uint32_t mask, Fail &&fail) {
    constexpr uint32_t kSignExtend = uint32_t(grammar::ImageOperands::SignExtend),
                       kZeroExtend = uint32_t(grammar::ImageOperands::ZeroExtend);
    if (!(mask & (kSignExtend | kZeroExtend)))
      return;
    if ((mask & kSignExtend) && (mask & kZeroExtend))
      return fail("the SignExtend and ZeroExtend image operands exclude each other");
    uint32_t texel = inst.opcode() == Op::ImageWrite
                         ? (inst.wordCount() > 3 ? s_.typeOf(inst.word(3)) : 0)
                         : inst.typeId();
    if (s_.defOpcode(texel) == Op::TypeStruct) {
      std::optional<Instruction> st = s_.def(texel);
      texel = st->wordCount() > 3 ? st->word(3) : 0;
    }
    if (texel == 0)
      return;
    const uint32_t component = s_.componentType(texel);
    if (!s_.isIntType(component))
      fail("the SignExtend and ZeroExtend image operands need an integer texel value, not " +
           s_.name(texel));
    else if ((mask & kZeroExtend) && s_.def(component)->word(3) != 0)
      fail("the ZeroExtend image operand needs an unsigned integer texel value, not " +
           s_.name(texel));
  }

  void imageOperands(const Instruction &inst, uint32_t at, const ImageType &t) {
    enum : uint32_t {
      kBias = uint32_t(grammar::ImageOperands::Bias),
      kLod = uint32_t(grammar::ImageOperands::Lod),
      kGrad = uint32_t(grammar::ImageOperands::Grad),
      kConstOffset = uint32_t(grammar::ImageOperands::ConstOffset),
      kOffset = uint32_t(grammar::ImageOperands::Offset),
      kConstOffsets = uint32_t(grammar::ImageOperands::ConstOffsets),
      kSample = uint32_t(grammar::ImageOperands::Sample),
      kMinLod = uint32_t(grammar::ImageOperands::MinLod),
      kMakeTexelAvailable = uint32_t(grammar::ImageOperands::MakeTexelAvailable),
      kMakeTexelVisible = uint32_t(grammar::ImageOperands::MakeTexelVisible),
      kNonPrivateTexel = uint32_t(grammar::ImageOperands::NonPrivateTexel),
      kOffsets = uint32_t(grammar::ImageOperands::Offsets),
    };
    constexpr uint32_t kCapabilityImageGatherBiasLodAMD =
        uint32_t(grammar::Capability::ImageGatherBiasLodAMD);
    const Op op = inst.opcode();
    const uint32_t mask = inst.wordCount() > at ? inst.word(at) : 0;
    // SPV_NV_shader_image_footprint: the footprint of an explicit-LOD sampling with Lod or Grad,
    // of an implicit-LOD one without.
    const bool footprint = op == Op::ImageSampleFootprintNV;
    const bool explicitLod = isExplicitLod(op) || (footprint && (mask & (kLod | kGrad))),
               implicitLod = isImplicitLod(op) || (footprint && !(mask & (kLod | kGrad))),
               gather = isGather(op);
    const bool fetch = op == Op::ImageFetch || op == Op::ImageSparseFetch;
    const bool read = op == Op::ImageRead || op == Op::ImageSparseRead;
    const bool write = op == Op::ImageWrite;
    const bool gatherLod = gather && s_.hasCapability(kCapabilityImageGatherBiasLodAMD);
    // SPV_AMD_shader_image_load_store_lod: with its capability, OpImageRead, OpImageSparseRead
    // and OpImageWrite take Lod, an integer level as OpImageFetch's (spirv-val 2026.4 asks the
    // capability, not the extension).
    const bool storageLod =
        (read || write) && s_.hasCapability(grammar::Capability::ImageReadWriteLodAMD);
    const bool integerLod = fetch || storageLod;
    const char *rule = "3.14";
    auto fail = [&](const std::string &message) { s_.error(inst.index(), rule, message); };
    if (explicitLod && !(mask & (kLod | kGrad)))
      fail("explicit-LOD sampling needs the Lod or Grad image operand");
    if (implicitLod && (mask & (kLod | kGrad)))
      fail("implicit-LOD sampling takes no Lod or Grad image operand");
    if ((mask & kLod) && (mask & kGrad))
      fail("the Lod and Grad image operands exclude each other");
    if ((mask & kBias) && !implicitLod && !gatherLod)
      fail("the Bias image operand is for implicit-LOD sampling");
    if ((mask & kLod) && !explicitLod && !fetch && !gatherLod && !storageLod)
      fail("the Lod image operand is for explicit-LOD sampling and OpImageFetch");
    if ((mask & kGrad) && !explicitLod)
      fail("the Grad image operand is for explicit-LOD sampling");
    if ((mask & kMinLod) && !implicitLod && !(mask & kGrad))
      fail("the MinLod image operand is for implicit-LOD sampling or goes with Grad");
    if ((mask & (kBias | kLod | kGrad | kMinLod)) && t.ms != 0)
      fail("the Bias, Lod, Grad and MinLod image operands need a single-sampled image (MS 0)");
    if ((mask & (kBias | kLod | kMinLod)) && !lodDim(t))
      fail("the Bias, Lod and MinLod image operands need a 1D, 2D, 3D or Cube image");
    if ((mask & kSample) && !fetch && !read && !write)
      fail("the Sample image operand is for OpImageFetch, OpImageRead and OpImageWrite");
    if ((mask & kSample) && t.ms == 0)
      fail("the Sample image operand needs a multisampled image");
    if ((fetch || read || write) && t.ms == 1 && !(mask & kSample))
      fail(State::opcodeName(op) + " of a multisampled image needs the Sample image operand");
    if ((mask & (kConstOffset | kOffset | kConstOffsets)) && t.dim == kDimCube)
      fail("the offset image operands cannot be used with a Cube image");
    const uint32_t offsets = mask & (kConstOffset | kOffset | kConstOffsets | kOffsets);
    if (offsets & (offsets - 1))
      fail("the image operands Offset, ConstOffset, ConstOffsets and Offsets exclude each other");
    if ((mask & kConstOffsets) && !gather)
      fail("the ConstOffsets image operand is for OpImageGather and OpImageDrefGather");
    if ((mask & kMakeTexelAvailable) && !write)
      fail("the MakeTexelAvailable image operand is for OpImageWrite");
    if ((mask & kMakeTexelVisible) && !read)
      fail("the MakeTexelVisible image operand is for OpImageRead");
    if ((mask & (kMakeTexelAvailable | kMakeTexelVisible)) && !(mask & kNonPrivateTexel))
      fail("the MakeTexelAvailable and MakeTexelVisible image operands need NonPrivateTexel");
    extension(inst, mask, fail);

    // The operands follow the mask in bit order.
    uint32_t w = at + 1;
    auto next = [&]() -> uint32_t {
      const uint32_t id = w < inst.wordCount() ? inst.word(w) : 0;
      ++w;
      return id;
    };
    auto typeOf = [&](uint32_t id) { return id == 0 ? 0 : s_.typeOf(id); };
    const uint32_t plane = planeComponents(t);
    if (mask & kBias) {
      const uint32_t type = typeOf(next());
      if (type != 0 && !s_.isFloatType(type))
        fail("Bias must be a floating-point scalar");
    }
    if (mask & kLod) {
      const uint32_t type = typeOf(next());
      // "For sampling operations, it must be a 32-bit floating-point type scalar [...]. For
      // fetch operations, it must be a 32-bit integer type scalar."
      // (SPV_AMD_gpu_shader_half_float_fetch: a 16-bit float for sampling too.)
      const bool half = !integerLod && halfFloatFetch() && s_.bitWidth(type) == 16;
      if (type != 0 && (!(integerLod ? s_.isIntType(type) : s_.isFloatType(type)) ||
                        (s_.bitWidth(type) != 32 && !half)))
        fail(std::string("Lod must be a 32-bit ") + (integerLod ? "integer" : "floating-point") +
             " scalar");
    }
    if (mask & kGrad) {
      for (const char *name : {"dx", "dy"}) {
        const uint32_t type = typeOf(next());
        if (type == 0)
          continue;
        if (!s_.isFloatScalarOrVector(type) || !(s_.isScalarType(type) || s_.isVectorType(type)))
          fail(std::string("Grad ") + name + " must be a floating-point scalar or vector");
        else if (plane != 0 && s_.componentCount(type) != plane)
          fail(std::string("Grad ") + name + " has " + std::to_string(s_.componentCount(type)) +
               " components; this image needs " + std::to_string(plane));
      }
    }
    for (uint32_t bit : {kConstOffset, kOffset}) {
      if (!(mask & bit))
        continue;
      const char *name = bit == kConstOffset ? "ConstOffset" : "Offset";
      const uint32_t id = next(), type = typeOf(id);
      if (type == 0)
        continue;
      if (!s_.isIntScalarOrVector(type) || !(s_.isScalarType(type) || s_.isVectorType(type)))
        fail(std::string(name) + " must be an integer scalar or vector");
      else if (plane != 0 && s_.componentCount(type) != plane)
        fail(std::string(name) + " has " + std::to_string(s_.componentCount(type)) +
             " components; this image needs " + std::to_string(plane));
      else if (bit == kConstOffset && !isConstant(id))
        fail("ConstOffset must be a constant");
    }
    if (mask & kConstOffsets) {
      const uint32_t id = next(), type = typeOf(id);
      std::optional<Instruction> d = type != 0 ? s_.def(type) : std::nullopt;
      if (type == 0) {
      } else if (!d || d->opcode() != Op::TypeArray || d->wordCount() < 4 ||
                 s_.constantValue(d->word(3)) != 4u) {
        fail("ConstOffsets must be an array of four offsets");
      } else if (!s_.isIntType(s_.componentType(d->word(2))) || !s_.isVectorType(d->word(2)) ||
                 s_.componentCount(d->word(2)) != 2) {
        fail("the offsets of ConstOffsets must be vectors of two integers");
      } else if (!isConstant(id)) {
        fail("ConstOffsets must be a constant");
      }
    }
    if (mask & kSample) {
      const uint32_t type = typeOf(next());
      if (type != 0 && !s_.isIntType(type))
        fail("Sample must be an integer scalar");
    }
    if (mask & kMinLod) {
      const uint32_t type = typeOf(next());
      if (type != 0 && !s_.isFloatType(type))
        fail("MinLod must be a floating-point scalar");
    }
  }

  // The image operands of the sparse instructions, whose results are structs: %r = Op %type
  // %image %coordinate [%dref or %component] [mask ...].
  enum class Texel { Any, Scalar, Vector4 };

  // The sparse forms: the image (or sampled image) and operands of the plain form, and a result
  // that is "an OpTypeStruct with two members. The first member's type must be an integer type
  // scalar ... The second member must be a scalar or vector of floating-point type or integer
  // type" (a scalar for the Dref samples, four components for the gathers).
  void sparseOperands(const Instruction &inst, uint32_t at, bool sampled, Texel texel) {
    if (inst.wordCount() < 5)
      return;
    std::optional<Instruction> result = s_.def(inst.typeId());
    const uint32_t members =
        result && result->opcode() == Op::TypeStruct ? result->wordCount() - 2 : 0;
    const uint32_t code = members == 2 ? result->word(2) : 0,
                   value = members == 2 ? result->word(3) : 0;
    const bool numeric = s_.isIntScalarOrVector(value) || s_.isFloatScalarOrVector(value);
    if (members != 2 || !s_.isIntType(code) || !numeric ||
        (texel == Texel::Scalar && s_.isVectorType(value)) ||
        (texel == Texel::Vector4 && (!s_.isVectorType(value) || s_.componentCount(value) != 4))) {
      s_.error(inst.index(), kRule,
               State::opcodeName(inst.opcode()) +
                   ": the result type must be a structure of an integer scalar (the residency "
                   "code) and " +
                   (texel == Texel::Scalar    ? "an integer or float scalar"
                    : texel == Texel::Vector4 ? "a vector of four integers or floats"
                                              : "an integer or float scalar or vector") +
                   " (the texel), not " + s_.name(inst.typeId()));
      return;
    }
    const uint32_t operand = s_.typeOf(inst.word(3));
    if (operand == 0)
      return;
    const uint32_t type = sampled ? sampledImageImage(s_, operand) : operand;
    std::optional<ImageType> t = imageType(s_, type);
    if (!t) {
      s_.error(inst.index(), kRule,
               State::opcodeName(inst.opcode()) + ": " +
                   (sampled ? "the sampled image " : "Image ") + s_.name(inst.word(3)) +
                   " is not an " + (sampled ? "OpTypeSampledImage" : "OpTypeImage"));
      return;
    }
    const Op op = inst.opcode();
    if (op == Op::ImageSparseFetch && t->sampled != 1) {
      s_.error(inst.index(), kRule, "OpImageSparseFetch needs an image with Sampled = 1");
      return;
    }
    if (op == Op::ImageSparseRead && t->sampled == 1) {
      s_.error(inst.index(), kRule, "OpImageSparseRead needs a storage image (Sampled = 0 or 2)");
      return;
    }
    // "Its components must be the same as Sampled Type of the underlying OpTypeImage (unless
    // that underlying Sampled Type is OpTypeVoid)."
    if (!s_.isVoidType(t->sampledType) && s_.componentType(value) != t->sampledType) {
      s_.error(inst.index(), kRule,
               State::opcodeName(op) + ": the texel's components must be of the image's " +
                   "sampled type " + s_.name(t->sampledType));
      return;
    }
    coordinate(inst, inst.word(4), *t, false, !sampled);
    if (op == Op::ImageSparseGather && inst.wordCount() > 5) {
      // "Component ... must be a 32-bit integer type scalar", as for OpImageGather.
      const uint32_t component = s_.typeOf(inst.word(5));
      if (component != 0 && (!s_.isIntType(component) || s_.bitWidth(component) != 32))
        s_.error(inst.index(), kRule, "the gathered Component must be a 32-bit integer scalar");
    }
    imageOperands(inst, at, *t);
  }

  // %r = OpImageTexelPointer %type %image %coordinate %sample (3.32.8): a pointer in the Image
  // storage class to a scalar of the image's sampled type, from a pointer to an image.
  void texelPointer(const Instruction &inst) {
    constexpr uint32_t kStorageImage = uint32_t(grammar::StorageClass::Image);
    const char *rule = "3.32.8";
    if (inst.wordCount() < 6)
      return;
    const uint32_t result = inst.typeId();
    if (!s_.isPointerType(result)) {
      if (result != 0 && s_.isType(result))
        s_.error(inst.index(), rule, "the result type of OpImageTexelPointer must be a pointer");
      return;
    }
    if (s_.storageClass(result) != kStorageImage) {
      s_.error(inst.index(), rule,
               "the result type of OpImageTexelPointer must be a pointer in the Image storage "
               "class");
      return;
    }
    const uint32_t pointee = s_.pointeeType(result);
    if (!s_.isIntType(pointee) && !s_.isFloatType(pointee) && !s_.isVoidType(pointee)) {
      s_.error(inst.index(), rule,
               "OpImageTexelPointer points to an integer or floating-point scalar, not " +
                   s_.name(pointee));
      return;
    }
    const uint32_t imagePointer = s_.typeOf(inst.word(3));
    if (imagePointer == 0)
      return;
    std::optional<ImageType> t = imageType(s_, s_.pointeeType(imagePointer));
    if (!s_.isPointerType(imagePointer) || !t) {
      s_.error(inst.index(), rule,
               "the image " + s_.name(inst.word(3)) + " must be a pointer to an OpTypeImage");
      return;
    }
    if (t->sampledType != pointee) {
      s_.error(inst.index(), rule,
               "OpImageTexelPointer points to " + s_.name(pointee) +
                   ", not the image's sampled type " + s_.name(t->sampledType));
      return;
    }
    if (t->dim == kDimSubpassData) {
      s_.error(inst.index(), rule, "OpImageTexelPointer cannot point into subpass data");
      return;
    }
    const uint32_t coord = s_.typeOf(inst.word(4));
    if (coord != 0 &&
        (!s_.isIntScalarOrVector(coord) || !(s_.isScalarType(coord) || s_.isVectorType(coord)))) {
      s_.error(inst.index(), rule, "the coordinate must be an integer scalar or vector");
      return;
    }
    if (coord != 0 && !coordinateWidth(inst, coord))
      return;
    uint32_t needed = planeComponents(*t);
    if (t->arrayed) {
      if (t->dim != kDim1D && t->dim != kDim2D && t->dim != kDimCube) {
        s_.error(inst.index(), rule,
                 "OpImageTexelPointer into an arrayed image needs a 1D, 2D or Cube image");
        return;
      }
      needed = t->dim == kDim1D ? 2 : 3;
    }
    if (coord != 0 && needed != 0 && s_.componentCount(coord) != needed) {
      s_.error(inst.index(), rule,
               "the coordinate has " + std::to_string(s_.componentCount(coord)) +
                   " components; this image needs " + std::to_string(needed));
      return;
    }
    const uint32_t sample = s_.typeOf(inst.word(5));
    if (sample != 0 && !s_.isIntType(sample)) {
      s_.error(inst.index(), rule, "the sample must be an integer scalar");
      return;
    }
    if (t->ms == 0 && !(isConstant(inst.word(5)) && s_.constantValue(inst.word(5)) == 0u) &&
        s_.defOpcode(inst.word(5)) != Op::ConstantNull) {
      s_.error(inst.index(), rule, "the sample of a single-sampled image must be the constant 0");
      return;
    }
    constexpr uint32_t kR32f = uint32_t(grammar::ImageFormat::R32f),
                       kR32i = uint32_t(grammar::ImageFormat::R32i),
                       kR32ui = uint32_t(grammar::ImageFormat::R32ui),
                       kR64ui = uint32_t(grammar::ImageFormat::R64ui),
                       kR64i = uint32_t(grammar::ImageFormat::R64i);
    if (s_.isVulkan() && t->format != kR32f && t->format != kR32i && t->format != kR32ui &&
        t->format != kR64ui && t->format != kR64i)
      s_.error(inst.index(), "VUID-StandaloneSpirv-OpImageTexelPointer-04658",
               "in Vulkan OpImageTexelPointer needs an image of format R32f, R32i, R32ui, R64i "
               "or R64ui");
  }

  // %r = OpImageQueryLod %v2float %sampledImage %coordinate: "Result Type must be a
  // two-component floating-point type vector", the sampled image's Dim 1D, 2D, 3D or Cube, the
  // coordinate floats (integers in kernels) with a component per dimension.
  void queryLod(const Instruction &inst) {
    OperandCheck c(s_, inst, kRule);
    if (!c.result("a two-component floating-point vector",
                  [&](uint32_t t) {
                    return s_.isVectorType(t) && s_.isFloatScalarOrVector(t) &&
                           s_.componentCount(t) == 2;
                  }) ||
        !c.operand(3, "Sampled Image", "of type OpTypeSampledImage",
                   [&](uint32_t t) { return sampledImageImage(s_, t) != 0; }))
      return;
    std::optional<ImageType> t = imageType(s_, sampledImageImage(s_, c.type(3)));
    if (!t || inst.wordCount() < 5)
      return;
    if (t->dim != kDim1D && t->dim != kDim2D && t->dim != kDim3D && t->dim != kDimCube) {
      c.fail("the image's Dim must be 1D, 2D, 3D or Cube");
      return;
    }
    // The level of detail does not depend on the layer: no component for it.
    ImageType plane = *t;
    plane.arrayed = 0;
    coordinate(inst, inst.word(4), plane, false, false);
  }

  // %r = OpImageSampleFootprintNV %struct %sampledImage %coordinate %granularity %coarse
  // [image operands] (SPV_NV_shader_image_footprint): the footprint is a structure, the
  // granularity an integer scalar and Coarse a boolean scalar; the image operands are those of
  // the sampling whose footprint it is.
  void footprint(const Instruction &inst) {
    OperandCheck c(s_, inst, kRule);
    if (!c.resultOfType(Op::TypeStruct) ||
        !c.operand(3, "Sampled Image", "of type OpTypeSampledImage",
                   [&](uint32_t t) { return sampledImageImage(s_, t) != 0; }) ||
        !c.operand(5, "Granularity", "an integer scalar",
                   [&](uint32_t t) { return c.intScalar(t); }) ||
        !c.operand(6, "Coarse", "a boolean scalar", [&](uint32_t t) { return s_.isBoolType(t); }))
      return;
    if (std::optional<ImageType> t = imageType(s_, sampledImageImage(s_, c.type(3)))) {
      coordinate(inst, inst.word(4), *t, false, false);
      imageOperands(inst, 7, *t);
    }
  }

  // %r = OpImageQueryFormat / OpImageQueryOrder %type %image: "Result Type must be an OpTypeInt
  // scalar. Image must be an object whose type is OpTypeImage."
  void channelQuery(const Instruction &inst) {
    OperandCheck c(s_, inst, kRule);
    c.result("an integer scalar", [&](uint32_t t) { return c.intScalar(t); }) &&
        c.ofType(3, "Image", Op::TypeImage);
  }

  // OpImageQuerySize(Lod) %type %image [%lod], OpImageQueryLevels / Samples %type %image:
  // integer results; sizes have a component per dimension (and one for the layers).
  void query(const Instruction &inst) {
    if (inst.wordCount() < 4)
      return;
    const uint32_t type = s_.typeOf(inst.word(3));
    std::optional<ImageType> t = imageType(s_, type);
    if (!t) {
      // "Image must be an object whose type is OpTypeImage": a sampled image is not one.
      if (type != 0)
        s_.error(inst.index(), kRule,
                 State::opcodeName(inst.opcode()) + " takes an image, not " + s_.name(type));
      return;
    }
    const uint32_t result = inst.typeId();
    if (!s_.isIntScalarOrVector(result)) {
      s_.error(inst.index(), kRule, "an image query gives integers");
      return;
    }
    const Op op = inst.opcode();
    if ((op == Op::ImageQueryLevels || op == Op::ImageQuerySamples) && !s_.isIntType(result)) {
      s_.error(inst.index(), kRule, State::opcodeName(op) + " gives an integer scalar");
      return;
    }
    if (op == Op::ImageQueryLevels && t->dim != kDim1D && t->dim != kDim2D && t->dim != kDim3D &&
        t->dim != kDimCube) {
      s_.error(inst.index(), kRule, "OpImageQueryLevels needs an image of Dim 1D, 2D, 3D or Cube");
      return;
    }
    // "Level of Detail [...] must be a 32-bit integer type scalar".
    if (op == Op::ImageQuerySizeLod && inst.wordCount() > 4 && s_.typeOf(inst.word(4)) != 0 &&
        (!s_.isIntType(s_.typeOf(inst.word(4))) || s_.bitWidth(s_.typeOf(inst.word(4))) != 32)) {
      s_.error(inst.index(), kRule, "the Level of Detail must be a 32-bit integer scalar");
      return;
    }
    if (op == Op::ImageQuerySamples && t->ms != 1)
      s_.error(inst.index(), kRule, "OpImageQuerySamples needs a multisampled image");
    if (op != Op::ImageQuerySize && op != Op::ImageQuerySizeLod)
      return;
    if (op == Op::ImageQuerySizeLod && t->ms != 0)
      s_.error(inst.index(), kRule, "OpImageQuerySizeLod cannot query a multisampled image");
    const bool mipmappable =
        t->dim == kDim1D || t->dim == kDim2D || t->dim == kDim3D || t->dim == kDimCube;
    // OpImageQuerySize: "If Image has Dim 1D, 2D, 3D or Cube, it must also have either an MS of 1
    // or a Sampled of 0 or 2" (the others have a level of detail: OpImageQuerySizeLod).
    if (op == Op::ImageQuerySize && mipmappable && t->ms != 1 && t->sampled == 1)
      s_.error(inst.index(), kRule,
               "OpImageQuerySize of a 1D, 2D, 3D or Cube image needs MS = 1 or Sampled = 0 or 2 "
               "(OpImageQuerySizeLod queries sampled images)");
    if (op == Op::ImageQuerySizeLod && s_.isVulkan() && t->sampled != 1)
      s_.error(inst.index(), "VUID-StandaloneSpirv-OpImageQuerySizeLod-04659",
               "in Vulkan OpImageQuerySizeLod queries images of Sampled = 1 only");
    uint32_t dims = t->dim == kDimCube ? 2 : coordinateComponents(t->dim);
    if (dims == 0 || t->dim == kDimSubpassData)
      return;
    dims += t->arrayed ? 1 : 0;
    if (s_.componentCount(result) != dims)
      s_.error(inst.index(), kRule,
               "the size of this image has " + std::to_string(dims) + " components, not " +
                   std::to_string(s_.componentCount(result)));
  }

  // Whether `id` is a constant vector of zeros: OpConstantNull, or an OpConstantComposite whose
  // constituents are zeros.
  bool zeroVector(uint32_t id) const {
    const std::optional<Instruction> d = s_.def(id);
    if (!d || d->opcode() == Op::ConstantNull)
      return d.has_value();
    if (d->opcode() != Op::ConstantComposite)
      return false;
    for (uint32_t w = 3; w < d->wordCount(); ++w)
      if (s_.defOpcode(d->word(w)) != Op::ConstantNull && s_.constantValue(d->word(w)) != 0u)
        return false;
    return true;
  }

  // OpImageFetch / OpImageRead: %r = Op %type %image %coordinate ...; OpImageWrite %image
  // %coordinate %texel ...
  void fetchReadWrite(const Instruction &inst, uint32_t imageWord, const char *name) {
    if (inst.wordCount() < imageWord + 2)
      return;
    const uint32_t type = s_.typeOf(inst.word(imageWord));
    if (type == 0)
      return;
    std::optional<ImageType> t = imageType(s_, type);
    if (!t) {
      s_.error(inst.index(), kRule,
               std::string(name) + " takes an OpTypeImage, not " + s_.name(type));
      return;
    }
    const bool fetch = inst.opcode() == Op::ImageFetch;
    if (fetch && t->sampled != 1)
      s_.error(inst.index(), kRule, "OpImageFetch needs an image with Sampled = 1");
    if (!fetch && t->sampled == 1)
      s_.error(inst.index(), kRule,
               std::string(name) + " needs a storage image (Sampled = 0 or 2)");
    const bool shader = s_.hasCapability(kCapabilityShader);
    coordinate(inst, inst.word(imageWord + 1), *t, false, true);
    // "The (u,v) coordinates used for a SubpassData must be the <id> of a constant vector (0,0)"
    // (VUID-StandaloneSpirv-SubpassData-04660): OpConstantNull or a composite of zeros.
    if (s_.isVulkan() && t->dim == kDimSubpassData && !zeroVector(inst.word(imageWord + 1)))
      s_.error(
          inst.index(), "VUID-StandaloneSpirv-SubpassData-04660",
          "in Vulkan the coordinate of a SubpassData image is the constant vector (0,0), not " +
              s_.name(inst.word(imageWord + 1)));
    texels(inst, *t);
    if (shader && !fetch && t->sampled == 2 && t->ms == 1 && t->dim != kDimSubpassData &&
        !s_.hasCapability(kCapabilityStorageImageMultisample))
      s_.error(inst.index(), "2.16.2",
               "a multisampled storage image needs the StorageImageMultisample capability");
    imageOperands(inst, imageWord + (inst.opcode() == Op::ImageWrite ? 3 : 2), *t);
    if (inst.opcode() == Op::ImageWrite && shader && t->format == kFormatUnknown &&
        !s_.hasCapability(kCapabilityStorageImageWriteWithoutFormat))
      s_.error(inst.index(), "2.16.2",
               "writing a storage image of Unknown format needs the "
               "StorageImageWriteWithoutFormat capability");
  }

  // The texels OpImageFetch and OpImageRead give and OpImageWrite writes: integer or float
  // scalars or vectors whose components are the image's Sampled Type when it is not void; fetches
  // give four components, so do reads in Vulkan (VUID-StandaloneSpirv-Result-04780), and in
  // OpenCL reads of depth images give a float scalar, the others four components (spirv-val's
  // reading of the OpenCL environment's image read functions).
  void texels(const Instruction &inst, const ImageType &t) {
    const Op op = inst.opcode();
    const bool write = op == Op::ImageWrite;
    const uint32_t texel = write ? s_.typeOf(inst.word(3)) : inst.typeId();
    if (texel == 0)
      return;
    auto what = [&] { // named only on failure
      return write ? "the texel " + s_.name(inst.word(3)) : "the result type " + s_.name(texel);
    };
    if (!s_.isIntScalarOrVector(texel) && !s_.isFloatScalarOrVector(texel)) {
      s_.error(inst.index(), kRule, what() + " must be an integer or float scalar or vector");
      return;
    }
    if (!s_.isVoidType(t.sampledType) && s_.componentType(texel) != t.sampledType) {
      s_.error(inst.index(), kRule,
               what() + " must have components of the image's Sampled Type " +
                   s_.name(t.sampledType));
      return;
    }
    if (write)
      return;
    const uint32_t count = s_.componentCount(texel);
    if (op == Op::ImageFetch && (!s_.isVectorType(texel) || count != 4))
      s_.error(inst.index(), kRule, "OpImageFetch gives a four-component vector");
    else if (s_.isVulkan() && count != 4)
      s_.error(inst.index(), "VUID-StandaloneSpirv-Result-04780",
               "in Vulkan OpImageRead gives a four-component vector");
    else if (s_.client() == Client::OpenCL && t.depth == 1 && !s_.isFloatType(texel))
      s_.error(inst.index(), "OpenCL env 2.2 / 6.4",
               "reading a depth image gives a float scalar in the OpenCL environment");
    else if (s_.client() == Client::OpenCL && t.depth != 1 && count != 4)
      s_.error(inst.index(), "OpenCL env 2.2 / 6.4",
               "reading an image gives a four-component vector in the OpenCL environment");
  }

  // The depth-comparison reference, word 5 of the Dref forms: "It must be a 32-bit
  // floating-point type scalar."
  void drefOperand(const Instruction &inst) {
    if (inst.wordCount() <= 5)
      return;
    const uint32_t type = s_.typeOf(inst.word(5));
    if (type != 0 && (!s_.isFloatType(type) || s_.bitWidth(type) != 32))
      s_.error(inst.index(), kRule,
               State::opcodeName(inst.opcode()) + ": Dref " + s_.name(inst.word(5)) +
                   " must be a 32-bit float scalar");
  }

  // %r = OpImage %type %sampledImage
  void image(const Instruction &inst) {
    if (inst.wordCount() < 4)
      return;
    const uint32_t sampledType = s_.typeOf(inst.word(3));
    const uint32_t inner = sampledImageImage(s_, sampledType);
    if (sampledType != 0 && inner == 0)
      s_.error(inst.index(), kRule,
               "the operand of OpImage must be a sampled image, not " + s_.name(sampledType));
    else if (inner != 0 && inner != inst.typeId())
      s_.error(inst.index(), kRule,
               "the result type " + s_.name(inst.typeId()) +
                   " is not the sampled image's image type " + s_.name(inner));
  }

  State &s_;
};

} // namespace

void checkImages(State &s) { ImagesChecker(s).run(); }

} // namespace spire::val
