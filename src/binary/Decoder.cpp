#include "spire/binary/Decoder.h"

#include "spire/binary/Literal.h"

#include <bit>
#include <cstdio>
#include <cstring>
#include <string>

namespace spire::binary {

using grammar::OperandCategory;
using grammar::OperandDesc;
using grammar::OperandKind;
using grammar::Quantifier;

namespace {

std::string hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", v);
  return buf;
}

std::string describe(OperandKind kind, std::string_view name) {
  std::string s(grammar::operandKindName(kind));
  if (!name.empty() && name != s)
    s = "'" + std::string(name) + "' (" + s + ")";
  return s;
}

enum class Problem : uint8_t {
  None,
  Missing,
  ZeroId,
  IdPastBound,
  NoTerminator,
  SelectorWithoutType,
  NotNumeric,
  FloatSelector,
  BadWidth,
  LiteralPastEnd,
  NotAnImport,
  BadSpecConstantOp,
  BadEnumerant,
  BadMaskBit,
  ExtraWords,
};

} // namespace

// The decoding of one instruction: a cursor over its words and what the operands seen so far
// say about the rest. Each operand list of the grammar is walked in order; the operands an
// operand brings along (enumerant parameters, extended instruction operands, the operation of
// an OpSpecConstantOp) are decoded right after it by recursion.
struct Decoder::Run {
  Decoder &d;
  const grammar::InstructionDesc &desc;
  const uint32_t *w;
  uint32_t count;
  Operand *out;     // room for one operand per word is reserved
  uint32_t idLimit; // ids must be below this (the bound, or no limit)
  uint32_t pos = 1;
  uint32_t resultType = 0;
  uint32_t result = 0;
  uint32_t lastId = 0;

  // Records the first problem found; the message is made only when the caller asks for it.
  [[gnu::cold]] bool fail(Problem p, OperandKind kind = {}, std::string_view name = {},
                          uint32_t value = 0, uint32_t extra = 0) {
    d.problem_ = {static_cast<uint8_t>(p), kind, name, pos, value, extra};
    return false;
  }

  void push(uint32_t numWords, OperandKind kind, NumberKind number = NumberKind::None,
            uint16_t width = 0) {
    *out++ = {static_cast<uint16_t>(pos), static_cast<uint16_t>(numWords), kind, number, width};
    pos += numWords;
  }

  /// Decodes a list of operands; the first `oneWord` of them are one id or integer each.
  bool list(std::span<const OperandDesc> ops, uint32_t oneWord = 0) {
    if (oneWord != 0 && count - pos >= oneWord) {
      for (const OperandDesc &o : ops.first(oneWord)) {
        const uint32_t word = w[pos];
        if (o.kind == OperandKind::LiteralInteger) {
          push(1, o.kind, NumberKind::Unsigned, 32);
          continue;
        }
        if (word - 1u >= idLimit - 1u) [[unlikely]]
          return fail(word == 0 ? Problem::ZeroId : Problem::IdPastBound, o.kind, o.name, word);
        if (o.kind == OperandKind::IdResultType)
          resultType = word;
        else if (o.kind == OperandKind::IdResult)
          result = word;
        else
          lastId = word;
        push(1, o.kind);
      }
      ops = ops.subspan(oneWord);
    }
    for (const OperandDesc &o : ops) {
      if (o.quantifier == Quantifier::One) {
        if (pos >= count)
          return fail(Problem::Missing, o.kind, o.name);
        if (!one(o.kind, o.name))
          return false;
      } else if (o.quantifier == Quantifier::Optional) {
        if (pos < count && !one(o.kind, o.name))
          return false;
      } else {
        while (pos < count)
          if (!one(o.kind, o.name))
            return false;
      }
    }
    return true;
  }

  bool required(OperandKind kind, std::string_view name) {
    if (pos >= count)
      return fail(Problem::Missing, kind, name);
    return one(kind, name);
  }

  // Decodes one operand at `pos` (which is inside the instruction). Ids and plain integers,
  // most operands of real modules, take the short way.
  [[gnu::always_inline]] bool one(OperandKind kind, std::string_view name) {
    const uint32_t word = w[pos];
    const OperandCategory category = grammar::operandCategory(kind);
    if (category == OperandCategory::Id) {
      if (word - 1u >= idLimit - 1u) // 0, or not below the bound
        return fail(word == 0 ? Problem::ZeroId : Problem::IdPastBound, kind, name, word);
      if (kind == OperandKind::IdResultType)
        resultType = word;
      else if (kind == OperandKind::IdResult)
        result = word;
      else
        lastId = word;
      push(1, kind);
      return true;
    }
    if (kind == OperandKind::LiteralInteger) {
      push(1, kind, NumberKind::Unsigned, 32);
      return true;
    }
    return other(kind, category, name, word);
  }

