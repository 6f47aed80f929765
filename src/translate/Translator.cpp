// The translation of one entry point: the entry function's control flow structured by
// analysis::structurize, its LLVM instructions one by one, and the module header around them.
#include "Translator.h"
#include "VulkanMemoryModel.h"

#include "spire/analysis/Structurizer.h"
#include "spire/dxil/ContainerSummary.h"

#include <algorithm>
#include <optional>

namespace spire::translate {

using dxil::Opcode;
using dxil::ValueKind;

Translator::Translator(const dxil::DxilModule &dx, const dxil::EntryPoint &entry,
                       const DxilTranslateOptions &options)
    : dx_(dx), entry_(entry), options_(options), b_(grammar::makeVersion(1, 6)),
      entryName_(exportName(entry.name)) {}

Expected<TranslatedShader> Translator::run() {
  capability(Capability::Shader);
  if (entry_.functionIndex == dxil::kNoId || entry_.functionIndex >= llvm().functions.size() ||
      llvm().functions[entry_.functionIndex].isDeclaration)
    return makeError({}, "entry '" + entryName_ + "' has no function body");
  if (entry_.kind == dxil::ShaderKind::Node)
    declareNodeShader(); // SPV_AMDX_shader_enqueue (TranslateNodes.cpp)
  if (!failed_)
    declareResources();
  if (!failed_)
    declareStageIO();
  // A hull shader's entry point runs the control point function, then (invocation 0, after a
  // barrier) the patch constant function; every other entry point is its function.
  const bool hull = entry_.kind == dxil::ShaderKind::Hull;
  const uint32_t hullEntry = hull ? id() : 0;
  if (!failed_) {
    if (hull)
      translateHullEntry(hullEntry);
    else
      translateFunctions();
  }
  if (failed_)
    return error_;
  const uint32_t entryFunction = hull ? hullEntry : functionId(entry_.functionIndex);
  addFloatControls(entryFunction); // before the header lists the capabilities
  finishHeader(entryFunction);
  if (failed_)
    return error_;
  TranslatedShader out;
  out.entry = entryName_;
  out.kind = entry_.kind;
  out.words = b_.words();
  // Cooperative matrices (TranslateAgs.cpp) need the Vulkan memory model.
  if (capabilities_.count(uint32_t(Capability::CooperativeMatrixKHR)))
    if (std::string why = toVulkanMemoryModel(out.words); !why.empty())
      return makeError({}, "unsupported: " + why + " (entry '" + entryName_ + "')");
  out.bindings = std::move(bindings_);
  return out;
}

void Translator::finishHeader(uint32_t entryFunction) {
  finishRayTracingHeader();
  for (uint32_t c : capabilities_)
    b_.add(Section::Capability, Op::Capability).literal(c);
  for (const std::string &e : extensions_)
    b_.add(Section::Extension, Op::Extension).string(e);
  b_.add(Section::MemoryModel, Op::MemoryModel)
      .literal(uint32_t(capabilities_.count(uint32_t(Capability::PhysicalStorageBufferAddresses))
                            ? grammar::AddressingModel::PhysicalStorageBuffer64
                            : grammar::AddressingModel::Logical))
      .literal(uint32_t(grammar::MemoryModel::GLSL450));
  grammar::ExecutionModel model = grammar::ExecutionModel::GLCompute;
  switch (entry_.kind) {
  case dxil::ShaderKind::Compute:
    model = grammar::ExecutionModel::GLCompute;
    break;
  case dxil::ShaderKind::Pixel:
    model = grammar::ExecutionModel::Fragment;
    break;
  case dxil::ShaderKind::Vertex:
    model = grammar::ExecutionModel::Vertex;
    break;
  case dxil::ShaderKind::Geometry:
    model = grammar::ExecutionModel::Geometry;
    break;
  case dxil::ShaderKind::Hull:
    model = grammar::ExecutionModel::TessellationControl;
    break;
  case dxil::ShaderKind::Domain:
    model = grammar::ExecutionModel::TessellationEvaluation;
    break;
  case dxil::ShaderKind::Mesh:
    model = grammar::ExecutionModel::MeshEXT;
    break;
  case dxil::ShaderKind::Amplification:
    model = grammar::ExecutionModel::TaskEXT;
    break;
  case dxil::ShaderKind::Node:
    model = grammar::ExecutionModel::GLCompute;
    break;
  default:
    if (!rayTracingModel(entry_.kind, model)) {
      const char *kind = dxil::shaderKindName(entry_.kind);
      fail(std::string("unsupported: ") + (kind ? kind : "this kind of") +
           " entry points are not translated yet");
      return;
    }
  }
  b_.add(Section::EntryPoint, Op::EntryPoint)
      .literal(uint32_t(model))
      .id(entryFunction)
      .string(node_.id ? node_.id->name : entryName_) // AMDX links nodes by entry name
      .ids(interface_);
  name(entryFunction, entryName_);
  addExecutionModes(entryFunction);
  if (entry_.kind == dxil::ShaderKind::Node)
    addNodeModes(entryFunction);
  addDerivativeGroupMode(entryFunction);
}

// ---- functions and control flow -------------------------------------------------------------

namespace {

/// The block index (within its function) a block value names.
uint32_t blockIndex(const dxil::LlvmModule &m, const dxil::Function &f, dxil::ValueId v) {
  const dxil::Value &value = m.values[v];
  if (value.kind != ValueKind::Block || value.index < f.firstBlock ||
      value.index >= f.firstBlock + f.numBlocks)
    return analysis::kNoNode;
  return value.index - f.firstBlock;
}

} // namespace

bool Translator::translateFunction(uint32_t functionIndex, bool isEntry) {
  const dxil::LlvmModule &m = llvm();
  const dxil::Function &f = m.functions[functionIndex];
  currentFunction_ = functionIndex;
  std::vector<uint32_t> header;
  if (!functionHeader(functionIndex, isEntry, header))
    return false;

  // The input CFG.
  analysis::Cfg cfg;
  analysis::GraphBuilder graph(f.numBlocks);
  cfg.terminators.resize(f.numBlocks);
  std::vector<std::vector<uint32_t>> successors(f.numBlocks);
  for (uint32_t bi = 0; bi < f.numBlocks; ++bi) {
    currentBlock_ = bi;
    const dxil::BasicBlock &block = m.blocks[f.firstBlock + bi];
    if (block.numInstructions == 0)
      return fail("a block without a terminator");
    currentInstruction_ = block.firstInstruction + block.numInstructions - 1;
    const dxil::Instruction &term = m.instructions[currentInstruction_];
    auto ops = m.operandsOf(term);
    auto target = [&](dxil::ValueId v) {
      uint32_t t = blockIndex(m, f, v);
      if (t == analysis::kNoNode)
        fail("a branch to a value that is not a block of this function");
      return t;
    };
    std::vector<uint32_t> &succ = successors[bi];
    switch (term.opcode) {
    case Opcode::Ret:
      cfg.terminators[bi] = analysis::Terminator::Return;
      break;
    case Opcode::Unreachable:
      cfg.terminators[bi] = analysis::Terminator::Unreachable;
      break;
    case Opcode::Br:
      if (ops.size() == 1) {
        cfg.terminators[bi] = analysis::Terminator::Branch;
        succ.push_back(target(ops[0]));
      } else if (ops.size() == 3) {
        const uint32_t t = target(ops[1]), e = target(ops[2]);
        succ.push_back(t);
        if (t == e) {
          cfg.terminators[bi] = analysis::Terminator::Branch;
        } else {
          cfg.terminators[bi] = analysis::Terminator::ConditionalBranch;
          succ.push_back(e);
        }
      } else {
        return fail("a branch with " + std::to_string(ops.size()) + " operands");
      }
      break;
    case Opcode::Switch: {
      if (ops.size() < 2 || ops.size() % 2)
        return fail("a switch with " + std::to_string(ops.size()) + " operands");
      succ.push_back(target(ops[1]));
      std::vector<analysis::SwitchCase> cases;
      for (size_t i = 2; i + 1 < ops.size(); i += 2) {
        int64_t value = 0;
        if (!m.constantInt(ops[i], value))
          return fail("a switch case that is not an integer constant");
        const uint32_t t = target(ops[i + 1]);
        if (t == succ[0])
          continue; // the default's target anyway
        auto at = std::find(succ.begin(), succ.end(), t);
        const uint32_t index = uint32_t(at - succ.begin());
        if (at == succ.end())
          succ.push_back(t);
        cases.push_back({bi, uint64_t(value), index});
      }
      if (succ.size() == 1) {
        cfg.terminators[bi] = analysis::Terminator::Branch;
      } else {
        cfg.terminators[bi] = analysis::Terminator::Switch;
        cfg.cases.insert(cfg.cases.end(), cases.begin(), cases.end());
      }
      break;
    }
    default:
      return fail("a block that does not end with a terminator");
    }
    if (failed_)
      return false;
    for (uint32_t s : succ)
      graph.addEdge(bi, s);
  }
  currentBlock_ = currentInstruction_ = dxil::kNoId;
  cfg.graph = graph.build(0);
  Expected<analysis::StructuredCfg> structured = analysis::structurize(cfg);
  if (!structured)
    return fail("control flow: " + structured.error().message);
  const analysis::StructuredCfg &s = *structured;

  // Labels, and which input blocks have several predecessors (their phis become variables).
  std::vector<uint32_t> labels(s.size());
  for (uint32_t &l : labels)
    l = id();
  std::vector<uint32_t> outputOf(f.numBlocks, analysis::kNoNode);
  for (uint32_t v = 0; v < s.size(); ++v)
    if (s.kinds[v] == analysis::StructuredCfg::Kind::Original)
      outputOf[s.origin[v]] = v;
  std::vector<uint32_t> inputPreds(f.numBlocks, 0);
  for (uint32_t bi = 0; bi < f.numBlocks; ++bi)
    for (uint32_t t : successors[bi])
      ++inputPreds[t];
  // Edge blocks: which input edge each new block carries.
  std::vector<const analysis::StructuredCfg::EdgeBlock *> edgeOf(s.size(), nullptr);
  for (const auto &e : s.edgeBlocks)
    edgeOf[e.block] = &e;

  // One pass over the function: which members of each dx.op result are read (loads of unread
  // components are left out: they may lie past the end of the buffer), and which pointer casts
  // something other than a lifetime marker uses (the markers are left out, their casts too).
  extractMasks_.clear();
  pointerCastsInUse_.clear();
  for (uint32_t i = 0; i < f.numInstructions; ++i) {
    const dxil::Instruction &inst = m.instructions[f.firstInstruction + i];
    const dxil::Function *callee = m.calledFunction(inst);
    if (!callee || !m.name(callee->value).starts_with("llvm.lifetime."))
      for (dxil::ValueId v : m.operandsOf(inst))
        if (v < m.values.size() && m.values[v].kind == ValueKind::Instruction &&
            m.instructions[m.values[v].index].opcode == Opcode::BitCast)
          pointerCastsInUse_.insert(v);
    if (inst.opcode != Opcode::ExtractValue || inst.numOperands != 1 || inst.numWords != 1)
      continue;
    const uint64_t member = m.wordsOf(inst)[0];
    extractMasks_[m.operandsOf(inst)[0]] |= member < 32 ? 1u << member : 0;
  }
  variables_.clear();
  code_.clear();
  phiVariables_.clear();
  uint32_t selector = 0;
  auto selectorVariable = [&] {
    if (!selector)
      selector = functionVariable(typeInt(32));
    return selector;
  };
  auto phiVariable = [&](uint32_t instIndex) {
    const dxil::Instruction &phi = m.instructions[instIndex];
    auto [it, inserted] = phiVariables_.emplace(phi.value, 0);
    if (inserted)
      it->second = functionVariable(llvmType(phi.type));
    return it->second;
  };
  // Creates the phi variables first, so that stores on edges met before the phi's block find
  // them.
  for (uint32_t bi = 0; bi < f.numBlocks; ++bi) {
    if (inputPreds[bi] < 2)
      continue;
    const dxil::BasicBlock &block = m.blocks[f.firstBlock + bi];
    for (uint32_t i = 0; i < block.numInstructions; ++i) {
      const uint32_t ii = block.firstInstruction + i;
      if (m.instructions[ii].opcode != Opcode::Phi)
        break;
      phiVariable(ii);
    }
  }

  for (uint32_t v : s.layout) {
    code_.push_back((2u << 16) | uint32_t(Op::Label));
    code_.push_back(labels[v]);
    auto succ = s.graph.successors(v);
    const analysis::MergeInfo &merge = s.merges[v];
    bool loopMergeEmitted = false;
    auto emitMerge = [&] {
      if (loopMergeEmitted)
        return;
      if (merge.kind == analysis::MergeInfo::Kind::Selection)
        emitVoid(Op::SelectionMerge, {labels[merge.mergeBlock], 0});
      else if (merge.kind == analysis::MergeInfo::Kind::Loop)
        emitVoid(Op::LoopMerge, {labels[merge.mergeBlock], labels[merge.continueTarget], 0});
    };
    switch (s.kinds[v]) {
    case analysis::StructuredCfg::Kind::Original: {
      const uint32_t bi = s.origin[v];
      currentBlock_ = bi;
      blockSplit_ = false;
      const size_t bodyStart = code_.size();
      const dxil::BasicBlock &block = m.blocks[f.firstBlock + bi];
      for (uint32_t i = 0; i + 1 < block.numInstructions; ++i) {
        const uint32_t ii = block.firstInstruction + i;
        currentInstruction_ = ii;
        const dxil::Instruction &inst = m.instructions[ii];
        if (inst.opcode == Opcode::Phi) {
          if (inputPreds[bi] >= 2) {
            setValue(inst.value, emit(Op::Load, llvmType(inst.type), {phiVariable(ii)}));
          } else {
            auto ops = m.operandsOf(inst);
            if (ops.size() != 2)
              return fail("a phi in a block with one predecessor has " +
                          std::to_string(ops.size() / 2) + " incoming values");
            setValue(inst.value, value(ops[0]));
          }
          continue;
        }
        if (!translateInstruction(ii))
          return false;
      }
      if (blockSplit_ && merge.kind == analysis::MergeInfo::Kind::Loop) {
        // The block's instructions opened blocks of their own: the header keeps only the
        // OpLoopMerge, which must be in the block the back edges go to.
        const uint32_t body = id();
        std::vector<uint32_t> words;
        InstWriter(words, Op::LoopMerge)
            .id(labels[merge.mergeBlock])
            .id(labels[merge.continueTarget])
            .literal(0);
        InstWriter(words, Op::Branch).id(body);
        InstWriter(words, Op::Label).id(body);
        code_.insert(code_.begin() + static_cast<std::ptrdiff_t>(bodyStart), words.begin(),
                     words.end());
        loopMergeEmitted = true;
      }
      currentInstruction_ = block.firstInstruction + block.numInstructions - 1;
      const dxil::Instruction &term = m.instructions[currentInstruction_];
      auto ops = m.operandsOf(term);
      switch (cfg.terminators[bi]) {
      case analysis::Terminator::Return:
        if (!ops.empty() && isEntry)
          return fail("the entry function returns a value");
        if (ops.empty())
          emitVoid(Op::Return, {});
        else
          emitVoid(Op::ReturnValue, {value(ops[0])});
        break;
      case analysis::Terminator::Unreachable:
        emitVoid(Op::Unreachable, {});
        break;
      case analysis::Terminator::Branch:
        emitMerge();
        emitVoid(Op::Branch, {labels[succ[0]]});
        break;
      case analysis::Terminator::ConditionalBranch: {
        const uint32_t cond = value(ops[0]);
        emitMerge();
        emitVoid(Op::BranchConditional, {cond, labels[succ[0]], labels[succ[1]]});
        break;
      }
      case analysis::Terminator::Switch: {
        const uint32_t sel = value(ops[0]);
        const bool wide = scalarWidth(llvmType(m.typeOf(ops[0]))) == 64;
        std::vector<uint32_t> words{sel, labels[succ[0]]};
        for (const analysis::SwitchCase &c : cfg.casesOf(bi)) {
          words.push_back(uint32_t(c.value));
          if (wide)
            words.push_back(uint32_t(c.value >> 32));
          words.push_back(labels[succ[c.successor]]);
        }
        emitMerge();
        emitVoid(Op::Switch, words);
        break;
      }
      }
      break;
    }
    case analysis::StructuredCfg::Kind::SetSelector:
      emitVoid(Op::Store, {selectorVariable(), constU32(s.values[v])});
      emitMerge();
      emitVoid(Op::Branch, {labels[succ[0]]});
      break;
    case analysis::StructuredCfg::Kind::Ladder: {
      const uint32_t load = emit(Op::Load, typeInt(32), {selectorVariable()});
      const uint32_t cond = emit(Op::IEqual, typeBool(), {load, constU32(s.values[v])});
      emitMerge();
      emitVoid(Op::BranchConditional, {cond, labels[succ[0]], labels[succ[1]]});
      break;
    }
    case analysis::StructuredCfg::Kind::Unreachable:
      emitVoid(Op::Unreachable, {});
      break;
    case analysis::StructuredCfg::Kind::Continue:
    case analysis::StructuredCfg::Kind::LoopHeader:
    case analysis::StructuredCfg::Kind::Forward:
      if (const analysis::StructuredCfg::EdgeBlock *e = edgeOf[v]) {
        // The copies the target's phis receive along this edge.
        const uint32_t from = e->from, to = successors[from][e->successor];
        currentBlock_ = from;
        const dxil::BasicBlock &target = m.blocks[f.firstBlock + to];
        const dxil::ValueId fromValue = m.blocks[f.firstBlock + from].value;
        for (uint32_t i = 0; i < target.numInstructions; ++i) {
          const uint32_t ii = target.firstInstruction + i;
          const dxil::Instruction &phi = m.instructions[ii];
          if (phi.opcode != Opcode::Phi)
            break;
          currentInstruction_ = ii;
          auto ops = m.operandsOf(phi);
          dxil::ValueId incoming = dxil::kNoId;
          for (size_t k = 0; k + 1 < ops.size(); k += 2)
            if (ops[k + 1] == fromValue)
              incoming = ops[k];
          if (incoming == dxil::kNoId)
            return fail("a phi without a value for one of its predecessors");
          const uint32_t val = value(incoming);
          emitVoid(Op::Store, {phiVariable(ii), val});
        }
      }
      emitMerge();
      emitVoid(Op::Branch, {labels[succ[0]]});
      break;
    }
    currentInstruction_ = dxil::kNoId;
    if (failed_)
      return false;
  }
  currentBlock_ = dxil::kNoId;
  // The variables go first in the first block, after its label.
  auto &out = b_.sectionWords(Section::FunctionDefinition);
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), code_.begin(), code_.begin() + 2);
  out.insert(out.end(), variables_.begin(), variables_.end());
  out.insert(out.end(), code_.begin() + 2, code_.end());
  InstWriter(out, Op::FunctionEnd);
  currentFunction_ = dxil::kNoId;
  return !failed_;
}

