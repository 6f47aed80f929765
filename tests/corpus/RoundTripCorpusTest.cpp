// Reading every corpus module and writing it back gives the same bytes.
#include "CorpusSupport.h"

#include "spire/module/Module.h"
#include "spire/module/Opcodes.h"

#include <algorithm>
#include <atomic>
#include <unordered_map>

#include <gtest/gtest.h>

using namespace spire;
using namespace spire::test;

TEST(CorpusRoundTrip, ReadThenWriteIsExact) {
  std::vector<fs::path> files = allModules();
  if (files.empty())
    GTEST_SKIP() << "no corpus: ../shared/corpus is absent and no generated corpus was built";
  Tally strict("binary round trip (strict reading)");
  Tally lenient("binary round trip (recovering reader)");
  parallelFor(files.size(), [&](size_t i) {
    std::vector<uint8_t> bytes = readBytes(files[i]);
    Expected<Module> m = Module::fromBytes(bytes);
    if (m) {
      strict.compared();
      if (m->toBytes() != bytes)
        strict.differed(files[i], "written bytes differ");
    } else {
      strict.skipped(files[i], m.error().format());
    }
    Expected<Module> r = Module::fromBytes(bytes, {.allowIdsPastBound = true, .recover = true});
    if (!r) {
      // Only a broken header or word count stops the recovering reader.
      lenient.skipped(files[i], r.error().format());
      EXPECT_TRUE(r.error().message.find("word count") != std::string::npos ||
                  r.error().message.find("header") != std::string::npos)
          << r.error().format(displayName(files[i]));
      return;
    }
    lenient.compared();
    if (r->toBytes() != bytes)
      lenient.differed(files[i], "written bytes differ");
  });
  EXPECT_TRUE(strict.report());
  EXPECT_TRUE(lenient.report());
}

// The reader's shortcuts (no operands stored for instructions of fixed shape; operands of
// strings, enumerant tails such as OpDecorate %x Location 0 and scalar constants stored without
// the decoder's walk) must say exactly what the full decoder says.
TEST(CorpusRoundTrip, FixedShapeOperandsAgreeWithTheFullDecoder) {
  std::vector<fs::path> files = allModules();
  if (files.empty())
    GTEST_SKIP() << "no corpus: ../shared/corpus is absent and no generated corpus was built";
  Tally tally("fixed-shape operands against the full decoder");
  std::atomic<size_t> fixedCount{0}, total{0};
  parallelFor(files.size(), [&](size_t i) {
    Expected<Module> m = Module::fromBytes(readBytes(files[i]), {.allowIdsPastBound = true});
    if (!m)
      return;
    tally.compared();
    binary::Decoder decoder;
    decoder.reset(m->bound(), *m, {.allowIdsPastBound = true});
    FlatVector<binary::Operand> full;
    for (Instruction inst : *m) {
      ++total;
      const grammar::InstructionDesc *desc = inst.desc();
      bool fixed = desc != nullptr && decoder.decodeFixed(inst.words(), *desc);
      full.clear();
      // Decoding an instruction again only notes an OpExtInstImport twice, which is harmless.
      if (!decoder.decode(inst.words(), desc, full)) {
        tally.differed(files[i],
                       "instruction " + std::to_string(inst.index()) + " no longer decodes");
        return;
      }
      fixedCount += fixed;
      auto stored = inst.operands();
      bool same = stored.size() == full.size();
      for (size_t k = 0; same && k < full.size(); ++k)
        same = stored[k].offset == full[k].offset && stored[k].numWords == full[k].numWords &&
               stored[k].kind == full[k].kind && stored[k].number == full[k].number &&
               stored[k].bitWidth == full[k].bitWidth;
      if (!same) {
        tally.differed(files[i], "operands of instruction " + std::to_string(inst.index()) + " (" +
                                     std::string(desc ? desc->name : "?") + ") differ");
        return;
      }
    }
  });
  std::printf("%zu of %zu instructions have a fixed shape\n", fixedCount.load(), total.load());
  EXPECT_TRUE(tally.report());
}

