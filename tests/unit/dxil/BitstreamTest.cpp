// The LLVM bitstream cursor on hand-built bit patterns: fields, VBR boundaries, char6, blobs,
// arrays, local and BLOCKINFO abbreviations, blocks, and every malformed-stream error.
#include "BitWriter.h"

#include "spire/dxil/Bitstream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory_resource>
#include <string>
#include <thread>

namespace spire::dxil {
namespace {

using test::BitWriter;

std::string errorOf(const Status &s) { return s ? std::string() : s.error().message; }

TEST(DxilBitstream, TrivialVectorGrowsAppendsAndResizes) {
  std::pmr::unsynchronized_pool_resource pool;
  TrivialVector<uint32_t> v(&pool);
  EXPECT_TRUE(v.empty());
  for (uint32_t i = 0; i < 40; ++i) // past the first capacity (16) twice
    v.push_back(i);
  ASSERT_EQ(v.size(), 40u);
  for (uint32_t i = 0; i < 40; ++i)
    ASSERT_EQ(v[i], i);
  std::vector<uint32_t> more(100);
  for (uint32_t i = 0; i < 100; ++i)
    more[i] = 1000 + i;
  v.append(more.data(), more.size()); // more than doubling gives
  ASSERT_EQ(v.size(), 140u);
  EXPECT_EQ(v[39], 39u);
  EXPECT_EQ(v[40], 1000u);
  EXPECT_EQ(v.back(), 1099u);
  uint32_t *w = v.appendForOverwrite(3);
  w[0] = 7, w[1] = 8, w[2] = 9;
  ASSERT_EQ(v.size(), 143u);
  EXPECT_EQ(v[140], 7u);
  EXPECT_EQ(v.back(), 9u);
  v.resize(2);
  EXPECT_EQ(v.size(), 2u);
  v.resize(5); // value-initialized past the old size
  EXPECT_EQ((std::vector<uint32_t>(v.begin(), v.end())), (std::vector<uint32_t>{0, 1, 0, 0, 0}));
  v.pop_back();
  EXPECT_EQ(v.size(), 4u);
  v.assign(more.data() + 10, 2);
  EXPECT_EQ((std::vector<uint32_t>(v.begin(), v.end())), (std::vector<uint32_t>{1010, 1011}));
  v.clear();
  EXPECT_TRUE(v.empty());
  v.append(nullptr, 0);
  EXPECT_TRUE(v.empty());
}

TEST(DxilBitstream, TrivialVectorStartsInItsOwnersRoom) {
  // A resource that counts what it hands out and takes back, and refuses pointers it never gave.
  struct Counting : std::pmr::memory_resource {
    std::vector<void *> live;
    int allocations = 0;
    void *do_allocate(size_t bytes, size_t align) override {
      ++allocations;
      live.push_back(std::pmr::new_delete_resource()->allocate(bytes, align));
      return live.back();
    }
    void do_deallocate(void *p, size_t bytes, size_t align) override {
      auto it = std::find(live.begin(), live.end(), p);
      ASSERT_NE(it, live.end()) << "a pointer the resource never gave";
      live.erase(it);
      std::pmr::new_delete_resource()->deallocate(p, bytes, align);
    }
    bool do_is_equal(const std::pmr::memory_resource &o) const noexcept override {
      return this == &o;
    }
  } counting;
  alignas(uint64_t) unsigned char room[4 * sizeof(uint64_t)];
  {
    TrivialVector<uint64_t> v(&counting);
    v.startIn(room, 4);
    for (uint64_t i = 0; i < 4; ++i)
      v.push_back(i);
    EXPECT_EQ(counting.allocations, 0);
    EXPECT_EQ(static_cast<void *>(v.data()), static_cast<void *>(room));
    v.push_back(4); // past the room: into the resource, the room left as it is
    EXPECT_EQ(counting.allocations, 1);
    EXPECT_NE(static_cast<void *>(v.data()), static_cast<void *>(room));
    for (uint64_t i = 0; i < 5; ++i)
      EXPECT_EQ(v[i], i);
    v.append(v.data(), 0);
    for (uint64_t i = 5; i < 40; ++i) // and again, doubling: 8, 16, 32, 64
      v.push_back(i);
    EXPECT_EQ(counting.allocations, 4);
    for (uint64_t i = 0; i < 40; ++i)
      EXPECT_EQ(v[i], i);
    EXPECT_EQ(counting.live.size(), 1u);
  }
  EXPECT_TRUE(counting.live.empty());
  {
    TrivialVector<uint64_t> v(&counting); // never grown past its room: nothing to give back
    v.startIn(room, 4);
    v.push_back(1);
  }
  EXPECT_EQ(counting.allocations, 4);
}

TEST(DxilBitstream, FixedFieldsAcrossBytesAndWords) {
  BitWriter w;
  w.fixed(5, 3);
  w.fixed(0x1FF, 9);
  w.fixed(0x123456789ABCDEF0ull, 64);
  w.fixed(1, 1);
  w.align32();
  BitstreamReader r(w.bytes());
  EXPECT_EQ(r.readFixed(3), 5u);
  EXPECT_EQ(r.readFixed(9), 0x1FFu);
  EXPECT_EQ(r.readFixed(64), 0x123456789ABCDEF0ull);
  EXPECT_EQ(r.readFixed(1), 1u);
  EXPECT_FALSE(r.failed());
  r.alignTo32();
  EXPECT_TRUE(r.atEnd());
  EXPECT_EQ(r.readFixed(1), 0u);
  EXPECT_TRUE(r.failed()); // past the end: zero and a sticky failure
}

// Fixed fields of every width that fits, from every bit of the data's last 8 bytes (where no
// whole load is readable from the field's byte), in data of 8 to 12 bytes and of 3: each the
// bits the data holds there, and a field one bit too wide fails.
TEST(DxilBitstream, FixedFieldsInTheLastBytes) {
  for (size_t size : {3u, 8u, 9u, 11u, 12u}) {
    std::vector<uint8_t> bytes(size);
    for (size_t i = 0; i < size; ++i)
      bytes[i] = uint8_t(0x9D * (i + 1) ^ (i << 5));
    auto bit = [&](uint64_t at) { return uint64_t(bytes[at >> 3] >> (at & 7)) & 1; };
    const uint64_t end = size * 8;
    for (uint64_t pos = size >= 8 ? end - 64 : 0; pos < end; ++pos)
      for (unsigned width = 1; width <= 64 && width <= end - pos; ++width) {
        uint64_t want = 0;
        for (unsigned k = 0; k < width; ++k)
          want |= bit(pos + k) << k;
        BitstreamReader r(bytes);
        r.seek(pos);
        EXPECT_EQ(r.readFixed(width), want)
            << "size " << size << ", bit " << pos << ", width " << width;
        EXPECT_FALSE(r.failed());
        EXPECT_EQ(r.bitPosition(), pos + width);
        if (width == end - pos && width < 64) {
          BitstreamReader past(bytes);
          past.seek(pos);
          EXPECT_EQ(past.readFixed(width + 1), 0u);
          EXPECT_TRUE(past.failed());
        }
      }
  }
}

TEST(DxilBitstream, VbrBoundaries) {
  const uint64_t values[] = {0,           1, 31, 32, 33, 1023, 1024, 0xFFFFFFFFull, 0x100000000ull,
                             ~uint64_t(0)};
  BitWriter w;
  for (uint64_t v : values)
    w.vbr(v, 6);
  for (uint64_t v : values)
    w.vbr(v, 4);
  w.align32();
  BitstreamReader r(w.bytes());
  for (uint64_t v : values)
    EXPECT_EQ(r.readVbr(6), v);
  for (uint64_t v : values)
    EXPECT_EQ(r.readVbr(4), v);
  EXPECT_FALSE(r.failed());
}

TEST(DxilBitstream, VbrLongerThan64BitsFails) {
  BitWriter w;
  for (int i = 0; i < 14; ++i) // 14 chunks of 5 bits: 70 bits of value
    w.fixed(0x3F, 6);
  w.fixed(1, 6);
  w.align32();
  BitstreamReader r(w.bytes());
  r.readVbr(6);
  EXPECT_TRUE(r.failed());
}

TEST(DxilBitstream, LongVbrFieldsFromOneLoadAtEveryAlignment) {
  // Fields of three chunks or more, far from the end (their chunks from one load, the rest
  // chunk by chunk) and near it, at every bit alignment, then a field after them.
  const uint64_t values[] = {
      1u << 10,          0x12345,           0xFFFFFFFFull, 0x100000000ull,
      0x0123456789ABull, uint64_t(1) << 63, ~uint64_t(0),  0x8000000000000001ull};
  for (unsigned width : {3u, 4u, 5u, 6u, 8u, 11u, 16u, 32u})
    for (unsigned pad = 0; pad < 8; ++pad)
      for (unsigned tail : {0u, 200u}) {
        BitWriter w;
        w.fixed(0, pad);
        for (uint64_t v : values) {
          w.vbr(v, width);
          w.fixed(0x5A, 8);
        }
        for (unsigned k = 0; k < tail; ++k)
          w.fixed(0, 1);
        w.align32();
        BitstreamReader r(w.bytes());
        r.readFixed(pad);
        for (uint64_t v : values) {
          EXPECT_EQ(r.readVbr(width), v) << "width " << width << ", pad " << pad << ", " << tail;
          EXPECT_EQ(r.readFixed(8), 0x5Au) << "width " << width << ", pad " << pad;
        }
        EXPECT_FALSE(r.failed());
      }
  // Fields of zero chunks with their continuation bit, then a last chunk, far from the end:
  // more than 64 bits of value (a bit at 64 or past it, or a chunk starting past bit 63, in the
  // bits of one load or after them) fails; 64 bits or fewer do not.
  struct Case {
    unsigned width, zeros;
    uint64_t last;
    bool fails;
  };
  for (Case c : {Case{6, 12, 0x10, true}, Case{6, 13, 0, true}, Case{6, 12, 0x8, false},
                 Case{16, 4, 0x10, true}, Case{16, 4, 0x8, false}, Case{32, 2, 4, true},
                 Case{32, 2, 3, false}, Case{14, 5, 0, true}, Case{14, 4, 0xFFF, false},
                 Case{14, 4, 0x1000, true}})
    for (unsigned pad = 0; pad < 8; ++pad) {
      BitWriter w;
      w.fixed(0, pad);
      for (unsigned i = 0; i < c.zeros; ++i)
        w.fixed(uint64_t(1) << (c.width - 1), c.width);
      w.fixed(c.last, c.width);
      w.fixed(0x5A, 8);
      for (int k = 0; k < 4; ++k)
        w.fixed(0, 32);
      w.align32();
      BitstreamReader r(w.bytes());
      r.readFixed(pad);
      const uint64_t v = r.readVbr(c.width);
      EXPECT_EQ(r.failed(), c.fails) << "width " << c.width << ", pad " << pad;
      if (!c.fails) {
        EXPECT_EQ(v, c.last << (c.zeros * (c.width - 1))) << "width " << c.width;
        EXPECT_EQ(r.readFixed(8), 0x5Au) << "width " << c.width << ", pad " << pad;
      }
    }
}

/// A block 8 (width 3) holding whatever `body` writes, as a whole stream.
template <class F> std::vector<uint8_t> inBlock(F body, unsigned width = 3) {
  BitWriter w;
  w.enterBlock(8, width);
  body(w);
  w.endBlock();
  w.align32();
  return w.bytes();
}

void defineAbbrev(BitWriter &w, std::initializer_list<std::pair<int, uint64_t>> ops) {
  w.defineAbbrev(ops);
}

struct Reading {
  BitstreamReader reader;
  BitstreamRecord rec;
  /// The operands of the record read last (the record keeps them in an allocator-aware vector).
  std::vector<uint64_t> ops() const { return {rec.ops.begin(), rec.ops.end()}; }
  explicit Reading(const std::vector<uint8_t> &bytes) : reader(bytes) {}
  /// Enters the first block and reads its first record.
  Status firstRecord() {
    Expected<BitstreamEntry> e = reader.advance();
    if (!e)
      return e.error();
    EXPECT_EQ(e->kind, BitstreamEntry::Kind::SubBlock);
    if (Status s = reader.enterBlock(e->id); !s)
      return s;
    return nextRecord();
  }
  Status nextRecord() {
    Expected<BitstreamEntry> e = reader.advance();
    if (!e)
      return e.error();
    if (e->kind != BitstreamEntry::Kind::Record)
      return makeError({}, "not a record");
    return reader.readRecord(e->id, rec);
  }
  /// Reads the next record and says whether it is `code` with `operands`.
  ::testing::AssertionResult nextIs(uint32_t code, const std::vector<uint64_t> &operands) {
    if (Status s = nextRecord(); !s)
      return ::testing::AssertionFailure() << s.error().message;
    if (rec.code != code || ops() != operands) {
      std::string got;
      for (uint64_t v : ops())
        got += " " + std::to_string(v);
      return ::testing::AssertionFailure()
             << "record " << rec.code << " with " << ops().size() << " operands:" << got;
    }
    return ::testing::AssertionSuccess();
  }
};

TEST(DxilBitstream, UnabbreviatedRecordAndBlockEnd) {
  std::vector<uint8_t> bytes = inBlock([](BitWriter &w) { w.record(7, {1, 2, 300}); });
  Reading r(bytes);
  ASSERT_TRUE(r.firstRecord());
  EXPECT_EQ(r.rec.code, 7u);
  EXPECT_EQ(r.ops(), (std::vector<uint64_t>{1, 2, 300}));
  Expected<BitstreamEntry> end = r.reader.advance();
  ASSERT_TRUE(end);
  EXPECT_EQ(end->kind, BitstreamEntry::Kind::EndBlock);
  Expected<BitstreamEntry> eos = r.reader.advance();
  ASSERT_TRUE(eos);
  EXPECT_EQ(eos->kind, BitstreamEntry::Kind::EndOfStream);
}

TEST(DxilBitstream, AbbreviatedRecordWithLiteralFixedVbrArrayAndChar6) {
  std::vector<uint8_t> bytes = inBlock([](BitWriter &w) {
    defineAbbrev(w, {{-1, 9}, {1, 4}, {2, 6}, {3, 0}, {4, 0}});
    w.fixed(4, 3); // the first application abbreviation
    w.fixed(11, 4);
    w.vbr(1000, 6);
    w.vbr(3, 6); // three char6 elements: 'a', 'Z', '_'
    w.fixed(0, 6);
    w.fixed(51, 6);
    w.fixed(63, 6);
  });
  Reading r(bytes);
  ASSERT_TRUE(r.firstRecord());
  EXPECT_EQ(r.rec.code, 9u);
  EXPECT_EQ(r.ops(), (std::vector<uint64_t>{11, 1000, 'a', 'Z', '_'}));
}

TEST(DxilBitstream, UnabbreviatedRunsOfEveryFieldLength) {
  // Fields of one to eleven VBR6 chunks (a 64-bit value needs thirteen), in runs long enough to
  // go through the decoder's whole-load path and short enough to end near the data's end, at
  // every bit alignment the block's prefix gives.
  std::vector<uint64_t> ops;
  for (uint64_t v : {uint64_t(0), uint64_t(31), uint64_t(32), uint64_t(1023), uint64_t(1024),
                     uint64_t(1) << 20, uint64_t(1) << 25, uint64_t(1) << 40,
                     uint64_t(0xFFFFFFFFFFFFFFFF), uint64_t(7), uint64_t(0x123456789ABCDEF0)})
    for (int repeat = 0; repeat < 3; ++repeat)
      ops.push_back(v + uint64_t(repeat));
  for (unsigned pad = 0; pad < 8; ++pad) {
    for (size_t count = 0; count <= ops.size(); count += 5) {
      std::vector<uint64_t> these(ops.begin(), ops.begin() + count);
      std::vector<uint8_t> bytes = inBlock([&](BitWriter &w) {
        for (unsigned k = 0; k < pad; ++k)
          w.record(1, {}); // shifts the record by 3 + 6 + 6 bits each
        w.record(5, these);
      });
      Reading r(bytes);
      ASSERT_TRUE(r.firstRecord());
      for (unsigned k = 0; k < pad; ++k)
        ASSERT_TRUE(r.nextRecord());
      EXPECT_EQ(r.rec.code, 5u);
      EXPECT_EQ(r.ops(), these) << "pad " << pad << ", " << count << " fields";
    }
  }
}

TEST(DxilBitstream, UnabbreviatedRecordsInStorageTheyFitEndingNearTheEnd) {
  // Records read into operands that hold them already (the one-load path: no growth), the
  // second's last fields in the data's last 64 bits (decoded apart), at every bit alignment.
  std::vector<uint64_t> first, second;
  for (uint64_t k = 0; k < 40; ++k) {
    first.push_back(k * 37 % 2000);
    second.push_back(k % 3 == 0 ? k * 1001 : k);
  }
  for (unsigned pad = 0; pad < 8; ++pad) {
    std::vector<uint8_t> bytes = inBlock([&](BitWriter &w) {
      w.record(5, first);
      for (unsigned k = 0; k < pad; ++k)
        w.record(1, {}); // shifts the next record by 3 + 6 + 6 bits each
      w.record(6, second);
    });
    Reading r(bytes);
    ASSERT_TRUE(r.firstRecord());
    EXPECT_EQ(r.ops(), first);
    for (unsigned k = 0; k < pad; ++k)
      ASSERT_TRUE(r.nextRecord());
    ASSERT_TRUE(r.nextRecord());
    EXPECT_EQ(r.rec.code, 6u);
    EXPECT_EQ(r.ops(), second) << "pad " << pad;
    Expected<BitstreamEntry> end = r.reader.advance();
    ASSERT_TRUE(end);
    EXPECT_EQ(end->kind, BitstreamEntry::Kind::EndBlock);
  }
}

TEST(DxilBitstream, UnabbreviatedCodesAndCountsOfOneTwoAndThreeChunks) {
  // The code and the count of an unabbreviated record: one chunk, two (codes from 32, as the
  // call record's), and three (a count of 1100, a code of 2000) at every alignment.
  const std::pair<uint32_t, size_t> shapes[] = {{5, 3}, {34, 3}, {34, 40}, {5, 1100}, {2000, 2}};
  for (unsigned pad = 0; pad < 8; ++pad)
    for (const auto &shape : shapes) {
      // (Named copies: clang 14 does not capture structured bindings in a lambda.)
      const uint32_t code = shape.first;
      const size_t count = shape.second;
      std::vector<uint64_t> ops(count);
      for (size_t i = 0; i < count; ++i)
        ops[i] = i * 7 % 100;
      std::vector<uint8_t> bytes = inBlock([&](BitWriter &w) {
        for (unsigned k = 0; k < pad; ++k)
          w.record(1, {});
        w.record(code, ops);
      });
      Reading r(bytes);
      ASSERT_TRUE(r.firstRecord());
      for (unsigned k = 0; k < pad; ++k)
        ASSERT_TRUE(r.nextRecord());
      EXPECT_EQ(r.rec.code, code) << "pad " << pad;
      EXPECT_EQ(r.ops(), ops) << "pad " << pad << ", code " << code << ", count " << count;
    }
}

TEST(DxilBitstream, VbrCharacterRunsAtEveryAlignment) {
  // Unabbreviated records spell names in VBR-6 characters: runs of two-chunk fields (read four
  // at a time) broken by one-chunk and three-chunk fields, and runs of every length up to a few
  // past four, at every bit alignment.
  std::vector<std::vector<uint64_t>> records;
  std::string name = "dx.op.createHandleForLib.dx.types.Handle";
  for (size_t n = 0; n <= 9; ++n)
    records.push_back(std::vector<uint64_t>(name.begin(), name.begin() + n));
  records.push_back({'a', 'b', 'c', 5, 'd', 'e', 'f', 'g', 'h', 2000, 'i', 'j', 'k', 'l', 1});
  records.push_back({'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm'});
  records.push_back(std::vector<uint64_t>(name.begin(), name.end()));
  for (unsigned pad = 0; pad < 8; ++pad) {
    std::vector<uint8_t> bytes = inBlock([&](BitWriter &w) {
      for (unsigned k = 0; k < pad; ++k)
        w.record(1, {});
      for (const std::vector<uint64_t> &ops : records)
        w.record(6, ops);
    });
    Reading r(bytes);
    ASSERT_TRUE(r.firstRecord());
    for (unsigned k = 0; k < pad; ++k)
      ASSERT_TRUE(r.nextRecord());
    for (size_t i = 0; i < records.size(); ++i) {
      if (i) {
        ASSERT_TRUE(r.nextRecord());
      }
      EXPECT_EQ(r.rec.code, 6u);
      EXPECT_EQ(r.ops(), records[i]) << "pad " << pad << ", record " << i;
    }
  }
}

TEST(DxilBitstream, FixedArraysOfEveryLengthAndAlignment) {
  // Arrays of fixed elements (type ids, characters of 6, 7 and 8 bits, wider values): whole
  // loads of elements, a last load of fewer, and the last bytes of the stream.
  for (unsigned width : {5u, 6u, 7u, 8u, 13u, 32u})
    for (unsigned pad = 0; pad < 4; ++pad)
      for (size_t count : {size_t(0), size_t(1), size_t(6), size_t(7), size_t(8), size_t(9),
                           size_t(15), size_t(23)}) {
        std::vector<uint64_t> values(count);
        for (size_t i = 0; i < count; ++i)
          values[i] = (i * 0x9E3779B97F4A7C15ull >> 20) & ((uint64_t(1) << width) - 1);
        std::vector<uint8_t> bytes = inBlock([&](BitWriter &w) {
          defineAbbrev(w, {{-1, 9}, {3, 0}, {1, width}});
          for (unsigned k = 0; k < pad; ++k)
            w.record(1, {});
          w.fixed(4, 3);
          w.vbr(count, 6);
          for (uint64_t v : values)
            w.fixed(v, width);
        });
        Reading r(bytes);
        ASSERT_TRUE(r.firstRecord());
        for (unsigned k = 0; k < pad; ++k)
          ASSERT_TRUE(r.nextRecord());
        EXPECT_EQ(r.rec.code, 9u);
        EXPECT_EQ(r.ops(), values) << "width " << width << ", pad " << pad << ", " << count;
      }
}

TEST(DxilBitstream, LongByteArraysAtEveryAlignmentFarFromTheEnd) {
  // Arrays of 8-bit fields (names) eight at a time from two loads: every bit alignment, counts
  // around multiples of 8, with room after them so that the wide path is taken.
  for (unsigned pad = 0; pad < 8; ++pad) // (a pad record is 15 bits: every alignment)
    for (size_t count = 0; count <= 41; ++count) {
      std::vector<uint64_t> values(count);
      for (size_t i = 0; i < count; ++i)
        values[i] = (i * 0x9E3779B97F4A7C15ull >> 29) & 0xFF;
      std::vector<uint8_t> bytes = inBlock([&](BitWriter &w) {
        defineAbbrev(w, {{-1, 9}, {3, 0}, {1, 8}});
        for (unsigned k = 0; k < pad; ++k)
          w.record(1, {});
        w.fixed(4, 3);
        w.vbr(count, 6);
        for (uint64_t v : values)
          w.fixed(v, 8);
        w.record(2, std::vector<uint64_t>(40, 7)); // room after the array
      });
      Reading r(bytes);
      ASSERT_TRUE(r.firstRecord());
      for (unsigned k = 0; k < pad; ++k)
        ASSERT_TRUE(r.nextRecord());
      EXPECT_EQ(r.rec.code, 9u);
      EXPECT_EQ(r.ops(), values) << "pad " << pad << ", " << count;
      ASSERT_TRUE(r.nextRecord());
      EXPECT_EQ(r.rec.code, 2u);
      EXPECT_EQ(r.ops(), std::vector<uint64_t>(40, 7)) << "pad " << pad << ", " << count;
    }
}

TEST(DxilBitstream, NestedBlocksFarFromTheEnd) {
  // Block entries and ends read from one load (nextSlow's quick part): block ids of one and two
  // VBR-8 chunks, several widths, records around nested blocks, and room after them all.
  for (uint32_t id : {8u, 17u, 127u, 128u, 300u})
    for (unsigned width : {2u, 3u, 5u, 13u}) {
      BitWriter w;
      w.enterBlock(id, width);
      w.record(5, {1, 2});
      w.enterBlock(id + 1, width + 1);
      w.record(6, {3});
      w.endBlock();
      w.record(7, {4});
      w.endBlock();
      w.enterBlock(9, 3);
      w.record(8, std::vector<uint64_t>(40, 9)); // room after the blocks above
      w.endBlock();
      w.align32();
      BitstreamReader r(w.bytes());
      BitstreamRecord rec;
      auto entry = [&](BitstreamEntry::Kind kind, uint32_t value) -> ::testing::AssertionResult {
        Expected<BitstreamEntry> e = r.advance();
        if (!e)
          return ::testing::AssertionFailure() << e.error().message;
        if (e->kind != kind || e->id != value)
          return ::testing::AssertionFailure() << "entry " << int(e->kind) << " " << e->id;
        if (kind == BitstreamEntry::Kind::SubBlock)
          if (Status s = r.enterBlock(value); !s)
            return ::testing::AssertionFailure() << errorOf(s);
        if (kind == BitstreamEntry::Kind::Record) {
          if (Status s = r.readRecord(value, rec); !s)
            return ::testing::AssertionFailure() << errorOf(s);
          if (rec.code == 0)
            return ::testing::AssertionFailure() << "no code";
        }
        return ::testing::AssertionSuccess();
      };
      using K = BitstreamEntry::Kind;
      SCOPED_TRACE(::testing::Message() << "id " << id << ", width " << width);
      EXPECT_TRUE(entry(K::SubBlock, id));
      EXPECT_TRUE(entry(K::Record, 3));
      EXPECT_EQ(rec.code, 5u);
      EXPECT_TRUE(entry(K::SubBlock, id + 1));
      EXPECT_TRUE(entry(K::Record, 3));
      EXPECT_EQ(rec.code, 6u);
      EXPECT_TRUE(entry(K::EndBlock, 0));
      EXPECT_TRUE(entry(K::Record, 3));
      EXPECT_EQ(rec.code, 7u);
      EXPECT_TRUE(entry(K::EndBlock, 0));
      EXPECT_TRUE(entry(K::SubBlock, 9));
      EXPECT_TRUE(entry(K::Record, 3));
      EXPECT_EQ(rec.code, 8u);
      EXPECT_TRUE(entry(K::EndBlock, 0));
      EXPECT_TRUE(entry(K::EndOfStream, 0));
    }
}

TEST(DxilBitstream, TopLevelEndsInPaddingOfAnyBits) {
  // Fewer than 32 bits after the last block end the stream, zero or not (as they always
  // have), and the entries around it come from next()'s value path.
  for (uint64_t padding : {uint64_t(0), uint64_t(0xABCD)}) {
    BitWriter w;
    w.enterBlock(8, 3);
    w.record(1, {1});
    w.endBlock();
    w.align32();
    w.fixed(padding, 16);
    BitstreamReader r(w.bytes());
    BitstreamRecord rec;
    BitstreamEntry e;
    ASSERT_TRUE(r.next(e));
    ASSERT_EQ(e.kind, BitstreamEntry::Kind::SubBlock);
    ASSERT_TRUE(r.enter(e.id));
    ASSERT_TRUE(r.next(e));
    ASSERT_EQ(e.kind, BitstreamEntry::Kind::Record);
    ASSERT_TRUE(r.read(e.id, rec));
    ASSERT_TRUE(r.next(e));
    ASSERT_EQ(e.kind, BitstreamEntry::Kind::EndBlock);
    e = BitstreamEntry{BitstreamEntry::Kind::Record, 7};
    ASSERT_TRUE(r.next(e)) << padding;
    EXPECT_EQ(e.kind, BitstreamEntry::Kind::EndOfStream) << padding;
    EXPECT_EQ(e.id, 0u);
  }
}

/// The error enterBlock gives a block header of abbreviation width `width` and a length of
/// `words` words, `after` written after it ("" when it enters).
std::string headerError(uint64_t width, uint32_t words,
                        const std::function<void(BitWriter &)> &after) {
  BitWriter w;
  w.fixed(1, 2);
  w.vbr(8, 8);
  w.vbr(width, 4);
  w.align32();
  w.fixed(words, 32);
  after(w);
  w.align32();
  BitstreamReader r(w.bytes());
  Expected<BitstreamEntry> e = r.advance();
  if (!e)
    return "no entry before the header";
  return errorOf(r.enterBlock(e->id));
}

/// The error of entering five nested blocks with a depth limit of 4, `after` written after
/// them ("" when all five enter).
std::string nestingError(const std::function<void(BitWriter &)> &after) {
  BitWriter w;
  for (int i = 0; i < 5; ++i)
    w.enterBlock(8, 3);
  for (int i = 0; i < 5; ++i)
    w.endBlock();
  after(w);
  w.align32();
  BitstreamReader r(w.bytes(), 4);
  Status last;
  for (int i = 0; i < 5 && last; ++i) {
    Expected<BitstreamEntry> e = r.advance();
    if (!e)
      return "no entry before block " + std::to_string(i);
    last = r.enterBlock(e->id);
  }
  return errorOf(last);
}

TEST(DxilBitstream, BlockHeadersFarFromTheEnd) {
  // Block headers with room after them (enter()'s one-load path and what it hands on): nesting
  // past the scopes' first room, widths of two VBR-4 chunks, and the header errors.
  auto room = [](BitWriter &w) {
    w.enterBlock(9, 3);
    w.record(8, std::vector<uint64_t>(40, 9));
    w.endBlock();
  };
  { // twelve deep (the scopes' first room holds 8), widths 3 and 9 (two chunks)
    BitWriter w;
    for (unsigned i = 0; i < 12; ++i) {
      w.enterBlock(8 + i, i % 2 ? 9 : 3);
      w.record(i + 1, {i});
    }
    for (unsigned i = 0; i < 12; ++i)
      w.endBlock();
    room(w);
    w.align32();
    Reading r(w.bytes());
    for (unsigned i = 0; i < 12; ++i) {
      Expected<BitstreamEntry> e = r.reader.advance();
      ASSERT_TRUE(e);
      ASSERT_EQ(e->kind, BitstreamEntry::Kind::SubBlock);
      ASSERT_EQ(e->id, 8 + i);
      ASSERT_TRUE(r.reader.enterBlock(e->id)) << i;
      EXPECT_EQ(r.reader.depth(), i + 1);
      EXPECT_EQ(r.reader.blockId(), 8 + i);
      ASSERT_TRUE(r.nextIs(i + 1, {i})) << i;
    }
    for (unsigned i = 0; i < 12; ++i) {
      Expected<BitstreamEntry> e = r.reader.advance();
      ASSERT_TRUE(e);
      ASSERT_EQ(e->kind, BitstreamEntry::Kind::EndBlock) << i;
    }
  }
  { // nesting deeper than the limit
    const std::string error = nestingError(room);
    EXPECT_FALSE(error.empty());
    EXPECT_NE(error.find("nested more than 4 deep"), std::string::npos);
  }
  { // width 0, and a length past the end
    auto after = [&](BitWriter &w) {
      w.fixed(0, 32);
      room(w);
    };
    EXPECT_NE(headerError(0, 1, after).find("width 0 out of range"), std::string::npos);
    EXPECT_NE(headerError(3, 1000, after).find("block of 1000 words runs past"), std::string::npos);
  }
}

TEST(DxilBitstream, BlockInfoListLongerThanTheIdsFirstRoom) {
  // BLOCKINFO gives block 8 seventy abbreviations (the ids' first room holds 64): entering it
  // grows the ids, and the last is the one used.
  BitWriter w;
  w.enterBlock(0, 2);
  w.fixed(3, 2);
  w.vbr(kBlockInfoSetBid, 6);
  w.vbr(1, 6);
  w.vbr(8, 6);
  for (uint64_t k = 0; k < 70; ++k)
    w.defineAbbrev({{-1, 100 + k}, {1, 8}});
  w.endBlock();
  w.enterBlock(8, 7);
  w.fixed(4 + 69, 7);
  w.fixed(42, 8);
  w.fixed(4, 7);
  w.fixed(43, 8);
  w.record(1, std::vector<uint64_t>(40, 9));
  w.endBlock();
  w.align32();
  Reading r(w.bytes());
  ASSERT_TRUE(r.firstRecord());
  EXPECT_EQ(r.rec.code, 169u);
  EXPECT_EQ(r.ops(), std::vector<uint64_t>{42});
  EXPECT_EQ(r.reader.abbrevCount(), 70u);
  ASSERT_TRUE(r.nextIs(100, {43}));
}

TEST(DxilBitstream, ShortFixedArraysFromOneLoadFarFromTheEnd) {
  // Fixed arrays of up to 57 bits, read from one load inside readAbbreviated (not readFixedRun)
  // when a whole load is readable: each length and width at every bit alignment, with records
  // after them (read from where the array ends) and enough data after that for whole loads.
  for (unsigned width : {1u, 3u, 6u, 7u, 8u, 11u, 19u, 29u, 32u})
    for (unsigned pad = 0; pad < 8; ++pad)
      for (size_t count = 0; count * width <= 57 + width; ++count) {
        std::vector<uint64_t> values(count);
        for (size_t i = 0; i < count; ++i)
          values[i] = ((i + 1) * 0x9E3779B97F4A7C15ull >> 17) & ((uint64_t(1) << width) - 1);
        std::vector<uint8_t> bytes = inBlock([&](BitWriter &w) {
          defineAbbrev(w, {{-1, 5}, {3, 0}, {1, width}});
          defineAbbrev(w, {{-1, 6}, {1, pad + 1}});
          w.fixed(5, 3); // a record of one field of pad + 1 bits: the array starts unaligned
          w.fixed((uint64_t(1) << pad) | 1, pad + 1);
          w.fixed(4, 3);
          w.vbr(count, 6);
          for (uint64_t v : values)
            w.fixed(v, width);
          w.record(7, {count, 3});
          for (unsigned k = 0; k < 12; ++k)
            w.record(8, {k});
        });
        Reading r(bytes);
        ASSERT_TRUE(r.firstRecord());
        EXPECT_EQ(r.rec.code, 6u);
        EXPECT_EQ(r.ops(), (std::vector<uint64_t>{(uint64_t(1) << pad) | 1}));
        ASSERT_TRUE(r.nextRecord());
        EXPECT_EQ(r.rec.code, 5u);
        EXPECT_EQ(r.ops(), values) << "width " << width << ", pad " << pad << ", " << count;
        EXPECT_TRUE(r.nextIs(7, {count, 3})) << "width " << width << ", pad " << pad;
        for (unsigned k = 0; k < 12; ++k)
          EXPECT_TRUE(r.nextIs(8, {k}));
      }
}

TEST(DxilBitstream, Char6ArraysOfEveryLengthAndAlignment) {
  const std::string alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._";
  for (unsigned pad = 0; pad < 4; ++pad)
    for (size_t count :
         {size_t(0), size_t(1), size_t(8), size_t(9), size_t(10), size_t(17), size_t(64)}) {
      std::vector<uint64_t> values(count);
      for (size_t i = 0; i < count; ++i)
        values[i] = uint8_t(alphabet[(i * 37 + pad) % 64]);
      std::vector<uint8_t> bytes = inBlock([&](BitWriter &w) {
        defineAbbrev(w, {{-1, 9}, {3, 0}, {4, 0}});
        for (unsigned k = 0; k < pad; ++k)
          w.record(1, {});
        w.fixed(4, 3);
        w.vbr(count, 6);
        for (uint64_t v : values)
          w.fixed(alphabet.find(char(v)), 6);
      });
      Reading r(bytes);
      ASSERT_TRUE(r.firstRecord());
      for (unsigned k = 0; k < pad; ++k)
        ASSERT_TRUE(r.nextRecord());
      EXPECT_EQ(r.rec.code, 9u);
      EXPECT_EQ(r.ops(), values) << "pad " << pad << ", " << count << " characters";
    }
}

TEST(DxilBitstream, WideVbrArrayElements) {
  // VBR32 elements: a second chunk does not fit the bits one load holds after the first.
  const std::vector<uint64_t> values = {0,
                                        1,
                                        0x7FFFFFFF,
                                        0x80000000,
                                        0xFFFFFFFF,
                                        5,
                                        uint64_t(1) << 40,
                                        3,
                                        ~uint64_t(0),
                                        0x12345678,
                                        uint64_t(1) << 62,
                                        9};
  for (unsigned width : {32u, 29u, 20u}) {
    std::vector<uint8_t> bytes = inBlock([&](BitWriter &w) {
      defineAbbrev(w, {{-1, 7}, {3, 0}, {2, width}});
      w.fixed(4, 3);
      w.vbr(values.size(), 6);
      for (uint64_t v : values)
        w.vbr(v, width);
      w.record(1, {}); // more data after the array, so that loads reach past it
      w.record(1, {});
    });
    Reading r(bytes);
    ASSERT_TRUE(r.firstRecord());
    EXPECT_EQ(r.rec.code, 7u);
    EXPECT_EQ(r.ops(), values) << "width " << width;
  }
}

TEST(DxilBitstream, AbbreviationStartingWithAnArrayTakesTheCodeFromIt) {
  std::vector<uint8_t> bytes = inBlock([](BitWriter &w) {
    defineAbbrev(w, {{3, 0}, {2, 6}}); // [vbr6 array]: the code, then the operands
    w.fixed(4, 3);
    w.vbr(4, 6);
    for (uint64_t v : {uint64_t(12), uint64_t(1), uint64_t(5000), uint64_t(2)})
      w.vbr(v, 6);
    defineAbbrev(w, {{-1, 3}, {1, 5}, {-1, 77}, {2, 4}}); // literal code, fixed, literal, vbr
    w.fixed(5, 3);
    w.fixed(17, 5);
    w.vbr(300, 4);
  });
  Reading r(bytes);
  ASSERT_TRUE(r.firstRecord());
  EXPECT_EQ(r.rec.code, 12u);
  EXPECT_EQ(r.ops(), (std::vector<uint64_t>{1, 5000, 2}));
  ASSERT_TRUE(r.nextRecord());
  EXPECT_EQ(r.rec.code, 3u);
  EXPECT_EQ(r.ops(), (std::vector<uint64_t>{17, 77, 300}));
}

TEST(DxilBitstream, BlobIsAlignedAndViewed) {
  std::vector<uint8_t> bytes = inBlock([](BitWriter &w) {
    defineAbbrev(w, {{-1, 1}, {5, 0}});
    w.fixed(4, 3);
    w.vbr(5, 6);
    w.align32();
    for (char c : std::string("hello"))
      w.fixed(uint8_t(c), 8);
    w.align32();
    w.record(2, {42});
  });
  Reading r(bytes);
  ASSERT_TRUE(r.firstRecord());
  ASSERT_EQ(r.rec.blob.size(), 5u);
  EXPECT_EQ(std::string(r.rec.blob.begin(), r.rec.blob.end()), "hello");
  ASSERT_TRUE(r.nextRecord());
  EXPECT_EQ(r.rec.code, 2u);
  EXPECT_EQ(r.ops(), (std::vector<uint64_t>{42}));
}

TEST(DxilBitstream, BlockInfoAbbreviationsApplyToTheirBlock) {
  BitWriter w;
  w.enterBlock(0, 2); // BLOCKINFO
  w.record(1, {8});   // SETBID 8
  defineAbbrev(w, {{-1, 5}, {1, 8}});
  w.endBlock();
  w.enterBlock(8, 3);
  w.fixed(4, 3); // the BLOCKINFO abbreviation is id 4 in block 8
  w.fixed(200, 8);
  w.endBlock();
  w.align32();
  Reading r(w.bytes());
  ASSERT_TRUE(r.firstRecord());
  EXPECT_EQ(r.rec.code, 5u);
  EXPECT_EQ(r.ops(), (std::vector<uint64_t>{200}));
}

// A BLOCKINFO block with more targets and abbreviations than the reader's first room holds
// (8 targets, 32 ids): its tables grow into the memory resource, read fresh and remembered.
TEST(DxilBitstream, BlockInfoWithMoreTargetsThanTheFirstRoom) {
  constexpr uint32_t kTargets = 10, kPerTarget = 4;
  BitWriter w;
  w.enterBlock(0, 2); // BLOCKINFO
  for (uint32_t t = 0; t < kTargets; ++t) {
    w.record(1, {8 + t}); // SETBID
    for (uint32_t k = 0; k < kPerTarget; ++k)
      defineAbbrev(w, {{-1, 100 + 10 * t + k}, {1, 3 + k}});
  }
  w.endBlock();
  for (uint32_t t = 0; t < kTargets; ++t) {
    w.enterBlock(8 + t, 3);
    for (uint32_t k = 0; k < kPerTarget; ++k) {
      w.fixed(4 + k, 3);
      w.fixed((t + k) & ((1u << (3 + k)) - 1), 3 + k);
    }
    w.endBlock();
  }
  w.align32();
  const std::vector<uint8_t> bytes = w.bytes();
  for (int round = 0; round < 3; ++round) {
    BitstreamReader r(bytes);
    BitstreamRecord rec;
    for (uint32_t t = 0; t < kTargets; ++t) {
      Expected<BitstreamEntry> e = r.advance();
      ASSERT_TRUE(e) << e.error().message;
      ASSERT_EQ(e->kind, BitstreamEntry::Kind::SubBlock);
      ASSERT_EQ(e->id, 8 + t);
      ASSERT_TRUE(r.enterBlock(e->id));
      for (uint32_t k = 0; k < kPerTarget; ++k) {
        e = r.advance();
        ASSERT_TRUE(e) << e.error().message;
        ASSERT_EQ(e->kind, BitstreamEntry::Kind::Record) << "target " << t << ", " << k;
        ASSERT_TRUE(r.readRecord(e->id, rec));
        EXPECT_EQ(rec.code, 100 + 10 * t + k) << "round " << round << ", target " << t;
        EXPECT_EQ(std::vector<uint64_t>(rec.ops.begin(), rec.ops.end()),
                  (std::vector<uint64_t>{(t + k) & ((1u << (3 + k)) - 1)}));
      }
      e = r.advance();
      ASSERT_TRUE(e);
      EXPECT_EQ(e->kind, BitstreamEntry::Kind::EndBlock);
    }
  }
}

// The reader remembers definitions and BLOCKINFO blocks from program to program (per thread):
// definitions that start alike but differ in a width, read one after the other, must each
// decode their own records.
TEST(DxilBitstream, DefinitionsThatStartAlikeKeepTheirOwnWidths) {
  for (int round = 0; round < 2; ++round)
    for (unsigned width = 1; width <= 12; ++width) {
      const uint64_t value = (uint64_t(1) << width) - 1;
      std::vector<uint8_t> bytes = inBlock([&](BitWriter &w) {
        defineAbbrev(w, {{-1, 9}, {1, width}, {2, 4}});
        w.fixed(4, 3);
        w.fixed(value, width);
        w.vbr(100 + width, 4);
      });
      Reading r(bytes);
      ASSERT_TRUE(r.firstRecord()) << "width " << width;
      EXPECT_EQ(r.rec.code, 9u);
      EXPECT_EQ(r.ops(), (std::vector<uint64_t>{value, 100 + width})) << "width " << width;
    }
}

/// Three definitions (the third's field `width` bits wide) and `more` after them, then a record
/// of each of the first three, read three times over for each width: each run of definitions,
/// remembered by its bits, must decode its own records.
void expectDefinitionRunsKeepTheirOwnWidths(int more) {
  for (int round = 0; round < 3; ++round)
    for (unsigned width : {3u, 4u, 5u, 3u, 12u}) {
      const uint64_t value = (uint64_t(1) << width) - 1;
      std::vector<uint8_t> bytes = inBlock([&](BitWriter &w) {
        defineAbbrev(w, {{-1, 1}, {1, 8}});
        defineAbbrev(w, {{-1, 2}, {2, 6}});
        defineAbbrev(w, {{-1, 3}, {1, width}});
        for (int k = 0; k < more; ++k)
          defineAbbrev(w, {{-1, 10 + k}, {1, 8}});
        w.fixed(6, 3);
        w.fixed(value, width);
        w.fixed(4, 3);
        w.fixed(200, 8);
        w.fixed(5, 3);
        w.vbr(1000, 6);
        w.record(9, {1, 2, 3, 4, 5, 6, 7, 8}); // room after the run: a run is remembered
        w.record(9, {1, 2, 3, 4, 5, 6, 7, 8}); // only with a whole load after it
      });
      Reading r(bytes);
      ASSERT_TRUE(r.firstRecord()) << "width " << width;
      EXPECT_EQ(r.rec.code, 3u);
      EXPECT_EQ(r.ops(), (std::vector<uint64_t>{value})) << "width " << width;
      EXPECT_TRUE(r.nextIs(1, {200}));
      EXPECT_TRUE(r.nextIs(2, {1000}));
    }
}

// Runs that differ only after their first chunk of bits, read one after the other.
TEST(DxilBitstream, DefinitionRunsThatStartAlikeKeepTheirOwnWidths) {
  expectDefinitionRunsKeepTheirOwnWidths(0);
}

// Runs of four chunks of bits or more that differ only in a middle chunk (the third definition's
// width, bits 52 to 78) and in nothing after it.
TEST(DxilBitstream, LongDefinitionRunsThatDifferInAMiddleChunkKeepTheirOwnWidths) {
  expectDefinitionRunsKeepTheirOwnWidths(5);
}

/// A stream whose BLOCKINFO block gives block 8 the abbreviation [5, fixed(width)], then a
/// block 8 with one record of it.
std::vector<uint8_t> blockInfoStream(unsigned width, uint64_t value) {
  BitWriter w;
  w.enterBlock(0, 2);
  w.record(1, {8});
  defineAbbrev(w, {{-1, 5}, {1, width}});
  w.endBlock();
  w.enterBlock(8, 3);
  w.fixed(4, 3);
  w.fixed(value, width);
  w.endBlock();
  w.align32();
  return w.bytes();
}

TEST(DxilBitstream, BlockInfoReadAgainGivesTheSameAbbreviations) {
  for (int round = 0; round < 3; ++round)
    for (unsigned width : {8u, 9u, 8u, 5u, 12u, 8u}) {
      const uint64_t value = (uint64_t(1) << width) - 1; // all ones: a narrower field differs
      std::vector<uint8_t> bytes = blockInfoStream(width, value);
      Reading r(bytes);
      Status s = r.firstRecord();
      ASSERT_TRUE(s) << "width " << width << ": " << errorOf(s);
      EXPECT_EQ(r.rec.code, 5u);
      EXPECT_EQ(r.ops(), (std::vector<uint64_t>{value})) << "width " << width;
    }
  // The same block with a length word that ends before its SETBID record: still an error, as
  // the first time such a block is read.
  std::vector<uint8_t> bytes = blockInfoStream(8, 200);
  bytes[4] = bytes[5] = bytes[6] = bytes[7] = 0;
  BitstreamReader r(bytes);
  Expected<BitstreamEntry> e = r.advance();
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("past the end of its block"), std::string::npos);
}

TEST(DxilBitstream, BlockInfoReadAgainAfterOtherDefinitions) {
  // A block with definitions of its own before BLOCKINFO: the remembered lists go after them.
  BitWriter w;
  w.enterBlock(8, 3);
  defineAbbrev(w, {{-1, 9}, {1, 3}, {1, 3}});
  w.fixed(4, 3);
  w.fixed(5, 3);
  w.fixed(6, 3);
  w.endBlock();
  w.enterBlock(0, 2);
  w.record(1, {10});
  defineAbbrev(w, {{-1, 7}, {2, 4}});          // 4: [7, vbr4]
  defineAbbrev(w, {{-1, 8}, {1, 5}, {1, 12}}); // 5: [8, fixed5, fixed12]
  w.endBlock();
  w.enterBlock(10, 3);
  w.fixed(5, 3);
  w.fixed(17, 5);
  w.fixed(4000, 12);
  w.fixed(4, 3);
  w.vbr(300, 4);
  w.endBlock();
  w.align32();
  const std::vector<uint8_t> bytes = w.bytes();
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE(round);
    Reading r(bytes);
    ASSERT_TRUE(r.firstRecord());
    EXPECT_EQ(r.rec.code, 9u);
    EXPECT_EQ(r.ops(), (std::vector<uint64_t>{5, 6}));
    BitstreamEntry e;
    ASSERT_TRUE(r.reader.next(e));
    ASSERT_EQ(e.kind, BitstreamEntry::Kind::EndBlock);
    ASSERT_TRUE(r.reader.next(e)); // BLOCKINFO absorbed
    ASSERT_EQ(e.kind, BitstreamEntry::Kind::SubBlock);
    ASSERT_TRUE(r.reader.enter(e.id));
    EXPECT_EQ(r.reader.abbrevCount(), 2u);
    EXPECT_TRUE(r.nextIs(8, {17, 4000}));
    EXPECT_TRUE(r.nextIs(7, {300}));
  }
}

