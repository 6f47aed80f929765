// BitstreamReader::readChars (records whose array operand is characters, read as bytes) against
// read() on the same records: every character encoding, scalars before the array, lengths
// around a load's characters, every bit alignment, the end of the data and bad records.
#include "BitWriter.h"

#include "spire/dxil/Bitstream.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace spire::dxil {
namespace {

using test::BitWriter;

constexpr size_t kRoom = 512;

/// An element encoding: (encoding, width) as BitWriter::defineAbbrev takes it.
struct Element {
  int encoding; ///< 1 fixed, 4 char6
  unsigned width;
};

constexpr char kChar6[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._";

/// The characters of a record of `n` of them with `element`.
std::vector<uint64_t> charsOf(size_t n, Element element, unsigned seed) {
  std::vector<uint64_t> v(n);
  for (size_t i = 0; i < n; ++i) {
    const unsigned k = unsigned(i * 7 + seed * 13 + 5);
    if (element.encoding == 4)
      v[i] = uint8_t(kChar6[k % 64]);
    else
      v[i] = k & ((1u << element.width) - 1);
  }
  return v;
}

/// A block (width 3) with a padding abbreviation (id 4: [literal 5, fixed pad]) and a character
/// abbreviation (id 5: [literal 1 | fixed 3 code, (vbr 6 scalar)?, array of `element`]), then
/// `records` records: a padding one of `pad` bits (none when 0), then the character record of
/// `length` characters; `tail` padding records after each (the data's end far or near).
std::vector<uint8_t> stream(Element element, bool fixedCode, bool scalar, unsigned pad,
                            const std::vector<size_t> &lengths, unsigned tail) {
  BitWriter w;
  w.enterBlock(8, 3);
  w.defineAbbrev({{-1, 5}, {1, pad ? pad : 1}});
  if (fixedCode && scalar)
    w.defineAbbrev({{1, 3}, {2, 6}, {3, 0}, {element.encoding, element.width}});
  else if (fixedCode)
    w.defineAbbrev({{1, 3}, {3, 0}, {element.encoding, element.width}});
  else if (scalar)
    w.defineAbbrev({{-1, 1}, {2, 6}, {3, 0}, {element.encoding, element.width}});
  else
    w.defineAbbrev({{-1, 1}, {3, 0}, {element.encoding, element.width}});
  unsigned seed = 0;
  for (size_t length : lengths) {
    if (pad) {
      w.fixed(4, 3);
      w.fixed(1, pad);
    }
    w.fixed(5, 3);
    if (fixedCode)
      w.fixed(2, 3);
    if (scalar)
      w.vbr(1000 + seed, 6);
    w.vbr(length, 6);
    for (uint64_t c : charsOf(length, element, seed)) {
      if (element.encoding == 4)
        w.fixed(uint64_t(std::string_view(kChar6).find(char(c))), 6);
      else
        w.fixed(c, element.width);
    }
    for (unsigned t = 0; t < tail; ++t) {
      w.fixed(4, 3);
      w.fixed(1, pad ? pad : 1);
    }
    ++seed;
  }
  w.endBlock();
  w.align32();
  return w.bytes();
}

/// Reads the stream's records with readChars (`chars`) and with read() (`general`), in step,
/// and compares them: code, operands (scalars, then the characters), where each ends, and
/// whether readChars took the byte path (`expectBytes` for the character records).
/// (`layouts`: through charAbbrev and readChars with it, found once per abbreviation.)
void compare(const std::vector<uint8_t> &bytes, bool expectBytes, const std::string &what,
             bool layouts) {
  std::map<uint32_t, BitstreamReader::CharAbbrev> found;
  BitstreamReader chars(bytes), general(bytes);
  BitstreamRecord a, b;
  for (BitstreamReader *r : {&chars, &general}) {
    Expected<BitstreamEntry> e = r->advance();
    ASSERT_TRUE(e) << what;
    ASSERT_TRUE(r->enterBlock(e->id)) << what;
  }
  size_t charRecords = 0;
  for (;;) {
    BitstreamEntry ea, eb;
    const bool oka = chars.next(ea), okb = general.next(eb);
    ASSERT_EQ(oka, okb) << what;
    ASSERT_TRUE(oka) << what;
    ASSERT_EQ(ea.kind, eb.kind) << what;
    if (ea.kind != BitstreamEntry::Kind::Record)
      break;
    std::vector<char> buffer(kRoom + 8, '\x7f');
    size_t count = 0;
    if (layouts) {
      auto it = found.find(ea.id);
      if (it == found.end())
        it = found.emplace(ea.id, chars.charAbbrev(ea.id)).first;
      count = chars.readChars(it->second, ea.id, a, buffer.data(), kRoom);
    } else {
      count = chars.readChars(ea.id, a, buffer.data(), kRoom);
    }
    ASSERT_NE(count, BitstreamReader::kReadFailed) << what;
    ASSERT_TRUE(general.read(eb.id, b)) << what;
    ASSERT_EQ(a.code, b.code) << what;
    EXPECT_EQ(a.bitOffset, b.bitOffset) << what;
    EXPECT_EQ(chars.bitPosition(), general.bitPosition()) << what;
    std::vector<uint64_t> ops(a.ops.begin(), a.ops.end());
    if (a.code == 1 || a.code == 2) {
      ++charRecords;
      if (expectBytes) {
        EXPECT_NE(count, BitstreamReader::kNotChars) << what << ", record " << charRecords;
      }
      if (count != BitstreamReader::kNotChars) {
        for (size_t i = 0; i < count; ++i)
          ops.push_back(uint8_t(buffer[i]));
      }
    } else {
      EXPECT_EQ(count, BitstreamReader::kNotChars) << what;
    }
    EXPECT_EQ(ops, std::vector<uint64_t>(b.ops.begin(), b.ops.end()))
        << what << ", record " << charRecords;
  }
  EXPECT_GT(charRecords, 0u) << what;
}

TEST(DxilBitstreamChars, EveryEncodingLengthAndAlignmentAsRead) {
  const std::vector<size_t> lengths = {0,  1,  2,  6,  7,  8,  9,  10, 15, 16,  17,
                                       18, 23, 24, 25, 31, 33, 40, 57, 64, 100, 200};
  for (Element element :
       {Element{1, 8}, Element{1, 7}, Element{4, 6}, Element{1, 5}, Element{1, 1}})
    for (int form = 0; form < 4; ++form)
      for (unsigned pad = 0; pad <= 8; ++pad) {
        const bool fixedCode = form & 1, scalar = form & 2;
        const std::string what = "encoding " + std::to_string(element.encoding) + " width " +
                                 std::to_string(element.width) + " form " + std::to_string(form) +
                                 " pad " + std::to_string(pad);
        // Far from the data's end: every character record as bytes.
        for (bool layouts : {false, true})
          compare(stream(element, fixedCode, scalar, pad, lengths, 40), true, what, layouts);
        // The last records near the end: as read() reads them, either way.
        for (bool layouts : {false, true})
          compare(stream(element, fixedCode, scalar, pad, lengths, 0), false, what + " near end",
                  layouts);
      }
}

TEST(DxilBitstreamChars, LongerThanTheRoomAsRead) {
  for (Element element : {Element{1, 8}, Element{4, 6}}) {
    const std::vector<uint8_t> bytes =
        stream(element, false, true, 3, {kRoom, kRoom + 1, 1000, 5}, 40);
    compare(bytes, false, "long", false);
    compare(bytes, false, "long", true);
    // The first fits, the next two do not (read as operands), the last fits.
    BitstreamReader r(bytes);
    Expected<BitstreamEntry> e = r.advance();
    ASSERT_TRUE(e);
    ASSERT_TRUE(r.enterBlock(e->id));
    BitstreamRecord rec;
    std::vector<char> buffer(kRoom + 8);
    std::vector<size_t> counts;
    BitstreamEntry entry;
    while (r.next(entry) && entry.kind == BitstreamEntry::Kind::Record) {
      const size_t count = r.readChars(entry.id, rec, buffer.data(), kRoom);
      ASSERT_NE(count, BitstreamReader::kReadFailed);
      if (rec.code == 1)
        counts.push_back(count);
    }
    EXPECT_EQ(counts, (std::vector<size_t>{kRoom, BitstreamReader::kNotChars,
                                           BitstreamReader::kNotChars, 5}));
  }
}

TEST(DxilBitstreamChars, BadRecordsFailAsRead) {
  // An array longer than the data, an array past its block's end, and a code out of range.
  std::vector<std::vector<uint8_t>> cases;
  {
    BitWriter w;
    w.enterBlock(8, 3);
    w.defineAbbrev({{-1, 1}, {3, 0}, {1, 8}});
    w.fixed(4, 3);
    w.vbr(300, 6);
    for (int i = 0; i < 20; ++i)
      w.fixed('x', 8);
    w.endBlock(); // (the data ends inside the array)
    w.align32();
    cases.push_back(w.bytes());
  }
  {
    BitWriter w;
    w.enterBlock(8, 3);
    w.defineAbbrev({{-1, 1}, {3, 0}, {1, 8}});
    w.fixed(4, 3);
    w.vbr(40, 6);
    for (int i = 0; i < 10; ++i)
      w.fixed('y', 8);
    w.endBlock(); // (the array runs past the block's declared end)
    for (int i = 0; i < 64; ++i)
      w.fixed('z', 8);
    w.align32();
    cases.push_back(w.bytes());
  }
  {
    BitWriter w;
    w.enterBlock(8, 3);
    w.defineAbbrev({{2, 6}, {3, 0}, {4, 0}});
    w.fixed(4, 3);
    w.vbr(uint64_t(1) << 33, 6);
    w.vbr(2, 6);
    w.fixed(1, 6);
    w.fixed(2, 6);
    for (int i = 0; i < 40; ++i)
      w.fixed(0, 8);
    w.endBlock();
    w.align32();
    cases.push_back(w.bytes());
  }
  for (size_t k = 0; k < cases.size(); ++k) {
    BitstreamReader chars(cases[k]), layout(cases[k]), general(cases[k]);
    std::string messages[3];
    int i = 0;
    for (BitstreamReader *r : {&chars, &layout, &general}) {
      Expected<BitstreamEntry> e = r->advance();
      ASSERT_TRUE(e) << k;
      ASSERT_TRUE(r->enterBlock(e->id)) << k;
      BitstreamEntry entry;
      ASSERT_TRUE(r->next(entry)) << k;
      ASSERT_EQ(entry.kind, BitstreamEntry::Kind::Record) << k;
      BitstreamRecord rec;
      std::vector<char> buffer(kRoom + 8);
      const bool ok =
          r == &chars
              ? r->readChars(entry.id, rec, buffer.data(), kRoom) != BitstreamReader::kReadFailed
          : r == &layout ? r->readChars(r->charAbbrev(entry.id), entry.id, rec, buffer.data(),
                                        kRoom) != BitstreamReader::kReadFailed
                         : r->read(entry.id, rec);
      EXPECT_FALSE(ok) << k;
      messages[i++] = r->takeError().message;
    }
    EXPECT_FALSE(messages[0].empty()) << k;
    EXPECT_EQ(messages[0], messages[2]) << k;
    EXPECT_EQ(messages[1], messages[2]) << k;
  }
}

} // namespace
} // namespace spire::dxil
