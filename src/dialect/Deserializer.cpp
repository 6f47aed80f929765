#include "spire/dialect/Serialization.h"

#include "spire/dialect/ModuleTypes.h"
#include "spire/dialect/Ops.h"
#include "spire/module/Cfg.h"
#include "spire/module/Decorations.h"
#include "spire/module/Opcodes.h"
#include "spire/support/IdMap.h"

#include "Naming.h"
#include "Structurizer.h"
#include "TosaAttributes.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace spire::dialect {

namespace {

using grammar::Op;
using grammar::OperandKind;

class Deserializer {
public:
  Deserializer(Context &ctx, const Module &m, DeserializeStats &stats, DeserializeOptions options)
      : ctx_(ctx), m_(m), stats_(stats), options_(options) {}

  Expected<OwningOp> run() {
    if (Status s = scanModule(); !s)
      return s.error();
    lines();
    globalSymbols();
    // An array's length may be a specialization constant: the type names its symbol.
    Expected<ModuleTypes> types = ModuleTypes::import(
        ctx_, m_, [this](uint32_t id) { return symbolOf_.count(id) ? symbolOf_.at(id) : ""; },
        &decorationIndex_);
    if (!types)
      return types.error();
    types_ = std::move(types).value();
    i32_ = ctx_.integer(32);
    valueName_ = intern(ctx_, "value");
    variableName_ = intern(ctx_, "variable");
    specConstName_ = intern(ctx_, "spec_const");
    // Values by id, for the whole module: ids are unique, so functions need no clearing.
    values_.reset(m_.bound(), m_.words().size(), Value());

    OperationState st(&ops::module(), Location::binary(0, 0));
    st.numRegions = 1;
    module_.reset(Operation::create(std::move(st)));
    body_ = module_->region().addBlock();

    if (Status s = globals(); !s)
      return s.error();
    // Everything the module's attributes say is known from the sections before the functions.
    setModuleAttributes();
    if (options_.namesRead && namesEnd_ > namesBegin_)
      keepLateNames();
    if (options_.bodyReady)
      options_.bodyReady(*module_);
    // A function's type, for references to it after its words are gone (functionRead).
    for (const FunctionInfo &f : m_.functions())
      if (Instruction fn = m_.inst(f.begin); fn.wordCount() >= 5)
        functionTypes_.emplace(fn.resultId(), fn.word(4));
    for (const FunctionInfo &f : m_.functions()) {
      if (Status s = function(f); !s)
        return s.error();
      if (options_.functionRead)
        options_.functionRead(f.begin, f.end);
      if (options_.bodyReady)
        options_.bodyReady(*module_);
    }
    if (Status s = graphs(); !s)
      return s.error();
    if (Status s = entryPoints(); !s)
      return s.error();
    if (decorationError_)
      return *decorationError_;
    return std::move(module_);
  }

private:
  Diagnostic error(Instruction inst, std::string message) {
    return makeError(Location::binary(inst.wordOffset(), inst.index()), std::move(message));
  }
  Location loc(Instruction inst) { return Location::binary(inst.wordOffset(), inst.index()); }
  /// The source line in effect at `inst` (lines()), or null.
  const DebugLoc *lineAt(Instruction inst) const {
    return inst.index() < lineOf_.size() ? lineOf_[inst.index()] : nullptr;
  }
  /// The state of an op that stands for instruction `inst`: its places in the binary and in the
  /// source.
  OperationState at(const OpInfo *info, Instruction inst) {
    OperationState st(info, loc(inst));
    st.debugLoc = lineAt(inst);
    return st;
  }

  /// The source line of each instruction, as SPIR-V scopes OpLine: from an OpLine to the next
  /// OpLine or OpNoLine or the end of the block (a block terminator). Before a function the
  /// line in effect carries on into it (the OpLine that glslang writes before OpFunction covers
  /// the function, its parameters and its first block up to the next line). Nothing is kept
  /// for a module without OpLine.
  void lines() {
    const DebugLoc *current = nullptr;
    for (Instruction inst : m_) {
      if (inst.isRaw())
        continue;
      const Op op = inst.opcode();
      if (op == Op::Line && inst.wordCount() >= 4) {
        auto file = strings_.find(inst.word(1));
        usedStrings_.insert(inst.word(1));
        if (lineOf_.empty())
          lineOf_.assign(m_.size(), nullptr);
        current = fileLineCol(ctx_, file == strings_.end() ? std::string_view() : file->second,
                              inst.word(2), inst.word(3));
        continue;
      }
      if (op == Op::NoLine) {
        current = nullptr;
        continue;
      }
      if (current)
        lineOf_[inst.index()] = current;
      if (isBlockTerminator(op))
        current = nullptr;
    }
  }

  // --- Module scan ------------------------------------------------------------------------

  Status scanModule() {
    for (Instruction inst : m_) {
      if (inst.isRaw())
        return error(inst, "instruction the grammar cannot decode");
      if (inst.section() == Section::DebugName) {
        if (namesEnd_ == 0)
          namesBegin_ = inst.index();
        namesEnd_ = inst.index() + 1;
      }
      if (inst.opcode() == Op::GraphARM)
        graphIds_.push_back(inst.resultId());
      switch (inst.opcode()) {
      case Op::Capability:
        capabilities_.push_back(inst.word(1));
        break;
      case Op::Extension:
        extensions_.push_back(inst.stringOperand(inst.operands()[0]));
        break;
      case Op::MemoryModel:
        addressing_ = inst.word(1);
        memoryModel_ = inst.word(2);
        break;
      case Op::EntryPoint:
        entryNames_.emplace(inst.word(2), inst.stringOperand(inst.operands()[2]));
        break;
      case Op::Name:
        names_.emplace_back(inst.word(1), inst.index());
        break;
      case Op::String:
        strings_.emplace(inst.word(1), inst.stringOperand(inst.operands()[1]));
        sourceEntries_.push_back(inst.index());
        break;
      case Op::Source:
        if (inst.wordCount() >= 4)
          usedStrings_.insert(inst.word(3));
        [[fallthrough]];
      case Op::SourceContinued:
      case Op::SourceExtension:
        sourceEntries_.push_back(inst.index());
        break;
      case Op::ModuleProcessed:
        processed_.push_back(inst.stringOperand(inst.operands()[0]));
        break;
      case Op::ExtInst:
      case Op::ExtInstWithForwardRefsKHR:
        if (inst.wordCount() > 5 && m_.extInstImport(inst.word(3)).describesOnly()) {
          if (inst.section() >= Section::FunctionDeclaration)
            for (uint32_t k = 5; k < inst.wordCount(); ++k)
              namedByNonSemantic_.insert(inst.word(k));
          noteStringsNamed(inst);
        }
        break;
      default:
        // Unvalidated input (--no-validate) may decorate what it never defines.
        if (inst.section() == Section::Annotation)
          if (Status s = decorationTargetsDefined(inst); !s)
            return s;
        break;
      }
    }
    // By id, then instruction: an id's first OpName first.
    if (!std::is_sorted(names_.begin(), names_.end()))
      std::sort(names_.begin(), names_.end());
    return {};
  }

  /// The OpStrings a non-semantic instruction names are used (not listed in the module's
  /// `spire.debug_source`), whether or not the instruction is kept: known before the first
  /// function is made, so that the module's attributes are final then (bodyReady).
  void noteStringsNamed(Instruction inst) {
    if (strings_.empty())
      return;
    auto ops = inst.operands();
    for (size_t k = 4; k < ops.size(); ++k)
      if (grammar::operandCategory(ops[k].kind) == grammar::OperandCategory::Id)
        if (const uint32_t id = inst.words()[ops[k].offset]; strings_.count(id))
          usedStrings_.insert(id);
  }

  /// The ids a decoration instruction names (its target, a group's targets, OpDecorateId's
  /// operands) are defined in the module.
  Status decorationTargetsDefined(Instruction inst) {
    for (const binary::Operand &o : inst.operands()) {
      if (grammar::operandCategory(o.kind) != grammar::OperandCategory::Id)
        continue;
      const uint32_t id = inst.words()[o.offset];
      if (m_.defIndex(id) == kNoIndex)
        return error(inst, std::string(inst.desc()->name) + " names %" + std::to_string(id) +
                               ", which the module does not define");
    }
    return {};
  }

  /// The OpSpecConstantOps that instructions outside functions name (an array length, a
  /// cooperative matrix's scope, rows, columns or use, a constituent of a specialization
  /// constant composite, an initializer, an id operand of a decoration or an execution mode):
  /// these become spirv.SpecConstantOperationSymbol, since no value can stand there. Other uses
  /// materialize the operation where they are.
  std::unordered_set<uint32_t> moduleLevelSpecOps() const {
    std::unordered_set<uint32_t> out;
    auto note = [&](uint32_t id) {
      uint32_t def = m_.defIndex(id);
      if (def != kNoIndex && m_.inst(def).opcode() == Op::SpecConstantOp)
        out.insert(id);
    };
    for (Instruction inst : m_) {
      if (inst.section() >= Section::FunctionDeclaration)
        break;
      if (inst.isRaw())
        continue;
      uint32_t first = 0;
      switch (inst.opcode()) {
      case Op::TypeArray:
      case Op::SpecConstantComposite:
      case Op::DecorateId:
      case Op::ExecutionModeId:
        first = 3;
        break;
      case Op::Variable:
        first = 4;
        break;
      default:
        if (static_cast<uint32_t>(inst.opcode()) != kOpTypeCooperativeMatrixNV &&
            static_cast<uint32_t>(inst.opcode()) != kOpTypeCooperativeMatrixKHR)
          continue;
        first = 3;
        break;
      }
      for (uint32_t k = first; k < inst.wordCount(); ++k)
        note(inst.word(k));
    }
    return out;
  }

  /// The symbols of module-level variables and specialization constants, in module order.
  void globalSymbols() {
    std::unordered_set<uint32_t> specOps = moduleLevelSpecOps();
    for (Instruction inst : m_) {
      if (inst.section() > Section::Global)
        break;
      if (inst.section() != Section::Global || inst.isRaw())
        continue;
      const char *prefix = nullptr;
      switch (inst.opcode()) {
      case Op::Variable:
        prefix = "spirv_var_";
        break;
      case Op::SpecConstantTrue:
      case Op::SpecConstantFalse:
      case Op::SpecConstant:
      case Op::SpecConstantComposite:
        prefix = "spirv_spec_const_";
        break;
      case Op::SpecConstantOp:
        if (!specOps.count(inst.resultId()))
          continue;
        prefix = "spirv_spec_const_";
        break;
      case Op::ExtInst:
      case Op::ExtInstWithForwardRefsKHR:
        if (!m_.extInstImport(inst.word(3)).describesOnly())
          continue;
        symbolOf_[inst.resultId()] =
            uniqueSymbol("dbg_" + std::to_string(inst.resultId()), inst.resultId());
        continue;
      default:
        continue;
      }
      uint32_t id = inst.resultId();
      std::string base = nameOf(id);
      symbolOf_[id] = uniqueSymbol(base.empty() ? prefix + std::to_string(id) : base, id);
    }
  }

