// BitstreamReader::readScalars: abbreviated records of scalar fields only (a constant's type,
// integer or cast), read through a layout of their abbreviation that the block's reader
// finds once, instead of the general path's walk over the abbreviation's operands.
#include "spire/dxil/Bitstream.h"

namespace spire::dxil {

namespace {

struct VbrChunks {
  uint64_t value;
  unsigned bits; ///< 0: more than the load holds
};

/// The VBR field of `width` (2..32) bits a chunk at the start of `w` (57 bits of the stream at
/// least), whose first chunk is continued: its value and bits, while they fit in 57.
[[gnu::noinline]] VbrChunks vbrChunks(uint64_t w, unsigned width) {
  const uint64_t hi = uint64_t(1) << (width - 1);
  uint64_t v = w & (hi - 1);
  uint64_t rest = w >> width;
  unsigned used = width;
  for (unsigned shift = width - 1;; shift += width - 1) {
    used += width;
    if (used > 57) [[unlikely]]
      return {0, 0};
    v |= (rest & (hi - 1)) << shift;
    if (!(rest & hi))
      return {v, used};
    rest >>= width;
  }
}

} // namespace

BitstreamReader::ScalarAbbrev BitstreamReader::scalarAbbrev(uint32_t abbrevId) const {
  ScalarAbbrev a{ScalarAbbrev::kGeneral, 0, 0, 0, {0, 0, 0, 0}, 0, 0};
  const uint32_t index = abbrevId - kFirstApplicationAbbrev; // (ids below: a huge index)
  if (index >= blockAbbrevs_)
    return a;
  const Abbrev &abbrev = abbrevs_[blockIds_[index]];
  const AbbrevOp *op = abbrevOps_.data() + abbrev.firstOp;
  // Scalars alone (no array, no blob), the code first: a literal of 32 bits or a fixed field
  // of 1..32; then fixed fields of 1..32 bits and VBR fields (2..32: their definition checked).
  if (abbrev.leadingScalars != abbrev.numOps || abbrev.numOps == 0 ||
      abbrev.numOps - 1 > ScalarAbbrev::kMaxScalars)
    return a;
  if (op->kind == AbbrevOp::Kind::Literal && op->value <= 0xFFFFFFFFu)
    a.code = uint32_t(op->value);
  else if (op->kind == AbbrevOp::Kind::Fixed && op->value - 1 < 32)
    a.codeWidth = uint8_t(op->value);
  else
    return a;
  for (uint32_t k = 1; k < abbrev.numOps; ++k) {
    if (op[k].kind == AbbrevOp::Kind::Vbr)
      a.vbr |= uint8_t(1u << (k - 1));
    else if (!(op[k].kind == AbbrevOp::Kind::Fixed && op[k].value - 1 < 32))
      return a;
    a.widths[k - 1] = uint8_t(op[k].value);
  }
  a.count = uint8_t(abbrev.numOps - 1);
  unsigned bits = a.codeWidth;
  for (unsigned k = 0; k < a.count; ++k)
    bits += (a.vbr >> k) & 1 ? (64 / (a.widths[k] - 1) + 1) * a.widths[k] // (VBR: 64 bits)
                             : a.widths[k];
  a.maxBits = uint16_t(bits);
  a.state = ScalarAbbrev::kScalars;
  return a;
}

bool BitstreamReader::readScalars(const ScalarAbbrev &a, uint32_t abbrevId, BitstreamRecord &out) {
  const uint64_t start = recordStart_; // next() read the abbreviation id already
  if (a.state != ScalarAbbrev::kScalars)
    return abbrevId == kAbbrevUnabbreviatedRecord ? readUnabbreviated(start, out)
                                                  : readAbbreviated(abbrevId, start, out);
  // One field (a constant's type or integer, most records) from whole loads: anything else
  // (more fields, the data's last bits, a VBR field past 57 bits, operands' room to grow) goes
  // to the general path from the record's first field (a tail call: this function saves few
  // registers), which sets every field of `out` again (the ones set here early free theirs).
  uint64_t p = pos_;
  if (a.count != 1 || p + a.maxBits + 64 > end_ || out.ops.capacity() < 1) [[unlikely]]
    return readAbbreviated(abbrevId, start, out);
  out.bitOffset = start;
  out.blob = {};
  if (a.codeWidth) {
    out.code = uint32_t(loadBitsAt(data_, p) & ((uint64_t(1) << a.codeWidth) - 1));
    p += a.codeWidth;
  } else {
    out.code = a.code;
  }
  // The field from one load (57 bits at least): a VBR field's chunks from it while they fit.
  const unsigned width = a.widths[0];
  const uint64_t w = loadBitsAt(data_, p);
  const uint64_t hi = uint64_t(1) << (width - 1);
  uint64_t v = w & ((uint64_t(1) << width) - 1);
  p += width;
  if (a.vbr && (v & hi)) { // (out of line: the common path then keeps to a few registers)
    const VbrChunks more = vbrChunks(w, width);
    if (!more.bits) [[unlikely]]
      return readAbbreviated(abbrevId, recordStart_, out);
    v = more.value;
    p += more.bits - width;
  }
  out.ops.resizeForOverwrite(1)[0] = v; // (room tested above: no call)
  pos_ = p;
  return finishRecord(recordStart_);
}

} // namespace spire::dxil
