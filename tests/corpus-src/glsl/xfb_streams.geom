// target-env: vulkan1.0
// glslang: -V --target-env vulkan1.0
// Geometry shader that splits triangles into two transform-feedback streams of points (multiple
// streams need point output): stream 0 captures the vertices of midpoint-subdivided triangles as
// a triangle list for later draws, stream 1 gets per-triangle statistics (area, normal).
#version 450

layout(triangles) in;
layout(points, max_vertices = 13) out;

layout(location = 0) in vec3 inPosition[];
layout(location = 1) in vec3 inNormal[];

layout(stream = 0, location = 0, xfb_buffer = 0, xfb_offset = 0, xfb_stride = 24) out vec3 outPosition;
layout(stream = 0, location = 1, xfb_buffer = 0, xfb_offset = 12) out vec3 outNormal;
layout(stream = 1, location = 2, xfb_buffer = 1, xfb_offset = 0, xfb_stride = 16) out vec4 outStats;

layout(set = 0, binding = 0, std140) uniform Params {
  mat4 viewProj;
  float minArea;
  int subdivide;
} params;

void emitVertex(vec3 p, vec3 n) {
  outPosition = p;
  outNormal = normalize(n);
  gl_Position = params.viewProj * vec4(p, 1.0);
  EmitStreamVertex(0);
}

void emitTriangle(vec3 a, vec3 b, vec3 c, vec3 na, vec3 nb, vec3 nc) {
  emitVertex(a, na);
  emitVertex(b, nb);
  emitVertex(c, nc);
}

void main() {
  vec3 a = inPosition[0], b = inPosition[1], c = inPosition[2];
  vec3 cr = cross(b - a, c - a);
  float area = 0.5 * length(cr);
  if (area < params.minArea)
    return;

  outStats = vec4(normalize(cr), area);
  gl_Position = vec4(0.0);
  EmitStreamVertex(1);
  EndStreamPrimitive(1);

  if (params.subdivide == 0) {
    emitTriangle(a, b, c, inNormal[0], inNormal[1], inNormal[2]);
    return;
  }
  vec3 ab = (a + b) * 0.5, bc = (b + c) * 0.5, ca = (c + a) * 0.5;
  vec3 nab = inNormal[0] + inNormal[1], nbc = inNormal[1] + inNormal[2];
  vec3 nca = inNormal[2] + inNormal[0];
  emitTriangle(a, ab, ca, inNormal[0], nab, nca);
  emitTriangle(ab, b, bc, nab, inNormal[1], nbc);
  emitTriangle(ca, bc, c, nca, nbc, inNormal[2]);
  emitTriangle(ab, bc, ca, nab, nbc, nca);
}
