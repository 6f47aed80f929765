#include "spire/module/Module.h"

#include "spire/binary/Decoder.h"
#include "spire/binary/Literal.h"
#include "spire/binary/Words.h"
#include "spire/module/Opcodes.h"
#include "spire/support/Pages.h"

#include <algorithm>
#include <array>
#include <bit>
#include <bitset>
#include <cstdio>
#include <cstring>
#include <optional>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace spire {

using grammar::Op;

std::string_view sectionName(Section s) {
  static constexpr std::string_view kNames[kSectionCount] = {
      "capabilities",
      "extensions",
      "extended instruction imports",
      "memory model",
      "entry points",
      "execution modes",
      "debug sources",
      "debug names",
      "module-processed annotations",
      "annotations",
      "types, constants and global variables",
      "function declarations",
      "function definitions"};
  return kNames[static_cast<unsigned>(s)];
}

const grammar::InstructionDesc *Instruction::desc() const {
  return grammar::findInstruction(m_->insts_[index_].opcode);
}

std::string Instruction::stringOperand(const binary::Operand &op) const {
  return binary::decodeString(operandWords(op));
}

namespace {

Section sectionOf(Op op, const grammar::InstructionDesc *desc) {
  switch (op) {
  case Op::Capability:
    return Section::Capability;
  case Op::Extension:
    return Section::Extension;
  case Op::ExtInstImport:
    return Section::ExtInstImport;
  case Op::MemoryModel:
    return Section::MemoryModel;
  case Op::EntryPoint:
    return Section::EntryPoint;
  case Op::ExecutionMode:
  case Op::ExecutionModeId:
    return Section::ExecutionMode;
  case Op::String:
  case Op::SourceExtension:
  case Op::Source:
  case Op::SourceContinued:
    return Section::DebugSource;
  case Op::Name:
  case Op::MemberName:
    return Section::DebugName;
  case Op::ModuleProcessed:
    return Section::DebugModuleProcessed;
  default:
    if (desc != nullptr && desc->cls == grammar::InstructionClass::Annotation)
      return Section::Annotation;
    return Section::Global;
  }
}

// What the reader's loop needs of an opcode, in one small record: the fast path takes an
// instruction of fixed shape (see InstructionDesc::fixedShape) whose word count is in range and
// whose id operands are all valid, without calling into the decoder.
struct FastOp {
  uint32_t ids = 0;   ///< bit k: operand word k + 1 is an id
  uint32_t enums = 0; ///< bit k: operand word k + 1 is an enumerant
  int16_t desc = -1;  ///< index in grammar::instructions(), -1 for an unknown opcode
  uint8_t minWords = 0xFF, maxWords = 0; ///< word counts the fast path takes (empty: none)
  uint8_t flags = 0;
  Section section = Section::Global; ///< outside functions
  uint8_t tail = 0xFF;               ///< kFastEnumTail: index in FastTable::tails
  /// The reader's inner loop takes instances of minWords to hotMax words (0: none): fixed
  /// shapes and strings whose operand words all fit the window.
  uint8_t hotMax = 0;
};
// kHasType and kHasResult are the module's own flags (1 and 2).
constexpr uint8_t kFastTerminator = 4,
                  kFastDecodeFixed = 8,   // fixed shape longer than the masks: decodeFixed
    kFastString = 16,                     // one-word operands, then a string that ends the
                                          // instruction (OpName, OpMemberName, OpString, ...)
    kFastFunctionLayout = 32,             // OpFunction, OpLabel, OpFunctionEnd
    kFastEnumTail = 64,                   // one-word operands, then a value enumerant whose
                                          // parameters are one word each (OpDecorate, ...)
    kFastConstant = 128;                  // OpConstant, OpSpecConstant: a scalar literal
constexpr size_t kFastOperands = 32;      // operand words the masks cover
constexpr uint32_t kWordWindow = 8;       // operand words checked without a loop
constexpr uint32_t kFastTableSize = 1024; // core opcodes, and an unknown entry last
constexpr size_t kStringPrefix = 3;       // one-word operands before a string the loop stores
static_assert(sizeof(FastOp) == 16);

// Tests of kWordWindow words at once: which are not ids below a limit (0 or past it), which
// hold a string's end. The constants are made once per module.
class WordWindow {
public:
  explicit WordWindow(uint32_t limit) {
#if defined(__SSE2__)
    // SSE2 has signed comparisons only: w - 1 < limit - 1 (unsigned) is the same comparison
    // with both sides' top bit flipped, and (w - 1) ^ 0x80000000 is w + 0x7FFFFFFF.
    bias_ = _mm_set1_epi32(INT32_MAX);
    bound_ = _mm_set1_epi32(static_cast<int>((limit - 1u) ^ 0x80000000u));
#else
    limit_ = limit;
#endif
  }
  /// Bit k: word k of the kWordWindow words at `w` is not a valid id.
  uint32_t badIds(const uint32_t *w) const {
#if defined(__SSE2__)
    static_assert(kWordWindow == 8);
    const auto okBits = [&](const uint32_t *p) {
      const __m128i v = _mm_add_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i *>(p)), bias_);
      return static_cast<uint32_t>(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmplt_epi32(v, bound_))));
    };
    return ~(okBits(w) | okBits(w + 4) << 4) & 0xFFu;
#else
    uint32_t bad = 0;
    for (uint32_t k = 0; k < kWordWindow; ++k)
      bad |= uint32_t(w[k] - 1u >= limit_ - 1u) << k;
    return bad;
#endif
  }

  /// Bit k: word k of the kWordWindow words at `w` holds a zero byte (a string's end).
  static uint32_t zeroBytes(const uint32_t *w) {
#if defined(__SSE2__)
    const __m128i ones = _mm_set1_epi32(0x01010101),
                  highs = _mm_set1_epi32(static_cast<int>(0x80808080u));
    const auto noZero = [&](const uint32_t *p) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
      // (v - 0x01010101) & ~v & 0x80808080 is nonzero where a byte of v is zero.
      const __m128i t = _mm_and_si128(_mm_andnot_si128(v, _mm_sub_epi32(v, ones)), highs);
      return static_cast<uint32_t>(
          _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(t, _mm_setzero_si128()))));
    };
    return ~(noZero(w) | noZero(w + 4) << 4) & 0xFFu;
#else
    uint32_t zero = 0;
    for (uint32_t k = 0; k < kWordWindow; ++k)
      zero |= uint32_t(binary::hasZeroByte(w[k])) << k;
    return zero;
#endif
  }

private:
#if defined(__SSE2__)
  __m128i bias_, bound_;
#else
  uint32_t limit_;
#endif
};

