#include "spire/run/Reflection.h"

#include "spire/grammar/Grammar.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace spire::run {

namespace {

using grammar::Op;

// SPIR-V numbers the reflection reads (SPIR-V specification, section 3).
constexpr uint32_t kDecSpecId = uint32_t(grammar::Decoration::SpecId),
                   kDecBlock = uint32_t(grammar::Decoration::Block),
                   kDecBufferBlock = uint32_t(grammar::Decoration::BufferBlock),
                   kDecArrayStride = uint32_t(grammar::Decoration::ArrayStride),
                   kDecMatrixStride = uint32_t(grammar::Decoration::MatrixStride),
                   kDecBuiltIn = uint32_t(grammar::Decoration::BuiltIn),
                   kDecNonWritable = uint32_t(grammar::Decoration::NonWritable),
                   kDecBinding = uint32_t(grammar::Decoration::Binding),
                   kDecDescriptorSet = uint32_t(grammar::Decoration::DescriptorSet),
                   kDecOffset = uint32_t(grammar::Decoration::Offset),
                   kDecLocation = uint32_t(grammar::Decoration::Location),
                   kDecComponent = uint32_t(grammar::Decoration::Component),
                   kDecFlat = uint32_t(grammar::Decoration::Flat),
                   kDecNoPerspective = uint32_t(grammar::Decoration::NoPerspective),
                   kDecCentroid = uint32_t(grammar::Decoration::Centroid),
                   kDecSample = uint32_t(grammar::Decoration::Sample),
                   kDecPatch = uint32_t(grammar::Decoration::Patch),
                   kDecPerVertex = uint32_t(grammar::Decoration::PerVertexKHR),
                   kDecPerPrimitive = uint32_t(grammar::Decoration::PerPrimitiveEXT);
constexpr uint32_t kBuiltInWorkgroupSize = uint32_t(grammar::BuiltIn::WorkgroupSize);
constexpr uint32_t kScUniformConstant = uint32_t(grammar::StorageClass::UniformConstant),
                   kScUniform = uint32_t(grammar::StorageClass::Uniform),
                   kScPushConstant = uint32_t(grammar::StorageClass::PushConstant),
                   kScStorageBuffer = uint32_t(grammar::StorageClass::StorageBuffer),
                   kScInput = uint32_t(grammar::StorageClass::Input),
                   kScOutput = uint32_t(grammar::StorageClass::Output);
constexpr uint32_t kModeLocalSize = uint32_t(grammar::ExecutionMode::LocalSize),
                   kModeLocalSizeId = uint32_t(grammar::ExecutionMode::LocalSizeId);
constexpr uint32_t kDimBuffer = uint32_t(grammar::Dim::Buffer);

struct Type {
  Op op = Op::Nop;
  std::vector<uint32_t> operands; ///< the words after the result id
};

struct MemberDecorations {
  uint32_t offset = 0, matrixStride = 0;
  bool hasOffset = false;
};

struct IdInfo {
  std::string name;
  uint32_t set = 0, binding = 0, specId = ~0u, arrayStride = 0, builtIn = ~0u;
  uint32_t location = ~0u, component = 0;
  bool hasSet = false, hasBinding = false, block = false, bufferBlock = false, nonWritable = false;
  bool flat = false, noPerspective = false, centroid = false, sample = false, patch = false;
  bool perVertex = false, perPrimitive = false;
  std::vector<MemberDecorations> members;
  std::vector<std::string> memberNames;
};

uint32_t vkFormatOfImageFormat(uint32_t f) {
  static const std::pair<uint32_t, uint32_t> kMap[] = {
      {1, 109}, {2, 97},  {3, 100}, {4, 37},  {5, 38},   {6, 103}, {7, 83},  {9, 76},  {10, 91},
      {12, 77}, {13, 16}, {14, 70}, {15, 9},  {21, 108}, {22, 96}, {23, 42}, {24, 99}, {25, 102},
      {26, 82}, {27, 21}, {28, 75}, {29, 14}, {30, 107}, {31, 95}, {32, 41}, {33, 98}, {35, 101},
      {36, 81}, {37, 20}, {38, 74}, {39, 13}, {40, 110}, {41, 111}};
  for (auto [spv, vk] : kMap)
    if (spv == f)
      return vk;
  return 0;
}

class Reflector {
public:
  explicit Reflector(const Module &m) : m_(m) {}
  Expected<ModuleInterface> run();

private:
  IdInfo &info(uint32_t id) { return ids_[id]; }
  const Type *type(uint32_t id) const {
    auto it = types_.find(id);
    return it == types_.end() ? nullptr : &it->second;
  }
  std::string typeName(uint32_t id, int depth = 0) const;
  uint32_t sizeOf(uint32_t id, uint32_t matrixStride, int depth = 0) const;
  uint64_t constantValue(uint32_t id) const {
    auto it = constants_.find(id);
    return it == constants_.end() ? 0 : it->second;
  }
  void blockLayout(uint32_t structId, Resource &r) const;
  StageVariable stageVariable(uint32_t varId, uint32_t pointee, bool output) const;
  std::vector<BlockMember> membersOf(uint32_t structId, uint32_t &size, uint32_t &stride) const;

