// The decoding rules of the binary reader, each on a small module built in the test.
#include "spire/binary/Literal.h"
#include "spire/binary/Words.h"
#include "spire/module/Builder.h"
#include "spire/module/Module.h"

#include <gtest/gtest.h>

using namespace spire;
using binary::NumberKind;
using grammar::Op;
using grammar::OperandKind;

namespace {

// Words of a module: header, then the instructions given.
std::vector<uint32_t> moduleWords(std::vector<uint32_t> body, uint32_t bound = 100) {
  std::vector<uint32_t> w = {binary::kMagic, 0x00010600u, 0, bound, 0};
  w.insert(w.end(), body.begin(), body.end());
  return w;
}

std::vector<uint32_t> inst(Op op, std::vector<uint32_t> operands) {
  std::vector<uint32_t> w = {uint32_t(operands.size() + 1) << 16 | uint32_t(op)};
  w.insert(w.end(), operands.begin(), operands.end());
  return w;
}

std::vector<uint32_t> cat(std::initializer_list<std::vector<uint32_t>> parts) {
  std::vector<uint32_t> out;
  for (const auto &p : parts)
    out.insert(out.end(), p.begin(), p.end());
  return out;
}

std::vector<uint32_t> str(std::string_view s) {
  std::vector<uint32_t> w;
  binary::appendString(w, s);
  return w;
}

Module read(std::vector<uint32_t> body, binary::DecodeOptions options = {}) {
  Expected<Module> m = Module::fromWords(moduleWords(std::move(body)), options);
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().format());
  return m.ok() ? std::move(m).value() : Module();
}

std::string readError(std::vector<uint32_t> body, uint32_t bound = 100) {
  Expected<Module> m = Module::fromWords(moduleWords(std::move(body), bound));
  EXPECT_FALSE(m.ok());
  return m.ok() ? "" : m.error().format();
}

struct Expect {
  OperandKind kind;
  uint16_t numWords;
};

void expectOperands(const Instruction &i, std::vector<Expect> expected) {
  auto ops = i.operands();
  ASSERT_EQ(ops.size(), expected.size()) << i.desc()->name;
  uint16_t offset = 1;
  for (size_t k = 0; k < ops.size(); ++k) {
    EXPECT_EQ(ops[k].kind, expected[k].kind) << "operand " << k;
    EXPECT_EQ(ops[k].numWords, expected[k].numWords) << "operand " << k;
    EXPECT_EQ(ops[k].offset, offset) << "operand " << k;
    offset = static_cast<uint16_t>(offset + ops[k].numWords);
  }
}

const std::vector<uint32_t> kInt32 = inst(Op::TypeInt, {1, 32, 1});
const std::vector<uint32_t> kUint64 = inst(Op::TypeInt, {2, 64, 0});
const std::vector<uint32_t> kFloat32 = inst(Op::TypeFloat, {3, 32});
const std::vector<uint32_t> kFloat64 = inst(Op::TypeFloat, {4, 64});
const std::vector<uint32_t> kHalf = inst(Op::TypeFloat, {5, 16});

} // namespace

TEST(Decoder, EnumerantParametersFollowTheEnumerant) {
  Module m = read(cat({inst(Op::Decorate, {7, 30 /*Location*/, 3}),
                       inst(Op::Decorate, {7, 11 /*BuiltIn*/, 0 /*Position*/}),
                       inst(Op::Decorate, {7, 2 /*Block*/})}));
  expectOperands(
      m.inst(0),
      {{OperandKind::IdRef, 1}, {OperandKind::Decoration, 1}, {OperandKind::LiteralInteger, 1}});
  expectOperands(
      m.inst(1),
      {{OperandKind::IdRef, 1}, {OperandKind::Decoration, 1}, {OperandKind::BuiltIn, 1}});
  expectOperands(m.inst(2), {{OperandKind::IdRef, 1}, {OperandKind::Decoration, 1}});
}

