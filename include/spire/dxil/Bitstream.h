// The LLVM bitstream container format: fixed and VBR fields, blocks, abbreviations (local and
// from BLOCKINFO) and records, read from bytes with every length checked against the bits left.
#pragma once

#include "spire/support/Expected.h"

#include <bit>
#include <cstdint>
#include <cstring>
#include <memory_resource>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

namespace spire::dxil {

/// The reserved abbreviation ids of every block.
enum : uint32_t {
  kAbbrevEndBlock = 0,
  kAbbrevEnterSubblock = 1,
  kAbbrevDefine = 2,
  kAbbrevUnabbreviatedRecord = 3,
  kFirstApplicationAbbrev = 4,
};

/// The BLOCKINFO block's id and record codes.
enum : uint32_t {
  kBlockInfoBlockId = 0,
  kBlockInfoSetBid = 1,
  kBlockInfoBlockName = 2,
  kBlockInfoSetRecordName = 3,
};

/// How one operand of an abbreviation is encoded.
struct AbbrevOp {
  enum class Kind : uint8_t { Literal, Fixed, Vbr, Array, Char6, Blob };
  Kind kind = Kind::Literal;
  uint64_t value = 0; ///< Literal: the value; Fixed, Vbr: the width in bits
};

/// A record's operands: a buffer reused from record to record that the cursor sizes without
/// clearing (every slot it hands out is written before it is read), kept in a memory resource.
class RecordOperands {
public:
  explicit RecordOperands(std::pmr::memory_resource *memory = std::pmr::new_delete_resource())
      : memory_(memory) {}
  RecordOperands(const RecordOperands &other) : memory_(std::pmr::new_delete_resource()) {
    *this = other;
  }
  RecordOperands &operator=(const RecordOperands &other) {
    if (this != &other) {
      uint64_t *p = allocate(other.size_);
      if (other.size_)
        std::memcpy(p, other.data_, other.size_ * sizeof(uint64_t));
    }
    return *this;
  }
  ~RecordOperands() { release(); }

  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  const uint64_t *data() const { return data_; }
  uint64_t *data() { return data_; }
  const uint64_t *begin() const { return data_; }
  const uint64_t *end() const { return data_ + size_; }
  uint64_t operator[](size_t i) const { return data_[i]; }
  uint64_t &operator[](size_t i) { return data_[i]; }
  uint64_t back() const { return data_[size_ - 1]; }
  void clear() { size_ = 0; }
  void reserve(size_t n) {
    if (n > capacity_)
      grow(n);
  }
  /// Sets the size to `n` and returns the operands; slots past the old size hold no value yet.
  uint64_t *resizeForOverwrite(size_t n) {
    if (n > capacity_)
      grow(n);
    size_ = n;
    return data_;
  }
  /// Drops the first operand.
  void popFront() {
    std::memmove(data_, data_ + 1, (size_ - 1) * sizeof(uint64_t));
    --size_;
  }

private:
  uint64_t *allocate(size_t n) {
    size_ = 0;
    reserve(n);
    size_ = n;
    return data_;
  }
  void grow(size_t n);
  void release() {
    if (data_)
      memory_->deallocate(data_, capacity_ * sizeof(uint64_t), alignof(uint64_t));
    data_ = nullptr;
    capacity_ = 0;
  }
  std::pmr::memory_resource *memory_;
  uint64_t *data_ = nullptr;
  size_t size_ = 0, capacity_ = 0;
};

/// A vector of trivially copyable entries in a memory resource, grown and appended with memcpy
/// (a std::pmr::vector constructs its entries one by one through the allocator): the cursor's
/// tables, which take whole runs of entries from the thread's memos.
template <class T> class TrivialVector {
  static_assert(std::is_trivially_copyable_v<T>);

public:
  explicit TrivialVector(std::pmr::memory_resource *memory) : memory_(memory) {}
  TrivialVector(const TrivialVector &) = delete;
  TrivialVector &operator=(const TrivialVector &) = delete;
  ~TrivialVector() {
    if (begin_ != room_)
      memory_->deallocate(begin_, capacity() * sizeof(T), alignof(T));
  }
  /// Starts (empty) in `room`, the owner's, of `capacity` entries, which outlives this; grows
  /// past it into the memory resource.
  void startIn(void *room, size_t capacity) {
    room_ = begin_ = end_ = static_cast<T *>(room);
    capEnd_ = begin_ + capacity;
  }

  // (Kept as a std::vector keeps itself, three pointers, so that the record path's reads of
  // the tables compile as they did.)
  size_t size() const { return size_t(end_ - begin_); }
  size_t capacity() const { return size_t(capEnd_ - begin_); }
  bool empty() const { return begin_ == end_; }
  T *data() { return begin_; }
  const T *data() const { return begin_; }
  T *begin() { return begin_; }
  T *end() { return end_; }
  const T *begin() const { return begin_; }
  const T *end() const { return end_; }
  T &operator[](size_t i) { return begin_[i]; }
  const T &operator[](size_t i) const { return begin_[i]; }
  T &back() { return end_[-1]; }
  const T &back() const { return end_[-1]; }
  void reserve(size_t n) {
    if (n > capacity())
      grow(n);
  }
  void clear() { end_ = begin_; }
  void pop_back() { --end_; }
  void push_back(const T &v) {
    if (end_ == capEnd_) [[unlikely]]
      grow(size() + 1);
    *end_++ = v;
  }
  /// Appends `n` entries from `p`.
  void append(const T *p, size_t n) {
    if (n > size_t(capEnd_ - end_)) [[unlikely]]
      grow(size() + n);
    if (n)
      std::memcpy(static_cast<void *>(end_), p, n * sizeof(T));
    end_ += n;
  }
  /// Whether `n` entries can be appended without growing.
  bool hasRoom(size_t n) const { return n <= size_t(capEnd_ - end_); }
  /// Appends `n` entries (hasRoom(n)) for the caller to write, and returns the first of them.
  T *appendInRoom(size_t n) {
    T *p = end_;
    end_ += n;
    return p;
  }
  /// Appends `n` entries for the caller to write, and returns the first of them.
  T *appendForOverwrite(size_t n) {
    if (n > size_t(capEnd_ - end_)) [[unlikely]]
      grow(size() + n);
    T *p = end_;
    end_ += n;
    return p;
  }
  void assign(const T *p, size_t n) {
    end_ = begin_;
    append(p, n);
  }
  /// Drops the entries from `n` on (`n` <= size()).
  void shrinkTo(size_t n) { end_ = begin_ + n; }
  /// Sets the size to `n`; entries past the old size are value-initialized.
  void resize(size_t n) {
    if (n > size()) {
      reserve(n);
      for (T *p = end_; p != begin_ + n; ++p)
        *p = T{};
    }
    end_ = begin_ + n;
  }

private:
  void grow(size_t n) {
    size_t capacity = begin_ ? this->capacity() * 2 : 16;
    if (capacity < n)
      capacity = n;
    T *p = static_cast<T *>(memory_->allocate(capacity * sizeof(T), alignof(T)));
    const size_t size = this->size();
    if (size)
      std::memcpy(static_cast<void *>(p), begin_, size * sizeof(T));
    if (begin_ != room_)
      memory_->deallocate(begin_, this->capacity() * sizeof(T), alignof(T));
    begin_ = p;
    end_ = p + size;
    capEnd_ = p + capacity;
  }
  std::pmr::memory_resource *memory_;
  T *begin_ = nullptr, *end_ = nullptr, *capEnd_ = nullptr;
  T *room_ = nullptr; ///< the owner's room it started in (not the memory resource's)
};

/// One record: its code, its operands (array elements flattened in), and the blob, if any.
struct BitstreamRecord {
  BitstreamRecord() = default;
  /// A record whose operands live in `memory` (a reader's scratch arena).
  explicit BitstreamRecord(std::pmr::memory_resource *memory) : ops(memory) {}
  uint32_t code = 0;
  uint64_t bitOffset = 0;          ///< where the record starts
  RecordOperands ops;              ///< operands after the code
  std::span<const uint8_t> blob{}; ///< the blob operand's bytes (a view of the input)
};

/// What comes next in the current block.
struct BitstreamEntry {
  enum class Kind : uint8_t { EndBlock, SubBlock, Record, EndOfStream };
  Kind kind = Kind::EndOfStream;
  uint32_t id = 0; ///< SubBlock: the block id; Record: the abbreviation id
};

/// Names the block ids of LLVM IR for locations ("FUNCTION_BLOCK"); a number for others.
std::string_view llvmBlockName(uint32_t blockId);

/// The 64 bits of a bitstream from bit `bitPos` on, the first in the lowest bit (of which
/// 57 at least are the stream's: the load is of the 8 bytes from the bit's byte). The caller
/// makes sure those 8 bytes are readable.
inline uint64_t loadBitsAt(const uint8_t *data, uint64_t bitPos) {
  uint64_t w;
  std::memcpy(&w, data + (bitPos >> 3), 8);
  if constexpr (std::endian::native == std::endian::big)
    w = __builtin_bswap64(w);
  return w >> (bitPos & 7);
}

/// A cursor over a bitstream. Reads never go past the end: a read that would sets a sticky
/// failure and returns zero, and the next structured call reports it as an error located at the
/// enclosing block, the record index inside it and the bit offset.
class BitstreamReader {
public:
  /// `bytes` is the stream after any wrapper; the magic is not consumed here. The reader's own
  /// tables (abbreviations, open blocks) allocate from `memory`.
  explicit BitstreamReader(std::span<const uint8_t> bytes, uint32_t maxDepth = 64,
                           std::pmr::memory_resource *memory = std::pmr::new_delete_resource());

