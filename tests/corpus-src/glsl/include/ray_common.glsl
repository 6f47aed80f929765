// Payloads and scene bindings shared by the ray tracing pipeline shaders.
#ifndef RAY_COMMON_GLSL
#define RAY_COMMON_GLSL

struct RadiancePayload {
  vec3 radiance;
  vec3 throughput;
  vec3 nextOrigin;
  vec3 nextDirection;
  uint seed;
  uint depth;
  bool done;
};

struct ShadowPayload {
  bool occluded;
};

struct MaterialCall {
  vec3 albedo;
  vec3 emission;
  vec3 normal;
  vec2 uv;
  float roughness;
  uint materialIndex;
};

const uint MISS_RADIANCE = 0u;
const uint MISS_SHADOW = 1u;

uint rngNext(inout uint state) {
  state = state * 747796405u + 2891336453u;
  uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
  return (word >> 22u) ^ word;
}

float rngFloat(inout uint state) {
  return float(rngNext(state) & 0x00FFFFFFu) / 16777216.0;
}

vec3 cosineHemisphere(vec3 n, inout uint state) {
  float u = rngFloat(state);
  float v = rngFloat(state);
  float r = sqrt(u);
  float phi = 6.2831853 * v;
  vec3 t = normalize(abs(n.x) > 0.9 ? cross(n, vec3(0, 1, 0)) : cross(n, vec3(1, 0, 0)));
  vec3 b = cross(n, t);
  return normalize(t * (r * cos(phi)) + b * (r * sin(phi)) + n * sqrt(max(0.0, 1.0 - u)));
}

#endif
