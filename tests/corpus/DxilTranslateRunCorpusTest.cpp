// The DXIL translator's differential test: every corpus compute shader spire translates is also
// translated by the oracle (dxil-spirv with --ssbo-uav --ssbo-srv), both modules are dispatched
// on one Vulkan device (lavapipe without a GPU) through the runner's raw shader run (what
// `spire run shader.spv --buffer S:B=random:SEED:BYTES` does) with the same seeded buffers bound
// to the same D3D resources, and every buffer is compared afterwards: bit-exact, or within a few
// ulps per word in modules that use float transcendental functions. The oracle puts every class
// at binding = register (t0 and u0 collide), spire adds per-class offsets: the oracle's
// descriptors are matched to spire's --bindings mapping by space, register, descriptor type and
// writability, and renumbered to spire's set and binding. Shaders whose resources the raw run
// cannot bind alike in both (texel buffers, images, samplers, descriptor arrays and heaps, push
// constants) or that the device cannot run are skipped with the reason. A mismatch fails unless
// tests/corpus/dxil-translate-run-known-differences.txt lists the file with its reason.
#include "CorpusSupport.h"

#include "spire/run/Device.h"
#include "spire/run/Reflection.h"
#include "spire/run/ScriptRunner.h"
#include "spire/run/ShaderRun.h"
#include "spire/translate/DxilToSpirv.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <unistd.h>

using namespace spire;
using namespace spire::test;

namespace {

constexpr uint32_t kStorageBufferBytes = 16384;
constexpr uint32_t kGroups[3] = {2, 1, 1};
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

constexpr uint32_t kOpExtInstImport = 11, kOpExtInst = 12, kOpTypePointer = 32, kOpVariable = 59,
                   kOpDecorate = 71;
constexpr uint32_t kDecorationRestrict = 19, kDecorationNonWritable = 24, kDecorationBinding = 33,
                   kDecorationDescriptorSet = 34;
constexpr uint32_t kStorageUniformConstant = 0, kStorageUniform = 2, kStorageBuffer = 12;

/// Calls `f(opcode, operands, wordIndexOfOperands)` for each instruction after the header.
template <typename F> void forEachInstruction(const std::vector<uint32_t> &words, F f) {
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16;
    if (count == 0 || i + count > words.size())
      return;
    f(words[i] & 0xFFFF, std::span<const uint32_t>(words.data() + i + 1, count - 1), i + 1);
    i += count;
  }
}

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

/// The oracle's descriptor variables: where it put them and what they are.
struct OracleDescriptor {
  uint32_t variable = 0;
  uint32_t set = ~0u, binding = ~0u;
  size_t setWord = 0, bindingWord = 0; ///< where the literals are, to renumber them
  uint32_t storage = 0;
  bool nonWritable = false, restrict = false;
};

