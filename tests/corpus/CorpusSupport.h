// What the corpus tests share: where the corpora are, running reference tools, parallel loops,
// and reporting counts.
#pragma once

#include "spire/module/Module.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spire::test {

namespace fs = std::filesystem;

/// ../shared/corpus beside the checkout, when it exists.
std::optional<fs::path> sharedCorpus();
/// The corpus the build generates from tests/corpus-src (GLSL, HLSL, OpenCL C), when built.
std::optional<fs::path> generatedCorpus();

/// Files under `dir` (recursively) whose names end with `suffix`, sorted.
std::vector<fs::path> filesUnder(const fs::path &dir, std::string_view suffix);
/// Every SPIR-V module of both corpora: shared spv/**/*.spv and the generated *.spv.
std::vector<fs::path> allModules();

std::vector<uint8_t> readBytes(const fs::path &path);
/// The rows of a tab-separated file, each split at its tabs.
std::vector<std::vector<std::string>> readTsv(const fs::path &path);
/// The module in `file` when it reads and spire val accepts it (SPIR-V 1.6 rules), else
/// nothing: the modules the structured IR's tests start from.
std::optional<Module> readValidModule(const fs::path &file);
std::string readText(const fs::path &path);

struct ToolResult {
  int exitCode = -1;
  std::string out; ///< standard output
  std::string err; ///< standard error
};
/// Runs a program (a path, or a name looked up in PATH) with arguments, feeding `input` to its
/// standard input.
ToolResult runTool(const std::vector<std::string> &argv, std::string_view input = {});
/// Runs the spire program built with the tests.
ToolResult runSpire(std::vector<std::string> args, std::string_view input = {});

/// A fresh directory under the system's temporary directory (named after `prefix` and the
/// process), removed with everything in it at the end of the scope.
class TempDir {
public:
  explicit TempDir(std::string_view prefix);
  ~TempDir();
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  const fs::path &dir() const { return dir_; }
  std::string path(const std::string &name) const { return (dir_ / name).string(); }

private:
  fs::path dir_;
};

/// Whether a program exists: a path that is executable, or a name on the PATH.
bool haveTool(const std::string &name);

/// The SPIRV-Tools program the corpus tests compare with (`spirv-as`, `spirv-dis`, `spirv-val`,
/// ...): the newer build in ../shared/tools/spirv-tools/bin (SPIRV-Tools v2026.4, on the same
/// grammar as third_party/spirv-headers) when it is there, else the system's (Debian's 2023.1).
std::string referenceTool(std::string_view name);
/// Whether referenceTool() gives the newer SPIRV-Tools.
bool newReferenceTools();

/// spirv-val's verdict on a module of the shared corpus, as the tests take it.
struct ReferenceVerdict {
  bool valid = false;
  std::string message;     ///< spirv-val's first message, for invalid modules (may be empty)
  bool relabelled = false; ///< the newer SPIRV-Tools' verdict replaced the recorded one
};
/// The verdict a manifest records for `file` (SPIRV-Tools 2023.1's: `recordedValid`, with its
/// first message), unless the tests compare with the newer SPIRV-Tools and its spirv-val gives
/// another in the same environment: then the newer one, from the rows of
/// ../shared/tools/spirv-tools/verdict-diffs-corpus.tsv and verdict-diffs-spv-invalid.tsv.
ReferenceVerdict referenceVerdict(const fs::path &file, bool recordedValid,
                                  std::string recordedMessage = {});

/// Calls `body(i)` for i in [0, n) on all hardware threads.
void parallelFor(size_t n, const std::function<void(size_t)> &body);

/// A reference tool's known bugs: file names (relative to the corpus) with the reason, read from
/// tests/corpus/known-reference-bugs.txt ("<check> <file> <reason>" per line).
std::optional<std::string> knownReferenceBug(std::string_view check, const fs::path &file);

/// A list kept beside the corpus tests (tests/corpus/<fileName>): one entry per line, "<key>
/// <reason>", '#' comments and blank lines skipped.
std::map<std::string, std::string> readReasonList(std::string_view fileName);

/// The corpus-relative name of a file, for messages.
std::string displayName(const fs::path &file);

/// Collects differences from parallel loops and reports them with the totals.
class Tally {
public:
  explicit Tally(std::string what) : what_(std::move(what)) {}
  void compared();
  void differed(const fs::path &file, std::string detail);
  void explained(const fs::path &file, std::string reason);
  void skipped(const fs::path &file, std::string reason);
  /// Prints "<what>: N compared, M differed, K explained by reference-tool bugs, S skipped" and
  /// the first differences; returns true when nothing differed unexplained.
  bool report(size_t maxListed = 20) const;
  size_t numCompared() const;
  size_t numDiffered() const;

private:
  struct Entry {
    std::string file, detail;
  };
  std::string what_;
  mutable std::mutex mu_;
  size_t compared_ = 0;
  std::vector<Entry> differed_, explained_, skipped_;
};

/// The first line where two texts differ, as "line N: <a> | <b>".
std::string firstDifference(std::string_view a, std::string_view b);

} // namespace spire::test
