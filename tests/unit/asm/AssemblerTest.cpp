// The assembler against small texts: each rule of spirv-as's syntax with the words it gives
// (the expected words are what spirv-as 2023.1 writes for the same text) and each error with
// the place it points at.
#include "spire/asm/Assembler.h"
#include "spire/binary/Header.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace spire;

namespace {

constexpr uint32_t v(unsigned major, unsigned minor) { return grammar::makeVersion(major, minor); }

// Assembles `text` and compares the header (magic, version, spirv-as's generator, `bound`,
// schema) and the instruction words with the expected ones.
void expectWords(std::string_view text, AssembleOptions options, uint32_t bound,
                 std::vector<uint32_t> instructions) {
  SCOPED_TRACE(std::string(text.substr(0, 200)));
  Expected<std::vector<uint32_t>> words = assemble(text, options);
  ASSERT_TRUE(words.ok()) << words.error().format();
  std::vector<uint32_t> expected = {binary::kMagic, options.version, 0x00070000u, bound, 0};
  expected.insert(expected.end(), instructions.begin(), instructions.end());
  EXPECT_EQ(*words, expected);
}

void expectWords(std::string_view text, uint32_t bound, std::vector<uint32_t> instructions) {
  expectWords(text, AssembleOptions{}, bound, std::move(instructions));
}

// Assembling `text` fails at line:column with a message that contains `fragment`.
void expectError(std::string_view text, uint32_t line, uint32_t column, std::string_view fragment,
                 AssembleOptions options = {}) {
  SCOPED_TRACE(std::string(text.substr(0, 200)));
  Expected<std::vector<uint32_t>> words = assemble(text, options);
  ASSERT_FALSE(words.ok());
  const Diagnostic &d = words.error();
  EXPECT_EQ(d.location.kind, Location::Kind::Text);
  EXPECT_EQ(d.location.line, line) << d.format();
  EXPECT_EQ(d.location.column, column) << d.format();
  EXPECT_NE(d.message.find(fragment), std::string::npos) << d.format();
  EXPECT_EQ(d.message.find('\n'), std::string::npos) << "one line: " << d.message;
}

} // namespace

TEST(Assembler, Header) {
  // An empty module: the header only, with the version of the target and spirv-as's generator.
  expectWords(R"(; only a comment
)",
              0x00000001,
              {

              });
}

TEST(Assembler, BlanksAndComments) {
  // Blanks (space, tab, CR, LF) and ';' comments separate words.
  expectWords(R"(OpCapability Shader ; comment
	OpNop
)",
              0x00000001, {0x00020011, 0x00000001, 0x00010000});
  expectWords(R"(OpCapability Shader
OpNop
)",
              0x00000001, {0x00020011, 0x00000001, 0x00010000});
  expectWords(R"(OpNop OpNop
)",
              0x00000001, {0x00010000, 0x00010000});
}

TEST(Assembler, IdsNumberedInOrderOfFirstAppearance) {
  expectWords(R"(%b = OpTypeVoid
%a = OpTypeFunction %b
%5 = OpTypeBool
)",
              0x00000004,
              {0x00020013, 0x00000001, 0x00030021, 0x00000002, 0x00000001, 0x00020014, 0x00000003});
  expectWords(R"(OpName %f "f"
%f = OpTypeVoid
)",
              0x00000002, {0x00030005, 0x00000001, 0x00000066, 0x00020013, 0x00000001});
}

TEST(Assembler, PreservedNumericIdsKeepTheirNumber) {
  // Numeric ids keep their number; the others fill the gaps from 1 up.
  expectWords(R"(%b = OpTypeVoid
%a = OpTypeFunction %b
%5 = OpTypeBool
)",
              {.preserveNumericIds = true}, 0x00000006,
              {0x00020013, 0x00000001, 0x00030021, 0x00000002, 0x00000001, 0x00020014, 0x00000005});
  expectWords(R"(%10 = OpTypeVoid
%a = OpTypeFunction %10 %3 %x
%1 = OpTypeBool
)",
              {.preserveNumericIds = true}, 0x0000000b,
              {0x00020013, 0x0000000a, 0x00050021, 0x00000002, 0x0000000a, 0x00000003, 0x00000004,
               0x00020014, 0x00000001});
}

TEST(Assembler, VersionGating) {
  // An enumerant with an alias that an extension enables is available to all versions (spirv-as
  // merges the extensions of aliases); an opcode of a later version needs that version.
  expectWords(R"(OpCapability VulkanMemoryModel
OpDecorate %x CounterBuffer %y
)",
              {.version = v(1, 0)}, 0x00000003,
              {0x00020011, 0x000014e1, 0x00040047, 0x00000001, 0x00001602, 0x00000002});
  expectWords(R"(%x = OpCopyLogical %a %b
)",
              {.version = v(1, 4)}, 0x00000004, {0x00040190, 0x00000001, 0x00000002, 0x00000003});
}

