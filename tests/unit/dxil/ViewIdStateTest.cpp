// dx.viewIdState's words decoded per shader kind: streams, the view ID masks when their size says
// they are there, patch constant tables, and truncated, oversized or overlong arrays refused.
#include "spire/dxil/ViewIdState.h"

#include <gtest/gtest.h>

namespace spire::test {
namespace {

using namespace spire::dxil;
using Words = std::vector<uint32_t>;

std::string errorOf(const Expected<ViewIdState> &s) {
  return s ? std::string("decoded") : s.error().message;
}

TEST(ViewIdState, PixelShaderWithoutTheViewId) {
  // 3 inputs, 33 outputs (2 words a row): one row per input.
  Expected<ViewIdState> s = decodeViewIdState(Words{3, 33, 1, 0, 2, 0, 4, 1}, ShaderKind::Pixel);
  ASSERT_TRUE(s) << errorOf(s);
  EXPECT_EQ(s->inputScalars, 3u);
  EXPECT_EQ(s->streams, 1u);
  EXPECT_EQ(s->outputScalars[0], 33u);
  EXPECT_FALSE(s->usesViewId);
  EXPECT_EQ(s->inputsContributingToOutputs[0], (Words{1, 0, 2, 0, 4, 1}));
  EXPECT_FALSE(s->hasPatchConstOrPrim);
}

TEST(ViewIdState, TheViewIdMaskIsThereWhenTheSizeSaysSo) {
  // 2 inputs, 4 outputs: mask word 0b1000, then two rows.
  Expected<ViewIdState> s = decodeViewIdState(Words{2, 4, 8, 1, 2}, ShaderKind::Vertex);
  ASSERT_TRUE(s) << errorOf(s);
  EXPECT_TRUE(s->usesViewId);
  EXPECT_EQ(s->outputsDependentOnViewId[0], (Words{8}));
  EXPECT_EQ(s->inputsContributingToOutputs[0], (Words{1, 2}));
}

TEST(ViewIdState, GeometryShadersHaveFourStreams) {
  Expected<ViewIdState> s = decodeViewIdState(Words{1, 4, 15, 0, 2, 3, 0}, ShaderKind::Geometry);
  ASSERT_TRUE(s) << errorOf(s);
  EXPECT_EQ(s->streams, 4u);
  EXPECT_EQ(s->outputScalars, (std::array<uint32_t, 4>{4, 0, 2, 0}));
  EXPECT_EQ(s->inputsContributingToOutputs[0], (Words{15}));
  EXPECT_TRUE(s->inputsContributingToOutputs[1].empty());
  EXPECT_EQ(s->inputsContributingToOutputs[2], (Words{3}));
}

TEST(ViewIdState, PatchConstantTables) {
  // Hull: 1 input, 4 outputs, then 8 patch constants with the input's row.
  Expected<ViewIdState> hs = decodeViewIdState(Words{1, 4, 5, 8, 128}, ShaderKind::Hull);
  ASSERT_TRUE(hs) << errorOf(hs);
  EXPECT_TRUE(hs->hasPatchConstOrPrim);
  EXPECT_EQ(hs->patchConstOrPrimScalars, 8u);
  EXPECT_EQ(hs->inputsContributingToPatchConstOrPrim, (Words{128}));
  // Domain: 0 inputs, 4 outputs, 2 patch constant inputs with a row each over the outputs.
  Expected<ViewIdState> ds = decodeViewIdState(Words{0, 4, 2, 1, 6}, ShaderKind::Domain);
  ASSERT_TRUE(ds) << errorOf(ds);
  EXPECT_EQ(ds->patchConstInputsContributingToOutputs, (Words{1, 6}));
}

TEST(ViewIdState, BadArraysAreOneLineErrors) {
  EXPECT_EQ(errorOf(decodeViewIdState(Words{}, ShaderKind::Pixel)),
            "view ID state: ends at word 0, where a count belongs");
  EXPECT_EQ(errorOf(decodeViewIdState(Words{2, 4, 1}, ShaderKind::Pixel)),
            "view ID state: a table of 2 words at word 2, 1 left");
  EXPECT_EQ(errorOf(decodeViewIdState(Words{1, 4, 1, 7, 7, 7}, ShaderKind::Pixel)),
            "view ID state: 3 words after the tables");
  // Counts that would make tables of billions of words fail before allocating anything.
  EXPECT_EQ(errorOf(decodeViewIdState(Words{0xFFFFFFFFu, 0xFFFFFFFFu}, ShaderKind::Pixel)),
            "view ID state: a table of 576460752169205760 words at word 2, 0 left");
}

} // namespace
} // namespace spire::test