  std::string uniqueSymbol(std::string base, uint32_t id) {
    if (base.empty() || symbols_.count(base))
      base += (base.empty() ? "" : "_") + std::to_string(id);
    symbols_.insert(base);
    return base;
  }

  /// The OpDecorate / OpDecorateId / OpDecorateString instructions that apply to `id` itself
  /// (its own and its groups'), in module order.
  std::vector<uint32_t> decorationsOf(uint32_t id) const {
    std::vector<uint32_t> out;
    if (decorationIndex_.isGroup(id))
      return out;
    for (const AppliedDecoration &d : decorationIndex_.of(id))
      if (d.member == kNoIndex)
        out.push_back(d.inst);
    return out;
  }

  /// The decoration's operands after the decoration are all literal strings.
  static bool stringsOnly(const Instruction &d, std::span<const binary::Operand> operands) {
    if (d.opcode() != Op::Decorate && d.opcode() != Op::DecorateString)
      return false;
    for (size_t k = 2; k < operands.size(); ++k)
      if (operands[k].kind != OperandKind::LiteralString)
        return false;
    return true;
  }

  /// The names of the functions and graphs, once the OpNames' words may be gone (namesRead):
  /// the only names read after the ops before the functions are made (a call's callee, a graph
  /// after the functions).
  void keepLateNames() {
    auto keep = [&](uint32_t id) {
      std::string name = nameOf(id);
      if (name.empty())
        return;
      keptNames_.push_back(
          {id, static_cast<uint32_t>(keptText_.size()), static_cast<uint32_t>(name.size())});
      keptText_ += name;
    };
    for (const FunctionInfo &f : m_.functions())
      keep(m_.inst(f.begin).resultId());
    for (uint32_t id : graphIds_)
      keep(id);
    std::sort(keptNames_.begin(), keptNames_.end(),
              [](const KeptName &a, const KeptName &b) { return a.id < b.id; });
    std::vector<std::pair<uint32_t, uint32_t>>().swap(names_);
    namesKept_ = true;
    options_.namesRead(namesBegin_, namesEnd_);
  }

  /// The first OpName of `id`, or "" (read from the module's debug section, or where
  /// keepLateNames() put them).
  std::string nameOf(uint32_t id) const {
    if (namesKept_) {
      auto kept = std::lower_bound(keptNames_.begin(), keptNames_.end(), id,
                                   [](const KeptName &a, uint32_t v) { return a.id < v; });
      if (kept == keptNames_.end() || kept->id != id)
        return std::string();
      return keptText_.substr(kept->at, kept->size);
    }
    auto it = std::lower_bound(names_.begin(), names_.end(), std::pair<uint32_t, uint32_t>(id, 0));
    if (it == names_.end() || it->first != id)
      return std::string();
    const Instruction inst = m_.inst(it->second);
    return inst.stringOperand(inst.operands()[1]);
  }

  /// Decorations of `id` as attributes (the ones a type or the op's own encoding does not
  /// carry): `location = 0 : i32`, `built_in = "Position"`, `flat`.
  void decorationAttributes(uint32_t id, OperationState &st, bool global) {
    // Most results have no decoration: a bit per id says so without the index's searches.
    if (decorated_.empty()) {
      decorated_.assign(size_t(m_.bound()) + 1, false);
      for (uint32_t d : decorationIndex_.ids())
        if (d < decorated_.size())
          decorated_[d] = true;
    }
    if (id < decorated_.size() && !decorated_[id])
      return;
    for (uint32_t index : decorationsOf(id)) {
      Instruction d = m_.inst(index);
      uint32_t decoration = d.word(2);
      if (decoration == static_cast<uint32_t>(grammar::Decoration::SpecId))
        continue;
      const grammar::EnumerantDesc *e = grammar::findEnumerant(OperandKind::Decoration, decoration);
      std::string name = e ? snakeCase(e->name) : "decoration_" + std::to_string(decoration);
      if (global && decoration == static_cast<uint32_t>(grammar::Decoration::DescriptorSet))
        name = "descriptor_set";
      Attribute value;
      auto operands = d.operands();
      if (decoration == static_cast<uint32_t>(grammar::Decoration::BuiltIn) && d.wordCount() >= 4)
        // The built-in's name as MLIR spells it (the KHR name where there is one).
        value = attr::string(ctx_, enumText(OperandKind::BuiltIn, d.word(3)));
      else if (operands.size() >= 3 && stringsOnly(d, operands)) {
        // String operands (UserSemantic "x"; MergeINTEL "a" "b": an array of them), also where
        // OpDecorate gives them (which SPIR-V allows, and modules older than SPIR-V 1.4 without
        // SPV_GOOGLE_decorate_string do).
        std::vector<Attribute> strings;
        for (size_t k = 2; k < operands.size(); ++k)
          strings.push_back(attr::string(ctx_, d.stringOperand(operands[k])));
        value = strings.size() == 1 ? strings[0] : attr::array(ctx_, strings);
      } else if (d.opcode() == Op::DecorateId) {
        // Id operands are constants: their values.
        std::vector<Attribute> values;
        for (uint32_t k = 3; k < d.wordCount(); ++k) {
          Attribute c = constantValue(d.word(k));
          if (auto sym = symbolOf_.find(d.word(k)); sym != symbolOf_.end())
            c = attr::symbolRef(ctx_, sym->second);
          if (!c && !decorationError_)
            decorationError_ = error(d, "decoration operand %" + std::to_string(d.word(k)) +
                                            " is neither a constant nor a specialization "
                                            "constant the dialect names");
          if (c)
            values.push_back(c);
        }
        value = values.size() == 1 ? values[0] : attr::array(ctx_, values);
      } else if (decoration == static_cast<uint32_t>(grammar::Decoration::LinkageAttributes) &&
                 operands.size() >= 4) {
        value = attr::linkage(ctx_, d.stringOperand(operands[2]), d.words()[operands[3].offset]);
        name = "linkage_attributes";
      } else if (d.wordCount() == 3)
        value = attr::unit(ctx_);
      else if (d.wordCount() == 4) {
        value = i32Attr(static_cast<int32_t>(d.word(3)));
        // SPIR-V states no such rule for the decoration, but MLIR's `alignment` attribute is a
        // positive power of two (found by dialect_fuzzer): an error here, not IR that fails the
        // verifier.
        const uint32_t a = d.word(3);
        if (decoration == static_cast<uint32_t>(grammar::Decoration::Alignment) &&
            (a == 0 || (a & (a - 1)) != 0 || a > 0x7FFFFFFFu) && !decorationError_)
          decorationError_ =
              error(d, "Alignment " + std::to_string(a) +
                           " is not a power of two, which the dialect's alignment attribute needs");
      } else {
        std::vector<Attribute> words;
        for (uint32_t k = 3; k < d.wordCount(); ++k)
          words.push_back(i32Attr(static_cast<int32_t>(d.word(k))));
        value = attr::array(ctx_, words);
      }
      // A decoration repeated on one target (FuncParamAttr NoCapture and NoWrite, say): the
      // attribute holds the values of all of them, in order.
      auto same = std::find_if(st.attributes.begin(), st.attributes.end(),
                               [&](const NamedAttribute &a) { return a.name == name; });
      if (same == st.attributes.end()) {
        st.addAttribute(ctx_, name, value);
      } else if (same->attr() == value || (repeated_.count(same->value) &&
                                           std::count(same->attr().elements().begin(),
                                                      same->attr().elements().end(), value))) {
        // The same decoration again (through several groups): once is enough.
      } else {
        Attribute before = same->attr();
        std::vector<Attribute> all;
        if (repeated_.count(before.storage()))
          all.assign(before.elements().begin(), before.elements().end());
        else
          all.push_back(before);
        all.push_back(value);
        Attribute merged = attr::array(ctx_, all);
        repeated_.insert(merged.storage());
        same->value = merged.storage();
      }
    }
  }

  // --- Constants --------------------------------------------------------------------------

  Type typeOf(uint32_t typeId) const { return types_.type(typeId); }

  /// The value of a constant as an attribute, or null when no attribute can hold it (a null
  /// pointer, a sampler constant).
  Attribute constantValue(uint32_t id, int depth = 0) {
    if (!constantSlotsMade_) {
      // Dense for the first ids only: a module's few hundred constants have ids spread up
      // to the bound (glslang declares one where it is first met), and a table to the bound
      // cost 4 bytes an id (0.18 bytes per module byte); the ones above are hashed.
      constantSlot_.reset(m_.bound(), std::min<size_t>(m_.words().size(), kDenseConstantIds), 0);
      constantSlotsMade_ = true;
    }
    if (const uint32_t slot = constantSlot_.get(id))
      return constantValues_[slot - 1];
    uint32_t index = m_.defIndex(id);
    if (index == kNoIndex || depth > 64)
      return {};
    Instruction inst = m_.inst(index);
    Type t = typeOf(inst.typeId());
    Attribute a;
    switch (inst.opcode()) {
    case Op::ConstantTrue:
    case Op::SpecConstantTrue:
      a = attr::boolean(ctx_, true);
      break;
    case Op::ConstantFalse:
    case Op::SpecConstantFalse:
      a = attr::boolean(ctx_, false);
      break;
    case Op::Constant:
    case Op::SpecConstant:
      a = scalarLiteral(t, inst.words().subspan(3));
      break;
    case Op::ConstantNull:
      // A null the attributes cannot spell element by element (a pointer, an event, a struct
      // with one) is #spirv.null as a whole, and so is one of more than kSpelledNullLimit
      // scalars: a module of a few words may declare the null of an array of 2^28 elements.
      a = t && scalarCount(t) <= kSpelledNullLimit ? nullValue(t) : Attribute();
      if (!a && t)
        a = attr::null(ctx_);
      break;
    case Op::Undef:
      a = attr::undef(ctx_);
      break;
    case Op::ConstantSampler:
      // [addressing mode, normalized (0 or 1), filter mode]: what OpConstantSampler holds.
      if (inst.wordCount() >= 6) {
        Attribute parts[] = {
            attr::enumerant(ctx_, OperandKind::SamplerAddressingMode, inst.word(3)),
            i32Attr(static_cast<int32_t>(inst.word(4))),
            attr::enumerant(ctx_, OperandKind::SamplerFilterMode, inst.word(5))};
        a = attr::array(ctx_, parts);
      }
      break;
    case Op::ConstantStringAMDX:
      // A node's name, which execution modes (SharesInputWithAMDX) name by id.
      if (inst.operands().size() >= 2)
        a = attr::string(ctx_, inst.stringOperand(inst.operands()[1]));
      break;
    case Op::ConstantCompositeReplicateEXT: {
      // SPV_EXT_replicated_composites: each constituent the one operand, as the composite of
      // them all (a bounded count: a few words may stand for a huge array).
      const uint64_t n = t ? constituents(t) : 0;
      Attribute e = inst.wordCount() == 4 && n && n <= kSpelledNullLimit
                        ? constantValue(inst.word(3), depth + 1)
                        : Attribute();
      if (e) {
        std::vector<Attribute> elems(n, e);
        a = composite(t, elems);
      }
      break;
    }
    case Op::ConstantComposite: {
      std::vector<Attribute> elems;
      for (uint32_t c : continuedOperands(m_, inst, 3, Op::ConstantCompositeContinuedINTEL)) {
        Attribute e = constantValue(c, depth + 1);
        if (!e)
          return {};
        elems.push_back(e);
      }
      a = composite(t, elems);
      break;
    }
    default:
      break;
    }
    if (!constantSlot_.get(id)) { // (the first made is kept, as a nested look-up may make it)
      constantValues_.push_back(a);
      constantSlot_.set(id, static_cast<uint32_t>(constantValues_.size()));
    }
    return a;
  }

