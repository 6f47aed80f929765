// target-env: vulkan1.2
// glslang: -V --target-env vulkan1.2
// Miss shader: a physically inspired sky (Rayleigh-like gradient, sun disk and halo) sampled from
// an environment map when one is bound, ending the path.
#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require
#include "include/ray_common.glsl"

layout(set = 1, binding = 1, std140) uniform Sun { vec4 direction; vec4 radiance; } sun;
layout(set = 1, binding = 2) uniform samplerCube environmentMap;
layout(set = 1, binding = 3, std140) uniform SkyParams {
  vec4 zenithColor;
  vec4 horizonColor;
  float useEnvironment;
  float sunSize;
} sky;

layout(location = 0) rayPayloadInEXT RadiancePayload payload;

vec3 proceduralSky(vec3 dir) {
  float up = clamp(dir.y, 0.0, 1.0);
  vec3 base = mix(sky.horizonColor.rgb, sky.zenithColor.rgb, pow(up, 0.45));
  vec3 toSun = normalize(-sun.direction.xyz);
  float cosAngle = dot(dir, toSun);
  float disk = smoothstep(cos(sky.sunSize), cos(sky.sunSize * 0.8), cosAngle);
  float halo = pow(max(cosAngle, 0.0), 64.0) * 0.3;
  vec3 ground = vec3(0.12, 0.10, 0.08) * clamp(-dir.y * 4.0, 0.0, 1.0);
  return dir.y < 0.0 ? mix(base, ground, clamp(-dir.y * 8.0, 0.0, 1.0))
                     : base + sun.radiance.rgb * (disk + halo);
}

void main() {
  vec3 dir = normalize(gl_WorldRayDirectionEXT);
  vec3 sky = sky.useEnvironment > 0.5 ? textureLod(environmentMap, dir, 0.0).rgb
                                      : proceduralSky(dir);
  payload.radiance += payload.throughput * sky;
  payload.done = true;
}