// A parameter that is a string takes the words up to its nul (LinkageAttributes "name" Export),
// with the reader's shortcut as with the decoder.
TEST(Decoder, StringParametersSpanTheirWords) {
  Module m = read(cat({inst(Op::Decorate, cat({{7, 41 /*LinkageAttributes*/}, str("abc"), {0}})),
                       inst(Op::Decorate, cat({{7, 41}, str("a_longer_name"), {1 /*Import*/}}))}));
  expectOperands(m.inst(0), {{OperandKind::IdRef, 1},
                             {OperandKind::Decoration, 1},
                             {OperandKind::LiteralString, 1},
                             {OperandKind::LinkageType, 1}});
  expectOperands(m.inst(1), {{OperandKind::IdRef, 1},
                             {OperandKind::Decoration, 1},
                             {OperandKind::LiteralString, 4},
                             {OperandKind::LinkageType, 1}});
  EXPECT_EQ(m.inst(1).stringOperand(m.inst(1).operands()[2]), "a_longer_name");
}

TEST(Decoder, ExecutionModeParameters) {
  Module m = read(inst(Op::ExecutionMode, {4, 17 /*LocalSize*/, 8, 8, 1}));
  expectOperands(m.inst(0), {{OperandKind::IdRef, 1},
                             {OperandKind::ExecutionMode, 1},
                             {OperandKind::LiteralInteger, 1},
                             {OperandKind::LiteralInteger, 1},
                             {OperandKind::LiteralInteger, 1}});
}

TEST(Decoder, MaskParametersComeInBitOrder) {
  // ImageOperands Bias (0x1) | Offset (0x10): the Bias id first, then the Offset id.
  Module m = read(inst(Op::ImageSampleImplicitLod, {10, 11, 12, 13, 0x11, 14, 15}));
  expectOperands(m.inst(0), {{OperandKind::IdResultType, 1},
                             {OperandKind::IdResult, 1},
                             {OperandKind::IdRef, 1},
                             {OperandKind::IdRef, 1},
                             {OperandKind::ImageOperands, 1},
                             {OperandKind::IdRef, 1},
                             {OperandKind::IdRef, 1}});
  // Grad takes two ids; MemoryAccess Aligned takes a literal.
  Module g = read(cat({inst(Op::ImageSampleExplicitLod, {10, 11, 12, 13, 0x4, 14, 15}),
                       inst(Op::Load, {10, 16, 17, 0x2, 16})}));
  expectOperands(g.inst(0), {{OperandKind::IdResultType, 1},
                             {OperandKind::IdResult, 1},
                             {OperandKind::IdRef, 1},
                             {OperandKind::IdRef, 1},
                             {OperandKind::ImageOperands, 1},
                             {OperandKind::IdRef, 1},
                             {OperandKind::IdRef, 1}});
  expectOperands(g.inst(1), {{OperandKind::IdResultType, 1},
                             {OperandKind::IdResult, 1},
                             {OperandKind::IdRef, 1},
                             {OperandKind::MemoryAccess, 1},
                             {OperandKind::LiteralInteger, 1}});
}

TEST(Decoder, OptionalAndVariadicOperands) {
  Module m = read(cat({inst(Op::TypeImage, {20, 3, 1, 0, 0, 0, 1, 0}),
                       inst(Op::TypeImage, {21, 3, 1, 0, 0, 0, 1, 0, 2 /*ReadWrite*/}),
                       inst(Op::TypeStruct, {22}), inst(Op::TypeStruct, {23, 3, 3, 3})}));
  EXPECT_EQ(m.inst(0).operands().size(), 8u);
  EXPECT_EQ(m.inst(1).operands().size(), 9u);
  EXPECT_EQ(m.inst(1).operands().back().kind, OperandKind::AccessQualifier);
  EXPECT_EQ(m.inst(2).operands().size(), 1u);
  EXPECT_EQ(m.inst(3).operands().size(), 4u);
}

