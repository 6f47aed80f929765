// Runtime arrays of descriptors made fixed arrays, for llvmpipe (RuntimeDescriptorArrays.h).
#include "unit/translate/RuntimeDescriptorArrays.h"

#include <set>

namespace spire::translate::test {

void fixRuntimeDescriptorArrays(std::vector<uint32_t> &words, uint32_t length) {
  constexpr uint32_t kOpCapability = 17, kOpTypeInt = 21, kOpTypeArray = 28,
                     kOpTypeRuntimeArray = 29, kOpTypePointer = 32, kOpConstant = 43,
                     kCapabilityRuntimeDescriptorArray = 5302;
  std::set<uint32_t> descriptorPointees; // what pointers to descriptors point to
  uint32_t uint32Type = 0;
  forEachInstruction(words, [&](uint32_t op, std::span<const uint32_t> o, size_t) {
    if (op == kOpTypePointer && o.size() == 3 && (o[1] == 0 || o[1] == 2 || o[1] == 12))
      descriptorPointees.insert(o[2]);
    if (op == kOpTypeInt && o.size() == 3 && o[1] == 32 && o[2] == 0)
      uint32Type = o[0];
  });
  if (words.size() < 5)
    return;
  std::vector<uint32_t> out(words.begin(), words.begin() + 5);
  if (!uint32Type)
    uint32Type = out[3]++;
  bool typeDeclared = false;
  forEachInstruction(words, [&](uint32_t op, std::span<const uint32_t> o, size_t at) {
    if (op == kOpCapability && o.size() == 1 && o[0] == kCapabilityRuntimeDescriptorArray)
      return;
    if (op == kOpTypeInt && !o.empty() && o[0] == uint32Type && typeDeclared)
      return; // moved before the first runtime array
    typeDeclared = typeDeclared || (op == kOpTypeInt && !o.empty() && o[0] == uint32Type);
    if (op == kOpTypeRuntimeArray && o.size() == 2 && descriptorPointees.count(o[0])) {
      if (!typeDeclared)
        out.insert(out.end(), {4u << 16 | kOpTypeInt, uint32Type, 32, 0});
      typeDeclared = true;
      const uint32_t lengthId = out[3]++;
      out.insert(out.end(), {4u << 16 | kOpConstant, uint32Type, lengthId, length});
      out.insert(out.end(), {4u << 16 | kOpTypeArray, o[0], o[1], lengthId});
      return;
    }
    out.insert(out.end(), words.begin() + at - 1, words.begin() + at + o.size());
  });
  words = std::move(out);
}

} // namespace spire::translate::test
