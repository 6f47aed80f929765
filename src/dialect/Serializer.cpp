// spirv.module -> instruction-level module: the design's six serialization transformations
// (docs/notes/mlir_spirv.md R-14.2). Types and constants are emitted on first use into the
// global section, deduplicated where SPIR-V requires it; regions become blocks with merge
// instructions; block arguments become OpPhi.
#include "spire/dialect/Serialization.h"

#include "spire/dialect/ModuleTypes.h"
#include "spire/dialect/Ops.h"
#include "spire/module/Builder.h"
#include "spire/module/Opcodes.h"
#include "spire/support/Half.h"

#include "Naming.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <deque>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace spire::dialect {

namespace {

using grammar::Op;
using grammar::OperandKind;

/// One block of the function being written: its label, its phis (filled as branches to it are
/// written) and its other instructions.
struct OutBlock {
  uint32_t label = 0;
  struct Phi {
    uint32_t type = 0, id = 0;
    std::vector<std::pair<uint32_t, uint32_t>> incoming; ///< (value, predecessor label)
    bool bypassed = false; ///< every predecessor passes one value, used in its place
  };
  std::vector<Phi> phis;
  std::vector<uint32_t> words;
};

class Serializer {
public:
  Serializer(const Operation &module) : module_(module) {}

  Expected<std::vector<uint32_t>> run() {
    if (ops::isWrapper(module_.info()))
      return fail(module_, "is not a SPIR-V op and is not serialized: translate a spirv.module");
    if (&module_.info() != &ops::module())
      return fail(module_, "expected a spirv.module");
    // The wrappers of MLIR's tests (func.func, ...) and the ops of dialects spire does not
    // have (--allow-unregistered-dialect) have no instructions.
    const Operation *other = nullptr;
    walk(const_cast<Operation *>(&module_), [&](Operation *op) {
      if (!other && (ops::isWrapper(op->info()) || ops::isUnregistered(op->info())))
        other = op;
      lines_ |= op->debugLoc() != nullptr;
    });
    if (other && ops::isUnregistered(other->info()))
      return fail(*other, "is an op of a dialect spire does not have (an unregistered op) and is "
                          "not serialized");
    if (other)
      return fail(*other, "is not a SPIR-V op and is not serialized");
    Attribute vce = module_.attr("vce_triple");
    uint32_t version = vce ? vce.version() : grammar::makeVersion(1, 0);
    b_ = std::make_unique<ModuleBuilder>(version);
    if (vce) {
      for (uint32_t c : vce.capabilities()) {
        b_->add(Section::Capability, Op::Capability).literal(c);
        longComposites_ |= c == static_cast<uint32_t>(grammar::Capability::LongCompositesINTEL);
      }
      for (const std::string &e : vce.extensions()) {
        b_->add(Section::Extension, Op::Extension).string(e);
        decorateString_ |=
            e == "SPV_GOOGLE_decorate_string" || e == "SPV_GOOGLE_hlsl_functionality1";
      }
    }
    decorateString_ |= version >= grammar::makeVersion(1, 4);
    Attribute am = module_.attr("addressing_model"), mm = module_.attr("memory_model");
    b_->add(Section::MemoryModel, Op::MemoryModel)
        .literal(am ? am.enumValue() : 0)
        .literal(mm ? mm.enumValue() : 1);
    if (Status st = sourceInstructions(); !st)
      return st.error();
    if (module_.region().empty())
      return finish();
    Block *body = module_.region().front();
    // Symbols first: functions and variables may be named before they are defined.
    for (Operation *op : *body)
      if (Attribute sym = op->attr("sym_name")) {
        symbols_[std::string(sym.str())] = b_->newId();
        symbolOps_[std::string(sym.str())] = op;
      }
    for (Operation *op : *body) {
      Status s = moduleOp(*op);
      if (!s)
        return s.error();
      if (deferredError_)
        return *deferredError_;
    }
    // SPV_ARM_graph: the graph entry points, then the graphs, follow the functions.
    std::vector<uint32_t> &definitions = b_->sectionWords(Section::FunctionDefinition);
    definitions.insert(definitions.end(), graphEntryPoints_.begin(), graphEntryPoints_.end());
    definitions.insert(definitions.end(), graphs_.begin(), graphs_.end());
    return finish();
  }

  Expected<std::vector<uint32_t>> finish() {
    if (lines_)
      placeLines();
    return checkedWords();
  }

  /// The module's words, unless an instruction grew past what its word count can say (65535
  /// words: a struct, constant or composite construct with thousands of members), which would
  /// make the binary unreadable. SPV_INTEL_long_composites splits such instructions (splitInto),
  /// which spire writes where the module declares the LongCompositesINTEL capability.
  Expected<std::vector<uint32_t>> checkedWords() const {
    std::vector<uint32_t> words = b_->words();
    for (size_t i = 5; i < words.size();) {
      uint32_t count = words[i] >> 16;
      if (count == 0) {
        const grammar::InstructionDesc *d = grammar::findInstruction(words[i] & 0xFFFF);
        std::string name =
            d ? std::string(d->name) : "instruction " + std::to_string(words[i] & 0xFFFF);
        return makeError(module_.location(),
                         name + " needs more than 65535 words, more than one instruction holds "
                                "(SPV_INTEL_long_composites' continued instructions split it "
                                "where the module declares the LongCompositesINTEL capability)");
      }
      i += count;
    }
    return words;
  }

private:
  // --- Source lines ---------------------------------------------------------------------------
  //
  // An op's debug location becomes OpLine where the line in effect is another, under SPIR-V's
  // scoping, which the deserializer reads back: a line holds from its OpLine to the next OpLine
  // or OpNoLine or the end of its block, and carries from before a function into it. Where the
  // instructions of ops are written, a mark (two words of an opcode SPIR-V does not have: it
  // and the index of the op's location, 0 for none) goes before the first one; placeLines then
  // walks the module's sections in their final order, drops the marks and writes OpLine, or
  // OpNoLine where an op without a location follows one with, only where an instruction
  // follows and the line in effect differs. Instructions of no op (types, constants, the
  // labels and branches the serializer adds) take the line in effect. Without locations no
  // mark is written, and the words are what they were.

  static constexpr uint32_t kLineMark = 0xFFFF;

  void mark(std::vector<uint32_t> &words, const Operation &op) {
    if (!lines_)
      return;
    uint32_t index = 0;
    if (const DebugLoc *l = op.debugLoc()) {
      auto [it, added] = markIndex_.emplace(l, static_cast<uint32_t>(markLocs_.size()));
      if (added)
        markLocs_.push_back(l);
      index = it->second;
    }
    words.push_back(2u << 16 | kLineMark);
    words.push_back(index);
  }

  void placeLines() {
    const DebugLoc *inEffect = nullptr, *wanted = nullptr;
    bool marked = false;
    for (Section section :
         {Section::Global, Section::FunctionDeclaration, Section::FunctionDefinition}) {
      std::vector<uint32_t> &words = b_->sectionWords(section);
      std::vector<uint32_t> out;
      out.reserve(words.size());
      for (size_t i = 0; i < words.size();) {
        const uint32_t count = std::max<uint32_t>(words[i] >> 16, 1);
        const uint32_t opcode = words[i] & 0xFFFF;
        if (opcode == kLineMark) {
          wanted = markLocs_[words[i + 1]];
          marked = true;
          i += count;
          continue;
        }
        if (marked && wanted != inEffect) {
          if (wanted)
            InstWriter(out, Op::Line)
                .id(stringId(wanted->file))
                .literal(wanted->line)
                .literal(wanted->column);
          else
            InstWriter(out, Op::NoLine);
          inEffect = wanted;
        }
        out.insert(out.end(), words.begin() + i, words.begin() + std::min(words.size(), i + count));
        i += count;
        if (isBlockTerminator(static_cast<Op>(opcode))) {
          inEffect = wanted = nullptr;
          marked = false;
        }
      }
      words = std::move(out);
    }
  }

  /// The module's `spire.debug_source` (OpString, OpSource, OpSourceContinued and
  /// OpSourceExtension, in order: the deserializer's sourceAttributes) and
  /// `spire.module_processed` (OpModuleProcessed).
  Status sourceInstructions() {
    auto bad = [&](std::string why) {
      return Status(makeError(module_.location(), "spirv.module: " + why));
    };
    if (Attribute list = module_.attr("spire.debug_source")) {
      if (!list.is(AttrKind::Array))
        return bad("spire.debug_source must be an array");
      for (Attribute entry : list.elements()) {
        std::span<const Attribute> e =
            entry.is(AttrKind::Array) ? entry.elements() : std::span<const Attribute>();
        auto isText = [&](size_t k) { return k < e.size() && e[k].is(AttrKind::String); };
        const std::string_view what = isText(0) ? e[0].str() : std::string_view();
        if (what == "OpString" && e.size() == 2 && isText(1)) {
          // A string nothing names: its own instruction (strings named by lines, sources and
          // debug instructions are made once per text, by stringId).
          b_->add(Section::DebugSource, Op::String).id(b_->newId()).string(e[1].str());
        } else if (what == "OpSource" && e.size() >= 3 && e.size() <= 5 && isText(1) &&
                   e[2].is(AttrKind::Integer) && (e.size() < 4 || isText(3)) &&
                   (e.size() < 5 || isText(4))) {
          const grammar::EnumerantDesc *language =
              grammar::findEnumerant(OperandKind::SourceLanguage, e[1].str());
          if (!language)
            return bad("spire.debug_source: unknown source language '" + std::string(e[1].str()) +
                       "'");
          const uint32_t file = e.size() >= 4 ? stringId(e[3].str()) : 0;
          auto w = b_->add(Section::DebugSource, Op::Source);
          w.literal(language->value).literal(static_cast<uint32_t>(e[2].bits()));
          if (file)
            w.id(file);
          if (e.size() == 5)
            w.string(e[4].str());
        } else if ((what == "OpSourceContinued" || what == "OpSourceExtension") && e.size() == 2 &&
                   isText(1)) {
          b_->add(Section::DebugSource,
                  what == "OpSourceContinued" ? Op::SourceContinued : Op::SourceExtension)
              .string(e[1].str());
        } else {
          return bad("spire.debug_source: expected [\"OpString\", text], [\"OpSource\", "
                     "language, version, file, text] (file and text optional), "
                     "[\"OpSourceContinued\", text] or [\"OpSourceExtension\", text]");
        }
      }
    }
    if (Attribute list = module_.attr("spire.module_processed")) {
      if (!list.is(AttrKind::Array))
        return bad("spire.module_processed must be an array of strings");
      for (Attribute text : list.elements()) {
        if (!text.is(AttrKind::String))
          return bad("spire.module_processed must be an array of strings");
        b_->add(Section::DebugModuleProcessed, Op::ModuleProcessed).string(text.str());
      }
    }
    return {};
  }

  /// The OpString of `text`, declared once.
  uint32_t stringId(std::string_view text) {
    return declaredOnce(debugStrings_, Section::DebugSource, Op::String, text);
  }

  /// The id of the instruction `op` (OpString, OpConstantStringAMDX) of `text` in `known`, or
  /// of a new one written to `section`.
  uint32_t declaredOnce(std::unordered_map<std::string, uint32_t> &known, Section section, Op op,
                        std::string_view text) {
    auto [it, added] = known.try_emplace(std::string(text), 0);
    if (added) {
      it->second = b_->newId();
      b_->add(section, op).id(it->second).string(text);
    }
    return it->second;
  }

  Diagnostic fail(const Operation &op, std::string message) {
    return makeError(op.location(), std::string(op.name()) + ": " + message);
  }