TEST(Decoder, MemberNamesTakeAnIntegerThenTheString) {
  Module m = read(inst(Op::MemberName, cat({{4, 7}, str("member_name")})));
  expectOperands(
      m.inst(0),
      {{OperandKind::IdRef, 1}, {OperandKind::LiteralInteger, 1}, {OperandKind::LiteralString, 3}});
  EXPECT_EQ(m.inst(0).operands()[1].number, NumberKind::Unsigned);
  EXPECT_EQ(m.inst(0).stringOperand(m.inst(0).operands()[2]), "member_name");
  // OpString defines its result.
  Module s = read(inst(Op::String, cat({{9}, str("file.glsl")})));
  EXPECT_EQ(s.defIndex(9), 0u);
}

TEST(Decoder, StringsSpanTheirWords) {
  Module m = read(cat({inst(Op::EntryPoint, cat({{5 /*GLCompute*/, 4}, str("main"), {8, 9}})),
                       inst(Op::Name, cat({{4}, str("abc")}))}));
  expectOperands(m.inst(0), {{OperandKind::ExecutionModel, 1},
                             {OperandKind::IdRef, 1},
                             {OperandKind::LiteralString, 2},
                             {OperandKind::IdRef, 1},
                             {OperandKind::IdRef, 1}});
  EXPECT_EQ(m.inst(0).stringOperand(m.inst(0).operands()[2]), "main");
  EXPECT_EQ(m.inst(1).stringOperand(m.inst(1).operands()[1]), "abc");
}

TEST(Decoder, ConstantWidthsComeFromTheType) {
  Module m = read(
      cat({kInt32, kUint64, kFloat32, kFloat64, kHalf, inst(Op::Constant, {1, 10, 0xFFFFFFFFu}),
           inst(Op::Constant, {2, 11, 1, 2}), inst(Op::Constant, {3, 12, 0x3f800000u}),
           inst(Op::SpecConstant, {4, 13, 0, 0x3ff00000u}), inst(Op::Constant, {5, 14, 0x3c00u})}));
  struct Case {
    uint32_t index;
    NumberKind kind;
    uint16_t width;
    uint16_t words;
  };
  for (Case c : {Case{5, NumberKind::Signed, 32, 1}, Case{6, NumberKind::Unsigned, 64, 2},
                 Case{7, NumberKind::Float, 32, 1}, Case{8, NumberKind::Float, 64, 2},
                 Case{9, NumberKind::Float, 16, 1}}) {
    const binary::Operand &op = m.inst(c.index).operands().back();
    EXPECT_EQ(op.kind, OperandKind::TypedLiteralNumber);
    EXPECT_EQ(op.number, c.kind) << c.index;
    EXPECT_EQ(op.bitWidth, c.width) << c.index;
    EXPECT_EQ(op.numWords, c.words) << c.index;
  }
  EXPECT_EQ(m.typeOf(11), 2u);
  EXPECT_EQ(m.numberType(2), (binary::NumberType{NumberKind::Unsigned, 64}));
}

TEST(Decoder, SwitchLiteralsAreAsWideAsTheSelector) {
  Module m = read(
      cat({kUint64, inst(Op::Undef, {2, 30}), inst(Op::Switch, {30, 40, 1, 0, 41, 2, 0, 42})}));
  expectOperands(m.inst(2), {{OperandKind::IdRef, 1},
                             {OperandKind::IdRef, 1},
                             {OperandKind::TypedLiteralNumber, 2},
                             {OperandKind::IdRef, 1},
                             {OperandKind::TypedLiteralNumber, 2},
                             {OperandKind::IdRef, 1}});
  EXPECT_NE(readError(cat({kFloat32, inst(Op::Undef, {3, 30}), inst(Op::Switch, {30, 40, 1, 41})}))
                .find("not a scalar integer"),
            std::string::npos);
  EXPECT_NE(readError(inst(Op::Switch, {30, 40, 1, 41})).find("has no type"), std::string::npos);
}

