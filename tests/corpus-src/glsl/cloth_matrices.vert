// target-env: vulkan1.0
// glslang: -V --target-env vulkan1.0 -Os
// Vertex shader exercising matrix types: non-square matrices (mat2x3, mat3x4, mat4x3), row- and
// column-major uniform layouts, matrix arrays, inverse/transpose/determinant, outer products,
// component-wise products, and dual-quaternion skinning converted to matrices. Optimized (-Os).
#version 450

layout(location = 0) in vec3 inPosition;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec2 inUV;
layout(location = 3) in ivec2 inBones;
layout(location = 4) in vec2 inWeights;

layout(set = 0, binding = 0, std140, row_major) uniform Transforms {
  mat4x3 world;       // 4 columns of vec3: an affine transform
  mat3x4 worldRows;   // the same, transposed storage
  layout(column_major) mat4 viewProj;
  mat2x3 uvToTangent;
  mat3 normalFix[2];
} xf;

struct DualQuat {
  vec4 real;
  vec4 dual;
};
layout(set = 0, binding = 1, std430) readonly buffer Bones { DualQuat bones[]; };

layout(location = 0) out vec3 outNormal;
layout(location = 1) out vec3 outTangent;
layout(location = 2) out vec2 outUV;
layout(location = 3) out float outStretch;

mat4x3 dualQuatToMatrix(vec4 real, vec4 dual) {
  float len = length(real);
  real /= len;
  dual /= len;
  float w = real.w, x = real.x, y = real.y, z = real.z;
  mat3 r = mat3(1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + w * z), 2.0 * (x * z - w * y),
                2.0 * (x * y - w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z + w * x),
                2.0 * (x * z + w * y), 2.0 * (y * z - w * x), 1.0 - 2.0 * (x * x + y * y));
  vec3 t = 2.0 * (real.w * dual.xyz - dual.w * real.xyz + cross(real.xyz, dual.xyz));
  return mat4x3(r[0], r[1], r[2], t);
}

void main() {
  DualQuat a = bones[inBones.x];
  DualQuat b = bones[inBones.y];
  if (dot(a.real, b.real) < 0.0) {
    b.real = -b.real;
    b.dual = -b.dual;
  }
  vec4 real = a.real * inWeights.x + b.real * inWeights.y;
  vec4 dual = a.dual * inWeights.x + b.dual * inWeights.y;
  mat4x3 skin = dualQuatToMatrix(real, dual);

  vec3 skinned = skin * vec4(inPosition, 1.0);
  vec3 world = xf.world * vec4(skinned, 1.0);
  vec3 worldAlt = vec4(skinned, 1.0) * xf.worldRows;
  world = mix(world, worldAlt, 0.5);

  mat3 linear = mat3(xf.world) * mat3(skin);
  mat3 normalMatrix = determinant(linear) != 0.0 ? transpose(inverse(linear)) : linear;
  normalMatrix = matrixCompMult(normalMatrix, xf.normalFix[inBones.x & 1]);
  outNormal = normalize(normalMatrix * inNormal);

  vec3 tangent = xf.uvToTangent * vec2(1.0, 0.0);
  mat3 shear = outerProduct(tangent, outNormal);
  outTangent = normalize(linear * tangent - shear * tangent * 0.0);
  mat2 uvJacobian = mat2(xf.uvToTangent[0].xy, xf.uvToTangent[1].xy);
  outStretch = sqrt(abs(determinant(uvJacobian)));
  outUV = inverse(uvJacobian) * inUV;
  gl_Position = xf.viewProj * vec4(world, 1.0);
}
