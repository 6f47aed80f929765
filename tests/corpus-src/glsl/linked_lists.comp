// target-env: vulkan1.2
// glslang: -V --target-env vulkan1.2
// Order-independent transparency resolve over per-pixel linked lists reached through buffer
// device addresses: buffer_reference blocks (with alignment, arrays, and a self-referencing
// node type), pointers passed in push constants and stored in buffers, address arithmetic via
// uint64 conversions, and insertion sort of the fragments of each pixel.
#version 460
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_scalar_block_layout : require

layout(local_size_x = 8, local_size_y = 8) in;

layout(buffer_reference) buffer Node;
layout(buffer_reference, buffer_reference_align = 16, std430) buffer Node {
  vec4 color;
  float depth;
  uint pad;
  Node next;
};

layout(buffer_reference, scalar) readonly buffer HeadPointers { Node heads[]; };

layout(buffer_reference, std430, buffer_reference_align = 4) buffer Counters {
  uint fragmentsSeen;
  uint maxDepthComplexity;
};

layout(buffer_reference, scalar) writeonly buffer Pixels { vec4 pixels[]; };

layout(push_constant, scalar) uniform Push {
  HeadPointers heads;
  Pixels output_;
  Counters counters;
  uvec2 size;
  vec4 background;
} push;

const int MAX_FRAGMENTS = 16;

bool isNull(Node n) { return uint64_t(n) == 0ul; }

void main() {
  uvec2 p = gl_GlobalInvocationID.xy;
  if (any(greaterThanEqual(p, push.size)))
    return;
  uint pixel = p.y * push.size.x + p.x;

  vec4 colors[MAX_FRAGMENTS];
  float depths[MAX_FRAGMENTS];
  int count = 0;
  Node node = push.heads.heads[pixel];
  while (!isNull(node) && count < MAX_FRAGMENTS) {
    vec4 c = node.color;
    float d = node.depth;
    int j = count;
    while (j > 0 && depths[j - 1] < d) {
      colors[j] = colors[j - 1];
      depths[j] = depths[j - 1];
      --j;
    }
    colors[j] = c;
    depths[j] = d;
    ++count;
    node = node.next;
  }

  vec4 result = push.background;
  for (int i = 0; i < count; ++i)
    result = vec4(mix(result.rgb, colors[i].rgb, colors[i].a), result.a * (1.0 - colors[i].a));

  // Address arithmetic: the output pixel is reached from the base address plus an offset.
  uint64_t address = uint64_t(push.output_) + uint64_t(pixel) * 16ul;
  Pixels target = Pixels(address);
  target.pixels[0] = result;

  atomicAdd(push.counters.fragmentsSeen, uint(count));
  atomicMax(push.counters.maxDepthComplexity, uint(count));
}