TEST(Decoder, ExtendedInstructionsUseTheirSetsGrammar) {
  Module m = read(cat({inst(Op::ExtInstImport, cat({{1}, str("GLSL.std.450")})),
                       inst(Op::ExtInstImport, cat({{2}, str("OpenCL.std")})),
                       inst(Op::ExtInstImport, cat({{3}, str("NonSemantic.Vendor.Thing")})),
                       inst(Op::ExtInstImport, cat({{4}, str("Unknown.Set")})),
                       // GLSL Sqrt (31): one id.
                       inst(Op::ExtInst, {10, 20, 1, 31, 21}),
                       // OpenCL vstore_half_r (176): three ids and an FPRoundingMode.
                       inst(Op::ExtInst, {10, 22, 2, 176, 23, 24, 25, 1}),
                       // An unknown non-semantic set: ids.
                       inst(Op::ExtInst, {10, 26, 3, 7, 27, 28}),
                       // An unknown set: raw words.
                       inst(Op::ExtInst, {10, 29, 4, 7, 5, 6}),
                       // An instruction number the set does not have: raw words.
                       inst(Op::ExtInst, {10, 30, 1, 9999, 5})}));
  expectOperands(m.inst(4), {{OperandKind::IdResultType, 1},
                             {OperandKind::IdResult, 1},
                             {OperandKind::IdRef, 1},
                             {OperandKind::LiteralExtInstInteger, 1},
                             {OperandKind::IdRef, 1}});
  EXPECT_EQ(m.inst(5).operands().back().kind, OperandKind::FPRoundingMode);
  expectOperands(m.inst(6), {{OperandKind::IdResultType, 1},
                             {OperandKind::IdResult, 1},
                             {OperandKind::IdRef, 1},
                             {OperandKind::LiteralExtInstInteger, 1},
                             {OperandKind::IdRef, 1},
                             {OperandKind::IdRef, 1}});
  EXPECT_EQ(m.inst(7).operands().back().kind, OperandKind::RawWords);
  EXPECT_EQ(m.inst(7).operands().back().numWords, 2);
  EXPECT_EQ(m.inst(8).operands().back().kind, OperandKind::RawWords);
  EXPECT_TRUE(m.extInstImport(1).set != nullptr);
  EXPECT_TRUE(m.extInstImport(3).nonSemantic);
  EXPECT_NE(readError(inst(Op::ExtInst, {10, 20, 1, 31, 21}))
                .find("not the result of an OpExtInstImport"),
            std::string::npos);
}

TEST(Decoder, SpecConstantOpTakesTheOperandsOfItsOperation) {
  Module m =
      read(cat({inst(Op::SpecConstantOp, {1, 10, uint32_t(Op::IAdd), 11, 12}),
                inst(Op::SpecConstantOp, {1, 13, uint32_t(Op::CompositeExtract), 14, 0, 1})}));
  expectOperands(m.inst(0), {{OperandKind::IdResultType, 1},
                             {OperandKind::IdResult, 1},
                             {OperandKind::LiteralSpecConstantOpInteger, 1},
                             {OperandKind::IdRef, 1},
                             {OperandKind::IdRef, 1}});
  expectOperands(m.inst(1), {{OperandKind::IdResultType, 1},
                             {OperandKind::IdResult, 1},
                             {OperandKind::LiteralSpecConstantOpInteger, 1},
                             {OperandKind::IdRef, 1},
                             {OperandKind::LiteralInteger, 1},
                             {OperandKind::LiteralInteger, 1}});
  EXPECT_NE(readError(inst(Op::SpecConstantOp, {1, 10, uint32_t(Op::Store), 11, 12}))
                .find("cannot be the operation"),
            std::string::npos);
}

