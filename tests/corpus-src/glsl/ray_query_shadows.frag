// target-env: vulkan1.2
// glslang: -V --target-env vulkan1.2
// Forward fragment shader with ray-queried soft shadows from an area light: several shadow rays
// per pixel with a blue-noise rotation, each accepting the first opaque hit.
#version 460
#extension GL_EXT_ray_query : require

layout(location = 0) in vec3 inWorldPos;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec3 inAlbedo;
layout(location = 0) out vec4 outColor;

layout(set = 0, binding = 0) uniform accelerationStructureEXT scene;
layout(set = 0, binding = 1) uniform sampler2D blueNoise;
layout(set = 0, binding = 2, std140) uniform AreaLight {
  vec4 center;
  vec4 edgeU;
  vec4 edgeV;
  vec4 radiance;
  int samples;
} light;

float visibility(vec3 origin, vec3 target) {
  vec3 d = target - origin;
  float dist = length(d);
  rayQueryEXT q;
  rayQueryInitializeEXT(q, scene, gl_RayFlagsTerminateOnFirstHitEXT | gl_RayFlagsOpaqueEXT, 0xFF,
                        origin, 0.001, d / dist, dist - 0.001);
  while (rayQueryProceedEXT(q)) {
  }
  return rayQueryGetIntersectionTypeEXT(q, true) == gl_RayQueryCommittedIntersectionNoneEXT ? 1.0
                                                                                          : 0.0;
}

void main() {
  vec3 n = normalize(inNormal);
  vec2 noise = texelFetch(blueNoise, ivec2(gl_FragCoord.xy) & 63, 0).xy;
  vec3 origin = inWorldPos + n * 0.005;
  vec3 sum = vec3(0.0);
  for (int i = 0; i < light.samples; ++i) {
    vec2 uv = fract(noise + vec2(float(i) * 0.618034, float(i) * 0.754878)) - 0.5;
    vec3 target = light.center.xyz + light.edgeU.xyz * uv.x + light.edgeV.xyz * uv.y;
    vec3 l = normalize(target - origin);
    float nDotL = max(dot(n, l), 0.0);
    if (nDotL > 0.0)
      sum += light.radiance.rgb * nDotL * visibility(origin, target);
  }
  outColor = vec4(inAlbedo * (sum / float(max(light.samples, 1)) + 0.03), 1.0);
}
