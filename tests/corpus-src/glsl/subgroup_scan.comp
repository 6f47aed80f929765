// target-env: vulkan1.2
// glslang: -V --target-env vulkan1.2
// Workgroup prefix sums and reductions built from subgroup arithmetic (inclusive and exclusive
// scans, add/mul/min/max/and/or/xor reductions), clustered reductions for 4- and 8-wide tiles,
// and shuffles (xor butterfly, up/down, indexed) for a bitonic sort of each subgroup.
#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require

layout(local_size_x = 128) in;

layout(set = 0, binding = 0, std430) buffer Data { uint values[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Prefix { uint prefix[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Sorted { float sorted[]; };
layout(set = 0, binding = 3, std430) writeonly buffer Summary {
  uint sum, product, minimum, maximum, andBits, orBits, xorBits;
  float tileSums[];
} summary;
layout(set = 0, binding = 4, std430) readonly buffer Keys { float keys[]; };

shared uint subgroupTotals[128];

float bitonicSort(float key) {
  uint lane = gl_SubgroupInvocationID;
  for (uint size = 2u; size <= gl_SubgroupSize; size <<= 1) {
    for (uint stride = size >> 1; stride > 0u; stride >>= 1) {
      float other = subgroupShuffleXor(key, stride);
      bool ascending = (lane & size) == 0u;
      bool lower = (lane & stride) == 0u;
      key = (lower == ascending) ? min(key, other) : max(key, other);
    }
  }
  return key;
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint v = values[i];

  uint inclusive = subgroupInclusiveAdd(v);
  uint exclusive = subgroupExclusiveAdd(v);
  if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u)
    subgroupTotals[gl_SubgroupID] = inclusive;
  barrier();

  if (gl_SubgroupID == 0u) {
    uint total = gl_SubgroupInvocationID < gl_NumSubgroups
                     ? subgroupTotals[gl_SubgroupInvocationID] : 0u;
    subgroupTotals[gl_SubgroupInvocationID] = subgroupExclusiveAdd(total);
  }
  barrier();
  prefix[i] = subgroupTotals[gl_SubgroupID] + exclusive;

  uint sum = subgroupAdd(v);
  uint product = subgroupMul(v | 1u);
  uint lo = subgroupMin(v);
  uint hi = subgroupMax(v);
  uint andBits = subgroupAnd(v);
  uint orBits = subgroupOr(v);
  uint xorBits = subgroupXor(v);
  uint runningMax = subgroupInclusiveMax(v);
  uint runningMin = subgroupExclusiveMin(v);
  if (gl_GlobalInvocationID.x == 0u) {
    summary.sum = sum;
    summary.product = product;
    summary.minimum = lo;
    summary.maximum = hi;
    summary.andBits = andBits;
    summary.orBits = orBits;
    summary.xorBits = xorBits ^ runningMax ^ runningMin;
  }

  float key = keys[i];
  float quad = subgroupClusteredAdd(key, 4u);
  float octet = subgroupClusteredMax(key, 8u);
  uint octetMask = subgroupClusteredOr(v, 8u);
  if ((gl_SubgroupInvocationID & 3u) == 0u)
    summary.tileSums[i / 4u] = quad + octet * float(octetMask & 1u);

  float previous = subgroupShuffleUp(key, 1u);
  float next = subgroupShuffleDown(key, 1u);
  float mirrored = subgroupShuffle(key, gl_SubgroupSize - 1u - gl_SubgroupInvocationID);
  float smoothed = (previous + 2.0 * key + next) * 0.25 + mirrored * 0.0;
  sorted[i] = bitonicSort(smoothed);
}
