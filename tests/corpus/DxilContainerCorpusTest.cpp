// Every DXIL container of the corpus: it reads, every part decodes, the digest recomputes, PSV0
// agrees with the signature parts, the facts agree with MANIFEST.tsv, the summary and JSON print,
// and every dx.op function the bitcode declares and calls (as llvm-dis-14 prints it) resolves in
// spire's operation table.
#include "CorpusSupport.h"

#include "spire/dxil/ContainerSummary.h"
#include "spire/dxil/DxilOps.h"

#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace spire;
using namespace spire::test;

namespace {

std::optional<fs::path> dxilCorpus() {
  std::optional<fs::path> shared = sharedCorpus();
  if (!shared)
    return std::nullopt;
  fs::path dir = *shared / "dxil";
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return std::nullopt;
  return dir;
}

struct ManifestRow {
  std::string shaderModel;
  uint64_t bytes = 0;
  std::vector<std::string> parts;
};

/// MANIFEST.tsv by file name: columns file, origin_repo, origin_path, origin_commit,
/// shader_model, bytes, sha256, parts.
std::map<std::string, ManifestRow> readManifest(const fs::path &dir) {
  std::map<std::string, ManifestRow> rows;
  std::ifstream in(dir / "MANIFEST.tsv");
  std::string line;
  std::getline(in, line); // the header
  while (std::getline(in, line)) {
    std::vector<std::string> cols;
    std::istringstream ls(line);
    for (std::string col; std::getline(ls, col, '\t');)
      cols.push_back(col);
    if (cols.size() < 8)
      continue;
    ManifestRow row;
    row.shaderModel = cols[4];
    row.bytes = std::stoull(cols[5]);
    std::istringstream ps(cols[7]);
    for (std::string p; std::getline(ps, p, ',');)
      row.parts.push_back(p);
    rows[cols[0]] = row;
  }
  return rows;
}

/// tests/corpus/dxil-container-known-differences.txt: "<file> <reason>" per line, the containers
/// whose parts disagree with one another as the compiler wrote them.
std::map<std::string, std::string> knownDifferences() {
  std::map<std::string, std::string> out;
  std::ifstream in(fs::path(SPIRE_SOURCE_DIR) / "tests" / "corpus" /
                   "dxil-container-known-differences.txt");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    size_t space = line.find(' ');
    out[line.substr(0, space)] = space == std::string::npos ? "" : line.substr(space + 1);
  }
  return out;
}

struct Container {
  fs::path path;
  std::vector<uint8_t> bytes;
};

std::vector<Container> loadCorpus(const fs::path &dir) {
  std::vector<Container> out;
  for (const fs::path &p : filesUnder(dir, ".dxil"))
    out.push_back({p, readBytes(p)});
  return out;
}

} // namespace