  Attribute scalarLiteral(Type t, std::span<const uint32_t> words) {
    if (!t || words.empty())
      return {};
    uint64_t v = words[0];
    if (words.size() > 1)
      v |= uint64_t(words[1]) << 32;
    if (t.is(TypeKind::Integer))
      return attr::integer(ctx_, t, static_cast<int64_t>(v));
    if (t.is(TypeKind::Float))
      return attr::floating(ctx_, t, floatOfBits(t, v));
    return {};
  }

  static constexpr uint64_t kSpelledNullLimit = uint64_t(1) << 16;

  /// How many constituents a composite of type `t` has (what a replicated composite repeats):
  /// 0 for a type that is not one, or whose constituents differ in type (a struct's may not).
  static uint64_t constituents(Type t) {
    switch (t.kind()) {
    case TypeKind::Vector:
    case TypeKind::Array:
    case TypeKind::Matrix:
      return t.count();
    case TypeKind::TensorArm:
      return t.count() == 1 && t.shape()[0] != Type::kDynamicDim ? t.shape()[0] : 0;
    default:
      return 0;
    }
  }

  /// The scalars a value of type `t` holds, counted up to just past kSpelledNullLimit.
  static uint64_t scalarCount(Type t) {
    switch (t.kind()) {
    case TypeKind::Vector:
    case TypeKind::Array:
    case TypeKind::Matrix: {
      const uint64_t each = scalarCount(t.elementType());
      return t.count() > kSpelledNullLimit || each > kSpelledNullLimit
                 ? kSpelledNullLimit + 1
                 : std::min<uint64_t>(t.count() * each, kSpelledNullLimit + 1);
    }
    case TypeKind::Struct: {
      uint64_t total = 0;
      for (const StructMember &member : t.members())
        total = std::min<uint64_t>(total + scalarCount(member.type), kSpelledNullLimit + 1);
      return total;
    }
    default:
      return 1;
    }
  }

  Attribute nullValue(Type t) {
    if (!t)
      return {};
    switch (t.kind()) {
    case TypeKind::Integer:
      return t.isBool() ? attr::boolean(ctx_, false) : attr::integer(ctx_, t, 0);
    case TypeKind::Float:
      return attr::floating(ctx_, t, 0.0);
    case TypeKind::Vector:
    case TypeKind::Array:
    case TypeKind::Matrix: {
      Attribute e = nullValue(t.elementType());
      if (!e)
        return {};
      std::vector<Attribute> elems(t.count(), e);
      return composite(t, elems);
    }
    case TypeKind::TensorArm: {
      // Rank 1 (the tensors dense values hold): its zeros, as MLIR reads a null tensor.
      const uint64_t n = constituents(t);
      Attribute e = n && n <= kSpelledNullLimit ? nullValue(t.elementType()) : Attribute();
      if (!e)
        return {};
      std::vector<Attribute> elems(n, e);
      return composite(t, elems);
    }
    case TypeKind::Struct: {
      std::vector<Attribute> elems;
      for (const StructMember &member : t.members()) {
        Attribute e = nullValue(member.type);
        if (!e)
          return {};
        elems.push_back(e);
      }
      return attr::array(ctx_, elems);
    }
    default:
      return {};
    }
  }

  Attribute composite(Type t, std::span<const Attribute> elems) {
    // A vector with an undefined or null element is an array: dense elements are numbers.
    bool numbers = std::none_of(elems.begin(), elems.end(), [](Attribute e) {
      return e.is(AttrKind::Undef) || e.is(AttrKind::Null);
    });
    // So is a tensor of rank 1 (its constituents its elements).
    const bool tensorOfNumbers = t && t.is(TypeKind::TensorArm) && t.count() == 1 &&
                                 std::all_of(elems.begin(), elems.end(), [](Attribute e) {
                                   return e.is(AttrKind::Integer) || e.is(AttrKind::Float);
                                 });
    if (t && ((t.is(TypeKind::Vector) && numbers) || tensorOfNumbers))
      return attr::dense(ctx_, t, elems);
    return attr::array(ctx_, elems);
  }

  // --- Module-level symbols ----------------------------------------------------------------

  Status globals() {
    for (Instruction inst : m_) {
      if (inst.section() > Section::Global)
        break;
      if (inst.section() != Section::Global)
        continue;
      switch (inst.opcode()) {
      case Op::Variable:
        if (Status s = globalVariable(inst); !s)
          return s;
        break;
      case Op::SpecConstantTrue:
      case Op::SpecConstantFalse:
      case Op::SpecConstant: {
        OperationState st = at(&ops::specConstant(), inst);
        const std::string &sym = symbolOf_.at(inst.resultId());
        st.addAttribute(ctx_, "sym_name", attr::string(ctx_, sym));
        Attribute value = constantValue(inst.resultId());
        if (!value)
          return error(inst, "specialization constant of a type the dialect cannot hold");
        st.addAttribute(ctx_, "default_value", value);
        for (uint32_t index : decorationsOf(inst.resultId())) {
          Instruction d = m_.inst(index);
          if (d.word(2) == static_cast<uint32_t>(grammar::Decoration::SpecId) && d.wordCount() >= 4)
            st.addAttribute(ctx_, "spec_id",
                            attr::integer(ctx_, ctx_.integer(64), static_cast<int64_t>(d.word(3))));
        }
        decorationAttributes(inst.resultId(), st, true);
        body_->push_back(Operation::create(std::move(st)));
        break;
      }
      case Op::SpecConstantComposite: {
        OperationState st = at(&ops::specConstantComposite(), inst);
        const std::string &sym = symbolOf_.at(inst.resultId());
        st.addAttribute(ctx_, "sym_name", attr::string(ctx_, sym));
        st.addAttribute(ctx_, "type", attr::type(ctx_, typeOf(inst.typeId())));
        std::vector<Attribute> parts;
        for (uint32_t part :
             continuedOperands(m_, inst, 3, Op::SpecConstantCompositeContinuedINTEL)) {
          auto it = symbolOf_.find(part);
          if (it != symbolOf_.end()) {
            parts.push_back(attr::symbolRef(ctx_, it->second));
            continue;
          }
          // A constituent that is a plain constant is kept by value.
          Attribute c = constantValue(part);
          if (!c)
            return error(inst, "constituent %" + std::to_string(part) +
                                   " of a specialization constant composite is neither a "
                                   "specialization constant nor a constant");
          parts.push_back(c);
        }
        st.addAttribute(ctx_, "constituents", attr::array(ctx_, parts));
        decorationAttributes(inst.resultId(), st, true);
        body_->push_back(Operation::create(std::move(st)));
        break;
      }
      case Op::SpecConstantOp:
        if (symbolOf_.count(inst.resultId()))
          if (Status s = specConstantOperationSymbol(inst); !s)
            return s;
        break;
      case Op::ExtInst:
      case Op::ExtInstWithForwardRefsKHR:
        if (m_.extInstImport(inst.word(3)).describesOnly())
          if (Status s = nonSemantic(inst, true); !s)
            return s;
        break;
      default:
        break;
      }
    }
    return {};
  }

  /// An instruction of a non-semantic or debug-information set (ExtInstImport::describesOnly):
  /// spirv.spire.NonSemanticGlobal at module level (its symbol `dbg_<id>`), else
  /// spirv.spire.NonSemantic, its operands attributes (nonSemanticOperand) and, in a function,
  /// SSA values. One whose operand the dialect cannot hold is left out (counted), and so is
  /// what names it.
  Status nonSemantic(Instruction inst, bool global) {
    const uint32_t importIndex = m_.defIndex(inst.word(3));
    if (importIndex == kNoIndex || inst.wordCount() < 5)
      return error(inst, "OpExtInst of %" + std::to_string(inst.word(3)) +
                             ", which is not an OpExtInstImport");
    Instruction imp = m_.inst(importIndex);
    OperationState st = at(global ? &ops::nonSemanticGlobal() : &ops::nonSemantic(), inst);
    std::vector<Attribute> operands;
    auto ops = inst.operands();
    for (size_t k = 4; k < ops.size(); ++k) {
      const binary::Operand &o = ops[k];
      const uint32_t word = inst.words()[o.offset];
      if (grammar::operandCategory(o.kind) != grammar::OperandCategory::Id) {
        // A literal of OpenCL.DebugInfo.100 or DebugInfo: a number (or flags), or a string.
        if (o.kind == OperandKind::LiteralString) {
          operands.push_back(attr::string(ctx_, inst.stringOperand(o)));
        } else {
          uint64_t v = word;
          if (o.numWords > 1)
            v |= uint64_t(inst.words()[o.offset + 1]) << 32;
          operands.push_back(attr::integer(ctx_, o.numWords > 1 ? ctx_.integer(64) : i32_,
                                           static_cast<int64_t>(v)));
        }
        continue;
      }
      Attribute a;
      Value v;
      if (!nonSemanticOperand(word, global, inst, a, v)) {
        // Nothing of it is kept, and what names it is left out in turn.
        ++stats_.droppedDebug;
        if (global)
          symbolOf_.erase(inst.resultId());
        return {};
      }
      if (a) {
        operands.push_back(a);
      } else {
        operands.push_back(attr::unit(ctx_));
        st.operands.push_back(v);
      }
    }
    st.addAttribute(ctx_, "set", attr::string(ctx_, imp.stringOperand(imp.operands()[1])));
    st.addAttribute(ctx_, "instruction", i32Attr(static_cast<int32_t>(inst.word(4))));
    st.addAttribute(ctx_, "operands", attr::array(ctx_, operands));
    if (inst.opcode() == Op::ExtInstWithForwardRefsKHR)
      st.addAttribute(ctx_, "forward_refs", attr::unit(ctx_));
    if (global) {
      st.addAttribute(ctx_, "sym_name", attr::string(ctx_, symbolOf_.at(inst.resultId())));
      body_->push_back(Operation::create(std::move(st)));
      return {};
    }
    // A result only where another instruction names it.
    if (namedByNonSemantic_.count(inst.resultId()))
      st.resultTypes.push_back(ctx_.none());
    Operation *op = append(std::move(st));
    if (op->numResults())
      values_.set(inst.resultId(), op->result());
    return {};
  }

