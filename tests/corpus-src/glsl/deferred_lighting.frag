// target-env: vulkan1.0
// glslang: -V --target-env vulkan1.0
// Deferred lighting pass reading the G-buffer through input attachments of the same render pass
// (one of them multisampled), reconstructing the position from depth, and accumulating lights.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "include/brdf.glsl"

layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput gAlbedoMetal;
layout(input_attachment_index = 1, set = 0, binding = 1) uniform subpassInput gNormalRough;
layout(input_attachment_index = 2, set = 0, binding = 2) uniform subpassInput gDepth;
layout(input_attachment_index = 3, set = 0, binding = 3) uniform subpassInputMS gVelocityMS;

layout(set = 0, binding = 4, std140) uniform Frame {
  mat4 invViewProj;
  vec4 cameraPos;
  vec2 invResolution;
  int lightCount;
  int sampleCount;
} frame;

layout(set = 0, binding = 5, std430) readonly buffer LightBuffer { Light lights[]; };

layout(location = 0) out vec4 outColor;
layout(location = 1) out vec2 outVelocity;

vec3 decodeOctahedral(vec2 e) {
  vec3 n = vec3(e, 1.0 - abs(e.x) - abs(e.y));
  if (n.z < 0.0)
    n.xy = (1.0 - abs(n.yx)) * vec2(n.x >= 0.0 ? 1.0 : -1.0, n.y >= 0.0 ? 1.0 : -1.0);
  return normalize(n);
}

void main() {
  vec4 albedoMetal = subpassLoad(gAlbedoMetal);
  vec4 normalRough = subpassLoad(gNormalRough);
  float depth = subpassLoad(gDepth).r;
  if (depth >= 1.0) {
    outColor = vec4(0.0);
    outVelocity = vec2(0.0);
    return;
  }

  vec2 ndc = gl_FragCoord.xy * frame.invResolution * 2.0 - 1.0;
  vec4 world = frame.invViewProj * vec4(ndc, depth, 1.0);
  vec3 pos = world.xyz / world.w;
  vec3 n = decodeOctahedral(normalRough.xy * 2.0 - 1.0);
  vec3 v = normalize(frame.cameraPos.xyz - pos);

  vec3 color = vec3(0.0);
  for (int i = 0; i < frame.lightCount; ++i)
    color += shadeLight(lights[i], pos, n, v, albedoMetal.rgb, albedoMetal.a, normalRough.w);

  vec2 velocity = vec2(0.0);
  for (int s = 0; s < frame.sampleCount; ++s)
    velocity += subpassLoad(gVelocityMS, s).xy;
  outVelocity = velocity / float(max(frame.sampleCount, 1));
  outColor = vec4(color, 1.0);
}