void Translator::emitLabel(uint32_t label) {
  code_.push_back((2u << 16) | uint32_t(Op::Label));
  code_.push_back(label);
  blockSplit_ = true;
}

// ---- emission helpers -----------------------------------------------------------------------

uint32_t Translator::emit(Op op, uint32_t resultType, std::initializer_list<uint32_t> operands) {
  const uint32_t result = id();
  InstWriter(code_, op).id(resultType).id(result).words(operands);
  return result;
}
uint32_t Translator::emit(Op op, uint32_t resultType, const std::vector<uint32_t> &operands) {
  const uint32_t result = id();
  InstWriter(code_, op).id(resultType).id(result).words(operands);
  return result;
}
void Translator::emitVoid(Op op, std::initializer_list<uint32_t> operands) {
  InstWriter(code_, op).words(operands);
}
void Translator::emitVoid(Op op, const std::vector<uint32_t> &operands) {
  InstWriter(code_, op).words(operands);
}

uint32_t Translator::glsl(std::string_view instName, uint32_t resultType,
                          std::initializer_list<uint32_t> args) {
  static const grammar::ExtInstSetDesc *set = grammar::extInstSet(grammar::ExtInstSet::GlslStd450);
  const grammar::ExtInstDesc *inst = set ? grammar::findExtInst(*set, instName) : nullptr;
  if (!inst)
    return fail("GLSL.std.450 has no instruction " + std::string(instName));
  const uint32_t result = id();
  InstWriter(code_, Op::ExtInst)
      .id(resultType)
      .id(result)
      .id(glslImport())
      .literal(inst->opcode)
      .words(args);
  return result;
}