  /// An id operand of a non-semantic instruction: an OpString's text, a constant's value
  /// (typed: a scalar, a vector, a bool), a type, or a symbol (a global, a specialization
  /// constant, a function, a module-level non-semantic instruction) as attribute `a`; else, in
  /// a function, the SSA value `v` of a local value or of what is materialized at a use. False
  /// when the dialect cannot hold it (at module level, a composite or null constant, an undefined
  /// value, or what was left out).
  bool nonSemanticOperand(uint32_t id, bool global, Instruction inst, Attribute &a, Value &v) {
    if (auto s = strings_.find(id); s != strings_.end()) {
      a = attr::string(ctx_, s->second);
      return true;
    }
    if (Value known = global ? Value() : values_.get(id)) {
      v = known;
      return true;
    }
    const uint32_t def = m_.defIndex(id);
    if (def == kNoIndex)
      return false;
    Instruction d = m_.inst(def);
    if (d.opcode() == Op::Function) {
      a = attr::symbolRef(ctx_, calleeSymbol(id));
      return true;
    }
    if (auto sym = symbolOf_.find(id); sym != symbolOf_.end()) {
      a = attr::symbolRef(ctx_, sym->second);
      return true;
    }
    if (d.opcode() == Op::ExtInst || d.opcode() == Op::ExtInstWithForwardRefsKHR)
      return false; // left out, or local and not yet defined
    if (declaresType(d.opcode())) {
      Type t = typeOf(id);
      a = t ? attr::type(ctx_, t) : Attribute();
      return bool(a);
    }
    if (isConstantCreation(d.opcode()) && d.opcode() != Op::SpecConstantOp) {
      Attribute c = constantValue(id);
      if (c &&
          (c.is(AttrKind::Bool) || (c.type() && (c.is(AttrKind::Integer) || c.is(AttrKind::Float) ||
                                                 c.is(AttrKind::Dense))))) {
        a = c;
        return true;
      }
    }
    if (global)
      return false;
    Expected<Value> used = use(id, inst);
    if (!used)
      return false;
    v = *used;
    return true;
  }

  /// An OpSpecConstantOp that module-level instructions name: a symbol whose region
  /// materializes the operands, performs the operation and yields its result.
  Status specConstantOperationSymbol(Instruction inst) {
    OperationState st = at(&ops::specConstantOperationSymbol(), inst);
    st.addAttribute(ctx_, "sym_name", attr::string(ctx_, symbolOf_.at(inst.resultId())));
    decorationAttributes(inst.resultId(), st, true);
    st.numRegions = 1;
    Operation *op = Operation::create(std::move(st));
    body_->push_back(op);
    Block *body = op->region().addBlock();
    current_ = body;
    Expected<Value> v = specConstantOperationBody(inst, inst);
    current_ = nullptr;
    if (!v)
      return v.error();
    OperationState y(&ops::yield(), loc(inst));
    y.operands.push_back(*v);
    body->push_back(Operation::create(std::move(y)));
    return {};
  }

  Status globalVariable(Instruction inst) {
    uint32_t id = inst.resultId();
    OperationState st = at(&ops::globalVariable(), inst);
    const std::string &sym = symbolOf_.at(id);
    Type t = typeOf(inst.typeId());
    if (!t)
      return error(inst, "global variable of an unknown type");
    st.addAttribute(ctx_, "sym_name", attr::string(ctx_, sym));
    st.addAttribute(ctx_, "type", attr::type(ctx_, t));
    if (inst.wordCount() >= 5) {
      uint32_t init = inst.word(4);
      auto it = symbolOf_.find(init);
      const uint32_t initIndex = m_.defIndex(init);
      if (it != symbolOf_.end())
        st.addAttribute(ctx_, "initializer", attr::symbolRef(ctx_, it->second));
      else if (initIndex != kNoIndex && m_.inst(initIndex).opcode() == Op::ConstantNull)
        // Null as a whole, not element by element: Vulkan initializes Workgroup variables with
        // OpConstantNull only.
        st.addAttribute(ctx_, "initializer", attr::null(ctx_));
      else if (Attribute c = constantValue(init))
        st.addAttribute(ctx_, "initializer", c);
      else
        return error(inst, "initializer %" + std::to_string(init) +
                               " is neither a symbol nor a constant the dialect can hold");
    }
    decorationAttributes(id, st, true);
    body_->push_back(Operation::create(std::move(st)));
    return {};
  }

  Status entryPoints() {
    for (Instruction inst : m_) {
      if (inst.section() > Section::ExecutionMode)
        break;
      if (inst.opcode() == Op::EntryPoint) {
        OperationState st = at(&ops::entryPoint(), inst);
        st.addAttribute(ctx_, "execution_model",
                        attr::enumerant(ctx_, OperandKind::ExecutionModel, inst.word(1)));
        auto fn = symbolOf_.find(inst.word(2));
        if (fn == symbolOf_.end())
          return error(inst, "entry point %" + std::to_string(inst.word(2)) +
                                 " is not a function of the module");
        st.addAttribute(ctx_, "fn", attr::symbolRef(ctx_, fn->second));
        // The name a runtime looks the entry point up by; MLIR takes the function's symbol,
        // and spire too when they are the same.
        std::string name = inst.stringOperand(inst.operands()[2]);
        if (name != fn->second)
          st.addAttribute(ctx_, "name", attr::string(ctx_, name));
        if (Status s = interface(inst, 3, st); !s)
          return s;
        body_->push_back(Operation::create(std::move(st)));
      } else if (inst.opcode() == Op::ExecutionMode || inst.opcode() == Op::ExecutionModeId) {
        OperationState st = at(&ops::executionMode(), inst);
        auto fn = symbolOf_.find(inst.word(1));
        if (fn == symbolOf_.end())
          return error(inst, "execution mode of %" + std::to_string(inst.word(1)) +
                                 ", which is not a function of the module");
        st.addAttribute(ctx_, "fn", attr::symbolRef(ctx_, fn->second));
        st.addAttribute(ctx_, "execution_mode",
                        attr::enumerant(ctx_, OperandKind::ExecutionMode, inst.word(2)));
        std::vector<Attribute> values;
        for (uint32_t k = 3; k < inst.wordCount(); ++k) {
          if (inst.opcode() == Op::ExecutionModeId) {
            Attribute c = constantValue(inst.word(k));
            // A specialization constant operand by its symbol.
            if (auto sym = symbolOf_.find(inst.word(k)); sym != symbolOf_.end())
              c = attr::symbolRef(ctx_, sym->second);
            if (!c)
              return error(inst, "execution mode operand %" + std::to_string(inst.word(k)) +
                                     " is not a constant");
            values.push_back(c);
          } else
            values.push_back(i32Attr(static_cast<int32_t>(inst.word(k))));
        }
        st.addAttribute(ctx_, "values", attr::array(ctx_, values));
        body_->push_back(Operation::create(std::move(st)));
      }
    }
    return {};
  }

  /// The `interface` of an entry point: its operands from `first` on, global variables' symbols.
  Status interface(Instruction inst, size_t first, OperationState &st) {
    std::vector<Attribute> iface;
    auto ops = inst.operands();
    for (size_t k = first; k < ops.size(); ++k) {
      uint32_t v = inst.words()[ops[k].offset];
      auto it = symbolOf_.find(v);
      if (it == symbolOf_.end())
        return error(inst, "interface %" + std::to_string(v) + " is not a global variable");
      iface.push_back(attr::symbolRef(ctx_, it->second));
    }
    st.addAttribute(ctx_, "interface", attr::array(ctx_, iface));
    return {};
  }

  void setModuleAttributes() {
    module_->setAttr(ctx_, "addressing_model",
                     attr::enumerant(ctx_, OperandKind::AddressingModel, addressing_));
    module_->setAttr(ctx_, "memory_model",
                     attr::enumerant(ctx_, OperandKind::MemoryModel, memoryModel_));
    module_->setAttr(ctx_, "vce_triple", attr::vce(ctx_, m_.version(), capabilities_, extensions_));
    sourceAttributes();
  }

  /// What the module says of its source, in order, as attributes of spire's (`spire.` names,
  /// which MLIR reads as discardable attributes of a dialect it does not know):
  /// `spire.debug_source`, one array per OpSource (`["OpSource", "GLSL", 450 : i32, file,
  /// text]`, the file and text when there), OpSourceContinued, OpSourceExtension, and OpString
  /// that nothing kept names (strings named by OpLine, OpSource or a kept debug instruction
  /// come back from there); `spire.module_processed`, the OpModuleProcessed texts.
  void sourceAttributes() {
    std::vector<Attribute> entries;
    auto text = [&](std::string_view s) { return attr::string(ctx_, s); };
    for (uint32_t index : sourceEntries_) {
      Instruction inst = m_.inst(index);
      std::vector<Attribute> e;
      switch (inst.opcode()) {
      case Op::String:
        if (usedStrings_.count(inst.word(1)))
          continue;
        e = {text("OpString"), text(strings_.at(inst.word(1)))};
        break;
      case Op::Source: {
        e = {text("OpSource"), text(enumText(OperandKind::SourceLanguage, inst.word(1))),
             i32Attr(static_cast<int32_t>(inst.word(2)))};
        auto ops = inst.operands();
        if (inst.wordCount() >= 4) {
          auto file = strings_.find(inst.word(3));
          e.push_back(text(file == strings_.end() ? std::string() : file->second));
        }
        if (ops.size() >= 4)
          e.push_back(text(inst.stringOperand(ops[3])));
        break;
      }
      case Op::SourceContinued:
        e = {text("OpSourceContinued"), text(inst.stringOperand(inst.operands()[0]))};
        break;
      default: // OpSourceExtension
        e = {text("OpSourceExtension"), text(inst.stringOperand(inst.operands()[0]))};
        break;
      }
      entries.push_back(attr::array(ctx_, e));
    }
    if (!entries.empty())
      module_->setAttr(ctx_, "spire.debug_source", attr::array(ctx_, entries));
    if (!processed_.empty()) {
      std::vector<Attribute> texts;
      for (const std::string &p : processed_)
        texts.push_back(text(p));
      module_->setAttr(ctx_, "spire.module_processed", attr::array(ctx_, texts));
    }
  }

  // --- Functions --------------------------------------------------------------------------

