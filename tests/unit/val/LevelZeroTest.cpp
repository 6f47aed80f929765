// The Level Zero environment: one test per requirement of ../shared/docs/notes/levelzero.md that
// a module can be checked for, each with a module the guide allows and one it forbids.
#include "ValTestUtil.h"

#include "spire/grammar/Grammar.h"

namespace spire::val {
namespace {

// A kernel `k(global uint *p)` that stores 0 through p; $CAPS, $TYPES, $PARAMS and $BODY are
// replaced to make the variants.
constexpr std::string_view kKernel = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
$CAPS
%ocl = OpExtInstImport "OpenCL.std"
OpMemoryModel $ADDRESSING OpenCL
OpEntryPoint $MODEL %k "k"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_5 = OpConstant %uint 5
%ptr = OpTypePointer CrossWorkgroup %uint
$TYPES
%fn = OpTypeFunction %void %ptr $PARAMTYPES
%k = OpFunction %void None %fn
%p = OpFunctionParameter %ptr
$PARAMS
%entry = OpLabel
OpStore %p %uint_0
$BODY
OpReturn
OpFunctionEnd
)";

struct Variant {
  std::string caps, types, paramTypes, params, body;
  std::string addressing = "Physical64", model = "Kernel";
};

std::string kernel(const Variant &v) {
  std::string text(kKernel);
  auto replace = [&](std::string_view key, const std::string &value) {
    for (size_t at; (at = text.find(key)) != std::string::npos;)
      text.replace(at, key.size(), value);
  };
  replace("$CAPS", v.caps);
  replace("$TYPES", v.types);
  replace("$PARAMTYPES", v.paramTypes);
  replace("$PARAMS", v.params);
  replace("$BODY", v.body);
  replace("$ADDRESSING", v.addressing);
  replace("$MODEL", v.model);
  return text;
}

Report lz(const Variant &v, Options options = {}, uint32_t version = 0) {
  return test::validateText(kernel(v), "level-zero", options, version);
}

Options strict() {
  Options o;
  o.strict = true;
  return o;
}

// A driver whose only optional extension is the float atomics one.
Options onlyFloatAtomics() {
  Options o;
  o.device.extensions = {"ZE_extension_float_atomics"};
  return o;
}

bool hasRule(const Report &r, std::string_view rule) {
  for (const Problem &p : r.problems)
    if (p.severity == Severity::Error && p.rule == rule)
      return true;
  return false;
}

#define EXPECT_RULE(report, rule)                                                                  \
  EXPECT_TRUE(hasRule((report), (rule))) << "expected an error under " << (rule) << ", got:\n"     \
                                         << test::describe(report)

TEST(LevelZero, PlainKernelIsValidInBothProfiles) {
  EXPECT_VALID(lz({}));
  EXPECT_VALID(lz({}, strict()));
}

TEST(LevelZero, A3ModuleNewerThanTheDevice) {
  Options o;
  o.device.spirvVersion = grammar::makeVersion(1, 1);
  EXPECT_RULE(lz({}, o, grammar::makeVersion(1, 2)), "LZ-A3");
  EXPECT_VALID(lz({}, o, grammar::makeVersion(1, 1)));
}

TEST(LevelZero, B1ExtendedInstructionSets) {
  Variant v;
  v.types = "%glsl = OpExtInstImport \"GLSL.std.450\"";
  // The import must come before the memory model: put it with the capabilities instead.
  v.types.clear();
  v.caps = "%glsl = OpExtInstImport \"GLSL.std.450\"";
  EXPECT_RULE(lz(v, strict()), "LZ-B1");
  EXPECT_VALID(lz(v)); // relaxed: a warning
  Variant debug;
  debug.caps = "%dbg = OpExtInstImport \"OpenCL.DebugInfo.100\"";
  EXPECT_VALID(lz(debug));
  EXPECT_RULE(lz(debug, strict()), "LZ-B1");
}

TEST(LevelZero, D3IntegerWidthsAndI3Signedness) {
  Variant v;
  v.caps = "OpCapability Int8\nOpCapability Int16";
  v.types = "%uchar = OpTypeInt 8 0\n%ushort = OpTypeInt 16 0";
  EXPECT_VALID(lz(v));
  Variant signedInt;
  signedInt.types = "%int = OpTypeInt 32 1";
  EXPECT_FALSE(lz(signedInt).valid());
}

TEST(LevelZero, D4FloatWidthsFollowTheDevice) {
  Variant v;
  v.caps = "OpCapability Float64";
  v.types = "%double = OpTypeFloat 64";
  EXPECT_VALID(lz(v));
  Options noFp64;
  noFp64.device.fp64 = false;
  EXPECT_RULE(lz(v, noFp64), "LZ-H1");
  Variant half;
  half.caps = "OpCapability Float16";
  half.types = "%half = OpTypeFloat 16";
  Options noFp16;
  noFp16.device.fp16 = false;
  EXPECT_VALID(lz(half));
  EXPECT_RULE(lz(half, noFp16), "LZ-H1");
}

TEST(LevelZero, D5VectorSizes) {
  Variant v;
  v.caps = "OpCapability Vector16";
  v.types = "%v8uint = OpTypeVector %uint 8\n%v16uint = OpTypeVector %uint 16\n"
            "%v3uint = OpTypeVector %uint 3";
  EXPECT_VALID(lz(v));
}

TEST(LevelZero, D8OpaqueTypesOnlyWhenRelaxed) {
  Variant v;
  v.types = "%opaque = OpTypeOpaque \"thing\"";
  EXPECT_VALID(lz(v));
  EXPECT_RULE(lz(v, strict()), "LZ-D8");
}

TEST(LevelZero, E1ImageCombinationsAndI4ImageRules) {
  Variant ok;
  ok.caps = "OpCapability ImageBasic";
  ok.types = "%img2d = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly\n"
             "%img2dda = OpTypeImage %void 2D 1 1 0 0 Unknown ReadOnly\n"
             "%img3d = OpTypeImage %void 3D 0 0 0 0 Unknown WriteOnly\n"
             "%sampler = OpTypeSampler";
  EXPECT_VALID(lz(ok));
  Variant depth3d = ok;
  depth3d.types = "%img = OpTypeImage %void 3D 1 0 0 0 Unknown ReadOnly";
  EXPECT_RULE(lz(depth3d), "LZ-E1");
  Variant sampled = ok;
  sampled.types = "%img = OpTypeImage %void 2D 0 0 0 1 Unknown ReadOnly";
  EXPECT_RULE(lz(sampled), "LZ-I4");
  Variant noAccess = ok;
  noAccess.types = "%img = OpTypeImage %void 2D 0 0 0 0 Unknown";
  EXPECT_RULE(lz(noAccess), "LZ-I4");
  Variant format = ok;
  format.types = "%img = OpTypeImage %void 2D 0 0 0 0 Rgba8 ReadOnly";
  // A known format needs Shader (2.16.1 rejects it without); Level Zero rejects it even then.
  EXPECT_FALSE(lz(format).valid());
  format.caps += "\nOpCapability Shader";
  EXPECT_RULE(lz(format), "LZ-I4");
  Options noImages;
  noImages.device.images = false;
  EXPECT_RULE(lz(ok, noImages), "LZ-H1");
}

TEST(LevelZero, F2KernelExecutionModel) {
  Variant v;
  v.caps = "OpCapability Shader";
  v.model = "GLCompute";
  EXPECT_RULE(lz(v), "LZ-F2");
}

TEST(LevelZero, F4KernelArgumentTypes) {
  Variant boolArg;
  boolArg.types = "%bool = OpTypeBool";
  boolArg.paramTypes = "%bool";
  boolArg.params = "%b = OpFunctionParameter %bool";
  EXPECT_RULE(lz(boolArg), "LZ-F4");
  Variant localPtr;
  localPtr.types =
      "%lptr = OpTypePointer Workgroup %uint\n%cptr = OpTypePointer UniformConstant %uint";
  localPtr.paramTypes = "%lptr %cptr %ulong";
  localPtr.params = "%l = OpFunctionParameter %lptr\n%c = OpFunctionParameter %cptr\n"
                    "%n = OpFunctionParameter %ulong";
  EXPECT_VALID(lz(localPtr));
  EXPECT_VALID(lz(localPtr, strict()));
}

TEST(LevelZero, F6DoubleArgumentsOnlyWhenRelaxed) {
  Variant v;
  v.caps = "OpCapability Float64";
  v.types = "%double = OpTypeFloat 64";
  v.paramTypes = "%double";
  v.params = "%d = OpFunctionParameter %double";
  EXPECT_VALID(lz(v));
  EXPECT_RULE(lz(v, strict()), "LZ-F4");
}

TEST(LevelZero, F7ArraysInByValueStructsOnlyWhenRelaxed) {
  Variant v;
  v.types = "%arr = OpTypeArray %uint %uint_2\n%S = OpTypeStruct %uint %arr";
  v.paramTypes = "%S";
  v.params = "%s = OpFunctionParameter %S";
  EXPECT_VALID(lz(v));
  EXPECT_RULE(lz(v, strict()), "LZ-F4");
}

TEST(LevelZero, F8FunctionPointerArgumentsOnlyByValAndRelaxed) {
  Variant byval;
  byval.caps = "OpDecorate %s FuncParamAttr ByVal";
  byval.types = "%S = OpTypeStruct %uint\n%fptr = OpTypePointer Function %S";
  byval.paramTypes = "%fptr";
  byval.params = "%s = OpFunctionParameter %fptr";
  // The decoration belongs after the memory model; the template puts $CAPS before it, so move
  // it to its section.
  std::string text = kernel(byval);
  const std::string deco = "OpDecorate %s FuncParamAttr ByVal\n";
  text.erase(text.find(deco), deco.size());
  text.insert(text.find("%void = OpTypeVoid"), deco);
  EXPECT_VALID(test::validateText(text, "level-zero"));
  EXPECT_RULE(test::validateText(text, "level-zero", strict()), "LZ-F4");
  text.erase(text.find(deco), deco.size());
  EXPECT_RULE(test::validateText(text, "level-zero"), "LZ-F4");
}

TEST(LevelZero, G1G2AddressingAndMemoryModel) {
  Variant v;
  v.addressing = "Physical32";
  EXPECT_RULE(lz(v), "LZ-G1");
  // The OpenCL environment allows Physical32.
  EXPECT_TRUE(test::validateText(kernel(v), "opencl2.2").valid() ||
              !hasRule(test::validateText(kernel(v), "opencl2.2"), "LZ-G1"));
}

TEST(LevelZero, H3UnlistedCapabilitiesOnlyWhenRelaxed) {
  Variant v;
  v.caps = "OpCapability Pipes";
  EXPECT_VALID(lz(v));
  EXPECT_RULE(lz(v, strict()), "LZ-H3");
}

TEST(LevelZero, H1Int64AtomicsFollowTheDevice) {
  Variant v;
  v.caps = "OpCapability Int64Atomics";
  EXPECT_VALID(lz(v));
  Options o;
  o.device.int64Atomics = false;
  EXPECT_RULE(lz(v, o), "LZ-H1");
}

TEST(LevelZero, I5I6ImageOperands) {
  Variant v;
  v.caps = "OpCapability ImageBasic";
  v.types = "%img = OpTypeImage %void 2D 0 0 0 0 Unknown WriteOnly\n"
            "%rimg = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly\n"
            "%v2uint = OpTypeVector %uint 2\n%v4uint = OpTypeVector %uint 4\n"
            "%coord = OpConstantComposite %v2uint %uint_0 %uint_0\n"
            "%texel = OpConstantComposite %v4uint %uint_0 %uint_0 %uint_0 %uint_0";
  v.paramTypes = "%img %rimg";
  v.params = "%i = OpFunctionParameter %img\n%r = OpFunctionParameter %rimg";
  v.body = "OpImageWrite %i %coord %texel\n%x = OpImageRead %v4uint %r %coord";
  EXPECT_VALID(lz(v));
  Variant lod = v;
  lod.body = "OpImageWrite %i %coord %texel Lod %uint_0";
  EXPECT_RULE(lz(lod), "LZ-I5");
  Variant offset = v;
  offset.body = "%x = OpImageRead %v4uint %r %coord ConstOffset %coord";
  EXPECT_RULE(lz(offset), "LZ-I6");
}

TEST(LevelZero, I7AtomicTypesAndStorage) {
  Variant v;
  v.body = "%a = OpAtomicIAdd %uint %p %uint_1 %uint_0 %uint_1";
  EXPECT_VALID(lz(v));
  Variant wide;
  wide.caps = "OpCapability Int64Atomics";
  wide.types = "%lptr = OpTypePointer CrossWorkgroup %ulong\n%ulong_1 = OpConstant %ulong 1";
  wide.paramTypes = "%lptr";
  wide.params = "%q = OpFunctionParameter %lptr";
  wide.body = "%a = OpAtomicIAdd %ulong %q %uint_1 %uint_0 %ulong_1";
  EXPECT_VALID(lz(wide));
  Options o;
  o.device.int64Atomics = false;
  EXPECT_RULE(lz(wide, o), "LZ-I7");
  Variant narrow;
  narrow.caps = "OpCapability Int16";
  narrow.types = "%ushort = OpTypeInt 16 0\n%sptr = OpTypePointer CrossWorkgroup %ushort\n"
                 "%ushort_1 = OpConstant %ushort 1";
  narrow.paramTypes = "%sptr";
  narrow.params = "%q = OpFunctionParameter %sptr";
  narrow.body = "%a = OpAtomicIAdd %ushort %q %uint_1 %uint_0 %ushort_1";
  EXPECT_RULE(lz(narrow), "LZ-I7");
  Variant fload;
  fload.types = "%float = OpTypeFloat 32\n%fptr = OpTypePointer CrossWorkgroup %float";
  fload.paramTypes = "%fptr";
  fload.params = "%q = OpFunctionParameter %fptr";
  fload.body = "%a = OpAtomicLoad %float %q %uint_1 %uint_0";
  EXPECT_VALID(lz(fload));                   // N10, relaxed: allowed with the load/store flags
  EXPECT_RULE(lz(fload, strict()), "LZ-I7"); // literal: integers only
}

TEST(LevelZero, I8NoRecursion) {
  std::string text = kernel({});
  const std::string helpers = R"(
%hfn = OpTypeFunction %void
%f = OpFunction %void None %hfn
%fl = OpLabel
%c1 = OpFunctionCall %void %g
OpReturn
OpFunctionEnd
%g = OpFunction %void None %hfn
%gl = OpLabel
%c2 = OpFunctionCall %void %f
OpReturn
OpFunctionEnd
)";
  // Functions after the kernel; the kernel calls %f.
  text.replace(text.find("OpStore %p %uint_0"), 0, "%c0 = OpFunctionCall %void %f\n");
  text.replace(text.find("%fn = OpTypeFunction"), 0, "%hfn = OpTypeFunction %void\n");
  std::string body = helpers.substr(helpers.find("%f = OpFunction"));
  text += body;
  EXPECT_RULE(test::validateText(text, "level-zero"), "LZ-I8");
}

