// target-env: opencl2.0
// clang: -triple spir64-unknown-unknown -cl-std=CL2.0 -O2
// llvm-spirv: --spirv-max-version=1.0
// Vector types and operations: float4/int8/uchar16 arithmetic, swizzles and component
// selection, vload/vstore with offsets and half conversions, shuffle/shuffle2, saturating
// conversions with rounding modes, as_type reinterpretation, and relational selects.

typedef struct {
  float4 scale;
  float4 bias;
  int8 mask;
} Transform;

kernel void affine_rgba(global const uchar4* restrict src, global uchar4* restrict dst,
                        constant Transform* xf, uint count) {
  size_t i = get_global_id(0);
  if (i >= count)
    return;
  float4 c = convert_float4(src[i]) * (1.0f / 255.0f);
  float4 t = mad(c, xf->scale, xf->bias);
  t.xyz = t.zyx * (float3)(0.9f, 1.0f, 1.1f);
  t.w = select(t.w, 1.0f, (int)(t.w > 1.0f));
  dst[i] = convert_uchar4_sat_rte(t * 255.0f);
}

kernel void planar_to_packed(global const float* planes, global float* packed, uint width) {
  size_t i = get_global_id(0);
  if (i * 4 >= width)
    return;
  float4 r = vload4(i, planes);
  float4 g = vload4(i, planes + width);
  float4 b = vload4(i, planes + 2 * width);
  float4 a = (float4)(1.0f);
  float8 rg = shuffle2(r, g, (uint8)(0, 4, 1, 5, 2, 6, 3, 7));
  float8 ba = shuffle2(b, a, (uint8)(0, 4, 1, 5, 2, 6, 3, 7));
  float16 rgba = (float16)(rg.s01, ba.s01, rg.s23, ba.s23, rg.s45, ba.s45, rg.s67, ba.s67);
  vstore16(rgba, i, packed);
}

kernel void bit_tricks(global const uint8* in, global int8* out, global half* halves,
                       global uchar16* bytes) {
  size_t i = get_global_id(0);
  uint8 v = in[i];
  int8 s = as_int8(v);
  int8 neg = -s;
  int8 absDiff = convert_int8(abs_diff(s, neg));
  int8 picked = select(s, absDiff, s < (int8)0);
  out[i] = rotate(picked, (int8)(1, 2, 3, 4, 5, 6, 7, 8)) ^ (int8)(popcount(v.s0));
  float4 f = as_float4(v.lo & (uint4)0x3f7fffffu);
  vstore_half4_rtz(f, i, halves);
  float4 back = vload_half4(i, halves);
  uchar16 b = as_uchar16(v.hi);
  uchar16 rev = shuffle(b, (uchar16)(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
  bytes[i] = rev + convert_uchar16_sat((float16)(back, back, back, back) * 16.0f);
}
