// The ops of SPV_ARM_graph (spirv.ARM.Graph, GraphEntryPoint, GraphOutputs, GraphConstant) with
// the graph type (`!spirv.arm.graph<...>`, OpTypeGraphARM), spirv.ExperimentalML.Call, and
// MLIR's builtin tensor type of dense constants: their text, verifier messages (MLIR's words),
// availability from the grammar, and the round trip through SPIR-V (OpGraphARM after the
// functions, graph constants at module level, CALL of Arm.ExperimentalMLOperations.1).
#include "BinaryHelpers.h"
#include "spire/dialect/Availability.h"
#include "spire/dialect/Serialization.h"
#include "spire/dialect/Text.h"
#include "spire/dialect/Verifier.h"
#include "spire/grammar/Grammar.h"
#include "spire/module/Module.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace spire;
using namespace spire::dialect;

namespace {

constexpr std::string_view kGraphModule =
    R"(spirv.module Logical Vulkan requires #spirv.vce<v1.3, [VulkanMemoryModel, Shader, Int8, TensorsARM, GraphARM], [SPV_ARM_tensors, SPV_ARM_graph, SPV_KHR_vulkan_memory_model]> {
  spirv.GlobalVariable @in bind(0, 0) : !spirv.ptr<!spirv.arm.tensor<2x3xi8>, UniformConstant>
  spirv.GlobalVariable @out bind(0, 1) : !spirv.ptr<!spirv.arm.tensor<2x3xi8>, UniformConstant>
  spirv.ARM.GraphEntryPoint @main, @in, @out
  spirv.ARM.Graph @main(%arg0: !spirv.arm.tensor<2x3xi8>) -> (!spirv.arm.tensor<2x3xi8>, !spirv.arm.tensor<2x3xi8>) attributes {entry_point = true} {
    %0 = spirv.ARM.GraphConstant {graph_constant_id = 42 : i32} : !spirv.arm.tensor<2x3xi8>
    spirv.ARM.GraphOutputs %0, %arg0 : !spirv.arm.tensor<2x3xi8>, !spirv.arm.tensor<2x3xi8>
  }
  spirv.ARM.Graph @other(%arg0: !spirv.arm.tensor<2x3xi8>, %arg1: !spirv.arm.tensor<2x3xi8>) -> !spirv.arm.tensor<2x3xi8> attributes {entry_point = false} {
    spirv.ARM.GraphOutputs %arg1 : !spirv.arm.tensor<2x3xi8>
  }
}
)";

constexpr std::string_view kCallModule =
    R"(spirv.module Logical Vulkan requires #spirv.vce<v1.3, [VulkanMemoryModel, Shader, Int8, TensorsARM, GraphARM], [SPV_ARM_tensors, SPV_ARM_graph, SPV_KHR_vulkan_memory_model]> {
  spirv.GlobalVariable @in bind(0, 0) : !spirv.ptr<!spirv.arm.tensor<4xi8>, UniformConstant>
  spirv.GlobalVariable @out bind(0, 1) : !spirv.ptr<!spirv.arm.tensor<4xi8>, UniformConstant>
  spirv.ARM.GraphEntryPoint @main, @in, @out
  spirv.ARM.Graph @main(%arg0: !spirv.arm.tensor<4xi8>) -> !spirv.arm.tensor<4xi8> attributes {entry_point = true} {
    %cst = spirv.Constant [65 : i8, 66 : i8] : !spirv.array<2 x i8>
    %0 = spirv.ExperimentalML.Call opcode = 3, %cst, %arg0 : (!spirv.array<2 x i8>, !spirv.arm.tensor<4xi8>) -> !spirv.arm.tensor<4xi8>
    spirv.ARM.GraphOutputs %0 : !spirv.arm.tensor<4xi8>
  }
}
)";

