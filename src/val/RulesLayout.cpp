// Rules: the logical layout of a module (SPIR-V 2.4).
//
// One pass over the instructions with a small state machine: the section the module has reached,
// whether it is inside a function and inside a block, or inside a graph (SPV_ARM_graph: graph
// entry points and graphs, OpGraphARM to OpGraphEndARM, follow the functions; graph constants are
// module-level constants). Instructions of a section that was already
// left, instructions that need the memory model before it is declared, and the structure of
// functions and blocks (OpFunction ... OpFunctionEnd, OpLabel ... terminator) are checked here;
// the other families rely on Module's function and block index, which is only meaningful once
// these rules pass.
#include "Rules.h"

#include "spire/module/Opcodes.h"

#include <atomic>
#include <string>

namespace spire::val {

namespace {

// The sections of 2.4, with OpSamplerImageAddressingModeNV's between the memory model and the
// entry points.
enum Sec : uint8_t {
  kCapabilities,
  kExtensions,
  kImports,
  kMemoryModel,
  kSamplerAddressing,
  kEntryPoints,
  kExecutionModes,
  kDebugSource,
  kDebugNames,
  kDebugProcessed,
  kAnnotations,
  kGlobals,
  kFunctionDeclarations,
  kFunctionDefinitions,
};

constexpr std::string_view kSecNames[] = {"capabilities",
                                          "extensions",
                                          "extended instruction imports",
                                          "memory model",
                                          "sampler addressing mode",
                                          "entry points",
                                          "execution modes",
                                          "debug sources and strings",
                                          "debug names",
                                          "module-processed annotations",
                                          "annotations",
                                          "types, constants and global variables",
                                          "function declarations",
                                          "function definitions"};

std::string_view opName(Op op) {
  if (const grammar::InstructionDesc *d = grammar::findInstruction(static_cast<uint32_t>(op)))
    return d->name;
  return "an unknown instruction";
}

/// The opcodes of types and constants: the grammar's classes, SPIRV-Tools' type list, and
/// extensions' constants that are not always in the grammar's class (their names say).
bool computeTypeOrConstant(Op op) {
  const grammar::InstructionDesc *d = grammar::findInstruction(static_cast<uint32_t>(op));
  if (d == nullptr)
    return false;
  // The descriptor's class is what isTypeDeclaration and isConstantCreation look up.
  return d->cls == grammar::InstructionClass::TypeDeclaration ||
         d->cls == grammar::InstructionClass::ConstantCreation || declaresType(op) ||
         op == Op::GraphConstantARM || // SPV_ARM_graph's constants are module-level ones
         d->name.starts_with("OpConstant") || d->name.starts_with("OpSpecConstant");
}

/// Asked of every instruction: the core opcodes' answers are kept as first asked for (a table
/// over the whole grammar, made at every start, cost more than a small module's asking; relaxed
/// atomics, as any thread may fill an entry, always with the same value).
bool isTypeOrConstant(Op op) {
  constexpr uint8_t kKnown = 1, kYes = 2;
  static std::atomic<uint8_t> memo[1024];
  const uint32_t v = static_cast<uint16_t>(op); // (an opcode is 16 bits)
  if (v >= std::size(memo))
    return computeTypeOrConstant(static_cast<Op>(v));
  uint8_t f = memo[v].load(std::memory_order_relaxed);
  if (f == 0) {
    f = kKnown | (computeTypeOrConstant(static_cast<Op>(v)) ? kYes : 0);
    memo[v].store(f, std::memory_order_relaxed);
  }
  return f & kYes;
}

bool isAnnotation(Op op) {
  switch (op) {
  case Op::Decorate:
  case Op::MemberDecorate:
  case Op::GroupDecorate:
  case Op::GroupMemberDecorate:
  case Op::DecorationGroup:
  case Op::DecorateId:
  case Op::DecorateString:
  case Op::MemberDecorateString:
    return true;
  default:
    return false;
  }
}

// Instructions that belong to one of the module-level sections before the globals.
bool isModuleHeaderOp(Op op) {
  switch (op) {
  case Op::Capability:
  case Op::Extension:
  case Op::ExtInstImport:
  case Op::MemoryModel:
  case Op::SamplerImageAddressingModeNV:
  case Op::EntryPoint:
  case Op::ExecutionMode:
  case Op::ExecutionModeId:
  case Op::SourceContinued:
  case Op::Source:
  case Op::SourceExtension:
  case Op::String:
  case Op::Name:
  case Op::MemberName:
  case Op::ModuleProcessed:
    return true;
  default:
    return isAnnotation(op);
  }
}

/// True when `op` may appear in section `sec` (OpExtInst is handled apart).
bool inSection(Sec sec, Op op) {
  switch (sec) {
  case kCapabilities:
    return op == Op::Capability;
  case kExtensions:
    return op == Op::Extension;
  case kImports:
    return op == Op::ExtInstImport;
  case kMemoryModel:
    return op == Op::MemoryModel;
  case kSamplerAddressing:
    return op == Op::SamplerImageAddressingModeNV;
  case kEntryPoints:
    return op == Op::EntryPoint;
  case kExecutionModes:
    return op == Op::ExecutionMode || op == Op::ExecutionModeId;
  case kDebugSource:
    return op == Op::SourceContinued || op == Op::Source || op == Op::SourceExtension ||
           op == Op::String;
  case kDebugNames:
    return op == Op::Name || op == Op::MemberName;
  case kDebugProcessed:
    return op == Op::ModuleProcessed;
  case kAnnotations:
    return isAnnotation(op);
  case kGlobals:
    if (isTypeOrConstant(op))
      return true;
    switch (op) {
    case Op::TypeForwardPointer:
    case Op::Variable:
    case Op::UntypedVariableKHR: // SPV_KHR_untyped_pointers: global untyped variables
    case Op::AsmTargetINTEL:     // SPV_INTEL_inline_assembly: targets and assembly are global
    case Op::AsmINTEL:
    case Op::Line:
    case Op::NoLine:
    case Op::Undef:
    case Op::SpecConstantOp:
    case Op::ExtInst:
    case Op::ExtInstWithForwardRefsKHR:
      return true;
    default:
      return false;
    }
  case kFunctionDeclarations:
  case kFunctionDefinitions:
    return !isTypeOrConstant(op) && !isModuleHeaderOp(op) && op != Op::TypeForwardPointer;
  }
  return false;
}

// What kind of extended instruction an OpExtInst is, for its place in the module.
enum class ExtKind { Ordinary, NonSemantic, DebugGlobal, DebugLocal };

ExtKind extKind(const State &s, const Instruction &inst) {
  if (inst.wordCount() < 5)
    return ExtKind::Ordinary;
  const uint32_t setId = inst.word(3), number = inst.word(4);
  std::optional<Instruction> imp = s.def(setId);
  if (!imp || imp->opcode() != Op::ExtInstImport || imp->isRaw() || imp->operands().size() < 2)
    return ExtKind::Ordinary;
  const std::string setName = imp->stringOperand(imp->operands()[1]);
  if (setName == "OpenCL.DebugInfo.100" || setName == "DebugInfo") {
    using D = grammar::OpenclDebuginfo100Inst;
    return number == uint32_t(D::DebugScope) || number == uint32_t(D::DebugNoScope) ||
                   number == uint32_t(D::DebugDeclare) || number == uint32_t(D::DebugValue)
               ? ExtKind::DebugLocal
               : ExtKind::DebugGlobal;
  }
  if (setName == "NonSemantic.Shader.DebugInfo.100") {
    // ... and DebugLine, DebugNoLine, DebugFunctionDefinition.
    using D = grammar::NonsemanticShaderDebuginfo100Inst;
    return number == uint32_t(D::DebugScope) || number == uint32_t(D::DebugNoScope) ||
                   number == uint32_t(D::DebugDeclare) || number == uint32_t(D::DebugValue) ||
                   number == uint32_t(D::DebugFunctionDefinition) ||
                   number == uint32_t(D::DebugLine) || number == uint32_t(D::DebugNoLine)
               ? ExtKind::DebugLocal
               : ExtKind::DebugGlobal;
  }
  if (setName.rfind("NonSemantic.", 0) == 0)
    return ExtKind::NonSemantic;
  return ExtKind::Ordinary;
}

class LayoutChecker {
public:
  explicit LayoutChecker(State &s) : s_(s) {}

