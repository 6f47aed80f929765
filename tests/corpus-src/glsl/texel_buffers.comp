// target-env: vulkan1.0
// glslang: -V --target-env vulkan1.0
// Skinning of a vertex stream through texel buffers: uniform texel buffers for positions and
// bone indices, storage texel buffers with formats for the results, and an image atomic
// exchange on a texel buffer used as a dirty mask.
#version 450

layout(local_size_x = 64) in;

layout(set = 0, binding = 0) uniform samplerBuffer positions;
layout(set = 0, binding = 1) uniform usamplerBuffer boneIndices;
layout(set = 0, binding = 2) uniform samplerBuffer boneRows;
layout(set = 0, binding = 3, rgba32f) uniform writeonly imageBuffer skinnedPositions;
layout(set = 0, binding = 4, rgba8_snorm) uniform writeonly imageBuffer skinnedNormals;
layout(set = 0, binding = 5, r32ui) uniform coherent uimageBuffer dirtyMask;
layout(set = 0, binding = 6, rg16i) uniform readonly iimageBuffer packedNormals;

mat4 boneMatrix(uint bone) {
  int base = int(bone) * 3;
  vec4 r0 = texelFetch(boneRows, base + 0);
  vec4 r1 = texelFetch(boneRows, base + 1);
  vec4 r2 = texelFetch(boneRows, base + 2);
  return transpose(mat4(r0, r1, r2, vec4(0.0, 0.0, 0.0, 1.0)));
}

vec3 unpackNormal(ivec2 packed) {
  vec2 e = vec2(packed) / 32767.0;
  vec3 n = vec3(e, 1.0 - abs(e.x) - abs(e.y));
  float t = max(-n.z, 0.0);
  n.xy += vec2(n.x >= 0.0 ? -t : t, n.y >= 0.0 ? -t : t);
  return normalize(n);
}

void main() {
  int v = int(gl_GlobalInvocationID.x);
  if (v >= textureSize(positions))
    return;
  vec4 p = vec4(texelFetch(positions, v).xyz, 1.0);
  uvec4 bones = texelFetch(boneIndices, v);
  mat4 m = boneMatrix(bones.x) * 0.4 + boneMatrix(bones.y) * 0.3 + boneMatrix(bones.z) * 0.2 +
           boneMatrix(bones.w) * 0.1;
  vec4 skinned = m * p;
  vec3 n = normalize(mat3(m) * unpackNormal(imageLoad(packedNormals, v).xy));
  imageStore(skinnedPositions, v, skinned);
  imageStore(skinnedNormals, v, vec4(n, 0.0));
  if (distance(skinned.xyz, p.xyz) > 0.001)
    imageAtomicExchange(dirtyMask, v / 32, 1u);
  imageAtomicOr(dirtyMask, imageSize(dirtyMask) - 1, 1u << uint(v & 31));
}
