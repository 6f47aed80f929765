// target-env: vulkan1.2
// glslang: -V --target-env vulkan1.2
// Closest-hit shader for triangle meshes: vertex data through buffer device addresses, the
// object-to-world transform, a callable shader for the material, a shadow ray that skips
// closest-hit shaders, and the next bounce direction written to the payload.
#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_scalar_block_layout : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "include/ray_common.glsl"

struct Vertex {
  float px, py, pz;
  float nx, ny, nz;
  float u, v;
};

layout(buffer_reference, scalar) readonly buffer Vertices { Vertex vertices[]; };
layout(buffer_reference, scalar) readonly buffer Indices { uint indices[]; };

struct MeshInfo {
  uint64_t vertexAddress;
  uint64_t indexAddress;
  uint materialIndex;
  uint callableIndex;
};

layout(set = 0, binding = 0) uniform accelerationStructureEXT topLevel;
layout(set = 1, binding = 0, scalar) readonly buffer Meshes { MeshInfo meshes[]; };
layout(set = 1, binding = 1, std140) uniform Sun { vec4 direction; vec4 radiance; } sun;

layout(location = 0) rayPayloadInEXT RadiancePayload payload;
layout(location = 1) rayPayloadEXT bool shadowOccluded;
layout(location = 0) callableDataEXT MaterialCall material;
hitAttributeEXT vec2 barycentrics;

void main() {
  MeshInfo mesh = meshes[gl_InstanceCustomIndexEXT];
  Indices indexBuffer = Indices(mesh.indexAddress);
  Vertices vertexBuffer = Vertices(mesh.vertexAddress);
  uint base = 3u * uint(gl_PrimitiveID);
  Vertex v0 = vertexBuffer.vertices[indexBuffer.indices[base]];
  Vertex v1 = vertexBuffer.vertices[indexBuffer.indices[base + 1u]];
  Vertex v2 = vertexBuffer.vertices[indexBuffer.indices[base + 2u]];
  vec3 b = vec3(1.0 - barycentrics.x - barycentrics.y, barycentrics.x, barycentrics.y);

  vec3 objectNormal = vec3(v0.nx, v0.ny, v0.nz) * b.x + vec3(v1.nx, v1.ny, v1.nz) * b.y +
                      vec3(v2.nx, v2.ny, v2.nz) * b.z;
  vec3 n = normalize(vec3(objectNormal * gl_WorldToObjectEXT));
  if (gl_HitKindEXT == gl_HitKindBackFacingTriangleEXT)
    n = -n;
  vec2 uv = vec2(v0.u, v0.v) * b.x + vec2(v1.u, v1.v) * b.y + vec2(v2.u, v2.v) * b.z;
  vec3 hitPos = gl_WorldRayOriginEXT + gl_WorldRayDirectionEXT * gl_HitTEXT;
  vec3 objectPos = gl_ObjectToWorldEXT * vec4(vec3(v0.px, v0.py, v0.pz), 1.0);

  material.normal = n;
  material.uv = uv;
  material.materialIndex = mesh.materialIndex;
  executeCallableEXT(mesh.callableIndex, 0);

  payload.radiance += payload.throughput * material.emission;

  vec3 toSun = normalize(-sun.direction.xyz);
  float nDotL = dot(material.normal, toSun);
  if (nDotL > 0.0) {
    shadowOccluded = true;
    traceRayEXT(topLevel,
                gl_RayFlagsTerminateOnFirstHitEXT | gl_RayFlagsSkipClosestHitShaderEXT, 0xFF, 1u,
                2u, MISS_SHADOW, hitPos + n * 1e-3, 0.0, toSun, 1e4, 1);
    if (!shadowOccluded)
      payload.radiance += payload.throughput * material.albedo * sun.radiance.rgb * nDotL;
  }

  payload.throughput *= material.albedo;
  payload.nextOrigin = hitPos + n * 1e-3 + (objectPos - objectPos);
  payload.nextDirection = cosineHemisphere(material.normal, payload.seed);
  payload.done = all(lessThan(payload.throughput, vec3(1e-3)));
}
