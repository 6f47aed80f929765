#include "TransformTestUtil.h"

using namespace spire;
using namespace spire::transforms::test;
using dialect::Attribute;
using dialect::Operation;

namespace {

/// A module storing `expr` (computed in the function body from the types and constants given)
/// to a private variable of type `%T`.
std::string storing(std::string_view decls, std::string_view body) {
  return std::string("OpCapability Shader\nOpCapability Int8\nOpCapability Float16\n"
                     "OpMemoryModel Logical GLSL450\n"
                     "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%bool = OpTypeBool\n"
                     "%int = OpTypeInt 32 1\n%uint = OpTypeInt 32 0\n%char = OpTypeInt 8 0\n"
                     "%float = OpTypeFloat 32\n%half = OpTypeFloat 16\n") +
         std::string(decls) +
         "%pT = OpTypePointer Private %T\n%out = OpVariable %pT Private\n"
         "%main = OpFunction %void None %fn\n%entry = OpLabel\n" +
         std::string(body) + "OpStore %out %r\nOpReturn\nOpFunctionEnd\n";
}

/// The value stored after canonicalize, as its constant's text, or the op that computes it.
std::string storedAfterCanonicalize(std::string_view decls, std::string_view body) {
  dialect::Context ctx;
  auto m = moduleFromText(ctx, storing(decls, body));
  if (!m)
    return "<no module>";
  Status s = runPasses(*m, ctx, "canonicalize");
  EXPECT_TRUE(s) << (s ? "" : s.error().message);
  std::vector<Operation *> stores = opsNamed(*m, "spirv.Store");
  if (stores.size() != 1)
    return "<no store>";
  Operation *def = stores[0]->operand(1).definingOp();
  if (!def)
    return "<argument>";
  if (def->name() == "spirv.Constant")
    return dialect::toString(def->attr("value"));
  return std::string(def->name());
}

} // namespace

TEST(Canonicalize, IntegerArithmeticWrapsAtTheTypesWidth) {
  EXPECT_EQ(storedAfterCanonicalize("%T = OpTypeInt 8 0\n%a = OpConstant %T 200\n"
                                    "%b = OpConstant %T 100\n",
                                    "%r = OpIAdd %T %a %b\n"),
            "44 : i8");
  EXPECT_EQ(storedAfterCanonicalize("%T = OpTypeInt 32 1\n%a = OpConstant %T 2147483647\n"
                                    "%b = OpConstant %T 2\n",
                                    "%r = OpIMul %T %a %b\n"),
            "-2 : si32");
}

TEST(Canonicalize, SignednessComesFromTheOp) {
  // -7 as an unsigned type: SDiv still divides signed values, UDiv unsigned ones.
  EXPECT_EQ(storedAfterCanonicalize("%T = OpTypeInt 32 0\n%a = OpConstant %T 4294967289\n"
                                    "%b = OpConstant %T 2\n",
                                    "%r = OpSDiv %T %a %b\n"),
            "-3 : i32");
  EXPECT_EQ(storedAfterCanonicalize("%T = OpTypeInt 32 0\n%a = OpConstant %T 4294967289\n"
                                    "%b = OpConstant %T 2\n",
                                    "%r = OpUDiv %T %a %b\n"),
            "2147483644 : i32");
  EXPECT_EQ(storedAfterCanonicalize("%T = OpTypeInt 32 1\n%a = OpConstant %T -7\n"
                                    "%b = OpConstant %T 3\n",
                                    "%r = OpSRem %T %a %b\n"),
            "-1 : si32");
  EXPECT_EQ(storedAfterCanonicalize("%T = OpTypeInt 32 1\n%a = OpConstant %T -7\n"
                                    "%b = OpConstant %T 3\n",
                                    "%r = OpSMod %T %a %b\n"),
            "2 : si32");
  EXPECT_EQ(storedAfterCanonicalize("%T = OpTypeBool\n%a = OpConstant %int -1\n"
                                    "%b = OpConstant %int 1\n",
                                    "%r = OpSLessThan %T %a %b\n"),
            "true");
  EXPECT_EQ(storedAfterCanonicalize("%T = OpTypeBool\n%a = OpConstant %int -1\n"
                                    "%b = OpConstant %int 1\n",
                                    "%r = OpULessThan %T %a %b\n"),
            "false");
}

