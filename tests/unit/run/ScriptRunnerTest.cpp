// The runner on a Vulkan device (lavapipe when there is no GPU), with the validation layers on
// when installed: passing, failing and skipped scripts, a validation message failing a test,
// --via, and a shader run from the command-line form. Without a device these tests skip.
#include "spire/run/ScriptRunner.h"
#include "DeviceTestFixture.h"
#include "spire/run/ShaderRun.h"

#include "spire/run/ModuleRequirements.h"
#include "spire/run/Reflection.h"

#include <gtest/gtest.h>

#include <array>

#include <cstring>
#include <memory>

namespace spire::run {
namespace {

class Runner : public DeviceTestFixture {
protected:
  static ScriptResult run(std::string_view text, const RunOptions &o = {}) {
    auto s = parseScript(text, [](std::string_view) -> Expected<std::vector<uint8_t>> {
      return makeError({}, "no files here");
    });
    EXPECT_TRUE(s.ok()) << (s ? "" : s.error().message);
    if (!s)
      return ScriptResult{ScriptResult::Outcome::Fail, "parse", 0, {}};
    return runScript(*ctx_, *s, o);
  }
};

constexpr std::string_view kDouble = R"(#!amber
SHADER compute doubler GLSL
#version 430
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer B { int v[]; } b;
layout(push_constant) uniform P { int add; } p;
layout(constant_id = 1) const int factor = 2;
void main() {
  uint i = gl_GlobalInvocationID.x;
  for (int k = 0; k < 2; ++k)
    if (b.v[i] > -100) b.v[i] = b.v[i] * factor + p.add * k;
}
END
BUFFER data DATA_TYPE int32 SIZE 8 SERIES_FROM 1 INC_BY 1
BUFFER pc DATA_TYPE int32 DATA 1 END
PIPELINE compute pipe
  ATTACH doubler SPECIALIZE 1 AS int32 3
  BIND BUFFER data AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER pc AS push_constant
END
RUN pipe 2 1 1
)";

TEST_F(Runner, APassingScript) {
  // v * 3 * 3 + 1: 10, 19, 28, ...
  ScriptResult r = run(std::string(kDouble) + "EXPECT data IDX 0 EQ 10 19 28 37 46 55 64 73\n");
  EXPECT_EQ(r.outcome, ScriptResult::Outcome::Pass) << r.message;
  EXPECT_EQ(resultLine("t.amber", r), "PASS t.amber");
}

TEST_F(Runner, AFailingExpectationNamesTheValue) {
  ScriptResult r = run(std::string(kDouble) + "EXPECT data IDX 0 EQ 10 19\n"
                                              "EXPECT data IDX 4 EQ 19 29\n");
  EXPECT_EQ(r.outcome, ScriptResult::Outcome::Fail);
  EXPECT_EQ(r.line, 23u);
  EXPECT_EQ(r.message, "data byte 8 (value 1): got 28, expected == 29");
  EXPECT_EQ(resultLine("t.amber", r),
            "FAIL t.amber:23: data byte 8 (value 1): got 28, expected == 29");
  EXPECT_EQ(resultJson("t.amber", r).substr(0, 67),
            "{\"file\":\"t.amber\",\"status\":\"fail\",\"line\":23,\"message\":\"data byte 8 ");
}

TEST_F(Runner, ShadersThroughSpireComputeTheSame) {
  std::string script = std::string(kDouble) + "EXPECT data IDX 28 EQ 73\n";
  for (const char *via : {"asm", "roundtrip", "opt=canonicalize"}) {
    RunOptions o;
    o.compile.via = *Via::parse(via);
    ScriptResult r = run(script, o);
    EXPECT_EQ(r.outcome, ScriptResult::Outcome::Pass) << via << ": " << r.message;
  }
  RunOptions bad;
  bad.compile.via = *Via::parse("opt=no-such-pass");
  EXPECT_EQ(run(script, bad).outcome, ScriptResult::Outcome::Fail);
}

TEST_F(Runner, UnmetRequirementsSkip) {
  ScriptResult r = run(std::string(kDouble) + "DEVICE_EXTENSION VK_SPIRE_no_such_extension\n");
  EXPECT_EQ(r.outcome, ScriptResult::Outcome::Skip);
  EXPECT_EQ(r.message, ctx_->deviceName() + " lacks VK_SPIRE_no_such_extension");
  ScriptResult cl = run("#!amber\nSHADER compute k OPENCL-C\nkernel void k() {}\nEND\n"
                        "PIPELINE compute p\n  ATTACH k\nEND\n");
  EXPECT_EQ(cl.outcome, ScriptResult::Outcome::Skip);
  EXPECT_EQ(cl.message, "OPENCL-C shader k needs clspv, which is not available");
  ExtraRequirements extra;
  extra.skipOnDevices.push_back(ctx_->deviceName());
  extra.note = "listed";
  RunOptions o;
  o.extra = &extra;
  EXPECT_EQ(run(kDouble, o).message, "known problem of " + ctx_->deviceName() + ": listed");
}

TEST_F(Runner, ShaderErrorsFailAtTheShader) {
  ScriptResult r = run("#!amber\n\nSHADER compute s GLSL\nvoid main() { nope; }\nEND\n"
                       "PIPELINE compute p\n  ATTACH s\nEND\n");
  EXPECT_EQ(r.outcome, ScriptResult::Outcome::Fail);
  EXPECT_EQ(r.line, 3u);
  EXPECT_NE(r.message.find("shader s: GLSL:"), std::string::npos) << r.message;
  ScriptResult entry = run("#!amber\nSHADER compute s GLSL\n#version 430\nvoid main() {}\nEND\n"
                           "PIPELINE compute p\n  ATTACH s ENTRY_POINT other\nEND\n");
  EXPECT_EQ(entry.message, "shader s has no entry point other");
}

TEST_F(Runner, ShadersCompiledBeforeTheDeviceGiveTheSameResults) {
  auto parse = [](std::string_view text) {
    return parseScript(text, [](std::string_view) -> Expected<std::vector<uint8_t>> {
      return makeError({}, "no files here");
    });
  };
  // A passing script and a failing one, with shaders compiled before the run.
  for (const char *expect : {"EXPECT data IDX 0 EQ 10 19 28\n", "EXPECT data IDX 0 EQ 10 20\n"}) {
    auto s = parse(std::string(kDouble) + expect);
    ASSERT_TRUE(s.ok());
    CompiledShaders compiled = compileScriptShaders(*s, {});
    ASSERT_EQ(compiled.shaders.size(), 1u);
    ASSERT_TRUE(compiled.shaders[0].has_value());
    EXPECT_EQ(compiled.shaders[0]->outcome, CompiledShader::Outcome::Ok);
    ScriptResult ahead = runScript(*ctx_, *s, {}, &compiled);
    ScriptResult here = run(std::string(kDouble) + expect);
    EXPECT_EQ(ahead.outcome, here.outcome) << ahead.message;
    EXPECT_EQ(ahead.line, here.line);
    EXPECT_EQ(ahead.message, here.message);
  }
  EXPECT_EQ(run(std::string(kDouble) + "EXPECT data IDX 0 EQ 10 20\n").message,
            "data byte 4 (value 1): got 19, expected == 20");

  // A shader that skips the script ends the list: the pipeline after it is not compiled, and
  // the run skips with the same reason.
  auto cl = parse("#!amber\nSHADER compute k OPENCL-C\nkernel void f() {}\nEND\n"
                  "SHADER compute g GLSL\nvoid main() { nope; }\nEND\n"
                  "PIPELINE compute p\n  ATTACH k\nEND\nPIPELINE compute q\n  ATTACH g\nEND\n");
  ASSERT_TRUE(cl.ok());
  CompiledShaders skipped = compileScriptShaders(*cl, {});
  ASSERT_EQ(skipped.shaders.size(), 2u);
  ASSERT_TRUE(skipped.shaders[0].has_value());
  EXPECT_EQ(skipped.shaders[0]->outcome, CompiledShader::Outcome::Skip);
  EXPECT_FALSE(skipped.shaders[1].has_value());
  ScriptResult r = runScript(*ctx_, *cl, {}, &skipped);
  EXPECT_EQ(r.outcome, ScriptResult::Outcome::Skip);
  EXPECT_EQ(r.message, "OPENCL-C shader k needs clspv, which is not available");

  // A set that lacks a shader the script needs (made for another script): compiled in the run.
  auto s = parse(std::string(kDouble) + "EXPECT data IDX 0 EQ 10\n");
  ASSERT_TRUE(s.ok());
  CompiledShaders none;
  EXPECT_EQ(runScript(*ctx_, *s, {}, &none).outcome, ScriptResult::Outcome::Pass);
}

TEST_F(Runner, AValidationMessageFailsTheScript) {
  if (!ctx_->validationEnabled())
    GTEST_SKIP() << "the validation layers are not installed";
  // The shader reads a storage buffer; the script binds a uniform buffer there.
  ScriptResult r = run(R"(#!amber
SHADER compute s GLSL
#version 430
layout(set = 0, binding = 0) buffer B { int v; } b;
void main() { b.v = 1; }
END
BUFFER data DATA_TYPE int32 SIZE 4 FILL 0
PIPELINE compute p
  ATTACH s
  BIND BUFFER data AS uniform DESCRIPTOR_SET 0 BINDING 0
END
RUN p 1 1 1
)");
  EXPECT_EQ(r.outcome, ScriptResult::Outcome::Fail);
  EXPECT_EQ(r.message.rfind("pipeline p: validation: ", 0), 0u) << r.message;
}

TEST_F(Runner, VkScriptWithUniformsPushConstantsAndProbes) {
  ScriptResult r = run(R"([compute shader]
#version 430
layout(local_size_x = 2) in;
layout(set = 0, binding = 0) buffer O { vec2 o[]; };
layout(set = 0, binding = 1) uniform U { vec2 scale; };
layout(push_constant) uniform P { float offset; };
void main() { o[gl_LocalInvocationID.x] = o[gl_LocalInvocationID.x] * scale + offset; }

[test]
ssbo 0 subdata vec2 0 1 2 3 4
uniform ubo 0:1 vec2 0 10 100
uniform float 0 0.5
compute 1 1 1
probe ssbo vec2 0 0 ~= 10.5 200.5 30.5 400.5
tolerance 0.001
probe ssbo vec2 0 8 ~= 30.5 400.5
probe ssbo vec2 0 0 != 1 2
)");
  EXPECT_EQ(r.outcome, ScriptResult::Outcome::Pass) << r.message;
}

TEST_F(Runner, ImagesAndRepeatedDispatches) {
  ScriptResult r = run(R"(#!amber
SHADER compute s GLSL
#version 430
layout(local_size_x = 2, local_size_y = 2) in;
layout(set = 0, binding = 0, rgba8) uniform image2D img;
layout(set = 0, binding = 1) buffer C { uint n; } c;
void main() {
  imageStore(img, ivec2(gl_LocalInvocationID.xy), vec4(0, 1, 0, 1));
  if (gl_LocalInvocationIndex == 0) c.n += 1;
}
END
IMAGE out FORMAT R8G8B8A8_UNORM DIM_2D WIDTH 2 HEIGHT 2 FILL 0
BUFFER count DATA_TYPE uint32 SIZE 1 FILL 0
PIPELINE compute p
  ATTACH s
  BIND BUFFER out AS storage_image DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER count AS storage DESCRIPTOR_SET 0 BINDING 1
END
REPEAT 3
RUN p 1 1 1
END
EXPECT out IDX 0 0 SIZE 2 2 EQ_RGBA 0 255 0 255
EXPECT count IDX 0 EQ 3
)");
  EXPECT_EQ(r.outcome, ScriptResult::Outcome::Pass) << r.message;
}

TEST_F(Runner, AShaderWithBuffersFromTheCommandLine) {
  auto words = compileGlsl(R"(#version 430
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer In { uint v[]; } i;
layout(set = 0, binding = 1) buffer Out { uint v[]; } o;
layout(push_constant) uniform P { uint add; } p;
layout(constant_id = 3) const uint factor = 1;
void main() { uint x = gl_GlobalInvocationID.x; o.v[x] = i.v[x] * factor + p.add; }
)",
                           ShaderStage::Compute, "");
  ASSERT_TRUE(words.ok()) << words.error().message;
  auto m = Module::fromWords(*words);
  auto mi = reflect(*m);
  ShaderRunRequest req;
  req.words = *words;
  req.specialization[3] = 10;
  auto files = [](const std::string &) -> Expected<std::vector<uint8_t>> {
    return makeError({}, "none");
  };
  req.buffers[{0, 0}] = *bufferFromSpec("series:uint32:0:1:8", files);
  req.buffers[{0, 1}] = *bufferFromSpec("zero:32", files);
  req.pushConstants = *bufferFromSpec("data:uint32:5", files);
  req.groups[0] = 2;
  auto r = runShader(*ctx_, *mi, req);
  ASSERT_TRUE(r.ok()) << r.error().message << [&] {
    std::string m;
    for (auto &x : ctx_->takeMessages())
      m += x + "\n";
    return m;
  }();
  EXPECT_TRUE(r->validationMessages.empty());
  std::vector<uint32_t> out(8);
  std::memcpy(out.data(), r->buffers.at({0, 1}).data(), 32);
  EXPECT_EQ(out, (std::vector<uint32_t>{5, 15, 25, 35, 45, 55, 65, 75}));
  req.buffers.erase({0, 1});
  EXPECT_EQ(runShader(*ctx_, *mi, req).error().message,
            "binding 0:1 ends in a runtime array: give its data with --buffer");
  req.buffers[{0, 1}] = {};
  req.buffers[{3, 3}] = {};
  EXPECT_EQ(runShader(*ctx_, *mi, req).error().message, "the module has no binding 3:3");
}

