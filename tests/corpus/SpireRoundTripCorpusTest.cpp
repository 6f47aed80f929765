// spire's own assembler and disassembler together: as(dis(x)) gives back x for every module of
// the corpora, in process (no reference tool involved).
#include "CorpusSupport.h"

#include "spire/asm/Assembler.h"
#include "spire/asm/Disassembler.h"
#include "spire/module/Module.h"

#include <gtest/gtest.h>

using namespace spire;
using namespace spire::test;

TEST(CorpusSpireRoundTrip, AssembleDisassembleGivesBackTheModule) {
  std::vector<fs::path> files = allModules();
  if (files.empty())
    GTEST_SKIP() << "no corpus: ../shared/corpus is absent and no generated corpus was built";
  // With raw ids and --preserve-numeric-ids every id keeps its number. The header's generator
  // word is the assembler's own, and the bound is recomputed as the largest id + 1, so a module
  // that declares a larger bound than it uses comes back with the smaller one.
  Tally exact("as(dis(x)) == x, raw ids, generator word aside");
  Tally boundOnly("  of which only the bound differs (unused ids, or ids past the bound)");
  Tally gated("  of which use what their version lacks, assembled for the newest version");
  parallelFor(files.size(), [&](size_t i) {
    // The recovering reader keeps what it cannot decode as raw words, printed as !<word>.
    Expected<Module> m =
        Module::fromBytes(readBytes(files[i]), {.allowIdsPastBound = true, .recover = true});
    if (!m) {
      exact.skipped(files[i], m.error().format());
      return;
    }
    DisassembleOptions dis;
    dis.friendlyNames = false;
    std::string text = disassemble(*m, dis);
    AssembleOptions as;
    as.version = m->version();
    as.preserveNumericIds = true;
    Expected<std::vector<uint32_t>> words = assemble(text, as);
    exact.compared();
    bool versionGated = false;
    if (!words && words.error().message.find("needs SPIR-V") != std::string::npos) {
      // The module uses what its own version does not have (an invalid module): the assembler,
      // like spirv-as, refuses that for the module's version; assemble for the newest version.
      as.version = grammar::grammarVersion();
      words = assemble(text, as);
      versionGated = true;
    }
    if (!words) {
      exact.differed(files[i], "does not assemble: " + words.error().format());
      return;
    }
    std::vector<uint32_t> a(m->words().begin(), m->words().end()), b = *words;
    a[2] = b[2] = 0;
    if (versionGated) {
      a[1] = b[1] = 0;
      gated.compared();
    }
    if (a == b)
      return;
    std::vector<uint32_t> a2 = a, b2 = b;
    a2[3] = b2[3] = 0;
    if (a2 == b2) {
      // Ids the module declares but never uses, or ids it uses at or above its bound.
      boundOnly.compared();
      return;
    }
    size_t k = 0;
    while (k < a.size() && k < b.size() && a[k] == b[k])
      ++k;
    exact.differed(files[i], "first different word " + std::to_string(k));
  });
  EXPECT_TRUE(exact.report());
  boundOnly.report();
  gated.report();
}
