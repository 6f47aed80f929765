// Decorations, decoration groups, member names and block layout (RulesDecorations.cpp): for
// each rule a module that breaks it and a valid neighbour.
#include "ValTestUtil.h"

namespace spire::val {
namespace {

using test::validateText;

// A compute shader; $NAMES, $DECOS, $TYPES and $BODY are replaced to make the variants. The
// entry point lists %buf, which $TYPES must declare.
constexpr std::string_view kShader = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" $INTERFACE
OpExecutionMode %main LocalSize 1 1 1
$NAMES
$DECOS
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%uint_0 = OpConstant %uint 0
%uint_4 = OpConstant %uint 4
%S = OpTypeStruct %float %uint
$TYPES
%main = OpFunction %void None %fn
%entry = OpLabel
$BODY
OpReturn
OpFunctionEnd
)";

struct Variant {
  std::string names{}, decos{}, types{}, body{}, interface {};
};

std::string shader(const Variant &v) {
  std::string text(kShader);
  for (auto [key, value] :
       {std::pair<std::string_view, std::string_view>{"$INTERFACE", v.interface},
        {"$NAMES", v.names},
        {"$DECOS", v.decos},
        {"$TYPES", v.types},
        {"$BODY", v.body}})
    text = test::replaced(std::move(text), key, value);
  return text;
}

Report val(const Variant &v, std::string_view env = "spv1.6") {
  return validateText(shader(v), env);
}

TEST(ValDecorations, ValidBase) { EXPECT_VALID(val({})); }

TEST(ValDecorations, MemberNameIndex) {
  EXPECT_VALID(val({.names = "OpMemberName %S 1 \"b\""}));
  EXPECT_ERROR(val({.names = "OpMemberName %S 2 \"c\""}), "has 2 members");
}

TEST(ValDecorations, MemberNameTargetIsStruct) {
  EXPECT_ERROR(val({.names = "OpMemberName %float 0 \"x\""}), "structure type");
}

TEST(ValDecorations, MemberDecorateIndex) {
  EXPECT_VALID(val({.decos = "OpMemberDecorate %S 1 Offset 4"}));
  EXPECT_ERROR(val({.decos = "OpMemberDecorate %S 5 Offset 4"}), "member 5");
  EXPECT_ERROR(val({.decos = "OpMemberDecorate %uint 0 Offset 4"}), "structure type");
}

TEST(ValDecorations, NotForMembers) {
  EXPECT_ERROR(val({.decos = "OpMemberDecorate %S 0 Binding 0"}), "structure member");
}

TEST(ValDecorations, BindingNeedsVariable) {
  EXPECT_ERROR(val({.decos = "OpDecorate %S Binding 0"}), "must be a variable");
  EXPECT_VALID(val({.decos = "OpDecorate %var Binding 0",
                    .types = "%ptr = OpTypePointer Private %float\n"
                             "%var = OpVariable %ptr Private"}));
}

TEST(ValDecorations, BuiltInNeedsVariable) {
  EXPECT_ERROR(val({.decos = "OpDecorate %float BuiltIn Position"}), "BuiltIn");
}

TEST(ValDecorations, ArrayStrideTarget) {
  EXPECT_VALID(val(
      {.decos = "OpDecorate %arr ArrayStride 4", .types = "%arr = OpTypeArray %float %uint_4"}));
  EXPECT_ERROR(val({.decos = "OpDecorate %S ArrayStride 4"}), "array or pointer");
}

TEST(ValDecorations, BlockTarget) {
  EXPECT_ERROR(val({.decos = "OpDecorate %float Block"}), "structure type");
}

TEST(ValDecorations, FlatNeedsMemoryObject) {
  EXPECT_ERROR(val({.decos = "OpDecorate %uint_0 Flat"}), "memory object");
}

TEST(ValDecorations, GroupDecorateTargets) {
  EXPECT_VALID(val({.decos = "OpDecorate %g ArrayStride 4\n%g = OpDecorationGroup\n"
                             "OpGroupDecorate %g %arr",
                    .types = "%arr = OpTypeArray %float %uint_4"}));
  EXPECT_ERROR(val({.decos = "OpDecorate %g ArrayStride 4\n%g = OpDecorationGroup\n"
                             "%h = OpDecorationGroup\nOpGroupDecorate %g %h %arr",
                    .types = "%arr = OpTypeArray %float %uint_4"}),
               "cannot be the target");
  EXPECT_ERROR(val({.decos = "OpDecorate %g Offset 0\n%g = OpDecorationGroup\n"
                             "OpGroupMemberDecorate %g %S 7"}),
               "member 7");
}

TEST(ValDecorations, GroupDecorationsMustSuitEachTarget) {
  // A group's decorations are checked on each of its targets as if applied directly: ArrayStride
  // reaching a struct through a group is as wrong as OpDecorate %S ArrayStride 4 (spirv-val
  // 2023.1 accepts it).
  EXPECT_ERROR(val({.decos = "OpDecorate %g ArrayStride 4\n%g = OpDecorationGroup\n"
                             "OpGroupDecorate %g %arr %S",
                    .types = "%arr = OpTypeArray %float %uint_4"}),
               "the ArrayStride decoration cannot apply to %_struct_");
  EXPECT_ERROR(val({.decos = "OpDecorate %g ArrayStride 4\n%g = OpDecorationGroup\n"
                             "OpGroupDecorate %g %arr %S",
                    .types = "%arr = OpTypeArray %float %uint_4"}),
               "its target must be an array or pointer type");
}

// A uniform buffer used by the shader; $-less: decorations come from the variant.
Variant ubo(std::string decos) {
  return {.decos = std::move(decos),
          .types = "%ptr = OpTypePointer Uniform %S\n%buf = OpVariable %ptr Uniform\n"
                   "%pf = OpTypePointer Uniform %float",
          .body = "%p = OpAccessChain %pf %buf %uint_0\n%x = OpLoad %float %p",
          .interface = "%buf"};
}

TEST(ValDecorations, BlockNeedsOffsets) {
  const std::string base = "OpDecorate %S Block\nOpDecorate %buf DescriptorSet 0\n"
                           "OpDecorate %buf Binding 0\nOpMemberDecorate %S 0 Offset 0\n";
  EXPECT_VALID(val(ubo(base + "OpMemberDecorate %S 1 Offset 4"), "vulkan1.3"));
  EXPECT_ERROR(val(ubo(base), "vulkan1.3"), "Offset");
}

TEST(ValDecorations, VulkanBufferNeedsBinding) {
  EXPECT_ERROR(val(ubo("OpDecorate %S Block\nOpDecorate %buf DescriptorSet 0\n"
                       "OpMemberDecorate %S 0 Offset 0\nOpMemberDecorate %S 1 Offset 4"),
                   "vulkan1.3"),
               "Binding");
}

TEST(ValDecorations, VulkanUniformNeedsBlock) {
  EXPECT_ERROR(val(ubo("OpDecorate %buf DescriptorSet 0\nOpDecorate %buf Binding 0\n"
                       "OpMemberDecorate %S 0 Offset 0\nOpMemberDecorate %S 1 Offset 4"),
                   "vulkan1.3"),
               "Block");
}

TEST(ValDecorations, VulkanBindingStorageClass) {
  EXPECT_ERROR(val({.decos = "OpDecorate %var Binding 0\nOpDecorate %var DescriptorSet 0",
                    .types = "%ptr = OpTypePointer Private %float\n"
                             "%var = OpVariable %ptr Private"},
                   "vulkan1.3"),
               "storage class");
}

TEST(ValDecorations, VulkanUniformBlockLayout) {
  const std::string base = "OpDecorate %S Block\nOpDecorate %buf DescriptorSet 0\n"
                           "OpDecorate %buf Binding 0\nOpMemberDecorate %S 0 Offset 0\n";
  // A uint at offset 2 is not aligned to 4.
  EXPECT_ERROR(val(ubo(base + "OpMemberDecorate %S 1 Offset 2"), "vulkan1.3"), "layout rules");
  // Members may not overlap.
  EXPECT_ERROR(val(ubo(base + "OpMemberDecorate %S 1 Offset 0"), "vulkan1.3"), "overlaps");
  EXPECT_VALID(val(ubo(base + "OpMemberDecorate %S 1 Offset 16"), "vulkan1.3"));
  // Offset 0xFFFFFFFF is an offset like another (spirv-val 2023.1 read it as none), misaligned.
  EXPECT_ERROR(val(ubo(base + "OpMemberDecorate %S 1 Offset 0xFFFFFFFF"), "vulkan1.3"),
               "at offset 4294967295 is not aligned to 4");
}

TEST(ValDecorations, VulkanLocationStorageClass) {
  EXPECT_ERROR(val({.decos = "OpDecorate %var Location 0",
                    .types = "%ptr = OpTypePointer Private %float\n"
                             "%var = OpVariable %ptr Private"},
                   "vulkan1.3"),
               "interface");
  EXPECT_VALID(val({.decos = "OpDecorate %var Location 0",
                    .types = "%ptr = OpTypePointer Output %float\n"
                             "%var = OpVariable %ptr Output",
                    .interface = "%var"},
                   "vulkan1.3"));
}

TEST(ValDecorations, ExclusiveDecorations) {
  // BufferBlock exists up to SPIR-V 1.3.
  EXPECT_ERROR(
      validateText(shader({.decos = "OpDecorate %S Block\nOpDecorate %S BufferBlock"}), "spv1.3"),
      "both");
  EXPECT_VALID(validateText(shader({.decos = "OpDecorate %S BufferBlock"}), "spv1.3"));
}

// 2.16.2: at most one of NoPerspective and Flat, at most one of Patch, Centroid and Sample; they
// decorate only the top-level members of interface structures; and 2.16.1: StorageBuffer and
// Uniform BufferBlock are not mixed.
TEST(ValDecorations, InterpolationDecorations) {
  const std::string input =
      "%ptr_in = OpTypePointer Input %v4float\n%in = OpVariable %ptr_in Input";
  EXPECT_VALID(val({.decos = "OpDecorate %in Flat", .types = input, .interface = "%in"}));
  EXPECT_ERROR(val({.decos = "OpDecorate %in Flat\nOpDecorate %in NoPerspective",
                    .types = input,
                    .interface = "%in"}),
               "cannot be decorated both NoPerspective and Flat");
  EXPECT_ERROR(validateText(test::replaced(shader({.decos = "OpDecorate %in Sample\n"
                                                            "OpDecorate %in Centroid",
                                                   .types = input,
                                                   .interface = "%in"}),
                                           "OpCapability Shader",
                                           "OpCapability Shader\nOpCapability SampleRateShading"),
                            "spv1.6"),
               "cannot be decorated both Centroid and Sample");
  const std::string nested = "%T = OpTypeStruct %S %float\n%ptr_T = OpTypePointer Input %T\n"
                             "%in = OpVariable %ptr_T Input";
  EXPECT_VALID(val({.decos = "OpMemberDecorate %T 1 Flat", .types = nested, .interface = "%in"}));
  EXPECT_ERROR(
      val({.decos = "OpMemberDecorate %S 1 Flat", .types = nested, .interface = "%in"}),
      "has members decorated NoPerspective, Flat, Patch, Centroid or Sample; those decorate only "
      "top-level members");
}

TEST(ValDecorations, StorageBufferAndBufferBlockDoNotMix) {
  const std::string types =
      "%ptr_sb = OpTypePointer StorageBuffer %S\n%sb = OpVariable %ptr_sb StorageBuffer\n"
      "%T = OpTypeStruct %uint\n%ptr_u = OpTypePointer Uniform %T\n"
      "%u = OpVariable %ptr_u Uniform";
  const std::string decos =
      "OpDecorate %S Block\nOpMemberDecorate %S 0 Offset 0\nOpMemberDecorate %S 1 Offset 4\n"
      "OpMemberDecorate %T 0 Offset 0\n";
  EXPECT_VALID(
      validateText(shader({.decos = decos + "OpDecorate %T Block", .types = types}), "spv1.3"));
  EXPECT_ERROR(validateText(shader({.decos = decos + "OpDecorate %T BufferBlock", .types = types}),
                            "spv1.3"),
               "a module cannot use both the StorageBuffer storage class and Uniform BufferBlock");
}

// 2.16.1: the objects of one transform feedback buffer share their XfbStride and Stream.
TEST(ValDecorations, TransformFeedbackBuffersAgree) {
  const std::string text = R"(
OpCapability Shader
OpCapability Geometry
OpCapability GeometryStreams
OpCapability TransformFeedback
OpMemoryModel Logical GLSL450
OpEntryPoint Geometry %main "main" %a %b
OpExecutionMode %main InputPoints
OpExecutionMode %main OutputPoints
OpExecutionMode %main OutputVertices 1
OpExecutionMode %main Invocations 1
OpExecutionMode %main Xfb
OpDecorate %a XfbBuffer 0
OpDecorate %b XfbBuffer 0
OpDecorate %a Stream 0
OpDecorate %b Stream 0
OpDecorate %a Offset 0
OpDecorate %b Offset 4
OpDecorate %a XfbStride 8
OpDecorate %b XfbStride 8
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%po = OpTypePointer Output %float
%a = OpVariable %po Output
%b = OpVariable %po Output
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
  EXPECT_VALID(validateText(text, "spv1.6"));
  EXPECT_ERROR(
      validateText(test::replaced(text, "OpDecorate %b XfbStride 8", "OpDecorate %b XfbStride 16"),
                   "spv1.6"),
      "the objects of transform feedback buffer 0 have different XfbStride decorations (8 and 16)");
  EXPECT_ERROR(
      validateText(test::replaced(text, "OpDecorate %b Stream 0", "OpDecorate %b Stream 1"),
                   "spv1.6"),
      "have different Stream decorations (0 and 1)");
  EXPECT_VALID(validateText(
      test::replaced(test::replaced(text, "OpDecorate %b Stream 0", "OpDecorate %b Stream 1"),
                     "OpDecorate %b XfbBuffer 0", "OpDecorate %b XfbBuffer 1"),
      "spv1.6"));
}

TEST(ValDecorations, BlocksDoNotNest) {
  EXPECT_ERROR(
      val({.decos = "OpDecorate %S Block\nOpDecorate %T Block", .types = "%T = OpTypeStruct %S"}),
      "cannot nest");
  EXPECT_VALID(val({.decos = "OpDecorate %T Block", .types = "%T = OpTypeStruct %S"}));
}

TEST(ValDecorations, BuiltInStructNotAMember) {
  EXPECT_ERROR(val({.decos = "OpMemberDecorate %P 0 BuiltIn Position",
                    .types = "%P = OpTypeStruct %v4float\n%T = OpTypeStruct %P"}),
               "BuiltIn members");
}

// A kernel module with a function declared but not defined.
constexpr std::string_view kLinked = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Linkage
OpMemoryModel Physical64 OpenCL
$DECOS
%void = OpTypeVoid
%fn = OpTypeFunction %void
%ext = OpFunction %void None %fn
OpFunctionEnd
%def = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";

Report linked(std::string_view decos) {
  std::string text(kLinked);
  text.replace(text.find("$DECOS"), 6, decos);
  return validateText(text, "spv1.6");
}

TEST(ValDecorations, DeclarationsAreImported) {
  EXPECT_VALID(linked("OpDecorate %ext LinkageAttributes \"ext\" Import"));
  EXPECT_ERROR(linked(""), "Import");
  EXPECT_ERROR(linked("OpDecorate %ext LinkageAttributes \"ext\" Import\n"
                      "OpDecorate %def LinkageAttributes \"def\" Import"),
               "has a body");
}

TEST(ValDecorations, DecorateIdOnlyForIdDecorations) {
  EXPECT_ERROR(val({.decos = "OpDecorateId %arr ArrayStride 4",
                    .types = "%arr = OpTypeArray %float %uint_4"}),
               "OpDecorateId");
}

TEST(ValDecorations, VulkanNoGLSLShared) {
  EXPECT_ERROR(val({.decos = "OpDecorate %S GLSLShared"}, "vulkan1.3"), "Vulkan");
  EXPECT_VALID(val({.decos = "OpDecorate %S GLSLShared"}));
}

TEST(ValDecorations, VulkanComponentRange) {
  auto with = [](std::string deco) {
    return val({.decos = deco,
                .types = "%ptr = OpTypePointer Output %v4float\n"
                         "%var = OpVariable %ptr Output",
                .interface = "%var"},
               "vulkan1.3");
  };
  EXPECT_VALID(with("OpDecorate %var Location 0\nOpDecorate %var Component 0"));
  EXPECT_ERROR(with("OpDecorate %var Location 0\nOpDecorate %var Component 1"), "do not fit");
  EXPECT_ERROR(with("OpDecorate %var Location 0\nOpDecorate %var Component 4"), "0 to 3");
}

TEST(ValDecorations, IntegerWrapTargets) {
  EXPECT_ERROR(
      val({.decos = "OpDecorate %x NoSignedWrap", .body = "%x = OpUDiv %uint %uint_4 %uint_4"}),
      "NoSignedWrap");
  EXPECT_VALID(
      val({.decos = "OpDecorate %x NoSignedWrap", .body = "%x = OpIAdd %uint %uint_4 %uint_4"}));
}

TEST(ValDecorations, RoundingModeOnlyOnFConvert) {
  EXPECT_ERROR(val({.decos = "OpDecorate %x FPRoundingMode RTE",
                    .types = "%f1 = OpConstant %float 1",
                    .body = "%x = OpFAdd %float %f1 %f1"}),
               "OpFConvert");
}

TEST(ValDecorations, NonWritableTargets) {
  const std::string base = "OpDecorate %S Block\nOpDecorate %buf DescriptorSet 0\n"
                           "OpDecorate %buf Binding 0\nOpMemberDecorate %S 0 Offset 0\n"
                           "OpMemberDecorate %S 1 Offset 4\n";
  EXPECT_VALID(val(ubo(base + "OpDecorate %buf NonWritable"), "vulkan1.3"));
  EXPECT_ERROR(val({.decos = "OpDecorate %var NonWritable",
                    .types = "%ptr = OpTypePointer Workgroup %float\n"
                             "%var = OpVariable %ptr Workgroup"}),
               "NonWritable");
}

TEST(ValDecorations, VulkanOnePushConstantBlock) {
  const std::string decos = "OpDecorate %S Block\nOpMemberDecorate %S 0 Offset 0\n"
                            "OpMemberDecorate %S 1 Offset 4\n";
  const std::string types = "%ptr = OpTypePointer PushConstant %S\n"
                            "%pc1 = OpVariable %ptr PushConstant\n"
                            "%pc2 = OpVariable %ptr PushConstant\n"
                            "%pf = OpTypePointer PushConstant %float";
  EXPECT_VALID(val({.decos = decos,
                    .types = types,
                    .body = "%p = OpAccessChain %pf %pc1 %uint_0\n%x = OpLoad %float %p",
                    .interface = "%pc1"},
                   "vulkan1.3"));
  EXPECT_ERROR(val({.decos = decos,
                    .types = types,
                    .body = "%p = OpAccessChain %pf %pc1 %uint_0\n%x = OpLoad %float %p\n"
                            "%q = OpAccessChain %pf %pc2 %uint_0\n%y = OpLoad %float %q",
                    .interface = "%pc1 %pc2"},
                   "vulkan1.3"),
               "more than one PushConstant");
}

TEST(ValDecorations, LineNamesAString) {
  EXPECT_ERROR(val({.types = "OpLine %uint_4 1 1"}), "OpString");
}

TEST(ValDecorations, VulkanMemoryModelHasNoCoherent) {
  auto with = [](std::string decos) {
    std::string text = shader({.decos = decos,
                               .types = "%ptr = OpTypePointer Workgroup %float\n"
                                        "%var = OpVariable %ptr Workgroup"});
    text.replace(text.find("OpMemoryModel Logical GLSL450"), 29,
                 "OpCapability VulkanMemoryModel\nOpMemoryModel Logical Vulkan");
    return validateText(text, "spv1.6");
  };
  EXPECT_ERROR(with("OpDecorate %var Coherent"), "Vulkan memory model");
  EXPECT_VALID(with(""));
}

TEST(ValDecorations, MatrixLayoutOnlyOnMembers) {
  EXPECT_ERROR(val({.decos = "OpDecorate %S ColMajor"}), "structure members");
  EXPECT_VALID(val({.decos = "OpMemberDecorate %S 0 ColMajor"}));
}

TEST(ValDecorations, VulkanInvariantOnInterfaces) {
  EXPECT_ERROR(val({.decos = "OpDecorate %var Invariant",
                    .types = "%ptr = OpTypePointer Private %float\n"
                             "%var = OpVariable %ptr Private"},
                   "vulkan1.3"),
               "Input or Output");
  EXPECT_VALID(val({.decos = "OpDecorate %var Invariant",
                    .types = "%ptr = OpTypePointer Private %float\n"
                             "%var = OpVariable %ptr Private"}));
}

// 3.20: a decoration applies at most once to an id or member, with the same operands or others
// (FuncParamAttr and UserSemantic excepted); through a decoration group, exact repeats are
// tolerated as spirv-val does.
TEST(ValDecorations, RepeatedDecorations) {
  const Variant binding{.decos = "OpDecorate %var Binding 0\nOpDecorate %var Binding REPEAT",
                        .types = "%ptr = OpTypePointer Private %float\n"
                                 "%var = OpVariable %ptr Private"};
  Variant same = binding, different = binding;
  same.decos = test::replaced(same.decos, "REPEAT", "0");
  different.decos = test::replaced(different.decos, "REPEAT", "1");
  EXPECT_ERROR(val(same), "is decorated Binding more than once;");
  EXPECT_ERROR(val(different), "is decorated Binding more than once, with different operands");
  // glslang's repeated Restrict and RelaxedPrecision; Alignment, whose bounds do not add up.
  const std::string variable = "%ptr = OpTypePointer Private %float\n"
                               "%var = OpVariable %ptr Private";
  EXPECT_ERROR(
      val({.decos = "OpDecorate %var Restrict\nOpDecorate %var Restrict", .types = variable}),
      "is decorated Restrict more than once");
  EXPECT_ERROR(val({.decos = "OpDecorate %var RelaxedPrecision\nOpDecorate %var RelaxedPrecision",
                    .types = variable}),
               "is decorated RelaxedPrecision more than once");
  EXPECT_VALID(val({.decos = "OpDecorate %var Restrict", .types = variable}));
  // The same decoration directly and through a group: tolerated.
  EXPECT_VALID(val({.decos = "OpDecorate %g Restrict\n%g = OpDecorationGroup\n"
                             "OpGroupDecorate %g %var\nOpDecorate %var Restrict",
                    .types = variable}));
  EXPECT_ERROR(val({.decos = "OpMemberDecorate %S 0 Offset 0\nOpMemberDecorate %S 0 Offset 0"}),
               "member 0 is decorated Offset more than once");
  EXPECT_VALID(val({.decos = "OpMemberDecorate %S 0 Offset 0\nOpMemberDecorate %S 1 Offset 4"}));
  // Through a decoration group too.
  EXPECT_ERROR(val({.decos = "OpDecorate %g Binding 1\n%g = OpDecorationGroup\n"
                             "OpGroupDecorate %g %var\nOpDecorate %var Binding 0",
                    .types = "%ptr = OpTypePointer Private %float\n"
                             "%var = OpVariable %ptr Private"}),
               "with different operands");
}

// VUID-StandaloneSpirv-None-10684: no explicit layout in storage classes that have none (Vulkan):
// Workgroup, UniformConstant, and from SPIR-V 1.5 Function and Private.
TEST(ValDecorations, ExplicitLayoutOnlyWhereStorageHasOne) {
  const Variant workgroup{.decos = "OpMemberDecorate %S 0 Offset 0",
                          .types = "%ptr = OpTypePointer Workgroup %S\n"
                                   "%w = OpVariable %ptr Workgroup"};
  EXPECT_RULE_ERROR(
      val(workgroup, "vulkan1.0"),
      "the Workgroup storage class has no explicit layout, but the type %_struct_2 of "
      "this variable's data is laid out by the Offset decoration",
      "VUID-StandaloneSpirv-None-10684");
  EXPECT_VALID(val(workgroup));
  EXPECT_VALID(val({.types = workgroup.types}, "vulkan1.0"));
  const Variant priv{.decos = "OpDecorate %arr ArrayStride 4",
                     .types = "%arr = OpTypeArray %float %uint_4\n"
                              "%ptr = OpTypePointer Private %arr\n%p = OpVariable %ptr Private"};
  EXPECT_ERROR(val(priv, "vulkan1.2"), "the Private storage class has no explicit layout");
  // (Before SPIR-V 1.5 Function and Private types may be laid out.)
  EXPECT_VALID(val(priv, "vulkan1.1"));
}

// SPV_KHR_workgroup_memory_explicit_layout: Workgroup variables are blocks only with its
// capability.
TEST(ValDecorations, WorkgroupBlocksNeedTheirCapability) {
  const Variant block{.decos = "OpDecorate %S Block\nOpMemberDecorate %S 0 Offset 0\n"
                               "OpMemberDecorate %S 1 Offset 4",
                      .types = "%ptr = OpTypePointer Workgroup %S\n"
                               "%w = OpVariable %ptr Workgroup",
                      .interface = "%w"};
  EXPECT_RULE_ERROR(
      val(block, "spv1.4"),
      "a Workgroup variable is a Block only with the WorkgroupMemoryExplicitLayoutKHR "
      "capability",
      "SPV_KHR_workgroup_memory_explicit_layout");
  std::string text =
      test::replaced(shader(block), "OpCapability Shader",
                     "OpCapability Shader\nOpCapability WorkgroupMemoryExplicitLayoutKHR\n"
                     "OpExtension \"SPV_KHR_workgroup_memory_explicit_layout\"");
  EXPECT_VALID(validateText(text, "spv1.4"));
}

// 2.2.2 Explicit layout: matrix members of blocks have a MatrixStride and a RowMajor or ColMajor.
TEST(ValDecorations, BlockMatricesNeedMajorness) {
  const Variant block{.decos = "OpDecorate %B Block\nOpMemberDecorate %B 0 Offset 0\n"
                               "OpMemberDecorate %B 0 MatrixStride 16\nMAJOR\n"
                               "OpDecorate %buf DescriptorSet 0\nOpDecorate %buf Binding 0",
                      .types = "%mat = OpTypeMatrix %v4float 4\n%B = OpTypeStruct %mat\n"
                               "%ptr = OpTypePointer Uniform %B\n%buf = OpVariable %ptr Uniform",
                      .interface = "%buf"};
  Variant colMajor = block, none = block;
  colMajor.decos = test::replaced(colMajor.decos, "MAJOR", "OpMemberDecorate %B 0 ColMajor");
  none.decos = test::replaced(none.decos, "MAJOR", "");
  EXPECT_VALID(val(colMajor, "vulkan1.3"));
  EXPECT_ERROR(val(none, "vulkan1.3"), "must give every matrix member a RowMajor or ColMajor");
}

// The WorkgroupSize built-in decorates a constant vector of three 32-bit integers.
TEST(ValDecorations, WorkgroupSizeIsThreeIntegers) {
  const std::string decos = "OpDecorate %wg BuiltIn WorkgroupSize";
  EXPECT_VALID(val({.decos = decos,
                    .types = "%v3uint = OpTypeVector %uint 3\n"
                             "%wg = OpConstantComposite %v3uint %uint_4 %uint_4 %uint_4"}));
  EXPECT_ERROR(val({.decos = decos, .types = "%wg = OpConstant %uint 4"}),
               "must be a vector of three 32-bit integers for WorkgroupSize");
}

// 2.16.1: an entry point's function is not decorated LinkageAttributes.
TEST(ValDecorations, EntryPointsAreNotLinked) {
  const std::string text =
      test::replaced(test::replaced(shader({}), "OpCapability Shader",
                                    "OpCapability Shader\nOpCapability Linkage"),
                     "%void = OpTypeVoid", "DECO\n%void = OpTypeVoid");
  EXPECT_VALID(validateText(test::replaced(text, "DECO", "")));
  EXPECT_ERROR(validateText(test::replaced(text, "DECO",
                                           "OpDecorate %main LinkageAttributes \"main\" Export")),
               "the entry point's function %1 cannot be decorated LinkageAttributes");
}

} // namespace
} // namespace spire::val