  /// SPV_INTEL_long_composites: instruction `op` with its `head` words (result type, result id)
  /// and as many of `operands` as fit in 65535 words, then as many `continued` instructions (the
  /// rest of the operands, no result) as they need; appended to `out`.
  static void splitInto(std::vector<uint32_t> &out, Op op, Op continued,
                        std::span<const uint32_t> head, std::span<const uint32_t> operands) {
    constexpr size_t kMaxWords = 0xFFFF;
    size_t n = std::min(operands.size(), kMaxWords - 1 - head.size());
    out.push_back(static_cast<uint32_t>(op) | static_cast<uint32_t>(1 + head.size() + n) << 16);
    out.insert(out.end(), head.begin(), head.end());
    out.insert(out.end(), operands.begin(), operands.begin() + n);
    while (n < operands.size()) {
      size_t m = std::min(operands.size() - n, kMaxWords - 1);
      out.push_back(static_cast<uint32_t>(continued) | static_cast<uint32_t>(1 + m) << 16);
      out.insert(out.end(), operands.begin() + n, operands.begin() + n + m);
      n += m;
    }
  }

  uint32_t symbol(std::string_view name) {
    auto it = symbols_.find(std::string(name));
    return it == symbols_.end() ? 0 : it->second;
  }

  void name(uint32_t id, std::string_view text) {
    b_->add(Section::DebugName, Op::Name).id(id).string(text);
  }

  // --- Types --------------------------------------------------------------------------------

  /// The id of a non-aggregate instruction with these words, declared once.
  /// With `resultType`, the instruction has a result type (the first of `operands`).
  uint32_t unique(Op op, std::vector<uint32_t> operands, uint32_t resultType = 0) {
    std::vector<uint32_t> key{static_cast<uint32_t>(op)};
    key.insert(key.end(), operands.begin(), operands.end());
    auto it = uniqueTypes_.find(key);
    if (it != uniqueTypes_.end())
      return it->second;
    uint32_t id = b_->newId();
    if (resultType)
      b_->add(Section::Global, op)
          .id(resultType)
          .id(id)
          .words(std::span<const uint32_t>(operands).subspan(1));
    else
      b_->add(Section::Global, op).id(id).words(operands);
    uniqueTypes_.emplace(std::move(key), id);
    return id;
  }

  uint32_t u32Type() { return unique(Op::TypeInt, {32, 0}); }
  uint32_t u32Constant(uint32_t v) { return word32Constant(u32Type(), v); }
  /// The OpConstant of a 32-bit type `t` whose literal is `v`, declared once: an enumerant's
  /// constant (a scope, a TOSA accumulator type) and a spirv.Constant of the same value are one.
  uint32_t word32Constant(uint32_t t, uint32_t v) {
    std::vector<uint32_t> key{0xFFFFFFFFu, t, v};
    auto it = uniqueTypes_.find(key);
    if (it != uniqueTypes_.end())
      return it->second;
    uint32_t id = b_->newId();
    b_->add(Section::Global, Op::Constant).id(t).id(id).literal(v);
    uniqueTypes_.emplace(std::move(key), id);
    return id;
  }

  /// OpConstantTrue or OpConstantFalse, declared once.
  uint32_t boolConstant(bool v) {
    const uint32_t t = unique(Op::TypeBool, {});
    const Op op = v ? Op::ConstantTrue : Op::ConstantFalse;
    // constantOp's key: the words without the result id.
    std::vector<uint32_t> key{0xFFFFFFFDu, 3u << 16 | uint32_t(op), t};
    auto it = uniqueTypes_.find(key);
    if (it != uniqueTypes_.end())
      return it->second;
    const uint32_t id = b_->newId();
    b_->add(Section::Global, op).id(t).id(id);
    uniqueTypes_.emplace(std::move(key), id);
    return id;
  }

  /// The OpConstantStringAMDX of `text`, declared once.
  uint32_t stringConstant(std::string_view text) {
    return declaredOnce(strings_, Section::Global, Op::ConstantStringAMDX, text);
  }

  /// An OpTypeNodePayloadArrayAMDX: a type of its own for each set of decorations, which
  /// OpDecorateId gives with constants (the node's name an OpConstantStringAMDX).
  uint32_t nodePayloadArray(Type t) {
    const uint32_t record = type(t.elementType());
    // The constants come first: an OpDecorateId's operands precede its target.
    std::vector<uint32_t> operands;
    for (const MemberDecoration &d : t.structDecorations())
      operands.push_back(d.decoration == uint32_t(grammar::Decoration::PayloadNodeNameAMDX)
                             ? stringConstant(t.nodeName())
                         : d.decoration ==
                                 uint32_t(grammar::Decoration::NodeSharesPayloadLimitsWithAMDX)
                             ? type(t.sharesPayloadLimitsWith())
                         : d.value ? u32Constant(*d.value)
                                   : 0);
    const uint32_t id = b_->newId();
    b_->add(Section::Global, Op::TypeNodePayloadArrayAMDX).id(id).id(record);
    for (size_t k = 0; k < operands.size(); ++k) {
      const uint32_t decoration = t.structDecorations()[k].decoration;
      if (operands[k])
        b_->add(Section::Annotation, Op::DecorateId).id(id).literal(decoration).id(operands[k]);
      else
        decorate(id, decoration);
    }
    return id;
  }

  void decorate(uint32_t id, uint32_t decoration, std::vector<uint32_t> operands = {}) {
    b_->add(Section::Annotation, Op::Decorate).id(id).literal(decoration).words(operands);
  }

  /// A decoration whose operand is a literal string (UserSemantic, UserTypeGOOGLE, ...).
  void decorateWithString(uint32_t id, uint32_t decoration, std::string_view text) {
    b_->add(Section::Annotation, decorateString_ ? Op::DecorateString : Op::Decorate)
        .id(id)
        .literal(decoration)
        .string(text);
  }

  /// The id of the specialization constant a type names (an array's length, a cooperative
  /// matrix's operand), declared before the type.
  uint32_t typeSymbol(std::string_view name) {
    auto op = symbolOps_.find(std::string(name));
    if (op == symbolOps_.end()) {
      if (!deferredError_)
        deferredError_ = fail(module_, "a type names @" + std::string(name) +
                                           ", which the module does not define");
      return 0;
    }
    if (!declared_.count(op->second))
      if (Status s = moduleOp(*op->second); !s && !deferredError_)
        deferredError_ = s.error();
    return symbol(name);
  }

  uint32_t type(Type t) {
    auto it = typeIds_.find(t.opaque());
    if (it != typeIds_.end())
      return it->second;
    uint32_t id = 0;
    switch (t.kind()) {
    case TypeKind::None:
      id = unique(Op::TypeVoid, {});
      break;
    case TypeKind::Integer:
      id = t.width() == 1 ? unique(Op::TypeBool, {})
                          : unique(Op::TypeInt, {t.width(), t.signedness() == Signedness::Signed});
      break;
    case TypeKind::Float:
      if (std::optional<uint32_t> encoding = t.fpEncoding())
        id = unique(Op::TypeFloat, {t.width(), *encoding});
      else
        id = unique(Op::TypeFloat, {t.width()});
      break;
    case TypeKind::Vector:
      id = unique(Op::TypeVector, {type(t.elementType()), t.count()});
      break;
    case TypeKind::Matrix:
      id = unique(Op::TypeMatrix, {type(t.elementType()), t.count()});
      break;
    case TypeKind::Sampler:
      id = unique(Op::TypeSampler, {});
      break;
    case TypeKind::SampledImage:
      id = unique(Op::TypeSampledImage, {type(t.elementType())});
      break;
    case TypeKind::Image: {
      const ImageInfo &i = t.image();
      std::vector<uint32_t> words{type(i.sampledType), i.dim,   i.depth, i.arrayed, i.ms,
                                  i.sampled,           i.format};
      if (i.access != ~0u)
        words.push_back(i.access);
      id = unique(Op::TypeImage, words);
      break;
    }
    case TypeKind::Array: {
      uint32_t elem = type(t.elementType());
      uint32_t len =
          t.lengthSymbol().empty() ? u32Constant(t.count()) : typeSymbol(t.lengthSymbol());
      if (t.stride()) {
        id = b_->newId();
        b_->add(Section::Global, Op::TypeArray).id(id).id(elem).id(len);
        decorate(id, static_cast<uint32_t>(grammar::Decoration::ArrayStride), {t.stride()});
      } else {
        id = unique(Op::TypeArray, {elem, len});
      }
      break;
    }
    case TypeKind::RuntimeArray: {
      uint32_t elem = type(t.elementType());
      if (t.stride()) {
        id = b_->newId();
        b_->add(Section::Global, Op::TypeRuntimeArray).id(id).id(elem);
        decorate(id, static_cast<uint32_t>(grammar::Decoration::ArrayStride), {t.stride()});
      } else {
        id = unique(Op::TypeRuntimeArray, {elem});
      }
      break;
    }
    case TypeKind::Pointer: {
      Type pointee = t.elementType();
      if (pointee.is(TypeKind::Struct) && inProgress_.count(pointee.opaque())) {
        // A pointer to a struct being declared: forward-declared now, declared after it.
        id = b_->newId();
        b_->add(Section::Global, Op::TypeForwardPointer).id(id).literal(t.storageClass());
        if (t.stride())
          decorate(id, static_cast<uint32_t>(grammar::Decoration::ArrayStride), {t.stride()});
        pendingPointers_.push_back({id, t});
        typeIds_[t.opaque()] = id;
        return id;
      }
      uint32_t pointeeId = type(pointee);
      // Declaring the pointee may have declared this pointer (forward, from inside it).
      if (auto again = typeIds_.find(t.opaque()); again != typeIds_.end())
        return again->second;
      if (t.stride()) {
        // A decorated pointer type is a type of its own.
        id = b_->newId();
        b_->add(Section::Global, Op::TypePointer).id(id).literal(t.storageClass()).id(pointeeId);
        decorate(id, static_cast<uint32_t>(grammar::Decoration::ArrayStride), {t.stride()});
      } else {
        id = unique(Op::TypePointer, {t.storageClass(), pointeeId});
      }
      break;
    }
    case TypeKind::Struct: {
      inProgress_.insert(t.opaque());
      std::vector<uint32_t> members;
      for (const StructMember &m : t.members())
        members.push_back(type(m.type));
      inProgress_.erase(t.opaque());
      id = b_->newId();
      if (longComposites_ && members.size() + 2 > 0xFFFF)
        splitInto(b_->sectionWords(Section::Global), Op::TypeStruct, Op::TypeStructContinuedINTEL,
                  std::span<const uint32_t>(&id, 1), members);
      else
        b_->add(Section::Global, Op::TypeStruct).id(id).words(members);
      if (t.isIdentified())
        name(id, t.name());
      for (uint32_t k = 0; k < t.members().size(); ++k) {
        const StructMember &m = t.members()[k];
        if (m.offset)
          b_->add(Section::Annotation, Op::MemberDecorate)
              .id(id)
              .literal(k)
              .literal(static_cast<uint32_t>(grammar::Decoration::Offset))
              .literal(*m.offset);
        for (const MemberDecoration &d : m.decorations) {
          auto w = b_->add(Section::Annotation, d.text && decorateString_ ? Op::MemberDecorateString
                                                                          : Op::MemberDecorate);
          w.id(id).literal(k).literal(d.decoration);
          if (d.value)
            w.literal(*d.value);
          else if (d.text)
            w.string(*d.text);
        }
      }
      for (const MemberDecoration &d : t.structDecorations()) {
        if (d.text)
          decorateWithString(id, d.decoration, *d.text);
        else
          decorate(id, d.decoration,
                   d.value ? std::vector<uint32_t>{*d.value} : std::vector<uint32_t>{});
      }
      typeIds_[t.opaque()] = id;
      // Pointers to this struct that were forward-declared inside it.
      for (auto p = pendingPointers_.begin(); p != pendingPointers_.end();) {
        if (p->type.elementType() == t) {
          b_->add(Section::Global, Op::TypePointer)
              .id(p->id)
              .literal(p->type.storageClass())
              .id(id);
          p = pendingPointers_.erase(p);
        } else {
          ++p;
        }
      }
      return id;
    }
    case TypeKind::Function: {
      std::vector<uint32_t> words;
      words.push_back(t.results().empty() ? voidId() : type(t.results()[0]));
      for (Type in : t.inputs())
        words.push_back(type(in));
      id = unique(Op::TypeFunction, words);
      break;
    }
    case TypeKind::Opaque: {
      if (t.opcode() == uint32_t(Op::TypeNodePayloadArrayAMDX)) {
        id = nodePayloadArray(t);
        break;
      }
      // The type operand (OpTypeVmeImageINTEL's image type) is the only operand of those that
      // have one.
      std::vector<uint32_t> words(t.words().begin(), t.words().end());
      if (t.elementType())
        words.insert(words.begin(), type(t.elementType()));
      id = unique(static_cast<Op>(t.opcode()), words);
      break;
    }
    case TypeKind::CooperativeMatrix: {
      // Scope, rows, columns and (KHR) use: constants, or specialization constants.
      std::vector<uint32_t> words{type(t.elementType())};
      for (CoopOperand o :
           {CoopOperand::Scope, CoopOperand::Rows, CoopOperand::Columns, CoopOperand::Use}) {
        if (o == CoopOperand::Use && !t.hasUse())
          break;
        CoopParam p = t.coopParam(o);
        words.push_back(p.symbol.empty() ? u32Constant(p.value) : typeSymbol(p.symbol));
      }
      id = unique(
          static_cast<Op>(t.hasUse() ? kOpTypeCooperativeMatrixKHR : kOpTypeCooperativeMatrixNV),
          words);
      break;
    }
    case TypeKind::JointMatrix:
      // The component type, then rows, columns, layout and scope as 32-bit constants.
      id = unique(Op::TypeJointMatrixINTEL,
                  {type(t.elementType()), u32Constant(t.count()), u32Constant(t.columns()),
                   u32Constant(t.matrixLayout()), u32Constant(t.scope())});
      break;
    case TypeKind::TensorArm: {
      // The element type, then the rank and the shape as constants: the shape (an array of
      // rank 32-bit integers) only when every dimension is known, the rank only when ranked.
      std::vector<uint32_t> words{type(t.elementType())};
      if (t.count() != Type::kUnranked) {
        words.push_back(u32Constant(t.count()));
        std::span<const uint32_t> shape = t.shape();
        if (std::find(shape.begin(), shape.end(), Type::kDynamicDim) == shape.end()) {
          uint32_t arrayType = unique(Op::TypeArray, {u32Type(), u32Constant(t.count())});
          std::vector<uint32_t> dims{arrayType};
          for (uint32_t d : shape)
            dims.push_back(u32Constant(d));
          words.push_back(unique(Op::ConstantComposite, dims, arrayType));
        }
      }
      id = unique(Op::TypeTensorARM, words);
      break;
    }
    case TypeKind::Tensor:
      // MLIR's builtin tensor types only dense attributes (of constants of SPIR-V types).
      if (!deferredError_)
        deferredError_ = fail(module_, "type " + toString(t) + " is not a SPIR-V type");
      break;
    case TypeKind::GraphArm: {
      // NumInputs, then the inputs' and the outputs' types.
      std::vector<uint32_t> words{static_cast<uint32_t>(t.inputs().size())};
      for (Type in : t.inputs())
        words.push_back(type(in));
      for (Type out : t.results())
        words.push_back(type(out));
      id = unique(Op::TypeGraphARM, words);
      break;
    }
    }
    typeIds_[t.opaque()] = id;
    return id;
  }