// The enumerant operands (bit k: word k + 1) of a fast-path instruction are valid and plain.
bool plainEnumerants(const FastOp &f, const uint32_t *words, uint32_t enums) {
  const grammar::InstructionDesc &d = grammar::instructions()[static_cast<size_t>(f.desc)];
  for (; enums != 0; enums &= enums - 1) {
    const unsigned k = static_cast<unsigned>(std::countr_zero(enums));
    if (!binary::isPlainEnumerant(d.fixedOperands[k].kind, words[k + 1]))
      return false;
  }
  return true;
}

// One stored operand of one word.
void putOneWord(binary::Operand &out, uint32_t word, grammar::OperandKind kind) {
  const bool literal = kind == grammar::OperandKind::LiteralInteger ||
                       kind == grammar::OperandKind::LiteralExtInstInteger;
  out = {static_cast<uint16_t>(word), 1, kind,
         literal ? binary::NumberKind::Unsigned : binary::NumberKind::None,
         static_cast<uint16_t>(literal ? 32 : 0)};
}

// The enumerants below kSmallEnumerants of a value enum kind whose parameters are one word
// each (ids, plain integers, enumerants without parameters): the reader stores the operands of
// an instruction ending in one without the decoder's walk.
constexpr uint32_t kSmallEnumerants = 64;
struct EnumTail {
  const grammar::EnumerantDesc *e = nullptr; ///< null: the decoder's way
  uint8_t idParams = 0;                      ///< bit k: parameter k is an id
  uint8_t enumParams = 0;                    ///< bit k: parameter k is an enumerant
  bool leadingString = false; ///< parameter 0 is a string (LinkageAttributes, UserSemantic)
};
using EnumTails = std::array<EnumTail, kSmallEnumerants>;

// Value enums by value; bit enums by bit number (each bit's own parameters).
EnumTails enumTails(grammar::OperandKind kind, bool bits) {
  EnumTails out{};
  for (const grammar::EnumerantDesc &e : grammar::operandKind(kind).enumerants) {
    if (bits && !std::has_single_bit(e.value))
      continue;
    const uint32_t slot = bits ? static_cast<uint32_t>(std::countr_zero(e.value)) : e.value;
    if (slot >= kSmallEnumerants || e.parameters.size() > 8 || out[slot].e != nullptr)
      continue;
    EnumTail t;
    bool ok = true;
    for (size_t k = 0; k < e.parameters.size() && ok; ++k) {
      const grammar::OperandDesc &param = e.parameters[k];
      const grammar::OperandCategory c = grammar::operandCategory(param.kind);
      if (param.quantifier != grammar::Quantifier::One)
        ok = false;
      else if (k == 0 && param.kind == grammar::OperandKind::LiteralString && !bits)
        t.leadingString = true;
      else if (c == grammar::OperandCategory::Id)
        t.idParams |= uint8_t(1u << k);
      else if (c == grammar::OperandCategory::ValueEnum)
        t.enumParams |= uint8_t(1u << k);
      else
        ok = param.kind == grammar::OperandKind::LiteralInteger;
    }
    if (ok) {
      t.e = &e;
      out[slot] = t;
    }
  }
  return out;
}

struct FastTable {
  std::vector<FastOp> ops;
  /// For the kFastEnumTail opcodes (FastOp::tail): their last operand's enumerants.
  struct Tail {
    grammar::OperandKind kind;
    bool bits; ///< a mask (MemoryAccess of OpLoad) rather than a value (Decoration)
    EnumTails enumerants;
  };
  std::vector<Tail> tails;

  // Whether `ops` are required ids and plain integers, one word each; `ids` marks the ids.
  static bool oneWordOperands(std::span<const grammar::OperandDesc> ops, uint32_t &ids) {
    for (size_t k = 0; k < ops.size(); ++k) {
      if (ops[k].quantifier != grammar::Quantifier::One)
        return false;
      if (grammar::operandCategory(ops[k].kind) == grammar::OperandCategory::Id)
        ids |= uint32_t(1) << k;
      else if (ops[k].kind != grammar::OperandKind::LiteralInteger)
        return false;
    }
    return true;
  }

  // One-word required operands (ids, plain integers) and a last value enumerant (required) or
  // mask (required or optional).
  void enumTailShape(const grammar::InstructionDesc &d, FastOp &f) {
    const auto ops = d.operands;
    if (ops.empty() || ops.size() > 8 || ops.back().quantifier == grammar::Quantifier::Variadic)
      return;
    const grammar::OperandCategory last = grammar::operandCategory(ops.back().kind);
    const bool bits = last == grammar::OperandCategory::BitEnum;
    if (!bits && (last != grammar::OperandCategory::ValueEnum ||
                  ops.back().quantifier != grammar::Quantifier::One))
      return;
    uint32_t ids = 0;
    if (!oneWordOperands(ops.first(ops.size() - 1), ids) || tails.size() >= 0xFF)
      return;
    f.ids |= ids;
    f.flags |= kFastEnumTail;
    // One table per operand kind (the image instructions share ImageOperands', ...).
    const auto same = std::find_if(tails.begin(), tails.end(),
                                   [&](const Tail &t) { return t.kind == ops.back().kind; });
    f.tail = static_cast<uint8_t>(same - tails.begin());
    if (same == tails.end())
      tails.push_back({ops.back().kind, bits, enumTails(ops.back().kind, bits)});
  }

  /// For the kFastString opcodes (FastOp::tail): the operands before the string, as stored.
  struct StringPrefix {
    std::array<binary::Operand, kStringPrefix> operands;
  };
  std::vector<StringPrefix> strings;

  // One-word required operands (ids, plain integers) and a last required string: the operands
  // are stored, but without the decoder's walk.
  void stringShape(const grammar::InstructionDesc &d, FastOp &f) {
    const auto ops = d.operands;
    if (ops.empty() || ops.size() > kFastOperands ||
        ops.back().kind != grammar::OperandKind::LiteralString ||
        ops.back().quantifier != grammar::Quantifier::One)
      return;
    uint32_t ids = 0;
    if (!oneWordOperands(ops.first(ops.size() - 1), ids))
      return;
    f.ids |= ids;
    f.flags |= kFastString;
    f.minWords = static_cast<uint8_t>(ops.size() + 1); // the string takes one word or more
    f.maxWords = 0xFF;
    if (ops.size() - 1 > kStringPrefix || strings.size() >= 0xFF)
      return;
    StringPrefix prefix{};
    for (size_t k = 0; k + 1 < ops.size(); ++k)
      putOneWord(prefix.operands[k], static_cast<uint32_t>(k + 1), ops[k].kind);
    f.tail = static_cast<uint8_t>(strings.size());
    strings.push_back(prefix);
    f.hotMax = kWordWindow + 1; // the loop takes strings that end within the window
  }

