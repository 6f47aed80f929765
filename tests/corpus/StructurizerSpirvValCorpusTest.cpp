// Structured random CFGs written as SPIR-V compute shaders, judged by spirv-val for Vulkan 1.3
// (skipped when it is not installed): the reference validator agrees that the structurizer's
// output follows the structured control flow rules.
#include "CorpusSupport.h"
#include "unit/analysis/CfgTestSupport.h"
#include "unit/analysis/StructuredSpirvText.h"

#include "spire/asm/Assembler.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <random>
#include <unistd.h>

namespace spire::analysis {
namespace fs = std::filesystem;
namespace {

TEST(StructurizerSpirvVal, SpirvValAcceptsStructuredRandomGraphs) {
  const std::string tool = spire::test::referenceTool("spirv-val");
  if (!spire::test::haveTool(tool))
    GTEST_SKIP() << "spirv-val is not installed";
  const fs::path dir =
      fs::temp_directory_path() / ("spire-structurizer-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::mt19937 rng(2026);
  uint32_t accepted = 0;
  const uint32_t count = 120;
  for (uint32_t i = 0; i < count; ++i) {
    const Cfg cfg = i % 2 ? analysis::test::randomNestedCfg(
                                rng, std::uniform_int_distribution<uint32_t>(1, 14)(rng))
                          : analysis::test::randomReducibleCfg(
                                rng, std::uniform_int_distribution<uint32_t>(1, 26)(rng));
    Expected<StructuredCfg> s = structurize(cfg);
    ASSERT_TRUE(s.ok()) << s.error().message;
    const std::string text = analysis::test::structuredSpirvText(cfg, *s);
    Expected<std::vector<uint32_t>> words = assemble(text);
    ASSERT_TRUE(words.ok()) << words.error().message;
    const fs::path file = dir / ("cfg" + std::to_string(i) + ".spv");
    {
      std::ofstream out(file, std::ios::binary);
      out.write(reinterpret_cast<const char *>(words->data()),
                static_cast<std::streamsize>(words->size() * 4));
    }
    const spire::test::ToolResult r =
        spire::test::runTool({tool, "--target-env", "vulkan1.3", file.string()});
    EXPECT_EQ(r.exitCode, 0) << "graph " << i << ": " << r.err << r.out << "\n" << text;
    accepted += r.exitCode == 0;
    if (r.exitCode != 0)
      break;
  }
  fs::remove_all(dir);
  std::printf("spirv-val accepted %u of %u structured random graphs\n", accepted, count);
}

} // namespace
} // namespace spire::analysis
