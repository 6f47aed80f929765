// `spire run --create-pipeline` as a user runs it: an accepted module prints ok (exit 0), a module
// the validation layers reject prints their messages (exit 1), scripts and missing files are
// refused. Skips without a Vulkan device with the validation layers.
#include "CorpusSupport.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace spire::test;

namespace {

std::string compute(std::string_view localSize) {
  return std::string(R"(               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize )") +
         std::string(localSize) + R"(
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)";
}

TEST(CreatePipelineCommand, PrintsOkOrTheLayersMessages) {
  TempDir t("spire-create-pipeline");
  const std::string good = t.path("good.spvasm"), big = t.path("big.spvasm");
  std::ofstream(good) << compute("8 1 1");
  std::ofstream(big) << compute("65536 1 1"); // beyond every device's maxComputeWorkGroupSize
  ToolResult ok = runSpire({"run", "--create-pipeline", good});
  if (ok.exitCode == 1 && ok.out.empty()) // exit 2, a usage error, is a failure below
    GTEST_SKIP() << "no Vulkan device with the validation layers: " << ok.err;
  EXPECT_EQ(ok.exitCode, 0) << ok.out << ok.err;
  EXPECT_EQ(ok.out, good + ": main (GLCompute): ok\n");

  ToolResult both = runSpire({"run", "--create-pipeline", good, big});
  EXPECT_EQ(both.exitCode, 1);
  EXPECT_NE(both.out.find(good + ": main (GLCompute): ok\n"), std::string::npos) << both.out;
  EXPECT_NE(both.out.find(big + ": main (GLCompute): rejected\n  validation: "), std::string::npos)
      << both.out;
  EXPECT_NE(both.out.find("1 accepted, 1 rejected, 0 skipped, 0 not loaded"), std::string::npos)
      << both.out;

  ToolResult missing = runSpire({"run", "--create-pipeline", t.path("none.spv")});
  EXPECT_EQ(missing.exitCode, 1);
  const std::string script = t.path("s.amber");
  std::ofstream(script) << "#!amber\n";
  EXPECT_EQ(runSpire({"run", "--create-pipeline", script}).exitCode, 2);
}

} // namespace
