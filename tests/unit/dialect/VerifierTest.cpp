// The IR verifier: what every op must satisfy, the shapes of the dialect's regions, and the
// operand counts and attributes of the ops derived from the grammar.
#include "spire/dialect/Verifier.h"
#include "spire/dialect/Text.h"

#include <gtest/gtest.h>

#include <string>

using namespace spire;
using namespace spire::dialect;

namespace {

/// The verifier's message for `text`, or "" when it verifies.
std::string verifyText(std::string_view text) {
  Context ctx;
  Expected<OwningOp> op = parse(ctx, text);
  if (!op)
    return "parse: " + op.error().message;
  Status s = verify(**op);
  return s ? "" : s.error().message;
}

/// The verifier's message for a module with `body` inside a function, or "" when it verifies.
std::string verifyFunction(std::string_view body, std::string_view args = "%arg0: i32") {
  return verifyText("spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {\n"
                    "  spirv.func @f(" +
                    std::string(args) + ") \"None\" {\n" + std::string(body) + "\n  }\n}\n");
}

} // namespace

TEST(DialectVerifier, GrammarOpsTakeTheirInstructionsOperands) {
  EXPECT_EQ(verifyFunction("    %0 = spirv.IAdd %arg0, %arg0 : i32\n    spirv.Return"), "");
  EXPECT_EQ(verifyFunction("    %0 = \"spirv.IAdd\"(%arg0) : (i32) -> i32\n    spirv.Return"),
            "'spirv.IAdd' op has 1 operands; its instruction takes 2");
  EXPECT_EQ(verifyFunction("    %0 = \"spirv.IAdd\"(%arg0, %arg0, %arg0) : (i32, i32, i32) -> i32\n"
                           "    spirv.Return"),
            "'spirv.IAdd' op has 3 operands; its instruction takes 2");
  EXPECT_EQ(verifyFunction("    \"spirv.IAdd\"(%arg0, %arg0) : (i32, i32) -> ()\n    spirv.Return"),
            "'spirv.IAdd' op has 0 results; its instruction has one");
}

TEST(DialectVerifier, RequiredAttributesArePresentAndOfTheirKind) {
  std::string_view ptr = "%arg0: !spirv.ptr<i32, StorageBuffer>";
  EXPECT_EQ(verifyFunction("    %0 = spirv.AtomicIAdd \"Device\" \"None\" %arg0, %arg1 : "
                           "!spirv.ptr<i32, StorageBuffer>\n    spirv.Return",
                           "%arg0: !spirv.ptr<i32, StorageBuffer>, %arg1: i32"),
            "");
  EXPECT_EQ(verifyFunction("    %0 = \"spirv.AtomicIAdd\"(%arg0, %arg1) {semantics = "
                           "#spirv.memory_semantics<None>} : (!spirv.ptr<i32, StorageBuffer>, i32) "
                           "-> i32\n    spirv.Return",
                           "%arg0: !spirv.ptr<i32, StorageBuffer>, %arg1: i32"),
            "'spirv.AtomicIAdd' op needs the attribute memory_scope");
  EXPECT_EQ(verifyFunction("    %0 = \"spirv.AtomicIAdd\"(%arg0, %arg1) {memory_scope = 1 : i32, "
                           "semantics = #spirv.memory_semantics<None>} : (!spirv.ptr<i32, "
                           "StorageBuffer>, i32) -> i32\n    spirv.Return",
                           "%arg0: !spirv.ptr<i32, StorageBuffer>, %arg1: i32"),
            "'spirv.AtomicIAdd' op attribute 'memory_scope' failed to satisfy constraint: valid "
            "SPIR-V Scope");
  // An optional enumerant (memory access) may be absent; its Aligned parameter is an attribute.
  EXPECT_EQ(
      verifyFunction("    %0 = spirv.Load \"StorageBuffer\" %arg0 : i32\n    spirv.Return", ptr),
      "");
}

