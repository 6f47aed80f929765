// target-env: vulkan1.0
// glslang: -V --target-env vulkan1.0
// Forward PBR fragment shader: material textures, a light list sized by a specialization
// constant, cascaded shadow maps with PCF, alpha cutout with discard, emissive and fog.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "include/brdf.glsl"

layout(constant_id = 0) const int MAX_LIGHTS = 16;
layout(constant_id = 1) const int CASCADES = 4;
layout(constant_id = 2) const bool ALPHA_CUTOUT = false;
layout(constant_id = 3) const float FOG_DENSITY = 0.015;

layout(location = 0) in vec3 inWorldPos;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec4 inTangent;
layout(location = 3) in vec2 inUV;
layout(location = 4) flat in uint inMaterial;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 1, std140) uniform Scene {
  mat4 cascadeViewProj[4];
  vec4 cascadeSplits;
  vec4 cameraPos;
  vec4 fogColor;
  int lightCount;
} scene;

layout(set = 0, binding = 2, std140) uniform Lights { Light lights[MAX_LIGHTS]; };
layout(set = 0, binding = 3) uniform sampler2DArrayShadow shadowMap;

layout(set = 2, binding = 0) uniform sampler2D baseColorTex;
layout(set = 2, binding = 1) uniform sampler2D normalTex;
layout(set = 2, binding = 2) uniform sampler2D metalRoughTex;
layout(set = 2, binding = 3) uniform sampler2D emissiveTex;

layout(set = 2, binding = 4, std140) uniform Material {
  vec4 baseColorFactor;
  vec3 emissiveFactor;
  float metallicFactor;
  float roughnessFactor;
  float alphaCutoff;
  float normalScale;
} material;

int selectCascade(float viewDepth) {
  int cascade = 0;
  for (int i = 0; i < CASCADES - 1; ++i) {
    if (viewDepth > scene.cascadeSplits[i])
      cascade = i + 1;
  }
  return cascade;
}

float sampleShadow(vec3 worldPos, vec3 n) {
  float viewDepth = distance(worldPos, scene.cameraPos.xyz);
  int cascade = selectCascade(viewDepth);
  vec4 clip = scene.cascadeViewProj[cascade] * vec4(worldPos + n * 0.02, 1.0);
  vec3 ndc = clip.xyz / clip.w;
  vec2 uv = ndc.xy * 0.5 + 0.5;
  if (any(lessThan(uv, vec2(0.0))) || any(greaterThan(uv, vec2(1.0))))
    return 1.0;
  vec2 texel = 1.0 / vec2(textureSize(shadowMap, 0).xy);
  float lit = 0.0;
  for (int y = -1; y <= 1; ++y)
    for (int x = -1; x <= 1; ++x)
      lit += texture(shadowMap, vec4(uv + vec2(x, y) * texel, float(cascade), ndc.z - 0.001));
  return lit / 9.0;
}

vec3 perturbNormal(vec3 n) {
  vec3 t = normalize(inTangent.xyz - n * dot(n, inTangent.xyz));
  vec3 b = cross(n, t) * inTangent.w;
  vec3 m = texture(normalTex, inUV).xyz * 2.0 - 1.0;
  m.xy *= material.normalScale;
  return normalize(mat3(t, b, n) * m);
}

void main() {
  vec4 base = texture(baseColorTex, inUV) * material.baseColorFactor;
  if (ALPHA_CUTOUT && base.a < material.alphaCutoff)
    discard;

  vec3 n = perturbNormal(normalize(inNormal));
  if (!gl_FrontFacing)
    n = -n;
  vec3 v = normalize(scene.cameraPos.xyz - inWorldPos);
  vec2 mr = texture(metalRoughTex, inUV).bg;
  float metallic = mr.x * material.metallicFactor;
  float roughness = clamp(mr.y * material.roughnessFactor, 0.04, 1.0);

  vec3 color = vec3(0.0);
  int count = min(scene.lightCount, MAX_LIGHTS);
  for (int i = 0; i < count; ++i) {
    vec3 contribution = shadeLight(lights[i], inWorldPos, n, v, base.rgb, metallic, roughness);
    if (i == 0)
      contribution *= sampleShadow(inWorldPos, n);
    color += contribution;
  }
  color += base.rgb * 0.03;
  color += texture(emissiveTex, inUV).rgb * material.emissiveFactor;

  float fog = 1.0 - exp(-FOG_DENSITY * distance(inWorldPos, scene.cameraPos.xyz));
  outColor = vec4(mix(color, scene.fogColor.rgb, fog), base.a);
}