  // Primitive fields (width 0..64; VBR chunk width 2..32).
  uint64_t readFixed(unsigned width) {
    if (width - 1 < 57 && pos_ + 64 <= end_) { // the fast path: a whole word is readable
      const uint64_t v = loadBitsAt(data_, pos_);
      pos_ += width;
      return v & ((uint64_t(1) << width) - 1);
    }
    return readFixedSlow(width);
  }
  uint64_t readVbr(unsigned width) {
    if (width - 2 > 30) { // widths 2..32 only
      setFailed();
      return 0;
    }
    uint64_t piece = readFixed(width);
    uint64_t hi = uint64_t(1) << (width - 1);
    if (!(piece & hi))
      return piece;
    uint64_t second = readFixed(width); // two chunks cover most values
    if (!(second & hi))
      return (piece & (hi - 1)) | (second << (width - 1));
    return readVbrSlow(width, (piece & (hi - 1)) | ((second & (hi - 1)) << (width - 1)),
                       2 * (width - 1));
  }
  /// `count` VBR fields into `out`: the loop of unabbreviated records and VBR arrays, decoding
  /// several fields from each 64-bit load.
  void readVbrRun(unsigned width, uint64_t *__restrict out, uint64_t count);
  /// `count` fixed fields (width 1..32) into `out`, several from each 64-bit load.
  void readFixedRun(unsigned width, uint64_t *__restrict out, uint64_t count);
  void alignTo32();
  bool failed() const { return failed_; }
  uint64_t bitPosition() const { return pos_; }
  uint64_t bitsLeft() const { return end_ - pos_; }
  bool atEnd() const { return pos_ >= end_; }
  void seek(uint64_t bit) { pos_ = bit <= end_ ? bit : end_; }

