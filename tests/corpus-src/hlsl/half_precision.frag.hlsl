// target-env: vulkan1.1
// glslang: -V --target-env vulkan1.1 -D -e PSMain -S frag --hlsl-enable-16bit-types
// Screen-space reflection resolve in HLSL with native 16-bit types (half and min16int via
// --hlsl-enable-16bit-types) and min16float precision hints, quad intrinsics, and fine
// derivatives.
Texture2D<float4> SceneColor : register(t0);
Texture2D<float4> HitBuffer : register(t1);
Texture2D<float4> NormalRoughness : register(t2);
SamplerState LinearClamp : register(s0);

cbuffer ResolveConstants : register(b0) {
  float2 Resolution;
  float MaxRoughness;
  uint SampleCount;
};

static const int2 Offsets[4] = { int2(0, 0), int2(1, 0), int2(0, 1), int2(1, 1) };

half Weight(half roughness, half pdf) {
  half denominator = pdf * (roughness + (half)0.05);
  denominator = denominator > (half)1e-3 ? denominator : (half)1e-3;
  return (half)1.0 / denominator;
}

half4 PSMain(float4 position : SV_Position, float2 uv : TEXCOORD0) : SV_Target0 {
  half4 nr = half4(NormalRoughness.Sample(LinearClamp, uv));
  min16float roughness = nr.w;
  if (roughness > MaxRoughness)
    return (half4)((half)0.0);

  half3 sum = (half3)((half)0.0);
  half totalWeight = (half)0.0;
  int2 pixel = int2(position.xy);
  for (uint i = 0; i < SampleCount; ++i) {
    int2 p = pixel + Offsets[i & 3] * int2((min16int)(i >> 2) + (min16int)1, 1);
    float4 hit = HitBuffer.Load(int3(p, 0));
    if (hit.w <= 0.0)
      continue;
    half pdf = (half)hit.z;
    half w = Weight((half)roughness, pdf);
    half3 c = half3(SceneColor.SampleLevel(LinearClamp, hit.xy, roughness * 4.0).rgb);
    sum += c * w;
    totalWeight += w;
  }
  half3 resolved = totalWeight > (half)0.0 ? sum / totalWeight : (half3)((half)0.0);

  half3 neighbour = (half3)QuadReadAcrossX(resolved);
  half3 diagonal = (half3)QuadReadAcrossDiagonal(resolved);
  half3 first = (half3)QuadReadLaneAt(resolved, 0);
  half edge = (half)(length(ddx_fine(uv) + ddy_fine(uv)) * Resolution.x);
  uint tag = pixel.x & 0xff;
  half3 filtered = (half3)lerp(resolved, (neighbour + diagonal + first) / (half)3.0, saturate(edge));
  return half4(filtered, (half)(float)tag / (half)255.0);
}
