// Rules: definitions and uses of ids (SPIR-V 2.2 "Instructions", 2.4 "Forward references",
// 2.5 "SSA form" and 2.16.1 "Universal validation rules").
//
// - Every <id> is the result of exactly one instruction.
// - Every <id> used is defined somewhere in the module.
// - An <id> is defined before it is used, except where 2.4 allows a forward reference: debug
//   names, decorations, entry points and execution modes, forward-declared pointer types, OpPhi,
//   branch and merge targets, function calls, and the operands of non-semantic and debug-info
//   extended instructions.
// - Types are used where a type is expected and values where a value is expected.
// - A value defined in a function is used only in that function, and its definition dominates
//   every use (OpPhi operands, labels as branch targets and uses of functions and function types
//   are the control-flow and function rules').
#include "Rules.h"

#include <algorithm>
#include <array>
#include <unordered_set>
#include <vector>

namespace spire::val {

namespace {

using grammar::OperandCategory;
using grammar::OperandKind;

bool isAnnotationOrDebug(Op op) {
  switch (op) {
  case Op::Name:
  case Op::MemberName:
  case Op::Decorate:
  case Op::DecorateId:
  case Op::DecorateString:
  case Op::MemberDecorate:
  case Op::MemberDecorateString:
  case Op::GroupDecorate:
  case Op::GroupMemberDecorate:
  case Op::DecorationGroup:
  case Op::String:
  case Op::Line:
  case Op::NoLine:
  case Op::Source:
  case Op::SourceContinued:
  case Op::SourceExtension:
  case Op::ModuleProcessed:
    return true;
  default:
    return false;
  }
}

// True for OpExtInst of a set whose operands may name ids defined later and whose operands are
// not values of the computation: non-semantic sets and the debug-information sets.
bool isDebugOrNonSemanticExtInst(const State &s, const Instruction &inst) {
  if (!State::isExtInst(inst.opcode()) || inst.wordCount() < 4)
    return false;
  // What the reader learnt of the import: no string to decode again per instruction.
  return s.module().extInstImport(inst.word(3)).describesOnly();
}

// Instructions whose id operands may all name ids that are defined later (2.4).
bool mayReferenceForward(Op op) {
  switch (op) {
  case Op::Name:
  case Op::MemberName:
  case Op::Decorate:
  case Op::DecorateId:
  case Op::DecorateString:
  case Op::MemberDecorate:
  case Op::MemberDecorateString:
  case Op::GroupDecorate:
  case Op::GroupMemberDecorate:
  case Op::EntryPoint:
  case Op::ExecutionMode:
  case Op::ExecutionModeId:
  case Op::TypeForwardPointer:
  case Op::Phi:
  case Op::GraphEntryPointARM: // (its graph follows)
    return true;
  default:
    return false;
  }
}

// Instructions whose operands may be types although the instruction declares no type.
bool takesTypeOperands(Op op) {
  switch (static_cast<uint32_t>(op)) {
  case uint32_t(Op::Function): // its function type
  case uint32_t(Op::CooperativeMatrixLengthNV):
  case uint32_t(Op::JointMatrixWorkItemLengthINTEL):
  case uint32_t(Op::ConstantSizeOfEXT): // the size of its Type operand
  // OpSizeOf takes a pointer or, as the OpenCL translator emits and spirv-val accepts since
  // v2024 ("Accept valid OpSizeOf instructions"), a pointer type: either points to a type.
  case uint32_t(Op::SizeOf):
  // SPV_INTEL_inline_assembly: OpAsmINTEL names its function type and an OpAsmTargetINTEL.
  case uint32_t(Op::AsmINTEL):
  // OpCooperativeMatrixLengthKHR and the untyped pointer instructions of
  // SPV_KHR_untyped_pointers, which name the type they access.
  case uint32_t(Op::CooperativeMatrixLengthKHR):
  case uint32_t(Op::UntypedVariableKHR):
  case uint32_t(Op::UntypedAccessChainKHR):
  case uint32_t(Op::UntypedInBoundsAccessChainKHR):
  case uint32_t(Op::UntypedPtrAccessChainKHR):
  case uint32_t(Op::UntypedInBoundsPtrAccessChainKHR):
  case uint32_t(Op::UntypedArrayLengthKHR):
  case uint32_t(Op::UntypedPrefetchKHR):
  case uint32_t(Op::UntypedGroupAsyncCopyKHR):
    return true;
  default:
    return false;
  }
}

class IdChecker {
public:
  explicit IdChecker(State &s)
      : s_(s), m_(s.module()), graph_(std::make_unique<CallGraph>(s, CallGraph::ToFill{})) {}

