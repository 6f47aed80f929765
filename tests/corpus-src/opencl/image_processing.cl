// target-env: opencl2.0
// clang: -triple spir64-unknown-unknown -cl-std=CL2.0 -O2
// llvm-spirv: --spirv-max-version=1.0
// Image kernels: image1d/2d/3d/2d-array objects with read_only, write_only and read_write
// access, constant samplers declared at program scope,
// read_imagef/read_imagei/read_imageui with float and integer coordinates, write_image*,
// size/channel/order queries, and a bilinear resampler.

constant sampler_t nearestClamp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                                  CLK_FILTER_NEAREST;
constant sampler_t linearRepeat = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT |
                                  CLK_FILTER_LINEAR;

kernel void resize_bilinear(read_only image2d_t src, write_only image2d_t dst) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  int2 size = get_image_dim(dst);
  if (p.x >= size.x || p.y >= size.y)
    return;
  float2 uv = ((float2)(p.x, p.y) + 0.5f) / (float2)(size.x, size.y);
  float4 c = read_imagef(src, linearRepeat, uv);
  write_imagef(dst, p, c);
}

kernel void sobel_gray(read_only image2d_t src, write_only image2d_t dst) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= get_image_width(src) || y >= get_image_height(src))
    return;
  float g[9];
  int k = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      float4 c = read_imagef(src, nearestClamp, (int2)(x + dx, y + dy));
      g[k++] = dot(c.xyz, (float3)(0.299f, 0.587f, 0.114f));
    }
  float gx = g[2] + 2 * g[5] + g[8] - g[0] - 2 * g[3] - g[6];
  float gy = g[6] + 2 * g[7] + g[8] - g[0] - 2 * g[1] - g[2];
  float m = sqrt(gx * gx + gy * gy);
  write_imagef(dst, (int2)(x, y), (float4)(m, m, m, 1.0f));
}

kernel void label_volume(read_only image3d_t volume, read_write image3d_t labels,
                         read_only image1d_t transfer, float threshold) {
  int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  int4 dim = get_image_dim(volume);
  if (any(p.xyz >= dim.xyz))
    return;
  float density = read_imagef(volume, nearestClamp, p).x;
  uint4 label = read_imageui(labels, p);
  if (density > threshold) {
    float4 color = read_imagef(transfer, nearestClamp, (int)(density * 255.0f));
    label.x = (uint)(color.w * 255.0f);
    label.y = get_image_channel_order(volume) == CLK_R ? 1u : 0u;
    label.z = (uint)get_image_channel_data_type(volume);
  }
  write_imageui(labels, p, label);
}

kernel void blend_layers(read_only image2d_array_t layers, write_only image2d_t out, int count,
                         global const float* weights) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float4 sum = (float4)(0.0f);
  for (int layer = 0; layer < count; ++layer) {
    int4 coord = (int4)(p, layer, 0);
    int4 raw = read_imagei(layers, nearestClamp, coord);
    sum += convert_float4(raw) * weights[layer];
  }
  write_imagef(out, p, sum / 32767.0f);
}