TEST(LevelZero, I10I11Scopes) {
  Variant barrier;
  barrier.body = "OpControlBarrier %uint_2 %uint_2 %uint_0";
  EXPECT_VALID(lz(barrier));
  Variant device;
  device.body = "OpControlBarrier %uint_1 %uint_2 %uint_0";
  EXPECT_RULE(lz(device), "LZ-I10");
  Variant queue;
  queue.body = "OpMemoryBarrier %uint_5 %uint_0";
  EXPECT_RULE(lz(queue), "LZ-I11");
}

TEST(LevelZero, I9IrreducibleControlFlowOnlyWhenStrict) {
  std::string text = kernel({});
  const std::string branchy = R"(
%bool = OpTypeBool
%true = OpConstantTrue %bool
)";
  text.replace(text.find("%fn = OpTypeFunction"), 0, branchy);
  text.replace(text.find("OpReturn\nOpFunctionEnd"), std::string("OpReturn").size(),
               R"(OpBranchConditional %true %a %b
%a = OpLabel
OpBranchConditional %true %b %end
%b = OpLabel
OpBranchConditional %true %a %end
%end = OpLabel
OpReturn)");
  EXPECT_VALID(test::validateText(text, "level-zero"));
  EXPECT_RULE(test::validateText(text, "level-zero", strict()), "LZ-I9");
}