TEST(DxilBitstream, BlockInfoBlocksOfOtherSizesTakeTurns) {
  // Two BLOCKINFO blocks of different lengths read in turn: each found in the memo goes on
  // after its own end (not after the other's).
  auto stream = [](unsigned definitions) {
    BitWriter w;
    w.enterBlock(0, 2);
    w.record(1, {8});
    for (unsigned k = 0; k < definitions; ++k)
      defineAbbrev(w, {{-1, 5}, {1, 8 + k}});
    w.endBlock();
    w.enterBlock(8, 3);
    w.fixed(4, 3);
    w.fixed(200, 8);
    w.endBlock();
    w.align32();
    return w.bytes();
  };
  const std::vector<uint8_t> small = stream(1), big = stream(12);
  ASSERT_NE(small.size(), big.size());
  for (int round = 0; round < 4; ++round)
    for (const std::vector<uint8_t> *bytes : {&small, &big}) {
      SCOPED_TRACE(round);
      Reading r(*bytes);
      Status s = r.firstRecord();
      ASSERT_TRUE(s) << errorOf(s);
      EXPECT_EQ(r.rec.code, 5u);
      EXPECT_EQ(r.ops(), (std::vector<uint64_t>{200}));
    }
}

TEST(DxilBitstream, BlockInfoIdentityNamesEqualBlocks) {
  // In a thread's first reader (which remembers nothing): unknown.
  uint64_t first = 1;
  std::thread([&] {
    const std::vector<uint8_t> bytes = blockInfoStream(8, 1);
    Reading r(bytes);
    ASSERT_TRUE(r.firstRecord());
    first = r.reader.blockInfoIdentity();
  }).join();
  EXPECT_EQ(first, 0u);
  auto identity = [](const std::vector<uint8_t> &bytes) {
    Reading r(bytes);
    EXPECT_EQ(r.reader.blockInfoIdentity(), 0u); // before the BLOCKINFO block
    EXPECT_TRUE(r.firstRecord());
    return r.reader.blockInfoIdentity();
  };
  identity(blockInfoStream(8, 1)); // (this thread reads a bitstream at least once before)
  const uint64_t a = identity(blockInfoStream(8, 1));
  const uint64_t b = identity(blockInfoStream(9, 1)); // another definition
  EXPECT_NE(a, 0u);
  EXPECT_NE(b, 0u);
  EXPECT_NE(a, b);
  EXPECT_EQ(identity(blockInfoStream(8, 1)), a);
  EXPECT_EQ(identity(blockInfoStream(8, 2)), a); // the same BLOCKINFO block, another record
  // A second BLOCKINFO block: unknown from then on.
  BitWriter w;
  w.enterBlock(0, 2);
  w.record(1, {8});
  defineAbbrev(w, {{-1, 5}, {1, 8}});
  w.endBlock();
  w.enterBlock(0, 2);
  w.record(1, {9});
  defineAbbrev(w, {{-1, 5}, {1, 8}});
  w.endBlock();
  w.enterBlock(8, 3);
  w.fixed(4, 3);
  w.fixed(1, 8);
  w.endBlock();
  w.align32();
  EXPECT_EQ(identity(w.bytes()), 0u);
}

