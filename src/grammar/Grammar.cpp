// Lookups over the generated grammar tables.
#include "spire/grammar/Grammar.h"

#include "GrammarTablesData.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

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
  return nullptr; // past the largest opcode
}

const InstructionDesc *findInstruction(std::string_view name) {
  int i = findName(kGrammar.instructionNames, name);
  return i < 0 ? nullptr : &kGrammar.instructions[static_cast<size_t>(i)];
}

std::span<const InstructionDesc> instructions() { return kGrammar.instructions; }

SpecConstantOperation specConstantOperation(uint32_t opcode) {
  switch (opcode) {
  case uint32_t(Op::SConvert):
  case uint32_t(Op::UConvert):
  case uint32_t(Op::FConvert):
  case uint32_t(Op::SNegate):
  case uint32_t(Op::Not):
  case uint32_t(Op::IAdd):
  case uint32_t(Op::ISub):
  case uint32_t(Op::IMul):
  case uint32_t(Op::UDiv):
  case uint32_t(Op::SDiv):
  case uint32_t(Op::UMod):
  case uint32_t(Op::SRem):
  case uint32_t(Op::SMod):
  case uint32_t(Op::ShiftRightLogical):
  case uint32_t(Op::ShiftRightArithmetic):
  case uint32_t(Op::ShiftLeftLogical):
  case uint32_t(Op::BitwiseOr):
  case uint32_t(Op::BitwiseXor):
  case uint32_t(Op::BitwiseAnd):
  case uint32_t(Op::VectorShuffle):
  case uint32_t(Op::CompositeExtract):
  case uint32_t(Op::CompositeInsert):
  case uint32_t(Op::LogicalOr):
  case uint32_t(Op::LogicalAnd):
  case uint32_t(Op::LogicalNot):
  case uint32_t(Op::LogicalEqual):
  case uint32_t(Op::LogicalNotEqual):
  case uint32_t(Op::Select):
  case uint32_t(Op::IEqual):
  case uint32_t(Op::INotEqual):
  case uint32_t(Op::ULessThan):
  case uint32_t(Op::SLessThan):
  case uint32_t(Op::UGreaterThan):
  case uint32_t(Op::SGreaterThan):
  case uint32_t(Op::ULessThanEqual):
  case uint32_t(Op::SLessThanEqual):
  case uint32_t(Op::UGreaterThanEqual):
  case uint32_t(Op::SGreaterThanEqual):
  case uint32_t(Op::CooperativeMatrixLengthNV):
  case uint32_t(Op::CooperativeMatrixLengthKHR):
    return SpecConstantOperation::Any;
  case uint32_t(Op::QuantizeToF16):
    return SpecConstantOperation::ShaderOnly;
  case uint32_t(Op::ConvertFToS):
  case uint32_t(Op::ConvertSToF):
  case uint32_t(Op::ConvertFToU):
  case uint32_t(Op::ConvertUToF):
  case uint32_t(Op::ConvertPtrToU):
  case uint32_t(Op::ConvertUToPtr):
  case uint32_t(Op::GenericCastToPtr):
  case uint32_t(Op::PtrCastToGeneric):
  case uint32_t(Op::Bitcast):
  case uint32_t(Op::FNegate):
  case uint32_t(Op::FAdd):
  case uint32_t(Op::FSub):
  case uint32_t(Op::FMul):
  case uint32_t(Op::FDiv):
  case uint32_t(Op::FRem):
  case uint32_t(Op::FMod):
  case uint32_t(Op::AccessChain):
  case uint32_t(Op::InBoundsAccessChain):
  case uint32_t(Op::PtrAccessChain):
  case uint32_t(Op::InBoundsPtrAccessChain):
    return SpecConstantOperation::KernelOnly;
  default:
    return SpecConstantOperation::No;
  }
}

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
  // The table is laid out by the generator: the readers look up an enumerant for most operands
  // that are not ids, and a binary search over a kind's values was a tenth of reading a small
  // module.
  const uint64_t key = (uint64_t(kind) << 32) | value;
  const std::span<const detail::EnumerantSlot> slots = kGrammar.enumerantSlots;
  for (size_t i = static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> kGrammar.enumerantShift);;
       i = (i + 1) & (slots.size() - 1)) {
    const detail::EnumerantSlot &s = slots[i];
    if (s.kind == detail::EnumerantSlot::kNoKind)
      return nullptr;
    if (s.kind == static_cast<uint16_t>(kind) && s.value == value)
      return &kGrammar.operandKinds[s.kind].enumerants[s.index];
  }
}

std::optional<OperandKind> findOperandKind(std::string_view name) {
  for (unsigned k = 0; k < kGrammarOperandKindCount; ++k)
    if (kGrammar.operandKinds[k].name == name)
      return static_cast<OperandKind>(k);
  return std::nullopt;
}

