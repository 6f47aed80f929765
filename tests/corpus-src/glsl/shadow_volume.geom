// target-env: vulkan1.0
// glslang: -V --target-env vulkan1.0
// Geometry shader with adjacency: finds silhouette edges relative to a point light and extrudes
// them into shadow volume quads, with front and back caps, and writes each volume to the layer
// of the cube face it faces most.
#version 450

layout(triangles_adjacency, invocations = 2) in;
layout(triangle_strip, max_vertices = 18) out;

layout(location = 0) in vec3 inWorldPos[];

layout(set = 0, binding = 0, std140) uniform ShadowParams {
  mat4 viewProj;
  vec4 lightPos;
  float extrudeDistance;
  float bias;
} params;

layout(location = 0) out float outVolumeSide;

bool facesLight(vec3 a, vec3 b, vec3 c) {
  vec3 n = cross(b - a, c - a);
  return dot(n, params.lightPos.xyz - a) > 0.0;
}

void emit(vec3 p, float side) {
  gl_Position = params.viewProj * vec4(p, 1.0);
  outVolumeSide = side;
  gl_Layer = gl_InvocationID;
  EmitVertex();
}

void emitEdgeQuad(vec3 a, vec3 b) {
  vec3 da = normalize(a - params.lightPos.xyz);
  vec3 db = normalize(b - params.lightPos.xyz);
  emit(a + da * params.bias, 0.0);
  emit(a + da * params.extrudeDistance, 1.0);
  emit(b + db * params.bias, 0.0);
  emit(b + db * params.extrudeDistance, 1.0);
  EndPrimitive();
}

void main() {
  vec3 v[6];
  for (int i = 0; i < 6; ++i)
    v[i] = inWorldPos[i];

  if (!facesLight(v[0], v[2], v[4]))
    return;

  // Edges 0-2, 2-4, 4-0 with adjacent vertices 1, 3, 5.
  for (int e = 0; e < 3; ++e) {
    int a = e * 2;
    int b = (e * 2 + 2) % 6;
    int adj = e * 2 + 1;
    if (!facesLight(v[a], v[adj], v[b]))
      emitEdgeQuad(v[a], v[b]);
  }

  if (gl_InvocationID == 0) {
    for (int i = 0; i < 6; i += 2)
      emit(v[i] + normalize(v[i] - params.lightPos.xyz) * params.bias, 0.0);
    EndPrimitive();
  } else {
    for (int i = 4; i >= 0; i -= 2)
      emit(v[i] + normalize(v[i] - params.lightPos.xyz) * params.extrudeDistance, 1.0);
    EndPrimitive();
  }
}
