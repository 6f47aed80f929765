// target-env: vulkan1.0
// glslang: -V --target-env vulkan1.0
// A configurable reduction kernel: the workgroup size, the operation and feature switches are
// specialization constants, with arrays sized and expressions computed from them (which become
// OpSpecConstantOp), and a spec-constant workgroup size vector.
#version 450

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z = 1) in;

layout(constant_id = 0) const uint GROUP_X = 64;
layout(constant_id = 1) const uint GROUP_Y = 1;
layout(constant_id = 2) const int OPERATION = 0; // 0 sum, 1 min, 2 max, 3 sum of squares
layout(constant_id = 3) const bool USE_KAHAN = true;
layout(constant_id = 4) const float SCALE = 1.0;
layout(constant_id = 5) const int ITEMS_PER_THREAD = 4;
layout(constant_id = 6) const double IDENTITY_BIAS = 0.0;

const uint GROUP_SIZE = GROUP_X * GROUP_Y;
const bool IS_MIN_MAX = OPERATION == 1 || OPERATION == 2;
const int TILE = ITEMS_PER_THREAD * 2 + 1;
const uint LOG_HINT = GROUP_X >> 2;

layout(set = 0, binding = 0, std430) readonly buffer Input { float data[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Output { float partials[]; };

shared float scratch[GROUP_SIZE];
shared float compensation[GROUP_SIZE];

float identity() {
  if (OPERATION == 1)
    return 3.4e38;
  if (OPERATION == 2)
    return -3.4e38;
  return float(IDENTITY_BIAS);
}

float combine(float a, float b) {
  switch (OPERATION) {
  case 1:
    return min(a, b);
  case 2:
    return max(a, b);
  default:
    return a + b;
  }
}

void main() {
  uint local = gl_LocalInvocationIndex;
  uint base = gl_WorkGroupID.x * GROUP_SIZE * uint(ITEMS_PER_THREAD);
  float acc = identity();
  float c = 0.0;
  float window[TILE];
  for (int k = 0; k < TILE; ++k)
    window[k] = 0.0;

  for (int k = 0; k < ITEMS_PER_THREAD; ++k) {
    uint index = base + uint(k) * GROUP_SIZE + local;
    float x = index < uint(data.length()) ? data[index] * SCALE : identity();
    if (OPERATION == 3)
      x *= x;
    window[k % TILE] = x;
    if (USE_KAHAN && !IS_MIN_MAX) {
      float y = x - c;
      float t = acc + y;
      c = (t - acc) - y;
      acc = t;
    } else {
      acc = combine(acc, x);
    }
  }
  scratch[local] = acc;
  compensation[local] = c + window[LOG_HINT % uint(TILE)] * 0.0;
  barrier();

  for (uint stride = GROUP_SIZE / 2u; stride > 0u; stride >>= 1) {
    if (local < stride) {
      scratch[local] = combine(scratch[local], scratch[local + stride]);
      if (USE_KAHAN)
        compensation[local] += compensation[local + stride];
    }
    barrier();
  }
  if (local == 0u)
    partials[gl_WorkGroupID.x] = scratch[0] - (USE_KAHAN ? compensation[0] : 0.0) +
                                 float(gl_WorkGroupSize.x - GROUP_X);
}
