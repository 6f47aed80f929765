// The LLVM bitstream cursor: see Bitstream.h.
#include "spire/dxil/Bitstream.h"

#include "BitstreamFields.h"
#include "PerThread.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace spire::dxil {

std::string_view llvmBlockName(uint32_t blockId) {
  switch (blockId) {
  case 0:
    return "BLOCKINFO_BLOCK";
  case 8:
    return "MODULE_BLOCK";
  case 9:
    return "PARAMATTR_BLOCK";
  case 10:
    return "PARAMATTR_GROUP_BLOCK";
  case 11:
    return "CONSTANTS_BLOCK";
  case 12:
    return "FUNCTION_BLOCK";
  case 13:
    return "IDENTIFICATION_BLOCK";
  case 14:
    return "VALUE_SYMTAB_BLOCK";
  case 15:
    return "METADATA_BLOCK";
  case 16:
    return "METADATA_ATTACHMENT";
  case 17:
    return "TYPE_BLOCK";
  case 18:
    return "USELIST_BLOCK";
  case 19:
    return "MODULE_STRTAB_BLOCK";
  case 20:
    return "GLOBALVAL_SUMMARY";
  case 21:
    return "OPERAND_BUNDLE_TAGS";
  case 22:
    return "METADATA_KIND_BLOCK";
  case 23:
    return "STRTAB_BLOCK";
  case 24:
    return "FULL_LTO_SUMMARY";
  case 25:
    return "SYMTAB_BLOCK";
  case 26:
    return "SYNC_SCOPE_NAMES";
  case BitstreamReader::kNoBlock:
    return "";
  default:
    return "BLOCK";
  }
}

void RecordOperands::grow(size_t n) {
  size_t capacity = capacity_ ? capacity_ : 16;
  while (capacity < n)
    capacity *= 2;
  auto *p =
      static_cast<uint64_t *>(memory_->allocate(capacity * sizeof(uint64_t), alignof(uint64_t)));
  if (size_)
    std::memcpy(p, data_, size_ * sizeof(uint64_t));
  size_t size = size_;
  release();
  data_ = p;
  capacity_ = capacity;
  size_ = size;
}

namespace {
/// Bitstreams this thread has opened: the memos below start with the second, so that a process
/// that reads one program (spire dis) neither allocates nor fills them.
thread_local uint32_t readersInThread = 0;
} // namespace

BitstreamReader::BitstreamReader(std::span<const uint8_t> bytes, uint32_t maxDepth,
                                 std::pmr::memory_resource *memory)
    : data_(bytes.data()), size_(bytes.size()), end_(uint64_t(bytes.size()) * 8),
      maxDepth_(maxDepth), remember_(readersInThread > 0), blockEnd_(end_),
      loadLimit_(end_ >= 64 ? end_ - 63 : 0), pairLimit_(loadLimit_ > 54 ? loadLimit_ - 54 : 0),
      memory_(memory), abbrevOps_(memory), abbrevs_(memory), scopeAbbrevs_(memory), scopes_(memory),
      blockInfos_(memory), blockInfoIds_(memory), scratch_(memory) {
  if (readersInThread < 2)
    ++readersInThread;
  // (In the reader's own room first: see opRoom_.)
  abbrevOps_.startIn(opRoom_, kOpRoom);
  abbrevs_.startIn(abbrevRoom_, kAbbrevRoom);
  scopeAbbrevs_.startIn(idRoom_, kIdRoom);
  scopes_.startIn(scopeRoom_, kScopeRoom);
  blockInfos_.startIn(blockInfoRoom_, kBlockInfoRoom);
  blockInfoIds_.startIn(blockInfoIdRoom_, kBlockInfoIdRoom);
  // The scratch record (for BLOCKINFO's records and skipped records) grows when first used.
}

uint64_t BitstreamReader::readFixedSlow(unsigned width) {
  if (width == 0)
    return 0;
  if (width > 64 || width > end_ - pos_) {
    setFailed();
    pos_ = end_;
    return 0;
  }
  uint64_t byte = pos_ >> 3;
  unsigned shift = unsigned(pos_ & 7);
  uint64_t v = 0;
  if (byte + 8 <= size_) {
    std::memcpy(&v, data_ + byte, 8);
    if constexpr (std::endian::native == std::endian::big)
      v = __builtin_bswap64(v);
    v >>= shift;
    if (shift + width > 64)
      v |= uint64_t(data_[byte + 8]) << (64 - shift);
  } else if (size_ >= 8) {
    // The data's last 8 bytes, shifted down to the field's byte (1 to 7 bytes in: the field
    // starts inside the data): the bits past the end come in as zeros, as the loop below
    // gives them.
    const uint64_t base = size_ - 8;
    std::memcpy(&v, data_ + base, 8);
    if constexpr (std::endian::native == std::endian::big)
      v = __builtin_bswap64(v);
    v = (v >> (8 * (byte - base))) >> shift;
  } else {
    for (uint64_t i = 0; byte + i < size_ && i < 9; ++i) {
      uint64_t b = data_[byte + i];
      int at = int(i * 8) - int(shift);
      if (at >= 64)
        break;
      v |= at >= 0 ? b << at : b >> -at;
    }
  }
  pos_ += width;
  return width == 64 ? v : v & ((uint64_t(1) << width) - 1);
}

uint64_t BitstreamReader::readVbrSlow(unsigned width, uint64_t result, unsigned shift) {
  // `result` holds the value of the chunks read so far (`shift` bits); more follow.
  uint64_t hi = uint64_t(1) << (width - 1);
  if (pos_ + 64 <= end_ && !failed_) {
    // The chunks in the bits one load holds (most long fields); the loop below takes the rest
    // and a chunk that overflows (it fails there as it would have).
    const uint64_t w = loadBitsAt(data_, pos_), mask = (hi << 1) - 1;
    unsigned at = 0;
    while (at + width <= 57) {
      const uint64_t piece = (w >> at) & mask, bits = piece & (hi - 1);
      if (shift >= 64 || (bits >> (64 - shift)) != 0)
        break;
      at += width;
      result |= bits << shift;
      if (!(piece & hi)) {
        pos_ += at;
        return result;
      }
      shift += width - 1;
    }
    pos_ += at;
  }
  for (;;) {
    uint64_t piece = readFixed(width);
    uint64_t bits = piece & (hi - 1);
    if (failed_)
      return 0;
    if (shift >= 64 || (bits >> (64 - shift)) != 0) {
      setFailed(); // more than 64 bits of value
      return 0;
    }
    result |= bits << shift;
    if (!(piece & hi))
      return result;
    shift += width - 1;
  }
}

namespace {

/// VBR fields from `pos` while a whole 64-bit load is readable there (`pos <= limit`): each field
/// from one load of the bits at its start (at least 57 of them). Returns how many it decoded;
/// it stops early at a field longer than a load holds, which the caller decodes field by field.
/// Always inlined, so that the callers that pass the common width 6 get constant shifts.
[[gnu::always_inline]] inline uint64_t vbrFieldsFromLoads(const uint8_t *data, uint64_t limit,
                                                          uint64_t &pos, unsigned width,
                                                          uint64_t *__restrict out,
                                                          uint64_t count) {
  uint64_t *const qEnd = out + count;
  const unsigned payload = width - 1;
  const uint64_t chunkMask = (uint64_t(1) << width) - 1, hi = uint64_t(1) << payload;
  uint64_t *q = out;
  uint64_t p = pos;
  while (q != qEnd && p <= limit) {
    const uint64_t w = loadBitsAt(data, p);
    uint64_t chunk = w & chunkMask;
    if (!(chunk & hi)) [[likely]] { // one chunk: most values
      *q++ = chunk;
      p += width;
      continue;
    }
    uint64_t value = chunk & (hi - 1);
    if (width == 6 && qEnd - q >= 4) {
      // Names spelled in VBR-6 characters: four two-chunk fields in a row (continuation bits
      // set, clear, set, clear...) come out of this load at once.
      constexpr uint64_t kPairBits = 0x0000820820820820, kPairs = 0x0000020020020020;
      if ((w & kPairBits) == kPairs) {
        for (unsigned k = 0; k < 4; ++k)
          q[k] = ((w >> (12 * k)) & 31) | ((w >> (12 * k + 1)) & 0x3E0);
        q += 4;
        p += 48;
        continue;
      }
    }
    if (2 * width <= 57) { // two chunks (characters, larger ids), when the load holds both
      uint64_t second = (w >> width) & chunkMask;
      if (!(second & hi)) {
        *q++ = value | second << payload;
        p += 2 * width;
        continue;
      }
    }
    unsigned at = width, shift = payload;
    for (;;) {
      if (at + width > 57) {
        pos = p;
        return uint64_t(q - out); // longer than the loaded bits
      }
      chunk = (w >> at) & chunkMask;
      value |= (chunk & (hi - 1)) << shift;
      at += width;
      if (!(chunk & hi))
        break;
      shift += payload;
    }
    *q++ = value;
    p += at;
  }
  pos = p;
  return uint64_t(q - out);
}

} // namespace

