// Rules: decorations, decoration groups and linkage (SPIR-V 2.16, 3.32.2 annotation
// instructions, OpMemberName), and the explicit layout of blocks (2.16.2).
#include "Rules.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace spire::val {

namespace {

std::string decoration(uint32_t d) {
  return State::enumerantName(grammar::OperandKind::Decoration, d);
}

using grammar::Decoration;
using grammar::StorageClass;

constexpr uint32_t kStorageTileImageEXT = uint32_t(grammar::StorageClass::TileImageEXT);

uint32_t structMemberCount(const Instruction &type) { return type.wordCount() - 2; }

// Checks that `structId` names a structure with more than `member` members. `what` names the
// instruction in messages.
bool checkStructMember(State &s, const Instruction &inst, std::string_view rule,
                       std::string_view what, uint32_t structId, uint32_t member) {
  auto type = s.def(structId);
  if (!type || type->isRaw() || type->opcode() != Op::TypeStruct) {
    s.error(inst.index(), rule,
            std::string(what) + " must name a structure type, but " + s.name(structId) +
                " is not one");
    return false;
  }
  const uint32_t count = structMemberCount(*type);
  if (member >= count) {
    s.error(inst.index(), rule,
            std::string(what) + " names member " + std::to_string(member) + " of structure " +
                s.name(structId) + ", which has " + std::to_string(count) +
                " members (the largest index is " +
                (count == 0 ? std::string("none") : std::to_string(count - 1)) + ")");
    return false;
  }
  return true;
}

// Decorations that apply to whole objects or types, never to a structure member.
bool notForMembers(uint32_t d) {
  switch (static_cast<Decoration>(d)) {
  case Decoration::SpecId:
  case Decoration::Block:
  case Decoration::BufferBlock:
  case Decoration::ArrayStride:
  case Decoration::GLSLShared:
  case Decoration::GLSLPacked:
  case Decoration::CPacked:
  case Decoration::Aliased:
  case Decoration::Constant:
  case Decoration::Uniform:
  case Decoration::UniformId:
  case Decoration::SaturatedConversion:
  case Decoration::Index:
  case Decoration::Binding:
  case Decoration::DescriptorSet:
  case Decoration::FuncParamAttr:
  case Decoration::FPRoundingMode:
  case Decoration::FPFastMathMode:
  case Decoration::LinkageAttributes:
  case Decoration::NoContraction:
  case Decoration::InputAttachmentIndex:
  case Decoration::Alignment:
  case Decoration::MaxByteOffset:
  case Decoration::AlignmentId:
  case Decoration::MaxByteOffsetId:
  case Decoration::NoSignedWrap:
  case Decoration::NoUnsignedWrap:
  case Decoration::NonUniform:
  case Decoration::RestrictPointer:
  case Decoration::AliasedPointer:
  case Decoration::CounterBuffer:
    return true;
  default:
    return false;
  }
}

bool isConstantOp(Op op) {
  const grammar::InstructionDesc *d = grammar::findInstruction(uint32_t(op));
  return d != nullptr && d->cls == grammar::InstructionClass::ConstantCreation;
}

// True when the decoration's parameters are ids (UniformId, AlignmentId, CounterBuffer, ...):
// those go with OpDecorateId, the others with OpDecorate.
bool takesIds(uint32_t d) {
  const grammar::EnumerantDesc *e = grammar::findEnumerant(grammar::OperandKind::Decoration, d);
  if (e == nullptr)
    return false;
  for (const grammar::OperandDesc &p : e->parameters)
    if (grammar::operandCategory(p.kind) == grammar::OperandCategory::Id)
      return true;
  return false;
}

// OpDecorate %target Decoration ...: the kind of target each decoration needs (3.32.2 and the
// decoration table 3.20), and in Vulkan the storage classes some of them need.
// `targetId` is the decoration's target, or (`at` an OpGroupDecorate) one of its group's.
void checkDecorationTarget(State &s, const Instruction &inst, uint32_t targetId, uint32_t at) {
  if (inst.wordCount() < 3)
    return;
  const uint32_t deco = inst.word(2);
  auto target = s.def(targetId);
  if (!target || target->isRaw() || target->opcode() == Op::DecorationGroup)
    return;
  const Op op = target->opcode();
  const std::string rule = "3.32.2 / 3.20 " + decoration(deco);
  if (inst.opcode() == Op::DecorateId && !takesIds(deco)) {
    s.error(at, "3.32.2 OpDecorateId",
            "the " + decoration(deco) +
                " decoration has no id parameters: use OpDecorate, not OpDecorateId");
    return;
  }
  if (inst.opcode() == Op::Decorate && takesIds(deco)) {
    s.error(at, "3.32.2 OpDecorate",
            "the " + decoration(deco) +
                " decoration takes id parameters: use OpDecorateId, not OpDecorate");
    return;
  }
  if (s.isVulkan() &&
      (deco == uint32_t(Decoration::GLSLShared) || deco == uint32_t(Decoration::GLSLPacked))) {
    s.error(at, "VUID-StandaloneSpirv-GLSLShared-04669",
            "the " + decoration(deco) + " decoration is not allowed in Vulkan");
    return;
  }
  if (deco == uint32_t(Decoration::FPFastMathMode) &&
      s.hasDecoration(targetId, uint32_t(Decoration::NoContraction))) {
    s.error(at, rule,
            s.name(targetId) + " cannot be decorated both FPFastMathMode and NoContraction");
    return;
  }
  auto fail = [&](std::string_view rule, std::string_view need) {
    s.error(at, rule,
            "the " + decoration(deco) + " decoration cannot apply to " + s.name(targetId) +
                ": its target " + std::string(need));
  };
  if (inst.opcode() == Op::Decorate &&
      (deco == uint32_t(Decoration::RowMajor) || deco == uint32_t(Decoration::ColMajor) ||
       deco == uint32_t(Decoration::MatrixStride))) {
    s.error(at, rule,
            "the " + decoration(deco) +
                " decoration applies only to structure members (use OpMemberDecorate)");
    return;
  }
  // A variable: OpVariable, or OpUntypedVariableKHR (SPV_KHR_untyped_pointers), whose pointer is
  // untyped (SPV_EXT_descriptor_heap's ResourceHeapEXT and SamplerHeapEXT built-ins are such).
  const bool variable = op == Op::Variable || op == Op::UntypedVariableKHR;
  if (deco == uint32_t(Decoration::RelaxedPrecision) && declaresType(op)) {
    fail(rule, "must be an object, not a type");
    return;
  }
  switch (static_cast<Decoration>(deco)) {
  case Decoration::SpecId:
    if (op != Op::SpecConstant && op != Op::SpecConstantTrue && op != Op::SpecConstantFalse)
      return fail(rule, "must be a scalar specialization constant");
    break;
  case Decoration::Block:
  case Decoration::BufferBlock:
  case Decoration::GLSLShared:
  case Decoration::GLSLPacked:
  case Decoration::CPacked:
    if (op != Op::TypeStruct)
      return fail(rule, "must be a structure type");
    break;
  case Decoration::ArrayStride:
    if (op != Op::TypeArray && op != Op::TypeRuntimeArray && op != Op::TypePointer)
      return fail(rule, "must be an array or pointer type");
    break;
  case Decoration::BuiltIn:
    if (!variable && !isConstantOp(op))
      return fail(rule, "must be a variable, a structure member or a constant");
    if (s.hasCapability(grammar::Capability::Shader) && inst.wordCount() >= 4 &&
        inst.word(3) == uint32_t(grammar::BuiltIn::WorkgroupSize)) {
      if (!isConstantOp(op))
        return fail(rule, "must be a constant for WorkgroupSize");
      // The WorkgroupSize built-in is "a 3-component vector of 32-bit integers" (Vulkan
      // VUID-WorkgroupSize-WorkgroupSize-04427; the OpenCL and SPIR-V uses alike).
      const uint32_t type = s.typeOf(targetId);
      if (type != 0 && (!s.isVectorType(type) || s.componentCount(type) != 3 ||
                        !s.isIntScalarOrVector(type) || s.bitWidth(type) != 32))
        return fail(s.isVulkan() ? "VUID-WorkgroupSize-WorkgroupSize-04427" : rule,
                    "must be a vector of three 32-bit integers for WorkgroupSize");
    } else if (!variable) {
      return fail(rule, "must be a variable");
    }
    break;
  case Decoration::NoPerspective:
  case Decoration::Flat:
  case Decoration::Patch:
  case Decoration::Centroid:
  case Decoration::Sample:
  case Decoration::Restrict:
  case Decoration::Aliased:
  case Decoration::Volatile:
  case Decoration::Coherent:
  case Decoration::NonWritable:
  case Decoration::NonReadable:
  case Decoration::XfbBuffer:
  case Decoration::XfbStride:
  case Decoration::Component:
  case Decoration::Stream:
  case Decoration::RestrictPointer:
  case Decoration::AliasedPointer:
    // SPV_EXT_descriptor_heap's buffer pointers declare memory objects too.
    if (op == Op::UntypedVariableKHR || op == Op::BufferPointerEXT)
      break;
    if (op != Op::Variable && op != Op::FunctionParameter)
      return fail(rule, "must be a memory object declaration (a variable or function parameter)");
    if (!s.isPointerType(target->typeId()))
      return fail(rule, "must be of pointer type");
    break;
  case Decoration::Invariant:
  case Decoration::Constant:
  case Decoration::Location:
  case Decoration::Index:
  case Decoration::Binding:
  case Decoration::DescriptorSet:
  case Decoration::InputAttachmentIndex:
    if (!variable)
      return fail(rule, "must be a variable");
    break;
  default:
    break;
  }
  if (!s.isVulkan())
    return;
  // The storage class of the target (a variable: its type is a pointer). Targets whose type is
  // not defined are left to the id rules.
  auto type = s.def(target->typeId());
  if (!type || type->isRaw() || type->opcode() != Op::TypePointer || type->wordCount() < 4)
    return;
  const uint32_t sc = type->word(2);
  switch (static_cast<Decoration>(deco)) {
  case Decoration::Location:
  case Decoration::Component:
    // Interfaces between stages, ray tracing payloads and tile images.
    if (sc != uint32_t(StorageClass::Input) && sc != uint32_t(StorageClass::Output) &&
        sc != uint32_t(StorageClass::RayPayloadKHR) &&
        sc != uint32_t(StorageClass::IncomingRayPayloadKHR) &&
        sc != uint32_t(StorageClass::HitAttributeKHR) &&
        sc != uint32_t(StorageClass::CallableDataKHR) &&
        sc != uint32_t(StorageClass::IncomingCallableDataKHR) &&
        sc != uint32_t(StorageClass::ShaderRecordBufferKHR) &&
        sc != uint32_t(StorageClass::HitObjectAttributeNV) && sc != kStorageTileImageEXT)
      fail("VUID-StandaloneSpirv-Location-06672",
           "must be in an interface (Input, Output), ray tracing or tile image storage class");
    break;
  case Decoration::Binding:
  case Decoration::DescriptorSet:
    if (sc != uint32_t(StorageClass::StorageBuffer) && sc != uint32_t(StorageClass::Uniform) &&
        sc != uint32_t(StorageClass::UniformConstant))
      fail("VUID-StandaloneSpirv-DescriptorSet-06491",
           "must be in the StorageBuffer, Uniform or UniformConstant storage class");
    break;
  case Decoration::Flat:
  case Decoration::NoPerspective:
  case Decoration::Centroid:
  case Decoration::Sample:
    if (sc != uint32_t(StorageClass::Input) && sc != uint32_t(StorageClass::Output))
      fail("VUID-StandaloneSpirv-Flat-04670", "must be in the Input or Output storage class");
    break;
  case Decoration::Index:
    if (sc != uint32_t(StorageClass::Output))
      fail(rule, "must be in the Output storage class");
    break;
  case Decoration::Invariant:
    if (sc != uint32_t(StorageClass::Input) && sc != uint32_t(StorageClass::Output))
      fail("VUID-StandaloneSpirv-Invariant-04677", "must be in the Input or Output storage class");
    break;
  default:
    break;
  }
}

// --- Explicit layout of blocks ------------------------------------------------------------------

struct LayoutChecker {
  State &s;

