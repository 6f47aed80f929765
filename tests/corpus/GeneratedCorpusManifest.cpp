#include "GeneratedCorpusManifest.h"

#include <sstream>

namespace spire::test {

namespace {

std::vector<std::string> splitTabs(const std::string &line) {
  std::vector<std::string> fields;
  size_t start = 0;
  while (true) {
    size_t tab = line.find('\t', start);
    fields.push_back(
        line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
    if (tab == std::string::npos)
      return fields;
    start = tab + 1;
  }
}

bool knownKind(std::string_view kind) {
  for (std::string_view k : kGeneratedKinds)
    if (k == kind)
      return true;
  return false;
}

} // namespace

std::vector<const GeneratedModule *> GeneratedCorpusManifest::ofKind(std::string_view kind) const {
  std::vector<const GeneratedModule *> out;
  for (const GeneratedModule &m : modules)
    if (m.kind == kind)
      out.push_back(&m);
  return out;
}

Expected<GeneratedCorpusManifest> readGeneratedCorpusManifest(const fs::path &corpus) {
  fs::path path = corpus / "MANIFEST.tsv";
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    return makeError({}, path.string() + " is missing");
  std::istringstream text(readText(path));
  GeneratedCorpusManifest manifest;
  std::string line;
  uint32_t lineNo = 0;
  auto fail = [&](const std::string &why) {
    return makeError(Location::text(lineNo, 1), path.string() + ": " + why);
  };
  while (std::getline(text, line)) {
    ++lineNo;
    std::vector<std::string> f = splitTabs(line);
    if (lineNo == 1) {
      if (line != "file\tkind\tsource\ttarget_env\tcommand")
        return fail("unexpected header '" + line + "'");
      continue;
    }
    if (line.empty())
      continue;
    if (f[0] == "# skipped") {
      if (f.size() != 3 || !knownKind(f[1]))
        return fail("malformed skipped line '" + line + "'");
      manifest.skippedKinds[f[1]] = f[2];
      continue;
    }
    if (f.size() != 5 || f[0].empty() || f[3].empty())
      return fail("expected 5 tab-separated fields in '" + line + "'");
    if (!knownKind(f[1]))
      return fail("unknown kind '" + f[1] + "'");
    manifest.modules.push_back({corpus / f[0], f[0], f[1], f[2], f[3], f[4]});
  }
  if (lineNo == 0)
    return fail("empty manifest");
  return manifest;
}

} // namespace spire::test
