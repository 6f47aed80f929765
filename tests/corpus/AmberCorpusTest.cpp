// The AmberScript and VkScript compute tests of ../shared/corpus/amber (the Vulkan CTS, amber,
// clspv) on a Vulkan device, lavapipe when there is no GPU, with the validation layers on when
// installed: every file passes or is skipped for a stated reason (a feature or extension the
// device lacks, OpenCL C, a listed driver crash); none fails. Then the same with every shader
// passed through spire first (--via asm, roundtrip, opt=canonicalize): a difference there is a bug
// in the dialect or a pass. Two scripts run at a time, each worker on its own device. The
// requirements the CTS sets in C++ come from tests/corpus/amber-cts-requirements.txt, the known
// driver crashes from tests/corpus/amber-driver-bugs.txt.
#include "CorpusSupport.h"

#include "spire/run/Device.h"
#include "spire/run/ScriptRunner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <memory>
#include <thread>

using namespace spire;
using namespace spire::test;

namespace {

constexpr unsigned kWorkers = 2;

struct Counts {
  size_t passed = 0, failed = 0, skipped = 0;
  std::vector<std::string> failures;
  std::map<std::string, size_t> skipReasons;
};

std::vector<fs::path> amberScripts() {
  std::optional<fs::path> corpus = sharedCorpus();
  if (!corpus || !fs::exists(*corpus / "amber"))
    return {};
  std::vector<fs::path> files = filesUnder(*corpus / "amber", ".amber");
  for (const fs::path &f : filesUnder(*corpus / "amber", ".vkscript"))
    files.push_back(f);
  return files;
}

std::map<std::string, run::ExtraRequirements> sideRequirements() {
  std::map<std::string, run::ExtraRequirements> extra;
  for (const char *name : {"amber-cts-requirements.txt", "amber-driver-bugs.txt"}) {
    std::string text = readText(fs::path(SPIRE_SOURCE_DIR) / "tests" / "corpus" / name);
    Status s = run::parseExtraRequirements(text, extra);
    EXPECT_TRUE(s.ok()) << name << ": " << (s.ok() ? "" : s.error().message);
  }
  return extra;
}

// The reason without the device's name, so that counts group.
std::string reasonKey(const std::string &reason, const std::string &device) {
  if (reason.find(" needs clspv") != std::string::npos)
    return "OPENCL-C needs clspv";
  std::string r = reason;
  for (size_t p; (p = r.find(device)) != std::string::npos;)
    r.replace(p, device.size(), "the device");
  return r.substr(0, 110);
}

class AmberCorpus : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    files_ = amberScripts();
    if (files_.empty())
      return;
    extra_ = sideRequirements();
    run::DeviceOptions options;
    options.validation = true;
    for (unsigned w = 0; w < kWorkers; ++w) {
      auto ctx = run::VulkanContext::create(options);
      if (!ctx) {
        deviceError_ = ctx.error().message;
        contexts_.clear();
        return;
      }
      contexts_.push_back(std::move(*ctx));
    }
  }
  static void TearDownTestSuite() { contexts_.clear(); }

  void SetUp() override {
    if (files_.empty())
      GTEST_SKIP() << "../shared/corpus/amber is not there";
    if (contexts_.empty())
      GTEST_SKIP() << "no Vulkan device: " << deviceError_;
  }

  static Counts runAll(const run::Via &via) {
    Counts counts;
    std::mutex mu;
    std::atomic<size_t> next{0};
    auto work = [&](run::VulkanContext &ctx) {
      for (size_t i; (i = next++) < files_.size();) {
        const fs::path &file = files_[i];
        run::ScriptResult r;
        auto script = run::parseScriptFile(file.string());
        if (!script) {
          r.outcome = run::ScriptResult::Outcome::Fail;
          r.line = script.error().location.line;
          r.message = "parse: " + script.error().message;
        } else {
          run::RunOptions ro;
          ro.compile.via = via;
          auto it = extra_.find(file.filename().string());
          if (it != extra_.end())
            ro.extra = &it->second;
          r = run::runScript(ctx, *script, ro);
        }
        std::lock_guard<std::mutex> lock(mu);
        switch (r.outcome) {
        case run::ScriptResult::Outcome::Pass:
          ++counts.passed;
          break;
        case run::ScriptResult::Outcome::Skip:
          ++counts.skipped;
          ++counts.skipReasons[reasonKey(r.message, ctx.deviceName())];
          break;
        case run::ScriptResult::Outcome::Fail:
          ++counts.failed;
          counts.failures.push_back(run::resultLine(displayName(file), r));
          break;
        }
      }
    };
    std::vector<std::thread> threads;
    for (auto &ctx : contexts_)
      threads.emplace_back(work, std::ref(*ctx));
    for (std::thread &t : threads)
      t.join();
    std::sort(counts.failures.begin(), counts.failures.end());
    return counts;
  }

  static void print(const Counts &c, const std::string &what) {
    std::printf("amber corpus %s on %s%s: %zu passed, %zu failed, %zu skipped of %zu\n",
                what.c_str(), contexts_[0]->deviceName().c_str(),
                contexts_[0]->validationEnabled() ? " with validation layers" : "", c.passed,
                c.failed, c.skipped, files_.size());
    for (const auto &[reason, n] : c.skipReasons)
      std::printf("  skipped %3zu: %s\n", n, reason.c_str());
    for (size_t i = 0; i < c.failures.size() && i < 30; ++i)
      std::printf("  %s\n", c.failures[i].c_str());
  }

  static inline std::vector<fs::path> files_;
  static inline std::map<std::string, run::ExtraRequirements> extra_;
  static inline std::vector<std::unique_ptr<run::VulkanContext>> contexts_;
  static inline std::string deviceError_;
  static inline size_t plainPasses_ = 0;
};

TEST_F(AmberCorpus, EveryScriptPassesOrIsSkippedWithAReason) {
  Counts c = runAll(run::Via{});
  print(c, "as written");
  EXPECT_EQ(c.failed, 0u);
  EXPECT_GT(c.passed, 0u);
  EXPECT_EQ(c.passed + c.failed + c.skipped, files_.size());
  plainPasses_ = c.passed;
}

void expectSameAsPlain(const Counts &c, size_t plain) {
  EXPECT_EQ(c.failed, 0u);
  if (plain) {
    EXPECT_EQ(c.passed, plain) << "a transformation changed which scripts pass";
  }
}

TEST_F(AmberCorpus, ShadersThroughSpireAsmComputeTheSame) {
  Counts c = runAll(*run::Via::parse("asm"));
  print(c, "via asm");
  expectSameAsPlain(c, plainPasses_);
}

TEST_F(AmberCorpus, ShadersThroughTheStructuredIrComputeTheSame) {
  Counts c = runAll(*run::Via::parse("roundtrip"));
  print(c, "via roundtrip");
  expectSameAsPlain(c, plainPasses_);
}

TEST_F(AmberCorpus, CanonicalizedShadersComputeTheSame) {
  Counts c = runAll(*run::Via::parse("opt=canonicalize"));
  print(c, "via opt=canonicalize");
  expectSameAsPlain(c, plainPasses_);
}

} // namespace