  /// Opcodes of one-word operands, a string, then ids (OpEntryPoint).
  std::bitset<kFastTableSize> stringIds;
  static bool stringIdsShape(const grammar::InstructionDesc &d) {
    const auto ops = d.operands;
    if (ops.size() < 2 || ops.size() - 2 > kStringPrefix)
      return false;
    const grammar::OperandDesc &name = ops[ops.size() - 2], &ids = ops.back();
    if (name.kind != grammar::OperandKind::LiteralString ||
        name.quantifier != grammar::Quantifier::One ||
        ids.quantifier != grammar::Quantifier::Variadic ||
        grammar::operandCategory(ids.kind) != grammar::OperandCategory::Id)
      return false;
    return std::all_of(ops.begin(), ops.end() - 2, [](const grammar::OperandDesc &o) {
      const grammar::OperandCategory c = grammar::operandCategory(o.kind);
      return o.quantifier == grammar::Quantifier::One &&
             (c == grammar::OperandCategory::Id || c == grammar::OperandCategory::ValueEnum ||
              o.kind == grammar::OperandKind::LiteralInteger);
    });
  }

  FastTable() {
    // The core instructions: the table is built at every start, so extension opcodes (4000 and
    // up, rarer) take the decoder's way rather than making it six times larger.
    uint32_t maxOpcode = 0;
    for (const grammar::InstructionDesc &d : grammar::instructions())
      if (d.opcode < kFastTableSize - 1)
        maxOpcode = std::max<uint32_t>(maxOpcode, d.opcode);
    // The last entry, unknown, stands for every opcode past the table.
    ops.resize(kFastTableSize);
    const auto all = grammar::instructions();
    for (size_t i = 0; i < all.size(); ++i) {
      const grammar::InstructionDesc &d = all[i];
      if (d.opcode > maxOpcode)
        continue;
      FastOp &f = ops[d.opcode];
      f.desc = static_cast<int16_t>(i);
      const Op op = static_cast<Op>(d.opcode);
      // (OpFunction opens a function: the loop gives it the section of the instructions in one)
      f.section = op == Op::Function ? Section::FunctionDefinition : sectionOf(op, &d);
      f.flags =
          (d.hasResultType ? 1 : 0) | (d.hasResult ? 2 : 0) |
          (isBlockTerminator(op) ? kFastTerminator : 0) |
          (op == Op::Function || op == Op::Label || op == Op::FunctionEnd ? kFastFunctionLayout
                                                                          : 0);
      if (!d.fixedShape)
        stringShape(d, f);
      if (op == Op::ExtInstImport)
        f.hotMax = 0; // indexOther: the decoder notes the set
      stringIds[d.opcode] = stringIdsShape(d);
      // (OpDecorate is of fixed shape for decorations without parameters, an enumerant tail
      // for the others.)
      if ((f.flags & kFastString) == 0)
        enumTailShape(d, f);
      if (op == Op::Constant || op == Op::SpecConstant)
        f.flags |= kFastConstant;
      if (!d.fixedShape || op == Op::ExtInstImport)
        continue;
      if (d.requiredWordOperands > kFastOperands) {
        f.flags |= kFastDecodeFixed;
        continue;
      }
      // Longer instances (calls with many arguments, ...) go to decodeFixed.
      if (d.fixedOperands.size() > kFastOperands)
        f.flags |= kFastDecodeFixed;
      const size_t covered = std::min(d.fixedOperands.size(), kFastOperands);
      f.minWords = static_cast<uint8_t>(d.requiredWordOperands + 1);
      f.maxWords = static_cast<uint8_t>(covered + 1);
      f.hotMax = static_cast<uint8_t>(std::min<size_t>(covered, kWordWindow) + 1);
      for (size_t k = 0; k < covered; ++k) {
        const grammar::OperandCategory c = grammar::operandCategory(d.fixedOperands[k].kind);
        if (c == grammar::OperandCategory::Id)
          f.ids |= uint32_t(1) << k;
        else if (c == grammar::OperandCategory::ValueEnum || c == grammar::OperandCategory::BitEnum)
          f.enums |= uint32_t(1) << k;
      }
    }
  }
};

// The words hold a nul-terminated string whose nul is in the last word (and nowhere before).
bool endsWithString(const uint32_t *words, uint32_t n) {
  using binary::hasZeroByte;
  for (uint32_t k = 0; k + 1 < n; ++k)
    if (hasZeroByte(words[k]))
      return false;
  return hasZeroByte(words[n - 1]);
}

const FastTable &fastTable() {
  static const FastTable table;
  return table;
}

// The functions and blocks being indexed (SPIR-V 2.4), and what an instruction that opens or
// closes one (OpFunction, OpLabel, OpFunctionEnd, a block terminator) does to them. An open
// function or block ends where the instruction that closes it is (or after its terminator), so
// the instructions in between need nothing. The arrays must have room for one more of each.
struct Layout {
  FunctionInfo *functions;
  uint32_t numFunctions;
  BlockInfo *blocks;
  uint32_t numBlocks;
  bool inFunction, inBlock;

  void step(Op op, bool terminator, uint32_t idx) {
    if (op == Op::Function) {
      if (inBlock)
        blocks[numBlocks - 1].end = idx;
      if (inFunction) // an unterminated function: close it here
        functions[numFunctions - 1].end = idx;
      functions[numFunctions++] = {idx, idx + 1, numBlocks, 0};
      inFunction = true;
      inBlock = false;
    } else if (!inFunction) {
      return;
    } else if (op == Op::Label) {
      if (inBlock)
        blocks[numBlocks - 1].end = idx;
      blocks[numBlocks++] = {idx, idx + 1};
      functions[numFunctions - 1].numBlocks++;
      inBlock = true;
    } else if (op == Op::FunctionEnd) {
      if (inBlock)
        blocks[numBlocks - 1].end = idx;
      functions[numFunctions - 1].end = idx + 1;
      inFunction = inBlock = false;
    } else if (inBlock && terminator) {
      blocks[numBlocks - 1].end = idx + 1;
      inBlock = false;
    }
  }
};

// The shortcuts below store what the full decoder would for an instruction (see the corpus test
// FixedShapeOperandsAgreeWithTheFullDecoder) or return 0, leaving every problem to the decoder.

// Bit k: operand word k + 1 of the instruction is not a valid id.
uint32_t badIds(const uint32_t *iw, uint32_t count, uint32_t idLimit) {
  uint32_t bad = 0;
  for (uint32_t k = 1; k < count && k <= 32; ++k)
    bad |= uint32_t(iw[k] - 1u >= idLimit - 1u) << (k - 1);
  return bad;
}

