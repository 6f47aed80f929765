// Decodes instructions by the grammar: which words are ids, literals, strings, enumerants, and
// the operands that enumerants, extended instructions and OpSpecConstantOp bring with them.
#pragma once

#include "spire/binary/Operand.h"
#include "spire/support/Expected.h"
#include "spire/support/FlatVector.h"
#include "spire/support/IdMap.h"

#include <span>
#include <vector>

namespace spire::binary {

struct DecodeOptions {
  /// Accept ids at or above the header's bound (spirv-dis does); by default they are errors.
  bool allowIdsPastBound = false;
  /// Keep reading past an instruction whose operands cannot be decoded (an enumerant or opcode
  /// newer than the grammar, a string without terminator, ...): the instruction is kept as raw
  /// words and the problem becomes a warning. Only a broken word count or header stops reading.
  bool recover = false;
};

/// What an OpExtInstImport refers to.
struct ExtInstImport {
  bool imported = false;                        ///< the id is an OpExtInstImport
  const grammar::ExtInstSetDesc *set = nullptr; ///< null when the grammar has no such set
  bool nonSemantic = false;                     ///< name starts with "NonSemantic."
  /// A non-semantic set or a debug-information set (DebugInfo, OpenCL.DebugInfo.100): its
  /// instructions describe the program without being part of its computation.
  bool describesOnly() const {
    return nonSemantic ||
           (set != nullptr && (set->key == "debuginfo" || set->key == "opencl.debuginfo.100"));
  }
};

/// True when `word` is a valid enumerant of `kind` (a ValueEnum or BitEnum kind; for a mask,
/// every bit) that brings no parameters: such an operand is one word, as in a fixed shape.
bool isPlainEnumerant(grammar::OperandKind kind, uint32_t word);
/// Per operand kind (by value): the enumerants below 64 of a value enum, or the bits of a mask,
/// that isPlainEnumerant accepts, so that a caller can test most words with one bit.
std::span<const uint64_t> plainEnumerantMasks();

/// Where the decoder finds the instructions that defined earlier ids (the module answers from
/// its index): the type of an OpSwitch selector, the width of a constant's type.
class Definitions {
public:
  /// The words of the instruction that defines `id`, empty if none does.
  virtual std::span<const uint32_t> definition(uint32_t id) const = 0;

protected:
  ~Definitions() = default;
};

/// The scalar numeric type that a type declaration declares (OpTypeInt, OpTypeFloat); kind None
/// for any other instruction. (Inline: the reader's inner loop asks it for every OpConstant.)
inline NumberType numberTypeOf(std::span<const uint32_t> typeDeclaration) {
  if (typeDeclaration.size() < 3)
    return {};
  const uint32_t width = typeDeclaration[2] > 0xFFFF ? 0 : typeDeclaration[2];
  switch (static_cast<grammar::Op>(typeDeclaration[0] & 0xFFFF)) {
  case grammar::Op::TypeInt:
    if (typeDeclaration.size() < 4)
      return {};
    return {typeDeclaration[3] != 0 ? NumberKind::Signed : NumberKind::Unsigned,
            static_cast<uint16_t>(width)};
  case grammar::Op::TypeFloat:
    if (typeDeclaration.size() > 3) // an FP Encoding
      switch (static_cast<grammar::FPEncoding>(typeDeclaration[3])) {
      case grammar::FPEncoding::BFloat16KHR:
        return {NumberKind::BFloat16, static_cast<uint16_t>(width)};
      case grammar::FPEncoding::Float8E4M3EXT:
        return {NumberKind::Float8E4M3, static_cast<uint16_t>(width)};
      case grammar::FPEncoding::Float8E5M2EXT:
        return {NumberKind::Float8E5M2, static_cast<uint16_t>(width)};
      default:
        break; // printed as the raw bits of a float of its width
      }
    return {NumberKind::Float, static_cast<uint16_t>(width)};
  default:
    return {};
  }
}

/// The result type of the instruction with these words, 0 if it has none.
uint32_t resultTypeOf(std::span<const uint32_t> definition);

/// Decodes the instructions of one module in order, remembering what the decoding of later
/// instructions depends on: the type of each value, the numeric types, the imported sets.
class Decoder {
public:
  /// Starts a module; `definitions` answers for the ids decoded so far (it must outlive the
  /// decoding).
  void reset(uint32_t bound, const Definitions &definitions, DecodeOptions options = {});

  /// Decodes the instruction `inst` (all its words), appending its operands to `out`.
  /// `wordOffset` and `instIndex` locate it in diagnostics.
  Status decode(std::span<const uint32_t> inst, uint32_t wordOffset, uint32_t instIndex,
                FlatVector<Operand> &out);
  /// The same without a diagnostic, for the reader's loop: the grammar entry is already looked
  /// up (null: unknown opcode), and on failure error() describes the problem.
  bool decode(std::span<const uint32_t> inst, const grammar::InstructionDesc *desc,
              FlatVector<Operand> &out);
  /// Takes an instruction of fixed shape (see InstructionDesc::fixedShape) whose ids are all
  /// valid without storing its operands: they are desc.fixedOperands.first(words - 1). Returns
  /// false, changing nothing, for any other instruction.
  bool decodeFixed(std::span<const uint32_t> inst, const grammar::InstructionDesc &desc);
  /// Notes an OpExtInstImport that the caller decoded: later OpExtInst decode by its set.
  void noteImport(uint32_t result, std::span<const uint32_t> inst);
  struct Import {
    uint32_t id;
    ExtInstImport imp;
  };
  /// Room for the first `capacity` imports in storage the caller owns and keeps alive as long
  /// as the decoder uses it (a module's one allocation), so that they need no allocation.
  void useImportStorage(Import *storage, size_t capacity) { imports_.borrow(storage, capacity); }
  /// Ids must be below this (the bound, or no limit when ids past the bound are allowed).
  uint32_t idLimit() const { return options_.allowIdsPastBound ? 0xFFFFFFFFu : bound_; }
  /// The problem of the last failed decode, located at the given instruction.
  Diagnostic error(const grammar::InstructionDesc *desc, uint32_t wordOffset,
                   uint32_t instIndex) const;

  /// What an OpExtInstImport id imports; `imported` is false for any other id.
  ExtInstImport extInstImport(uint32_t id) const;

private:
  struct Run;
  struct ProblemInfo {
    uint8_t code = 0;
    grammar::OperandKind kind{};
    std::string_view name;
    uint32_t pos = 0, value = 0, extra = 0;
  };
  std::string problemMessage() const;
  const Definitions *definitions_ = nullptr;
  FlatVector<Import> imports_;
  uint32_t bound_ = 0;
  DecodeOptions options_;
  ProblemInfo problem_;
};

} // namespace spire::binary
