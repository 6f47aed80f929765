// Every DXIL container of the shared corpus translates to SPIR-V for Vulkan 1.3, with the default
// binding model and with raw buffers as texel buffers, and every module it gives is accepted by
// spire val and by spirv-val (the reference build when it is there). A container that does not
// must be listed, with the reason, in tests/corpus/dxil-translate-known-failures.txt; a listed
// container that now translates validly fails the test too, so the list only shrinks. Prints the
// counts beside the oracle's (dxil-spirv's RESULTS.tsv) on the same files.
#include "CorpusSupport.h"

#include "spire/dxil/BitcodeReader.h"
#include "spire/dxil/Container.h"
#include "spire/module/Module.h"
#include "spire/translate/DxilToSpirv.h"
#include "spire/val/Validator.h"

#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <map>
#include <mutex>
#include <unistd.h>

namespace spire::test {
namespace {

struct OptionSet {
  const char *name;
  translate::DxilTranslateOptions options;
};

std::vector<OptionSet> optionSets() {
  OptionSet texel{"raw buffers as texel buffers", {}};
  texel.options.bindings.rawBuffersAsTexelBuffers = true;
  return {OptionSet{"default", {}}, texel};
}

struct Outcome {
  std::string error; ///< empty: translated, and every module valid
  size_t modules = 0;
  bool translated = false, spireValid = false, referenceValid = false;
};

/// spirv-val's verdict on one module, for vulkan1.3: empty when valid.
std::string referenceVerdict(const std::vector<uint32_t> &words, size_t index) {
  const fs::path file =
      fs::temp_directory_path() /
      ("spire-translate-" + std::to_string(::getpid()) + "-" + std::to_string(index) + ".spv");
  {
    std::ofstream f(file, std::ios::binary);
    f.write(reinterpret_cast<const char *>(words.data()), std::streamsize(words.size() * 4));
  }
  ToolResult r = runTool({referenceTool("spirv-val"), "--target-env", "vulkan1.3", file.string()});
  fs::remove(file);
  if (r.exitCode == 0)
    return {};
  std::string message = r.err.empty() ? r.out : r.err;
  return message.substr(0, message.find('\n'));
}

Outcome translateOne(const fs::path &file, const translate::DxilTranslateOptions &options,
                     bool checkReference, size_t index) {
  Outcome o;
  std::vector<uint8_t> bytes = readBytes(file);
  Expected<std::vector<translate::TranslatedShader>> shaders =
      translate::translateDxilBytes(bytes, options);
  if (!shaders) {
    o.error = shaders.error().message;
    return o;
  }
  o.translated = true;
  o.modules = shaders->size();
  o.spireValid = o.referenceValid = true;
  val::Options vo;
  vo.env = *val::parseEnvironment("vulkan1.3");
  for (const translate::TranslatedShader &s : *shaders) {
    const uint8_t *b = reinterpret_cast<const uint8_t *>(s.words.data());
    val::Report report = val::validateBinary({b, s.words.size() * 4}, vo);
    if (!report.valid()) {
      o.spireValid = false;
      if (o.error.empty())
        o.error = "entry '" + s.entry + "': spire val: " + report.problems.front().format();
    }
    if (checkReference) {
      std::string verdict = referenceVerdict(s.words, index);
      if (!verdict.empty()) {
        o.referenceValid = false;
        if (o.error.empty())
          o.error = "entry '" + s.entry + "': spirv-val: " + verdict;
      }
    }
  }
  return o;
}

TEST(DxilTranslateCorpus, EveryContainerTranslatesToValidVulkanSpirv) {
  std::optional<fs::path> corpus = sharedCorpus();
  if (!corpus || !fs::exists(*corpus / "dxil"))
    GTEST_SKIP() << "no DXIL corpus (../shared/corpus/dxil)";
  std::vector<fs::path> files = filesUnder(*corpus / "dxil", ".dxil");
  ASSERT_FALSE(files.empty());
  const bool reference = haveTool(referenceTool("spirv-val"));
  std::map<std::string, std::string> known = readReasonList("dxil-translate-known-failures.txt");
  std::map<std::string, std::string> stageOf; // file -> shader model
  for (const auto &row : readTsv(*corpus / "dxil" / "MANIFEST.tsv"))
    if (row.size() > 4)
      stageOf[row[0]] = row[4].substr(0, row[4].find('_'));

  const std::vector<OptionSet> sets = optionSets();
  std::vector<std::vector<Outcome>> outcomes(sets.size(), std::vector<Outcome>(files.size()));
  parallelFor(files.size() * sets.size(), [&](size_t k) {
    const size_t set = k / files.size(), i = k % files.size();
    outcomes[set][i] = translateOne(files[i], sets[set].options, reference, k);
  });

  for (size_t i = 0; i < files.size(); ++i) {
    const std::string name = files[i].filename().string();
    std::string firstError;
    for (size_t set = 0; set < sets.size() && firstError.empty(); ++set)
      if (!outcomes[set][i].error.empty())
        firstError = std::string(sets[set].name) + ": " + outcomes[set][i].error;
    const bool listed = known.count(name) != 0;
    if (!firstError.empty() && !listed)
      ADD_FAILURE() << name << ": " << firstError;
    if (firstError.empty() && listed)
      ADD_FAILURE() << name
                    << " translates validly now: remove it from dxil-translate-known-failures.txt";
  }

  // The oracle's counts on the same files (dxil-spirv, its README's option sets).
  std::map<std::string, std::vector<std::string>> oracle;
  const fs::path results = *corpus / ".." / "tools" / "dxil-spirv" / "RESULTS.tsv";
  if (fs::exists(results))
    for (const auto &row : readTsv(results))
      if (!row.empty())
        oracle[row[0]] = row;
  size_t oracleConverted[2] = {0, 0}, oracleValid[2] = {0, 0};
  for (const fs::path &f : files) {
    auto it = oracle.find(f.filename().string());
    if (it == oracle.end() || it->second.size() < 11)
      continue;
    oracleConverted[0] += it->second[2] == "yes";
    oracleValid[0] += it->second[4] == "yes";
    oracleConverted[1] += it->second[8] == "yes";
    oracleValid[1] += it->second[10] == "yes";
  }

  std::printf("DXIL -> SPIR-V: %zu containers (%zu listed in dxil-translate-known-failures.txt)\n",
              files.size(), known.size());
  for (size_t set = 0; set < sets.size(); ++set) {
    size_t translated = 0, modules = 0, spire = 0, ref = 0;
    std::map<std::string, std::pair<size_t, size_t>> byStage; // stage -> valid, files
    for (size_t i = 0; i < files.size(); ++i) {
      const Outcome &o = outcomes[set][i];
      translated += o.translated;
      modules += o.modules;
      spire += o.translated && o.spireValid;
      ref += o.translated && o.referenceValid;
      auto &stage = byStage[stageOf[files[i].filename().string()]];
      stage.first += o.error.empty();
      ++stage.second;
    }
    std::printf("  %s: %zu translated (%zu modules); spire val accepts %zu, %s accepts %zu "
                "(vulkan1.3)\n   by shader model:",
                sets[set].name, translated, modules, spire,
                reference ? "spirv-val" : "spirv-val (not installed)", reference ? ref : 0);
    for (const auto &[stage, n] : byStage)
      std::printf(" %s %zu/%zu", stage.c_str(), n.first, n.second);
    std::printf("\n");
  }
  if (!oracle.empty())
    std::printf("  oracle (dxil-spirv, RESULTS.tsv): default options %zu converted, %zu valid "
                "for vulkan1.3; vkd3d options %zu converted, %zu valid\n",
                oracleConverted[0], oracleValid[0], oracleConverted[1], oracleValid[1]);
}

/// Hostile programs: each corpus program with instruction operands rewired at random (to other
/// values of any kind) translates, or fails with one line; what translates reads back.
TEST(DxilTranslateCorpus, SurvivesRewiredOperands) {
  std::optional<fs::path> corpus = sharedCorpus();
  if (!corpus || !fs::exists(*corpus / "dxil"))
    GTEST_SKIP() << "no DXIL corpus (../shared/corpus/dxil)";
  std::vector<fs::path> files = filesUnder(*corpus / "dxil", ".dxil");
  std::atomic<size_t> translated = 0, failed = 0;
  parallelFor(files.size(), [&](size_t i) {
    std::vector<uint8_t> bytes = readBytes(files[i]);
    Expected<dxil::Container> container = dxil::readContainer(bytes);
    const dxil::ContainerPart *part =
        container ? container->find(dxil::FourCC::of("DXIL")) : nullptr;
    Expected<dxil::ProgramHeader> header =
        part ? dxil::readProgramHeader(*part)
             : Expected<dxil::ProgramHeader>(makeError({}, "no DXIL part"));
    if (!header)
      return;
    Expected<dxil::LlvmModule> module = dxil::readBitcode(header->bitcode);
    if (!module || module->operands.empty())
      return;
    uint64_t state = 0x2545F4914F6CDD1Dull * (i + 1);
    auto next = [&] {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      return state;
    };
    for (int round = 0; round < 24; ++round) {
      dxil::LlvmModule m = *module;
      for (int k = 0; k < 3; ++k) {
        const uint64_t r = next();
        m.operands[r % m.operands.size()] = uint32_t(r >> 32) % uint32_t(m.values.size());
      }
      Expected<dxil::DxilModule> model = dxil::decodeDxil(m);
      if (!model)
        continue;
      Expected<std::vector<translate::TranslatedShader>> shaders =
          translate::translateDxil(*model, {});
      if (!shaders) {
        EXPECT_EQ(shaders.error().message.find('\n'), std::string::npos)
            << displayName(files[i]) << ": " << shaders.error().message;
        ++failed;
        continue;
      }
      for (translate::TranslatedShader &s : *shaders)
        EXPECT_TRUE(Module::fromWords(std::move(s.words)).ok()) << displayName(files[i]);
      ++translated;
    }
  });
  std::printf("rewired programs: %zu translated, %zu refused with one line\n", translated.load(),
              failed.load());
}

} // namespace
} // namespace spire::test
