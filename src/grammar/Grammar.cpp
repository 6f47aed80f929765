// Lookups over the generated grammar tables.
#include "spire/grammar/Grammar.h"

#include "GrammarTablesData.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace spire::grammar {

using detail::kGrammar;

namespace {

int findName(std::span<const NameIndex> names, std::string_view name) {
  auto it = std::lower_bound(names.begin(), names.end(), name,
                             [](const NameIndex &a, std::string_view b) { return a.name < b; });
  return it != names.end() && it->name == name ? it->index : -1;
}

// Drops a trailing ".<digits>" from an extended instruction set name.
std::string_view stripVersionSuffix(std::string_view s) {
  size_t dot = s.rfind('.');
  if (dot == std::string_view::npos || dot + 1 == s.size())
    return s;
  for (size_t i = dot + 1; i < s.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i])))
      return s;
  return s.substr(0, dot);
}

} // namespace

const InstructionDesc *findInstruction(uint32_t opcode) {
  auto dense = kGrammar.denseOpcodeIndex;
  if (opcode < dense.size()) {
    int16_t i = dense[opcode];
    return i < 0 ? nullptr : &kGrammar.instructions[static_cast<size_t>(i)];
  }
  auto all = kGrammar.instructions;
  auto it = std::lower_bound(all.begin(), all.end(), opcode,
                             [](const InstructionDesc &d, uint32_t op) { return d.opcode < op; });
  return it != all.end() && it->opcode == opcode ? &*it : nullptr;
}

const InstructionDesc *findInstruction(std::string_view name) {
  int i = findName(kGrammar.instructionNames, name);
  return i < 0 ? nullptr : &kGrammar.instructions[static_cast<size_t>(i)];
}

std::span<const InstructionDesc> instructions() { return kGrammar.instructions; }

const OperandKindDesc &operandKind(OperandKind kind) {
  return kGrammar.operandKinds[static_cast<size_t>(kind)];
}

std::string_view operandKindName(OperandKind kind) {
  switch (kind) {
  case OperandKind::TypedLiteralNumber:
    return "TypedLiteralNumber";
  case OperandKind::RawWords:
    return "RawWords";
  default:
    return operandKind(kind).name;
  }
}

const EnumerantDesc *findEnumerant(OperandKind kind, uint32_t value) {
  if (static_cast<unsigned>(kind) >= kGrammarOperandKindCount)
    return nullptr;
  auto all = operandKind(kind).enumerants;
  auto it = std::lower_bound(all.begin(), all.end(), value,
                             [](const EnumerantDesc &e, uint32_t v) { return e.value < v; });
  return it != all.end() && it->value == value ? &*it : nullptr;
}

const EnumerantDesc *findEnumerant(OperandKind kind, std::string_view name) {
  if (static_cast<unsigned>(kind) >= kGrammarOperandKindCount)
    return nullptr;
  const OperandKindDesc &k = operandKind(kind);
  int i = findName(k.enumerantNames, name);
  return i < 0 ? nullptr : &k.enumerants[static_cast<size_t>(i)];
}

std::span<const ExtInstSetDesc> extInstSets() { return kGrammar.extInstSets; }

const ExtInstSetDesc *extInstSet(ExtInstSet id) {
  if (id == ExtInstSet::None)
    return nullptr;
  return &kGrammar.extInstSets[static_cast<size_t>(id) - 1];
}

const ExtInstSetDesc *findExtInstSet(std::string_view importName) {
  // The grammar files are named after the import string in lower case, with '-' for '_',
  // and sometimes with or without a trailing version ("OpenCL.std" is opencl.std.100,
  // "NonSemantic.ClspvReflection.5" is nonsemantic.clspvreflection). Two different versions
  // are two different sets ("NonSemantic.Shader.DebugInfo.300" is not ...debuginfo.100).
  std::string key(importName);
  for (char &c : key)
    c = c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const ExtInstSetDesc &set : kGrammar.extInstSets)
    if (set.key == key)
      return &set;
  std::string_view bare = stripVersionSuffix(key);
  for (const ExtInstSetDesc &set : kGrammar.extInstSets)
    if (set.key == bare || stripVersionSuffix(set.key) == key)
      return &set;
  return nullptr;
}

const ExtInstDesc *findExtInst(const ExtInstSetDesc &set, uint32_t number) {
  auto all = set.instructions;
  auto it = std::lower_bound(all.begin(), all.end(), number,
                             [](const ExtInstDesc &d, uint32_t n) { return d.opcode < n; });
  return it != all.end() && it->opcode == number ? &*it : nullptr;
}

const ExtInstDesc *findExtInst(const ExtInstSetDesc &set, std::string_view name) {
  int i = findName(set.names, name);
  return i < 0 ? nullptr : &set.instructions[static_cast<size_t>(i)];
}

std::string_view extensionName(Extension ext) {
  return kGrammar.extensionNames[static_cast<size_t>(ext)];
}

std::optional<Extension> findExtension(std::string_view name) {
  auto all = kGrammar.extensionNames;
  auto it = std::lower_bound(all.begin(), all.end(), name);
  if (it == all.end() || *it != name)
    return std::nullopt;
  return static_cast<Extension>(it - all.begin());
}

std::span<const std::string_view> extensionNames() { return kGrammar.extensionNames; }

const GeneratorDesc *findGenerator(uint32_t toolId) {
  auto all = kGrammar.generators;
  auto it = std::lower_bound(all.begin(), all.end(), toolId,
                             [](const GeneratorDesc &g, uint32_t id) { return g.id < id; });
  return it != all.end() && it->id == toolId ? &*it : nullptr;
}

std::span<const GeneratorDesc> generators() { return kGrammar.generators; }

uint32_t grammarVersion() { return kGrammar.version; }
unsigned grammarRevision() { return kGrammar.revision; }

} // namespace spire::grammar