TEST(DialectVerifier, EnumerantIdParametersCountAsOperands) {
  std::string_view args =
      "%arg0: !spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, "
      "NeedSampler, Unknown>>, %arg1: vector<2xf32>, %arg2: f32";
  std::string_view type = "(!spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, "
                          "SingleSampled, NeedSampler, Unknown>>, vector<2xf32>";
  // Bias takes one id after the image operands mask.
  EXPECT_EQ(verifyFunction("    %0 = \"spirv.ImageSampleImplicitLod\"(%arg0, %arg1, %arg2) "
                           "{imageoperands = #spirv.image_operands<Bias>} : " +
                               std::string(type) + ", f32) -> vector<4xf32>\n    spirv.Return",
                           args),
            "");
  EXPECT_EQ(verifyFunction("    %0 = \"spirv.ImageSampleImplicitLod\"(%arg0, %arg1) "
                           "{imageoperands = #spirv.image_operands<Bias>} : " +
                               std::string(type) + ") -> vector<4xf32>\n    spirv.Return",
                           args),
            "'spirv.ImageSampleImplicitLod' op has 2 operands; its instruction takes 3");
}

TEST(DialectVerifier, RegionsHaveTheDialectsShapes) {
  // A selection whose last block does not merge.
  EXPECT_EQ(verifyFunction("    %true = spirv.Constant true\n"
                           "    spirv.mlir.selection {\n"
                           "      spirv.BranchConditional %true, ^bb1, ^bb1\n"
                           "    ^bb1:\n"
                           "      spirv.Return\n"
                           "    }\n"
                           "    spirv.Return"),
            "'spirv.mlir.selection' op last block must be the merge block with only one "
            "'spirv.mlir.merge' op");
  // spirv.mlir.merge yields as many values as the construct has results.
  EXPECT_EQ(verifyFunction("    %true = spirv.Constant true\n"
                           "    spirv.mlir.selection {\n"
                           "      spirv.BranchConditional %true, ^bb1, ^bb1\n"
                           "    ^bb1:\n"
                           "      spirv.mlir.merge\n"
                           "    }\n"
                           "    spirv.Return"),
            "");
}

TEST(DialectVerifier, BlocksEndWithTerminatorsAndBranchesStayInTheirRegion) {
  EXPECT_EQ(verifyFunction("    %0 = spirv.IAdd %arg0, %arg0 : i32"),
            "'spirv.func' op a block of its region does not end with a terminator");
  EXPECT_EQ(verifyFunction("    spirv.Branch ^bb1(%arg0 : i32)\n"
                           "  ^bb1(%1: i32):\n"
                           "    spirv.Return"),
            "");
  EXPECT_EQ(verifyFunction("    spirv.Branch ^bb1\n"
                           "  ^bb1(%1: i32):\n"
                           "    spirv.Return"),
            "'spirv.Branch' op successor 0 takes 1 arguments, given 0");
}

TEST(DialectVerifier, StructuralOpsHaveTheirAttributesAndSymbolsResolve) {
  EXPECT_EQ(verifyText("\"spirv.module\"() ({\n  \"spirv.EntryPoint\"() {fn = @main} : () -> ()\n"
                       "}) {addressing_model = #spirv.addressing_model<Logical>, memory_model = "
                       "#spirv.memory_model<GLSL450>} : () -> ()"),
            "'spirv.EntryPoint' op needs the attribute execution_model");
  EXPECT_EQ(verifyText("\"spirv.module\"() ({\n}) {memory_model = #spirv.memory_model<GLSL450>} : "
                       "() -> ()"),
            "'spirv.module' op needs the attribute addressing_model");
  EXPECT_EQ(verifyText("spirv.module Logical GLSL450 {\n  spirv.func @f() \"None\" {\n"
                       "    %0 = spirv.mlir.addressof @nowhere : !spirv.ptr<f32, Private>\n"
                       "    spirv.Return\n  }\n}"),
            "'spirv.mlir.addressof' op expected spirv.GlobalVariable symbol");
}

TEST(DialectVerifier, DeclarationsImportAndLinkageAttributesHaveTheirKind) {
  const std::string head =
      "spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Linkage], []> {\n";
  EXPECT_EQ(verifyText(head + "  spirv.func @f(%arg0: i32) \"Pure\" attributes {linkage_attributes "
                              "= #spirv.linkage_attributes<linkage_name = f, linkage_type = "
                              "<Import>>}\n}\n"),
            "");
  EXPECT_EQ(verifyText(head + "  spirv.func @f(%arg0: i32) \"Pure\"\n}\n"),
            "'spirv.module' cannot contain external functions without 'Import' "
            "linkage_attributes (LinkageAttributes)");
  EXPECT_EQ(verifyText(head + "  spirv.func @f(i32) \"Pure\" attributes {linkage_attributes = "
                              "#spirv.linkage_attributes<linkage_name = \"f\", linkage_type = "
                              "<Export>>}\n}\n"),
            "'spirv.module' cannot contain external functions without 'Import' "
            "linkage_attributes (LinkageAttributes)");
  EXPECT_EQ(verifyText(head + "  spirv.GlobalVariable @v {linkage_attributes = 1 : i32} : "
                              "!spirv.ptr<f32, Private>\n}\n"),
            "'spirv.GlobalVariable' op attribute linkage_attributes has the wrong kind");
  // Outside a spirv.module a declaration needs no linkage.
  EXPECT_EQ(verifyText("spirv.func @f(i32) \"None\"\n"), "");
}