  // --- Constants ----------------------------------------------------------------------------

  Expected<uint32_t> constant(Attribute value, Type t, const Operation &at) {
    std::vector<uint32_t> key{0xFFFFFFFEu, type(t)};
    uint64_t bits = reinterpret_cast<uintptr_t>(value.storage());
    key.push_back(static_cast<uint32_t>(bits));
    key.push_back(static_cast<uint32_t>(bits >> 32));
    auto it = uniqueTypes_.find(key);
    if (it != uniqueTypes_.end())
      return it->second;
    uint32_t typeId = type(t);
    uint32_t id = 0;
    if (t.is(TypeKind::Sampler) && value.is(AttrKind::Array))
      return constantSampler(value, typeId, at);
    switch (value.kind()) {
    case AttrKind::Undef:
      return unique(Op::Undef, {typeId}, typeId);
    case AttrKind::Null:
      return unique(Op::ConstantNull, {typeId}, typeId);
    case AttrKind::Bool:
      id = b_->newId();
      b_->add(Section::Global, value.boolValue() ? Op::ConstantTrue : Op::ConstantFalse)
          .id(typeId)
          .id(id);
      break;
    case AttrKind::Integer: {
      if (t.isBool()) {
        id = b_->newId();
        b_->add(Section::Global, value.bits() ? Op::ConstantTrue : Op::ConstantFalse)
            .id(typeId)
            .id(id);
        break;
      }
      // Narrow signed integers are sign-extended to the word, others zero-extended.
      uint64_t v = t.signedness() == Signedness::Signed ? static_cast<uint64_t>(value.intValue())
                                                        : value.bits();
      if (t.width() == 32) {
        id = word32Constant(typeId, static_cast<uint32_t>(v));
        break;
      }
      id = b_->newId();
      auto w = b_->add(Section::Global, Op::Constant);
      w.id(typeId).id(id);
      if (t.width() > 32)
        w.literal64(v);
      else
        w.literal(static_cast<uint32_t>(v));
      break;
    }
    case AttrKind::Float: {
      id = b_->newId();
      auto w = b_->add(Section::Global, Op::Constant);
      w.id(typeId).id(id);
      const uint64_t bits = bitsOfFloat(t, value.floatValue());
      if (t.width() == 64)
        w.literal64(bits);
      else
        w.literal(static_cast<uint32_t>(bits));
      break;
    }
    case AttrKind::Dense:
    case AttrKind::Array: {
      std::vector<uint32_t> parts;
      std::span<const Attribute> elems = value.elements();
      // One instruction holds at most 65535 words: a larger composite is written as the
      // OpConstantNull it came from when it is all zeros (a null structure holding a long array
      // reads back as its explicit value), and is an error otherwise.
      const bool split = elems.size() + 3 > 0xFFFF && longComposites_;
      if (elems.size() + 3 > 0xFFFF && !split) {
        if (isZero(value))
          return unique(Op::ConstantNull, {typeId}, typeId);
        return fail(at, "a composite constant of " + std::to_string(elems.size()) +
                            " constituents does not fit in one instruction (65532 at most)");
      }
      for (size_t k = 0; k < elems.size(); ++k) {
        Type et = elementType(t, static_cast<uint32_t>(k));
        if (!et)
          return fail(at, "constant has more elements than its type");
        Expected<uint32_t> e = constant(elems[k], et, at);
        if (!e)
          return e;
        parts.push_back(*e);
      }
      id = b_->newId();
      if (split) {
        const uint32_t head[] = {typeId, id};
        splitInto(b_->sectionWords(Section::Global), Op::ConstantComposite,
                  Op::ConstantCompositeContinuedINTEL, head, parts);
      } else {
        b_->add(Section::Global, Op::ConstantComposite).id(typeId).id(id).words(parts);
      }
      break;
    }
    default:
      return fail(at, "constant value of a kind SPIR-V cannot encode");
    }
    uniqueTypes_.emplace(std::move(key), id);
    return id;
  }

  /// Whether a constant value is all zeros (false, 0, +0.0, null), what OpConstantNull gives.
  static bool isZero(Attribute v) {
    switch (v.kind()) {
    case AttrKind::Null:
      return true;
    case AttrKind::Bool:
      return !v.boolValue();
    case AttrKind::Integer:
      return v.bits() == 0;
    case AttrKind::Float:
      return v.floatValue() == 0.0 && !std::signbit(v.floatValue());
    case AttrKind::Dense:
    case AttrKind::Array:
      for (Attribute e : v.elements())
        if (!isZero(e))
          return false;
      return true;
    default:
      return false;
    }
  }

  /// OpConstantSampler from [addressing mode, normalized, filter mode], declared once.
  Expected<uint32_t> constantSampler(Attribute value, uint32_t typeId, const Operation &at) {
    std::span<const Attribute> e = value.elements();
    if (e.size() != 3 || !e[0].is(AttrKind::Enum) || !e[1].is(AttrKind::Integer) ||
        !e[2].is(AttrKind::Enum))
      return fail(at, "a sampler constant is [addressing mode, normalized, filter mode]");
    return unique(Op::ConstantSampler,
                  {typeId, e[0].enumValue(), static_cast<uint32_t>(e[1].bits()), e[2].enumValue()},
                  typeId);
  }

  static Type elementType(Type t, uint32_t k) {
    switch (t.kind()) {
    case TypeKind::CooperativeMatrix:
      return k == 0 ? t.elementType() : Type();
    case TypeKind::Vector:
    case TypeKind::Array:
    case TypeKind::Matrix:
      return k < t.count() ? t.elementType() : Type();
    case TypeKind::Struct:
      return k < t.members().size() ? t.members()[k].type : Type();
    case TypeKind::TensorArm:
      // A tensor of rank 1 holds its elements (one of a higher rank, tensors of the rank below,
      // which a flat dense value does not give).
      return t.count() == 1 && k < t.shape()[0] ? t.elementType() : Type();
    default:
      return {};
    }
  }

  // --- Decorations from attributes ----------------------------------------------------------

  /// The number of a decoration no grammar names, as deserialization spells it
  /// (`decoration_5999`: what GL_EXT_spirv_intrinsics lets a shader write); its operands are
  /// literal words.
  static std::optional<uint32_t> unknownDecoration(std::string_view name) {
    constexpr std::string_view prefix = "decoration_";
    if (!name.starts_with(prefix) || name.size() == prefix.size() ||
        name.size() > prefix.size() + 10)
      return std::nullopt;
    uint64_t n = 0;
    for (char c : name.substr(prefix.size())) {
      if (c < '0' || c > '9')
        return std::nullopt;
      n = n * 10 + uint64_t(c - '0');
    }
    if (n > 0xFFFFFFFFu || grammar::findEnumerant(OperandKind::Decoration, uint32_t(n)))
      return std::nullopt;
    return uint32_t(n);
  }

  /// Decorations for the attributes of `op` that are not part of its encoding.
  Status decorations(const Operation &op, uint32_t id, std::span<const std::string_view> skip) {
    return decorations(op, op.attributes(), id, skip);
  }

