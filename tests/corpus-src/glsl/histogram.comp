// target-env: vulkan1.1
// glslang: -V --target-env vulkan1.1
// Luminance histogram for auto exposure: per-workgroup histograms in shared memory with shared
// atomics, merged into a global buffer with buffer atomics; the last workgroup (found with an
// atomic counter) computes the average and adapts the exposure; image atomics count clipped
// pixels per tile.
#version 450

layout(local_size_x = 16, local_size_y = 16) in;

const uint BINS = 256u;

layout(set = 0, binding = 0) uniform sampler2D hdrColor;
layout(set = 0, binding = 1, std430) buffer Histogram {
  uint bins[BINS];
  uint finishedGroups;
  uint maxBin;
  float averageLuminance;
  float exposure;
} histogram;
layout(set = 0, binding = 2, r32ui) uniform uimage2D clippedPerTile;

layout(push_constant) uniform Push {
  float minLogLum;
  float invLogLumRange;
  float adaptation;
  uint totalGroups;
} push;

shared uint localBins[BINS];
shared uint localMax;

uint binOf(vec3 color) {
  float lum = dot(color, vec3(0.2126, 0.7152, 0.0722));
  if (lum < 1e-4)
    return 0u;
  float t = clamp((log2(lum) - push.minLogLum) * push.invLogLumRange, 0.0, 1.0);
  return uint(t * 254.0 + 1.0);
}

void main() {
  localBins[gl_LocalInvocationIndex] = 0u;
  if (gl_LocalInvocationIndex == 0u)
    localMax = 0u;
  barrier();

  ivec2 size = textureSize(hdrColor, 0);
  ivec2 coord = ivec2(gl_GlobalInvocationID.xy);
  if (all(lessThan(coord, size))) {
    vec3 c = texelFetch(hdrColor, coord, 0).rgb;
    uint bin = binOf(c);
    uint before = atomicAdd(localBins[bin], 1u);
    atomicMax(localMax, before + 1u);
    if (max(c.r, max(c.g, c.b)) > 64.0)
      imageAtomicAdd(clippedPerTile, ivec2(gl_WorkGroupID.xy), 1u);
  }
  barrier();

  atomicAdd(histogram.bins[gl_LocalInvocationIndex], localBins[gl_LocalInvocationIndex]);
  if (gl_LocalInvocationIndex == 0u)
    atomicMax(histogram.maxBin, localMax);
  memoryBarrierBuffer();
  barrier();

  if (gl_LocalInvocationIndex != 0u)
    return;
  uint done = atomicAdd(histogram.finishedGroups, 1u);
  if (done + 1u != push.totalGroups)
    return;

  float weighted = 0.0;
  uint counted = 0u;
  for (uint i = 1u; i < BINS; ++i) {
    uint n = atomicExchange(histogram.bins[i], 0u);
    weighted += float(n) * float(i);
    counted += n;
  }
  histogram.bins[0] = 0u;
  float meanBin = counted > 0u ? weighted / float(counted) - 1.0 : 0.0;
  float avg = exp2(meanBin / 254.0 / push.invLogLumRange + push.minLogLum);
  float adapted = histogram.averageLuminance + (avg - histogram.averageLuminance) * push.adaptation;
  histogram.averageLuminance = adapted;
  histogram.exposure = 0.18 / max(adapted, 1e-4);
  atomicCompSwap(histogram.finishedGroups, push.totalGroups, 0u);
}
