#include "spire/module/Decorations.h"
#include "spire/asm/Assembler.h"

#include <gtest/gtest.h>

namespace spire {
namespace {

Module assembled(const char *text) {
  Expected<std::vector<uint32_t>> words = assemble(text, {.preserveNumericIds = true});
  EXPECT_TRUE(words) << words.error().format();
  Expected<Module> m = Module::fromWords(std::move(*words));
  EXPECT_TRUE(m) << m.error().format();
  return std::move(*m);
}

TEST(DecorationIndex, ExpandsGroupsInModuleOrder) {
  Module m = assembled(R"(
OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpDecorate %10 Restrict
OpDecorate %20 Volatile
OpMemberDecorate %20 0 Offset 4
%20 = OpDecorationGroup
OpGroupDecorate %20 %10 %11
OpGroupMemberDecorate %20 %12 1
OpDecorate %10 Coherent
OpMemberDecorate %12 0 Offset 8
%1 = OpTypeInt 32 0
%12 = OpTypeStruct %1 %1
%2 = OpTypePointer Private %1
%10 = OpVariable %2 Private
%11 = OpVariable %2 Private
)");
  DecorationIndex index(m);
  using grammar::Decoration;
  constexpr uint32_t kRestrict = uint32_t(Decoration::Restrict),
                     kVolatile = uint32_t(Decoration::Volatile),
                     kCoherent = uint32_t(Decoration::Coherent),
                     kOffset = uint32_t(Decoration::Offset);
  auto kinds = [&](uint32_t id) {
    std::vector<std::pair<uint32_t, uint32_t>> out; // (decoration, member)
    for (const AppliedDecoration &d : index.of(id))
      out.emplace_back(index.decoration(d), d.member);
    return out;
  };
  // %10: its own Restrict, the group's Volatile where OpGroupDecorate applies it (not the
  // group's member decoration), then its own Coherent.
  EXPECT_EQ(kinds(10), (std::vector<std::pair<uint32_t, uint32_t>>{
                           {kRestrict, kNoIndex}, {kVolatile, kNoIndex}, {kCoherent, kNoIndex}}));
  EXPECT_EQ(kinds(11), (std::vector<std::pair<uint32_t, uint32_t>>{{kVolatile, kNoIndex}}));
  // %12: the group's Volatile on member 1, then its own Offset 8 on member 0.
  EXPECT_EQ(kinds(12), (std::vector<std::pair<uint32_t, uint32_t>>{{kVolatile, 1}, {kOffset, 0}}));
  ASSERT_EQ(index.of(12).size(), 2u);
  EXPECT_NE(index.of(12)[0].group, kNoIndex);
  EXPECT_EQ(index.parameters(index.of(12)[1]).size(), 1u);
  EXPECT_EQ(index.parameters(index.of(12)[1])[0], 8u);
  EXPECT_TRUE(index.isGroup(20));
  EXPECT_FALSE(index.isGroup(10));
  EXPECT_TRUE(index.of(1).empty());
  EXPECT_EQ(std::vector<uint32_t>(index.ids().begin(), index.ids().end()),
            (std::vector<uint32_t>{10, 11, 12, 20}));
}

// The validator reads decorations through the index, and a module that puts one out of its
// section (after the types) still has it apply: the layout rule reports the misplacement.
TEST(DecorationIndex, TakesDecorationsOutOfTheirSection) {
  Module m = assembled(R"(
OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%1 = OpTypeInt 32 0
%2 = OpTypePointer Private %1
%10 = OpVariable %2 Private
OpDecorate %10 Volatile
)");
  DecorationIndex index(m);
  ASSERT_EQ(index.of(10).size(), 1u);
  EXPECT_EQ(index.decoration(index.of(10)[0]), uint32_t(grammar::Decoration::Volatile));
}

} // namespace
} // namespace spire
