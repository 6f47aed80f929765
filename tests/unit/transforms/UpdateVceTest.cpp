#include "TransformTestUtil.h"

#include "spire/dialect/Availability.h"

#include <algorithm>

using namespace spire;
using namespace spire::transforms::test;
using dialect::Attribute;

namespace {

const char *kHeader = R"(
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
)";

std::string module(std::string_view caps, std::string_view types, std::string_view body,
                   std::string_view extensions = "") {
  return std::string(caps) + std::string(extensions) + kHeader + std::string(types) +
         "%main = OpFunction %void None %fn\n%entry = OpLabel\n" + std::string(body) +
         "OpReturn\nOpFunctionEnd\n";
}

bool has(const std::vector<std::string> &v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

Attribute targetEnv(dialect::Context &ctx, uint32_t version, std::vector<uint32_t> caps,
                    std::vector<std::string> exts = {}) {
  return dialect::attr::targetEnv(ctx, dialect::attr::vce(ctx, version, caps, exts));
}

uint32_t cap(grammar::Capability c) { return static_cast<uint32_t>(c); }

} // namespace

TEST(UpdateVce, DeducesWhatOpsAndTypesNeedAndDropsTheRest) {
  dialect::Context ctx;
  // Float64 and Int8 are declared but nothing needs them.
  auto m = moduleFromText(ctx, module("OpCapability Shader\nOpCapability Int64\n"
                                      "OpCapability Float64\nOpCapability Int8\n",
                                      "%long = OpTypeInt 64 0\n%one = OpConstant %long 1\n",
                                      "%x = OpIAdd %long %one %one\n"));
  ASSERT_TRUE(m);
  ASSERT_TRUE(runPasses(*m, ctx, "update-vce"));
  Attribute vce = m->attr("vce_triple");
  std::vector<std::string> caps = capabilityNames(vce);
  EXPECT_EQ(caps.size(), 2u) << dialect::toString(vce);
  EXPECT_TRUE(has(caps, "Shader"));
  EXPECT_TRUE(has(caps, "Int64"));
  EXPECT_EQ(vce.version(), grammar::makeVersion(1, 0));
  EXPECT_TRUE(vce.extensions().empty());
}

TEST(UpdateVce, EnumAttributesAddTheirRequirements) {
  dialect::Context ctx;
  // Non-uniform ballot: SPIR-V 1.3 and GroupNonUniformBallot.
  auto m = moduleFromText(ctx,
                          module("OpCapability Shader\nOpCapability GroupNonUniformBallot\n",
                                 "%bool = OpTypeBool\n%true = OpConstantTrue %bool\n"
                                 "%uint = OpTypeInt 32 0\n%v4 = OpTypeVector %uint 4\n"
                                 "%sg = OpConstant %uint 3\n",
                                 "%b = OpGroupNonUniformBallot %v4 %sg %true\n"),
                          grammar::makeVersion(1, 3));
  ASSERT_TRUE(m);
  ASSERT_TRUE(runPasses(*m, ctx, "update-vce"));
  Attribute vce = m->attr("vce_triple");
  EXPECT_EQ(vce.version(), grammar::makeVersion(1, 3)) << dialect::toString(vce);
  EXPECT_TRUE(has(capabilityNames(vce), "GroupNonUniformBallot"));
}

TEST(UpdateVce, QueueFamilyScopeNeedsVulkanMemoryModel) {
  dialect::Context ctx;
  auto m = moduleFromText(ctx,
                          module("OpCapability Shader\nOpCapability VulkanMemoryModel\n",
                                 "%uint = OpTypeInt 32 0\n%qf = OpConstant %uint 5\n"
                                 "%sem = OpConstant %uint 0\n",
                                 "OpControlBarrier %qf %qf %sem\n"),
                          grammar::makeVersion(1, 5));
  ASSERT_TRUE(m);
  ASSERT_TRUE(runPasses(*m, ctx, "update-vce"));
  Attribute vce = m->attr("vce_triple");
  EXPECT_TRUE(has(capabilityNames(vce), "VulkanMemoryModel")) << dialect::toString(vce);
  // With a target that does not allow it, the pass fails and says why.
  m->setAttr(ctx, "spirv.target_env",
             targetEnv(ctx, grammar::makeVersion(1, 5), {cap(grammar::Capability::Shader)}));
  Status s = runPasses(*m, ctx, "update-vce");
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("VulkanMemoryModel"), std::string::npos) << s.error().message;
  EXPECT_NE(s.error().message.find("spirv.ControlBarrier"), std::string::npos);
}

