// The assembler against spirv-as on real texts: the corpus's assembly texts, and the spirv-dis
// output (friendly names and --raw-id) of every corpus module, give the same bytes from spire as
// from spirv-as (SPIRV-Tools 2023.1), and spire rejects the texts spirv-as rejects.
#include "CorpusSupport.h"
#include "DisassemblerGrammarAliases.h"

#include "spire/asm/Assembler.h"
#include "spire/binary/Words.h"
#include "spire/grammar/Grammar.h"
#include "spire/support/TargetEnv.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace spire;
using namespace spire::test;

namespace {

// One way of assembling: spirv-as's flags and the same options for spire.
struct AsFlags {
  std::vector<std::string> flags;
  AssembleOptions options;
};

std::optional<AsFlags> parseFlags(std::string_view text) {
  AsFlags r;
  std::istringstream in{std::string(text)};
  std::string flag;
  while (in >> flag) {
    r.flags.push_back(flag);
    if (flag == "--preserve-numeric-ids") {
      r.options.preserveNumericIds = true;
    } else if (flag == "--target-env") {
      std::string env;
      in >> env;
      std::optional<TargetEnv> e = parseTargetEnv(env);
      if (!e)
        return std::nullopt;
      r.flags.push_back(env);
      r.options.version = targetEnvVersion(*e);
    } else {
      return std::nullopt;
    }
  }
  return r;
}

std::string bytesOf(const std::vector<uint32_t> &words) {
  std::vector<uint8_t> b = binary::bytesFromWords(words);
  return std::string(b.begin(), b.end());
}

// What spirv-as and spire made of one text.
struct Comparison {
  bool refAccepted = false;
  bool spireAccepted = false;
  std::string refBytes, spireBytes;
  std::string detail; ///< why they disagree; empty when they agree
};

std::string firstDifferentWord(const std::string &a, const std::string &b) {
  size_t n = std::min(a.size(), b.size());
  size_t i = 0;
  while (i < n && a[i] == b[i])
    ++i;
  return "first difference at word " + std::to_string(i / 4) + " (" + std::to_string(a.size() / 4) +
         " words from spirv-as, " + std::to_string(b.size() / 4) + " from spire)";
}

std::string firstLine(const std::string &s) { return s.substr(0, s.find('\n')); }

Comparison compareAssemblers(const std::string &text, const AsFlags &given) {
  Comparison c;
  // Without a target environment spirv-as (v2026.4) assembles for the version the header
  // comment names; Debian's 2023.1 for SPIR-V 1.6.
  AsFlags f = given;
  if (newReferenceTools() &&
      std::find(f.flags.begin(), f.flags.end(), "--target-env") == f.flags.end())
    if (std::optional<uint32_t> v = headerCommentVersion(text))
      f.options.version = *v;
  std::vector<std::string> argv = {referenceTool("spirv-as")};
  argv.insert(argv.end(), f.flags.begin(), f.flags.end());
  argv.insert(argv.end(), {"-", "-o", "-"});
  ToolResult ref = runTool(argv, text);
  c.refAccepted = ref.exitCode == 0;
  c.refBytes = std::move(ref.out);
  Expected<std::vector<uint32_t>> mine = assemble(text, f.options);
  c.spireAccepted = mine.ok();
  if (mine)
    c.spireBytes = bytesOf(*mine);
  if (c.refAccepted && !c.spireAccepted)
    c.detail = "spire rejects it: " + mine.error().format();
  else if (!c.refAccepted && c.spireAccepted)
    c.detail = "spire accepts what spirv-as rejects: " + firstLine(ref.err);
  else if (c.refAccepted && c.refBytes != c.spireBytes)
    c.detail = firstDifferentWord(c.refBytes, c.spireBytes);
  return c;
}

struct ManifestRow {
  fs::path file;
  std::string result; ///< "ok: spirv-as <flags>", "FAIL: <message>", or another note
};

std::vector<ManifestRow> readManifest(const fs::path &manifest) {
  std::vector<ManifestRow> rows;
  std::ifstream in(manifest);
  std::string line;
  std::vector<std::string> header;
  size_t fileColumn = 0, resultColumn = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::istringstream ls(line);
    for (std::string cell; std::getline(ls, cell, '\t');)
      cells.push_back(cell);
    if (header.empty()) {
      header = cells;
      for (size_t i = 0; i < header.size(); ++i) {
        if (header[i] == "file")
          fileColumn = i;
        if (header[i] == "spirv-as_2023.1_result")
          resultColumn = i;
      }
      continue;
    }
    if (cells.size() > std::max(fileColumn, resultColumn))
      rows.push_back({manifest.parent_path() / cells[fileColumn], cells[resultColumn]});
  }
  return rows;
}

