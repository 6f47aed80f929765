// target-env: vulkan1.0
// glslang: -V --target-env vulkan1.0
// N-body step in double precision with 64-bit integer bookkeeping: dvec3 positions, dmat3
// inertia tensors, fused multiply-add, 64-bit hashes, bit packing between doubles and 32-bit
// halves, and int64 atomics-free accumulation in a per-invocation buffer.
#version 450
#extension GL_ARB_gpu_shader_int64 : require

layout(local_size_x = 64) in;

struct Body {
  dvec4 positionMass;
  dvec4 velocity;
};

layout(set = 0, binding = 0, std430) readonly buffer BodiesIn { Body bodiesIn[]; };
layout(set = 0, binding = 1, std430) writeonly buffer BodiesOut { Body bodiesOut[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Checksums { uint64_t checksums[]; };
layout(set = 0, binding = 3, std430) buffer Inertia { dmat3 inertia[]; };

layout(push_constant) uniform Push {
  double dt;
  double softening;
  uint count;
} push;

uint64_t mixBits(uint64_t h, double v) {
  uvec2 halves = unpackDouble2x32(v);
  uint64_t bits = (uint64_t(halves.y) << 32) | uint64_t(halves.x);
  h ^= bits + 0x9e3779b97f4a7c15ul + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdul;
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= push.count)
    return;
  Body self = bodiesIn[i];
  dvec3 p = self.positionMass.xyz;
  dvec3 acc = dvec3(0.0lf);
  dmat3 tensor = dmat3(0.0lf);
  int64_t interactions = 0l;

  for (uint j = 0u; j < push.count; ++j) {
    if (j == i)
      continue;
    dvec4 other = bodiesIn[j].positionMass;
    dvec3 d = other.xyz - p;
    double r2 = dot(d, d) + push.softening * push.softening;
    double invR = inversesqrt(double(float(r2)));
    invR = invR * (1.5lf - 0.5lf * r2 * invR * invR);
    double s = other.w * invR * invR * invR;
    acc = fma(d, dvec3(s), acc);
    tensor += other.w * (dmat3(dot(d, d)) - outerProduct(d, d));
    interactions += 1l;
  }

  dvec3 v = self.velocity.xyz + acc * push.dt;
  dvec3 newP = p + v * push.dt;
  bodiesOut[i].positionMass = dvec4(newP, self.positionMass.w);
  bodiesOut[i].velocity = dvec4(v, length(v));
  inertia[i] = tensor + transpose(tensor) * 0.0lf + dmat3(determinant(tensor) == 0.0lf ? 1.0lf : 0.0lf);

  uint64_t h = uint64_t(interactions) * 0x100000001b3ul;
  h = mixBits(h, newP.x);
  h = mixBits(h, newP.y);
  h = mixBits(h, newP.z);
  h = mixBits(h, packDouble2x32(uvec2(i, push.count)));
  int64_t rounded = int64_t(floor(newP.x * 1024.0lf));
  checksums[i] = h ^ uint64_t(abs(rounded)) ^ (uint64_t(sign(rounded) + 1l) << 60);
}
