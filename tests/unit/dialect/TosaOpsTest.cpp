// The ops of TOSA.001000.1 (spirv.Tosa.*): one of each kind of constant operand (rank-1 i32
// tensors, an enumerant, a bool, an axis, a scalar of the element type, a rounding mode) read,
// printed and verified, the verifier's messages, and the round trip through SPIR-V: OpExtInst
// of TOSA.001000.1 whose constants are declared once, and constants of every form read back
// (composite, null, replicated).
#include "spire/asm/Assembler.h"
#include "spire/dialect/Attributes.h"
#include "spire/dialect/Ops.h"
#include "spire/dialect/Serialization.h"
#include "spire/dialect/Text.h"
#include "spire/dialect/Verifier.h"
#include "spire/module/Module.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace spire;
using namespace spire::dialect;

namespace {

constexpr std::string_view kHeader =
    "spirv.module Logical Vulkan requires #spirv.vce<v1.5, [VulkanMemoryModel, Shader, Int8, "
    "Int16, Int64, Float16, TensorsARM, GraphARM], [SPV_ARM_tensors, SPV_ARM_graph, "
    "SPV_KHR_vulkan_memory_model]> {\n";

/// A module of one graph @g of `signature` whose body is `body` (ops and GraphOutputs).
std::string graphModule(std::string_view signature, std::string_view body) {
  return std::string(kHeader) + "  spirv.ARM.Graph @g" + std::string(signature) +
         " attributes {entry_point = false} {\n" + std::string(body) + "  }\n}\n";
}

std::string verifierSays(std::string_view text) {
  Context ctx;
  Expected<OwningOp> op = parse(ctx, text);
  if (!op)
    return "(parse) " + op.error().message;
  Status s = verify(**op);
  return s ? "" : s.error().message;
}

/// Parsed, verified and printed: the text it printed.
std::string reprint(Context &ctx, std::string_view text, bool generic = false) {
  Expected<OwningOp> op = parse(ctx, text);
  EXPECT_TRUE(bool(op)) << (op ? "" : op.error().message);
  if (!op)
    return {};
  Status s = verify(**op);
  EXPECT_TRUE(bool(s)) << (s ? "" : s.error().message);
  PrintOptions options;
  options.generic = generic;
  std::string out;
  print(**op, out, options);
  return out;
}

const std::string kConv2D = graphModule(
    "(%arg0: !spirv.arm.tensor<1x8x8x3xi8>, %arg1: !spirv.arm.tensor<4x1x1x3xi8>, %arg2: "
    "!spirv.arm.tensor<4xi32>) -> !spirv.arm.tensor<1x8x4x4xi32>",
    "    %cst = spirv.Constant dense<3> : !spirv.arm.tensor<1xi8>\n"
    "    %cst_0 = spirv.Constant dense<-5> : !spirv.arm.tensor<1xi8>\n"
    "    %0 = spirv.Tosa.Conv2D pad = [0, 0, 0, 1], stride = [1, 1], dilation = [1, 1], "
    "acc_type = <INT32>, local_bound = true, %arg0, %arg1, %arg2, %cst, %cst_0 : "
    "!spirv.arm.tensor<1x8x8x3xi8>, !spirv.arm.tensor<4x1x1x3xi8>, !spirv.arm.tensor<4xi32>, "
    "!spirv.arm.tensor<1xi8>, !spirv.arm.tensor<1xi8> -> !spirv.arm.tensor<1x8x4x4xi32>\n"
    "    spirv.ARM.GraphOutputs %0 : !spirv.arm.tensor<1x8x4x4xi32>\n");

const std::string kClampConcat = graphModule(
    "(%arg0: !spirv.arm.tensor<2x3xf16>, %arg1: !spirv.arm.tensor<2x5xf16>) -> "
    "!spirv.arm.tensor<2x8xf16>",
    "    %0 = spirv.Tosa.Clamp min_val = -2.500000e+00 : f16, max_val = 6.000000e+00 : f16, "
    "nan_mode = <Ignore>, %arg0 : !spirv.arm.tensor<2x3xf16> -> !spirv.arm.tensor<2x3xf16>\n"
    "    %1 = spirv.Tosa.Concat axis = 1, %0, %arg1 : !spirv.arm.tensor<2x3xf16>, "
    "!spirv.arm.tensor<2x5xf16> -> !spirv.arm.tensor<2x8xf16>\n"
    "    spirv.ARM.GraphOutputs %1 : !spirv.arm.tensor<2x8xf16>\n");

const std::string kRescaleResize = graphModule(
    "(%arg0: !spirv.arm.tensor<1x4x4x2xi16>) -> !spirv.arm.tensor<1x8x8x2xi16>",
    "    %cst = spirv.Constant dense<[2, 1, 2, 1]> : !spirv.arm.tensor<4xi32>\n"
    "    %cst_0 = spirv.Constant dense<0> : !spirv.arm.tensor<2xi32>\n"
    "    %cst_1 = spirv.Constant dense<[0, 1]> : !spirv.arm.tensor<2xi32>\n"
    "    %0 = spirv.Tosa.Resize mode = <NearestNeighbor>, %arg0, %cst, %cst_0, %cst_1 : "
    "!spirv.arm.tensor<1x4x4x2xi16>, !spirv.arm.tensor<4xi32>, !spirv.arm.tensor<2xi32>, "
    "!spirv.arm.tensor<2xi32> -> !spirv.arm.tensor<1x8x8x2xi16>\n"
    "    %cst_2 = spirv.Constant dense<1073741824> : !spirv.arm.tensor<1xi32>\n"
    "    %cst_3 = spirv.Constant dense<30> : !spirv.arm.tensor<1xi8>\n"
    "    %cst_4 = spirv.Constant dense<0> : !spirv.arm.tensor<1xi16>\n"
    "    %cst_5 = spirv.Constant dense<-1> : !spirv.arm.tensor<1xi16>\n"
    "    %1 = spirv.Tosa.Rescale scale32 = true, rounding_mode = <DoubleRound>, per_channel = "
    "false, input_unsigned = false, output_unsigned = true, %0, %cst_2, %cst_3, %cst_4, %cst_5 : "
    "!spirv.arm.tensor<1x8x8x2xi16>, !spirv.arm.tensor<1xi32>, !spirv.arm.tensor<1xi8>, "
    "!spirv.arm.tensor<1xi16>, !spirv.arm.tensor<1xi16> -> !spirv.arm.tensor<1x8x8x2xi16>\n"
    "    spirv.ARM.GraphOutputs %1 : !spirv.arm.tensor<1x8x8x2xi16>\n");

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

/// How many instructions of `op` the words hold.
size_t count(const std::vector<uint32_t> &words, grammar::Op op) {
  size_t n = 0;
  for (size_t i = 5; i < words.size() && (words[i] >> 16);) {
    n += (words[i] & 0xFFFF) == static_cast<uint32_t>(op);
    i += words[i] >> 16;
  }
  return n;
}

} // namespace

