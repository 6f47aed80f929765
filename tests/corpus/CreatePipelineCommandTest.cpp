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

// A fragment shader in a pipeline with a given vertex shader: vkd3d-proton's pso__ps_mismatch_3
// reads ARG2 from row 2, where pso__vs_mismatch writes ARG1 (ARG2 is at its row 3). D3D12 links
// them by semantic; translated on its own the pixel shader's location 2 meets the vertex
// shader's and the layers refuse the types, linked (--vertex with a DXIL vertex shader, as
// spire translate --previous-stage) every pixel shader of the family is accepted.
TEST(CreatePipelineCommand, AFragmentShaderLinkedToItsVertexShader) {
  std::optional<fs::path> corpus = sharedCorpus();
  if (!corpus || !fs::exists(*corpus / "dxil" / "pso__vs_mismatch.dxil"))
    GTEST_SKIP() << "no DXIL corpus (../shared/corpus/dxil)";
  const fs::path dir = *corpus / "dxil";
  const std::string vs = (dir / "pso__vs_mismatch.dxil").string();
  TempDir t("spire-create-pipeline-linked");
  const std::string vsSpv = t.path("vs.spv"), psSpv = t.path("ps3.spv");
  ASSERT_EQ(runSpire({"translate", "--dxil-to-spirv", vs, "-o", vsSpv}).exitCode, 0);
  ASSERT_EQ(runSpire({"translate", "--dxil-to-spirv", (dir / "pso__ps_mismatch_3.dxil").string(),
                      "-o", psSpv})
                .exitCode,
            0);
  ToolResult alone = runSpire({"run", "--create-pipeline", "--vertex", vsSpv, psSpv});
  if (alone.exitCode == 1 && alone.out.empty())
    GTEST_SKIP() << "no Vulkan device with the validation layers: " << alone.err;
  EXPECT_EQ(alone.exitCode, 1) << alone.out;
  EXPECT_NE(alone.out.find("rejected"), std::string::npos) << alone.out;
  EXPECT_NE(alone.out.find("location 2"), std::string::npos) << alone.out;

  std::vector<std::string> args{"run", "--create-pipeline", "--vertex", vs};
  for (const char *ps : {"pso__ps_mismatch_ref", "pso__ps_mismatch_1", "pso__ps_mismatch_3",
                         "pso__ps_mismatch_so_1"})
    args.push_back((dir / (std::string(ps) + ".dxil")).string());
  ToolResult linked = runSpire(args);
  EXPECT_EQ(linked.exitCode, 0) << linked.out << linked.err;
  EXPECT_NE(linked.out.find("4 accepted, 0 rejected, 0 skipped, 0 not loaded"), std::string::npos)
      << linked.out;
}

} // namespace
