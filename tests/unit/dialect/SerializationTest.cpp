// Deserialization and serialization on small modules written here: what each of the design's
// transformations makes of them, and that the serialized module is valid again.
#include "spire/dialect/Serialization.h"
#include "spire/asm/Assembler.h"
#include "spire/dialect/Ops.h"
#include "spire/dialect/Verifier.h"
#include "spire/val/Validator.h"

#include <gtest/gtest.h>

#include <string>

using namespace spire;
using namespace spire::dialect;

namespace {

struct Deserialized {
  Context ctx;
  OwningOp module;
  DeserializeStats stats;
  std::string error;
};

void deserializeText(std::string_view text, Deserialized &out) {
  AssembleOptions as;
  as.version = grammar::makeVersion(1, 3);
  Expected<std::vector<uint32_t>> words = assemble(text, as);
  ASSERT_TRUE(bool(words)) << words.error().format("<test>");
  Expected<Module> m = Module::fromWords(std::move(words).value());
  ASSERT_TRUE(bool(m));
  Expected<OwningOp> op = deserialize(out.ctx, *m, &out.stats);
  if (!op) {
    out.error = op.error().message;
    return;
  }
  out.module = std::move(op).value();
  Status v = verify(*out.module);
  EXPECT_TRUE(bool(v)) << v.error().message;
}

/// Serializes and validates for Vulkan 1.1 (or `env`); returns the problems, empty when valid.
std::string serializeAndValidate(const Operation &module, std::string_view env = "vulkan1.1") {
  Expected<std::vector<uint32_t>> words = serialize(module);
  if (!words)
    return "serialize: " + words.error().message;
  Expected<Module> m = Module::fromWords(std::move(words).value());
  if (!m)
    return "unreadable: " + m.error().message;
  val::Options options;
  options.env = *val::parseEnvironment(env);
  val::Report r = val::validate(*m, options);
  std::string problems;
  for (const val::Problem &p : r.problems)
    if (p.severity == Severity::Error)
      problems += p.format("<serialized>") + "\n";
  return problems;
}

size_t count(Operation *root, const OpInfo &info) {
  size_t n = 0;
  walk(root, [&](Operation *op) { n += &op->info() == &info; });
  return n;
}

Operation *first(Operation *root, const OpInfo &info) {
  Operation *found = nullptr;
  walk(root, [&](Operation *op) {
    if (!found && &op->info() == &info)
      found = op;
  });
  return found;
}

constexpr std::string_view kHeader = R"(
OpCapability Shader
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid
OpExecutionMode %main LocalSize 8 1 1
OpName %buf "buf"
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
OpDecorate %rt ArrayStride 4
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 3
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v3uint = OpTypeVector %uint 3
%rt = OpTypeRuntimeArray %float
%S = OpTypeStruct %rt
%pS = OpTypePointer StorageBuffer %S
%pf = OpTypePointer StorageBuffer %float
%pin = OpTypePointer Input %v3uint
%buf = OpVariable %pS StorageBuffer
%gid = OpVariable %pin Input
%int_0 = OpConstant %int 0
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_10 = OpConstant %uint 10
%float_1 = OpConstant %float 1
%float_2 = OpConstant %float 2
)";

std::string withHeader(std::string_view body) {
  std::string s(kHeader);
  s += body;
  return s;
}

} // namespace

TEST(DialectSerialization, ModuleLevelInstructionsBecomeAttributesAndSymbols) {
  Deserialized d;
  deserializeText(withHeader(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpAccessChain %pf %buf %int_0 %uint_0
%x = OpLoad %float %p
%y = OpFAdd %float %x %float_1
%z = OpFMul %float %y %float_1
OpStore %p %z
OpReturn
OpFunctionEnd
)"),
                  d);
  ASSERT_TRUE(d.module) << d.error;
  Attribute vce = d.module->attr("vce_triple");
  ASSERT_TRUE(vce && vce.is(AttrKind::Vce));
  EXPECT_EQ(toString(vce), "#spirv.vce<v1.3, [Shader], []>");
  Operation *var = first(d.module.get(), ops::globalVariable());
  ASSERT_TRUE(var);
  EXPECT_EQ(var->attr("sym_name").str(), "buf");
  EXPECT_EQ(toString(var->attr("descriptor_set")), "0 : i32");
  EXPECT_EQ(toString(var->attr("binding")), "3 : i32");
  EXPECT_EQ(toString(var->attr("type")),
            "!spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0]), Block>, StorageBuffer>");
  // Constants are materialized at each use: %float_1 twice, the two indices once each.
  EXPECT_EQ(count(d.module.get(), ops::constant()), 4u);
  EXPECT_EQ(count(d.module.get(), ops::addressOf()), 1u);
  Operation *ep = first(d.module.get(), ops::entryPoint());
  ASSERT_TRUE(ep);
  // An unnamed variable's symbol is made from its id (3, as the assembler numbers them).
  EXPECT_EQ(toString(ep->attr("interface")), "[@spirv_var_3]");
  Operation *mode = first(d.module.get(), ops::executionMode());
  ASSERT_TRUE(mode);
  EXPECT_EQ(toString(mode->attr("values")), "[8 : i32, 1 : i32, 1 : i32]");
  EXPECT_EQ(serializeAndValidate(*d.module), "");
}

