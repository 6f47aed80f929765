// The disassembler's text for small modules written in the tests. Every expected text is what
// spirv-dis (SPIRV-Tools 2023.1) prints for the same module, where spirv-dis accepts it (it
// rejects unknown opcodes and extended instructions, which print as immediates here).
#include "spire/asm/Disassembler.h"
#include "spire/binary/Literal.h"
#include "spire/grammar/Grammar.h"
#include "spire/module/Module.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <functional>

using namespace spire;
using grammar::Op;

namespace {

using Words = std::vector<uint32_t>;

Words inst(Op op, Words operands) {
  Words w = {uint32_t(operands.size() + 1) << 16 | uint32_t(op)};
  w.insert(w.end(), operands.begin(), operands.end());
  return w;
}

// An instruction with a string operand between `before` and `after`.
Words inst(Op op, Words before, std::string_view s, Words after = {}) {
  binary::appendString(before, s);
  before.insert(before.end(), after.begin(), after.end());
  return inst(op, before);
}

Words moduleWords(std::initializer_list<Words> body, uint32_t bound, uint32_t generator) {
  Words w = {binary::kMagic, 0x00010500u, generator, bound, 0};
  for (const Words &i : body)
    w.insert(w.end(), i.begin(), i.end());
  return w;
}

constexpr DisassembleOptions kNoHeader = {.header = false};

std::string dis(std::initializer_list<Words> body, DisassembleOptions options = kNoHeader,
                uint32_t bound = 100, uint32_t generator = 0) {
  Words words = moduleWords(body, bound, generator);
  Expected<Module> m = Module::fromWords(words, {.allowIdsPastBound = true});
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().format());
  if (!m)
    return "";
  // SPIRE_DUMP_DIS_TESTS=<dir> writes each module there, to check the expected texts with
  // spirv-dis.
  if (const char *dir = std::getenv("SPIRE_DUMP_DIS_TESTS")) {
    std::string_view bytes(reinterpret_cast<const char *>(words.data()), words.size() * 4);
    std::ofstream f(std::string(dir) + "/" +
                        ::testing::UnitTest::GetInstance()->current_test_info()->name() + "-" +
                        std::to_string(std::hash<std::string_view>{}(bytes) % 100000) + ".spv",
                    std::ios::binary);
    f.write(bytes.data(), std::streamsize(bytes.size()));
  }
  return disassemble(*m, options);
}

const Words kShader = inst(Op::Capability, {1});
const Words kLogical = inst(Op::MemoryModel, {0, 1});
const Words kInt = inst(Op::TypeInt, {1, 32, 1});
const Words kUint = inst(Op::TypeInt, {2, 32, 0});
const Words kFloat = inst(Op::TypeFloat, {3, 32});
const Words kDouble = inst(Op::TypeFloat, {4, 64});
const Words kHalf = inst(Op::TypeFloat, {5, 16});
const Words kLong = inst(Op::TypeInt, {6, 64, 1});
const Words kUlong = inst(Op::TypeInt, {7, 64, 0});
const Words kVoid = inst(Op::TypeVoid, {8});

} // namespace

TEST(Disassembler, HeaderNamesTheGenerator) {
  EXPECT_EQ(dis({kShader}, {}, 12, 0x00070000u), "; SPIR-V\n"
                                                 "; Version: 1.5\n"
                                                 "; Generator: Khronos SPIR-V Tools Assembler; 0\n"
                                                 "; Bound: 12\n"
                                                 "; Schema: 0\n"
                                                 "               OpCapability Shader\n");
  // A vendor without a tool, then an unregistered tool.
  EXPECT_EQ(dis({}, {}, 1, 0x00000005u), "; SPIR-V\n; Version: 1.5\n; Generator: Khronos; 5\n"
                                         "; Bound: 1\n; Schema: 0\n");
  EXPECT_EQ(dis({}, {}, 7, 0xFFFF0102u),
            "; SPIR-V\n; Version: 1.5\n; Generator: Unknown(65535); 258\n; Bound: 7\n"
            "; Schema: 0\n");
}