TEST(UpdateVce, StorageBufferTakesTheExtensionOrTheVersion) {
  const std::string text = module(
      "OpCapability Shader\n",
      "%float = OpTypeFloat 32\n%s = OpTypeStruct %float\n%p = OpTypePointer StorageBuffer %s\n"
      "%v = OpVariable %p StorageBuffer\n",
      "", "OpExtension \"SPV_KHR_storage_buffer_storage_class\"\n");
  std::string decorated = text;
  decorated.insert(decorated.find("%void"),
                   "OpDecorate %s Block\nOpMemberDecorate %s 0 Offset 0\n"
                   "OpDecorate %v DescriptorSet 0\nOpDecorate %v Binding 0\n");
  {
    dialect::Context ctx;
    auto m = moduleFromText(ctx, decorated);
    ASSERT_TRUE(m);
    ASSERT_TRUE(runPasses(*m, ctx, "update-vce"));
    Attribute vce = m->attr("vce_triple");
    EXPECT_EQ(dialect::toString(vce),
              "#spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>");
  }
  {
    // A target at 1.3 without the extension: the version instead.
    dialect::Context ctx;
    auto m = moduleFromText(ctx, decorated);
    ASSERT_TRUE(m);
    m->setAttr(ctx, "spirv.target_env",
               targetEnv(ctx, grammar::makeVersion(1, 3), {cap(grammar::Capability::Shader)}));
    ASSERT_TRUE(runPasses(*m, ctx, "update-vce"));
    EXPECT_EQ(dialect::toString(m->attr("vce_triple")), "#spirv.vce<v1.3, [Shader], []>");
  }
  {
    // A target at 1.0 without the extension: nothing provides it.
    dialect::Context ctx;
    auto m = moduleFromText(ctx, decorated);
    ASSERT_TRUE(m);
    m->setAttr(ctx, "spirv.target_env",
               targetEnv(ctx, grammar::makeVersion(1, 0), {cap(grammar::Capability::Shader)}));
    Status s = runPasses(*m, ctx, "update-vce");
    ASSERT_FALSE(s);
    EXPECT_NE(s.error().message.find("SPV_KHR_storage_buffer_storage_class"), std::string::npos)
        << s.error().message;
  }
}

TEST(UpdateVce, TargetVersionTooLowFails) {
  dialect::Context ctx;
  auto m = moduleFromText(ctx,
                          module("OpCapability Shader\nOpCapability GroupNonUniform\n",
                                 "%uint = OpTypeInt 32 0\n%sg = OpConstant %uint 3\n"
                                 "%bool = OpTypeBool\n",
                                 "%e = OpGroupNonUniformElect %bool %sg\n"),
                          grammar::makeVersion(1, 3));
  ASSERT_TRUE(m);
  m->setAttr(
      ctx, "spirv.target_env",
      targetEnv(ctx, grammar::makeVersion(1, 0),
                {cap(grammar::Capability::Shader), cap(grammar::Capability::GroupNonUniform)}));
  Status s = runPasses(*m, ctx, "update-vce");
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("requires min version v1.3"), std::string::npos)
      << s.error().message;
}

TEST(UpdateVce, ImpliedCapabilitiesAreAllowedAndListedAsMlirDoes) {
  // The target gives Shader; matrices need Matrix, which Shader implies: allowed, and listed
  // (mlir-opt-16 --spirv-update-vce gives [Matrix, ..., Shader]).
  dialect::Context ctx2;
  auto m2 =
      moduleFromText(ctx2, module("OpCapability Shader\n",
                                  "%float = OpTypeFloat 32\n%two = OpConstant %float 2\n"
                                  "%v4 = OpTypeVector %float 4\n%m4 = OpTypeMatrix %v4 4\n"
                                  "%pm = OpTypePointer Private %m4\n"
                                  "%g = OpVariable %pm Private\n",
                                  "%x = OpLoad %m4 %g\n%y = OpMatrixTimesScalar %m4 %x %two\n"));
  ASSERT_TRUE(m2);
  m2->setAttr(ctx2, "spirv.target_env",
              targetEnv(ctx2, grammar::makeVersion(1, 0), {cap(grammar::Capability::Shader)}));
  ASSERT_TRUE(runPasses(*m2, ctx2, "update-vce"));
  std::vector<std::string> caps = capabilityNames(m2->attr("vce_triple"));
  EXPECT_TRUE(has(caps, "Matrix"));
  EXPECT_TRUE(has(caps, "Shader"));
}

