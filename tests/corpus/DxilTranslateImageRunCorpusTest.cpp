// A translated shader that samples a texture, run on a Vulkan device with an AmberScript: the
// differential test against the oracle binds buffers only, so what sampling computes is checked
// here against values worked out from D3D's rules.
#include "CorpusSupport.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>

namespace spire::test {
namespace {

uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// sm_advanced__cs_dynamic_texture_offset (SM 6.7): each thread reads (u, v, lod, ox, oy) from a
// structured buffer (t0, space 1), samples the 2D texture t0 at level `lod` with the programmable
// offset (ox, oy) and writes the red channel to u0 (space 1). Vulkan takes a non-constant Offset
// on gathers only; spire switches over the offset's values. A 16x16 texture holding its texel
// index, nearest filtering, clamped addressing: a texel centre (x, y) moved by (ox, oy) reads
// clamp(y + oy) * 16 + clamp(x + ox). The offsets cover both ends of D3D's range [-8, 7].
TEST(DxilTranslateImageRun, ProgrammableTextureOffsetsSampleTheTexelD3DMeans) {
  std::optional<fs::path> corpus = sharedCorpus();
  const fs::path container =
      corpus ? *corpus / "dxil" / "sm_advanced__cs_dynamic_texture_offset.dxil" : fs::path();
  if (!corpus || !fs::exists(container))
    GTEST_SKIP() << "no DXIL corpus (../shared/corpus/dxil)";
  TempDir dir("spire-dxil-image-run");
  const fs::path spv = dir.dir() / "shader.spv";
  ToolResult translated =
      runSpire({"translate", "--dxil-to-spirv", container.string(), "-o", spv.string()});
  ASSERT_EQ(translated.exitCode, 0) << translated.err;

  const int offsets[][2] = {{0, 0},  {1, 0},  {-1, 0},  {0, 1}, {0, -1},  {3, -2},
                            {-8, 7}, {7, -8}, {-5, 5},  {2, 2}, {6, -3},  {-4, -4},
                            {5, 0},  {0, 6},  {-7, -1}, {4, 3}, {-8, -8}, {7, 7}};
  const int texels[][2] = {{8, 8},  {3, 4},  {10, 12}, {1, 1},   {14, 2}, {7, 9},
                           {8, 8},  {8, 8},  {9, 6},   {12, 13}, {2, 10}, {6, 6},
                           {0, 15}, {15, 0}, {11, 5},  {5, 11},  {3, 3},  {12, 12}};
  const size_t n = std::size(offsets);
  auto clamp = [](int v) { return v < 0 ? 0 : v > 15 ? 15 : v; };
  std::ostringstream data, expected;
  for (size_t i = 0; i < n; ++i) {
    const auto [x, y] = texels[i];
    const auto [ox, oy] = offsets[i];
    data << floatBits((float(x) + 0.5f) / 16) << ' ' << floatBits((float(y) + 0.5f) / 16) << " 0 "
         << uint32_t(ox) << ' ' << uint32_t(oy) << ' ';
    expected << clamp(y + oy) * 16 + clamp(x + ox) << ".0 ";
  }
  const fs::path script = dir.dir() / "sample.amber";
  std::ofstream(script) << "#!amber\n"
                        << "SHADER compute shader SPIRV-BIN FILE " << spv.string() << "\n"
                        << "IMAGE texture FORMAT R32_SFLOAT DIM_2D WIDTH 16 HEIGHT 16 "
                           "SERIES_FROM 0.0 INC_BY 1.0\n"
                        << "SAMPLER nearest MAG_FILTER nearest MIN_FILTER nearest "
                           "ADDRESS_MODE_U clamp_to_edge ADDRESS_MODE_V clamp_to_edge\n"
                        << "BUFFER input DATA_TYPE uint32 DATA " << data.str() << "END\n"
                        << "BUFFER output DATA_TYPE float SIZE " << n << " FILL -1.0\n"
                        << "PIPELINE compute sampling\n  ATTACH shader ENTRY_POINT main\n"
                        << "  BIND BUFFER texture AS sampled_image DESCRIPTOR_SET 0 BINDING 0\n"
                        << "  BIND SAMPLER nearest DESCRIPTOR_SET 0 BINDING 3000\n"
                        << "  BIND BUFFER input AS storage DESCRIPTOR_SET 1 BINDING 0\n"
                        << "  BIND BUFFER output AS storage DESCRIPTOR_SET 1 BINDING 1000\n"
                        << "END\nRUN sampling " << n << " 1 1\n"
                        << "EXPECT output IDX 0 EQ " << expected.str() << "\n";
  ToolResult run = runSpire({"run", script.string()});
  if (run.exitCode != 0 && run.out.find("FAIL") == std::string::npos)
    GTEST_SKIP() << "no Vulkan device: " << run.err << run.out;
  EXPECT_EQ(run.exitCode, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("PASS"), std::string::npos) << run.out << run.err;
}

} // namespace
} // namespace spire::test
