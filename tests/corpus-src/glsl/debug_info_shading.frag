// target-env: vulkan1.2
// glslang: -V --target-env vulkan1.2 -gVS
// Toon shading with an outline term, compiled with non-semantic shader debug info including the
// source text (NonSemantic.Shader.DebugInfo.100): types, functions, scopes, local variables and
// line records for every statement.
#version 450

layout(location = 0) in vec3 inNormal;
layout(location = 1) in vec3 inViewDir;
layout(location = 2) in vec2 inUV;
layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D albedo;
layout(set = 0, binding = 1, std140) uniform Toon {
  vec4 lightDir;
  vec4 shadowColor;
  vec4 rimColor;
  int bands;
  float outlineWidth;
} toon;

struct Shading {
  float diffuse;
  float rim;
  float specular;
};

float quantize(float x, int bands) {
  float b = float(max(bands, 1));
  return floor(x * b + 0.5) / b;
}

Shading computeShading(vec3 n, vec3 v, vec3 l) {
  Shading s;
  s.diffuse = quantize(max(dot(n, l), 0.0), toon.bands);
  s.rim = pow(1.0 - max(dot(n, v), 0.0), 4.0);
  vec3 h = normalize(l + v);
  s.specular = step(0.95, dot(n, h));
  return s;
}

void main() {
  vec3 n = normalize(inNormal);
  vec3 v = normalize(inViewDir);
  vec3 l = normalize(-toon.lightDir.xyz);
  Shading s = computeShading(n, v, l);
  vec4 base = texture(albedo, inUV);
  vec3 color = mix(toon.shadowColor.rgb * base.rgb, base.rgb, s.diffuse);
  color += toon.rimColor.rgb * s.rim * toon.rimColor.a + vec3(s.specular);
  float edge = smoothstep(toon.outlineWidth, toon.outlineWidth * 0.5, abs(dot(n, v)));
  outColor = vec4(mix(color, vec3(0.0), edge), base.a);
}
