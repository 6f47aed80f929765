// target-env: vulkan1.0
// glslang: -V --target-env vulkan1.0
// Per-sample shading with interpolation control: sample-rate execution through gl_SampleID and
// gl_SamplePosition, interpolateAtCentroid/AtSample/AtOffset, centroid, sample, flat and
// noperspective inputs, conservative depth output, and a reversed-Z depth adjustment.
#version 450

layout(depth_greater) out float gl_FragDepth;

layout(location = 0) centroid in vec2 inUV;
layout(location = 1) sample in vec3 inNormal;
layout(location = 2) noperspective in float inScreenFade;
layout(location = 3) flat in int inLayer;
layout(location = 4) in vec3 inWorldPos;

layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2DArray decals;
layout(set = 0, binding = 1, std140) uniform Params {
  vec4 lightDir;
  float depthOffset;
  float edgeSharpness;
  int mode;
} params;

void main() {
  vec2 uvCentroid = interpolateAtCentroid(inUV);
  vec2 uvSample = interpolateAtSample(inUV, gl_SampleID);
  vec2 uvShifted = interpolateAtOffset(inUV, gl_SamplePosition - 0.5);
  vec3 posAtCenter = interpolateAtOffset(inWorldPos, vec2(0.0));

  vec2 uv = params.mode == 0 ? uvCentroid : (params.mode == 1 ? uvSample : uvShifted);
  vec4 decal = texture(decals, vec3(uv, float(inLayer)));
  vec3 n = normalize(inNormal);
  float diffuse = max(dot(n, -params.lightDir.xyz), 0.0);
  float edge = clamp(length(fwidth(uv)) * params.edgeSharpness, 0.0, 1.0);
  vec3 color = decal.rgb * (0.2 + 0.8 * diffuse) * inScreenFade;
  color = mix(color, vec3(edge), params.mode == 3 ? 1.0 : 0.0);
  color += vec3(length(posAtCenter - inWorldPos)) * 0.0;

  outColor = vec4(color, decal.a);
  gl_FragDepth = gl_FragCoord.z + params.depthOffset * float(gl_SampleID + 1) / 16.0;
}
