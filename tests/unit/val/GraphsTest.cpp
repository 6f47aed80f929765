// SPV_ARM_graph in the layout rules (graph constants among the module-level constants, graph
// entry points and graphs after the functions) and the graph entry point a module declaring
// GraphARM needs, as spirv-val 2026.4 has them.
#include "ValTestUtil.h"

namespace spire::val {
namespace {

using test::validateText;

constexpr std::string_view kHeader = R"(
OpCapability Shader
OpCapability Int8
OpCapability TensorsARM
OpCapability GraphARM
OpExtension "SPV_ARM_tensors"
OpExtension "SPV_ARM_graph"
OpMemoryModel Logical GLSL450
)";

// One graph of one input, whose output is a graph constant, entered by %g.
constexpr std::string_view kGlobals = R"(
%uchar = OpTypeInt 8 0
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_4 = OpConstant %uint 4
%arr = OpTypeArray %uint %uint_1
%shape = OpConstantComposite %arr %uint_4
%t = OpTypeTensorARM %uchar %uint_1 %shape
%ptr = OpTypePointer UniformConstant %t
%in = OpVariable %ptr UniformConstant
%out = OpVariable %ptr UniformConstant
%gt = OpTypeGraphARM 1 %t %t
%c = OpGraphConstantARM %t 7
)";

constexpr std::string_view kGraph = R"(
%g = OpGraphARM %gt
%x = OpGraphInputARM %t %uint_0
OpGraphSetOutputARM %c %uint_0
OpGraphEndARM
)";

std::string module(std::string_view entry, std::string_view graph = kGraph) {
  return std::string(kHeader) + R"(
OpDecorate %in DescriptorSet 0
OpDecorate %in Binding 0
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 1
)" + std::string(kGlobals) +
         std::string(entry) + std::string(graph);
}

TEST(Graphs, GraphAfterTheGlobalsIsValid) {
  EXPECT_VALID(validateText(module("OpGraphEntryPointARM %g \"g\" %in %out\n")));
}

TEST(Graphs, GraphArmNeedsAGraphEntryPoint) {
  EXPECT_ERROR(validateText(module("")),
               "declares the GraphARM capability but has no OpGraphEntryPointARM");
}

TEST(Graphs, TheEntryPointRuleIsNoStructuralOne) {
  // The graph entry point is a rule of modes, not of the structure a reader of the module needs
  // (spire translate warns of it); a graph that is not closed is structure.
  Options structure;
  structure.structureFirst = true;
  Report missing = validateText(module(""), "spv1.6", structure);
  EXPECT_FALSE(missing.structureBroken);
  EXPECT_ERROR(missing, "declares the GraphARM capability but has no OpGraphEntryPointARM");
  Report r = validateText(module("OpGraphEntryPointARM %g \"g\" %in %out\n", R"(
%g = OpGraphARM %gt
%x = OpGraphInputARM %t %uint_0
OpGraphSetOutputARM %c %uint_0
)"),
                          "spv1.6", structure);
  EXPECT_FALSE(r.valid());
  EXPECT_TRUE(r.structureBroken);
}

TEST(Graphs, GraphInstructionsOutsideAGraph) {
  Report r = validateText(module("OpGraphEntryPointARM %g \"g\" %in %out\n", R"(
%g = OpGraphARM %gt
%x = OpGraphInputARM %t %uint_0
OpGraphSetOutputARM %c %uint_0
OpGraphEndARM
OpGraphEndARM
)"));
  EXPECT_ERROR(r, "OpGraphEndARM outside a graph");
}

TEST(Graphs, AGraphIsClosed) {
  Report r = validateText(module("OpGraphEntryPointARM %g \"g\" %in %out\n", R"(
%g = OpGraphARM %gt
%x = OpGraphInputARM %t %uint_0
OpGraphSetOutputARM %c %uint_0
)"));
  EXPECT_ERROR(r, "missing OpGraphEndARM");
}

TEST(Graphs, GraphConstantAfterTheGraphsIsOutOfPlace) {
  Report r = validateText(module("OpGraphEntryPointARM %g \"g\" %in %out\n", std::string(kGraph) +
                                                                                 R"(
%c2 = OpGraphConstantARM %t 8
)"));
  EXPECT_ERROR(r, "OpGraphConstantARM cannot appear among the functions");
}

} // namespace
} // namespace spire::val