namespace {

// The logical-layout section of an instruction outside functions, by the rules of SPIR-V 2.4,
// written without the reader's tables.
Section plainSection(const Instruction &inst) {
  using grammar::Op;
  static const std::pair<Op, Section> kByOpcode[] = {
      {Op::Capability, Section::Capability},
      {Op::Extension, Section::Extension},
      {Op::ExtInstImport, Section::ExtInstImport},
      {Op::MemoryModel, Section::MemoryModel},
      {Op::EntryPoint, Section::EntryPoint},
      {Op::ExecutionMode, Section::ExecutionMode},
      {Op::ExecutionModeId, Section::ExecutionMode},
      {Op::String, Section::DebugSource},
      {Op::SourceExtension, Section::DebugSource},
      {Op::Source, Section::DebugSource},
      {Op::SourceContinued, Section::DebugSource},
      {Op::Name, Section::DebugName},
      {Op::MemberName, Section::DebugName},
      {Op::ModuleProcessed, Section::DebugModuleProcessed},
      {Op::Function, Section::FunctionDefinition},
  };
  for (const auto &[op, section] : kByOpcode)
    if (inst.opcode() == op)
      return section;
  const grammar::InstructionDesc *desc = grammar::findInstruction(inst.words()[0] & 0xFFFF);
  return desc != nullptr && desc->cls == grammar::InstructionClass::Annotation ? Section::Annotation
                                                                               : Section::Global;
}

// What the index says of a module, recomputed by a plain walk over its instructions.
std::string indexDifference(const Module &m) {
  using grammar::Op;
  std::vector<FunctionInfo> functions;
  std::vector<BlockInfo> blocks;
  std::vector<Section> sections;
  std::unordered_map<uint32_t, uint32_t> firstDefinition;
  bool inFunction = false, inBlock = false;
  for (Instruction inst : m) {
    const uint32_t i = inst.index();
    const grammar::InstructionDesc *desc = inst.isRaw() ? nullptr : inst.desc();
    const auto words = inst.words();
    const uint32_t type = desc != nullptr && desc->hasResultType ? words[1] : 0;
    const uint32_t result =
        desc != nullptr && desc->hasResult ? words[desc->hasResultType ? 2 : 1] : 0;
    if (inst.typeId() != type || inst.resultId() != result)
      return "instruction " + std::to_string(i) + ": result type or id";
    if (result != 0)
      firstDefinition.try_emplace(result, i);
    const Op op = inst.opcode();
    sections.push_back(inFunction ? Section::FunctionDefinition : plainSection(inst));
    if (op == Op::Function) {
      if (inBlock)
        blocks.back().end = i;
      if (inFunction)
        functions.back().end = i;
      functions.push_back({i, i + 1, static_cast<uint32_t>(blocks.size()), 0});
      inFunction = true;
      inBlock = false;
    } else if (inFunction && op == Op::Label) {
      if (inBlock)
        blocks.back().end = i;
      blocks.push_back({i, i + 1});
      ++functions.back().numBlocks;
      inBlock = true;
    } else if (inFunction && op == Op::FunctionEnd) {
      if (inBlock)
        blocks.back().end = i;
      functions.back().end = i + 1;
      inFunction = inBlock = false;
    } else if (inBlock && isBlockTerminator(op)) {
      blocks.back().end = i + 1;
      inBlock = false;
    }
  }
  if (inBlock)
    blocks.back().end = m.size();
  if (inFunction)
    functions.back().end = m.size();
  for (const FunctionInfo &f : functions)
    if (f.numBlocks == 0)
      for (uint32_t i = f.begin; i < f.end; ++i)
        sections[i] = Section::FunctionDeclaration;
  for (uint32_t i = 0; i < m.size(); ++i)
    if (m.inst(i).section() != sections[i])
      return "instruction " + std::to_string(i) + ": section " +
             std::string(sectionName(m.inst(i).section())) + ", not " +
             std::string(sectionName(sections[i]));
  for (uint32_t id = 0; id < m.bound(); ++id) {
    const auto it = firstDefinition.find(id);
    if (m.defIndex(id) != (it == firstDefinition.end() ? kNoIndex : it->second))
      return "definition of %" + std::to_string(id);
  }
  const auto sameFunction = [](const FunctionInfo &a, const FunctionInfo &b) {
    return a.begin == b.begin && a.end == b.end && a.firstBlock == b.firstBlock &&
           a.numBlocks == b.numBlocks;
  };
  if (!std::equal(functions.begin(), functions.end(), m.functions().begin(), m.functions().end(),
                  sameFunction))
    return "functions";
  for (const FunctionInfo &f : functions)
    if (!std::equal(blocks.begin() + f.firstBlock, blocks.begin() + f.firstBlock + f.numBlocks,
                    m.blocks(f).begin(), m.blocks(f).end(),
                    [](const BlockInfo &a, const BlockInfo &b) {
                      return a.label == b.label && a.end == b.end;
                    }))
      return "blocks of the function at instruction " + std::to_string(f.begin);
  return {};
}

} // namespace

// The reader's loops (see Module::index) against a plain walk: result types and ids, first
// definitions, sections, functions and blocks, for strict and recovering reads.
TEST(CorpusRoundTrip, IndexAgreesWithAPlainWalk) {
  std::vector<fs::path> files = allModules();
  if (files.empty())
    GTEST_SKIP() << "no corpus: ../shared/corpus is absent and no generated corpus was built";
  Tally tally("the reader's index against a plain walk (strict and recovering reads)");
  parallelFor(files.size(), [&](size_t i) {
    const std::vector<uint8_t> bytes = readBytes(files[i]);
    for (const binary::DecodeOptions options :
         {binary::DecodeOptions{},
          binary::DecodeOptions{.allowIdsPastBound = true, .recover = true}}) {
      Expected<Module> m = Module::fromBytes(bytes, options);
      if (!m)
        continue;
      tally.compared();
      if (std::string why = indexDifference(*m); !why.empty())
        tally.differed(files[i], why);
    }
  });
  EXPECT_TRUE(tally.report());
}
