// target-env: vulkan1.2
// glslang: -V --target-env vulkan1.2
// Dequantizing matrix-vector product for a small neural network layer: int8 weights and uint8
// activations in storage buffers (8-bit storage), int16 scales and float16 biases (16-bit
// storage), arithmetic in int8/int16/int32/float16 with explicit conversions, and push
// constants holding 8- and 16-bit fields.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer Weights { i8vec4 weights[]; };
layout(set = 0, binding = 1, std430) readonly buffer Activations { u8vec4 activations[]; };
layout(set = 0, binding = 2, std430) readonly buffer Scales { int16_t scales[]; };
layout(set = 0, binding = 3, std430) readonly buffer Biases { f16vec2 biases[]; };
layout(set = 0, binding = 4, std430) writeonly buffer Outputs { uint8_t outputs[]; };
layout(set = 0, binding = 5, std430) writeonly buffer Debug { float16_t debugValues[]; };

layout(push_constant) uniform Push {
  uint rows;
  uint columnsDiv4;
  int8_t zeroPoint;
  uint8_t shift;
  int16_t outputScale;
  float16_t leak;
} push;

int dot8(i8vec4 w, u8vec4 a) {
  i16vec4 wide = i16vec4(w) * i16vec4(u16vec4(a) - uint16_t(push.zeroPoint));
  return int(wide.x) + int(wide.y) + int(wide.z) + int(wide.w);
}

uint8_t requantize(int acc, float16_t bias) {
  float16_t scaled = float16_t(acc >> push.shift) * float16_t(push.outputScale) / float16_t(256.0);
  scaled += bias;
  scaled = scaled > float16_t(0.0) ? scaled : scaled * push.leak;
  int16_t clamped = clamp(int16_t(scaled), int16_t(0), int16_t(255));
  return uint8_t(clamped);
}

void main() {
  uint row = gl_GlobalInvocationID.x;
  if (row >= push.rows)
    return;
  int acc = 0;
  for (uint c = 0u; c < push.columnsDiv4; ++c) {
    i8vec4 w = weights[row * push.columnsDiv4 + c];
    u8vec4 a = activations[c];
    acc += dot8(w, a) * int(scales[c % 16u]);
  }
  f16vec2 bias = biases[row / 2u];
  float16_t b = (row & 1u) == 0u ? bias.x : bias.y;
  uint8_t q = requantize(acc, b);
  outputs[row] = q;
  int8_t signedQ = int8_t(q) - int8_t(64);
  int16_t mixed = int16_t(signedQ) * int16_t(3) + int16_t(push.zeroPoint);
  debugValues[row] = float16_t(mixed) + b;
}
