#include "spire/binary/Decoder.h"

#include "spire/binary/Literal.h"

#include <cstdio>
#include <string>

namespace spire::binary {

using grammar::OperandCategory;
using grammar::OperandKind;
using grammar::Quantifier;

namespace {

uint32_t packNumber(NumberType t) { return uint32_t(t.kind) << 16 | t.width; }
NumberType unpackNumber(uint32_t v) {
  return NumberType{static_cast<NumberKind>(v >> 16), static_cast<uint16_t>(v & 0xFFFF)};
}

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

} // namespace

void Decoder::reset(uint32_t bound, size_t moduleWords, DecodeOptions options) {
  options_ = options;
  bound_ = bound;
  size_t denseLimit = 2 * moduleWords + 1024;
  typeOf_.reset(bound, denseLimit);
  numberType_.reset(bound, denseLimit);
  imports_.clear();
}

NumberType Decoder::numberType(uint32_t typeId) const {
  return unpackNumber(numberType_.get(typeId));
}

ExtInstImport Decoder::extInstImport(uint32_t id) const {
  for (const auto& [importId, imp] : imports_)
    if (importId == id)
      return imp;
  return {};
}

Status Decoder::decode(std::span<const uint32_t> inst, uint32_t wordOffset, uint32_t instIndex,
                       std::vector<Operand>& out) {
  const size_t count = inst.size();
  const uint32_t opcode = inst[0] & 0xFFFF;
  const grammar::InstructionDesc* desc = grammar::findInstruction(opcode);
  if (desc == nullptr) {
    // Unknown opcodes are skipped by their word count (SPIR-V 1.4 "instruction skipping").
    if (count > 1)
      out.push_back({1, static_cast<uint16_t>(count - 1), OperandKind::RawWords, NumberKind::None, 0});
    return {};
  }
  auto fail = [&](const std::string& what) {
    return Status(makeError(Location::binary(wordOffset, instIndex),
                            std::string(desc->name) + ": " + what));
  };

  stack_.clear();
  size_t pos = 1;
  uint32_t resultType = 0;
  uint32_t result = 0;
  uint32_t lastId = 0;
  auto push = [&](size_t numWords, OperandKind kind, NumberKind number = NumberKind::None,
                  uint16_t width = 0) {
    out.push_back({static_cast<uint16_t>(pos), static_cast<uint16_t>(numWords), kind, number, width});
    pos += numWords;
  };
  // Operands that an operand brings with it (enumerant parameters, the operands of an extended
  // instruction or of the operation of an OpSpecConstantOp) are decoded next.
  auto pushOperands = [&](std::span<const grammar::OperandDesc> ops) {
    for (auto it = ops.rbegin(); it != ops.rend(); ++it)
      stack_.push_back({it->kind, it->quantifier, it->name});
  };

  pushOperands(desc->operands);
  while (!stack_.empty()) {
    Pending p = stack_.back();
    stack_.pop_back();
    if (pos >= count) {
      if (p.quantifier != Quantifier::One)
        continue;
      return fail("missing operand " + describe(p.kind, p.name) + " at word " +
                  std::to_string(pos) + " of " + std::to_string(count));
    }
    if (p.quantifier == Quantifier::Variadic)
      stack_.push_back(p); // repeats while words remain
    const uint32_t word = inst[pos];

    if (p.kind == OperandKind::RawWords) {
      push(count - pos, OperandKind::RawWords);
      continue;
    }
    switch (grammar::operandCategory(p.kind)) {
    case OperandCategory::Id: {
      if (word == 0)
        return fail(describe(p.kind, p.name) + " at word " + std::to_string(pos) +
                    " is 0, which is never a valid id");
      if (word >= bound_ && !options_.allowIdsPastBound)
        return fail("id " + std::to_string(word) + " at word " + std::to_string(pos) +
                    " is not below the bound " + std::to_string(bound_));
      if (p.kind == OperandKind::IdResultType)
        resultType = word;
      else if (p.kind == OperandKind::IdResult)
        result = word;
      else
        lastId = word;
      push(1, p.kind);
      break;
    }
    case OperandCategory::Literal:
      switch (p.kind) {
      case OperandKind::LiteralString: {
        std::optional<size_t> len = findStringLength(inst.subspan(pos));
        if (!len)
          return fail("string operand " + describe(p.kind, p.name) + " at word " +
                      std::to_string(pos) + " has no terminating nul within the instruction");
        push(stringWordCount(*len), p.kind);
        break;
      }
      case OperandKind::LiteralContextDependentNumber: {
        // The width comes from the result type (OpConstant, OpSpecConstant) or, for the case
        // literals of OpSwitch, from the type of the selector.
        uint32_t typeId = resultType;
        if (!desc->hasResultType) {
          typeId = typeOf(inst[1]);
          if (typeId == 0)
            return fail("selector " + std::to_string(inst[1]) + " has no type");
        }
        NumberType t = numberType(typeId);
        if (t.kind == NumberKind::None)
          return fail("type " + std::to_string(typeId) + " of the literal at word " +
                      std::to_string(pos) + " is not a scalar integer or float type");
        if (!desc->hasResultType && t.kind == NumberKind::Float)
          return fail("selector " + std::to_string(inst[1]) + " is not a scalar integer");
        if (t.width == 0 || t.width > 64)
          return fail("literal of " + std::to_string(t.width) +
                      " bits is not supported (1 to 64 bits are)");
        size_t words = (t.width + 31u) / 32u;
        if (pos + words > count)
          return fail("literal of " + std::to_string(t.width) + " bits at word " +
                      std::to_string(pos) + " runs past the end of the instruction");
        push(words, OperandKind::TypedLiteralNumber, t.kind, t.width);
        break;
      }
      case OperandKind::LiteralExtInstInteger: {
        ExtInstImport imp = extInstImport(lastId);
        if (!imp.imported)
          return fail("set " + std::to_string(lastId) + " is not the result of an OpExtInstImport");
        push(1, p.kind, NumberKind::Unsigned, 32);
        if (imp.set != nullptr) {
          if (const grammar::ExtInstDesc* ext = grammar::findExtInst(*imp.set, word))
            pushOperands(ext->operands);
          else
            stack_.push_back({OperandKind::RawWords, Quantifier::Optional, {}});
        } else if (!imp.nonSemantic) {
          // A set the grammar does not describe: keep the operands as raw words.
          stack_.push_back({OperandKind::RawWords, Quantifier::Optional, {}});
        }
        // Non-semantic sets without a grammar take <id> operands only: the grammar's
        // trailing IdRef* decodes them.
        break;
      }
      case OperandKind::LiteralSpecConstantOpInteger: {
        const grammar::InstructionDesc* op = grammar::findInstruction(word & 0xFFFF);
        if (word > 0xFFFF || op == nullptr || !op->hasResultType || !op->hasResult ||
            op->operands.size() < 2)
          return fail("opcode " + std::to_string(word) +
                      " cannot be the operation of an OpSpecConstantOp");
        push(1, p.kind, NumberKind::Unsigned, 32);
        pushOperands(op->operands.subspan(2));
        break;
      }
      default: // LiteralInteger, LiteralFloat and any other one-word literal
        push(1, p.kind,
             grammar::operandKind(p.kind).literalFloat ? NumberKind::Float : NumberKind::Unsigned,
             32);
        break;
      }
      break;
    case OperandCategory::ValueEnum: {
      const grammar::EnumerantDesc* e = grammar::findEnumerant(p.kind, word);
      if (e == nullptr)
        return fail("invalid " + std::string(grammar::operandKindName(p.kind)) + " " +
                    std::to_string(word) + " at word " + std::to_string(pos));
      push(1, p.kind);
      pushOperands(e->parameters);
      break;
    }
    case OperandCategory::BitEnum: {
      // Parameters follow in the order of the bits, lowest first: push the highest first.
      for (uint32_t rest = word; rest != 0; rest &= rest - 1) {
        uint32_t bit = rest & (~rest + 1);
        if (grammar::findEnumerant(p.kind, bit) == nullptr)
          return fail("invalid " + std::string(grammar::operandKindName(p.kind)) + " bit " +
                      hex(bit) + " in " + hex(word) + " at word " + std::to_string(pos));
      }
      push(1, p.kind);
      for (int b = 31; b >= 0; --b)
        if (word & (1u << b))
          pushOperands(grammar::findEnumerant(p.kind, 1u << b)->parameters);
      break;
    }
    case OperandCategory::Composite: {
      // The case literals of OpSwitch are as wide as its selector.
      if (p.kind == OperandKind::PairLiteralIntegerIdRef) {
        stack_.push_back({OperandKind::IdRef, Quantifier::One, p.name});
        stack_.push_back({OperandKind::LiteralContextDependentNumber, Quantifier::One, p.name});
        break;
      }
      auto bases = grammar::operandKind(p.kind).bases;
      for (auto it = bases.rbegin(); it != bases.rend(); ++it)
        stack_.push_back({*it, Quantifier::One, p.name});
      break;
    }
    }
  }
  if (pos < count)
    return fail("instruction has " + std::to_string(count) + " words but its operands end at word " +
                std::to_string(pos));

  if (result != 0) {
    if (desc->hasResultType)
      typeOf_.set(result, resultType);
    switch (static_cast<grammar::Op>(opcode)) {
    case grammar::Op::TypeInt:
      numberType_.set(result, packNumber({inst[3] ? NumberKind::Signed : NumberKind::Unsigned,
                                          static_cast<uint16_t>(inst[2] > 0xFFFF ? 0 : inst[2])}));
      break;
    case grammar::Op::TypeFloat:
      numberType_.set(result, packNumber({NumberKind::Float,
                                          static_cast<uint16_t>(inst[2] > 0xFFFF ? 0 : inst[2])}));
      break;
    case grammar::Op::ExtInstImport: {
      std::string name = decodeString(inst.subspan(2));
      ExtInstImport imp;
      imp.imported = true;
      imp.set = grammar::findExtInstSet(name);
      imp.nonSemantic = name.rfind("NonSemantic.", 0) == 0;
      imports_.emplace_back(result, imp);
      break;
    }
    default:
      break;
    }
  }
  return {};
}

} // namespace spire::binary
