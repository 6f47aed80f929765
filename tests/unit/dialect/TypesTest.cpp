// Dialect types: uniquing, MLIR syntax (as mlir-translate-16 prints it), parsing every spelling
// the dialect's documentation uses, import from a module.
#include "spire/dialect/Types.h"
#include "spire/asm/Assembler.h"
#include "spire/dialect/ModuleTypes.h"

#include <gtest/gtest.h>

namespace spire::dialect {
namespace {

constexpr uint32_t kUniform = 2, kStorageBuffer = 12, kFunction = 7;

TEST(DialectTypes, UniquedInTheContext) {
  Context ctx;
  EXPECT_EQ(ctx.integer(32), ctx.integer(32));
  EXPECT_NE(ctx.integer(32), ctx.integer(32, Signedness::Signed));
  EXPECT_EQ(ctx.vector(ctx.floating(32), 4), ctx.vector(ctx.floating(32), 4));
  EXPECT_NE(ctx.array(ctx.floating(32), 4), ctx.array(ctx.floating(32), 4, 16));
  std::vector<StructMember> a{{ctx.floating(32), 0u, {}}}, b{{ctx.floating(32), 4u, {}}};
  EXPECT_EQ(ctx.literalStruct(a), ctx.literalStruct(a));
  EXPECT_NE(ctx.literalStruct(a), ctx.literalStruct(b));
  EXPECT_EQ(ctx.identifiedStruct("S"), ctx.identifiedStruct("S"));
  EXPECT_TRUE(ctx.integer(1).isBool());
}

TEST(DialectTypes, PrintsAsMlirTranslateDoes) {
  Context ctx;
  Type f32 = ctx.floating(32), v4 = ctx.vector(f32, 4);
  EXPECT_EQ(toString(ctx.integer(32, Signedness::Signed)), "si32");
  EXPECT_EQ(toString(ctx.integer(8, Signedness::Unsigned)), "ui8");
  EXPECT_EQ(toString(v4), "vector<4xf32>");
  EXPECT_EQ(toString(ctx.pointer(v4, kUniform)), "!spirv.ptr<vector<4xf32>, Uniform>");
  EXPECT_EQ(toString(ctx.array(f32, 6, 4)), "!spirv.array<6 x f32, stride=4>");
  EXPECT_EQ(toString(ctx.runtimeArray(ctx.integer(32, Signedness::Signed), 4)),
            "!spirv.rtarray<si32, stride=4>");
  EXPECT_EQ(toString(ctx.matrix(ctx.vector(f32, 3), 4)), "!spirv.matrix<4 x vector<3xf32>>");
  ImageInfo i;
  i.sampledType = f32;
  i.dim = 0;
  i.sampled = 2;
  EXPECT_EQ(toString(ctx.image(i)),
            "!spirv.image<f32, Dim1D, NoDepth, NonArrayed, SingleSampled, NoSampler, Unknown>");
  // OpenCL's access qualifier follows the format; MLIR 16 has no place for it.
  ImageInfo readOnly = i;
  readOnly.access = 0;
  EXPECT_NE(ctx.image(readOnly), ctx.image(i));
  EXPECT_EQ(toString(ctx.image(readOnly)), "!spirv.image<f32, Dim1D, NoDepth, NonArrayed, "
                                           "SingleSampled, NoSampler, Unknown, ReadOnly>");
  std::string mlir16;
  print(ctx.image(readOnly), mlir16, MlirVersion::Mlir16);
  EXPECT_EQ(mlir16, toString(ctx.image(i)));
  std::vector<StructMember> members{{v4, 0u, {}},
                                    {ctx.matrix(v4, 4), 16u, {{7, 16u}, {5, std::nullopt}}}};
  Type block = ctx.identifiedStruct("Block");
  ASSERT_TRUE(ctx.setStructBody(block, members));
  EXPECT_EQ(toString(ctx.pointer(block, kStorageBuffer)),
            "!spirv.ptr<!spirv.struct<Block, (vector<4xf32> [0], !spirv.matrix<4 x "
            "vector<4xf32>> [16, MatrixStride=16, ColMajor])>, StorageBuffer>");
  EXPECT_EQ(toString(ctx.literalStruct(std::vector<StructMember>{{f32, std::nullopt, {}}})),
            "!spirv.struct<(f32)>");
  Type fn = ctx.function(std::vector<Type>{f32, v4}, std::vector<Type>{});
  EXPECT_EQ(toString(fn), "(f32, vector<4xf32>) -> ()");
}

TEST(DialectTypes, StructDecorationsArePartOfTheTypeAndFollowTheMembers) {
  Context ctx;
  Type f32 = ctx.floating(32);
  std::vector<StructMember> members{{f32, 0u, {}}};
  std::vector<MemberDecoration> block{{2, std::nullopt}}, bufferBlock{{3, std::nullopt}};
  Type a = ctx.literalStruct(members, block), b = ctx.literalStruct(members, bufferBlock);
  EXPECT_NE(a, b);
  EXPECT_NE(a, ctx.literalStruct(members));
  EXPECT_EQ(toString(a), "!spirv.struct<(f32 [0]), Block>");
  EXPECT_EQ(toString(b), "!spirv.struct<(f32 [0]), BufferBlock>");
  Expected<Type> back = parseType(ctx, "!spirv.struct<(f32 [0]), BufferBlock>");
  ASSERT_TRUE(bool(back)) << back.error().message;
  EXPECT_EQ(*back, b);
  Type named = ctx.identifiedStruct("S");
  ASSERT_TRUE(ctx.setStructBody(named, members, block));
  EXPECT_EQ(toString(named), "!spirv.struct<S, (f32 [0]), Block>");
  EXPECT_FALSE(ctx.setStructBody(named, members, bufferBlock));
}

TEST(DialectTypes, OpaqueTypesAreNamedAfterTheirInstruction) {
  Context ctx;
  Type rq = ctx.opaque(static_cast<uint32_t>(grammar::Op::TypeRayQueryKHR));
  EXPECT_EQ(toString(rq), "!spirv.ray_query_khr");
  uint32_t readOnly = 0;
  Type pipe =
      ctx.opaque(static_cast<uint32_t>(grammar::Op::TypePipe), std::vector<uint32_t>{readOnly});
  EXPECT_EQ(toString(pipe), "!spirv.pipe<ReadOnly>");
  // "abc" in words, NUL-terminated.
  Type named = ctx.opaque(static_cast<uint32_t>(grammar::Op::TypeOpaque),
                          std::vector<uint32_t>{0x00636261u});
  EXPECT_EQ(toString(named), "!spirv.opaque<\"abc\">");
  for (Type t : {rq, pipe, named}) {
    Expected<Type> back = parseType(ctx, toString(t));
    ASSERT_TRUE(bool(back)) << toString(t) << ": " << back.error().message;
    EXPECT_EQ(*back, t);
  }
  EXPECT_FALSE(bool(parseType(ctx, "!spirv.pipe<Sideways>")));
}

TEST(DialectTypes, RecursiveStructPrintsItsNameInside) {
  Context ctx;
  Type node = ctx.identifiedStruct("Node");
  Type ptr = ctx.pointer(node, 5349); // PhysicalStorageBuffer
  ASSERT_TRUE(
      ctx.setStructBody(node, std::vector<StructMember>{{ctx.integer(32), 0u, {}}, {ptr, 8u, {}}}));
  EXPECT_EQ(toString(node), "!spirv.struct<Node, (i32 [0], !spirv.ptr<!spirv.struct<Node>, "
                            "PhysicalStorageBuffer> [8])>");
  EXPECT_FALSE(ctx.setStructBody(node, std::vector<StructMember>{}));
}

TEST(DialectTypes, StructNamesThatAreNotIdentifiersAreQuoted) {
  // An identifier starts with a letter or '_'; '$' and '.' may follow. HLSL compilers name the
  // global constant buffer's struct "$Global": quoted, and read back to the same struct.
  Context ctx;
  std::vector<StructMember> members{{ctx.floating(32), 0u, {}}};
  for (auto [name, text] : {std::pair<std::string_view, std::string_view>{
                                "$Global", "!spirv.struct<\"$Global\", (f32 [0])>"},
                            {"type.$Globals", "!spirv.struct<type.$Globals, (f32 [0])>"},
                            {"_a$b.c", "!spirv.struct<_a$b.c, (f32 [0])>"},
                            {".x", "!spirv.struct<\".x\", (f32 [0])>"},
                            {"1st", "!spirv.struct<\"1st\", (f32 [0])>"}}) {
    Type s = ctx.identifiedStruct(name);
    ASSERT_TRUE(ctx.setStructBody(s, members));
    EXPECT_EQ(toString(s), text);
    Expected<Type> back = parseType(ctx, text);
    ASSERT_TRUE(bool(back)) << text << ": " << back.error().message;
    EXPECT_EQ(*back, s) << text;
  }
  // MLIR 16's text spells them as mlir-translate-16 printed them: bare.
  std::string mlir16;
  print(ctx.identifiedStruct("$Global"), mlir16, MlirVersion::Mlir16);
  EXPECT_EQ(mlir16, "!spirv.struct<$Global, (f32 [0])>");
}

TEST(DialectTypes, ParsesWhatItPrintsAndTheDocumentedSpellings) {
  Context ctx;
  for (std::string_view text :
       {"i32", "si64", "ui8", "f16", "none", "vector<4xf32>", "!spirv.array<4 x i32, stride=4>",
        "!spirv.rtarray<vector<4xf32>>", "!spirv.ptr<i32, Function>",
        "!spirv.image<f32, Cube, IsDepth, Arrayed, MultiSampled, NeedSampler, Rgba32f>",
        "!spirv.sampled_image<!spirv.image<i32, Rect, DepthUnknown, Arrayed, MultiSampled, "
        "NeedSampler, R8ui>>",
        "!spirv.image<none, Dim2D, NoDepth, NonArrayed, SingleSampled, SamplerUnknown, Unknown, "
        "ReadOnly>",
        "!spirv.sampler", "!spirv.matrix<4 x vector<3xf32>>",
        "!spirv.NV.coopmatrix<8x16xi32, Subgroup>", "!spirv.struct<(f32 [0], i32 [4])>",
        "!spirv.struct<Block, (vector<4xf32> [0, NonWritable], i32 [16, BuiltIn=0])>",
        "(f32, i32) -> f32", "() -> ()"}) {
    Expected<Type> t = parseType(ctx, text);
    ASSERT_TRUE(bool(t)) << text << ": " << t.error().message;
    EXPECT_EQ(toString(*t), text);
    Expected<Type> again = parseType(ctx, toString(*t));
    ASSERT_TRUE(bool(again));
    EXPECT_EQ(*again, *t) << text;
  }
  // Other spellings of the documentation.
  EXPECT_EQ(toString(*parseType(ctx, "!spirv.array<4xf32>")), "!spirv.array<4 x f32>");
  EXPECT_EQ(toString(*parseType(ctx, "!spirv.struct<f32 [0], i32 [4]>")),
            "!spirv.struct<(f32 [0], i32 [4])>");
  EXPECT_EQ(toString(*parseType(ctx, "!spirv.image<f32, 1D, NoDepth, NonArrayed, "
                                     "SingleSampled, SamplerUnknown, Unknown>")),
            "!spirv.image<f32, Dim1D, NoDepth, NonArrayed, SingleSampled, SamplerUnknown, "
            "Unknown>");
  EXPECT_EQ(toString(*parseType(ctx, "!spirv.rtarray<i32, stride = 4>")),
            "!spirv.rtarray<i32, stride=4>");
}

TEST(DialectTypes, ParseErrorsNameTheColumn) {
  Context ctx;
  Expected<Type> t = parseType(ctx, "!spirv.ptr<i32, Nowhere>");
  ASSERT_FALSE(bool(t));
  EXPECT_EQ(t.error().location.column, 17u);
  EXPECT_NE(t.error().message.find("storage class"), std::string::npos);
  EXPECT_FALSE(bool(parseType(ctx, "vector<4xf32")));
  EXPECT_FALSE(bool(parseType(ctx, "i32 i32")));
  EXPECT_FALSE(bool(parseType(ctx, "!spirv.matrix<4 x f32>")));
  EXPECT_FALSE(bool(parseType(ctx, std::string(1000, '(') + ")")));
}

TEST(DialectTypes, ImportsAModulesTypes) {
  const char *text = R"(
OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpName %Block "Block"
OpDecorate %arr ArrayStride 16
OpMemberDecorate %Block 0 Offset 0
OpMemberDecorate %Block 1 Offset 16
OpMemberDecorate %Block 1 NonWritable
%void = OpTypeVoid
%bool = OpTypeBool
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v4 = OpTypeVector %float 4
%uint_3 = OpConstant %uint 3
%arr = OpTypeArray %v4 %uint_3
%Block = OpTypeStruct %int %arr
%ptr = OpTypePointer StorageBuffer %Block
%fn = OpTypeFunction %void %bool %ptr
)";
  AssembleOptions as;
  as.preserveNumericIds = false;
  Expected<std::vector<uint32_t>> words = assemble(text, as);
  ASSERT_TRUE(bool(words));
  Expected<Module> m = Module::fromWords(std::move(words).value());
  ASSERT_TRUE(bool(m));
  Context ctx;
  Expected<ModuleTypes> types = ModuleTypes::import(ctx, *m);
  ASSERT_TRUE(bool(types)) << types.error().message;
  std::vector<std::string> printed;
  for (Instruction inst : *m)
    if (Type t = types->type(inst.resultId()))
      printed.push_back(toString(t));
  const std::vector<std::string> expected = {
      "none",
      "i1",
      "si32",
      "i32",
      "f32",
      "vector<4xf32>",
      "!spirv.array<3 x vector<4xf32>, stride=16>",
      "!spirv.struct<Block, (si32 [0], !spirv.array<3 x vector<4xf32>, stride=16> [16, "
      "NonWritable])>",
      "!spirv.ptr<!spirv.struct<Block, (si32 [0], !spirv.array<3 x vector<4xf32>, stride=16> "
      "[16, NonWritable])>, StorageBuffer>",
      "(i1, !spirv.ptr<!spirv.struct<Block, (si32 [0], !spirv.array<3 x vector<4xf32>, "
      "stride=16> [16, NonWritable])>, StorageBuffer>) -> ()"};
  EXPECT_EQ(printed, expected);
  (void)kFunction;
}

TEST(DialectTypes, CooperativeMatricesSizedBySpecializationConstants) {
  // Rows, columns, scope and (KHR) use may each be a specialization constant's symbol; the
  // dimensions are then spaced like an array's, and the symbol is part of the type.
  Context ctx;
  Type f16 = ctx.floating(16);
  const uint32_t kSubgroup = 3;
  const CoopParam nv[] = {{kSubgroup, {}}, {0, "n"}, {8, {}}};
  Type t = ctx.cooperativeMatrix(f16, nv);
  EXPECT_EQ(toString(t), "!spirv.NV.coopmatrix<@n x 8 x f16, Subgroup>");
  EXPECT_FALSE(t.hasUse());
  EXPECT_EQ(t.coopParam(CoopOperand::Rows), (CoopParam{0, "n"}));
  EXPECT_EQ(t.coopParam(CoopOperand::Columns), (CoopParam{8, {}}));
  EXPECT_EQ(t, ctx.cooperativeMatrix(f16, nv));
  const CoopParam other[] = {{kSubgroup, {}}, {0, "m"}, {8, {}}};
  EXPECT_NE(t, ctx.cooperativeMatrix(f16, other));
  EXPECT_NE(t, ctx.cooperativeMatrix(f16, 0, 8, kSubgroup));
  // Literal operands alone are the plain type.
  const CoopParam literal[] = {{kSubgroup, {}}, {8, {}}, {8, {}}, {2, {}}};
  EXPECT_EQ(ctx.cooperativeMatrix(f16, literal), ctx.cooperativeMatrix(f16, 8, 8, kSubgroup, 2));
  for (std::string_view text : {"!spirv.NV.coopmatrix<@n x 8 x f16, Subgroup>",
                                "!spirv.NV.coopmatrix<8 x @n x f16, Subgroup>",
                                "!spirv.NV.coopmatrix<@n x @n x si32, @scope>",
                                "!spirv.coopmatrix<@\"n 2\" x 16 x f32, Subgroup, MatrixAcc>",
                                "!spirv.coopmatrix<16x16xf32, Workgroup, @use>",
                                "!spirv.coopmatrix<@r x @c x f16, @s, @u>"}) {
    Expected<Type> parsed = parseType(ctx, text);
    ASSERT_TRUE(bool(parsed)) << text << ": " << parsed.error().message;
    EXPECT_EQ(toString(*parsed), text);
    EXPECT_EQ(*parseType(ctx, toString(*parsed)), *parsed) << text;
  }
  EXPECT_EQ(*parseType(ctx, "!spirv.NV.coopmatrix<@n x 8xf16, Subgroup>"), t);
  EXPECT_TRUE(parseType(ctx, "!spirv.coopmatrix<16x16xf32, Workgroup, @use>")->hasUse());
  EXPECT_EQ(parseType(ctx, "!spirv.coopmatrix<16x16xf32, Workgroup, @use>")
                ->coopParam(CoopOperand::Use)
                .symbol,
            "use");
  EXPECT_FALSE(bool(parseType(ctx, "!spirv.NV.coopmatrix<@ x 8 x f16, Subgroup>")));
  EXPECT_FALSE(bool(parseType(ctx, "!spirv.NV.coopmatrix<@n 8 x f16, Subgroup>")));
}

TEST(DialectTypes, ImportsCooperativeMatricesSizedBySpecializationConstants) {
  const char *text = R"(
OpCapability Shader
OpCapability Float16
OpCapability CooperativeMatrixNV
OpExtension "SPV_NV_cooperative_matrix"
OpMemoryModel Logical GLSL450
%half = OpTypeFloat 16
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%uint_3 = OpConstant %uint 3
%uint_8 = OpConstant %uint 8
%int_8 = OpConstant %int 8
%y = OpSpecConstant %int 2
%z = OpSpecConstantOp %int IMul %int_8 %y
%a = OpTypeCooperativeMatrixNV %half %uint_3 %z %uint_8
%b = OpTypeCooperativeMatrixNV %half %y %z %z
)";
  Expected<std::vector<uint32_t>> words = assemble(text, AssembleOptions());
  ASSERT_TRUE(bool(words)) << words.error().message;
  Expected<Module> m = Module::fromWords(std::move(words).value());
  ASSERT_TRUE(bool(m));
  Context ctx;
  // Without symbols for specialization constants, such types cannot be imported.
  EXPECT_FALSE(bool(ModuleTypes::import(ctx, *m)));
  Expected<ModuleTypes> types =
      ModuleTypes::import(ctx, *m, [](uint32_t id) { return "s" + std::to_string(id); });
  ASSERT_TRUE(bool(types)) << types.error().message;
  std::vector<std::string> printed;
  for (Instruction inst : *m)
    if (inst.opcode() == grammar::Op::TypeCooperativeMatrixNV)
      printed.push_back(toString(types->type(inst.resultId())));
  const std::vector<std::string> expected = {"!spirv.NV.coopmatrix<@s8 x 8 x f16, Subgroup>",
                                             "!spirv.NV.coopmatrix<@s8 x @s8 x f16, @s7>"};
  EXPECT_EQ(printed, expected);
}