/// The interface of a compiled module.
Expected<ModuleInterface> interfaceOf(const std::vector<uint32_t> &words) {
  auto m = Module::fromWords(words);
  if (!m)
    return m.error();
  return reflect(*m);
}

// Rays straight down (-z) from z = 1 at eight points of the unit square, against two squares:
// x in [0, 0.5] at z = 0.5 and x, y in [0.5, 1] at z = 0.25 (two triangles each). Each
// invocation writes the committed hit's t, or -1 for a miss.
TEST_F(Runner, ARayQueryShaderAgainstTrianglesGivenAsData) {
  if (!ctx_->hasFeature("RayQueryFeatures.rayQuery") ||
      !ctx_->hasFeature("AccelerationStructureFeaturesKHR.accelerationStructure"))
    GTEST_SKIP() << ctx_->deviceName() << " has no ray queries";
  auto words = compileGlsl(R"(#version 460
#extension GL_EXT_ray_query : require
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) uniform accelerationStructureEXT scene;
layout(set = 0, binding = 1) buffer Out { float t[]; } o;
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec3 origin = vec3(0.125 + 0.25 * float(i % 4), i < 4 ? 0.25 : 0.75, 1.0);
  rayQueryEXT q;
  rayQueryInitializeEXT(q, scene, gl_RayFlagsOpaqueEXT, 0xFF, origin, 0.0, vec3(0, 0, -1), 10.0);
  while (rayQueryProceedEXT(q)) {
  }
  o.t[i] = rayQueryGetIntersectionTypeEXT(q, true) == gl_RayQueryCommittedIntersectionTriangleEXT
               ? rayQueryGetIntersectionTEXT(q, true)
               : -1.0;
}
)",
                           ShaderStage::Compute, "vulkan1.2");
  ASSERT_TRUE(words.ok()) << words.error().message;
  auto mi = interfaceOf(*words);
  ASSERT_TRUE(mi.ok()) << mi.error().message;
  ASSERT_NE(mi->find(0, 0), nullptr);
  EXPECT_EQ(mi->find(0, 0)->kind, DescriptorKind::AccelerationStructure);
  const std::vector<float> squares = {0,    0,    0.5f,  0.5f, 0,    0.5f,  0.5f, 1, 0.5f,
                                      0,    0,    0.5f,  0.5f, 1,    0.5f,  0,    1, 0.5f,
                                      0.5f, 0.5f, 0.25f, 1,    0.5f, 0.25f, 1,    1, 0.25f,
                                      0.5f, 0.5f, 0.25f, 1,    1,    0.25f, 0.5f, 1, 0.25f};
  ShaderRunRequest req;
  req.words = *words;
  req.buffers[{0, 0}].resize(squares.size() * 4);
  std::memcpy(req.buffers[{0, 0}].data(), squares.data(), squares.size() * 4);
  req.buffers[{0, 1}].assign(32, 0);
  auto readT = [](const ShaderRunResult &r) {
    std::vector<float> t(8);
    std::memcpy(t.data(), r.buffers.at({0, 1}).data(), 32);
    return t;
  };
  auto r = runShader(*ctx_, *mi, req);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->validationMessages.empty()) << r->validationMessages.front();
  EXPECT_EQ(r->buffers.count({0, 0}), 0u); // the structure is not read back
  EXPECT_EQ(readT(*r), (std::vector<float>{0.5f, 0.5f, -1, -1, 0.5f, 0.5f, 0.75f, 0.75f}));
  // No data: an empty scene, where every ray misses.
  req.buffers.erase({0, 0});
  r = runShader(*ctx_, *mi, req);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(readT(*r), std::vector<float>(8, -1));
  req.buffers[{0, 0}].assign(40, 0);
  EXPECT_EQ(runShader(*ctx_, *mi, req).error().message,
            "binding 0:0 is an acceleration structure: its data is triangles, 36 bytes each "
            "(three vertices of three floats)");
}

