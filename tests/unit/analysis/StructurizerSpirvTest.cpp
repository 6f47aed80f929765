// Structured random CFGs written as SPIR-V compute shaders: spire val accepts every one for
// Vulkan 1.3 (the rules the graph checker checks, judged on a real module).
#include "unit/analysis/CfgTestSupport.h"
#include "unit/analysis/StructuredSpirvText.h"

#include "spire/asm/Assembler.h"
#include "spire/val/Validator.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

namespace spire::analysis {
namespace {

void expectSpireValAccepts(const Cfg &cfg) {
  Expected<StructuredCfg> s = structurize(cfg);
  ASSERT_TRUE(s.ok()) << s.error().message;
  const std::string text = test::structuredSpirvText(cfg, *s);
  Expected<std::vector<uint32_t>> words = assemble(text);
  ASSERT_TRUE(words.ok()) << words.error().message << "\n" << text;
  std::vector<uint8_t> bytes(words->size() * 4);
  std::memcpy(bytes.data(), words->data(), bytes.size());
  val::Options options;
  options.env = *val::parseEnvironment("vulkan1.3");
  const val::Report report = val::validateBinary(bytes, options);
  ASSERT_TRUE(report.valid()) << report.problems.front().format() << "\n" << text;
}

TEST(StructurizerSpirv, SpireValAcceptsStructuredRandomGraphs) {
  std::mt19937 rng(77);
  for (uint32_t i = 0; i < 150; ++i) {
    SCOPED_TRACE("graph " + std::to_string(i));
    expectSpireValAccepts(
        test::randomReducibleCfg(rng, std::uniform_int_distribution<uint32_t>(1, 24)(rng)));
    expectSpireValAccepts(
        test::randomNestedCfg(rng, std::uniform_int_distribution<uint32_t>(1, 12)(rng)));
    if (::testing::Test::HasFailure())
      break;
  }
}

} // namespace
} // namespace spire::analysis