  Status decorations(const Operation &op, std::span<const NamedAttribute> attrs, uint32_t id,
                     std::span<const std::string_view> skip) {
    for (const NamedAttribute &a : attrs) {
      bool skipped = encodesOperand(op.info(), a.name);
      for (std::string_view s : skip)
        skipped |= a.name == s;
      if (skipped)
        continue;
      // Argument attributes carry the dialect's prefix; spirv.decoration names the decoration.
      std::string_view name = a.name;
      if (name == "spirv.decoration" && a.attr().is(AttrKind::Enum)) {
        decorate(id, a.attr().enumValue());
        continue;
      }
      if (name.starts_with("spirv."))
        name.remove_prefix(6);
      if (name == "linkage_attributes") { // also on a parameter, which SPIR-V allows
        Attribute v = a.attr();
        if (v.is(AttrKind::LinkageAttributes))
          b_->add(Section::Annotation, Op::Decorate)
              .id(id)
              .literal(static_cast<uint32_t>(grammar::Decoration::LinkageAttributes))
              .string(v.str())
              .literal(v.enumValue());
        continue;
      }
      std::optional<uint32_t> number = decorationNamed(name);
      if (!number)
        number = unknownDecoration(name);
      if (!number)
        continue; // not a decoration: an attribute of the dialect only
      Attribute v = a.attr();
      uint32_t d = *number;
      const grammar::EnumerantDesc *desc = grammar::findEnumerant(OperandKind::Decoration, d);
      bool takesIds =
          desc && !desc->parameters.empty() &&
          grammar::operandCategory(desc->parameters[0].kind) == grammar::OperandCategory::Id;
      if (takesIds) {
        // OpDecorateId: the values are constants.
        std::vector<uint32_t> ids;
        std::vector<Attribute> values;
        if (v.is(AttrKind::Array))
          values.assign(v.elements().begin(), v.elements().end());
        else
          values.push_back(v);
        for (Attribute c : values) {
          if (c.is(AttrKind::SymbolRef)) {
            ids.push_back(symbol(c.str()));
            continue;
          }
          if (!c.type())
            return fail(op, "decoration " + std::string(a.name) + " needs typed constants");
          Expected<uint32_t> cid = constant(c, c.type(), op);
          if (!cid)
            return cid.error();
          ids.push_back(*cid);
        }
        b_->add(Section::Annotation, Op::DecorateId).id(id).literal(d).words(ids);
        continue;
      }
      if (d == static_cast<uint32_t>(grammar::Decoration::BuiltIn) && v.is(AttrKind::String)) {
        const grammar::EnumerantDesc *e = grammar::findEnumerant(OperandKind::BuiltIn, v.str());
        if (!e)
          return fail(op, "unknown built-in " + std::string(v.str()));
        decorate(id, d, {e->value});
      } else if (v.is(AttrKind::String)) {
        decorateWithString(id, d, v.str());
      } else if (v.is(AttrKind::Integer)) {
        decorate(id, d, {static_cast<uint32_t>(v.bits())});
      } else if (v.is(AttrKind::Array)) {
        // Several literals of one decoration, or (for a decoration of at most one parameter, or
        // an array of arrays) one value per repeated decoration. A decoration the grammar does
        // not know takes the array as its literals.
        size_t params = desc ? desc->parameters.size() : v.elements().size() + 1;
        bool repeated =
            params <= 1 || (!v.elements().empty() && v.elements().front().is(AttrKind::Array));
        std::vector<Attribute> each;
        if (repeated)
          each.assign(v.elements().begin(), v.elements().end());
        else
          each.push_back(v);
        for (Attribute one : each) {
          if (one.is(AttrKind::String)) {
            decorateWithString(id, d, one.str());
            continue;
          }
          std::vector<uint32_t> words;
          std::vector<Attribute> parts;
          if (one.is(AttrKind::Array))
            parts.assign(one.elements().begin(), one.elements().end());
          else if (!one.is(AttrKind::Unit))
            parts.push_back(one);
          if (!parts.empty() && std::all_of(parts.begin(), parts.end(),
                                            [](Attribute e) { return e.is(AttrKind::String); })) {
            // Several strings of one decoration (MergeINTEL "name" "direction").
            auto w =
                b_->add(Section::Annotation, decorateString_ ? Op::DecorateString : Op::Decorate);
            w.id(id).literal(d);
            for (Attribute e : parts)
              w.string(e.str());
            continue;
          }
          for (Attribute e : parts)
            words.push_back(static_cast<uint32_t>(e.is(AttrKind::Enum) ? e.enumValue() : e.bits()));
          decorate(id, d, words);
        }
      } else if (v.is(AttrKind::Enum)) {
        decorate(id, d, {v.enumValue()});
      } else {
        decorate(id, d);
      }
    }
    return {};
  }

  // --- Module-level ops ---------------------------------------------------------------------

  Status moduleOp(const Operation &op) {
    // A spec constant an array type needed is declared already.
    if (!declared_.insert(&op).second)
      return {};
    const OpInfo *info = &op.info();
    if (info == &ops::globalVariable()) {
      uint32_t id = symbol(op.attr("sym_name").str());
      Attribute t = op.attr("type");
      if (!t || !t.type().is(TypeKind::Pointer))
        return fail(op, "needs a pointer type");
      uint32_t typeId = type(t.type());
      uint32_t init = 0;
      if (Attribute i = op.attr("initializer")) {
        if (i.is(AttrKind::SymbolRef))
          init = symbol(i.str());
        else {
          Expected<uint32_t> c = constant(i, t.type().elementType(), op);
          if (!c)
            return c.error();
          init = *c;
        }
      }
      {
        // Closed before the decorations: an id decoration's constant (AlignmentId 16) is
        // declared in the section the variable is written to.
        mark(b_->sectionWords(Section::Global), op);
        auto w = b_->add(Section::Global, Op::Variable);
        w.id(typeId).id(id).literal(t.type().storageClass());
        if (init)
          w.id(init);
      }
      name(id, op.attr("sym_name").str());
      std::string_view skip[] = {"sym_name", "type", "initializer"};
      return decorations(op, id, skip);
    }
    if (info == &ops::specConstant()) {
      uint32_t id = symbol(op.attr("sym_name").str());
      Attribute v = op.attr("default_value");
      if (!v)
        return fail(op, "needs a default_value");
      // Type ids first: declaring a type appends to the section being written.
      if (v.is(AttrKind::Bool)) {
        uint32_t boolId = unique(Op::TypeBool, {});
        mark(b_->sectionWords(Section::Global), op);
        b_->add(Section::Global, v.boolValue() ? Op::SpecConstantTrue : Op::SpecConstantFalse)
            .id(boolId)
            .id(id);
      } else {
        uint32_t typeId = type(v.type());
        mark(b_->sectionWords(Section::Global), op);
        auto w = b_->add(Section::Global, Op::SpecConstant);
        w.id(typeId).id(id);
        scalarWords(v, w);
      }
      name(id, op.attr("sym_name").str());
      if (Attribute sid = op.attr("spec_id"))
        decorate(id, static_cast<uint32_t>(grammar::Decoration::SpecId),
                 {static_cast<uint32_t>(sid.bits())});
      return {};
    }
    if (info == &ops::specConstantComposite()) {
      uint32_t id = symbol(op.attr("sym_name").str());
      std::vector<uint32_t> parts;
      Type compositeType = op.attr("type").type();
      uint32_t k = 0;
      for (Attribute c : op.attr("constituents").elements()) {
        if (c.is(AttrKind::SymbolRef)) {
          parts.push_back(symbol(c.str()));
        } else {
          Expected<uint32_t> cid = constant(c, elementType(compositeType, k), op);
          if (!cid)
            return cid.error();
          parts.push_back(*cid);
        }
        ++k;
      }
      uint32_t typeId = type(compositeType);
      mark(b_->sectionWords(Section::Global), op);
      b_->add(Section::Global, Op::SpecConstantComposite).id(typeId).id(id).words(parts);
      name(id, op.attr("sym_name").str());
      std::string_view skip[] = {"sym_name", "type", "constituents"};
      return decorations(op, id, skip);
    }
    if (info == &ops::specConstantOperationSymbol())
      return specConstantOperationSymbol(op);
    if (info == &ops::nonSemanticGlobal())
      return nonSemanticGlobal(op);
    if (info == &ops::func())
      return function(op);
    if (info == &ops::graph())
      return graph(op);
    if (info == &ops::graphEntryPoint()) {
      Attribute fn = op.attr("fn"), iface = op.attr("interface");
      std::vector<uint32_t> ids{symbol(fn.str())};
      if (iface)
        for (Attribute v : iface.elements())
          ids.push_back(symbol(v.str()));
      for (size_t k = 0; k < ids.size(); ++k)
        if (!ids[k])
          return fail(op, "names @" + std::string(k ? iface.elements()[k - 1].str() : fn.str()) +
                              ", which the module does not define");
      InstWriter(graphEntryPoints_, Op::GraphEntryPointARM)
          .id(ids[0])
          .string(fn.str())
          .words(std::span<const uint32_t>(ids).subspan(1));
      return {};
    }
    if (info == &ops::entryPoint()) {
      Attribute fn = op.attr("fn");
      Attribute nameAttr = op.attr("name");
      auto w = b_->add(Section::EntryPoint, Op::EntryPoint);
      w.literal(op.attr("execution_model").enumValue())
          .id(symbol(fn.str()))
          .string(nameAttr ? nameAttr.str() : fn.str());
      if (Attribute iface = op.attr("interface"))
        for (Attribute v : iface.elements())
          w.id(symbol(v.str()));
      return {};
    }
    if (info == &ops::executionMode()) {
      Attribute values = op.attr("values");
      // Modes whose parameters are ids (LocalSizeId, ...) take constants.
      bool ids = false;
      if (const grammar::EnumerantDesc *e = grammar::findEnumerant(
              OperandKind::ExecutionMode, op.attr("execution_mode").enumValue()))
        for (const grammar::OperandDesc &p : e->parameters)
          ids |= grammar::operandCategory(p.kind) == grammar::OperandCategory::Id;
      std::vector<uint32_t> words;
      if (values)
        for (Attribute v : values.elements()) {
          if (ids && v.is(AttrKind::SymbolRef)) {
            words.push_back(symbol(v.str()));
          } else if (ids && v.is(AttrKind::String)) {
            words.push_back(stringConstant(v.str())); // a node's name (SharesInputWithAMDX)
          } else if (ids && v.is(AttrKind::Bool)) {
            words.push_back(boolConstant(v.boolValue())); // IsApiEntryAMDX
          } else if (ids) {
            Expected<uint32_t> c = constant(v, v.type(), op);
            if (!c)
              return c.error();
            words.push_back(*c);
          } else {
            words.push_back(static_cast<uint32_t>(v.bits()));
          }
        }
      b_->add(Section::ExecutionMode, ids ? Op::ExecutionModeId : Op::ExecutionMode)
          .id(symbol(op.attr("fn").str()))
          .literal(op.attr("execution_mode").enumValue())
          .words(words);
      return {};
    }
    return fail(op, "not an op of a spirv.module's body");
  }

  template <class W> void scalarWords(Attribute v, W &w) {
    Type t = v.type();
    if (v.is(AttrKind::Float)) {
      const uint64_t bits = bitsOfFloat(t, v.floatValue());
      if (t.width() == 64)
        w.literal64(bits);
      else
        w.literal(static_cast<uint32_t>(bits));
    } else if (t.width() > 32) {
      w.literal64(static_cast<uint64_t>(v.intValue()));
    } else {
      w.literal(static_cast<uint32_t>(
          t.signedness() == Signedness::Signed ? static_cast<uint64_t>(v.intValue()) : v.bits()));
    }
  }

  // --- Functions ----------------------------------------------------------------------------

  uint32_t valueId(Value v) {
    detail::Scratch &slot = v.impl()->scratch;
    if (slot.epoch == epoch_)
      return static_cast<uint32_t>(slot.value);
    uint32_t id = b_->newId();
    slot = {epoch_, static_cast<int32_t>(id)};
    return id;
  }

  uint32_t labelOf(const Block *b) {
    auto it = labels_.find(b);
    if (it != labels_.end())
      return it->second;
    uint32_t id = b_->newId();
    labels_.emplace(b, id);
    return id;
  }

  /// The index of the output block of IR block `b`, created with its phis on first reference.
  size_t outBlock(const Block *b) {
    auto it = outIndex_.find(b);
    if (it != outIndex_.end())
      return it->second;
    outIndex_.emplace(b, out_.size());
    OutBlock &o = out_.emplace_back();
    o.label = labelOf(b);
    for (uint32_t a = 0; b != functionEntry_ && a < b->numArguments(); ++a) {
      OutBlock::Phi phi;
      phi.type = type(b->argument(a).type());
      phi.id = valueId(b->argument(a));
      o.phis.push_back(std::move(phi));
    }
    return out_.size() - 1;
  }

  /// A new output block of no IR block: a label and no phis.
  size_t freshBlock() {
    OutBlock &o = out_.emplace_back();
    o.label = b_->newId();
    return out_.size() - 1;
  }

