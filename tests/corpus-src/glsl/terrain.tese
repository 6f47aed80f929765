// target-env: vulkan1.0
// glslang: -V --target-env vulkan1.0 -g
// Terrain tessellation evaluation: bilinear patch interpolation, height map displacement with an
// explicit level of detail, normals from central differences, clip distances for water planes.
#version 450

layout(quads, fractional_odd_spacing, ccw) in;

layout(location = 0) in vec2 inUV[];
layout(location = 1) in vec3 inWorldPos[];
layout(location = 2) patch in float patchLod;

layout(location = 0) out vec3 outWorldPos;
layout(location = 1) out vec3 outNormal;
layout(location = 2) out vec2 outUV;
layout(location = 3) out float outHeight;

out gl_PerVertex {
  vec4 gl_Position;
  float gl_ClipDistance[1];
};

layout(set = 0, binding = 0, std140) uniform TerrainParams {
  mat4 viewProj;
  vec4 frustumPlanes[6];
  vec2 viewport;
  float trianglePixels;
  float maxDisplacement;
  float maxLevel;
} params;

layout(set = 0, binding = 1) uniform sampler2D heightMap;
layout(set = 0, binding = 2, std140) uniform Water { vec4 clipPlane; } water;

float heightAt(vec2 uv) {
  return textureLod(heightMap, uv, patchLod).r * params.maxDisplacement;
}

void main() {
  vec2 uv0 = mix(inUV[0], inUV[1], gl_TessCoord.x);
  vec2 uv1 = mix(inUV[3], inUV[2], gl_TessCoord.x);
  vec2 uv = mix(uv0, uv1, gl_TessCoord.y);
  vec3 p0 = mix(inWorldPos[0], inWorldPos[1], gl_TessCoord.x);
  vec3 p1 = mix(inWorldPos[3], inWorldPos[2], gl_TessCoord.x);
  vec3 pos = mix(p0, p1, gl_TessCoord.y);

  float h = heightAt(uv);
  pos.y += h;

  vec2 texel = 1.0 / vec2(textureSize(heightMap, 0));
  float hl = heightAt(uv - vec2(texel.x, 0.0));
  float hr = heightAt(uv + vec2(texel.x, 0.0));
  float hd = heightAt(uv - vec2(0.0, texel.y));
  float hu = heightAt(uv + vec2(0.0, texel.y));
  vec3 n = normalize(vec3(hl - hr, 2.0 * texel.x * 64.0, hd - hu));

  outWorldPos = pos;
  outNormal = n;
  outUV = uv;
  outHeight = h / params.maxDisplacement;
  gl_Position = params.viewProj * vec4(pos, 1.0);
  gl_ClipDistance[0] = dot(vec4(pos, 1.0), water.clipPlane);
}
