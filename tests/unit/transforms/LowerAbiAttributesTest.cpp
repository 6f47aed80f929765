#include "TransformTestUtil.h"

using namespace spire;
using namespace spire::transforms::test;
using dialect::Attribute;
using dialect::AttrKind;
using dialect::Operation;

namespace {

const char *kKernel = R"(
OpCapability Shader
OpExtension "SPV_KHR_storage_buffer_storage_class"
OpMemoryModel Logical GLSL450
OpName %kernel "kernel"
OpDecorate %s Block
OpMemberDecorate %s 0 Offset 0
%void = OpTypeVoid
%float = OpTypeFloat 32
%uint = OpTypeInt 32 0
%zero = OpConstant %uint 0
%s = OpTypeStruct %float
%ps = OpTypePointer StorageBuffer %s
%pf = OpTypePointer StorageBuffer %float
%fn = OpTypeFunction %void %float %ps
%kernel = OpFunction %void None %fn
%a = OpFunctionParameter %float
%b = OpFunctionParameter %ps
%l = OpLabel
%p = OpAccessChain %pf %b %zero
OpStore %p %a
OpReturn
OpFunctionEnd
)";

constexpr uint32_t kStorageBuffer = static_cast<uint32_t>(grammar::StorageClass::StorageBuffer);
constexpr uint32_t kUniform = static_cast<uint32_t>(grammar::StorageClass::Uniform);

/// The kernel with ABI attributes: `a` a scalar in a Uniform buffer at (0, 0), `b` a storage
/// buffer at (1, 2); workgroup size 32x4.
Operation *annotate(dialect::Context &ctx, Operation &module, bool storageClassOnPointer = false,
                    bool withArgAttrs = true) {
  std::vector<Operation *> fns = opsNamed(module, "spirv.func");
  EXPECT_EQ(fns.size(), 1u);
  Operation *fn = fns.front();
  uint32_t wg[] = {32, 4};
  fn->setAttr(ctx, "spirv.entry_point_abi", dialect::attr::entryPointAbi(ctx, wg));
  if (withArgAttrs) {
    Attribute args[] = {
        dialect::attr::dictionary(
            ctx, {{"spirv.interface_var_abi",
                   dialect::attr::interfaceVarAbi(ctx, 0, 0, kUniform).storage()}}),
        dialect::attr::dictionary(
            ctx,
            {{"spirv.interface_var_abi",
              dialect::attr::interfaceVarAbi(
                  ctx, 1, 2,
                  storageClassOnPointer ? std::optional<uint32_t>(kStorageBuffer) : std::nullopt)
                  .storage()}})};
    fn->setAttr(ctx, "arg_attrs", dialect::attr::array(ctx, args));
  }
  return fn;
}

} // namespace

TEST(LowerAbiAttributes, ArgumentsBecomeGlobalVariablesWithAnEntryPoint) {
  dialect::Context ctx;
  auto m = moduleFromText(ctx, kKernel);
  ASSERT_TRUE(m);
  Operation *fn = annotate(ctx, *m);
  ASSERT_TRUE(runPasses(*m, ctx, "lower-abi-attrs"));

  std::vector<Operation *> globals = opsNamed(*m, "spirv.GlobalVariable");
  ASSERT_EQ(globals.size(), 2u);
  EXPECT_EQ(globals[0]->attr("sym_name").str(), "kernel_arg_0");
  EXPECT_EQ(globals[1]->attr("sym_name").str(), "kernel_arg_1");
  // The scalar is wrapped in a Block struct in the storage class its ABI names.
  EXPECT_EQ(dialect::toString(globals[0]->attr("type").type()),
            "!spirv.ptr<!spirv.struct<(f32 [0]), Block>, Uniform>");
  EXPECT_EQ(globals[0]->attr("descriptor_set").intValue(), 0);
  EXPECT_EQ(globals[0]->attr("binding").intValue(), 0);
  // The pointer keeps its type.
  EXPECT_EQ(dialect::toString(globals[1]->attr("type").type()),
            "!spirv.ptr<!spirv.struct<(f32 [0]), Block>, StorageBuffer>");
  EXPECT_EQ(globals[1]->attr("descriptor_set").intValue(), 1);
  EXPECT_EQ(globals[1]->attr("binding").intValue(), 2);

  // No arguments, no ABI attributes; uses go through spirv.mlir.addressof (and for the scalar
  // an access chain and a load).
  EXPECT_EQ(fn->region().front()->numArguments(), 0u);
  EXPECT_EQ(dialect::toString(fn->attr("function_type").type()), "() -> ()");
  EXPECT_FALSE(fn->attr("arg_attrs"));
  EXPECT_FALSE(fn->attr("spirv.entry_point_abi"));
  EXPECT_EQ(opsNamed(*fn, "spirv.mlir.addressof").size(), 2u);
  std::vector<Operation *> stores = opsNamed(*fn, "spirv.Store");
  ASSERT_EQ(stores.size(), 1u);
  Operation *stored = stores[0]->operand(1).definingOp();
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->name(), "spirv.Load");
  EXPECT_EQ(stored->operand(0).definingOp()->name(), "spirv.AccessChain");

  std::vector<Operation *> eps = opsNamed(*m, "spirv.EntryPoint");
  ASSERT_EQ(eps.size(), 1u);
  EXPECT_EQ(dialect::toString(eps[0]->attr("execution_model")),
            "#spirv.execution_model<GLCompute>");
  EXPECT_EQ(eps[0]->attr("fn").str(), "kernel");
  // SPIR-V 1.0: only Input and Output variables are listed.
  EXPECT_TRUE(eps[0]->attr("interface").elements().empty());
  std::vector<Operation *> modes = opsNamed(*m, "spirv.ExecutionMode");
  ASSERT_EQ(modes.size(), 1u);
  EXPECT_EQ(dialect::toString(modes[0]->attr("execution_mode")),
            "#spirv.execution_mode<LocalSize>");
  EXPECT_EQ(dialect::toString(modes[0]->attr("values")), "[32 : i32, 4 : i32, 1 : i32]");
  EXPECT_TRUE(dialect::verify(*m));
}

