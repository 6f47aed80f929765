// target-env: vulkan1.2
// glslang: -V --target-env vulkan1.2
// Bindless material fragment shader: runtime-sized arrays of textures, samplers, storage
// buffers and storage images indexed with non-uniform indices, separate images and samplers
// combined at the point of use, and a per-draw material index from a flat input.
#version 460
#extension GL_EXT_nonuniform_qualifier : require
#extension GL_EXT_samplerless_texture_functions : require

layout(location = 0) in vec2 inUV;
layout(location = 1) in vec3 inNormal;
layout(location = 2) flat in uint inMaterial;
layout(location = 0) out vec4 outColor;

struct MaterialGpu {
  uint albedoIndex;
  uint normalIndex;
  uint samplerIndex;
  uint layerBuffer;
  vec4 tint;
};

layout(set = 0, binding = 0) uniform texture2D textures[];
layout(set = 1, binding = 0) uniform sampler samplers[4];
layout(set = 2, binding = 0, std430) readonly buffer MaterialTable { MaterialGpu materials[]; };
layout(set = 3, binding = 0, std430) readonly buffer LayerBuffers { vec4 weights[]; } layers[];
layout(set = 4, binding = 0, r32ui) uniform uimage2D counters[];

void main() {
  MaterialGpu m = materials[nonuniformEXT(inMaterial)];
  uint si = m.samplerIndex & 3u;
  vec4 albedo = texture(nonuniformEXT(sampler2D(textures[m.albedoIndex], samplers[si])), inUV);
  vec3 nTex = texture(nonuniformEXT(sampler2D(textures[m.normalIndex], samplers[si])), inUV).xyz;
  ivec2 size = textureSize(textures[nonuniformEXT(m.albedoIndex)], 0);
  vec4 texel = texelFetch(textures[nonuniformEXT(m.albedoIndex)], ivec2(inUV * vec2(size)), 0);

  vec4 w = layers[nonuniformEXT(m.layerBuffer)].weights[0];
  vec3 n = normalize(inNormal + (nTex * 2.0 - 1.0) * w.x);
  float light = max(dot(n, normalize(vec3(0.2, 1.0, 0.4))), 0.0) * w.y + w.z;
  imageAtomicAdd(counters[nonuniformEXT(inMaterial & 7u)], ivec2(gl_FragCoord.xy) / 16, 1u);
  outColor = vec4(mix(albedo.rgb, texel.rgb, 0.25) * m.tint.rgb * light, albedo.a * m.tint.a);
}