uint32_t Translator::functionVariable(uint32_t pointeeType) {
  const uint32_t var = id();
  InstWriter(variables_, Op::Variable)
      .id(typePointer(StorageClass::Function, pointeeType))
      .id(var)
      .literal(uint32_t(StorageClass::Function));
  return var;
}

uint32_t Translator::bitcast(uint32_t type, uint32_t v) { return emit(Op::Bitcast, type, {v}); }

uint32_t Translator::convertScalar(uint32_t v, uint32_t from, uint32_t to) {
  if (from == to || !v)
    return v;
  if (isBoolType(from))
    return emit(Op::Select, to,
                {v, isFloatType(to) ? constI(to, 0x3F800000) : constI(to, 1), constI(to, 0)});
  if (isBoolType(to))
    return emit(Op::INotEqual, to, {v, constI(from, 0)});
  const uint32_t fw = scalarWidth(from), tw = scalarWidth(to);
  const bool ff = isFloatType(from), tf = isFloatType(to);
  if (fw == tw)
    return bitcast(to, v);
  if (ff && tf)
    return emit(Op::FConvert, to, {v});
  if (!ff && !tf) {
    // Narrowing keeps the low bits; widening extends by the signedness of the wider type.
    std::span<const uint32_t> info = typeInstruction(componentType(to));
    const bool signedTo = info.size() == 3 && info[2] == 1;
    return emit(tw > fw && signedTo ? Op::SConvert : Op::UConvert, to, {v});
  }
  // Different widths and kinds: change the width in the source's kind, then reinterpret.
  const uint32_t mid = ff ? typeFloat(tw) : typeInt(tw);
  return bitcast(to, emit(ff ? Op::FConvert : Op::UConvert, mid, {v}));
}

