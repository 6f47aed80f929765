#include "spire/dialect/Ops.h"

#include "OpOverlay.h"
#include "OpTable.h"

#include <array>
#include <bit>
#include <functional>
#include <mutex>
#include <span>
#include <vector>

namespace spire::dialect {

bool OpInfo::hasResultType() const {
  if (inst)
    return inst->hasResultType;
  return ext != nullptr;
}

const grammar::Availability *OpInfo::availability() const {
  if (inst)
    return &inst->availability;
  if (standsFor)
    return &standsFor->availability;
  return ext ? &ext->availability : nullptr;
}

namespace {

// Ops by name: open addressing over a power-of-two table (the registry is built at every start,
// and a node per name was a good part of that). A name may be an alias of an op's own name.
class NameTable {
public:
  void reserve(size_t n) { slots_.assign(std::bit_ceil(2 * n + 1), Slot{}); }
  /// Adds `name` for `info`, or puts `info` in the place of the op of the same name.
  void insertOrAssign(std::string_view name, const OpInfo *info) {
    slots_[place(name)] = Slot{name, info};
  }
  const OpInfo *find(std::string_view name) const { return slots_[place(name)].info; }

private:
  struct Slot {
    std::string_view name;
    const OpInfo *info = nullptr;
  };
  size_t place(std::string_view name) const {
    const size_t mask = slots_.size() - 1;
    for (size_t i = std::hash<std::string_view>()(name) & mask;; i = (i + 1) & mask)
      if (slots_[i].info == nullptr || slots_[i].name == name)
        return i;
  }
  std::vector<Slot> slots_;
};

constexpr size_t kDialectOps = static_cast<size_t>(DialectOp::Count);

struct Registry {
  /// Reserved once, so that records never move.
  std::vector<OpInfo> infos;
  /// How many of `infos` are generated ops (the structural ones follow).
  size_t numGenerated = 0;
  /// The names other than the records' own (the wrappers' short names, spirv.ExecutionModeId).
  std::vector<std::pair<std::string_view, const OpInfo *>> otherNames;
  /// By the index of the instruction in grammar::instructions().
  std::vector<const OpInfo *> byInstruction;
  /// By set, then by the index of the instruction in the set's table.
  std::vector<std::vector<const OpInfo *>> byExtInst;
  std::array<const OpInfo *, kDialectOps> byDialectOp{};
  /// The sets whose instructions are ops (GLSL.std.450, OpenCL.std, TOSA.001000.1), or null.
  const grammar::ExtInstSetDesc *glsl = nullptr, *openCl = nullptr, *tosa = nullptr;
  std::vector<const OpInfo *> all;
  struct Structural {
    const OpInfo *branch, *branchConditional, *switchOp, *functionCall;
  } s{};
  detail::OverlayStore overlay;

  OpInfo &add(std::string_view name, OpKey key, uint32_t flags) {
    OpInfo &info = infos.emplace_back();
    info.name = name;
    info.key = key;
    info.flags = flags;
    all.push_back(&info);
    return info;
  }