std::vector<OracleDescriptor> oracleDescriptors(const std::vector<uint32_t> &words) {
  std::map<uint32_t, uint32_t> pointerStorage; // pointer type -> storage class
  std::map<uint32_t, OracleDescriptor> vars;
  forEachInstruction(words, [&](uint32_t op, std::span<const uint32_t> o, size_t at) {
    if (op == kOpTypePointer && o.size() >= 2)
      pointerStorage[o[0]] = o[1];
    if (op == kOpVariable && o.size() >= 3)
      vars[o[1]].storage = o[2], vars[o[1]].variable = o[1];
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

/// Whether spire's descriptor type is what the oracle's variable holds.
bool sameDescriptorType(const translate::DescriptorBinding &b, const OracleDescriptor &d) {
  if (b.descriptorType == "storage-buffer")
    return d.storage == kStorageBuffer;
  if (b.descriptorType == "uniform-buffer")
    return d.storage == kStorageUniform;
  return d.storage == kStorageUniformConstant;
}

/// Renumbers the oracle's descriptors to spire's set and binding of the same D3D resource. The
/// oracle may declare several variables for one resource (views with other element types); where
/// an SRV and a UAV share a space and register, its SRVs are the NonWritable Restrict ones. Fails
/// (with why) when a descriptor of the oracle matches none of spire's, or several.
std::optional<std::string> renumberOracle(std::vector<uint32_t> &words,
                                          const translate::TranslatedShader &spire) {
  const std::vector<translate::DescriptorBinding> &bs = spire.bindings;
  // The oracle's UAV counters: set 7, binding = the UAV's index among the UAVs.
  std::vector<uint32_t> uavIndex(bs.size(), ~0u);
  for (uint32_t i = 0, n = 0; i < bs.size(); ++i)
    if (bs[i].resourceClass == dxil::ResourceClass::UAV && !bs[i].counter)
      uavIndex[i] = n++;
  for (const OracleDescriptor &d : oracleDescriptors(words)) {
    std::vector<size_t> candidates;
    for (size_t i = 0; i < bs.size(); ++i) {
      const bool counterMatch =
          bs[i].counter && d.set == 7 && i > 0 && uavIndex[i - 1] == d.binding;
      const bool resourceMatch =
          !bs[i].counter && bs[i].space == d.set && bs[i].lowerBound == d.binding;
      if ((counterMatch || resourceMatch) && sameDescriptorType(bs[i], d))
        candidates.push_back(i);
    }
    if (candidates.size() > 1)
      std::erase_if(candidates, [&](size_t i) {
        return (bs[i].resourceClass == dxil::ResourceClass::SRV) != (d.nonWritable && d.restrict);
      });
    if (candidates.size() != 1)
      return "the oracle's descriptor at set " + std::to_string(d.set) + ", binding " +
             std::to_string(d.binding) + " matches " + (candidates.empty() ? "none" : "several") +
             " of spire's";
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

/// What the raw shader run cannot bind alike in both modules.
std::optional<std::string> unbindable(const translate::TranslatedShader &s) {
  for (const translate::DescriptorBinding &b : s.bindings) {
    if (b.rangeSize != 1)
      return std::string(b.rangeSize == 0xFFFFFFFFu ? "descriptor heap or unbounded array"
                                                    : "array of descriptors") +
             " (the raw shader run binds one buffer per binding)";
    if (b.descriptorType != "storage-buffer" && b.descriptorType != "uniform-buffer")
      return std::string(b.descriptorType) +
             " (the oracle and spire may differ in format and view; only buffers are bound)";
  }
  return std::nullopt;
}

Expected<run::ModuleInterface> interfaceOf(const std::vector<uint32_t> &words) {
  Expected<Module> m = Module::fromWords(words);
  if (!m)
    return m.error();
  return run::reflect(*m);
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

class DxilTranslateRun : public ::testing::Test {};

TEST_F(DxilTranslateRun, CorpusComputeShadersComputeWhatTheOracleComputes) {
  std::optional<fs::path> corpus = sharedCorpus();
  if (!corpus || !fs::exists(*corpus / "dxil" / "MANIFEST.tsv"))
    GTEST_SKIP() << "no DXIL corpus (../shared/corpus/dxil)";
  std::optional<fs::path> oracle = oracleProgram();
  if (!oracle)
    GTEST_SKIP() << "no oracle (../shared/tools/dxil-spirv/bin/dxil-spirv)";
  run::DeviceOptions deviceOptions;
  deviceOptions.validation = true;
  auto ctx = run::VulkanContext::create(deviceOptions);
  if (!ctx)
    GTEST_SKIP() << "no Vulkan device: " << ctx.error().message;

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
    if (auto why = unbindable(*p.spire)) {
      p.skip = *why;
      return;
    }
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

  size_t translated = 0, ran = 0, equal = 0, tolerated = 0, wrote = 0;
  std::string equalNames;
  std::map<std::string, std::vector<std::string>> skipped; // reason -> files
  std::vector<std::string> mismatches, knownMismatches;
  auto skip = [&](const Prepared &p, const std::string &why) {
    skipped[why.substr(0, 160)].push_back(p.file.stem().string());
  };
  for (Prepared &p : work) {
    if (!p.spire)
      continue;
    ++translated;
    if (!p.skip.empty()) {
      skip(p, p.skip);
      continue;
    }
    const std::string name = p.file.filename().string();
    auto spireMi = interfaceOf(p.spire->words);
    auto oracleMi = interfaceOf(p.oracle);
    if (!spireMi || !oracleMi) {
      mismatches.push_back(
          name + ": reflection: " + (spireMi ? oracleMi.error().message : spireMi.error().message));
      continue;
    }
    if (oracleMi->pushConstantSize || spireMi->pushConstantSize) {
      skip(p, "push constants");
      continue;
    }
    if (auto why = run::unmetModuleRequirement(**ctx, *oracleMi)) {
      skip(p, "the oracle's module: " + *why);
      continue;
    }
    if (auto why = run::unmetModuleRequirement(**ctx, *spireMi)) {
      skip(p, "spire's module: " + *why);
      continue;
    }
    // The same bytes for each D3D resource: random storage buffers, constant buffers as large
    // as the larger of the two blocks.
    run::ShaderRunRequest spireRun, oracleRun;
    spireRun.words = p.spire->words;
    oracleRun.words = p.oracle;
    for (const run::Resource &r : spireMi->resources) {
      uint32_t bytes = r.runtimeStride ? kStorageBufferBytes : r.blockSize;
      if (const run::Resource *o = oracleMi->find(r.set, r.binding))
        bytes = std::max(bytes, o->runtimeStride ? kStorageBufferBytes : o->blockSize);
      auto data = run::bufferFromSpec("random:" + std::to_string(seedOf(name, r.set, r.binding)) +
                                          ":" + std::to_string(bytes),
                                      nullptr);
      spireRun.buffers[{r.set, r.binding}] = *data;
      if (oracleMi->find(r.set, r.binding))
        oracleRun.buffers[{r.set, r.binding}] = *data;
    }
    std::copy(std::begin(kGroups), std::end(kGroups), spireRun.groups);
    std::copy(std::begin(kGroups), std::end(kGroups), oracleRun.groups);
    auto oracleResult = run::runShader(**ctx, *oracleMi, oracleRun);
    if (!oracleResult || !oracleResult->validationMessages.empty()) {
      skip(p, "the oracle's module does not run: " + (oracleResult
                                                          ? oracleResult->validationMessages.front()
                                                          : oracleResult.error().message));
      continue;
    }
    auto spireResult = run::runShader(**ctx, *spireMi, spireRun);
    std::string problem;
    if (!spireResult)
      problem = "spire's module does not run: " + spireResult.error().message;
    else if (!spireResult->validationMessages.empty())
      problem = "validation: " + spireResult->validationMessages.front();
    ++ran;
    bool tolerant = usesTranscendentals(p.spire->words) || usesTranscendentals(p.oracle);
    bool within = false;
    for (const auto &[key, bytes] :
         spireResult ? spireResult->buffers : decltype(spireResult->buffers){}) {
      auto it = oracleResult->buffers.find(key);
      if (it == oracleResult->buffers.end() || !problem.empty())
        continue;
      size_t n = 0;
      std::string diff = compareBuffers(bytes, it->second, false, n);
      if (!diff.empty() && tolerant) {
        size_t m = 0;
        std::string within2 = compareBuffers(bytes, it->second, true, m);
        if (within2.empty()) {
          within = true;
          continue;
        }
        diff = within2, n = m;
      }
      if (!diff.empty())
        problem = "binding " + std::to_string(key.first) + ":" + std::to_string(key.second) + ", " +
                  std::to_string(n) + " words differ, first " + diff;
    }
    if (problem.empty()) {
      // A comparison of buffers nobody wrote proves little: count the shaders that wrote.
      for (const auto &[key, bytes] : spireResult->buffers)
        if (bytes != spireRun.buffers[key]) {
          ++wrote;
          break;
        }
      equalNames += (equalNames.empty() ? "" : ", ") + p.file.stem().string();
      ++equal;
      tolerated += within;
      continue;
    }
    auto k = known.find(name);
    (k == known.end() ? mismatches : knownMismatches)
        .push_back(name + ": " + problem + (k == known.end() ? "" : " (known: " + k->second + ")"));
  }

  std::printf("DXIL compute shaders run against the oracle on %s: %zu in the corpus, %zu "
              "translated by spire, %zu run, %zu equal (%zu within %lld ulps; %zu wrote a "
              "buffer), %zu known differences, %zu mismatches\n  equal: %s\n",
              (*ctx)->deviceName().c_str(), files.size(), translated, ran, equal, tolerated,
              static_cast<long long>(kUlpTolerance), wrote, knownMismatches.size(),
              mismatches.size(), equalNames.c_str());
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