TEST(LevelZero, J2FloatAtomicExtensionsFollowTheDriver) {
  Variant v;
  v.caps = "OpCapability AtomicFloat32AddEXT\nOpExtension \"SPV_EXT_shader_atomic_float_add\"";
  v.types = "%float = OpTypeFloat 32\n%fptr = OpTypePointer CrossWorkgroup %float\n"
            "%float_1 = OpConstant %float 1";
  v.paramTypes = "%fptr";
  v.params = "%q = OpFunctionParameter %fptr";
  v.body = "%a = OpAtomicFAddEXT %float %q %uint_1 %uint_0 %float_1";
  EXPECT_VALID(lz(v));
  Options noExt;
  noExt.device.extensions = {"ZE_extension_subgroups"};
  EXPECT_RULE(lz(v, noExt), "LZ-J2");
  Options noAdd;
  noAdd.device.fp32AtomicAdd = false;
  EXPECT_RULE(lz(v, noAdd), "LZ-H1");
}

TEST(LevelZero, J3SubgroupOperations) {
  Variant v;
  v.caps = "OpCapability GroupNonUniformArithmetic\nOpCapability GroupNonUniformBallot";
  v.types = "%v4uint = OpTypeVector %uint 4\n%v2uint = OpTypeVector %uint 2\n%bool = OpTypeBool\n"
            "%true = OpConstantTrue %bool\n%vec = OpConstantComposite %v2uint %uint_0 %uint_1";
  v.body = "%s = OpGroupNonUniformIAdd %uint %uint_3 Reduce %uint_1\n"
           "%b = OpGroupNonUniformBallot %v4uint %uint_3 %true";
  const uint32_t v13 = grammar::makeVersion(1, 3);
  Options device13;
  device13.device.spirvVersion = v13;
  EXPECT_VALID(lz(v, device13, v13));
  Variant vector = v;
  vector.body = "%s = OpGroupNonUniformIAdd %v2uint %uint_3 Reduce %vec";
  EXPECT_RULE(lz(vector, device13, v13), "LZ-J3.6");
  Variant ballot = v;
  ballot.body = "%b = OpGroupNonUniformBallot %v2uint %uint_3 %true";
  EXPECT_FALSE(lz(ballot, device13, v13).valid());
  Options oldApi = device13;
  oldApi.device.apiVersion = 0x00010001;
  EXPECT_RULE(lz(v, oldApi, v13), "LZ-H1");
  Options strictDevice = device13;
  strictDevice.strict = true;
  Variant workgroup = v;
  workgroup.body = "%s = OpGroupNonUniformIAdd %uint %uint_2 Reduce %uint_1";
  EXPECT_RULE(lz(workgroup, strictDevice, v13), "LZ-J3.11");
}