  Status function(const Operation &fn) {
    uint32_t id = symbol(fn.attr("sym_name").str());
    Attribute ft = fn.attr("function_type");
    if (!ft || !ft.type().is(TypeKind::Function))
      return fail(fn, "needs a function_type");
    Type fnType = ft.type();
    Type result = fnType.results().empty() ? Type() : fnType.results()[0];
    std::vector<uint32_t> &words = b_->sectionWords(
        fn.region().empty() ? Section::FunctionDeclaration : Section::FunctionDefinition);
    Attribute control = fn.attr("function_control");
    const uint32_t resultTypeId = result ? type(result) : voidId(), fnTypeId = type(fnType);
    mark(words, fn);
    InstWriter(words, Op::Function)
        .id(resultTypeId)
        .id(id)
        .literal(control ? control.enumValue() : 0)
        .id(fnTypeId);
    name(id, fn.attr("sym_name").str());
    std::string_view skip[] = {"sym_name", "function_type", "function_control", "arg_attrs",
                               "res_attrs"};
    if (Status s = decorations(fn, id, skip); !s)
      return s;
    if (fn.region().empty()) {
      for (Type in : fnType.inputs())
        InstWriter(words, Op::FunctionParameter).id(type(in)).id(b_->newId());
      InstWriter(words, Op::FunctionEnd);
      return {};
    }
    Block *entry = fn.region().front();
    functionEntry_ = entry;
    variables_.clear();
    Attribute argAttrs = fn.attr("arg_attrs");
    for (uint32_t a = 0; a < entry->numArguments(); ++a) {
      uint32_t paramId = valueId(entry->argument(a));
      InstWriter(words, Op::FunctionParameter).id(type(entry->argument(a).type())).id(paramId);
      if (argAttrs && argAttrs.is(AttrKind::Array) && a < argAttrs.elements().size() &&
          argAttrs.elements()[a].is(AttrKind::Dictionary))
        if (Status s = decorations(fn, argAttrs.elements()[a].entries(), paramId, {}); !s)
          return s;
    }
    out_.clear();
    outIndex_.clear();
    order_.clear();
    reachable_.clear();
    fallThrough_.clear();
    continueIn_.clear();
    afterLoopHeader_.clear();
    markReachable(fn.region());
    findFallThroughs(fn.region(), {});
    for (Block *b : fn.region()) {
      if (!reachable_.count(b))
        continue;
      if (Status s = blockOps(*b, b->front(), placeBlock(b)); !s)
        return s;
    }
    for (size_t index : order_) {
      const OutBlock &o = out_[index];
      InstWriter(words, Op::Label).id(o.label);
      for (const OutBlock::Phi &phi : o.phis) {
        if (phi.incoming.empty() || phi.bypassed)
          continue;
        InstWriter w(words, Op::Phi);
        w.id(phi.type).id(phi.id);
        for (const auto &in : phi.incoming)
          w.id(in.first).id(in.second);
      }
      // An argument of a block nothing branches to has no value: undefined.
      for (const OutBlock::Phi &phi : o.phis)
        if (phi.incoming.empty() && !phi.bypassed)
          InstWriter(words, Op::Undef).id(phi.type).id(phi.id);
      // Function variables open the first block, wherever the IR has them.
      if (index == order_.front())
        words.insert(words.end(), variables_.begin(), variables_.end());
      words.insert(words.end(), o.words.begin(), o.words.end());
    }
    InstWriter(words, Op::FunctionEnd);
    return {};
  }

  uint32_t voidId() { return unique(Op::TypeVoid, {}); }

  /// spirv.ARM.Graph: OpGraphARM, an OpGraphInputARM per input (its index a constant), the body,
  /// whose spirv.ARM.GraphOutputs writes OpGraphSetOutputARM per output and OpGraphEndARM.
  Status graph(const Operation &g) {
    uint32_t id = symbol(g.attr("sym_name").str());
    Attribute ft = g.attr("function_type");
    if (!ft || !ft.type().is(TypeKind::GraphArm))
      return fail(g, "needs a function_type of a graph type");
    if (g.region().empty() || g.region().size() != 1)
      return fail(g, "needs a body of one block");
    InstWriter(graphs_, Op::GraphARM).id(type(ft.type())).id(id);
    name(id, g.attr("sym_name").str());
    const Block *entry = g.region().front();
    functionEntry_ = entry;
    for (uint32_t a = 0; a < entry->numArguments(); ++a) {
      uint32_t typeId = type(entry->argument(a).type()), index = u32Constant(a);
      InstWriter(graphs_, Op::GraphInputARM).id(typeId).id(valueId(entry->argument(a))).id(index);
    }
    out_.clear();
    outIndex_.clear();
    out_.emplace_back();
    if (Status s = blockOps(*entry, entry->front(), 0); !s)
      return s;
    graphs_.insert(graphs_.end(), out_[0].words.begin(), out_[0].words.end());
    return {};
  }

  /// Adds the blocks of `r` that its entry block (and `also`, a loop's continue block, which
  /// its OpLoopMerge names) reach through successors, merge ops' included, to reachable_: the
  /// others are not written, as MLIR's serializer leaves them out (nothing reaches them; the
  /// deserializer made them a bare spirv.Unreachable).
  void markReachable(const Region &r, const Block *also = nullptr) {
    std::vector<const Block *> work;
    auto reach = [&](const Block *b) {
      if (b && b->parent() == &r && reachable_.insert(b).second)
        work.push_back(b);
    };
    reach(r.front());
    reach(also);
    while (!work.empty()) {
      const Block *b = work.back();
      work.pop_back();
      for (const Operation *op : *b)
        for (const Successor &succ : op->successors())
          reach(succ.block);
    }
  }

  /// Writes the ops of `b` from `first` on into output block `current` (an index: the vector
  /// grows as regions add blocks). Regions are written inline: a selection's header continues
  /// the current block, its blocks follow, and its merge block continues with the ops after it.
  Status blockOps(const Block &b, Operation *first, size_t current) {
    for (Operation *op = first; op; op = op->next()) {
      const OpInfo *info = &op->info();
      if (info == &ops::selection() || info == &ops::loop()) {
        Expected<size_t> next = region(*op, current);
        if (!next)
          return next.error();
        current = *next;
        continue;
      }
      if (info == &ops::branch() && fallThrough_.count(op->successors()[0].block)) {
        continueIn_[op->successors()[0].block] = current;
        continue;
      }
      if (Status s = emit(*op, current); !s)
        return s;
    }
    return {};
  }

  /// Adds to fallThrough_ the blocks of `r` whose ops continue the output block where the
  /// block before them ends: those that start with a loop and that it enters with an
  /// unconditional branch without arguments, which nothing else branches to. The deserializer
  /// gives a loop a block of its own (MLIR's shape: the loop header's predecessors outside the
  /// loop branch to it), which SPIR-V does not need, as the loop's entry branches to its
  /// header; written as one block, the module keeps the blocks it had. Other blocks are kept
  /// as the IR has them. `keep` are blocks that a merge instruction names or that must end
  /// with their own branch (a construct's entry; a loop header, whose OpLoopMerge precedes
  /// it).
  void findFallThroughs(const Region &r, std::initializer_list<const Block *> keep) {
    std::unordered_map<const Block *, uint32_t> preds;
    for (const Block *b : r)
      if (reachable_.count(b))
        for (const Operation *op : *b)
          for (const Successor &succ : op->successors())
            ++preds[succ.block];
    auto kept = [&](const Block *b) {
      return std::find(keep.begin(), keep.end(), b) != keep.end();
    };
    for (const Block *b : r) {
      const Block *p = b->prev();
      const Operation *t = p ? p->back() : nullptr;
      if (!t || !reachable_.count(p) || !reachable_.count(b) || &t->info() != &ops::branch() ||
          t->successors().size() != 1 || t->successors()[0].block != b || t->numOperands() ||
          b->numArguments() || preds[b] != 1 || kept(b) || kept(p) || !b->front() ||
          &b->front()->info() != &ops::loop())
        continue;
      fallThrough_.insert(b);
    }
  }

  /// The output block of IR block `b`, listed in order_ unless `b` continues another.
  size_t placeBlock(const Block *b) {
    if (auto it = continueIn_.find(b); it != continueIn_.end())
      return it->second;
    const size_t index = outBlock(b);
    order_.push_back(index);
    return index;
  }

  /// Writes a selection or loop op, starting in output block `current`; returns the output
  /// block of its merge block, where the ops after it go.
  Expected<size_t> region(const Operation &op, size_t current) {
    const Region &r = op.region();
    if (r.empty())
      return current; // an empty construct does nothing
    bool loop = &op.info() == &ops::loop();
    Block *entry = r.front();
    Block *merge = r.back();
    // The op's results are the merge block's arguments.
    for (uint32_t i = 0; i < op.numResults(); ++i)
      setValueId(op.result(i).impl(), valueId(merge->argument(i)));
    size_t mergeOut = outBlock(merge);
    Attribute control = op.attr(loop ? "loop_control" : "selection_control");
    Block *cont = nullptr; // a loop's continue block
    if (!loop) {
      // The header's ops continue the current block, which becomes the selection's header
      // (the merge instruction goes before its terminator), as SPIR-V producers write it and
      // deserialization read it: no block is added, so a round trip keeps the module's blocks
      // and the lines they state. MLIR writes the header as a block of its own that the
      // current block branches to; so does spire in the block after a loop header that holds
      // a construct (MLIR's shape there, which its round-trip tests check; the current block
      // is never the loop header itself).
      Operation *term = entry->back();
      if (!term)
        return fail(op, "empty header block");
      if (afterLoopHeader_.count(current)) {
        size_t headerOut = freshBlock();
        InstWriter(out_[current].words, Op::Branch).id(out_[headerOut].label);
        order_.push_back(headerOut);
        current = headerOut;
      }
      for (Operation *x = entry->front(); x != term; x = x->next()) {
        if (&x->info() == &ops::selection() || &x->info() == &ops::loop()) {
          Expected<size_t> next = region(*x, current);
          if (!next)
            return next;
          current = *next;
        } else if (Status s = emit(*x, current); !s)
          return s.error();
      }
      mark(out_[current].words, op);
      InstWriter(out_[current].words, Op::SelectionMerge)
          .id(out_[mergeOut].label)
          .literal(control ? control.enumValue() : 0);
      if (Status s = emit(*term, current); !s)
        return s.error();
    } else {
      // The entry block only enters the loop: its ops continue the current block. The header
      // is the block it branches to.
      Operation *enter = entry->back();
      if (!enter || enter->successors().size() != 1)
        return fail(op, "the loop's entry block must end with a branch to the loop header");
      Block *header = enter->successors()[0].block;
      // The branch into the loop, which deserialization makes without a position, continues
      // the line in effect, as the branch it stands for did.
      for (Operation *x = entry->front(); x; x = x->next())
        if (Status s = emit(*x, current, x != enter || x->debugLoc()); !s)
          return s.error();
      cont = merge->prev();
      if (Attribute cb = op.attr("continue_block")) {
        uint32_t position = static_cast<uint32_t>(cb.bits());
        cont = r.front();
        for (uint32_t k = 0; k < position && cont; ++k)
          cont = cont->next();
        if (!cont)
          return fail(op, "continue_block is past the region's end");
      }
      size_t headerOut = outBlock(header);
      order_.push_back(headerOut);
      Operation *term = header->back();
      if (!term)
        return fail(op, "empty loop header");
      auto loopMerge = [&](size_t where) {
        mark(out_[where].words, op);
        InstWriter w(out_[where].words, Op::LoopMerge);
        w.id(out_[mergeOut].label).id(labelOf(cont)).literal(control ? control.enumValue() : 0);
        if (Attribute params = op.attr("loop_control_parameters"))
          for (Attribute p : params.elements())
            w.literal(static_cast<uint32_t>(p.bits()));
      };
      // A header holding a nested construct cannot be one block: the header block holds the
      // loop merge and branches to a fresh block, where the header's ops go (as MLIR writes it).
      bool nested = false;
      for (Operation *x = header->front(); x != term; x = x->next())
        nested |= &x->info() == &ops::selection() || &x->info() == &ops::loop();
      size_t at = headerOut;
      if (nested) {
        loopMerge(headerOut);
        at = freshBlock();
        afterLoopHeader_.insert(at);
        InstWriter(out_[headerOut].words, Op::Branch).id(out_[at].label);
        order_.push_back(at);
      }
      for (Operation *x = header->front(); x != term; x = x->next()) {
        if (&x->info() == &ops::selection() || &x->info() == &ops::loop()) {
          Expected<size_t> next = region(*x, at);
          if (!next)
            return next;
          at = *next;
        } else if (Status s = emit(*x, at); !s)
          return s.error();
      }
      if (!nested)
        loopMerge(at);
      if (Status s = emit(*term, at); !s)
        return s.error();
    }
    markReachable(r, cont);
    const Block *loopHeader = loop ? entry->back()->successors()[0].block : nullptr;
    findFallThroughs(r, {entry, merge, cont, loopHeader});
    for (Block *blk = entry->next(); blk && blk != merge; blk = blk->next()) {
      if (blk == loopHeader)
        continue; // written above
      if (!reachable_.count(blk))
        continue;
      if (Status s = blockOps(*blk, blk->front(), placeBlock(blk)); !s)
        return s.error();
    }
    bypassOneValueResults(op, mergeOut);
    // The ops after the construct continue in its merge block, after the construct's blocks.
    order_.push_back(mergeOut);
    return mergeOut;
  }

