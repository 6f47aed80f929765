// target-env: opengl4.5
// glslang: -G --target-env opengl
// OpenGL SPIR-V (ARB_gl_spirv) fragment shader: atomic counters, uniforms in the default block
// with explicit locations, and an order-independent-transparency fragment list appended with
// an atomic counter and image stores.
#version 460

layout(location = 0) in vec4 inColor;
layout(location = 1) in vec3 inWorldPos;
layout(location = 0) out vec4 outColor;

layout(binding = 0, offset = 0) uniform atomic_uint fragmentCounter;
layout(binding = 0, offset = 4) uniform atomic_uint overflowCounter;

layout(location = 0) uniform vec4 clipPlane;
layout(location = 1) uniform float opacityScale;
layout(location = 2) uniform uint maxFragments;

layout(binding = 1, std430) buffer FragmentList {
  uvec4 fragments[];
};
layout(binding = 2, r32ui) uniform coherent uimage2D heads;

void main() {
  if (dot(vec4(inWorldPos, 1.0), clipPlane) < 0.0)
    discard;
  vec4 color = vec4(inColor.rgb, inColor.a * opacityScale);
  uint index = atomicCounterIncrement(fragmentCounter);
  if (index >= maxFragments) {
    atomicCounterIncrement(overflowCounter);
    outColor = color;
    return;
  }
  uint previous = imageAtomicExchange(heads, ivec2(gl_FragCoord.xy), index);
  fragments[index] = uvec4(packUnorm4x8(color), floatBitsToUint(gl_FragCoord.z), previous, 0u);
  uint seen = atomicCounter(fragmentCounter);
  outColor = vec4(0.0, 0.0, 0.0, float(seen % 2u) * 0.0);
}
