#include "spire/dialect/ModuleTypes.h"

#include "spire/binary/Literal.h"
#include "spire/grammar/Grammar.h"
#include "spire/module/Decorations.h"

#include <algorithm>
#include <optional>
#include <unordered_set>

namespace spire::dialect {

namespace {

using grammar::Op;

constexpr uint32_t kDecorationArrayStride = uint32_t(grammar::Decoration::ArrayStride);
constexpr uint32_t kDecorationOffset = uint32_t(grammar::Decoration::Offset);

} // namespace

std::vector<uint32_t> continuedOperands(const Module &module, const Instruction &inst,
                                        uint32_t first, grammar::Op continued) {
  std::vector<uint32_t> out;
  std::span<const uint32_t> w = inst.words();
  if (first < w.size())
    out.assign(w.begin() + first, w.end());
  for (uint32_t k = inst.index() + 1; k < module.size(); ++k) {
    const Instruction next = module.inst(k);
    if (next.isRaw() || next.opcode() != continued)
      break;
    std::span<const uint32_t> more = next.words().subspan(1);
    out.insert(out.end(), more.begin(), more.end());
  }
  return out;
}

/// Builds a ModuleTypes: its types are the ones declared so far while it runs.
class ModuleTypesImporter {
public:
  ModuleTypesImporter(Context &ctx, const Module &m,
                      const std::function<std::string(uint32_t)> &specSymbol,
                      const DecorationIndex *decorations, ModuleTypes &out)
      : ctx_(ctx), m_(m), specSymbol_(specSymbol), decorations_(decorations), out_(out) {}

  Status run() {
    collectNamesAndDecorations();
    for (Instruction inst : m_) {
      if (inst.section() > Section::Global)
        break;
      if (inst.isRaw() || !inst.desc() || inst.desc()->name.substr(0, 6) != "OpType")
        continue;
      // A struct's continued members belong to it (continuedOperands).
      if (inst.opcode() == Op::TypeForwardPointer || inst.opcode() == Op::TypeStructContinuedINTEL)
        continue;
      Type t = declare(inst);
      if (!t)
        return makeError(Location::binary(inst.wordOffset(), inst.index()), error_);
      // Types by id in a table as far as they are dense (at least one id in 16), the others
      // hashed: most types are declared first, with small ids, but glslang declares some
      // (a buffer's runtime array, struct and pointers) after all constants, near the bound,
      // and a table reaching them cost 8 bytes an id (a third of a byte per module byte).
      // (Ids at or above the header's bound, in a module no one validated, are hashed too.)
      const uint32_t id = inst.resultId();
      std::vector<Type> &byId = out_.types_;
      const size_t denseEnd = std::min<size_t>(m_.bound(), 1024 + 16 * (out_.count_ + 1));
      if (id >= byId.size() && id < denseEnd) {
        byId.resize(std::min<size_t>(std::max<size_t>(2 * byId.size(), id + 1), denseEnd));
        // The hashed types that the table now reaches move into it (type() looks there).
        for (auto it = out_.above_.begin(); it != out_.above_.end();)
          if (it->first < byId.size()) {
            byId[it->first] = it->second;
            it = out_.above_.erase(it);
          } else {
            ++it;
          }
      }
      Type &slot = id < byId.size() ? byId[id] : out_.above_[id];
      out_.count_ += !slot;
      slot = t;
    }
    return {};
  }

private:
  void collectNamesAndDecorations() {
    std::unordered_map<std::string, uint32_t> firstStructWithName;
    for (Instruction inst : m_) {
      if (inst.section() > Section::Global)
        break;
      if (inst.isRaw())
        continue;
      if (inst.opcode() == Op::TypeStruct)
        structIds_.insert(inst.resultId());
      else if (inst.opcode() == Op::TypeNodePayloadArrayAMDX)
        payloadArrays_[inst.resultId()];
    }
    for (Instruction inst : m_) {
      if (inst.section() > Section::Annotation)
        break;
      if (inst.isRaw())
        continue;
      const uint32_t n = inst.wordCount();
      if (inst.opcode() == Op::Name && n >= 3 && inst.operands().size() >= 2 &&
          structIds_.count(inst.word(1))) {
        // Distinct structs share a name in many modules (HLSL's "type.buffer" and the like):
        // the second and later keep it with their id appended, as they stay distinct types.
        std::string name = inst.stringOperand(inst.operands()[1]);
        rawNames_[inst.word(1)] = name;
        auto [it, first] = firstStructWithName.emplace(name, inst.word(1));
        if (!first && it->second != inst.word(1))
          name += "_" + std::to_string(inst.word(1));
        names_[inst.word(1)] = std::move(name);
      }
    }
    std::optional<DecorationIndex> own;
    if (!decorations_)
      own.emplace(m_);
    const DecorationIndex &decorations = decorations_ ? *decorations_ : *own;
    for (uint32_t id : decorations.ids()) {
      if (decorations.isGroup(id))
        continue;
      for (const AppliedDecoration &d : decorations.of(id)) {
        const Op op = m_.inst(d.inst).opcode();
        std::span<const uint32_t> parameters = decorations.parameters(d);
        if (auto payload = payloadArrays_.find(id);
            payload != payloadArrays_.end() && d.member == kNoIndex && parameters.size() <= 1 &&
            (op == Op::Decorate || op == Op::DecorateId)) {
          payload->second.push_back({decorations.decoration(d), op == Op::DecorateId,
                                     parameters.empty() ? 0 : parameters[0]});
          continue;
        }
        if (op != Op::Decorate && op != Op::MemberDecorate && op != Op::DecorateString &&
            op != Op::MemberDecorateString)
          continue;
        MemberDecoration md{decorations.decoration(d), std::nullopt, std::nullopt};
        if (takesString(md.decoration)) {
          // UserSemantic "TEXCOORD": OpDecorateString, or OpDecorate with the string's words.
          if (parameters.empty())
            continue;
          md.text = binary::decodeString(parameters);
        } else if (parameters.size() > 1) {
          // Two or more literals (MergeINTEL's two strings, BankBitsINTEL's banks): a struct
          // type has no place for them, so a struct that has one fails rather than lose it.
          if (structIds_.count(id) && !unheld_.count(id))
            unheld_[id] = decorationName(md.decoration);
          continue;
        } else if (!parameters.empty()) {
          md.value = parameters[0];
        }
        if (d.member == kNoIndex)
          decorate(id, md);
        else
          decorateMember(id, d.member, md);
      }
    }
  }

