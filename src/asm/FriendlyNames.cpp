#include "FriendlyNames.h"

#include "LiteralFormat.h"

#include "spire/module/Opcodes.h"

#include <functional>
#include <optional>

namespace spire::spvasm {

using grammar::Op;

namespace {

// The names spirv-dis gives the targets of BuiltIn decorations; other built-ins get none.
std::string_view builtInName(uint32_t value) {
  using grammar::BuiltIn;
  switch (static_cast<BuiltIn>(value)) {
  case BuiltIn::Position:
    return "gl_Position";
  case BuiltIn::PointSize:
    return "gl_PointSize";
  case BuiltIn::ClipDistance:
    return "gl_ClipDistance";
  case BuiltIn::CullDistance:
    return "gl_CullDistance";
  case BuiltIn::VertexId:
    return "gl_VertexID";
  case BuiltIn::InstanceId:
    return "gl_InstanceID";
  case BuiltIn::PrimitiveId:
    return "gl_PrimitiveID";
  case BuiltIn::InvocationId:
    return "gl_InvocationID";
  case BuiltIn::Layer:
    return "gl_Layer";
  case BuiltIn::ViewportIndex:
    return "gl_ViewportIndex";
  case BuiltIn::TessLevelOuter:
    return "gl_TessLevelOuter";
  case BuiltIn::TessLevelInner:
    return "gl_TessLevelInner";
  case BuiltIn::TessCoord:
    return "gl_TessCoord";
  case BuiltIn::PatchVertices:
    return "gl_PatchVertices";
  case BuiltIn::FragCoord:
    return "gl_FragCoord";
  case BuiltIn::PointCoord:
    return "gl_PointCoord";
  case BuiltIn::FrontFacing:
    return "gl_FrontFacing";
  case BuiltIn::SampleId:
    return "gl_SampleID";
  case BuiltIn::SamplePosition:
    return "gl_SamplePosition";
  case BuiltIn::SampleMask:
    return "gl_SampleMask";
  case BuiltIn::FragDepth:
    return "gl_FragDepth";
  case BuiltIn::HelperInvocation:
    return "gl_HelperInvocation";
  case BuiltIn::NumWorkgroups:
    return "gl_NumWorkGroups";
  case BuiltIn::WorkgroupSize:
    return "gl_WorkGroupSize";
  case BuiltIn::WorkgroupId:
    return "gl_WorkGroupID";
  case BuiltIn::LocalInvocationId:
    return "gl_LocalInvocationID";
  case BuiltIn::GlobalInvocationId:
    return "gl_GlobalInvocationID";
  case BuiltIn::LocalInvocationIndex:
    return "gl_LocalInvocationIndex";
  case BuiltIn::WorkDim:
    return "WorkDim";
  case BuiltIn::GlobalSize:
    return "GlobalSize";
  case BuiltIn::EnqueuedWorkgroupSize:
    return "EnqueuedWorkgroupSize";
  case BuiltIn::GlobalOffset:
    return "GlobalOffset";
  case BuiltIn::GlobalLinearId:
    return "GlobalLinearId";
  case BuiltIn::SubgroupSize:
    return "SubgroupSize";
  case BuiltIn::SubgroupMaxSize:
    return "SubgroupMaxSize";
  case BuiltIn::NumSubgroups:
    return "NumSubgroups";
  case BuiltIn::NumEnqueuedSubgroups:
    return "NumEnqueuedSubgroups";
  case BuiltIn::SubgroupId:
    return "SubgroupId";
  case BuiltIn::SubgroupLocalInvocationId:
    return "SubgroupLocalInvocationId";
  case BuiltIn::VertexIndex:
    return "gl_VertexIndex";
  case BuiltIn::InstanceIndex:
    return "gl_InstanceIndex";
  case BuiltIn::SubgroupEqMask:
    return "SubgroupEqMaskKHR";
  case BuiltIn::SubgroupGeMask:
    return "SubgroupGeMaskKHR";
  case BuiltIn::SubgroupGtMask:
    return "SubgroupGtMaskKHR";
  case BuiltIn::SubgroupLeMask:
    return "SubgroupLeMaskKHR";
  case BuiltIn::SubgroupLtMask:
    return "SubgroupLtMaskKHR";
  case BuiltIn::BaseInstance:
    return "gl_BaseInstance";
  default:
    return {};
  }
}

// Whether an instruction of this opcode may name an id otherwise than by its number (or
// declares a type or constant that gets none: the count only sizes the name table).
bool mayGiveName(Op op) {
  return op == Op::Name || op == Op::Decorate || isTypeDeclaration(op) || isConstantCreation(op);
}

bool isNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// The string that starts at words[0], up to its nul (C string semantics).
void appendCString(std::string &out, std::span<const uint32_t> words) {
  for (uint32_t w : words)
    for (int b = 0; b < 4; ++b) {
      char c = static_cast<char>((w >> (8 * b)) & 0xFF);
      if (c == '\0')
        return;
      out += c;
    }
}

// The id whose number a name is ("12", not "012"), if any.
std::optional<uint32_t> idNumber(std::string_view s) {
  if (s.empty() || s.size() > 10 || (s[0] == '0' && s.size() > 1))
    return std::nullopt;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9')
      return std::nullopt;
    v = v * 10 + uint64_t(c - '0');
  }
  if (v == 0 || v > 0xFFFFFFFFu)
    return std::nullopt;
  return static_cast<uint32_t>(v);
}

uint32_t hashName(std::string_view s) {
  return static_cast<uint32_t>(std::hash<std::string_view>{}(s));
}

} // namespace