// The SPIR-V version of a module as a spirv-as target ("spv1.3"), or empty.
std::string targetEnvOf(const std::string &module) {
  if (module.size() < 8)
    return {};
  uint32_t version;
  std::memcpy(&version, module.data() + 4, 4);
  if (grammar::versionMajor(version) != 1 || grammar::versionMinor(version) > 6)
    return {};
  return "spv1." + std::to_string(grammar::versionMinor(version));
}

bool haveReferenceTools() {
  return haveTool(referenceTool("spirv-as")) && haveTool(referenceTool("spirv-dis"));
}

// When spire's grammar is not the one the reference spirv-as was built on (Debian's 2023.1
// knows SPIR-V 1.6 revision 1; or spire built with SPIRE_GRAMMAR_DIR), one knows capabilities,
// opcodes and enumerants the other rejects, and some instructions take other operands
// (OpAsmTargetINTEL gained a result type): then spire and spirv-as may disagree on which texts
// are valid (the bytes of texts both accept must agree).
std::optional<std::string> otherGrammar() {
  if (sameGrammarAsReference())
    return std::nullopt;
  const uint32_t v = grammar::grammarVersion();
  return "spire's grammar (SPIR-V " + std::to_string(grammar::versionMajor(v)) + "." +
         std::to_string(grammar::versionMinor(v)) + " revision " +
         std::to_string(grammar::grammarRevision()) + ") is not the reference spirv-as's";
}

// Records the outcome of one comparison: agreement, a known spirv-as bug, spire knowing a newer
// grammar, or a difference.
void record(Tally &tally, const fs::path &file, const Comparison &c) {
  tally.compared();
  if (c.detail.empty())
    return;
  if (std::optional<std::string> bug = knownReferenceBug("as", file))
    tally.explained(file, *bug);
  else if (std::optional<std::string> other = otherGrammar();
           other && c.refAccepted != c.spireAccepted)
    tally.explained(file, *other + ": " + c.detail);
  else
    tally.differed(file, c.detail);
}

} // namespace

// Every text under spvasm/ (and spvasm/extra/): with the flags its MANIFEST records, spirv-as
// and spire give the same bytes; the texts spirv-as rejects (FAIL rows, e.g. capabilities newer
// than SPIRV-Tools 2023.1) spire rejects too.
TEST(CorpusAssembler, AssemblyTextsGiveTheBytesSpirvAsGives) {
  std::optional<fs::path> corpus = sharedCorpus();
  if (!corpus || !haveReferenceTools())
    GTEST_SKIP() << "no ../shared/corpus or no spirv-as";
  std::vector<ManifestRow> rows;
  for (const char *m : {"spvasm/MANIFEST.tsv", "spvasm/extra/MANIFEST.tsv"}) {
    std::vector<ManifestRow> more = readManifest(*corpus / m);
    rows.insert(rows.end(), more.begin(), more.end());
  }
  ASSERT_FALSE(rows.empty());
  Tally accepted("spvasm texts spirv-as accepts: same bytes from spire");
  Tally rejected("spvasm texts spirv-as rejects: spire rejects them too");
  parallelFor(rows.size(), [&](size_t i) {
    const ManifestRow &row = rows[i];
    const bool expectOk = row.result.rfind("ok: spirv-as", 0) == 0;
    std::optional<AsFlags> flags =
        parseFlags(expectOk ? std::string_view(row.result).substr(12) : std::string_view());
    if (!flags) {
      accepted.skipped(row.file, "flags not understood: " + row.result);
      return;
    }
    Comparison c = compareAssemblers(readText(row.file), *flags);
    record(c.refAccepted ? accepted : rejected, row.file, c);
    // The MANIFEST records SPIRV-Tools 2023.1's verdicts; the newer spirv-as accepts more.
    const bool recorded =
        !newReferenceTools() && (expectOk || row.result.rfind("FAIL", 0) == 0); // else a note
    if (recorded && expectOk != c.refAccepted)
      ADD_FAILURE() << displayName(row.file) << ": the MANIFEST says '" << row.result
                    << "' but spirv-as " << (c.refAccepted ? "accepts" : "rejects") << " it";
  });
  EXPECT_TRUE(accepted.report());
  EXPECT_TRUE(rejected.report());
  EXPECT_GT(accepted.numCompared(), 0u);
}

