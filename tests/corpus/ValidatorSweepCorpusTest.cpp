// spirv-val, the reference, on every combination of an instruction that the agreement sweep
// (tests/unit/val/AgreementSweep.h) finds spire val accepting: what spire val lets through,
// spirv-val must too. It needs no corpus, only spirv-val on the PATH. Where spirv-val rejects
// what spire accepts, a rule is missing from spire val (or spirv-val has one the specification
// does not: such a case goes into known-reference-bugs.txt under "sweep" with the form's name).
#include "CorpusSupport.h"
#include "unit/val/AgreementSweep.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <unistd.h>

namespace spire::test {
namespace {

TEST(CorpusValidator, SpirvValAcceptsWhatTheSweepAccepts) {
  if (!haveTool(referenceTool("spirv-val")))
    GTEST_SKIP() << "spirv-val is not on the PATH";
  struct Accepted {
    std::string form;
    std::vector<uint8_t> bytes;
  };
  std::vector<Accepted> accepted;
  for (const val::sweep::Spec *spec : {&val::sweep::kShader, &val::sweep::kKernel,
                                       &val::sweep::kSpecShader, &val::sweep::kSpecKernel}) {
    val::sweep::Tally tally;
    tally.onAccepted = [&](const std::string &form, const Module &m) {
      accepted.push_back({form, m.toBytes()});
    };
    val::sweep::sweepAll(*spec, tally);
  }
  // The sweep reaches thousands (8241 when this was written, 1637 of them specialization constant
  // operations; about 700 under the sanitizers, which sweep every kStride-th form): a handful
  // would mean the pools no longer validate or the search broke, and the check below would
  // prove nothing.
  EXPECT_GT(accepted.size(), 5000u / val::sweep::kStride);
  Tally tally("spirv-val on the combinations spire val accepts (the agreement sweep)");
  const fs::path dir = fs::temp_directory_path() / ("spire-sweep-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  parallelFor(accepted.size(), [&](size_t i) {
    const fs::path file = dir / (accepted[i].form + "-" + std::to_string(i) + ".spv");
    if (std::FILE *f = std::fopen(file.c_str(), "wb")) {
      std::fwrite(accepted[i].bytes.data(), 1, accepted[i].bytes.size(), f);
      std::fclose(f);
    }
    ToolResult r = runTool({referenceTool("spirv-val"), "--target-env", "spv1.6", file.string()});
    tally.compared();
    if (r.exitCode == 0) {
      fs::remove(file);
      return;
    }
    const std::string message = r.err.empty() ? r.out : r.err;
    if (std::optional<std::string> reason = knownReferenceBug("sweep", accepted[i].form))
      tally.explained(file, *reason);
    else
      tally.differed(file, message.substr(0, message.find('\n')));
  });
  EXPECT_TRUE(tally.report());
  if (tally.numDiffered() == 0)
    fs::remove_all(dir);
}

} // namespace
} // namespace spire::test