TEST(Disassembler, ResultIdsAlignOpcodes) {
  EXPECT_EQ(dis({kShader, kLogical, kInt, inst(Op::Name, {9}, "a_rather_long_name"),
                 inst(Op::TypePointer, {9, 7, 1}), inst(Op::TypePointer, {10, 7, 9})}),
            "               OpCapability Shader\n"
            "               OpMemoryModel Logical GLSL450\n"
            "        %int = OpTypeInt 32 1\n"
            "               OpName %a_rather_long_name \"a_rather_long_name\"\n"
            "%a_rather_long_name = OpTypePointer Function %int\n"
            "%_ptr_Function_a_rather_long_name = OpTypePointer Function %a_rather_long_name\n");
  // Eleven characters still fit; --no-indent drops the alignment.
  EXPECT_EQ(dis({inst(Op::Name, {9}, "abcdefghijk"), inst(Op::TypeVoid, {9})}),
            "               OpName %abcdefghijk \"abcdefghijk\"\n"
            "%abcdefghijk = OpTypeVoid\n");
  EXPECT_EQ(dis({kShader, kInt}, {.header = false, .indent = false}),
            "OpCapability Shader\n%int = OpTypeInt 32 1\n");
}

TEST(Disassembler, IntegerLiteralsFollowTheirType) {
  const Words kChar = inst(Op::TypeInt, {11, 8, 1});
  const Words kUshort = inst(Op::TypeInt, {12, 16, 0});
  EXPECT_EQ(dis({kInt, kUint, kLong, kUlong, kChar, kUshort,
                 inst(Op::Constant, {1, 20, 0xFFFFFFFBu}), inst(Op::Constant, {2, 21, 0xFFFFFFFBu}),
                 inst(Op::Constant, {6, 22, 0x5EC47A00u, 0xFFFFFFFEu}),
                 inst(Op::Constant, {7, 23, 0xFFFFFFFFu, 0xFFFFFFFFu}),
                 // Narrow types print the whole word, sign-extended or not.
                 inst(Op::Constant, {11, 24, 0xFFFFFFFDu}), inst(Op::Constant, {11, 25, 0xFDu}),
                 inst(Op::Constant, {12, 26, 0xFFFF0001u})}),
            "        %int = OpTypeInt 32 1\n"
            "       %uint = OpTypeInt 32 0\n"
            "       %long = OpTypeInt 64 1\n"
            "      %ulong = OpTypeInt 64 0\n"
            "       %char = OpTypeInt 8 1\n"
            "     %ushort = OpTypeInt 16 0\n"
            "     %int_n5 = OpConstant %int -5\n"
            "%uint_4294967291 = OpConstant %uint 4294967291\n"
            "%long_n7000000000 = OpConstant %long -7000000000\n"
            "%ulong_18446744073709551615 = OpConstant %ulong 18446744073709551615\n"
            "    %char_n3 = OpConstant %char -3\n"
            "   %char_253 = OpConstant %char 253\n"
            "%ushort_4294901761 = OpConstant %ushort 4294901761\n");
}

TEST(Disassembler, FloatLiteralsByValueClass) {
  EXPECT_EQ(dis({kFloat,
                 kDouble,
                 kHalf,
                 inst(Op::Constant, {3, 20, 0x3DCCCCCDu}),              // 0.1
                 inst(Op::Constant, {3, 21, 0x80000000u}),              // -0
                 inst(Op::Constant, {3, 22, 0x00000001u}),              // smallest subnormal
                 inst(Op::Constant, {3, 23, 0x007FFFFFu}),              // largest subnormal
                 inst(Op::Constant, {3, 24, 0xFF800000u}),              // -infinity
                 inst(Op::Constant, {3, 25, 0xFFC00000u}),              // quiet NaN
                 inst(Op::Constant, {3, 26, 0x7F800001u}),              // signalling NaN
                 inst(Op::Constant, {3, 27, 0x60AD78ECu}),              // 1e20
                 inst(Op::Constant, {4, 30, 0x9999999Au, 0x3FB99999u}), // 0.1
                 inst(Op::Constant, {4, 31, 0x00000001u, 0}),
                 inst(Op::Constant, {4, 32, 0, 0x7FF80000u}),
                 inst(Op::Constant, {4, 33, 0, 0x40080000u}), // 3
                 inst(Op::Constant, {5, 40, 0x3C00u}),
                 inst(Op::Constant, {5, 41, 0x8000u}),
                 inst(Op::Constant, {5, 42, 0x03FFu}),
                 inst(Op::Constant, {5, 43, 0x7C01u}),
                 inst(Op::Constant, {5, 44, 0x3555u})}),
            "      %float = OpTypeFloat 32\n"
            "     %double = OpTypeFloat 64\n"
            "       %half = OpTypeFloat 16\n"
            "%float_0_100000001 = OpConstant %float 0.100000001\n"
            "   %float_n0 = OpConstant %float -0\n"
            "%float_0x1pn149 = OpConstant %float 0x1p-149\n"
            "%float_0x1_fffffcpn127 = OpConstant %float 0x1.fffffcp-127\n"
            "%float_n0x1p_128 = OpConstant %float -0x1p+128\n"
            "%float_n0x1_8p_128 = OpConstant %float -0x1.8p+128\n"
            "%float_0x1_000002p_128 = OpConstant %float 0x1.000002p+128\n"
            "%float_1_00000002e_20 = OpConstant %float 1.00000002e+20\n"
            "%double_0_10000000000000001 = OpConstant %double 0.10000000000000001\n"
            "%double_0x1pn1074 = OpConstant %double 0x1p-1074\n"
            "%double_0x1_8p_1024 = OpConstant %double 0x1.8p+1024\n"
            "   %double_3 = OpConstant %double 3\n"
            "%half_0x1p_0 = OpConstant %half 0x1p+0\n"
            "%half_n0x0p_0 = OpConstant %half -0x0p+0\n"
            "%half_0x1_ff8pn15 = OpConstant %half 0x1.ff8p-15\n"
            "%half_0x1_004p_16 = OpConstant %half 0x1.004p+16\n"
            "%half_0x1_554pn2 = OpConstant %half 0x1.554p-2\n");
}

