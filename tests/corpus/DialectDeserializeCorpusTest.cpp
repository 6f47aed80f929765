// Deserialization on every corpus module the validator accepts: each must become a spirv.module
// that passes the IR verifier. Prints how many constructs became regions and how many stayed
// blocks with their merge instruction, and the reasons of failures, most frequent first.
#include "CorpusSupport.h"

#include "spire/dialect/Serialization.h"
#include "spire/dialect/Verifier.h"
#include "spire/module/Module.h"
#include "spire/val/Validator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <unistd.h>

using namespace spire;
using namespace spire::test;

namespace {

/// The share of valid corpus modules that must deserialize; it only rises.
constexpr double kDeserializeFloor = 0.98;

/// A failure message without its ids, to group failures by kind.
std::string category(std::string message) {
  std::string out;
  for (size_t i = 0; i < message.size(); ++i) {
    if (message[i] == '%') {
      out += "%N";
      while (i + 1 < message.size() && std::isdigit(static_cast<unsigned char>(message[i + 1])))
        ++i;
    } else {
      out += message[i];
    }
  }
  return out;
}

} // namespace

TEST(DialectDeserializeCorpus, ValidModulesDeserializeAndVerify) {
  std::vector<fs::path> files = allModules();
  if (files.empty())
    GTEST_SKIP() << "no corpus";
  std::mutex mu;
  size_t valid = 0, ok = 0;
  dialect::DeserializeStats total;
  std::map<std::string, size_t> failures;
  std::map<std::string, std::string> example;
  parallelFor(files.size(), [&](size_t i) {
    Expected<Module> m = Module::fromBytes(readBytes(files[i]));
    if (!m)
      return;
    val::Options options;
    options.env = *val::parseEnvironment("spv1.6");
    options.maxErrors = 1;
    if (val::validate(*m, options).errorCount() != 0)
      return;
    dialect::Context ctx;
    dialect::DeserializeStats stats;
    Expected<dialect::OwningOp> op = dialect::deserialize(ctx, *m, &stats);
    std::string problem;
    if (!op)
      problem = op.error().message;
    else if (Status s = dialect::verify(**op); !s)
      problem = "verifier: " + s.error().message;
    std::lock_guard<std::mutex> lock(mu);
    ++valid;
    total.selections += stats.selections;
    total.loops += stats.loops;
    total.unstructured += stats.unstructured;
    if (problem.empty()) {
      ++ok;
      return;
    }
    std::string c = category(problem);
    if (!failures[c]++)
      example[c] = displayName(files[i]);
  });
  std::printf("deserialize: %zu valid modules, %zu deserialized and verified (%.2f%%); "
              "constructs: %u selections, %u loops as regions, %u kept as blocks\n",
              valid, ok, valid ? 100.0 * ok / valid : 0.0, total.selections, total.loops,
              total.unstructured);
  std::vector<std::pair<size_t, std::string>> sorted;
  for (auto &[c, n] : failures)
    sorted.emplace_back(n, c);
  std::sort(sorted.rbegin(), sorted.rend());
  for (size_t k = 0; k < sorted.size() && k < 25; ++k)
    std::printf("  %5zu  %s  (e.g. %s)\n", sorted[k].first, sorted[k].second.c_str(),
                example[sorted[k].second].c_str());
  EXPECT_GE(valid ? double(ok) / valid : 1.0, kDeserializeFloor);
}

namespace {

/// The share of deserialized modules whose serialization spire val accepts; it only rises.
constexpr double kRoundTripFloor = 0.995;

std::string firstError(const val::Report &r) {
  for (const val::Problem &p : r.problems)
    if (p.severity == Severity::Error)
      return p.message;
  return {};
}

} // namespace

TEST(DialectDeserializeCorpus, SerializedModulesAreValid) {
  std::vector<fs::path> files = allModules();
  if (files.empty())
    GTEST_SKIP() << "no corpus";
  const bool haveSpirvVal = haveTool("spirv-val");
  std::mutex mu;
  size_t compared = 0, ok = 0, checkedBySpirvVal = 0, spirvValRejected = 0;
  std::map<std::string, size_t> failures;
  std::map<std::string, std::string> example;
  parallelFor(files.size(), [&](size_t i) {
    Expected<Module> m = Module::fromBytes(readBytes(files[i]));
    if (!m)
      return;
    val::Options options;
    options.env = *val::parseEnvironment("spv1.6");
    options.maxErrors = 1;
    if (val::validate(*m, options).errorCount() != 0)
      return;
    dialect::Context ctx;
    Expected<dialect::OwningOp> op = dialect::deserialize(ctx, *m);
    if (!op || !dialect::verify(**op))
      return;
    std::string problem;
    Expected<std::vector<uint32_t>> words = dialect::serialize(**op);
    std::vector<uint32_t> out;
    if (!words) {
      problem = "serialize: " + words.error().message;
    } else {
      out = *words;
      Expected<Module> back = Module::fromWords(out);
      if (!back)
        problem = "unreadable: " + back.error().message;
      else if (val::Report r = val::validate(*back, options); r.errorCount() != 0)
        problem = "invalid: " + firstError(r);
    }
    // spirv-val, the reference, on every 8th module spire accepts.
    bool bySpirvVal = problem.empty() && haveSpirvVal && i % 8 == 0;
    std::string spirvValMessage;
    if (bySpirvVal) {
      std::string bytes(reinterpret_cast<const char *>(out.data()), out.size() * 4);
      fs::path tmp = fs::temp_directory_path() / ("spire-roundtrip-" + std::to_string(::getpid()) +
                                                  "-" + std::to_string(i) + ".spv");
      {
        std::FILE *f = std::fopen(tmp.c_str(), "wb");
        std::fwrite(bytes.data(), 1, bytes.size(), f);
        std::fclose(f);
      }
      ToolResult r = runTool({"spirv-val", "--target-env", "spv1.6", tmp.string()});
      fs::remove(tmp);
      // Only where spirv-val accepts the original: spire val accepts a few it rejects.
      if (r.exitCode != 0 &&
          runTool({"spirv-val", "--target-env", "spv1.6", files[i].string()}).exitCode == 0)
        spirvValMessage = r.err.empty() ? r.out : r.err;
    }
    std::lock_guard<std::mutex> lock(mu);
    ++compared;
    if (bySpirvVal) {
      ++checkedBySpirvVal;
      if (!spirvValMessage.empty()) {
        ++spirvValRejected;
        std::string c =
            "spirv-val: " + category(spirvValMessage.substr(0, spirvValMessage.find('\n')));
        if (!failures[c]++)
          example[c] = displayName(files[i]);
      }
    }
    if (problem.empty()) {
      ++ok;
      return;
    }
    std::string c = category(problem);
    if (!failures[c]++)
      example[c] = displayName(files[i]);
  });
  std::printf("deserialize + serialize: %zu modules, %zu valid for spire val (%.2f%%); spirv-val "
              "checked %zu of them and rejected %zu\n",
              compared, ok, compared ? 100.0 * ok / compared : 0.0, checkedBySpirvVal,
              spirvValRejected);
  std::vector<std::pair<size_t, std::string>> sorted;
  for (auto &[c, n] : failures)
    sorted.emplace_back(n, c);
  std::sort(sorted.rbegin(), sorted.rend());
  for (size_t k = 0; k < sorted.size() && k < 30; ++k)
    std::printf("  %5zu  %s  (e.g. %s)\n", sorted[k].first, sorted[k].second.c_str(),
                example[sorted[k].second].c_str());
  EXPECT_GE(compared ? double(ok) / compared : 1.0, kRoundTripFloor);
}
