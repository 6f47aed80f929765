// The DXIL translator's differential test: every corpus compute shader spire translates is also
// translated by the oracle (dxil-spirv with --ssbo-uav --ssbo-srv), both modules are dispatched
// on one Vulkan device (lavapipe without a GPU) through the runner's raw shader run (what
// `spire run shader.spv --buffer S:B=random:SEED:BYTES` does) with the same seeded data bound
// to the same D3D resources, and every binding is read back and compared afterwards (buffers,
// texel buffers, images): bit-exact, or within a few ulps per word in modules that use float
// transcendental functions. The oracle puts every class at binding = register (t0 and u0
// collide), spire adds per-class offsets: the oracle's descriptors are matched to spire's
// --bindings mapping by space, register and descriptor kind (an SRV sharing a register with a
// UAV: the oracle's NonWritable Restrict one; heaps and UAV counters by their own layouts) and
// renumbered to spire's set and binding. Both get the same formats (the one a module declares,
// else RGBA32 of the sampled type; R32 for image atomics; D32_SFLOAT with depths in [0, 1) and
// comparison samplers for depth comparisons), the same push constants, and runtime arrays of
// descriptors rewritten to fixed arrays in both (Mesa 22's lavapipe has no runtime descriptor
// arrays): of two descriptors per invocation where the device's limits allow, else of 8. A
// shader tracing rays gets the same scene in its acceleration structures and floats in [0, 1)
// in its buffers; multisampled images start cleared in both (what a shader writes to them is
// compared through what it reads back into buffers). Shaders whose resources cannot be bound
// alike (textures of several sampled types in one array) or that the device cannot run are
// skipped with the reason. A mismatch fails unless
// tests/corpus/dxil-translate-run-known-differences.txt lists the file with its reason. One
// workgroup per shader (the corpus shaders index descriptor arrays by thread id, sized for one
// group). The device runs happen in a child process, so that a driver crash costs one shader:
// spire's module crashing is a mismatch; when the run crashes before spire's module (while the
// oracle's runs, or in the run's own set-up), spire's module runs again alone in a new child: if
// it runs, the oracle's module crashed the driver (a skip), if not, the crash is the run's or the
// driver's with both (a mismatch, for tests/corpus/dxil-translate-run-known-differences.txt to
// explain).
#include "CorpusSupport.h"
#include "unit/translate/RuntimeDescriptorArrays.h"

#include "spire/run/ComputePipeline.h"
#include "spire/run/Device.h"
#include "spire/run/Reflection.h"
#include "spire/run/ScriptRunner.h"
#include "spire/run/ShaderRun.h"
#include "spire/translate/DxilToSpirv.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <sys/wait.h>
#include <unistd.h>

using namespace spire;
using namespace spire::test;
using spire::translate::test::forEachInstruction;

