// The assembler: reads instructions one at a time, the way spirv-as (SPIRV-Tools 2023.1) does,
// so that every text it accepts gives the same words.
//
// An instruction is "[%result =] OpName operands..." or "!<integer> operands...". The operands
// are read against a stack of expected operands (ExpectedOperands.h); an optional operand
// ends the instruction where the text ends or the next instruction starts. Ids are numbered by
// IdNumbering; literals of OpConstant and OpSwitch take their width from the types recorded in
// the TypeTable.
#include "spire/asm/Assembler.h"

#include "ExpectedOperands.h"
#include "ExtInstImport.h"
#include "IdNumbering.h"
#include "Lexer.h"
#include "MessageText.h"
#include "NameCache.h"
#include "NumberLiteral.h"
#include "NumberParser.h"
#include "OpcodeRules.h"
#include "StringLiteral.h"
#include "TypeTable.h"

#include "spire/binary/Header.h"
#include "spire/binary/Literal.h"

#include <array>

namespace spire {

namespace spvasm {

namespace {

using grammar::Op;

constexpr size_t kMaxInstructionWords = 0xFFFF;

// Id names: letters, digits and '_'.
constexpr std::array<bool, 256> makeIdChars() {
  std::array<bool, 256> t{};
  for (int c = '0'; c <= '9'; ++c)
    t[c] = true;
  for (int c = 'a'; c <= 'z'; ++c)
    t[c] = true;
  for (int c = 'A'; c <= 'Z'; ++c)
    t[c] = true;
  t['_'] = true;
  return t;
}
constexpr std::array<bool, 256> kIdChars = makeIdChars();

bool isIdName(std::string_view name) {
  if (name.empty())
    return false;
  for (char c : name)
    if (!kIdChars[static_cast<uint8_t>(c)])
      return false;
  return true;
}

// Whether the target version may use an instruction: spirv-as accepts one of a later version
// when a capability or an extension could enable it.
bool available(const grammar::Availability &a, uint32_t version) {
  return (a.minVersion <= version && version <= a.lastVersion) || !a.capabilities.empty() ||
         !a.extensions.empty();
}

std::string versionText(uint32_t v) {
  return std::to_string(grammar::versionMajor(v)) + "." + std::to_string(grammar::versionMinor(v));
}

// Why something `available` rejects cannot be used, for a message.
std::string unavailable(const grammar::Availability &a, uint32_t version) {
  std::string target = " (the target is SPIR-V " + versionText(version) + ")";
  if (a.minVersion == grammar::kNoVersion)
    return "is only available through an extension" + target;
  if (version > a.lastVersion)
    return "was removed after SPIR-V " + versionText(a.lastVersion) + target;
  return "needs SPIR-V " + versionText(a.minVersion) + " or an extension" + target;
}

// The type spirv-as gives a literal it has no type for: a float if it has a '.', a signed
// integer if it starts with '-', else an unsigned integer; 32 bits.
LiteralType untypedLiteral(std::string_view text) {
  if (text.find('.') != std::string_view::npos)
    return {LiteralType::Kind::Float, 32};
  if (text[0] == '-')
    return {LiteralType::Kind::Signed, 32};
  return {LiteralType::Kind::Unsigned, 32};
}

LiteralType literalTypeOf(const DeclaredType &t) {
  if (t.kind == DeclaredType::Kind::Float)
    return {LiteralType::Kind::Float, t.width, t.encoding};
  return {t.isSigned ? LiteralType::Kind::Signed : LiteralType::Kind::Unsigned, t.width};
}

class TextAssembler {
public:
  TextAssembler(std::string_view text, const AssembleOptions &options,
                std::vector<uint32_t> preserved)
      : lex_(text), options_(options), ids_(text, std::move(preserved)),
        types_(text.size() / 2 + 64) {
    words_.reserve(text.size() / 4 + 16);
  }

  Expected<std::vector<uint32_t>> run();

private:
  Status instruction();
  Status immediateInstruction();
  Status readOperands();
  Status finishInstruction(const TextPosition &at);