  void decorate(uint32_t target, const MemberDecoration &d) {
    if (d.decoration == kDecorationArrayStride && d.value)
      strides_[target] = *d.value;
    else if (structIds_.count(target))
      structDecorations_[target].push_back(d);
  }

  void decorateMember(uint32_t target, uint32_t member, const MemberDecoration &d) {
    auto &m = members_[target][member];
    if (d.decoration == kDecorationOffset && d.value)
      m.offset = d.value;
    else
      m.decorations.push_back(d);
  }

  // A type operand: declared earlier, or a struct that a forward pointer reaches before its
  // declaration.
  Type operand(uint32_t id) {
    if (Type t = out_.type(id))
      return t;
    const uint32_t def = m_.defIndex(id);
    if (def != kNoIndex && m_.inst(def).opcode() == Op::TypeStruct) {
      early_.insert(id);
      return ctx_.identifiedStruct(structName(id));
    }
    // A pointer named by OpTypeForwardPointer before its OpTypePointer: the same pointer type,
    // built now (its pointee is a struct, reached by name).
    if (def != kNoIndex && m_.inst(def).opcode() == Op::TypePointer &&
        m_.inst(def).wordCount() >= 4 && forwardDepth_ < 8) {
      Instruction p = m_.inst(def);
      ++forwardDepth_;
      Type pointee = operand(p.word(3));
      --forwardDepth_;
      return pointee ? ctx_.pointer(pointee, p.word(2), stride(id)) : Type();
    }
    error_ = "type operand %" + std::to_string(id) + " is not a type declared before its use";
    return {};
  }

  std::string structName(uint32_t id) const {
    auto it = names_.find(id);
    return it != names_.end() && !it->second.empty() ? it->second
                                                     : "__struct_" + std::to_string(id);
  }

  std::optional<uint32_t> constant(uint32_t id) {
    const uint32_t def = m_.defIndex(id);
    if (def == kNoIndex)
      return std::nullopt;
    Instruction c = m_.inst(def);
    if (c.opcode() != Op::Constant || c.wordCount() < 4)
      return std::nullopt;
    return c.word(3);
  }