  [[gnu::noinline]] bool other(OperandKind kind, OperandCategory category, std::string_view name,
                               uint32_t word) {
    switch (category) {
    case OperandCategory::Id:
      break;
    case OperandCategory::Literal:
      return literal(kind, name, word);
    case OperandCategory::ValueEnum: {
      const grammar::EnumerantDesc *e = grammar::findEnumerant(kind, word);
      if (e == nullptr)
        return fail(Problem::BadEnumerant, kind, name, word);
      push(1, kind);
      return e->parameters.empty() || list(e->parameters);
    }
    case OperandCategory::BitEnum: {
      for (uint32_t rest = word; rest != 0; rest &= rest - 1) {
        uint32_t bit = rest & (~rest + 1);
        if (grammar::findEnumerant(kind, bit) == nullptr)
          return fail(Problem::BadMaskBit, kind, name, word, bit);
      }
      push(1, kind);
      // Parameters follow in the order of the bits, lowest first.
      for (uint32_t rest = word; rest != 0; rest &= rest - 1) {
        const grammar::EnumerantDesc *e = grammar::findEnumerant(kind, rest & (~rest + 1));
        if (!e->parameters.empty() && !list(e->parameters))
          return false;
      }
      return true;
    }
    case OperandCategory::Composite:
      // The case literals of OpSwitch are as wide as its selector.
      if (kind == OperandKind::PairLiteralIntegerIdRef)
        return literal(OperandKind::LiteralContextDependentNumber, name, word) &&
               required(OperandKind::IdRef, name);
      for (OperandKind base : grammar::operandKind(kind).bases)
        if (!required(base, name))
          return false;
      return true;
    }
    return true;
  }

  bool literal(OperandKind kind, std::string_view name, uint32_t word) {
    switch (kind) {
    case OperandKind::LiteralString: {
      std::optional<size_t> len = findStringLength(std::span<const uint32_t>(w + pos, count - pos));
      if (!len)
        return fail(Problem::NoTerminator, kind, name);
      push(static_cast<uint32_t>(stringWordCount(*len)), kind);
      return true;
    }
    case OperandKind::LiteralContextDependentNumber: {
      // The width comes from the result type (OpConstant, OpSpecConstant) or, for the case
      // literals of OpSwitch, from the type of the selector.
      uint32_t typeId = resultType;
      if (!desc.hasResultType) {
        typeId = resultTypeOf(d.definitions_->definition(w[1]));
        if (typeId == 0)
          return fail(Problem::SelectorWithoutType, kind, name, w[1]);
      }
      NumberType t = numberTypeOf(d.definitions_->definition(typeId));
      if (t.kind == NumberKind::None)
        return fail(Problem::NotNumeric, kind, name, typeId);
      if (!desc.hasResultType && grammar::isFloatKind(t.kind))
        return fail(Problem::FloatSelector, kind, name, w[1]);
      if (t.width == 0 || t.width > 64)
        return fail(Problem::BadWidth, kind, name, t.width);
      uint32_t words = (t.width + 31u) / 32u;
      if (pos + words > count)
        return fail(Problem::LiteralPastEnd, kind, name, t.width);
      push(words, OperandKind::TypedLiteralNumber, t.kind, t.width);
      return true;
    }
    case OperandKind::LiteralExtInstInteger: {
      ExtInstImport imp = d.extInstImport(lastId);
      if (!imp.imported)
        return fail(Problem::NotAnImport, kind, name, lastId);
      push(1, kind, NumberKind::Unsigned, 32);
      if (imp.set != nullptr) {
        if (const grammar::ExtInstDesc *ext = grammar::findExtInst(*imp.set, word))
          return list(ext->operands);
      } else if (imp.nonSemantic) {
        // Non-semantic sets without a grammar take <id> operands only: the trailing IdRef* of
        // OpExtInst decodes them.
        return true;
      }
      // A set or instruction the grammar does not describe: keep the operands as raw words.
      if (pos < count)
        push(count - pos, OperandKind::RawWords);
      return true;
    }
    case OperandKind::LiteralSpecConstantOpInteger: {
      const grammar::InstructionDesc *op = word > 0xFFFF ? nullptr : grammar::findInstruction(word);
      if (op == nullptr || !op->hasResultType || !op->hasResult || op->operands.size() < 2)
        return fail(Problem::BadSpecConstantOp, kind, name, word);
      push(1, kind, NumberKind::Unsigned, 32);
      return list(op->operands.subspan(2));
    }
    case OperandKind::RawWords:
      push(count - pos, kind);
      return true;
    default: // LiteralInteger, LiteralFloat and any other one-word literal
      push(1, kind,
           grammar::operandKind(kind).literalFloat ? NumberKind::Float : NumberKind::Unsigned, 32);
      return true;
    }
  }
};

