// Grammar facts come from the grammar: a constant in src/ whose name and value are those of a
// SPIR-V enumerant or opcode (`constexpr uint32_t kStoragePhysicalStorageBuffer = 5349`) is a
// fact typed by hand that the generated enums already give, and so is a bare number that is an
// opcode or a value enumerant where code compares or switches on it or opens a table row with
// it (`case 5341:`, `opcode == 4460`, `{5700, kVmeImage}`): no name says what it is, so the
// first check cannot see it. Numbers below 100 are left out (every small number is some
// enumerant; every one of 100 or more that src/ compares with was a grammar fact). The ones not
// converted yet are listed in hand-typed-enumerants.txt beside this test; a new one fails, and
// so does a listed one that is gone (so the list only shrinks).
#include "spire/grammar/Grammar.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace spire::grammar {
namespace {

namespace fs = std::filesystem;

struct Found {
  std::string file, name; ///< relative to the source root; the constant without its `k`
  uint32_t value;
};

/// `k<Name> = <number>` in constexpr declarations (several per declaration too) and enums.
std::vector<Found> scanSources(const fs::path &root) {
  // constexpr declarations and the bodies of enums.
  static const std::regex declaration(
      R"((?:constexpr\s+(?:uint64_t|uint32_t|uint16_t|unsigned|int)\s+([^;]*);)|(?:enum\s+(?:class\s+)?\w*\s*(?::\s*\w+\s*)?\{([^}]*)\}))");
  static const std::regex item(R"(\bk([A-Z][A-Za-z0-9_]*)\s*=\s*(0x[0-9a-fA-F]+|[0-9]+)u?\b)");
  std::vector<Found> out;
  for (const auto &entry : fs::recursive_directory_iterator(root / "src")) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h"))
      continue;
    // DXIL's own numbers (src/dxil) are not SPIR-V's, even where a name coincides.
    if (fs::relative(entry.path(), root).generic_string().starts_with("src/dxil/"))
      continue;
    std::ifstream f(entry.path());
    std::stringstream text;
    text << f.rdbuf();
    const std::string source = text.str();
    const std::string rel = fs::relative(entry.path(), root).generic_string();
    for (std::sregex_iterator d(source.begin(), source.end(), declaration), end; d != end; ++d) {
      const std::string body = (*d)[1].matched ? (*d)[1] : (*d)[2];
      for (std::sregex_iterator i(body.begin(), body.end(), item); i != end; ++i)
        out.push_back({rel, (*i)[1], uint32_t(std::stoul((*i)[2], nullptr, 0))});
    }
  }
  return out;
}

/// Numbers of 100 or more that code compares or switches on, or that open a table row, outside
/// comments: "<file>:<value>" (with the file relative to the source root).
std::vector<Found> scanNumbers(const fs::path &root) {
  static const std::regex number(R"((?:\bcase\s+|[=!]=\s*|\{\s*)([1-9][0-9]{2,4})\b(?![.0-9]))");
  std::vector<Found> out;
  for (const auto &entry : fs::recursive_directory_iterator(root / "src")) {
    const std::string ext = entry.path().extension().string();
    const std::string rel = fs::relative(entry.path(), root).generic_string();
    if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h") || rel.starts_with("src/dxil/"))
      continue;
    std::ifstream f(entry.path());
    for (std::string line; std::getline(f, line);) {
      const std::string code = line.substr(0, line.find("//"));
      for (std::sregex_iterator i(code.begin(), code.end(), number), end; i != end; ++i)
        out.push_back({rel, "", uint32_t(std::stoul((*i)[1]))});
    }
  }
  return out;
}

/// Whether `value` is an opcode or an enumerant of a value enum.
bool isOpcodeOrEnumerant(uint32_t value) {
  if (findInstruction(value))
    return true;
  for (size_t k = 0; k < std::size(kOperandCategories); ++k)
    if (kOperandCategories[k] == OperandCategory::ValueEnum && findEnumerant(OperandKind(k), value))
      return true;
  return false;
}

/// Whether `name` ends with the name of an opcode or enumerant whose value is `value`
/// (`StoragePhysicalStorageBuffer` and PhysicalStorageBuffer = 5349).
bool namesAnEnumerant(const std::string &name, uint32_t value) {
  if (name == "None")
    return false; // every mask kind has a None = 0: not a fact of one kind
  // The name as written, or without its vendor suffix (RayPayload for RayPayloadKHR).
  auto endsWith = [&](std::string_view what) {
    auto tail = [&](std::string_view w) {
      return !w.empty() && name.size() >= w.size() &&
             std::string_view(name).substr(name.size() - w.size()) == w;
    };
    if (tail(what))
      return true;
    for (std::string_view vendor : {"KHR", "EXT", "NV", "INTEL", "AMD", "ARM", "QCOM"})
      if (what.size() > vendor.size() && what.ends_with(vendor) &&
          tail(what.substr(0, what.size() - vendor.size())))
        return true;
    return false;
  };
  if (const InstructionDesc *inst = findInstruction(value)) {
    if (endsWith(inst->name) || endsWith(inst->name.substr(2)))
      return true;
  }
  for (size_t k = 0; k < std::size(kOperandCategories); ++k) {
    const OperandCategory c = kOperandCategories[k];
    if (c != OperandCategory::ValueEnum && c != OperandCategory::BitEnum)
      continue;
    for (const EnumerantDesc &e : operandKind(OperandKind(k)).enumerants) {
      if (e.value != value)
        continue;
      if (endsWith(e.name))
        return true;
      for (std::string_view alias : e.aliases) {
        if (endsWith(alias))
          return true;
      }
    }
  }
  return false;
}

TEST(Grammar, NoNewHandTypedEnumerantsInSources) {
  const fs::path root = SPIRE_SOURCE_DIR;
  std::set<std::string> listed;
  {
    std::ifstream f(root / "tests" / "unit" / "grammar" / "hand-typed-enumerants.txt");
    ASSERT_TRUE(f) << "hand-typed-enumerants.txt is missing";
    for (std::string line; std::getline(f, line);)
      if (!line.empty() && line[0] != '#')
        listed.insert(line.substr(0, line.find(' ')));
  }
  std::set<std::string> found;
  for (const Found &c : scanSources(root))
    if (namesAnEnumerant(c.name, c.value))
      found.insert(c.file + ":k" + c.name);
  for (const Found &c : scanNumbers(root))
    if (isOpcodeOrEnumerant(c.value))
      found.insert(c.file + ":" + std::to_string(c.value));
  for (const std::string &f : found)
    EXPECT_TRUE(listed.count(f))
        << f << " types a grammar enumerant or opcode by hand: use the generated enum "
        << "(spire/grammar)";
  // A build on another grammar (SPIRE_GRAMMAR_DIR) may lack some of the names: the list is
  // kept for the vendored one.
  std::ifstream vendored(root / "third_party" / "spirv-headers" / "include" / "spirv" / "unified1" /
                         "spirv.core.grammar.json");
  std::stringstream json;
  json << vendored.rdbuf();
  std::smatch revision;
  const std::string text = json.str();
  if (std::regex_search(text, revision, std::regex(R"("revision"\s*:\s*([0-9]+))")) &&
      std::stoul(revision[1]) == grammarRevision()) {
    for (const std::string &l : listed)
      EXPECT_TRUE(found.count(l)) << l << " is gone: remove it from hand-typed-enumerants.txt";
  }
  std::printf("hand-typed grammar enumerants left in src/: %zu\n", found.size());
}

} // namespace
} // namespace spire::grammar
