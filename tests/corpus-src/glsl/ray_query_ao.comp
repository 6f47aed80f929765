// target-env: spv1.4
// glslang: -V --target-env spirv1.4
// Ray-traced ambient occlusion and contact shadows with inline ray queries: candidate loops that
// accept opaque triangles and test procedural AABB candidates by hand, committed-hit queries
// (distance, instance, primitive, barycentrics, front face), and an early-terminating query.
#version 460
#extension GL_EXT_ray_query : require
#extension GL_EXT_ray_flags_primitive_culling : require

layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0) uniform accelerationStructureEXT scene;
layout(set = 0, binding = 1) uniform sampler2D depthBuffer;
layout(set = 0, binding = 2) uniform sampler2D normalBuffer;
layout(set = 0, binding = 3, r8) uniform writeonly image2D aoOut;
layout(set = 0, binding = 4, rg16f) uniform writeonly image2D debugOut;
layout(set = 0, binding = 5, std140) uniform Params {
  mat4 invViewProj;
  vec4 sunDirection;
  float radius;
  uint rayCount;
  uint frame;
  float sphereRadius;
} params;

vec3 hemisphereSample(vec3 n, uint i, uint count, uint frame) {
  float phi = 2.39996323 * float(i + frame * 7u);
  float z = (float(i) + 0.5) / float(count);
  float r = sqrt(1.0 - z * z);
  vec3 t = normalize(abs(n.y) < 0.99 ? cross(n, vec3(0, 1, 0)) : cross(n, vec3(1, 0, 0)));
  vec3 b = cross(n, t);
  return normalize(t * (r * cos(phi)) + b * (r * sin(phi)) + n * z);
}

bool hitSphereCandidate(rayQueryEXT q, out float t) {
  vec3 o = rayQueryGetIntersectionObjectRayOriginEXT(q, false);
  vec3 d = rayQueryGetIntersectionObjectRayDirectionEXT(q, false);
  float b = dot(o, d);
  float c = dot(o, o) - params.sphereRadius * params.sphereRadius;
  float disc = b * b - dot(d, d) * c;
  t = (-b - sqrt(max(disc, 0.0))) / dot(d, d);
  return disc >= 0.0 && t > rayQueryGetRayTMinEXT(q);
}

float occlusion(vec3 origin, vec3 dir, float maxT) {
  rayQueryEXT q;
  rayQueryInitializeEXT(q, scene, gl_RayFlagsCullBackFacingTrianglesEXT, 0xFF, origin, 0.01, dir,
                        maxT);
  while (rayQueryProceedEXT(q)) {
    uint type = rayQueryGetIntersectionTypeEXT(q, false);
    if (type == gl_RayQueryCandidateIntersectionTriangleEXT) {
      if (rayQueryGetIntersectionCandidateAABBOpaqueEXT(q) ||
          rayQueryGetIntersectionFrontFaceEXT(q, false))
        rayQueryConfirmIntersectionEXT(q);
    } else {
      float t;
      if (hitSphereCandidate(q, t))
        rayQueryGenerateIntersectionEXT(q, t);
    }
  }
  if (rayQueryGetIntersectionTypeEXT(q, true) == gl_RayQueryCommittedIntersectionNoneEXT)
    return 0.0;
  float t = rayQueryGetIntersectionTEXT(q, true);
  return 1.0 - t / maxT;
}

void main() {
  ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
  ivec2 size = textureSize(depthBuffer, 0);
  if (any(greaterThanEqual(pixel, size)))
    return;
  float depth = texelFetch(depthBuffer, pixel, 0).r;
  if (depth >= 1.0) {
    imageStore(aoOut, pixel, vec4(1.0));
    return;
  }
  vec2 ndc = (vec2(pixel) + 0.5) / vec2(size) * 2.0 - 1.0;
  vec4 world = params.invViewProj * vec4(ndc, depth, 1.0);
  vec3 p = world.xyz / world.w;
  vec3 n = normalize(texelFetch(normalBuffer, pixel, 0).xyz * 2.0 - 1.0);

  float ao = 0.0;
  for (uint i = 0u; i < params.rayCount; ++i)
    ao += occlusion(p + n * 0.02, hemisphereSample(n, i, params.rayCount, params.frame),
                    params.radius);
  ao = 1.0 - ao / float(max(params.rayCount, 1u));

  rayQueryEXT shadowQuery;
  rayQueryInitializeEXT(shadowQuery, scene,
                        gl_RayFlagsTerminateOnFirstHitEXT | gl_RayFlagsOpaqueEXT |
                            gl_RayFlagsSkipAABBEXT,
                        0x01, p + n * 0.02, 0.0, -params.sunDirection.xyz, 1e4);
  rayQueryProceedEXT(shadowQuery);
  bool shadowed = rayQueryGetIntersectionTypeEXT(shadowQuery, true) ==
                  gl_RayQueryCommittedIntersectionTriangleEXT;
  vec2 debug = vec2(0.0);
  if (shadowed) {
    debug = rayQueryGetIntersectionBarycentricsEXT(shadowQuery, true);
    debug.x += float(rayQueryGetIntersectionInstanceIdEXT(shadowQuery, true) +
                     rayQueryGetIntersectionPrimitiveIndexEXT(shadowQuery, true)) * 0.0;
  }
  rayQueryTerminateEXT(shadowQuery);
  imageStore(aoOut, pixel, vec4(ao * (shadowed ? 0.5 : 1.0)));
  imageStore(debugOut, pixel, vec4(debug, 0.0, 0.0));
}