void BitstreamReader::readVbrRun(unsigned width, uint64_t *__restrict out, uint64_t count) {
  if (width - 2 > 30) { // widths 2..32 only
    setFailed();
    return;
  }
  const uint64_t limit = end_ >= 64 ? end_ - 64 : 0;
  uint64_t i = 0;
  while (i < count && !failed_) {
    if (end_ >= 64 && pos_ <= limit) {
      i += width == 6 ? vbrFieldsFromLoads(data_, limit, pos_, 6, out + i, count - i)
                      : vbrFieldsFromLoads(data_, limit, pos_, width, out + i, count - i);
      if (i == count)
        break;
    }
    out[i++] = readVbr(width); // a long field, or the last bytes
  }
}

namespace {

/// Fixed fields of `width` bits (1..32) from `pos` while a whole load is readable there
/// (`pos <= limit`), 57 / width of them per load, the last load taking only what is left.
/// Returns how many it read. Always inlined, so that the callers that pass the widths of
/// characters (6, 7, 8) get constant shifts and unrolled loops. With `chars`, each field is
/// the index of its character there (char6).
[[gnu::always_inline]] inline uint64_t
fixedFieldsFromLoads(const uint8_t *data, uint64_t limit, uint64_t &pos, unsigned width,
                     uint64_t *__restrict out, uint64_t count, const char *chars = nullptr) {
  const uint64_t mask = (uint64_t(1) << width) - 1;
  auto field = [&](uint64_t v) { return chars ? uint64_t(uint8_t(chars[v])) : v; };
  const unsigned perLoad = 57 / width;
  uint64_t p = pos, i = 0;
  while (i < count && p <= limit) {
    const uint64_t w = loadBitsAt(data, p);
    if (count - i >= perLoad) {
      for (unsigned k = 0; k < perLoad; ++k)
        out[i + k] = field((w >> (k * width)) & mask);
      i += perLoad;
      p += uint64_t(perLoad) * width;
      continue;
    }
    uint64_t n = count - i;
    for (uint64_t k = 0; k < n; ++k)
      out[i + k] = field((w >> (k * width)) & mask);
    i += n;
    p += n * width;
  }
  pos = p;
  return i;
}

} // namespace

#if defined(__SSE2__)
namespace {

/// 8-bit fields (names' characters) eight at a time from `pos`, while two loads are readable
/// there (`pos + 64 <= limit`): the 64 bits widened to eight 64-bit fields by unpacks with
/// zero. Returns how many it read (a multiple of 8).
inline uint64_t bytesFromTwoLoads(const uint8_t *data, uint64_t limit, uint64_t &pos,
                                  uint64_t *__restrict out, uint64_t count) {
  uint64_t p = pos, i = 0;
  const __m128i zero = _mm_setzero_si128();
  while (count - i >= 8 && p + 64 <= limit) {
    uint64_t lo, hi;
    std::memcpy(&lo, data + (p >> 3), 8);
    std::memcpy(&hi, data + (p >> 3) + 8, 8);
    const unsigned s = unsigned(p & 7);
    const uint64_t w = (lo >> s) | ((hi << 1) << (63 - s));
    const __m128i v = _mm_cvtsi64_si128(int64_t(w));
    const __m128i h = _mm_unpacklo_epi8(v, zero);
    const __m128i d0 = _mm_unpacklo_epi16(h, zero), d1 = _mm_unpackhi_epi16(h, zero);
    __m128i *o = reinterpret_cast<__m128i *>(out + i);
    _mm_storeu_si128(o, _mm_unpacklo_epi32(d0, zero));
    _mm_storeu_si128(o + 1, _mm_unpackhi_epi32(d0, zero));
    _mm_storeu_si128(o + 2, _mm_unpacklo_epi32(d1, zero));
    _mm_storeu_si128(o + 3, _mm_unpackhi_epi32(d1, zero));
    i += 8;
    p += 64;
  }
  pos = p;
  return i;
}

} // namespace
#endif

void BitstreamReader::readFixedFields(unsigned width, uint64_t *out, uint64_t count) {
  for (uint64_t i = 0; i < count && !failed_; ++i)
    out[i] = readFixed(width);
}

void BitstreamReader::readFixedRun(unsigned width, uint64_t *__restrict out, uint64_t count) {
  // (Calls only in tail position: the loads' loops keep to the registers a call may clobber.)
  if (width == 0 || width > 32)
    return readFixedFields(width, out, count);
  uint64_t i = 0;
  if (end_ >= 64) {
    const uint64_t limit = end_ - 64;
    switch (width) {
    case 6:
      i = fixedFieldsFromLoads(data_, limit, pos_, 6, out, count);
      break;
    case 7:
      i = fixedFieldsFromLoads(data_, limit, pos_, 7, out, count);
      break;
    case 8:
#if defined(__SSE2__)
      if constexpr (std::endian::native == std::endian::little)
        i = bytesFromTwoLoads(data_, limit, pos_, out, count);
#endif
      i += fixedFieldsFromLoads(data_, limit, pos_, 8, out + i, count - i);
      break;
    default:
      i = fixedFieldsFromLoads(data_, limit, pos_, width, out, count);
      break;
    }
  }
  if (i < count) // the last bytes
    return readFixedFields(width, out + i, count - i);
}

void BitstreamReader::alignTo32() {
  uint64_t aligned = (pos_ + 31) & ~uint64_t(31);
  pos_ = aligned <= end_ ? aligned : end_;
  if (aligned > end_)
    setFailed();
}

inline void BitstreamReader::pushScope(Scope scope) {
  scope.outerRecords = records_ + 1; // the block is one of the enclosing block's entries
  records_ = 0;
  scopes_.push_back(scope);
  setCurrent(scope);
}

inline void BitstreamReader::popScope() {
  records_ = scopes_.back().outerRecords;
  scopeAbbrevs_.shrinkTo(scopes_.back().firstAbbrev); // (the block's own, defined after it)
  scopes_.pop_back();
  if (!scopes_.empty()) {
    setCurrent(scopes_.back());
    return;
  }
  width_ = 0;
  firstAbbrev_ = 0;
  blockEnd_ = end_;
  idMask_ = 0;
  nextLimit_ = 0;
  refreshAbbrevs();
}

inline void BitstreamReader::setCurrent(const Scope &scope) {
  width_ = scope.abbrevWidth;
  firstAbbrev_ = scope.firstAbbrev;
  blockEnd_ = scope.endBit;
  idMask_ = (uint64_t(1) << width_) - 1; // (1..32 bits: enter() checks)
  // (A block's end is past its header, which is longer than its width.)
  nextLimit_ = std::min(loadLimit_, blockEnd_ - width_ + 1);
  refreshAbbrevs();
}

Diagnostic BitstreamReader::error(std::string message) const {
  return errorAt(pos_, std::move(message));
}

Diagnostic BitstreamReader::errorAt(uint64_t bit, std::string message) const {
  return makeError(Location::bitcode(llvmBlockName(blockId()), recordIndex(), bit),
                   std::move(message));
}

const BitstreamReader::BlockInfo *BitstreamReader::blockInfo(uint32_t blockId) const {
  for (const BlockInfo &info : blockInfos_)
    if (info.blockId == blockId)
      return &info;
  return nullptr;
}

namespace {

/// Abbreviation definitions this thread has read, keyed by their bits. A definition is decoded
/// from its own bits alone, so bits equal to a remembered definition's (over its length) are
/// that definition: a program defines the same ones as the last program from the same writer
/// (BLOCKINFO's, the type and metadata blocks'), and a process reading many programs decodes
/// each once. Only definitions that fit one load and a few operands are kept; a small set-
/// associative table, so what is kept stays bounded.
class AbbrevMemo {
public:
  static constexpr unsigned kMaxOps = 8;
  struct Entry {
    uint64_t bits = 0;
    uint8_t length = 0; ///< in bits; 0: empty
    uint8_t numOps = 0;
    uint8_t leadingScalars = 0;
    AbbrevOp ops[kMaxOps];
  };

