// target-env: vulkan1.1
// glslang: -V --target-env vulkan1.1
// Fragment shader using quad operations: manual derivatives from quad swaps, a quad broadcast of
// the texture footprint to choose a shared mip level, and ordinary derivatives (fine, coarse,
// fwidth) for comparison and edge detection.
#version 450
#extension GL_KHR_shader_subgroup_quad : require
#extension GL_KHR_shader_subgroup_basic : require

layout(location = 0) in vec2 inUV;
layout(location = 1) in vec3 inNormal;
layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform texture2D albedo;
layout(set = 0, binding = 1) uniform sampler linearSampler;

layout(push_constant) uniform Push {
  vec2 textureSize;
  float edgeThreshold;
  int mode;
} push;

void main() {
  vec2 uvPx = inUV * push.textureSize;
  vec2 dx = subgroupQuadSwapHorizontal(uvPx) - uvPx;
  vec2 dy = subgroupQuadSwapVertical(uvPx) - uvPx;
  vec2 diag = subgroupQuadSwapDiagonal(uvPx) - uvPx;
  float footprint = max(dot(dx, dx), dot(dy, dy));
  float quadFootprint = max(max(subgroupQuadBroadcast(footprint, 0u),
                                subgroupQuadBroadcast(footprint, 1u)),
                            max(subgroupQuadBroadcast(footprint, 2u),
                                subgroupQuadBroadcast(footprint, 3u)));
  float lod = 0.5 * log2(max(quadFootprint, 1.0));

  vec4 color = textureLod(sampler2D(albedo, linearSampler), inUV, lod);

  vec3 n = normalize(inNormal);
  vec3 fineX = dFdxFine(n);
  vec3 fineY = dFdyFine(n);
  vec3 coarse = abs(dFdxCoarse(n)) + abs(dFdyCoarse(n));
  float edge = length(fineX) + length(fineY);
  float width = length(fwidth(n)) + length(fwidthFine(n)) * 0.5 + length(fwidthCoarse(n)) * 0.5;

  switch (push.mode) {
  case 0:
    outColor = color;
    break;
  case 1:
    outColor = vec4(vec3(lod / 8.0), 1.0);
    break;
  case 2:
    outColor = vec4(edge > push.edgeThreshold ? vec3(1.0, 0.2, 0.1) : color.rgb, 1.0);
    break;
  case 3:
    outColor = vec4(coarse, width);
    break;
  default:
    outColor = vec4(abs(diag) / push.textureSize, float(gl_SubgroupSize) / 128.0, 1.0);
    break;
  }
}
