// The agreement sweep: every instruction that takes values (the core grammar's and those of
// GLSL.std.450 and OpenCL.std) built from a pool of values of many types, in a shader and in a
// kernel, and every operation OpSpecConstantOp may perform built from pools of constants, and the
// combinations spire val accepts found and explored. The unit test
// (AgreementSweepTest.cpp) holds each accepted combination to the structured IR's verifier (but
// for the rules of MLIR's stricter than SPIR-V that kStricterInMlir lists); the
// corpus suite holds it to spirv-val.
//
// Environment variables for a deeper look: SPIRE_SWEEP_BUDGET (accepted combinations explored
// from, default 1), SPIRE_SWEEP_ONLY (one instruction, "OpIAdd" or "GLSL.std.450.Modf"),
// SPIRE_SWEEP_UNCOVERED (list the instructions with no accepted combination), SPIRE_SWEEP_TRACE
// (the search's steps) and SPIRE_SWEEP_DUMP (a directory to write the disagreeing modules to).
#pragma once

#include "InstructionPool.h"

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <sstream>

namespace spire::val::sweep {

using grammar::OperandCategory;
using grammar::OperandKind;
using grammar::Quantifier;

// A shader (Logical GLSL450, with variable pointers) with one parameter of each type of the pool
// (%p_<type>), named constants and variables. The function is called by no entry point, so that
// no execution model decides what may be in it. INST is the instruction under test.
constexpr const char *kShaderPool = R"(
OpCapability Shader
OpCapability Int8
OpCapability Int16
OpCapability Int64
OpCapability Float16
OpCapability Float64
OpCapability Int64Atomics
OpCapability ImageQuery
OpCapability Sampled1D
OpCapability SampledBuffer
OpCapability ImageBuffer
OpCapability SampledCubeArray
OpCapability StorageImageReadWithoutFormat
OpCapability StorageImageWriteWithoutFormat
OpCapability MinLod
OpCapability SparseResidency
OpCapability ImageGatherExtended
OpCapability DerivativeControl
OpCapability InterpolationFunction
OpCapability Geometry
OpCapability GeometryStreams
OpCapability GroupNonUniform
OpCapability GroupNonUniformVote
OpCapability GroupNonUniformArithmetic
OpCapability GroupNonUniformBallot
OpCapability GroupNonUniformShuffle
OpCapability GroupNonUniformShuffleRelative
OpCapability GroupNonUniformClustered
OpCapability GroupNonUniformQuad
OpCapability DotProduct
OpCapability DotProductInput4x8Bit
OpCapability DotProductInput4x8BitPacked
OpCapability DotProductInputAll
OpCapability DemoteToHelperInvocation
OpCapability SubgroupBallotKHR
OpCapability SubgroupVoteKHR
OpCapability RayQueryKHR
OpCapability RayTracingKHR
OpCapability ShaderClockKHR
OpCapability FragmentShaderSampleInterlockEXT
OpCapability MeshShadingEXT
OpCapability AtomicFloat32AddEXT
OpCapability AtomicFloat32MinMaxEXT
OpCapability ImageFootprintNV
OpCapability SampleMaskPostDepthCoverage
OpCapability FragmentBarycentricKHR
OpCapability VariablePointers
OpExtension "SPV_KHR_shader_ballot"
OpExtension "SPV_KHR_subgroup_vote"
OpExtension "SPV_KHR_ray_query"
OpExtension "SPV_KHR_ray_tracing"
OpExtension "SPV_KHR_shader_clock"
OpExtension "SPV_EXT_fragment_shader_interlock"
OpExtension "SPV_EXT_mesh_shader"
OpExtension "SPV_EXT_shader_atomic_float_add"
OpExtension "SPV_EXT_shader_atomic_float_min_max"
OpExtension "SPV_NV_shader_image_footprint"
OpExtension "SPV_KHR_post_depth_coverage"
OpExtension "SPV_KHR_fragment_shader_barycentric"
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %c0 "c0"
OpName %c1 "c1"
OpName %c2 "c2"
OpName %c3 "c3"
OpName %c4 "c4"
OpName %c8 "c8"
OpName %c264 "c264"
OpName %ci1 "ci1"
OpName %cf1 "cf1"
OpName %ctrue "ctrue"
OpName %cu64 "cu64"
OpName %cv4f "cv4f"
OpName %vprivf32 "vprivf32"
OpName %vprivu32 "vprivu32"
OpName %vprivi32 "vprivi32"
OpName %vprivu64 "vprivu64"
OpName %vprivv4f32 "vprivv4f32"
OpName %vpriva2f32 "vpriva2f32"
OpName %vprivs "vprivs"
OpName %vwgu32 "vwgu32"
OpName %vwgf32 "vwgf32"
OpName %vrq "vrq"
OpName %vimg "vimg"
OpName %vfnf32 "vfnf32"
OpName %vfnu32 "vfnu32"
OpName %vfnv4f32 "vfnv4f32"
OpName %vimgs "vimgs"
OpName %vinf32 "vinf32"
OpName %vpayload "vpayload"
OpName %vcallable "vcallable"
OpName %vsb "vsb"
OpDecorate %blk Block
OpMemberDecorate %blk 0 Offset 0
OpDecorate %rtaf32 ArrayStride 4
OpDecorate %psbf32 ArrayStride 4
%void = OpTypeVoid
%bool = OpTypeBool
%u8 = OpTypeInt 8 0
%u16 = OpTypeInt 16 0
%i16 = OpTypeInt 16 1
%i32 = OpTypeInt 32 1
%u32 = OpTypeInt 32 0
%i64 = OpTypeInt 64 1
%u64 = OpTypeInt 64 0
%f16 = OpTypeFloat 16
%f32 = OpTypeFloat 32
%f64 = OpTypeFloat 64
%v2bool = OpTypeVector %bool 2
%v4bool = OpTypeVector %bool 4
%v4u8 = OpTypeVector %u8 4
%v2u16 = OpTypeVector %u16 2
%v2i32 = OpTypeVector %i32 2
%v2u32 = OpTypeVector %u32 2
%v3u32 = OpTypeVector %u32 3
%v4u32 = OpTypeVector %u32 4
%v4i32 = OpTypeVector %i32 4
%v2u64 = OpTypeVector %u64 2
%v2f16 = OpTypeVector %f16 2
%v2f32 = OpTypeVector %f32 2
%v3f32 = OpTypeVector %f32 3
%v4f32 = OpTypeVector %f32 4
%v2f64 = OpTypeVector %f64 2
%m2x2 = OpTypeMatrix %v2f32 2
%m3x2 = OpTypeMatrix %v2f32 3
%m2x3 = OpTypeMatrix %v3f32 2
%m3x3 = OpTypeMatrix %v3f32 3
%m4x3 = OpTypeMatrix %v3f32 4
%m2x2f64 = OpTypeMatrix %v2f64 2
%c0 = OpConstant %u32 0
%c1 = OpConstant %u32 1
%c2 = OpConstant %u32 2
%c3 = OpConstant %u32 3
%c4 = OpConstant %u32 4
%c8 = OpConstant %u32 8
%c264 = OpConstant %u32 264
%ci1 = OpConstant %i32 1
%cf1 = OpConstant %f32 1
%ctrue = OpConstantTrue %bool
%cu64 = OpConstant %u64 1
%cv4f = OpConstantComposite %v4f32 %cf1 %cf1 %cf1 %cf1
%a2f32 = OpTypeArray %f32 %c2
%a2u32 = OpTypeArray %u32 %c2
%s = OpTypeStruct %f32 %u32
%s2u32 = OpTypeStruct %u32 %u32
%s2f32 = OpTypeStruct %f32 %f32
%ssparse = OpTypeStruct %u32 %v4f32
%ssparsef = OpTypeStruct %u32 %f32
%a2u32b = OpTypeArray %u32 %c2
%img2d = OpTypeImage %f32 2D 0 0 0 1 Unknown
%img2du = OpTypeImage %u32 2D 0 0 0 1 Unknown
%depth = OpTypeImage %f32 2D 1 0 0 1 Unknown
%img1d = OpTypeImage %f32 1D 0 0 0 1 Unknown
%img3d = OpTypeImage %f32 3D 0 0 0 1 Unknown
%cube = OpTypeImage %f32 Cube 0 0 0 1 Unknown
%arr = OpTypeImage %f32 2D 0 1 0 1 Unknown
%ms = OpTypeImage %f32 2D 0 0 1 1 Unknown
%buf = OpTypeImage %f32 Buffer 0 0 0 1 Unknown
%storage = OpTypeImage %f32 2D 0 0 0 2 Unknown
%r32ui = OpTypeImage %u32 2D 0 0 0 2 R32ui
%smp = OpTypeSampler
%si = OpTypeSampledImage %img2d
%siu = OpTypeSampledImage %img2du
%sidepth = OpTypeSampledImage %depth
%si3d = OpTypeSampledImage %img3d
%sicube = OpTypeSampledImage %cube
%as = OpTypeAccelerationStructureKHR
%rq = OpTypeRayQueryKHR
%pprivf32 = OpTypePointer Private %f32
%pprivu32 = OpTypePointer Private %u32
%pprivi32 = OpTypePointer Private %i32
%pprivu64 = OpTypePointer Private %u64
%pprivv4f32 = OpTypePointer Private %v4f32
%ppriva2f32 = OpTypePointer Private %a2f32
%pprivs = OpTypePointer Private %s
%pwgu32 = OpTypePointer Workgroup %u32
%pwgf32 = OpTypePointer Workgroup %f32
%pprivrq = OpTypePointer Private %rq
%pimg = OpTypePointer Image %u32
%pucr32 = OpTypePointer UniformConstant %r32ui
%pfnf32 = OpTypePointer Function %f32
%pfnu32 = OpTypePointer Function %u32
%pfnv4f32 = OpTypePointer Function %v4f32
%pinf32 = OpTypePointer Input %f32
%ppayload = OpTypePointer RayPayloadKHR %v4f32
%pcallable = OpTypePointer CallableDataKHR %v4f32
%rtaf32 = OpTypeRuntimeArray %f32
%blk = OpTypeStruct %rtaf32
%psb = OpTypePointer StorageBuffer %blk
%psbf32 = OpTypePointer StorageBuffer %f32
%vsb = OpVariable %psb StorageBuffer
%vinf32 = OpVariable %pinf32 Input
%vpayload = OpVariable %ppayload RayPayloadKHR
%vcallable = OpVariable %pcallable CallableDataKHR
%vprivf32 = OpVariable %pprivf32 Private
%vprivu32 = OpVariable %pprivu32 Private
%vprivi32 = OpVariable %pprivi32 Private
%vprivu64 = OpVariable %pprivu64 Private
%vprivv4f32 = OpVariable %pprivv4f32 Private
%vpriva2f32 = OpVariable %ppriva2f32 Private
%vprivs = OpVariable %pprivs Private
%vwgu32 = OpVariable %pwgu32 Workgroup
%vwgf32 = OpVariable %pwgf32 Workgroup
%vrq = OpVariable %pprivrq Private
%vimgs = OpVariable %pucr32 UniformConstant
%fn = OpTypeFunction %void
%poolfn = OpTypeFunction %void PARAMETER_TYPES
%main = OpFunction %void None %fn
%me = OpLabel
OpReturn
OpFunctionEnd
%pool = OpFunction %void None %poolfn
PARAMETERS
%e = OpLabel
%vfnf32 = OpVariable %pfnf32 Function
%vfnu32 = OpVariable %pfnu32 Function
%vfnv4f32 = OpVariable %pfnv4f32 Function
%vimg = OpImageTexelPointer %pimg %vimgs %p_v2i32 %c0
INST
OpReturn
OpFunctionEnd
)";