TEST(Assembler, EnumerantsThatComeWithTheirInstruction) {
  // Newer grammars give the Cooperative Matrix Operands no availability of their own: they are
  // as available as the instruction taking them (which names its capability).
  if (grammar::findInstruction("OpCooperativeMatrixMulAddKHR") == nullptr)
    GTEST_SKIP() << "this build's grammar has no SPV_KHR_cooperative_matrix";
  Expected<std::vector<uint32_t>> words =
      assemble("%d = OpCooperativeMatrixMulAddKHR %t %a %b %c MatrixASignedComponentsKHR\n",
               {.version = v(1, 6)});
  ASSERT_TRUE(words) << words.error().message;
  EXPECT_EQ(words->back(), 0x1u); // MatrixASignedComponentsKHR
}

TEST(Assembler, MasksAndTheirParameters) {
  // Mask names joined by '|'; the parameters of the bits follow in bit order, whatever the order of
  // the names.
  expectWords(R"(%f = OpFunction %v Inline|Pure %ft
%g = OpFunction %v None %ft
OpLoopMerge %a %b MaxIterations|MinIterations 4 5
OpLoopMerge %a %b DependencyLength|Unroll 7
%x = OpImageSampleExplicitLod %t %si %c ConstOffset|Lod %lod %off
OpStore %p %v Aligned|Volatile 4
OpDecorate %x FPFastMathMode NotNaN|NotInf
)",
              0x0000000e,
              {0x00050036, 0x00000001, 0x00000002, 0x00000005, 0x00000003, 0x00050036, 0x00000001,
               0x00000004, 0x00000000, 0x00000003, 0x000600f6, 0x00000005, 0x00000006, 0x00000030,
               0x00000004, 0x00000005, 0x000500f6, 0x00000005, 0x00000006, 0x00000009, 0x00000007,
               0x00080058, 0x00000007, 0x00000008, 0x00000009, 0x0000000a, 0x0000000a, 0x0000000b,
               0x0000000c, 0x0005003e, 0x0000000d, 0x00000001, 0x00000003, 0x00000004, 0x00040047,
               0x00000008, 0x00000028, 0x00000003});
}

TEST(Assembler, EnumerantParameters) {
  expectWords(R"(OpDecorate %x BuiltIn Position
OpExecutionMode %m LocalSize 8 4 1
OpDecorate %x LinkageAttributes "f" Export
OpMemberDecorate %s 1 Offset 16
)",
              0x00000004,
              {0x00040047, 0x00000001, 0x0000000b, 0x00000000, 0x00060010, 0x00000002, 0x00000011,
               0x00000008, 0x00000004, 0x00000001, 0x00050047, 0x00000001, 0x00000029, 0x00000066,
               0x00000000, 0x00050048, 0x00000003, 0x00000001, 0x00000023, 0x00000010});
}

TEST(Assembler, OptionalOperands) {
  expectWords(R"(OpSource GLSL 450
OpSource GLSL 450 %f
OpSource GLSL 450 %f "src"
%i = OpTypeImage %f 2D 0 0 0 1 Unknown
%j = OpTypeImage %f 2D 0 0 0 1 Unknown ReadOnly
)",
              0x00000004,
              {0x00030003, 0x00000002, 0x000001c2, 0x00040003, 0x00000002, 0x000001c2, 0x00000001,
               0x00050003, 0x00000002, 0x000001c2, 0x00000001, 0x00637273, 0x00090019, 0x00000002,
               0x00000001, 0x00000001, 0x00000000, 0x00000000, 0x00000000, 0x00000001, 0x00000000,
               0x000a0019, 0x00000003, 0x00000001, 0x00000001, 0x00000000, 0x00000000, 0x00000000,
               0x00000001, 0x00000000, 0x00000000});
}

TEST(Assembler, ExtendedInstructions) {
  // Instructions of known sets by name; of non-semantic sets spirv-as 2023.1 does not know
  // (DebugPrintf included) by number, with <id> operands.
  expectWords(R"(%g = OpExtInstImport "GLSL.std.450"
%x = OpExtInst %f %g Sqrt %a
)",
              0x00000005,
              {0x0006000b, 0x00000001, 0x4c534c47, 0x6474732e, 0x3035342e, 0x00000000, 0x0006000c,
               0x00000002, 0x00000003, 0x00000001, 0x0000001f, 0x00000004});
  expectWords(R"(%g = OpExtInstImport "NonSemantic.Foo"
%x = OpExtInst %v %g 7 %a %b
)",
              0x00000006,
              {0x0006000b, 0x00000001, 0x536e6f4e, 0x6e616d65, 0x2e636974, 0x006f6f46, 0x0007000c,
               0x00000002, 0x00000003, 0x00000001, 0x00000007, 0x00000004, 0x00000005});
  expectWords(R"(%g = OpExtInstImport "NonSemantic.DebugPrintf"
%x = OpExtInst %v %g 1 %a %b
)",
              0x00000006,
              {0x0008000b, 0x00000001, 0x536e6f4e, 0x6e616d65, 0x2e636974, 0x75626544, 0x69725067,
               0x0066746e, 0x0007000c, 0x00000002, 0x00000003, 0x00000001, 0x00000001, 0x00000004,
               0x00000005});
  expectWords(R"(%g = OpExtInstImport "NonSemantic.ClspvReflection.5"
%x = OpExtInst %v %g Kernel %a %b
)",
              0x00000006,
              {0x000a000b, 0x00000001, 0x536e6f4e, 0x6e616d65, 0x2e636974, 0x70736c43, 0x66655276,
               0x7463656c, 0x2e6e6f69, 0x00000035, 0x0007000c, 0x00000002, 0x00000003, 0x00000001,
               0x00000001, 0x00000004, 0x00000005});
  expectWords(R"(%g = OpExtInstImport "OpenCL.DebugInfo.100"
%x = OpExtInst %f %g DebugTypeBasic %a %b Float
%y = OpExtInst %f %g DebugTypePointer %a Function FlagIsProtected|FlagIsPrivate
)",
              0x00000007, {0x0008000b, 0x00000001, 0x6e65704f, 0x442e4c43, 0x67756265, 0x6f666e49,
                           0x3030312e, 0x00000000, 0x0008000c, 0x00000002, 0x00000003, 0x00000001,
                           0x00000002, 0x00000004, 0x00000005, 0x00000003, 0x0008000c, 0x00000002,
                           0x00000006, 0x00000001, 0x00000003, 0x00000004, 0x00000007, 0x00000003});
}

