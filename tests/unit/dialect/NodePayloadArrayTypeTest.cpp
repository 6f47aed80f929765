// OpTypeNodePayloadArrayAMDX (SPV_AMDX_shader_enqueue) in the dialect: an opaque type of a record
// type whose decorations are part of it (OpDecorateId with constants and an
// OpConstantStringAMDX node name), !spirv.node_payload_array_amdx<T, NodeMaxPayloadsAMDX=2, ...>.
// Two payload arrays of one record type that write to different nodes stay two types through
// deserialization, text and serialization, and a node name that an execution mode names by id
// (SharesInputWithAMDX) survives too.
#include "BinaryHelpers.h"

#include "spire/asm/Assembler.h"
#include "spire/dialect/Serialization.h"
#include "spire/dialect/Text.h"
#include "spire/dialect/Verifier.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

using namespace spire;
using namespace spire::dialect;

namespace {

/// A node shader that reads its input record and allocates payloads for two output nodes of the
/// same record type; the second output shares the first one's payload limits.
constexpr std::string_view kModule = R"(
OpCapability Shader
OpCapability ShaderEnqueueAMDX
OpExtension "SPV_AMDX_shader_enqueue"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %input
OpExecutionMode %main LocalSize 64 1 1
OpExecutionModeId %main ShaderIndexAMDX %u0
OpExecutionModeId %main IsApiEntryAMDX %false
OpExecutionModeId %main SharesInputWithAMDX %other %u0
OpMemberDecorate %rec 0 Offset 0
OpDecorateId %in_arr NodeMaxPayloadsAMDX %u1
OpDecorateId %out_a NodeMaxPayloadsAMDX %u2
OpDecorateId %out_a PayloadNodeNameAMDX %name_a
OpDecorateId %out_a PayloadNodeArraySizeAMDX %u1
OpDecorateId %out_b NodeMaxPayloadsAMDX %u2
OpDecorateId %out_b PayloadNodeNameAMDX %name_b
OpDecorateId %out_b PayloadNodeBaseIndexAMDX %u1
OpDecorateId %out_b NodeSharesPayloadLimitsWithAMDX %out_a
OpDecorate %out_b PayloadNodeSparseArrayAMDX
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%bool = OpTypeBool
%false = OpConstantFalse %bool
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%name_a = OpConstantStringAMDX "A"
%name_b = OpConstantStringAMDX "B \"quoted\""
%other = OpConstantStringAMDX "Other"
%rec = OpTypeStruct %uint
%in_arr = OpTypeNodePayloadArrayAMDX %rec
%out_a = OpTypeNodePayloadArrayAMDX %rec
%out_b = OpTypeNodePayloadArrayAMDX %rec
%p_in = OpTypePointer NodePayloadAMDX %in_arr
%p_a = OpTypePointer NodePayloadAMDX %out_a
%p_b = OpTypePointer NodePayloadAMDX %out_b
%p_rec = OpTypePointer NodePayloadAMDX %rec
%p_uint = OpTypePointer NodePayloadAMDX %uint
%input = OpVariable %p_in NodePayloadAMDX
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
%r = OpAccessChain %p_rec %input %u0
%f = OpAccessChain %p_uint %r %u0
%v = OpLoad %uint %f
%a = OpAllocateNodePayloadsAMDX %p_a %u2 %u1 %u0
%b = OpAllocateNodePayloadsAMDX %p_b %u2 %u1 %u0
%ar = OpAccessChain %p_rec %a %u0
%af = OpAccessChain %p_uint %ar %u0
OpStore %af %v
OpEnqueueNodePayloadsAMDX %a
OpEnqueueNodePayloadsAMDX %b
OpReturn
OpFunctionEnd
)";

std::string problems(const Module &m) { return test::validationErrors(m, "vulkan1.3"); }

/// What each payload array of a module is decorated with, by decoration name and the operand's
/// value (a constant's number or a string constant's text), in declaration order.
std::vector<std::map<std::string, std::string>> payloadArrays(const Module &m) {
  std::map<uint32_t, size_t> index;
  std::vector<std::map<std::string, std::string>> out;
  for (uint32_t i = 0; i < m.size(); ++i) {
    Instruction inst = m.inst(i);
    if (inst.opcode() == grammar::Op::TypeNodePayloadArrayAMDX) {
      index[inst.resultId()] = out.size();
      out.emplace_back();
    }
  }
  for (uint32_t i = 0; i < m.size(); ++i) {
    Instruction inst = m.inst(i);
    if ((inst.opcode() != grammar::Op::DecorateId && inst.opcode() != grammar::Op::Decorate) ||
        !index.count(inst.word(1)))
      continue;
    std::string name(grammar::findEnumerant(grammar::OperandKind::Decoration, inst.word(2))->name);
    std::string value;
    if (inst.opcode() == grammar::Op::DecorateId) {
      Instruction c = m.inst(m.defIndex(inst.word(3)));
      if (c.opcode() == grammar::Op::Constant)
        value = std::to_string(c.word(3));
      else if (c.opcode() == grammar::Op::ConstantStringAMDX)
        value = c.stringOperand(c.operands()[1]);
      else if (c.opcode() == grammar::Op::TypeNodePayloadArrayAMDX)
        value = "payload array " + std::to_string(index.at(c.resultId()));
    }
    out[index.at(inst.word(1))][name] = value;
  }
  return out;
}

} // namespace