constexpr const char *kShaderTypes[] = {
    "bool",    "u8",    "u16",     "i16",      "i32",     "u32",    "i64",   "u64",    "f16",
    "f32",     "f64",   "v2bool",  "v4bool",   "v4u8",    "v2u16",  "v2i32", "v2u32",  "v3u32",
    "v4u32",   "v4i32", "v2u64",   "v2f16",    "v2f32",   "v3f32",  "v4f32", "v2f64",  "m2x2",
    "m3x2",    "m2x3",  "m3x3",    "m4x3",     "m2x2f64", "a2f32",  "a2u32", "a2u32b", "s",
    "s2u32",   "s2f32", "ssparse", "ssparsef", "img2d",   "img2du", "depth", "img1d",  "img3d",
    "cube",    "arr",   "ms",      "buf",      "storage", "r32ui",  "smp",   "si",     "siu",
    "sidepth", "si3d",  "sicube",  "as",       "psbf32"};

// A kernel (Physical64 OpenCL) with the same kind of pool: pointers of each storage class, the
// OpenCL opaque types, images with access qualifiers and wider vectors.
constexpr const char *kKernelPool = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Int8
OpCapability Int16
OpCapability Int64
OpCapability Float16
OpCapability Float64
OpCapability Int64Atomics
OpCapability Vector16
OpCapability GenericPointer
OpCapability DeviceEnqueue
OpCapability Pipes
OpCapability Groups
OpCapability ImageBasic
OpCapability SampledBuffer
OpCapability ImageReadWrite
OpCapability ImageMipmap
OpCapability LiteralSampler
OpCapability Float16Buffer
OpCapability GroupNonUniform
OpCapability GroupNonUniformVote
OpCapability GroupNonUniformArithmetic
OpCapability GroupNonUniformBallot
OpCapability GroupNonUniformShuffle
OpCapability GroupNonUniformShuffleRelative
OpCapability GroupNonUniformClustered
OpCapability DotProduct
OpCapability DotProductInput4x8Bit
OpCapability DotProductInput4x8BitPacked
OpCapability DotProductInputAll
OpCapability AtomicFloat32AddEXT
OpExtension "SPV_EXT_shader_atomic_float_add"
%cl = OpExtInstImport "OpenCL.std"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main "main"
OpName %c0 "c0"
OpName %c1 "c1"
OpName %c2 "c2"
OpName %c3 "c3"
OpName %c8 "c8"
OpName %c528 "c528"
OpName %c64 "c64"
OpName %cf1 "cf1"
OpName %ctrue "ctrue"
OpName %vwgu32 "vwgu32"
OpName %vwgf32 "vwgf32"
OpName %vcwu32 "vcwu32"
OpName %vcwf32 "vcwf32"
OpName %vcwu64 "vcwu64"
OpName %vfnu32 "vfnu32"
OpName %vfnf32 "vfnf32"
OpName %vfnv4f32 "vfnv4f32"
OpName %vfnevt "vfnevt"
OpName %vfnndr "vfnndr"
OpName %vfna3u64 "vfna3u64"
OpName %vuci8 "vuci8"
%void = OpTypeVoid
%bool = OpTypeBool
%u8 = OpTypeInt 8 0
%u16 = OpTypeInt 16 0
%u32 = OpTypeInt 32 0
%u64 = OpTypeInt 64 0
%f16 = OpTypeFloat 16
%f32 = OpTypeFloat 32
%f64 = OpTypeFloat 64
%v2bool = OpTypeVector %bool 2
%v2u8 = OpTypeVector %u8 2
%v4u8 = OpTypeVector %u8 4
%v2u32 = OpTypeVector %u32 2
%v3u32 = OpTypeVector %u32 3
%v4u32 = OpTypeVector %u32 4
%v8u32 = OpTypeVector %u32 8
%v16u8 = OpTypeVector %u8 16
%v3u64 = OpTypeVector %u64 3
%v2f16 = OpTypeVector %f16 2
%v2f32 = OpTypeVector %f32 2
%v3f32 = OpTypeVector %f32 3
%v4f32 = OpTypeVector %f32 4
%v16f32 = OpTypeVector %f32 16
%v2f64 = OpTypeVector %f64 2
%c0 = OpConstant %u32 0
%c1 = OpConstant %u32 1
%c2 = OpConstant %u32 2
%c3 = OpConstant %u32 3
%c8 = OpConstant %u32 8
%c528 = OpConstant %u32 528
%c64 = OpConstant %u64 1
%cf1 = OpConstant %f32 1
%ctrue = OpConstantTrue %bool
%c3l = OpConstant %u32 3
%a3u64 = OpTypeArray %u64 %c3l
%s = OpTypeStruct %f32 %u32
%ndr = OpTypeStruct %u32 %a3u64 %a3u64 %a3u64
%s2u32 = OpTypeStruct %u32 %u32
%img2d = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly
%img2dw = OpTypeImage %void 2D 0 0 0 0 Unknown WriteOnly
%img2drw = OpTypeImage %void 2D 0 0 0 0 Unknown ReadWrite
%img1db = OpTypeImage %void Buffer 0 0 0 0 Unknown ReadOnly
%img3d = OpTypeImage %void 3D 0 0 0 0 Unknown ReadOnly
%arr = OpTypeImage %void 2D 0 1 0 0 Unknown ReadOnly
%depth = OpTypeImage %void 2D 1 0 0 0 Unknown ReadOnly
%smp = OpTypeSampler
%si = OpTypeSampledImage %img2d
%evt = OpTypeEvent
%devt = OpTypeDeviceEvent
%rid = OpTypeReserveId
%queue = OpTypeQueue
%piper = OpTypePipe ReadOnly
%pipew = OpTypePipe WriteOnly
%pcwu32 = OpTypePointer CrossWorkgroup %u32
%pcwf32 = OpTypePointer CrossWorkgroup %f32
%pcwu64 = OpTypePointer CrossWorkgroup %u64
%pcwu8 = OpTypePointer CrossWorkgroup %u8
%pcwf16 = OpTypePointer CrossWorkgroup %f16
%pcwv4f32 = OpTypePointer CrossWorkgroup %v4f32
%pwgu32 = OpTypePointer Workgroup %u32
%pwgf32 = OpTypePointer Workgroup %f32
%pgenu32 = OpTypePointer Generic %u32
%pgenf32 = OpTypePointer Generic %f32
%pgenu8 = OpTypePointer Generic %u8
%pfnu32 = OpTypePointer Function %u32
%pfnf32 = OpTypePointer Function %f32
%pfnv4f32 = OpTypePointer Function %v4f32
%pfnevt = OpTypePointer Function %evt
%pfndevt = OpTypePointer Function %devt
%pfnndr = OpTypePointer Function %ndr
%pfna3u64 = OpTypePointer Function %a3u64
%puci8 = OpTypePointer UniformConstant %u8
%vwgu32 = OpVariable %pwgu32 Workgroup
%vwgf32 = OpVariable %pwgf32 Workgroup
%vcwu32 = OpVariable %pcwu32 CrossWorkgroup
%vcwf32 = OpVariable %pcwf32 CrossWorkgroup
%vcwu64 = OpVariable %pcwu64 CrossWorkgroup
%vuci8 = OpVariable %puci8 UniformConstant
%fn = OpTypeFunction %void
%poolfn = OpTypeFunction %void PARAMETER_TYPES
%main = OpFunction %void None %fn
%me = OpLabel
OpReturn
OpFunctionEnd
%pool = OpFunction %void None %poolfn
PARAMETERS
%e = OpLabel
%vfnu32 = OpVariable %pfnu32 Function
%vfnf32 = OpVariable %pfnf32 Function
%vfnv4f32 = OpVariable %pfnv4f32 Function
%vfnevt = OpVariable %pfnevt Function
%vfnndr = OpVariable %pfnndr Function
%vfna3u64 = OpVariable %pfna3u64 Function
INST
OpReturn
OpFunctionEnd
)";