TEST(LevelZero, J4LinkOnceOdrFollowsTheDriver) {
  Variant v;
  v.caps = "OpCapability Linkage\nOpExtension \"SPV_KHR_linkonce_odr\"";
  EXPECT_VALID(lz(v));
  EXPECT_RULE(lz(v, onlyFloatAtomics()), "LZ-J4.1");
}

TEST(LevelZero, J1IntelSubgroupsAlwaysAccepted) {
  Variant v;
  v.caps = "OpCapability SubgroupShuffleINTEL\nOpExtension \"SPV_INTEL_subgroups\"";
  v.body = "%s = OpSubgroupShuffleINTEL %uint %uint_1 %uint_0";
  EXPECT_VALID(lz(v, strict()));
  Variant bad = v;
  bad.types =
      "%v3uint = OpTypeVector %uint 3\n%c3 = OpConstantComposite %v3uint %uint_0 %uint_0 %uint_0";
  bad.body = "%s = OpSubgroupShuffleINTEL %v3uint %c3 %uint_0";
  EXPECT_RULE(lz(bad), "LZ-J1.3");
}

TEST(LevelZero, K1SubgroupMaskBuiltinsAreUint4) {
  Variant v;
  v.caps = "OpCapability GroupNonUniformBallot";
  v.types = "%v4uint = OpTypeVector %uint 4\n%in = OpTypePointer Input %v4uint\n"
            "%mask = OpVariable %in Input";
  std::string text = kernel(v);
  text.insert(text.find("%void = OpTypeVoid"), "OpDecorate %mask BuiltIn SubgroupEqMask\n");
  const uint32_t v13 = grammar::makeVersion(1, 3);
  Options device13;
  device13.device.spirvVersion = v13;
  EXPECT_VALID(test::validateText(text, "level-zero", device13, v13));
  std::string wrong = text;
  wrong.replace(wrong.find("%in = OpTypePointer Input %v4uint"),
                std::string("%in = OpTypePointer Input %v4uint").size(),
                "%in = OpTypePointer Input %uint");
  EXPECT_RULE(test::validateText(wrong, "level-zero", device13, v13), "LZ-K1");
}

