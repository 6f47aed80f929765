// The built containers the DXIL container fuzz target's seeds start from: kept in
// fuzz/regressions/dxil_container/ (which FuzzRegressionTest replays with what the fuzzer found),
// and passed through the target here.
#include "../../../fuzz/DxilContainerTarget.h"
#include "DxilTestContainers.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace fs = std::filesystem;

namespace spire::dxil {
namespace {

/// The built containers the fuzzer's seeds are made of.
std::vector<std::pair<std::string, std::vector<uint8_t>>> builtContainers() {
  std::vector<test::TestPart> parts = test::everyPart();
  std::vector<test::TestPart> v1 = parts;
  v1[4].data = test::pixelPsvPart(36);
  v1[5].data = test::rootSignaturePart(1);
  v1[10].data = test::runtimeDataPart(44);
  std::vector<test::TestPart> v0 = parts;
  v0[4].data = test::pixelPsvPart(24);
  v0[5].data = test::rootSignaturePart(3);
  return {{"every_part.dxil", test::buildContainer(parts)},
          {"psv1_rts10_rdat1.dxil", test::buildContainer(v1)},
          {"psv0_rts12_unsigned.dxil", test::buildContainer(v0, false)}};
}

TEST(DxilContainerFuzzRegression, TheBuiltContainersAreTheKeptSeeds) {
  // SPIRE_WRITE_DXIL_SEEDS=<dir> writes them out (to refresh the kept seeds after the builders
  // change); otherwise each must be kept as it is built.
  const char *out = std::getenv("SPIRE_WRITE_DXIL_SEEDS");
  fs::path dir =
      out ? fs::path(out) : fs::path(SPIRE_SOURCE_DIR) / "fuzz" / "regressions" / "dxil_container";
  for (const auto &[name, bytes] : builtContainers()) {
    fuzz::dxilContainer(bytes.data(), bytes.size());
    if (out) {
      std::ofstream(dir / name, std::ios::binary)
          .write(reinterpret_cast<const char *>(bytes.data()), std::streamsize(bytes.size()));
      continue;
    }
    std::ifstream f(dir / name, std::ios::binary);
    std::vector<uint8_t> kept((std::istreambuf_iterator<char>(f)), {});
    EXPECT_EQ(kept, bytes) << name << " differs from the built container: refresh the seeds";
  }
}

} // namespace
} // namespace spire::dxil