  void run() {
    const Module &m = s_.module();
    for (uint32_t i = 0; i < m.size() && !s_.stopped(); ++i) {
      Instruction inst = m.inst(i);
      if (grammar::findInstruction(static_cast<uint32_t>(inst.opcode())) == nullptr)
        continue; // an opcode the grammar does not know: the reader and availability say so
      step(inst);
    }
    if (s_.stopped())
      return;
    if (inFunction_)
      s_.error(m.size() == 0 ? kNoIndex : m.size() - 1, "2.4",
               "missing OpFunctionEnd at end of module: the function " + s_.name(functionId_) +
                   " is never closed");
    if (inGraph_)
      s_.error(m.size() - 1, "2.4",
               "missing OpGraphEndARM at end of module: a graph is never "
               "closed");
    if (!sawMemoryModel_ && errors_ == 0)
      s_.error(kNoIndex, "2.4",
               "the module has no OpMemoryModel instruction; exactly one is required after the "
               "capabilities, extensions and imports");
  }

private:
  void fail(uint32_t index, std::string message) {
    ++errors_;
    s_.error(index, "2.4", std::move(message));
  }

  void step(const Instruction &inst) {
    const Op op = inst.opcode();
    if (op == Op::MemoryModel) {
      if (sawMemoryModel_)
        fail(inst.index(), "a second OpMemoryModel: a module declares its memory model once");
      sawMemoryModel_ = true;
    }
    if (sec_ < kFunctionDeclarations)
      moduleScoped(inst, op);
    else
      functionScoped(inst, op);
  }