  /// A result of a construct that every branch to its merge block gives the same value (mostly
  /// a value defined inside and used after it, which the structurizer threads out) is that
  /// value, without a phi: its definition dominates every predecessor of the merge block, so
  /// the merge block too. This keeps phis of types SPIR-V allows none of (images, samplers,
  /// pointers without VariablePointers) out of the round trip.
  void bypassOneValueResults(const Operation &op, size_t mergeOut) {
    const Block *merge = op.region().back();
    std::vector<OutBlock::Phi> &phis = out_[mergeOut].phis;
    for (uint32_t a = 0; a < op.numResults() && a < phis.size(); ++a) {
      OutBlock::Phi &phi = phis[a];
      if (phi.incoming.empty())
        continue;
      const uint32_t v = phi.incoming.front().first;
      bool one = v != phi.id;
      for (const auto &in : phi.incoming)
        one &= in.first == v;
      if (!one)
        continue;
      phi.bypassed = true;
      setValueId(op.result(a).impl(), v);
      setValueId(merge->argument(a).impl(), v);
    }
  }

  /// Records the arguments a branch from output block `from` passes to `target`.
  void branchArgs(const Operation &op, uint32_t s, size_t from) {
    const Successor &succ = op.successors()[s];
    size_t t = outBlock(succ.block);
    uint32_t pred = out_[from].label;
    for (uint32_t a = 0; a < succ.numOperands && a < out_[t].phis.size(); ++a)
      out_[t].phis[a].incoming.emplace_back(valueId(op.operand(succ.firstOperand + a)), pred);
  }

  Expected<uint32_t> operandId(const Operation &op, uint32_t i) {
    Value v = op.operand(i);
    return valueId(v);
  }

  /// An op of a block written into output block `current`, after its source line's mark.
  /// `marked` false: the op's instructions take the line in effect instead of its own
  /// position (for an op the deserializer made, which has none).
  Status emit(const Operation &op, size_t current, bool marked = true) {
    const bool variable =
        op.info().inst && op.info().inst->opcode == static_cast<uint16_t>(Op::Variable);
    std::vector<uint32_t> &words = variable ? variables_ : out_[current].words;
    const size_t before = words.size();
    if (marked)
      mark(words, op);
    Status s = instruction(op, current);
    // An op of no instruction here (a constant, declared at module level) leaves no mark: the
    // instructions the serializer adds take the line in effect.
    if (marked && lines_ && words.size() == before + 2)
      words.resize(before);
    return s;
  }

  Status instruction(const Operation &op, size_t current) {
    const OpInfo *info = &op.info();
    if (info == &ops::constant()) {
      Expected<uint32_t> c = constant(op.attr("value"), op.result().type(), op);
      if (!c)
        return c.error();
      setValueId(op.result().impl(), *c);
      return {};
    }
    if (info == &ops::addressOf()) {
      setValueId(op.result().impl(), symbol(op.attr("variable").str()));
      return {};
    }
    if (info == &ops::specConstantOperation())
      return specConstantOperation(op);
    if (info->inst && (info->inst->opcode == static_cast<uint16_t>(Op::ConstantSampler) ||
                       info->inst->opcode == static_cast<uint16_t>(Op::ConstantPipeStorage)))
      return constantOp(op);
    if (info->inst && info->inst->opcode == static_cast<uint16_t>(Op::ConstantNull)) {
      uint32_t typeId = type(op.result().type());
      setValueId(op.result().impl(), unique(Op::ConstantNull, {typeId}, typeId));
      return {};
    }
    if (info == &ops::referenceOf()) {
      setValueId(op.result().impl(), symbol(op.attr("spec_const").str()));
      return {};
    }
    if (info->inst && info->inst->opcode == static_cast<uint16_t>(Op::Undef) &&
        op.numResults() == 1 && op.attributes().empty()) {
      // One module-level OpUndef per type, as MLIR writes it: specialization constant
      // operations may use it too.
      uint32_t typeId = type(op.result().type());
      setValueId(op.result().impl(), unique(Op::Undef, {typeId}, typeId));
      return {};
    }
    if (info == &ops::merge())
      return fail(op, "spirv.mlir.merge outside the last block of a construct");
    if (info == &ops::branch()) {
      outBlock(op.successors()[0].block);
      InstWriter(out_[current].words, Op::Branch).id(labelOf(op.successors()[0].block));
      branchArgs(op, 0, current);
      return {};
    }
    if (info == &ops::branchConditional()) {
      outBlock(op.successors()[0].block);
      outBlock(op.successors()[1].block);
      {
        InstWriter w(out_[current].words, Op::BranchConditional);
        w.id(valueId(op.operand(0)))
            .id(labelOf(op.successors()[0].block))
            .id(labelOf(op.successors()[1].block));
        if (Attribute weights = op.attr("branch_weights"))
          for (Attribute e : weights.elements())
            w.literal(static_cast<uint32_t>(e.bits()));
      }
      branchArgs(op, 0, current);
      branchArgs(op, 1, current);
      return {};
    }
    if (info == &ops::switchOp()) {
      for (const Successor &s : op.successors())
        outBlock(s.block);
      Attribute literals = op.attr("literals");
      Type selType = op.operand(0).type();
      {
        InstWriter w(out_[current].words, Op::Switch);
        w.id(valueId(op.operand(0))).id(labelOf(op.successors()[0].block));
        for (size_t k = 1; k < op.successors().size(); ++k) {
          Attribute lit = literals ? literals.elements()[k - 1] : Attribute();
          uint64_t v = lit ? static_cast<uint64_t>(lit.intValue()) : 0;
          if (selType.width() > 32)
            w.literal64(v);
          else
            w.literal(static_cast<uint32_t>(v));
          w.id(labelOf(op.successors()[k].block));
        }
      }
      for (uint32_t k = 0; k < op.successors().size(); ++k)
        branchArgs(op, k, current);
      return {};
    }
    if (info == &ops::extInst())
      return extInst(op, current);
    if (info == &ops::nonSemantic())
      return nonSemanticLocal(op, current);
    if (info == &ops::experimentalMlCall())
      return experimentalMlCall(op, current);
    if (info == &ops::graphOutputs()) {
      for (uint32_t i = 0; i < op.numOperands(); ++i) {
        uint32_t value = valueId(op.operand(i)), index = u32Constant(i);
        InstWriter(out_[current].words, Op::GraphSetOutputARM).id(value).id(index);
      }
      InstWriter(out_[current].words, Op::GraphEndARM);
      return {};
    }
    if (info->inst && info->inst->opcode == static_cast<uint16_t>(Op::GraphConstantARM)) {
      // A module-level constant, one per type and id.
      Attribute gid = op.attr("graph_constant_id");
      uint32_t typeId = type(op.result().type());
      setValueId(op.result().impl(),
                 unique(Op::GraphConstantARM,
                        {typeId, gid ? static_cast<uint32_t>(gid.bits()) : 0u}, typeId));
      return {};
    }
    if (info == &ops::functionCall()) {
      InstWriter w(out_[current].words, Op::FunctionCall);
      uint32_t rid = op.numResults() ? valueId(op.result()) : b_->newId();
      w.id(op.numResults() ? type(op.result().type()) : voidId())
          .id(rid)
          .id(symbol(op.attr("callee").str()));
      for (uint32_t i = 0; i < op.numOperands(); ++i)
        w.id(valueId(op.operand(i)));
      return {};
    }
    if (info->inst && (info->inst->opcode == static_cast<uint16_t>(Op::SelectionMerge) ||
                       info->inst->opcode == static_cast<uint16_t>(Op::LoopMerge))) {
      bool loop = info->inst->opcode == static_cast<uint16_t>(Op::LoopMerge);
      for (const Successor &s : op.successors())
        outBlock(s.block);
      InstWriter w(out_[current].words, loop ? Op::LoopMerge : Op::SelectionMerge);
      for (const Successor &s : op.successors())
        w.id(labelOf(s.block));
      Attribute control = op.attr(loop ? "loop_control" : "selection_control");
      w.literal(control ? control.enumValue() : 0);
      return {};
    }
    return generic(op, current);
  }

  Status generic(const Operation &op, size_t current) {
    uint32_t resultId = 0;
    std::vector<uint32_t> inst;
    if (Status s = encode(op, inst, resultId); !s)
      return s;
    bool isVariable =
        op.info().inst && op.info().inst->opcode == static_cast<uint16_t>(Op::Variable);
    std::vector<uint32_t> &words = isVariable ? variables_ : out_[current].words;
    if (inst.size() > 0xFFFF) // a composite construct too long for one instruction (encode)
      splitInto(words, Op::CompositeConstruct, Op::CompositeConstructContinuedINTEL,
                std::span<const uint32_t>(inst).subspan(1, 2),
                std::span<const uint32_t>(inst).subspan(3));
    else
      words.insert(words.end(), inst.begin(), inst.end());
    if (resultId)
      return decorations(op, resultId, {});
    return {};
  }

