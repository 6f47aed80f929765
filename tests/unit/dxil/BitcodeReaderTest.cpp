// The bitcode module reader on hand-built LLVM 3.7-style modules: what a consumer reads from the
// model, and the errors of malformed files (each located at its block, record and bit).
#include "ModuleBuilder.h"

#include "spire/dxil/BitcodeReader.h"
#include "spire/dxil/LlvmPrinter.h"

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <tuple>

namespace spire::dxil {
namespace {

using namespace test;

enum : uint32_t {
  kModule = kModuleBlock,
  kConstants = kConstantsBlock,
  kFunction = kFunctionBlock,
  kMetadata = kMetadataBlock,
  kAttachment = kAttachmentBlock,
  kTypes = kTypeBlock,
  kAttrGroups = kAttrGroupBlock,
  kAttrLists = kAttrListBlock,
};

std::vector<uint8_t> module(uint64_t fnType, const Writes &body, const Writes &extra = {},
                            const Writes &after = {}) {
  return buildModule(fnType, body, extra, after);
}

std::string errorOf(const std::vector<uint8_t> &bytes) {
  Expected<LlvmModule> m = readBitcode(bytes);
  return m ? std::string("(read)") : m.error().format();
}

/// A message without its "(bit N)": a from-bits path and the general path report the same
/// error, at bits that may differ.
std::string withoutBit(std::string message) {
  const size_t bit = message.find("(bit ");
  if (bit != std::string::npos)
    message.erase(bit, message.find(')', bit) + 1 - bit);
  return message;
}

TEST(DxilBitcodeReader, ReadsAFunctionAConsumerCanQuery) {
  // define i32 @f(i32 %0) { %2 = add i32 %0, 5 ; ret i32 %2 }   (block 1 holds the ret)
  std::vector<uint8_t> bytes = module(3, [](BitWriter &w) {
    w.record(1, {2}); // DECLAREBLOCKS 2
    w.enterBlock(kConstants, 4);
    w.record(1, {1});  // SETTYPE i32
    w.record(4, {10}); // 5 (sign-rotated)
    w.endBlock();
    w.record(2, {2, 1, 0}); // add %0 (relative 2), 5 (relative 1)
    w.record(11, {1});      // br label %1
    w.record(10, {1});      // ret the add (relative 1)
  });
  Expected<LlvmModule> m = readBitcode(bytes);
  ASSERT_TRUE(m) << m.error().format();
  ASSERT_EQ(m->functions.size(), 1u);
  const Function &f = m->functions[0];
  EXPECT_EQ(m->name(f.value), "f");
  EXPECT_FALSE(f.isDeclaration);
  EXPECT_EQ(f.numArguments, 1u);
  EXPECT_EQ(f.numBlocks, 2u);
  ASSERT_EQ(f.numInstructions, 3u);
  const Instruction &add = m->instructions[f.firstInstruction];
  EXPECT_EQ(add.opcode, Opcode::Add);
  std::span<const ValueId> ops = m->operandsOf(add);
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(m->values[ops[0]].kind, ValueKind::Argument);
  int64_t five = 0;
  EXPECT_TRUE(m->constantInt(ops[1], five));
  EXPECT_EQ(five, 5);
  EXPECT_EQ(m->types[m->typeOf(ops[1])].kind, TypeKind::Integer);
  const Instruction &ret = m->instructions[f.firstInstruction + 2];
  EXPECT_EQ(ret.opcode, Opcode::Ret);
  EXPECT_EQ(m->operands[ret.firstOperand], add.value);
  EXPECT_EQ(printLlvmModuleToString(*m),
            "\n"
            "define i32 @f(i32 %0) {\n"
            "  %2 = add i32 %0, 5\n"
            "  br label %3\n"
            "\n"
            "3:                                                ; preds = %1\n"
            "  ret i32 %2\n"
            "}\n");
}

TEST(DxilBitcodeReader, ModulesOutliveTheirSourceWhenCopiedMovedOrAssigned) {
  // The tables live in the module's arena: a copy must not share it, a move must carry it, and
  // assignment must free the old tables with their own arena (ASan checks the frees).
  std::vector<uint8_t> bytes = module(3, [](BitWriter &w) {
    w.record(1, {1});  // DECLAREBLOCKS 1
    w.record(10, {1}); // ret %0
  });
  Expected<LlvmModule> read = readBitcode(bytes);
  ASSERT_TRUE(read) << read.error().format();
  const std::string text = printLlvmModuleToString(*read);
  ASSERT_NE(text.find("ret i32 %0"), std::string::npos) << text;
  std::optional<LlvmModule> source(std::move(*read));
  LlvmModule copy = *source;
  LlvmModule moved = std::move(*source);
  source.reset();
  EXPECT_EQ(printLlvmModuleToString(copy), text);
  EXPECT_EQ(printLlvmModuleToString(moved), text);
  Expected<LlvmModule> other = readBitcode(bytes);
  ASSERT_TRUE(other);
  copy = std::move(*other); // the copy's heap tables go, the other's arena comes
  other = makeError({}, "gone");
  moved = copy; // the moved module's arena goes, a heap copy comes
  copy = LlvmModule();
  EXPECT_EQ(printLlvmModuleToString(moved), text);
  EXPECT_TRUE(copy.functions.empty());
}

TEST(DxilBitcodeReader, DebugLocationsAreKept) {
  std::vector<uint8_t> bytes = module(
      3,
      [](BitWriter &w) {
        w.record(1, {1});
        w.record(2, {1, 1, 0}); // add %0, %0
        w.record(35, {7, 3, 1, 0});
        w.record(10, {1});
        w.record(33, {}); // the ret: the same location again
      },
      {},
      [](BitWriter &w) {
        w.enterBlock(kMetadata, 3);
        w.record(3, {}); // !{}: the scope
        w.endBlock();
      });
  Expected<LlvmModule> m = readBitcode(bytes);
  ASSERT_TRUE(m) << m.error().format();
  ASSERT_EQ(m->debugLocs.size(), 1u);
  EXPECT_EQ(m->debugLocs[0].line, 7u);
  EXPECT_EQ(m->debugLocs[0].column, 3u);
  EXPECT_EQ(m->debugLocs[0].scope, 0u);
  EXPECT_EQ(m->instructions[0].debugLoc, 0u);
  EXPECT_EQ(m->instructions[1].debugLoc, 0u);
}

TEST(DxilBitcodeReader, ForwardReferencesAreResolved) {
  // A phi in block 1 names the add of block 1 before it exists (signed relative id).
  std::vector<uint8_t> bytes = module(3, [](BitWriter &w) {
    w.record(1, {2});
    w.record(11, {1});             // br %1 ... block 0 -> block 1
    w.record(16, {1, 2, 0, 3, 1}); // phi i32 [ %0, %0 ], [ the add (relative -1), %1 ]
    w.record(2, {1, 2, 0});        // add phi, %0
    w.record(10, {1});
  });
  Expected<LlvmModule> m = readBitcode(bytes);
  ASSERT_TRUE(m) << m.error().format();
  const Function &f = m->functions[0];
  const Instruction &phi = m->instructions[f.firstInstruction + 1];
  const Instruction &add = m->instructions[f.firstInstruction + 2];
  EXPECT_EQ(m->operands[phi.firstOperand + 2], add.value);
}

TEST(DxilBitcodeReader, CallArgumentsMayComeLaterOrBeOfAnotherType) {
  // @f is i32 (i32). Block 0 calls @f with the add of block 1, not read yet (relative id -1),
  // then the argument; block 1 adds %0 and the call's result.
  std::vector<uint8_t> bytes = module(3, [](BitWriter &w) {
    w.record(1, {2});
    w.record(34, {0, 0, 2, 0xFFFFFFFFu}); // %1 = call i32 @f(i32 %2)
    w.record(11, {1});                    // br %1
    w.record(2, {2, 1, 0});               // %2 = add %0, %1
    w.record(10, {1});                    // ret %2
  });
  Expected<LlvmModule> m = readBitcode(bytes);
  ASSERT_TRUE(m) << m.error().format();
  const Function &f = m->functions[0];
  const Instruction &call = m->instructions[f.firstInstruction];
  const Instruction &add = m->instructions[f.firstInstruction + 2];
  ASSERT_EQ(call.opcode, Opcode::Call);
  ASSERT_EQ(call.numOperands, 2u);
  EXPECT_EQ(m->operands[call.firstOperand + 1], add.value);
  EXPECT_EQ(m->operands[add.firstOperand + 1], call.value);
  // An argument of another type than its parameter (@f itself for the i32) is an error.
  std::string wrong = errorOf(module(3, [](BitWriter &w) {
    w.record(1, {1});
    w.record(34, {0, 0, 2, 2}); // call i32 @f(@f)
    w.record(10, {1});
  }));
  EXPECT_NE(wrong.find("has another type than its use expects"), std::string::npos) << wrong;
}

TEST(DxilBitcodeReader, MetadataNamedNodesAndAttachments) {
  std::vector<uint8_t> bytes = module(
      2,
      [](BitWriter &w) {
        w.record(1, {1});
        w.record(10, {}); // ret void
        w.enterBlock(kAttachment, 3);
        w.record(11, {0, 0, 1}); // instruction 0: kind 0 -> node 1
        w.endBlock();
      },
      {},
      [](BitWriter &w) {
        w.enterBlock(kMetadata, 3);
        w.record(1, chars("hi"));       // !"hi"      md 0
        w.record(3, {1, 0});            // !{!"hi", null} md 1
        w.record(4, chars("my.named")); // NAME
        w.record(10, {1});              // NAMED_NODE !1
        std::vector<uint64_t> kind = {0};
        for (char c : std::string("dx.precise"))
          kind.push_back(uint8_t(c));
        w.record(6, kind); // KIND 0 = dx.precise
        w.endBlock();
      });
  Expected<LlvmModule> m = readBitcode(bytes);
  ASSERT_TRUE(m) << m.error().format();
  ASSERT_EQ(m->namedMetadata.size(), 1u);
  EXPECT_EQ(m->str(m->namedMetadata[0].name), "my.named");
  EXPECT_EQ(m->metadataKindName(0), "dx.precise");
  const Instruction &ret = m->instructions[0];
  ASSERT_EQ(ret.attachments.count, 1u);
  std::string text = printLlvmModuleToString(*m);
  EXPECT_NE(text.find("  ret void, !dx.precise !0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("!my.named = !{!0}\n\n!0 = !{!\"hi\", null}\n"), std::string::npos) << text;
}

TEST(DxilBitcodeReader, AttributeGroupsAndLists) {
  std::vector<uint8_t> bytes = module(2, {}, [](BitWriter &w) {
    w.enterBlock(kAttrGroups, 3);
    std::vector<uint64_t> group = {1, 0xFFFFFFFFu, 0, 21, 0, 18, 4};
    for (char c : std::string("key"))
      group.push_back(uint8_t(c));
    group.push_back(0);
    for (char c : std::string("v\"1"))
      group.push_back(uint8_t(c));
    group.push_back(0);
    w.record(3, group); // readonly nounwind "key"="v\"1"
    w.endBlock();
    w.enterBlock(kAttrLists, 3);
    w.record(2, {1});
    w.endBlock();
  });
  // the function record names attribute list 1
  bytes = module(2, {}, [](BitWriter &w) {
    w.enterBlock(kAttrGroups, 3);
    std::vector<uint64_t> group = {1, 0xFFFFFFFFu, 0, 21, 0, 18, 4};
    for (char c : std::string("key"))
      group.push_back(uint8_t(c));
    group.push_back(0);
    for (char c : std::string("v\"1"))
      group.push_back(uint8_t(c));
    group.push_back(0);
    w.record(3, group);
    w.endBlock();
    w.enterBlock(kAttrLists, 3);
    w.record(2, {1});
    w.endBlock();
    w.record(8, {2, 0, 1, 0, 1, 0, 0, 0}); // declare void @1() #0
  });
  Expected<LlvmModule> m = readBitcode(bytes);
  ASSERT_TRUE(m) << m.error().format();
  std::string text = printLlvmModuleToString(*m);
  EXPECT_NE(text.find("; Function Attrs: nounwind readonly\ndeclare void @f() #0\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("attributes #0 = { nounwind readonly \"key\"=\"v\\221\" }"),
            std::string::npos)
      << text;
}

TEST(DxilBitcodeReader, KindBlocksReadAgainGiveTheirOwnKinds) {
  // A block of KIND records alone that equals one read before takes its kinds from the thread's
  // memo: the names are the block's own, and later KIND records still see them as defined.
  auto kindRecord = [](BitWriter &w, uint64_t id, std::string_view name) {
    std::vector<uint64_t> r = {id};
    r.insert(r.end(), name.begin(), name.end());
    w.record(6, r);
  };
  auto withKinds = [&](uint32_t blockId, std::string_view second, bool duplicateAfter,
                       bool kindBefore) {
    return module(2, {}, {}, [=](BitWriter &w) {
      if (kindBefore) {
        w.enterBlock(kMetadata, 3);
        kindRecord(w, 40, "early");
        w.endBlock();
      }
      w.enterBlock(blockId, 3);
      kindRecord(w, 0, "dbg");
      kindRecord(w, 1, second);
      kindRecord(w, 70, "dx.far");
      w.endBlock();
      if (duplicateAfter) {
        w.enterBlock(kMetadata, 3);
        kindRecord(w, 1, "again");
        w.endBlock();
      }
    });
  };
  for (uint32_t blockId : {uint32_t(kMetadata), uint32_t(22)}) {
    SCOPED_TRACE(blockId);
    for (int pass = 0; pass < 3; ++pass) {
      Expected<LlvmModule> a = readBitcode(withKinds(blockId, "dx.precise", false, false));
      ASSERT_TRUE(a) << a.error().format();
      ASSERT_EQ(a->metadataKinds.size(), 3u);
      EXPECT_EQ(a->metadataKindName(0), "dbg");
      EXPECT_EQ(a->metadataKindName(1), "dx.precise");
      EXPECT_EQ(a->metadataKindName(70), "dx.far");
      // The same length, another name: its own bytes, its own kinds.
      Expected<LlvmModule> b = readBitcode(withKinds(blockId, "dx.precisE", false, false));
      ASSERT_TRUE(b) << b.error().format();
      EXPECT_EQ(b->metadataKindName(1), "dx.precisE");
      EXPECT_EQ(b->metadataKindName(70), "dx.far");
      // Kinds from the memo are defined for the records after them.
      EXPECT_NE(errorOf(withKinds(blockId, "dx.precise", true, false))
                    .find("metadata kind 1 defined twice"),
                std::string::npos);
      // A kind before the block: the block is read as it comes.
      Expected<LlvmModule> c = readBitcode(withKinds(blockId, "dx.precise", false, true));
      ASSERT_TRUE(c) << c.error().format();
      ASSERT_EQ(c->metadataKinds.size(), 4u);
      EXPECT_EQ(c->metadataKindName(40), "early");
      EXPECT_EQ(c->metadataKindName(1), "dx.precise");
    }
  }
}

TEST(DxilBitcodeReader, MetadataBlocksWithKindsAndMoreAreReadAgain) {
  // A metadata block whose KIND records come before other records (a string, a NAME and its
  // NAMED_NODE) is no block of kinds alone: read again, it gives all its records.
  auto block = [](bool named) {
    return module(2, {}, {}, [=](BitWriter &w) {
      w.enterBlock(kMetadata, 3);
      std::vector<uint64_t> kind = {0, 'd', 'b', 'g'};
      w.record(6, kind);
      w.record(1, chars("s"));
      w.record(3, {1}); // a node of the string
      if (named) {
        w.record(4, chars("n"));
        w.record(10, {1});
      }
      w.endBlock();
    });
  };
  for (bool named : {false, true}) {
    SCOPED_TRACE(named);
    for (int pass = 0; pass < 3; ++pass) {
      Expected<LlvmModule> a = readBitcode(block(named));
      ASSERT_TRUE(a) << a.error().format();
      ASSERT_EQ(a->metadataKinds.size(), 1u);
      ASSERT_EQ(a->metadata.size(), 2u);
      EXPECT_EQ(a->metadata[0].kind, MetadataKind::String);
      EXPECT_EQ(a->metadata[1].kind, MetadataKind::Node);
      EXPECT_EQ(a->namedMetadata.size(), named ? 1u : 0u);
    }
  }
}

TEST(DxilBitcodeReader, ManyMetadataGrowTheirTables) {
  // Far more metadata than the room made from the input's size (a string record is a few
  // bytes): the tables grow, and every entry and node operand is the one read. (Between the
  // types and the function record, which looks its type up after them.)
  constexpr unsigned kStrings = 1500;
  std::vector<uint8_t> bitcode = module(2, {}, [](BitWriter &w) {
    w.enterBlock(kMetadata, 3);
    std::vector<uint64_t> all; // (operands: a metadata id plus one)
    uint64_t next = 0;         // the next metadata id
    for (unsigned k = 0; k < kStrings; ++k) {
      w.record(1, chars(std::to_string(k)));
      all.push_back(++next);
      if (k % 100 == 99) {
        w.record(3, {next, next - 1}); // a node of the last two strings
        ++next;
      }
    }
    w.record(3, all);
    w.endBlock();
  });
  for (int pass = 0; pass < 2; ++pass) {
    Expected<LlvmModule> m = readBitcode(bitcode);
    ASSERT_TRUE(m) << m.error().format();
    ASSERT_EQ(m->functions.size(), 1u);
    const TypeId fn = m->functions[0].functionType; // void (), from the type map
    ASSERT_LT(fn, m->types.size());
    EXPECT_EQ(m->types[fn].kind, TypeKind::Function);
    ASSERT_EQ(m->elements(fn).size(), 1u);
    EXPECT_EQ(m->types[m->elements(fn)[0]].kind, TypeKind::Void);
    ASSERT_EQ(m->metadata.size(), kStrings + kStrings / 100 + 1);
    size_t at = 0;
    for (unsigned k = 0; k < kStrings; ++k) {
      ASSERT_EQ(m->metadata[at].kind, MetadataKind::String) << k;
      ASSERT_EQ(m->str(m->metadata[at].string), std::to_string(k));
      ++at;
      if (k % 100 == 99) {
        std::span<const MetadataId> ops = m->operandsOf(m->metadata[at]);
        ASSERT_EQ(ops.size(), 2u);
        EXPECT_EQ(ops[0], at - 1);
        EXPECT_EQ(ops[1], at - 2);
        ++at;
      }
    }
    std::span<const MetadataId> ops = m->operandsOf(m->metadata.back());
    ASSERT_EQ(ops.size(), size_t(kStrings));
    for (unsigned k = 0; k < kStrings; ++k)
      ASSERT_EQ(m->str(m->metadata[ops[k]].string), std::to_string(k));
  }
}

TEST(DxilBitcodeReader, UnabbreviatedNodesAreReadAsAbbreviatedOnes) {
  // Unabbreviated NODE records are decoded straight from their bits; each node here is written
  // twice, unabbreviated and through an abbreviation [NODE, array of vbr6] (read the general
  // way), and both give the same operands: null, ids of one to three chunks (past 1,100
  // strings), a count of two chunks, forward references, an operand of five chunks (the general
  // path's), and a node of 1,100 operands (a count of three chunks).
  constexpr uint64_t kStrings = 1100;
  const std::vector<std::vector<uint64_t>> nodes = {
      {}, {0, 1, 2}, {40, 1000, 0}, {1100, 1050, 3}, {kStrings + 7 * 2 + 1, 5}, {9, 33, 1025},
  };
  std::vector<uint64_t> wide(40), all(kStrings);
  for (uint64_t k = 0; k < 40; ++k)
    wide[k] = k * 27 % kStrings;
  for (uint64_t k = 0; k < kStrings; ++k)
    all[k] = k + 1;
  auto write = [&](BitWriter &w, const std::vector<uint64_t> &ops, bool abbreviated) {
    if (!abbreviated)
      return w.record(3, ops);
    w.fixed(4, 3);
    w.vbr(ops.size(), 6);
    for (uint64_t op : ops)
      w.vbr(op, 6);
  };
  std::vector<std::vector<uint64_t>> written = nodes;
  written.push_back(wide);
  written.push_back(all);
  written.push_back({uint64_t(1) << 26 | 1, 1}); // five chunks: a forward reference, resolved below
  std::vector<uint8_t> bitcode = module(2, {}, [&](BitWriter &w) {
    w.enterBlock(kMetadata, 3);
    w.defineAbbrev({{-1, 3}, {3, 0}, {2, 6}}); // 4: NODE [array of vbr6]
    for (uint64_t k = 0; k < kStrings; ++k)
      w.record(1, chars(std::to_string(k)));
    for (const std::vector<uint64_t> &ops : written) {
      write(w, ops, false);
      write(w, ops, true);
    }
    w.endBlock();
  });
  // (The five-chunk operand names no metadata: the message both paths give.)
  std::string message = errorOf(bitcode);
  EXPECT_NE(message.find("refers to no metadata"), std::string::npos) << message;
  written.pop_back();
  bitcode = module(2, {}, [&](BitWriter &w) {
    w.enterBlock(kMetadata, 3);
    w.defineAbbrev({{-1, 3}, {3, 0}, {2, 6}});
    for (uint64_t k = 0; k < kStrings; ++k)
      w.record(1, chars(std::to_string(k)));
    for (const std::vector<uint64_t> &ops : written) {
      write(w, ops, false);
      write(w, ops, true);
    }
    w.endBlock();
  });
  for (int pass = 0; pass < 2; ++pass) {
    Expected<LlvmModule> m = readBitcode(bitcode);
    ASSERT_TRUE(m) << m.error().format();
    ASSERT_EQ(m->metadata.size(), kStrings + 2 * written.size());
    for (size_t k = 0; k < written.size(); ++k) {
      SCOPED_TRACE(k);
      const Metadata &a = m->metadata[kStrings + 2 * k], &b = m->metadata[kStrings + 2 * k + 1];
      ASSERT_EQ(a.kind, MetadataKind::Node);
      ASSERT_EQ(b.kind, MetadataKind::Node);
      std::span<const MetadataId> x = m->operandsOf(a), y = m->operandsOf(b);
      ASSERT_EQ(x.size(), written[k].size());
      ASSERT_TRUE(std::equal(x.begin(), x.end(), y.begin(), y.end()));
      for (size_t i = 0; i < x.size(); ++i)
        EXPECT_EQ(x[i], written[k][i] ? MetadataId(written[k][i] - 1) : kNoId) << i;
    }
  }
}

TEST(DxilBitcodeReader, UnabbreviatedValuesAreReadAsAbbreviatedOnes) {
  // Unabbreviated VALUE records are decoded straight from their bits; each here is written
  // twice, unabbreviated and through an abbreviation [VALUE, vbr6, vbr6] (read the general
  // way), and both give the same entry: types that change and come back, value ids of one to
  // three chunks; a forward reference, a value of another type and types that are undefined,
  // metadata or void give the general path's messages.
  constexpr uint64_t kConstantCount = 1100; // i32 k is value k, float 1.0 value 1100
  auto bitcodeOf = [&](const std::vector<std::vector<uint64_t>> &values) {
    return module(
        2, {},
        [&](BitWriter &w) {
          w.enterBlock(kConstants, 4);
          w.record(1, {tI32});
          for (uint64_t k = 0; k < kConstantCount; ++k)
            w.record(4, {k << 1}); // i32 k
          w.record(1, {tFloat});
          w.record(6, {0x3F800000}); // float 1.0
          w.endBlock();
        },
        [&](BitWriter &w) {
          w.enterBlock(kMetadata, 3);
          w.defineAbbrev({{-1, 2}, {2, 6}, {2, 6}}); // 4: VALUE [vbr6, vbr6]
          for (const std::vector<uint64_t> &f : values) {
            w.record(2, f);
            w.fixed(4, 3);
            for (uint64_t x : f)
              w.vbr(x, 6);
          }
          w.endBlock();
        });
  };
  const std::vector<std::vector<uint64_t>> values = {
      {tI32, 0},    {tI32, 40}, {tFloat, kConstantCount}, {tI32, 1050},
      {tI32, 1099}, {tI32, 5},  {tFloat, kConstantCount}, {tI32, 31},
  };
  for (int pass = 0; pass < 2; ++pass) {
    Expected<LlvmModule> m = readBitcode(bitcodeOf(values));
    ASSERT_TRUE(m) << m.error().format();
    ASSERT_EQ(m->metadata.size(), 2 * values.size());
    for (size_t k = 0; k < values.size(); ++k) {
      SCOPED_TRACE(k);
      const Metadata &a = m->metadata[2 * k], &b = m->metadata[2 * k + 1];
      ASSERT_EQ(a.kind, MetadataKind::Value);
      ASSERT_EQ(b.kind, MetadataKind::Value);
      EXPECT_EQ(a.value, b.value);
      ASSERT_LT(a.value, m->values.size());
      EXPECT_EQ(m->values[a.value].type, TypeId(values[k][0]));
      int64_t v = -1;
      if (values[k][0] == tI32) {
        EXPECT_TRUE(m->constantInt(a.value, v));
        EXPECT_EQ(uint64_t(v), values[k][1]);
      }
    }
  }
  auto errorWith = [&](std::vector<uint64_t> f) { return errorOf(bitcodeOf({{tI32, 3}, f})); };
  EXPECT_NE(errorWith({tI32, kConstantCount}).find("whose value has another type"),
            std::string::npos);
  EXPECT_NE(errorWith({tFloat, 3}).find("whose value has another type"), std::string::npos);
  EXPECT_NE(errorWith({tMetadata, 3}).find("of type metadata or void"), std::string::npos);
  EXPECT_NE(errorWith({tVoid, 3}).find("of type metadata or void"), std::string::npos);
  EXPECT_NE(errorWith({99, 3}).find("type"), std::string::npos) << errorWith({99, 3});
  EXPECT_NE(errorWith({tI32, 5000}), "(read)");
  EXPECT_NE(errorWith({tI32, 1, 2}).find("without a type and a value"), std::string::npos);
}

TEST(DxilBitcodeReader, TypeRecordsWithoutOperandsGiveTheirKinds) {
  // The records without operands take their kind from a table by code: each code its own kind,
  // uniqued (a second void is the first).
  const std::vector<std::pair<uint32_t, TypeKind>> records = {
      {2, TypeKind::Void},    {3, TypeKind::Float},     {4, TypeKind::Double},
      {5, TypeKind::Label},   {10, TypeKind::Half},     {13, TypeKind::X86Fp80},
      {14, TypeKind::Fp128},  {15, TypeKind::PpcFp128}, {16, TypeKind::Metadata},
      {17, TypeKind::X86Mmx}, {22, TypeKind::Token},    {23, TypeKind::BFloat},
      {24, TypeKind::X86Amx},
  };
  BitWriter w;
  w.enterBlock(kModuleBlock, 3);
  w.record(1, {1});
  w.enterBlock(kTypeBlock, 4);
  w.record(1, {records.size() + 1}); // NUMENTRY
  for (const auto &[code, kind] : records)
    w.record(code, {});
  w.record(2, {}); // void again
  w.endBlock();
  w.endBlock();
  Expected<LlvmModule> m = readBitcode(w.bitcode());
  ASSERT_TRUE(m) << m.error().format();
  ASSERT_EQ(m->types.size(), records.size());
  for (size_t i = 0; i < records.size(); ++i)
    EXPECT_EQ(m->types[i].kind, records[i].second) << "code " << records[i].first;
}

TEST(DxilBitcodeReader, ManyLiteralTypesAreUniqued) {
  // 300 integer types, then the same again: the intern table's slots collide (a new type goes to
  // the first empty slot past other hashes' slots), and each second one finds its first.
  constexpr uint64_t kCount = 300;
  BitWriter w;
  w.enterBlock(kModuleBlock, 3);
  w.record(1, {1});
  w.enterBlock(kTypeBlock, 4);
  w.record(1, {2 * kCount}); // NUMENTRY
  for (int pass = 0; pass < 2; ++pass)
    for (uint64_t bits = 1; bits <= kCount; ++bits)
      w.record(7, {pass ? kCount + 1 - bits : bits}); // the second time in reverse
  w.endBlock();
  w.endBlock();
  Expected<LlvmModule> m = readBitcode(w.bitcode());
  ASSERT_TRUE(m) << m.error().format();
  ASSERT_EQ(m->types.size(), kCount);
  for (uint64_t i = 0; i < kCount; ++i) {
    EXPECT_EQ(m->types[i].kind, TypeKind::Integer);
    EXPECT_EQ(m->types[i].bits, i + 1);
  }
}

TEST(DxilBitcodeReader, AbbreviatedStructNamesNameTheirStructs) {
  // STRUCT_NAME through its char6 abbreviation: the block's first read the general way (which
  // finds the abbreviation for the next ones), the next as bytes (readChars), an unabbreviated
  // one between them, and one longer than the bytes path takes (to the general path).
  auto char6 = [](char c) -> uint64_t {
    if (c >= 'a' && c <= 'z')
      return uint64_t(c - 'a');
    if (c >= 'A' && c <= 'Z')
      return uint64_t(c - 'A' + 26);
    if (c >= '0' && c <= '9')
      return uint64_t(c - '0' + 52);
    return c == '.' ? 62 : 63;
  };
  const std::string longName(300, 'q');
  const std::vector<std::string> names = {"dx.types.Handle", "S_1", "plain", "Zz9", longName, "x"};
  BitWriter w;
  w.enterBlock(kModuleBlock, 3);
  w.record(1, {1});
  w.enterBlock(kTypeBlock, 4);
  w.record(1, {names.size()});                // NUMENTRY
  w.defineAbbrev({{-1, 19}, {3, 0}, {4, 0}}); // 4: STRUCT_NAME [array of char6]
  for (size_t i = 0; i < names.size(); ++i) {
    if (i == 2) {
      w.record(19, chars(names[i])); // unabbreviated
    } else {
      w.fixed(4, 4);
      w.vbr(names[i].size(), 6);
      for (char c : names[i])
        w.fixed(char6(c), 6);
    }
    w.record(6, {}); // OPAQUE
  }
  w.endBlock();
  w.endBlock();
  Expected<LlvmModule> m = readBitcode(w.bitcode());
  ASSERT_TRUE(m) << m.error().format();
  ASSERT_EQ(m->types.size(), names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_TRUE(m->types[i].opaque);
    EXPECT_EQ(m->str(m->types[i].name), names[i]);
  }
}

TEST(DxilBitcodeReader, StructNamesOfTheFourthAbbreviationAndOthersThere) {
  // The type reader guesses STRUCT_NAME's abbreviation is the block's fourth (id 7, as LLVM's
  // writers define it) and checks it at its first record: names there from the first, and a
  // FUNCTION abbreviation there (its operands an array of fixed 8-bit fields, which readChars
  // takes for characters) read as a function type.
  auto char6 = [](char c) -> uint64_t { return uint64_t(c - 'a'); };
  for (const bool namesAt7 : {true, false}) {
    SCOPED_TRACE(namesAt7);
    BitWriter w;
    w.enterBlock(kModuleBlock, 3);
    w.record(1, {1});
    w.enterBlock(kTypeBlock, 4);
    w.record(1, {4});                           // NUMENTRY
    w.defineAbbrev({{-1, 19}, {3, 0}, {4, 0}}); // 4: STRUCT_NAME [array of char6]
    w.defineAbbrev({{-1, 2}});                  // 5: VOID
    w.defineAbbrev({{-1, 6}});                  // 6: OPAQUE
    if (namesAt7)
      w.defineAbbrev({{-1, 19}, {3, 0}, {4, 0}}); // 7: STRUCT_NAME [array of char6]
    else
      w.defineAbbrev({{-1, 21}, {3, 0}, {1, 8}}); // 7: FUNCTION [array: vararg, types]
    auto name = [&](uint32_t id, std::string_view text) {
      w.fixed(id, 4);
      w.vbr(text.size(), 6);
      for (char c : text)
        w.fixed(char6(c), 6);
    };
    w.fixed(5, 4); // void
    if (namesAt7) {
      name(7, "first");
      w.fixed(6, 4);
      name(7, "second");
      w.fixed(6, 4);
      name(4, "third");
      w.fixed(6, 4);
    } else {
      w.fixed(7, 4); // void (): [vararg 0, return type 0]
      w.vbr(2, 6);
      w.fixed(0, 8);
      w.fixed(0, 8);
      name(4, "first");
      w.fixed(6, 4);
      name(4, "second");
      w.fixed(6, 4);
    }
    w.endBlock();
    w.endBlock();
    Expected<LlvmModule> m = readBitcode(w.bitcode());
    ASSERT_TRUE(m) << m.error().format();
    ASSERT_EQ(m->types.size(), 4u);
    EXPECT_EQ(m->types[0].kind, TypeKind::Void);
    if (namesAt7) {
      EXPECT_EQ(m->str(m->types[1].name), "first");
      EXPECT_EQ(m->str(m->types[2].name), "second");
      EXPECT_EQ(m->str(m->types[3].name), "third");
    } else {
      EXPECT_EQ(m->types[1].kind, TypeKind::Function);
      EXPECT_EQ(m->str(m->types[2].name), "first");
      EXPECT_EQ(m->str(m->types[3].name), "second");
    }
  }
}

TEST(DxilBitcodeReader, TypeBlocksReadAgainGiveTheirOwnTypes) {
  // A type block equal to one read before, in a module without types, takes its tables from the
  // thread's memo: what it gives must be what a thread reading it first (which remembers
  // nothing) gives, for blocks differing in their first record or in a name, one record longer,
  // after other strings, with an abbreviation from BLOCKINFO, and with a BLOCKINFO block inside
  // (after NUMENTRY, or before it: the block's records then start with the BLOCKINFO block).
  struct Shape {
    uint64_t width = 32;
    std::string_view name = "dx.types.Handle";
    bool extra = false;             // one more type
    bool section = false;           // a string before the type block
    bool blockInfoForTypes = false; // BLOCKINFO gives the type block an abbreviation
    bool blockInfoInside = false;   // a BLOCKINFO block (for the constants) inside the types
    bool blockInfoFirst = false;    // the same, before NUMENTRY
  };
  auto build = [](const Shape &s) {
    BitWriter w;
    w.enterBlock(kModuleBlock, 3);
    w.record(1, {1});
    if (s.blockInfoForTypes) {
      w.enterBlock(0, 2);
      w.record(1, {kTypeBlock});
      w.defineAbbrev({{-1, 7}, {-1, 16}}); // i16, no fields
      w.endBlock();
    }
    if (s.section)
      w.record(5, chars("a.section"));
    w.enterBlock(kTypeBlock, 4);
    w.defineAbbrev({{-1, 7}, {1, 8}}); // INTEGER [fixed 8]
    if (s.blockInfoFirst) {
      w.enterBlock(0, 2);
      w.record(1, {kConstantsBlock});
      w.defineAbbrev({{-1, 4}, {1, 8}}); // INTEGER [fixed 8]
      w.endBlock();
    }
    w.record(1, {s.extra ? 5u : 4u}); // NUMENTRY
    w.fixed(4, 4);                    // the block's abbreviation (without BLOCKINFO's)
    w.fixed(s.width, 8);
    if (s.blockInfoInside) {
      w.enterBlock(0, 2);
      w.record(1, {kConstantsBlock});
      w.defineAbbrev({{-1, 4}, {1, 8}}); // INTEGER [fixed 8]
      w.endBlock();
    }
    w.record(19, chars(s.name)); // STRUCT_NAME
    w.record(20, {0, 0});        // %name = type { i<width> }
    w.record(8, {1, 0});         // %name*
    w.record(2, {});             // void
    if (s.extra)
      w.record(3, {}); // float
    w.endBlock();
    if (s.blockInfoInside || s.blockInfoFirst) {
      w.enterBlock(kConstantsBlock, 4);
      w.record(1, {0}); // SETTYPE i<width>
      w.fixed(4, 4);    // BLOCKINFO's abbreviation: INTEGER 6 (3)
      w.fixed(6, 8);
      w.endBlock();
    }
    w.endBlock();
    return w.bitcode();
  };
  auto describe = [](const std::vector<uint8_t> &bytes) {
    Expected<LlvmModule> m = readBitcode(bytes);
    if (!m)
      return m.error().format();
    std::string d = "strings '" + std::string(m->strings) + "'";
    for (TypeId id = 0; id < m->types.size(); ++id) {
      const Type &t = m->types[id];
      d += "\n" + std::to_string(int(t.kind)) + " " + std::to_string(t.bits) + " " +
           std::to_string(t.count) + " " + std::to_string(t.packed) + std::to_string(t.identified) +
           std::to_string(t.opaque) + " '" + std::string(m->str(t.name)) + "' @" +
           std::to_string(t.name.offset) + " {";
      for (TypeId e : m->elements(id))
        d += " " + std::to_string(e);
      d += " }";
    }
    for (const Constant &c : m->constants)
      d += "\nconstant " + std::to_string(c.type) + " " + std::to_string(c.bits);
    return d;
  };
  auto firstInThread = [&](const std::vector<uint8_t> &bytes) {
    std::string d;
    std::thread reader([&] { d = describe(bytes); });
    reader.join();
    return d;
  };
  std::vector<Shape> shapes(8);
  shapes[1].width = 31; // a difference in the first record
  shapes[2].name = "dx.types.HandlE";
  shapes[3].extra = true; // the remembered block is shorter than this one (and then longer)
  shapes[4].section = true;
  shapes[5].blockInfoForTypes = true;
  shapes[6].blockInfoInside = true;
  shapes[7].blockInfoFirst = true;
  std::vector<std::string> expected;
  for (const Shape &s : shapes)
    expected.push_back(firstInThread(build(s)));
  // What the shapes give, read first.
  EXPECT_NE(expected[0].find("'dx.types.Handle' @0 { 0 }"), std::string::npos) << expected[0];
  EXPECT_NE(expected[1].find("13 31 0"), std::string::npos) << expected[1];
  EXPECT_NE(expected[4].find("'dx.types.Handle' @9 { 0 }"), std::string::npos) << expected[4];
  EXPECT_EQ(expected[3].find("(read)"), std::string::npos);
  EXPECT_NE(expected[6].find("constant 0 3"), std::string::npos) << expected[6];
  EXPECT_NE(expected[7].find("constant 0 3"), std::string::npos) << expected[7];
  for (int pass = 0; pass < 3; ++pass)
    for (size_t i = 0; i < shapes.size(); ++i) {
      SCOPED_TRACE(i);
      EXPECT_EQ(describe(build(shapes[i])), expected[i]);
      EXPECT_EQ(describe(build(shapes[0])), expected[0]); // then the first again
    }
}

TEST(DxilBitcodeReader, TypeBlocksReadAgainGiveTheirTables) {
  // A type block from the thread's memo gives the reader the tables it built as well: the
  // bitcode type ids (SETTYPE, a global's type), the pointers in address space 0 (a global's
  // pointer found, not made again) and the interned literal types (a pointer in address space
  // 3 likewise), for two blocks taking turns in the memo's slots.
  auto build = [](uint64_t width) {
    BitWriter w;
    w.enterBlock(kModuleBlock, 3);
    w.record(1, {1});
    w.enterBlock(kTypeBlock, 4);
    w.record(1, {6});     // NUMENTRY
    w.record(3, {});      // 0: float
    w.record(7, {width}); // 1: i<width>
    w.record(8, {1, 0});  // 2: i<width>*
    w.record(11, {4, 1}); // 3: [4 x i<width>]
    w.record(8, {1, 3});  // 4: i<width> addrspace(3)*
    w.record(8, {3, 0});  // 5: [4 x i<width>]*
    w.endBlock();
    w.record(7, {1, 2, 0, 0, 0, 0});          // global i<width>
    w.record(7, {1, 3 << 2 | 2, 0, 0, 0, 0}); // global i<width>, address space 3
    w.record(7, {3, 2, 0, 0, 0, 0});          // global [4 x i<width>]
    w.record(7, {0, 2, 0, 0, 0, 0});          // global float (its pointer made now)
    w.enterBlock(kConstantsBlock, 4);
    w.record(1, {1});  // SETTYPE i<width>
    w.record(4, {10}); // INTEGER 5
    w.record(1, {0});  // SETTYPE float
    w.record(2, {});   // NULL
    w.record(1, {5});  // SETTYPE [4 x i<width>]*
    w.record(2, {});   // NULL
    w.endBlock();
    w.endBlock();
    return w.bitcode();
  };
  auto describe = [](const std::vector<uint8_t> &bytes) {
    Expected<LlvmModule> m = readBitcode(bytes);
    if (!m)
      return m.error().format();
    std::string d;
    for (TypeId id = 0; id < m->types.size(); ++id) {
      const Type &t = m->types[id];
      d += std::to_string(int(t.kind)) + " " + std::to_string(t.bits) + " " +
           std::to_string(t.count) + " {";
      for (TypeId e : m->elements(id))
        d += " " + std::to_string(e);
      d += " }\n";
    }
    for (const Value &v : m->values)
      d += "value " + std::to_string(int(v.kind)) + " " + std::to_string(v.type) + "\n";
    for (const Constant &c : m->constants)
      d += "constant " + std::to_string(c.type) + " " + std::to_string(c.bits) + "\n";
    return d;
  };
  auto firstInThread = [&](const std::vector<uint8_t> &bytes) {
    std::string d;
    std::thread reader([&] { d = describe(bytes); });
    reader.join();
    return d;
  };
  const std::string expected8 = firstInThread(build(8)), expected16 = firstInThread(build(16));
  // Read first: six types and one more (the float global's pointer), the globals' pointers
  // those of the block.
  EXPECT_EQ(expected8, "3 0 0 { }\n13 8 0 { }\n14 0 0 { 1 }\n15 0 4 { 1 }\n14 3 0 { 1 }\n"
                       "14 0 0 { 3 }\n14 0 0 { 0 }\nvalue 0 2\nvalue 0 4\nvalue 0 5\nvalue 0 6\n"
                       "value 3 1\nvalue 3 0\nvalue 3 5\nconstant 1 5\nconstant 0 0\n"
                       "constant 5 0\n");
  std::thread reader([&] {
    for (int pass = 0; pass < 3; ++pass) {
      SCOPED_TRACE(pass);
      EXPECT_EQ(describe(build(8)), expected8);
      EXPECT_EQ(describe(build(16)), expected16);
      EXPECT_EQ(describe(build(8)), expected8);
    }
  });
  reader.join();
}

TEST(DxilBitcodeReader, SymbolTablesReadAgainGiveTheirOwnNames) {
  // A module-level value symbol table equal to one read before, under the same BLOCKINFO block,
  // names its values from the thread's memo: what it gives must be what a thread reading it
  // first gives, for the same bytes under another BLOCKINFO definition, naming a value the
  // module lacks, and with a BLOCKINFO block inside.
  struct Shape {
    bool char6 = true;            // BLOCKINFO's VST_ENTRY: a char6 array (else fixed 6)
    uint64_t functions = 3;       // the values there are
    bool blockInfoInside = false; // a BLOCKINFO block (for the constants) inside the table
  };
  auto build = [](const Shape &s) {
    BitWriter w;
    w.enterBlock(kModuleBlock, 3);
    w.record(1, {1});
    w.enterBlock(0, 2);
    w.record(1, {kSymtabBlock});
    w.defineAbbrev({{-1, 1},
                    {1, 8},
                    {3, 0},
                    s.char6 ? std::pair<int, uint64_t>{4, 0} : std::pair<int, uint64_t>{1, 6}});
    w.endBlock();
    writeTypes(w);
    for (uint64_t i = 0; i < s.functions; ++i)
      w.record(8, {tVoidFn, 0, 1, 0, 0, 0, 0, 0});
    w.enterBlock(kSymtabBlock, 4);
    w.fixed(4, 4); // VST_ENTRY (BLOCKINFO's): value 0, two elements of six bits
    w.fixed(0, 8);
    w.vbr(2, 6);
    w.fixed(0, 6);
    w.fixed(1, 6);
    if (s.blockInfoInside) {
      w.enterBlock(0, 2);
      w.record(1, {kConstantsBlock});
      w.defineAbbrev({{-1, 4}, {1, 8}}); // INTEGER [fixed 8]
      w.endBlock();
    }
    w.record(1, withChars({1}, "g1"));
    w.record(1, withChars({2}, "h"));
    w.endBlock();
    if (s.blockInfoInside) {
      w.enterBlock(kConstantsBlock, 4);
      w.record(1, {tI32}); // SETTYPE i32
      w.fixed(4, 4);       // BLOCKINFO's abbreviation: INTEGER 6 (3)
      w.fixed(6, 8);
      w.endBlock();
    }
    w.endBlock();
    return w.bitcode();
  };
  auto describe = [](const std::vector<uint8_t> &bytes) {
    Expected<LlvmModule> m = readBitcode(bytes);
    if (!m)
      return m.error().format();
    std::string d = "strings";
    for (char c : m->strings)
      d += " " + std::to_string(int(c));
    for (size_t v = 0; v < m->values.size(); ++v) {
      d += "\n" + std::to_string(v) + " @" + std::to_string(m->values[v].name.offset) + ":";
      for (char c : m->str(m->values[v].name))
        d += " " + std::to_string(int(c));
    }
    for (const Constant &c : m->constants)
      d += "\nconstant " + std::to_string(c.type) + " " + std::to_string(c.bits);
    return d;
  };
  auto firstInThread = [&](const std::vector<uint8_t> &bytes) {
    std::string d;
    std::thread reader([&] { d = describe(bytes); });
    reader.join();
    return d;
  };
  std::vector<Shape> shapes(4);
  shapes[1].char6 = false; // the same table's bytes, other names
  shapes[2].functions = 2; // no value 2
  shapes[3].blockInfoInside = true;
  std::vector<std::string> expected;
  for (const Shape &s : shapes)
    expected.push_back(firstInThread(build(s)));
  // What the shapes give, read first.
  EXPECT_NE(expected[0].find("\n0 @0: 97 98\n1 @2: 103 49\n2 @4: 104"), std::string::npos)
      << expected[0];
  EXPECT_NE(expected[1].find("\n0 @0: 0 1\n1 @2: 103 49"), std::string::npos) << expected[1];
  EXPECT_NE(expected[2].find("name for value 2 that does not exist"), std::string::npos)
      << expected[2];
  EXPECT_NE(expected[3].find("constant 1 3"), std::string::npos) << expected[3];
  for (int pass = 0; pass < 3; ++pass)
    for (size_t i = 0; i < shapes.size(); ++i) {
      SCOPED_TRACE(i);
      EXPECT_EQ(describe(build(shapes[i])), expected[i]);
      EXPECT_EQ(describe(build(shapes[0])), expected[0]); // then the first again
    }
}

TEST(DxilBitcodeReader, DataConstantsOfZerosAreNull) {
  // As LLVM reads them: an all-zero DATA record is a zeroinitializer, with or without an
  // aggregate in its block.
  for (bool aggregate : {false, true}) {
    std::vector<uint8_t> bytes = module(2, {}, [=](BitWriter &w) {
      w.enterBlock(kConstants, 4);
      w.record(1, {tString});  // SETTYPE [3 x i8]
      w.record(22, {0, 0, 0}); // DATA: zeros
      w.record(22, {1, 0, 0}); // DATA: not all zeros
      if (aggregate) {
        w.record(1, {tArray}); // SETTYPE [2 x i32]
        w.record(1, {tI32});
        w.record(4, {2}); // i32 1
        w.record(1, {tArray});
        w.record(7, {2, 2}); // AGGREGATE [i32 1, i32 1] (value 2 twice)
      }
      w.endBlock();
    });
    Expected<LlvmModule> m = readBitcode(bytes);
    ASSERT_TRUE(m) << m.error().format();
    ASSERT_EQ(m->constants.size(), aggregate ? 4u : 2u);
    EXPECT_EQ(m->constants[0].kind, ConstantKind::Null) << aggregate;
    EXPECT_EQ(m->constants[1].kind, ConstantKind::Data) << aggregate;
  }
}

TEST(DxilBitcodeReader, EveryAggregateOfABlockIsMadeCanonical) {
  // Aggregates among other constants, each made canonical once the block is read: zeros become
  // a zeroinitializer, plain elements data.
  std::vector<uint8_t> bytes = module(2, {}, [](BitWriter &w) {
    w.enterBlock(kConstants, 4);
    w.record(1, {tI32});
    w.record(4, {0});      // 0: i32 0
    w.record(4, {2});      // 1: i32 1
    w.record(1, {tArray}); // SETTYPE [2 x i32]
    w.record(7, {0, 0});   // 2: [i32 0, i32 0]
    w.record(7, {1, 1});   // 3: [i32 1, i32 1]
    w.record(3, {});       // 4: undef
    w.record(7, {1, 0});   // 5: [i32 1, i32 0]
    w.record(7, {0, 0});   // 6: [i32 0, i32 0]
    w.record(1, {tI32});
    w.record(4, {14}); // 7: i32 7
    w.endBlock();
  });
  Expected<LlvmModule> m = readBitcode(bytes);
  ASSERT_TRUE(m) << m.error().format();
  ASSERT_EQ(m->constants.size(), 8u);
  const ConstantKind kinds[] = {ConstantKind::Integer, ConstantKind::Integer, ConstantKind::Null,
                                ConstantKind::Data,    ConstantKind::Undef,   ConstantKind::Data,
                                ConstantKind::Null,    ConstantKind::Integer};
  for (size_t i = 0; i < 8; ++i)
    EXPECT_EQ(m->constants[i].kind, kinds[i]) << i;
  EXPECT_EQ(m->constants[5].numWords, 2u);
  EXPECT_EQ(m->words[m->constants[5].firstWord], 1u);
  EXPECT_EQ(m->words[m->constants[5].firstWord + 1], 0u);
}

TEST(DxilBitcodeReader, IntegerConstantsKeepTheirWidthIndexAndValue) {
  // INTEGER records of integers up to 64 bits, NULL and UNDEF (read the short way) among others:
  // each value cut to its type's width, with its own index and value id.
  std::vector<uint8_t> bytes = module(2, {}, [](BitWriter &w) {
    w.enterBlock(kConstants, 4);
    w.record(1, {tI8});
    w.record(4, {3}); // 0: i8 -1
    w.record(1, {tI1});
    w.record(4, {3}); // 1: i1 -1 (true)
    w.record(2, {});  // 2: i1 0 (null)
    w.record(1, {tI32});
    w.record(4, {11});                // 3: i32 -5
    w.record(4, {uint64_t(1) << 33}); // 4: i32 2^32 (cut to 0)
    w.record(3, {});                  // 5: undef
    w.record(4, {14});                // 6: i32 7
    w.endBlock();
  });
  Expected<LlvmModule> m = readBitcode(bytes);
  ASSERT_TRUE(m) << m.error().format();
  ASSERT_EQ(m->constants.size(), 7u);
  const ConstantKind kinds[] = {ConstantKind::Integer, ConstantKind::Integer, ConstantKind::Null,
                                ConstantKind::Integer, ConstantKind::Integer, ConstantKind::Undef,
                                ConstantKind::Integer};
  const uint64_t bits[] = {0xFF, 1, 0, 0xFFFFFFFBu, 0, 0, 7};
  const uint32_t widths[] = {8, 1, 1, 32, 32, 32, 32};
  for (uint32_t i = 0; i < 7; ++i) {
    SCOPED_TRACE(i);
    const Constant &c = m->constants[i];
    EXPECT_EQ(c.kind, kinds[i]);
    EXPECT_EQ(c.bits, bits[i]);
    EXPECT_EQ(c.numWords, 0u);
    EXPECT_EQ(m->types[c.type].kind, TypeKind::Integer);
    EXPECT_EQ(m->types[c.type].bits, widths[i]);
    ASSERT_LT(c.value, m->values.size());
    EXPECT_EQ(m->values[c.value].kind, ValueKind::Constant);
    EXPECT_EQ(m->values[c.value].index, i);
    EXPECT_EQ(m->values[c.value].type, c.type);
    if (i) {
      EXPECT_EQ(c.value, m->constants[i - 1].value + 1);
    }
  }
}

TEST(DxilBitcodeReader, ConstantsAfterASelectThatMakesTypesKeepTheirType) {
  // A select of vectors makes its condition's type (<2 x i1>, new here), which can move the
  // type table; the constants after it, of the same SETTYPE, keep its type.
  std::vector<uint8_t> bytes = module(2, {}, [](BitWriter &w) {
    w.enterBlock(kConstants, 4);
    w.record(1, {tVector});  // SETTYPE <2 x i32>
    w.record(3, {});         // 0: undef
    w.record(13, {0, 0, 0}); // 1: select
    w.record(2, {});         // 2: zeroinitializer
    w.record(13, {0, 1, 2}); // 3: select
    w.record(1, {tI32});     // SETTYPE i32
    w.record(4, {10});       // 4: i32 5
    w.endBlock();
  });
  Expected<LlvmModule> m = readBitcode(bytes);
  ASSERT_TRUE(m) << m.error().format();
  ASSERT_EQ(m->constants.size(), 5u);
  const TypeId vector = m->constants[0].type;
  EXPECT_EQ(m->types[vector].kind, TypeKind::Vector);
  EXPECT_EQ(m->types[vector].count, 2u);
  const ConstantKind kinds[] = {ConstantKind::Undef, ConstantKind::Expr, ConstantKind::Null,
                                ConstantKind::Expr};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(m->constants[i].kind, kinds[i]) << i;
    EXPECT_EQ(m->constants[i].type, vector) << i;
  }
  EXPECT_EQ(m->constants[3].opcode, Opcode::Select);
  EXPECT_EQ(m->constants[4].kind, ConstantKind::Integer);
  EXPECT_EQ(m->constants[4].bits, 5u);
  bool conditionType = false; // <2 x i1>, made by the select
  for (const Type &t : m->types)
    conditionType =
        conditionType || (t.kind == TypeKind::Vector && t.count == 2 && t.numElements == 1 &&
                          m->types[m->typeElements[t.firstElement]].kind == TypeKind::Integer &&
                          m->types[m->typeElements[t.firstElement]].bits == 1);
  EXPECT_TRUE(conditionType);
}

TEST(DxilBitcodeReader, AttributeBlocksReadAgainGiveTheirOwnAttributes) {
  // Equal attribute blocks read in the same table state take what they add from the thread's
  // memo: the text is the block's own, and a list block is read against its own groups.
  auto withGroups = [](std::vector<uint64_t> group, std::string_view value,
                       std::string_view section = "") {
    return module(2, {}, [=](BitWriter &w) {
      if (!section.empty())
        w.record(5, chars(section)); // SECTIONNAME: strings before the attributes'
      w.enterBlock(kAttrGroups, 3);
      std::vector<uint64_t> g = group;
      g.push_back(4);
      for (char c : std::string("key"))
        g.push_back(uint8_t(c));
      g.push_back(0);
      for (char c : value)
        g.push_back(uint8_t(c));
      g.push_back(0);
      w.record(3, g);
      w.endBlock();
      w.enterBlock(kAttrLists, 3);
      w.record(2, {1});
      w.endBlock();
      w.record(8, {2, 0, 1, 0, 1, 0, 0, 0}); // declare void @1() #0
    });
  };
  const std::vector<uint64_t> readonly = {1, 0xFFFFFFFFu, 0, 21}; // group 1: fn readonly
  const std::vector<uint64_t> zeroextRet = {1, 0, 0, 34};         // group 1: ret zeroext
  auto text = [](const std::vector<uint8_t> &bytes) {
    Expected<LlvmModule> m = readBitcode(bytes);
    return m ? printLlvmModuleToString(*m) : m.error().format();
  };
  const std::string first = text(withGroups(readonly, "v1"));
  ASSERT_NE(first.find("declare void @f() #0\n"), std::string::npos) << first;
  ASSERT_NE(first.find("attributes #0 = { readonly \"key\"=\"v1\" }"), std::string::npos) << first;
  const std::string other = text(withGroups(readonly, "v2"));
  ASSERT_NE(other.find("\"key\"=\"v2\""), std::string::npos) << other;
  const std::string ret = text(withGroups(zeroextRet, "v1"));
  ASSERT_NE(ret.find("declare zeroext \"key\"=\"v1\" void @f()"), std::string::npos) << ret;
  for (int pass = 0; pass < 3; ++pass) {
    EXPECT_EQ(text(withGroups(readonly, "v1")), first);
    EXPECT_NE(text(withGroups(readonly, "v1", "a.section")).find("\"key\"=\"v1\""),
              std::string::npos);
    EXPECT_EQ(text(withGroups(readonly, "v2")), other);
    EXPECT_EQ(text(withGroups(zeroextRet, "v1")), ret);
  }
}

TEST(DxilBitcodeReader, CallsAreTypedWhenTheirFunctionTypeIsTheCallees) {
  // @f is i32 (i32); its body calls @f and returns %0.
  auto withCall = [](std::vector<uint64_t> call, uint64_t ret) {
    return module(3, [=](BitWriter &w) {
      w.record(1, {1});
      w.record(34, call);
      w.record(10, {ret});
    });
  };
  Expected<LlvmModule> typed = readBitcode(withCall({0, 0, 2, 1}, 2)); // call i32 @f(i32 %0)
  ASSERT_TRUE(typed) << typed.error().format();
  EXPECT_TRUE(typed->callsTyped);
  Expected<LlvmModule> same = readBitcode(withCall({0, 1 << 15, tI32FnI32, 2, 1}, 2));
  ASSERT_TRUE(same) << same.error().format();
  EXPECT_TRUE(same->callsTyped);
  // An explicit function type other than the callee's: read, but not vouched for.
  Expected<LlvmModule> other = readBitcode(withCall({0, 1 << 15, tVoidFn, 2}, 1));
  ASSERT_TRUE(other) << other.error().format();
  EXPECT_FALSE(other->callsTyped);
  LlvmModule copy = *typed;
  EXPECT_FALSE(copy.callsTyped);
  LlvmModule moved = std::move(*typed);
  EXPECT_TRUE(moved.callsTyped);
  copy = moved;
  EXPECT_FALSE(copy.callsTyped);
}

TEST(DxilBitcodeReader, CallsNamingTheirFunctionTypeAreReadAsAnyCall) {
  // @f is i32 (i32), @g (value 1) void (metadata). A call that names its function type (as DXC
  // writes them), whose callee has that type and whose record has exactly its arguments, takes
  // a shorter path; metadata parameters, forward references and other counts take the general
  // one, and both give the same.
  auto withBody = [](const Writes &body) {
    return module(3, body, {}, [](BitWriter &w) {
      w.record(8, {tVoidFnMd, 0, 1, 0, 0, 0, 0, 0}); // declare void @g(metadata)
      w.enterBlock(kMetadata, 3);
      w.record(1, chars("hi")); // !"hi": md 0
      w.endBlock();
    });
  };
  constexpr uint64_t kTyped = 1u << 15, kFastMath = 1u << 17;
  std::vector<uint8_t> bytes = withBody([&](BitWriter &w) {
    w.record(1, {1});
    w.record(34, {0, kTyped | kFastMath | 1, 1, tI32FnI32, 3, 1}); // %3 = tail call fast @f(%0)
    w.record(34, {0, kTyped, tVoidFnMd, 3, 4});                    // call @g(metadata !0)
    w.record(34, {0, kTyped, tI32FnI32, 4, 0xFFFFFFFFu});          // %4 = call @f(%5)
    w.record(2, {3, 1, 0});                                        // %5 = add %0, %4
    w.record(10, {1});                                             // ret %5
  });
  Expected<LlvmModule> m = readBitcode(bytes);
  ASSERT_TRUE(m) << m.error().format();
  EXPECT_TRUE(m->callsTyped);
  const Function &f = m->functions[0];
  ASSERT_EQ(f.numInstructions, 5u);
  const Instruction &first = m->instructions[f.firstInstruction];
  const Instruction &md = m->instructions[f.firstInstruction + 1];
  const Instruction &later = m->instructions[f.firstInstruction + 2];
  const Instruction &add = m->instructions[f.firstInstruction + 3];
  ASSERT_EQ(first.opcode, Opcode::Call);
  ASSERT_EQ(first.numOperands, 2u);
  EXPECT_EQ(m->operandsOf(first)[0], f.value);
  EXPECT_EQ(m->values[m->operandsOf(first)[1]].kind, ValueKind::Argument);
  EXPECT_EQ(first.tail, TailKind::Tail);
  EXPECT_NE(first.fastMath, 0);
  EXPECT_EQ(first.auxType, tI32FnI32);
  EXPECT_EQ(m->types[first.type].kind, TypeKind::Integer);
  EXPECT_NE(first.value, kNoId);
  ASSERT_EQ(md.numOperands, 2u);
  EXPECT_EQ(m->operandsOf(md)[0], m->functions[1].value);
  EXPECT_EQ(m->values[m->operandsOf(md)[1]].kind, ValueKind::Metadata);
  EXPECT_EQ(md.value, kNoId);
  ASSERT_EQ(later.numOperands, 2u);
  EXPECT_EQ(m->operandsOf(later)[1], add.value);
  EXPECT_EQ(m->operands[add.firstOperand + 1], later.value);
  // Read again (the thread's memos warm), the same.
  Expected<LlvmModule> again = readBitcode(bytes);
  ASSERT_TRUE(again) << again.error().format();
  EXPECT_EQ(printLlvmModuleToString(*again), printLlvmModuleToString(*m));
  // The general path's errors.
  auto errorWith = [&](std::vector<uint64_t> call) {
    return errorOf(withBody([=](BitWriter &w) {
      w.record(1, {1});
      w.record(34, call);
      w.record(10, {1});
    }));
  };
  EXPECT_NE(errorWith({0, kTyped, tI32FnI32, 3}).find("fewer arguments"), std::string::npos);
  EXPECT_NE(errorWith({0, kTyped, tI32FnI32, 3, 1, 1}).find("more arguments"), std::string::npos);
  EXPECT_NE(errorWith({0, kTyped, tI32FnI32, 3, 3}).find("has another type than its use"),
            std::string::npos);
  EXPECT_NE(errorWith({0, kTyped, tI32FnI32, 1, 1}).find("not a pointer"), std::string::npos);
  EXPECT_NE(errorWith({0, kTyped, tVoidFnMd, 2, 9}).find("refers to no metadata"),
            std::string::npos);
  EXPECT_NE(errorWith({0, kTyped, 99, 3, 1}).find("type id 99"), std::string::npos);
  EXPECT_NE(errorWith({0, kTyped | kFastMath, 1, tI32FnI32}).find("too short"), std::string::npos);
  // What a call of a callee found is remembered for it with the record's type and argument
  // count: another type or count after it is read as any call.
  auto secondCall = [&](std::vector<uint64_t> call) {
    return readBitcode(withBody([=](BitWriter &w) {
      w.record(1, {1});
      w.record(34, {0, kTyped, tI32FnI32, 3, 1}); // %3 = call @f(%0)
      w.record(34, call);
      w.record(10, {2});
    }));
  };
  Expected<LlvmModule> more = secondCall({0, kTyped, tI32FnI32, 4, 2, 2});
  ASSERT_FALSE(more);
  EXPECT_NE(more.error().format().find("more arguments"), std::string::npos);
  Expected<LlvmModule> otherType = secondCall({0, kTyped, tVoidFn, 4});
  ASSERT_TRUE(otherType) << otherType.error().format();
  EXPECT_FALSE(otherType->callsTyped);
  Expected<LlvmModule> otherParameter = secondCall({0, kTyped, tI32FnPtr, 4, 2}); // (i32* %0)
  ASSERT_FALSE(otherParameter);
  EXPECT_NE(otherParameter.error().format().find("has another type"), std::string::npos);
  // The instruction is remembered with the record's attribute list and calling convention
  // field too: a call with other ones is checked again and gets its own.
  Expected<LlvmModule> tail = secondCall({0, kTyped | 1, tI32FnI32, 4, 2}); // tail call
  ASSERT_TRUE(tail) << tail.error().format();
  const uint32_t firstCall = tail->functions[0].firstInstruction;
  EXPECT_EQ(tail->instructions[firstCall].tail, TailKind::None);
  EXPECT_EQ(tail->instructions[firstCall + 1].tail, TailKind::Tail);
  Expected<LlvmModule> conv = secondCall({0, kTyped | 9u << 1, tI32FnI32, 4, 2}); // cc 9
  ASSERT_TRUE(conv) << conv.error().format();
  EXPECT_EQ(conv->instructions[firstCall].callingConv, 0u);
  EXPECT_EQ(conv->instructions[firstCall + 1].callingConv, 9u);
  Expected<LlvmModule> attrs = secondCall({1, kTyped, tI32FnI32, 4, 2}); // (no list 1)
  ASSERT_FALSE(attrs);
  EXPECT_NE(attrs.error().format().find("attribute list index out of range"), std::string::npos);
}

TEST(DxilBitcodeReader, TypedCallsDecodedFromTheirBitsAreReadAsAnyCall) {
  // A typed call of a callee checked before is decoded straight from the record's bits; fields
  // of one to three chunks (relative ids past 31 and 1023: 1,100 module constants), a calling
  // convention field other than DXC's, and records near the data's end (where each field is
  // tested against it) or away from it (an unknown block after the body) give what the general
  // path gives, and any other call (a forward reference, an argument of another type, too few
  // or too many arguments) is read by the general path from the record's first field.
  constexpr uint64_t kTyped = 1u << 15;
  constexpr uint64_t kConstantCount = 1100;
  // @f is value 0, i32 k - 1 value k up to 1060, @g (declared, i32 (i32)) 1061, the other
  // 40 constants 1062..1101, float 1.0 1102, @h (as @g) 1103, %0 1104: the body's first value
  // is 1105.
  constexpr uint64_t kSplit = 1060, kG = kSplit + 1, kFloat = kConstantCount + 2,
                     kH = kConstantCount + 3, kArg = kConstantCount + 4,
                     kFirst = kConstantCount + 5;
  auto withBody = [&](bool padded, const Writes &body) {
    return module(
        tI32FnI32,
        [=](BitWriter &w) {
          body(w);
          if (padded) { // (an unknown block: skipped)
            w.enterBlock(99, 4);
            for (int k = 0; k < 64; ++k)
              w.record(1, {uint64_t(k), 1u << 20});
            w.endBlock();
          }
        },
        {},
        [&](BitWriter &w) {
          w.enterBlock(kConstants, 4);
          w.record(1, {tI32});
          for (uint64_t k = 0; k < kConstantCount; ++k) {
            if (k == kSplit) { // declare i32 @g(i32)
              w.endBlock();
              w.record(8, {tI32FnI32, 0, 1, 0, 0, 0, 0, 0});
              w.enterBlock(kConstants, 4);
              w.record(1, {tI32});
            }
            w.record(4, {k << 1}); // i32 k
          }
          w.record(1, {tFloat});
          w.record(6, {0x3F800000}); // float 1.0
          w.endBlock();
          w.record(8, {tI32FnI32, 0, 1, 0, 0, 0, 0, 0}); // declare i32 @h(i32)
        });
  };
  // The fields of a call at value `at` of `callee` with `arg` (ids relative to `at`).
  auto call = [](uint64_t cc, uint64_t at, uint64_t callee, uint64_t arg) {
    return std::vector<uint64_t>{0, cc, tI32FnI32, at - callee, uint64_t(uint32_t(at - arg))};
  };
  auto calls = [&](BitWriter &w) {
    w.record(1, {1});
    w.record(34, call(kTyped, kFirst, 0, kArg));            // call @f(%0)
    w.record(34, call(kTyped, kFirst + 1, kH, 8));          // call @h(i32 7): 3 chunks
    w.record(34, call(kTyped, kFirst + 2, kH, 1051));       // call @h(i32 1050): 2 chunks
    w.record(34, call(kTyped | 1, kFirst + 3, kH, 21));     // tail call @h(i32 20)
    w.record(34, call(kTyped, kFirst + 4, kH, kFirst + 5)); // a forward reference
    w.record(34, call(kTyped, kFirst + 5, 0, kFirst + 4));  // call @f(the one before)
    w.record(34, call(kTyped, kFirst + 6, kG, kArg));       // call @g(%0)
    w.record(34, call(kTyped, kFirst + 7, kG, kFirst + 6)); // call @g(the one before)
    w.record(34, call(kTyped, kFirst + 8, kH, kFirst + 7)); // call @h(the one before)
    w.record(10, {kFirst + 9 - (kFirst + 2)});              // ret the third
  };
  std::string texts[2];
  for (int padded = 0; padded < 2; ++padded) {
    SCOPED_TRACE(padded);
    for (int pass = 0; pass < 2; ++pass) { // (the second with the thread's memos warm)
      Expected<LlvmModule> m = readBitcode(withBody(padded, calls));
      ASSERT_TRUE(m) << m.error().format();
      EXPECT_TRUE(m->callsTyped);
      const Function &f = m->functions[0];
      ASSERT_EQ(m->functions.size(), 3u);
      const ValueId g = m->functions[1].value, h = m->functions[2].value;
      ASSERT_EQ(f.numInstructions, 10u);
      const Instruction *ins = &m->instructions[f.firstInstruction];
      const uint64_t args[9] = {kArg,       8,    1051,       21,        kFirst + 5,
                                kFirst + 4, kArg, kFirst + 6, kFirst + 7};
      const ValueId callees[9] = {f.value, h, h, h, h, f.value, g, g, h};
      for (int k = 0; k < 9; ++k) {
        SCOPED_TRACE(k);
        ASSERT_EQ(ins[k].opcode, Opcode::Call);
        ASSERT_EQ(ins[k].numOperands, 2u);
        EXPECT_EQ(m->operandsOf(ins[k])[0], callees[k]);
        EXPECT_EQ(ins[k].tail, k == 3 ? TailKind::Tail : TailKind::None);
        EXPECT_EQ(ins[k].auxType, tI32FnI32);
        EXPECT_EQ(m->values[ins[k].value].type, tI32);
        const ValueId arg = m->operandsOf(ins[k])[1];
        if (args[k] == kArg) {
          EXPECT_EQ(m->values[arg].kind, ValueKind::Argument);
        } else if (args[k] < kFirst) {
          int64_t v = -1;
          EXPECT_TRUE(m->constantInt(arg, v));
          EXPECT_EQ(uint64_t(v), args[k] - 1);
        } else {
          EXPECT_EQ(arg, ins[args[k] - kFirst].value);
        }
      }
      texts[padded] = printLlvmModuleToString(*m);
    }
  }
  EXPECT_EQ(texts[0], texts[1]);
  EXPECT_NE(texts[0].find("%5 = tail call i32 @1(i32 20)"), std::string::npos) << texts[0];
  EXPECT_NE(texts[0].find("%9 = call i32 @0(i32 %8)"), std::string::npos) << texts[0];
  // Errors, as the general path gives them, both near the data's end and away from it.
  for (int padded = 0; padded < 2; ++padded) {
    SCOPED_TRACE(padded);
    auto errorWith = [&](std::vector<uint64_t> fields) {
      return errorOf(withBody(padded, [=](BitWriter &w) {
        w.record(1, {1});
        w.record(34, call(kTyped, kFirst, kH, kArg)); // (remembers @h)
        w.record(34, fields);
        w.record(10, {1});
      }));
    };
    const uint64_t hRel = kFirst + 1 - kH;
    EXPECT_NE(errorWith(call(kTyped, kFirst + 1, kH, kFloat)).find("has another type than its use"),
              std::string::npos);
    EXPECT_NE(errorWith({0, kTyped, tI32FnI32, hRel}).find("fewer arguments"), std::string::npos);
    EXPECT_NE(errorWith({0, kTyped, tI32FnI32, hRel, 1, 1}).find("more arguments"),
              std::string::npos);
    EXPECT_NE(errorWith({0, kTyped, tI32FnI32, hRel, 5000}).find("refers to no value"),
              std::string::npos); // (a forward reference never defined)
    EXPECT_NE(errorWith({0, kTyped, tI32FnI32, kFirst + 5, 1}).find("not a pointer"),
              std::string::npos); // (a callee past the values read)
  }
  // A call whose record runs past its block's declared end (cut inside it; the data goes on).
  size_t lengthAt = 0, cutWord = 0;
  std::vector<uint8_t> cut = withBody(true, [&](BitWriter &w) {
    lengthAt = w.bytes().size() - 4; // (the block's length word, just written)
    w.record(1, {1});
    w.record(34, call(kTyped, kFirst, kH, kArg));
    cutWord = (w.bytes().size() + 3) / 4; // (a word boundary inside the next record)
    w.record(34, call(kTyped, kFirst + 1, kH, 8));
    w.record(10, {1});
  });
  const uint32_t words = uint32_t(cutWord - (lengthAt + 4) / 4);
  for (int i = 0; i < 4; ++i)
    cut[4 + lengthAt + i] = uint8_t(words >> (8 * i));
  EXPECT_NE(errorOf(cut).find("FUNCTION_BLOCK record 2"), std::string::npos) << errorOf(cut);
  EXPECT_NE(errorOf(cut).find("record runs past the end of its block"), std::string::npos);
}

TEST(DxilBitcodeReader, AbbreviatedBinopsAreReadAsAnyBinop) {
  // BINOP records of LLVM's abbreviations ([BINOP, vbr6, vbr6, fixed4] and with fixed7 flags)
  // are decoded straight from their bits when both operands are read already; the same records
  // unabbreviated, or of another abbreviation, or with a forward reference, give the same.
  // @f is i32 (i32) (value 0), i32 k value k + 1 (k < 40), float 1.0 value 41, %0 value 42.
  constexpr uint64_t kFloat = 41, kArg = 42, kFirst = 43;
  enum : uint32_t { kPlain = 4, kFlags, kOther };
  auto withBody = [&](const Writes &body) {
    return module(tI32FnI32, body, {}, [&](BitWriter &w) {
      w.enterBlock(kConstants, 4);
      w.record(1, {tI32});
      for (uint64_t k = 0; k < 40; ++k)
        w.record(4, {k << 1});
      w.record(1, {tFloat});
      w.record(6, {0x3F800000});
      w.endBlock();
    });
  };
  // A binop at value `at` of values `a` and `b` with `code` (and `flags` when not ~0), through
  // abbreviation `abbrev` (kOther's opcode is 3 bits; 3: unabbreviated).
  auto binop = [](BitWriter &w, uint32_t abbrev, uint64_t at, uint64_t a, uint64_t b, uint64_t code,
                  uint64_t flags = ~uint64_t(0)) {
    const uint64_t ra = uint32_t(at - a), rb = uint32_t(at - b);
    if (abbrev == 3) {
      if (flags == ~uint64_t(0))
        w.record(2, {ra, rb, code});
      else
        w.record(2, {ra, rb, code, flags});
      return;
    }
    w.fixed(abbrev, w.width());
    w.vbr(ra, 6);
    w.vbr(rb, 6);
    w.fixed(code, abbrev == kOther ? 3 : 4);
    if (abbrev == kFlags)
      w.fixed(flags, 7);
  };
  auto defineAbbrevs = [](BitWriter &w) {
    w.defineAbbrev({{-1, 2}, {2, 6}, {2, 6}, {1, 4}});         // kPlain
    w.defineAbbrev({{-1, 2}, {2, 6}, {2, 6}, {1, 4}, {1, 7}}); // kFlags
    w.defineAbbrev({{-1, 2}, {2, 6}, {2, 6}, {1, 3}});         // kOther
  };
  auto body = [&](bool abbreviated) {
    return withBody([=](BitWriter &w) {
      defineAbbrevs(w);
      w.record(1, {1});
      auto use = [&](uint32_t abbrev) { return abbreviated ? abbrev : 3u; };
      binop(w, use(kPlain), kFirst, kArg, 6, 0);                    // add %0, i32 5
      binop(w, use(kFlags), kFirst + 1, kFirst, kArg, 0, 3);        // add nuw nsw
      binop(w, use(kFlags), kFirst + 2, kFloat, kFloat, 0, 1);      // fadd fast
      binop(w, use(kPlain), kFirst + 3, kFirst + 1, kFirst + 4, 1); // sub (forward)
      binop(w, use(kOther), kFirst + 4, kArg, 6, 2);                // mul
      w.record(10, {2});                                            // ret the sub
    });
  };
  std::string texts[2];
  for (int abbreviated = 0; abbreviated < 2; ++abbreviated) {
    SCOPED_TRACE(abbreviated);
    for (int pass = 0; pass < 2; ++pass) {
      Expected<LlvmModule> m = readBitcode(body(abbreviated));
      ASSERT_TRUE(m) << m.error().format();
      const Function &f = m->functions[0];
      ASSERT_EQ(f.numInstructions, 6u);
      const Instruction *ins = &m->instructions[f.firstInstruction];
      const Opcode ops[5] = {Opcode::Add, Opcode::Add, Opcode::FAdd, Opcode::Sub, Opcode::Mul};
      for (int k = 0; k < 5; ++k) {
        SCOPED_TRACE(k);
        EXPECT_EQ(ins[k].opcode, ops[k]);
        ASSERT_EQ(ins[k].numOperands, 2u);
        EXPECT_EQ(m->values[ins[k].value].type, k == 2 ? tFloat : tI32);
      }
      EXPECT_EQ(m->operandsOf(ins[1])[0], ins[0].value);
      EXPECT_EQ(m->operandsOf(ins[3])[1], ins[4].value);
      EXPECT_EQ(ins[0].flags, 0);
      EXPECT_NE(ins[1].flags, 0);
      EXPECT_NE(ins[2].fastMath, 0);
      texts[abbreviated] = printLlvmModuleToString(*m);
    }
  }
  EXPECT_EQ(texts[0], texts[1]);
  EXPECT_NE(texts[1].find("%3 = add nuw nsw i32 %2, %0"), std::string::npos) << texts[1];
  EXPECT_NE(texts[1].find("%2 = add i32 %0, 5"), std::string::npos) << texts[1];
  // Errors, as the general path gives them (their bits aside).
  auto errorWith = [&](bool abbreviated, uint64_t a, uint64_t b, uint64_t code) {
    std::string e = errorOf(withBody([=](BitWriter &w) {
      defineAbbrevs(w);
      w.record(1, {1});
      binop(w, abbreviated ? kPlain : 3u, kFirst, a, b, code);
      w.record(10, {1});
    }));
    return withoutBit(e);
  };
  for (auto [a, b, code] : {std::tuple<uint64_t, uint64_t, uint64_t>{kArg, kFloat, 0},
                            {kArg, 6, 13},
                            {kFloat, kFloat, 7},
                            {kArg, 0, 0}}) {
    SCOPED_TRACE(code);
    const std::string general = errorWith(false, a, b, code);
    EXPECT_NE(general, "(read)");
    EXPECT_EQ(errorWith(true, a, b, code), general);
  }
}

TEST(DxilBitcodeReader, ExtractValuesOfStructsReadAlready) {
  // EXTRACTVAL [aggregate, index] of a struct read already is decoded straight from its bits:
  // an aggregate one or two chunks back, each member; an index past the members, and an
  // aggregate that is not a struct, take the general path and its messages.
  // @f is i32 (i32) (value 0), undef { i32, float } value 1, i32 k value k + 2 (k < 40),
  // undef <2 x i32> value 42, %0 value 43: the body's first value is 44.
  constexpr uint64_t kVector = 42, kArg = 43, kFirst = 44;
  auto withBody = [&](const Writes &body) {
    return module(tI32FnI32, body, {}, [&](BitWriter &w) {
      w.enterBlock(kConstants, 4);
      w.record(1, {tStruct});
      w.record(3, {}); // undef
      w.record(1, {tI32});
      for (uint64_t k = 0; k < 40; ++k)
        w.record(4, {k << 1});
      w.record(1, {tVector});
      w.record(3, {}); // undef
      w.endBlock();
    });
  };
  for (int pass = 0; pass < 2; ++pass) {
    Expected<LlvmModule> m = readBitcode(withBody([](BitWriter &w) {
      w.record(1, {1});
      w.record(26, {kFirst - 1, 0});     // %43 = extractvalue undef, 0 (two chunks back)
      w.record(26, {kFirst + 1 - 1, 1}); // %44 = extractvalue undef, 1
      w.record(2, {2, 3, 0});            // %45 = add %43, %0
      w.record(10, {1});                 // ret %45
    }));
    ASSERT_TRUE(m) << m.error().format();
    const Function &f = m->functions[0];
    ASSERT_EQ(f.numInstructions, 4u);
    const Instruction *ins = &m->instructions[f.firstInstruction];
    for (int k = 0; k < 2; ++k) {
      SCOPED_TRACE(k);
      EXPECT_EQ(ins[k].opcode, Opcode::ExtractValue);
      ASSERT_EQ(ins[k].numOperands, 1u);
      EXPECT_EQ(m->values[m->operandsOf(ins[k])[0]].type, tStruct);
      ASSERT_EQ(ins[k].numWords, 1u);
      EXPECT_EQ(m->words[ins[k].firstWord], uint64_t(k));
      EXPECT_EQ(ins[k].type, k == 0 ? tI32 : tFloat);
      ASSERT_NE(ins[k].value, kNoId);
      EXPECT_EQ(m->values[ins[k].value].type, ins[k].type);
    }
    EXPECT_EQ(m->operandsOf(ins[2])[0], ins[0].value);
    const std::string text = printLlvmModuleToString(*m);
    EXPECT_NE(text.find("%3 = extractvalue { i32, float } undef, 1"), std::string::npos) << text;
  }
  auto errorWith = [&](std::vector<uint64_t> fields) {
    return errorOf(withBody([=](BitWriter &w) {
      w.record(1, {1});
      w.record(26, fields);
      w.record(10, {1});
    }));
  };
  EXPECT_NE(errorWith({kFirst - 1, 2}).find("past the struct's members"), std::string::npos);
  EXPECT_NE(errorWith({kFirst - kArg, 0}).find("not an aggregate"), std::string::npos);
  EXPECT_NE(errorWith({kFirst - kVector, 0}).find("not an aggregate"), std::string::npos);
}

TEST(DxilBitcodeReader, AbbreviatedCastsAreReadAsAnyCast) {
  // CAST records of LLVM's abbreviation [CAST, vbr6, fixed type, fixed4 opcode] give what the
  // same records unabbreviated give: values one or two chunks back, and the general path's
  // errors (an undefined type, an unknown opcode).
  // @f is i32 (i32) (value 0), i32 k value k + 1 (k < 40), %0 value 41: the body's first
  // value is 42.
  constexpr uint64_t kArg = 41, kFirst = 42;
  auto withBody = [&](const Writes &body) {
    return module(tI32FnI32, body, {}, [&](BitWriter &w) {
      w.enterBlock(kConstants, 4);
      w.record(1, {tI32});
      for (uint64_t k = 0; k < 40; ++k)
        w.record(4, {k << 1});
      w.endBlock();
    });
  };
  // A cast at value `at` of value `v` to type `ty` with `code`, abbreviated (id 4) or not.
  auto cast = [](BitWriter &w, bool abbreviated, uint64_t at, uint64_t v, uint64_t ty,
                 uint64_t code) {
    if (!abbreviated)
      return w.record(3, {at - v, ty, code});
    w.fixed(4, w.width());
    w.vbr(at - v, 6);
    w.fixed(ty, 5);
    w.fixed(code, 4);
  };
  auto body = [&](bool abbreviated, uint64_t ty, uint64_t code) {
    return withBody([=](BitWriter &w) {
      w.defineAbbrev({{-1, 3}, {2, 6}, {1, 5}, {1, 4}}); // 4: CAST
      w.record(1, {1});
      cast(w, abbreviated, kFirst, kArg, tFloat, 5);      // %42 = uitofp i32 %0 to float
      cast(w, abbreviated, kFirst + 1, 3, ty, code);      // %43 = <code> i32 2 to <ty>
      cast(w, abbreviated, kFirst + 2, kFirst, tI32, 11); // %44 = bitcast float %42 to i32
      w.record(10, {1});
    });
  };
  for (auto [ty, code] : {std::pair<uint64_t, uint64_t>{tFloat, 6}, {tI8, 0}, {30, 0}, {tI8, 13}}) {
    SCOPED_TRACE(code);
    std::string texts[2];
    for (int abbreviated = 0; abbreviated < 2; ++abbreviated) {
      Expected<LlvmModule> m = readBitcode(body(abbreviated, ty, code));
      if (!m) {
        texts[abbreviated] = withoutBit(m.error().format()); // (the same but for the bit)
        continue;
      }
      const Function &f = m->functions[0];
      ASSERT_EQ(f.numInstructions, 4u);
      const Instruction *ins = &m->instructions[f.firstInstruction];
      EXPECT_EQ(ins[0].opcode, Opcode::UIToFP);
      EXPECT_EQ(ins[0].type, tFloat);
      EXPECT_EQ(m->values[m->operandsOf(ins[0])[0]].kind, ValueKind::Argument);
      EXPECT_EQ(ins[1].type, ty);
      EXPECT_EQ(ins[2].opcode, Opcode::BitCast);
      ASSERT_EQ(ins[2].numOperands, 1u);
      EXPECT_EQ(m->operandsOf(ins[2])[0], ins[0].value);
      EXPECT_NE(ins[2].value, kNoId);
      texts[abbreviated] = printLlvmModuleToString(*m);
    }
    EXPECT_EQ(texts[0], texts[1]);
    if (code == 6) {
      EXPECT_NE(texts[1].find("%3 = sitofp i32 2 to float"), std::string::npos) << texts[1];
    }
  }
}

TEST(DxilBitcodeReader, AbbreviatedLoadsAreReadAsAnyLoad) {
  // LOAD records of LLVM's abbreviation [LOAD, vbr6, fixed type, vbr4 alignment, fixed1
  // volatile] give what the same records unabbreviated give: a pointer two chunks back,
  // alignments of one and two chunks, volatile, and the general path's errors (an undefined
  // type, an alignment too large).
  // @f is i32 (i32*) (value 0), %0 value 1, the function's constants (i32 k) 2..41: the body's
  // first value is 42.
  constexpr uint64_t kArg = 1, kFirst = 42;
  auto load = [](BitWriter &w, bool abbreviated, uint64_t at, uint64_t ptr, uint64_t ty,
                 uint64_t exponent, uint64_t isVolatile) {
    if (!abbreviated)
      return w.record(20, {at - ptr, ty, exponent, isVolatile});
    w.fixed(4, w.width());
    w.vbr(at - ptr, 6);
    w.fixed(ty, 5);
    w.vbr(exponent, 4);
    w.fixed(isVolatile, 1);
  };
  auto body = [&](bool abbreviated, uint64_t ty, uint64_t exponent) {
    return module(tI32FnPtr, [=](BitWriter &w) {
      w.defineAbbrev({{-1, 20}, {2, 6}, {1, 5}, {2, 4}, {1, 1}}); // 4: LOAD
      w.record(1, {1});
      w.enterBlock(kConstants, 4);
      w.record(1, {tI32});
      for (uint64_t k = 0; k < 40; ++k)
        w.record(4, {k << 1});
      w.endBlock();
      load(w, abbreviated, kFirst, kArg, tI32, 3, 0);          // load i32, ptr %0, align 4
      load(w, abbreviated, kFirst + 1, kArg, tI32, 4, 1);      // load volatile, align 8
      load(w, abbreviated, kFirst + 2, kArg, ty, exponent, 0); // the case
      w.record(10, {3});                                       // ret the first
    });
  };
  for (auto [ty, exponent] :
       {std::pair<uint64_t, uint64_t>{tI32, 9}, {tI32, 0}, {tI32, 40}, {30, 1}}) {
    SCOPED_TRACE(exponent);
    std::string texts[2];
    for (int abbreviated = 0; abbreviated < 2; ++abbreviated) {
      Expected<LlvmModule> m = readBitcode(body(abbreviated, ty, exponent));
      if (!m) {
        texts[abbreviated] = withoutBit(m.error().format()); // (the same but for the bit)
        continue;
      }
      const Function &f = m->functions[0];
      ASSERT_EQ(f.numInstructions, 4u);
      const Instruction *ins = &m->instructions[f.firstInstruction];
      for (int k = 0; k < 3; ++k) {
        SCOPED_TRACE(k);
        EXPECT_EQ(ins[k].opcode, Opcode::Load);
        EXPECT_EQ(ins[k].type, tI32);
        ASSERT_EQ(ins[k].numOperands, 1u);
        EXPECT_EQ(m->values[m->operandsOf(ins[k])[0]].kind, ValueKind::Argument);
        EXPECT_EQ((ins[k].flags & kFlagVolatile) != 0, k == 1);
      }
      EXPECT_EQ(ins[0].align, 4u);
      EXPECT_EQ(ins[1].align, 8u);
      EXPECT_EQ(ins[2].align, exponent ? uint64_t(1) << (exponent - 1) : 0u);
      texts[abbreviated] = printLlvmModuleToString(*m);
    }
    EXPECT_EQ(texts[0], texts[1]);
    if (exponent == 9) {
      EXPECT_NE(texts[1].find("%4 = load i32, i32* %0, align 256"), std::string::npos) << texts[1];
    }
  }
}

TEST(DxilBitcodeReader, AbbreviatedGepsAreReadAsAnyGep) {
  // GEP records of LLVM's abbreviation [GEP, fixed1 inbounds, fixed type, array of vbr6] give
  // what the same records unabbreviated give: operands one and two chunks back, struct
  // indices, and the general path's errors and forward references.
  // @f is i32 (i32*) (value 0), %0 value 1, the function's constants (i32 k) 2..41: the body's
  // first value is 42.
  constexpr uint64_t kArg = 1, kFirst = 42;
  auto gep = [](BitWriter &w, bool abbreviated, uint64_t inbounds, uint64_t ty,
                std::vector<uint64_t> fields) {
    if (!abbreviated) {
      fields.insert(fields.begin(), {inbounds, ty});
      return w.record(43, fields);
    }
    w.fixed(4, w.width());
    w.fixed(inbounds, 1);
    w.fixed(ty, 5);
    w.vbr(fields.size(), 6);
    for (uint64_t f : fields)
      w.vbr(f, 6);
  };
  auto body = [&](bool abbreviated, uint64_t ty, std::vector<uint64_t> fields) {
    return module(tI32FnPtr, [=](BitWriter &w) {
      w.defineAbbrev({{-1, 43}, {1, 1}, {1, 5}, {3, 0}, {2, 6}}); // 4: GEP
      w.record(1, {1});
      w.enterBlock(kConstants, 4);
      w.record(1, {tI32});
      for (uint64_t k = 0; k < 40; ++k)
        w.record(4, {k << 1});
      w.endBlock();
      // %42 = getelementptr inbounds i32, i32* %0, i32 5 (two chunks back)
      gep(w, abbreviated, 1, tI32, {kFirst - kArg, kFirst - 7});
      gep(w, abbreviated, 0, ty, fields); // the case, at %43
      w.record(10, {kFirst + 2 - 2});     // ret the constant i32 0 (value 2)
    });
  };
  const uint64_t at = kFirst + 1;
  const std::vector<std::pair<uint64_t, std::vector<uint64_t>>> cases = {
      {tI32, {at - kArg, at - 3}},                 // i32* %0, i32 1
      {tStruct, {at - kArg, at - 2, at - 3}},      // { i32, float }, i32 0, i32 1
      {tStruct, {at - kArg, at - 2, at - kFirst}}, // a struct index not a constant
      {30, {at - kArg, at - 3}},                   // an undefined type
      {tI32, {at - kArg, uint32_t(-1), tI32}},     // a forward reference (never defined)
      {tI32, {at - kArg}}};                        // no indices
  for (size_t c = 0; c < cases.size(); ++c) {
    SCOPED_TRACE(c);
    std::string texts[2];
    for (int abbreviated = 0; abbreviated < 2; ++abbreviated) {
      Expected<LlvmModule> m = readBitcode(body(abbreviated, cases[c].first, cases[c].second));
      if (!m) {
        texts[abbreviated] = withoutBit(m.error().format()); // (the same but for the bit)
        continue;
      }
      const Function &f = m->functions[0];
      ASSERT_EQ(f.numInstructions, 3u);
      const Instruction &first = m->instructions[f.firstInstruction];
      EXPECT_EQ(first.opcode, Opcode::GetElementPtr);
      EXPECT_NE(first.flags & kFlagInBounds, 0);
      EXPECT_EQ(first.auxType, tI32);
      EXPECT_EQ(first.type, tI32Ptr);
      ASSERT_EQ(first.numOperands, 2u);
      EXPECT_EQ(m->values[m->operandsOf(first)[0]].kind, ValueKind::Argument);
      texts[abbreviated] = printLlvmModuleToString(*m);
    }
    EXPECT_EQ(texts[0], texts[1]);
    if (c == 1) {
      EXPECT_NE(texts[1].find("getelementptr { i32, float }, i32* %0, i32 0, i32 1"),
                std::string::npos)
          << texts[1];
    }
  }
}

TEST(DxilBitcodeReader, BranchesEndTheirBlocks) {
  // BR [block] and [true block, false block, i1 condition] (decoded from their bits when the
  // blocks are in range and the condition an i1 read already) end their blocks; the general
  // path's errors and forward references stay its own.
  // @f is void () (value 0); the body's first value is 1: %1 = icmp eq i32 0, i32 0 ... with
  // the constants i32 0 (value 1) and i32 1 (value 2) in the function.
  auto withBranch = [](std::vector<uint64_t> br) {
    return module(tVoidFn, [=](BitWriter &w) {
      w.record(1, {3});
      w.enterBlock(kConstants, 4);
      w.record(1, {tI32});
      w.record(4, {0}); // i32 0: value 1
      w.record(4, {2}); // i32 1: value 2
      w.endBlock();
      w.record(28, {2, 1, 32}); // %3 = icmp eq i32 0, i32 1
      w.record(11, br);         // block 0's branch
      w.record(11, {2});        // block 1: br label 2
      w.record(10, {});         // block 2: ret void
    });
  };
  for (int pass = 0; pass < 2; ++pass) {
    Expected<LlvmModule> m = readBitcode(withBranch({1, 2, 1})); // br i1 %3, label 1, label 2
    ASSERT_TRUE(m) << m.error().format();
    const Function &f = m->functions[0];
    ASSERT_EQ(f.numInstructions, 4u);
    const Instruction *ins = &m->instructions[f.firstInstruction];
    EXPECT_EQ(ins[1].opcode, Opcode::Br);
    ASSERT_EQ(ins[1].numOperands, 3u);
    EXPECT_EQ(m->operandsOf(ins[1])[0], ins[0].value);
    EXPECT_EQ(m->operandsOf(ins[1])[1], m->blocks[f.firstBlock + 1].value);
    EXPECT_EQ(m->operandsOf(ins[1])[2], m->blocks[f.firstBlock + 2].value);
    EXPECT_EQ(ins[1].value, kNoId);
    EXPECT_EQ(ins[2].opcode, Opcode::Br);
    ASSERT_EQ(ins[2].numOperands, 1u);
    EXPECT_EQ(m->operandsOf(ins[2])[0], m->blocks[f.firstBlock + 2].value);
    for (uint32_t k = 0; k < 3; ++k) {
      EXPECT_EQ(m->blocks[f.firstBlock + k].firstInstruction,
                f.firstInstruction + 1 + k - (k == 0));
      EXPECT_EQ(m->blocks[f.firstBlock + k].numInstructions, k == 0 ? 2u : 1u);
    }
    const std::string text = printLlvmModuleToString(*m);
    EXPECT_NE(text.find("br i1 %1, label %2, label %3"), std::string::npos) << text;
  }
  EXPECT_NE(errorOf(withBranch({1, 3, 1})).find("block index 3 out of range"), std::string::npos);
  EXPECT_NE(errorOf(withBranch({5})).find("block index 5 out of range"), std::string::npos);
  EXPECT_NE(errorOf(withBranch({1, 2, 2})).find("has another type"), std::string::npos);
  EXPECT_NE(errorOf(withBranch({1, 2})).find("br record with 2 operands"), std::string::npos);
  EXPECT_NE(errorOf(withBranch({1, 2, uint32_t(-1)})).find("refers to no value"),
            std::string::npos); // (a forward reference never defined)
}

TEST(DxilBitcodeReader, RecordsFromBitsFindTheVoidTypeFirst) {
  // In a function that returns a value, the reader finds (or makes) the void type at the
  // function's first record that is not a call, binop, extractvalue or ret void; records
  // decoded from their bits wait for it, so that the types made after it (here float*, by a
  // getelementptr) come after it, in a module whose type table has no void.
  BitWriter w;
  w.enterBlock(kModuleBlock, 3);
  w.record(1, {1});
  w.enterBlock(kTypeBlock, 4);
  w.record(1, {4});
  w.record(7, {32});       // 0: i32
  w.record(8, {0, 0});     // 1: i32*
  w.record(21, {0, 0, 1}); // 2: i32 (i32*)
  w.record(3, {});         // 3: float
  w.endBlock();
  w.record(8, {2, 0, 0, 0, 0, 0, 0, 0}); // define i32 @f(i32* %0): value 0, %0 value 1
  w.enterBlock(kFunctionBlock, 4);
  w.defineAbbrev({{-1, 3}, {2, 6}, {1, 5}, {1, 4}});          // 4: CAST
  w.defineAbbrev({{-1, 43}, {1, 1}, {1, 5}, {3, 0}, {2, 6}}); // 5: GEP
  w.record(1, {1});
  w.fixed(4, w.width()); // %2 = bitcast i32* %0 to i32*
  w.vbr(1, 6);
  w.fixed(1, 5);
  w.fixed(11, 4);
  w.fixed(5, w.width()); // %3 = getelementptr float, i32* %2, i32* %2 (float*)
  w.fixed(0, 1);
  w.fixed(3, 5);
  w.vbr(2, 6);
  w.vbr(1, 6);
  w.vbr(1, 6);
  w.record(10, {3});   // ret (relative 3: the function @f: an error after the types)
  w.enterBlock(99, 4); // (an unknown block: the records above away from the data's end)
  for (int k = 0; k < 16; ++k)
    w.record(1, {1u << 20});
  w.endBlock();
  w.endBlock();
  w.endBlock();
  std::vector<uint8_t> bytes = w.bitcode();
  Expected<LlvmModule> m = readBitcode(bytes);
  // (Read or not, what matters is the order the reader made the types in: read it again with
  // the records unabbreviated and compare.)
  BitWriter u;
  u.enterBlock(kModuleBlock, 3);
  u.record(1, {1});
  u.enterBlock(kTypeBlock, 4);
  u.record(1, {4});
  u.record(7, {32});
  u.record(8, {0, 0});
  u.record(21, {0, 0, 1});
  u.record(3, {});
  u.endBlock();
  u.record(8, {2, 0, 0, 0, 0, 0, 0, 0});
  u.enterBlock(kFunctionBlock, 4);
  u.record(1, {1});
  u.record(3, {1, 1, 11});
  u.record(43, {0, 3, 1, 1});
  u.record(10, {3});
  u.endBlock();
  u.endBlock();
  Expected<LlvmModule> general = readBitcode(u.bitcode());
  ASSERT_EQ(bool(m), bool(general));
  if (!m) {
    EXPECT_EQ(withoutBit(m.error().format()), withoutBit(general.error().format()));
    return;
  }
  ASSERT_EQ(m->types.size(), general->types.size());
  for (size_t k = 0; k < m->types.size(); ++k) {
    SCOPED_TRACE(k);
    EXPECT_EQ(m->types[k].kind, general->types[k].kind);
  }
  EXPECT_EQ(printLlvmModuleToString(*m), printLlvmModuleToString(*general));
}

TEST(DxilBitcodeReader, ComparesOfScalarsReadAlready) {
  // CMP2 [a, b, predicate] of two scalars read already (decoded from its bits), of vectors
  // (the general path), and the general path's errors.
  // @f is void () (value 0); the function's constants: i32 0, i32 1 (values 1, 2), float 1.0
  // (3), <2 x i32> undef (4): the body's first value is 5.
  auto withCompare = [](std::vector<uint64_t> cmp) {
    return module(tVoidFn, [=](BitWriter &w) {
      w.record(1, {1});
      w.enterBlock(kConstants, 4);
      w.record(1, {tI32});
      w.record(4, {0});
      w.record(4, {2});
      w.record(1, {tFloat});
      w.record(6, {0x3F800000});
      w.record(1, {tVector});
      w.record(3, {});
      w.endBlock();
      w.record(28, {4, 3, 40}); // %5 = icmp slt i32 0, i32 1
      w.record(28, cmp);        // %6 = the case
      w.record(10, {});
    });
  };
  Expected<LlvmModule> m = readBitcode(withCompare({3, 3, 4})); // fcmp olt float 1.0, 1.0
  ASSERT_TRUE(m) << m.error().format();
  const Function &f = m->functions[0];
  ASSERT_EQ(f.numInstructions, 3u);
  const Instruction *ins = &m->instructions[f.firstInstruction];
  EXPECT_EQ(ins[0].opcode, Opcode::ICmp);
  EXPECT_EQ(ins[0].predicate, 40);
  EXPECT_EQ(ins[1].opcode, Opcode::FCmp);
  EXPECT_EQ(ins[1].predicate, 4);
  for (int k = 0; k < 2; ++k) {
    ASSERT_EQ(ins[k].numOperands, 2u);
    EXPECT_EQ(m->types[ins[k].type].kind, TypeKind::Integer);
    EXPECT_EQ(m->types[ins[k].type].bits, 1u);
    EXPECT_EQ(m->values[ins[k].value].type, ins[k].type);
  }
  const std::string text = printLlvmModuleToString(*m);
  EXPECT_NE(text.find("%1 = icmp slt i32 0, 1"), std::string::npos) << text;
  EXPECT_NE(text.find("%2 = fcmp olt float 1.000000e+00, 1.000000e+00"), std::string::npos) << text;
  Expected<LlvmModule> vector = readBitcode(withCompare({2, 2, 32})); // icmp eq <2 x i32>
  ASSERT_TRUE(vector) << vector.error().format();
  const TypeId vt = vector->instructions[vector->functions[0].firstInstruction + 1].type;
  EXPECT_EQ(vector->types[vt].kind, TypeKind::Vector);
  EXPECT_NE(errorOf(withCompare({4, 3, 20})).find("unknown comparison predicate 20"),
            std::string::npos);
  EXPECT_NE(errorOf(withCompare({4, 3, 32})).find("another type"), std::string::npos);
}

TEST(DxilBitcodeReader, AbbreviatedRetVoidEndsItsBlock) {
  // RET of LLVM's abbreviation [RET] (`ret void`) ends its block as the unabbreviated record
  // does; in a function that returns a value, both take the general path.
  auto body = [](bool abbreviated) {
    return [=](BitWriter &w) {
      w.defineAbbrev({{-1, 10}}); // 4: RET
      w.record(1, {2});
      w.record(11, {1}); // br label %1
      if (abbreviated)
        w.fixed(4, w.width());
      else
        w.record(10, {});
    };
  };
  for (uint64_t fnType : {tVoidFn, tI32FnI32}) {
    SCOPED_TRACE(fnType);
    std::string texts[2];
    for (int abbreviated = 0; abbreviated < 2; ++abbreviated) {
      for (int pass = 0; pass < 2; ++pass) {
        Expected<LlvmModule> m = readBitcode(module(fnType, body(abbreviated)));
        if (!m) {
          texts[abbreviated] = m.error().format();
          continue;
        }
        const Function &f = m->functions[0];
        ASSERT_EQ(f.numInstructions, 2u);
        const Instruction &ret = m->instructions[f.firstInstruction + 1];
        EXPECT_EQ(ret.opcode, Opcode::Ret);
        EXPECT_EQ(ret.numOperands, 0u);
        EXPECT_EQ(ret.value, kNoId);
        EXPECT_EQ(m->blocks[f.firstBlock + 1].firstInstruction, f.firstInstruction + 1);
        EXPECT_EQ(m->blocks[f.firstBlock + 1].numInstructions, 1u);
        texts[abbreviated] = printLlvmModuleToString(*m);
      }
    }
    EXPECT_EQ(withoutBit(texts[0]), withoutBit(texts[1])); // (errors: the same but for the bit)
    if (fnType == tVoidFn) {
      EXPECT_NE(texts[1].find("  ret void\n"), std::string::npos) << texts[1];
    }
  }
}

TEST(DxilBitcodeReader, TypedCallsWithTailMarkersOrFastMathReadTheirFlags) {
  // Calls naming their function type with musttail, notail or fast-math flags (which DXC does
  // not write) take the general path: their flags, and the fields after the fast-math flags,
  // are read as any call's.
  constexpr uint64_t kTyped = 1u << 15, kMustTail = 1u << 14, kNoTail = 1u << 16,
                     kFastMath = 1u << 17;
  std::vector<uint8_t> bytes = module(tI32FnI32, [&](BitWriter &w) {
    w.record(1, {1});
    w.record(34, {0, kTyped | kMustTail, tI32FnI32, 2, 1});    // %2 = musttail call @f(%0)
    w.record(34, {0, kTyped | kNoTail, tI32FnI32, 3, 2});      // %3 = notail call @f(%0)
    w.record(34, {0, kTyped | kNoTail | 1, tI32FnI32, 4, 3});  // %4 = notail call @f(%0)
    w.record(34, {0, kTyped | kFastMath, 3, tI32FnI32, 5, 4}); // %5 = call fast @f(%0)
    w.record(34, {0, kTyped | 1, tI32FnI32, 6, 5});            // %6 = tail call @f(%0)
    w.record(10, {1});                                         // ret %7
  });
  for (int pass = 0; pass < 2; ++pass) { // (the second with the thread's memos warm)
    Expected<LlvmModule> m = readBitcode(bytes);
    ASSERT_TRUE(m) << m.error().format();
    const Function &f = m->functions[0];
    ASSERT_EQ(f.numInstructions, 6u);
    const Instruction *ins = &m->instructions[f.firstInstruction];
    const TailKind tails[5] = {TailKind::MustTail, TailKind::NoTail, TailKind::NoTail,
                               TailKind::None, TailKind::Tail};
    for (int k = 0; k < 5; ++k) {
      SCOPED_TRACE(k);
      ASSERT_EQ(ins[k].opcode, Opcode::Call);
      EXPECT_EQ(ins[k].tail, tails[k]);
      EXPECT_EQ(ins[k].fastMath != 0, k == 3);
      EXPECT_EQ(ins[k].auxType, tI32FnI32);
      ASSERT_EQ(ins[k].numOperands, 2u);
      EXPECT_EQ(m->operandsOf(ins[k])[0], f.value);
      EXPECT_EQ(m->values[m->operandsOf(ins[k])[1]].kind, ValueKind::Argument);
      EXPECT_NE(ins[k].value, kNoId);
    }
  }
}

// --- malformed files -------------------------------------------------------------------------

TEST(DxilBitcodeReader, FileLevelErrors) {
  EXPECT_NE(errorOf({'x', 'y', 'z', 'w'}).find("not LLVM bitcode"), std::string::npos);
  EXPECT_NE(errorOf({'B', 'C', 0xC0, 0xDE, 0}).find("not a multiple of 4"), std::string::npos);
  std::vector<uint8_t> wrapper = {0xDE, 0xC0, 0x17, 0x0B, 0, 0, 0, 0, 100, 0,
                                  0,    0,    8,    0,    0, 0, 0, 0, 0,   0};
  EXPECT_NE(errorOf(wrapper).find("wrapper points outside"), std::string::npos);
  EXPECT_NE(errorOf({0xDE, 0xC0, 0x17, 0x0B}).find("shorter than 20"), std::string::npos);
  BitWriter empty;
  empty.enterBlock(13, 3); // only an identification block
  empty.endBlock();
  EXPECT_NE(errorOf(empty.bitcode()).find("without a module block"), std::string::npos);
}

TEST(DxilBitcodeReader, RecordLevelErrors) {
  struct Case {
    std::vector<uint8_t> bytes;
    const char *message;
  };
  auto inBody = [](std::function<void(BitWriter &)> f) { return module(3, f); };
  Case cases[] = {
      {module(99, {}), "type id 99 is not defined"},
      {module(1, {}), "not a function type"},
      {inBody([](BitWriter &w) { w.record(10, {1}); }), "instruction before DECLAREBLOCKS"},
      {inBody([](BitWriter &w) { w.record(1, {0}); }), "DECLAREBLOCKS missing"},
      {inBody([](BitWriter &w) {
         w.record(1, {1});
         w.record(2, {1, 1, 0});
       }),
       "ends before its last block is terminated"},
      {inBody([](BitWriter &w) {
         w.record(1, {1});
         w.record(11, {5});
       }),
       "block index 5 out of range"},
      {inBody([](BitWriter &w) {
         w.record(1, {1});
         w.record(10, {1});
         w.record(10, {1});
       }),
       "after the last block was terminated"},
      {inBody([](BitWriter &w) {
         w.record(1, {1});
         w.record(200, {});
       }),
       "unknown instruction record code 200"},
      {inBody([](BitWriter &w) {
         w.record(1, {1});
         w.record(13, {});
       }),
       "not supported"},
      {inBody([](BitWriter &w) {
         w.record(1, {2});
         w.record(16, {1, 7, 0}); // phi naming a value that never comes
         w.record(10, {1});
         w.record(10, {1});
       }),
       "refers to no value"},
      {inBody([](BitWriter &w) {
         w.record(1, {1});
         w.record(2, {1, 1, 99}); // binary operator 99
       }),
       "invalid binary operator"},
      {inBody([](BitWriter &w) {
         w.record(1, {1});
         w.record(9, {1, 1, 20}); // predicate 20
       }),
       "unknown comparison predicate 20"},
      {inBody([](BitWriter &w) {
         w.record(1, {1});
         w.record(34, {0, 0, 1}); // call of the i32 argument
       }),
       "not a function"},
      {inBody([](BitWriter &w) {
         w.enterBlock(kConstants, 4);
         w.record(4, {2});
         w.endBlock();
       }),
       "constant before any SETTYPE"},
      {inBody([](BitWriter &w) {
         w.enterBlock(kConstants, 4);
         w.record(1, {1});
         w.record(6, {0});
         w.endBlock();
       }),
       "not floating point"},
      {inBody([](BitWriter &w) {
         w.enterBlock(kConstants, 4);
         w.record(1, {1});
         w.record(7, {0, 0});
         w.endBlock();
       }),
       "not an aggregate"},
      {module(2, {},
              [](BitWriter &w) {
                w.enterBlock(kMetadata, 3);
                w.record(4, chars("n"));
                w.record(1, chars("s"));
                w.endBlock();
              }),
       "NAME not followed by NAMED_NODE"},
      {module(2, {},
              [](BitWriter &w) {
                w.enterBlock(kMetadata, 3);
                w.record(3, {5}); // a node naming metadata 4, which never comes
                w.endBlock();
              }),
       "refers to no metadata"},
      {module(2, {},
              [](BitWriter &w) {
                w.enterBlock(kAttrGroups, 3);
                w.record(3, {1, 0xFFFFFFFFu, 0, 500});
                w.endBlock();
              }),
       "unknown attribute kind 500"},
      {module(2, {},
              [](BitWriter &w) {
                w.enterBlock(kAttrLists, 3);
                w.record(2, {7});
                w.endBlock();
              }),
       "group 7 that does not exist"},
      {module(2, {},
              [](BitWriter &w) {
                w.record(8, {2, 0, 1, 0, 9, 0, 0, 0});
              }),
       "attribute list index out of range"},
      {module(2, {},
              [](BitWriter &w) {
                w.record(8, {2, 0, 0, 0, 0, 0, 0, 0});
              }),
       "ends before every function defined has a body"},
  };
  for (const Case &c : cases) {
    std::string e = errorOf(c.bytes);
    EXPECT_NE(e.find(c.message), std::string::npos) << "expected '" << c.message << "', got " << e;
    EXPECT_NE(e.find("record"), std::string::npos) << e; // located at a record
  }
}

} // namespace
} // namespace spire::dxil