TEST(CorpusDxilContainer, EveryPartDecodesAndAgreesWithTheManifest) {
  std::optional<fs::path> dir = dxilCorpus();
  if (!dir)
    GTEST_SKIP() << "no DXIL corpus: ../shared/corpus/dxil is absent";
  std::vector<Container> files = loadCorpus(*dir);
  std::map<std::string, ManifestRow> manifest = readManifest(*dir);
  std::map<std::string, std::string> known = knownDifferences();
  ASSERT_FALSE(files.empty());
  EXPECT_EQ(files.size(), manifest.size());

  Tally tally("DXIL containers decoded and checked against MANIFEST.tsv and PSV0");
  std::map<std::string, size_t> partsDecoded;
  size_t signedCount = 0, unsignedCount = 0, psvElements = 0, signatureRows = 0;
  for (const Container &file : files) {
    std::string name = file.path.filename().string();
    Expected<dxil::Container> c = dxil::readContainer(file.bytes);
    if (!c) {
      tally.differed(file.path, c.error().format());
      continue;
    }
    Expected<dxil::ContainerInfo> info = dxil::readContainerInfo(*c);
    if (!info) {
      tally.differed(file.path, info.error().format());
      continue;
    }
    tally.compared();
    for (const dxil::ContainerPart &p : c->parts)
      ++partsDecoded[p.fourcc.str()];
    if (!info->unknownParts.empty())
      tally.differed(file.path, "a part spire does not decode");

    // The digest: signed containers recompute to what they store.
    if (info->digestStatus == dxil::DigestStatus::Signed)
      ++signedCount;
    else if (info->digestStatus == dxil::DigestStatus::Unsigned)
      ++unsignedCount;
    else
      tally.differed(file.path, "stored digest " + dxil::digestHex(c->digest) + ", recomputed " +
                                    dxil::digestHex(info->computedDigest));

    // The manifest's facts.
    auto row = manifest.find(name);
    if (row == manifest.end()) {
      tally.differed(file.path, "not in MANIFEST.tsv");
      continue;
    }
    const dxil::ProgramHeader *program = dxil::mainProgram(*info);
    std::string model = program ? dxil::shaderModelName(*program) : "";
    if (model != row->second.shaderModel)
      tally.differed(file.path,
                     "shader model " + model + ", the manifest says " + row->second.shaderModel);
    std::vector<std::string> parts;
    for (const dxil::ContainerPart &p : c->parts)
      parts.push_back(p.fourcc.str());
    if (parts != row->second.parts)
      tally.differed(file.path, "the parts differ from the manifest's");
    if (file.bytes.size() != row->second.bytes || c->declaredSize != file.bytes.size())
      tally.differed(file.path, "the size differs from the manifest's");

    // PSV0 against the signature parts: one signature row per PSV0 element row, the same
    // registers, masks, semantic indexes and names.
    if (const auto &psv = info->pipelineStateValidation) {
      struct Pair {
        const std::optional<dxil::ProgramSignature> &sig;
        const std::vector<dxil::PsvSignatureElement> &elements;
        uint8_t count;
      } pairs[] = {{info->inputSignature, psv->inputElements, psv->sigInputElements},
                   {info->outputSignature, psv->outputElements, psv->sigOutputElements},
                   {info->patchConstantSignature, psv->patchConstOrPrimElements,
                    psv->sigPatchConstOrPrimElements}};
      bool countsAgree = true;
      for (const Pair &p : pairs) {
        size_t rows = 0;
        for (const dxil::PsvSignatureElement &e : p.elements)
          rows += e.rows;
        psvElements += p.elements.size();
        signatureRows += p.sig ? p.sig->elements.size() : 0;
        countsAgree &= p.elements.size() == p.count && rows == (p.sig ? p.sig->elements.size() : 0);
      }
      std::vector<std::string> problems = dxil::checkConsistency(*info);
      if (!countsAgree || !problems.empty()) {
        std::string detail = problems.empty() ? "element counts differ" : problems[0];
        auto k = known.find(name);
        if (k != known.end())
          tally.explained(file.path, k->second);
        else
          tally.differed(file.path, detail);
      }
    }

    // The summary and the JSON print without tripping on anything.
    std::string text, json;
    dxil::printContainerSummary(*info, text);
    dxil::printContainerJson(*info, json, 0);
    if (text.find("; DXIL container 1.0") != 0 || json.find("{\"container\":") != 0)
      tally.differed(file.path, "the summary or the JSON does not start as it should");
  }
  std::printf("digests: %zu signed and recomputed, %zu unsigned (zero digest)\n", signedCount,
              unsignedCount);
  std::printf("parts decoded:");
  for (const auto &[part, n] : partsDecoded)
    std::printf(" %s %zu", part.c_str(), n);
  std::printf("\nPSV0 signature elements: %zu, signature part rows: %zu\n", psvElements,
              signatureRows);
  EXPECT_TRUE(tally.report());
  EXPECT_EQ(tally.numCompared(), files.size());
  EXPECT_EQ(signedCount + unsignedCount, files.size());
}

