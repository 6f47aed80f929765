// Deserialization on every corpus module the validator accepts: each must become a spirv.module
// that passes the IR verifier. Prints how many constructs became regions and how many stayed
// blocks with their merge instruction, and the reasons of failures, most frequent first.
#include "CorpusSupport.h"
#include "GeneratedCorpusManifest.h"

#include "spire/dialect/ModuleTypes.h"
#include "spire/dialect/Serialization.h"
#include "spire/dialect/Text.h"
#include "spire/dialect/Verifier.h"
#include "spire/module/Cfg.h"
#include "spire/module/Module.h"
#include "spire/val/Validator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace spire;
using namespace spire::test;

namespace {

/// The share of valid corpus modules that must deserialize; it only rises.
constexpr double kDeserializeFloor = 1.0;

/// A failure message without its ids, to group failures by kind.
std::string category(std::string message) {
  std::string out;
  for (size_t i = 0; i < message.size(); ++i) {
    if (message[i] == '%') {
      out += "%N";
      while (i + 1 < message.size() && std::isdigit(static_cast<unsigned char>(message[i + 1])))
        ++i;
    } else {
      out += message[i];
    }
  }
  return out;
}

} // namespace

namespace {

/// What differs between the module's text printed whole and printed as it is deserialized (as
/// `spire translate` prints it: each function printed, then erased), or nothing.
std::string streamedTextDiffers(const Module &m, const dialect::Operation &whole) {
  const std::string expected = dialect::toString(whole);
  std::string streamed;
  dialect::ModuleTextStream text([&](std::string_view piece) { streamed += piece; }, {});
  dialect::Context ctx;
  dialect::DeserializeOptions options;
  options.bodyReady = [&](dialect::Operation &module) { text.printBody(module); };
  Expected<dialect::OwningOp> op = dialect::deserialize(ctx, m, nullptr, std::move(options));
  if (!op)
    return "streamed: " + op.error().message;
  text.finish(**op);
  if (streamed == expected)
    return {};
  size_t at = 0;
  while (at < streamed.size() && at < expected.size() && streamed[at] == expected[at])
    ++at;
  return "streamed text differs from the whole module's at byte " + std::to_string(at);
}

} // namespace

TEST(DialectDeserializeCorpus, ValidModulesDeserializeAndVerify) {
  std::vector<fs::path> files = allModules();
  if (files.empty())
    GTEST_SKIP() << "no corpus";
  // Valid modules the structured IR has no form for yet, with the reason: they do not count
  // against the floor, and one that deserializes fails the test (the list only shrinks).
  const std::map<std::string, std::string> gaps = readReasonList("dialect-known-gaps.txt");
  std::mutex mu;
  size_t valid = 0, ok = 0, explained = 0;
  dialect::DeserializeStats total;
  std::map<std::string, size_t> failures;
  std::map<std::string, std::string> example;
  parallelFor(files.size(), [&](size_t i) {
    std::optional<Module> m = readValidModule(files[i]);
    if (!m)
      return;
    dialect::Context ctx;
    dialect::DeserializeStats stats;
    Expected<dialect::OwningOp> op = dialect::deserialize(ctx, *m, &stats);
    std::string problem;
    if (!op)
      problem = op.error().message;
    else if (Status s = dialect::verify(**op); !s)
      problem = "verifier: " + s.error().message;
    else
      problem = streamedTextDiffers(*m, **op);
    std::lock_guard<std::mutex> lock(mu);
    ++valid;
    total.selections += stats.selections;
    total.loops += stats.loops;
    total.unstructured += stats.unstructured;
    const bool listed = gaps.count(displayName(files[i])) != 0;
    if (problem.empty()) {
      ++ok;
      if (listed)
        ADD_FAILURE() << displayName(files[i])
                      << " deserializes now: take it out of dialect-known-gaps.txt";
      return;
    }
    if (listed) {
      ++explained;
      return;
    }
    std::string c = category(problem);
    if (!failures[c]++)
      example[c] = displayName(files[i]);
  });
  const size_t counted = valid - explained;
  std::printf("deserialize: %zu valid modules, %zu deserialized and verified (%.2f%%), %zu listed "
              "in dialect-known-gaps.txt; constructs: %u selections, %u loops as regions, %u "
              "kept as blocks\n",
              valid, ok, counted ? 100.0 * ok / counted : 0.0, explained, total.selections,
              total.loops, total.unstructured);
  std::vector<std::pair<size_t, std::string>> sorted;
  for (auto &[c, n] : failures)
    sorted.emplace_back(n, c);
  std::sort(sorted.rbegin(), sorted.rend());
  for (size_t k = 0; k < sorted.size() && k < 25; ++k)
    std::printf("  %5zu  %s  (e.g. %s)\n", sorted[k].first, sorted[k].second.c_str(),
                example[sorted[k].second].c_str());
  EXPECT_GE(counted ? double(ok) / counted : 1.0, kDeserializeFloor);
}

