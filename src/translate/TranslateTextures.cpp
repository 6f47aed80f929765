// Textures and samplers: sampling (implicit and explicit LOD, bias, gradients, comparison),
// texel loads and stores, gathers, LOD and size queries, with ResRet results converted from the
// image's sampled type to the operation's overload; and the compute derivative groups that
// implicit-LOD operations need outside pixel shaders.
#include "Translator.h"

#include <algorithm>

namespace spire::translate {

using dxil::DxOp;
using grammar::Dim;
using grammar::ImageOperands;

namespace {

/// What a texture operation needs to know of an OpTypeImage.
struct ImageShape {
  uint32_t type = 0;
  uint32_t sampledType = 0;
  Dim dim = Dim::Dim2D;
  bool arrayed = false, multisampled = false, storage = false;

  /// Coordinates without the array layer (a cube is addressed with 3).
  uint32_t spatial() const {
    return dim == Dim::Dim1D || dim == Dim::Buffer ? 1 : dim == Dim::Dim2D ? 2 : 3;
  }
  /// Components of a size query (a cube's faces are 2D), array size included.
  uint32_t sizeComponents() const { return (dim == Dim::Cube ? 2 : spatial()) + (arrayed ? 1 : 0); }
  /// Texel offsets the operation takes (cubes take none).
  uint32_t offsets() const { return dim == Dim::Cube ? 0 : spatial(); }
};

/// Optional image operands, written in the order of their mask bits.
struct ImageOperandList {
  std::vector<std::pair<uint32_t, std::vector<uint32_t>>> operands;

  void add(ImageOperands bit, std::vector<uint32_t> ids) {
    operands.emplace_back(uint32_t(bit), std::move(ids));
  }
  void appendTo(std::vector<uint32_t> &words) {
    if (operands.empty())
      return;
    std::sort(operands.begin(), operands.end(),
              [](const auto &a, const auto &b) { return a.first < b.first; });
    uint32_t mask = 0;
    for (const auto &o : operands)
      mask |= o.first;
    words.push_back(mask);
    for (const auto &o : operands)
      words.insert(words.end(), o.second.begin(), o.second.end());
  }
};

/// How an operation treats texel offsets that are not constants.
enum class OffsetUse {
  ConstantOnly, ///< sampling: Vulkan allows the Offset operand only on gathers
  Gather,       ///< Offset operand (ImageGatherExtended), six bits as D3D's gather4_po
  Fetch,        ///< added to the integer coordinates
};

/// The low `bits` bits of `v` as a signed number (how D3D reads a texel offset).
int64_t signExtend(uint64_t v, uint32_t bits) {
  const uint64_t field = v & ((uint64_t(1) << bits) - 1);
  return int64_t(field) - (field >> (bits - 1) ? int64_t(1) << bits : 0);
}

/// One texture dx.op call being translated.
class TextureOp {
public:
  TextureOp(Translator &t, const dxil::DxilOpCall &call, const dxil::Instruction &inst,
            std::span<const dxil::ValueId> args)
      : t_(t), call_(call), inst_(inst), args_(args), op_(DxOp(call.op->opcode)) {}

  bool run(bool &handled);

private:
  std::string opName() const { return std::string(call_.op->name); }
  uint32_t arg(size_t i) {
    if (i >= args_.size())
      return t_.fail("dx.op." + opName() + " has too few operands");
    return t_.value(args_[i]);
  }
  bool undefArg(size_t i) const { return i >= args_.size() || t_.isUndef(args_[i]); }
  bool constArg(size_t i, int64_t &out) {
    if (i >= args_.size() || !t_.constantInt(args_[i], out)) {
      t_.fail("operand " + std::to_string(i + 1) + " of dx.op." + opName() + " must be a constant");
      return false;
    }
    return true;
  }
  /// Operand i, which must have this SPIR-V type.
  uint32_t typedArg(size_t i, uint32_t type);
  /// A float operand that is undef or +0.0 (the "not used" value of clamp).
  bool zeroOrUndefArg(size_t i) const;

  const Handle *handle(size_t i) {
    if (i >= args_.size()) {
      t_.fail("dx.op." + opName() + " has too few operands");
      return nullptr;
    }
    return t_.handle(args_[i]);
  }
  bool imageShape(const Handle &h, ImageShape &out);
  uint32_t loadDescriptor(const Handle &h, bool image, const ImageShape *shape);
  uint32_t sampledImage(const Handle &texture, const Handle &sampler, const ImageShape &s);
  /// OpSampledImage of loaded descriptors (it must be in the block of its use).
  uint32_t combine(uint32_t image, uint32_t sampler, const ImageShape &s, bool nonUniform);
  /// Operands [first, first + count) as a vector of `component` (a scalar when count is 1).
  uint32_t vectorOf(size_t first, uint32_t count, uint32_t component);
  /// Adds the texel offset operands [first, first + count) to `ops`. With `selector`, a
  /// sampling offset that is not a constant is not an error: *selector is then the offsets'
  /// four bits each, (o0 & 15) | (o1 & 15) << 4 | ..., for sampleWithDynamicOffset.
  bool offsets(size_t first, uint32_t count, OffsetUse use, ImageOperandList &ops,
               uint32_t *coordinate, uint32_t coordinateCount, uint32_t *selector = nullptr);
  /// The sample `spv` with a texel offset known only at run time, which Vulkan allows on
  /// gathers only: a switch over the 16^count offsets D3D can mean, each case sampling with
  /// its constant offset, joined by a phi.
  uint32_t sampleWithDynamicOffset(Op spv, uint32_t resultType, const Handle &texture,
                                   const Handle &sampler, const ImageShape &s,
                                   std::vector<uint32_t> words, ImageOperandList ops,
                                   uint32_t selector);
  uint32_t convert(uint32_t v, uint32_t from, uint32_t to);
  /// The ResRet result from a vec4 of the sampled type (or a scalar: component 0 only).
  bool resRet(uint32_t texel, const ImageShape &s, bool scalar);