  /// The definition that `w` (the next bits, 57 at least) starts with, or null.
  const Entry *find(uint64_t w) const {
    const Entry *set = sets_[index(w)];
    for (unsigned way = 0; way < kWays; ++way) {
      const Entry &e = set[way];
      if (e.length && (w & ((uint64_t(1) << e.length) - 1)) == e.bits)
        return &e;
    }
    return nullptr;
  }
  void insert(uint64_t w, unsigned length, std::span<const AbbrevOp> ops, unsigned leading) {
    if (length == 0 || length > 57 || ops.size() > kMaxOps)
      return;
    Entry *set = sets_[index(w)];
    for (unsigned way = kWays - 1; way > 0; --way)
      set[way] = set[way - 1];
    Entry &e = set[0];
    e.bits = w & ((uint64_t(1) << length) - 1);
    e.length = uint8_t(length);
    e.numOps = uint8_t(ops.size());
    e.leadingScalars = uint8_t(leading);
    std::copy(ops.begin(), ops.end(), e.ops);
  }
  static AbbrevMemo &forThread() { return detail::perThread<AbbrevMemo>(); }

private:
  static constexpr unsigned kSets = 64, kWays = 4;
  // The operand count and the first operand (14 bits, what the shortest definitions have) tell
  // most definitions apart; the widths of type fields vary with the program, so a set holds
  // several definitions that start alike.
  static unsigned index(uint64_t w) {
    return unsigned(((w & 0x3FFF) * 0x9E3779B97F4A7C15ull) >> 58) & (kSets - 1);
  }
  Entry sets_[kSets][kWays];
};

} // namespace

namespace {

/// An abbreviation's code when it is a literal below kNoLiteralCode (its first of `leading`
/// scalars) and its other scalars each fit one load (fixed fields of up to 57 bits, VBR fields
/// whose two chunks do: width 28 at most), else kNoLiteralCode: readAbbreviated's one-load path
/// takes only those, so it tests no widths.
uint32_t literalCodeOf(const AbbrevOp *ops, uint32_t leading) {
  if (leading == 0 || ops[0].kind != AbbrevOp::Kind::Literal ||
      ops[0].value >= BitstreamReader::kNoLiteralCode)
    return BitstreamReader::kNoLiteralCode;
  for (uint32_t k = 1; k < leading; ++k)
    if ((ops[k].kind == AbbrevOp::Kind::Fixed && ops[k].value > 57) ||
        (ops[k].kind == AbbrevOp::Kind::Vbr && 2 * ops[k].value > 57))
      return BitstreamReader::kNoLiteralCode;
  return uint32_t(ops[0].value);
}

} // namespace

template <class Ids> bool BitstreamReader::readAbbrevDefinition(Ids &into) {
  uint64_t start = pos_;
  const bool whole = remember_ && pos_ + 64 <= end_ && !failed_;
  const uint64_t first = whole ? loadBitsAt(data_, pos_) : 0;
  AbbrevMemo *memo = nullptr;
  if (whole) [[likely]] {
    memo = &AbbrevMemo::forThread();
    if (const AbbrevMemo::Entry *e = memo->find(first)) {
      Abbrev abbrev;
      abbrev.firstOp = uint32_t(abbrevOps_.size());
      abbrev.numOps = e->numOps;
      abbrev.leadingScalars = e->leadingScalars;
      abbrev.literalCode = literalCodeOf(e->ops, e->leadingScalars);
      abbrevOps_.append(e->ops, e->numOps);
      into.push_back(uint32_t(abbrevs_.size()));
      abbrevs_.push_back(abbrev);
      pos_ += e->length;
      return true;
    }
  }
  uint64_t numOps = readVbr(5);
  if (failed_)
    return failText(start, "abbreviation definition past the end of the data");
  if (numOps == 0 || numOps > bitsLeft())
    return failCount(start, "abbreviation definition with ", numOps, " operands");
  Abbrev abbrev;
  abbrev.firstOp = uint32_t(abbrevOps_.size());
  for (uint64_t i = 0; i < numOps; ++i) {
    AbbrevOp op;
    // Most operands are a literal below 128 or an encoding with a width below 16: one load
    // decodes them. Others (and the last bytes) take the field-by-field path below.
    if (pos_ + 64 <= end_) [[likely]] {
      const uint64_t w = loadBitsAt(data_, pos_);
      unsigned encoding = unsigned(w >> 1) & 7;
      if (w & 1) { // a literal: VBR-8 value
        if (!(w & 0x100)) {
          abbrevOps_.push_back({AbbrevOp::Kind::Literal, (w >> 1) & 0x7F});
          pos_ += 9;
          continue;
        }
      } else if (encoding >= 3 && encoding <= 5) { // array, char6, blob
        abbrevOps_.push_back({encoding == 3   ? AbbrevOp::Kind::Array
                              : encoding == 4 ? AbbrevOp::Kind::Char6
                                              : AbbrevOp::Kind::Blob,
                              0});
        pos_ += 4;
        continue;
      } else if ((encoding == 1 || encoding == 2) && !(w & 0x100)) { // fixed, VBR: VBR-5 width
        uint64_t width = (w >> 4) & 15;
        if (width >= 2) {
          abbrevOps_.push_back(
              {encoding == 1 ? AbbrevOp::Kind::Fixed : AbbrevOp::Kind::Vbr, width});
          pos_ += 9;
          continue;
        }
      }
    }
    bool literal = readFixed(1);
    if (literal) {
      op.kind = AbbrevOp::Kind::Literal;
      op.value = readVbr(8);
    } else {
      uint64_t encoding = readFixed(3);
      switch (encoding) {
      case 1:
      case 2: {
        op.kind = encoding == 1 ? AbbrevOp::Kind::Fixed : AbbrevOp::Kind::Vbr;
        op.value = readVbr(5);
        if (op.value > (op.kind == AbbrevOp::Kind::Fixed ? 64u : 32u) ||
            (op.kind == AbbrevOp::Kind::Vbr && op.value == 1))
          return failCount(start, "abbreviation field width ", op.value, " out of range");
        if (op.value == 0) { // a zero-width field is the literal zero
          op.kind = AbbrevOp::Kind::Literal;
          op.value = 0;
        }
        break;
      }
      case 3:
        op.kind = AbbrevOp::Kind::Array;
        break;
      case 4:
        op.kind = AbbrevOp::Kind::Char6;
        break;
      case 5:
        op.kind = AbbrevOp::Kind::Blob;
        break;
      default:
        return failCount(start, "abbreviation operand with unknown encoding ", encoding, "");
      }
    }
    if (failed_)
      return failText(start, "abbreviation definition past the end of the data");
    abbrevOps_.push_back(op);
  }
  abbrev.numOps = uint32_t(numOps);
  abbrev.leadingScalars = abbrev.numOps;
  // Arrays must be the next-to-last operand followed by a scalar element encoding; blobs last.
  for (uint32_t i = 0; i < abbrev.numOps; ++i) {
    const AbbrevOp &op = abbrevOps_[abbrev.firstOp + i];
    if (op.kind == AbbrevOp::Kind::Array || op.kind == AbbrevOp::Kind::Blob)
      abbrev.leadingScalars = std::min(abbrev.leadingScalars, i);
    if (op.kind == AbbrevOp::Kind::Array) {
      if (i + 2 != abbrev.numOps)
        return failText(start, "abbreviation array is not the next-to-last operand");
      AbbrevOp::Kind elt = abbrevOps_[abbrev.firstOp + i + 1].kind;
      if (elt != AbbrevOp::Kind::Fixed && elt != AbbrevOp::Kind::Vbr &&
          elt != AbbrevOp::Kind::Char6)
        return failText(start, "abbreviation array element is not a scalar encoding");
      break;
    }
    if (op.kind == AbbrevOp::Kind::Blob && i + 1 != abbrev.numOps)
      return failText(start, "abbreviation blob is not the last operand");
  }
  if (memo)
    memo->insert(first, unsigned(pos_ - start),
                 std::span<const AbbrevOp>(abbrevOps_.data() + abbrev.firstOp, abbrev.numOps),
                 abbrev.leadingScalars);
  abbrev.literalCode = literalCodeOf(abbrevOps_.data() + abbrev.firstOp, abbrev.leadingScalars);
  into.push_back(uint32_t(abbrevs_.size()));
  abbrevs_.push_back(abbrev);
  return true;
}

namespace {

/// The BLOCKINFO blocks this thread has read, by their bytes: every program from one writer
/// carries the same one, so a process reading many programs parses each distinct block once.
/// What a block gives is its targets' abbreviation lists, a function of its bytes (and the
/// block's abbreviation width) alone; only blocks read without error are kept, the four
/// latest.
struct BlockInfoMemo {
  using Target = BitstreamReader::BlockInfo;
  using Abbrev = BitstreamReader::Abbrev;
  struct Block {
    unsigned width = 0;
    uint64_t serial = 0; ///< names these bytes (and width) in this thread; see blockInfoIdentity
    std::vector<uint8_t> bytes; ///< from the first field to the end (32-bit aligned)
    // What the block defined, relative to the reader's tables before it: its targets (their
    // abbreviations: ids[first..first + count)), the abbreviation ids (from 0: the block's
    // first definition), the definitions (their operands from 0: the block's first operand)
    // and their operands.
    std::vector<Target> targets;
    std::vector<uint32_t> ids;
    std::vector<Abbrev> abbrevs;
    std::vector<AbbrevOp> ops;
  };
  static constexpr unsigned kSlots = 4;
  Block blocks[kSlots];
  uint64_t nextSerial = 1; ///< the serial the next block remembered takes (in this thread)