// BLOCKINFO lists built across SETBIDs that come back to a block and a second BLOCKINFO block
// that adds to them, read several times (the first block remembered from the second time on).
TEST(DxilBitstream, BlockInfoListsGatherAcrossSetBidsAndBlocks) {
  BitWriter w;
  w.enterBlock(0, 2);
  w.record(1, {8});
  defineAbbrev(w, {{-1, 5}, {1, 8}}); // block 8, id 4
  w.record(1, {9});
  defineAbbrev(w, {{-1, 6}, {1, 3}}); // block 9, id 4
  w.record(1, {8});
  defineAbbrev(w, {{-1, 7}, {2, 4}}); // block 8, id 5
  w.endBlock();
  w.enterBlock(0, 2);
  w.record(1, {8});
  defineAbbrev(w, {{-1, 8}, {1, 2}}); // block 8, id 6
  w.endBlock();
  w.enterBlock(8, 3);
  w.fixed(6, 3);
  w.fixed(3, 2);
  w.fixed(4, 3);
  w.fixed(200, 8);
  w.fixed(5, 3);
  w.vbr(1000, 4);
  w.endBlock();
  w.enterBlock(9, 3);
  w.fixed(4, 3);
  w.fixed(5, 3);
  w.endBlock();
  w.align32();
  for (int round = 0; round < 3; ++round) {
    Reading r(w.bytes());
    ASSERT_TRUE(r.firstRecord()) << "round " << round;
    EXPECT_EQ(r.rec.code, 8u);
    EXPECT_EQ(r.ops(), (std::vector<uint64_t>{3}));
    EXPECT_TRUE(r.nextIs(5, {200})) << "round " << round;
    EXPECT_TRUE(r.nextIs(7, {1000})) << "round " << round;
    Expected<BitstreamEntry> e = r.reader.advance();
    ASSERT_TRUE(e);
    EXPECT_EQ(e->kind, BitstreamEntry::Kind::EndBlock);
    ASSERT_TRUE(r.firstRecord());
    EXPECT_EQ(r.rec.code, 6u);
    EXPECT_EQ(r.ops(), (std::vector<uint64_t>{5}));
  }
}

