// target-env: vulkan1.0
// glslang: -V --target-env vulkan1.0
// Procedural planet surface: fractal gradient noise from an included library, domain warping,
// biome selection by height and latitude, an atmosphere scattering approximation, and many
// GLSL.std.450 functions (trigonometry, exponentials, interpolation, geometric, packing).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "include/noise.glsl"

layout(location = 0) in vec3 inSpherePos;
layout(location = 1) in vec3 inViewDir;
layout(location = 0) out vec4 outColor;
layout(location = 1) out uvec2 outPackedNormal;

layout(set = 0, binding = 0, std140) uniform Planet {
  vec4 sunDirection;
  vec4 atmosphereColor;
  float seaLevel;
  float time;
  float seed;
  int octaves;
} planet;

vec2 sphericalUV(vec3 p) {
  return vec2(atan(p.z, p.x) / 6.2831853 + 0.5, asin(clamp(p.y, -1.0, 1.0)) / 3.14159265 + 0.5);
}

vec3 biomeColor(float height, float latitude, float moisture) {
  vec3 sand = vec3(0.76, 0.70, 0.50);
  vec3 grass = vec3(0.20, 0.50, 0.15);
  vec3 forest = vec3(0.05, 0.30, 0.08);
  vec3 rock = vec3(0.45, 0.42, 0.40);
  vec3 snow = vec3(0.95, 0.97, 1.00);
  float cold = smoothstep(0.55, 0.8, abs(latitude * 2.0 - 1.0) + height * 0.5);
  vec3 lowland = mix(grass, forest, step(0.55, moisture));
  vec3 c = mix(sand, lowland, smoothstep(0.0, 0.05, height));
  c = mix(c, rock, smoothstep(0.25, 0.45, height));
  return mix(c, snow, cold);
}

void main() {
  vec3 p = normalize(inSpherePos);
  vec2 uv = sphericalUV(p) * 8.0 + planet.seed;
  vec2 warp = vec2(fbm(uv + vec2(1.7, 9.2), 3), fbm(uv + vec2(8.3, 2.8), 3));
  float height = fbm(uv + 2.0 * warp, planet.octaves) - planet.seaLevel;
  float moisture = fbm(uv * 0.5 + vec2(planet.time * 0.01), 2) * 0.5 + 0.5;

  vec3 sun = normalize(planet.sunDirection.xyz);
  vec3 color;
  vec3 n = p;
  if (height < 0.0) {
    float depth = clamp(-height * 4.0, 0.0, 1.0);
    color = mix(vec3(0.1, 0.4, 0.6), vec3(0.0, 0.05, 0.2), sqrt(depth));
    vec3 h = normalize(sun - normalize(inViewDir));
    color += vec3(pow(max(dot(n, h), 0.0), 120.0)) * (1.0 - depth);
  } else {
    vec2 e = vec2(0.01, 0.0);
    float hx = fbm(uv + e.xy + 2.0 * warp, planet.octaves) - planet.seaLevel;
    float hy = fbm(uv + e.yx + 2.0 * warp, planet.octaves) - planet.seaLevel;
    n = normalize(p + vec3(height - hx, 0.0, height - hy) * 6.0);
    color = biomeColor(height, sphericalUV(p).y, moisture);
  }

  float diffuse = max(dot(n, sun), 0.0);
  float rim = pow(1.0 - max(dot(p, -normalize(inViewDir)), 0.0), 3.0);
  vec3 atmosphere = planet.atmosphereColor.rgb * rim * (0.25 + 0.75 * diffuse);
  vec3 lit = color * (0.05 + 0.95 * diffuse) + atmosphere;
  lit = lit / (1.0 + lit);
  lit = pow(lit, vec3(1.0 / 2.2));
  outColor = vec4(lit, 1.0);
  outPackedNormal = uvec2(packSnorm2x16(n.xy), packHalf2x16(vec2(n.z, height)));
}