// LZ-A1 / LZ-A2: host-endian words after the magic number; a byte-swapped module reads the same,
// a wrong magic number is no module.
TEST(LevelZero, A1A2WordsAndMagic) {
  AssembleOptions as;
  as.version = grammar::makeVersion(1, 2);
  Expected<std::vector<uint32_t>> words = assemble(kernel({}), as);
  ASSERT_TRUE(bool(words));
  auto bytes = [](const std::vector<uint32_t> &w, bool swap) {
    std::vector<uint8_t> out;
    for (uint32_t x : w)
      for (int k = 0; k < 4; ++k)
        out.push_back(uint8_t(x >> (swap ? 24 - 8 * k : 8 * k)));
    return out;
  };
  Options o;
  o.env = *parseEnvironment("level-zero");
  EXPECT_VALID(validateBinary(bytes(*words, false), o));
  EXPECT_VALID(validateBinary(bytes(*words, true), o));
  std::vector<uint32_t> bad = *words;
  bad[0] = 0x12345678;
  EXPECT_FALSE(validateBinary(bytes(bad, false), o).valid());
}

// LZ-A4, LZ-D1, LZ-D2, LZ-D6, LZ-B2: a SPIR-V 1.0 module with every always-supported capability,
// the void, bool, array, struct, function and pointer types, and any source language is accepted
// by the strict profile too.
TEST(LevelZero, A4D1D2D6B2AlwaysAccepted) {
  Variant v;
  v.caps = "OpCapability Float16Buffer\nOpCapability Int16\nOpCapability Int8\n"
           "OpCapability Linkage\nOpCapability Vector16\nOpCapability GenericPointer\n"
           "OpCapability Groups";
  v.types = "%bool = OpTypeBool\n%arr = OpTypeArray %uint %uint_2\n%st = OpTypeStruct %uint %arr\n"
            "%pst = OpTypePointer Function %st";
  v.body = "%local = OpVariable %pst Function";
  std::string text = kernel(v);
  text.insert(text.find("%void = OpTypeVoid"), "OpSource GLSL 450\n");
  text = test::replaced(text, "OpStore %p %uint_0\n%local = OpVariable %pst Function",
                        "%local = OpVariable %pst Function\nOpStore %p %uint_0");
  EXPECT_VALID(test::validateText(text, "level-zero", strict(), grammar::makeVersion(1, 0)));
}

