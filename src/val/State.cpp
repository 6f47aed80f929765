#include "State.h"

#include <algorithm>

namespace spire::val {

State::State(const Module &module, const Options &options, Report &report)
    : m_(module), o_(options), report_(report), printer_(module) {
  scanModule();
}

State::~State() = default;

// One pass over the module for the facts most rules ask for.
void State::scanModule() {
  extensions_.assign(grammar::extensionNames().size(), false);
  instFunction_.assign(m_.size(), kNoIndex);
  const auto fns = m_.functions();
  for (uint32_t f = 0; f < fns.size(); ++f)
    std::fill(instFunction_.begin() + fns[f].begin, instFunction_.begin() + fns[f].end, f);
  functionAnalyses_.resize(fns.size());

  std::vector<uint32_t> declared;
  std::vector<std::pair<uint32_t, uint32_t>> modePairs; // (function, mode)
  for (Instruction inst : m_) {
    if (inst.isRaw())
      continue;
    maxOpcode_ = std::max(maxOpcode_, static_cast<uint32_t>(inst.opcode()));
    auto list = [&](Listed l) { listed_[static_cast<size_t>(l)].push_back(inst.index()); };
    switch (inst.opcode()) {
    case Op::Variable:
      list(Listed::Variables);
      break;
    case Op::Decorate:
    case Op::DecorateId:
    case Op::DecorateString:
    case Op::MemberDecorate:
    case Op::MemberDecorateString:
    case Op::GroupDecorate:
    case Op::GroupMemberDecorate:
    case Op::DecorationGroup:
      list(Listed::Annotations);
      break;
    case Op::TypeStruct:
      list(Listed::Structs);
      break;
    case Op::Line:
      list(Listed::Lines);
      break;
    case Op::ExtInst:
      list(Listed::ExtInsts);
      break;
    case Op::SpecConstantOp:
      if (inst.wordCount() >= 4)
        maxOpcode_ = std::max(maxOpcode_, inst.word(3));
      break;
    case Op::Capability:
      if (inst.wordCount() >= 2)
        declared.push_back(inst.word(1));
      break;
    case Op::Extension:
      if (!inst.operands().empty()) {
        std::string ext = inst.stringOperand(inst.operands()[0]);
        if (auto e = grammar::findExtension(ext))
          extensions_[static_cast<size_t>(*e)] = true;
        else
          unknownExtensions_.push_back(std::move(ext));
      }
      break;
    case Op::EntryPoint:
      entryPoints_.push_back(inst.index());
      break;
    case Op::ExecutionMode:
    case Op::ExecutionModeId:
      if (inst.wordCount() >= 3)
        modePairs.emplace_back(inst.word(1), inst.word(2));
      break;
    case Op::MemoryModel:
      if (inst.wordCount() >= 3 && !sawMemoryModel_) {
        sawMemoryModel_ = true;
        addressingModel_ = inst.word(1);
        memoryModel_ = inst.word(2);
      }
      break;
    default:
      break;
    }
  }

  // Capabilities: declared ones and, transitively, those they imply.
  for (const grammar::CapabilityInForce &c : grammar::capabilityClosure(declared)) {
    if (c.capability > 0x100000) // not a capability any grammar has; the availability rules
      continue;                  // report it
    if (c.capability >= capabilities_.size())
      capabilities_.resize(size_t(c.capability) + 1, 0);
    capabilities_[c.capability] = 1;
  }

  // Decorations, groups expanded by the module's one analysis; each id's ordered by the
  // decorating instruction, as the rules report them (a group's decoration of a member by the
  // OpGroupMemberDecorate that applies it).
  const DecorationIndex index(m_);
  const auto orderOf = [](const AppliedDecoration &d) {
    return d.group != kNoIndex && d.member != kNoIndex ? d.group : d.inst;
  };
  for (uint32_t id : index.ids()) {
    decoIds_.push_back(id);
    decoBegin_.push_back(static_cast<uint32_t>(decorations_.size()));
    std::span<const AppliedDecoration> of = index.of(id);
    decorations_.insert(decorations_.end(), of.begin(), of.end());
    std::stable_sort(decorations_.begin() + decoBegin_.back(), decorations_.end(),
                     [&](const AppliedDecoration &a, const AppliedDecoration &b) {
                       return orderOf(a) < orderOf(b);
                     });
  }
  decoBegin_.push_back(static_cast<uint32_t>(decorations_.size()));

  std::stable_sort(modePairs.begin(), modePairs.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
  for (size_t i = 0; i < modePairs.size(); ++i) {
    if (i == 0 || modePairs[i].first != modePairs[i - 1].first) {
      modeFunctions_.push_back(modePairs[i].first);
      modeBegin_.push_back(static_cast<uint32_t>(modes_.size()));
    }
    modes_.push_back(modePairs[i].second);
  }
  modeBegin_.push_back(static_cast<uint32_t>(modes_.size()));
}

std::span<const uint32_t> State::executionModes(uint32_t function) const {
  auto it = std::lower_bound(modeFunctions_.begin(), modeFunctions_.end(), function);
  if (it == modeFunctions_.end() || *it != function)
    return {};
  const size_t i = static_cast<size_t>(it - modeFunctions_.begin());
  return std::span<const uint32_t>(modes_).subspan(modeBegin_[i],
                                                   modeBegin_[i + 1] - modeBegin_[i]);
}

bool State::hasExecutionMode(uint32_t function, uint32_t mode) const {
  auto modes = executionModes(function);
  return std::find(modes.begin(), modes.end(), mode) != modes.end();
}

std::string State::enumerantName(grammar::OperandKind kind, uint32_t value) {
  const grammar::EnumerantDesc *e = grammar::findEnumerant(kind, value);
  return e ? std::string(e->name) : std::to_string(value);
}

std::string State::opcodeName(Op op) {
  const grammar::InstructionDesc *d = grammar::findInstruction(static_cast<uint32_t>(op));
  return d ? std::string(d->name) : "opcode " + std::to_string(static_cast<uint32_t>(op));
}

uint32_t State::stripArrays(uint32_t typeId) const {
  for (int depth = 0; depth < 64; ++depth) { // nesting is bounded; a cycle of ids is not
    std::optional<Instruction> d = def(typeId);
    if (!d || (d->opcode() != Op::TypeArray && d->opcode() != Op::TypeRuntimeArray) ||
        d->wordCount() < 3)
      break;
    typeId = d->word(2);
  }
  return typeId;
}

namespace {

// A problem is one line: control characters of literal strings (an OpName with a line break,
// which the disassembler prints as it is) are escaped.
std::string oneLine(std::string text) {
  if (std::none_of(text.begin(), text.end(),
                   [](char c) { return static_cast<unsigned char>(c) < 0x20; }))
    return text;
  std::string out;
  out.reserve(text.size() + 8);
  for (char c : text) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (u < 0x20) {
      static const char *kHex = "0123456789abcdef";
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += c;
    }
  }
  return out;
}

} // namespace

void State::error(uint32_t index, std::string_view rule, std::string message) {
  if (stopped_)
    return;
  Problem p;
  p.severity = Severity::Error;
  if (index != kNoIndex && index < m_.size()) {
    p.location = Location::binary(m_.inst(index).wordOffset(), index);
    p.instruction = oneLine(printer_.print(index));
  }
  p.message = oneLine(std::move(message));
  p.rule = rule;
  report_.problems.push_back(std::move(p));
  ++errors_;
  if (o_.maxErrors != 0 && errors_ >= o_.maxErrors) {
    stopped_ = true;
    report_.truncated = true;
  }
}

void State::warning(uint32_t index, std::string_view rule, std::string message) {
  Problem p;
  p.severity = Severity::Warning;
  if (index != kNoIndex && index < m_.size()) {
    p.location = Location::binary(m_.inst(index).wordOffset(), index);
    p.instruction = oneLine(printer_.print(index));
  }
  p.message = oneLine(std::move(message));
  p.rule = rule;
  report_.problems.push_back(std::move(p));
}

std::string State::name(uint32_t id) const { return printer_.id(id); }
std::string State::text(uint32_t index) const { return printer_.print(index); }

std::optional<Instruction> State::def(uint32_t id) const {
  const uint32_t i = m_.defIndex(id);
  if (i == kNoIndex)
    return std::nullopt;
  return m_.inst(i);
}

bool State::isType(uint32_t id) const { return declaresType(defOpcode(id)); }

bool State::isPointerType(uint32_t id) const {
  const Op op = defOpcode(id);
  return op == Op::TypePointer;
}

bool State::isCooperativeType(uint32_t id) const { return declaresCooperativeType(defOpcode(id)); }

bool State::isSignedInt(uint32_t id) const {
  auto d = def(componentType(id));
  return d && d->opcode() == Op::TypeInt && d->wordCount() >= 4 && d->word(3) == 1;
}

uint32_t State::componentType(uint32_t typeId) const {
  auto d = def(typeId);
  if (d && d->opcode() == Op::TypeVector && d->wordCount() >= 3)
    return d->word(2);
  return typeId;
}

uint32_t State::componentCount(uint32_t typeId) const {
  auto d = def(typeId);
  if (!d)
    return 0;
  switch (d->opcode()) {
  case Op::TypeVector:
    return d->wordCount() >= 4 ? d->word(3) : 0;
  case Op::TypeBool:
  case Op::TypeInt:
  case Op::TypeFloat:
    return 1;
  default:
    return 0;
  }
}

uint32_t State::bitWidth(uint32_t typeId) const {
  auto d = def(componentType(typeId));
  if (d && (d->opcode() == Op::TypeInt || d->opcode() == Op::TypeFloat) && d->wordCount() >= 3)
    return d->word(2);
  return 0;
}

uint32_t State::pointeeType(uint32_t pointerType) const {
  auto d = def(pointerType);
  if (d && d->opcode() == Op::TypePointer && d->wordCount() >= 4)
    return d->word(3);
  return 0;
}

bool State::holdsType(uint32_t typeId, const std::function<bool(uint32_t)> &is,
                      std::unordered_map<uint32_t, bool> &memo, int depth) const {
  if (depth > 64 || typeId == 0)
    return false;
  if (auto it = memo.find(typeId); it != memo.end())
    return it->second;
  bool result = is(typeId);
  std::optional<Instruction> d = def(typeId);
  if (!result && d && !d->isRaw()) {
    if (d->opcode() == Op::TypeArray || d->opcode() == Op::TypeRuntimeArray)
      result = d->wordCount() >= 3 && holdsType(d->word(2), is, memo, depth + 1);
    else if (d->opcode() == Op::TypeStruct)
      for (uint32_t w = 2; w < d->wordCount() && !result; ++w)
        result = holdsType(d->word(w), is, memo, depth + 1);
  }
  memo[typeId] = result;
  return result;
}

std::optional<uint32_t> State::storageClass(uint32_t pointerType) const {
  auto d = def(pointerType);
  if (d && (d->opcode() == Op::TypePointer || d->opcode() == Op::TypeForwardPointer) &&
      d->wordCount() >= 3)
    return d->word(2);
  return std::nullopt;
}

std::optional<uint64_t> State::constantValue(uint32_t id) const {
  // Asked of most id operands that may be constants (scopes, semantics, indices): the constant
  // and its OpTypeInt are looked up once each.
  const uint32_t at = m_.defIndex(id);
  if (at == kNoIndex)
    return std::nullopt;
  const Instruction d = m_.inst(at);
  if (d.opcode() != Op::Constant || d.wordCount() < 4)
    return std::nullopt;
  const uint32_t typeAt = m_.defIndex(d.typeId());
  if (typeAt == kNoIndex)
    return std::nullopt;
  const Instruction type = m_.inst(typeAt);
  if (type.opcode() != Op::TypeInt)
    return std::nullopt;
  const uint32_t width = type.wordCount() >= 3 ? type.word(2) : 0;
  if (width > 64)
    return std::nullopt;
  uint64_t v = d.word(3);
  if (width > 32 && d.wordCount() >= 5)
    v |= uint64_t(d.word(4)) << 32;
  if (width < 64 && width > 0)
    v &= (uint64_t(1) << width) - 1;
  return v;
}

bool State::hasCapability(uint32_t capability) const {
  return capability < capabilities_.size() && capabilities_[capability];
}

bool State::hasExtension(grammar::Extension e) const {
  const size_t i = static_cast<size_t>(e);
  return i < extensions_.size() && extensions_[i];
}

bool State::hasExtension(std::string_view name) const {
  if (std::optional<grammar::Extension> e = grammar::findExtension(name))
    return hasExtension(*e);
  return std::find(unknownExtensions_.begin(), unknownExtensions_.end(), name) !=
         unknownExtensions_.end();
}

std::span<const AppliedDecoration> State::decorations(uint32_t id) const {
  auto it = std::lower_bound(decoIds_.begin(), decoIds_.end(), id);
  if (it == decoIds_.end() || *it != id)
    return {};
  const size_t k = static_cast<size_t>(it - decoIds_.begin());
  return std::span<const AppliedDecoration>(decorations_)
      .subspan(decoBegin_[k], decoBegin_[k + 1] - decoBegin_[k]);
}

bool State::hasDecoration(uint32_t id, uint32_t decoration, int member) const {
  // A group's member decorations do not travel (the index leaves them out), and a group's
  // decorations reach members only through OpGroupMemberDecorate.
  const uint32_t wanted = member < 0 ? kNoIndex : uint32_t(member);
  for (const AppliedDecoration &d : decorations(id)) {
    if (d.member != wanted)
      continue;
    const Instruction inst = m_.inst(d.inst);
    const bool isMember =
        inst.opcode() == Op::MemberDecorate || inst.opcode() == Op::MemberDecorateString;
    if (inst.wordCount() > (isMember ? 3u : 2u) && inst.word(isMember ? 3 : 2) == decoration)
      return true;
  }
  return false;
}

const CallGraph &State::callGraph() const {
  if (!callGraph_)
    callGraph_ = std::make_unique<CallGraph>(*this);
  return *callGraph_;
}

const DefUse &State::defUse() const {
  if (!defUse_)
    defUse_ = std::make_unique<DefUse>(m_);
  return *defUse_;
}

void State::functionTypeUsesDone() {
  // Grouped by type, in instruction order within a type (the walk's order).
  std::stable_sort(functionTypeUses_.begin(), functionTypeUses_.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
  functionTypeUsers_.clear();
  functionTypeUseIndex_.clear();
  for (size_t i = 0; i < functionTypeUses_.size(); ++i) {
    if (i == 0 || functionTypeUses_[i].first != functionTypeUses_[i - 1].first)
      functionTypeUseIndex_.push_back({functionTypeUses_[i].first, uint32_t(i)});
    functionTypeUsers_.push_back(functionTypeUses_[i].second);
  }
  functionTypeUses_.clear();
  functionTypeUses_.shrink_to_fit();
  functionTypeUsesDone_ = true;
}

std::optional<std::span<const uint32_t>> State::functionTypeUses(uint32_t id) const {
  if (!functionTypeUsesDone_)
    return std::nullopt;
  auto it = std::lower_bound(functionTypeUseIndex_.begin(), functionTypeUseIndex_.end(), id,
                             [](const auto &e, uint32_t v) { return e.first < v; });
  if (it == functionTypeUseIndex_.end() || it->first != id)
    return std::span<const uint32_t>();
  const size_t end =
      it + 1 == functionTypeUseIndex_.end() ? functionTypeUsers_.size() : (it + 1)->second;
  return std::span<const uint32_t>(functionTypeUsers_).subspan(it->second, end - it->second);
}

const Cfg &State::cfg(uint32_t f) const {
  FunctionAnalyses &a = functionAnalyses_[f];
  if (!a.cfg)
    a.cfg = std::make_unique<Cfg>(m_, m_.functions()[f]);
  return *a.cfg;
}

const DominatorTree &State::dominators(uint32_t f) const {
  FunctionAnalyses &a = functionAnalyses_[f];
  if (!a.dom)
    a.dom = std::make_unique<DominatorTree>(cfg(f), DominatorTree::Kind::Dominators);
  return *a.dom;
}

const DominatorTree &State::postDominators(uint32_t f) const {
  FunctionAnalyses &a = functionAnalyses_[f];
  if (!a.postDom)
    a.postDom = std::make_unique<DominatorTree>(cfg(f), DominatorTree::Kind::PostDominators);
  return *a.postDom;
}

} // namespace spire::val
