// Rules of variables, loads, stores, access chains (3.32.8) and of arithmetic, conversion and
// composite instructions (3.32.11 to 3.32.15).
#include "ValTestUtil.h"

namespace spire::val {
namespace {

// A compute shader with common types; `globals` and `body` are spliced in.
std::string shader(std::string_view globals, std::string_view body) {
  return std::string(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v2float = OpTypeVector %float 2
%v4float = OpTypeVector %float 4
%int_0 = OpConstant %int 0
%int_1 = OpConstant %int 1
%int_7 = OpConstant %int 7
%float_1 = OpConstant %float 1
%S = OpTypeStruct %float %v4float
%ptr_f_S = OpTypePointer Function %S
%ptr_f_float = OpTypePointer Function %float
%ptr_f_v4 = OpTypePointer Function %v4float
%ptr_f_int = OpTypePointer Function %int
%ptr_p_float = OpTypePointer Private %float
)") + std::string(globals) +
         "\n%main = OpFunction %void None %fn\n%entry = OpLabel\n" + std::string(body) +
         "\nOpReturn\nOpFunctionEnd\n";
}

TEST(ValMemory, VariableStorageClassMatchesItsPointerType) {
  EXPECT_VALID(test::validateText(shader("%g = OpVariable %ptr_p_float Private %float_1", "")));
  EXPECT_ERROR(test::validateText(shader("%g = OpVariable %ptr_p_float Workgroup", "")),
               "storage class differs from its pointer type");
  EXPECT_ERROR(test::validateText(shader("%g = OpVariable %float Private", "")),
               "must be an OpTypePointer");
}

// 2.16.1, Logical addressing: variables hold no pointers, unless variable pointers allow them in
// Function or Private memory.
TEST(ValMemory, LogicalAddressingVariablesHoldNoPointers) {
  const std::string pointerVariable = shader("%ptr_p_ptr = OpTypePointer Private %ptr_p_float\n"
                                             "%v = OpVariable %ptr_p_ptr Private",
                                             "");
  EXPECT_ERROR(test::validateText(pointerVariable),
               "with the Logical addressing model a variable cannot hold a pointer");
  const std::string variablePointers = "OpCapability Shader\nOpCapability VariablePointers\n"
                                       "OpExtension \"SPV_KHR_variable_pointers\"";
  EXPECT_VALID(
      test::validateText(test::replaced(pointerVariable, "OpCapability Shader", variablePointers)));
  // A structure holding a pointer, in Workgroup memory.
  EXPECT_ERROR(test::validateText(test::replaced(
                   shader("%H = OpTypeStruct %ptr_p_float\n%ptr_w_H = OpTypePointer Workgroup %H\n"
                          "%v = OpVariable %ptr_w_H Workgroup",
                          ""),
                   "OpCapability Shader", variablePointers)),
               "a variable that holds pointers must be in the Function or Private storage class");
}

// A logical pointer's misuses are reported once, at the first of them in the module's order,
// and the pointers in the order of their definitions.
TEST(ValMemory, LogicalPointerMisuseOncePerPointer) {
  const Report r = test::validateText(
      shader("%P = OpTypeStruct %ptr_f_float\n",
             "%v = OpVariable %ptr_f_float Function\n%w = OpVariable %ptr_f_float Function\n"
             "%a = OpCompositeConstruct %P %w\n%b = OpCompositeConstruct %P %v\n"
             "%c = OpCompositeConstruct %P %v\n%d = OpCompositeConstruct %P %w\n"));
  ASSERT_EQ(r.errorCount(), 2u) << test::describe(r);
  // %v's first misuse (%b) is reported first, then %w's (%a, before it).
  EXPECT_EQ(r.problems[0].location.instIndex, r.problems[1].location.instIndex + 1)
      << test::describe(r);
  EXPECT_NE(r.problems[0].message.find("cannot be an operand of OpCompositeConstruct"),
            std::string::npos);
}

// 2.16.1, logical pointers: only the listed instructions take them or give them; variable
// pointers add OpSelect, OpPhi, OpPtrAccessChain, OpLoad, OpConstantNull and calls as producers.
// spirv-val 2023.1 checks OpSelect and OpPhi only.
TEST(ValMemory, LogicalPointersOnlyWhereTheRulesAllowThem) {
  const std::string variable = "%v = OpVariable %ptr_f_float Function\n";
  EXPECT_VALID(test::validateText(shader("", variable + "%c = OpCopyObject %ptr_f_float %v\n"
                                                        "%l = OpLoad %float %c")));
  const std::string holder = "%P = OpTypeStruct %ptr_f_float\n";
  EXPECT_ERROR(test::validateText(shader(holder, variable + "%c = OpCompositeConstruct %P %v")),
               "cannot be an operand of OpCompositeConstruct");
  EXPECT_ERROR(test::validateText(shader("", variable + "%c = OpBitcast %ptr_f_float %v")),
               "a logical pointer cannot be the result of OpBitcast");
  EXPECT_ERROR(test::validateText(shader("", "%u = OpUndef %ptr_f_float")),
               "a logical pointer cannot be the result of OpUndef");
  EXPECT_ERROR(test::validateText(shader("%null = OpConstantNull %ptr_f_float", "")),
               "a logical pointer cannot be the result of OpConstantNull without the "
               "VariablePointers or VariablePointersStorageBuffer capability");
  const std::string select = variable + "%w = OpVariable %ptr_f_float Function\n"
                                        "%s = OpSelect %ptr_f_float %true %v %w";
  const Report noVariablePointers =
      test::validateText(shader("%true = OpConstantTrue %bool", select));
  EXPECT_ERROR(noVariablePointers, "a logical pointer cannot be the result of OpSelect without");
  EXPECT_EQ(noVariablePointers.errorCount(), 1u) << test::describe(noVariablePointers);
  const std::string variablePointers = "OpCapability Shader\nOpCapability VariablePointers\n"
                                       "OpExtension \"SPV_KHR_variable_pointers\"";
  auto withVariablePointers = [&](const std::string &globals, const std::string &body) {
    return test::validateText(
        test::replaced(shader(globals, body), "OpCapability Shader", variablePointers), "spv1.3");
  };
  EXPECT_VALID(withVariablePointers("%true = OpConstantTrue %bool", select));
  EXPECT_VALID(withVariablePointers("%null = OpConstantNull %ptr_f_float", ""));
  // Variable pointers leave the other prohibitions in place.
  EXPECT_ERROR(withVariablePointers(holder, variable + "%c = OpCompositeConstruct %P %v"),
               "cannot be an operand of OpCompositeConstruct");
  // PhysicalStorageBuffer pointers are physical: the rule leaves them alone.
  const std::string physical = R"(
OpCapability Shader
OpCapability PhysicalStorageBufferAddresses
OpCapability Int64
OpExtension "SPV_KHR_physical_storage_buffer"
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%ulong = OpTypeInt 64 0
%ulong_64 = OpConstant %ulong 64
%ptr_b = OpTypePointer PhysicalStorageBuffer %float
%ptr_f = OpTypePointer Function %float
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpVariable %ptr_f Function
%b = OpConvertUToPtr %ptr_b %ulong_64
%u = OpConvertPtrToU %ulong %b
POINTER_USE
OpReturn
OpFunctionEnd
)";
  EXPECT_VALID(
      test::validateText(test::replaced(physical, "POINTER_USE", "%x = OpUndef %ptr_b"), "spv1.5"));
  EXPECT_ERROR(
      test::validateText(test::replaced(physical, "POINTER_USE", "%x = OpUndef %ptr_f"), "spv1.5"),
      "a logical pointer cannot be the result of OpUndef");
  // spirv-val's --relax-logical-pointer lifts the rule.
  Options relaxed;
  relaxed.relaxLogicalPointer = true;
  EXPECT_VALID(test::validateText(shader("", "%u = OpUndef %ptr_f_float"), "spv1.6", relaxed));
}

// 2.16.1, Logical addressing: signed constant access chain indexes have no sign bit set.
TEST(ValMemory, AccessChainIndexesAreNotNegative) {
  EXPECT_VALID(test::validateText(
      shader("", "%v = OpVariable %ptr_f_v4 Function\n%e = OpAccessChain %ptr_f_float %v %int_1")));
  EXPECT_ERROR(test::validateText(shader("%int_n1 = OpConstant %int -1",
                                         "%v = OpVariable %ptr_f_v4 Function\n"
                                         "%e = OpAccessChain %ptr_f_float %v %int_n1")),
               "index %int_n1 is a negative constant");
}

// PhysicalStorageBuffer: only with PhysicalStorageBuffer64 addressing (2.16.1), never an
// OpVariable's storage class, variables holding such pointers not both AliasedPointer and
// RestrictPointer (2.18.2), Aligned accesses in Vulkan (-04708, -06314).
TEST(ValMemory, PhysicalStorageBuffer) {
  const std::string psb = "OpCapability Shader\nOpCapability PhysicalStorageBufferAddresses";
  auto module = [&](std::string_view decos, std::string_view globals, std::string_view body) {
    std::string text = test::replaced(shader(globals, body), "OpCapability Shader", psb);
    text = test::replaced(text, "OpMemoryModel Logical GLSL450",
                          "OpMemoryModel PhysicalStorageBuffer64 GLSL450");
    return test::replaced(text, "OpExecutionMode %main LocalSize 1 1 1",
                          "OpExecutionMode %main LocalSize 1 1 1\n" + std::string(decos));
  };
  const std::string globals = "%pp = OpTypePointer PhysicalStorageBuffer %int\n"
                              "%ppp = OpTypePointer Function %pp";
  const std::string body = "%v = OpVariable %ppp Function\n%p = OpLoad %pp %v\n"
                           "%x = OpLoad %int %p Aligned 4";
  EXPECT_VALID(
      test::validateText(module("OpDecorate %v AliasedPointer", globals, body), "vulkan1.2"));
  EXPECT_ERROR(test::validateText(module("", globals, body + "\n%e = OpPtrEqual %bool %p %p")),
               "the operands of OpPtrEqual cannot be PhysicalStorageBuffer pointers");
  // Revision 6 lifted the need for AliasedPointer or RestrictPointer (#827); both stay invalid.
  EXPECT_VALID(test::validateText(module("", globals, body)));
  EXPECT_ERROR(test::validateText(module(
                   "OpDecorate %v AliasedPointer\nOpDecorate %v RestrictPointer", globals, body)),
               "cannot be decorated both RestrictPointer and AliasedPointer");
  EXPECT_ERROR(test::validateText(module("OpDecorate %v AliasedPointer", globals,
                                         "%v = OpVariable %ppp Function\n%p = OpLoad %pp %v\n"
                                         "%x = OpLoad %int %p"),
                                  "vulkan1.2"),
               "in Vulkan memory accesses through PhysicalStorageBuffer pointers are Aligned");
  // -06314: aligned to a multiple of the largest scalar accessed (Vulkan only).
  const std::string wide = "%long = OpTypeInt 64 1\n%W = OpTypeStruct %int %long\n"
                           "%pp = OpTypePointer PhysicalStorageBuffer %W\n"
                           "%ppp = OpTypePointer Function %pp";
  const std::string wideBody = "%v = OpVariable %ppp Function\n%p = OpLoad %pp %v\n"
                               "%x = OpLoad %W %p Aligned ALIGN";
  const std::string wideModule =
      test::replaced(module("OpDecorate %v AliasedPointer", wide, wideBody),
                     "OpCapability Shader\n", "OpCapability Shader\nOpCapability Int64\n");
  EXPECT_RULE_ERROR(test::validateText(test::replaced(wideModule, "ALIGN", "4"), "vulkan1.2"),
                    "is Aligned 4, less than the 8 bytes of the largest scalar it accesses",
                    "VUID-StandaloneSpirv-PhysicalStorageBuffer64-06314");
  EXPECT_VALID(test::validateText(test::replaced(wideModule, "ALIGN", "8"), "vulkan1.2"));
  EXPECT_VALID(test::validateText(test::replaced(wideModule, "ALIGN", "4")));
  EXPECT_ERROR(
      test::validateText(module("", globals + "\n%g = OpVariable %pp PhysicalStorageBuffer", "")),
      "a variable cannot have the PhysicalStorageBuffer storage class");
  EXPECT_ERROR(test::validateText(
                   test::replaced(shader("%pp = OpTypePointer PhysicalStorageBuffer %int", ""),
                                  "OpCapability Shader", psb)),
               "the PhysicalStorageBuffer storage class is used only with the "
               "PhysicalStorageBuffer64 addressing model");
}

// 2.16.1: PhysicalStorageBuffer pointers to matrices (or into them) come from access chains that
// start at a structure, whose member decorations give the layout, and only load or store.
TEST(ValMemory, PhysicalStorageBufferMatrices) {
  const char *text = R"(
OpCapability Shader
OpCapability PhysicalStorageBufferAddresses
OpCapability Int64
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
OpMemberDecorate %S 0 ColMajor
OpMemberDecorate %S 0 MatrixStride 16
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%mat4 = OpTypeMatrix %v4float 4
%S = OpTypeStruct %mat4
%ulong = OpTypeInt 64 0
%int = OpTypeInt 32 1
%int_0 = OpConstant %int 0
%c = OpConstant %ulong 64
%pS = OpTypePointer PhysicalStorageBuffer %S
%pm = OpTypePointer PhysicalStorageBuffer %mat4
%pv = OpTypePointer PhysicalStorageBuffer %v4float
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpConvertUToPtr %pS %c
%m = OpAccessChain %pm %p %int_0
%x = OpLoad %mat4 %m Aligned 16
%col = OpAccessChain %pv %m %int_0
OpStore %col %v Aligned 16
BODY
OpReturn
OpFunctionEnd
)";
  auto with = [&](std::string_view body) {
    return test::validateText(
        test::replaced(test::replaced(text, "BODY", body), "OpStore %col %v",
                       "%v = OpLoad %v4float %col Aligned 16\nOpStore %col %v"),
        "spv1.6");
  };
  EXPECT_VALID(with(""));
  EXPECT_ERROR(with("%q = OpCopyObject %pv %col"),
               "is only the Pointer of OpLoad or OpStore, not an operand of OpCopyObject");
  EXPECT_ERROR(with("%raw = OpConvertUToPtr %pm %c"),
               "must come from access chains that start at a structure");
}