  Registry() {
    const auto generated = detail::generatedOps();
    const auto mappings = detail::generatedMappings();
    infos.reserve(generated.size() + kDialectOps);
    all.reserve(generated.size() + kDialectOps);
    const auto instructions = grammar::instructions();
    byInstruction.resize(instructions.size());
    byExtInst.resize(grammar::extInstSets().size() + 1);
    for (const detail::GeneratedOp &g : generated) {
      OpInfo &info = add(g.name, g.key, g.flags);
      info.operands = mappings.subspan(g.firstMapping, g.numMappings);
      if (g.key.space() == OpSpace::Core) {
        info.inst = grammar::findInstruction(g.key.number());
        byInstruction[static_cast<size_t>(info.inst - instructions.data())] = &info;
        continue;
      }
      info.set = grammar::extInstSet(g.set);
      setOf(g.key.space()) = info.set;
      info.ext = grammar::findExtInst(*info.set, g.key.number());
      // TOSA's ops are SPV_ARM_graph's (MLIR's: in a graph, GraphARM and its extension).
      if (g.key.space() == OpSpace::Tosa)
        info.standsFor = grammar::findInstruction(static_cast<uint32_t>(grammar::Op::GraphARM));
      std::vector<const OpInfo *> &ofSet = byExtInst[static_cast<size_t>(g.set)];
      ofSet.resize(info.set->instructions.size());
      ofSet[static_cast<size_t>(info.ext - info.set->instructions.data())] = &info;
    }
    numGenerated = infos.size();
    auto structural = [&](std::string_view name, DialectOp op, uint32_t flags) {
      byDialectOp[static_cast<size_t>(op)] = &add(name, op, flags | OpInfo::kStructural);
    };
    using D = DialectOp;
    structural("spirv.module", D::Module,
               OpInfo::kSymbol | OpInfo::kIsolated | OpInfo::kNoTerminator);
    structural("spirv.func", D::Func, OpInfo::kSymbol | OpInfo::kIsolated);
    structural("spirv.GlobalVariable", D::GlobalVariable, OpInfo::kSymbol);
    structural("spirv.SpecConstant", D::SpecConstant, OpInfo::kSymbol);
    structural("spirv.SpecConstantComposite", D::SpecConstantComposite, OpInfo::kSymbol);
    structural("spirv.SpecConstantOperation", D::SpecConstantOperation, 0);
    structural("spirv.EntryPoint", D::EntryPoint, 0);
    structural("spirv.ExecutionMode", D::ExecutionMode, 0);
    // OpExecutionModeId is spirv.ExecutionMode too (with constants or specialization constants
    // as its values); today's MLIR's name of its custom form reads as that op.
    otherNames.emplace_back("spirv.ExecutionModeId",
                            byDialectOp[static_cast<size_t>(D::ExecutionMode)]);
    structural("spirv.mlir.addressof", D::AddressOf, OpInfo::kPure);
    structural("spirv.mlir.referenceof", D::ReferenceOf, OpInfo::kPure);
    structural("spirv.mlir.selection", D::Selection, 0);
    structural("spirv.mlir.loop", D::Loop, 0);
    structural("spirv.mlir.merge", D::Merge, OpInfo::kTerminator);
    structural("spirv.mlir.yield", D::Yield, OpInfo::kTerminator);
    structural("spirv.Constant", D::Constant, OpInfo::kPure);
    // spire's own: an OpSpecConstantOp that module-level instructions name (an array length, a
    // composite constituent, an initializer, an id operand of a decoration or execution mode),
    // as a symbol whose region computes it; and an instruction of an extended set the dialect
    // has no ops for, by the set's name and the instruction's number.
    structural("spirv.SpecConstantOperationSymbol", D::SpecConstantOperationSymbol,
               OpInfo::kSymbol | OpInfo::kIsolated);
    structural("spirv.ExtInst", D::ExtInst, 0);
    // Instructions of non-semantic and debug-information sets, kept as they are.
    structural("spirv.spire.NonSemanticGlobal", D::NonSemanticGlobal, OpInfo::kSymbol);
    structural("spirv.spire.NonSemantic", D::NonSemantic, 0);
    // SPV_ARM_graph's graphs, in place of the ops of OpGraphARM and OpGraphEntryPointARM (their
    // names), with the availability of the instructions they write.
    auto standsFor = [&](DialectOp op, grammar::Op inst) {
      const_cast<OpInfo *>(byDialectOp[static_cast<size_t>(op)])->standsFor =
          grammar::findInstruction(static_cast<uint32_t>(inst));
    };
    structural("spirv.ARM.Graph", D::Graph, OpInfo::kSymbol | OpInfo::kIsolated);
    standsFor(D::Graph, grammar::Op::GraphARM);
    structural("spirv.ARM.GraphEntryPoint", D::GraphEntryPoint, 0);
    standsFor(D::GraphEntryPoint, grammar::Op::GraphEntryPointARM);
    structural("spirv.ARM.GraphOutputs", D::GraphOutputs, OpInfo::kTerminator | OpInfo::kPure);
    standsFor(D::GraphOutputs, grammar::Op::GraphSetOutputARM);
    // CALL of Arm.ExperimentalMLOperations: the set's one instruction, its availability.
    structural("spirv.ExperimentalML.Call", D::ExperimentalMlCall, 0);
    if (const grammar::ExtInstSetDesc *ml =
            grammar::extInstSet(grammar::ExtInstSet::ArmExperimentalMlOperations)) {
      OpInfo *call = const_cast<OpInfo *>(byDialectOp[static_cast<size_t>(D::ExperimentalMlCall)]);
      call->set = ml;
      call->ext = grammar::findExtInst(*ml, 0);
    }
    // The wrappers of MLIR's tests (other dialects), with the short names their custom forms
    // use (`module`; `return` and `call` inside a func.func).
    structural("builtin.module", D::BuiltinModule,
               OpInfo::kSymbol | OpInfo::kIsolated | OpInfo::kNoTerminator);
    structural("func.func", D::FuncFunc, OpInfo::kSymbol | OpInfo::kIsolated);
    structural("func.return", D::FuncReturn, OpInfo::kTerminator);
    structural("func.call", D::FuncCall, 0);
    structural("gpu.module", D::GpuModule,
               OpInfo::kSymbol | OpInfo::kIsolated | OpInfo::kNoTerminator);
    structural("arith.constant", D::ArithConstant, OpInfo::kPure);
    otherNames.emplace_back("module", byDialectOp[static_cast<size_t>(D::BuiltinModule)]);
    otherNames.emplace_back("return", byDialectOp[static_cast<size_t>(D::FuncReturn)]);
    otherNames.emplace_back("call", byDialectOp[static_cast<size_t>(D::FuncCall)]);
    // Ops of instructions whose operands the dialect reshapes (successors, callee symbols).
    s.branch = findOp(grammar::Op::Branch);
    s.branchConditional = findOp(grammar::Op::BranchConditional);
    s.switchOp = findOp(grammar::Op::Switch);
    s.functionCall = findOp(grammar::Op::FunctionCall);
    // The overlay: what the grammar does not say, by opcode. Type rules and folders, which
    // only the verifier and the folder read, are attached when first asked for (a translation
    // whose module validates needs neither, and they were a tenth of its start).
    const detail::OpRecords records = recordsOf();
    detail::attachVerifiers(records);
    detail::attachSyntax(records);
    detail::attachTosa(records);
  }