TEST(Disassembler, StringsAreQuotedAndEscaped) {
  EXPECT_EQ(
      dis({inst(Op::String, {9}, "a\"b\\c\nd"), inst(Op::Source, {2, 450, 9}, "void main() {}"),
           inst(Op::Decorate, {9, 5635 /*UserSemantic*/}, "x\\")}),
      "          %9 = OpString \"a\\\"b\\\\c\nd\"\n"
      "               OpSource GLSL 450 %9 \"void main() {}\"\n"
      "               OpDecorate %9 UserSemantic \"x\\\\\"\n");
}

TEST(Disassembler, EnumerantsMasksAndTheirParameters) {
  EXPECT_EQ(
      dis({kInt, kVoid, inst(Op::TypeFunction, {9, 8}), inst(Op::TypePointer, {10, 7, 1}),
           inst(Op::ExecutionMode, {11, 17, 8, 4, 1}), inst(Op::Decorate, {12, 1 /*SpecId*/, 5}),
           inst(Op::Function, {8, 11, 0x5 /*Inline|Pure*/, 9}), inst(Op::Label, {13}),
           inst(Op::Variable, {10, 12, 7}), inst(Op::Load, {1, 14, 12, 0}),
           inst(Op::Load, {1, 15, 12, 0x3 /*Volatile|Aligned*/, 4}),
           inst(Op::LoopMerge, {13, 13, 0x9 /*Unroll|DependencyLength*/, 2}),
           inst(Op::SelectionMerge, {13, 0}), inst(Op::Return, {}), inst(Op::FunctionEnd, {})}),
      "        %int = OpTypeInt 32 1\n"
      "       %void = OpTypeVoid\n"
      "          %9 = OpTypeFunction %void\n"
      "%_ptr_Function_int = OpTypePointer Function %int\n"
      "               OpExecutionMode %11 LocalSize 8 4 1\n"
      "               OpDecorate %12 SpecId 5\n"
      "         %11 = OpFunction %void Inline|Pure %9\n"
      "         %13 = OpLabel\n"
      "         %12 = OpVariable %_ptr_Function_int Function\n"
      "         %14 = OpLoad %int %12 None\n"
      "         %15 = OpLoad %int %12 Volatile|Aligned 4\n"
      "               OpLoopMerge %13 %13 Unroll|DependencyLength 2\n"
      "               OpSelectionMerge %13 None\n"
      "               OpReturn\n"
      "               OpFunctionEnd\n");
}

TEST(Disassembler, SwitchCaseLiteralsAreAsWideAsTheSelector) {
  EXPECT_EQ(dis({kLong, kVoid, inst(Op::TypeFunction, {9, 8}),
                 inst(Op::Constant, {6, 10, 0xD5FA0E00u, 0xFFFFFFFEu}),
                 inst(Op::Function, {8, 11, 0, 9}), inst(Op::Label, {12}),
                 inst(Op::Switch, {10, 13, 0xD5FA0E00u, 0xFFFFFFFEu, 14, 7, 0, 13}),
                 inst(Op::Label, {14}), inst(Op::Branch, {13}), inst(Op::Label, {13}),
                 inst(Op::Return, {}), inst(Op::FunctionEnd, {})}),
            "       %long = OpTypeInt 64 1\n"
            "       %void = OpTypeVoid\n"
            "          %9 = OpTypeFunction %void\n"
            "%long_n5000000000 = OpConstant %long -5000000000\n"
            "         %11 = OpFunction %void None %9\n"
            "         %12 = OpLabel\n"
            "               OpSwitch %long_n5000000000 %13 -5000000000 %14 7 %13\n"
            "         %14 = OpLabel\n"
            "               OpBranch %13\n"
            "         %13 = OpLabel\n"
            "               OpReturn\n"
            "               OpFunctionEnd\n");
}