// 3.26 Memory Operands: MakePointerAvailable not on loads, the Make* with NonPrivatePointer, and
// NonPrivatePointer for memory other invocations see (2.16.1).
TEST(ValMemory, MemoryOperandsOfTheVulkanMemoryModel) {
  auto vulkan = [](std::string_view globals, std::string_view body) {
    std::string text = test::replaced(shader(globals, body), "OpCapability Shader",
                                      "OpCapability Shader\nOpCapability VulkanMemoryModel");
    text = test::replaced(text, "OpMemoryModel Logical GLSL450", "OpMemoryModel Logical Vulkan");
    if (!globals.empty())
      text = test::replaced(text, "OpEntryPoint GLCompute %main \"main\"",
                            "OpEntryPoint GLCompute %main \"main\" %w");
    return test::validateText(text, "spv1.5");
  };
  const std::string globals = "%pw = OpTypePointer Workgroup %int\n%w = OpVariable %pw Workgroup\n"
                              "%uint_2 = OpConstant %uint 2";
  EXPECT_VALID(vulkan(globals, "%x = OpLoad %int %w MakePointerVisible|NonPrivatePointer %uint_2"));
  EXPECT_ERROR(
      vulkan(globals, "%x = OpLoad %int %w MakePointerAvailable|NonPrivatePointer %uint_2"),
      "MakePointerAvailable is not for OpLoad");
  EXPECT_ERROR(vulkan(globals, "%x = OpLoad %int %w MakePointerVisible %uint_2"),
               "MakePointerAvailable and MakePointerVisible need NonPrivatePointer");
  EXPECT_ERROR(
      vulkan("", "%v = OpVariable %ptr_f_int Function\n%x = OpLoad %int %v NonPrivatePointer"),
      "NonPrivatePointer is for pointers into Uniform, Workgroup");
}