  static BlockInfoMemo &forThread() { return detail::perThread<BlockInfoMemo>(); }
};

} // namespace

bool BitstreamReader::readBlockInfo() {
  // Entered already (at a 32-bit boundary). A block read before, byte for byte, gives what it
  // gave then.
  const uint64_t blockStart = pos_;
  const unsigned width = scopes_.back().abbrevWidth;
  const bool memoizable = remember_ && blockInfos_.empty() && (blockStart & 7) == 0;
  blockInfoIdentity_ = 0; // known again only when this block is (or becomes) a memo's
  if (memoizable) {
    BlockInfoMemo &memo = BlockInfoMemo::forThread();
    for (unsigned slot = 0; slot < BlockInfoMemo::kSlots; ++slot) {
      const BlockInfoMemo::Block &b = memo.blocks[slot];
      const uint64_t byte = blockStart >> 3;
      if (b.bytes.empty() || b.width != width || b.bytes.size() > size_ - byte ||
          blockStart + b.bytes.size() * 8 > scopes_.back().endBit ||
          std::memcmp(data_ + byte, b.bytes.data(), b.bytes.size()) != 0)
        continue;
      // The operands in one copy; the definitions after the ones there are, the targets'
      // lists after them (none yet: this is the stream's first BLOCKINFO block).
      // (Copied as they are, then moved past what there is: most streams start with this
      // block, with nothing to move past.)
      const uint32_t opBase = uint32_t(abbrevOps_.size());
      const uint32_t abbrevBase = uint32_t(abbrevs_.size());
      abbrevOps_.append(b.ops.data(), b.ops.size());
      abbrevs_.append(b.abbrevs.data(), b.abbrevs.size());
      if (opBase != 0)
        for (size_t k = abbrevBase; k < abbrevs_.size(); ++k)
          abbrevs_[k].firstOp += opBase;
      blockInfoIds_.assign(b.ids.data(), b.ids.size());
      if (abbrevBase != 0)
        for (uint32_t &id : blockInfoIds_)
          id += abbrevBase;
      blockInfos_.assign(b.targets.data(), b.targets.size());
      blockInfoIdentity_ = b.serial;
      pos_ = blockStart + b.bytes.size() * 8; // (before the swap: `b` is the slot's)
      if (slot != 0)
        std::swap(memo.blocks[0], memo.blocks[slot]); // the latest first
      popScope();
      return true; // (no Status to build on the common path)
    }
  }
  const uint32_t opBase = uint32_t(abbrevOps_.size());
  const uint32_t abbrevBase = uint32_t(abbrevs_.size());
  if (Status status = readBlockInfoRecords(); !status)
    return fail(status.error());
  if (memoizable && !blockInfos_.empty() && !failed_) {
    BlockInfoMemo &memo = BlockInfoMemo::forThread();
    for (unsigned slot = BlockInfoMemo::kSlots - 1; slot > 0; --slot)
      memo.blocks[slot] = std::move(memo.blocks[slot - 1]);
    BlockInfoMemo::Block &b = memo.blocks[0];
    b = {};
    b.width = width;
    b.serial = memo.nextSerial++;
    blockInfoIdentity_ = b.serial;
    b.bytes.assign(data_ + (blockStart >> 3), data_ + (pos_ >> 3));
    for (const BlockInfo &info : blockInfos_)
      b.targets.push_back({info.blockId, info.first, info.count});
    for (uint32_t id : blockInfoIds_)
      b.ids.push_back(id - abbrevBase);
    for (size_t k = abbrevBase; k < abbrevs_.size(); ++k)
      b.abbrevs.push_back({abbrevs_[k].firstOp - opBase, abbrevs_[k].numOps,
                           abbrevs_[k].leadingScalars, abbrevs_[k].literalCode});
    b.ops.assign(abbrevOps_.begin() + opBase, abbrevOps_.end());
  }
  return true;
}

Status BitstreamReader::readBlockInfoRecords() {
  // Records name the target block, definitions attach abbreviations to it (a block that comes
  // back adds to its list: the lists are gathered apart, the ones there are first, and laid out
  // one after the other at the end).
  struct Target {
    uint32_t blockId;
    std::pmr::vector<uint32_t> abbrevs;
  };
  std::pmr::vector<Target> targets(memory_);
  targets.reserve(blockInfos_.size() + 4);
  for (const BlockInfo &info : blockInfos_)
    targets.push_back(
        {info.blockId,
         std::pmr::vector<uint32_t>(blockInfoIds_.begin() + info.first,
                                    blockInfoIds_.begin() + info.first + info.count, memory_)});
  Target *current = nullptr;
  for (;;) {
    uint64_t start = pos_;
    uint64_t id = readFixed(scopes_.back().abbrevWidth);
    if (failed_)
      return errorAt(start, "BLOCKINFO block past the end of the data");
    if (id == kAbbrevEndBlock) {
      alignTo32();
      if (failed_)
        return errorAt(start, "BLOCKINFO block past the end of the data");
      blockInfos_.clear();
      blockInfoIds_.clear();
      for (const Target &t : targets) {
        blockInfos_.push_back(
            {t.blockId, uint32_t(blockInfoIds_.size()), uint32_t(t.abbrevs.size())});
        blockInfoIds_.append(t.abbrevs.data(), t.abbrevs.size());
      }
      popScope();
      return {};
    }
    if (id == kAbbrevEnterSubblock)
      return errorAt(start, "a block inside the BLOCKINFO block");
    if (id == kAbbrevDefine) {
      if (!current)
        return errorAt(start, "abbreviation in the BLOCKINFO block before SETBID");
      if (!readAbbrevDefinition(current->abbrevs))
        return takeError();
      continue;
    }
    recordStart_ = start; // the id is read: readRecord goes on from here
    if (Status s = readRecord(uint32_t(id), scratch_); !s)
      return s;
    if (scratch_.code == kBlockInfoSetBid) {
      if (scratch_.ops.empty() || scratch_.ops[0] > 0xFFFFFFFFu)
        return errorAt(start, "SETBID record without a block id");
      uint32_t target = uint32_t(scratch_.ops[0]);
      current = nullptr;
      for (Target &t : targets)
        if (t.blockId == target)
          current = &t;
      if (!current) {
        if (targets.size() >= 1024)
          return errorAt(start, "too many BLOCKINFO targets");
        targets.push_back({target, std::pmr::vector<uint32_t>(memory_)});
        current = &targets.back();
        current->abbrevs.reserve(16);
      }
    }
    // BLOCKNAME and SETRECORDNAME are descriptive only.
  }
}

bool BitstreamReader::enter(uint32_t blockId) {
  // Most headers: a one-chunk width, the length word at the next 32-bit boundary, inside the
  // data, and room for the scope and BLOCKINFO's abbreviation ids: here without a call (so
  // few registers to save). Anything else from the start in enterSlow. (loadLimit_ is 0 after
  // a failure.)
  // (BLOCKINFO's ids looked up first, the block's fields set next and the ids copied last: few
  // values live at once, so few registers to save.)
  uint32_t count = 0;
  const uint32_t *ids = nullptr;
  if (const BlockInfo *info = blockInfo(blockId)) {
    count = info->count;
    if (!scopeAbbrevs_.hasRoom(count)) [[unlikely]]
      return enterSlow(blockId);
    ids = blockInfoIds_.data() + info->first;
  }
  const uint64_t pos = pos_, end = end_;
  const uint64_t lengthAt = (pos + 4 + 31) & ~uint64_t(31);
  if (pos >= loadLimit_ || lengthAt + 32 > end) [[unlikely]]
    return enterSlow(blockId);
  const uint64_t v = loadBitsAt(data_, pos);
  const unsigned width = unsigned(v & 7);
  uint32_t word;
  std::memcpy(&word, data_ + (lengthAt >> 3), 4);
  if constexpr (std::endian::native == std::endian::big)
    word = __builtin_bswap32(word);
  const uint64_t body = lengthAt + 32;
  // (The depth in bytes of open scopes: no divide by the size of a Scope.)
  const size_t depthBytes = size_t(reinterpret_cast<const char *>(scopes_.end()) -
                                   reinterpret_cast<const char *>(scopes_.begin()));
  if ((v & 8) || width == 0 || uint64_t(word) * 32 > end - body || !scopes_.hasRoom(1) ||
      depthBytes >= size_t(maxDepth_) * sizeof(Scope)) [[unlikely]]
    return enterSlow(blockId);
  const uint32_t firstAbbrev = uint32_t(scopeAbbrevs_.size());
  pos_ = body;
  const uint64_t endBit = body + uint64_t(word) * 32;
  *scopes_.appendInRoom(1) = Scope{blockId, width, endBit, records_ + 1, firstAbbrev};
  records_ = 0;
  width_ = width;
  firstAbbrev_ = firstAbbrev;
  blockEnd_ = endBit;
  idMask_ = (uint64_t(1) << width) - 1;
  // (A block's end is past its header, which is longer than its width.)
  nextLimit_ = std::min(loadLimit_, endBit - width + 1);
  uint32_t *to = scopeAbbrevs_.appendInRoom(count);
  blockIds_ = to;
  blockAbbrevs_ = count;
  for (uint32_t k = 0; k < count; ++k) {
    uint32_t id = ids[k];
    asm("" : "+r"(id)); // (a loop of a few ids: not a call to memcpy)
    to[k] = id;
  }
  return true;
}

