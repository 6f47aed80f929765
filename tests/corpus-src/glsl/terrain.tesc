// target-env: vulkan1.0
// glslang: -V --target-env vulkan1.0
// Terrain tessellation control: per-edge tessellation levels from the screen-space size of each
// edge, frustum culling of whole patches, and per-patch data passed to the evaluation stage.
#version 450

layout(vertices = 4) out;

layout(location = 0) in vec2 inUV[];
layout(location = 1) in vec3 inWorldPos[];

layout(location = 0) out vec2 outUV[4];
layout(location = 1) out vec3 outWorldPos[4];
layout(location = 2) patch out float patchLod;

layout(set = 0, binding = 0, std140) uniform TerrainParams {
  mat4 viewProj;
  vec4 frustumPlanes[6];
  vec2 viewport;
  float trianglePixels;
  float maxDisplacement;
  float maxLevel;
} params;

float edgeLevel(vec3 a, vec3 b) {
  vec4 ca = params.viewProj * vec4(a, 1.0);
  vec4 cb = params.viewProj * vec4(b, 1.0);
  vec2 sa = ca.xy / ca.w * 0.5 * params.viewport;
  vec2 sb = cb.xy / cb.w * 0.5 * params.viewport;
  float pixels = distance(sa, sb);
  return clamp(pixels / params.trianglePixels, 1.0, params.maxLevel);
}

bool patchVisible() {
  vec3 lo = min(min(inWorldPos[0], inWorldPos[1]), min(inWorldPos[2], inWorldPos[3]));
  vec3 hi = max(max(inWorldPos[0], inWorldPos[1]), max(inWorldPos[2], inWorldPos[3]));
  lo.y -= params.maxDisplacement;
  hi.y += params.maxDisplacement;
  for (int i = 0; i < 6; ++i) {
    vec4 plane = params.frustumPlanes[i];
    vec3 positive = mix(lo, hi, greaterThanEqual(plane.xyz, vec3(0.0)));
    if (dot(plane.xyz, positive) + plane.w < 0.0)
      return false;
  }
  return true;
}

void main() {
  outUV[gl_InvocationID] = inUV[gl_InvocationID];
  outWorldPos[gl_InvocationID] = inWorldPos[gl_InvocationID];
  barrier();

  if (gl_InvocationID == 0) {
    if (!patchVisible()) {
      gl_TessLevelOuter[0] = 0.0;
      gl_TessLevelOuter[1] = 0.0;
      gl_TessLevelOuter[2] = 0.0;
      gl_TessLevelOuter[3] = 0.0;
      gl_TessLevelInner[0] = 0.0;
      gl_TessLevelInner[1] = 0.0;
      patchLod = 0.0;
      return;
    }
    // Quad domain: outer levels for edges u=0, v=0, u=1, v=1.
    gl_TessLevelOuter[0] = edgeLevel(inWorldPos[3], inWorldPos[0]);
    gl_TessLevelOuter[1] = edgeLevel(inWorldPos[0], inWorldPos[1]);
    gl_TessLevelOuter[2] = edgeLevel(inWorldPos[1], inWorldPos[2]);
    gl_TessLevelOuter[3] = edgeLevel(inWorldPos[2], inWorldPos[3]);
    gl_TessLevelInner[0] = mix(gl_TessLevelOuter[1], gl_TessLevelOuter[3], 0.5);
    gl_TessLevelInner[1] = mix(gl_TessLevelOuter[0], gl_TessLevelOuter[2], 0.5);
    patchLod = log2(max(gl_TessLevelInner[0], gl_TessLevelInner[1]));
  }
  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
}
