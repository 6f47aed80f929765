// Reading every corpus module and writing it back gives the same bytes.
#include "CorpusSupport.h"

#include "spire/module/Module.h"

#include <atomic>

#include <gtest/gtest.h>

using namespace spire;
using namespace spire::test;

TEST(CorpusRoundTrip, ReadThenWriteIsExact) {
  std::vector<fs::path> files = allModules();
  if (files.empty())
    GTEST_SKIP() << "no corpus: ../shared/corpus is absent and no generated corpus was built";
  Tally strict("binary round trip (strict reading)");
  Tally lenient("binary round trip (recovering reader)");
  parallelFor(files.size(), [&](size_t i) {
    std::vector<uint8_t> bytes = readBytes(files[i]);
    Expected<Module> m = Module::fromBytes(bytes);
    if (m) {
      strict.compared();
      if (m->toBytes() != bytes)
        strict.differed(files[i], "written bytes differ");
    } else {
      strict.skipped(files[i], m.error().format());
    }
    Expected<Module> r = Module::fromBytes(bytes, {.allowIdsPastBound = true, .recover = true});
    if (!r) {
      // Only a broken header or word count stops the recovering reader.
      lenient.skipped(files[i], r.error().format());
      EXPECT_TRUE(r.error().message.find("word count") != std::string::npos ||
                  r.error().message.find("header") != std::string::npos)
          << r.error().format(displayName(files[i]));
      return;
    }
    lenient.compared();
    if (r->toBytes() != bytes)
      lenient.differed(files[i], "written bytes differ");
  });
  EXPECT_TRUE(strict.report());
  EXPECT_TRUE(lenient.report());
}

// The reader's shortcuts (no operands stored for instructions of fixed shape; operands of
// strings, enumerant tails such as OpDecorate %x Location 0 and scalar constants stored without
// the decoder's walk) must say exactly what the full decoder says.
TEST(CorpusRoundTrip, FixedShapeOperandsAgreeWithTheFullDecoder) {
  std::vector<fs::path> files = allModules();
  if (files.empty())
    GTEST_SKIP() << "no corpus: ../shared/corpus is absent and no generated corpus was built";
  Tally tally("fixed-shape operands against the full decoder");
  std::atomic<size_t> fixedCount{0}, total{0};
  parallelFor(files.size(), [&](size_t i) {
    Expected<Module> m = Module::fromBytes(readBytes(files[i]), {.allowIdsPastBound = true});
    if (!m)
      return;
    tally.compared();
    binary::Decoder decoder;
    decoder.reset(m->bound(), *m, {.allowIdsPastBound = true});
    FlatVector<binary::Operand> full;
    for (Instruction inst : *m) {
      ++total;
      const grammar::InstructionDesc *desc = inst.desc();
      bool fixed = desc != nullptr && decoder.decodeFixed(inst.words(), *desc);
      full.clear();
      // Decoding an instruction again only notes an OpExtInstImport twice, which is harmless.
      if (!decoder.decode(inst.words(), desc, full)) {
        tally.differed(files[i],
                       "instruction " + std::to_string(inst.index()) + " no longer decodes");
        return;
      }
      fixedCount += fixed;
      auto stored = inst.operands();
      bool same = stored.size() == full.size();
      for (size_t k = 0; same && k < full.size(); ++k)
        same = stored[k].offset == full[k].offset && stored[k].numWords == full[k].numWords &&
               stored[k].kind == full[k].kind && stored[k].number == full[k].number &&
               stored[k].bitWidth == full[k].bitWidth;
      if (!same) {
        tally.differed(files[i], "operands of instruction " + std::to_string(inst.index()) + " (" +
                                     std::string(desc ? desc->name : "?") + ") differ");
        return;
      }
    }
  });
  std::printf("%zu of %zu instructions have a fixed shape\n", fixedCount.load(), total.load());
  EXPECT_TRUE(tally.report());
}
