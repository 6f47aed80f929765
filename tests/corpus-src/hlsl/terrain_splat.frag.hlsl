// target-env: vulkan1.0
// glslang: -V --target-env vulkan1.0 -D -e PSMain -S frag
// Terrain splatting pixel shader in HLSL: Texture2DArray layers blended by a splat map,
// triplanar projection on steep slopes, SampleGrad/SampleBias/CalculateLevelOfDetail, a
// TextureCube reflection, Load with an offset, and discard for holes.
Texture2DArray<float4> LayerAlbedo : register(t0);
Texture2DArray<float4> LayerNormal : register(t1);
Texture2D<float4> SplatMap : register(t2);
Texture2D<uint> HoleMask : register(t3);
TextureCube<float4> SkyCube : register(t4);
SamplerState AnisoWrap : register(s0);
SamplerState LinearClamp : register(s1);

cbuffer TerrainConstants : register(b0) {
  float4 LayerTiling;
  float3 SunDirection;
  float TriplanarSharpness;
  float3 CameraPos;
  float MipBias;
};

struct PSInput {
  float4 position : SV_Position;
  float3 worldPos : WORLDPOS;
  float3 normal : NORMAL;
  float2 uv : TEXCOORD0;
};

float4 SampleTriplanar(uint layer, float3 p, float3 weights, float tiling) {
  float4 x = LayerAlbedo.SampleGrad(AnisoWrap, float3(p.zy * tiling, layer), ddx(p.zy) * tiling,
                                    ddy(p.zy) * tiling);
  float4 y = LayerAlbedo.SampleBias(AnisoWrap, float3(p.xz * tiling, layer), MipBias);
  float4 z = LayerAlbedo.Sample(AnisoWrap, float3(p.xy * tiling, layer));
  return x * weights.x + y * weights.y + z * weights.z;
}

float4 PSMain(PSInput input) : SV_Target {
  uint hole = HoleMask.Load(int3(int2(input.uv * 1024.0), 0), int2(0, 1));
  if (hole != 0)
    discard;

  float3 n = normalize(input.normal);
  float3 weights = pow(abs(n), TriplanarSharpness);
  weights /= dot(weights, 1.0);
  float4 splat = SplatMap.Sample(LinearClamp, input.uv);
  splat /= max(dot(splat, 1.0), 1e-4);

  float4 albedo = 0.0;
  float3 detailNormal = 0.0;
  [unroll] for (uint layer = 0; layer < 4; ++layer) {
    float w = splat[layer];
    if (w < 0.01)
      continue;
    albedo += w * SampleTriplanar(layer, input.worldPos, weights, LayerTiling[layer]);
    float lod = LayerNormal.CalculateLevelOfDetail(AnisoWrap, input.uv * LayerTiling[layer]);
    detailNormal += w * (LayerNormal.SampleLevel(AnisoWrap, float3(input.uv * LayerTiling[layer],
                                                                   layer), lod).xyz * 2.0 - 1.0);
  }
  n = normalize(n + detailNormal * 0.5);
  float3 v = normalize(CameraPos - input.worldPos);
  float3 sky = SkyCube.SampleLevel(LinearClamp, reflect(-v, n), 5.0).rgb;
  float diffuse = saturate(dot(n, -SunDirection));
  float fresnel = pow(1.0 - saturate(dot(n, v)), 5.0);
  return float4(albedo.rgb * (0.15 + 0.85 * diffuse) + sky * fresnel * 0.1, 1.0);
}