// One-word operands, then an enumerant (or mask) whose parameters are one word each.
uint32_t enumTailOperands(const grammar::InstructionDesc &d, const FastTable::Tail &tail,
                          const uint32_t *iw, uint32_t count, uint32_t idLimit,
                          binary::Operand *out) {
  const uint32_t prefix = static_cast<uint32_t>(d.operands.size() - 1);
  if (count <= prefix + 1 || count > 32)
    return 0;
  const uint32_t value = iw[prefix + 1];
  // The enumerants in the order their parameters follow: one value, or a mask's bits.
  std::array<const EnumTail *, 8> parts{};
  uint32_t numParts = 0, words = prefix + 2;
  for (uint32_t rest = value, first = 1; rest != 0 || first; first = 0) {
    uint32_t slot = value;
    if (tail.bits) {
      if (rest == 0)
        break;
      slot = static_cast<uint32_t>(std::countr_zero(rest));
      rest &= rest - 1;
    }
    if (slot >= kSmallEnumerants || tail.enumerants[slot].e == nullptr || numParts == parts.size())
      return 0;
    parts[numParts++] = &tail.enumerants[slot];
    words += static_cast<uint32_t>(tail.enumerants[slot].e->parameters.size());
    if (!tail.bits)
      break;
  }
  // A leading string parameter (value enums only: one part) takes the words up to its nul.
  uint32_t stringWords = 1;
  if (numParts == 1 && parts[0]->leadingString) {
    const uint32_t first = prefix + 2;
    while (first + stringWords - 1 < count && !binary::hasZeroByte(iw[first + stringWords - 1]))
      ++stringWords;
    words += stringWords - 1;
  }
  if (count != words)
    return 0;
  const uint32_t bad = badIds(iw, count, idLimit);
  uint32_t stored = 0;
  for (uint32_t k = 0; k <= prefix; ++k) {
    const grammar::OperandKind kind = d.operands[k].kind;
    if (grammar::operandCategory(kind) == grammar::OperandCategory::Id && (bad >> k & 1) != 0)
      return 0;
    putOneWord(out[stored++], k + 1, kind);
  }
  uint32_t word = prefix + 2;
  for (uint32_t p = 0; p < numParts; ++p) {
    const EnumTail &t = *parts[p];
    for (size_t k = 0; k < t.e->parameters.size(); ++k) {
      const grammar::OperandKind kind = t.e->parameters[k].kind;
      if (k == 0 && t.leadingString) {
        out[stored++] = {static_cast<uint16_t>(word), static_cast<uint16_t>(stringWords), kind,
                         binary::NumberKind::None, 0};
        word += stringWords;
        continue;
      }
      if (((t.idParams >> k & 1) != 0 && (bad >> (word - 1) & 1) != 0) ||
          ((t.enumParams >> k & 1) != 0 && !binary::isPlainEnumerant(kind, iw[word])))
        return 0;
      putOneWord(out[stored++], word++, kind);
    }
  }
  return stored;
}

// OpConstant / OpSpecConstant %type %id <literal as wide as the type>.
uint32_t constantOperands(uint32_t count, binary::NumberType nt, binary::Operand *out) {
  if (nt.kind == binary::NumberKind::None || nt.width == 0 || nt.width > 64 ||
      count != 3 + (nt.width + 31u) / 32u)
    return 0;
  out[0] = {1, 1, grammar::OperandKind::IdResultType, binary::NumberKind::None, 0};
  out[1] = {2, 1, grammar::OperandKind::IdResult, binary::NumberKind::None, 0};
  out[2] = {3, static_cast<uint16_t>(count - 3), grammar::OperandKind::TypedLiteralNumber, nt.kind,
            nt.width};
  return 3;
}

// One-word operands (ids, plain integers, plain enumerants), a string, then ids: OpEntryPoint.
uint32_t stringIdsOperands(const grammar::InstructionDesc &d, const uint32_t *iw, uint32_t count,
                           uint32_t idLimit, binary::Operand *out) {
  const auto ops = d.operands;
  const uint32_t prefix = static_cast<uint32_t>(ops.size() - 2);
  if (count < prefix + 2)
    return 0;
  for (uint32_t k = 0; k < prefix; ++k) {
    const grammar::OperandKind kind = ops[k].kind;
    const grammar::OperandCategory c = grammar::operandCategory(kind);
    const uint32_t w = iw[k + 1];
    if ((c == grammar::OperandCategory::Id && w - 1u >= idLimit - 1u) ||
        (c == grammar::OperandCategory::ValueEnum && !binary::isPlainEnumerant(kind, w)))
      return 0;
    putOneWord(out[k], k + 1, kind);
  }
  const std::optional<size_t> length =
      binary::findStringLength(std::span<const uint32_t>(iw + prefix + 1, count - prefix - 1));
  if (!length)
    return 0;
  const uint32_t stringWords = static_cast<uint32_t>(*length / 4 + 1);
  out[prefix] = {static_cast<uint16_t>(prefix + 1), static_cast<uint16_t>(stringWords),
                 grammar::OperandKind::LiteralString, binary::NumberKind::None, 0};
  uint32_t stored = prefix + 1;
  for (uint32_t w = prefix + 1 + stringWords; w < count; ++w) {
    if (iw[w] - 1u >= idLimit - 1u)
      return 0;
    putOneWord(out[stored++], w, ops.back().kind);
  }
  return stored;
}

// OpExtInst of an imported set's instruction whose operands are ids, one each.
uint32_t extInstOperands(const uint32_t *iw, uint32_t count, uint32_t idLimit,
                         const binary::Decoder &decoder, binary::Operand *out) {
  if (count < 5 || count > 32)
    return 0;
  const uint32_t bad = badIds(iw, count, idLimit);
  if ((bad & 7u) != 0)
    return 0;
  const binary::ExtInstImport imp = decoder.extInstImport(iw[3]);
  if (!imp.imported || imp.set == nullptr)
    return 0;
  const grammar::ExtInstDesc *ext = grammar::findExtInst(*imp.set, iw[4]);
  if (ext == nullptr || ext->operands.size() != count - 5)
    return 0;
  putOneWord(out[0], 1, grammar::OperandKind::IdResultType);
  putOneWord(out[1], 2, grammar::OperandKind::IdResult);
  putOneWord(out[2], 3, grammar::OperandKind::IdRef);
  putOneWord(out[3], 4, grammar::OperandKind::LiteralExtInstInteger);
  for (uint32_t k = 0; k + 5 < count; ++k) {
    const grammar::OperandDesc &o = ext->operands[k];
    if (o.quantifier != grammar::Quantifier::One ||
        grammar::operandCategory(o.kind) != grammar::OperandCategory::Id ||
        (bad >> (k + 4) & 1) != 0)
      return 0;
    putOneWord(out[4 + k], k + 5, o.kind);
  }
  return count - 1;
}

// First guesses of the tables' sizes from the word count, grown when they fall short. Real
// modules average three to five words per instruction, and most instructions store no operands:
// guessing avoids a counting pass. A block takes at least two instructions, in practice a dozen
// words or more. What a guess leaves unused is address space only (never written, never
// touched); giving it back with realloc made glibc return and refault the pages on every read.
// The id table is dense up to a limit proportional to the size, so that a lying bound costs
// nothing.
struct TableSizes {
  size_t records, operands, blocks, functions, denseLimit, dense;
};
TableSizes tableSizes(size_t numWords, uint32_t bound) {
  const size_t body = numWords - binary::kHeaderWords;
  const size_t denseLimit = 2 * numWords + 1024;
  return {body / 2 + 16,  body / 4 + 16, body / 16 + 4,
          body / 128 + 2, denseLimit,    IdMap<uint32_t>::denseSize(bound, denseLimit)};
}

} // namespace