// VUID-StandaloneSpirv-OpTypeImage-06924: images, samplers, sampled images and acceleration
// structures (and arrays of them) are not stored to, in Vulkan.
TEST(ValMemory, VulkanDoesNotStoreImages) {
  const std::string text = shader("%img = OpTypeImage %float 2D 0 0 0 1 Unknown\n"
                                  "%ptr_f_img = OpTypePointer Function %img",
                                  "%v = OpVariable %ptr_f_img Function\n%u = OpUndef %img\n"
                                  "OpStore %v %u");
  EXPECT_RULE_ERROR(test::validateText(text, "vulkan1.3"),
                    "in Vulkan images, samplers, sampled images and acceleration structures are "
                    "not stored to",
                    "VUID-StandaloneSpirv-OpTypeImage-06924");
  EXPECT_VALID(test::validateText(text));
}

// 3.32.15 OpSelect: "Before version 1.4, results are only computed per component": a vector
// result needs a vector condition of as many components.
TEST(ValArithmetic, SelectByAScalarFromSpirv14) {
  const std::string text = shader("%true = OpConstantTrue %bool\n"
                                  "%v = OpConstantComposite %v2float %float_1 %float_1",
                                  "%s = OpSelect %v2float %true %v %v");
  EXPECT_VALID(test::validateText(text, "spv1.4"));
  EXPECT_ERROR(test::validateText(text, "spv1.3"),
               "before SPIR-V 1.4 OpSelect chooses a vector by a vector condition");
}