TEST(DialectVerifier, PhysicalBufferPointerArgumentsAreDecoratedForAliasing) {
  auto fn = [](std::string_view arg) {
    return verifyText("spirv.func @f(%arg0: " + std::string(arg) + ") \"None\" {\n" +
                      "  spirv.Return\n}\n");
  };
  const std::string psb = "!spirv.ptr<i32, PhysicalStorageBuffer>";
  EXPECT_EQ(fn(psb + " {spirv.decoration = #spirv.decoration<Restrict>}"), "");
  EXPECT_EQ(fn(psb), "'spirv.func' op with physical buffer pointer must be decorated either "
                     "'Aliased' or 'Restrict'");
  EXPECT_EQ(fn(psb + " {spirv.decoration = #spirv.decoration<AliasedPointer>}"),
            "'spirv.func' op with physical buffer pointer must be decorated either 'Aliased' or "
            "'Restrict'");
  const std::string toPsb = "!spirv.ptr<" + psb + ", Function>";
  EXPECT_EQ(fn(toPsb + " {spirv.decoration = #spirv.decoration<RestrictPointer>}"), "");
  EXPECT_EQ(fn(toPsb), "'spirv.func' op with a pointer points to a physical buffer pointer must "
                       "be decorated either 'AliasedPointer' or 'RestrictPointer'");
  // A physical buffer pointer to another is a physical buffer pointer: Aliased or Restrict.
  EXPECT_EQ(fn("!spirv.ptr<" + psb +
               ", PhysicalStorageBuffer> {spirv.decoration = "
               "#spirv.decoration<Aliased>}"),
            "");
  EXPECT_EQ(fn(psb + " {spirv.decoration = #spirv.decoration<Aliased>, other = 1 : i32}"),
            "'spirv.func' op arguments may only have dialect attributes");
}

TEST(DialectVerifier, ConstructsAndBranchesAsMlirChecksThem) {
  // An empty construct does nothing and verifies; a loop's blocks come in MLIR's order.
  EXPECT_EQ(verifyFunction("    spirv.mlir.loop {\n    }\n    spirv.mlir.selection {\n    }\n"
                           "    spirv.Return"),
            "");
  EXPECT_EQ(
      verifyFunction("    spirv.mlir.loop {\n      spirv.mlir.merge\n    }\n    spirv.Return"),
      "'spirv.mlir.loop' op must have an entry block branching to the loop header block");
  EXPECT_EQ(verifyFunction("    spirv.mlir.loop {\n      spirv.Branch ^bb1\n    ^bb1:\n"
                           "      spirv.Branch ^bb2\n    ^bb2:\n      spirv.mlir.merge\n    }\n"
                           "    spirv.Return"),
            "'spirv.mlir.loop' op requires a loop continue block branching to the loop header "
            "block");
  EXPECT_EQ(verifyFunction("    spirv.mlir.loop {\n      spirv.Branch ^bb1\n    ^bb1:\n"
                           "      spirv.Branch ^bb2\n    ^bb2:\n      spirv.Branch ^bb3\n"
                           "    ^bb3:\n      spirv.mlir.merge\n    }\n    spirv.Return"),
            "'spirv.mlir.loop' op second to last block must be the loop continue block that "
            "branches to the loop header block");
  EXPECT_EQ(verifyFunction("    spirv.mlir.selection {\n      spirv.mlir.merge\n    }\n"
                           "    spirv.Return"),
            "'spirv.mlir.selection' op must have a selection header block");
  // Branch weights: two, not both zero; an Unreachable not in an entry block.
  EXPECT_EQ(verifyFunction("    %true = spirv.Constant true\n"
                           "    spirv.BranchConditional %true [0, 0], ^bb1, ^bb1\n"
                           "  ^bb1:\n    spirv.Return"),
            "'spirv.BranchConditional' op branch weights cannot both be zero");
  EXPECT_EQ(verifyFunction("    spirv.Unreachable"),
            "'spirv.Unreachable' op cannot be used in reachable block");
  EXPECT_EQ(verifyFunction("    spirv.Return\n  ^bb1:\n    spirv.Unreachable"), "");
  EXPECT_EQ(verifyFunction("    \"spirv.Branch\"()[^bb1, ^bb1] : () -> ()\n  ^bb1:\n"
                           "    spirv.Return"),
            "'spirv.Branch' op requires 1 successor but found 2");
}