  /// The texture and sampler handles of a sampling operation (operands 0 and 1), checked: a
  /// sampled, single-sampled texture (2D or cube for a gather).
  bool samplingOperands(const Handle *&texture, const Handle *&sampler, ImageShape &s, bool gather);
  bool sample();
  bool gather();
  bool calculateLod();
  bool textureLoad();
  bool textureStore();
  bool getDimensions(bool &handled);
  bool samplePosition(bool renderTarget);

  Translator &t_;
  const dxil::DxilOpCall &call_;
  const dxil::Instruction &inst_;
  std::span<const dxil::ValueId> args_;
  DxOp op_;
};

bool TextureOp::zeroOrUndefArg(size_t i) const {
  if (undefArg(i))
    return true;
  const dxil::Constant *c = t_.llvm().constant(args_[i]);
  return c && (c->kind == dxil::ConstantKind::Null ||
               (c->kind == dxil::ConstantKind::Float && c->bits == 0));
}

bool TextureOp::imageShape(const Handle &h, ImageShape &out) {
  std::span<const uint32_t> image =
      h.descriptor ? t_.typeInstruction(h.descriptor->elementType) : std::span<const uint32_t>();
  // OpTypeImage: opcode, sampled type, dim, depth, arrayed, ms, sampled, format.
  if (image.size() < 8 || image[0] != uint32_t(Op::TypeImage)) {
    t_.fail("dx.op." + opName() + " on a resource that is not a texture or typed buffer");
    return false;
  }
  out.type = h.descriptor->elementType;
  out.sampledType = image[1];
  out.dim = Dim(image[2]);
  out.arrayed = image[4] != 0;
  out.multisampled = image[5] != 0;
  out.storage = image[6] == 2;
  return true;
}

uint32_t TextureOp::loadDescriptor(const Handle &h, bool image, const ImageShape *shape) {
  if (!h.descriptor)
    return t_.fail("a handle without a descriptor");
  const uint32_t type = h.descriptor->elementType;
  if (!image && t_.typeInstruction(type).empty()) // checked by the caller for images
    return t_.fail("dx.op." + opName() + " with a sampler that is not a sampler");
  if (!image && t_.typeInstruction(type)[0] != uint32_t(Op::TypeSampler))
    return t_.fail("dx.op." + opName() + " with a sampler that is not a sampler");
  uint32_t pointer = h.variable;
  if (h.arrayIndex) {
    pointer = t_.emit(Op::AccessChain, t_.typePointer(StorageClass::UniformConstant, type),
                      {h.variable, h.arrayIndex});
    if (h.nonUniform) {
      t_.decorate(pointer, Decoration::NonUniform);
      const bool buffer = shape && shape->dim == Dim::Buffer;
      t_.capability(!shape ? Capability::SampledImageArrayNonUniformIndexing
                    : shape->storage
                        ? (buffer ? Capability::StorageTexelBufferArrayNonUniformIndexing
                                  : Capability::StorageImageArrayNonUniformIndexing)
                    : buffer ? Capability::UniformTexelBufferArrayNonUniformIndexing
                             : Capability::SampledImageArrayNonUniformIndexing);
    }
  }
  const uint32_t loaded = t_.emit(Op::Load, type, {pointer});
  if (h.nonUniform)
    t_.decorate(loaded, Decoration::NonUniform);
  return loaded;
}

uint32_t TextureOp::sampledImage(const Handle &texture, const Handle &sampler,
                                 const ImageShape &s) {
  const uint32_t image = loadDescriptor(texture, true, &s);
  const uint32_t samplerId = loadDescriptor(sampler, false, nullptr);
  if (t_.failed())
    return 0;
  return combine(image, samplerId, s, texture.nonUniform || sampler.nonUniform);
}

uint32_t TextureOp::combine(uint32_t image, uint32_t sampler, const ImageShape &s,
                            bool nonUniform) {
  const uint32_t r =
      t_.emit(Op::SampledImage, t_.typeUniqued(Op::TypeSampledImage, {s.type}), {image, sampler});
  if (nonUniform)
    t_.decorate(r, Decoration::NonUniform);
  return r;
}

uint32_t TextureOp::typedArg(size_t i, uint32_t type) {
  const uint32_t v = arg(i);
  if (!t_.failed() && t_.llvmType(t_.llvm().typeOf(args_[i])) != type)
    return t_.fail("operand " + std::to_string(i + 1) + " of dx.op." + opName() +
                   " has the wrong type");
  return v;
}

uint32_t TextureOp::vectorOf(size_t first, uint32_t count, uint32_t component) {
  std::vector<uint32_t> parts;
  for (uint32_t i = 0; i < count; ++i)
    parts.push_back(typedArg(first + i, component));
  if (t_.failed())
    return 0;
  return count == 1 ? parts[0]
                    : t_.emit(Op::CompositeConstruct, t_.typeVector(component, count), parts);
}

bool TextureOp::offsets(size_t first, uint32_t count, OffsetUse use, ImageOperandList &ops,
                        uint32_t *coordinate, uint32_t coordinateCount, uint32_t *selector) {
  if (count == 0)
    return true;
  // D3D honours the low four bits of an offset (six for gather4_po), sign-extended.
  const uint32_t bits = use == OffsetUse::Gather ? 6 : 4;
  const uint32_t s32 = t_.typeUniqued(Op::TypeInt, {32, 1});
  std::vector<int64_t> constants(count, 0);
  bool constant = true, zero = true;
  for (uint32_t i = 0; i < count; ++i) {
    if (undefArg(first + i))
      continue;
    if (!t_.constantInt(args_[first + i], constants[i])) {
      constant = false;
      continue;
    }
    constants[i] = signExtend(uint64_t(constants[i]), bits);
    zero = zero && constants[i] == 0;
  }
  if (constant) {
    if (zero)
      return true;
    std::vector<uint32_t> parts;
    for (int64_t c : constants)
      parts.push_back(t_.constI(s32, uint64_t(c)));
    ops.add(ImageOperands::ConstOffset,
            {count == 1 ? parts[0] : t_.constComposite(t_.typeVector(s32, count), parts)});
    return true;
  }
  if (use == OffsetUse::ConstantOnly && selector) {
    const uint32_t u32 = t_.typeInt(32);
    uint32_t packed = 0;
    for (uint32_t i = 0; i < count; ++i) {
      if (undefArg(first + i))
        continue;
      uint32_t field = t_.emit(Op::BitwiseAnd, u32,
                               {t_.bitcast(u32, typedArg(first + i, u32)), t_.constU32(15)});
      if (i > 0)
        field = t_.emit(Op::ShiftLeftLogical, u32, {field, t_.constU32(4 * i)});
      packed = packed ? t_.emit(Op::BitwiseOr, u32, {packed, field}) : field;
    }
    *selector = packed ? packed : t_.constU32(0);
    return !t_.failed();
  }
  if (use == OffsetUse::ConstantOnly) {
    t_.fail("unsupported: dx.op." + opName() +
            " with a texel offset that is not a constant (Vulkan allows the Offset operand only "
            "on gathers)");
    return false;
  }
  std::vector<uint32_t> parts;
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t v = undefArg(first + i) ? t_.constI(s32, 0)
                                           : t_.bitcast(s32, typedArg(first + i, t_.typeInt(32)));
    parts.push_back(t_.emit(Op::BitFieldSExtract, s32, {v, t_.constU32(0), t_.constU32(bits)}));
  }
  if (use == OffsetUse::Gather) {
    t_.capability(Capability::ImageGatherExtended);
    ops.add(ImageOperands::Offset,
            {count == 1 ? parts[0]
                        : t_.emit(Op::CompositeConstruct, t_.typeVector(s32, count), parts)});
    return !t_.failed();
  }
  // Fetch: the offsets move the texel coordinates (not the array layer).
  const uint32_t u32 = t_.typeInt(32);
  for (uint32_t &p : parts)
    p = t_.bitcast(u32, p);
  while (parts.size() < coordinateCount)
    parts.push_back(t_.constU32(0));
  const uint32_t offset =
      coordinateCount == 1
          ? parts[0]
          : t_.emit(Op::CompositeConstruct, t_.typeVector(u32, coordinateCount), parts);
  *coordinate = t_.emit(Op::IAdd, t_.typeVector(u32, coordinateCount), {*coordinate, offset});
  return !t_.failed();
}

uint32_t TextureOp::convert(uint32_t v, uint32_t from, uint32_t to) {
  if (from == to)
    return v;
  const bool floatFrom = t_.isFloatType(from), floatTo = t_.isFloatType(to);
  const uint32_t widthFrom = t_.scalarWidth(from), widthTo = t_.scalarWidth(to);
  auto numeric = [&](uint32_t type) {
    std::span<const uint32_t> info = t_.typeInstruction(t_.componentType(type));
    return !info.empty() &&
           (info[0] == uint32_t(Op::TypeInt) || info[0] == uint32_t(Op::TypeFloat));
  };
  if (!numeric(from) || !numeric(to) || t_.componentCount(from) != t_.componentCount(to))
    return t_.fail("dx.op." + opName() + " with a texel type that is not a number");
  if (floatFrom == floatTo || widthFrom == widthTo)
    return t_.convertScalar(v, from, to);
  return t_.fail("dx.op." + opName() + ": a " + std::to_string(widthFrom) + "-bit " +
                 (floatFrom ? "float" : "integer") + " texel read as a " + std::to_string(widthTo) +
                 "-bit " + (floatTo ? "float" : "integer"));
}

bool TextureOp::resRet(uint32_t texel, const ImageShape &s, bool scalar) {
  std::vector<uint32_t> parts;
  const uint32_t used = t_.extractMask(inst_.value);
  for (uint32_t i = 0; i < 4; ++i) {
    const uint32_t member = t_.memberType(inst_.type, i);
    if (t_.failed())
      return false;
    if (!(used >> i & 1) || (scalar && i > 0)) {
      parts.push_back(t_.undef(member));
      continue;
    }
    const uint32_t c = scalar ? texel : t_.emit(Op::CompositeExtract, s.sampledType, {texel, i});
    parts.push_back(convert(c, s.sampledType, member));
  }
  // The status: every access is to mapped memory (no sparse residency).
  parts.push_back(t_.constI(t_.memberType(inst_.type, 4), 0));
  t_.setAggregate(inst_.value, parts);
  return !t_.failed();
}

// ---- sampling ---------------------------------------------------------------------------------

bool TextureOp::samplingOperands(const Handle *&texture, const Handle *&sampler, ImageShape &s,
                                 bool gather) {
  texture = handle(0);
  sampler = handle(1);
  if (!texture || !sampler || !imageShape(*texture, s))
    return false;
  if (s.storage || s.multisampled || s.dim == Dim::Buffer) {
    t_.fail("dx.op." + opName() + " on a resource that cannot be sampled");
    return false;
  }
  if (gather && s.dim != Dim::Dim2D && s.dim != Dim::Cube) {
    t_.fail("dx.op." + opName() + " on a resource that is not a 2D or cube texture");
    return false;
  }
  return true;
}

bool TextureOp::sample() {
  const Handle *texture = nullptr, *sampler = nullptr;
  ImageShape s;
  if (!samplingOperands(texture, sampler, s, false))
    return false;
  const bool compare = op_ == DxOp::SampleCmp || op_ == DxOp::SampleCmpLevelZero ||
                       op_ == DxOp::SampleCmpLevel || op_ == DxOp::SampleCmpGrad ||
                       op_ == DxOp::SampleCmpBias;
  const uint32_t f32 = t_.typeFloat(32);
  // Operands: texture, sampler, c0..c3, o0..o2, then [compare], then the op's own.
  size_t next = 9;
  const uint32_t dref = compare ? typedArg(next++, f32) : 0;
  ImageOperandList ops;
  bool implicit = false, clamp = false;
  uint32_t bias = 0;
  switch (op_) {
  case DxOp::Sample:
  case DxOp::SampleCmp:
    implicit = clamp = true;
    break;
  case DxOp::SampleBias:
  case DxOp::SampleCmpBias:
    implicit = clamp = true;
    bias = typedArg(next++, f32);
    break;
  case DxOp::SampleLevel:
  case DxOp::SampleCmpLevel:
    ops.add(ImageOperands::Lod, {typedArg(next++, f32)});
    break;
  case DxOp::SampleCmpLevelZero:
    ops.add(ImageOperands::Lod, {t_.constF32(0)});
    break;
  default: { // SampleGrad, SampleCmpGrad: ddx0..2, ddy0..2
    const uint32_t n = s.dim == Dim::Cube ? 3 : s.spatial();
    const uint32_t ddx = vectorOf(next, n, f32), ddy = vectorOf(next + 3, n, f32);
    ops.add(ImageOperands::Grad, {ddx, ddy});
    next += 6;
    clamp = true;
    break;
  }
  }
  if (clamp && !zeroOrUndefArg(next)) {
    t_.capability(Capability::MinLod);
    ops.add(ImageOperands::MinLod, {typedArg(next, f32)});
  }
  // An explicit level of detail or gradient does not need the quad's other lanes, so the
  // sample may move into a switch over a dynamic offset's values.
  uint32_t selector = 0;
  if (!offsets(6, s.offsets(), OffsetUse::ConstantOnly, ops, nullptr, 0, &selector))
    return false;
  const uint32_t coordinate = vectorOf(2, s.spatial() + (s.arrayed ? 1 : 0), f32);
  if (implicit)
    t_.requireDerivatives();
  if (implicit && selector) {
    // An implicit one needs the quad in step, which the switch would split: the derivatives
    // are taken here, where the quad is, and the cases sample with them as gradients (the
    // same footprint; a bias scales them by 2^bias, which adds bias to the level of detail).
    const uint32_t n = s.spatial();
    const uint32_t type = n == 1 ? f32 : t_.typeVector(f32, n);
    const uint32_t spatial = vectorOf(2, n, f32);
    uint32_t ddx = t_.emit(Op::DPdx, type, {spatial}), ddy = t_.emit(Op::DPdy, type, {spatial});
    if (bias) {
      const uint32_t scale = t_.glsl("Exp2", f32, {bias});
      const Op times = n == 1 ? Op::FMul : Op::VectorTimesScalar;
      ddx = t_.emit(times, type, {ddx, scale});
      ddy = t_.emit(times, type, {ddy, scale});
    }
    ops.add(ImageOperands::Grad, {ddx, ddy});
    implicit = false;
  } else if (bias) {
    ops.add(ImageOperands::Bias, {bias});
  }
  const Op spv = compare
                     ? (implicit ? Op::ImageSampleDrefImplicitLod : Op::ImageSampleDrefExplicitLod)
                     : (implicit ? Op::ImageSampleImplicitLod : Op::ImageSampleExplicitLod);
  const uint32_t resultType = compare ? s.sampledType : t_.typeVector(s.sampledType, 4);
  std::vector<uint32_t> words{0, coordinate}; // the sampled image, made where it is used
  if (compare)
    words.push_back(dref);
  if (selector)
    return resRet(
        sampleWithDynamicOffset(spv, resultType, *texture, *sampler, s, words, ops, selector), s,
        compare);
  words[0] = sampledImage(*texture, *sampler, s);
  if (t_.failed())
    return false;
  ops.appendTo(words);
  return resRet(t_.emit(spv, resultType, words), s, compare);
}

uint32_t TextureOp::sampleWithDynamicOffset(Op spv, uint32_t resultType, const Handle &texture,
                                            const Handle &sampler, const ImageShape &s,
                                            std::vector<uint32_t> words, ImageOperandList ops,
                                            uint32_t selector) {
  // The descriptors are loaded once; an OpSampledImage must be in the block of its use.
  const uint32_t image = loadDescriptor(texture, true, &s);
  const uint32_t samplerId = loadDescriptor(sampler, false, nullptr);
  if (t_.failed())
    return 0;
  const uint32_t count = s.offsets(), cases = 1u << (4 * count);
  const uint32_t s32 = t_.typeUniqued(Op::TypeInt, {32, 1});
  const uint32_t merge = t_.id();
  std::vector<uint32_t> labels(cases);
  std::vector<uint32_t> switchWords{selector, 0};
  for (uint32_t c = 0; c < cases; ++c) {
    labels[c] = t_.id();
    if (c == 0)
      switchWords[1] = labels[0]; // the default: every other value is a case
    else
      switchWords.insert(switchWords.end(), {c, labels[c]});
  }
  t_.emitVoid(Op::SelectionMerge, {merge, 0});
  t_.emitVoid(Op::Switch, switchWords);
  std::vector<uint32_t> phi;
  for (uint32_t c = 0; c < cases; ++c) {
    t_.emitLabel(labels[c]);
    const uint32_t combined =
        combine(image, samplerId, s, texture.nonUniform || sampler.nonUniform);
    std::vector<uint32_t> parts;
    for (uint32_t i = 0; i < count; ++i)
      parts.push_back(t_.constI(s32, uint64_t(signExtend(c >> (4 * i), 4))));
    ImageOperandList caseOps = ops;
    caseOps.add(ImageOperands::ConstOffset,
                {count == 1 ? parts[0] : t_.constComposite(t_.typeVector(s32, count), parts)});
    std::vector<uint32_t> caseWords = words;
    caseWords[0] = combined;
    caseOps.appendTo(caseWords);
    phi.insert(phi.end(), {t_.emit(spv, resultType, caseWords), labels[c]});
    t_.emitVoid(Op::Branch, {merge});
  }
  t_.emitLabel(merge);
  return t_.emit(Op::Phi, resultType, phi);
}

bool TextureOp::gather() {
  const Handle *texture = nullptr, *sampler = nullptr;
  ImageShape s;
  if (!samplingOperands(texture, sampler, s, true))
    return false;
  // Operands: texture, sampler, c0..c3, o0, o1, [channel], [compare].
  int64_t channel = 0;
  if (op_ != DxOp::TextureGatherRaw && !constArg(8, channel))
    return false;
  if (channel < 0 || channel > 3)
    return t_.fail("dx.op." + opName() + " of channel " + std::to_string(channel));
  if (op_ == DxOp::TextureGatherCmp && channel != 0)
    return t_.fail("unsupported: dx.op." + opName() + " of channel " + std::to_string(channel) +
                   " (Vulkan compares the first channel only)");
  ImageOperandList ops;
  if (!offsets(6, s.dim == Dim::Cube ? 0 : 2, OffsetUse::Gather, ops, nullptr, 0))
    return false;
  const uint32_t coordinate = vectorOf(2, s.spatial() + (s.arrayed ? 1 : 0), t_.typeFloat(32));
  const uint32_t dref = op_ == DxOp::TextureGatherCmp ? typedArg(9, t_.typeFloat(32)) : 0;
  const uint32_t image = sampledImage(*texture, *sampler, s);
  if (t_.failed())
    return false;
  std::vector<uint32_t> words{image, coordinate};
  words.push_back(op_ == DxOp::TextureGatherCmp ? dref : t_.constU32(uint32_t(channel)));
  ops.appendTo(words);
  const uint32_t texel =
      t_.emit(op_ == DxOp::TextureGatherCmp ? Op::ImageDrefGather : Op::ImageGather,
              t_.typeVector(s.sampledType, 4), words);
  return resRet(texel, s, false);
}

bool TextureOp::calculateLod() {
  const Handle *texture = nullptr, *sampler = nullptr;
  ImageShape s;
  if (!samplingOperands(texture, sampler, s, false))
    return false;
  // Operands: texture, sampler, c0..c2 (no array layer), clamped.
  const uint32_t f32 = t_.typeFloat(32);
  const uint32_t coordinate = vectorOf(2, s.spatial(), f32);
  t_.capability(Capability::ImageQuery);
  t_.requireDerivatives();
  const uint32_t image = sampledImage(*texture, *sampler, s);
  if (t_.failed())
    return false;
  // x: the level accessed (clamped); y: the LOD relative to the base level (unclamped).
  const uint32_t lod = t_.emit(Op::ImageQueryLod, t_.typeVector(f32, 2), {image, coordinate});
  const uint32_t clamped = t_.emit(Op::CompositeExtract, f32, {lod, 0});
  const uint32_t unclamped = t_.emit(Op::CompositeExtract, f32, {lod, 1});
  int64_t which = 0;
  uint32_t r = 0;
  if (args_.size() > 5 && t_.constantInt(args_[5], which))
    r = which & 1 ? clamped : unclamped;
  else
    r = t_.emit(Op::Select, f32, {typedArg(5, t_.typeBool()), clamped, unclamped});
  t_.setValue(inst_.value, r);
  return !t_.failed();
}

// ---- loads and stores -------------------------------------------------------------------------

bool TextureOp::textureLoad() {
  const Handle *h = handle(0);
  ImageShape s;
  if (!h || !imageShape(*h, s))
    return false;
  if (s.dim == Dim::Buffer || s.dim == Dim::Cube)
    return t_.fail("dx.op." + opName() + " on a resource that is not a 1D, 2D or 3D texture");
  // Operands: handle, mip level or sample index, c0..c2, o0..o2.
  const uint32_t u32 = t_.typeInt(32);
  const uint32_t count = s.spatial() + (s.arrayed ? 1 : 0);
  uint32_t coordinate = vectorOf(2, count, u32);
  const uint32_t image = loadDescriptor(*h, true, &s);
  if (t_.failed())
    return false;
  ImageOperandList ops;
  if (s.multisampled) {
    if (s.storage)
      t_.capability(Capability::StorageImageMultisample);
    ops.add(ImageOperands::Sample, {typedArg(1, u32)});
  } else if (!s.storage) {
    ops.add(ImageOperands::Lod, {undefArg(1) ? t_.constU32(0) : typedArg(1, u32)});
  }
  if (!s.storage && !offsets(5, s.offsets(), OffsetUse::Fetch, ops, &coordinate, count))
    return false;
  std::vector<uint32_t> words{image, coordinate};
  ops.appendTo(words);
  const uint32_t texel =
      t_.emit(s.storage ? Op::ImageRead : Op::ImageFetch, t_.typeVector(s.sampledType, 4), words);
  return resRet(texel, s, false);
}

bool TextureOp::textureStore() {
  const Handle *h = handle(0);
  ImageShape s;
  if (!h || !imageShape(*h, s))
    return false;
  if (!s.storage || s.dim == Dim::Buffer || s.dim == Dim::Cube)
    return t_.fail("dx.op." + opName() + " on a resource that is not a read-write texture");
  // Operands: handle, c0..c2, v0..v3, write mask, [sample index]. The mask covers every
  // component of the format; the others are undef and Vulkan ignores them.
  const uint32_t count = s.spatial() + (s.arrayed ? 1 : 0);
  const uint32_t coordinate = vectorOf(1, count, t_.typeInt(32));
  std::vector<uint32_t> components;
  for (uint32_t c = 0; c < 4; ++c) {
    const uint32_t v = arg(4 + c);
    if (t_.failed())
      return false;
    components.push_back(convert(v, t_.llvmType(t_.llvm().typeOf(args_[4 + c])), s.sampledType));
  }
  const uint32_t image = loadDescriptor(*h, true, &s);
  if (t_.failed())
    return false;
  std::vector<uint32_t> words{
      image, coordinate,
      t_.emit(Op::CompositeConstruct, t_.typeVector(s.sampledType, 4), components)};
  if (op_ == DxOp::TextureStoreSample) {
    if (!s.multisampled)
      return t_.fail("dx.op." + opName() + " on a texture that is not multisampled");
    t_.capability(Capability::StorageImageMultisample);
    ImageOperandList ops;
    ops.add(ImageOperands::Sample, {typedArg(9, t_.typeInt(32))});
    ops.appendTo(words);
  } else if (s.multisampled) {
    return t_.fail("dx.op." + opName() + " on a multisampled texture needs a sample index");
  }
  t_.emitVoid(Op::ImageWrite, words);
  return !t_.failed();
}

// ---- queries ----------------------------------------------------------------------------------

bool TextureOp::getDimensions(bool &handled) {
  const Handle *h = handle(0);
  if (!h)
    return false;
  std::span<const uint32_t> type =
      h->descriptor ? t_.typeInstruction(h->descriptor->elementType) : std::span<const uint32_t>();
  if (type.empty() || type[0] != uint32_t(Op::TypeImage) ||
      h->kind == dxil::ResourceKind::RawBuffer || h->kind == dxil::ResourceKind::StructuredBuffer) {
    handled = false; // buffers: TranslateResources.cpp
    return true;
  }
  ImageShape s;
  if (!imageShape(*h, s))
    return false;
  t_.capability(Capability::ImageQuery);
  const uint32_t u32 = t_.typeInt(32);
  const uint32_t image = loadDescriptor(*h, true, &s);
  if (t_.failed())
    return false;
  const uint32_t n = s.dim == Dim::Buffer ? 1 : s.sizeComponents();
  const uint32_t sizeType = t_.typeVector(u32, n);
  uint32_t size = 0, last = t_.undef(u32), inRange = 0;
  if (s.dim == Dim::Buffer || s.storage || s.multisampled) {
    size = t_.emit(Op::ImageQuerySize, sizeType, {image});
    if (s.multisampled)
      last = t_.emit(Op::ImageQuerySamples, u32, {image});
  } else {
    // D3D: past the last mip level, width, height, depth and the array size read as 0 (only
    // the level count stays valid: vkd3d-proton's array reinterpretation tests, which native
    // drivers pass, expect a 0 array size there); the query itself asks for level 0 then,
    // which Vulkan defines.
    last = t_.emit(Op::ImageQueryLevels, u32, {image});
    const uint32_t mip = undefArg(1) ? t_.constU32(0) : typedArg(1, u32);
    inRange = t_.emit(Op::ULessThan, t_.typeBool(), {mip, last});
    const uint32_t level = t_.emit(Op::Select, u32, {inRange, mip, t_.constU32(0)});
    size = t_.emit(Op::ImageQuerySizeLod, sizeType, {image, level});
  }
  std::vector<uint32_t> parts;
  for (uint32_t i = 0; i < 3; ++i) {
    if (i >= n) {
      parts.push_back(t_.undef(u32));
      continue;
    }
    uint32_t c = n == 1 ? size : t_.emit(Op::CompositeExtract, u32, {size, i});
    if (inRange)
      c = t_.emit(Op::Select, u32, {inRange, c, t_.constU32(0)});
    parts.push_back(c);
  }
  parts.push_back(last);
  t_.setAggregate(inst_.value, parts);
  return !t_.failed();
}

// D3D's standard sample patterns (1, 2, 4, 8 and 16 samples), in 1/16 pixel from the pixel's
// centre, one table after another: a count's table starts at count - 1. Vulkan devices with
// standardSampleLocations place their samples at these same positions.
constexpr int8_t kStandardSamplePositions[31][2] = {
    {0, 0},                                                                      // 1
    {4, 4},   {-4, -4},                                                          // 2
    {-2, -6}, {6, -2},  {-6, 2},  {2, 6},                                        // 4
    {1, -3},  {-1, 3},  {5, 1},   {-3, -5}, {-5, 5},  {-7, -1}, {3, 7}, {7, -7}, // 8
    {1, 1},   {-1, -3}, {-3, 2},  {4, -1},  {-5, -2}, {2, 5},   {5, 3}, {3, -5}, // 16
    {-2, 6},  {0, -7},  {-4, -6}, {-6, 4},  {-8, 0},  {7, -4},  {6, 7}, {-7, -8}};

bool TextureOp::samplePosition(bool renderTarget) {
  // The position of sample `index` of a multisampled texture (or of the render targets), from
  // the standard pattern of its sample count; (0, 0) for an index past the count or a count
  // without a standard pattern, as D3D returns.
  const Handle *h = renderTarget ? nullptr : handle(0);
  ImageShape s;
  if (!renderTarget && (!h || !imageShape(*h, s)))
    return false;
  if (!renderTarget && !s.multisampled)
    return t_.fail("dx.op." + opName() + " of a texture that is not multisampled");
  const uint32_t u32 = t_.typeInt(32), f32 = t_.typeFloat(32), v2 = t_.typeVector(f32, 2);
  const uint32_t boolType = t_.typeBool();
  const uint32_t table = t_.typeArray(v2, 31);
  if (!t_.samplePositions_) {
    std::vector<uint32_t> positions;
    for (const auto &p : kStandardSamplePositions)
      positions.push_back(
          t_.constComposite(v2, {t_.constF32(float(p[0]) / 16), t_.constF32(float(p[1]) / 16)}));
    const uint32_t initializer = t_.constComposite(table, positions);
    t_.samplePositions_ = t_.globalVariable(table, StorageClass::Private, initializer);
    t_.name(t_.samplePositions_, "standard_sample_positions");
  }
  uint32_t count = 0;
  if (renderTarget) {
    count = t_.renderTargetSampleCount();
  } else {
    t_.capability(Capability::ImageQuery);
    count = t_.emit(Op::ImageQuerySamples, u32, {loadDescriptor(*h, true, &s)});
  }
  const uint32_t index = typedArg(renderTarget ? 0 : 1, u32);
  if (t_.failed())
    return false;
  const uint32_t one = t_.constU32(1), zero = t_.constU32(0);
  const uint32_t last = t_.emit(Op::ISub, u32, {count, one});
  const uint32_t powerOfTwo =
      t_.emit(Op::IEqual, boolType, {t_.emit(Op::BitwiseAnd, u32, {count, last}), zero});
  const uint32_t standard =
      t_.emit(Op::LogicalAnd, boolType,
              {powerOfTwo, t_.emit(Op::ULessThanEqual, boolType, {count, t_.constU32(16)})});
  const uint32_t valid = t_.emit(Op::LogicalAnd, boolType,
                                 {standard, t_.emit(Op::ULessThan, boolType, {index, count})});
  const uint32_t slot =
      t_.emit(Op::Select, u32, {valid, t_.emit(Op::IAdd, u32, {last, index}), zero});
  const uint32_t pointer = t_.emit(Op::AccessChain, t_.typePointer(StorageClass::Private, v2),
                                   {t_.samplePositions_, slot});
  const uint32_t origin = t_.constComposite(v2, {t_.constF32(0), t_.constF32(0)});
  const uint32_t position =
      t_.emit(Op::Select, v2, {valid, t_.emit(Op::Load, v2, {pointer}), origin});
  t_.setAggregate(inst_.value, {t_.emit(Op::CompositeExtract, f32, {position, 0}),
                                t_.emit(Op::CompositeExtract, f32, {position, 1})});
  return !t_.failed();
}

bool TextureOp::run(bool &handled) {
  handled = true;
  switch (op_) {
  case DxOp::Sample:
  case DxOp::SampleBias:
  case DxOp::SampleLevel:
  case DxOp::SampleGrad:
  case DxOp::SampleCmp:
  case DxOp::SampleCmpLevelZero:
  case DxOp::SampleCmpLevel:
  case DxOp::SampleCmpGrad:
  case DxOp::SampleCmpBias:
    return sample();
  case DxOp::TextureGather:
  case DxOp::TextureGatherCmp:
  case DxOp::TextureGatherRaw:
    return gather();
  case DxOp::CalculateLOD:
    return calculateLod();
  case DxOp::TextureLoad:
    return textureLoad();
  case DxOp::TextureStore:
  case DxOp::TextureStoreSample:
    return textureStore();
  case DxOp::GetDimensions:
    return getDimensions(handled);
  case DxOp::Texture2DMSGetSamplePosition:
  case DxOp::RenderTargetGetSamplePosition:
    return samplePosition(op_ == DxOp::RenderTargetGetSamplePosition);
  case DxOp::RenderTargetGetSampleCount:
    t_.setValue(inst_.value, t_.renderTargetSampleCount());
    return true;
  case DxOp::WriteSamplerFeedback:
  case DxOp::WriteSamplerFeedbackBias:
  case DxOp::WriteSamplerFeedbackLevel:
  case DxOp::WriteSamplerFeedbackGrad:
    return t_.fail("unsupported: sampler feedback (dx.op." + opName() +
                   "): Vulkan has no equivalent");
  default:
    handled = false;
    return true;
  }
}

} // namespace