TEST(Disassembler, SpecConstantOpNamesItsOperation) {
  EXPECT_EQ(dis({kInt, inst(Op::Constant, {1, 9, 3}),
                 inst(Op::SpecConstantOp, {1, 10, uint32_t(Op::IAdd), 9, 9}),
                 inst(Op::SpecConstantOp, {1, 11, uint32_t(Op::CompositeExtract), 9, 0, 1})}),
            "        %int = OpTypeInt 32 1\n"
            "      %int_3 = OpConstant %int 3\n"
            "         %10 = OpSpecConstantOp %int IAdd %int_3 %int_3\n"
            "         %11 = OpSpecConstantOp %int CompositeExtract %int_3 0 1\n");
}

TEST(Disassembler, ExtendedInstructionsByName) {
  EXPECT_EQ(dis({inst(Op::ExtInstImport, {20}, "GLSL.std.450"),
                 inst(Op::ExtInstImport, {21}, "OpenCL.DebugInfo.100"), kFloat, kVoid,
                 inst(Op::ExtInst, {3, 22, 20, 31 /*Sqrt*/, 22}),
                 inst(Op::ExtInst, {8, 23, 21, 0 /*DebugInfoNone*/}),
                 inst(Op::ExtInst, {8, 24, 21, 8 /*DebugTypeFunction*/, 0x7, 8}),
                 inst(Op::ExtInst, {8, 25, 21, 8, 0, 8}),
                 inst(Op::ExtInst, {8, 26, 21, 2 /*DebugTypeBasic*/, 23, 23, 3 /*Float*/})}),
            "         %20 = OpExtInstImport \"GLSL.std.450\"\n"
            "         %21 = OpExtInstImport \"OpenCL.DebugInfo.100\"\n"
            "      %float = OpTypeFloat 32\n"
            "       %void = OpTypeVoid\n"
            "         %22 = OpExtInst %float %20 Sqrt %22\n"
            "         %23 = OpExtInst %void %21 DebugInfoNone\n"
            "         %24 = OpExtInst %void %21 DebugTypeFunction "
            "FlagIsProtected|FlagIsPrivate|FlagIsLocal %void\n"
            "         %25 = OpExtInst %void %21 DebugTypeFunction None %void\n"
            "         %26 = OpExtInst %void %21 DebugTypeBasic %23 %23 Float\n");
}

TEST(Disassembler, NonSemanticSetsSpirvDisDoesNotKnowPrintNumbersAndIds) {
  // spirv-dis names the instructions of NonSemantic.Shader.DebugInfo under any version, but not
  // those of NonSemantic.DebugPrintf (although the grammar has them), nor of sets it has no
  // grammar for. Grammars with the unversioned debug info file (SPIR-V 1.6 revision 7) decode
  // every version of the import with it; older ones know the .100 import only.
  const bool living = grammar::findExtInstSet("NonSemantic.Shader.DebugInfo.300") != nullptr;
  EXPECT_EQ(dis({inst(Op::ExtInstImport, {20}, "NonSemantic.DebugPrintf"),
                 inst(Op::ExtInstImport, {21}, "NonSemantic.Shader.DebugInfo.100"),
                 inst(Op::ExtInstImport, {22}, "NonSemantic.Shader.DebugInfo.300"),
                 inst(Op::ExtInstImport, {23}, "NonSemantic.Unheard.Of"), kVoid,
                 inst(Op::String, {9}, "%d"), inst(Op::ExtInst, {8, 30, 20, 1, 9, 8}),
                 inst(Op::ExtInst, {8, 31, 21, 0 /*DebugInfoNone*/}),
                 inst(Op::ExtInst, {8, 34, 21, 999, 8, 21}),
                 inst(Op::ExtInst, {8, 32, 22, 2 /*DebugTypeBasic*/, 9, 9, 9, 9}),
                 inst(Op::ExtInst, {8, 33, 23, 7, 9, 30})}),
            std::string("         %20 = OpExtInstImport \"NonSemantic.DebugPrintf\"\n"
                        "         %21 = OpExtInstImport \"NonSemantic.Shader.DebugInfo.100\"\n"
                        "         %22 = OpExtInstImport \"NonSemantic.Shader.DebugInfo.300\"\n"
                        "         %23 = OpExtInstImport \"NonSemantic.Unheard.Of\"\n"
                        "       %void = OpTypeVoid\n"
                        "          %9 = OpString \"%d\"\n"
                        "         %30 = OpExtInst %void %20 1 %9 %void\n"
                        "         %31 = OpExtInst %void %21 DebugInfoNone\n"
                        "         %34 = OpExtInst %void %21 999 %void %21\n") +
                (living ? "         %32 = OpExtInst %void %22 DebugTypeBasic %9 %9 %9 %9\n"
                        : "         %32 = OpExtInst %void %22 2 %9 %9 %9 %9\n") +
                "         %33 = OpExtInst %void %23 7 %9 %30\n");
}

