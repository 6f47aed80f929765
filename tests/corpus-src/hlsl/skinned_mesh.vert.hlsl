// target-env: vulkan1.0
// glslang: -V --target-env vulkan1.0 -D -e VSMain -S vert
// Skinned mesh vertex shader in HLSL: constant buffers with packoffset-free layouts, a
// structured buffer of bone matrices, semantics on input and output structs, and per-instance
// data from the instance id.
cbuffer FrameConstants : register(b0) {
  float4x4 ViewProjection;
  float4x4 PreviousViewProjection;
  float3 CameraPosition;
  float Time;
};

cbuffer ObjectConstants : register(b1) {
  float4x4 World;
  float4x4 PreviousWorld;
  uint BoneBase;
  uint BonesPerInstance;
  float WindStrength;
  float Padding;
};

StructuredBuffer<float4x4> BoneMatrices : register(t0);
StructuredBuffer<float4x4> PreviousBoneMatrices : register(t1);

struct VSInput {
  float3 position : POSITION;
  float3 normal : NORMAL;
  float4 tangent : TANGENT;
  float2 uv : TEXCOORD0;
  uint4 joints : BLENDINDICES;
  float4 weights : BLENDWEIGHT;
  uint instance : SV_InstanceID;
};

struct VSOutput {
  float4 position : SV_Position;
  float3 worldPos : WORLDPOS;
  float3 normal : NORMAL;
  float4 tangent : TANGENT;
  float2 uv : TEXCOORD0;
  float4 currentClip : TEXCOORD1;
  float4 previousClip : TEXCOORD2;
};

float4x4 Skin(StructuredBuffer<float4x4> bones, uint base, uint4 joints, float4 weights) {
  float4x4 m = weights.x * bones[base + joints.x];
  m += weights.y * bones[base + joints.y];
  m += weights.z * bones[base + joints.z];
  m += weights.w * bones[base + joints.w];
  return m;
}

float3 Wind(float3 worldPos, float height) {
  float phase = dot(worldPos.xz, float2(0.37, 0.61)) + Time * 1.7;
  float sway = sin(phase) * 0.5 + sin(phase * 2.3 + 1.1) * 0.25;
  return float3(sway, 0.0, sway * 0.5) * WindStrength * saturate(height);
}

VSOutput VSMain(VSInput input) {
  VSOutput output;
  uint base = BoneBase + input.instance * BonesPerInstance;
  float4 weights = input.weights / max(dot(input.weights, 1.0), 1e-5);
  float4x4 skin = Skin(BoneMatrices, base, input.joints, weights);
  float4x4 previousSkin = Skin(PreviousBoneMatrices, base, input.joints, weights);

  float4 local = mul(skin, float4(input.position, 1.0));
  float4 world = mul(World, local);
  world.xyz += Wind(world.xyz, input.position.y);
  float4 previousWorld = mul(PreviousWorld, mul(previousSkin, float4(input.position, 1.0)));

  float3x3 normalMatrix = (float3x3)mul(World, skin);
  output.position = mul(ViewProjection, world);
  output.worldPos = world.xyz;
  output.normal = normalize(mul(normalMatrix, input.normal));
  output.tangent = float4(normalize(mul(normalMatrix, input.tangent.xyz)), input.tangent.w);
  output.uv = input.uv;
  output.currentClip = output.position;
  output.previousClip = mul(PreviousViewProjection, previousWorld);
  return output;
}