// allocate() sizes each table for the most instructions (operands, blocks, functions) the word
// count allows, and a module uses far less (a record per four words, not two). Where that room
// lies in memory the process already touched (a heap the tool populated ahead), its pages are
// given back; a table that grows into them later gets fresh zero pages.
namespace {
template <class T> void releaseSpare(const FlatVector<T> &v) {
  releasePages(v.data() + v.size(), v.data() + v.capacity());
}
} // namespace

Expected<Module> Module::fromBytes(std::span<const uint8_t> bytes, binary::DecodeOptions options) {
  Expected<binary::Endianness> order = binary::byteOrderOf(bytes);
  if (!order)
    return order.error();
  // Straight into the module's storage, uninitialized: in the host's byte order that is one
  // memcpy, where a vector would be zeroed first or filled a word at a time.
  uint32_t bound;
  binary::copyWords(bytes.subspan(12, 4), *order, &bound);
  Module m;
  m.allocate(bytes.size() / 4, bound);
  binary::copyWords(bytes, *order, m.words_.data());
  m.endianness_ = *order;
  if (Status s = m.index(options); !s)
    return s.error();
  releaseSpare(m.insts_);
  releaseSpare(m.operands_);
  releaseSpare(m.blocks_);
  releaseSpare(m.functions_);
  return m;
}

Expected<Module> Module::fromWords(std::vector<uint32_t> words, binary::DecodeOptions options,
                                   binary::Endianness order) {
  if (words.size() < binary::kHeaderWords)
    return makeError(Location{}, "module has " + std::to_string(words.size()) +
                                     " words, fewer than the 5 of a header");
  if (words[0] != binary::kMagic) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "invalid magic number 0x%08x", words[0]);
    return makeError(Location::binary(0, 0), buf);
  }
  Module m;
  m.allocate(words.size(), words[3]);
  std::memcpy(m.words_.data(), words.data(), words.size() * sizeof(uint32_t));
  m.endianness_ = order;
  if (Status s = m.index(options); !s)
    return s.error();
  releaseSpare(m.insts_);
  releaseSpare(m.operands_);
  releaseSpare(m.blocks_);
  releaseSpare(m.functions_);
  return m;
}

void *Module::Storage::allocate(size_t bytes) {
  std::free(p_);
  p_ = std::malloc(bytes);
  if (p_ == nullptr)
    throw std::bad_alloc();
  return p_;
}

void Module::allocate(size_t numWords, uint32_t bound) {
  const TableSizes sizes = tableSizes(numWords, bound);
  size_t bytes = 0;
  const auto part = [&](size_t count, size_t size, size_t align) {
    const size_t at = (bytes + align - 1) / align * align;
    bytes = at + count * size;
    return at;
  };
  // (and kWordWindow zero words after the module, for the reader's loop: see index())
  const size_t wordsAt = part(numWords + kWordWindow, sizeof(uint32_t), alignof(uint32_t));
  const size_t denseAt = part(sizes.dense, sizeof(uint32_t), alignof(uint32_t));
  const size_t recordsAt = part(sizes.records, sizeof(InstRecord), alignof(InstRecord));
  const size_t operandsAt = part(sizes.operands, sizeof(binary::Operand), alignof(binary::Operand));
  const size_t blocksAt = part(sizes.blocks, sizeof(BlockInfo), alignof(BlockInfo));
  const size_t functionsAt = part(sizes.functions, sizeof(FunctionInfo), alignof(FunctionInfo));
  // Most modules import one or two instruction sets (GLSL.std.450, a debug-information set).
  constexpr size_t kImports = 4;
  const size_t importsAt =
      part(kImports, sizeof(binary::Decoder::Import), alignof(binary::Decoder::Import));
  char *const p = static_cast<char *>(storage_.allocate(bytes));
  words_.borrow(reinterpret_cast<uint32_t *>(p + wordsAt), numWords + kWordWindow);
  words_.resize(numWords);
  std::memset(words_.data() + numWords, 0, kWordWindow * sizeof(uint32_t));
  defs_.reset(bound, sizes.denseLimit, kNoIndex, reinterpret_cast<uint32_t *>(p + denseAt));
  insts_.borrow(reinterpret_cast<InstRecord *>(p + recordsAt), sizes.records);
  operands_.borrow(reinterpret_cast<binary::Operand *>(p + operandsAt), sizes.operands);
  blocks_.borrow(reinterpret_cast<BlockInfo *>(p + blocksAt), sizes.blocks);
  functions_.borrow(reinterpret_cast<FunctionInfo *>(p + functionsAt), sizes.functions);
  decoder_.useImportStorage(reinterpret_cast<binary::Decoder::Import *>(p + importsAt), kImports);
}

binary::Header Module::header() const { return binary::readHeader(words_); }

std::vector<uint8_t> Module::toBytes() const { return toBytes(endianness_); }

std::vector<uint8_t> Module::toBytes(binary::Endianness order) const {
  return binary::bytesFromWords(words_, order);
}

// An instruction the fast path does not take: the decoder stores its operands (or, for a
// problem the reader recovers from, its raw words). `descIndex` is its grammar entry's index
// (-1: not in the fast table); `tryFixed`: its fixed shape is too long for the fast path. Fills
// the record at `idx` but its section.
Status Module::decodeSlow(int descIndex, bool tryFixed, uint32_t idx, size_t pos,
                          binary::DecodeOptions options) {
  InstRecord &r = insts_[idx];
  const uint32_t count = r.wordCount;
  const std::span<const uint32_t> inst(words_.data() + pos, count);
  const grammar::InstructionDesc *desc =
      descIndex >= 0 ? &grammar::instructions()[static_cast<size_t>(descIndex)]
                     : grammar::findInstruction(r.opcode);
  const uint32_t firstOperand = static_cast<uint32_t>(operands_.size());
  bool fixed = false;
  if (desc != nullptr && (descIndex < 0 || tryFixed))
    fixed = decoder_.decodeFixed(inst, *desc);
  if (!fixed && !decoder_.decode(inst, desc, operands_)) {
    Diagnostic w = decoder_.error(desc, static_cast<uint32_t>(pos), idx);
    if (!options.recover)
      return w;
    w.severity = Severity::Warning;
    w.message += "; the instruction is kept as raw words";
    warnings_.push_back(std::move(w));
    operands_.setSize(firstOperand);
    if (count > 1)
      operands_.push_back({1, static_cast<uint16_t>(count - 1), grammar::OperandKind::RawWords,
                           binary::NumberKind::None, 0});
    desc = nullptr; // nothing is known of its operands, result included
  }
  if (fixed) {
    r.firstOperand = static_cast<uint32_t>(desc - grammar::instructions().data());
    r.numOperands = static_cast<uint16_t>(count - 1);
    r.flags = kFixed;
  } else {
    r.firstOperand = firstOperand;
    r.numOperands = static_cast<uint16_t>(operands_.size() - firstOperand);
    r.flags = desc == nullptr ? kRaw : 0;
  }
  if (desc != nullptr) {
    if (desc->hasResultType)
      r.flags |= kHasType;
    if (desc->hasResult) {
      r.flags |= kHasResult;
      const uint32_t id = inst[desc->hasResultType ? 2 : 1];
      if (defs_.get(id) == kNoIndex)
        defs_.set(id, idx);
    }
  }
  return {};
}