TEST(DialectVerifier, ModuleScopeOpsAsMlirChecksThem) {
  EXPECT_EQ(verifyText("spirv.module Logical GLSL450 {\n  spirv.func @f() \"None\" {\n"
                       "    spirv.SpecConstant @sc = 1 : i32\n    spirv.Return\n  }\n}"),
            "'spirv.SpecConstant' op must appear in a module-like op's block");
  EXPECT_EQ(verifyText("spirv.module Logical GLSL450 {\n"
                       "  spirv.SpecConstant @sc spec_id(-1) = 1 : i32\n}"),
            "'spirv.SpecConstant' op SpecId cannot be negative");
  EXPECT_EQ(verifyText("spirv.module Logical GLSL450 {\n  spirv.SpecConstant @sc = 1 : i4\n}"),
            "'spirv.SpecConstant' op default value bitwidth disallowed");
  EXPECT_EQ(verifyText("spirv.module Logical GLSL450 {\n  spirv.EntryPoint \"GLCompute\" @f\n}"),
            "function 'f' not found in 'spirv.module'");
  EXPECT_EQ(verifyText("spirv.module Logical GLSL450 {\n  spirv.func @f() \"None\" {\n"
                       "    spirv.Return\n  }\n  spirv.EntryPoint \"GLCompute\" @f\n"
                       "  spirv.EntryPoint \"GLCompute\" @f\n}"),
            "duplicate of a previous EntryPointOp");
  EXPECT_EQ(verifyText("spirv.module Logical GLSL450 {\n"
                       "  spirv.GlobalVariable @v initializer(@w) : !spirv.ptr<f32, Private>\n}"),
            "'spirv.GlobalVariable' op initializer must be result of a spirv.SpecConstant or "
            "spirv.GlobalVariable or spirv.SpecConstantCompositeOp op");
}

TEST(DialectVerifier, AtomicsAsMlirChecksThem) {
  std::string_view args = "%arg0: !spirv.ptr<i32, StorageBuffer>, %arg1: i32";
  // Today's MLIR spells the scope and semantics in angle brackets, MLIR 16 in quotes; both
  // read (one op in both is no release's text: DialectVersions).
  EXPECT_EQ(verifyFunction("    %0 = spirv.AtomicAnd <Device> <None> %arg0, %arg1 : "
                           "!spirv.ptr<i32, StorageBuffer>\n    spirv.Return",
                           args),
            "");
  EXPECT_EQ(verifyFunction("    %0 = spirv.AtomicAnd \"Device\" \"Acquire|Release\" %arg0, %arg1 : "
                           "!spirv.ptr<i32, StorageBuffer>\n    spirv.Return",
                           args),
            "'spirv.AtomicAnd' op expected at most one of these four memory constraints to be "
            "set: `Acquire`, `Release`,`AcquireRelease` or `SequentiallyConsistent`");
  // The barriers' memory semantics too, as MLIR checks them.
  EXPECT_EQ(
      verifyFunction("    spirv.MemoryBarrier <Device>, <Acquire|Release>\n    spirv.Return", args),
      "'spirv.MemoryBarrier' op expected at most one of these four memory constraints to be "
      "set: `Acquire`, `Release`,`AcquireRelease` or `SequentiallyConsistent`");
  EXPECT_EQ(verifyFunction("    spirv.ControlBarrier <Workgroup>, <Device>, "
                           "<AcquireRelease|SequentiallyConsistent>\n    spirv.Return",
                           args),
            "'spirv.ControlBarrier' op expected at most one of these four memory constraints to "
            "be set: `Acquire`, `Release`,`AcquireRelease` or `SequentiallyConsistent`");
  EXPECT_EQ(verifyFunction("    spirv.ControlBarrier <Workgroup>, <Device>, "
                           "<Release|UniformMemory>\n    spirv.Return",
                           args),
            "");
  EXPECT_EQ(verifyFunction("    %0 = spirv.AtomicIIncrement <Device> <None> %arg0 : "
                           "!spirv.ptr<i32, StorageBuffer>\n    spirv.Return",
                           args),
            "");
}