constexpr const char *kKernelTypes[] = {
    "bool",     "v2bool",  "s2u32",   "pcwf16", "u8",     "u16",    "u32",    "u64",    "f16",
    "f32",      "f64",     "v2u8",    "v4u8",   "v2u32",  "v3u32",  "v4u32",  "v8u32",  "v16u8",
    "v3u64",    "v2f16",   "v2f32",   "v3f32",  "v4f32",  "v16f32", "v2f64",  "s",      "ndr",
    "img2d",    "img2dw",  "img2drw", "img1db", "img3d",  "arr",    "depth",  "smp",    "si",
    "evt",      "devt",    "rid",     "queue",  "piper",  "pipew",  "pcwu32", "pcwf32", "pcwu8",
    "pcwv4f32", "pgenu32", "pgenf32", "pgenu8", "pfndevt"};

/// One way of writing an instruction: the words after the result type and result, each a pool
/// position (an id operand) or a literal word.
struct Form {
  std::string name;
  uint32_t opcode;
  bool hasType, hasResult;
  std::vector<uint32_t> prefix; ///< literal words before the operands (OpExtInst's set and number)
  struct Item {
    bool id;
    uint32_t word; ///< the literal when !id
  };
  std::vector<Item> items;
  size_t ids() const {
    size_t n = 0;
    for (const Item &i : items)
      n += i.id;
    return n;
  }
};

/// The value of an enumerant operand in a form: the first the grammar lists.
inline uint32_t firstEnumerant(OperandKind kind) {
  const auto &e = grammar::operandKind(kind).enumerants;
  return e.empty() ? 0 : e.front().value;
}

/// The forms of an instruction with the operands `operands` (result type and result left out):
/// optional operands absent, a variadic operand repeated 0, 1, 2 and 4 times; none when an operand
/// is of a kind the sweep does not build (strings, pairs, context-dependent literals).
inline std::vector<std::vector<Form::Item>> formsOf(std::span<const grammar::OperandDesc> operands,
                                                    uint32_t literal = 0) {
  std::vector<Form::Item> fixed;
  std::optional<size_t> imageOperands;
  std::optional<std::pair<size_t, OperandKind>> valueEnum; // the first required one
  const grammar::OperandDesc *variadic = nullptr;
  size_t variadicAt = 0;
  for (const grammar::OperandDesc &o : operands) {
    if (o.kind == OperandKind::IdResultType || o.kind == OperandKind::IdResult)
      continue;
    const OperandCategory c = grammar::operandCategory(o.kind);
    Form::Item item;
    if (c == OperandCategory::Id)
      item = {true, 0};
    else if (o.kind == OperandKind::LiteralInteger)
      item = {false, literal};
    else if (c == OperandCategory::ValueEnum)
      item = {false, firstEnumerant(o.kind)};
    else if (c == OperandCategory::BitEnum)
      item = {false, 0};
    else
      return {};
    // Image operands: none (absent when optional), and Lod with its one id (what the
    // explicit-LOD forms need).
    if (o.kind == OperandKind::ImageOperands && !imageOperands) {
      imageOperands = fixed.size();
      if (o.quantifier != Quantifier::Optional)
        fixed.push_back(item);
      continue;
    }
    if (o.quantifier == Quantifier::Optional)
      continue;
    if (c == OperandCategory::ValueEnum && o.quantifier == Quantifier::One && !valueEnum)
      valueEnum = {fixed.size(), o.kind};
    if (o.quantifier == Quantifier::Variadic) {
      if (variadic != nullptr)
        return {};
      variadic = &o;
      variadicAt = fixed.size();
      fixed.push_back(item);
      continue;
    }
    fixed.push_back(item);
  }
  if (variadic == nullptr && !imageOperands && valueEnum) {
    // The enumerant at its first values without parameters (GroupOperation: Reduce,
    // InclusiveScan, ExclusiveScan, ClusteredReduce, ...).
    std::vector<std::vector<Form::Item>> forms;
    size_t values = 0;
    for (const grammar::EnumerantDesc &e : grammar::operandKind(valueEnum->second).enumerants)
      if (e.parameters.empty() && values++ < 6) {
        std::vector<Form::Item> f = fixed;
        f[valueEnum->first].word = e.value;
        forms.push_back(std::move(f));
      }
    return forms.empty() ? std::vector<std::vector<Form::Item>>{fixed} : forms;
  }
  if (variadic == nullptr && imageOperands) {
    constexpr uint32_t kLod = 2;
    std::vector<Form::Item> lod = fixed;
    if (lod.size() > *imageOperands && !lod[*imageOperands].id)
      lod.erase(lod.begin() + *imageOperands); // the required mask
    lod.insert(lod.begin() + *imageOperands, {{false, kLod}, {true, 0}});
    return {fixed, lod};
  }
  if (variadic == nullptr)
    return {fixed};
  std::vector<std::vector<Form::Item>> forms;
  for (size_t n : {0, 1, 2, 4}) {
    std::vector<Form::Item> f(fixed.begin(), fixed.begin() + variadicAt);
    f.insert(f.end(), n, fixed[variadicAt]);
    f.insert(f.end(), fixed.begin() + variadicAt + 1, fixed.end());
    forms.push_back(std::move(f));
  }
  return forms;
}