std::string Decoder::problemMessage() const {
  const auto [code, problemKind, problemName, problemPos, problemValue, problemExtra] = problem_;
  const std::string at = " at word " + std::to_string(problemPos);
  switch (static_cast<Problem>(code)) {
  case Problem::None:
    break;
  case Problem::Missing:
    return "missing operand " + describe(problemKind, problemName) + at;
  case Problem::ZeroId:
    return describe(problemKind, problemName) + at + " is 0, which is never a valid id";
  case Problem::IdPastBound:
    return "id " + std::to_string(problemValue) + at + " is not below the bound " +
           std::to_string(bound_);
  case Problem::NoTerminator:
    return "string operand " + describe(problemKind, problemName) + at +
           " has no terminating nul within the instruction";
  case Problem::SelectorWithoutType:
    return "selector " + std::to_string(problemValue) + " has no type";
  case Problem::NotNumeric:
    return "type " + std::to_string(problemValue) + " of the literal" + at +
           " is not a scalar integer or float type";
  case Problem::FloatSelector:
    return "selector " + std::to_string(problemValue) + " is not a scalar integer";
  case Problem::BadWidth:
    return "literal of " + std::to_string(problemValue) +
           " bits is not supported (1 to 64 bits are)";
  case Problem::LiteralPastEnd:
    return "literal of " + std::to_string(problemValue) + " bits" + at +
           " runs past the end of the instruction";
  case Problem::NotAnImport:
    return "set " + std::to_string(problemValue) + " is not the result of an OpExtInstImport";
  case Problem::BadSpecConstantOp:
    return "opcode " + std::to_string(problemValue) +
           " cannot be the operation of an OpSpecConstantOp";
  case Problem::BadEnumerant:
    return "invalid " + std::string(grammar::operandKindName(problemKind)) + " " +
           std::to_string(problemValue) + at;
  case Problem::ExtraWords:
    return "instruction has " + std::to_string(problemValue) +
           " words but its operands end at word " + std::to_string(problemPos);
  case Problem::BadMaskBit:
    return "invalid " + std::string(grammar::operandKindName(problemKind)) + " bit " +
           hex(problemExtra) + " in " + hex(problemValue) + at;
  }
  return {};
}

void Decoder::reset(uint32_t bound, const Definitions &definitions, DecodeOptions options) {
  options_ = options;
  bound_ = bound;
  definitions_ = &definitions;
  imports_.clear();
}

uint32_t resultTypeOf(std::span<const uint32_t> definition) {
  if (definition.size() < 2)
    return 0;
  const grammar::InstructionDesc *d = grammar::findInstruction(definition[0] & 0xFFFF);
  return d != nullptr && d->hasResultType ? definition[1] : 0;
}

ExtInstImport Decoder::extInstImport(uint32_t id) const {
  for (const Import &i : imports_)
    if (i.id == id)
      return i.imp;
  return {};
}

Status Decoder::decode(std::span<const uint32_t> inst, uint32_t wordOffset, uint32_t instIndex,
                       FlatVector<Operand> &out) {
  const grammar::InstructionDesc *desc = grammar::findInstruction(inst[0] & 0xFFFF);
  if (!decode(inst, desc, out))
    return error(desc, wordOffset, instIndex);
  return {};
}

Diagnostic Decoder::error(const grammar::InstructionDesc *desc, uint32_t wordOffset,
                          uint32_t instIndex) const {
  return makeError(Location::binary(wordOffset, instIndex),
                   std::string(desc->name) + ": " + problemMessage());
}