const EnumerantDesc *findEnumerant(OperandKind kind, std::string_view name) {
  if (static_cast<unsigned>(kind) >= kGrammarOperandKindCount)
    return nullptr;
  const OperandKindDesc &k = operandKind(kind);
  int i = findName(k.enumerantNames, name);
  return i < 0 ? nullptr : &k.enumerants[static_cast<size_t>(i)];
}

std::vector<CapabilityInForce> capabilityClosure(std::span<const uint32_t> declared) {
  std::vector<CapabilityInForce> out;
  auto has = [&](uint32_t c) {
    return std::any_of(out.begin(), out.end(),
                       [&](const CapabilityInForce &f) { return f.capability == c; });
  };
  for (uint32_t i = 0; i < declared.size(); ++i)
    if (!has(declared[i]))
      out.push_back({declared[i], i});
  for (size_t i = 0; i < out.size(); ++i)
    if (const EnumerantDesc *e = findEnumerant(OperandKind::Capability, out[i].capability))
      for (Capability implied : e->availability.capabilities)
        if (!has(static_cast<uint32_t>(implied)))
          out.push_back({static_cast<uint32_t>(implied), out[i].declaredBy});
  return out;
}

std::span<const ExtInstSetDesc> extInstSets() { return kGrammar.extInstSets; }

const ExtInstSetDesc *extInstSet(ExtInstSet id) {
  if (id == ExtInstSet::None)
    return nullptr;
  return &kGrammar.extInstSets[static_cast<size_t>(id) - 1];
}

namespace {

const ExtInstSetDesc *lookUpExtInstSet(std::string_view importName) {
  // The grammar files are named after the import string in lower case, with '-' for '_',
  // and sometimes with or without a trailing version ("OpenCL.std" is opencl.std.100,
  // "NonSemantic.ClspvReflection.5" is nonsemantic.clspvreflection). A file without a version
  // is the living grammar of its set and serves every version of the import: newer grammars
  // have both nonsemantic.shader.debuginfo.100 and nonsemantic.shader.debuginfo, a superset
  // that modules importing "NonSemantic.Shader.DebugInfo.100" use (DebugTypeVectorIdEXT).
  // Every module that imports a set asks this, so the keys without their versions are made
  // once and the name is folded on the stack.
  static const std::vector<std::string_view> bareKeys = [] {
    std::vector<std::string_view> keys;
    for (const ExtInstSetDesc &set : kGrammar.extInstSets)
      keys.push_back(stripVersionSuffix(set.key));
    return keys;
  }();
  char buffer[64];
  std::string heap;
  char *out = buffer;
  if (importName.size() > sizeof buffer) {
    heap.resize(importName.size());
    out = heap.data();
  }
  for (size_t i = 0; i < importName.size(); ++i) {
    const char c = importName[i];
    out[i] = c == '_' ? '-' : c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  }
  const std::string_view key(out, importName.size());
  std::string_view bare = stripVersionSuffix(key);
  // The one set whose import name is not its file's name folded: "Arm.ExperimentalMLOperations.N"
  // imports extinst.arm.experimental-ml-operations (SPIRV-Tools knows it by that prefix).
  if (bare == "arm.experimentalmloperations")
    bare = "arm.experimental-ml-operations";
  const auto sets = kGrammar.extInstSets;
  for (const ExtInstSetDesc &set : sets)
    if (set.key == bare) // the set's file without a version (or the import's exact name)
      return &set;
  for (size_t i = 0; i < sets.size(); ++i)
    if (sets[i].key == key || bareKeys[i] == key)
      return &sets[i];
  return nullptr;
}

} // namespace

const ExtInstSetDesc *findExtInstSet(std::string_view importName) {
  // Reading a module asks once per import, and most modules import the same set or two: the
  // last answer is kept (per thread) for its name, which saves folding and comparing it again.
  // A pure memo: the sets are the grammar's compiled-in tables, which never change, so the
  // answer is the same with or without it (no mode, nothing a caller could observe).
  thread_local std::string lastName;
  thread_local const ExtInstSetDesc *lastSet = nullptr;
  if (!lastName.empty() && importName == lastName)
    return lastSet;
  const ExtInstSetDesc *set = lookUpExtInstSet(importName);
  if (importName.size() <= 64) { // (a long name is not worth keeping a copy of)
    lastName.assign(importName);
    lastSet = set;
  }
  return set;
}

const ExtInstDesc *findExtInst(const ExtInstSetDesc &set, uint32_t number) {
  auto all = set.instructions;
  // Most sets number their instructions without gaps (GLSL.std.450 from 1, OpenCL.std from 0):
  // the instruction is then at its number's offset from the first.
  if (!all.empty() && number >= all.front().opcode) {
    const size_t at = number - all.front().opcode;
    if (at < all.size() && all[at].opcode == number)
      return &all[at];
  }
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