std::span<const uint32_t> Module::definition(uint32_t id) const {
  const uint32_t i = defs_.get(id);
  if (i == kNoIndex || i >= insts_.size())
    return {};
  return inst(i).words();
}

uint32_t Module::typeOf(uint32_t id) const {
  const uint32_t i = defs_.get(id);
  return i == kNoIndex || i >= insts_.size() ? 0 : inst(i).typeId();
}

binary::NumberType Module::numberType(uint32_t typeId) const {
  return binary::numberTypeOf(definition(typeId));
}

Status Module::index(binary::DecodeOptions options) {
  const size_t n = words_.size();
  const uint32_t version = words_[1];
  const unsigned major = grammar::versionMajor(version), minor = grammar::versionMinor(version);
  if ((version & 0xFF0000FFu) != 0 || major != 1 || version > grammar::grammarVersion()) {
    char buf[128];
    std::snprintf(buf, sizeof buf,
                  "unsupported SPIR-V version word 0x%08x (%u.%u); this build reads 1.0 to %u.%u",
                  version, major, minor, grammar::versionMajor(grammar::grammarVersion()),
                  grammar::versionMinor(grammar::grammarVersion()));
    return makeError(Location::binary(1, 0), buf);
  }
  const uint32_t bound = words_[3];
  decoder_.reset(bound, *this, options);
  // allocate() made room for the tables and the id table (filled with kNoIndex).
  insts_.clear();
  operands_.clear();
  functions_.clear();
  blocks_.clear();
  warnings_.clear();

  // Two loops. The inner one takes the commonest instructions (fixed shapes and strings whose
  // operand words fit the id window: about three quarters of a module) and makes no calls, so
  // that its values stay in registers; it stops at anything else, which the outer loop hands to
  // indexOther (functions and blocks, other shapes, problems). Both keep what they use in
  // locals: the records' byte-sized fields may alias anything, and members would be loaded
  // again after each store.
  const FastTable &table = fastTable();
  const FastOp *const fast = table.ops.data();
  const FastTable::StringPrefix *const strings = table.strings.data();
  const FastTable::Tail *const enumTails = table.tails.data();
  const grammar::InstructionDesc *const descs = grammar::instructions().data();
  const uint64_t *const plainMasks = binary::plainEnumerantMasks().data();
  const WordWindow window(decoder_.idLimit());
  const uint32_t *const words = words_.data();
  uint32_t *const dense = defs_.dense().data();
  const size_t denseSize = defs_.dense().size();
  uint8_t layout = 0;
  Diagnostic error; // indexOther's
  const size_t readable = n + std::min<size_t>(words_.capacity() - n, kWordWindow);
  size_t pos = binary::kHeaderWords;
  uint32_t idx = 0;
  while (pos < n) {
    {
      InstRecord *const records = insts_.data();
      const size_t recordCapacity = insts_.capacity();
      binary::Operand *const operands = operands_.data();
      size_t numOperands = operands_.size();
      const size_t operandCapacity = operands_.capacity();
      const size_t functionCapacity = functions_.capacity();
      const size_t blockCapacity = blocks_.capacity();
      Layout layoutNow{functions_.data(),
                       static_cast<uint32_t>(functions_.size()),
                       blocks_.data(),
                       static_cast<uint32_t>(blocks_.size()),
                       (layout & kInFunction) != 0,
                       (layout & kInBlock) != 0};
      // The window may look past an instruction (the masks drop those words), not past the
      // words there are: the module's and the zero words allocate() leaves after them, so
      // that the loop takes the instructions up to the module's end.
      while (readable - pos > kWordWindow && idx < recordCapacity) {
        const uint32_t *const iw = words + pos;
        const uint32_t count = iw[0] >> 16;
        const uint32_t opcode = iw[0] & 0xFFFF;
        const FastOp &f = fast[opcode < kFastTableSize ? opcode : kFastTableSize - 1];
        // A fixed shape (or a string), one-word operands then a value enumerant with one-word
        // parameters (OpDecorate %x Location 0), or a scalar constant (OpConstant %int %x 1:
        // four in a typical shader, each a trip through indexOther otherwise).
        const bool fixedShape = count >= f.minWords && count <= f.hotMax; // (not a count of 0)
        if (!fixedShape && ((f.flags & (kFastEnumTail | kFastConstant)) == 0 || count < 3 ||
                            count > kWordWindow + 1))
          break;
        const uint32_t operandMask = (uint32_t(1) << (count - 1)) - 1;
        const uint32_t badIds = window.badIds(iw + 1) & operandMask;
        // Enumerants: most are below 64 (or a mask's bits), one bit test each.
        const auto plainEnum = [&](grammar::OperandKind kind, uint32_t w) {
          const uint64_t mask = plainMasks[static_cast<unsigned>(kind)];
          return grammar::operandCategory(kind) == grammar::OperandCategory::BitEnum
                     ? (w & ~static_cast<uint32_t>(mask)) == 0
                     : w < 64 && ((mask >> w) & 1) != 0;
        };
        const EnumTail *tail = nullptr;
        binary::NumberType literal; // an OpConstant's (kind None for anything else)
        if (fixedShape) {
          if ((badIds & f.ids) != 0)
            break;
          bool plain = true;
          for (uint32_t enums = f.enums & operandMask; enums != 0; enums &= enums - 1) {
            const unsigned k = static_cast<unsigned>(std::countr_zero(enums));
            plain &= plainEnum(descs[f.desc].fixedOperands[k].kind, iw[k + 1]);
          }
          if (!plain)
            break;
        } else if ((f.flags & kFastConstant) != 0) {
          // OpConstant %type %id <literal as wide as the type>, which an earlier instruction
          // declares (as constantOperands).
          const uint32_t type = iw[1];
          if ((badIds & 2) != 0 || type >= denseSize || dense[type] >= idx ||
              numOperands + 3 > operandCapacity)
            break;
          const InstRecord &t = records[dense[type]];
          literal =
              binary::numberTypeOf(std::span<const uint32_t>(words + t.wordOffset, t.wordCount));
          if (literal.kind == binary::NumberKind::None || literal.width == 0 ||
              literal.width > 64 || count != 3 + (literal.width + 31u) / 32u)
            break;
        } else {
          const FastTable::Tail &tails = enumTails[f.tail];
          const uint32_t prefix = static_cast<uint32_t>(descs[f.desc].operands.size() - 1);
          const uint32_t value = iw[prefix + 1];
          if (tails.bits || value >= kSmallEnumerants)
            break;
          tail = &tails.enumerants[value];
          // (A leading string parameter must end in its one word, as the count says: a word
          // without a nul would make the decoder read on into the next.)
          if (tail->e == nullptr || count != prefix + 2 + tail->e->parameters.size() ||
              (badIds & (f.ids | uint32_t(tail->idParams) << (prefix + 1))) != 0 ||
              numOperands + count > operandCapacity ||
              (tail->leadingString && !binary::hasZeroByte(iw[prefix + 2])))
            break;
          bool plain = true;
          for (uint32_t enums = tail->enumParams; enums != 0; enums &= enums - 1) {
            const unsigned k = static_cast<unsigned>(std::countr_zero(enums));
            plain &= plainEnum(tail->e->parameters[k].kind, iw[prefix + 2 + k]);
          }
          if (!plain)
            break;
        }
        // The first definition of an id is the one the index keeps (ids past the dense part:
        // indexOther).
        const uint32_t id = (f.flags & kHasResult) != 0 ? iw[1 + (f.flags & kHasType)] : 0;
        if (id >= denseSize)
          break;
        const Section section = layoutNow.inFunction ? Section::FunctionDefinition : f.section;
        if ((f.flags & (kFastFunctionLayout | kFastTerminator)) != 0) {
          if (layoutNow.numFunctions == functionCapacity || layoutNow.numBlocks == blockCapacity)
            break;
          layoutNow.step(static_cast<Op>(opcode), (f.flags & kFastTerminator) != 0, idx);
        }
        InstRecord &r = records[idx];
        if (tail != nullptr) {
          // Stored as enumTailOperands does.
          binary::Operand *out = operands + numOperands;
          const auto prefixOperands = descs[f.desc].operands;
          const uint32_t prefix = static_cast<uint32_t>(prefixOperands.size() - 1);
          for (uint32_t k = 0; k <= prefix; ++k)
            putOneWord(out[k], k + 1, prefixOperands[k].kind);
          for (uint32_t k = 0; k + prefix + 2 < count; ++k)
            putOneWord(out[prefix + 1 + k], prefix + 2 + k, tail->e->parameters[k].kind);
          r.firstOperand = static_cast<uint32_t>(numOperands);
          r.numOperands = static_cast<uint16_t>(count - 1);
          r.flags = f.flags & (kHasType | kHasResult);
          numOperands += count - 1;
        } else if (literal.kind != binary::NumberKind::None) {
          r.firstOperand = static_cast<uint32_t>(numOperands);
          r.numOperands = 3;
          r.flags = f.flags & (kHasType | kHasResult);
          numOperands += constantOperands(count, literal, operands + numOperands); // 3, as checked
        } else if ((f.flags & kFastString) == 0) {
          r.firstOperand = static_cast<uint32_t>(f.desc);
          r.numOperands = static_cast<uint16_t>(count - 1);
          r.flags = kFixed | (f.flags & (kHasType | kHasResult));
        } else {
          // One-word operands, then a string whose nul is in the last word, and only there.
          const uint32_t first = f.minWords - 2u; // the string's operand word
          const uint32_t last = count - 2u;
          const uint32_t zeros = WordWindow::zeroBytes(iw + 1) & ((uint32_t(2) << last) - 1);
          if ((zeros >> first) != (uint32_t(1) << (last - first)) ||
              numOperands + kStringPrefix + 1 > operandCapacity)
            break;
          binary::Operand *out = operands + numOperands;
          std::memcpy(out, strings[f.tail].operands.data(), sizeof(binary::Operand) * first);
          out[first] = {static_cast<uint16_t>(first + 1), static_cast<uint16_t>(count - 1 - first),
                        grammar::OperandKind::LiteralString, binary::NumberKind::None, 0};
          r.firstOperand = static_cast<uint32_t>(numOperands);
          r.numOperands = static_cast<uint16_t>(first + 1);
          r.flags = f.flags & (kHasType | kHasResult);
          numOperands += first + 1;
        }
        r.wordOffset = static_cast<uint32_t>(pos);
        r.opcode = static_cast<uint16_t>(opcode);
        r.wordCount = static_cast<uint16_t>(count);
        r.section = section;
        if (id != 0 && dense[id] == kNoIndex)
          dense[id] = idx;
        pos += count;
        ++idx;
      }
      // Within the zero words, an instruction may have claimed more words than the module has.
      if (pos > n) [[unlikely]]
        return framingError(records[idx - 1].wordOffset, idx - 1);
      operands_.setSize(numOperands);
      functions_.setSize(layoutNow.numFunctions);
      blocks_.setSize(layoutNow.numBlocks);
      layout = static_cast<uint8_t>((layoutNow.inFunction ? kInFunction : 0) |
                                    (layoutNow.inBlock ? kInBlock : 0));
    }
    if (pos >= n)
      break;
    // Everything else, and the instructions the inner loop could not take (those near the end,
    // for one).
    const uint32_t count = words[pos] >> 16;
    if (size_t(count) - 1 >= n - pos) [[unlikely]] // 0, or past the end
      return framingError(pos, idx);
    if (idx == insts_.capacity()) [[unlikely]]
      growRecords(idx);
    const int next = indexOther(idx, pos, options, layout, error);
    if (next < 0) [[unlikely]]
      return error;
    layout = static_cast<uint8_t>(next);
    pos += count;
    ++idx;
  }
  insts_.setSize(idx);
  if ((layout & kInBlock) != 0)
    blocks_.back().end = idx;
  if ((layout & kInFunction) != 0)
    functions_.back().end = idx;
  for (const FunctionInfo &f : functions_)
    if (f.numBlocks == 0)
      for (uint32_t i = f.begin; i < f.end; ++i)
        insts_[i].section = Section::FunctionDeclaration;
  return {};
}