TEST(Decoder, UnknownOpcodesAreKeptAsRawWords) {
  Module m = read(inst(static_cast<Op>(0x7FF0), {1, 2, 3}));
  EXPECT_TRUE(m.inst(0).isRaw());
  EXPECT_EQ(m.inst(0).desc(), nullptr);
  expectOperands(m.inst(0), {{OperandKind::RawWords, 3}});
}

TEST(Decoder, MalformedInstructionsGetOneLineErrorsWithLocations) {
  struct Case {
    std::vector<uint32_t> body;
    std::string expected;
  };
  std::vector<Case> cases = {
      {{0x00000011u}, "word count of 0"},
      {{0x00090011u, 1}, "word count of 9 but only 2 words remain"},
      // Shapes the reader's inner loop takes, cut short by the module's end: the loop reads the
      // zero words after the module and the check after it reports the instruction.
      {{0x00040015u, 1}, "word count of 4 but only 2 words remain"}, // OpTypeInt
      {cat({inst(Op::TypeVoid, {1}), {0x00030005u, 1}}), "word count of 3 but only 2 words remain"},
      {cat({kInt32, {0x0004002Bu, 1, 2}}), "word count of 4 but only 3 words remain"}, // OpConstant
      {inst(Op::TypeVoid, {0}), "is 0"},
      {inst(Op::TypeVoid, {500}), "not below the bound 100"},
      {inst(Op::TypeInt, {1, 32}), "missing operand 'Signedness'"},
      {inst(Op::TypeVoid, {1, 2}), "its operands end at word 2"},
      {inst(Op::Name, {1, 0x61616161u}), "no terminating nul"},
      // The reader's fast path for names and other strings: a nul before the last word leaves
      // words over, an id past the bound or 0 before the string is still checked.
      {inst(Op::Name, {1, 0x00000061u, 0x00000062u}), "its operands end at word 3"},
      {inst(Op::MemberName, {1, 0, 0x61616161u}), "no terminating nul"},
      {inst(Op::Name, {500, 0x00000061u}), "not below the bound 100"},
      {inst(Op::MemberName, {0, 2, 0x00000061u}), "is 0"},
      {inst(Op::Name, {1}), "missing operand"},
      {inst(Op::Capability, {0x7FFFFFF0u}), "invalid Capability 2147483632"},
      {inst(Op::Load, {1, 2, 3, 0x40000000u}), "invalid MemoryAccess bit 0x40000000"},
      {cat({inst(Op::TypeVoid, {1}), inst(Op::Constant, {1, 2, 0})}),
       "not a scalar integer or float"},
      {cat({inst(Op::TypeInt, {1, 128, 0}), inst(Op::Constant, {1, 2, 0, 0, 0, 0})}),
       "128 bits is not supported"},
      {cat({kUint64, inst(Op::Constant, {2, 2, 0})}), "runs past the end of the instruction"},
      // The reader's shortcuts for enumerant tails and constants leave every problem to the
      // decoder: a missing, extra or invalid parameter, an id past the bound, a constant too
      // long for its type, or of a type defined later.
      {inst(Op::Decorate, {1, 30 /*Location*/}), "missing operand"},
      {inst(Op::Decorate, {1, 30 /*Location*/, 0, 0}), "its operands end at word 4"},
      {inst(Op::Decorate, {1, 11 /*BuiltIn*/, 0x7FFFFFF0u}), "invalid BuiltIn"},
      {inst(Op::Decorate, cat({{1, 41 /*LinkageAttributes*/}, str("abc")})), "missing operand"},
      {inst(Op::Decorate, {1, 41, 0x61616161u, 0}), "missing operand"}, // the 0 ends the string
      // The same in the middle of a module.
      {cat({inst(Op::Decorate, {1, 41, 0x61616161u, 0}), inst(Op::Capability, {1}),
            inst(Op::Capability, {1}), inst(Op::Capability, {1}), inst(Op::Capability, {1})}),
       "missing operand"},
      {inst(Op::Decorate, {1, 41, 0x61616161u, 0x61616161u}), "no terminating nul"},
      {inst(Op::Decorate, cat({{1, 41}, str("abc"), {0, 0}})), "its operands end at word 5"},
      {inst(Op::Decorate, cat({{1, 41}, str("abc"), {7}})), "invalid LinkageType"},
      {inst(Op::MemberDecorate, {500, 0, 30 /*Location*/, 0}), "not below the bound 100"},
      {inst(Op::ExecutionMode, {1, 17 /*LocalSize*/, 8, 8}), "missing operand"},
      {cat({kInt32, inst(Op::Constant, {1, 2, 0, 0})}), "its operands end at word 4"},
      {cat({inst(Op::Constant, {1, 2, 0}), kInt32}), "not a scalar integer or float"},
      {inst(Op::SpecConstant, {}), "missing operand"}, // its words would be past the end
      {inst(Op::Load, {1, 2, 3, 2 /*Aligned*/}), "missing operand"},
      {inst(Op::Store, {1, 2, 3 /*Volatile|Aligned*/, 4, 5}), "its operands end at word 5"},
      {inst(Op::Load, {1, 2, 3, 0x10000 /*MakePointerAvailable*/, 500}), "not below the bound 100"},
      {cat({inst(Op::ExtInstImport, cat({{1}, str("GLSL.std.450")})),
            inst(Op::ExtInst, {10, 20, 1, 31 /*Sqrt*/})}),
       "missing operand"},
      {cat({inst(Op::ExtInstImport, cat({{1}, str("GLSL.std.450")})),
            inst(Op::ExtInst, {10, 20, 1, 31 /*Sqrt*/, 0})}),
       "is 0"},
  };
  for (const Case &c : cases) {
    std::string e = readError(c.body);
    EXPECT_NE(e.find(c.expected), std::string::npos) << e;
    EXPECT_NE(e.find("word "), std::string::npos) << e;
    EXPECT_NE(e.find("instruction "), std::string::npos) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
  // The location is the word offset and index of the failing instruction.
  Expected<Module> m =
      Module::fromWords(moduleWords(cat({inst(Op::TypeVoid, {1}), inst(Op::TypeVoid, {0})})));
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().location.wordOffset, 7u);
  EXPECT_EQ(m.error().location.instIndex, 1u);
}

