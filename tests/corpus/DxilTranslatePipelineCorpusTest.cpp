// Every compute, vertex, hull, domain, geometry, amplification, mesh, pixel and ray tracing
// shader of the DXIL corpus that spire translates gets its pipeline created (the stages it needs
// around it generated; node shaders of work graph libraries are skipped: spire run makes no
// execution graph pipelines) on a Vulkan device
// (lavapipe without a GPU) with the validation layers on: `spire run --create-pipeline` on the
// whole list in one process (one instance; before each pipeline a logical device with exactly the
// extensions and features that the module's capabilities and the pipeline need). A pipeline is
// accepted when its creation returns VK_SUCCESS with no validation message (error or warning).
// Entries the device cannot run (a feature, extension or limit it lacks) are skipped with the
// reason; a rejection fails the test unless tests/corpus/dxil-translate-pipeline-known-failures.txt
// lists the file with its reason, and a listed file that is accepted fails it too, so that the
// list only shrinks. A driver crash costs one file: the rest run in a new process.
#include "CorpusSupport.h"

#include <algorithm>
#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace spire::test;

namespace {

struct FileResult {
  std::string stage;                 ///< the manifest's shader model prefix: cs, vs, ps
  std::vector<std::string> outcomes; ///< "ok", "skipped: ...", "rejected...", per entry point
  std::string notLoaded;             ///< why spire did not translate it
  std::vector<std::string> messages; ///< validation messages of its rejections
  bool crashed = false;
};

TEST(DxilTranslatePipeline, CorpusShadersMakePipelinesTheValidationLayersAccept) {
  std::optional<fs::path> corpus = sharedCorpus();
  if (!corpus || !fs::exists(*corpus / "dxil" / "MANIFEST.tsv"))
    GTEST_SKIP() << "no DXIL corpus (../shared/corpus/dxil)";
  const fs::path dir = *corpus / "dxil";
  std::vector<std::string> files;
  std::map<std::string, FileResult> results; // by path
  for (const std::vector<std::string> &row : readTsv(dir / "MANIFEST.tsv")) {
    if (row.size() < 5)
      continue;
    const std::string stage = row[4].substr(0, row[4].find('_'));
    if (stage != "cs" && stage != "vs" && stage != "hs" && stage != "ds" && stage != "gs" &&
        stage != "ps" && stage != "ms" && stage != "as" && stage != "lib")
      continue;
    const std::string path = (dir / row[0]).string();
    files.push_back(path);
    results[path].stage = stage;
  }
  ASSERT_FALSE(files.empty()) << "the manifest lists no container of those stages";

  // One process for the list; after a crash, one more for the files after the crashed one.
  for (size_t from = 0; from < files.size();) {
    std::vector<std::string> args{"run", "--create-pipeline"};
    args.insert(args.end(), files.begin() + std::ptrdiff_t(from), files.end());
    ToolResult r = runSpire(args);
    std::set<std::string> seen;
    std::string last;
    size_t lineStart = 0;
    while (lineStart < r.out.size()) {
      size_t end = r.out.find('\n', lineStart);
      if (end == std::string::npos)
        end = r.out.size();
      const std::string line = r.out.substr(lineStart, end - lineStart);
      lineStart = end + 1;
      if (line.starts_with("  validation: ")) {
        if (!last.empty())
          results[last].messages.push_back(line.substr(14));
        continue;
      }
      const size_t colon = line.find(": ");
      if (colon == std::string::npos || !results.count(line.substr(0, colon)))
        continue; // the summary
      last = line.substr(0, colon);
      seen.insert(last);
      const std::string rest = line.substr(colon + 2);
      if (rest.starts_with("not loaded: ")) {
        results[last].notLoaded = rest.substr(12);
        continue;
      }
      const size_t model = rest.find("): ");
      results[last].outcomes.push_back(model == std::string::npos ? rest : rest.substr(model + 3));
    }
    if (seen.empty() && r.exitCode == 1 && r.out.empty()) // not a usage error (2)
      GTEST_SKIP() << "no Vulkan device with the validation layers: " << r.err;
    if (r.exitCode < 128)
      break;
    // The first file without a result crashed the process.
    size_t crashed = from;
    while (crashed < files.size() && seen.count(files[crashed]))
      ++crashed;
    if (crashed == files.size())
      break;
    results[files[crashed]].crashed = true;
    from = crashed + 1;
  }

  const std::map<std::string, std::string> known =
      readReasonList("dxil-translate-pipeline-known-failures.txt");
  struct StageCounts {
    size_t files = 0, translated = 0, entries = 0, accepted = 0, skipped = 0, rejected = 0;
  };
  std::map<std::string, StageCounts> counts;
  std::map<std::string, std::vector<std::string>> skips; // reason -> files
  std::vector<std::string> failures, knownRejections;
  for (const auto &[path, f] : results) {
    const std::string name = fs::path(path).filename().string();
    StageCounts &c = counts[f.stage];
    ++c.files;
    if (!f.notLoaded.empty())
      continue;
    ++c.translated;
    bool rejected = f.crashed;
    // A device with only VK_KHR_compute_shader_derivatives (Mesa 24 and later) gets modules
    // through SPV_KHR_compute_shader_derivatives, which validation layers built before it
    // (Debian 12's) refuse: a limit of the layers, not a rejection of the module.
    const bool layersPredateKhrDerivatives =
        !f.messages.empty() &&
        std::all_of(f.messages.begin(), f.messages.end(), [](const std::string &m) {
          return m.find("requires one of these extensions: SPV_NV_compute_shader_derivatives") !=
                 std::string::npos;
        });
    for (const std::string &o : f.outcomes) {
      ++c.entries;
      if (o != "ok" && !o.starts_with("skipped: ") && layersPredateKhrDerivatives) {
        ++c.skipped;
        skips["the validation layers' SPIR-V validator predates "
              "SPV_KHR_compute_shader_derivatives, the device's"]
            .push_back(fs::path(path).stem().string());
      } else if (o == "ok") {
        ++c.accepted;
      } else if (o.starts_with("skipped: ")) {
        ++c.skipped;
        skips[o.substr(9)].push_back(fs::path(path).stem().string());
      } else {
        ++c.rejected;
        rejected = true;
      }
    }
    if (f.crashed)
      ++c.rejected;
    if (f.outcomes.empty() && !f.crashed)
      failures.push_back(name + ": no result");
    auto k = known.find(name);
    if (!rejected) {
      if (k != known.end())
        failures.push_back(name + " is accepted now: remove it from "
                                  "dxil-translate-pipeline-known-failures.txt");
      continue;
    }
    std::string why = f.crashed ? std::string("the process crashed creating its pipeline")
                      : f.messages.empty() ? f.outcomes.front()
                                           : f.messages.front();
    (k == known.end() ? failures : knownRejections)
        .push_back(name + ": " + why + (k == known.end() ? "" : " (known: " + k->second + ")"));
  }
  std::printf("DXIL pipelines on lavapipe (or the first device) with the validation layers:\n");
  for (const auto &[stage, c] : counts)
    std::printf("  %s: %zu in the corpus, %zu translated, %zu entry points: %zu accepted, %zu "
                "skipped, %zu rejected\n",
                stage.c_str(), c.files, c.translated, c.entries, c.accepted, c.skipped, c.rejected);
  for (const auto &[why, names] : skips) {
    std::string list;
    for (const std::string &n : names)
      list += (list.empty() ? "" : ", ") + n;
    std::printf("  skipped %zu: %s: %s\n", names.size(), why.c_str(), list.c_str());
  }
  for (const std::string &k : knownRejections)
    std::printf("  known: %s\n", k.c_str());
  for (const std::string &f : failures)
    ADD_FAILURE() << f;
  size_t accepted = 0;
  for (const auto &[stage, c] : counts)
    accepted += c.accepted;
  EXPECT_GT(accepted, 0u) << "no pipeline was accepted";
}

} // namespace
