// target-env: opencl1.2
// clang: -triple spir64-unknown-unknown -cl-std=CL1.2 -O2
// llvm-spirv: --spirv-max-version=1.0
// An OpenCL 1.2 kernel: async_work_group_copy/wait_group_events into local memory, prefetch,
// a sampler passed as an argument, __constant filter weights, mad24/mul24 index math, and
// vector loads; no OpenCL 2.0 features.

__kernel void box_blur_rows(__global const float4* src, __global float4* dst, int width,
                            int height, int radius, __local float4* line,
                            __constant float* weights) {
  int row = get_group_id(0);
  if (row >= height)
    return;
  __global const float4* rowPtr = src + mul24(row, width);
  event_t e = async_work_group_copy(line, rowPtr, (size_t)width, 0);
  wait_group_events(1, &e);
  if (row + 1 < height)
    prefetch(rowPtr + width, (size_t)width);

  for (int x = get_local_id(0); x < width; x += get_local_size(0)) {
    float4 sum = (float4)(0.0f);
    float wsum = 0.0f;
    int k = -radius;
    while (k <= radius) {
      int xi = clamp(x + k, 0, width - 1);
      float w = weights[abs(k)];
      sum += line[xi] * w;
      wsum += w;
      ++k;
    }
    dst[mad24(row, width, x)] = sum / wsum;
  }
}

__kernel void sample_mip(__read_only image2d_t src, sampler_t smp, __global float4* out,
                         int width, float scale) {
  int x = get_global_id(0), y = get_global_id(1);
  float2 coord = (float2)((float)x + 0.5f, (float)y + 0.5f) * scale;
  float4 a = read_imagef(src, smp, coord);
  float4 b = read_imagef(src, smp, coord + (float2)(scale * 0.5f, 0.0f));
  out[mad24(y, width, x)] = (a + b) * 0.5f;
}
