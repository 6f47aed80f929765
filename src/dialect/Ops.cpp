#include "spire/dialect/Ops.h"

#include "Naming.h"

#include <algorithm>
#include <bit>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace spire::dialect {

using grammar::OperandCategory;
using grammar::OperandKind;

bool OpInfo::hasResultType() const {
  if (inst)
    return inst->hasResultType;
  return ext != nullptr;
}

namespace {

constexpr std::string_view kVendors[] = {"KHR",    "EXT",    "INTEL",   "ALTERA", "NV",
                                         "NVX",    "AMD",    "AMDX",    "ARM",    "QCOM",
                                         "GOOGLE", "HUAWEI", "ANDROID", "VALVE"};

/// "OpSubgroupBallotKHR" -> "spirv.KHR.SubgroupBallot", into `out` (whose storage is reused: the
/// registry names every instruction at every start).
void opName(std::string_view opname, std::string &out) {
  const std::string_view base = opname.substr(2);
  out.assign("spirv.");
  const bool capitalLast = !base.empty() && base.back() >= 'A' && base.back() <= 'Z';
  for (std::string_view v : capitalLast ? std::span(kVendors) : std::span<const std::string_view>())
    if (base.size() > v.size() && base.ends_with(v)) {
      // The vendor is a suffix of its own, after a lower-case letter (SubgroupBallotKHR), a
      // digit (IMul32x16INTEL) or a capital that ends a word (ConvertBF16ToFINTEL).
      const char before = base[base.size() - v.size() - 1];
      if ((before >= 'a' && before <= 'z') || (before >= 'A' && before <= 'Z') ||
          (before >= '0' && before <= '9')) {
        out.append(v).append(".").append(base.substr(0, base.size() - v.size()));
        return;
      }
    }
  out.append(base);
}

std::string snakeKind(OperandKind kind) { return snakeCase(grammar::operandKindName(kind)); }

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

struct Registry {
  std::deque<OpInfo> infos;
  NameTable byName;
  /// By the index of the instruction in grammar::instructions().
  std::vector<const OpInfo *> byInstruction;
  /// By set, then by the index of the instruction in the set's table.
  std::vector<std::vector<const OpInfo *>> byExtInst;
  std::vector<const OpInfo *> all;
  /// The operand mappings of all ops (OpInfo::operands are spans of it): reserved once, so
  /// that they never move.
  std::vector<OperandMapping> mappings;
  struct Structural {
    const OpInfo *module, *func, *globalVariable, *specConstant, *specConstantComposite,
        *specConstantOperation, *entryPoint, *executionMode, *addressOf, *referenceOf, *selection,
        *loop, *merge, *yield, *constant, *branch, *branchConditional, *switchOp, *functionCall,
        *specConstantOperationSymbol, *extInst;
  } s{};

  /// Copies a name into the registry's text arena (the registry is built at every start: one
  /// allocation per name was most of its cost).
  std::string_view keep(std::string_view s) {
    if (chunks.empty() || chunkUsed + s.size() > kChunk) {
      chunks.push_back(std::make_unique<char[]>(std::max(kChunk, s.size())));
      chunkUsed = 0;
    }
    char *at = chunks.back().get() + chunkUsed;
    std::copy(s.begin(), s.end(), at);
    chunkUsed += s.size();
    return {at, s.size()};
  }
  static constexpr size_t kChunk = 16384;
  std::vector<std::unique_ptr<char[]>> chunks;
  size_t chunkUsed = 0;

  OpInfo &add(std::string_view name, uint32_t flags) {
    OpInfo &info = infos.emplace_back();
    info.name = keep(name);
    info.flags = flags;
    // A structural op added after the grammar's instruction of the same name (spirv.Constant,
    // spirv.EntryPoint, ...) is the one the name finds.
    byName.insertOrAssign(info.name, &info);
    all.push_back(&info);
    return info;
  }

  /// The attribute name of an operand, from its kind and grammar name, with MLIR's spellings.
  /// snake_case of a grammar operand name, computed once per place of its text in the generated
  /// tables (address and length: most names repeat, and hashing an address is cheap).
  const std::string &snake(std::string_view grammarName) {
    auto [it, added] = snakeNames.try_emplace({grammarName.data(), grammarName.size()});
    if (added)
      it->second = snakeCase(grammarName);
    return it->second;
  }
  struct TextPlaceHash {
    size_t operator()(const std::pair<const char *, size_t> &p) const {
      return std::hash<const char *>()(p.first) ^ (p.second * 0x9E3779B97F4A7C15ull);
    }
  };
  std::unordered_map<std::pair<const char *, size_t>, std::string, TextPlaceHash> snakeNames;