Diagnostic Module::framingError(size_t pos, uint32_t idx) const {
  const uint32_t count = words_[pos] >> 16, opcode = words_[pos] & 0xFFFF;
  const Location loc = Location::binary(static_cast<uint32_t>(pos), idx);
  if (count == 0)
    return makeError(loc, "instruction with opcode " + std::to_string(opcode) +
                              " has a word count of 0");
  return makeError(loc, "instruction with opcode " + std::to_string(opcode) +
                            " has a word count of " + std::to_string(count) + " but only " +
                            std::to_string(words_.size() - pos) + " words remain in the module");
}

Module::InstRecord *Module::growRecords(uint32_t idx) {
  insts_.setSize(idx);
  insts_.reserveMore(1);
  return insts_.data();
}

// The first definition of an id is the one the index keeps.
void Module::noteResult(uint32_t id, uint32_t idx) {
  if (defs_.get(id) == kNoIndex)
    defs_.set(id, idx);
}

// Functions and blocks. An open function or block ends where the instruction that closes it is
// (or after its terminator), so the instructions in between need nothing here.
uint8_t Module::noteLayout(Op op, bool terminator, uint32_t idx, uint8_t layout) {
  functions_.reserveMore(1);
  blocks_.reserveMore(1);
  Layout l{functions_.data(),
           static_cast<uint32_t>(functions_.size()),
           blocks_.data(),
           static_cast<uint32_t>(blocks_.size()),
           (layout & kInFunction) != 0,
           (layout & kInBlock) != 0};
  l.step(op, terminator, idx);
  functions_.setSize(l.numFunctions);
  blocks_.setSize(l.numBlocks);
  return static_cast<uint8_t>((l.inFunction ? kInFunction : 0) | (l.inBlock ? kInBlock : 0));
}

