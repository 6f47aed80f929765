// Rules: decorations, decoration groups and linkage (SPIR-V 2.16, 3.32.2 annotation
// instructions, OpMemberName), and the explicit layout of blocks (2.16.2).
#include "Rules.h"

#include <set>
#include <string>
#include <vector>

namespace spire::val {

namespace {

using grammar::Decoration;
using grammar::StorageClass;

std::string decorationName(uint32_t d) {
  if (const grammar::EnumerantDesc *e = grammar::findEnumerant(grammar::OperandKind::Decoration, d))
    return std::string(e->name);
  return "decoration " + std::to_string(d);
}

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

bool isTypeOp(Op op) {
  const grammar::InstructionDesc *d = grammar::findInstruction(uint32_t(op));
  return d != nullptr && op != Op::TypeForwardPointer &&
         (d->cls == grammar::InstructionClass::TypeDeclaration || d->name.starts_with("OpType"));
}

// OpDecorate %target Decoration ...: the kind of target each decoration needs (3.32.2 and the
// decoration table 3.20), and in Vulkan the storage classes some of them need.
void checkDecorationTarget(State &s, const Instruction &inst) {
  if (inst.wordCount() < 3)
    return;
  const uint32_t targetId = inst.word(1), deco = inst.word(2);
  auto target = s.def(targetId);
  if (!target || target->isRaw() || target->opcode() == Op::DecorationGroup)
    return;
  const Op op = target->opcode();
  const std::string rule = "3.32.2 / 3.20 " + decorationName(deco);
  auto fail = [&](std::string_view rule, std::string_view need) {
    s.error(inst.index(), rule,
            "the " + decorationName(deco) + " decoration cannot apply to " + s.name(targetId) +
                ": its target " + std::string(need));
  };
  if (deco == uint32_t(Decoration::RelaxedPrecision) && isTypeOp(op)) {
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
    if (op != Op::Variable && !isConstantOp(op))
      return fail(rule, "must be a variable, a structure member or a constant");
    if (s.hasCapability(grammar::Capability::Shader) && inst.wordCount() >= 4 &&
        inst.word(3) == uint32_t(grammar::BuiltIn::WorkgroupSize)) {
      if (!isConstantOp(op))
        return fail(rule, "must be a constant for WorkgroupSize");
    } else if (op != Op::Variable) {
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
    if (op != Op::Variable)
      return fail(rule, "must be a variable");
    break;
  default:
    break;
  }
  if (!s.isVulkan())
    return;
  uint32_t sc = uint32_t(StorageClass::Uniform);
  if (auto type = s.def(target->typeId());
      type && !type->isRaw() && type->opcode() == Op::TypePointer && type->wordCount() >= 4)
    sc = type->word(2);
  switch (static_cast<Decoration>(deco)) {
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
  default:
    break;
  }
}

// --- Explicit layout of blocks ------------------------------------------------------------------

struct LayoutChecker {
  State &s;

  // The decoration instructions of `id` that name it directly (not through a group).
  template <class F> bool anyDecoration(uint32_t id, F &&f) {
    for (uint32_t d : s.decorations(id)) {
      Instruction deco = s.module().inst(d);
      if (deco.isRaw() || deco.wordCount() < 3)
        continue;
      if (f(deco))
        return true;
    }
    return false;
  }

  // True when some member of structure `id` (or of a structure nested in it, through arrays)
  // has no Offset decoration.
  bool missingOffset(uint32_t id, int depth = 0) {
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
      for (uint32_t d : s.decorations(id)) {
        Instruction deco = s.module().inst(d);
        if (deco.isRaw())
          continue;
        if (deco.opcode() == Op::MemberDecorate && deco.wordCount() >= 5 && deco.word(1) == id &&
            deco.word(3) == uint32_t(Decoration::Offset)) {
          if (deco.word(4) == 0xFFFFFFFFu)
            return true;
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
  bool arraysHaveStride(uint32_t id, int depth = 0) {
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
  // decoration.
  bool matricesHaveStride(uint32_t id, int depth = 0) {
    auto inst = s.def(id);
    if (depth > 32 || !inst || inst->isRaw() || inst->opcode() != Op::TypeStruct)
      return true;
    bool groups = false;
    std::set<uint32_t> strided;
    for (uint32_t d : s.decorations(id)) {
      Instruction deco = s.module().inst(d);
      if (deco.isRaw())
        continue;
      if (deco.word(1) != id)
        groups = true;
      else if (deco.opcode() == Op::MemberDecorate && deco.wordCount() >= 4 &&
               deco.word(3) == uint32_t(Decoration::MatrixStride))
        strided.insert(deco.word(2));
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
      if (s.defOpcode(m) == Op::TypeMatrix && !groups && !strided.count(w - 2))
        return false;
    }
    for (uint32_t w = 2; w < inst->wordCount(); ++w)
      if (s.defOpcode(inst->word(w)) == Op::TypeStruct &&
          !matricesHaveStride(inst->word(w), depth + 1))
        return false;
    return true;
  }
};

// The entry points' reach: functions called (transitively) from an entry point.
std::vector<bool> reachableFunctions(State &s) {
  const auto fns = s.module().functions();
  std::vector<bool> reached(fns.size(), false);
  std::vector<uint32_t> work;
  auto functionIndex = [&](uint32_t id) -> uint32_t {
    const uint32_t i = s.module().defIndex(id);
    if (i == kNoIndex || s.module().inst(i).opcode() != Op::Function)
      return kNoIndex;
    return s.functionOf(i);
  };
  for (uint32_t e : s.entryPoints()) {
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

void checkBuffers(State &s) {
  LayoutChecker layout{s};
  std::optional<std::vector<bool>> reached;
  for (Instruction inst : s.module()) {
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
        reached = reachableFunctions(s);
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
    const std::string what = "structure " + s.name(type) + ", decorated " +
                             (block ? "Block" : "BufferBlock") + " and used by " + s.name(var);
    if (layout.missingOffset(type))
      s.error(inst.index(), "2.16.2",
              what + ", must give every member (of it and of structures nested in it) an "
                     "explicit Offset decoration");
    else if (!layout.arraysHaveStride(type))
      s.error(inst.index(), "2.16.2",
              what + ", must give every array type it contains an ArrayStride decoration");
    else if (!layout.matricesHaveStride(type))
      s.error(inst.index(), "2.16.2",
              what + ", must give every matrix member a MatrixStride decoration");
  }
}

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
    case Op::MemberDecorateString:
      // OpMemberDecorate %struct Member Decoration ...
      if (inst.wordCount() >= 4 &&
          checkStructMember(s, inst, "3.32.2 OpMemberDecorate", "OpMemberDecorate", inst.word(1),
                            inst.word(2)) &&
          notForMembers(inst.word(3)))
        s.error(inst.index(), "3.32.2 OpMemberDecorate",
                "the " + decorationName(inst.word(3)) +
                    " decoration cannot apply to a structure member");
      break;
    case Op::Decorate:
    case Op::DecorateId:
    case Op::DecorateString:
      checkDecorationTarget(s, inst);
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
            op == Op::ExtInst)
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
  if (!s.stopped())
    checkBuffers(s);
}

} // namespace spire::val