  std::string attrName(std::string_view op, const grammar::OperandDesc &d) {
    std::string name = snake(d.name);
    switch (d.kind) {
    case OperandKind::IdScope:
      if (name == "scope")
        return "scope";
      return name + "_scope";
    case OperandKind::IdMemorySemantics:
      if (op == "spirv.ControlBarrier" || op == "spirv.MemoryBarrier")
        return "memory_semantics";
      if (name == "semantics")
        return name;
      return name + "_semantics";
    default:
      break;
    }
    if (d.kind == OperandKind::ImageOperands)
      return "imageoperands"; // MLIR's spelling (spirv.ImageDrefGather)
    OperandCategory cat = grammar::operandCategory(d.kind);
    if (cat == OperandCategory::BitEnum || cat == OperandCategory::ValueEnum) {
      if ((op == "spirv.CopyMemory" || op == "spirv.CopyMemorySized") &&
          d.kind == OperandKind::MemoryAccess)
        return seenMemoryAccess_ ? "source_memory_access" : "memory_access";
      return snakeKind(d.kind);
    }
    if (name == "indexes")
      return "indices";
    if (name.empty())
      return snakeKind(d.kind);
    return name;
  }
  bool seenMemoryAccess_ = false;

  /// The KHR cooperative matrix ops as MLIR defines them: the layout id is an enum attribute
  /// (matrix_layout), the memory and matrix operands have MLIR's names, and the Length ops take
  /// their matrix type as a type attribute.
  bool cooperativeMatrixOperand(std::string_view op, const grammar::OperandDesc &d,
                                OperandMapping &m) {
    const bool khr = op == "spirv.KHR.CooperativeMatrixLoad" ||
                     op == "spirv.KHR.CooperativeMatrixStore" ||
                     op == "spirv.KHR.CooperativeMatrixMulAdd";
    if ((op == "spirv.KHR.CooperativeMatrixLength" || op == "spirv.NV.CooperativeMatrixLength") &&
        d.name == "Type") {
      m.kind = OperandMapping::Kind::TypeId;
      m.name = "cooperative_matrix_type";
      return true;
    }
    if (!khr)
      return false;
    if (d.name == "MemoryLayout") {
      std::optional<OperandKind> layout = grammar::findOperandKind("CooperativeMatrixLayout");
      if (!layout)
        return false;
      m.kind = OperandMapping::Kind::IdEnum;
      m.attrKind = *layout;
      m.name = "matrix_layout";
      return true;
    }
    if (d.kind == OperandKind::MemoryAccess) {
      m.kind = OperandMapping::Kind::Attribute;
      m.name = "memory_operand";
      return true;
    }
    if (d.kind == grammar::findOperandKind("CooperativeMatrixOperands")) {
      m.kind = OperandMapping::Kind::Attribute;
      m.name = "matrix_operands";
      return true;
    }
    return false;
  }

  void mapOperands(OpInfo &info, std::span<const grammar::OperandDesc> operands) {
    seenMemoryAccess_ = false;
    const size_t first = mappings.size();
    const bool cooperativeMatrix = info.name.find("CooperativeMatrix") != std::string_view::npos;
    for (const grammar::OperandDesc &d : operands) {
      if (d.kind == OperandKind::IdResultType || d.kind == OperandKind::IdResult)
        continue;
      OperandMapping m{OperandMapping::Kind::Other, d.kind, d.quantifier, {}};
      OperandCategory cat = grammar::operandCategory(d.kind);
      if (d.kind == OperandKind::IdScope || d.kind == OperandKind::IdMemorySemantics) {
        m.kind = OperandMapping::Kind::IdEnum;
        m.attrKind =
            d.kind == OperandKind::IdScope ? OperandKind::Scope : OperandKind::MemorySemantics;
        m.name = keep(attrName(info.name, d));
      } else if (cooperativeMatrix && cooperativeMatrixOperand(info.name, d, m)) {
        // (set by the function)
      } else if (cat == OperandCategory::Id) {
        m.kind = OperandMapping::Kind::Value;
        m.name = d.name;
      } else if (cat == OperandCategory::Literal || cat == OperandCategory::BitEnum ||
                 cat == OperandCategory::ValueEnum) {
        m.kind = OperandMapping::Kind::Attribute;
        m.name = keep(attrName(info.name, d));
        if (d.kind == OperandKind::MemoryAccess)
          seenMemoryAccess_ = true;
      }
      mappings.push_back(m);
    }
    info.operands = std::span<const OperandMapping>(mappings).subspan(first);
  }

