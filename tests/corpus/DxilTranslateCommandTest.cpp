// spire translate --dxil-to-spirv as a user runs it: a container to a file or a directory, the
// MLIR and assembly views, the binding map as JSON; bad input and unsupported programs are one
// line with exit status 1 and no output file.
#include "CorpusSupport.h"

#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <fstream>

namespace spire::test {
namespace {

std::optional<fs::path> corpusFile(const std::string &name) {
  std::optional<fs::path> corpus = sharedCorpus();
  if (!corpus || !fs::exists(*corpus / "dxil" / name))
    return std::nullopt;
  return *corpus / "dxil" / name;
}

size_t lines(const std::string &s) { return size_t(std::count(s.begin(), s.end(), '\n')); }

TEST(DxilTranslateCommand, WritesValidModulesInEachForm) {
  std::optional<fs::path> in = corpusFile("bindless__bindless_cbv.dxil");
  if (!in)
    GTEST_SKIP() << "no DXIL corpus (../shared/corpus/dxil)";
  TempDir t("spire-dxil-translate-test");
  ToolResult r = runSpire({"translate", "--dxil-to-spirv", in->string(), "-o", t.path("a.spv")});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(runSpire({"val", "--target-env", "vulkan1.3", t.path("a.spv")}).exitCode, 0);

  // A directory: one <entry>.<form> per entry point.
  r = runSpire(
      {"translate", "--dxil-to-spirv", in->string(), "-o", t.path("out") + "/", "--emit", "mlir"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string mlir = readText(t.path("out/main.mlir"));
  EXPECT_NE(mlir.find("spirv.module Logical GLSL450"), std::string::npos) << mlir;
  EXPECT_NE(mlir.find("spirv.EntryPoint \"GLCompute\""), std::string::npos) << mlir;

  r = runSpire({"translate", "--dxil-to-spirv", in->string(), "--emit", "spvasm"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("OpEntryPoint GLCompute %main \"main\""), std::string::npos) << r.out;

  // The binding map: every descriptor with its D3D and Vulkan places.
  r = runSpire({"translate", "--dxil-to-spirv", in->string(), "-o", t.path("b.spv"), "--bindings",
                "json", "--binding-offsets", "0,10,20,30"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("\"entry\": \"main\""), std::string::npos) << r.out;
  // u0 in space 0 (+10), and an unbounded CBV array from b2 in space 1 (+20).
  EXPECT_NE(r.out.find(R"("class": "UAV",
      "kind": "RawBuffer",
      "name": "",
      "space": 0,
      "register": 0,
      "count": 1,
      "set": 0,
      "binding": 10,
      "type": "storage-buffer")"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(R"("space": 1,
      "register": 2,
      "count": "unbounded",
      "set": 1,
      "binding": 22,
      "type": "uniform-buffer")"),
            std::string::npos)
      << r.out;
}

/// A serialized root signature (version 1.0) of 32-bit constants parameters, each (register,
/// space, number of values).
std::vector<uint8_t> rootSignatureBlob(const std::vector<std::array<uint32_t, 3>> &constants) {
  std::vector<uint32_t> w = {1, uint32_t(constants.size()), 24, 0, 0, 0};
  const uint32_t data = 24 + 12 * uint32_t(constants.size());
  for (size_t i = 0; i < constants.size(); ++i)
    w.insert(w.end(), {1, 0, data + 12 * uint32_t(i)}); // Constants32Bit, visible to all
  for (const auto &c : constants)
    w.insert(w.end(), c.begin(), c.end());
  std::vector<uint8_t> bytes(w.size() * 4);
  std::memcpy(bytes.data(), w.data(), bytes.size());
  return bytes;
}

TEST(DxilTranslateCommand, RootConstantsFromARootSignatureArePushConstants) {
  std::optional<fs::path> in = corpusFile("command__cbv_hoisting.dxil");
  if (!in)
    GTEST_SKIP() << "no DXIL corpus (../shared/corpus/dxil)";
  TempDir t("spire-dxil-root-constants-test");
  // b1 of space 0 holds 4 root constants, after b5's 2 (which the shader does not use).
  const std::vector<uint8_t> blob = rootSignatureBlob({{5, 0, 2}, {1, 0, 4}});
  const std::string rts0 = t.path("root.rts0");
  {
    std::ofstream f(rts0, std::ios::binary);
    f.write(reinterpret_cast<const char *>(blob.data()), std::streamsize(blob.size()));
  }
  ToolResult r = runSpire({"translate", "--dxil-to-spirv", in->string(), "--root-signature", rts0,
                           "-o", t.path("a.spv"), "--bindings", "json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find(R"("register": 1,
      "count": 1,
      "offset": 8,
      "size": 16,
      "type": "push-constant")"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(runSpire({"val", "--target-env", "vulkan1.3", t.path("a.spv")}).exitCode, 0);
  r = runSpire({"dis", t.path("a.spv")});
  EXPECT_NE(r.out.find("PushConstant"), std::string::npos) << r.out;
  // b2 is an array of two: it cannot be root constants. A bad root signature is an error.
  const std::vector<uint8_t> arrayed = rootSignatureBlob({{2, 0, 4}});
  {
    std::ofstream f(rts0, std::ios::binary);
    f.write(reinterpret_cast<const char *>(arrayed.data()), std::streamsize(arrayed.size()));
  }
  r = runSpire({"translate", "--dxil-to-spirv", in->string(), "--root-signature", rts0, "-o",
                t.path("b.spv")});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("is an array that holds root constants"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(t.path("b.spv")));
  r = runSpire({"translate", "--dxil-to-spirv", in->string(), "--root-signature", in->string(),
                "-o", t.path("c.spv")});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("no root signature"), std::string::npos) << r.err;
  // Descriptor tables in the heap need the root signature that has them.
  EXPECT_EQ(runSpire({"translate", "--dxil-to-spirv", in->string(), "--descriptor-tables-in-heap",
                      "-o", t.path("d.spv")})
                .exitCode,
            2);
}

TEST(DxilTranslateCommand, BadInputIsOneLineAndNoOutput) {
  TempDir t("spire-dxil-translate-test");
  const std::string out = t.path("out.spv");
  // Not DXIL at all.
  {
    FILE *f = std::fopen(t.path("junk.dxil").c_str(), "wb");
    ASSERT_TRUE(f);
    std::fputs("DXBCnot really a container", f);
    std::fclose(f);
  }
  ToolResult r = runSpire({"translate", "--dxil-to-spirv", t.path("junk.dxil"), "-o", out});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_FALSE(fs::exists(out));

  // Usage errors.
  EXPECT_EQ(runSpire({"translate", "--dxil-to-spirv"}).exitCode, 2);
  EXPECT_EQ(runSpire({"translate", "--dxil-to-spirv", "x.dxil", "--emit", "text"}).exitCode, 2);
  EXPECT_EQ(
      runSpire({"translate", "--dxil-to-spirv", "x.dxil", "--binding-offsets", "1,2,3"}).exitCode,
      2);
  EXPECT_EQ(runSpire({"translate", "--dxil-to-spirv", "x.dxil", "--heap-set", "z"}).exitCode, 2);

  // An entry point that is not there.
  std::optional<fs::path> in = corpusFile("bindless__bindless_cbv.dxil");
  if (!in)
    GTEST_SKIP() << "no DXIL corpus (../shared/corpus/dxil)";
  r = runSpire({"translate", "--dxil-to-spirv", in->string(), "--entry", "nope", "-o", out});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("no entry point named 'nope'"), std::string::npos) << r.err;
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_FALSE(fs::exists(out));
}

/// spire run takes a container too: translated first, then reflected (no device needed for
/// --reflect) or run.
TEST(DxilTranslateCommand, RunTranslatesAContainerFirst) {
  std::optional<fs::path> in = corpusFile("bindless__bindless_cbv.dxil");
  std::optional<fs::path> library = corpusFile("rt__default.dxil");
  if (!in || !library)
    GTEST_SKIP() << "no DXIL corpus (../shared/corpus/dxil)";
  ToolResult r = runSpire({"run", in->string(), "--reflect"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("entry point GLCompute main local size 64 1 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("binding 0:1000 storage"), std::string::npos) << r.out;
  r = runSpire({"run", library->string(), "--reflect"});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("the program has no compute entry point"), std::string::npos) << r.err;
  EXPECT_EQ(lines(r.err), 1u) << r.err;
}

} // namespace
} // namespace spire::test