TEST(DxilBitstream, SkipBlockUsesTheLengthWord) {
  BitWriter w;
  w.enterBlock(8, 3);
  w.enterBlock(9, 4);
  w.record(1, {1, 2, 3});
  w.endBlock();
  w.record(2, {7});
  w.endBlock();
  w.align32();
  Reading r(w.bytes());
  Expected<BitstreamEntry> e = r.reader.advance();
  ASSERT_TRUE(e);
  ASSERT_TRUE(r.reader.enterBlock(e->id));
  e = r.reader.advance();
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, BitstreamEntry::Kind::SubBlock);
  EXPECT_EQ(e->id, 9u);
  ASSERT_TRUE(r.reader.skipBlock());
  ASSERT_TRUE(r.nextRecord());
  EXPECT_EQ(r.rec.code, 2u);
}

TEST(DxilBitstream, LeavingABlockRestoresTheOuterBlocksWidthAbbreviationsAndCount) {
  // The cursor keeps the current block's width, end, abbreviations and record count apart
  // from its stack of open blocks: each block's come back when an inner one ends.
  BitWriter w;
  w.enterBlock(8, 3);
  defineAbbrev(w, {{-1, 5}, {1, 4}}); // code 5, one 4-bit field
  w.record(1, {1});
  w.enterBlock(9, 5); // another width, its own two abbreviations
  defineAbbrev(w, {{-1, 6}, {2, 3}});
  defineAbbrev(w, {{-1, 7}});
  w.fixed(5, 5);
  w.fixed(4, 5);
  w.vbr(9, 3);
  w.endBlock();
  w.enterBlock(10, 2); // skipped
  w.record(1, {2});
  w.endBlock();
  w.fixed(4, 3); // the outer block's abbreviation again
  w.fixed(11, 4);
  w.fixed(5, 3); // not defined in block 8 (block 9's second was id 5)
  w.endBlock();
  w.align32();
  BitstreamReader r(w.bytes());
  BitstreamRecord rec;
  BitstreamEntry e;
  ASSERT_TRUE(r.next(e));
  ASSERT_TRUE(r.enter(e.id));
  ASSERT_TRUE(r.next(e) && r.read(e.id, rec));
  EXPECT_EQ(r.recordIndex(), 1u);
  ASSERT_TRUE(r.next(e));
  ASSERT_EQ(e.kind, BitstreamEntry::Kind::SubBlock);
  ASSERT_TRUE(r.enter(e.id));
  EXPECT_EQ(r.recordIndex(), 0u);
  ASSERT_TRUE(r.next(e) && r.read(e.id, rec));
  EXPECT_EQ(r.abbrevCount(), 2u);
  EXPECT_EQ(r.recordIndex(), 1u);
  EXPECT_EQ(rec.code, 7u);
  ASSERT_TRUE(r.next(e) && r.read(e.id, rec));
  EXPECT_EQ(rec.code, 6u);
  EXPECT_EQ(rec.ops[0], 9u);
  ASSERT_TRUE(r.next(e));
  ASSERT_EQ(e.kind, BitstreamEntry::Kind::EndBlock);
  EXPECT_EQ(r.blockId(), 8u);
  EXPECT_EQ(r.abbrevCount(), 1u);
  EXPECT_EQ(r.recordIndex(), 2u); // the record and block 9
  ASSERT_TRUE(r.next(e));
  ASSERT_EQ(e.kind, BitstreamEntry::Kind::SubBlock);
  ASSERT_TRUE(r.skipBlock());
  EXPECT_EQ(r.recordIndex(), 3u);
  ASSERT_TRUE(r.next(e) && r.read(e.id, rec));
  EXPECT_EQ(rec.code, 5u);
  EXPECT_EQ(rec.ops[0], 11u);
  EXPECT_EQ(r.recordIndex(), 4u);
  ASSERT_TRUE(r.next(e));
  ASSERT_EQ(e.kind, BitstreamEntry::Kind::Record);
  ASSERT_FALSE(r.read(e.id, rec));
  Diagnostic d = r.takeError();
  EXPECT_NE(d.message.find("abbreviation id 5 is not defined (1 defined"), std::string::npos)
      << d.message;
  EXPECT_EQ(d.location.instIndex, 4u);
}