uint32_t Translator::fromU32(uint32_t type, uint32_t word) {
  const uint32_t width = scalarWidth(type);
  if (isBoolType(type))
    return emit(Op::INotEqual, typeBool(), {word, constU32(0)});
  if (width == 32)
    return isFloatType(type) ? bitcast(type, word)
                             : (type == typeInt(32) ? word : bitcast(type, word));
  if (width == 16 || width == 8) {
    const uint32_t narrow = emit(Op::UConvert, typeInt(width), {word});
    return isFloatType(type) ? bitcast(type, narrow) : narrow;
  }
  return fail("a " + std::to_string(width) + "-bit value from one 32-bit word");
}

uint32_t Translator::toU32(uint32_t v, uint32_t type) {
  const uint32_t width = scalarWidth(type);
  if (isBoolType(type))
    return emit(Op::Select, typeInt(32), {v, constU32(1), constU32(0)});
  if (width == 32)
    return type == typeInt(32) ? v : bitcast(typeInt(32), v);
  if (width == 16 || width == 8) {
    const uint32_t bits = isFloatType(type) ? bitcast(typeInt(width), v) : v;
    return emit(Op::UConvert, typeInt(32), {bits});
  }
  return fail("a " + std::to_string(width) + "-bit value into one 32-bit word");
}

// ---- values ---------------------------------------------------------------------------------

uint32_t Translator::value(dxil::ValueId v) {
  if (v >= llvm().values.size())
    return fail("a value id out of range");
  auto it = values_.find(v);
  if (it != values_.end())
    return it->second;
  const dxil::Value &val = llvm().values[v];
  switch (val.kind) {
  case ValueKind::Constant: {
    const dxil::Constant &c = llvm().constants[val.index];
    const uint32_t r = translateConstant(v);
    if (c.kind != dxil::ConstantKind::Expr) // expressions are emitted at each use
      values_[v] = r;
    return r;
  }
  case ValueKind::GlobalVariable:
    return globalFor(v);
  case ValueKind::Instruction:
    return fail("a value used before it is defined (%" + std::to_string(v) + ")");
  default:
    return fail("this kind of value has no SPIR-V equivalent here");
  }
}