TEST(LowerAbiAttributes, FromVersion14TheInterfaceListsEveryVariableUsed) {
  dialect::Context ctx;
  auto m = moduleFromText(ctx, kKernel, grammar::makeVersion(1, 4));
  ASSERT_TRUE(m);
  annotate(ctx, *m);
  ASSERT_TRUE(runPasses(*m, ctx, "lower-abi-attrs"));
  std::vector<Operation *> eps = opsNamed(*m, "spirv.EntryPoint");
  ASSERT_EQ(eps.size(), 1u);
  EXPECT_EQ(dialect::toString(eps[0]->attr("interface")), "[@kernel_arg_0, @kernel_arg_1]");
}

TEST(LowerAbiAttributes, KernelTargetsGetKernelEntryPoints) {
  dialect::Context ctx;
  auto m = moduleFromText(ctx, kKernel);
  ASSERT_TRUE(m);
  annotate(ctx, *m);
  uint32_t caps[] = {static_cast<uint32_t>(grammar::Capability::Kernel)};
  m->setAttr(
      ctx, "spirv.target_env",
      dialect::attr::targetEnv(ctx, dialect::attr::vce(ctx, grammar::makeVersion(1, 0), caps, {})));
  ASSERT_TRUE(runPasses(*m, ctx, "lower-abi-attrs"));
  EXPECT_EQ(dialect::toString(opsNamed(*m, "spirv.EntryPoint")[0]->attr("execution_model")),
            "#spirv.execution_model<Kernel>");
}

TEST(LowerAbiAttributes, RejectsMissingAndMisplacedAbiAttributes) {
  {
    dialect::Context ctx;
    auto m = moduleFromText(ctx, kKernel);
    ASSERT_TRUE(m);
    annotate(ctx, *m, false, /*withArgAttrs=*/false);
    Status s = runPasses(*m, ctx, "lower-abi-attrs");
    ASSERT_FALSE(s);
    EXPECT_NE(s.error().message.find("has no spirv.interface_var_abi"), std::string::npos)
        << s.error().message;
    // Nothing changed.
    EXPECT_TRUE(opsNamed(*m, "spirv.GlobalVariable").empty());
  }
  {
    dialect::Context ctx;
    auto m = moduleFromText(ctx, kKernel);
    ASSERT_TRUE(m);
    annotate(ctx, *m, /*storageClassOnPointer=*/true);
    Status s = runPasses(*m, ctx, "lower-abi-attrs");
    ASSERT_FALSE(s);
    EXPECT_NE(s.error().message.find("cannot specify storage class"), std::string::npos)
        << s.error().message;
  }
}

TEST(AbiAttributes, PrintAsMlirDoes) {
  dialect::Context ctx;
  EXPECT_EQ(dialect::toString(dialect::attr::interfaceVarAbi(ctx, 0, 1)),
            "#spirv.interface_var_abi<(0, 1)>");
  EXPECT_EQ(dialect::toString(dialect::attr::interfaceVarAbi(ctx, 0, 0, kStorageBuffer)),
            "#spirv.interface_var_abi<(0, 0), StorageBuffer>");
  uint32_t wg[] = {32, 1, 1};
  EXPECT_EQ(dialect::toString(dialect::attr::entryPointAbi(ctx, wg)),
            "#spirv.entry_point_abi<workgroup_size = [32, 1, 1]>");
  EXPECT_EQ(dialect::toString(dialect::attr::entryPointAbi(ctx, wg, 16u)),
            "#spirv.entry_point_abi<workgroup_size = [32, 1, 1], subgroup_size = 16>");
  EXPECT_EQ(dialect::toString(dialect::attr::entryPointAbi(ctx, {})), "#spirv.entry_point_abi<>");
  uint32_t caps[] = {static_cast<uint32_t>(grammar::Capability::Shader),
                     static_cast<uint32_t>(grammar::Capability::GroupNonUniform)};
  std::string exts[] = {"SPV_KHR_8bit_storage"};
  dialect::Type i32 = ctx.integer(32);
  dialect::Attribute sizes[] = {dialect::attr::integer(ctx, i32, 128),
                                dialect::attr::integer(ctx, i32, 128),
                                dialect::attr::integer(ctx, i32, 64)};
  dialect::Attribute limits = dialect::attr::dictionary(
      ctx, {{"max_compute_workgroup_size", dialect::attr::array(ctx, sizes).storage()}});
  EXPECT_EQ(dialect::toString(dialect::attr::targetEnv(
                ctx, dialect::attr::vce(ctx, grammar::makeVersion(1, 3), caps, exts),
                "ARM:IntegratedGPU", limits)),
            "#spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniform], "
            "[SPV_KHR_8bit_storage]>, ARM:IntegratedGPU, "
            "#spirv.resource_limits<max_compute_workgroup_size = [128, 128, 64]>>");
  // Uniqued like every attribute.
  EXPECT_EQ(dialect::attr::interfaceVarAbi(ctx, 0, 1), dialect::attr::interfaceVarAbi(ctx, 0, 1));
  EXPECT_NE(dialect::attr::interfaceVarAbi(ctx, 0, 1),
            dialect::attr::interfaceVarAbi(ctx, 0, 1, kStorageBuffer));
}
