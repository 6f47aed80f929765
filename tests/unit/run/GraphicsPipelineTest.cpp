// Graphics pipelines on a Vulkan device (lavapipe when there is no GPU) with the validation
// layers on: a vertex shader alone, a vertex and fragment pair, a fragment shader with the
// generated vertex shader, fragment shaders writing depth and stencil, and a pair whose
// interfaces do not match, which the layers must reject. Without a device these tests skip.
#include "spire/run/GraphicsPipeline.h"
#include "DeviceTestFixture.h"
#include "spire/asm/Assembler.h"
#include "spire/grammar/Grammar.h"
#include "spire/run/PassThroughVertexShader.h"
#include "spire/run/PipelineCheck.h"
#include "spire/run/ShaderCompiler.h"

#include <gtest/gtest.h>

#include <memory>

namespace spire::run {
namespace {

class GraphicsPipelineTest : public DeviceTestFixture {
protected:
  void SetUp() override {
    DeviceTestFixture::SetUp();
    if (IsSkipped())
      return;
    if (!ctx_->validationEnabled())
      GTEST_SKIP() << "the validation layers are not installed";
    if (ctx_->apiVersion() < VK_API_VERSION_1_3)
      GTEST_SKIP() << ctx_->deviceName() << " is not a Vulkan 1.3 device (dynamic rendering)";
    ctx_->takeMessages();
  }

  static std::vector<uint32_t> glsl(std::string_view source, ShaderStage stage) {
    auto words = compileGlsl(source, stage, "vulkan1.3");
    EXPECT_TRUE(words.ok()) << (words ? "" : words.error().message);
    return words ? *words : std::vector<uint32_t>{};
  }
  static ModuleInterface interfaceOf(const std::vector<uint32_t> &words) {
    auto m = Module::fromWords(words);
    EXPECT_TRUE(m.ok());
    auto mi = reflect(*m);
    EXPECT_TRUE(mi.ok());
    return mi ? *mi : ModuleInterface{};
  }
  /// checkPipelines on one module with one entry point: its outcome as describeCheck() says.
  static std::string check(const std::vector<uint32_t> &words) {
    auto checks = checkPipelines(*ctx_, words);
    EXPECT_TRUE(checks.ok()) << (checks ? "" : checks.error().message);
    if (!checks || checks->size() != 1)
      return "no single result";
    return describeCheck(checks->front());
  }