  const Module &m_;
  std::unordered_map<uint32_t, IdInfo> ids_;
  std::unordered_map<uint32_t, Type> types_;
  std::unordered_map<uint32_t, uint64_t> constants_;
};

std::string Reflector::typeName(uint32_t id, int depth) const {
  const Type *t = type(id);
  if (!t || depth > 16)
    return "?";
  const auto &o = t->operands;
  switch (t->op) {
  case Op::TypeBool:
    return "bool";
  case Op::TypeInt:
    return (o.size() > 1 && o[1] ? "int" : "uint") + std::to_string(o.empty() ? 0 : o[0]);
  case Op::TypeFloat: {
    uint32_t w = o.empty() ? 0 : o[0];
    return w == 16 ? "float16" : w == 64 ? "double" : "float";
  }
  case Op::TypeVector:
    return "vec" + std::to_string(o[1]) + "<" + typeName(o[0], depth + 1) + ">";
  case Op::TypeMatrix: {
    const Type *col = type(o[0]);
    std::string comp =
        col && col->op == Op::TypeVector ? typeName(col->operands[0], depth + 1) : "?";
    uint32_t rows = col && col->op == Op::TypeVector ? col->operands[1] : 0;
    return "mat" + std::to_string(o[1]) + "x" + std::to_string(rows) + "<" + comp + ">";
  }
  case Op::TypeArray:
    return typeName(o[0], depth + 1) + "[" + std::to_string(constantValue(o[1])) + "]";
  case Op::TypeRuntimeArray:
    return typeName(o[0], depth + 1) + "[]";
  case Op::TypeStruct: {
    auto it = ids_.find(id);
    return it != ids_.end() && !it->second.name.empty() ? it->second.name : "struct";
  }
  case Op::TypeImage:
    return "image";
  case Op::TypeSampler:
    return "sampler";
  case Op::TypeSampledImage:
    return "sampled_image";
  case Op::TypePointer:
    return "address";
  default:
    return "?";
  }
}

uint32_t Reflector::sizeOf(uint32_t id, uint32_t matrixStride, int depth) const {
  const Type *t = type(id);
  if (!t || depth > 16)
    return 0;
  const auto &o = t->operands;
  switch (t->op) {
  case Op::TypeBool:
    return 4;
  case Op::TypeInt:
  case Op::TypeFloat:
    return o.empty() ? 0 : o[0] / 8;
  case Op::TypeVector:
    return o[1] * sizeOf(o[0], 0, depth + 1);
  case Op::TypeMatrix:
    return o[1] * (matrixStride ? matrixStride : sizeOf(o[0], 0, depth + 1));
  case Op::TypeArray: {
    auto it = ids_.find(id);
    uint32_t stride = it != ids_.end() && it->second.arrayStride
                          ? it->second.arrayStride
                          : sizeOf(o[0], matrixStride, depth + 1);
    return static_cast<uint32_t>(constantValue(o[1])) * stride;
  }
  case Op::TypeRuntimeArray:
    return 0;
  case Op::TypePointer: // a buffer device address (the only pointer a block can hold)
    return o.size() > 0 && o[0] == uint32_t(grammar::StorageClass::PhysicalStorageBuffer) ? 8 : 0;
  case Op::TypeStruct: {
    auto it = ids_.find(id);
    uint32_t size = 0;
    for (size_t i = 0; i < o.size(); ++i) {
      uint32_t off = 0, ms = 0;
      if (it != ids_.end() && i < it->second.members.size()) {
        off = it->second.members[i].offset;
        ms = it->second.members[i].matrixStride;
      }
      size = std::max(size, off + sizeOf(o[i], ms, depth + 1));
    }
    return size;
  }
  default:
    return 0;
  }
}

std::vector<BlockMember> Reflector::membersOf(uint32_t structId, uint32_t &size,
                                              uint32_t &stride) const {
  std::vector<BlockMember> out;
  size = 0;
  stride = 0;
  const Type *t = type(structId);
  if (!t || t->op != Op::TypeStruct)
    return out;
  auto it = ids_.find(structId);
  for (size_t i = 0; i < t->operands.size(); ++i) {
    BlockMember bm;
    uint32_t mid = t->operands[i];
    uint32_t ms = 0;
    if (it != ids_.end()) {
      if (i < it->second.members.size()) {
        bm.offset = it->second.members[i].offset;
        ms = it->second.members[i].matrixStride;
      }
      if (i < it->second.memberNames.size())
        bm.name = it->second.memberNames[i];
    }
    bm.type = typeName(mid);
    const Type *mt = type(mid);
    if (mt && mt->op == Op::TypeRuntimeArray) {
      bm.runtimeArray = true;
      auto ai = ids_.find(mid);
      bm.size = ai != ids_.end() && ai->second.arrayStride ? ai->second.arrayStride
                                                           : sizeOf(mt->operands[0], ms);
      stride = bm.size;
      size = std::max(size, bm.offset);
    } else {
      bm.size = sizeOf(mid, ms);
      size = std::max(size, bm.offset + bm.size);
    }
    out.push_back(std::move(bm));
  }
  return out;
}

void Reflector::blockLayout(uint32_t structId, Resource &r) const {
  r.members = membersOf(structId, r.blockSize, r.runtimeStride);
}

StageVariable Reflector::stageVariable(uint32_t varId, uint32_t pointee, bool output) const {
  StageVariable v;
  v.id = varId;
  v.output = output;
  if (auto it = ids_.find(varId); it != ids_.end()) {
    const IdInfo &i = it->second;
    v.name = i.name;
    v.location = i.location;
    v.component = i.component;
    v.builtIn = i.builtIn;
    v.flat = i.flat;
    v.noPerspective = i.noPerspective;
    v.centroid = i.centroid;
    v.sample = i.sample;
    v.patch = i.patch;
    v.perVertex = i.perVertex;
    v.perPrimitive = i.perPrimitive;
  }
  uint32_t t = pointee;
  for (int depth = 0; depth < 16; ++depth) {
    const Type *ty = type(t);
    if (!ty || ty->operands.empty()) {
      v.other = true;
      return v;
    }
    const auto &o = ty->operands;
    switch (ty->op) {
    case Op::TypeArray:
    case Op::TypeRuntimeArray:
      v.arrayLengths.push_back(
          ty->op == Op::TypeArray && o.size() > 1 ? static_cast<uint32_t>(constantValue(o[1])) : 0);
      t = o[0];
      continue;
    case Op::TypeMatrix:
      v.columns = o.size() > 1 ? o[1] : 0;
      t = o[0];
      continue;
    case Op::TypeVector:
      v.components = o.size() > 1 ? o[1] : 1;
      t = o[0];
      continue;
    case Op::TypeBool:
      v.kind = ComponentKind::Bool;
      return v;
    case Op::TypeInt:
      v.width = o[0];
      v.kind = o.size() > 1 && o[1] ? ComponentKind::Int : ComponentKind::Uint;
      return v;
    case Op::TypeFloat:
      v.width = o[0];
      v.kind = ComponentKind::Float;
      return v;
    default:
      v.other = true;
      return v;
    }
  }
  v.other = true;
  return v;
}

Expected<ModuleInterface> Reflector::run() {
  ModuleInterface mi;
  mi.version = m_.version();
  std::vector<uint32_t> variables;
  struct EntryRecord {
    uint32_t function;
    EntryPoint ep;
  };
  std::vector<EntryRecord> entries;
  std::vector<std::pair<uint32_t, std::vector<uint32_t>>> modes, modeIds;
  std::vector<uint32_t> specConstants;
  std::unordered_map<uint32_t, std::vector<uint32_t>> composites;
  // The variable each pointer and loaded image comes from, and the images OpImageRead reads.
  std::unordered_map<uint32_t, uint32_t> rootOf;
  std::unordered_set<uint32_t> readImages;
  auto root = [&](uint32_t id) {
    auto it = rootOf.find(id);
    return it == rootOf.end() ? id : it->second;
  };

  for (Instruction inst : m_) {
    if (inst.isRaw())
      continue;
    std::span<const uint32_t> w = inst.words();
    Op op = inst.opcode();
    auto literalString = [&](size_t firstWord) {
      std::string s;
      for (size_t i = firstWord; i < w.size(); ++i)
        for (int b = 0; b < 4; ++b) {
          char c = static_cast<char>((w[i] >> (8 * b)) & 0xFF);
          if (!c)
            return s;
          s += c;
        }
      return s;
    };
    switch (op) {
    case Op::Capability:
      if (w.size() > 1) {
        auto *e = grammar::findEnumerant(grammar::OperandKind::Capability, w[1]);
        mi.capabilities.push_back(e ? std::string(e->name) : std::to_string(w[1]));
      }
      break;
    case Op::Extension:
      mi.extensions.push_back(literalString(1));
      break;
    case Op::EntryPoint:
      if (w.size() > 3) {
        EntryRecord r;
        r.function = w[2];
        auto *e = grammar::findEnumerant(grammar::OperandKind::ExecutionModel, w[1]);
        r.ep.model = e ? std::string(e->name) : std::to_string(w[1]);
        r.ep.name = literalString(3);
        for (size_t i = 3 + r.ep.name.size() / 4 + 1; i < w.size(); ++i)
          r.ep.interface.push_back(w[i]);
        entries.push_back(std::move(r));
      }
      break;
    case Op::ExecutionMode:
      if (w.size() > 2)
        modes.push_back({w[1], std::vector<uint32_t>(w.begin() + 2, w.end())});
      break;
    case Op::ExecutionModeId:
      if (w.size() > 2)
        modeIds.push_back({w[1], std::vector<uint32_t>(w.begin() + 2, w.end())});
      break;
    case Op::Name:
      if (w.size() > 2)
        info(w[1]).name = literalString(2);
      break;
    case Op::MemberName:
      if (w.size() > 3) {
        IdInfo &i = info(w[1]);
        if (i.memberNames.size() <= w[2] && w[2] < 4096)
          i.memberNames.resize(w[2] + 1);
        if (w[2] < i.memberNames.size())
          i.memberNames[w[2]] = literalString(3);
      }
      break;
    case Op::Decorate:
      if (w.size() > 2) {
        IdInfo &i = info(w[1]);
        uint32_t arg = w.size() > 3 ? w[3] : 0;
        switch (w[2]) {
        case kDecSpecId:
          i.specId = arg;
          break;
        case kDecBlock:
          i.block = true;
          break;
        case kDecBufferBlock:
          i.bufferBlock = true;
          break;
        case kDecArrayStride:
          i.arrayStride = arg;
          break;
        case kDecBuiltIn:
          i.builtIn = arg;
          break;
        case kDecNonWritable:
          i.nonWritable = true;
          break;
        case kDecBinding:
          i.binding = arg;
          i.hasBinding = true;
          break;
        case kDecDescriptorSet:
          i.set = arg;
          i.hasSet = true;
          break;
        case kDecLocation:
          i.location = arg;
          break;
        case kDecComponent:
          i.component = arg;
          break;
        case kDecFlat:
          i.flat = true;
          break;
        case kDecNoPerspective:
          i.noPerspective = true;
          break;
        case kDecCentroid:
          i.centroid = true;
          break;
        case kDecSample:
          i.sample = true;
          break;
        case kDecPatch:
          i.patch = true;
          break;
        case kDecPerVertex:
          i.perVertex = true;
          break;
        case kDecPerPrimitive:
          i.perPrimitive = true;
          break;
        default:
          break;
        }
      }
      break;
    case Op::MemberDecorate:
      if (w.size() > 3 && w[2] < 4096) {
        IdInfo &i = info(w[1]);
        if (i.members.size() <= w[2])
          i.members.resize(w[2] + 1);
        MemberDecorations &md = i.members[w[2]];
        uint32_t arg = w.size() > 4 ? w[4] : 0;
        if (w[3] == kDecOffset) {
          md.offset = arg;
          md.hasOffset = true;
        } else if (w[3] == kDecMatrixStride) {
          md.matrixStride = arg;
        }
      }
      break;
    case Op::TypeBool:
    case Op::TypeInt:
    case Op::TypeFloat:
    case Op::TypeVector:
    case Op::TypeMatrix:
    case Op::TypeArray:
    case Op::TypeRuntimeArray:
    case Op::TypeStruct:
    case Op::TypePointer:
    case Op::TypeImage:
    case Op::TypeSampler:
    case Op::TypeSampledImage:
    case Op::TypeAccelerationStructureKHR:
      if (w.size() > 1)
        types_[w[1]] = Type{op, std::vector<uint32_t>(w.begin() + 2, w.end())};
      break;
    case Op::Constant:
    case Op::SpecConstant:
      if (w.size() > 3) {
        uint64_t v = w[3];
        if (w.size() > 4)
          v |= uint64_t(w[4]) << 32;
        constants_[w[2]] = v;
        if (op == Op::SpecConstant)
          specConstants.push_back(w[2]);
      }
      break;
    case Op::SpecConstantTrue:
    case Op::SpecConstantFalse:
      if (w.size() > 2) {
        constants_[w[2]] = op == Op::SpecConstantTrue;
        specConstants.push_back(w[2]);
      }
      break;
    case Op::ConstantComposite:
    case Op::SpecConstantComposite:
      if (w.size() > 3)
        composites[w[2]] = std::vector<uint32_t>(w.begin() + 3, w.end());
      break;
    case Op::Variable:
      if (inst.section() == Section::Global && w.size() > 3)
        variables.push_back(inst.index());
      break;
    case Op::AccessChain:
    case Op::InBoundsAccessChain:
    case Op::Load:
    case Op::CopyObject:
      if (w.size() > 3)
        rootOf[w[2]] = root(w[3]);
      break;
    case Op::ImageRead:
    case Op::ImageSparseRead:
      if (w.size() > 3)
        readImages.insert(root(w[3]));
      break;
    default:
      break;
    }
  }

  // Entry points and local sizes.
  for (EntryRecord &r : entries) {
    for (const auto *list : {&modes, &modeIds})
      for (auto &[fn, args] : *list)
        if (fn == r.function && !args.empty())
          r.ep.executionModes.push_back(args);
    for (auto &[fn, args] : modes)
      if (fn == r.function && !args.empty() && args[0] == kModeLocalSize && args.size() >= 4)
        for (int i = 0; i < 3; ++i)
          r.ep.localSize[i] = args[1 + i];
    for (auto &[fn, args] : modeIds)
      if (fn == r.function && !args.empty() && args[0] == kModeLocalSizeId && args.size() >= 4)
        for (int i = 0; i < 3; ++i) {
          r.ep.localSize[i] = static_cast<uint32_t>(constantValue(args[1 + i]));
          auto it = ids_.find(args[1 + i]);
          if (it != ids_.end() && it->second.specId != ~0u)
            r.ep.localSizeSpecIds[i] = it->second.specId;
        }
    mi.entryPoints.push_back(std::move(r.ep));
  }
  // A WorkgroupSize built-in overrides LocalSize for every entry point.
  for (auto &[id, parts] : composites) {
    auto it = ids_.find(id);
    if (it == ids_.end() || it->second.builtIn != kBuiltInWorkgroupSize || parts.size() != 3)
      continue;
    for (EntryPoint &ep : mi.entryPoints)
      for (int i = 0; i < 3; ++i) {
        ep.localSize[i] = static_cast<uint32_t>(constantValue(parts[i]));
        auto pi = ids_.find(parts[i]);
        ep.localSizeSpecIds[i] = pi != ids_.end() ? pi->second.specId : ~0u;
      }
  }

  // Specialization constants.
  for (uint32_t id : specConstants) {
    auto it = ids_.find(id);
    if (it == ids_.end() || it->second.specId == ~0u)
      continue;
    SpecConstant sc;
    sc.id = it->second.specId;
    sc.name = it->second.name;
    uint32_t typeId = m_.typeOf(id);
    sc.type = typeName(typeId);
    sc.defaultBits = constantValue(id);
    mi.specConstants.push_back(std::move(sc));
  }
  std::sort(mi.specConstants.begin(), mi.specConstants.end(),
            [](const SpecConstant &a, const SpecConstant &b) { return a.id < b.id; });

  // Resources and push constants.
  for (uint32_t index : variables) {
    std::span<const uint32_t> w = m_.inst(index).words();
    uint32_t varId = w[2], storage = w[3];
    const Type *ptr = type(w[1]);
    if (!ptr || ptr->op != Op::TypePointer || ptr->operands.size() < 2)
      continue;
    uint32_t pointee = ptr->operands[1];
    const IdInfo &vi = ids_[varId];
    if (storage == kScInput || storage == kScOutput) {
      mi.stageVariables.push_back(stageVariable(varId, pointee, storage == kScOutput));
      continue;
    }
    if (storage == kScPushConstant) {
      uint32_t stride = 0;
      mi.pushConstantMembers = membersOf(pointee, mi.pushConstantSize, stride);
      continue;
    }
    if (storage != kScUniformConstant && storage != kScUniform && storage != kScStorageBuffer)
      continue;
    Resource r;
    r.name = vi.name;
    r.set = vi.set;
    r.binding = vi.binding;
    r.nonWritable = vi.nonWritable;
    r.variable = varId;
    r.texelsRead = readImages.count(varId) != 0;
    // Arrays of descriptors.
    uint32_t inner = pointee;
    const Type *t = type(inner);
    if (t && t->op == Op::TypeArray) {
      r.count = static_cast<uint32_t>(constantValue(t->operands[1]));
      inner = t->operands[0];
    } else if (t && t->op == Op::TypeRuntimeArray) {
      r.count = 0;
      inner = t->operands[0];
    }
    t = type(inner);
    if (!t)
      continue;
    const IdInfo &ti = ids_[inner];
    if (r.name.empty())
      r.name = ti.name;
    if (storage == kScStorageBuffer || (storage == kScUniform && ti.bufferBlock)) {
      r.kind = DescriptorKind::StorageBuffer;
      blockLayout(inner, r);
    } else if (storage == kScUniform) {
      r.kind = DescriptorKind::UniformBuffer;
      r.nonWritable = true;
      blockLayout(inner, r);
    } else if (t->op == Op::TypeSampler) {
      r.kind = DescriptorKind::Sampler;
    } else if (t->op == Op::TypeAccelerationStructureKHR) {
      r.kind = DescriptorKind::AccelerationStructure;
    } else if (t->op == Op::TypeImage || t->op == Op::TypeSampledImage) {
      const Type *img = t->op == Op::TypeImage ? t : type(t->operands[0]);
      if (!img || img->op != Op::TypeImage || img->operands.size() < 7)
        continue;
      uint32_t dim = img->operands[1], ms = img->operands[4], sampled = img->operands[5];
      r.imageDim = dim;
      r.multisampled = ms != 0;
      r.arrayed = img->operands[3] != 0;
      if (const Type *st = type(img->operands[0]))
        r.sampledType = st->op == Op::TypeFloat ? 'f'
                        : st->op == Op::TypeInt && st->operands.size() > 1
                            ? (st->operands[1] ? 'i' : 'u')
                            : 0;
      r.imageFormat = vkFormatOfImageFormat(img->operands[6]);
      if (t->op == Op::TypeSampledImage)
        r.kind = DescriptorKind::CombinedImageSampler;
      else if (sampled == 2)
        r.kind =
            dim == kDimBuffer ? DescriptorKind::StorageTexelBuffer : DescriptorKind::StorageImage;
      else
        r.kind =
            dim == kDimBuffer ? DescriptorKind::UniformTexelBuffer : DescriptorKind::SampledImage;
    } else {
      continue;
    }
    mi.resources.push_back(std::move(r));
  }
  std::sort(mi.resources.begin(), mi.resources.end(), [](const Resource &a, const Resource &b) {
    return a.set != b.set ? a.set < b.set : a.binding < b.binding;
  });
  return mi;
}

void appendMembers(std::string &out, const std::vector<BlockMember> &members) {
  char buf[64];
  for (const BlockMember &m : members) {
    std::snprintf(buf, sizeof buf, "    +%-5u %-5u ", m.offset, m.size);
    out += buf;
    out += m.type;
    if (!m.name.empty())
      out += " " + m.name;
    if (m.runtimeArray)
      out += " (runtime array; size is the stride)";
    out += '\n';
  }
}

std::string jsonString(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string membersJson(const std::vector<BlockMember> &members) {
  std::string out = "[";
  for (size_t i = 0; i < members.size(); ++i) {
    const BlockMember &m = members[i];
    out += (i ? "," : "") + std::string("{\"name\":") + jsonString(m.name) +
           ",\"type\":" + jsonString(m.type) + ",\"offset\":" + std::to_string(m.offset) +
           ",\"size\":" + std::to_string(m.size) +
           ",\"runtime_array\":" + (m.runtimeArray ? "true" : "false") + "}";
  }
  return out + "]";
}

} // namespace

const Resource *ModuleInterface::find(uint32_t set, uint32_t binding) const {
  for (const Resource &r : resources)
    if (r.set == set && r.binding == binding)
      return &r;
  return nullptr;
}

std::vector<const StageVariable *> ModuleInterface::stageVariablesOf(const EntryPoint &entry,
                                                                     bool output) const {
  std::vector<const StageVariable *> out;
  for (const StageVariable &v : stageVariables)
    if (v.output == output &&
        std::find(entry.interface.begin(), entry.interface.end(), v.id) != entry.interface.end())
      out.push_back(&v);
  return out;
}

Expected<ModuleInterface> reflect(const Module &module) { return Reflector(module).run(); }

std::string formatInterface(const ModuleInterface &mi) {
  std::string out;
  char buf[160];
  std::snprintf(buf, sizeof buf, "SPIR-V %u.%u\n", (mi.version >> 16) & 0xFF,
                (mi.version >> 8) & 0xFF);
  out += buf;
  for (const EntryPoint &ep : mi.entryPoints) {
    out += "entry point " + ep.model + " " + ep.name;
    if (ep.model == "GLCompute" || ep.model == "Kernel" || ep.model == "TaskEXT" ||
        ep.model == "MeshEXT") {
      out += " local size";
      for (int i = 0; i < 3; ++i) {
        out += " " + std::to_string(ep.localSize[i]);
        if (ep.localSizeSpecIds[i] != ~0u)
          out += "(spec " + std::to_string(ep.localSizeSpecIds[i]) + ")";
      }
    }
    out += '\n';
  }
  for (const Resource &r : mi.resources) {
    std::snprintf(buf, sizeof buf, "binding %u:%u %s", r.set, r.binding,
                  std::string(descriptorKindName(r.kind)).c_str());
    out += buf;
    if (r.count != 1)
      out += r.count == 0 ? "[]" : "[" + std::to_string(r.count) + "]";
    if (!r.name.empty())
      out += " " + r.name;
    if (isBufferKind(r.kind)) {
      out += " size " + std::to_string(r.blockSize);
      if (r.runtimeStride)
        out += " + n*" + std::to_string(r.runtimeStride);
    }
    if (r.nonWritable && r.kind == DescriptorKind::StorageBuffer)
      out += " (read-only)";
    out += '\n';
    appendMembers(out, r.members);
  }
  if (mi.pushConstantSize) {
    out += "push constants size " + std::to_string(mi.pushConstantSize) + "\n";
    appendMembers(out, mi.pushConstantMembers);
  }
  for (const SpecConstant &sc : mi.specConstants) {
    out += "spec constant " + std::to_string(sc.id) + " " + sc.type;
    if (!sc.name.empty())
      out += " " + sc.name;
    out += " default " + std::to_string(sc.defaultBits) + "\n";
  }
  if (!mi.capabilities.empty()) {
    out += "capabilities";
    for (const std::string &c : mi.capabilities)
      out += " " + c;
    out += '\n';
  }
  if (!mi.extensions.empty()) {
    out += "extensions";
    for (const std::string &e : mi.extensions)
      out += " " + e;
    out += '\n';
  }
  return out;
}

std::string interfaceJson(const ModuleInterface &mi) {
  std::string out = "{\"version\":\"" + std::to_string((mi.version >> 16) & 0xFF) + "." +
                    std::to_string((mi.version >> 8) & 0xFF) + "\",\"entry_points\":[";
  for (size_t i = 0; i < mi.entryPoints.size(); ++i) {
    const EntryPoint &ep = mi.entryPoints[i];
    out += (i ? "," : "") + std::string("{\"name\":") + jsonString(ep.name) +
           ",\"model\":" + jsonString(ep.model) + ",\"local_size\":[" +
           std::to_string(ep.localSize[0]) + "," + std::to_string(ep.localSize[1]) + "," +
           std::to_string(ep.localSize[2]) + "]}";
  }
  out += "],\"resources\":[";
  for (size_t i = 0; i < mi.resources.size(); ++i) {
    const Resource &r = mi.resources[i];
    out += (i ? "," : "") + std::string("{\"set\":") + std::to_string(r.set) +
           ",\"binding\":" + std::to_string(r.binding) +
           ",\"kind\":" + jsonString(descriptorKindName(r.kind)) +
           ",\"count\":" + std::to_string(r.count) + ",\"name\":" + jsonString(r.name) +
           ",\"size\":" + std::to_string(r.blockSize) +
           ",\"runtime_stride\":" + std::to_string(r.runtimeStride) +
           ",\"members\":" + membersJson(r.members) + "}";
  }
  out += "],\"push_constants\":{\"size\":" + std::to_string(mi.pushConstantSize) +
         ",\"members\":" + membersJson(mi.pushConstantMembers) + "},\"spec_constants\":[";
  for (size_t i = 0; i < mi.specConstants.size(); ++i) {
    const SpecConstant &sc = mi.specConstants[i];
    out += (i ? "," : "") + std::string("{\"id\":") + std::to_string(sc.id) +
           ",\"name\":" + jsonString(sc.name) + ",\"type\":" + jsonString(sc.type) +
           ",\"default\":" + std::to_string(sc.defaultBits) + "}";
  }
  out += "],\"capabilities\":[";
  for (size_t i = 0; i < mi.capabilities.size(); ++i)
    out += (i ? "," : "") + jsonString(mi.capabilities[i]);
  out += "],\"extensions\":[";
  for (size_t i = 0; i < mi.extensions.size(); ++i)
    out += (i ? "," : "") + jsonString(mi.extensions[i]);
  return out + "]}";
}

} // namespace spire::run