int Module::indexOther(uint32_t idx, size_t pos, binary::DecodeOptions options, uint8_t layout,
                       Diagnostic &error) {
  const FastTable &table = fastTable();
  const uint32_t *const iw = words_.data() + pos;
  const uint32_t count = iw[0] >> 16;
  const uint16_t opcode = static_cast<uint16_t>(iw[0] & 0xFFFF);
  const FastOp &f = table.ops[opcode < kFastTableSize ? opcode : kFastTableSize - 1];
  const uint32_t idLimit = decoder_.idLimit();
  InstRecord *const records = insts_.data();
  InstRecord r;
  r.wordOffset = static_cast<uint32_t>(pos);
  r.opcode = opcode;
  r.wordCount = static_cast<uint16_t>(count);
  // A shortcut stored `num` operands from `first`: the record points at them.
  auto stored = [&](uint32_t first, uint32_t num) {
    operands_.setSize(first + num);
    r.firstOperand = first;
    r.numOperands = static_cast<uint16_t>(num);
    r.flags = f.flags & (kHasType | kHasResult);
    if ((f.flags & kHasResult) != 0)
      noteResult(iw[1 + (f.flags & kHasType)], idx);
  };

  // Fixed shapes the loop does not take (longer ones, or at the end of the module), and
  // instructions of one-word operands then a string.
  bool fixed = false;
  if (count >= f.minWords && count <= f.maxWords) {
    // The masks cover the first kFastOperands operand words (a string's are not ids).
    const uint32_t covered = std::min<uint32_t>(count, kFastOperands + 1);
    uint32_t bad = badIds(iw, covered, idLimit) & f.ids;
    if (const uint32_t enums = f.enums & static_cast<uint32_t>((uint64_t(1) << (covered - 1)) - 1);
        enums != 0 && bad == 0)
      bad = !plainEnumerants(f, iw, enums);
    fixed = bad == 0;
  }
  if (fixed && (f.flags & kFastString) != 0) {
    // The string must end (its nul) in the instruction's last word.
    const uint32_t first = static_cast<uint32_t>(f.minWords - 1);
    fixed = endsWithString(iw + first, count - first);
    if (fixed) {
      const uint32_t firstOperand = static_cast<uint32_t>(operands_.size());
      operands_.reserveMore(first);
      binary::Operand *out = operands_.cursor();
      const grammar::InstructionDesc &d = grammar::instructions()[static_cast<size_t>(f.desc)];
      for (uint32_t k = 0; k + 1 < first; ++k)
        putOneWord(out[k], k + 1, d.operands[k].kind);
      out[first - 1] = {static_cast<uint16_t>(first), static_cast<uint16_t>(count - first),
                        grammar::OperandKind::LiteralString, binary::NumberKind::None, 0};
      stored(firstOperand, first);
    }
  } else if (fixed) {
    r.firstOperand = static_cast<uint32_t>(f.desc);
    r.numOperands = static_cast<uint16_t>(count - 1);
    r.flags = kFixed | (f.flags & (kHasType | kHasResult));
    if ((f.flags & kHasResult) != 0)
      noteResult(iw[1 + (f.flags & kHasType)], idx);
  }
  if (fixed && static_cast<Op>(opcode) == Op::ExtInstImport)
    decoder_.noteImport(iw[1], std::span<const uint32_t>(iw, count));
  if (!fixed &&
      ((f.flags & (kFastEnumTail | kFastConstant)) != 0 || static_cast<Op>(opcode) == Op::ExtInst ||
       (opcode < kFastTableSize && table.stringIds[opcode]))) {
    // Instructions that store their operands but whose shape follows from one lookup: an
    // enumerant's parameters (OpDecorate %x Location 0), a constant's type, an extended
    // instruction's grammar.
    const uint32_t first = static_cast<uint32_t>(operands_.size());
    operands_.reserveMore(count);
    binary::Operand *out = operands_.cursor();
    uint32_t num = 0;
    if ((f.flags & kFastEnumTail) != 0) {
      num = enumTailOperands(grammar::instructions()[static_cast<size_t>(f.desc)],
                             table.tails[f.tail], iw, count, idLimit, out);
    } else if ((f.flags & kFastConstant) != 0) {
      // (count first: the type and result words may be past the end of a short one)
      const uint32_t at = count < 4 ? kNoIndex : defs_.get(iw[1]);
      if (at < idx && iw[2] - 1u < idLimit - 1u)
        num = constantOperands(count,
                               binary::numberTypeOf(std::span<const uint32_t>(
                                   words_.data() + records[at].wordOffset, records[at].wordCount)),
                               out);
    } else if (static_cast<Op>(opcode) == Op::ExtInst) {
      num = extInstOperands(iw, count, idLimit, decoder_, out);
    } else {
      num = stringIdsOperands(grammar::instructions()[static_cast<size_t>(f.desc)], iw, count,
                              idLimit, out);
    }
    if (num != 0) {
      stored(first, num);
      fixed = true;
    }
  }
  if (!fixed) {
    records[idx] = r;
    insts_.setSize(idx + 1); // the decoder looks definitions up (binary::Definitions)
    if (Status s = decodeSlow(f.desc, (f.flags & kFastDecodeFixed) != 0, idx, pos, options); !s)
        [[unlikely]] {
      error = s.error();
      return -1;
    }
    r = records[idx];
  }

  // The section of everything outside functions.
  const Op op = static_cast<Op>(opcode);
  if ((layout & kInFunction) == 0 && op != Op::Function) {
    r.section = f.desc >= 0 ? f.section : sectionOf(op, grammar::findInstruction(opcode));
  } else {
    r.section = Section::FunctionDefinition;
    if ((f.flags & (kFastFunctionLayout | kFastTerminator)) != 0 ||
        (f.desc < 0 &&
         (op == Op::Function || op == Op::Label || op == Op::FunctionEnd || isBlockTerminator(op))))
      layout =
          noteLayout(op, (f.flags & kFastTerminator) != 0 || isBlockTerminator(op), idx, layout);
  }
  records[idx] = r;
  return layout;
}

} // namespace spire