namespace {

/// The share of deserialized modules whose serialization spire val accepts; it only rises.
constexpr double kRoundTripFloor = 1.0;

/// What the round trip must keep, in a form that ignores what the design's transformations may
/// change (ids, names, block and constant order, phis, unconditional branches, duplicate
/// aggregate types): the entry points and execution modes, the set of decorations, and per
/// function (in order) how many instructions of each opcode it has, branches and phis aside.
bool isConstant(const Module &m, uint32_t id) {
  uint32_t index = m.defIndex(id);
  if (index == kNoIndex)
    return false;
  switch (m.inst(index).opcode()) {
  case grammar::Op::Constant:
  case grammar::Op::ConstantComposite:
  case grammar::Op::ConstantTrue:
  case grammar::Op::ConstantFalse:
  case grammar::Op::ConstantNull:
    return true;
  default:
    return false;
  }
}

/// `types`: the original module's types as the dialect sees them; an OpCopyLogical between two
/// types that it makes one counts as the OpCopyObject that deserialization makes of it (an
/// OpCopyLogical to the operand's own type is invalid, 3.32.12).
std::string signature(const Module &m, const dialect::ModuleTypes *types = nullptr) {
  using grammar::Op;
  std::map<std::string, int> entries;
  std::set<std::string> decorations;
  std::vector<std::map<uint32_t, int>> functions;
  // Only reachable code counts: unreachable blocks become spirv.Unreachable.
  std::set<uint32_t> reachable;
  for (const FunctionInfo &f : m.functions()) {
    if (f.numBlocks == 0)
      continue;
    Cfg cfg(m, f);
    for (uint32_t b = 0; b < cfg.size(); ++b)
      if (cfg.reachable(b))
        for (uint32_t i = cfg.blocks()[b].label; i < cfg.blocks()[b].end; ++i)
          reachable.insert(i);
  }
  // What functions and global variables use, through types and constants.
  std::set<uint32_t> used;
  std::vector<uint32_t> work;
  auto useIds = [&](Instruction inst) {
    for (const binary::Operand &o : inst.operands())
      if (grammar::operandCategory(o.kind) == grammar::OperandCategory::Id ||
          o.kind == grammar::OperandKind::IdResultType)
        for (uint32_t w : inst.operandWords(o))
          if (used.insert(w).second)
            work.push_back(w);
  };
  for (Instruction inst : m) {
    Op op = inst.opcode();
    bool specConstant = op == Op::SpecConstant || op == Op::SpecConstantTrue ||
                        op == Op::SpecConstantFalse || op == Op::SpecConstantComposite ||
                        op == Op::SpecConstantOp;
    if (inst.section() >= Section::FunctionDeclaration ||
        (inst.section() == Section::Global && (op == Op::Variable || specConstant))) {
      useIds(inst);
      if (inst.resultId())
        used.insert(inst.resultId());
    }
  }
  while (!work.empty()) {
    uint32_t id = work.back();
    work.pop_back();
    if (uint32_t index = m.defIndex(id); index != kNoIndex && !m.inst(index).isRaw())
      useIds(m.inst(index));
  }
  // Decoration groups apply their decorations to each target.
  std::map<uint32_t, std::vector<std::string>> groups;
  auto decorationText = [](Instruction inst, uint32_t first) {
    std::string d = inst.opcode() == Op::MemberDecorate ? "member " : "";
    for (uint32_t k = first; k < inst.wordCount(); ++k)
      d += std::to_string(inst.word(k)) + " ";
    return d;
  };
  for (Instruction inst : m)
    if (inst.opcode() == Op::Decorate && m.defIndex(inst.word(1)) != kNoIndex &&
        m.inst(m.defIndex(inst.word(1))).opcode() == Op::DecorationGroup)
      groups[inst.word(1)].push_back(decorationText(inst, 2));
  for (Instruction inst : m) {
    Op op = inst.opcode();
    if (op == Op::GroupMemberDecorate) {
      for (uint32_t k = 2; k + 1 < inst.wordCount(); k += 2)
        if (used.count(inst.word(k)))
          for (const std::string &d : groups[inst.word(1)])
            decorations.insert("member " + d);
      continue;
    }
    if (op == Op::GroupDecorate) {
      for (uint32_t k = 2; k < inst.wordCount(); ++k)
        if (used.count(inst.word(k)))
          for (const std::string &d : groups[inst.word(1)])
            decorations.insert(d);
      continue;
    }
    if (op == Op::EntryPoint) {
      entries["entry " + std::to_string(inst.word(1)) + " " +
              inst.stringOperand(inst.operands()[2]) + " interface " +
              std::to_string(inst.operands().size() - 3)]++;
    } else if (op == Op::ExecutionMode || op == Op::ExecutionModeId) {
      std::string e = "mode " + std::to_string(inst.word(2));
      if (op == Op::ExecutionMode)
        for (uint32_t k = 3; k < inst.wordCount(); ++k)
          e += " " + std::to_string(inst.word(k));
      entries[e]++;
    } else if ((op == Op::Decorate || op == Op::DecorateString) && isConstant(m, inst.word(1))) {
      // Decorations of plain constants go with them: constants are materialized at their uses
      // (BuiltIn WorkgroupSize on a constant repeats LocalSize).
    } else if ((op == Op::Decorate || op == Op::MemberDecorate || op == Op::DecorateString) &&
               !used.count(inst.word(1))) {
      // Decorations of types and constants that nothing uses go with them.
    } else if (op == Op::Decorate || op == Op::MemberDecorate || op == Op::DecorateString) {
      std::string d = op == Op::MemberDecorate ? "member " : "";
      uint32_t first = op == Op::MemberDecorate ? 3 : 2;
      for (uint32_t k = first; k < inst.wordCount(); ++k)
        d += std::to_string(inst.word(k)) + " ";
      decorations.insert(d);
    } else if (op == Op::Function) {
      functions.emplace_back();
    } else if (inst.section() == Section::FunctionDefinition && !functions.empty() &&
               reachable.count(inst.index())) {
      switch (op) {
      case Op::Label:
      case Op::Phi:
      case Op::Branch:
      case Op::SelectionMerge:
      case Op::LoopMerge:
      case Op::Line:
      case Op::NoLine:
      case Op::Undef:
      case Op::FunctionEnd:
        break;
      case Op::ExtInst:
        // Debug information is left out, like non-semantic instructions.
        if (!m.extInstImport(inst.word(3)).describesOnly())
          functions.back()[static_cast<uint32_t>(op) * 65536 + inst.word(4)]++;
        break;
      case Op::CopyLogical:
        if (types && inst.wordCount() >= 4 && m.defIndex(inst.word(3)) != kNoIndex &&
            types->type(inst.typeId()) == types->type(m.inst(m.defIndex(inst.word(3))).typeId()))
          op = Op::CopyObject;
        functions.back()[static_cast<uint32_t>(op)]++;
        break;
      default:
        functions.back()[static_cast<uint32_t>(op)]++;
      }
    }
  }
  std::string out;
  for (auto &[e, n] : entries)
    out += e + " x" + std::to_string(n) + "\n";
  for (const std::string &d : decorations)
    out += "decorate " + d + "\n";
  for (size_t f = 0; f < functions.size(); ++f) {
    out += "function " + std::to_string(f) + ":";
    for (auto &[op, n] : functions[f])
      out += " " + std::to_string(op) + "x" + std::to_string(n);
    out += "\n";
  }
  return out;
}

/// The environment each corpus module is valid in, from its folder's MANIFEST.tsv and the
/// generated corpus's manifest: its target environment where spirv-val accepts it there (the
/// newer SPIRV-Tools' verdict where it differs from the recorded one), else
/// spv1.6 where spirv-val accepts it in that (its default) environment. Modules without either
/// are left out.
std::map<std::string, std::string> validEnvironments() {
  std::map<std::string, std::string> out;
  if (std::optional<fs::path> corpus = sharedCorpus())
    for (const fs::directory_entry &dir : fs::directory_iterator(*corpus / "spv")) {
      if (!fs::exists(dir.path() / "MANIFEST.tsv"))
        continue;
      std::istringstream in(readText(dir.path() / "MANIFEST.tsv"));
      std::map<std::string, size_t> column;
      for (std::string line; std::getline(in, line);) {
        std::vector<std::string> cells;
        for (size_t at = 0, tab = 0; tab != std::string::npos; at = tab + 1) {
          tab = line.find('\t', at);
          cells.push_back(line.substr(at, tab == std::string::npos ? tab : tab - at));
        }
        if (column.empty()) {
          // The header: columns by name (the default environment's is named with it).
          for (size_t k = 0; k < cells.size(); ++k)
            column[cells[k].substr(0, cells[k].find('('))] = k;
          continue;
        }
        auto cell = [&](const char *name) {
          auto it = column.find(name);
          return it != column.end() && it->second < cells.size() ? cells[it->second]
                                                                 : std::string();
        };
        const std::string file = (dir.path() / cell("file")).string();
        if (referenceVerdict(file, cell("spirv_val_target_env") == "pass").valid)
          out[file] = cell("target_env");
        else if (cell("spirv_val_default_env") == "pass")
          out[file] = "spv1.6";
      }
    }
  if (std::optional<fs::path> generated = generatedCorpus())
    if (Expected<GeneratedCorpusManifest> m = readGeneratedCorpusManifest(*generated))
      for (const GeneratedModule &g : m->modules)
        out[g.file.string()] = g.targetEnv;
  return out;
}

std::string firstError(const val::Report &r) {
  for (const val::Problem &p : r.problems)
    if (p.severity == Severity::Error)
      return p.message;
  return {};
}

} // namespace

