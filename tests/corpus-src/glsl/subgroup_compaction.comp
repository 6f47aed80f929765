// target-env: vulkan1.1
// glslang: -V --target-env vulkan1.1
// Stream compaction with subgroup operations: basic (ids, elect, barriers), vote (all, any,
// equal) and ballot (ballot, bit counts, inclusive/exclusive bit counts, find LSB/MSB,
// broadcast, broadcast-first) to give each surviving element its output slot with a single
// atomic per subgroup.
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require

layout(local_size_x = 256) in;

layout(set = 0, binding = 0, std430) readonly buffer Input { vec4 items[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Output { vec4 kept[]; };
layout(set = 0, binding = 2, std430) buffer Counters {
  uint keptCount;
  uint uniformGroups;
  uint allKeptGroups;
  uint firstLaneSum;
  uint lastLaneSum;
} counters;

layout(push_constant) uniform Push {
  vec4 plane;
  uint count;
} push;

void main() {
  uint i = gl_GlobalInvocationID.x;
  bool inRange = i < push.count;
  vec4 item = inRange ? items[i] : vec4(0.0);
  bool keep = inRange && dot(item.xyz, push.plane.xyz) + push.plane.w > -item.w;

  if (subgroupAll(keep) && subgroupElect())
    atomicAdd(counters.allKeptGroups, 1u);
  if (!subgroupAny(keep))
    return;
  if (subgroupAllEqual(item.w) && subgroupElect())
    atomicAdd(counters.uniformGroups, 1u);

  uvec4 mask = subgroupBallot(keep);
  uint total = subgroupBallotBitCount(mask);
  uint before = subgroupBallotExclusiveBitCount(mask);
  uint upTo = subgroupBallotInclusiveBitCount(mask);

  uint base = 0u;
  if (subgroupElect())
    base = atomicAdd(counters.keptCount, total);
  base = subgroupBroadcastFirst(base);

  if (keep && upTo == before + 1u)
    kept[base + before] = item;

  uint first = subgroupBallotFindLSB(mask);
  uint last = subgroupBallotFindMSB(mask);
  uint firstIndex = subgroupBroadcast(i, 0u);
  if (gl_SubgroupInvocationID == first)
    atomicAdd(counters.firstLaneSum, i - firstIndex);
  if (gl_SubgroupInvocationID == last && subgroupBallotBitExtract(mask, last))
    atomicAdd(counters.lastLaneSum, gl_SubgroupID * gl_SubgroupSize + last);
  subgroupMemoryBarrierBuffer();
  subgroupBarrier();
}
