// What every rule family of the validator reads and writes: the module, the options, the facts
// computed once (capabilities, types, decorations, def-use, control flow) and the report.
#pragma once

#include "CallGraph.h"
#include "spire/asm/Disassembler.h"
#include "spire/module/Cfg.h"
#include "spire/module/Decorations.h"
#include "spire/module/DefUse.h"
#include "spire/module/Opcodes.h"
#include "spire/val/Validator.h"

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace spire::val {

using grammar::Op;
/// "No instruction": not an opcode of the grammar.
inline constexpr Op kNoOp = static_cast<Op>(0xFFFF);

class State {
public:
  State(const Module &module, const Options &options, Report &report);
  ~State();

  const Module &module() const { return m_; }
  const Options &options() const { return o_; }
  const Environment &env() const { return o_.env; }
  Client client() const { return o_.env.client; }
  bool isVulkan() const { return client() == Client::Vulkan; }
  bool isOpenCL() const { return client() == Client::OpenCL || client() == Client::LevelZero; }

  // --- Reporting -----------------------------------------------------------------------------
  /// Reports an error at instruction `index` (kNoIndex: the whole module) under `rule`.
  void error(uint32_t index, std::string_view rule, std::string message);
  void warning(uint32_t index, std::string_view rule, std::string message);
  /// True once Options::maxErrors errors were reported: rule families should return.
  bool stopped() const { return stopped_; }
  size_t errorCount() const { return errors_; }

  /// An id as diagnostics name it: "%float" or "%12".
  std::string name(uint32_t id) const;
  /// The instruction as disassembled.
  std::string text(uint32_t index) const;

  // --- Ids -------------------------------------------------------------------------------------
  /// The instruction that defines `id`, if any.
  std::optional<Instruction> def(uint32_t id) const;
  /// The opcode that defines `id`, or kNoOp when nothing defines it.
  Op defOpcode(uint32_t id) const {
    const uint32_t i = m_.defIndex(id);
    return i == kNoIndex ? kNoOp : m_.inst(i).opcode();
  }
  /// The result type of the value `id` (0 when it has none or is not defined).
  uint32_t typeOf(uint32_t id) const {
    const uint32_t i = m_.defIndex(id);
    return i == kNoIndex ? 0 : m_.inst(i).typeId();
  }
  /// Index of the function (into module().functions()) that contains instruction `index`, or
  /// kNoIndex for instructions outside functions.
  uint32_t functionOf(uint32_t index) const {
    return index < instFunction_.size() ? instFunction_[index] : kNoIndex;
  }

  // --- Types -----------------------------------------------------------------------------------
  bool isType(uint32_t id) const;
  /// OpExtInst, or OpExtInstWithForwardRefsKHR (SPV_KHR_relaxed_extended_instruction: an
  /// OpExtInst of a non-semantic set whose operands may be forward references).
  static bool isExtInst(Op op) { return op == Op::ExtInst || op == Op::ExtInstWithForwardRefsKHR; }
  bool isVoidType(uint32_t id) const { return defOpcode(id) == Op::TypeVoid; }
  bool isBoolType(uint32_t id) const { return defOpcode(id) == Op::TypeBool; }
  bool isIntType(uint32_t id) const { return defOpcode(id) == Op::TypeInt; }
  bool isFloatType(uint32_t id) const { return defOpcode(id) == Op::TypeFloat; }
  bool isVectorType(uint32_t id) const { return defOpcode(id) == Op::TypeVector; }
  bool isPointerType(uint32_t id) const;
  /// A cooperative matrix (KHR or NV) or another cooperative type of a newer grammar: the
  /// arithmetic and conversion instructions take them by rules of their own.
  bool isCooperativeType(uint32_t id) const;
  bool isScalarType(uint32_t id) const {
    return isBoolType(id) || isIntType(id) || isFloatType(id);
  }
  /// Scalar or vector of int / float / bool.
  bool isIntScalarOrVector(uint32_t id) const { return isIntType(componentType(id)); }
  bool isFloatScalarOrVector(uint32_t id) const { return isFloatType(componentType(id)); }
  bool isBoolScalarOrVector(uint32_t id) const { return isBoolType(componentType(id)); }
  bool isSignedInt(uint32_t id) const;
  /// The component type of a vector, the type itself for anything else.
  uint32_t componentType(uint32_t typeId) const;
  /// Components of a vector, 1 for scalars, 0 for other types.
  uint32_t componentCount(uint32_t typeId) const;
  /// Bit width of a scalar type or of a vector's components (0 otherwise; bool is 0).
  uint32_t bitWidth(uint32_t typeId) const;
  /// The element type under any OpTypeArray / OpTypeRuntimeArray, the type itself otherwise.
  uint32_t stripArrays(uint32_t typeId) const;
  /// Pointee type of OpTypePointer (0 for others and for untyped pointers).
  uint32_t pointeeType(uint32_t pointerType) const;
  /// Whether `typeId` is, or holds through arrays, runtime arrays and structure members, a type
  /// that `is` accepts (at most 64 levels deep). `memo` keeps one rule's answers across calls.
  bool holdsType(uint32_t typeId, const std::function<bool(uint32_t)> &is,
                 std::unordered_map<uint32_t, bool> &memo, int depth = 0) const;
  /// Storage class of OpTypePointer / OpTypeForwardPointer, or nothing.
  std::optional<uint32_t> storageClass(uint32_t pointerType) const;
  /// Value of a scalar integer constant (OpConstant of an OpTypeInt up to 64 bits, zero
  /// extended), or nothing (spec constants included).
  std::optional<uint64_t> constantValue(uint32_t id) const;

  // --- Capabilities and extensions ---------------------------------------------------------------
  /// Declared, or implied by a declared one (the grammar's "capabilities" of a capability).
  bool hasCapability(uint32_t capability) const;
  bool hasCapability(grammar::Capability c) const { return hasCapability(uint32_t(c)); }
  /// Whether an instruction has an opcode of an extension (from 4096 on: the core's are below),
  /// OpSpecConstantOp's operation included. The families of extensions' instructions have
  /// nothing to say of a module without one.
  bool extensionOpcodes() const { return maxOpcode_ >= 4096; }
  /// VariablePointers or VariablePointersStorageBuffer is declared (2.16.1's "if the
  /// VariablePointers or VariablePointersStorageBuffer capability is declared").
  bool hasVariablePointers() const {
    return hasCapability(grammar::Capability::VariablePointers) ||
           hasCapability(grammar::Capability::VariablePointersStorageBuffer);
  }
  bool hasExtension(grammar::Extension e) const;
  /// Declared with OpExtension, whether or not this build's grammar lists the extension.
  bool hasExtension(std::string_view name) const;
  /// Extensions the module declares with OpExtension whose names the grammar does not know.
  std::span<const std::string> unknownExtensions() const { return unknownExtensions_; }

  // --- Decorations -------------------------------------------------------------------------------
  /// The decorations that apply to `id` (the module's DecorationIndex: its own, and its groups'
  /// through OpGroupDecorate and, on members, OpGroupMemberDecorate), ordered by the decorating
  /// instruction (by the OpGroupMemberDecorate for a group's decoration of a member).
  std::span<const AppliedDecoration> decorations(uint32_t id) const;
  /// True when `id` (or member `member` of it, with member >= 0) has decoration `decoration`.
  bool hasDecoration(uint32_t id, uint32_t decoration, int member = -1) const;

  // --- Instructions by kind ----------------------------------------------------------------------
  /// Kinds of instructions that rules look at alone (a module's few variables and decorations
  /// among its many instructions): such a rule walks its list, in module order, rather than
  /// every instruction.
  enum class Listed : uint8_t {
    Variables,   ///< OpVariable
    Annotations, ///< OpDecorate*, OpMemberDecorate*, OpGroupDecorate, OpGroupMemberDecorate,
                 ///< OpDecorationGroup
    Structs,     ///< OpTypeStruct
    Lines,       ///< OpLine
    ExtInsts,    ///< OpExtInst
    Count
  };
  /// The indices of the instructions of kind `l` (none of them raw), in module order.
  std::span<const uint32_t> listed(Listed l) const { return listed_[static_cast<size_t>(l)]; }
  /// The same, as instructions: `for (Instruction inst : s.instructions(Listed::Variables))`.
  struct ListedInstructions {
    const Module *m;
    std::span<const uint32_t> at;
    struct iterator {
      const Module *m;
      const uint32_t *p;
      Instruction operator*() const { return m->inst(*p); }
      iterator &operator++() {
        ++p;
        return *this;
      }
      bool operator!=(const iterator &o) const { return p != o.p; }
    };
    iterator begin() const { return {m, at.data()}; }
    iterator end() const { return {m, at.data() + at.size()}; }
  };
  ListedInstructions instructions(Listed l) const { return {&m_, listed(l)}; }

  // --- Entry points and the memory model ---------------------------------------------------------
  /// Indices of the OpEntryPoint instructions.
  std::span<const uint32_t> entryPoints() const { return entryPoints_; }
  /// The execution modes OpExecutionMode / OpExecutionModeId give function `function`, in module
  /// order (a mode given twice is listed twice).
  std::span<const uint32_t> executionModes(uint32_t function) const;
  bool hasExecutionMode(uint32_t function, uint32_t mode) const;
  /// OpMemoryModel's addressing model (Logical, 0, when there is none).
  uint32_t addressingModel() const { return addressingModel_; }
  /// OpMemoryModel's memory model (Simple, 0, when there is none).
  uint32_t memoryModel() const { return memoryModel_; }
  bool isVulkanMemoryModel() const {
    return memoryModel_ == uint32_t(grammar::MemoryModel::Vulkan);
  }

  // --- Names for messages ------------------------------------------------------------------------
  /// "Shader", "Location": an enumerant's name, or its number when the grammar lacks it.
  static std::string enumerantName(grammar::OperandKind kind, uint32_t value);
  /// "OpTypeInt", or "opcode N" when the grammar lacks it.
  static std::string opcodeName(Op op);

  // --- Lazily computed analyses ------------------------------------------------------------------
  const DefUse &defUse() const;
  /// The instructions that use function type `id`, one entry per operand, in instruction order,
  /// as the id rules' walk recorded them; nullopt when that walk did not run to its end (then
  /// defUse() has them). A module's one table of every use is not built for these alone.
  std::optional<std::span<const uint32_t>> functionTypeUses(uint32_t id) const;
  /// For the id rules: `inst` uses function type `id`; done() once every instruction is seen.
  void recordFunctionTypeUse(uint32_t id, uint32_t inst) {
    functionTypeUses_.push_back({id, inst});
  }
  void functionTypeUsesDone();
  const CallGraph &callGraph() const;
  /// For the id rules, whose walk over every operand made the graph (CallGraph::addUse).
  void adoptCallGraph(std::unique_ptr<CallGraph> graph) { callGraph_ = std::move(graph); }
  /// The control-flow graph of function `f` (an index into module().functions()); the function
  /// must have blocks.
  const Cfg &cfg(uint32_t f) const;
  const DominatorTree &dominators(uint32_t f) const;
  const DominatorTree &postDominators(uint32_t f) const;

private:
  void scanModule();

  const Module &m_;
  const Options &o_;
  Report &report_;
  InstructionPrinter printer_;
  size_t errors_ = 0;
  bool stopped_ = false;

  std::vector<uint8_t> capabilities_; // by capability value, implied ones included
  std::vector<bool> extensions_;      // by grammar::Extension
  std::vector<std::string> unknownExtensions_;
  std::vector<uint32_t> entryPoints_;
  std::array<std::vector<uint32_t>, static_cast<size_t>(Listed::Count)> listed_;
  // Execution modes by function id: modeFunctions_ sorted, modeBegin_ offsets into modes_.
  std::vector<uint32_t> modeFunctions_, modeBegin_, modes_;
  uint32_t addressingModel_ = 0, memoryModel_ = 0;
  bool sawMemoryModel_ = false;
  uint32_t maxOpcode_ = 0;
  std::vector<uint32_t> instFunction_; // per instruction, kNoIndex outside functions
  // Decorations by target id: decoIds_ sorted, decoBegin_ offsets into decorations_.
  std::vector<uint32_t> decoIds_, decoBegin_;
  std::vector<AppliedDecoration> decorations_;

  mutable std::unique_ptr<DefUse> defUse_;
  // (function type, using instruction), by type then instruction once done.
  std::vector<std::pair<uint32_t, uint32_t>> functionTypeUses_, functionTypeUseIndex_;
  std::vector<uint32_t> functionTypeUsers_;
  bool functionTypeUsesDone_ = false;
  mutable std::unique_ptr<CallGraph> callGraph_;
  struct FunctionAnalyses {
    std::unique_ptr<Cfg> cfg;
    std::unique_ptr<DominatorTree> dom, postDom;
  };
  mutable std::vector<FunctionAnalyses> functionAnalyses_;
};

} // namespace spire::val
