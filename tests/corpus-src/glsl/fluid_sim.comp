// target-env: vulkan1.1
// glslang: -V --target-env vulkan1.1 -g
// Smoothed-particle hydrodynamics step: nested structs and arrays of structs in std430 and
// std140 blocks, runtime arrays with length(), struct assignment and comparison, functions with
// in/out/inout parameters, a uniform grid neighbour search, and constant arrays. With debug
// info (OpLine, OpSource with text).
#version 450

layout(local_size_x = 128) in;

struct Kernel {
  float h;
  float h2;
  float poly6;
  float spikyGrad;
  float viscLaplacian;
};

struct Material {
  float restDensity;
  float stiffness;
  float viscosity;
  float mass;
};

struct Particle {
  vec3 position;
  float density;
  vec3 velocity;
  float pressure;
  vec3 force;
  uint cell;
};

struct CellRange {
  uint start;
  uint count;
};

layout(set = 0, binding = 0, std140) uniform Params {
  Kernel kernel;
  Material materials[4];
  ivec3 gridSize;
  float cellSize;
  vec3 gravity;
  float dt;
  vec3 boundsMin;
  uint materialIndex;
  vec3 boundsMax;
  uint phase;
} params;

layout(set = 0, binding = 1, std430) buffer Particles { Particle particles[]; };
layout(set = 0, binding = 2, std430) readonly buffer Cells { CellRange cells[]; };

const ivec3 NEIGHBOUR_OFFSETS[3] = ivec3[](ivec3(-1), ivec3(0), ivec3(1));

ivec3 cellOf(vec3 p) {
  return clamp(ivec3((p - params.boundsMin) / params.cellSize), ivec3(0), params.gridSize - 1);
}

uint cellIndex(ivec3 c) {
  return uint(c.x + params.gridSize.x * (c.y + params.gridSize.y * c.z));
}

void accumulateDensity(in Particle self, in Particle other, inout float density) {
  vec3 d = self.position - other.position;
  float r2 = dot(d, d);
  if (r2 < params.kernel.h2) {
    float x = params.kernel.h2 - r2;
    density += params.materials[params.materialIndex].mass * params.kernel.poly6 * x * x * x;
  }
}

void pressureForce(Particle self, Particle other, Material m, out vec3 force) {
  force = vec3(0.0);
  vec3 d = self.position - other.position;
  float r = length(d);
  if (r <= 0.0 || r >= params.kernel.h)
    return;
  float w = params.kernel.h - r;
  float p = (self.pressure + other.pressure) / (2.0 * other.density);
  force = -normalize(d) * m.mass * p * params.kernel.spikyGrad * w * w;
  force += m.viscosity * m.mass * (other.velocity - self.velocity) / other.density *
           params.kernel.viscLaplacian * w;
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= uint(particles.length()))
    return;
  Particle self = particles[i];
  Material m = params.materials[params.materialIndex];
  ivec3 home = cellOf(self.position);

  if (params.phase == 0u) {
    float density = 0.0;
    for (int z = 0; z < 3; ++z)
      for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 3; ++x) {
          ivec3 c = home + ivec3(NEIGHBOUR_OFFSETS[x].x, NEIGHBOUR_OFFSETS[y].y,
                                 NEIGHBOUR_OFFSETS[z].z);
          if (any(lessThan(c, ivec3(0))) || any(greaterThanEqual(c, params.gridSize)))
            continue;
          CellRange range = cells[cellIndex(c)];
          for (uint k = range.start; k < range.start + range.count; ++k)
            accumulateDensity(self, particles[k], density);
        }
    self.density = max(density, m.restDensity * 0.5);
    self.pressure = m.stiffness * (self.density - m.restDensity);
  } else if (params.phase == 1u) {
    vec3 total = vec3(0.0);
    CellRange range = cells[cellIndex(home)];
    for (uint k = range.start; k < range.start + range.count; ++k) {
      if (k == i)
        continue;
      vec3 f;
      pressureForce(self, particles[k], m, f);
      total += f;
    }
    self.force = total + params.gravity * self.density;
  } else {
    self.velocity += params.dt * self.force / self.density;
    self.position += params.dt * self.velocity;
    bvec3 below = lessThan(self.position, params.boundsMin);
    bvec3 above = greaterThan(self.position, params.boundsMax);
    self.velocity = mix(self.velocity, -0.5 * self.velocity, bvec3(ivec3(below) | ivec3(above)));
    self.position = clamp(self.position, params.boundsMin, params.boundsMax);
    self.cell = cellIndex(cellOf(self.position));
  }
  particles[i] = self;
}