  /// The next entry of the current block. Abbreviation definitions are absorbed, and BLOCKINFO
  /// blocks are read and absorbed, so callers see only records, sub-blocks and block ends. At the
  /// top level, the end of the data (or fewer than 32 bits of zero padding) is EndOfStream.
  Expected<BitstreamEntry> advance();
  /// Enters the sub-block announced by the last SubBlock entry.
  /// (Inline: a caller's test of the Status it makes on success folds away.)
  Status enterBlock(uint32_t blockId) {
    if (enter(blockId)) [[likely]]
      return {};
    return takeError();
  }
  /// enterBlock() for block loops: false on failure, with the diagnostic in takeError().
  bool enter(uint32_t blockId);
  /// Skips the sub-block announced by the last SubBlock entry, using its length word.
  Status skipBlock();
  /// Consumes the block-end announced by the last EndBlock entry (advance() already did).
  /// Reads the record announced by the last Record entry (right after it: the entry's id is
  /// read already) into `out`, reusing its storage.
  Status readRecord(uint32_t abbrevId, BitstreamRecord &out);
  /// Skips a record (reads it into internal storage).
  Status skipRecord(uint32_t abbrevId);

  /// advance() and readRecord() for hot loops: false on failure, with the diagnostic in
  /// takeError() (no Status or Expected built per entry).
  bool next(BitstreamEntry &entry) {
    // Most entries are records inside a block: one test that a whole load is readable and the
    // id inside the block (nextLimit_), one field, one test of it, inline.
    const uint64_t pos = pos_;
    if (pos < nextLimit_) [[likely]] {
      uint64_t v;
      std::memcpy(&v, data_ + (pos >> 3), 8);
      if constexpr (std::endian::native == std::endian::big)
        v = __builtin_bswap64(v);
      const uint64_t id = (v >> (pos & 7)) & idMask_;
      if (id >= kAbbrevUnabbreviatedRecord) [[likely]] {
        recordStart_ = pos;
        pos_ = pos + width_;
        entry = BitstreamEntry{BitstreamEntry::Kind::Record, uint32_t(id)};
        return true;
      }
    }
    // (The entry returned by value: the caller's stays in registers, and its tests of the
    // kind fold away on the path above.)
    const BitstreamEntry e = nextSlow();
    if (e.kind == kFailedKind) [[unlikely]]
      return false;
    entry = e;
    return true;
  }
  bool read(uint32_t abbrevId, BitstreamRecord &out) {
    const uint64_t start = recordStart_; // next() read the abbreviation id already
    if (abbrevId == kAbbrevUnabbreviatedRecord)
      return readUnabbreviated(start, out);
    return readAbbreviated(abbrevId, start, out);
  }
  Diagnostic takeError() { return std::move(error_); }

