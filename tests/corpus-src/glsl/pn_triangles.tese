// target-env: vulkan1.1
// glslang: -V --target-env vulkan1.1
// Curved PN-triangle tessellation evaluation: evaluates the cubic position and quadratic normal
// patches at the barycentric tessellation coordinate, with equal spacing and clockwise winding,
// and blends towards the flat triangle by a smoothness factor.
#version 450

layout(triangles, equal_spacing, cw) in;

layout(location = 0) in vec3 inPosition[];
layout(location = 1) in vec3 inNormal[];
layout(location = 2) in vec2 inUV[];

struct PnPatch {
  vec3 b210, b120, b021, b012, b102, b201, b111;
  vec3 n110, n011, n101;
};
layout(location = 3) patch in PnPatch pn;

layout(location = 0) out vec3 outNormal;
layout(location = 1) out vec2 outUV;
layout(location = 2) out vec3 outWorldPos;

layout(set = 0, binding = 1, std140) uniform Draw {
  mat4 viewProj;
  float smoothness;
} draw;

void main() {
  float u = gl_TessCoord.x, v = gl_TessCoord.y, w = gl_TessCoord.z;
  float uu = u * u, vv = v * v, ww = w * w;
  vec3 p0 = inPosition[0], p1 = inPosition[1], p2 = inPosition[2];

  vec3 curved = p0 * ww * w + p1 * uu * u + p2 * vv * v + pn.b210 * 3.0 * ww * u +
                pn.b120 * 3.0 * w * uu + pn.b201 * 3.0 * ww * v + pn.b021 * 3.0 * uu * v +
                pn.b102 * 3.0 * w * vv + pn.b012 * 3.0 * u * vv + pn.b111 * 6.0 * w * u * v;
  vec3 flat_ = p0 * w + p1 * u + p2 * v;
  vec3 position = mix(flat_, curved, draw.smoothness);

  vec3 n = inNormal[0] * ww + inNormal[1] * uu + inNormal[2] * vv + pn.n110 * w * u +
           pn.n011 * u * v + pn.n101 * w * v;
  vec3 flatNormal = inNormal[0] * w + inNormal[1] * u + inNormal[2] * v;

  outNormal = normalize(mix(flatNormal, n, draw.smoothness));
  outUV = inUV[0] * w + inUV[1] * u + inUV[2] * v;
  outWorldPos = position;
  gl_Position = draw.viewProj * vec4(position, 1.0);
}