  Type declare(const Instruction &inst) {
    const uint32_t n = inst.wordCount(), id = inst.resultId();
    auto need = [&](uint32_t words) {
      if (n >= words)
        return true;
      error_ = "truncated type declaration";
      return false;
    };
    switch (inst.opcode()) {
    case Op::TypeVoid:
      return ctx_.none();
    case Op::TypeBool:
      return ctx_.boolean();
    case Op::TypeInt:
      if (!need(4))
        return {};
      return ctx_.integer(inst.word(2), inst.word(3) ? Signedness::Signed : Signedness::Signless);
    case Op::TypeFloat:
      if (!need(3))
        return {};
      if (n > 3) {
        Type t = ctx_.floating(inst.word(2), inst.word(3));
        std::optional<SmallFloat> format = smallFloatOf(t);
        if (!format || smallFloatWidth(*format) != inst.word(2)) {
          error_ = "OpTypeFloat " + std::to_string(inst.word(2)) + " with FP encoding " +
                   std::to_string(inst.word(3)) + " has no dialect type";
          return {};
        }
        return t;
      }
      return ctx_.floating(inst.word(2));
    case Op::TypeVector: {
      if (!need(4))
        return {};
      Type e = operand(inst.word(2));
      return e ? ctx_.vector(e, inst.word(3)) : Type();
    }
    case Op::TypeMatrix: {
      if (!need(4))
        return {};
      Type c = operand(inst.word(2));
      return c ? ctx_.matrix(c, inst.word(3)) : Type();
    }
    case Op::TypeArray: {
      if (!need(4))
        return {};
      Type e = operand(inst.word(2));
      std::optional<uint32_t> length = constant(inst.word(3));
      if (e && !length)
        if (std::string symbol = specSymbol(inst.word(3)); !symbol.empty())
          return ctx_.specArray(e, symbol, stride(id));
      if (e && !length)
        error_ = "the array's length is neither an OpConstant nor a specialization constant";
      return e && length ? ctx_.array(e, *length, stride(id)) : Type();
    }
    case Op::TypeRuntimeArray: {
      if (!need(3))
        return {};
      Type e = operand(inst.word(2));
      return e ? ctx_.runtimeArray(e, stride(id)) : Type();
    }
    case Op::TypePointer: {
      if (!need(4))
        return {};
      Type e = operand(inst.word(3));
      return e ? ctx_.pointer(e, inst.word(2), stride(id)) : Type();
    }
    case Op::TypeStruct:
      return structType(inst);
    case Op::TypeImage: {
      if (!need(9))
        return {};
      ImageInfo i;
      i.sampledType = operand(inst.word(2));
      i.dim = inst.word(3);
      i.depth = inst.word(4);
      i.arrayed = inst.word(5);
      i.ms = inst.word(6);
      i.sampled = inst.word(7);
      i.format = inst.word(8);
      if (n >= 10)
        i.access = inst.word(9);
      return i.sampledType ? ctx_.image(i) : Type();
    }
    case Op::TypeSampledImage: {
      if (!need(3))
        return {};
      Type image = operand(inst.word(2));
      return image ? ctx_.sampledImage(image) : Type();
    }
    case Op::TypeSampler:
      return ctx_.sampler();
    case Op::TypeFunction: {
      if (!need(3))
        return {};
      Type ret = operand(inst.word(2));
      std::vector<Type> inputs;
      for (uint32_t w = 3; w < n; ++w) {
        Type t = operand(inst.word(w));
        if (!t)
          return {};
        inputs.push_back(t);
      }
      if (!ret)
        return {};
      std::vector<Type> results;
      if (!ret.is(TypeKind::None))
        results.push_back(ret);
      return ctx_.function(inputs, results);
    }
    default:
      break;
    }
    const uint32_t op = static_cast<uint32_t>(inst.opcode());
    if (op == kOpTypeCooperativeMatrixNV || op == kOpTypeCooperativeMatrixKHR) {
      // NV: %t = Op %component %scope %rows %columns; KHR adds %use.
      if (!need(op == kOpTypeCooperativeMatrixKHR ? 7 : 6))
        return {};
      // Scope, rows, columns (and use) in CoopOperand order: constants, or specialization
      // constants named by their symbols.
      Type e = operand(inst.word(2));
      if (!e)
        return {};
      std::vector<std::string> symbols;
      symbols.reserve(4); // the params view them
      std::vector<CoopParam> params;
      for (uint32_t w = 3; w < (op == kOpTypeCooperativeMatrixKHR ? 7u : 6u); ++w) {
        if (std::optional<uint32_t> c = constant(inst.word(w))) {
          params.push_back({*c, {}});
          continue;
        }
        symbols.push_back(specSymbol(inst.word(w)));
        if (symbols.back().empty()) {
          error_ = "the cooperative matrix's scope, rows, columns and use must be OpConstants "
                   "or specialization constants";
          return {};
        }
        params.push_back({0, symbols.back()});
      }
      return ctx_.cooperativeMatrix(e, params);
    }
    if (inst.opcode() == grammar::Op::TypeJointMatrixINTEL) {
      // %t = OpTypeJointMatrixINTEL %component %rows %columns %layout %scope, all but the
      // component type OpConstants.
      if (!need(7))
        return {};
      Type e = operand(inst.word(2));
      if (!e)
        return {};
      uint32_t params[4];
      for (uint32_t w = 3; w < 7; ++w) {
        std::optional<uint32_t> c = constant(inst.word(w));
        if (!c) {
          error_ = "the joint matrix's rows, columns, layout and scope must be OpConstants";
          return {};
        }
        params[w - 3] = *c;
      }
      return ctx_.jointMatrix(e, params[0], params[1], params[2], params[3]);
    }
    if (inst.opcode() == grammar::Op::TypeNodePayloadArrayAMDX)
      return nodePayloadArray(inst);
    if (inst.opcode() == grammar::Op::TypeTensorARM) {
      // %t = OpTypeTensorARM %element [%rank [%shape]]: the rank an OpConstant, the shape an
      // OpConstantComposite of rank OpConstants; without a shape every dimension is unknown.
      if (!need(3))
        return {};
      Type e = operand(inst.word(2));
      if (!e)
        return {};
      if (n == 3)
        return ctx_.tensorArm(e, std::nullopt);
      std::optional<uint32_t> rank = constant(inst.word(3));
      if (!rank || *rank == 0 || *rank > 0xFFFF) {
        error_ = "OpTypeTensorARM's rank must be an OpConstant from 1 to 65535";
        return {};
      }
      std::vector<uint32_t> dims(*rank, Type::kDynamicDim);
      if (n > 4) {
        const uint32_t def = m_.defIndex(inst.word(4));
        if (def == kNoIndex || m_.inst(def).opcode() != Op::ConstantComposite ||
            m_.inst(def).wordCount() != 3 + *rank) {
          error_ = "OpTypeTensorARM's shape must be an OpConstantComposite of rank dimensions";
          return {};
        }
        const Instruction shape = m_.inst(def);
        for (uint32_t k = 0; k < *rank; ++k) {
          std::optional<uint32_t> d = constant(shape.word(3 + k));
          if (!d || *d == 0 || *d == Type::kDynamicDim) {
            error_ = "OpTypeTensorARM's dimensions must be positive OpConstants";
            return {};
          }
          dims[k] = *d;
        }
      }
      return ctx_.tensorArm(e, std::span<const uint32_t>(dims));
    }
    if (inst.opcode() == grammar::Op::TypeGraphARM) {
      // %t = OpTypeGraphARM NumInputs %in... %out...: the first NumInputs types are the inputs.
      if (!need(3))
        return {};
      const uint32_t numInputs = inst.word(2);
      if (numInputs > n - 3) {
        error_ = "OpTypeGraphARM has fewer types than its NumInputs";
        return {};
      }
      std::vector<Type> inputs, outputs;
      for (uint32_t w = 3; w < n; ++w) {
        Type t = operand(inst.word(w));
        if (!t)
          return {};
        (w < 3 + numInputs ? inputs : outputs).push_back(t);
      }
      return ctx_.graphArm(inputs, outputs);
    }
    if (inst.opcode() == grammar::Op::TypeVmeImageINTEL) {
      // %t = OpTypeVmeImageINTEL %image: an opaque type whose one operand is an image type.
      if (!need(3))
        return {};
      Type image = operand(inst.word(2));
      if (image && !image.is(TypeKind::Image))
        error_ = "OpTypeVmeImageINTEL's operand must be an image type";
      return image.is(TypeKind::Image) ? ctx_.opaque(op, {}, image) : Type();
    }
    // Any other type whose operands are all literals (enumerants, strings, numbers) is an
    // opaque type: acceleration structures, ray queries, pipes, events, OpTypeOpaque, ...
    bool literalsOnly = true;
    for (const binary::Operand &o : inst.operands())
      if (o.kind != grammar::OperandKind::IdResult &&
          grammar::operandCategory(o.kind) == grammar::OperandCategory::Id)
        literalsOnly = false;
    if (literalsOnly)
      return ctx_.opaque(static_cast<uint32_t>(inst.opcode()), inst.words().subspan(2));
    error_ = std::string(inst.desc()->name) + " has no type in the SPIR-V dialect";
    return {};
  }