  Status operand(const ExpectedOperand &e, std::string_view word, const TextPosition &at);
  Status immediate(std::string_view word, const TextPosition &at);
  Status id(std::string_view word, Slot slot, const TextPosition &at);
  Status number(std::string_view word, LiteralType type, const TextPosition &at);
  Status typedNumber(std::string_view word, const TextPosition &at);
  Status string(const TextPosition &at);
  Status extInstNumber(std::string_view word, const TextPosition &at);
  Status specOpcode(std::string_view word, const TextPosition &at);
  Status valueEnum(const ExpectedOperand &e, std::string_view word, const TextPosition &at);
  Status bitMask(const ExpectedOperand &e, std::string_view word, const TextPosition &at);
  Status anything(std::string_view word, const TextPosition &at);

  /// The enumerant `name` of `kind`, if the target version may use it; else the error.
  Expected<const grammar::EnumerantDesc *> enumerant(grammar::OperandKind kind,
                                                     std::string_view name, const TextPosition &at);

  Diagnostic error(const TextPosition &at, std::string message) const {
    return makeError(Lexer::location(at), std::move(message));
  }
  std::string opName() const {
    return desc_ ? std::string(desc_->name) : std::string("the !<integer> instruction");
  }
  size_t instSize() const { return words_.size() - instStart_; }
  uint32_t instWord(size_t i) const { return words_[instStart_ + i]; }

  Lexer lex_;
  AssembleOptions options_;
  IdNumbering ids_;
  TypeTable types_;
  std::vector<uint32_t> words_;
  ExpectedOperands expected_;
  NameCache &names_ = NameCache::forThisThread();