TEST(Decoder, HeaderIsChecked) {
  std::vector<uint32_t> w = moduleWords({});
  w[1] = 0x00020000u;
  Expected<Module> m = Module::fromWords(w);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("unsupported SPIR-V version"), std::string::npos);
  EXPECT_FALSE(Module::fromWords({binary::kMagic, 0x00010000u}).ok());
}

TEST(Decoder, IdsPastTheBoundCanBeAllowed) {
  std::vector<uint32_t> w = moduleWords(inst(Op::TypeVoid, {500}), 10);
  EXPECT_FALSE(Module::fromWords(w).ok());
  Expected<Module> m = Module::fromWords(w, {.allowIdsPastBound = true});
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->defIndex(500), 0u);
}

TEST(Decoder, RecoveryKeepsUndecodableInstructionsAsRawWords) {
  std::vector<uint32_t> body = cat({inst(Op::Capability, {0x7FFFFFF0u}), inst(Op::TypeVoid, {1})});
  Expected<Module> m = Module::fromWords(moduleWords(body), {.recover = true});
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE(m->inst(0).isRaw());
  EXPECT_FALSE(m->inst(1).isRaw());
  ASSERT_EQ(m->warnings().size(), 1u);
  EXPECT_EQ(m->warnings()[0].severity, Severity::Warning);
  EXPECT_EQ(std::vector<uint32_t>(m->words().begin(), m->words().end()), moduleWords(body));
}