namespace {

/// The dx.op functions a module declares and the opcodes it calls each with, from llvm-dis's
/// text: "declare ... @dx.op.<name>(" and "call ... @dx.op.<name>(i32 <opcode>,".
struct OpUses {
  std::set<std::string> declared;
  std::set<std::pair<std::string, uint32_t>> calls;
};

OpUses opUses(std::string_view text) {
  OpUses uses;
  size_t at = 0;
  while ((at = text.find("@dx.op.", at)) != std::string_view::npos) {
    size_t end = text.find('(', at);
    if (end == std::string_view::npos)
      break;
    std::string name(text.substr(at + 1, end - at - 1));
    size_t lineStart = text.rfind('\n', at);
    lineStart = lineStart == std::string_view::npos ? 0 : lineStart + 1;
    std::string_view line = text.substr(lineStart, at - lineStart);
    if (line.starts_with("declare "))
      uses.declared.insert(name);
    else if (line.find("call ") != std::string_view::npos && text.substr(end + 1, 4) == "i32 ") {
      uint32_t opcode =
          uint32_t(std::strtoul(std::string(text.substr(end + 5, 8)).c_str(), nullptr, 10));
      uses.calls.insert({name, opcode});
    }
    at = end;
  }
  return uses;
}

} // namespace

TEST(CorpusDxilContainer, EveryDxOpFunctionResolvesInTheTable) {
  std::optional<fs::path> dir = dxilCorpus();
  if (!dir)
    GTEST_SKIP() << "no DXIL corpus: ../shared/corpus/dxil is absent";
  if (!haveTool("llvm-dis-14"))
    GTEST_SKIP() << "llvm-dis-14 is not installed";
  std::vector<Container> files = loadCorpus(*dir);
  Tally tally("dx.op functions of the corpus resolved in spire's operation table");
  std::mutex mu;
  std::set<std::string> distinct;
  std::set<uint32_t> opcodes;
  std::atomic<size_t> declarations = 0, calls = 0;
  parallelFor(files.size(), [&](size_t i) {
    const Container &file = files[i];
    Expected<dxil::Container> c = dxil::readContainer(file.bytes);
    const dxil::ContainerPart *part = c ? c->find(dxil::FourCC::of("DXIL")) : nullptr;
    Expected<dxil::ProgramHeader> program =
        part ? dxil::readProgramHeader(*part)
             : Expected<dxil::ProgramHeader>(makeError(Location(), "no DXIL part"));
    if (!program) {
      tally.differed(file.path, program.error().message);
      return;
    }
    std::string_view bitcode(reinterpret_cast<const char *>(program->bitcode.data()),
                             program->bitcode.size());
    ToolResult dis = runTool({"llvm-dis-14", "-", "-o", "-"}, bitcode);
    if (dis.exitCode != 0) {
      tally.skipped(file.path, "llvm-dis-14 does not read it: " + dis.err);
      return;
    }
    tally.compared();
    OpUses uses = opUses(dis.out);
    declarations += uses.declared.size();
    calls += uses.calls.size();
    {
      std::lock_guard lock(mu);
      distinct.insert(uses.declared.begin(), uses.declared.end());
    }
    for (const std::string &name : uses.declared)
      if (!dxil::parseOpFunctionName(name))
        tally.differed(file.path, "@" + name + " names no class with that overload");
    for (const auto &[name, opcode] : uses.calls) {
      std::optional<dxil::OpFunction> f = dxil::parseOpFunctionName(name);
      const dxil::OpInfo *op = dxil::opInfo(opcode);
      if (!f || !op || op->opClass != f->opClass || !op->allows(f->overload))
        tally.differed(file.path, "@" + name + " called with opcode " + std::to_string(opcode) +
                                      (op ? " (" + std::string(op->name) + ")" : "") +
                                      " of another class or overload");
      std::lock_guard lock(mu);
      opcodes.insert(opcode);
    }
  });
  std::printf("dx.op: %zu declarations (%zu distinct functions) and %zu (function, opcode) "
              "pairs resolved; %zu of the table's %zu operations appear\n",
              declarations.load(), distinct.size(), calls.load(), opcodes.size(),
              dxil::opTable().size());
  EXPECT_TRUE(tally.report());
  EXPECT_GT(distinct.size(), 100u);
}
