// The corpus the build generates from tests/corpus-src: the manifest lists exactly the modules
// there are, each kind has at least the promised number of modules, spirv-val accepts every
// module in its recorded environment, and together the modules cover the stages, capabilities,
// instructions and extended instruction sets the sources promise.
#include "CorpusSupport.h"
#include "GeneratedCorpusManifest.h"

#include "spire/module/Module.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <set>

using namespace spire;
using namespace spire::test;

namespace {

/// What tests/corpus-src promises for each kind of source.
struct KindPromise {
  std::string_view kind;
  size_t minModules;
};
constexpr KindPromise kPromises[] = {{"glsl", 30}, {"hlsl", 10}, {"opencl", 10}};

class GeneratedCorpus : public ::testing::Test {
protected:
  void SetUp() override {
    std::optional<fs::path> dir = generatedCorpus();
    if (!dir)
      GTEST_SKIP() << "no generated corpus: tests/corpus-src was not built";
    Expected<GeneratedCorpusManifest> m = readGeneratedCorpusManifest(*dir);
    ASSERT_TRUE(m.ok()) << m.error().format();
    manifest_ = std::move(*m);
    for (const auto &[kind, why] : manifest_.skippedKinds)
      std::printf("generated corpus: %s modules skipped at configure time: %s\n", kind.c_str(),
                  why.c_str());
    if (manifest_.skippedKinds.size() == std::size(kGeneratedKinds))
      GTEST_SKIP() << "every kind of generated module was skipped (tools missing)";
  }

  bool skipped(std::string_view kind) const {
    return manifest_.skippedKinds.count(std::string(kind)) != 0;
  }

  GeneratedCorpusManifest manifest_;
};

TEST_F(GeneratedCorpus, ManifestListsEveryModuleOfEachKind) {
  std::set<fs::path> listed;
  for (const GeneratedModule &m : manifest_.modules) {
    EXPECT_FALSE(skipped(m.kind)) << m.name << " is listed but its kind was skipped";
    EXPECT_TRUE(listed.insert(m.file).second) << m.name << " is listed twice";
    std::error_code ec;
    if (!fs::is_regular_file(m.file, ec)) {
      ADD_FAILURE() << m.name << " is listed but was not built (" << m.command << ")";
      continue;
    }
    uintmax_t size = fs::file_size(m.file, ec);
    EXPECT_TRUE(size >= 20 && size % 4 == 0) << m.name << ": " << size << " bytes";
  }
  for (const fs::path &file : filesUnder(*generatedCorpus(), ".spv"))
    EXPECT_TRUE(listed.count(file)) << displayName(file) << " is not in the manifest";

  size_t totalBytes = 0;
  for (const KindPromise &p : kPromises) {
    std::vector<const GeneratedModule *> modules = manifest_.ofKind(p.kind);
    size_t bytes = 0;
    std::error_code ec;
    for (const GeneratedModule *m : modules)
      bytes += fs::is_regular_file(m->file, ec) ? fs::file_size(m->file, ec) : 0;
    totalBytes += bytes;
    if (skipped(p.kind)) {
      std::printf("generated corpus: %s skipped\n", std::string(p.kind).c_str());
      continue;
    }
    std::printf("generated corpus: %zu %s modules (at least %zu promised), %zu bytes\n",
                modules.size(), std::string(p.kind).c_str(), p.minModules, bytes);
    EXPECT_GE(modules.size(), p.minModules) << p.kind << " modules";
  }
  std::printf("generated corpus: %zu modules, %zu bytes in all\n", manifest_.modules.size(),
              totalBytes);
}

TEST_F(GeneratedCorpus, SpirvValAcceptsEveryModuleInItsEnvironment) {
  if (!haveTool(referenceTool("spirv-val")))
    GTEST_SKIP() << "no spirv-val";
  Tally tally("spirv-val on the generated corpus");
  const std::vector<GeneratedModule> &modules = manifest_.modules;
  parallelFor(modules.size(), [&](size_t i) {
    const GeneratedModule &m = modules[i];
    ToolResult r =
        runTool({referenceTool("spirv-val"), "--target-env", m.targetEnv, m.file.string()});
    tally.compared();
    if (r.exitCode != 0) {
      std::string first = r.err.substr(0, r.err.find('\n'));
      if (std::optional<std::string> why = knownReferenceBug("generated-val", m.file))
        tally.explained(m.file, *why);
      else
        tally.differed(m.file, "rejected in " + m.targetEnv + ": " + first);
    }
  });
  EXPECT_EQ(tally.numCompared(), modules.size());
  EXPECT_TRUE(tally.report());
}

/// What the coverage test looks for in the modules.
enum class Feature { ExecutionModel, Capability, Opcode, ExtInstSet, ExtInst, AddressingModel };

/// What one kind of module uses, over all its modules.
struct Usage {
  std::map<Feature, std::map<std::string, size_t>> uses; ///< feature -> name -> times used
  std::map<std::string, size_t> versions;                ///< "1.5" -> modules