/// Whether the sweep builds `op`: an instruction of a function body that takes or gives values.
inline bool swept(const grammar::InstructionDesc &op) {
  using C = grammar::InstructionClass;
  switch (op.cls) {
  case C::Debug:
  case C::Extension:
  case C::ModeSetting:
  case C::TypeDeclaration:
  case C::ConstantCreation:
  case C::Function:
  case C::Annotation:
  case C::ControlFlow:
    return false;
  default:
    break;
  }
  if (op.name.starts_with("OpType")) // extension types the grammar files under other classes
    return false;
  static const std::set<std::string_view> kNot = {"OpNop",
                                                  "OpUndef",
                                                  "OpVariable",
                                                  "OpExtInst",
                                                  "OpLabel",
                                                  "OpLine",
                                                  "OpNoLine",
                                                  "OpSizeOf",
                                                  "OpFunctionCall",
                                                  "OpCopyMemorySized",
                                                  "OpSpecConstantOp",
                                                  "OpModuleProcessed"};
  return !kNot.contains(op.name);
}

class SweepPool {
public:
  SweepPool(const char *text, std::span<const char *const> types, bool moduleScope = false)
      : module_(text, types, moduleScope) {
    if (!module_.module())
      return;
    std::map<uint32_t, std::string> names;
    for (Instruction inst : *module_.module()) {
      if (inst.opcode() == grammar::Op::Name)
        names[inst.word(1)] = inst.stringOperand(inst.operands()[1]);
      else if (inst.opcode() == grammar::Op::FunctionParameter)
        entries_.push_back(
            {"p_" + std::string(types[entries_.size()]), inst.resultId(), inst.typeId()});
    }
    for (Instruction inst : *module_.module())
      if (inst.resultId() != 0 && inst.opcode() != grammar::Op::FunctionParameter)
        if (auto n = names.find(inst.resultId()); n != names.end())
          entries_.push_back({n->second, inst.resultId(), inst.typeId()});
    // "void": a result type only (as an operand it is the type's id, which no rule accepts).
    for (Instruction inst : *module_.module())
      if (inst.opcode() == grammar::Op::TypeVoid)
        entries_.push_back({"void", inst.resultId(), inst.resultId()});
    for (Instruction inst : *module_.module())
      if (inst.opcode() == grammar::Op::ExtInstImport)
        sets_[inst.stringOperand(inst.operands()[1])] = inst.resultId();
    valid_ = validate(*module_.module(), Options{}).valid();
  }

  bool valid() const { return valid_; }
  const std::string &text() const { return module_.text(); }
  size_t size() const { return entries_.size(); }
  const std::string &name(size_t i) const { return entries_[i].name; }
  uint32_t type(size_t i) const { return entries_[i].type; }
  /// The entry named `name`, size() when there is none.
  size_t find(std::string_view name) const {
    for (size_t i = 0; i < entries_.size(); ++i)
      if (entries_[i].name == name)
        return i;
    return entries_.size();
  }
  uint32_t set(const std::string &name) const {
    auto s = sets_.find(name);
    return s == sets_.end() ? 0 : s->second;
  }

  /// `form` with the type of entry positions[0] as its result type and entries positions[1...]
  /// as its id operands; the verifier runs only when `verify` or spire val accepts.
  test::Verdicts verdicts(const Form &form, const std::vector<size_t> &positions) const {
    return module_.with(form.opcode, words(form, positions));
  }

  /// The module with `form` in the slot, as verdicts() builds it.
  Expected<Module> moduleWith(const Form &form, const std::vector<size_t> &positions) const {
    return module_.moduleWith(form.opcode, words(form, positions));
  }

  std::vector<uint32_t> words(const Form &form, const std::vector<size_t> &positions) const {
    std::vector<uint32_t> words;
    if (form.hasType)
      words.push_back(entries_[positions[0]].type);
    if (form.hasResult)
      words.push_back(module_.freeId());
    words.insert(words.end(), form.prefix.begin(), form.prefix.end());
    size_t k = 1;
    for (const Form::Item &i : form.items)
      words.push_back(i.id ? entries_[positions[k++]].id : i.word);
    return words;
  }

  std::string describe(const Form &form, const std::vector<size_t> &positions) const {
    std::string s = form.name;
    if (form.hasType)
      s += " result " + name(positions[0]);
    for (size_t k = 1; k < positions.size(); ++k)
      s += " " + name(positions[k]);
    return s;
  }

private:
  struct Entry {
    std::string name;
    uint32_t id, type;
  };
  test::PoolModule module_;
  std::vector<Entry> entries_;
  std::map<std::string, uint32_t> sets_;
  bool valid_ = false;
};

/// A verifier or validator message without the types and ids it names: what it objects to.
inline std::string complaint(const std::string &message) {
  std::string out;
  int depth = 0;
  for (size_t i = 0; i < message.size(); ++i) {
    if ((message.compare(i, 6, ", not ") == 0 || message.compare(i, 10, ", but got ") == 0) &&
        depth == 0)
      break;
    depth += message[i] == '(' || message[i] == '<';
    if (message[i] == '%' && depth == 0) { // an id's name
      while (i + 1 < message.size() && message[i + 1] != ' ' && message[i + 1] != ',')
        ++i;
      continue;
    }
    if (depth == 0)
      out += message[i];
    depth -= depth > 0 && (message[i] == ')' || message[i] == '>');
  }
  return out;
}

/// A combination of an instruction spire val accepts, where the search finds none: the pool
/// entry of its result type ("-": none) and of each id operand.
using Hint = std::pair<std::string_view, std::string_view>;

/// The verifier's rules that are MLIR's and stricter than SPIR-V (the dialect's verifier keeps
/// MLIR's semantics, spire val the specification's): a combination spire val accepts that the
/// verifier rejects with one of these messages is counted apart, not a gap.
constexpr std::string_view kStricterInMlir[] = {
    // The integer dot products' result holds all of an operand's bits in MLIR; SPIR-V asks only
    // for a component's (a 4 x 8-bit dot product into an 8- or 16-bit result).
    "result type has insufficient bit-width",
};

inline bool stricterInMlir(std::string_view problem) {
  for (std::string_view m : kStricterInMlir)
    if (problem.find(m) != std::string_view::npos)
      return true;
  return false;
}