  detail::OpRecords recordsOf() {
    return detail::OpRecords([this](OpKey key) { return const_cast<OpInfo *>(findOp(key)); },
                             overlay);
  }

  void typeRules() const {
    std::call_once(typeRulesMade_,
                   [this] { detail::attachTypeRules(const_cast<Registry *>(this)->recordsOf()); });
  }

  void folders() const {
    std::call_once(foldersMade_,
                   [this] { detail::attachFolders(const_cast<Registry *>(this)->recordsOf()); });
  }

  const OpInfo *findOp(OpKey key) const {
    switch (key.space()) {
    case OpSpace::Core: {
      const grammar::InstructionDesc *inst = grammar::findInstruction(key.number());
      return inst ? byInstruction[static_cast<size_t>(inst - grammar::instructions().data())]
                  : nullptr;
    }
    case OpSpace::Glsl:
    case OpSpace::OpenCl:
    case OpSpace::Tosa: {
      const grammar::ExtInstSetDesc *set = const_cast<Registry *>(this)->setOf(key.space());
      return set ? opForExtInst(*set, key.number()) : nullptr;
    }
    case OpSpace::Dialect:
      return key.number() < kDialectOps ? byDialectOp[key.number()] : nullptr;
    }
    return nullptr;
  }

  /// Ops by name, made when first asked for (the parser asks; deserializing and printing find
  /// ops by key, and hashing every name cost a small module's translation 0.3M instructions).
  const NameTable &byName() const {
    std::call_once(namesMade_, [this] {
      const auto aliases = detail::generatedAliases();
      names_.reserve(infos.size() + aliases.size() + otherNames.size());
      for (size_t i = 0; i < numGenerated; ++i)
        names_.insertOrAssign(infos[i].name, &infos[i]);
      // The grammar's other names of an instruction name its op too, so that text written
      // with an older grammar's names reads (spirv.INTEL.ArbitraryFloatAdd, now ...ALTERA's):
      // the op prints under the canonical name.
      for (const detail::GeneratedAlias &a : aliases)
        if (names_.find(a.name) == nullptr)
          names_.insertOrAssign(a.name, &infos[a.op]);
      // A structural op named as the grammar's instruction of the same name (spirv.Constant,
      // spirv.EntryPoint, ...) is the one the name finds.
      for (size_t i = numGenerated; i < infos.size(); ++i)
        names_.insertOrAssign(infos[i].name, &infos[i]);
      for (const auto &[name, info] : otherNames)
        names_.insertOrAssign(name, info);
    });
    return names_;
  }

  const grammar::ExtInstSetDesc *&setOf(OpSpace space) {
    return space == OpSpace::Glsl ? glsl : space == OpSpace::OpenCl ? openCl : tosa;
  }

