// The AmberScript parser: every command compute scripts use, amber's quirks, and each error
// with its line.
#include "spire/run/Script.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <map>

namespace spire::run {
namespace {

std::map<std::string, std::string> gFiles;

Expected<Script> parseText(std::string_view text) {
  FileLoader loader = [](std::string_view name) -> Expected<std::vector<uint8_t>> {
    auto it = gFiles.find(std::string(name));
    if (it == gFiles.end())
      return makeError({}, "no file " + std::string(name));
    return std::vector<uint8_t>(it->second.begin(), it->second.end());
  };
  return parseScript(text, loader);
}

Script parsed(std::string_view text) {
  auto s = parseText(text);
  EXPECT_TRUE(s.ok()) << (s ? ""
                            : std::to_string(s.error().location.line) + ": " + s.error().message);
  return s ? std::move(*s) : Script{};
}

/// "<line>: <message>" of a script that must not parse.
std::string error(std::string_view text) {
  auto s = parseText(text);
  if (s)
    return "parsed";
  return std::to_string(s.error().location.line) + ": " + s.error().message;
}

template <class T> std::vector<T> as(const ScriptBuffer &b) {
  std::vector<T> v(b.bytes.size() / sizeof(T));
  if (!v.empty())
    std::memcpy(v.data(), b.bytes.data(), v.size() * sizeof(T));
  return v;
}

constexpr std::string_view kShader = "#!amber\nSHADER compute s GLSL\nvoid main() {}\nEND\n";

TEST(AmberScriptParser, ShadersKeepTheirBodyAndOptions) {
  Script s = parsed("#!amber\nSHADER compute a SPIRV-ASM TARGET_ENV spv1.3\n  OpNop\nEND # c\n"
                    "SHADER compute b GLSL TARGET_ENV \"vulkan1.1\"\nx\nEND\n"
                    "SHADER compute c SPIRV-HEX\n03 02 23 07\nEND\n");
  ASSERT_EQ(s.shaders.size(), 3u);
  EXPECT_EQ(s.shaders[0].source, "  OpNop\n");
  EXPECT_EQ(s.shaders[0].format, ShaderFormat::SpirvAsm);
  EXPECT_EQ(s.shaders[0].targetEnv, "spv1.3");
  EXPECT_EQ(s.shaders[1].targetEnv, "vulkan1.1");
  EXPECT_EQ(s.shaders[2].format, ShaderFormat::SpirvHex);
  EXPECT_FALSE(s.vkScript);
  gFiles["f.comp"] = "void main() {}";
  Script f = parsed("#!amber\nSHADER compute s GLSL FILE f.comp\n");
  EXPECT_EQ(f.shaders[0].source, "void main() {}");
  Script v = parsed("#!amber\nVIRTUAL_FILE v.comp\nbody\nEND\nSHADER compute s GLSL VIRTUAL_FILE "
                    "v.comp\nSHADER compute t OPENCL-C\nk\nEND\n");
  EXPECT_EQ(v.shaders[0].source, "body\n");
  EXPECT_EQ(v.shaders[1].format, ShaderFormat::OpenClC);
}

TEST(AmberScriptParser, AShaderBodyEndsAtTheFirstEnd) {
  // "BACKEND" ends the body; the rest is read as commands.
  EXPECT_EQ(error("#!amber\nSHADER compute s GLSL\n// BACKEND\nEND\n"), "4: unknown token: END");
  EXPECT_EQ(error("#!amber\nSHADER compute s GLSL\n#define X_ENDIF\nEND\n"),
            "3: SHADER missing END command");
  EXPECT_EQ(error("#!amber\nSHADER compute s GLSL\nEND\n"), "3: SHADER must not be empty");
  EXPECT_EQ(error("#!amber\nSHADER compute s GLSL\nvoid main() {}\n"),
            "4: SHADER missing END command");
  EXPECT_EQ(error("#!amber\nSHADER compute s GLSL extra\nx\nEND\n"),
            "2: extra parameters after SHADER: extra");
  EXPECT_EQ(error("#!amber\nSHADER kernel s GLSL\nx\nEND\n"), "2: unknown shader type: kernel");
  EXPECT_EQ(error("#!amber\nSHADER compute s WGSL\nx\nEND\n"), "2: unknown shader format: WGSL");
  EXPECT_EQ(error("#!amber\nSHADER compute s SPIRV-BIN\nx\nEND\n"),
            "2: SPIRV-BIN shaders are read from a FILE");
  EXPECT_EQ(error("#!amber\nSHADER compute s GLSL FILE missing.comp\n"),
            "2: cannot read shader file missing.comp: no file missing.comp");
  EXPECT_EQ(error(std::string(kShader) + "SHADER compute s GLSL\ny\nEND\n"),
            "5: duplicate shader name: s");
}

TEST(AmberScriptParser, BufferInitializers) {
  Script s = parsed("#!amber\n"
                    "BUFFER a DATA_TYPE uint32 SIZE 3 FILL 7\n"
                    "BUFFER b DATA_TYPE int32 SIZE 4 SERIES_FROM 10 INC_BY -2\n"
                    "BUFFER c DATA_TYPE float SIZE 2 SERIES_FROM 1.0 INC_BY 0.5\n"
                    "BUFFER d DATA_TYPE vec3<float> DATA 1 2 3\n4 5 6 END\n"
                    "BUFFER e DATA_TYPE int8 DATA 200 -1 0x7f END\n"
                    "BUFFER f DATA_TYPE float SIZE 2 FILL 1\n"    // integer literal: 0.0
                    "BUFFER g DATA_TYPE uint32 SIZE 2 FILL 1.5\n" // float literal: 0
                    "BUFFER h DATA_TYPE R32G32B32A32_SFLOAT SIZE 1 FILL 1.5\n"
                    "BUFFER i DATA_TYPE R32_SFLOAT SIZE 1 FILL 1.5\n"
                    "BUFFER j DATA_TYPE float DATA 0x3f800000 nan -0.0 END\n"
                    "BUFFER k DATA_TYPE uint32 STD140 SIZE 1 FILL -1\n"
                    "BUFFER l DATA_TYPE float WIDTH 2 HEIGHT 3\n"
                    "BUFFER m FORMAT R8G8B8A8_UNORM\n");
  ASSERT_EQ(s.buffers.size(), 13u);
  EXPECT_EQ(as<uint32_t>(s.buffers[0]), (std::vector<uint32_t>{7, 7, 7}));
  EXPECT_EQ(as<int32_t>(s.buffers[1]), (std::vector<int32_t>{10, 8, 6, 4}));
  EXPECT_EQ(as<float>(s.buffers[2]), (std::vector<float>{1.0f, 1.5f}));
  EXPECT_EQ(as<float>(s.buffers[3]), (std::vector<float>{1, 2, 3, 0, 4, 5, 6, 0}));
  EXPECT_EQ(as<int8_t>(s.buffers[4]), (std::vector<int8_t>{-56, -1, 127}));
  EXPECT_EQ(as<float>(s.buffers[5]), (std::vector<float>{0, 0}));
  EXPECT_EQ(as<uint32_t>(s.buffers[6]), (std::vector<uint32_t>{0, 0}));
  EXPECT_EQ(as<float>(s.buffers[7]), (std::vector<float>{0, 0, 0, 0}));
  EXPECT_EQ(as<float>(s.buffers[8]), (std::vector<float>{1.5f}));
  std::vector<float> j = as<float>(s.buffers[9]);
  EXPECT_EQ(j[0], 1065353216.0f);
  EXPECT_TRUE(std::isnan(j[1]));
  EXPECT_TRUE(std::signbit(j[2]));
  EXPECT_EQ(as<uint32_t>(s.buffers[10]), (std::vector<uint32_t>{0xFFFFFFFFu}));
  EXPECT_EQ(s.buffers[10].format->layout, Layout::Std140);
  EXPECT_EQ(s.buffers[11].bytes.size(), 24u);
  EXPECT_EQ(s.buffers[11].width, 2u);
  EXPECT_EQ(s.buffers[12].bytes.size(), 0u);
}

TEST(AmberScriptParser, BufferFilesAsTextOrBinary) {
  gFiles["in.txt"] = "1 2 # c\n3 0x10\n";
  gFiles["in.bin"] = std::string("\x01\x00\x00\x00\x02\x00\x00\x00\x03", 9);
  Script s = parsed("#!amber\nBUFFER a DATA_TYPE uint32 SIZE 9 FILE TEXT in.txt\n"
                    "BUFFER b DATA_TYPE uint32 SIZE 1 FILE BINARY in.bin\n"
                    "BUFFER c DATA_TYPE uint32 SIZE 1 FILE in.bin\n");
  EXPECT_EQ(as<uint32_t>(s.buffers[0]), (std::vector<uint32_t>{1, 2, 3, 16}));
  EXPECT_EQ(as<uint32_t>(s.buffers[1]), (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(s.buffers[2].bytes.size(), 8u);
  EXPECT_EQ(error("#!amber\nBUFFER a DATA_TYPE uint32 SIZE 1 FILE PNG x.png\n"),
            "2: PNG buffer files are not supported by spire run");
  EXPECT_EQ(error("#!amber\nBUFFER a DATA_TYPE uint32 SIZE 1 FILE TEXT none.txt\n"),
            "2: cannot read buffer file none.txt: no file none.txt");
}

TEST(AmberScriptParser, BufferErrors) {
  EXPECT_EQ(error("#!amber\nBUFFER a DATA_TYPE uint32 SIZE 4\n"),
            "2: BUFFER invalid initializer: end of line");
  EXPECT_EQ(error("#!amber\nBUFFER a DATA_TYPE vec2<float> DATA 1 2 3 END\n"),
            "2: Mismatched number of items in buffer");
  EXPECT_EQ(error("#!amber\nBUFFER a DATA_TYPE uint32 DATA 1.5 END\n"),
            "2: invalid BUFFER data value: 1.5");
  EXPECT_EQ(error("#!amber\nBUFFER a DATA_TYPE uint32 DATA 1 2\n"),
            "3: missing BUFFER END command");
  EXPECT_EQ(error("#!amber\nBUFFER a DATA_TYPE uint32 DATA 1 END 2\n"),
            "2: extra parameters after BUFFER data END: 2");
  EXPECT_EQ(error("#!amber\nBUFFER a DATA_TYPE vec2<float> SIZE 2 SERIES_FROM 1.0 INC_BY 1.0\n"),
            "2: SERIES_FROM must not be multi-row/column types");
  EXPECT_EQ(error("#!amber\nBUFFER a DATA_TYPE uint32 SIZE 2 FILL 0x1\n"),
            "2: expected a number after FILL, got 0x1");
  EXPECT_EQ(error("#!amber\nBUFFER a DATA_TYPE uint31 SIZE 2 FILL 1\n"),
            "2: invalid data type: uint31");
  EXPECT_EQ(error("#!amber\nBUFFER a DATA_TYPE uint32 SIZE 1 FILL 1\nBUFFER a DATA_TYPE "
                  "uint32 SIZE 1 FILL 1\n"),
            "3: duplicate buffer name: a");
  EXPECT_EQ(error("#!amber\nBUFFER a FORMAT R8_NOPE\n"), "2: invalid BUFFER FORMAT: R8_NOPE");
  EXPECT_EQ(error("#!amber\nBUFFER a DATA_TYPE uint32 SIZE 1 FILL 1 extra\n"),
            "2: extra parameters after FILL: extra");
}

TEST(AmberScriptParser, ImagesAndSamplers) {
  Script s =
      parsed("#!amber\n"
             "IMAGE i FORMAT R8G8B8A8_UNORM DIM_2D WIDTH 4 HEIGHT 2 FILL 0\n"
             "IMAGE j DATA_TYPE float DIM_3D \\\n WIDTH 2 HEIGHT 1 DEPTH 2 DATA 1 2 3 4 END\n"
             "IMAGE k FORMAT R32_UINT DIM_2D WIDTH 8 HEIGHT 8 SAMPLES 4\n"
             "SAMPLER smp MAG_FILTER linear ADDRESS_MODE_U clamp_to_edge BORDER_COLOR "
             "int_opaque_white MIN_LOD 0.5 MAX_LOD 2.0 COMPARE on COMPARE_OP less\n"
             "SAMPLER u UNNORMALIZED_COORDS\n");
  EXPECT_EQ(s.buffers[0].bytes.size(), 32u);
  EXPECT_EQ(s.buffers[0].dim, ImageDim::Dim2D);
  EXPECT_EQ(s.buffers[1].dim, ImageDim::Dim3D);
  EXPECT_EQ(as<float>(s.buffers[1]), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(s.buffers[2].samples, 4u);
  EXPECT_EQ(s.buffers[2].bytes.size(), 256u);
  EXPECT_TRUE(s.samplers[0].magLinear);
  EXPECT_EQ(s.samplers[0].addressU, 2u);
  EXPECT_EQ(s.samplers[0].borderColor, 5u);
  EXPECT_EQ(s.samplers[0].minLod, 0.5f);
  EXPECT_TRUE(s.samplers[0].compare);
  EXPECT_EQ(s.samplers[0].compareOp, 1u);
  EXPECT_FALSE(s.samplers[1].normalized);
  EXPECT_EQ(s.samplers[1].maxLod, 0.0f);
  EXPECT_EQ(error("#!amber\nIMAGE i FORMAT R8G8B8A8_UNORM DIM_2D WIDTH 4\n"),
            "2: IMAGE needs a HEIGHT");
  EXPECT_EQ(error("#!amber\nIMAGE i FORMAT R32_UINT DIM_2D WIDTH 2 HEIGHT 2 SAMPLES 3\n"),
            "2: invalid sample count: 3");
  EXPECT_EQ(error("#!amber\nIMAGE i FORMAT R32_UINT DIM_2D WIDTH 2 HEIGHT 1 DATA 1 END\n"),
            "2: IMAGE data has 1 elements, the image 2");
  EXPECT_EQ(error("#!amber\nSAMPLER s MIN_LOD 2.0 MAX_LOD 1.0\n"),
            "2: max LOD must be greater than or equal to min LOD");
  EXPECT_EQ(error("#!amber\nSAMPLER s ADDRESS_MODE_U sideways\n"),
            "2: invalid address mode: sideways");
}

TEST(AmberScriptParser, PipelinesAttachBindAndSpecialize) {
  Script s =
      parsed(std::string(kShader) +
             "BUFFER a DATA_TYPE uint32 SIZE 64 FILL 0\n"
             "BUFFER b DATA_TYPE uint32 SIZE 1 FILL 0\n"
             "BUFFER t DATA_TYPE uint32 SIZE 4 FILL 0\n"
             "IMAGE img FORMAT R32_UINT DIM_2D WIDTH 2 HEIGHT 2\n"
             "SAMPLER smp\n"
             "DEVICE_FEATURE SubgroupSizeControl.computeFullSubgroups\n"
             "DEVICE_FEATURE SubgroupSizeControl.subgroupSizeControl\n"
             "PIPELINE compute p\n"
             "  ATTACH s ENTRY_POINT go \\\n    SPECIALIZE 1 AS uint32 7 SPECIALIZE 0 AS "
             "float 1.5\n"
             "  SUBGROUP s\n    FULLY_POPULATED on\n    REQUIRED_SIZE MAX\n  END\n"
             "  BIND BUFFER a AS storage DESCRIPTOR_SET 1 BINDING 2\n"
             "  BIND BUFFER_ARRAY a a AS storage_dynamic DESCRIPTOR_SET 0 BINDING 0 OFFSET 0 "
             "256 DESCRIPTOR_OFFSET 0 256\n"
             "  BIND BUFFER t AS uniform_texel_buffer DESCRIPTOR_SET 0 BINDING 3\n"
             "  BIND BUFFER img AS combined_image_sampler SAMPLER smp DESCRIPTOR_SET 0 "
             "BINDING 4\n"
             "  BIND SAMPLER smp DESCRIPTOR_SET 0 BINDING 5\n"
             "  BIND BUFFER b AS push_constant\n"
             "  BIND BUFFER b AS uniform DESCRIPTOR_SET 1 BINDING 2\n"
             "END\n"
             "DERIVE_PIPELINE q FROM p\nEND\n");
  ASSERT_EQ(s.pipelines.size(), 2u);
  const ScriptPipeline &p = s.pipelines[0];
  ASSERT_TRUE(p.shader);
  EXPECT_EQ(p.shader->entryPoint, "go");
  EXPECT_EQ(p.shader->specialization.at(1), 7u);
  EXPECT_EQ(p.shader->specialization.at(0), std::bit_cast<uint32_t>(1.5f));
  EXPECT_TRUE(p.shader->fullSubgroups);
  EXPECT_EQ(p.shader->requiredSubgroupSize, kSubgroupSizeMax);
  ASSERT_EQ(p.bindings.size(), 5u); // the uniform replaced the storage binding at 1:2
  EXPECT_EQ(p.bindings[0].kind, DescriptorKind::UniformBuffer);
  EXPECT_EQ(p.bindings[1].buffers.size(), 2u);
  EXPECT_EQ(p.bindings[1].dynamicOffsets, (std::vector<uint32_t>{0, 256}));
  EXPECT_EQ(p.bindings[1].descriptorOffsets, (std::vector<uint32_t>{0, 256}));
  EXPECT_EQ(p.bindings[3].samplers.size(), 1u);
  EXPECT_EQ(p.bindings[4].kind, DescriptorKind::Sampler);
  EXPECT_EQ(p.pushConstants, std::optional<uint32_t>(1));
  // A derived pipeline keeps the shader and buffers, not push constants or samplers.
  const ScriptPipeline &q = s.pipelines[1];
  EXPECT_EQ(q.shader->entryPoint, "go");
  EXPECT_EQ(q.bindings.size(), 4u);
  EXPECT_FALSE(q.pushConstants);
}

TEST(AmberScriptParser, PipelineErrors) {
  std::string pre = std::string(kShader) + "BUFFER a DATA_TYPE uint32 SIZE 4 FILL 0\n";
  EXPECT_EQ(error(pre + "PIPELINE compute p\n  ATTACH nope\nEND\n"), "7: unknown shader: nope");
  EXPECT_EQ(error(pre + "PIPELINE compute p\n  ATTACH s\n  SUBGROUP s\n  FULLY_POPULATED on\n  "
                        "END\nEND\n"),
            "9: FULLY_POPULATED requires DEVICE_FEATURE SubgroupSizeControl.computeFullSubgroups");
  EXPECT_EQ(error(pre + "PIPELINE compute p\n  ATTACH s SPECIALIZE 1 AS int8 1\nEND\n"),
            "7: only 32-bit types are allowed for SPECIALIZE");
  EXPECT_EQ(error(pre + "PIPELINE compute p\n  ATTACH s ENTRY_POINT a ENTRY_POINT b\nEND\n"),
            "7: ENTRY_POINT given twice");
  EXPECT_EQ(error(pre + "PIPELINE compute p\n  BIND BUFFER a AS storage_dynamic DESCRIPTOR_SET 0 "
                        "BINDING 0\nEND\n"),
            "7: a dynamic buffer binding needs an OFFSET");
  EXPECT_EQ(error(pre + "PIPELINE compute p\n  BIND BUFFER a AS storage_image DESCRIPTOR_SET 0 "
                        "BINDING 0\nEND\n"),
            "7: buffer a is not an image");
  EXPECT_EQ(error(pre + "PIPELINE compute p\n  BIND BUFFER a AS color LOCATION 0\nEND\n"),
            "7: unknown buffer type: color");
  EXPECT_EQ(error(pre + "PIPELINE compute p\n  BIND BUFFER_ARRAY a AS storage DESCRIPTOR_SET 0 "
                        "BINDING 0\nEND\n"),
            "7: BUFFER_ARRAY needs at least two names");
  EXPECT_EQ(error(pre + "PIPELINE compute p\n  ATTACH s\n"), "8: PIPELINE missing END command");
  EXPECT_EQ(error(pre + "PIPELINE compute p\n  FRAMEBUFFER_SIZE 2 2\nEND\n"),
            "7: FRAMEBUFFER_SIZE is not a command of a compute pipeline");
  // A graphics pipeline parses (the runner skips its script); its commands do not.
  EXPECT_FALSE(parsed(pre + "PIPELINE graphics p\n  ATTACH s\nEND\n").pipelines[0].compute);
  EXPECT_EQ(error(pre + "PIPELINE graphics p\n  FRAMEBUFFER_SIZE 2 2\nEND\n"),
            "7: graphics and ray-tracing pipelines are not supported by spire run");
  EXPECT_EQ(error(pre + "PIPELINE compute p\n  ATTACH s\n  SHADER_OPTIMIZATION s\n  "
                        "--inline-entry-points-exhaustive\n  END\nEND\n"),
            "8: SHADER_OPTIMIZATION needs spirv-opt, which spire run does not use");
  EXPECT_EQ(error(pre + "DERIVE_PIPELINE q FROM p\nEND\n"), "6: unknown pipeline: p");
}

TEST(AmberScriptParser, RunRepeatExpectAndCopy) {
  Script s = parsed(std::string(kShader) +
                    "BUFFER a DATA_TYPE float SIZE 4 FILL 0.0\n"
                    "BUFFER b DATA_TYPE float SIZE 4 FILL 0.0\n"
                    "IMAGE img FORMAT R8G8B8A8_UNORM DIM_2D WIDTH 2 HEIGHT 2\n"
                    "PIPELINE compute p\n  ATTACH s\n  BIND BUFFER a AS storage DESCRIPTOR_SET "
                    "0 BINDING 0\nEND\n"
                    "RUN TIMED_EXECUTION p 4 2 1\n"
                    "REPEAT 3\n  RUN p 1 1 1\n  EXPECT a IDX 0 EQ 0\nEND\n"
                    "EXPECT a IDX 4 TOLERANCE 1% EQ 1.0 2\n"
                    "EXPECT a IDX 0 TOLERANCE .5 0.1 EQ 1\n"
                    "EXPECT a IDX 8 LT 3.5\n"
                    "EXPECT a EQ_BUFFER b\n"
                    "EXPECT img IDX 0 0 SIZE 2 2 EQ_RGBA 0 255 0 255 TOLERANCE 2\n"
                    "COPY a TO b\n"
                    "SET ENGINE_DATA fence_timeout_ms 500\n"
                    "DEVICE_EXTENSION VK_KHR_16bit_storage\n"
                    "INSTANCE_EXTENSION VK_KHR_get_physical_device_properties2\n"
                    "DEVICE_PROPERTY FloatControlsProperties.shaderDenormPreserveFloat16\n");
  ASSERT_EQ(s.commands.size(), 8u);
  EXPECT_EQ(s.commands[0].kind, Command::Kind::Run);
  EXPECT_TRUE(s.commands[0].timed);
  EXPECT_EQ(s.commands[0].groups[0], 4u);
  EXPECT_EQ(s.commands[1].kind, Command::Kind::Repeat);
  EXPECT_EQ(s.commands[1].count, 3u);
  EXPECT_EQ(s.commands[1].body.size(), 2u);
  const Command &fuzzy = s.commands[2];
  EXPECT_EQ(fuzzy.comparator, Comparator::FuzzyEq);
  ASSERT_EQ(fuzzy.tolerances.size(), 1u);
  EXPECT_TRUE(fuzzy.tolerances[0].percent);
  EXPECT_EQ(fuzzy.offset, 4u);
  EXPECT_EQ(fuzzy.values.size(), 2u);
  EXPECT_EQ(s.commands[3].tolerances.size(), 2u);
  EXPECT_EQ(s.commands[4].comparator, Comparator::Lt);
  EXPECT_EQ(s.commands[5].kind, Command::Kind::ExpectBuffer);
  EXPECT_EQ(s.commands[6].kind, Command::Kind::ExpectRgba);
  EXPECT_EQ(s.commands[6].width, 2u);
  EXPECT_EQ(s.commands[7].kind, Command::Kind::Copy);
  EXPECT_EQ(s.fenceTimeoutMs, 500u);
  EXPECT_EQ(s.requirements.deviceExtensions, (std::vector<std::string>{"VK_KHR_16bit_storage"}));
  EXPECT_EQ(s.requirements.instanceExtensions.size(), 1u);
  EXPECT_EQ(s.requirements.properties.size(), 1u);
}

TEST(AmberScriptParser, CommandErrors) {
  std::string pre = std::string(kShader) + "BUFFER a DATA_TYPE uint32 SIZE 4 FILL 0\n"
                                           "BUFFER f DATA_TYPE float SIZE 4 FILL 0.0\n"
                                           "PIPELINE compute p\n  ATTACH s\nEND\n";
  EXPECT_EQ(error(pre + "RUN q 1 1 1\n"), "10: unknown pipeline: q");
  EXPECT_EQ(error(pre + "RUN p 1 1\n"), "10: expected an integer for RUN, got end of line");
  EXPECT_EQ(error(pre + "EXPECT a IDX 0 EQ 1.5\n"), "10: invalid EXPECT value: 1.5");
  EXPECT_EQ(error(pre + "EXPECT a IDX 0 EQ\n"), "11: EXPECT needs values");
  EXPECT_EQ(error(pre + "EXPECT a IDX 0 TOLERANCE 1 LT 1\n"),
            "10: TOLERANCE is only allowed with EQ");
  EXPECT_EQ(error(pre + "EXPECT a IDX 0 ABOUT 1\n"), "10: unknown comparator: ABOUT");
  EXPECT_EQ(error(pre + "EXPECT a EQ_BUFFER f\n"),
            "10: EXPECT EQ_BUFFER cannot compare buffers of differing format");
  EXPECT_EQ(error(pre + "EXPECT a RMSE_BUFFER a TOLERANCE 1\n"),
            "10: RMSE_BUFFER is not supported by spire run");
  EXPECT_EQ(error(pre + "REPEAT 2\nREPEAT 2\nEND\nEND\n"), "11: REPEAT cannot be nested");
  EXPECT_EQ(error(pre + "REPEAT 0\nEND\n"), "10: REPEAT needs a count above zero, got 0");
  EXPECT_EQ(error(pre + "COPY a TO a\n"), "10: COPY origin and destination must differ");
  EXPECT_EQ(error(pre + "CLEAR p\n"), "10: CLEAR needs a graphics pipeline");
  EXPECT_EQ(error(pre + "SET ENGINE_DATA speed 1\n"), "10: unknown ENGINE_DATA variable: speed");
  EXPECT_EQ(error(pre + "DEVICE_FEATURE shaderInt65\n"),
            "10: unknown feature name for DEVICE_FEATURE command: shaderInt65");
  EXPECT_EQ(error(pre + "DEVICE_PROPERTY FloatControlsProperties.nope\n"),
            "10: unknown property name for DEVICE_PROPERTY command: FloatControlsProperties.nope");
  EXPECT_EQ(error(pre + "STRUCT s\nEND\n"), "10: STRUCT is not supported by spire run");
  EXPECT_EQ(error(pre + "BOGUS\n"), "10: unknown token: BOGUS");
  EXPECT_EQ(error(pre + "RUN p 1 1 1 extra\n"), "10: extra parameters after RUN: extra");
}

TEST(AmberScriptParser, OnlyAnExactAmberLineMakesAmberScript) {
  EXPECT_FALSE(parsed("#!amber\n").vkScript);
  EXPECT_EQ(error(" #!amber\n"), "1: Invalid character");
}

} // namespace
} // namespace spire::run
