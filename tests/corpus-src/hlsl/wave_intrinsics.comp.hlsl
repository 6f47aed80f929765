// target-env: vulkan1.1
// glslang: -V --target-env vulkan1.1 -D -e CSMain -S comp
// Wave (subgroup) intrinsics in HLSL for a tiled light culling pass: WaveActiveSum/Min/Max,
// WavePrefixSum, WaveActiveBallot, WaveActiveCountBits, WaveReadLaneFirst/At,
// WaveActiveAnyTrue/AllTrue, WaveIsFirstLane and lane queries.
struct Light {
  float3 position;
  float radius;
};

StructuredBuffer<Light> Lights : register(t0);
Texture2D<float2> DepthMinMax : register(t1);
RWStructuredBuffer<uint> TileLightIndices : register(u0);
RWStructuredBuffer<uint> TileLightCounts : register(u1);
RWStructuredBuffer<float4> WaveStats : register(u2);

cbuffer CullConstants : register(b0) {
  float4x4 View;
  float4x4 InvProjection;
  uint LightCount;
  uint TilesX;
  uint MaxLightsPerTile;
  float Padding;
};

groupshared uint TileCount;

float3 ViewRay(float2 ndc) {
  float4 v = mul(InvProjection, float4(ndc, 1.0, 1.0));
  return v.xyz / v.w;
}

[numthreads(64, 1, 1)]
void CSMain(uint3 groupId : SV_GroupID, uint groupIndex : SV_GroupIndex) {
  if (groupIndex == 0)
    TileCount = 0;
  GroupMemoryBarrierWithGroupSync();

  uint tile = groupId.y * TilesX + groupId.x;
  float2 depthRange = DepthMinMax.Load(int3(groupId.xy, 0));
  float2 tileNdc = (float2(groupId.xy) + 0.5) / float2(TilesX, TilesX) * 2.0 - 1.0;
  float3 ray = normalize(ViewRay(tileNdc));

  for (uint base = 0; base < LightCount; base += 64) {
    uint index = base + groupIndex;
    bool visible = false;
    float viewZ = 0.0;
    if (index < LightCount) {
      Light light = Lights[index];
      float3 viewPos = mul(View, float4(light.position, 1.0)).xyz;
      viewZ = -viewPos.z;
      float3 closest = ray * dot(viewPos, ray);
      visible = viewZ + light.radius > depthRange.x && viewZ - light.radius < depthRange.y &&
                distance(closest, viewPos) < light.radius * 1.5;
    }
    if (!WaveActiveAnyTrue(visible))
      continue;
    uint4 ballot = WaveActiveBallot(visible);
    uint waveCount = WaveActiveCountBits(visible);
    uint slot = WavePrefixCountBits(visible);
    uint waveBase = 0;
    if (WaveIsFirstLane())
      InterlockedAdd(TileCount, waveCount, waveBase);
    waveBase = WaveReadLaneFirst(waveBase);
    if (visible && waveBase + slot < MaxLightsPerTile)
      TileLightIndices[tile * MaxLightsPerTile + waveBase + slot] = index;

    float nearest = WaveActiveMin(visible ? viewZ : 1e30);
    float farthest = WaveActiveMax(visible ? viewZ : -1e30);
    float sumZ = WaveActiveSum(visible ? viewZ : 0.0);
    float prefixZ = WavePrefixSum(viewZ);
    uint lanes = WaveGetLaneCount();
    bool allVisible = WaveActiveAllTrue(visible);
    float lastLane = WaveReadLaneAt(prefixZ, lanes - 1);
    if (WaveGetLaneIndex() == 0)
      WaveStats[tile] = float4(nearest, farthest, sumZ / max(waveCount, 1),
                               allVisible ? lastLane : float(ballot.x & 0xff));
  }
  GroupMemoryBarrierWithGroupSync();
  if (groupIndex == 0)
    TileLightCounts[tile] = min(TileCount, MaxLightsPerTile);
}
