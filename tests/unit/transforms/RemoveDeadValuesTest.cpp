#include "TransformTestUtil.h"

using namespace spire;
using namespace spire::transforms::test;

namespace {

/// A fragment shader whose body computes `body` from %a and %b and stores %r.
std::string shader(std::string_view body) {
  return std::string("OpCapability Shader\nOpMemoryModel Logical GLSL450\n"
                     "OpEntryPoint Fragment %main \"main\"\n"
                     "OpExecutionMode %main OriginUpperLeft\n"
                     "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%int = OpTypeInt 32 1\n"
                     "%float = OpTypeFloat 32\n%p = OpTypePointer Private %int\n"
                     "%out = OpVariable %p Private\n%in = OpVariable %p Private\n"
                     "%main = OpFunction %void None %fn\n%entry = OpLabel\n"
                     "%a = OpLoad %int %in\n%b = OpLoad %int %in\n") +
         std::string(body) + "OpStore %out %r\nOpReturn\nOpFunctionEnd\n";
}

size_t count(dialect::Operation &m, std::string_view name) { return opsNamed(m, name).size(); }

} // namespace

TEST(RemoveDeadValues, RemovesWholeUnusedChainsAndKeepsWhatLiveOpsUse) {
  dialect::Context ctx;
  auto m = moduleFromText(ctx, shader("%x = OpIAdd %int %a %b\n%y = OpIMul %int %x %x\n"
                                      "%z = OpConvertSToF %float %y\n"
                                      "%r = OpISub %int %a %b\n"));
  ASSERT_TRUE(m);
  Status s = runPasses(*m, ctx, "remove-dead-values");
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(count(*m, "spirv.IAdd"), 0u);
  EXPECT_EQ(count(*m, "spirv.IMul"), 0u);
  EXPECT_EQ(count(*m, "spirv.ConvertSToF"), 0u);
  EXPECT_EQ(count(*m, "spirv.ISub"), 1u);
  // Loads have effects in the dialect's records: they stay even when unused.
  EXPECT_EQ(count(*m, "spirv.Load"), 2u);
  EXPECT_EQ(count(*m, "spirv.Store"), 1u);
}

TEST(RemoveDeadValues, FoldsNothing) {
  dialect::Context ctx;
  auto m = moduleFromText(ctx, shader("%x = OpIAdd %int %a %b\n%r = OpISub %int %x %x\n"));
  ASSERT_TRUE(m);
  ASSERT_TRUE(runPasses(*m, ctx, "remove-dead-values"));
  // canonicalize would make %r the constant 0; this pass keeps both ops, both used.
  EXPECT_EQ(count(*m, "spirv.IAdd"), 1u);
  EXPECT_EQ(count(*m, "spirv.ISub"), 1u);
}
