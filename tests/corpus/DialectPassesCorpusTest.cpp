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

/// The IR of a corpus module the validator accepts and the deserializer takes, verified; null
/// for any other module.
dialect::OwningOp deserializeValid(const fs::path &file, dialect::Context &ctx) {
  std::optional<Module> m = readValidModule(file);
  if (!m)
    return nullptr;
  Expected<dialect::OwningOp> op = dialect::deserialize(ctx, *m);
  if (!op || !dialect::verify(**op))
    return nullptr;
  return std::move(*op);
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
    dialect::Context ctx;
    dialect::OwningOp op = deserializeValid(files[i], ctx);
    if (!op)
      return;
    dialect::Attribute declared = op->attr("vce_triple");
    transforms::PassManager pm;
    EXPECT_TRUE(pm.addPipeline("update-vce"));
    Status s = pm.run(*op, ctx);
    std::lock_guard<std::mutex> lock(mu);
    if (!s) {
      ++failed;
      if (!failures[s.error().message]++)
        failureExample[s.error().message] = displayName(files[i]);
      return;
    }
    ++compared;
    dialect::Attribute deduced = op->attr("vce_triple");
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

namespace {

size_t countOps(const dialect::Operation &op) {
  size_t n = 1;
  for (uint32_t r = 0; r < op.numRegions(); ++r)
    for (const dialect::Block *b : op.region(r))
      for (const dialect::Operation *child = b->front(); child; child = child->next())
        n += countOps(*child);
  return n;
}

} // namespace

// canonicalize on the same selection (less the modules whose round trip alone is invalid): the
// result must serialize to a module spire val accepts (spirv-val too, on every changed
// module where it accepts the original). Prints how many modules changed and how many ops went.
TEST(DialectPassesCorpus, CanonicalizeKeepsModulesValid) {
  std::vector<fs::path> files = allModules();
  if (files.empty())
    GTEST_SKIP() << "no corpus";
  const bool haveSpirvVal = haveTool(referenceTool("spirv-val"));
  std::mutex mu;
  size_t compared = 0, changed = 0, opsBefore = 0, opsAfter = 0, bySpirvVal = 0,
         roundTripInvalid = 0;
  std::map<std::string, std::string> failures; // problem -> example
  parallelFor(files.size(), [&](size_t i) {
    dialect::Context ctx;
    dialect::OwningOp op = deserializeValid(files[i], ctx);
    if (!op)
      return;
    // The serialized module, or what is wrong with it.
    auto serializeAndValidate = [](const dialect::Operation &module,
                                   std::vector<uint32_t> &out) -> std::string {
      Expected<std::vector<uint32_t>> words = dialect::serialize(module);
      if (!words)
        return "serialize: " + words.error().message;
      out = std::move(*words);
      val::Options options;
      options.env = *val::parseEnvironment("spv1.6");
      options.maxErrors = 1;
      Expected<Module> back = Module::fromWords(out);
      if (!back)
        return "unreadable: " + back.error().message;
      if (val::Report r = val::validate(*back, options); r.errorCount() != 0)
        return "invalid: " + r.problems.front().message;
      return {};
    };
    std::vector<uint32_t> out;
    // Modules whose round trip alone is invalid are DialectDeserializeCorpusTest's to count.
    if (!serializeAndValidate(*op, out).empty()) {
      std::lock_guard<std::mutex> lock(mu);
      ++roundTripInvalid;
      return;
    }
    const size_t before = countOps(*op);
    transforms::PassManager pm;
    EXPECT_TRUE(pm.addPipeline("canonicalize"));
    std::string problem;
    if (Status s = pm.run(*op, ctx); !s)
      problem = "pass failed: " + s.error().message;
    else
      problem = serializeAndValidate(*op, out);
    const size_t after = countOps(*op);
    bool checked = false;
    if (problem.empty() && haveSpirvVal && after != before) {
      fs::path tmp = fs::temp_directory_path() / ("spire-canon-" + std::to_string(::getpid()) +
                                                  "-" + std::to_string(i) + ".spv");
      {
        std::FILE *f = std::fopen(tmp.c_str(), "wb");
        std::fwrite(out.data(), 4, out.size(), f);
        std::fclose(f);
      }
      ToolResult r = runTool({referenceTool("spirv-val"), "--target-env", "spv1.6", tmp.string()});
      fs::remove(tmp);
      checked = true;
      if (r.exitCode != 0 &&
          runTool({referenceTool("spirv-val"), "--target-env", "spv1.6", files[i].string()})
                  .exitCode == 0) {
        std::string msg = r.err.empty() ? r.out : r.err;
        problem = "spirv-val: " + msg.substr(0, msg.find('\n'));
      }
    }
    std::lock_guard<std::mutex> lock(mu);
    ++compared;
    bySpirvVal += checked;
    opsBefore += before;
    opsAfter += after;
    changed += after != before;
    if (!problem.empty())
      failures.emplace(problem, displayName(files[i]));
  });
  std::printf("canonicalize: %zu modules, %zu changed, ops %zu -> %zu; spirv-val checked %zu; "
              "%zu problems (%zu left out: their round trip alone is invalid)\n",
              compared, changed, opsBefore, opsAfter, bySpirvVal, failures.size(),
              roundTripInvalid);
  for (const auto &[problem, file] : failures)
    std::printf("  %s  (e.g. %s)\n", problem.c_str(), file.c_str());
  EXPECT_TRUE(failures.empty());
}
