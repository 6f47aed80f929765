// The ARM tensor type of SPV_ARM_tensors in the dialect (`!spirv.arm.tensor<2x3xi32>`): it
// prints and parses with known, unknown (`?`) and no (`*`) dimensions, serializes as
// OpTypeTensorARM with its rank and shape as constants, holds dense constants of rank 1, needs
// TensorsARM, and deserializes back; a dimension not known is written as a rank without a shape.
#include "spire/dialect/Availability.h"
#include "spire/dialect/Serialization.h"
#include "spire/dialect/Text.h"
#include "spire/dialect/Verifier.h"
#include "spire/module/Module.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

using namespace spire;
using namespace spire::dialect;

namespace {

constexpr std::string_view kModule =
    R"(spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Linkage, TensorsARM], [SPV_ARM_tensors]> {
  spirv.func @f(%arg0: !spirv.arm.tensor<2x3xi32>, %arg1: !spirv.arm.tensor<*xf32>, %arg2: !spirv.arm.tensor<?x?xi32>) -> !spirv.arm.tensor<3xf32> "None" {
    %cst = spirv.Constant dense<[3.000000e+00, 4.000000e+00, 5.000000e+00]> : !spirv.arm.tensor<3xf32>
    spirv.ReturnValue %cst : !spirv.arm.tensor<3xf32>
  }
}
)";

} // namespace

TEST(DialectTensorArm, TypesPrintAndParse) {
  Context ctx;
  for (std::string_view text :
       {"!spirv.arm.tensor<2xi32>", "!spirv.arm.tensor<2x3x4xf16>", "!spirv.arm.tensor<*xi8>",
        "!spirv.arm.tensor<?xi32>", "!spirv.arm.tensor<2x?xsi32>"}) {
    Expected<Type> t = parseType(ctx, text);
    ASSERT_TRUE(bool(t)) << text << ": " << t.error().message;
    EXPECT_TRUE(t->is(TypeKind::TensorArm));
    EXPECT_EQ(toString(*t), text);
  }
  Type t = *parseType(ctx, "!spirv.arm.tensor<2x?xi32>");
  EXPECT_EQ(t.count(), 2u);
  EXPECT_EQ(std::vector<uint32_t>(t.shape().begin(), t.shape().end()),
            (std::vector<uint32_t>{2, Type::kDynamicDim}));
  EXPECT_EQ(parseType(ctx, "!spirv.arm.tensor<*xi32>")->count(), Type::kUnranked);
  for (std::string_view bad : {"!spirv.arm.tensor<i32>", "!spirv.arm.tensor<0xi32>",
                               "!spirv.arm.tensor<2xi32", "!spirv.arm.tensor<*i32>"})
    EXPECT_FALSE(bool(parseType(ctx, bad))) << bad;
}

TEST(DialectTensorArm, NeedsTensorsArm) {
  Context ctx;
  Availability a = typeAvailability(*parseType(ctx, "!spirv.arm.tensor<2xi32>"));
  EXPECT_TRUE(std::any_of(a.capabilities.begin(), a.capabilities.end(), [](const auto &r) {
    return std::find(r.anyOf.begin(), r.anyOf.end(), grammar::Capability::TensorsARM) !=
           r.anyOf.end();
  }));
}

TEST(DialectTensorArm, SerializesWithRankAndShapeAndRoundTrips) {
  Context ctx;
  Expected<OwningOp> op = parse(ctx, kModule);
  ASSERT_TRUE(bool(op)) << op.error().message;
  Status verified = verify(**op);
  ASSERT_TRUE(bool(verified)) << verified.error().message;
  Expected<std::vector<uint32_t>> words = serialize(**op);
  ASSERT_TRUE(bool(words)) << words.error().message;
  Expected<Module> m = Module::fromWords(*words);
  ASSERT_TRUE(bool(m));
  // OpTypeTensorARM %element [%rank [%shape]]: shaped, unranked and ranked without a shape.
  std::vector<uint32_t> operandCounts;
  for (Instruction inst : *m)
    if (inst.opcode() == grammar::Op::TypeTensorARM)
      operandCounts.push_back(inst.wordCount() - 2);
  std::sort(operandCounts.begin(), operandCounts.end());
  EXPECT_EQ(operandCounts, (std::vector<uint32_t>{1, 2, 3, 3}));

  Context ctx2;
  Expected<OwningOp> back = deserialize(ctx2, *m);
  ASSERT_TRUE(bool(back)) << back.error().message;
  EXPECT_EQ(toString(**back), kModule);
}

TEST(DialectTensorArm, AnUnknownDimensionLeavesOnlyTheRank) {
  // SPIR-V has a shape only where every dimension is known: `2x?` reads back as `?x?`.
  Context ctx;
  Expected<OwningOp> op = parse(
      ctx,
      R"(spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Linkage, TensorsARM], [SPV_ARM_tensors]> {
  spirv.func @f(%arg0: !spirv.arm.tensor<2x?xi32>) "None" {
    spirv.Return
  }
}
)");
  ASSERT_TRUE(bool(op)) << op.error().message;
  Expected<std::vector<uint32_t>> words = serialize(**op);
  ASSERT_TRUE(bool(words)) << words.error().message;
  Expected<Module> m = Module::fromWords(*words);
  ASSERT_TRUE(bool(m));
  Context ctx2;
  Expected<OwningOp> back = deserialize(ctx2, *m);
  ASSERT_TRUE(bool(back)) << back.error().message;
  EXPECT_NE(toString(**back).find("%arg0: !spirv.arm.tensor<?x?xi32>"), std::string::npos)
      << toString(**back);
}
