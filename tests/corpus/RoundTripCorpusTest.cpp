// Reading every corpus module and writing it back gives the same bytes.
#include "CorpusSupport.h"

#include "spire/module/Module.h"

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