uint32_t Translator::globalFor(dxil::ValueId v) {
  auto it = globals_.find(v);
  if (it != globals_.end())
    return it->second;
  const dxil::GlobalVariable &g = llvm().globals[llvm().values[v].index];
  StorageClass sc;
  if (g.addressSpace == 3)
    sc = StorageClass::Workgroup;
  else if (g.addressSpace == 0)
    sc = StorageClass::Private;
  else
    return fail("a global in address space " + std::to_string(g.addressSpace));
  const uint32_t type = llvmType(g.valueType, sc);
  uint32_t init = 0;
  if (g.initializer != dxil::kNoId && sc == StorageClass::Private && !isUndef(g.initializer))
    init = value(g.initializer);
  if (failed_)
    return 0;
  const uint32_t var = globalVariable(type, sc, init);
  name(var, llvm().name(v));
  globals_[v] = var;
  pointerClass_[v] = sc;
  return var;
}

/// The storage class of an LLVM pointer value.
static StorageClass classOfPointer(const dxil::LlvmModule &m,
                                   const std::unordered_map<dxil::ValueId, StorageClass> &known,
                                   dxil::ValueId v) {
  for (int depth = 0; depth < 64; ++depth) {
    auto it = known.find(v);
    if (it != known.end())
      return it->second;
    const dxil::Value &val = m.values[v];
    if (val.kind == ValueKind::GlobalVariable) {
      const dxil::GlobalVariable &g = m.globals[val.index];
      return g.addressSpace == 3 ? StorageClass::Workgroup : StorageClass::Private;
    }
    if (val.kind == ValueKind::Constant &&
        m.constants[val.index].kind == dxil::ConstantKind::Expr &&
        m.constants[val.index].numOperands) {
      v = m.operandsOf(m.constants[val.index])[0];
      continue;
    }
    if (val.kind == ValueKind::Instruction && m.instructions[val.index].numOperands) {
      v = m.operandsOf(m.instructions[val.index])[0];
      continue;
    }
    break;
  }
  return StorageClass::Function;
}

/// An access chain for a GEP (instruction or constant expression): the first index must be 0.
static uint32_t accessChain(Translator &t, dxil::TypeId resultType, StorageClass sc, uint32_t base,
                            std::span<const dxil::ValueId> indices) {
  int64_t first = 0;
  if (indices.empty() || !t.constantInt(indices[0], first) || first != 0)
    return t.fail("pointer arithmetic (a getelementptr whose first index is not 0)");
  std::vector<uint32_t> ops{base};
  for (size_t i = 1; i < indices.size(); ++i)
    ops.push_back(t.value(indices[i]));
  if (ops.size() == 1)
    return base;
  const uint32_t type = t.llvmType(resultType, sc);
  return t.failed() ? 0 : t.emit(Op::AccessChain, type, ops);
}

uint32_t Translator::translateConstantExpression(dxil::ValueId v, const dxil::Constant &c) {
  auto ops = llvm().operandsOf(c);
  switch (c.opcode) {
  case Opcode::GetElementPtr: {
    if (ops.empty())
      return fail("an empty getelementptr expression");
    if (currentFunction_ == dxil::kNoId)
      return fail("a getelementptr expression outside a function");
    const uint32_t base = value(ops[0]);
    const StorageClass sc = classOfPointer(llvm(), pointerClass_, ops[0]);
    pointerClass_[v] = sc;
    return base ? accessChain(*this, c.type, sc, base, ops.subspan(1)) : 0;
  }
  case Opcode::BitCast:
  case Opcode::AddrSpaceCast:
    if (ops.size() == 1 && llvm().type(c.type).kind == dxil::TypeKind::Pointer) {
      // Pointer casts between identical SPIR-V pointees are no-ops; others are not supported.
      const uint32_t base = value(ops[0]);
      pointerClass_[v] = classOfPointer(llvm(), pointerClass_, ops[0]);
      if (llvmType(llvm().elementType(c.type)) !=
          llvmType(llvm().elementType(llvm().typeOf(ops[0]))))
        return fail("a pointer cast between different pointee types");
      return base;
    }
    break;
  default:
    break;
  }
  return fail(std::string("the constant expression '") + std::string(dxil::opcodeName(c.opcode)) +
              "' is not supported");
}

// ---- instructions ---------------------------------------------------------------------------