  Status function(const FunctionInfo &f) {
    Instruction fnInst = m_.inst(f.begin);
    uint32_t id = fnInst.resultId();
    std::string sym = calleeSymbol(id);
    Type fnType = typeOf(fnInst.word(4));
    if (!fnType || !fnType.is(TypeKind::Function))
      return error(fnInst, "function type %" + std::to_string(fnInst.word(4)) + " is unknown");

    OperationState st = at(&ops::func(), fnInst);
    st.addAttribute(ctx_, "sym_name", attr::string(ctx_, sym));
    st.addAttribute(ctx_, "function_type", attr::type(ctx_, fnType));
    st.addAttribute(ctx_, "function_control",
                    attr::enumerant(ctx_, OperandKind::FunctionControl, fnInst.word(3)));
    decorationAttributes(id, st, true);
    st.numRegions = 1;
    Operation *fn = Operation::create(std::move(st));
    body_->push_back(fn);
    if (f.numBlocks == 0)
      return {};

    Region &region = fn->region();
    Cfg cfg(m_, f);
    auto blocks = m_.blocks(f);
    std::vector<Block *> order;
    blockOfLabel_.clear();
    for (const BlockInfo &b : blocks) {
      Block *block = region.addBlock();
      order.push_back(block);
      blockOfLabel_[m_.inst(b.label).resultId()] = block;
    }
    // Parameters are the entry block's arguments; a SPIR-V entry block that is a branch
    // target gets a new entry block in front, since a region's entry has no predecessors.
    Block *entry = order.front();
    if (!cfg.predecessors(0).empty())
      entry = region.addBlock(order.front());
    // Parameter decorations (Aliased, Restrict, ...) as one dictionary per parameter.
    std::vector<Attribute> argAttrs;
    bool anyArgAttrs = false;
    for (uint32_t k = f.begin + 1; k < blocks.front().label; ++k) {
      Instruction p = m_.inst(k);
      if (p.opcode() != Op::FunctionParameter)
        continue;
      values_.set(p.resultId(), entry->addArgument(typeOf(p.typeId())));
      OperationState decorated(&ops::func());
      decorationAttributes(p.resultId(), decorated, false);
      // Argument attributes belong to the dialect: the pointer aliasing decorations as the
      // seed spells them (`spirv.decoration = #spirv.decoration<Aliased>`), others prefixed.
      std::vector<NamedAttribute> named;
      bool aliasing = false;
      for (const NamedAttribute &a : decorated.attributes) {
        const grammar::EnumerantDesc *e = nullptr;
        for (std::string_view d : {"Aliased", "Restrict", "AliasedPointer", "RestrictPointer"})
          if (a.name == snakeCase(d))
            e = grammar::findEnumerant(OperandKind::Decoration, d);
        if (e && !aliasing) {
          aliasing = true;
          named.push_back({intern(ctx_, "spirv.decoration"),
                           attr::enumerant(ctx_, OperandKind::Decoration, e->value).storage()});
        } else {
          named.push_back({intern(ctx_, "spirv." + std::string(a.name)), a.value});
        }
      }
      anyArgAttrs |= !named.empty();
      argAttrs.push_back(attr::dictionary(ctx_, named));
    }
    if (anyArgAttrs)
      fn->setAttr(ctx_, "arg_attrs", attr::array(ctx_, argAttrs));
    // Non-semantic instructions between the parameters and the first label (glslang's -gVS
    // writes a DebugNoLine there for HLSL): the first ops of the entry block.
    current_ = entry;
    for (uint32_t k = f.begin + 1; k < blocks.front().label; ++k) {
      Instruction inst = m_.inst(k);
      if ((inst.opcode() == Op::ExtInst || inst.opcode() == Op::ExtInstWithForwardRefsKHR) &&
          m_.extInstImport(inst.word(3)).describesOnly())
        if (Status s = nonSemantic(inst, false); !s)
          return s;
    }
    if (entry != order.front()) {
      OperationState br(&ops::branch(), loc(fnInst));
      br.addSuccessor(order.front(), {});
      entry->push_back(Operation::create(std::move(br)));
    }
    // Phis become arguments first, since branches pass their values.
    for (size_t b = 0; b < blocks.size(); ++b)
      for (uint32_t k = blocks[b].label + 1; k < blocks[b].end; ++k) {
        Instruction inst = m_.inst(k);
        if (inst.opcode() != Op::Phi)
          break;
        values_.set(inst.resultId(), order[b]->addArgument(typeOf(inst.typeId())));
      }
    std::vector<MergeInfo> merges;
    std::vector<bool> declared(blocks.size(), false);
    for (uint32_t h = 0; h < cfg.size(); ++h)
      if (cfg.reachable(h)) {
        if (cfg.mergeBlock(h) != kNoIndex)
          declared[cfg.mergeBlock(h)] = true;
        if (cfg.continueBlock(h) != kNoIndex)
          declared[cfg.continueBlock(h)] = true;
      }
    for (size_t b = 0; b < blocks.size(); ++b) {
      current_ = order[b];
      currentLabel_ = m_.inst(blocks[b].label).resultId();
      if (!cfg.reachable(static_cast<uint32_t>(b)) && !declared[b]) {
        // Dead code: an unreachable block that no construct declares keeps its place and
        // arguments and says it is unreachable.
        current_->push_back(Operation::create(
            OperationState(opForInstruction(Op::Unreachable), loc(m_.inst(blocks[b].label)))));
        continue;
      }
      for (uint32_t k = blocks[b].label + 1; k < blocks[b].end; ++k) {
        Instruction inst = m_.inst(k);
        if (inst.opcode() == Op::Phi || inst.opcode() == Op::Line || inst.opcode() == Op::NoLine)
          continue;
        if (inst.opcode() == Op::SelectionMerge || inst.opcode() == Op::LoopMerge) {
          MergeInfo mi;
          mi.header = static_cast<uint32_t>(b);
          mi.loop = inst.opcode() == Op::LoopMerge;
          mi.control = inst.word(inst.opcode() == Op::LoopMerge ? 3 : 2);
          mi.location = loc(inst);
          mi.debugLoc = lineAt(inst);
          for (uint32_t w = 4; mi.loop && w < inst.wordCount(); ++w)
            mi.controlParameters.push_back(inst.word(w));
          merges.push_back(mi);
          continue;
        }
        // Valid SPIR-V, but the dialect (as MLIR defines it) has no way to say it: a function
        // whose entry block is only OpUnreachable would deserialize to IR its own verifier
        // rejects ("'spirv.Unreachable' op cannot be used in reachable block").
        if (inst.opcode() == Op::Unreachable && current_ == entry && current_->empty())
          return error(inst, "OpUnreachable alone in the entry block of function %" +
                                 std::to_string(fnInst.resultId()) +
                                 ": the dialect's spirv.Unreachable cannot be used in a "
                                 "reachable block");
        if (Status s = instruction(inst); !s)
          return s;
      }
    }
    Structurizer structurizer(ctx_, cfg, order, entry != order.front() ? entry : nullptr, stats_,
                              options_);
    return structurizer.run(merges);
  }

  // --- Graphs (SPV_ARM_graph) ---------------------------------------------------------------

  /// The graph entry points, then each graph (OpGraphARM to OpGraphEndARM, after the
  /// functions): spirv.ARM.Graph, its inputs the entry block's arguments, its outputs a
  /// spirv.ARM.GraphOutputs; `entry_point` says whether an entry point names it.
  Status graphs() {
    std::unordered_map<uint32_t, std::string> entryNames;
    for (Instruction inst : m_)
      if (inst.opcode() == Op::GraphEntryPointARM)
        entryNames.emplace(inst.word(1), inst.stringOperand(inst.operands()[1]));
    auto symbolOfGraph = [&](uint32_t id) {
      if (auto it = symbolOf_.find(id); it != symbolOf_.end())
        return it->second;
      std::string base = nameOf(id);
      if (base.empty())
        if (auto ep = entryNames.find(id); ep != entryNames.end())
          base = ep->second;
      std::string sym = uniqueSymbol(base.empty() ? "spirv_graph_" + std::to_string(id) : base, id);
      symbolOf_[id] = sym;
      return sym;
    };
    for (Instruction inst : m_) {
      if (inst.opcode() != Op::GraphEntryPointARM)
        continue;
      OperationState st(&ops::graphEntryPoint(), loc(inst));
      st.addAttribute(ctx_, "fn", attr::symbolRef(ctx_, symbolOfGraph(inst.word(1))));
      if (Status s = interface(inst, 2, st); !s)
        return s;
      body_->push_back(Operation::create(std::move(st)));
    }
    Operation *graph = nullptr;
    std::vector<Value> outputs;
    Instruction start = m_.inst(0);
    for (Instruction inst : m_) {
      const Op op = inst.opcode();
      if (op == Op::GraphARM) {
        if (graph)
          return error(inst, "OpGraphARM inside a graph");
        Type t = typeOf(inst.typeId());
        if (!t || !t.is(TypeKind::GraphArm))
          return error(inst, "graph type %" + std::to_string(inst.typeId()) + " is unknown");
        OperationState st(&ops::graph(), loc(inst));
        st.addAttribute(ctx_, "sym_name", attr::string(ctx_, symbolOfGraph(inst.resultId())));
        st.addAttribute(ctx_, "function_type", attr::type(ctx_, t));
        st.addAttribute(ctx_, "entry_point",
                        attr::boolean(ctx_, entryNames.count(inst.resultId()) != 0));
        st.numRegions = 1;
        graph = Operation::create(std::move(st));
        body_->push_back(graph);
        current_ = graph->region().addBlock();
        blockOfLabel_.clear(); // (a graph has no blocks to branch to)
        for (Type in : t.inputs())
          current_->addArgument(in);
        outputs.assign(t.results().size(), Value());
        start = inst;
        continue;
      }
      if (!graph || op == Op::Line || op == Op::NoLine)
        continue;
      if (op == Op::GraphInputARM || op == Op::GraphSetOutputARM) {
        const bool input = op == Op::GraphInputARM;
        std::optional<uint32_t> index;
        if (inst.wordCount() == (input ? 4u : 3u))
          index = indexConstant(inst.word(input ? 3 : 2));
        const size_t count = input ? current_->numArguments() : outputs.size();
        if (!index || *index >= count)
          return error(inst, std::string(input ? "OpGraphInputARM" : "OpGraphSetOutputARM") +
                                 " needs a constant index of an " + (input ? "input" : "output") +
                                 " of the graph and no element index");
        if (input) {
          values_.set(inst.resultId(), current_->argument(*index));
          continue;
        }
        Expected<Value> v = use(inst.word(1), inst);
        if (!v)
          return v.error();
        outputs[*index] = *v;
        continue;
      }
      if (op == Op::GraphEndARM) {
        OperationState st(&ops::graphOutputs(), loc(inst));
        for (size_t k = 0; k < outputs.size(); ++k) {
          if (!outputs[k])
            return error(start, "graph output " + std::to_string(k) + " is never set");
          st.operands.push_back(outputs[k]);
        }
        append(std::move(st));
        graph = nullptr;
        continue;
      }
      if (Status s = instruction(inst); !s)
        return s;
    }
    if (graph)
      return error(start, "OpGraphARM without its OpGraphEndARM");
    return {};
  }

  /// The value of an OpConstant of a 32-bit integer type, or none.
  std::optional<uint32_t> indexConstant(uint32_t id) const {
    uint32_t def = m_.defIndex(id);
    if (def == kNoIndex || m_.inst(def).opcode() != Op::Constant || m_.inst(def).wordCount() != 4)
      return std::nullopt;
    return m_.inst(def).word(3);
  }

  // --- Values -----------------------------------------------------------------------------

  Operation *append(OperationState &&st) {
    Operation *op = Operation::create(std::move(st));
    current_->push_back(op);
    return op;
  }

