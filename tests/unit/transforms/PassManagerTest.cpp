// The pass manager: built-in passes registered beside their code, pipelines, and analyses
// cached between passes that preserve them.
#include "spire/dialect/Dominance.h"
#include "spire/dialect/Text.h"
#include "spire/transforms/Pass.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace spire;
using namespace spire::transforms;

namespace {

TEST(PassManager, BuiltInPassesAreRegisteredBesideTheirCode) {
  std::vector<PassInfo> passes = registeredPasses();
  for (std::string_view name : {"canonicalize", "lower-abi-attrs", "update-vce"})
    EXPECT_TRUE(std::any_of(passes.begin(), passes.end(), [&](const PassInfo &p) {
      return p.name == name;
    })) << name;
  EXPECT_TRUE(std::is_sorted(passes.begin(), passes.end(),
                             [](const PassInfo &a, const PassInfo &b) { return a.name < b.name; }));
  EXPECT_NE(createPass("canonicalize"), nullptr);
  EXPECT_EQ(createPass("no-such-pass"), nullptr);
  PassManager pm;
  Status s = pm.addPipeline("update-vce, bogus");
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("unknown pass 'bogus'"), std::string::npos);
  EXPECT_EQ(pm.size(), 0u);
}

/// Counts how often its analysis is built.
struct CountingAnalysis {
  explicit CountingAnalysis(Operation &) { ++built; }
  static inline int built = 0;
};

/// Asks for the analysis twice and keeps it (or not).
class AskingPass : public Pass {
public:
  explicit AskingPass(bool preserve) : preserve_(preserve) {}
  std::string_view name() const override { return "asking"; }
  Status run(Operation &module, Context &) override {
    getAnalysis<CountingAnalysis>(module);
    getAnalysis<CountingAnalysis>(module);
    getAnalysis<dialect::DominanceInfo>(module);
    if (preserve_)
      markAnalysisPreserved<CountingAnalysis>();
    return {};
  }

private:
  bool preserve_;
};

TEST(PassManager, AnalysesAreCachedUntilAPassDoesNotPreserveThem) {
  Context ctx;
  Expected<dialect::OwningOp> module = dialect::parse(
      ctx, "spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {\n}\n");
  ASSERT_TRUE(module) << module.error().format();
  CountingAnalysis::built = 0;
  PassManager pm;
  pm.add(std::make_unique<AskingPass>(true));  // builds it once, keeps it
  pm.add(std::make_unique<AskingPass>(false)); // finds it cached, drops it after
  pm.add(std::make_unique<AskingPass>(true));  // builds it again
  ASSERT_TRUE(pm.run(**module, ctx));
  EXPECT_EQ(CountingAnalysis::built, 2);
  // The last pass kept CountingAnalysis and dropped DominanceInfo.
  EXPECT_EQ(pm.analyses().size(), 1u);
  EXPECT_NE(pm.analyses().cached<CountingAnalysis>(**module), nullptr);
  EXPECT_EQ(pm.analyses().cached<dialect::DominanceInfo>(**module), nullptr);
}

} // namespace