namespace {

struct BinaryOps {
  Op integer, floating, boolean;
};

BinaryOps binaryOps(Opcode op) {
  switch (op) {
  case Opcode::Add:
    return {Op::IAdd, Op::Nop, Op::LogicalNotEqual};
  case Opcode::FAdd:
    return {Op::Nop, Op::FAdd, Op::Nop};
  case Opcode::Sub:
    return {Op::ISub, Op::Nop, Op::LogicalNotEqual};
  case Opcode::FSub:
    return {Op::Nop, Op::FSub, Op::Nop};
  case Opcode::Mul:
    return {Op::IMul, Op::Nop, Op::LogicalAnd};
  case Opcode::FMul:
    return {Op::Nop, Op::FMul, Op::Nop};
  case Opcode::UDiv:
    return {Op::UDiv, Op::Nop, Op::Nop};
  case Opcode::SDiv:
    return {Op::SDiv, Op::Nop, Op::Nop};
  case Opcode::FDiv:
    return {Op::Nop, Op::FDiv, Op::Nop};
  case Opcode::URem:
    return {Op::UMod, Op::Nop, Op::Nop};
  case Opcode::SRem:
    return {Op::SRem, Op::Nop, Op::Nop};
  case Opcode::FRem:
    return {Op::Nop, Op::FRem, Op::Nop};
  case Opcode::Shl:
    return {Op::ShiftLeftLogical, Op::Nop, Op::Nop};
  case Opcode::LShr:
    return {Op::ShiftRightLogical, Op::Nop, Op::Nop};
  case Opcode::AShr:
    return {Op::ShiftRightArithmetic, Op::Nop, Op::Nop};
  case Opcode::And:
    return {Op::BitwiseAnd, Op::Nop, Op::LogicalAnd};
  case Opcode::Or:
    return {Op::BitwiseOr, Op::Nop, Op::LogicalOr};
  case Opcode::Xor:
    return {Op::BitwiseXor, Op::Nop, Op::LogicalNotEqual};
  default:
    return {Op::Nop, Op::Nop, Op::Nop};
  }
}

/// ICmp predicates 32-41 and FCmp predicates 1-14 (0 and 15 are constants).
Op comparison(uint8_t predicate, bool boolean) {
  switch (predicate) {
  case 1:
    return Op::FOrdEqual;
  case 2:
    return Op::FOrdGreaterThan;
  case 3:
    return Op::FOrdGreaterThanEqual;
  case 4:
    return Op::FOrdLessThan;
  case 5:
    return Op::FOrdLessThanEqual;
  case 6:
    return Op::FOrdNotEqual;
  case 9:
    return Op::FUnordEqual;
  case 10:
    return Op::FUnordGreaterThan;
  case 11:
    return Op::FUnordGreaterThanEqual;
  case 12:
    return Op::FUnordLessThan;
  case 13:
    return Op::FUnordLessThanEqual;
  case 14:
    return Op::FUnordNotEqual;
  case 32:
    return boolean ? Op::LogicalEqual : Op::IEqual;
  case 33:
    return boolean ? Op::LogicalNotEqual : Op::INotEqual;
  case 34:
    return Op::UGreaterThan;
  case 35:
    return Op::UGreaterThanEqual;
  case 36:
    return Op::ULessThan;
  case 37:
    return Op::ULessThanEqual;
  case 38:
    return Op::SGreaterThan;
  case 39:
    return Op::SGreaterThanEqual;
  case 40:
    return Op::SLessThan;
  case 41:
    return Op::SLessThanEqual;
  default:
    return Op::Nop;
  }
}

} // namespace

