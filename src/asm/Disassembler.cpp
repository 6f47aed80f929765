// The disassembler: one pass over the module appending to one string, in spirv-dis's format.
#include "spire/asm/Disassembler.h"

#include "ExtInstImport.h"

#include "FriendlyNames.h"
#include "LiteralFormat.h"
#include "OpcodeRules.h"
#include "TextWriter.h"

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

namespace spire {

namespace {

using grammar::Op;
using grammar::OperandCategory;
using grammar::OperandKind;

// spirv-dis right-aligns result ids so that opcodes start at this column.
constexpr size_t kIndent = 15;

// spirv-dis's ANSI colors.
constexpr std::string_view kReset = "\x1b[0m";
constexpr std::string_view kGrey = "\x1b[1;30m";
constexpr std::string_view kRed = "\x1b[31m";
constexpr std::string_view kGreen = "\x1b[32m";
constexpr std::string_view kYellow = "\x1b[33m";
constexpr std::string_view kBlue = "\x1b[34m";

// spirv-dis --comment: the opcodes that open the "Annotations", "Debug Information" and
// "Types, variables and constants" (spvasm::isSpirvToolsTypeOpcode) sections. These are
// SPIRV-Tools' lists, not the grammar's classes (OpTypeForwardPointer, for one, opens no section).
bool isDecorationOpcode(Op op) {
  switch (op) {
  case Op::Decorate:
  case Op::DecorateId:
  case Op::MemberDecorate:
  case Op::GroupDecorate:
  case Op::GroupMemberDecorate:
  case Op::DecorateStringGOOGLE:
  case Op::MemberDecorateStringGOOGLE:
    return true;
  default:
    return false;
  }
}

bool isDebugOpcode(Op op) {
  switch (op) {
  case Op::Name:
  case Op::MemberName:
  case Op::Source:
  case Op::SourceContinued:
  case Op::SourceExtension:
  case Op::String:
  case Op::Line:
  case Op::NoLine:
  case Op::ModuleProcessed:
    return true;
  default:
    return false;
  }
}

// spirv-dis orders the entries of its opcode table by opcode, then name, and prints the first one
// of an opcode: of several names for one opcode, the least in byte order.
std::string_view opcodeName(const grammar::InstructionDesc &desc) {
  std::string_view name = desc.name;
  for (std::string_view alias : desc.aliases)
    if (alias < name)
      name = alias;
  return name;
}

// Whether the assembler could take words that follow this instruction's text as more of its
// operands: its grammar ends in optional or variadic operands, or its operands come from
// elsewhere (extended instructions, OpSpecConstantOp). Errs on the side of "open".
bool mayTakeMoreOperands(const Instruction &inst) {
  const grammar::InstructionDesc *desc = inst.desc();
  if (inst.isRaw() || desc == nullptr)
    return true;
  if (inst.opcode() == Op::ExtInst || inst.opcode() == Op::SpecConstantOp)
    return true;
  for (const grammar::OperandDesc &d : desc->operands)
    if (d.quantifier != grammar::Quantifier::One)
      return true;
  for (const binary::Operand &op : inst.operands()) {
    OperandCategory cat = grammar::operandCategory(op.kind);
    if (cat != OperandCategory::ValueEnum && cat != OperandCategory::BitEnum)
      continue;
    for (const grammar::EnumerantDesc &e : grammar::operandKind(op.kind).enumerants)
      for (const grammar::OperandDesc &p : e.parameters)
        if (p.quantifier != grammar::Quantifier::One)
          return true;
  }
  return false;
}

class Printer {
public:
  Printer(const Module &module, const DisassembleOptions &options, std::string &out)
      : m_(module), o_(options), out_(out), w_(out), indent_(options.indent ? kIndent : 0) {
    if (options.friendlyNames)
      names_.emplace(module);
  }