bool BitstreamReader::enterSlow(uint32_t blockId) {
  // enter()'s header, field by field: near the data's end, a width of two chunks, tables to
  // grow, or an error to report.
  uint64_t start = pendingBlockStart_;
  const unsigned width = unsigned(readVbr(4));
  alignTo32();
  const uint64_t words = readFixed(32);
  if (failed_)
    return failText(start, "block header past the end of the data");
  if (width < 1 || width > 32 || words * 32 > end_ - pos_ || scopes_.size() >= maxDepth_)
      [[unlikely]]
    return failBlockHeader(start, width, words);
  Scope scope;
  scope.blockId = blockId;
  scope.abbrevWidth = width;
  scope.endBit = pos_ + words * 32;
  scope.firstAbbrev = uint32_t(scopeAbbrevs_.size());
  if (const BlockInfo *info = blockInfo(blockId)) {
    const uint32_t *ids = blockInfoIds_.data() + info->first;
    scopeAbbrevs_.append(ids, info->count);
  }
  pushScope(scope);
  return true;
}

bool BitstreamReader::failBlockHeader(uint64_t start, unsigned width, uint64_t words) {
  if (width < 1 || width > 32)
    return failCount(start, "block abbreviation width ", width, " out of range");
  if (words * 32 > end_ - pos_)
    return failCount(start, "block of ", words, " words runs past the end");
  return failCount(start, "blocks nested more than ", maxDepth_, " deep");
}

BitstreamReader::BlockBody BitstreamReader::blockBody() const {
  if (scopes_.empty() || (pos_ & 31) || failed_)
    return {};
  const Scope &scope = scopes_.back();
  return {scope.abbrevWidth,
          std::span<const uint8_t>(data_ + (pos_ >> 3), size_t((scope.endBit - pos_) >> 3))};
}

void BitstreamReader::leaveBlock() {
  if (scopes_.empty())
    return;
  pos_ = scopes_.back().endBit;
  popScope();
  if (failed_)
    blockAbbrevs_ = 0; // (see refreshAbbrevs)
}

Status BitstreamReader::skipBlock() {
  uint64_t start = pendingBlockStart_;
  readVbr(4);
  alignTo32();
  uint64_t words = readFixed(32);
  if (failed_)
    return errorAt(start, "block header past the end of the data");
  if (words * 32 > end_ - pos_)
    return errorAt(start, "block of " + std::to_string(words) + " words runs past the end");
  pos_ += words * 32;
  records_++;
  return {};
}

namespace {

/// Runs of abbreviation definitions this thread has read (a block's definitions, one after the
/// other, their ids included), by their bits: a program's type, constants and metadata blocks
/// define what the last program's did. A run is decoded from its own bits and the abbreviation
/// width, so equal bits give the same definitions. Only runs read without error are kept.
struct DefinitionRunMemo {
  static constexpr unsigned kChunkBits = 56;
  struct Abbrev {
    uint32_t firstOp = 0, numOps = 0, leadingScalars = 0; ///< ops: from the run's first
    uint32_t literalCode = 0;
  };
  struct Run {
    unsigned width = 0;
    uint64_t length = 0;        ///< bits; 0: empty
    std::vector<uint64_t> bits; ///< kChunkBits a chunk, the last one's rest zero
    std::vector<AbbrevOp> ops;
    std::vector<Abbrev> abbrevs;
  };
  static constexpr unsigned kSets = 32, kWays = 2;
  Run sets[kSets][kWays];

  static unsigned index(uint64_t firstChunk, unsigned width) {
    return unsigned(((firstChunk ^ width) * 0x9E3779B97F4A7C15ull) >> 59) & (kSets - 1);
  }
  static DefinitionRunMemo &forThread() { return detail::perThread<DefinitionRunMemo>(); }
};

constexpr uint64_t lowBits(uint64_t n) { return n >= 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1; }

} // namespace

bool BitstreamReader::definitionsFromMemo(uint64_t start, unsigned width) {
  constexpr unsigned kChunk = DefinitionRunMemo::kChunkBits;
  if (start + 64 > end_ || failed_)
    return false;
  const uint64_t first = loadBitsAt(data_, start) & lowBits(kChunk);
  DefinitionRunMemo &memo = DefinitionRunMemo::forThread();
  const uint64_t endBit = scopes_.back().endBit;
  for (DefinitionRunMemo::Run &run : memo.sets[DefinitionRunMemo::index(first, width)]) {
    if (run.length == 0 || run.width != width || run.bits[0] != (first & lowBits(run.length)) ||
        start + run.length > endBit || start + run.length + 64 > end_)
      continue;
    // The whole chunks after the first with one mask, the last (whole or not) with its own.
    const uint64_t *const bits = run.bits.data();
    const size_t last = run.bits.size() - 1;
    uint64_t at = start + kChunk;
    size_t i = 1;
    for (; i < last; ++i, at += kChunk)
      if ((loadBitsAt(data_, at) & lowBits(kChunk)) != bits[i])
        break;
    if (i < last ||
        (last != 0 && (loadBitsAt(data_, at) & lowBits(run.length - last * kChunk)) != bits[last]))
      continue;
    const uint32_t opBase = uint32_t(abbrevOps_.size());
    const uint32_t abbrevBase = uint32_t(abbrevs_.size());
    abbrevOps_.append(run.ops.data(), run.ops.size());
    const size_t n = run.abbrevs.size();
    Abbrev *abbrevs = abbrevs_.appendForOverwrite(n);
    uint32_t *ids = scopeAbbrevs_.appendForOverwrite(n);
    static_assert(sizeof(DefinitionRunMemo::Abbrev) == sizeof(Abbrev));
    std::memcpy(static_cast<void *>(abbrevs), run.abbrevs.data(), n * sizeof(Abbrev));
    for (size_t k = 0; k < n; ++k) {
      abbrevs[k].firstOp += opBase;
      ids[k] = uint32_t(abbrevBase + k);
    }
    pos_ = start + run.length;
    return true;
  }
  return false;
}

void BitstreamReader::rememberDefinitions(uint64_t start, uint64_t end, unsigned width,
                                          uint32_t firstAbbrev) {
  constexpr unsigned kChunk = DefinitionRunMemo::kChunkBits;
  if (end + 64 > end_ || failed_ || end - start > 4096)
    return;
  const uint64_t first = loadBitsAt(data_, start) & lowBits(kChunk);
  DefinitionRunMemo &memo = DefinitionRunMemo::forThread();
  DefinitionRunMemo::Run *set = memo.sets[DefinitionRunMemo::index(first, width)];
  for (unsigned way = DefinitionRunMemo::kWays - 1; way > 0; --way)
    set[way] = std::move(set[way - 1]);
  DefinitionRunMemo::Run &run = set[0];
  run.width = width;
  run.length = end - start;
  run.bits.clear();
  for (uint64_t at = 0; at < run.length; at += kChunk) {
    const uint64_t left = run.length - at;
    run.bits.push_back(loadBitsAt(data_, start + at) & lowBits(left < kChunk ? left : kChunk));
  }
  const uint32_t opBase = abbrevs_[firstAbbrev].firstOp;
  run.ops.assign(abbrevOps_.begin() + opBase, abbrevOps_.end());
  run.abbrevs.clear();
  for (size_t k = firstAbbrev; k < abbrevs_.size(); ++k)
    run.abbrevs.push_back({abbrevs_[k].firstOp - opBase, abbrevs_[k].numOps,
                           abbrevs_[k].leadingScalars, abbrevs_[k].literalCode});
}

bool BitstreamReader::failBlockEnd(uint64_t start) {
  return fail(errorAt(start, "block ends at bit " + std::to_string(pos_) +
                                 ", not where its length says (" +
                                 std::to_string(scopes_.back().endBit) + ")"));
}

bool BitstreamReader::enterAndReadBlockInfo() {
  if (!enter(0))
    return false;
  return readBlockInfo();
}