  /// An OperationState taken from the deserializer's pool and given back at the end of its
  /// scope: its vectors keep their capacity from op to op (their
  /// allocation and release were a good part of each op). One per nesting level, as use() makes
  /// ops while generic() is filling its own.
  class PooledState {
  public:
    PooledState(Deserializer &d, const OpInfo *info, Location loc) : d_(d) {
      if (d.freeStates_.empty()) {
        st_ = std::make_unique<OperationState>(info, loc);
        return;
      }
      st_ = std::move(d.freeStates_.back());
      d.freeStates_.pop_back();
      // As a new OperationState(info, loc), its vectors emptied in place: the attributes' too,
      // whose allocation was, with the state's, a seventh of making a constant at its use.
      OperationState &st = *st_;
      st.info = info;
      st.location = loc;
      st.debugLoc = nullptr;
      st.resultTypes.clear();
      st.operands.clear();
      st.attributes.clear();
      st.successors.clear();
      st.numRegions = 0;
    }
    PooledState(const PooledState &) = delete;
    PooledState &operator=(const PooledState &) = delete;
    ~PooledState() { d_.freeStates_.push_back(std::move(st_)); }
    OperationState &operator*() { return *st_; }

  private:
    Deserializer &d_;
    std::unique_ptr<OperationState> st_;
  };

  /// The symbol reference to the global `id` named `name`, made once (its addresses are made at
  /// every use).
  Attribute symbolRef(uint32_t id, std::string_view name) {
    auto [it, added] = symbolRefs_.try_emplace(id);
    if (added)
      it->second = attr::symbolRef(ctx_, name);
    return it->second;
  }

  /// An i32 attribute: the small non-negative ones (most literal operands) made once.
  Attribute i32Attr(int32_t v) {
    if (v < 0 || v >= static_cast<int32_t>(smallI32_.size()))
      return attr::integer(ctx_, i32_, static_cast<int64_t>(v));
    Attribute &a = smallI32_[static_cast<size_t>(v)];
    if (!a)
      a = attr::integer(ctx_, i32_, v);
    return a;
  }

  /// An enumerant attribute, made once per kind and value: an op's enumerants repeat from
  /// instruction to instruction (memory access, group operation), and uniquing one in the
  /// context hashes its whole storage.
  Attribute enumAttr(OperandKind kind, uint32_t value) {
    auto [it, added] = enumAttrs_.try_emplace((uint64_t(kind) << 32) | value);
    if (added)
      it->second = attr::enumerant(ctx_, kind, value);
    return it->second;
  }

  /// The array of these (uniqued) attributes, made once per sequence: the literal lists of
  /// OpCompositeExtract and OpVectorShuffle repeat through a shader, and uniquing an array in
  /// the context hashes every element's storage.
  Attribute arrayAttr(std::span<const Attribute> elements) {
    arrayKey_.assign(reinterpret_cast<const char *>(elements.data()),
                     elements.size() * sizeof(Attribute));
    auto it = arrayAttrs_.find(arrayKey_);
    if (it != arrayAttrs_.end())
      return it->second;
    Attribute a = attr::array(ctx_, elements);
    arrayAttrs_.emplace(arrayKey_, a);
    return a;
  }

  /// The SSA value of `id` at the current point, materializing what the dialect keeps out of
  /// functions: constants, undefined values, addresses of globals, spec constant references.
  Expected<Value> use(uint32_t id, Instruction user) {
    if (Value known = values_.get(id))
      return known;
    uint32_t index = m_.defIndex(id);
    if (index == kNoIndex)
      return error(user, "%" + std::to_string(id) + " is not defined");
    Instruction def = m_.inst(index);
    Type t = typeOf(def.typeId());
    switch (def.opcode()) {
    case Op::Variable: {
      auto sym = symbolOf_.find(id);
      if (sym == symbolOf_.end())
        break;
      PooledState pooled(*this, &ops::addressOf(), loc(user));
      OperationState &st = *pooled;
      st.resultTypes.push_back(t);
      st.attributes.push_back({variableName_, symbolRef(id, sym->second).storage()});
      return append(std::move(st))->result();
    }
    case Op::SpecConstantOp:
      if (!symbolOf_.count(id))
        return specConstantOperation(def, user);
      [[fallthrough]];
    case Op::SpecConstantTrue:
    case Op::SpecConstantFalse:
    case Op::SpecConstant:
    case Op::SpecConstantComposite: {
      OperationState st(&ops::referenceOf(), loc(user));
      st.resultTypes.push_back(t);
      st.attributes.push_back({specConstName_, symbolRef(id, symbolOf_.at(id)).storage()});
      return append(std::move(st))->result();
    }
    case Op::ConstantTrue:
    case Op::ConstantFalse:
    case Op::Constant:
    case Op::ConstantComposite:
    case Op::ConstantCompositeReplicateEXT:
    case Op::ConstantNull: {
      Attribute value = constantValue(id);
      if (!value || value.is(AttrKind::Null)) {
        if (def.opcode() != Op::ConstantNull)
          return error(user,
                       "constant %" + std::to_string(id) + " has a value the dialect cannot hold");
        OperationState st(opForInstruction(Op::ConstantNull), loc(user));
        st.resultTypes.push_back(t);
        return append(std::move(st))->result();
      }
      PooledState pooled(*this, &ops::constant(), loc(user));
      OperationState &st = *pooled;
      st.resultTypes.push_back(t);
      st.attributes.push_back({valueName_, value.storage()});
      return append(std::move(st))->result();
    }
    case Op::Undef: {
      OperationState st(opForInstruction(Op::Undef), loc(user));
      st.resultTypes.push_back(t);
      return append(std::move(st))->result();
    }
    case Op::Function: {
      // A function as an operand (OpEnqueueKernel's Invoke): a reference to its symbol, typed
      // by its function type.
      auto type = functionTypes_.find(id);
      Type fnType = type != functionTypes_.end() ? typeOf(type->second) : Type();
      if (!fnType)
        break;
      OperationState st(&ops::referenceOf(), loc(user));
      st.resultTypes.push_back(fnType);
      st.addAttribute(ctx_, "spec_const", attr::symbolRef(ctx_, calleeSymbol(id)));
      return append(std::move(st))->result();
    }
    case Op::ConstantSampler:
    case Op::ConstantPipeStorage:
    case Op::GraphConstantARM:
      return constantOp(def);
    default:
      break;
    }
    return error(user, "operand %" + std::to_string(id) + " (" +
                           std::string(def.desc() ? def.desc()->name : "?") +
                           ") is not a value defined before its use in this function");
  }

  /// The arguments a branch from the current block passes to `target`: the values its
  /// OpPhis take from this block.
  Expected<std::vector<Value>> phiArguments(uint32_t targetLabel, Instruction user) {
    std::vector<Value> args;
    uint32_t labelIndex = m_.defIndex(targetLabel);
    for (uint32_t k = labelIndex + 1; k < m_.size(); ++k) {
      Instruction phi = m_.inst(k);
      if (phi.opcode() == Op::Line || phi.opcode() == Op::NoLine)
        continue;
      if (phi.opcode() != Op::Phi)
        break;
      bool found = false;
      for (uint32_t w = 3; w + 1 < phi.wordCount(); w += 2)
        if (phi.word(w + 1) == currentLabel_) {
          Expected<Value> v = use(phi.word(w), user);
          if (!v)
            return v.error();
          args.push_back(*v);
          found = true;
          break;
        }
      if (!found)
        return error(phi, "OpPhi has no value for the edge from block %" +
                              std::to_string(currentLabel_));
    }
    return args;
  }

  Status successor(OperationState &st, uint32_t label, Instruction inst) {
    auto it = blockOfLabel_.find(label);
    if (it == blockOfLabel_.end())
      return error(inst,
                   "branch target %" + std::to_string(label) + " is not a block of this function");
    Expected<std::vector<Value>> args = phiArguments(label, inst);
    if (!args)
      return args.error();
    st.addSuccessor(it->second, *args);
    return {};
  }

  Status instruction(Instruction inst) {
    switch (inst.opcode()) {
    case Op::Branch: {
      OperationState st = at(&ops::branch(), inst);
      if (Status s = successor(st, inst.word(1), inst); !s)
        return s;
      append(std::move(st));
      return {};
    }
    case Op::BranchConditional: {
      Expected<Value> cond = use(inst.word(1), inst);
      if (!cond)
        return cond.error();
      OperationState st = at(&ops::branchConditional(), inst);
      st.operands.push_back(*cond);
      if (Status s = successor(st, inst.word(2), inst); !s)
        return s;
      if (Status s = successor(st, inst.word(3), inst); !s)
        return s;
      if (inst.wordCount() >= 6) {
        Attribute w[] = {i32Attr(static_cast<int32_t>(inst.word(4))),
                         i32Attr(static_cast<int32_t>(inst.word(5)))};
        st.addAttribute(ctx_, "branch_weights", attr::array(ctx_, w));
      }
      append(std::move(st));
      return {};
    }
    case Op::Switch: {
      Expected<Value> selector = use(inst.word(1), inst);
      if (!selector)
        return selector.error();
      OperationState st = at(&ops::switchOp(), inst);
      st.operands.push_back(*selector);
      if (Status s = successor(st, inst.word(2), inst); !s)
        return s;
      std::vector<Attribute> literals;
      auto ops = inst.operands();
      Type selType = selector->type();
      for (size_t k = 2; k + 1 < ops.size(); k += 2) {
        auto w = inst.operandWords(ops[k]);
        uint64_t v = w[0] | (w.size() > 1 ? uint64_t(w[1]) << 32 : 0);
        literals.push_back(attr::integer(ctx_, selType, static_cast<int64_t>(v)));
        if (Status s = successor(st, inst.words()[ops[k + 1].offset], inst); !s)
          return s;
      }
      st.addAttribute(ctx_, "literals", attr::array(ctx_, literals));
      append(std::move(st));
      return {};
    }
    case Op::FunctionCall: {
      OperationState st = at(&ops::functionCall(), inst);
      Type t = typeOf(inst.typeId());
      if (t && !t.is(TypeKind::None))
        st.resultTypes.push_back(t);
      st.addAttribute(ctx_, "callee", attr::symbolRef(ctx_, calleeSymbol(inst.word(3))));
      for (uint32_t k = 4; k < inst.wordCount(); ++k) {
        Expected<Value> v = use(inst.word(k), inst);
        if (!v)
          return v.error();
        st.operands.push_back(*v);
      }
      Operation *op = append(std::move(st));
      if (op->numResults())
        values_.set(inst.resultId(), op->result());
      return {};
    }
    case Op::ExtInst:
      return extInst(inst);
    case Op::ExtInstWithForwardRefsKHR:
      if (m_.extInstImport(inst.word(3)).describesOnly())
        return nonSemantic(inst, false);
      break;
    case Op::CompositeConstruct: {
      // SPV_INTEL_long_composites: the constituents go on in the continued instructions after
      // it, which make one op with it.
      if (inst.index() + 1 >= m_.size() ||
          m_.inst(inst.index() + 1).opcode() != Op::CompositeConstructContinuedINTEL)
        break;
      OperationState st = at(opForInstruction(Op::CompositeConstruct), inst);
      Type t = typeOf(inst.typeId());
      if (!t)
        return error(inst, "result type %" + std::to_string(inst.typeId()) + " is unknown");
      st.resultTypes.push_back(t);
      for (uint32_t id : continuedOperands(m_, inst, 3, Op::CompositeConstructContinuedINTEL)) {
        Expected<Value> v = use(id, inst);
        if (!v)
          return v.error();
        st.operands.push_back(*v);
      }
      values_.set(inst.resultId(), append(std::move(st))->result());
      return {};
    }
    case Op::CompositeConstructContinuedINTEL:
      return {}; // read with the composite construct before it
    case Op::CopyLogical:
      // Between two types that the dialect makes one (identical literal structs, say) the copy
      // is an OpCopyObject: OpCopyLogical to the operand's own type is invalid (3.32.12).
      if (uint32_t def = m_.defIndex(inst.word(3));
          def != kNoIndex && typeOf(m_.inst(def).typeId()) == typeOf(inst.typeId()))
        return generic(inst, *opForInstruction(Op::CopyObject), inst.operands().subspan(0), 0);
      break;
    default:
      break;
    }
    const OpInfo *info = opForInstruction(inst.opcode());
    if (!info)
      return error(inst, "instruction the dialect has no op for");
    return generic(inst, *info, inst.operands().subspan(0), 0);
  }