FriendlyNames::FriendlyNames(const Module &module) {
  const size_t moduleBytes = module.words().size() * 4;
  // Type names nest (a pointer to an array of vectors names all three), so a module built to
  // make them huge could need memory quadratic in its size. Past this budget, ids are named
  // by their number. The names of corpus modules take at most 0.41 bytes per module byte.
  arenaBudget_ = std::min<size_t>(0xFFFFFFF0u, (size_t(1) << 20) + 4 * moduleBytes);
  index_.reset(module.bound(), 2 * module.words().size() + 1024, kNone);
  // Room for the names that OpName, decorations, types and constants may give, so that the
  // table never grows.
  size_t expected = 0;
  for (Instruction inst : module)
    expected += mayGiveName(inst.opcode());
  size_t slots = 64;
  while (slots < 2 * expected + 2)
    slots *= 2;
  slots_.assign(slots, Slot{});
  names_.reserve(expected);
  arena_.reserve(expected * 12);
  for (Instruction inst : module)
    if (!inst.isRaw())
      visit(inst);
}

void FriendlyNames::suggestNumber(uint32_t value) { appendDecimal(suggestion_, value); }

void FriendlyNames::suggestName(uint32_t id) {
  std::string_view name = find(id);
  if (name.empty())
    suggestNumber(id);
  else
    suggestion_ += name;
}

void FriendlyNames::visit(const Instruction &inst) {
  const uint32_t result = inst.resultId();
  auto words = inst.words();
  auto enumName = [&](grammar::OperandKind kind, uint32_t value) {
    if (const grammar::EnumerantDesc *e = grammar::findEnumerant(kind, value)) {
      suggestion_ += e->name;
    } else {
      suggestion_ += "StorageClass";
      suggestNumber(value);
    }
  };
  auto named = [&](std::string_view name) {
    suggestion_ = name;
    save(result);
  };
  suggestion_.clear();
  switch (inst.opcode()) {
  case Op::Name:
    appendCString(suggestion_, words.subspan(2));
    save(words[1]);
    return;
  case Op::Decorate:
    if (words.size() > 3 && words[2] == static_cast<uint32_t>(grammar::Decoration::BuiltIn)) {
      std::string_view name = builtInName(words[3]);
      if (!name.empty()) {
        suggestion_ = name;
        save(words[1]);
      }
    }
    return;
  case Op::TypeVoid:
    return named("void");
  case Op::TypeBool:
    return named("bool");
  case Op::TypeInt: {
    const uint32_t width = words[2];
    std::string_view root;
    switch (width) {
    case 8:
      root = "char";
      break;
    case 16:
      root = "short";
      break;
    case 32:
      root = "int";
      break;
    case 64:
      root = "long";
      break;
    default:
      break;
    }
    if (words[3] == 0)
      suggestion_ += 'u';
    else if (root.empty())
      suggestion_ += 'i';
    if (root.empty())
      suggestNumber(width);
    else
      suggestion_ += root;
    return save(result);
  }
  case Op::TypeFloat:
    if (words.size() > 3) {
      switch (static_cast<grammar::FPEncoding>(words[3])) {
      case grammar::FPEncoding::BFloat16KHR:
        return named("bfloat16");
      case grammar::FPEncoding::Float8E4M3EXT:
        return named("fp8e4m3");
      case grammar::FPEncoding::Float8E5M2EXT:
        return named("fp8e5m2");
      default:
        break;
      }
    }
    switch (words[2]) {
    case 16:
      return named("half");
    case 32:
      return named("float");
    case 64:
      return named("double");
    default:
      suggestion_ = "fp";
      suggestNumber(words[2]);
      return save(result);
    }
  case Op::TypeVector:
  case Op::TypeMatrix:
    suggestion_ = inst.opcode() == Op::TypeVector ? "v" : "mat";
    suggestNumber(words[3]);
    suggestName(words[2]);
    return save(result);
  case Op::TypeArray:
    suggestion_ = "_arr_";
    suggestName(words[2]);
    suggestion_ += '_';
    suggestName(words[3]);
    return save(result);
  case Op::TypeRuntimeArray:
    suggestion_ = "_runtimearr_";
    suggestName(words[2]);
    return save(result);
  case Op::TypePointer:
    suggestion_ = "_ptr_";
    enumName(grammar::OperandKind::StorageClass, words[2]);
    suggestion_ += '_';
    suggestName(words[3]);
    return save(result);
  case Op::TypeUntypedPointerKHR: // spirv-dis v2026.4: the pointer's storage class alone
    suggestion_ = "_ptr_";
    enumName(grammar::OperandKind::StorageClass, words[2]);
    return save(result);
  case Op::TypePipe:
    suggestion_ = "Pipe";
    enumName(grammar::OperandKind::AccessQualifier, words[2]);
    return save(result);
  case Op::TypeEvent:
    return named("Event");
  case Op::TypeDeviceEvent:
    return named("DeviceEvent");
  case Op::TypeReserveId:
    return named("ReserveId");
  case Op::TypeQueue:
    return named("Queue");
  case Op::TypeOpaque:
    suggestion_ = "Opaque_";
    appendCString(suggestion_, words.subspan(2));
    if (suggestion_.size() == 7) // an empty name sanitizes to "_"
      suggestion_ += '_';
    return save(result);
  case Op::TypePipeStorage:
    return named("PipeStorage");
  case Op::TypeNamedBarrier:
    return named("NamedBarrier");
  case Op::TypeStruct:
    suggestion_ = "_struct_";
    suggestNumber(result);
    return save(result);
  case Op::ConstantTrue:
    return named("true");
  case Op::ConstantFalse:
    return named("false");
  case Op::Constant: {
    suggestName(inst.typeId());
    suggestion_ += '_';
    const size_t start = suggestion_.size();
    for (const binary::Operand &op : inst.operands())
      if (op.kind == grammar::OperandKind::TypedLiteralNumber)
        appendNumber(suggestion_, op.number, op.bitWidth, inst.operandWords(op));
    for (size_t i = start; i < suggestion_.size(); ++i)
      if (suggestion_[i] == '-')
        suggestion_[i] = 'n';
    return save(result);
  }
  default:
    if (result != 0)
      saveNumber(result);
    return;
  }
}