TEST(Assembler, SpecConstantOp) {
  // The operation is an opcode name without "Op", followed by its operands.
  expectWords(R"(%x = OpSpecConstantOp %t IAdd %a %b
%y = OpSpecConstantOp %t CompositeExtract %a 1 2
)",
              0x00000006,
              {0x00060034, 0x00000001, 0x00000002, 0x00000080, 0x00000003, 0x00000004, 0x00070034,
               0x00000001, 0x00000005, 0x00000051, 0x00000003, 0x00000001, 0x00000002});
}

TEST(Assembler, SwitchLiteralsAreAsWideAsTheSelector) {
  // Case literals take the width and signedness of the selector's type; with two definitions of the
  // selector the first counts.
  expectWords(R"(%u64 = OpTypeInt 64 0
%i32 = OpTypeInt 32 1
%s64 = OpConstant %u64 0
%s32 = OpConstant %i32 0
OpSwitch %s64 %d 1 %a 0x100000000 %b
OpSwitch %s32 %d -1 %a 0xFFFFFFFF %b
OpSwitch %s32 %d
)",
              0x00000008, {0x00040015, 0x00000001, 0x00000040, 0x00000000, 0x00040015, 0x00000002,
                           0x00000020, 0x00000001, 0x0005002b, 0x00000001, 0x00000003, 0x00000000,
                           0x00000000, 0x0004002b, 0x00000002, 0x00000004, 0x00000000, 0x000900fb,
                           0x00000003, 0x00000005, 0x00000001, 0x00000000, 0x00000006, 0x00000000,
                           0x00000001, 0x00000007, 0x000700fb, 0x00000004, 0x00000005, 0xffffffff,
                           0x00000006, 0xffffffff, 0x00000007, 0x000300fb, 0x00000004, 0x00000005});
  expectWords(R"(%i32 = OpTypeInt 32 1
%u64 = OpTypeInt 64 0
%s = OpUndef %i32
%s = OpUndef %u64
OpSwitch %s %d -5 %a
)",
              0x00000006,
              {0x00040015, 0x00000001, 0x00000020, 0x00000001, 0x00040015, 0x00000002, 0x00000040,
               0x00000000, 0x00030001, 0x00000001, 0x00000003, 0x00030001, 0x00000002, 0x00000003,
               0x000500fb, 0x00000003, 0x00000004, 0xfffffffb, 0x00000005});
}