TEST(DxilBitstream, NoRecordAfterAFailedRead) {
  // next()'s one-load path stops at a failure (a field of a width out of range here) like the
  // rest of the cursor: the next entry is an error, not the record after it.
  std::vector<uint64_t> ops(30, 7);
  std::vector<uint8_t> bytes = inBlock([&](BitWriter &w) {
    for (int k = 0; k < 4; ++k)
      w.record(5, ops);
  });
  Reading r(bytes);
  ASSERT_TRUE(r.firstRecord());
  ASSERT_TRUE(r.nextRecord()); // (through the one-load path)
  EXPECT_EQ(r.reader.readVbr(1), 0u);
  EXPECT_TRUE(r.reader.failed());
  BitstreamEntry e;
  EXPECT_FALSE(r.reader.next(e));
  EXPECT_NE(r.reader.takeError().message.find("past the end of the data"), std::string::npos);
}

// --- malformed streams -----------------------------------------------------------------------

TEST(DxilBitstream, UndefinedAbbreviationIdIsAnError) {
  std::vector<uint8_t> bytes = inBlock([](BitWriter &w) { w.fixed(6, 3); });
  Reading r(bytes);
  Status s = r.firstRecord();
  ASSERT_FALSE(s);
  EXPECT_NE(errorOf(s).find("abbreviation id 6 is not defined"), std::string::npos);
  EXPECT_EQ(s.error().location.kind, Location::Kind::Bitcode);
  EXPECT_EQ(s.error().location.scopeName(), "MODULE_BLOCK");
}