  /// The description of a fragment shader's pipeline with its generated vertex shader.
  static Expected<GraphicsPipelineDesc> describeAlone(const ModuleInterface &fmi) {
    auto vs = passThroughVertexShader(fmi, fmi.entryPoints.at(0));
    if (!vs)
      return vs.error();
    ModuleInterface vmi = interfaceOf(*vs);
    return describeGraphicsPipeline(*ctx_, vmi, vmi.entryPoints.at(0), &fmi, &fmi.entryPoints[0]);
  }
};

constexpr std::string_view kVertex = R"(#version 450
layout(location = 0) in vec4 position;
layout(location = 1) in ivec2 index;
layout(location = 2) in uvec3 flags;
layout(location = 3) in mat2 rotation;
layout(location = 0) out vec4 color;
layout(location = 1) flat out int which;
void main() {
  gl_Position = position + vec4(rotation * vec2(index), float(flags.x), 0.0);
  color = position.zyxw;
  which = index.y;
}
)";

TEST_F(GraphicsPipelineTest, AVertexShaderAloneHasAttributesForEveryInputLocation) {
  std::vector<uint32_t> vs = glsl(kVertex, ShaderStage::Vertex);
  ModuleInterface mi = interfaceOf(vs);
  ASSERT_EQ(mi.entryPoints.size(), 1u);
  auto desc = describeGraphicsPipeline(*ctx_, mi, mi.entryPoints[0], nullptr, nullptr);
  ASSERT_TRUE(desc.ok()) << desc.error().message;
  // The matrix takes one location per column.
  ASSERT_EQ(desc->attributes.size(), 5u);
  EXPECT_EQ(desc->attributes[0].format, VK_FORMAT_R32G32B32A32_SFLOAT);
  EXPECT_EQ(desc->attributes[1].format, VK_FORMAT_R32G32_SINT);
  EXPECT_EQ(desc->attributes[2].format, VK_FORMAT_R32G32B32_UINT);
  EXPECT_EQ(desc->attributes[3].location, 3u);
  EXPECT_EQ(desc->attributes[4].location, 4u);
  EXPECT_EQ(desc->attributes[4].format, VK_FORMAT_R32G32_SFLOAT);
  EXPECT_TRUE(desc->colorFormats.empty());
  EXPECT_EQ(check(vs), "ok");
}

TEST_F(GraphicsPipelineTest, SixtyFourBitAndPackedVertexInputsGetOneAttributePerLocation) {
  std::vector<uint32_t> vs = glsl(R"(#version 450
layout(location = 0) in dvec3 wide;
layout(location = 2) in dvec2 narrow;
layout(location = 3) in double one;
layout(location = 4, component = 0) in vec2 low;
layout(location = 4, component = 2) in float high;
void main() { gl_Position = vec4(vec3(wide), float(narrow.y + one)) + vec4(low, high, 1.0); }
)",
                                  ShaderStage::Vertex);
  ModuleInterface mi = interfaceOf(vs);
  auto attributes = vertexAttributes(mi, mi.entryPoints.at(0));
  ASSERT_TRUE(attributes.ok()) << attributes.error().message;
  ASSERT_EQ(attributes->size(), 4u);
  EXPECT_EQ((*attributes)[0].format, VK_FORMAT_R64G64B64_SFLOAT); // locations 0 and 1
  EXPECT_EQ((*attributes)[1].location, 2u);
  EXPECT_EQ((*attributes)[1].format, VK_FORMAT_R64G64_SFLOAT);
  EXPECT_EQ((*attributes)[2].format, VK_FORMAT_R64_SFLOAT);
  EXPECT_EQ((*attributes)[3].location, 4u);
  EXPECT_EQ((*attributes)[3].format, VK_FORMAT_R32G32B32_SFLOAT);
  // Where the device has the 64-bit vertex formats, the layers accept the pipeline.
  auto desc = describeGraphicsPipeline(*ctx_, mi, mi.entryPoints[0], nullptr, nullptr);
  if (!desc)
    GTEST_SKIP() << desc.error().message;
  EXPECT_EQ(check(vs), "ok");
}

TEST_F(GraphicsPipelineTest, PackedVertexInputsAreAccepted) {
  std::vector<uint32_t> vs = glsl(R"(#version 450
layout(location = 1, component = 1) in vec3 tail;
layout(location = 1, component = 0) in float head;
layout(location = 2, component = 1) in int only;
void main() { gl_Position = vec4(tail, head + float(only)); }
)",
                                  ShaderStage::Vertex);
  ModuleInterface mi = interfaceOf(vs);
  auto attributes = vertexAttributes(mi, mi.entryPoints.at(0));
  ASSERT_TRUE(attributes.ok()) << attributes.error().message;
  ASSERT_EQ(attributes->size(), 2u);
  EXPECT_EQ((*attributes)[0].format, VK_FORMAT_R32G32B32A32_SFLOAT);
  EXPECT_EQ((*attributes)[1].format, VK_FORMAT_R32G32_SINT); // component 1 of two
  EXPECT_EQ(check(vs), "ok");
}