TEST(DialectNodePayloadArrayType, PrintsAndParsesWithItsDecorations) {
  Context ctx;
  const std::string record = "!spirv.struct<(i32 [0])>";
  const std::string a = "!spirv.node_payload_array_amdx<" + record +
                        ", NodeMaxPayloadsAMDX=2, PayloadNodeNameAMDX=\"A\", "
                        "PayloadNodeArraySizeAMDX=1>";
  Expected<Type> t = parseType(ctx, a);
  ASSERT_TRUE(bool(t)) << t.error().message;
  EXPECT_TRUE(isNodePayloadArray(*t));
  EXPECT_EQ(toString(t->elementType()), record);
  EXPECT_EQ(t->nodeName(), "A");
  EXPECT_EQ(toString(*t), a);
  // The decorations are part of the type: another node, another type; the same text, the same.
  EXPECT_EQ(*parseType(ctx, a), *t);
  std::string other = a;
  other.replace(other.find("\"A\""), 3, "\"B\"");
  EXPECT_NE(*parseType(ctx, other), *t);
  // Decorations print in one order whatever order they are written in.
  Expected<Type> reordered =
      parseType(ctx, "!spirv.node_payload_array_amdx<" + record +
                         ", PayloadNodeArraySizeAMDX=1, PayloadNodeNameAMDX=\"A\", "
                         "NodeMaxPayloadsAMDX=2>");
  ASSERT_TRUE(bool(reordered)) << reordered.error().message;
  EXPECT_EQ(*reordered, *t);
  // A peer whose limits it shares, and a sparse array.
  const std::string b = "!spirv.node_payload_array_amdx<" + record +
                        ", NodeSharesPayloadLimitsWithAMDX=" + a + ", PayloadNodeSparseArrayAMDX>";
  Expected<Type> shared = parseType(ctx, b);
  ASSERT_TRUE(bool(shared)) << shared.error().message;
  EXPECT_EQ(shared->sharesPayloadLimitsWith(), *t);
  EXPECT_EQ(toString(*shared), b);

  EXPECT_FALSE(bool(
      parseType(ctx, "!spirv.node_payload_array_amdx<" + record + ", PayloadNodeNameAMDX=3>")));
  EXPECT_FALSE(bool(parseType(ctx, "!spirv.node_payload_array_amdx<" + record +
                                       ", NodeSharesPayloadLimitsWithAMDX=i32>")));
}

TEST(DialectNodePayloadArrayType, RoundTripsThroughSerialization) {
  Expected<std::vector<uint32_t>> words = assemble(kModule);
  ASSERT_TRUE(bool(words)) << words.error().format("<test>");
  Module original = test::readWords(std::move(words).value());
  ASSERT_EQ(problems(original), "");
  const auto decorations = payloadArrays(original);
  ASSERT_EQ(decorations.size(), 3u);

  Context ctx;
  Expected<OwningOp> op = deserialize(ctx, original);
  ASSERT_TRUE(bool(op)) << op.error().message;
  Status verified = verify(**op);
  EXPECT_TRUE(bool(verified)) << verified.error().message;
  std::string text = toString(**op);
  EXPECT_NE(text.find(R"(PayloadNodeNameAMDX="B \22quoted\22")"), std::string::npos) << text;
  EXPECT_NE(text.find("\"Other\""), std::string::npos) << text;

  Context ctx2;
  Expected<OwningOp> parsed = parse(ctx2, text);
  ASSERT_TRUE(bool(parsed)) << parsed.error().message;
  EXPECT_EQ(toString(**parsed), text);

  // Serialized: valid, with the same three payload arrays and decorations, and the execution
  // mode still naming the node by a string constant.
  Expected<std::vector<uint32_t>> out = serialize(**parsed);
  ASSERT_TRUE(bool(out)) << out.error().message;
  Module back = test::readWords(std::move(out).value());
  EXPECT_EQ(problems(back), "");
  EXPECT_EQ(payloadArrays(back), decorations);
  bool sharesInput = false;
  for (uint32_t i = 0; i < back.size(); ++i) {
    Instruction inst = back.inst(i);
    if (inst.opcode() == grammar::Op::ExecutionModeId &&
        inst.word(2) == uint32_t(grammar::ExecutionMode::SharesInputWithAMDX)) {
      Instruction name = back.inst(back.defIndex(inst.word(3)));
      ASSERT_EQ(name.opcode(), grammar::Op::ConstantStringAMDX);
      EXPECT_EQ(name.stringOperand(name.operands()[1]), "Other");
      sharesInput = true;
    }
  }
  EXPECT_TRUE(sharesInput);
}

TEST(DialectNodePayloadArrayType, RefusesDecorationsItCannotHold) {
  // NodeMaxPayloadsAMDX by a literal (OpDecorate) instead of a constant's id.
  std::string text(kModule);
  text.replace(text.find("OpDecorateId %in_arr NodeMaxPayloadsAMDX %u1"),
               std::string_view("OpDecorateId %in_arr NodeMaxPayloadsAMDX %u1").size(),
               "OpDecorateId %in_arr PayloadNodeNameAMDX %u1");
  Expected<std::vector<uint32_t>> words = assemble(text);
  ASSERT_TRUE(bool(words)) << words.error().format("<test>");
  Context ctx;
  Expected<OwningOp> op = deserialize(ctx, test::readWords(std::move(words).value()));
  ASSERT_FALSE(bool(op));
  EXPECT_NE(op.error().message.find("OpConstantStringAMDX"), std::string::npos)
      << op.error().message;
}