  // The decoration instructions of `id` that name it directly (not through a group).
  template <class F> bool anyDecoration(uint32_t id, F &&f) {
    for (const AppliedDecoration &d : s.decorations(id)) {
      Instruction deco = s.module().inst(d.inst);
      if (deco.isRaw() || deco.wordCount() < 3)
        continue;
      if (f(deco))
        return true;
    }
    return false;
  }

  // True when some member of structure `id` (or of a structure nested in it, through arrays)
  // has no Offset decoration.
  std::unordered_map<uint32_t, bool> missingOffsetMemo;
  bool missingOffset(uint32_t id, int depth = 0) {
    if (auto it = missingOffsetMemo.find(id); it != missingOffsetMemo.end())
      return it->second;
    missingOffsetMemo[id] = false; // while in progress
    const bool r = missingOffsetOnce(id, depth);
    missingOffsetMemo[id] = r;
    return r;
  }
  bool missingOffsetOnce(uint32_t id, int depth) {
    if (depth > 32)
      return false;
    auto inst = s.def(id);
    if (!inst || inst->isRaw())
      return false;
    std::vector<uint32_t> members;
    std::vector<bool> has;
    if (inst->opcode() == Op::TypeStruct) {
      for (uint32_t w = 2; w < inst->wordCount(); ++w)
        members.push_back(inst->word(w));
      has.assign(members.size(), false);
      bool unknown = false; // decorations reached through groups: not checked
      for (const AppliedDecoration &d : s.decorations(id)) {
        Instruction deco = s.module().inst(d.inst);
        if (deco.isRaw())
          continue;
        if (deco.opcode() == Op::MemberDecorate && deco.wordCount() >= 5 && deco.word(1) == id &&
            deco.word(3) == uint32_t(Decoration::Offset)) {
          if (deco.word(2) < has.size())
            has[deco.word(2)] = true;
        } else if (deco.word(1) != id) {
          unknown = true;
        }
      }
      if (unknown)
        return false;
    } else if (inst->opcode() == Op::TypeArray || inst->opcode() == Op::TypeRuntimeArray) {
      if (inst->wordCount() >= 3)
        members.push_back(inst->word(2));
    }
    for (uint32_t m : members)
      if (missingOffset(m, depth + 1))
        return true;
    for (bool b : has)
      if (!b)
        return true;
    return false;
  }

  // True when every array member (of the structure and of structures nested directly in it)
  // has an ArrayStride decoration.
  std::unordered_map<uint32_t, bool> arraysHaveStrideMemo;
  bool arraysHaveStride(uint32_t id, int depth = 0) {
    if (auto it = arraysHaveStrideMemo.find(id); it != arraysHaveStrideMemo.end())
      return it->second;
    arraysHaveStrideMemo[id] = true; // while in progress
    const bool r = arraysHaveStrideOnce(id, depth);
    arraysHaveStrideMemo[id] = r;
    return r;
  }
  bool arraysHaveStrideOnce(uint32_t id, int depth) {
    auto inst = s.def(id);
    if (depth > 32 || !inst || inst->isRaw() || inst->opcode() != Op::TypeStruct)
      return true;
    for (uint32_t w = 2; w < inst->wordCount(); ++w) {
      const uint32_t m = inst->word(w);
      if (s.defOpcode(m) == Op::TypeArray && !anyDecoration(m, [&](const Instruction &d) {
            return (d.opcode() == Op::Decorate && d.word(2) == uint32_t(Decoration::ArrayStride)) ||
                   d.opcode() != Op::Decorate; // through a group: assume it has one
          }))
        return false;
      if (s.defOpcode(m) == Op::TypeStruct && !arraysHaveStride(m, depth + 1))
        return false;
    }
    return true;
  }

  // True when every matrix member (arrays of matrices included) has a MatrixStride member
  // decoration (`majorness` false), or a RowMajor or ColMajor one (`majorness` true): explicit
  // layout (2.2.2) gives matrix members both.
  std::unordered_map<uint32_t, bool> matricesDecoratedMemo[2];
  bool matricesDecorated(uint32_t id, bool majorness, int depth = 0) {
    auto &memo = matricesDecoratedMemo[majorness];
    if (auto it = memo.find(id); it != memo.end())
      return it->second;
    memo[id] = true; // while in progress
    const bool r = matricesDecoratedOnce(id, majorness, depth);
    memo[id] = r;
    return r;
  }
  bool matricesDecoratedOnce(uint32_t id, bool majorness, int depth) {
    auto inst = s.def(id);
    if (depth > 32 || !inst || inst->isRaw() || inst->opcode() != Op::TypeStruct)
      return true;
    bool groups = false;
    std::set<uint32_t> decorated;
    for (const AppliedDecoration &d : s.decorations(id)) {
      Instruction deco = s.module().inst(d.inst);
      if (deco.isRaw())
        continue;
      if (deco.word(1) != id)
        groups = true;
      else if (deco.opcode() == Op::MemberDecorate && deco.wordCount() >= 4 &&
               (majorness ? deco.word(3) == uint32_t(Decoration::RowMajor) ||
                                deco.word(3) == uint32_t(Decoration::ColMajor)
                          : deco.word(3) == uint32_t(Decoration::MatrixStride)))
        decorated.insert(deco.word(2));
    }
    for (uint32_t w = 2; w < inst->wordCount(); ++w) {
      uint32_t m = inst->word(w);
      for (int i = 0; i < 32; ++i) {
        auto a = s.def(m);
        if (!a || a->isRaw() || a->wordCount() < 3 ||
            (a->opcode() != Op::TypeArray && a->opcode() != Op::TypeRuntimeArray))
          break;
        m = a->word(2);
      }
      if (s.defOpcode(m) == Op::TypeMatrix && !groups && !decorated.count(w - 2))
        return false;
    }
    for (uint32_t w = 2; w < inst->wordCount(); ++w)
      if (s.defOpcode(inst->word(w)) == Op::TypeStruct &&
          !matricesDecorated(inst->word(w), majorness, depth + 1))
        return false;
    return true;
  }
};

// --- Block layout rules (2.16.2 "Offset and Stride Assignment" of the Vulkan specification, as
// spirv-val applies them: standard uniform/storage buffer layout, relaxed in Vulkan 1.1 and later).

uint32_t alignUp(uint32_t x, uint32_t a) { return a == 0 ? x : (x + a - 1) / a * a; }

struct MemberLayout {
  bool rowMajor = false;
  uint32_t matrixStride = 0;
};

struct BlockLayout {
  State &s;
  bool blockRules; // uniform buffer rules (round arrays and structures up to 16)
  bool relaxed;    // VK_KHR_relaxed_block_layout (core in Vulkan 1.1)
  uint32_t pointerSize;
  std::string failure; // the first problem found
  int budget = 200000; // recursion guard: past it, nothing is reported

  std::vector<uint32_t> members(uint32_t id) {
    std::vector<uint32_t> out;
    auto d = s.def(id);
    if (d && !d->isRaw() && d->opcode() == Op::TypeStruct)
      for (uint32_t w = 2; w < d->wordCount(); ++w)
        out.push_back(d->word(w));
    return out;
  }

  // The layout decorations of each member of a structure, gathered in one pass.
  struct Member {
    MemberLayout layout;
    std::optional<uint32_t> offset;
  };
  std::unordered_map<uint32_t, std::vector<Member>> &cache;