struct Tally {
  size_t forms = 0, unavailable = 0, formsAccepted = 0, modules = 0, accepted = 0, gaps = 0;
  size_t stricterInMlir = 0; ///< accepted combinations rejected by a rule of kStricterInMlir
  std::map<std::string, size_t> covered; // instruction -> forms with an accepted combination
  /// Called with each accepted module and the name of its form, when set.
  std::function<void(const std::string &, const Module &)> onAccepted;
};

/// Explores the combinations of `form` that spire val accepts. A first one is found greedily:
/// position by position, the pool entry that leaves the fewest errors, for a few passes. From
/// there, every one-position neighbour is tried, and the neighbours of accepted ones in turn, up
/// to `budget` accepted combinations. Each accepted combination must verify.
inline void sweep(const SweepPool &pool, const Form &form, std::span<const Hint> hints,
                  size_t budget, Tally &tally, bool resultsByType = false) {
  ++tally.forms;
  const size_t positions = form.ids() + 1;
  const size_t first = form.hasType ? 0 : 1;
  // What spire val says of a combination: how many errors, and the first.
  struct Said {
    size_t errors = 0;
    std::string first;
  };
  std::map<std::vector<size_t>, Said> seen;
  std::vector<std::vector<size_t>> frontier;
  auto visit = [&](const std::vector<size_t> &p) -> Said {
    if (auto i = seen.find(p); i != seen.end())
      return i->second;
    ++tally.modules;
    Expected<Module> m = pool.moduleWith(form, p);
    if (!m) {
      ADD_FAILURE() << pool.describe(form, p) << ": " << m.error().message;
      return seen[p] = Said{SIZE_MAX, "(not read)"};
    }
    const Report r = validate(*m, Options{});
    const Said said{r.errorCount(), r.valid() ? std::string() : r.problems.front().message};
    seen[p] = said;
    if (said.errors != 0)
      return said;
    ++tally.accepted;
    frontier.push_back(p);
    if (tally.onAccepted)
      tally.onAccepted(form.name, *m);
    dialect::Context ctx;
    Expected<dialect::OwningOp> ir = dialect::deserialize(ctx, *m);
    std::string problem = ir ? std::string() : "(not deserialized) " + ir.error().message;
    if (ir)
      if (Status st = dialect::verify(**ir); !st)
        problem = st.error().message;
    if (!problem.empty() && stricterInMlir(problem)) {
      ++tally.stricterInMlir;
    } else if (!problem.empty()) {
      ++tally.gaps;
      ADD_FAILURE() << pool.describe(form, p) << ": spire val accepts, the verifier says "
                    << problem;
      if (const char *dir = std::getenv("SPIRE_SWEEP_DUMP")) {
        const std::vector<uint8_t> bytes = m->toBytes();
        const std::string path = std::string(dir) + "/gap" + std::to_string(tally.gaps) + ".spv";
        if (FILE *f = std::fopen(path.c_str(), "wb")) {
          std::fwrite(bytes.data(), 1, bytes.size(), f);
          std::fclose(f);
        }
      }
    }
    return Said{};
  };
  std::vector<size_t> p(positions, 0);
  // An instruction the pool's capabilities and extensions do not allow has nothing to sweep.
  if (form.prefix.empty()) {
    Expected<Module> m = pool.moduleWith(form, p);
    for (const Problem &problem : m ? validate(*m, Options{}).problems : std::vector<Problem>{})
      if (problem.message.starts_with(std::string(form.name) + " needs")) {
        ++tally.unavailable;
        return;
      }
  }
  // The verifier names the position it objects to: move that one to an entry it does not
  // object to, until it accepts or names none.
  auto irVerdict = [&](const std::vector<size_t> &q) {
    ++tally.modules;
    Expected<Module> m = pool.moduleWith(form, q);
    dialect::Context ctx;
    Expected<dialect::OwningOp> ir = m ? dialect::deserialize(ctx, *m) : m.error();
    if (!ir)
      return std::string("-");
    Status st = dialect::verify(**ir);
    if (std::getenv("SPIRE_SWEEP_TRACE") != nullptr)
      std::printf("%s: %s\n", pool.describe(form, q).c_str(),
                  st ? "verifies" : st.error().message.c_str());
    return st ? std::string() : st.error().message;
  };
  std::map<std::vector<size_t>, std::string> irSeen;
  auto irProblem = [&](const std::vector<size_t> &q) {
    if (auto i = irSeen.find(q); i != irSeen.end())
      return i->second;
    return irSeen[q] = irVerdict(q);
  };
  std::string problem = irProblem(p);
  std::set<std::string> complaints = {complaint(problem)};
  for (size_t step = 0; step < 4 * positions && !problem.empty(); ++step) {
    const int at = test::namedPosition(problem);
    if (at < int(first) || size_t(at) >= positions)
      break;
    // The named position first; a message relating it to another value ("must point to the
    // result's type") may need that other value moved instead.
    bool moved = false;
    for (size_t i = 0; i < positions && !moved; ++i) {
      const size_t move = i == 0 ? size_t(at) : (i <= size_t(at) ? i - 1 : i);
      if (move < first)
        continue;
      for (size_t k = 1; k < pool.size() && !moved; ++k) {
        std::vector<size_t> q = p;
        q[move] = (p[move] + k) % pool.size();
        std::string other = irProblem(q);
        // Progress: the verifier accepts, objects to another position, or objects to this one
        // in a way it has not yet.
        if (other.empty() || test::namedPosition(other) != at ||
            complaints.insert(complaint(other)).second) {
          p = q;
          problem = other;
          moved = true;
        }
      }
    }
    if (!moved)
      break;
  }
  // Then spire val, by local search: a move that keeps what the verifier accepts (when it
  // accepts) and leaves fewer errors is progress; where there is none, a move to as many errors
  // of a kind not yet seen.
  const bool verified = problem.empty();
  std::set<std::string> objections;
  Said said = visit(p);
  objections.insert(complaint(said.first));
  for (size_t step = 0; step < 4 * positions && said.errors != 0; ++step) {
    std::optional<std::vector<size_t>> sideways;
    bool moved = false;
    for (size_t at = first; at < positions && !moved; ++at)
      for (size_t k = 1; k < pool.size() && !moved; ++k) {
        std::vector<size_t> q = p;
        q[at] = (p[at] + k) % pool.size();
        if (verified && !irProblem(q).empty())
          continue;
        const Said other = visit(q);
        if (other.errors < said.errors) {
          p = q;
          said = other;
          moved = true;
        } else if (other.errors == said.errors && !sideways &&
                   !objections.contains(complaint(other.first))) {
          sideways = q;
        }
      }
    if (!moved && sideways) {
      p = *sideways;
      said = visit(p);
      moved = true;
    }
    objections.insert(complaint(said.first));
    if (!moved)
      break;
  }
  // The hints for the instruction.
  for (const auto &[name, use] : hints) {
    if (name != form.name)
      continue;
    std::istringstream in{std::string(use)};
    std::vector<size_t> hint;
    for (std::string entry; in >> entry;)
      hint.push_back(entry == "-" ? 0 : pool.find(entry));
    if (hint.size() != positions)
      continue;
    ASSERT_LT(*std::max_element(hint.begin(), hint.end()), pool.size()) << use;
    visit(hint);
  }
  // One entry everywhere.
  for (size_t t = 0; t < pool.size() && frontier.empty(); ++t)
    visit(std::vector<size_t>(positions, t));
  // A result of each type with one entry as every operand (comparisons, conversions): for the
  // pools of constants, where the verifier names no position to guide the search.
  if (resultsByType && form.hasType) {
    std::set<uint32_t> types;
    for (size_t r = 0; r < pool.size() && frontier.empty(); ++r) {
      if (!types.insert(pool.type(r)).second)
        continue;
      for (size_t t = 0; t < pool.size() && frontier.empty(); ++t) {
        std::vector<size_t> q(positions, t);
        q[0] = r;
        visit(q);
      }
    }
  }
  for (size_t next = 0; next < frontier.size() && next < budget; ++next) {
    const std::vector<size_t> base = frontier[next];
    for (size_t at = first; at < positions; ++at)
      for (size_t t = 0; t < pool.size(); ++t) {
        std::vector<size_t> q = base;
        q[at] = t;
        visit(q);
      }
  }
  tally.covered[form.name] += !frontier.empty();
  tally.formsAccepted += !frontier.empty();
}