  // The instruction being read.
  size_t instStart_ = 0;
  const grammar::InstructionDesc *desc_ = nullptr; // null when it starts with !<integer>
  uint16_t opcode_ = 0;
  uint32_t resultTypeId_ = 0;
  const ImportedSet *extSet_ = nullptr; // the set of an OpExtInst, once read
  std::string_view resultName_;         // "%name" before '='
  TextPosition resultAt_;
  std::string string_; // the last string literal read
};

Expected<std::vector<uint32_t>> TextAssembler::run() {
  words_.assign(binary::kHeaderWords, 0);
  lex_.skipBlanks();
  while (lex_.hasText()) {
    if (Status s = instruction(); !s)
      return s.error();
    if (!lex_.skipBlanks())
      break;
  }
  words_[0] = binary::kMagic;
  words_[1] = options_.version;
  words_[2] = binary::kAssemblerGenerator;
  words_[3] = ids_.bound();
  words_[4] = 0;
  return std::move(words_);
}

Status TextAssembler::instruction() {
  instStart_ = words_.size();
  desc_ = nullptr;
  opcode_ = 0;
  resultTypeId_ = 0;
  extSet_ = nullptr;
  resultName_ = {};
  if (lex_.peek() == '!')
    return immediateInstruction();

  const TextPosition start = lex_.position();
  TextPosition end;
  std::string_view opWord = lex_.word(end);
  TextPosition opAt = start;
  if (opWord.empty())
    return error(start, "unexpected NUL byte where an instruction should start");
  if (!lex_.atOpcode()) {
    if (opWord[0] != '%')
      return error(start, "expected an opcode (OpName) or a result id (%name = OpName) at the "
                          "start of an instruction, found " +
                              quoted(opWord));
    resultName_ = opWord;
    resultAt_ = start;
    lex_.moveTo(end);
    if (!lex_.skipBlanks())
      return error(end,
                   "expected '=' after the result id " + printable(opWord) + ", found the end");
    std::string_view equals = lex_.word(end);
    if (equals != "=")
      return error(lex_.position(), "expected '=' after the result id " + printable(opWord) +
                                        ", found " + quoted(equals));
    lex_.moveTo(end);
    if (!lex_.skipBlanks())
      return error(end, "expected an opcode after '=', found the end");
    opAt = lex_.position();
    opWord = lex_.word(end);
    if (!lex_.atOpcode())
      return error(opAt, "expected an opcode (OpName) after '=', found " + quoted(opWord));
  }

  desc_ = names_.instruction(opWord);
  if (desc_ == nullptr)
    return error(opAt, "unknown opcode " + quoted(opWord));
  if (!available(desc_->availability, options_.version))
    return error(opAt,
                 printable(opWord) + " " + unavailable(desc_->availability, options_.version));
  if (desc_->hasResult && resultName_.empty())
    return error(opAt, printable(opWord) + " has a result: write '%name = " + printable(opWord) +
                           " ...'");
  if (!desc_->hasResult && !resultName_.empty())
    return error(resultAt_, printable(opWord) + " has no result, so " + printable(resultName_) +
                                " cannot be assigned");
  opcode_ = desc_->opcode;
  lex_.moveTo(end);
  words_.push_back(0); // the opcode word, completed at the end

  expected_.clear();
  std::span<const grammar::OperandDesc> operands = desc_->operands;
  // The operands of an OpExtInst come from its instruction's grammar; its own trailing
  // "Operand 1, ..." is not read (so no extra operands are accepted).
  if (opcode_ == uint16_t(Op::ExtInst) && !operands.empty() &&
      operands.back().quantifier == grammar::Quantifier::Variadic)
    operands = operands.first(operands.size() - 1);
  expected_.push(operands);
  if (Status s = readOperands(); !s)
    return s;
  return finishInstruction(opAt);
}

Status TextAssembler::readOperands() {
  while (!expected_.empty()) {
    ExpectedOperand e = expected_.pop();
    if (e.quantifier == grammar::Quantifier::Variadic) {
      expected_.expandVariadic(e);
      continue;
    }
    if (e.slot == Slot::ResultId && !resultName_.empty()) {
      if (Status s = id(resultName_, Slot::ResultId, resultAt_); !s)
        return s;
      continue;
    }
    // At the end of the text, the error points just past the last word read.
    const TextPosition lastEnd = lex_.position();
    auto missing = [&](const TextPosition &where, const char *found) {
      std::string what = e.name.empty() ? std::string(grammar::operandKindName(e.kind))
                                        : "'" + std::string(e.name) + "'";
      return error(where, opName() + " is missing its operand " + what + ": found " + found);
    };
    if (!lex_.skipBlanks()) {
      if (e.optional())
        break;
      return missing(lastEnd, "the end of the text");
    }
    const TextPosition at = lex_.position();
    TextPosition end;
    std::string_view word = lex_.word(end);
    if (lex_.startsInstruction(word, end)) {
      if (e.optional())
        break;
      return missing(at, "the next instruction");
    }
    if (word[0] == '!') {
      if (Status s = immediate(word, at); !s)
        return s;
      expected_.replaceAfterImmediate();
    } else if (Status s = operand(e, word, at); !s) {
      return s;
    }
    lex_.moveTo(end);
  }
  return {};
}

Status TextAssembler::immediateInstruction() {
  TextPosition at = lex_.position();
  TextPosition end;
  std::string_view first = lex_.word(end);
  if (Status s = immediate(first, at); !s)
    return s;
  lex_.moveTo(end);
  while (lex_.skipBlanks()) {
    at = lex_.position();
    std::string_view word = lex_.word(end);
    if (lex_.startsInstruction(word, end))
      break;
    if (word == "=")
      return error(at, "an instruction that starts with " + printable(first) +
                           " cannot assign a result id");
    Status s = word[0] == '!' ? immediate(word, at) : anything(word, at);
    if (!s)
      return s;
    lex_.moveTo(end);
  }
  // Beyond spirv-as: integer and float types written as raw words (spire dis prints
  // instructions it could not decode, and their neighbours, that way; consecutive raw
  // instructions read as one run of words) still type the literals of later constants. Text
  // spirv-as accepts never depends on this.
  for (size_t p = instStart_; p < words_.size();) {
    const uint32_t head = words_[p], count = head >> 16;
    if (count == 0 || p + count > words_.size())
      break;
    if ((head & 0xFFFF) == uint16_t(Op::TypeInt) && count == 4)
      (void)types_.declareType(words_[p + 1],
                               {DeclaredType::Kind::Int, words_[p + 3] != 0, words_[p + 2]});
    else if ((head & 0xFFFF) == uint16_t(Op::TypeFloat) && (count == 3 || count == 4))
      (void)types_.declareType(words_[p + 1],
                               {DeclaredType::Kind::Float, false, words_[p + 2],
                                count == 4 ? words_[p + 3] : DeclaredType::kNoEncoding});
    p += count;
  }
  return {};
}

Status TextAssembler::finishInstruction(const TextPosition &at) {
  if (isSpirvToolsTypeOpcode(opcode_)) {
    DeclaredType t;
    if (opcode_ == uint16_t(Op::TypeInt)) {
      if (instSize() != 4)
        return error(at, "OpTypeInt takes exactly a width and a signedness");
      t = {DeclaredType::Kind::Int, instWord(3) != 0, instWord(2)};
    } else if (opcode_ == uint16_t(Op::TypeFloat)) {
      // Grammars newer than spirv-as's add an optional encoding (BFloat16KHR ...).
      if (instSize() != 3 && !(instSize() == 4 && desc_->operands.size() > 2))
        return error(at, "OpTypeFloat takes exactly a width");
      t = {DeclaredType::Kind::Float, false, instWord(2),
           instSize() == 4 ? instWord(3) : DeclaredType::kNoEncoding};
    }
    if (!types_.declareType(instWord(1), t))
      return error(at, "id " + std::to_string(instWord(1)) + " (" + printable(resultName_) +
                           ") declares a type a second time");
  } else if (desc_->hasResultType && instSize() >= 3) {
    types_.recordValue(instWord(2), instWord(1));
  }
  if (instSize() > kMaxInstructionWords)
    return error(at, opName() + " would take " + std::to_string(instSize()) +
                         " words; an instruction takes at most 65535");
  words_[instStart_] = uint32_t(instSize()) << 16 | opcode_;
  return {};
}

Status TextAssembler::operand(const ExpectedOperand &e, std::string_view word,
                              const TextPosition &at) {
  switch (e.slot) {
  case Slot::Id:
  case Slot::TypeId:
  case Slot::ResultId:
    return id(word, e.slot, at);
  case Slot::LiteralInteger:
    return number(word, {LiteralType::Kind::Unsigned, 32}, at);
  case Slot::LiteralFloat:
    return number(word, {LiteralType::Kind::Float, 32}, at);
  case Slot::TypedNumber:
    return typedNumber(word, at);
  case Slot::String:
    switch (readStringLiteral(word, string_)) {
    case StringLiteral::String:
      return string(at);
    case StringLiteral::Number:
      return error(at, "expected a quoted string, found the number " + quoted(word));
    case StringLiteral::NotString:
      break;
    }
    return error(at, "expected a quoted string (\"...\"), found " + quoted(word));
  case Slot::ExtInstNumber:
    return extInstNumber(word, at);
  case Slot::SpecOpcode:
    return specOpcode(word, at);
  case Slot::ValueEnum:
    return valueEnum(e, word, at);
  case Slot::BitMask:
    return bitMask(e, word, at);
  case Slot::Any:
    if (Status s = anything(word, at); !s)
      return s;
    if (expected_.empty())
      expected_.push(anyOperand());
    return {};
  case Slot::LiteralIdPairs:
  case Slot::IdLiteralPairs:
    break; // always variadic: expanded before they are read
  }
  return error(at, "internal error: unexpected operand slot");
}

Status TextAssembler::immediate(std::string_view word, const TextPosition &at) {
  std::optional<uint32_t> value = readUnsigned32(word.substr(1));
  if (!value)
    return error(at, quoted(word) + " is not an immediate: '!' must be followed by a 32-bit "
                                    "unsigned integer");
  words_.push_back(*value);
  return {};
}

Status TextAssembler::id(std::string_view word, Slot slot, const TextPosition &at) {
  if (word[0] != '%')
    return error(at, "expected an id (%name), found " + quoted(word));
  std::string_view name = word.substr(1);
  if (!isIdName(name))
    return error(at, quoted(word) + " is not a valid id: a name is '%' and letters, digits or '_'");
  const uint32_t value = ids_.idFor(name);
  if (slot == Slot::TypeId)
    resultTypeId_ = value;
  words_.push_back(value);
  // The set of an OpExtInst, once it is read, says how its instruction is written.
  if (opcode_ == uint16_t(Op::ExtInst) && instSize() == 4) {
    extSet_ = types_.import(value);
    if (extSet_ == nullptr)
      return error(at, printable(word) + " is not an extended instruction set: import it with "
                                         "OpExtInstImport first");
  }
  return {};
}

Status TextAssembler::number(std::string_view word, LiteralType type, const TextPosition &at) {
  LiteralWords out;
  std::string message;
  if (!encodeNumericLiteral(word, type, out, message))
    return error(at, message);
  words_.insert(words_.end(), out.words, out.words + out.count);
  return {};
}

Status TextAssembler::typedNumber(std::string_view word, const TextPosition &at) {
  if (opcode_ == uint16_t(Op::Constant) || opcode_ == uint16_t(Op::SpecConstant)) {
    std::optional<DeclaredType> t = types_.type(resultTypeId_);
    if (!t || t->kind == DeclaredType::Kind::Other)
      return error(at, "the literal of " + opName() +
                           " needs its result type to be an integer or float type declared "
                           "earlier");
    return number(word, literalTypeOf(*t), at);
  }
  if (opcode_ == uint16_t(Op::Switch)) {
    std::optional<DeclaredType> t = types_.typeOfValue(instWord(1));
    if (!t || t->kind != DeclaredType::Kind::Int)
      return error(at, "the case literals of OpSwitch need its selector to be a value of an "
                       "integer type declared earlier");
    return number(word, literalTypeOf(*t), at);
  }
  return number(word, untypedLiteral(word), at);
}

Status TextAssembler::string(const TextPosition &at) {
  if (opcode_ == uint16_t(Op::ExtInstImport)) {
    std::optional<ImportedSet> set = importedSet(string_);
    if (!set)
      return error(at, "unknown extended instruction set " + quoted(string_));
    if (!types_.addImport(instWord(1), *set))
      return error(at, "id " + std::to_string(instWord(1)) + " imports a second set");
  }
  binary::appendString(words_, string_);
  return {};
}

Status TextAssembler::extInstNumber(std::string_view word, const TextPosition &at) {
  if (extSet_ == nullptr)
    return error(at, "the extended instruction set of OpExtInst is unknown");
  if (extSet_->grammar != nullptr) {
    if (const grammar::ExtInstDesc *ext = grammar::findExtInst(*extSet_->grammar, word)) {
      words_.push_back(ext->opcode);
      expected_.push(ext->operands);
      return {};
    }
  }
  if (!extSet_->nonSemantic)
    return error(at, quoted(word) + " is not an instruction of the extended instruction set " +
                         quoted(extSet_->grammar ? extSet_->grammar->key : "?"));
  // Instructions of non-semantic sets may be given by their (decimal) number; their operands
  // are then <id>s.
  uint64_t value = 0;
  bool digits = !word.empty();
  for (char c : word) {
    digits &= c >= '0' && c <= '9';
    if (digits && value <= UINT32_MAX)
      value = value * 10 + unsigned(c - '0');
  }
  if (!digits || value > UINT32_MAX)
    return error(at, quoted(word) + " is neither an instruction name of this non-semantic set "
                                    "nor a decimal instruction number");
  words_.push_back(static_cast<uint32_t>(value));
  expected_.push({Slot::Id, grammar::Quantifier::Variadic, grammar::OperandKind::IdRef, {}});
  return {};
}

Status TextAssembler::specOpcode(std::string_view word, const TextPosition &at) {
  std::optional<uint16_t> op = specConstantOperation(word);
  const grammar::InstructionDesc *d = op ? grammar::findInstruction(*op) : nullptr;
  if (d == nullptr || d->operands.size() < 2)
    return error(at, quoted(word) + " is not an operation OpSpecConstantOp may perform (write "
                                    "an opcode name without 'Op', such as IAdd)");
  words_.push_back(*op);
  expected_.push(d->operands.subspan(2));
  return {};
}

Expected<const grammar::EnumerantDesc *>
TextAssembler::enumerant(grammar::OperandKind kind, std::string_view name, const TextPosition &at) {
  const grammar::EnumerantDesc *e = names_.enumerant(kind, name);
  const std::string kindName(grammar::operandKindName(kind));
  // Any enumerant the grammar has is accepted whatever the target version (spirv-as v2026.4
  // no longer gates them; the validator says what a version may use).
  if (e == nullptr)
    return error(at, quoted(name) + " is not a " + kindName);
  return e;
}

Status TextAssembler::valueEnum(const ExpectedOperand &e, std::string_view word,
                                const TextPosition &at) {
  Expected<const grammar::EnumerantDesc *> en = enumerant(e.kind, word, at);
  if (!en)
    return en.error();
  words_.push_back((*en)->value);
  expected_.push((*en)->parameters);
  return {};
}

Status TextAssembler::bitMask(const ExpectedOperand &e, std::string_view word,
                              const TextPosition &at) {
  uint32_t mask = 0;
  size_t begin = 0;
  while (true) {
    size_t bar = word.find('|', begin);
    std::string_view part = word.substr(begin, bar == std::string_view::npos ? bar : bar - begin);
    if (part.empty())
      return error(at, quoted(word) + " is not a " + std::string(grammar::operandKindName(e.kind)) +
                           " mask: write names joined by '|'");
    Expected<const grammar::EnumerantDesc *> en = enumerant(e.kind, part, at);
    if (!en)
      return en.error();
    mask |= (*en)->value;
    if (bar == std::string_view::npos)
      break;
    begin = bar + 1;
  }
  words_.push_back(mask);
  // The parameters of the bits follow in the order of the bits, lowest first.
  for (int b = 31; b >= 0; --b)
    if (mask & (1u << b))
      if (const grammar::EnumerantDesc *bit = grammar::findEnumerant(e.kind, 1u << b))
        expected_.push(bit->parameters);
  return {};
}

Status TextAssembler::anything(std::string_view word, const TextPosition &at) {
  auto invalid = [&](const std::string &why) {
    return error(at, quoted(word) + " cannot follow a !<integer>: " + why);
  };
  LiteralWords out;
  std::string message;
  if (encodeNumericLiteral(word, untypedLiteral(word), out, message)) {
    words_.insert(words_.end(), out.words, out.words + out.count);
    return {};
  }
  StringLiteral s = readStringLiteral(word, string_);
  if (s == StringLiteral::Number)
    return invalid(message);
  if (s == StringLiteral::String) {
    Status st = string(at);
    return st ? st : invalid(st.error().message);
  }
  if (word[0] != '%')
    return invalid("expected a 32-bit number, a quoted string or an id");
  Status st = id(word, Slot::Id, at);
  return st ? st : invalid(st.error().message);
}

} // namespace

} // namespace spvasm

Expected<std::vector<uint32_t>> assemble(std::string_view text, const AssembleOptions &options) {
  if (text.empty())
    return makeError(Location::text(1, 1), "no assembly text: the input is empty");
  if (text.size() >= UINT32_MAX)
    return makeError(Location::text(1, 1), "the assembly text is larger than 4 GiB");
  std::vector<uint32_t> preserved;
  if (options.preserveNumericIds)
    preserved = spvasm::numericIdsOf(text);
  spvasm::TextAssembler a(text, options, std::move(preserved));
  return a.run();
}

} // namespace spire

namespace spire {

std::optional<uint32_t> headerCommentVersion(std::string_view text) {
  constexpr std::string_view kPrefix = "; Version: 1.";
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos)
      end = text.size();
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos)
      continue; // a blank line
    line.remove_prefix(first);
    if (line[0] != ';')
      return std::nullopt; // the first instruction: no version comment before it
    if (!line.starts_with(kPrefix) || line.size() == kPrefix.size())
      continue;
    const char minor = line[kPrefix.size()];
    const bool moreDigits = line.size() > kPrefix.size() + 1 && line[kPrefix.size() + 1] >= '0' &&
                            line[kPrefix.size() + 1] <= '9';
    if (minor >= '0' && minor <= '6' && !moreDigits)
      return grammar::makeVersion(1, unsigned(minor - '0'));
  }
  return std::nullopt;
}

} // namespace spire
