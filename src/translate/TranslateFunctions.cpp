// Functions: the entry function and every function it reaches through calls, an OpFunction each
// (parameters as OpFunctionParameter, calls as OpFunctionCall), and the entry's parameters of the
// ray tracing stages bound to their module variables (payload, hit attributes, callable data).
#include "Translator.h"

namespace spire::translate {

using dxil::Opcode;
using dxil::ValueKind;

uint32_t Translator::functionId(uint32_t functionIndex) {
  auto [it, inserted] = functionIds_.emplace(functionIndex, 0);
  if (inserted)
    it->second = id();
  return it->second;
}

bool Translator::translateFunctions() {
  const dxil::LlvmModule &m = llvm();
  // The functions the entry reaches, in depth-first preorder; a call back into a function on the
  // stack is recursion, which SPIR-V does not allow (nor does DXIL).
  enum : uint8_t { kUnseen, kOnStack, kDone };
  std::vector<uint8_t> state(m.functions.size(), kUnseen);
  std::vector<uint32_t> order{entry_.functionIndex};
  struct Frame {
    uint32_t function, next;
  };
  std::vector<Frame> stack{{entry_.functionIndex, 0}};
  state[entry_.functionIndex] = kOnStack;
  while (!stack.empty()) {
    const uint32_t fi = stack.back().function;
    const dxil::Function &f = m.functions[fi];
    if (stack.back().next >= f.numInstructions) {
      state[fi] = kDone;
      stack.pop_back();
      continue;
    }
    const dxil::Instruction &inst = m.instructions[f.firstInstruction + stack.back().next++];
    const dxil::Function *callee = m.calledFunction(inst);
    if (!callee || callee->isDeclaration)
      continue;
    const uint32_t ci = uint32_t(callee - m.functions.data());
    if (state[ci] == kOnStack) {
      currentFunction_ = fi;
      return fail("recursion: '" + std::string(m.name(callee->value)) +
                  "' is called while it runs");
    }
    if (state[ci] == kUnseen) {
      state[ci] = kOnStack;
      order.push_back(ci);
      stack.push_back({ci, 0});
    }
  }
  for (uint32_t fi : order)
    if (!translateFunction(fi, fi == entry_.functionIndex))
      return false;
  emitTerminatorFunctions();
  return !failed_;
}

namespace {

/// The storage class of an entry parameter of a ray tracing stage: the payload (any hit, closest
/// hit, miss), the hit attributes (any hit, closest hit), the callable data (callable).
bool entryParameterClass(dxil::ShaderKind kind, uint32_t position, StorageClass &sc) {
  switch (kind) {
  case dxil::ShaderKind::AnyHit:
  case dxil::ShaderKind::ClosestHit:
    sc = position == 0 ? StorageClass::IncomingRayPayloadKHR : StorageClass::HitAttributeKHR;
    return position < 2;
  case dxil::ShaderKind::Miss:
    sc = StorageClass::IncomingRayPayloadKHR;
    return position == 0;
  case dxil::ShaderKind::Callable:
    sc = StorageClass::IncomingCallableDataKHR;
    return position == 0;
  default:
    return false;
  }
}

} // namespace

bool Translator::functionHeader(uint32_t functionIndex, bool isEntry,
                                std::vector<uint32_t> &header) {
  const dxil::LlvmModule &m = llvm();
  const dxil::Function &f = m.functions[functionIndex];
  auto signature = m.elements(f.functionType);
  if (signature.size() != size_t(f.numArguments) + 1)
    return fail("the function's type does not match its arguments");
  const uint32_t fn = functionId(functionIndex);
  if (isEntry) {
    // The SPIR-V entry point is void(void); a ray tracing stage's parameters are variables.
    for (uint32_t i = 0; i < f.numArguments; ++i) {
      const dxil::ValueId arg = f.firstArgument + i;
      StorageClass sc;
      const dxil::Type &t = m.type(m.typeOf(arg));
      if (!entryParameterClass(entry_.kind, i, sc) || t.kind != dxil::TypeKind::Pointer)
        return fail("an entry function with parameters (parameter " + std::to_string(i) + ")");
      const uint32_t pointee = llvmType(m.elementType(m.typeOf(arg)), sc);
      if (failed_)
        return false;
      const uint32_t var = rayTracingVariable(sc, pointee);
      if (!var)
        return false;
      setValue(arg, var);
      pointerClass_[arg] = sc;
    }
    const uint32_t type = typeFunction(typeVoid(), {});
    InstWriter(header, Op::Function).id(typeVoid()).id(fn).literal(0).id(type);
    return true;
  }
  const uint32_t result = llvmType(signature[0]);
  std::vector<uint32_t> params;
  for (uint32_t i = 0; i < f.numArguments; ++i)
    params.push_back(llvmType(signature[i + 1]));
  if (failed_)
    return false;
  const uint32_t type = typeFunction(result, params);
  std::vector<uint32_t> ids;
  for (uint32_t i = 0; i < f.numArguments; ++i) {
    const dxil::ValueId arg = f.firstArgument + i;
    ids.push_back(id());
    setValue(arg, ids.back());
    if (m.type(signature[i + 1]).kind == dxil::TypeKind::Pointer)
      pointerClass_[arg] = StorageClass::Function;
    name(ids.back(), m.name(arg));
  }
  InstWriter(header, Op::Function).id(result).id(fn).literal(0).id(type);
  for (uint32_t i = 0; i < f.numArguments; ++i)
    InstWriter(header, Op::FunctionParameter).id(params[i]).id(ids[i]);
  name(fn, exportName(m.name(f.value)));
  return true;
}

bool Translator::translateFunctionCall(const dxil::Instruction &inst,
                                       const dxil::Function &callee) {
  const dxil::LlvmModule &m = llvm();
  auto ops = m.operandsOf(inst).subspan(1);
  auto signature = m.elements(callee.functionType);
  if (ops.size() != callee.numArguments || signature.size() != ops.size() + 1)
    return fail("a call with " + std::to_string(ops.size()) + " arguments of a function with " +
                std::to_string(callee.numArguments) + " parameters");
  // A pointer argument must be a Function variable (a memory object declaration): an alloca or
  // a parameter of the caller. Any other pointer (an element, another storage class) is copied
  // into a Function variable before the call and back after it.
  struct Copy {
    uint32_t temporary, original, type;
    bool back;
  };
  std::vector<Copy> copies;
  std::vector<uint32_t> args{functionId(uint32_t(&callee - m.functions.data()))};
  for (size_t i = 0; i < ops.size(); ++i) {
    const uint32_t v = value(ops[i]);
    if (failed_)
      return false;
    if (m.type(signature[i + 1]).kind != dxil::TypeKind::Pointer) {
      args.push_back(v);
      continue;
    }
    const dxil::Value &actual = m.values[ops[i]];
    auto known = pointerClass_.find(ops[i]);
    const StorageClass sc = known == pointerClass_.end() ? StorageClass::Function : known->second;
    const bool variable = (actual.kind == ValueKind::Instruction &&
                           m.instructions[actual.index].opcode == Opcode::Alloca) ||
                          (actual.kind == ValueKind::Argument && sc == StorageClass::Function);
    if (variable) {
      args.push_back(v);
      continue;
    }
    // Groupshared memory is shared with the other invocations while the callee runs: a copy
    // would hide their writes (and make atomics local).
    if (sc == StorageClass::Workgroup)
      return fail("unsupported: a groupshared pointer passed to a function");
    const uint32_t type = llvmType(m.elementType(signature[i + 1]));
    if (failed_)
      return false;
    const uint32_t temporary = functionVariable(type);
    emitVoid(Op::Store, {temporary, emit(Op::Load, type, {v})});
    // Hit attributes are read-only outside intersection shaders.
    const bool back =
        !(sc == StorageClass::HitAttributeKHR && entry_.kind != dxil::ShaderKind::Intersection) &&
        sc != StorageClass::Input && sc != StorageClass::UniformConstant;
    copies.push_back({temporary, v, type, back});
    args.push_back(temporary);
  }
  const uint32_t result = llvmType(signature[0]);
  if (failed_)
    return false;
  const uint32_t r = emit(Op::FunctionCall, result, args);
  if (inst.value != dxil::kNoId)
    setValue(inst.value, r);
  for (const Copy &c : copies)
    if (c.back)
      emitVoid(Op::Store, {c.original, emit(Op::Load, c.type, {c.temporary})});
  return !failed_;
}

} // namespace spire::translate