inline size_t budget() {
  const char *b = std::getenv("SPIRE_SWEEP_BUDGET");
  return b != nullptr ? std::strtoul(b, nullptr, 10) : 1;
}

// Under the sanitizers, where a module costs ten times as much, every 8th form.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SPIRE_SWEEP_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(SPIRE_SWEEP_SANITIZED)
inline constexpr size_t kStride = 8;
#else
inline constexpr size_t kStride = 1;
#endif

/// The forms of the core instructions, then of the extended set `set`'s instructions.
inline std::vector<Form> formsFor(const SweepPool &pool, grammar::ExtInstSet set,
                                  const char *setName) {
  std::vector<Form> forms;
  for (const grammar::InstructionDesc &op : grammar::instructions()) {
    if (!swept(op))
      continue;
    for (auto &items : formsOf(op.operands))
      forms.push_back({std::string(op.name), op.opcode, op.hasResultType, op.hasResult, {}, items});
  }
  const grammar::ExtInstSetDesc *desc = grammar::extInstSet(set);
  // The literals of the extended instructions are vector sizes (vloadn's n): 4.
  for (const grammar::ExtInstDesc &ext : desc->instructions)
    for (auto &items : formsOf(ext.operands, 4))
      forms.push_back({std::string(setName) + "." + std::string(ext.name),
                       uint32_t(grammar::Op::ExtInst),
                       true,
                       true,
                       {pool.set(setName), ext.opcode},
                       items});
  return forms;
}

/// The forms of the module-scope pools: the constant instructions that take ids (composites,
/// nulls, undefs) and OpSpecConstantOp, one per operation some module may perform (3.32.7) with
/// its operands as the operation's instruction has them.
inline std::vector<Form> specConstantForms() {
  std::vector<Form> forms;
  for (const grammar::InstructionDesc &op : grammar::instructions()) {
    const bool constant = op.cls == grammar::InstructionClass::ConstantCreation &&
                          op.opcode != uint32_t(grammar::Op::SpecConstantOp);
    if ((constant || op.opcode == uint32_t(grammar::Op::Undef)) && op.hasResultType)
      for (auto &items : formsOf(op.operands))
        forms.push_back({std::string(op.name), op.opcode, true, true, {}, items});
  }
  for (const grammar::InstructionDesc &op : grammar::instructions()) {
    if (grammar::specConstantOperation(op.opcode) == grammar::SpecConstantOperation::No)
      continue;
    for (auto &items : formsOf(op.operands))
      forms.push_back({"OpSpecConstantOp." + std::string(op.name),
                       uint32_t(grammar::Op::SpecConstantOp),
                       true,
                       true,
                       {op.opcode},
                       items});
  }
  return forms;
}

/// One pool and what to sweep with it.
struct Spec {
  const char *text;
  std::span<const char *const> types;
  grammar::ExtInstSet set;
  const char *setName; ///< null: the pool is of constants, the forms are specConstantForms()
  std::span<const Hint> hints;
  size_t minimumCovered; ///< forms with an accepted combination when the test was written
};

/// Sweeps every form of `spec` into `tally`.
inline void sweepAll(const Spec &spec, Tally &tally) {
  const auto &[text, types, set, setName, hints, minimumCovered] = spec;
  SweepPool pool(text, types, setName == nullptr);
  ASSERT_TRUE(pool.valid()) << test::describe(test::validateText(pool.text()));
  const char *only = std::getenv("SPIRE_SWEEP_ONLY");
  const std::vector<Form> forms =
      setName != nullptr ? formsFor(pool, set, setName) : specConstantForms();
  for (size_t i = 0; i < forms.size(); i += only != nullptr ? 1 : kStride) {
    const Form &form = forms[i];
    if (only != nullptr && form.name != only)
      continue;
    SCOPED_TRACE(form.name);
    sweep(pool, form, hints, budget(), tally, setName == nullptr);
  }
  if (only == nullptr && kStride == 1) {
    for (const auto &[name, use] : hints)
      EXPECT_NE(tally.covered[std::string(name)], 0u)
          << name << ": spire val accepts no form of the hint " << use;
    // The search reaches what it reached when the test was written (a newer grammar has more
    // instructions, not fewer).
    EXPECT_GE(tally.formsAccepted, minimumCovered);
  }
  std::printf("%zu forms, %zu the pool's capabilities do not allow, %zu with a combination "
              "spire val accepts; %zu modules, %zu accepted, %zu the verifier rejects (and %zu "
              "by a rule of MLIR's stricter than SPIR-V)\n",
              tally.forms, tally.unavailable, tally.formsAccepted, tally.modules, tally.accepted,
              tally.gaps, tally.stricterInMlir);
  if (std::getenv("SPIRE_SWEEP_UNCOVERED") != nullptr)
    for (const auto &[name, forms] : tally.covered)
      if (forms == 0)
        std::printf("  no accepted form: %s\n", name.c_str());
}

// The pools of OpSpecConstantOp: constants, specialization constants, composites of them, undefs
// and nulls of the types the operations take, and (in the kernel) variables whose addresses the
// access chains and casts take. INST is at module scope, after them.
constexpr const char *kSpecShaderPool = R"(
OpCapability Shader
OpCapability Int8
OpCapability Int16
OpCapability Int64
OpCapability Float16
OpCapability Float64
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%slot_file = OpString "slot"
SPEC_CONSTANT_NAMES
SPEC_CONSTANT_VALUES
)";

constexpr const char *kSpecKernelPool = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Int8
OpCapability Int16
OpCapability Int64
OpCapability Float16
OpCapability Float64
OpCapability GenericPointer
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main "main" %vcwu32 %vcwa2u32 %vwgu32
%slot_file = OpString "slot"
SPEC_CONSTANT_NAMES
OpName %vcwu32 "vcwu32"
OpName %vcwa2u32 "vcwa2u32"
OpName %vwgu32 "vwgu32"
OpName %n_pgenu32 "n_pgenu32"
OpName %n_pcwu32 "n_pcwu32"
SPEC_CONSTANT_VALUES
%pcwu32 = OpTypePointer CrossWorkgroup %u32
%pcwa2u32 = OpTypePointer CrossWorkgroup %a2u32
%pwgu32 = OpTypePointer Workgroup %u32
%pgenu32 = OpTypePointer Generic %u32
%vcwu32 = OpVariable %pcwu32 CrossWorkgroup
%vcwa2u32 = OpVariable %pcwa2u32 CrossWorkgroup
%vwgu32 = OpVariable %pwgu32 Workgroup
%n_pgenu32 = OpConstantNull %pgenu32
%n_pcwu32 = OpConstantNull %pcwu32
)";

