// Ops of dialects spire does not have (ParseOptions::allowUnregistered, MLIR's
// --allow-unregistered-dialect): records the context makes by name, kept and printed as they
// are, refused where MLIR refuses them, never serialized.
#include "spire/dialect/Serialization.h"
#include "spire/dialect/Text.h"
#include "spire/dialect/Verifier.h"

#include <gtest/gtest.h>

namespace spire::dialect {
namespace {

const ParseOptions kAllow{.allowUnregistered = true};

std::string errorOf(std::string_view text, const ParseOptions &options = {}) {
  Context ctx;
  Expected<OwningOp> op = parse(ctx, text, options);
  if (!op)
    return op.error().format("t");
  Status s = verify(**op);
  return s ? "ok" : s.error().format("t");
}

TEST(DialectUnregisteredOp, TheContextKeepsOneRecordPerName) {
  Context ctx, other;
  const OpInfo &a = ctx.unregisteredOp("foo.bar");
  EXPECT_EQ(&a, &ctx.unregisteredOp("foo.bar"));
  EXPECT_NE(&a, &ctx.unregisteredOp("foo.baz"));
  EXPECT_NE(&a, &other.unregisteredOp("foo.bar"));
  EXPECT_EQ(a.name, "foo.bar");
  EXPECT_TRUE(ops::isUnregistered(a));
  EXPECT_FALSE(a.key.valid());
  EXPECT_EQ(a.syntax, nullptr);
  EXPECT_EQ(findOp("foo.bar"), nullptr); // the registry does not learn it
}

TEST(DialectUnregisteredOp, KeptWithOperandsResultsAttributesAndRegionsAndPrintedBack) {
  const std::string text = "func.func @f(%arg0: i32) -> i32 {\n"
                           "  %0 = \"foo.op\"(%arg0, %arg0) ({\n"
                           "    %1 = spirv.IAdd %arg0, %arg0 : i32\n"
                           "    \"foo.yield\"(%1) : (i32) -> ()\n"
                           "  }) {flag, n = 3 : i32} : (i32, i32) -> i32\n"
                           "  return %0 : i32\n"
                           "}\n";
  Context ctx;
  Expected<OwningOp> op = parse(ctx, text, kAllow);
  ASSERT_TRUE(op) << op.error().format();
  ASSERT_TRUE(verify(**op)) << verify(**op).error().format();
  std::string printed = toString(**op);
  EXPECT_NE(printed.find("%0 = \"foo.op\"(%arg0, %arg0) ({\n"), std::string::npos) << printed;
  EXPECT_NE(printed.find("\"foo.yield\"(%1) : (i32) -> ()"), std::string::npos) << printed;
  EXPECT_NE(printed.find("}) {flag, n = 3 : i32} : (i32, i32) -> i32"), std::string::npos)
      << printed;
  // The printed text reads back to the same text.
  Context again;
  Expected<OwningOp> reread = parse(again, printed, kAllow);
  ASSERT_TRUE(reread) << reread.error().format();
  EXPECT_EQ(toString(**reread), printed);
}

TEST(DialectUnregisteredOp, RefusedAsMlirRefusesThem) {
  // Without the option, and in a dialect spire has, with MLIR's words.
  EXPECT_EQ(errorOf("\"foo.op\"() : () -> ()"),
            "t:1:9: error: operation being parsed with an unregistered dialect. If this is "
            "intended, please use -allow-unregistered-dialect with the MLIR tool used");
  EXPECT_EQ(errorOf("\"spirv.Bogus\"() : () -> ()", kAllow),
            "t:1:1: error: unregistered operation 'spirv.Bogus' found in dialect ('spirv') that "
            "does not allow unknown operations");
  // A spirv.module holds spirv ops only, its functions too.
  EXPECT_EQ(errorOf("spirv.module Logical GLSL450 {\n  \"dialect.op\"() : () -> ()\n}", kAllow),
            "t:2:3: error: 'spirv.module' can only contain spirv.* ops");
  EXPECT_EQ(errorOf("spirv.module Logical GLSL450 {\n  spirv.func @f() \"None\" {\n"
                    "    \"dialect.op\"() : () -> ()\n    spirv.Return\n  }\n}",
                    kAllow),
            "t:3:5: error: functions in 'spirv.module' can only contain spirv.* ops");
  // A return needs a function around it, which an unknown op is not.
  EXPECT_EQ(errorOf("\"foo.function\"() ({\n  spirv.Return\n}) : () -> ()", kAllow),
            "t:2:3: error: 'spirv.Return' op must appear in a function-like op's block");
  // Its blocks need no terminator.
  EXPECT_EQ(errorOf("\"foo.region\"() ({\n  %0 = spirv.Undef : i32\n}) : () -> ()", kAllow), "ok");
}

TEST(DialectUnregisteredOp, NeverSerialized) {
  Context ctx;
  Expected<OwningOp> op = parse(ctx,
                                "spirv.module Logical GLSL450 {\n  spirv.func @f() \"None\" {\n"
                                "    \"foo.op\"() : () -> ()\n    spirv.Return\n  }\n}",
                                kAllow);
  ASSERT_TRUE(op) << op.error().format();
  Expected<std::vector<uint32_t>> words = serialize(**op);
  ASSERT_FALSE(words);
  EXPECT_EQ(words.error().format("t"), "t:3:5: error: foo.op: is an op of a dialect spire does "
                                       "not have (an unregistered op) and is not serialized");
}

} // namespace
} // namespace spire::dialect