bool BitstreamReader::readDefinitionRun(uint64_t start, unsigned width) {
  // The definition whose id ends at pos_ and those right after it; pos_ stops before the id of
  // the first entry that is not a definition. A run of two or more is remembered (from the
  // thread's memo when one matches its bits).
  if (!remember_) {
    if (!readAbbrevDefinition(scopeAbbrevs_))
      return false;
    refreshAbbrevs();
    return true;
  }
  if (definitionsFromMemo(start, width)) {
    refreshAbbrevs();
    return true;
  }
  const uint32_t firstAbbrev = uint32_t(abbrevs_.size());
  uint32_t definitions = 0;
  for (;;) {
    if (!readAbbrevDefinition(scopeAbbrevs_))
      return false;
    refreshAbbrevs();
    ++definitions;
    // The next id, from one load (without one, the run is not remembered: nor could it be).
    const uint64_t at = pos_;
    if (at + 64 > end_)
      return true;
    const uint64_t id = loadBitsAt(data_, at) & ((uint64_t(1) << width) - 1);
    if (id != kAbbrevDefine) {
      if (definitions >= 2)
        rememberDefinitions(start, at, width, firstAbbrev);
      return true;
    }
    pos_ = at + width;
  }
}

BitstreamEntry BitstreamReader::nextSlow() {
  // next() took the records it could read from one load. Block ends and sub-blocks (but
  // BLOCKINFO) inside a block with a whole load readable are taken here with no call (so no
  // registers to save); anything else, or anything wrong, goes to nextEntry from the start.
  const uint64_t start = pos_;
  const unsigned width = width_;
  if (width != 0 && start < loadLimit_) { // (a whole load readable; 0 after a failure)
    const uint64_t w = loadBitsAt(data_, start);
    const uint64_t id = w & idMask_;
    if (id == kAbbrevEndBlock) {
      const uint64_t aligned = (start + width + 31) & ~uint64_t(31);
      if (aligned == blockEnd_) {
        pos_ = aligned;
        popScope();
        return BitstreamEntry{BitstreamEntry::Kind::EndBlock, 0};
      }
    } else if (id == kAbbrevEnterSubblock) {
      const uint64_t blockId = (w >> width) & 0xFF; // a VBR-8 of one chunk
      if (!(blockId & 0x80) && blockId != kBlockInfoBlockId && start + width <= blockEnd_) {
        pendingBlockStart_ = start;
        pos_ = start + width + 8;
        return BitstreamEntry{BitstreamEntry::Kind::SubBlock, uint32_t(blockId)};
      }
    }
  }
  return nextEntry();
}

BitstreamEntry BitstreamReader::nextEntry() {
  // Every entry next() and nextSlow() did not take.
  // (Runs of definitions go to readDefinitionRun, so that this loop keeps no state of its own.)
  for (;;) {
    // (The current block's fields: width 0 outside any block, where the end is the data's.)
    const bool top = width_ == 0;
    unsigned width = top ? topWidth_ : width_;
    if (top) {
      // The top level ends at the end of the data or in zero padding shorter than a word.
      // (Bits that are not zero end it too, as they always did: next() then left the
      // caller's entry as it was, which every caller's, made just before, was: EndOfStream.)
      if (bitsLeft() < 32) {
        readFixed(unsigned(bitsLeft()));
        return BitstreamEntry{BitstreamEntry::Kind::EndOfStream, 0};
      }
    }
    uint64_t start = pos_;
    uint64_t id = readFixed(width);
    if (failed_)
      return (failText(start, "abbreviation id past the end of the data"), kFailedEntry);
    if (id == kAbbrevEndBlock) {
      if (top)
        return (failText(start, "block end outside any block"), kFailedEntry);
      alignTo32();
      if (failed_)
        return (failText(start, "block end past the end of the data"), kFailedEntry);
      if (pos_ != blockEnd_)
        return (failBlockEnd(start), kFailedEntry);
      popScope();
      return BitstreamEntry{BitstreamEntry::Kind::EndBlock, 0};
    }
    if (pos_ > blockEnd_)
      return (failText(start, "record runs past the end of its block"), kFailedEntry);
    if (id == kAbbrevEnterSubblock) {
      pendingBlockStart_ = start;
      uint64_t blockId = readVbr(8);
      if (failed_ || blockId > 0xFFFFFFFFu)
        return (failText(start, "block id past the end of the data"), kFailedEntry);
      if (blockId == kBlockInfoBlockId) {
        if (!enterAndReadBlockInfo())
          return kFailedEntry;
        continue;
      }
      return BitstreamEntry{BitstreamEntry::Kind::SubBlock, uint32_t(blockId)};
    }
    if (id == kAbbrevDefine) {
      if (top)
        return (failText(start, "abbreviation definition outside any block"), kFailedEntry);
      if (!readDefinitionRun(start, width))
        return kFailedEntry;
      continue;
    }
    if (top)
      return (failText(start, "record outside any block"), kFailedEntry);
    recordStart_ = start; // the id is read: read() goes on from here
    return BitstreamEntry{BitstreamEntry::Kind::Record, uint32_t(id)};
  }
}

bool BitstreamReader::recordError(uint64_t start) {
  if (failed_)
    return fail(errorAt(start, "record past the end of the data"));
  return fail(errorAt(start, "record runs past the end of its block"));
}

uint64_t BitstreamReader::char6(uint64_t v) { return uint8_t(detail::kChar6Chars[v & 63]); }

Expected<BitstreamEntry> BitstreamReader::advance() {
  BitstreamEntry entry;
  if (!next(entry))
    return takeError();
  return entry;
}

Status BitstreamReader::readRecord(uint32_t abbrevId, BitstreamRecord &out) {
  if (!read(abbrevId, out))
    return takeError();
  return {};
}

uint64_t BitstreamReader::readScalar(const AbbrevOp &op) {
  switch (op.kind) {
  case AbbrevOp::Kind::Fixed:
    return readFixed(unsigned(op.value));
  case AbbrevOp::Kind::Vbr:
    return readVbr(unsigned(op.value));
  case AbbrevOp::Kind::Char6:
    return char6(readFixed(6));
  default: // a literal (arrays and blobs never reach here)
    return op.value;
  }
}

namespace {

/// A VBR-6 field of one or two chunks at bit `at` of `w` (the bits of one load, with room for
/// two fields of two chunks): its value into `v` and `at` past it; false when it is longer.
[[gnu::always_inline]] inline bool shortVbr6(uint64_t w, unsigned &at, uint64_t &v) {
  const uint64_t c = (w >> at) & 63;
  if (!(c & 32)) {
    v = c;
    at += 6;
    return true;
  }
  const uint64_t c1 = (w >> (at + 6)) & 63;
  v = (c & 31) | (c1 << 5);
  at += 12;
  return !(c1 & 32);
}

/// A VBR-6 field of three to nine chunks from the bits of one load, `v`, whose first two chunks
/// continue: its value into `value` and its length into `bits`; false when it is longer.
/// (Each chunk shifted into place and masked: no shift count to keep.)
[[gnu::always_inline]] inline bool longVbr6(uint64_t v, uint64_t &value, unsigned &bits) {
  uint64_t r = (v & 31) | ((v >> 1) & 0x3E0);
#pragma GCC unroll 8
  for (unsigned k = 2; k < 9; ++k) {
    r |= (v >> k) & (uint64_t(31) << (5 * k));
    if (!((v >> (6 * k + 5)) & 1)) {
      value = r;
      bits = 6 * (k + 1);
      return true;
    }
  }
  return false;
}

} // namespace

