// Every DXIL container of the shared corpus: its program read by spire and printed as LLVM
// assembly must match llvm-dis-14's text for the same bitcode (the ModuleID and source_filename
// lines and comments aside). Files that differ must be listed, with the reason, in
// tests/corpus/dxil-known-differences.txt; a listed file that no longer differs fails too.
#include "CorpusSupport.h"

#include "spire/dxil/BitcodeReader.h"
#include "spire/dxil/Container.h"
#include "spire/dxil/LlvmPrinter.h"

#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <map>
#include <sstream>

namespace spire::test {
namespace {

/// The bitcode of a container's DXIL part, or an explanation.
bool extractBitcode(const std::vector<uint8_t> &bytes, std::span<const uint8_t> &bitcode,
                    std::string &why) {
  Expected<dxil::Container> container = dxil::readContainer(bytes);
  if (!container) {
    why = container.error().format();
    return false;
  }
  const dxil::ContainerPart *part = container->find(dxil::FourCC::of("DXIL"));
  if (!part) {
    why = "no DXIL part";
    return false;
  }
  Expected<dxil::ProgramHeader> program = dxil::readProgramHeader(*part);
  if (!program) {
    why = program.error().format();
    return false;
  }
  bitcode = program->bitcode;
  return true;
}

/// The text without the ModuleID and source_filename lines and without comments (whole-line
/// comments, and the "; preds" comments after block labels).
std::string normalize(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos)
      end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    if (line.starts_with(";") || line.starts_with("source_filename = "))
      continue;
    if (!line.empty() && line[0] != ' ') {
      size_t comment = line.find(";");
      size_t colon = line.find(":");
      // a block label: "name:" or "N:" then spaces and a comment
      if (comment != std::string_view::npos && colon != std::string_view::npos && colon < comment &&
          line.find_first_not_of(' ', colon + 1) == comment)
        line = line.substr(0, colon + 1);
    }
    out.append(line);
    out.push_back('\n');
  }
  return out;
}

uint64_t fnv1a(std::span<const uint8_t> bytes) {
  uint64_t h = 1469598103934665603ull;
  for (uint8_t b : bytes)
    h = (h ^ b) * 1099511628211ull;
  return h ^ bytes.size();
}

/// llvm-dis-14's text for the bitcode, from the cache in the build tree when it is there.
std::optional<std::string> llvmDis(std::span<const uint8_t> bitcode, std::string &error) {
  fs::path cacheDir = fs::path(SPIRE_DXIL_CACHE_DIR);
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.ll", static_cast<unsigned long long>(fnv1a(bitcode)));
  fs::path cached = cacheDir / name;
  std::error_code ec;
  if (fs::exists(cached, ec))
    return readText(cached);
  ToolResult r =
      runTool({"llvm-dis-14", "-", "-o", "-"},
              std::string_view(reinterpret_cast<const char *>(bitcode.data()), bitcode.size()));
  if (r.exitCode != 0) {
    error = "llvm-dis-14 failed: " + r.err;
    return std::nullopt;
  }
  fs::create_directories(cacheDir, ec);
  fs::path temp = cached;
  temp += ".tmp" + std::to_string(std::hash<std::string>()(r.out) & 0xFFFF);
  {
    std::ofstream f(temp, std::ios::binary);
    f << r.out;
  }
  fs::rename(temp, cached, ec);
  return r.out;
}

std::map<std::string, std::string> knownDifferences() {
  std::map<std::string, std::string> known;
  std::ifstream f(fs::path(SPIRE_SOURCE_DIR) / "tests" / "corpus" / "dxil-known-differences.txt");
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    size_t space = line.find(' ');
    known[line.substr(0, space)] = space == std::string::npos ? "" : line.substr(space + 1);
  }
  return known;
}

TEST(DxilCorpus, PrintsAsLlvmDis14) {
  std::optional<fs::path> corpus = sharedCorpus();
  if (!corpus || !fs::exists(*corpus / "dxil"))
    GTEST_SKIP() << "no DXIL corpus (../shared/corpus/dxil)";
  if (!haveTool("llvm-dis-14"))
    GTEST_SKIP() << "llvm-dis-14 is not installed (Debian package llvm-14)";
  std::vector<fs::path> files = filesUnder(*corpus / "dxil", ".dxil");
  ASSERT_FALSE(files.empty());
  std::map<std::string, std::string> known = knownDifferences();

  struct Outcome {
    bool identical = false;
    bool exact = false; ///< identical with comments too
    std::string detail;
  };
  std::vector<Outcome> outcomes(files.size());
  parallelFor(files.size(), [&](size_t i) {
    Outcome &o = outcomes[i];
    std::vector<uint8_t> bytes = readBytes(files[i]);
    std::span<const uint8_t> bitcode;
    if (!extractBitcode(bytes, bitcode, o.detail))
      return;
    std::optional<std::string> reference = llvmDis(bitcode, o.detail);
    if (!reference)
      return;
    Expected<dxil::LlvmModule> module = dxil::readBitcode(bitcode);
    if (!module) {
      o.detail = "spire cannot read it: " + module.error().format();
      return;
    }
    dxil::LlvmPrintOptions options;
    options.moduleId = "<stdin>";
    std::string text = dxil::printLlvmModuleToString(*module, options);
    o.exact = text == *reference;
    std::string a = normalize(text), b = normalize(*reference);
    o.identical = a == b;
    if (!o.identical)
      o.detail = firstDifference(a, b);
  });

  size_t identical = 0, exact = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    std::string name = files[i].filename().string();
    identical += outcomes[i].identical;
    exact += outcomes[i].exact;
    bool listed = known.count(name) != 0;
    if (!outcomes[i].identical && !listed)
      ADD_FAILURE() << name << " differs from llvm-dis-14 and is not in "
                    << "tests/corpus/dxil-known-differences.txt: " << outcomes[i].detail;
    if (outcomes[i].identical && listed)
      ADD_FAILURE() << name << " is listed in dxil-known-differences.txt but no longer differs";
  }
  std::printf("DXIL corpus: %zu of %zu programs print as llvm-dis-14 does (%zu byte-identical "
              "with comments), %zu known differences listed\n",
              identical, files.size(), exact, known.size());
}

} // namespace
} // namespace spire::test