TEST(Disassembler, DebugInfoImportsReadTheLivingGrammarWhenThereIsOne) {
  // DebugTypeVectorIdEXT (109) is in the unversioned grammar only; a module importing
  // NonSemantic.Shader.DebugInfo.100 uses it, and spirv-dis v2026.4 names it.
  const grammar::ExtInstSetDesc *set = grammar::findExtInstSet("NonSemantic.Shader.DebugInfo.100");
  ASSERT_NE(set, nullptr);
  if (grammar::findExtInst(*set, 109) == nullptr)
    GTEST_SKIP() << "this build's grammar has no unversioned NonSemantic.Shader.DebugInfo";
  EXPECT_EQ(dis({inst(Op::ExtInstImport, {21}, "NonSemantic.Shader.DebugInfo.100"), kVoid,
                 inst(Op::ExtInst, {8, 30, 21, 109, 8, 8, 8})}),
            "         %21 = OpExtInstImport \"NonSemantic.Shader.DebugInfo.100\"\n"
            "       %void = OpTypeVoid\n"
            "         %30 = OpExtInst %void %21 DebugTypeVectorIdEXT %void %void %void\n");
}

TEST(Disassembler, UnknownExtendedInstructionsPrintAsImmediates) {
  // spirv-dis rejects these; the text keeps the words so that an assembler gets them back.
  EXPECT_EQ(dis({inst(Op::ExtInstImport, {20}, "GLSL.std.450"), kFloat,
                 inst(Op::ExtInst, {3, 21, 20, 999, 5, 6})}),
            "         %20 = OpExtInstImport \"GLSL.std.450\"\n"
            "      %float = OpTypeFloat 32\n"
            "         %21 = OpExtInst %float %20 !999 !5 !6\n");
}

TEST(Disassembler, FriendlyNamesForTypesAndConstants) {
  EXPECT_EQ(dis({kInt,
                 kUint,
                 kFloat,
                 kVoid,
                 inst(Op::TypeBool, {9}),
                 inst(Op::TypeInt, {10, 12, 1}),
                 inst(Op::TypeInt, {11, 12, 0}),
                 inst(Op::TypeFloat, {12, 8}),
                 inst(Op::TypeVector, {13, 3, 4}),
                 inst(Op::TypeMatrix, {14, 13, 3}),
                 inst(Op::TypeArray, {15, 3, 16}),
                 inst(Op::Constant, {2, 16, 4}),
                 inst(Op::TypeArray, {17, 3, 16}),
                 inst(Op::TypeRuntimeArray, {18, 13}),
                 inst(Op::TypeStruct, {19, 3, 1}),
                 inst(Op::TypeOpaque, {20}, "my.type"),
                 inst(Op::TypeOpaque, {21}, ""),
                 inst(Op::TypePointer, {22, 12 /*StorageBuffer*/, 19}),
                 inst(Op::TypePipe, {23, 0}),
                 inst(Op::TypeEvent, {24}),
                 inst(Op::TypeDeviceEvent, {25}),
                 inst(Op::TypeReserveId, {26}),
                 inst(Op::TypeQueue, {27}),
                 inst(Op::TypePipeStorage, {28}),
                 inst(Op::TypeNamedBarrier, {29}),
                 inst(Op::TypeSampler, {30}),
                 inst(Op::ConstantTrue, {9, 31}),
                 inst(Op::ConstantFalse, {9, 32}),
                 inst(Op::Constant, {3, 33, 0xBF800000u}),
                 inst(Op::Constant, {3, 34, 0x3FC00000u}),
                 inst(Op::ConstantNull, {1, 35}),
                 inst(Op::SpecConstant, {1, 36, 7})}),
            "        %int = OpTypeInt 32 1\n"
            "       %uint = OpTypeInt 32 0\n"
            "      %float = OpTypeFloat 32\n"
            "       %void = OpTypeVoid\n"
            "       %bool = OpTypeBool\n"
            "        %i12 = OpTypeInt 12 1\n"
            "        %u12 = OpTypeInt 12 0\n"
            "        %fp8 = OpTypeFloat 8\n"
            "    %v4float = OpTypeVector %float 4\n"
            "%mat3v4float = OpTypeMatrix %v4float 3\n"
            // The length is defined later: its number stands in.
            "%_arr_float_16 = OpTypeArray %float %uint_4\n"
            "     %uint_4 = OpConstant %uint 4\n"
            "%_arr_float_uint_4 = OpTypeArray %float %uint_4\n"
            "%_runtimearr_v4float = OpTypeRuntimeArray %v4float\n"
            " %_struct_19 = OpTypeStruct %float %int\n"
            "%Opaque_my_type = OpTypeOpaque \"my.type\"\n"
            "   %Opaque__ = OpTypeOpaque \"\"\n"
            "%_ptr_StorageBuffer__struct_19 = OpTypePointer StorageBuffer %_struct_19\n"
            "%PipeReadOnly = OpTypePipe ReadOnly\n"
            "      %Event = OpTypeEvent\n"
            "%DeviceEvent = OpTypeDeviceEvent\n"
            "  %ReserveId = OpTypeReserveId\n"
            "      %Queue = OpTypeQueue\n"
            "%PipeStorage = OpTypePipeStorage\n"
            "%NamedBarrier = OpTypeNamedBarrier\n"
            "         %30 = OpTypeSampler\n"
            "       %true = OpConstantTrue %bool\n"
            "      %false = OpConstantFalse %bool\n"
            "   %float_n1 = OpConstant %float -1\n"
            "  %float_1_5 = OpConstant %float 1.5\n"
            "         %35 = OpConstantNull %int\n"
            "         %36 = OpSpecConstant %int 7\n");
}