TEST(Module, ReadThenWriteIsExactInBothByteOrders) {
  std::vector<uint32_t> w =
      moduleWords(cat({inst(Op::Capability, {1}), kInt32, inst(Op::Constant, {1, 2, 7})}));
  for (auto order : {binary::Endianness::Little, binary::Endianness::Big}) {
    std::vector<uint8_t> bytes = binary::bytesFromWords(w, order);
    Expected<Module> m = Module::fromBytes(bytes);
    ASSERT_TRUE(m.ok());
    EXPECT_EQ(m->endianness(), order);
    EXPECT_EQ(m->toBytes(), bytes);
  }
}

TEST(Module, IndexesDefinitionsSectionsFunctionsAndBlocks) {
  ModuleBuilder b;
  uint32_t voidT = b.newId(), fnT = b.newId(), fn = b.newId(), decl = b.newId(), l1 = b.newId(),
           l2 = b.newId();
  b.add(Section::Capability, Op::Capability).literal(1);
  b.add(Section::MemoryModel, Op::MemoryModel).literal(0).literal(1);
  b.add(Section::DebugName, Op::Name).id(fn).string("main");
  b.add(Section::Global, Op::TypeVoid).id(voidT);
  b.add(Section::Global, Op::TypeFunction).id(fnT).id(voidT);
  b.add(Section::FunctionDeclaration, Op::Function).id(voidT).id(decl).literal(0).id(fnT);
  b.add(Section::FunctionDeclaration, Op::FunctionEnd);
  b.add(Section::FunctionDefinition, Op::Function).id(voidT).id(fn).literal(0).id(fnT);
  b.add(Section::FunctionDefinition, Op::Label).id(l1);
  b.add(Section::FunctionDefinition, Op::Branch).id(l2);
  b.add(Section::FunctionDefinition, Op::Label).id(l2);
  b.add(Section::FunctionDefinition, Op::Return);
  b.add(Section::FunctionDefinition, Op::FunctionEnd);
  Expected<Module> m = b.build();
  ASSERT_TRUE(m.ok()) << m.error().format();
  EXPECT_EQ(m->bound(), 7u);
  EXPECT_EQ(m->inst(m->defIndex(fn)).opcode(), Op::Function);
  EXPECT_EQ(m->defIndex(99), kNoIndex);
  EXPECT_EQ(m->inst(2).section(), Section::DebugName);
  EXPECT_EQ(m->inst(3).section(), Section::Global);
  EXPECT_EQ(m->inst(5).section(), Section::FunctionDeclaration);
  EXPECT_EQ(m->inst(7).section(), Section::FunctionDefinition);
  ASSERT_EQ(m->functions().size(), 2u);
  EXPECT_EQ(m->functions()[0].numBlocks, 0u);
  const FunctionInfo &f = m->functions()[1];
  EXPECT_EQ(f.begin, 7u);
  EXPECT_EQ(f.end, 13u);
  auto blocks = m->blocks(f);
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].label, 8u);
  EXPECT_EQ(blocks[0].end, 10u);
  EXPECT_EQ(blocks[1].label, 10u);
  EXPECT_EQ(blocks[1].end, 12u);
  EXPECT_EQ(m->inst(4).resultId(), fnT);
  EXPECT_EQ(m->inst(7).typeId(), voidT);
}

TEST(Module, MalformedStructureNeverBreaksTheIndex) {
  // A stray OpFunctionEnd, an unterminated function, a label outside any function.
  Module m = read(cat({inst(Op::FunctionEnd, {}), inst(Op::Label, {5}),
                       inst(Op::Function, {1, 2, 0, 3}), inst(Op::Label, {6})}));
  EXPECT_EQ(m.functions().size(), 1u);
  EXPECT_EQ(m.functions()[0].end, 4u);
}