bool needsCapability(const Availability &a, grammar::Capability c) {
  return std::any_of(a.capabilities.begin(), a.capabilities.end(), [&](const auto &r) {
    return std::find(r.anyOf.begin(), r.anyOf.end(), c) != r.anyOf.end();
  });
}

/// The verifier's first message for `text`, "" when it verifies ("(parse) ..." when it does not
/// parse).
std::string verifierSays(std::string_view text) {
  Context ctx;
  Expected<OwningOp> op = parse(ctx, text);
  if (!op)
    return "(parse) " + op.error().message;
  Status s = verify(**op);
  return s ? "" : s.error().message;
}

Expected<OwningOp> roundTrip(Context &ctx, std::string_view text, std::vector<uint32_t> &words) {
  Context parsing;
  Expected<OwningOp> op = parse(parsing, text);
  if (!op)
    return op.error();
  if (Status s = verify(**op); !s)
    return s.error();
  Expected<std::vector<uint32_t>> w = serialize(**op);
  if (!w)
    return w.error();
  words = *w;
  Expected<Module> m = Module::fromWords(words);
  if (!m)
    return m.error();
  return deserialize(ctx, *m);
}

} // namespace

TEST(DialectGraphType, PrintsParsesAndNeedsGraphArm) {
  Context ctx;
  for (std::string_view text :
       {"!spirv.arm.graph<(!spirv.arm.tensor<2xi8>) -> !spirv.arm.tensor<2xi8>>",
        "!spirv.arm.graph<(!spirv.arm.tensor<2xi8>, !spirv.arm.tensor<3xi8>) -> "
        "(!spirv.arm.tensor<2xi8>, !spirv.arm.tensor<3xi8>)>"}) {
    Expected<Type> t = parseType(ctx, text);
    ASSERT_TRUE(bool(t)) << text << ": " << t.error().message;
    EXPECT_TRUE(t->is(TypeKind::GraphArm));
    EXPECT_EQ(toString(*t), text);
  }
  Type g =
      *parseType(ctx, "!spirv.arm.graph<(!spirv.arm.tensor<2xi8>) -> !spirv.arm.tensor<2xi8>>");
  EXPECT_EQ(g.inputs().size(), 1u);
  EXPECT_EQ(g.results().size(), 1u);
  EXPECT_NE(g, *parseType(ctx, "(!spirv.arm.tensor<2xi8>) -> !spirv.arm.tensor<2xi8>"));
  Availability a = typeAvailability(g);
  EXPECT_TRUE(needsCapability(a, grammar::Capability::GraphARM));
  EXPECT_TRUE(needsCapability(a, grammar::Capability::TensorsARM));
  EXPECT_FALSE(bool(parseType(ctx, "!spirv.arm.graph<!spirv.arm.tensor<2xi8>>")));
}

