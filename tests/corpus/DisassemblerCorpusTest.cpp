// spire's disassembler against spirv-dis over every corpus module: the texts must be identical,
// byte for byte, for the default options and for each of spirv-dis's output options.
#include "CorpusSupport.h"
#include "DisassemblerGrammarAliases.h"

#include "spire/asm/Disassembler.h"
#include "spire/module/Module.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>

using namespace spire;
using namespace spire::test;

namespace {

struct OptionSet {
  const char *name;
  std::vector<std::string> flags; ///< spirv-dis's
  DisassembleOptions options;     ///< spire's
  bool everyModule; ///< otherwise every fourth module, in turns (all with SPIRE_DIS_FULL=1)
};

std::vector<OptionSet> optionSets() {
  return {
      {"default", {}, {}, true},
      {"--raw-id", {"--raw-id"}, {.friendlyNames = false}, true},
      {"--no-header --no-indent",
       {"--no-header", "--no-indent"},
       {.header = false, .indent = false},
       false},
      {"--offsets", {"--offsets"}, {.offsets = true}, false},
      {"--color", {"--color"}, {.color = true}, false},
      {"--comment", {"--comment"}, {.comment = true}, false},
  };
}

} // namespace

TEST(CorpusDisassembler, IdenticalToSpirvDis) {
  if (!haveTool(referenceTool("spirv-dis")))
    GTEST_SKIP() << "spirv-dis is not installed";
  std::vector<fs::path> files = allModules();
  if (files.empty())
    GTEST_SKIP() << "no corpus: ../shared/corpus is absent and no generated corpus was built";
  const bool full = std::getenv("SPIRE_DIS_FULL") != nullptr;
  // Built with another grammar revision than spirv-dis, spire may name a value differently.
  const bool sameGrammar = sameGrammarAsReference();
  const std::string otherGrammar =
      "spire's grammar (revision " + std::to_string(grammar::grammarRevision()) +
      ") names some opcodes or enumerants differently from spirv-dis's";
  if (!sameGrammar)
    std::printf("spire's grammar is not spirv-dis's: differences in names only are explained\n");
  const std::vector<OptionSet> sets = optionSets();
  std::vector<std::unique_ptr<Tally>> tallies;
  for (const OptionSet &set : sets)
    tallies.push_back(std::make_unique<Tally>(std::string("spire dis ") + set.name));
  Tally rejected("modules spirv-dis rejects: spire rejects them too (compared) or prints them");
  std::atomic<int64_t> spireMicros{0};

  parallelFor(files.size(), [&](size_t i) {
    const fs::path &file = files[i];
    std::vector<uint8_t> bytes = readBytes(file);
    auto start = std::chrono::steady_clock::now();
    Expected<Module> module = Module::fromBytes(bytes, {.allowIdsPastBound = true});
    spireMicros += std::chrono::duration_cast<std::chrono::microseconds>(
                       std::chrono::steady_clock::now() - start)
                       .count();
    // One option set in turn per module besides the two that see every module.
    size_t turn = 0;
    for (size_t s = 0; s < sets.size(); ++s) {
      const OptionSet &set = sets[s];
      if (!set.everyModule && !full && (turn++ % 4) != i % 4)
        continue;
      Tally &tally = *tallies[s];
      std::vector<std::string> argv = {referenceTool("spirv-dis")};
      argv.insert(argv.end(), set.flags.begin(), set.flags.end());
      argv.push_back(file.string());
      ToolResult ref = runTool(argv);
      if (ref.exitCode != 0) {
        tally.skipped(file, "spirv-dis rejects it");
        if (s == 0) {
          // spire must reject it with an error or print it, never fail otherwise.
          if (module) {
            std::string text = disassemble(*module, set.options);
            if (text.empty())
              rejected.differed(file, "spire printed nothing");
            else
              rejected.skipped(file, "spire prints it");
          } else {
            rejected.compared();
          }
        }
        continue;
      }
      tally.compared();
      std::string detail;
      if (!module) {
        detail = "spire rejects it: " + module.error().format();
      } else {
        start = std::chrono::steady_clock::now();
        std::string text = disassemble(*module, set.options);
        spireMicros += std::chrono::duration_cast<std::chrono::microseconds>(
                           std::chrono::steady_clock::now() - start)
                           .count();
        if (text == ref.out)
          continue;
        detail = firstDifference(text, ref.out);
      }
      if (std::optional<std::string> why = knownReferenceBug("dis", file))
        tally.explained(file, *why);
      else if (!sameGrammar && module &&
               equalModuloAliases(disassemble(*module, set.options), ref.out))
        tally.explained(file, otherGrammar);
      else if (std::optional<std::string> why2 =
                   sameGrammar ? std::nullopt : knownReferenceBug("dis-other-grammar", file))
        tally.explained(file, *why2);
      else
        tally.differed(file, detail);
    }
  });

  for (const auto &tally : tallies)
    EXPECT_TRUE(tally->report());
  EXPECT_TRUE(rejected.report());
  std::printf("spire (read and disassemble, all option sets): %.3f s CPU\n", spireMicros * 1e-6);
}