TEST(Disassembler, FriendlyNamesAreSanitizedAndMadeUnique) {
  EXPECT_EQ(
      dis({inst(Op::Name, {20}, "a b.c-d"), inst(Op::Name, {21}, ""),
           inst(Op::Name, {22}, "h\xC3\xA9llo"), inst(Op::Name, {23}, "x"),
           inst(Op::Name, {23}, "y"), inst(Op::Name, {24}, "x_0"), inst(Op::Name, {25}, "x"),
           inst(Op::Name, {26}, "x"), inst(Op::Name, {27}, "30"), inst(Op::Name, {28}, "int"),
           inst(Op::Decorate, {29, 11, 0 /*Position*/}), inst(Op::Decorate, {23, 11, 0}),
           inst(Op::Decorate, {40, 11, 4424 /*BaseVertex*/}),
           inst(Op::Decorate, {41, 11, 4425 /*BaseInstance*/}),
           inst(Op::Decorate, {42, 11, 26 /*WorkgroupId*/}),
           inst(Op::Decorate, {43, 11, 4416 /*SubgroupEqMask*/}), kInt, inst(Op::Undef, {1, 30})}),
      "               OpName %a_b_c_d \"a b.c-d\"\n"
      "               OpName %_ \"\"\n"
      "               OpName %h__llo \"h\xC3\xA9llo\"\n"
      "               OpName %x \"x\"\n"
      "               OpName %x \"y\"\n"
      "               OpName %x_0 \"x_0\"\n"
      "               OpName %x_1 \"x\"\n"
      "               OpName %x_2 \"x\"\n"
      "               OpName %30 \"30\"\n"
      "               OpName %int \"int\"\n"
      "               OpDecorate %gl_Position BuiltIn Position\n"
      "               OpDecorate %x BuiltIn Position\n"
      "               OpDecorate %40 BuiltIn BaseVertex\n"
      "               OpDecorate %gl_BaseInstance BuiltIn BaseInstance\n"
      "               OpDecorate %gl_WorkGroupID BuiltIn WorkgroupId\n"
      "               OpDecorate %SubgroupEqMaskKHR BuiltIn SubgroupEqMask\n"
      "      %int_0 = OpTypeInt 32 1\n"
      "       %30_0 = OpUndef %int_0\n");
}

TEST(Disassembler, RawIdsOption) {
  EXPECT_EQ(dis({inst(Op::Name, {1}, "main"), kInt, inst(Op::Constant, {1, 123456789, 5})},
                {.header = false, .friendlyNames = false}),
            "               OpName %1 \"main\"\n"
            "          %1 = OpTypeInt 32 1\n"
            "  %123456789 = OpConstant %1 5\n");
}