  const std::vector<Member> &structMembers(uint32_t structId) {
    auto it = cache.find(structId);
    if (it != cache.end())
      return it->second;
    std::vector<Member> ms(members(structId).size());
    for (const AppliedDecoration &d : s.decorations(structId)) {
      Instruction deco = s.module().inst(d.inst);
      if (deco.isRaw() || deco.opcode() != Op::MemberDecorate || deco.wordCount() < 4 ||
          deco.word(1) != structId || deco.word(2) >= ms.size())
        continue;
      Member &m = ms[deco.word(2)];
      if (deco.word(3) == uint32_t(Decoration::RowMajor))
        m.layout.rowMajor = true;
      else if (deco.word(3) == uint32_t(Decoration::ColMajor))
        m.layout.rowMajor = false;
      else if (deco.word(3) == uint32_t(Decoration::MatrixStride) && deco.wordCount() >= 5)
        m.layout.matrixStride = deco.word(4);
      else if (deco.word(3) == uint32_t(Decoration::Offset) && deco.wordCount() >= 5)
        m.offset = deco.word(4);
    }
    return cache.emplace(structId, std::move(ms)).first->second;
  }

  MemberLayout memberLayout(uint32_t structId, uint32_t member) {
    const std::vector<Member> &ms = structMembers(structId);
    return member < ms.size() ? ms[member].layout : MemberLayout{};
  }

  std::optional<uint32_t> memberOffset(uint32_t structId, uint32_t member) {
    const std::vector<Member> &ms = structMembers(structId);
    return member < ms.size() ? ms[member].offset : std::nullopt;
  }

  uint32_t arrayStride(uint32_t id) {
    uint32_t stride = 0;
    for (const AppliedDecoration &d : s.decorations(id)) {
      Instruction deco = s.module().inst(d.inst);
      if (d.member == kNoIndex && !deco.isRaw() && deco.opcode() == Op::Decorate &&
          deco.wordCount() >= 4 && deco.word(2) == uint32_t(Decoration::ArrayStride))
        stride = deco.word(3);
    }
    return stride;
  }

  // The number of elements of an array with an OpConstant 32-bit length, or nothing.
  std::optional<uint32_t> constLength(uint32_t lengthId) {
    auto d = s.def(lengthId);
    if (!d || d->isRaw() || d->opcode() != Op::Constant || d->wordCount() < 4 ||
        !s.isIntType(d->typeId()) || s.bitWidth(d->typeId()) != 32)
      return std::nullopt;
    return d->word(3);
  }

  uint32_t scalarAlignment(uint32_t id, int depth = 0) {
    auto d = s.def(id);
    if (!d || d->isRaw() || depth > 32 || --budget < 0)
      return 1;
    switch (d->opcode()) {
    case Op::TypeInt:
    case Op::TypeFloat:
      return d->wordCount() >= 3 ? std::max(1u, d->word(2) / 8) : 1;
    case Op::TypeVector:
    case Op::TypeMatrix:
    case Op::TypeArray:
    case Op::TypeRuntimeArray:
      return d->wordCount() >= 3 ? scalarAlignment(d->word(2), depth + 1) : 1;
    case Op::TypeStruct: {
      uint32_t a = 1;
      for (uint32_t m : members(id))
        a = std::max(a, scalarAlignment(m, depth + 1));
      return a;
    }
    case Op::TypePointer:
      return pointerSize;
    default:
      return 1;
    }
  }

  uint32_t baseAlignment(uint32_t id, const MemberLayout &inherited, int depth = 0) {
    auto d = s.def(id);
    if (!d || d->isRaw() || depth > 32 || --budget < 0)
      return 1;
    uint32_t a = 1;
    switch (d->opcode()) {
    case Op::TypeInt:
    case Op::TypeFloat:
      return d->wordCount() >= 3 ? std::max(1u, d->word(2) / 8) : 1;
    case Op::TypeVector: {
      if (d->wordCount() < 4)
        return 1;
      const uint32_t n = d->word(3);
      return baseAlignment(d->word(2), inherited, depth + 1) * (n == 3 ? 4 : n);
    }
    case Op::TypeMatrix: {
      if (d->wordCount() < 4)
        return 1;
      if (!inherited.rowMajor) {
        a = baseAlignment(d->word(2), inherited, depth + 1);
      } else {
        auto column = s.def(d->word(2));
        const uint32_t n = d->word(3);
        if (column && !column->isRaw() && column->wordCount() >= 3)
          a = baseAlignment(column->word(2), inherited, depth + 1) * (n == 3 ? 4 : n);
      }
      return blockRules ? alignUp(a, 16) : a;
    }
    case Op::TypeArray:
    case Op::TypeRuntimeArray:
      if (d->wordCount() < 3)
        return 1;
      a = baseAlignment(d->word(2), inherited, depth + 1);
      return blockRules ? alignUp(a, 16) : a;
    case Op::TypeStruct: {
      const std::vector<uint32_t> ms = members(id);
      for (uint32_t i = 0; i < ms.size(); ++i)
        a = std::max(a, baseAlignment(ms[i], memberLayout(id, i), depth + 1));
      return blockRules ? alignUp(a, 16) : a;
    }
    case Op::TypePointer:
      return pointerSize;
    default:
      return 1;
    }
  }

  uint32_t size(uint32_t id, const MemberLayout &inherited, int depth = 0) {
    auto d = s.def(id);
    if (!d || d->isRaw() || depth > 32 || --budget < 0)
      return 0;
    switch (d->opcode()) {
    case Op::TypeInt:
    case Op::TypeFloat:
      return d->wordCount() >= 3 ? d->word(2) / 8 : 0;
    case Op::TypeVector:
      return d->wordCount() >= 4 ? size(d->word(2), inherited, depth + 1) * d->word(3) : 0;
    case Op::TypeArray: {
      if (d->wordCount() < 4)
        return 0;
      const std::optional<uint32_t> n = constLength(d->word(3));
      if (!n || *n == 0)
        return 0;
      return (*n - 1) * arrayStride(id) + size(d->word(2), inherited, depth + 1);
    }
    case Op::TypeRuntimeArray:
      return 0;
    case Op::TypeMatrix: {
      if (d->wordCount() < 4)
        return 0;
      const uint32_t columns = d->word(3);
      if (!inherited.rowMajor)
        return columns * inherited.matrixStride;
      auto column = s.def(d->word(2));
      if (!column || column->isRaw() || column->wordCount() < 4)
        return 0;
      const uint32_t rows = column->word(3);
      return (rows - 1) * inherited.matrixStride +
             columns * size(column->word(2), inherited, depth + 1);
    }
    case Op::TypeStruct: {
      const std::vector<uint32_t> ms = members(id);
      if (ms.empty())
        return 0;
      const uint32_t last = uint32_t(ms.size() - 1);
      const uint32_t offset = memberOffset(id, last).value_or(0);
      // spirv-val sizes the last member without its matrix decorations.
      return offset + size(ms.back(), MemberLayout{}, depth + 1);
    }
    case Op::TypePointer:
      return pointerSize;
    default:
      return 0;
    }
  }

  bool improperStraddle(uint32_t id, uint32_t offset, const MemberLayout &layout) {
    const uint32_t sz = size(id, layout);
    if (sz == 0)
      return false;
    const uint32_t first = offset, last = offset + sz - 1;
    return sz <= 16 ? (first >> 4) != (last >> 4) : first % 16 != 0;
  }