TEST(DialectBuiltinTensor, TypesDenseConstantsOfArrays) {
  Context ctx;
  Expected<Type> t = parseType(ctx, "tensor<15xi8>");
  ASSERT_TRUE(bool(t)) << t.error().message;
  EXPECT_TRUE(t->is(TypeKind::Tensor));
  EXPECT_EQ(toString(*t), "tensor<15xi8>");
  EXPECT_EQ(toString(*parseType(ctx, "tensor<2x3xf32>")), "tensor<2x3xf32>");
  EXPECT_FALSE(bool(parseType(ctx, "tensor<?xi8>")));
  EXPECT_FALSE(bool(parseType(ctx, "tensor<*xi8>")));
  // A dense value of a builtin tensor is an array constant; it prints as parsed, and a
  // mismatched length is an error.
  constexpr std::string_view kConstant = R"(module {
  spirv.func @f() "None" {
    %cst = spirv.Constant dense<[1, 2, 3]> : tensor<3xi8> : !spirv.array<3 x i8>
    spirv.Return
  }
}
)";
  Expected<OwningOp> op = parse(ctx, kConstant);
  ASSERT_TRUE(bool(op)) << op.error().message;
  EXPECT_TRUE(bool(verify(**op)));
  EXPECT_EQ(toString(**op), kConstant);
  EXPECT_NE(verifierSays(R"(spirv.func @f() "None" {
  %cst = spirv.Constant dense<[1, 2, 3]> : tensor<3xi8> : !spirv.array<4 x i8>
  spirv.Return
})")
                .find("is not a value of the result's type"),
            std::string::npos);
  // Serialized, it is the array's OpConstantComposite; read back, an array value.
  constexpr std::string_view kInModule =
      R"(spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Linkage, Int8], []> {
  spirv.func @f() -> !spirv.array<3 x i8> "None" {
    %cst = spirv.Constant dense<[1, 2, 3]> : tensor<3xi8> : !spirv.array<3 x i8>
    spirv.ReturnValue %cst : !spirv.array<3 x i8>
  }
}
)";
  Context ctx2;
  std::vector<uint32_t> words;
  Expected<OwningOp> back = roundTrip(ctx2, kInModule, words);
  ASSERT_TRUE(bool(back)) << back.error().message;
  EXPECT_NE(toString(**back).find("spirv.Constant [1 : i8, 2 : i8, 3 : i8] : !spirv.array<3 x i8>"),
            std::string::npos)
      << toString(**back);
}

TEST(DialectGraphOps, TextRoundTripsAndVerifies) {
  Context ctx;
  Expected<OwningOp> op = parse(ctx, kGraphModule);
  ASSERT_TRUE(bool(op)) << op.error().message;
  Status s = verify(**op);
  ASSERT_TRUE(bool(s)) << s.error().message;
  EXPECT_EQ(toString(**op), kGraphModule);
  // MLIR 16 has none of them: the generic form, with the graph's type.
  PrintOptions old;
  old.version = MlirVersion::Mlir16;
  std::string generic = toString(**op, old);
  EXPECT_NE(generic.find("\"spirv.ARM.Graph\"() "), std::string::npos) << generic;
  EXPECT_NE(generic.find("function_type = !spirv.arm.graph<(!spirv.arm.tensor<2x3xi8>) -> "
                         "(!spirv.arm.tensor<2x3xi8>, !spirv.arm.tensor<2x3xi8>)>"),
            std::string::npos)
      << generic;
  Context ctx2;
  Expected<OwningOp> again = parse(ctx2, generic);
  ASSERT_TRUE(bool(again)) << again.error().message;
  EXPECT_EQ(toString(**again), kGraphModule);
}

TEST(DialectGraphOps, AvailabilityIsTheGrammars) {
  Context ctx;
  Expected<OwningOp> op = parse(ctx, kGraphModule);
  ASSERT_TRUE(bool(op)) << op.error().message;
  std::vector<std::string> names;
  walk(op->get(), [&](Operation *x) {
    std::string_view n = x->name();
    if (n.starts_with("spirv.ARM.Graph")) {
      names.emplace_back(n);
      EXPECT_TRUE(needsCapability(opAvailability(*x), grammar::Capability::GraphARM)) << n;
    }
  });
  EXPECT_EQ(names.size(), 6u); // entry point, two graphs, a constant, two outputs
}

// The graphs are made after the functions, once DeserializeOptions::namesRead has said the
// OpNames' words may go: their names (@other has no entry point to take one from) are kept.
TEST(DialectGraphOps, GraphsKeepTheirNamesWhenTheNamesWordsGo) {
  Context parsing;
  Expected<OwningOp> op = parse(parsing, kGraphModule);
  ASSERT_TRUE(bool(op)) << op.error().message;
  Expected<std::vector<uint32_t>> words = serialize(**op);
  ASSERT_TRUE(bool(words)) << words.error().message;
  const Module m = test::readWords(*words);
  size_t calls = 0;
  DeserializeOptions options;
  options.namesRead = [&](uint32_t first, uint32_t end) {
    ++calls;
    test::clobber(m, first, end);
  };
  Context ctx;
  Expected<OwningOp> back = deserialize(ctx, m, nullptr, options);
  ASSERT_TRUE(bool(back)) << back.error().message;
  EXPECT_EQ(calls, 1u);
  EXPECT_EQ(toString(**back), kGraphModule);
}