  void add(Feature f, std::string name) { uses[f][std::move(name)]++; }
  const std::map<std::string, size_t> &of(Feature f) const {
    static const std::map<std::string, size_t> none;
    auto it = uses.find(f);
    return it == uses.end() ? none : it->second;
  }
  bool has(Feature f, const std::string &name) const { return of(f).count(name) != 0; }
};

std::string enumerantName(grammar::OperandKind kind, uint32_t value) {
  const grammar::EnumerantDesc *e = grammar::findEnumerant(kind, value);
  return e ? std::string(e->name) : std::to_string(value);
}

void collectUsage(const Module &module, Usage &usage) {
  uint32_t version = module.version();
  usage.versions[std::to_string(grammar::versionMajor(version)) + "." +
                 std::to_string(grammar::versionMinor(version))]++;
  std::map<uint32_t, std::string> imports;
  for (Instruction inst : module) {
    const grammar::InstructionDesc *desc = inst.desc();
    usage.add(Feature::Opcode, desc ? std::string(desc->name) : "unknown");
    auto firstWord = [&] { return inst.operandWords(inst.operands()[0])[0]; };
    switch (inst.opcode()) {
    case grammar::Op::EntryPoint:
      usage.add(Feature::ExecutionModel,
                enumerantName(grammar::OperandKind::ExecutionModel, firstWord()));
      break;
    case grammar::Op::Capability:
      usage.add(Feature::Capability, enumerantName(grammar::OperandKind::Capability, firstWord()));
      break;
    case grammar::Op::MemoryModel:
      usage.add(Feature::AddressingModel,
                enumerantName(grammar::OperandKind::AddressingModel, firstWord()));
      break;
    case grammar::Op::ExtInstImport: {
      std::string name = inst.stringOperand(inst.operands()[1]);
      imports[inst.resultId()] = name;
      usage.add(Feature::ExtInstSet, name);
      break;
    }
    case grammar::Op::ExtInst: {
      uint32_t set = inst.word(3), number = inst.word(4);
      const grammar::ExtInstSetDesc *desc = module.extInstImport(set).set;
      const grammar::ExtInstDesc *ext = desc ? grammar::findExtInst(*desc, number) : nullptr;
      usage.add(Feature::ExtInst,
                imports[set] + "/" + (ext ? std::string(ext->name) : std::to_string(number)));
      break;
    }
    default:
      break;
    }
  }
}

/// Something a kind of module must use somewhere in the generated corpus.
struct Promise {
  std::string_view kind;
  Feature what;
  std::string_view names; ///< separated by spaces
};

const std::vector<Promise> &promises() {
  static const std::vector<Promise> list = {
      // GLSL: every stage, ray tracing and mesh shading.
      {"glsl", Feature::ExecutionModel,
       "Vertex TessellationControl TessellationEvaluation Geometry Fragment GLCompute "
       "RayGenerationKHR IntersectionKHR AnyHitKHR ClosestHitKHR MissKHR CallableKHR TaskEXT "
       "MeshEXT"},
      {"glsl", Feature::Capability,
       "RayTracingKHR RayQueryKHR MeshShadingEXT Tessellation Geometry TransformFeedback "
       "GeometryStreams MultiView ClipDistance SampleRateShading InterpolationFunction "
       "DerivativeControl FragmentShaderPixelInterlockEXT DemoteToHelperInvocation"},
      // GLSL: subgroups.
      {"glsl", Feature::Capability,
       "GroupNonUniform GroupNonUniformVote GroupNonUniformBallot GroupNonUniformArithmetic "
       "GroupNonUniformShuffle GroupNonUniformShuffleRelative GroupNonUniformClustered "
       "GroupNonUniformQuad"},
      // GLSL: 8/16/64-bit types, their storage, atomics.
      {"glsl", Feature::Capability,
       "Int8 Int16 Int64 Float16 Float64 StorageBuffer8BitAccess StoragePushConstant8 "
       "StorageBuffer16BitAccess StoragePushConstant16 StorageInputOutput16 Int64Atomics "
       "AtomicFloat32AddEXT AtomicFloat32MinMaxEXT AtomicStorage"},
      // GLSL: images, descriptors, memory.
      {"glsl", Feature::Capability,
       "SampledBuffer ImageBuffer InputAttachment SparseResidency MinLod ImageGatherExtended "
       "StorageImageExtendedFormats ImageQuery StorageImageMultisample SampledCubeArray "
       "Sampled1D RuntimeDescriptorArray ShaderNonUniform SampledImageArrayNonUniformIndexing "
       "PhysicalStorageBufferAddresses VulkanMemoryModel VulkanMemoryModelDeviceScope"},
      // GLSL: constants, control flow, functions, debug information.
      {"glsl", Feature::Opcode,
       "OpSpecConstant OpSpecConstantTrue OpSpecConstantFalse OpSpecConstantComposite "
       "OpSpecConstantOp OpSwitch OpLoopMerge OpSelectionMerge OpPhi OpKill OpReturnValue "
       "OpFunctionCall OpDemoteToHelperInvocation OpIsHelperInvocationEXT OpOuterProduct "
       "OpMatrixTimesMatrix OpTranspose OpDPdxFine OpArrayLength OpCopyObject OpLine OpSource "
       "OpSourceExtension"},
      // GLSL: atomics, barriers, images.
      {"glsl", Feature::Opcode,
       "OpAtomicIAdd OpAtomicCompareExchange OpAtomicUMin OpAtomicSMax OpAtomicFAddEXT "
       "OpAtomicFMinEXT OpAtomicLoad OpAtomicStore OpAtomicExchange OpImageTexelPointer "
       "OpControlBarrier OpMemoryBarrier OpImageSparseSampleImplicitLod OpImageSparseFetch "
       "OpImageSparseTexelsResident OpImageGather OpImageDrefGather OpImageFetch OpImageRead "
       "OpImageWrite OpImageQueryLod OpImageQueryLevels OpImageQuerySamples "
       "OpImageSampleProjDrefImplicitLod OpImageSampleExplicitLod OpSampledImage OpConvertUToPtr "
       "OpConvertPtrToU"},
      // GLSL: ray tracing, mesh shading, geometry, interlock, subgroups.
      {"glsl", Feature::Opcode,
       "OpTraceRayKHR OpExecuteCallableKHR OpReportIntersectionKHR OpIgnoreIntersectionKHR "
       "OpTerminateRayKHR OpRayQueryInitializeKHR OpRayQueryProceedKHR "
       "OpRayQueryConfirmIntersectionKHR OpRayQueryGenerateIntersectionKHR OpEmitMeshTasksEXT "
       "OpSetMeshOutputsEXT OpEmitVertex OpEndPrimitive OpEmitStreamVertex "
       "OpBeginInvocationInterlockEXT OpGroupNonUniformBallot OpGroupNonUniformShuffleXor "
       "OpGroupNonUniformQuadSwap"},
      {"glsl", Feature::ExtInstSet, "GLSL.std.450 NonSemantic.Shader.DebugInfo.100"},
      {"glsl", Feature::ExtInst,
       "GLSL.std.450/MatrixInverse GLSL.std.450/Determinant GLSL.std.450/InterpolateAtSample "
       "GLSL.std.450/PackHalf2x16 GLSL.std.450/UnpackDouble2x32 GLSL.std.450/Fma "
       "NonSemantic.Shader.DebugInfo.100/DebugFunction "
       "NonSemantic.Shader.DebugInfo.100/DebugLine"},
      {"glsl", Feature::AddressingModel, "Logical PhysicalStorageBuffer64"},
      // HLSL: the graphics stages and compute.
      {"hlsl", Feature::ExecutionModel,
       "Vertex TessellationControl TessellationEvaluation Geometry Fragment GLCompute"},
      {"hlsl", Feature::Capability,
       "GroupNonUniformArithmetic GroupNonUniformBallot GroupNonUniformQuad Float16 Int16 "
       "StorageInputOutput16 ShaderViewportIndexLayerEXT InputAttachment ImageQuery "
       "SampledBuffer ImageBuffer ClipDistance Tessellation Geometry"},
      {"hlsl", Feature::Opcode,
       "OpDecorateString OpSpecConstant OpSpecConstantTrue OpLine OpAtomicIAdd OpAtomicUMax "
       "OpControlBarrier OpImageGather OpImageSampleDrefExplicitLod OpImageQueryLod "
       "OpImageQuerySizeLod OpKill OpEmitVertex OpEndPrimitive OpSwitch OpLoopMerge"},
      {"hlsl", Feature::ExtInstSet, "GLSL.std.450"},
      // OpenCL C: kernels, types, images, groups, pipes, device-side enqueue.
      {"opencl", Feature::ExecutionModel, "Kernel"},
      {"opencl", Feature::Capability,
       "Kernel Addresses Linkage Int8 Int16 Int64 Float16Buffer Float64 Vector16 ImageBasic "
       "Sampled1D LiteralSampler ImageReadWrite Groups GroupNonUniform GroupNonUniformBallot "
       "GroupNonUniformShuffle GroupNonUniformShuffleRelative GroupNonUniformArithmetic "
       "GroupNonUniformClustered GroupNonUniformVote Pipes DeviceEnqueue GenericPointer"},
      // OpenCL C: memory, pointers, conversions, control flow.
      {"opencl", Feature::Opcode,
       "OpExtInst OpInBoundsPtrAccessChain OpPtrCastToGeneric OpBitcast OpVectorShuffle OpSwitch "
       "OpPhi OpFunctionCall OpSConvert OpFConvert OpBitCount OpVariable OpLoad OpStore OpUndef "
       "OpConstantNull OpConstantComposite"},
      // OpenCL C: atomics, barriers, group functions, images, pipes, enqueue.
      {"opencl", Feature::Opcode,
       "OpAtomicIIncrement OpAtomicIDecrement OpAtomicCompareExchange OpAtomicSMin OpAtomicUMax "
       "OpAtomicAnd OpAtomicOr OpAtomicXor OpAtomicExchange OpAtomicFlagTestAndSet "
       "OpAtomicFlagClear OpAtomicLoad OpAtomicStore OpMemoryBarrier OpControlBarrier "
       "OpGroupAsyncCopy OpGroupWaitEvents OpGroupIAdd OpGroupFMax OpGroupAny OpGroupBroadcast "
       "OpGroupNonUniformElect OpGroupNonUniformShuffleXor OpImageRead OpImageWrite "
       "OpImageSampleExplicitLod OpConstantSampler OpImageQuerySizeLod OpImageQueryFormat "
       "OpImageQueryOrder OpReadPipe OpWritePipe OpGroupReserveWritePipePackets "
       "OpReservedWritePipe OpGetNumPipePackets OpEnqueueKernel OpGetDefaultQueue OpBuildNDRange "
       "OpRetainEvent OpReleaseEvent"},
      {"opencl", Feature::ExtInstSet, "OpenCL.std"},
      {"opencl", Feature::ExtInst,
       "OpenCL.std/printf OpenCL.std/prefetch OpenCL.std/vloadn OpenCL.std/vstoren "
       "OpenCL.std/vload_half OpenCL.std/vstore_halfn_r OpenCL.std/shuffle2 OpenCL.std/s_mad_hi "
       "OpenCL.std/u_mul_hi OpenCL.std/rotate OpenCL.std/clz OpenCL.std/ctz "
       "OpenCL.std/u_upsample OpenCL.std/s_mad24 OpenCL.std/fma OpenCL.std/sincos "
       "OpenCL.std/atan2 OpenCL.std/native_sin OpenCL.std/half_cos OpenCL.std/tgamma "
       "OpenCL.std/fract OpenCL.std/frexp OpenCL.std/ldexp OpenCL.std/cross "
       "OpenCL.std/fast_normalize OpenCL.std/select OpenCL.std/bitselect OpenCL.std/s_add_sat "
       "OpenCL.std/fmin OpenCL.std/rootn"},
      {"opencl", Feature::AddressingModel, "Physical32 Physical64"},
  };
  return list;
}

std::vector<std::string_view> splitSpaces(std::string_view text) {
  std::vector<std::string_view> words;
  while (!text.empty()) {
    size_t space = text.find(' ');
    if (space != 0)
      words.push_back(text.substr(0, space));
    text = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
  }
  return words;
}

const char *featureName(Feature what) {
  switch (what) {
  case Feature::ExecutionModel:
    return "execution model";
  case Feature::Capability:
    return "capability";
  case Feature::Opcode:
    return "instruction";
  case Feature::ExtInstSet:
    return "extended instruction set";
  case Feature::ExtInst:
    return "extended instruction";
  case Feature::AddressingModel:
    return "addressing model";
  }
  return "?";
}

/// The operand kind whose enumerants name what a promise lists, if it is one.
std::optional<grammar::OperandKind> enumerantKind(Feature what) {
  switch (what) {
  case Feature::ExecutionModel:
    return grammar::OperandKind::ExecutionModel;
  case Feature::Capability:
    return grammar::OperandKind::Capability;
  case Feature::AddressingModel:
    return grammar::OperandKind::AddressingModel;
  default:
    return std::nullopt;
  }
}

/// The grammar's canonical name for a promised name (which may be an alias), so that promises
/// hold whichever grammar version the build uses.
std::string canonicalName(Feature what, std::string_view name) {
  if (what == Feature::Opcode) {
    const grammar::InstructionDesc *d = grammar::findInstruction(name);
    return d ? std::string(d->name) : std::string(name);
  }
  if (std::optional<grammar::OperandKind> kind = enumerantKind(what))
    if (const grammar::EnumerantDesc *e = grammar::findEnumerant(*kind, name))
      return enumerantName(*kind, e->value);
  return std::string(name);
}

TEST_F(GeneratedCorpus, CoversPromisedStagesCapabilitiesAndInstructions) {
  std::map<std::string, Usage> usage;
  for (const GeneratedModule &m : manifest_.modules) {
    std::vector<uint8_t> bytes = readBytes(m.file);
    Expected<Module> module = Module::fromBytes(bytes);
    if (!module) {
      ADD_FAILURE() << module.error().format(m.name);
      continue;
    }
    collectUsage(*module, usage[m.kind]);
  }

  for (std::string_view kind : kGeneratedKinds) {
    if (skipped(kind))
      continue;
    const Usage &u = usage[std::string(kind)];
    std::string line = std::string(kind) + " entry points:";
    for (const auto &[model, n] : u.of(Feature::ExecutionModel))
      line += " " + model + " " + std::to_string(n) + ",";
    line += " SPIR-V versions:";
    for (const auto &[version, n] : u.versions)
      line += " " + version + " (" + std::to_string(n) + ")";
    std::printf("%s; %zu capabilities, %zu distinct instructions, %zu extended instructions\n",
                line.c_str(), u.of(Feature::Capability).size(), u.of(Feature::Opcode).size(),
                u.of(Feature::ExtInst).size());
  }

  size_t checked = 0, missing = 0;
  for (const Promise &p : promises()) {
    if (skipped(p.kind))
      continue;
    const Usage &u = usage[std::string(p.kind)];
    for (std::string_view name : splitSpaces(p.names)) {
      ++checked;
      if (!u.has(p.what, canonicalName(p.what, name))) {
        ++missing;
        ADD_FAILURE() << "no " << p.kind << " module uses the " << featureName(p.what) << " "
                      << name;
      }
    }
  }
  std::printf("generated corpus coverage: %zu promised features checked, %zu missing\n", checked,
              missing);
}

} // namespace