// 3.26 Memory Operands: "The alignment is specified in a subsequent unsigned 32-bit integer
// literal operand. The value must be a power of two" (clspv and glslang once emitted Aligned 0).
TEST(ValMemory, AlignedIsAPowerOfTwo) {
  auto load = [](std::string_view aligned) {
    return test::validateText(shader("", "%v = OpVariable %ptr_f_int Function\n"
                                         "%x = OpLoad %int %v Aligned " +
                                             std::string(aligned)));
  };
  EXPECT_VALID(load("4"));
  EXPECT_RULE_ERROR(load("0"), "the Aligned memory operand 0 is not a power of two",
                    "3.26 Aligned");
  EXPECT_ERROR(load("12"), "the Aligned memory operand 12 is not a power of two");
  EXPECT_ERROR(test::validateText(shader("", "%v = OpVariable %ptr_f_int Function\n"
                                             "OpStore %v %int_1 Volatile|Aligned 3")),
               "the Aligned memory operand 3 is not a power of two");
}

// 3.32.6 OpTypeBool: booleans are stored in storage classes that are not externally visible, and
// Vulkan's Input and Output booleans are built-ins (VUID-StandaloneSpirv-Input-07290).
TEST(ValMemory, StoredBooleans) {
  EXPECT_VALID(test::validateText(shader("%pb = OpTypePointer Private %bool\n"
                                         "%b = OpVariable %pb Private",
                                         "")));
  EXPECT_ERROR(test::validateText(shader("%pb = OpTypePointer StorageBuffer %bool\n"
                                         "%b = OpVariable %pb StorageBuffer",
                                         "")),
               "booleans are stored only in storage classes that are not externally visible");
}

// 3.7 Storage Class: Input and PushConstant variables are read-only and take no initializer.
TEST(ValMemory, ReadOnlyVariablesHaveNoInitializer) {
  EXPECT_VALID(test::validateText(
      shader("%pp = OpTypePointer Private %int\n%v = OpVariable %pp Private %int_1", ""),
      "spv1.3"));
  EXPECT_ERROR(
      test::validateText(
          shader("%pi = OpTypePointer Input %int\n%v = OpVariable %pi Input %int_1", ""), "spv1.3"),
      "a variable in the Input storage class is read-only and cannot have an initializer");
  EXPECT_ERROR(
      test::validateText(
          shader("%pc = OpTypePointer PushConstant %int\n%v = OpVariable %pc PushConstant %int_1",
                 ""),
          "spv1.3"),
      "a variable in the PushConstant storage class is read-only");
}

TEST(ValMemory, FunctionVariablesInsideFunctionsOnly) {
  EXPECT_ERROR(test::validateText(shader("%g = OpVariable %ptr_f_float Function", "")),
               "outside functions cannot have the Function storage class");
  EXPECT_ERROR(test::validateText(shader("", "%v = OpVariable %ptr_p_float Private")),
               "inside a function must have the Function storage class");
}

TEST(ValMemory, InitializerIsAConstantOfThePointeeType) {
  EXPECT_ERROR(test::validateText(shader("%g = OpVariable %ptr_p_float Private %int_1", "")),
               "is not the variable's pointee type");
}

