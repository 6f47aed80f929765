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
#include "Rules.h"

namespace spire::val {

namespace {

constexpr const char *kRule = "3.32.10";
constexpr uint32_t kDim1D = 0, kDim2D = 1, kDim3D = 2, kDimCube = 3, kDimRect = 4, kDimBuffer = 5,
                   kDimSubpassData = 6;
constexpr uint32_t kFormatUnknown = 0;
constexpr uint32_t kCapabilityShader = 1, kCapabilityStorageImageMultisample = 27,
                   kCapabilityStorageImageWriteWithoutFormat = 56;

struct ImageType {
  uint32_t id = 0;
  uint32_t sampledType = 0, dim = 0, depth = 0, arrayed = 0, ms = 0, sampled = 0, format = 0;
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
    // differ (HLSL's comparison samplers on images declared without depth), and so do we.
    std::optional<ImageType> a = imageType(s_, image), b = imageType(s_, inner);
    const bool sameButDepth = a && b && a->sampledType == b->sampledType && a->dim == b->dim &&
                              a->arrayed == b->arrayed && a->ms == b->ms &&
                              a->sampled == b->sampled && a->format == b->format;
    if (image != 0 && image != inner && !sameButDepth)
      s_.error(inst.index(), kRule,
               "the image " + s_.name(inst.word(3)) + " has type " + s_.name(image) +
                   ", not the result's image type " + s_.name(inner));
    if (sampler != 0 && s_.defOpcode(sampler) != Op::TypeSampler)
      s_.error(inst.index(), kRule,
               "the sampler " + s_.name(inst.word(4)) + " is not an OpTypeSampler");
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
               std::string("the coordinate must be a ") + (integer ? "integer" : "floating-point") +
                   " scalar or vector");
      return;
    }
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
    coordinate(inst, inst.word(4), *t, proj, false);
    // The mask follows the coordinate, and the Dref or the gathered component if any.
    const bool gather = inst.opcode() == Op::ImageGather || inst.opcode() == Op::ImageDrefGather;
    imageOperands(inst, dref || gather ? 6 : 5, *t);
    const uint32_t result = inst.typeId();
    if (dref) {
      if (inst.opcode() != Op::ImageDrefGather && !s_.isScalarType(result))
        s_.error(inst.index(), kRule, "a depth-comparison sample returns a scalar");
      return;
    }
    if (!s_.isVectorType(result) || s_.componentCount(result) != 4) {
      s_.error(inst.index(), kRule, "sampling returns a four-component vector");
      return;
    }
    if (!s_.isVoidType(t->sampledType) &&
        (s_.isFloatType(s_.componentType(result)) != s_.isFloatType(t->sampledType)))
      s_.error(inst.index(), kRule,
               "the result's components must be of the kind of the image's sampled type " +
                   s_.name(t->sampledType));
  }

  // The Image Operands mask at word `at` (if present) and the operands it announces, in bit
  // order (3.14): explicit-LOD sampling names Lod or Grad, implicit-LOD sampling neither; Bias
  // only with implicit LOD; Lod and Grad exclude each other; Sample only on multisampled images.
  void imageOperands(const Instruction &inst, uint32_t at, const ImageType &t) {
    constexpr uint32_t kBias = 0x1, kLod = 0x2, kGrad = 0x4, kSample = 0x40;
    const Op op = inst.opcode();
    const bool explicitLod =
        op == Op::ImageSampleExplicitLod || op == Op::ImageSampleDrefExplicitLod ||
        op == Op::ImageSampleProjExplicitLod || op == Op::ImageSampleProjDrefExplicitLod;
    const bool implicitLod =
        op == Op::ImageSampleImplicitLod || op == Op::ImageSampleDrefImplicitLod ||
        op == Op::ImageSampleProjImplicitLod || op == Op::ImageSampleProjDrefImplicitLod;
    const uint32_t mask = inst.wordCount() > at ? inst.word(at) : 0;
    if (explicitLod && !(mask & (kLod | kGrad)))
      s_.error(inst.index(), "3.14", "explicit-LOD sampling needs the Lod or Grad image operand");
    if (implicitLod && (mask & (kLod | kGrad)))
      s_.error(inst.index(), "3.14", "implicit-LOD sampling takes no Lod or Grad image operand");
    if ((mask & kLod) && (mask & kGrad))
      s_.error(inst.index(), "3.14", "the Lod and Grad image operands exclude each other");
    if ((mask & kBias) && !implicitLod && op != Op::ImageGather && op != Op::ImageDrefGather)
      s_.error(inst.index(), "3.14", "the Bias image operand is for implicit-LOD sampling");
    if ((mask & kSample) && t.ms == 0)
      s_.error(inst.index(), "3.14", "the Sample image operand needs a multisampled image");
    // Bias and Lod are the first operands after the mask when present.
    uint32_t w = at + 1;
    for (uint32_t bit : {kBias, kLod}) {
      if (!(mask & bit) || w >= inst.wordCount())
        continue;
      const uint32_t type = s_.typeOf(inst.word(w));
      const bool integerLod = bit == kLod && op == Op::ImageFetch;
      if (type != 0 && !(integerLod ? s_.isIntType(type) : s_.isFloatType(type)))
        s_.error(inst.index(), "3.14",
                 std::string(bit == kBias ? "Bias" : "Lod") + " must be a" +
                     (integerLod ? "n integer" : " floating-point") + " scalar");
      ++w;
    }
  }

  // OpImageQuerySize(Lod) %type %image [%lod], OpImageQueryLevels / Samples %type %image:
  // integer results; sizes have a component per dimension (and one for the layers).
  void query(const Instruction &inst) {
    if (inst.wordCount() < 4)
      return;
    const uint32_t type = s_.typeOf(inst.word(3));
    std::optional<ImageType> t = imageType(s_, type);
    if (!t) {
      if (type != 0 && s_.defOpcode(type) != Op::TypeSampledImage)
        s_.error(inst.index(), kRule, "an image query takes an image, not " + s_.name(type));
      return;
    }
    const uint32_t result = inst.typeId();
    if (!s_.isIntScalarOrVector(result)) {
      s_.error(inst.index(), kRule, "an image query gives integers");
      return;
    }
    const Op op = inst.opcode();
    if (op == Op::ImageQuerySamples && t->ms != 1)
      s_.error(inst.index(), kRule, "OpImageQuerySamples needs a multisampled image");
    if (op != Op::ImageQuerySize && op != Op::ImageQuerySizeLod)
      return;
    if (op == Op::ImageQuerySizeLod && t->ms != 0)
      s_.error(inst.index(), kRule, "OpImageQuerySizeLod cannot query a multisampled image");
    uint32_t dims = t->dim == kDimCube ? 2 : coordinateComponents(t->dim);
    if (dims == 0 || t->dim == kDimSubpassData)
      return;
    dims += t->arrayed ? 1 : 0;
    if (s_.componentCount(result) != dims)
      s_.error(inst.index(), kRule,
               "the size of this image has " + std::to_string(dims) + " components, not " +
                   std::to_string(s_.componentCount(result)));
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
    if (shader)
      coordinate(inst, inst.word(imageWord + 1), *t, false, true);
    if (shader && !fetch && t->sampled == 2 && t->ms == 1 && t->dim != kDimSubpassData &&
        !s_.hasCapability(kCapabilityStorageImageMultisample))
      s_.error(inst.index(), "2.16.2",
               "a multisampled storage image needs the StorageImageMultisample capability");
    if (inst.opcode() == Op::ImageWrite && shader && t->format == kFormatUnknown &&
        !s_.hasCapability(kCapabilityStorageImageWriteWithoutFormat))
      s_.error(inst.index(), "2.16.2",
               "writing a storage image of Unknown format needs the "
               "StorageImageWriteWithoutFormat capability");
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