TEST(DialectTosa, EveryInstructionIsAnOpWithMlirName) {
  const grammar::ExtInstSetDesc *set = grammar::extInstSet(grammar::ExtInstSet::Tosa0010001);
  ASSERT_NE(set, nullptr);
  EXPECT_EQ(set->instructions.size(), 66u);
  for (const grammar::ExtInstDesc &e : set->instructions) {
    const OpInfo *info = opForExtInst(*set, e.opcode);
    ASSERT_NE(info, nullptr) << e.name;
    EXPECT_TRUE(info->name.starts_with("spirv.Tosa.")) << info->name;
    EXPECT_EQ(findOp(info->name), info);
    EXPECT_NE(info->syntax, nullptr) << info->name;
    EXPECT_NE(info->verify, nullptr) << info->name;
  }
  for (std::string_view name :
       {"spirv.Tosa.ArgMax", "spirv.Tosa.AvgPool2D", "spirv.Tosa.DepthwiseConv2D",
        "spirv.Tosa.FFT2D", "spirv.Tosa.RFFT2D", "spirv.Tosa.MatMul", "spirv.Tosa.IntDiv",
        "spirv.Tosa.ArithmeticRightShift", "spirv.Tosa.GreaterEqual", "spirv.Tosa.Rescale"})
    EXPECT_NE(findOp(name), nullptr) << name;
  // Which operands are attributes: Conv2D's first five, none of MatMul's.
  const OpInfo *conv = findOp("spirv.Tosa.Conv2D");
  ASSERT_EQ(conv->operands.size(), 10u);
  for (size_t i = 0; i < 10; ++i)
    EXPECT_EQ(conv->operands[i].kind == OperandMapping::Kind::Constant, i < 5) << i;
  EXPECT_EQ(conv->operands[3].constAttr, ConstAttr::AccType);
  for (const OperandMapping &m : findOp("spirv.Tosa.MatMul")->operands)
    EXPECT_EQ(m.kind, OperandMapping::Kind::Value);
}

