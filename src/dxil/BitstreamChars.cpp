// BitstreamReader::readChars: records whose array operand is characters, read straight into
// bytes (the general path widens each character to a 64-bit operand, which the block readers
// then narrow again into the module's strings).
#include "spire/dxil/Bitstream.h"

#include "BitstreamFields.h"

#include <cstring>

namespace spire::dxil {

namespace {

using detail::kChar6Chars;

/// Two char6 characters by their twelve bits (the first in the low six), as two bytes (the
/// first in the low byte): 8 KB, four lookups for eight characters.
struct Char6Pairs {
  uint16_t pair[4096];
  constexpr Char6Pairs() : pair() {
    for (unsigned v = 0; v < 4096; ++v)
      pair[v] = uint16_t(uint8_t(kChar6Chars[v & 63]) | uint8_t(kChar6Chars[v >> 6]) << 8);
  }
};
constexpr Char6Pairs kChar6Pairs;

/// `last - o` characters of `width` bits (char6: 6, as their characters) from bit `p` on, as
/// bytes at `o` (and up to 8 bytes past `last`); 128 bits past them readable.
[[gnu::always_inline]] inline void decodeChars(const uint8_t *data, uint64_t p, unsigned width,
                                               bool char6, char *o, char *const last) {
  if (width == 8) {
    // Eight characters from two loads (each 57 bits readable at least), stored at once; the
    // last ones likewise (written past the count: the caller's 8 bytes of room).
    while (o < last) {
      uint64_t lo, hi;
      std::memcpy(&lo, data + (p >> 3), 8);
      std::memcpy(&hi, data + (p >> 3) + 8, 8);
      if constexpr (std::endian::native == std::endian::big) {
        lo = __builtin_bswap64(lo);
        hi = __builtin_bswap64(hi);
      }
      const unsigned sh = unsigned(p & 7);
      const uint64_t w = (lo >> sh) | ((hi << 1) << (63 - sh));
      std::memcpy(o, &w, 8);
      o += 8;
      p += 64;
    }
  } else if (width == 7) {
    while (o < last) { // eight a load
      const uint64_t w = loadBitsAt(data, p);
      for (unsigned k = 0; k < 8; ++k)
        o[k] = char((w >> (7 * k)) & 0x7F);
      o += 8;
      p += 56;
    }
  } else if (char6) {
    while (o < last) { // nine a load, eight of them in pairs
      const uint64_t w = loadBitsAt(data, p);
      for (unsigned k = 0; k < 4; ++k) {
        uint16_t two = kChar6Pairs.pair[(w >> (12 * k)) & 4095];
        if constexpr (std::endian::native == std::endian::big)
          two = __builtin_bswap16(two); // (the first character at the lower address)
        std::memcpy(o + 2 * k, &two, 2);
      }
      o[8] = kChar6Chars[(w >> 48) & 63];
      o += 9;
      p += 54;
    }
  } else {
    const uint64_t mask = (uint64_t(1) << width) - 1;
    const unsigned perLoad = 57 / width; // 7 to 57
    while (o < last) {
      const uint64_t w = loadBitsAt(data, p);
      for (unsigned k = 0; k < perLoad && o + k < last + 8; ++k)
        o[k] = char(uint8_t((w >> (width * k)) & mask));
      o += perLoad;
      p += uint64_t(perLoad) * width;
    }
  }
}

/// decodeChars of `count` characters, out of line by kind (a tail call of readChars' short
/// path, which then saves no registers); each returns `count`.
[[gnu::noinline]] size_t decodeBytes(const uint8_t *data, uint64_t p, char *o, size_t count) {
  decodeChars(data, p, 8, false, o, o + count);
  return count;
}
[[gnu::noinline]] size_t decodeChar6(const uint8_t *data, uint64_t p, char *o, size_t count) {
  decodeChars(data, p, 6, true, o, o + count);
  return count;
}
[[gnu::noinline]] size_t decodeOfWidth(const uint8_t *data, uint64_t p, unsigned width, char *o,
                                       size_t count) {
  decodeChars(data, p, width, false, o, o + count);
  return count;
}

} // namespace

size_t BitstreamReader::readChars(uint32_t abbrevId, BitstreamRecord &out, char *chars,
                                  size_t room) {
  const uint64_t start = recordStart_; // next() read the abbreviation id already
  if (abbrevId == kAbbrevUnabbreviatedRecord)
    return readUnabbreviated(start, out) ? kNotChars : kReadFailed;
  const uint32_t index = abbrevId - kFirstApplicationAbbrev; // (ids below: a huge index)
  if (index >= blockAbbrevs_) [[unlikely]]
    return readAbbreviated(abbrevId, start, out) ? kNotChars : kReadFailed;
  const Abbrev &abbrev = abbrevs_[blockIds_[index]];
  const AbbrevOp *op = abbrevOps_.data() + abbrev.firstOp;
  const uint32_t scalars = abbrev.leadingScalars;
  // [code, scalars..., array, element]: the element char6 or fixed of 1..8 bits.
  if (scalars == 0 || abbrev.numOps != scalars + 2 || op[scalars].kind != AbbrevOp::Kind::Array)
    return readAbbreviated(abbrevId, start, out) ? kNotChars : kReadFailed;
  const AbbrevOp &elt = op[scalars + 1];
  const bool char6 = elt.kind == AbbrevOp::Kind::Char6;
  if (!char6 && !(elt.kind == AbbrevOp::Kind::Fixed && elt.value - 1 < 8))
    return readAbbreviated(abbrevId, start, out) ? kNotChars : kReadFailed;
  const uint64_t body = pos_; // (back here for the general path)
  out.bitOffset = start;
  out.blob = {};
  const uint64_t code = op->kind == AbbrevOp::Kind::Literal ? op->value
                        : op->kind == AbbrevOp::Kind::Fixed ? readFixed(unsigned(op->value))
                                                            : readScalar(*op);
  // The scalars between the code and the characters: none (metadata strings and names) or a
  // VBR value id (symbol table entries) inline, others out of line.
  uint64_t *slot = out.ops.resizeForOverwrite(scalars - 1);
  if (scalars == 2 && op[1].kind == AbbrevOp::Kind::Vbr)
    slot[0] = readVbrOfWidth(unsigned(op[1].value));
  else if (scalars > 1)
    readCharScalars(op + 1, slot, scalars - 1);
  const uint64_t count = readVbr(6);
  const unsigned width = char6 ? 6 : unsigned(elt.value);
  // Whatever the general path would report (or a longer array) goes there: it reads the
  // record again from its first operand.
  // (count <= room keeps the sum from overflowing; end_ - pos_ does not wrap: pos_ <= end_.)
  if (failed_ || code > 0xFFFFFFFFu || count > room || count * width + 128 > end_ - pos_)
      [[unlikely]] {
    pos_ = body;
    return readAbbreviated(abbrevId, start, out) ? kNotChars : kReadFailed;
  }
  out.code = uint32_t(code);
  decodeChars(data_, pos_, width, char6, chars, chars + count);
  pos_ += count * width;
  return finishRecord(start) ? size_t(count) : kReadFailed;
}

BitstreamReader::CharAbbrev BitstreamReader::charAbbrev(uint32_t abbrevId) const {
  CharAbbrev a{CharAbbrev::kGeneral, 0, 0, 0, false, 0};
  const uint32_t index = abbrevId - kFirstApplicationAbbrev; // (ids below: a huge index)
  if (index >= blockAbbrevs_)
    return a;
  const Abbrev &abbrev = abbrevs_[blockIds_[index]];
  const AbbrevOp *op = abbrevOps_.data() + abbrev.firstOp;
  const uint32_t scalars = abbrev.leadingScalars;
  // [code, (a VBR value)?, array, element]: the code a literal of 32 bits or a fixed field of
  // 1..32; the element char6 or fixed of 1..8 bits.
  if ((scalars != 1 && scalars != 2) || abbrev.numOps != scalars + 2 ||
      op[scalars].kind != AbbrevOp::Kind::Array ||
      (scalars == 2 && op[1].kind != AbbrevOp::Kind::Vbr))
    return a;
  if (op->kind == AbbrevOp::Kind::Literal && op->value <= 0xFFFFFFFFu) {
    a.code = uint32_t(op->value);
  } else if (op->kind == AbbrevOp::Kind::Fixed && op->value - 1 < 32) {
    a.codeWidth = uint8_t(op->value);
  } else {
    return a;
  }
  const AbbrevOp &elt = op[scalars + 1];
  if (elt.kind == AbbrevOp::Kind::Char6) {
    a.char6 = true;
    a.width = 6;
  } else if (elt.kind == AbbrevOp::Kind::Fixed && elt.value - 1 < 8) {
    a.width = uint8_t(elt.value);
  } else {
    return a;
  }
  if (scalars == 2)
    a.valueWidth = uint8_t(op[1].value); // (2..32: its definition checked)
  a.state = CharAbbrev::kChars;
  return a;
}

size_t BitstreamReader::readChars(const CharAbbrev &a, uint32_t abbrevId, BitstreamRecord &out,
                                  char *chars, size_t room) {
  // The code, the value and the count each from one load below loadLimit_ (0 after a failure),
  // the VBR ones of one or two chunks, each stored in `out` as it is read (few registers):
  // anything else (the data's last bits, longer VBR fields, operands' room to grow, more
  // characters than `room` or than the data holds) goes to readChars(abbrevId) above from the
  // record's first field, which reads it as the general path does (the same results and
  // failures) and sets every field of `out` again.
  if (a.state != CharAbbrev::kChars)
    return readChars(abbrevId, out, chars, room);
  uint64_t p = pos_;
  if (p >= loadLimit_) [[unlikely]]
    return readChars(abbrevId, out, chars, room);
  if (const unsigned cw = a.codeWidth) {
    out.code = uint32_t(loadBitsAt(data_, p) & ((uint64_t(1) << cw) - 1));
    p += cw;
    if (p >= loadLimit_) [[unlikely]]
      return readChars(abbrevId, out, chars, room);
  } else {
    out.code = a.code;
  }
  if (const unsigned vw = a.valueWidth) {
    if (out.ops.capacity() < 1) [[unlikely]] // (no call here: the general path grows it)
      return readChars(abbrevId, out, chars, room);
    const uint64_t w = loadBitsAt(data_, p), mask = (uint64_t(1) << vw) - 1;
    uint64_t value = w & mask;
    if (value >> (vw - 1)) {
      const uint64_t second = (w >> vw) & mask;
      if ((second >> (vw - 1)) || 2 * vw > 57) [[unlikely]]
        return readChars(abbrevId, out, chars, room);
      value = (value & (mask >> 1)) | (second << (vw - 1));
      p += vw;
    }
    p += vw;
    out.ops.resizeForOverwrite(1)[0] = value;
    if (p >= loadLimit_) [[unlikely]]
      return readChars(abbrevId, out, chars, room);
  } else {
    out.ops.clear();
  }
  const uint64_t cw = loadBitsAt(data_, p);
  uint64_t count = cw & 63;
  p += 6;
  if (count & 32) {
    if (cw & (32 << 6)) [[unlikely]]
      return readChars(abbrevId, out, chars, room);
    count = (count & 31) | ((cw >> 6) & 31) << 5;
    p += 6;
  }
  const unsigned width = a.width;
  // (count below 1024: no overflow; p <= end_ below loadLimit_.)
  if (count > room || count * width + 128 > end_ - p) [[unlikely]]
    return readChars(abbrevId, out, chars, room);
  out.bitOffset = recordStart_; // (next() read the abbreviation id already)
  out.blob = {};
  // The record finished before its characters are decoded (a failure returns without them,
  // nothing live after its call), so that the decoding is a tail call.
  pos_ = p + count * width;
  if (failed_ || pos_ > blockEnd_) [[unlikely]] { // (finishRecord's failure)
    recordError(recordStart_);
    return kReadFailed;
  }
  records_++;
  if (width == 8)
    return decodeBytes(data_, p, chars, size_t(count));
  if (a.char6)
    return decodeChar6(data_, p, chars, size_t(count));
  return decodeOfWidth(data_, p, width, chars, size_t(count));
}

void BitstreamReader::readCharScalars(const AbbrevOp *op, uint64_t *slot, uint32_t count) {
  for (uint32_t k = 0; k < count; ++k) {
    const AbbrevOp &o = op[k];
    if (o.kind == AbbrevOp::Kind::Vbr)
      slot[k] = readVbrOfWidth(unsigned(o.value));
    else if (o.kind == AbbrevOp::Kind::Fixed)
      slot[k] = readFixed(unsigned(o.value));
    else if (o.kind == AbbrevOp::Kind::Literal)
      slot[k] = o.value;
    else
      slot[k] = char6(readFixed(6));
  }
}

} // namespace spire::dxil
