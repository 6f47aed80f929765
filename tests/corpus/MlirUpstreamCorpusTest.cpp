// MLIR's own SPIR-V dialect tests (../shared/corpus/mlir-upstream), run as lit runs them but with
// spire in place of mlir-translate and mlir-opt: each file's RUN lines, with %s, %t and
// `%if spirv-tools %{ ... %}` substituted and the LLVM test tools (FileCheck, not, split-file)
// taken from Debian's LLVM 14. A file passes when every RUN line exits 0. Every failing file is
// listed with its reason in tests/corpus/mlir-upstream-known-failures.txt; an unlisted failure
// fails the test, and so does a listed file that passes (the list only shrinks).
#include "CorpusSupport.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <unistd.h>

namespace spire::test {
namespace {

/// The RUN lines of a test file, continuation lines (a trailing '\') joined.
std::vector<std::string> runLines(const std::string &text) {
  std::vector<std::string> lines;
  std::string pending;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos)
      end = text.size();
    std::string_view line(text.data() + pos, end - pos);
    pos = end + 1;
    size_t run = line.find("RUN:");
    if (run == std::string_view::npos) // lit takes RUN: after any comment marker
      continue;
    std::string_view body = line.substr(run + 4);
    while (!body.empty() && (body.back() == ' ' || body.back() == '\r'))
      body.remove_suffix(1);
    if (!body.empty() && body.back() == '\\') {
      pending += std::string(body.substr(0, body.size() - 1)) + " ";
      continue;
    }
    lines.push_back(pending + std::string(body));
    pending.clear();
  }
  if (!pending.empty())
    lines.push_back(pending);
  return lines;
}

bool isWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
}

/// Replaces the whole word `word` (not part of a longer name such as mlir-translate-16 or a
/// path) by `by`.
std::string replaceWord(const std::string &s, std::string_view word, const std::string &by) {
  std::string out;
  size_t pos = 0;
  while (true) {
    size_t at = s.find(word, pos);
    if (at == std::string::npos)
      break;
    bool startOk = at == 0 || (!isWordChar(s[at - 1]) && s[at - 1] != '/' && s[at - 1] != '.');
    size_t after = at + word.size();
    bool endOk = after == s.size() || !isWordChar(s[after]);
    out += s.substr(pos, at - pos);
    out += startOk && endOk ? by : std::string(word);
    pos = after;
  }
  return out + s.substr(pos);
}

/// lit's `%if feature %{ then %}` (with an optional `%else %{ ... %}`), for one feature that is
/// present or not.
std::string expandIf(std::string s, std::string_view feature, bool present) {
  std::string open = "%if " + std::string(feature) + " %{";
  size_t at;
  while ((at = s.find(open)) != std::string::npos) {
    size_t close = s.find("%}", at);
    if (close == std::string::npos)
      break;
    std::string then = s.substr(at + open.size(), close - at - open.size());
    size_t next = close + 2;
    std::string otherwise;
    size_t elseAt = s.find("%else %{", next);
    if (elseAt != std::string::npos && s.find_first_not_of(' ', next) == elseAt) {
      size_t elseClose = s.find("%}", elseAt);
      if (elseClose != std::string::npos) {
        otherwise = s.substr(elseAt + 8, elseClose - elseAt - 8);
        next = elseClose + 2;
      }
    }
    s = s.substr(0, at) + (present ? then : otherwise) + s.substr(next);
  }
  return s;
}

std::string quoted(const std::string &s) { return "'" + s + "'"; }

struct Outcome {
  bool passed = false;
  std::string detail; ///< the failing RUN line's number and the first line of its error output
};