// LZ-F3 (with LZ-F1, LZ-I1): a kernel's function returns void.
TEST(LevelZero, F3KernelsReturnVoid) {
  std::string text = kernel({});
  text = test::replaced(text, "%fn = OpTypeFunction %void %ptr", "%fn = OpTypeFunction %uint %ptr");
  text = test::replaced(text, "%k = OpFunction %void None %fn", "%k = OpFunction %uint None %fn");
  text = test::replaced(text, "OpReturn\n", "OpReturnValue %uint_0\n");
  EXPECT_RULE(test::validateText(text, "level-zero"), "LZ-F3");
}

// LZ-F5, LZ-F9, LZ-F10, LZ-E2: integer, vector, image and sampler kernel arguments.
TEST(LevelZero, F5F9F10E2ArgumentKinds) {
  Variant v;
  v.caps = "OpCapability ImageBasic";
  v.types = "%uchar_t = OpTypeInt 8 0\n%v4uint = OpTypeVector %uint 4\n"
            "%img = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly\n%smp = OpTypeSampler";
  v.caps += "\nOpCapability Int8";
  v.paramTypes = "%uchar_t %v4uint %img %smp";
  v.params = "%a = OpFunctionParameter %uchar_t\n%b = OpFunctionParameter %v4uint\n"
             "%c = OpFunctionParameter %img\n%d = OpFunctionParameter %smp";
  EXPECT_VALID(lz(v, strict()));
  Options noImages = strict();
  noImages.device.images = false;
  EXPECT_FALSE(lz(v, noImages).valid()); // LZ-E3: images need a device that supports them
}

