// target-env: vulkan1.0
// glslang: -V --target-env vulkan1.0 -D -e DSMain -S tese
// Domain shader in HLSL: barycentric interpolation of the control points from SV_DomainLocation,
// displacement along the normal from a height texture sampled with SampleLevel, and the patch
// constants read back.
#include "include/displaced_patch.hlsli"

cbuffer DisplacementConstants : register(b1) {
  float DisplacementScale;
  float DisplacementBias;
  float2 UvScale;
};

Texture2D<float> HeightMap : register(t0);
SamplerState LinearClamp : register(s0);

struct DSOutput {
  float4 position : SV_Position;
  float3 worldPos : WORLDPOS;
  float3 normal : NORMAL;
  float2 uv : TEXCOORD0;
  float lod : TEXCOORD1;
};

[domain("tri")]
DSOutput DSMain(PatchConstants constants, float3 bary : SV_DomainLocation,
                const OutputPatch<ControlPoint, 3> patch) {
  DSOutput output;
  float3 position = bary.x * patch[0].position + bary.y * patch[1].position +
                    bary.z * patch[2].position;
  float3 normal = normalize(bary.x * patch[0].normal + bary.y * patch[1].normal +
                            bary.z * patch[2].normal);
  float2 uv = bary.x * patch[0].uv + bary.y * patch[1].uv + bary.z * patch[2].uv;
  float lod = log2(max(constants.inside, 1.0));
  float height = HeightMap.SampleLevel(LinearClamp, uv * UvScale, 6.0 - lod);
  position += normal * (height * DisplacementScale + DisplacementBias);
  float toCenter = distance(position, constants.center);

  output.position = mul(ViewProjection, float4(position, 1.0));
  output.worldPos = position;
  output.normal = normal;
  output.uv = uv;
  output.lod = lod + toCenter * 0.0;
  return output;
}
