// target-env: vulkan1.1
// glslang: -V --target-env vulkan1.1
// Attribute-less full-screen and instanced-quad vertex shader: positions generated from the
// vertex index, invariant and precise outputs (NoContraction) so that multi-pass effects line
// up exactly, and per-instance rectangles from a storage buffer.
#version 450

struct Rect {
  vec4 bounds;   // x0, y0, x1, y1 in NDC
  vec4 uvBounds; // u0, v0, u1, v1
  float depth;
  uint flags;
  vec2 pad;
};

layout(set = 0, binding = 0, std430) readonly buffer Rects { Rect rects[]; };

layout(push_constant) uniform Push {
  uint mode; // 0 full-screen triangle, 1 instanced rects
  float aspect;
} push;

layout(location = 0) out vec2 outUV;
layout(location = 1) flat out uint outFlags;
layout(location = 2) out float outVignette;

invariant gl_Position;

void main() {
  precise vec2 position;
  vec2 uv;
  if (push.mode == 0u) {
    uv = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
    position = uv * 2.0 - 1.0;
    outFlags = 0u;
    gl_Position = vec4(position, 0.0, 1.0);
  } else {
    Rect r = rects[gl_InstanceIndex];
    vec2 corner = vec2(gl_VertexIndex & 1, (gl_VertexIndex >> 1) & 1);
    position = mix(r.bounds.xy, r.bounds.zw, corner);
    uv = mix(r.uvBounds.xy, r.uvBounds.zw, corner);
    outFlags = r.flags;
    gl_Position = vec4(position, r.depth, 1.0);
  }
  precise float vignette = 1.0 - dot(position * vec2(push.aspect, 1.0), position) * 0.25;
  outVignette = vignette;
  outUV = uv;
}
