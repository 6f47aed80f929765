// target-env: vulkan1.0
// glslang: -V --target-env vulkan1.0
// The sampling variants of a material system: implicit and explicit LOD, gradients, offsets,
// projective and shadow lookups, gathers (with offsets and compare), texel fetches from 3D,
// array, cube, cube array and multisampled textures, size/levels/samples/LOD queries, and sparse
// residency feedback with a fallback to a coarser level.
#version 450
#extension GL_ARB_sparse_texture2 : require
#extension GL_ARB_sparse_texture_clamp : require

layout(location = 0) in vec3 inUVW;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec4 inShadowCoord;
layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D virtualTexture;
layout(set = 0, binding = 1) uniform sampler2DArray layers;
layout(set = 0, binding = 2) uniform samplerCube environment;
layout(set = 0, binding = 3) uniform samplerCubeArray probes;
layout(set = 0, binding = 4) uniform sampler3D volume;
layout(set = 0, binding = 5) uniform sampler2DShadow shadow;
layout(set = 0, binding = 6) uniform sampler2DMS msColor;
layout(set = 0, binding = 7) uniform isampler2D materialIds;
layout(set = 0, binding = 8) uniform sampler1D ramp;

layout(push_constant) uniform Push {
  float lodBias;
  float minLod;
  int probeIndex;
  int samples;
} push;

const ivec2 GATHER_OFFSETS[4] = ivec2[](ivec2(-1, -1), ivec2(1, -1), ivec2(-1, 1), ivec2(1, 1));

vec4 sampleVirtual(vec2 uv) {
  vec4 texel;
  int code = sparseTextureClampARB(virtualTexture, uv, push.minLod, texel, push.lodBias);
  if (sparseTexelsResidentARB(code))
    return texel;
  float coarse = float(textureQueryLevels(virtualTexture) - 1);
  code = sparseTextureLodARB(virtualTexture, uv, coarse, texel);
  return sparseTexelsResidentARB(code) ? texel : vec4(1.0, 0.0, 1.0, 1.0);
}

float shadowPcf() {
  vec4 gathered = textureGather(shadow, inShadowCoord.xy, inShadowCoord.z);
  float center = textureProj(shadow, inShadowCoord);
  float offsetSample = textureOffset(shadow, inShadowCoord.xyz, ivec2(1, 0));
  return (dot(gathered, vec4(0.25)) + center + offsetSample) / 3.0;
}

void main() {
  vec2 uv = inUVW.xy;
  vec4 base = sampleVirtual(uv);

  vec2 lodInfo = textureQueryLod(virtualTexture, uv);
  vec4 detail = textureGrad(layers, vec3(uv * 4.0, 1.0), dFdx(uv) * 4.0, dFdy(uv) * 4.0);
  vec4 red = textureGatherOffsets(virtualTexture, uv, GATHER_OFFSETS, 0);
  vec4 alpha = textureGatherOffset(virtualTexture, uv, ivec2(2, 0), 3);

  vec3 r = reflect(-normalize(inUVW), normalize(inNormal));
  vec3 env = textureLod(environment, r, lodInfo.x + 2.0).rgb;
  vec3 probe = texture(probes, vec4(r, float(push.probeIndex))).rgb;
  vec3 fog = textureLodOffset(volume, inUVW, 0.0, ivec3(0, 1, 0)).rgb;
  vec4 fogTexel;
  int fogCode = sparseTexelFetchARB(volume, ivec3(inUVW * 16.0), 0, fogTexel);
  if (!sparseTexelsResidentARB(fogCode))
    fogTexel = vec4(0.0);

  ivec2 msSize = textureSize(msColor);
  vec4 resolved = vec4(0.0);
  for (int s = 0; s < push.samples; ++s)
    resolved += texelFetch(msColor, ivec2(uv * vec2(msSize)), s);
  resolved /= float(max(push.samples, 1));

  int id = texelFetchOffset(materialIds, ivec2(gl_FragCoord.xy), 0, ivec2(0, 0)).r;
  vec4 tint = texture(ramp, float(id & 255) / 255.0);
  vec3 projected = textureProjLod(virtualTexture, vec3(uv, 1.0 + lodInfo.y), 0.0).rgb;

  float lit = shadowPcf();
  vec3 color = base.rgb * detail.rgb * tint.rgb * lit + env * 0.2 + probe * 0.1 +
               fog * fogTexel.a + resolved.rgb * 0.05 + projected * 0.01;
  outColor = vec4(color, dot(red, vec4(0.25)) * alpha.x);
}