TEST(DialectGraphOps, SerializeAfterTheFunctionsAndRoundTrip) {
  Context ctx;
  std::vector<uint32_t> words;
  Expected<OwningOp> back = roundTrip(ctx, kGraphModule, words);
  ASSERT_TRUE(bool(back)) << back.error().message;
  EXPECT_EQ(toString(**back), kGraphModule);
  Expected<Module> m = Module::fromWords(words);
  ASSERT_TRUE(bool(m));
  // The graph constant among the module-level constants, before the graph entry point, which
  // comes before the graphs; one OpGraphInputARM per input, one OpGraphSetOutputARM per output.
  std::vector<grammar::Op> graphOps;
  for (Instruction inst : *m)
    if (inst.desc() && inst.desc()->name.starts_with("OpGraph"))
      graphOps.push_back(inst.opcode());
  using O = grammar::Op;
  EXPECT_EQ(graphOps, (std::vector<O>{O::GraphConstantARM, O::GraphEntryPointARM, O::GraphARM,
                                      O::GraphInputARM, O::GraphSetOutputARM, O::GraphSetOutputARM,
                                      O::GraphEndARM, O::GraphARM, O::GraphInputARM,
                                      O::GraphInputARM, O::GraphSetOutputARM, O::GraphEndARM}));
  size_t graphTypes = 0;
  for (Instruction inst : *m)
    graphTypes += inst.opcode() == O::TypeGraphARM;
  EXPECT_EQ(graphTypes, 2u);
}

TEST(DialectGraphOps, AnEntryPointOfNoGraphIsNotSerialized) {
  // MLIR's verifier does not look the symbols up; the serializer cannot write them.
  constexpr std::string_view kText =
      R"(spirv.module Logical Vulkan requires #spirv.vce<v1.3, [VulkanMemoryModel, Shader, TensorsARM, GraphARM], [SPV_ARM_tensors, SPV_ARM_graph, SPV_KHR_vulkan_memory_model]> {
  spirv.ARM.GraphEntryPoint @nothing
}
)";
  Context ctx;
  Expected<OwningOp> op = parse(ctx, kText);
  ASSERT_TRUE(bool(op)) << op.error().message;
  EXPECT_TRUE(bool(verify(**op)));
  Expected<std::vector<uint32_t>> words = serialize(**op);
  ASSERT_FALSE(bool(words));
  EXPECT_NE(words.error().message.find("names @nothing"), std::string::npos)
      << words.error().message;
}