// LZ-G3: the size_t built-ins are 64-bit under Physical64 (a warning: the note's recommendation).
TEST(LevelZero, G3SizeTBuiltInsAre64Bit) {
  Variant v;
  v.types = "%v3ulong = OpTypeVector %ulong 3\n%in = OpTypePointer Input %v3ulong\n"
            "%gid = OpVariable %in Input";
  std::string text = kernel(v);
  text.insert(text.find("%void = OpTypeVoid"),
              "OpDecorate %gid BuiltIn GlobalInvocationId\nOpDecorate %gid Constant\n");
  const Report wide = test::validateText(text, "level-zero");
  EXPECT_VALID(wide);
  EXPECT_FALSE(test::hasWarning(wide, "is a size_t"));
  std::string narrow =
      test::replaced(text, "%v3ulong = OpTypeVector %ulong 3", "%v3ulong = OpTypeVector %uint 3");
  EXPECT_TRUE(test::hasWarning(test::validateText(narrow, "level-zero"),
                               "the GlobalInvocationId built-in is a size_t, 64-bit"));
}

// LZ-J1.2, LZ-J1.4 to LZ-J1.7: the Intel subgroup block IO.
TEST(LevelZero, J1BlockIO) {
  Variant v;
  v.caps = "OpCapability SubgroupBufferBlockIOINTEL\nOpExtension \"SPV_INTEL_subgroups\"";
  v.body = "%r = OpSubgroupBlockReadINTEL %uint %p\nOpSubgroupBlockWriteINTEL %p %r";
  EXPECT_VALID(lz(v, strict()));
  Variant wide = v;
  wide.body = "%r = OpSubgroupBlockReadINTEL %ulong %p";
  EXPECT_RULE(lz(wide), "LZ-J1.4");
  Variant local = v;
  local.types = "%wptr = OpTypePointer Workgroup %uint\n%w = OpVariable %wptr Workgroup";
  local.body = "%r = OpSubgroupBlockReadINTEL %uint %w";
  EXPECT_RULE(lz(local), "LZ-J1.5");
  Variant image = v;
  image.caps = "OpCapability SubgroupImageBlockIOINTEL\nOpCapability ImageBasic\n"
               "OpExtension \"SPV_INTEL_subgroups\"";
  image.types = "%img = OpTypeImage %void 3D 0 0 0 0 Unknown ReadOnly\n"
                "%v2uint = OpTypeVector %uint 2\n%xy = OpConstantComposite %v2uint %uint_0 %uint_0";
  image.paramTypes = "%img";
  image.params = "%im = OpFunctionParameter %img";
  image.body = "%r = OpSubgroupImageBlockReadINTEL %uint %im %xy";
  EXPECT_RULE(lz(image), "LZ-J1.6");
  Variant coordinate = image;
  coordinate.types = test::replaced(image.types, "3D", "2D");
  coordinate.body = "%r = OpSubgroupImageBlockReadINTEL %uint %im %uint_0";
  EXPECT_RULE(lz(coordinate), "LZ-J1.7");
}

// LZ-J3.10: the non-uniform group capabilities are SPIR-V 1.3's; LZ-J4.2: LinkOnceODR needs its
// extension.
TEST(LevelZero, J3J4VersionAndExtensionGates) {
  Variant v;
  v.caps = "OpCapability GroupNonUniform";
  AssembleOptions as;
  as.version = grammar::makeVersion(1, 3);
  Expected<std::vector<uint32_t>> words = assemble(kernel(v), as);
  ASSERT_TRUE(bool(words));
  std::vector<uint32_t> w = std::move(words).value();
  w[1] = grammar::makeVersion(1, 2); // the module claims SPIR-V 1.2
  Expected<Module> m = Module::fromWords(std::move(w));
  ASSERT_TRUE(bool(m));
  Options o;
  o.env = *parseEnvironment("level-zero");
  EXPECT_FALSE(validate(*m, o).valid());
  Variant link;
  link.caps = "OpCapability Linkage";
  std::string text = kernel(link);
  text.insert(text.find("%void = OpTypeVoid"),
              "OpDecorate %k LinkageAttributes \"k\" LinkOnceODR\n");
  EXPECT_FALSE(test::validateText(text, "level-zero").valid());
}