  /// The symbol of the specialization constant `id` is (an OpSpecConstant, or an
  /// OpSpecConstantOp the deserializer makes a symbol), or "" where it is none or the importer
  /// was given no symbols.
  std::string specSymbol(uint32_t id) const {
    const uint32_t def = m_.defIndex(id);
    if (!specSymbol_ || def == kNoIndex ||
        (m_.inst(def).opcode() != Op::SpecConstant && m_.inst(def).opcode() != Op::SpecConstantOp))
      return {};
    return specSymbol_(id);
  }

  // %t = OpTypeNodePayloadArrayAMDX %record, with the decorations that are part of the type:
  // the ids of OpDecorateId are read as the values of their constants (a u32 OpConstant, or the
  // OpConstantStringAMDX of the node's name).
  Type nodePayloadArray(const Instruction &inst) {
    if (inst.wordCount() < 3) {
      error_ = "truncated type declaration";
      return {};
    }
    Type payload = operand(inst.word(2));
    if (!payload)
      return {};
    std::vector<MemberDecoration> decorations;
    std::string name;
    Type sharesLimitsWith;
    for (const PayloadDecoration &d : payloadArrays_[inst.resultId()]) {
      const auto which = static_cast<grammar::Decoration>(d.decoration);
      MemberDecoration md{d.decoration, std::nullopt, std::nullopt};
      if (which == grammar::Decoration::PayloadNodeNameAMDX && d.byId) {
        const uint32_t def = m_.defIndex(d.operand);
        if (def == kNoIndex || m_.inst(def).opcode() != Op::ConstantStringAMDX ||
            m_.inst(def).operands().size() < 2) {
          error_ = "PayloadNodeNameAMDX must name an OpConstantStringAMDX";
          return {};
        }
        name = m_.inst(def).stringOperand(m_.inst(def).operands()[1]);
      } else if (which == grammar::Decoration::NodeSharesPayloadLimitsWithAMDX && d.byId) {
        sharesLimitsWith = operand(d.operand);
        if (!sharesLimitsWith)
          return {};
        if (!isNodePayloadArray(sharesLimitsWith)) {
          error_ = "NodeSharesPayloadLimitsWithAMDX must name a node payload array";
          return {};
        }
      } else if (which == grammar::Decoration::PayloadNodeSparseArrayAMDX && !d.byId) {
        // no operand
      } else if (which == grammar::Decoration::NodeMaxPayloadsAMDX ||
                 which == grammar::Decoration::PayloadNodeBaseIndexAMDX ||
                 which == grammar::Decoration::PayloadNodeArraySizeAMDX) {
        md.value = d.byId ? constant(d.operand) : std::nullopt;
        if (!md.value) {
          error_ = decorationName(d.decoration) +
                   " of a node payload array must be an OpDecorateId of a 32-bit OpConstant";
          return {};
        }
      } else {
        error_ = "decoration " + decorationName(d.decoration) +
                 " of a node payload array has no place in its dialect type";
        return {};
      }
      decorations.push_back(md);
    }
    return ctx_.nodePayloadArray(payload, decorations, name, sharesLimitsWith);
  }

