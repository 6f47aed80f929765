// BitstreamReader::readScalars (abbreviated records of scalar fields read through a layout
// found once) against read() on the same records: literal and fixed codes, fixed and VBR fields
// of every width, values of every VBR length, every bit alignment, the end of the data, shapes
// it leaves to the general path, and bad records.
#include "BitWriter.h"

#include "spire/dxil/Bitstream.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace spire::dxil {
namespace {

using test::BitWriter;

/// One field of an abbreviation: (encoding, width) as BitWriter::defineAbbrev takes it
/// (-1 literal, 1 fixed, 2 VBR, 4 char6).
using Op = std::pair<int, uint64_t>;

/// Values a field of `op` can hold, of every length.
std::vector<uint64_t> valuesFor(Op op) {
  if (op.first == 4)
    return {0, 1, 26, 63};
  if (op.first == 1) {
    const uint64_t max = op.second >= 64 ? ~uint64_t(0) : (uint64_t(1) << op.second) - 1;
    return {0, 1, max / 3, max};
  }
  std::vector<uint64_t> v = {0, 1};
  for (unsigned bits = 2; bits <= 64; bits += 3)
    v.push_back(bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1);
  v.push_back(~uint64_t(0));
  return v;
}

void writeField(BitWriter &w, Op op, uint64_t v) {
  if (op.first == 1)
    w.fixed(v, unsigned(op.second));
  else if (op.first == 2)
    w.vbr(v, unsigned(op.second));
  else if (op.first == 4)
    w.fixed(v, 6);
}

/// A block (width 3) with a padding abbreviation (id 4: [literal 5, fixed pad]) and `def`
/// (id 5), then records of `def` (a padding one of `pad` bits before each), each field taking
/// the values valuesFor gives in turn; `tail` padding records after each.
std::vector<uint8_t> stream(const std::vector<Op> &def, unsigned pad, unsigned tail) {
  BitWriter w;
  w.enterBlock(8, 3);
  w.defineAbbrev({{-1, 5}, {1, pad ? pad : 1}});
  w.fixed(2, 3); // DEFINE_ABBREV (written here: a vector of operands)
  w.vbr(def.size(), 5);
  for (Op op : def) {
    if (op.first < 0) {
      w.fixed(1, 1);
      w.vbr(op.second, 8);
    } else {
      w.fixed(0, 1);
      w.fixed(uint64_t(op.first), 3);
      if (op.first == 1 || op.first == 2)
        w.vbr(op.second, 5);
    }
  }
  size_t records = 1;
  for (Op op : def)
    records = std::max(records, op.first < 0 ? size_t(1) : valuesFor(op).size());
  for (size_t i = 0; i < records; ++i) {
    if (pad) {
      w.fixed(4, 3);
      w.fixed(1, pad);
    }
    w.fixed(5, 3);
    for (Op op : def)
      if (op.first >= 0) {
        const std::vector<uint64_t> values = valuesFor(op);
        writeField(w, op, values[i % values.size()]);
      }
    for (unsigned t = 0; t < tail; ++t) {
      w.fixed(4, 3);
      w.fixed(1, pad ? pad : 1);
    }
  }
  w.endBlock();
  w.align32();
  return w.bytes();
}

/// Reads the stream with readScalars (its layouts found once) and with read(), in step, and
/// compares code, operands, where each ends and the failures.
enum class Outcome { kReads, kFails, kEither };
void compare(const std::vector<uint8_t> &bytes, const std::string &what,
             Outcome outcome = Outcome::kReads) {
  BitstreamReader scalars(bytes), general(bytes);
  for (BitstreamReader *r : {&scalars, &general}) {
    Expected<BitstreamEntry> e = r->advance();
    ASSERT_TRUE(e) << what;
    ASSERT_TRUE(r->enterBlock(e->id)) << what;
  }
  std::map<uint32_t, BitstreamReader::ScalarAbbrev> found;
  BitstreamRecord a, b;
  size_t records = 0;
  for (;;) {
    BitstreamEntry ea, eb;
    const bool oka = scalars.next(ea), okb = general.next(eb);
    ASSERT_EQ(oka, okb) << what;
    if (!oka) {
      EXPECT_EQ(scalars.takeError().message, general.takeError().message) << what;
      EXPECT_NE(outcome, Outcome::kReads) << what;
      return;
    }
    ASSERT_EQ(ea.kind, eb.kind) << what;
    if (ea.kind != BitstreamEntry::Kind::Record)
      break;
    auto it = found.find(ea.id);
    if (it == found.end())
      it = found.emplace(ea.id, scalars.scalarAbbrev(ea.id)).first;
    const bool ra = scalars.readScalars(it->second, ea.id, a);
    const bool rb = general.read(eb.id, b);
    ASSERT_EQ(ra, rb) << what << ", record " << records;
    if (!ra) {
      const std::string message = scalars.takeError().message;
      EXPECT_FALSE(message.empty()) << what;
      EXPECT_EQ(message, general.takeError().message) << what;
      EXPECT_NE(outcome, Outcome::kReads) << what;
      return;
    }
    ++records;
    EXPECT_EQ(a.code, b.code) << what << ", record " << records;
    EXPECT_EQ(a.bitOffset, b.bitOffset) << what;
    EXPECT_EQ(scalars.bitPosition(), general.bitPosition()) << what << ", record " << records;
    EXPECT_EQ(std::vector<uint64_t>(a.ops.begin(), a.ops.end()),
              std::vector<uint64_t>(b.ops.begin(), b.ops.end()))
        << what << ", record " << records;
  }
  EXPECT_GT(records, 0u) << what;
  EXPECT_NE(outcome, Outcome::kFails) << what;
}

TEST(DxilBitstreamScalars, EveryShapeWidthValueAndAlignmentAsRead) {
  std::vector<std::vector<Op>> defs;
  for (uint64_t width : {2, 3, 4, 6, 7, 8, 12, 16, 31, 32}) {
    defs.push_back({{-1, 4}, {2, width}}); // an INTEGER's shape
    defs.push_back({{1, 5}, {2, width}});  // a fixed code
  }
  for (uint64_t width : {1, 2, 5, 8, 13, 24, 32})
    defs.push_back({{-1, 1}, {1, width}});            // a SETTYPE's shape
  defs.push_back({{-1, 11}, {1, 4}, {1, 7}, {2, 8}}); // a cast's (three fields)
  defs.push_back({{-1, 2}});                          // a NULL's (none)
  defs.push_back({{-1, 9}, {4, 0}});                  // char6 (the general path)
  defs.push_back({{-1, 9}, {1, 40}});                 // a fixed field past 32 bits
  defs.push_back({{2, 6}, {2, 6}});                   // a VBR code
  for (size_t d = 0; d < defs.size(); ++d)
    for (unsigned pad = 0; pad <= 8; ++pad)
      for (unsigned tail : {0u, 1u, 40u}) {
        const std::string what = "shape " + std::to_string(d) + " pad " + std::to_string(pad) +
                                 " tail " + std::to_string(tail);
        // (A VBR code past 32 bits fails, as read() fails it.)
        compare(stream(defs[d], pad, tail), what,
                d + 1 == defs.size() ? Outcome::kEither : Outcome::kReads);
      }
}

TEST(DxilBitstreamScalars, TheCommonShapesTakeTheLayout) {
  // (What readScalars is for: these must not be left to the general path's layout.)
  BitWriter w;
  w.enterBlock(8, 3);
  w.defineAbbrev({{-1, 4}, {2, 8}});
  w.defineAbbrev({{-1, 1}, {1, 5}});
  w.defineAbbrev({{1, 3}, {2, 6}});
  w.defineAbbrev({{-1, 7}, {3, 0}, {1, 8}});
  w.fixed(4, 3);
  w.vbr(1, 8);
  w.endBlock();
  w.align32();
  BitstreamReader r(w.bytes());
  Expected<BitstreamEntry> e = r.advance();
  ASSERT_TRUE(e);
  ASSERT_TRUE(r.enterBlock(e->id));
  BitstreamEntry entry;
  ASSERT_TRUE(r.next(entry)); // (the definitions are read: the ids are there)
  using A = BitstreamReader::ScalarAbbrev;
  EXPECT_EQ(r.scalarAbbrev(4).state, A::kScalars);
  EXPECT_EQ(r.scalarAbbrev(5).state, A::kScalars);
  EXPECT_EQ(r.scalarAbbrev(6).state, A::kScalars);
  EXPECT_EQ(r.scalarAbbrev(7).state, A::kGeneral); // (an array)
  EXPECT_EQ(r.scalarAbbrev(8).state, A::kGeneral); // (not defined)
  EXPECT_EQ(r.scalarAbbrev(3).state, A::kGeneral); // (unabbreviated)
}

TEST(DxilBitstreamScalars, BadRecordsFailAsRead) {
  // Fields past their block's declared end (its length word made one word shorter), and a
  // VBR field past 64 bits.
  std::vector<std::vector<uint8_t>> cases;
  for (Op field : {Op{1, 32}, Op{2, 8}}) {
    BitWriter w;
    w.enterBlock(8, 3);
    w.defineAbbrev({{-1, 4}, field});
    w.fixed(4, 3);
    writeField(w, field, 0xFFFFFFFFu);
    w.endBlock();
    for (int i = 0; i < 32; ++i) // (readable data after the block)
      w.fixed(0, 8);
    w.align32();
    std::vector<uint8_t> bytes = w.bytes();
    bytes[4] -= 1; // the block's length in words
    cases.push_back(bytes);
  }
  {
    BitWriter w;
    w.enterBlock(8, 3);
    w.defineAbbrev({{-1, 4}, {2, 8}});
    w.fixed(4, 3);
    for (int i = 0; i < 11; ++i)
      w.fixed(0xFF, 8); // 77 bits of value
    w.fixed(0x01, 8);
    for (int i = 0; i < 32; ++i)
      w.fixed(0, 8);
    w.endBlock();
    w.align32();
    cases.push_back(w.bytes());
  }
  for (size_t k = 0; k < cases.size(); ++k)
    compare(cases[k], "case " + std::to_string(k), Outcome::kFails);
}

} // namespace
} // namespace spire::dxil