  void run() {
    for (Instruction inst : m_) {
      if (s_.stopped())
        return;
      if (inst.isRaw())
        continue;
      if (inst.opcode() == Op::TypeForwardPointer && inst.wordCount() >= 2)
        forwardPointers_.insert(inst.word(1));
      checkDefinition(inst);
      checkUses(inst);
    }
    if (s_.stopped())
      return;
    s_.functionTypeUsesDone();
    graph_->finish();
    s_.adoptCallGraph(std::move(graph_));
    reportDominance();
  }

private:
  void checkDefinition(const Instruction &inst) {
    const uint32_t id = inst.resultId();
    if (id == 0)
      return;
    // "all <id>s in this module are guaranteed to satisfy 0 < id < Bound" (2.3): a bound of 0
    // holds no id, which the decoder's per-operand check (ids below a nonzero bound) leaves to
    // this rule. Said once, at the first definition, as spirv-val does.
    if (m_.bound() == 0 && !zeroBoundReported_) {
      zeroBoundReported_ = true;
      s_.error(inst.index(), "2.3",
               "id " + s_.name(id) +
                   " is not below the header's bound 0: a module with ids "
                   "needs a bound above every id");
    }
    const uint32_t first = m_.defIndex(id);
    if (first != inst.index() && first != kNoIndex)
      s_.error(inst.index(), "2.2",
               "id " + s_.name(id) + " is already the result of instruction " +
                   std::to_string(first) + ": every id is defined exactly once");
  }