namespace {

constexpr uint32_t kStorageBufferBytes = 16384;
/// The descriptors bound to each runtime array of descriptors (unbounded arrays, heaps; made
/// fixed arrays, as Mesa 22's llvmpipe has no runtime descriptor arrays) where the device's
/// per-stage limits cannot take one per invocation of the workgroup (Mesa 22's: 15 uniform
/// buffers a stage).
constexpr uint32_t kFewRuntimeDescriptors = 8;
/// Words that differ by at most this many ulps (as floats) are equal in modules that use
/// transcendental functions, whose precision Vulkan leaves to the implementation.
constexpr int64_t kUlpTolerance = 16;

std::optional<fs::path> oracleProgram() {
  std::optional<fs::path> corpus = sharedCorpus();
  if (!corpus)
    return std::nullopt;
  fs::path p = corpus->parent_path() / "tools" / "dxil-spirv" / "bin" / "dxil-spirv";
  if (!fs::exists(p))
    return std::nullopt;
  return p;
}

/// The compute shaders of the DXIL corpus (shader model cs_*), by the manifest.
std::vector<fs::path> computeShaders(const fs::path &dxilDir) {
  std::vector<fs::path> files;
  for (const std::vector<std::string> &row : readTsv(dxilDir / "MANIFEST.tsv"))
    if (row.size() > 4 && row[4].starts_with("cs_"))
      files.push_back(dxilDir / row[0]);
  return files;
}

// ---- SPIR-V words -------------------------------------------------------------------------

constexpr uint32_t kOpExtension = 10, kOpExtInstImport = 11, kOpExtInst = 12, kOpVariable = 59,
                   kOpImageTexelPointer = 60, kOpDecorate = 71;
constexpr uint32_t kDecorationRestrict = 19, kDecorationNonWritable = 24, kDecorationBinding = 33,
                   kDecorationDescriptorSet = 34;

/// Whether the module calls a GLSL.std.450 transcendental or root (Sin ... InverseSqrt).
bool usesTranscendentals(const std::vector<uint32_t> &words) {
  std::set<uint32_t> glsl;
  bool uses = false;
  forEachInstruction(words, [&](uint32_t op, std::span<const uint32_t> o, size_t) {
    if (op == kOpExtInstImport && o.size() > 1) {
      const char *name = reinterpret_cast<const char *>(o.data() + 1);
      if (std::strncmp(name, "GLSL.std.450", (o.size() - 1) * 4) == 0)
        glsl.insert(o[0]);
    }
    if (op == kOpExtInst && o.size() > 3 && glsl.count(o[2]) && o[3] >= 13 && o[3] <= 32)
      uses = true;
  });
  return uses;
}

Expected<run::ModuleInterface> interfaceOf(const std::vector<uint32_t> &words) {
  Expected<Module> m = Module::fromWords(words);
  if (!m)
    return m.error();
  return run::reflect(*m);
}

/// The oracle's decorated variables: where it put them and how it decorated them.
struct OracleDescriptor {
  uint32_t variable = 0;
  uint32_t set = ~0u, binding = ~0u;
  size_t setWord = 0, bindingWord = 0; ///< where the literals are, to renumber them
  bool nonWritable = false, restrict = false;
};

std::vector<OracleDescriptor> oracleDescriptors(const std::vector<uint32_t> &words) {
  std::map<uint32_t, OracleDescriptor> vars;
  forEachInstruction(words, [&](uint32_t op, std::span<const uint32_t> o, size_t at) {
    if (op == kOpVariable && o.size() >= 3)
      vars[o[1]].variable = o[1];
    if (op == kOpDecorate && o.size() >= 2) {
      OracleDescriptor &d = vars[o[0]];
      if (o[1] == kDecorationDescriptorSet && o.size() >= 3)
        d.set = o[2], d.setWord = at + 2;
      if (o[1] == kDecorationBinding && o.size() >= 3)
        d.binding = o[2], d.bindingWord = at + 2;
      if (o[1] == kDecorationNonWritable)
        d.nonWritable = true;
      if (o[1] == kDecorationRestrict)
        d.restrict = true;
    }
  });
  std::vector<OracleDescriptor> out;
  for (auto &[id, d] : vars)
    if (d.variable && d.setWord && d.bindingWord)
      out.push_back(d);
  return out;
}

/// Whether two descriptors can hold one UAV counter alike: a storage buffer whose first word
/// is the counter, or an R32_UINT storage texel buffer whose first texel is.
bool sameCounter(const run::Resource &a, const run::Resource &b) {
  auto holds = [](const run::Resource &r) {
    return r.kind == run::DescriptorKind::StorageBuffer ||
           (r.kind == run::DescriptorKind::StorageTexelBuffer &&
            r.imageFormat == VK_FORMAT_R32_UINT);
  };
  return holds(a) && holds(b);
}

/// Renumbers the oracle's descriptors to spire's set and binding of the same D3D resource,
/// matched by space, register and descriptor kind (both modules' reflection): the oracle may
/// declare several variables for one resource (views with other element types); where an SRV
/// and a UAV share a space, register and kind, its SRVs are the NonWritable Restrict ones. Its
/// SM 6.6 heaps (runtime arrays at set 0, binding 0, one per kind; the heap's counters at set
/// 7) go to spire's heap binding of their kind, its UAV counters (set 7, binding = the UAV's index
/// among the UAVs) to spire's counter buffers. Fails (with why) when a descriptor of the oracle
/// matches none of spire's, or several.
std::optional<std::string> renumberOracle(std::vector<uint32_t> &words,
                                          const translate::TranslatedShader &spire) {
  auto oracleMi = interfaceOf(words);
  auto spireMi = interfaceOf(spire.words);
  if (!oracleMi || !spireMi)
    return "reflection: " + (oracleMi ? spireMi.error().message : oracleMi.error().message);
  const std::vector<translate::DescriptorBinding> &bs = spire.bindings;
  std::vector<uint32_t> uavIndex(bs.size(), ~0u);
  for (uint32_t i = 0, n = 0; i < bs.size(); ++i)
    if (bs[i].resourceClass == dxil::ResourceClass::UAV && !bs[i].counter && !bs[i].heap)
      uavIndex[i] = n++;
  std::map<uint32_t, const run::Resource *> oracleVars;
  for (const run::Resource &r : oracleMi->resources)
    oracleVars[r.variable] = &r;
  for (const OracleDescriptor &d : oracleDescriptors(words)) {
    auto var = oracleVars.find(d.variable);
    if (var == oracleVars.end())
      continue; // not a descriptor (an input with a stray binding)
    const run::Resource &o = *var->second;
    std::vector<size_t> candidates;
    for (size_t i = 0; i < bs.size(); ++i) {
      const run::Resource *mine = spireMi->find(bs[i].set, bs[i].binding);
      if (!mine || !(mine->kind == o.kind || (bs[i].counter && sameCounter(*mine, o))))
        continue;
      const bool counterMatch =
          bs[i].counter && !bs[i].heap && d.set == 7 && i > 0 && uavIndex[i - 1] == d.binding;
      const bool heapMatch =
          bs[i].heap && o.count == 0 && (bs[i].counter ? d.set == 7 : d.set == 0 && d.binding == 0);
      const bool unbounded = bs[i].rangeSize == 0 || bs[i].rangeSize == 0xFFFFFFFFu;
      const bool resourceMatch = !bs[i].counter && !bs[i].heap && bs[i].space == d.set &&
                                 bs[i].lowerBound == d.binding && unbounded == (o.count == 0);
      if (counterMatch || heapMatch || resourceMatch)
        candidates.push_back(i);
    }
    if (candidates.size() > 1)
      std::erase_if(candidates, [&](size_t i) {
        return (bs[i].resourceClass == dxil::ResourceClass::SRV) != (d.nonWritable && d.restrict);
      });
    if (candidates.size() != 1)
      return "the oracle's " + std::string(run::descriptorKindName(o.kind)) + " at set " +
             std::to_string(d.set) + ", binding " + std::to_string(d.binding) + " matches " +
             (candidates.empty() ? "none" : "several") + " of spire's";
    words[d.setWord] = bs[candidates[0]].set;
    words[d.bindingWord] = bs[candidates[0]].binding;
  }
  return std::nullopt;
}

// ---- one shader -----------------------------------------------------------------------------

struct Prepared {
  fs::path file;
  std::optional<translate::TranslatedShader> spire;
  std::vector<uint32_t> oracle;
  std::string skip; ///< why it is not run (empty: run it)
};

/// The scene of an acceleration structure, as the raw shader run takes it (triangles of three
/// vertices x y z): two squares seen from above, x in [0, 0.5] at z = 0.5 and x, y in
/// [0.5, 1] at z = 0.25, so that rays down from points of the unit square hit one, the other
/// or nothing.
std::vector<uint8_t> sceneBytes() {
  const float squares[] = {0,    0, 0.5f,  0.5f, 0,    0.5f,  0.5f, 1,    0.5f,  0,    0,    0.5f,
                           0.5f, 1, 0.5f,  0,    1,    0.5f,  0.5f, 0.5f, 0.25f, 1,    0.5f, 0.25f,
                           1,    1, 0.25f, 0.5f, 0.5f, 0.25f, 1,    1,    0.25f, 0.5f, 1,    0.25f};
  std::vector<uint8_t> bytes(sizeof squares);
  std::memcpy(bytes.data(), squares, sizeof squares);
  return bytes;
}

uint64_t seedOf(const std::string &name, uint32_t set, uint32_t binding) {
  uint64_t h = 1469598103934665603ull;
  for (char c : name)
    h = (h ^ uint8_t(c)) * 1099511628211ull;
  return h ^ (uint64_t(set) << 32 | binding);
}

/// "word N: spire 0x... oracle 0x..." for the first difference; empty when equal (within the
/// tolerance where `tolerant`). Counts the words that differ.
std::string compareBuffers(const std::vector<uint8_t> &a, const std::vector<uint8_t> &b,
                           bool tolerant, size_t &differing) {
  differing = 0;
  std::string first;
  if (a.size() != b.size())
    return "sizes " + std::to_string(a.size()) + " and " + std::to_string(b.size());
  for (size_t i = 0; i + 4 <= a.size(); i += 4) {
    uint32_t x, y;
    std::memcpy(&x, a.data() + i, 4);
    std::memcpy(&y, b.data() + i, 4);
    if (x == y)
      continue;
    if (tolerant) {
      float fx, fy;
      std::memcpy(&fx, &x, 4);
      std::memcpy(&fy, &y, 4);
      auto ordered = [](uint32_t u) { return u >> 31 ? -int64_t(u & 0x7FFFFFFF) : int64_t(u); };
      if (!std::isnan(fx) && !std::isnan(fy) &&
          std::llabs(ordered(x) - ordered(y)) <= kUlpTolerance)
        continue;
    }
    if (differing++ == 0) {
      char text[96];
      std::snprintf(text, sizeof text, "word %zu: spire 0x%08x, oracle 0x%08x", i / 4, x, y);
      first = text;
    }
  }
  return first;
}

/// Whether a module has one of these instructions.
bool usesAny(const std::vector<uint32_t> &words, std::initializer_list<uint32_t> opcodes) {
  bool uses = false;
  forEachInstruction(words, [&](uint32_t op, std::span<const uint32_t>, size_t) {
    uses = uses || std::find(opcodes.begin(), opcodes.end(), op) != opcodes.end();
  });
  return uses;
}

/// Image atomics (pointers to texels), and depth comparisons (sampling and gathers).
const std::initializer_list<uint32_t> kImageAtomicOps = {kOpImageTexelPointer};
const std::initializer_list<uint32_t> kDepthCompareOps = {89, 90, 93, 94, 97, 307, 308, 312};

/// What a binding read back holds when the shader wrote nothing: its data, of which an image
/// (each element) shows the first `readBack / elements` bytes of its part.
std::vector<uint8_t> initialContents(const std::vector<uint8_t> &data, const run::Resource *r,
                                     size_t readBack) {
  if (!r || !run::isImageKind(r->kind) || data.empty())
    return data;
  const size_t count = r->count ? r->count : 1; // the arrays are fixed before the run
  const size_t part = data.size() / count, each = readBack / count;
  std::vector<uint8_t> out;
  for (size_t e = 0; e < count; ++e) {
    out.insert(out.end(), data.begin() + e * part, data.begin() + e * part + std::min(part, each));
    out.resize((e + 1) * each, 0);
  }
  return out;
}

/// A validation message without the object handles and the spec quotation, so that skips
/// group: "VUID-...: <what it says>".
std::string validationSummary(const std::string &message) {
  std::string m = message;
  const size_t vuid = m.find("[ ");
  const size_t id = m.find("| MessageID");
  if (vuid != std::string::npos && id != std::string::npos) {
    const size_t bar = m.find("| ", id + 2);
    const size_t end = m.find(" The Vulkan spec states");
    const size_t close = m.find(" ]", vuid);
    if (bar != std::string::npos && close != std::string::npos)
      m = m.substr(vuid + 2, close - vuid - 2) + ": " +
          m.substr(bar + 2, end == std::string::npos ? std::string::npos : end - bar - 2);
  }
  return m;
}

/// The descriptors of each runtime array of descriptors on a device, and the bound below which
/// constant buffers' words are kept where the module indexes such arrays (see runPair).
struct RuntimeArrays {
  uint32_t length = kFewRuntimeDescriptors, indexBound = kFewRuntimeDescriptors;
};

/// The corpus's bindless shaders index their heaps by thread id, or by a constant buffer's word
/// plus the thread id: a runtime array gets two descriptors per invocation of the workgroup and
/// constant buffers words below the group's size where the device's per-stage limits take that
/// many in every array of the module, else kFewRuntimeDescriptors (and words below it).
RuntimeArrays runtimeArrays(const run::VulkanContext &ctx, const run::ModuleInterface &mi) {
  uint32_t invocations = 0;
  for (const run::EntryPoint &ep : mi.entryPoints)
    if (ep.model == "GLCompute")
      invocations = std::max(invocations, ep.localSize[0] * ep.localSize[1] * ep.localSize[2]);
  if (invocations <= kFewRuntimeDescriptors / 2)
    return {};
  // The layout with the runtime arrays that long: a binding once however many variables alias
  // it (the resources come sorted), all in set 0, since sets past the device's limit are moved
  // later (lowerDescriptorSets) and the limits that matter here are per stage.
  std::vector<run::LayoutBinding> bindings;
  for (size_t i = 0; i < mi.resources.size(); ++i) {
    const run::Resource &r = mi.resources[i];
    if (i && mi.resources[i - 1].set == r.set && mi.resources[i - 1].binding == r.binding)
      continue;
    bindings.push_back({0, r.binding, r.kind, r.count ? r.count : 2 * invocations});
  }
  const bool fits = !run::exceededLayoutLimit(ctx, bindings, 0);
  return fits ? RuntimeArrays{2 * invocations, invocations} : RuntimeArrays{};
}

/// Moves descriptor sets at or past `maxSets` (the device's maxBoundDescriptorSets; D3D register
/// spaces such as 100 become such sets) to the lowest sets neither module uses, the same in
/// both modules and in spire's binding list; false when there are not enough free sets.
bool lowerDescriptorSets(translate::TranslatedShader &spire, std::vector<uint32_t> &oracle,
                         uint32_t maxSets) {
  std::set<uint32_t> used;
  for (std::vector<uint32_t> *words : {&spire.words, &oracle})
    forEachInstruction(*words, [&](uint32_t op, std::span<const uint32_t> o, size_t) {
      if (op == kOpDecorate && o.size() >= 3 && o[1] == kDecorationDescriptorSet)
        used.insert(o[2]);
    });
  std::map<uint32_t, uint32_t> moved;
  uint32_t next = 0;
  for (uint32_t set : used) {
    if (set < maxSets)
      continue;
    while (next < maxSets && used.count(next))
      ++next;
    if (next >= maxSets)
      return false;
    moved[set] = next++;
  }
  for (std::vector<uint32_t> *words : {&spire.words, &oracle})
    forEachInstruction(*words, [&](uint32_t op, std::span<const uint32_t> o, size_t at) {
      if (op == kOpDecorate && o.size() >= 3 && o[1] == kDecorationDescriptorSet &&
          moved.count(o[2]))
        (*words)[at + 2] = moved[o[2]];
    });
  for (translate::DescriptorBinding &b : spire.bindings)
    if (moved.count(b.set))
      b.set = moved[b.set];
  return true;
}

/// What became of one shader on the device.
struct Outcome {
  enum Kind { Skip, Equal, Mismatch } kind = Skip;
  std::string detail; ///< the skip reason or the difference
  bool tolerated = false, wrote = false;
  bool withoutLayers = false; ///< run on the device without the validation layers
};

/// Whether a module declares this extension.
bool declaresExtension(const std::vector<uint32_t> &words, std::string_view name) {
  bool found = false;
  forEachInstruction(words, [&](uint32_t op, std::span<const uint32_t> o, size_t) {
    if (op == kOpExtension && !o.empty()) {
      const char *text = reinterpret_cast<const char *>(o.data());
      found = found || std::string_view(text, strnlen(text, o.size() * 4)) == name;
    }
  });
  return found;
}

/// The devices of a child: one with the validation layers, and one without them made when a
/// pair needs it (the layers' SPIR-V validator may predate an extension the device has).
struct Devices {
  run::VulkanContext &layered;
  std::unique_ptr<run::VulkanContext> plain;
  std::string plainError;
  run::VulkanContext *withoutLayers() {
    if (!plain && plainError.empty()) {
      run::DeviceOptions options;
      options.validation = false;
      auto ctx = run::VulkanContext::create(options);
      if (ctx)
        plain = std::move(*ctx);
      else
        plainError = ctx.error().message;
    }
    return plain.get();
  }
};

/// Runs both translations of `p` on the device with the same buffers and compares them; writes
/// "P" to `progress` when the oracle's module has run and spire's starts. With `oracleCrashed`
/// (an earlier child crashed before spire's module ran), only spire's module runs: a skip that
/// blames the oracle's module when it runs.
Outcome runPair(Devices &devices, const Prepared &p, FILE *progress, bool oracleCrashed) {
  run::VulkanContext &ctx = devices.layered;
  const std::string name = p.file.filename().string();
  // Translated again for a device that needs what spire run asks of the translator for it
  // (tools/spire/run/RunMain.cpp adaptToDevice): the KHR compute derivatives, or typed UAVs
  // read with their R32 format; only a module those change (the NV extension, images read
  // without a format). The bindings do not change.
  std::optional<translate::TranslatedShader> adapted;
  auto plain = interfaceOf(p.spire->words);
  const RuntimeArrays arrays = plain ? runtimeArrays(ctx, *plain) : RuntimeArrays{};
  const uint32_t arrayLength = arrays.length;
  auto has = [](const std::vector<std::string> &list, std::string_view name) {
    return std::find(list.begin(), list.end(), name) != list.end();
  };
  translate::DxilTranslateOptions forDevice;
  forDevice.khrComputeDerivatives = !ctx.extensionUsable("VK_NV_compute_shader_derivatives") &&
                                    ctx.extensionUsable("VK_KHR_compute_shader_derivatives") &&
                                    plain &&
                                    has(plain->extensions, "SPV_NV_compute_shader_derivatives");
  forDevice.typedUavReadsR32 = !ctx.hasFeature("shaderStorageImageReadWithoutFormat") && plain &&
                               has(plain->capabilities, "StorageImageReadWithoutFormat");
  if (forDevice.khrComputeDerivatives || forDevice.typedUavReadsR32) {
    auto again = translate::translateDxilBytes(readBytes(p.file), forDevice);
    if (!again || again->size() != 1)
      return {Outcome::Mismatch,
              "translated for the device: " +
                  (again ? std::string("not one module") : again.error().message)};
    adapted = std::move(again->front());
  }
  // Runtime arrays of descriptors made arrays of arrayLength in both.
  translate::TranslatedShader spire = adapted ? std::move(*adapted) : *p.spire;
  std::vector<uint32_t> oracleWords = p.oracle;
  translate::test::fixRuntimeDescriptorArrays(spire.words, arrayLength);
  translate::test::fixRuntimeDescriptorArrays(oracleWords, arrayLength);
  if (!lowerDescriptorSets(spire, oracleWords, ctx.properties().limits.maxBoundDescriptorSets))
    return {Outcome::Skip, "more descriptor sets than the device binds"};
  auto spireMi = interfaceOf(spire.words);
  auto oracleMi = interfaceOf(oracleWords);
  if (!spireMi || !oracleMi)
    return {Outcome::Mismatch,
            "reflection: " + (spireMi ? oracleMi.error().message : spireMi.error().message)};
  if (oracleMi->pushConstantSize != spireMi->pushConstantSize)
    return {Outcome::Skip, "push constants of other sizes"};
  if (auto why = run::unmetModuleRequirement(ctx, *oracleMi))
    return {Outcome::Skip, "the oracle's module: " + *why};
  if (auto why = run::unmetModuleRequirement(ctx, *spireMi))
    return {Outcome::Skip, "spire's module: " + *why};
  // The same bytes for each D3D resource: random storage buffers, texel buffers and image
  // texels, constant buffers as large as the larger of the two blocks; arrays of descriptors
  // take one part per element (runtime arrays: arrayLength); the same push constants.
  run::ShaderRunRequest spireRun, oracleRun;
  spireRun.words = spire.words;
  oracleRun.words = oracleWords;
  spireRun.runtimeArrayDescriptors = oracleRun.runtimeArrayDescriptors = arrayLength;
  if (spireMi->pushConstantSize)
    spireRun.pushConstants = oracleRun.pushConstants =
        *run::bufferFromSpec("random:" + std::to_string(seedOf(name, ~0u, ~0u)) + ":" +
                                 std::to_string(spireMi->pushConstantSize),
                             nullptr);
  const bool atomicImages =
      usesAny(spire.words, kImageAtomicOps) || usesAny(oracleWords, kImageAtomicOps);
  // Depth comparisons need a depth format (D32_SFLOAT for float textures, with values in
  // [0, 1)) and comparison samplers (LESS).
  const bool depthCompare =
      usesAny(spire.words, kDepthCompareOps) || usesAny(oracleWords, kDepthCompareOps);
  // A module that traces rays gets a scene (sceneBytes) in its acceleration structures and
  // floats in [0, 1) in its other buffers (ray origins, directions, extents).
  const bool traces =
      std::any_of(spireMi->resources.begin(), spireMi->resources.end(), [](const run::Resource &r) {
        return r.kind == run::DescriptorKind::AccelerationStructure;
      });
  auto bytesOf = [arrayLength](const run::Resource &x) {
    const uint32_t count = x.count ? x.count : arrayLength;
    if (x.kind == run::DescriptorKind::Sampler || x.multisampled)
      return 0u; // a multisampled image starts cleared (the run cannot fill one)
    if (x.kind == run::DescriptorKind::AccelerationStructure)
      return uint32_t(sceneBytes().size()) * count;
    if (run::isBufferKind(x.kind) && !x.runtimeStride && x.blockSize > 4)
      return x.blockSize * count; // not a counter: a counter's buffer is a texel buffer's size
    return kStorageBufferBytes * count;
  };
  // Descriptor indices often come from constant buffers: where the module has arrays of
  // descriptors, constant buffers hold words below the smallest array's size (an index past
  // the end is undefined behaviour, which two translations need not agree on).
  uint32_t smallestArray = 0;
  if (plain)
    for (const run::Resource &r : plain->resources) {
      const uint32_t bound = r.count ? r.count : arrays.indexBound;
      if (bound > 1 && (!smallestArray || bound < smallestArray))
        smallestArray = bound;
    }
  for (const run::Resource &r : spireMi->resources) {
    uint32_t bytes = bytesOf(r);
    const run::Resource *o = oracleMi->find(r.set, r.binding);
    if (o && o->count != r.count)
      return {Outcome::Skip, "the oracle's descriptor array has another size"};
    const bool counter = std::any_of(spire.bindings.begin(), spire.bindings.end(),
                                     [&](const translate::DescriptorBinding &b) {
                                       return b.counter && b.set == r.set && b.binding == r.binding;
                                     });
    if (o && o->kind != r.kind && !(counter && sameCounter(r, *o)))
      return {Outcome::Mismatch,
              "binding " + std::to_string(r.set) + ":" + std::to_string(r.binding) + " is a " +
                  std::string(run::descriptorKindName(r.kind)) + " in spire's module, a " +
                  std::string(run::descriptorKindName(o->kind)) + " in the oracle's"};
    if (o)
      bytes = std::max(bytes, bytesOf(*o));
    if (run::isImageKind(r.kind) || run::isTexelBufferKind(r.kind)) {
      // One format for both: the one a module declares, else one of the sampled type (one
      // component where images take atomics, which need R32).
      if (o && o->imageFormat && r.imageFormat && o->imageFormat != r.imageFormat)
        return {Outcome::Skip, "the modules declare other image formats"};
      std::set<char> types;
      for (const run::ModuleInterface *mi : {&*spireMi, &*oracleMi})
        for (const run::Resource &x : mi->resources)
          if (x.set == r.set && x.binding == r.binding && x.sampledType)
            types.insert(x.sampledType);
      if (types.size() > 1 && spireMi->find(r.set, r.binding)->count != 1)
        return {Outcome::Skip, "an array of textures viewed with several sampled types (the raw "
                               "shader run binds one format per array)"};
      if (o && o->sampledType != r.sampledType)
        return {Outcome::Mismatch, "binding " + std::to_string(r.set) + ":" +
                                       std::to_string(r.binding) + " has sampled type " +
                                       r.sampledType + " in spire's module, " + o->sampledType +
                                       " in the oracle's"};
      uint32_t format = o && o->imageFormat ? o->imageFormat : r.imageFormat;
      if (!format && atomicImages && r.sampledType != 'f')
        format = r.sampledType == 'i' ? VK_FORMAT_R32_SINT : VK_FORMAT_R32_UINT;
      if (!format && depthCompare && r.sampledType == 'f' &&
          r.kind == run::DescriptorKind::SampledImage)
        format = VK_FORMAT_D32_SFLOAT;
      if (format)
        spireRun.formats[{r.set, r.binding}] = oracleRun.formats[{r.set, r.binding}] = format;
    }
    if (depthCompare && (r.kind == run::DescriptorKind::Sampler ||
                         r.kind == run::DescriptorKind::CombinedImageSampler)) {
      run::SamplerDesc comparison;
      comparison.compare = true;
      comparison.compareOp = VK_COMPARE_OP_LESS;
      spireRun.samplers[{r.set, r.binding}] = oracleRun.samplers[{r.set, r.binding}] = comparison;
    }
    if (!bytes)
      continue;
    auto data = run::bufferFromSpec("random:" + std::to_string(seedOf(name, r.set, r.binding)) +
                                        ":" + std::to_string(bytes),
                                    nullptr);
    if (r.kind == run::DescriptorKind::AccelerationStructure) {
      data->clear();
      for (uint32_t e = 0; e < (r.count ? r.count : arrayLength); ++e) {
        const std::vector<uint8_t> scene = sceneBytes();
        data->insert(data->end(), scene.begin(), scene.end());
      }
    } else if ((spireRun.formats.count({r.set, r.binding}) &&
                spireRun.formats[{r.set, r.binding}] == VK_FORMAT_D32_SFLOAT) ||
               traces)
      for (size_t i = 0; i + 4 <= data->size(); i += 4) {
        uint32_t w;
        std::memcpy(&w, data->data() + i, 4);
        const float depth = float(w >> 8) * 0x1p-24f;
        std::memcpy(data->data() + i, &depth, 4);
      }
    if (r.kind == run::DescriptorKind::UniformBuffer && smallestArray)
      for (size_t i = 0; i + 4 <= data->size(); i += 4) {
        uint32_t w;
        std::memcpy(&w, data->data() + i, 4);
        w %= smallestArray;
        std::memcpy(data->data() + i, &w, 4);
      }
    spireRun.buffers[{r.set, r.binding}] = *data;
    if (o)
      oracleRun.buffers[{r.set, r.binding}] = *data;
  }
  if (auto why = run::unmetBindingRequirement(ctx, *oracleMi, oracleRun))
    return {Outcome::Skip, "the oracle's module: " + *why};
  if (auto why = run::unmetBindingRequirement(ctx, *spireMi, spireRun))
    return {Outcome::Skip, "spire's module: " + *why};
  run::VulkanContext *runOn = &ctx;
  if (oracleCrashed) {
    std::fputs("P\n", progress);
    std::fflush(progress);
    auto alone = run::runShader(*runOn, *spireMi, spireRun);
    if (!alone)
      return {Outcome::Mismatch, "spire's module does not run: " + alone.error().message};
    return {Outcome::Skip, "the oracle's module crashes the driver (spire's alone runs)"};
  }
  auto oracleResult = run::runShader(*runOn, *oracleMi, oracleRun);
  // Validation layers older than SPV_KHR_compute_shader_derivatives (Debian 12's, 1.3.239)
  // refuse every module that uses it, on a device (Mesa 24 and later) that has only it: both
  // modules run without the layers then (the pipeline corpus test counts the layers' refusal).
  const bool khrDerivatives =
      declaresExtension(oracleWords, "SPV_KHR_compute_shader_derivatives") ||
      declaresExtension(spire.words, "SPV_KHR_compute_shader_derivatives");
  bool withoutLayers = false;
  if ((!oracleResult || !oracleResult->validationMessages.empty()) && khrDerivatives) {
    if (run::VulkanContext *plain = devices.withoutLayers()) {
      runOn = plain;
      withoutLayers = true;
      oracleResult = run::runShader(*runOn, *oracleMi, oracleRun);
    }
  }
  if (!oracleResult || !oracleResult->validationMessages.empty())
    return {Outcome::Skip,
            "the oracle's module does not run: " +
                validationSummary(oracleResult ? oracleResult->validationMessages.front()
                                               : oracleResult.error().message)};
  std::fputs("P\n", progress);
  std::fflush(progress);
  auto spireResult = run::runShader(*runOn, *spireMi, spireRun);
  if (!spireResult)
    return {Outcome::Mismatch, "spire's module does not run: " + spireResult.error().message};
  if (!spireResult->validationMessages.empty())
    return {Outcome::Mismatch, "validation: " + spireResult->validationMessages.front()};
  Outcome out{Outcome::Equal, ""};
  out.withoutLayers = withoutLayers;
  const bool tolerant = usesTranscendentals(spire.words) || usesTranscendentals(oracleWords);
  for (const auto &[key, bytes] : spireResult->buffers) {
    // A comparison of buffers nobody wrote proves little: count the shaders that wrote.
    out.wrote =
        out.wrote || bytes != initialContents(spireRun.buffers[key],
                                              spireMi->find(key.first, key.second), bytes.size());
    auto it = oracleResult->buffers.find(key);
    if (it == oracleResult->buffers.end())
      continue;
    size_t n = 0;
    std::string diff = compareBuffers(bytes, it->second, false, n);
    if (!diff.empty() && tolerant) {
      diff = compareBuffers(bytes, it->second, true, n);
      out.tolerated = out.tolerated || diff.empty();
    }
    if (!diff.empty() && out.kind == Outcome::Equal)
      out = {Outcome::Mismatch, "binding " + std::to_string(key.first) + ":" +
                                    std::to_string(key.second) + ", " + std::to_string(n) +
                                    " words differ, first " + diff};
  }
  return out;
}

/// Runs the shaders from `from` on in a child process with its own device, which writes "S i"
/// before shader i, "P" before spire's module of it and "R i kind tolerated wrote plain
/// detail" after it, or "D message" when it has no device. A driver crash ends only the child: the
/// caller records the shader that was running and starts another child at it (spire's module
/// alone, shader `oracleCrashed`) or after it.
void runInChild(const std::vector<Prepared> &work, size_t from, int fd, size_t oracleCrashed) {
  FILE *out = ::fdopen(fd, "w");
  run::DeviceOptions options;
  options.validation = true;
  auto ctx = run::VulkanContext::create(options);
  if (!ctx) {
    std::fprintf(out, "D %s\n", ctx.error().message.c_str());
    std::fclose(out);
    ::_exit(0);
  }
  std::fprintf(out, "N %s\n", (*ctx)->deviceName().c_str());
  Devices devices{**ctx, nullptr, ""};
  for (size_t i = from; i < work.size(); ++i) {
    if (!work[i].spire || !work[i].skip.empty())
      continue;
    std::fprintf(out, "S %zu\n", i);
    std::fflush(out);
    Outcome o = runPair(devices, work[i], out, i == oracleCrashed);
    std::string detail = o.detail;
    std::replace(detail.begin(), detail.end(), '\n', ' ');
    std::fprintf(out, "R %zu %d %d %d %d %s\n", i, int(o.kind), int(o.tolerated), int(o.wrote),
                 int(o.withoutLayers), detail.c_str());
    std::fflush(out);
  }
  devices.plain.reset();
  ctx->reset();
  std::fclose(out);
  ::_exit(0);
}

class DxilTranslateRun : public ::testing::Test {};

TEST_F(DxilTranslateRun, CorpusComputeShadersComputeWhatTheOracleComputes) {
  std::optional<fs::path> corpus = sharedCorpus();
  if (!corpus || !fs::exists(*corpus / "dxil" / "MANIFEST.tsv"))
    GTEST_SKIP() << "no DXIL corpus (../shared/corpus/dxil)";
  std::optional<fs::path> oracle = oracleProgram();
  if (!oracle)
    GTEST_SKIP() << "no oracle (../shared/tools/dxil-spirv/bin/dxil-spirv)";

  const std::vector<fs::path> files = computeShaders(*corpus / "dxil");
  const std::map<std::string, std::string> known =
      readReasonList("dxil-translate-run-known-differences.txt");
  const fs::path scratch =
      fs::temp_directory_path() / ("spire-dxil-run-" + std::to_string(::getpid()));
  fs::create_directories(scratch);

  // Both translations, in parallel.
  std::vector<Prepared> work(files.size());
  parallelFor(files.size(), [&](size_t i) {
    Prepared &p = work[i];
    p.file = files[i];
    std::vector<uint8_t> bytes = readBytes(p.file);
    auto shaders = translate::translateDxilBytes(bytes, {});
    if (!shaders || shaders->size() != 1)
      return; // not translated by spire: counted, not run
    p.spire = std::move(shaders->front());
    const fs::path out = scratch / (p.file.stem().string() + ".spv");
    ToolResult r = runTool(
        {oracle->string(), p.file.string(), "--ssbo-uav", "--ssbo-srv", "--output", out.string()});
    std::vector<uint8_t> spv = fs::exists(out) ? readBytes(out) : std::vector<uint8_t>{};
    if (r.exitCode != 0 || spv.size() < 20 || spv.size() % 4) {
      p.skip = "the oracle does not translate it";
      return;
    }
    p.oracle.resize(spv.size() / 4);
    std::memcpy(p.oracle.data(), spv.data(), spv.size());
    if (auto why = renumberOracle(p.oracle, *p.spire))
      p.skip = *why;
  });
  fs::remove_all(scratch);

  // The device runs, in child processes.
  std::vector<std::optional<Outcome>> outcomes(work.size());
  std::string deviceName, noDevice;
  constexpr size_t kNone = ~size_t(0);
  size_t oracleCrashed = kNone; // the shader whose oracle's run crashed the last child
  for (size_t from = 0; from < work.size();) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    std::fflush(nullptr);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      ::close(fds[0]);
      runInChild(work, from, fds[1], oracleCrashed);
    }
    ::close(fds[1]);
    FILE *in = ::fdopen(fds[0], "r");
    size_t running = kNone; // the shader the child was running
    bool spireRunning = false;
    char line[4096];
    while (std::fgets(line, sizeof line, in)) {
      std::string_view l(line);
      if (l.ends_with('\n'))
        l.remove_suffix(1);
      if (l.starts_with("D ")) {
        noDevice = l.substr(2);
      } else if (l.starts_with("N ")) {
        deviceName = l.substr(2);
      } else if (l.starts_with("S ")) {
        running = std::stoul(std::string(l.substr(2)));
        spireRunning = false;
      } else if (l == "P") {
        spireRunning = true;
      } else if (l.starts_with("R ")) {
        size_t index = 0;
        int kind = 0, tolerated = 0, wrote = 0, plain = 0, used = 0;
        std::sscanf(line, "R %zu %d %d %d %d %n", &index, &kind, &tolerated, &wrote, &plain, &used);
        outcomes[index] = Outcome{Outcome::Kind(kind), std::string(line + used), tolerated != 0,
                                  wrote != 0, plain != 0};
        if (!outcomes[index]->detail.empty() && outcomes[index]->detail.back() == '\n')
          outcomes[index]->detail.pop_back();
        running = kNone;
      }
    }
    std::fclose(in);
    int status = 0;
    ::waitpid(child, &status, 0);
    if (!noDevice.empty())
      GTEST_SKIP() << "no Vulkan device: " << noDevice;
    if (running == kNone)
      break;
    const std::string how = WIFSIGNALED(status)
                                ? "signal " + std::to_string(WTERMSIG(status))
                                : "exit status " + std::to_string(WEXITSTATUS(status));
    if (!spireRunning && running != oracleCrashed) {
      // Before spire's module: the oracle's, or the run's own set-up. Spire's alone tells which.
      oracleCrashed = running;
      from = running;
      continue;
    }
    outcomes[running] =
        running != oracleCrashed
            ? Outcome{Outcome::Mismatch, "spire's module crashed the device run (" + how + ")"}
            : Outcome{Outcome::Mismatch,
                      std::string(spireRunning ? "both modules crash the device run"
                                               : "the device run crashes before either module") +
                          " (" + how + "): the run's bug or the driver's, not the oracle's module"};
    from = running + 1;
  }

  size_t translated = 0, ran = 0, equal = 0, tolerated = 0, wrote = 0, withoutLayers = 0;
  std::string equalNames;
  std::map<std::string, std::vector<std::string>> skipped; // reason -> files
  std::vector<std::string> mismatches, knownMismatches;
  for (size_t i = 0; i < work.size(); ++i) {
    const Prepared &p = work[i];
    if (!p.spire)
      continue;
    ++translated;
    const std::string stem = p.file.stem().string(), name = p.file.filename().string();
    std::string why = p.skip;
    if (why.empty() && !outcomes[i])
      why = "not run";
    if (why.empty() && outcomes[i]->kind == Outcome::Skip)
      why = outcomes[i]->detail;
    if (!why.empty()) {
      skipped[why.substr(0, 160)].push_back(stem);
      continue;
    }
    ++ran;
    const Outcome &o = *outcomes[i];
    withoutLayers += o.withoutLayers;
    if (o.kind == Outcome::Equal) {
      ++equal;
      tolerated += o.tolerated;
      wrote += o.wrote;
      equalNames += (equalNames.empty() ? "" : ", ") + stem;
      continue;
    }
    auto k = known.find(name);
    (k == known.end() ? mismatches : knownMismatches)
        .push_back(name + ": " + o.detail +
                   (k == known.end() ? "" : " (known: " + k->second + ")"));
  }

  std::printf("DXIL compute shaders run against the oracle on %s: %zu in the corpus, %zu "
              "translated by spire, %zu run, %zu equal (%zu within %lld ulps; %zu wrote a "
              "buffer), %zu known differences, %zu mismatches\n  equal: %s\n",
              deviceName.c_str(), files.size(), translated, ran, equal, tolerated,
              static_cast<long long>(kUlpTolerance), wrote, knownMismatches.size(),
              mismatches.size(), equalNames.c_str());
  if (withoutLayers)
    std::printf("  %zu run without the validation layers (their SPIR-V validator predates "
                "SPV_KHR_compute_shader_derivatives, the device's)\n",
                withoutLayers);
  for (const auto &[why, names] : skipped) {
    std::string list;
    for (const std::string &n : names)
      list += (list.empty() ? "" : ", ") + n;
    std::printf("  skipped %zu: %s: %s\n", names.size(), why.c_str(), list.c_str());
  }
  for (const std::string &m : knownMismatches)
    std::printf("  known: %s\n", m.c_str());
  for (const std::string &m : mismatches)
    ADD_FAILURE() << "mismatch: " << m;
  EXPECT_GT(translated, 0u) << "spire translates none of the corpus compute shaders";
}

} // namespace
