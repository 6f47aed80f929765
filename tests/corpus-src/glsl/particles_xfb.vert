// target-env: vulkan1.0
// glslang: -V --target-env vulkan1.0
// Particle simulation in a vertex shader whose results are captured with transform feedback:
// integrates velocity under gravity and a curl-like wind field, respawns dead particles from a
// hashed seed, and writes the new state to the feedback buffer.
#version 450

layout(location = 0) in vec4 inPositionAge;  // xyz position, w age in seconds
layout(location = 1) in vec4 inVelocityLife; // xyz velocity, w lifetime

layout(xfb_buffer = 0, xfb_stride = 32, location = 0) out Particle {
  layout(xfb_offset = 0) vec4 positionAge;
  layout(xfb_offset = 16) vec4 velocityLife;
} outParticle;

layout(set = 0, binding = 0, std140) uniform Sim {
  vec4 emitterPosRadius;
  vec4 gravity;
  float dt;
  float time;
  float drag;
  uint frame;
} sim;

uint pcg(uint v) {
  uint state = v * 747796405u + 2891336453u;
  uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
  return (word >> 22u) ^ word;
}

float random01(inout uint seed) {
  seed = pcg(seed);
  return float(seed) / 4294967295.0;
}

vec3 wind(vec3 p, float t) {
  return vec3(sin(p.y * 0.7 + t), cos(p.z * 0.5 - t * 0.3), sin(p.x * 0.3 + t * 1.3)) * 0.8;
}

void main() {
  vec3 pos = inPositionAge.xyz;
  float age = inPositionAge.w;
  vec3 vel = inVelocityLife.xyz;
  float life = inVelocityLife.w;

  age += sim.dt;
  if (age >= life) {
    uint seed = uint(gl_VertexIndex) * 9781u + sim.frame * 6271u;
    vec3 dir = normalize(vec3(random01(seed) * 2.0 - 1.0, random01(seed) + 0.5,
                              random01(seed) * 2.0 - 1.0));
    pos = sim.emitterPosRadius.xyz + dir * sim.emitterPosRadius.w * random01(seed);
    vel = dir * mix(2.0, 6.0, random01(seed));
    life = mix(1.5, 4.0, random01(seed));
    age = 0.0;
  } else {
    vel += (sim.gravity.xyz + wind(pos, sim.time)) * sim.dt;
    vel *= exp(-sim.drag * sim.dt);
    pos += vel * sim.dt;
    if (pos.y < 0.0) {
      pos.y = -pos.y;
      vel.y = -vel.y * 0.4;
    }
  }
  outParticle.positionAge = vec4(pos, age);
  outParticle.velocityLife = vec4(vel, life);
  gl_Position = vec4(pos, 1.0);
}
