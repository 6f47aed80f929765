// Floats with an FP encoding in the dialect (OpTypeFloat's third operand): bf16
// (SPV_KHR_bfloat16) and the 8-bit f8E4M3FN and f8E5M2 (SPV_EXT_float8), by MLIR's builtin type
// names. They print and parse, serialize with their encoding and constants in their own bits,
// deserialize back, need their capabilities, and are refused where SPIR-V allows only IEEE
// floats (arithmetic) while conversions and bit casts take them.
#include "spire/dialect/Availability.h"
#include "spire/dialect/Serialization.h"
#include "spire/dialect/Text.h"
#include "spire/dialect/Verifier.h"
#include "spire/module/Module.h"
#include "spire/val/Validator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

using namespace spire;
using namespace spire::dialect;

namespace {

constexpr std::string_view kModule =
    R"(spirv.module Logical GLSL450 requires #spirv.vce<v1.6, [Shader, Int8, BFloat16TypeKHR, Float8EXT], [SPV_KHR_bfloat16, SPV_EXT_float8]> {
  spirv.func @main() "None" {
    %0 = spirv.Constant 1.500000e+00 : bf16
    %1 = spirv.Constant -4.480000e+02 : f8E4M3FN
    %2 = spirv.Constant 2.500000e-01 : f8E5M2
    %3 = spirv.FConvert %0 : bf16 to f32
    %4 = spirv.FConvert %1 : f8E4M3FN to f32
    %5 = spirv.FConvert %3 : f32 to f8E5M2
    %6 = spirv.FConvert %2 : f8E5M2 to bf16
    %7 = spirv.Bitcast %1 : f8E4M3FN to i8
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main
  spirv.ExecutionMode @main "LocalSize", 1, 1, 1
}
)";

std::string problems(const std::vector<uint32_t> &words) {
  val::Options options;
  options.env = *val::parseEnvironment("vulkan1.3");
  val::Report r = val::validateBinary(
      {reinterpret_cast<const uint8_t *>(words.data()), words.size() * 4}, options);
  std::string out;
  for (const val::Problem &p : r.problems)
    if (p.severity == Severity::Error)
      out += p.format("<module>") + "\n";
  return out;
}

} // namespace

TEST(DialectEncodedFloat, TypesPrintAndParseByMlirNames) {
  Context ctx;
  for (std::string_view name : {"bf16", "f8E4M3FN", "f8E5M2"}) {
    Expected<Type> t = parseType(ctx, name);
    ASSERT_TRUE(bool(t)) << name;
    EXPECT_TRUE(t->is(TypeKind::Float));
    EXPECT_TRUE(t->fpEncoding().has_value());
    EXPECT_EQ(toString(*t), name);
    EXPECT_EQ(*parseType(ctx, name), *t);
  }
  // Distinct from the IEEE floats of the same width.
  EXPECT_NE(*parseType(ctx, "bf16"), ctx.floating(16));
  EXPECT_EQ(parseType(ctx, "bf16")->width(), 16u);
  EXPECT_EQ(parseType(ctx, "f8E5M2")->width(), 8u);
  EXPECT_EQ(toString(*parseType(ctx, "vector<4xbf16>")), "vector<4xbf16>");
  EXPECT_FALSE(ctx.floating(16).fpEncoding().has_value());
}

