// target-env: vulkan1.0
// glslang: -V --target-env vulkan1.0 -D -e HSMain -S tesc
// Hull shader in HLSL: a control point function and a patch constant function with
// SV_TessFactor / SV_InsideTessFactor, tri domain with fractional-even partitioning, and
// distance-based tessellation factors.
#include "include/displaced_patch.hlsli"

float DistanceFactor(float3 p) {
  float d = distance(p, EyePosition);
  float t = saturate((d - MinDistance) / (MaxDistance - MinDistance));
  return lerp(MaxFactor, MinFactor, t);
}

bool BackFacing(float3 a, float3 b, float3 c) {
  float3 n = cross(b - a, c - a);
  return dot(n, a - EyePosition) > 0.0 && dot(n, b - EyePosition) > 0.0;
}

PatchConstants PatchConstantFunction(InputPatch<ControlPoint, 3> patch, uint patchId : SV_PrimitiveID) {
  PatchConstants output;
  float3 a = patch[0].position, b = patch[1].position, c = patch[2].position;
  if (BackFacing(a, b, c)) {
    output.edges[0] = output.edges[1] = output.edges[2] = 0.0;
    output.inside = 0.0;
  } else {
    output.edges[0] = DistanceFactor(0.5 * (b + c));
    output.edges[1] = DistanceFactor(0.5 * (c + a));
    output.edges[2] = DistanceFactor(0.5 * (a + b));
    output.inside = (output.edges[0] + output.edges[1] + output.edges[2]) / 3.0;
  }
  output.center = (a + b + c) / 3.0 + float(patchId) * 0.0;
  return output;
}

[domain("tri")]
[partitioning("fractional_even")]
[outputtopology("triangle_cw")]
[outputcontrolpoints(3)]
[patchconstantfunc("PatchConstantFunction")]
ControlPoint HSMain(InputPatch<ControlPoint, 3> patch, uint id : SV_OutputControlPointID) {
  ControlPoint output;
  output.position = patch[id].position;
  output.normal = normalize(patch[id].normal);
  output.uv = patch[id].uv;
  return output;
}