/// `pool` with the declarations of `types` (scalars first: "u32" is OpTypeInt 32 0, "i16" a
/// signed one, "f16" a float, "v2u32" a vector of two %u32), then for each (and for an array and a
/// structure) a constant (%c_<type>), a specialization constant (%k_<type>), an OpUndef
/// (%u_<type>) and an OpConstantNull (%n_<type>), named so that the sweep's pool finds them;
/// INST and a function after the pool's text.
inline std::string specConstantPool(const char *pool, std::span<const char *const> types) {
  std::string names, values = "%void = OpTypeVoid\n";
  auto name = [&](const std::string &id) { names += "OpName %" + id + " \"" + id + "\"\n"; };
  for (std::string_view t : types) {
    const std::string ty(t);
    if (ty == "bool")
      values += "%bool = OpTypeBool\n";
    else if (ty[0] == 'v')
      values += "%" + ty + " = OpTypeVector %" + ty.substr(2) + " " + ty[1] + "\n";
    else
      values += "%" + ty + (ty[0] == 'f' ? " = OpTypeFloat " : " = OpTypeInt ") + ty.substr(1) +
                (ty[0] == 'f'   ? ""
                 : ty[0] == 'i' ? " 1"
                                : " 0") +
                "\n";
  }
  for (std::string_view t : types) {
    const std::string ty(t);
    const bool isBool = ty.find("bool") != std::string::npos;
    const bool vector = ty[0] == 'v';
    const std::string scalar = vector ? ty.substr(2) : ty;
    if (!vector) {
      values +=
          "%c_" + ty + " = " + (isBool ? "OpConstantTrue %bool\n" : "OpConstant %" + ty + " 1\n");
      values += "%k_" + ty + " = " +
                (isBool ? "OpSpecConstantFalse %bool\n" : "OpSpecConstant %" + ty + " 2\n");
    } else {
      const std::string n(1, ty[1]);
      std::string c = "%c_" + ty + " = OpConstantComposite %" + ty,
                  k = "%k_" + ty + " = OpSpecConstantComposite %" + ty;
      for (int i = 0; i < std::stoi(n); ++i) {
        c += " %c_" + scalar;
        k += " %k_" + scalar;
      }
      values += c + "\n" + k + "\n";
    }
    values += "%u_" + ty + " = OpUndef %" + ty + "\n%n_" + ty + " = OpConstantNull %" + ty + "\n";
    for (const char *prefix : {"c_", "k_", "u_", "n_"})
      name(prefix + ty);
  }
  values += "%c2 = OpConstant %u32 2\n%a2u32 = OpTypeArray %u32 %c2\n%s = OpTypeStruct %f32 %u32\n"
            "%k_a2u32 = OpSpecConstantComposite %a2u32 %k_u32 %k_u32\n"
            "%k_s = OpSpecConstantComposite %s %k_f32 %k_u32\n";
  name("k_a2u32");
  name("k_s");
  std::string text = test::replaced(pool, "SPEC_CONSTANT_NAMES", names);
  text = test::replaced(text, "SPEC_CONSTANT_VALUES", values);
  // The instruction under test after the last constant; PARAMETER_TYPES and PARAMETERS stay
  // empty.
  return text + "INST\n%fn = OpTypeFunction %void PARAMETER_TYPES\n"
                "%main = OpFunction %void None %fn\nPARAMETERS\n%me = OpLabel\nOpReturn\n"
                "OpFunctionEnd\n";
}

constexpr const char *kSpecShaderTypes[] = {
    "bool", "u8",     "i16",   "u16",   "i32",   "u32",   "i64",   "u64",   "f16",  "f32",
    "f64",  "v2bool", "v2i32", "v2u32", "v4u32", "v2u64", "v2f16", "v2f32", "v4f32"};
constexpr const char *kSpecKernelTypes[] = {"bool",  "u8",    "u16",   "u32",    "u64",
                                            "f16",   "f32",   "f64",   "v2bool", "v2u32",
                                            "v4u32", "v2u64", "v2f16", "v2f32",  "v4f32"};

constexpr Hint kShaderHints[] = {
    {"OpAtomicLoad", "p_u32 vwgu32 c2 c0"},
    {"OpAtomicStore", "- vwgu32 c2 c0 p_u32"},
    {"OpAtomicExchange", "p_u32 vwgu32 c2 c0 p_u32"},
    {"OpAtomicCompareExchange", "p_u32 vwgu32 c2 c0 c0 p_u32 p_u32"},
    {"OpAtomicIIncrement", "p_u32 vwgu32 c2 c0"},
    {"OpAtomicIDecrement", "p_u32 vwgu32 c2 c0"},
    {"OpAtomicIAdd", "p_u32 vwgu32 c2 c0 p_u32"},
    {"OpAtomicISub", "p_u32 vwgu32 c2 c0 p_u32"},
    {"OpAtomicSMin", "p_u32 vwgu32 c2 c0 p_u32"},
    {"OpAtomicUMin", "p_u32 vwgu32 c2 c0 p_u32"},
    {"OpAtomicSMax", "p_u32 vwgu32 c2 c0 p_u32"},
    {"OpAtomicUMax", "p_u32 vwgu32 c2 c0 p_u32"},
    {"OpAtomicAnd", "p_u32 vwgu32 c2 c0 p_u32"},
    {"OpAtomicOr", "p_u32 vwgu32 c2 c0 p_u32"},
    {"OpAtomicXor", "p_u32 vwgu32 c2 c0 p_u32"},
    {"OpAtomicFAddEXT", "p_f32 vwgf32 c2 c0 p_f32"},
    {"OpAtomicFMinEXT", "p_f32 vwgf32 c2 c0 p_f32"},
    {"OpAtomicFMaxEXT", "p_f32 vwgf32 c2 c0 p_f32"},
    {"OpAccessChain", "vprivf32 vpriva2f32 c0"},
    {"OpInBoundsAccessChain", "vprivf32 vpriva2f32 c0"},
    {"OpImageSampleExplicitLod", "p_v4f32 p_si p_v2f32 p_f32"},
    {"OpImageSampleDrefExplicitLod", "p_f32 p_sidepth p_v2f32 p_f32 p_f32"},
    {"OpImageSampleProjExplicitLod", "p_v4f32 p_si p_v3f32 p_f32"},
    {"OpImageSampleProjDrefExplicitLod", "p_f32 p_sidepth p_v3f32 p_f32 p_f32"},
    {"OpImageSparseSampleImplicitLod", "p_ssparse p_si p_v2f32"},
    {"OpImageSparseSampleExplicitLod", "p_ssparse p_si p_v2f32 p_f32"},
    {"OpImageSparseFetch", "p_ssparse p_img2d p_v2i32"},
    {"OpImageSparseRead", "p_ssparse p_storage p_v2i32"},
    {"OpImageSparseGather", "p_ssparse p_si p_v2f32 p_i32"},
    {"OpImageSparseDrefGather", "p_ssparse p_sidepth p_v2f32 p_f32"},
    {"OpImageSparseSampleDrefImplicitLod", "p_ssparsef p_sidepth p_v2f32 p_f32"},
    {"OpImageSparseSampleDrefExplicitLod", "p_ssparsef p_sidepth p_v2f32 p_f32 p_f32"},
    {"OpImageTexelPointer", "vimg vimgs p_v2i32 c0"},
    {"OpIAddCarry", "p_s2u32 p_u32 p_u32"},
    {"OpISubBorrow", "p_s2u32 p_u32 p_u32"},
    {"OpUMulExtended", "p_s2u32 p_u32 p_u32"},
    {"OpSMulExtended", "p_s2u32 p_u32 p_u32"},
    {"OpVectorShuffle", "p_v2f32 p_v2f32 p_v2f32"},
    {"OpVectorTimesMatrix", "p_v2f32 p_v2f32 p_m2x2"},
    {"OpSDot", "p_i32 p_v4u8 p_v4u8"},
    {"OpUDot", "p_u32 p_v4u8 p_v4u8"},
    {"OpSUDot", "p_i32 p_v4u8 p_v4u8"},
    {"OpSDotAccSat", "p_i32 p_v4u8 p_v4u8 p_i32"},
    {"OpUDotAccSat", "p_u32 p_v4u8 p_v4u8 p_u32"},
    {"OpSUDotAccSat", "p_i32 p_v4u8 p_v4u8 p_i32"},
    {"OpGroupNonUniformFAdd", "p_f32 c3 p_f32"},
    {"OpGroupNonUniformFMul", "p_f32 c3 p_f32"},
    {"OpGroupNonUniformFMin", "p_f32 c3 p_f32"},
    {"OpGroupNonUniformFMax", "p_f32 c3 p_f32"},
    {"OpGroupNonUniformBallotBitCount", "p_u32 c3 p_v4u32"},
    {"OpGroupNonUniformBallotFindLSB", "p_u32 c3 p_v4u32"},
    {"OpGroupNonUniformBallotFindMSB", "p_u32 c3 p_v4u32"},
    {"OpGroupNonUniformBallotBitExtract", "p_bool c3 p_v4u32 p_u32"},
    {"OpGroupNonUniformInverseBallot", "p_bool c3 p_v4u32"},
    {"OpCopyLogical", "p_a2u32 p_a2u32b"},
    {"GLSL.std.450.ModfStruct", "p_s2f32 p_f32"},
    {"GLSL.std.450.InterpolateAtCentroid", "p_f32 vinf32"},
    {"GLSL.std.450.InterpolateAtSample", "p_f32 vinf32 p_i32"},
    {"GLSL.std.450.InterpolateAtOffset", "p_f32 vinf32 p_v2f32"},
    {"OpCompositeInsert", "p_v2f32 p_f32 p_v2f32"},
    {"GLSL.std.450.Modf", "p_f32 p_f32 vfnf32"},
    {"OpTraceRayKHR", "- p_as p_u32 p_u32 p_u32 p_u32 p_u32 p_v3f32 p_f32 p_v3f32 p_f32 vpayload"},
    {"OpExecuteCallableKHR", "- p_u32 vcallable"},
    {"OpArrayLength", "p_u32 vsb"},
    {"OpPtrEqual", "p_bool p_psbf32 p_psbf32"},
    {"OpPtrNotEqual", "p_bool p_psbf32 p_psbf32"},
    {"OpPtrAccessChain", "p_psbf32 p_psbf32 p_i32"},
};

