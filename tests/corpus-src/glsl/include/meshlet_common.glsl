// Meshlet data layout and the task-to-mesh payload shared by the task and mesh shaders.
#ifndef MESHLET_COMMON_GLSL
#define MESHLET_COMMON_GLSL

const uint TASK_GROUP_SIZE = 32u;
const uint MAX_MESHLET_VERTICES = 64u;
const uint MAX_MESHLET_TRIANGLES = 124u;

struct Meshlet {
  vec4 boundingSphere; // xyz center, w radius (object space)
  vec4 coneAxisCutoff; // normal cone for backface culling
  uint vertexOffset;
  uint triangleOffset;
  uint vertexCount;
  uint triangleCount;
};

struct TaskPayload {
  uint baseMeshlet;
  uint meshletIndices[TASK_GROUP_SIZE];
  uint instance;
};

layout(set = 0, binding = 0, std140) uniform View {
  mat4 viewProj;
  vec4 frustum[6];
  vec4 cameraPos;
  uint meshletCount;
  uint instanceCount;
} view;

layout(set = 0, binding = 1, std430) readonly buffer Meshlets { Meshlet meshlets[]; };
layout(set = 0, binding = 2, std430) readonly buffer Instances { mat4 instanceTransforms[]; };

#endif