// A multisampled storage image starts cleared: each invocation reads its texel's four samples
// (zeros), writes sample s = 10 * invocation + s, and reads them back into a buffer.
TEST_F(Runner, AMultisampledStorageImageStartsClearedAndHoldsFourSamples) {
  if (!ctx_->hasFeature("shaderStorageImageMultisample"))
    GTEST_SKIP() << ctx_->deviceName() << " has no multisampled storage images";
  auto words = compileGlsl(R"(#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0, r32f) uniform image2DMS img;
layout(set = 0, binding = 1) buffer Out { float v[]; } o;
void main() {
  uint i = gl_GlobalInvocationID.x;
  ivec2 p = ivec2(i, 3);
  for (int s = 0; s < 4; ++s) {
    o.v[i * 8 + s] = imageLoad(img, p, s).x;
    imageStore(img, p, s, vec4(10.0 * float(i) + float(s)));
  }
  memoryBarrierImage();
  for (int s = 0; s < 4; ++s)
    o.v[i * 8 + 4 + s] = imageLoad(img, p, s).x;
}
)",
                           ShaderStage::Compute, "");
  ASSERT_TRUE(words.ok()) << words.error().message;
  auto mi = interfaceOf(*words);
  ASSERT_TRUE(mi.ok()) << mi.error().message;
  ASSERT_TRUE(mi->find(0, 0) && mi->find(0, 0)->multisampled);
  ShaderRunRequest req;
  req.words = *words;
  req.buffers[{0, 1}].assign(4 * 8 * 4, 0xFF);
  auto r = runShader(*ctx_, *mi, req);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->validationMessages.empty()) << r->validationMessages.front();
  std::vector<float> out(32), want(32, 0);
  std::memcpy(out.data(), r->buffers.at({0, 1}).data(), 128);
  for (int i = 0; i < 4; ++i)
    for (int s = 0; s < 4; ++s)
      want[i * 8 + 4 + s] = 10.0f * float(i) + float(s);
  EXPECT_EQ(out, want);
  EXPECT_TRUE(r->buffers.at({0, 0}).empty()); // not read back
  req.buffers[{0, 0}].assign(16, 0);
  EXPECT_EQ(runShader(*ctx_, *mi, req).error().message,
            "binding 0:0 is a multisampled image: it takes no data (it starts cleared to zero and "
            "is not read back)");
}

