// target-env: vulkan1.0
// glslang: -V --target-env vulkan1.0
// Separable Gaussian blur of one image row or column per workgroup: loads a tile with apron into
// shared memory, synchronizes, convolves with weights from a constant array, writes a storage
// image with an explicit format.
#version 450

layout(local_size_x = 128, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, rgba16f) uniform readonly image2D srcImage;
layout(set = 0, binding = 1, rgba16f) uniform writeonly image2D dstImage;

layout(push_constant) uniform Push {
  ivec2 direction; // (1,0) horizontal, (0,1) vertical
  float strength;
} push;

const int RADIUS = 8;
const float WEIGHTS[RADIUS + 1] = float[](0.1370, 0.1283, 0.1054, 0.0761, 0.0483, 0.0269,
                                           0.0132, 0.0057, 0.0022);

shared vec4 tile[128 + 2 * RADIUS];

void main() {
  ivec2 size = imageSize(srcImage);
  ivec2 dir = push.direction;
  ivec2 along = dir.x != 0 ? ivec2(1, 0) : ivec2(0, 1);
  ivec2 across = ivec2(1, 1) - along;
  int line = int(gl_WorkGroupID.y);
  int start = int(gl_WorkGroupID.x) * 128 - RADIUS;
  int lineLength = dir.x != 0 ? size.x : size.y;

  for (int i = int(gl_LocalInvocationID.x); i < 128 + 2 * RADIUS; i += 128) {
    int t = clamp(start + i, 0, lineLength - 1);
    ivec2 coord = along * t + across * line;
    tile[i] = imageLoad(srcImage, coord);
  }
  memoryBarrierShared();
  barrier();

  int center = int(gl_LocalInvocationID.x) + RADIUS;
  vec4 sum = tile[center] * WEIGHTS[0];
  for (int k = 1; k <= RADIUS; ++k)
    sum += (tile[center - k] + tile[center + k]) * WEIGHTS[k];

  int t = start + RADIUS + int(gl_LocalInvocationID.x);
  if (t < lineLength) {
    ivec2 coord = along * t + across * line;
    imageStore(dstImage, coord, mix(tile[center], sum, push.strength));
  }
}