  Registry() {
    const auto instructions = grammar::instructions();
    size_t numMappings = 0, numOps = instructions.size() + 32, numAliases = 0;
    for (const grammar::InstructionDesc &inst : instructions) {
      numMappings += inst.operands.size();
      numAliases += inst.aliases.size();
    }
    for (const grammar::ExtInstSetDesc &set : grammar::extInstSets()) {
      numOps += set.instructions.size();
      for (const grammar::ExtInstDesc &e : set.instructions)
        numMappings += e.operands.size();
    }
    mappings.reserve(numMappings);
    byName.reserve(numOps + numAliases);
    all.reserve(numOps);
    byInstruction.resize(instructions.size());
    byExtInst.resize(grammar::extInstSets().size() + 1);
    std::string name;
    for (const grammar::InstructionDesc &inst : instructions) {
      opName(inst.name, name);
      if (byName.find(name) != nullptr)
        continue;
      uint32_t flags = 0;
      switch (static_cast<grammar::Op>(inst.opcode)) {
      case grammar::Op::Return:
      case grammar::Op::ReturnValue:
      case grammar::Op::Unreachable:
      case grammar::Op::Kill:
      case grammar::Op::TerminateInvocation:
      case grammar::Op::Branch:
      case grammar::Op::BranchConditional:
      case grammar::Op::Switch:
      case grammar::Op::IgnoreIntersectionKHR:
      case grammar::Op::TerminateRayKHR:
      case grammar::Op::EmitMeshTasksEXT:
        flags |= OpInfo::kTerminator;
        break;
      default:
        break;
      }
      OpInfo &info = add(name, flags);
      info.inst = &inst;
      mapOperands(info, inst.operands);
      byInstruction[static_cast<size_t>(&inst - instructions.data())] = &info;
    }
    // The grammar's other names of an instruction name its op too, so that text written with
    // an older grammar's names reads (spirv.INTEL.ArbitraryFloatAdd, now ...ALTERA's): the op
    // prints under the canonical name.
    for (const grammar::InstructionDesc &inst : instructions) {
      const OpInfo *info = byInstruction[static_cast<size_t>(&inst - instructions.data())];
      for (std::string_view alias : info ? inst.aliases : std::span<const std::string_view>()) {
        opName(alias, name);
        if (byName.find(name) == nullptr)
          byName.insertOrAssign(keep(name), info);
      }
    }
    for (const grammar::ExtInstSetDesc &set : grammar::extInstSets()) {
      std::string prefix;
      if (set.key == "glsl.std.450")
        prefix = "spirv.GL.";
      else if (set.key == "opencl.std.100" || set.key == "opencl.std")
        prefix = "spirv.CL.";
      else
        continue;
      for (const grammar::ExtInstDesc &e : set.instructions) {
        OpInfo &info = add(prefix + std::string(e.name), 0);
        info.set = &set;
        info.ext = &e;
        mapOperands(info, e.operands);
        std::vector<const OpInfo *> &ofSet = byExtInst[static_cast<size_t>(set.id)];
        ofSet.resize(set.instructions.size());
        ofSet[static_cast<size_t>(&e - set.instructions.data())] = &info;
      }
    }
    auto structural = [&](std::string_view name, uint32_t flags) {
      return &add(name, flags | OpInfo::kStructural);
    };
    s.module =
        structural("spirv.module", OpInfo::kSymbol | OpInfo::kIsolated | OpInfo::kNoTerminator);
    s.func = structural("spirv.func", OpInfo::kSymbol | OpInfo::kIsolated);
    s.globalVariable = structural("spirv.GlobalVariable", OpInfo::kSymbol);
    s.specConstant = structural("spirv.SpecConstant", OpInfo::kSymbol);
    s.specConstantComposite = structural("spirv.SpecConstantComposite", OpInfo::kSymbol);
    s.specConstantOperation = structural("spirv.SpecConstantOperation", 0);
    s.entryPoint = structural("spirv.EntryPoint", 0);
    s.executionMode = structural("spirv.ExecutionMode", 0);
    s.addressOf = structural("spirv.mlir.addressof", 0);
    s.referenceOf = structural("spirv.mlir.referenceof", 0);
    s.selection = structural("spirv.mlir.selection", 0);
    s.loop = structural("spirv.mlir.loop", 0);
    s.merge = structural("spirv.mlir.merge", OpInfo::kTerminator);
    s.yield = structural("spirv.mlir.yield", OpInfo::kTerminator);
    s.constant = structural("spirv.Constant", 0);
    // spire's own: an OpSpecConstantOp that module-level instructions name (an array length, a
    // composite constituent, an initializer, an id operand of a decoration or execution mode),
    // as a symbol whose region computes it; and an instruction of an extended set the dialect
    // has no ops for, by the set's name and the instruction's number.
    s.specConstantOperationSymbol =
        structural("spirv.SpecConstantOperationSymbol", OpInfo::kSymbol | OpInfo::kIsolated);
    s.extInst = structural("spirv.ExtInst", 0);
    // Ops of instructions whose operands the dialect reshapes (successors, callee symbols).
    s.branch = byName.find("spirv.Branch");
    s.branchConditional = byName.find("spirv.BranchConditional");
    s.switchOp = byName.find("spirv.Switch");
    s.functionCall = byName.find("spirv.FunctionCall");
    // Merge instructions kept as ops name their blocks as successors.
    for (const OpInfo *info : {s.branch, s.branchConditional, s.switchOp, s.functionCall,
                               byName.find("spirv.SelectionMerge"), byName.find("spirv.LoopMerge")})
      const_cast<OpInfo *>(info)->flags |= OpInfo::kStructural;
  }
};

const Registry &registry() {
  // Never destroyed: a process needs it to the end, and tearing it down at exit costs time.
  static const Registry &r = *new Registry;
  return r;
}

} // namespace