bool Translator::translateInstruction(uint32_t index) {
  const dxil::LlvmModule &m = llvm();
  const dxil::Instruction &inst = m.instructions[index];
  auto ops = m.operandsOf(inst);
  const Opcode op = inst.opcode;
  if (op == Opcode::Call)
    return translateCall(index, inst);
  if (op == Opcode::Alloca || op == Opcode::Load || op == Opcode::Store ||
      op == Opcode::GetElementPtr || op == Opcode::AtomicRMW || op == Opcode::AtomicCmpXchg)
    return translateMemory(inst);
  if (op == Opcode::Fence)
    return true; // DXIL has no fences of its own; barriers are dx.op calls
  const uint32_t type = inst.value != dxil::kNoId ? llvmType(inst.type) : 0;
  if (failed_)
    return false;
  if (dxil::isBinary(op)) {
    const uint32_t a = value(ops[0]), b = value(ops[1]);
    const BinaryOps set = binaryOps(op);
    const Op chosen = isBoolType(type)    ? set.boolean
                      : isFloatType(type) ? set.floating
                                          : set.integer;
    if (chosen == Op::Nop)
      return fail("this operation has no SPIR-V equivalent for its type");
    const uint32_t r = emit(chosen, type, {a, b});
    if (isFloatType(type) && !(inst.fastMath & dxil::kFastMathAllowContract) &&
        inst.fastMath != dxil::kFastMathAll)
      decorate(r, Decoration::NoContraction);
    setValue(inst.value, r);
    return !failed_;
  }
  if (op == Opcode::FNeg) {
    setValue(inst.value, emit(Op::FNegate, type, {value(ops[0])}));
    return !failed_;
  }
  if (dxil::isCast(op)) {
    const uint32_t x = value(ops[0]);
    const uint32_t from = llvmType(m.typeOf(ops[0]));
    if (failed_)
      return false;
    uint32_t r = 0;
    const bool fromBool = isBoolType(from), toBool = isBoolType(type);
    switch (op) {
    case Opcode::Trunc:
      if (toBool)
        r = emit(Op::INotEqual, type,
                 {emit(Op::BitwiseAnd, from, {x, constI(from, 1)}), constI(from, 0)});
      else
        r = from == type ? x : emit(Op::UConvert, type, {x});
      break;
    case Opcode::ZExt:
      r = fromBool       ? emit(Op::Select, type, {x, constI(type, 1), constI(type, 0)})
          : from == type ? x
                         : emit(Op::UConvert, type, {x});
      break;
    case Opcode::SExt:
      r = fromBool       ? emit(Op::Select, type, {x, constI(type, ~0ull), constI(type, 0)})
          : from == type ? x
                         : emit(Op::SConvert, type, {x});
      break;
    case Opcode::FPToUI:
      r = emit(Op::ConvertFToU, type, {x});
      break;
    case Opcode::FPToSI:
      r = emit(Op::ConvertFToS, type, {x});
      break;
    case Opcode::UIToFP:
      r = fromBool ? emit(Op::Select, type, {x, constI(type, 0x3F800000), constI(type, 0)})
                   : emit(Op::ConvertUToF, type, {x});
      if (fromBool && scalarWidth(type) != 32)
        return fail("a bool converted to a float that is not 32 bits");
      break;
    case Opcode::SIToFP:
      r = fromBool ? emit(Op::Select, type, {x, constI(type, 0xBF800000), constI(type, 0)})
                   : emit(Op::ConvertSToF, type, {x});
      if (fromBool && scalarWidth(type) != 32)
        return fail("a bool converted to a float that is not 32 bits");
      break;
    case Opcode::FPTrunc:
    case Opcode::FPExt:
      r = from == type ? x : emit(Op::FConvert, type, {x});
      break;
    case Opcode::BitCast:
      if (from != type && m.type(inst.type).kind == dxil::TypeKind::Pointer) {
        // Logical pointers cannot change their pointee; DXIL casts them for the lifetime
        // markers only (left out), and nothing else may use the cast.
        if (pointerCastsInUse_.count(inst.value))
          return fail("a pointer cast between different pointee types");
        return true;
      }
      r = from == type ? x : bitcast(type, x);
      break;
    case Opcode::AddrSpaceCast:
      r = x;
      break;
    default:
      return fail("pointer/integer casts have no SPIR-V equivalent in logical addressing");
    }
    setValue(inst.value, r);
    return !failed_;
  }
  switch (op) {
  case Opcode::ICmp:
  case Opcode::FCmp: {
    const uint32_t a = value(ops[0]), b = value(ops[1]);
    const uint32_t operandType = llvmType(m.typeOf(ops[0]));
    uint32_t r = 0;
    if (inst.predicate == 0 || inst.predicate == 15) {
      r = constBool(inst.predicate == 15);
    } else if (inst.predicate == 7 || inst.predicate == 8) { // ord, uno
      const uint32_t nan =
          emit(Op::LogicalOr, type, {emit(Op::IsNan, type, {a}), emit(Op::IsNan, type, {b})});
      r = inst.predicate == 8 ? nan : emit(Op::LogicalNot, type, {nan});
    } else {
      const Op cmp = comparison(inst.predicate, isBoolType(operandType));
      if (cmp == Op::Nop)
        return fail("comparison predicate " + std::to_string(inst.predicate));
      r = emit(cmp, type, {a, b});
    }
    setValue(inst.value, r);
    return !failed_;
  }
  case Opcode::Select:
    setValue(inst.value, emit(Op::Select, type, {value(ops[0]), value(ops[1]), value(ops[2])}));
    return !failed_;
  case Opcode::ExtractValue: {
    auto words = m.wordsOf(inst);
    auto agg = aggregates_.find(ops[0]);
    if (agg != aggregates_.end()) {
      if (words.size() != 1 || words[0] >= agg->second.size())
        return fail("extractvalue out of a dx.op result's members");
      if (!agg->second[words[0]])
        return fail("this member of the dx.op result is not available");
      setValue(inst.value, agg->second[words[0]]);
      return true;
    }
    std::vector<uint32_t> operands{value(ops[0])};
    for (uint64_t w : words)
      operands.push_back(uint32_t(w));
    setValue(inst.value, emit(Op::CompositeExtract, type, operands));
    return !failed_;
  }
  case Opcode::InsertValue: {
    std::vector<uint32_t> operands{value(ops[1]), value(ops[0])};
    for (uint64_t w : m.wordsOf(inst))
      operands.push_back(uint32_t(w));
    setValue(inst.value, emit(Op::CompositeInsert, type, operands));
    return !failed_;
  }
  case Opcode::ExtractElement: {
    int64_t i = 0;
    if (m.constantInt(ops[1], i))
      setValue(inst.value, emit(Op::CompositeExtract, type, {value(ops[0]), uint32_t(i)}));
    else
      setValue(inst.value, emit(Op::VectorExtractDynamic, type, {value(ops[0]), value(ops[1])}));
    return !failed_;
  }
  case Opcode::InsertElement: {
    int64_t i = 0;
    if (m.constantInt(ops[2], i))
      setValue(inst.value,
               emit(Op::CompositeInsert, type, {value(ops[1]), value(ops[0]), uint32_t(i)}));
    else
      setValue(inst.value,
               emit(Op::VectorInsertDynamic, type, {value(ops[0]), value(ops[1]), value(ops[2])}));
    return !failed_;
  }
  case Opcode::ShuffleVector: {
    std::vector<uint32_t> operands{value(ops[0]), value(ops[1])};
    const dxil::Constant *mask = m.constant(ops[2]);
    const uint32_t n = componentCount(type);
    for (uint32_t i = 0; i < n; ++i) {
      int64_t lane = -1;
      if (mask && mask->kind == dxil::ConstantKind::Data && i < mask->numWords)
        lane = int64_t(m.wordsOf(*mask)[i]);
      else if (mask && mask->kind == dxil::ConstantKind::Aggregate && i < mask->numOperands &&
               !m.constantInt(m.operandsOf(*mask)[i], lane))
        lane = -1;
      else if (mask && mask->kind == dxil::ConstantKind::Null)
        lane = 0;
      operands.push_back(lane < 0 ? 0xFFFFFFFFu : uint32_t(lane));
    }
    setValue(inst.value, emit(Op::VectorShuffle, type, operands));
    return !failed_;
  }
  case Opcode::Freeze:
    setValue(inst.value, value(ops[0]));
    return !failed_;
  default:
    return fail("the LLVM instruction '" + std::string(dxil::opcodeName(op)) +
                "' is not supported");
  }
}

