#include "DisassemblerGrammarAliases.h"

#include "CorpusSupport.h"

#include "spire/grammar/Grammar.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace spire::test {

namespace {

// The grammar the reference SPIRV-Tools was built from: the newer build's is the vendored one
// (third_party/spirv-headers/README.md), Debian's is the system's SPIRV-Headers.
std::string referenceGrammar() {
  if (newReferenceTools())
    return std::string(SPIRE_SOURCE_DIR) +
           "/third_party/spirv-headers/include/spirv/unified1/spirv.core.grammar.json";
  return "/usr/include/spirv/unified1/spirv.core.grammar.json";
}

// Names that stand for the same opcode or enumerant share a group; a name may be in several
// groups (the same enumerant name in two operand kinds).
using NameGroups = std::unordered_map<std::string, std::vector<int>>;

NameGroups buildNameGroups() {
  NameGroups groups;
  int next = 0;
  auto add = [&](std::string_view name, int group) { groups[std::string(name)].push_back(group); };
  for (const grammar::InstructionDesc &inst : grammar::instructions()) {
    const int g = next++;
    add(inst.name, g);
    add(inst.name.substr(2), g); // OpSpecConstantOp names its operation without "Op"
    for (std::string_view alias : inst.aliases) {
      add(alias, g);
      add(alias.substr(2), g);
    }
  }
  for (unsigned k = 0; k < grammar::kGrammarOperandKindCount; ++k)
    for (const grammar::EnumerantDesc &e :
         grammar::operandKind(static_cast<grammar::OperandKind>(k)).enumerants) {
      const int g = next++;
      add(e.name, g);
      for (std::string_view alias : e.aliases)
        add(alias, g);
    }
  return groups;
}

bool sameGroup(std::string_view a, std::string_view b) {
  static const NameGroups groups = buildNameGroups();
  auto ia = groups.find(std::string(a));
  auto ib = groups.find(std::string(b));
  if (ia == groups.end() || ib == groups.end())
    return false;
  for (int x : ia->second)
    for (int y : ib->second)
      if (x == y)
        return true;
  return false;
}

bool isWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// A line as alternating separators and words; runs of spaces count as one, leading ones as none.
std::vector<std::string> pieces(std::string_view line) {
  std::vector<std::string> out;
  size_t i = line.find_first_not_of(' ');
  if (i == std::string_view::npos)
    return out;
  while (i < line.size()) {
    const bool word = isWordChar(line[i]);
    std::string piece;
    for (; i < line.size() && isWordChar(line[i]) == word; ++i)
      if (word || line[i] != ' ' || piece.empty() || piece.back() != ' ')
        piece += line[i];
    out.push_back(std::move(piece));
  }
  return out;
}

bool equalLinesModuloAliases(std::string_view a, std::string_view b) {
  std::vector<std::string> pa = pieces(a), pb = pieces(b);
  if (pa.size() != pb.size())
    return false;
  for (size_t i = 0; i < pa.size(); ++i)
    if (pa[i] != pb[i] && !(isWordChar(pa[i][0]) && sameGroup(pa[i], pb[i])))
      return false;
  return true;
}

} // namespace

bool sameGrammarAsReference() {
  static const bool same = [] {
    std::string reference = readText(referenceGrammar());
    if (reference.empty())
      return true; // nothing to tell otherwise
    return reference ==
           readText(std::string(SPIRE_GRAMMAR_SOURCE_DIR) + "/spirv.core.grammar.json");
  }();
  return same;
}

bool equalModuloAliases(std::string_view a, std::string_view b) {
  while (!a.empty() || !b.empty()) {
    const size_t ea = a.find('\n'), eb = b.find('\n');
    std::string_view la = a.substr(0, ea), lb = b.substr(0, eb);
    if (la != lb && !equalLinesModuloAliases(la, lb))
      return false;
    if ((ea == std::string_view::npos) != (eb == std::string_view::npos))
      return false;
    a = ea == std::string_view::npos ? std::string_view() : a.substr(ea + 1);
    b = eb == std::string_view::npos ? std::string_view() : b.substr(eb + 1);
  }
  return true;
}

} // namespace spire::test
