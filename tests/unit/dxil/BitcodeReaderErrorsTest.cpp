// Every error the bitcode reader reports, each from a hand-built module that breaks one rule:
// the message says what is wrong and the location names the block, record and bit.
#include "ModuleBuilder.h"

#include "spire/dxil/BitcodeReader.h"

#include <gtest/gtest.h>

namespace spire::dxil {
namespace {

using namespace test;

struct Case {
  const char *name;
  std::vector<uint8_t> bytes;
  const char *message;
};

void expectAll(const std::vector<Case> &cases) {
  for (const Case &c : cases) {
    Expected<LlvmModule> m = readBitcode(c.bytes);
    if (m) {
      ADD_FAILURE() << c.name << ": read without an error; expected '" << c.message << "'";
      continue;
    }
    std::string e = m.error().format();
    EXPECT_NE(e.find(c.message), std::string::npos)
        << c.name << ": expected '" << c.message << "', got " << e;
    EXPECT_EQ(m.error().location.kind, Location::Kind::Bitcode) << c.name;
    EXPECT_EQ(e.find('\n'), std::string::npos) << c.name;
  }
}

/// A body of one block for @f (i32 (i32) unless `fnType` says otherwise) holding `records`.
std::vector<uint8_t> body(const Writes &records, uint64_t fnType = tI32FnI32,
                          const Writes &extra = {}) {
  return buildModule(
      fnType,
      [&](BitWriter &w) {
        w.record(1, {1});
        records(w);
      },
      extra);
}

/// A function-level constants block holding `records`, then `then`.
std::vector<uint8_t> constants(const Writes &records, const Writes &then = {}) {
  return body([&](BitWriter &w) {
    w.enterBlock(kConstantsBlock, 4);
    records(w);
    w.endBlock();
    if (then)
      then(w);
  });
}

/// A module-level block `id` holding `records`, before @f's record.
std::vector<uint8_t> moduleBlock(uint32_t id, const Writes &records) {
  return buildModule(tVoidFn, {}, [&](BitWriter &w) {
    w.enterBlock(id, 3);
    records(w);
    w.endBlock();
  });
}

/// A module-level metadata block after @f's record.
std::vector<uint8_t> metadata(const Writes &records) {
  return buildModule(tVoidFn, {}, {}, [&](BitWriter &w) {
    w.enterBlock(kMetadataBlock, 3);
    records(w);
    w.endBlock();
  });
}

/// A type block of its own (the shared one is not written).
std::vector<uint8_t> types(const Writes &records) {
  BitWriter w;
  w.enterBlock(kModuleBlock, 3);
  w.record(1, {1});
  w.enterBlock(kTypeBlock, 4);
  records(w);
  w.endBlock();
  w.endBlock();
  return w.bitcode();
}

Writes rec(uint32_t code, std::vector<uint64_t> ops) {
  return [=](BitWriter &w) { w.record(code, ops); };
}

TEST(DxilBitcodeReaderErrors, TypeRecords) {
  expectAll({
      {"numentry", types(rec(1, {uint64_t(1) << 40})), "NUMENTRY larger"},
      {"too many", types([](BitWriter &w) {
         w.record(1, {1});
         w.record(7, {32});
         w.record(7, {8});
       }),
       "more type records than NUMENTRY"},
      {"too many for a second NUMENTRY", types([](BitWriter &w) {
         w.record(1, {3});
         w.record(7, {32});
         w.record(1, {1}); // fewer: the record after it has no id
         w.record(7, {8});
       }),
       "more type records than NUMENTRY"},
      {"forward non-struct", types([](BitWriter &w) {
         w.record(1, {2});
         w.record(8, {1, 0}); // a pointer to type 1, which turns out not to be a struct
         w.record(7, {32});
       }),
       "referenced as a struct"},
      {"never defined", types([](BitWriter &w) {
         w.record(1, {2});
         w.record(8, {1, 0});
       }),
       "referenced but never defined"},
      {"too few", types([](BitWriter &w) {
         w.record(1, {2});
         w.record(7, {32});
       }),
       "fewer types than NUMENTRY"},
      {"integer width", types([](BitWriter &w) {
         w.record(1, {1});
         w.record(7, {0});
       }),
       "integer width 0"},
      {"unknown", types([](BitWriter &w) {
         w.record(1, {1});
         w.record(99, {});
       }),
       "unknown type record code 99"},
      {"array of void", types([](BitWriter &w) {
         w.record(1, {2});
         w.record(2, {});
         w.record(11, {4, 0});
       }),
       "cannot be an element"},
      {"self-containing struct", types([](BitWriter &w) {
         w.record(1, {1});
         w.record(20, {0, 0});
       }),
       "contains itself"},
      {"self-containing through an array", types([](BitWriter &w) {
         w.record(1, {2});
         w.record(11, {4, 1}); // [4 x %1], %1 a struct defined below
         w.record(20, {0, 0}); // %1 = type { [4 x %1] }
       }),
       "contains itself"},
      {"undefined reference", types([](BitWriter &w) {
         w.record(1, {1});
         w.record(8, {5, 0});
       }),
       "type id 5 out of range"},
      {"short", types([](BitWriter &w) {
         w.record(1, {1});
         w.record(7, {});
       }),
       "type record too short"},
      {"pointer to void", types([](BitWriter &w) {
         w.record(1, {2});
         w.record(2, {});
         w.record(8, {0});
       }),
       "cannot be pointed to"},
      {"pointer address space", types([](BitWriter &w) {
         w.record(1, {2});
         w.record(7, {32});
         w.record(8, {0, uint64_t(1) << 30});
       }),
       "address space out of range"},
      {"void parameter", types([](BitWriter &w) {
         w.record(1, {2});
         w.record(2, {});
         w.record(21, {0, 0, 0});
       }),
       "parameter of type void"},
      {"function parameter", types([](BitWriter &w) {
         w.record(1, {3});
         w.record(2, {});
         w.record(21, {0, 0});
         w.record(21, {0, 0, 1});
       }),
       "parameter of type void or function"},
      {"void parameter, old form", types([](BitWriter &w) {
         w.record(1, {2});
         w.record(2, {});
         w.record(9, {0, 0, 0, 0});
       }),
       "parameter of type void"},
      {"function returning a function", types([](BitWriter &w) {
         w.record(1, {3});
         w.record(2, {});
         w.record(21, {0, 0});
         w.record(21, {0, 1});
       }),
       "returning a function"},
      {"void member", types([](BitWriter &w) {
         w.record(1, {2});
         w.record(2, {});
         w.record(18, {0, 0});
       }),
       "cannot be a member"},
      {"vector of a struct", types([](BitWriter &w) {
         w.record(1, {2});
         w.record(18, {0});
         w.record(12, {2, 0});
       }),
       "invalid vector type"},
  });
}

// The reader's fast paths for new types (a type block's are all new) must still unique a type
// equal to an earlier one, and take a struct referenced before its record.
TEST(DxilBitcodeReaderErrors, TypesEqualToEarlierOnesAreOneType) {
  Expected<LlvmModule> m = readBitcode(types([](BitWriter &w) {
    w.record(1, {12});
    w.record(7, {32});        // 0: i32
    w.record(7, {32});        // 1: i32 again
    w.record(8, {0, 0});      // 2: i32*
    w.record(8, {1});         // 3: i32* again
    w.record(8, {0, 3});      // 4: i32 addrspace(3)*
    w.record(8, {1, 3});      // 5: again
    w.record(21, {0, 0, 1});  // 6: i32 (i32)
    w.record(21, {0, 1, 0});  // 7: again
    w.record(11, {4, 1});     // 8: [4 x i32]
    w.record(8, {11, 0});     // 9: %11*, a struct not read yet
    w.record(18, {0, 9, 0});  // 10: { %11*, i32 }
    w.record(20, {0, 10, 9}); // 11: %11 = type { { %11*, i32 }, %11* }
  }));
  ASSERT_TRUE(m) << m.error().format();
  const LlvmModule &mod = *m;
  // i32, i32*, i32 addrspace(3)*, i32 (i32), [4 x i32], %11, %11*, { %11*, i32 }
  ASSERT_EQ(mod.types.size(), 8u);
  auto find = [&](TypeKind kind, uint32_t bits = 0) {
    size_t n = 0;
    for (const Type &t : mod.types)
      n += t.kind == kind && (kind != TypeKind::Pointer || t.bits == bits);
    return n;
  };
  EXPECT_EQ(find(TypeKind::Integer), 1u);
  EXPECT_EQ(find(TypeKind::Pointer, 0), 2u);
  EXPECT_EQ(find(TypeKind::Pointer, 3), 1u);
  EXPECT_EQ(find(TypeKind::Function), 1u);
  EXPECT_EQ(find(TypeKind::Struct), 2u);
  for (const Type &t : mod.types)
    if (t.identified) {
      ASSERT_EQ(t.numElements, 2u);
      const Type &literal = mod.types[mod.typeElements[t.firstElement]];
      EXPECT_FALSE(literal.identified);
      EXPECT_EQ(literal.numElements, 2u);
      EXPECT_EQ(mod.typeElements[t.firstElement + 1], mod.typeElements[literal.firstElement]);
    }
}

// Strings from operands keep each operand's low byte, however long (the reader narrows sixteen
// at a time).
TEST(DxilBitcodeReaderErrors, StringsKeepEachOperandsLowByte) {
  for (size_t length : {1, 15, 16, 17, 31, 32, 33, 40}) {
    std::vector<uint64_t> chars;
    std::string expected;
    for (size_t i = 0; i < length; ++i) {
      char c = char('a' + i % 26);
      chars.push_back(uint64_t(uint8_t(c)) | (i % 3 ? uint64_t(i) << 8 : 0));
      expected += c;
    }
    Expected<LlvmModule> m = readBitcode(metadata(rec(1, chars))); // METADATA_STRING_OLD
    ASSERT_TRUE(m) << m.error().format();
    size_t strings = 0;
    for (const Metadata &md : m->metadata)
      if (md.kind == MetadataKind::String) {
        EXPECT_EQ(m->str(md.string), expected) << length;
        ++strings;
      }
    EXPECT_EQ(strings, 1u) << length;
  }
}

TEST(DxilBitcodeReaderErrors, ModuleRecords) {
  auto extra = [](uint32_t code, std::vector<uint64_t> ops) {
    return buildModule(tVoidFn, {}, rec(code, ops));
  };
  BitWriter version;
  version.enterBlock(kModuleBlock, 3);
  version.record(1, {7});
  version.endBlock();
  expectAll({
      {"version", version.bitcode(), "unsupported module version"},
      {"globalvar short", extra(7, {tI32Ptr}), "GLOBALVAR record too short"},
      {"globalvar not a pointer", extra(7, {tI32, 0, 0, 0, 0, 0}), "type is not a pointer"},
      {"globalvar address space", extra(7, {tI32, 2 | (uint64_t(1) << 30), 0, 0, 0, 0}),
       "address space out of range"},
      {"globalvar section", extra(7, {tI32Ptr, 0, 0, 0, 0, 5}), "section index out of range"},
      {"globalvar alignment", extra(7, {tI32Ptr, 0, 0, 0, 40, 0}), "alignment exponent 40"},
      {"globalvar attributes", extra(7, {tI32Ptr, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3}),
       "attribute list index out of range"},
      {"globalvar initializer type", extra(7, {tI32Ptr, 0, 1, 0, 0, 0}),
       "has another type than its use expects"},
      {"function short", extra(8, {tVoidFn}), "FUNCTION record too short"},
      {"function calling convention", extra(8, {tVoidFn, 5000, 1, 0, 0, 0, 0, 0}),
       "calling convention out of range"},
      {"function section", extra(8, {tVoidFn, 0, 1, 0, 0, 0, 4, 0}), "section index out of range"},
      {"function gc", extra(8, {tVoidFn, 0, 1, 0, 0, 0, 0, 0, 3}), "gc name index out of range"},
      {"function address space",
       extra(8, {tVoidFn, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, uint64_t(1) << 30}),
       "address space out of range"},
      {"alias short", extra(14, {tI32}), "ALIAS record too short"},
      {"old alias not a pointer", extra(9, {tI32, 0, 0}), "ALIAS record whose type is not"},
      {"alias type", extra(14, {99}), "type id 99 is not defined"},
      {"body without function",
       buildModule(tVoidFn, {}, {},
                   [](BitWriter &w) {
                     w.enterBlock(kFunctionBlock, 4);
                     w.endBlock();
                   }),
       "no function left to define"},
  });
}

TEST(DxilBitcodeReaderErrors, StringTableNames) {
  auto v2 = [](std::vector<uint64_t> fn, std::string_view strtab) {
    BitWriter w;
    w.enterBlock(kModuleBlock, 3);
    w.record(1, {2});
    writeTypes(w);
    w.record(8, fn);
    w.endBlock();
    w.enterBlock(kStrtabBlock, 3);
    w.blobRecord(1, {}, strtab);
    w.endBlock();
    return w.bitcode();
  };
  expectAll({
      {"outside", v2({0, 9, tVoidFn, 0, 1, 0, 0, 0, 0, 0}, "main"), "outside the string table"},
      {"short", v2({0}, "main"), "too short for its string table name"},
  });
  // and the name is found when it is inside
  Expected<LlvmModule> m = readBitcode(v2({1, 3, tVoidFn, 0, 1, 0, 0, 0, 0, 0}, "main"));
  ASSERT_TRUE(m) << m.error().format();
  EXPECT_EQ(m->name(m->functions[0].value), "ain");
  // A module before version 2 names nothing in the string table (no pass looks for it first),
  // but a STRTAB block at the top level is still read, and a bad one rejected.
  auto v1 = [](bool badTable) {
    BitWriter w;
    w.enterBlock(kModuleBlock, 3);
    w.record(1, {1});
    writeTypes(w);
    w.record(8, {tVoidFn, 0, 1, 0, 0, 0, 0, 0, 0, 0});
    w.endBlock();
    w.enterBlock(kStrtabBlock, 3);
    if (badTable)
      w.fixed(6, 3); // an abbreviation the block never defined
    else
      w.blobRecord(1, {}, "main");
    w.endBlock();
    return w.bitcode();
  };
  ASSERT_TRUE(readBitcode(v1(false)));
  expectAll({{"bad table, version 1", v1(true), "abbreviation"}});
}

// A FUNCTION record of LLVM 3.7's 15 operands (DXC's) without gc name, prologue, prefix or
// personality takes a shorter path: its other fields are still read, and one that has any of
// those four takes the general path (and its checks).
TEST(DxilBitcodeReaderErrors, FunctionRecordOfFifteenOperands) {
  auto with = [](std::vector<uint64_t> fn) { return buildModule(tVoidFn, {}, rec(8, fn)); };
  Expected<LlvmModule> m = readBitcode(with({tVoidFn, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0}));
  ASSERT_TRUE(m) << m.error().format();
  EXPECT_EQ(m->functions[0].unnamedAddr, UnnamedAddr::Global);
  EXPECT_EQ(m->functions[0].dllStorage, DllStorage::Export);
  EXPECT_EQ(m->functions[0].personality, kNoId);
  m = readBitcode(with({tVoidFn, 0, 1, 0, 0, 0, 0, 0, 0, 2, 0, 1, 0, 0, 1}));
  ASSERT_TRUE(m) << m.error().format();
  EXPECT_EQ(m->functions[0].unnamedAddr, UnnamedAddr::Local);
  EXPECT_EQ(m->functions[0].dllStorage, DllStorage::Import);
  EXPECT_EQ(m->functions[0].personality, m->functions[0].value); // value id 0: itself
  expectAll({{"gc", with({tVoidFn, 0, 1, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0}),
              "gc name index out of range"}});
}

// Attribute groups with equal sets share one set (compared attribute by attribute: enum,
// integer and string attributes), and sets that differ in any part do not.
TEST(DxilBitcodeReaderErrors, EqualAttributeSetsAreOneSet) {
  const uint64_t fn = 0xFFFFFFFF, a = 'a', b = 'b';
  Expected<LlvmModule> m = readBitcode(moduleBlock(kAttrGroupBlock, [&](BitWriter &w) {
    w.record(3, {1, fn, 0, 18});           // nounwind
    w.record(3, {2, fn, 0, 18});           // the same set
    w.record(3, {3, fn, 0, 20});           // readnone: another kind
    w.record(3, {4, fn, 1, 1, 8});         // align 8
    w.record(3, {5, fn, 1, 1, 8});         // the same
    w.record(3, {6, fn, 1, 1, 16});        // align 16: another value
    w.record(3, {7, fn, 4, a, 0, b, 0});   // "a"="b"
    w.record(3, {8, fn, 4, a, 0, b, 0});   // the same
    w.record(3, {9, fn, 4, a, 0, a, 0});   // "a"="a": another value
    w.record(3, {10, fn, 3, a, 0, 0, 18}); // "a" and nounwind: two attributes
  }));
  ASSERT_TRUE(m) << m.error().format();
  EXPECT_EQ(m->attributeSets.size(), 7u);
}

TEST(DxilBitcodeReaderErrors, Instructions) {
  const uint64_t far = 4294967249u; // a relative id that points 50 past the next value
  expectAll({
      {"short cast", body(rec(3, {})), "instruction record too short"},
      {"cast opcode", body(rec(3, {1, tI32, 99})), "unknown cast opcode 99"},
      {"unary", body(rec(56, {1, 5})), "unknown unary operator"},
      {"gep source", body(rec(4, {1})), "getelementptr without a source element type"},
      {"gep base", body(rec(43, {0, tI32, 1})), "getelementptr on a value that is not a pointer"},
      {"gep into a scalar", body(rec(43, {0, tI32, 1, 1, 1}), tI32FnPtr),
       "indexes into a type that has no elements"},
      {"gep struct index", body(rec(43, {0, tStruct, 1, 1, 1}), tI32FnPtr),
       "struct index that is not a constant"},
      {"extractvalue without indices", body(rec(26, {1})), "without indices"},
      {"extractvalue of a scalar", body(rec(26, {1, 0})), "not an aggregate"},
      {"extractvalue index range", body(rec(26, {1, uint64_t(1) << 33})), "index out of range"},
      {"extractvalue past struct",
       constants(
           [](BitWriter &w) {
             w.record(1, {tStruct});
             w.record(3, {});
           },
           rec(26, {1, 5})),
       "past the struct's members"},
      {"extractvalue past array",
       constants(
           [](BitWriter &w) {
             w.record(1, {tArray});
             w.record(3, {});
           },
           rec(26, {1, 7})),
       "past the array's elements"},
      {"extractelement", body(rec(6, {1, 1})), "extractelement on a value that is not a vector"},
      {"insertelement", body(rec(7, {1, 1, 1})), "insertelement on a value that is not a vector"},
      {"shufflevector", body(rec(8, {1, 1, 1})), "shufflevector on values that are not vectors"},
      {"switch incomplete", body(rec(12, {tI32, 1, 0, 5})), "incomplete case"},
      {"switch on a float", body(rec(12, {tFloat, 1, 0})), "switch on a value that is not an"},
      {"switch case value", body(rec(12, {tI32, 1, 0, 1, 0})), "case value that is not"},
      {"switch ranges", body(rec(12, {uint64_t(0x4B5) << 16, 1, 0})), "case ranges"},
      {"br", body(rec(11, {0, 0})), "br record with 2 operands"},
      {"ret", body(rec(10, {1, 1})), "ret with more than one value"},
      {"phi of metadata", body(rec(16, {tMetadata, 2, 0})), "phi of metadata"},
      {"alloca type", body(rec(19, {99, tI32, 1, 0})), "alloca with an unknown type"},
      {"old alloca", body(rec(19, {tI32, tI32, 1, 0})), "old-style alloca"},
      {"alloca alignment", body(rec(19, {tI32Ptr, tI32, 1, 8 | (1u << 8)})),
       "alignment exponent 40"},
      {"alloca address space", body(rec(19, {tI32, tI32, 1, 64, uint64_t(1) << 30})),
       "address space out of range"},
      {"load type", body(rec(20, {1, 0, 0})), "load without a type"},
      {"store", body(rec(24, {1, 1, 0, 0})), "store through a value that is not a pointer"},
      {"cmpxchg", body(rec(37, {1, 1, 1, 0, 2, 1})), "cmpxchg through a value that is not"},
      {"atomicrmw", body(rec(38, {1, 1, 0, 0, 2, 1})), "atomicrmw through a value that is not"},
      {"atomicrmw operation", body(rec(59, {1, 1, 20, 0, 2, 1}), tI32FnPtr),
       "unknown atomicrmw operation 20"},
      {"ordering", body(rec(36, {9, 1})), "unknown atomic ordering 9"},
      {"va_arg", body(rec(23, {99, 1, tI32})), "va_arg with an unknown type"},
      {"call attributes", body(rec(34, {5, 0, 2, 1})), "call attribute list index out of range"},
      {"call of an integer", body(rec(34, {0, 1u << 15, tI32FnI32, 1})),
       "call of a value that is not a pointer"},
      {"call with more arguments", body(rec(34, {0, 0, 2, 1, 1})), "more arguments"},
      {"call with fewer arguments", body(rec(34, {0, 0, 2})), "fewer arguments"},
      {"float udiv",
       constants(
           [](BitWriter &w) {
             w.record(1, {tFloat});
             w.record(6, {0});
           },
           rec(2, {1, 1, 3})),
       "integer operator 3 on floating point"},
      {"metadata operand",
       body(rec(34, {0, 0, 3, far}), tI32FnI32, rec(8, {tVoidFnMd, 0, 1, 0, 0, 0, 0, 0})),
       "refers to no metadata"},
      {"forward type", body(rec(2, {far, 99, 1, 0})), "type id 99 is not defined"},
      {"debug location first", body(rec(35, {1, 2, 0, 0})), "before any instruction"},
      {"debug location again", body([](BitWriter &w) {
         w.record(2, {1, 1, 0});
         w.record(33, {});
       }),
       "DEBUG_LOC_AGAIN without a location"},
      {"debug location short", body([](BitWriter &w) {
         w.record(2, {1, 1, 0});
         w.record(35, {1});
       }),
       "DEBUG_LOC record too short"},
      {"debug location scope", body([](BitWriter &w) {
         w.record(2, {1, 1, 0});
         w.record(35, {1, 2, 7, 0});
       }),
       "names metadata that does not exist"},
  });
}

TEST(DxilBitcodeReaderErrors, Constants) {
  auto c = [](uint64_t type, uint32_t code, std::vector<uint64_t> ops) {
    return constants([=](BitWriter &w) {
      w.record(1, {type});
      w.record(code, ops);
    });
  };
  expectAll({
      {"settype", constants(rec(1, {})), "SETTYPE without a type"},
      {"void constants", c(tVoid, 3, {}), "type that has no constants"},
      {"null token", c(tToken, 2, {}), "null of a type without a null value"},
      {"short", c(tI32, 4, {}), "constant record too short"},
      {"integer of float", c(tFloat, 4, {2}), "not an integer"},
      {"wide integer of float", c(tFloat, 5, {2}), "not an integer"},
      {"aggregate count", c(tStruct, 7, {0}), "aggregate constant with 1 elements"},
      {"data of a scalar", c(tI32, 22, {1}), "not an array or vector"},
      {"data of structs", c(tStructArray, 22, {1, 2}), "element type that is not plain"},
      {"string of i32", c(tArray, 8, {1, 2}), "not of i8"},
      {"string length", c(tString, 8, {'a'}), "data constant with 1 elements"},
      {"unary", c(tFloat, 25, {5, 0}), "unknown unary constant expression"},
      {"cast", c(tI32, 11, {99, tI32, 0}), "unknown cast opcode"},
      {"binop", c(tI32, 10, {99, 0, 0}), "invalid binary operator"},
      {"gep empty", c(tI32Ptr, 12, {}), "getelementptr constant without operands"},
      {"gep odd", c(tI32Ptr, 24, {tI32, 0, tI32Ptr, 0, 1}), "odd operand"},
      {"gep of an integer", c(tI32Ptr, 12, {tI32, 0}), "on a value that is not a pointer"},
      {"gep of ptr", c(tI32Ptr, 12, {tOpaquePtr, 0}), "without a source element type"},
      {"extractelement", c(tI32, 14, {tI32, 0, tI32, 0}), "not a vector"},
      {"extractelement types", c(tI32, 14, {99, 0, tI32, 0}), "with an unknown type"},
      {"insertelement", c(tI32, 15, {0, 0, tI32, 0}), "insertelement constant of a type"},
      {"shufflevector", c(tI32, 16, {0, 0, 0}), "shufflevector constant of a type"},
      {"compare", c(tI1, 17, {tI32, 0, 0, 20}), "unknown comparison predicate 20"},
      {"unknown", c(tI32, 99, {}), "unsupported constant record code 99"},
      {"element type", c(tArray, 7, {0, 0}), "has another type than its use expects"},
  });
}

TEST(DxilBitcodeReaderErrors, Metadata) {
  expectAll({
      {"value short", metadata(rec(2, {tI32})), "without a type and a value"},
      {"value of metadata", metadata(rec(2, {tMetadata, 0})), "of type metadata or void"},
      {"value type", metadata(rec(2, {tFloat, 0})), "whose value has another type"},
      {"value forward", metadata(rec(2, {tI32, 99})), "refers to no value"},
      {"named node alone", metadata(rec(10, {0})), "NAMED_NODE without a NAME"},
      {"named node operand", metadata([](BitWriter &w) {
         w.record(4, chars("n"));
         w.record(10, {9});
       }),
       "named metadata operand 9 is not defined"},
      {"named node string", metadata([](BitWriter &w) {
         w.record(1, chars("s"));
         w.record(4, chars("n"));
         w.record(10, {0});
       }),
       "operand that is not a node"},
      {"name at the end", metadata(rec(4, chars("n"))), "NAME at the end of its block"},
      {"kind", metadata(rec(6, {})), "KIND record without an id"},
      {"kind twice", metadata([](BitWriter &w) {
         w.record(6, {0, 'a'});
         w.record(6, {0, 'b'});
       }),
       "defined twice"},
      {"large kind twice", metadata([](BitWriter &w) {
         w.record(6, {70, 'a'});
         w.record(6, {6, 'b'});
         w.record(6, {70, 'c'});
       }),
       "metadata kind 70 defined twice"},
      {"old node", metadata(rec(8, {})), "before LLVM 3.6"},
      {"attachment outside", metadata(rec(11, {0})), "outside an attachment block"},
      {"decl attachment length", metadata(rec(36, {})), "of the wrong length"},
      {"decl attachment value", metadata(rec(36, {99, 0, 0})), "does not exist"},
      {"bulk strings short", metadata([](BitWriter &w) { w.blobRecord(35, {1}, ""); }),
       "METADATA_STRINGS record too short"},
      {"bulk strings offset", metadata([](BitWriter &w) {
         w.blobRecord(35, {1, 9}, "ab");
       }),
       "lengths do not fit the blob"},
      {"bulk strings length", metadata([](BitWriter &w) {
         // one string of length 5 (vbr6 5 in the first byte), but only 3 bytes follow
         w.blobRecord(35, {1, 1}, std::string_view("\x05xyz", 4));
       }),
       "runs past the blob"},
  });
}

TEST(DxilBitcodeReaderErrors, AttachmentsAndNames) {
  auto withKinds = [](const Writes &then) {
    return buildModule(
        tVoidFn,
        [&](BitWriter &w) {
          w.record(1, {1});
          w.record(10, {});
          then(w);
        },
        {},
        [](BitWriter &w) {
          w.enterBlock(kMetadataBlock, 3);
          w.record(1, chars("s")); // 0: a string
          w.record(3, {1});        // 1: !{!"s"}
          w.record(6, withChars({0}, "k"));
          w.endBlock();
        });
  };
  auto attach = [&](std::vector<uint64_t> ops) {
    return withKinds([=](BitWriter &w) {
      w.enterBlock(kAttachmentBlock, 3);
      w.record(11, ops);
      w.endBlock();
    });
  };
  auto names = [&](uint32_t code, std::vector<uint64_t> ops) {
    return withKinds([=](BitWriter &w) {
      w.enterBlock(kSymtabBlock, 4);
      w.record(code, ops);
      w.endBlock();
    });
  };
  expectAll({
      {"instruction index", attach({5, 0, 1}), "attachment on instruction 5 of 1"},
      {"missing node", attach({0, 0, 99}), "metadata 99 that does not exist"},
      {"string", attach({0, 0, 0}), "metadata that is not a node"},
      {"kind", attach({0, 7, 1}), "unknown metadata kind 7"},
      {"entry short", names(1, {}), "entry too short"},
      {"value name", names(1, {99, 'x'}), "name for value 99"},
      {"block name", names(2, {5, 'x'}), "name for block 5"},
      {"module block name",
       buildModule(tVoidFn, {}, {},
                   [](BitWriter &w) {
                     w.enterBlock(kSymtabBlock, 4);
                     w.record(2, {0, 'x'});
                     w.endBlock();
                   }),
       "block name outside a function"},
  });
}

TEST(DxilBitcodeReaderErrors, Attributes) {
  auto group = [](std::vector<uint64_t> ops) { return moduleBlock(kAttrGroupBlock, rec(3, ops)); };
  expectAll({
      {"short", group({1}), "attribute group record too short"},
      {"range", group({uint64_t(1) << 33, 0}), "id or position out of range"},
      {"kind", group({1, 0, 0}), "attribute without its kind"},
      {"int value", group({1, 0, 1, 1}), "integer attribute without its value"},
      {"type", group({1, 0, 5, 3}), "type attribute without its type"},
      {"string", group({1, 0, 3, 'a'}), "without its terminator"},
      {"encoding", group({1, 0, 9}), "unknown attribute encoding 9"},
      {"form", group({1, 0, 1, 18, 5}), "nounwind with the wrong form"},
      {"old lists", moduleBlock(kAttrListBlock, rec(1, {1, 2})), "before LLVM 3.3"},
  });
}

} // namespace
} // namespace spire::dxil