bool BitstreamReader::readUnabbreviated(uint64_t start, BitstreamRecord &out) {
  // The common case with no call but tail calls (so no registers to save): a code and a count
  // of one or two VBR-6 chunks each from one load, operands that fit the record's storage,
  // whole loads for every operand. Anything else goes to readUnabbreviatedSlow from the start;
  // a field longer than a load, or the data's last bytes, to finishVbrRun (pos_ is not moved
  // before the record is whole).
  // (The cursor's fields in locals: the record's stores could alias them. loadLimit_ is 0
  // after a failure, so this path never meets one, and nothing here can fail: no failed_ test.)
  const uint64_t pos = pos_;
  const uint8_t *const data = data_;
  if (pos >= loadLimit_) [[unlikely]]
    return readUnabbreviatedSlow(start, out);
  out.bitOffset = start; // (first: start's register is free for the rest)
  const uint64_t w = loadBitsAt(data, pos);
  uint64_t code = w & 63, rest = w >> 6;
  uint64_t at = pos + 12; // (the fields' start, moved past a chunk more of code or count)
  if (code & 32) {
    if (rest & 32) [[unlikely]]
      return readUnabbreviatedSlow(start, out);
    code = (code & 31) | ((rest & 31) << 5);
    rest = w >> 12;
    at += 6;
  }
  uint64_t count = rest & 63;
  if (count & 32) {
    if (rest & 0x800) [[unlikely]]
      return readUnabbreviatedSlow(start, out);
    count = (count & 31) | ((rest >> 1) & 0x3E0);
    at += 6;
  }
  if (count > out.ops.capacity()) [[unlikely]]
    return readUnabbreviatedSlow(start, out);
  uint64_t *q = out.ops.resizeForOverwrite(count); // (no growth: before any other store)
  out.blob = {};
  out.code = uint32_t(code);
  // (No test of the count against the bits left: every field decoded here is inside the data,
  // six bits at least; a record that runs past it stops the loop early, and finishVbrRun
  // tests it.) The limit is read from the reader in the loop (the stores could alias it): one
  // register fewer.
  uint64_t *const pEnd = q + count;
  // One field (or four characters) from one load at `at`, which the caller tested; false:
  // longer than a load holds.
  auto field = [&]() {
    const uint64_t v = loadBitsAt(data, at);
    if (!(v & 32)) [[likely]] { // one chunk: most values
      *q++ = v & 63;
      at += 6;
      return true;
    }
    if (!(v & 0x800)) { // two chunks
      // Names spelled in VBR-6 characters: four two-chunk fields in a row (continuation bits
      // set, clear, set, clear...) come out of this load at once.
      constexpr uint64_t kPairBits = 0x0000820820820820, kPairs = 0x0000020020020020;
      if ((v & kPairBits) == kPairs && pEnd - q >= 4) {
        for (unsigned k = 0; k < 4; ++k)
          q[k] = ((v >> (12 * k)) & 31) | ((v >> (12 * k + 1)) & 0x3E0);
        q += 4;
        at += 48;
        return true;
      }
      *q++ = (v & 31) | ((v >> 1) & 0x3E0);
      at += 12;
      return true;
    }
    uint64_t value;
    unsigned bits;
    if (!longVbr6(v, value, bits)) [[unlikely]]
      return false;
    *q++ = value;
    at += bits;
    return true;
  };
  // Two fields a limit test: below pairLimit_, the first (54 bits at most) ends below
  // loadLimit_. Near the data's end, one a test.
  while (q != pEnd) {
    if (at >= pairLimit_) [[unlikely]] {
      if (at >= loadLimit_) [[unlikely]]
        return finishVbrRun(q, pEnd, at);
      if (!field()) [[unlikely]]
        return finishVbrRun(q, pEnd, at);
      continue;
    }
    if (!field()) [[unlikely]]
      return finishVbrRun(q, pEnd, at);
    if (q == pEnd)
      break;
    if (!field()) [[unlikely]]
      return finishVbrRun(q, pEnd, at);
  }
  pos_ = at;
  if (at > blockEnd_) [[unlikely]]
    return blockOverrun();
  records_++;
  return true;
}

bool BitstreamReader::finishVbrRun(uint64_t *q, uint64_t *pEnd, uint64_t at) {
  // readUnabbreviated's record from `q` to `pEnd` (a field longer than a load, or the data's
  // last bytes) at bit `at`; pos_ is still at the record's code. A count larger than the bits after
  // it is reported as the slow path reports it.
  const uint64_t w = loadBitsAt(data_, pos_);
  unsigned fieldsAt = 0;
  uint64_t code, count;
  shortVbr6(w, fieldsAt, code); // (decoded before: one or two chunks each)
  shortVbr6(w, fieldsAt, count);
  if (count > end_ - (pos_ + fieldsAt)) {
    pos_ += fieldsAt;
    return failCount(recordStart_, "record with ", count, " operands runs past the end");
  }
  pos_ = at;
  readVbrRun(6, q, uint64_t(pEnd - q));
  return finishRecord(recordStart_);
}

bool BitstreamReader::blockOverrun() { return recordError(recordStart_); }

bool BitstreamReader::readUnabbreviatedSlow(uint64_t start, BitstreamRecord &out) {
  out.bitOffset = start;
  out.ops.clear();
  out.blob = {};
  // The code and the count, each of one or two VBR-6 chunks (every code, counts below 1024),
  // from one load; anything else field by field.
  uint64_t code, count;
  bool decoded = false;
  if (pos_ + 64 <= end_) [[likely]] {
    const uint64_t w = loadBitsAt(data_, pos_);
    unsigned at = 0;
    if (shortVbr6(w, at, code) && shortVbr6(w, at, count)) {
      pos_ += at;
      decoded = true;
    }
  }
  if (!decoded) [[unlikely]] {
    // (Decoded from the load, the code has at most 10 bits and nothing has failed.)
    code = readVbr(6);
    count = readVbr(6);
    if (failed_)
      return failText(start, "record past the end of the data");
    if (code > 0xFFFFFFFFu)
      return failCount(start, "record code ", code, " out of range");
  }
  if (count > bitsLeft())
    return failCount(start, "record with ", count, " operands runs past the end");
  out.code = uint32_t(code);
  uint64_t *p = out.ops.resizeForOverwrite(count);
  // The fields from whole loads here (the run's call and set-up cost as much as a short
  // record's fields); the last bytes and long fields in readVbrRun.
  const uint64_t i = end_ >= 64 ? vbrFieldsFromLoads(data_, end_ - 64, pos_, 6, p, count) : 0;
  if (i < count) [[unlikely]]
    readVbrRun(6, p + i, count - i);
  return finishRecord(start);
}

bool BitstreamReader::readAbbreviated(uint32_t abbrevId, uint64_t start, BitstreamRecord &out) {
  // The common case with no call but tail calls (so few registers to save): a code and scalars
  // of one load each (a literal, a fixed field of up to 57 bits, a VBR field of one or two
  // chunks from one load, a char6), then nothing or a fixed array of up to 51 bits in all,
  // into operands that hold them. A record's first scalar that is anything else goes on in
  // readAbbreviatedRest from it, any other array in readArray; a record whose code is not its
  // first operand, or is not decoded here, to readAbbreviatedSlow from the start. pos_ moves
  // only when the record is whole (or when the rest is handed on). loadLimit_ is 0 after a
  // failure: no failed_ test.
  const uint32_t index = abbrevId - kFirstApplicationAbbrev; // (ids below: a huge index)
  if (index >= blockAbbrevs_) [[unlikely]]
    return failAbbrevId(start, abbrevId);
  const Abbrev &abbrev = abbrevs_[blockIds_[index]];
  const uint32_t scalars = abbrev.leadingScalars, code = abbrev.literalCode;
  // (The code: a literal, as every writer's; anything else from the start in the slow path.)
  if (code == kNoLiteralCode || scalars - 1 >= out.ops.capacity()) [[unlikely]]
    return readAbbreviatedSlow(abbrevId, start, out);
  const AbbrevOp *op = abbrevOps_.data() + abbrev.firstOp;
  const AbbrevOp *const opsEnd = op + abbrev.numOps;
  const AbbrevOp *const scalarEnd = op + scalars;
  uint64_t pos = pos_;
  // (data_ read where it is used: one register fewer to save.)
  auto data = [this]() { return *static_cast<const uint8_t *const volatile *>(&data_); };
  // One scalar into `v` and pos past it; false: not from one load here.
  auto scalar = [&](const AbbrevOp &o, uint64_t &v) {
    const AbbrevOp::Kind kind = o.kind;
    if (kind == AbbrevOp::Kind::Literal) {
      v = o.value;
      return true;
    }
    if (pos >= loadLimit_) [[unlikely]]
      return false;
    const uint64_t w = loadBitsAt(data(), pos);
    // A VBR field's first chunk, or a fixed field: its bits kept by two shifts (no mask to
    // make, or keep in a register; -width & 63 is 64 - width without a constant 64).
    const unsigned width = unsigned(o.value);
    const unsigned drop = -width & 63;
    if (kind == AbbrevOp::Kind::Vbr) { // (widths 2..32: the definition checked)
      const uint64_t field = (w << drop) >> drop;
      if (field >> (width - 1)) { // two chunks, or more
        const uint64_t second = (w >> width) & ((uint64_t(1) << width) - 1);
        if (second >> (width - 1)) [[unlikely]] // (2 * width <= 57: see literalCodeOf)
          return false;
        v = (field ^ (uint64_t(1) << (width - 1))) | (second << (width - 1));
        pos += 2 * width;
        return true;
      }
      v = field;
      pos += width;
      return true;
    }
    if (kind == AbbrevOp::Kind::Fixed) [[likely]] { // (up to 57 bits: see literalCodeOf)
      v = (w << drop) >> drop;
      pos += width;
      return true;
    }
    v = char6(w); // (arrays and blobs come after the scalars)
    pos += 6;
    return true;
  };
  uint64_t *q = out.ops.resizeForOverwrite(scalars - 1); // (no growth: tested above)
  out.code = code;
  out.bitOffset = start;
  out.blob = {};
  for (++op; op != scalarEnd; ++op, ++q) {
    if (!scalar(*op, *q)) [[unlikely]] {
      pos_ = pos;
      return readAbbreviatedRest(op, opsEnd, q, out);
    }
  }
  if (op != opsEnd) {
    // A fixed array of up to 51 bits and its count of one VBR-6 chunk from one load, into
    // the operands' room; any other array from its count on in readArray, a blob in
    // readAbbreviatedRest.
    pos_ = pos;
    if (op->kind != AbbrevOp::Kind::Array) [[unlikely]]
      return readAbbreviatedRest(op, opsEnd, q, out);
    const AbbrevOp &elt = op[1];
    const unsigned width = unsigned(elt.value);
    if (elt.kind != AbbrevOp::Kind::Fixed || pos >= loadLimit_)
      return readArray(elt, out);
    const uint64_t w = loadBitsAt(data(), pos), count = w & 63;
    const size_t filled = out.ops.size(); // (the scalars: the array follows them)
    if ((count & 32) || count * width > 51 || filled + count > out.ops.capacity() || width > 32)
      return readArray(elt, out);
    out.ops.resizeForOverwrite(filled + count);
    const uint64_t bits = w >> 6, mask = (uint64_t(1) << width) - 1;
    for (uint64_t k = 0; k < count; ++k)
      q[k] = (bits >> (k * width)) & mask;
    pos += 6 + count * width;
  }
  pos_ = pos;
  if (pos > blockEnd_) [[unlikely]]
    return blockOverrun();
  records_++;
  return true;
}

