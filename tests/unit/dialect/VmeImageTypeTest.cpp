// OpTypeVmeImageINTEL (SPV_INTEL_device_side_avc_motion_estimation) in the dialect: an opaque type
// whose one operand is an image type, !spirv.vme_image_intel<!spirv.image<...>>. It prints and
// parses back, deserializes from and serializes to the instruction with its image operand, and
// needs what its instruction needs.
#include "BinaryHelpers.h"

#include "spire/asm/Assembler.h"
#include "spire/dialect/Availability.h"
#include "spire/dialect/Serialization.h"
#include "spire/dialect/Text.h"
#include "spire/dialect/Verifier.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

using namespace spire;
using namespace spire::dialect;

namespace {

constexpr std::string_view kImage =
    "!spirv.image<none, Dim2D, NoDepth, NonArrayed, SingleSampled, SamplerUnknown, Unknown>";

/// A kernel that makes a VME image of its image and sampler parameters.
constexpr std::string_view kModule = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability ImageBasic
OpCapability SubgroupAvcMotionEstimationINTEL
OpExtension "SPV_INTEL_device_side_avc_motion_estimation"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%img = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly
%smp = OpTypeSampler
%vme = OpTypeVmeImageINTEL %img
%fn = OpTypeFunction %void %img %smp
%k = OpFunction %void None %fn
%i = OpFunctionParameter %img
%s = OpFunctionParameter %smp
%b = OpLabel
%v = OpVmeImageINTEL %vme %i %s
OpReturn
OpFunctionEnd
)";

std::string problems(const Module &m) { return test::validationErrors(m, "spv1.0"); }

} // namespace

TEST(DialectVmeImageType, PrintsAndParsesWithItsImageType) {
  Context ctx;
  std::string text = "!spirv.vme_image_intel<" + std::string(kImage) + ">";
  Expected<Type> t = parseType(ctx, text);
  ASSERT_TRUE(bool(t)) << t.error().message;
  EXPECT_TRUE(t->is(TypeKind::Opaque));
  EXPECT_EQ(t->opcode(), 5700u); // OpTypeVmeImageINTEL
  ASSERT_TRUE(t->elementType().is(TypeKind::Image));
  EXPECT_EQ(toString(t->elementType()), kImage);
  EXPECT_EQ(toString(*t), text);
  // Uniqued by its image type.
  EXPECT_EQ(*parseType(ctx, text), *t);
  EXPECT_FALSE(bool(parseType(ctx, "!spirv.vme_image_intel<i32, i32>")));
}

TEST(DialectVmeImageType, RoundTripsThroughSerialization) {
  Expected<std::vector<uint32_t>> words = assemble(kModule);
  ASSERT_TRUE(bool(words)) << words.error().format("<test>");
  Module original = test::readWords(std::move(words).value());
  ASSERT_EQ(problems(original), "");

  Context ctx;
  Expected<OwningOp> op = deserialize(ctx, original);
  ASSERT_TRUE(bool(op)) << op.error().message;
  Status verified = verify(**op);
  EXPECT_TRUE(bool(verified)) << verified.error().message;
  std::string text = toString(**op);
  // The module's image keeps its access qualifier, which OpenCL requires.
  std::string image(kImage);
  image.insert(image.size() - 1, ", ReadOnly");
  std::string vme = "!spirv.vme_image_intel<" + image + ">";
  EXPECT_NE(text.find("-> " + vme), std::string::npos) << text;

  // The printed module parses back to the same module.
  Context ctx2;
  Expected<OwningOp> parsed = parse(ctx2, text);
  ASSERT_TRUE(bool(parsed)) << parsed.error().message;
  EXPECT_EQ(toString(**parsed), text);

  // Serialized: valid, with OpTypeVmeImageINTEL naming the image type, and deserializes to the
  // same module.
  Expected<std::vector<uint32_t>> out = serialize(**parsed);
  ASSERT_TRUE(bool(out)) << out.error().message;
  Module back = test::readWords(std::move(out).value());
  EXPECT_EQ(problems(back), "");
  bool declared = false;
  for (uint32_t i = 0; i < back.size(); ++i) {
    Instruction inst = back.inst(i);
    if (inst.opcode() == grammar::Op::TypeVmeImageINTEL) {
      declared = true;
      ASSERT_EQ(inst.wordCount(), 3u);
      EXPECT_EQ(back.inst(back.defIndex(inst.word(2))).opcode(), grammar::Op::TypeImage);
    }
  }
  EXPECT_TRUE(declared);
  Context ctx3;
  Expected<OwningOp> again = deserialize(ctx3, back);
  ASSERT_TRUE(bool(again)) << again.error().message;
  EXPECT_EQ(toString(**again), text);
}

TEST(DialectVmeImageType, NeedsTheMotionEstimationCapability) {
  Context ctx;
  Expected<Type> t = parseType(ctx, "!spirv.vme_image_intel<" + std::string(kImage) + ">");
  ASSERT_TRUE(bool(t));
  Availability a = typeAvailability(*t);
  auto needs = [&](grammar::Capability c) {
    return std::any_of(a.capabilities.begin(), a.capabilities.end(), [&](const auto &r) {
      return std::find(r.anyOf.begin(), r.anyOf.end(), c) != r.anyOf.end();
    });
  };
  EXPECT_TRUE(needs(grammar::Capability::SubgroupAvcMotionEstimationINTEL));
}