  /// The words of the instruction of an op that follows the grammar, result id included.
  Status encode(const Operation &op, std::vector<uint32_t> &inst, uint32_t &resultId) {
    const OpInfo &info = op.info();
    if (info.inst) {
      inst.push_back(info.inst->opcode);
      if (info.inst->hasResultType) {
        if (!op.numResults())
          return fail(op, "needs a result");
        inst.push_back(type(op.result().type()));
      }
      if (info.inst->hasResult) {
        resultId = op.numResults() ? valueId(op.result()) : b_->newId();
        inst.push_back(resultId);
      }
    } else if (info.ext) {
      inst.push_back(static_cast<uint32_t>(Op::ExtInst));
      if (!op.numResults())
        return fail(op, "needs a result");
      inst.push_back(type(op.result().type()));
      resultId = valueId(op.result());
      inst.push_back(resultId);
      inst.push_back(extImport(*info.set));
      inst.push_back(info.ext->opcode);
    } else {
      return fail(op, "has no SPIR-V instruction");
    }
    uint32_t nextOperand = 0;
    const uint32_t numOperands = op.numOperands();
    // Operands that later mappings need: mandatory values, and the id parameters of the enum
    // attributes present.
    auto mandatoryValuesAfter = [&](size_t m) {
      uint32_t n = 0;
      for (size_t k = m + 1; k < info.operands.size(); ++k) {
        const OperandMapping &later = info.operands[k];
        if (later.kind == OperandMapping::Kind::Value &&
            later.quantifier == grammar::Quantifier::One)
          ++n;
        if (later.kind == OperandMapping::Kind::IdEnum)
          if (Attribute e = op.attr(later.name); e && e.is(AttrKind::Unit))
            ++n; // a scope or semantics given by an operand
        if (later.kind == OperandMapping::Kind::Attribute)
          if (Attribute e = op.attr(later.name); e && e.is(AttrKind::Enum))
            n += idParameters(e);
      }
      return n;
    };
    for (size_t m = 0; m < info.operands.size(); ++m) {
      const OperandMapping &map = info.operands[m];
      switch (map.kind) {
      case OperandMapping::Kind::Value: {
        uint32_t reserved = mandatoryValuesAfter(m);
        if (map.quantifier == grammar::Quantifier::One) {
          if (nextOperand >= numOperands)
            return fail(op, "too few operands");
          inst.push_back(valueId(op.operand(nextOperand++)));
        } else if (map.quantifier == grammar::Quantifier::Optional) {
          if (numOperands > nextOperand + reserved)
            inst.push_back(valueId(op.operand(nextOperand++)));
        } else {
          while (numOperands > nextOperand + reserved)
            inst.push_back(valueId(op.operand(nextOperand++)));
        }
        break;
      }
      case OperandMapping::Kind::TypeId: {
        Attribute a = op.attr(map.name);
        if (!a || !a.is(AttrKind::Type))
          return fail(op, "needs the type attribute " + std::string(map.name));
        inst.push_back(type(a.type()));
        break;
      }
      case OperandMapping::Kind::IdEnum: {
        Attribute a = op.attr(map.name);
        if (!a)
          return fail(op, "needs the attribute " + std::string(map.name));
        if (a.is(AttrKind::Unit)) {
          // Not a constant: the operand at this place.
          if (nextOperand >= numOperands)
            return fail(op, "too few operands for " + std::string(map.name));
          inst.push_back(valueId(op.operand(nextOperand++)));
        } else if (a.is(AttrKind::Enum)) {
          inst.push_back(u32Constant(a.enumValue()));
        } else {
          return fail(op,
                      "attribute " + std::string(map.name) + " is neither an enumerant nor unit");
        }
        break;
      }
      case OperandMapping::Kind::Attribute: {
        Attribute a = op.attr(map.name);
        if (!a) {
          if (map.quantifier == grammar::Quantifier::One)
            return fail(op, "needs the attribute " + std::string(map.name));
          break;
        }
        auto one = [&](Attribute x) -> Status {
          if (x.is(AttrKind::Enum)) {
            inst.push_back(x.enumValue());
            // The enumerant's parameters, in bit order.
            return enumParameters(op, map, x, inst, nextOperand);
          }
          if (x.is(AttrKind::String)) {
            std::vector<uint32_t> sw;
            {
              InstWriter sw2(sw, Op::Nop);
              sw2.string(x.str());
            }
            inst.insert(inst.end(), sw.begin() + 1, sw.end());
            return {};
          }
          if (x.is(AttrKind::Integer)) {
            if (x.type() && x.type().width() > 32) {
              uint64_t v = x.bits();
              inst.push_back(static_cast<uint32_t>(v));
              inst.push_back(static_cast<uint32_t>(v >> 32));
            } else {
              inst.push_back(static_cast<uint32_t>(x.bits()));
            }
            return {};
          }
          if (x.is(AttrKind::Float)) {
            float f = static_cast<float>(x.floatValue());
            uint32_t v;
            std::memcpy(&v, &f, 4);
            inst.push_back(v);
            return {};
          }
          return fail(op, "attribute " + std::string(map.name) + " has no encoding");
        };
        if (a.is(AttrKind::Array)) {
          for (Attribute x : a.elements())
            if (Status s = one(x); !s)
              return s;
        } else if (Status s = one(a); !s) {
          return s;
        }
        break;
      }
      case OperandMapping::Kind::ResultStorage: {
        Type r = op.numResults() ? op.result().type() : Type();
        if (!r.is(TypeKind::Pointer))
          return fail(op, "needs a pointer result");
        inst.push_back(r.storageClass());
        break;
      }
      case OperandMapping::Kind::Constant: {
        Expected<uint32_t> id = constantOperand(op, map);
        if (!id)
          return id.error();
        inst.push_back(*id);
        break;
      }
      case OperandMapping::Kind::Other:
        return fail(op, "has an operand the generic form cannot write");
      }
    }
    while (nextOperand < numOperands)
      inst.push_back(valueId(op.operand(nextOperand++)));
    if (inst.size() > 0xFFFF) {
      // SPV_INTEL_long_composites continues a composite construct (generic splits it).
      if (longComposites_ && info.inst->opcode == static_cast<uint16_t>(Op::CompositeConstruct))
        return {};
      return fail(op, "too many operands for one instruction");
    }
    inst[0] |= static_cast<uint32_t>(inst.size()) << 16;
    return {};
  }

  /// The constant an attribute of `map`'s (a TOSA op's pad, axis, acc_type, ...) stands for,
  /// declared once at module level with the constants of the same type and value: rank-1 i32
  /// tensors as OpConstantComposite (as MLIR writes them), enumerants as 32-bit integers.
  Expected<uint32_t> constantOperand(const Operation &op, const OperandMapping &map) {
    Attribute a = op.attr(map.name);
    if (!a)
      return fail(op, "needs the attribute " + std::string(map.name));
    switch (map.constAttr) {
    case ConstAttr::Bool:
      if (a.is(AttrKind::Bool))
        return boolConstant(a.boolValue());
      break;
    case ConstAttr::I32:
    case ConstAttr::Scalar:
    case ConstAttr::I32Tensor:
      if (a.is(AttrKind::Integer) || a.is(AttrKind::Float) ||
          (a.is(AttrKind::Dense) && a.type().is(TypeKind::TensorArm)))
        return constant(a, a.type(), op);
      break;
    case ConstAttr::None:
      break;
    default:
      if (a.is(AttrKind::DialectEnum))
        return u32Constant(a.enumValue());
      break;
    }
    return fail(op, "attribute " + std::string(map.name) + " is not a constant of its kind");
  }

  /// A constant made by an op (OpConstantSampler, ...): declared once at module level.
  Status constantOp(const Operation &op) {
    std::vector<uint32_t> inst;
    uint32_t resultId = 0;
    if (Status s = encode(op, inst, resultId); !s)
      return s;
    // The key: the words without the result id.
    std::vector<uint32_t> key{0xFFFFFFFDu};
    key.insert(key.end(), inst.begin(), inst.end());
    key.erase(key.begin() + 3);
    auto it = uniqueTypes_.find(key);
    if (it != uniqueTypes_.end()) {
      setValueId(op.result().impl(), it->second);
      return {};
    }
    b_->sectionWords(Section::Global)
        .insert(b_->sectionWords(Section::Global).end(), inst.begin(), inst.end());
    uniqueTypes_.emplace(std::move(key), resultId);
    return {};
  }

  /// spirv.SpecConstantOperation: an OpSpecConstantOp of the wrapped op.
  Status specConstantOperation(const Operation &op) {
    if (op.region().empty() || !op.region().front()->front())
      return fail(op, "has no wrapped operation");
    const Operation &inner = *op.region().front()->front();
    std::vector<uint32_t> inst;
    uint32_t innerResult = 0;
    if (Status s = encode(inner, inst, innerResult); !s)
      return s;
    if (!inner.info().inst || inst.size() < 3)
      return fail(op, "wraps an op that is not an instruction with a result");
    uint32_t id = valueId(op.result());
    std::vector<uint32_t> operands(inst.begin() + 3, inst.end());
    uint32_t typeId = type(op.result().type());
    b_->add(Section::Global, Op::SpecConstantOp)
        .id(typeId)
        .id(id)
        .literal(inner.info().inst->opcode)
        .words(operands);
    return {};
  }

  static uint32_t idParameters(Attribute e) {
    uint32_t n = 0;
    auto count = [&](const grammar::EnumerantDesc *d) {
      if (d)
        for (const grammar::OperandDesc &p : d->parameters)
          n += grammar::operandCategory(p.kind) == grammar::OperandCategory::Id;
    };
    if (grammar::operandCategory(e.enumKind()) == grammar::OperandCategory::BitEnum) {
      for (unsigned bit = 0; bit < 32; ++bit)
        if (e.enumValue() & (1u << bit))
          count(grammar::findEnumerant(e.enumKind(), 1u << bit));
    } else {
      count(grammar::findEnumerant(e.enumKind(), e.enumValue()));
    }
    return n;
  }

  Status enumParameters(const Operation &op, const OperandMapping &map, Attribute e,
                        std::vector<uint32_t> &inst, uint32_t &nextOperand) {
    grammar::OperandKind kind = e.enumKind();
    auto params = [&](const grammar::EnumerantDesc *d) -> Status {
      if (!d)
        return {};
      for (const grammar::OperandDesc &p : d->parameters) {
        if (grammar::operandCategory(p.kind) == grammar::OperandCategory::Id) {
          if (nextOperand >= op.numOperands())
            return fail(op, "too few operands for the parameters of " + std::string(map.name));
          inst.push_back(valueId(op.operand(nextOperand++)));
        } else {
          std::string name =
              map.operandKind == OperandKind::MemoryAccess
                  ? (map.name == "source_memory_access" ? "source_alignment" : "alignment")
                  : std::string(map.name) + "_value";
          Attribute v = op.attr(name);
          inst.push_back(v ? static_cast<uint32_t>(v.bits()) : 0);
        }
      }
      return {};
    };
    if (grammar::operandCategory(kind) == grammar::OperandCategory::BitEnum) {
      for (unsigned bit = 0; bit < 32; ++bit)
        if (e.enumValue() & (1u << bit))
          if (Status s = params(grammar::findEnumerant(kind, 1u << bit)); !s)
            return s;
      return {};
    }
    return params(grammar::findEnumerant(kind, e.enumValue()));
  }

  uint32_t extImport(const grammar::ExtInstSetDesc &set) {
    return extImport(set.key == "glsl.std.450"    ? "GLSL.std.450"
                     : set.key == "tosa.001000.1" ? "TOSA.001000.1"
                                                  : "OpenCL.std");
  }

  uint32_t extImport(std::string_view importName) {
    auto it = imports_.find(std::string(importName));
    if (it != imports_.end())
      return it->second;
    uint32_t id = b_->newId();
    b_->add(Section::ExtInstImport, Op::ExtInstImport).id(id).string(importName);
    imports_.emplace(std::string(importName), id);
    return id;
  }

  /// spirv.ExtInst: OpExtInst of the set named by its import name, its operands all ids.
  Status extInst(const Operation &op, size_t current) {
    Attribute set = op.attr("set"), number = op.attr("instruction");
    if (!set || !set.is(AttrKind::String) || !number || !number.is(AttrKind::Integer) ||
        op.numResults() != 1)
      return fail(op, "needs a result, a set name and an instruction number");
    uint32_t typeId = type(op.result().type());
    uint32_t setId = extImport(set.str());
    uint32_t id = valueId(op.result());
    {
      InstWriter w(out_[current].words, Op::ExtInst);
      w.id(typeId).id(id).id(setId).literal(static_cast<uint32_t>(number.bits()));
      for (uint32_t i = 0; i < op.numOperands(); ++i)
        w.id(valueId(op.operand(i)));
    }
    std::string_view skip[] = {"set", "instruction"};
    return decorations(op, id, skip);
  }

  // --- Non-semantic and debug-information instructions -----------------------------------