TEST_F(Runner, AShaderWithImagesTexelBuffersAndSamplers) {
  auto words = compileGlsl(R"(#version 450
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0) uniform texture2D tex;
layout(set = 0, binding = 1) uniform sampler smp;
layout(set = 0, binding = 2, r32ui) uniform uimage2D img;
layout(set = 0, binding = 3) uniform utextureBuffer tb;
layout(set = 0, binding = 4) buffer Out { uint v[]; } o;
layout(set = 1, binding = 0) uniform texture2D arr[2];
void main() {
  ivec2 p = ivec2(gl_LocalInvocationID.xy);
  uint i = gl_LocalInvocationIndex;
  vec4 t = texelFetch(sampler2D(tex, smp), p, 0);
  imageStore(img, p, uvec4(uint(t.x) + texelFetch(tb, int(i)).y));
  o.v[i] = uint(texelFetch(sampler2D(arr[1], smp), p, 0).z);
}
)",
                           ShaderStage::Compute, "");
  ASSERT_TRUE(words.ok()) << words.error().message;
  auto mi = interfaceOf(*words);
  ASSERT_TRUE(mi.ok()) << mi.error().message;
  const Resource *texture = mi->find(0, 0);
  ASSERT_TRUE(texture);
  EXPECT_EQ(texture->sampledType, 'f');
  EXPECT_EQ(mi->find(0, 3)->sampledType, 'u');
  EXPECT_EQ(bindingFormat(*texture, {}), uint32_t(VK_FORMAT_R32G32B32A32_SFLOAT));
  EXPECT_EQ(imageExtent(*texture), (std::array<uint32_t, 4>{16, 16, 1, 1}));
  auto files = [](const std::string &) -> Expected<std::vector<uint8_t>> {
    return makeError({}, "none");
  };
  ShaderRunRequest req;
  req.words = *words;
  // Texel (x, y) of the 16 x 16 texture holds 10 * (16 y + x) in every channel; element i of
  // the texel buffer (R32G32B32A32_UINT) 1000 i in y; the second array element's z 7 (x + y).
  std::vector<float> texels(16 * 16 * 4), second(16 * 16 * 4);
  for (uint32_t y = 0; y < 16; ++y)
    for (uint32_t x = 0; x < 16; ++x)
      for (uint32_t c = 0; c < 4; ++c) {
        texels[(y * 16 + x) * 4 + c] = 10.0f * float(y * 16 + x);
        second[(y * 16 + x) * 4 + c] = 7.0f * float(x + y);
      }
  auto bytes = [](const std::vector<float> &v) {
    std::vector<uint8_t> b(v.size() * 4);
    std::memcpy(b.data(), v.data(), b.size());
    return b;
  };
  req.buffers[{0, 0}] = bytes(texels);
  req.buffers[{0, 3}] = *bufferFromSpec("series:vec4<uint32>:0:1000:16", files);
  req.buffers[{0, 4}] = *bufferFromSpec("zero:64", files);
  std::vector<uint8_t> arrays = bytes(second);
  arrays.insert(arrays.begin(), arrays.size(), 0); // element 0 zeros, element 1 `second`
  req.buffers[{1, 0}] = arrays;
  auto r = runShader(*ctx_, *mi, req);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->validationMessages.empty()) << r->validationMessages.front();
  const std::vector<uint8_t> &image = r->buffers.at({0, 2});
  ASSERT_EQ(image.size(), 16u * 16 * 4); // R32_UINT, as the module declares
  std::vector<uint32_t> out(16), img(16 * 16);
  std::memcpy(out.data(), r->buffers.at({0, 4}).data(), 64);
  std::memcpy(img.data(), image.data(), image.size());
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 4; ++x) {
      const uint32_t i = y * 4 + x;
      EXPECT_EQ(img[y * 16 + x], 10 * (y * 16 + x) + 1000 * i) << x << "," << y;
      EXPECT_EQ(out[i], 7 * (x + y)) << x << "," << y;
    }
  EXPECT_EQ(img[4], 0u);                   // not written
  EXPECT_EQ(r->buffers.count({0, 1}), 0u); // a sampler reads back nothing
  EXPECT_EQ(r->buffers.at({1, 0}).size(), 2u * 16 * 16 * 16);
  // Another view of the texel buffer: one component per element, so y reads 0.
  req.formats[{0, 3}] = VK_FORMAT_R32_UINT;
  r = runShader(*ctx_, *mi, req);
  ASSERT_TRUE(r.ok()) << r.error().message;
  std::memcpy(img.data(), r->buffers.at({0, 2}).data(), img.size() * 4);
  EXPECT_EQ(img[16 + 1], 10u * 17);
  auto errorOf = [&] {
    auto e = runShader(*ctx_, *mi, req);
    return e ? std::string("no error") : e.error().message;
  };
  req.buffers[{0, 1}] = {1, 2, 3, 4};
  EXPECT_EQ(errorOf(), "binding 0:1 is a sampler: it takes no data");
}