  /// The decoration's one operand is a literal string (UserSemantic, UserTypeGOOGLE, ...).
  static bool takesString(uint32_t decoration) {
    const grammar::EnumerantDesc *e =
        grammar::findEnumerant(grammar::OperandKind::Decoration, decoration);
    return e && e->parameters.size() == 1 &&
           e->parameters[0].kind == grammar::OperandKind::LiteralString;
  }

  static std::string decorationName(uint32_t decoration) {
    const grammar::EnumerantDesc *e =
        grammar::findEnumerant(grammar::OperandKind::Decoration, decoration);
    return e ? std::string(e->name) : std::to_string(decoration);
  }

  uint32_t stride(uint32_t id) const {
    auto it = strides_.find(id);
    return it == strides_.end() ? 0 : it->second;
  }

  Type structType(const Instruction &inst) {
    const uint32_t id = inst.resultId();
    if (auto it = unheld_.find(id); it != unheld_.end()) {
      error_ = "decoration " + it->second + " of a struct or its member has operands the " +
               "struct type cannot hold";
      return {};
    }
    std::vector<StructMember> members;
    auto decorated = members_.find(id);
    const std::vector<uint32_t> memberIds =
        continuedOperands(m_, inst, 2, Op::TypeStructContinuedINTEL);
    for (uint32_t k = 0; k < memberIds.size(); ++k) {
      StructMember m;
      m.type = operand(memberIds[k]);
      if (!m.type)
        return {};
      if (decorated != members_.end()) {
        auto it = decorated->second.find(k);
        if (it != decorated->second.end()) {
          m.offset = it->second.offset;
          m.decorations = it->second.decorations;
          // A decoration given twice counts once.
          std::vector<MemberDecoration> unique;
          for (const MemberDecoration &d : m.decorations)
            if (std::find(unique.begin(), unique.end(), d) == unique.end())
              unique.push_back(d);
          // MLIR 16 lists them in the order of its hash map's buckets (64 of them, the
          // decoration times 37), a canonical order that the text comparison relies on.
          auto bucket = [](const MemberDecoration &d) { return (d.decoration * 37u) & 63u; };
          std::stable_sort(unique.begin(), unique.end(),
                           [&](const MemberDecoration &a, const MemberDecoration &b) {
                             return bucket(a) < bucket(b);
                           });
          m.decorations = std::move(unique);
        }
      }
      members.push_back(std::move(m));
    }
    std::vector<MemberDecoration> decos = structDecorations_[id];
    std::sort(decos.begin(), decos.end(), [](const MemberDecoration &a, const MemberDecoration &b) {
      return std::make_pair(a.decoration, a.value) < std::make_pair(b.decoration, b.value);
    });
    decos.erase(std::unique(decos.begin(), decos.end()), decos.end());
    if (!names_.count(id) || names_[id].empty()) {
      // Unnamed: a literal struct, unless a forward pointer already referred to it by a made-up
      // name.
      if (!referencedEarly(id))
        return ctx_.literalStruct(members, decos);
    }
    // A later struct of a name already taken is the same type when its body is the same (as
    // in MLIR); otherwise it keeps its id as a suffix.
    if (auto raw = rawNames_.find(id);
        raw != rawNames_.end() && raw->second != structName(id) && !referencedEarly(id)) {
      Type same = ctx_.identifiedStruct(raw->second);
      if (same.hasBody() && ctx_.setStructBody(same, members, decos))
        return same;
    }
    Type t = ctx_.identifiedStruct(structName(id));
    if (!ctx_.setStructBody(t, members, decos)) {
      error_ = "struct name " + structName(id) + " is taken by another struct";
      return {};
    }
    return t;
  }