// The text spirv-dis makes of every corpus module, with friendly names and with --raw-id,
// assembled for the module's own SPIR-V version (raw ids with --preserve-numeric-ids): spire and
// spirv-as give the same bytes. With raw ids they also give back the original module, except
// for two header words the text does not carry: the generator (word 2: spirv-as writes its own)
// and the bound (word 3), which the assembler computes as the highest id plus one where the
// original may declare more (ids it does not use) or, in an invalid module, less (ids at or above
// its bound).
TEST(CorpusAssembler, DisassembledModulesGiveTheBytesSpirvAsGives) {
  std::vector<fs::path> files = allModules();
  if (files.empty() || !haveReferenceTools())
    GTEST_SKIP() << "no corpus modules or no spirv-as / spirv-dis";
  Tally friendly("spirv-dis text (friendly names): same bytes from spire and spirv-as");
  Tally raw("spirv-dis --raw-id text: same bytes from spire and spirv-as");
  Tally original("--raw-id text assembled back: the original module, generator word aside");
  std::mutex mu;
  size_t exact = 0, largerBound = 0, smallerBound = 0;
  parallelFor(files.size(), [&](size_t i) {
    const fs::path &file = files[i];
    const std::string module = readText(file);
    const std::string env = targetEnvOf(module);
    for (bool rawIds : {false, true}) {
      Tally &tally = rawIds ? raw : friendly;
      std::vector<std::string> dis = {referenceTool("spirv-dis"), file.string(), "-o", "-"};
      if (rawIds)
        dis.insert(dis.begin() + 1, "--raw-id");
      ToolResult text = runTool(dis);
      if (text.exitCode != 0) {
        tally.skipped(file, "spirv-dis fails: " + firstLine(text.err));
        continue;
      }
      AsFlags flags;
      if (!env.empty()) {
        flags.flags = {"--target-env", env};
        flags.options.version = targetEnvVersion(*parseTargetEnv(env));
      }
      if (rawIds) {
        flags.flags.push_back("--preserve-numeric-ids");
        flags.options.preserveNumericIds = true;
      }
      Comparison c = compareAssemblers(text.out, flags);
      record(tally, file, c);
      if (!c.detail.empty())
        continue;
      if (!rawIds || !c.refAccepted)
        continue;
      // Back to the original: everything but the generator word, and the bound unless the
      // original's is larger than needed.
      auto sameBut = [&](const std::string &a, size_t skipFrom, size_t skipTo) {
        return a.size() == module.size() && a.compare(0, skipFrom, module, 0, skipFrom) == 0 &&
               a.compare(skipTo, std::string::npos, module, skipTo, std::string::npos) == 0;
      };
      original.compared();
      bool spireExact = sameBut(c.spireBytes, 8, 12);
      bool refExact = sameBut(c.refBytes, 8, 12);
      bool spireButBound = sameBut(c.spireBytes, 8, 16);
      uint32_t origBound = 0, newBound = 0;
      if (module.size() >= 16 && c.spireBytes.size() >= 16) {
        std::memcpy(&origBound, module.data() + 12, 4);
        std::memcpy(&newBound, c.spireBytes.data() + 12, 4);
      }
      std::lock_guard lock(mu);
      if (spireExact) {
        ++exact;
      } else if (spireButBound && origBound > newBound) {
        ++largerBound;
      } else if (spireButBound && origBound < newBound) {
        ++smallerBound;
      } else if (refExact) {
        original.differed(file, "spirv-as gives back the original module but spire does not");
      } else {
        original.differed(file, "neither gives back the original module");
      }
    }
  });
  EXPECT_TRUE(friendly.report());
  EXPECT_TRUE(raw.report());
  EXPECT_TRUE(original.report());
  std::printf(
      "  %zu modules came back exactly (generator word aside); %zu with another bound only: "
      "%zu declare ids they do not use, %zu use ids at or above their bound\n",
      exact, largerBound + smallerBound, largerBound, smallerBound);
  EXPECT_GT(friendly.numCompared(), 0u);
}