TEST(Assembler, IntegerConstants) {
  // Decimal, 0x hex and 0-prefixed octal, signed; hex may fill the sign bit and is then
  // sign-extended; narrow signed values are sign-extended to 32 bits.
  expectWords(R"(OpCapability Shader
%u32 = OpTypeInt 32 0
%i32 = OpTypeInt 32 1
%u64 = OpTypeInt 64 0
%i64 = OpTypeInt 64 1
%i16 = OpTypeInt 16 1
%u16 = OpTypeInt 16 0
%i8 = OpTypeInt 8 1
%f32 = OpTypeFloat 32
%f64 = OpTypeFloat 64
%f16 = OpTypeFloat 16
%c1 = OpConstant %i32 -5
%c2 = OpConstant %u32 0x10
%c3 = OpConstant %u32 010
%c4 = OpConstant %u32 +5
%c5 = OpConstant %i32 0xFFFFFFFF
%c6 = OpConstant %i16 0xFFFF
%c7 = OpConstant %u16 0xFFFF
%c8 = OpConstant %i16 -32768
%c9 = OpConstant %i8 0x80
%c10 = OpConstant %i64 -1
%c11 = OpConstant %u64 0x8000000000000000
%c12 = OpConstant %u64 18446744073709551615
%c13 = OpSpecConstant %i32 -0
)",
              0x00000018,
              {0x00020011, 0x00000001, 0x00040015, 0x00000001, 0x00000020, 0x00000000, 0x00040015,
               0x00000002, 0x00000020, 0x00000001, 0x00040015, 0x00000003, 0x00000040, 0x00000000,
               0x00040015, 0x00000004, 0x00000040, 0x00000001, 0x00040015, 0x00000005, 0x00000010,
               0x00000001, 0x00040015, 0x00000006, 0x00000010, 0x00000000, 0x00040015, 0x00000007,
               0x00000008, 0x00000001, 0x00030016, 0x00000008, 0x00000020, 0x00030016, 0x00000009,
               0x00000040, 0x00030016, 0x0000000a, 0x00000010, 0x0004002b, 0x00000002, 0x0000000b,
               0xfffffffb, 0x0004002b, 0x00000001, 0x0000000c, 0x00000010, 0x0004002b, 0x00000001,
               0x0000000d, 0x00000008, 0x0004002b, 0x00000001, 0x0000000e, 0x00000005, 0x0004002b,
               0x00000002, 0x0000000f, 0xffffffff, 0x0004002b, 0x00000005, 0x00000010, 0xffffffff,
               0x0004002b, 0x00000006, 0x00000011, 0x0000ffff, 0x0004002b, 0x00000005, 0x00000012,
               0xffff8000, 0x0004002b, 0x00000007, 0x00000013, 0xffffff80, 0x0005002b, 0x00000004,
               0x00000014, 0xffffffff, 0xffffffff, 0x0005002b, 0x00000003, 0x00000015, 0x00000000,
               0x80000000, 0x0005002b, 0x00000003, 0x00000016, 0xffffffff, 0xffffffff, 0x00040032,
               0x00000002, 0x00000017, 0x00000000});
  expectWords(R"(%u32 = OpTypeInt 32 0
%i48 = OpTypeInt 48 1
%u1 = OpTypeInt 1 0
%a = OpConstant %i48 -1
%b = OpConstant %u1 1
)",
              0x00000006,
              {0x00040015, 0x00000001, 0x00000020, 0x00000000, 0x00040015, 0x00000002, 0x00000030,
               0x00000001, 0x00040015, 0x00000003, 0x00000001, 0x00000000, 0x0005002b, 0x00000002,
               0x00000004, 0xffffffff, 0xffffffff, 0x0004002b, 0x00000003, 0x00000005, 0x00000001});
}

TEST(Assembler, FloatConstants) {
  // Decimal (round to nearest) and hex floats (truncated; infinities and NaNs); 16-bit values round
  // to the nearest single, then toward zero.
  expectWords(R"(%f32 = OpTypeFloat 32
%f64 = OpTypeFloat 64
%f16 = OpTypeFloat 16
%a = OpConstant %f32 1
%b = OpConstant %f32 -1.5
%c = OpConstant %f32 .5
%d = OpConstant %f32 5.
%e = OpConstant %f32 1e3
%f = OpConstant %f32 0x1.8p+1
%g = OpConstant %f32 -0x1.8p1
%h = OpConstant %f32 0x1p+128
%i = OpConstant %f32 -0x1p+128
%j = OpConstant %f32 0x1.8p+128
%k = OpConstant %f32 0x1p-149
%l = OpConstant %f32 1e-50
%m = OpConstant %f32 -0.0
%n = OpConstant %f32 0.1
%o = OpConstant %f64 0.1
%p = OpConstant %f64 0x1.fffffffffffffp1023
%q = OpConstant %f64 0x1p1024
%r = OpConstant %f16 0.1
%s = OpConstant %f16 65519
%t = OpConstant %f16 0x1p-24
%u = OpConstant %f16 0x1.8p16
%v = OpConstant %f16 -2
%w = OpConstant %f32 0x1.000001p0
%x = OpConstant %f32 0X1p0
)",
              0x0000001c,
              {0x00030016, 0x00000001, 0x00000020, 0x00030016, 0x00000002, 0x00000040, 0x00030016,
               0x00000003, 0x00000010, 0x0004002b, 0x00000001, 0x00000004, 0x3f800000, 0x0004002b,
               0x00000001, 0x00000005, 0xbfc00000, 0x0004002b, 0x00000001, 0x00000006, 0x3f000000,
               0x0004002b, 0x00000001, 0x00000007, 0x40a00000, 0x0004002b, 0x00000001, 0x00000008,
               0x447a0000, 0x0004002b, 0x00000001, 0x00000009, 0x40400000, 0x0004002b, 0x00000001,
               0x0000000a, 0xc0400000, 0x0004002b, 0x00000001, 0x0000000b, 0x7f800000, 0x0004002b,
               0x00000001, 0x0000000c, 0xff800000, 0x0004002b, 0x00000001, 0x0000000d, 0x7fc00000,
               0x0004002b, 0x00000001, 0x0000000e, 0x00000001, 0x0004002b, 0x00000001, 0x0000000f,
               0x00000000, 0x0004002b, 0x00000001, 0x00000010, 0x80000000, 0x0004002b, 0x00000001,
               0x00000011, 0x3dcccccd, 0x0005002b, 0x00000002, 0x00000012, 0x9999999a, 0x3fb99999,
               0x0005002b, 0x00000002, 0x00000013, 0xffffffff, 0x7fefffff, 0x0005002b, 0x00000002,
               0x00000014, 0x00000000, 0x7ff00000, 0x0004002b, 0x00000003, 0x00000015, 0x00002e66,
               0x0004002b, 0x00000003, 0x00000016, 0x00007bff, 0x0004002b, 0x00000003, 0x00000017,
               0x00000001, 0x0004002b, 0x00000003, 0x00000018, 0x00007e00, 0x0004002b, 0x00000003,
               0x00000019, 0x0000c000, 0x0004002b, 0x00000001, 0x0000001a, 0x3f800000, 0x0004002b,
               0x00000001, 0x0000001b, 0x3f800000});
}