TEST(DxilBitstream, ArrayLongerThanTheDataIsAnError) {
  std::vector<uint8_t> bytes = inBlock([](BitWriter &w) {
    defineAbbrev(w, {{-1, 1}, {3, 0}, {1, 8}});
    w.fixed(4, 3);
    w.vbr(uint64_t(1) << 32, 6); // 2^32 elements
  });
  Reading r(bytes);
  Status s = r.firstRecord();
  ASSERT_FALSE(s);
  EXPECT_NE(errorOf(s).find("array of 4294967296 elements"), std::string::npos);
}

TEST(DxilBitstream, ShortCountArrayLongerThanTheDataIsAnError) {
  // A count of one chunk read from one load (more than a load's bits after it), whose
  // elements would run past the end; and the same array when they fit; into operands that
  // hold them.
  for (bool fits : {false, true}) {
    std::vector<uint8_t> bytes = inBlock([&](BitWriter &w) {
      defineAbbrev(w, {{-1, 1}, {3, 0}, {1, 60}});
      w.record(2, std::vector<uint64_t>(30, 1));
      w.fixed(4, 3);
      w.vbr(20, 6); // 20 * 60 bits
      for (int k = 0; k < (fits ? 20 : 3); ++k)
        w.fixed(uint64_t(k) << 40, 60);
    });
    Reading r(bytes);
    ASSERT_TRUE(r.firstRecord());
    Status s = r.nextRecord();
    if (fits) {
      ASSERT_TRUE(s) << errorOf(s);
      EXPECT_EQ(r.ops().size(), 20u);
      EXPECT_EQ(r.ops()[19], uint64_t(19) << 40);
      continue;
    }
    ASSERT_FALSE(s);
    EXPECT_NE(errorOf(s).find("array of 20 elements runs past the end"), std::string::npos)
        << errorOf(s);
  }
}

TEST(DxilBitstream, BlobPastTheEndIsAnError) {
  std::vector<uint8_t> bytes = inBlock([](BitWriter &w) {
    defineAbbrev(w, {{-1, 1}, {5, 0}});
    w.fixed(4, 3);
    w.vbr(1000000, 6);
  });
  Reading r(bytes);
  Status s = r.firstRecord();
  ASSERT_FALSE(s);
  EXPECT_NE(errorOf(s).find("blob of 1000000 bytes"), std::string::npos);
}

TEST(DxilBitstream, UnabbreviatedRecordWithTooManyOperandsIsAnError) {
  std::vector<uint8_t> bytes = inBlock([](BitWriter &w) {
    w.fixed(3, 3);
    w.vbr(1, 6);
    w.vbr(uint64_t(1) << 40, 6);
  });
  Reading r(bytes);
  Status s = r.firstRecord();
  ASSERT_FALSE(s);
  EXPECT_NE(errorOf(s).find("operands runs past the end"), std::string::npos);
  // The same after a record as long (the one-load path: the operands' storage holds them).
  std::vector<uint64_t> ops(100, 1);
  bytes = inBlock([&](BitWriter &w) {
    w.record(5, ops);
    w.fixed(3, 3);
    w.vbr(2, 6);
    w.vbr(100, 6);
    w.fixed(0, 60);
  });
  Reading again(bytes);
  ASSERT_TRUE(again.firstRecord());
  s = again.nextRecord();
  ASSERT_FALSE(s);
  EXPECT_NE(errorOf(s).find("record with 100 operands runs past the end"), std::string::npos)
      << errorOf(s);
}

TEST(DxilBitstream, UnabbreviatedRecordHeaderErrors) {
  // A code wider than 32 bits (three chunks and more: read field by field).
  std::vector<uint8_t> wide = inBlock([](BitWriter &w) {
    w.fixed(3, 3);
    w.vbr(uint64_t(1) << 33, 6);
    w.vbr(0, 6);
  });
  Reading r(wide);
  Status s = r.firstRecord();
  ASSERT_FALSE(s);
  EXPECT_NE(errorOf(s).find("record code 8589934592 out of range"), std::string::npos)
      << errorOf(s);
  // A count cut off by the end of the data, in a block that ends there (fewer than 64 bits
  // left at the record: field by field). The body: the id (bits 64-66), a code of nine chunks
  // and the zero padding's (67-126), and one bit where the count begins.
  BitWriter w;
  w.enterBlock(8, 3);
  w.fixed(3, 3);
  for (int k = 0; k < 9; ++k)
    w.fixed(33, 6);
  w.align32();
  std::vector<uint8_t> cut = w.bytes();
  ASSERT_EQ(cut.size(), 16u);
  cut[4] = 2; // the body's length: two words
  Reading t(cut);
  Status st = t.firstRecord();
  ASSERT_FALSE(st);
  EXPECT_NE(errorOf(st).find("record past the end of the data"), std::string::npos) << errorOf(st);
}

TEST(DxilBitstream, AbbreviationDefinitionErrors) {
  struct Case {
    std::function<void(BitWriter &)> body;
    const char *message;
  } cases[] = {
      {[](BitWriter &w) {
         defineAbbrev(w, {{-1, 1}, {1, 65}});
       },
       "field width 65 out of range"},
      {[](BitWriter &w) {
         defineAbbrev(w, {{-1, 1}, {2, 1}});
       },
       "field width 1 out of range"},
      {[](BitWriter &w) {
         w.fixed(2, 3);
         w.vbr(2, 5);
         w.fixed(1, 1);
         w.vbr(1, 8);
         w.fixed(0, 1);
         w.fixed(7, 3);
       },
       "unknown encoding 7"},
      {[](BitWriter &w) {
         defineAbbrev(w, {{-1, 1}, {3, 0}, {1, 8}, {1, 8}});
       },
       "array is not the next-to-last"},
      {[](BitWriter &w) {
         defineAbbrev(w, {{-1, 1}, {3, 0}, {5, 0}});
       },
       "array element is not a scalar"},
      {[](BitWriter &w) {
         defineAbbrev(w, {{-1, 1}, {5, 0}, {1, 8}});
       },
       "blob is not the last"},
      {[](BitWriter &w) {
         w.fixed(2, 3);
         w.vbr(0, 5);
       },
       "with 0 operands"},
  };
  for (const Case &c : cases) {
    std::vector<uint8_t> bytes = inBlock(c.body);
    Reading r(bytes);
    Status s = r.firstRecord();
    ASSERT_FALSE(s) << c.message;
    EXPECT_NE(errorOf(s).find(c.message), std::string::npos) << errorOf(s);
  }
}

TEST(DxilBitstream, BlockErrors) {
  auto nothing = [](BitWriter &) {};
  { // a block whose length runs past the data
    const std::string error = headerError(3, 1000, nothing);
    EXPECT_FALSE(error.empty());
    EXPECT_NE(error.find("runs past the end"), std::string::npos);
  }
  // abbreviation width 0
  EXPECT_NE(headerError(0, 0, nothing).find("width 0 out of range"), std::string::npos);
  { // nesting deeper than the limit
    const std::string error = nestingError(nothing);
    EXPECT_FALSE(error.empty());
    EXPECT_NE(error.find("nested more than 4 deep"), std::string::npos);
  }
  { // a block end outside any block
    BitWriter w;
    w.fixed(0, 2);
    w.fixed(1, 30);
    BitstreamReader r(w.bytes());
    Expected<BitstreamEntry> e = r.advance();
    ASSERT_FALSE(e);
    EXPECT_NE(e.error().message.find("outside any block"), std::string::npos);
  }
  { // a block that ends before its declared length
    BitWriter w;
    w.enterBlock(8, 3);
    w.record(1, {1});
    w.endBlock();
    w.align32();
    std::vector<uint8_t> bytes = w.bytes();
    bytes[4] += 1; // one word more than the block holds
    bytes.insert(bytes.end(), 4, 0);
    Reading r(bytes);
    ASSERT_TRUE(r.firstRecord());
    Expected<BitstreamEntry> e = r.reader.advance();
    ASSERT_FALSE(e);
    EXPECT_NE(e.error().message.find("not where its length says"), std::string::npos);
  }
  { // a record at the top level
    BitWriter w;
    w.fixed(3, 2);
    w.fixed(0xFFFF, 30);
    BitstreamReader r(w.bytes());
    Expected<BitstreamEntry> e = r.advance();
    ASSERT_FALSE(e);
    EXPECT_NE(e.error().message.find("record outside any block"), std::string::npos);
  }
  { // an abbreviation definition at the top level
    BitWriter w;
    w.fixed(2, 2);
    w.fixed(0xFFFF, 30);
    BitstreamReader r(w.bytes());
    Expected<BitstreamEntry> e = r.advance();
    ASSERT_FALSE(e);
    EXPECT_NE(e.error().message.find("definition outside any block"), std::string::npos);
  }
}