TEST(Disassembler, OffsetsOption) {
  // Comments start at column 52 or two past the text, rounded up to a multiple of 4, and no
  // left of the previous line's comment.
  EXPECT_EQ(dis({kShader, kInt,
                 inst(Op::Name, {50}, "a_name_long_enough_to_push_its_comment_right"), kInt},
                {.header = false, .offsets = true}),
            "               OpCapability Shader                  ; 0x00000014\n"
            "        %int = OpTypeInt 32 1                       ; 0x0000001c\n"
            "               OpName %a_name_long_enough_to_push_its_comment_right "
            "\"a_name_long_enough_to_push_its_comment_right\"  ; 0x0000002c\n"
            "        %int = OpTypeInt 32 1                                      "
            "                                                 ; 0x00000064\n");
}

TEST(Disassembler, ColorOption) {
  // Comments align on the text as seen, without its color escapes; only the offset is grey.
  EXPECT_EQ(dis({inst(Op::ExtInstImport, {20}, "GLSL.std.450"), kShader, kLogical, kFloat,
                 inst(Op::Constant, {3, 9, 0x3F800000u}), inst(Op::ExtInst, {3, 10, 20, 31, 9})},
                {.header = false, .offsets = true, .color = true}),
            "\x1b[34m         %20\x1b[0m = OpExtInstImport \"\x1b[32mGLSL.std.450\x1b[0m\"\x1b[0m"
            "       ; \x1b[1;30m0x00000014\x1b[0m\n"
            "               OpCapability Shader\x1b[0m                  ; \x1b[1;30m0x0000002c"
            "\x1b[0m\n"
            "               OpMemoryModel Logical\x1b[0m GLSL450\x1b[0m        ; "
            "\x1b[1;30m0x00000034\x1b[0m\n"
            "\x1b[34m      %float\x1b[0m = OpTypeFloat \x1b[31m32\x1b[0m\x1b[0m"
            "                       ; \x1b[1;30m0x00000040\x1b[0m\n"
            "\x1b[34m    %float_1\x1b[0m = OpConstant \x1b[33m%float\x1b[0m "
            "\x1b[31m1\x1b[0m\x1b[0m                  ; \x1b[1;30m0x0000004c\x1b[0m\n"
            "\x1b[34m         %10\x1b[0m = OpExtInst \x1b[33m%float\x1b[0m \x1b[33m%20\x1b[0m "
            "\x1b[31mSqrt\x1b[0m \x1b[33m%float_1\x1b[0m   ; \x1b[1;30m0x0000005c\x1b[0m\n");
}

TEST(Disassembler, CommentOption) {
  EXPECT_EQ(dis({kShader, kLogical, inst(Op::EntryPoint, {5, 11}, "main"),
                 inst(Op::Name, {11}, "main"), inst(Op::Decorate, {11, 33 /*Binding*/, 0}), kVoid,
                 inst(Op::TypeFunction, {9, 8}), inst(Op::Function, {8, 11, 0, 9}),
                 inst(Op::Label, {12}), inst(Op::Return, {}), inst(Op::FunctionEnd, {})},
                {.header = false, .comment = true}),
            "               OpCapability Shader\n"
            "               OpMemoryModel Logical GLSL450\n"
            "               OpEntryPoint GLCompute %main \"main\"\n"
            "\n"
            "               ; Debug Information\n"
            "               OpName %main \"main\"                  ; id %11\n"
            "\n"
            "               ; Annotations\n"
            "               OpDecorate %main Binding 0\n"
            "\n"
            "               ; Types, variables and constants\n"
            "       %void = OpTypeVoid\n"
            "          %9 = OpTypeFunction %void\n"
            "\n"
            "               ; Function main\n"
            "       %main = OpFunction %void None %9             ; Binding 0\n"
            "         %12 = OpLabel\n"
            "               OpReturn\n"
            "               OpFunctionEnd\n");
}

TEST(Disassembler, OpcodesSharingAValuePrintTheLeastName) {
  EXPECT_EQ(
      dis({inst(Op::TypeAccelerationStructureKHR, {9}), inst(Op::DecorateString, {9, 5635}, "s")}),
      "          %9 = OpTypeAccelerationStructureKHR\n"
      "               OpDecorateString %9 UserSemantic \"s\"\n");
}

TEST(Disassembler, RawInstructionsPrintAsImmediates) {
  // An unknown opcode after an instruction that takes no more operands, then one after an
  // instruction that could (OpTypeStruct): the assembler would read "!..." as more members, so
  // that instruction prints as immediates too.
  const uint32_t unknown = 0x0003FFF0u;
  EXPECT_EQ(
      dis({kShader, {unknown, 1, 2}, kInt, inst(Op::TypeStruct, {9, 1}), {unknown, 3, 4}, kVoid},
          {.header = false, .friendlyNames = false}),
      "               OpCapability Shader\n"
      "               !262128 !1 !2\n"
      "          %1 = OpTypeInt 32 1\n"
      "               !196638 !9 !1\n"
      "               !262128 !3 !4\n"
      "          %8 = OpTypeVoid\n");
}

