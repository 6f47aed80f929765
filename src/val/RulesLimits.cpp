// Rules: universal limits (SPIR-V 2.17, table 3). The quantities are minimums every
// implementation supports; a validator reports modules that go past them.
#include "Rules.h"

#include <unordered_map>

namespace spire::val {

namespace {

constexpr const char *kRule = "2.17";
constexpr uint64_t kStringCharacters = 65535, kIdBound = 0x3FFFFF, kGlobalVariables = 65535,
                   kLocalVariables = 524287, kModesPerEntryPoint = 255, kIndexes = 255,
                   kParameters = 255, kArguments = 255, kSwitchPairs = 16383,
                   kStructMembers = 16383, kStructNesting = 255;
constexpr uint32_t kStorageFunction = uint32_t(grammar::StorageClass::Function);

class LimitsChecker {
public:
  explicit LimitsChecker(State &s) : s_(s), m_(s.module()) {}

  void run() {
    if (m_.bound() > kIdBound)
      s_.error(kNoIndex, kRule,
               "the id bound " + std::to_string(m_.bound()) + " is past the limit of " +
                   std::to_string(kIdBound) + " ids");
    uint64_t globals = 0;
    std::unordered_map<uint32_t, uint64_t> modes;
    uint64_t locals = 0;
    uint32_t localsFunction = kNoIndex;
    for (Instruction inst : m_) {
      if (s_.stopped())
        return;
      if (inst.isRaw())
        continue;
      strings(inst);
      const uint32_t n = inst.wordCount();
      switch (inst.opcode()) {
      case Op::Variable:
        if (n >= 4 && inst.word(3) == kStorageFunction) {
          const uint32_t f = s_.functionOf(inst.index());
          if (f != localsFunction) {
            localsFunction = f;
            locals = 0;
          }
          if (++locals == kLocalVariables + 1)
            limit(inst, "local variables in one function", kLocalVariables);
        } else if (++globals == kGlobalVariables + 1) {
          limit(inst, "global variables", kGlobalVariables);
        }
        break;
      case Op::ExecutionMode:
      case Op::ExecutionModeId:
        if (n >= 2 && ++modes[inst.word(1)] == kModesPerEntryPoint + 1)
          limit(inst, "execution modes of one entry point", kModesPerEntryPoint);
        break;
      case Op::AccessChain:
      case Op::InBoundsAccessChain:
      case Op::CompositeExtract:
        overAfter(inst, 4, kIndexes, "indexes");
        break;
      case Op::PtrAccessChain:
      case Op::InBoundsPtrAccessChain:
      case Op::CompositeInsert:
        overAfter(inst, 5, kIndexes, "indexes");
        break;
      case Op::TypeFunction:
        overAfter(inst, 3, kParameters, "function parameters");
        break;
      case Op::FunctionCall:
        overAfter(inst, 4, kArguments, "call arguments");
        break;
      case Op::ExtInst:
        overAfter(inst, 5, kArguments, "extended instruction arguments");
        break;
      case Op::Switch:
        switchPairs(inst);
        break;
      case Op::TypeStruct:
        overAfter(inst, 2, kStructMembers, "struct members");
        structDepth(inst);
        break;
      default:
        break;
      }
    }
  }

private:
  void limit(const Instruction &inst, const std::string &what, uint64_t max) {
    s_.error(inst.index(), kRule,
             "more than " + std::to_string(max) + " " + what + ", the universal limit");
  }

  // The words from `first` on are each one of what is counted.
  void overAfter(const Instruction &inst, uint32_t first, uint64_t max, const char *what) {
    const uint32_t n = inst.wordCount();
    over(inst, n > first ? n - first : 0, max, what);
  }

  void over(const Instruction &inst, uint64_t count, uint64_t max, const char *what) {
    if (count > max)
      s_.error(inst.index(), kRule,
               std::to_string(count) + " " + what + ", more than the universal limit of " +
                   std::to_string(max));
  }

  void strings(const Instruction &inst) {
    // No operand is longer than its instruction: one too short to hold such a string has none
    // (which spares a walk over the operands of every instruction).
    if (uint64_t(inst.wordCount()) * 4 <= kStringCharacters + 1)
      return;
    for (const binary::Operand &op : inst.operands())
      if (op.kind == grammar::OperandKind::LiteralString &&
          uint64_t(op.numWords) * 4 > kStringCharacters + 1 &&
          inst.stringOperand(op).size() > kStringCharacters)
        s_.error(inst.index(), kRule,
                 "a literal string of more than " + std::to_string(kStringCharacters) +
                     " characters, the universal limit");
  }

  // OpSwitch %selector %default (literal label)*: literals one or two words wide.
  void switchPairs(const Instruction &inst) {
    uint64_t labels = 0;
    for (const binary::Operand &op : inst.operands())
      labels += op.kind == grammar::OperandKind::IdRef;
    // The selector and the default are ids too.
    over(inst, labels > 2 ? labels - 2 : 0, kSwitchPairs, "OpSwitch (literal, label) pairs");
  }

  // Nesting depth of a struct: 1 + the deepest struct among its members (through arrays).
  void structDepth(const Instruction &inst) {
    uint64_t depth = 1;
    for (uint32_t w = 2; w < inst.wordCount(); ++w) {
      const uint32_t member = s_.stripArrays(inst.word(w));
      auto it = depth_.find(member);
      if (it != depth_.end())
        depth = std::max(depth, it->second + 1);
    }
    depth_[inst.resultId()] = depth;
    if (depth == kStructNesting + 1)
      limit(inst, "levels of struct nesting", kStructNesting);
  }

  State &s_;
  const Module &m_;
  std::unordered_map<uint32_t, uint64_t> depth_;
};

} // namespace

void checkLimits(State &s) { LimitsChecker(s).run(); }

} // namespace spire::val