TEST(Canonicalize, UndefinedResultsAreNotFolded) {
  EXPECT_EQ(storedAfterCanonicalize("%T = OpTypeInt 32 1\n%a = OpConstant %T 7\n"
                                    "%b = OpConstant %T 0\n",
                                    "%r = OpSDiv %T %a %b\n"),
            "spirv.SDiv");
  EXPECT_EQ(storedAfterCanonicalize("%T = OpTypeInt 32 1\n%a = OpConstant %T -2147483648\n"
                                    "%b = OpConstant %T -1\n",
                                    "%r = OpSDiv %T %a %b\n"),
            "spirv.SDiv");
  EXPECT_EQ(storedAfterCanonicalize("%T = OpTypeInt 32 0\n%a = OpConstant %T 1\n"
                                    "%b = OpConstant %T 32\n",
                                    "%r = OpShiftLeftLogical %T %a %b\n"),
            "spirv.ShiftLeftLogical");
  EXPECT_EQ(storedAfterCanonicalize("%T = OpTypeInt 32 1\n%a = OpConstant %float 3e9\n",
                                    "%r = OpConvertFToS %T %a\n"),
            "spirv.ConvertFToS");
}

TEST(Canonicalize, FloatsFoldInTheTypesPrecision) {
  // 1 + 2^-11 is halfway between two halves: ties to even gives 1.
  EXPECT_EQ(storedAfterCanonicalize("%T = OpTypeFloat 16\n%a = OpConstant %T 1\n"
                                    "%b = OpConstant %T 0x1p-11\n",
                                    "%r = OpFAdd %T %a %b\n"),
            "1.000000e+00 : f16");
  // 0.1f + 0.2f in single precision.
  EXPECT_EQ(storedAfterCanonicalize("%T = OpTypeFloat 32\n%a = OpConstant %T 0.1\n"
                                    "%b = OpConstant %T 0.2\n",
                                    "%r = OpFAdd %T %a %b\n"),
            "3.000000e-01 : f32");
  EXPECT_EQ(storedAfterCanonicalize("%T = OpTypeFloat 32\n%a = OpConstant %T -7\n"
                                    "%b = OpConstant %T 3\n",
                                    "%r = OpFMod %T %a %b\n"),
            "2.000000e+00 : f32");
  EXPECT_EQ(storedAfterCanonicalize("%T = OpTypeFloat 32\n%a = OpConstant %T 1\n"
                                    "%b = OpConstant %T 0\n",
                                    "%r = OpFDiv %T %a %b\n"),
            "spirv.FDiv");
}

TEST(Canonicalize, VectorsFoldElementWise) {
  EXPECT_EQ(storedAfterCanonicalize("%T = OpTypeVector %int 2\n%one = OpConstant %int 1\n"
                                    "%two = OpConstant %int 2\n"
                                    "%a = OpConstantComposite %T %one %two\n",
                                    "%r = OpIAdd %T %a %a\n"),
            "dense<[2, 4]> : vector<2xsi32>");
}

TEST(Canonicalize, Simplifications) {
  const char *decls = "%T = OpTypeInt 32 1\n%zero = OpConstant %T 0\n%one = OpConstant %T 1\n"
                      "%pin = OpTypePointer Private %T\n%in = OpVariable %pin Private\n"
                      "%t = OpConstantTrue %bool\n";
  // x + 0, x * 1, -(-x), select with a constant condition: the load of x.
  EXPECT_EQ(storedAfterCanonicalize(decls, "%x = OpLoad %T %in\n%r = OpIAdd %T %x %zero\n"),
            "spirv.Load");
  EXPECT_EQ(storedAfterCanonicalize(decls, "%x = OpLoad %T %in\n%r = OpIMul %T %one %x\n"),
            "spirv.Load");
  EXPECT_EQ(storedAfterCanonicalize(
                decls, "%x = OpLoad %T %in\n%n = OpSNegate %T %x\n%r = OpSNegate %T %n\n"),
            "spirv.Load");
  EXPECT_EQ(storedAfterCanonicalize(
                decls, "%x = OpLoad %T %in\n%y = OpIAdd %T %x %one\n%r = OpSelect %T %t %x %y\n"),
            "spirv.Load");
  EXPECT_EQ(storedAfterCanonicalize(decls, "%x = OpLoad %T %in\n%r = OpISub %T %x %x\n"),
            "0 : si32");
  // x + 1 stays.
  EXPECT_EQ(storedAfterCanonicalize(decls, "%x = OpLoad %T %in\n%r = OpIAdd %T %x %one\n"),
            "spirv.IAdd");
}

TEST(Canonicalize, LogicalNotOfAnEqualityIsTheOppositeComparison) {
  EXPECT_EQ(storedAfterCanonicalize("%T = OpTypeBool\n%pin = OpTypePointer Private %int\n"
                                    "%in = OpVariable %pin Private\n%one = OpConstant %int 1\n",
                                    "%x = OpLoad %int %in\n%e = OpIEqual %T %x %one\n"
                                    "%r = OpLogicalNot %T %e\n"),
            "spirv.INotEqual");
}