const OpInfo *findOp(std::string_view name) { return registry().byName.find(name); }

const OpInfo *opForInstruction(grammar::Op opcode) {
  const grammar::InstructionDesc *inst = grammar::findInstruction(static_cast<uint32_t>(opcode));
  if (inst == nullptr)
    return nullptr;
  return registry().byInstruction[static_cast<size_t>(inst - grammar::instructions().data())];
}

const OpInfo *opForExtInst(const grammar::ExtInstSetDesc &set, uint32_t number) {
  const grammar::ExtInstDesc *ext = grammar::findExtInst(set, number);
  if (ext == nullptr)
    return nullptr;
  const std::vector<const OpInfo *> &ofSet = registry().byExtInst[static_cast<size_t>(set.id)];
  const size_t i = static_cast<size_t>(ext - set.instructions.data());
  return i < ofSet.size() ? ofSet[i] : nullptr;
}

std::span<const OpInfo *const> allOps() { return registry().all; }

namespace ops {
const OpInfo &module() { return *registry().s.module; }
const OpInfo &func() { return *registry().s.func; }
const OpInfo &globalVariable() { return *registry().s.globalVariable; }
const OpInfo &specConstant() { return *registry().s.specConstant; }
const OpInfo &specConstantComposite() { return *registry().s.specConstantComposite; }
const OpInfo &specConstantOperation() { return *registry().s.specConstantOperation; }
const OpInfo &entryPoint() { return *registry().s.entryPoint; }
const OpInfo &executionMode() { return *registry().s.executionMode; }
const OpInfo &addressOf() { return *registry().s.addressOf; }
const OpInfo &referenceOf() { return *registry().s.referenceOf; }
const OpInfo &selection() { return *registry().s.selection; }
const OpInfo &loop() { return *registry().s.loop; }
const OpInfo &merge() { return *registry().s.merge; }
const OpInfo &yield() { return *registry().s.yield; }
const OpInfo &constant() { return *registry().s.constant; }
const OpInfo &branch() { return *registry().s.branch; }
const OpInfo &branchConditional() { return *registry().s.branchConditional; }
const OpInfo &switchOp() { return *registry().s.switchOp; }
const OpInfo &functionCall() { return *registry().s.functionCall; }
const OpInfo &specConstantOperationSymbol() { return *registry().s.specConstantOperationSymbol; }
const OpInfo &extInst() { return *registry().s.extInst; }
} // namespace ops

} // namespace spire::dialect