  /// For a block reader that decodes an unabbreviated record itself (the function reader's
  /// calls), without read()'s operands: the record announced by the last Record entry has its
  /// code at bit `pos` of `data` and starts (its abbreviation id) at `start`; whole 8-byte loads
  /// are readable at bits below `loadLimit` (0 after a failure). The reader either ends the
  /// record with endRecordAt, or leaves the cursor as it is and read() takes the record.
  struct RecordBits {
    const uint8_t *data;
    uint64_t pos, loadLimit, start;
  };
  RecordBits recordBits() const { return {data_, pos_, loadLimit_, recordStart_}; }
  /// The operands of the current block's abbreviation `abbrevId` (none when no abbreviation of
  /// the block has that id, and after a failure), for a block reader that decodes the records
  /// of some abbreviations itself (recordBits). An id's definition does not change while its
  /// block lasts.
  std::span<const AbbrevOp> abbrevOps(uint32_t abbrevId) const {
    const uint32_t index = abbrevId - kFirstApplicationAbbrev; // (ids below: a huge index)
    if (index >= blockAbbrevs_)
      return {};
    const Abbrev &a = abbrevs_[blockIds_[index]];
    return {abbrevOps_.data() + a.firstOp, a.numOps};
  }
  /// Ends the record recordBits() gave at bit `end`, its fields decoded as read() decodes them:
  /// false, and nothing moved, when that is past the block's end (read() reports it).
  bool endRecordAt(uint64_t end) {
    if (end > blockEnd_) [[unlikely]]
      return false;
    pos_ = end;
    records_++;
    return true;
  }