TEST(DialectTosa, CustomFormReadsAndPrintsBack) {
  for (const std::string &text : {kConv2D, kClampConcat, kRescaleResize}) {
    Context ctx;
    EXPECT_EQ(reprint(ctx, text), text);
  }
}

TEST(DialectTosa, GenericFormShowsTheAttributes) {
  Context ctx;
  std::string generic = reprint(ctx, kConv2D, /*generic=*/true);
  for (std::string_view part :
       {"acc_type = #spirv.tosa_ext_acc_type<INT32>",
        "dilation = dense<1> : "
        "!spirv.arm.tensor<2xi32>",
        "local_bound = true", "pad = dense<[0, 0, 0, 1]> : !spirv.arm.tensor<4xi32>"})
    EXPECT_NE(generic.find(part), std::string::npos) << part << "\n" << generic;
  // It reads back as the same op, printed in the custom form again.
  Context again;
  EXPECT_EQ(reprint(again, generic), kConv2D);
  Context third;
  std::string modes = reprint(third, kRescaleResize, true);
  for (std::string_view part : {"mode = #spirv.tosa_ext_resize_mode_type<NearestNeighbor>",
                                "rounding_mode = #spirv.tosa_ext_rounding_mode_type<DoubleRound>"})
    EXPECT_NE(modes.find(part), std::string::npos) << part;
  Context fourth;
  std::string clamp = reprint(fourth, kClampConcat, true);
  EXPECT_NE(clamp.find("nan_mode = #spirv.tosa_ext_nan_propagation_mode_type<Ignore>"),
            std::string::npos);
  EXPECT_NE(clamp.find("axis = 1 : i32"), std::string::npos);
}