uint32_t Translator::renderTargetSampleCount() {
  if (!renderTargetSamples_) {
    renderTargetSamples_ = id();
    b_.add(Section::Global, Op::SpecConstant).id(typeInt(32)).id(renderTargetSamples_).literal(1);
    decorate(renderTargetSamples_, Decoration::SpecId, {options_.renderTargetSampleCountSpecId});
    name(renderTargetSamples_, "render_target_sample_count");
  }
  return renderTargetSamples_;
}

bool Translator::translateTextureOp(const dxil::DxilOpCall &call, const dxil::Instruction &inst,
                                    std::span<const dxil::ValueId> args, bool &handled) {
  return TextureOp(*this, call, inst, args).run(handled);
}

// ---- derivatives outside pixel shaders --------------------------------------------------------

void Translator::requireDerivatives(bool quadOps) {
  const dxil::ShaderKind kind = entry_.kind;
  if (kind == dxil::ShaderKind::Pixel || derivativeGroupMode_)
    return;
  // Node shaders: broadcasting launches only (D3D's SM.INCOMPATIBLEDERIVLAUNCH).
  const bool broadcastingNode = kind == dxil::ShaderKind::Node && node_.launch == 1;
  const bool groups = kind == dxil::ShaderKind::Compute || kind == dxil::ShaderKind::Mesh ||
                      kind == dxil::ShaderKind::Amplification || broadcastingNode;
  if (quadOps && (!groups || dx_.shaderModelMajor * 100 + dx_.shaderModelMinor < 606))
    return;
  if (!groups) {
    const char *prefix = kind == dxil::ShaderKind::Node ? "coalescing or thread launch node"
                                                        : dxil::shaderKindPrefix(kind);
    fail(std::string("unsupported: implicit derivatives in a ") + (prefix ? prefix : "library") +
         " shader");
    return;
  }
  // D3D (SM 6.6): numthreads X divisible by 4 with Y = Z = 1 forms quads of four consecutive
  // threads; X and Y divisible by 2 form 2x2 quads of thread ids. Other shapes are invalid in
  // D3D; groups of four consecutive threads are the closest Vulkan allows.
  const dxil::EntryProperties &p = entry_.properties;
  const std::array<uint32_t, 3> n = p.ms ? p.ms->numThreads
                                    : p.as
                                        ? p.as->numThreads
                                        : p.numThreads.value_or(std::array<uint32_t, 3>{1, 1, 1});
  const uint64_t total = uint64_t(n[0]) * n[1] * n[2];
  const bool oneDimensional = n[1] == 1 && n[2] == 1 && n[0] % 4 == 0;
  bool quads = false;
  if (!oneDimensional && n[0] % 2 == 0 && n[1] % 2 == 0)
    quads = true;
  else if (total % 4 != 0) {
    if (quadOps)
      return;
    fail("unsupported: derivatives in a thread group of " + std::to_string(n[0]) + "x" +
         std::to_string(n[1]) + "x" + std::to_string(n[2]) + ", which forms no quads");
    return;
  }
  // Compute: the NV extension unless asked otherwise (SPIRV-Tools 2023.1 knows it); the KHR
  // one shares its enumerants and adds mesh and task shaders (which that validator refuses
  // derivatives in).
  extension((kind == dxil::ShaderKind::Compute || broadcastingNode) &&
                    !options_.khrComputeDerivatives
                ? "SPV_NV_compute_shader_derivatives"
                : "SPV_KHR_compute_shader_derivatives");
  capability(quads ? Capability::ComputeDerivativeGroupQuadsNV
                   : Capability::ComputeDerivativeGroupLinearNV);
  derivativeGroupMode_ = uint32_t(quads ? grammar::ExecutionMode::DerivativeGroupQuadsNV
                                        : grammar::ExecutionMode::DerivativeGroupLinearNV);
}

void Translator::addDerivativeGroupMode(uint32_t function) {
  if (derivativeGroupMode_)
    b_.add(Section::ExecutionMode, Op::ExecutionMode).id(function).literal(derivativeGroupMode_);
}

} // namespace spire::translate
