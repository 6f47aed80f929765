// Buffer blocks and the views through which raw and structured buffers are read and written:
// 32-bit words through the buffer's own descriptor (a storage buffer of uints or, with
// rawBuffersAsTexelBuffers, an R32ui texel buffer), 16- and 64-bit elements through a second
// storage-buffer variable that aliases the same set and binding (uint16_t[] / uint64_t[]).
#include "Translator.h"

namespace spire::translate {

uint32_t Translator::descriptorVariable(uint32_t pointee, StorageClass sc, const Descriptor &where,
                                        std::string_view variableName) {
  const uint32_t variable = globalVariable(pointee, sc);
  name(variable, variableName);
  decorate(variable, Decoration::DescriptorSet, {where.set});
  decorate(variable, Decoration::Binding, {where.binding});
  if (where.nonWritable)
    decorate(variable, Decoration::NonWritable);
  if (where.coherent)
    decorate(variable, Decoration::Coherent);
  return variable;
}

uint32_t Translator::storageBlockType(uint32_t bits) {
  auto [it, inserted] = storageBlocks_.emplace(bits, 0);
  if (inserted) {
    const uint32_t runtime = freshType(Op::TypeRuntimeArray, {typeInt(bits)});
    decorate(runtime, Decoration::ArrayStride, {bits / 8});
    const uint32_t block = freshType(Op::TypeStruct, {runtime});
    memberDecorate(block, 0, Decoration::Offset, {0});
    decorate(block, Decoration::Block);
    it->second = block;
  }
  return it->second;
}

uint32_t Translator::uniformBlockType(uint32_t vec4s) {
  auto [it, inserted] = uniformBlocks_.emplace(vec4s, 0);
  if (inserted) {
    const uint32_t rows = freshType(Op::TypeArray, {typeVector(typeInt(32), 4), constU32(vec4s)});
    decorate(rows, Decoration::ArrayStride, {16});
    const uint32_t block = freshType(Op::TypeStruct, {rows});
    memberDecorate(block, 0, Decoration::Offset, {0});
    decorate(block, Decoration::Block);
    it->second = block;
  }
  return it->second;
}

namespace {

bool isTexelBuffer(const Handle &h) {
  return h.descriptor && h.descriptor->storage == StorageClass::UniformConstant;
}

/// The variable through which `bits`-wide elements of a storage buffer are reached: the
/// descriptor's own for 32 bits, otherwise a view made once per descriptor variable.
uint32_t viewVariable(Translator &t, const Handle &h, uint32_t bits,
                      std::map<std::pair<uint32_t, uint32_t>, uint32_t> &views) {
  if (bits == 32 || !h.descriptor)
    return h.variable;
  if (h.descriptor->isAddress()) { // the address as a pointer to `bits`-wide elements, where it is
    if (bits == 8)
      t.capability(Capability::StorageBuffer8BitAccess);
    if (bits == 16)
      t.capability(Capability::StorageBuffer16BitAccess);
    return t.emit(Op::Bitcast,
                  t.typePointer(StorageClass::PhysicalStorageBuffer, t.storageBlockType(bits)),
                  {h.variable});
  }
  auto [it, inserted] = views.emplace(std::pair{h.variable, bits}, 0);
  if (!inserted)
    return it->second;
  const Descriptor &d = *h.descriptor;
  if (bits == 8)
    t.capability(Capability::StorageBuffer8BitAccess);
  if (bits == 16)
    t.capability(Capability::StorageBuffer16BitAccess);
  uint32_t pointee = t.storageBlockType(bits);
  if (d.isArray)
    pointee = d.arraySize ? t.typeArray(pointee, d.arraySize)
                          : t.typeUniqued(Op::TypeRuntimeArray, {pointee});
  const std::string name = h.resource && !h.resource->name.empty()
                               ? h.resource->name + (bits == 8    ? ".u8"
                                                     : bits == 16 ? ".u16"
                                                                  : ".u64")
                               : std::string();
  const uint32_t view = t.descriptorVariable(pointee, StorageClass::StorageBuffer, d, name);
  it->second = view;
  return view;
}

/// The UniformConstant pointer to a texel-buffer handle's image (its array element).
uint32_t imagePointer(Translator &t, const Handle &h) {
  if (!h.arrayIndex)
    return h.variable;
  const uint32_t ptr = t.emit(
      Op::AccessChain, t.typePointer(StorageClass::UniformConstant, h.descriptor->elementType),
      {h.variable, h.arrayIndex});
  if (h.nonUniform)
    t.decorate(ptr, Decoration::NonUniform);
  return ptr;
}

/// The R32ui texel of word `wordIndex`, for atomics.
uint32_t texelPointer(Translator &t, const Handle &h, uint32_t wordIndex) {
  const uint32_t ptr =
      t.emit(Op::ImageTexelPointer, t.typePointer(StorageClass::Image, t.typeInt(32)),
             {imagePointer(t, h), wordIndex, t.constU32(0)});
  if (h.nonUniform)
    t.decorate(ptr, Decoration::NonUniform);
  return ptr;
}

} // namespace

uint32_t Translator::loadDescriptorImage(const Handle &h) {
  if (!h.descriptor)
    return fail("a handle without a descriptor");
  const uint32_t image = emit(Op::Load, h.descriptor->elementType, {imagePointer(*this, h)});
  if (h.nonUniform)
    decorate(image, Decoration::NonUniform);
  return image;
}

uint32_t Translator::bufferElementPointer(const Handle &h, uint32_t bits, uint32_t index) {
  std::vector<uint32_t> chain{viewVariable(*this, h, bits, bufferViews_)};
  if (h.arrayIndex)
    chain.push_back(h.arrayIndex);
  chain.push_back(constU32(0));
  chain.push_back(index);
  const uint32_t ptr = emit(Op::AccessChain, typePointer(blockStorage(h), typeInt(bits)), chain);
  if (h.nonUniform)
    decorate(ptr, Decoration::NonUniform);
  return ptr;
}

StorageClass Translator::blockStorage(const Handle &h) const {
  return h.descriptor ? h.descriptor->storage : StorageClass::StorageBuffer;
}

uint32_t Translator::loadThrough(const Handle &h, uint32_t type, uint32_t pointer,
                                 uint32_t alignment) {
  if (!h.descriptor || !h.descriptor->isAddress())
    return emit(Op::Load, type, {pointer});
  return emit(Op::Load, type, {pointer, uint32_t(grammar::MemoryAccess::Aligned), alignment});
}

void Translator::storeThrough(const Handle &h, uint32_t pointer, uint32_t value,
                              uint32_t alignment) {
  if (!h.descriptor || !h.descriptor->isAddress())
    emitVoid(Op::Store, {pointer, value});
  else
    emitVoid(Op::Store, {pointer, value, uint32_t(grammar::MemoryAccess::Aligned), alignment});
}

uint32_t Translator::loadBufferWord(const Handle &h, uint32_t wordIndex) {
  const uint32_t u32 = typeInt(32);
  if (!isTexelBuffer(h))
    return loadThrough(h, u32, bufferElementPointer(h, 32, wordIndex), 4);
  const uint32_t image = loadDescriptorImage(h);
  const Op read = h.resourceClass == dxil::ResourceClass::UAV ? Op::ImageRead : Op::ImageFetch;
  const uint32_t texel = emit(read, typeVector(u32, 4), {image, wordIndex});
  return emit(Op::CompositeExtract, u32, {texel, 0});
}

void Translator::storeBufferWord(const Handle &h, uint32_t wordIndex, uint32_t value) {
  if (!isTexelBuffer(h)) {
    storeThrough(h, bufferElementPointer(h, 32, wordIndex), value, 4);
    return;
  }
  const uint32_t image = loadDescriptorImage(h);
  const uint32_t zero = constU32(0);
  emitVoid(Op::ImageWrite,
           {image, wordIndex,
            emit(Op::CompositeConstruct, typeVector(typeInt(32), 4), {value, zero, zero, zero})});
}

void Translator::storeBufferHalf(const Handle &h, uint32_t byteAddress, uint32_t value) {
  const uint32_t u32 = typeInt(32);
  if (!isTexelBuffer(h)) {
    const uint32_t index = emit(Op::ShiftRightLogical, u32, {byteAddress, constU32(1)});
    storeThrough(h, bufferElementPointer(h, 16, index), value, 2);
    return;
  }
  // An R32ui texel holds two halves: clear this one and set it with two atomics, which leave
  // the other half alone.
  const uint32_t word = emit(Op::ShiftRightLogical, u32, {byteAddress, constU32(2)});
  const uint32_t shift = emit(Op::ShiftLeftLogical, u32,
                              {emit(Op::BitwiseAnd, u32, {byteAddress, constU32(2)}), constU32(3)});
  const uint32_t keep =
      emit(Op::Not, u32, {emit(Op::ShiftLeftLogical, u32, {constU32(0xFFFF), shift})});
  const uint32_t bits = emit(Op::ShiftLeftLogical, u32, {emit(Op::UConvert, u32, {value}), shift});
  const uint32_t scope = constU32(uint32_t(grammar::Scope::Device)), semantics = constU32(0);
  const uint32_t ptr = texelPointer(*this, h, word);
  emit(Op::AtomicAnd, u32, {ptr, scope, semantics, keep});
  emit(Op::AtomicOr, u32, {ptr, scope, semantics, bits});
}

uint32_t Translator::bufferAtomicPointer(const Handle &h, uint32_t bits, uint32_t byteAddress) {
  const uint32_t u32 = typeInt(32);
  if (bits == 64) {
    if (isTexelBuffer(h))
      return fail("unsupported: 64-bit atomics on a raw buffer bound as an R32ui texel buffer");
    capability(Capability::Int64Atomics);
    return bufferElementPointer(h, 64,
                                emit(Op::ShiftRightLogical, u32, {byteAddress, constU32(3)}));
  }
  if (bits != 32)
    return fail("an atomic on " + std::to_string(bits) + "-bit values");
  const uint32_t word = emit(Op::ShiftRightLogical, u32, {byteAddress, constU32(2)});
  return isTexelBuffer(h) ? texelPointer(*this, h, word) : bufferElementPointer(h, 32, word);
}

uint32_t Translator::bufferByteSize(const Handle &h) {
  const uint32_t u32 = typeInt(32);
  uint32_t words = 0;
  if (isTexelBuffer(h)) {
    capability(Capability::ImageQuery);
    words = emit(Op::ImageQuerySize, u32, {loadDescriptorImage(h)});
  } else if (h.descriptor && h.descriptor->isAddress()) {
    return fail("unsupported: GetDimensions of a buffer that is a root descriptor, which has no "
                "size");
  } else {
    uint32_t block = h.variable;
    if (h.arrayIndex) {
      block =
          emit(Op::AccessChain, typePointer(StorageClass::StorageBuffer, h.descriptor->elementType),
               {h.variable, h.arrayIndex});
      if (h.nonUniform)
        decorate(block, Decoration::NonUniform);
    }
    words = emit(Op::ArrayLength, u32, {block, 0});
  }
  return emit(Op::ShiftLeftLogical, u32, {words, constU32(2)});
}

} // namespace spire::translate