  /// Prints the module into the output string; with a sink, hands the text over in pieces of
  /// about kChunk bytes as it goes (the output string then only holds the current piece).
  void run(const TextSink *sink = nullptr) {
    if (o_.header)
      header();
    markRawLines();
    if (o_.comment)
      collectDecorations();
    for (Instruction inst : m_) {
      if (o_.comment)
        sectionComments(inst);
      if (!printRaw_.empty() && printRaw_[inst.index()])
        rawInstruction(inst);
      else
        instruction(inst);
      if (sink != nullptr && out_.size() >= kChunk) {
        (*sink)(out_);
        out_.clear();
      }
    }
    if (sink != nullptr) {
      w_.flush();
      (*sink)(out_);
      out_.clear();
    }
  }
  static constexpr size_t kChunk = 1 << 20;

  /// Prepares for printing single instructions with one().
  void prepareSingle() { markRawLines(); }
  void one(const Instruction &inst) {
    if (!printRaw_.empty() && printRaw_[inst.index()])
      rawInstruction(inst);
    else
      instruction(inst);
  }
  void name(uint32_t value) {
    w_.put('%');
    idName(value);
  }
  void flush() { w_.flush(); }

private:
  [[gnu::always_inline]] void color(std::string_view code) {
    if (o_.color)
      w_.put(code);
  }
  [[gnu::always_inline]] void reset() { color(kReset); }

  // Enumerant lookups through a small cache: a module uses few enumerants, many times.
  const grammar::EnumerantDesc *enumerant(OperandKind kind, uint32_t value) {
    const uint32_t k = static_cast<uint32_t>(kind) + 1;
    EnumerantCacheEntry &e = enumerants_[(value * 31u + k) % enumerants_.size()];
    if (e.kind != k || e.value != value)
      e = {k, value, grammar::findEnumerant(kind, value)};
    return e.desc;
  }

  // Opcode names through a table filled as opcodes show up.
  std::string_view opcodeNameOf(const Instruction &inst) {
    const uint32_t op = static_cast<uint32_t>(inst.opcode());
    if (op < opcodeNames_.size() && !opcodeNames_[op].empty())
      return opcodeNames_[op];
    std::string_view name = opcodeName(*inst.desc());
    if (op < opcodeNames_.size())
      opcodeNames_[op] = name;
    return name;
  }

  // The friendly name of an id, or empty when it prints as its number.
  std::string_view friendlyName(uint32_t id) const {
    return names_ ? names_->find(id) : std::string_view();
  }
  // The name of an id without '%'.
  void idName(uint32_t id) {
    std::string_view name = friendlyName(id);
    if (name.empty())
      w_.decimal(id);
    else
      w_.put(name);
  }
  void id(uint32_t value) {
    color(kYellow);
    w_.put('%');
    idName(value);
    reset();
  }

  void header() {
    const binary::Header h = m_.header();
    w_.put("; SPIR-V\n; Version: ");
    w_.decimal(grammar::versionMajor(h.version));
    w_.put('.');
    w_.decimal(grammar::versionMinor(h.version));
    w_.put("\n; Generator: ");
    const uint32_t tool = h.generator >> 16;
    if (const grammar::GeneratorDesc *g = grammar::findGenerator(tool)) {
      w_.put(g->vendor);
      if (!g->tool.empty()) {
        w_.put(' ');
        w_.put(g->tool);
      }
    } else {
      w_.put("Unknown(");
      w_.decimal(tool);
      w_.put(')');
    }
    w_.put("; ");
    w_.decimal(h.generator & 0xFFFF);
    w_.put("\n; Bound: ");
    w_.decimal(h.bound);
    w_.put("\n; Schema: ");
    w_.decimal(h.schema);
    w_.put('\n');
  }