  std::string calleeSymbol(uint32_t id) {
    auto it = symbolOf_.find(id);
    if (it != symbolOf_.end())
      return it->second;
    // A function defined later: its symbol is decided now. Without an OpName, an entry point
    // is named as it is entered, as MLIR names it.
    std::string base = nameOf(id);
    if (base.empty())
      if (auto ep = entryNames_.find(id); ep != entryNames_.end())
        base = ep->second;
    std::string sym = uniqueSymbol(base.empty() ? "spirv_fn_" + std::to_string(id) : base, id);
    symbolOf_[id] = sym;
    return sym;
  }

  Status extInst(Instruction inst) {
    binary::ExtInstImport imp = m_.extInstImport(inst.word(3));
    if (imp.describesOnly())
      return nonSemantic(inst, false);
    if (imp.set && imp.set->id == grammar::ExtInstSet::ArmExperimentalMlOperations &&
        inst.word(4) == 0)
      return experimentalMlCall(inst);
    const OpInfo *info = imp.set ? opForExtInst(*imp.set, inst.word(4)) : nullptr;
    if (!info)
      return genericExtInst(inst);
    // Operands after result type, result, set and instruction number.
    auto ops = inst.operands();
    size_t first = 0;
    while (first < ops.size() && (ops[first].kind == OperandKind::IdResultType ||
                                  ops[first].kind == OperandKind::IdResult))
      ++first;
    return generic(inst, *info, ops, first + 2);
  }

  /// CALL of Arm.ExperimentalMLOperations: spirv.ExperimentalML.Call with its opcode literal.
  Status experimentalMlCall(Instruction inst) {
    if (inst.wordCount() < 6)
      return error(inst, "CALL of Arm.ExperimentalMLOperations needs an opcode");
    Type t = typeOf(inst.typeId());
    if (!t)
      return error(inst, "result type %" + std::to_string(inst.typeId()) + " is unknown");
    OperationState st = at(&ops::experimentalMlCall(), inst);
    st.resultTypes.push_back(t);
    st.addAttribute(ctx_, "opcode", i32Attr(static_cast<int32_t>(inst.word(5))));
    for (uint32_t k = 6; k < inst.wordCount(); ++k) {
      Expected<Value> v = use(inst.word(k), inst);
      if (!v)
        return v.error();
      st.operands.push_back(*v);
    }
    Operation *op = append(std::move(st));
    values_.set(inst.resultId(), op->result());
    return {};
  }

  /// An instruction of a set without ops of its own (SPV_AMD_*, ...): spirv.ExtInst naming the
  /// set by its import name and the instruction by its number, its operands all ids.
  Status genericExtInst(Instruction inst) {
    uint32_t importIndex = m_.defIndex(inst.word(3));
    if (importIndex == kNoIndex || m_.inst(importIndex).opcode() != Op::ExtInstImport ||
        m_.inst(importIndex).operands().size() < 2)
      return error(inst, "OpExtInst of %" + std::to_string(inst.word(3)) +
                             ", which is not an OpExtInstImport");
    Instruction imp = m_.inst(importIndex);
    OperationState st = at(&ops::extInst(), inst);
    Type t = typeOf(inst.typeId());
    if (!t)
      return error(inst, "result type %" + std::to_string(inst.typeId()) + " is unknown");
    st.resultTypes.push_back(t);
    st.addAttribute(ctx_, "set", attr::string(ctx_, imp.stringOperand(imp.operands()[1])));
    st.addAttribute(ctx_, "instruction", i32Attr(static_cast<int32_t>(inst.word(4))));
    auto ops = inst.operands();
    for (size_t k = 4; k < ops.size(); ++k) {
      if (grammar::operandCategory(ops[k].kind) != grammar::OperandCategory::Id)
        return error(inst, "extended instruction " + std::to_string(inst.word(4)) +
                               " has a literal operand, which spirv.ExtInst cannot hold");
      Expected<Value> v = use(inst.words()[ops[k].offset], inst);
      if (!v)
        return v.error();
      st.operands.push_back(*v);
    }
    decorationAttributes(inst.resultId(), st, false);
    Operation *op = append(std::move(st));
    values_.set(inst.resultId(), op->result());
    return {};
  }

  /// An instruction whose op follows the grammar: ids are operands, literals and enumerants
  /// attributes named by the op's operand mapping, scopes and memory semantics enum
  /// attributes.
  /// With `into`, the op goes at the end of that block (its operands are still materialized
  /// in the current one) and is returned through `made` instead of naming the result id.
  Status generic(Instruction inst, const OpInfo &info, std::span<const binary::Operand> ops,
                 size_t first, Block *into = nullptr, Operation **made = nullptr) {
    PooledState pooled(*this, &info, loc(inst));
    OperationState &st = *pooled;
    st.operands.reserve(ops.size() - std::min(first, ops.size()));
    // (a constant materialized at its use stands for no instruction there)
    if (!into)
      st.debugLoc = lineAt(inst);
    Type resultType;
    if (inst.typeId()) {
      resultType = typeOf(inst.typeId());
      if (!resultType)
        return error(inst, "result type %" + std::to_string(inst.typeId()) + " is unknown");
      st.resultTypes.push_back(resultType);
    }
    size_t g = 0; // the operand mapping being filled
    const OperandMapping *lastEnum = nullptr;
    // The list's storage is the deserializer's spare one, given back at the end (a nested
    // generic(), through use(), takes a new one).
    std::vector<Attribute> pendingList = std::move(spareList_);
    pendingList.clear();
    struct GiveBack {
      std::vector<Attribute> &list, &spare;
      ~GiveBack() {
        if (list.capacity() > spare.capacity())
          spare = std::move(list);
      }
    } giveBack{pendingList, spareList_};
    std::string_view pendingName;
    auto flushList = [&]() {
      if (!pendingName.empty()) {
        st.addAttribute(ctx_, pendingName, arrayAttr(pendingList));
        pendingList.clear();
        pendingName = {};
      }
    };
    const auto &mapping = info.operands;
    for (size_t k = first; k < ops.size(); ++k) {
      const binary::Operand &o = ops[k];
      if (o.kind == OperandKind::IdResultType || o.kind == OperandKind::IdResult)
        continue;
      uint32_t word = inst.words()[o.offset];
      // Find the mapping this operand belongs to: the current one when it takes more, else
      // the next whose kind matches; an operand that matches none is a parameter of the last
      // enumerant.
      const OperandMapping *m = nullptr;
      for (size_t probe = g; probe < mapping.size(); ++probe) {
        bool kindMatches = mapping[probe].operandKind == o.kind ||
                           (grammar::operandCategory(mapping[probe].operandKind) ==
                                grammar::OperandCategory::Literal &&
                            grammar::operandCategory(o.kind) == grammar::OperandCategory::Literal);
        if (kindMatches) {
          m = &mapping[probe];
          if (probe != g)
            flushList();
          g = mapping[probe].quantifier == grammar::Quantifier::Variadic ? probe : probe + 1;
          break;
        }
        if (mapping[probe].quantifier == grammar::Quantifier::One && !lastEnum)
          break;
      }
      if (!m) {
        // An enumerant's parameter.
        if (grammar::operandCategory(o.kind) == grammar::OperandCategory::Id) {
          Expected<Value> v = use(word, inst);
          if (!v)
            return v.error();
          st.operands.push_back(*v);
        } else {
          std::string name =
              lastEnum && lastEnum->operandKind == OperandKind::MemoryAccess
                  ? (lastEnum->name == "source_memory_access" ? "source_alignment" : "alignment")
                  : std::string(lastEnum ? lastEnum->name : "operand") + "_value";
          st.addAttribute(ctx_, name, i32Attr(static_cast<int32_t>(word)));
        }
        continue;
      }
      switch (m->kind) {
      case OperandMapping::Kind::Value: {
        // (A value already made, the common case, without an Expected around it.)
        if (Value known = values_.get(word)) {
          st.operands.push_back(known);
          break;
        }
        Expected<Value> v = use(word, inst);
        if (!v)
          return v.error();
        st.operands.push_back(*v);
        break;
      }
      case OperandMapping::Kind::TypeId: {
        Type t = typeOf(word);
        if (!t)
          return error(inst, "operand %" + std::to_string(word) + " of " + std::string(info.name) +
                                 " must be a type");
        st.addAttribute(ctx_, m->name, attr::type(ctx_, t));
        break;
      }
      case OperandMapping::Kind::IdEnum: {
        Attribute c = constantValue(word);
        if (c && c.is(AttrKind::Integer)) {
          st.addAttribute(ctx_, m->name, enumAttr(m->attrKind, static_cast<uint32_t>(c.bits())));
          break;
        }
        // Not a constant (a specialization constant, or a value an OpenCL kernel computes):
        // an operand at its place in the instruction's order, the attribute a unit that says
        // so.
        Expected<Value> v = use(word, inst);
        if (!v)
          return v.error();
        st.operands.push_back(*v);
        st.addAttribute(ctx_, m->name, attr::unit(ctx_));
        break;
      }
      case OperandMapping::Kind::Attribute: {
        Attribute a;
        grammar::OperandCategory cat = grammar::operandCategory(o.kind);
        if (cat == grammar::OperandCategory::BitEnum ||
            cat == grammar::OperandCategory::ValueEnum) {
          a = enumAttr(o.kind, word);
          lastEnum = m;
        } else if (o.kind == OperandKind::LiteralString) {
          a = attr::string(ctx_, inst.stringOperand(o));
        } else {
          uint64_t v = word;
          if (o.numWords > 1)
            v |= uint64_t(inst.words()[o.offset + 1]) << 32;
          a = o.numWords == 1 && word < smallI32_.size()
                  ? i32Attr(static_cast<int32_t>(word))
                  : attr::integer(ctx_, o.numWords > 1 ? ctx_.integer(64) : i32_,
                                  static_cast<int64_t>(v));
        }
        if (m->quantifier == grammar::Quantifier::Variadic) {
          pendingName = m->name;
          pendingList.push_back(a);
        } else {
          st.addAttribute(ctx_, m->name, a);
        }
        break;
      }
      case OperandMapping::Kind::ResultStorage:
        // The result type says it (the op has no attribute for it).
        if (!resultType.is(TypeKind::Pointer) || resultType.storageClass() != word)
          return error(inst, "the storage class operand of " + std::string(info.name) +
                                 " must be its result type's");
        break;
      case OperandMapping::Kind::Constant: {
        Expected<Attribute> a = constantAttribute(word, *m, inst, info);
        if (!a)
          return a.error();
        st.addAttribute(ctx_, m->name, *a);
        break;
      }
      case OperandMapping::Kind::Other:
        return error(inst, "operand of kind " + std::string(grammar::operandKindName(o.kind)) +
                               " the dialect cannot express in " + std::string(info.name));
      }
    }
    flushList();
    if (inst.resultId())
      decorationAttributes(inst.resultId(), st, false);
    if (inst.opcode() == Op::Variable)
      // SPIR-V lets any variable carry these (spirv-val does in the universal environments);
      // the dialect keeps them on spirv.GlobalVariable only, as MLIR does.
      for (const NamedAttribute &a : st.attributes)
        if (a.name == "built_in" || a.name == "binding" || a.name == "descriptor_set")
          return error(inst, "a function variable with '" + std::string(a.name) +
                                 "', which the dialect keeps on module-level variables only");
    if (into) {
      Operation *op = Operation::create(std::move(st));
      into->push_back(op);
      if (made)
        *made = op;
      return {};
    }
    Operation *op = append(std::move(st));
    if (op->numResults())
      values_.set(inst.resultId(), op->result());
    return {};
  }