TEST(Canonicalize, CompositeExtractOfConstantsAndConstructs) {
  EXPECT_EQ(storedAfterCanonicalize("%T = OpTypeInt 32 1\n%v2 = OpTypeVector %T 2\n"
                                    "%one = OpConstant %T 1\n%two = OpConstant %T 2\n"
                                    "%c = OpConstantComposite %v2 %one %two\n",
                                    "%r = OpCompositeExtract %T %c 1\n"),
            "2 : si32");
  EXPECT_EQ(storedAfterCanonicalize("%T = OpTypeInt 32 1\n%v2 = OpTypeVector %T 2\n"
                                    "%pin = OpTypePointer Private %T\n"
                                    "%in = OpVariable %pin Private\n%one = OpConstant %T 1\n",
                                    "%x = OpLoad %T %in\n%c = OpCompositeConstruct %v2 %one %x\n"
                                    "%r = OpCompositeExtract %T %c 1\n"),
            "spirv.Load");
}

/// A void function's module up to its entry block's label, with constants %t, %f and %one.
constexpr const char *kVoidMain = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%int = OpTypeInt 32 1
%t = OpConstantTrue %bool
%f = OpConstantFalse %bool
%one = OpConstant %int 1
%main = OpFunction %void None %fn
%entry = OpLabel
)";

TEST(Canonicalize, ConstantBranchConditionsBecomeBranchesAndDeadOpsGo) {
  dialect::Context ctx;
  auto m = moduleFromText(ctx, std::string(kVoidMain) + R"(%unused = OpIAdd %int %one %one
%n = OpLogicalNot %bool %f
OpBranchConditional %n %a %b
%a = OpLabel
OpReturn
%b = OpLabel
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m);
  ASSERT_TRUE(runPasses(*m, ctx, "canonicalize"));
  EXPECT_TRUE(opsNamed(*m, "spirv.BranchConditional").empty());
  std::vector<Operation *> branches = opsNamed(*m, "spirv.Branch");
  ASSERT_EQ(branches.size(), 1u);
  // The true target (the second block).
  EXPECT_EQ(branches[0]->successors()[0].block, branches[0]->block()->next());
  EXPECT_TRUE(opsNamed(*m, "spirv.IAdd").empty());
  EXPECT_TRUE(opsNamed(*m, "spirv.LogicalNot").empty());
  EXPECT_TRUE(opsNamed(*m, "spirv.Constant").empty());
}

TEST(Canonicalize, UnreachableBlocksGo) {
  dialect::Context ctx;
  auto m = moduleFromText(ctx, std::string(kVoidMain) + R"(OpBranchConditional %t %a %b
%a = OpLabel
OpReturn
%b = OpLabel
%x = OpIAdd %int %one %one
OpBranch %c
%c = OpLabel
%y = OpIAdd %int %x %one
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m);
  ASSERT_TRUE(runPasses(*m, ctx, "canonicalize"));
  std::vector<Operation *> funcs = opsNamed(*m, "spirv.func");
  ASSERT_EQ(funcs.size(), 1u);
  // The entry and %a; %b and %c (reached only from %b) are gone, with their ops.
  EXPECT_EQ(funcs[0]->region(0).size(), 2u);
  EXPECT_TRUE(opsNamed(*m, "spirv.IAdd").empty());
}

