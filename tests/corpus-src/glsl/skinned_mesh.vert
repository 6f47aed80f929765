// target-env: vulkan1.1
// glslang: -V --target-env vulkan1.1
// Skinned, instanced mesh vertex shader: four-bone linear blend skinning from a bone palette in a
// storage buffer, per-instance transforms picked with the draw parameters, multiview cameras.
#version 460
#extension GL_EXT_multiview : require

layout(location = 0) in vec3 inPosition;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec4 inTangent;
layout(location = 3) in vec2 inUV;
layout(location = 4) in uvec4 inJoints;
layout(location = 5) in vec4 inWeights;

struct Camera {
  mat4 view;
  mat4 projection;
  vec4 position;
};

layout(set = 0, binding = 0, std140) uniform Cameras { Camera cameras[2]; };

layout(set = 1, binding = 0, std430) readonly buffer Bones { mat4 bones[]; };

struct Instance {
  mat4 model;
  uint boneOffset;
  uint materialIndex;
  float morphWeight;
  float pad;
};
layout(set = 1, binding = 1, std430) readonly buffer Instances { Instance instances[]; };

layout(push_constant) uniform Push {
  uint firstInstance;
  uint flags;
} push;

layout(location = 0) out vec3 outWorldPos;
layout(location = 1) out vec3 outNormal;
layout(location = 2) out vec4 outTangent;
layout(location = 3) out vec2 outUV;
layout(location = 4) flat out uint outMaterial;

const uint FLAG_SKINNED = 1u;
const uint FLAG_FLIP_UV = 2u;

mat4 skinMatrix(uint boneOffset) {
  vec4 w = inWeights / max(dot(inWeights, vec4(1.0)), 1e-5);
  mat4 m = mat4(0.0);
  for (int i = 0; i < 4; ++i) {
    if (w[i] > 0.0)
      m += w[i] * bones[boneOffset + inJoints[i]];
  }
  return m;
}

void main() {
  Instance inst = instances[push.firstInstance + gl_InstanceIndex];
  mat4 model = inst.model;
  if ((push.flags & FLAG_SKINNED) != 0u)
    model = model * skinMatrix(inst.boneOffset);

  vec4 world = model * vec4(inPosition, 1.0);
  mat3 normalMatrix = transpose(inverse(mat3(model)));
  outWorldPos = world.xyz;
  outNormal = normalize(normalMatrix * inNormal);
  outTangent = vec4(normalize(mat3(model) * inTangent.xyz), inTangent.w);
  outUV = (push.flags & FLAG_FLIP_UV) != 0u ? vec2(inUV.x, 1.0 - inUV.y) : inUV;
  outMaterial = inst.materialIndex;

  Camera cam = cameras[gl_ViewIndex];
  gl_Position = cam.projection * cam.view * world;
  gl_PointSize = 1.0;
}