  void moduleScoped(const Instruction &inst, Op op) {
    if (State::isExtInst(op)) {
      switch (extKind(s_, inst)) {
      case ExtKind::DebugLocal:
        fail(inst.index(), "a debug-info scope, declare, value or line instruction (OpExtInst) "
                           "must appear in a function body, not at module level");
        return;
      case ExtKind::DebugGlobal:
      case ExtKind::NonSemantic:
        if (sec_ < kGlobals) {
          fail(inst.index(), "a non-semantic or debug-info OpExtInst must not come before the "
                             "types, constants and global variables section (it is now in the " +
                                 std::string(kSecNames[sec_]) + " section)");
          return;
        }
        return; // allowed among the globals
      case ExtKind::Ordinary:
        fail(inst.index(), std::string(opName(op)) +
                               " must appear in a block of a function; only non-semantic "
                               "extended instructions may appear at module level");
        return;
      }
    }
    while (!inSection(sec_, op)) {
      for (int earlier = int(sec_) - 1; earlier >= 0; --earlier) {
        if (inSection(Sec(earlier), op)) {
          fail(inst.index(), std::string(opName(op)) + " is out of order: it belongs to the " +
                                 std::string(kSecNames[earlier]) +
                                 " section, but the module is already in the " +
                                 std::string(kSecNames[sec_]) + " section");
          return;
        }
      }
      sec_ = Sec(sec_ + 1);
      if (sec_ == kMemoryModel && op != Op::MemoryModel) {
        fail(inst.index(),
             std::string(opName(op)) +
                 " cannot appear before the memory model instruction: after the capabilities, "
                 "extensions and imports a module must have its OpMemoryModel");
        // Go on as if the memory model were there, so that one omission is one error.
        while (sec_ < kFunctionDeclarations && !inSection(sec_, op))
          sec_ = Sec(sec_ + 1);
        if (sec_ == kFunctionDeclarations)
          functionScoped(inst, op);
        return;
      }
      if (sec_ == kFunctionDeclarations) {
        functionScoped(inst, op);
        return;
      }
    }
  }

  /// SPV_ARM_graph: graph entry points and graphs after the functions, a graph's inputs, outputs
  /// and end inside it; true when `op` is one of these (checked here).
  bool graphScoped(uint32_t idx, Op op) {
    switch (op) {
    case Op::GraphEntryPointARM:
    case Op::GraphARM:
      if (inFunction_) {
        fail(idx, std::string(opName(op)) + " inside the function " + s_.name(functionId_) +
                      ": graphs and their entry points follow the functions");
        return true;
      }
      if (inGraph_) {
        fail(idx, std::string(opName(op)) + " inside a graph: the graph before it lacks its "
                                            "OpGraphEndARM");
        return true;
      }
      sec_ = kFunctionDefinitions;
      inGraph_ = op == Op::GraphARM;
      return true;
    case Op::GraphInputARM:
    case Op::GraphSetOutputARM:
    case Op::GraphEndARM:
      if (!inGraph_)
        fail(idx, std::string(opName(op)) +
                      " outside a graph: it must appear between an OpGraphARM and its "
                      "OpGraphEndARM");
      inGraph_ = inGraph_ && op != Op::GraphEndARM;
      return true;
    default:
      return false;
    }
  }