TEST(Assembler, Strings) {
  // A backslash makes the next byte literal; a quote inside a word that starts and ends with quotes
  // is part of the string; strings may span lines.
  expectWords(R"(OpName %a "x y"
OpName %a "a\"b"
OpName %a "a\\b"
OpName %a "a\nb"
OpName %a ""
OpName %a "a;b"
OpName %a "abcd"
)",
              0x00000002, {0x00030005, 0x00000001, 0x00792078, 0x00030005, 0x00000001, 0x00622261,
                           0x00030005, 0x00000001, 0x00625c61, 0x00030005, 0x00000001, 0x00626e61,
                           0x00030005, 0x00000001, 0x00000000, 0x00030005, 0x00000001, 0x00623b61,
                           0x00040005, 0x00000001, 0x64636261, 0x00000000});
  // The third quote opens quoting again: here the text ends with it, and the string is a"b.
  expectWords(R"(OpName %a "a"b")", 0x00000002, {0x00030005, 0x00000001, 0x00622261});
  expectWords(R"(OpName %a "x
y"
OpNop
)",
              0x00000002, {0x00030005, 0x00000001, 0x00790a78, 0x00010000});
}

TEST(Assembler, Immediates) {
  // A !<integer> is a raw word: at the start of an instruction (then the words are taken as they
  // are until the next instruction), or in place of any operand (then anything may follow, except
  // that a result id keeps its place).
  expectWords(R"(!0x00020011 1
!131089 !1
OpNop
)",
              0x00000001, {0x00020011, 0x00000001, 0x00020011, 0x00000001, 0x00010000});
  expectWords(R"(!1 "abc" %x 1.5 -1 0x10
)",
              0x00000002, {0x00000001, 0x00636261, 0x00000001, 0x3fc00000, 0xffffffff, 0x00000010});
  expectWords(R"(%c = OpConstant !5 42
%d = OpIAdd !5 !6 %a %b
OpName !5 "x"
)",
              0x00000005,
              {0x0004002b, 0x00000005, 0x00000001, 0x0000002a, 0x00060080, 0x00000005, 0x00000002,
               0x00000006, 0x00000003, 0x00000004, 0x00030005, 0x00000005, 0x00000078});
  expectWords(R"(!1 %x = OpTypeVoid
)",
              0x00000002, {0x00000001, 0x00020013, 0x00000001});
  expectWords(R"(OpNop !5
!-0
!+5
)",
              0x00000001, {0x00010000, 0x00000005, 0x00000000, 0x00000005});
  expectWords(R"(%e = OpExtInstImport !5 "GLSL.std.450"
%r = OpExtInst %t %e Sqrt %a
)",
              0x00000005,
              {0x0007000b, 0x00000001, 0x00000005, 0x4c534c47, 0x6474732e, 0x3035342e, 0x00000000,
               0x0006000c, 0x00000002, 0x00000003, 0x00000001, 0x0000001f, 0x00000004});
}

TEST(Assembler, ResultOnlyStruct) {
  expectWords(R"(%s = OpTypeStruct %a %b
)",
              0x00000004, {0x0004001e, 0x00000001, 0x00000002, 0x00000003});
}

TEST(Assembler, OperandShapes) {
  // Pairs are read one operand at a time (an odd OpPhi is fine), extended instructions take the
  // operands their grammar gives (a literal for vloadn, any number of ids for printf; a number
  // for a non-semantic instruction then ids), decorations and modes their parameters.
  expectWords(R"(OpGroupMemberDecorate %g %a 0 %b 1
%p = OpPhi %t %v1 %l1 %v2 %l2
%q = OpPhi %t %v1
)",
              0x0000000b,
              {0x0006004b, 0x00000001, 0x00000002, 0x00000000, 0x00000003, 0x00000001, 0x000700f5,
               0x00000004, 0x00000005, 0x00000006, 0x00000007, 0x00000008, 0x00000009, 0x000400f5,
               0x00000004, 0x0000000a, 0x00000006});
  expectWords(R"(%g = OpExtInstImport "OpenCL.std"
%x = OpExtInst %f %g vloadn %o %p 4
%y = OpExtInst %f %g printf %fmt %a %b
)",
              0x0000000a,
              {0x0005000b, 0x00000001, 0x6e65704f, 0x732e4c43, 0x00006474, 0x0008000c, 0x00000002,
               0x00000003, 0x00000001, 0x000000ab, 0x00000004, 0x00000005, 0x00000004, 0x0008000c,
               0x00000002, 0x00000006, 0x00000001, 0x000000b8, 0x00000007, 0x00000008, 0x00000009});
  expectWords(R"(%g = OpExtInstImport "NonSemantic.Shader.DebugInfo.100"
%x = OpExtInst %v %g DebugSource %a %b
%y = OpExtInst %v %g 35 %a
)",
              0x00000007, {0x000b000b, 0x00000001, 0x536e6f4e, 0x6e616d65, 0x2e636974, 0x64616853,
                           0x442e7265, 0x67756265, 0x6f666e49, 0x3030312e, 0x00000000, 0x0007000c,
                           0x00000002, 0x00000003, 0x00000001, 0x00000023, 0x00000004, 0x00000005,
                           0x0006000c, 0x00000002, 0x00000006, 0x00000001, 0x00000023, 0x00000004});
  expectWords(R"(OpDecorateId %x UniformId %scope
OpDecorateString %x UserSemantic "sem"
OpExecutionModeId %m LocalSizeId %a %b %c
)",
              0x00000007,
              {0x0004014c, 0x00000001, 0x0000001b, 0x00000002, 0x00041600, 0x00000001, 0x00001603,
               0x006d6573, 0x0006014b, 0x00000003, 0x00000026, 0x00000004, 0x00000005, 0x00000006});
}

