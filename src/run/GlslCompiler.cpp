// GLSL to SPIR-V through the glslang library (glslang-dev), for the environments amber knows.
#include "spire/run/ShaderCompiler.h"

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include <mutex>

namespace spire::run {

namespace detail {
void keepGlslangStubs(); // GlslangSpirvToolsStubs.cpp
} // namespace detail

namespace {

struct GlslTarget {
  glslang::EShTargetClientVersion client;
  glslang::EShTargetLanguageVersion spirv;
};

std::optional<GlslTarget> glslTarget(std::string_view env) {
  using namespace glslang;
  struct Entry {
    std::string_view name;
    GlslTarget target;
  };
  static const Entry kEnvs[] = {
      {"", {EShTargetVulkan_1_0, EShTargetSpv_1_0}},
      {"spv1.0", {EShTargetVulkan_1_0, EShTargetSpv_1_0}},
      {"vulkan1.0", {EShTargetVulkan_1_0, EShTargetSpv_1_0}},
      {"spv1.1", {EShTargetVulkan_1_1, EShTargetSpv_1_1}},
      {"spv1.2", {EShTargetVulkan_1_1, EShTargetSpv_1_2}},
      {"spv1.3", {EShTargetVulkan_1_1, EShTargetSpv_1_3}},
      {"vulkan1.1", {EShTargetVulkan_1_1, EShTargetSpv_1_3}},
      {"spv1.4", {EShTargetVulkan_1_2, EShTargetSpv_1_4}},
      {"vulkan1.1spv1.4", {EShTargetVulkan_1_1, EShTargetSpv_1_4}},
      {"spv1.5", {EShTargetVulkan_1_2, EShTargetSpv_1_5}},
      {"vulkan1.2", {EShTargetVulkan_1_2, EShTargetSpv_1_5}},
      {"spv1.6", {EShTargetVulkan_1_3, EShTargetSpv_1_6}},
      {"vulkan1.3", {EShTargetVulkan_1_3, EShTargetSpv_1_6}},
  };
  for (const Entry &e : kEnvs)
    if (e.name == env)
      return e.target;
  return std::nullopt;
}

EShLanguage glslStage(ShaderStage stage) {
  switch (stage) {
  case ShaderStage::Vertex:
    return EShLangVertex;
  case ShaderStage::Fragment:
    return EShLangFragment;
  case ShaderStage::Geometry:
    return EShLangGeometry;
  case ShaderStage::TessellationControl:
    return EShLangTessControl;
  case ShaderStage::TessellationEvaluation:
    return EShLangTessEvaluation;
  default:
    return EShLangCompute;
  }
}

// glslang keeps process-wide tables; they are made once and kept for the life of the process.
void initializeGlslang() {
  static std::once_flag once;
  std::call_once(once, [] { glslang::InitializeProcess(); });
}

std::string firstLines(const char *log) {
  std::string s = log ? log : "";
  while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
    s.pop_back();
  for (char &c : s)
    if (c == '\n')
      c = ' ';
  return s;
}

} // namespace

Expected<std::vector<uint32_t>> compileGlsl(std::string_view source, ShaderStage stage,
                                            std::string_view targetEnv) {
  auto target = glslTarget(targetEnv);
  if (!target)
    return makeError({}, "Unrecognized environment " + std::string(targetEnv));
  detail::keepGlslangStubs();
  initializeGlslang();
  EShLanguage lang = glslStage(stage);
  glslang::TShader shader(lang);
  std::string text(source);
  const char *strings[] = {text.c_str()};
  shader.setStrings(strings, 1);
  shader.setEnvInput(glslang::EShSourceGlsl, lang, glslang::EShClientVulkan, 100);
  shader.setEnvClient(glslang::EShClientVulkan, target->client);
  shader.setEnvTarget(glslang::EShTargetSpv, target->spirv);
  auto messages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules);
  // A shader without #version is read as GLSL 4.50 (Vulkan GLSL needs 1.40 or later).
  if (!shader.parse(GetDefaultResources(), 450, false, messages))
    return makeError({}, "GLSL: " + firstLines(shader.getInfoLog()));
  glslang::TProgram program;
  program.addShader(&shader);
  if (!program.link(messages))
    return makeError({}, "GLSL link: " + firstLines(program.getInfoLog()));
  std::vector<uint32_t> words;
  spv::SpvBuildLogger logger;
  glslang::SpvOptions options;
  options.disableOptimizer = true;
  glslang::GlslangToSpv(*program.getIntermediate(lang), words, &logger, &options);
  if (words.empty())
    return makeError({}, "GLSL: no SPIR-V produced: " + logger.getAllMessages());
  return words;
}

} // namespace spire::run