  void functionScoped(const Instruction &inst, Op op) {
    const uint32_t idx = inst.index();
    if (graphScoped(idx, op))
      return;
    if (inGraph_ && inSection(kFunctionDefinitions, op) && op != Op::Function &&
        op != Op::FunctionParameter && op != Op::FunctionEnd && op != Op::Label &&
        !isBlockTerminator(op))
      return; // an instruction of a graph's body
    if (!inSection(kFunctionDefinitions, op)) {
      fail(idx, std::string(opName(op)) + " cannot appear among the functions: it belongs to " +
                    "the module-level sections before the first OpFunction");
      return;
    }
    switch (op) {
    case Op::Function:
      if (inFunction_) {
        fail(idx, "OpFunction inside the body of the function " + s_.name(functionId_) +
                      ": a function cannot be declared in another; the previous one lacks its "
                      "OpFunctionEnd");
      }
      inFunction_ = true;
      inBlock_ = false;
      blocks_ = 0;
      functionId_ = inst.resultId();
      return;
    case Op::FunctionParameter:
      if (!inFunction_) {
        fail(idx, "OpFunctionParameter outside a function body: parameters must directly "
                  "follow their OpFunction");
        return;
      }
      if (blocks_ != 0)
        fail(idx, "OpFunctionParameter after the first block of " + s_.name(functionId_) +
                      ": parameters must come immediately after OpFunction, before any OpLabel");
      return;
    case Op::FunctionEnd:
      if (!inFunction_) {
        fail(idx, "OpFunctionEnd outside a function body: there is no OpFunction to end");
        return;
      }
      if (inBlock_) {
        fail(idx, "OpFunctionEnd inside a block: the last block of " + s_.name(functionId_) +
                      " must end with a branch, return or other terminator first");
      } else if (blocks_ == 0 && sec_ == kFunctionDefinitions) {
        fail(idx, "the function declaration " + s_.name(functionId_) +
                      " (no blocks) comes after a function definition: all declarations must "
                      "come before the definitions");
      }
      inFunction_ = false;
      inBlock_ = false;
      return;
    case Op::Line:
    case Op::NoLine:
      return;
    case Op::Label:
      if (!inFunction_) {
        fail(idx, "OpLabel outside a function body: blocks exist only in function definitions");
        return;
      }
      if (inBlock_)
        fail(idx, "OpLabel inside a block: the block before it must end with a branch, return or "
                  "other terminator");
      sec_ = kFunctionDefinitions;
      inBlock_ = true;
      ++blocks_;
      return;
    case Op::ExtInst:
    case Op::ExtInstWithForwardRefsKHR:
      switch (extKind(s_, inst)) {
      case ExtKind::DebugLocal:
        if (!inFunction_)
          fail(idx, "a debug-info scope, declare, value or line instruction (OpExtInst) must "
                    "appear in a function body");
        return;
      case ExtKind::DebugGlobal:
        fail(idx, "a debug-info extended instruction other than a scope, declare, value or line "
                  "must appear among the types, constants and global variables, not among the "
                  "functions");
        return;
      case ExtKind::NonSemantic:
        if (inFunction_ && !inBlock_)
          fail(idx, "a non-semantic OpExtInst inside a function must appear in a block");
        return;
      case ExtKind::Ordinary:
        break;
      }
      break;
    default:
      break;
    }
    if (inFunction_ && blocks_ == 0) {
      fail(idx, std::string(opName(op)) + " before the first OpLabel of " + s_.name(functionId_) +
                    ": a function body must begin with a label after its parameters");
      return;
    }
    if (!inBlock_) {
      fail(idx, std::string(opName(op)) +
                    " must appear in a block (between an OpLabel and its terminator)");
      return;
    }
    if (isBlockTerminator(op))
      inBlock_ = false;
  }

  State &s_;
  Sec sec_ = kCapabilities;
  bool inFunction_ = false, inBlock_ = false, inGraph_ = false, sawMemoryModel_ = false;
  uint32_t blocks_ = 0, functionId_ = 0;
  size_t errors_ = 0;
};

// OpVariable in a function: Function storage, in the first block, before everything else of it
// (OpLine, OpNoLine and non-semantic or debug-info extended instructions aside).
void checkFunctionVariables(State &s) {
  const Module &m = s.module();
  for (const FunctionInfo &f : m.functions()) {
    auto blocks = m.blocks(f);
    for (size_t b = 0; b < blocks.size() && !s.stopped(); ++b) {
      bool leading = b == 0;
      for (uint32_t i = blocks[b].label + 1; i < blocks[b].end && i < m.size(); ++i) {
        Instruction inst = m.inst(i);
        const Op op = inst.opcode();
        if (op == Op::Line || op == Op::NoLine)
          continue;
        if (State::isExtInst(op) && !inst.isRaw() && extKind(s, inst) != ExtKind::Ordinary)
          continue;
        if (op != Op::Variable) {
          leading = false;
          continue;
        }
        if (b != 0)
          s.error(i, "2.4",
                  "the OpVariable " + s.name(inst.resultId()) +
                      " is not in the first block of its function: function variables must "
                      "all be declared at the start of the first block");
        else if (!leading)
          s.error(i, "2.4",
                  "the OpVariable " + s.name(inst.resultId()) +
                      " follows other instructions: function variables must be the first "
                      "instructions of the function's first block");
      }
    }
  }
}

} // namespace

void checkLayout(State &s) {
  LayoutChecker checker(s);
  checker.run();
  if (s.errorCount() == 0)
    checkFunctionVariables(s);
}

} // namespace spire::val