TEST(DialectTosa, VerifierSaysWhatMlirSays) {
  auto with = [](std::string text, std::string_view from, std::string_view to) {
    size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? text : text.replace(at, from.size(), to);
  };
  EXPECT_EQ(verifierSays(kConv2D), "");
  EXPECT_EQ(verifierSays(with(kConv2D, "<INT32>", "<INT48>")),
            "'spirv.Tosa.Conv2D' op failed to verify that acc_type must be one in [INT32] when "
            "type has value 8-bit signless integer");
  EXPECT_EQ(verifierSays(with(kConv2D, "stride = [1, 1]", "stride = [1, 2, 1]")),
            "'spirv.Tosa.Conv2D' op attribute 'stride' failed to satisfy constraint: 32-bit "
            "signless integer elements attribute of shape [2] of a tensorArm type");
  EXPECT_EQ(verifierSays(with(with(kConv2D, "dense<3> : !spirv.arm.tensor<1xi8>",
                                   "dense<3> : !spirv.arm.tensor<1xi16>"),
                              "!spirv.arm.tensor<4xi32>, !spirv.arm.tensor<1xi8>,",
                              "!spirv.arm.tensor<4xi32>, !spirv.arm.tensor<1xi16>,")),
            "'spirv.Tosa.Conv2D' op failed to verify that all of {input, input_zp} have same "
            "element type");
  EXPECT_EQ(verifierSays(
                with(kClampConcat, "max_val = 6.000000e+00 : f16", "max_val = 6.000000e+00 : f32")),
            "'spirv.Tosa.Clamp' op failed to verify that all of {input, output, min_val, "
            "max_val} have same element type");
  EXPECT_EQ(verifierSays(with(kClampConcat, "axis = 1", "axis = 2")),
            "'spirv.Tosa.Concat' op failed to verify that axis attribute value should be lower "
            "than rank(output)");
  EXPECT_EQ(verifierSays(with(kRescaleResize, "<DoubleRound>", "<Bogus>")),
            "(parse) unknown tosa_ext_rounding_mode_type value 'Bogus'");
  EXPECT_EQ(verifierSays(graphModule(
                "(%arg0: !spirv.arm.tensor<2x3xi32>, %arg1: !spirv.arm.tensor<3x3xi32>) -> "
                "!spirv.arm.tensor<3x3xi32>",
                "    %0 = spirv.Tosa.Add %arg0, %arg1 : !spirv.arm.tensor<2x3xi32>, "
                "!spirv.arm.tensor<3x3xi32> -> !spirv.arm.tensor<3x3xi32>\n"
                "    spirv.ARM.GraphOutputs %0 : !spirv.arm.tensor<3x3xi32>\n")),
            "'spirv.Tosa.Add' op failed to verify that the shape of input1 and input2 are "
            "compatible for broadcasting and the broadcast shape is equal to the output shape");
  EXPECT_EQ(verifierSays(graphModule(
                "(%arg0: !spirv.arm.tensor<3x28x17x17xi8>) -> !spirv.arm.tensor<3x28xi32>",
                "    %0 = spirv.Tosa.ArgMax axis = 2, nan_mode = <Propagate>, %arg0 : "
                "!spirv.arm.tensor<3x28x17x17xi8> -> !spirv.arm.tensor<3x28xi32>\n"
                "    spirv.ARM.GraphOutputs %0 : !spirv.arm.tensor<3x28xi32>\n")),
            "'spirv.Tosa.ArgMax' op failed to verify that output rank must be equal to max(1, "
            "rank(input))");
  EXPECT_EQ(
      verifierSays(graphModule("(%arg0: !spirv.arm.tensor<4xf32>) -> !spirv.arm.tensor<4xi32>",
                               "    %0 = spirv.Tosa.Clz %arg0 : !spirv.arm.tensor<4xf32> -> "
                               "!spirv.arm.tensor<4xi32>\n"
                               "    spirv.ARM.GraphOutputs %0 : !spirv.arm.tensor<4xi32>\n")),
      "'spirv.Tosa.Clz' op operand #0 must be 1D/2D/3D/4D/5D/6D tensorArm of 32-bit "
      "signless integer values, but got '!spirv.arm.tensor<4xf32>'");
  // The generic form without an attribute the op needs.
  EXPECT_EQ(verifierSays(std::string(kHeader) +
                         "  spirv.ARM.Graph @g(%arg0: !spirv.arm.tensor<4xf32>) -> "
                         "!spirv.arm.tensor<4xf32> {\n"
                         "    %0 = \"spirv.Tosa.ReduceSum\"(%arg0) : (!spirv.arm.tensor<4xf32>) "
                         "-> !spirv.arm.tensor<4xf32>\n"
                         "    spirv.ARM.GraphOutputs %0 : !spirv.arm.tensor<4xf32>\n  }\n}\n"),
            "'spirv.Tosa.ReduceSum' op requires attribute 'axis'");
  // Outside a graph.
  EXPECT_EQ(verifierSays("spirv.func @f(%arg0: !spirv.arm.tensor<4xf32>) \"None\" {\n"
                         "  %0 = spirv.Tosa.Exp %arg0 : !spirv.arm.tensor<4xf32> -> "
                         "!spirv.arm.tensor<4xf32>\n  spirv.Return\n}\n"),
            "'spirv.Tosa.Exp' op failed to verify that op must appear in a spirv.ARM.Graph op's "
            "block");
}