  /// read() for records that end in characters (names, strings; BitstreamChars.cpp): when the
  /// record's abbreviation is scalars (the code first) and then an array of char6 or of fixed
  /// fields of 1 to 8 bits, its scalars go to `out.ops` and its characters, as bytes, to
  /// `chars` (`room` of them at most, and 8 bytes more that it may write past them), and it
  /// returns their number; any other record (or a longer array) is read as read() reads it,
  /// and it returns kNotChars. kReadFailed on failure (the diagnostic in takeError()).
  static constexpr size_t kNotChars = ~size_t(0), kReadFailed = ~size_t(1);
  [[gnu::noinline]] size_t readChars(uint32_t abbrevId, BitstreamRecord &out, char *chars,
                                     size_t room);
  /// What readChars needs of an abbreviation of the current block, found once (a block's
  /// readers keep it by abbreviation id while the block lasts: an id's definition does not
  /// change inside a block).
  struct CharAbbrev { // (no initializers: kept in a caller's uninitialized table)
    enum : uint8_t { kGeneral = 1, kChars };
    uint8_t state;      ///< kGeneral: any record (readChars above takes it)
    uint8_t codeWidth;  ///< the code's fixed width; 0: the literal `code`
    uint8_t valueWidth; ///< the VBR width of one scalar after the code; 0: none
    uint8_t width;      ///< a character's (6 for char6)
    bool char6;
    uint32_t code;
  };
  CharAbbrev charAbbrev(uint32_t abbrevId) const;
  /// readChars() with the abbreviation's CharAbbrev (charAbbrev(abbrevId), found before).
  [[gnu::noinline]] size_t readChars(const CharAbbrev &abbrev, uint32_t abbrevId,
                                     BitstreamRecord &out, char *chars, size_t room);
  /// What readScalars needs of an abbreviation of the current block (BitstreamScalars.cpp),
  /// kept as CharAbbrev is: a literal or fixed code and one fixed or VBR field.
  struct ScalarAbbrev { // (no initializers: kept in a caller's uninitialized table)
    enum : uint8_t { kGeneral = 1, kScalars };
    uint8_t state;     ///< kGeneral: any record (read() takes it)
    uint8_t codeWidth; ///< the code's fixed width; 0: the literal `code`
    bool vbr;          ///< the field is VBR (else fixed)
    uint8_t width;     ///< the field's (a chunk's, for VBR)
    uint32_t code;
    uint16_t maxBits; ///< the most the record's code and field can take
  };
  ScalarAbbrev scalarAbbrev(uint32_t abbrevId) const;
  /// read() of the record announced by the last Record entry, an abbreviated one of `abbrev`
  /// (scalarAbbrev(abbrevId), found before): its field read as the general path reads it
  /// (same results, same failures), without its dispatch.
  [[gnu::noinline]] bool readScalars(const ScalarAbbrev &abbrev, uint32_t abbrevId,
                                     BitstreamRecord &out);

  /// A block just entered: its abbreviation width and the bytes of its body, from here to its
  /// declared end (empty when not at the start of a block's body). What a block holds is a
  /// function of these (and, for abbreviated records, of BLOCKINFO's definitions).
  struct BlockBody {
    unsigned abbrevWidth = 0;
    std::span<const uint8_t> bytes;
  };
  BlockBody blockBody() const;
  /// Leaves the current block at its declared end, for a caller that knows what its body holds
  /// (from blockBody) without reading it.
  void leaveBlock();
  /// Whether this reader uses the thread's memos (from the thread's second bitstream on).
  bool remembers() const { return remember_; }
  /// Names the abbreviation lists BLOCKINFO has given every block id so far, for memos of
  /// blocks with abbreviated records: in one thread, two readers with the same nonzero identity
  /// have the same lists (one BLOCKINFO block, equal byte for byte to one this thread remembers,
  /// and no other). 0 when unknown: before any BLOCKINFO block, after a second one, in a reader
  /// that does not remember.
  uint64_t blockInfoIdentity() const { return blockInfoIdentity_; }
  /// How many abbreviations the current block has now (those BLOCKINFO gives its id, then its
  /// own so far); 0 outside any block. At a block's start, BLOCKINFO's alone.
  size_t abbrevCount() const {
    return scopeAbbrevs_.size() - firstAbbrev_; // (none outside any block)
  }