TEST(DialectSerialization, IfElseWithPhiBecomesSelectionWithResult) {
  Deserialized d;
  deserializeText(withHeader(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpAccessChain %pf %buf %int_0 %uint_0
%x = OpLoad %float %p
%c = OpFOrdLessThan %bool %x %float_1
OpSelectionMerge %merge None
OpBranchConditional %c %then %else
%then = OpLabel
%a = OpFAdd %float %x %float_1
OpBranch %merge
%else = OpLabel
%b = OpFMul %float %x %float_2
OpBranch %merge
%merge = OpLabel
%r = OpPhi %float %a %then %b %else
OpStore %p %r
OpReturn
OpFunctionEnd
)"),
                  d);
  ASSERT_TRUE(d.module) << d.error;
  EXPECT_EQ(d.stats.selections, 1u);
  Operation *sel = first(d.module.get(), ops::selection());
  ASSERT_TRUE(sel);
  // The phi is the selection's result, merged by spirv.mlir.merge in the region's last block.
  ASSERT_EQ(sel->numResults(), 1u);
  EXPECT_EQ(sel->result().type(), d.ctx.floating(32));
  Block *last = sel->region().back();
  EXPECT_EQ(&last->front()->info(), &ops::merge());
  EXPECT_EQ(last->front()->numOperands(), 1u);
  // The header's load and compare run before the region.
  EXPECT_EQ(sel->region().front()->front(), sel->region().front()->back());
  EXPECT_EQ(serializeAndValidate(*d.module), "");
}

TEST(DialectSerialization, LoopWithHeaderPhiBecomesLoopRegion) {
  Deserialized d;
  deserializeText(withHeader(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpAccessChain %pf %buf %int_0 %uint_0
OpBranch %header
%header = OpLabel
%i = OpPhi %uint %uint_0 %entry %next %continue
%acc = OpPhi %float %float_1 %entry %acc2 %continue
OpLoopMerge %exit %continue None
OpBranch %body
%body = OpLabel
%cond = OpULessThan %bool %i %uint_10
OpBranchConditional %cond %work %exit
%work = OpLabel
%acc2 = OpFMul %float %acc %float_2
OpBranch %continue
%continue = OpLabel
%next = OpIAdd %uint %i %uint_1
OpBranch %header
%exit = OpLabel
OpStore %p %acc
OpReturn
OpFunctionEnd
)"),
                  d);
  ASSERT_TRUE(d.module) << d.error;
  EXPECT_EQ(d.stats.loops, 1u);
  Operation *loop = first(d.module.get(), ops::loop());
  ASSERT_TRUE(loop);
  Region &r = loop->region();
  // Entry block, header (with the phis as arguments), body, work, continue, merge.
  ASSERT_GE(r.size(), 4u);
  Block *entry = r.front();
  EXPECT_EQ(entry->numArguments(), 0u);
  Block *header = entry->next();
  EXPECT_EQ(header->numArguments(), 2u);
  EXPECT_EQ(entry->back()->successors()[0].block, header);
  // %acc is used after the loop: it leaves through the merge block.
  EXPECT_EQ(loop->numResults(), 1u);
  EXPECT_FALSE(loop->attr("continue_block")); // the continue target is the block before the merge
  EXPECT_EQ(serializeAndValidate(*d.module), "");
}

TEST(DialectSerialization, BreakOutOfASelectionKeepsItsBlocksAndMergeOp) {
  Deserialized d;
  deserializeText(withHeader(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpAccessChain %pf %buf %int_0 %uint_0
OpBranch %header
%header = OpLabel
%i = OpPhi %uint %uint_0 %entry %next %continue
OpLoopMerge %exit %continue None
OpBranch %body
%body = OpLabel
%cond = OpULessThan %bool %i %uint_10
OpSelectionMerge %join None
OpBranchConditional %cond %join %break
%break = OpLabel
OpBranch %exit
%join = OpLabel
OpBranch %continue
%continue = OpLabel
%next = OpIAdd %uint %i %uint_1
OpBranch %header
%exit = OpLabel
OpReturn
OpFunctionEnd
)"),
                  d);
  ASSERT_TRUE(d.module) << d.error;
  EXPECT_EQ(d.stats.loops, 1u);
  EXPECT_EQ(d.stats.unstructured, 1u);
  ASSERT_EQ(d.stats.notes.size(), 1u);
  EXPECT_NE(d.stats.notes[0].find("neither its merge block nor inside it"), std::string::npos)
      << d.stats.notes[0];
  const OpInfo *selectionMerge = opForInstruction(grammar::Op::SelectionMerge);
  ASSERT_TRUE(selectionMerge);
  EXPECT_EQ(count(d.module.get(), *selectionMerge), 1u);
  EXPECT_EQ(serializeAndValidate(*d.module), "");
}