  // Instructions kept as raw words print as "!<word>" immediates. The assembler reads such
  // immediates after an instruction that may take more operands as operands of that instruction,
  // so such an instruction right before a raw one prints as raw words too.
  // An import of a set the assembler (like spirv-as) refuses by name prints as raw words too;
  // spirv-dis refuses such modules, so this changes no text it prints.
  // So do the extended instructions of such a set.
  bool printsRaw(const Instruction &inst) const {
    if (inst.isRaw())
      return true;
    if (inst.opcode() == Op::ExtInstImport)
      return !spvasm::importedSet(inst.stringOperand(inst.operands()[1])).has_value();
    auto ops = inst.operands();
    for (size_t k = 1; k < ops.size(); ++k) {
      if (ops[k].kind != grammar::OperandKind::LiteralExtInstInteger)
        continue;
      uint32_t def = m_.defIndex(inst.word(ops[k - 1].offset));
      return def == kNoIndex || printsRaw(m_.inst(def));
    }
    return false;
  }

  void markRawLines() {
    bool any = false;
    for (Instruction inst : m_)
      any = any || printsRaw(inst);
    if (!any)
      return;
    printRaw_.assign(m_.size(), false);
    bool nextRaw = false;
    for (uint32_t i = m_.size(); i-- > 0;) {
      Instruction inst = m_.inst(i);
      nextRaw = printsRaw(inst) || (nextRaw && mayTakeMoreOperands(inst));
      printRaw_[i] = nextRaw;
    }
  }

  void sectionComment(std::string_view text) {
    w_.put('\n');
    w_.fill(indent_, ' ');
    w_.put(text);
    w_.put('\n');
  }

  void sectionComments(const Instruction &inst) {
    const Op op = inst.opcode();
    if (op == Op::Function) {
      w_.put('\n');
      w_.fill(indent_, ' ');
      w_.put("; Function ");
      idName(inst.resultId());
      w_.put('\n');
    }
    if (!decorationsSeen_ && isDecorationOpcode(op)) {
      decorationsSeen_ = true;
      sectionComment("; Annotations");
    }
    if (!debugSeen_ && isDebugOpcode(op)) {
      debugSeen_ = true;
      sectionComment("; Debug Information");
    }
    if (!typesSeen_ && spvasm::isSpirvToolsTypeOpcode(static_cast<uint16_t>(op))) {
      typesSeen_ = true;
      sectionComment("; Types, variables and constants");
    }
  }

  // Where a line starts in the output, for the width of its text when a comment follows it.
  void lineStart() {
    if (o_.offsets || o_.comment) {
      w_.flush();
      lineStart_ = out_.size();
    }
  }

  // The width of the current line as seen: without its color escapes.
  size_t lineWidth() {
    w_.flush();
    size_t width = 0;
    for (size_t i = lineStart_; i < out_.size(); ++i) {
      if (out_[i] == '\x1b') {
        while (i < out_.size() && out_[i] != 'm')
          ++i;
        continue;
      }
      ++width;
    }
    return width;
  }