TEST(DialectTosa, RoundTripsWithUniqueConstants) {
  for (const std::string &text : {kConv2D, kClampConcat, kRescaleResize}) {
    Context ctx;
    std::vector<uint32_t> words;
    Expected<OwningOp> back = roundTrip(ctx, text, words);
    ASSERT_TRUE(bool(back)) << back.error().message;
    EXPECT_EQ(toString(**back), text);
    EXPECT_EQ(count(words, grammar::Op::ExtInstImport), 1u);
  }
  // Conv2D's stride and dilation, both [1, 1], are one constant; its acc_type is the 32-bit
  // integer 1 they are made of, its local_bound OpConstantTrue.
  Context ctx;
  std::vector<uint32_t> words;
  ASSERT_TRUE(bool(roundTrip(ctx, kConv2D, words)));
  ASSERT_EQ(count(words, grammar::Op::ExtInst), 1u);
  for (size_t i = 5; i < words.size() && (words[i] >> 16); i += words[i] >> 16) {
    if ((words[i] & 0xFFFF) != static_cast<uint32_t>(grammar::Op::ExtInst))
      continue;
    // Type, result, set, CONV2D (2), then pad, stride, dilation, acc_type, local_bound.
    ASSERT_EQ(words[i] >> 16, 15u);
    EXPECT_EQ(words[i + 4], 2u);
    EXPECT_NE(words[i + 5], words[i + 6]);
    EXPECT_EQ(words[i + 6], words[i + 7]);
    // acc_type INT32 is the 32-bit integer 1 that stride's constituents are.
    for (size_t k = 5; k < i; k += words[k] >> 16)
      if ((words[k] & 0xFFFF) == static_cast<uint32_t>(grammar::Op::ConstantComposite) &&
          words[k + 2] == words[i + 6])
        EXPECT_EQ(words[k + 3], words[i + 8]);
  }
  EXPECT_EQ(count(words, grammar::Op::ConstantTrue), 1u);
}

