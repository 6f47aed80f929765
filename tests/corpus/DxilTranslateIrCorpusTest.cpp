// The DXIL translator's modules through the structured IR, as `spire translate --emit mlir` and
// `spire opt` take them: every module translated from the corpus (default binding model) is
// deserialized, verified, printed as MLIR text, parsed back and serialized, and also run
// through canonicalize and serialized; spire val must accept both results for vulkan1.3. A
// module that does not make it fails unless tests/corpus/dxil-translate-ir-known-gaps.txt
// lists it ("<container>/<entry> <reason>"), and a listed module that makes it fails too.
#include "CorpusSupport.h"

#include "spire/dialect/Serialization.h"
#include "spire/dialect/Text.h"
#include "spire/dialect/Types.h"
#include "spire/dialect/Verifier.h"
#include "spire/module/Module.h"
#include "spire/transforms/Pass.h"
#include "spire/translate/DxilToSpirv.h"
#include "spire/val/Validator.h"

#include <gtest/gtest.h>

#include <map>
#include <mutex>

using namespace spire;
using namespace spire::test;

namespace {

/// The first step at which `words` does not survive the IR, or empty.
std::string throughTheIr(const std::vector<uint32_t> &words) {
  Expected<Module> m = Module::fromWords(words);
  if (!m)
    return "read: " + m.error().message;
  val::Options vo;
  vo.env = *val::parseEnvironment("vulkan1.3");
  auto valid = [&](const std::vector<uint32_t> &w) {
    val::Report r =
        val::validateBinary({reinterpret_cast<const uint8_t *>(w.data()), w.size() * 4}, vo);
    return r.valid() ? std::string() : r.problems.front().format();
  };
  for (bool canonicalize : {false, true}) {
    dialect::Context ctx;
    Expected<dialect::OwningOp> op = dialect::deserialize(ctx, *m);
    if (!op)
      return "deserialize: " + op.error().message;
    if (Status s = dialect::verify(**op); !s)
      return "verify: " + s.error().message;
    const char *step = canonicalize ? "canonicalize" : "print and parse";
    if (canonicalize) {
      transforms::PassManager pm;
      pm.add(transforms::createCanonicalizePass());
      if (Status s = pm.run(**op, ctx); !s)
        return std::string(step) + ": " + s.error().message;
    } else {
      Expected<dialect::OwningOp> parsed = dialect::parse(ctx, dialect::toString(**op));
      if (!parsed)
        return std::string(step) + ": " + parsed.error().message;
      op = std::move(parsed);
    }
    Expected<std::vector<uint32_t>> out = dialect::serialize(**op);
    if (!out)
      return std::string(step) + ", serialize: " + out.error().message;
    if (std::string why = valid(*out); !why.empty())
      return std::string(step) + ", spire val: " + why;
  }
  return {};
}

} // namespace

TEST(DxilTranslateIrCorpus, TranslatedModulesGoThroughTheStructuredIr) {
  std::optional<fs::path> corpus = sharedCorpus();
  if (!corpus || !fs::exists(*corpus / "dxil"))
    GTEST_SKIP() << "no DXIL corpus (../shared/corpus/dxil)";
  std::vector<fs::path> files = filesUnder(*corpus / "dxil", ".dxil");
  ASSERT_FALSE(files.empty());
  const std::map<std::string, std::string> known =
      readReasonList("dxil-translate-ir-known-gaps.txt");
  std::mutex mu;
  std::map<std::string, std::string> failures; // container/entry -> why
  size_t modules = 0;
  parallelFor(files.size(), [&](size_t i) {
    Expected<std::vector<translate::TranslatedShader>> shaders =
        translate::translateDxilBytes(readBytes(files[i]), {});
    if (!shaders)
      return; // DxilTranslateCorpus reports translation failures
    for (const translate::TranslatedShader &s : *shaders) {
      std::string why = throughTheIr(s.words);
      std::lock_guard<std::mutex> lock(mu);
      ++modules;
      if (!why.empty())
        failures[files[i].stem().string() + "/" + s.entry] = why;
    }
  });
  for (const auto &[name, why] : failures)
    if (!known.count(name))
      ADD_FAILURE() << name << ": " << why;
  for (const auto &[name, reason] : known)
    if (!failures.count(name))
      ADD_FAILURE() << name
                    << " goes through the IR now: remove it from dxil-translate-ir-known-gaps.txt";
  std::printf("translated DXIL through the structured IR: %zu modules, %zu print, parse, "
              "canonicalize and serialize to modules spire val accepts, %zu listed gaps\n",
              modules, modules - failures.size(), known.size());
}
