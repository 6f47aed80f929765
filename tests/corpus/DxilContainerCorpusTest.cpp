// Every DXIL container of the corpus: it reads, every part decodes, the digest recomputes, PSV0
// agrees with the signature parts, the facts agree with MANIFEST.tsv, the summary and JSON print.
// (That every dx.op call resolves in spire's operation table is DxilModelCorpusTest's, through
// spire's own bitcode reader, which DxilCorpusTest holds to llvm-dis-14's text.)
#include "CorpusSupport.h"

#include "spire/dxil/ContainerSummary.h"
#include "spire/dxil/DxilOps.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
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
  std::map<std::string, std::string> known = readReasonList("dxil-container-known-differences.txt");
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