TEST_F(GraphicsPipelineTest, AVertexAndFragmentPairGetsAttachmentsOfTheOutputTypes) {
  std::vector<uint32_t> vs = glsl(kVertex, ShaderStage::Vertex);
  std::vector<uint32_t> fs = glsl(R"(#version 450
layout(location = 0) in vec4 color;
layout(location = 1) flat in int which;
layout(location = 0) out vec4 outColor;
layout(location = 2) out uvec2 outIds;
layout(set = 1, binding = 3) uniform U { vec4 tint; } u;
void main() {
  outColor = color * u.tint;
  outIds = uvec2(which, 7);
}
)",
                                  ShaderStage::Fragment);
  ModuleInterface vmi = interfaceOf(vs), fmi = interfaceOf(fs);
  auto desc = describeGraphicsPipeline(*ctx_, vmi, vmi.entryPoints[0], &fmi, &fmi.entryPoints[0]);
  ASSERT_TRUE(desc.ok()) << desc.error().message;
  ASSERT_EQ(desc->colorFormats.size(), 3u);
  EXPECT_EQ(desc->colorFormats[0], VK_FORMAT_R32G32B32A32_SFLOAT);
  EXPECT_EQ(desc->colorFormats[1], VK_FORMAT_UNDEFINED);
  EXPECT_EQ(desc->colorFormats[2], VK_FORMAT_R32G32_UINT);
  EXPECT_EQ(desc->depthFormat, VK_FORMAT_UNDEFINED);
  ASSERT_EQ(desc->bindings.size(), 1u);
  EXPECT_EQ(desc->bindings[0].set, 1u);
  EXPECT_EQ(desc->bindings[0].kind, DescriptorKind::UniformBuffer);
  desc->vertex = vs;
  desc->fragment = fs;
  auto pipeline = GraphicsPipeline::create(*ctx_, *desc);
  ASSERT_TRUE(pipeline.ok()) << pipeline.error().message;
  EXPECT_NE(pipeline->handle(), VK_NULL_HANDLE);
  std::vector<std::string> messages = ctx_->takeMessages();
  EXPECT_TRUE(messages.empty()) << messages.front();
}

TEST_F(GraphicsPipelineTest, AMismatchedPairIsRejectedByTheLayers) {
  // The fragment shader reads location 2, which the vertex shader does not write.
  std::vector<uint32_t> vs = glsl(kVertex, ShaderStage::Vertex);
  std::vector<uint32_t> fs = glsl(R"(#version 450
layout(location = 2) in vec4 missing;
layout(location = 0) out vec4 outColor;
void main() { outColor = missing; }
)",
                                  ShaderStage::Fragment);
  ModuleInterface vmi = interfaceOf(vs), fmi = interfaceOf(fs);
  auto desc = describeGraphicsPipeline(*ctx_, vmi, vmi.entryPoints[0], &fmi, &fmi.entryPoints[0]);
  ASSERT_TRUE(desc.ok()) << desc.error().message;
  desc->vertex = vs;
  desc->fragment = fs;
  auto pipeline = GraphicsPipeline::create(*ctx_, *desc);
  std::vector<std::string> messages = ctx_->takeMessages();
  ASSERT_FALSE(messages.empty()) << "the layers accepted an input no stage writes";
  EXPECT_NE(messages.front().find("location 2"), std::string::npos) << messages.front();
}