TEST_F(Runner, AStorageImageReadWithoutAFormat) {
  auto words = compileGlsl(R"(#version 450
#extension GL_EXT_shader_image_load_formatted : require
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) uniform uimage2D src;
layout(set = 0, binding = 1) writeonly uniform uimage2D dst;
void main() {
  ivec2 p = ivec2(gl_LocalInvocationID.x, 0);
  imageStore(dst, p, imageLoad(src, p) + 1);
}
)",
                           ShaderStage::Compute, "");
  ASSERT_TRUE(words.ok()) << words.error().message;
  auto mi = interfaceOf(*words);
  ASSERT_TRUE(mi.ok()) << mi.error().message;
  EXPECT_TRUE(mi->find(0, 0)->texelsRead);
  EXPECT_FALSE(mi->find(0, 1)->texelsRead);
  ShaderRunRequest req;
  req.words = *words;
  req.buffers[{0, 0}] = std::vector<uint8_t>(16 * 16 * 16, 2);
  auto r = runShader(*ctx_, *mi, req);
  if (auto why = unmetBindingRequirement(*ctx_, *mi, req)) {
    EXPECT_EQ(*why, ctx_->deviceName() + " cannot read R32G32B32A32_UINT without a format "
                                         "(binding 0:0, which the module reads without one)");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, *why);
    return;
  }
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->buffers.at({0, 1})[0], 3u);
}