  /// The words of a spirv.spire.NonSemantic(Global)'s operands, each as the set's grammar has
  /// it (an instruction of a set spire has no grammar of takes ids only): a literal from an
  /// integer or a string; an id from a string (its OpString), a typed value (its constant), a
  /// type, a symbol, or `unit` (the next SSA operand). A module-level op's symbols are declared
  /// first, where they are globals or other such instructions, so that it names none ahead
  /// (functions come after them all).
  Status nonSemanticOperands(const Operation &op, std::vector<uint32_t> &out) {
    Attribute set = op.attr("set"), number = op.attr("instruction"), list = op.attr("operands");
    if (!set || !set.is(AttrKind::String) || !number || !number.is(AttrKind::Integer) || !list ||
        !list.is(AttrKind::Array))
      return fail(op, "needs a set name, an instruction number and its operands");
    const grammar::ExtInstDesc *inst = nullptr;
    if (const grammar::ExtInstSetDesc *desc = grammar::findExtInstSet(set.str()))
      inst = grammar::findExtInst(*desc, static_cast<uint32_t>(number.bits()));
    // The kind of operand k: the grammar's, the last repeated where it is variadic.
    auto kindOf = [&](size_t k) {
      if (!inst || inst->operands.empty())
        return OperandKind::IdRef;
      for (size_t g = 0; g < inst->operands.size(); ++g)
        if (g == k || (inst->operands[g].quantifier == grammar::Quantifier::Variadic && g <= k))
          return inst->operands[g].kind;
      return OperandKind::IdRef;
    };
    uint32_t next = 0;
    std::span<const Attribute> operands = list.elements();
    for (size_t k = 0; k < operands.size(); ++k) {
      Attribute a = operands[k];
      const OperandKind kind = kindOf(k);
      if (a.is(AttrKind::Unit)) {
        if (next >= op.numOperands())
          return fail(op, "'operands' places more SSA operands than the op has");
        out.push_back(valueId(op.operand(next++)));
        continue;
      }
      if (grammar::operandCategory(kind) != grammar::OperandCategory::Id) {
        if (a.is(AttrKind::String) && kind == OperandKind::LiteralString) {
          std::vector<uint32_t> sw;
          InstWriter(sw, Op::Nop).string(a.str());
          out.insert(out.end(), sw.begin() + 1, sw.end());
        } else if (a.is(AttrKind::Integer)) {
          out.push_back(static_cast<uint32_t>(a.bits()));
          if (a.type() && a.type().width() > 32)
            out.push_back(static_cast<uint32_t>(a.bits() >> 32));
        } else {
          return fail(op, "operand " + std::to_string(k) + " is a literal (" +
                              std::string(grammar::operandKindName(kind)) +
                              "): an integer or a string");
        }
        continue;
      }
      switch (a.kind()) {
      case AttrKind::String:
        out.push_back(stringId(a.str()));
        break;
      case AttrKind::SymbolRef: {
        auto named = symbolOps_.find(std::string(a.str()));
        if (named == symbolOps_.end())
          return fail(op, "names @" + std::string(a.str()) + ", which the module does not define");
        const OpInfo *info = &named->second->info();
        if (&op.info() == &ops::nonSemanticGlobal() && info != &ops::func() &&
            info != &ops::graph() && !declared_.count(named->second))
          if (Status s = moduleOp(*named->second); !s)
            return s;
        out.push_back(symbol(a.str()));
        break;
      }
      case AttrKind::Type:
        out.push_back(type(a.type()));
        break;
      case AttrKind::Bool:
        out.push_back(boolConstant(a.boolValue()));
        break;
      case AttrKind::Integer:
      case AttrKind::Float:
      case AttrKind::Dense: {
        if (!a.type())
          return fail(op, "operand " + std::to_string(k) + " is a value without a type");
        Expected<uint32_t> c = constant(a, a.type(), op);
        if (!c)
          return c.error();
        out.push_back(*c);
        break;
      }
      default:
        return fail(op, "operand " + std::to_string(k) +
                            " is neither a string, a typed value, a type nor a symbol");
      }
    }
    if (next != op.numOperands())
      return fail(op, "has SSA operands that 'operands' does not place");
    return {};
  }

  /// OpExtInst (OpExtInstWithForwardRefsKHR with `forward_refs`) of a non-semantic op: void,
  /// with result `id`, into `words`.
  Status nonSemanticInstruction(const Operation &op, uint32_t id, std::vector<uint32_t> &words,
                                bool moduleLevel) {
    std::vector<uint32_t> operands;
    if (Status s = nonSemanticOperands(op, operands); !s)
      return s;
    const uint32_t voidType = voidId(), set = extImport(op.attr("set").str());
    if (moduleLevel)
      mark(words, op);
    InstWriter(words, op.attr("forward_refs") ? Op::ExtInstWithForwardRefsKHR : Op::ExtInst)
        .id(voidType)
        .id(id)
        .id(set)
        .literal(static_cast<uint32_t>(op.attr("instruction").bits()))
        .words(operands);
    return {};
  }

  Status nonSemanticGlobal(const Operation &op) {
    return nonSemanticInstruction(op, symbol(op.attr("sym_name").str()),
                                  b_->sectionWords(Section::Global), true);
  }

  Status nonSemanticLocal(const Operation &op, size_t current) {
    const uint32_t id = op.numResults() ? valueId(op.result()) : b_->newId();
    return nonSemanticInstruction(op, id, out_[current].words, false);
  }

  /// spirv.ExperimentalML.Call: CALL (instruction 0) of Arm.ExperimentalMLOperations.1, its
  /// opcode literal, then its operands.
  Status experimentalMlCall(const Operation &op, size_t current) {
    Attribute opcode = op.attr("opcode");
    if (!opcode || !opcode.is(AttrKind::Integer) || op.numResults() != 1)
      return fail(op, "needs a result and an opcode");
    uint32_t typeId = type(op.result().type());
    uint32_t setId = extImport("Arm.ExperimentalMLOperations.1");
    uint32_t id = valueId(op.result());
    {
      InstWriter w(out_[current].words, Op::ExtInst);
      w.id(typeId).id(id).id(setId).literal(0).literal(static_cast<uint32_t>(opcode.bits()));
      for (uint32_t i = 0; i < op.numOperands(); ++i)
        w.id(valueId(op.operand(i)));
    }
    std::string_view skip[] = {"opcode"};
    return decorations(op, id, skip);
  }

  /// spirv.SpecConstantOperationSymbol: its region's ops before the operation are constants
  /// and references (module-level ids), the operation becomes an OpSpecConstantOp whose
  /// result is the symbol.
  Status specConstantOperationSymbol(const Operation &op) {
    uint32_t id = symbol(op.attr("sym_name").str());
    const Operation *yield =
        op.numRegions() != 1 || op.region().empty() ? nullptr : op.region().front()->back();
    if (!yield || &yield->info() != &ops::yield() || yield->numOperands() != 1 ||
        !yield->operand(0).definingOp() ||
        yield->operand(0).definingOp()->block() != yield->block())
      return fail(op, "its region must end with the operation and spirv.mlir.yield of its result");
    const Operation *inner = yield->operand(0).definingOp();
    for (const Operation *x = op.region().front()->front(); x != inner; x = x->next())
      if (Status s = moduleLevelValue(*x); !s)
        return s;
    std::vector<uint32_t> inst;
    uint32_t innerResult = 0;
    if (Status s = encode(*inner, inst, innerResult); !s)
      return s;
    if (!inner->info().inst || inst.size() < 3)
      return fail(op, "wraps an op that is not an instruction with a result");
    setValueId(inner->result().impl(), id);
    std::vector<uint32_t> operands(inst.begin() + 3, inst.end());
    uint32_t typeId = type(inner->result().type());
    mark(b_->sectionWords(Section::Global), op);
    b_->add(Section::Global, Op::SpecConstantOp)
        .id(typeId)
        .id(id)
        .literal(inner->info().inst->opcode)
        .words(operands);
    name(id, op.attr("sym_name").str());
    std::string_view skip[] = {"sym_name"};
    return decorations(op, id, skip);
  }

  /// An op whose value is a module-level id (a constant, a reference to a symbol, an undefined
  /// value, a specialization constant operation): what a module-level region may compute with.
  Status moduleLevelValue(const Operation &x) {
    const OpInfo *info = &x.info();
    bool constantLike =
        info == &ops::constant() || info == &ops::addressOf() || info == &ops::referenceOf() ||
        info == &ops::specConstantOperation() ||
        (info->inst && x.attributes().empty() &&
         info->inst->opcode == static_cast<uint16_t>(Op::Undef)) ||
        (info->inst && (info->inst->opcode == static_cast<uint16_t>(Op::ConstantNull) ||
                        info->inst->opcode == static_cast<uint16_t>(Op::ConstantSampler) ||
                        info->inst->opcode == static_cast<uint16_t>(Op::ConstantPipeStorage)));
    if (!constantLike || x.numResults() != 1)
      return fail(x, "is not a constant, so it cannot be computed at module level");
    return instruction(x, 0);
  }

  const Operation &module_;
  std::unique_ptr<ModuleBuilder> b_;
  /// The module declares LongCompositesINTEL: instructions too long for one are split.
  bool longComposites_ = false;
  /// OpDecorateString is available (SPIR-V 1.4, or SPV_GOOGLE_decorate_string /
  /// SPV_GOOGLE_hlsl_functionality1); without it a string decoration is an OpDecorate, which
  /// takes any literal operands.
  bool decorateString_ = false;
  std::unordered_map<std::string, uint32_t> symbols_;
  std::unordered_map<std::string, const Operation *> symbolOps_;
  std::unordered_set<const Operation *> declared_;
  std::optional<Diagnostic> deferredError_;
  std::map<std::vector<uint32_t>, uint32_t> uniqueTypes_;
  std::unordered_map<std::string, uint32_t> strings_; ///< OpConstantStringAMDX by text
  std::unordered_map<const void *, uint32_t> typeIds_;
  std::unordered_set<const void *> inProgress_;
  struct PendingPointer {
    uint32_t id;
    Type type;
  };
  std::vector<PendingPointer> pendingPointers_;
  /// Values' ids live in their scratch slots, marked with this serializer's epoch.
  uint32_t epoch_ = newScratchEpoch();
  void setValueId(const detail::ValueImpl *v, uint32_t id) {
    v->scratch = {epoch_, static_cast<int32_t>(id)};
  }
  std::unordered_map<const Block *, uint32_t> labels_;
  /// The blocks that are written (markReachable).
  std::unordered_set<const Block *> reachable_;
  std::deque<OutBlock> out_;
  std::vector<size_t> order_; ///< output blocks in the order they are written
  /// Blocks whose ops continue the output block their predecessor ends in (findFallThroughs),
  /// and that output block once the predecessor's branch to them is reached.
  std::unordered_set<const Block *> fallThrough_;
  /// Output blocks made after a loop header that holds a construct (region()).
  std::unordered_set<size_t> afterLoopHeader_;
  std::unordered_map<const Block *, size_t> continueIn_;
  const Block *functionEntry_ = nullptr;
  std::vector<uint32_t> variables_; ///< the function's OpVariables
  /// SPV_ARM_graph's graph entry points and graphs, written after the functions.
  std::vector<uint32_t> graphEntryPoints_, graphs_;
  std::unordered_map<const Block *, size_t> outIndex_;
  std::unordered_map<std::string, uint32_t> imports_; ///< by import name
  /// Some op has a debug location: ops' instructions get marks (placeLines).
  bool lines_ = false;
  std::vector<const DebugLoc *> markLocs_{nullptr}; ///< a mark's index -> its location
  std::unordered_map<const DebugLoc *, uint32_t> markIndex_;
  std::unordered_map<std::string, uint32_t> debugStrings_; ///< OpString by text
};

} // namespace

Expected<std::vector<uint32_t>> serialize(const Operation &module) {
  Serializer s(module);
  return s.run();
}

} // namespace spire::dialect