constexpr Hint kKernelHints[] = {
    {"OpAtomicLoad", "p_u32 vcwu32 c1 c0"},
    {"OpAtomicStore", "- vcwu32 c1 c0 p_u32"},
    {"OpAtomicExchange", "p_u32 vcwu32 c1 c0 p_u32"},
    {"OpAtomicCompareExchange", "p_u32 vcwu32 c1 c0 c0 p_u32 p_u32"},
    {"OpAtomicIIncrement", "p_u32 vcwu32 c1 c0"},
    {"OpAtomicIAdd", "p_u32 vcwu32 c1 c0 p_u32"},
    {"OpAtomicFAddEXT", "p_f32 vcwf32 c1 c0 p_f32"},
    {"OpAtomicFlagTestAndSet", "p_bool vcwu32 c1 c0"},
    {"OpAtomicFlagClear", "- vcwu32 c1 c0"},
    {"OpAccessChain", "p_pcwf32 p_pcwv4f32 c0"},
    {"OpInBoundsAccessChain", "p_pcwf32 p_pcwv4f32 c0"},
    {"OpPtrAccessChain", "p_pcwu32 p_pcwu32 p_u64"},
    {"OpInBoundsPtrAccessChain", "p_pcwu32 p_pcwu32 p_u64"},
    {"OpImageSampleExplicitLod", "p_v4f32 p_si p_v2f32 p_f32"},
    {"OpIAddCarry", "p_s2u32 p_u32 p_u32"},
    {"OpISubBorrow", "p_s2u32 p_u32 p_u32"},
    {"OpUMulExtended", "p_s2u32 p_u32 p_u32"},
    {"OpSMulExtended", "p_s2u32 p_u32 p_u32"},
    {"OpVectorShuffle", "p_v2f32 p_v2f32 p_v2f32"},
    {"OpVectorExtractDynamic", "p_f32 p_v4f32 p_u32"},
    {"OpCompositeInsert", "p_v2f32 p_f32 p_v2f32"},
    {"OpGenericCastToPtr", "p_pcwu32 p_pgenu32"},
    {"OpPtrCastToGeneric", "p_pgenu32 p_pcwu32"},
    {"OpGroupAsyncCopy", "p_evt c2 vwgu32 vcwu32 p_u64 p_u64 p_evt"},
    {"OpAll", "p_bool p_v2bool"},
    {"OpAny", "p_bool p_v2bool"},
    {"OpSDot", "p_u32 p_v4u8 p_v4u8"},
    {"OpUDot", "p_u32 p_v4u8 p_v4u8"},
    {"OpSUDot", "p_u32 p_v4u8 p_v4u8"},
    {"OpSDotAccSat", "p_u32 p_v4u8 p_v4u8 p_u32"},
    {"OpUDotAccSat", "p_u32 p_v4u8 p_v4u8 p_u32"},
    {"OpSUDotAccSat", "p_u32 p_v4u8 p_v4u8 p_u32"},
    {"OpGroupNonUniformBallotBitExtract", "p_bool c3 p_v4u32 p_u32"},
    {"OpenCL.std.vloadn", "p_v4f32 p_u64 p_pcwf32"},
    {"OpenCL.std.vstoren", "void p_v4f32 p_u64 p_pcwf32"},
    {"OpenCL.std.vload_half", "p_f32 p_u64 p_pcwf16"},
    {"OpenCL.std.vload_halfn", "p_v4f32 p_u64 p_pcwf16"},
    {"OpenCL.std.vloada_halfn", "p_v4f32 p_u64 p_pcwf16"},
    {"OpenCL.std.vstore_half", "void p_f32 p_u64 p_pcwf16"},
    {"OpenCL.std.vstore_halfn", "void p_v4f32 p_u64 p_pcwf16"},
    {"OpenCL.std.vstorea_halfn", "void p_v4f32 p_u64 p_pcwf16"},
    {"OpenCL.std.prefetch", "void p_pcwf32 p_u64"},
};

inline const Spec kShader{kShaderPool,    kShaderTypes, grammar::ExtInstSet::GlslStd450,
                          "GLSL.std.450", kShaderHints, 355};
inline const Spec kKernel{kKernelPool,  kKernelTypes, grammar::ExtInstSet::OpenclStd100,
                          "OpenCL.std", kKernelHints, 465};

inline const std::string kSpecShaderText = specConstantPool(kSpecShaderPool, kSpecShaderTypes);
inline const std::string kSpecKernelText = specConstantPool(kSpecKernelPool, kSpecKernelTypes);
// Composites to insert into and addresses to take, for the operations whose operands the search
// does not find one at a time.
constexpr Hint kSpecShaderHints[] = {
    {"OpSpecConstantOp.OpCompositeInsert", "k_a2u32 k_u32 k_a2u32"},
    {"OpSpecConstantOp.OpCompositeInsert", "k_v2u32 c_u32 k_v2u32"},
};
constexpr Hint kSpecKernelHints[] = {
    {"OpSpecConstantOp.OpCompositeInsert", "k_a2u32 k_u32 k_a2u32"},
    {"OpSpecConstantOp.OpCompositeInsert", "k_v2u32 c_u32 k_v2u32"},
    {"OpSpecConstantOp.OpAccessChain", "vcwu32 vcwa2u32 c_u32"},
    {"OpSpecConstantOp.OpInBoundsAccessChain", "vcwu32 vcwa2u32 k_u32"},
    {"OpSpecConstantOp.OpPtrAccessChain", "vcwu32 vcwu32 c_u64"},
    {"OpSpecConstantOp.OpPtrAccessChain", "vcwu32 vcwa2u32 c_u32 k_u32"},
    {"OpSpecConstantOp.OpInBoundsPtrAccessChain", "vcwu32 vcwu32 k_u32"},
    {"OpSpecConstantOp.OpInBoundsPtrAccessChain", "vcwu32 vcwa2u32 c_u32 c_u32"},
};

inline const Spec kSpecShader{kSpecShaderText.c_str(), {}, {}, nullptr, kSpecShaderHints, 50};
inline const Spec kSpecKernel{kSpecKernelText.c_str(), {}, {}, nullptr, kSpecKernelHints, 73};

} // namespace spire::val::sweep
