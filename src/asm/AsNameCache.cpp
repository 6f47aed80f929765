#include "AsNameCache.h"

namespace spire::assembly {

NameCache::Entry &NameCache::slot(uint32_t kind, std::string_view name) {
  uint32_t h = 2166136261u ^ kind;
  for (char c : name)
    h = (h ^ static_cast<uint8_t>(c)) * 16777619u;
  return entries_[(h ^ (h >> 15)) % entries_.size()];
}

const grammar::InstructionDesc *NameCache::instruction(std::string_view name) {
  Entry &e = slot(kInstruction, name);
  if (e.desc != nullptr && e.kind == kInstruction && e.name == name)
    return static_cast<const grammar::InstructionDesc *>(e.desc);
  const grammar::InstructionDesc *d = grammar::findInstruction(name);
  if (d != nullptr) {
    // Keep the name as the grammar spells it (an alias or the canonical name).
    std::string_view stored = d->name == name ? d->name : std::string_view{};
    for (std::string_view alias : d->aliases)
      if (alias == name)
        stored = alias;
    if (!stored.empty())
      e = {stored, kInstruction, d};
  }
  return d;
}

const grammar::EnumerantDesc *NameCache::enumerant(grammar::OperandKind kind,
                                                   std::string_view name) {
  const uint32_t k = static_cast<uint32_t>(kind);
  Entry &e = slot(k, name);
  if (e.desc != nullptr && e.kind == k && e.name == name)
    return static_cast<const grammar::EnumerantDesc *>(e.desc);
  const grammar::EnumerantDesc *d = grammar::findEnumerant(kind, name);
  if (d != nullptr) {
    std::string_view stored = d->name == name ? d->name : std::string_view{};
    for (std::string_view alias : d->aliases)
      if (alias == name)
        stored = alias;
    if (!stored.empty())
      e = {stored, k, d};
  }
  return d;
}

} // namespace spire::assembly