  /// The current block's id (kNoBlock outside any block) and depth.
  static constexpr uint32_t kNoBlock = 0xFFFFFFFFu;
  uint32_t blockId() const { return scopes_.empty() ? kNoBlock : scopes_.back().blockId; }
  size_t depth() const { return scopes_.size(); }
  /// The index of the next record in the current block (for locations).
  uint32_t recordIndex() const { return records_; }
  /// An error located at the current block and record, at `bit` (default: the current bit).
  Diagnostic error(std::string message) const;
  Diagnostic errorAt(uint64_t bit, std::string message) const;

  /// The cursor's table entries (public for the thread's memos, which keep them as they are):
  /// an abbreviation (its operands: abbrevOps_[firstOp..firstOp + numOps)) and a BLOCKINFO
  /// target's list.
  struct Abbrev {
    uint32_t firstOp = 0, numOps = 0;
    uint32_t leadingScalars = 0; ///< operands before the array or blob (all when none)
    /// its code when a literal below kNoLiteralCode and its scalars each fit a load
    uint32_t literalCode = kNoLiteralCode;
  };
  static constexpr uint32_t kNoLiteralCode = 0xFFFFFFFFu;
  struct BlockInfo {
    uint32_t blockId = 0;
    uint32_t first = 0, count = 0; ///< its abbreviations: blockInfoIds_[first..first + count)
  };

private:
  struct Scope {
    uint32_t blockId = 0;
    unsigned abbrevWidth = 2;
    uint64_t endBit = 0;       ///< where the block's declared length ends
    uint32_t outerRecords = 0; ///< the enclosing block's records_, kept while this one is open
    uint32_t firstAbbrev = 0;  ///< this block's abbreviations: scopeAbbrevs_[firstAbbrev..]
  };
  /// Opens `scope` (its outerRecords set here) and closes the innermost block, with the current
  /// block's fields below.
  void pushScope(Scope scope);
  void popScope();
  void setCurrent(const Scope &scope);
  /// next()'s other entries; kind kFailedKind on failure (error_ set).
  static constexpr BitstreamEntry::Kind kFailedKind = BitstreamEntry::Kind(0xFF);
  static constexpr BitstreamEntry kFailedEntry{kFailedKind, 0};
  BitstreamEntry nextSlow();
  [[gnu::noinline]] BitstreamEntry nextEntry(); ///< nextSlow's general case
  /// nextSlow's rarer paths, out of line so that it keeps a small frame.
  [[gnu::noinline]] bool enterAndReadBlockInfo();
  /// enter()'s general case (any header, growing the tables).
  [[gnu::noinline]] bool enterSlow(uint32_t blockId);
  /// A run of definitions from the one whose id (at `start`) was just read, remembered or taken
  /// from the thread's memo; false: error_ set.
  [[gnu::noinline]] bool readDefinitionRun(uint64_t start, unsigned width);
  [[gnu::cold, gnu::noinline]] bool failBlockEnd(uint64_t start);
  uint64_t readFixedSlow(unsigned width);
  /// `count` fixed fields one by one (readFixedRun's last bytes and odd widths).
  [[gnu::noinline]] void readFixedFields(unsigned width, uint64_t *out, uint64_t count);
  uint64_t readVbrSlow(unsigned width, uint64_t value, unsigned shift);
  /// readVbr() of an abbreviation's operand, whose width (2..32) its definition checked.
  uint64_t readVbrOfWidth(unsigned width) {
    uint64_t piece = readFixed(width);
    uint64_t hi = uint64_t(1) << (width - 1);
    if (!(piece & hi))
      return piece;
    uint64_t second = readFixed(width);
    if (!(second & hi))
      return (piece & (hi - 1)) | (second << (width - 1));
    return readVbrSlow(width, (piece & (hi - 1)) | ((second & (hi - 1)) << (width - 1)),
                       2 * (width - 1));
  }
  /// Appends the new abbreviation's id to `into` (the block's ids or a BLOCKINFO target's).
  template <class Ids> bool readAbbrevDefinition(Ids &into); ///< false: error_ set
  /// A run of definitions (their ids included) from `start` remembered by this thread: defines
  /// them in the current block and returns true.
  bool definitionsFromMemo(uint64_t start, unsigned width);
  /// Remembers the definitions of bits [start, end), the abbreviations from `firstAbbrev` on.
  void rememberDefinitions(uint64_t start, uint64_t end, unsigned width, uint32_t firstAbbrev);
  bool readBlockInfo(); ///< false: error_ set
  Status readBlockInfoRecords();
  [[gnu::cold, gnu::noinline]] bool failBlockHeader(uint64_t start, unsigned width, uint64_t words);
  const BlockInfo *blockInfo(uint32_t blockId) const;
  uint64_t readScalar(const AbbrevOp &op);
  bool fail(Diagnostic d) {
    error_ = std::move(d);
    return false;
  }
  static uint64_t char6(uint64_t v);
  /// readChars' scalars after the code, other than one VBR (`count` of them from `op`).
  [[gnu::noinline]] void readCharScalars(const AbbrevOp *op, uint64_t *slot, uint32_t count);
  bool finishRecord(uint64_t start) {
    if (failed_ || pos_ > blockEnd_) [[unlikely]]
      return recordError(start);
    records_++;
    return true;
  }
  bool recordError(uint64_t start);
  // read()'s two kinds of record (tail calls: each saves only the registers it needs).
  [[gnu::noinline]] bool readUnabbreviated(uint64_t start, BitstreamRecord &out);
  [[gnu::noinline]] bool readUnabbreviatedSlow(uint64_t start, BitstreamRecord &out);
  [[gnu::noinline]] bool finishVbrRun(uint64_t *q, uint64_t *pEnd, uint64_t at);
  /// A record that ends past its block's end (at recordStart_).
  [[gnu::cold, gnu::noinline]] bool blockOverrun();
  [[gnu::noinline]] bool readAbbreviated(uint32_t abbrevId, uint64_t start, BitstreamRecord &out);
  /// readAbbreviated's general paths: a record from its start; a record from `op` on (pos_ at
  /// its field, the code and the operands before `q` read); the operands from `op` on
  /// (appended, no finishRecord; false: error_ set).
  [[gnu::noinline]] bool readAbbreviatedSlow(uint32_t abbrevId, uint64_t start,
                                             BitstreamRecord &out);
  [[gnu::noinline]] bool readAbbreviatedRest(const AbbrevOp *op, const AbbrevOp *end, uint64_t *q,
                                             BitstreamRecord &out);
  bool readAbbreviatedOps(const AbbrevOp *op, const AbbrevOp *end, BitstreamRecord &out);
  /// An array (its element encoding `elt`) from its count on (pos_ there), and the record's
  /// end.
  [[gnu::noinline]] bool readArray(const AbbrevOp &elt, BitstreamRecord &out);
  /// `count` elements of encoding `elt` appended to out.ops (Bitstream.cpp, inline there).
  inline void appendArrayElements(const AbbrevOp &elt, uint64_t count, BitstreamRecord &out);
  // read()'s failures, out of line so that the record's path needs no room for strings.
  [[gnu::cold, gnu::noinline]] bool failText(uint64_t start, const char *message);
  [[gnu::cold, gnu::noinline]] bool failCount(uint64_t start, const char *before, uint64_t n,
                                              const char *after);
  /// An abbreviation id at or past blockAbbrevs_: undefined, or any after a failure.
  [[gnu::cold, gnu::noinline]] bool failAbbrevId(uint64_t start, uint32_t abbrevId);
  [[gnu::cold, gnu::noinline]] bool failUndefinedAbbrev(uint64_t start, uint32_t abbrevId,
                                                        size_t available);