void FriendlyNames::saveNumber(uint32_t id) {
  if (index_.get(id) != kNone)
    return;
  if (numberNames_ == 0) { // nothing else looks like a number: the name is free
    index_.set(id, kNumber);
    return;
  }
  suggestion_.clear();
  suggestNumber(id);
  save(id);
}

void FriendlyNames::save(uint32_t id) {
  if (index_.get(id) != kNone)
    return;
  if (suggestion_.empty())
    suggestion_ = "_";
  for (char &c : suggestion_)
    if (!isNameChar(c))
      c = '_';
  if (arena_.size() + suggestion_.size() > arenaBudget_) {
    suggestion_.clear();
    suggestNumber(id);
  }

  uint32_t hash = hashName(suggestion_);
  size_t slot = findSlot(suggestion_, hash);
  uint32_t base; // index in names_ of the name taken
  if (slots_[slot].name != 0) {
    base = slots_[slot].name - 1;
  } else {
    std::optional<uint32_t> number = idNumber(suggestion_);
    if (!number || index_.get(*number) != kNumber)
      return assign(id, suggestion_, slot, hash);
    // Taken by the id of that number: into the table with it, to count its suffixes.
    base = insert(slot, suggestion_, hash);
    ++numberNames_;
  }

  // Taken: the first free "<name>_<k>". Every suffix below the base's counter is taken, and
  // names are never released, so the search goes on from there. Such names never look like
  // a number.
  for (uint32_t k = names_[base].nextSuffix;; ++k) {
    candidate_ = suggestion_;
    candidate_ += '_';
    appendDecimal(candidate_, k);
    uint32_t h = hashName(candidate_);
    size_t free = findSlot(candidate_, h);
    if (slots_[free].name == 0) {
      names_[base].nextSuffix = k + 1;
      return assign(id, candidate_, free, h);
    }
  }
}

void FriendlyNames::assign(uint32_t id, std::string_view name, size_t slot, uint32_t hash) {
  std::optional<uint32_t> number = idNumber(name);
  if (number && *number == id) {
    index_.set(id, kNumber);
    return;
  }
  if (number)
    ++numberNames_;
  index_.set(id, insert(slot, name, hash) + 1);
}

size_t FriendlyNames::findSlot(std::string_view name, uint32_t hash) const {
  const size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot &s = slots_[i];
    if (s.name == 0)
      return i;
    if (s.hash != hash)
      continue;
    const Name &n = names_[s.name - 1];
    if (n.length == name.size() && std::string_view(arena_).substr(n.offset, n.length) == name)
      return i;
  }
}

uint32_t FriendlyNames::insert(size_t slot, std::string_view name, uint32_t hash) {
  const uint32_t index = static_cast<uint32_t>(names_.size());
  names_.push_back({static_cast<uint32_t>(arena_.size()), static_cast<uint32_t>(name.size()), 0});
  arena_ += name;
  slots_[slot] = Slot{index + 1, hash};
  if (2 * names_.size() > slots_.size())
    grow();
  return index;
}

void FriendlyNames::grow() {
  std::vector<Slot> old(slots_.size() * 2);
  old.swap(slots_);
  const size_t mask = slots_.size() - 1;
  for (const Slot &s : old) {
    if (s.name == 0)
      continue;
    size_t i = s.hash & mask;
    while (slots_[i].name != 0)
      i = (i + 1) & mask;
    slots_[i] = s;
  }
}

} // namespace spire::spvasm
