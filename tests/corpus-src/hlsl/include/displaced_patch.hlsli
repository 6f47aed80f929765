// What the hull and domain shaders of the displaced patch share: tessellation constants, the
// control point and the patch constants.
#ifndef DISPLACED_PATCH_HLSLI
#define DISPLACED_PATCH_HLSLI

cbuffer TessConstants : register(b0) {
  float4x4 ViewProjection;
  float3 EyePosition;
  float MinDistance;
  float MaxDistance;
  float MinFactor;
  float MaxFactor;
  float Padding;
};

struct ControlPoint {
  float3 position : POSITION;
  float3 normal : NORMAL;
  float2 uv : TEXCOORD0;
};

struct PatchConstants {
  float edges[3] : SV_TessFactor;
  float inside : SV_InsideTessFactor;
  float3 center : CENTER;
};

#endif