  // Checks structure `structId` placed at `base`; false (with `failure` set) on the first
  // problem.
  bool check(uint32_t structId, uint32_t base, int depth = 0) {
    if (depth > 16 || budget < 0)
      return true;
    const std::vector<uint32_t> ms = members(structId);
    struct Placed {
      uint32_t member, offset;
    };
    std::vector<Placed> placed;
    for (uint32_t i = 0; i < ms.size(); ++i) {
      const std::optional<uint32_t> o = memberOffset(structId, i);
      if (!o)
        return true; // reported (or deliberately not checked) elsewhere
      placed.push_back({i, base + *o});
    }
    std::stable_sort(placed.begin(), placed.end(),
                     [](const Placed &a, const Placed &b) { return a.offset < b.offset; });
    auto fail = [&](uint32_t member, const std::string &what) {
      failure = "member " + std::to_string(member) + " of " + s.name(structId) + " " + what;
      return false;
    };
    uint64_t next = 0;
    for (const Placed &p : placed) {
      const uint32_t id = ms[p.member];
      const MemberLayout layout = memberLayout(structId, p.member);
      const uint32_t alignment = baseAlignment(id, layout);
      const uint32_t offset = p.offset;
      const Op op = s.defOpcode(id);
      if (relaxed && op == Op::TypeVector) {
        const uint32_t a = scalarAlignment(s.componentType(id));
        if (a != 0 && offset % a != 0)
          return fail(p.member, "at offset " + std::to_string(offset) +
                                    " is not aligned to its component size " + std::to_string(a));
      } else if (alignment != 0 && offset % alignment != 0) {
        return fail(p.member, "at offset " + std::to_string(offset) + " is not aligned to " +
                                  std::to_string(alignment));
      }
      if (offset < next)
        return fail(p.member, "at offset " + std::to_string(offset) +
                                  " overlaps the previous member, which ends at offset " +
                                  std::to_string(next - 1));
      if (relaxed && op == Op::TypeVector && improperStraddle(id, offset, layout))
        return fail(p.member, "is a vector at offset " + std::to_string(offset) +
                                  " that straddles a 16-byte boundary improperly");
      if (op == Op::TypeStruct && !check(id, offset, depth + 1))
        return false;
      if (op == Op::TypeMatrix && alignment != 0 && layout.matrixStride % alignment != 0)
        return fail(p.member, "is a matrix with stride " + std::to_string(layout.matrixStride) +
                                  ", not a multiple of its alignment " + std::to_string(alignment));
      // Arrays, arrays of arrays: strides, and the structures and matrices inside.
      uint32_t arrayId = id, arrayAlignment = alignment;
      for (int level = 0; level < 16; ++level) {
        auto a = s.def(arrayId);
        if (!a || a->isRaw() || a->wordCount() < 3 ||
            (a->opcode() != Op::TypeArray && a->opcode() != Op::TypeRuntimeArray))
          break;
        const uint32_t element = a->word(2);
        const uint32_t stride = arrayStride(arrayId);
        bool hasStride = false;
        for (const AppliedDecoration &d : s.decorations(arrayId)) {
          Instruction deco = s.module().inst(d.inst);
          if (d.member == kNoIndex && !deco.isRaw() && deco.opcode() == Op::Decorate &&
              deco.wordCount() >= 4 && deco.word(2) == uint32_t(Decoration::ArrayStride))
            hasStride = true;
        }
        if (hasStride && stride == 0)
          return fail(p.member, "contains an array with stride 0");
        if (hasStride && arrayAlignment != 0 && stride % arrayAlignment != 0)
          return fail(p.member, "contains an array with stride " + std::to_string(stride) +
                                    ", not a multiple of its alignment " +
                                    std::to_string(alignment));
        uint32_t count = 1;
        if (a->opcode() == Op::TypeArray && a->wordCount() >= 4)
          count = std::max(1u, constLength(a->word(3)).value_or(0));
        const Op elementOp = s.defOpcode(element);
        if (elementOp == Op::TypeStruct) {
          bool seen[16] = {};
          for (uint32_t i = 0; i < count; ++i) {
            const uint32_t at = i * stride + offset;
            if (seen[at % 16])
              break;
            if (!check(element, at, depth + 1))
              return false;
            seen[at % 16] = true;
          }
        } else if (elementOp == Op::TypeMatrix && alignment != 0 &&
                   layout.matrixStride % alignment != 0) {
          return fail(p.member, "is a matrix with stride " + std::to_string(layout.matrixStride) +
                                    ", not a multiple of its alignment " +
                                    std::to_string(alignment));
        }
        arrayId = element;
        arrayAlignment = baseAlignment(element, layout);
      }
      next = uint64_t(offset) + size(id, layout);
      if (op == Op::TypeArray || op == Op::TypeStruct)
        next = alignUp(uint32_t(std::min<uint64_t>(next, 0xFFFFFFF0u)), alignment);
    }
    return true;
  }
};

// The entry points' reach: functions called (transitively) from an entry point.
std::vector<bool> reachableFunctions(State &s, std::span<const uint32_t> entryPoints) {
  const auto fns = s.module().functions();
  std::vector<bool> reached(fns.size(), false);
  std::vector<uint32_t> work;
  auto functionIndex = [&](uint32_t id) -> uint32_t {
    const uint32_t i = s.module().defIndex(id);
    if (i == kNoIndex || s.module().inst(i).opcode() != Op::Function)
      return kNoIndex;
    return s.functionOf(i);
  };
  for (uint32_t e : entryPoints) {
    Instruction ep = s.module().inst(e);
    if (ep.wordCount() >= 3)
      if (uint32_t f = functionIndex(ep.word(2)); f != kNoIndex && !reached[f]) {
        reached[f] = true;
        work.push_back(f);
      }
  }
  while (!work.empty()) {
    const uint32_t f = work.back();
    work.pop_back();
    for (uint32_t i = fns[f].begin; i < fns[f].end; ++i) {
      Instruction inst = s.module().inst(i);
      if (inst.isRaw() || inst.opcode() != Op::FunctionCall || inst.wordCount() < 4)
        continue;
      if (uint32_t g = functionIndex(inst.word(3)); g != kNoIndex && !reached[g]) {
        reached[g] = true;
        work.push_back(g);
      }
    }
  }
  return reached;
}

// True when `id` is used, directly or through global instructions, in a function an entry
// point reaches.
bool usedByEntryPoint(State &s, uint32_t id, const std::vector<bool> &reached) {
  std::vector<uint32_t> stack{id};
  std::set<uint32_t> seen{id};
  while (!stack.empty()) {
    const uint32_t cur = stack.back();
    stack.pop_back();
    for (const DefUse::Use &u : s.defUse().uses(cur)) {
      const uint32_t f = s.functionOf(u.inst);
      if (f != kNoIndex) {
        if (f < reached.size() && reached[f])
          return true;
        continue;
      }
      const uint32_t r = s.module().inst(u.inst).resultId();
      if (r != 0 && seen.insert(r).second)
        stack.push_back(r);
    }
  }
  return false;
}

bool relaxedLayout(const State &s) {
  return s.isVulkan() && s.env().targetEnv != TargetEnv::Vulkan1_0;
}

uint32_t pointerSize(const State &s) {
  return s.addressingModel() == uint32_t(grammar::AddressingModel::Physical32) ? 4 : 8;
}

void checkBuffers(State &s) {
  LayoutChecker layout{s, {}, {}, {}};
  std::unordered_map<uint32_t, std::vector<BlockLayout::Member>> memberCache;
  std::set<std::pair<uint32_t, bool>> laidOut; // (structure, uniform buffer rules) checked
  std::optional<std::vector<bool>> reached;
  for (Instruction inst : s.instructions(State::Listed::Variables)) {
    if (s.stopped())
      return;
    if (inst.isRaw() || inst.opcode() != Op::Variable || inst.wordCount() < 4)
      continue;
    if (s.functionOf(inst.index()) != kNoIndex)
      continue;
    const uint32_t var = inst.resultId(), sc = inst.word(3);
    const bool uniform = sc == uint32_t(StorageClass::Uniform);
    const bool uniformConstant = sc == uint32_t(StorageClass::UniformConstant);
    const bool pushConstant = sc == uint32_t(StorageClass::PushConstant);
    const bool storageBuffer = sc == uint32_t(StorageClass::StorageBuffer);
    const bool workgroup = sc == uint32_t(StorageClass::Workgroup) &&
                           s.hasCapability(grammar::Capability::WorkgroupMemoryExplicitLayoutKHR);
    auto entryUse = [&]() {
      if (!reached)
        reached = reachableFunctions(s, s.entryPoints());
      return usedByEntryPoint(s, var, *reached);
    };
    if (s.isVulkan() && uniformConstant) {
      const bool set = s.hasDecoration(var, uint32_t(Decoration::DescriptorSet));
      const bool binding = s.hasDecoration(var, uint32_t(Decoration::Binding));
      if ((!set || !binding) && entryUse())
        s.error(inst.index(), "VUID-StandaloneSpirv-UniformConstant-06677",
                "the UniformConstant variable " + s.name(var) +
                    " is used by an entry point but has no " + (set ? "Binding" : "DescriptorSet") +
                    " decoration");
    }
    if (!uniform && !pushConstant && !storageBuffer && !workgroup)
      continue;
    uint32_t type = s.pointeeType(inst.typeId());
    if (!workgroup)
      if (auto a = s.def(type);
          a && !a->isRaw() && a->wordCount() >= 3 &&
          (a->opcode() == Op::TypeArray || a->opcode() == Op::TypeRuntimeArray))
        type = a->word(2);
    if (s.defOpcode(type) != Op::TypeStruct)
      continue;
    const bool block = s.hasDecoration(type, uint32_t(Decoration::Block));
    const bool bufferBlock = s.hasDecoration(type, uint32_t(Decoration::BufferBlock));
    if (s.isVulkan()) {
      if (uniform && !block && !bufferBlock) {
        s.error(inst.index(), "VUID-StandaloneSpirv-Uniform-06676",
                "the Uniform variable " + s.name(var) +
                    " must have a structure type decorated "
                    "Block or BufferBlock (" +
                    s.name(type) + " is neither)");
        continue;
      }
      if ((pushConstant || storageBuffer) && !block) {
        s.error(inst.index(),
                pushConstant ? "VUID-StandaloneSpirv-PushConstant-06675"
                             : "VUID-StandaloneSpirv-Uniform-06676",
                std::string(pushConstant ? "the PushConstant" : "the StorageBuffer") +
                    " variable " + s.name(var) + " must have a structure type decorated Block (" +
                    s.name(type) + " is not)");
        continue;
      }
      if (uniform || storageBuffer) {
        const bool set = s.hasDecoration(var, uint32_t(Decoration::DescriptorSet));
        const bool binding = s.hasDecoration(var, uint32_t(Decoration::Binding));
        if ((!set || !binding) && entryUse()) {
          s.error(inst.index(), "VUID-StandaloneSpirv-UniformConstant-06677",
                  std::string(uniform ? "the Uniform" : "the StorageBuffer") + " variable " +
                      s.name(var) + " is used by an entry point but has no " +
                      (set ? "Binding" : "DescriptorSet") + " decoration");
          continue;
        }
      }
    }
    const bool rules = (uniform && (block || bufferBlock)) ||
                       ((pushConstant || storageBuffer || workgroup) && block);
    if (!rules)
      continue;
    // Named only on failure: the names are the disassembler's, costly to build for every
    // buffer of a valid module.
    auto what = [&] {
      return "structure " + s.name(type) + ", decorated " + (block ? "Block" : "BufferBlock") +
             " and used by " + s.name(var);
    };
    if (layout.missingOffset(type))
      s.error(inst.index(), "2.16.2",
              what() + ", must give every member (of it and of structures nested in it) an "
                       "explicit Offset decoration");
    else if (!layout.arraysHaveStride(type))
      s.error(inst.index(), "2.16.2",
              what() + ", must give every array type it contains an ArrayStride decoration");
    else if (!layout.matricesDecorated(type, false))
      s.error(inst.index(), "2.16.2",
              what() + ", must give every matrix member a MatrixStride decoration");
    else if (!layout.matricesDecorated(type, true))
      s.error(inst.index(), "2.16.2",
              what() + ", must give every matrix member a RowMajor or ColMajor decoration");
    else if (s.isVulkan()) {
      // Uniform buffers with Block follow the uniform buffer (std140) rules, the others the
      // storage buffer (std430) rules; Vulkan 1.1 and later relax both.
      BlockLayout rulesFor{s,  uniform && block, relaxedLayout(s), pointerSize(s),
                           {}, 200000,           memberCache};
      if (laidOut.insert({type, rulesFor.blockRules}).second && !rulesFor.check(type, 0) &&
          rulesFor.budget >= 0)
        s.error(inst.index(), "VUID-StandaloneSpirv-Offset / Vulkan 15.6.4",
                what() + ", breaks the " + (rulesFor.relaxed ? "relaxed " : "standard ") +
                    (rulesFor.blockRules ? "uniform buffer" : "storage buffer") +
                    " layout rules: " + rulesFor.failure);
    }
  }
}

// --- Linkage (2.16.1, 3.20 LinkageAttributes)
// -----------------------------------------------------

constexpr uint32_t kLinkageImport = uint32_t(grammar::LinkageType::Import);

// The Linkage Type of `id`'s LinkageAttributes decorations: true when one is Import.
bool importLinkage(const State &s, uint32_t id) {
  for (const AppliedDecoration &d : s.decorations(id)) {
    Instruction deco = s.module().inst(d.inst);
    if (!deco.isRaw() && deco.opcode() == Op::Decorate && deco.wordCount() >= 4 &&
        deco.word(1) == id && deco.word(2) == uint32_t(Decoration::LinkageAttributes) &&
        deco.word(deco.wordCount() - 1) == kLinkageImport)
      return true;
  }
  return false;
}

void checkLinkage(State &s) {
  // "It is invalid to decorate an entry point's function with LinkageAttributes" (2.16.1).
  std::set<uint32_t> reported;
  for (uint32_t index : s.entryPoints()) {
    Instruction ep = s.module().inst(index);
    if (ep.wordCount() < 3 || !reported.insert(ep.word(2)).second ||
        !s.hasDecoration(ep.word(2), uint32_t(Decoration::LinkageAttributes)))
      continue;
    s.error(index, "2.16.1 / 3.20 LinkageAttributes",
            "the entry point's function " + s.name(ep.word(2)) +
                " cannot be decorated LinkageAttributes");
  }
  for (const FunctionInfo &f : s.module().functions()) {
    if (s.stopped())
      return;
    Instruction fn = s.module().inst(f.begin);
    if (fn.isRaw() || fn.opcode() != Op::Function)
      continue;
    const uint32_t id = fn.resultId();
    const bool imported = importLinkage(s, id);
    if (f.numBlocks == 0 && !imported)
      s.error(f.begin, "2.16.1 / 3.20 LinkageAttributes",
              "the function declaration " + s.name(id) +
                  " has no body, so it must be decorated LinkageAttributes with the Import "
                  "linkage type");
    else if (f.numBlocks != 0 && imported)
      s.error(f.begin, "2.16.1 / 3.20 LinkageAttributes",
              "the function " + s.name(id) +
                  " has a body, so it cannot be decorated with the Import linkage type");
  }
  for (Instruction inst : s.instructions(State::Listed::Variables)) {
    if (s.stopped())
      return;
    if (inst.isRaw() || inst.opcode() != Op::Variable || inst.wordCount() < 5 ||
        s.functionOf(inst.index()) != kNoIndex)
      continue;
    if (importLinkage(s, inst.resultId()))
      s.error(inst.index(), "2.16.1 / 3.20 LinkageAttributes",
              "the variable " + s.name(inst.resultId()) +
                  " is imported (Import linkage type), so it cannot have an initializer");
  }
}

// 3.20 Decoration: "It is invalid to decorate any given <id> or structure member more than one
// time with the same decoration, unless explicitly allowed below for a specific decoration"
// (FuncParamAttr once per attribute, UserSemantic once per string). spirv-val v2026.4 checks it
// (glslang's repeated Restrict and RelaxedPrecision included); FuncParamAttr repeats with the same
// attribute are left alone, as the OpenCL translator emits them and spirv-val accepts them.
// Decoration groups are expanded (their members, OpGroupMemberDecorate, are not), but a
// decoration repeated with the same operands through a group counts only for conflicting
// operands: SPIRV-Cross's tests decorate an id both directly and through a group, and spirv-val
// accepts it.
void checkRepeated(State &s) {
  std::set<uint32_t> targets;
  for (Instruction inst : s.instructions(State::Listed::Annotations)) {
    if (inst.isRaw() || inst.wordCount() < 2)
      continue;
    const Op op = inst.opcode();
    if (op == Op::Decorate || op == Op::DecorateId || op == Op::DecorateString ||
        op == Op::MemberDecorate || op == Op::MemberDecorateString) {
      if (s.defOpcode(inst.word(1)) != Op::DecorationGroup)
        targets.insert(inst.word(1));
    } else if (op == Op::GroupDecorate) {
      for (uint32_t w = 2; w < inst.wordCount(); ++w)
        targets.insert(inst.word(w));
    }
  }
  for (uint32_t id : targets) {
    if (s.stopped())
      return;
    // (member or -1, decoration) -> the decoration's operands, and whether it was direct.
    std::map<std::pair<int64_t, uint32_t>, std::vector<std::pair<std::vector<uint32_t>, bool>>>
        seen;
    for (const AppliedDecoration &d : s.decorations(id)) {
      Instruction deco = s.module().inst(d.inst);
      // A group's decorations on members (OpGroupMemberDecorate) are not compared.
      if (deco.isRaw() || (d.group != kNoIndex && d.member != kNoIndex))
        continue;
      const Op op = deco.opcode();
      const bool member = op == Op::MemberDecorate || op == Op::MemberDecorateString;
      if (!member && op != Op::Decorate && op != Op::DecorateId && op != Op::DecorateString)
        continue;
      const uint32_t first = member ? 3 : 2; // the decoration's word
      if (deco.wordCount() <= first || (member && deco.word(1) != id))
        continue;
      const uint32_t kind = deco.word(first);
      if (kind == uint32_t(Decoration::FuncParamAttr))
        continue;
      std::vector<uint32_t> operands;
      for (uint32_t w = first + 1; w < deco.wordCount(); ++w)
        operands.push_back(deco.word(w));
      const int64_t index = member ? int64_t(deco.word(2)) : -1;
      // Through a group (the instruction decorates the group, not `id`).
      const bool direct = deco.word(1) == id;
      auto &before = seen[{index, kind}];
      bool again = false, conflicting = false;
      for (const auto &[earlier, earlierDirect] : before)
        if (earlier == operands)
          again = again || (direct && earlierDirect);
        else
          conflicting = conflicting || kind != uint32_t(Decoration::UserSemantic);
      before.push_back({std::move(operands), direct});
      if (!again && !conflicting)
        continue;
      s.error(d.inst, "3.20",
              s.name(id) + (member ? " member " + std::to_string(index) : std::string()) +
                  " is decorated " + decoration(kind) + " more than once" +
                  (conflicting ? ", with different operands" : "") +
                  "; a decoration applies at most once to an id or member");
      break;
    }
  }
}

// Decorations that exclude each other on the same target (or member).
void checkExclusive(State &s) {
  struct Pair {
    Decoration a, b;
    const char *rule;
  };
  static constexpr Pair kPairs[] = {
      {Decoration::Block, Decoration::BufferBlock, "2.16.2"},
      {Decoration::RowMajor, Decoration::ColMajor, "3.20"},
      {Decoration::Restrict, Decoration::Aliased, "3.20"},
      {Decoration::RestrictPointer, Decoration::AliasedPointer, "3.20"},
      // 2.16.2: "It is invalid to apply more than one of Noperspective or Flat decorations to the
      // same object or member", nor more than one of Patch, Centroid or Sample (spirv-val 2023.1
      // checks neither).
      {Decoration::NoPerspective, Decoration::Flat, "2.16.2"},
      {Decoration::Patch, Decoration::Centroid, "2.16.2"},
      {Decoration::Patch, Decoration::Sample, "2.16.2"},
      {Decoration::Centroid, Decoration::Sample, "2.16.2"}};
  std::set<std::pair<uint32_t, int64_t>> done;
  for (Instruction inst : s.instructions(State::Listed::Annotations)) {
    if (s.stopped())
      return;
    if (inst.isRaw())
      continue;
    uint32_t target, deco;
    int64_t member = -1;
    if ((inst.opcode() == Op::Decorate || inst.opcode() == Op::DecorateId) &&
        inst.wordCount() >= 3) {
      target = inst.word(1);
      deco = inst.word(2);
    } else if (inst.opcode() == Op::MemberDecorate && inst.wordCount() >= 4) {
      target = inst.word(1);
      member = inst.word(2);
      deco = inst.word(3);
    } else {
      continue;
    }
    for (const Pair &p : kPairs) {
      if (deco != uint32_t(p.b))
        continue;
      // Look for the other one on the same target and member, directly.
      for (const AppliedDecoration &d : s.decorations(target)) {
        Instruction o = s.module().inst(d.inst);
        if (o.isRaw() || o.word(1) != target)
          continue;
        const bool same = member < 0
                              ? ((o.opcode() == Op::Decorate || o.opcode() == Op::DecorateId) &&
                                 o.wordCount() >= 3 && o.word(2) == uint32_t(p.a))
                              : (o.opcode() == Op::MemberDecorate && o.wordCount() >= 4 &&
                                 o.word(2) == uint32_t(member) && o.word(3) == uint32_t(p.a));
        if (same && done.insert({target, member}).second) {
          s.error(inst.index(), p.rule,
                  s.name(target) +
                      (member >= 0 ? " member " + std::to_string(member) : std::string()) +
                      " cannot be decorated both " + decoration(uint32_t(p.a)) + " and " +
                      decoration(uint32_t(p.b)));
          break;
        }
      }
    }
  }
}

// Structures with BuiltIn members are interface blocks: no other structure may contain one,
// and blocks do not nest.
void checkStructNesting(State &s) {
  auto hasBuiltInMember = [&](uint32_t id) {
    for (const AppliedDecoration &d : s.decorations(id)) {
      Instruction o = s.module().inst(d.inst);
      if (!o.isRaw() && o.opcode() == Op::MemberDecorate && o.wordCount() >= 4 && o.word(1) == id &&
          o.word(3) == uint32_t(Decoration::BuiltIn))
        return true;
    }
    return false;
  };
  auto isBlock = [&](uint32_t id) {
    return s.hasDecoration(id, uint32_t(Decoration::Block)) ||
           s.hasDecoration(id, uint32_t(Decoration::BufferBlock));
  };
  // Structures that contain a Block or BufferBlock structure as a member, directly or through
  // nested (non-array) structures, as spirv-val tracks them.
  std::set<uint32_t> containsBlock;
  for (Instruction inst : s.instructions(State::Listed::Structs)) {
    if (s.stopped())
      return;
    if (inst.isRaw() || inst.opcode() != Op::TypeStruct)
      continue;
    const uint32_t id = inst.resultId();
    bool nested = false;
    for (uint32_t w = 2; w < inst.wordCount(); ++w) {
      const uint32_t m = inst.word(w);
      if (s.defOpcode(m) != Op::TypeStruct)
        continue;
      if (hasBuiltInMember(m)) {
        s.error(inst.index(), "2.16.2",
                "the structure " + s.name(m) +
                    " has BuiltIn members, so it cannot be a member of another structure (" +
                    s.name(id) + ")");
        break;
      }
      if (isBlock(m) || containsBlock.count(m))
        nested = true;
    }
    if (nested) {
      containsBlock.insert(id);
      if (isBlock(id))
        s.error(inst.index(), "2.16.2",
                "the block " + s.name(id) +
                    " contains another Block or BufferBlock structure; blocks cannot nest");
    }
  }
}

// 2.16.2: "For structure objects in the Input and Output Storage Classes ... the decorations
// Noperspective, Flat, Patch, Centroid, and Sample must be applied only to the top-level members
// of the structure type" (spirv-val 2023.1 does not check it).
void checkInterpolationNesting(State &s) {
  auto interpolation = [](uint32_t d) {
    switch (static_cast<Decoration>(d)) {
    case Decoration::NoPerspective:
    case Decoration::Flat:
    case Decoration::Patch:
    case Decoration::Centroid:
    case Decoration::Sample:
      return true;
    default:
      return false;
    }
  };
  // The first nested structure (at any depth below the top level of `top`) with such a member
  // decoration; 0 when there is none.
  std::set<uint32_t> visited;
  std::function<uint32_t(uint32_t)> nestedDecorated = [&](uint32_t st) -> uint32_t {
    std::optional<Instruction> type = s.def(st);
    if (!type || type->isRaw() || type->opcode() != Op::TypeStruct)
      return 0;
    for (uint32_t w = 2; w < type->wordCount(); ++w) {
      const uint32_t member = s.stripArrays(type->word(w));
      if (s.defOpcode(member) != Op::TypeStruct || !visited.insert(member).second)
        continue;
      for (const AppliedDecoration &d : s.decorations(member)) {
        Instruction o = s.module().inst(d.inst);
        if (!o.isRaw() && o.opcode() == Op::MemberDecorate && o.wordCount() >= 4 &&
            o.word(1) == member && interpolation(o.word(3)))
          return member;
      }
      if (uint32_t found = nestedDecorated(member))
        return found;
    }
    return 0;
  };
  for (Instruction inst : s.instructions(State::Listed::Variables)) {
    if (s.stopped())
      return;
    if (inst.isRaw() || inst.opcode() != Op::Variable || inst.wordCount() < 4 ||
        (inst.word(3) != uint32_t(StorageClass::Input) &&
         inst.word(3) != uint32_t(StorageClass::Output)))
      continue;
    visited.clear();
    if (uint32_t nested = nestedDecorated(s.stripArrays(s.pointeeType(inst.word(1)))))
      s.error(inst.index(), "2.16.2",
              "the structure " + s.name(nested) + ", nested in the interface variable " +
                  s.name(inst.resultId()) +
                  ", has members decorated NoPerspective, Flat, Patch, Centroid or Sample; "
                  "those decorate only top-level members");
  }
}

// 2.16.1: "It is invalid to have a construct that uses the StorageBuffer Storage Class and a
// construct that uses the Uniform Storage Class with the BufferBlock Decoration in the same
// SPIR-V module" (spirv-val 2023.1 does not check it). The constructs looked at are variables.
void checkBufferBlockMix(State &s) {
  std::optional<uint32_t> storageBuffer, bufferBlock;
  for (Instruction inst : s.instructions(State::Listed::Variables)) {
    if (s.stopped())
      return;
    if (inst.isRaw() || inst.opcode() != Op::Variable || inst.wordCount() < 4)
      continue;
    if (inst.word(3) == uint32_t(StorageClass::StorageBuffer) && !storageBuffer)
      storageBuffer = inst.index();
    else if (inst.word(3) == uint32_t(StorageClass::Uniform) && !bufferBlock &&
             s.hasDecoration(s.stripArrays(s.pointeeType(inst.word(1))),
                             uint32_t(Decoration::BufferBlock)))
      bufferBlock = inst.index();
    if (storageBuffer && bufferBlock) {
      s.error(std::max(*storageBuffer, *bufferBlock), "2.16.1",
              "a module cannot use both the StorageBuffer storage class and Uniform BufferBlock "
              "structures");
      return;
    }
  }
}

// 2.16.1: "All XfbStride Decorations must be the same for all objects decorated with the same
// XfbBuffer XFB Buffer Number", and so must all Stream decorations (spirv-val 2023.1 checks
// neither). An object is a variable or a structure member, decorated directly; an object without
// XfbStride or Stream is not compared.
void checkTransformFeedback(State &s) {
  struct Object {
    std::optional<uint32_t> buffer, stride, stream;
    uint32_t at = 0;
  };
  std::map<std::pair<uint32_t, int64_t>, Object> objects;
  for (Instruction inst : s.instructions(State::Listed::Annotations)) {
    if (inst.isRaw())
      continue;
    const bool member = inst.opcode() == Op::MemberDecorate;
    if ((inst.opcode() != Op::Decorate && !member) || inst.wordCount() < (member ? 5u : 4u))
      continue;
    const uint32_t deco = inst.word(member ? 3 : 2), value = inst.word(member ? 4 : 3);
    if (deco != uint32_t(Decoration::XfbBuffer) && deco != uint32_t(Decoration::XfbStride) &&
        deco != uint32_t(Decoration::Stream))
      continue;
    Object &o = objects[{inst.word(1), member ? int64_t(inst.word(2)) : -1}];
    o.at = std::max(o.at, inst.index());
    (deco == uint32_t(Decoration::XfbBuffer)   ? o.buffer
     : deco == uint32_t(Decoration::XfbStride) ? o.stride
                                               : o.stream) = value;
  }
  std::map<uint32_t, std::pair<std::optional<uint32_t>, std::optional<uint32_t>>> byBuffer;
  for (const auto &[key, o] : objects) {
    if (s.stopped())
      return;
    if (!o.buffer)
      continue;
    auto &[stride, stream] = byBuffer[*o.buffer];
    for (auto [mine, first, what] :
         {std::tuple{o.stride, &stride, "XfbStride"}, std::tuple{o.stream, &stream, "Stream"}}) {
      if (!mine)
        continue;
      if (!*first)
        *first = mine;
      else if (**first != *mine)
        s.error(o.at, "2.16.1",
                "the objects of transform feedback buffer " + std::to_string(*o.buffer) +
                    " have different " + what + " decorations (" + std::to_string(**first) +
                    " and " + std::to_string(*mine) + "); they must all be the same");
    }
  }
}

// --- Decorations that constrain their target's value or type (3.20)
// -------------------------------

// Component (Vulkan 15.1.5): scalars or vectors (arrays of them) of 16, 32 or 64 bits that fit
// in the four components of a location.
void checkComponent(State &s, const Instruction &inst, uint32_t type, uint32_t component) {
  if (!s.isVulkan())
    return;
  for (int i = 0; i < 16 && s.defOpcode(type) == Op::TypeArray; ++i)
    type = s.def(type)->wordCount() >= 3 ? s.def(type)->word(2) : 0;
  if (!s.isIntScalarOrVector(type) && !s.isFloatScalarOrVector(type)) {
    s.error(inst.index(), "VUID-StandaloneSpirv-Component-07703",
            "the Component decoration applies to scalars and vectors (or arrays of them), not to " +
                s.name(type));
    return;
  }
  if (component > 3) {
    s.error(inst.index(), "VUID-StandaloneSpirv-Component-04920",
            "the Component decoration's value must be 0 to 3, not " + std::to_string(component));
    return;
  }
  const uint32_t n = s.componentCount(type), width = s.bitWidth(type);
  if (width == 16 || width == 32) {
    if (component + n > 4)
      s.error(inst.index(), "VUID-StandaloneSpirv-Component-04921",
              "components " + std::to_string(component) + " to " +
                  std::to_string(component + n - 1) + " do not fit in a location (0 to 3)");
  } else if (width == 64) {
    if (n > 2)
      s.error(inst.index(), "VUID-StandaloneSpirv-Component-07703",
              "the Component decoration applies to 64-bit scalars and 2-component vectors only");
    else if (component == 1 || component == 3)
      s.error(inst.index(), "VUID-StandaloneSpirv-Component-04923",
              "a 64-bit value cannot start at component " + std::to_string(component) +
                  " (only 0 or 2)");
    else if (component + 2 * n > 4)
      s.error(inst.index(), "VUID-StandaloneSpirv-Component-04922",
              "components " + std::to_string(component) + " to " +
                  std::to_string(component + 2 * n - 1) + " do not fit in a location (0 to 3)");
  }
}

// Checks that depend on the decorated instruction, for OpDecorate and OpMemberDecorate.
void checkDecorationValue(State &s, const Instruction &inst) {
  const bool member = inst.opcode() == Op::MemberDecorate;
  const uint32_t at = member ? 3 : 2;
  if (inst.wordCount() <= at)
    return;
  const uint32_t targetId = inst.word(1), deco = inst.word(at);
  auto target = s.def(targetId);
  if (!target || target->isRaw() || target->opcode() == Op::DecorationGroup)
    return;
  switch (static_cast<Decoration>(deco)) {
  case Decoration::Component: {
    if (inst.wordCount() <= at + 1)
      return;
    uint32_t type;
    if (member) {
      if (target->opcode() != Op::TypeStruct || uint64_t(inst.word(2)) + 2 >= target->wordCount())
        return;
      type = target->word(inst.word(2) + 2);
    } else {
      if (target->opcode() != Op::Variable && target->opcode() != Op::FunctionParameter)
        return; // reported as a target problem
      if (target->opcode() == Op::Variable && target->wordCount() >= 4 &&
          target->word(3) != uint32_t(StorageClass::Input) &&
          target->word(3) != uint32_t(StorageClass::Output)) {
        s.error(inst.index(), "3.20 Component",
                "the Component decoration applies to Input and Output variables only, not to " +
                    s.name(targetId));
        return;
      }
      type = target->typeId();
      if (s.isPointerType(type))
        type = s.pointeeType(type);
    }
    checkComponent(s, inst, type, inst.word(at + 1));
    return;
  }
  case Decoration::Uniform:
  case Decoration::UniformId:
    if (member)
      return;
    if (target->typeId() == 0 || !s.def(target->typeId()))
      s.error(inst.index(), "3.20 " + decoration(deco),
              "the " + decoration(deco) + " decoration applies to objects, and " +
                  s.name(targetId) + " is not one");
    else if (s.isVoidType(target->typeId()))
      s.error(inst.index(), "3.20 " + decoration(deco),
              "the " + decoration(deco) + " decoration cannot apply to a value of void type");
    return;
  case Decoration::NoSignedWrap:
  case Decoration::NoUnsignedWrap:
    if (member)
      return;
    switch (target->opcode()) {
    case Op::IAdd:
    case Op::ISub:
    case Op::IMul:
    case Op::ShiftLeftLogical:
    case Op::SNegate:
    case Op::ExtInst:
      return;
    default:
      s.error(inst.index(), "3.20 " + decoration(deco),
              "the " + decoration(deco) +
                  " decoration applies to OpIAdd, OpISub, OpIMul, OpShiftLeftLogical, OpSNegate "
                  "and extended instructions only");
      return;
    }
  default:
    return;
  }
}

// FPRoundingMode in shaders (2.16.1 / 3.20): only on OpFConvert whose result is stored, as a
// 16-bit float, through OpStore into an interface or buffer storage class.
void checkRoundingModes(State &s) {
  if (!s.hasCapability(grammar::Capability::Shader))
    return;
  for (Instruction inst : s.instructions(State::Listed::Annotations)) {
    if (s.stopped())
      return;
    if (inst.isRaw() || inst.opcode() != Op::Decorate || inst.wordCount() < 4 ||
        inst.word(2) != uint32_t(Decoration::FPRoundingMode))
      continue;
    const uint32_t targetId = inst.word(1);
    auto target = s.def(targetId);
    if (!target || target->isRaw() || target->opcode() == Op::DecorationGroup)
      continue;
    const std::string_view rule = "2.16.1 FPRoundingMode";
    if (target->opcode() != Op::FConvert) {
      s.error(inst.index(), rule,
              "in shaders FPRoundingMode applies only to OpFConvert, not to " + s.name(targetId));
      continue;
    }
    if (s.isVulkan() && inst.word(3) != uint32_t(grammar::FPRoundingMode::RTE) &&
        inst.word(3) != uint32_t(grammar::FPRoundingMode::RTZ)) {
      s.error(inst.index(), "VUID-StandaloneSpirv-FPRoundingMode-04675",
              "in Vulkan the rounding mode must be RTE or RTZ");
      continue;
    }
    for (const DefUse::Use &u : s.defUse().uses(targetId)) {
      Instruction user = s.module().inst(u.inst);
      if (user.isRaw())
        continue;
      const Op op = user.opcode();
      const grammar::InstructionDesc *d = user.desc();
      if (op == Op::FConvert || op == Op::ExtInst ||
          (d != nullptr && (d->cls == grammar::InstructionClass::Debug ||
                            d->cls == grammar::InstructionClass::Annotation)))
        continue;
      if (op != Op::Store || user.wordCount() < 3 || user.word(2) != targetId) {
        s.error(u.inst, rule,
                "the value of " + s.name(targetId) +
                    ", decorated FPRoundingMode, may only be used as the Object of OpStore");
        break;
      }
      const uint32_t ptrType = s.typeOf(user.word(1));
      const uint32_t pointee = s.pointeeType(ptrType);
      const std::optional<uint32_t> sc = s.storageClass(ptrType);
      if (!sc)
        continue;
      if (!s.isFloatScalarOrVector(pointee) || s.bitWidth(pointee) != 16) {
        s.error(
            u.inst, rule,
            "the value of " + s.name(targetId) +
                ", decorated FPRoundingMode, must be stored to a 16-bit float scalar or vector");
        break;
      }
      if (*sc != uint32_t(StorageClass::StorageBuffer) && *sc != uint32_t(StorageClass::Uniform) &&
          *sc != uint32_t(StorageClass::PushConstant) && *sc != uint32_t(StorageClass::Input) &&
          *sc != uint32_t(StorageClass::Output) &&
          *sc != uint32_t(StorageClass::PhysicalStorageBuffer)) {
        s.error(u.inst, rule,
                "the value of " + s.name(targetId) +
                    ", decorated FPRoundingMode, must be stored in the StorageBuffer, "
                    "PhysicalStorageBuffer, Uniform, PushConstant, Input or Output storage class");
        break;
      }
    }
  }
}

// NonWritable on a whole object (3.20): the object must be a uniform block, a storage buffer or
// a storage image (or, from SPIR-V 1.4, a Function or Private variable).
void checkNonWritable(State &s) {
  std::set<uint32_t> allowed; // pointer types of uniform blocks, storage buffers, storage images
  bool any = false;
  for (Instruction inst : s.instructions(State::Listed::Annotations))
    if (!inst.isRaw() && inst.opcode() == Op::Decorate && inst.wordCount() >= 3 &&
        inst.word(2) == uint32_t(Decoration::NonWritable))
      any = true;
  if (!any)
    return;
  auto stripArray = [&](uint32_t type) {
    auto a = s.def(type);
    if (a && !a->isRaw() && a->wordCount() >= 3 &&
        (a->opcode() == Op::TypeArray || a->opcode() == Op::TypeRuntimeArray))
      return a->word(2);
    return type;
  };
  for (Instruction inst : s.module()) {
    if (inst.isRaw())
      continue;
    if (inst.opcode() == Op::TypePointer && inst.wordCount() >= 4 &&
        inst.word(2) == uint32_t(StorageClass::UniformConstant)) {
      auto image = s.def(stripArray(inst.word(3)));
      if (image && !image->isRaw() && image->opcode() == Op::TypeImage && image->wordCount() >= 9 &&
          image->word(7) == 2)
        allowed.insert(inst.resultId());
    } else if (inst.opcode() == Op::Variable && inst.wordCount() >= 4) {
      const uint32_t sc = inst.word(3);
      const bool uniform = sc == uint32_t(StorageClass::Uniform);
      const bool buffer = sc == uint32_t(StorageClass::StorageBuffer) ||
                          sc == uint32_t(StorageClass::PhysicalStorageBuffer);
      if (!uniform && !buffer)
        continue;
      const uint32_t type = stripArray(s.pointeeType(inst.typeId()));
      if (s.defOpcode(type) != Op::TypeStruct)
        continue;
      const bool block = s.hasDecoration(type, uint32_t(Decoration::Block));
      const bool bufferBlock = s.hasDecoration(type, uint32_t(Decoration::BufferBlock));
      if ((uniform && (block || bufferBlock)) || (buffer && block))
        allowed.insert(inst.typeId());
    }
  }
  const bool privateAllowed = s.module().version() >= 0x00010400;
  for (Instruction inst : s.instructions(State::Listed::Annotations)) {
    if (s.stopped())
      return;
    if (inst.isRaw() || inst.opcode() != Op::Decorate || inst.wordCount() < 3 ||
        inst.word(2) != uint32_t(Decoration::NonWritable))
      continue;
    auto target = s.def(inst.word(1));
    if (!target || target->isRaw() ||
        (target->opcode() != Op::Variable && target->opcode() != Op::FunctionParameter))
      continue; // not a memory object: reported with the decoration's targets
    if (target->opcode() == Op::Variable && target->wordCount() >= 4 && privateAllowed &&
        (target->word(3) == uint32_t(StorageClass::Function) ||
         target->word(3) == uint32_t(StorageClass::Private)))
      continue;
    if (allowed.count(target->typeId()))
      continue;
    s.error(inst.index(), "3.20 NonWritable",
            "NonWritable applies to uniform blocks, storage buffers and storage images" +
                std::string(privateAllowed ? " (and Function or Private variables)" : "") +
                ", and " + s.name(inst.word(1)) + " is none of those");
  }
}

// Vulkan: an entry point uses at most one push constant block (VUID-StandaloneSpirv-OpEntryPoint
// -06674).
void checkPushConstants(State &s) {
  if (!s.isVulkan())
    return;
  std::vector<uint32_t> vars;
  for (Instruction inst : s.instructions(State::Listed::Variables))
    if (!inst.isRaw() && inst.opcode() == Op::Variable && inst.wordCount() >= 4 &&
        inst.word(3) == uint32_t(StorageClass::PushConstant) &&
        s.functionOf(inst.index()) == kNoIndex)
      vars.push_back(inst.resultId());
  if (vars.size() < 2)
    return;
  for (uint32_t e : s.entryPoints()) {
    if (s.stopped())
      return;
    const uint32_t one[] = {e};
    const std::vector<bool> reached = reachableFunctions(s, one);
    std::vector<uint32_t> used;
    for (uint32_t v : vars)
      if (usedByEntryPoint(s, v, reached))
        used.push_back(v);
    if (used.size() > 1) {
      Instruction ep = s.module().inst(e);
      s.error(e, "VUID-StandaloneSpirv-OpEntryPoint-06674",
              "the entry point " + s.name(ep.wordCount() >= 3 ? ep.word(2) : 0) +
                  " uses more than one PushConstant variable (" + s.name(used[0]) + " and " +
                  s.name(used[1]) + ")");
    }
  }
}

// The Vulkan memory model replaces the Coherent and Volatile decorations with memory operands.
void checkVulkanMemoryModelDecorations(State &s) {
  if (!s.isVulkanMemoryModel())
    return;
  for (Instruction inst : s.instructions(State::Listed::Annotations)) {
    if (s.stopped())
      return;
    if (inst.isRaw())
      continue;
    uint32_t deco;
    if (inst.opcode() == Op::Decorate && inst.wordCount() >= 3)
      deco = inst.word(2);
    else if (inst.opcode() == Op::MemberDecorate && inst.wordCount() >= 4)
      deco = inst.word(3);
    else
      continue;
    if (deco == uint32_t(Decoration::Coherent) || deco == uint32_t(Decoration::Volatile))
      s.error(inst.index(), "2.16.1 Vulkan memory model",
              "the " + decoration(deco) +
                  " decoration is not allowed with the Vulkan memory model (use the "
                  "MakeAvailable/MakeVisible/Volatile memory operands instead)");
  }
}

// OpLine %file Line Column: the file is an OpString.
void checkLines(State &s) {
  for (Instruction inst : s.instructions(State::Listed::Lines)) {
    if (s.stopped())
      return;
    if (!inst.isRaw() && inst.opcode() == Op::Line && inst.wordCount() >= 2 &&
        s.defOpcode(inst.word(1)) != Op::String)
      s.error(inst.index(), "3.32.3 OpLine",
              "the file operand " + s.name(inst.word(1)) + " of OpLine must be an OpString");
  }
}
// VUID-StandaloneSpirv-None-10684: "All variables must have valid explicit layout decorations as
// described in Shader Interfaces": a type laid out explicitly (an array's ArrayStride, a member's
// Offset or MatrixStride, at any depth short of a pointer) is not the type of a variable whose
// storage class has no explicit layout: UniformConstant, Workgroup unless
// WorkgroupMemoryExplicitLayoutKHR lays it out, and from SPIR-V 1.5 on Function and Private (as
// spirv-val v2026.4 reads Vulkan's Shader Interfaces). Also: Workgroup blocks need that
// capability (in every environment).
class ExplicitLayoutPlaces {
public:
  explicit ExplicitLayoutPlaces(State &s) : s_(s) {}