TEST_F(GraphicsPipelineTest, AFragmentShaderAloneGetsAVertexShaderWritingItsInputs) {
  std::vector<uint32_t> fs = glsl(R"(#version 450
layout(location = 0) noperspective in vec2 uv;
layout(location = 1) flat in ivec3 ids;
layout(location = 2) centroid in vec4 rows[2];
layout(location = 4) sample in mat2 m;
layout(location = 6, component = 1) in float packedA;
layout(location = 6, component = 2) in vec2 packedB;
layout(location = 0) out vec4 color;
in float gl_ClipDistance[3];
void main() {
  color = vec4(uv, packedA, packedB.x) + rows[1] + vec4(m[1], vec2(ids.xy)) + gl_FragCoord +
          gl_ClipDistance[2] + float(gl_PrimitiveID);
}
)",
                                  ShaderStage::Fragment);
  ModuleInterface fmi = interfaceOf(fs);
  auto vs = passThroughVertexShader(fmi, fmi.entryPoints[0]);
  ASSERT_TRUE(vs.ok()) << vs.error().message;
  Status valid = validateModule(*vs, "vulkan1.3");
  EXPECT_TRUE(valid.ok()) << (valid ? "" : valid.error().message);
  ModuleInterface vmi = interfaceOf(*vs);
  ASSERT_EQ(vmi.entryPoints.size(), 1u);
  EXPECT_EQ(vmi.entryPoints[0].model, "Vertex");
  // Every located input has its output, with the same location, component and decorations.
  for (const StageVariable *in : fmi.stageVariablesOf(fmi.entryPoints[0], false)) {
    if (in->builtIn != ~0u)
      continue;
    bool found = false;
    for (const StageVariable *out : vmi.stageVariablesOf(vmi.entryPoints[0], true))
      if (out->location == in->location && out->component == in->component) {
        found = true;
        EXPECT_EQ(out->kind, in->kind);
        EXPECT_EQ(out->components, in->components);
        EXPECT_EQ(out->columns, in->columns);
        EXPECT_EQ(out->arrayLengths, in->arrayLengths);
        EXPECT_EQ(out->flat, in->flat);
        EXPECT_EQ(out->noPerspective, in->noPerspective);
        EXPECT_EQ(out->centroid, in->centroid);
        EXPECT_EQ(out->sample, in->sample);
      }
    EXPECT_TRUE(found) << "no output for location " << in->location;
  }
  // The clip distances the fragment shader reads are written, as an array of the same size.
  bool clip = false;
  for (const StageVariable *out : vmi.stageVariablesOf(vmi.entryPoints[0], true))
    if (out->builtIn == uint32_t(grammar::BuiltIn::ClipDistance))
      clip = out->arrayLengths == std::vector<uint32_t>{3};
  EXPECT_TRUE(clip) << "no ClipDistance[3] output";
  EXPECT_EQ(check(fs), "ok");
}

TEST_F(GraphicsPipelineTest, AFragmentShaderWritingDepthGetsADepthAttachment) {
  std::vector<uint32_t> fs = glsl(R"(#version 450
layout(location = 0) in float depth;
layout(location = 0) out vec4 color;
void main() {
  gl_FragDepth = depth;
  color = vec4(depth);
}
)",
                                  ShaderStage::Fragment);
  auto desc = describeAlone(interfaceOf(fs));
  ASSERT_TRUE(desc.ok()) << desc.error().message;
  EXPECT_NE(desc->depthFormat, VK_FORMAT_UNDEFINED);
  EXPECT_EQ(desc->stencilFormat, VK_FORMAT_UNDEFINED);
  EXPECT_EQ(check(fs), "ok");
}

TEST_F(GraphicsPipelineTest, AFragmentShaderExportingStencilGetsAStencilAttachment) {
  if (!ctx_->hasExtension("VK_EXT_shader_stencil_export"))
    GTEST_SKIP() << ctx_->deviceName() << " lacks VK_EXT_shader_stencil_export";
  std::vector<uint32_t> fs = glsl(R"(#version 450
#extension GL_ARB_shader_stencil_export : require
void main() {
  gl_FragStencilRefARB = 3;
  gl_FragDepth = 0.5;
}
)",
                                  ShaderStage::Fragment);
  auto desc = describeAlone(interfaceOf(fs));
  ASSERT_TRUE(desc.ok()) << desc.error().message;
  EXPECT_NE(desc->stencilFormat, VK_FORMAT_UNDEFINED);
  EXPECT_EQ(desc->depthFormat, desc->stencilFormat);
  EXPECT_TRUE(desc->colorFormats.empty());
  EXPECT_EQ(check(fs), "ok");
}

TEST_F(GraphicsPipelineTest, ComputeShadersGetAComputePipelineAndOtherStagesAreSkipped) {
  std::vector<uint32_t> cs = glsl(R"(#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } b;
void main() { b.v[gl_LocalInvocationIndex] = 1u; }
)",
                                  ShaderStage::Compute);
  EXPECT_EQ(check(cs), "ok");
  auto kernel = assemble("OpCapability Kernel\nOpCapability Addresses\n"
                         "OpMemoryModel Physical64 OpenCL\n"
                         "OpEntryPoint Kernel %main \"main\"\n"
                         "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n"
                         "%main = OpFunction %void None %fn\n%l = OpLabel\nOpReturn\n"
                         "OpFunctionEnd\n");
  ASSERT_TRUE(kernel.ok()) << kernel.error().message;
  EXPECT_EQ(check(*kernel).rfind("skipped: a Kernel entry point", 0), 0u) << check(*kernel);
}

