// The validator against spirv-val's recorded verdicts: every corpus module that spirv-val accepts
// in its environment, spire val accepts too; on the mutated modules of spv-invalid, the verdicts
// agree at least as often as the floor below, and every disagreement is written to a report.
#include "CorpusSupport.h"
#include "GeneratedCorpusManifest.h"

#include "spire/val/Validator.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

using namespace spire;
using namespace spire::test;

namespace {

/// The share of spv-invalid on which spire's verdict must agree with spirv-val's. The target is
/// 0.99 (issue #3); the floor only rises, to the agreement reached.
constexpr double kAgreementFloor = 0.99;

std::vector<std::vector<std::string>> readTsv(const fs::path &path) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(readText(path));
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    size_t start = 0;
    while (true) {
      size_t tab = line.find('\t', start);
      cells.push_back(line.substr(start, tab == std::string::npos ? tab : tab - start));
      if (tab == std::string::npos)
        break;
      start = tab + 1;
    }
    rows.push_back(std::move(cells));
  }
  return rows;
}

struct Case {
  fs::path file;
  std::string env;
  bool valid;
  std::string message; ///< spirv-val's first message, for invalid ones
};

/// The first problem of a report, for messages.
std::string firstProblem(const val::Report &r) {
  return r.problems.empty() ? std::string("(none)") : r.problems.front().format();
}

val::Report check(const Case &c) {
  std::optional<val::Environment> env = val::parseEnvironment(c.env);
  val::Options options;
  if (env)
    options.env = *env;
  return val::validateBinary(readBytes(c.file), options);
}

TEST(ValidatorCorpus, AcceptsEveryModuleSpirvValAccepts) {
  std::vector<Case> cases;
  if (std::optional<fs::path> corpus = sharedCorpus()) {
    for (const fs::directory_entry &dir : fs::directory_iterator(*corpus / "spv")) {
      const fs::path manifest = dir.path() / "MANIFEST.tsv";
      if (!fs::exists(manifest))
        continue;
      for (const auto &row : readTsv(manifest))
        if (row.size() >= 12 && row[0] != "file" && row[11] == "pass")
          cases.push_back({dir.path() / row[0], row[10], true, {}});
    }
  } else {
    std::printf("validator corpus: ../shared/corpus not found, shared modules skipped\n");
  }
  if (std::optional<fs::path> generated = generatedCorpus()) {
    Expected<GeneratedCorpusManifest> m = readGeneratedCorpusManifest(*generated);
    ASSERT_TRUE(m.ok()) << m.error().format();
    for (const GeneratedModule &g : m->modules)
      cases.push_back({g.file, g.targetEnv, true, {}});
  }
  if (cases.empty())
    GTEST_SKIP() << "no corpus modules";
  Tally tally("spire val accepts what spirv-val accepts");
  parallelFor(cases.size(), [&](size_t i) {
    const Case &c = cases[i];
    val::Report r = check(c);
    tally.compared();
    if (r.valid())
      return;
    // Where spirv-val misses a rule, known-reference-bugs.txt says which.
    if (std::optional<std::string> why = knownReferenceBug("val-accepts", c.file))
      tally.explained(c.file, *why);
    else
      tally.differed(c.file, "[" + c.env + "] " + firstProblem(r));
  });
  EXPECT_TRUE(tally.report());
}

TEST(ValidatorCorpus, AgreesWithSpirvValOnMutatedModules) {
  std::optional<fs::path> corpus = sharedCorpus();
  if (!corpus || !fs::exists(*corpus / "spv-invalid" / "MANIFEST.tsv"))
    GTEST_SKIP() << "../shared/corpus/spv-invalid not found: skipped";
  std::vector<Case> cases;
  for (const auto &row : readTsv(*corpus / "spv-invalid" / "MANIFEST.tsv"))
    if (row.size() >= 5 && row[0].size() > 4 && row[0].ends_with(".spv"))
      cases.push_back({*corpus / "spv-invalid" / row[0], row[4], row[3] == "valid",
                       row.size() > 5 ? row[5] : ""});
  std::vector<std::string> verdicts(cases.size());
  std::atomic<size_t> agree{0}, missed{0}, extra{0}, explained{0};
  parallelFor(cases.size(), [&](size_t i) {
    const Case &c = cases[i];
    val::Report r = check(c);
    if (r.valid() == c.valid) {
      ++agree;
      return;
    }
    (c.valid ? extra : missed)++;
    verdicts[i] = c.valid ? "spirv-val accepts, spire rejects: " + firstProblem(r)
                          : "spirv-val rejects (" + c.message + "), spire accepts";
    // Where spire is right and spirv-val wrong, known-reference-bugs.txt says why.
    if (std::optional<std::string> why = knownReferenceBug("val", cases[i].file)) {
      ++explained;
      verdicts[i] += "; spire is right: " + *why;
    }
  });
  const fs::path reportPath = fs::current_path() / "validator-disagreements.txt";
  std::ofstream report(reportPath);
  for (size_t i = 0; i < cases.size(); ++i)
    if (!verdicts[i].empty())
      report << displayName(cases[i].file) << " [" << cases[i].env << "] " << verdicts[i] << "\n";
  const double share = double(agree) / double(cases.size());
  std::printf("validator vs spirv-val on spv-invalid: %zu modules, %zu agree (%.2f%%), %zu invalid "
              "ones accepted, %zu valid ones rejected, %zu of the disagreements explained by "
              "spirv-val's errors; disagreements listed in %s\n",
              cases.size(), agree.load(), 100.0 * share, missed.load(), extra.load(),
              explained.load(), reportPath.c_str());
  EXPECT_GE(share, kAgreementFloor);
}

} // namespace
