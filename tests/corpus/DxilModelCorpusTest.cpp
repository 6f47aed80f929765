// Every DXIL container of the shared corpus decodes to the DXIL model: its entry points,
// resources and signature elements typed and every dx.op call resolved. Files that do not decode
// must be listed, with the reason, in tests/corpus/dxil-model-known-differences.txt; a listed
// file that decodes fails too. Prints the counts.
#include "CorpusSupport.h"

#include "spire/dxil/BitcodeReader.h"
#include "spire/dxil/Container.h"
#include "spire/dxil/ContainerSummary.h"
#include "spire/dxil/DxilModule.h"
#include "spire/dxil/PipelineStateValidation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>

namespace spire::test {
namespace {

struct Counts {
  size_t files = 0, decoded = 0, signatureElements = 0, calls = 0, opFunctions = 0;
  std::map<std::string, size_t> entriesByKind, resourcesByClass, callsByClass;
};

/// The module of a container's DXIL part, or why there is none.
Expected<dxil::LlvmModule> readProgram(const fs::path &file, dxil::ProgramHeader &program) {
  std::vector<uint8_t> bytes = readBytes(file);
  Expected<dxil::Container> container = dxil::readContainer(bytes);
  if (!container)
    return container.error();
  const dxil::ContainerPart *part = container->find(dxil::FourCC::of("DXIL"));
  if (!part)
    return makeError(Location(), "no DXIL part");
  Expected<dxil::ProgramHeader> header = dxil::readProgramHeader(*part);
  if (!header)
    return header.error();
  program = *header;
  return dxil::readBitcode(program.bitcode);
}

/// Decodes one container; the error text when it does not.
std::optional<std::string> decode(const fs::path &file, Counts &counts, std::mutex &lock) {
  dxil::ProgramHeader program;
  Expected<dxil::LlvmModule> module = readProgram(file, program);
  if (!module)
    return module.error().format();
  Expected<dxil::DxilModule> model =
      dxil::decodeDxil(*module, dxil::DxilContainerInfo{program.kind, program.shaderModelMajor,
                                                        program.shaderModelMinor});
  if (!model)
    return model.error().format();
  // Every call of a dx.op function is resolved.
  size_t opCalls = 0;
  for (const dxil::Instruction &inst : module->instructions)
    if (const dxil::Function *f = module->calledFunction(inst))
      opCalls += module->name(f->value).starts_with("dx.op.");
  if (opCalls != model->opCalls.size())
    return "resolved " + std::to_string(model->opCalls.size()) + " of " + std::to_string(opCalls) +
           " dx.op calls";

  std::lock_guard<std::mutex> guard(lock);
  ++counts.decoded;
  for (const dxil::EntryPoint &e : model->entryPoints) {
    const char *kind = dxil::shaderKindName(e.kind);
    ++counts.entriesByKind[kind ? kind : "kind " + std::to_string(unsigned(e.kind))];
    counts.signatureElements += e.signatures.inputs.size() + e.signatures.outputs.size() +
                                e.signatures.patchConstants.size();
  }
  for (dxil::ResourceClass c : {dxil::ResourceClass::SRV, dxil::ResourceClass::UAV,
                                dxil::ResourceClass::CBuffer, dxil::ResourceClass::Sampler})
    counts.resourcesByClass[dxil::resourceClassName(c)] += model->resources.list(c).size();
  counts.calls += model->opCalls.size();
  for (const dxil::DxilOpCall &call : model->opCalls)
    ++counts.callsByClass[std::string(dxil::opClassName(call.op->opClass))];
  return std::nullopt;
}

TEST(DxilModelCorpus, EveryContainerDecodes) {
  std::optional<fs::path> corpus = sharedCorpus();
  if (!corpus || !fs::exists(*corpus / "dxil"))
    GTEST_SKIP() << "no DXIL corpus (../shared/corpus/dxil)";
  std::vector<fs::path> files = filesUnder(*corpus / "dxil", ".dxil");
  ASSERT_FALSE(files.empty());
  std::map<std::string, std::string> known = readReasonList("dxil-model-known-differences.txt");
  Counts counts;
  counts.files = files.size();
  std::mutex lock;
  std::vector<std::optional<std::string>> errors(files.size());
  parallelFor(files.size(), [&](size_t i) { errors[i] = decode(files[i], counts, lock); });
  for (size_t i = 0; i < files.size(); ++i) {
    std::string name = files[i].filename().string();
    bool listed = known.count(name) != 0;
    if (errors[i] && !listed)
      ADD_FAILURE() << name << ": " << *errors[i];
    if (!errors[i] && listed)
      ADD_FAILURE() << name << " decodes now: remove it from dxil-model-known-differences.txt";
  }
  std::printf("DXIL model: %zu of %zu containers decode; %zu signature elements; %zu dx.op "
              "calls resolved\n",
              counts.decoded, counts.files, counts.signatureElements, counts.calls);
  std::printf("  entry points:");
  for (const auto &[kind, n] : counts.entriesByKind)
    std::printf(" %s %zu", kind.c_str(), n);
  std::printf("\n  resources (dx.resources):");
  for (const auto &[c, n] : counts.resourcesByClass)
    std::printf(" %s %zu", c.c_str(), n);
  std::printf("\n  dx.op calls by class (%zu classes):", counts.callsByClass.size());
  for (const auto &[c, n] : counts.callsByClass)
    std::printf(" %s %zu", c.c_str(), n);
  std::printf("\n");
  EXPECT_GT(counts.calls, 0u);
}

/// Whether a PSV0 table holds `state`'s rows: PSV0 has a row per input component of whole
/// signature vectors, dx.viewIdState per component the program declares, so PSV0 may have more
/// rows, all zero.
bool sameRows(const std::vector<uint32_t> &state, const std::vector<uint32_t> &psv) {
  return psv.size() >= state.size() && std::equal(state.begin(), state.end(), psv.begin()) &&
         std::all_of(psv.begin() + long(state.size()), psv.end(), [](uint32_t w) { return !w; });
}

/// The decoded dx.viewIdState against the container's PSV0, which DXC writes from the same
/// state: the view ID masks agree word for word, the input-to-output tables row for row.
TEST(DxilModelCorpus, ViewIdStateAgreesWithPsv0) {
  std::optional<fs::path> corpus = sharedCorpus();
  if (!corpus || !fs::exists(*corpus / "dxil"))
    GTEST_SKIP() << "no DXIL corpus (../shared/corpus/dxil)";
  std::vector<fs::path> files = filesUnder(*corpus / "dxil", ".dxil");
  std::map<std::string, std::string> known = readReasonList("dxil-model-known-differences.txt");
  size_t withState = 0, compared = 0, usingViewId = 0;
  std::map<std::string, size_t> byKind;
  for (const fs::path &file : files) {
    if (known.count(file.filename().string()))
      continue;
    SCOPED_TRACE(file.filename().string());
    std::vector<uint8_t> bytes = readBytes(file);
    Expected<dxil::Container> container = dxil::readContainer(bytes);
    ASSERT_TRUE(container);
    const dxil::ContainerPart *part = container->find(dxil::FourCC::of("DXIL"));
    ASSERT_TRUE(part);
    Expected<dxil::ProgramHeader> program = dxil::readProgramHeader(*part);
    ASSERT_TRUE(program);
    Expected<dxil::LlvmModule> module = dxil::readBitcode(program->bitcode);
    ASSERT_TRUE(module);
    Expected<dxil::DxilModule> model = dxil::decodeDxil(*module);
    ASSERT_TRUE(model) << model.error().format();
    if (!model->viewId) {
      EXPECT_TRUE(model->viewIdState.empty());
      continue;
    }
    ++withState;
    const dxil::ViewIdState &v = *model->viewId;
    const char *kind = dxil::shaderKindName(model->kind);
    ++byKind[kind ? kind : "?"];
    usingViewId += v.usesViewId;
    const dxil::ContainerPart *psvPart = container->find(dxil::FourCC::of("PSV0"));
    if (!psvPart)
      continue;
    Expected<dxil::PipelineStateValidation> psv =
        dxil::readPipelineStateValidation(*psvPart, program->kind);
    ASSERT_TRUE(psv) << psv.error().format();
    if (!psv->shaderStage) // version 0 holds no tables
      continue;
    ++compared;
    EXPECT_EQ(v.usesViewId, psv->usesViewId);
    for (uint32_t s = 0; s < v.streams; ++s) {
      EXPECT_TRUE(sameRows(v.inputsContributingToOutputs[s], psv->inputToOutputTables[s]))
          << "stream " << s;
      if (v.usesViewId) {
        EXPECT_EQ(v.outputsDependentOnViewId[s], psv->viewIdOutputMasks[s]) << "stream " << s;
      }
    }
    EXPECT_TRUE(
        sameRows(v.inputsContributingToPatchConstOrPrim, psv->inputToPatchConstOutputTable));
    EXPECT_TRUE(
        sameRows(v.patchConstInputsContributingToOutputs, psv->patchConstInputToOutputTable));
    if (v.usesViewId) {
      EXPECT_EQ(v.patchConstOrPrimDependentOnViewId, psv->viewIdPatchConstOrPrimOutputMask);
    }
  }
  std::printf("DXIL view ID state: %zu programs have one (%zu use the view ID), %zu compared with "
              "PSV0; by kind:",
              withState, usingViewId, compared);
  for (const auto &[kind, n] : byKind)
    std::printf(" %s %zu", kind.c_str(), n);
  std::printf("\n");
  EXPECT_GT(compared, 0u);
}

/// Hostile metadata: each corpus module with metadata operands and value operands rewired at
/// random (to other nodes, null, out of range) still decodes or fails with one line.
TEST(DxilModelCorpus, SurvivesRewiredMetadata) {
  std::optional<fs::path> corpus = sharedCorpus();
  if (!corpus || !fs::exists(*corpus / "dxil"))
    GTEST_SKIP() << "no DXIL corpus (../shared/corpus/dxil)";
  std::vector<fs::path> files = filesUnder(*corpus / "dxil", ".dxil");
  std::atomic<size_t> decoded = 0, failed = 0;
  parallelFor(files.size(), [&](size_t i) {
    dxil::ProgramHeader program;
    Expected<dxil::LlvmModule> module = readProgram(files[i], program);
    if (!module || module->metadataOperands.empty())
      return;
    uint64_t state = 0x9E3779B97F4A7C15ull * (i + 1);
    auto next = [&] {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      return state;
    };
    for (int round = 0; round < 40; ++round) {
      dxil::LlvmModule m = *module;
      for (int k = 0; k < 4; ++k) {
        uint64_t r = next();
        size_t at = r % m.metadataOperands.size();
        uint32_t choice = uint32_t(r >> 32) % 4;
        m.metadataOperands[at] = choice == 0   ? dxil::kNoId
                                 : choice == 1 ? uint32_t(m.metadata.size() + (r >> 40) % 3)
                                               : uint32_t((r >> 40) % m.metadata.size());
        dxil::Metadata &md = m.metadata[(r >> 20) % m.metadata.size()];
        if (md.kind == dxil::MetadataKind::Value)
          md.value = uint32_t(next() % m.values.size());
      }
      Expected<dxil::DxilModule> d = dxil::decodeDxil(m);
      if (d) {
        ++decoded;
      } else {
        ++failed;
        EXPECT_EQ(d.error().format().find('\n'), std::string::npos) << d.error().format();
      }
    }
  });
  std::printf("DXIL model, rewired metadata: %zu decoded, %zu refused\n", decoded.load(),
              failed.load());
  EXPECT_GT(failed.load(), 0u);
}

} // namespace
} // namespace spire::test