TEST(ValMemory, LoadAndStoreTypes) {
  EXPECT_VALID(test::validateText(shader("", R"(
%v = OpVariable %ptr_f_float Function
OpStore %v %float_1
%x = OpLoad %float %v)")));
  EXPECT_ERROR(test::validateText(shader("", "%v = OpVariable %ptr_f_float Function\n"
                                             "OpStore %v %int_1")),
               "is not the type the pointer points to");
  EXPECT_ERROR(test::validateText(shader("", "%v = OpVariable %ptr_f_float Function\n"
                                             "%x = OpLoad %int %v")),
               "is not the type the pointer points to");
  EXPECT_ERROR(test::validateText(shader("", "OpStore %float_1 %float_1")), "is not a pointer");
}

TEST(ValMemory, AccessChainWalksTheType) {
  EXPECT_VALID(test::validateText(shader("", R"(
%v = OpVariable %ptr_f_S Function
%a = OpAccessChain %ptr_f_v4 %v %int_1
%b = OpAccessChain %ptr_f_float %v %int_1 %int_7)"))); // past a vector's end: undefined, valid
  EXPECT_ERROR(test::validateText(shader("", "%v = OpVariable %ptr_f_S Function\n"
                                             "%a = OpAccessChain %ptr_f_v4 %v %int_7")),
               "index 7 is out of bounds: struct %_struct_14 has 2 elements");
  EXPECT_ERROR(test::validateText(shader("", "%v = OpVariable %ptr_f_S Function\n"
                                             "%a = OpAccessChain %ptr_f_float %v %int_1")),
               "the result type points to %float but the indexes select %v4float");
  EXPECT_ERROR(test::validateText(shader("", "%v = OpVariable %ptr_f_S Function\n"
                                             "%a = OpAccessChain %ptr_f_float %v %int_0 %int_0")),
               "is not a composite");
}

TEST(ValMemory, NoStoresToReadOnlyMemory) {
  EXPECT_ERROR(test::validateText(shader("%ptr_in = OpTypePointer Input %float\n"
                                         "%in = OpVariable %ptr_in Input",
                                         "OpStore %in %float_1")),
               "is to read-only memory");
}

TEST(ValMemory, PointerComparisonsNeedVariablePointersInLogicalAddressing) {
  const std::string body = "%a = OpVariable %ptr_f_float Function\n"
                           "%b = OpVariable %ptr_f_float Function\n"
                           "%e = OpPtrEqual %bool %a %b";
  EXPECT_ERROR(test::validateText(shader("", body), "spv1.4"),
               "comparing pointers needs the VariablePointers capability");
}

// 2.16.1: variable pointers do not reach OpArrayLength, arrays of blocks, matrices or their
// columns.
TEST(ValMemory, WhatVariablePointersMustNotDo) {
  const char *text = R"(
OpCapability Shader
OpCapability VariablePointers
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %sb
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %blk Block
OpMemberDecorate %blk 0 Offset 0
OpMemberDecorate %blk 1 Offset 16
OpMemberDecorate %blk 1 ColMajor
OpMemberDecorate %blk 1 MatrixStride 16
OpMemberDecorate %blk 2 Offset 80
OpDecorate %rta ArrayStride 4
OpDecorate %sb DescriptorSet 0
OpDecorate %sb Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%true = OpConstantTrue %bool
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%mat4 = OpTypeMatrix %v4float 4
%rta = OpTypeRuntimeArray %float
%blk = OpTypeStruct %v4float %mat4 %rta
%psb = OpTypePointer StorageBuffer %blk
%sb = OpVariable %psb StorageBuffer
%pvec = OpTypePointer StorageBuffer %v4float
%pmat = OpTypePointer StorageBuffer %mat4
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%main = OpFunction %void None %fn
%entry = OpLabel
BODY
OpReturn
OpFunctionEnd
)";
  auto with = [&](std::string_view body) {
    return test::validateText(test::replaced(text, "BODY", body), "spv1.6");
  };
  EXPECT_VALID(with("%v = OpAccessChain %pvec %sb %uint_0\n"
                    "%s = OpSelect %pvec %true %v %v\n%x = OpLoad %v4float %s"));
  EXPECT_VALID(with("%n = OpArrayLength %uint %sb 2"));
  EXPECT_ERROR(with("%s = OpSelect %psb %true %sb %sb"),
               "points to a matrix or to an object containing one");
  EXPECT_ERROR(with("%m = OpAccessChain %pmat %sb %uint_1\n%s = OpCopyObject %pmat %m\n"
                    "%t = OpSelect %pmat %true %s %m"),
               "points to a matrix or to an object containing one");
  EXPECT_ERROR(with("%c = OpAccessChain %pvec %sb %uint_1 %uint_0\n"
                    "%s = OpSelect %pvec %true %c %c"),
               "points to a column of a matrix, or to a component of one");
}

// 2.16.1: without VariablePointers (VariablePointersStorageBuffer alone), a variable pointer is
// selected from pointers into one structure, or is null.
TEST(ValMemory, StorageBufferVariablePointersChooseWithinOneStructure) {
  const char *text = R"(
OpCapability Shader
CAPABILITY
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %a %b
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %blk Block
OpMemberDecorate %blk 0 Offset 0
OpMemberDecorate %blk 1 Offset 16
OpDecorate %a DescriptorSet 0
OpDecorate %a Binding 0
OpDecorate %b DescriptorSet 0
OpDecorate %b Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%true = OpConstantTrue %bool
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%blk = OpTypeStruct %v4float %v4float
%psb = OpTypePointer StorageBuffer %blk
%a = OpVariable %psb StorageBuffer
%b = OpVariable %psb StorageBuffer
%pvec = OpTypePointer StorageBuffer %v4float
%null = OpConstantNull %pvec
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%main = OpFunction %void None %fn
%entry = OpLabel
%a0 = OpAccessChain %pvec %a %uint_0
%a1 = OpAccessChain %pvec %a %uint_1
%b0 = OpAccessChain %pvec %b %uint_0
BODY
OpReturn
OpFunctionEnd
)";
  auto with = [&](std::string_view capability, std::string_view body) {
    return test::validateText(
        test::replaced(test::replaced(text, "CAPABILITY", capability), "BODY", body), "spv1.6");
  };
  const char *buffer = "OpCapability VariablePointersStorageBuffer";
  EXPECT_VALID(with(buffer, "%s = OpSelect %pvec %true %a0 %a1\n%x = OpLoad %v4float %s"));
  EXPECT_VALID(with(buffer, "%s = OpSelect %pvec %true %a0 %null\n"
                            "%t = OpSelect %pvec %true %s %a1\n%x = OpLoad %v4float %t"));
  EXPECT_ERROR(with(buffer, "%s = OpSelect %pvec %true %a0 %b0\n%x = OpLoad %v4float %s"),
               "chooses between pointers into %2 and %3");
  EXPECT_ERROR(with(buffer, "%s = OpSelect %pvec %true %a0 %a1\n"
                            "%t = OpSelect %pvec %true %b0 %s"),
               "chooses between pointers into %3 and %2");
  EXPECT_VALID(with("OpCapability VariablePointers",
                    "%s = OpSelect %pvec %true %a0 %b0\n%x = OpLoad %v4float %s"));
  // OpPtrAccessChain into memory with an explicit layout needs the base type's ArrayStride.
  EXPECT_ERROR(with("OpCapability VariablePointers", "%p = OpPtrAccessChain %pvec %a0 %uint_1"),
               "needs an ArrayStride decoration");
  EXPECT_VALID(test::validateText(
      test::replaced(
          test::replaced(test::replaced(text, "CAPABILITY", "OpCapability VariablePointers"),
                         "BODY", "%p = OpPtrAccessChain %pvec %a0 %uint_1"),
          "OpDecorate %a DescriptorSet 0",
          "OpDecorate %a DescriptorSet 0\nOpDecorate %pvec ArrayStride 16"),
      "spv1.6"));
}

TEST(ValArithmetic, StorageOnlySmallTypesOnlyMoveData) {
  const char *text = R"(
OpCapability Shader
OpCapability StorageBuffer16BitAccess
%cap
OpExtension "SPV_KHR_16bit_storage"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %buf
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%half = OpTypeFloat 16
%float = OpTypeFloat 32
%S = OpTypeStruct %half
%ptr_S = OpTypePointer StorageBuffer %S
%ptr_half = OpTypePointer StorageBuffer %half
%buf = OpVariable %ptr_S StorageBuffer
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpAccessChain %ptr_half %buf %uint_0
%h = OpLoad %half %p
%f = OpFConvert %float %h
%USE
OpReturn
OpFunctionEnd
)";
  auto with = [&](std::string_view cap, std::string_view use) {
    return test::replaced(test::replaced(text, "%cap", cap), "%USE", use);
  };
  EXPECT_VALID(test::validateText(with("", "OpStore %p %h"), "vulkan1.3"));
  EXPECT_ERROR(test::validateText(with("", "%d = OpFAdd %half %h %h"), "vulkan1.3"),
               "can only be stored, copied or converted");
  EXPECT_VALID(
      test::validateText(with("OpCapability Float16", "%d = OpFAdd %half %h %h"), "vulkan1.3"));
}

TEST(ValMemory, LogicalAddressingLoadsThroughMemoryObjects) {
  const std::string body = "%a = OpVariable %ptr_f_float Function\n"
                           "%b = OpVariable %ptr_f_float Function\n"
                           "%p = OpSelect %ptr_f_float %true %a %b\n"
                           "%x = OpLoad %float %p";
  const std::string globals = "%true = OpConstantTrue %bool";
  EXPECT_ERROR(test::validateText(shader(globals, body)), "is not a pointer to memory");
  Options relaxed;
  relaxed.relaxLogicalPointer = true;
  EXPECT_VALID(test::validateText(shader(globals, body), "spv1.6", relaxed));
}

TEST(ValArithmetic, BitRelationalAndVectorInstructions) {
  const std::string globals = "%true = OpConstantTrue %bool\n"
                              "%v2 = OpConstantComposite %v2float %float_1 %float_1\n"
                              "%v2bool = OpTypeVector %bool 2\n"
                              "%bv = OpConstantComposite %v2bool %true %true";
  EXPECT_VALID(test::validateText(shader(globals, R"(
%a = OpShiftLeftLogical %int %int_1 %int_1
%b = OpBitCount %int %int_1
%c = OpSelect %float %true %float_1 %float_1
%d = OpDot %float %v2 %v2
%e = OpAny %bool %bv
%f = OpIsNan %bool %float_1
%g = OpVectorTimesScalar %v2float %v2 %float_1
%h = OpBitFieldUExtract %int %int_1 %int_0 %int_1)")));
  EXPECT_ERROR(test::validateText(shader(globals, "%a = OpShiftLeftLogical %int %float_1 %int_1")),
               "the shifted value must be an integer");
  EXPECT_ERROR(test::validateText(shader(globals, "%c = OpSelect %float %int_1 %float_1 "
                                                  "%float_1")),
               "OpSelect's condition must be a boolean");
  EXPECT_ERROR(test::validateText(shader(globals, "%c = OpSelect %float %true %float_1 %int_1")),
               "is not of the result type");
  EXPECT_ERROR(test::validateText(shader(globals, "%d = OpDot %float %v2 %float_1")),
               "OpDot's operands must be two vectors");
  EXPECT_ERROR(test::validateText(shader(globals, "%e = OpAny %bool %true")),
               "OpAny and OpAll take a vector of booleans");
  EXPECT_ERROR(test::validateText(shader(globals, "%f = OpIsNan %bool %int_1")),
               "the operand must be a floating-point scalar or vector");
  EXPECT_ERROR(test::validateText(shader(globals, "%g = OpVectorTimesScalar %v2float %v2 %int_1")),
               "the scalar must be the result's component type");
}

TEST(ValArithmetic, ConversionWidthsAndBitcastSizes) {
  const std::string globals = "%v2f = OpConstantNull %v2float";
  EXPECT_VALID(test::validateText(shader(globals, "%a = OpBitcast %int %float_1")));
  EXPECT_ERROR(test::validateText(shader(globals, "%a = OpBitcast %int %v2f")),
               "OpBitcast keeps the total size: the value has 64 bits, the result type 32");
  EXPECT_ERROR(test::validateText(shader(globals, "%a = OpFConvert %float %float_1")),
               "a conversion within integers or within floats changes the width");
  // A pointer is neither result nor operand of a numeric conversion (the dialect fuzz target
  // found an OpUConvert to a pointer type let through).
  EXPECT_ERROR(test::validateText(shader(globals, "%v = OpVariable %ptr_f_int Function\n"
                                                  "%a = OpUConvert %ptr_f_int %v")),
               "the result type must be an integer scalar or vector");
  EXPECT_ERROR(test::validateText(shader(globals, "%v = OpVariable %ptr_f_int Function\n"
                                                  "%a = OpSConvert %uint %v")),
               "must be an integer scalar or vector");
  // 3.32.11 OpBitcast: "Result Type must be an OpTypePointer, or a scalar or vector of numerical
  // type", an array is neither.
  EXPECT_ERROR(test::validateText(shader(globals + "\n%int_2 = OpConstant %int 2\n"
                                                   "%a2f = OpTypeArray %float %int_2",
                                         "%a = OpBitcast %a2f %v2f")),
               "the result type of OpBitcast must be a pointer or a numerical scalar or vector");
}

TEST(ValArithmetic, ClassesAndBitCountsGiveScalarsOrVectors) {
  // A pointer is no result of OpIsInf or OpBitCount, nor operand of OpIsNan (the dialect fuzz
  // target found an OpIsInf giving a pointer; spirv-val rejects it).
  const std::string v = "%v = OpVariable %ptr_f_float Function\n";
  EXPECT_VALID(test::validateText(shader("", "%a = OpIsInf %bool %float_1")));
  EXPECT_ERROR(test::validateText(shader("", v + "%a = OpIsInf %ptr_f_float %float_1")),
               "the result type must be a boolean scalar or vector");
  EXPECT_ERROR(test::validateText(shader("", v + "%a = OpIsNan %bool %v")),
               "the operand must be a floating-point scalar or vector");
  EXPECT_ERROR(test::validateText(shader("", v + "%a = OpBitCount %ptr_f_float %int_1")),
               "the result type must be an integer scalar or vector");
}

TEST(ValArithmetic, MatrixProducts) {
  const std::string globals = "%m4x2 = OpTypeMatrix %v2float 4\n"
                              "%m = OpConstantNull %m4x2\n"
                              "%v2 = OpConstantNull %v2float\n"
                              "%v4 = OpConstantNull %v4float";
  EXPECT_VALID(test::validateText(shader(globals, "%a = OpMatrixTimesVector %v2float %m %v4\n"
                                                  "%b = OpVectorTimesMatrix %v4float %v2 %m")));
  EXPECT_ERROR(test::validateText(shader(globals, "%a = OpMatrixTimesVector %v2float %m %v2")),
               "the vector has 2 components; the matrix needs 4");
  EXPECT_ERROR(test::validateText(shader(globals, "%a = OpMatrixTimesVector %v4float %m %v4")),
               "the result must have 2 components");
}

// The shapes of OpTranspose, OpOuterProduct and OpMatrixTimesScalar (3.32.14), OpQuantizeToF16
// (3.32.11) and a scalar OpCompositeConstruct (3.32.12); spirv-val 2023.1 rejects each invalid
// case here too.
TEST(ValArithmetic, MatrixShapesAndQuantize) {
  const std::string globals = "%m4x2 = OpTypeMatrix %v2float 4\n"
                              "%m2x4 = OpTypeMatrix %v4float 2\n"
                              "%m = OpConstantNull %m4x2\n"
                              "%v2 = OpConstantNull %v2float\n"
                              "%v4 = OpConstantNull %v4float";
  // (%m is %22, %v2 %23 and %v4 %24 in messages.)
  auto check = [&](std::string_view body) { return test::validateText(shader(globals, body)); };
  EXPECT_VALID(check("%t = OpTranspose %m2x4 %m\n"
                     "%o = OpOuterProduct %m4x2 %v2 %v4\n"
                     "%s = OpMatrixTimesScalar %m4x2 %m %float_1\n"
                     "%q = OpQuantizeToF16 %v4float %v4"));
  EXPECT_ERROR(check("%t = OpTranspose %m4x2 %m"),
               "OpTranspose: Matrix %22 has 4 columns of 2; the result must have 2 columns of "
               "4, not 4 of 2");
  EXPECT_ERROR(check("%t = OpTranspose %v4float %m"),
               "OpTranspose: the result type %v4float must be a matrix");
  EXPECT_ERROR(check("%t = OpTranspose %m2x4 %v4"), "OpTranspose: Matrix %24 must be a matrix");
  EXPECT_ERROR(check("%o = OpOuterProduct %m4x2 %v4 %v4"),
               "OpOuterProduct: Vector 1 %24 must be of the result's column type %v2float");
  EXPECT_ERROR(check("%o = OpOuterProduct %m4x2 %v2 %v2"),
               "OpOuterProduct: Vector 2 %23 must have as many components as the result has "
               "columns (4)");
  EXPECT_ERROR(check("%o = OpOuterProduct %v4float %v2 %v4"),
               "OpOuterProduct: the result type %v4float must be a matrix of floats");
  EXPECT_ERROR(check("%s = OpMatrixTimesScalar %v4float %v4 %float_1"),
               "the result type %v4float of OpMatrixTimesScalar must be a matrix of floats");
  EXPECT_ERROR(check("%x = OpCompositeConstruct %float %float_1"),
               "OpCompositeConstruct: the result type %float must be a composite type (a vector, "
               "matrix, array or struct)");
  EXPECT_ERROR(check("%q = OpQuantizeToF16 %float %int_1"),
               "OpQuantizeToF16: Value %int_1 must have the result type %float");
  EXPECT_ERROR(check("%q = OpQuantizeToF16 %int %int_1"),
               "OpQuantizeToF16: the result type %int must be a 32-bit float scalar or vector");
}

TEST(ValComposite, ExtractAndInsertIndexes) {
  const std::string globals = "%vec = OpConstantComposite %v2float %float_1 %float_1";
  EXPECT_VALID(test::validateText(shader(globals, "%x = OpCompositeExtract %float %vec 1\n"
                                                  "%y = OpCompositeInsert %v2float %x %vec 0")));
  EXPECT_ERROR(test::validateText(shader(globals, "%x = OpCompositeExtract %float %vec 2")),
               "index 2 is out of bounds: vector %v2float has 2 elements");
  EXPECT_ERROR(test::validateText(shader(globals, "%x = OpCompositeExtract %int %vec 0")),
               "is not the selected element's %float");
  EXPECT_ERROR(test::validateText(shader(globals, "%y = OpCompositeInsert %v2float %int_1 %vec 0")),
               "the object's type %int is not the selected element's %float");
}

TEST(ValComposite, VectorShuffle) {
  const std::string globals = "%vec = OpConstantComposite %v2float %float_1 %float_1";
  EXPECT_VALID(test::validateText(
      shader(globals, "%x = OpVectorShuffle %v4float %vec %vec 0 1 2 0xFFFFFFFF")));
  EXPECT_ERROR(
      test::validateText(shader(globals, "%x = OpVectorShuffle %v4float %vec %vec 0 1 2 4")),
      "component 4 is out of bounds");
  EXPECT_ERROR(test::validateText(shader(globals, "%x = OpVectorShuffle %v4float %vec %vec 0 1 2")),
               "the result has 4 components but 3 are selected");
}

TEST(ValComposite, Construct) {
  EXPECT_VALID(test::validateText(shader("", "%x = OpCompositeConstruct %v4float %float_1 "
                                             "%float_1 %float_1 %float_1")));
  EXPECT_ERROR(test::validateText(shader("", "%x = OpCompositeConstruct %v4float %float_1")),
               "OpCompositeConstruct of a vector takes at least two constituents");
  EXPECT_ERROR(test::validateText(shader("", "%x = OpCompositeConstruct %S %float_1 %float_1")),
               "constituent %float_1 has type %float, the result's element type is %v4float");
}

TEST(ValArithmetic, OperandTypes) {
  EXPECT_VALID(test::validateText(shader("", "%a = OpFAdd %float %float_1 %float_1\n"
                                             "%b = OpIAdd %uint %int_1 %int_1\n"
                                             "%c = OpSLessThan %bool %int_1 %int_0")));
  EXPECT_ERROR(test::validateText(shader("", "%a = OpFAdd %float %float_1 %int_1")),
               "operand %int_1 has type %int, not the result type %float");
  EXPECT_ERROR(test::validateText(shader("", "%a = OpIAdd %int %int_1 %float_1")),
               "must be an integer scalar or vector");
  EXPECT_ERROR(test::validateText(shader("", "%a = OpFOrdLessThan %bool %int_1 %int_0")),
               "must be a floating-point scalar or vector");
  // A pointer is no integer (the dialect fuzz target found the validator letting one through).
  EXPECT_ERROR(test::validateText(shader("", "%v = OpVariable %ptr_f_int Function\n"
                                             "%a = OpUGreaterThanEqual %bool %v %int_1")),
               "must be an integer scalar or vector with as many components as the result");
  // Result types that are no scalar or vector at all (found by fuzzing the same way).
  EXPECT_ERROR(test::validateText(shader("", "%a = OpULessThanEqual %ptr_f_int %int_1 %int_0")),
               "the result type must be a boolean scalar or vector");
  EXPECT_ERROR(test::validateText(shader("", "%a = OpIAdd %ptr_f_int %int_1 %int_0")),
               "the result type must be an integer scalar or vector");
  // Integer comparisons mix signedness, not widths (the dialect fuzz target found this).
  EXPECT_ERROR(test::validateText(shader("%short = OpTypeInt 16 1\n%short_1 = OpConstant %short 1",
                                         "%a = OpIEqual %bool %int_1 %short_1")),
               "must have the same component width");
  EXPECT_VALID(test::validateText(
      shader("%uint_0 = OpConstant %uint 0", "%a = OpIEqual %bool %int_1 %uint_0")));
  // Carries, borrows and extended products: a struct of two members of the operands' type.
  EXPECT_VALID(test::validateText(shader("%U2 = OpTypeStruct %uint %uint\n"
                                         "%I2 = OpTypeStruct %int %int\n"
                                         "%uint_3 = OpConstant %uint 3\n",
                                         "%a = OpIAddCarry %U2 %uint_3 %uint_3\n"
                                         "%b = OpSMulExtended %I2 %int_1 %int_0")));
  EXPECT_ERROR(test::validateText(shader("", "%a = OpISubBorrow %bool %int_1 %int_0")),
               "the result type must be a struct of two members of one type, an unsigned");
  EXPECT_ERROR(test::validateText(shader("%U2 = OpTypeStruct %uint %uint\n",
                                         "%a = OpUMulExtended %U2 %int_1 %int_0")),
               "has type %int, not the type of the result's members %uint");
  // Dynamic vector access: a vector, its component type, a scalar integer index.
  EXPECT_VALID(test::validateText(
      shader("", "%v = OpCompositeConstruct %v4float %float_1 %float_1 %float_1 %float_1\n"
                 "%e = OpVectorExtractDynamic %float %v %int_1\n"
                 "%w = OpVectorInsertDynamic %v4float %v %e %int_0")));
  EXPECT_ERROR(test::validateText(shader("", "%e = OpVectorExtractDynamic %int %int_1 %int_1")),
               "the vector of OpVectorExtractDynamic must be of a vector type");
  EXPECT_ERROR(test::validateText(
                   shader("", "%v = OpCompositeConstruct %v4float %float_1 %float_1 %float_1 "
                              "%float_1\n%w = OpVectorInsertDynamic %v4float %v %int_1 %int_0")),
               "the component must have the vector's component type");
  EXPECT_ERROR(test::validateText(shader("", "%a = OpConvertFToS %int %int_1")),
               "must be a floating-point scalar or vector");
}

TEST(ValArithmetic, CopyLogicalCopiesAggregatesOfTheSameShape) {
  // 3.32.12; the dialect fuzz target found a scalar operand let through.
  const std::string globals = "%S1 = OpTypeStruct %float\n%S2 = OpTypeStruct %float\n"
                              "%c1 = OpConstantComposite %S1 %float_1";
  EXPECT_VALID(test::validateText(shader(globals, "%a = OpCopyLogical %S2 %c1")));
  EXPECT_ERROR(test::validateText(shader(globals, "%a = OpCopyLogical %S2 %float_1")),
               "OpCopyLogical copies an array or struct into another of the same shape");
  // The result type must not be the operand's (a copy to the same type is OpCopyObject).
  EXPECT_ERROR(test::validateText(shader(globals, "%a = OpCopyLogical %S1 %c1")),
               "OpCopyLogical's result type must not be its operand's type");
  EXPECT_VALID(test::validateText(shader(globals, "%a = OpCopyObject %S1 %c1")));
}

TEST(ValMemory, ArrayLengthNamesTheLastMemberOfABlock) {
  // OpArrayLength (3.32.8): a 32-bit unsigned result, a pointer to a struct ending in a runtime
  // array, and that last member's number (the dialect fuzz target found 8192 let through).
  const std::string valid = R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %sb
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %rt ArrayStride 4
OpMemberDecorate %S2 0 Offset 0
OpMemberDecorate %S2 1 Offset 4
OpDecorate %S2 Block
OpDecorate %sb DescriptorSet 0
OpDecorate %sb Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%rt = OpTypeRuntimeArray %float
%S2 = OpTypeStruct %float %rt
%pS2 = OpTypePointer StorageBuffer %S2
%sb = OpVariable %pS2 StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
%n = OpArrayLength %uint %sb 1
OpReturn
OpFunctionEnd
)";
  EXPECT_VALID(test::validateText(valid));
  auto with = [&](std::string_view line) {
    return test::replaced(valid, "%n = OpArrayLength %uint %sb 1", line);
  };
  EXPECT_ERROR(test::validateText(with("%n = OpArrayLength %uint %sb 0")),
               "the array member 0 must be the last member (1)");
  EXPECT_ERROR(test::validateText(with("%n = OpArrayLength %int %sb 1")),
               "the result type must be a 32-bit unsigned integer");
}

} // namespace
} // namespace spire::val
