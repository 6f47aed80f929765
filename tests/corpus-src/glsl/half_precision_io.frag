// target-env: vulkan1.1
// glslang: -V --target-env vulkan1.1
// Tone mapping and color grading done in half precision: float16 vector math, 16-bit
// fragment inputs and outputs, half-precision matrices, packing to half and unorm formats.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

layout(location = 0) in f16vec2 inUV;
layout(location = 1) in f16vec4 inTint;
layout(location = 0) out f16vec4 outColor;
layout(location = 1) out uint outPacked;

layout(set = 0, binding = 0) uniform sampler2D hdrInput;
layout(set = 0, binding = 1) uniform sampler3D gradingLut;
layout(set = 0, binding = 2, std140) uniform Grading {
  f16mat3 colorMatrix;
  f16vec4 liftGammaGain; // lift, gamma, gain, saturation
  float16_t exposure;
  float16_t whitePoint;
} grading;

f16vec3 acesFilm(f16vec3 x) {
  const float16_t a = float16_t(2.51);
  const float16_t b = float16_t(0.03);
  const float16_t c = float16_t(2.43);
  const float16_t d = float16_t(0.59);
  const float16_t e = float16_t(0.14);
  return clamp((x * (a * x + b)) / (x * (c * x + d) + e), f16vec3(0.0), f16vec3(1.0));
}

f16vec3 saturate3(f16vec3 color, float16_t amount) {
  float16_t luma = dot(color, f16vec3(0.2126, 0.7152, 0.0722));
  return mix(f16vec3(luma), color, amount);
}

void main() {
  f16vec3 hdr = f16vec3(texture(hdrInput, vec2(inUV)).rgb) * grading.exposure;
  hdr = grading.colorMatrix * hdr;
  f16vec3 mapped = acesFilm(hdr / grading.whitePoint);
  mapped = saturate3(mapped, grading.liftGammaGain.w);
  mapped = pow(max(mapped * grading.liftGammaGain.z + grading.liftGammaGain.x, f16vec3(0.0)),
               f16vec3(float16_t(1.0) / grading.liftGammaGain.y));
  f16vec3 lutCoord = mapped * float16_t(15.0 / 16.0) + float16_t(0.5 / 16.0);
  f16vec3 graded = f16vec3(texture(gradingLut, vec3(lutCoord)).rgb) * inTint.rgb;
  outColor = f16vec4(graded, inTint.a);
  outPacked = packUnorm4x8(vec4(graded, 1.0)) ^ packHalf2x16(vec2(inUV));
}