  void checkUses(const Instruction &inst) {
    const Op op = inst.opcode();
    const uint32_t here = inst.index();
    const bool debugExtInst = isDebugOrNonSemanticExtInst(s_, inst);
    const bool forwardOk = mayReferenceForward(op) || op == Op::ExtInstWithForwardRefsKHR;
    // OpSpecConstantOp's operands are its operation's (OpCooperativeMatrixLength* takes a type).
    const Op performed =
        op == Op::SpecConstantOp && inst.wordCount() > 3 ? static_cast<Op>(inst.word(3)) : op;
    const bool lenientKinds = definesType(op) || isAnnotationOrDebug(op) ||
                              takesTypeOperands(performed) || debugExtInst ||
                              op == Op::EntryPoint || op == Op::ExecutionMode ||
                              op == Op::ExecutionModeId;
    const uint32_t fn = s_.functionOf(here);
    // The instructions of that function: a definition among them needs no look-up of its own.
    uint32_t fnBegin = 0, fnEnd = 0;
    if (fn != kNoIndex) {
      fnBegin = m_.functions()[fn].begin;
      fnEnd = m_.functions()[fn].end;
    }
    // 2.16.1's dominance of each use, in the same walk: the instruction's block, when it is a
    // reachable block of a function (OpPhi's operands are the control-flow rules', debug and
    // non-semantic instructions' are no uses).
    uint32_t useBlock = kNoIndex;
    if (fn != kNoIndex && m_.functions()[fn].numBlocks != 0 && op != Op::Phi && !debugExtInst) {
      enterFunction(fn);
      if (here - fnBegin_ < blockAt_.size() && blockAt_[here - fnBegin_] != kNoIndex &&
          cfg_->reachable(blockAt_[here - fnBegin_]))
        useBlock = blockAt_[here - fnBegin_];
    }
    if (fn != kNoIndex && op == Op::FunctionCall)
      graph_->addCall(fn, inst);
    auto ops = inst.operands();
    for (size_t k = 0; k < ops.size(); ++k) {
      const OperandKind kind = ops[k].kind;
      if (grammar::operandCategory(kind) != OperandCategory::Id || kind == OperandKind::IdResult)
        continue;
      const uint32_t id = inst.word(ops[k].offset);
      const uint32_t def = m_.defIndex(id);
      // Most operands are values of this function defined before this instruction: of the
      // rules below only dominance and "a value has a type" can apply to them (no forward
      // reference, no other function, no global for the call graph), unless the definition is
      // a type, label or function.
      if (fn != kNoIndex && def >= fnBegin && def < here && kind != OperandKind::IdResultType) {
        const Instruction definition = m_.inst(def);
        const Op defOp = definition.opcode();
        if (!definesType(defOp) && defOp != Op::Label && defOp != Op::Function) {
          if (useBlock != kNoIndex) {
            const uint32_t defBlock = blockOfDefinition(def);
            if (defBlock != kNoIndex && defBlock != useBlock &&
                !dom_->dominates(defBlock, useBlock))
              undominated_.push_back({here, id, fn, defBlock, useBlock});
          }
          if (!lenientKinds && !(State::isExtInst(op) && ops[k].offset == 3) &&
              definition.typeId() == 0)
            s_.error(here, "2.16.1",
                     "operand " + s_.name(id) + " is the result of " + State::opcodeName(defOp) +
                         ", which has no type, where a value is expected");
          continue;
        }
      }
      // And a result type is mostly a type declared before, outside functions.
      if (kind == OperandKind::IdResultType && def < here && s_.functionOf(def) == kNoIndex) {
        const Op defOp = m_.inst(def).opcode();
        if (definesType(defOp) && defOp != Op::TypeFunction)
          continue;
      }
      if (useBlock != kNoIndex && def != kNoIndex && kind != OperandKind::IdResultType) {
        const uint32_t defBlock = blockOfDefinition(def);
        if (defBlock != kNoIndex && defBlock != useBlock && !dom_->dominates(defBlock, useBlock))
          undominated_.push_back({here, id, fn, defBlock, useBlock});
      }
      if (def == kNoIndex) {
        if (!reportedUndefined_.insert(id).second)
          continue;
        s_.error(here, "2.2", "id " + s_.name(id) + " is used but never defined");
        continue;
      }
      const Op defOp = m_.inst(def).opcode();
      // The call graph's globals: what a function's instructions name from outside functions.
      // (Variables and the composite constants that may name them: CallGraph::addUse.)
      if ((defOp == Op::Variable || defOp == Op::ConstantComposite ||
           defOp == Op::SpecConstantComposite || defOp == Op::SpecConstantOp) &&
          fn != kNoIndex && kind != OperandKind::IdResultType && (def < fnBegin || def >= fnEnd) &&
          s_.functionOf(def) == kNoIndex)
        graph_->addUse(fn, id, defOp);
      if (defOp == Op::TypeFunction)
        s_.recordFunctionTypeUse(id, here); // for the type rules (State::functionTypeUses)
      // Where a label may stand: the targets of branches and merges, not the condition or
      // selector of OpBranchConditional / OpSwitch.
      const bool labelOperand =
          takesLabels(op) &&
          !((op == Op::BranchConditional || op == Op::Switch) && ops[k].offset == 1);
      if (def >= here && !forwardOk && !forwardPointers_.count(id) && defOp != Op::Function &&
          !(defOp == Op::Label && labelOperand)) {
        s_.error(here, "2.4",
                 "id " + s_.name(id) + " is used before its definition (instruction " +
                     std::to_string(def) + "); only the forward references of 2.4 are allowed");
        continue;
      }
      // A value of a function belongs to it; OpFunction itself is named from anywhere.
      // (Labels of other functions as branch targets are the control-flow rules'.) OpPhi may
      // name values defined later, but of its own function only.
      if (defOp != Op::Function && defOp != Op::Label && (!forwardOk || op == Op::Phi)) {
        const uint32_t defFn = def >= fnBegin && def < fnEnd ? fn : s_.functionOf(def);
        if (defFn != kNoIndex && defFn != fn) {
          s_.error(here, "2.16.1",
                   "id " + s_.name(id) + " is defined in another function than where it is used");
          continue;
        }
      }
      if (kind == OperandKind::IdResultType) {
        if (!definesType(defOp))
          s_.error(here, "2.16.1",
                   "result type " + s_.name(id) + " is not a type but the result of " +
                       State::opcodeName(defOp));
        continue;
      }
      // OpExtInst's set operand names the OpExtInstImport.
      if (lenientKinds || (State::isExtInst(op) && ops[k].offset == 3))
        continue;
      if (definesType(defOp)) {
        s_.error(here, "2.16.1", "operand " + s_.name(id) + " is a type where a value is expected");
      } else if (defOp == Op::Label) {
        if (!labelOperand)
          s_.error(here, "2.16.1",
                   "operand " + s_.name(id) + " is a label where a value is expected");
      } else if (defOp == Op::Function) {
        if (!takesFunction(inst, k))
          s_.error(here, "2.16.1",
                   "operand " + s_.name(id) +
                       " is a function where a value is expected; functions are only called, "
                       "enqueued, queried or taken the address of by the operands that name one");
      } else if (m_.inst(def).typeId() == 0) {
        // (Strings, imports and decoration groups, also untyped, appear only in the debug,
        // annotation and OpExtInst operands that are not checked here.)
        s_.error(here, "2.16.1",
                 "operand " + s_.name(id) + " is the result of " + State::opcodeName(defOp) +
                     ", which has no type, where a value is expected");
      }
    }
  }