TEST(Assembler, AliasesAreNamesLikeOthers) {
  // Aliases of opcodes and enumerants are accepted and give the value of their entry; an opcode
  // or enumerant that a capability or extension enables is available to every version.
  expectWords(R"(%x = OpSDotKHR %i %a %b
%y = OpSDot %i %a %b PackedVectorFormat4x8Bit
OpDecorate %z HlslCounterBufferGOOGLE %w
OpCapability StorageBuffer16BitAccess
OpCapability StorageUniformBufferBlock16
)",
              {.version = v(1, 0)}, 0x00000008,
              {0x00051162, 0x00000001, 0x00000002, 0x00000003, 0x00000004, 0x00061162, 0x00000001,
               0x00000005, 0x00000003, 0x00000004, 0x00000000, 0x00040047, 0x00000006, 0x00001602,
               0x00000007, 0x00020011, 0x00001151, 0x00020011, 0x00001151});
}

TEST(Assembler, HeaderVersionFollowsTheTarget) {
  expectWords("OpNop", {.version = v(1, 3)}, 1, {0x00010000});
  expectWords("OpNop", {.version = v(1, 0)}, 1, {0x00010000});
}

TEST(Assembler, LineEndingsAndOtherBytes) {
  // CR is a blank; vertical tab and form feed are not: they belong to the word.
  expectWords("OpCapability Shader\r\nOpNop\r\n", 1, {0x00020011, 0x00000001, 0x00010000});
  expectError("OpNop\vOpNop", 1, 1, "unknown opcode 'OpNop\\x0bOpNop'");
  expectError("OpNop\fOpNop", 1, 1, "unknown opcode");
  // A NUL byte ends the text (after an instruction) ...
  expectWords(std::string_view("OpNop\0garbage", 13), 1, {0x00010000});
  expectWords(std::string_view("OpNop ; comment\0\nOpFoo", 22), 1, {0x00010000});
  // ... but cannot start one.
  expectError(std::string_view("  \0 OpNop", 9), 1, 3, "NUL");
  // A leading vertical tab or form feed is white space to a number (the C++ stream skips it).
  expectWords("%u = OpTypeInt 32 0\n%c = OpConstant %u \v7", 3,
              {0x00040015, 0x00000001, 0x00000020, 0x00000000, 0x0004002b, 0x00000001, 0x00000002,
               0x00000007});
}

TEST(Assembler, PreservedIdZeroAndOtherBases) {
  AssembleOptions preserve{.preserveNumericIds = true};
  // Id numbers are read like other integers: 0x hex, 0-prefixed octal; %0 is id 0.
  expectWords("%0 = OpTypeVoid", preserve, 1, {0x00020013, 0x00000000});
  expectWords("%0x10 = OpTypeVoid", preserve, 0x11, {0x00020013, 0x00000010});
  expectWords("%010 = OpTypeVoid\n%9 = OpTypeBool", preserve, 10,
              {0x00020013, 0x00000008, 0x00020014, 0x00000009});
  // Without preservation those are names like any other.
  expectWords("%0 = OpTypeVoid\n%0x10 = OpTypeBool", 3,
              {0x00020013, 0x00000001, 0x00020014, 0x00000002});
  // Id 0xFFFFFFFF: the bound (its number plus one) wraps to 0 and is ignored, as in spirv-as.
  expectWords("%4294967295 = OpTypeVoid", preserve, 1, {0x00020013, 0xffffffff});
  // A number that does not fit 32 bits is a name.
  expectWords("%4294967296 = OpTypeVoid\n%2 = OpTypeBool", preserve, 3,
              {0x00020013, 0x00000001, 0x00020014, 0x00000002});
  // Numbers in strings and comments are not ids.
  expectWords("%2 = OpTypeVoid ; %3\nOpName %1 \"%7\"\n%a = OpTypeBool", preserve, 4,
              {0x00020013, 0x00000002, 0x00030005, 0x00000001, 0x00003725, 0x00020014, 0x00000003});
}