/// readArray's and readAbbreviatedOps' elements: `count` elements of encoding `elt` from pos_
/// on, appended to out.ops (the count checked against the bits left; a short read only sets
/// failed_, which finishRecord reports).
[[gnu::always_inline]] inline void
BitstreamReader::appendArrayElements(const AbbrevOp &elt, uint64_t count, BitstreamRecord &out) {
  size_t base = out.ops.size();
  uint64_t *__restrict p = out.ops.resizeForOverwrite(base + size_t(count)) + base;
  unsigned width = unsigned(elt.value);
  switch (elt.kind) {
  case AbbrevOp::Kind::Fixed:
    if (count * width <= 57 && width - 1 < 32 && pos_ + 64 <= end_) {
      // A short array (names, small operand lists) from one load, here: readFixedRun's
      // call and saved registers cost more than its few fields.
      const uint64_t w = loadBitsAt(data_, pos_), mask = (uint64_t(1) << width) - 1;
      for (uint64_t k = 0; k < count; ++k)
        p[k] = (w >> (k * width)) & mask;
      pos_ += count * width;
      break;
    }
    readFixedRun(width, p, count);
    break;
  case AbbrevOp::Kind::Vbr:
    readVbrRun(width, p, count);
    break;
  default: { // Char6, checked when the abbreviation was defined
    uint64_t k =
        end_ >= 64 ? fixedFieldsFromLoads(data_, end_ - 64, pos_, 6, p, count, detail::kChar6Chars)
                   : 0;
    for (; k < count && !failed_; ++k) // the last bytes
      p[k] = char6(readFixed(6));
    break;
  }
  }
}

bool BitstreamReader::readArray(const AbbrevOp &elt, BitstreamRecord &out) {
  // An array (its element encoding `elt`) from its count on, appended to out.ops, and the
  // record's end.
  const uint64_t start = recordStart_;
  uint64_t minBits = elt.kind == AbbrevOp::Kind::Char6 ? 6 : elt.value;
  uint64_t count;
  const uint64_t at = pos_;
  if (at < loadLimit_ && !(loadBitsAt(data_, at) & 32)) [[likely]] {
    // A count of one chunk (below 32, so the product cannot overflow) from one load, where
    // there is no failure (loadLimit_ is 0 after one).
    count = loadBitsAt(data_, at) & 63;
    pos_ = at + 6;
    if (count * minBits > end_ - (at + 6))
      return failCount(start, "array of ", count, " elements runs past the end");
  } else {
    count = readVbr(6);
    // count <= bits left (below 2^35) keeps the product from overflowing.
    if (failed_ || count > bitsLeft() || count * minBits > bitsLeft())
      return failCount(start, "array of ", count, " elements runs past the end");
  }
  appendArrayElements(elt, count, out);
  return finishRecord(start);
}

bool BitstreamReader::readAbbreviatedSlow(uint32_t abbrevId, uint64_t start, BitstreamRecord &out) {
  // Any abbreviated record from its start (pos_ after its id), field by field.
  out.bitOffset = start;
  out.ops.clear();
  out.blob = {};
  const Abbrev &abbrev = abbrevs_[blockIds_[abbrevId - kFirstApplicationAbbrev]];
  const AbbrevOp *op = abbrevOps_.data() + abbrev.firstOp;
  // The code is the first operand; when it is an array or a blob, it is the first value read.
  if (abbrev.leadingScalars == 0) {
    if (!readAbbreviatedOps(op, op + abbrev.numOps, out))
      return false;
    if (out.ops.empty())
      return failText(start, out.blob.empty() ? "abbreviated record without a code"
                                              : "record whose code is a blob");
    if (out.ops[0] > 0xFFFFFFFFu)
      return failText(start, "record code out of range");
    out.code = uint32_t(out.ops[0]);
    out.ops.popFront();
    return finishRecord(start);
  }
  const uint64_t code = op->kind == AbbrevOp::Kind::Literal ? op->value
                        : op->kind == AbbrevOp::Kind::Fixed ? readFixed(unsigned(op->value))
                                                            : readScalar(*op);
  if (code > 0xFFFFFFFFu)
    return failCount(start, "record code ", code, " out of range");
  out.code = uint32_t(code);
  return readAbbreviatedRest(op + 1, op + abbrev.numOps, out.ops.data(), out);
}

bool BitstreamReader::readAbbreviatedRest(const AbbrevOp *op, const AbbrevOp *end, uint64_t *q,
                                          BitstreamRecord &out) {
  out.ops.resizeForOverwrite(size_t(q - out.ops.data())); // (the operands read: no growth)
  if (!readAbbreviatedOps(op, end, out))
    return false;
  return finishRecord(recordStart_);
}

bool BitstreamReader::readAbbreviatedOps(const AbbrevOp *op, const AbbrevOp *const end,
                                         BitstreamRecord &out) {
  // The record's operands from `op` on (pos_ at its field), appended to out.ops; false: error_
  // set (a failed read only sets failed_, which finishRecord reports).
  const uint64_t start = recordStart_;
  for (; op != end; ++op) {
    switch (op->kind) {
    case AbbrevOp::Kind::Array: {
      uint64_t count = readVbr(6);
      const AbbrevOp &elt = op[1];
      uint64_t minBits = elt.kind == AbbrevOp::Kind::Char6 ? 6 : elt.value;
      // count <= bits left (below 2^35) keeps the product from overflowing.
      if (failed_ || count > bitsLeft() || count * minBits > bitsLeft())
        return failCount(start, "array of ", count, " elements runs past the end");
      appendArrayElements(elt, count, out);
      op = end - 1; // the element encoding was the last operand
      break;
    }
    case AbbrevOp::Kind::Blob: {
      uint64_t length = readVbr(6);
      alignTo32();
      if (failed_ || length > bitsLeft() / 8)
        return failCount(start, "blob of ", length, " bytes runs past the end");
      out.blob = std::span<const uint8_t>(data_ + (pos_ >> 3), size_t(length));
      pos_ += length * 8;
      alignTo32();
      break;
    }
    default: { // a scalar (all come before any array or blob)
      // (Tested in the order of their counts in DXIL: VBR, fixed, literal, char6.)
      const AbbrevOp::Kind kind = op->kind;
      uint64_t v;
      if (kind == AbbrevOp::Kind::Vbr) {
        // (Wide constants: their chunks from one load when it holds them.)
        const unsigned width = unsigned(op->value);
        const detail::VbrField f = pos_ + 64 <= end_ && !failed_
                                       ? detail::vbrFromLoad(loadBitsAt(data_, pos_), width)
                                       : detail::VbrField{0, 0};
        if (f.bits) {
          v = f.value;
          pos_ += f.bits;
        } else {
          v = readVbrOfWidth(width);
        }
      } else if (kind == AbbrevOp::Kind::Fixed)
        v = readFixed(unsigned(op->value));
      else if (kind == AbbrevOp::Kind::Literal) [[likely]]
        v = op->value;
      else
        v = char6(readFixed(6));
      const size_t n = out.ops.size();
      out.ops.resizeForOverwrite(n + 1)[n] = v;
      break;
    }
    }
  }
  return true;
}

bool BitstreamReader::failText(uint64_t start, const char *message) {
  return fail(errorAt(start, message));
}

bool BitstreamReader::failCount(uint64_t start, const char *before, uint64_t n, const char *after) {
  return fail(errorAt(start, before + std::to_string(n) + after));
}

bool BitstreamReader::failAbbrevId(uint64_t start, uint32_t abbrevId) {
  if (failed_)
    return recordError(start);
  return failUndefinedAbbrev(start, abbrevId, blockAbbrevs_);
}

bool BitstreamReader::failUndefinedAbbrev(uint64_t start, uint32_t abbrevId, size_t available) {
  return fail(errorAt(start, "abbreviation id " + std::to_string(abbrevId) + " is not defined (" +
                                 std::to_string(available) + " defined in this block)"));
}

Status BitstreamReader::skipRecord(uint32_t abbrevId) { return readRecord(abbrevId, scratch_); }

} // namespace spire::dxil
