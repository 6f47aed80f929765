// target-env: vulkan1.2
// glslang: -V --target-env vulkan1.2
// Wide and floating-point atomics: a 64-bit packed depth+id visibility buffer (atomicMin on
// uint64), 64-bit counters, float add/exchange on buffers and shared memory, and float min/max.
#version 460
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
#extension GL_EXT_shader_atomic_float : require
#extension GL_EXT_shader_atomic_float2 : require

layout(local_size_x = 64) in;

struct Splat {
  vec3 position;
  float weight;
  uint id;
  uint pad0, pad1, pad2;
};

layout(set = 0, binding = 0, std430) readonly buffer Splats { Splat splats[]; };
layout(set = 0, binding = 1, std430) buffer Visibility { uint64_t visibility[]; };
layout(set = 0, binding = 2, std430) buffer Stats {
  uint64_t totalWeightFixed;
  int64_t signedBalance;
  float totalWeight;
  float minDepth;
  float maxDepth;
  float lastWeight;
} stats;
layout(set = 0, binding = 3, std430) buffer Density { float density[]; };

layout(push_constant) uniform Push {
  mat4 viewProj;
  uvec2 resolution;
  uint count;
} push;

shared float groupWeight;
shared uint64_t groupMinKey;

void main() {
  if (gl_LocalInvocationIndex == 0u) {
    groupWeight = 0.0;
    groupMinKey = 0xFFFFFFFFFFFFFFFFul;
  }
  barrier();

  uint i = gl_GlobalInvocationID.x;
  if (i < push.count) {
    Splat s = splats[i];
    vec4 clip = push.viewProj * vec4(s.position, 1.0);
    if (clip.w > 0.0) {
      vec3 ndc = clip.xyz / clip.w;
      if (all(lessThan(abs(ndc.xy), vec2(1.0))) && ndc.z >= 0.0 && ndc.z <= 1.0) {
        uvec2 pixel = uvec2((ndc.xy * 0.5 + 0.5) * vec2(push.resolution));
        uint index = pixel.y * push.resolution.x + pixel.x;
        uint depthBits = floatBitsToUint(ndc.z);
        uint64_t key = (uint64_t(depthBits) << 32) | uint64_t(s.id);
        atomicMin(visibility[index], key);
        atomicMin(groupMinKey, key);
        atomicAdd(density[index], s.weight);
        atomicMin(stats.minDepth, ndc.z);
        atomicMax(stats.maxDepth, ndc.z);
      }
    }
    atomicAdd(groupWeight, s.weight);
    atomicAdd(stats.totalWeightFixed, uint64_t(s.weight * 65536.0));
    atomicAdd(stats.signedBalance, s.weight > 0.5 ? 1l : -1l);
  }
  barrier();
  if (gl_LocalInvocationIndex == 0u) {
    atomicAdd(stats.totalWeight, groupWeight);
    atomicExchange(stats.lastWeight, groupWeight);
    if (groupMinKey != 0xFFFFFFFFFFFFFFFFul)
      atomicMin(visibility[0], groupMinKey);
  }
}