TEST(DxilBitstream, EnterReportsHeaderErrorsThroughTakeError) {
  { // a block entered: its id, depth and the block end after it
    const std::vector<uint8_t> bytes = inBlock([](BitWriter &w) { w.record(1, {7}); }, 5);
    BitstreamReader r(bytes);
    BitstreamEntry e;
    ASSERT_TRUE(r.next(e));
    ASSERT_EQ(e.kind, BitstreamEntry::Kind::SubBlock);
    ASSERT_TRUE(r.enter(e.id));
    EXPECT_EQ(r.blockId(), 8u);
    EXPECT_EQ(r.depth(), 1u);
    EXPECT_EQ(r.bitPosition() % 32, 0u);
    ASSERT_TRUE(r.next(e));
    EXPECT_EQ(e.kind, BitstreamEntry::Kind::Record);
    EXPECT_EQ(e.id, 3u);
  }
  { // the length runs past the data, located at the block's id field
    BitWriter w;
    w.fixed(1, 2);
    w.vbr(8, 8);
    w.vbr(3, 4);
    w.align32();
    w.fixed(1000, 32);
    w.align32();
    BitstreamReader r(w.bytes());
    BitstreamEntry e;
    ASSERT_TRUE(r.next(e));
    ASSERT_FALSE(r.enter(e.id));
    Diagnostic d = r.takeError();
    EXPECT_NE(d.message.find("block of 1000 words runs past the end"), std::string::npos)
        << d.message;
    EXPECT_EQ(r.depth(), 0u);
  }
  { // width 0, and a header cut short
    BitWriter w;
    w.fixed(1, 2);
    w.vbr(8, 8);
    w.vbr(0, 4);
    w.align32();
    w.fixed(0, 32);
    BitstreamReader r(w.bytes());
    BitstreamEntry e;
    ASSERT_TRUE(r.next(e));
    ASSERT_FALSE(r.enter(e.id));
    EXPECT_NE(r.takeError().message.find("width 0 out of range"), std::string::npos);
    std::vector<uint8_t> cut = w.bytes();
    cut.resize(4); // the id and the width; no length word
    BitstreamReader c(cut);
    ASSERT_TRUE(c.next(e));
    ASSERT_FALSE(c.enter(e.id));
    EXPECT_NE(c.takeError().message.find("block header past the end"), std::string::npos);
  }
}

TEST(DxilBitstream, BlockInfoErrors) {
  { // a definition before SETBID
    BitWriter w;
    w.enterBlock(0, 2);
    defineAbbrev(w, {{-1, 5}});
    w.endBlock();
    w.align32();
    BitstreamReader r(w.bytes());
    Expected<BitstreamEntry> e = r.advance();
    ASSERT_FALSE(e);
    EXPECT_NE(e.error().message.find("before SETBID"), std::string::npos);
  }
  { // a block inside BLOCKINFO
    BitWriter w;
    w.enterBlock(0, 2);
    w.enterBlock(8, 2);
    w.endBlock();
    w.endBlock();
    w.align32();
    BitstreamReader r(w.bytes());
    Expected<BitstreamEntry> e = r.advance();
    ASSERT_FALSE(e);
    EXPECT_NE(e.error().message.find("inside the BLOCKINFO"), std::string::npos);
  }
  { // SETBID without an id
    BitWriter w;
    w.enterBlock(0, 2);
    w.record(1, {});
    w.endBlock();
    w.align32();
    BitstreamReader r(w.bytes());
    Expected<BitstreamEntry> e = r.advance();
    ASSERT_FALSE(e);
    EXPECT_NE(e.error().message.find("SETBID record without"), std::string::npos);
  }
}

TEST(DxilBitstream, IdAtTheEndOfItsBlockIsAnError) {
  // An abbreviation id that starts where the block's declared length ends, with more data
  // after it (next()'s one-load path would read it): past the block, not an undefined id.
  BitWriter w;
  w.enterBlock(8, 4);
  w.record(1, {1, 2, 3, 4, 5, 6, 7, 8}); // 4 + 6 + 6 + 8 * 6: two words
  w.fixed(5, 4);
  for (int k = 0; k < 4; ++k)
    w.record(2, {9, 9, 9});
  w.endBlock();
  w.align32();
  std::vector<uint8_t> bytes = w.bytes();
  bytes[4] = 2; // the declared length: the first record's two words
  bytes[5] = bytes[6] = bytes[7] = 0;
  Reading r(bytes);
  ASSERT_TRUE(r.firstRecord());
  Status s = r.nextRecord();
  ASSERT_FALSE(s);
  EXPECT_NE(errorOf(s).find("past the end of its block"), std::string::npos) << errorOf(s);
}

TEST(DxilBitstream, UnabbreviatedRecordPastItsBlockFarFromTheDataEnd) {
  // A record whose fields run past its block's declared end with more data after it, read
  // into operands that hold it already (the one-load path, which tests the block's end once
  // the record is whole), at every alignment.
  for (unsigned pad = 0; pad < 8; ++pad) {
    BitWriter w;
    w.enterBlock(8, 3);
    w.record(1, std::vector<uint64_t>(40, 1)); // 3 + 6 + 6 + 40 * 6 bits: 255
    for (unsigned k = 0; k < pad; ++k)
      w.record(1, {});                         // 3 + 6 + 6 bits each
    w.record(2, std::vector<uint64_t>(40, 5)); // past the ninth word
    for (int k = 0; k < 8; ++k)
      w.record(3, {1, 2, 3, 4});
    w.endBlock();
    w.align32();
    std::vector<uint8_t> bytes = w.bytes();
    bytes[4] = 13; // the declared length: thirteen words (416 bits)
    bytes[5] = bytes[6] = bytes[7] = 0;
    Reading r(bytes);
    ASSERT_TRUE(r.firstRecord());
    for (unsigned k = 0; k < pad; ++k)
      ASSERT_TRUE(r.nextRecord());
    BitstreamEntry e;
    ASSERT_TRUE(r.reader.next(e)) << "pad " << pad;
    ASSERT_EQ(e.kind, BitstreamEntry::Kind::Record);
    EXPECT_FALSE(r.reader.read(e.id, r.rec)) << "pad " << pad;
    EXPECT_NE(r.reader.takeError().message.find("record runs past the end of its block"),
              std::string::npos);
  }
}

TEST(DxilBitstream, UnabbreviatedRecordAfterAFailureIsAnError) {
  // read() right after a failure, of records the operands hold already (the one-load path is
  // not taken then), far from the end: one with operands and one without.
  for (size_t count : {size_t(0), size_t(30)}) {
    std::vector<uint64_t> ops(count, 7);
    std::vector<uint8_t> bytes = inBlock([&](BitWriter &w) {
      w.record(5, std::vector<uint64_t>(30, 1));
      for (int k = 0; k < 4; ++k)
        w.record(5, ops);
    });
    Reading r(bytes);
    ASSERT_TRUE(r.firstRecord());
    BitstreamEntry e;
    ASSERT_TRUE(r.reader.next(e));
    ASSERT_EQ(e.id, kAbbrevUnabbreviatedRecord);
    EXPECT_EQ(r.reader.readVbr(1), 0u); // fails
    EXPECT_FALSE(r.reader.read(e.id, r.rec)) << count << " operands";
    EXPECT_NE(r.reader.takeError().message.find("past the end of the data"), std::string::npos);
  }
}

TEST(DxilBitstream, UnabbreviatedFieldsOfEveryLengthInStorageTheyFit) {
  // Fields of every length a load holds (three to nine chunks, decoded from it) and longer
  // (ten and more, decoded apart, with the record's fields after them), mixed with short ones,
  // read into operands that hold them already, at every bit alignment, with more data after;
  // and two-chunk fields of every bit, four in a row (decoded from one load) and alone.
  std::vector<uint64_t> ops{600, 1000, 513, 1023, 32, 700, 5, 1022, 6};
  for (unsigned chunks = 1; chunks <= 13; ++chunks) {
    const unsigned bits = std::min(5 * chunks, 64u);
    const uint64_t top = uint64_t(1) << (bits - 1);
    ops.push_back(top | (0x5555555555555555ull & (top - 1)));
    ops.push_back(chunks);
    ops.push_back(top);
  }
  for (unsigned pad = 0; pad < 8; ++pad) {
    std::vector<uint8_t> bytes = inBlock([&](BitWriter &w) {
      w.record(1, std::vector<uint64_t>(64, 1));
      for (unsigned k = 0; k < pad; ++k)
        w.record(1, {});
      w.record(5, ops);
      for (int k = 0; k < 8; ++k)
        w.record(3, {1, 2, 3, 4});
    });
    Reading r(bytes);
    ASSERT_TRUE(r.firstRecord());
    for (unsigned k = 0; k < pad; ++k)
      ASSERT_TRUE(r.nextRecord());
    ASSERT_TRUE(r.nextRecord());
    EXPECT_EQ(r.rec.code, 5u);
    EXPECT_EQ(r.ops(), ops) << "pad " << pad;
    for (int k = 0; k < 8; ++k)
      ASSERT_TRUE(r.nextIs(3, {1, 2, 3, 4})) << "pad " << pad << ", record " << k;
  }
}