Outcome runFile(const fs::path &file, const fs::path &work) {
  std::vector<std::string> lines = runLines(readText(file));
  if (lines.empty())
    return {false, "no RUN lines"};
  const bool spirvTools = haveTool(referenceTool("spirv-val"));
  const std::string temp = (work / (file.filename().string() + ".tmp")).string();
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string cmd = expandIf(lines[i], "spirv-tools", spirvTools);
    cmd = replaceWord(cmd, "mlir-translate", quoted(SPIRE_TOOL) + " translate");
    cmd = replaceWord(cmd, "mlir-opt", quoted(SPIRE_TOOL) + " opt");
    cmd = replaceWord(cmd, "FileCheck", "FileCheck-14");
    cmd = replaceWord(cmd, "split-file", "split-file-14");
    cmd = replaceWord(cmd, "not", "not-14");
    cmd = replaceWord(cmd, "spirv-val", quoted(referenceTool("spirv-val")));
    cmd = replaceWord(cmd, "spirv-as", quoted(referenceTool("spirv-as")));
    cmd = replaceWord(cmd, "spirv-dis", quoted(referenceTool("spirv-dis")));
    // %t before %s is not needed: neither is a prefix of the other.
    for (size_t at; (at = cmd.find("%s")) != std::string::npos;)
      cmd.replace(at, 2, quoted(file.string()));
    for (size_t at; (at = cmd.find("%t")) != std::string::npos;)
      cmd.replace(at, 2, quoted(temp));
    ToolResult r =
        runTool({"/bin/bash", "-c", "set -o pipefail; cd " + quoted(work.string()) + " && " + cmd});
    if (r.exitCode != 0) {
      std::string message = r.err.empty() ? r.out : r.err;
      std::string first = message.substr(0, message.find('\n'));
      if (first.size() > 200)
        first = first.substr(0, 200) + "...";
      return {false, "RUN line " + std::to_string(i + 1) + ": " + first};
    }
  }
  return {true, ""};
}

TEST(MlirUpstreamCorpus, RunLinesPassWithSpireInPlaceOfMlirTools) {
  std::optional<fs::path> corpus = sharedCorpus();
  if (!corpus || !fs::exists(*corpus / "mlir-upstream"))
    GTEST_SKIP() << "no MLIR test corpus (../shared/corpus/mlir-upstream)";
  for (const char *tool : {"FileCheck-14", "not-14", "split-file-14"})
    if (!haveTool(tool))
      GTEST_SKIP() << tool << " is not installed (Debian package llvm-14-tools)";
  const fs::path root = *corpus / "mlir-upstream";
  std::vector<fs::path> files;
  for (const char *folder : {"Target", "IR"})
    for (const char *suffix : {".mlir", ".spvasm"})
      for (const fs::path &f : filesUnder(root / folder, suffix))
        files.push_back(f);
  ASSERT_FALSE(files.empty());
  const fs::path work = fs::temp_directory_path() / ("spire-mlir-" + std::to_string(::getpid()));
  fs::create_directories(work);
  std::vector<Outcome> outcomes(files.size());
  parallelFor(files.size(), [&](size_t i) {
    fs::path dir = work / std::to_string(i);
    fs::create_directories(dir);
    outcomes[i] = runFile(files[i], dir);
  });
  fs::remove_all(work);

  std::map<std::string, std::string> known = readReasonList("mlir-upstream-known-failures.txt");
  std::map<std::string, std::pair<int, int>> perFolder; // passed, files
  for (size_t i = 0; i < files.size(); ++i) {
    std::string name = fs::relative(files[i], root).string();
    auto &[passed, total] = perFolder[name.substr(0, name.find('/'))];
    ++total;
    passed += outcomes[i].passed;
    auto listed = known.find(name);
    if (outcomes[i].passed && listed != known.end())
      ADD_FAILURE() << name << " passes now: take it out of mlir-upstream-known-failures.txt";
    else if (!outcomes[i].passed && listed == known.end())
      ADD_FAILURE() << name << " fails and is not in mlir-upstream-known-failures.txt: "
                    << outcomes[i].detail;
  }
  for (const auto &[name, reason] : known)
    if (!fs::exists(root / name))
      ADD_FAILURE() << name << " is in mlir-upstream-known-failures.txt but not in the corpus";
  for (const auto &[folder, counts] : perFolder)
    std::printf("mlir-upstream %s: %d of %d files pass their RUN lines with spire\n",
                folder.c_str(), counts.first, counts.second);
  // The failures with what spire printed, for whoever works on the list.
  if (const char *show = std::getenv("SPIRE_SHOW_MLIR_FAILURES"); show && *show)
    for (size_t i = 0; i < files.size(); ++i)
      if (!outcomes[i].passed)
        std::printf("  %s %s\n", fs::relative(files[i], root).c_str(), outcomes[i].detail.c_str());
}

} // namespace
} // namespace spire::test
