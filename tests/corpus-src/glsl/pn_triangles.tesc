// target-env: vulkan1.1
// glslang: -V --target-env vulkan1.1
// Curved PN-triangle tessellation control: computes the cubic Bezier control net and quadratic
// normal coefficients per patch, and adaptive tessellation levels from view distance and
// silhouette strength.
#version 450

layout(vertices = 3) out;

layout(location = 0) in vec3 inPosition[];
layout(location = 1) in vec3 inNormal[];
layout(location = 2) in vec2 inUV[];

layout(location = 0) out vec3 outPosition[3];
layout(location = 1) out vec3 outNormal[3];
layout(location = 2) out vec2 outUV[3];

struct PnPatch {
  vec3 b210, b120, b021, b012, b102, b201, b111;
  vec3 n110, n011, n101;
};
layout(location = 3) patch out PnPatch pn;

layout(set = 0, binding = 0, std140) uniform Params {
  vec4 cameraPos;
  float baseLevel;
  float maxLevel;
  float distanceFalloff;
  float silhouetteBoost;
} params;

vec3 edgeControl(vec3 pi, vec3 pj, vec3 ni) {
  return (2.0 * pi + pj - dot(pj - pi, ni) * ni) / 3.0;
}

vec3 edgeNormal(vec3 pi, vec3 pj, vec3 ni, vec3 nj) {
  vec3 d = pj - pi;
  float v = 2.0 * dot(d, ni + nj) / dot(d, d);
  return normalize(ni + nj - v * d);
}

float edgeLevel(int a, int b) {
  vec3 mid = (inPosition[a] + inPosition[b]) * 0.5;
  float dist = distance(mid, params.cameraPos.xyz);
  vec3 view = normalize(params.cameraPos.xyz - mid);
  float silhouette = 1.0 - abs(dot(normalize(inNormal[a] + inNormal[b]), view));
  float level = params.baseLevel / (1.0 + dist * params.distanceFalloff);
  level *= 1.0 + silhouette * params.silhouetteBoost;
  return clamp(level, 1.0, params.maxLevel);
}

void main() {
  outPosition[gl_InvocationID] = inPosition[gl_InvocationID];
  outNormal[gl_InvocationID] = normalize(inNormal[gl_InvocationID]);
  outUV[gl_InvocationID] = inUV[gl_InvocationID];

  if (gl_InvocationID != 0)
    return;
  vec3 p0 = inPosition[0], p1 = inPosition[1], p2 = inPosition[2];
  vec3 n0 = normalize(inNormal[0]), n1 = normalize(inNormal[1]), n2 = normalize(inNormal[2]);
  pn.b210 = edgeControl(p0, p1, n0);
  pn.b120 = edgeControl(p1, p0, n1);
  pn.b021 = edgeControl(p1, p2, n1);
  pn.b012 = edgeControl(p2, p1, n2);
  pn.b102 = edgeControl(p2, p0, n2);
  pn.b201 = edgeControl(p0, p2, n0);
  vec3 e = (pn.b210 + pn.b120 + pn.b021 + pn.b012 + pn.b102 + pn.b201) / 6.0;
  vec3 v = (p0 + p1 + p2) / 3.0;
  pn.b111 = e + (e - v) * 0.5;
  pn.n110 = edgeNormal(p0, p1, n0, n1);
  pn.n011 = edgeNormal(p1, p2, n1, n2);
  pn.n101 = edgeNormal(p2, p0, n2, n0);

  gl_TessLevelOuter[0] = edgeLevel(1, 2);
  gl_TessLevelOuter[1] = edgeLevel(2, 0);
  gl_TessLevelOuter[2] = edgeLevel(0, 1);
  gl_TessLevelInner[0] = max(gl_TessLevelOuter[0], max(gl_TessLevelOuter[1], gl_TessLevelOuter[2]));
}