TEST(Assembler, InstructionLength) {
  // An instruction takes at most 65535 words.
  std::string members;
  for (int i = 0; i < 65533; ++i)
    members += " %m";
  Expected<std::vector<uint32_t>> ok = assemble("%s = OpTypeStruct" + members);
  ASSERT_TRUE(ok.ok()) << ok.error().format();
  EXPECT_EQ((*ok)[5], 0xffff001eu);
  EXPECT_EQ(ok->size(), 5u + 65535u);
  expectError("%s = OpTypeStruct" + members + " %m", 1, 6, "65536 words");
  // Instructions that start with !<integer> are taken as they are.
  std::string words;
  for (int i = 0; i < 70000; ++i)
    words += " 1";
  Expected<std::vector<uint32_t>> raw = assemble("!1" + words);
  ASSERT_TRUE(raw.ok());
  EXPECT_EQ(raw->size(), 5u + 70001u);
}

TEST(Assembler, Errors) {
  struct Case {
    const char *text;
    uint32_t line, column;
    const char *fragment;
  };
  const Case cases[] = {
      {"Opfoo", 1, 1, "expected an opcode (OpName) or a result id"},
      {"OpFoo", 1, 1, "unknown opcode 'OpFoo'"},
      {"%x = Opfoo", 1, 6, "expected an opcode (OpName) after '=', found 'Opfoo'"},
      {"%x = OpNop", 1, 1, "OpNop has no result, so %x cannot be assigned"},
      {"OpTypeVoid", 1, 1, "OpTypeVoid has a result: write '%name = OpTypeVoid ...'"},
      {"%x OpTypeVoid", 1, 4, "expected '=' after the result id %x, found 'OpTypeVoid'"},
      {"%x", 1, 3, "expected '=' after the result id %x, found the end"},
      {"%x =", 1, 5, "expected an opcode after '=', found the end"},
      {"%a-b = OpTypeVoid", 1, 1, "'%a-b' is not a valid id"},
      {"%x = OpTypeVoid\n  %y = OpTypeFunction x", 2, 23, "expected an id (%name), found 'x'"},
      {"OpCapability 1", 1, 14, "'1' is not a Capability"},
      {"OpCapability Shader|Matrix", 1, 14, "'Shader|Matrix' is not a Capability"},
      {"%f = OpFunction %v 0 %ft", 1, 20, "'0' is not a FunctionControl"},
      {"%f = OpFunction %v Inline| %ft", 1, 20, "'Inline|' is not a FunctionControl mask"},
      {"%i = OpTypeInt 32", 1, 18, "OpTypeInt is missing its operand 'Signedness': found the end"},
      {"%i = OpTypeInt 32\nOpNop", 2, 1, "found the next instruction"},
      {"OpCapability Shader Shader", 1, 21, "found 'Shader'"},
      {"%u = OpTypeInt 32 0\n%c = OpConstant %u -1", 2, 20,
       "negative number '-1' for a 32-bit unsigned literal"},
      {"%u = OpTypeInt 16 1\n%c = OpConstant %u 32768", 2, 20,
       "integer 32768 does not fit in a 16-bit signed literal"},
      {"%u = OpTypeInt 32 0\n%c = OpConstant %u 08", 2, 20, "'08' is not an integer literal"},
      {"%u = OpTypeFloat 8\n%c = OpConstant %u 1", 2, 20, "8-bit float literals are not supported"},
      {"%u = OpTypeInt 128 0\n%c = OpConstant %u 1", 2, 20,
       "128-bit integer literals are not supported"},
      {"%v = OpTypeVector %f 4\n%c = OpConstant %v 1", 2, 20,
       "needs its result type to be an integer or float type declared earlier"},
      {"%c = OpConstant %u 1\n%u = OpTypeInt 32 0", 1, 20, "declared earlier"},
      {"%f = OpTypeFloat 32\n%c = OpConstant %f 1e39", 2, 20, "'1e39' is not a 32-bit float"},
      {"%f = OpTypeFloat 32\n%c = OpConstant %f 0x1P0", 2, 20, "'0x1P0' is not a 32-bit float"},
      {"%f = OpTypeFloat 32\n%c = OpConstant %f inf", 2, 20, "'inf' is not a 32-bit float"},
      {"%f = OpTypeFloat 16\n%c = OpConstant %f 65536", 2, 20, "'65536' is not a 16-bit float"},
      {"OpName %a abc", 1, 11, "expected a quoted string (\"...\"), found 'abc'"},
      {"OpName %a 5", 1, 11, "expected a quoted string, found the number '5'"},
      {"%g = OpExtInstImport \"GLSL.std.450\"\n%x = OpExtInst %f %g 31 %a", 2, 22,
       "'31' is not an instruction of the extended instruction set 'glsl.std.450'"},
      {"%g = OpExtInstImport \"Foo\"", 1, 22, "unknown extended instruction set 'Foo'"},
      {"%x = OpExtInst %f %g Sqrt %a", 1, 19, "%g is not an extended instruction set"},
      {"%g = OpExtInstImport \"NonSemantic.DebugPrintf\"\n%x = OpExtInst %v %g DebugPrintf %a", 2,
       22, "'DebugPrintf' is neither an instruction name of this non-semantic set"},
      {"%g = OpExtInstImport \"NonSemantic.Foo\"\n%x = OpExtInst %v %g 0x7 %a", 2, 22,
       "nor a decimal instruction number"},
      {"%g = OpExtInstImport \"DebugInfo\"\n%g = OpExtInstImport \"GLSL.std.450\"", 2, 22,
       "imports a second set"},
      {"%g = OpExtInstImport \"GLSL.std.450\"\n%x = OpExtInst %f %g Sqrt %a %b", 2, 32,
       "expected '=' after the result id %b"},
      {"%x = OpSpecConstantOp %t OpIAdd %a %b", 1, 26,
       "OpSpecConstantOp is missing its operand 'Opcode': found the next instruction"},
      {"%x = OpSpecConstantOp %t Undef", 1, 26,
       "'Undef' is not an operation OpSpecConstantOp may perform"},
      {"%f = OpTypeFloat 32\n%s = OpConstant %f 1\nOpSwitch %s %d 1 %a", 3, 16,
       "the case literals of OpSwitch need its selector to be a value of an integer type"},
      {"%i = OpTypeInt 32 1\n%s = OpConstant %i 1\nOpSwitch %s %d 1", 3, 17,
       "OpSwitch is missing its operand 'Target'"},
      {"%t = OpTypeInt 32 0\n%t = OpTypeFloat 32", 2, 6, "declares a type a second time"},
      {"%f = OpTypeBool 0", 1, 17, "found '0'"},
      {"!1 = OpNop", 1, 4, "an instruction that starts with !1 cannot assign a result id"},
      {"!-1", 1, 1, "'!-1' is not an immediate"},
      {"!", 1, 1, "'!' is not an immediate"},
      {"OpCapability !5 Shader", 1, 17, "'Shader' cannot follow a !<integer>"},
      {"!1 4294967296", 1, 4, "'4294967296' cannot follow a !<integer>"},
      {"!1 1e5", 1, 4, "'1e5' cannot follow a !<integer>"},
  };
  for (const Case &c : cases)
    expectError(c.text, c.line, c.column, c.fragment);
  expectError("", 1, 1, "no assembly text");
}