// LZ-J5.1 to LZ-J5.3: the bfloat16 conversions (with a grammar that has them: SPIRV-Headers from
// 2022 on, e.g. shared/grammar/spirv-headers-1.6r6).
TEST(LevelZero, J5Bfloat16Conversions) {
  if (grammar::findInstruction("OpConvertFToBF16INTEL") == nullptr)
    GTEST_SKIP() << "this build's grammar has no SPV_INTEL_bfloat16_conversion";
  Variant v;
  v.caps = "OpCapability Int16\nOpCapability BFloat16ConversionINTEL\n"
           "OpExtension \"SPV_INTEL_bfloat16_conversion\"";
  v.types = "%float = OpTypeFloat 32\n%ushort = OpTypeInt 16 0\n%f1 = OpConstant %float 1\n"
            "%v2ushort = OpTypeVector %ushort 2";
  v.body = "%b = OpConvertFToBF16INTEL %ushort %f1\n%f = OpConvertBF16ToFINTEL %float %b";
  EXPECT_VALID(lz(v, strict()));
  Variant count = v;
  count.body = "%b = OpConvertFToBF16INTEL %v2ushort %f1";
  EXPECT_RULE(lz(count), "LZ-J5.3");
  EXPECT_RULE(lz(v, onlyFloatAtomics()), "LZ-J5.1");
}

// LZ-J6: every environment accepts SPV_INTEL_global_variable_host_access and its capability, with
// which globals are named for zeModuleGetGlobalPointer (grammars that know the extension only).
TEST(LevelZero, J6GlobalVariableHostAccess) {
  if (!grammar::findEnumerant(grammar::OperandKind::Capability, 6187))
    GTEST_SKIP() << "this build's grammar has no SPV_INTEL_global_variable_host_access";
  Variant v;
  v.caps = "OpCapability GlobalVariableHostAccessINTEL\n"
           "OpExtension \"SPV_INTEL_global_variable_host_access\"";
  v.types = "%g = OpVariable %ptr CrossWorkgroup";
  std::string text = kernel(v);
  text.insert(text.find("%void = OpTypeVoid"),
              "OpDecorate %g HostAccessINTEL ReadWriteINTEL \"g\"\n");
  EXPECT_VALID(test::validateText(text, "level-zero", strict()));
  Variant other = v;
  other.caps = "OpCapability Pipes";
  EXPECT_RULE(lz(other, strict()), "LZ-H3");
}

// LZ-H2: capabilities are checked with the ones they implicitly declare: ImageReadWrite brings in
// ImageBasic, which a device without images does not support.
TEST(LevelZero, H2ImpliedCapabilitiesAreChecked) {
  Variant v;
  v.caps = "OpCapability ImageReadWrite";
  EXPECT_VALID(lz(v));
  Options o;
  o.device.images = false;
  Report r = lz(v, o);
  EXPECT_RULE(r, "LZ-H1");
  EXPECT_ERROR(r, "capability ImageBasic needs");
}

// LZ-K2: an imported built-in variable (as llvm-spirv emits GlobalInvocationId) is no unresolved
// import the validator rejects.
TEST(LevelZero, K2ImportedBuiltInsAreAccepted) {
  Variant v;
  v.caps = "OpCapability Linkage";
  v.types = "%v3ulong = OpTypeVector %ulong 3\n%in = OpTypePointer Input %v3ulong\n"
            "%gid = OpVariable %in Input";
  std::string text = kernel(v);
  text.insert(text.find("%void = OpTypeVoid"),
              "OpDecorate %gid BuiltIn GlobalInvocationId\nOpDecorate %gid Constant\n"
              "OpDecorate %gid LinkageAttributes \"__spirv_BuiltInGlobalInvocationId\" Import\n");
  EXPECT_VALID(test::validateText(text, "level-zero"));
}

} // namespace
} // namespace spire::val
