// The instruction-level module: the words of a SPIR-V binary plus an index over them.
// Reading a binary and writing it back gives the same words; nothing is reordered or renumbered.
#pragma once

#include "spire/binary/Decoder.h"
#include "spire/binary/Header.h"
#include "spire/binary/Operand.h"
#include "spire/support/Expected.h"
#include "spire/support/FlatVector.h"
#include "spire/support/IdMap.h"

#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace spire {

/// The logical-layout sections of SPIR-V 2.4, in order.
enum class Section : uint8_t {
  Capability,
  Extension,
  ExtInstImport,
  MemoryModel,
  EntryPoint,
  ExecutionMode,
  DebugSource,          ///< OpString, OpSourceExtension, OpSource, OpSourceContinued
  DebugName,            ///< OpName, OpMemberName
  DebugModuleProcessed, ///< OpModuleProcessed
  Annotation,
  Global, ///< types, constants, global variables, OpUndef, OpLine, non-semantic OpExtInst
  FunctionDeclaration,
  FunctionDefinition,
};
inline constexpr unsigned kSectionCount = 13;
std::string_view sectionName(Section s);

inline constexpr uint32_t kNoIndex = 0xFFFFFFFFu;

class Module;

/// A view of one instruction of a module. Cheap to copy; valid while the module lives.
class Instruction {
public:
  Instruction(const Module &module, uint32_t index) : m_(&module), index_(index) {}

  uint32_t index() const { return index_; }
  grammar::Op opcode() const;
  /// The grammar's entry, or null for an opcode the grammar does not know.
  const grammar::InstructionDesc *desc() const;
  /// All words, opcode word first.
  std::span<const uint32_t> words() const;
  uint32_t word(size_t i) const { return words()[i]; }
  uint32_t wordCount() const;
  /// Offset of the opcode word from the start of the module (header included).
  uint32_t wordOffset() const;
  uint32_t typeId() const;   ///< 0 when there is no result type
  uint32_t resultId() const; ///< 0 when there is no result
  std::span<const binary::Operand> operands() const;
  std::span<const uint32_t> operandWords(const binary::Operand &op) const {
    return words().subspan(op.offset, op.numWords);
  }
  /// The decoded literal string operand.
  std::string stringOperand(const binary::Operand &op) const;
  Section section() const;
  /// True when the operands could not be decoded (unknown opcode, or a problem the reader
  /// recovered from): operands() is then one RawWords operand, and typeId() and resultId() are 0.
  bool isRaw() const;

  bool operator==(const Instruction &o) const { return m_ == o.m_ && index_ == o.index_; }

private:
  const Module *m_;
  uint32_t index_;
};

struct BlockInfo {
  uint32_t label; ///< index of the OpLabel
  uint32_t end;   ///< one past the terminator (or the last instruction of the block)
};

struct FunctionInfo {
  uint32_t begin; ///< index of the OpFunction
  uint32_t end;   ///< one past the OpFunctionEnd (or the last instruction of the function)
  uint32_t firstBlock;
  uint32_t numBlocks;
};

class Module final : public binary::Definitions {
public:
  /// Reads a binary in either byte order. Writing it back with toBytes() gives the same bytes.
  static Expected<Module> fromBytes(std::span<const uint8_t> bytes,
                                    binary::DecodeOptions options = {});
  /// Reads host-order words (header included).
  static Expected<Module> fromWords(std::vector<uint32_t> words, binary::DecodeOptions options = {},
                                    binary::Endianness order = binary::Endianness::Little);

  Module() = default;

  /// The module in the byte order it was read in.
  std::vector<uint8_t> toBytes() const;
  std::vector<uint8_t> toBytes(binary::Endianness order) const;
  /// All words in host order, header included.
  std::span<const uint32_t> words() const { return words_; }
  binary::Endianness endianness() const { return endianness_; }

  binary::Header header() const;
  uint32_t version() const { return words_[1]; }
  uint32_t bound() const { return words_[3]; }

  // Instructions.
  uint32_t size() const { return static_cast<uint32_t>(insts_.size()); }
  Instruction inst(uint32_t index) const { return Instruction(*this, index); }

  class Iterator {
  public:
    using value_type = Instruction;
    using difference_type = std::ptrdiff_t;
    Iterator() = default;
    Iterator(const Module *m, uint32_t i) : m_(m), i_(i) {}
    Instruction operator*() const { return Instruction(*m_, i_); }
    Iterator &operator++() {
      ++i_;
      return *this;
    }
    Iterator operator++(int) {
      Iterator t = *this;
      ++i_;
      return t;
    }
    bool operator==(const Iterator &o) const { return i_ == o.i_; }

  private:
    const Module *m_ = nullptr;
    uint32_t i_ = 0;
  };
  Iterator begin() const { return Iterator(this, 0); }
  Iterator end() const { return Iterator(this, size()); }

  // Ids.
  /// Index of the instruction that defines `id` (the first one, if several do), or kNoIndex.
  uint32_t defIndex(uint32_t id) const { return defs_.get(id); }
  /// The result type of a value, 0 if unknown.
  /// The words of the instruction that defines `id` (the first one), empty if none does.
  std::span<const uint32_t> definition(uint32_t id) const override;
  uint32_t typeOf(uint32_t id) const;
  /// The scalar numeric type an id declares (OpTypeInt, OpTypeFloat); kind None otherwise.
  binary::NumberType numberType(uint32_t typeId) const;
  binary::ExtInstImport extInstImport(uint32_t id) const { return decoder_.extInstImport(id); }