// A tessellation control shader alone gets a generated vertex shader (its per-control-point
// inputs written for one vertex) and evaluation shader; an evaluation shader alone generated
// vertex and control shaders (its per-vertex and patch inputs written, the levels, and the
// spacing and vertex order it leaves to the control shader).
TEST_F(GraphicsPipelineTest, TessellationShadersGetTheStagesAroundThem) {
  std::vector<uint32_t> tcs = glsl(R"(#version 450
layout(vertices = 4) out;
layout(location = 0) in vec3 normal[];
layout(location = 1) flat in uint id[];
layout(location = 0) out vec3 outNormal[];
layout(location = 2) patch out float weight;
void main() {
  outNormal[gl_InvocationID] = normal[gl_InvocationID] * float(id[gl_InvocationID]);
  gl_TessLevelOuter[0] = 2.0;
  weight = 1.0;
}
)",
                                   ShaderStage::TessellationControl);
  EXPECT_EQ(check(tcs), "ok");
  std::vector<uint32_t> tes = glsl(R"(#version 450
layout(quads) in;
layout(location = 0) in vec3 normal[];
layout(location = 2) patch in float weight;
layout(location = 0) out vec3 outNormal;
void main() {
  outNormal = normal[0] * weight * gl_TessLevelInner[0];
  gl_Position = gl_in[1].gl_Position + vec4(gl_TessCoord, 1.0);
}
)",
                                   ShaderStage::TessellationEvaluation);
  EXPECT_EQ(check(tes), "ok");
}

// A mesh shader alone gets a pipeline without vertex input or fragment stage; a task shader a
// generated mesh shader after it. Devices without VK_EXT_mesh_shader skip them, saying so.
TEST_F(GraphicsPipelineTest, MeshAndTaskShadersGetMeshPipelines) {
  const std::string header = "OpCapability MeshShadingEXT\n"
                             "OpExtension \"SPV_EXT_mesh_shader\"\n"
                             "OpMemoryModel Logical GLSL450\n";
  const std::string types = "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n"
                            "%uint = OpTypeInt 32 0\n%uint_0 = OpConstant %uint 0\n"
                            "%uint_1 = OpConstant %uint 1\n";
  auto mesh = assemble(header +
                           "OpEntryPoint MeshEXT %main \"main\"\n"
                           "OpExecutionMode %main LocalSize 32 1 1\n"
                           "OpExecutionMode %main OutputVertices 3\n"
                           "OpExecutionMode %main OutputPrimitivesEXT 1\n"
                           "OpExecutionMode %main OutputTrianglesEXT\n" +
                           types +
                           "%main = OpFunction %void None %fn\n%l = OpLabel\n"
                           "OpSetMeshOutputsEXT %uint_0 %uint_0\nOpReturn\nOpFunctionEnd\n",
                       AssembleOptions{grammar::makeVersion(1, 4)});
  ASSERT_TRUE(mesh.ok()) << mesh.error().message;
  auto task = assemble(header +
                           "OpEntryPoint TaskEXT %main \"main\"\n"
                           "OpExecutionMode %main LocalSize 8 1 1\n" +
                           types +
                           "%main = OpFunction %void None %fn\n%l = OpLabel\n"
                           "OpEmitMeshTasksEXT %uint_1 %uint_1 %uint_1\nOpFunctionEnd\n",
                       AssembleOptions{grammar::makeVersion(1, 4)});
  ASSERT_TRUE(task.ok()) << task.error().message;
  if (!ctx_->hasExtension("VK_EXT_mesh_shader")) {
    EXPECT_EQ(check(*mesh).rfind("skipped: " + ctx_->deviceName() + " lacks VK_EXT_mesh_shader", 0),
              0u)
        << check(*mesh);
    return;
  }
  EXPECT_EQ(check(*mesh), "ok");
  if (ctx_->hasFeature("MeshShaderFeatures.taskShader")) {
    EXPECT_EQ(check(*task), "ok");
  }
}

