// Shared lighting functions: a Cook-Torrance BRDF with GGX distribution, Smith geometry term
// and Schlick Fresnel, plus light attenuation helpers. Included by several shaders.
#ifndef BRDF_GLSL
#define BRDF_GLSL

const float PI = 3.14159265358979;

struct Light {
  vec4 positionRange; // xyz position (w = 0: directional), w range
  vec4 colorIntensity;
  vec4 directionCone; // xyz spot direction, w cos(outer cone angle)
};

float distributionGGX(float nDotH, float roughness) {
  float a = roughness * roughness;
  float a2 = a * a;
  float d = nDotH * nDotH * (a2 - 1.0) + 1.0;
  return a2 / max(PI * d * d, 1e-6);
}

float geometrySchlickGGX(float nDotX, float roughness) {
  float r = roughness + 1.0;
  float k = r * r / 8.0;
  return nDotX / (nDotX * (1.0 - k) + k);
}

float geometrySmith(float nDotV, float nDotL, float roughness) {
  return geometrySchlickGGX(nDotV, roughness) * geometrySchlickGGX(nDotL, roughness);
}

vec3 fresnelSchlick(float cosTheta, vec3 f0) {
  return f0 + (1.0 - f0) * pow(clamp(1.0 - cosTheta, 0.0, 1.0), 5.0);
}

float rangeAttenuation(float dist, float range) {
  float ratio = clamp(1.0 - pow(dist / range, 4.0), 0.0, 1.0);
  return ratio * ratio / (dist * dist + 1.0);
}

float spotAttenuation(vec3 toLight, Light light) {
  float cosOuter = light.directionCone.w;
  if (cosOuter <= -1.0)
    return 1.0;
  float cosAngle = dot(-toLight, normalize(light.directionCone.xyz));
  float cosInner = min(cosOuter + 0.1, 1.0);
  return smoothstep(cosOuter, cosInner, cosAngle);
}

vec3 shadeLight(Light light, vec3 worldPos, vec3 n, vec3 v, vec3 albedo, float metallic,
                float roughness) {
  vec3 l;
  float attenuation = 1.0;
  if (light.positionRange.w == 0.0) {
    l = normalize(-light.positionRange.xyz);
  } else {
    vec3 delta = light.positionRange.xyz - worldPos;
    float dist = length(delta);
    l = delta / dist;
    attenuation = rangeAttenuation(dist, light.positionRange.w) * spotAttenuation(l, light);
  }
  vec3 h = normalize(v + l);
  float nDotL = max(dot(n, l), 0.0);
  float nDotV = max(dot(n, v), 1e-4);
  if (nDotL <= 0.0 || attenuation <= 0.0)
    return vec3(0.0);
  vec3 f0 = mix(vec3(0.04), albedo, metallic);
  vec3 f = fresnelSchlick(max(dot(h, v), 0.0), f0);
  float d = distributionGGX(max(dot(n, h), 0.0), roughness);
  float g = geometrySmith(nDotV, nDotL, roughness);
  vec3 specular = d * g * f / (4.0 * nDotV * nDotL + 1e-4);
  vec3 kd = (vec3(1.0) - f) * (1.0 - metallic);
  vec3 radiance = light.colorIntensity.rgb * light.colorIntensity.w * attenuation;
  return (kd * albedo / PI + specular) * radiance * nDotL;
}

#endif