  /// The attribute a constant operand of `info` is (a TOSA op's pad, axis, acc_type, ...), of
  /// the kind its mapping says: integers, booleans and rank-1 integer tensors (composite, null
  /// or replicated) as they are, an integer as the enumerant of that value.
  Expected<Attribute> constantAttribute(uint32_t id, const OperandMapping &m, Instruction inst,
                                        const OpInfo &info) {
    Attribute c = constantValue(id);
    auto wrong = [&](std::string_view what) {
      return error(inst, "operand " + std::string(m.name) + " of " + std::string(info.name) +
                             " must be " + std::string(what) + ", %" + std::to_string(id) +
                             " is not");
    };
    switch (m.constAttr) {
    case ConstAttr::I32:
      if (c && c.is(AttrKind::Integer) && c.type().width() <= 32)
        return attr::integer(ctx_, i32_, c.intValue());
      return wrong("a constant integer of 32 bits");
    case ConstAttr::Bool:
      if (c && c.is(AttrKind::Bool))
        return c;
      return wrong("a constant boolean");
    case ConstAttr::I32Tensor:
      // composite() and nullValue() make dense values of rank-1 tensors only.
      if (c && c.is(AttrKind::Dense) && c.type().is(TypeKind::TensorArm) && !c.elements().empty() &&
          c.elements()[0].is(AttrKind::Integer) && c.type().elementType().width() == 32)
        return c;
      return wrong("a constant tensor of rank 1 of 32-bit integers");
    case ConstAttr::Scalar:
      if (c && (c.is(AttrKind::Integer) || c.is(AttrKind::Float)))
        return c;
      return wrong("a constant integer or float");
    case ConstAttr::None:
      break;
    default:
      if (c && c.is(AttrKind::Integer)) {
        DialectEnumKind kind = *dialectEnumOf(m.constAttr);
        if (!dialectEnumText(kind, static_cast<uint32_t>(c.bits())).empty())
          return attr::dialectEnum(ctx_, kind, static_cast<uint32_t>(c.bits()));
      }
      return wrong("a constant integer naming an enumerant of " + std::string(m.name));
    }
    return wrong("a constant");
  }

  /// A constant that needs an op of its own (OpConstantSampler, ...) at its use.
  Expected<Value> constantOp(Instruction def) {
    Block scratch;
    Operation *op = nullptr;
    const OpInfo *info = opForInstruction(def.opcode());
    if (!info)
      return error(def, "constant instruction the dialect has no op for");
    if (Status s = generic(def, *info, def.operands(), 0, &scratch, &op); !s)
      return s.error();
    op->moveToEnd(current_);
    return op->result();
  }

  /// OpSpecConstantOp at its use: spirv.SpecConstantOperation wrapping the operation, whose
  /// operands (constants and spec constants) are materialized in front of it.
  Expected<Value> specConstantOperation(Instruction def, Instruction user) {
    OperationState st(&ops::specConstantOperation(), loc(def));
    st.resultTypes.push_back(typeOf(def.typeId()));
    st.numRegions = 1;
    Operation *wrapper = Operation::create(std::move(st));
    OwningOp owner(wrapper);
    Block *body = wrapper->region().addBlock();
    Operation *inner = nullptr;
    if (Status s = specConstantOperationOp(def, user, body, &inner); !s)
      return s.error();
    OperationState y(&ops::yield(), loc(def));
    y.operands.push_back(inner->result());
    body->push_back(Operation::create(std::move(y)));
    current_->push_back(owner.release());
    return wrapper->result();
  }

  /// The operation of an OpSpecConstantOp, its operands materialized in the current block, at
  /// the end of `into` (returned through `made`).
  Status specConstantOperationOp(Instruction def, Instruction user, Block *into, Operation **made) {
    if (++specOpDepth_ > 64) {
      --specOpDepth_;
      return error(user, "specialization constant operations nested too deeply");
    }
    auto ops = def.operands();
    size_t first = 0;
    while (first < ops.size() && ops[first].kind != OperandKind::LiteralSpecConstantOpInteger)
      ++first;
    const OpInfo *info = first < ops.size()
                             ? opForInstruction(static_cast<Op>(def.words()[ops[first].offset]))
                             : nullptr;
    Status s;
    if (first >= ops.size())
      s = error(def, "OpSpecConstantOp without an operation");
    else if (!info)
      s = error(def, "OpSpecConstantOp of an operation the dialect has no op for");
    else
      s = generic(def, *info, ops, first + 1, into, made);
    --specOpDepth_;
    if (s && (!*made || (*made)->numResults() != 1))
      return error(def, "OpSpecConstantOp of an operation without a result");
    return s;
  }

  /// The value of a module-level OpSpecConstantOp's operation, computed in the current block.
  Expected<Value> specConstantOperationBody(Instruction def, Instruction user) {
    Operation *inner = nullptr;
    if (Status s = specConstantOperationOp(def, user, current_, &inner); !s)
      return s.error();
    return inner->result();
  }

  Context &ctx_;
  const Module &m_;
  DeserializeStats &stats_;
  DeserializeOptions options_;
  ModuleTypes types_;
  Type i32_;
  /// Attribute names interned once (use() adds one to every op it makes).
  std::string_view valueName_, variableName_, specConstName_;
  std::unordered_map<uint32_t, Attribute> symbolRefs_;
  std::array<Attribute, 64> smallI32_{};
  /// The enumerant attributes and the arrays of generic()'s variadic literal operands made so
  /// far (see enumAttr, arrayAttr), and arrayAttr's reused key.
  std::unordered_map<uint64_t, Attribute> enumAttrs_;
  std::unordered_map<std::string, Attribute> arrayAttrs_;
  std::string arrayKey_;
  std::vector<Attribute> spareList_; ///< generic()'s list of literal attributes, reused
  std::vector<std::unique_ptr<OperationState>> freeStates_; ///< PooledState's
  std::vector<bool>
      decorated_; ///< by id: whether decorationIndex_ lists it (made when first asked)
  OwningOp module_;
  Block *body_ = nullptr;
  std::vector<uint32_t> capabilities_;
  std::vector<std::string> extensions_;
  uint32_t addressing_ = 0, memoryModel_ = 0;
  /// The OpNames as (target id, instruction index), sorted. Only globals' and functions' names
  /// are ever read, and a module names every local too: 8 bytes a name where a map of strings
  /// was about 80.
  std::vector<std::pair<uint32_t, uint32_t>> names_;
  uint32_t namesBegin_ = 0, namesEnd_ = 0; ///< the OpName and OpMemberName instructions
  std::vector<uint32_t> graphIds_;         ///< the OpGraphARM results
  struct KeptName {
    uint32_t id, at, size;
  };
  std::vector<KeptName> keptNames_; ///< by id, once namesKept_: functions' and graphs' names
  std::string keptText_;            ///< their text, one after the other
  bool namesKept_ = false;
  std::unordered_map<uint32_t, std::string> strings_; ///< OpString's text by id
  /// OpString ids something names (OpLine, OpSource, a debug instruction).
  std::unordered_set<uint32_t> usedStrings_;
  /// OpString, OpSource, OpSourceContinued, OpSourceExtension, in module order (indices).
  std::vector<uint32_t> sourceEntries_;
  std::vector<std::string> processed_; ///< OpModuleProcessed texts
  /// Words after the instruction number of the non-semantic instructions in functions: the
  /// ids (and literals) they name, so that a local one named by another has a result.
  std::unordered_set<uint32_t> namedByNonSemantic_;
  /// lines(): the source line of each instruction by index; empty without OpLine.
  std::vector<const DebugLoc *> lineOf_;
  std::unordered_map<uint32_t, std::string> entryNames_; ///< function -> first entry point name
  std::unordered_map<uint32_t, uint32_t> functionTypes_; ///< function -> its OpTypeFunction
  DecorationIndex decorationIndex_{m_};
  std::unordered_set<std::string> symbols_;
  std::unordered_map<uint32_t, std::string> symbolOf_;
  /// The constants' attributes made so far (null where the dialect cannot hold one): by id,
  /// 0 when not yet made, else 1 + the index in constantValues_ (asked at every use of one).
  IdMap<uint32_t> constantSlot_;
  static constexpr size_t kDenseConstantIds = 16384;
  std::vector<Attribute> constantValues_;
  bool constantSlotsMade_ = false;
  IdMap<Value> values_; ///< the current function's values by id
  std::unordered_map<uint32_t, Block *> blockOfLabel_;
  Block *current_ = nullptr;
  uint32_t currentLabel_ = 0;
  int specOpDepth_ = 0;
  std::optional<Diagnostic> decorationError_;
  std::unordered_set<const void *> repeated_; ///< attributes that list a repeated decoration
};

} // namespace

Expected<OwningOp> deserialize(Context &context, const Module &module, DeserializeStats *stats,
                               DeserializeOptions options) {
  DeserializeStats local;
  Deserializer d(context, module, stats ? *stats : local, options);
  return d.run();
}

} // namespace spire::dialect