TEST(DialectDeserializeCorpus, SerializedModulesAreValid) {
  // Every round-tripped module must be valid in the environment its original is valid in (the
  // manifests' target environment, or spv1.6), for spire val and for spirv-val. spirv-val takes
  // a millisecond or two a module: on every module it adds about 5 seconds to this test on two
  // cores (1 s on every 8th module in spv1.6, 5 to 7 s on all), so none is skipped.
  std::vector<fs::path> files = allModules();
  if (files.empty())
    GTEST_SKIP() << "no corpus";
  const bool haveSpirvVal = haveTool(referenceTool("spirv-val"));
  const std::map<std::string, std::string> environments = validEnvironments();
  std::mutex mu;
  size_t compared = 0, ok = 0, checkedBySpirvVal = 0, spirvValRejected = 0, explained = 0;
  std::map<std::string, size_t> failures;
  std::map<std::string, std::string> example;
  parallelFor(files.size(), [&](size_t i) {
    std::optional<Module> m = readValidModule(files[i]);
    if (!m)
      return;
    auto known = environments.find(files[i].string());
    const std::string env = known != environments.end() ? known->second : "spv1.6";
    val::Options options;
    options.env = *val::parseEnvironment(env);
    options.maxErrors = 1;
    dialect::Context ctx;
    Expected<dialect::OwningOp> op = dialect::deserialize(ctx, *m);
    if (!op || !dialect::verify(**op))
      return;
    std::string problem;
    Expected<std::vector<uint32_t>> words = dialect::serialize(**op);
    std::vector<uint32_t> out;
    dialect::Context typesCtx;
    Expected<dialect::ModuleTypes> types = dialect::ModuleTypes::import(
        typesCtx, *m, [](uint32_t id) { return "spec" + std::to_string(id); });
    if (!words) {
      problem = "serialize: " + words.error().message;
    } else {
      out = *words;
      Expected<Module> back = Module::fromWords(out);
      if (!back)
        problem = "unreadable: " + back.error().message;
      else if (val::Report r = val::validate(*back, options); r.errorCount() != 0)
        problem = "invalid [" + env + "]: " + firstError(r);
      else if (std::string a = signature(*m, types ? &*types : nullptr), b = signature(*back);
               a != b)
        problem = "changed: " + firstDifference(a, b);
    }
    // spirv-val, the reference, on every module spire accepts, in the original's environment.
    bool bySpirvVal = problem.empty() && haveSpirvVal;
    std::string spirvValMessage, why;
    if (bySpirvVal) {
      std::string bytes(reinterpret_cast<const char *>(out.data()), out.size() * 4);
      fs::path tmp = fs::temp_directory_path() / ("spire-roundtrip-" + std::to_string(::getpid()) +
                                                  "-" + std::to_string(i) + ".spv");
      {
        std::FILE *f = std::fopen(tmp.c_str(), "wb");
        std::fwrite(bytes.data(), 1, bytes.size(), f);
        std::fclose(f);
      }
      ToolResult r = runTool({referenceTool("spirv-val"), "--target-env", env, tmp.string()});
      fs::remove(tmp);
      // Only where spirv-val accepts the original there: spire val accepts a few it rejects,
      // and the manifests record SPIRV-Tools 2023.1's verdicts, which newer ones do not all
      // share.
      if (r.exitCode != 0 &&
          runTool({referenceTool("spirv-val"), "--target-env", env, files[i].string()}).exitCode ==
              0) {
        spirvValMessage = r.err.empty() ? r.out : r.err;
        if (std::optional<std::string> reason = knownReferenceBug("dialect-round-trip", files[i]))
          why = *reason;
      }
    }
    std::lock_guard<std::mutex> lock(mu);
    ++compared;
    if (bySpirvVal) {
      ++checkedBySpirvVal;
      if (!spirvValMessage.empty() && !why.empty()) {
        ++explained;
      } else if (!spirvValMessage.empty()) {
        ++spirvValRejected;
        std::string c = "spirv-val [" + env +
                        "]: " + category(spirvValMessage.substr(0, spirvValMessage.find('\n')));
        if (!failures[c]++)
          example[c] = displayName(files[i]);
      }
    }
    if (problem.empty()) {
      ++ok;
      return;
    }
    std::string c = category(problem);
    if (!failures[c]++)
      example[c] = displayName(files[i]);
  });
  std::printf("deserialize + serialize: %zu modules, %zu valid for spire val in their "
              "environment (%.2f%%); spirv-val checked %zu of them in their environment and "
              "rejected %zu (%zu more explained by spirv-val's bugs)\n",
              compared, ok, compared ? 100.0 * ok / compared : 0.0, checkedBySpirvVal,
              spirvValRejected, explained);
  std::vector<std::pair<size_t, std::string>> sorted;
  for (auto &[c, n] : failures)
    sorted.emplace_back(n, c);
  std::sort(sorted.rbegin(), sorted.rend());
  for (size_t k = 0; k < sorted.size() && k < 30; ++k)
    std::printf("  %5zu  %s  (e.g. %s)\n", sorted[k].first, sorted[k].second.c_str(),
                example[sorted[k].second].c_str());
  EXPECT_GE(compared ? double(ok) / compared : 1.0, kRoundTripFloor);
  EXPECT_EQ(spirvValRejected, 0u);
}