TEST(UpdateVce, SixteenBitStorageUsesTheStorageCapability) {
  dialect::Context ctx;
  auto m = moduleFromText(
      ctx,
      module("OpCapability Shader\nOpCapability StorageBuffer16BitAccess\n",
             "%half = OpTypeFloat 16\n%float = OpTypeFloat 32\n%s = OpTypeStruct %half\n"
             "%p = OpTypePointer StorageBuffer %s\n%ph = OpTypePointer StorageBuffer %half\n"
             "%v = OpVariable %p StorageBuffer\n%uint = OpTypeInt 32 0\n%zero = OpConstant "
             "%uint 0\n",
             "%a = OpAccessChain %ph %v %zero\n%h = OpLoad %half %a\n%f = OpFConvert %float %h\n",
             "OpExtension \"SPV_KHR_16bit_storage\"\nOpExtension "
             "\"SPV_KHR_storage_buffer_storage_class\"\n"));
  ASSERT_TRUE(m);
  ASSERT_TRUE(runPasses(*m, ctx, "update-vce"));
  Attribute vce = m->attr("vce_triple");
  std::vector<std::string> caps = capabilityNames(vce);
  EXPECT_TRUE(has(caps, "StorageBuffer16BitAccess")) << dialect::toString(vce);
  EXPECT_FALSE(has(caps, "Float16")) << dialect::toString(vce);
  std::vector<std::string> exts(vce.extensions().begin(), vce.extensions().end());
  EXPECT_TRUE(has(exts, "SPV_KHR_16bit_storage")) << dialect::toString(vce);
}

TEST(PassManager, ParsesPipelinesAndRejectsUnknownNames) {
  transforms::PassManager pm;
  EXPECT_TRUE(pm.addPipeline("update-vce, canonicalize,lower-abi-attrs"));
  EXPECT_EQ(pm.pipeline(), "update-vce,canonicalize,lower-abi-attrs");
  Status s = pm.addPipeline("canonicalize,no-such-pass");
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("no-such-pass"), std::string::npos);
  EXPECT_EQ(pm.size(), 3u);
  EXPECT_FALSE(pm.addPipeline(""));
  EXPECT_GE(transforms::registeredPasses().size(), 3u);
}

namespace {
class BreaksIr final : public transforms::Pass {
public:
  std::string_view name() const override { return "breaks-ir"; }
  Status run(dialect::Operation &module, dialect::Context &) override {
    // A function whose entry block's arguments disagree with its type.
    dialect::walk(&module, [](dialect::Operation *op) {
      if (op->name() == "spirv.func" && !op->region().empty())
        op->region().front()->addArgument(dialect::Type());
    });
    return {};
  }
};
} // namespace

TEST(PassManager, VerifiesAfterEachPassAndNamesTheCulprit) {
  dialect::Context ctx;
  auto m = moduleFromText(ctx, module("OpCapability Shader\n", "", ""));
  ASSERT_TRUE(m);
  transforms::registerPass("breaks-ir", "test", [] { return std::make_unique<BreaksIr>(); });
  Status s = runPasses(*m, ctx, "update-vce,breaks-ir,canonicalize");
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("after pass 'breaks-ir'"), std::string::npos)
      << s.error().message;
}

TEST(UpdateVce, AnInterfaceListingMoreThanInputAndOutputNeedsVersion14) {
  // From SPIR-V 1.4 an entry point lists every global it uses; before, Input and Output only.
  // Lowering such a module below 1.4 would make it invalid.
  const std::string text = R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %buf
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%S = OpTypeStruct %uint
%ptr = OpTypePointer StorageBuffer %S
%buf = OpVariable %ptr StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
  dialect::Context ctx;
  auto m = moduleFromText(ctx, text);
  ASSERT_TRUE(m);
  ASSERT_TRUE(runPasses(*m, ctx, "update-vce"));
  EXPECT_EQ(m->attr("vce_triple").version(), grammar::makeVersion(1, 4));
  // A target that stops below 1.4 cannot hold the module.
  dialect::Context ctx2;
  auto low = moduleFromText(ctx2, text);
  ASSERT_TRUE(low);
  low->setAttr(ctx2, "spirv.target_env",
               targetEnv(ctx2, grammar::makeVersion(1, 3), {cap(grammar::Capability::Shader)}));
  EXPECT_FALSE(runPasses(*low, ctx2, "update-vce"));
}

