// target-env: vulkan1.0
// glslang: -V --target-env vulkan1.0
// Signed-distance-field ray marcher: nested loops with break and continue, a switch with
// fall-through between primitive kinds, early returns from helper functions, do-while
// refinement, discard of pixels that miss everything, and soft shadows.
#version 450

layout(location = 0) in vec2 inUV;
layout(location = 0) out vec4 outColor;

struct Primitive {
  vec4 positionRadius;
  vec4 sizeBlend;
  int kind; // 0 sphere, 1 box, 2 rounded box, 3 torus, 4 plane
  int material;
  int flags;
  int pad;
};

layout(set = 0, binding = 0, std140) uniform Scene {
  mat4 invViewProj;
  vec4 cameraPos;
  vec4 lightDir;
  int primitiveCount;
  int maxSteps;
  float epsilon;
  float farPlane;
} scene;

layout(set = 0, binding = 1, std430) readonly buffer Primitives { Primitive prims[]; };

float sdBox(vec3 p, vec3 b) {
  vec3 q = abs(p) - b;
  return length(max(q, 0.0)) + min(max(q.x, max(q.y, q.z)), 0.0);
}

float primitiveDistance(Primitive prim, vec3 p) {
  vec3 q = p - prim.positionRadius.xyz;
  float d = 1e9;
  switch (prim.kind) {
  case 0:
    return length(q) - prim.positionRadius.w;
  case 2:
    q = q - clamp(q, -prim.sizeBlend.xyz * 0.1, prim.sizeBlend.xyz * 0.1);
    // fall through: a rounded box is a box with a radius
  case 1:
    d = sdBox(q, prim.sizeBlend.xyz);
    if (prim.kind == 2)
      d -= prim.positionRadius.w;
    break;
  case 3: {
    vec2 t = vec2(length(q.xz) - prim.sizeBlend.x, q.y);
    d = length(t) - prim.positionRadius.w;
    break;
  }
  case 4:
    d = q.y;
    break;
  default:
    return 1e9;
  }
  return d;
}

float smoothUnion(float a, float b, float k) {
  if (k <= 0.0)
    return min(a, b);
  float h = clamp(0.5 + 0.5 * (b - a) / k, 0.0, 1.0);
  return mix(b, a, h) - k * h * (1.0 - h);
}

float sceneDistance(vec3 p, out int material) {
  float best = scene.farPlane;
  material = -1;
  for (int i = 0; i < scene.primitiveCount; ++i) {
    Primitive prim = prims[i];
    if ((prim.flags & 1) != 0)
      continue; // hidden
    float d = primitiveDistance(prim, p);
    float blended = smoothUnion(best, d, prim.sizeBlend.w);
    if (d < best)
      material = prim.material;
    best = blended;
    if (best < -1.0)
      break;
  }
  return best;
}

vec3 normalAt(vec3 p) {
  int m;
  const vec2 e = vec2(0.001, 0.0);
  return normalize(vec3(sceneDistance(p + e.xyy, m) - sceneDistance(p - e.xyy, m),
                        sceneDistance(p + e.yxy, m) - sceneDistance(p - e.yxy, m),
                        sceneDistance(p + e.yyx, m) - sceneDistance(p - e.yyx, m)));
}

float softShadow(vec3 origin, vec3 dir) {
  float result = 1.0;
  float t = 0.02;
  int m;
  for (int i = 0; i < 48 && t < 20.0; ++i) {
    float h = sceneDistance(origin + dir * t, m);
    if (h < 0.0005)
      return 0.0;
    result = min(result, 12.0 * h / t);
    t += clamp(h, 0.01, 0.5);
  }
  return clamp(result, 0.0, 1.0);
}

void main() {
  vec4 ndc = vec4(inUV * 2.0 - 1.0, 1.0, 1.0);
  vec4 far = scene.invViewProj * ndc;
  vec3 ro = scene.cameraPos.xyz;
  vec3 rd = normalize(far.xyz / far.w - ro);

  float t = 0.0;
  int material = -1;
  bool hit = false;
  for (int step = 0; step < scene.maxSteps; ++step) {
    float d = sceneDistance(ro + rd * t, material);
    if (d < scene.epsilon * t) {
      hit = true;
      break;
    }
    t += d;
    if (t > scene.farPlane)
      break;
  }
  if (!hit)
    discard;

  // Refine the hit point by bisection-like back stepping.
  int refine = 0;
  float d;
  do {
    d = sceneDistance(ro + rd * t, material);
    t += d * 0.5;
    ++refine;
  } while (abs(d) > scene.epsilon * 0.1 && refine < 4);

  vec3 p = ro + rd * t;
  vec3 n = normalAt(p);
  float diffuse = max(dot(n, -scene.lightDir.xyz), 0.0) * softShadow(p + n * 0.01, -scene.lightDir.xyz);
  vec3 albedo = vec3(0.5);
  switch (material) {
  case 0: albedo = vec3(0.9, 0.2, 0.1); break;
  case 1: albedo = vec3(0.1, 0.8, 0.2); break;
  case 2:
  case 3: albedo = vec3(0.2, 0.3, 0.9); break;
  }
  outColor = vec4(albedo * (0.1 + 0.9 * diffuse), 1.0);
  gl_FragDepth = clamp(t / scene.farPlane, 0.0, 1.0);
}