TEST_F(Runner, ADepthComparisonOnAD32Texture) {
  auto words = compileGlsl(R"(#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) uniform texture2D depth;
layout(set = 0, binding = 1) uniform samplerShadow cmp;
layout(set = 0, binding = 2) buffer Out { float v[]; } o;
void main() {
  vec2 uv = vec2((float(gl_LocalInvocationID.x) + 0.5) / 16.0, 0.5 / 16.0);
  o.v[gl_LocalInvocationID.x] = textureLod(sampler2DShadow(depth, cmp), vec3(uv, 0.5), 0.0);
}
)",
                           ShaderStage::Compute, "");
  ASSERT_TRUE(words.ok()) << words.error().message;
  auto mi = interfaceOf(*words);
  ASSERT_TRUE(mi.ok()) << mi.error().message;
  ShaderRunRequest req;
  req.words = *words;
  req.formats[{0, 0}] = VK_FORMAT_D32_SFLOAT;
  SamplerDesc less;
  less.compare = true;
  less.compareOp = VK_COMPARE_OP_LESS;
  req.samplers[{0, 1}] = less;
  std::vector<float> texels(16 * 16);
  for (size_t i = 0; i < texels.size(); ++i)
    texels[i] = i % 2 ? 0.75f : 0.25f;
  req.buffers[{0, 0}].resize(texels.size() * 4);
  std::memcpy(req.buffers[{0, 0}].data(), texels.data(), texels.size() * 4);
  req.buffers[{0, 2}] = std::vector<uint8_t>(16, 0xFF);
  auto r = runShader(*ctx_, *mi, req);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->validationMessages.empty()) << r->validationMessages.front();
  std::vector<float> out(4);
  std::memcpy(out.data(), r->buffers.at({0, 2}).data(), 16);
  EXPECT_EQ(out, (std::vector<float>{0, 1, 0, 1})); // 0.5 < 0.25, 0.5 < 0.75, ...
  EXPECT_EQ(r->buffers.at({0, 0}).size(), 16u * 16 * 4);
}

