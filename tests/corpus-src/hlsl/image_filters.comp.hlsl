// target-env: vulkan1.0
// glslang: -V --target-env vulkan1.0 -D -e CSMain -S comp
// Image processing in HLSL: Texture2D Load/SampleLevel/Gather/GatherRed, GetDimensions with mip
// counts, RWTexture2D and RWTexture2DArray (formats from the element types), Buffer and RWBuffer
// typed buffers, bilateral upsampling and a Sobel edge filter selected by a switch.
Texture2D<float4> Source : register(t0);
Texture2D<float> Depth : register(t1);
Buffer<float4> Kernel : register(t2);
SamplerState PointClamp : register(s0);
SamplerState LinearClamp : register(s1);

RWTexture2D<float4> Destination : register(u0);
RWTexture2DArray<float> Edges : register(u1);
RWBuffer<float4> Palette : register(u2);

cbuffer FilterConstants : register(b0) {
  uint Mode;
  float Sharpness;
  float DepthSigma;
  uint Layer;
};

float Luma(float3 c) { return dot(c, float3(0.299, 0.587, 0.114)); }

float4 Sobel(int2 p) {
  float l[9];
  [unroll] for (int i = 0; i < 9; ++i)
    l[i] = Luma(Source.Load(int3(p + int2(i % 3 - 1, i / 3 - 1), 0)).rgb);
  float gx = -l[0] - 2.0 * l[3] - l[6] + l[2] + 2.0 * l[5] + l[8];
  float gy = -l[0] - 2.0 * l[1] - l[2] + l[6] + 2.0 * l[7] + l[8];
  return float4(gx, gy, sqrt(gx * gx + gy * gy), atan2(gy, gx));
}

float4 BilateralUpsample(float2 uv, float centerDepth) {
  float4 depths = Depth.GatherRed(PointClamp, uv);
  float4 r = Source.GatherRed(PointClamp, uv);
  float4 g = Source.GatherGreen(PointClamp, uv);
  float4 b = Source.GatherBlue(PointClamp, uv);
  float4 w = exp(-abs(depths - centerDepth) / DepthSigma) + 1e-4;
  float total = dot(w, 1.0);
  return float4(dot(r, w), dot(g, w), dot(b, w), total) / total;
}

[numthreads(8, 8, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
  uint width, height, levels;
  Source.GetDimensions(0, width, height, levels);
  if (id.x >= width || id.y >= height)
    return;
  int2 p = int2(id.xy);
  float2 uv = (float2(id.xy) + 0.5) / float2(width, height);
  float4 result;

  switch (Mode) {
  case 0:
    result = Source.SampleLevel(LinearClamp, uv, min(Sharpness, float(levels - 1)));
    break;
  case 1: {
    float4 e = Sobel(p);
    Edges[uint3(id.xy, Layer)] = e.z;
    result = float4(e.zzz, 1.0);
    break;
  }
  case 2:
    result = BilateralUpsample(uv, Depth.Load(int3(p, 0)));
    break;
  default: {
    float4 sum = 0.0;
    for (int k = 0; k < 5; ++k)
      sum += Kernel[k] * Source.Load(int3(p + int2(k - 2, 0), 0));
    result = sum;
    break;
  }
  }
  Destination[id.xy] = result;
  if (id.x < 256 && id.y == 0)
    Palette[id.x] = saturate(Source.Gather(PointClamp, uv) * Sharpness);
}
