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

/// Decodes the instructions of one module in order, remembering what the decoding of later
/// instructions depends on: the type of each value, the numeric types, the imported sets.
class Decoder {
public:
  void reset(uint32_t bound, size_t moduleWords, DecodeOptions options = {});

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
  /// The problem of the last failed decode, located at the given instruction.
  Diagnostic error(const grammar::InstructionDesc *desc, uint32_t wordOffset,
                   uint32_t instIndex) const;

  /// The result type of a value id, 0 if unknown.
  uint32_t typeOf(uint32_t id) const { return typeOf_.get(id); }
  /// The scalar numeric type an id declares; kind None if it declares none.
  NumberType numberType(uint32_t typeId) const;
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
  /// Remembers what later instructions need to know of a decoded one.
  void record(const grammar::InstructionDesc &desc, std::span<const uint32_t> inst,
              uint32_t resultType, uint32_t result);

  IdMap<uint32_t> typeOf_;
  IdMap<uint32_t> numberType_; // packed NumberType
  std::vector<std::pair<uint32_t, ExtInstImport>> imports_;
  uint32_t bound_ = 0;
  DecodeOptions options_;
  ProblemInfo problem_;
};

} // namespace spire::binary
