// target-env: vulkan1.1
// glslang: -V --target-env vulkan1.1
// Order-independent transparency with fragment shader interlock: a k-buffer of the nearest four
// layers per pixel kept sorted inside the critical section, with early fragment tests and the
// tail blended when the buffer is full.
#version 450
#extension GL_ARB_fragment_shader_interlock : require

layout(early_fragment_tests) in;
layout(pixel_interlock_ordered) in;

layout(location = 0) in vec4 inColor;
layout(location = 0) out vec4 outTail;

layout(set = 0, binding = 0, rgba32ui) uniform coherent uimage2DArray kBuffer;

const int LAYERS = 4;

void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  uvec2 fragment = uvec2(packUnorm4x8(inColor), floatBitsToUint(gl_FragCoord.z));
  vec4 tail = vec4(0.0);

  beginInvocationInterlockARB();
  uvec2 layers[LAYERS];
  for (int i = 0; i < LAYERS; ++i)
    layers[i] = imageLoad(kBuffer, ivec3(p, i)).xy;
  for (int i = 0; i < LAYERS; ++i) {
    bool empty = layers[i].y == 0u;
    if (empty || uintBitsToFloat(fragment.y) < uintBitsToFloat(layers[i].y)) {
      uvec2 evicted = layers[i];
      layers[i] = fragment;
      fragment = evicted;
      if (empty)
        break;
    }
  }
  for (int i = 0; i < LAYERS; ++i)
    imageStore(kBuffer, ivec3(p, i), uvec4(layers[i], 0u, 0u));
  endInvocationInterlockARB();

  if (fragment.y != 0u)
    tail = unpackUnorm4x8(fragment.x);
  outTail = vec4(tail.rgb * tail.a, tail.a);
}