TEST(DialectTosa, ReadsConstantsOfEveryForm) {
  // stride as a replicated composite, pad as a null tensor, dilation as a composite; the
  // accumulator type an integer constant, local_bound false.
  constexpr std::string_view kText = R"(OpCapability Shader
OpCapability TensorsARM
OpCapability GraphARM
OpCapability ReplicatedCompositesEXT
OpExtension "SPV_ARM_tensors"
OpExtension "SPV_ARM_graph"
OpExtension "SPV_EXT_replicated_composites"
%tosa = OpExtInstImport "TOSA.001000.1"
OpMemoryModel Logical GLSL450
OpGraphEntryPointARM %graph "g" %in %out
%bool = OpTypeBool
%false = OpConstantFalse %bool
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_4 = OpConstant %uint 4
%float = OpTypeFloat 32
%float_0 = OpConstant %float 0
%array_1 = OpTypeArray %uint %uint_1
%array_4 = OpTypeArray %uint %uint_4
%shape_1 = OpConstantComposite %array_1 %uint_1
%shape_2 = OpConstantComposite %array_1 %uint_2
%shape_4 = OpConstantComposite %array_1 %uint_4
%shape_1111 = OpConstantComposite %array_4 %uint_1 %uint_1 %uint_1 %uint_1
%t2 = OpTypeTensorARM %uint %uint_1 %shape_2
%t4 = OpTypeTensorARM %uint %uint_1 %shape_4
%f1 = OpTypeTensorARM %float %uint_1 %shape_1
%f1111 = OpTypeTensorARM %float %uint_4 %shape_1111
%ptr = OpTypePointer UniformConstant %f1111
%in = OpVariable %ptr UniformConstant
%out = OpVariable %ptr UniformConstant
%pad = OpConstantNull %t4
%stride = OpConstantCompositeReplicateEXT %t2 %uint_2
%dilation = OpConstantComposite %t2 %uint_1 %uint_2
%zp = OpConstantComposite %f1 %float_0
%weights = OpGraphConstantARM %f1111 0
%bias = OpGraphConstantARM %f1 1
%gt = OpTypeGraphARM 1 %f1111 %f1111
%graph = OpGraphARM %gt
%input = OpGraphInputARM %f1111 %uint_0
%output = OpExtInst %f1111 %tosa CONV2D %pad %stride %dilation %uint_3 %false %input %weights %bias %zp %zp
OpGraphSetOutputARM %output %uint_0
OpGraphEndARM
)";
  AssembleOptions as;
  as.version = grammar::makeVersion(1, 6);
  Expected<std::vector<uint32_t>> words = assemble(kText, as);
  ASSERT_TRUE(bool(words)) << words.error().format("<test>");
  Expected<Module> m = Module::fromWords(std::move(words).value());
  ASSERT_TRUE(bool(m));
  Context ctx;
  Expected<OwningOp> op = deserialize(ctx, *m);
  ASSERT_TRUE(bool(op)) << op.error().message;
  Status s = verify(**op);
  EXPECT_TRUE(bool(s)) << s.error().message;
  std::string printed = toString(**op);
  EXPECT_NE(printed.find("spirv.Tosa.Conv2D pad = [0, 0, 0, 0], stride = [2, 2], dilation = [1, "
                         "2], acc_type = <FP32>, local_bound = false, "),
            std::string::npos)
      << printed;
  // Written back, the same op (its constants as composites).
  Expected<std::vector<uint32_t>> again = serialize(**op);
  ASSERT_TRUE(bool(again)) << again.error().message;
  Expected<Module> m2 = Module::fromWords(std::move(again).value());
  ASSERT_TRUE(bool(m2));
  Context ctx2;
  Expected<OwningOp> back = deserialize(ctx2, *m2);
  ASSERT_TRUE(bool(back)) << back.error().message;
  EXPECT_EQ(toString(**back), printed);
}

TEST(DialectTosa, ConstantOperandThatIsNotAConstantIsAnError) {
  // An axis that is an array constant: no attribute of the axis's kind holds it.
  constexpr std::string_view kText = R"(OpCapability Shader
OpCapability TensorsARM
OpCapability GraphARM
OpExtension "SPV_ARM_tensors"
OpExtension "SPV_ARM_graph"
%tosa = OpExtInstImport "TOSA.001000.1"
OpMemoryModel Logical GLSL450
OpGraphEntryPointARM %graph "g" %in %out
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_4 = OpConstant %uint 4
%array_1 = OpTypeArray %uint %uint_1
%shape_4 = OpConstantComposite %array_1 %uint_4
%t4 = OpTypeTensorARM %uint %uint_1 %shape_4
%ptr = OpTypePointer UniformConstant %t4
%in = OpVariable %ptr UniformConstant
%out = OpVariable %ptr UniformConstant
%gt = OpTypeGraphARM 1 %t4 %t4
%graph = OpGraphARM %gt
%input = OpGraphInputARM %t4 %uint_0
%output = OpExtInst %t4 %tosa REVERSE %shape_4 %input
OpGraphSetOutputARM %output %uint_0
OpGraphEndARM
)";
  AssembleOptions as;
  as.version = grammar::makeVersion(1, 6);
  Expected<std::vector<uint32_t>> words = assemble(kText, as);
  ASSERT_TRUE(bool(words)) << words.error().format("<test>");
  Expected<Module> m = Module::fromWords(std::move(words).value());
  ASSERT_TRUE(bool(m));
  Context ctx;
  Expected<OwningOp> op = deserialize(ctx, *m);
  ASSERT_FALSE(bool(op));
  EXPECT_NE(op.error().message.find("operand axis of spirv.Tosa.Reverse must be a constant "
                                    "integer of 32 bits"),
            std::string::npos)
      << op.error().message;
}
