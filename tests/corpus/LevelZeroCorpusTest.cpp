// The Level Zero profile on real OpenCL kernels: the shared corpus's (clang-15 + llvm-spirv-15,
// clspv tests) and the generated corpus's. A capable device in the relaxed profile accepts every
// kernel except those the guide forbids for a stated reason; a device without fp64 rejects exactly
// the kernels that declare Float64.
#include "CorpusSupport.h"
#include "GeneratedCorpusManifest.h"

#include "spire/module/Module.h"
#include "spire/val/Validator.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <mutex>

using namespace spire;
using namespace spire::test;

namespace {

std::vector<fs::path> openclKernels() {
  std::vector<fs::path> files;
  if (std::optional<fs::path> corpus = sharedCorpus()) {
    // spv/opencl holds the kernels the recorded spirv-val accepts; those the newer one
    // rejects (verdict-diffs-corpus.tsv) are not the guide's to allow.
    for (const fs::path &f : filesUnder(*corpus / "spv" / "opencl", ".spv"))
      if (referenceVerdict(f, true).valid)
        files.push_back(f);
  } else {
    std::printf("level zero corpus: ../shared/corpus not found, shared kernels skipped\n");
  }
  if (std::optional<fs::path> generated = generatedCorpus()) {
    Expected<GeneratedCorpusManifest> m = readGeneratedCorpusManifest(*generated);
    if (m.ok())
      for (const GeneratedModule *g : m->ofKind("opencl"))
        files.push_back(g->file);
  }
  return files;
}

val::Options capableDevice() {
  val::Options o;
  o.env = *val::parseEnvironment("level-zero");
  o.device.spirvVersion = grammar::makeVersion(1, 6);
  o.env.maxVersion = o.device.spirvVersion;
  return o;
}

/// Rejections the guide gives a reason for, recognised by rule and message.
std::optional<std::string> expectedRejection(const val::Problem &p) {
  if (p.rule == "LZ-F4" && p.message.find("OpTypePipe") != std::string::npos)
    return "pipe kernel arguments (LZ-F4: not a listed argument type)";
  if (p.rule == "LZ-G1")
    return "32-bit kernels (spir target, Physical32: LZ-G1 requires Physical64)";
  return std::nullopt;
}

TEST(LevelZeroCorpus, CapableDeviceAcceptsWhatTheGuideAllows) {
  std::vector<fs::path> files = openclKernels();
  if (files.empty())
    GTEST_SKIP() << "no OpenCL kernels (shared corpus absent, generated kernels not built)";
  const val::Options options = capableDevice();
  Tally tally("level-zero (relaxed, capable device) on OpenCL kernels");
  std::mutex mu;
  std::map<std::string, size_t> expected, warnings;
  parallelFor(files.size(), [&](size_t i) {
    Expected<Module> m = Module::fromBytes(readBytes(files[i]));
    if (!m) {
      tally.skipped(files[i], "not readable: " + m.error().message);
      return;
    }
    tally.compared();
    val::Report r = val::validate(*m, options);
    std::lock_guard<std::mutex> lock(mu);
    for (const val::Problem &p : r.problems)
      if (p.severity == Severity::Warning)
        ++warnings[p.rule];
    if (r.valid())
      return;
    const val::Problem &first = r.problems.front();
    if (std::optional<std::string> why = expectedRejection(first))
      ++expected[*why];
    else
      tally.differed(files[i], first.format());
  });
  for (const auto &[why, n] : expected)
    std::printf("  rejected as the guide says: %zu kernels: %s\n", n, why.c_str());
  for (const auto &[rule, n] : warnings)
    std::printf("  relaxed-profile warnings under %s: %zu\n", rule.c_str(), n);
  EXPECT_TRUE(tally.report());
}

TEST(LevelZeroCorpus, DeviceWithoutFp64RejectsExactlyTheFp64Kernels) {
  std::vector<fs::path> files = openclKernels();
  if (files.empty())
    GTEST_SKIP() << "no OpenCL kernels";
  val::Options options = capableDevice();
  options.device.fp64 = false;
  Tally tally("level-zero without fp64: rejected exactly when Float64 is declared");
  std::atomic<size_t> rejected{0};
  parallelFor(files.size(), [&](size_t i) {
    Expected<Module> m = Module::fromBytes(readBytes(files[i]));
    if (!m)
      return;
    bool declaresFloat64 = false;
    for (Instruction inst : *m)
      declaresFloat64 |=
          inst.opcode() == grammar::Op::Capability && inst.wordCount() >= 2 && inst.word(1) == 10;
    val::Report r = val::validate(*m, options);
    bool fp64Rejection = false, otherRejection = false;
    for (const val::Problem &p : r.problems)
      if (p.severity == Severity::Error) {
        const bool fp64 = p.rule == "LZ-H1" && p.message.find("FP64") != std::string::npos;
        fp64Rejection |= fp64;
        otherRejection |= !fp64 && !expectedRejection(p);
      }
    if (otherRejection)
      return; // the first test reports these
    tally.compared();
    rejected += fp64Rejection;
    if (fp64Rejection != declaresFloat64)
      tally.differed(files[i], declaresFloat64 ? "declares Float64 but was accepted"
                                               : "rejected for fp64 without declaring Float64");
  });
  std::printf("  %zu kernels declare Float64 and were rejected\n", rejected.load());
  EXPECT_TRUE(tally.report());
}

} // namespace
