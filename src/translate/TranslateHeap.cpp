// SM 6.6 descriptor heaps: CreateHandleFromHeap names an index into ResourceDescriptorHeap or
// SamplerDescriptorHeap, and the AnnotateHandle that follows says what the descriptor is
// (%dx.types.ResourceProperties). Each descriptor type a program uses is a runtime descriptor
// array at the binding model's heap binding for that type; the handle indexes it. Also: which
// resources (bound or in a heap) atomics use, traced back from their handles, for the image
// formats their texel pointers need.
#include "Translator.h"

#include <algorithm>

namespace spire::translate {

using dxil::DxOp;
using dxil::ResourceClass;
using dxil::ResourceKind;

namespace {

/// %dx.types.ResourceProperties decoded. Word 0: the resource kind (bits 0-7), UAV (bit 12),
/// rasterizer ordered (13), globally coherent (14), comparison sampler or UAV counter (15).
/// Word 1: the structure stride, the constant buffer's size, or for typed resources the
/// component type (bits 0-7) and sample count (bits 16-23).
bool decodeProperties(uint32_t w0, uint32_t w1, bool samplerHeap, dxil::DxilResource &r,
                      std::string &error) {
  const uint32_t kind = w0 & 0xFF;
  if (kind == 0 || kind > uint32_t(ResourceKind::FeedbackTexture2DArray)) {
    error = "annotateHandle of resource kind " + std::to_string(kind);
    return false;
  }
  r.kind = ResourceKind(kind);
  r.name = samplerHeap ? "SamplerDescriptorHeap" : "ResourceDescriptorHeap";
  r.rangeSize = 0xFFFFFFFFu;
  const bool flag15 = w0 >> 15 & 1;
  if ((r.kind == ResourceKind::Sampler) != samplerHeap) {
    error = samplerHeap ? "a sampler heap handle annotated as a resource"
                        : "a resource heap handle annotated as a sampler";
    return false;
  }
  if (r.kind == ResourceKind::Sampler) {
    r.resourceClass = ResourceClass::Sampler;
    r.samplerKind = flag15 ? dxil::SamplerKind::Comparison : dxil::SamplerKind::Default;
    return true;
  }
  if (r.kind == ResourceKind::CBuffer) {
    r.resourceClass = ResourceClass::CBuffer;
    r.cbufferSize = w1;
    return true;
  }
  const bool uav = w0 >> 12 & 1;
  r.resourceClass = uav ? ResourceClass::UAV : ResourceClass::SRV;
  r.rasterizerOrdered = uav && (w0 >> 13 & 1);
  r.globallyCoherent = uav && (w0 >> 14 & 1);
  r.hasCounter = uav && flag15;
  if (r.kind == ResourceKind::StructuredBuffer) {
    r.stride = w1;
  } else if (r.kind != ResourceKind::RawBuffer && r.kind != ResourceKind::RTAccelerationStructure &&
             r.kind != ResourceKind::TBuffer) {
    r.elementType = dxil::DxilComponentType(w1 & 0xFF);
    r.sampleCount = w1 >> 16 & 0xFF;
  }
  return true;
}

bool isTextureKind(ResourceKind k) {
  return k >= ResourceKind::Texture1D && k <= ResourceKind::TextureCubeArray;
}

/// The integers of a constant struct (zeroinitializer: zeros); false when it is no constant
/// of at least `out.size()` integers.
bool constantInts(const dxil::LlvmModule &m, dxil::ValueId v, std::span<int64_t> out) {
  const dxil::Constant *c = v < m.values.size() ? m.constant(v) : nullptr;
  if (!c)
    return false;
  std::fill(out.begin(), out.end(), 0);
  if (c->kind == dxil::ConstantKind::Null)
    return true;
  if (c->kind != dxil::ConstantKind::Aggregate)
    return false;
  auto parts = m.operandsOf(*c);
  for (size_t i = 0; i < out.size(); ++i)
    if (i >= parts.size() || !m.constantInt(parts[i], out[i]))
      return false;
  return true;
}

} // namespace

Translator::HandleOrigin Translator::handleOrigin(dxil::ValueId v) const {
  HandleOrigin origin;
  int64_t props[2] = {0, 0};
  bool annotated = false;
  for (int depth = 0; depth < 8 && v < llvm().values.size(); ++depth) {
    const dxil::Value &val = llvm().values[v];
    const dxil::DxilOpCall *maker =
        val.kind == dxil::ValueKind::Instruction ? dx_.opCallAt(val.index) : nullptr;
    if (!maker)
      break;
    auto a = dx_.opArguments(*maker);
    const DxOp makerOp = DxOp(maker->op->opcode);
    int64_t fields[4] = {0, 0, 0, 0};
    if (makerOp == DxOp::AnnotateHandle && a.size() >= 2) {
      annotated = constantInts(llvm(), a[1], props);
      v = a[0];
      continue;
    }
    if (makerOp == DxOp::CreateHandleFromHeap && annotated) {
      origin.heapProperties = {uint32_t(props[0]), uint32_t(props[1])};
    } else if (makerOp == DxOp::CreateHandle && a.size() >= 2 && constantInt(a[0], fields[0]) &&
               constantInt(a[1], fields[1])) {
      origin.resource = {uint32_t(fields[0]), uint32_t(fields[1])};
    } else if (makerOp == DxOp::CreateHandleFromBinding && !a.empty() &&
               constantInts(llvm(), a[0], fields) && fields[3] >= 0 && fields[3] <= 3) {
      // %dx.types.ResBind {lower bound, upper bound, space, class}
      for (const dxil::ResourceLists *lists : {&dx_.resources, &entry_.resources})
        for (const dxil::DxilResource &r : lists->list(ResourceClass(fields[3])))
          if (r.space == uint32_t(fields[2]) && r.lowerBound == uint32_t(fields[0]))
            origin.resource = {uint32_t(fields[3]), r.id};
    }
    break;
  }
  return origin;
}

void Translator::findResourceUses() {
  for (const dxil::DxilOpCall &call : dx_.opCalls) {
    const DxOp op = DxOp(call.op->opcode);
    if (op == DxOp::TextureLoad || op == DxOp::BufferLoad) {
      if (!options_.typedUavReadsR32)
        continue; // what is read matters to the R32 formats alone
      auto args = dx_.opArguments(call);
      const HandleOrigin origin = handleOrigin(args.empty() ? dxil::kNoId : args[0]);
      if (origin.heapProperties)
        readHeapProperties_.insert(*origin.heapProperties);
      if (origin.resource)
        readResources_.insert(*origin.resource);
      continue;
    }
    if (op != DxOp::AtomicBinOp && op != DxOp::AtomicCompareExchange)
      continue;
    auto args = dx_.opArguments(call);
    const HandleOrigin origin = handleOrigin(args.empty() ? dxil::kNoId : args[0]);
    if (origin.heapProperties)
      atomicHeapProperties_.insert(*origin.heapProperties);
    if (!origin.resource)
      continue;
    atomicResources_.insert(*origin.resource);
    const dxil::Instruction &inst = llvm().instructions[call.instruction];
    if (inst.type < llvm().types.size() &&
        llvm().types[inst.type].kind == dxil::TypeKind::Integer &&
        llvm().types[inst.type].bits == 64)
      storageBufferResources_.insert(*origin.resource);
  }
}

bool Translator::keptAsStorageBuffer(const dxil::DxilResource &r) const {
  return storageBufferResources_.count({uint32_t(r.resourceClass), r.id}) != 0;
}

bool Translator::singleComponent(const dxil::DxilResource &r) const {
  if (r.id & 0x80000000u) // a heap resource: its annotation's component count
    return !multiComponentHeapResources_.count(r.id);
  // The HLSL type: the class its symbol points to (arrays of it for a range), whose one member
  // is the element (`{ i32 }` for RWBuffer<uint>, `{ <4 x float> }` for RWTexture2D<float4>).
  const dxil::LlvmModule &m = llvm();
  const dxil::ValueId symbol = r.global != dxil::kNoId ? r.global : r.symbol;
  if (symbol == dxil::kNoId || symbol >= m.values.size())
    return false;
  dxil::TypeId t = m.typeOf(symbol);
  for (int depth = 0; depth < 8 && t < m.types.size(); ++depth) {
    const dxil::Type &type = m.type(t);
    if (type.kind == dxil::TypeKind::Pointer || type.kind == dxil::TypeKind::Array) {
      t = m.elementType(t);
      continue;
    }
    if (type.kind != dxil::TypeKind::Struct || m.elements(t).empty())
      return false;
    const dxil::TypeId member = m.elements(t)[0];
    return member < m.types.size() && m.type(member).kind != dxil::TypeKind::Struct &&
           (m.type(member).kind != dxil::TypeKind::Vector || m.type(member).count == 1);
  }
  return false;
}

grammar::ImageFormat Translator::storageFormat(const dxil::DxilResource &r) const {
  using grammar::ImageFormat;
  if (r.kind == ResourceKind::RawBuffer || r.kind == ResourceKind::StructuredBuffer)
    return ImageFormat::R32ui;
  const std::pair<uint32_t, uint32_t> key{uint32_t(r.resourceClass), r.id};
  // A typed UAV that is read has an R32 format in D3D unless the shader says it needs typed UAV
  // load additional formats (shader flag bit 13, which DXC sets for multi-component loads).
  constexpr uint64_t kTypedUavLoadAdditionalFormats = 1u << 13;
  const bool readAsR32 =
      options_.typedUavReadsR32 && readResources_.count(key) &&
      !(entry_.properties.shaderFlags.value_or(0) & kTypedUavLoadAdditionalFormats) &&
      singleComponent(r);
  const bool atomic = atomicResources_.count(key) != 0;
  if (!atomic && !readAsR32)
    return ImageFormat::Unknown; // read and written without a format
  switch (r.elementType.value_or(dxil::DxilComponentType::Invalid)) {
  case dxil::DxilComponentType::U32:
    return ImageFormat::R32ui;
  case dxil::DxilComponentType::I32:
    return ImageFormat::R32i;
  case dxil::DxilComponentType::F32:
    return ImageFormat::R32f;
  case dxil::DxilComponentType::U64:
    return atomic ? ImageFormat::R64ui : ImageFormat::Unknown;
  case dxil::DxilComponentType::I64:
    return atomic ? ImageFormat::R64i : ImageFormat::Unknown;
  default:
    return ImageFormat::Unknown;
  }
}

bool Translator::translateHeapOp(const dxil::DxilOpCall &call, const dxil::Instruction &inst,
                                 std::span<const dxil::ValueId> args, bool &handled) {
  const DxOp op = DxOp(call.op->opcode);
  handled = true;
  if (op == DxOp::CreateHandleFromHeap) {
    // (index, i1 samplerHeap, i1 nonUniform)
    int64_t sampler = 0, nonUniform = 0;
    if (args.size() < 3 || !constantInt(args[1], sampler) || !constantInt(args[2], nonUniform))
      return fail("createHandleFromHeap's heap and non-uniform operands must be constants");
    const uint32_t index = value(args[0]);
    if (failed())
      return false;
    heapHandles_[inst.value] = HeapHandle{index, sampler != 0, nonUniform != 0};
    return true;
  }
  if (op != DxOp::AnnotateHandle || args.size() < 2 || !heapHandles_.count(args[0])) {
    handled = false;
    return true;
  }
  const HeapHandle heap = heapHandles_.at(args[0]);
  // The properties: a constant { i32, i32 } (zeroinitializer: both 0).
  int64_t props[2] = {0, 0};
  if (!constantInts(llvm(), args[1], props))
    return fail("annotateHandle's resource properties must be two integer constants");
  const uint32_t words[2] = {uint32_t(props[0]), uint32_t(props[1])};

  // One synthesized resource per distinct annotation.
  const std::array<uint32_t, 3> key{heap.samplerHeap ? 1u : 0u, words[0], words[1]};
  auto [at, inserted] = heapResourceIndex_.emplace(key, uint32_t(heapResources_.size()));
  if (inserted) {
    dxil::DxilResource r;
    std::string error;
    if (!decodeProperties(words[0], words[1], heap.samplerHeap, r, error))
      return fail(error);
    r.id = 0x80000000u | uint32_t(heapResources_.size());
    if (atomicHeapProperties_.count({words[0], words[1]}))
      atomicResources_.insert({uint32_t(r.resourceClass), r.id});
    if (readHeapProperties_.count({words[0], words[1]}))
      readResources_.insert({uint32_t(r.resourceClass), r.id});
    if ((words[1] >> 8 & 0xFF) > 1) // typed resources: the component count
      multiComponentHeapResources_.insert(r.id);
    heapResources_.push_back(std::move(r));
  }
  Handle h = heapHandle(heapResources_[at->second], heap.index, heap.nonUniform);
  if (failed())
    return false;
  handles_[inst.value] = h;
  return true;
}

Handle Translator::heapHandle(const dxil::DxilResource &r, uint32_t heapIndex, bool nonUniform) {
  // The descriptor type, its array's element type and where it is bound.
  const BindingModel &model = options_.bindings;
  HeapSlot slot = HeapSlot::Sampler;
  uint32_t element = 0;
  StorageClass storage = StorageClass::UniformConstant;
  std::string_view descriptorType;
  Capability nonUniformCapability = Capability::Shader;
  const bool uav = r.resourceClass == ResourceClass::UAV;
  const bool rawOrStructured =
      r.kind == ResourceKind::RawBuffer || r.kind == ResourceKind::StructuredBuffer;
  if (r.resourceClass == ResourceClass::Sampler) {
    element = typeUniqued(Op::TypeSampler, {});
    descriptorType = "sampler";
    nonUniformCapability = Capability::SampledImageArrayNonUniformIndexing;
  } else if (r.resourceClass == ResourceClass::CBuffer) {
    slot = HeapSlot::UniformBuffer;
    element = uniformBlockType(4096); // the largest constant buffer D3D allows (64 KiB)
    storage = StorageClass::Uniform;
    descriptorType = "uniform-buffer";
    nonUniformCapability = Capability::UniformBufferArrayNonUniformIndexing;
  } else if (rawOrStructured && !model.rawBuffersAsTexelBuffers) {
    slot = HeapSlot::StorageBuffer;
    element = storageBlockType(32);
    storage = StorageClass::StorageBuffer;
    descriptorType = "storage-buffer";
    nonUniformCapability = Capability::StorageBufferArrayNonUniformIndexing;
  } else if (rawOrStructured || r.kind == ResourceKind::TypedBuffer) {
    slot = uav ? HeapSlot::StorageTexelBuffer : HeapSlot::UniformTexelBuffer;
    element = imageTypeOf(*this, r);
    descriptorType = uav ? "storage-texel-buffer" : "uniform-texel-buffer";
    capability(uav ? Capability::StorageTexelBufferArrayDynamicIndexing
                   : Capability::UniformTexelBufferArrayDynamicIndexing);
    nonUniformCapability = uav ? Capability::StorageTexelBufferArrayNonUniformIndexing
                               : Capability::UniformTexelBufferArrayNonUniformIndexing;
  } else if (isTextureKind(r.kind)) {
    slot = uav ? HeapSlot::StorageImage : HeapSlot::SampledImage;
    element = imageTypeOf(*this, r);
    descriptorType = uav ? "storage-image" : "sampled-image";
    nonUniformCapability = uav ? Capability::StorageImageArrayNonUniformIndexing
                               : Capability::SampledImageArrayNonUniformIndexing;
  } else if (r.kind == ResourceKind::RTAccelerationStructure) {
    slot = HeapSlot::AccelerationStructure;
    capability(Capability::RayQueryKHR);
    extension("SPV_KHR_ray_query");
    element = typeUniqued(Op::TypeAccelerationStructureKHR, {});
    descriptorType = "acceleration-structure";
  } else {
    fail(std::string("unsupported: a descriptor heap resource of kind ") +
         dxil::resourceKindName(r.kind));
    return {};
  }
  if (failed())
    return {};
  const uint32_t set = model.heapSet, binding = model.heapBinding + uint32_t(slot);

  // One variable per (binding, element type, class and coherence).
  const uint32_t flavour = uint32_t(r.resourceClass) | (r.globallyCoherent ? 0x100u : 0u);
  auto [v, fresh] = heapVariables_.emplace(std::array<uint32_t, 3>{binding, element, flavour}, 0);
  if (fresh) {
    capability(Capability::RuntimeDescriptorArray);
    Descriptor d;
    d.elementType = element;
    d.pointeeType = typeUniqued(Op::TypeRuntimeArray, {element});
    d.storage = storage;
    d.isArray = true;
    d.arraySize = 0;
    d.set = set;
    d.binding = binding;
    d.nonWritable = storage == StorageClass::StorageBuffer && !uav;
    d.coherent = r.globallyCoherent;
    d.variable = descriptorVariable(d.pointeeType, storage, d, r.name);
    auto sameBinding = [&](const DescriptorBinding &b) {
      return b.heap && b.set == set && b.binding == binding;
    };
    if (std::none_of(bindings_.begin(), bindings_.end(), sameBinding)) {
      DescriptorBinding b;
      b.resourceClass = r.resourceClass;
      b.kind = r.kind;
      b.name = r.name;
      b.rangeSize = 0xFFFFFFFFu;
      b.set = set;
      b.binding = binding;
      b.descriptorType = descriptorType;
      b.heap = true;
      bindings_.push_back(b);
    }
    v->second = d.variable;
    descriptors_[{uint32_t(r.resourceClass), 0x80000000u | d.variable}] = d;
  }
  Descriptor &d = descriptors_.at({uint32_t(r.resourceClass), 0x80000000u | v->second});
  if (r.hasCounter && !d.counter) {
    // The counters of heap UAVs: one array beside the heap, indexed as it is.
    if (!heapCounters_) {
      const uint32_t counterBinding = model.heapBinding + uint32_t(HeapSlot::Counter);
      heapCounters_ = globalVariable(typeUniqued(Op::TypeRuntimeArray, {storageBlockType(32)}),
                                     StorageClass::StorageBuffer);
      name(heapCounters_, "ResourceDescriptorHeap.counters");
      decorate(heapCounters_, Decoration::DescriptorSet, {set});
      decorate(heapCounters_, Decoration::Binding, {counterBinding});
      DescriptorBinding b;
      b.resourceClass = ResourceClass::UAV;
      b.kind = r.kind;
      b.name = r.name;
      b.rangeSize = 0xFFFFFFFFu;
      b.set = set;
      b.binding = counterBinding;
      b.descriptorType = "storage-buffer";
      b.counter = b.heap = true;
      bindings_.push_back(b);
    }
    d.counter = heapCounters_;
  }

  uint32_t index = heapIndex;
  if (nonUniform) {
    // The decorated index is an instruction of its own (the heap index may be a constant).
    if (nonUniformCapability != Capability::Shader)
      capability(nonUniformCapability);
    index = emit(Op::CopyObject, typeInt(32), {heapIndex});
  }
  return makeHandle(r, d, index, nonUniform);
}

} // namespace spire::translate
