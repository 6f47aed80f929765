// target-env: vulkan1.1
// glslang: -V --target-env vulkan1.1 -D -e PSMain -S frag -fhlsl_functionality1
// Post-processing pixel shader in HLSL with Vulkan attributes: explicit [[vk::binding]] sets,
// [[vk::push_constant]], [[vk::constant_id]] specialization constants, input attachments via
// [[vk::input_attachment_index]], and SPV_GOOGLE_hlsl_functionality1 semantic decorations.
[[vk::constant_id(0)]] const int TonemapOperator = 1;
[[vk::constant_id(1)]] const bool EnableBloom = true;
[[vk::constant_id(2)]] const float VignetteStrength = 0.35;

struct PushData {
  float Exposure;
  float BloomIntensity;
  float2 InvResolution;
  uint FrameIndex;
};
[[vk::push_constant]] PushData Push;

[[vk::input_attachment_index(0)]] [[vk::binding(0, 0)]] SubpassInput<float4> SceneColor;
[[vk::binding(1, 0)]] Texture2D<float3> BloomTexture;
[[vk::binding(2, 0)]] Texture3D<float3> ColorLut;
[[vk::binding(3, 0)]] SamplerState LinearClamp;

float3 Reinhard(float3 c) { return c / (1.0 + c); }

float3 Uncharted2Partial(float3 x) {
  const float A = 0.15, B = 0.50, C = 0.10, D = 0.20, E = 0.02, F = 0.30;
  return ((x * (A * x + C * B) + D * E) / (x * (A * x + B) + D * F)) - E / F;
}

float3 Uncharted2(float3 c) {
  const float W = 11.2;
  return Uncharted2Partial(c * 2.0) / Uncharted2Partial(W);
}

float3 Aces(float3 x) {
  return saturate((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14));
}

float InterleavedGradientNoise(float2 pixel, uint frame) {
  pixel += 5.588238 * float(frame % 64);
  return frac(52.9829189 * frac(dot(pixel, float2(0.06711056, 0.00583715))));
}

float4 PSMain(float4 position : SV_Position, float2 uv : TEXCOORD0) : SV_Target0 {
  float3 color = SceneColor.SubpassLoad().rgb * Push.Exposure;
  if (EnableBloom)
    color += BloomTexture.SampleLevel(LinearClamp, uv, 0) * Push.BloomIntensity;

  float3 mapped;
  switch (TonemapOperator) {
  case 0:
    mapped = Reinhard(color);
    break;
  case 1:
    mapped = Aces(color);
    break;
  default:
    mapped = Uncharted2(color);
    break;
  }
  mapped = ColorLut.SampleLevel(LinearClamp, mapped * (31.0 / 32.0) + 0.5 / 32.0, 0);
  float2 centered = uv * 2.0 - 1.0;
  mapped *= 1.0 - VignetteStrength * dot(centered, centered);
  float noise = InterleavedGradientNoise(position.xy, Push.FrameIndex) / 255.0;
  return float4(pow(saturate(mapped), 1.0 / 2.2) + noise, 1.0);
}
