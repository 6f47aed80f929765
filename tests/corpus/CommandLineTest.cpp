// The spire program's structured-IR commands as a user runs them: spire translate both ways,
// spire opt, their exit codes (0 success, 1 invalid input, 2 usage error), one-line errors, and
// no output file left behind on failure.
#include "CorpusSupport.h"

#include <gtest/gtest.h>

#include <fstream>
#include <unistd.h>

using namespace spire::test;

namespace {

struct Temp {
  fs::path dir;
  Temp() {
    dir = fs::temp_directory_path() / ("spire-cli-test-" + std::to_string(::getpid()));
    fs::create_directories(dir);
  }
  ~Temp() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string path(const std::string &name) const { return (dir / name).string(); }
};

ToolResult runSpire(std::vector<std::string> args) {
  args.insert(args.begin(), SPIRE_TOOL);
  return runTool(args);
}

/// The bundled compute example as a binary.
std::string exampleBinary(const Temp &t) {
  std::string out = t.path("compute.spv");
  ToolResult r =
      runSpire({"as", std::string(SPIRE_SOURCE_DIR) + "/examples/compute.spvasm", "-o", out});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  return out;
}

size_t lines(const std::string &s) {
  size_t n = 0;
  for (char c : s)
    n += c == '\n';
  return n;
}

} // namespace

TEST(CommandLine, TranslateBothWays) {
  Temp t;
  std::string spv = exampleBinary(t), mlir = t.path("compute.mlir"), back = t.path("back.spv");
  ToolResult de = runSpire({"translate", "--deserialize-spirv", spv, "-o", mlir});
  ASSERT_EQ(de.exitCode, 0) << de.err;
  std::string text = readText(mlir);
  EXPECT_EQ(text.rfind("spirv.module Logical GLSL450", 0), 0u) << text;
  EXPECT_NE(text.find("spirv.func @main"), std::string::npos);
  ToolResult se = runSpire({"translate", "--serialize-spirv", mlir, "-o", back});
  ASSERT_EQ(se.exitCode, 0) << se.err;
  EXPECT_EQ(runSpire({"val", back}).exitCode, 0);
  // Generic and MLIR 16 forms parse back too.
  for (const char *form : {"--generic", "--mlir16"}) {
    std::string other = t.path(std::string("form") + form + ".mlir");
    ASSERT_EQ(runSpire({"translate", "--deserialize-spirv", form, spv, "-o", other}).exitCode, 0);
    EXPECT_EQ(runSpire({"translate", "--serialize-spirv", other, "-o", t.path("x.spv")}).exitCode,
              0)
        << form;
  }
}

TEST(CommandLine, OptRunsPassesOnEitherForm) {
  Temp t;
  std::string spv = exampleBinary(t), out = t.path("opt.spv"), text = t.path("opt.mlir");
  ToolResult list = runSpire({"opt", "--list-passes"});
  EXPECT_EQ(list.exitCode, 0);
  for (const char *pass : {"update-vce", "lower-abi-attrs", "canonicalize"})
    EXPECT_NE(list.out.find(pass), std::string::npos) << pass;
  ToolResult r = runSpire({"opt", "--passes", "canonicalize,update-vce", spv, "-o", out});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(runSpire({"val", out}).exitCode, 0);
  ASSERT_EQ(runSpire({"opt", "--passes", "update-vce", spv, "--emit", "mlir", "-o", text}).exitCode,
            0);
  EXPECT_EQ(readText(text).rfind("spirv.module", 0), 0u);
  // Without passes: the text is read, verified and written back unchanged.
  ToolResult same = runSpire({"opt", text});
  ASSERT_EQ(same.exitCode, 0) << same.err;
  EXPECT_EQ(same.out, readText(text));
}

TEST(CommandLine, BadInputIsOneLineExitOneAndNoOutput) {
  Temp t;
  std::string spv = exampleBinary(t);
  // A truncated binary.
  std::vector<uint8_t> bytes = readBytes(spv);
  bytes.resize(bytes.size() / 2);
  std::string broken = t.path("broken.spv"), out = t.path("never.mlir");
  {
    std::ofstream f(broken, std::ios::binary);
    f.write(reinterpret_cast<const char *>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  }
  ToolResult r = runSpire({"translate", "--deserialize-spirv", broken, "-o", out});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_FALSE(fs::exists(out));
  // Text that does not parse: the error names line and column.
  std::string bad = t.path("bad.mlir");
  {
    std::ofstream f(bad);
    f << "spirv.module Logical GLSL450 {\n  spirv.func @f() \"None\" {\n    spirv.Frobnicate\n";
  }
  r = runSpire({"translate", "--serialize-spirv", bad, "-o", t.path("never.spv")});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("bad.mlir:3:"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(t.path("never.spv")));
}

TEST(CommandLine, UsageErrorsExitTwo) {
  EXPECT_EQ(runSpire({"translate"}).exitCode, 2);
  ToolResult two = runSpire({"translate", "--deserialize-spirv", "a.spv", "b.spv"});
  EXPECT_EQ(two.exitCode, 2);
  EXPECT_NE(two.err.find("more than one input file"), std::string::npos) << two.err;
  EXPECT_EQ(runSpire({"translate", "--deserialize-spirv", "--frobnicate"}).exitCode, 2);
  ToolResult r = runSpire({"opt", "--passes", "no-such-pass", "-"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("no-such-pass"), std::string::npos) << r.err;
  EXPECT_EQ(runSpire({"translate", "--help"}).exitCode, 0);
  EXPECT_EQ(runSpire({"opt", "--help"}).exitCode, 0);
}