// A ray tracing shader gets a pipeline of its own, after a generated ray generation shader
// unless it is one, in the group its stage takes. Devices without ray tracing pipelines skip it.
TEST_F(GraphicsPipelineTest, RayTracingShadersGetRayTracingPipelines) {
  const std::string header = "OpCapability RayTracingKHR\n"
                             "OpExtension \"SPV_KHR_ray_tracing\"\n"
                             "OpMemoryModel Logical GLSL450\n";
  const std::string body = "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n"
                           "%main = OpFunction %void None %fn\n%l = OpLabel\nOpReturn\n"
                           "OpFunctionEnd\n";
  for (const char *model : {"MissKHR", "ClosestHitKHR", "IntersectionKHR"}) {
    auto words = assemble(header + "OpEntryPoint " + model + " %main \"main\"\n" + body,
                          AssembleOptions{grammar::makeVersion(1, 4)});
    ASSERT_TRUE(words.ok()) << words.error().message;
    if (ctx_->hasExtension("VK_KHR_ray_tracing_pipeline"))
      EXPECT_EQ(check(*words), "ok") << model;
    else
      EXPECT_NE(check(*words).find("lacks VK_KHR_ray_tracing_pipeline"), std::string::npos)
          << check(*words);
  }
}

// A geometry shader alone gets a generated vertex shader that writes each of its inputs for one
// vertex, the input assembly its input primitive takes, and no fragment stage.
TEST_F(GraphicsPipelineTest, AGeometryShaderGetsAVertexShaderWritingItsInputs) {
  std::vector<uint32_t> gs = glsl(R"(#version 450
layout(lines_adjacency) in;
layout(triangle_strip, max_vertices = 3) out;
layout(location = 0) in vec4 color[];
layout(location = 1) flat in ivec2 ids[];
layout(location = 0) out vec4 outColor;
layout(set = 0, binding = 0) buffer B { uint n; } b;
void main() {
  for (int i = 0; i < 3; ++i) {
    gl_Position = gl_in[i].gl_Position + color[i] + vec4(ids[i].x);
    outColor = color[i];
    EmitVertex();
  }
  atomicAdd(b.n, 1u);
}
)",
                                  ShaderStage::Geometry);
  ModuleInterface gmi = interfaceOf(gs);
  auto vs = passThroughVertexShader(gmi, gmi.entryPoints.at(0));
  ASSERT_TRUE(vs.ok()) << vs.error().message;
  ModuleInterface vmi = interfaceOf(*vs);
  std::vector<const StageVariable *> outputs = vmi.stageVariablesOf(vmi.entryPoints.at(0), true);
  ASSERT_EQ(outputs.size(), 3u); // color, ids and Position: one vertex's, not arrays
  EXPECT_TRUE(outputs[0]->arrayLengths.empty());
  EXPECT_TRUE(outputs[1]->arrayLengths.empty());
  // Accepted by the layers, which refuse geometry inputs that the vertex shader does not write.
  EXPECT_EQ(check(gs), "ok");
}

// Push constants beyond the device's maxPushConstantsSize: skipped with the limit's name, not
// a pipeline the layers reject.
TEST_F(GraphicsPipelineTest, PushConstantsBeyondTheLimitAreSkipped) {
  const uint32_t limit = ctx_->properties().limits.maxPushConstantsSize;
  const std::string vec4s = std::to_string(limit / 16 + 1);
  std::vector<uint32_t> cs = glsl("#version 450\nlayout(local_size_x = 1) in;\n"
                                  "layout(push_constant) uniform P { vec4 v[" +
                                      vec4s +
                                      "]; } p;\n"
                                      "layout(set = 0, binding = 0) buffer B { vec4 v[]; } b;\n"
                                      "void main() { b.v[0] = p.v[" +
                                      vec4s + " - 1]; }\n",
                                  ShaderStage::Compute);
  const std::string outcome = check(cs);
  EXPECT_EQ(outcome.rfind("skipped: ", 0), 0u) << outcome;
  EXPECT_NE(outcome.find("maxPushConstantsSize"), std::string::npos) << outcome;
}

} // namespace
} // namespace spire::run