TEST(UpdateVce, NonSemanticSetsNeedTheirExtensionBeforeVersion16) {
  // No grammar entry names SPV_KHR_non_semantic_info: the instructions of a NonSemantic.* set
  // (spirv.spire.NonSemantic ops) need it below SPIR-V 1.6; DebugPrintf in a function here.
  dialect::Context ctx;
  auto m = moduleFromText(ctx, module("OpCapability Shader\n", "%fmt = OpString \"x\"\n",
                                      "%p = OpExtInst %void %printf 1 %fmt\n",
                                      "OpExtension \"SPV_KHR_non_semantic_info\"\n"
                                      "%printf = OpExtInstImport \"NonSemantic.DebugPrintf\"\n"));
  ASSERT_TRUE(m);
  ASSERT_TRUE(runPasses(*m, ctx, "update-vce"));
  Attribute vce = m->attr("vce_triple");
  ASSERT_EQ(vce.extensions().size(), 1u);
  EXPECT_EQ(vce.extensions()[0], "SPV_KHR_non_semantic_info");
  // Without them, nothing.
  auto plain = moduleFromText(
      ctx, module("OpCapability Shader\n", "", "", "OpExtension \"SPV_KHR_non_semantic_info\"\n"));
  ASSERT_TRUE(plain);
  ASSERT_TRUE(runPasses(*plain, ctx, "update-vce"));
  EXPECT_TRUE(plain->attr("vce_triple").extensions().empty());
}

TEST(UpdateVce, DeclaredStorageCapabilitiesAreKeptOverTheArithmeticOnes) {
  // 16-bit values only loaded and stored, in a push constant block and a storage buffer: either
  // the storage capabilities or Float16 allow that; the ones the module declares are kept
  // (Float16, which both alternatives name, would otherwise win, and with it a device feature
  // the shader never needed).
  dialect::Context ctx;
  auto m = moduleFromText(
      ctx, module("OpCapability Shader\nOpCapability StorageBuffer16BitAccess\n"
                  "OpCapability StoragePushConstant16\n",
                  "%half = OpTypeFloat 16\n%s = OpTypeStruct %half\n"
                  "%p = OpTypePointer StorageBuffer %s\n%ph = OpTypePointer StorageBuffer %half\n"
                  "%q = OpTypePointer PushConstant %s\n%qh = OpTypePointer PushConstant %half\n"
                  "%v = OpVariable %p StorageBuffer\n%w = OpVariable %q PushConstant\n"
                  "%uint = OpTypeInt 32 0\n%zero = OpConstant %uint 0\n",
                  "%a = OpAccessChain %qh %w %zero\n%h = OpLoad %half %a\n"
                  "%b = OpAccessChain %ph %v %zero\nOpStore %b %h\n",
                  "OpExtension \"SPV_KHR_16bit_storage\"\nOpExtension "
                  "\"SPV_KHR_storage_buffer_storage_class\"\n"));
  ASSERT_TRUE(m);
  ASSERT_TRUE(runPasses(*m, ctx, "update-vce"));
  Attribute vce = m->attr("vce_triple");
  std::vector<std::string> caps = capabilityNames(vce);
  EXPECT_TRUE(has(caps, "StorageBuffer16BitAccess")) << dialect::toString(vce);
  EXPECT_TRUE(has(caps, "StoragePushConstant16")) << dialect::toString(vce);
  EXPECT_FALSE(has(caps, "Float16")) << dialect::toString(vce);
}

TEST(UpdateVce, DecorationsAddTheirRequirements) {
  // A struct member's UserTypeGOOGLE needs SPV_GOOGLE_user_type; a variable's Sample
  // decoration needs SampleRateShading. Without them the module is invalid.
  dialect::Context ctx;
  auto m = moduleFromText(
      ctx, "OpCapability Shader\nOpCapability SampleRateShading\n"
           "OpExtension \"SPV_GOOGLE_user_type\"\nOpMemoryModel Logical GLSL450\n"
           "OpEntryPoint Fragment %main \"main\" %in\nOpExecutionMode %main OriginUpperLeft\n"
           "OpMemberDecorate %S 0 UserTypeGOOGLE \"structuredbuffer\"\n"
           "OpMemberDecorate %S 0 Offset 0\nOpDecorate %S Block\n"
           "OpDecorate %u DescriptorSet 0\nOpDecorate %u Binding 0\n"
           "OpDecorate %in Location 0\nOpDecorate %in Sample\n"
           "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%float = OpTypeFloat 32\n"
           "%S = OpTypeStruct %float\n%pS = OpTypePointer Uniform %S\n%u = OpVariable %pS Uniform\n"
           "%pin = OpTypePointer Input %float\n%in = OpVariable %pin Input\n"
           "%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n");
  ASSERT_TRUE(m);
  ASSERT_TRUE(runPasses(*m, ctx, "update-vce"));
  Attribute vce = m->attr("vce_triple");
  EXPECT_TRUE(has({vce.extensions().begin(), vce.extensions().end()}, "SPV_GOOGLE_user_type"))
      << dialect::toString(vce);
  EXPECT_TRUE(has(capabilityNames(vce), "SampleRateShading")) << dialect::toString(vce);
}