  const uint8_t *data_;
  uint64_t size_;    ///< bytes
  uint64_t end_;     ///< bits
  uint64_t pos_ = 0; ///< bits
  bool failed_ = false;
  uint32_t maxDepth_;
  bool remember_; ///< use the thread's memos of definitions and BLOCKINFO blocks
  uint64_t blockInfoIdentity_ = 0;
  unsigned topWidth_ = 2;
  // The current block's fields (its Scope's), where the record path reads them; outside any
  // block, width 0 (next() reads no record there), the end of the data, no abbreviations.
  unsigned width_ = 0;
  uint32_t firstAbbrev_ = 0;
  uint64_t blockEnd_;
  uint32_t records_ = 0; ///< the current block's records so far (the top level's outside)
  uint64_t idMask_ = 0;  ///< the width's mask
  /// next()'s one-load path reads an id at bits below this: a whole load readable there and
  /// the id inside the block; 0 outside any block and after a failure.
  uint64_t nextLimit_ = 0;
  /// The current block's abbreviation ids (scopeAbbrevs_ from firstAbbrev_) and how many,
  /// for the record path: refreshed whenever the block or its list changes; none after a
  /// failure (so that an abbreviated record of literals alone is not read after one: blocks
  /// are entered and left, and definitions read, only without one, but by leaveBlock()).
  const uint32_t *blockIds_ = nullptr;
  uint32_t blockAbbrevs_ = 0;
  void refreshAbbrevs() {
    blockIds_ = scopeAbbrevs_.data() + firstAbbrev_;
    blockAbbrevs_ = uint32_t(scopeAbbrevs_.size() - firstAbbrev_);
  }
  uint64_t loadLimit_; ///< bits below this have a whole load readable; 0 after a failure
  /// loadLimit_ - 54 (or 0): a field of up to 54 bits from below it ends below loadLimit_.
  uint64_t pairLimit_;
  void setFailed() {
    failed_ = true;
    nextLimit_ = loadLimit_ = pairLimit_ = 0;
    blockAbbrevs_ = 0;
  }
  uint64_t pendingBlockStart_ = 0; ///< bit offset of the last SubBlock entry's id field
  uint64_t recordStart_ = 0;       ///< bit offset of the last Record entry (its id is read)

