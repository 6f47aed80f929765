// The GLSL450 -> Vulkan memory model rewrite of a translated module (see the header).
#include "VulkanMemoryModel.h"

#include "spire/grammar/Grammar.h"

#include <unordered_map>

namespace spire::translate {

using grammar::Op;

namespace {

constexpr uint32_t kHeaderWords = 5;

bool privateClass(uint32_t sc) {
  using grammar::StorageClass;
  return sc != uint32_t(StorageClass::StorageBuffer) && sc != uint32_t(StorageClass::Uniform) &&
         sc != uint32_t(StorageClass::Workgroup) &&
         sc != uint32_t(StorageClass::PhysicalStorageBuffer);
}

} // namespace

std::string toVulkanMemoryModel(std::vector<uint32_t> &words) {
  if (words.size() < kHeaderWords)
    return "a module without a header";
  std::unordered_map<uint32_t, uint32_t> pointerTypes;   // type id -> storage class
  std::unordered_map<uint32_t, uint32_t> pointerClasses; // pointer id -> storage class
  std::unordered_map<uint32_t, uint32_t> constants;      // 32-bit constant id -> value
  std::unordered_map<uint32_t, uint32_t> constantType;   // constant id -> its type
  bool deviceScope = false;                              // a barrier or atomic at Device scope
  // Pass 1: pointers and constants.
  for (size_t i = kHeaderWords; i < words.size();) {
    const uint32_t count = words[i] >> 16;
    const Op op = Op(words[i] & 0xFFFF);
    if (count == 0 || i + count > words.size())
      return "a malformed instruction";
    const uint32_t *w = &words[i];
    if (op == Op::Decorate && count >= 3 &&
        (w[2] == uint32_t(grammar::Decoration::Coherent) ||
         w[2] == uint32_t(grammar::Decoration::Volatile)))
      return "a Coherent or Volatile decoration (globallycoherent resources) in a module that "
             "needs the Vulkan memory model";
    if (op == Op::TypePointer && count >= 4)
      pointerTypes[w[1]] = w[2];
    if (op == Op::Constant && count == 4) {
      constants[w[2]] = w[3];
      constantType[w[2]] = w[1];
    }
    auto device = [&](uint32_t id) {
      auto it = constants.find(id);
      return it != constants.end() && it->second == uint32_t(grammar::Scope::Device);
    };
    if ((op == Op::ControlBarrier && count == 4 && device(w[2])) ||
        (op == Op::MemoryBarrier && count == 3 && device(w[1])) ||
        (op == Op::AtomicStore && count >= 3 && device(w[2])) ||
        (uint32_t(op) >= uint32_t(Op::AtomicLoad) && uint32_t(op) <= uint32_t(Op::AtomicXor) &&
         op != Op::AtomicStore && count >= 5 && device(w[4])))
      deviceScope = true;
    if ((op == Op::Variable || op == Op::AccessChain || op == Op::InBoundsAccessChain ||
         op == Op::PtrAccessChain || op == Op::FunctionParameter || op == Op::CopyObject) &&
        count >= 3) {
      auto it = pointerTypes.find(w[1]);
      if (it != pointerTypes.end())
        pointerClasses[w[2]] = it->second;
    }
    i += count;
  }
  auto isShared = [&](uint32_t pointer) {
    auto it = pointerClasses.find(pointer);
    return it != pointerClasses.end() && !privateClass(it->second);
  };
  // Pass 2: rewrite, collecting the barrier semantics that need a constant of their own.
  std::vector<uint32_t> out(words.begin(), words.begin() + kHeaderWords);
  out.reserve(words.size() + 64);
  uint32_t bound = words[3];
  std::unordered_map<uint32_t, uint32_t> upgraded; // semantics value -> new constant id
  std::vector<uint32_t> newConstants;              // OpConstant instructions to add
  auto semanticsFor = [&](uint32_t id) {
    auto it = constants.find(id);
    const uint32_t ordering = uint32_t(grammar::MemorySemantics::Acquire) |
                              uint32_t(grammar::MemorySemantics::Release) |
                              uint32_t(grammar::MemorySemantics::AcquireRelease);
    if (it == constants.end() || !(it->second & ordering))
      return id;
    const uint32_t value = it->second | uint32_t(grammar::MemorySemantics::MakeAvailable) |
                           uint32_t(grammar::MemorySemantics::MakeVisible);
    if (value == it->second)
      return id;
    auto [u, inserted] = upgraded.emplace(value, 0);
    if (inserted) {
      u->second = bound++;
      newConstants.insert(newConstants.end(), {(4u << 16) | uint32_t(Op::Constant),
                                               constantType[id], u->second, value});
    }
    return u->second;
  };
  size_t firstFunction = 0; // where the new constants go: before the first function
  bool capabilityAdded = false;
  for (size_t i = kHeaderWords; i < words.size();) {
    const uint32_t count = words[i] >> 16;
    const Op op = Op(words[i] & 0xFFFF);
    std::vector<uint32_t> inst(words.begin() + i, words.begin() + i + count);
    i += count;
    if (!capabilityAdded && op != Op::Capability) {
      out.insert(out.end(), {(2u << 16) | uint32_t(Op::Capability),
                             uint32_t(grammar::Capability::VulkanMemoryModel)});
      if (deviceScope)
        out.insert(out.end(), {(2u << 16) | uint32_t(Op::Capability),
                               uint32_t(grammar::Capability::VulkanMemoryModelDeviceScope)});
      capabilityAdded = true;
    }
    switch (op) {
    case Op::MemoryModel:
      if (count >= 3)
        inst[2] = uint32_t(grammar::MemoryModel::Vulkan);
      break;
    case Op::Load:
    case Op::Store: {
      const size_t pointerAt = op == Op::Load ? 3 : 1, maskAt = op == Op::Load ? 4 : 3;
      if (count > pointerAt && isShared(inst[pointerAt])) {
        const uint32_t bit = uint32_t(grammar::MemoryAccess::NonPrivatePointer);
        if (count > maskAt)
          inst[maskAt] |= bit;
        else
          inst.push_back(bit);
      }
      break;
    }
    case Op::ImageRead:
    case Op::ImageWrite: {
      const size_t maskAt = op == Op::ImageRead ? 5 : 4;
      const uint32_t bit = uint32_t(grammar::ImageOperands::NonPrivateTexel);
      if (count > maskAt)
        inst[maskAt] |= bit;
      else
        inst.push_back(bit);
      break;
    }
    case Op::ControlBarrier:
      if (count == 4)
        inst[3] = semanticsFor(inst[3]);
      break;
    case Op::MemoryBarrier:
      if (count == 3)
        inst[2] = semanticsFor(inst[2]);
      break;
    case Op::Function:
      if (!firstFunction)
        firstFunction = out.size();
      break;
    default:
      break;
    }
    inst[0] = (uint32_t(inst.size()) << 16) | uint32_t(op);
    out.insert(out.end(), inst.begin(), inst.end());
  }
  if (!newConstants.empty()) {
    if (!firstFunction)
      return "a module without functions";
    out.insert(out.begin() + long(firstFunction), newConstants.begin(), newConstants.end());
  }
  out[3] = bound;
  words = std::move(out);
  return {};
}

} // namespace spire::translate
