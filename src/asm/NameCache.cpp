#include "NameCache.h"

namespace spire::spvasm {

namespace {

// The grammar's own copy of `name` (the canonical name or the alias equal to it), which outlives
// the text; empty if neither equals it.
std::string_view grammarSpelling(std::string_view name, std::string_view canonical,
                                 std::span<const std::string_view> aliases) {
  if (canonical == name)
    return canonical;
  for (std::string_view alias : aliases)
    if (alias == name)
      return alias;
  return {};
}

} // namespace

NameCache &NameCache::forThisThread() {
  thread_local NameCache cache;
  return cache;
}

NameCache::Entry &NameCache::slot(uint32_t kind, std::string_view name) {
  uint32_t h = 2166136261u ^ kind;
  for (char c : name)
    h = (h ^ static_cast<uint8_t>(c)) * 16777619u;
  return entries_[(h ^ (h >> 15)) % entries_.size()];
}

template <class Desc>
const Desc *NameCache::cached(uint32_t kind, std::string_view name,
                              const Desc *(*find)(uint32_t, std::string_view)) {
  Entry &e = slot(kind, name);
  if (e.desc != nullptr && e.kind == kind && e.name == name)
    return static_cast<const Desc *>(e.desc);
  const Desc *d = find(kind, name);
  if (d != nullptr)
    if (std::string_view stored = grammarSpelling(name, d->name, d->aliases); !stored.empty())
      e = {stored, kind, d};
  return d;
}

const grammar::InstructionDesc *NameCache::instruction(std::string_view name) {
  return cached<grammar::InstructionDesc>(
      kInstruction, name, [](uint32_t, std::string_view n) { return grammar::findInstruction(n); });
}

const grammar::EnumerantDesc *NameCache::enumerant(grammar::OperandKind kind,
                                                   std::string_view name) {
  return cached<grammar::EnumerantDesc>(
      static_cast<uint32_t>(kind), name, [](uint32_t k, std::string_view n) {
        return grammar::findEnumerant(static_cast<grammar::OperandKind>(k), n);
      });
}

} // namespace spire::spvasm
