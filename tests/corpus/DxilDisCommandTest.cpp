// spire dis on DXIL as a user runs it: a container or bare bitcode, from a file or standard
// input, to standard output or a file; bad input is one line with its location, exit status 1
// and no output file.
#include "CorpusSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <unistd.h>

using namespace spire::test;

namespace {

struct Temp : TempDir {
  Temp() : TempDir("spire-dxil-dis-test") {}
};

std::optional<fs::path> someContainer() {
  std::optional<fs::path> corpus = sharedCorpus();
  if (!corpus)
    return std::nullopt;
  fs::path f = *corpus / "dxil" / "bindless__bindless_cbv.dxil";
  if (!fs::exists(f))
    return std::nullopt;
  return f;
}

/// The text after the ModuleID and source_filename lines.
std::string body(const std::string &text) {
  size_t at = text.find("target datalayout");
  return at == std::string::npos ? text : text.substr(at);
}

void writeBytes(const std::string &path, std::string_view bytes) {
  FILE *f = std::fopen(path.c_str(), "wb");
  ASSERT_TRUE(f);
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
}

size_t lines(const std::string &s) { return size_t(std::count(s.begin(), s.end(), '\n')); }

} // namespace

TEST(DxilDisCommand, ContainerFileStdinAndOutputFile) {
  std::optional<fs::path> container = someContainer();
  if (!container)
    GTEST_SKIP() << "no DXIL corpus (../shared/corpus/dxil)";
  Temp t;
  ToolResult toStdout = runSpire({"dis", container->string()});
  ASSERT_EQ(toStdout.exitCode, 0) << toStdout.err;
  // The container's comment lines come first, then the program.
  EXPECT_EQ(toStdout.out.rfind("; DXIL container 1.0, ", 0), 0u);
  EXPECT_NE(toStdout.out.find("\n; ModuleID = '"), std::string::npos);
  EXPECT_NE(toStdout.out.find("target triple = \"dxil-ms-dx\"\n"), std::string::npos);
  EXPECT_NE(toStdout.out.find("define void @main() {\n"), std::string::npos);
  EXPECT_NE(toStdout.out.find("!dx.shaderModel = !{!"), std::string::npos);
  // The header ends with the program's DXIL model: its entry points and resources.
  EXPECT_NE(toStdout.out.find("\n; DXIL model: "), std::string::npos);
  EXPECT_NE(toStdout.out.find("\n; Resources (dx.resources)"), std::string::npos);
  EXPECT_EQ(toStdout.out.find("not decoded"), std::string::npos);

  std::vector<uint8_t> bytes = readBytes(*container);
  std::string_view raw(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  ToolResult fromStdin = runSpire({"dis", "-"}, raw);
  ASSERT_EQ(fromStdin.exitCode, 0) << fromStdin.err;
  EXPECT_NE(fromStdin.out.find("\n; ModuleID = '<stdin>'\n"), std::string::npos);
  EXPECT_EQ(body(fromStdin.out), body(toStdout.out));

  std::string out = t.path("out.ll");
  ToolResult toFile = runSpire({"dis", container->string(), "-o", out});
  ASSERT_EQ(toFile.exitCode, 0) << toFile.err;
  EXPECT_TRUE(toFile.out.empty());
  EXPECT_EQ(readText(out), toStdout.out);
}

TEST(DxilDisCommand, ContainerOnlyJsonAndNoHeader) {
  std::optional<fs::path> container = someContainer();
  if (!container)
    GTEST_SKIP() << "no DXIL corpus (../shared/corpus/dxil)";
  ToolResult all = runSpire({"dis", container->string()});
  ToolResult summary = runSpire({"dis", "--container-only", container->string()});
  ASSERT_EQ(summary.exitCode, 0) << summary.err;
  // The summary alone is what precedes the program, every line a comment.
  EXPECT_EQ(all.out.rfind(summary.out, 0), 0u);
  EXPECT_EQ(summary.out.find("ModuleID"), std::string::npos);
  for (size_t at = 0; at < summary.out.size(); at = summary.out.find('\n', at) + 1)
    ASSERT_EQ(summary.out[at], ';') << summary.out.substr(at, 40);
  ToolResult json = runSpire({"dis", "--format", "json", container->string()});
  ASSERT_EQ(json.exitCode, 0) << json.err;
  EXPECT_EQ(json.out.rfind("{", 0), 0u);
  EXPECT_NE(json.out.find("\"digestStatus\": \"signed\""), std::string::npos);
  ToolResult program = runSpire({"dis", "--no-header", container->string()});
  EXPECT_EQ(program.out.rfind("; ModuleID = '", 0), 0u);
  EXPECT_EQ(runSpire({"dis", "--format", "yaml", container->string()}).exitCode, 2);
}

TEST(DxilDisCommand, BareBitcodeMatchesTheContainer) {
  std::optional<fs::path> container = someContainer();
  if (!container)
    GTEST_SKIP() << "no DXIL corpus (../shared/corpus/dxil)";
  Temp t;
  std::vector<uint8_t> bytes = readBytes(*container);
  // The DXIL part's bitcode: find 'BC' 0xC0DE after the program header.
  std::string_view raw(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  size_t magic = raw.find(std::string_view("BC\xC0\xDE", 4));
  ASSERT_NE(magic, std::string_view::npos);
  // The program header's BitcodeSize is the word before the bitcode's offset field's target.
  uint32_t size = 0;
  std::memcpy(&size, bytes.data() + magic - 4, 4);
  ASSERT_LE(magic + size, bytes.size());
  std::string bc = t.path("program.bc");
  writeBytes(bc, raw.substr(magic, size));
  ToolResult fromBitcode = runSpire({"dis", bc});
  ASSERT_EQ(fromBitcode.exitCode, 0) << fromBitcode.err;
  ToolResult fromContainer = runSpire({"dis", container->string()});
  EXPECT_EQ(body(fromBitcode.out), body(fromContainer.out));
  EXPECT_NE(fromBitcode.out.find("; ModuleID = '" + bc + "'"), std::string::npos);
}

TEST(DxilDisCommand, BadInputIsOneLineExitOneAndNoOutput) {
  Temp t;
  struct Case {
    std::string name;
    std::string bytes;
    const char *expect;
  } cases[] = {
      {"truncated.dxil", std::string("DXBC\0\0\0\0", 8), "error"},
      {"garbage.bc", std::string("BC\xC0\xDE\xFF\xFF\xFF\xFF\x12\x34\x56\x78", 12), "bit"},
      {"short.bc", std::string("BC\xC0\xDE\x35", 5), "multiple of 4"},
      {"wrapper.bc", std::string("\xDE\xC0\x17\x0B\0\0\0\0\xFF\0\0\0", 12), "wrapper"},
  };
  for (const Case &c : cases) {
    std::string in = t.path(c.name), out = t.path(c.name + ".ll");
    writeBytes(in, c.bytes);
    ToolResult r = runSpire({"dis", in, "-o", out});
    EXPECT_EQ(r.exitCode, 1) << c.name;
    EXPECT_EQ(lines(r.err), 1u) << c.name << ": " << r.err;
    EXPECT_NE(r.err.find(c.expect), std::string::npos) << c.name << ": " << r.err;
    EXPECT_NE(r.err.find(in), std::string::npos) << c.name << ": " << r.err;
    EXPECT_FALSE(fs::exists(out)) << c.name;
  }
}
