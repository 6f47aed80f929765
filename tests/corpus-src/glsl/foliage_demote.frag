// target-env: vulkan1.3
// glslang: -V --target-env vulkan1.3
// Alpha-tested foliage that demotes discarded pixels to helper invocations (so derivatives stay
// valid for the rest of the quad), queries helper status, dithers alpha to coverage, and writes
// the sample mask.
#version 450
#extension GL_EXT_demote_to_helper_invocation : require

layout(location = 0) in vec2 inUV;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in float inFade;
layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform sampler2D leafAlbedo;
layout(set = 0, binding = 1) uniform sampler2D leafNoise;

layout(push_constant) uniform Push {
  float cutoff;
  float time;
  int ditherMode;
} push;

const float BAYER[16] = float[](0.0, 8.0, 2.0, 10.0, 12.0, 4.0, 14.0, 6.0, 3.0, 11.0, 1.0, 9.0,
                                15.0, 7.0, 13.0, 5.0);

float ditherThreshold(ivec2 pixel) {
  int index = (pixel.y & 3) * 4 + (pixel.x & 3);
  return (BAYER[index] + 0.5) / 16.0;
}

void main() {
  vec4 albedo = texture(leafAlbedo, inUV);
  float alpha = albedo.a * inFade;
  float threshold = push.ditherMode != 0 ? ditherThreshold(ivec2(gl_FragCoord.xy)) : push.cutoff;
  if (alpha < threshold)
    demote;

  // Derivative-based filtering still works after demotion, for the live pixels of the quad.
  vec2 wobble = texture(leafNoise, inUV * 3.0 + push.time * 0.05).xy * 2.0 - 1.0;
  vec3 n = normalize(inNormal + vec3(wobble * 0.2, 0.0));
  float wrap = max((dot(n, normalize(vec3(0.4, 1.0, 0.3))) + 0.4) / 1.4, 0.0);
  if (helperInvocationEXT()) {
    outColor = vec4(0.0);
    return;
  }
  int coverage = int(clamp(alpha, 0.0, 1.0) * 4.0 + 0.5);
  gl_SampleMask[0] = (1 << coverage) - 1;
  outColor = vec4(albedo.rgb * wrap, 1.0);
}