  const OpInfo *opForExtInst(const grammar::ExtInstSetDesc &set, uint32_t number) const {
    const grammar::ExtInstDesc *ext = grammar::findExtInst(set, number);
    if (ext == nullptr)
      return nullptr;
    const std::vector<const OpInfo *> &ofSet = byExtInst[static_cast<size_t>(set.id)];
    const size_t i = static_cast<size_t>(ext - set.instructions.data());
    return i < ofSet.size() ? ofSet[i] : nullptr;
  }

private:
  mutable std::once_flag namesMade_, typeRulesMade_, foldersMade_;
  mutable NameTable names_;
};

const Registry &registry() {
  // Never destroyed: a process needs it to the end, and tearing it down at exit costs time.
  static const Registry &r = *new Registry;
  return r;
}

} // namespace

const OpInfo *findOp(std::string_view name) { return registry().byName().find(name); }

const OpInfo *findOp(OpKey key) { return registry().findOp(key); }

namespace detail {
void attachTypeRulesOnce() { registry().typeRules(); }
void attachFoldersOnce() { registry().folders(); }

const std::vector<std::string> &overlayProblems() {
  static const std::vector<std::string> problems = [] {
    registry().typeRules();
    registry().folders();
    std::vector<std::string> out = registry().overlay.problems;
    for (const OpInfo *info : registry().all)
      if (std::string problem = tosaProblem(*info); !problem.empty())
        out.push_back(std::move(problem));
    for (const OpInfo *info : registry().all)
      if (std::string problem = formatProblem(*info); !problem.empty())
        out.push_back(std::move(problem));
    return out;
  }();
  return problems;
}
} // namespace detail

const OpInfo *opForInstruction(grammar::Op opcode) { return registry().findOp(opcode); }

const OpInfo *opForExtInst(const grammar::ExtInstSetDesc &set, uint32_t number) {
  return registry().opForExtInst(set, number);
}

std::span<const OpInfo *const> allOps() { return registry().all; }

namespace ops {
namespace {
const OpInfo &dialectOp(DialectOp op) { return *registry().byDialectOp[static_cast<size_t>(op)]; }
} // namespace
const OpInfo &module() { return dialectOp(DialectOp::Module); }
const OpInfo &func() { return dialectOp(DialectOp::Func); }
const OpInfo &globalVariable() { return dialectOp(DialectOp::GlobalVariable); }
const OpInfo &specConstant() { return dialectOp(DialectOp::SpecConstant); }
const OpInfo &specConstantComposite() { return dialectOp(DialectOp::SpecConstantComposite); }
const OpInfo &specConstantOperation() { return dialectOp(DialectOp::SpecConstantOperation); }
const OpInfo &entryPoint() { return dialectOp(DialectOp::EntryPoint); }
const OpInfo &executionMode() { return dialectOp(DialectOp::ExecutionMode); }
const OpInfo &addressOf() { return dialectOp(DialectOp::AddressOf); }
const OpInfo &referenceOf() { return dialectOp(DialectOp::ReferenceOf); }
const OpInfo &selection() { return dialectOp(DialectOp::Selection); }
const OpInfo &loop() { return dialectOp(DialectOp::Loop); }
const OpInfo &merge() { return dialectOp(DialectOp::Merge); }
const OpInfo &yield() { return dialectOp(DialectOp::Yield); }
const OpInfo &constant() { return dialectOp(DialectOp::Constant); }
const OpInfo &branch() { return *registry().s.branch; }
const OpInfo &branchConditional() { return *registry().s.branchConditional; }
const OpInfo &switchOp() { return *registry().s.switchOp; }
const OpInfo &functionCall() { return *registry().s.functionCall; }
const OpInfo &specConstantOperationSymbol() {
  return dialectOp(DialectOp::SpecConstantOperationSymbol);
}
const OpInfo &extInst() { return dialectOp(DialectOp::ExtInst); }
const OpInfo &nonSemanticGlobal() { return dialectOp(DialectOp::NonSemanticGlobal); }
const OpInfo &nonSemantic() { return dialectOp(DialectOp::NonSemantic); }
const OpInfo &graph() { return dialectOp(DialectOp::Graph); }
const OpInfo &graphEntryPoint() { return dialectOp(DialectOp::GraphEntryPoint); }
const OpInfo &graphOutputs() { return dialectOp(DialectOp::GraphOutputs); }
const OpInfo &experimentalMlCall() { return dialectOp(DialectOp::ExperimentalMlCall); }
const OpInfo &builtinModule() { return dialectOp(DialectOp::BuiltinModule); }
const OpInfo &funcFunc() { return dialectOp(DialectOp::FuncFunc); }
const OpInfo &funcReturn() { return dialectOp(DialectOp::FuncReturn); }
const OpInfo &funcCall() { return dialectOp(DialectOp::FuncCall); }
const OpInfo &arithConstant() { return dialectOp(DialectOp::ArithConstant); }
bool isWrapper(const OpInfo &info) {
  return &info == &builtinModule() || &info == &funcFunc() || &info == &funcReturn() ||
         &info == &funcCall() || &info == &dialectOp(DialectOp::GpuModule) ||
         &info == &arithConstant();
}
bool isSymbolTable(const OpInfo &info) {
  return &info == &module() || &info == &builtinModule() ||
         &info == &dialectOp(DialectOp::GpuModule);
}
bool isFunction(const OpInfo &info) { return &info == &func() || &info == &funcFunc(); }
} // namespace ops

} // namespace spire::dialect
