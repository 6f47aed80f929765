// Rules: functions, parameters, blocks and calls (SPIR-V 2.16.1, 3.32.9), and what an entry point's
// function must look like (3.32.5 OpEntryPoint).
#include "Rules.h"

#include "spire/module/Opcodes.h"

#include <string>

namespace spire::val {

namespace {

constexpr uint32_t kExecutionModelKernel = uint32_t(grammar::ExecutionModel::Kernel);

/// The OpTypeFunction of a function type id, or nothing.
std::optional<Instruction> functionType(const State &s, uint32_t id) {
  std::optional<Instruction> t = s.def(id);
  if (!t || t->opcode() != Op::TypeFunction || t->isRaw() || t->wordCount() < 3)
    return std::nullopt;
  return t;
}

std::string ordinal(size_t i) { return "#" + std::to_string(i); }

// OpFunction %ret %id Control %fnType, then its parameters.
void checkFunction(State &s, const FunctionInfo &f) {
  const Module &m = s.module();
  Instruction fn = m.inst(f.begin);
  if (fn.isRaw() || fn.wordCount() < 5)
    return;
  const uint32_t resultType = fn.word(1), id = fn.word(2), typeId = fn.word(4);
  std::optional<Instruction> type = functionType(s, typeId);
  if (!type) {
    s.error(f.begin, "3.32.9 OpFunction",
            "the Function Type " + s.name(typeId) + " of " + s.name(id) +
                " is not an OpTypeFunction");
    return;
  }
  if (type->word(2) != resultType)
    s.error(f.begin, "3.32.9 OpFunction",
            "the result type " + s.name(resultType) + " of " + s.name(id) +
                " differs from the return type " + s.name(type->word(2)) +
                " of its function type " + s.name(typeId));
  const uint32_t expected = type->wordCount() - 3;
  uint32_t count = 0;
  for (uint32_t i = f.begin + 1; i < f.end && i < m.size(); ++i) {
    Instruction p = m.inst(i);
    if (p.opcode() == Op::Line || p.opcode() == Op::NoLine)
      continue;
    if (p.opcode() != Op::FunctionParameter)
      break;
    if (!p.isRaw() && p.wordCount() >= 3) {
      if (count < expected) {
        const uint32_t want = type->word(3 + count);
        if (p.word(1) != want)
          s.error(i, "3.32.9 OpFunctionParameter",
                  "parameter " + ordinal(count) + " of " + s.name(id) + " has type " +
                      s.name(p.word(1)) + ", but its function type " + s.name(typeId) + " says " +
                      s.name(want));
      } else if (count == expected) {
        s.error(i, "3.32.9 OpFunctionParameter",
                s.name(id) + " has more parameters than the " + std::to_string(expected) +
                    " of its function type " + s.name(typeId));
      }
    }
    ++count;
  }
  if (count < expected)
    s.error(f.begin, "3.32.9 OpFunctionParameter",
            s.name(id) + " has " + std::to_string(count) + " parameter(s), but its function type " +
                s.name(typeId) + " has " + std::to_string(expected));
}

void logicalPointerArgument(State &s, const Instruction &inst, uint32_t arg, uint32_t type);

// OpFunctionCall %ret %id %callee args...
void checkCall(State &s, const Instruction &inst) {
  if (inst.wordCount() < 4)
    return;
  const uint32_t resultType = inst.word(1), calleeId = inst.word(3);
  std::optional<Instruction> callee = s.def(calleeId);
  if (!callee || callee->opcode() != Op::Function || callee->isRaw() || callee->wordCount() < 5) {
    s.error(inst.index(), "3.32.9 OpFunctionCall",
            "the callee " + s.name(calleeId) + " is not a function (OpFunction)");
    return;
  }
  for (uint32_t ep : s.entryPoints()) {
    Instruction e = s.module().inst(ep);
    if (!e.isRaw() && e.wordCount() >= 3 && e.word(2) == calleeId) {
      // "It is invalid for any function to be targeted by both an OpEntryPoint instruction and
      // an OpFunctionCall instruction" (2.16.1, Entry Point).
      s.error(inst.index(), "2.16.1",
              "the callee " + s.name(calleeId) +
                  " is an entry point's function; no function is both called and an entry point");
      break;
    }
  }
  if (callee->word(1) != resultType)
    s.error(inst.index(), "3.32.9 OpFunctionCall",
            "the result type " + s.name(resultType) + " differs from the return type " +
                s.name(callee->word(1)) + " of the callee " + s.name(calleeId));
  std::optional<Instruction> type = functionType(s, callee->word(4));
  if (!type)
    return; // reported at the callee
  const uint32_t params = type->wordCount() - 3, args = inst.wordCount() - 4;
  if (params != args) {
    s.error(inst.index(), "3.32.9 OpFunctionCall",
            "the call passes " + std::to_string(args) + " argument(s), but " + s.name(calleeId) +
                " takes " + std::to_string(params));
    return;
  }
  for (uint32_t a = 0; a < args; ++a) {
    const uint32_t arg = inst.word(4 + a), want = type->word(3 + a);
    const uint32_t got = s.typeOf(arg);
    if (got != 0 && got != want)
      s.error(inst.index(), "3.32.9 OpFunctionCall",
              "argument " + ordinal(a) + " " + s.name(arg) + " has type " + s.name(got) +
                  ", but parameter " + ordinal(a) + " of " + s.name(calleeId) + " has type " +
                  s.name(want));
    else if (got != 0)
      logicalPointerArgument(s, inst, arg, got);
  }
}

// 2.16.1, Logical addressing: "Any pointer operand to an OpFunctionCall must point into one of
// the following storage classes: UniformConstant, Function, Private, Workgroup, AtomicCounter"
// (and StorageBuffer with variable pointers), and "must be a memory object declaration, or a
// pointer to an element in an array that is a memory object declaration, where the element type
// is OpTypeSampler or OpTypeImage" (lifted for StorageBuffer and Workgroup with variable
// pointers). UniformConstant pointers pass whatever they come from, as spirv-val lets them.
void logicalPointerArgument(State &s, const Instruction &inst, uint32_t arg, uint32_t type) {
  const std::optional<uint32_t> sc = s.storageClass(type);
  if (!sc || !s.isPointerType(type) || s.options().relaxLogicalPointer ||
      s.addressingModel() != uint32_t(grammar::AddressingModel::Logical))
    return;
  using SC = grammar::StorageClass;
  const bool variablePointers = s.hasVariablePointers();
  const bool allowed = *sc == uint32_t(SC::UniformConstant) || *sc == uint32_t(SC::Function) ||
                       *sc == uint32_t(SC::Private) || *sc == uint32_t(SC::Workgroup) ||
                       *sc == uint32_t(SC::AtomicCounter) ||
                       (variablePointers && *sc == uint32_t(SC::StorageBuffer));
  if (!allowed) {
    s.error(inst.index(), "2.16.1",
            "the pointer argument " + s.name(arg) + " points into " +
                State::enumerantName(grammar::OperandKind::StorageClass, *sc) +
                " memory; with the Logical addressing model calls take pointers into "
                "UniformConstant, Function, Private, Workgroup or AtomicCounter memory (and "
                "StorageBuffer with variable pointers)");
    return;
  }
  const Op op = s.defOpcode(arg);
  const bool declaration = op == Op::Variable || op == Op::FunctionParameter;
  const bool lifted =
      *sc == uint32_t(SC::UniformConstant) ||
      (variablePointers && (*sc == uint32_t(SC::StorageBuffer) || *sc == uint32_t(SC::Workgroup)));
  if (!declaration && !lifted && op != kNoOp)
    s.error(inst.index(), "2.16.1",
            "the pointer argument " + s.name(arg) +
                " must be a memory object declaration (a variable or a function parameter) with "
                "the Logical addressing model");
}

// OpReturn / OpReturnValue against the enclosing function's return type.
void checkReturn(State &s, const Instruction &inst) {
  const uint32_t f = s.functionOf(inst.index());
  if (f == kNoIndex)
    return;
  Instruction fn = s.module().inst(s.module().functions()[f].begin);
  if (fn.isRaw() || fn.wordCount() < 5)
    return;
  const uint32_t returnType = fn.word(1);
  if (!s.isType(returnType))
    return; // the types and ids rules say what is wrong with it
  if (inst.opcode() == Op::Return) {
    if (!s.isVoidType(returnType))
      s.error(inst.index(), "3.32.17 OpReturn",
              "an OpReturn in " + s.name(fn.word(2)) + ", whose return type is " +
                  s.name(returnType) + ": a function that returns a value must use OpReturnValue");
    return;
  }
  if (inst.wordCount() < 2)
    return;
  if (s.isVoidType(returnType)) {
    s.error(inst.index(), "3.32.17 OpReturnValue",
            "an OpReturnValue in " + s.name(fn.word(2)) +
                ", which returns void: a void function must use OpReturn");
    return;
  }
  const uint32_t value = inst.word(1), type = s.typeOf(value);
  if (type != 0 && type != returnType)
    s.error(inst.index(), "3.32.17 OpReturnValue",
            "the returned value " + s.name(value) + " has type " + s.name(type) + ", but " +
                s.name(fn.word(2)) + " returns " + s.name(returnType));
  // 2.16.1, Logical addressing: only with VariablePointers or VariablePointersStorageBuffer "a
  // pointer can be an operand to ... OpReturnValue".
  else if (type != 0 && s.isPointerType(type) &&
           s.addressingModel() == uint32_t(grammar::AddressingModel::Logical) &&
           !s.options().relaxLogicalPointer && !s.hasVariablePointers())
    s.error(inst.index(), "2.16.1",
            "with the Logical addressing model, returning the pointer " + s.name(value) +
                " needs the VariablePointers or VariablePointersStorageBuffer capability");
}

// OpEntryPoint Model %function "name" interface...
void checkEntryPoint(State &s, const Instruction &inst) {
  if (inst.isRaw() || inst.wordCount() < 3)
    return;
  const uint32_t model = inst.word(1), id = inst.word(2);
  std::optional<Instruction> fn = s.def(id);
  if (!fn || fn->opcode() != Op::Function) {
    s.error(inst.index(), "3.32.5 OpEntryPoint",
            "the entry point " + s.name(id) + " is not a function (OpFunction)");
    return;
  }
  if (fn->isRaw() || fn->wordCount() < 5)
    return;
  if (model != kExecutionModelKernel) {
    std::optional<Instruction> type = functionType(s, fn->word(4));
    if (type && type->wordCount() != 3)
      s.error(inst.index(), "3.32.5 OpEntryPoint",
              "the entry point function " + s.name(id) +
                  " has parameters; only Kernel entry points may take parameters");
  }
  if (!s.isVoidType(fn->word(1)))
    s.error(inst.index(), "3.32.5 OpEntryPoint",
            "the entry point function " + s.name(id) + " returns " + s.name(fn->word(1)) +
                "; an entry point's function must return void");
}

} // namespace

void checkFunctions(State &s) {
  const Module &m = s.module();
  for (const FunctionInfo &f : m.functions()) {
    if (s.stopped())
      return;
    checkFunction(s, f);
  }
  for (Instruction inst : m) {
    if (s.stopped())
      return;
    if (inst.isRaw())
      continue;
    switch (inst.opcode()) {
    case Op::FunctionCall:
      checkCall(s, inst);
      break;
    case Op::Return:
    case Op::ReturnValue:
      checkReturn(s, inst);
      break;
    case Op::EntryPoint:
      checkEntryPoint(s, inst);
      break;
    default:
      break;
    }
  }
}

} // namespace spire::val