  void run() {
    using grammar::StorageClass;
    const bool explicitWorkgroup =
        s_.hasCapability(grammar::Capability::WorkgroupMemoryExplicitLayoutKHR);
    for (Instruction inst : s_.instructions(State::Listed::Variables)) {
      if (s_.stopped())
        return;
      if (inst.isRaw() || inst.opcode() != Op::Variable || inst.wordCount() < 4)
        continue;
      const uint32_t sc = inst.word(3);
      // SPV_KHR_workgroup_memory_explicit_layout lets Workgroup variables be blocks; without its
      // capability they are not.
      if (sc == uint32_t(StorageClass::Workgroup) && !explicitWorkgroup &&
          s_.hasDecoration(s_.stripArrays(s_.pointeeType(inst.typeId())),
                           uint32_t(grammar::Decoration::Block))) {
        s_.error(inst.index(), "SPV_KHR_workgroup_memory_explicit_layout",
                 "a Workgroup variable is a Block only with the WorkgroupMemoryExplicitLayoutKHR "
                 "capability");
        continue;
      }
      if (!s_.isVulkan())
        continue;
      const bool laidOutNever =
          sc == uint32_t(StorageClass::UniformConstant) ||
          (sc == uint32_t(StorageClass::Workgroup) && !explicitWorkgroup) ||
          ((sc == uint32_t(StorageClass::Function) || sc == uint32_t(StorageClass::Private)) &&
           s_.module().version() >= grammar::makeVersion(1, 5));
      if (!laidOutNever)
        continue;
      const Found f = find(s_.pointeeType(inst.typeId()), 0);
      if (f.type == 0)
        continue;
      s_.error(inst.index(), "VUID-StandaloneSpirv-None-10684",
               "the " + State::enumerantName(grammar::OperandKind::StorageClass, sc) +
                   " storage class has no explicit layout, but the type " + s_.name(f.type) +
                   " of this variable's data is laid out by the " + decoration(f.decoration) +
                   " decoration");
    }
  }

private:
  struct Found {
    uint32_t type = 0, decoration = 0; // the laid-out type and the decoration that lays it out
  };