TEST_F(Runner, AShaderWithARuntimeArrayOfDescriptors) {
  auto words = compileGlsl(R"(#version 450
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Out { uint v[4]; } o[];
void main() { o[gl_WorkGroupID.x + 1].v[gl_LocalInvocationIndex] += 5; }
)",
                           ShaderStage::Compute, "");
  ASSERT_TRUE(words.ok()) << words.error().message;
  auto mi = interfaceOf(*words);
  ASSERT_TRUE(mi.ok()) << mi.error().message;
  ASSERT_EQ(mi->resources.size(), 1u);
  EXPECT_EQ(mi->resources[0].count, 0u);
  ShaderRunRequest req;
  req.words = *words;
  req.buffers[{0, 0}] = std::vector<uint8_t>(3 * 16, 1);
  auto r = runShader(*ctx_, *mi, req);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "binding 0:0 is a runtime array of descriptors; give how many to bind (--descriptors)");
  if (auto why = unmetModuleRequirement(*ctx_, *mi))
    GTEST_SKIP() << *why;
  req.runtimeArrayDescriptors = 3;
  r = runShader(*ctx_, *mi, req);
  ASSERT_TRUE(r.ok()) << r.error().message;
  std::vector<uint8_t> want(3 * 16, 1);
  for (size_t i = 16; i < 32; i += 4)
    want[i] = 6;
  EXPECT_EQ(r->buffers.at({0, 0}), want);
}

} // namespace
} // namespace spire::run