bool Decoder::decode(std::span<const uint32_t> inst, const grammar::InstructionDesc *desc,
                     FlatVector<Operand> &out) {
  const uint32_t count = static_cast<uint32_t>(inst.size());
  out.reserveMore(count); // every operand takes at least one word
  if (desc == nullptr) {
    // Unknown opcodes are skipped by their word count (SPIR-V 1.4 "instruction skipping").
    if (count > 1)
      out.push_back(
          {1, static_cast<uint16_t>(count - 1), OperandKind::RawWords, NumberKind::None, 0});
    return true;
  }
  Operand *const first = out.cursor();
  Run run{*this, *desc, inst.data(), count, first, idLimit()};
  if (!run.list(desc->operands, desc->leadingOneWordOperands)) [[unlikely]]
    return false;
  if (run.pos < count) [[unlikely]] {
    problem_ = {static_cast<uint8_t>(Problem::ExtraWords), {}, {}, run.pos, count, 0};
    return false;
  }
  out.setSize(out.size() + static_cast<size_t>(run.out - first));
  if (desc->opcode == static_cast<uint16_t>(grammar::Op::ExtInstImport))
    noteImport(run.result, inst);
  return true;
}

namespace {

// Per enumerant kind: the values below 64 (value enums) or the bits (masks) that are valid and
// bring no parameters, so that most checks are one bit test.
struct PlainEnumerants {
  uint64_t small[grammar::kGrammarOperandKindCount] = {};
  PlainEnumerants() {
    for (unsigned k = 0; k < grammar::kGrammarOperandKindCount; ++k) {
      const grammar::OperandKindDesc &d = grammar::operandKind(static_cast<OperandKind>(k));
      const bool mask = d.category == OperandCategory::BitEnum;
      for (const grammar::EnumerantDesc &e : d.enumerants) {
        if (!e.parameters.empty())
          continue;
        if (mask && e.value != 0 && (e.value & (e.value - 1)) == 0)
          small[k] |= uint64_t(e.value); // bits 0..31
        else if (!mask && e.value < 64)
          small[k] |= uint64_t(1) << e.value;
      }
    }
  }
};

const PlainEnumerants &plainEnumerants() {
  static const PlainEnumerants table;
  return table;
}

} // namespace

std::span<const uint64_t> plainEnumerantMasks() { return plainEnumerants().small; }

bool isPlainEnumerant(OperandKind kind, uint32_t word) {
  const unsigned k = static_cast<unsigned>(kind);
  if (k >= grammar::kGrammarOperandKindCount)
    return false;
  const uint64_t small = plainEnumerants().small[k];
  if (grammar::operandCategory(kind) == OperandCategory::BitEnum)
    return (word & ~uint32_t(small)) == 0; // 0 (None) is always allowed
  if (word < 64)
    return ((small >> word) & 1) != 0;
  const grammar::EnumerantDesc *e = grammar::findEnumerant(kind, word);
  return e != nullptr && e->parameters.empty();
}

bool Decoder::decodeFixed(std::span<const uint32_t> inst, const grammar::InstructionDesc &desc) {
  const size_t n = inst.size() - 1;
  if (!desc.fixedShape || n < desc.requiredWordOperands || n > desc.fixedOperands.size())
    return false;
  const uint32_t limit = idLimit();
  // Fixed operands are ids, plain integers or enumerants without parameters.
  const grammar::DecodedOperand *fixed = desc.fixedOperands.data();
  for (size_t k = 0; k < n; ++k) {
    const OperandKind kind = fixed[k].kind;
    if (kind == OperandKind::LiteralInteger)
      continue;
    const bool ok = grammar::operandCategory(kind) == OperandCategory::Id
                        ? inst[k + 1] - 1u < limit - 1u
                        : isPlainEnumerant(kind, inst[k + 1]);
    if (!ok)
      return false; // the full decoder explains what is wrong
  }
  return true; // an OpExtInstImport has a string: never of fixed shape
}

void Decoder::noteImport(uint32_t result, std::span<const uint32_t> inst) {
  // On a little-endian host the words hold the string's bytes in order: read it in place.
  std::string copy;
  std::string_view name;
  if constexpr (std::endian::native == std::endian::little) {
    const char *chars = reinterpret_cast<const char *>(inst.data() + 2);
    name = std::string_view(chars, strnlen(chars, (inst.size() - 2) * 4));
  } else {
    copy = decodeString(inst.subspan(2));
    name = copy;
  }
  ExtInstImport imp;
  imp.imported = true;
  imp.set = grammar::findExtInstSet(name);
  imp.nonSemantic = name.rfind("NonSemantic.", 0) == 0;
  imports_.push_back({result, imp});
}

} // namespace spire::binary