  Found find(uint32_t type, int depth) {
    if (auto it = memo_.find(type); it != memo_.end())
      return it->second;
    Found f;
    std::optional<Instruction> d = s_.def(type);
    if (d && depth < 64) {
      using grammar::Decoration;
      switch (d->opcode()) {
      case Op::TypeArray:
      case Op::TypeRuntimeArray:
        if (s_.hasDecoration(type, uint32_t(Decoration::ArrayStride)))
          f = {type, uint32_t(Decoration::ArrayStride)};
        else if (d->wordCount() > 2)
          f = find(d->word(2), depth + 1);
        break;
      case Op::TypeStruct:
        for (const AppliedDecoration &di : s_.decorations(type)) {
          const Instruction deco = s_.module().inst(di.inst);
          if (deco.opcode() == Op::MemberDecorate && deco.wordCount() >= 4 &&
              deco.word(1) == type &&
              (deco.word(3) == uint32_t(Decoration::Offset) ||
               deco.word(3) == uint32_t(Decoration::MatrixStride))) {
            f = {type, deco.word(3)};
            break;
          }
        }
        for (uint32_t w = 2; f.type == 0 && w < d->wordCount(); ++w)
          f = find(d->word(w), depth + 1);
        break;
      default:
        break;
      }
    }
    memo_[type] = f;
    return f;
  }

