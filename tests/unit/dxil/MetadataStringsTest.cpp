// Metadata strings, NAMEs and value symbol table names read as bytes (BitstreamReader::readChars)
// and appended to the module's strings in runs: every string where its StrRef says, across
// runs longer than one append, other records that add strings (KIND, unabbreviated strings,
// strings longer than the byte path takes) and character arrays of records that are not names.
#include "ModuleBuilder.h"

#include "spire/dxil/BitcodeReader.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace spire::dxil {
namespace {

using namespace test;

constexpr char kChar6[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._";

/// A string of `n` characters from `seed`, of char6 characters only when `char6`.
std::string text(size_t n, unsigned seed, bool char6) {
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    const unsigned k = unsigned(i * 11 + seed * 7);
    s += char6 ? kChar6[k % 64] : char(32 + k % 95);
  }
  return s;
}

/// An abbreviated record (abbreviation `id`, width `width`): `scalars` as VBR 8, then `s` as
/// an array of `element` (1 fixed 8, 7 fixed 7, 4 char6).
void charRecord(BitWriter &w, unsigned width, uint32_t id, std::vector<uint64_t> scalars,
                const std::string &s, int element) {
  w.fixed(id, width);
  for (uint64_t v : scalars)
    w.vbr(v, 8);
  w.vbr(s.size(), 6);
  for (char c : s) {
    if (element == 4)
      w.fixed(std::string_view(kChar6).find(c), 6);
    else
      w.fixed(uint8_t(c), element == 7 ? 7 : 8);
  }
}

TEST(DxilMetadataStrings, StringsNamesAndNodesAsBytesInRuns) {
  std::vector<std::string> strings; // metadata 0..n-1, in order
  std::vector<uint8_t> bytes = buildModule(tVoidFn, nullptr, {}, [&](BitWriter &w) {
    w.enterBlock(kMetadataBlock, 4);
    w.defineAbbrev({{-1, 1}, {3, 0}, {1, 8}}); // 4: STRING_OLD, fixed 8
    w.defineAbbrev({{-1, 1}, {3, 0}, {4, 0}}); // 5: STRING_OLD, char6
    w.defineAbbrev({{-1, 4}, {3, 0}, {1, 8}}); // 6: NAME, fixed 8
    w.defineAbbrev({{-1, 3}, {3, 0}, {1, 8}}); // 7: NODE with a fixed 8 array
    for (unsigned i = 0; i < 300; ++i) {
      const bool char6 = i % 3 == 1;
      std::string s = text(i % 50 == 7 ? 700 : 10 + i % 45, i, char6); // (some too long)
      if (i % 40 == 20) {
        w.record(1, chars(s)); // unabbreviated
      } else {
        charRecord(w, 4, char6 ? 5 : 4, {}, s, char6 ? 4 : 1);
      }
      strings.push_back(s);
      if (i == 101) { // a KIND record among the strings (after one as bytes)
        std::vector<uint64_t> kind = {0};
        for (char c : std::string("dx.precise"))
          kind.push_back(uint8_t(c));
        w.record(6, kind);
      }
    }
    charRecord(w, 4, 7, {}, std::string("\x01\x02\x03", 3), 1); // !{!0, !1, !2}
    charRecord(w, 4, 6, {}, "my.named", 1);                     // NAME
    w.record(10, {300});                                        // NAMED_NODE !300
    w.endBlock();
  });
  Expected<LlvmModule> m = readBitcode(bytes);
  ASSERT_TRUE(m) << m.error().format();
  ASSERT_EQ(m->metadata.size(), strings.size() + 1);
  size_t total = 0;
  for (size_t i = 0; i < strings.size(); ++i) {
    ASSERT_EQ(m->metadata[i].kind, MetadataKind::String) << i;
    EXPECT_EQ(m->str(m->metadata[i].string), strings[i]) << i;
    total += strings[i].size();
  }
  EXPECT_GT(total, 3 * 4096u); // (several runs)
  const Metadata &node = m->metadata[strings.size()];
  ASSERT_EQ(node.kind, MetadataKind::Node);
  ASSERT_EQ(node.numOperands, 3u);
  for (uint32_t k = 0; k < 3; ++k)
    EXPECT_EQ(m->metadataOperands[node.firstOperand + k], MetadataId(k));
  ASSERT_EQ(m->namedMetadata.size(), 1u);
  EXPECT_EQ(m->str(m->namedMetadata[0].name), "my.named");
  EXPECT_EQ(m->metadataKindName(0), "dx.precise");
}

TEST(DxilMetadataStrings, SymbolTableNamesAsBytesInRuns) {
  constexpr unsigned kFunctions = 200;
  std::vector<std::string> names(kFunctions);
  BitWriter w;
  w.enterBlock(kModuleBlock, 3);
  w.record(1, {1});
  writeTypes(w);
  for (unsigned i = 0; i < kFunctions; ++i)
    w.record(8, {tVoidFn, 0, 1, 0, 0, 0, 0, 0});
  w.enterBlock(kSymtabBlock, 4);
  w.defineAbbrev({{-1, 1}, {2, 8}, {3, 0}, {1, 8}}); // 4: VST_ENTRY, fixed 8
  w.defineAbbrev({{-1, 1}, {2, 8}, {3, 0}, {1, 7}}); // 5: fixed 7
  w.defineAbbrev({{-1, 1}, {2, 8}, {3, 0}, {4, 0}}); // 6: char6
  w.defineAbbrev({{-1, 3}, {2, 8}, {3, 0}, {1, 8}}); // 7: VST_FNENTRY [id, offset, name...]
  for (unsigned i = 0; i < kFunctions; ++i) {
    const int form = int(i % 5);
    names[i] = text(i % 37 == 3 ? 600 : 20 + i % 30, i, form == 2);
    if (form == 0 || form == 1 || form == 2)
      charRecord(w, 4, 4 + form, {i}, names[i], form == 0 ? 1 : form == 1 ? 7 : 4);
    else if (form == 3)
      charRecord(w, 4, 7, {i}, std::string(1, char(9)) + names[i], 1); // (offset 9)
    else
      w.record(1, withChars({i}, names[i])); // unabbreviated
  }
  w.endBlock();
  w.endBlock();
  Expected<LlvmModule> m = readBitcode(w.bitcode());
  ASSERT_TRUE(m) << m.error().format();
  ASSERT_GE(m->values.size(), size_t(kFunctions));
  for (unsigned i = 0; i < kFunctions; ++i)
    EXPECT_EQ(m->str(m->values[i].name), names[i]) << i;
}

TEST(DxilMetadataValues, ValuesOfOneTypeInARowAndOfAnother) {
  // VALUE records remember the last one's type: each must still be checked against its own.
  auto build = [](std::vector<std::vector<uint64_t>> values) {
    return buildModule(
        tVoidFn, nullptr,
        [](BitWriter &w) {
          w.enterBlock(kConstantsBlock, 4);
          w.record(1, {tI32});       // SETTYPE i32
          w.record(4, {10});         // i32 5: value 0
          w.record(1, {tFloat});     // SETTYPE float
          w.record(6, {0x3F800000}); // float 1.0: value 1
          w.endBlock();
        },
        [&](BitWriter &w) {
          w.enterBlock(kMetadataBlock, 3);
          for (const std::vector<uint64_t> &v : values)
            w.record(2, v);
          w.endBlock();
        });
  };
  Expected<LlvmModule> m = readBitcode(build({{tI32, 0}, {tFloat, 1}, {tFloat, 1}, {tI32, 0}}));
  ASSERT_TRUE(m) << m.error().format();
  ASSERT_EQ(m->metadata.size(), 4u);
  const ValueId i32 = m->metadata[0].value, f = m->metadata[1].value;
  EXPECT_NE(i32, f);
  EXPECT_NE(m->values[i32].type, m->values[f].type);
  EXPECT_EQ(m->metadata[2].value, f);
  EXPECT_EQ(m->metadata[3].value, i32);
  auto errorOf = [](const std::vector<uint8_t> &bytes) {
    Expected<LlvmModule> r = readBitcode(bytes);
    return r ? std::string("(read)") : r.error().format();
  };
  EXPECT_NE(errorOf(build({{tI32, 0}, {tI32, 1}})).find("whose value has another type"),
            std::string::npos);
  EXPECT_NE(errorOf(build({{tFloat, 1}, {tI32, 1}})).find("whose value has another type"),
            std::string::npos);
  EXPECT_NE(errorOf(build({{tI32, 0}, {tMetadata, 0}})).find("of type metadata or void"),
            std::string::npos);
  EXPECT_NE(errorOf(build({{tI32, 0}, {tVoid, 0}})).find("of type metadata or void"),
            std::string::npos);
  EXPECT_NE(errorOf(build({{tI32, 0}, {kNumTypes + 3, 0}})).find("is not defined"),
            std::string::npos);
}

TEST(DxilConstantsLayouts, BlockInfoLayoutsKeptAndBlocksOwnFoundAgain) {
  // Constants blocks read their one-field records through layouts found once: BLOCKINFO's
  // (id 4) kept from block to block, each block's own (id 5: VBR 6 in the first, fixed 16 in
  // the second) found for it.
  BitWriter w;
  w.enterBlock(kModuleBlock, 3);
  w.record(1, {1});
  w.enterBlock(0, 2); // BLOCKINFO: INTEGER [4, vbr 8] for the constants blocks
  w.record(1, {kConstantsBlock});
  w.defineAbbrev({{-1, 4}, {2, 8}});
  w.endBlock();
  writeTypes(w);
  const std::vector<std::pair<int, uint64_t>> own[2] = {{{-1, 4}, {2, 6}}, {{-1, 4}, {1, 16}}};
  for (int block = 0; block < 2; ++block) {
    w.enterBlock(kConstantsBlock, 4);
    w.record(1, {tI32}); // SETTYPE i32
    w.fixed(4, 4);       // BLOCKINFO's INTEGER
    w.vbr(block ? 22 : 10, 8);
    w.defineAbbrev({own[block][0], own[block][1]});
    w.fixed(5, 4); // the block's own INTEGER
    if (block)
      w.fixed(18, 16);
    else
      w.vbr(14, 6);
    w.fixed(4, 4);
    w.vbr(block ? 3000 : 200, 8); // (two chunks)
    w.endBlock();
  }
  w.enterBlock(99, 3); // (data after the blocks: their records are not the data's last bits)
  for (int i = 0; i < 40; ++i)
    w.record(1, {0});
  w.endBlock();
  w.endBlock();
  Expected<LlvmModule> m = readBitcode(w.bitcode());
  ASSERT_TRUE(m) << m.error().format();
  std::vector<uint64_t> bits;
  for (const Constant &c : m->constants)
    bits.push_back(c.bits);
  EXPECT_EQ(bits, (std::vector<uint64_t>{5, 7, 100, 11, 9, 1500}));
}

} // namespace
} // namespace spire::dxil