  /// Problems the reader recovered from (DecodeOptions::recover), as warnings.
  std::span<const Diagnostic> warnings() const { return warnings_; }

  // Structure.
  std::span<const FunctionInfo> functions() const { return functions_; }
  std::span<const BlockInfo> blocks(const FunctionInfo &f) const {
    return std::span<const BlockInfo>(blocks_).subspan(f.firstBlock, f.numBlocks);
  }

private:
  friend class Instruction;

  struct InstRecord {
    uint32_t wordOffset;
    uint32_t firstOperand;
    uint16_t opcode;
    uint16_t wordCount;
    uint16_t numOperands;
    uint8_t flags;
    Section section;
  };
  // kFixed: the operands are the grammar's fixedOperands of the instruction whose index in
  // grammar::instructions() is stored in firstOperand.
  static constexpr uint8_t kHasType = 1, kHasResult = 2, kRaw = 4, kFixed = 8;

  // One block for the words and every table the reader fills, sized from the word count and
  // the bound; a table that outgrows its part moves to storage of its own (FlatVector::borrow).
  // Small modules are common, and their separate allocations cost as much as their indexing.
  class Storage {
  public:
    Storage() = default;
    ~Storage() { std::free(p_); }
    Storage(Storage &&o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
    Storage &operator=(Storage &&o) noexcept {
      if (this != &o) {
        std::free(p_);
        p_ = std::exchange(o.p_, nullptr);
      }
      return *this;
    }
    // A copy of a module copies its tables into storage of their own.
    Storage(const Storage &) {}
    Storage &operator=(const Storage &) { return *this; }
    void *allocate(size_t bytes);

  private:
    void *p_ = nullptr;
  };
  /// Sizes the storage for `numWords` words and this bound; words_ then has numWords words, not
  /// yet written.
  void allocate(size_t numWords, uint32_t bound);
  Status index(binary::DecodeOptions options);
  // The reader's loop takes the commonest instructions itself; these take the rest, out of
  // line so that the loop keeps its values in registers. The layout state is kInFunction /
  // kInBlock bits; indexOther returns the new state, or -1 after storing a problem in `error`.
  static constexpr uint8_t kInFunction = 1, kInBlock = 2;
  [[gnu::noinline]] int indexOther(uint32_t idx, size_t pos, binary::DecodeOptions options,
                                   uint8_t layout, Diagnostic &error);
  [[gnu::noinline]] uint8_t noteLayout(grammar::Op op, bool terminator, uint32_t idx,
                                       uint8_t layout);
  [[gnu::noinline]] Diagnostic framingError(size_t pos, uint32_t idx) const;
  [[gnu::noinline]] InstRecord *growRecords(uint32_t idx);
  [[gnu::noinline]] void noteResult(uint32_t id, uint32_t idx);
  Status decodeSlow(int descIndex, bool tryFixed, uint32_t idx, size_t pos,
                    binary::DecodeOptions options);

  Storage storage_; // first: what borrows from it goes before it does
  FlatVector<uint32_t> words_;
  FlatVector<InstRecord> insts_;
  FlatVector<binary::Operand> operands_;
  IdMap<uint32_t> defs_;
  binary::Decoder decoder_;
  FlatVector<FunctionInfo> functions_;
  FlatVector<BlockInfo> blocks_;
  std::vector<Diagnostic> warnings_;
  binary::Endianness endianness_ = binary::Endianness::Little;
};

inline grammar::Op Instruction::opcode() const {
  return static_cast<grammar::Op>(m_->insts_[index_].opcode);
}
inline std::span<const uint32_t> Instruction::words() const {
  const auto &r = m_->insts_[index_];
  return std::span<const uint32_t>(m_->words_).subspan(r.wordOffset, r.wordCount);
}
inline uint32_t Instruction::wordCount() const { return m_->insts_[index_].wordCount; }
inline uint32_t Instruction::wordOffset() const { return m_->insts_[index_].wordOffset; }
inline uint32_t Instruction::typeId() const {
  const auto &r = m_->insts_[index_];
  return (r.flags & Module::kHasType) ? m_->words_[r.wordOffset + 1] : 0;
}
inline uint32_t Instruction::resultId() const {
  const auto &r = m_->insts_[index_];
  if (!(r.flags & Module::kHasResult))
    return 0;
  return m_->words_[r.wordOffset + ((r.flags & Module::kHasType) ? 2 : 1)];
}
inline std::span<const binary::Operand> Instruction::operands() const {
  const auto &r = m_->insts_[index_];
  if (r.flags & Module::kFixed)
    return grammar::instructions()[r.firstOperand].fixedOperands.first(r.numOperands);
  return std::span<const binary::Operand>(m_->operands_.data() + r.firstOperand, r.numOperands);
}
inline Section Instruction::section() const { return m_->insts_[index_].section; }
inline bool Instruction::isRaw() const { return m_->insts_[index_].flags & Module::kRaw; }

} // namespace spire
