// update-vce on every corpus module the validator accepts and the deserializer takes (the
// selection of DialectDeserializeCorpusTest): the pass must succeed and leave IR the verifier
// accepts, and what it deduces must be what the module may use: each deduced capability one
// the module declares or implies, the deduced version no later than the module's. Prints how
// many modules were compared and how many differ, and the differences (most frequent first)
// in a report, also written to dialect-passes-report.txt in the working directory.
#include "CorpusSupport.h"

#include "spire/dialect/Availability.h"
#include "spire/dialect/Serialization.h"
#include "spire/dialect/Verifier.h"
#include "spire/module/Module.h"
#include "spire/transforms/Pass.h"
#include "spire/val/Validator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <mutex>
#include <set>

using namespace spire;
using namespace spire::test;

namespace {

/// The share of compared modules whose deduced requirements may differ from the declared
/// ones; it only falls.
constexpr double kDifferingCeiling = 0.10;

std::string versionText(uint32_t v) {
  return std::to_string(grammar::versionMajor(v)) + "." + std::to_string(grammar::versionMinor(v));
}

std::string capName(uint32_t c) { return dialect::enumText(grammar::OperandKind::Capability, c); }

} // namespace

TEST(DialectPassesCorpus, UpdateVceDeducesWhatModulesDeclare) {
  std::vector<fs::path> files = allModules();
  if (files.empty())
    GTEST_SKIP() << "no corpus";
  std::mutex mu;
  size_t compared = 0, differing = 0, failed = 0, sameCaps = 0, lowerVersion = 0;
  std::map<std::string, size_t> differences;
  std::map<std::string, std::string> example;
  std::map<std::string, size_t> failures;
  std::map<std::string, std::string> failureExample;
  parallelFor(files.size(), [&](size_t i) {
    std::optional<Module> m = readValidModule(files[i]);
    if (!m)
      return;
    dialect::Context ctx;
    Expected<dialect::OwningOp> op = dialect::deserialize(ctx, *m);
    if (!op || !dialect::verify(**op))
      return;
    dialect::Attribute declared = (*op)->attr("vce_triple");
    transforms::PassManager pm;
    EXPECT_TRUE(pm.addPipeline("update-vce"));
    Status s = pm.run(**op, ctx);
    std::lock_guard<std::mutex> lock(mu);
    if (!s) {
      ++failed;
      if (!failures[s.error().message]++)
        failureExample[s.error().message] = displayName(files[i]);
      return;
    }
    ++compared;
    dialect::Attribute deduced = (*op)->attr("vce_triple");
    std::set<uint32_t> allowed;
    for (uint32_t c : declared.capabilities())
      for (grammar::Capability i :
           dialect::impliedCapabilities(static_cast<grammar::Capability>(c)))
        allowed.insert(static_cast<uint32_t>(i));
    std::vector<std::string> diffs;
    for (uint32_t c : deduced.capabilities())
      if (!allowed.count(c))
        diffs.push_back("capability " + capName(c) + " deduced but not declared");
    if (deduced.version() > declared.version())
      diffs.push_back("version " + versionText(deduced.version()) + " deduced, " +
                      versionText(declared.version()) + " declared");
    std::set<uint32_t> declaredSet(declared.capabilities().begin(), declared.capabilities().end());
    std::set<uint32_t> deducedSet(deduced.capabilities().begin(), deduced.capabilities().end());
    if (declaredSet == deducedSet)
      ++sameCaps;
    if (deduced.version() < declared.version())
      ++lowerVersion;
    if (diffs.empty())
      return;
    ++differing;
    for (const std::string &d : diffs)
      if (!differences[d]++)
        example[d] = displayName(files[i]);
  });
  std::string report;
  char line[512];
  std::snprintf(line, sizeof line,
                "update-vce: %zu modules compared, %zu differing (%.2f%%), %zu failed; %zu with "
                "exactly the declared capabilities, %zu with a lower version than declared\n",
                compared, differing, compared ? 100.0 * differing / compared : 0.0, failed,
                sameCaps, lowerVersion);
  report += line;
  std::vector<std::pair<size_t, std::string>> sorted;
  for (const auto &entry : differences)
    sorted.emplace_back(entry.second, entry.first);
  std::sort(sorted.rbegin(), sorted.rend());
  for (const auto &entry : sorted) {
    std::snprintf(line, sizeof line, "  %5zu  %s  (e.g. %s)\n", entry.first, entry.second.c_str(),
                  example[entry.second].c_str());
    report += line;
  }
  for (const auto &entry : failures) {
    std::snprintf(line, sizeof line, "  failed %3zu  %s  (e.g. %s)\n", entry.second,
                  entry.first.c_str(), failureExample[entry.first].c_str());
    report += line;
  }
  std::fputs(report.c_str(), stdout);
  std::ofstream("dialect-passes-report.txt") << report;
  EXPECT_EQ(failed, 0u);
  EXPECT_LE(compared ? double(differing) / compared : 0.0, kDifferingCeiling);
}
