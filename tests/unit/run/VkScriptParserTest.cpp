// The VkScript parser: sections, [require], and the [test] commands compute scripts use, with
// amber's sizing of ssbo buffers and its errors.
#include "spire/run/Script.h"

#include <gtest/gtest.h>

#include <cstring>

namespace spire::run {
namespace {

Script parsed(std::string_view text) {
  auto s = parseVkScript(text);
  EXPECT_TRUE(s.ok()) << (s ? ""
                            : std::to_string(s.error().location.line) + ": " + s.error().message);
  return s ? std::move(*s) : Script{};
}

std::string error(std::string_view text) {
  auto s = parseVkScript(text);
  if (s)
    return "parsed";
  return std::to_string(s.error().location.line) + ": " + s.error().message;
}

constexpr std::string_view kShader = "[compute shader]\nvoid main() {}\n\n";

TEST(VkScriptParser, SectionsMakeOnePipeline) {
  Script s = parsed("# comment\n\n[require]\nVK_KHR_spirv_1_4\nshaderInt64\n"
                    "VariablePointerFeatures.variablePointers\nfence_timeout 300\n"
                    "VK_KHR_get_physical_device_properties2\n"
                    "[compute shader spirv]\n  OpNop\n[test]\ncompute 1 2 3\n");
  EXPECT_TRUE(s.vkScript);
  EXPECT_EQ(s.requirements.deviceExtensions, (std::vector<std::string>{"VK_KHR_spirv_1_4"}));
  EXPECT_EQ(s.requirements.instanceExtensions.size(), 1u);
  EXPECT_EQ(s.requirements.features.size(), 2u);
  EXPECT_EQ(s.fenceTimeoutMs, 300u);
  ASSERT_EQ(s.shaders.size(), 1u);
  EXPECT_EQ(s.shaders[0].format, ShaderFormat::SpirvAsm);
  EXPECT_EQ(s.shaders[0].source, "  OpNop\n");
  ASSERT_EQ(s.pipelines.size(), 1u);
  EXPECT_EQ(s.pipelines[0].name, "vk_pipeline");
  ASSERT_EQ(s.commands.size(), 1u);
  EXPECT_EQ(s.commands[0].groups[2], 3u);
  // The last compute shader section wins; GLSL has no suffix.
  Script two = parsed("[compute shader]\na\n[compute shader spirv hex]\n03 02\n[test]\n");
  EXPECT_EQ(two.pipelines[0].shader->shader, 1u);
  EXPECT_EQ(two.shaders[1].format, ShaderFormat::SpirvHex);
  EXPECT_EQ(two.shaders[0].format, ShaderFormat::Glsl);
  EXPECT_FALSE(parsed("[vertex shader passthrough]\n[test]\n").pipelines[0].compute);
}

TEST(VkScriptParser, SsboSizesInElementsOfTheFinalType) {
  Script s =
      parsed(std::string(kShader) + "[test]\nssbo 0:3 40\nssbo 1 subdata vec3 0 1 2 3 4 5 6\n"
                                    "ssbo 2 subdata float 16 1.5\n"
                                    "probe ssbo uint 0:3 0 == 0\n");
  ASSERT_EQ(s.buffers.size(), 3u);
  EXPECT_EQ(s.buffers[0].format->stride, 4u); // set by the probe
  ASSERT_EQ(s.commands.size(), 4u);
  EXPECT_EQ(s.commands[0].kind, Command::Kind::Resize);
  EXPECT_EQ(s.commands[0].count, 40u);
  EXPECT_EQ(s.commands[1].kind, Command::Kind::Write);
  EXPECT_EQ(s.commands[1].bytes.size(), 32u); // 1 2 3 _ 4 5 6 _
  EXPECT_EQ(s.commands[2].offset, 16u);
  EXPECT_EQ(s.commands[2].bytes.size(), 4u);
  EXPECT_EQ(s.pipelines[0].bindings.size(), 3u);
  EXPECT_EQ(s.pipelines[0].bindings[0].set, 0u);
  EXPECT_EQ(s.pipelines[0].bindings[0].binding, 3u);
  EXPECT_EQ(s.pipelines[0].bindings[1].binding, 1u);
}

TEST(VkScriptParser, UniformBuffersAreStd140AndPushConstantsShareOneBuffer) {
  Script s = parsed(std::string(kShader) +
                    "[test]\nuniform ubo 0:4 vec2 0 1 2 3 4\nuniform ubo 1 mat2x3 0 1 2 3 4 5 6\n"
                    "uniform float 4 7.0\nuniform float 0 6.0\n");
  EXPECT_EQ(s.buffers[0].format->stride, 8u); // vec2 is not padded
  EXPECT_EQ(s.buffers[1].format->stride, 32u);
  EXPECT_EQ(s.pipelines[0].bindings[0].kind, DescriptorKind::UniformBuffer);
  ASSERT_TRUE(s.pipelines[0].pushConstants);
  EXPECT_EQ(s.commands[2].buffer, *s.pipelines[0].pushConstants);
  EXPECT_EQ(s.commands[3].buffer, *s.pipelines[0].pushConstants);
  EXPECT_EQ(error(std::string(kShader) + "[test]\nuniform float 0 1.0\nuniform int 4 1\n"),
            "6: push constants must all have the same format");
}

TEST(VkScriptParser, ProbesAndTolerances) {
  Script s =
      parsed(std::string(kShader) + "[test]\nssbo 0 32\ntolerance 0.1% 0.1% 0.1% 0.1%\n"
                                    "probe ssbo float 0 4 ~= 1.0 2\nprobe ssbo float 0 0 >= -1\n"
                                    "compute entrypoint main\n");
  const Command &fuzzy = s.commands[1];
  EXPECT_EQ(fuzzy.comparator, Comparator::FuzzyEq);
  ASSERT_EQ(fuzzy.tolerances.size(), 4u);
  EXPECT_TRUE(fuzzy.tolerances[0].percent);
  EXPECT_EQ(fuzzy.tolerances[0].value, 0.1);
  EXPECT_EQ(s.commands[2].comparator, Comparator::Ge);
  EXPECT_TRUE(s.commands[2].tolerances.empty());
  EXPECT_EQ(s.pipelines[0].shader->entryPoint, "main");
}

TEST(VkScriptParser, Errors) {
  EXPECT_EQ(error("text before\n[test]\n"), "1: Invalid character");
  EXPECT_EQ(error("[shader of mystery]\n"), "1: unknown section: [shader of mystery]");
  EXPECT_EQ(error("[require]\nnot.a.feature\n"), "2: Unknown feature or extension: not.a.feature");
  EXPECT_EQ(error("[require]\nVK_A VK_B\n"), "2: Failed to parse requirements block: VK_B");
  std::string pre = std::string(kShader) + "[test]\n";
  EXPECT_EQ(error(pre + "probe ssbo uint 0 0 == 1\n"), "5: unable to find buffer at binding 0:0");
  EXPECT_EQ(error(pre + "ssbo 0 subdata uint 0 1\nprobe ssbo int 0 0 == 1\n"),
            "6: probe ssbo format does not match buffer format");
  EXPECT_EQ(error(pre + "ssbo 0 subdata uint 0 0x10\n"),
            "5: Invalid value provided to ssbo command: 0x10");
  EXPECT_EQ(error(pre + "ssbo 0 subdata uint 2 1\n"),
            "5: offset for SSBO must be a multiple of the data size");
  EXPECT_EQ(error(pre + "ssbo 0 subdata vec2 0 1 2 3\n"),
            "5: Invalid number of values provided to ssbo command");
  EXPECT_EQ(error(pre + "ssbo 0 subdata ufloat 0 1\n"), "5: Invalid type provided: ufloat");
  EXPECT_EQ(error(pre + "ssbo 0 32\nprobe ssbo uint 0 0 <> 1\n"), "6: Invalid comparator: <>");
  EXPECT_EQ(error(pre + "tolerance 1 2\n"), "5: tolerance takes one or four values");
  EXPECT_EQ(error(pre + "compute 1 1\n"), "5: Invalid value for compute command: end of file");
  EXPECT_EQ(error(pre + "draw rect 0 0 1 1\n"), "5: draw needs a graphics pipeline");
  EXPECT_EQ(error(pre + "frobnicate\n"), "5: Unknown command: frobnicate");
  EXPECT_EQ(error("[test]\ncompute 1 1 1\n"), "2: compute needs a [compute shader] section");
}

} // namespace
} // namespace spire::run
