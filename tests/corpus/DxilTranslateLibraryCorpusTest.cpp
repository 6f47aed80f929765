// spire translate --dxil-to-spirv on the corpus libraries (lib_6_x) as a user runs it: every
// ray tracing entry and work graph node becomes a module of its own under -o dir/, accepted by
// spirv-val for vulkan1.3 (node shaders: by the newer SPIRV-Tools, which know AMDX).
#include "CorpusSupport.h"

#include <gtest/gtest.h>

#include <unistd.h>

using namespace spire::test;

TEST(DxilTranslateLibraries, RayTracingEntriesAndNodeShadersTranslate) {
  std::optional<fs::path> corpus = sharedCorpus();
  if (!corpus || !fs::exists(*corpus / "dxil" / "MANIFEST.tsv"))
    GTEST_SKIP() << "../shared/corpus/dxil is not there";
  const std::string spirvVal = referenceTool("spirv-val");
  const bool haveSpirvVal = haveTool(spirvVal);
  const fs::path out =
      fs::temp_directory_path() / ("spire-translate-lib-test-" + std::to_string(::getpid()));
  size_t libraries = 0, translated = 0, modules = 0, nodeLibraries = 0;
  for (const std::vector<std::string> &row : readTsv(*corpus / "dxil" / "MANIFEST.tsv")) {
    if (row.size() < 5 || row[4].rfind("lib_", 0) != 0)
      continue;
    ++libraries;
    const fs::path input = *corpus / "dxil" / row[0];
    const fs::path dir = out / fs::path(row[0]).stem();
    ToolResult r =
        runSpire({"translate", "--dxil-to-spirv", input.string(), "-o", dir.string() + "/"});
    const std::vector<fs::path> written = filesUnder(dir, ".spv");
    const bool nodes = row[0].rfind("workgraph__", 0) == 0;
    nodeLibraries += nodes;
    EXPECT_EQ(r.exitCode, 0) << row[0] << ": " << r.err;
    if (r.exitCode != 0)
      continue;
    EXPECT_FALSE(written.empty()) << row[0];
    ++translated;
    for (const fs::path &spv : written)
      EXPECT_EQ(spv.filename().string().find_first_of("?@\x01"), std::string::npos) << spv;
    for (const fs::path &spv : written) {
      ++modules;
      if (!haveSpirvVal || (nodes && !newReferenceTools()))
        continue;
      ToolResult v = runTool({spirvVal, "--target-env", "vulkan1.3", spv.string()});
      EXPECT_EQ(v.exitCode, 0) << spv << ": " << v.out << v.err;
    }
  }
  std::error_code ec;
  fs::remove_all(out, ec);
  std::printf("corpus libraries: %zu; translated: %zu (%zu modules%s), of them work graph "
              "libraries: %zu\n",
              libraries, translated, modules, haveSpirvVal ? ", spirv-val vulkan1.3" : "",
              nodeLibraries);
  EXPECT_GT(libraries, 0u);
}

TEST(DxilTranslateLibraries, ALibraryWithSeveralEntriesNeedsADirectoryOrAnEntry) {
  std::optional<fs::path> corpus = sharedCorpus();
  const fs::path input = corpus ? *corpus / "dxil" / "rt__default.dxil" : fs::path();
  if (!corpus || !fs::exists(input))
    GTEST_SKIP() << "../shared/corpus/dxil/rt__default.dxil is not there";
  const fs::path out =
      fs::temp_directory_path() / ("spire-translate-lib-entry-" + std::to_string(::getpid()));
  fs::create_directories(out);
  ToolResult all =
      runSpire({"translate", "--dxil-to-spirv", input.string(), "-o", (out / "one.spv").string()});
  EXPECT_EQ(all.exitCode, 1);
  EXPECT_NE(all.err.find("the program has 6 entry points"), std::string::npos) << all.err;
  EXPECT_FALSE(fs::exists(out / "one.spv"));
  ToolResult one = runSpire({"translate", "--dxil-to-spirv", input.string(), "--entry", "RayGen",
                             "-o", (out / "one.spv").string(), "--emit", "spvasm"});
  EXPECT_EQ(one.exitCode, 0) << one.err;
  // The export's HLSL name, not its mangled one.
  EXPECT_NE(readText(out / "one.spv").find("OpEntryPoint RayGenerationKHR %RayGen \"RayGen\""),
            std::string::npos)
      << readText(out / "one.spv");
  std::error_code ec;
  fs::remove_all(out, ec);
}