TEST(DialectEncodedFloat, SerializesWithEncodingsAndRoundTrips) {
  Context ctx;
  Expected<OwningOp> op = parse(ctx, kModule);
  ASSERT_TRUE(bool(op)) << op.error().message;
  Status verified = verify(**op);
  ASSERT_TRUE(bool(verified)) << verified.error().message;
  Expected<std::vector<uint32_t>> words = serialize(**op);
  ASSERT_TRUE(bool(words)) << words.error().message;
  EXPECT_EQ(problems(*words), "");

  // The types carry their encodings, and the constants their own bits.
  Expected<Module> m = Module::fromWords(*words);
  ASSERT_TRUE(bool(m));
  std::vector<std::vector<uint32_t>> floats, constants;
  for (uint32_t i = 0; i < m->size(); ++i) {
    Instruction inst = m->inst(i);
    std::vector<uint32_t> operands;
    for (uint32_t k = 2; k < inst.wordCount(); ++k)
      operands.push_back(inst.word(k));
    if (inst.opcode() == grammar::Op::TypeFloat)
      floats.push_back(operands);
    else if (inst.opcode() == grammar::Op::Constant)
      constants.push_back({operands.back()});
  }
  auto has = [](const auto &list, std::vector<uint32_t> v) {
    return std::find(list.begin(), list.end(), v) != list.end();
  };
  EXPECT_TRUE(has(floats, {16, uint32_t(grammar::FPEncoding::BFloat16KHR)}));
  EXPECT_TRUE(has(floats, {8, uint32_t(grammar::FPEncoding::Float8E4M3EXT)}));
  EXPECT_TRUE(has(floats, {8, uint32_t(grammar::FPEncoding::Float8E5M2EXT)}));
  EXPECT_TRUE(has(floats, {32}));
  EXPECT_TRUE(has(constants, {0x3FC0})); // 1.5 in bf16
  EXPECT_TRUE(has(constants, {0xFE}));   // -448 in E4M3
  EXPECT_TRUE(has(constants, {0x34}));   // 0.25 in E5M2

  // Deserialized: the same module text.
  Context ctx2;
  Expected<OwningOp> back = deserialize(ctx2, *m);
  ASSERT_TRUE(bool(back)) << back.error().message;
  std::string text = toString(**back);
  for (std::string_view piece :
       {"spirv.Constant 1.500000e+00 : bf16", "spirv.Constant -4.480000e+02 : f8E4M3FN",
        "spirv.Constant 2.500000e-01 : f8E5M2"})
    EXPECT_NE(text.find(piece), std::string::npos) << piece << "\n" << text;
  EXPECT_NE(text.find(": f8E5M2 to bf16"), std::string::npos) << text;
  Context ctx3;
  Expected<OwningOp> reparsed = parse(ctx3, text);
  ASSERT_TRUE(bool(reparsed)) << reparsed.error().message;
  EXPECT_EQ(toString(**reparsed), text);
}

TEST(DialectEncodedFloat, ArithmeticRefusesThem) {
  for (std::string_view t : {"bf16", "f8E4M3FN", "vector<2xbf16>"}) {
    Context ctx;
    std::string text =
        R"(spirv.module Logical GLSL450 requires #spirv.vce<v1.6, [Shader, BFloat16TypeKHR, Float8EXT], [SPV_KHR_bfloat16, SPV_EXT_float8]> {
  spirv.func @f(%a: )" +
        std::string(t) +
        R"() "None" {
    %0 = spirv.FAdd %a, %a : )" +
        std::string(t) +
        R"(
    spirv.Return
  }
}
)";
    Expected<OwningOp> op = parse(ctx, text);
    ASSERT_TRUE(bool(op)) << op.error().message;
    Status verified = verify(**op);
    EXPECT_FALSE(bool(verified)) << t;
  }
}

TEST(DialectEncodedFloat, NeedTheirCapabilities) {
  Context ctx;
  auto needs = [&](std::string_view type, grammar::Capability c) {
    Availability a = typeAvailability(*parseType(ctx, type));
    return std::any_of(a.capabilities.begin(), a.capabilities.end(), [&](const auto &r) {
      return std::find(r.anyOf.begin(), r.anyOf.end(), c) != r.anyOf.end();
    });
  };
  EXPECT_TRUE(needs("bf16", grammar::Capability::BFloat16TypeKHR));
  EXPECT_TRUE(needs("f8E4M3FN", grammar::Capability::Float8EXT));
  EXPECT_TRUE(needs("f8E5M2", grammar::Capability::Float8EXT));
  EXPECT_FALSE(needs("bf16", grammar::Capability::Float16));
}