  State &s_;
  std::unordered_map<uint32_t, Found> memo_;
};

void checkExplicitLayoutPlaces(State &s) { ExplicitLayoutPlaces(s).run(); }

} // namespace

void checkDecorations(State &s) {
  for (Instruction inst : s.module()) {
    if (s.stopped())
      return;
    if (inst.isRaw())
      continue;
    switch (inst.opcode()) {
    case Op::MemberName:
      // OpMemberName %type Member "name"
      if (inst.wordCount() >= 3)
        checkStructMember(s, inst, "3.32.3 OpMemberName", "OpMemberName", inst.word(1),
                          inst.word(2));
      break;
    case Op::MemberDecorate:
      // OpMemberDecorate %struct Member Decoration ... (spirv-val leaves OpMemberDecorateString
      // unchecked, and so do we: a false alarm is worse than a miss)
      if (inst.wordCount() >= 4 &&
          checkStructMember(s, inst, "3.32.2 OpMemberDecorate", "OpMemberDecorate", inst.word(1),
                            inst.word(2)) &&
          notForMembers(inst.word(3)))
        s.error(inst.index(), "3.32.2 OpMemberDecorate",
                "the " + decoration(inst.word(3)) +
                    " decoration cannot apply to a structure member");
      else if (inst.wordCount() >= 4 && s.defOpcode(inst.word(1)) == Op::TypeStruct)
        checkDecorationValue(s, inst);
      break;
    case Op::Decorate:
    case Op::DecorateId:
    case Op::DecorateString:
      checkDecorationTarget(s, inst, inst.word(1), inst.index());
      if (!s.stopped())
        checkDecorationValue(s, inst);
      break;
    case Op::DecorationGroup: {
      // Its result is used only by OpName, OpDecorate(Id), OpGroupDecorate and
      // OpGroupMemberDecorate.
      for (const DefUse::Use &u : s.defUse().uses(inst.resultId())) {
        Instruction user = s.module().inst(u.inst);
        if (user.isRaw())
          continue;
        const Op op = user.opcode();
        if (op == Op::Name || op == Op::Decorate || op == Op::DecorateId ||
            op == Op::DecorateString || op == Op::GroupDecorate || op == Op::GroupMemberDecorate ||
            State::isExtInst(op))
          continue;
        s.error(u.inst, "3.32.2 OpDecorationGroup",
                "the decoration group " + s.name(inst.resultId()) +
                    " may only be used by OpName, OpDecorate, OpDecorateId, OpGroupDecorate and "
                    "OpGroupMemberDecorate");
        break;
      }
      break;
    }
    case Op::GroupDecorate:
    case Op::GroupMemberDecorate: {
      // OpGroupDecorate %group Target...; OpGroupMemberDecorate %group (Target Member)...
      if (inst.wordCount() < 2)
        break;
      const bool member = inst.opcode() == Op::GroupMemberDecorate;
      const std::string rule = member ? "3.32.2 OpGroupMemberDecorate" : "3.32.2 OpGroupDecorate";
      if (s.defOpcode(inst.word(1)) != Op::DecorationGroup) {
        s.error(inst.index(), rule,
                "the decoration group operand " + s.name(inst.word(1)) +
                    " must be the result of OpDecorationGroup");
        break;
      }
      if (!member) {
        for (uint32_t w = 2; w < inst.wordCount(); ++w)
          if (s.defOpcode(inst.word(w)) == Op::DecorationGroup) {
            s.error(inst.index(), rule,
                    "a decoration group (" + s.name(inst.word(w)) +
                        ") cannot be the target of OpGroupDecorate");
            break;
          }
        // The group's decorations must suit each target as if applied directly (spirv-val
        // checks only direct ones: a group lets Constant reach a function parameter).
        for (uint32_t w = 2; w < inst.wordCount() && !s.stopped(); ++w) {
          if (s.defOpcode(inst.word(w)) == Op::DecorationGroup)
            continue;
          for (const AppliedDecoration &d : s.decorations(inst.word(1))) {
            const Instruction deco = s.module().inst(d.inst);
            if (deco.opcode() == Op::Decorate && deco.word(1) == inst.word(1))
              checkDecorationTarget(s, deco, inst.word(w), inst.index());
          }
        }
      } else {
        for (uint32_t w = 2; w + 1 < inst.wordCount(); w += 2)
          if (!checkStructMember(s, inst, rule, "OpGroupMemberDecorate", inst.word(w),
                                 inst.word(w + 1)))
            break;
      }
      break;
    }
    default:
      break;
    }
  }
  // Whole-module rules, one pass each.
  for (auto pass : {checkExclusive, checkRepeated, checkStructNesting, checkInterpolationNesting,
                    checkBufferBlockMix, checkTransformFeedback, checkLinkage, checkRoundingModes,
                    checkNonWritable, checkPushConstants, checkVulkanMemoryModelDecorations,
                    checkLines, checkBuffers, checkExplicitLayoutPlaces}) {
    if (s.stopped())
      return;
    pass(s);
  }
}

} // namespace spire::val