TEST(DialectGraphOps, VerifierSaysWhatMlirSays) {
  const std::pair<std::string_view, std::string_view> cases[] = {
      {R"(spirv.ARM.Graph @g(%arg0: !spirv.arm.tensor<2xi8>) -> () {
})",
       "'spirv.ARM.Graph' op there should be at least one result"},
      {R"(spirv.ARM.Graph @g(%arg0: i8) -> !spirv.arm.tensor<2xi8> {
})",
       "'spirv.ARM.Graph' op type of argument #0 must be a TensorArmType, but got 'i8'"},
      {R"(spirv.ARM.Graph @g(%arg0: !spirv.arm.tensor<2xi8>) -> f32 {
})",
       "'spirv.ARM.Graph' op type of result #0 must be a TensorArmType, but got 'f32'"},
      {R"(spirv.ARM.Graph @g(%arg0: !spirv.arm.tensor<2xi8>) -> !spirv.arm.tensor<2xi8> {
})",
       "empty block: expect at least a terminator"},
      {R"(spirv.ARM.Graph @g(%arg0: !spirv.arm.tensor<2xi8>) -> !spirv.arm.tensor<3xi8> {
  spirv.ARM.GraphOutputs %arg0 : !spirv.arm.tensor<2xi8>
})",
       "type of return operand 0 ('!spirv.arm.tensor<2xi8>') doesn't match graph result type "
       "('!spirv.arm.tensor<3xi8>')"},
      {R"(spirv.ARM.Graph @g(%arg0: !spirv.arm.tensor<2xi8>) -> !spirv.arm.tensor<2xi8> {
  spirv.ARM.GraphOutputs %arg0, %arg0 : !spirv.arm.tensor<2xi8>, !spirv.arm.tensor<2xi8>
})",
       "'spirv.ARM.GraphOutputs' op is returning 2 value(s) but enclosing spirv.ARM.Graph "
       "requires 1 result(s)"},
      {R"(%0 = spirv.ARM.GraphConstant {graph_constant_id = 1 : i32} : !spirv.arm.tensor<2xi8>)",
       "'spirv.ARM.GraphConstant' op failed to verify that op must appear in a spirv.ARM.Graph "
       "op's block"},
      {R"(spirv.ARM.Graph @g(%arg0: !spirv.arm.tensor<2xi8>) -> !spirv.arm.tensor<2xi8> {
  %0 = spirv.ARM.GraphConstant {graph_constant_id = 1 : i32} : i8
  spirv.ARM.GraphOutputs %arg0 : !spirv.arm.tensor<2xi8>
})",
       "'spirv.ARM.GraphConstant' op result #0 must be any SPIR-V tensorArm type"},
      {R"(spirv.func @f() "None" {
  %0 = spirv.Constant dense<1> : !spirv.arm.tensor<1xi16>
  spirv.ARM.GraphOutputs %0 : !spirv.arm.tensor<1xi16>
})",
       "'spirv.ARM.GraphOutputs' op failed to verify that op must appear in a spirv.ARM.Graph "
       "op's block"},
  };
  for (const auto &[text, message] : cases)
    EXPECT_EQ(verifierSays(text), message) << text;
  EXPECT_EQ(verifierSays(kGraphModule), "");
}

TEST(DialectExperimentalMl, CallRoundTripsAsCallOfItsSet) {
  EXPECT_NE(grammar::findExtInstSet("Arm.ExperimentalMLOperations.1"), nullptr);
  Context ctx;
  std::vector<uint32_t> words;
  Expected<OwningOp> back = roundTrip(ctx, kCallModule, words);
  ASSERT_TRUE(bool(back)) << back.error().message;
  EXPECT_EQ(toString(**back), kCallModule);
  Expected<Module> m = Module::fromWords(words);
  ASSERT_TRUE(bool(m));
  bool imported = false, called = false;
  for (Instruction inst : *m) {
    if (inst.opcode() == grammar::Op::ExtInstImport)
      imported = inst.stringOperand(inst.operands()[1]) == "Arm.ExperimentalMLOperations.1";
    if (inst.opcode() == grammar::Op::ExtInst) {
      // result type, result, set, CALL (0), its opcode literal, then the two parameters
      ASSERT_EQ(inst.wordCount(), 8u);
      EXPECT_EQ(inst.word(4), 0u);
      EXPECT_EQ(inst.word(5), 3u);
      called = true;
    }
  }
  EXPECT_TRUE(imported);
  EXPECT_TRUE(called);
  EXPECT_EQ(verifierSays(
                R"(spirv.ARM.Graph @g(%arg0: !spirv.arm.tensor<2xi8>) -> !spirv.arm.tensor<2xi8> {
  %0 = spirv.ExperimentalML.Call opcode = 1 : (!spirv.arm.tensor<2xi8>) -> !spirv.arm.tensor<2xi8>
  spirv.ARM.GraphOutputs %0 : !spirv.arm.tensor<2xi8>
})")
                .substr(0, 7),
            "(parse)");
}
