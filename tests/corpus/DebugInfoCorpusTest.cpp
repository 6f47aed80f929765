// Debug information through the structured IR, on real compiler output: every GLSL and HLSL
// source of tests/corpus-src compiled by glslangValidator with -g (OpLine, OpSource, OpString,
// OpModuleProcessed) and with -gVS (NonSemantic.Shader.DebugInfo.100 as well), deserialized and
// serialized again. The result must be valid (spirv-val, in the source's environment), hold the
// same debug instructions (OpSource, OpSourceContinued, OpSourceExtension and OpModuleProcessed
// in order, the same OpStrings, the same instructions of non-semantic sets), and map the same
// instructions to the same source lines.
#include "CorpusSupport.h"
#include "GeneratedCorpusManifest.h"

#include "spire/dialect/Serialization.h"
#include "spire/dialect/Verifier.h"
#include "spire/module/Opcodes.h"
#include "spire/val/Validator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <optional>
#include <sstream>
#include <tuple>

using namespace spire;
using namespace spire::test;

namespace {

/// What a module says about its source: the line of each instruction and its debug
/// instructions, counted.
struct DebugFacts {
  /// Instructions by opcode and source line (file, line, column) under SPIR-V's scoping of
  /// OpLine: up to the next OpLine or OpNoLine or the end of the block. Labels and
  /// unconditional branches are left out: the structured IR may add blocks (the serializer
  /// keeps a module's blocks where deserialization added them, but not everywhere: `labels`).
  std::map<std::tuple<uint32_t, std::string, uint32_t, uint32_t>, int> lines;
  int opLines = 0;
  int labels = 0;
  /// OpLines that cover no instruction (glslang writes some: the next is another OpLine).
  int empty = 0;
  /// OpLines that restate the line a block's only predecessor ended with, falling through to
  /// it (`OpBranch`): they say nothing new, and the blocks a round trip adds need them.
  int restated = 0;
  int noLines = 0;
  /// Non-semantic instructions between OpFunction and the first label (glslang's -gVS writes a
  /// DebugNoLine there for HLSL): they become the first ops of the entry block, after its
  /// variables, where the function's line is restated for them.
  int beforeLabel = 0;
  /// OpSource (with its file's text), OpSourceContinued, OpSourceExtension and
  /// OpModuleProcessed, in order; the texts of the OpStrings, sorted.
  std::vector<std::string> sources;
  std::vector<std::string> strings;
  /// The instructions of non-semantic and debug-information sets, by set and number.
  std::map<std::pair<std::string, uint32_t>, int> nonSemantic;
};

using Line = std::tuple<std::string, uint32_t, uint32_t>;

DebugFacts debugFacts(const Module &m) {
  DebugFacts f;
  std::map<uint32_t, std::string> strings;
  for (Instruction inst : m) {
    auto ops = inst.operands();
    switch (inst.opcode()) {
    case grammar::Op::String:
      strings[inst.word(1)] = inst.stringOperand(ops[1]);
      f.strings.push_back(strings[inst.word(1)]);
      break;
    case grammar::Op::Source:
      f.sources.push_back("OpSource " + std::to_string(inst.word(1)) + " " +
                          std::to_string(inst.word(2)) +
                          (ops.size() > 2 ? " " + strings[inst.word(3)] : "") +
                          (ops.size() > 3 ? " " + inst.stringOperand(ops[3]) : ""));
      break;
    case grammar::Op::ExtInst:
    case grammar::Op::ExtInstWithForwardRefsKHR:
      if (m.extInstImport(inst.word(3)).describesOnly()) {
        Instruction imp = m.inst(m.defIndex(inst.word(3)));
        ++f.nonSemantic[{imp.stringOperand(imp.operands()[1]), inst.word(4)}];
      }
      break;
    case grammar::Op::SourceContinued:
    case grammar::Op::SourceExtension:
    case grammar::Op::ModuleProcessed:
      f.sources.push_back(std::string(inst.desc()->name) + " " + inst.stringOperand(ops[0]));
      break;
    default:
      break;
    }
  }
  std::sort(f.strings.begin(), f.strings.end());
  // Each block: its predecessors, and the line in effect at its unconditional branch.
  std::map<uint32_t, int> predecessors;
  std::map<uint32_t, std::optional<Line>> fallThrough; // target label -> line
  for (Instruction inst : m) {
    auto ops = inst.operands();
    std::vector<size_t> targets;
    if (inst.opcode() == grammar::Op::Branch)
      targets = {0};
    else if (inst.opcode() == grammar::Op::BranchConditional)
      targets = {1, 2};
    else if (inst.opcode() == grammar::Op::Switch)
      for (size_t k = 1; k < ops.size(); k += 2)
        targets.push_back(k);
    for (size_t k : targets)
      if (k < ops.size())
        ++predecessors[inst.words()[ops[k].offset]];
  }
  std::optional<Line> current;
  uint32_t label = 0;
  bool firstLineOfBlock = true, covers = true;
  for (Instruction inst : m) {
    const grammar::Op op = inst.opcode();
    if (op == grammar::Op::Line || op == grammar::Op::NoLine)
      f.empty += !covers;
    covers = op != grammar::Op::Line;
    if (op == grammar::Op::Label) {
      ++f.labels;
      label = inst.resultId();
      firstLineOfBlock = true;
    }
    if (op == grammar::Op::Function)
      label = 0;
    if (label == 0 && op == grammar::Op::ExtInst && m.extInstImport(inst.word(3)).describesOnly())
      ++f.beforeLabel;
    if (op == grammar::Op::Line) {
      ++f.opLines;
      Line l{strings[inst.word(1)], inst.word(2), inst.word(3)};
      auto from = fallThrough.find(label);
      if (firstLineOfBlock && label && predecessors[label] == 1 && from != fallThrough.end() &&
          from->second == l)
        ++f.restated;
      firstLineOfBlock = false;
      current = l;
      continue;
    }
    if (op == grammar::Op::NoLine) {
      ++f.noLines;
      current.reset();
      continue;
    }
    if (op == grammar::Op::Branch)
      fallThrough[inst.word(1)] = current;
    if (current && op != grammar::Op::Label && op != grammar::Op::Branch)
      ++f.lines[{static_cast<uint32_t>(op), std::get<0>(*current), std::get<1>(*current),
                 std::get<2>(*current)}];
    if (isBlockTerminator(op))
      current.reset();
  }
  return f;
}

/// The first difference of two line maps, or empty.
std::string lineDifference(const DebugFacts &a, const DebugFacts &b) {
  for (const auto &[key, n] : a.lines) {
    auto it = b.lines.find(key);
    const int m = it == b.lines.end() ? 0 : it->second;
    if (m != n) {
      const grammar::InstructionDesc *d = grammar::findInstruction(std::get<0>(key));
      std::ostringstream s;
      s << (d ? d->name : "?") << " at " << std::get<1>(key) << ":" << std::get<2>(key) << ":"
        << std::get<3>(key) << ": " << n << " before, " << m << " after";
      return s.str();
    }
  }
  for (const auto &[key, n] : b.lines)
    if (!a.lines.count(key)) {
      const grammar::InstructionDesc *d = grammar::findInstruction(std::get<0>(key));
      return std::string(d ? d->name : "?") + " at line " + std::to_string(std::get<2>(key)) +
             " only after the round trip";
    }
  return {};
}

/// The glslangValidator options of a generated module's command, without its input, output
/// and debug-information options.
std::vector<std::string> glslangOptions(const GeneratedModule &m) {
  std::vector<std::string> out;
  std::istringstream in(m.command);
  std::string word;
  in >> word; // the tool
  while (in >> word) {
    if (word == "-o") {
      in >> word;
      continue;
    }
    if (word == m.source || word == "-g" || word == "-gVS" || word == "-g0" || word == "-Os")
      continue;
    out.push_back(word);
  }
  return out;
}

TEST(DebugInfoCorpus, GlslangDebugInfoSurvivesTheRoundTrip) {
  std::optional<fs::path> corpus = generatedCorpus();
  if (!corpus)
    GTEST_SKIP() << "no generated corpus: tests/corpus-src was not built";
  if (!haveTool("glslangValidator"))
    GTEST_SKIP() << "glslangValidator not found";
  Expected<GeneratedCorpusManifest> manifest = readGeneratedCorpusManifest(*corpus);
  ASSERT_TRUE(manifest.ok()) << manifest.error().format();
  std::vector<const GeneratedModule *> sources = manifest->ofKind("glsl");
  for (const GeneratedModule *m : manifest->ofKind("hlsl"))
    sources.push_back(m);
  if (sources.empty())
    GTEST_SKIP() << "no GLSL or HLSL sources in the generated corpus";

  TempDir tmp("spire-debuginfo");
  const std::string spirvVal = referenceTool("spirv-val");
  Tally tally("glslang -g / -gVS modules through the structured IR and back");
  std::atomic<int> modules{0}, opLinesBefore{0}, opLinesAfter{0}, restatedBefore{0},
      restatedAfter{0}, labelsBefore{0}, labelsAfter{0}, mappedInstructions{0}, emptyBefore{0},
      noLinesBefore{0}, noLinesAfter{0}, sourcesKept{0}, stringsKept{0}, nonSemanticKept{0},
      rejectedByReference{0};
  const char *modes[] = {"-g", "-gVS"};
  parallelFor(sources.size() * 2, [&](size_t i) {
    const GeneratedModule &src = *sources[i / 2];
    const std::string mode = modes[i % 2];
    const fs::path input = fs::path(SPIRE_SOURCE_DIR) / src.source;
    const std::string out = tmp.path(src.name.substr(src.name.find('/') + 1) + mode + ".spv");
    std::vector<std::string> argv{"glslangValidator"};
    for (const std::string &o : glslangOptions(src))
      argv.push_back(o);
    argv.insert(argv.end(), {mode, "--quiet", input.string(), "-o", out});
    ToolResult compiled = runTool(argv);
    const fs::path shown = src.name + " " + mode;
    if (compiled.exitCode != 0) {
      tally.skipped(shown, "glslangValidator " + mode + " failed: " + compiled.out + compiled.err);
      return;
    }
    Expected<Module> original = Module::fromBytes(readBytes(out));
    if (!original) {
      // glslangValidator 11's -gVS writes id 0 for some types it has no debug type of.
      tally.skipped(shown,
                    "glslangValidator wrote an unreadable module: " + original.error().message);
      return;
    }
    tally.compared();
    // glslangValidator 11's -gVS writes line 0 in DebugLine and columns past the source text,
    // which spirv-val 2026.4 rejects: the round trip of such a module is checked with spire val.
    const bool referenceAccepts =
        runTool({spirvVal, "--target-env", src.targetEnv, out}).exitCode == 0;
    if (!referenceAccepts)
      ++rejectedByReference;
    dialect::Context ctx;
    Expected<dialect::OwningOp> op = dialect::deserialize(ctx, *original);
    if (!op) {
      tally.differed(shown, "deserialize: " + op.error().message);
      return;
    }
    if (Status v = dialect::verify(**op); !v) {
      tally.differed(shown, "verify: " + v.error().message);
      return;
    }
    Expected<std::vector<uint32_t>> words = dialect::serialize(**op);
    if (!words) {
      tally.differed(shown, "serialize: " + words.error().message);
      return;
    }
    Expected<Module> back = Module::fromWords(*words);
    if (!back) {
      tally.differed(shown, "serialized module unreadable: " + back.error().message);
      return;
    }
    const std::string written = out + ".back.spv";
    {
      std::FILE *f = std::fopen(written.c_str(), "wb");
      ASSERT_TRUE(f);
      std::fwrite(words->data(), 4, words->size(), f);
      std::fclose(f);
    }
    if (referenceAccepts) {
      ToolResult valid = runTool({spirvVal, "--target-env", src.targetEnv, written});
      if (valid.exitCode != 0) {
        tally.differed(shown, "spirv-val rejects the round trip: " + valid.out + valid.err);
        return;
      }
    } else {
      val::Options options;
      options.env = *val::parseEnvironment(src.targetEnv);
      options.maxErrors = 1;
      val::Report r = val::validate(*back, options);
      if (!r.valid()) {
        tally.differed(shown, "spire val rejects the round trip: " +
                                  r.problems.front().format("<round trip>"));
        return;
      }
    }
    const DebugFacts before = debugFacts(*original), after = debugFacts(*back);
    if (before.sources != after.sources) {
      tally.differed(shown, "OpSource, OpSourceContinued, OpSourceExtension, OpModuleProcessed: " +
                                std::to_string(before.sources.size()) + " before, " +
                                std::to_string(after.sources.size()) + " after, or not the same");
      return;
    }
    if (before.strings != after.strings) {
      tally.differed(shown, "OpString: " + std::to_string(before.strings.size()) + " before, " +
                                std::to_string(after.strings.size()) + " after, or not the same");
      return;
    }
    if (before.nonSemantic != after.nonSemantic) {
      auto total = [](const DebugFacts &f) {
        int n = 0;
        for (const auto &entry : f.nonSemantic)
          n += entry.second;
        return std::to_string(n);
      };
      tally.differed(shown, "non-semantic instructions: " + total(before) + " before, " +
                                total(after) + " after, or not the same");
      return;
    }
    if (std::string d = lineDifference(before, after); !d.empty()) {
      tally.differed(shown, "source lines: " + d);
      return;
    }
    // The lines are the same; and the round trip adds no OpLine or OpNoLine but those that
    // restate a line at the start of a block it adds, or for an instruction it moves into the
    // entry block. It may need fewer: none that cover
    // nothing, and none that only end a line before a label or before a block it adds.
    auto counted = [](const DebugFacts &f) { return f.opLines - f.restated - f.empty; };
    if (counted(after) > counted(before) + before.beforeLabel || after.noLines > before.noLines) {
      auto says = [](const DebugFacts &f) {
        return std::to_string(f.opLines) + " (" + std::to_string(f.restated) + " restated, " +
               std::to_string(f.empty) + " empty)";
      };
      tally.differed(shown, "OpLine " + says(before) + " before, " + says(after) +
                                " after; OpNoLine " + std::to_string(before.noLines) + " before, " +
                                std::to_string(after.noLines) + " after");
      return;
    }
    ++modules;
    sourcesKept += static_cast<int>(before.sources.size());
    for (const auto &entry : before.nonSemantic)
      nonSemanticKept += entry.second;
    stringsKept += static_cast<int>(before.strings.size());
    opLinesBefore += before.opLines;
    opLinesAfter += after.opLines;
    emptyBefore += before.empty;
    noLinesBefore += before.noLines;
    noLinesAfter += after.noLines;
    restatedBefore += before.restated;
    restatedAfter += after.restated;
    labelsBefore += before.labels;
    labelsAfter += after.labels;
    int mapped = 0;
    for (const auto &entry : before.lines)
      mapped += entry.second;
    mappedInstructions += mapped;
  });
  std::printf("debug info round trip: %d modules; OpLine %d before (%d covering nothing), %d "
              "after (restated: %d before, %d after); OpNoLine %d before, %d after; OpLabel %d "
              "before, %d after; %d instructions mapped to the same lines\n",
              modules.load(), opLinesBefore.load(), emptyBefore.load(), opLinesAfter.load(),
              restatedBefore.load(), restatedAfter.load(), noLinesBefore.load(),
              noLinesAfter.load(), labelsBefore.load(), labelsAfter.load(),
              mappedInstructions.load());
  std::printf("debug info round trip: %d OpSource, OpSourceContinued, OpSourceExtension and "
              "OpModuleProcessed and %d OpString kept, in order; %d instructions of "
              "non-semantic sets (NonSemantic.Shader.DebugInfo.100) kept\n",
              sourcesKept.load(), stringsKept.load(), nonSemanticKept.load());
  std::printf("debug info round trip: %d of glslang's modules rejected by spirv-val (checked "
              "with spire val)\n",
              rejectedByReference.load());
  EXPECT_TRUE(tally.report());
  EXPECT_GT(modules.load(), 0);
}

} // namespace
