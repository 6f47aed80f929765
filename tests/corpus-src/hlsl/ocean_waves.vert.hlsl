// target-env: vulkan1.0
// glslang: -V --target-env vulkan1.0 -D -e VSMain -S vert -g --hlsl-iomap --auto-map-bindings
// Ocean surface vertex shader in HLSL: a sum of Gerstner waves from a constant-buffer array,
// analytic tangent frame, foam factor from the Jacobian, and a texture lookup in the vertex
// stage; compiled with debug info and automatically mapped bindings.
#define WAVE_COUNT 6

struct Wave {
  float2 direction;
  float steepness;
  float wavelength;
};

cbuffer OceanConstants {
  float4x4 ViewProjection;
  Wave Waves[WAVE_COUNT];
  float3 CameraPosition;
  float Time;
  float2 DetailScroll;
  float DetailStrength;
  float Gravity;
};

Texture2D<float> DetailHeight;
SamplerState WrapSampler;

struct VSOutput {
  float4 position : SV_Position;
  float3 worldPos : WORLDPOS;
  float3 normal : NORMAL;
  float3 tangent : TANGENT;
  float foam : FOAM;
  float viewDistance : DISTANCE;
};

void GerstnerWave(Wave wave, float3 p, inout float3 offset, inout float3 tangent,
                  inout float3 binormal) {
  float k = 2.0 * 3.14159265 / wave.wavelength;
  float c = sqrt(Gravity / k);
  float2 d = normalize(wave.direction);
  float f = k * (dot(d, p.xz) - c * Time);
  float a = wave.steepness / k;
  float s, co;
  sincos(f, s, co);
  offset += float3(d.x * a * co, a * s, d.y * a * co);
  tangent += float3(-d.x * d.x * wave.steepness * s, d.x * wave.steepness * co,
                    -d.x * d.y * wave.steepness * s);
  binormal += float3(-d.x * d.y * wave.steepness * s, d.y * wave.steepness * co,
                     -d.y * d.y * wave.steepness * s);
}

VSOutput VSMain(float3 position : POSITION) {
  float3 offset = 0.0;
  float3 tangent = float3(1, 0, 0);
  float3 binormal = float3(0, 0, 1);
  [unroll] for (int i = 0; i < WAVE_COUNT; ++i)
    GerstnerWave(Waves[i], position, offset, tangent, binormal);

  float3 world = position + offset;
  float2 detailUv = world.xz * 0.05 + DetailScroll * Time;
  world.y += DetailHeight.SampleLevel(WrapSampler, detailUv, 0) * DetailStrength;

  float jacobian = (1.0 + tangent.x - 1.0) * (1.0 + binormal.z - 1.0) - tangent.z * binormal.x;
  VSOutput output;
  output.position = mul(ViewProjection, float4(world, 1.0));
  output.worldPos = world;
  output.normal = normalize(cross(binormal, tangent));
  output.tangent = normalize(tangent);
  output.foam = saturate(1.0 - jacobian);
  output.viewDistance = distance(world, CameraPosition);
  return output;
}