TEST(Disassembler, NamesThatAreNumbers) {
  // Ids without other names are named by their number; names given later (out of the usual
  // layout, which spirv-dis accepts) that collide with those get suffixes, and an id named
  // once keeps its name.
  EXPECT_EQ(dis({kInt, inst(Op::Undef, {1, 5}), inst(Op::Name, {7}, "5"), inst(Op::Name, {8}, "5"),
                 inst(Op::Undef, {1, 9}), inst(Op::Name, {9}, "x"), inst(Op::Name, {10}, "11"),
                 inst(Op::Undef, {1, 11}), inst(Op::Undef, {1, 12}), inst(Op::Name, {13}, "012"),
                 inst(Op::Name, {14}, "12")}),
            "        %int = OpTypeInt 32 1\n"
            "          %5 = OpUndef %int\n"
            "               OpName %5_0 \"5\"\n"
            "               OpName %5_1 \"5\"\n"
            "          %9 = OpUndef %int\n"
            "               OpName %9 \"x\"\n"
            "               OpName %11 \"11\"\n"
            "       %11_0 = OpUndef %int\n"
            "         %12 = OpUndef %int\n"
            "               OpName %012 \"012\"\n"
            "               OpName %12_0 \"12\"\n");
}

TEST(Disassembler, NestedTypeNamesPastABudgetBecomeNumbers) {
  // Each pointer's name contains the previous one's: their total length grows with the square
  // of the module's size. spirv-dis goes on regardless; spire names the ids past a budget
  // linear in the module's size by their number.
  Words words = moduleWords({kFloat}, 5000, 0);
  for (uint32_t i = 0; i < 3000; ++i) {
    Words p = inst(Op::TypePointer, {10 + i, 7, i == 0 ? 3 : 9 + i});
    words.insert(words.end(), p.begin(), p.end());
  }
  Expected<Module> m = Module::fromWords(words);
  ASSERT_TRUE(m.ok());
  std::string text = disassemble(*m, kNoHeader);
  EXPECT_NE(text.find("%_ptr_Function__ptr_Function_float = OpTypePointer Function "
                      "%_ptr_Function_float\n"),
            std::string::npos);
  EXPECT_NE(text.find("\n       %3009 = OpTypePointer Function %3008\n"), std::string::npos);
  EXPECT_LT(text.size(), size_t(4) << 20);
}

TEST(Disassembler, PiecewiseTextEqualsTheWholeText) {
  // Enough instructions for several pieces of the streaming form.
  std::vector<Words> body = {inst(Op::Capability, {1}), inst(Op::MemoryModel, {0, 1}),
                             inst(Op::TypeInt, {1, 32, 0})};
  for (uint32_t i = 0; i < 60000; ++i)
    body.push_back(inst(Op::Constant, {1, 2 + i, i}));
  Words words = moduleWords({}, 70000, 0);
  words.resize(5);
  for (const Words &inst : body)
    words.insert(words.end(), inst.begin(), inst.end());
  Expected<Module> m = Module::fromWords(words);
  ASSERT_TRUE(m.ok()) << m.error().format();
  for (bool friendly : {true, false}) {
    DisassembleOptions options;
    options.friendlyNames = friendly;
    std::string whole = disassemble(*m, options), pieces;
    size_t count = 0;
    disassemble(*m, options, [&](std::string_view piece) {
      pieces += piece;
      ++count;
    });
    EXPECT_GT(count, 1u);
    EXPECT_EQ(pieces, whole);
  }
}

TEST(Disassembler, InstructionPrinterPrintsSingleInstructionsAndNames) {
  Words words = moduleWords({inst(Op::Capability, {1}), inst(Op::MemoryModel, {0, 1}),
                             inst(Op::Name, {2}, "main"), inst(Op::TypeInt, {1, 32, 0}),
                             inst(Op::Constant, {1, 3, 7})},
                            10, 0);
  Expected<Module> m = Module::fromWords(words);
  ASSERT_TRUE(m.ok()) << m.error().format();
  InstructionPrinter names(*m);
  EXPECT_EQ(names.print(3), "%uint = OpTypeInt 32 0");
  EXPECT_EQ(names.print(4), "%uint_7 = OpConstant %uint 7");
  EXPECT_EQ(names.id(2), "%main");
  EXPECT_EQ(names.id(9), "%9");
  InstructionPrinter raw(*m, false);
  EXPECT_EQ(raw.print(4), "%3 = OpConstant %1 7");
}
