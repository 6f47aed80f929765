// The disassembler: one pass over the module appending to one string, in spirv-dis's format.
#include "spire/asm/Disassembler.h"

#include "FriendlyNames.h"
#include "LiteralFormat.h"

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

// Of the non-semantic instruction sets, spirv-dis (SPIRV-Tools 2023.1) names the instructions of
// these only; the instructions of any other "NonSemantic.*" set it prints as a number followed
// by <id> operands, whatever the grammar says.
bool referenceNamesNonSemanticSet(std::string_view importName) {
  return importName == "NonSemantic.Shader.DebugInfo.100" ||
         importName.starts_with("NonSemantic.ClspvReflection.");
}

// spirv-dis --comment: the opcodes that open the "Annotations", "Debug Information" and
// "Types, variables and constants" sections.
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

bool isTypeOpcode(Op op) {
  switch (op) {
  case Op::TypeVoid:
  case Op::TypeBool:
  case Op::TypeInt:
  case Op::TypeFloat:
  case Op::TypeVector:
  case Op::TypeMatrix:
  case Op::TypeImage:
  case Op::TypeSampler:
  case Op::TypeSampledImage:
  case Op::TypeArray:
  case Op::TypeRuntimeArray:
  case Op::TypeStruct:
  case Op::TypeOpaque:
  case Op::TypePointer:
  case Op::TypeFunction:
  case Op::TypeEvent:
  case Op::TypeDeviceEvent:
  case Op::TypeReserveId:
  case Op::TypeQueue:
  case Op::TypePipe:
  case Op::TypePipeStorage:
  case Op::TypeNamedBarrier:
  case Op::TypeAccelerationStructureNV:
  case Op::TypeCooperativeMatrixNV:
  case Op::TypeRayQueryKHR:
  case Op::TypeHitObjectNV:
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
      : m_(module), o_(options), out_(out), indent_(options.indent ? kIndent : 0) {
    if (options.friendlyNames)
      names_.emplace(module);
  }

  void run() {
    if (o_.header)
      header();
    markRawLines();
    for (Instruction inst : m_) {
      if (o_.comment)
        sectionComments(inst);
      if (!printRaw_.empty() && printRaw_[inst.index()])
        rawInstruction(inst);
      else
        instruction(inst);
    }
  }

private:
  void color(std::string_view code) {
    if (o_.color)
      out_ += code;
  }
  void reset() { color(kReset); }

  // The name of an id without '%': its friendly name or its number.
  std::string_view idName(uint32_t id) {
    if (names_) {
      std::string_view name = names_->find(id);
      if (!name.empty())
        return name;
    }
    scratch_.clear();
    dis::appendDecimal(scratch_, id);
    return scratch_;
  }

  void header() {
    const binary::Header h = m_.header();
    out_ += "; SPIR-V\n; Version: ";
    dis::appendDecimal(out_, grammar::versionMajor(h.version));
    out_ += '.';
    dis::appendDecimal(out_, grammar::versionMinor(h.version));
    out_ += "\n; Generator: ";
    const uint32_t tool = h.generator >> 16;
    if (const grammar::GeneratorDesc *g = grammar::findGenerator(tool)) {
      out_ += g->vendor;
      if (!g->tool.empty()) {
        out_ += ' ';
        out_ += g->tool;
      }
    } else {
      out_ += "Unknown(";
      dis::appendDecimal(out_, tool);
      out_ += ')';
    }
    out_ += "; ";
    dis::appendDecimal(out_, h.generator & 0xFFFF);
    out_ += "\n; Bound: ";
    dis::appendDecimal(out_, h.bound);
    out_ += "\n; Schema: ";
    dis::appendDecimal(out_, h.schema);
    out_ += '\n';
  }

  // Instructions kept as raw words print as "!<word>" immediates. The assembler reads such
  // immediates after an instruction that may take more operands as operands of that instruction,
  // so such an instruction right before a raw one prints as raw words too.
  void markRawLines() {
    bool any = false;
    for (Instruction inst : m_)
      any = any || inst.isRaw();
    if (!any)
      return;
    printRaw_.assign(m_.size(), false);
    bool nextRaw = false;
    for (uint32_t i = m_.size(); i-- > 0;) {
      Instruction inst = m_.inst(i);
      nextRaw = inst.isRaw() || (nextRaw && mayTakeMoreOperands(inst));
      printRaw_[i] = nextRaw;
    }
  }

  void sectionComment(std::string_view text) {
    out_ += '\n';
    out_.append(indent_, ' ');
    out_ += text;
    out_ += '\n';
  }

  void sectionComments(const Instruction &inst) {
    const Op op = inst.opcode();
    if (op == Op::Function) {
      out_ += '\n';
      out_.append(indent_, ' ');
      out_ += "; Function ";
      out_ += idName(inst.resultId());
      out_ += '\n';
    }
    if (!decorationsSeen_ && isDecorationOpcode(op)) {
      decorationsSeen_ = true;
      sectionComment("; Annotations");
    }
    if (!debugSeen_ && isDebugOpcode(op)) {
      debugSeen_ = true;
      sectionComment("; Debug Information");
    }
    if (!typesSeen_ && isTypeOpcode(op)) {
      typesSeen_ = true;
      sectionComment("; Types, variables and constants");
    }
  }

  void lineEnd(const Instruction &inst) {
    if (o_.offsets) {
      color(kGrey);
      out_ += " ; 0x";
      const uint64_t offset = uint64_t(inst.wordOffset()) * 4;
      char buf[16];
      int n = 0;
      for (uint64_t v = offset; v != 0 || n < 8; v >>= 4)
        buf[n++] = "0123456789abcdef"[v & 0xF];
      while (n > 0)
        out_ += buf[--n];
      reset();
    }
    out_ += '\n';
  }

  void rawInstruction(const Instruction &inst) {
    out_.append(indent_, ' ');
    bool first = true;
    for (uint32_t w : inst.words()) {
      if (!first)
        out_ += ' ';
      first = false;
      out_ += '!';
      dis::appendDecimal(out_, w);
    }
    lineEnd(inst);
  }

  void instruction(const Instruction &inst) {
    if (const uint32_t result = inst.resultId()) {
      color(kBlue);
      std::string_view name = idName(result);
      if (indent_ != 0 && name.size() + 4 < indent_)
        out_.append(indent_ - 4 - name.size(), ' ');
      out_ += '%';
      out_ += name;
      reset();
      out_ += " = ";
    } else {
      out_.append(indent_, ' ');
    }
    out_ += opcodeName(*inst.desc());

    auto operands = inst.operands();
    for (size_t i = 0; i < operands.size(); ++i) {
      const binary::Operand &op = operands[i];
      if (op.kind == OperandKind::IdResult)
        continue;
      out_ += ' ';
      if (op.kind == OperandKind::LiteralExtInstInteger && !extInstNumber(inst, op))
        break; // the rest was printed as <id>s
      operand(inst, op);
    }

    if (o_.comment && inst.opcode() == Op::Name) {
      out_ += "  ; id %";
      dis::appendDecimal(out_, inst.word(1));
    }
    lineEnd(inst);
  }

  void id(uint32_t value) {
    color(kYellow);
    out_ += '%';
    out_ += idName(value);
    reset();
  }

  void literalString(std::span<const uint32_t> words) {
    out_ += '"';
    color(kGreen);
    for (uint32_t w : words)
      for (int b = 0; b < 4; ++b) {
        const char c = static_cast<char>((w >> (8 * b)) & 0xFF);
        if (c == '\0')
          goto done;
        if (c == '"' || c == '\\')
          out_ += '\\';
        out_ += c;
      }
  done:
    reset();
    out_ += '"';
  }

  void mask(OperandKind kind, uint32_t word) {
    if (word == 0) {
      // The name of the zero value ("None"), or nothing if the kind has none.
      if (const grammar::EnumerantDesc *e = grammar::findEnumerant(kind, 0))
        out_ += e->name;
      return;
    }
    bool first = true;
    for (uint32_t rest = word; rest != 0; rest &= rest - 1) {
      const uint32_t bit = rest & (~rest + 1);
      if (!first)
        out_ += '|';
      first = false;
      if (const grammar::EnumerantDesc *e = grammar::findEnumerant(kind, bit))
        out_ += e->name;
      else
        dis::appendDecimal(out_, bit);
    }
  }

  // Prints the instruction number of an OpExtInst. Returns false when the remaining words were
  // printed too, as <id>s: that is how spirv-dis shows the instructions of non-semantic sets it
  // has no grammar for.
  bool extInstNumber(const Instruction &inst, const binary::Operand &op) {
    const uint32_t setId = inst.word(op.offset - 1);
    const uint32_t number = inst.word(op.offset);
    const binary::ExtInstImport imp = m_.extInstImport(setId);
    const grammar::ExtInstDesc *ext =
        imp.set != nullptr ? grammar::findExtInst(*imp.set, number) : nullptr;
    if (imp.nonSemantic && (ext == nullptr || !referenceNamesSet(setId))) {
      color(kRed);
      dis::appendDecimal(out_, number);
      reset();
      for (uint32_t w : inst.words().subspan(op.offset + 1u)) {
        out_ += ' ';
        id(w);
      }
      return false;
    }
    color(kRed);
    if (ext != nullptr) {
      out_ += ext->name;
    } else {
      // Neither spirv-dis nor the grammar knows it: an immediate the assemblers take as is.
      out_ += '!';
      dis::appendDecimal(out_, number);
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
          names = referenceNamesNonSemanticSet(imp.stringOperand(op));
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
      color(kRed);
      dis::appendNumber(out_, op.number, op.bitWidth, words);
      reset();
      break;
    case OperandKind::LiteralExtInstInteger:
      return; // printed by extInstNumber
    case OperandKind::LiteralSpecConstantOpInteger:
      color(kRed);
      if (const grammar::InstructionDesc *d = grammar::findInstruction(word))
        out_ += opcodeName(*d).substr(2); // without "Op"
      else
        dis::appendDecimal(out_, word);
      break;
    case OperandKind::RawWords: {
      bool first = true;
      for (uint32_t w : words) {
        if (!first)
          out_ += ' ';
        first = false;
        out_ += '!';
        dis::appendDecimal(out_, w);
      }
      return;
    }
    default:
      switch (grammar::operandCategory(op.kind)) {
      case OperandCategory::Id:
        color(kYellow);
        out_ += '%';
        out_ += idName(word);
        break;
      case OperandCategory::ValueEnum:
        if (const grammar::EnumerantDesc *e = grammar::findEnumerant(op.kind, word))
          out_ += e->name;
        else
          dis::appendDecimal(out_, word);
        break;
      case OperandCategory::BitEnum:
        mask(op.kind, word);
        break;
      default: // literal numbers
        color(kRed);
        dis::appendNumber(out_, op.number, op.bitWidth, words);
        reset();
        break;
      }
      break;
    }
    reset();
  }

  const Module &m_;
  const DisassembleOptions &o_;
  std::string &out_;
  const size_t indent_;
  std::optional<dis::FriendlyNames> names_;
  std::vector<bool> printRaw_;
  std::vector<std::pair<uint32_t, bool>> setNames_;
  std::string scratch_;
  bool decorationsSeen_ = false, debugSeen_ = false, typesSeen_ = false;
};

} // namespace

std::string disassemble(const Module &module, const DisassembleOptions &options) {
  std::string out;
  // The text is typically four to six times as large as the binary.
  out.reserve(module.words().size() * 24 + 256);
  Printer(module, options, out).run();
  return out;
}

} // namespace spire