  // Whether operand `k` of `inst` names a function: the grammar calls such operands Function
  // (OpFunctionCall, OpConstantFunctionPointerINTEL, ...), Invoke (device-side enqueue) or Func
  // (the cooperative matrix reductions of newer grammars). An extended instruction's operands are
  // values.
  static bool takesFunction(const Instruction &inst, size_t k) {
    const grammar::InstructionDesc *d = inst.desc();
    if (d == nullptr || d->operands.empty() || State::isExtInst(inst.opcode()))
      return false;
    const std::string_view name = d->operands[std::min(k, d->operands.size() - 1)].name;
    return name.find("Func") != std::string_view::npos ||
           name.find("Invoke") != std::string_view::npos;
  }

  // Instructions with label operands: branch and merge targets, OpPhi's parents.
  static bool takesLabels(Op op) {
    switch (op) {
    case Op::Branch:
    case Op::BranchConditional:
    case Op::Switch:
    case Op::LoopMerge:
    case Op::SelectionMerge:
    case Op::Phi:
      return true;
    default:
      return false;
    }
  }

  // 2.16.1: the definition of a value dominates its uses; an OpPhi operand's definition
  // dominates the parent block's end. Only reachable uses are checked, as spirv-val does. The
  // walk of checkUses finds them (a second walk over every operand was a fifth of the id
  // rules); they are reported after the other id errors, by function, block and instruction:
  // the module's order.
  struct Undominated {
    uint32_t inst, id, fn, defBlock, useBlock;
  };

  void enterFunction(uint32_t f) {
    if (f == function_)
      return;
    function_ = f;
    const FunctionInfo &info = m_.functions()[f];
    cfg_ = &s_.cfg(f);
    dom_ = &s_.dominators(f);
    // The block of each instruction of the function (kNoIndex outside blocks).
    fnBegin_ = info.begin;
    blockAt_.assign(info.end - info.begin, kNoIndex);
    for (uint32_t b = 0; b < cfg_->size(); ++b) {
      const BlockInfo &block = cfg_->blocks()[b];
      for (uint32_t i = block.label; i < block.end && i - fnBegin_ < blockAt_.size(); ++i)
        blockAt_[i - fnBegin_] = b;
    }
  }

  void reportDominance() {
    uint32_t last = kNoIndex;
    for (const Undominated &u : undominated_) {
      if (u.inst != last && s_.stopped())
        return;
      last = u.inst;
      const Cfg &cfg = s_.cfg(u.fn);
      s_.error(u.inst, "2.16.1",
               "the definition of " + s_.name(u.id) + " in block " +
                   s_.name(cfg.labelId(u.defBlock)) + " does not dominate this use in block " +
                   s_.name(cfg.labelId(u.useBlock)));
    }
  }

  // The block of the entered function that holds the instruction at `def`, or kNoIndex for
  // values defined elsewhere (globals, parameters, labels, other functions).
  uint32_t blockOfDefinition(uint32_t def) const {
    if (def < fnBegin_ || def - fnBegin_ >= blockAt_.size() || m_.inst(def).opcode() == Op::Label)
      return kNoIndex;
    return blockAt_[def - fnBegin_];
  }

  // Whether an opcode declares a type (OpTypeForwardPointer too): asked for every id operand,
  // so the core opcodes' answers are kept here (0: not yet asked, 1: no, 2: yes).
  bool definesType(Op op) {
    const uint32_t v = static_cast<uint32_t>(op);
    if (v >= definesType_.size())
      return declaresType(op) || op == Op::TypeForwardPointer;
    if (definesType_[v] == 0)
      definesType_[v] = declaresType(op) || op == Op::TypeForwardPointer ? 2 : 1;
    return definesType_[v] == 2;
  }

  State &s_;
  const Module &m_;
  bool zeroBoundReported_ = false;
  uint32_t function_ = kNoIndex;       ///< the function entered for the dominance rule
  const Cfg *cfg_ = nullptr;           ///< its graph
  const DominatorTree *dom_ = nullptr; ///< and dominator tree
  uint32_t fnBegin_ = 0;               ///< its first instruction
  std::vector<uint32_t> blockAt_;      ///< and the block of each of its instructions
  std::vector<Undominated> undominated_;
  std::array<uint8_t, 1024> definesType_{};
  std::unordered_set<uint32_t> forwardPointers_;
  std::unordered_set<uint32_t> reportedUndefined_;
  std::unique_ptr<CallGraph> graph_; ///< made in the walk, for State::callGraph()
};

} // namespace

void checkIds(State &s) { IdChecker(s).run(); }

} // namespace spire::val