namespace spire::run {
namespace {

/// Pipelines on devices made with exactly what each module needs (a suite of its own: the
/// device of its context is replaced).
class ExactFeaturesTest : public DeviceTestFixture {
protected:
  void SetUp() override {
    DeviceTestFixture::SetUp();
    if (!IsSkipped() && !ctx_->validationEnabled())
      GTEST_SKIP() << "the validation layers are not installed";
    if (!IsSkipped() && ctx_->apiVersion() < VK_API_VERSION_1_3)
      GTEST_SKIP() << ctx_->deviceName() << " is not a Vulkan 1.3 device";
  }
  static std::string checkExactly(std::string_view glslSource, ShaderStage stage) {
    auto words = compileGlsl(glslSource, stage, "vulkan1.3");
    EXPECT_TRUE(words.ok()) << (words ? "" : words.error().message);
    if (!words)
      return "no module";
    PipelineCheckOptions options;
    options.exactFeatures = true;
    auto checks = checkPipelines(*ctx_, *words, {}, options);
    EXPECT_TRUE(checks.ok()) << (checks ? "" : checks.error().message);
    return checks && checks->size() == 1 ? describeCheck(checks->front()) : "no single result";
  }
};

TEST_F(ExactFeaturesTest, TheFeaturesOfCapabilitiesAndPipelinesAreEnabled) {
  if (!ctx_->hasFeature("shaderInt64") || !ctx_->hasFeature("fragmentStoresAndAtomics") ||
      !ctx_->hasFeature("independentBlend"))
    GTEST_SKIP() << ctx_->deviceName()
                 << " lacks shaderInt64, fragment stores or independent "
                    "blending";
  // Int64 (its feature), subgroup operations on it (extended types), LocalSizeId (maintenance4).
  EXPECT_EQ(checkExactly(R"(#version 450
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) buffer B { uint64_t v[]; } b;
void main() { b.v[gl_LocalInvocationIndex] = subgroupAdd(b.v[gl_LocalInvocationIndex]); }
)",
                         ShaderStage::Compute),
            "ok");
  // A fragment shader storing to a buffer, with a colour location left without an output.
  EXPECT_EQ(checkExactly(R"(#version 450
layout(set = 0, binding = 0) buffer B { uint hits; } b;
layout(location = 1) out vec4 color;
void main() { atomicAdd(b.hits, 1u); color = vec4(1.0); }
)",
                         ShaderStage::Fragment),
            "ok");
}

TEST_F(ExactFeaturesTest, ADeviceWithoutANeededFeatureIsNotMade) {
  Status s = ctx_->recreateDevice({}, {"no such feature"});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("lacks feature no such feature"), std::string::npos);
  // The device that was there still works: a pipeline on it, without recreating it (a module
  // that needs no feature: for vulkan1.3 glslang writes LocalSizeId, which needs maintenance4,
  // and the device an earlier test made exactly may lack it).
  ASSERT_NE(ctx_->device(), VK_NULL_HANDLE);
  auto words = compileGlsl("#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n",
                           ShaderStage::Compute, "vulkan1.1");
  ASSERT_TRUE(words.ok()) << words.error().message;
  auto checks = checkPipelines(*ctx_, *words);
  ASSERT_TRUE(checks.ok()) << checks.error().message;
  ASSERT_EQ(checks->size(), 1u);
  EXPECT_EQ(describeCheck(checks->front()), "ok");
}

} // namespace
} // namespace spire::run