TEST(Canonicalize, ExactExtendedInstructionsFold) {
  // %T is the result type: float for the float cases, int for the integer ones.
  const std::string floats = "%T = OpTypeFloat 32\n%a = OpConstant %T -2.5\n"
                             "%b = OpConstant %T 1.5\n%z = OpConstant %T 0\n"
                             "%nz = OpConstant %T -0\n";
  const std::string ints = "%T = OpTypeInt 32 1\n%i = OpConstant %T -7\n%j = OpConstant %T 3\n"
                           "%min = OpConstant %T -2147483648\n";
  auto call = [](const std::string &decls, std::string_view body) {
    return storedAfterCanonicalize(decls + "%std = OpExtInstImport \"GLSL.std.450\"\n",
                                   "%r = OpExtInst %T %std " + std::string(body) + "\n");
  };
  auto gl = [&](std::string_view body) { return call(floats, body); };
  auto gli = [&](std::string_view body) { return call(ints, body); };
  EXPECT_EQ(gl("FAbs %a"), "2.500000e+00 : f32");
  EXPECT_EQ(gl("Floor %a"), "-3.000000e+00 : f32");
  EXPECT_EQ(gl("Ceil %a"), "-2.000000e+00 : f32");
  EXPECT_EQ(gl("Trunc %a"), "-2.000000e+00 : f32");
  EXPECT_EQ(gl("RoundEven %a"), "-2.000000e+00 : f32");
  EXPECT_EQ(gl("FSign %a"), "-1.000000e+00 : f32");
  EXPECT_EQ(gl("FMin %a %b"), "-2.500000e+00 : f32");
  EXPECT_EQ(gl("FMax %a %b"), "1.500000e+00 : f32");
  EXPECT_EQ(gl("FClamp %a %z %b"), "0.000000e+00 : f32");
  EXPECT_EQ(gli("SAbs %i"), "7 : si32");
  EXPECT_EQ(gli("SSign %i"), "-1 : si32");
  EXPECT_EQ(gli("SMax %i %j"), "3 : si32");
  EXPECT_EQ(gli("UMax %i %j"), "-7 : si32"); // 0xfffffff9 is the larger unsigned
  EXPECT_EQ(gli("SClamp %i %i %j"), "-7 : si32");
  // Left alone: a zero against a zero of the other sign, reversed bounds, the least integer's
  // absolute value, Round's halfway cases, transcendental functions.
  EXPECT_EQ(gl("FMin %z %nz"), "spirv.GL.FMin");
  EXPECT_EQ(gl("FClamp %a %b %z"), "spirv.GL.FClamp");
  EXPECT_EQ(gli("SClamp %i %j %i"), "spirv.GL.SClamp");
  EXPECT_EQ(gli("SAbs %min"), "spirv.GL.SAbs");
  EXPECT_EQ(gl("Round %a"), "spirv.GL.Round");
  EXPECT_EQ(gl("Sqrt %b"), "spirv.GL.Sqrt");
}

TEST(Canonicalize, CompositeInsertFoldsAndFeedsExtracts) {
  const char *decls = "%T = OpTypeInt 32 1\n%v2 = OpTypeVector %T 2\n"
                      "%one = OpConstant %T 1\n%two = OpConstant %T 2\n"
                      "%c = OpConstantComposite %v2 %one %two\n"
                      "%pv = OpTypePointer Private %v2\n%in = OpVariable %pv Private\n"
                      "%pt = OpTypePointer Private %T\n%s = OpVariable %pt Private\n";
  // A constant into a constant.
  EXPECT_EQ(storedAfterCanonicalize(decls, "%r0 = OpCompositeInsert %v2 %one %c 1\n"
                                           "%r = OpCompositeExtract %T %r0 1\n"),
            "1 : si32");
  // Extracting what was inserted, or an element the insert left alone.
  EXPECT_EQ(storedAfterCanonicalize(decls, "%x = OpLoad %T %s\n%v = OpLoad %v2 %in\n"
                                           "%w = OpCompositeInsert %v2 %x %v 0\n"
                                           "%r = OpCompositeExtract %T %w 0\n"),
            "spirv.Load");
  EXPECT_EQ(storedAfterCanonicalize(decls, "%x = OpLoad %T %s\n"
                                           "%w = OpCompositeInsert %v2 %x %c 0\n"
                                           "%r = OpCompositeExtract %T %w 1\n"),
            "2 : si32");
}

TEST(Canonicalize, SpecializationConstantOperationsKeepTheirOperation) {
  // The operation a specialization constant computes when specialized is not folded, in a
  // function or at module level: folding it would leave no OpSpecConstantOp to write.
  dialect::Context ctx;
  dialect::OwningOp m = moduleFromText(ctx, R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Linkage
OpMemoryModel Physical32 OpenCL
OpEntryPoint Kernel %main "main"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_4 = OpConstant %uint 4
%len = OpSpecConstantOp %uint IAdd %uint_4 %uint_4
%sum = OpSpecConstantOp %uint IMul %uint_4 %uint_4
%arr = OpTypeArray %uint %len
%parr = OpTypePointer Workgroup %arr
%shared = OpVariable %parr Workgroup
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpIAdd %uint %sum %uint_4
OpReturn
OpFunctionEnd
)");
  ASSERT_TRUE(m);
  ASSERT_TRUE(runPasses(*m, ctx, "canonicalize"));
  EXPECT_EQ(opsNamed(*m, "spirv.IAdd").size(), 1u);
  EXPECT_EQ(opsNamed(*m, "spirv.IMul").size(), 1u);
  EXPECT_TRUE(bool(dialect::serialize(*m)));
}
