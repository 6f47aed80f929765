// target-env: vulkan1.1
// glslang: -V --target-env vulkan1.1 -D -e VSMain -S vert
// Full-screen pass and cascaded-shadow vertex shader in HLSL: generates positions from
// SV_VertexID, picks a viewport and render-target layer per instance
// (SV_ViewportArrayIndex / SV_RenderTargetArrayIndex from a vertex shader), and outputs a
// clip distance.
cbuffer CascadeConstants : register(b0) {
  float4x4 CascadeViewProj[4];
  float4 ClipPlane;
  uint FullScreen;
  uint CascadeCount;
  float2 Padding;
};

StructuredBuffer<float4> Positions : register(t0);

struct VSOutput {
  float4 position : SV_Position;
  float2 uv : TEXCOORD0;
  uint viewport : SV_ViewportArrayIndex;
  uint layer : SV_RenderTargetArrayIndex;
  float clip : SV_ClipDistance0;
};

VSOutput VSMain(uint vertexId : SV_VertexID, uint instanceId : SV_InstanceID) {
  VSOutput output;
  if (FullScreen != 0) {
    float2 uv = float2((vertexId << 1) & 2, vertexId & 2);
    output.position = float4(uv * float2(2, -2) + float2(-1, 1), 0, 1);
    output.uv = uv;
    output.viewport = 0;
    output.layer = 0;
    output.clip = 1.0;
    return output;
  }
  uint cascade = instanceId % max(CascadeCount, 1u);
  float4 world = float4(Positions[vertexId].xyz, 1.0);
  output.position = mul(CascadeViewProj[cascade], world);
  output.uv = output.position.xy / output.position.w * 0.5 + 0.5;
  output.viewport = cascade;
  output.layer = cascade;
  output.clip = dot(world, ClipPlane);
  return output;
}