TEST(Decoder, FixedShapeInstructionsOfEveryLength) {
  // OpAccessChain: type, result, base, then any number of index ids. Short chains use the
  // grammar's constant operand list, long ones are decoded one operand at a time: both must
  // read the same.
  for (uint32_t indexes : {0u, 1u, 5u, 29u, 30u, 31u, 40u, 100u}) {
    std::vector<uint32_t> operands = {1, 2, 3};
    for (uint32_t k = 0; k < indexes; ++k)
      operands.push_back(4 + k % 50);
    Module m = read(inst(Op::AccessChain, operands));
    auto ops = m.inst(0).operands();
    ASSERT_EQ(ops.size(), 3u + indexes);
    for (uint32_t k = 0; k < ops.size(); ++k) {
      EXPECT_EQ(ops[k].offset, k + 1);
      EXPECT_EQ(ops[k].numWords, 1);
    }
    EXPECT_EQ(ops[0].kind, OperandKind::IdResultType);
    EXPECT_EQ(ops[1].kind, OperandKind::IdResult);
    for (uint32_t k = 2; k < ops.size(); ++k)
      EXPECT_EQ(ops[k].kind, OperandKind::IdRef) << indexes;
    EXPECT_EQ(m.inst(0).resultId(), 2u);
    EXPECT_EQ(m.typeOf(2), 1u);
  }
  // A fixed-shape instruction with a bad id is still diagnosed by the full decoder.
  EXPECT_NE(readError(inst(Op::AccessChain, {1, 2, 3, 0})).find("is 0"), std::string::npos);
  EXPECT_NE(readError(inst(Op::IAdd, {1, 2, 3, 500})).find("not below the bound"),
            std::string::npos);
  // Every id position of short instructions, whether or not words follow the instruction (the
  // reader checks a fixed window of words and masks what lies past the instruction).
  for (uint32_t length = 3; length <= 12; ++length)
    for (uint32_t bad = 0; bad < length; ++bad)
      for (bool trailing : {false, true}) {
        std::vector<uint32_t> operands;
        for (uint32_t k = 0; k < length; ++k)
          operands.push_back(k == bad ? 100 : 1 + k);
        std::vector<uint32_t> body = inst(Op::AccessChain, operands);
        if (trailing)
          body = cat({body, inst(Op::Nop, {}), inst(Op::Nop, {})});
        EXPECT_NE(readError(body).find("not below the bound"), std::string::npos)
            << length << " " << bad << " " << trailing;
        // Words past the instruction are not its operands, whatever they hold (an OpNop word
        // is not a valid id).
        operands[bad] = 1 + bad;
        body = inst(Op::AccessChain, operands);
        if (trailing)
          body = cat({body, inst(Op::Nop, {}), inst(Op::Nop, {})});
        EXPECT_EQ(read(body).inst(0).operands().size(), length) << length << " " << bad;
      }
  // Integers in fixed positions are not ids: OpTypeInt's width may be anything.
  Module t = read(inst(Op::TypeInt, {9, 0, 0}));
  EXPECT_EQ(t.inst(0).operands()[1].kind, OperandKind::LiteralInteger);
  EXPECT_EQ(t.inst(0).operands()[1].number, NumberKind::Unsigned);
}

TEST(Decoder, BuiltStringsEndAtTheirFirstNul) {
  // A name with a NUL inside (a hostile DXIL entry name, say) cannot be a literal string whole:
  // the builder writes what comes before the NUL, and the module reads.
  ModuleBuilder b;
  const uint32_t fn = b.newId();
  b.add(Section::EntryPoint, Op::EntryPoint)
      .literal(5 /*GLCompute*/)
      .id(fn)
      .string(std::string_view("ma\0in", 5))
      .ids(std::vector<uint32_t>{});
  b.add(Section::DebugName, Op::Name).id(fn).string(std::string_view("\0x", 2));
  Expected<Module> m = b.build();
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(m->inst(0).stringOperand(m->inst(0).operands()[2]), "ma");
  EXPECT_EQ(m->inst(1).stringOperand(m->inst(1).operands()[1]), "");
}