TEST(DialectTypes, CooperativeMatricesInTodaysAndMlir16Spellings) {
  Context ctx;
  // Today's MLIR: the NV matrix is !spirv.NV.coopmatrix, the KHR one !spirv.coopmatrix with
  // its use. MLIR 16 spelled the NV one !spirv.coopmatrix without a use: it still reads as NV,
  // and --mlir16 prints it that way.
  Expected<Type> nv = parseType(ctx, "!spirv.NV.coopmatrix<8x16xi32, Subgroup>");
  Expected<Type> old = parseType(ctx, "!spirv.coopmatrix<8x16xi32, Subgroup>");
  Expected<Type> khr = parseType(ctx, "!spirv.coopmatrix<8x16xi32, Subgroup, MatrixA>");
  ASSERT_TRUE(nv && old && khr);
  EXPECT_EQ(*nv, *old);
  EXPECT_NE(*nv, *khr);
  EXPECT_EQ(toString(*old), "!spirv.NV.coopmatrix<8x16xi32, Subgroup>");
  EXPECT_EQ(toString(*khr), "!spirv.coopmatrix<8x16xi32, Subgroup, MatrixA>");
  std::string mlir16;
  print(*nv, mlir16, MlirVersion::Mlir16);
  EXPECT_EQ(mlir16, "!spirv.coopmatrix<8x16xi32, Subgroup>");
  // The NV spelling takes no use.
  EXPECT_FALSE(parseType(ctx, "!spirv.NV.coopmatrix<8x16xi32, Subgroup, MatrixA>"));
}

} // namespace
} // namespace spire::dialect