/// Abbreviated records of every shape readAbbreviated's one-load path takes or hands on, with
/// their expected operands: written by `write` (the definitions first), read by `check`.
struct AbbreviatedShapes {
  struct Record {
    uint32_t abbrev;
    std::vector<std::pair<uint64_t, int>> fields; ///< (value, width): fixed; (value, -width): VBR
    uint32_t code;
    std::vector<uint64_t> ops;
  };
  std::vector<Record> records;
  AbbreviatedShapes() {
    // 4: literal code, fixed 5, VBR-4, char6, fixed 40, VBR-8, literal, fixed 1.
    // 5: literal code, VBR-6, array of fixed 7.   6: literal code, fixed 2, array of char6.
    // 7: literal code, fixed 62.   8: literal code, VBR-30.   9: literal code, array of VBR-6;
    // 10 and 11 below.
    const uint64_t c = 987654321012ull;                            // a fixed-40 value
    for (uint64_t v4 : {uint64_t(5), uint64_t(60), uint64_t(300)}) // VBR-4: 1, 2, 3 chunks
      for (uint64_t v8 : {uint64_t(100), uint64_t(10000), uint64_t(3000000)}) // 1, 2, 4
        records.push_back({4,
                           {{17, 5}, {v4, -4}, {51, 6}, {c, 40}, {v8, -8}, {1, 1}},
                           9,
                           {17, v4, 'Z', c, v8, 77, 1}});
    for (size_t n : {0, 1, 5, 7, 8, 31, 32, 40}) {
      Record r{5, {{3, -6}, {n, -6}}, 11, {3}};
      for (size_t k = 0; k < n; ++k) {
        r.fields.push_back({(k * 37) % 128, 7});
        r.ops.push_back((k * 37) % 128);
      }
      records.push_back(r);
    }
    for (size_t n : {0, 3, 12}) {
      Record r{6, {{2, 2}, {n, -6}}, 12, {2}};
      for (size_t k = 0; k < n; ++k) {
        r.fields.push_back({k % 64, 6});
        r.ops.push_back(uint64_t(uint8_t("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789._"[k % 64])));
      }
      records.push_back(r);
    }
    records.push_back({7, {{(uint64_t(1) << 61) + 5, 62}}, 13, {(uint64_t(1) << 61) + 5}});
    records.push_back({8, {{uint64_t(1) << 31, -30}}, 14, {uint64_t(1) << 31}});
    records.push_back({8, {{7, -30}}, 14, {7}});
    records.push_back({8, {{(uint64_t(1) << 58) - 1, -30}}, 14, {(uint64_t(1) << 58) - 1}});
    records.push_back({9, {{3, -6}, {40, -6}, {2000, -6}, {5, -6}}, 15, {40, 2000, 5}});
    // 10: a fixed code, VBR-6.   11: a VBR code, fixed 3.
    records.push_back({10, {{21, 5}, {700, -6}}, 21, {700}});
    records.push_back({11, {{1000, -6}, {5, 3}}, 1000, {5}});
  }
  void write(BitWriter &w) const {
    w.defineAbbrev({{-1, 9}, {1, 5}, {2, 4}, {4, 0}, {1, 40}, {2, 8}, {-1, 77}, {1, 1}});
    w.defineAbbrev({{-1, 11}, {2, 6}, {3, 0}, {1, 7}});
    w.defineAbbrev({{-1, 12}, {1, 2}, {3, 0}, {4, 0}});
    w.defineAbbrev({{-1, 13}, {1, 62}});
    w.defineAbbrev({{-1, 14}, {2, 30}});
    w.defineAbbrev({{-1, 15}, {3, 0}, {2, 6}});
    w.defineAbbrev({{1, 5}, {2, 6}});
    w.defineAbbrev({{2, 6}, {1, 3}});
  }
  static void writeRecord(BitWriter &w, const Record &r) {
    w.fixed(r.abbrev, 5); // (the block's width: see below)
    for (auto [v, enc] : r.fields) {
      if (enc < 0)
        w.vbr(v, unsigned(-enc));
      else
        w.fixed(v, unsigned(enc));
    }
  }
};

TEST(DxilBitstream, AbbreviatedRecordsOfEveryShapeInStorageTheyFit) {
  // Each shape (scalars of every kind, VBR fields of one, two and more chunks, fixed fields
  // wider than a load holds, arrays from one load and longer, of fixed, char6 and VBR
  // elements) after a record that grows the operands' storage, at every bit alignment, with
  // more data after: the one-load path and every path it hands a record on to.
  AbbreviatedShapes shapes;
  for (unsigned pad = 0; pad < 8; ++pad) {
    std::vector<uint8_t> bytes = inBlock(
        [&](BitWriter &w) {
          shapes.write(w);
          w.record(1, std::vector<uint64_t>(64, 1));
          for (unsigned k = 0; k < pad; ++k)
            w.record(1, {});
          for (const AbbreviatedShapes::Record &r : shapes.records)
            AbbreviatedShapes::writeRecord(w, r);
          for (int k = 0; k < 8; ++k)
            w.record(3, {1, 2, 3, 4});
        },
        5); // (ids up to 9; an empty record of 17 bits shifts the next by every alignment)
    Reading r(bytes);
    ASSERT_TRUE(r.firstRecord());
    for (unsigned k = 0; k < pad; ++k)
      ASSERT_TRUE(r.nextRecord());
    for (size_t i = 0; i < shapes.records.size(); ++i)
      ASSERT_TRUE(r.nextIs(shapes.records[i].code, shapes.records[i].ops))
          << "pad " << pad << ", record " << i;
    for (int k = 0; k < 8; ++k)
      ASSERT_TRUE(r.nextIs(3, {1, 2, 3, 4})) << "pad " << pad << ", record " << k;
  }
}

TEST(DxilBitstream, AbbreviatedShortArrayLargerThanTheStorage) {
  // A fixed array of one load (31 one-bit elements) after scalars, into operands that hold 16:
  // they grow, and the scalars read before stay.
  std::vector<uint64_t> ops{6};
  for (uint64_t k = 0; k < 31; ++k)
    ops.push_back(k % 3 == 0);
  std::vector<uint8_t> bytes = inBlock([&](BitWriter &w) {
    w.defineAbbrev({{-1, 9}, {1, 4}, {3, 0}, {1, 1}});
    w.record(1, {1, 2, 3});
    w.fixed(4, 3);
    w.fixed(6, 4);
    w.vbr(31, 6);
    for (uint64_t k = 0; k < 31; ++k)
      w.fixed(k % 3 == 0, 1);
    for (int k = 0; k < 8; ++k)
      w.record(3, {1, 2, 3, 4});
  });
  Reading r(bytes);
  ASSERT_TRUE(r.firstRecord());
  ASSERT_EQ(r.rec.ops.capacity(), 16u);
  ASSERT_TRUE(r.nextIs(9, ops));
  ASSERT_TRUE(r.nextIs(3, {1, 2, 3, 4}));
}

TEST(DxilBitstream, AbbreviatedRecordOfLiteralsAfterAFailureIsAnError) {
  // An abbreviation of literals alone reads no bits: read() right after a failure still fails.
  std::vector<uint8_t> bytes = inBlock([&](BitWriter &w) {
    w.defineAbbrev({{-1, 9}, {-1, 5}});
    w.record(1, std::vector<uint64_t>(30, 1));
    for (int k = 0; k < 4; ++k)
      w.fixed(4, 3);
    for (int k = 0; k < 4; ++k)
      w.record(1, std::vector<uint64_t>(30, 1));
  });
  Reading r(bytes);
  ASSERT_TRUE(r.firstRecord());
  ASSERT_TRUE(r.nextIs(9, {5}));
  BitstreamEntry e;
  ASSERT_TRUE(r.reader.next(e));
  ASSERT_EQ(e.id, 4u);
  EXPECT_EQ(r.reader.readVbr(1), 0u); // fails
  EXPECT_FALSE(r.reader.read(e.id, r.rec));
  EXPECT_NE(r.reader.takeError().message.find("past the end of the data"), std::string::npos);
}

TEST(DxilBitstream, AbbreviatedRecordOfLiteralsAfterAFailureAndLeavingABlockIsAnError) {
  // The same with the failure inside a sub-block that leaveBlock() then leaves.
  BitWriter w;
  w.enterBlock(8, 3);
  w.defineAbbrev({{-1, 9}, {-1, 5}});
  w.fixed(4, 3);
  w.enterBlock(9, 3);
  w.record(1, std::vector<uint64_t>(30, 1));
  w.endBlock();
  for (int k = 0; k < 4; ++k)
    w.fixed(4, 3);
  for (int k = 0; k < 4; ++k)
    w.record(1, std::vector<uint64_t>(30, 1));
  w.endBlock();
  w.align32();
  Reading r(w.bytes());
  ASSERT_TRUE(r.firstRecord());
  ASSERT_EQ(r.rec.code, 9u);
  BitstreamEntry e;
  ASSERT_TRUE(r.reader.next(e));
  ASSERT_EQ(e.kind, BitstreamEntry::Kind::SubBlock);
  ASSERT_TRUE(r.reader.enter(e.id));
  EXPECT_EQ(r.reader.readVbr(1), 0u); // fails
  r.reader.leaveBlock();
  EXPECT_EQ(r.reader.depth(), 1u);
  EXPECT_FALSE(r.reader.read(4, r.rec));
  EXPECT_NE(r.reader.takeError().message.find("past the end of the data"), std::string::npos);
}

TEST(DxilBitstream, AbbreviatedRecordErrorsInStorageTheyFit) {
  // A literal code wider than 32 bits, and a record past its block's end with more data after
  // it, after a record that grows the operands' storage, at every alignment.
  for (unsigned pad = 0; pad < 8; ++pad) {
    BitWriter w;
    w.enterBlock(8, 3);
    w.defineAbbrev({{-1, uint64_t(1) << 33}, {2, 6}});
    w.defineAbbrev({{-1, 5}, {1, 20}, {1, 20}, {1, 20}});
    w.record(1, std::vector<uint64_t>(40, 1)); // 3 + 6 + 6 + 40 * 6 bits: 255
    for (unsigned k = 0; k < pad; ++k)
      w.record(1, {}); // 3 + 6 + 6 bits each
    const size_t at = w.bytes().size();
    w.fixed(5, 3);
    for (int k = 0; k < 3; ++k)
      w.fixed(12345, 20);
    w.fixed(4, 3);
    w.vbr(7, 6);
    for (int k = 0; k < 8; ++k)
      w.record(3, {1, 2, 3, 4});
    w.endBlock();
    w.align32();
    std::vector<uint8_t> bytes = w.bytes();
    // The declared length: the words before the second abbreviation's record's second byte.
    const uint32_t words = uint32_t((at + 1 - 8 + 3) / 4);
    bytes[4] = uint8_t(words);
    bytes[5] = bytes[6] = bytes[7] = 0;
    {
      Reading r(bytes);
      ASSERT_TRUE(r.firstRecord());
      for (unsigned k = 0; k < pad; ++k)
        ASSERT_TRUE(r.nextRecord());
      BitstreamEntry e;
      ASSERT_TRUE(r.reader.next(e)) << "pad " << pad;
      ASSERT_EQ(e.id, 5u);
      EXPECT_FALSE(r.reader.read(e.id, r.rec)) << "pad " << pad;
      EXPECT_NE(r.reader.takeError().message.find("record runs past the end of its block"),
                std::string::npos);
    }
    w = BitWriter();
    w.enterBlock(8, 3);
    w.defineAbbrev({{-1, uint64_t(1) << 33}, {2, 6}});
    w.record(1, std::vector<uint64_t>(40, 1));
    for (unsigned k = 0; k < pad; ++k)
      w.record(1, {});
    w.fixed(4, 3);
    w.vbr(7, 6);
    for (int k = 0; k < 8; ++k)
      w.record(3, {1, 2, 3, 4});
    w.endBlock();
    w.align32();
    Reading r(w.bytes());
    ASSERT_TRUE(r.firstRecord());
    for (unsigned k = 0; k < pad; ++k)
      ASSERT_TRUE(r.nextRecord());
    Status s = r.nextRecord();
    ASSERT_FALSE(s);
    EXPECT_NE(errorOf(s).find("record code 8589934592 out of range"), std::string::npos)
        << errorOf(s);
  }
}

TEST(DxilBitstream, RecordPastTheEndOfItsBlockIsAnError) {
  BitWriter w;
  w.enterBlock(8, 3);
  w.record(1, {1});
  w.endBlock();
  w.align32();
  std::vector<uint8_t> bytes = w.bytes();
  // Shrink the declared length to zero words: the record lies past the block's end.
  bytes[4] = bytes[5] = bytes[6] = bytes[7] = 0;
  Reading r(bytes);
  Status s = r.firstRecord();
  ASSERT_FALSE(s);
  EXPECT_NE(errorOf(s).find("past the end of its block"), std::string::npos);
}

} // namespace
} // namespace spire::dxil