  std::pmr::memory_resource *memory_;
  TrivialVector<AbbrevOp> abbrevOps_;    ///< every abbreviation's operands
  TrivialVector<Abbrev> abbrevs_;        ///< every abbreviation ever defined
  TrivialVector<uint32_t> scopeAbbrevs_; ///< the stacked blocks' abbreviation ids, in order
  TrivialVector<Scope> scopes_;
  TrivialVector<BlockInfo> blockInfos_;
  TrivialVector<uint32_t> blockInfoIds_; ///< BLOCKINFO's abbreviation ids, per target in turn
  BitstreamRecord scratch_;
  Diagnostic error_;
  // The first room of the tables above: what a DXIL program defines, so that a small one
  // allocates none of them (fixed sizes, never taken from the input).
  static constexpr size_t kOpRoom = 256, kAbbrevRoom = 64, kIdRoom = 64, kScopeRoom = 8;
  static constexpr size_t kBlockInfoRoom = 8, kBlockInfoIdRoom = 32;
  alignas(AbbrevOp) unsigned char opRoom_[kOpRoom * sizeof(AbbrevOp)];
  alignas(Abbrev) unsigned char abbrevRoom_[kAbbrevRoom * sizeof(Abbrev)];
  alignas(uint32_t) unsigned char idRoom_[kIdRoom * sizeof(uint32_t)];
  alignas(Scope) unsigned char scopeRoom_[kScopeRoom * sizeof(Scope)];
  alignas(BlockInfo) unsigned char blockInfoRoom_[kBlockInfoRoom * sizeof(BlockInfo)];
  alignas(uint32_t) unsigned char blockInfoIdRoom_[kBlockInfoIdRoom * sizeof(uint32_t)];
};

} // namespace spire::dxil