TEST(DialectSerialization, SwitchAndWeightedBranchesRoundTrip) {
  Deserialized d;
  deserializeText(withHeader(R"(
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpAccessChain %pf %buf %int_0 %uint_0
%x = OpLoad %float %p
%u = OpConvertFToU %uint %x
OpSelectionMerge %merge None
OpSwitch %u %default 0 %zero 7 %seven
%zero = OpLabel
OpStore %p %float_1
OpBranch %merge
%seven = OpLabel
OpStore %p %float_2
OpBranch %merge
%default = OpLabel
%c = OpFOrdLessThan %bool %x %float_1
OpSelectionMerge %inner None
OpBranchConditional %c %small %inner 3 1
%small = OpLabel
OpBranch %inner
%inner = OpLabel
OpBranch %merge
%merge = OpLabel
OpReturn
OpFunctionEnd
)"),
                  d);
  ASSERT_TRUE(d.module) << d.error;
  EXPECT_EQ(d.stats.selections, 2u);
  Operation *sw = first(d.module.get(), ops::switchOp());
  ASSERT_TRUE(sw);
  EXPECT_EQ(sw->successors().size(), 3u);
  EXPECT_EQ(toString(sw->attr("literals")), "[0 : i32, 7 : i32]");
  Operation *br = first(d.module.get(), ops::branchConditional());
  ASSERT_TRUE(br);
  EXPECT_EQ(toString(br->attr("branch_weights")), "[3 : i32, 1 : i32]");
  EXPECT_EQ(serializeAndValidate(*d.module), "");
}

TEST(DialectSerialization, ExtendedInstructionsAndSpecConstants) {
  Deserialized d;
  deserializeText(R"(
OpCapability Shader
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "frag_main" %out
OpExecutionMode %main OriginUpperLeft
OpName %main "main"
OpName %k "k"
OpDecorate %out Location 0
OpDecorate %k SpecId 7
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%pout = OpTypePointer Output %float
%out = OpVariable %pout Output
%k = OpSpecConstant %float 2
%main = OpFunction %void None %fn
%entry = OpLabel
%s = OpExtInst %float %glsl Sqrt %k
OpStore %out %s
OpReturn
OpFunctionEnd
)",
                  d);
  ASSERT_TRUE(d.module) << d.error;
  Operation *sc = first(d.module.get(), ops::specConstant());
  ASSERT_TRUE(sc);
  EXPECT_EQ(toString(sc->attr("spec_id")), "7 : i64");
  EXPECT_EQ(toString(sc->attr("default_value")), "2.000000e+00 : f32");
  EXPECT_EQ(count(d.module.get(), ops::referenceOf()), 1u);
  EXPECT_TRUE(first(d.module.get(), *findOp("spirv.GL.Sqrt")));
  Operation *ep = first(d.module.get(), ops::entryPoint());
  ASSERT_TRUE(ep);
  EXPECT_EQ(ep->attr("name").str(), "frag_main"); // differs from the function's symbol
  EXPECT_EQ(serializeAndValidate(*d.module), "");
}

TEST(DialectSerialization, WhatTheDialectCannotExpressIsAnErrorNamingTheInstruction) {
  Deserialized d;
  deserializeText(R"(
OpCapability Shader
%ballot = OpExtInstImport "SPV_AMD_shader_trinary_minmax"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%f1 = OpConstant %float 1
%main = OpFunction %void None %fn
%entry = OpLabel
%m = OpExtInst %float %ballot FMin3AMD %f1 %f1 %f1
OpReturn
OpFunctionEnd
)",
                  d);
  EXPECT_FALSE(d.module);
  EXPECT_NE(d.error.find("extended instruction 1 of a set the dialect has no ops for"),
            std::string::npos)
      << d.error;
}

TEST(DialectSerialization, ArraysSizedBySpecializationConstants) {
  Deserialized d;
  deserializeText(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %n "n"
OpDecorate %n SpecId 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%n = OpSpecConstant %uint 4
%arr = OpTypeArray %float %n
%parr = OpTypePointer Workgroup %arr
%shared = OpVariable %parr Workgroup
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)",
                  d);
  ASSERT_TRUE(d.module) << d.error;
  Operation *var = first(d.module.get(), ops::globalVariable());
  ASSERT_TRUE(var);
  EXPECT_EQ(toString(var->attr("type")), "!spirv.ptr<!spirv.array<@n x f32>, Workgroup>");
  Expected<Type> back = parseType(d.ctx, "!spirv.array<@n x f32>");
  ASSERT_TRUE(bool(back)) << back.error().message;
  EXPECT_EQ(*back, var->attr("type").type().elementType());
  EXPECT_EQ(serializeAndValidate(*d.module), "");
}
