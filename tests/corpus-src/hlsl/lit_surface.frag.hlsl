// target-env: vulkan1.0
// glslang: -V --target-env vulkan1.0 -D -e PSMain -S frag
// Lit surface pixel shader in HLSL: separate textures and sampler states, a comparison sampler
// for shadows, a light array in a constant buffer with [loop]/[unroll] attributes, clip() for
// alpha testing, multiple render targets, and motion vectors.
#define MAX_LIGHTS 8

struct LightData {
  float4 positionRange;
  float4 colorIntensity;
};

cbuffer LightConstants : register(b2) {
  LightData Lights[MAX_LIGHTS];
  float4x4 ShadowMatrix;
  float3 AmbientColor;
  uint LightCount;
  float3 CameraPos;
  float AlphaCutoff;
};

Texture2D<float4> AlbedoMap : register(t0);
Texture2D<float4> NormalMap : register(t1);
Texture2D<float> ShadowMap : register(t2);
SamplerState AnisoSampler : register(s0);
SamplerComparisonState ShadowSampler : register(s1);

struct PSInput {
  float4 position : SV_Position;
  float3 worldPos : WORLDPOS;
  float3 normal : NORMAL;
  float4 tangent : TANGENT;
  float2 uv : TEXCOORD0;
  float4 currentClip : TEXCOORD1;
  float4 previousClip : TEXCOORD2;
  bool frontFace : SV_IsFrontFace;
};

struct PSOutput {
  float4 color : SV_Target0;
  float4 normalRoughness : SV_Target1;
  float2 motion : SV_Target2;
};

float ShadowFactor(float3 worldPos) {
  float4 shadowPos = mul(ShadowMatrix, float4(worldPos, 1.0));
  shadowPos.xyz /= shadowPos.w;
  float2 uv = shadowPos.xy * float2(0.5, -0.5) + 0.5;
  uint width, height;
  ShadowMap.GetDimensions(width, height);
  float2 texel = 1.0 / float2(width, height);
  float sum = ShadowMap.SampleCmpLevelZero(ShadowSampler, uv, shadowPos.z - 0.002, int2(1, 1));
  [unroll] for (int y = -1; y <= 1; ++y) {
    [unroll] for (int x = -1; x <= 1; ++x) {
      sum += ShadowMap.SampleCmpLevelZero(ShadowSampler, uv + float2(x, y) * texel,
                                          shadowPos.z - 0.002);
    }
  }
  return sum / 10.0;
}

float3 ApplyNormalMap(float3 n, float4 tangent, float2 uv) {
  float3 t = normalize(tangent.xyz - n * dot(n, tangent.xyz));
  float3 b = cross(n, t) * tangent.w;
  float3 m = NormalMap.Sample(AnisoSampler, uv).xyz * 2.0 - 1.0;
  return normalize(m.x * t + m.y * b + m.z * n);
}

PSOutput PSMain(PSInput input) {
  float4 albedo = AlbedoMap.Sample(AnisoSampler, input.uv);
  clip(albedo.a - AlphaCutoff);

  float3 n = normalize(input.normal);
  n = input.frontFace ? n : -n;
  n = ApplyNormalMap(n, input.tangent, input.uv);
  float3 v = normalize(CameraPos - input.worldPos);

  float3 lighting = AmbientColor;
  [loop] for (uint i = 0; i < min(LightCount, (uint)MAX_LIGHTS); ++i) {
    float3 toLight = Lights[i].positionRange.xyz - input.worldPos;
    float dist = length(toLight);
    float3 l = toLight / dist;
    float atten = saturate(1.0 - dist / Lights[i].positionRange.w);
    atten *= atten;
    float3 h = normalize(l + v);
    float spec = pow(saturate(dot(n, h)), 64.0);
    float3 light = Lights[i].colorIntensity.rgb * Lights[i].colorIntensity.a * atten;
    if (i == 0)
      light *= ShadowFactor(input.worldPos);
    lighting += light * (saturate(dot(n, l)) + spec);
  }

  PSOutput output;
  output.color = float4(albedo.rgb * lighting, albedo.a);
  output.normalRoughness = float4(n * 0.5 + 0.5, 0.5);
  float2 current = input.currentClip.xy / input.currentClip.w;
  float2 previous = input.previousClip.xy / input.previousClip.w;
  output.motion = (current - previous) * float2(0.5, -0.5);
  return output;
}
