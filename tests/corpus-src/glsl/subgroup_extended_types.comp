// target-env: vulkan1.2
// glslang: -V --target-env vulkan1.2
// Subgroup operations on 8-, 16- and 64-bit types (GL_EXT_shader_subgroup_extended_types_*):
// per-subgroup statistics of a sensor stream stored as int16/float16 samples, 64-bit
// timestamps, and 8-bit flags, combined with ballots and broadcasts.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_subgroup_extended_types_int8 : require
#extension GL_EXT_shader_subgroup_extended_types_int16 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_float16 : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require

layout(local_size_x = 64) in;

struct Sample {
  uint64_t timestamp;
  int16_t raw;
  float16_t calibrated;
  uint8_t flags;
  uint8_t channel;
  uint16_t sequence;
};

struct Summary {
  uint64_t firstTimestamp;
  uint64_t lastTimestamp;
  int16_t minRaw;
  int16_t maxRaw;
  float16_t meanCalibrated;
  float16_t maxStep;
  uint8_t flagsUnion;
  uint8_t flagsIntersection;
  uint16_t missingSequences;
};

layout(set = 0, binding = 0, std430) readonly buffer Samples { Sample samples[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Summaries { Summary summaries[]; };

void main() {
  Sample s = samples[gl_GlobalInvocationID.x];
  uint64_t first = subgroupMin(s.timestamp);
  uint64_t last = subgroupMax(s.timestamp);
  int16_t lo = subgroupMin(s.raw);
  int16_t hi = subgroupMax(s.raw);
  float16_t total = subgroupAdd(s.calibrated);
  float16_t previous = subgroupShuffleUp(s.calibrated, 1u);
  float16_t step = gl_SubgroupInvocationID == 0u ? float16_t(0.0) : abs(s.calibrated - previous);
  float16_t maxStep = subgroupMax(step);
  uint8_t anyFlags = subgroupOr(s.flags);
  uint8_t allFlags = subgroupAnd(s.flags);
  uint16_t expected = subgroupBroadcastFirst(s.sequence) + uint16_t(gl_SubgroupInvocationID);
  uvec4 gaps = subgroupBallot(s.sequence != expected);
  uint8_t channel = subgroupBroadcast(s.channel, 0u);
  int64_t skew = subgroupInclusiveAdd(int64_t(s.timestamp - first)) * int64_t(channel);

  if (subgroupElect()) {
    Summary sum;
    sum.firstTimestamp = first;
    sum.lastTimestamp = last + uint64_t(skew & 0l);
    sum.minRaw = lo;
    sum.maxRaw = hi;
    sum.meanCalibrated = total / float16_t(gl_SubgroupSize);
    sum.maxStep = maxStep;
    sum.flagsUnion = anyFlags;
    sum.flagsIntersection = allFlags;
    sum.missingSequences = uint16_t(subgroupBallotBitCount(gaps));
    summaries[gl_GlobalInvocationID.x / gl_SubgroupSize] = sum;
  }
}