bool Translator::translateMemory(const dxil::Instruction &inst) {
  const dxil::LlvmModule &m = llvm();
  auto ops = m.operandsOf(inst);
  switch (inst.opcode) {
  case Opcode::Alloca: {
    const uint32_t type = llvmType(inst.auxType);
    if (failed_)
      return false;
    setValue(inst.value, functionVariable(type));
    pointerClass_[inst.value] = StorageClass::Function;
    return true;
  }
  case Opcode::GetElementPtr: {
    const uint32_t base = value(ops[0]);
    if (!base)
      return false;
    const StorageClass sc = classOfPointer(m, pointerClass_, ops[0]);
    pointerClass_[inst.value] = sc;
    const uint32_t r = accessChain(*this, inst.type, sc, base, ops.subspan(1));
    setValue(inst.value, r);
    return !failed_;
  }
  case Opcode::Load: {
    // A library's resource symbol is no memory: createHandleForLib reads which one it is.
    for (const dxil::ResourceLists *lists : {&dx_.resources, &entry_.resources})
      for (const dxil::ResourceClass rc :
           {dxil::ResourceClass::SRV, dxil::ResourceClass::UAV, dxil::ResourceClass::CBuffer,
            dxil::ResourceClass::Sampler})
        for (const dxil::DxilResource &r : lists->list(rc))
          if (r.global == ops[0] || r.symbol == ops[0])
            return true;
    const uint32_t ptr = value(ops[0]);
    const uint32_t type = llvmType(inst.type);
    if (failed_)
      return false;
    setValue(inst.value, emit(Op::Load, type, {ptr}));
    return true;
  }
  case Opcode::Store: {
    const uint32_t v = value(ops[0]), ptr = value(ops[1]);
    if (failed_)
      return false;
    emitVoid(Op::Store, {ptr, v});
    return true;
  }
  case Opcode::AtomicRMW:
  case Opcode::AtomicCmpXchg: {
    if (translateAgsAddressRead(inst)) // TranslateAgs.cpp
      return !failed_;
    const uint32_t ptr = value(ops[0]);
    const StorageClass sc = classOfPointer(m, pointerClass_, ops[0]);
    if (sc == StorageClass::NodePayloadAMDX) // SPIR-V's atomics do not take payload pointers
      return fail("unsupported: an atomic operation on a work graph node record");
    const uint32_t scope = constU32(uint32_t(
        sc == StorageClass::Workgroup ? grammar::Scope::Workgroup : grammar::Scope::Invocation));
    const uint32_t semantics = constU32(0);
    if (inst.opcode == Opcode::AtomicCmpXchg) {
      const uint32_t type = llvmType(m.typeOf(ops[1]));
      const uint32_t cmp = value(ops[1]), val = value(ops[2]);
      if (failed_)
        return false;
      const uint32_t old =
          emit(Op::AtomicCompareExchange, type, {ptr, scope, semantics, semantics, val, cmp});
      setAggregate(inst.value, {old, emit(Op::IEqual, typeBool(), {old, cmp})});
      return !failed_;
    }
    const uint32_t type = llvmType(inst.type);
    const uint32_t val = value(ops[1]);
    if (failed_)
      return false;
    Op op = Op::Nop;
    switch (dxil::RmwOp(inst.predicate)) {
    case dxil::RmwOp::Xchg:
      op = Op::AtomicExchange;
      break;
    case dxil::RmwOp::Add:
      op = Op::AtomicIAdd;
      break;
    case dxil::RmwOp::Sub:
      op = Op::AtomicISub;
      break;
    case dxil::RmwOp::And:
      op = Op::AtomicAnd;
      break;
    case dxil::RmwOp::Or:
      op = Op::AtomicOr;
      break;
    case dxil::RmwOp::Xor:
      op = Op::AtomicXor;
      break;
    case dxil::RmwOp::Max:
      op = Op::AtomicSMax;
      break;
    case dxil::RmwOp::Min:
      op = Op::AtomicSMin;
      break;
    case dxil::RmwOp::UMax:
      op = Op::AtomicUMax;
      break;
    case dxil::RmwOp::UMin:
      op = Op::AtomicUMin;
      break;
    default:
      return fail("atomicrmw " + std::string(dxil::rmwOpName(dxil::RmwOp(inst.predicate))));
    }
    setValue(inst.value, emit(op, type, {ptr, scope, semantics, val}));
    return true;
  }
  default:
    return fail("unsupported memory instruction");
  }
}

bool Translator::translateCall(uint32_t index, const dxil::Instruction &inst) {
  const dxil::DxilOpCall *call = dx_.opCallAt(index);
  if (!call) {
    const dxil::Function *callee = llvm().calledFunction(inst);
    const std::string_view name = callee ? llvm().name(callee->value) : std::string_view();
    if (name.starts_with("llvm.dbg.") || name.starts_with("llvm.lifetime.") ||
        name.starts_with("dx.noop") || name.starts_with("llvm.donothing"))
      return true;
    if (callee && !callee->isDeclaration)
      return translateFunctionCall(inst, *callee);
    return fail("a call of '" + std::string(name) +
                "', a function this module declares but does not define");
  }
  return translateOpCall(*call, inst, dx_.opArguments(*call));
}

// ---- the public entry points -----------------------------------------------------------------

Expected<std::vector<TranslatedShader>> translateDxil(const dxil::DxilModule &module,
                                                      const DxilTranslateOptions &options) {
  std::vector<TranslatedShader> out;
  bool found = false;
  // Library exports by their HLSL names, unless two entries would share one.
  std::map<std::string, uint32_t> exports;
  for (const dxil::EntryPoint &entry : module.entryPoints)
    if (entry.function != dxil::kNoId)
      ++exports[exportName(entry.name)];
  for (const dxil::EntryPoint &entry : module.entryPoints) {
    if (entry.function == dxil::kNoId)
      continue;
    const std::string exported = exportName(entry.name);
    const std::string name = exports[exported] == 1           ? exported
                             : entry.name.starts_with('\x01') ? entry.name.substr(1)
                                                              : entry.name;
    if (!options.entry.empty() && entry.name != options.entry && name != options.entry &&
        exported != options.entry)
      continue;
    found = true;
    // A ray tracing entry's local root signature: its own, else the default one.
    const LocalRootSignature *local = nullptr;
    grammar::ExecutionModel model;
    if (Translator::rayTracingModel(entry.kind, model))
      for (const LocalRootSignature &l : options.localRootSignatures) {
        const bool named = std::any_of(l.exports.begin(), l.exports.end(), [&](const auto &e) {
          return e == entry.name || e == name || e == exported;
        });
        if (named || (l.exports.empty() && !local))
          local = &l;
        if (named)
          break;
      }
    auto translateEntry = [&]() -> Expected<TranslatedShader> {
      std::optional<DxilTranslateOptions> withLocal;
      if (local) {
        withLocal = options;
        if (Status s = applyLocalRootSignature(local->signature, withLocal->bindings); !s)
          return makeError({},
                           "entry '" + name + "': its local root signature: " + s.error().message);
      }
      Translator t(module, entry, withLocal ? *withLocal : options);
      t.entryName_ = name;
      return t.run();
    };
    Expected<TranslatedShader> shader = translateEntry();
    if (shader)
      out.push_back(std::move(*shader));
    else if (options.failedEntries && options.entry.empty())
      options.failedEntries->push_back(shader.error());
    else
      return shader.error();
  }
  if (found && out.empty() && options.failedEntries && !options.failedEntries->empty())
    return options.failedEntries->back(); // every entry failed (and was recorded)
  if (!found)
    return makeError({}, options.entry.empty()
                             ? "the program has no entry point with a function"
                             : "the program has no entry point named '" + options.entry + "'");
  return out;
}

} // namespace spire::translate
