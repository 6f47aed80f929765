// BitstreamReader::readScalars: abbreviated records of scalar fields only (a constant's type,
// integer or cast), read through a layout of their abbreviation that the block's reader
// finds once, instead of the general path's walk over the abbreviation's operands.
#include "spire/dxil/Bitstream.h"

#include "BitstreamFields.h"

namespace spire::dxil {

BitstreamReader::ScalarAbbrev BitstreamReader::scalarAbbrev(uint32_t abbrevId) const {
  ScalarAbbrev a{ScalarAbbrev::kGeneral, 0, false, 0, 0, 0};
  const uint32_t index = abbrevId - kFirstApplicationAbbrev; // (ids below: a huge index)
  if (index >= blockAbbrevs_)
    return a;
  const Abbrev &abbrev = abbrevs_[blockIds_[index]];
  const AbbrevOp *op = abbrevOps_.data() + abbrev.firstOp;
  // Two scalars (no array, no blob), the code first: a literal of 32 bits or a fixed field of
  // 1..32; then a fixed field of 1..32 bits or a VBR field (2..32: its definition checked).
  if (abbrev.leadingScalars != 2 || abbrev.numOps != 2)
    return a;
  if (op->kind == AbbrevOp::Kind::Literal && op->value <= 0xFFFFFFFFu)
    a.code = uint32_t(op->value);
  else if (op->kind == AbbrevOp::Kind::Fixed && op->value - 1 < 32)
    a.codeWidth = uint8_t(op->value);
  else
    return a;
  a.vbr = op[1].kind == AbbrevOp::Kind::Vbr;
  if (!a.vbr && !(op[1].kind == AbbrevOp::Kind::Fixed && op[1].value - 1 < 32))
    return a;
  a.width = uint8_t(op[1].value);
  a.maxBits = uint16_t(a.codeWidth + (a.vbr ? (64 / (a.width - 1) + 1) * a.width // (VBR: 64 bits)
                                            : a.width));
  a.state = ScalarAbbrev::kScalars;
  return a;
}

bool BitstreamReader::readScalars(const ScalarAbbrev &a, uint32_t abbrevId, BitstreamRecord &out) {
  const uint64_t start = recordStart_; // next() read the abbreviation id already
  if (a.state != ScalarAbbrev::kScalars)
    return abbrevId == kAbbrevUnabbreviatedRecord ? readUnabbreviated(start, out)
                                                  : readAbbreviated(abbrevId, start, out);
  // The field (a constant's type or integer, most records) from whole loads: anything else
  // (the data's last bits, a VBR field past 57 bits, operands' room to grow) goes
  // to the general path from the record's first field (a tail call: this function saves few
  // registers), which sets every field of `out` again (the ones set here early free theirs).
  uint64_t p = pos_;
  if (p + a.maxBits + 64 > end_ || out.ops.capacity() < 1) [[unlikely]]
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
  const unsigned width = a.width;
  const uint64_t w = loadBitsAt(data_, p);
  const uint64_t hi = uint64_t(1) << (width - 1);
  uint64_t v = w & ((uint64_t(1) << width) - 1);
  p += width;
  if (a.vbr && (v & hi)) { // (out of line: the common path then keeps to a few registers)
    const detail::VbrField more = detail::vbrFromLoad(w, width);
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