  // --comment: the OpDecorate instructions by the id they decorate (in module order), for the
  // comment on the line that defines the id.
  void collectDecorations() {
    for (Instruction inst : m_)
      if (inst.opcode() == Op::Decorate && !inst.isRaw() && inst.wordCount() >= 3)
        decorations_.emplace_back(inst.word(1), inst.index());
    std::stable_sort(decorations_.begin(), decorations_.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
  }

  std::span<const std::pair<uint32_t, uint32_t>> decorationsOf(uint32_t id) const {
    auto [first, last] = std::equal_range(
        decorations_.begin(), decorations_.end(), std::pair<uint32_t, uint32_t>(id, 0),
        [](const auto &a, const auto &b) { return a.first < b.first; });
    return {first, last};
  }

  // Ends an instruction's line, with the comment spirv-dis (v2026.4) puts after it: the byte
  // offset (--offsets), then (--comment) for OpName the id named, for an instruction whose
  // result OpDecorate decorates each decoration as OpDecorate prints it; parts joined by ", ".
  // Comments start at a column: at least 52, two past the text, and no left of the previous
  // line's comment when that line had one, rounded up to a multiple of 4; a comment further
  // right than 256 does not push the next one past 256.
  [[gnu::always_inline]] void lineEnd(const Instruction &inst) {
    if (!o_.offsets && !o_.comment) { // the common case, on every line
      commentColumn_ = 0;
      w_.put('\n');
      return;
    }
    lineEndWithComment(inst);
  }
  void lineEndWithComment(const Instruction &inst) {
    const bool nameComment = o_.comment && inst.opcode() == Op::Name && !inst.isRaw();
    std::span<const std::pair<uint32_t, uint32_t>> decorations;
    if (o_.comment && !inst.isRaw())
      if (const uint32_t result = inst.resultId())
        decorations = decorationsOf(result);
    if (!o_.offsets && !nameComment && decorations.empty()) {
      commentColumn_ = 0;
      w_.put('\n');
      return;
    }
    constexpr size_t kCommentColumn = 52, kMaxCarriedColumn = 256;
    const size_t width = lineWidth();
    size_t column = std::max({width + 2, commentColumn_, kCommentColumn});
    column = (column + 3) & ~size_t(3);
    commentColumn_ = std::min(column, kMaxCarriedColumn);
    w_.fill(column - width, ' ');
    w_.put("; ");
    bool first = true;
    auto separate = [&] {
      if (!first)
        w_.put(", ");
      first = false;
    };
    if (o_.offsets) {
      separate();
      color(kGrey);
      w_.put("0x");
      const uint64_t offset = uint64_t(inst.wordOffset()) * 4;
      char buf[16];
      int n = 0;
      for (uint64_t v = offset; v != 0 || n < 8; v >>= 4)
        buf[n++] = "0123456789abcdef"[v & 0xF];
      while (n > 0)
        w_.put(buf[--n]);
      reset();
    }
    if (nameComment) {
      separate();
      w_.put("id %");
      w_.decimal(inst.word(1));
    }
    for (const auto &[id, index] : decorations) {
      separate();
      const Instruction decoration = m_.inst(index);
      auto operands = decoration.operands();
      for (size_t k = 1; k < operands.size(); ++k) {
        if (k > 1)
          w_.put(' ');
        operand(decoration, operands[k]);
      }
    }
    w_.put('\n');
  }

  void immediates(std::span<const uint32_t> words) {
    bool first = true;
    for (uint32_t word : words) {
      if (!first)
        w_.put(' ');
      first = false;
      w_.put('!');
      w_.decimal(word);
    }
  }

  void rawInstruction(const Instruction &inst) {
    lineStart();
    w_.fill(indent_, ' ');
    immediates(inst.words());
    lineEnd(inst);
  }

  void instruction(const Instruction &inst) {
    lineStart();
    if (const uint32_t result = inst.resultId()) {
      color(kBlue);
      if (indent_ != 0) {
        // Right-aligned: "%<name> = " ends at the indentation column.
        std::string_view name = friendlyName(result);
        const size_t length = name.empty() ? decimalDigits(result) : name.size();
        if (length + 4 < indent_)
          w_.fill(indent_ - 4 - length, ' ');
      }
      w_.put('%');
      idName(result);
      reset();
      w_.put(" = ");
    } else {
      w_.fill(indent_, ' ');
    }
    w_.put(opcodeNameOf(inst));

    auto operands = inst.operands();
    for (size_t i = 0; i < operands.size(); ++i) {
      const binary::Operand &op = operands[i];
      if (op.kind == OperandKind::IdResult)
        continue;
      w_.put(' ');
      if (grammar::operandCategory(op.kind) == OperandCategory::Id) { // most operands, inline
        color(kYellow);
        w_.put('%');
        idName(inst.word(op.offset));
        reset();
        continue;
      }
      if (op.kind == OperandKind::LiteralExtInstInteger && !extInstNumber(inst, op))
        break; // the rest was printed as <id>s
      operand(inst, op);
    }

    lineEnd(inst);
  }

  static size_t decimalDigits(uint32_t v) {
    size_t n = 1;
    for (; v >= 10; v /= 10)
      ++n;
    return n;
  }

  void literalString(std::span<const uint32_t> words) {
    w_.put('"');
    color(kGreen);
    for (uint32_t word : words)
      for (int b = 0; b < 4; ++b) {
        const char c = static_cast<char>((word >> (8 * b)) & 0xFF);
        if (c == '\0')
          goto done;
        if (c == '"' || c == '\\')
          w_.put('\\');
        w_.put(c);
      }
  done:
    reset();
    w_.put('"');
  }

  void mask(OperandKind kind, uint32_t word) {
    if (word == 0) {
      // The name of the zero value ("None"), or nothing if the kind has none.
      if (const grammar::EnumerantDesc *e = enumerant(kind, 0))
        w_.put(e->name);
      return;
    }
    bool first = true;
    for (uint32_t rest = word; rest != 0; rest &= rest - 1) {
      const uint32_t bit = rest & (~rest + 1);
      if (!first)
        w_.put('|');
      first = false;
      if (const grammar::EnumerantDesc *e = enumerant(kind, bit))
        w_.put(e->name);
      else
        w_.decimal(bit);
    }
  }

  void number(const binary::Operand &op, std::span<const uint32_t> words) {
    color(kRed);
    if (grammar::isFloatKind(op.number) || op.number == binary::NumberKind::Signed) {
      scratch_.clear();
      spvasm::appendNumber(scratch_, op.number, op.bitWidth, words);
      w_.put(scratch_);
    } else {
      w_.decimal(words.size() > 1 ? (uint64_t(words[1]) << 32 | words[0]) : words[0]);
    }
    reset();
  }

  // Prints the instruction number of an OpExtInst. Returns false when the remaining words were
  // printed too, as <id>s: that is how spirv-dis shows the instructions of non-semantic sets it
  // has no grammar for.
  bool extInstNumber(const Instruction &inst, const binary::Operand &op) {
    const uint32_t setId = inst.word(op.offset - 1);
    const uint32_t instNumber = inst.word(op.offset);
    const binary::ExtInstImport imp = m_.extInstImport(setId);
    const grammar::ExtInstDesc *ext =
        imp.set != nullptr ? grammar::findExtInst(*imp.set, instNumber) : nullptr;
    if (imp.nonSemantic && (ext == nullptr || !referenceNamesSet(setId))) {
      color(kRed);
      w_.decimal(instNumber);
      reset();
      for (uint32_t word : inst.words().subspan(op.offset + 1u)) {
        w_.put(' ');
        id(word);
      }
      return false;
    }
    color(kRed);
    if (ext != nullptr) {
      w_.put(ext->name);
    } else {
      // Neither spirv-dis nor the grammar knows it: an immediate the assemblers take as is.
      w_.put('!');
      w_.decimal(instNumber);
    }
    reset();
    return true;
  }

  bool referenceNamesSet(uint32_t setId) {
    for (const auto &[importId, names] : setNames_)
      if (importId == setId)
        return names;
    bool names = false;
    const uint32_t def = m_.defIndex(setId);
    if (def != kNoIndex) {
      Instruction imp = m_.inst(def);
      for (const binary::Operand &op : imp.operands())
        if (op.kind == OperandKind::LiteralString)
          if (std::optional<spvasm::ImportedSet> set = spvasm::importedSet(imp.stringOperand(op)))
            names = set->grammar != nullptr;
    }
    setNames_.emplace_back(setId, names);
    return names;
  }

  void operand(const Instruction &inst, const binary::Operand &op) {
    std::span<const uint32_t> words = inst.operandWords(op);
    const uint32_t word = words[0];
    switch (op.kind) {
    case OperandKind::LiteralString:
      literalString(words);
      break;
    case OperandKind::TypedLiteralNumber:
      number(op, words);
      break;
    case OperandKind::LiteralExtInstInteger:
      return; // printed by extInstNumber
    case OperandKind::LiteralSpecConstantOpInteger:
      color(kRed);
      if (const grammar::InstructionDesc *d = grammar::findInstruction(word))
        w_.put(opcodeName(*d).substr(2)); // without "Op"
      else
        w_.decimal(word);
      break;
    case OperandKind::RawWords:
      immediates(words);
      return;
    default:
      switch (grammar::operandCategory(op.kind)) {
      case OperandCategory::Id:
        color(kYellow);
        w_.put('%');
        idName(word);
        break;
      case OperandCategory::ValueEnum:
        if (const grammar::EnumerantDesc *e = enumerant(op.kind, word))
          w_.put(e->name);
        else
          w_.decimal(word);
        break;
      case OperandCategory::BitEnum:
        mask(op.kind, word);
        break;
      default: // literal numbers
        number(op, words);
        break;
      }
      break;
    }
    reset();
  }

  struct EnumerantCacheEntry {
    uint32_t kind = 0; ///< OperandKind + 1; 0: empty
    uint32_t value = 0;
    const grammar::EnumerantDesc *desc = nullptr;
  };

  const Module &m_;
  const DisassembleOptions &o_;
  std::string &out_;
  spvasm::TextWriter w_;
  std::array<EnumerantCacheEntry, 256> enumerants_{};
  std::array<std::string_view, 512> opcodeNames_{};
  const size_t indent_;
  std::optional<spvasm::FriendlyNames> names_;
  std::vector<bool> printRaw_;
  std::vector<std::pair<uint32_t, bool>> setNames_;
  std::string scratch_;
  bool decorationsSeen_ = false, debugSeen_ = false, typesSeen_ = false;
  std::vector<std::pair<uint32_t, uint32_t>> decorations_; ///< (target id, OpDecorate index)
  size_t lineStart_ = 0;     ///< where the current line starts in out_ (with comments only)
  size_t commentColumn_ = 0; ///< the previous line's comment column; 0: it had no comment
};

} // namespace

struct InstructionPrinter::Impl {
  Impl(const Module &module, const DisassembleOptions &options)
      : options(options), printer(module, this->options, out) {
    printer.prepareSingle();
  }
  DisassembleOptions options;
  std::string out;
  Printer printer;
};

InstructionPrinter::InstructionPrinter(const Module &module, bool friendlyNames)
    : module_(&module), friendlyNames_(friendlyNames) {}
InstructionPrinter::~InstructionPrinter() = default;

InstructionPrinter::Impl &InstructionPrinter::impl() const {
  if (!impl_) {
    DisassembleOptions o;
    o.header = false;
    o.indent = false;
    o.friendlyNames = friendlyNames_;
    impl_ = std::make_unique<Impl>(*module_, o);
  }
  return *impl_;
}

std::string InstructionPrinter::print(uint32_t index) const {
  Impl &i = impl();
  i.out.clear();
  i.printer.one(module_->inst(index));
  i.printer.flush();
  while (!i.out.empty() && i.out.back() == '\n')
    i.out.pop_back();
  return i.out;
}

std::string InstructionPrinter::id(uint32_t value) const {
  Impl &i = impl();
  i.out.clear();
  i.printer.name(value);
  i.printer.flush();
  return i.out;
}

void disassemble(const Module &module, const DisassembleOptions &options, const TextSink &sink) {
  std::string out;
  // A piece is at most a chunk and a line, and no more than the module's whole text: a buffer
  // of a megabyte for a small module would cost a mapping of fresh memory on every call.
  out.reserve(std::min<size_t>(Printer::kChunk + (64 << 10), module.words().size() * 12 + 512));
  Printer(module, options, out).run(&sink);
}

std::string disassemble(const Module &module, const DisassembleOptions &options) {
  std::string out;
  // The text of a module is typically 2.5 to 3 times as large as the module (up to 4 times for
  // tiny ones, where the header weighs most).
  out.reserve(module.words().size() * 12 + 512);
  Printer(module, options, out).run();
  return out;
}

} // namespace spire
