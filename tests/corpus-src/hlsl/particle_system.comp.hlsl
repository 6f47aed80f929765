// target-env: vulkan1.0
// glslang: -V --target-env vulkan1.0 -D -e CSMain -S comp
// Particle update in HLSL with append/consume structured buffers (each with a counter buffer),
// a struct with nested arrays, Interlocked operations on a RWByteAddressBuffer, and curl noise.
struct Particle {
  float3 position;
  float age;
  float3 velocity;
  float lifetime;
  float4 color;
  float sizes[2];
};

ConsumeStructuredBuffer<Particle> CurrentParticles : register(u0);
AppendStructuredBuffer<Particle> NextParticles : register(u1);
RWByteAddressBuffer Counters : register(u2);

cbuffer SimulationConstants : register(b0) {
  float3 Gravity;
  float DeltaTime;
  float3 Attractor;
  float AttractorStrength;
  float Drag;
  uint AliveCount;
  float2 Padding;
};

float3 Hash3(float3 p) {
  p = frac(p * float3(443.897, 441.423, 437.195));
  p += dot(p, p.yzx + 19.19);
  return frac((p.xxy + p.yzz) * p.zyx) * 2.0 - 1.0;
}

float3 CurlNoise(float3 p) {
  const float e = 0.1;
  float3 dx = float3(e, 0, 0), dy = float3(0, e, 0), dz = float3(0, 0, e);
  float3 px0 = Hash3(p - dx), px1 = Hash3(p + dx);
  float3 py0 = Hash3(p - dy), py1 = Hash3(p + dy);
  float3 pz0 = Hash3(p - dz), pz1 = Hash3(p + dz);
  float x = (py1.z - py0.z) - (pz1.y - pz0.y);
  float y = (pz1.x - pz0.x) - (px1.z - px0.z);
  float z = (px1.y - px0.y) - (py1.x - py0.x);
  return float3(x, y, z) / (2.0 * e);
}

[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
  if (id.x >= AliveCount)
    return;
  Particle p = CurrentParticles.Consume();
  p.age += DeltaTime;
  if (p.age >= p.lifetime) {
    uint dead;
    Counters.InterlockedAdd(0, 1u, dead);
    return;
  }
  float3 toAttractor = Attractor - p.position;
  float dist2 = max(dot(toAttractor, toAttractor), 0.25);
  float3 force = Gravity + AttractorStrength * toAttractor * rsqrt(dist2) / dist2;
  force += CurlNoise(p.position * 0.5) * 2.0;
  p.velocity = (p.velocity + force * DeltaTime) * exp(-Drag * DeltaTime);
  p.position += p.velocity * DeltaTime;
  float t = p.age / p.lifetime;
  p.color.a = smoothstep(0.0, 0.1, t) * (1.0 - smoothstep(0.7, 1.0, t));
  float size = lerp(p.sizes[0], p.sizes[1], t);
  uint sizeBits = asuint(size);
  uint previousMax;
  Counters.InterlockedMax(4, sizeBits, previousMax);
  NextParticles.Append(p);
}
