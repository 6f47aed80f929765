// target-env: vulkan1.0
// glslang: -V --target-env vulkan1.0 -D -e GSMain -S geom
// Geometry shader in HLSL expanding particles (points) into camera-facing, rotated quads with a
// TriangleStream, maxvertexcount, SV_PrimitiveID passthrough and early-outs for dead particles.
cbuffer Camera : register(b0) {
  float4x4 View;
  float4x4 Projection;
  float3 CameraRight;
  float NearFade;
  float3 CameraUp;
  float SoftDistance;
};

struct GSInput {
  float3 position : POSITION;
  float size : PSIZE;
  float4 color : COLOR0;
  float rotation : ROTATION;
  float age : AGE;
};

struct GSOutput {
  float4 position : SV_Position;
  float4 color : COLOR0;
  float2 uv : TEXCOORD0;
  float viewDepth : TEXCOORD1;
  uint primitive : SV_PrimitiveID;
};

static const float2 Corners[4] = { float2(-1, -1), float2(-1, 1), float2(1, -1), float2(1, 1) };

[maxvertexcount(4)]
void GSMain(point GSInput input[1], uint primitiveId : SV_PrimitiveID,
            inout TriangleStream<GSOutput> stream) {
  GSInput p = input[0];
  if (p.age < 0.0 || p.color.a <= 0.001)
    return;
  float4 viewPos = mul(View, float4(p.position, 1.0));
  if (-viewPos.z < NearFade * 0.1)
    return;

  float s, c;
  sincos(p.rotation, s, c);
  float2x2 rotation = float2x2(c, -s, s, c);
  float fade = saturate((-viewPos.z - NearFade) / SoftDistance);

  [unroll] for (int i = 0; i < 4; ++i) {
    float2 corner = mul(rotation, Corners[i]) * p.size;
    float3 world = p.position + CameraRight * corner.x + CameraUp * corner.y;
    GSOutput o;
    o.position = mul(Projection, mul(View, float4(world, 1.0)));
    o.color = float4(p.color.rgb, p.color.a * fade);
    o.uv = Corners[i] * 0.5 + 0.5;
    o.viewDepth = -viewPos.z;
    o.primitive = primitiveId;
    stream.Append(o);
  }
  stream.RestartStrip();
}