TEST(Assembler, VersionErrors) {
  expectError("%x = OpCopyLogical %a %b", 1, 6,
              "OpCopyLogical needs SPIR-V 1.4 or an extension (the target is SPIR-V 1.3)",
              {.version = v(1, 3)});
}

TEST(Assembler, EnumerantsAreNotGatedByVersion) {
  // As in spirv-as v2026.4: the version says which instructions exist; which capabilities,
  // loop controls or execution modes a module may use is the validator's to say.
  for (std::string_view text : {"OpCapability GroupNonUniform", "OpLoopMerge %a %b MinIterations 4",
                                "OpExecutionMode %f LocalSizeId %a %a %a"}) {
    Expected<std::vector<uint32_t>> w = assemble(text, {.version = v(1, 0)});
    EXPECT_TRUE(w) << text << ": " << w.error().format();
  }
}

TEST(Assembler, HeaderCommentNamesTheVersion) {
  EXPECT_EQ(headerCommentVersion("; SPIR-V\n; Version: 1.3\nOpCapability Shader\n"), v(1, 3));
  EXPECT_EQ(headerCommentVersion("\n  \t; Version: 1.0\r\n"), v(1, 0));
  // The minor version is one digit 0-6, not followed by another digit.
  EXPECT_EQ(headerCommentVersion("; Version: 1.3.2\n"), v(1, 3));
  EXPECT_EQ(headerCommentVersion("; Version: 1.2x\n"), v(1, 2));
  EXPECT_EQ(headerCommentVersion("; Version: 1.03\n"), std::nullopt);
  EXPECT_EQ(headerCommentVersion("; Version: 1.7\n"), std::nullopt);
  EXPECT_EQ(headerCommentVersion("; Version: 1."), std::nullopt);
  // A line that does not name a version is passed over; the first that does counts.
  EXPECT_EQ(headerCommentVersion("; Version: 1.9\n; Version: 1.2\n; Version: 1.4\n"), v(1, 2));
  // Only a comment of exactly that form, and only before the first instruction.
  for (std::string_view text :
       {";Version: 1.2\n", "; version: 1.2\n", "; Version:  1.2\n", ";; Version: 1.2\n",
        "; x ; Version: 1.2\n", "OpCapability Shader\n; Version: 1.2\n", "; Version: 2.0\n"})
    EXPECT_EQ(headerCommentVersion(text), std::nullopt) << text;
}

TEST(Assembler, RawWordTypesTypeLaterConstants) {
  // spire dis prints instructions it could not decode as raw words; the integer and float types
  // among them (several raw instructions read as one run of words) still give OpConstant its
  // width. spirv-as refuses this text; accepting it changes nothing it accepts.
  AssembleOptions o;
  o.preserveNumericIds = true;
  expectWords("!196630 !10 !64 !262165 !11 !16 !1\n"
              "%12 = OpConstant %10 1.5\n"
              "%13 = OpConstant %11 -2\n",
              o, 14,
              {0x00030016u, 10, 64, 0x00040015u, 11, 16, 1, 0x0005002Bu, 10, 12, 0, 0x3FF80000u,
               0x0004002Bu, 11, 13, 0xFFFFFFFEu});
}
