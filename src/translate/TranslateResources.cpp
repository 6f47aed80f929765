// Resources: the binding model (D3D register space and register to Vulkan set and binding), one
// descriptor variable per resource range, handles, and the buffer operations (raw, structured
// and typed buffers, constant buffers, atomics, counters, dimensions).
#include "Translator.h"

#include "spire/support/JsonWriter.h"

#include <algorithm>

namespace spire::translate {

using dxil::DxOp;
using dxil::ResourceClass;
using dxil::ResourceKind;

namespace {

bool isRawOrStructured(ResourceKind k) {
  return k == ResourceKind::RawBuffer || k == ResourceKind::StructuredBuffer;
}
bool isTexture(ResourceKind k) {
  return k >= ResourceKind::Texture1D && k <= ResourceKind::TextureCubeArray;
}

uint32_t classOffset(const BindingModel &m, ResourceClass c) {
  switch (c) {
  case ResourceClass::SRV:
    return m.srvOffset;
  case ResourceClass::UAV:
    return m.uavOffset;
  case ResourceClass::CBuffer:
    return m.cbvOffset;
  default:
    return m.samplerOffset;
  }
}

} // namespace

/// The sampled type of a typed resource: float, signed or unsigned 32-bit int.
uint32_t sampledTypeOf(Translator &t, const dxil::DxilResource &r) {
  using CT = dxil::DxilComponentType;
  const CT ct = r.elementType.value_or(CT::F32);
  switch (ct) {
  case CT::I16:
  case CT::I32:
    return t.typeUniqued(Op::TypeInt, {32, 1});
  case CT::U16:
  case CT::U32:
  case CT::I1:
    return t.typeInt(32);
  case CT::I64:
    t.capability(Capability::Int64ImageEXT);
    t.extension("SPV_EXT_shader_image_int64");
    return t.typeUniqued(Op::TypeInt, {64, 1});
  case CT::U64:
    t.capability(Capability::Int64ImageEXT);
    t.extension("SPV_EXT_shader_image_int64");
    return t.typeInt(64);
  default:
    return t.typeFloat(32);
  }
}

/// The image type of a texture or typed buffer.
uint32_t imageTypeOf(Translator &t, const dxil::DxilResource &r) {
  using grammar::Dim;
  const bool storage = r.resourceClass == ResourceClass::UAV;
  Dim dim = Dim::Dim2D;
  uint32_t arrayed = 0, ms = 0;
  switch (r.kind) {
  case ResourceKind::Texture1D:
  case ResourceKind::Texture1DArray:
    dim = Dim::Dim1D;
    t.capability(storage ? Capability::Image1D : Capability::Sampled1D);
    break;
  case ResourceKind::Texture3D:
    dim = Dim::Dim3D;
    break;
  case ResourceKind::TextureCube:
  case ResourceKind::TextureCubeArray:
    dim = Dim::Cube;
    break;
  case ResourceKind::TypedBuffer:
  case ResourceKind::RawBuffer:
  case ResourceKind::StructuredBuffer:
  case ResourceKind::TBuffer:
    dim = Dim::Buffer;
    t.capability(storage ? Capability::ImageBuffer : Capability::SampledBuffer);
    break;
  default:
    break;
  }
  switch (r.kind) {
  case ResourceKind::Texture1DArray:
  case ResourceKind::Texture2DArray:
  case ResourceKind::Texture2DMSArray:
  case ResourceKind::TextureCubeArray:
    arrayed = 1;
    break;
  default:
    break;
  }
  if (r.kind == ResourceKind::Texture2DMS || r.kind == ResourceKind::Texture2DMSArray)
    ms = 1;
  if (r.kind == ResourceKind::TextureCubeArray)
    t.capability(storage ? Capability::ImageCubeArray : Capability::SampledCubeArray);
  if (ms && storage)
    t.capability(Capability::StorageImageMultisample);
  if (ms && arrayed && storage)
    t.capability(Capability::ImageMSArray);
  const grammar::ImageFormat format = storage ? t.storageFormat(r) : grammar::ImageFormat::Unknown;
  if (storage && format == grammar::ImageFormat::Unknown) {
    t.capability(Capability::StorageImageReadWithoutFormat);
    t.capability(Capability::StorageImageWriteWithoutFormat);
  }
  const bool rawAsTexel = isRawOrStructured(r.kind);
  const uint32_t sampled = rawAsTexel ? t.typeInt(32) : sampledTypeOf(t, r);
  return t.typeUniqued(
      Op::TypeImage, {sampled, uint32_t(dim), 0, arrayed, ms, storage ? 2u : 1u, uint32_t(format)});
}

namespace {

/// D3D12's limits: a root signature's arguments cost at most 64 DWORDs; a shader record is at
/// most 4096 bytes, 32 of them the shader identifier.
constexpr uint32_t kMaxRootArgumentBytes = 256, kMaxShaderRecordArguments = 4096 - 32;

/// A descriptor table's ranges into `model.heapTables`, its start at `offset` of `where`.
Status addTableRanges(const dxil::RootParameter &param, size_t index, uint32_t offset,
                      RootArguments where, BindingModel &model) {
  static const ResourceClass kRangeClass[4] = {ResourceClass::SRV, ResourceClass::UAV,
                                               ResourceClass::CBuffer, ResourceClass::Sampler};
  const std::string what = "root parameter " + std::to_string(index) + " (a descriptor table)";
  uint32_t next = 0; // where an appended range starts
  bool samplers = false, others = false;
  for (const dxil::DescriptorRange &r : param.ranges) {
    if (r.rangeType > 3)
      return makeError({}, what + ": a range of unknown type " + std::to_string(r.rangeType));
    (r.rangeType == 3 ? samplers : others) = true;
    HeapTableRange range;
    range.resourceClass = kRangeClass[r.rangeType];
    range.space = r.registerSpace;
    range.baseRegister = r.baseShaderRegister;
    range.count = r.numDescriptors;
    if (r.offsetInDescriptorsFromTableStart == 0xFFFFFFFFu) {
      if (next == 0xFFFFFFFFu)
        return makeError({}, what + ": a range appended after an unbounded one");
      range.offsetInTable = next;
    } else {
      range.offsetInTable = r.offsetInDescriptorsFromTableStart;
    }
    next = range.count == 0xFFFFFFFFu ? 0xFFFFFFFFu : range.offsetInTable + range.count;
    range.offset = offset;
    range.where = where;
    model.heapTables.push_back(range);
  }
  if (samplers && others)
    return makeError({}, what + " holds samplers and other descriptors, which D3D12 puts in "
                                "heaps of their own");
  return {};
}

ResourceClass rootDescriptorClass(dxil::RootParameterType type) {
  return type == dxil::RootParameterType::CBV   ? ResourceClass::CBuffer
         : type == dxil::RootParameterType::SRV ? ResourceClass::SRV
                                                : ResourceClass::UAV;
}

} // namespace

Status applyRootSignature(const dxil::RootSignature &signature, bool tablesInHeap,
                          BindingModel &model, bool descriptorsAsAddresses) {
  uint32_t offset = 0;
  for (size_t p = 0; p < signature.parameters.size(); ++p) {
    const dxil::RootParameter &param = signature.parameters[p];
    if (descriptorsAsAddresses &&
        (param.type == dxil::RootParameterType::CBV || param.type == dxil::RootParameterType::SRV ||
         param.type == dxil::RootParameterType::UAV)) {
      offset = (offset + 7) & ~7u;
      model.rootAddresses.push_back({rootDescriptorClass(param.type), param.registerSpace,
                                     param.shaderRegister, offset, RootArguments::PushConstants});
      offset += 8;
      if (offset > kMaxRootArgumentBytes)
        break;
      continue;
    }
    if (param.type == dxil::RootParameterType::Constants32Bit) {
      if (param.num32BitValues > kMaxRootArgumentBytes / 4)
        return makeError({}, "root parameter " + std::to_string(p) + " has " +
                                 std::to_string(param.num32BitValues) +
                                 " constants, more than D3D12's 64 DWORDs");
      model.rootConstants.push_back(
          {param.registerSpace, param.shaderRegister, param.num32BitValues, offset});
      offset += 4 * param.num32BitValues;
      if (offset > kMaxRootArgumentBytes)
        break;
      continue;
    }
    if (param.type != dxil::RootParameterType::DescriptorTable || !tablesInHeap)
      continue;
    if (Status s = addTableRanges(param, p, offset, RootArguments::PushConstants, model); !s)
      return s;
    offset += 4;
    if (offset > kMaxRootArgumentBytes)
      break;
  }
  if (offset > kMaxRootArgumentBytes)
    return makeError({}, "the root signature's constants and tables take more than D3D12's 64 "
                         "DWORDs");
  return {};
}

Status applyLocalRootSignature(const dxil::RootSignature &signature, BindingModel &model) {
  uint32_t offset = 0;
  for (size_t p = 0; p < signature.parameters.size(); ++p) {
    const dxil::RootParameter &param = signature.parameters[p];
    switch (param.type) {
    case dxil::RootParameterType::Constants32Bit:
      if (param.num32BitValues > kMaxShaderRecordArguments / 4)
        return makeError({}, "root parameter " + std::to_string(p) + " has " +
                                 std::to_string(param.num32BitValues) +
                                 " constants, more than a shader record holds");
      offset = (offset + 3) & ~3u;
      model.rootConstants.push_back({param.registerSpace, param.shaderRegister,
                                     param.num32BitValues, offset, RootArguments::ShaderRecord});
      offset += 4 * param.num32BitValues;
      break;
    case dxil::RootParameterType::DescriptorTable:
      offset = (offset + 7) & ~7u;
      if (Status s = addTableRanges(param, p, offset, RootArguments::ShaderRecord, model); !s)
        return s;
      offset += 8;
      break;
    case dxil::RootParameterType::CBV:
    case dxil::RootParameterType::SRV:
    case dxil::RootParameterType::UAV: {
      offset = (offset + 7) & ~7u;
      model.rootAddresses.push_back({rootDescriptorClass(param.type), param.registerSpace,
                                     param.shaderRegister, offset, RootArguments::ShaderRecord});
      offset += 8;
      break;
    }
    default:
      return makeError({}, "root parameter " + std::to_string(p) + " of unknown type " +
                               std::to_string(uint32_t(param.type)));
    }
    if (offset > kMaxShaderRecordArguments)
      return makeError({}, "the local root arguments take more than the " +
                               std::to_string(kMaxShaderRecordArguments) +
                               " bytes a shader record holds after its identifier");
  }
  return {};
}

void Translator::declareRootArguments(RootArguments where,
                                      const std::vector<RootArgument> &arguments) {
  // The members by offset (root constants' values, a table's start that several resources
  // share, a root descriptor's address), in offset order.
  const uint32_t u32 = typeInt(32);
  std::map<uint32_t, uint32_t> members; // offset -> member type
  for (const RootArgument &a : arguments) {
    if (a.where != where || members.count(a.offset))
      continue;
    if (a.descriptor->isAddress()) {
      capability(Capability::PhysicalStorageBufferAddresses);
      members[a.offset] =
          typePointer(StorageClass::PhysicalStorageBuffer, a.descriptor->pointeeType);
    } else {
      const uint32_t array = freshType(Op::TypeArray, {u32, constU32(a.values)});
      decorate(array, Decoration::ArrayStride, {4});
      members[a.offset] = array;
    }
  }
  if (members.empty())
    return;
  std::vector<uint32_t> types;
  for (const auto &[offset, type] : members)
    types.push_back(type);
  const uint32_t block = freshType(Op::TypeStruct, types);
  uint32_t m = 0;
  std::map<uint32_t, uint32_t> memberAt;
  for (const auto &[offset, type] : members) {
    memberDecorate(block, m, Decoration::Offset, {offset});
    memberAt[offset] = m++;
  }
  decorate(block, Decoration::Block);
  const bool push = where == RootArguments::PushConstants;
  const StorageClass sc = push ? StorageClass::PushConstant : StorageClass::ShaderRecordBufferKHR;
  const uint32_t variable = globalVariable(block, sc);
  name(variable, push ? "root_constants" : "shader_record");
  for (const RootArgument &a : arguments) {
    if (a.where != where)
      continue;
    Descriptor &d = *a.descriptor;
    d.variable = variable;
    d.argumentsIn = sc;
    d.argumentMember = memberAt.at(a.offset);
    d.argumentValues = a.values;
  }
}

uint32_t Translator::heapTableIndex(const Descriptor &d, uint32_t registerIndex) {
  const uint32_t u32 = typeInt(32);
  const uint32_t ptr = emit(Op::AccessChain, typePointer(d.argumentsIn, u32),
                            {d.variable, constU32(d.argumentMember), constU32(0)});
  const uint32_t start = emit(Op::Load, u32, {ptr});
  // start + offsetInTable + (register - baseRegister), in 32-bit arithmetic that wraps.
  const HeapTableRange &range = *d.table;
  const uint32_t inRange = emit(Op::ISub, u32, {registerIndex, constU32(range.baseRegister)});
  return emit(Op::IAdd, u32,
              {start, emit(Op::IAdd, u32, {constU32(range.offsetInTable), inRange})});
}

uint32_t Translator::rootConstantValue(const Handle &h, uint32_t index, int64_t constIndex) {
  const uint32_t u32 = typeInt(32);
  const uint32_t last = h.descriptor->argumentValues - 1;
  if (constIndex >= 0 && uint64_t(constIndex) > last)
    return undef(u32);
  const uint32_t at =
      constIndex >= 0 ? constU32(uint32_t(constIndex)) : glsl("UMin", u32, {index, constU32(last)});
  const uint32_t ptr = emit(Op::AccessChain, typePointer(h.descriptor->argumentsIn, u32),
                            {h.variable, constU32(h.descriptor->argumentMember), at});
  return emit(Op::Load, u32, {ptr});
}

uint32_t Translator::rootAddress(const Descriptor &d) {
  const uint32_t type = typePointer(StorageClass::PhysicalStorageBuffer, d.pointeeType);
  const uint32_t ptr = emit(Op::AccessChain, typePointer(d.argumentsIn, type),
                            {d.variable, constU32(d.argumentMember)});
  return emit(Op::Load, type, {ptr});
}

namespace {

/// A resource that is root arguments, not a descriptor: where they are, `size` bytes from
/// `offset` into the push constant block or shader record.
void inRootArguments(DescriptorBinding &binding, std::string_view type, uint32_t offset,
                     uint32_t size) {
  binding.set = binding.binding = 0;
  binding.descriptorType = type;
  binding.argumentOffset = offset;
  binding.argumentSize = size;
}

} // namespace

void Translator::declareResources() {
  findAgsHandles();
  findResourceUses();
  std::vector<RootArgument> arguments;
  const dxil::ResourceLists *lists[2] = {&dx_.resources, &entry_.resources};
  for (const dxil::ResourceLists *lists2 : lists) {
    for (ResourceClass rc :
         {ResourceClass::SRV, ResourceClass::UAV, ResourceClass::CBuffer, ResourceClass::Sampler}) {
      for (const dxil::DxilResource &r : lists2->list(rc)) {
        const auto key = std::pair{uint32_t(rc), r.id};
        if (descriptors_.count(key) ||
            (rc == ResourceClass::UAV && r.space == kAgsRegisterSpace)) // TranslateAgs.cpp
          continue;
        Descriptor d;
        DescriptorBinding binding;
        binding.resourceClass = rc;
        binding.kind = r.kind;
        binding.name = r.name;
        binding.space = r.space;
        binding.lowerBound = r.lowerBound;
        binding.rangeSize = r.rangeSize;
        binding.set = r.space;
        binding.binding = r.lowerBound + classOffset(options_.bindings, rc);
        const auto root =
            rc != ResourceClass::CBuffer
                ? options_.bindings.rootConstants.end()
                : std::find_if(options_.bindings.rootConstants.begin(),
                               options_.bindings.rootConstants.end(), [&](const RootConstants &c) {
                                 return c.space == r.space && c.shaderRegister >= r.lowerBound &&
                                        c.shaderRegister - r.lowerBound < r.rangeSize;
                               });
        if (root != options_.bindings.rootConstants.end()) {
          if (r.rangeSize != 1 || root->num32BitValues == 0) {
            fail("unsupported: constant buffer '" + r.name + "' (b" + std::to_string(r.lowerBound) +
                 ", space " + std::to_string(r.space) + ") " +
                 (r.rangeSize != 1 ? "is an array that holds root constants"
                                   : "is root constants of no value"));
            return;
          }
          const bool push = root->where == RootArguments::PushConstants;
          d.storage = push ? StorageClass::PushConstant : StorageClass::ShaderRecordBufferKHR;
          inRootArguments(binding, push ? "push-constant" : "shader-record-constants", root->offset,
                          4 * root->num32BitValues);
          bindings_.push_back(binding);
          auto [at, added] = descriptors_.emplace(key, d);
          arguments.push_back({root->where, root->offset, root->num32BitValues, &at->second});
          continue;
        }
        // A root descriptor of a local root signature: a buffer device address.
        const auto address = std::find_if(options_.bindings.rootAddresses.begin(),
                                          options_.bindings.rootAddresses.end(),
                                          [&](const RootDescriptorAddress &a) {
                                            return a.resourceClass == rc && a.space == r.space &&
                                                   a.shaderRegister >= r.lowerBound &&
                                                   a.shaderRegister - r.lowerBound < r.rangeSize;
                                          });
        if (address != options_.bindings.rootAddresses.end()) {
          const std::string what =
              "resource '" + r.name + "' (a root descriptor read through its address)";
          if (r.rangeSize != 1) {
            fail("unsupported: " + what + " is an array");
            return;
          }
          if (rc == ResourceClass::CBuffer) {
            d.pointeeType = uniformBlockType(r.cbufferSize ? (r.cbufferSize + 15) / 16 : 4096);
          } else if (isRawOrStructured(r.kind)) {
            d.pointeeType = storageBlockType(32);
          } else {
            fail("unsupported: " + what + " is a " + dxil::resourceKindName(r.kind) +
                 "; a root descriptor is a constant, raw or structured buffer");
            return;
          }
          d.elementType = d.pointeeType;
          d.storage = StorageClass::PhysicalStorageBuffer;
          inRootArguments(binding,
                          address->where == RootArguments::PushConstants ? "push-constant-address"
                                                                         : "shader-record-address",
                          address->offset, 8);
          bindings_.push_back(binding);
          auto [at, added] = descriptors_.emplace(key, d);
          arguments.push_back({address->where, address->offset, 1, &at->second});
          continue;
        }
        // In a descriptor table read from the heap: all its registers in one range.
        const HeapTableRange *table = nullptr;
        for (const HeapTableRange &t : options_.bindings.heapTables) {
          if (t.resourceClass != rc || t.space != r.space)
            continue;
          const uint64_t end =
              t.count == 0xFFFFFFFFu ? UINT64_MAX : uint64_t(t.baseRegister) + t.count;
          const uint64_t last = r.rangeSize == 0xFFFFFFFFu || r.rangeSize == 0
                                    ? UINT64_MAX - 1
                                    : uint64_t(r.lowerBound) + r.rangeSize - 1;
          if (r.lowerBound >= t.baseRegister && last < end) {
            table = &t;
            break;
          }
          if (r.lowerBound < end && last >= t.baseRegister) {
            fail("unsupported: resource '" + r.name +
                 "' lies partly in a descriptor table's range");
            return;
          }
        }
        if (table) {
          d.table = table;
          const bool push = table->where == RootArguments::PushConstants;
          inRootArguments(binding, push ? "heap-table" : "shader-record-heap-table", table->offset,
                          push ? 4 : 8);
          binding.tableOffset = table->offsetInTable + (r.lowerBound - table->baseRegister);
          bindings_.push_back(binding);
          auto [at, added] = descriptors_.emplace(key, d);
          arguments.push_back({table->where, table->offset, 1, &at->second});
          continue;
        }
        if (rc == ResourceClass::CBuffer) {
          d.elementType = uniformBlockType(r.cbufferSize ? (r.cbufferSize + 15) / 16 : 4096);
          d.storage = StorageClass::Uniform;
          binding.descriptorType = "uniform-buffer";
        } else if (rc == ResourceClass::Sampler) {
          d.elementType = typeUniqued(Op::TypeSampler, {});
          binding.descriptorType = "sampler";
        } else if (isRawOrStructured(r.kind) &&
                   (!options_.bindings.rawBuffersAsTexelBuffers || keptAsStorageBuffer(r))) {
          d.elementType = storageBlockType(32);
          d.storage = StorageClass::StorageBuffer;
          binding.descriptorType = "storage-buffer";
        } else if (isTexture(r.kind) || r.kind == ResourceKind::TypedBuffer ||
                   isRawOrStructured(r.kind)) {
          d.elementType = imageTypeOf(*this, r);
          const bool buffer = !isTexture(r.kind);
          binding.descriptorType = rc == ResourceClass::UAV
                                       ? (buffer ? "storage-texel-buffer" : "storage-image")
                                       : (buffer ? "uniform-texel-buffer" : "sampled-image");
        } else if (r.kind == ResourceKind::RTAccelerationStructure) {
          capability(Capability::RayQueryKHR);
          extension("SPV_KHR_ray_query");
          d.elementType = typeUniqued(Op::TypeAccelerationStructureKHR, {});
          binding.descriptorType = "acceleration-structure";
        } else {
          fail(std::string("unsupported: resource '") + r.name + "' of kind " +
               dxil::resourceKindName(r.kind));
          return;
        }
        d.pointeeType = d.elementType;
        // An array of descriptors: the counters of a UAV array are an array of the same size.
        auto arrayOf = [&](uint32_t element) {
          if (r.rangeSize == 1)
            return element;
          if (r.rangeSize == 0xFFFFFFFFu || r.rangeSize == 0) {
            capability(Capability::RuntimeDescriptorArray);
            return typeUniqued(Op::TypeRuntimeArray, {element});
          }
          return typeArray(element, r.rangeSize);
        };
        if (r.rangeSize != 1) {
          d.isArray = true;
          d.arraySize = r.rangeSize == 0xFFFFFFFFu ? 0 : r.rangeSize;
          d.pointeeType = arrayOf(d.elementType);
        }
        d.set = binding.set;
        d.binding = binding.binding;
        d.nonWritable = d.storage == StorageClass::StorageBuffer && rc == ResourceClass::SRV;
        d.coherent = rc == ResourceClass::UAV && r.globallyCoherent;
        d.variable = descriptorVariable(d.pointeeType, d.storage, d, r.name);
        bindings_.push_back(binding);
        if (rc == ResourceClass::UAV && r.hasCounter) {
          d.counter = globalVariable(arrayOf(storageBlockType(32)), StorageClass::StorageBuffer);
          name(d.counter, r.name.empty() ? "counter" : r.name + ".counter");
          DescriptorBinding cb = binding;
          cb.set = options_.bindings.counterSet;
          cb.counter = true;
          cb.descriptorType = "storage-buffer";
          decorate(d.counter, Decoration::DescriptorSet, {cb.set});
          decorate(d.counter, Decoration::Binding, {cb.binding});
          bindings_.push_back(cb);
        }
        descriptors_[key] = d;
        if (failed_)
          return;
      }
    }
  }
  declareRootArguments(RootArguments::PushConstants, arguments);
  declareRootArguments(RootArguments::ShaderRecord, arguments);
}

// ---- handles --------------------------------------------------------------------------------

const Handle *Translator::handle(dxil::ValueId v) {
  auto it = handles_.find(v);
  if (it == handles_.end()) {
    fail("a resource handle that does not come straight from a createHandle call (through a "
         "phi, a select or a function argument)");
    return nullptr;
  }
  return &it->second;
}

namespace {

/// The handle of resource range `r` at register `registerIndex` (an id of an i32 value).
Handle rangeHandle(Translator &t, const dxil::DxilResource &r, const Descriptor &d,
                   uint32_t registerIndex, bool nonUniform) {
  if (d.table)
    return t.heapHandle(r, t.heapTableIndex(d, registerIndex), nonUniform);
  if (d.isAddress()) { // the pointer loaded from the shader record where the handle is made
    Handle h = t.makeHandle(r, d, 0, false);
    h.variable = t.rootAddress(d);
    return h;
  }
  const uint32_t index =
      d.isArray ? t.emit(Op::ISub, t.typeInt(32), {registerIndex, t.constU32(r.lowerBound)}) : 0;
  return t.makeHandle(r, d, index, nonUniform && index);
}

} // namespace

Handle Translator::makeHandle(const dxil::DxilResource &r, const Descriptor &d, uint32_t index,
                              bool nonUniform) {
  Handle h;
  h.resource = &r;
  h.descriptor = &d;
  h.variable = d.variable;
  h.arrayIndex = index;
  h.resourceClass = r.resourceClass;
  h.kind = r.kind;
  h.stride = r.stride.value_or(4);
  h.counter = r.hasCounter ? d.counter : 0;
  h.nonUniform = nonUniform;
  if (nonUniform) {
    capability(Capability::ShaderNonUniform);
    decorate(index, Decoration::NonUniform);
  }
  return h;
}

bool Translator::translateResourceOp(const dxil::DxilOpCall &call, const dxil::Instruction &inst,
                                     std::span<const dxil::ValueId> args, bool &handled) {
  const DxOp op = DxOp(call.op->opcode);
  handled = true;
  auto arg = [&](size_t i) { return opArgument(call, args, i); };
  auto constArg = [&](size_t i, int64_t &out) { return opConstant(call, args, i, out); };
  const uint32_t u32 = typeInt(32);
  switch (op) {
  case DxOp::CreateHandle: {
    int64_t rc = 0, range = 0, nonUniform = 0;
    if (!constArg(0, rc) || !constArg(1, range))
      return false;
    if (rc < 0 || rc > 3)
      return fail("createHandle of resource class " + std::to_string(rc));
    constantInt(args.size() > 3 ? args[3] : dxil::kNoId, nonUniform);
    auto it = descriptors_.find({uint32_t(rc), uint32_t(range)});
    const dxil::DxilResource *r = dx_.resources.find(ResourceClass(rc), uint32_t(range));
    if (!r)
      r = entry_.resources.find(ResourceClass(rc), uint32_t(range));
    if (it == descriptors_.end() || !r)
      return fail("createHandle names no resource (class " + std::to_string(rc) + ", range " +
                  std::to_string(range) + ")");
    handles_[inst.value] = rangeHandle(*this, *r, it->second, arg(2), nonUniform != 0);
    return !failed_;
  }
  case DxOp::CreateHandleFromBinding: {
    // %dx.types.ResBind {lower bound, upper bound, space, class}
    int64_t fields[4] = {0, 0, 0, 0}, nonUniform = 0;
    const dxil::Constant *bind = args.empty() ? nullptr : llvm().constant(args[0]);
    if (!bind)
      return fail("createHandleFromBinding's binding must be a constant");
    if (bind->kind == dxil::ConstantKind::Aggregate) {
      auto parts = llvm().operandsOf(*bind);
      for (size_t i = 0; i < 4 && i < parts.size(); ++i)
        if (!constantInt(parts[i], fields[i]))
          return fail("createHandleFromBinding's binding must be a constant");
    } else if (bind->kind != dxil::ConstantKind::Null) {
      return fail("createHandleFromBinding's binding must be a constant");
    }
    constantInt(args.size() > 2 ? args[2] : dxil::kNoId, nonUniform);
    if (fields[3] < 0 || fields[3] > 3)
      return fail("createHandleFromBinding of resource class " + std::to_string(fields[3]));
    const ResourceClass rc = ResourceClass(fields[3]);
    const dxil::DxilResource *found = nullptr;
    for (const dxil::ResourceLists *lists : {&dx_.resources, &entry_.resources})
      for (const dxil::DxilResource &r : lists->list(rc))
        if (r.space == uint32_t(fields[2]) && r.lowerBound == uint32_t(fields[0]) && !found)
          found = &r;
    if (!found)
      return fail("createHandleFromBinding names no resource (space " + std::to_string(fields[2]) +
                  ", register " + std::to_string(fields[0]) + ")");
    auto d = descriptors_.find({uint32_t(rc), found->id});
    if (d == descriptors_.end())
      return fail("createHandleFromBinding names no resource");
    handles_[inst.value] = rangeHandle(*this, *found, d->second, arg(1), nonUniform != 0);
    return !failed_;
  }
  case DxOp::AnnotateHandle: {
    const Handle *h = args.empty() ? nullptr : handle(args[0]);
    if (!h)
      return false;
    handles_[inst.value] = *h;
    return true;
  }
  case DxOp::CreateHandleForLib: {
    // The operand is a load of the resource's global symbol.
    if (args.empty())
      return fail("createHandleForLib without an operand");
    const dxil::Value &v = llvm().values[args[0]];
    if (v.kind != dxil::ValueKind::Instruction ||
        llvm().instructions[v.index].opcode != dxil::Opcode::Load)
      return fail("createHandleForLib of something other than a load of a resource symbol");
    const dxil::ValueId global = llvm().operandsOf(llvm().instructions[v.index])[0];
    for (const dxil::ResourceLists *lists : {&dx_.resources, &entry_.resources})
      for (ResourceClass rc :
           {ResourceClass::SRV, ResourceClass::UAV, ResourceClass::CBuffer, ResourceClass::Sampler})
        for (const dxil::DxilResource &r : lists->list(rc))
          if (r.global == global || r.symbol == global) {
            auto d = descriptors_.find({uint32_t(rc), r.id});
            if (d == descriptors_.end())
              return fail("createHandleForLib of an undeclared resource");
            if (d->second.isArray)
              return fail("createHandleForLib of a resource array is not translated yet");
            handles_[inst.value] = rangeHandle(*this, r, d->second, constU32(r.lowerBound), false);
            return true;
          }
    return fail("createHandleForLib of a symbol that is no resource");
  }
  case DxOp::CBufferLoadLegacy: {
    const Handle *h = handle(args[0]);
    if (!h)
      return false;
    std::vector<uint32_t> words;
    if (isRootConstants(*h)) {
      // Root constants: the row's four values, each on its own.
      int64_t row = -1;
      const bool constantRow = args.size() > 1 && constantInt(args[1], row) && row >= 0;
      const uint32_t first = constantRow ? 0 : emit(Op::IMul, u32, {arg(1), constU32(4)});
      for (uint32_t i = 0; i < 4; ++i)
        words.push_back(
            rootConstantValue(*h, constantRow ? 0 : emit(Op::IAdd, u32, {first, constU32(i)}),
                              constantRow ? 4 * row + i : -1));
    } else {
      const uint32_t uvec4 = typeVector(u32, 4);
      std::vector<uint32_t> chain{h->variable};
      if (h->arrayIndex)
        chain.push_back(h->arrayIndex);
      chain.push_back(constU32(0));
      chain.push_back(arg(1));
      const uint32_t ptr = emit(Op::AccessChain, typePointer(blockStorage(*h), uvec4), chain);
      if (h->nonUniform)
        decorate(ptr, Decoration::NonUniform);
      const uint32_t row = loadThrough(*h, uvec4, ptr, 16);
      for (uint32_t i = 0; i < 4; ++i)
        words.push_back(emit(Op::CompositeExtract, u32, {row, i}));
    }
    const uint32_t member = memberType(inst.type, 0);
    const uint32_t width = scalarWidth(member);
    std::vector<uint32_t> parts;
    if (width == 32) {
      for (uint32_t w : words)
        parts.push_back(fromU32(member, w));
    } else if (width == 64) {
      const uint32_t v2 = typeVector(u32, 2);
      for (uint32_t i = 0; i < 2; ++i)
        parts.push_back(
            bitcast(member, emit(Op::CompositeConstruct, v2, {words[2 * i], words[2 * i + 1]})));
    } else if (width == 16) {
      for (uint32_t w : words) {
        parts.push_back(fromU32(member, w));
        parts.push_back(fromU32(member, emit(Op::ShiftRightLogical, u32, {w, constU32(16)})));
      }
    } else {
      return fail("cbufferLoadLegacy of this overload");
    }
    setAggregate(inst.value, parts);
    return !failed_;
  }
  case DxOp::CBufferLoad: {
    const Handle *h = handle(args[0]);
    if (!h)
      return false;
    const uint32_t type = llvmType(inst.type);
    const uint32_t width = scalarWidth(type);
    if (width != 16 && width != 32 && width != 64)
      return fail("cbufferLoad of a " + std::to_string(width) + "-bit value");
    // The 32-bit word at a byte offset: row offset / 16, component (offset / 4) % 4.
    auto word = [&](uint32_t offset) {
      if (isRootConstants(*h))
        return rootConstantValue(*h, emit(Op::ShiftRightLogical, u32, {offset, constU32(2)}), -1);
      const uint32_t reg = emit(Op::ShiftRightLogical, u32, {offset, constU32(4)});
      const uint32_t comp =
          emit(Op::BitwiseAnd, u32,
               {emit(Op::ShiftRightLogical, u32, {offset, constU32(2)}), constU32(3)});
      std::vector<uint32_t> chain{h->variable};
      if (h->arrayIndex)
        chain.push_back(h->arrayIndex);
      chain.push_back(constU32(0));
      chain.push_back(reg);
      chain.push_back(comp);
      const uint32_t ptr = emit(Op::AccessChain, typePointer(blockStorage(*h), u32), chain);
      if (h->nonUniform)
        decorate(ptr, Decoration::NonUniform);
      return loadThrough(*h, u32, ptr, 4);
    };
    const uint32_t offset = arg(1);
    if (width == 64) { // 8-byte aligned: both words in one row
      const uint32_t lo = word(offset);
      const uint32_t hi = word(emit(Op::IAdd, u32, {offset, constU32(4)}));
      setValue(inst.value,
               bitcast(type, emit(Op::CompositeConstruct, typeVector(u32, 2), {lo, hi})));
    } else if (width == 16) { // the half of the word the offset's bit 1 picks
      const uint32_t shift = emit(Op::ShiftLeftLogical, u32,
                                  {emit(Op::BitwiseAnd, u32, {offset, constU32(2)}), constU32(3)});
      setValue(inst.value, fromU32(type, emit(Op::ShiftRightLogical, u32, {word(offset), shift})));
    } else {
      setValue(inst.value, fromU32(type, word(offset)));
    }
    return !failed_;
  }
  case DxOp::RawBufferLoad:
  case DxOp::BufferLoad: {
    const Handle *h = handle(args[0]);
    if (!h)
      return false;
    const uint32_t member = memberType(inst.type, 0);
    if (h->kind == ResourceKind::TypedBuffer) {
      const uint32_t image = loadDescriptorImage(*h);
      const uint32_t sampled = sampledTypeOf(*this, *h->resource);
      const uint32_t vec = typeVector(sampled, 4);
      const uint32_t texel =
          emit(h->resourceClass == ResourceClass::UAV ? Op::ImageRead : Op::ImageFetch, vec,
               {image, arg(1)});
      std::vector<uint32_t> parts;
      for (uint32_t i = 0; i < 4; ++i) {
        parts.push_back(
            convertScalar(emit(Op::CompositeExtract, sampled, {texel, i}), sampled, member));
      }
      parts.push_back(constU32(0)); // status
      setAggregate(inst.value, parts);
      return !failed_;
    }
    if (!isRawOrStructured(h->kind))
      return fail("a buffer load from a resource that is not a buffer");
    int64_t mask = 0xF;
    if (op == DxOp::RawBufferLoad && !constArg(3, mask))
      return false;
    const uint32_t address = bufferByteAddress(*h, args[1], args[2]);
    const uint32_t width = scalarWidth(member);
    std::vector<uint32_t> parts(5, 0);
    const uint32_t used = extractMask(inst.value);
    uint32_t firstWord = 0; // address / 4, computed once
    auto word = [&](uint32_t k) {
      if (!firstWord)
        firstWord = emit(Op::ShiftRightLogical, u32, {address, constU32(2)});
      return addConstant(firstWord, k);
    };
    for (uint32_t c = 0; c < 4; ++c) {
      if (!(mask >> c & 1) || !(used >> c & 1)) {
        parts[c] = undef(member);
        continue;
      }
      if (width == 32) {
        parts[c] = fromU32(member, loadBufferWord(*h, word(c)));
      } else if (width == 64) {
        const uint32_t lo = loadBufferWord(*h, word(2 * c));
        const uint32_t hi = loadBufferWord(*h, word(2 * c + 1));
        parts[c] = bitcast(member, emit(Op::CompositeConstruct, typeVector(u32, 2), {lo, hi}));
      } else if (width == 16) {
        const uint32_t byte = addConstant(address, 2 * c);
        const uint32_t word =
            loadBufferWord(*h, emit(Op::ShiftRightLogical, u32, {byte, constU32(2)}));
        const uint32_t shift = emit(Op::ShiftLeftLogical, u32,
                                    {emit(Op::BitwiseAnd, u32, {byte, constU32(2)}), constU32(3)});
        parts[c] = fromU32(member, emit(Op::ShiftRightLogical, u32, {word, shift}));
      } else {
        return fail("a buffer load of " + std::to_string(width) + "-bit values");
      }
    }
    parts[4] = constU32(0); // status: always fully mapped
    setAggregate(inst.value, parts);
    return !failed_;
  }
  case DxOp::RawBufferStore:
  case DxOp::BufferStore: {
    const Handle *h = handle(args[0]);
    if (!h)
      return false;
    int64_t mask = 0;
    if (!constArg(7, mask))
      return false;
    if (h->kind == ResourceKind::TypedBuffer) {
      const uint32_t image = loadDescriptorImage(*h);
      const uint32_t sampled = sampledTypeOf(*this, *h->resource);
      std::vector<uint32_t> comps;
      for (uint32_t c = 0; c < 4; ++c) {
        comps.push_back(convertScalar(arg(3 + c), llvmType(llvm().typeOf(args[3 + c])), sampled));
      }
      emitVoid(Op::ImageWrite,
               {image, arg(1), emit(Op::CompositeConstruct, typeVector(sampled, 4), comps)});
      return !failed_;
    }
    if (!isRawOrStructured(h->kind))
      return fail("a buffer store to a resource that is not a buffer");
    const uint32_t address = bufferByteAddress(*h, args[1], args[2]);
    uint32_t firstWord = 0; // address / 4, computed once
    auto word = [&](uint32_t k) {
      if (!firstWord)
        firstWord = emit(Op::ShiftRightLogical, u32, {address, constU32(2)});
      return addConstant(firstWord, k);
    };
    for (uint32_t c = 0; c < 4; ++c) {
      if (!(mask >> c & 1))
        continue;
      const uint32_t v = arg(3 + c);
      const uint32_t vt = llvmType(llvm().typeOf(args[3 + c]));
      const uint32_t width = scalarWidth(vt);
      if (width == 32) {
        storeBufferWord(*h, word(c), toU32(v, vt));
      } else if (width == 64) {
        // Two words, each wholly this value's: no neighbour shares them.
        const uint32_t pair = bitcast(typeVector(u32, 2), v);
        storeBufferWord(*h, word(2 * c), emit(Op::CompositeExtract, u32, {pair, 0}));
        storeBufferWord(*h, word(2 * c + 1), emit(Op::CompositeExtract, u32, {pair, 1}));
      } else if (width == 16) {
        // Its own half only: the other half of the word may be another invocation's.
        const uint32_t half = isFloatType(vt) ? bitcast(typeInt(16), v) : v;
        storeBufferHalf(*h, addConstant(address, 2 * c), half);
      } else {
        return fail("a buffer store of " + std::to_string(width) +
                    "-bit values is not translated yet");
      }
    }
    return !failed_;
  }
  case DxOp::CheckAccessFullyMapped:
    setValue(inst.value, constBool(true));
    return true;
  case DxOp::AtomicBinOp:
  case DxOp::AtomicCompareExchange: {
    const Handle *h = handle(args[0]);
    if (!h)
      return false;
    const uint32_t type = llvmType(inst.type);
    if (failed_)
      return false;
    uint32_t pointer = 0;
    const size_t coord = op == DxOp::AtomicBinOp ? 2 : 1;
    if (isRawOrStructured(h->kind)) {
      const uint32_t address = bufferByteAddress(*h, args[coord], args[coord + 1]);
      pointer = bufferAtomicPointer(*h, scalarWidth(type), address);
      if (!pointer)
        return false;
    } else {
      const Descriptor &d = (*h->descriptor);
      const uint32_t image =
          h->arrayIndex
              ? emit(Op::AccessChain, typePointer(StorageClass::UniformConstant, d.elementType),
                     {h->variable, h->arrayIndex})
              : h->variable;
      uint32_t dims = 1;
      switch (h->kind) {
      case ResourceKind::Texture2D:
      case ResourceKind::Texture1DArray:
        dims = 2;
        break;
      case ResourceKind::Texture3D:
      case ResourceKind::Texture2DArray:
        dims = 3;
        break;
      default:
        break;
      }
      uint32_t c = arg(coord);
      if (dims > 1) {
        std::vector<uint32_t> parts;
        for (uint32_t i = 0; i < dims; ++i)
          parts.push_back(arg(coord + i));
        c = emit(Op::CompositeConstruct, typeVector(u32, dims), parts);
      }
      pointer = emit(Op::ImageTexelPointer,
                     typePointer(StorageClass::Image, sampledTypeOf(*this, *h->resource)),
                     {image, c, constU32(0)});
    }
    const uint32_t scope = constU32(uint32_t(grammar::Scope::Device));
    const uint32_t semantics = constU32(0);
    if (op == DxOp::AtomicCompareExchange) {
      setValue(inst.value, emit(Op::AtomicCompareExchange, type,
                                {pointer, scope, semantics, semantics, arg(5), arg(4)}));
      return !failed_;
    }
    int64_t atomicOp = 0;
    if (!constArg(1, atomicOp))
      return false;
    static constexpr Op kAtomic[] = {Op::AtomicIAdd, Op::AtomicAnd,  Op::AtomicOr,
                                     Op::AtomicXor,  Op::AtomicSMin, Op::AtomicSMax,
                                     Op::AtomicUMin, Op::AtomicUMax, Op::AtomicExchange};
    if (atomicOp < 0 || atomicOp > 8)
      return fail("atomic operation " + std::to_string(atomicOp));
    setValue(inst.value, emit(kAtomic[atomicOp], type, {pointer, scope, semantics, arg(5)}));
    return !failed_;
  }
  case DxOp::BufferUpdateCounter: {
    const Handle *h = handle(args[0]);
    if (!h)
      return false;
    if (!h->counter)
      return fail("bufferUpdateCounter on a UAV without a counter");
    int64_t increment = 0;
    if (!constArg(1, increment))
      return false;
    // A UAV array's counters are an array beside it, indexed as the UAV is.
    std::vector<uint32_t> chain{h->counter};
    if (h->arrayIndex)
      chain.push_back(h->arrayIndex);
    chain.push_back(constU32(0));
    chain.push_back(constU32(0));
    const uint32_t ptr =
        emit(Op::AccessChain, typePointer(StorageClass::StorageBuffer, u32), chain);
    if (h->nonUniform)
      decorate(ptr, Decoration::NonUniform);
    const uint32_t scope = constU32(uint32_t(grammar::Scope::Device));
    const uint32_t old = emit(increment > 0 ? Op::AtomicIAdd : Op::AtomicISub, u32,
                              {ptr, scope, constU32(0), constU32(1)});
    // IncrementCounter returns the value before, DecrementCounter the value after.
    setValue(inst.value, increment > 0 ? old : emit(Op::ISub, u32, {old, constU32(1)}));
    return !failed_;
  }
  case DxOp::GetDimensions: {
    const Handle *h = handle(args[0]);
    if (!h)
      return false;
    if (isRawOrStructured(h->kind)) {
      const uint32_t bytes = bufferByteSize(*h);
      const uint32_t size = h->kind == ResourceKind::StructuredBuffer
                                ? emit(Op::UDiv, u32, {bytes, constU32(h->stride ? h->stride : 4)})
                                : bytes;
      setAggregate(inst.value, {size, undef(u32), undef(u32), undef(u32)});
      return !failed_;
    }
    if (h->kind == ResourceKind::TypedBuffer) { // elements
      capability(Capability::ImageQuery);
      const uint32_t size = emit(Op::ImageQuerySize, u32, {loadDescriptorImage(*h)});
      setAggregate(inst.value, {size, undef(u32), undef(u32), undef(u32)});
      return !failed_;
    }
    handled = false;
    return true;
  }
  default:
    handled = false;
    return true;
  }
}

uint32_t Translator::bufferByteAddress(const Handle &h, dxil::ValueId index, dxil::ValueId offset) {
  const uint32_t u32 = typeInt(32);
  const uint32_t i = value(index);
  if (h.kind != ResourceKind::StructuredBuffer)
    return i;
  const uint32_t base = emit(Op::IMul, u32, {i, constU32(h.stride)});
  if (offset == dxil::kNoId || isUndef(offset))
    return base;
  return emit(Op::IAdd, u32, {base, value(offset)});
}

std::string bindingsJson(const TranslatedShader &shader) {
  std::string out;
  JsonWriter w(out, 2);
  w.beginObject().field("entry", shader.entry).key("bindings").beginArray();
  for (const DescriptorBinding &b : shader.bindings) {
    w.beginObject()
        .field("class", dxil::resourceClassName(b.resourceClass))
        .field("kind", dxil::resourceKindName(b.kind))
        .field("name", b.name)
        .field("space", b.space)
        .field("register", b.lowerBound);
    if (b.rangeSize == 0xFFFFFFFFu)
      w.key("count").value("unbounded");
    else
      w.field("count", b.rangeSize);
    if (b.descriptorType == "push-constant" || b.descriptorType == "shader-record-constants" ||
        b.descriptorType == "shader-record-address" || b.descriptorType == "push-constant-address")
      w.field("offset", b.argumentOffset).field("size", b.argumentSize);
    else if (b.descriptorType == "heap-table" || b.descriptorType == "shader-record-heap-table")
      w.field("offset", b.argumentOffset).field("table-offset", b.tableOffset);
    else
      w.field("set", b.set).field("binding", b.binding);
    w.field("type", b.descriptorType);
    if (b.counter)
      w.field("counter", true);
    if (b.heap)
      w.field("heap", true);
    w.endObject();
  }
  w.endArray().endObject();
  out += "\n";
  return out;
}

} // namespace spire::translate