  // Whether a pointer declared before the struct (through OpTypeForwardPointer) refers to it:
  // then it is identified, by its name or a made-up one.
  bool referencedEarly(uint32_t id) const { return early_.count(id) != 0; }

  Context &ctx_;
  const Module &m_;
  const std::function<std::string(uint32_t)> &specSymbol_;
  const DecorationIndex *decorations_;
  ModuleTypes &out_;
  std::string error_;
  /// Structs with a decoration of several literals, which their type cannot hold, and its name.
  std::unordered_map<uint32_t, std::string> unheld_;
  std::unordered_map<uint32_t, std::string> names_;
  std::unordered_map<uint32_t, uint32_t> strides_;
  std::unordered_map<uint32_t, std::unordered_map<uint32_t, StructMember>> members_;
  std::unordered_map<uint32_t, std::vector<MemberDecoration>> structDecorations_;
  std::unordered_set<uint32_t> early_;
  std::unordered_map<uint32_t, std::string> rawNames_; ///< OpName of each struct, unsuffixed
  std::unordered_set<uint32_t> structIds_;
  /// A decoration of an OpTypeNodePayloadArrayAMDX: by OpDecorateId (`operand` an id) or by
  /// OpDecorate (`operand` its literal, if any).
  struct PayloadDecoration {
    uint32_t decoration = 0;
    bool byId = false;
    uint32_t operand = 0;
  };
  std::unordered_map<uint32_t, std::vector<PayloadDecoration>> payloadArrays_;
  int forwardDepth_ = 0;
};

Expected<ModuleTypes>
ModuleTypes::import(Context &context, const Module &module,
                    const std::function<std::string(uint32_t)> &specConstantSymbol,
                    const DecorationIndex *decorations) {
  ModuleTypes out;
  ModuleTypesImporter importer(context, module, specConstantSymbol, decorations, out);
  Status s = importer.run();
  if (!s.ok())
    return s.error();
  return out;
}

Type ModuleTypes::type(uint32_t id) const {
  if (id < types_.size())
    return types_[id];
  auto it = above_.find(id);
  return it == above_.end() ? Type() : it->second;
}

} // namespace spire::dialect
