// Hash and value/gradient noise functions shared by procedural shaders.
#ifndef NOISE_GLSL
#define NOISE_GLSL

uint hashU32(uint x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

float hash21(vec2 p) {
  uvec2 q = uvec2(ivec2(floor(p))) * uvec2(1597334673u, 3812015801u);
  return float(hashU32(q.x ^ q.y)) * (1.0 / 4294967295.0);
}

vec2 gradient(vec2 cell) {
  float angle = hash21(cell) * 6.28318530718;
  return vec2(cos(angle), sin(angle));
}

float gradientNoise(vec2 p) {
  vec2 i = floor(p);
  vec2 f = fract(p);
  vec2 u = f * f * f * (f * (f * 6.0 - 15.0) + 10.0);
  float a = dot(gradient(i), f);
  float b = dot(gradient(i + vec2(1, 0)), f - vec2(1, 0));
  float c = dot(gradient(i + vec2(0, 1)), f - vec2(0, 1));
  float d = dot(gradient(i + vec2(1, 1)), f - vec2(1, 1));
  return mix(mix(a, b, u.x), mix(c, d, u.x), u.y);
}

float fbm(vec2 p, int octaves) {
  float sum = 0.0;
  float amplitude = 0.5;
  mat2 rotate = mat2(0.8, 0.6, -0.6, 0.8);
  for (int i = 0; i < octaves; ++i) {
    sum += amplitude * gradientNoise(p);
    p = rotate * p * 2.03 + vec2(17.1, 9.2);
    amplitude *= 0.5;
  }
  return sum;
}

#endif
